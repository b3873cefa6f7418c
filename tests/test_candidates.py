"""Candidate lessons from every shape of session: what is linked, what is the fix, what is only evidence."""
import pytest

from hookutil import PlayedSession
from lorebook.account import stated
from lorebook.candidates import session_candidates
from lorebook.chains import find_chains
from lorebook.commands import _same_target, _targets, command_family, command_job, invocation_change, parse_command
from lorebook.edits import net_changes
from lorebook.writeback import write_back

PROJECT = "github.com/acme/widget"


Session = PlayedSession


# --- parsing commands -------------------------------------------------------------------------------

@pytest.mark.parametrize("command, family, env, runner, cwd", [
    ("PYTHONPATH=src pytest tests/ -q 2>&1 | tail -5", "pytest", ["PYTHONPATH=src"], "", None),
    ("uv run pytest -q", "pytest", [], "uv run", None),
    ("cd web && npm test", "npm test", [], "", "web"),
    ("npm run build", "npm build", [], "", None),
    ("poetry run python manage.py migrate", "manage.py", [], "poetry run", None),
    ("npx jest --ci", "jest", [], "npx", None),
    ("make build PROFILE=release", "make build", [], "", None),
    ("docker compose up --wait", "docker compose up", [], "", None),
    ("env CGO_ENABLED=0 go test ./...", "go test", ["CGO_ENABLED=0"], "env", None),
    ("hatch run test:pytest -q", "pytest", [], "hatch run test:", None),  # a script in hatch's env "test"
])
def test_a_command_is_parsed_into_check_env_runner_and_directory(command, family, env, runner, cwd):
    parsed = parse_command(command)
    assert (parsed["family"], parsed["env"], parsed["runner"], parsed["cwd"]) == (family, env, runner, cwd)


@pytest.mark.parametrize("failed, passed, expected", [
    ("pytest -q", "PYTHONPATH=src pytest -q", ["set `PYTHONPATH=src`"]),
    ("pytest -q", "uv run pytest -q", ["run it through `uv run`"]),
    ("npm test", "cd web && npm test", ["run it from `web/`"]),
    ("cargo test", "cargo test --no-default-features --features rustls",
     ["pass `--features rustls`", "pass `--no-default-features`"]),
    ("ansible-playbook site.yml --check", "ansible-playbook site.yml --check --vault-password-file ~/.vault_pass",
     ["pass `--vault-password-file ~/.vault_pass`"]),
    ("helm upgrade web charts/web", "helm upgrade web charts/web -f values-staging.yaml",
     ["pass `-f values-staging.yaml`"]),
    ("pytest -q", "pytest -q -p no:randomly tests", ["pass `-p no:randomly`"]),
    ("./gradlew test", "./gradlew test --rerun --info", []),  # rerunning or printing more is no fix
    ("go test ./...", "go test -count=1 -v ./...", []),
    ("pytest tests/test_a.py -q", "pytest -q", []),  # a wider test selection is not a changed invocation
    # a variable taken away is the fix as much as one set; ``env`` itself is only how
    ("cd infra && terraform plan", "cd infra && env -u AWS_PROFILE --unset=AWS_SESSION_TOKEN terraform plan",
     ["unset `AWS_PROFILE`", "unset `AWS_SESSION_TOKEN`"]),
    ("pytest -q", "env DJANGO_SETTINGS_MODULE=app.settings.test pytest -q",
     ["set `DJANGO_SETTINGS_MODULE=app.settings.test`"]),
    ("pytest -q", "unset PYTHONHOME; pytest -q", ["unset `PYTHONHOME`"]),
    # an option given another value: the new value, once
    ("pnpm nx test --project web", "pnpm nx test --project @shop/web", ["pass `--project @shop/web`"]),
    ("pytest -q", "hatch run dev:pytest -q", ["run it through `hatch run dev:`"]),
    ("rebar3 release", "rebar3 as prod release", ["use `rebar3 as prod`"]),  # a profile chosen by words
    ("./gradlew :api:test --tests '*UserTest*'", "./gradlew :api:test", []),  # a wider selection is no fix
    ("timeout 20 php artisan queue:work", "php artisan queue:work", []),  # a time bound is how, not what
    ("cargo build 2>&1 | grep -E 'error|warning' | head -20", "cargo build 2>&1 | tail -3", []),
    ("ctest --test-dir build", "ctest --test-dir build --output-on-failure", []),  # it only prints more
    # the solution it is pointed at, where two sit side by side; a file of variables read in first
    ("dotnet test", "dotnet test Shop.sln", ["name `Shop.sln`"]),
    ("mix deps.get", "set -a && . ./.env.dev && set +a && mix deps.get", ["load `./.env.dev` first"]),
    ("bun test", "bun test --preload ./test/dom.ts", ["pass `--preload ./test/dom.ts`"]),
    # maven's reactor picks the module and builds what it needs (the same tests, run another way)
    ("cd billing && mvn -q test", "mvn -pl billing -am test", ["pass `-am`", "pass `-pl billing`"]),
    # (blind458 QQ11: the same module's factory for the app it no longer has)
    ("hypercorn shop.app:app --bind 127.0.0.1:5000", 'hypercorn "shop.app:create_app()" --bind 127.0.0.1:5000',
     ["pass `shop.app:create_app()`, not `shop.app:app`"]),
    # (blind471 RD01: a flag given twice, with the value that mattered second)
    ("kubeconform -strict deploy/", "kubeconform -strict -schema-location default -schema-location "
     "'schemas/crds/{{.ResourceKind}}.json' deploy/",
     ["pass `-schema-location default -schema-location schemas/crds/{{.ResourceKind}}.json`"]),
    ("cd billing && ../mvnw test", "./mvnw -pl billing -am test", ["pass `-am`", "pass `-pl billing`"]),
    ("./bin/phpunit tests/A.php", "vendor/bin/phpunit tests/A.php",  # (another script of the same name)
     ["run `vendor/bin/phpunit`", "without `./bin/phpunit`"]),
    # the arguments the shell computes where the failing run named them (``./...`` matches no module of a go.work)
    ("go test ./...", "go test $(go list -f '{{.Dir}}/...' -m)", ["pass `$(go list -f '{{.Dir}}/...' -m)`"]),
    # a board's options appended to its name (blind123 DT17: a sketch too big for the default partition)
    ("arduino-cli compile --fqbn esp32:esp32:esp32 .",
     "arduino-cli compile --fqbn esp32:esp32:esp32:PartitionScheme=min_spiffs .",
     ["append `:PartitionScheme=min_spiffs` to `--fqbn`"]),
    # a URL that only gained a query says that much (blind135 EF11); one that names another path is another URL
    ('psql "postgres://u@db:5432/metrics" -c "select 1"', 'psql "postgres://u@db:5432/metrics?sslmode=require" -c '
     '"select 1"', ["append `?sslmode=require` to the URL"]),
    ('psql "postgres://u@db:5432/m" -c "select 1"', 'psql "postgres://u@db:5432/metrics" -c "select 1"',
     ["pass `postgres://u@db:5432/metrics`", "without `postgres://u@db:5432/m`"]),
    # the environment a test runner builds for (blind148 ES17)
    ("pio test -e esp32dev", "pio test -e native", ["pass `-e native`"]),
    ("tox -e py311", "tox -e py312", ["pass `-e py312`"]),
    # a short option's value that names the directory the failing run reached into (blind149 ET03)
    ("dagster asset materialize -f src/pipelines/definitions.py",
     "dagster asset materialize -m pipelines.definitions -d src",
     ["pass `-d src`", "pass `-m pipelines.definitions`", "without `-f src/pipelines/definitions.py`"]),
])
def test_invocation_change_names_what_differs(failed, passed, expected):
    assert invocation_change(failed, passed) == expected


def test_options_passed_side_by_side_are_said_as_one_in_the_lines_order():
    from lorebook.candidates import _passed_together

    passing = "dagster asset materialize --select daily_orders -m pipelines.definitions -d src"
    assert _passed_together(["pass `-d src`", "pass `-m pipelines.definitions`", "without `-f src/p.py`"], passing) \
        == ["pass `-m pipelines.definitions -d src`", "without `-f src/p.py`"]
    # (apart in the line, apart in the lesson)
    assert _passed_together(["pass `-am`", "pass `-pl billing`"], "mvn -pl billing -q -am test") \
        == ["pass `-am`", "pass `-pl billing`"]
    # (said as the line quotes them: blind199 GR23's ``--apiKey "$ASC_KEY_ID" --apiIssuer "$ASC_ISSUER_ID"``)
    passing = 'xcrun altool --upload-app -f build/App.ipa -t ios --apiKey "$ASC_KEY_ID" --apiIssuer "$ASC_ISSUER_ID"'
    assert _passed_together(["pass `--apiIssuer $ASC_ISSUER_ID`", "pass `--apiKey $ASC_KEY_ID`"], passing) \
        == ['pass `--apiKey "$ASC_KEY_ID" --apiIssuer "$ASC_ISSUER_ID"`']
    # (and who it signs in as is no target of the upload: the same upload, another way to sign in)
    assert _same_target("xcrun altool --upload-app -f build/App.ipa -t ios -u rel@acme.io -p secret", passing)
    # (nor how the answer is printed: blind582 VK05's ``az deployment group create … -o none`` then ``-o table``; a
    # compiler's output file is named the same way)
    deploy = "az deployment group create -g rg-apim-dev -f apim/orders-api.bicep -p apim/dev.bicepparam"
    assert _same_target(f"{deploy} -o none", f"{deploy} -o table")
    assert "none" not in _targets(f"{deploy} -o none") and "app" in _targets("gcc -o app src/main.c")


def test_commands_that_do_the_same_job():
    assert command_job("pytest") == command_job("make test") == "test"
    # a task runner's ``test:unit`` by its first part; a test script named test.js by what it is
    assert command_job("bb test:cljs") == command_job("npm run test:unit") == command_job("node dist/test.js") == "test"
    assert command_job("yarn build:prod") == "build"
    # a subcommand named for the job (``cargo zigbuild``, ``cargo nextest run``)
    assert command_job("cargo zigbuild --release --target aarch64-unknown-linux-gnu") == "build"
    assert command_job("cargo nextest run") == "test"
    assert command_job("west twister -T tests/lib/ringbuf -p native_sim") == "test"  # (blind151 EV10: Zephyr's runner)
    assert command_job("godot --headless --script test/unit/test_inventory.gd") == "test"  # (blind154 EY05)
    assert command_job("godot --headless -s tools/export.gd") is None
    assert command_job("npm install") == command_job("pnpm install") == "install"
    assert command_job("mix deps.get") != command_job("mix test")


# --- the net change -------------------------------------------------------------------------------

def _edit(i, path, old, new):
    body = "\n".join([f"-{l}" for l in old.splitlines()] + [f"+{l}" for l in new.splitlines()])
    return {"id": i, "tool": "Edit", "outcome": "ok", "target": path, "files": [path], "body": body}


def test_a_second_try_replaces_the_first_and_a_revert_disappears():
    edits = [_edit(1, "/p/conftest.py", 'URL = "localhost"', 'URL = "127.0.0.1"'),
             _edit(2, "/p/conftest.py", 'URL = "127.0.0.1"', 'URL = os.environ["URL"]'),
             _edit(3, "/p/Cargo.toml", 'reqwest = "0.12"', 'reqwest = "0.11"'),
             _edit(4, "/p/Cargo.toml", 'reqwest = "0.11"', 'reqwest = "0.12"')]
    net = net_changes(edits, "/p")
    assert net["conftest.py"] == [{"old": 'URL = "localhost"', "new": 'URL = os.environ["URL"]', "ids": [1, 2]}]
    assert net["Cargo.toml"] == []


def test_a_second_edit_over_the_last_line_an_attempt_added_and_the_line_below_it_composes():
    # (blind409 OT21: ``packageVersion = "1.9.0"`` added under ``bundleID``, then taken out by the edit of the
    # ``dmgPackageVersion`` line below it: the attempt is gone from the net change)
    pad = " " * 16
    edits = [_edit(1, "/p/build.gradle.kts", f'{pad}bundleID = "com.acme"',
                   f'{pad}bundleID = "com.acme"\n{pad}packageVersion = "1.9.0"'),
             _edit(2, "/p/build.gradle.kts", f'{pad}packageVersion = "1.9.0"\n{pad}dmgPackageVersion = appVersion',
                   f'{pad}dmgPackageVersion = "1." + appVersion.substringAfter(".")')]
    (hunk,) = net_changes(edits, "/p")["build.gradle.kts"]
    assert hunk["old"] == f'{pad}bundleID = "com.acme"\n{pad}dmgPackageVersion = appVersion'
    assert hunk["new"] == f'{pad}bundleID = "com.acme"\n{pad}dmgPackageVersion = "1." + appVersion.substringAfter(".")'
    # (and over the line above it and the first line it wrote)
    edits = [_edit(1, "/p/a.py", "b = 2", "b = 3\nc = 4"), _edit(2, "/p/a.py", "a = 1\nb = 3", "a = 0")]
    (hunk,) = net_changes(edits, "/p")["a.py"]
    assert (hunk["old"], hunk["new"]) == ("a = 1\nb = 2", "a = 0\nc = 4")


# --- chains ---------------------------------------------------------------------------------------

def _bash(i, command, ok=True, signature=None, error=""):
    return {"id": i, "tool": "Bash", "target": command, "outcome": "ok" if ok else "error",
            "error_signature": signature, "error_text": error}


def test_a_changed_invocation_resolves_a_failure_without_any_edit():
    chains, notes = find_chains([_bash(1, "pytest -q", False, "ModuleNotFoundError: No module named '<mod>'"),
                                 _bash(2, "PYTHONPATH=src pytest -q")])
    assert len(chains) == 1 and chains[0]["kind"] == "same_check" and notes == []


def test_another_apps_tests_passing_is_no_pass_of_the_failing_ones():
    # (blind109 DF12: ``manage.py test accounts`` passing did not resolve the ``test billing`` that failed)
    chains, notes = find_chains([
        _bash(1, "python manage.py test billing", False, "ProgrammingError: column <name> does not exist"),
        _bash(2, "python manage.py test accounts 2>&1 | tail -4")])
    assert chains == [] and notes == ["unresolved_failure"]
    chains, _ = find_chains([
        _bash(1, "python manage.py test billing", False, "ProgrammingError: column <name> does not exist"),
        _bash(2, "python manage.py test")])
    assert len(chains) == 1


def test_the_failing_program_run_by_its_script_under_another_interpreter_is_the_same_check():
    # (blind116 DM16: jest run on Electron's own node passes where ``npx jest`` met the wrong ABI)
    failing = _bash(1, "npx jest src/main/db", False, "NODE_MODULE_VERSION 119")
    (chain,), _ = find_chains([failing, _bash(2, "ELECTRON_RUN_AS_NODE=1 npx electron node_modules/jest/bin/jest.js "
                                                 "src/main/db")])
    assert chain["kind"] == "same_check" and chain["success"]["id"] == 2
    # (another target is no pass of the failing one)
    assert find_chains([failing, _bash(2, "npx electron node_modules/jest/bin/jest.js src/renderer")])[0] == []

def test_a_server_started_in_the_background_and_answering_the_next_request_passed():
    observations = [_bash(1, "uv run litestar --app app.main:app run --port 8000", False, "ImproperlyConfiguredException",
                          "ImproperlyConfiguredException: 500: Kwarg resolution ambiguity detected"),
                    _edit(2, "/p/app/routes/users.py", 'dependencies={"user_id": x}', 'dependencies={"user": x}'),
                    _bash(3, "(uv run litestar --app app.main:app run --port 8000 > /tmp/l.log 2>&1 &) ; sleep 3"),
                    _bash(4, "curl -s localhost:8000/users/1")]
    (chain,), notes = find_chains(observations)
    assert chain["success"]["id"] == 3 and [c["id"] for c in chain["changes"]] == [2] and notes == []
    # started again, but nothing asked it anything: not shown to work
    chains, notes = find_chains(observations[:3] + [_bash(4, "git status")])
    assert chains == [] and notes == ["unresolved_failure"]


@pytest.mark.parametrize("output, stayed", [
    ("[tasks]\n  . proj.tasks.sync_orders\ncelery@build-7 ready.\nexit=124", True),  # stopped by the timeout
    ("Traceback (most recent call last):\nImportError: cannot import name 'app'\nexit=1", False),
    ("celery@build-7 ready.\nexit=0", False),  # it exited on its own: not a process that stays up
])
def test_a_daemon_still_running_when_its_timeout_stopped_it_passed(output, stayed):
    failed = _bash(1, "python -m celery -A proj worker -l info", False, "ImportError",
                   "Traceback (most recent call last):\nImportError: cannot import name 'app' from 'proj'")
    later = dict(_bash(3, "timeout -s INT 10 python -m celery -A proj worker -l info; echo exit=$?"), body=output)
    chains, _ = find_chains([failed, _edit(2, "/p/proj/__init__.py", "", "from .celery import app"), later])
    assert bool(chains) is stayed
    if stayed:
        assert chains[0]["success"]["target"] == "python -m celery -A proj worker -l info"


def test_a_worker_started_in_the_background_passes_when_its_own_status_says_it_runs():
    observations = [_bash(1, "timeout 15 php artisan horizon", False, "InvalidArgumentException",
                          "InvalidArgumentException\n  Redis connection [queue] not configured."),
                    _edit(2, "/p/config/horizon.php", "'use' => 'queue',", "'use' => 'default',"),
                    _bash(3, "php artisan config:clear"),
                    dict(_bash(4, "(php artisan horizon > storage/logs/h.log 2>&1 &) ; sleep 6; "
                                  "php artisan horizon:status"), body="INFO  Horizon is running.")]
    (chain,), _ = find_chains(observations)
    assert chain["success"]["id"] == 4 and chain["success"]["target"].startswith("php artisan horizon")
    observations[3]["body"] = "ERROR  Horizon is inactive."
    assert find_chains(observations)[0] == []


@pytest.mark.parametrize("listing, started", [
    ("  APP ID  HTTP PORT  GRPC PORT  APP PORT  COMMAND        AGE\n  orders  43121      35517      50051     "
     "python app.py  8s", True),  # its own listing names the app it started
    ("No Dapr instances found.", False),
    ("  APP ID  HTTP PORT  COMMAND\n  billing  43121   python billing.py", False),  # another app
])
def test_a_server_started_in_the_background_passes_when_its_own_listing_shows_it(listing, started):
    # (blind188 GG10: ``dapr run`` failed to find its state store; ``--resources-path ./components`` in the
    # background, then ``dapr list``)
    observations = [_bash(1, "dapr run --app-id orders --app-port 50051 -- python app.py", False, "_InactiveRpcError",
                          "== APP == grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n"
                          "== APP == \tdetails = \"state store orders-store is not found\""),
                    _bash(2, "ls components/"),
                    dict(_bash(3, "(dapr run --app-id orders --app-port 50051 --resources-path ./components -- python "
                                  "app.py > /tmp/orders.log 2>&1 &) && sleep 8 && dapr list"), body=listing)]
    chains, _ = find_chains(observations)
    assert bool(chains) is started
    if started:
        assert "--resources-path ./components" in chains[0]["success"]["target"]


@pytest.mark.parametrize("second_path, second_new, parts", [
    # each error named by its own edit: two problems
    ("/p/Sources/Billing/openapi-generator-config.yaml", "generate:\n  - types\n  - client", 2),
    # the same file changed for both: one change
    ("/p/Package.swift", "    swiftLanguageVersions: [.v5]", 1),
])
def test_one_output_with_two_errors_fixed_by_two_edits_is_two_problems(second_path, second_new, parts):
    error = ("error: the library 'Billing' requires macos 10.13, but depends on the product 'OpenAPIRuntime' which "
             "requires macos 10.15\nerror: Issues found:\n- No config file found in the target named 'Billing'. Add "
             "a file called 'openapi-generator-config.yaml' to the target's source directory.")
    observations = [_bash(1, "swift build", False, "error: the library", error),
                    _edit(2, "/p/Package.swift", "    name: \"billing\",",
                          "    name: \"billing\",\n    platforms: [.macOS(.v13)],"),
                    _edit(3, second_path, "", second_new), _bash(4, "swift build")]
    chains, _ = find_chains(observations)
    assert len(chains) == parts
    if parts == 2:
        assert [c["changes"][0]["id"] for c in chains] == [2, 3]
        assert "macos 10.15" in chains[0]["failure"]["error_text"]
        assert "openapi-generator-config.yaml" in chains[1]["failure"]["error_text"]


@pytest.mark.parametrize("output, passed", [
    ("> Task :app:kaptDebugKotlin\n> Task :app:compileDebugKotlin\n> Task :app:assembleDebug\n\nBUILD SUCCESSFUL in 1m",
     True),  # the task that failed ran in the wider build, and it passed
    ("> Task :app:compileDebugKotlin\n> Task :app:assembleDebug\n\nBUILD SUCCESSFUL in 1m", False),  # it never ran
])
def test_a_wider_gradle_build_that_ran_the_failed_task_passes_it(output, passed):
    # (blind187 GF10: ``./gradlew :app:kaptDebugKotlin`` failed; ``./gradlew :app:assembleDebug`` ran it and passed)
    observations = [_bash(1, "./gradlew :app:kaptDebugKotlin", False, "error: Dagger does not support injection",
                          "> Task :app:kaptDebugKotlin FAILED\nMainActivity.java:14: error: Dagger does not support "
                          "injection into private fields\nBUILD FAILED in 23s"),
                    _edit(2, "/p/app/src/main/java/MainActivity.kt", "@Inject private lateinit var tracker",
                          "@Inject lateinit var tracker"),
                    dict(_bash(3, "./gradlew :app:assembleDebug"), body=output)]
    chains, _ = find_chains(observations)
    assert bool(chains) is passed


@pytest.mark.parametrize("later, resolved", [
    ("./mvnw test -Dtest=PriceFormatterTest", False),  # another class: not the failing tests run another way
    ("./mvnw test -Dtest=SearchResourceTest", True),
    ("./gradlew test --tests com.acme.catalog.PriceFormatterTest", False),
])
def test_a_test_class_picked_by_name_that_did_not_fail_resolves_nothing(later, resolved):
    # (blind198 GQ12: ``./mvnw test -Dtest=PriceFormatterTest`` passing closed the suite's failure in
    # ``SearchResourceTest``, and a "use … instead" was stored)
    failed = "./mvnw clean test" if later.startswith("./mvnw") else "./gradlew clean test"
    error = ("[ERROR] Tests run: 4, Failures: 0, Errors: 4 <<< FAILURE! -- in com.acme.catalog.SearchResourceTest\n"
             "[ERROR]   SearchResourceTest.searchByPartialName » Runtime Failed to start quarkus")
    chains, _ = find_chains([_bash(1, failed, False, "Failed to start quarkus", error), _bash(2, later)])
    assert bool(chains) is resolved


@pytest.mark.parametrize("second, parts", [
    ("ReplyError: CROSSSLOT Keys in request don't hash to the same slot", 2),  # another message: another problem
    ("ReplyError: MOVED 12182 127.0.0.1:7002", 1),  # the same message, other numbers: the same problem
])
def test_one_error_class_with_another_message_is_another_problem(second, parts):
    # (blind185 GD18: ioredis' ``ReplyError: MOVED …`` fixed by a cluster client, then ``ReplyError: CROSSSLOT …``
    # by hash tags; one error class, two problems)
    observations = [_bash(1, "npx vitest run test/sessionStore.test.ts", False, "ReplyError: MOVED <n> <ip>",
                          " FAIL  test/sessionStore.test.ts > SessionStore > round-trips a session\n"
                          "ReplyError: MOVED 6918 127.0.0.1:7001\n ❯ parseError node_modules/redis-parser/lib/parser.js"),
                    _edit(2, "/p/src/redis.ts", "new Redis(url)", "new Redis.Cluster([{ host, port: 7000 }])"),
                    _bash(3, "npx vitest run test/sessionStore.test.ts", False, second.split(" Keys")[0],
                          f" FAIL  test/sessionStore.test.ts > SessionStore > saves atomically\n{second}\n"
                          " ❯ parseError node_modules/redis-parser/lib/parser.js"),
                    _edit(4, "/p/src/sessionStore.ts", "`session:${id}`", "`session:{${id}}`"),
                    _bash(5, "npx vitest run test/sessionStore.test.ts")]
    chains, _ = find_chains(observations)
    assert len(chains) == parts
    if parts == 2:
        assert [[e["id"] for e in c["changes"]] for c in chains] == [[2], [4]]


def test_one_output_with_two_errors_each_quoted_beside_its_edit_by_the_account_is_two_problems():
    # (blind201 GT21: vitest's ``→ [🍍]: "getActivePinia()" was called …`` and ``ReferenceError: document is not
    # defined``, fixed in a spec and in vite.config.ts; the account ties each quoted error to its quoted code)
    error = ("   × cart store > adds an item\n     → [🍍]: \"getActivePinia()\" was called but there was no active Pinia.\n"
             "   × CartSummary > shows an empty state\n     → document is not defined\n"
             " FAIL  src/components/__tests__/CartSummary.spec.ts > CartSummary > shows an empty state\n"
             "ReferenceError: document is not defined")
    observations = [_bash(1, "npx vitest --run", False, "ReferenceError: document is not defined", error),
                    _edit(2, "/p/src/stores/__tests__/cart.spec.ts", "describe('cart store', () => {",
                          "import { setActivePinia, createPinia } from 'pinia'\n\ndescribe('cart store', () => {\n"
                          "  beforeEach(() => setActivePinia(createPinia()))"),
                    _edit(3, "/p/vite.config.ts", "  test: {", "  test: {\n    environment: 'jsdom',"),
                    _bash(4, "npx vitest --run")]
    account = ("Each store test now starts with `setActivePinia(createPinia())`. The component test failed with "
               "`document is not defined` because vitest ran in node; `environment: 'jsdom'` fixed that.")
    chains, _ = find_chains(observations, account)
    assert [c["changes"][0]["id"] for c in chains] == [2, 3]
    assert chains[0]["failure"]["error_text"].startswith("[🍍]")
    assert "document is not defined" in chains[1]["failure"]["error_text"]
    assert len(find_chains(observations, "Both suites pass.")[0]) == 1  # (nothing ties the config to an error)


def test_one_error_fixed_in_two_files_stays_one_problem():
    # the traceback's context line names one file's change, its error line the other's: still one error
    error = ("    async def get(self):\n>       if doc[\"expires_at\"] < datetime.utcnow():\n"
             "E       TypeError: can't compare offset-naive and offset-aware datetimes")
    observations = [_bash(1, "pytest tests/test_tokens.py -q", False, "TypeError", error),
                    _edit(2, "/p/app/db.py", "    serverSelectionTimeoutMS=3000,",
                          "    serverSelectionTimeoutMS=3000,\n    tz_aware=True,  # aware datetimes to compare"),
                    _edit(3, "/p/app/handlers/tokens.py", "if doc[\"expires_at\"] < datetime.utcnow():",
                          "if doc[\"expires_at\"] < datetime.now(timezone.utc):"),
                    _bash(4, "pytest tests/test_tokens.py -q")]
    (chain,), _ = find_chains(observations)
    assert [c["id"] for c in chain["changes"]] == [2, 3]


def test_a_scoped_package_name_is_the_same_package_as_its_short_name():
    (chain,), _ = find_chains([_bash(1, "pnpm vitest run --project api", False, "Error: No projects matched"),
                               _bash(2, "pnpm vitest run --project @acme/api 2>&1 | tail -20")])
    assert chain["kind"] == "same_check"
    chains, _ = find_chains([_bash(1, "pnpm --filter @acme/sdk build", False, "error TS2307"),
                             _bash(2, "pnpm --filter @acme/shared build")])
    assert chains == []


def test_a_retry_with_nothing_changed_is_a_chain_with_no_change():
    chains, _ = find_chains([_bash(1, "npm install", False, "npm ERR! code ETIMEDOUT"), _bash(2, "npm install")])
    assert chains[0]["all_changes"] == [] and invocation_change("npm install", "npm install") == []


def test_another_command_that_passes_is_not_the_failing_check():
    observations = [_bash(1, "mix test", False, "KeyError"), _edit(2, "/p/lib/a.ex", "x", "y"),
                    _bash(3, "mix deps.get")]
    chains, notes = find_chains(observations)
    assert chains == [] and notes == ["unresolved_failure"]


def test_another_test_file_passing_is_not_the_failing_test_passing():
    observations = [_bash(1, "pytest tests/test_a.py -q", False, "AssertionError"),
                    _edit(2, "/p/app/a.py", "x = 1", "x = 2"),
                    _bash(3, "pytest tests/test_b.py -q"),
                    _bash(4, "pytest tests/test_a.py::test_one -q")]
    (chain,), _ = find_chains(observations)
    assert chain["success"]["id"] == 4  # the failing file again (one of its tests), not another file
    assert find_chains([observations[0], observations[2]]) == ([], ["unresolved_failure"])


def test_feature_work_across_many_unnamed_files_is_not_linked_to_an_old_failure(git_project, store):
    session = Session("feat", git_project).fail("pytest -q", "Exit code 1\nE   AssertionError: assert 3 == 4")
    for name in ("app/models.py", "app/views.py", "app/forms.py", "app/urls.py", "app/admin.py"):
        session.edit(name, "pass", "return None")
    session.ok("pytest -q", "64 passed").stop("Built the export feature; all tests pass.")
    candidates, notes = session_candidates(store, "feat", "Built the export feature; all tests pass.")
    assert candidates == [] and notes == ["unrelated_change"]


def test_the_projects_own_test_command_resolves_a_failing_test_run():
    chains, _ = find_chains([_bash(1, "pytest", False, "ImproperlyConfigured"), _bash(2, "make test")])
    assert [c["kind"] for c in chains] == ["same_job"]


@pytest.mark.parametrize("command, error", [
    ("git push", "fatal: The current branch x has no upstream branch."),
    ("cd srcc && ls", "/bin/bash: line 1: cd: srcc: No such file or directory"),
    ("git commit -m x", "black....Failed\n- files were modified by this hook"),
])
def test_routine_plumbing_is_not_a_lesson(command, error):
    chains, notes = find_chains([_bash(1, command, False, "x", error), _bash(2, command + " -u")])
    assert chains == [] and notes == ["routine_plumbing"]


def test_a_new_error_after_a_kept_change_is_a_second_problem():
    observations = [_bash(1, "pytest -q", False, "ModuleNotFoundError"),
                    _bash(2, "PYTHONPATH=src pytest -q", False, "AssertionError: assert <n> == <n>"),
                    _edit(3, "/p/src/money.py", "ROUND_HALF_EVEN", "ROUND_HALF_UP"),
                    _bash(4, "PYTHONPATH=src pytest -q")]
    chains, _ = find_chains(observations)
    assert [(c["failure"]["id"], c["resolved_by"]["id"]) for c in chains] == [(1, 2), (2, 4)]


def test_a_new_error_caused_by_a_reverted_attempt_is_the_same_problem():
    observations = [_bash(1, "cargo build", False, "error[E0599]"),
                    _edit(2, "/p/Cargo.toml", 'reqwest = "0.12"', 'reqwest = "0.11"'),
                    _bash(3, "cargo build", False, "error[E0433]"),
                    _edit(4, "/p/Cargo.toml", 'reqwest = "0.11"', 'reqwest = "0.12"'),
                    _edit(5, "/p/src/http.rs", ".into_future()", ".send()"),
                    _bash(6, "cargo build")]
    (chain,), _ = find_chains(observations)
    assert [a["id"] for a in chain["attempts"]] == [2] and [c["id"] for c in chain["changes"]] == [4, 5]


def test_did_not_help_sentences_are_kept_apart_from_causes():
    said = stated("Setting LANG in conftest did not help. The cause was open() without an encoding, "
                  "so I passed encoding='utf-8'.")
    assert said["did_not_help"] == ["Setting LANG in conftest did not help."]
    assert said["cause"] == ["The cause was open() without an encoding, so I passed encoding='utf-8'."]



def test_a_change_made_while_there_is_incidental():
    # (blind53 BB12: "While there I added `vitest/globals` to the tsconfig" titled the lesson over the jsdom fix)
    from lorebook.account import _INCIDENTAL
    assert _INCIDENTAL.search("While there I added `vitest/globals` to the tsconfig `types`.")
    assert not _INCIDENTAL.search("While there are pending migrations, `manage.py test` refuses to start.")

def test_a_caveat_for_later_is_no_cause():
    # (blind101 CX24: the note's cause was the upkeep sentence, and the fix it led to was cut from the card)
    said = stated("The repo vendors the httpfs build, so the connection now opens with `extension_directory` pointed "
                  "there. When duckdb gets bumped, the vendored extension has to be rebuilt for the new version too.")
    assert said["cause"] == [] and len(said["fix"]) == 1
    assert stated("When the pool is exhausted, requests have to wait: raised `pool_size`.")["cause"]


def test_what_a_reader_found_no_key_for_is_a_cause():
    # (blind256 IW24: "… so the JSONDecoder handed to `responseDecodable` found no `orderId` key" was no cause, and
    # the lesson's summary was only "Added `decoder.keyDecodingStrategy = .convertFromSnakeCase` …")
    said = stated("The orders payload is snake_case now (`order_id`) while `Order`'s properties are camelCase, so the "
                  "JSONDecoder found no `orderId` key. Added `decoder.keyDecodingStrategy = .convertFromSnakeCase`.")
    assert len(said["cause"]) == 1 and "found no" in said["cause"][0]
    assert not stated("Ran the linter again; it found no problems.")["cause"]

# --- whole sessions through the hooks ----------------------------------------------------------------

def test_a_fix_by_changing_only_how_the_command_runs_is_stored(git_project, store):
    (Session("inv", git_project, "run the tests")
     .fail("pytest tests/ -q", "Exit code 2\nE   ModuleNotFoundError: No module named 'calc'")
     .ok("PYTHONPATH=src pytest tests/ -q", "48 passed in 1.02s")
     .stop("The package lives under src/ and is not installed, so pytest needs PYTHONPATH=src."))
    (note,) = store.project_notes(PROJECT)
    # the title says what changed; the change holds the whole passing line
    assert note["title"].endswith("— set `PYTHONPATH=src`") and note["verified"] == 1
    assert "PYTHONPATH=src pytest tests/ -q" in note["change"] and "lives under src/" in note["summary"]
    assert note["validation"]["passed"] == ["`PYTHONPATH=src pytest tests/ -q` passed after the change (observation 2)"]


def test_a_fix_on_the_second_try_stores_the_net_change_and_the_first_try_as_evidence(git_project, store):
    (Session("two", git_project)
     .fail("pytest tests/test_cache.py -q", "Exit code 1\nE   redis.exceptions.ConnectionError: Error 111 "
                                            "connecting to localhost:6379. Connection refused.")
     .edit("tests/conftest.py", 'REDIS_URL = "redis://localhost:6379/0"', 'REDIS_URL = "redis://127.0.0.1:6379/0"')
     .fail("pytest tests/test_cache.py -q", "Exit code 1\nE   redis.exceptions.ConnectionError: Error 111 "
                                            "connecting to 127.0.0.1:6379. Connection refused.")
     .edit("tests/conftest.py", 'REDIS_URL = "redis://127.0.0.1:6379/0"',
           'REDIS_URL = os.environ.get("REDIS_URL", "redis://redis:6379/0")')
     .ok("pytest tests/test_cache.py -q", "9 passed")
     .stop("Switching to 127.0.0.1 did not help: Redis runs as the `redis` service in the dev container, so "
           "conftest now reads REDIS_URL with redis://redis:6379/0 as the default."))
    (note,) = store.project_notes(PROJECT)
    assert "127.0.0.1" not in note["change"] and "127.0.0.1" not in note["title"]
    assert '-REDIS_URL = "redis://localhost:6379/0"' in note["change"]
    assert 'redis://redis:6379/0' in note["change"] and str(git_project) not in note["change"]
    (tried,) = [e["quote"] for e in note["evidence"] if e["quote"].startswith("tried")]
    assert "127.0.0.1" in tried and "still failed" in tried
    assert note["summary"].endswith("Switching to 127.0.0.1 did not help.")  # said as what not to repeat


def test_a_weakened_test_is_flagged_and_never_stored_as_a_fix(git_project, store):
    (Session("weak", git_project)
     .fail("pytest tests/test_totals.py -q", "Exit code 1\nFAILED tests/test_totals.py::test_vat - assert 10.5 == 10.49")
     .edit("tests/test_totals.py", "    assert total == 10.49", "    assert total == pytest.approx(10.49, abs=0.1)")
     .ok("pytest tests/test_totals.py -q", "3 passed")
     .stop("Loosened the tolerance in test_vat because the totals are close enough; the tests pass now."))
    assert store.stats()["notes"] == 0
    results = write_back(store, "weak", "replay")
    assert results[0]["decision"] == "skipped" and "weakened_test" in results[0]["reason_codes"]


@pytest.mark.parametrize("old, new", [
    ("  it('applies the discount', () => {", "  it.skip('applies the discount', () => {"),
    ('  test "renders annotation" do', '  @tag :skip\n  test "renders annotation" do'),
    ("def test_discount():\n    assert total(100) == 90", "def test_discount_later():\n    assert total(100) == 90"),
    ("    assert total(100) == 90\n    assert total(0) == 0", "    assert total(0) == 0"),
])
def test_every_way_of_weakening_a_test_is_caught(git_project, store, old, new):
    (Session("w", git_project)
     .fail("npx jest tests/cart.test.js", "Exit code 1\n ● cart › applies the discount\n Expected: 90\n Received: 100")
     .edit("tests/cart.test.js", old, new)
     .ok("npx jest tests/cart.test.js", "6 passed"))
    candidates, notes = session_candidates(store, "w", "The cart tests pass now.")
    assert candidates == [] and notes == ["weakened_test"]


def test_an_unrelated_doc_edit_is_never_linked_as_the_fix(git_project, store):
    (Session("doc", git_project)
     .fail("pytest -q", "Exit code 1\nE   psycopg.OperationalError: connection failed: Connection refused")
     .edit("README.md", "## Setup\n", "## Setup\n\nSee docs/dev.md.\n")
     .ok("docker compose up -d db", "Container shop-db-1  Started")
     .ok("pytest -q", "210 passed")
     .stop("The tests need the Postgres container: run `docker compose up -d db` first. I also tidied the README."))
    (note,) = store.project_notes(PROJECT)
    assert "docker compose up -d db" in note["change"] and "README" not in note["change"] + note["title"]
    assert note["files"] == []


def test_a_push_needing_an_upstream_after_unrelated_work_stores_nothing(git_project, store):
    (Session("push", git_project)
     .edit("app/annotation.py", "def render(self):", "def render(self, *, compact=False):")
     .fail("git push", "Exit code 128\nfatal: The current branch feature/compact has no upstream branch.")
     .ok("git push -u origin feature/compact", "set up to track")
     .stop("Added a compact flag and pushed the branch."))
    assert store.stats()["notes"] == 0


def test_two_independent_problems_give_two_lessons_each_with_its_own_account(git_project, store):
    (Session("multi", git_project)
     .fail("pytest -q", "Exit code 2\nE   ModuleNotFoundError: No module named 'ledger'")
     .ok("PYTHONPATH=src pytest -q", "41 passed")
     .fail("PYTHONPATH=src pytest -q tests/test_money.py",
           "Exit code 1\nFAILED tests/test_money.py::test_round - AssertionError: assert Decimal('2.67') == "
           "Decimal('2.68')")
     .edit("src/ledger/money.py", "rounding=ROUND_HALF_EVEN", "rounding=ROUND_HALF_UP")
     .ok("PYTHONPATH=src pytest -q tests/test_money.py", "6 passed")
     .stop("Two things: the package is under src/ and not installed, so tests need PYTHONPATH=src. And money.round() "
           "used banker's rounding (ROUND_HALF_EVEN) while invoices must round half up; it now uses ROUND_HALF_UP."))
    notes = sorted(store.project_notes(PROJECT), key=lambda n: n["id"])
    assert len(notes) == 2
    assert "PYTHONPATH=src" in notes[0]["summary"] and "ROUND_HALF_UP" not in notes[0]["summary"]
    assert "ROUND_HALF_UP" in notes[1]["summary"] and "ROUND_HALF_UP" in notes[1]["change"]


def test_the_users_stated_cause_reaches_the_summary(git_project, store):
    (Session("bom", git_project, "The CSV import breaks on Excel exports. I think it's the BOM at the start.")
     .fail("python -m app.importer data/x.csv", "Exit code 1\nKeyError: 'id'")
     .edit("app/importer.py", 'open(path, newline="")', 'open(path, newline="", encoding="utf-8-sig")')
     .ok("python -m app.importer data/x.csv", "imported 318 contacts")
     .stop("Fixed."))
    (note,) = store.project_notes(PROJECT)
    assert "BOM" in note["summary"] and "utf-8-sig" in note["change"]


def test_a_failure_the_user_reports_with_its_cause_is_learnt_from_the_edit_and_the_run_it_names(git_project, store):
    (Session("report", git_project, "The nightly docker build fails since the base image bump. It's because "
                                      "the Dockerfile still installs libssl1.1, which bookworm no longer has.")
     .edit("Dockerfile", "RUN apt-get install -y libssl1.1", "RUN apt-get install -y libssl3")
     .ok("docker build -t nightly .", "Successfully built 3f2a1c9e0b7d\nSuccessfully tagged nightly:latest")
     .stop("Done: installs libssl3 now, and the image builds."))
    (note,) = store.project_notes(PROJECT)
    assert note["title"].startswith("The nightly docker build fails since the base image bump — ")
    assert "The user's diagnosis: It's because the Dockerfile still installs libssl1.1" in note["summary"]
    assert "+RUN apt-get install -y libssl3" in note["change"] and note["verified"] == 1
    assert "`docker build -t nightly .` passed after the change" in note["validation"]["passed"][0]
    assert "reported failure itself was not run" in note["validation"]["not_performed"][0]


def test_a_reported_failure_checked_another_way_is_stored_unverified_and_injectable(git_project, store):
    (Session("report-lint", git_project, "Loading the add-on with `web-ext run` fails with \"background.service_worker "
                                          "is currently disabled. Add background.scripts.\" I think Firefox just "
                                          "wants background.scripts too.")
     .edit("addon/manifest.json", '    "service_worker": "service-worker.js",',
           '    "service_worker": "service-worker.js",\n    "scripts": ["service-worker.js"],')
     .ok("npx web-ext lint --source-dir addon", "errors 0 notices 0 warnings 0")
     .stop("Added background.scripts."))
    (note,) = store.project_notes(PROJECT)
    assert note["verified"] == 0 and note["status"] == "active"  # (its validation speaks for no one)
    assert "The user's diagnosis: Firefox just wants background.scripts too." in note["summary"]
    assert "(web-ext run) was not rerun" in note["validation"]["not_performed"][0]


@pytest.mark.parametrize("check", [
    "npm run lint",  # a run of something else than what the user says fails
    None,  # no run at all after the edit
])
def test_a_reported_failure_needs_a_passing_run_of_what_failed(git_project, store, check):
    session = (Session("report-no", git_project, "The nightly docker build fails since the base image bump. "
                                                 "It's because the Dockerfile still installs libssl1.1.")
               .edit("Dockerfile", "RUN apt-get install -y libssl1.1", "RUN apt-get install -y libssl3"))
    if check:
        session.ok(check, "0 problems")
    session.stop("Switched to libssl3.")
    assert store.project_notes(PROJECT) == []


def test_a_reported_failing_test_made_to_pass_by_skipping_it_is_no_fix(git_project, store):
    (Session("report-skip", git_project, "tests/test_refund.py fails in CI because the payment stub returns a float.")
     .edit("tests/test_refund.py", "def test_refund():", "@pytest.mark.skip\ndef test_refund():")
     .ok("pytest tests/test_refund.py", "1 skipped in 0.02s")
     .stop("Skipped it for now."))
    assert store.project_notes(PROJECT) == []


@pytest.mark.parametrize("new_line, stored", [
    ('    "@nestjs/swagger": "^7.4.2",', True),  # names what the error names
    ('    "lint-staged": "^15.2.0",', False),  # an edit the error says nothing of
])
def test_a_server_that_would_not_start_checked_by_the_tests_is_stored_unverified(git_project, store, new_line, stored):
    (Session("boot", git_project, "the api no longer boots after the upgrade, fix it")
     .fail("npm run start", "Exit code 1\n> api@2.0.0 start\n> nest start\n\nError: Cannot find module "
                            "'@nestjs/swagger/dist/plugin'\nRequire stack:\n- /srv/api/node_modules/@nestjs/cli/lib")
     .edit("package.json", '    "@nestjs/swagger": "^8.0.0",', new_line)
     .ok("npm install", "changed 3 packages in 4s")
     .ok("npm test", "Tests:       48 passed, 48 total")
     .stop("@nestjs/swagger 8 dropped the CLI plugin path; back on ^7.4.2 the app builds and the tests pass."))
    notes = store.project_notes(PROJECT)
    assert len(notes) == stored
    if stored:
        (note,) = notes
        assert note["verified"] == 0 and '+"@nestjs/swagger": "^7.4.2",' in note["change"]
        assert note["validation"] == {"passed": [], "not_performed": [
            "`npm run start` not rerun; `npm test` passed after the change"]}


def test_what_the_user_already_tried_is_evidence_not_the_fix(git_project, store):
    (Session("usr", git_project, "The build is out of memory. Raising the heap limit didn't help.")
     .fail("npm run build", "Exit code 134\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out "
                            "of memory")
     .edit("vite.config.ts", "    sourcemap: true,", "    sourcemap: false,")
     .ok("npm run build", "built in 41.20s")
     .stop("The build ran out of memory generating source maps; turning sourcemap off in vite.config.ts fixed it."))
    (note,) = store.project_notes(PROJECT)
    assert {"quote": "Raising the heap limit didn't help.",
            "source": "the user's prompt (tried before this session)"} in note["evidence"]
    assert "heap limit" not in note["change"] and "sourcemap: false" in note["change"]


def test_the_projects_way_to_run_its_tests_is_a_convention(git_project, store):
    (Session("conv", git_project, "run the unit tests")
     .fail("pytest", "Exit code 2\nERROR tests/test_api.py - django.core.exceptions.ImproperlyConfigured: Requested "
                     "setting INSTALLED_APPS, but settings are not configured.")
     .ok("make test", "DJANGO_SETTINGS_MODULE=config.settings.test pytest -q\n120 passed")
     .stop("This project runs its tests through `make test`, which sets DJANGO_SETTINGS_MODULE; bare pytest has "
           "no settings module."))
    (note,) = store.project_notes(PROJECT)
    assert note["kind"] == "pattern" and "use `make test` instead" in note["title"]
    assert "make test" in note["change"] and note["verified"] == 1


def test_another_tool_adding_the_same_package_is_the_projects_way(git_project, store):
    (Session("pin", git_project, "add a sparkline using uPlot")
     .fail("npm install uplot", "Exit code 254\nnpm ERR! code ENOENT\nnpm ERR! syscall open\nnpm ERR! enoent Could "
                                "not read package.json: Error: ENOENT: no such file or directory, open 'package.json'")
     .ok("bin/importmap pin uplot", 'Pinning "uplot" to vendor/javascript/uplot.js via download from '
                                    "https://ga.jspm.io/npm:uplot@1.6.30/dist/uPlot.esm.js")
     .stop("Added the sparkline. There is no package.json here; JavaScript comes through importmap."))
    (note,) = store.project_notes(PROJECT)
    assert "bin/importmap pin uplot" in note["change"] and "bin/importmap pin uplot" in note["title"]


def test_a_package_named_by_a_later_look_around_is_no_fix():
    chains, notes = find_chains([_bash(1, "npm install left-pad@9", False, "npm ERR! code ETARGET"),
                                 _bash(2, "npm view left-pad versions"), _bash(3, "cat package.json")])
    assert chains == [] and notes == ["unresolved_failure"]


def test_an_install_step_before_the_check_is_the_fix(git_project, store):
    (Session("ci", git_project, "the build is broken on my fresh clone")
     .fail("npm run build", "Exit code 127\n> vite build\nsh: 1: vite: not found")
     .ok("npm ci", "added 412 packages in 18s")
     .ok("npm run build", "built in 9.31s")
     .stop("vite was not found because node_modules did not exist on the fresh clone; run `npm ci` first."))
    (note,) = store.project_notes(PROJECT)
    assert note["change"] == "Run `npm ci` before `npm run build`." and "`npm ci`" in note["title"]


def test_a_flaky_retry_stores_nothing(git_project, store):
    (Session("flaky", git_project)
     .fail("pytest tests/e2e -q", "Exit code 1\nTimeoutError: Page.goto: Timeout 30000ms exceeded.")
     .ok("pytest tests/e2e -q", "3 passed")
     .stop("It was flaky; it passed on rerun."))
    assert store.stats()["notes"] == 0


LONG_SESSION = [
    ("pytest tests/test_tax.py -q", "KeyError: 'VAT_RATE'", "app/settings.py", "DEBUG = False", "VAT_RATE = 0.2"),
    ("npm run build", "Module not found: Error: Can't resolve 'date-fns'", "package.json", '"clsx": "^2"',
     '"date-fns": "^3.6.0"'),
    ("cargo test", "error[E0277]: `Rc<State>` cannot be sent between threads safely", "src/worker.rs",
     "Rc::new(State::default())", "Arc::new(Mutex::new(State::default()))"),
    ("go vet ./...", "fmt.Sprintf format %d has arg name of wrong type string", "pkg/server/server.go",
     'fmt.Sprintf("user %d", name)', 'fmt.Sprintf("user %s", name)'),
]


def test_a_long_session_keeps_learning_at_later_stops(git_project, store, monkeypatch):
    monkeypatch.setattr("lorebook.writeback.MAX_NEW_LESSONS", 2)
    session = Session("long", git_project)
    for n, (command, error, path, old, new) in enumerate(LONG_SESSION):
        session.fail(command, f"Exit code 1\n{error}").edit(path, old, new).ok(command, "ok")
        if n == 2:
            session.stop("Fixed the tax settings, the date-fns dependency and the worker state.")
            assert store.stats()["notes"] == 2  # at most two new lessons at one Stop
    session.stop("Fixed the vet warning in server.go too.")
    assert store.stats()["notes"] == 4  # the third waited for this Stop, not forever


def test_a_fenced_block_after_an_unfinished_sentence_is_what_the_sentence_introduces():
    said = stated("Fix: in `prisma/schema.prisma` the generator now has\n\n```\n"
                  "binaryTargets = [\"native\", \"linux-musl-openssl-3.0.x\"]\n```\n\nand after `npx prisma generate` "
                  "both engines are there.\n\nIt passes now.\n\n```\nnpm test\n```")
    assert said["all"][0] == ("Fix: in `prisma/schema.prisma` the generator now has: "
                              "`binaryTargets = [\"native\", \"linux-musl-openssl-3.0.x\"]`")
    assert "`npm test`" in said["all"]  # (after a finished sentence, a block stands alone)


def test_a_cue_word_inside_a_quoted_message_is_not_the_agents_account():
    said = stated("(The earlier \"Can't reach database server\" was only the db container starting up.) "
                  "Rebuilding the image with `--no-cache` didn't change anything, because the mount hides it.")
    assert said["cause"] == []
    assert said["did_not_help"] == ["Rebuilding the image with `--no-cache` didn't change anything."]


def test_a_look_with_a_quoted_alternation_is_no_change():
    from lorebook.steps import _is_change

    def changes(command):
        return _is_change({"outcome": "ok", "tool": "Bash", "target": command})

    assert not changes("grep -rn 'prisma generate\\|postinstall' package.json Dockerfile.test")
    assert changes('echo "$TOKEN" | helm registry login ghcr.io -u me --password-stdin')


def test_lines_a_text_tool_writes_into_a_dotenv_file_are_a_change():
    # (blind269 JJ11: ``grep -E '^STRIPE_(KEY|SECRET|WEBHOOK_SECRET)=' .env >> .env.testing`` gave the test env its
    # Stripe settings; read as a look, the session's fix was "retry without change")
    from lorebook.steps import _is_change

    def changes(command):
        return _is_change({"outcome": "ok", "tool": "Bash", "target": command})

    assert changes("grep -E '^STRIPE_(KEY|SECRET|WEBHOOK_SECRET)=' .env >> .env.testing && grep -c STRIPE .env.testing")
    assert changes("sed -n '/^AWS_/p' .env > .env.local")
    assert not changes("grep -E '^STRIPE_(KEY|SECRET)=' .env | wc -l")
    assert not changes("grep -n STRIPE .env > /tmp/stripe-lines.txt")


def test_a_read_verb_that_names_what_a_write_verb_changes_is_no_look():
    # (blind179 FX05: ``mc version enable dr/events-dr`` versioned the bucket the replication rule needed)
    from lorebook.steps import _is_change

    def changes(command):
        return _is_change({"outcome": "ok", "tool": "Bash", "target": command})

    assert changes("mc version enable dr/events-dr") and not changes("mc version info dr/events-dr")
    assert not changes("kubectl -n falco rollout status ds/falco")
    # (nor a service asked how it is: blind209 HB11's ``rpk cluster health`` before the same test run passed)
    # (whatever the account says of it: "Once `rpk cluster health` showed healthy, the same run passed")
    account = "Once `rpk cluster health` showed healthy, the same run passed; `redis-cli -h cache ping` said PONG."
    for command in ("rpk cluster health", "redis-cli -h cache ping"):
        assert not _is_change({"outcome": "ok", "tool": "Bash", "target": command}, account=account)


def test_a_flags_value_is_not_named_again_as_a_flag_of_its_own():
    assert invocation_change("docker build -t ingest:dev .",
                             "docker build --build-arg VERSION=$(git describe --tags) -t ingest:dev .") == \
        ["pass `--build-arg VERSION=$(git describe --tags)`"]


def test_a_comment_reworded_beside_a_change_in_the_code_is_not_the_change():
    from lorebook.edits import _diff_text, _short_diff

    hunk = {"old": "{{/*\nSelector labels\n*/}}\n{{- define \"api.selectorLabels\" -}}\napp.kubernetes.io/name: x\n"
                   "app.kubernetes.io/version: v\n{{- end }}",
            "new": "{{/*\nSelector labels (never change these: spec.selector is immutable)\n*/}}\n"
                   "{{- define \"api.selectorLabels\" -}}\napp.kubernetes.io/name: x\n{{- end }}\n"
                   "app.kubernetes.io/version: v"}
    assert "never change" not in _short_diff(hunk)
    hunk = {"old": "", "new": '"""Add users.last_login_at.\n\nRevises: b83f6d2e41a9\n"""\nrevision = "9c1e"\n'}
    assert _diff_text("m.py", hunk).splitlines()[1:] == ['+revision = "9c1e"', '+"""Add users.last_login_at.',
                                                          "+Revises: b83f6d2e41a9", '+"""']
    assert _diff_text("c.c", {"old": "", "new": "int x = 1;  /* the default */\nint y;"}).splitlines()[1] == \
        "+int x = 1; /* the default */"  # (code beside a comment is code)


def test_a_subshells_brackets_are_no_part_of_its_steps():
    parsed = parse_command('npx tsc --noEmit && (timeout 8 npm run worker:email; echo "exit=$?")')
    assert parsed["segments"][:2] == ["npx tsc --noEmit", "timeout 8 npm run worker:email"]
    assert parse_command("(cd web && npm test)")["cwd"] == "web"


def test_the_same_tests_failing_the_same_way_are_one_failure_whatever_the_excerpt_shows():
    setup = "..........EEEE.....F                                                     [100%]\n"
    chains, _ = find_chains([
        _bash(1, "uv run pytest -q", False, "ERROR at setup of test_list", setup + "ERROR at setup of test_list"),
        _edit(2, "/p/pyproject.toml", 'testpaths = ["tests"]', 'testpaths = ["tests"]\nasyncio_mode = "auto"'),
        _bash(3, "uv run pytest -q", False, "RuntimeError: Task <n>", setup + "FAILED tests/a.py::b - RuntimeError"),
        _edit(4, "/p/tests/conftest.py", "from app.db import engine", "engine = make_engine(poolclass=NullPool)"),
        _bash(5, "uv run pytest -q")])
    assert len(chains) == 1 and [a["id"] for a in chains[0]["attempts"]] == [2]


def test_a_script_is_one_family_however_it_is_launched():
    assert command_family("python scripts/seed.py --count 5") == command_family("uv run scripts/seed.py --count 5") \
        == command_family("./scripts/seed.py") == "scripts/seed.py"
    assert invocation_change("python scripts/seed.py", "uv run scripts/seed.py") == ["run it through `uv run`"]


def test_a_script_run_with_a_module_preloaded_is_the_same_script():
    # (blind404 OO03: ``npx ts-node -r tsconfig-paths/register scripts/seed.ts`` runs the seed that failed, not
    # tsconfig-paths/register; node's ``-r`` loads a module, php's runs code)
    assert command_family("npx ts-node -r tsconfig-paths/register scripts/seed.ts") \
        == command_family("npx ts-node scripts/seed.ts") == "scripts/seed.ts"
    assert command_family("node -r dotenv/config server.js") == "server.js"
    assert command_family("php -r 'echo PHP_VERSION;'") == "php -e echo"


def test_a_request_to_another_address_is_not_the_request_that_failed():
    proxy = "curl -fsS http://localhost:8080/api/v1/health"
    assert not _same_target(proxy, "curl -fsS http://localhost:9000/api/v1/health")
    assert _same_target(proxy, "curl -s http://127.0.0.1:8080/api/v1/health")


def test_a_run_without_the_example_that_failed_is_not_the_run_that_failed():
    # (blind917 AIH14: ``fpm test`` and ``fpm run --example kepler_orbit`` had passed for ``--example two_body``)
    assert not _same_target("fpm run --example two_body", "fpm run --example kepler_orbit")
    assert not _same_target("cargo run --example replay", "cargo test")
    assert _same_target("cargo run --example replay", "cargo run --release --example replay")


def test_an_image_rebuilt_under_another_tag_is_the_image_that_failed():
    from lorebook.commands import _same_target

    assert _same_target("docker run --rm acme/pg-backup:latest /usr/local/bin/backup.sh --dry-run",
                        "docker run --rm acme/pg-backup:dev /usr/local/bin/backup.sh --dry-run")
    assert not _same_target("docker run --rm acme/pg-backup:latest backup.sh", "docker run --rm acme/web:dev backup.sh")


def test_a_gradle_task_named_for_tests_does_the_test_job():
    assert command_job("./gradlew :billing:unitTest") == "test"
    assert invocation_change("cd infra && terraform plan", "cd infra && terraform plan -out=tfplan") == []


def test_a_dart_packages_executable_is_run_through_dart_pub_global_run():
    assert parse_command("dart pub global run melos run test:unit")["argv"] == ["melos", "run", "test:unit"]
    assert command_job("dart pub global run melos run test:unit") == "test"


def test_platformios_run_does_the_build_job_but_not_its_clean_target():
    # (blind919 AIJ12: ``pio run -e esp32dev 2>&1 | tail -9`` printed "Error: The program size … is greater than
    # maximum allowed" and [FAILED], and had passed as a piped run of no job)
    assert command_job("pio run -e esp32dev 2>&1 | tail -9") == command_job("platformio run -t upload") == "build"
    assert command_job("pio run -e esp32dev -t clean") is None


def test_laravels_test_runs_do_the_test_job_on_the_host_and_through_sail():
    assert {command_job(c) for c in ("php artisan test --filter=InvoiceTest", "./vendor/bin/sail test",
                                     "sail artisan test", "./vendor/bin/sail artisan test")} == {"test"}
    assert command_job("php artisan migrate") is None and command_job("./vendor/bin/sail up -d") is None


def test_erlangs_common_and_unit_tests_do_the_test_job_by_rebar3_or_make():
    assert {command_job(c) for c in ("rebar3 ct --suite=test/cluster_SUITE", "make ct", "rebar3 eunit",
                                     "make eunit")} == {"test"}
    assert command_job("make ctags") is None and command_job("rebar3 compile") == "build"


def test_a_nix_shell_entered_to_run_another_command_is_the_same_shell():
    from lorebook.commands import _same_target

    assert _same_target("nix develop --command true", "nix develop --command node --version")
    assert not _same_target("nix develop .#ci -c true", "nix develop .#docs -c true")  # (another shell)


def test_what_did_not_help_said_after_a_dash_keeps_what_was_tried():
    said = stated("- `session.flush()` before leaving the block — didn't help, the commit still expires everything; "
                  "reverted.\n"
                  "- Init has to be run as `terraform init -backend-config=prod.hcl` — `-reconfigure` alone doesn't help.")
    assert said["did_not_help"][0].startswith("`session.flush()` before leaving the block — didn't help")
    assert "Init has to be run as `terraform init -backend-config=prod.hcl`." in said["all"]
    assert "reverted." not in said["all"]  # (the revert is the session's story, no fix)


def test_an_aside_in_brackets_is_found_past_the_brackets_of_quoted_code():
    said = stated('I put `#[serde(rename_all = "camelCase")]` on `DeliveryEvent` (and derived `Clone` while I was '
                  'there). `cargo test -p webhook`: 6 passed.')
    assert 'Put `#[serde(rename_all = "camelCase")]` on `DeliveryEvent`.' in said["all"]
    assert "Derived `Clone` while I was there." in said["all"]


def test_a_removed_block_is_titled_by_what_it_held_and_a_refresh_is_no_fix():
    from lorebook.edits import _short_diff

    # (blind91 CN24: ``remove `repositories {``` had titled the mavenCentral() taken out of a module)
    assert _short_diff({"old": "repositories {\n    mavenCentral()\n}\n", "new": ""}) == "remove `mavenCentral()`"
    assert invocation_change("./gradlew build", "./gradlew build --refresh-dependencies") == []


def test_code_the_account_quotes_over_two_added_lines_titles_the_change():
    from lorebook.edits import _short_diff

    # (blind187 GF10: "`@Binds abstract fun bindNoteRepository(impl: NoteRepositoryImpl): NoteRepository`" had
    # titled ``add `@Binds```, the annotation's line alone)
    hunk = {"old": "@Module\nobject DataModule {\n",
            "new": "@Module\nabstract class DataModule {\n    @Binds\n"
                   "    abstract fun bindNoteRepository(impl: NoteRepositoryImpl): NoteRepository\n"}
    told = ("DataModule", "@Binds abstract fun bindNoteRepository(impl: NoteRepositoryImpl): NoteRepository")
    assert _short_diff(hunk, told=told).startswith("add `@Binds abstract fun bindNoteRepository(")
    assert _short_diff(hunk) == "add `@Binds`"  # (nothing quoted: the first line that is not scaffolding)


def test_an_unquoted_aside_after_a_dash_is_split_from_the_quoted_fix():
    # (blind93 CP01: the whole fix sentence was an aside, and the fix's edit set aside with it)
    said = stated("I put the sort back before the group-by in pipelines/sessionize.py — `df.sort(\"user_id\")` — and "
                  "renamed the intermediate frame while I was there.")
    assert said["all"] == ['Put the sort back before the group-by in pipelines/sessionize.py — `df.sort("user_id")`.',
                           "Renamed the intermediate frame while I was there."]


def test_an_option_pointed_at_a_local_path_is_the_same_run_another_date_is_not():
    from lorebook.commands import _same_target

    # (blind90 CM23 and, replayed, blind71 BT17: ``--date 2024-05-06`` is another day's report, no fix of the 13th's)
    failed = "python score.py --model bert-base-uncased --split dev"
    assert _same_target(failed, "python score.py --model models/bert-base --split dev")
    assert invocation_change(failed, "python score.py --model models/bert-base --split dev") == [
        "pass `--model models/bert-base`"]
    assert not _same_target("python report.py --date 2024-05-13", "python report.py --date 2024-05-06")
    twice = "kyverno apply policies/ --resource deploy/api.yaml --resource deploy/worker.yaml"
    assert invocation_change(twice, twice) == []  # (an option given twice is no value moved from one to the other)


def test_a_file_changed_in_three_places_shows_the_new_code_before_the_imports_it_needs(git_project, store):
    # the change shows two hunks of a file: the call changed and the helper it calls, not the import block
    (Session("three", git_project)
     .fail("go test ./internal/fixtures/...", "Exit code 1\n--- FAIL: TestLoad\n    loader_test.go:14: open "
                                              "testdata/users.json: no such file or directory\nFAIL")
     .edit("internal/fixtures/loader.go", 'data, err := os.ReadFile("testdata/users.json")',
           'data, err := os.ReadFile(fixturePath("users.json"))')
     .edit("internal/fixtures/loader.go", 'import (\n\t"encoding/json"\n\t"os"\n',
           'import (\n\t"encoding/json"\n\t"os"\n\t"path/filepath"\n\t"runtime"\n')
     .edit("internal/fixtures/loader.go", "func Load() ([]User, error) {",
           "func fixturePath(name string) string {\n\t_, here, _, _ := runtime.Caller(0)\n"
           "\treturn filepath.Join(filepath.Dir(here), \"..\", \"..\", \"testdata\", name)\n}\n\n"
           "func Load() ([]User, error) {")
     .ok("go test ./internal/fixtures/...", "ok  \texample.com/app/internal/fixtures\t0.012s")
     .stop("The loader read testdata/ relative to the package directory go test runs in; it now resolves the "
           "file from its own location with runtime.Caller(0)."))
    (note,) = store.project_notes(PROJECT)
    assert "runtime.Caller(0)" in note["change"] and 'fixturePath("users.json")' in note["change"]
    assert '+"path/filepath"' not in note["change"]


def test_flags_quoted_as_one_span_are_found_in_the_continued_lines_that_added_them(git_project, store):
    # (blind172 FQ24: a build with no network, fixed by pointing it at restored checkouts over two continued lines)
    (Session("offline", git_project)
     .fail("./scripts/ci-build.sh", "Exit code 1\nCould not resolve package dependencies:\n  fatal: unable to access "
                                    "'https://github.com/pointfreeco/swift-snapshot-testing.git/': Could not resolve "
                                    "host: github.com")
     .edit("scripts/ci-build.sh", "  -scheme Ledger \\\n", "  -scheme Ledger \\\n  -clonedSourcePackagesDirPath "
                                                            "vendor/spm \\\n  -disableAutomaticPackageResolution \\\n")
     .ok("./scripts/ci-build.sh", "** BUILD SUCCEEDED **")
     .stop("The runner has no network; ci-build.sh now passes `-clonedSourcePackagesDirPath vendor/spm "
           "-disableAutomaticPackageResolution` so xcodebuild uses the restored checkouts."))
    (note,) = store.project_notes(PROJECT)
    assert "-disableAutomaticPackageResolution" in note["change"], note["change"]


def test_a_short_options_setting_is_the_change_to_the_invocation():
    # (blind184 GC19: conan's ``-s compiler.cppstd=17``; ``-s`` alone says how much pytest prints)
    assert invocation_change("conan install . --output-folder=build --build=missing",
                             "conan install . --output-folder=build --build=missing -s compiler.cppstd=17") == \
        ["pass `-s compiler.cppstd=17`"]
    assert invocation_change("ssh host true", "ssh -o StrictHostKeyChecking=no host true") == \
        ["pass `-o StrictHostKeyChecking=no`"]
    assert invocation_change("pytest tests", "pytest -s tests") == []


def test_a_command_run_over_ssh_is_compared_by_what_it_ran_there():
    # (blind194 GM15: the etcd client's TLS flags, inside ``ssh cp-1 '…'``, were no change of the invocation)
    before = "ssh cp-1 'sudo etcdctl snapshot save /var/backups/etcd/manual.db'"
    after = ("ssh cp-1 'sudo etcdctl --cacert=/etc/kubernetes/pki/etcd/ca.crt snapshot save "
             "/var/backups/etcd/manual.db'")
    assert invocation_change(before, after) == ["pass `--cacert=/etc/kubernetes/pki/etcd/ca.crt`"]
    assert invocation_change(before, after.replace("cp-1", "cp-2")) != ["pass `--cacert=/etc/kubernetes/pki/etcd/ca.crt`"]


def test_what_only_works_somewhere_is_a_cause_and_what_to_do_again_later_is_none():
    # (blind255 IV12: the summary was the caveat "… so you only need the `rs.initiate` again after a `docker compose
    # down -v`", and the cause, "change streams only work on a replica set", was none)
    said = stated("Atlas clusters are always replica sets, but the compose `mongo` was a standalone mongod, and change "
                  "streams only work on a replica set. I added `--replSet rs0` to the mongo service's command. The "
                  "replica set config is kept in the data volume, so you only need the `rs.initiate` again after a "
                  "`docker compose down -v`.")
    assert said["cause"] == [said["all"][0]], said["cause"]


def test_a_command_whose_code_the_account_quotes_elided_is_quoted():
    # (blind255 IV12: "ran `rs.initiate(...)` once inside it" is the ``mongosh --eval 'rs.initiate({_id: "rs0", …})'``)
    from lorebook.steps import _quoted_in

    command = "docker compose exec mongo mongosh --quiet --eval 'rs.initiate({_id: \"rs0\", members: []})'"
    assert _quoted_in(command, "recreated the container and ran `rs.initiate(...)` once inside it")
    assert not _quoted_in(command, "then `rs.status(...)` showed it")
    # (a setting quoted is the line's own inside its code, not a variable it sets for the program: blind328 LQ16)
    command = "BABEL_SHOW_CONFIG_FOR=./src/Row.tsx NODE_ENV=test npx babel src/Row.tsx > /dev/null"
    assert not _quoted_in(command, "Jest runs Babel with `NODE_ENV=test`, so the plugin was not applied")
    assert _quoted_in('mysql -e "CHANGE REPLICATION SOURCE TO GET_SOURCE_PUBLIC_KEY=1"',
                      "with `GET_SOURCE_PUBLIC_KEY=1`")


def test_what_did_not_help_set_off_by_dashes_ends_without_the_dash_of_its_revert():
    # (blind463 QV05: "… didn't help — same "wine is required" — so I put `nsis` back" read "… —.")
    said = stated('Switching the target to portable didn\'t help — same "wine is required" — so I put `nsis` back.')
    assert said["did_not_help"] == ['Switching the target to portable didn\'t help — same "wine is required".'], said


def test_what_did_not_help_said_in_brackets_keeps_them_closed_without_its_revert():
    # (blind462 QU03: "… from gatling.conf (setting it there changed nothing, so I reverted it)" read "(… nothing.")
    said = stated("The Maven plugin doesn't read `simulationClass` from gatling.conf (setting it there changed "
                  "nothing, so I reverted it).")
    assert said["did_not_help"] == ["The Maven plugin doesn't read `simulationClass` from gatling.conf (setting it "
                                    "there changed nothing)."], said
