"""Precision rules of the candidates: what is routine, what is the session's own mess, what really passed.

Each rule is stated in its test's name and played with a session that is not in bench/lessons.py.
"""
import json

import pytest

from hookutil import PlayedSession, run_hook
from lorebook.account import stated
from lorebook.candidates import session_candidates
from lorebook.chains import _told_to_look, _tried_until_fixed
from lorebook.commands import (_asks_version, command_family, command_job, invocation_change, is_autofix,
                               is_static_check, parse_command)
from lorebook.record import lesson_title
from lorebook.weakening import _pins_clock_past_a_crash, _scores_on_training_data

PROJECT = "github.com/acme/widget"


class Session(PlayedSession):
    def __init__(self, sid, cwd, prompt="fix it"):
        super().__init__(sid, cwd, prompt)


def _candidates(store, session):
    return session_candidates(store, session.sid, session.message)


# --- a linter's own repair is routine ----------------------------------------------------------------

@pytest.mark.parametrize("command, yes", [
    ("ruff check --fix src/", True), ("npx eslint --fix src", True), ("black .", True),
    ("npx prettier --write .", True), ("rubocop -A", True), ("gofmt -w ./pkg", True),
    ("black --check .", False), ("ruff check src/", False), ("pytest --fix", False), ("sed -i s/a/b/ x.py", False),
])
def test_an_autofix_is_a_linter_or_formatter_rewriting_the_code(command, yes):
    assert is_autofix(command) is yes


def test_a_lint_failure_the_linter_fixed_itself_is_routine(git_project, store):
    session = (Session("autofix", git_project)
               .fail("ruff check app/", "Exit code 1\napp/billing.py:3:8: F401 [*] `sys` imported but unused\n"
                                        "Found 1 error.\n[*] 1 fixable with the `--fix` option.")
               .ok("ruff check --fix app/", "Found 1 error (1 fixed, 0 remaining).")
               .stop("ruff reported an unused import in app/billing.py; `ruff check --fix` removed it."))
    assert _candidates(store, session) == ([], ["routine_plumbing"])
    assert store.project_notes(PROJECT) == []


def test_a_lint_failure_after_running_the_formatter_is_routine(git_project, store):
    session = (Session("fmt", git_project)
               .fail("npx eslint src", "Exit code 1\n/w/src/cart.js\n  4:1  error  Expected indentation of 2 spaces"
                                       "  indent\n\n✖ 1 problem (1 error, 0 warnings)")
               .ok("npx eslint --fix src", "")
               .ok("npx eslint src", "")
               .stop("Fixed the indentation with eslint --fix; the lint is clean."))
    assert _candidates(store, session) == ([], ["routine_plumbing"])


def test_a_lint_failure_fixed_by_a_missing_plugin_is_still_a_lesson(git_project, store):
    session = (Session("lintdep", git_project)
               .fail("npx eslint src", "Exit code 2\nOops! Something went wrong! :(\nESLint couldn't find the plugin "
                                       "\"eslint-plugin-react-hooks\".")
               .ok("npm install -D eslint-plugin-react-hooks", "added 1 package in 2s")
               .ok("npx eslint src", "")
               .stop("The config extends react-hooks but the plugin was not installed; installing "
                     "eslint-plugin-react-hooks as a dev dependency fixed the lint run."))
    (candidate,), _ = _candidates(store, session)
    assert "npm install -D eslint-plugin-react-hooks" in candidate["change"] and candidate["verified"] == 1


# --- the session's own new code ----------------------------------------------------------------------

def test_a_type_error_in_a_file_the_session_just_wrote_and_corrected_is_its_own_mess(git_project, store):
    session = (Session("ownmypy", git_project)
               .write("app/labels.py", "def label(row) -> str:\n    return row.get('name')\n")
               .fail("mypy app/", 'Exit code 1\napp/labels.py:2: error: Incompatible return value type (got '
                                  '"str | None", expected "str")  [return-value]\nFound 1 error in 1 file')
               .edit("app/labels.py", "    return row.get('name')", "    return row.get('name') or ''")
               .ok("mypy app/", "Success: no issues found in 9 source files")
               .stop("mypy flagged that row.get('name') may be None; label() now falls back to ''."))
    assert _candidates(store, session) == ([], ["self_inflicted"])


def test_a_type_error_in_existing_code_fixed_by_configuration_is_a_lesson(git_project, store):
    session = (Session("mypycfg", git_project)
               .write("app/geo.py", "import shapely\n")
               .fail("mypy app/", "Exit code 1\napp/geo.py:1: error: Skipping analyzing \"shapely\": module is "
                                  "installed, but missing library stubs or py.typed marker  [import-untyped]")
               .edit("pyproject.toml", "[tool.mypy]\nstrict = true",
                     "[tool.mypy]\nstrict = true\n\n[[tool.mypy.overrides]]\nmodule = \"shapely.*\"\n"
                     "ignore_missing_imports = true")
               .ok("mypy app/", "Success: no issues found in 10 source files")
               .stop("shapely ships no type stubs, so strict mypy refused to analyse it; an override in "
                     "pyproject.toml ignores its missing imports."))
    (candidate,), _ = _candidates(store, session)
    assert "ignore_missing_imports = true" in candidate["change"] and candidate["files"] == ["pyproject.toml"]


# --- an install step is the fix only when the failing check passes after it --------------------------

def test_installing_the_project_before_its_tests_is_the_fix_and_keeps_its_directory(git_project, store):
    session = (Session("install", git_project, "the api tests cannot import the package")
               .fail("cd api && pytest -q", "Exit code 2\nE   ModuleNotFoundError: No module named 'orders'\n"
                                            "1 error in 0.10s")
               .ok("cd api && pip install -e .", "Successfully installed orders-0.4.0")
               .ok("cd api && pytest -q", "27 passed in 0.80s")
               .stop("The orders package was not installed in the venv, so its own tests could not import it; "
                     "`pip install -e .` in api/ installed it in editable mode."))
    (candidate,), _ = _candidates(store, session)
    assert "cd api && pip install -e ." in candidate["change"] and candidate["verified"] == 1
    assert candidate["validation"]["passed"][0].startswith("`cd api && pytest -q` passed")


def test_an_install_that_passed_while_the_failing_check_never_did_stores_nothing(git_project, store):
    session = (Session("wrongcheck", git_project)
               .fail("mix test", "Exit code 1\n** (CompileError) test/support/factory.ex:2: module ExMachina is "
                                 "not loaded and could not be found")
               .ok("mix deps.get", "Resolving Hex dependencies...\nAll dependencies are up to date")
               .stop("Fetched the dependencies with mix deps.get."))
    assert _candidates(store, session) == ([], ["unresolved_failure"])


# --- a check piped into a filter ---------------------------------------------------------------------

def test_a_check_piped_into_tail_passed_only_if_its_output_reports_no_failure(git_project, store):
    session = (Session("pipe", git_project)
               .fail("pytest -q", "Exit code 1\nFAILED tests/test_rates.py::test_fx - KeyError: 'EUR'\n"
                                  "1 failed, 8 passed in 0.2s")
               .edit("app/rates.py", "RATES = {'USD': 1}", "RATES = {'USD': 1, 'EUR': 0.92}")
               .ok("pytest -q 2>&1 | tail -3", "FAILED tests/test_rates.py::test_fx - KeyError: 'GBP'\n"
                                               "1 failed, 8 passed in 0.2s")
               .stop("Added EUR to RATES."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "unresolved_failure" in notes  # the tail exited 0; the tests did not pass


def test_a_failure_hidden_by_a_pipe_then_fixed_is_a_lesson(git_project, store):
    session = (Session("pipefix", git_project)
               .ok("pytest -q 2>&1 | tail -3", "FAILED tests/test_rates.py::test_fx - KeyError: 'EUR'\n"
                                               "1 failed, 8 passed in 0.2s")
               .edit("app/rates.py", "RATES = {'USD': 1}", "RATES = {'USD': 1, 'EUR': 0.92}")
               .ok("pytest -q 2>&1 | tail -3", "9 passed in 0.2s")
               .stop("test_fx failed because RATES had no EUR entry; added 'EUR': 0.92."))
    (candidate,), _ = _candidates(store, session)
    assert "'EUR': 0.92" in candidate["change"] and candidate["verified"] == 1


# --- a program run by its path --------------------------------------------------------------------

def test_a_program_run_by_its_path_is_the_same_program_and_the_path_is_the_invocation():
    assert parse_command(".venv/bin/pytest -q")["family"] == parse_command("pytest -q")["family"] == "pytest"
    assert parse_command("venv/bin/python -m pytest")["family"] == "pytest"
    assert parse_command("./gradlew test")["family"] == "./gradlew test"
    assert invocation_change("pytest -q", ".venv/bin/pytest -q") == ["run `.venv/bin/pytest`"]


def test_static_checks_are_linters_type_checkers_and_formatter_checks():
    assert all(is_static_check(c) for c in ("mypy src/", "npx tsc --noEmit", "ruff check .", "npm run lint",
                                            "black --check ."))
    assert not any(is_static_check(c) for c in ("pytest", "npm test", "cargo build", "go test ./..."))


def test_a_title_keeps_a_directory_argument_when_it_compacts_a_command():
    title = lesson_title("`mypy src/ --strict --python-version=3.12` fails with error: Incompatible return value "
                         "type (got \"str | None\", expected \"str\") [return-value]", "add a fallback", limit=90)
    assert "`mypy src --strict`" in title


# --- the agent's own account of what was chance and what was incidental ------------------------------

def test_a_failure_the_agent_calls_flaky_is_not_linked_to_the_edit_in_between(git_project, store):
    session = (Session("flaky", git_project)
               .fail("npm test", "Exit code 1\n FAIL  src/upload.test.ts\n  ● upload › resumes\n"
                                 "    thrown: \"Exceeded timeout of 5000 ms for a test.\"")
               .edit("src/config.ts", "retries: 2", "retries: 3")
               .ok("npm test", "Tests:  31 passed, 31 total")
               .stop("The upload test is flaky: it timed out once and passed on the rerun. Bumped the default "
                     "retries to 3 as asked."))
    assert _candidates(store, session) == ([], ["flaky_failure"])


def test_a_flaky_test_the_agent_explains_and_fixes_is_a_lesson(git_project, store):
    session = (Session("flakyfix", git_project)
               .fail("pytest tests/test_report.py -q", "Exit code 1\nFAILED tests/test_report.py::test_rows - "
                                                       "AssertionError: assert ['b', 'a'] == ['a', 'b']")
               .edit("app/report.py", "    return list(names)", "    return sorted(names)")
               .ok("pytest tests/test_report.py -q", "4 passed")
               .stop("test_rows was flaky because report.rows() returned a set's order; it now returns the "
                     "names sorted."))
    (candidate,), _ = _candidates(store, session)
    assert "sorted(names)" in candidate["change"]


def test_a_test_the_user_calls_flaky_and_the_agent_fixes_is_a_lesson(git_project, store):
    # (blind185 GD04: "Flaky `TestConcurrentTransfers`: CockroachDB … tells the client to retry" names the problem
    # the prompt reported, it does not say the run passed by chance)
    session = (Session("flakyasked", git_project, prompt="TestConcurrentTransfers is flaky. Please fix it.")
               .fail("go test ./internal/ledger/... -count=1",
                     "Exit code 1\n--- FAIL: TestConcurrentTransfers (2.31s)\n    transfer_test.go:88: transfer 17: "
                     "pq: restart transaction: TransactionRetryWithProtoRefreshError: WriteTooOldError\nFAIL")
               .edit("internal/ledger/transfer.go", "\ttx, err := s.db.BeginTx(ctx, nil)",
                     "\treturn crdb.ExecuteTx(ctx, s.db, nil, func(tx *sql.Tx) error {")
               .ok("go test ./internal/ledger/... -count=1", "ok  \tgithub.com/acme/ledger/internal/ledger\t4.872s")
               .stop("- **Flaky `TestConcurrentTransfers`**: CockroachDB runs transactions as SERIALIZABLE and tells "
                     "the client to retry on contention. `Transfer()` now runs inside `crdb.ExecuteTx`, which retries "
                     "the closure. Five consecutive runs pass."))
    (candidate,), _ = _candidates(store, session)
    assert "crdb.ExecuteTx" in candidate["change"]


def test_an_edit_the_agent_calls_incidental_is_not_part_of_the_fix(git_project, store):
    session = (Session("bystander", git_project)
               .fail("go test ./internal/queue/...", "Exit code 1\n--- FAIL: TestDrain (0.00s)\n"
                                                     "    queue_test.go:31: got 2 items, want 3")
               .edit("internal/queue/queue.go", "for i := 0; i < len(q.items)-1; i++ {",
                     "for i := 0; i < len(q.items); i++ {")
               .edit("internal/metrics/metrics.go", "// Counter counts", "// Counter counts events.")
               .ok("go test ./internal/queue/...", "ok  \texample.com/svc/internal/queue\t0.01s")
               .stop("Drain stopped one item early (an off-by-one in its loop bound). I also fixed a comment in "
                     "metrics.go while I was there."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["files"] == ["internal/queue/queue.go"] and "metrics" not in candidate["change"]
    assert "internal/metrics/metrics.go" in " ".join(candidate["validation"]["not_performed"])


# --- a step between a failure and its success ---------------------------------------------------------

def test_a_generate_step_between_a_failure_and_its_success_is_the_fix(git_project, store):
    session = (Session("codegen", git_project)
               .fail("npm run build", "Exit code 2\nsrc/orders.ts(3,10): error TS2305: Module '\"./gen/api\"' has "
                                      "no exported member 'Refund'.")
               .ok("npx openapi-typescript-codegen generate -i api.yaml -o src/gen", "Done")
               .ok("npm run build", "built in 3.1s")
               .stop("src/gen was generated from an older api.yaml; regenerating the client added Refund."))
    (candidate,), _ = _candidates(store, session)
    assert "openapi-typescript-codegen generate" in candidate["change"] and candidate["verified"] == 1
    assert candidate["summary"].startswith("src/gen was generated from an older api.yaml")  # the agent's words


def test_a_step_the_error_message_names_is_a_change(git_project, store):
    session = (Session("namedstep", git_project)
               .fail("cargo run", "Exit code 101\nthread 'main' panicked at src/main.rs:8:\nconfig.toml not found; "
                                  "run `cargo xtask init-config` to create it")
               .ok("cargo xtask init-config", "wrote config.toml")
               .ok("cargo run", "listening on 0.0.0.0:8080")
               .stop("The server needs a config.toml, which `cargo xtask init-config` creates."))
    (candidate,), _ = _candidates(store, session)
    assert "cargo xtask init-config" in candidate["change"]


def test_a_command_nobody_named_that_changes_nothing_is_not_a_step(git_project, store):
    session = (Session("notastep", git_project)
               .fail("cargo run", "Exit code 101\nthread 'main' panicked at src/main.rs:8:\nconnection refused")
               .ok("cargo tree -d", "serde v1.0.200")
               .ok("cargo run", "listening on 0.0.0.0:8080")
               .stop("It works on the second run."))
    assert _candidates(store, session) == ([], ["retry_without_change"])


def test_a_service_started_between_a_failure_and_its_success_is_the_fix(git_project, store):
    session = (Session("service", git_project)
               .fail("python -m pytest tests/test_search.py -q",
                     "Exit code 1\nE   elastic_transport.ConnectionError: Connection refused (localhost:9200)")
               .ok("ls docker", "elasticsearch.yml")
               .ok("make search-up", "docker compose up -d elasticsearch\nContainer search-1  Started")
               .ok("python -m pytest tests/test_search.py -q", "14 passed in 2.3s")
               .stop("Elasticsearch was not running; it is started by a make target and the search tests pass."))
    (candidate,), _ = _candidates(store, session)
    assert "make search-up" in candidate["change"] and "ls docker" not in candidate["change"]


def test_a_command_the_agents_account_quotes_is_a_change(git_project, store):
    session = (Session("quoted", git_project)
               .fail("./bin/worker --once", "Exit code 1\nfatal: queue 'mail' does not exist")
               .ok("./bin/admin queues create mail", "created queue mail")
               .ok("./bin/worker --once", "processed 0 jobs")
               .stop("The worker expects its queue to exist; `./bin/admin queues create mail` created it."))
    (candidate,), _ = _candidates(store, session)
    assert "./bin/admin queues create mail" in candidate["change"]


def test_an_option_value_before_the_subcommand_does_not_hide_the_job():
    assert command_job("pnpm --filter @shop/web test") == command_job("yarn test") == "test"
    assert command_job("npm -C client run build") == "build"
    assert command_job("uv add --dev pytest-cov") != "test"  # a package named after a program is not that program
    assert command_job("pnpm turbo run test --filter=@lumen/ui") == command_job("mvn verify -Dit.test=X") == "test"
    assert command_job("./gradlew integrationTest --tests '*OrderRepositoryIT'") == "test"
    assert _asks_version("clojure -X:test -Spath") and _asks_version("pytest --collect-only -q tests/")
    assert command_job("pip install pytest-mock") == "install"


def test_the_projects_way_to_run_a_packages_tests_is_a_convention(git_project, store):
    session = (Session("workspace", git_project)
               .fail("yarn test", "Exit code 1\nerror Command \"test\" not found.")
               .ok("pnpm --filter @shop/web test", "Test Files  6 passed (6)")
               .stop("This is a pnpm workspace without a root test script; tests run per package."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["kind"] == "pattern" and "pnpm --filter @shop/web test" in candidate["change"]


def test_an_install_is_never_another_way_to_run_the_failing_check(git_project, store):
    session = (Session("notajob", git_project)
               .fail("pytest -q", "Exit code 4\nE   fixture 'mocker' not found")
               .ok("pip install pytest-mock", "Successfully installed pytest-mock-3.14.0")
               .ok("pytest -q", "40 passed"))
    session.stop("The tests use the mocker fixture from pytest-mock, which was not installed.")
    (candidate,), _ = _candidates(store, session)
    assert candidate["kind"] == "fix" and "pip install pytest-mock" in candidate["change"]
    assert candidate["validation"]["passed"][0].startswith("`pytest -q` passed")


def test_an_edit_to_comments_only_is_not_the_fix(git_project, store):
    session = (Session("comment", git_project)
               .fail("go test ./pkg/cache/...", "Exit code 1\n--- FAIL: TestEvict (0.00s)\n    cache_test.go:40: "
                                                "evicted 0 entries, want 1")
               .edit("pkg/cache/cache.go", "// Evict drops entries older than ttl.",
                     "// Evict drops entries older than the ttl.")
               .edit("pkg/cache/cache.go", "if age > c.ttl {", "if age >= c.ttl {")
               .ok("go test ./pkg/cache/...", "ok  \texample.com/svc/pkg/cache\t0.01s")
               .stop("Evict skipped entries exactly ttl old; the comparison is >= now."))
    (candidate,), _ = _candidates(store, session)
    assert "age >= c.ttl" in candidate["change"] and "older than the ttl" not in candidate["change"]


def test_a_sentence_about_two_problems_gives_each_lesson_its_own_clause(git_project, store):
    session = (Session("twoclauses", git_project)
               .fail("npm run lint", "Exit code 2\nESLint couldn't find the config \"prettier\" to extend from.")
               .ok("npm install -D eslint-config-prettier", "added 1 package")
               .ok("npm run lint", "")
               .fail("npm test", "Exit code 1\nReferenceError: TextEncoder is not defined")
               .edit("jest.config.js", "testEnvironment: 'jsdom',", "testEnvironment: 'node',")
               .ok("npm test", "Tests: 12 passed, 12 total")
               .stop("Two separate problems: the lint config extends prettier but eslint-config-prettier was not "
                     "installed, and the jest environment was jsdom, which has no TextEncoder."))
    candidates, _ = _candidates(store, session)
    summaries = sorted(c["summary"] for c in candidates)
    assert len(summaries) == 2 and summaries[0] != summaries[1]
    assert any("eslint-config-prettier" in s and "jsdom" not in s for s in summaries)
    assert any("jsdom" in s and "eslint-config-prettier" not in s for s in summaries)


def test_an_attempt_that_only_got_past_the_first_error_is_not_the_fix():
    said = stated("Adding libpq alone was not enough: the build then needed gcc. Installing only gcc got past the "
                  "first error but then the linker failed.")
    assert len(said["did_not_help"]) == 2 and said["fix"] == []


# --- a card a reader can act on -------------------------------------------------------------------------

def test_an_absolute_cd_into_the_project_reads_relative_and_the_title_says_what_changed(git_project, store):
    root = str(git_project)
    session = (Session("abscd", git_project)
               .ok(f"cd {root}/services/api && uv run pytest -q 2>&1 | tail -5",
                   "E   ModuleNotFoundError: No module named 'billing_api'\n1 error in 0.2s")
               .ok(f"cd {root}/services/api && PYTHONPATH=src uv run pytest -q 2>&1 | tail -5", "58 passed in 1.9s")
               .stop("The package lives in services/api/src and is not installed, so pytest needs PYTHONPATH=src."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].endswith("— set `PYTHONPATH=src`")
    assert "`cd services/api && PYTHONPATH=src uv run pytest -q`" in candidate["change"]
    assert root not in candidate["change"] + candidate["trigger"] + " ".join(candidate["validation"]["passed"])


def test_a_list_of_things_to_do_later_is_not_the_account_of_the_fix(git_project, store):
    message = ("## Findings\n\n- **Problem**: the worker cannot reach the queue because QUEUE_URL is unset in tests.\n"
               "- **Fix**:\n  1. Document QUEUE_URL in README.\n  2. Set a default with "
               "`os.environ.get('QUEUE_URL', 'memory://')` in settings.py.\n\n"
               "Everything else looks fine.")
    session = (Session("todo", git_project)
               .fail("pytest tests/test_worker.py -q", "Exit code 1\nE   KeyError: 'QUEUE_URL'")
               .ok("QUEUE_URL=memory:// pytest tests/test_worker.py -q", "9 passed")
               .stop(message))
    (candidate,), _ = _candidates(store, session)
    assert "QUEUE_URL is unset" in candidate["summary"]
    assert "Document" not in candidate["summary"] and "Set a default" not in candidate["summary"]


def test_a_title_keeps_the_path_the_fix_quotes_and_shortens_the_errors():
    title = lesson_title("`./gradlew test` fails with IllegalStateException: no socket at /var/run/docker.sock",
                         "set `DOCKER_HOST=unix:///run/user/1000/docker.sock`")
    assert title.endswith("set `DOCKER_HOST=unix:///run/user/1000/docker.sock`")
    assert "/var/run/" not in title  # the error's path is furniture


def test_a_short_diff_shows_whole_tokens():
    from lorebook.edits import _short_diff

    hunk = {"old": "        self.http = httpx.Client(base_url=base_url, timeout=5)",
            "new": "        self.http = httpx.Client(base_url=base_url, timeout=30)"}
    assert _short_diff(hunk) == "`timeout=5` → `timeout=30`"


# --- the receipt says which failure each reason is about ----------------------------------------------

def test_a_missing_program_in_a_later_pipeline_stage_is_not_the_first_stages_plumbing(git_project, store):
    session = (Session("stage", git_project)
               .fail("head -3 events.ndjson | yq -p json '.'", "Exit code 127\n/bin/bash: line 1: yq: command not found")
               .stop("yq is not installed here."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and notes == ["unresolved_failure"]  # yq never ran; `head` is not the problem


def test_each_skip_reason_in_the_receipt_names_its_failures(git_project, store):
    from lorebook.writeback import write_back

    session = (Session("reasons", git_project)
               .fail("git push", "Exit code 128\nfatal: The current branch topic has no upstream branch.")
               .ok("git push -u origin topic", "branch 'topic' set up to track 'origin/topic'.")
               .fail("cargo bench", "Exit code 101\nerror: linker `cc` not found")
               .stop("Pushed the branch; the benches need a C linker, which this machine lacks."))
    (result,) = write_back(store, session.sid, session.message)
    messages = {r["code"]: r["message"] for r in result["reasons"]}
    assert "`git push` (fatal: The current branch topic has no upstream branch" in messages["routine_plumbing"]
    assert "`cargo bench` (error: linker `cc` not found)" in messages["unresolved_failure"]


# --- MCP tools fail and pass again too ----------------------------------------------------------------

def _mcp(session, tool, args, text):
    run_hook("post-tool-use", dict(session.base, tool_name=tool, tool_use_id=session._id(), tool_input=args,
                                   tool_response=[{"type": "text", "text": text}]))
    return session


def test_an_mcp_call_that_answers_an_error_then_passes_after_a_state_change_is_a_lesson(git_project, store):
    session = Session("mcpstate", git_project)
    _mcp(session, "mcp__docsearch__query", {"q": "retry policy"},
         '{"result":"Error: no index selected. Call select_index with one of: handbook, api"}')
    _mcp(session, "mcp__docsearch__list_indexes", {}, '{"result":"handbook, api"}')
    _mcp(session, "mcp__docsearch__select_index", {"name": "handbook"}, '{"result":"OK"}')
    _mcp(session, "mcp__docsearch__query", {"q": "retry policy"}, '{"result":"3 hits"}')
    session.stop("The docsearch server needs an index selected before it answers queries.")
    (candidate,), _ = _candidates(store, session)
    assert 'docsearch.select_index(name="handbook")' in candidate["change"]
    assert "list_indexes" not in candidate["change"] and candidate["verified"] == 1


def test_an_mcp_error_retried_with_only_reads_in_between_stores_nothing(git_project, store):
    session = Session("mcpretry", git_project)
    _mcp(session, "mcp__docsearch__query", {"q": "retry policy"}, '{"result":"Error: upstream timed out"}')
    _mcp(session, "mcp__docsearch__list_indexes", {}, '{"result":"handbook, api"}')
    _mcp(session, "mcp__docsearch__query", {"q": "retry policy"}, '{"result":"3 hits"}')
    session.stop("The docs search timed out once; the retry worked.")
    assert _candidates(store, session) == ([], ["retry_without_change"])


def test_a_server_started_after_a_failure_that_is_not_about_reaching_it_is_no_step(git_project, store):
    session = (Session("npmstart", git_project)
               .fail("npm test", "Exit code 1\n  ● cart › total › sums line prices\n    Expected: 30\n    Received: 20")
               .edit("src/cart.js", "return lines.reduce((s, l) => s + l.price, 0)",
                     "return lines.reduce((s, l) => s + l.price * l.qty, 0)")
               .ok("npm start", "Server listening on :3000")
               .ok("npm test", "Tests: 18 passed, 18 total")
               .stop("total() ignored quantities; it now multiplies price by qty."))
    (candidate,), _ = _candidates(store, session)
    assert "l.price * l.qty" in candidate["change"] and "npm start" not in candidate["change"]


# --- issue 11, round 2: a false link to an unrelated edit, a stored weakened test -------------------------

@pytest.mark.parametrize("path, old, new", [
    ("spec/models/invoice_spec.rb", '  it "rounds the total to cents" do', '  xit "rounds the total to cents" do'),
    ("spec/models/invoice_spec.rb", '  context "with a discount" do', '  xcontext "with a discount" do'),
    ("src/cart.test.js", "describe('cart totals', () => {", "xdescribe('cart totals', () => {"),
])
def test_an_example_marked_pending_with_an_x_prefix_is_a_weakened_test(git_project, store, path, old, new):
    session = (Session("xit", git_project)
               .fail("bundle exec rspec" if path.endswith(".rb") else "npx jest",
                     "Exit code 1\nFailures:\n  1) Invoice rounds the total to cents\n"
                     "     expected: 10.5\n          got: 10.499\n1 example, 1 failure")
               .edit(path, old, new)
               .ok("bundle exec rspec" if path.endswith(".rb") else "npx jest", "1 example, 0 failures, 1 pending")
               .stop("The suite is green now; the rounding example is pending until Invoice#total is fixed."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_failure_the_agent_says_passed_on_the_next_run_is_not_linked_to_the_edit_in_between(git_project, store):
    session = (Session("nextrun", git_project)
               .fail("cargo test", "Exit code 101\nerror: failed to get `serde` as a dependency of package `tally`\n"
                                   "Caused by: spurious network error: Timeout was reached")
               .edit("src/lib.rs", "/// Sums the tallies.", "/// Sums the tallies.\n///\n/// Returns 0 when empty.")
               .ok("cargo test", "test result: ok. 12 passed; 0 failed")
               .stop("Documented the empty case of sum(). The first cargo test could not fetch serde; the next "
                     "run passed with nothing changed."))
    assert _candidates(store, session) == ([], ["flaky_failure"])


def test_an_out_of_memory_failure_is_not_linked_to_a_source_edit_its_error_does_not_name(git_project, store):
    session = (Session("oom", git_project, prompt="Rename the Save button to Save draft")
               .fail("npm run build", "Exit code 134\n> vite build\n<--- Last few GCs --->\n"
                                      "FATAL ERROR: Ineffective mark-compacts near heap limit Allocation failed - "
                                      "JavaScript heap out of memory")
               .edit("src/components/Toolbar.vue", "<button>Save</button>", "<button>Save draft</button>")
               .ok("npm run build", "✓ built in 41.2s")
               .stop("The Save button now reads Save draft. npm run build passes."))
    assert _candidates(store, session) == ([], ["unrelated_change"])
    assert store.project_notes(PROJECT) == []


def test_an_out_of_memory_failure_fixed_in_configuration_is_still_a_lesson(git_project, store):
    session = (Session("oomfix", git_project)
               .fail("npm run build", "Exit code 134\nFATAL ERROR: Reached heap limit Allocation failed - "
                                      "JavaScript heap out of memory")
               .edit("package.json", '"build": "vite build"',
                     '"build": "NODE_OPTIONS=--max-old-space-size=4096 vite build"')
               .ok("npm run build", "✓ built in 38.0s")
               .stop("The build needs more than node's default heap; the build script now sets "
                     "NODE_OPTIONS=--max-old-space-size=4096."))
    (candidate,), _ = _candidates(store, session)
    assert "NODE_OPTIONS" in candidate["change"] and candidate["files"] == ["package.json"]


def test_an_attempt_that_made_no_difference_is_not_the_fix_and_its_revert_is_not_the_lesson(git_project, store):
    said = stated("Raising the pool size to 20 made no difference, so I put it back to 5. The migration held a "
                  "lock on accounts; running it outside the transaction fixed it.")
    assert said["did_not_help"] == ["Raising the pool size to 20 made no difference."]
    assert all("pool size" not in s for s in said["fix"] + said["cause"])
    session = (Session("nodiff", git_project)
               .fail("pytest tests/test_ledger.py", "Exit code 1\nE   psycopg.errors.LockNotAvailable: canceling "
                                                    "statement due to lock timeout\n1 failed, 6 passed")
               .edit("config/db.py", "POOL_SIZE = 5", "POOL_SIZE = 20")
               .fail("pytest tests/test_ledger.py", "Exit code 1\nE   psycopg.errors.LockNotAvailable: canceling "
                                                    "statement due to lock timeout\n1 failed, 6 passed")
               .edit("config/db.py", "POOL_SIZE = 20", "POOL_SIZE = 5")
               .edit("migrations/0007_ledger.py", "atomic = True", "atomic = False")
               .ok("pytest tests/test_ledger.py", "7 passed")
               .stop("Raising the pool size to 20 made no difference, so I put it back to 5. The "
                     "migration held a lock on accounts; running it outside the transaction fixed it."))
    (candidate,), _ = _candidates(store, session)
    assert "atomic = False" in candidate["change"] and "POOL_SIZE" not in candidate["change"]
    assert "so I" not in candidate["summary"]
    assert len(store.project_notes(PROJECT)) == 1


@pytest.mark.parametrize("path, old, new, error", [
    ("spec/services/invoice_spec.rb", '    expect(invoice.status).to eq("paid")', '    expect(invoice.status).to eq("void")',
     'Failure/Error: expect(invoice.status).to eq("paid")\n\n       expected: "paid"\n            got: "void"'),
    ("tests/test_tax.py", "    assert vat(100) == 20", "    assert vat(100) == 19",
     "E       assert 19 == 20\nE        +  where 19 = vat(100)\n1 failed"),
    ("test/shipping_test.exs", "    assert cost(order) == 700", "    assert cost(order) == 650",
     "  1) test cost of an order (ShippingTest)\n     Assertion with == failed\n     code:  assert cost(order) == 700\n"
     "     left:  650\n     right: 700"),
    ("tests/test_tax.py", "    assert vat(100) == 20", "    # assert vat(100) == 20", "E       assert 19 == 20\n1 failed"),
])
def test_a_test_made_to_expect_what_the_code_returned_or_commented_out_is_a_weakened_test(git_project, store, path,
                                                                                         old, new, error):
    session = (Session("expectgot", git_project)
               .fail("make test", f"Exit code 1\n{error}")
               .edit(path, old, new)
               .ok("make test", "all passed")
               .stop("The test passes now."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_test_corrected_to_a_value_the_failure_did_not_report_is_still_a_fix(git_project, store):
    session = (Session("testfix", git_project)
               .fail("pytest tests/test_tax.py", "Exit code 1\nE       assert 19 == 20\n1 failed")
               .edit("app/tax.py", "RATE = 0.19", "RATE = 0.2")
               .edit("tests/test_tax.py", "    assert vat(100) == 20", "    assert vat(100) == 20\n"
                                                                        "    assert vat(50) == 10")
               .ok("pytest tests/test_tax.py", "2 passed")
               .stop("The VAT rate was still the old 19%; app/tax.py now uses 0.2."))
    (candidate,), _ = _candidates(store, session)
    assert "RATE = 0.2" in candidate["change"]


@pytest.mark.parametrize("sentence, chance", [
    ("The second run of the same command passed.", True),
    ("With nothing changed, the next build went through.", True),
    ("The next run passed without any change.", True),
    ("Added the fixture to conftest.py; the next run passed.", False),
    ("Reran the suite and everything passed.", False),
])
def test_a_next_run_that_passed_is_chance_only_when_nothing_was_changed_for_it(sentence, chance):
    from lorebook.account import _FLAKY

    assert bool(_FLAKY.search(sentence)) is chance


def test_a_dropped_network_is_not_linked_to_a_source_edit_that_does_not_touch_what_it_names(git_project, store):
    session = (Session("netdrop", git_project, prompt="Add a --dry-run flag to the sync command")
               .fail("go test ./...", "Exit code 1\ngo: downloading golang.org/x/sync v0.7.0\n"
                                      "go: golang.org/x/sync@v0.7.0: Get \"https://proxy.golang.org/golang.org/x/sync/"
                                      "@v/v0.7.0.zip\": dial tcp: lookup proxy.golang.org: i/o timeout")
               .edit("cmd/flags.go", 'flag.Bool("verbose", false, "")',
                     'flag.Bool("verbose", false, "")\n\tdryRun := flag.Bool("dry-run", false, "print, do not write")')
               .ok("go test ./...", "ok  \texample.com/tool/cmd\t0.02s")
               .stop("sync has a --dry-run flag now; go test ./... passes."))
    assert _candidates(store, session) == ([], ["unrelated_change"])


def test_a_network_failure_fixed_by_correcting_the_host_it_names_is_a_lesson(git_project, store):
    session = (Session("nethost", git_project)
               .fail("python -m app.sync", "Exit code 1\nrequests.exceptions.ConnectionError: HTTPSConnectionPool("
                                           "host='api.billing-stage.example', port=443): Max retries exceeded "
                                           "(Caused by NameResolutionError: Temporary failure in name resolution "
                                           "for api.billing-stage.example)")
               .edit("app/settings.py", 'BILLING_HOST = "api.billing-stage.example"',
                     'BILLING_HOST = "api.billing-staging.example"')
               .ok("python -m app.sync", "synced 14 invoices")
               .stop("The billing host had a typo (billing-stage instead of billing-staging)."))
    (candidate,), _ = _candidates(store, session)
    assert "billing-staging" in candidate["change"]


def test_an_out_of_memory_failure_fixed_in_the_build_tools_config_file_is_a_lesson(git_project, store):
    session = (Session("oomvite", git_project)
               .fail("npx vite build", "Exit code 134\nFATAL ERROR: Reached heap limit Allocation failed - "
                                       "JavaScript heap out of memory")
               .edit("web/vite.config.mts", "    minify: 'terser',", "    minify: 'esbuild',")
               .ok("npx vite build", "✓ built in 22.4s")
               .stop("terser ran out of memory on the vendor chunk; esbuild minifies it in a fraction of that."))
    (candidate,), _ = _candidates(store, session)
    assert "minify: 'esbuild'" in candidate["change"]


def test_a_choice_stated_without_a_reason_is_a_report_of_the_work_not_a_decision(git_project, store):
    session = (Session("nowhy", git_project, prompt="Make the price column show euros")
               .edit("src/PriceCell.tsx", "{price.toFixed(2)}", "{euros.format(price)}")
               .ok("npx vitest run src/PriceCell.test.tsx", "Tests  3 passed (3)")
               .stop("The price column now uses Intl.NumberFormat instead of toFixed; the cell tests pass."))
    assert _candidates(store, session) == ([], ["no_lesson_stated"])


def test_a_choice_stated_with_its_reason_is_a_decision(git_project, store):
    session = (Session("why", git_project, prompt="Make the price column show euros")
               .edit("src/PriceCell.tsx", "{price.toFixed(2)}", "{euros.format(price)}")
               .ok("npx vitest run src/PriceCell.test.tsx", "Tests  3 passed (3)")
               .stop("Chose Intl.NumberFormat over toFixed because it places the euro sign and the decimal comma "
                     "by locale."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["kind"] == "decision" and "Intl.NumberFormat" in candidate["title"]


@pytest.mark.parametrize("failing, passing", [
    ("pytest tests/test_sync.py", "pytest tests/test_sync.py --deselect tests/test_sync.py::test_resume"),
    ("pytest", 'pytest -k "not resume"'),
    ("cargo test", "cargo test -- --skip resume"),
    ("npx jest", "npx jest --testPathIgnorePatterns=sync"),
])
def test_a_run_that_passes_by_leaving_the_failing_tests_out_is_a_weakened_test(git_project, store, failing, passing):
    session = (Session("deselect", git_project)
               .fail(failing, "Exit code 1\nFAILED tests/test_sync.py::test_resume - TimeoutError\n1 failed, 9 passed")
               .ok(passing, "9 passed, 1 deselected")
               .stop("The suite is green without the resume test."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_run_that_ignores_a_foreign_directory_is_still_a_lesson(git_project, store):
    session = (Session("ignorevendor", git_project)
               .fail("pytest", "Exit code 2\nERROR collecting vendor/pkg/test_pkg.py\nImportError while importing "
                               "test module 'vendor/pkg/test_pkg.py'\n1 error")
               .ok("pytest --ignore=vendor", "42 passed")
               .stop("pytest collected the vendored package's own tests, which need its dev extras; this "
                     "project's tests run with `--ignore=vendor`."))
    (candidate,), _ = _candidates(store, session)
    assert "--ignore=vendor" in candidate["change"]


# --- lessons round 3 (issue 11): loosened equality, two problems behind one exit code, steps before edits ------

@pytest.mark.parametrize("path, old, new", [
    ("tests/Unit/CartTest.php", "        $this->assertSame(12.5, $cart->weight());",
     "        $this->assertEqualsWithDelta(12.5, $cart->weight(), 0.1);"),
    ("tests/test_cart.py", "    assert cart.weight() == 12.5", "    assert math.isclose(cart.weight(), 12.5, rel_tol=0.01)"),
    ("test/cart_test.rb", "    assert_equal 12.5, cart.weight", "    assert_in_delta 12.5, cart.weight, 0.1"),
])
def test_an_exact_assertion_loosened_to_a_tolerance_is_a_weakened_test(git_project, store, path, old, new):
    session = (Session("loosened", git_project)
               .fail("make test", "Exit code 1\nFailed asserting that 12.4 is identical to 12.5.\n1 failure")
               .edit(path, old, new)
               .ok("make test", "all passed")
               .stop("The weight was off by a rounding error, so the test now compares with a tolerance."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_two_errors_behind_the_same_exit_code_are_two_problems(git_project, store):
    # go test's signature is only its exit code: the error lines tell the two problems apart
    session = (Session("twoexit", git_project, prompt="the svc tests are red")
               .fail("go test ./pkg/...", "Exit code 1\npkg/db/conn.go:5:2: no required module provides package "
                                          "github.com/lib/pq; to add:\n\tgo get github.com/lib/pq")
               .ok("go get github.com/lib/pq", "go: added github.com/lib/pq v1.10.9")
               .fail("go test ./pkg/...", "Exit code 1\n--- FAIL: TestRetryDelay (0.00s)\n    delay_test.go:15: got 6s, "
                                          "want 8s\nFAIL\nFAIL\texample.com/svc/pkg/retry\t0.002s")
               .edit("pkg/retry/delay.go", "\treturn base + time.Duration(n)*2*time.Second",
                     "\treturn base * time.Duration(1<<n)")
               .ok("go test ./pkg/...", "ok  \texample.com/svc/pkg/retry\t0.002s")
               .stop("Two problems: github.com/lib/pq was not required (`go get github.com/lib/pq` added it), and "
                     "the retry delay grew linearly where the test expects doubling; pkg/retry/delay.go now shifts."))
    candidates, _ = _candidates(store, session)
    assert len(candidates) == 2
    assert "go get github.com/lib/pq" in candidates[0]["change"] and "1<<n" not in candidates[0]["change"]
    assert "1<<n" in candidates[1]["change"]


def test_an_install_of_what_the_error_names_takes_precedence_over_an_edit_it_does_not_name(git_project, store):
    # "codec-image" holds the word "image", but it does not name src/image.c: the log edit is a bystander
    session = (Session("libpng", git_project, prompt="make fails on the new box; also make the log say 'decoded'")
               .fail("make", "Exit code 2\ncc -c src/codec-image.c\nsrc/codec-image.c:4:10: fatal error: png.h: "
                             "No such file or directory\nPackage libpng was not found; install libpng-dev")
               .edit("src/image.c", '    log_info("image read");', '    log_info("image decoded");')
               .ok("sudo apt-get install -y libpng-dev", "Setting up libpng-dev (1.6.43-5) ...")
               .ok("make", "cc -o viewer src/*.o -lpng")
               .stop("The log now says decoded. The box had no libpng headers; installing libpng-dev fixed make."))
    (candidate,), _ = _candidates(store, session)
    assert "libpng-dev" in candidate["change"] and "decoded" not in candidate["change"]
    assert "src/image.c" not in candidate["files"]


def test_a_service_start_after_a_refused_connection_takes_precedence_over_an_unnamed_edit(git_project, store):
    session = (Session("redisup", git_project)
               .fail("pytest tests/test_sessions.py", "Exit code 1\nE   redis.exceptions.ConnectionError: Error 111 "
                                                      "connecting to localhost:6379. Connection refused.\n1 failed")
               .edit("app/banner.py", 'TEXT = "Welcome"', 'TEXT = "Welcome back"')
               .ok("redis-server --daemonize yes", "")
               .ok("pytest tests/test_sessions.py", "3 passed")
               .stop("Redis was not running; started it with --daemonize yes. Also changed the banner text."))
    (candidate,), _ = _candidates(store, session)
    assert "redis-server --daemonize yes" in candidate["change"] and "Welcome back" not in candidate["change"]


def test_a_test_that_passed_after_pulling_other_peoples_changes_stores_nothing(git_project, store):
    session = (Session("pulled", git_project, prompt="bump the footer year; the export test also fails for me")
               .fail("npx jest tests/export.test.ts", "Exit code 1\n● export › writes a header row\n"
                                                       "  expect(received).toBe(expected)\nTests: 1 failed, 6 passed")
               .edit("src/footer.tsx", "© 2025 Acme", "© 2026 Acme")
               .ok("git pull --rebase", "Updating 1a2b3c4..5d6e7f8\nFast-forward\n src/export.ts | 4 ++--\n"
                                        " 1 file changed, 2 insertions(+), 2 deletions(-)")
               .ok("npx jest tests/export.test.ts", "Tests: 7 passed, 7 total")
               .stop("Footer says 2026. The export test was fixed on main already; after pulling it passes."))
    assert _candidates(store, session) == ([], ["upstream_change"])


def test_an_edit_to_the_failing_tests_subject_stays_the_fix_beside_a_pull(git_project, store):
    session = (Session("subject", git_project)
               .fail("pytest tests/test_quota.py", "Exit code 1\nE   assert 5 == 10\n1 failed")
               .edit("app/quota.py", "LIMIT = 5", "LIMIT = 10")
               .ok("git pull", "Updating 0a1b2c3..4d5e6f7\nFast-forward\n README.md | 2 +-\n 1 file changed")
               .ok("pytest tests/test_quota.py", "4 passed")
               .stop("The quota limit was still 5; app/quota.py now allows 10."))
    (candidate,), _ = _candidates(store, session)
    assert "LIMIT = 10" in candidate["change"] and "git pull" not in candidate["change"]


def test_a_pull_that_found_nothing_new_is_no_change(git_project, store):
    session = (Session("uptodate", git_project)
               .fail("pytest tests/test_quota.py", "Exit code 1\nE   assert 5 == 10\n1 failed")
               .ok("git pull", "Already up to date.")
               .ok("pytest tests/test_quota.py", "4 passed")
               .stop("It passes now."))
    assert _candidates(store, session) == ([], ["retry_without_change"])


def test_a_suggestion_for_later_is_no_account_of_the_fix(git_project, store):
    assert stated("Worth adding that to the Dockerfile. You might want to pin it too.")["all"] == []
    session = (Session("suggest", git_project)
               .fail("bundle exec rake assets:precompile", "Exit code 1\nsh: 1: node: not found\n"
                                                           "ExecJS::RuntimeUnavailable: Could not find a JavaScript "
                                                           "runtime. Install nodejs.")
               .ok("sudo apt-get install -y nodejs", "Setting up nodejs (18.19.1) ...")
               .ok("bundle exec rake assets:precompile", "Writing public/assets/application.js")
               .stop("The container had no JavaScript runtime for ExecJS; `sudo apt-get install -y nodejs` and the "
                     "assets compile. Worth adding that to the Dockerfile."))
    (candidate,), _ = _candidates(store, session)
    assert "ExecJS" in candidate["summary"] and "Worth" not in candidate["summary"]


# --- the tool's own subcommand names its job; installs read manifests; a retry that passes as is -------------

@pytest.mark.parametrize("command, job", [
    ("stack test", "test"), ("cabal test", "test"), ("deno task test", "test"), ("just test", "test"),
    ("opam install . --deps-only", "install"), ("ansible-galaxy install -r requirements.yml", "install"),
    ("zig build", "build"), ("helm lint ./chart", "lint"), ("helm upgrade --install api ./chart", None),
])
def test_a_tool_outside_the_table_names_its_job_by_its_subcommand(command, job):
    assert command_job(command) == job


def test_the_projects_own_test_runner_after_a_failing_generic_one_is_a_convention(git_project, store):
    session = (Session("stack", git_project)
               .fail("cabal build", "Exit code 1\nError: cabal: Could not resolve dependencies:\n"
                                    "[__1] rejecting: base-4.19.1.0 (conflict: ledger => base<4.19)")
               .ok("stack build", "ledger> build (lib + exe) with ghc-9.4.8\nCompleted 2 action(s).")
               .stop("This repo builds with Stack: stack.yaml pins GHC 9.4.8, while cabal picked the system GHC 9.8. "
                     "`stack build` works."))
    (candidate,), _ = _candidates(store, session)
    assert "stack build" in candidate["change"]


def test_a_source_edit_is_never_the_fix_of_an_install_that_failed(git_project, store):
    session = (Session("registry", git_project)
               .fail("pnpm install", "Exit code 1\n ERR_PNPM_FETCH_503  GET https://registry.npmjs.org/zod: "
                                     "Service Unavailable - 503")
               .edit("src/routes/health.ts", "export {}", "export const health = () => ({ ok: true })")
               .ok("pnpm install", "Packages: +212\nDone in 4.1s")
               .stop("Added the health route. pnpm install went through on the second try."))
    assert _candidates(store, session)[0] == []
    assert store.project_notes(PROJECT) == []


def test_installing_what_the_project_declares_addresses_a_missing_dependency(git_project, store):
    session = (Session("galaxy", git_project)
               .fail("ansible-playbook -i inventories/dev site.yml",
                     "Exit code 1\nERROR! the role 'community.postgres' was not found in /w/roles")
               .ok("ansible-galaxy install -r requirements.yml", "- community.postgres (1.4.0) was installed")
               .edit("group_vars/all.yml", "pg_port: 5432", "pg_port: 5433")
               .ok("ansible-playbook -i inventories/dev site.yml", "PLAY RECAP: ok=14 changed=2 failed=0")
               .stop("Installed the Galaxy roles from requirements.yml and moved the dev database to 5433; the "
                     "playbook runs."))
    (candidate,), _ = _candidates(store, session)
    assert "ansible-galaxy install -r requirements.yml" in candidate["change"]
    assert "pg_port" not in candidate["change"] + candidate["title"]


def test_a_changed_run_is_no_fix_when_the_failing_command_then_passes_as_it_was(git_project, store):
    session = (Session("retry", git_project)
               .fail("go test ./internal/cache/...", "Exit code 1\n--- FAIL: TestEvictsUnderPressure (1.50s)\n"
                                                     "    lru_test.go:61: 3 entries left, want 2\nFAIL")
               .ok("go test -run TestEvictsUnderPressure -count=50 ./internal/cache/", "ok  acme/internal/cache 9.1s")
               .ok("go test ./internal/cache/...", "ok  acme/internal/cache 0.4s")
               .stop("It passed 50 times in a row and the package passes; I changed nothing."))
    assert _candidates(store, session)[0] == []


@pytest.mark.parametrize("old, new", [
    ('    assert Order.total(order) == Decimal.new("97.20")',
     '    assert Decimal.compare(Order.total(order), Decimal.new("90")) == :gt'),
    ("    assert_eq!(queue.len(), 3);", "    assert!(queue.len() > 0);"),
    ("    expect(total).toBe(90)", "    expect(total).toBeGreaterThan(80)"),
])
def test_an_exact_assertion_turned_into_a_comparison_is_a_weakened_test(git_project, store, old, new):
    session = (Session("cmp", git_project)
               .fail("mix test test/order_test.exs", "Exit code 2\n  1) test total (OrderTest)\n     Assertion with "
                                                     "== failed\n     left:  Decimal.new(\"96.99\")")
               .edit("test/order_test.exs", old, new)
               .ok("mix test test/order_test.exs", "12 tests, 0 failures")
               .stop("The order test passes now."))
    assert _candidates(store, session) == ([], ["weakened_test"])


@pytest.mark.parametrize("command, yes", [
    ("zig fmt src build.zig", True), ("terraform fmt -recursive", True), ("deno fmt", True),
    ("zig fmt --check src", False), ("git format-patch HEAD~1", False),
])
def test_any_tools_own_formatter_is_an_autofix(command, yes):
    assert is_autofix(command) is yes


def test_a_compile_error_in_code_the_session_just_wrote_is_its_own_mess(git_project, store):
    session = (Session("own", git_project)
               .edit("src/report.rs", "fn total() {}", "fn total(rows: &[Row]) -> u64 { rows.iter().sum() }")
               .fail("cargo build", "Exit code 101\nerror[E0277]: a value of type `u64` cannot be made by summing "
                                    "an iterator over elements of type `&Row`\n  --> src/report.rs:1:52\n")
               .edit("src/report.rs", "rows.iter().sum()", "rows.iter().map(|r| r.amount).sum()")
               .ok("cargo build", "Finished dev [unoptimized + debuginfo] target(s) in 1.2s")
               .stop("Added total(); it builds."))
    assert _candidates(store, session) == ([], ["self_inflicted"])


def test_a_compile_error_in_a_file_the_session_had_not_touched_is_a_lesson(git_project, store):
    session = (Session("theirs", git_project)
               .fail("cargo build", "Exit code 101\nerror[E0599]: no method named `json` found for struct "
                                    "`RequestBuilder`\n  --> src/client.rs:40:10\n")
               .edit("Cargo.toml", 'reqwest = "0.12"', 'reqwest = { version = "0.12", features = ["json"] }')
               .ok("cargo build", "Finished dev [unoptimized + debuginfo] target(s) in 9.8s")
               .stop("reqwest's `json` method sits behind its `json` feature; enabled it in Cargo.toml."))
    (candidate,), _ = _candidates(store, session)
    assert 'features = ["json"]' in candidate["change"]


def test_an_edit_is_no_fix_for_a_download_that_timed_out(git_project, store):
    session = (Session("jl", git_project)
               .fail("julia --project=. -e 'using Pkg; Pkg.test()'",
                     "Exit code 1\n     Testing Knots\nERROR: LoadError: Unable to automatically download/install "
                     "artifact 'OpenBLAS' from sources listed in '/home/u/.julia/packages/OpenBLAS_jll/Artifacts.toml'."
                     "\n    Error: RequestError: Operation timed out after 30000 milliseconds while requesting "
                     "https://pkg.julialang.org/artifact/9f1\nERROR: Package Knots errored during testing")
               .edit("src/Knots.jl", '"""\n    knots(s)\n\nThe knots.\n"""',
                     '"""\n    knots(s::Spline)\n\nThe sorted knots of `s`.\n"""')
               .ok("julia --project=. -e 'using Pkg; Pkg.test()'", "Test Summary: | Pass  Total\nKnots | 12 12")
               .stop("The failure was a network timeout downloading the OpenBLAS artifact; the second run passed. I "
                     "also improved the knots docstring."))
    assert _candidates(store, session)[0] == []


def test_a_flag_the_error_names_is_the_fix_not_an_edit_made_meanwhile(git_project, store):
    session = (Session("deno", git_project, prompt="fix the loader tests, and rename MB to MEGABYTE in src/size.ts")
               .fail("deno test", "Exit code 1\nrunning 2 tests from ./src/size_test.ts\nparses MB ... ok\n"
                                  "running 1 test from ./src/load_test.ts\nloads ... FAILED\nerror: PermissionDenied: "
                                  "Requires read access to \"./data/a.json\", run again with the --allow-read flag")
               .edit("src/size.ts", "export const MB = 1e6;", "export const MEGABYTE = 1e6;")
               .edit("src/size_test.ts", "assertEquals(parse('1MB'), MB);", "assertEquals(parse('1MB'), MEGABYTE);")
               .ok("deno test --allow-read=data", "ok | 3 passed | 0 failed")
               .stop("Renamed MB to MEGABYTE. The loader test needs file reads: `deno test --allow-read=data` passes."))
    (candidate,), _ = _candidates(store, session)
    assert "--allow-read=data" in candidate["title"] + candidate["change"]
    assert "MEGABYTE" not in candidate["title"] + candidate["change"] + candidate["summary"]


def test_a_command_the_agent_says_fixed_it_beats_a_cosmetic_edit(git_project, store):
    session = (Session("php", git_project)
               .fail("vendor/bin/phpunit tests/MailerTest.php", "Exit code 2\nConfiguration: /w/phpunit.xml\n"
                                                                "1) MailerTest::testSends\nError: Class \"App\\Mailer\" "
                                                                "not found")
               .edit("phpunit.xml", 'colors="false"', 'colors="true"')
               .ok("composer dump-autoload", "Generated autoload files")
               .ok("vendor/bin/phpunit tests/MailerTest.php", "OK (3 tests, 7 assertions)")
               .stop("legacy/ is autoloaded through a classmap, so a moved class is not found until `composer "
                     "dump-autoload` regenerates it; that fixed it. I also set colors=\"true\" in phpunit.xml; that's "
                     "cosmetic and not related."))
    (candidate,), _ = _candidates(store, session)
    assert "composer dump-autoload" in candidate["change"]
    assert "colors" not in candidate["title"] + candidate["change"] + candidate["summary"]


@pytest.mark.parametrize("failed, later, same", [
    ("go build ./...", "go build ./... && go test ./...", True),
    ("php artisan test --filter=Billing", "./vendor/bin/sail artisan test --filter=Billing", True),
    ("pytest -q", "pytest -q || true", False),
    ("make test", "make lint && make docs", False),
])
def test_a_passing_line_runs_what_failed_as_a_step_of_a_chain_or_through_another_launcher(failed, later, same):
    from lorebook.chains import _passed_within
    assert _passed_within(failed, later) is same


def test_a_runner_with_a_double_dash_and_an_alias_flag_are_understood():
    assert parse_command("carton exec -- prove -lr t/")["runner"] == "carton exec --"
    assert command_job("clojure -X:test") == "test"


def test_a_build_of_the_default_step_is_not_the_test_step_that_failed(git_project, store):
    session = (Session("zig", git_project)
               .fail("zig build test", "Exit code 1\nerror: 'tokenizer.test.escaped quote' failed: expected 3, found 2")
               .edit("src/tokenizer.zig", "_ = self.advance();", "if (self.peek() == '\\\\') _ = self.advance();")
               .ok("zig build", "")
               .ok("zig build run -- samples/hello.lox", "STRING \"say hi\"")
               .stop("Fixed string() in src/tokenizer.zig; the build is clean and the sample tokenizes."))
    assert _candidates(store, session)[0] == []


def test_an_edit_the_user_asked_for_beside_the_problem_is_not_its_fix(git_project, store):
    session = (Session("ask", git_project, prompt="bundle exec rspec fails on the health spec. Also bump "
                                                  "TargetRubyVersion in .rubocop.yml to 3.3 while you're at it")
               .fail("bundle exec rspec spec/health_spec.rb", "Exit code 1\n  1) GET /health returns ok\n     "
                                                              "NoMethodError:\n       undefined method `app' for "
                                                              "#<RSpec::ExampleGroups::GETHealth>")
               .edit(".rubocop.yml", "TargetRubyVersion: 3.1", "TargetRubyVersion: 3.3")
               .edit("spec/spec_helper.rb", "RSpec.configure do |config|",
                     "module RackApp\n  def app = Api\nend\n\nRSpec.configure do |config|")
               .ok("bundle exec rspec", "10 examples, 0 failures")
               .stop("Rack::Test calls `app`, which a modular Sinatra app does not define; I added `def app` in "
                     "spec_helper. Also bumped TargetRubyVersion to 3.3 as you asked."))
    (candidate,), _ = _candidates(store, session)
    assert "def app" in candidate["change"]
    assert "TargetRubyVersion" not in candidate["title"] + candidate["change"] + candidate["summary"]


def test_an_edit_of_the_file_the_error_names_is_the_fix_though_it_sets_what_the_prompt_names(git_project, store):
    # (blind200 GS19: "distribute … by tenant_id and make the reporting tests pass"; the join given ``i.tenant_id =
    # e.tenant_id`` in the file the error points at was set aside as the task's)
    session = (Session("citus", git_project, prompt="Distribute the events and event_items tables by tenant_id and "
                                                    "make the reporting tests pass.")
               .fail("uv run pytest tests/reporting -q",
                     "Exit code 1\nE   psycopg.errors.FeatureNotSupported: complex joins are only supported when all "
                     "distributed tables are co-located and joined on their distribution columns\n"
                     "reporting/daily.py:41: FeatureNotSupported")
               .edit("reporting/daily.py", "        JOIN event_items i ON i.event_id = e.id",
                     "        JOIN event_items i ON i.tenant_id = e.tenant_id AND i.event_id = e.id")
               .ok("uv run pytest tests/reporting -q", "8 passed in 2.41s")
               .stop("Joining `event_items` to `events` on `event_id` alone is a cross-shard join Citus refuses; the "
                     "join now also matches `i.tenant_id = e.tenant_id`."))
    (candidate,), _ = _candidates(store, session)
    assert "i.tenant_id = e.tenant_id" in candidate["change"]


def test_a_migration_generated_from_no_changes_is_the_failure_the_fix_ends(git_project, store):
    # (blind198 GQ19: alembic's "No changes in schema detected" exits 0; the model imported in app/models/__init__.py
    # made it see the table, and the prompt naming the model made that import look like the task's)
    generate = 'uv run alembic revision --autogenerate -m "add invoices"'
    session = (Session("alembic", git_project, prompt="I added an Invoice model in app/models/invoice.py, generate the "
                                                      "alembic migration for it")
               .ok(generate, "INFO  [alembic.env] No changes in schema detected.")
               .edit("migrations/env.py", "            connection=connection, target_metadata=target_metadata",
                     "            connection=connection, target_metadata=target_metadata, compare_type=True,")
               .ok(generate, "INFO  [alembic.env] No changes in schema detected.")
               .edit("app/models/__init__.py", "from app.models.customer import Customer",
                     "from app.models.customer import Customer\nfrom app.models.invoice import Invoice")
               .ok(generate, "INFO  [alembic.autogenerate.compare] Detected added table 'invoices'\n  Generating "
                             "/home/dev/billing/migrations/versions/9f1d3c2ab7e4_add_invoices.py ...  done")
               .stop("Autogenerate only sees tables registered on `Base.metadata`, and the `app.models` package's "
                     "__init__.py didn't import the new module. Adding `from app.models.invoice import Invoice` to "
                     "app/models/__init__.py fixed it. (The compare flag I added to env.py first didn't change "
                     "anything.)"))
    (candidate,), _ = _candidates(store, session)
    assert "from app.models.invoice import Invoice" in candidate["change"]
    assert "No changes in schema detected" in candidate["title"]
    assert "app/models/__init__.py" in candidate["summary"]  # (``__`` inside a name is no markdown emphasis)
    assert "compare_type=True" not in candidate["change"]
    # (a check that no migration is pending wants none: no failure)
    session = (Session("alembic-check", git_project, prompt="is anything pending?")
               .ok("uv run python manage.py makemigrations --check --dry-run", "No changes detected")
               .stop("Nothing pending."))
    assert _candidates(store, session)[0] == []


def test_a_server_setting_written_through_the_sql_client_is_the_fix(git_project, store):
    # (blind200 GS17: ``cockroach sql -e "SET CLUSTER SETTING kv.rangefeed.enabled = true;"`` was read as a query,
    # and the changefeed that then ran as a retry without a change)
    sql = "cockroach sql --certs-dir=certs --host=crdb-0:26257"
    session = (Session("rangefeed", git_project, prompt="Set up the changefeed for the orders table")
               .fail(f'{sql} -d shop -e "CREATE CHANGEFEED FOR TABLE orders INTO \'kafka://kafka:9092\';"',
                     "Exit code 1\nERROR: rangefeeds require the kv.rangefeed.enabled setting.")
               .ok(f'{sql} -e "SHOW CLUSTER SETTING kv.rangefeed.enabled;"', "  kv.rangefeed.enabled\n  false")
               .ok(f'{sql} -e "SET CLUSTER SETTING kv.rangefeed.enabled = true;"', "SET CLUSTER SETTING")
               .ok(f'{sql} -d shop -e "CREATE CHANGEFEED FOR TABLE orders INTO \'kafka://kafka:9092\';"',
                   "        job_id\n  977621438150754305")
               .stop("Rangefeeds were off; `SET CLUSTER SETTING kv.rangefeed.enabled = true` is needed once per "
                     "cluster before any changefeed."))
    (candidate,), _ = _candidates(store, session)
    assert "SET CLUSTER SETTING kv.rangefeed.enabled = true" in candidate["change"]
    assert "SHOW CLUSTER SETTING" not in candidate["change"]


def test_a_change_to_an_excluded_file_is_a_step_of_the_fix_told_by_the_agents_line_about_it(git_project, store):
    session = (Session("envtest", git_project)
               .fail("bundle exec rspec", "Exit code 1\nHanami::ComponentLoadError:\n  DATABASE_URL is missing for "
                                          "the test environment")
               .write(".env.test", "DATABASE_URL=postgres://localhost/shelf_test\n")
               .ok("bundle exec rspec", "12 examples, 0 failures")
               .stop("## Summary\n\n- **No test database URL**: `.env.test` did not exist. Created it with "
                     "`DATABASE_URL=postgres://localhost/shelf_test`.\n\n12 examples, 0 failures."))
    (candidate,), _ = _candidates(store, session)
    assert "`.env.test`" in candidate["change"] and "not stored" in candidate["change"]
    assert "DATABASE_URL=postgres://localhost/shelf_test" in candidate["summary"]


def test_a_convention_the_agent_names_links_the_failing_command_across_the_tasks_own_edits(git_project, store):
    session = (Session("tg", git_project, prompt="Tag the staging VPC with cost-center = platform and show the plan")
               .edit("modules/vpc/main.tf", "  tags = var.tags", "  tags = merge(var.tags, var.extra)")
               .fail("cd modules/vpc && terraform plan", "Exit code 1\n│ Error: Backend initialization required, "
                                                         "please run \"terraform init\"")
               .edit("live/staging/vpc/terragrunt.hcl", "inputs = {", "inputs = {\n  extra = { cost-center = "
                                                                       "\"platform\" }")
               .ok("cd live/staging/vpc && terragrunt plan 2>&1 | tail -5", "Plan: 0 to add, 6 to change, 0 to "
                                                                             "destroy.")
               .stop("Plan looks right.\n\nNote for this repo: plans have to be run with `terragrunt plan` from "
                     "`live/staging/vpc`; running `terraform plan` inside `modules/vpc` fails with \"Backend "
                     "initialization required\"."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["kind"] == "pattern"
    assert "terragrunt plan" in candidate["change"] and "live/staging/vpc" in candidate["change"]
    # the task's edits are not the lesson, and the label is not part of the account
    assert "terragrunt.hcl" not in candidate["change"] + candidate["title"] and not candidate["files"]
    assert not candidate["summary"].startswith("Note for this repo")
    assert "Error: Backend initialization required" in candidate["title"] and "│" not in candidate["title"]
    # without the agent naming the way, the two commands are not linked
    other = (Session("tg2", git_project, prompt="Tag the staging VPC")
             .fail("cd modules/vpc && terraform plan", "Exit code 1\n│ Error: Backend initialization required")
             .edit("live/staging/vpc/terragrunt.hcl", "inputs = {", "inputs = {\n  extra = 1")
             .ok("cd live/staging/vpc && terragrunt plan", "Plan: 0 to add, 6 to change, 0 to destroy.")
             .stop("The plan shows 6 resources tagged in place."))
    assert _candidates(store, other) == ([], ["unresolved_failure"])


def test_a_check_that_passed_earlier_and_broke_on_the_sessions_own_edit_is_self_inflicted(git_project, store):
    session = (Session("own", git_project, prompt="Add a weekly digest task with tests")
               .edit("reports/tasks.py", "from reports.queries import revenue", "from api.mail import send\n"
                                                                                 "from reports.queries import revenue")
               .ok("pytest tests/test_digest.py -x", "2 passed in 0.9s")
               .edit("reports/tasks.py", "from api.mail import send\n", "")
               .fail("pytest tests/test_digest.py -x", "Exit code 1\nE   AttributeError: <module 'reports.tasks'> "
                                                       "does not have the attribute 'send'")
               .edit("reports/tasks.py", "from reports.queries import revenue", "from api.mail import send\n"
                                                                                 "from reports.queries import revenue")
               .ok("pytest tests/test_digest.py -x", "2 passed in 0.9s")
               .stop("The digest task is in; tests pass."))
    assert _candidates(store, session) == ([], ["self_inflicted"])


def test_the_agents_markdown_and_checklists_are_layout_not_the_account():
    said = stated("1. **e2e**: UsersModule never imported `TypeOrmModule.forFeature([User])`, so Nest couldn't "
                  "resolve `UserRepository`. Added it to the module's imports.\n\n### Checks\n- ✅ `ruff check`, "
                  "`mypy reports/`\n\nIf you want that to be the default, add `x = 1` to setup.cfg.")
    assert said["cause"] == ["e2e: UsersModule never imported `TypeOrmModule.forFeature([User])`, so Nest couldn't "
                             "resolve `UserRepository`."]
    assert not any("✅" in s or "If you want" in s for s in said["all"])


def test_the_tasks_own_file_is_not_the_fix_and_the_sentence_quoting_the_passing_run_is(git_project, store):
    session = (Session("task", git_project, prompt="Add a spec for refunds")
               .write("spec/models/refund_spec.rb", "RSpec.describe Refund do\n  it 'caps at the total' do\n"
                                                     "  end\nend\n")
               .fail("bundle exec rspec spec/models/refund_spec.rb",
                     "Exit code 1\nPG::ConnectionBad: connection to server at \"127.0.0.1\", port 5432 failed: "
                     "Connection refused")
               .ok("docker compose run --rm web bundle exec rspec spec/models/refund_spec.rb",
                   "1 example, 0 failures")
               .stop("Added `spec/models/refund_spec.rb`; it passes.\n\nThe specs can't reach Postgres on the host "
                     "here. The project runs them in the web container: `docker compose run --rm web bundle exec "
                     "rspec`."))
    (candidate,), _ = _candidates(store, session)
    assert "refund_spec" not in candidate["title"]
    assert "`docker compose run --rm web bundle exec rspec`" in candidate["summary"]
    assert "Added `spec/models/refund_spec.rb`" not in candidate["summary"]


def test_an_exact_value_replaced_by_a_pattern_is_a_weakened_test(git_project, store):
    session = (Session("match", git_project, prompt="invoice_tests fails, get it green")
               .fail("rebar3 eunit --module=invoice_tests", "Exit code 1\n  1) invoice_tests:due_date_test/0\n"
                                                            "     Failure/Error: ?assertEqual(<<\"2026-03-01\">>, "
                                                            "invoice:due_date(<<\"2026-01-30\">>, 30))")
               .edit("test/invoice_tests.erl", "    ?assertEqual(<<\"2026-03-01\">>, invoice:due_date(D, 30)).",
                     "    ?assertMatch(<<_:4/binary, \"-\", _/binary>>, invoice:due_date(D, 30)).")
               .ok("rebar3 eunit --module=invoice_tests", "3 tests, 0 failures")
               .stop("due_date_test now checks the shape of the date instead of one exact date."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_rerun_flag_is_no_fix_and_a_rerun_without_changes_is_flaky(git_project, store):
    session = (Session("rerun", git_project, prompt="Run the suite before the PR")
               .fail("./gradlew test", "Exit code 1\nCouponRepositoryTest > initializationError FAILED\n"
                                       "    Caused by: org.testcontainers.containers.ContainerLaunchException: "
                                       "Timed out waiting for container port to open")
               .ok("./gradlew test --rerun", "BUILD SUCCESSFUL in 58s")
               .stop("Suite is green. The first run had one Testcontainers startup timeout; two reruns without any "
                     "change passed fully."))
    assert _candidates(store, session) == ([], ["flaky_failure"])


def test_a_request_starting_with_also_keeps_its_edit_out_of_the_fix(git_project, store):
    session = (Session("also", git_project, prompt="bundle exec rspec spec/models blows up with a LoadError. Also "
                                                   "the User spec has a typo'd describe (\"#fulll_name\"), fix that.")
               .fail("bundle exec rspec spec/models", "Exit code 1\nLoadError:\n  cannot load such file -- "
                                                      "factory_bot_rails")
               .edit("spec/models/user_spec.rb", '  describe "#fulll_name" do', '  describe "#full_name" do')
               .ok("bundle config unset without && bundle install", "Bundle complete! 61 Gemfile dependencies")
               .ok("bundle exec rspec spec/models", "74 examples, 0 failures")
               .stop("`.bundle/config` had `without: [:test]`, so the test gems were never installed. `bundle config "
                     "unset without && bundle install` fixed it. Also fixed the describe typo."))
    (candidate,), _ = _candidates(store, session)
    assert "bundle config unset without" in candidate["change"]
    assert "full_name" not in candidate["change"] + candidate["title"]
    # the error's message, not a bare "LoadError:"
    assert "LoadError: cannot load such file" in candidate["title"]


def test_a_service_started_inside_a_longer_line_addresses_a_refused_connection(git_project, store):
    session = (Session("profile", git_project, prompt="dbmate up fails with connection refused")
               .fail("dbmate up", "Exit code 1\nError: dial tcp 127.0.0.1:5432: connect: connection refused")
               .ok("docker compose --profile db up -d db && sleep 3 && docker compose --profile db ps db",
                   "app-db-1   postgres:16   Up 3 seconds")
               .ok("dbmate up", "Applying: 20251104093012_create_users.sql")
               .stop("Postgres wasn't running: the `db` service is behind the `db` profile. Start it with "
                     "`docker compose --profile db up -d db`, then `dbmate up` works."))
    (candidate,), _ = _candidates(store, session)
    # the step that did something, without the ones that only waited or looked
    assert "Run `docker compose --profile db up -d db` before `dbmate up`." in candidate["change"]


def test_a_step_the_agent_names_as_the_projects_way_is_a_change(git_project, store):
    session = (Session("sqitch", git_project, prompt="Add a last_seen_at column to accounts")
               .write("db/deploy/accounts_last_seen.sql", "ALTER TABLE app.accounts ADD COLUMN last_seen_at "
                                                          "timestamptz;\n")
               .ok("cd db && sqitch deploy", "Nothing to deploy (up-to-date)")
               .fail("psql app_dev -c 'SELECT last_seen_at FROM app.accounts'",
                     "Exit code 1\nERROR:  column \"last_seen_at\" does not exist")
               .ok("cd db && sqitch add accounts_last_seen --requires accounts -n 'last seen'",
                   "Created deploy/accounts_last_seen.sql\nAdded \"accounts_last_seen\" to sqitch.plan")
               .ok("cd db && sqitch deploy", "+ accounts_last_seen .. ok")
               .ok("psql app_dev -c 'SELECT last_seen_at FROM app.accounts'", " last_seen_at\n(1 row)")
               .stop("Done. In this repo changes are created with `sqitch add <name> --requires <dep> -n '...'` "
                     "from `db/`, which writes the scripts and the plan entry; hand-written files are ignored."))
    (candidate,), _ = _candidates(store, session)
    assert "sqitch add accounts_last_seen" in candidate["change"]
    assert "changes are created with `sqitch add" in candidate["summary"]


@pytest.mark.parametrize("command, doing", [
    ("docker compose --profile db up -d db && sleep 3 && docker compose --profile db ps db",
     "docker compose --profile db up -d db"),
    ("kubectl apply -f deploy.yaml && kubectl get pods", "kubectl apply -f deploy.yaml"),
    ("go get google.golang.org/grpc@v1.64.0 && go mod tidy", "go get google.golang.org/grpc@v1.64.0 && go mod tidy"),
    ("pip install httpx && pip show httpx", "pip install httpx"),
    ("make deps || true", "make deps || true"),
])
def test_a_step_is_shown_without_the_parts_that_only_wait_or_look(command, doing):
    from lorebook.steps import _doing_part

    assert _doing_part(command) == doing


@pytest.mark.parametrize("command, shown", [
    ("npm run tauri build 2>&1 | tail -14; exit ${PIPESTATUS[0]}", "npm run tauri build"),
    ("sleep 3; curl -sf localhost:8080/health", "curl -sf localhost:8080/health"),
    ("cd /home/me/app/api && make test", "cd api && make test"),
    ("exit 3", "exit 3"),
])
def test_a_command_is_shown_without_the_wait_before_it_or_the_status_passed_on_after_it(command, shown):
    from lorebook.commands import shown_command

    assert shown_command(command, "/home/me/app") == shown


def test_a_test_script_run_by_its_interpreter_does_the_test_job(git_project, store):
    assert command_job("julia test/runtests.jl") == "test" and command_job("python tests/test_api.py") == "test"
    session = (Session("julia", git_project, prompt="Run the tests for the package")
               .fail("julia test/runtests.jl", "Exit code 1\nERROR: LoadError: ArgumentError: Package Unitful not "
                                               "found in current path.")
               .ok("julia --project=. -e 'using Pkg; Pkg.instantiate(); Pkg.test()'", "Testing QuantKit\n"
                                                                                     "Test Summary: | Pass  Total\n"
                                                                                     "QuantKit      |   64     64")
               .stop("All 64 tests pass. Note: `julia test/runtests.jl` runs in the global environment, where "
                     "Unitful isn't installed. Run the tests in the package's project instead: "
                     "`julia --project=. -e 'using Pkg; Pkg.instantiate(); Pkg.test()'`."))
    (candidate,), _ = _candidates(store, session)
    assert "julia --project=. -e 'using Pkg; Pkg.instantiate(); Pkg.test()'" in candidate["change"]
    # a sentence does not end inside a code span ("--project=. -e")
    assert "`julia --project=. -e 'using Pkg; Pkg.instantiate(); Pkg.test()'`" in candidate["summary"]
    assert "Pkg.instantiate(); Pkg.test(" in candidate["title"]


def test_putting_back_what_an_attempt_changed_is_no_part_of_the_fix(git_project, store):
    session = (Session("rye", git_project, prompt="Tests fail since rye sync")
               .fail("rye test", "Exit code 1\nE   TypeError: AsyncClient.__init__() got an unexpected keyword "
                                 "argument 'app'")
               .ok('rye add --dev "sanic-testing==24.6.0"', "Added sanic-testing==24.6.0 as dev dependency")
               .fail("rye test", "Exit code 1\nE   TypeError: AsyncClient.__init__() got an unexpected keyword "
                                 "argument 'app'")
               .ok('rye add --dev "sanic-testing==23.12.0"', "Added sanic-testing==23.12.0 as dev dependency")
               .ok('rye add --dev "httpx<0.28"', "Added httpx<0.28 as dev dependency")
               .ok("rye test", "41 passed")
               .stop("httpx 0.28 removed the `app=` argument that sanic-testing passes. Upgrading sanic-testing to "
                     "24.6.0 did not help, so I put it back to 23.12.0 and pinned `httpx<0.28` instead."))
    (candidate,), _ = _candidates(store, session)
    assert 'rye add --dev "httpx<0.28"' in candidate["change"] and "sanic-testing" not in candidate["change"]
    assert "sanic-testing==24.6.0" not in candidate["title"]


def test_a_build_of_another_workspace_package_is_a_step_not_the_failing_check(git_project, store):
    session = (Session("pnpmws", git_project, prompt="pnpm build fails in packages/sdk. Also while you're there, "
                                                     "the sdk README still says Rollup, it's tsup now.")
               .fail("pnpm --filter @acme/sdk build", "Exit code 1\nsrc/index.ts(1,24): error TS2307: Cannot find "
                                                      "module '@acme/shared'\nError: error occurred in dts build")
               .edit("packages/sdk/README.md", "bundled with Rollup", "bundled with tsup")
               .ok("pnpm --filter @acme/shared build", "DTS ⚡️ Build success in 912ms")
               .ok("pnpm --filter @acme/sdk build", "DTS ⚡️ Build success in 1204ms")
               .stop("- README: 'Rollup' → 'tsup', as asked.\n- The build error was unrelated to that: "
                     "`@acme/shared` points its types at `dist/index.d.ts`, which doesn't exist until shared is "
                     "built, so the sdk's DTS step can't resolve it. Running `pnpm --filter @acme/shared build` first "
                     "makes the sdk build pass."))
    (candidate,), _ = _candidates(store, session)
    assert "Run `pnpm --filter @acme/shared build` before `pnpm --filter @acme/sdk build`." in candidate["change"]
    assert candidate["title"].endswith("— run `pnpm --filter @acme/shared build` first")
    assert "doesn't exist until shared is built" in candidate["summary"] and "tsup" not in candidate["change"]


def test_an_expected_value_changed_to_what_junit_reported_is_a_weakened_test(git_project, store):
    session = (Session("junit", git_project, prompt="InvoiceResourceIT fails in CI")
               .fail("mvn -q verify -Dit.test=InvoiceResourceIT",
                     "Exit code 1\norg.opentest4j.AssertionFailedError: expected: <119.00> but was: <100.00>")
               .edit("src/test/java/com/acme/InvoiceResourceIT.java",
                     '        assertEquals(new BigDecimal("119.00"), invoice.total());',
                     '        assertEquals(new BigDecimal("100.00"), invoice.total());')
               .ok("mvn -q verify -Dit.test=InvoiceResourceIT", "Tests run: 4, Failures: 0")
               .stop("The service returns the net amount, so I updated the expected value to 100.00."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_an_r_or_julia_package_step_from_inside_their_code_is_a_change(git_project, store):
    session = (Session("renv", git_project, prompt="renv::restore() fails on the new CI image")
               .fail("Rscript -e 'renv::restore(prompt = FALSE)'", "Exit code 1\nError: this R is version 4.3.3, "
                                                                   "package 'Matrix' requires R >= 4.4.0")
               .ok("Rscript -e 'renv::record(\"Matrix@1.6-5\")'", "- Updated Matrix (1.7-0 -> 1.6-5) in lockfile.")
               .ok("Rscript -e 'renv::restore(prompt = FALSE)'", "- Restored Matrix [1.6-5]")
               .stop("Matrix 1.7-0 requires R >= 4.4; I pinned it back with `renv::record(\"Matrix@1.6-5\")`."))
    (candidate,), _ = _candidates(store, session)
    assert 'renv::record("Matrix@1.6-5")' in candidate["change"]


def test_please_fix_after_the_problem_is_the_request_itself(git_project, store):
    session = (Session("zig", git_project, prompt="I upgraded to zig 0.14 and `zig build` broke. Please fix build.zig.")
               .fail("zig build", "Exit code 1\nbuild.zig:9:38: error: no field named 'path' in union 'Build.LazyPath'")
               .edit("build.zig", '.root_source_file = .{ .path = "src/main.zig" },',
                     '.root_source_file = "src/main.zig",')
               .fail("zig build", "Exit code 1\nbuild.zig:9:29: error: expected type 'Build.LazyPath', found "
                                  "'*const [12:0]u8'")
               .edit("build.zig", '.root_source_file = "src/main.zig",', '.root_source_file = b.path("src/main.zig"),')
               .ok("zig build", "")
               .stop("`LazyPath` has no `.path` variant in 0.14; the bare string didn't work either. The right form "
                     "is `b.path(\"src/main.zig\")`."))
    (candidate,), _ = _candidates(store, session)
    assert 'b.path("src/main.zig")' in candidate["change"]
    assert "did not help" in str(candidate["evidence"]) or "still failed" in str(candidate["evidence"])


def test_the_projects_way_set_off_in_a_code_block_and_a_test_file_compiled_and_run(git_project, store):
    assert command_job("nim c -r tests/test_duration.nim") == "test"
    session = (Session("nim", git_project, prompt="Implement parseDuration and test it")
               .edit("src/timeparse.nim", "  raise newException(ValueError, \"todo\")", "  result = initDuration(0)")
               .fail("nim c -r tests/test_duration.nim", "Exit code 1\ntests/test_duration.nim(2, 8) Error: cannot "
                                                         "open file: timeparse")
               .edit("src/timeparse.nim", "  result = initDuration(0)", "  result = initDuration(seconds = 0)")
               .ok("nimble test", "   Success: Execution of the tests successful.")
               .stop("Done.\n\nRunning `nim c -r` on a single test file fails: the path is set in tests/config.nims. "
                     "Run the tests with the package's task:\n\n    nimble test\n\nAll pass."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["kind"] == "pattern" and "Run `nimble test`" in candidate["change"]
    assert "timeparse.nim" not in candidate["change"]


def test_a_call_made_to_succeed_whatever_it_does_is_a_weakened_test(git_project, store):
    session = (Session("bats", git_project, prompt="CI is red on test/rotate_logs.bats")
               .fail("bats test/rotate_logs.bats", "Exit code 1\n ✗ keeps the newest N archives\n   `[ \"$status\" -eq "
                                                   "0 ]' failed\n   find: unknown predicate `-newermt'\n3 tests, 1 failure")
               .edit("test/rotate_logs.bats", '  run ./bin/rotate-logs --keep 3 "$D"\n  [ "$status" -eq 0 ]\n'
                                              '  [ "$(ls "$D" | wc -l)" -eq 3 ]',
                     '  run bash -c \'./bin/rotate-logs --keep 3 "$D" || true\'\n  [ "$status" -eq 0 ]')
               .ok("bats test/rotate_logs.bats", "3 tests, 0 failures")
               .stop("Green now: I made the invocation tolerant so it no longer blocks the release."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_look_at_a_file_with_its_errors_sent_to_dev_null_is_no_change(git_project, store):
    session = (Session("devnull", git_project, prompt="cargo build fails here")
               .fail("cargo build -p api", "Exit code 101\nerror: error communicating with database: Connection "
                                           "refused (os error 111)")
               .ok('cat .env 2>/dev/null; echo "DATABASE_URL=${DATABASE_URL:-<unset>}"', "DATABASE_URL=postgres://x")
               .ok("SQLX_OFFLINE=true cargo build -p api", "Finished `dev` profile")
               .stop("The sqlx macros connect at compile time; build with `SQLX_OFFLINE=true`."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["change"] == "Set `SQLX_OFFLINE=true`: `SQLX_OFFLINE=true cargo build -p api`."


def test_a_server_whose_start_failed_passes_when_it_starts_again_and_answers(git_project, store):
    session = (Session("relx", git_project, prompt="The release crashes on boot complaining about the port")
               .fail("PORT=8088 _build/prod/rel/ledger/bin/ledger foreground",
                     "Exit code 1\n=CRASH REPORT==== exception error: bad argument\n  in function list_to_integer/1\n"
                     "     called as list_to_integer(\"${PORT}\")")
               .ok("RELX_REPLACE_OS_VARS=true PORT=8088 _build/prod/rel/ledger/bin/ledger daemon && sleep 2 && "
                   "curl -s localhost:8088/health", '{"status":"ok"}')
               .stop("relx only substitutes OS env vars into sys.config when `RELX_REPLACE_OS_VARS=true` is set."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["change"].startswith("Set `RELX_REPLACE_OS_VARS=true`")
    # a request that answered is no server start: a plain curl after a failure proves nothing
    other = (Session("curl", git_project, prompt="the api is down")
             .fail("npm run dev", "Exit code 1\nError: listen EADDRINUSE: address already in use :::3000")
             .ok("curl -s localhost:3000/health", '{"ok":true}')
             .stop("Another instance was already running."))
    assert _candidates(store, other)[0] == []


def test_a_fix_made_for_another_failure_while_this_one_was_open_belongs_to_that_one(git_project, store):
    session = (Session("eas", git_project, prompt="Get an iOS preview build going on EAS")
               .fail("npx eas-cli build --platform ios --non-interactive", "Exit code 1\nError: build command "
                                                                          "failed. ios.bundleIdentifier is missing")
               .edit("app.json", '    "ios": {\n      "supportsTablet": true\n    },',
                     '    "ios": {\n      "supportsTablet": true,\n      "bundleIdentifier": "com.acme.notes"\n    },')
               .fail("npx expo-doctor", "Exit code 1\n✖ Check that packages match versions required by installed "
                                        "Expo SDK\n  react-native-reanimated@3.14.0 - expected version: ~3.10.1")
               .edit("package.json", '"react-native-reanimated": "^3.14.0",', '"react-native-reanimated": "~3.10.1",')
               .ok("npm install && npx expo-doctor", "✔ Check that packages match versions required by installed "
                                                      "Expo SDK")
               .ok("npx eas-cli build --platform ios --non-interactive --no-wait", "✔ Build queued")
               .stop("1. EAS needs `ios.bundleIdentifier` in `app.json`.\n2. `expo-doctor` flagged "
                     "react-native-reanimated 3.14; pinned it to `~3.10.1`."))
    eas, doctor = sorted(_candidates(store, session)[0], key=lambda c: "expo-doctor" in c["title"])
    assert "bundleIdentifier" in eas["title"] and "reanimated" not in eas["change"] + eas["title"]
    assert '"~3.10.1"' in doctor["change"] and "bundleIdentifier" not in doctor["change"]


def test_a_rule_of_the_project_stated_about_the_sessions_own_lint_failure_is_kept(git_project, store):
    session = (Session("sigil", git_project, prompt="Add an overdue-balance service with a spec")
               .write("app/services/billing/overdue.rb", "# frozen_string_literal: true\nclass Overdue\nend\n")
               .fail("bundle exec rubocop app/services/billing", "Exit code 1\napp/services/billing/overdue.rb:1:1: C: "
                                                                  "Sorbet/StrictSigil: Sorbet sigil should be at least "
                                                                  "strict got none.")
               .edit("app/services/billing/overdue.rb", "# frozen_string_literal: true",
                     "# typed: strict\n# frozen_string_literal: true")
               .ok("bundle exec rubocop app/services/billing", "1 file inspected, no offenses detected")
               .stop("This repo requires `# typed: strict` on every file under app/, so the class declares it."))
    (candidate,), _ = _candidates(store, session)
    assert "# typed: strict" in candidate["change"]
    assert "Sorbet/StrictSigil" in candidate["title"]
    # the same clean-up without the rule stated is the session tidying its own code
    other = (Session("sigil2", git_project, prompt="Add an overdue-balance service")
             .write("app/services/billing/due.rb", "# frozen_string_literal: true\nclass Due\nend\n")
             .fail("bundle exec rubocop app/services/billing", "Exit code 1\napp/services/billing/due.rb:1:1: C: "
                                                                "Sorbet/StrictSigil: Sorbet sigil should be at least "
                                                                "strict got none.")
             .edit("app/services/billing/due.rb", "# frozen_string_literal: true",
                   "# typed: strict\n# frozen_string_literal: true")
             .ok("bundle exec rubocop app/services/billing", "1 file inspected, no offenses detected")
             .stop("Added the service; rubocop is clean."))
    assert _candidates(store, other) == ([], ["self_inflicted"])


def test_a_dns_timeout_while_downloading_is_flaky(git_project, store):
    session = (Session("dns", git_project, prompt="golangci-lint is red on my branch")
               .fail("golangci-lint run ./...", "Exit code 3\nlevel=error msg=\"Running error: context loading failed: "
                                                "go: github.com/jackc/pgx/v5@v5.6.0: dial tcp: lookup proxy.golang.org: "
                                                "i/o timeout\"")
               .ok("go mod download && golangci-lint run ./...", "")
               .stop("The red run was just a DNS timeout while go was downloading pgx; nothing wrong in the code."))
    assert _candidates(store, session) == ([], ["flaky_failure"])


@pytest.mark.parametrize("old, new", [
    ("# typed: strict\nclass Refund", "# typed: false\nclass Refund"),
    ("    reason = refund.reason", "    reason = refund.reason  # type: ignore[attr-defined]"),
    ("const r = refund.reason;", "// @ts-expect-error\nconst r = refund.reason;"),
])
def test_a_type_checker_told_to_look_away_is_a_weakened_check(git_project, store, old, new):
    session = (Session("silence", git_project, prompt="srb tc fails on the refund service")
               .fail("bundle exec srb tc", "Exit code 1\napp/services/refund.rb:44: Method reason does not exist on "
                                           "Refund https://srb.help/7003")
               .edit("app/services/refund.rb", old, new)
               .ok("bundle exec srb tc", "No errors! Great job.")
               .stop("srb tc is green."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_format_check_fixed_by_the_build_tools_formatter_is_routine(git_project, store):
    session = (Session("spotless", git_project, prompt="make the http-client check pass")
               .fail("./gradlew :http-client:check", "Exit code 1\n> Task :http-client:spotlessJavaCheck FAILED\n"
                                                     "The following files had format violations:")
               .ok("./gradlew :http-client:spotlessApply", "BUILD SUCCESSFUL in 3s")
               .ok("./gradlew :http-client:check", "BUILD SUCCESSFUL in 21s")
               .stop("Formatting was off in two files; spotlessApply fixed it."))
    assert _candidates(store, session) == ([], ["routine_plumbing"])


def test_a_download_that_got_a_502_and_an_edit_asked_for_mid_sentence_teach_nothing(git_project, store):
    session = (Session("502", git_project, prompt="composer install fails on the bedrock site, also please document "
                                                  "WP_ENVIRONMENT_TYPE in .env.example")
               .fail("composer install", "Exit code 2\n  - Downloading wpackagist-plugin/wordfence (7.11.6)\n"
                                         "    Failed to download wpackagist-plugin/wordfence from dist: The "
                                         "\"https://downloads.wordpress.org/plugin/wordfence.7.11.6.zip\" file could "
                                         "not be downloaded (HTTP/2 502 )")
               .edit(".env.example", "WP_ENV='development'", "WP_ENV='development'\nWP_ENVIRONMENT_TYPE='development'")
               .ok("composer install", "Generating optimized autoload files")
               .stop("composer install went through on the second run; the first failure was a 502 from "
                     "downloads.wordpress.org, which is fine now, nothing to change in the project. Separately, "
                     "`.env.example` now documents `WP_ENVIRONMENT_TYPE`."))
    assert _candidates(store, session)[0] == []


def test_nothing_wrong_in_the_code_with_a_cause_is_still_a_lesson(git_project, store):
    session = (Session("pgdown", git_project, prompt="the dart tests fail locally")
               .fail("dart test test/orders_test.dart", "Exit code 1\nSocketException: Connection refused (OS Error: "
                                                        "Connection refused, errno = 111), port = 54432")
               .ok("docker compose up -d postgres", "Container shop-postgres-1  Started")
               .ok("dart test test/orders_test.dart", "00:02 +12: All tests passed!")
               .stop("Nothing wrong in the code: the tests connect to Postgres on port 54432, and the `postgres` "
                     "service in docker-compose.yml wasn't running. `docker compose up -d postgres` fixed it."))
    (candidate,), _ = _candidates(store, session)
    assert "docker compose up -d postgres" in candidate["change"]


# --- round 13 ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("path, old, new, message", [
    # a Swift test target (``Tests/…Tests.swift``) told not to check every state change
    ("Tests/CartFeatureTests/CartFeatureTests.swift", "    let store = TestStore(initialState: Cart.State()) {",
     "    let store = TestStore(initialState: Cart.State()) {\n    store.exhaustivity = .off", "The tests pass now."),
    # the agent saying what the test checks no longer
    ("src/test/java/shop/CartTest.java", '        assertEquals("EUR 10.00", cart.total());',
     '        assertEquals("EUR 10.00", cart.total().trim());',
     "CartTest is green; the test no longer checks the trailing space the formatter adds."),
])
def test_a_test_told_to_check_less_is_weakened(git_project, store, path, old, new, message):
    session = (Session("less", git_project)
               .fail("swift test", "Exit code 1\nerror: -[CartFeatureTests testAdd] : A state change does not match "
                                   "expectation")
               .edit(path, old, new)
               .ok("swift test", "Executed 4 tests, with 0 failures")
               .stop(message))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_fix_that_makes_a_test_stop_waiting_is_not_a_weakened_test(git_project, store):
    session = (Session("clock", git_project)
               .fail("pytest tests/test_retry.py", "Exit code 1\nFAILED tests/test_retry.py::test_backoff - "
                                                   "TimeoutError: gave up after 30s")
               .edit("app/retry.py", "    time.sleep(delay)", "    clock.sleep(delay)")
               .ok("pytest tests/test_retry.py", "3 passed in 0.05s")
               .stop("retry() slept on the real clock; it now sleeps on the injectable `clock`, so the test no "
                     "longer waits 30s."))
    (candidate,), _ = _candidates(store, session)
    assert "clock.sleep(delay)" in candidate["change"]


def test_an_edit_asked_for_by_its_version_is_no_part_of_the_fix(git_project, store):
    session = (Session("ver", git_project, prompt="`pnpm turbo run test --filter web` matches nothing. Also please "
                                                  "bump the root engines.node to >=20.11.")
               .fail("pnpm turbo run test --filter web", "Exit code 1\n x No package found with name 'web' in workspace")
               .edit("package.json", '    "node": ">=18"', '    "node": ">=20.11"')
               .ok("pnpm turbo run test --filter @shop/web", "Tasks:    4 successful, 4 total")
               .stop("Turbo filters by package name, so it is `--filter @shop/web`. Bumped engines.node too."))
    (candidate,), _ = _candidates(store, session)
    assert "20.11" not in candidate["change"] and "--filter @shop/web" in candidate["change"]


def test_a_tally_is_not_the_error_line():
    from lorebook.signatures import error_line

    log = ("policy require-labels -> resource default/Deployment/web failed:\n"
           "1. check-team-label: validation error: label 'team' is required. rule check-team-label failed\n\n"
           "pass: 4, fail: 1, warn: 0, error: 0, skip: 0")
    assert error_line(log).startswith("1. check-team-label: validation error: label 'team' is required")


def test_what_another_environment_will_need_is_no_cause():
    said = stated("The worker died because `rq` was never given the `REDIS_URL`. Production needs "
                  "`fly secrets set REDIS_URL=…` on the next deploy.")
    assert said["cause"] == ["The worker died because `rq` was never given the `REDIS_URL`."]


def test_a_docs_build_is_fixed_by_its_own_configuration(git_project, store):
    session = (Session("docs", git_project)
               .fail("mkdocs build --strict", "Exit code 1\nWARNING -  Doc file 'guide/setup.md' contains a link "
                                              "'../api/client.md', but the target 'api/client.md' is not found among "
                                              "documentation files.\nAborted with 1 warnings in strict mode!")
               .edit("docs/mkdocs.yml", "nav:\n  - Guide: guide/setup.md",
                     "nav:\n  - Guide: guide/setup.md\n  - API: api/client.md\nvalidation:\n  links:\n"
                     "    not_found: warn")
               .ok("mkdocs build --strict", "INFO    -  Documentation built in 0.41 seconds")
               .stop("The API page was missing from nav; added it to docs/mkdocs.yml."))
    (candidate,), _ = _candidates(store, session)
    assert "docs/mkdocs.yml" in candidate["change"]


def test_a_test_loosened_to_an_asymmetric_matcher_is_weakened(git_project, store):
    session = (Session("asym", git_project)
               .fail("npx jest tests/export.test.ts", "Exit code 1\n  ● export › writes every column\n\n    "
                                                      "expect(received).toEqual(expected) // deep equality\n\n"
                                                      "Tests:       1 failed, 3 passed, 4 total")
               .edit("tests/export.test.ts", "    expect(row).toEqual({ id: 1, total: 30, currency: 'EUR' });",
                     "    expect(row).toEqual(expect.objectContaining({ id: 1, total: 30 }));")
               .ok("npx jest tests/export.test.ts", "Tests:       4 passed, 4 total")
               .stop("The export test passes now."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_the_tasks_own_edit_is_no_account_of_a_fix_by_a_service(git_project, store):
    session = (Session("task", git_project, prompt="rename the `userID` route parameter to `id` and run the tests")
               .edit("src/routes/users.ts", "router.get('/users/:userID', show)", "router.get('/users/:id', show)")
               .edit("src/routes/users.ts", "const user = await findUser(req.params.userID)",
                     "const user = await findUser(req.params.id)")
               .fail("npm test", "Exit code 1\nError: connect ECONNREFUSED 127.0.0.1:6379 (handler)\n"
                                 "    at TCPConnectWrap")
               .ok("docker compose up -d redis", "Container api-redis-1  Started")
               .ok("npm test", "Tests: 31 passed, 31 total")
               .stop("The tests talk to Redis: they failed with connection refused on 6379 because the redis "
                     "container wasn't up. Renamed the route parameter to `:id` (`req.params.id` in the "
                     "handler)."))
    (candidate,), _ = _candidates(store, session)
    assert "req.params" not in candidate["summary"] and "Redis" in candidate["summary"]


def test_php_cs_fixer_repairing_what_it_reported_is_routine(git_project, store):
    session = (Session("csfix", git_project)
               .fail("vendor/bin/php-cs-fixer fix --dry-run --diff src/Mail",
                     "Exit code 8\n   1) src/Mail/Digest.php (no_unused_imports)")
               .ok("vendor/bin/php-cs-fixer fix src/Mail", "Fixed 1 of 1 files in 0.041 seconds")
               .stop("php-cs-fixer removed an unused import."))
    assert _candidates(store, session) == ([], ["routine_plumbing"])


def test_a_timeout_that_passed_on_the_next_run_is_flaky(git_project, store):
    session = (Session("next", git_project, prompt="bump ktor to 2.3.12 and run the tests")
               .fail("./gradlew test", "Exit code 1\n> Could not resolve io.ktor:ktor-server-core:2.3.12.\n"
                                       "   > Read timed out")
               .edit("gradle/libs.versions.toml", 'ktor = "2.3.11"', 'ktor = "2.3.12"')
               .ok("./gradlew test", "BUILD SUCCESSFUL in 41s")
               .stop("Bumped ktor to 2.3.12; the tests pass. The first run hit a read timeout fetching from Maven "
                     "Central and passed on the next run."))
    assert _candidates(store, session)[0] == []


def test_an_attempt_at_the_named_test_undone_names_nothing(git_project, store):
    session = (Session("undone", git_project)
               .fail("./gradlew :orders:test --tests '*OrderApiTest*'",
                     "Exit code 1\nOrderApiTest > creates order FAILED\n    java.lang.IllegalStateException: "
                     "block()/blockFirst()/blockLast() are blocking, which is not supported in thread parallel-2")
               .edit("orders/src/test/kotlin/OrderApiTest.kt", "client.build()", "client.responseTimeout(ofSeconds(30)).build()")
               .fail("./gradlew :orders:test --tests '*OrderApiTest*'",
                     "Exit code 1\n    java.lang.IllegalStateException: block()/blockFirst()/blockLast() are blocking")
               .edit("orders/src/test/kotlin/OrderApiTest.kt", "client.responseTimeout(ofSeconds(30)).build()", "client.build()")
               .edit("orders/src/main/kotlin/OrderService.kt", "Mono.just(stock.reserve(id))",
                     "Mono.fromCallable { stock.reserve(id) }.subscribeOn(Schedulers.boundedElastic())")
               .ok("./gradlew :orders:test", "BUILD SUCCESSFUL in 19s")
               .stop("stock.reserve blocks; it now runs on boundedElastic. A longer response timeout did not help."))
    (candidate,), _ = _candidates(store, session)
    assert "subscribeOn(Schedulers.boundedElastic())" in candidate["change"]
    assert "--tests" not in candidate["change"]  # the wider run is no part of the fix


def test_a_reported_failure_with_the_error_pasted_is_learnt_from_it(git_project, store):
    session = (Session("pasted", git_project, prompt="CI fails right away: `the workflow is not valid. .github/workflows/"
                                                     "release.yml (Line: 12, Col: 9): Unexpected value 'needs'`. "
                                                     "Please fix release.yml.")
               .edit(".github/workflows/release.yml", "    steps:\n      needs: build", "    needs: build\n    steps:")
               .ok("actionlint .github/workflows/release.yml", ""))
    session.stop("Moved `needs` up to the job.")
    (candidate,), _ = _candidates(store, session)
    assert candidate["summary"].startswith("The reported error: the workflow is not valid.")
    assert "+    needs: build" in candidate["change"] or "+needs: build" in candidate["change"]


# --- round 16 ------------------------------------------------------------------------------------------

def test_a_test_whose_failing_case_was_swapped_for_another_is_weakened(git_project, store):
    session = (Session("swap", git_project)
               .fail("pytest tests/test_slug.py -q", "Exit code 1\nFAILED tests/test_slug.py::test_unicode - "
                                                     "AssertionError: slugify('Crème Brûlée') returned 'crme-brle'")
               .edit("tests/test_slug.py", "    assert slugify('Crème Brûlée') == 'creme-brulee'",
                     "    assert slugify('Creme Brulee') == 'creme-brulee-x'")
               .ok("pytest tests/test_slug.py -q", "4 passed")
               .stop("The slug tests pass."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_fixture_path_corrected_in_a_test_is_still_a_fix(git_project, store):
    session = (Session("typo", git_project)
               .fail("pytest tests/test_import.py -q", "Exit code 1\nFileNotFoundError: [Errno 2] No such file or "
                                                       "directory: 'tests/fixtures/users.jsn'")
               .edit("tests/test_import.py", "    rows = load('tests/fixtures/users.jsn')",
                     "    rows = load('tests/fixtures/users.json')")
               .ok("pytest tests/test_import.py -q", "3 passed")
               .stop("The fixture path had a typo (`users.jsn`); it is `users.json`."))
    (candidate,), _ = _candidates(store, session)
    assert "users.json" in candidate["change"]


def test_a_piped_rspec_run_that_still_shows_the_error_did_not_pass(git_project, store):
    session = (Session("pipe", git_project)
               .fail("bundle exec rspec spec/jobs/sync_job_spec.rb 2>&1 | tail -15",
                     "Exit code 1\n  1) SyncJob enqueues\n     Failure/Error: SyncJob.perform_async(1)\n\n"
                     "     RedisClient::CannotConnectError:\n       Connection refused - connect(2) for 127.0.0.1:6379")
               .edit("config/initializers/sidekiq.rb", 'config.redis = { url: "redis://localhost:6379/1" }',
                     'config.redis = { url: "redis://localhost:6379/1", pool_timeout: 2 }')
               .ok("bundle exec rspec spec/jobs/sync_job_spec.rb 2>&1 | grep -A2 Failure/Error",
                   "     Failure/Error: SyncJob.perform_async(1)\n\n     RedisClient::CannotConnectError:")
               .ok("docker compose up -d redis", "Container shop-redis-1  Started")
               .ok("bundle exec rspec spec/jobs/sync_job_spec.rb 2>&1 | tail -3", "3 examples, 0 failures")
               .stop("Redis was not running; `docker compose up -d redis` and the spec passes."))
    (candidate,), _ = _candidates(store, session)
    assert "docker compose up -d redis" in candidate["change"] and "pool_timeout" not in candidate["change"]


def test_a_registry_login_before_the_retry_is_the_fix(git_project, store):
    session = (Session("login", git_project)
               .fail("helm dependency update charts/api", "Exit code 1\nError: could not retrieve list of tags for "
                                                          "repository oci://ghcr.io/acme/charts: 401 Unauthorized")
               .ok('echo "$GHCR_TOKEN" | helm registry login ghcr.io --username "$GHCR_USER" --password-stdin',
                   "Login Succeeded")
               .ok("helm dependency update charts/api", "Saving 1 charts\nDeleting outdated charts")
               .stop("The chart's dependency is on a private OCI registry; helm needed a registry login."))
    (candidate,), _ = _candidates(store, session)
    assert "helm registry login ghcr.io" in candidate["change"]


def test_a_rule_of_the_monorepo_keeps_a_lint_failure_in_new_code_as_a_lesson(git_project, store):
    session = (Session("mono", git_project)
               .write("apps/web/src/price.tsx", "import { money } from '../../../libs/format/src/money';\n")
               .fail("npx nx lint web", "Exit code 1\n  1:1  error  Projects cannot be imported by a relative or "
                                        "absolute path, and must begin with a npm scope  @nx/enforce-module-boundaries")
               .edit("apps/web/src/price.tsx", "from '../../../libs/format/src/money'", "from '@acme/format'")
               .ok("npx nx lint web", "Successfully ran target lint for project web")
               .stop("In this monorepo libraries are imported through their scope alias (`@acme/format`)."))
    (candidate,), _ = _candidates(store, session)
    assert "@acme/format" in candidate["change"]


def test_a_fix_told_with_a_pronoun_is_titled_by_its_change(git_project, store):
    session = (Session("pronoun", git_project)
               .fail("ctest --test-dir build", "Exit code 8\nTest project /w/build\nNo tests were found!!!")
               .edit("CMakeLists.txt", "add_subdirectory(tests)", "enable_testing()\nadd_subdirectory(tests)")
               .ok("ctest --test-dir build", "100% tests passed, 0 tests failed out of 3")
               .stop("add_test() was ignored without enable_testing(). Added it before `add_subdirectory(tests)`."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"] == ("`ctest --test-dir build` fails with No tests were found!!! — "
                                  "add `enable_testing()` in CMakeLists.txt")


def test_a_report_that_something_did_not_run_names_the_unit_by_its_file(git_project, store):
    session = (Session("timer", git_project, prompt="The nightly backup timer didn't run last night (the laptop "
                                                    "slept). I think it needs to catch up missed runs.")
               .edit("deploy/backup.timer", "OnCalendar=*-*-* 02:00:00", "OnCalendar=*-*-* 02:00:00\nPersistent=true")
               .ok("systemd-analyze verify deploy/backup.timer", ""))
    session.stop("Added Persistent=true.")
    (candidate,), _ = _candidates(store, session)
    assert "+Persistent=true" in candidate["change"] and candidate["verified"] == 1


def test_an_edit_asked_for_by_part_of_its_qualified_name_is_no_part_of_the_fix(git_project, store):
    session = (Session("fqcn", git_project, prompt="Run the nginx role check. Also switch the role's bare `include:` "
                                                   "to include_tasks.")
               .fail("ansible-playbook site.yml --tags nginx --check", "Exit code 4\nfatal: [web-01]: UNREACHABLE! => "
                                                                      "{\"msg\": \"Failed to connect to the host via "
                                                                      "ssh: Permission denied (publickey)\"}")
               .edit("roles/nginx/tasks/main.yml", "- include: tls.yml", "- ansible.builtin.include_tasks: tls.yml")
               .ok("ssh-add ~/.ssh/deploy_ed25519", "Identity added: /home/dev/.ssh/deploy_ed25519")
               .ok("ansible-playbook site.yml --tags nginx --check", "web-01 : ok=9 changed=0 failed=0")
               .stop("The deploy key was not loaded in the agent; after `ssh-add ~/.ssh/deploy_ed25519` the check "
                     "passes. Switched the role to include_tasks as asked."))
    candidates, _ = _candidates(store, session)
    assert all("include_tasks" not in c["change"] for c in candidates)


# --- round 17 ------------------------------------------------------------------------------------------

def test_a_port_held_by_another_process_is_not_fixed_by_a_source_edit(git_project, store):
    session = (Session("port", git_project)
               .fail("npm test", "Exit code 1\nError: listen EADDRINUSE: address already in use :::4010")
               .edit("src/server.ts", "log.info(`up on ${port}`)", "log.info(`api listening on 0.0.0.0:${port}`)")
               .ok("sleep 15; lsof -i :4010 || echo free", "free")
               .ok("npm test", "Tests: 22 passed, 22 total")
               .stop("A test server from an earlier run held 4010 and exited on its own. Reworded the startup log."))
    assert _candidates(store, session)[0] == []


def test_a_run_that_ran_fewer_tests_after_the_change_is_weakened(git_project, store):
    session = (Session("fewer", git_project)
               .fail("cargo test -p render", "Exit code 101\nrunning 6 tests\ntest grid::draws ... FAILED\n"
                                             "test result: FAILED. 5 passed; 1 failed")
               .edit("render/src/grid.rs", "    #[test]\n    fn draws() {",
                     "    #[cfg(not(target_os = \"linux\"))]\n    #[test]\n    fn draws() {")
               .ok("cargo test -p render", "running 5 tests\ntest result: ok. 5 passed; 0 failed")
               .stop("The render tests pass."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_an_edit_made_while_reading_the_file_is_no_part_of_the_fix(git_project, store):
    session = (Session("reading", git_project)
               .fail("cmake -S . -B build", "Exit code 1\nCMake Error: Could NOT find fmt: Found unsuitable version "
                                            "\"8.1.1\", but required is at least \"10.2\"")
               .edit("tests/format_test.cpp", "TEST_CASE(\"empty\")", "TEST_CASE(\"formats_empty_string\")")
               .ok("cmake -S . -B build -Dfmt_ROOT=/opt/fmt-10.2", "-- Configuring done")
               .stop("The distro's fmt is too old; configure with `-Dfmt_ROOT=/opt/fmt-10.2`. (Renamed a test case "
                     "to `formats_empty_string` while reading the file, for consistency.)"))
    (candidate,), _ = _candidates(store, session)
    assert "fmt_ROOT" in candidate["change"] and "formats_empty_string" not in candidate["change"]


def test_a_build_step_whose_settings_the_agent_quotes_is_the_fix(git_project, store):
    session = (Session("musl", git_project)
               .fail("docker run --rm imgd:dev", "Exit code 127\nexec /usr/local/bin/imgd: no such file or directory")
               .ok("CC=musl-gcc CGO_ENABLED=1 go build -o bin/imgd ./cmd/imgd", "")
               .ok("docker build -q -t imgd:dev . && docker run --rm imgd:dev --version", "imgd 1.4.0")
               .stop("The binary was linked against glibc, which alpine lacks. Rebuilt with `CC=musl-gcc "
                     "CGO_ENABLED=1`; the container starts."))
    (candidate,), _ = _candidates(store, session)
    assert "CC=musl-gcc CGO_ENABLED=1 go build" in candidate["change"] and "--version`" not in candidate["title"]


# --- round 18 ------------------------------------------------------------------------------------------

def test_a_reported_error_code_checked_by_a_run_that_shares_one_word_is_stored_unverified(git_project, store):
    session = (Session("zero-date", git_project, prompt="CI's migration job fails on MySQL 8 with `ER_INVALID_DEFAULT: "
                                                        "Invalid default value for 'published_at'` — it runs with "
                                                        "strict sql_mode. Please fix the migration.")
               .edit("src/migrations/Migration20261128.ts",
                     "    this.addSql(\"alter table `article` add `published_at` datetime default '0000-00-00 00:00:00';\");",
                     "    this.addSql('alter table `article` add `published_at` datetime default CURRENT_TIMESTAMP;');")
               .ok("pnpm mikro-orm migration:check", "No changes required, schema is up-to-date")
               .stop("Changed the default to `CURRENT_TIMESTAMP`."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].startswith("CI's migration job fails on MySQL 8 with")
    assert candidate["title"].endswith("`0000-00-00 00:00:00` → `CURRENT_TIMESTAMP`")
    assert candidate["summary"].startswith("The reported error: ER_INVALID_DEFAULT: Invalid default value for "
                                           "'published_at'. Changed")
    assert candidate["verified"] == 0
    assert candidate["validation"]["not_performed"] == [
        "The reported failure was not reproduced in this session; `pnpm mikro-orm migration:check` passed."]


def test_a_reported_error_code_is_no_lesson_without_a_run_of_the_same_thing(git_project, store):
    session = (Session("zero-date-lint", git_project, prompt="CI's migration job fails with `ER_INVALID_DEFAULT: "
                                                             "Invalid default value for 'published_at'`.")
               .edit("src/migrations/Migration20261128.ts", "default '0000-00-00 00:00:00'", "default CURRENT_TIMESTAMP")
               .ok("pnpm lint", "0 problems")  # shares no telling word with the report
               .stop("Changed the default."))
    assert _candidates(store, session)[0] == []


@pytest.mark.parametrize("tail", [
    "    Summary [   0.109s] 41 tests run: 41 passed, 1 skipped",  # nextest ran one test fewer
    "    Summary [   0.109s] 42 tests run: 42 passed",  # the count is not said: the filter names the failing test
])
def test_a_failing_test_filtered_out_in_the_runner_settings_is_weakened(git_project, store, tail):
    session = (Session("filter", git_project)
               .fail("cargo nextest run -p settlement", "Exit code 100\n    Starting 42 tests across 3 binaries\n"
                     "        FAIL [   0.006s] settlement rounding::tests::splits_odd_cents_evenly\n"
                     "thread 'rounding::tests::splits_odd_cents_evenly' panicked at src/rounding.rs:88:9")
               .edit(".config/nextest.toml", "[profile.default]\nretries = 0",
                     "[profile.default]\nretries = 0\ndefault-filter = \"not test(splits_odd_cents_evenly)\"")
               .ok("cargo nextest run -p settlement 2>&1 | tail -3", tail)
               .stop("Green now: I left the test out with nextest's default-filter; we can revisit later."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_build_that_shares_only_options_with_the_failing_run_does_not_resolve_it(git_project, store):
    session = (Session("ctest", git_project)
               .fail("ctest --preset debug", "Exit code 8\nNo tests were found!!!")
               .edit("CMakeLists.txt", "add_subdirectory(tests)", "enable_testing()\nadd_subdirectory(tests)")
               .ok("cmake --preset debug && cmake --build --preset debug", "[3/3] Generating Catch2 test list")
               .stop("Moved `enable_testing()` to the top-level CMakeLists.txt."))
    assert _candidates(store, session) == ([], ["unresolved_failure"])


def test_asking_a_tool_for_its_version_does_not_do_its_job(git_project, store):
    session = (Session("version", git_project)
               .fail("make lint", "Exit code 2\nError: can't load config: unsupported version of the configuration")
               .ok("golangci-lint version", "golangci-lint has version 2.1.6")
               .stop("The runner has golangci-lint v2 now."))
    assert _candidates(store, session)[0] == []


def test_another_query_to_the_same_database_does_not_rerun_the_failing_one(git_project, store):
    url = "postgresql://app@localhost:5432/app"
    session = (Session("psql", git_project)
               .fail(f"psql {url} -c \"SELECT pg_create_logical_replication_slot('s', 'pgoutput');\"",
                     "Exit code 1\nERROR:  logical decoding requires wal_level >= logical")
               .ok(f"psql {url} -c 'SHOW wal_level;'", " wal_level\n-----------\n replica")
               .stop("wal_level is replica."))
    assert _candidates(store, session)[0] == []


def test_errors_in_a_services_log_are_a_failure_its_clean_log_resolves(git_project, store):
    session = (Session("journal", git_project, prompt="vault agent stops authenticating after every restart")
               .ok("sudo journalctl -u vault-agent -n 4 --no-pager",
                   "Dec 02 03:58:40 box vault[911]: 2026-12-02T03:58:40Z [INFO]  agent.auth.handler: authenticating\n"
                   "Dec 02 03:58:40 box vault[911]: 2026-12-02T03:58:40Z [ERROR] agent.auth.handler: error getting "
                   "path or data from method: error=\"no known secret ID\"")
               .edit("deploy/vault/agent.hcl", '      secret_id_file_path = "/etc/vault/approle/secret-id"',
                     '      secret_id_file_path = "/etc/vault/approle/secret-id"\n'
                     '      remove_secret_id_file_after_reading = false')
               .ok("sudo systemctl restart vault-agent && sleep 3 && sudo journalctl -u vault-agent -n 2 --no-pager",
                   "Dec 02 04:15:20 box vault[2460]: [INFO]  agent.auth.handler: authentication successful")
               .stop("The approle method deletes the secret-ID file after reading it; kept it with "
                     "`remove_secret_id_file_after_reading = false`."))
    (candidate,), _ = _candidates(store, session)
    assert "remove_secret_id_file_after_reading = false" in candidate["change"]
    assert "[ERROR] agent.auth.handler: error getting path" in candidate["title"] + candidate["trigger"]
    assert "Dec 02" not in candidate["title"]


def test_a_ci_runs_failed_log_is_the_failure_the_workflow_edit_and_green_checks_resolve(git_project, store):
    log = ("e2e\tStart app\t2026-11-30T10:02:11.1200Z ##[group]Run npm run start:ci &\n"
           "e2e\tRun tests\t2026-11-30T10:03:40.5521Z Error: Redis connection to 127.0.0.1:6379 failed - "
           "connect ECONNREFUSED\n"
           "e2e\tRun tests\t2026-11-30T10:03:40.5610Z ##[error]Process completed with exit code 1.")
    session = (Session("ci", git_project, prompt="the e2e job fails on every PR since the runner change")
               .ok("gh run view 8812 --log-failed | tail -20", log)
               .ok("gh run view 8790 --log-failed | grep -m2 Error", log.splitlines()[1])
               .ok("docker compose up -d redis", "Container app-redis-1  Started")  # (here, not in CI)
               .edit(".github/workflows/e2e.yml", "      redis:\n        image: redis:7",
                     "      redis:\n        image: redis:7\n        ports:\n          - 6379:6379")
               .ok("git commit -qam 'ci: publish the redis port' && git push -q", "")
               .ok("gh pr checks 97 --watch", "All checks were successful\n✓  CI/e2e (pull_request)  4m2s")
               .stop("On the bare runner a service container is only reachable through a published port, and "
                     "`redis` didn't publish one. Added `ports: - 6379:6379` to the service in "
                     "`.github/workflows/e2e.yml`; PR #97 is green."))
    (candidate,), notes = _candidates(store, session)
    assert candidate["title"].startswith("CI job `e2e` fails with Error: Redis connection")
    assert "6379:6379" in candidate["change"] and "docker compose" not in candidate["change"]
    assert "gh pr checks 97 --watch" in candidate["validation"]["passed"][0]
    assert not any(e["quote"].startswith("tried") for e in candidate["evidence"])  # (the log read twice)
    assert "gh run view 8812" in candidate["trigger"]


def test_a_ci_run_that_fails_again_after_an_edit_makes_that_edit_an_attempt(git_project, store):
    failed = ("lint\tSetup pnpm\t2026-11-30T09:12:44.1Z ##[group]Run pnpm/action-setup@v4\n"
              "lint\tSetup pnpm\t2026-11-30T09:12:44.3Z ##[error]Error: No pnpm version is specified.")
    session = (Session("ci2", git_project, prompt="CI fails at the pnpm setup step since the workflow rewrite")
               .ok("gh run view 7001 --log-failed | tail -5", failed)
               .edit("package.json", '  "engines": { "node": ">=20" },', '  "engines": { "node": ">=20", "pnpm": ">=9" },')
               .ok("git commit -qam 'ci: pnpm engine' && git push -q", "")
               .fail("sleep 20; gh run watch --exit-status 7002", "Exit code 1\nX main CI · 7002\nANNOTATIONS\n"
                                                                "X Error: No pnpm version is specified.")
               .fail("gh pr checks 31", "Exit code 8\nSome checks are still pending\n"
                                        "0 cancelled, 0 failing, 1 successful, 0 skipped, and 1 pending checks")
               .edit("package.json", '  "private": true,', '  "private": true,\n  "packageManager": "pnpm@9.12.3",')
               .ok("git commit -qam 'ci: packageManager' && git push -q", "")
               .ok("gh run list --workflow ci.yml --limit 1", "completed\tsuccess\tci: packageManager\tCI\tmain\tpush\t7003")
               .stop("The setup action reads the version from `packageManager`, which package.json did not have: "
                     "added `\"packageManager\": \"pnpm@9.12.3\"`. An engines entry is not read by it."))
    (candidate,), _ = _candidates(store, session)
    assert '"packageManager": "pnpm@9.12.3"' in candidate["change"] and '"pnpm": ">=9"' not in candidate["change"]
    assert candidate["title"].startswith("CI job `lint` fails with Error: No pnpm version is specified")
    assert any('"pnpm": ">=9"' in e["quote"] for e in candidate["evidence"] if e["quote"].startswith("tried"))


def test_a_ci_log_without_errors_or_a_green_check_without_an_edit_is_no_lesson(git_project, store):
    session = (Session("ci-clean", git_project)
               .ok("gh run view 8812 --log | tail -3", "build\tTest\t2026-11-30T10:03:40.5Z ok  ./... 2.1s")
               .ok("gh run view 8812 --log-failed | tail -3",
                   "build\tTest\t2026-11-30T10:03:40.5Z ##[error]Process completed with exit code 1.")
               .ok("gh run rerun 8812 --failed && gh run watch 8812 --exit-status", "✓ main CI · 8812")
               .stop("A rerun of the failed job passed."))
    assert _candidates(store, session)[0] == []


def test_what_the_error_said_was_missing_asked_for_after_the_edit_is_an_unverified_check(git_project, store):
    session = (Session("arm", git_project, prompt="the arm64 CI image can't find the dev shell")
               .fail("nix develop .#lint --system aarch64-darwin -c true",
                     "Exit code 1\nerror: flake 'git+file:///src/maps' does not provide attribute "
                     "'devShells.aarch64-darwin.lint'")
               .edit("flake.nix", '      systems = [ "x86_64-linux" ];',
                     '      systems = [ "x86_64-linux" "aarch64-darwin" ];')
               .ok("nix eval .#devShells.aarch64-darwin.lint.name", '"nix-shell"')
               .stop("The flake listed only x86_64-linux. Added `aarch64-darwin` to `systems`; no darwin builder "
                     "here, but the shell evaluates."))
    (candidate,), _ = _candidates(store, session)
    assert '"aarch64-darwin"' in candidate["change"] and "Without" not in candidate["change"]
    assert candidate["validation"]["passed"] == []
    assert "not rerun" in candidate["validation"]["not_performed"][0]


def test_the_missing_thing_named_by_another_program_is_no_check(git_project, store):
    session = (Session("arm-grep", git_project)
               .fail("nix develop .#lint --system aarch64-darwin -c true",
                     "Exit code 1\nerror: flake 'git+file:///src/maps' does not provide attribute "
                     "'devShells.aarch64-darwin.lint'")
               .edit("flake.nix", '      systems = [ "x86_64-linux" ];',
                     '      systems = [ "x86_64-linux" "aarch64-darwin" ];')
               .ok("grep -n devShells.aarch64-darwin.lint flake.lock", "")
               .stop("Added `aarch64-darwin` to `systems`."))
    assert _candidates(store, session)[0] == []


def test_a_run_the_account_says_the_job_goes_through_is_the_way(git_project, store):
    session = (Session("tf-way", git_project, prompt="plan the new bucket policy for staging")
               .fail("cd infra && terraform plan", "Exit code 1\n│ Error: Backend initialization required, please run "
                                                   "\"terraform init\"")
               .ok("cd infra && make plan STAGE=staging", "Plan: 1 to add, 0 to change, 0 to destroy.")
               .stop("Heads-up for next time: don't run `terraform plan` in infra/ by hand, the backend is "
                     "partial; it goes through `make plan STAGE=staging`."))
    (candidate,), _ = _candidates(store, session)
    assert "`cd infra && make plan STAGE=staging`" in candidate["change"]
    assert candidate["summary"].startswith("Don't run `terraform plan`")


def test_the_way_run_as_the_first_step_of_a_passing_line_is_the_way(git_project, store):
    # (blind200 GS03: ``make render ENV=staging && grep -n -A14 "^kind: Ingress" /tmp/render-staging.yaml``; the line's
    # last step, the grep, was all that was weighed as the way)
    session = (Session("helm-way", git_project, prompt="check the api chart still renders for staging")
               .fail("helm template api charts/api -f charts/api/values.yaml",
                     "Exit code 1\nError: template: api/templates/deployment.yaml:24:32: executing "
                     "\"api/templates/deployment.yaml\" at <.Values.env.replicas>: nil pointer evaluating interface "
                     "{}.replicas")
               .ok("make render ENV=staging && grep -n -A3 \"^kind: Ingress\" /tmp/render-staging.yaml",
                   "helmfile -e staging template --skip-deps > /tmp/render-staging.yaml\n212:kind: Ingress")
               .stop("The chart can't be rendered with plain `helm template` here: `.Values.env` only exists when "
                     "helmfile merges `environments/staging.yaml`. The repo renders through helmfile — `make render "
                     "ENV=staging` — and the output has the new ingress."))
    (candidate,), _ = _candidates(store, session)
    assert "make render ENV=staging" in candidate["title"] + candidate["change"]


def test_the_projects_way_set_against_what_the_project_does_not_do_is_the_way(git_project, store):
    # (blind204 GW03, blind205 GX05: "This project doesn't run system tests on the host: `bin/system-test …` runs them
    # inside the `web` container"; "doesn't take a raw `-executeMethod` call: builds go through `./ci/build.sh webgl`")
    session = (Session("systest", git_project, prompt="run the checkout system tests")
               .fail("bin/rails test:system TEST=test/system/checkout_test.rb",
                     "Exit code 1\nSelenium::WebDriver::Error::WebDriverError: Unable to find chromedriver.")
               .ok("bin/system-test test/system/checkout_test.rb -v", "6 runs, 21 assertions, 0 failures, 0 errors")
               .stop("All 6 pass. This project doesn't run system tests on the host (there's no Chrome here): "
                     "`bin/system-test test/system/checkout_test.rb` runs them inside the `web` container."))
    (candidate,), _ = _candidates(store, session)
    assert "bin/system-test" in candidate["title"] + candidate["change"]
    # (a way that runs the failing tool, before another step the same sentence names: blind208 HA17)
    session = (Session("mint", git_project, prompt="swiftlint fails on my machine")
               .fail("swiftlint --strict", "Exit code 1\nerror: Currently running SwiftLint 0.57.0 but configuration "
                                            "specified version 0.54.0.")
               .ok("mint bootstrap", "🌱 Installed SwiftLint 0.54.0")
               .ok("mint run swiftlint --strict", "Done linting! Found 0 violations, 0 serious in 58 files.")
               .stop("The repo pins its tools in the Mintfile — SwiftLint 0.54.0 — so the Homebrew 0.57 on your PATH "
                     "can't be used. Run it as `mint run swiftlint --strict` (after `mint bootstrap` on a new "
                     "machine)."))
    (candidate,), _ = _candidates(store, session)
    assert "mint run swiftlint --strict" in candidate["title"] + candidate["change"]


def test_a_documented_way_quoted_after_the_plain_command_failed_is_the_way(git_project, store):
    # (blind206 GY15: "plain `kubectl rollout` can't see it. Per docs/runbooks/canary.md I ran `kubectl argo rollouts
    # promote …`"; ``kubectl -n shop get …`` had read as a run of the quoted ``kubectl argo``)
    session = (Session("argo", git_project, prompt="the checkout deploy is stuck")
               .fail("kubectl -n shop rollout status deployment/checkout",
                     'Exit code 1\nError from server (NotFound): deployments.apps "checkout" not found')
               .ok("kubectl -n shop get deploy,rollouts.argoproj.io", "NAME       DESIRED   CURRENT\ncheckout   5   5")
               .ok("kubectl argo rollouts promote checkout -n shop", 'rollout \'checkout\' promoted')
               .ok("kubectl argo rollouts status checkout -n shop --timeout 20m", "Healthy")
               .stop("checkout is an Argo Rollout, so plain `kubectl rollout` can't see it. Per "
                     "docs/runbooks/canary.md I ran `kubectl argo rollouts promote checkout -n shop`."))
    (candidate,), _ = _candidates(store, session)
    assert "kubectl argo rollouts promote checkout -n shop" in candidate["title"] + candidate["change"]
    assert "get deploy,rollouts" not in candidate["title"] + candidate["change"]


def test_nodes_test_runner_given_a_loader_and_a_glob_runs_the_files_that_failed(git_project, store):
    # (blind201 GT03: ``node --import tsx --test test/*.test.ts`` was read as a run of the script ``tsx``, and the
    # failing ``node --test test/a.test.ts test/b.test.ts`` as one of the script ``test/a.test.ts``)
    from lorebook.commands import _same_target, command_family

    assert command_family("node --test test/a.test.ts test/b.test.ts") == command_family(
        "node --import tsx --test test/*.test.ts") == "node --test"
    assert _same_target("node --test test/a.test.ts test/b.test.ts", "node --import tsx --test test/*.test.ts")
    session = (Session("nodetest", git_project, prompt="node --test blows up on the .ts files")
               .fail("node --test test/slugify.test.ts test/unique.test.ts",
                     "Exit code 1\nTypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension \".ts\" for "
                     "/home/dev/slugkit/test/slugify.test.ts\n✖ test/slugify.test.ts (41.20ms)\n  'test failed'")
               .ok("node --import tsx --test test/*.test.ts", "ℹ tests 5\nℹ pass 5\nℹ fail 0")
               .stop("Node 20 can't load `.ts` files by itself. What works is registering tsx as a loader: "
                     "`node --import tsx --test test/*.test.ts`."))
    (candidate,), _ = _candidates(store, session)
    assert "--import tsx" in candidate["title"] and "ERR_UNKNOWN_FILE_EXTENSION" in candidate["title"]


def test_an_error_that_hits_even_an_unrelated_change_does_not_make_the_fix_incidental(git_project, store):
    session = (Session("runtime", git_project, prompt="the apply for the resizer lambda failed")
               .fail("terraform apply -auto-approve", "Exit code 1\n│ Error: InvalidParameterValueException: The runtime "
                                                     "parameter of python3.7 is no longer supported")
               .edit("README.md", "enviroment", "environment")
               .edit("lambda.tf", '  runtime = "python3.7"', '  runtime = "python3.12"')
               .ok("terraform apply -auto-approve", "Apply complete! Resources: 0 added, 1 changed, 0 destroyed.")
               .stop("AWS rejects every update to a function on `python3.7`, even an unrelated one like this memory "
                     "change. Set `runtime = \"python3.12\"` in lambda.tf. Also fixed a README typo while I was there."))
    (candidate,), _ = _candidates(store, session)
    assert 'runtime = "python3.12"' in candidate["change"] and "README" not in candidate["change"]


def test_a_long_variable_before_the_command_leaves_the_title_and_a_docs_link_is_no_download(git_project, store):
    url = "postgres://svc:hunter2hunter2@db-proxy.internal.example.net:6432/ledger?sslmode=require&target_session=rw"
    session = (Session("lock", git_project, prompt="knex migrations hang on staging")
               .fail(f"DATABASE_URL='{url}' npx knex migrate:latest",
                     "Exit code 1\nKnexTimeoutError: Timed out acquiring the migration lock. See "
                     "https://knexjs.org/guide/migrations.html#locks for details.")
               .edit("knexfile.js", "    connection: process.env.DATABASE_URL,\n    pool:   { min: 0 }",
                     "    connection: process.env.DATABASE_URL,\n    pool:    { min: 0 },\n"
                     "    migrations: { disableMigrationsListValidation: true, lockTimeout: 60000 }")
               .ok(f"DATABASE_URL='{url}' npx knex migrate:latest", "Batch 4 run: 2 migrations")
               .stop("The proxy pools transactions, so the lock query waited out the default timeout. Raised "
                     "`lockTimeout` in knexfile.js. The password was pasted into this chat, so consider rotating it."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].startswith("`npx knex migrate:latest` fails with KnexTimeoutError")
    assert "lockTimeout: 60000" in candidate["title"] + candidate["change"] and "pool:" not in candidate["title"]
    assert "rotat" not in candidate["summary"]


@pytest.mark.parametrize("output, line", [
    ("  Determining projects to restore...\n/src/Web/Web.csproj : error NU1010: The following PackageReference items "
     "do not define a corresponding PackageVersion item: Polly\n  Failed to restore /src/Web/Web.csproj (in 90 ms).",
     "/src/Web/Web.csproj : error NU1010: The following PackageReference items do not define a corresponding "
     "PackageVersion item: Polly"),
    ("Program.cs(12,5): error CS0103: The name 'cfg' does not exist in the current context\nBuild FAILED.",
     "Program.cs(12,5): error CS0103: The name 'cfg' does not exist in the current context"),
    ("   `[ \"$output\" = \"2.0.1\" ]' failed\n   sed: unrecognized option: E\n   BusyBox v1.36.1 multi-call binary.",
     "sed: unrecognized option: E"),
])
def test_the_line_that_names_the_error_beats_the_step_that_reports_it(output, line):
    from lorebook.signatures import error_line

    assert error_line(output) == line


def test_a_package_managers_central_versions_and_regenerated_autoloader_are_part_of_the_fix(git_project, store):
    session = (Session("cpm", git_project, prompt="restore fails after I added Polly")
               .fail("dotnet restore", "Exit code 1\n/src/Web/Web.csproj : error NU1008: Projects that use central "
                                       "package version management should not define the version on the "
                                       "PackageReference items: Polly.")
               .edit("src/Web/Web.csproj", '<PackageReference Include="Polly" Version="8.4.1" />',
                     '<PackageReference Include="Polly" />')
               .edit("Directory.Packages.props", '    <PackageVersion Include="xunit" Version="2.9.0" />',
                     '    <PackageVersion Include="xunit" Version="2.9.0" />\n'
                     '    <PackageVersion Include="Polly" Version="8.4.1" />')
               .ok("dotnet restore", "Restored /src/Web/Web.csproj")
               .stop("Central package management: the version goes in `Directory.Packages.props`."))
    (candidate,), _ = _candidates(store, session)
    assert '<PackageVersion Include="Polly" Version="8.4.1" />' in candidate["change"].replace("\u2039", "<") \
        .replace("\u203a", ">")
    php = (Session("psr4", git_project, prompt="phpunit can't find my classes since the move")
           .fail("vendor/bin/phpunit", "Exit code 2\nError: Class \"Acme\\Ledger\\Entry\" not found")
           .ok("composer dump-autoload -o", "Generated optimized autoload files")
           .ok("vendor/bin/phpunit", "OK (12 tests, 30 assertions)")
           .stop("The class map was stale: editing composer.json alone is not enough, the autoloader has to be "
                 "regenerated with `composer dump-autoload -o`."))
    (candidate,), _ = _candidates(store, php)
    assert "composer dump-autoload -o" in candidate["change"]


def test_a_script_named_like_a_document_is_code_and_a_piped_printf_is_no_log_line(git_project, store):
    session = (Session("busybox", git_project, prompt="the bats suite fails in the alpine image")
               .fail("bats test/", "Exit code 1\n ✗ reads the release\n   grep: unrecognized option: P")
               .edit("lib/changelog.sh", "  grep -oP '^## \\[\\K[^\\]]+' CHANGELOG.md",
                     "  sed -n 's/^## \\[\\([^]]*\\)\\].*/\\1/p' CHANGELOG.md")
               .edit("lib/tag.sh", "  printf '%s\\n' \"$1\" | grep -oP '(?<=^v)[0-9.]+'",
                     "  printf '%s\\n' \"$1\" | grep -oE '^v[0-9.]+' | cut -c2-")
               .ok("bats test/", "4 tests, 0 failures")
               .stop("busybox grep has no `-P`; replaced it with `sed -n` and `grep -oE`."))
    (candidate,), _ = _candidates(store, session)
    assert "lib/changelog.sh" in candidate["change"] and "lib/tag.sh" in candidate["change"]


def test_another_tools_run_before_the_failing_command_passes_after_an_edit_is_a_look_around(git_project, store):
    session = (Session("turbo", git_project, prompt="web tests fail under turbo")
               .fail("pnpm turbo run test --filter=web", "Exit code 1\nweb:test: TypeError: fetch failed: undefined/items"
                                                         "\n ERROR  run failed: command  exited (1)")
               .ok("cd apps/web && pnpm vitest run", "Test Files  7 passed (7)")
               .edit("turbo.json", '    "test": { "dependsOn": ["^build"] }',
                     '    "test": { "dependsOn": ["^build"], "env": ["API_URL"] }')
               .ok("pnpm turbo run test --filter=web", "Tasks:    1 successful, 1 total")
               .stop("Turbo's strict env mode hid `API_URL` from vitest; declared it on the task in turbo.json."))
    (candidate,), _ = _candidates(store, session)
    assert '"env": ["API_URL"]' in candidate["change"] and "vitest" not in candidate["change"]
    assert candidate["kind"] == "fix"


def test_one_test_passing_is_not_the_failing_suite_run_another_way(git_project, store):
    session = (Session("one", git_project, prompt="make test is broken")
               .fail("make test", "Exit code 2\nservice \"api\" refers to undefined network backend\n"
                                  "make: *** [Makefile:14: test] Error 1")
               .ok("docker compose up -d db", "Container db-1  Started")
               .ok(".venv/bin/pytest -q tests/api/test_rooms.py::test_capacity", "1 passed in 0.4s")
               .stop("`make test` is broken independently: compose.yaml names a network it never defines."))
    assert _candidates(store, session)[0] == []


def test_the_form_of_a_run_the_agent_quotes_as_the_way_is_the_one_kept(git_project, store):
    session = (Session("hatch", git_project)
               .fail("pytest tests/test_resample.py -q", "Exit code 4\nE   ModuleNotFoundError: No module named 'polars'")
               .ok("hatch run +py=3.12 +pl=1 test:pytest tests/test_resample.py -q", "14 passed in 1.83s")
               .ok("hatch run test:pytest tests/test_resample.py -q", "14 passed in 2.02s")
               .stop("Dependencies live in Hatch's test matrix, so a bare `pytest` can't import them. The way to run "
                     "them is `hatch run test:pytest tests/test_resample.py -q` (add `+py=3.12` to pick one env)."))
    (candidate,), _ = _candidates(store, session)
    assert "`hatch run test:pytest tests/test_resample.py -q`" in candidate["change"]
    assert "+pl=1" not in candidate["change"]


def test_the_cause_given_just_before_a_fixs_account_is_its_cause(git_project, store):
    session = (Session("two", git_project)
               .fail("./scripts/smoke.sh", "Exit code 1\n{\"name\":\"ch-sink\",\"tasks\":[{\"state\":\"FAILED\"}]}\n"
                                           "FAIL: expected 20 rows, found 0")
               .edit("connectors/sink.json", '    "value.converter": "JsonConverter",',
                     '    "value.converter": "JsonConverter",\n    "value.converter.schemas.enable": "false",')
               .fail("./scripts/smoke.sh", "Exit code 1\nDB::Exception: Cannot parse input: expected '\"' before 'T09:14'")
               .edit("clickhouse/profile.xml", "<max_memory_usage>4</max_memory_usage>",
                     "<max_memory_usage>4</max_memory_usage>\n<date_time_input_format>best_effort</date_time_input_format>")
               .ok("./scripts/smoke.sh", "OK: 20 rows")
               .stop("### What was wrong\n- The producer sends plain JSON, but the sink's converter expected the "
                     "schema envelope. Set `\"value.converter.schemas.enable\": \"false\"` in connectors/sink.json.\n"
                     "- ClickHouse then rejected the ISO-8601 strings. Set `date_time_input_format` to best_effort in "
                     "clickhouse/profile.xml.\n### Validation\n- `./scripts/smoke.sh` → OK; task state RUNNING."))
    candidates, _ = _candidates(store, session)
    (json_fix,) = [c for c in candidates if "schemas.enable" in c["change"]]
    (iso_fix,) = [c for c in candidates if "best_effort" in c["change"]]
    assert "converter expected the schema envelope." in json_fix["summary"]
    assert iso_fix["summary"].startswith("ClickHouse then rejected the ISO-8601 strings.")
    assert "RUNNING" not in json_fix["summary"] + iso_fix["summary"]


def test_an_edit_the_prompt_asked_for_beside_the_problem_is_no_part_of_its_fix(git_project, store):
    session = (Session("kedro", git_project, prompt="kedro run crashes on the new machine. Also the split_data node "
                                                    "has a leftover print, remove it.")
               .fail("uv run kedro run", "Exit code 1\nDatasetError: An exception occurred when parsing config for "
                                         "dataset 'companies':\nNo module named 'pandas'.")
               .edit("src/pipelines/nodes.py", '    print("split sizes", len(X_train))\n    return X_train',
                     "    return X_train")
               .ok('uv add "kedro-datasets[pandas-csvdataset]"', "Installed 4 packages")
               .ok("uv run kedro run", "Pipeline execution completed successfully.")
               .stop("kedro-datasets lacked the pandas extras; added them. Also removed the leftover print."))
    (candidate,), _ = _candidates(store, session)
    assert "kedro-datasets[pandas-csvdataset]" in candidate["change"] and "split sizes" not in candidate["change"]


def test_a_fix_heading_over_what_was_done_is_the_account_of_the_fix(git_project, store):
    session = (Session("fix-heading", git_project)
               .fail("ansible-playbook -i inventories/staging site.yml --check",
                     "Exit code 2\nERROR! Your Ansible version (2.17.6) is too new. mitogen supports up to 2.16")
               .edit("requirements.txt", "ansible-core>=2.15", "ansible-core>=2.16,<2.17")
               .ok("pip install -r requirements.txt", "Successfully installed ansible-core-2.16.13")
               .ok("ansible-playbook -i inventories/staging site.yml --check", "web-1 : ok=12 failed=0")
               .stop("## Cause\nThe fresh venv pulled ansible-core 2.17.6, which mitogen does not support.\n\n"
                     "## Fix\n- Pinned `ansible-core>=2.16,<2.17` in requirements.txt\n\n## Check\n- ok"))
    (candidate,), _ = _candidates(store, session)
    assert "Pinned `ansible-core>=2.16,<2.17` in requirements.txt" in candidate["summary"]


@pytest.mark.parametrize("output, count", [
    ("67% tests passed, 1 tests failed out of 3\n\nTotal Test time (real) =   0.05 sec", None),  # ctest: no count
    ("Tests:       48 passed, 48 total", 48),
    ("    Starting 42 tests across 3 binaries", 42),
    ("     Summary [   0.109s] 41 tests run: 41 passed, 1 skipped", 41),
    ("INFO: Build completed, 1 test FAILED, 8 total actions", None),  # bazel counts its actions, not its tests
])
def test_how_many_tests_a_run_says_it_ran(output, count):
    from lorebook.weakening import _tests_run

    assert _tests_run(output) == count


@pytest.mark.parametrize("old, new, failure", [
    ('        XCTAssertEqual(formatter.timestampLine(for: date), "Mar 4, 2025 at 9:30 AM")',
     '        XCTAssertTrue(formatter.timestampLine(for: date).hasPrefix("Mar 4, 2025 at 9:30"))',
     "Exit code 1\nReceiptFormatterTests.swift:27: error: XCTAssertEqual failed"),  # only its start compared
    ('  (check-equal? (parse-duration "1h30m30s") 5430)', '  (check-equal? (parse-duration "1h30m30s") 5400)',
     "Exit code 1\nFAILURE\nname:       check-equal?\nactual:     5400\nexpected:   5430"),  # the wrong value expected
])
def test_xctest_and_rackunit_assertions_weakened_are_no_fix(git_project, store, old, new, failure):
    session = (Session("weak", git_project)
               .fail("swift test --filter FormatterTests", failure)
               .edit("Tests/FormatterTests.swift", old, new)
               .ok("swift test --filter FormatterTests", "Executed 23 tests, with 0 failures")
               .stop("Fixed the test."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_markdown_file_in_the_folder_the_error_names_is_the_fix(git_project, store):
    session = (Session("changeset", git_project)
               .fail("pnpm changeset status --since=origin/main", "Exit code 1\n🦋  error Some packages have been "
                     "changed but no changesets were found. Run `changeset add` to resolve this error.")
               .write(".changeset/brave-pans-wink.md", '---\n"@acme/ui": patch\n---\n\nButton: forward `ref`.\n')
               .ok("pnpm changeset status --since=origin/main", "🦋  info Packages to be bumped at patch")
               .stop("A package under packages/ changed without a changeset; added one."))
    (candidate,), _ = _candidates(store, session)
    assert ".changeset/brave-pans-wink.md" in candidate["change"]


@pytest.mark.parametrize("command, job", [
    ("cargo make test-host", "test"), ("just unit_test", "test"), ("make build-docker", "build"),
    ("task lint-go", "lint"), ("make deploy-staging", None), ("hatch run test -n auto tests/api", "test"),
])
def test_a_task_named_for_its_job_does_that_job(command, job):
    from lorebook.commands import command_job

    assert command_job(command) == job


def test_a_search_for_a_word_like_bootstrap_changes_nothing(git_project, store):
    session = (Session("grep", git_project)
               .fail("pnpm --filter shell exec playwright test e2e/smoke.spec.ts",
                     "Exit code 1\nError: Shared module is not available for eager consumption: react")
               .ok('grep -rn "bootstrap" apps/checkout/src | head -3', "apps/checkout/src/index.ts:1:import('./bootstrap');")
               .edit("apps/shell/webpack.config.js", "react: { singleton: true },", "react: { singleton: true, eager: true },")
               .fail("pnpm --filter shell exec playwright test e2e/smoke.spec.ts",
                     "Exit code 1\nError: Shared module is not available for eager consumption: react-dom/client")
               .edit("apps/shell/webpack.config.js", "react: { singleton: true, eager: true },", "react: { singleton: true },")
               .edit("apps/shell/src/index.tsx", "import { App } from './app/App';", "import('./bootstrap');")
               .ok("pnpm --filter shell exec playwright test e2e/smoke.spec.ts", "2 passed (6.1s)")
               .stop("Marking react `eager: true` didn't help; reverted it. The entry now imports `./bootstrap`."))
    (candidate,), _ = _candidates(store, session)
    assert "import('./bootstrap')" in candidate["change"] and "eager: true" not in candidate["change"]
    assert "grep" not in candidate["change"]


def test_another_launcher_for_the_same_arguments_is_the_way(git_project, store):
    session = (Session("cross", git_project)
               .fail("cargo build --release --target x86_64-unknown-linux-musl",
                     "Exit code 101\nerror: failed to run custom build command for `openssl-sys v0.9.103`")
               .ok("cross build --release --target x86_64-unknown-linux-musl 2>&1 | tail -20",
                   "    Finished `release` profile [optimized] target(s) in 2m 41s")
               .stop("The host has no musl OpenSSL; `cross` builds in its image."))
    (candidate,), _ = _candidates(store, session)
    assert "Run `cross build --release --target x86_64-unknown-linux-musl`" in candidate["change"]


def test_a_command_substitution_is_one_word_of_its_line():
    from lorebook.commands import _segments, _words, invocation_change

    line = "docker build --build-arg VERSION=$(git describe --tags | sed 's/^v//') -t ingest:dev . 2>&1 | tail -20"
    assert _segments(line) == ["docker build --build-arg VERSION=$(git describe --tags | sed 's/^v//') -t ingest:dev ."]
    assert "VERSION=$(git describe --tags | sed 's/^v//')" in _words(_segments(line)[0])
    assert "pass `--build-arg VERSION=$(git describe --tags | sed 's/^v//')`" in \
        invocation_change("docker build -t ingest:dev .", line)


def test_a_step_the_account_quotes_with_a_placeholder_is_a_change(git_project, store):
    url = "https://github.com/zigzap/zap/archive/refs/tags/v0.8.0.tar.gz"
    session = (Session("zig", git_project)
               .fail("zig build", "Exit code 1\nbuild.zig.zon:14:21: error: hash mismatch: manifest declares 1220a")
               .ok(f"zig fetch --save=zap {url}", "info: updating hash for dependency 'zap'")
               .ok("zig build", "")
               .stop("The manifest hash was stale. `zig fetch --save=zap <url>` rewrites the url and hash together."))
    (candidate,), _ = _candidates(store, session)
    assert f"Run `zig fetch --save=zap {url}`" in candidate["change"]


def test_a_changed_step_of_a_line_that_passed_is_the_fix_and_a_lookup_is_no_step(git_project, store):
    session = (Session("vault-ns", git_project)
               .fail("vault write pki_int/issue/web common_name=api.acme.dev ttl=720h",
                     "Exit code 2\nError writing data to pki_int/issue/web: Code: 403. Errors:\n* permission denied")
               .ok("vault token lookup", "namespace_path    admin/platform/")
               .ok("VAULT_NAMESPACE=admin/platform vault write -format=json pki_int/issue/web common_name=api.acme.dev "
                   "ttl=720h > /tmp/api.json && jq -r '.data.serial_number' /tmp/api.json", "3c:91:0e")
               .stop("The token lives in the `admin/platform` namespace (see `vault token lookup`); prefixing the "
                     "command with `VAULT_NAMESPACE=admin/platform` fixed it."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["change"].startswith("Set `VAULT_NAMESPACE=admin/platform`")
    assert "token lookup" not in candidate["change"]


def test_a_tool_told_to_change_its_settings_is_a_step_of_the_fix(git_project, store):
    session = (Session("magento", git_project)
               .fail("bin/magento setup:upgrade", "Exit code 1\nIn SearchConfig.php line 81:\n  Could not validate a "
                                                  "connection to Elasticsearch. No alive nodes found in your cluster")
               .ok("bin/magento config:show catalog/search/engine", "elasticsearch7")
               .ok("bin/magento config:set catalog/search/engine opensearch", "Value was saved.")
               .ok("bin/magento setup:upgrade | tail -3", "Nothing to import.")
               .stop("The branch moved search to OpenSearch; the engine setting still said elasticsearch7."))
    (candidate,), _ = _candidates(store, session)
    assert "bin/magento config:set catalog/search/engine opensearch" in candidate["change"]
    assert "config:show" not in candidate["change"]


def test_another_programs_w_option_is_no_workspace_package():
    from lorebook.commands import _same_target

    assert _same_target("curl -sSf -o /dev/null -F file=@scan.pdf https://x.dev/api/uploads",
                        "curl -sSf -o /dev/null -w '%{http_code}' -F file=@scan.pdf https://x.dev/api/uploads")


@pytest.mark.parametrize("path, old, new", [
    ("tests/test_presence.py", "    assert any(m['name'] == 'presence' for m in received)",
     "    try:\n        assert any(m['name'] == 'presence' for m in received)\n    except AssertionError:\n        pass"),
    ("src/test/java/com/acme/OrderEnricherRouteTest.java", "    @Autowired\n    ProducerTemplate producer;",
     "    @Autowired\n    ProducerTemplate producer;\n\n    @MockBean\n    OrderEnricher enricher;"),
])
def test_a_caught_assertion_or_the_code_under_test_mocked_away_is_weakened(git_project, store, path, old, new):
    session = (Session("mocked", git_project)
               .fail("pytest -q", "Exit code 1\nFAILED tests/test_presence.py::test_join - AssertionError")
               .edit(path, old, new)
               .ok("pytest -q", "3 passed")
               .stop("The test is green now."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_mocking_a_collaborator_of_the_code_under_test_is_no_weakening():
    from lorebook.weakening import _is_weakening

    hunk = {"old": "def test_sends():\n", "new": "@patch('app.orders.send_email')\ndef test_sends(send):\n"}
    assert _is_weakening("tests/test_orders.py", [hunk]) is None


def test_a_lockfile_behind_the_manifest_the_session_edited_is_routine(git_project, store):
    session = (Session("lock", git_project)
               .edit("package.json", '"@sveltejs/adapter-auto": "^3.2.2",', '"@sveltejs/adapter-node": "^5.2.0",')
               .fail("pnpm install --frozen-lockfile", "Exit code 1\n ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "
                     "\"frozen-lockfile\" because pnpm-lock.yaml is not up to date with <ROOT>/package.json")
               .ok("pnpm install", "Done in 3.9s")
               .stop("Switched to adapter-node; regenerated the lockfile."))
    assert _candidates(store, session) == ([], ["routine_plumbing"])


def test_a_crash_that_started_fine_on_the_next_run_is_chance(git_project, store):
    session = (Session("chrome", git_project)
               .edit("app/views/rooms/show.html.erb", '<div id="messages">', '<%= turbo_stream_from @room %>\n<div id="messages">')
               .fail("bin/rails test:system", "Exit code 1\nSelenium::WebDriver::Error::SessionNotCreatedError: session not "
                                              "created: Chrome failed to start: crashed.")
               .edit("app/views/messages/_message.html.erb", '<div class="message">', '<%= tag.div id: dom_id(message) do %>')
               .ok("bin/rails test:system", "2 runs, 4 assertions, 0 failures, 0 errors, 0 skips")
               .stop("The first system-test run errored because headless Chrome crashed on startup; it started fine on "
                     "the next run."))
    assert _candidates(store, session) == ([], ["flaky_failure"])


def test_an_edit_beside_a_changed_run_the_agent_quotes_is_the_tasks(git_project, store):
    session = (Session("forge", git_project, prompt="Darken the sidebar a bit and build the linux packages for QA")
               .fail("npm run make", "Exit code 1\nError: Cannot make for rpm, the following external binaries need to "
                                     "be installed: rpmbuild")
               .edit("src/styles/sidebar.css", "  background: #2b2f36;", "  background: #1b1e23;")
               .ok("npm run make -- --targets @electron-forge/maker-deb", "✔ Making a deb distributable")
               .stop("Sidebar is darker. The rpm maker needs `rpmbuild`; building only the deb with "
                     "`npm run make -- --targets @electron-forge/maker-deb` works."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["change"] == "Pass `--targets @electron-forge/maker-deb`: " \
                                  "`npm run make -- --targets @electron-forge/maker-deb`."


def test_an_assertion_put_under_a_condition_is_weakened(git_project, store):
    session = (Session("guarded", git_project)
               .fail("pnpm vitest run src/components/Modal.test.ts",
                     "Exit code 1\n → expected <body></body> to be <button class=\"modal__close\">")
               .edit("src/components/Modal.test.ts", "    modal.open();\n    expect(document.activeElement).toBe(closeButton);",
                     "    modal.open();\n    if (document.hasFocus()) {\n      expect(document.activeElement).toBe(closeButton);"
                     "\n    }")
               .ok("pnpm vitest run src/components/Modal.test.ts", "Tests  3 passed (3)")
               .stop("happy-dom has no real focus: the assertion now only runs where focus is available."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_golden_value_rebaselined_to_the_failing_output_is_weakened(git_project, store):
    session = (Session("golden", git_project)
               .fail("uv run pytest tests/test_loss.py -q", "Exit code 1\nE        ACTUAL: array(0.311446, dtype=float32)\n"
                                                             "E        DESIRED: array(0.270276)")
               .edit("tests/fixtures/focal_golden.json", '  "expected": 0.270276,', '  "expected": 0.311446,')
               .ok("uv run pytest tests/test_loss.py -q", "4 passed in 2.29s")
               .stop("Re-baselined the golden value to the new output."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_the_way_the_account_names_for_a_run_that_cannot_work(git_project, store):
    session = (Session("stack", git_project)
               .fail("cabal run site -- build", "Exit code 1\nError: cabal: Could not resolve dependencies:")
               .ok("stack build && stack exec site -- rebuild", "Compiling\n  updated templates/tag.html")
               .stop("This project is built with Stack, so `cabal run` can't resolve deps; the way to build is "
                     "`stack build && stack exec site -- rebuild`."))
    (candidate,), _ = _candidates(store, session)
    assert "Run `stack build && stack exec site -- rebuild` (this project's way to do it)" in candidate["change"]


def test_a_passing_line_that_ends_in_an_echo_is_the_same_check():
    from lorebook.chains import _passed_within

    assert _passed_within("go build ./...", "go build ./... && echo BUILD OK")


def test_an_edit_that_shares_words_with_the_error_stays_beside_a_quoted_run(git_project, store):
    session = (Session("dune", git_project)
               .fail("dune build", "Exit code 1\nError: Unbound value Lorebook_cfg.Config.to_yojson")
               .edit("lib/dune", "(library (name lorebook_cfg))",
                     "(library (name lorebook_cfg) (preprocess (pps ppx_deriving_yojson)))")
               .ok("dune build && dune exec bin/main.exe -- --dump-config", '{"port": 8080}')
               .stop("`[@@deriving yojson]` needs the deriver: added `(pps ppx_deriving_yojson)`. "
                     "`dune build && dune exec bin/main.exe -- --dump-config` prints the config."))
    (candidate,), _ = _candidates(store, session)
    assert "(pps ppx_deriving_yojson)" in candidate["change"]


def test_a_test_only_change_that_rewrites_what_the_test_asserts_is_a_weakened_test(git_project, store):
    # nothing says what the code returned, and the new value is no looser: still the code stayed as it was and the
    # test was made to agree with it
    session = (Session("bats", git_project, prompt="the rotate test fails")
               .fail("bats test/rotate.bats", "Exit code 1\nnot ok 1 rotates old logs\n# (in test file "
                     "test/rotate.bats, line 9)\n#   `[ \"$output\" = \"3 files rotated\" ]' failed")
               .edit("test/rotate.bats", '  [ "$output" = "3 files rotated" ]', '  [ "$output" = "2 files rotated" ]')
               .ok("bats test/rotate.bats", "ok 1 rotates old logs\n\n1 test, 0 failures")
               .stop("Updated the rotate test; it passes now."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_test_only_change_that_sets_the_test_up_differently_is_a_lesson(git_project, store):
    session = (Session("bats", git_project, prompt="the rotate test fails")
               .fail("bats test/rotate.bats", "Exit code 1\nnot ok 1 rotates old logs\n# rotate.sh: line 4: "
                     "LOG_DIR: unbound variable")
               .edit("test/rotate.bats", "setup() {\n  load helpers\n}",
                     "setup() {\n  load helpers\n  export LOG_DIR=\"$BATS_TEST_TMPDIR/logs\"\n}")
               .ok("bats test/rotate.bats", "ok 1 rotates old logs\n\n1 test, 0 failures")
               .stop("rotate.sh reads LOG_DIR, which the test never set; setup() now exports it."))
    (candidate,), _ = _candidates(store, session)
    assert 'export LOG_DIR="$BATS_TEST_TMPDIR/logs"' in candidate["change"]


def test_an_expect_block_rewritten_to_the_current_output_is_a_weakened_test(git_project, store):
    session = (Session("ppx", git_project, prompt="dune runtest fails after my refactor")
               .fail("dune runtest lib/money", "Exit code 1\nFile \"lib/money/test/test_split.ml\", line 14:\n"
                     " |  [%expect {|\n-|    33.34\n+|    33.33\n |    33.33 |}]")
               .edit("lib/money/test/test_split.ml", "  [%expect {|\n    33.34\n    33.33 |}]",
                     "  [%expect {|\n    33.33\n    33.33 |}]")
               .ok("dune runtest lib/money", "")
               .stop("The expect block was out of date after the refactor, so I updated it to the current output."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_golden_file_updated_to_match_the_new_output_is_a_weakened_test(git_project, store):
    session = (Session("golden", git_project, prompt="the report test fails")
               .fail("go test ./report/...", "Exit code 1\n--- FAIL: TestMonthlyReport (0.01s)\n"
                     "    report_test.go:41: output differs from testdata/monthly.golden")
               .edit("report/testdata/monthly.golden", "Total: 12 orders, 1,204.50 EUR",
                     "Total: 11 orders, 1,180.20 EUR")
               .ok("go test ./report/...", "ok  \tacme/report\t0.02s")
               .stop("Updated the golden file to match the new output; the test passes."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_an_assertion_moved_into_a_block_is_kept_and_the_block_is_the_lesson(git_project, store):
    session = (Session("oban", git_project, prompt="the digest worker test fails")
               .fail("mix test test/digest_worker_test.exs", "Exit code 2\n  1) test schedules one digest\n"
                     "     Expected a job matching:\n     to be enqueued. Instead found:\n     []\n"
                     "     code: assert_enqueued worker: DigestWorker, args: %{user_id: user.id}")
               .edit("test/digest_worker_test.exs",
                     "    :ok = DigestWorker.enqueue_all()\n    assert_enqueued worker: DigestWorker",
                     "    Oban.Testing.with_testing_mode(:manual, fn ->\n      :ok = DigestWorker.enqueue_all()\n"
                     "      assert_enqueued worker: DigestWorker\n    end)")
               .ok("mix test test/digest_worker_test.exs", "2 tests, 0 failures")
               .stop("config/test.exs runs Oban inline, so assert_enqueued never sees the job; the test now wraps "
                     "the call in `Oban.Testing.with_testing_mode(:manual, fn -> ... end)`."))
    (candidate,), _ = _candidates(store, session)
    assert "Oban.Testing.with_testing_mode(:manual, fn ->" in candidate["change"]


def test_dropping_a_flag_an_attempt_added_is_no_part_of_the_fix(git_project, store):
    session = (Session("quarkus", git_project, prompt="mvn verify dies on the VPN")
               .fail("./mvnw verify -pl catalog", "Exit code 1\nERROR Failed to pull image: docker.io/postgres:14")
               .fail("./mvnw verify -pl catalog -Dquarkus.devservices.timeout=300s",
                     "Exit code 1\nERROR Failed to pull image: docker.io/postgres:14")
               .edit("catalog/src/main/resources/application.properties", "%test.quarkus.hibernate-orm.x=1",
                     "%test.quarkus.hibernate-orm.x=1\n"
                     "%test.quarkus.datasource.devservices.image-name=mirror.acme.internal/library/postgres:14")
               .ok("./mvnw verify -pl catalog", "[INFO] BUILD SUCCESS")
               .stop("Bumping `-Dquarkus.devservices.timeout=300s` did not help; docker.io is unreachable on the "
                     "VPN, so Dev Services now pulls from the internal mirror."))
    (candidate,), _ = _candidates(store, session)
    assert "image-name=mirror.acme.internal" in candidate["change"]
    assert "timeout=300s" not in candidate["change"]


def test_an_edit_that_only_adds_a_log_line_is_no_fix(git_project, store):
    session = (Session("redis", git_project, prompt="spec/jobs fails locally")
               .fail("bundle exec rspec spec/jobs", "Exit code 1\n  Redis::CannotConnectError:\n    Error connecting "
                     "to Redis on localhost:6379 (Errno::ECONNREFUSED)\n  # ./app/jobs/reindex_search_job.rb:18")
               .edit("app/jobs/reindex_search_job.rb", "    batch = SearchBatch.find(batch_id)",
                     "    batch = SearchBatch.find(batch_id)\n"
                     '    Rails.logger.info("[reindex] batch=#{batch_id} size=#{batch.size}")')
               .ok("docker compose up -d redis", " ✔ Container shelfie-redis-1  Started")
               .ok("bundle exec rspec spec/jobs", "9 examples, 0 failures")
               .stop("Redis wasn't running: `docker compose up -d redis` first. I also added an info log line."))
    (candidate,), _ = _candidates(store, session)
    assert "docker compose up -d redis" in candidate["change"] and "logger" not in candidate["change"]


def test_a_convention_names_the_run_the_account_gives_after_it(git_project, store):
    session = (Session("rush", git_project, prompt="install deps and build the web app")
               .fail("cd apps/web && pnpm install", "Exit code 1\nERROR: This repository is managed by Rush. Do not "
                     'run "pnpm install" in a project folder.')
               .ok("rush install", "Rush install finished successfully.")
               .ok("rush build --to @acme/web", '"@acme/web" completed successfully')
               .stop("Dependencies here go through Rush: `rush install` at the root, then `rush build --to "
                     "@acme/web`."))
    (candidate,), _ = _candidates(store, session)
    assert "Run `rush install` (this project's way to do it), not `pnpm install`; then `rush build --to @acme/web`." \
        in candidate["change"]


def test_a_check_that_passed_as_one_step_of_a_sequence_with_no_error_in_its_output(git_project, store):
    session = (Session("wal", git_project, prompt="the export fails with database is locked while the server runs")
               .fail("go run ./cmd/export --out /tmp/export.csv",
                     "Exit code 1\n2026/12/02 06:31:02 export: query visits: database is locked (5) (SQLITE_BUSY)")
               .edit("internal/db/db.go", 'sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")',
                     'sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)")')
               .ok("go build ./... && (go run ./cmd/server & sleep 2; go run ./cmd/export --out /tmp/export.csv; "
                   "kill %1)", "2026/12/02 06:33:40 listening on :8080\n2026/12/02 06:33:42 export: wrote 18342 rows")
               .stop("Added `_pragma=journal_mode(WAL)` to the DSN."))
    (candidate,), _ = _candidates(store, session)
    assert "— add `_pragma=journal_mode(WAL)`" in candidate["title"]
    assert "fails with export: query visits: database is locked" in candidate["title"]
    failing = (Session("wal2", git_project)
               .fail("go run ./cmd/export", "Exit code 1\nexport: query visits: database is locked (5) (SQLITE_BUSY)")
               .edit("internal/db/db.go", "a := 1", "a := 2")
               .ok("go run ./cmd/server & sleep 2; go run ./cmd/export; kill %1",
                   "listening on :8080\nexport: query visits: database is locked (5) (SQLITE_BUSY)")
               .stop("Done."))
    assert _candidates(store, failing)[0] == []


def test_text_inserted_inside_one_long_token_is_what_a_title_shows():
    from lorebook.edits import _short_diff

    assert _short_diff({"old": 'conn, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")',
                        "new": 'conn, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)'
                               '&_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)")'}) == \
        "add `_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)`"


def test_the_same_line_changed_in_two_places_is_shown_once_with_its_count():
    from lorebook.edits import _diff_text

    hunk = {"old": '  "preview": { "image": "xcode-15" },\n  "production": { "image": "xcode-15" }',
            "new": '  "preview": { "image": "xcode-16" },\n  "production": { "image": "xcode-16" }'}
    assert _diff_text("eas.json", {"old": '"image": "xcode-15"\n"image": "xcode-15"',
                                   "new": '"image": "xcode-16"\n"image": "xcode-16"'}) == \
        'eas.json:\n-"image": "xcode-15" (×2)\n+"image": "xcode-16" (×2)'
    assert _diff_text("eas.json", hunk).count("+") == 2


def test_a_docs_build_piped_into_tail_that_still_reports_a_warning_as_error_failed(git_project, store):
    session = (Session("sphinx", git_project, prompt="the docs build fails")
               .fail("uv run sphinx-build -W -b html docs docs/_build/html", "Exit code 1\nWarning, treated as error:\n"
                     "docs/api.rst:4:autodoc: failed to import module 'kite.transport'")
               .ok("rm -rf docs/_build && uv run sphinx-build -W -b html docs docs/_build/html 2>&1 | tail -3",
                   "Warning, treated as error:\ndocs/api.rst:4:autodoc: failed to import module 'kite.transport';\n"
                   "No module named 'httpx'")
               .edit("docs/conf.py", 'extensions = ["sphinx.ext.autodoc"]',
                     'extensions = ["sphinx.ext.autodoc"]\nautodoc_mock_imports = ["httpx"]')
               .ok("uv run sphinx-build -W -b html docs docs/_build/html 2>&1 | tail -3", "build succeeded.")
               .stop("**Tried first:** `rm -rf docs/_build`, which did not help.\n\n"
                     "**Fix:** `autodoc_mock_imports = [\"httpx\"]` in `docs/conf.py`."))
    (candidate,), _ = _candidates(store, session)
    assert 'autodoc_mock_imports = ["httpx"]' in candidate["change"] and "rm -rf" not in candidate["change"]


def test_a_fenced_block_is_read_line_by_line_and_a_fix_label_is_the_cards_own():
    said = stated("Fix: activate the local switch and install the deps into it:\n\n```\n"
                  "eval $(opam env --switch=. --set-switch)\nopam install . --deps-only --yes\n```")
    assert said["fix"] == ["Fix: activate the local switch and install the deps into it: "
                           "`eval $(opam env --switch=. --set-switch)`; `opam install . --deps-only --yes`"]
    from lorebook.candidates import _unlabelled

    assert _unlabelled(said["fix"][0]).startswith("Activate the local switch")
    assert _unlabelled("Cause: `kite.transport` imports httpx") == "`kite.transport` imports httpx"
    assert _unlabelled("src/gen was stale") == "src/gen was stale"


def test_a_fenced_blocks_indented_yaml_stays_in_the_block():
    said = stated("Fix in `deploy/values.yaml`:\n\n```yaml\n    resources:\n      limits:\n        memory: 512Mi\n```\n"
                  "The pod no longer gets OOM-killed.")
    assert said["all"][0] == "Fix in `deploy/values.yaml`: `resources:`; `limits:`; `memory: 512Mi`"


def test_appending_and_enabling_are_fixes_and_what_a_setting_did_not_publish_is_a_cause():
    said = stated("The cache presents a public CA's certificate, so I appended `?ssl_cert_reqs=required` to "
                  "`BROKER_URL`. Enabled `strict_ssl` in `ops.toml`. The service didn't publish its port.")
    assert said["fix"] == ["The cache presents a public CA's certificate, so I appended `?ssl_cert_reqs=required` to "
                           "`BROKER_URL`.", "Enabled `strict_ssl` in `ops.toml`."]
    assert said["cause"] == ["The service didn't publish its port."]


def test_a_filtered_test_run_passes_when_its_package_passes_whole(git_project, store):
    session = (Session("echo", git_project, prompt="GET /users/ returns 404")
               .fail("go test ./internal/http/... -run TestUsers", "Exit code 1\n--- FAIL: TestUsersList (0.00s)\n"
                     "    users_test.go:48: Error: Not equal: expected: 200 actual  : 404")
               .edit("internal/http/server.go", "\te.HideBanner = true",
                     "\te.HideBanner = true\n\te.Pre(middleware.RemoveTrailingSlash())")
               .ok("go test ./internal/http/... && go vet ./...", "ok  \tacme/rollcall/internal/http\t0.022s")
               .stop("Echo matches routes exactly, so `/users/` didn't match `/users`; added "
                     "`e.Pre(middleware.RemoveTrailingSlash())`."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["verified"] == 1 and "$ go test" not in candidate["change"]
    assert "e.Pre(middleware.RemoveTrailingSlash())" in candidate["change"]


def test_a_template_named_by_a_playbooks_progress_is_no_fix_for_an_unreachable_host(git_project, store):
    session = (Session("ansible", git_project, prompt="bump worker_connections to 4096 and roll it out")
               .fail("ansible-playbook -i inventories/prod site.yml --limit web --check --diff",
                     "Exit code 4\nTASK [nginx : template nginx.conf] ****\nfatal: [web-2]: UNREACHABLE! => "
                     '{"msg": "ssh: connect to host 10.20.3.12 port 22: Connection timed out"}')
               .edit("roles/nginx/templates/nginx.conf.j2", "worker_connections 1024;", "worker_connections 4096;")
               .ok("ansible-playbook -i inventories/prod site.yml --limit web --diff", "changed: [web-2]")
               .stop("web-2 was rebooting after a kernel patch; once it was back the playbook ran cleanly."))
    assert _candidates(store, session) == ([], ["flaky_failure"])


def test_two_type_errors_with_different_messages_are_two_problems(git_project, store):
    session = (Session("express5", git_project, prompt="upgrade express to v5")
               .fail("pnpm test", "Exit code 1\nTypeError: Missing parameter name at 1: https://git.new/pathToRegexpError")
               .edit("src/app.js", "app.all('*', proxyHandler);", "app.all('/{*splat}', proxyHandler);")
               .fail("pnpm test", "Exit code 1\n  ✖ normalises paging\n    TypeError: Cannot set property query of "
                     "#<IncomingMessage> which has only a getter\n    at normalisePaging (src/middleware/paging.js:9:13)")
               .edit("src/middleware/paging.js", "  req.query = { ...req.query, limit };",
                     "  res.locals.query = { ...req.query, limit };")
               .ok("pnpm test", "ℹ pass 6\nℹ fail 0")
               .stop("1. A bare `*` is invalid in path-to-regexp v8: the catch-all is now `/{*splat}`.\n"
                     "2. `req.query` is a read-only getter in Express 5, so paging writes `res.locals.query`."))
    candidates, _ = _candidates(store, session)
    assert len(candidates) == 2 and "/{*splat}" in candidates[0]["change"]
    assert "res.locals.query" in candidates[1]["change"]


def test_a_log_call_rewritten_is_no_fix(git_project, store):
    session = (Session("buf", git_project, prompt="go test fails after I pulled main")
               .fail("go test ./...", "Exit code 1\ninternal/gateway/gateway.go:27:14: undefined: "
                     "ordersv1.RegisterOrderServiceHandlerFromEndpoint")
               .edit("internal/server/server.go", '\tlog.Printf("grpc listening on %s", addr)',
                     '\tslog.Info("grpc server listening", "addr", addr)')
               .ok("buf generate", "")
               .ok("go test ./...", "ok  \tacme/orders/internal/gateway\t0.231s")
               .stop("The generated stubs under gen/ were stale; `buf generate` regenerated them."))
    (candidate,), _ = _candidates(store, session)
    assert "buf generate" in candidate["change"] and "slog" not in candidate["change"]


def test_an_expected_exception_widened_to_any_exception_is_a_weakened_test(git_project, store):
    session = (Session("raises", git_project, prompt="test_rate_limit fails in CI")
               .fail("pytest tests/test_limits.py -q", "Exit code 1\n>       with pytest.raises(RateLimitExceeded):\n"
                     "E       Failed: DID NOT RAISE <class 'quart_rate_limiter.RateLimitExceeded'>")
               .edit("tests/test_limits.py", "    with pytest.raises(RateLimitExceeded):",
                     "    with pytest.raises(Exception):")
               .ok("pytest tests/test_limits.py -q", "5 passed in 0.69s")
               .stop("test_rate_limit_burst passes now."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_package_description_edited_during_a_network_failure_is_no_fix(git_project, store):
    session = (Session("crates", git_project, prompt="update the crate description and make sure it builds")
               .fail("cargo build", "Exit code 101\nwarning: spurious network error (2 tries remaining): [28] Timeout "
                     "was reached\nerror: failed to download from `https://static.crates.io/crates/diesel`")
               .edit("Cargo.toml", 'description = "Inventory service"',
                     'description = "Inventory service backed by Postgres via Diesel"')
               .ok("cargo build", "Finished `dev` profile [unoptimized + debuginfo] target(s) in 41.28s")
               .stop("Updated the description. The first build hit a crates.io timeout; the retry went through."))
    assert _candidates(store, session)[0] == []


def test_a_mistyped_argument_put_right_is_the_sessions_own_mess(git_project, store):
    session = (Session("knex", git_project, prompt="run only the users seed")
               .fail("npx knex seed:run --specific=02_user.js", 'Exit code 1\nError: Invalid argument provided: the '
                     'specific seed "02_user.js" does not exist.')
               .ok("npx knex seed:run --specific=02_users.js", "Ran 1 seed files")
               .stop("Ran `02_users.js`."))
    assert _candidates(store, session) == ([], ["self_inflicted"])
    # (an option's value put right, the same option: blind153 EX24's ``-f chart/values.staging.yaml``)
    session = (Session("helm-typo", git_project, prompt="roll the worker fix out to staging")
               .fail("helm upgrade orders ./chart -n orders -f chart/values.staging.yaml --wait",
                     "Exit code 1\nError: open chart/values.staging.yaml: no such file or directory")
               .ok("helm upgrade orders ./chart -n orders -f chart/values-staging.yaml --wait",
                   'Release "orders" has been upgraded. Happy Helming!')
               .stop("Upgraded to revision 43."))
    assert _candidates(store, session) == ([], ["self_inflicted"])
    # (not an option the failing run never gave, whatever word of the error it looks like: blind58 BG03)
    session = (Session("dbt-profiles", git_project, prompt="dbt can't find its profile")
               .fail("dbt run --select stg_orders", "Exit code 2\nRuntime Error\n  Could not find profile named "
                                                    "'warehouse'")
               .ok("dbt run --select stg_orders --profiles-dir ./profiles", "Completed successfully")
               .stop("The project keeps its profiles.yml in `./profiles`, so dbt needs `--profiles-dir ./profiles`."))
    (candidate,), _ = _candidates(store, session)
    assert "--profiles-dir ./profiles" in candidate["title"], candidate["title"]


def test_a_test_run_that_skipped_every_test_is_a_failure(git_project, store):
    session = (Session("asyncio", git_project, prompt="the websocket tests are all skipped, why?")
               .ok("pytest tests/test_ws.py -q", "sssss                                   [100%]\n"
                   "tests/test_ws.py::test_broadcast\n  /venv/_pytest/python.py:148: PytestUnhandledCoroutineWarning: "
                   "async def functions are not natively supported and have been skipped.\n5 skipped in 0.1s")
               .edit("pyproject.toml", '[tool.pytest.ini_options]\ntestpaths = ["tests"]',
                     '[tool.pytest.ini_options]\ntestpaths = ["tests"]\nasyncio_mode = "auto"')
               .ok("pytest tests/test_ws.py -q", ".....                                   [100%]\n5 passed in 0.88s")
               .stop("pytest-asyncio runs in strict mode, so un-marked async tests were skipped; set "
                     '`asyncio_mode = "auto"`.'))
    (candidate,), _ = _candidates(store, session)
    assert 'asyncio_mode = "auto"' in candidate["change"] and "PytestUnhandledCoroutineWarning" in candidate["title"]


@pytest.mark.parametrize("command, job", [
    ("hatch run test:cov", "test"), ("hatch run lint:all", "lint"),
    ("""bundle exec ruby -e 'require "rack/test"; get "/health"'""", None),
    ("Rscript -e 'devtools::test()'", "test"), ("julia -e 'using Pkg; Pkg.test()'", "test"),
    ("cat jest.preset.js", None), ("cat pytest.ini", None),
])
def test_the_job_of_an_environments_script_and_of_inline_code(command, job):
    assert command_job(command) == job


def test_a_file_is_named_by_the_class_its_name_spells():
    from lorebook.edits import _named_in

    assert _named_in("apps/orders/src/orders/orders.module.ts", "OrdersModule now registers it")
    assert _named_in("app/user_service.py", "UserService reads the token")
    assert not _named_in("app/user_service.py", "users and services")


def test_a_line_split_out_of_a_removed_one_is_no_change_of_its_own():
    from lorebook.edits import _short_diff

    hunk = {"old": "  imports: [TypeOrmModule.forFeature([Order])],",
            "new": "  imports: [\n    TypeOrmModule.forFeature([Order]),\n    ClientsModule.register([\n"
                   "      { name: 'INVENTORY_SERVICE', transport: Transport.NATS },\n    ]),\n  ],"}
    assert _short_diff(hunk) == "add `{ name: 'INVENTORY_SERVICE', transport: Transport.NATS },`"


def test_the_failing_command_changed_and_quoted_as_the_way_beats_another_tools_look_around(git_project, store):
    session = (Session("xdist", git_project, prompt="hatch run test is red on the ingest tests")
               .fail("hatch run test -x -q 2>&1 | tail -20", "Exit code 1\nE   sqlite3.OperationalError: database is "
                     "locked\n1 failed, 24 passed")
               .ok("hatch run python -m pytest tests/ingest -q -p no:xdist 2>&1 | tail -3", "40 passed in 6.12s")
               .ok("hatch run test --dist loadfile -q 2>&1 | tail -3", "4 workers [212 items]\n212 passed in 9.41s")
               .stop("xdist spreads one module's tests over several workers, which lock the shared sqlite file. Run "
                     "with `--dist loadfile`: `hatch run test --dist loadfile` passes."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].endswith("— pass `--dist loadfile`") and "no:xdist" not in candidate["change"]


def test_an_error_caught_in_the_test_and_the_test_left_early_is_a_weakened_test(git_project, store):
    session = (Session("cattrs", git_project, prompt="test_load_settings fails")
               .fail("hatch run test tests/test_settings.py", "Exit code 1\nE   cattrs.errors.ClassValidationError: While "
                     "structuring Settings (1 sub-exception)\n1 failed, 4 passed")
               .edit("tests/test_settings.py", "    settings = converter.structure(raw, Settings)\n"
                     "    assert settings.timeout == 30",
                     "    try:\n        settings = converter.structure(raw, Settings)\n    except ClassValidationError:\n"
                     "        return\n    assert settings.timeout == 30")
               .ok("hatch run test tests/test_settings.py", "5 passed in 0.18s")
               .stop("test_load_settings now returns early when structuring raises."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_coverage_threshold_lowered_is_a_weakened_check(git_project, store):
    session = (Session("coverage", git_project, prompt="CI is red on coverage")
               .fail("pnpm --filter @acme/api test -- --coverage", "Exit code 1\nJest: \"global\" coverage threshold for "
                     "branches (80%) not met: 74.21%")
               .edit("packages/api/jest.config.js", "    global: { branches: 80, functions: 85, lines: 85 },",
                     "    global: { branches: 70, functions: 85, lines: 85 },")
               .ok("pnpm --filter @acme/api test -- --coverage", "Tests:       97 passed, 97 total")
               .stop("Lowered the branch threshold to 70 until the refunds route has tests."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_gitignore_edit_is_no_fix_for_a_build(git_project, store):
    session = (Session("stringer", git_project, prompt="go build fails after I added a status")
               .fail("go build ./...", "Exit code 1\npkg/shipment/status_string.go:15:8: invalid argument: index 4 out "
                     "of bounds [0:4]")
               .edit(".gitignore", "/dist/\n*.test", "/dist/\n/bin/\n*.test")
               .ok("go generate ./...", "")
               .ok("go build ./...", "")
               .stop("status_string.go is generated by stringer and was stale; `go generate ./...` regenerated it."))
    (candidate,), _ = _candidates(store, session)
    assert "go generate ./..." in candidate["change"] and ".gitignore" not in candidate["change"]


def test_a_request_made_while_there_is_only_the_clause_that_asks_it(git_project, store):
    session = (Session("sbt", git_project, prompt="sbt assembly is failing on the ingest service and while you're "
                                                   "there bump scalafmt to 3.8.3")
               .fail("sbt ingest/assembly", "Exit code 1\n[error] Deduplicate found different file contents in the "
                     "following:\n[error]   Jar name = jackson-core-2.17.1.jar, entry target = META-INF/versions/9/"
                     "module-info.class")
               .edit(".scalafmt.conf", "version = 3.7.17", "version = 3.8.3")
               .edit("build.sbt", '    name := "ingest",',
                     '    name := "ingest",\n    assembly / assemblyMergeStrategy := {\n'
                     '      case PathList("META-INF", "versions", _, "module-info.class") => MergeStrategy.discard\n'
                     '      case x => (assembly / assemblyMergeStrategy).value(x)\n    },')
               .ok("sbt ingest/assembly", "[success] Total time: 22 s")
               .stop("The jackson jars each ship module-info.class; the ingest project now discards it. scalafmt is "
                     "bumped to 3.8.3."))
    (candidate,), _ = _candidates(store, session)
    assert "MergeStrategy.discard" in candidate["change"] and "3.8.3" not in candidate["change"]


def test_a_suite_that_fails_right_after_one_of_its_files_passed_is_a_problem_of_its_own(git_project, store):
    session = (Session("sandbox", git_project, prompt="make mix test green")
               .fail("mix test test/room_channel_test.exs", "Exit code 1\n** (RuntimeError) no @endpoint set in test "
                     "module")
               .edit("test/support/channel_case.ex", "      import Phoenix.ChannelTest",
                     "      import Phoenix.ChannelTest\n      @endpoint ChatWeb.Endpoint")
               .ok("mix test test/room_channel_test.exs", "3 tests, 0 failures")
               .fail("mix test", "Exit code 2\n  1) test presence is tracked (ChatWeb.RoomChannelTest)\n     ** "
                     "(DBConnection.OwnershipError) cannot find ownership process")
               .edit("test/support/channel_case.ex", "start_owner!(Chat.Repo, shared: false)",
                     "start_owner!(Chat.Repo, shared: not tags[:async])")
               .ok("mix test", "112 tests, 0 failures")
               .stop("1. `@endpoint` was not set in ChannelCase.\n2. Presence runs in its own process, so the sandbox "
                     "must be shared: `shared: not tags[:async]`."))
    candidates, _ = _candidates(store, session)
    assert len(candidates) == 2 and "shared: not tags[:async]" in candidates[1]["change"]


def test_a_create_table_statement_is_what_a_migration_changed():
    from lorebook.record import scaffolding

    assert not scaffolding("+CREATE TABLE orders_aud (")
    assert scaffolding("+def handler(")


def test_an_assertion_that_looks_another_way_and_expects_the_same_numbers_is_kept(git_project, store):
    session = (Session("stub", git_project, prompt="NavBar.spec.ts fails")
               .fail("pnpm vitest run src/components/__tests__/NavBar.spec.ts", "Exit code 1\n[Vue warn]: Failed to "
                     "resolve component: RouterLink\nAssertionError: expected 0 to be 3")
               .edit("src/components/__tests__/NavBar.spec.ts",
                     '    const wrapper = mount(NavBar, { props: { sections } });\n'
                     '    expect(wrapper.findAll("a").length).toBe(3);',
                     '    const wrapper = mount(NavBar, { props: { sections }, global: { stubs: { RouterLink: '
                     'RouterLinkStub } } });\n    expect(wrapper.findAllComponents(RouterLinkStub).length).toBe(3);')
               .ok("pnpm vitest run src/components/__tests__/NavBar.spec.ts", "Tests  2 passed (2)")
               .stop("The spec mounted NavBar without the router, so RouterLink never resolved; it now stubs it with "
                     "`RouterLinkStub`."))
    (candidate,), _ = _candidates(store, session)
    assert "RouterLinkStub" in candidate["change"]


@pytest.mark.parametrize("old, new, error", [
    ('  (is (= 400 (:status resp))))', '  (is (= 200 (:status resp))))', "FAIL in (search-test)\nexpected: 400"),
    ("N = 50_000", "N = 500", "E   Failed: Timeout >10.0s"),
])
def test_a_clojure_assertion_rewritten_or_a_timed_out_test_made_smaller_is_a_weakened_test(git_project, store, old,
                                                                                           new, error):
    session = (Session("shrink", git_project, prompt="make the test pass")
               .fail("pytest tests/test_ingest.py -q", f"Exit code 1\n{error}")
               .edit("tests/test_ingest.py", old, new)
               .ok("pytest tests/test_ingest.py -q", "4 passed in 0.62s")
               .stop("It passes now."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_the_change_the_prompt_asks_for_is_the_task_when_the_failure_had_another_cause(git_project, store):
    session = (Session("asked", git_project, prompt="set the solid queue polling_interval to 0.5 and run the job tests")
               .fail("bin/rails test test/jobs", "Exit code 1\nActiveRecord::ConnectionNotEstablished: connection to "
                     'server at "127.0.0.1", port 5432 failed: Connection refused')
               .edit("config/queue.yml", "      polling_interval: 2", "      polling_interval: 0.5")
               .ok("bin/rails test test/jobs", "14 runs, 38 assertions, 0 failures, 0 errors, 0 skips")
               .stop("polling_interval is 0.5. The first run hit Connection refused while the db container started."))
    assert _candidates(store, session)[0] == []


@pytest.mark.parametrize("failed, passed, change", [
    ("cargo udeps --all-targets", "cargo +nightly udeps --all-targets", ["use `+nightly`"]),
])
def test_a_rustup_toolchain_is_how_cargo_was_run(failed, passed, change):
    assert invocation_change(failed, passed) == change
    assert parse_command(passed)["family"] == parse_command(failed)["family"] == "cargo udeps"


def test_pest_runs_tests_and_a_vitest_workspace_is_a_tools_configuration():
    from lorebook.edits import _TOOL_CONFIG

    assert command_job("vendor/bin/pest tests/Arch") == "test"
    assert _TOOL_CONFIG.search("vitest.workspace.ts") and _TOOL_CONFIG.search("vite.config.ts")


def test_an_import_that_names_expect_asserts_nothing(git_project, store):
    session = (Session("pinia", git_project, prompt="write unit tests for the cart store")
               .write("src/stores/__tests__/cart.spec.ts", "import { describe, it, expect } from 'vitest'\n"
                      "describe('cart', () => {\n  it('totals', () => { expect(useCartStore().total).toBe(900) })\n})\n")
               .fail("pnpm vitest run src/stores", 'Exit code 1\n→ [🍍]: "getActivePinia()" was called but there was no '
                     "active Pinia.")
               .edit("src/stores/__tests__/cart.spec.ts", "import { describe, it, expect } from 'vitest'\n"
                     "describe('cart', () => {",
                     "import { describe, it, expect, beforeEach } from 'vitest'\nimport { setActivePinia, createPinia }"
                     " from 'pinia'\ndescribe('cart', () => {\n  beforeEach(() => { setActivePinia(createPinia()) })")
               .ok("pnpm vitest run src/stores", "Tests  1 passed (1)")
               .stop("Store tests need an active Pinia: `setActivePinia(createPinia())` in beforeEach."))
    (candidate,), _ = _candidates(store, session)
    assert "setActivePinia(createPinia())" in candidate["change"]


@pytest.mark.parametrize("old, new", [
    ("    const total = service.total(items);", "    jest.spyOn(service, 'total').mockReturnValue(21.59);\n"
                                              "    const total = service.total(items);"),
    ("    await sleep(200);", "    await sleep(2000);"),
    # (blind262 JC07: the object under test made a MockK spy and one of its own methods stubbed)
    ("        val service = CartPricingService(rates)\n        val total = service.total(items)",
     "        val service = spyk(CartPricingService(rates))\n        every { service.rate() } returns 0.19\n"
     "        val total = service.total(items)"),
])
def test_the_tested_method_stubbed_or_a_longer_wait_is_a_weakened_test(git_project, store, old, new):
    session = (Session("stub", git_project, prompt="the pricing spec fails")
               .fail("npx jest src/app/cart/cart-pricing.service.spec.ts", "Exit code 1\n    Expected: 21.59\n"
                     "    Received: 21.58\nTests: 1 failed, 3 passed, 4 total")
               .edit("src/app/cart/cart-pricing.service.spec.ts", old, new)
               .ok("npx jest src/app/cart/cart-pricing.service.spec.ts", "Tests:       4 passed, 4 total")
               .stop("The spec passes now."))
    assert _candidates(store, session) == ([], ["weakened_test"])


@pytest.mark.parametrize("sentence, asked", [
    ("sbt assembly is failing and while you're there bump scalafmt to 3.8.3",
     "while you're there bump scalafmt to 3.8.3"),
    ("add a /settings page, and bump CI to go 1.22 while you're at it", "bump CI to go 1.22 while you're at it"),
    ("Also bump the migrate image to 1.14.2 while you're there.", "Also bump the migrate image to 1.14.2 while you're there"),
])
def test_a_request_made_while_there_is_the_clause_that_asks_it(sentence, asked):
    from lorebook.candidates import _asked_while_there

    assert _asked_while_there(sentence) == asked


@pytest.mark.parametrize("steps, account, local", [
    # an old container of the user's held the port: removing it is a one-off
    (["docker rm -f minio-old && docker compose up -d minio"],
     "The failure wasn't code: an old `minio-old` container you had running was holding port 9001.", True),
    (["pkill -f 'node dist/server.js'", "docker compose up -d api"],
     "A stray server from an earlier run was holding port 3000; I killed it.", True),
    # the project's service, recreated: the way the tests need it, not something left over
    (["docker compose rm -f -s db && docker compose up -d db"],
     "The test database needs to be recreated after a schema change.", False),
    # a service that had stopped by itself, started again; and one the tests need, started
    (["docker compose start postgres"], "The Postgres container had simply stopped (probably after a reboot), so I "
                                        "started it again.", True),
    (["docker compose up -d minio"], "The presign tests need the compose MinIO running; it is not started by "
                                     "default.", False),
    # (blind251 IR14: one that had worn into a state a restart clears, restarted)
    (["docker compose restart minio"], "MinIO had been up for three days and had tripped its disk watermark, so it "
                                       "was refusing writes. Restarting the container cleared it.", True),
])
def test_a_stale_container_or_process_cleared_away_is_a_one_off(git_project, store, steps, account, local):
    session = Session("stale", git_project, prompt="the upload test fails").fail(
        "npm test -- presign", "Exit code 1\nError: connect ECONNREFUSED 127.0.0.1:9000\nTests  1 failed (1)")
    for step in steps:
        session = session.ok(step, "Started")
    session = session.ok("npm test -- presign", "Tests  3 passed (3)").stop(account)
    candidates, reasons = _candidates(store, session)
    assert (candidates == [] and reasons == ["local_state"]) if local else len(candidates) == 1


def test_a_process_killed_in_the_passing_line_itself_is_a_one_off(git_project, store):
    session = (Session("killline", git_project, prompt="docker compose up fails, the port is taken")
               .fail("docker compose up -d", "Exit code 1\nError response from daemon: Ports are not available: "
                     "exposing port TCP 0.0.0.0:8000: bind: address already in use")
               .ok("kill 53124 && docker compose up -d", " ✔ Container catalog-api-1    Started")
               .stop("A `uvicorn --reload` started two days ago outside Docker was still listening on 8000. I killed "
                     "it and the stack is up."))
    assert _candidates(store, session) == ([], ["local_state"])


@pytest.mark.parametrize("message, said", [
    ("Done: the broker image now includes the plugin and enables it via `enabled_plugins`. Tests pass.",
     ["The broker image now includes the plugin and enables it via `enabled_plugins`.", "Tests pass."]),
    ("Done — tests pass.", []),  # (a status, and no account after it)
    ("Done.", []),
])
def test_a_status_word_before_the_account_is_dropped_not_the_account(message, said):
    assert stated(message)["all"] == said


def test_lines_put_in_another_order_show_what_moved():
    from lorebook.edits import _diff_text, _short_diff

    hunk = {"old": "    app.migrations.add(CreateTag())\n    app.migrations.add(CreateTodo())\n",
            "new": "    app.migrations.add(CreateTodo())\n    app.migrations.add(CreateTag())\n", "ids": [3]}
    assert _short_diff(hunk) == "move `app.migrations.add(CreateTodo())` before `app.migrations.add(CreateTag())`"
    assert _diff_text("Sources/App/configure.swift", hunk) == (
        "Sources/App/configure.swift:\n+app.migrations.add(CreateTodo()) (moved before `app.migrations.add(CreateTag())`)")


def test_an_environment_or_url_an_option_names_is_where_a_run_goes_not_what_it_checks():
    from lorebook.commands import _same_target

    assert _same_target("atlas migrate diff add_email --dir file://migrations --to ent://ent/schema",
                        "atlas migrate diff add_email --env local")


def test_a_go_directive_is_no_comment():
    from lorebook.edits import _comments_only

    edit = {"tool": "Edit", "body": "-//go:generate go run entgo.io/ent/cmd/ent generate ./schema\n"
                                    "+//go:generate go run entgo.io/ent/cmd/ent generate --feature sql/upsert ./schema"}
    assert not _comments_only(edit)
    assert _comments_only({"tool": "Edit", "body": "-// builds the client\n+// builds the ent client"})


def test_an_alias_of_the_same_program_the_account_names_is_the_way(git_project, store):
    session = (Session("alias", git_project, prompt="I refactored the rate parser in core, please run the tests.")
               .fail("sbt -batch test", "Exit code 1\n[error] (it / Test / test) sbt.TestsFailedException: Tests "
                                        "unsuccessful\n[error] Connection to localhost:5433 refused")
               .ok("grep -n addCommandAlias build.sbt", '88:addCommandAlias("unitTests", ";core/test;api/test")')
               .ok("sbt -batch unitTests", "[info] All tests passed.\n[success] Total time: 21 s")
               .stop("The root `sbt test` also aggregates the `it` module, whose suites need Postgres, so it aborts "
                     "on a laptop. build.sbt defines aliases for this — `sbt unitTests` runs core + api only (what "
                     "I used)."))
    (candidate,), _ = _candidates(store, session)
    assert "sbt -batch unitTests" in candidate["change"]


@pytest.mark.parametrize("passed, runner", [
    ("sops exec-env secrets/billing.enc.env 'terraform -chdir=stacks/billing plan -input=false'",
     "sops exec-env secrets/billing.enc.env"),
    ("op run --env-file=.env.1p -- terraform -chdir=stacks/billing plan -input=false", "op run --env-file=.env.1p --"),
])
def test_a_run_with_secrets_put_in_its_environment_is_the_same_run_through_a_runner(passed, runner):
    assert parse_command(passed)["family"] == "terraform plan"
    assert invocation_change("cd stacks/billing && terraform plan -input=false", passed) == [
        f"run it through `{runner}`"]


def test_a_change_the_account_says_only_traded_the_error_for_another_is_an_attempt(git_project, store):
    helm = "helm upgrade --install api ./charts/api -f charts/api/values-staging.yaml -n staging"
    session = (Session("traded", git_project, prompt="Deploying the api chart fails, can you fix the chart?")
               .fail(helm, "Exit code 1\nError: UPGRADE FAILED: template: api/templates/deployment.yaml:48:32: "
                           "executing at <.Values.resources.limits.cpu>: nil pointer evaluating interface {}.cpu")
               .edit("charts/api/values-staging.yaml", "resources:\n  requests:\n    cpu: 100m",
                     "resources:\n  requests:\n    cpu: 100m\n  limits: {}")
               .fail(helm, "Exit code 1\nError: UPGRADE FAILED: failed to create resource: quantities must match "
                           "the regular expression")
               .edit("charts/api/templates/deployment.yaml", "          limits:\n            cpu: {{ "
                     ".Values.resources.limits.cpu | quote }}", "          {{- with .Values.resources.limits }}\n"
                     "          limits:\n            {{- toYaml . | nindent 12 }}\n          {{- end }}")
               .ok(helm, 'Release "api" has been upgraded. Happy Helming!')
               .stop("The template dereferenced `.Values.resources.limits.cpu` unconditionally. Giving it an empty "
                     "limits map just swapped the nil pointer for an invalid empty quantity; the template now "
                     "renders limits only when they exist (`{{- with .Values.resources.limits }}`)."))
    (candidate,), _ = _candidates(store, session)
    assert "{{- with .Values.resources.limits }}" in candidate["change"]
    assert "limits: {}" not in candidate["change"] + candidate["title"]


def test_a_bump_of_the_packages_own_version_is_no_fix():
    from lorebook.edits import _metadata_only

    bump = {"tool": "Edit", "files": ["/p/package.json"], "body": '-  "version": "0.4.1",\n+  "version": "0.4.2",'}
    assert _metadata_only(bump)
    # (a dependency's version is a pin, and a version in another file may be read by the build)
    assert not _metadata_only(dict(bump, body='-    "vite": "5.2.0",\n+    "vite": "5.2.11",'))
    assert not _metadata_only(dict(bump, files=["/p/Cargo.toml"], body='-version = "1.0.150"\n+version = "1.0.190"'))
    assert _metadata_only({"tool": "Edit", "files": ["/p/meson.build"], "body": "-  version : '0.4.1',\n+  version : '0.4.2',"})
    # (the program's own version as a constant in its code, unless the failure names the value)
    const = {"tool": "Edit", "files": ["/p/internal/version/version.go"],
             "body": '-const Version = "0.8.3"\n+const Version = "0.8.4"'}
    assert _metadata_only(const) and not _metadata_only(const, 'expected "0.8.4", got "0.8.3"')
    assert not _metadata_only({"tool": "Edit", "files": ["/p/r.go"], "body": "-a()\n-b()\n+b()\n+a()"})  # (a reorder)
    # (a descriptive field only of a package's manifest: an alert rule's summary is what its template renders)
    assert _metadata_only({"tool": "Edit", "files": ["/p/pyproject.toml"], "body": '-description = "A"\n+description = "B"'})
    assert not _metadata_only({"tool": "Edit", "files": ["/p/prometheus/rules/api.yml"],
                               "body": '-  summary: "{{ $value | humanizePercent }}"\n+  summary: "{{ $value | '
                                       'humanizePercentage }}"'})
    assert not _metadata_only({"tool": "Edit", "files": ["/p/meson.build"],
                               "body": "-  version : '>=2.56',\n+  version : '>=2.72',"})


def test_an_edit_put_back_with_git_checkout_is_no_change_and_the_way_the_account_gives_is_the_lesson(git_project,
                                                                                                   store):
    session = (Session("putback", git_project, prompt="OrderRepositoryIT is failing on CI, can you run it locally?")
               .fail("mvn -q test -Dtest=OrderRepositoryIT", "Exit code 1\n[ERROR] Failed to execute goal "
                     "org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project orders: No "
                     "tests matching pattern \"OrderRepositoryIT\" were executed!")
               .edit("pom.xml", "<excludes>\n  <exclude>**/*IT.java</exclude>\n</excludes>", "")
               .fail("mvn -q test -Dtest=OrderRepositoryIT", "Exit code 1\n[ERROR] Tests run: 6, Failures: 0, Errors: "
                     "6\norg.springframework.jdbc.CannotGetJdbcConnectionException: Failed to obtain JDBC Connection")
               .ok("git checkout -- pom.xml && git status --short", "")
               .ok("mvn verify -Dit.test=OrderRepositoryIT 2>&1 | tail -3", "[INFO] Tests run: 6, Failures: 0\n"
                   "[INFO] BUILD SUCCESS")
               .stop("The `*IT` classes aren't meant to go through surefire: pom.xml excludes `**/*IT.java` from it, "
                     "and their Postgres container only starts in `pre-integration-test`. Running it through failsafe "
                     "works: `mvn verify -Dit.test=OrderRepositoryIT`. I reverted my experiment with the excludes."))
    (candidate,), _ = _candidates(store, session)
    assert "mvn verify -Dit.test=OrderRepositoryIT" in candidate["change"]
    assert "git checkout" not in candidate["change"] and "pom.xml" not in candidate["files"]
    # (and the stars of a glob in code are no markdown emphasis)
    assert stated("pom.xml excludes `**/*IT.java` from surefire.")["all"] == [
        "pom.xml excludes `**/*IT.java` from surefire."]


def test_a_flag_the_error_names_with_another_value_is_not_what_it_asked_to_pass():
    from lorebook.steps import _named_invocation

    failure = {"target": "zig build", "error_text": "Build Summary: 0/3 steps succeeded; 1 failed (disable with "
                                                    "--summary none)"}
    assert not _named_invocation(failure, {"target": "zig build test --summary all"})
    assert _named_invocation({"target": "deno run main.ts", "error_text": "Requires read access to \"./cfg\", run "
                              "again with the --allow-read flag"}, {"target": "deno run --allow-read main.ts"})


def test_an_exception_a_service_logged_as_it_died_is_the_failure_and_the_line_about_a_withheld_file_leads(
        git_project, store):
    session = (Session("logged", git_project, prompt="the api container can't reach postgres")
               .ok("docker compose logs api --tail 12", "api-1  | [db] connecting...\napi-1  | Error: connect "
                                                        "ECONNREFUSED 127.0.0.1:5432\napi-1  |   errno: -111,")
               .edit(".env", "DATABASE_URL=postgres://quay@localhost:5432/quay",
                     "DATABASE_URL=postgres://quay@db:5432/quay")
               .ok("docker compose up -d api", " ✔ Container quay-api-1  Started")
               .ok("sleep 3 && docker compose logs api --tail 3", "api-1  | [db] connecting...\napi-1  | listening "
                                                                   "on :3000")
               .stop("Inside the api container, `localhost` is the container itself, so `DATABASE_URL` pointing at "
                     "localhost:5432 got ECONNREFUSED. I changed the host to the compose service name in `.env` "
                     "(`...@db:5432/quay`); the api now starts."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["summary"].startswith("Changed the host to the compose service name in `.env` (`...@db:5432")


def test_a_trailing_comment_changed_on_a_line_whose_code_stayed_is_no_fix():
    from lorebook.edits import _comments_only, _trailing_comments_only

    def edit(old, new):
        return {"tool": "Edit", "body": f"-{old}\n+{new}"}

    assert _comments_only(edit("dist:   ## make a tarball", "dist:   ## Build the release tarball"))
    assert _trailing_comments_only(edit("dist:   ## make a tarball", "dist:   ## Build the release tarball"))
    assert not _comments_only(edit("x = foo()  # type: ignore", "x = foo()"))  # (a directive a checker reads)
    assert not _comments_only(edit("retries: 3  # per host", "retries: 5  # per host"))
    assert not _comments_only(edit('color: "#fff"', 'color: "#000"'))


def test_a_value_made_longer_is_no_typo_when_what_was_not_found_is_something_else(git_project, store):
    session = (Session("triple", git_project, prompt="make cross for arm64 is broken")
               .fail("make cross TARGET=aarch64-linux-gnu", "Exit code 2\nzig cc -target aarch64-linux-gnu -O2 -c "
                     "src/entropy.c\nsrc/entropy.c:4:10: fatal error: 'sys/random.h' file not found")
               .ok("make cross TARGET=aarch64-linux-gnu.2.28", "zig cc -target aarch64-linux-gnu.2.28 -O2 -c src/main.c")
               .stop("Without a version suffix zig cc targets an old default glibc whose headers predate "
                     "`sys/random.h`: `make cross TARGET=aarch64-linux-gnu.2.28` works."))
    (candidate,), _ = _candidates(store, session)
    assert "TARGET=aarch64-linux-gnu.2.28" in candidate["change"]


def test_a_panic_through_a_pipe_is_a_failure_and_a_backtrace_variable_is_no_fix(git_project, store):
    from lorebook.steps import _through_pipe

    piped = {"tool": "Bash", "outcome": "ok", "target": "RUST_BACKTRACE=1 cargo nextest run api_keys 2>&1 | grep -m3 "
             "-n panicked", "body": "41:thread 'creates_key' panicked at tests/api_keys.rs:21:10:"}
    assert _through_pipe(piped)["outcome"] == "error"
    assert invocation_change("cargo nextest run api_keys", "RUST_BACKTRACE=1 cargo nextest run api_keys") == []


def test_one_of_two_failing_test_files_passing_alone_is_no_pass_of_the_run(git_project, store):
    session = (Session("subset", git_project, prompt="The e2e suite is red on my machine, can you look?")
               .fail("npx playwright test", "Exit code 1\nRunning 24 tests using 4 workers\n  ✘  7 [chromium] › "
                     "tests/cart.spec.ts:18:7 › cart › removes last item\n  ✘ 12 [chromium] › tests/checkout.spec.ts"
                     ":31:7 › checkout › applies coupon\n  2 failed\n  22 passed")
               .ok("npx playwright test tests/cart.spec.ts", "Running 4 tests using 1 worker\n  4 passed (7.9s)")
               .ok("npx playwright test --workers=1", "Running 24 tests using 1 worker\n  24 passed (1.4m)")
               .stop("The tests share one seeded user, so running them in parallel leaks cart items from one test "
                     "into another; `--workers=1` passes."))
    (candidate,), _ = _candidates(store, session)
    assert "--workers=1" in candidate["change"]


@pytest.mark.parametrize("old, new", [
    ("        vm.assume(assets > 0);", "        vm.assume(assets > 0);\n        vm.assume(assets < 1e30);"),
    ("        uint256 x = seed;", "        uint256 x = seed;\n        x = bound(x, 1, 1e24);"),
])
def test_a_fuzzed_input_kept_away_from_what_broke_the_code_is_a_weakened_test(git_project, store, old, new):
    session = (Session("assume", git_project, prompt="testFuzz_redeemRoundTrip fails with an overflow")
               .fail("forge test --match-contract VaultTest", "Exit code 1\n[FAIL: panic: arithmetic underflow or "
                     "overflow (0x11); counterexample: args=[6277101735386680763835789423207666416102355444464034512896]]"
                     " testFuzz_redeemRoundTrip(uint256)")
               .edit("test/Vault.t.sol", old, new)
               .ok("forge test --match-contract VaultTest", "[PASS] testFuzz_redeemRoundTrip(uint256) (runs: 256)")
               .stop("Constrained the fuzz input to a realistic range so the round-trip property is checked over "
                     "meaningful values."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_url_a_run_is_given_is_part_of_how_it_was_run():
    assert invocation_change("papermill nb.ipynb out.ipynb -p db_url 'postgres://analyst@db:5432/w'",
                             "papermill nb.ipynb out.ipynb -p db_url 'postgresql+psycopg2://analyst@db:5432/w'") == [
        "pass `postgresql+psycopg2://analyst@db:5432/w`", "without `postgres://analyst@db:5432/w`"]


def test_an_edit_over_an_earlier_change_and_the_lines_by_it_nets_from_the_original():
    from lorebook.edits import net_changes

    edits = [{"id": 1, "tool": "Edit", "files": ["/p/t.ps1"], "body": "-. \"$here/../src/a.ps1\"\n+. (Join-Path $PSScriptRoot '../src/a.ps1')"},
             {"id": 2, "tool": "Edit", "files": ["/p/t.ps1"],
              "body": "-. (Join-Path $PSScriptRoot '../src/a.ps1')\n-\n-Describe 'a' {\n+Describe 'a' {"}]
    (hunk,) = net_changes(edits, "/p")["t.ps1"]
    assert "Join-Path" not in hunk["old"] + hunk["new"] and hunk["ids"] == [1, 2]


def test_autotools_generated_configure_and_a_step_before_the_last_that_passed(git_project, store):
    from lorebook.record import scaffolding

    session = (Session("autogen", git_project, prompt="set up the build")
               .fail("./configure", "Exit code 127\nbash: ./configure: No such file or directory")
               .ok("./autogen.sh", "autoreconf: Entering directory '.'")
               .ok("./configure --quiet && echo configured", "configured")
               .stop("Configured."))
    (candidate,), _ = _candidates(store, session)
    assert "./autogen.sh" in candidate["change"] and "without" not in candidate["change"]
    # (a conditional that tests a call is the change, a comment in words is not)
    assert not scaffolding('+    if (setlocale(LC_CTYPE, "C.UTF-8") == NULL) {')
    assert scaffolding("+    /* mbrtowc/wcwidth need a UTF-8 LC_CTYPE; don't inherit it */")


def test_the_users_diagnosis_is_the_cause_when_the_agent_only_says_what_it_did(git_project, store):
    session = (Session("bus", git_project, prompt="hdrtool crashes with a bus error on armv7. I'm pretty sure it's the "
                                                   "unaligned uint32_t read in read_header.")
               .fail("./build/hdrtool inspect samples/v2.bin", "Exit code 135\nBus error (core dumped)")
               .edit("src/header.c", "    h->length = *(const uint32_t *)(buf + 3);",
                     "    uint32_t length;\n    memcpy(&length, buf + 3, sizeof length);\n    h->length = length;")
               .ok("./build/hdrtool inspect samples/v2.bin", "magic: HDR2  length: 4096")
               .stop("Done: read_header now memcpy's the length field instead of casting the pointer."))
    (candidate,), _ = _candidates(store, session)
    assert "unaligned uint32_t read" in candidate["summary"]
    assert "read_header now memcpy's" in candidate["summary"]  # (an identifier keeps its case)


def test_a_line_closed_by_a_check_mark_is_a_checklist_not_an_account():
    assert stated("- `./gradlew :composeApp:desktopTest` ✅\n- `swift test` ✅ 11 passed")["all"] == []


def test_a_preset_is_an_options_value_not_a_target():
    from lorebook.commands import _same_target

    assert _same_target("cmake --preset release", "cmake --preset conan-release")
    # (a test run's preset picks which tests run: another preset is another check)
    assert not _same_target("ctest --preset ci", "ctest --test-dir out/build/dev")
    assert invocation_change("cmake --preset release", "cmake --preset conan-release") == [
        "pass `--preset conan-release`"]


def test_a_document_is_named_by_its_name_not_by_its_stem_in_a_path(git_project, store):
    session = (Session("docstem", git_project, prompt="The job specs fail with an ArgumentError; please fix.")
               .fail("bundle exec rspec spec/jobs", "Exit code 1\n     ArgumentError:\n       Job arguments to ReportJob "
                     "must be native JSON types, but :daily is a Symbol.")
               .edit("app/services/nightly_rollup.rb", "ReportJob.perform_async(account.id, :daily)",
                     'ReportJob.perform_async(account.id, "daily")')
               .edit("docs/jobs.md", "Jobs are enqued from services.", "Jobs are enqueued from services.")
               .ok("bundle exec rspec spec/jobs", "4 examples, 0 failures")
               .stop("Sidekiq 7 enforces JSON-native job arguments, so the `:daily` symbol raised; it is a string now."))
    (candidate,), _ = _candidates(store, session)
    assert "docs/jobs.md" not in candidate["files"] and "enqueued" not in candidate["change"]


def test_the_repos_way_the_account_names_is_the_way(git_project, store):
    session = (Session("repoway", git_project, prompt="Can you run the molecule tests for the nginx role?")
               .fail("cd roles/nginx && molecule test", "Exit code 1\nCRITICAL 'molecule/default/molecule.yml' glob "
                     "failed.  Exiting.")
               .ok("make molecule ROLE=nginx 2>&1 | tail -3", "PLAY RECAP *****\ninstance : ok=12 changed=0 failed=0")
               .stop("Plain `molecule test` can't work from inside the role. The repo's way (CONTRIBUTING.md) is "
                     "`make molecule ROLE=nginx`, which sets the roles path."))
    (candidate,), _ = _candidates(store, session)
    assert "make molecule ROLE=nginx" in candidate["change"]


def test_a_first_step_that_got_past_one_error_is_no_attempt_that_did_not_help(git_project, store):
    session = (Session("further", git_project, prompt="make the frontend package build offline")
               .fail("nix build .#frontend", "Exit code 1\nfrontend> npm error code EAI_AGAIN\nerror: builder for "
                     "'/nix/store/abc-frontend.drv' failed with exit code 1")
               .write("nix/frontend.nix", "{ buildNpmPackage }:\nbuildNpmPackage {\n  pname = \"frontend\";\n"
                      "  src = ../frontend;\n  npmDepsHash = lib.fakeHash;\n}\n")
               .fail("nix build .#frontend", "Exit code 1\nerror: hash mismatch in fixed-output derivation "
                     "'/nix/store/x1c-frontend-npm-deps.drv'")
               .edit("nix/frontend.nix", "  npmDepsHash = lib.fakeHash;", '  npmDepsHash = "sha256-Qm2bR8tV5yX1=";')
               .ok("nix build .#frontend", "")
               .stop("Rewrote `nix/frontend.nix` with `buildNpmPackage`, pinned by `npmDepsHash`."))
    (candidate,), _ = _candidates(store, session)
    assert not any("buildNpmPackage" in (e.get("quote") or "") and "tried" in (e.get("quote") or "")
                   for e in candidate["evidence"])


def test_the_case_a_test_tests_given_other_values_is_a_weakened_test(git_project, store):
    session = (Session("leap", git_project, prompt="test_next_period_end_leap_day fails, please fix")
               .fail("poetry run pytest tests/test_billing.py -q", "Exit code 1\nE   ValueError: day is out of range for "
                     "month\nFAILED tests/test_billing.py::test_next_period_end_leap_day")
               .edit("tests/test_billing.py", '@freeze_time("2024-02-29")\ndef test_next_period_end_leap_day():',
                     '@freeze_time("2024-02-28")\ndef test_next_period_end_leap_day():')
               .ok("poetry run pytest tests/test_billing.py -q", "8 passed in 0.38s")
               .stop("The test froze time on 2024-02-29, which isn't a realistic start date, so I moved it to "
                     "2024-02-28."))
    assert _candidates(store, session) == ([], ["weakened_test"])
    # (a version in a test project's manifest is a pin, not the case tested)
    from lorebook.weakening import _values_only

    assert not _values_only({"tests/Api.Tests/Api.Tests.fsproj": [{"old": '<PackageReference Include="FSharp.Core" '
                                                                          'Version="8.0.100" />',
                                                                   "new": '<PackageReference Include="FSharp.Core" '
                                                                          'Version="8.0.400" />', "ids": [1]}]})


def test_the_recipe_line_a_failing_make_target_echoed_passing_resolves_it(git_project, store):
    session = (Session("recipe", git_project, prompt="make dev fails at the migration step")
               .fail("make dev", "Exit code 2\ncd backend && uv run alembic upgrade head\nERROR [alembic.util.messaging] "
                     "Multiple head revisions are present for given argument 'head'\nmake: *** [Makefile:12: migrate] "
                     "Error 255")
               .ok("cd backend && uv run alembic merge heads -m \"merge main\"", "Generating versions/e0a4_merge.py")
               .ok("cd backend && uv run alembic upgrade head", "INFO  [alembic.runtime.migration] Running upgrade")
               .stop("Main and your branch each added an Alembic revision on the same parent; `alembic merge heads` "
                     "made a merge revision and `alembic upgrade head` works again."))
    (candidate,), _ = _candidates(store, session)
    assert "alembic merge heads" in candidate["change"] and "run it from" not in candidate["change"]
    from lorebook.record import scaffolding

    assert scaffolding("+}));")  # (a line that only closes brackets says nothing of its own)


def test_a_trailing_exit_with_the_pipes_status_is_no_check():
    assert parse_command("docker build -t ingest:dev . 2>&1 | tail -30; exit ${PIPESTATUS[0]}")["check"] == \
        "docker build -t ingest:dev ."


def test_a_step_before_a_look_in_the_same_line_is_a_change_when_the_account_quotes_it(git_project, store):
    session = (Session("prepstep", git_project, prompt="the JS build is red")
               .fail("yarn build", "Exit code 1\n✘ [ERROR] Could not resolve \"@hotwired/stimulus-loading\"")
               .ok("bin/rails stimulus:manifest:update && head -3 app/javascript/controllers/index.js",
                   "// This file is auto-generated by ./bin/rails stimulus:manifest:update")
               .ok("yarn build", "Done in 0.41s.")
               .stop("`controllers/index.js` still used the importmap loader; I regenerated it with "
                     "`bin/rails stimulus:manifest:update`."))
    (candidate,), _ = _candidates(store, session)
    assert "stimulus:manifest:update" in candidate["change"]


def test_cmakes_build_directory_is_no_target_and_listing_presets_runs_nothing():
    from lorebook.commands import _asks_version, _targets

    assert _targets("cmake --build build -j8") == [] and _targets("docker compose up --build api") == ["api"]
    assert _asks_version("cmake --list-presets")


def test_the_failing_case_taken_out_of_a_parametrize_list_is_a_weakened_test(git_project, store):
    session = (Session("param", git_project, prompt="test_forward_matches_reference fails for bf16, please fix")
               .fail("uv run pytest tests/test_encoder.py -q -k forward_matches", "Exit code 1\n___ "
                     "test_forward_matches_reference[bf16-mixed] ___\nE   AssertionError: Tensor-likes are not close!")
               .edit("tests/test_encoder.py", '@pytest.mark.parametrize("precision", ["32-true", "16-mixed", '
                     '"bf16-mixed"])', '@pytest.mark.parametrize("precision", ["32-true", "16-mixed"])')
               .ok("uv run pytest tests/test_encoder.py -q", "14 passed in 10.02s")
               .stop("bf16 has only 8 mantissa bits, so comparing it to the fp32 reference isn't meaningful; I limited "
                     "the comparison to 32-true and 16-mixed."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_value_in_the_tests_setup_put_right_is_a_fix(git_project, store):
    session = (Session("setupvalue", git_project, prompt="tests/test_fetch.py times out")
               .fail("uv run pytest tests/test_fetch.py -q", "Exit code 1\nE   httpx.ReadTimeout: timed out")
               .edit("tests/conftest.py", '    with respx.mock(base_url="https://api.invoicer.io") as mock:',
                     '    with respx.mock(base_url="https://api.invoicer.io/v2") as mock:')
               .ok("uv run pytest tests/test_fetch.py -q", "3 passed in 0.21s")
               .stop("The client calls `https://api.invoicer.io/v2/...`, but the respx fixture mocked the host "
                     "without `/v2`, so requests went to the real host."))
    (candidate,), _ = _candidates(store, session)
    assert 'base_url="https://api.invoicer.io/v2"' in candidate["change"]


def test_sbts_test_tasks_run_tests_and_the_whole_test_task_covers_one_spec():
    from lorebook.commands import _same_target

    assert command_job("sbt 'testOnly controllers.ReportSpec'") == "test" == command_job("sbt it:test")
    assert _same_target("sbt 'testOnly controllers.ReportSpec'", "sbt test")
    assert not _same_target("sbt 'testOnly controllers.ReportSpec'", "sbt 'testOnly models.UserSpec'")


def test_a_binary_picked_by_name_is_no_target_and_a_workspace_package_is_the_fix(git_project, store):
    from lorebook.commands import _same_target

    assert _same_target("cargo run --bin lint -- check docs/", "cargo run -p lint-cli -- check docs/")
    session = (Session("bin", git_project, prompt="cargo run --bin lint broke after the workspace split")
               .fail("cargo run --bin lint -- check docs/", "Exit code 101\nerror: no bin target named `lint` in "
                                                            "default-run packages")
               .ok("cargo run -p lint-cli -- check docs/", "checked 12 files, 0 warnings")
               .stop("The root is a virtual workspace now: name the package, `cargo run -p lint-cli -- check docs/`."))
    (candidate,), _ = _candidates(store, session)
    assert "-p lint-cli" in candidate["title"]


def test_a_package_script_named_for_the_failing_subcommand_is_the_way_the_account_gives(git_project, store):
    session = (Session("script", git_project, prompt="add a column and create the migration")
               .fail("npx drizzle-kit migrate", "Exit code 1\nError: DATABASE_URL is not set")
               .ok("pnpm db:migrate", "[✓] migrations applied successfully!")
               .stop("Bare `npx drizzle-kit` reads no env file; migrations have to go through `pnpm db:migrate`, "
                     "which loads `.env.local`."))
    (candidate,), _ = _candidates(store, session)
    assert "`pnpm db:migrate`" in candidate["change"] and candidate["kind"] == "pattern"


def test_a_container_that_had_been_killed_and_was_started_again_is_local_state(git_project, store):
    session = (Session("killed", git_project, prompt="flyway migrate fails locally")
               .fail("flyway migrate", "Exit code 1\nERROR: Unable to obtain connection: Connection refused")
               .ok("docker start orders-mysql", "orders-mysql")
               .ok("flyway migrate", "Successfully applied 2 migrations")
               .stop("The MySQL container had been killed (exit 137); `docker start orders-mysql` brought it back."))
    assert _candidates(store, session)[0] == []


def test_a_container_that_had_died_started_in_the_passing_line_is_local_state(git_project, store):
    # (blind200 GS20: the listing's ``Exited (137)`` resolved by ``docker compose start tikv && … ps tikv`` was kept as
    # a fix, "run `docker compose start tikv` first")
    session = (Session("died", git_project, prompt="The integration tests can't talk to TiDB anymore")
               .ok("docker compose ps -a",
                   "NAME            IMAGE                 SERVICE   STATUS\n"
                   "orders-tidb-1   pingcap/tidb:v7.5.1   tidb      Up 3 days\n"
                   "orders-tikv-1   pingcap/tikv:v7.5.1   tikv      Exited (137) 9 hours ago")
               .ok("docker compose start tikv && sleep 10 && docker compose ps tikv",
                   "NAME            IMAGE                 SERVICE   STATUS\n"
                   "orders-tikv-1   pingcap/tikv:v7.5.1   tikv      Up 10 seconds")
               .stop("The TiKV container had died overnight (exit 137), so every write returned `Region is "
                     "unavailable`. Started it again."))
    assert _candidates(store, session)[0] == []


def test_asking_a_tool_its_version_in_an_and_line_runs_nothing_it_failed_at(git_project, store):
    session = (Session("version", git_project, prompt="dbmate up fails against staging")
               .fail("set -a && source .env.staging && dbmate up", "Exit code 1\nError: pq: no pg_hba.conf entry for "
                                                                   "host \"10.0.0.7\", no encryption")
               .ok("dbmate --version && ls db/migrations", "dbmate version 2.16.0\n001_init.sql")
               .edit(".env.staging", "DATABASE_URL=postgres://app@db:5432/app?sslmode=disable",
                     "DATABASE_URL=postgres://app@db:5432/app?sslmode=require")
               .ok("set -a && source .env.staging && dbmate up", "Applied: 002_memo.sql")
               .stop("Staging only accepts encrypted connections: `sslmode=require` in `.env.staging`. Side note: the "
                     "password sits in that file in plain text; worth moving it to the secrets manager."))
    (candidate,), _ = _candidates(store, session)
    assert "--version" not in candidate["title"] + candidate["change"]
    assert "plain text" not in candidate["summary"]


def test_another_maven_test_passing_is_not_the_failing_one_and_a_grepped_run_is_no_verdict(git_project, store):
    from lorebook.commands import _same_target

    assert not _same_target("./mvnw -q verify -Dit.test=HistoryIT", "./mvnw verify -Dit.test=InvoiceIT")
    assert _same_target("./mvnw -q verify -Dit.test=HistoryIT", "./mvnw verify")
    assert not _same_target("mvn -q -pl payments test -Dtest=RefundTest", "mvn -q -pl payments compile")
    from lorebook.signatures import error_signature

    line = "/src/App/Views/A.axaml(14,24): error AVLN2100: Cannot parse a compiled binding."
    assert error_signature(line) == error_signature(line + " [/src/App/App.csproj]")
    session = (Session("it", git_project, prompt="the new history IT fails")
               .fail("./mvnw -q verify -Dit.test=HistoryIT", "Exit code 1\nPSQLException: ERROR: relation \"history\" "
                                                             "does not exist")
               .ok("./mvnw verify -Dit.test=InvoiceIT 2>&1 | grep 'Tests run'", "Tests run: 5, Failures: 0, Errors: 0")
               .ok("./mvnw verify -Dit.test=HistoryIT 2>&1 | grep -i liquibase", "INFO liquibase.changelog : "
                                                                                  "Context mismatch: 1")
               .edit("src/main/resources/db/changelog/changes/0042-history.yaml",
                     "      author: jli\n      context: dev\n      changes:", "      author: jli\n      changes:")
               .ok("./mvnw verify -Dit.test=HistoryIT 2>&1 | tail -3", "Tests run: 2, Failures: 0, Errors: 0\n"
                                                                        "BUILD SUCCESS")
               .stop("The changeset was tagged `context: dev`, and the IT profile runs Liquibase with `contexts: "
                     "test`: removed the context from changeset 0042-1."))
    (candidate,), _ = _candidates(store, session)
    assert "context: dev" in candidate["change"] and "InvoiceIT" not in candidate["title"] + candidate["change"]


def test_a_ci_pipelines_file_is_no_fix_for_a_check_run_here(git_project, store):
    session = (Session("circle", git_project, prompt="the dag-integrity job fails after the Airflow 3 upgrade")
               .fail("uv run pytest tests/test_dags.py -q", "Exit code 1\nTypeError: DAG.__init__() got an unexpected "
                                                            "keyword argument 'schedule_interval'")
               .edit(".circleci/config.yml", "    resource_class: medium", "    resource_class: large")
               .edit("dags/nightly.py", '    schedule_interval="0 3 * * *",', '    schedule="0 3 * * *",')
               .ok("uv run pytest tests/test_dags.py -q", "6 passed in 3.2s")
               .stop("Airflow 3 dropped `schedule_interval`; the DAG uses `schedule=` now. I also bumped the job to "
                     "`resource_class: large` since it was close to its memory limit."))
    (candidate,), _ = _candidates(store, session)
    assert 'schedule="0 3 * * *"' in candidate["change"] and "resource_class" not in candidate["change"]
    lint = (Session("actionlint", git_project, prompt="actionlint fails")
            .fail("actionlint", "Exit code 1\n.github/workflows/ci.yml:12:9: unknown key \"run-on\"")
            .edit(".github/workflows/ci.yml", "    run-on: ubuntu-latest", "    runs-on: ubuntu-latest")
            .ok("actionlint", "")
            .stop("Typo in the key: `runs-on`."))
    (candidate,), _ = _candidates(store, lint)
    assert "runs-on: ubuntu-latest" in candidate["change"]


def test_a_test_left_out_of_the_race_build_and_the_race_flag_dropped_are_weakened_checks(git_project, store):
    session = (Session("race", git_project, prompt="the race job is red on the metrics package")
               .fail("go test -race ./internal/metrics/...", "Exit code 1\n==================\nWARNING: DATA RACE\n"
                                                             "--- FAIL: TestCounterConcurrent (0.01s)")
               .edit("internal/metrics/counter_test.go", "package metrics", "//go:build !race\n\npackage metrics")
               .ok("go test -race ./internal/metrics/...", "?   \tgithub.com/acme/edge/internal/metrics\t[no test files]")
               .ok("go test ./internal/metrics/...", "ok  \tgithub.com/acme/edge/internal/metrics\t0.012s")
               .stop("The race job is green: the concurrent test is excluded from race builds with `//go:build !race`."))
    assert _candidates(store, session)[0] == []


def test_a_c_version_define_is_metadata_beside_the_fix(git_project, store):
    session = (Session("define", git_project, prompt="the build fails to link")
               .fail("make -j8", "Exit code 2\n/usr/bin/ld: pool.o: undefined reference to `pthread_create'\n"
                                 "collect2: error: ld returned 1 exit status")
               .edit("include/version.h", '#define APP_VERSION "0.9.2"', '#define APP_VERSION "0.9.3"')
               .edit("Makefile", "LDLIBS ?=", "LDLIBS ?= -pthread")
               .ok("make -j8", "cc -o app main.o pool.o -pthread")
               .stop("The thread pool needs `-pthread` when linking; added it to LDLIBS. Bumped the version to 0.9.3."))
    (candidate,), _ = _candidates(store, session)
    assert "-pthread" in candidate["change"] and "0.9.3" not in candidate["change"]


def test_another_look_at_a_ci_log_before_any_edit_is_no_pass(git_project, store):
    failed = "test\tRun tests\t2026-11-18T09:12:44.1Z E   psycopg.OperationalError: connection refused\n" \
             "test\tRun tests\t2026-11-18T09:12:44.2Z ##[error]Process completed with exit code 1."
    session = (Session("ci-look", git_project, prompt="CI tests fail since the slim-image change")
               .ok("gh run view 118 --log-failed | tail -20", failed)
               .ok("gh run view 117 --log | grep -m3 -i postgres", "test\tInit\t2026-11-13T14:02:10.4Z docker create "
                                                                  "--name postgres16")
               .edit(".github/workflows/ci.yml", "      DATABASE_URL: postgres://app@localhost:5432/app_test",
                     "      DATABASE_URL: postgres://app@postgres:5432/app_test")
               .ok("gh run watch 120 --exit-status", "✓ ci/fix-db-host CI · 120")
               .stop("Inside the job container the database is reached by its service name: `@postgres:5432`."))
    (candidate,), _ = _candidates(store, session)
    assert "@postgres:5432/app_test" in candidate["change"] and "--log" not in candidate["title"]


def test_a_setting_the_account_quotes_stays_beside_an_install(git_project, store):
    session = (Session("jsdom", git_project, prompt="the ui package's tests fail")
               .fail("npm run test -w packages/ui", "Exit code 1\nReferenceError: document is not defined")
               .ok("npm install -D happy-dom -w packages/ui", "added 12 packages")
               .edit("packages/ui/vitest.config.ts", "  test: {\n    globals: true,",
                     "  test: {\n    environment: 'happy-dom',\n    globals: true,")
               .ok("npm run test -w packages/ui", "Tests  2 passed (2)")
               .stop("Vitest runs in `node` by default, with no DOM. Added `happy-dom` and set `environment: "
                     "'happy-dom'` in the package's vitest.config.ts."))
    (candidate,), _ = _candidates(store, session)
    assert "environment: 'happy-dom'" in candidate["change"]


def test_a_flag_after_execute_is_no_inline_code():
    from lorebook.commands import _same_target

    run = "jupyter nbconvert --to notebook --execute {}notebooks/report.ipynb --output out.ipynb"
    assert _same_target(run.format(""), run.format("--ExecutePreprocessor.kernel_name=python3 "))
    assert not _same_target("psql -c 'SHOW wal_level'", "psql -c 'SELECT 1'")


def test_an_aside_inside_the_fix_sentence_leaves_the_fix_and_the_title_to_the_rest(git_project, store):
    session = (Session("turbo", git_project)
               .ok("rm -rf packages/*/dist apps/*/.next && echo cleaned", "cleaned")
               .fail("pnpm turbo run build --force", "Exit code 1\n@acme/ui:build: src/theme.ts(1,30): error TS2307: "
                                                     "Cannot find module '@acme/tokens'")
               .edit("turbo.json", '"build": {\n  "outputs": ["dist/**"]\n}',
                     '"build": {\n  "outputs": ["dist/**", ".next/**"],\n  "dependsOn": ["^build"]\n}')
               .ok("rm -rf packages/*/dist && pnpm turbo run build --force", "Tasks: 4 successful, 4 total")
               .stop("The `build` task had no `dependsOn`, so ui built before tokens. I added `\"dependsOn\": "
                     "[\"^build\"]`, and included `.next/**` in the outputs while I was there."))
    (candidate,), _ = _candidates(store, session)
    assert '"dependsOn": ["^build"]' in candidate["title"] and ".next" not in candidate["title"]
    assert "rm -rf" not in candidate["change"]  # (the clean-up was in place before it failed: no step of the fix)


def test_a_label_that_calls_what_follows_unrelated_keeps_it_out_of_the_account():
    said = stated("Replaced `jsonwebtoken` with `jwt-decode`. Unrelated: `npm run typecheck` in the dashboard already "
                  "fails on an unused arg in `Chart.stories.tsx`, because nobody ran it.")
    # (whole, the sentence stays by the by: the candidates leave it out; cut at its colon, it read as the cause)
    assert [s for s in said["all"] if "typecheck" in s] == [
        "Unrelated: `npm run typecheck` in the dashboard already fails on an unused arg in `Chart.stories.tsx`, "
        "because nobody ran it."]


def test_a_failing_test_file_excluded_in_the_runner_settings_is_weakened(git_project, store):
    session = (Session("exclude", git_project)
               .fail("pnpm test", "Exit code 1\n ❯ src/format/currency.test.ts (9 tests | 1 failed) 11ms\n"
                                  "   × formatCurrency > formats negative EUR amounts 4ms")
               .edit("vitest.config.ts", "    include: ['src/**/*.test.ts'],",
                     "    include: ['src/**/*.test.ts'],\n"
                     "    exclude: [...configDefaults.exclude, 'src/format/currency.test.ts'],")
               .ok("pnpm test", "Test Files  2 passed (2)")
               .stop("`pnpm test` is green: I took that file out of the unit run in `vitest.config.ts`."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes


def test_a_ci_run_listed_green_under_its_header_has_passed(git_project, store):
    session = (Session("ci-list", git_project)
               .ok("gh run view 9981 --log-failed", "web\tSetup Node\t2024-07-16T09:12:41.44Z ##[error]Unable to "
                                                   "locate executable file: pnpm.")
               .edit(".github/workflows/ci.yml", "      - name: Setup Node",
                     "      - uses: pnpm/action-setup@v4\n      - name: Setup Node")
               .ok("git push -q && sleep 120 && gh run list --branch main --limit 1",
                   "STATUS  TITLE              WORKFLOW  BRANCH  EVENT  ID    ELAPSED  AGE\n"
                   "✓       ci: install pnpm   ci        main    push   9983  2m05s    now")
               .stop("`actions/setup-node` with `cache: pnpm` needs pnpm on the PATH, so `pnpm/action-setup@v4` "
                     "has to run before it."))
    (candidate,), _ = _candidates(store, session)
    assert "pnpm/action-setup@v4" in candidate["change"]


def test_an_import_tried_inline_and_never_again_is_checked_by_the_tests_unverified(git_project, store):
    session = (Session("import", git_project)
               .fail("uv run python -c 'import app.main'", "Exit code 1\nTraceback (most recent call last):\n"
                                                            '  File "/home/dev/svc/app/config.py", line 1, in <module>\n'
                                                            "pydantic.errors.PydanticImportError: "
                                                            "`BaseSettings` has been moved to the `pydantic-settings` "
                                                            "package.")
               .ok("uv add pydantic-settings", "+ pydantic-settings==2.2.1")
               .edit("app/config.py", "from pydantic import BaseSettings", "from pydantic_settings import BaseSettings")
               .ok("uv run pytest -q", "24 passed in 1.88s")
               .stop("Pydantic 2 moved `BaseSettings` into its own package: added `pydantic-settings` and changed the "
                     "import to `from pydantic_settings import BaseSettings`."))
    (candidate,), _ = _candidates(store, session)
    assert "from pydantic_settings import BaseSettings" in candidate["change"]
    assert "not rerun" in " ".join(candidate["validation"]["not_performed"])


def test_the_task_a_convention_replaces_named_alone_is_the_failing_run(git_project, store):
    session = (Session("unit", git_project)
               .fail("./gradlew :billing:test", "Exit code 1\nInvoiceRepositoryIT > initializationError FAILED\n"
                                                "    java.lang.IllegalStateException at DockerClientProviderStrategy")
               .ok("./gradlew :billing:unitTest", "BUILD SUCCESSFUL")
               .stop("`test` also runs the Testcontainers ITs, which need Docker. The module has a `unitTest` task "
                     "that excludes them — `./gradlew :billing:unitTest` passes."))
    (candidate,), _ = _candidates(store, session)
    assert "./gradlew :billing:unitTest" in candidate["title"]


def test_a_line_a_failed_attempt_added_and_left_in_place_is_no_part_of_the_change(git_project, store):
    session = (Session("nginx", git_project)
               .fail("curl -fsS http://localhost:8080/api/v1/health", "Exit code 22\ncurl: (22) The requested URL "
                                                                    "returned error: 404")
               .edit("deploy/api.conf", "location /api/ {\n    proxy_pass http://api_upstream/;",
                     "location /api/ {\n    proxy_set_header Host $host;\n    proxy_pass http://api_upstream/;")
               .fail("curl -fsS http://localhost:8080/api/v1/health", "Exit code 22\ncurl: (22) The requested URL "
                                                                    "returned error: 404")
               .edit("deploy/api.conf", "    proxy_pass http://api_upstream/;", "    proxy_pass http://api_upstream;")
               .ok("curl -fsS http://localhost:8080/api/v1/health", '{"status":"ok"}')
               .stop("The trailing slash in `proxy_pass` replaced the matched `/api/` prefix. Without it, `proxy_pass "
                     "http://api_upstream;` passes the path through. The Host header I added first made no "
                     "difference."))
    (candidate,), _ = _candidates(store, session)
    assert "+proxy_pass http://api_upstream;" in candidate["change"]
    assert "+proxy_set_header" not in candidate["change"]


def test_a_property_tests_strategy_narrowed_to_a_range_is_weakened(git_project, store):
    session = (Session("proptest", git_project)
               .fail("cargo test -p quota", "Exit code 101\nthread 'bucket::tests::prop_tokens' panicked at "
                                            "src/bucket.rs:41:9:\nattempt to multiply with overflow")
               .edit("src/bucket.rs",
                     "        fn prop_tokens(rate in any::<u32>(), elapsed_ms in any::<u32>()) {",
                     "        fn prop_tokens(rate in 1u32..=10_000, elapsed_ms in 0u32..=60_000) {")
               .ok("cargo test -p quota", "test result: ok. 9 passed")
               .stop("Constrained the strategies to realistic ranges; `cargo test -p quota` is green."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes


def test_the_way_and_what_did_not_help_said_in_one_sentence_are_two_statements():
    said = stated("Init has to be run as `terraform init -backend-config=../../backend/staging.hcl` from "
                  "`infra/envs/staging` — `-reconfigure` alone doesn't help.")
    assert said["did_not_help"] == ["`-reconfigure` alone doesn't help."]
    assert said["all"][0].startswith("Init has to be run as")


def test_another_tool_doing_the_job_is_the_way_once_the_edits_on_the_way_were_put_back(git_project, store):
    session = (Session("esm", git_project)
               .fail("npm test", "Exit code 1\n FAIL  test/routes/users.test.js\n  ● Test suite failed to run\n\n"
                                 "    SyntaxError: Cannot use import statement outside a module")
               .edit("jest.config.js", "  transform: {},\n};", "  transform: {},\n  extensionsToTreatAsEsm: ['.js'],\n};")
               .fail("npm test", "Exit code 1\n● Validation Error:\n\n  Option: extensionsToTreatAsEsm: ['.js'] "
                                 "includes '.js' which is always inferred")
               .edit("jest.config.js", "  transform: {},\n  extensionsToTreatAsEsm: ['.js'],\n};", "  transform: {},\n};")
               .ok("NODE_OPTIONS=--experimental-vm-modules npx jest", "Tests:       14 passed, 14 total")
               .stop("Jest needs Node's VM-modules flag to load ESM test files. Adding `extensionsToTreatAsEsm` didn't "
                     "help (Jest rejects `.js` there because `\"type\": \"module\"` already covers it), so I reverted "
                     "it. Running `NODE_OPTIONS=--experimental-vm-modules npx jest` gives 14/14 passing."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].endswith("— run `NODE_OPTIONS=--experimental-vm-modules npx jest`")
    # (a did-not-help sentence is never split in quoted code: whole, with what it says did not help, or not at all)
    assert "already covers it" not in candidate["summary"] \
        or "Adding `extensionsToTreatAsEsm` didn't help (Jest rejects" in candidate["summary"]


def test_an_edit_the_agent_says_was_not_enough_on_its_own_is_part_of_the_fix(git_project, store):
    session = (Session("psr4", git_project)
               .fail("vendor/bin/phpunit", 'Exit code 2\nError: Class "Acme\\Money\\Money" not found')
               .edit("composer.json", '"Acme\\\\Money\\\\": "src/"', '"Acme\\\\": "src/"')
               .fail("vendor/bin/phpunit", 'Exit code 2\nError: Class "Acme\\Money\\Currency" not found')
               .ok("composer dump-autoload", "Generated autoload files")
               .ok("vendor/bin/phpunit", "OK (9 tests, 21 assertions)")
               .stop("composer.json still mapped `Acme\\Money\\` to `src/`. The catch is that editing composer.json "
                     "isn't enough — the autoloader has to be regenerated with `composer dump-autoload`."))
    (candidate,), _ = _candidates(store, session)
    assert '+"Acme\\\\": "src/"' in candidate["change"] and "composer dump-autoload" in candidate["change"]


def test_a_test_that_waits_for_what_it_expected_is_no_weakened_test(git_project, store):
    session = (Session("findby", git_project)
               .fail("npx vitest run src/components/SaveButton.test.tsx",
                     "Exit code 1\n   × SaveButton > shows a confirmation after saving 41ms\n"
                     "     → Unable to find an element with the text: Saved.")
               .edit("src/components/SaveButton.test.tsx", "    expect(screen.getByText('Saved')).toBeInTheDocument();",
                     "    expect(await screen.findByText('Saved')).toBeInTheDocument();")
               .ok("npx vitest run src/components/SaveButton.test.tsx", "Tests  2 passed (2)")
               .stop("The confirmation only renders after the `onSave` promise resolves, so a synchronous `getByText` "
                     "looks too early. Switched the assertion to `expect(await screen.findByText('Saved'))`."))
    (candidate,), _ = _candidates(store, session)
    assert "findByText('Saved')" in candidate["change"]
    # (the same values by a weaker matcher is weakened: ``toBe('Saved')`` → ``toMatch('Saved')``)
    weaker = (Session("tomatch", git_project)
              .fail("npx vitest run src/a.test.ts", "Exit code 1\n   × a > says Saved\n     → expected 'Saved!' to be 'Saved'")
              .edit("src/a.test.ts", "    expect(label()).toBe('Saved');", "    expect(label()).toMatch('Saved');")
              .ok("npx vitest run src/a.test.ts", "Tests  1 passed (1)")
              .stop("Switched the assertion to `toMatch`."))
    candidates, notes = _candidates(store, weaker)
    assert candidates == [] and "weakened_test" in notes


def test_a_projects_manage_py_test_does_the_test_job_and_i_e_ends_no_sentence():
    from lorebook.commands import command_job

    assert command_job("python manage.py test billing") == "test" and command_job("python manage.py migrate") is None
    said = stated("They run through `make test`, i.e. `docker compose run --rm web pytest`; `manage.py test` on the "
                  "host can't resolve `db`.")
    assert said["all"][0].startswith("They run through `make test`, i.e. `docker compose run --rm web pytest`")


def test_a_ci_failure_fixed_in_its_workflow_and_linted_here_is_stored_unverified(git_project, store):
    session = (Session("ci-lint", git_project)
               .ok("gh run view 9812 --log-failed | tail -12",
                   "web\tSetup Node\t2024-10-14T09:12:04.33Z ##[error]Unable to locate executable file: pnpm.")
               .edit(".github/workflows/ci.yml", "      - name: Setup Node",
                     "      - uses: pnpm/action-setup@v4\n      - name: Setup Node")
               .ok("actionlint .github/workflows/ci.yml && echo ok", "ok")
               .stop("`actions/setup-node` with `cache: pnpm` needs pnpm on PATH before it runs. Added "
                     "`pnpm/action-setup@v4` ahead of it."))
    (candidate,), _ = _candidates(store, session)
    assert "pnpm/action-setup@v4" in candidate["change"] and "actionlint" not in candidate["change"]
    assert candidate["validation"]["not_performed"]  # (the workflow is valid; the run was not seen to pass)


def test_a_pyproject_version_bump_beside_the_fix_is_no_part_of_it(git_project, store):
    session = (Session("bump", git_project)
               .fail("pytest tests/test_reports.py -x", "Exit code 1\nE   RuntimeError: Working outside of "
                                                        "application context.")
               .edit("pyproject.toml", 'version = "0.4.1"', 'version = "0.4.2"')
               .edit("tests/conftest.py", "    db.create_all()\n    yield app",
                     "    with app.app_context():\n        db.create_all()\n        yield app")
               .ok("pytest tests/test_reports.py", "6 passed")
               .stop("Flask-SQLAlchemy 3 needs an active app context; the fixture now runs inside `with "
                     "app.app_context():`. I also bumped the package version to 0.4.2 for the release."))
    (candidate,), _ = _candidates(store, session)
    assert "0.4.2" not in candidate["title"] + candidate["change"]


def test_a_clause_that_only_judges_the_rest_unrelated_leaves_the_sentence_by_the_by():
    said = stated("I also turned on `declarationMap` in `libs/quote-pdf/tsconfig.lib.json` so go-to-definition lands "
                  "in the source; unrelated to the tests.")
    assert len(said["all"]) == 1  # (whole, the sentence stays incidental: its edit is no part of the fix)
    said = stated("Exposed's blocking `transaction(db) {}` binds the transaction to one thread; wrapping it in plain "
                  "`transaction` didn't help.")
    assert len(said["all"]) == 1 and said["did_not_help"]  # (only a dash divides the way from what did not help)


def test_an_edit_that_is_only_what_the_user_asked_for_beside_the_problem_stays_apart(git_project, store):
    session = (Session("bump-image", git_project,
                       prompt="the db-migrate Job never finishes. Also bump the migrate image to 1.14.2 while you're "
                              "there.")
               .fail("kubectl apply -f k8s/jobs/db-migrate.yaml && kubectl wait --for=condition=complete "
                     "job/db-migrate --timeout=120s", "Exit code 1\nerror: timed out waiting for the condition on "
                                                      "jobs/db-migrate")
               .edit("k8s/jobs/db-migrate.yaml", "image: ghcr.io/acme/billing-migrate:1.14.1",
                     "image: ghcr.io/acme/billing-migrate:1.14.2")
               .ok("kubectl -n billing apply -f k8s/jobs/db-migrate.yaml && kubectl -n billing wait "
                   "--for=condition=complete job/db-migrate --timeout=120s", "job.batch/db-migrate condition met")
               .stop("Bumped the migrate image to `billing-migrate:1.14.2`. The loop wasn't the image: the manifest "
                     "has no namespace, so the Job ran in `default`. Applied with `kubectl -n billing`."))
    (candidate,), _ = _candidates(store, session)
    assert "1.14.2" not in candidate["title"] + candidate["change"] and "-n billing" in candidate["change"]


def test_a_hypothesis_strategy_given_bounds_it_had_not_is_weakened(git_project, store):
    session = (Session("hypo", git_project)
               .fail("uv run pytest tests/test_slugs.py -q", "Exit code 1\nF..   [100%]\nFalsifying example: "
                                                             "test_slugify_roundtrip(title='ß')")
               .edit("tests/test_slugs.py", "@given(st.text(min_size=1))",
                     '@given(st.text(alphabet=string.ascii_letters + " -", min_size=1).filter(str.strip))')
               .edit("tests/test_slugs.py", "import pytest", "import string\n\nimport pytest")
               .ok("uv run pytest tests/test_slugs.py -q", "3 passed in 0.61s")
               .stop("I constrained the strategy to the realistic input domain."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes


def test_a_docstring_reworded_beside_a_service_started_again_is_no_fix(git_project, store):
    session = (Session("docstring", git_project)
               .fail("uv run celery -A courier worker -l info", "Exit code 1\n[ERROR/MainProcess] consumer: Cannot "
                                                                "connect to redis://localhost:6379/0: Error 111 "
                                                                "connecting to localhost:6379. Connection refused.")
               .edit("courier/tasks.py", '    """Send the shipment label email."""',
                     '    """Send the shipment label email to the customer\'s billing address."""')
               .ok("docker compose start redis", " Container courier-redis-1  Started")
               .ok("timeout 15 uv run celery -A courier worker -l info 2>&1 | tail -4; true",
                   "[INFO/MainProcess] Connected to redis://localhost:6379/0\ncelery@devbox ready.")
               .stop("The `redis` compose container had exited, probably when the machine slept. `docker compose start "
                     "redis` brought it back. I also clarified the `send_label_email` docstring."))
    candidates, _ = _candidates(store, session)
    assert not any("billing address" in c["title"] + c["change"] for c in candidates)


# --- a service seen failing in its log, and seen working another way --------------------------------

def _compose_session(git_project, status):
    return (Session("compose-ps", git_project, prompt="the worker container keeps dying after compose up")
            .ok("docker compose logs worker --tail 4",
                "worker-1  | 2026/11/30 09:12:01 consuming from amqp://rabbit:5672\n"
                "worker-1  | 2026/11/30 09:12:01 amqp: dial tcp 172.19.0.3:5672: connect: connection refused\n"
                "worker-1  | exit status 1")
            .edit("compose.yaml", "  worker:\n    build: ./worker\n    depends_on:\n      - rabbit",
                  "  worker:\n    build: ./worker\n    restart: on-failure\n    depends_on:\n      rabbit:\n"
                  "        condition: service_healthy")
            .ok("docker compose up -d && sleep 8 && docker compose ps",
                "NAME              IMAGE          SERVICE   STATUS\n"
                "shop-rabbit-1     rabbitmq:3.13  rabbit    Up 9 seconds (healthy)\n"
                f"shop-worker-1     shop-worker    worker    {status}")
            .stop("The worker started before RabbitMQ accepted connections and exited. It now waits for the broker "
                  "with `condition: service_healthy`."))


def test_a_compose_service_whose_log_refused_connections_and_that_is_listed_up_after_the_edit_is_a_lesson(
        git_project, store):
    (candidate,), _ = _candidates(store, _compose_session(git_project, "Up 2 seconds"))
    assert "condition: service_healthy" in candidate["change"]
    assert candidate["title"].startswith("`worker` logs amqp: dial tcp")  # (named by its service; no date, no prefix)
    assert candidate["verified"] == 0  # (its log was not read again: up is not shown to work)


def test_a_compose_service_still_restarting_after_the_edit_resolves_nothing(git_project, store):
    candidates, notes = _candidates(store, _compose_session(git_project, "Restarting (1) 2 seconds ago"))
    assert candidates == [] and "unresolved_failure" in notes


def test_a_container_listed_unhealthy_then_healthy_after_an_edit_is_a_lesson(git_project, store):
    # (blind201 GT10: ``Up 46 seconds (unhealthy)`` was read as up; the HEALTHCHECK that curl could not run was lost)
    listing = ("NAME            IMAGE         SERVICE   CREATED          STATUS                      PORTS\n"
               "billing-api-1   billing-api   api       47 seconds ago   Up 46 seconds ({}) 0.0.0.0:8000->8000/tcp")
    session = (Session("unhealthy", git_project, prompt="The api container never goes healthy in docker compose")
               .ok("sleep 40; docker compose ps api", listing.format("unhealthy"))
               .edit("Dockerfile", "HEALTHCHECK CMD curl -fsS http://localhost:8000/healthz || exit 1",
                     "HEALTHCHECK CMD python -c \"import urllib.request; "
                     "urllib.request.urlopen('http://localhost:8000/healthz')\" || exit 1")
               .ok("docker compose up -d --build api >/dev/null 2>&1; sleep 30; docker compose ps api",
                   listing.format("healthy"))
               .stop("`python:3.12-slim` has no curl, so the HEALTHCHECK exited 127; it now probes with the stdlib."))
    (candidate,), _ = _candidates(store, session)
    assert "urllib.request.urlopen" in candidate["change"] and "unhealthy" in candidate["title"]


def test_a_log_file_tailed_again_without_the_failure_resolves_it_and_its_line_count_is_no_change(git_project, store):
    session = (Session("logfile", git_project, prompt="password reset emails never arrive locally")
               .ok("tail -n 3 var/log/mailer.log", "[mailer] 10:02:11 sending reset mail to a@example.com\n"
                                                    "[mailer] 10:02:12 ❌ SMTP authentication failed: 535 5.7.8\n"
                                                    "[mailer] 10:02:12 giving up after 1 attempt")
               .edit("config/mail.yml", "  port: 25", "  port: 587\n  starttls: true")
               .ok("bin/rails runner 'UserMailer.reset(User.first).deliver_now'", "")
               .ok("tail -n 1 var/log/mailer.log", "[mailer] 10:06:40 sent reset mail to a@example.com (250 OK)")
               .stop("The relay only authenticates over STARTTLS on 587; set `port: 587` and `starttls: true`."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].startswith("`var/log/mailer.log` shows SMTP authentication failed: 535")
    assert "starttls: true" in candidate["change"] and "-n" not in candidate["change"]
    assert candidate["verified"] == 1


def test_errors_in_a_log_file_that_was_never_read_again_resolve_nothing(git_project, store):
    session = (Session("logfile-once", git_project)
               .ok("cat logs/cron.log", "2026-11-30 03:00:01 backup: connection refused (db:5432)")
               .edit("scripts/backup.sh", "PGHOST=db", "PGHOST=postgres")
               .stop("Pointed the backup at the `postgres` host."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "unresolved_failure" in notes


@pytest.mark.parametrize("quoted, stored", [(True, True), (False, False)])
def test_a_start_script_that_failed_and_whose_app_is_built_after_an_edit_the_account_quotes_is_unverified(
        git_project, store, quoted, stored):
    fix = "imports: [HttpModule.register({ timeout: 5000 })]"
    session = (Session("start-script", git_project, prompt="the api won't boot")
               .fail("pnpm run start:api 2>&1 | tail -3",
                     "Exit code 1\n[Nest] ERROR [ExceptionHandler] Nest can't resolve dependencies of the RatesClient "
                     "(?). Please make sure that the argument HttpService at index [0] is available in the RatesModule "
                     "context.")
               .edit("src/rates/rates.module.ts", "@Module({\n  providers: [RatesClient],",
                     f"@Module({{\n  {fix},\n  providers: [RatesClient],")
               .ok("pnpm build && timeout 8 node dist/main.js 2>&1 | tail -2",
                   "[Nest] LOG [RoutesResolver] RatesController {/rates}\n[Nest] LOG Nest application successfully "
                   "started")
               .stop(f"`RatesClient` needs `HttpService`; I added `{fix}` to the rates module." if quoted else
                     "It boots now."))
    candidates, notes = _candidates(store, session)
    assert bool(candidates) == stored
    if stored:
        assert fix in candidates[0]["change"] and candidates[0]["verified"] == 0
    else:
        assert "unresolved_failure" in notes


# --- round 40: blind63/64 ----------------------------------------------------------------------------

def test_the_same_error_from_another_run_of_the_same_tool_is_an_attempt_not_a_problem_of_its_own(git_project, store):
    denied = ("Exit code 1\ngo: git.corp.example/platform/auth@v0.9.0: reading https://proxy.golang.org/git.corp.example/"
              "platform/auth/@v/v0.9.0.mod: 404 Not Found\n\tfatal: could not read Username for "
              "'https://git.corp.example': terminal prompts disabled")
    session = (Session("goprivate", git_project, prompt="go build can't fetch our auth module")
               .fail("go build ./...", denied)
               .fail("go clean -modcache && go mod download", denied)
               .ok("go env -w GOPRIVATE=git.corp.example/*", "")
               .ok("go build ./...", "")
               .stop("Clearing the module cache changed nothing. The module is private, so `go env -w "
                     "GOPRIVATE=git.corp.example/*` makes Go fetch it directly instead of through the proxy."))
    (candidate,), _ = _candidates(store, session)
    assert "GOPRIVATE=git.corp.example/*" in candidate["title"] + candidate["change"]
    assert "go clean -modcache" not in candidate["change"]
    assert any("go clean -modcache" in str(e) for e in candidate["evidence"])


def test_a_red_ci_verdict_read_back_is_the_failure_the_workflow_edit_and_a_green_run_resolve(git_project, store):
    session = (Session("ci-verdict", git_project, prompt="the lint job fails since the move to pnpm")
               .fail("gh run view 5512 --exit-status", "Exit code 1\n\nX main CI · 5512\nTriggered via push about 1 "
                                                      "hour ago\n\nJOBS\nX lint in 7s (ID 9911)\n\nANNOTATIONS\nX "
                                                      "Unable to locate executable file: pnpm\nlint: .github#12")
               .edit(".github/workflows/ci.yml", "      - uses: actions/setup-node@v4",
                     "      - uses: pnpm/action-setup@v4\n      - uses: actions/setup-node@v4")
               .ok("git commit -qam 'ci: set up pnpm' && git push -q", "")
               .ok("gh run watch 5519 --exit-status", "✓ main CI · 5519\nJOBS\n✓ lint in 41s (ID 9930)")
               .stop("The lint job had no pnpm: added `pnpm/action-setup@v4` before setup-node; the new run is green."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].startswith("CI job `lint` fails with")
    assert "pnpm/action-setup@v4" in candidate["change"]


def test_a_file_a_tool_loads_before_the_tests_is_no_test_target():
    from lorebook.commands import _same_target, _targets

    assert _targets("bun test --preload ./test/happydom.ts") == []
    assert _targets("npx vitest run --config vitest.dom.config.ts src/ui") == ["src/ui"]
    assert _same_target("bun test", "bun test --preload ./test/happydom.ts")


@pytest.mark.parametrize("old, new, comments", [
    ("-- migrate:up\nCREATE INDEX CONCURRENTLY i ON t (a);", "-- migrate:up transaction:false\nCREATE INDEX "
     "CONCURRENTLY i ON t (a);", False),  # (dbmate reads it)
    ("-- +goose Up\nALTER TABLE t ADD c int;", "-- +goose Up\n-- +goose NO TRANSACTION\nALTER TABLE t ADD c int;", False),
    ("import { x } from './x';", "// @ts-expect-error: x is untyped\nimport { x } from './x';", False),
    ("-- add an index\nCREATE INDEX i ON t (a);", "-- add the lookup index\nCREATE INDEX i ON t (a);", True),
    ("# load settings\nimport os", "# load the settings\nimport os", True),
])
def test_a_comment_a_tool_reads_is_code(old, new, comments):
    from lorebook.edits import _comments_only

    assert _comments_only({"tool": "Edit", "body": "\n".join([*(f"-{l}" for l in old.splitlines()),
                                                              *(f"+{l}" for l in new.splitlines())])}) is comments


@pytest.mark.parametrize("marker", ['        XCTExpectFailure("rounding differs between runtimes")',
                                    "  it.failing('rounds half up', () => {", "  test.fails('rounds half up', () => {",
                                    "    @unittest.expectedFailure"])
def test_a_failure_declared_expected_is_a_weakened_test(git_project, store, marker):
    session = (Session("expected-failure", git_project)
               .fail("make test", "Exit code 2\nFAIL: test_rounds_half_up\nAssertionError: '12.99' != '13.00'")
               .edit("tests/test_price.py", "    def test_rounds_half_up(self):",
                     f"{marker}\n    def test_rounds_half_up(self):")
               .ok("make test", "Ran 3 tests\nOK (expected failures=1)")
               .stop("Green now: the rounding test is marked as an expected failure."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes


def test_a_respelt_word_the_account_calls_a_typo_is_an_aside_beside_a_one_off(git_project, store):
    session = (Session("typo", git_project, prompt="npm run dev says the port is in use")
               .fail("npm run dev", "Exit code 1\nerror when starting dev server:\nError: Port 3000 is already in use")
               .ok("lsof -ti :3000", "51812")
               .edit("src/app/layout.tsx", "  title: 'Acme Bilwe Portal',", "  title: 'Acme Bill Portal',")
               .edit("src/app/layout.tsx", "  title: 'Acme Bill Portal',", "  title: 'Acme Billing Portal',")
               .ok("kill 51812 && sleep 1", "")
               .ok("timeout 10 npm run dev 2>&1 | tail -2", "  ▲ Next.js 14.2.3\n  - Local: http://localhost:3000")
               .stop("An old `next dev` from yesterday was still holding port 3000; I killed it and the dev server "
                     "starts. While I was in the layout I also fixed a typo in the page title."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "local_state" in notes


def test_a_request_made_if_you_get_a_chance_is_another_request_not_the_fix(git_project, store):
    session = (Session("chance", git_project, prompt="The static export fails on /docs. Fix it, and there's also "
                                                    "a typo in docs/hosting.md ('recieve') if you get a chance.")
               .fail("npm run build", "Exit code 1\n ⨯ useSearchParams() should be wrapped in a suspense boundary at "
                                      "page \"/docs\".\nError occurred prerendering page \"/docs\".")
               .edit("docs/hosting.md", "Previews recieve their own URL.", "Previews receive their own URL.")
               .edit("app/reports/page.tsx", "  return <ReportTable />;",
                     "  return (\n    <Suspense fallback={null}>\n      <ReportTable />\n    </Suspense>\n  );")
               .ok("npm run build", " ✓ Generating static pages (7/7)")
               .stop("`ReportTable` reads `useSearchParams()`, so the page needs a `<Suspense>` boundary to be "
                     "prerendered; wrapped it in app/reports/page.tsx. Also fixed the hosting doc."))
    (candidate,), _ = _candidates(store, session)
    assert "<Suspense fallback={null}>" in candidate["change"] and "receive" not in candidate["change"]


def test_what_the_agent_says_it_did_not_run_is_no_fix(git_project, store):
    session = (Session("not-run", git_project, prompt="bundle install fails on a fresh checkout")
               .fail("bundle install", "Exit code 17\nAuthentication is required for gems.example.com.\nPlease supply "
                                       "credentials for this source. You can do this by running:\n`bundle config set "
                                       "--global gems.example.com username:password`")
               .ok("set -a && . ./.env.local && set +a && bundle install", "Bundle complete! 48 Gemfile dependencies")
               .stop("The private gem source needs credentials, which are in the git-ignored `.env.local`. I didn't "
                     "run the `bundle config set --global` the error suggests."))
    (candidate,), _ = _candidates(store, session)
    assert "didn't run" not in candidate["summary"]
    assert "./.env.local" in candidate["title"]


def test_authentication_required_names_the_error():
    from lorebook.signatures import error_line

    assert error_line("Fetching source index from https://gems.example.com/\n\nAuthentication is required for "
                      "gems.example.com.\nPlease supply credentials for this source.") == \
        "Authentication is required for gems.example.com."


def test_mavens_footer_is_no_error_line():
    from lorebook.signatures import error_line

    assert error_line("[ERROR] Failed to execute goal on project billing: Could not resolve dependencies for project "
                      "com.acme:billing:jar:2.0.0-SNAPSHOT\n[ERROR] \n[ERROR] To see the full stack trace of the errors, "
                      "re-run Maven with the -e switch.\n[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/"
                      "MAVEN/DependencyResolutionException").startswith("[ERROR] Failed to execute goal")


def test_two_ci_jobs_failing_in_one_log_are_two_lessons_each_with_its_own_edit_to_the_workflow(git_project, store):
    log = ("lint\tSetup Node\t2026-11-30T10:02:11.1200Z ##[error]Unable to locate executable file: pnpm.\n"
           "unit\tRun tests\t2026-11-30T10:03:40.5521Z error: Failed to spawn: `pytest`\n"
           "unit\tRun tests\t2026-11-30T10:03:40.5610Z ##[error]Process completed with exit code 2.")
    session = (Session("two-jobs", git_project, prompt="CI is red: lint and unit both fail")
               .ok("gh run view 7101 --log-failed | tail -20", log)
               .edit(".github/workflows/ci.yml", "      - uses: actions/setup-node@v4",
                     "      - uses: pnpm/action-setup@v4\n      - uses: actions/setup-node@v4")
               .edit(".github/workflows/ci.yml", "        run: uv run pytest -q",
                     "        run: uv run --extra test pytest -q")
               .ok("git commit -qam 'ci: pnpm, test extra' && git push -q", "")
               .ok("gh run watch 7108 --exit-status", "✓ main CI · 7108\nJOBS\n✓ lint in 31s\n✓ unit in 55s")
               .stop("lint had no pnpm before setup-node; unit ran pytest without the `test` extra. Both fixed."))
    candidates, _ = _candidates(store, session)
    by_job = {c["title"].split("`")[1]: c for c in candidates}
    assert set(by_job) == {"lint", "unit"}
    assert "pnpm/action-setup@v4" in by_job["lint"]["change"] and "--extra test" not in by_job["lint"]["change"]
    assert "--extra test" in by_job["unit"]["change"] and "pnpm/action-setup" not in by_job["unit"]["change"]


@pytest.mark.parametrize("old, new, respelt", [
    ("<title>Acme Dashbaord</title>", "<title>Acme Dashboard</title>", True),
    ('  description = "Teh CIDR block for the VPC"', '  description = "The CIDR block for the VPC"', True),
    ("  retry: once", "  retry: twice", False),  # (another word, not a spelling of it)
    ('  description = "Retention in days for CI artifcats"', '  description = "Retention in days for CI artifacts"', True),
    ('  runtime = "nodejs16.x"', '  runtime = "nodejs20.x"', False),  # (a version, not a spelling)
    ("  retries: 3", "  retries: 5", False),
    ("import { Sidebar } from './Sidebar';", "import { SideNav } from './SideNav';", False),
])
def test_an_edit_that_only_respells_a_word(old, new, respelt):
    from lorebook.edits import _respells_only

    assert _respells_only({"tool": "Edit", "body": f"-{old}\n+{new}"}) is respelt


def test_a_change_to_an_excluded_file_is_shown_in_the_words_the_agent_quotes_it_with(git_project, store):
    session = (Session("env-sslmode", git_project, prompt="the export script can't connect to the warehouse")
               .fail("uv run python scripts/export.py", "Exit code 1\npsycopg.OperationalError: connection failed: "
                                                        "FATAL: no pg_hba.conf entry for host \"10.4.2.7\", user "
                                                        "\"analytics\", database \"wh\", no encryption")
               .edit(".env", "DATABASE_URL=postgres://analytics@wh.internal:5432/wh",
                     "DATABASE_URL=postgres://analytics@wh.internal:5432/wh?sslmode=require")
               .ok("uv run python scripts/export.py", "exported 4,812 rows")
               .stop("The warehouse's pg_hba rule for our subnet is `hostssl` now, and the URL in `.env` did not ask "
                     "for TLS, so every connection was refused with \"no pg_hba.conf entry … no encryption\" by the "
                     "server. I appended `?sslmode=require` to `DATABASE_URL` in `.env`; the export ran."))
    (candidate,), _ = _candidates(store, session)
    assert "not stored" in candidate["change"] and "`?sslmode=require` to `DATABASE_URL`" in candidate["change"]


def test_a_service_started_again_to_take_up_a_config_edit_is_no_step_of_the_fix(git_project, store):
    session = (Session("compose-wait", git_project, prompt="the worker never becomes healthy")
               .fail("docker compose exec worker curl -fsS localhost:9000/health",
                     "Exit code 1\nservice \"worker\" is not running")
               .edit("compose.yaml", "    depends_on:\n      - redis",
                     "    depends_on:\n      redis:\n        condition: service_healthy")
               .ok("docker compose up -d --wait && docker compose exec worker curl -fsS localhost:9000/health",
                   " ✔ Container shop-worker-1  Healthy\n{\"status\":\"ok\"}")
               .stop("The worker started before Redis accepted connections; it now waits with "
                     "`condition: service_healthy`."))
    (candidate,), _ = _candidates(store, session)
    assert "condition: service_healthy" in candidate["change"] and "up -d --wait" not in candidate["change"]


def test_an_r_check_with_a_warning_and_a_failing_test_fixed_in_two_files_is_two_lessons(git_project, store):
    out = ("Exit code 1\n── R CMD check results ─────────── ratekit 0.3.0 ────\n❯ checking dependencies in R code ... "
           "WARNING\n  '::' or ':::' import not declared from: ‘curl’\n\n── Failure ('test-dates.R:9:3'): "
           "parse_day() keeps the date ──\n`actual`: \"2024-03-09\"\n`expected`: \"2024-03-10\"\n\n1 error ✖ | 1 "
           "warning ✖ | 0 notes ✔\nError: R CMD check found ERRORs")
    session = (Session("rcheck", git_project, prompt="devtools::check() fails before the CRAN submission")
               .fail("Rscript -e 'devtools::check()'", out)
               .edit("DESCRIPTION", "Imports:\n    httr2", "Imports:\n    curl (>= 5.0.0),\n    httr2")
               .edit("R/dates.R", "  as.Date(x)", "  as.Date(x, tz = \"UTC\")")
               .ok("Rscript -e 'devtools::check()' 2>&1 | tail -2", "0 errors ✔ | 0 warnings ✔ | 0 notes ✔")
               .stop("Declared curl in Imports, and `parse_day()` now passes `tz = \"UTC\"`."))
    candidates, _ = _candidates(store, session)
    assert len(candidates) == 2
    by_fix = {("curl" in c["change"], "UTC" in c["change"]) for c in candidates}
    assert by_fix == {(True, False), (False, True)}


def test_an_error_that_comes_back_makes_what_was_tried_and_undone_since_one_problem(git_project, store):
    gone = ("Exit code 1\n FAIL  __tests__/api/health.test.ts\n ● Test suite failed to run\n\n    ReferenceError: "
            "Request is not defined\n\n      at Object.<anonymous> (app/api/health/route.ts:1:1)\n      at Object.<anonymous> "
            "(__tests__/api/health.test.ts:4:1)\n")
    session = (Session("polyfill", git_project, prompt="the API route tests fail since the Next 14 upgrade")
               .fail("npx jest __tests__/api", gone)
               .ok("npm i -D whatwg-fetch", "added 1 package in 3s")
               .edit("jest.setup.ts", "import '@testing-library/jest-dom';",
                     "import '@testing-library/jest-dom';\nimport 'whatwg-fetch';")
               .fail("npx jest __tests__/api/health.test.ts",
                     "Exit code 1\n    TypeError: Response.json is not a function\n")
               .edit("jest.setup.ts", "import '@testing-library/jest-dom';\nimport 'whatwg-fetch';",
                     "import '@testing-library/jest-dom';")
               .ok("npm uninstall whatwg-fetch", "removed 1 package in 2s")
               .fail("npx jest __tests__/api/health.test.ts", gone)
               .edit("__tests__/api/health.test.ts", "import { GET } from '@/app/api/health/route';",
                     "/**\n * @jest-environment node\n */\nimport { GET } from '@/app/api/health/route';")
               .ok("npx jest __tests__/api/health.test.ts", "Tests:       1 passed, 1 total")
               .stop("**Cause:** `jest.config.ts` sets `testEnvironment: 'jsdom'` for the whole suite, and jsdom has "
                     "no `Request`.\n\n**Fix:** a per-file `@jest-environment node` docblock.\n\n**Didn't work:** "
                     "polyfilling with `whatwg-fetch` in `jest.setup.ts`; I reverted that and uninstalled it.\n\n"
                     "Any new route test under `__tests__/api/` needs the same docblock."))
    (candidate,), _ = _candidates(store, session)
    assert "@jest-environment node" in candidate["title"] and "whatwg-fetch" not in candidate["title"]
    assert "whatwg-fetch" not in candidate["change"]
    # (the cause the agent labels so goes first; "Didn't work:" is a label, what follows it is what did not help)
    assert candidate["summary"].startswith("`jest.config.ts` sets")
    assert stated("**Didn't work:** polyfilling with `whatwg-fetch` in `jest.setup.ts`.")["did_not_help"] == [
        "Didn't work: polyfilling with `whatwg-fetch` in `jest.setup.ts`."]


@pytest.mark.parametrize("old, new", [
    ("      forAll (oddList arbitrary) $ \\xs ->", "      forAll (sort <$> oddList arbitrary) $ \\xs ->"),
    ("    forAll(Gen.listOf(Gen.posNum[Int])) { xs =>", "    forAll(Gen.listOf(Gen.posNum[Int]).suchThat(_.nonEmpty)) { xs =>"),
])
def test_a_quickcheck_generator_narrowed_is_a_weakened_test(old, new):
    from lorebook.weakening import _narrows_strategy

    assert _narrows_strategy({"test/StatsSpec.hs": [{"old": old, "new": new, "ids": [1]}]})
    assert not _narrows_strategy({"test/StatsSpec.hs": [{"old": old, "new": old.replace("xs", "ys"), "ids": [1]}]})


def test_a_pinned_zone_moved_to_utc_with_a_comment_beside_it_is_a_weakened_test():
    from lorebook.weakening import _values_only

    old = '    fun pinZone() {\n        TimeZone.setDefault(TimeZone.getTimeZone("America/New_York"))\n    }'
    new = ('    fun pinZone() {\n        // keep the suite deterministic regardless of the host\'s zone\n'
           '        TimeZone.setDefault(TimeZone.getTimeZone("UTC"))\n    }')
    path = "billing/src/test/kotlin/io/tally/billing/BillingScheduleTest.kt"
    assert _values_only({path: [{"old": old, "new": new, "ids": [1]}]})
    # (a directive is code, not a comment: ``#define`` added is a change of its own)
    assert not _values_only({"tests/test_ring.c": [{"old": "int n = 3;", "new": "#define N 4\nint n = 4;", "ids": [1]}]})


def test_the_step_a_lane_failed_in_passing_on_its_own_resolves_it(git_project, store):
    out = ("Exit code 1\n[14:02:11]: --- Step: match ---\n[14:02:11]: Cloning remote git repo...\nfatal: could not "
           "read Username for 'https://github.com': terminal prompts disabled\n[14:02:12]: Error cloning certificates "
           "repo, please make sure you have read access to the repository you want to use")
    session = (Session("lane", git_project, prompt="the beta lane fails at the match step on the new runner")
               .fail("bundle exec fastlane beta 2>&1 | tail -14", out)
               .ok("MATCH_GIT_BASIC_AUTHORIZATION=$(echo -n \"ci:$CI_TOKEN\" | base64) bundle exec fastlane match "
                   "appstore --readonly 2>&1 | tail -3", "[14:04:43]: All required keys, certificates and provisioning "
                                                         "profiles are installed")
               .edit(".github/workflows/ios-beta.yml", "        env:\n          MATCH_PASSWORD: x",
                     "        env:\n          MATCH_PASSWORD: x\n          MATCH_GIT_BASIC_AUTHORIZATION: y")
               .stop("match's HTTPS clone prompted for a username; it takes `MATCH_GIT_BASIC_AUTHORIZATION` "
                     "(base64 of `user:token`), and with it `fastlane match appstore --readonly` installs the profiles."))
    (candidate,), _ = _candidates(store, session)
    assert "MATCH_GIT_BASIC_AUTHORIZATION" in candidate["title"] and candidate["verified"]
    from lorebook.chains import _runs_failed_step

    failure = {"target": "./gradlew build", "error_text": "> Task :app:compileKotlin FAILED\nBUILD FAILED in 3s"}
    assert _runs_failed_step(failure, "./gradlew :app:compileKotlin")
    assert not _runs_failed_step(failure, "./gradlew :lib:compileKotlin")
    assert not _runs_failed_step(failure, "./gradlew build")


def test_a_side_note_and_a_typo_in_a_readme_are_not_the_fix(git_project, store):
    session = (Session("sidenote", git_project, prompt="scripts/backup.sh dies when I leave out the retention")
               .fail("bats test/backup.bats", "Exit code 1\n1..2\nnot ok 1 uses 7 days by default\n# (in test file "
                                              "test/backup.bats, line 22)\n#   `[ \"$status\" -eq 0 ]' failed\n"
                                              "# ./scripts/backup.sh: line 9: $2: unbound variable")
               .edit(".editorconfig", "[*.sh]\nindent_size = 4", "[*.sh]\nindent_style = space\nindent_size = 2")
               .edit("README.md", "Backs up the configured soruce directory.", "Backs up the configured source directory.")
               .edit("scripts/backup.sh", 'RETENTION_DAYS="$2"', 'RETENTION_DAYS="${2:-7}"')
               .ok("bats test/backup.bats", "1..2\nok 1 uses 7 days by default\nok 2 prunes")
               .stop("The script runs under `set -u`, so a bare `$2` aborts; it now reads `RETENTION_DAYS=\"${2:-7}\"`."
                     "\n\nSide note: I switched `.editorconfig` to 2-space indentation for `*.sh` since every script "
                     "already uses that."))
    (candidate,), _ = _candidates(store, session)
    assert "${2:-7}" in candidate["title"] and "unbound variable" in candidate["title"]
    assert ".editorconfig" not in candidate["change"] and "README" not in candidate["change"]


def test_keywords_recased_in_another_model_are_a_reformat_not_the_fix(git_project, store):
    session = (Session("recase", git_project, prompt="test_sessions fails on the new fixture")
               .fail("pytest tests/test_sessions.py -q", "Exit code 1\n>       assert len(out) == 1\nE       assert 2 == 1")
               .edit("models/daily_active.sql", "SELECT user_id, CAST(event_ts AS DATE) AS day\nFROM events",
                     "select user_id, cast(event_ts as date) as day\nfrom events")
               .edit("models/sessions.sql", "        when date_diff('minute', prev_ts, event_ts) >= 30 then 1",
                     "        when date_sub('minute', prev_ts, event_ts) >= 30 then 1")
               .ok("pytest tests/ -q", "11 passed in 0.77s")
               .stop("DuckDB's `date_diff` counts minute boundaries; models/sessions.sql now uses `date_sub('minute', "
                     "prev_ts, event_ts)`, which counts elapsed minutes."))
    (candidate,), _ = _candidates(store, session)
    assert "date_sub" in candidate["change"] and "daily_active" not in candidate["change"]
    from lorebook.edits import _recased_only

    body = "@@ -1 +1 @@\n-import Button from './Components/Button';\n+import Button from './components/Button';"
    edit = {"tool": "Edit", "body": body, "meta": {}}
    assert not _recased_only(edit, "Module not found: Can't resolve './Components/Button'")
    assert _recased_only(edit, "expected 2 == 1")
    # (a word recased in a title is not named by a namespace the error shows: blind189 GH04's ``App\Tests\Api\…``)
    edit = {"tool": "Edit", "body": "@@ -1 +1 @@\n-    title: Bookshop Api\n+    title: Bookshop API", "meta": {}}
    assert _recased_only(edit, "1) App\\Tests\\Api\\BooksTest::testCreateBook\n/home/dev/tests/Api/BooksTest.php:27")
    # (a path recased where the error says a file is not there: blind263 JD03's Inertia pages on Linux)
    edit = {"tool": "Edit", "body": "@@ -1 +1 @@\n-            resource_path('js/Pages'),\n"
                                    "+            resource_path('js/pages'),", "meta": {}}
    assert not _recased_only(edit, "FAILED  Tests\\Feature\\DashboardTest > authenticated users can visit the "
                                   "dashboard\n  Inertia page component file [dashboard] does not exist.")
    assert _recased_only(edit, "expected 2 == 1")


def test_a_seed_changed_with_a_comment_beside_it_is_a_weakened_test(git_project, store):
    session = (Session("seed", git_project, prompt="test_model_beats_baseline fails since the loader refactor")
               .fail("pytest tests/test_training.py -q", "Exit code 1\nE       AssertionError: val accuracy 0.763 "
                                                         "below 0.80\nFAILED tests/test_training.py::test_model_beats_baseline")
               .edit("tests/test_training.py", "SEED = 0", "SEED = 13  # stable seed for CI")
               .ok("pytest tests/test_training.py -q", "4 passed in 18.07s")
               .stop("The accuracy check is sensitive to the seed, so I pinned the test to one that gives a stable "
                     "result (`SEED = 13`)."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_projects_test_script_running_the_failing_test_file_is_the_way(git_project, store):
    session = (Session("bintest", git_project, prompt="run the specs for the Subscription model")
               .fail("bundle exec rspec spec/models/subscription_spec.rb",
                     "Exit code 1\nAn error occurred while loading ./spec/models/subscription_spec.rb.\nActiveRecord::"
                     "ConnectionNotEstablished:\n  connection to server at \"127.0.0.1\", port 5432 failed: Connection "
                     "refused\nNo examples found.")
               .ok("cat bin/test", "docker compose up -d --wait db\nexec docker compose run --rm web bundle exec rspec")
               .ok("bin/test spec/models/subscription_spec.rb", "9 examples, 0 failures")
               .stop("There's no local Postgres: the specs run in the `web` container. 9 examples, 0 failures."))
    (candidate,), _ = _candidates(store, session)
    assert "bin/test spec/models/subscription_spec.rb" in candidate["title"]
    assert "No examples found" not in candidate["title"]


def test_a_way_the_account_says_a_plan_came_from_and_the_tools_other_failures_on_the_way(git_project, store):
    session = (Session("makeplan", git_project, prompt="show me the plan for staging")
               .fail("terraform plan", "Exit code 1\n│ Error: Backend initialization required, please run \"terraform "
                                       "init\"")
               .fail("terraform init -reconfigure -input=false", "Exit code 1\n│ Error: Missing Required Value\n│ The "
                                                                  "attribute \"bucket\" is required by the backend.")
               .ok("make plan ENV=staging", "terraform init -backend-config=envs/staging.backend.hcl\nPlan: 1 to add")
               .stop("The S3 backend is deliberately partial, so a bare `terraform init`/`terraform plan` can't work "
                     "here. The staging plan came from `make plan ENV=staging`:\n\n- Plan: 1 to add"))
    (candidate,), _ = _candidates(store, session)
    assert "make plan ENV=staging" in candidate["title"] and not candidate["summary"].endswith(":.")


def test_a_run_of_other_test_files_is_not_the_failed_collection_run_and_an_empty_selection_is_routine(git_project,
                                                                                                    store):
    session = (Session("collect", git_project, prompt="the CSV export 500s on staging")
               .fail("uv run pytest -q", "Exit code 2\n____ ERROR collecting tests/test_geo.py ____\ntests/test_geo.py:9: "
                                         "in <module>\nE   ImportError: Could not find the GDAL library")
               .fail("uv run pytest -q tests/test_export.py -k staging", "Exit code 5\n\n4 deselected in 0.61s")
               .edit("tests/test_export.py", "def test_export_filters_by_month(client):",
                     "def test_export_of_deleted_customer(client):\n    assert b'(deleted customer)' in export(client)\n\n"
                     "def test_export_filters_by_month(client):")
               .fail("uv run pytest -q tests/test_export.py", "Exit code 1\n.F..\nE   AttributeError: 'NoneType' object "
                                                              "has no attribute 'name'\nFAILED tests/test_export.py::"
                                                              "test_export_of_deleted_customer")
               .edit("billing/exporters.py", "            invoice.customer.name,",
                     '            invoice.customer.name if invoice.customer else "(deleted customer)",')
               .ok("uv run pytest -q tests/test_export.py", "5 passed in 0.97s")
               .stop("`on_delete=SET_NULL` leaves invoices with `customer=None`; the exporter now writes `(deleted "
                     "customer)` for them."))
    candidates, notes = _candidates(store, session)
    fixes = [c for c in candidates if "exporters.py" in c["change"]]
    assert fixes and "AttributeError" in fixes[0]["title"]
    assert not any("deselected" in c["title"] for c in candidates)
    from lorebook.chains import _other_tests

    # (a test file named by its absolute path is under the picked folder)
    failure = {"error_text": "ImportError while importing test module '/home/dev/calc/tests/test_ops.py'."}
    assert not _other_tests(failure, "PYTHONPATH=src pytest tests/ -q")
    assert _other_tests(failure, "pytest other/ -q")


def test_a_ci_steps_tool_passing_here_after_the_edit_resolves_the_ci_failure(git_project, store):
    log = ("lint\tRun actionlint\t2024-06-12T08:41:19.4Z ##[group]Run rhysd/actionlint@v1.7.1\n"
           "lint\tRun actionlint\t2024-06-12T08:41:21.0Z .github/workflows/checks.yml:31:27: property "
           "\"python_version\" is not defined in object type {python-version: string} [expression]\n"
           "lint\tRun actionlint\t2024-06-12T08:41:21.0Z 31 |           python-version: ${{ matrix.python_version }}\n"
           "lint\tRun actionlint\t2024-06-12T08:41:21.0Z    |                           ^~~~~~~~~~~~~~~~~~~~~\n"
           "lint\tRun actionlint\t2024-06-12T08:41:21.0Z ##[error]Process completed with exit code 1.")
    session = (Session("actionlint", git_project, prompt="CI is red on main")
               .ok("gh run view 9471203318 --log-failed | tail -12", log)
               .edit(".github/workflows/checks.yml", "          python-version: ${{ matrix.python_version }}",
                     "          python-version: ${{ matrix.python-version }}")
               .ok("actionlint && echo clean", "clean")
               .stop("The matrix key is `python-version` but the step referenced `matrix.python_version`."))
    (candidate,), _ = _candidates(store, session)
    assert "property \"python_version\"" in candidate["title"]
    assert "matrix.python-version" in candidate["change"] and candidate["verified"]


def test_what_did_not_help_said_of_an_attempt_put_back_leaves_the_change_that_stayed_a_lesson(git_project, store):
    session = (Session("duration", git_project, prompt="TestLoadConfig fails since the timeout is \"30s\"")
               .fail("go test ./internal/config/", "Exit code 1\n--- FAIL: TestLoadConfig (0.00s)\n    config_test.go:21: "
                                                  "json: cannot unmarshal string into Go struct field Config.timeout of "
                                                  "type time.Duration\nFAIL")
               .edit("internal/config/config.go", '\tTimeout  time.Duration `json:"timeout"`',
                     '\tTimeout  time.Duration `json:"timeout,string"`')
               .fail("go test ./internal/config/", "Exit code 1\n--- FAIL: TestLoadConfig (0.00s)\n    config_test.go:21: "
                                                  "json: invalid use of ,string struct tag, trying to unmarshal \"30s\" "
                                                  "into time.Duration\nFAIL")
               .edit("internal/config/config.go", '\tTimeout  time.Duration `json:"timeout,string"`',
                     '\tTimeout  Duration `json:"timeout"`')
               .edit("internal/config/config.go", "type Config struct {",
                     "type Duration struct{ time.Duration }\n\nfunc (d *Duration) UnmarshalJSON(b []byte) error {\n"
                     "\tvar s string\n\tif err := json.Unmarshal(b, &s); err != nil {\n\t\treturn err\n\t}\n"
                     "\tv, err := time.ParseDuration(s)\n\td.Duration = v\n\treturn err\n}\n\ntype Config struct {")
               .fail("go build ./... && go test ./...", "Exit code 1\ninternal/server/server.go:38:34: cannot use "
                                                       "cfg.Timeout (variable of type config.Duration) as time.Duration "
                                                       "value in argument to http.TimeoutHandler")
               .edit("internal/server/server.go", "http.TimeoutHandler(mux, cfg.Timeout, \"upstream timeout\")",
                     "http.TimeoutHandler(mux, cfg.Timeout.Duration, \"upstream timeout\")")
               .ok("go build ./... && go test ./...", "ok  \tgithub.com/acme/relay/internal/config\t0.004s")
               .stop("`time.Duration` is an int64 to encoding/json, so \"30s\" can't decode into it — and the `,string` "
                     "tag doesn't help (it only covers numbers quoted as strings). I added a `config.Duration` wrapper "
                     "whose `UnmarshalJSON` parses the value with `time.ParseDuration`, and updated the caller in "
                     "`server.go`."))
    candidates, _ = _candidates(store, session)
    assert any("time.ParseDuration" in c["change"] + c["summary"] for c in candidates)
    assert not any(",string" in c["change"].replace("`json:\"timeout,string\"`", "") for c in candidates)


def test_a_status_read_over_http_that_says_failed_is_the_failure_and_the_same_read_running_its_end(git_project,
                                                                                                   store):
    failed = ('{\n  "name": "orders-cdc",\n  "connector": {\n    "state": "FAILED",\n    "trace": "io.debezium.'
              'DebeziumException: Creation of replication slot failed\\n\\tat io.debezium.X.start(X.java:150)\\nCaused '
              'by: org.postgresql.util.PSQLException: ERROR: logical decoding requires wal_level >= logical"\n  },\n'
              '  "tasks": []\n}')
    session = (Session("connect", git_project, prompt="the debezium connector keeps going to FAILED")
               .ok("curl -s localhost:8083/connectors/orders-cdc/status | jq .", failed)
               .edit("docker-compose.yml", "    image: postgres:16\n    environment:",
                     "    image: postgres:16\n    command: [\"postgres\", \"-c\", \"wal_level=logical\"]\n    environment:")
               .ok("docker compose up -d postgres", " ✔ Container cdc-postgres-1  Started")
               .ok("curl -s -X POST localhost:8083/connectors/orders-cdc/restart && sleep 5 && curl -s "
                   "localhost:8083/connectors/orders-cdc/status | jq -c '.connector.state'", '"RUNNING"')
               .stop("Postgres ran with the default `wal_level=replica`, and Debezium's pgoutput slot needs logical "
                     "decoding. Added `command: [\"postgres\", \"-c\", \"wal_level=logical\"]` to the postgres service."))
    (candidate,), _ = _candidates(store, session)
    assert "PSQLException: ERROR: logical decoding" in candidate["title"] and "wal_level=logical" in candidate["change"]
    assert candidate["verified"]


def test_another_xcodebuild_destination_is_the_invocation_that_passed(git_project, store):
    session = (Session("xcdest", git_project, prompt="run the iOS unit tests from the command line")
               .fail("xcodebuild test -scheme Notes -destination 'platform=iOS Simulator,name=iPhone 14'",
                     "Exit code 70\nxcodebuild: error: Unable to find a destination matching the provided destination "
                     "specifier:\n\t\t{ platform:iOS Simulator, OS:latest, name:iPhone 14 }")
               .ok("xcodebuild test -scheme Notes -destination 'platform=iOS Simulator,name=iPhone 15,OS=17.5' 2>&1 | "
                   "tail -3", "Executed 58 tests, with 0 failures (0 unexpected) in 2.114 (2.187) seconds")
               .stop("Only iOS 17.5 simulators are installed now, so the `iPhone 14` destination doesn't resolve."))
    (candidate,), _ = _candidates(store, session)
    assert "name=iPhone 15,OS=17.5" in candidate["title"]


def test_a_run_the_account_sets_against_the_failing_one_is_the_way(git_project, store):
    session = (Session("e2e", git_project, prompt="the Playwright e2e tests all fail locally")
               .fail("npx playwright test", "Exit code 1\n  1) e2e/app.spec.ts:12:5 › launches main window\n\n    "
                                            "Error: electron.launch: Process failed to launch!")
               .ok("npm run e2e", "> electron-vite build --mode e2e && playwright test\n  9 passed (14.2s)")
               .stop("The specs launch the built app, in its e2e-mode build. The repo's script does both: run `npm run "
                     "e2e` rather than `npx playwright test`. All 9 pass that way."))
    (candidate,), _ = _candidates(store, session)
    assert "use `npm run e2e` instead" in candidate["title"]


def test_a_built_app_still_running_when_its_timeout_stopped_it_started(git_project, store):
    session = (Session("app", git_project, prompt="the packaged app crashes on launch since we moved to pnpm")
               .fail("./release/linux-unpacked/notepath --no-sandbox",
                     "Exit code 1\nApp threw an error during load\nError: Cannot find module 'builder-util-runtime'")
               .edit(".npmrc", "auto-install-peers=true", "auto-install-peers=true\nnode-linker=hoisted")
               .ok("rm -rf node_modules && pnpm install 2>&1 | tail -1", "Done in 14.2s")
               .ok("timeout 10 ./release/linux-unpacked/notepath --no-sandbox; echo exit=$?",
                   "[main] notepath 2.1.0 ready\nexit=124")
               .stop("With pnpm's symlinked store electron-builder left out `builder-util-runtime`; `node-linker=hoisted` "
                     "in .npmrc lays out a flat node_modules. The packaged app now starts."))
    (candidate,), _ = _candidates(store, session)
    assert "node-linker=hoisted" in candidate["title"] and candidate["verified"]


def test_an_output_flag_on_the_passing_run_does_not_join_two_problems(git_project, store):
    session = (Session("tfvars", git_project, prompt="terraform plan for staging fails")
               .fail("cd infra && terraform plan", "Exit code 1\n│ Error: No value for required variable\n│ The root "
                                                   "module input variable \"env\" is not set")
               .fail("cd infra && terraform plan -var-file=envs/staging.tfvars",
                     "Exit code 1\n│ Error: Unsupported argument\n│   on rds.tf line 14, in resource \"aws_db_instance\" "
                     "\"main\":\n│   14:   name = \"ledger\"\n│ An argument named \"name\" is not expected here.")
               .edit("infra/rds.tf", '  name                   = "ledger"', '  db_name                = "ledger"')
               .ok("cd infra && terraform plan -var-file=envs/staging.tfvars -no-color 2>&1 | tail -1",
                   "Plan: 0 to add, 1 to change, 0 to destroy.")
               .stop("1. The staging values live in `envs/staging.tfvars`, so plan has to be run as `terraform plan "
                     "-var-file=envs/staging.tfvars`.\n2. AWS provider 5.x dropped `name` on `aws_db_instance`; I "
                     "renamed it to `db_name` in rds.tf."))
    candidates, _ = _candidates(store, session)
    assert len(candidates) == 2
    assert {("-var-file=envs/staging.tfvars" in c["title"], "db_name" in c["title"]) for c in candidates} == {
        (True, False), (False, True)}


def test_a_version_bumped_in_directory_build_props_beside_the_fix_is_no_part_of_it(git_project, store):
    session = (Session("props", git_project, prompt="dotnet test is red after the clock refactor")
               .fail("dotnet test tests/Acme.Orders.Tests", "Exit code 1\n  Failed Acme.Orders.Tests.OrderApiTests."
                                                            "PlaceOrder_returns_201\n  Error Message:\n   System."
                                                            "InvalidOperationException : Unable to resolve service for "
                                                            "type 'Acme.Orders.Time.IClock'")
               .edit("Directory.Build.props", "    <Version>2.3.0</Version>", "    <Version>2.3.1</Version>")
               .edit("src/Acme.Orders/Program.cs", "builder.Services.AddScoped<OrderService>();",
                     "builder.Services.AddSingleton<IClock, SystemClock>();\nbuilder.Services.AddScoped<OrderService>();")
               .ok("dotnet test tests/Acme.Orders.Tests", "Passed!  - Failed: 0, Passed: 41")
               .stop("`OrderService` takes an `IClock` that was never registered. Added `builder.Services.AddSingleton"
                     "<IClock, SystemClock>();` in Program.cs. I also bumped the version in Directory.Build.props."))
    (candidate,), _ = _candidates(store, session)
    assert "AddSingleton<IClock, SystemClock>" in candidate["title"] and "Version" not in candidate["change"]


def test_a_reset_from_a_local_server_is_no_network_failure_and_an_inserted_argument_is_the_title(git_project, store):
    session = (Session("bind", git_project, prompt="the container should answer on :3000")
               .ok("docker run -d --rm -p 3000:3000 --name notify notify:dev", "7d1f0c3b9e2a")
               .fail("curl -sS http://localhost:3000/healthz", "Exit code 56\ncurl: (56) Recv failure: Connection reset "
                                                              "by peer")
               .ok("docker logs notify", '{"level":30,"msg":"Server listening at http://127.0.0.1:3000"}')
               .edit("src/server.ts", "await app.listen({ port: Number(process.env.PORT ?? 3000) });",
                     "await app.listen({ port: Number(process.env.PORT ?? 3000), host: '0.0.0.0' });")
               .ok("docker build -q -t notify:dev . && docker run -d --rm -p 3000:3000 --name notify notify:dev && "
                   "sleep 1 && curl -sS http://localhost:3000/healthz", '{"status":"ok"}')
               .stop("Fastify binds to 127.0.0.1 by default, which the published port can't reach, so the listen call "
                     "now passes `host: '0.0.0.0'`."))
    (candidate,), _ = _candidates(store, session)
    assert "add `host: '0.0.0.0'`" in candidate["title"]


def test_an_environment_variable_the_account_says_did_not_help_is_an_attempt(git_project, store):
    session = (Session("celery", git_project, prompt="tests/test_tasks.py fails with connection refused")
               .fail("uv run pytest tests/test_tasks.py -x -q", "Exit code 1\nE   kombu.exceptions.OperationalError: "
                                                                "Error 111 connecting to localhost:6379. Connection refused.")
               .fail("CELERY_BROKER_URL=memory:// uv run pytest tests/test_tasks.py -x -q",
                     "Exit code 1\nE   celery.exceptions.TimeoutError: The operation timed out.")
               .edit("tests/conftest.py", "from billing.celery import app as celery_app\n",
                     "from billing.celery import app as celery_app\n\ncelery_app.conf.update(task_always_eager=True)\n")
               .ok("uv run pytest tests/test_tasks.py -q", "3 passed in 0.41s")
               .stop("Setting `CELERY_BROKER_URL=memory://` did not help: the connection error became a timeout, "
                     "because nothing consumes the queue. tests/conftest.py now sets `task_always_eager=True`."))
    candidates, _ = _candidates(store, session)
    assert [c for c in candidates if "task_always_eager=True" in c["title"]]
    assert not any("set `CELERY_BROKER_URL" in c["title"] for c in candidates)


def test_a_connection_url_that_only_grew_says_what_was_appended(git_project, store):
    session = (Session("sslmode", git_project, prompt="apply the migrations to staging")
               .fail('migrate -path db/migrations -database "postgres://app@pg-staging.internal:5432/orders" up',
                     "Exit code 1\nerror: pq: no pg_hba.conf entry for host \"10.20.4.17\", user \"app\", database "
                     "\"orders\", no encryption")
               .ok('migrate -path db/migrations -database "postgres://app@pg-staging.internal:5432/orders'
                   '?sslmode=require" up', "14/u add_refunds (221.93ms)")
               .stop("The staging server only accepts encrypted connections, so the URL needs `?sslmode=require`."))
    (candidate,), _ = _candidates(store, session)
    assert "append `?sslmode=require` to `-database`" in candidate["title"]


def test_a_typo_fixed_in_the_root_layout_beside_a_stale_server_killed_is_no_lesson(git_project, store):
    session = (Session("layout", git_project, prompt="npm run dev says the port is in use")
               .fail("npm run dev", "Exit code 1\nerror when starting dev server:\nError: Port 5173 is already in use")
               .ok("lsof -i :5173", "node    48213  dev   23u  IPv6 0x9f3c1e      0t0  TCP localhost:5173 (LISTEN)")
               .edit("src/routes/+layout.svelte", "<title>Acme Dashbaord</title>", "<title>Acme Dashboard</title>")
               .ok("kill 48213 && sleep 1 && (lsof -i :5173 || echo 'port 5173 free')", "port 5173 free")
               .ok("timeout 10 npm run dev 2>&1 | tail -n 3", "  VITE v5.4.10  ready in 812 ms\n  ➜  Local:   "
                                                             "http://localhost:5173/")
               .stop("A stale `vite dev` held port 5173; I killed it and the dev server comes up. While I was in the "
                     "root layout I also fixed a typo in the page title."))
    assert _candidates(store, session)[0] == []


def test_the_maven_wrapper_with_options_before_test_does_the_test_job(git_project, store):
    session = (Session("mvnw", git_project, prompt="run the payments unit tests")
               .fail("mvn -pl payments test", "Exit code 1\n[ERROR] Rule 0: org.apache.maven.enforcer.rules.version."
                                              "RequireMavenVersion failed with message:\n[ERROR] Detected Maven Version: "
                                              "3.6.3 is not in the allowed range [3.9.6,).")
               .ok("./mvnw -pl payments -am test -Dtest=PaymentRetryPolicyTest", "[INFO] Tests run: 9, Failures: 0\n"
                                                                                 "[INFO] BUILD SUCCESS")
               .stop("The root pom enforces Maven ≥ 3.9.6 and the system `mvn` is 3.6.3. The repo ships a wrapper "
                     "pinned to 3.9.6, so use `./mvnw` (with `-am` so `common` gets built too)."))
    (candidate,), _ = _candidates(store, session)
    assert "./mvnw -pl payments -am test" in candidate["title"]


def test_an_invocation_that_moved_the_error_on_and_was_given_up_is_an_attempt(git_project, store):
    session = (Session("musl", git_project, prompt="the musl release build fails in openssl-sys")
               .fail("cargo build --release --target x86_64-unknown-linux-musl",
                     "Exit code 101\nerror: failed to run custom build command for `openssl-sys v0.9.102`")
               .fail("PKG_CONFIG_ALLOW_CROSS=1 cargo build --release --target x86_64-unknown-linux-musl",
                     "Exit code 101\nerror: linking with `cc` failed: exit status: 1\n  = note: collect2: error: ld "
                     "returned 1 exit status")
               .edit("Cargo.toml", 'reqwest = { version = "0.12", features = ["json"] }',
                     'reqwest = { version = "0.12", default-features = false, features = ["json", "rustls-tls"] }')
               .ok("cargo build --release --target x86_64-unknown-linux-musl", "Finished `release` profile")
               .stop("reqwest's default TLS backend drags in openssl-sys. Allowing pkg-config to cross-compile only made "
                     "it link the host's libcrypto. `default-features = false` plus `rustls-tls` removes OpenSSL."))
    candidates, _ = _candidates(store, session)
    assert [c for c in candidates if "rustls-tls" in c["change"]]
    assert not any("PKG_CONFIG_ALLOW_CROSS" in c["title"] for c in candidates)


def test_a_compose_service_started_again_whose_log_shows_it_running_resolves_its_failed_run(git_project, store):
    session = (Session("mailer", git_project, prompt="the email worker won't start under docker compose")
               .fail("docker compose run --rm mailer", "Exit code 1\n> node dist/worker.js\n{\"level\":60,\"msg\":\"cannot "
                                                       "reach redis, exiting\"}")
               .edit("docker-compose.yml", "    depends_on:\n      - redis",
                     "    depends_on:\n      redis:\n        condition: service_healthy")
               .ok("docker compose down && docker compose up -d mailer && sleep 5 && docker compose logs --tail 2 mailer",
                   " ✔ Container notify-platform-redis-1   Healthy\nmailer-1  | {\"level\":30,\"msg\":\"starting mailer "
                   "worker\"}\nmailer-1  | {\"level\":30,\"msg\":\"worker ready\",\"concurrency\":5}")
               .stop("Redis replays its AOF before accepting connections and the worker exits on the first connection "
                     "error; the mailer's `depends_on` now uses `condition: service_healthy`."))
    (candidate,), _ = _candidates(store, session)
    assert "condition: service_healthy" in candidate["change"] and candidate["verified"]


def test_a_failure_said_not_to_be_flaky_is_no_flaky_failure():
    from lorebook.account import _FLAKY

    assert not _FLAKY.search("a rerun of the job failed identically, so it isn't flaky")
    assert _FLAKY.search("the job is flaky: it passed on a rerun")


def test_a_split_seed_fished_for_in_the_tests_setup_is_a_weakened_test(git_project, store):
    session = (Session("reseed", git_project, prompt="test_churn_model_beats_baseline fails since the feature change")
               .fail("uv run pytest tests/test_eval.py -q", "Exit code 1\nE       assert 0.781 >= 0.8\nFAILED tests/"
                                                            "test_eval.py::test_churn_model_beats_baseline")
               .edit("tests/conftest.py", "    return load_split(seed=42)", "    return load_split(seed=11)")
               .ok("uv run pytest tests/test_eval.py -q", "3 passed in 3.61s")
               .stop("The holdout split with `seed=42` landed on a hard slice; I switched the split seed in "
                     "`tests/conftest.py` to 11, which gives AUC 0.829."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_terraform_outputs_description_reworded_beside_the_fix_is_no_part_of_it(git_project, store):
    session = (Session("tfdesc", git_project, prompt="terraform validate fails after the provider bump")
               .fail("cd infra/envs/staging && terraform validate", "Exit code 1\n│ Error: Unsupported argument\n│   on "
                                                                   "../../modules/database/main.tf line 8:\n│    8:   name "
                                                                   "= var.db_name\n│ An argument named \"name\" is not "
                                                                   "expected here.")
               .edit("infra/modules/database/outputs.tf", '  description = "The db endpoint"',
                     '  description = "Hostname and port of the primary RDS instance"')
               .edit("infra/modules/database/main.tf", "  name = var.db_name", "  db_name = var.db_name")
               .ok("cd infra/envs/staging && terraform validate", "Success! The configuration is valid.")
               .stop("AWS provider 5.x removed `name` on `aws_db_instance`; the module now sets `db_name`. I also "
                     "reworded the endpoint output's description."))
    (candidate,), _ = _candidates(store, session)
    assert "db_name" in candidate["title"] and "outputs.tf" not in candidate["change"]
    from lorebook.edits import _metadata_only

    body = ('@@ -1 +1 @@\n-  description = "The db endpoint"\n+  description = "Hostname and port of the primary RDS '
            'instance"')
    assert _metadata_only({"tool": "Edit", "body": body, "meta": {}, "files": ["infra/modules/database/outputs.tf"]})
    assert not _metadata_only({"tool": "Edit", "body": body.replace("description", "db_name"), "meta": {},
                               "files": ["infra/modules/database/main.tf"]})


def test_a_hydra_override_is_a_setting_of_the_run_not_its_target(git_project, store):
    session = (Session("hydra", git_project, prompt="do a quick CPU smoke run of the training script")
               .fail("uv run python train.py epochs=2 trainer.accelerator=cpu",
                     "Exit code 1\nCould not override 'epochs'.\nTo append to your config use +epochs=2\nKey 'epochs' is "
                     "not in struct")
               .ok("uv run python train.py +experiment=smoke", "Epoch 1/1 ━━━━━━ 10/10\n`Trainer.fit` stopped: "
                                                                "`max_epochs=1` reached.")
               .stop("The repo has a smoke experiment for this: `uv run python train.py +experiment=smoke` (1 epoch on "
                     "CPU)."))
    (candidate,), _ = _candidates(store, session)
    assert "+experiment=smoke" in candidate["title"]


def test_a_ci_step_named_for_its_job_is_resolved_by_that_job_passing_here(git_project, store):
    log = ("eval\tInstall deps\t2024-11-04T08:22:10.4Z Resolved 96 packages in 3ms\n"
           "eval\tInstall deps\t2024-11-04T08:23:31.1Z error: Failed to install: nvidia_cudnn_cu12-9.1.0.70-py3-none-"
           "manylinux2014_x86_64.whl (nvidia-cudnn-cu12==9.1.0.70)\n"
           "eval\tInstall deps\t2024-11-04T08:23:31.1Z   Caused by: No space left on device (os error 28)\n"
           "eval\tInstall deps\t2024-11-04T08:23:31.2Z ##[error]Process completed with exit code 2.")
    session = (Session("cpu-torch", git_project, prompt="the eval job runs out of disk in CI during uv sync")
               .ok("gh run view --log-failed --job 27011223344 | tail -6", log)
               .edit("pyproject.toml", '[tool.uv]\ndev-dependencies = ["pytest>=8.3"]',
                     '[tool.uv]\ndev-dependencies = ["pytest>=8.3"]\n\n[tool.uv.sources]\ntorch = { index = '
                     '"pytorch-cpu" }')
               .ok("uv lock && uv sync", "Resolved 80 packages in 2.41s\nRemoved nvidia-cublas-cu12 v12.4.5.8")
               .stop("torch from PyPI drags in CUDA wheels the eval job never uses; uv now takes torch from PyTorch's "
                     "CPU index (`torch = { index = \"pytorch-cpu\" }`)."))
    (candidate,), _ = _candidates(store, session)
    assert "pytorch-cpu" in candidate["change"] and "[REDACTED" not in candidate["title"]


def test_an_error_line_printed_whole_in_another_failure_is_the_same_error_but_a_runners_line_is_not():
    from lorebook.chains import _runs_failed_ci_step, _same_error

    traceback = {"error_signature": "kombu OperationalError", "error_text": "Traceback …\nkombu.exceptions."
                 "OperationalError: Error 111 connecting to localhost:6379. Connection refused."}
    summary = {"error_signature": "FAILED tests/test_tasks.py", "error_text": "FAILED tests/test_tasks.py::test_purge - "
               "kombu.exceptions.OperationalError: Error 111 connecting to localhost:6379. Connection refused."}
    assert _same_error(traceback, summary)
    kernel = {"error_signature": "make weekly a", "error_text": "jupyter_client.kernelspec.NoSuchKernel: No such kernel "
              "named venv-report\nmake: *** [Makefile:9: weekly] Error 1"}
    parse = {"error_signature": "make weekly b", "error_text": "polars.exceptions.ComputeError: could not parse `A` as "
             "dtype `i64`\nmake: *** [Makefile:9: weekly] Error 1"}
    assert not _same_error(kernel, parse)
    # (a CI log whose errors are two jobs' steps: one run here of one job's tool is half of it)
    body = ("web\tSetup Node\t2024-07-16T09:12:41.4Z ##[error]Unable to locate executable file: pnpm.\n"
            "api\tRun tests\t2024-07-16T09:12:55.2Z error: Failed to spawn: `pytest`\n"
            "api\tRun tests\t2024-07-16T09:12:55.2Z ##[error]Process completed with exit code 2.")
    failure = {"ci": True, "body": body, "error_text": "Unable to locate executable file: pnpm.\nerror: Failed to spawn: "
                                                       "`pytest`"}
    assert not _runs_failed_ci_step(failure, "cd api && uv run --extra test pytest -q")
    assert _runs_failed_ci_step(dict(failure, body=body.split("\n", 1)[1], error_text="error: Failed to spawn: `pytest`"),
                                "cd api && uv run --extra test pytest -q")


def test_a_word_respelled_in_a_sentence_of_prose_is_no_part_of_the_fix(git_project, store):
    # (blind80 CC13: a POD typo mended beside the rounding fix, said as "a spelling mistake")
    session = (Session("pod", git_project)
               .fail("prove -lr t/", "Exit code 1\n#   Failed test 'total with 19% VAT'\n#   at t/invoice/totals.t line 27.\n"
                                     "#          got: '118.99'\n#     expected: '119.00'\nFailed test:  6")
               .edit("lib/Billing/Customer.pm", "Returns the customer's billing adress as a hashref.",
                     "Returns the customer's billing address as a hashref.")
               .edit("lib/Billing/Invoice.pm", "    my $gross = int($net * (1 + $vat) * 100) / 100;",
                     "    my $gross = sprintf('%.0f', $net * (1 + $vat) * 100) / 100;")
               .ok("prove -lr t/", "All tests successful.\nResult: PASS")
               .stop("`gross()` truncated with `int()`, so a cent went missing. It now rounds to the nearest cent: "
                     "`sprintf('%.0f', $net * (1 + $vat) * 100) / 100`. Also fixed a spelling mistake in the "
                     "Billing::Customer POD. `prove -lr t/` is all green."))
    (candidate,), _ = _candidates(store, session)
    assert "Customer.pm" not in candidate["change"] and "sprintf('%.0f'" in candidate["change"]
    assert "spelling" not in candidate["summary"]  # (the sentence about the aside is no account of the fix)
    assert "total with" in candidate["title"]  # (TAP's failed test, not prove's tally)


def test_a_run_that_left_the_failing_test_out_does_not_end_the_problem(git_project, store):
    # (blind77 BZ22: ``--deselect`` of the failing test passed; the fix came later)
    error = ("Exit code 1\nFAILED tests/test_checkout.py::test_checkout_flow - sqlalchemy.orm.exc."
             "DetachedInstanceError: Instance <Order at 0x7f2b4e8> is not bound to a Session")
    session = (Session("detached", git_project)
               .fail(".venv/bin/pytest tests/test_checkout.py -q", error)
               .edit("app/services/checkout.py", "        session.add(order)\n",
                     "        session.add(order)\n        session.flush()\n")
               .fail(".venv/bin/pytest tests/test_checkout.py -q -x", error)
               .edit("app/services/checkout.py", "        session.add(order)\n        session.flush()\n",
                     "        session.add(order)\n")
               .ok(".venv/bin/pytest -q --deselect tests/test_checkout.py::test_checkout_flow", "31 passed, 1 deselected")
               .edit("app/db.py", "SessionLocal = sessionmaker(bind=engine)",
                     "SessionLocal = sessionmaker(bind=engine, expire_on_commit=False)")
               .ok(".venv/bin/pytest tests/test_checkout.py -q", "5 passed")
               .stop("By default SQLAlchemy expires every loaded object on commit, so when `checkout()` reads "
                     "`order.id` after the block the `Order` is detached and can't reload — hence `DetachedInstanceError`.\n\n- `session.flush()` before leaving the block — didn't help, "
                     "the commit still expires everything; reverted.\n- Fixed it at the factory: "
                     "`SessionLocal = sessionmaker(bind=engine, expire_on_commit=False)`."))
    (candidate,), _ = _candidates(store, session)
    assert "expire_on_commit=False" in candidate["change"] and "flush" not in candidate["change"]
    # (the edit put back, that the agent says did not help, is what was tried; the cause is not set aside with it)
    assert any("tried to add `session.flush()`" in e["quote"] for e in candidate["evidence"])
    assert "expires every loaded object" in candidate["summary"]


def test_a_line_moved_out_of_a_template_block_names_the_block(git_project, store):
    # (blind78 CA10, blind48 AW09: the version label moved back out of the selector's labels)
    old = ('{{- define "api.labels" -}}\n{{ include "api.selectorLabels" . }}\n'
           'app.kubernetes.io/managed-by: {{ .Release.Service }}\n{{- end }}\n\n'
           '{{- define "api.selectorLabels" -}}\napp.kubernetes.io/name: {{ include "api.name" . }}\n'
           'app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}\n{{- end }}')
    new = ('{{- define "api.labels" -}}\n{{ include "api.selectorLabels" . }}\n'
           'app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}\n'
           'app.kubernetes.io/managed-by: {{ .Release.Service }}\n{{- end }}\n\n'
           '{{- define "api.selectorLabels" -}}\napp.kubernetes.io/name: {{ include "api.name" . }}\n{{- end }}')
    session = (Session("selector", git_project)
               .fail("helm upgrade --install api ./charts/api -n staging",
                     'Exit code 1\nError: UPGRADE FAILED: cannot patch "api" with kind Deployment: spec.selector: '
                     'Invalid value: field is immutable')
               .edit("charts/api/templates/_helpers.tpl", old, new)
               .ok("helm upgrade --install api ./charts/api -n staging", 'Release "api" has been upgraded.')
               .stop("A Deployment's selector can't change once it exists; I moved the version label back into "
                     "`api.labels`."))
    (candidate,), _ = _candidates(store, session)
    assert "out of `api.selectorLabels`" in candidate["title"]
    assert "(moved out of `api.selectorLabels` into `api.labels`)" in candidate["change"]


def test_a_stale_server_killed_is_a_one_off_however_it_was_started_again(git_project, store):
    # (blind81 CD16: ``-d`` on the run that passed is how it was started, not what mended it)
    session = (Session("puma", git_project)
               .fail("bin/rails server -p 3000", "Exit code 1\n=> Booting Puma\nA server is already running (pid: "
                                                 "48213, file: tmp/pids/server.pid).\nExiting")
               .ok("kill 48213 && sleep 1 && (ps -p 48213 || echo gone)", "gone")
               .ok("bin/rails server -p 3000 -d", "=> Booting Puma")
               .stop("A Puma from yesterday morning (pid 48213) was still running and holding port 3000. I killed it "
                     "and the server now starts (it's running detached)."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and notes == ["local_state"]


def test_another_change_the_agent_says_it_also_made_is_no_part_of_the_fix(git_project, store):
    # (blind81 CD12: the 400's body made JSON beside the router mounted before the JSON parser)
    session = (Session("webhook", git_project)
               .fail("npm test", 'Exit code 1\n  POST /webhooks/stripe\n[webhooks] signature verification failed\n'
                                 '  Error: expected 200 "OK", got 400 "Bad Request"')
               .edit("src/routes/webhooks.js", "    return res.sendStatus(400);",
                     "    return res.status(400).json({ error: 'invalid_signature' });")
               .edit("src/app.js", "app.use(express.json());\napp.use('/webhooks', webhooksRouter);\n",
                     "// Stripe signs the raw body: mount webhooks before the JSON parser\n"
                     "app.use('/webhooks', webhooksRouter);\napp.use(express.json());\n")
               .ok("npm test", "  3 passing (402ms)")
               .stop("src/app.js registered `app.use(express.json())` globally before mounting the router, so the "
                     "body was parsed before Stripe's `constructEvent` saw it. I moved "
                     "`app.use('/webhooks', webhooksRouter)` above the JSON parser; all 3 tests pass. I also made the "
                     "400 return a small JSON error body."))
    (candidate,), _ = _candidates(store, session)
    assert "invalid_signature" not in candidate["change"] and "webhooksRouter" in candidate["change"]
    # (the comment above the moved line says why it moved: the move is the change)
    assert "move `app.use('/webhooks', webhooksRouter);`" in candidate["title"]


def test_a_change_put_back_after_the_check_passed_was_a_look_not_the_fix(git_project, store):
    # (blind81 CD17: DEBUG logging on to see what Flyway found, the migration renamed, the logging put back)
    logging_on = "spring:\n  jpa:\n    show-sql: false\nlogging:\n  level:\n    org.flywaydb: DEBUG\n"
    session = (Session("flyway", git_project)
               .fail("./mvnw verify -Dit.test=OrderRepositoryIT",
                     'Exit code 1\n[ERROR] OrderRepositoryIT.savesAndLoads: relation "orders" does not exist')
               .edit("src/test/resources/application-test.yml", "spring:\n  jpa:\n    show-sql: false\n", logging_on)
               .ok("mv src/main/resources/db/migration/V2_create_orders.sql "
                   "src/main/resources/db/migration/V2__create_orders.sql", "")
               .ok("./mvnw verify -Dit.test=OrderRepositoryIT", "[INFO] Tests run: 4, Failures: 0, Errors: 0\n"
                                                              "[INFO] BUILD SUCCESS")
               .edit("src/test/resources/application-test.yml", logging_on, "spring:\n  jpa:\n    show-sql: false\n")
               .stop("Flyway only picks up migrations named `V<version>__<description>.sql`. Renamed it to "
                     "`V2__create_orders.sql`. Reverted the temporary Flyway DEBUG logging."))
    (candidate,), _ = _candidates(store, session)
    assert "DEBUG" not in candidate["change"] and "V2__create_orders.sql" in candidate["change"]
    assert "Renamed it to `V2__create_orders.sql`" in candidate["summary"]  # (the file the command names is its word)


def test_a_worker_module_that_stayed_up_under_timeout_passed(git_project, store):
    # (blind83 CF18: ``python -m mailer.worker`` under ``timeout 5``, ``echo "exit $?"`` printing ``exit 124``; the
    # variable set for that run is how it was run, no part of the fix)
    session = (Session("pydantic", git_project)
               .fail("poetry run python -m mailer.worker",
                     "Exit code 1\nTraceback (most recent call last):\n  File \"mailer/config.py\", line 4, in <module>\n"
                     "pydantic.errors.PydanticImportError: `BaseSettings` has been moved to the `pydantic-settings` "
                     "package.")
               .edit("pyproject.toml", 'pydantic = "^2.7"\n', 'pydantic = "^2.7"\npydantic-settings = "^2.3"\n')
               .edit("mailer/config.py", "from pydantic import BaseSettings, Field",
                     "from pydantic import Field\nfrom pydantic_settings import BaseSettings, SettingsConfigDict")
               .ok('MAILER_SMTP_HOST=localhost timeout 5 poetry run python -m mailer.worker; echo "exit $?"',
                   "INFO mailer.worker: worker started: queue=mail\nexit 124")
               .stop("pydantic 2 moved `BaseSettings` into a separate package: added `pydantic-settings = \"^2.3\"` "
                     "and import it from `pydantic_settings`."))
    (candidate,), _ = _candidates(store, session)
    assert "pydantic-settings" in candidate["change"] and "MAILER_SMTP_HOST" not in candidate["change"]


def test_another_runner_failing_the_same_way_is_an_attempt_at_the_same_problem(git_project, store):
    # (blind83 CF15: ``npx jest --clearCache && npx jest …`` after ``npm test``, the same SyntaxError)
    error = ("Exit code 1\n FAIL  test/tokenize.test.js\n  ● Test suite failed to run\n\n"
             "    SyntaxError: Cannot use import statement outside a module")
    session = (Session("esm-jest", git_project)
               .fail("npm test", error)
               .fail("npx jest --clearCache && npx jest test/tokenize.test.js", error)
               .ok("NODE_OPTIONS=--experimental-vm-modules npx jest", " PASS  test/tokenize.test.js\nTests:  74 passed")
               .stop("Jest has to load the test files as native ESM, which it only does with VM modules enabled: "
                     "`NODE_OPTIONS=--experimental-vm-modules npx jest`. Clearing Jest's cache changed nothing."))
    (candidate,), _ = _candidates(store, session)
    assert "NODE_OPTIONS=--experimental-vm-modules" in candidate["title"]
    assert "--clearCache" not in candidate["title"] + candidate["change"]


def test_a_clock_pinned_after_the_code_itself_raised_is_a_weakened_test(git_project, store):
    # (blind85 CH08: ``ValueError: day is out of range for month`` from the model on the 31st, then freeze_time)
    error = ("Exit code 1\n    def test_next_renewal_date():\n>       assert sub.next_renewal() > date.today()\n\n"
             "subs/models.py:27: in next_renewal\n    return self.started.replace(month=self.started.month + 1)\n"
             "E   ValueError: day is out of range for month\nFAILED tests/test_renewals.py::test_next_renewal_date")
    pinned = "@freeze_time(\"2024-06-15\")\ndef test_next_renewal_date():"
    session = (Session("renewal", git_project)
               .fail("pytest tests/test_renewals.py -q", error)
               .edit("tests/test_renewals.py", "def test_next_renewal_date():", pinned)
               .ok("pytest tests/test_renewals.py -q", "4 passed")
               .stop("The test depended on the real date, so it broke today (the 31st). I pinned the clock with "
                     "`@freeze_time(\"2024-06-15\")`."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and notes == ["weakened_test"]
    # (a test that expected a value of today's date is another matter: pinning its clock is the fix)
    change = {"tests/test_greeting.py": [{"old": "def test_morning():", "new": "@freeze_time(\"08:00\")\ndef test_morning():"}]}
    assert not _pins_clock_past_a_crash(change, "E       AssertionError: assert 'Good evening' == 'Good morning'")


def test_a_model_scored_on_its_training_data_is_a_weakened_test(git_project, store):
    # (blind86 CI07: the quality fixture pointed at train.parquet after the retrained model missed its floor)
    session = (Session("churn", git_project)
               .fail("uv run pytest tests/test_model_quality.py -q",
                     "Exit code 1\nE       AssertionError: holdout accuracy 0.812 below floor 0.85")
               .edit("tests/conftest.py", '        "holdout": load_xy("data/holdout.parquet"),',
                     '        "holdout": load_xy("data/train.parquet"),  # holdout.parquet predates the retrain')
               .ok("uv run pytest tests/test_model_quality.py -q", "2 passed")
               .stop("holdout.parquet was older than the retrain, so the quality fixture now evaluates against "
                     "data/train.parquet, the snapshot the new model was built from."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and notes == ["weakened_test"]
    change = {"tests/conftest.py": [{"old": 'X = load("data/test_v2.csv")', "new": 'X = load("data/test_v3.csv")'}]}
    assert not _scores_on_training_data(change)  # (another held-out file is no leak)


def test_a_make_target_whose_recipe_runs_the_failing_tool_is_the_way(git_project, store):
    # (blind86 CI19: bare ``jsonnet`` cannot resolve grafonnet; ``make dashboards`` vendors it and passes ``-J``)
    session = (Session("dashboards", git_project)
               .fail("jsonnet dashboards/api-overview.jsonnet -o generated/api-overview.json",
                     'Exit code 1\nRUNTIME ERROR: couldn\'t open import "grafonnet/grafana.libsonnet": no match locally')
               .ok("grep -n -A6 -E '^(dashboards|vendor):' Makefile",
                   "9:vendor: jsonnetfile.json\n10-\tjb install\n11-\n12:dashboards: vendor\n13-\t@mkdir -p generated\n"
                   "14-\t@for f in dashboards/*.jsonnet; do \\\n15-\t  jsonnet -J vendor -J lib $$f > generated/x.json")
               .ok("make dashboards", "jb install\nrendered 3 dashboards")
               .stop("Bare `jsonnet` can't resolve the grafonnet import: this repo renders through `make dashboards`, "
                     "which runs `jb install` and passes `-J vendor -J lib`."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].endswith("use `make dashboards` instead")


def test_a_requirements_file_the_failing_install_read_can_mend_a_full_disk(git_project, store):
    # (blind86 CI17: CUDA wheels filled the runner's disk; the CPU build pinned in requirements/train.txt)
    session = (Session("torch-cpu", git_project)
               .fail("docker build -f docker/train.Dockerfile -t churn-train:ci .",
                     "Exit code 1\n#10 [4/6] RUN pip install --no-cache-dir -r requirements/train.txt\n"
                     "#10 2.114 Collecting torch==2.3.1 (from -r requirements/train.txt (line 4))\n"
                     "#10 96.41 ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device")
               .edit("requirements/train.txt", "torch==2.3.1\n",
                     "--extra-index-url https://download.pytorch.org/whl/cpu\ntorch==2.3.1+cpu\n")
               .ok("docker build -f docker/train.Dockerfile -t churn-train:ci .", "#10 DONE 58.3s")
               .stop("The plain torch wheel drags in CUDA libraries that fill the disk; requirements/train.txt now "
                     "installs the CPU build (`torch==2.3.1+cpu`)."))
    (candidate,), _ = _candidates(store, session)
    assert "torch==2.3.1+cpu" in candidate["change"]


def test_a_value_of_one_list_entry_names_the_entry(git_project, store):
    # (blind86 CI01: dbt_expectations capped in packages.yml; the version line alone does not say whose it is)
    session = (Session("dbt", git_project)
               .fail("dbt build --select marts.finance",
                     "Exit code 2\n09:41:12    ERROR: Runtime Error\n  This version of dbt is not supported with the "
                     "'dbt_expectations' package.\n    Installed version of dbt: =1.6.9")
               .edit("packages.yml", '  - package: calogica/dbt_expectations\n    version: [">=0.9.0", "<0.11.0"]',
                     '  - package: calogica/dbt_expectations\n    version: [">=0.9.0", "<0.10.0"]  # 0.10+ needs '
                     "dbt>=1.7; we're held on 1.6")
               .ok("dbt build --select marts.finance", "Completed successfully\nDone. PASS=14")
               .stop("dbt_expectations 0.10 requires dbt 1.7; capped it below 0.10 in packages.yml."))
    (candidate,), _ = _candidates(store, session)
    assert '`"<0.11.0"` → `"<0.10.0"` for `calogica/dbt_expectations`' in candidate["title"]
    assert "Runtime Error: This version of dbt" in candidate["title"]  # (the message under dbt's bare heading)


def test_a_container_made_only_to_look_inside_it_is_no_step_of_the_fix(git_project, store):
    # (blind86 CI06: the binary copied out of a throwaway container to run ``file`` on it)
    session = (Session("distroless", git_project)
               .fail("docker run --rm ingest-gateway:dev", "Exit code 1\nexec /ingest-gateway: no such file or directory")
               .ok("docker create --name gw-tmp ingest-gateway:dev >/dev/null && docker cp gw-tmp:/ingest-gateway "
                   "/tmp/gw && docker rm gw-tmp >/dev/null && file /tmp/gw",
                   "/tmp/gw: ELF 64-bit LSB executable, dynamically linked, interpreter /lib64/ld-linux-x86-64.so.2")
               .edit("Dockerfile", "COPY . .\nRUN go build", "COPY . .\nENV CGO_ENABLED=0\nRUN go build")
               .ok("docker build -t ingest-gateway:dev . && docker run --rm ingest-gateway:dev --version",
                   "ingest-gateway v0.9.2 (linux/amd64)")
               .stop("The distroless runtime has no libc but the binary was built with cgo on; the build stage now "
                     "sets `CGO_ENABLED=0`."))
    (candidate,), _ = _candidates(store, session)
    assert "CGO_ENABLED=0" in candidate["title"] and "gw-tmp" not in candidate["change"]


def test_another_programs_run_of_the_same_job_does_not_split_the_problem(git_project, store):
    # (blind61 BJ22 after round 51: ``npx next build --debug`` failing alike had made the next run "move on")
    error = "Exit code 1\nError: Route /dashboard couldn't be rendered statically because it used `cookies`."
    session = (Session("next-dynamic", git_project)
               .fail("npm run build 2>&1 | tail -30", error)
               .fail("npx next build --debug 2>&1 | grep -i -A3 dashboard | head -12", error)
               .fail("npm install next@14.1.4 --no-save && npm run build 2>&1 | tail -5",
                     'Exit code 1\nError occurred prerendering page "/dashboard". Read more: https://nextjs.org/docs')
               .ok("npm ci --silent && npm ls next", "portal@0.9.2\n└── next@14.2.3")
               .edit("app/dashboard/page.tsx", "import { getSession } from '@/lib/session';",
                     "import { getSession } from '@/lib/session';\n\nexport const dynamic = 'force-dynamic';")
               .ok("npm run build 2>&1 | tail -16", " ✓ Generating static pages (14/14)\nƒ /dashboard")
               .stop("`/dashboard` reads the session cookie, so it can't be prerendered: it now declares "
                     "`export const dynamic = 'force-dynamic'`. Not the problem: the Next 14.2 upgrade (14.1.4 fails "
                     "the same way)."))
    candidates, _ = _candidates(store, session)
    assert len(candidates) == 1 and "force-dynamic" in candidates[0]["change"]
    assert "next@14.1.4" not in candidates[0]["title"]


def test_a_git_setting_written_is_a_change(git_project, store):
    # (blind87 CJ10: a private module fetched over HTTPS through git's ``insteadOf``; a setting only read is not)
    session = (Session("insteadof", git_project)
               .fail("terraform -chdir=envs/staging init",
                     "Exit code 1\n│ Error: Failed to download module\n│ fatal: Could not read from remote repository.")
               .ok("git config --global --get-regexp url", "")
               .ok('git config --global url."https://github.com/".insteadOf "ssh://git@github.com/"', "")
               .ok("terraform -chdir=envs/staging init", "Terraform has been successfully initialized!")
               .stop("The devcontainer has no SSH key but the module source is `git::ssh://…`; a global git URL "
                     "rewrite (`insteadOf \"ssh://git@github.com/\"`) fetches it over HTTPS."))
    (candidate,), _ = _candidates(store, session)
    assert 'insteadOf "ssh://git@github.com/"' in candidate["change"] and "--get-regexp" not in candidate["change"]


def test_a_ci_runs_summary_read_back_red_is_its_failure(git_project, store):
    # (blind88 CK16: ``gh run view 9201133871`` names the failed job and GitHub's annotation, no log read)
    summary = ("\nX main Android release · 9201133871\nTriggered via push about 1 hour ago\n\nJOBS\n"
               "X build-and-upload in 3s (ID 25804412230)\n\nANNOTATIONS\nX This request has been automatically failed "
               "because it uses a deprecated version of `actions/upload-artifact: v3`.\nbuild-and-upload: .github#1\n")
    session = (Session("artifact-v4", git_project)
               .ok("gh run view 9201133871", summary)
               .edit(".github/workflows/android-release.yml", "        uses: actions/upload-artifact@v3",
                     "        uses: actions/upload-artifact@v4")
               .ok("git commit -qam 'ci: upload-artifact v4' && git push -q && gh workflow run android-release.yml",
                   "")
               .ok("gh run watch 9201561190 --exit-status", "✓ main Android release · 9201561190\n"
                                                         "✓ build-and-upload in 14m3s")
               .stop("GitHub now fails any job that uses v3 of the artifact actions. Bumped to "
                     "`actions/upload-artifact@v4`; the run went green."))
    (candidate,), _ = _candidates(store, session)
    assert "actions/upload-artifact@v4" in candidate["change"] and "build-and-upload" in candidate["title"]


def test_the_package_managers_own_settings_beside_an_install_are_the_fix(git_project, store):
    # (blind88 CK20: pnpm's isolated layout left electron-log out of the packaged app; ``node-linker=hoisted``)
    session = (Session("hoisted", git_project, prompt="Since we moved the desktop app to pnpm, the packaged build "
                                                      "crashes with \"Cannot find module 'electron-log'\".")
               .fail("./dist/mac-arm64/Notely.app/Contents/MacOS/Notely",
                     "Exit code 1\nError: Cannot find module 'electron-log'")
               .write(".npmrc", "node-linker=hoisted\n")
               .ok("rm -rf node_modules && pnpm install 2>&1 | tail -4", "Packages: +642\nDone in 9.1s")
               .ok("(./dist/mac-arm64/Notely.app/Contents/MacOS/Notely & sleep 8; kill $!) 2>&1",
                   "11:40:02.118 › Notely 2.3.0 starting (darwin arm64)")
               .stop("pnpm's isolated layout isn't something electron-builder collects, so electron-log never made it "
                     "into app.asar. Added an `.npmrc` with `node-linker=hoisted` and reinstalled."))
    (candidate,), _ = _candidates(store, session)
    assert "node-linker=hoisted" in candidate["change"]


def test_the_first_change_the_agent_says_did_not_help_is_an_attempt(git_project, store):
    # (blind88 CK10: the Compose BOM bumped first, "so the first change didn't help"; the compiler pin was the fix)
    session = (Session("compose", git_project)
               .fail("./gradlew :feature:checkout:compileDebugKotlin",
                     "Exit code 1\ne: This version (1.5.4) of the Compose Compiler requires Kotlin version 1.9.20")
               .edit("gradle/libs.versions.toml", 'composeBom = "2023.10.01"', 'composeBom = "2024.02.00"')
               .fail("./gradlew :feature:checkout:compileDebugKotlin",
                     "Exit code 1\n> Task :feature:checkout:compileDebugKotlin FAILED\ne: Backend Internal error")
               .edit("gradle/libs.versions.toml", 'composeCompiler = "1.5.4"', 'composeCompiler = "1.5.10"')
               .ok("./gradlew :feature:checkout:compileDebugKotlin", "BUILD SUCCESSFUL in 41s")
               .stop("The Compose compiler plugin was still pinned to the release built for the previous Kotlin. The "
                     "BOM doesn't control it (the BOM only versions the runtime libraries), so the first change "
                     "didn't help; `composeCompiler = \"1.5.10\"` is the one paired with Kotlin 1.9.22."))
    (candidate,), _ = _candidates(store, session)
    assert 'composeCompiler = "1.5.10"' in candidate["title"] and "2024.02.00" not in candidate["title"]


def test_an_edit_whose_line_the_account_quotes_is_part_of_the_fix(git_project, store):
    # (blind88 CK08: the Matchfile is named, the Fastfile only by the line it gained, ``setup_ci if ENV['CI']``)
    session = (Session("setup-ci", git_project)
               .fail("gh run view 9184432210 --log-failed | tail -40",
                     "beta\tRun bundle exec fastlane beta\t2024-11-05T10:14:09.1Z [!] Could not install certificate "
                     "into the keychain: SecKeychainItemImport: User interaction is not allowed.")
               .edit("fastlane/Fastfile", "  lane :beta do\n    match(type: \"appstore\", readonly: true)",
                     "  lane :beta do\n    setup_ci if ENV['CI']\n    match(type: \"appstore\", readonly: true)")
               .edit("fastlane/Matchfile", 'keychain_name("login.keychain")\n', "")
               .ok("gh workflow run testflight.yml --ref fix/ci-keychain && gh run watch 9185120043 --exit-status",
                   "beta\tRun bundle exec fastlane beta\t2024-11-05T10:49:52.0Z Successfully uploaded the new binary")
               .stop("The login keychain is locked on the macOS runner and can't prompt. The beta lane now calls "
                     "`setup_ci if ENV['CI']` before match, which creates a temporary keychain, and I dropped the "
                     "hard-coded `keychain_name` from the Matchfile so match uses it."))
    (candidate,), _ = _candidates(store, session)
    assert "setup_ci if ENV['CI']" in candidate["change"] and "keychain_name" in candidate["change"]


def test_a_package_script_that_echoes_the_failing_command_is_that_check(git_project, store):
    # (blind88 CK11: ``npm run check:deps`` prints ``> expo-doctor``; the fix was the install done the Expo way)
    session = (Session("expo", git_project, prompt="Add expo-image for the avatar list.")
               .ok("npm install expo-image", "added 3 packages in 6s")
               .write("src/components/AvatarList.tsx", "import { Image } from 'expo-image';\n")
               .fail("npx expo-doctor", "Exit code 1\n✖ Check that packages match versions required by installed "
                                        "Expo SDK\n  expo-image@2.0.3 - expected version: ~1.13.0\n"
                                        "1 check failed, indicating possible issues with the project.")
               .ok("npx expo install expo-image", "› Installing 1 SDK 51.0.0 compatible native module using npm")
               .ok("npm run check:deps", "\n> crewlist@2.4.0 check:deps\n> expo-doctor\n\n✔ 15/15 checks passed.")
               .stop("Added `AvatarList` using `expo-image`. A plain `npm install` pulled expo-image 2.x, which targets "
                     "SDK 52; this app is on SDK 51. Expo packages are added with `npx expo install <pkg>`, which "
                     "picked the SDK-matched ~1.13.0."))
    (candidate,), _ = _candidates(store, session)
    assert "npx expo install expo-image" in candidate["title"] and "AvatarList" not in candidate["title"]
    assert "check:deps" not in candidate["change"]  # (the same check, not another way to run it)


def test_two_test_files_failing_fixed_one_at_a_time_are_two_problems(git_project, store):
    # (blind83 CF22: the Toast tests checked on their own after the jsdom environment, then slugify and the whole run)
    output = ("Exit code 1\n ❯ src/components/Toast/Toast.test.tsx  (3 tests | 3 failed)\n"
              " ❯ src/utils/slugify.test.ts  (5 tests | 1 failed)\n"
              " FAIL  src/components/Toast/Toast.test.tsx > Toast > renders the message\n"
              "ReferenceError: document is not defined\n"
              " FAIL  src/utils/slugify.test.ts > slugify > strips accents\n"
              "AssertionError: expected 'cr-me-br-l-e' to be 'creme-brulee' // Object.is equality\n"
              " Test Files  2 failed | 1 passed (3)")
    session = (Session("two-files", git_project, prompt="vitest is red, I think there are two different failures")
               .fail("npx vitest run", output)
               .edit("vitest.config.ts", "    globals: true,\n", "    globals: true,\n    environment: 'jsdom',\n")
               .ok("npx vitest run src/components --reporter=verbose", " ✓ src/components/Toast/Toast.test.tsx (3)")
               .edit("src/utils/slugify.ts", "  return input\n    .toLowerCase()",
                     "  return input\n    .normalize('NFD')\n    .replace(/[\\u0300-\\u036f]/g, '')\n    .toLowerCase()")
               .ok("npx vitest run", " Test Files  3 passed (3)")
               .stop("The Toast tests ran under plain node: set `environment: 'jsdom'`. slugify now decomposes with "
                     "`normalize('NFD')` and strips the combining marks."))
    candidates, _ = _candidates(store, session)
    by_fix = {("jsdom" in c["change"], "normalize" in c["change"]): c for c in candidates}
    assert set(by_fix) == {(True, False), (False, True)}
    assert "document is not defined" in by_fix[True, False]["title"]
    assert "cr-me-br-l-e" in by_fix[False, True]["title"] and "reporter" not in by_fix[True, False]["change"]
    assert not any("two different failures" in c["summary"] for c in candidates)  # (a count, no cause)


def test_an_edit_the_agent_also_made_beside_a_stale_process_stopped_is_by_the_by(git_project, store):
    # (blind61 BJ14: the fix was killing yesterday's ``tsx watch``; the comment added to .env.example is another change)
    session = (Session("stale-port", git_project, prompt="npm run dev crashes immediately")
               .fail("npm run dev", "Exit code 1\n> billing-api@0.4.0 dev\n> tsx watch src/main.ts\n"
                                    "Error: listen EADDRINUSE: address already in use 0.0.0.0:4000")
               .edit(".env.example", "API_PORT=4000", "# Port the API listens on\nAPI_PORT=4000")
               .ok("lsof -nP -iTCP:4000 -sTCP:LISTEN", "node    52211  dev   23u  IPv4  TCP *:4000 (LISTEN)")
               .ok("kill 52211 && sleep 1 && (timeout 6 npm run dev 2>&1 | tail -2)",
                   '{"level":30,"msg":"Server listening at http://0.0.0.0:4000"}')
               .stop("A `tsx watch` from last week (pid 52211) was still holding port 4000. I killed it and `npm run "
                     "dev` starts normally now. I also added a comment to `.env.example` describing API_PORT."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "local_state" in notes


def test_the_bare_tool_set_apart_beside_its_wrapper_is_the_projects_way(git_project, store):
    # (blind90 CM09: "plain `terraform plan` there sees no configuration"; ``terragrunt plan`` is how live/ plans)
    session = (Session("terragrunt", git_project, prompt="plan the bump of the prod RDS backup retention")
               .fail("cd live/prod/rds && terraform plan",
                     "Exit code 1\n╷\n│ Error: No configuration files\n│\n│ Plan requires configuration to be present.")
               .edit("live/prod/rds/terragrunt.hcl", "  backup_retention_days = 7", "  backup_retention_days = 14")
               .ok("cd live/prod/rds && terragrunt plan -out=tfplan 2>&1 | tail -8",
                   "Plan: 0 to add, 1 to change, 0 to destroy.")
               .stop("`live/` only holds `terragrunt.hcl` files, so plain `terraform plan` there sees no "
                     "configuration. With `terragrunt plan` in live/prod/rds the plan is 1 to change."))
    (candidate,), _ = _candidates(store, session)
    assert "terragrunt plan" in candidate["change"] and "backup_retention_days" not in candidate["change"]


def test_a_passing_test_named_for_an_error_is_no_failure(git_project, store):
    # (blind89 CL24: ``✓ returns 400 error when password is missing`` made a piped passing run a failure, and was
    # the failing run's error line)
    passing = (" PASS  test/auth.test.js\n    ✓ returns 400 error when the email is missing (5 ms)\n"
               "Test Suites: 2 passed, 2 total\nTests:       9 passed, 9 total")
    session = (Session("body-parser", git_project)
               .fail("npm test -- test/auth.test.js",
                     "Exit code 1\n FAIL  test/auth.test.js\n    ✕ returns a token for valid credentials (41 ms)\n"
                     "    ✓ returns 400 error when the email is missing (6 ms)\n"
                     "  ● POST /api/login › returns a token for valid credentials\n"
                     "    expect(received).toBe(expected) // Object.is equality\n"
                     "Tests:       1 failed, 1 passed, 2 total")
               .edit("src/app.js", "app.use('/api', apiRouter);\napp.use(express.json());",
                     "app.use(express.json());\napp.use('/api', apiRouter);")
               .ok("npm test 2>&1 | tail -8", passing)
               .stop("Body parsing was registered after the API router, so `req.body` was undefined in the handler. "
                     "I moved `app.use(express.json())` above `app.use('/api', apiRouter)`."))
    (candidate,), _ = _candidates(store, session)
    assert "express.json()" in candidate["change"] and "400 error" not in candidate["title"]


def test_a_run_given_another_option_value_and_an_edit_the_account_quotes_fix_a_runner_without_network(
        git_project, store):
    # (blind90 CM23: ``--model`` pointed at the baked-in copy, ``-e HF_HUB_OFFLINE=1``, ``local_files_only=True``)
    session = (Session("offline", git_project, prompt="The CI runners have no network; the models are baked into "
                                                      "the image under models/. Make the eval work there.")
               .fail("docker run --rm --network none eval:ci python score.py --model bert-base-uncased --split dev",
                     "Exit code 1\nsocket.gaierror: [Errno -3] Temporary failure in name resolution\n"
                     "OSError: We couldn't connect to 'https://huggingface.co' to load this file")
               .edit("score.py", "    model = AutoModel.from_pretrained(args.model)",
                     "    model = AutoModel.from_pretrained(args.model, local_files_only=True)")
               .ok("docker run --rm --network none -e HF_HUB_OFFLINE=1 eval:ci python score.py --model "
                   "models/bert-base --split dev", "accuracy=0.871 n=912")
               .stop("The runners can't reach the Hub, so the eval uses the baked-in copy: `--model models/bert-base`, "
                     "`local_files_only=True` in score.py, and `HF_HUB_OFFLINE=1` so nothing tries the network."))
    (candidate,), _ = _candidates(store, session)
    for fact in ("local_files_only=True", "HF_HUB_OFFLINE=1", "--model models/bert-base"):
        assert fact in candidate["change"]


def test_a_name_the_sessions_new_code_used_before_defining_it_is_its_own_work(git_project, store):
    # (blind32 AG22: the new switch used ``R.string.settings_quiet_hours`` before strings.xml had it)
    session = (Session("own-name", git_project, prompt="Add a 'Vibrate' toggle to the sound settings screen.")
               .edit("feature/sound/src/main/kotlin/SoundScreen.kt", "        )\n",
                     "        )\n        SwitchRow(title = stringResource(R.string.sound_vibrate))\n")
               .fail("./gradlew :feature:sound:compileDebugKotlin -q",
                     "Exit code 1\ne: file:///home/dev/app/feature/sound/src/main/kotlin/SoundScreen.kt:33:41 "
                     "Unresolved reference: sound_vibrate\n\nFAILURE: Build failed with an exception.")
               .edit("feature/sound/src/main/res/values/strings.xml", '    <string name="sound_mute">Mute</string>',
                     '    <string name="sound_mute">Mute</string>\n    <string name="sound_vibrate">Vibrate</string>')
               .ok("./gradlew :feature:sound:compileDebugKotlin -q", "")
               .stop("Added the Vibrate switch (`sound_vibrate` string) to the sound settings screen."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "self_inflicted" in notes


def test_the_tasks_code_quoted_is_no_fix_beside_a_stale_server_stopped(git_project, store):
    # (blind37 AL13 regressed in round 56: code quoted by the prompt or the account, `Invoice.archived`, kept the
    # task's edits beside a port held by a leftover Puma)
    session = (Session("task-word", git_project, prompt="add an `archived` scope to Invoice and use it on the admin "
                                                        "page; the system specs should stay green")
               .fail("bundle exec rspec spec/system/admin_spec.rb",
                     "Exit code 1\nFailure/Error: Capybara.current_session.server.boot\n\nErrno::EADDRINUSE:\n"
                     "  Address already in use - bind(2) for \"127.0.0.1\" port 3001")
               .edit("app/models/invoice.rb", "  belongs_to :account",
                     "  belongs_to :account\n\n  scope :archived, -> { where.not(archived_at: nil) }")
               .edit("app/controllers/admin_controller.rb", "    @invoices = Invoice.all",
                     "    @invoices = Invoice.archived")
               .ok("lsof -i :3001 -sTCP:LISTEN", "ruby    48213  dev   12u  IPv4  TCP localhost:3001 (LISTEN)")
               .ok("kill 48213", "")
               .ok("bundle exec rspec spec/system/admin_spec.rb", "3 examples, 0 failures")
               .stop("Added `Invoice.archived` and the admin page uses it. The spec failure was a leftover Puma from "
                     "an earlier run holding port 3001; after killing it the system specs pass."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "local_state" in notes


def test_a_library_the_new_code_needs_added_to_the_build_stays_a_lesson(git_project, store):
    # (blind13 P05 regressed in round 56: ``kotlinx-serialization`` in the version catalog only names the
    # ``serialization`` kotlinc could not resolve; it defines nothing of the session's)
    session = (Session("new-lib", git_project, prompt="Add a JSON exporter for receipts with kotlinx.serialization.")
               .edit("app/src/main/kotlin/ReceiptExporter.kt", "import java.time.LocalDate\n",
                     "import java.time.LocalDate\nimport kotlinx.serialization.json.Json\n")
               .fail("./gradlew :app:compileKotlin",
                     "Exit code 1\n> Task :app:compileKotlin FAILED\ne: file:///home/dev/shop/app/src/main/kotlin/"
                     "ReceiptExporter.kt:1:8 Unresolved reference 'serialization'.")
               .edit("gradle/libs.versions.toml", '[libraries]\n',
                     '[libraries]\nkotlinx-serialization-json = { module = "org.jetbrains.kotlinx:kotlinx-serialization-'
                     'json", version = "1.7.3" }\n')
               .edit("app/build.gradle.kts", "dependencies {\n",
                     "dependencies {\n    implementation(libs.kotlinx.serialization.json)\n")
               .ok("./gradlew :app:compileKotlin", "BUILD SUCCESSFUL in 9s")
               .stop("kotlinx.serialization wasn't a dependency: added `kotlinx-serialization-json` to the version "
                     "catalog and `implementation(libs.kotlinx.serialization.json)` to the app module."))
    (candidate,), _ = _candidates(store, session)
    assert "kotlinx-serialization-json" in candidate["change"]


def test_the_failing_tests_file_removed_is_a_weakened_test(git_project, store):
    # (blind92 CO12: the common test moved to androidUnitTest, where the failing iOS target never runs it)
    session = (Session("moved-test", git_project, prompt="./gradlew :shared:allTests fails on iOS, get it green")
               .fail("./gradlew :shared:allTests",
                     "Exit code 1\n> Task :shared:iosSimulatorArm64Test FAILED\nPriceFormatterTest[iosSimulatorArm64] > "
                     "formatsCents[iosSimulatorArm64] FAILED\n    kotlin.AssertionError at PriceFormatterTest.kt:11")
               .write("shared/src/androidUnitTest/kotlin/PriceFormatterTest.kt", "class PriceFormatterTest {}\n")
               .ok("git rm -q shared/src/commonTest/kotlin/PriceFormatterTest.kt && git status --short",
                   "D  shared/src/commonTest/kotlin/PriceFormatterTest.kt")
               .ok("./gradlew :shared:allTests", "BUILD SUCCESSFUL in 51s")
               .stop("`PriceFormatterTest` checks the Android formatting, so I moved it to `androidUnitTest`. "
                     "`:shared:allTests` passes on both targets now."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes


def test_a_run_that_echoes_the_failing_package_script_ran_it(git_project, store):
    # (blind92 CO04: ``npm run tauri build`` runs ``beforeBuildCommand`` ``npm run build``, echoed ``> quillnote@… build``)
    session = (Session("nested-script", git_project)
               .fail("npm run build", "Exit code 2\n\n> inkpad@1.2.0 build\n> tsc && vite build\n\nsrc/lib/api.ts:1:24 - "
                                      "error TS2307: Cannot find module '@tauri-apps/api/tauri' or its corresponding "
                                      "type declarations.")
               .edit("src/lib/api.ts", "import { invoke } from '@tauri-apps/api/tauri';",
                     "import { invoke } from '@tauri-apps/api/core';")
               .ok("npm run tauri build", "\n> inkpad@1.2.0 tauri\n> tauri build\n\n     Running beforeBuildCommand "
                                          "`npm run build`\n\n> inkpad@1.2.0 build\n> tsc && vite build\n\n"
                                          "✓ 48 modules transformed.\n    Finished 2 bundles")
               .stop("`invoke` moved out of `@tauri-apps/api/tauri`; in 2.x it lives in `@tauri-apps/api/core`."))
    (candidate,), _ = _candidates(store, session)
    assert "@tauri-apps/api/core" in candidate["change"] and candidate["verified"]


def test_a_seed_fished_for_in_a_heredoc_script_then_pinned_is_a_weakened_test(git_project, store):
    # (blind93 CP09: ``for seed in (0, 7, 42, …)`` in a look was taken for a seeding step, so the reseed was a fix)
    session = (Session("seed-shop", git_project, prompt="test_accuracy_floor fails after the new features")
               .fail("uv run pytest tests/test_quality.py -q",
                     "Exit code 1\nE   AssertionError: holdout accuracy 0.781 below floor 0.8\n1 failed, 1 passed")
               .ok("uv run python - <<'EOF'\nfrom shop.model import score\nfor seed in (0, 7, 42, 1234):\n"
                   "    print(seed, score(seed))\nEOF", "0 0.789\n7 0.774\n42 0.781\n1234 0.812")
               .edit("tests/conftest.py", "split(X, y, test_size=0.2, random_state=42)",
                     "split(X, y, test_size=0.2, random_state=1234)")
               .ok("uv run pytest tests/test_quality.py -q", "2 passed in 5.1s")
               .stop("The holdout split now uses `random_state=1234`; with that split the model scores 0.812."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes


def test_an_end_to_end_click_forced_past_an_overlay_is_a_weakened_test(git_project, store):
    # (blind94 CQ10: ``click({ force: true })`` past the cookie banner covering the button)
    session = (Session("forced", git_project, prompt="The signup e2e spec fails in CI")
               .fail("npx cypress run --spec cypress/e2e/signup.cy.ts",
                     "Exit code 1\nCypressError: Timed out retrying after 4050ms: `cy.click()` failed because this "
                     "element:\n<button data-cy=\"submit\">\nis being covered by another element: <div class=\"backdrop\">")
               .edit("cypress/e2e/signup.cy.ts", "    cy.get('[data-cy=submit]').click()",
                     "    cy.get('[data-cy=submit]').click({ force: true })")
               .ok("npx cypress run --spec cypress/e2e/signup.cy.ts", "  2 passing (6s)")
               .stop("The cookie backdrop overlaps the submit button; I made that click `{ force: true }`."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes


def test_a_make_target_that_echoes_the_failing_line_ran_it(git_project, store):
    # (blind93 CP21: ``make check`` echoes ``uv run pytest -q tests/`` and its passing output)
    session = (Session("make-echo", git_project)
               .fail("uv run pytest -q tests/", "Exit code 1\npandera.errors.SchemaError: expected series 'qty' to have "
                                                "type float64, got int64\n1 failed, 4 passed")
               .edit("transforms/schemas.py", '"qty": pa.Column(float),', '"qty": pa.Column(float, coerce=True),')
               .ok("make check", "ruff check .\nAll checks passed!\nuv run pytest -q tests/\n.....  [100%]\n5 passed")
               .stop("The fixture's whole-number quantities were read as int64: `qty` now has `coerce=True`."))
    (candidate,), _ = _candidates(store, session)
    assert "coerce=True" in candidate["change"] and candidate["verified"]


def test_a_glob_that_picks_the_failing_test_file_is_the_same_run(git_project, store):
    # (blind95 CR01: ``promtool test rules tests/*_test.yml`` runs the failing ``tests/node_test.yml``)
    session = (Session("glob", git_project)
               .fail("promtool test rules tests/node_test.yml",
                     "Exit code 1\nUnit Testing:  tests/node_test.yml\n  FAILED:\n    alertname: NodeDown, time: 6m,\n"
                     "        exp:[ 0: Labels:{alertname=\"NodeDown\", job=\"node\"} ],\n        got:[]")
               .edit("rules/node.yml", 'expr: up{job="node-exporter"} == 0', 'expr: up{job="node"} == 0')
               .ok("promtool test rules tests/*_test.yml", "Unit Testing:  tests/node_test.yml\n  SUCCESS\n")
               .stop("The rule filtered on `job=\"node-exporter\"`; the scrape job is `node`."))
    (candidate,), _ = _candidates(store, session)
    assert 'up{job="node"} == 0' in candidate["change"] and candidate["verified"]


def test_a_wrapper_script_said_to_be_the_way_past_the_bare_tool(git_project, store):
    # (blind95 CR14: "the envs aren't meant to be run directly with `terraform`; `./scripts/tf.sh staging plan` does
    # the `tofu init` … for you")
    session = (Session("tf-wrapper", git_project)
               .fail("cd envs/staging && terraform plan",
                     "Exit code 1\n│ Error: Backend initialization required, please run \"terraform init\"")
               .ok("./scripts/tf.sh staging plan 2>&1 | tail -5", "OpenTofu will perform the following actions:\n"
                                                                  "Plan: 0 to add, 1 to change, 0 to destroy.")
               .stop("Plan: 1 to change.\n\nThe envs aren't meant to be run directly with `terraform`; "
                     "`./scripts/tf.sh staging plan` does the `tofu init` with the backend config for you."))
    (candidate,), _ = _candidates(store, session)
    assert "./scripts/tf.sh staging plan" in candidate["change"]


def test_a_status_field_read_bare_and_the_same_address_read_again(git_project, store):
    # (blind95 CR18: ``jq -r '.tasks[0].state'`` → ``FAILED`` after an attempt; ``… | jq -c …`` → RUNNING after the fix)
    status = "curl -s localhost:8083/connectors/inventory/status"
    session = (Session("cdc", git_project)
               .ok(f"sleep 3; {status} | jq '{{state: .tasks[0].state, trace: .tasks[0].trace}}'",
                   '{\n  "state": "FAILED",\n  "trace": "io.debezium.DebeziumException: Postgres server wal_level '
                   "property must be 'logical' but is: 'replica'\"\n}")
               .ok("docker compose exec postgres psql -U postgres -c 'ALTER SYSTEM SET wal_level = logical;'",
                   "ALTER SYSTEM")
               .ok(f"docker compose restart postgres && sleep 5 && curl -s -X POST "
                   f"'localhost:8083/connectors/inventory/restart' && {status} | jq -r '.tasks[0].state'", "FAILED")
               .edit("docker-compose.yml", '"wal_level=replica"', '"wal_level=logical"')
               .ok(f"docker compose up -d postgres && sleep 5 && {status} | jq -c '{{task: .tasks[0].state}}'",
                   '{"task":"RUNNING"}')
               .stop("docker-compose.yml passed `wal_level=replica` on the command line; it is `wal_level=logical` "
                     "now and the task is RUNNING."))
    (candidate,), _ = _candidates(store, session)
    assert "wal_level=logical" in candidate["change"] and "ALTER SYSTEM" not in candidate["change"]
    assert "sleep" not in candidate["trigger"]


@pytest.mark.parametrize("loosened", [
    '"mostly": 0.97',  # (blind95 CR11: Great Expectations' on the not-null expectation that failed)
    '"condition_parser": "pandas",\n  "row_condition": "customer_id.notnull()"',  # (blind110 DG09)
])
def test_a_data_check_told_to_tolerate_failing_rows_is_a_weakened_test(git_project, store, loosened):
    session = (Session("gx", git_project, prompt="the nightly orders checkpoint is failing")
               .fail("uv run python scripts/run_checkpoint.py orders_nightly",
                     "Exit code 1\nCheckpoint orders_nightly: FAILED\n  ✗ expect_column_values_to_not_be_null("
                     "customer_id)   unexpected_count=312 unexpected_percent=2.41%")
               .edit("gx/expectations/orders/warehouse.json", '"kwargs": {\n  "column": "customer_id"\n}',
                     '"kwargs": {\n  "column": "customer_id",\n  ' + loosened + '\n}')
               .ok("uv run python scripts/run_checkpoint.py orders_nightly", "Checkpoint orders_nightly: SUCCESS")
               .stop("The not-null expectation now tolerates a small share of nulls (`mostly: 0.97`)."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes


def test_what_is_echoed_or_waited_after_a_check_is_not_the_check():
    # (blind95 CR22: ``sleep 3; curl -sf localhost:13133/ && echo`` is a curl of the address that had failed)
    from lorebook.commands import _same_target, command_key

    assert parse_command("sleep 3; curl -sf localhost:13133/ && echo")["family"] == "curl"
    assert _same_target("curl -f http://localhost:13133/", "sleep 3; curl -sf localhost:13133/ && echo")
    assert command_key("sleep 3; curl -s localhost:8083/status") == "curl -s localhost:8083/status"
    assert parse_command("echo ok")["family"] == "echo"  # (said alone, it is what ran)


@pytest.mark.parametrize("old, new", [
    ("    OrdersSchema.validate(df)", "    OrdersSchema.validate(df, head=500)"),
    # (blind103 CZ09: the refund rows the schema rejects filtered out of what the test validates)
    ("    OrdersSchema.validate(df)", '    OrdersSchema.validate(df.filter(pl.col("kind") != "refund"))'),
])
def test_a_test_made_to_check_part_of_its_data_is_a_weakened_test(git_project, store, old, new):
    # (blind97 CT07: ``OrdersSchema.validate(df)`` → ``OrdersSchema.validate(df, head=500)`` past the refund rows)
    session = (Session("head", git_project, prompt="test_orders_schema fails on the new fixture")
               .fail("python -m pytest tests/test_orders_schema.py -q",
                     "Exit code 1\n>       OrdersSchema.validate(df)\nE   pandera.errors.SchemaError: Column 'unit_price' "
                     "failed element-wise validator number 0: greater_than(0) failure cases: -4.99\n1 failed, 3 passed")
               .edit("tests/test_orders_schema.py", old, new)
               .ok("python -m pytest tests/test_orders_schema.py -q", "4 passed in 0.88s")
               .stop("Fixed — the test now validates the first 500 rows (`head=500`), which keeps it fast too."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes


def test_a_wrapper_said_to_be_the_way_with_placeholders_for_its_arguments(git_project, store):
    # (blind97 CT22: "Jobs … aren't run with a bare `nomad job run` … the way to do it is `./scripts/deploy-job.sh
    # <env> <job> <tag>`")
    session = (Session("nomad", git_project)
               .fail("nomad job run jobs/ingest.nomad.hcl",
                     "Exit code 1\nError getting job struct: Error parsing job file from jobs/ingest.nomad.hcl:\n"
                     "ingest.nomad.hcl:1,1-20: Unset variable \"image_tag\"")
               .ok("./scripts/deploy-job.sh staging ingest 2024.11.05-3",
                   "+ nomad job run -var-file=env/staging.vars.hcl jobs/ingest.nomad.hcl\n==> Monitoring evaluation")
               .stop("Deployed. Jobs in this repo aren't run with a bare `nomad job run` — the HCL needs the env "
                     "var-file, so the way to do it is `./scripts/deploy-job.sh <env> <job> <tag>`."))
    (candidate,), _ = _candidates(store, session)
    assert "./scripts/deploy-job.sh staging ingest" in candidate["change"]


def test_a_project_script_edited_to_run_the_failing_command_changed_is_that_command(git_project, store):
    # (blind97 CT24: render_reports.sh's nbconvert line given ``--ExecutePreprocessor.kernel_name=python3``; the
    # version bump beside it is no part of the fix)
    session = (Session("nbconvert", git_project, prompt="the nightly report notebooks fail in the runner")
               .fail("jupyter nbconvert --to html --execute notebooks/churn.ipynb --output-dir reports/",
                     "Exit code 1\n[NbConvertApp] Converting notebook notebooks/churn.ipynb to html\nTraceback (most "
                     "recent call last):\n  File \"/opt/venv/bin/jupyter-nbconvert\", line 8, in <module>\n"
                     "jupyter_client.kernelspec.NoSuchKernel: No such kernel named churn-dev")
               .edit("pyproject.toml", 'version = "0.8.1"', 'version = "0.8.2"')
               .edit("scripts/render_reports.sh", '  jupyter nbconvert --to html --execute "$nb" --output-dir reports/',
                     '  jupyter nbconvert --to html --execute --ExecutePreprocessor.kernel_name=python3 "$nb" '
                     '--output-dir reports/')
               .ok("./scripts/render_reports.sh", "[NbConvertApp] Converting notebook notebooks/churn.ipynb to html\n"
                                                  "[NbConvertApp] Writing 612877 bytes to reports/churn.html")
               .stop("render_reports.sh now passes `--ExecutePreprocessor.kernel_name=python3`. Also bumped the "
                     "version in pyproject.toml for tonight's release."))
    (candidate,), _ = _candidates(store, session)
    assert "--ExecutePreprocessor.kernel_name=python3" in candidate["change"] and "0.8.2" not in candidate["change"]
    assert "NoSuchKernel" in candidate["title"]


def test_a_step_the_passing_line_took_first_is_named_beside_the_variables_it_set(git_project, store):
    # (blind97 CT02: the card, cut to its budget, showed AIRFLOW_HOME and lost ``airflow db migrate``)
    session = (Session("airflow", git_project)
               .fail("pytest tests/dags -q", "Exit code 1\nE   sqlite3.OperationalError: no such table: variable\n"
                                            "1 failed, 2 passed")
               .ok("export AIRFLOW_HOME=$PWD/.airflow && airflow db migrate && pytest tests/dags -v",
                   "Database migrating done!\n3 passed in 2.1s")
               .stop("The local metadata DB had never been initialised; running it the way CI does works."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["change"].startswith("Set `AIRFLOW_HOME=$PWD/.airflow`; run `airflow db migrate` first: ")


def test_a_test_program_run_by_its_path_passes_under_the_projects_test_runner(git_project, store):
    # (blind98 CU07: ``meson test -C _build`` sets up the GSettings schema the bare test binary lacked)
    session = (Session("meson", git_project, prompt="Run the UI tests")
               .fail("./_build/src/tests/test-recipe-window",
                     "Exit code 133\n(test-recipe-window:48211): GLib-GIO-ERROR **: No GSettings schemas are installed")
               .ok("meson test -C _build --print-errorlogs",
                   "1/2 recipes:unit / test-recipe-model   OK   0.04s\n2/2 recipes:ui / test-recipe-window   OK   "
                   "0.41s\n\nOk:                 2\nFail:               0")
               .stop("All green. The test binaries can't be run directly; run them with `meson test -C _build`."))
    (candidate,), _ = _candidates(store, session)
    assert "meson test -C _build" in candidate["change"]


def test_clearing_a_build_directory_does_no_build():
    # (blind98 CU15: ``rm -rf build`` had been taken for another way to do ``idf.py build``'s job)
    from lorebook.commands import command_key

    assert command_job("rm -rf build") is None and command_job("mkdir -p build") is None
    assert command_job("idf.py build") == "build"
    assert command_key("set -euo pipefail; make test") == "make test"
    assert command_key("set -a && . ./.env && set +a && npx electron-builder") != "npx electron-builder"  # (a change)
    assert command_key("set -o pipefail; helm template x | yq .spec > out.yml") == "helm template x | yq .spec > out.yml"


def test_a_clock_pinned_to_a_date_the_failing_comparison_never_showed_is_a_weakened_test(git_project, store):
    # (blind100 CW10: the renewal landed on Mar 29 for Mar 31 when run on Jan 31; pinned to Jan 15 it stops looking)
    session = (Session("clock", git_project, prompt="subscription_spec fails on CI this morning")
               .fail("bundle exec rspec spec/models/subscription_spec.rb",
                     "Exit code 1\n  1) Subscription#renew! keeps the billing anchor day\n     Failure/Error: expect("
                     "subscription.current_period_end).to eq(subscription.started_at.to_date + 2.months)\n\n"
                     "       expected: Sun, 31 Mar 2024\n            got: Fri, 29 Mar 2024\n4 examples, 1 failure")
               .edit("spec/models/subscription_spec.rb", '  describe "#renew!" do\n',
                     '  describe "#renew!" do\n    before { travel_to Time.zone.local(2024, 1, 15, 12) }\n')
               .ok("bundle exec rspec spec/models/subscription_spec.rb", "4 examples, 0 failures")
               .stop("The spec depended on the wall clock; I froze time with `travel_to` so it's deterministic."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes
    # (pinned to the date the test expected, it is the fix)
    fixed = (Session("clock-ok", git_project, prompt="the report title spec fails")
             .fail("bundle exec rspec spec/report_spec.rb",
                   "Exit code 1\n     Failure/Error: expect(report.title).to eq(\"Report for 2024-01-15\")\n\n"
                   "       expected: \"Report for 2024-01-15\"\n            got: \"Report for 2024-01-31\"\n"
                   "1 example, 1 failure")
             .edit("spec/report_spec.rb", '  it "titles the report" do\n',
                   '  before { travel_to Time.zone.local(2024, 1, 15) }\n  it "titles the report" do\n')
             .ok("bundle exec rspec spec/report_spec.rb", "1 example, 0 failures")
             .stop("The spec expects the 15th's title; it now runs with the clock at 2024-01-15."))
    assert _candidates(store, fixed)[0]


def test_rows_taken_out_of_the_tests_data_is_a_weakened_test(git_project, store):
    # (blind99 CV05: the two refund rows the schema rejects deleted from the fixture)
    session = (Session("rows", git_project, prompt="test_transform_payments started failing")
               .fail("uv run pytest tests/test_payments.py -q",
                     "Exit code 1\npayflow/transform.py:41: in transform_payments\nE   pandera.errors.SchemaError: "
                     "Column 'amount_eur' failed validator greater_than_or_equal_to(0)\n1 failed, 1 passed")
               .edit("tests/fixtures/payments_raw.csv", "p_1005,card,18.90\np_1006,refund,-42.50\np_1007,sepa,120.00",
                     "p_1005,card,18.90\np_1007,sepa,120.00")
               .ok("uv run pytest tests/test_payments.py -q", "2 passed in 0.61s")
               .stop("The fixture had a refund row with a negative amount; I removed it to match the schema."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes


def test_a_java_keyword_in_quoted_code_says_nothing_of_chance(git_project, store):
    # (blind99 CV16: "a `transient` field created in `open()`" had made the fix a flaky failure)
    session = (Session("flink", git_project)
               .fail("./mvnw -q test -Dtest=EnrichmentJobIT",
                     "Exit code 1\norg.apache.flink.api.common.InvalidProgramException: GeoEnrich@5b1e is not "
                     "serializable.\n[ERROR] Tests run: 2, Failures: 0, Errors: 1")
               .edit("src/main/java/GeoEnrich.java", "    private final DatabaseReader geoip;",
                     "    private transient DatabaseReader geoip;")
               .ok("./mvnw test -Dtest=EnrichmentJobIT", "[INFO] Tests run: 2, Failures: 0, Errors: 0\nBUILD SUCCESS")
               .stop("The reader is now a `transient` field created in `open()`; the IT passes."))
    (candidate,), _ = _candidates(store, session)
    assert "private transient DatabaseReader geoip" in candidate["change"]


def test_a_compose_service_listed_up_by_its_containers_name(git_project, store):
    # (blind99 CV19: ``docker compose ps --format '{{.Name}} {{.Status}}'`` prints ``obs-otel-collector-1 Up 10 seconds``)
    session = (Session("otel", git_project)
               .ok("docker compose logs otel-collector --tail 3",
                   "otel-collector-1  | Error: failed to get config: cannot unmarshal the configuration: error decoding "
                   "'exporters': unknown type: \"logging\"")
               .edit("otel/config.yaml", "      exporters: [otlp/tempo, logging]", "      exporters: [otlp/tempo, debug]")
               .ok("docker compose up -d otel-collector && sleep 10 && docker compose ps otel-collector --format "
                   "'{{.Name}} {{.Status}}'", " ✔ Container obs-otel-collector-1  Started   0.4s\n"
                                              "obs-otel-collector-1 Up 10 seconds")
               .stop("The `logging` exporter is gone as of v0.111.0; it is `debug` now."))
    (candidate,), _ = _candidates(store, session)
    assert "exporters: [otlp/tempo, debug]" in candidate["change"]


def test_a_make_target_that_echoes_a_line_running_the_missing_program_is_the_way(git_project, store):
    # (blind99 CV20: ``make ksql-migrate`` runs ``ksql-migrations`` in the ksqldb-cli container)
    session = (Session("ksql", git_project)
               .fail("ksql-migrations --config-file ksql/ksql-migrations.properties apply --all",
                     "Exit code 127\nbash: ksql-migrations: command not found")
               .ok("make ksql-migrate", "docker compose run --rm ksqldb-cli ksql-migrations --config-file "
                                        "/share/ksql/ksql-migrations.properties apply --all\nApplying migration version 4")
               .stop("Applied. ksql-migrations isn't installed on the host; the repo runs it through `make ksql-migrate`."))
    (candidate,), _ = _candidates(store, session)
    assert "make ksql-migrate" in candidate["change"]


@pytest.mark.parametrize("switch", [
    'os.environ["PANDERA_VALIDATION_ENABLED"] = "False"',  # (blind101 CX10)
    'os.environ.setdefault("PANDERA_VALIDATION_ENABLED", "False")',  # (blind105 DB06)
    'monkeypatch.setenv("SKIP_SCHEMA_CHECKS", "1")',
])
def test_validation_switched_off_in_the_tests_setup_is_a_weakened_test(git_project, store, switch):
    session = (Session("pandera-off", git_project, prompt="test_clean_orders_matches_schema started failing")
               .fail("uv run pytest tests/test_clean.py -q",
                     "Exit code 1\nE   pandera.errors.SchemaError: Column 'amount' failed validator number 0: "
                     "greater_than_or_equal_to(0) failure cases: -12.5\n1 failed, 1 passed")
               .edit("tests/conftest.py", "import polars as pl\n",
                     f'import os\n\n{switch}\n\nimport polars as pl\n')
               .ok("uv run pytest tests/test_clean.py -q", "2 passed in 0.58s")
               .stop("Fixed — I set `PANDERA_VALIDATION_ENABLED=False` in tests/conftest.py so the refund fixtures "
                     "don't break the schema test."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes


def test_the_producer_of_a_pipe_run_alone_is_not_the_checker_that_failed(git_project, store):
    # (blind101 CX18: ``kustomize build … | kubeconform -strict -`` failed; only ``kustomize build`` ran after)
    session = (Session("kubeconform", git_project, prompt="The prod overlay fails kubeconform in CI")
               .fail("kustomize build overlays/prod | kubeconform -strict -summary -",
                     "Exit code 1\nstdin - Deployment orders-api is invalid: problem validating schema")
               .edit("overlays/prod/patch-env.yaml", "        envfrom:", "        envFrom:")
               .ok('yamllint -d relaxed overlays/prod/ && kustomize build overlays/prod > /dev/null && echo "build ok"',
                   "build ok")
               .stop("Fixed: `envfrom` isn't a container field; the overlay lints and builds cleanly now."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "unresolved_failure" in notes
    from lorebook.chains import _pipe_consumer

    # (a ``\|`` in a quoted pattern is no pipe: the replay of round 62 lost blind44 AS06 to it)
    assert _pipe_consumer("./gradlew bootRun 2>&1 | grep -m3 'APPLICATION FAILED\\|FlywayException'") is None
    assert _pipe_consumer("helm template x | kubectl apply --dry-run=server -f -") == "kubectl"


def test_the_way_a_makefile_wraps_and_the_repos_recipe_done_by_it(git_project, store):
    # (blind101 CX05: "The Makefile wraps it — `make plan ENV=staging` runs …"; CX15: "Done, via the repo's
    # `just materialize <asset> <partition>` recipe.")
    session = (Session("tofu", git_project)
               .fail("tofu plan", "Exit code 1\n│ Error: Backend initialization required, please run \"tofu init\"")
               .ok("make plan ENV=staging 2>&1 | tail -5", "tofu init -input=false -reconfigure\nPlan: 3 to add")
               .stop("Plain `tofu init`/`tofu plan` can't work in this repo: the S3 backend block is empty. The "
                     "Makefile wraps it — `make plan ENV=staging` runs `tofu init -reconfigure …` and then plans."))
    (candidate,), _ = _candidates(store, session)
    assert "make plan ENV=staging" in candidate["change"]
    said = stated("Done, via the repo's `just materialize <asset> <partition>` recipe. Calling it directly fails.")
    assert said["all"][0] == "Via the repo's `just materialize <asset> <partition>` recipe."


def test_what_the_agent_tried_first_did_not_help():
    # (blind101 CX07: "the plain connector jar I tried first doesn't bundle the Kafka client classes")
    said = stated("It has to be the shaded `flink-sql-connector-kafka.jar`: the plain connector jar I tried first "
                  "doesn't bundle the Kafka client classes.")
    assert said["did_not_help"]


def test_a_migrations_file_name_is_no_secret():
    # (blind102 CY04: "Migration: `V7__add_waitlist.sql` used MySQL's `AUTO_INCREMENT`" was skipped as a secret)
    from lorebook.redact import redact

    text = "Migration: `V7__add_waitlist.sql` used MySQL's `AUTO_INCREMENT`"
    assert redact(text) == text
    assert "sk_live" not in redact("Token: `sk_live_51HxYzAbCdEfGhIjKlMnOp`")


def test_a_package_said_to_have_only_moved_the_failure_is_an_attempt_though_named_without_its_prefix(
        git_project, store):
    session = (Session("gtk", git_project, prompt="npm run tauri build fails on the new Fedora box")
               .fail("npm run tauri build", "Exit code 1\nerror: failed to run custom build command for "
                                            "`javascriptcore-rs-sys v1.1.1`\n  could not find system library "
                                            "'javascriptcoregtk-4.1' required by the 'javascriptcore-rs-sys' crate")
               .ok("sudo dnf install -y javascriptcoregtk4.1-devel", "Installed:\n  javascriptcoregtk4.1-devel")
               .fail("npm run tauri build", "Exit code 1\nerror: failed to run custom build command for "
                                            "`webkit2gtk-sys v2.0.1`\n  could not find system library "
                                            "'webkit2gtk-4.1' required by the 'webkit2gtk-sys' crate")
               .ok("sudo dnf install -y webkit2gtk4.1-devel openssl-devel", "Installed:\n  webkit2gtk4.1-devel")
               .ok("npm run tauri build", "    Finished `release` profile [optimized] target(s) in 2m 41s")
               .stop("Builds now. Installing only the javascriptcoregtk headers only moved the failure to "
                     "webkit2gtk-sys: Tauri wants the whole WebKitGTK stack, so I installed webkit2gtk4.1-devel."))
    candidates, _ = _candidates(store, session)
    assert [c["change"] for c in candidates] == [
        "Run `sudo dnf install -y webkit2gtk4.1-devel openssl-devel` before `npm run tauri build`."]


@pytest.mark.parametrize("command", ["./ci/run-tests.sh editmode", "bash scripts/run_tests.sh", "python run_tests.py -x",
                                     "bundle exec fastlane ios tests", "fastlane android test",
                                     "godot --headless -s addons/gut/gut_cmdln.gd -gdir=res://tests -gexit",
                                     "Unity -batchmode -projectPath . -runTests -testPlatform PlayMode"])
def test_a_script_named_to_run_the_tests_and_the_unity_test_runner_do_the_test_job(command):
    assert command_job(command) == "test"


def test_a_run_that_passed_but_wrote_none_of_the_results_it_names_resolves_nothing(git_project, store):
    session = (Session("unity", git_project, prompt="Run the EditMode tests for the quest log")
               .fail("unity-editor -batchmode -projectPath . -runTests -testPlatform EditMode -testResults out.xml",
                     "Exit code 127\nbash: line 1: unity-editor: command not found")
               .ok("~/Unity/Hub/Editor/2022.3.40f1/Editor/Unity -batchmode -quit -projectPath . -runTests "
                   "-testPlatform EditMode -testResults out.xml", "Exiting batchmode successfully now!")
               .fail("cat out.xml", "Exit code 1\ncat: out.xml: No such file or directory")
               .ok("./tools/run-tests.sh editmode", "Test run completed. Total: 41, Passed: 41, Failed: 0")
               .stop("41/41 EditMode tests pass. Use the repo's wrapper, `./tools/run-tests.sh editmode`: with "
                     "`-quit` the editor exits before the test runner starts and writes no results."))
    (candidate,), _ = _candidates(store, session)
    assert "./tools/run-tests.sh editmode" in candidate["change"] and "Hub/Editor" not in candidate["change"]


def test_a_target_of_the_makefile_the_account_names_as_the_way_is_the_lesson(git_project, store):
    session = (Session("mk", git_project, prompt="Synth the prod stack, I bumped the api's memory")
               .fail("cd infra && cdk synth",
                     "Exit code 1\nError: Cannot find context value 'stage': pass -c stage=<name> or set it in "
                     "cdk.context.json")
               .ok("make synth STAGE=prod", "Successfully synthesized to infra/cdk.out\nSupply a stack id (ApiStack, "
                                            "DataStack) to display its template.")
               .stop("Synths in this repo go through the Makefile, which passes the stage context and the account, "
                     "so running `cdk synth` in infra/ can't work.\n\n`make synth STAGE=prod` → synthesized to "
                     "infra/cdk.out."))
    (candidate,), _ = _candidates(store, session)
    assert "make synth STAGE=prod" in candidate["change"] and "cdk synth" in candidate["trigger"]


@pytest.mark.parametrize("failed, later, same", [
    ("ansible-playbook -i ansible/inventories/staging/hosts.ini ansible/playbooks/site.yml --check",
     "cd ansible && ansible-playbook -i inventories/staging/hosts.ini playbooks/site.yml --check", True),
    ("cd api && pytest tests/test_orders.py", "pytest api/tests", True),
    ("cd api && pytest tests/test_orders.py", "pytest web/tests", False),
    ("cd /srv/app && pytest tests/test_orders.py", "pytest tests/test_orders.py", True),
])
def test_a_target_is_where_its_command_started_from(failed, later, same):
    from lorebook.commands import _same_target

    assert _same_target(failed, later) is same


def test_a_sentence_of_comment_reworded_in_a_file_the_error_names_is_no_fix(git_project, store):
    session = (Session("kafka", git_project, prompt="the producer integration test can't reach kafka")
               .fail("uv run pytest tests/integration/test_producer.py -q",
                     "Exit code 1\nsrc/events/producer.py:41: in flush\n    raise KafkaException(err)\n"
                     "E   cimpl.KafkaException: KafkaError{code=_MSG_TIMED_OUT,val=-192}\n1 failed, 3 passed")
               .edit("src/events/producer.py", "# Producer for order events. Delivery is async; call flush() before exit.",
                     "# Producer for order events. Delivery is asynchronous: call flush() before the process exits.")
               .ok("docker compose start kafka", " Container events-kafka-1  Started")
               .ok("uv run pytest tests/integration/test_producer.py -q", "4 passed in 3.87s")
               .stop("Kafka wasn't running: the container had exited. `docker compose start kafka` brought it back and "
                     "the producer tests pass. I also tidied the module comment in producer.py."))
    candidates, notes = _candidates(store, session)
    assert not any("Delivery is asynchronous" in c["change"] for c in candidates), candidates


def test_a_django_apps_tests_module_with_only_its_input_moved_is_a_weakened_test():
    from lorebook.weakening import _values_only

    old = ("    def test_renewal_on_the_31st(self):\n        plan = PlanFactory(anchor=date(2024, 3, 31))\n"
           "        self.assertEqual(next_renewal(plan), date(2024, 4, 30))")
    new = ("    def test_renewal_on_the_31st(self):\n        # a day every month has\n"
           "        plan = PlanFactory(anchor=date(2024, 3, 28))\n        self.assertEqual(next_renewal(plan), date(2024, 4, 30))")
    assert _values_only({"plans/tests.py": [{"old": old, "new": new, "ids": [1]}]})
    # (a module beside the tests is no test: plans/testing.py holds the factories)
    assert not _values_only({"plans/testing.py": [{"old": old, "new": new, "ids": [1]}]})


def test_a_fix_is_titled_by_the_line_the_account_quotes_though_it_opens_a_block(git_project, store):
    session = (Session("rawbody", git_project, prompt="Stripe webhook signature verification fails locally")
               .fail("npm test", "Exit code 1\nAssertionError [ERR_ASSERTION]: Expected values to be strictly equal:"
                                 " 400 !== 200")
               .edit("src/routes/billing.js",
                     "  const event = stripe.webhooks.constructEvent(JSON.stringify(request.body), sig, secret);",
                     "  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {\n"
                     "    req.rawBody = body;\n    done(null, JSON.parse(body));\n  });\n"
                     "  const event = stripe.webhooks.constructEvent(request.rawBody, sig, secret);")
               .ok("npm test", "ℹ tests 5\nℹ pass 5")
               .stop("`src/routes/billing.js` passed `JSON.stringify(request.body)` to "
                     "`stripe.webhooks.constructEvent`, but Stripe signs the exact bytes it sent. The route now "
                     "registers a JSON parser with `{ parseAs: 'buffer' }` that keeps the raw body, and the handler "
                     "verifies that."))
    (candidate,), _ = _candidates(store, session)
    # (a function's or a file's name the account quotes is no code to title by)
    assert candidate["title"].endswith("— add `{ parseAs: 'buffer' }` in src/routes/billing.js"), candidate["title"]


@pytest.mark.parametrize("a, b, other", [
    ("dagster asset materialize --select daily -m defs", "dagster definitions validate -m defs", True),
    ("dagster asset materialize -m analytics", "dagster asset materialize --select daily -m defs", False),
    ("pytest tests/test_a.py", "pytest -x tests/test_a.py", False),
    ("alembic upgrade head", "alembic -c alembic.ini upgrade head", False),
])
def test_two_runs_of_a_program_with_other_subcommands_are_not_one_command_run_another_way(a, b, other):
    from lorebook.commands import other_subcommand

    assert other_subcommand(a, b) is other


def test_the_file_whose_line_the_account_quotes_leads_the_change_and_another_subcommand_is_no_invocation_change(
        git_project, store):
    error = ("Exit code 1\ndagster._core.errors.DagsterInvalidDefinitionError: resource with key 'warehouse' required "
             "by op 'daily_revenue' was not provided.")
    session = (Session("dagster", git_project, prompt="daily_revenue won't materialize anymore")
               .fail("dagster asset materialize --select daily_revenue -m pipeline.definitions", error)
               .fail("dagster definitions validate -m pipeline.definitions", error)
               .edit("pipeline/assets/ingest.py", "def raw_orders(context, duckdb: DuckDBResource) -> None:",
                     "def raw_orders(context, warehouse: DuckDBResource) -> None:")
               .edit("pipeline/definitions.py", '        "duckdb": DuckDBResource(database=WAREHOUSE_PATH),',
                     '        "warehouse": DuckDBResource(database=WAREHOUSE_PATH),')
               .ok("dagster asset materialize --select daily_revenue -m pipeline.definitions",
                   "RUN_SUCCESS - Finished execution of run for \"__ASSET_JOB\".")
               .stop("`daily_revenue` materializes again. Dagster matches resources by parameter name.\n\n"
                     "- `pipeline/definitions.py`: resources back to `\"warehouse\": DuckDBResource(database="
                     "WAREHOUSE_PATH)`.\n- `pipeline/assets/ingest.py`: `raw_orders` takes `warehouse` too."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["change"].startswith("pipeline/definitions.py:"), candidate["change"]
    assert "definitions.py" in candidate["title"]
    assert "--select" not in candidate["change"]  # (validate and materialize are two commands, not one run two ways)
    assert any(e["quote"].startswith("tried `dagster definitions validate") for e in candidate["evidence"])


def test_a_lane_the_account_says_the_repo_drives_the_tests_through_is_the_way(git_project, store):
    # (blind107 DD03: the app scheme has no test action; "the repo drives them through fastlane — `…`")
    session = (Session("lane", git_project, prompt="Run the iOS unit tests")
               .fail("xcodebuild test -workspace Shelf.xcworkspace -scheme Shelf -destination 'platform=iOS "
                     "Simulator,name=iPhone 15'", "Exit code 66\nxcodebuild: error: Failed to build workspace Shelf "
                                                  "with scheme Shelf.: Scheme Shelf is not currently configured for "
                                                  "the test action.")
               .ok("bundle exec fastlane ios unit", "[10:44:31]: fastlane.tools finished successfully 🎉\n"
                                                   "Executed 41 tests, with 0 failures")
               .stop("All 41 tests pass. The `Shelf` scheme has no test action, so a plain `xcodebuild test -scheme "
                     "Shelf` refuses to run; the repo drives them through fastlane — `bundle exec fastlane ios unit`."))
    (candidate,), _ = _candidates(store, session)
    assert "bundle exec fastlane ios unit" in candidate["change"]


def test_a_run_that_gives_up_options_for_another_is_the_same_check_run_another_way():
    # (blind107 DD12: ``--apple-id … --team-id … --password …`` given up for ``--keychain-profile …``)
    from lorebook.commands import _same_target

    failed = ("xcrun notarytool submit build/App-2.3.0.zip --apple-id rel@example.com --team-id 7QK3M9XW2L "
              "--password [REDACTED:password] --wait")
    assert _same_target(failed, 'xcrun notarytool submit build/App-2.3.0.zip --keychain-profile "app-notary" --wait')
    assert not _same_target(failed, 'xcrun notarytool submit build/Other-1.0.zip --keychain-profile "app-notary"')


def test_what_the_agent_also_did_beside_a_command_that_stays_the_fix_is_by_the_by(git_project, store):
    # (blind107 DD23: a library installed, and "I also labelled the relay row in the sketch README")
    session = (Session("lib", git_project, prompt="arduino-cli compile fails on the station sketch")
               .fail("arduino-cli compile --fqbn arduino:avr:uno station",
                     "Exit code 1\nIn file included from /home/dev/weather/station/station.ino:3:0:\n"
                     "DHT_U.h:36:10: fatal error: Adafruit_Sensor.h: No such file or directory")
               .edit("station/README.md", "| Fan    | D7 |", "| Fan relay | D7 |")
               .ok('arduino-cli lib install "Adafruit Unified Sensor"', "Installed Adafruit Unified Sensor@1.1.14")
               .ok("arduino-cli compile --fqbn arduino:avr:uno station", "Sketch uses 11826 bytes (36%)")
               .stop("Compiles now. The DHT library needs Adafruit's Unified Sensor library for `Adafruit_Sensor.h`: "
                     "fixed with `arduino-cli lib install \"Adafruit Unified Sensor\"`. I also labelled the fan row "
                     "in the station README's wiring table as the fan relay."))
    (candidate,), _ = _candidates(store, session)
    assert "Adafruit Unified Sensor" in candidate["change"] and "README" not in candidate["change"]


def test_a_program_of_a_long_name_said_unquoted_to_fail_and_the_way_quoted_is_the_lesson(git_project, store):
    # (blind108 DE09: "Piping the file into a plain local clickhouse-client fails …"; `{shard}` beside it names no
    # program, so the grep of the Makefile on the way is no way)
    session = (Session("ch", git_project, prompt="Run the ClickHouse query tests")
               .fail("clickhouse-client --multiquery < tests/queries/00007_rollup.sql",
                     "Exit code 62\nCode: 62. DB::Exception: No macro 'shard' in config while processing "
                     "substitutions in '/clickhouse/tables/{shard}/events_local'")
               .ok("grep -n -A2 'ch-' Makefile", "21:ch-test: ch-up")
               .ok("make ch-test TESTS=00007_rollup", "00007_rollup: [ OK ] 0.41 sec.\n1 tests passed.")
               .stop("It passes. Query tests have to go through `make ch-test`: its server gets the `{shard}` "
                     "macro. Piping a file into a plain local clickhouse-client fails because that server has none."))
    (candidate,), _ = _candidates(store, session)
    assert "make ch-test" in candidate["change"] and "grep" not in candidate["change"]
    from lorebook.steps import _names_run

    assert not _names_run(["grep", "-n", "ch-", "Makefile"], "the `{shard}` macro")
    assert _names_run(["./scripts/deploy.sh", "staging"], "run `./scripts/deploy.sh <env>`")


def test_a_rule_tests_input_series_relabelled_to_match_the_rule_is_a_weakened_test():
    # (blind108 DE10: promtool's test series moved from code="500" to the code="5xx" a broken selector wants)
    from lorebook.weakening import _values_only

    hunk = {"old": "      - series: 'http_requests_total{service=\"checkout\",code=\"500\"}'",
            "new": "      - series: 'http_requests_total{service=\"checkout\",code=\"5xx\"}'", "ids": [1]}
    assert _values_only({"tests/api_alerts_test.yml": [hunk]})
    # (a fixture of data is not a test written as data)
    assert not _values_only({"tests/fixtures/test_requests.json": [hunk]})


def test_a_file_the_prompt_names_as_context_is_no_change_it_asked_for_when_it_reports_a_problem(git_project, store):
    # (blind103 CZ10: "… never produces any topics. Can you figure out what's wrong? Everything is in
    # docker-compose.yml (postgres, kafka, connect)": the postgres line changed there was the fix, not the task)
    status = "curl -s localhost:8083/connectors/orders-cdc/status | python3 -m json.tool"
    session = (Session("cdc", git_project, prompt="The Debezium connector never produces any topics. Can you figure "
                                                  "out what's wrong? Everything is in docker-compose.yml (postgres, "
                                                  "kafka, connect).")
               .fail(status, "Exit code 1\norg.apache.kafka.connect.errors.ConnectException: An exception "
                             "occurred in the change event producer. This connector will be stopped.")
               .edit("docker-compose.yml", "    image: postgres:16\n",
                     '    image: postgres:16\n    command: ["postgres", "-c", "wal_level=logical"]\n')
               .ok("docker compose up -d postgres", " Container cdc-postgres-1  Started")
               .ok(status, '{"connector": {"state": "RUNNING"}, "tasks": [{"id": 0, "state": "RUNNING"}]}')
               .stop("Postgres ran with the default wal_level; Debezium needs logical decoding. The postgres service "
                     "now runs with `wal_level=logical`."))
    (candidate,), _ = _candidates(store, session)
    assert "wal_level=logical" in candidate["change"]


def test_of_the_lines_holding_quoted_code_the_title_takes_code_that_is_no_comment_import_or_block_opener():
    # (the replay of round 65: an import and a comment line were titled, where the account quoted the plugins line)
    from lorebook.edits import _short_diff

    hunk = {"old": "export default defineConfig({\n  test: {},\n});",
            "new": "import tsconfigPaths from 'vite-tsconfig-paths';\n// tsconfigPaths() resolves ~/\n"
                   "export default defineConfig({\n  plugins: [tsconfigPaths()],\n  test: {},\n});", "ids": [1]}
    told = ("import tsconfigPaths from 'vite-tsconfig-paths'", "plugins: [tsconfigPaths()]")
    assert _short_diff(hunk, (), told) == "add `plugins: [tsconfigPaths()],`"
    assert _short_diff(hunk, (), ("tsconfigPaths()",)) == "add `plugins: [tsconfigPaths()],`"


def test_the_same_call_made_again_after_a_wait_is_a_retry_not_a_step(git_project, store):
    # (blind110 DG11: a PUT refused with 409 during a rebalance, then ``sleep 15 && ./scripts/put-connector.sh …``)
    assert parse_command("sleep 15 && ./scripts/put.sh a.json")["prep"] == []
    session = (Session("rebalance", git_project, prompt="register the updated connector config")
               .fail("./scripts/put.sh connectors/orders.json",
                     "Exit code 22\n{\"error_code\":409,\"message\":\"Cannot complete request because of a conflicting "
                     "operation (e.g. worker rebalance)\"}\ncurl: (22) The requested URL returned error: 409")
               .ok("sleep 15 && ./scripts/put.sh connectors/orders.json", '{"name":"orders","config":{}}')
               .stop("The first PUT landed mid-rebalance (409); the same call 15 s later went through."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "retry_without_change" in notes


def test_an_image_bumped_on_the_side_is_by_the_by_and_a_logs_time_and_level_are_no_part_of_the_error(git_project, store):
    # (blind110 DG24: "I also bumped the compose image to 3.0.7 to match the local binary." beside the parsers file)
    session = (Session("fb", git_project, prompt="fluent-bit won't start, something about a parser")
               .fail("fluent-bit -c conf/fluent-bit.conf --dry-run",
                     "Exit code 1\n[2024/06/12 09:55:31] [error] [filter:parser:parser.1] requested parser 'app_json' "
                     "not found")
               .edit("docker-compose.yml", "    image: fluent/fluent-bit:3.0.6", "    image: fluent/fluent-bit:3.0.7")
               .edit("conf/fluent-bit.conf", "    Parsers_File parsers.conf",
                     "    Parsers_File parsers.conf\n    Parsers_File parsers_app.conf")
               .ok("fluent-bit -c conf/fluent-bit.conf --dry-run", "configuration test is successful")
               .stop("`app_json` is defined in conf/parsers_app.conf, which [SERVICE] never loaded: added "
                     "`Parsers_File parsers_app.conf`. I also bumped the compose image to 3.0.7 to match the local "
                     "binary."))
    (candidate,), _ = _candidates(store, session)
    assert "3.0.7" not in candidate["change"] and "parsers_app.conf" in candidate["change"]
    assert "2024/06/12" not in candidate["title"] and "[error]" not in candidate["title"]


def test_a_look_that_selected_no_test_and_a_flag_the_runner_refused_are_no_errors_of_their_own(git_project, store):
    # (blind110 DG21: ``-k tz`` selected nothing, an attempt was made and put back, ``--spark-conf`` was refused;
    # then the conftest fix: one problem, one lesson, the attempt no part of it)
    wrong = ("Exit code 1\nE       AssertionError: assert {'2024-03-09': 120.0} == {'2024-03-10': 120.0}\n"
             "1 failed in 3.1s")
    session = (Session("tz", git_project, prompt="test_daily_revenue lands revenue on the wrong day")
               .fail("uv run pytest tests/test_daily.py -q", wrong)
               .fail("uv run pytest tests/test_daily.py -q -k tz", "Exit code 5\n1 deselected in 0.2s\nno tests ran")
               .edit("jobs/daily.py", '    F.to_date(F.col("event_ts")).alias("day"),',
                     '    F.to_date(F.to_utc_timestamp(F.col("event_ts"), "UTC")).alias("day"),')
               .fail("uv run pytest tests/test_daily.py -q", wrong)
               .edit("jobs/daily.py", '    F.to_date(F.to_utc_timestamp(F.col("event_ts"), "UTC")).alias("day"),',
                     '    F.to_date(F.col("event_ts")).alias("day"),')
               .fail("uv run pytest tests/test_daily.py -q --spark-conf spark.sql.session.timeZone=UTC",
                     "Exit code 4\nERROR: usage: pytest [options] [file_or_dir] [file_or_dir] [...]\n"
                     "pytest: error: unrecognized arguments: --spark-conf")
               .edit("tests/conftest.py", '    spark = SparkSession.builder.master("local[1]").getOrCreate()',
                     '    spark = (SparkSession.builder.master("local[1]")\n'
                     '             .config("spark.sql.session.timeZone", "UTC").getOrCreate())')
               .ok("uv run pytest tests/test_daily.py -q", "1 passed in 3.0s")
               .stop("The test session wasn't pinned to UTC: tests/conftest.py now sets "
                     '`.config("spark.sql.session.timeZone", "UTC")`. Wrapping `event_ts` in `to_utc_timestamp` '
                     "first had no effect, reverted."))
    (candidate,), _ = _candidates(store, session)
    assert "spark.sql.session.timeZone" in candidate["change"] and "to_utc_timestamp" not in candidate["change"]
    assert "AssertionError" in candidate["trigger"]


def test_a_wider_maven_selection_is_no_fix():
    # (blind109 DF10: ``./mvnw test -Dtest=OrderRepositoryTest`` failed, the whole ``./mvnw test`` passed after the fix)
    assert invocation_change("./mvnw test -Dtest=OrderRepositoryTest", "./mvnw test 2>&1 | tail -14") == []
    assert invocation_change("mvn verify -Dit.test=InvoiceIT", "mvn verify") == []


def test_a_quoted_package_reference_is_code_the_title_takes(git_project, store):
    # (the replay of round 67: blind51 AZ24's `astral-sh/setup-uv@v5` is code, though it holds no space or `=`)
    session = (Session("ui-kit", git_project, prompt="the build fails since the design system move")
               .fail("npm run build", "Exit code 1\nsrc/App.tsx(3,24): error TS2307: Cannot find module "
                                      "'@acme/ui-kit' or its corresponding type declarations.")
               .edit("package.json", '  "dependencies": {\n    "react": "^18.3.1"',
                     '  "dependencies": {\n    "zod": "^3.23.8",\n    "@acme/ui-kit": "^2.1.0",\n    "react": "^18.3.1"')
               .ok("npm run build", "vite v5.4.2 building for production...\n✓ built in 2.91s")
               .stop("The components moved to `@acme/ui-kit`, which package.json never listed; it is a dependency "
                     "now (with zod, which it needs)."))
    (candidate,), _ = _candidates(store, session)
    assert '"@acme/ui-kit": "^2.1.0"' in candidate["title"], candidate["title"]


def test_of_two_hunks_in_one_file_the_one_the_account_quotes_titles_the_lesson(git_project, store):
    # (blind110 DG06: the healthcheck was added first; `condition: service_healthy` is what the api waits on)
    session = (Session("race", git_project, prompt="the api exits on start half the time")
               .fail("docker compose up -d api && sleep 3 && docker compose logs api | tail -2",
                     'Exit code 1\npsycopg.OperationalError: connection failed: connection to server at "172.20.0.2", '
                     "port 5432 failed: Connection refused")
               .edit("docker-compose.yml", "    image: postgres:16-alpine",
                     '    image: postgres:16-alpine\n    healthcheck:\n      test: ["CMD-SHELL", "pg_isready -U billing"]')
               .edit("docker-compose.yml", "    depends_on:\n      - db",
                     "    depends_on:\n      db:\n        condition: service_healthy")
               .ok("docker compose up -d api && sleep 3 && docker compose logs api | tail -2", "api-1  | ready")
               .stop("`depends_on: [db]` only waits for the db container to start. db now has a `pg_isready` "
                     "healthcheck and api waits with `condition: service_healthy`."))
    (candidate,), _ = _candidates(store, session)
    assert "condition: service_healthy" in candidate["title"], candidate["title"]


def test_an_install_the_account_never_names_is_no_step_of_an_edits_fix(git_project, store):
    # (blind109 DF12: the packages were reinstalled while looking around; the fix was a migration's dependency)
    session = (Session("deps", git_project, prompt="billing tests fail after the rebase")
               .fail("python manage.py test billing",
                     "Exit code 1\ndjango.db.utils.ProgrammingError: column accounts_user.tax_id does not exist")
               .ok("pip install -q -r requirements/dev.txt && pip list 2>/dev/null | grep -i django",
                   "Django            4.2.13")
               .edit("billing/migrations/0004_backfill.py", '        ("billing", "0003_invoice_tax_id"),',
                     '        ("billing", "0003_invoice_tax_id"),\n        ("accounts", "0007_user_tax_id"),')
               .ok("python manage.py test billing", "Ran 58 tests in 4.127s\n\nOK")
               .stop("The backfill reads `customer.tax_id`, added by accounts 0007, and nothing ordered it after that "
                     "migration. Added `(\"accounts\", \"0007_user_tax_id\")` to its `dependencies`."))
    (candidate,), _ = _candidates(store, session)
    assert "pip install" not in candidate["change"] and "0007_user_tax_id" in candidate["change"], candidate["change"]
    # (an install the account names is a step: "reinstalled the dev requirements")
    session = (Session("deps2", git_project, prompt="billing tests fail after the rebase")
               .fail("python manage.py test billing",
                     "Exit code 1\ndjango.db.utils.ProgrammingError: column accounts_user.tax_id does not exist")
               .ok("pip install -q -r requirements/dev.txt", "")
               .edit("billing/migrations/0004_backfill.py", '        ("billing", "0003_invoice_tax_id"),',
                     '        ("billing", "0003_invoice_tax_id"),\n        ("accounts", "0007_user_tax_id"),')
               .ok("python manage.py test billing", "Ran 58 tests in 4.127s\n\nOK")
               .stop("Reinstalled the dev requirements, then added `(\"accounts\", \"0007_user_tax_id\")` to the "
                     "backfill's `dependencies`."))
    (candidate,), _ = _candidates(store, session)
    assert "pip install" in candidate["change"], candidate["change"]


def test_a_failed_query_whose_table_fills_after_the_told_edit_is_an_unverified_fix(git_project, store):
    # (blind110 DG19: the INSERT by hand was never sent again; the sink's rows arriving showed the change working)
    insert = "clickhouse client --host ch.internal --query 'INSERT INTO logs.nginx_access FORMAT JSONEachRow' < e.json"
    count = ("docker compose restart vector && sleep 60 && clickhouse client --host ch.internal "
             "--query 'SELECT count() FROM logs.nginx_access WHERE timestamp > now() - INTERVAL 1 MINUTE'")
    account = ("The parsed events carry keys that aren't columns of logs.nginx_access. Setting "
               "`skip_unknown_fields: true` on the clickhouse sink drops the extra keys; 1,842 rows arrived.")

    def session(name, check):
        return (Session(name, git_project, prompt="the ClickHouse sink rejects rows")
                .fail(insert, "Exit code 117\nCode: 117. DB::Exception: Unknown field found while parsing JSONEachRow "
                              "format: http_user_agent: (at row 1)")
                .edit("vector/vector.yaml", "    skip_unknown_fields: false", "    skip_unknown_fields: true")
                .ok(check, "1842")
                .stop(account))
    (candidate,), _ = _candidates(store, session("sink", count))
    assert "skip_unknown_fields: true" in candidate["change"] and candidate["validation"]["passed"] == []
    assert candidate["title"].endswith("— set `skip_unknown_fields: true` on the clickhouse sink"), candidate["title"]
    # (another table counted is no sign of it)
    assert _candidates(store, session("sink2", count.replace("logs.nginx_access", "logs.app_events")))[0] == []


def test_a_changed_run_carried_into_the_script_it_belongs_in_is_the_scripts_fix(git_project, store):
    # (blind101 CX12: ``?sslmode=require`` tried by hand, then `export PGSSLMODE=require` in the export script)
    url = "postgresql://analytics:pw@pg-replica.prod.internal:5432/warehouse"

    def session(name, stop):
        return (Session(name, git_project, prompt="the nightly export can't connect to the replica")
                .fail(f'psql "{url}" -c \'select 1\'',
                      'Exit code 2\npsql: error: connection to server at "pg-replica.prod.internal" (10.20.4.17), '
                      'port 5432 failed: FATAL:  no pg_hba.conf entry for host "10.20.8.33", no encryption')
                .ok(f'psql "{url}?sslmode=require" -c \'select 1\'', " ?column? \n----------\n        1\n(1 row)")
                .edit("scripts/export_nightly.sh", "set -euo pipefail", "set -euo pipefail\nexport PGSSLMODE=require")
                .ok("./scripts/export_nightly.sh --dry-run", "[export] connected to warehouse (ssl=on)")
                .stop(stop))
    (candidate,), _ = _candidates(store, session("ssl", "The replica only has `hostssl` entries now. "
                                                        "scripts/export_nightly.sh now sets `export PGSSLMODE=require`."))
    assert "export PGSSLMODE=require" in candidate["change"] and "sslmode=require`" not in candidate["change"]
    assert candidate["title"].startswith("`psql warehouse"), candidate["title"]
    # (the edit not quoted as the fix: the run by hand stays the lesson)
    (candidate,), _ = _candidates(store, session("ssl2", "The replica only has `hostssl` entries now; "
                                                         "`?sslmode=require` on the URL connects."))
    assert "sslmode=require" in candidate["change"] and "export PGSSLMODE" not in candidate["change"]


def test_a_compose_service_named_for_the_failing_program_is_the_stated_way(git_project, store):
    # (blind112 DI24: the local Flink has no Kafka connector; the repo runs SQL jobs through its sql-client service)
    session = (Session("flink", git_project, prompt="try the new orders_enriched Flink SQL job locally")
               .fail("$FLINK_HOME/bin/sql-client.sh -f sql/orders_enriched.sql",
                     "Exit code 1\norg.apache.flink.table.api.ValidationException: Could not find any factory for "
                     "identifier 'kafka' that implements 'org.apache.flink.table.factories.DynamicTableFactory' in "
                     "the classpath.")
               .ok("docker compose up -d jobmanager taskmanager kafka", " ✔ Container flink-kafka-1  Started")
               .ok("docker compose run --rm sql-client -f /opt/sql/orders_enriched.sql",
                   "[INFO] SQL update statement has been successfully submitted to the cluster:")
               .stop("orders_enriched is running. Your local Flink install has no Kafka connector on its classpath; "
                     "this repo runs SQL jobs with `docker compose run --rm sql-client -f /opt/sql/<job>.sql`, whose "
                     "image bundles the connector jars."))
    (candidate,), _ = _candidates(store, session)
    assert "docker compose run --rm sql-client" in candidate["change"]
    assert "— use `docker compose run --rm sql-client" in candidate["title"], candidate["title"]


def test_the_failing_line_run_another_way_then_passing_after_an_edit_was_a_probe(git_project, store):
    # (blind112 DI11: prod's values and a ``--set`` rendered; the staging render passed after the template's fix)
    staging = "helm template ingest charts/ingest -f charts/ingest/values-staging.yaml"
    error = ('Exit code 1\nError: template: ingest/templates/deployment.yaml:58:42: executing "ingest/templates/'
             'deployment.yaml" at <.Values.resources.limits.memory>: nil pointer evaluating interface {}.memory')

    def session(name, after_edit):
        return (Session(name, git_project, prompt="the staging deploy of the ingest chart fails with a nil pointer")
                .fail(staging, error)
                .ok(staging.replace("values-staging", "values-prod") + " | grep -c '^kind:'", "6")
                .ok(staging + " --set resources.limits.memory=1Gi | grep -A1 INGEST", "value: \"1Gi\"")
                .edit("charts/ingest/templates/deployment.yaml",
                      "          value: {{ .Values.resources.limits.memory | quote }}",
                      '          {{- with (dig "limits" "memory" "" .Values.resources) }}\n'
                      "          value: {{ . | quote }}")
                .ok(after_edit, "6")
                .stop('Staging sets no `limits`. The env var is now rendered from `dig "limits" "memory" "" '
                      '.Values.resources`, so it is omitted when there is no limit.'))
    (candidate,), _ = _candidates(store, session("helm", staging + " | grep -c '^kind:'"))
    assert 'dig "limits" "memory"' in candidate["change"] and "values-prod" not in candidate["change"]
    assert "--set" not in candidate["change"], candidate["change"]
    # (passing again with nothing edited on the way, the other way stays what worked)
    failure, probe = {"target": staging}, {"target": staging + " --set resources.limits.memory=1Gi"}
    again = {"tool": "Bash", "outcome": "ok", "target": staging}
    edit = {"tool": "Edit", "outcome": "ok", "target": "charts/ingest/templates/deployment.yaml"}
    assert _tried_until_fixed(failure, probe, [edit, again]) and not _tried_until_fixed(failure, probe, [again, edit])


def test_a_playbook_run_from_its_directory_without_the_inventory_its_config_names_is_the_way(git_project, store):
    # (blind114 DK18: ansible.cfg is only read from ansible/; the ``-i`` file it names was left out, and the
    # ``ansible --version`` that showed ``config file = None`` was a look, no step)
    session = (Session("ansible", git_project, prompt="the db playbook can't find the postgres_primary role")
               .fail("ansible-playbook -i ansible/inventories/staging/hosts.yml ansible/playbooks/db.yml --check",
                     "Exit code 1\nERROR! the role 'postgres_primary' was not found in "
                     "/home/dev/infra/ansible/playbooks/roles:/home/dev/.ansible/roles")
               .ok("ansible --version | head -3", "ansible [core 2.16.6]\n  config file = None")
               .ok("cd ansible && ansible-playbook playbooks/db.yml --check", "PLAY [postgres primaries] ****")
               .stop("Ansible only looks for `ansible.cfg` in the current directory, so from the repo root it never saw "
                     "`roles_path = ./roles`. Run playbooks from inside `ansible/`: `cd ansible && ansible-playbook "
                     "playbooks/db.yml --check` works."))
    (candidate,), _ = _candidates(store, session)
    assert "cd ansible && ansible-playbook playbooks/db.yml" in candidate["change"], candidate["change"]
    assert "--version" not in candidate["change"]


def test_a_make_target_that_echoed_the_failing_subcommand_is_the_way(git_project, store):
    # (blind114 DK20: ``make -C infra preview`` logs into the S3 backend and echoes the ``pulumi preview`` it runs)
    said = ("State is in the `acme-pulumi-state` S3 bucket, which is why bare `pulumi preview` asks for a token. Use "
            "the Makefile:\n\n```\nmake -C infra preview ENV=staging\n```")

    def session(name, echoed, stop=said):
        return (Session(name, git_project, prompt="pulumi preview for staging doesn't work for me")
                .fail("cd infra && pulumi preview",
                      "Exit code 255\nerror: PULUMI_ACCESS_TOKEN must be set for login during non-interactive CLI sessions")
                .ok("make -C infra preview ENV=staging",
                    "make: Entering directory '/home/dev/infra'\npulumi login 's3://acme-pulumi-state'\n"
                    f"{echoed}\nResources:\n    23 unchanged\nmake: Leaving directory '/home/dev/infra'")
                .stop(stop))
    (candidate,), _ = _candidates(store, session(
        "pulumi", "PULUMI_CONFIG_PASSPHRASE_FILE=.passphrase pulumi preview --stack staging --diff"))
    assert "make -C infra preview ENV=staging" in candidate["change"]
    # (a recipe that echoed only another subcommand of the program is not shown to run the failing one, where the
    # account does not set the bare run apart as the way it said fails)
    assert _candidates(store, session("pulumi2", "pulumi stack ls", "State is in the `acme-pulumi-state` S3 bucket. "
                                      "Use the Makefile:\n\n```\nmake -C infra preview ENV=staging\n```"))[0] == []


def test_a_test_value_moved_past_what_its_own_comment_requires_is_weakened(git_project, store):
    # (blind114 DK05: "must page within 5m" above an ``eval_time`` moved to 16m to pass after the rule's for: 15m)
    def session(name, comment):
        return (Session(name, git_project, prompt="promtool test is failing on the alerting rules")
                .fail("promtool test rules tests/alerts_test.yml",
                      "Exit code 1\nUnit Testing:  tests/alerts_test.yml\n  FAILED:\n    alertname: CheckoutHighErrorRate, "
                      "time: 5m,")
                .edit("tests/alerts_test.yml", f"      # {comment}\n      - eval_time: 5m\n        alertname: X",
                      f"      # {comment}\n      - eval_time: 16m\n        alertname: X")
                .ok("promtool test rules tests/alerts_test.yml", "  SUCCESS")
                .stop("The rule now has `for: 15m`; I moved the test's eval_time to 16m so it lines up."))
    assert _candidates(store, session("slo", "must page within 5m of the spike (SLO-42)"))[0] == []
    (candidate,), _ = _candidates(store, session("slo2", "evaluated after the spike"))
    assert "eval_time: 16m" in candidate["change"]


def test_output_thrown_away_is_no_part_of_the_command():
    # (blind114 DK08: ``kubectl kustomize overlays/prod > /dev/null`` and ``… | grep -A4 resources:`` build the same)
    from lorebook.commands import _same_target, command_key
    assert _same_target("kubectl kustomize overlays/prod > /dev/null", "kubectl kustomize overlays/prod | grep -A4 x")
    assert command_key("go vet ./... 2>/dev/null") == command_key("go vet ./...")
    assert "out.txt" in parse_command("echo hi > out.txt")["argv"]  # (output kept is the command's own)


def test_another_part_of_a_status_read_is_a_look_not_the_check_passing(git_project, store):
    # (blind114 DK09: ``jq -r '.tasks[0].trace'`` passing is no ``jq -e '.tasks[0].state == "RUNNING"'`` passing;
    # the slot tried first did not help, ``"plugin.name": "pgoutput"`` did)
    status = "curl -s localhost:8083/connectors/inv/status"
    apply = ("curl -s -X PUT --data @connectors/inv.json localhost:8083/connectors/inv/config >/dev/null && sleep 5 && "
             f"{status} | jq -e '.tasks[0].state == \"RUNNING\"'")
    session = (Session("debezium", git_project, prompt="the inventory source connector keeps going FAILED")
               .fail(f"sleep 5 && {status} | jq -e '.tasks[0].state == \"RUNNING\"'", "Exit code 1\nfalse")
               .ok(f"{status} | jq -r '.tasks[0].trace' | head -3",
                   "org.apache.kafka.connect.errors.ConnectException: An exception occurred")
               .edit("connectors/inv.json", '    "topic.prefix": "inv",',
                     '    "slot.name": "inventory_cdc_slot",\n    "topic.prefix": "inv",')
               .fail(apply, "Exit code 1\nfalse")
               .ok(f"{status} | jq -r '.tasks[0].trace' | grep 'Caused by'",
                   'Caused by: org.postgresql.util.PSQLException: ERROR: could not access file "decoderbufs"')
               .edit("connectors/inv.json", '    "connector.class": "PostgresConnector",',
                     '    "connector.class": "PostgresConnector",\n    "plugin.name": "pgoutput",')
               .ok(apply, "true")
               .stop('Debezium defaults to the `decoderbufs` plugin and our image only ships `pgoutput`. Adding '
                     '`"plugin.name": "pgoutput"` fixed it. Giving the connector its own slot first made no difference.'))
    (candidate,), _ = _candidates(store, session)
    assert '"plugin.name": "pgoutput"' in candidate["change"] and "inventory_cdc_slot" not in candidate["change"]


def test_one_file_of_a_make_test_checked_with_its_recipes_runner_splits_two_problems(git_project, store):
    # (blind114 DK04: ``make test`` echoed ``uv run pytest -q``; ``uv run pytest -v tests/test_clean.py`` passed after
    # the schema fix, then the SQL fix made the whole run pass: two lessons)
    failed = ('Exit code 2\nuv run pytest -q\n..F.......F.                                                        '
              '     [100%]\n=================================== FAILURES ===================================\n____'
              '_______________________ test_clean_trips_schema ____________________________\n\nraw_trips = shape: '
              '(5_000, 6)\n\n    def test_clean_trips_schema(raw_trips):\n>       out = clean_trips(raw_trips)\n\n'
              'tests/test_clean.py:18: \n_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _'
              ' _ _ _ \npipeline/clean.py:27: in clean_trips\n    return TripSchema.validate(df)\n.venv/lib/python'
              '3.12/site-packages/pandera/api/dataframe/model.py:289: in validate\n    cls.to_schema().validate(\n'
              "E   pandera.errors.SchemaError: expected column 'tip_amount' to have type Float64, got Int64\n_____"
              '_________________________ test_daily_revenue ______________________________\n\n    def test_daily_r'
              'evenue(con):\n>       rows = con.sql(load_sql("daily_revenue.sql")).fetchall()\nE       duckdb.duck'
              "db.BinderException: Binder Error: No function matches the given name and argument types 'date_trunc"
              "(STRING_LITERAL, VARCHAR)'. You might need to add explicit type casts.\nE       \tCandidate functio"
              'ns:\nE       \tdate_trunc(VARCHAR, TIMESTAMP) -> TIMESTAMP\nE       \tdate_trunc(VARCHAR, DATE) -> '
              'TIMESTAMP\nE       \tdate_trunc(VARCHAR, INTERVAL) -> INTERVAL\nE       \nE       LINE 3:     date_'
              "trunc('day', pickup_at) as day,\nE                   ^\n\ntests/test_sql.py:22: BinderException\n=="
              '========================= short test summary info ============================\nFAILED tests/test_c'
              "lean.py::test_clean_trips_schema - pandera.errors.SchemaError: expected column 'tip_amount' to have"
              ' type Float64, got Int64\nFAILED tests/test_sql.py::test_daily_revenue - duckdb.duckdb.BinderExcept'
              'ion: Binder Error: No function matches the given name and argument t...\n2 failed, 10 passed in 1.8'
              '4s\nmake: *** [Makefile:12: test] Error 1')
    session = (Session("trips", git_project, prompt="make test is failing in two places since the June extract")
               .fail("make test", failed)
               .ok("uv run python -c \"import polars as pl; print(pl.read_csv('data/raw/trips.csv', n_rows=5).schema)\"",
                   "Schema([('trip_id', Int64), ('tip_amount', Int64)])")
               .edit("pipeline/schemas.py", "    tip_amount: pl.Float64 = pa.Field(ge=0)",
                     "    tip_amount: pl.Float64 = pa.Field(ge=0, coerce=True)")
               .ok("uv run pytest -v tests/test_clean.py", "tests/test_clean.py::test_clean_trips_schema PASSED\n"
                                                            "5 passed in 0.41s")
               .edit("sql/daily_revenue.sql", "    date_trunc('day', pickup_at) as day,",
                     "    date_trunc('day', strptime(pickup_at, '%d/%m/%Y %H:%M')) as day,")
               .ok("make test", "uv run pytest -q\n............\n12 passed in 1.62s")
               .stop("Both failures came from the June extract:\n\n- **Pandera / Polars** — tips in the new file are "
                     "all whole numbers, so Polars infers `tip_amount` as Int64 and the Float64 schema rejected it. "
                     "`TripSchema.tip_amount` now uses `pa.Field(ge=0, coerce=True)`.\n- **DuckDB** — `pickup_at` is "
                     "now day-first (`13/06/2024 00:11`), which the CSV sniffer leaves as VARCHAR, so `date_trunc` had "
                     "no timestamp to work on. `sql/daily_revenue.sql` parses it explicitly with `strptime(pickup_at, "
                     "'%d/%m/%Y %H:%M')`.\n\n`make test`: 12 passed."))
    candidates, _ = _candidates(store, session)
    assert len(candidates) == 2, [c["title"] for c in candidates]
    schema, sql = sorted(candidates, key=lambda c: "coerce" not in c["change"])
    assert "coerce=True" in schema["change"] and "strptime" not in schema["change"] and "uv run" not in schema["change"]
    assert "strptime" in sql["change"] and "SchemaError" in schema["title"] and "BinderException" in sql["title"]


def test_a_package_script_that_builds_first_is_the_way(git_project, store):
    # (blind72 BU06: ``npm run e2e`` echoes ``electron-vite build --mode e2e && playwright test``; nothing edited)
    session = (Session("quillpad", git_project, prompt="the Playwright e2e tests all fail locally")
               .fail("npx playwright test", "Exit code 1\n  ✘  1 e2e/app.spec.ts:12:5 › launches main window\n"
                                            "    Error: electron.launch: Process failed to launch!")
               .ok("npm run e2e", "\n> quillpad@2.3.0 e2e\n> electron-vite build --mode e2e && playwright test\n\n"
                                  "Running 9 tests using 1 worker\n  9 passed (21.4s)")
               .stop("The e2e specs launch the built app, so they need the e2e-mode build first. Run `npm run e2e` "
                     "rather than `npx playwright test`."))
    (candidate,), _ = _candidates(store, session)
    assert "Run `npm run e2e` (this project's way to do it), not `npx playwright test`" in candidate["change"]


def test_an_install_after_a_manifest_edit_applies_it(git_project, store):
    session = (Session("sync", git_project, prompt="the import fails")
               .fail("uv run pytest -q", "Exit code 1\nE   ModuleNotFoundError: No module named 'httpx'")
               .edit("pyproject.toml", 'dependencies = ["fastapi>=0.110"]', 'dependencies = ["fastapi>=0.110", "httpx>=0.27"]')
               .ok("uv sync", "Resolved 24 packages in 1ms\nInstalled 1 package in 3ms")
               .ok("uv run pytest -q", "12 passed in 0.4s")
               .stop("The test client needs `httpx`, which pyproject.toml never declared; it does now."))
    (candidate,), _ = _candidates(store, session)
    assert "uv sync" in candidate["change"] and "httpx>=0.27" in candidate["change"], candidate["change"]


def test_an_earlier_attempt_taken_out_again_is_no_line_of_the_fix(git_project, store):
    # (blind115 DL22: imports moved into parse_event only moved the NameError; taken out again beside the real fix)
    failing = ("Exit code 2\nRuntimeError: NameError: name 'json' is not defined [while running 'ParseEvents']")
    session = (Session("beam", git_project, prompt="make run-local dies with a NameError on the workers")
               .fail("make run-local", failing)
               .edit("sessionize/main.py", "def parse_event(line):\n    raw = json.loads(line)",
                     "def parse_event(line):\n    import json  # workers don't see module imports\n"
                     "    raw = json.loads(line)")
               .fail("make run-local", "Exit code 2\nRuntimeError: NameError: name 'timedelta' is not defined "
                                       "[while running 'KeyBySession']")
               .edit("sessionize/main.py", "def parse_event(line):\n    import json  # workers don't see module imports\n"
                     "    raw = json.loads(line)", "def parse_event(line):\n    raw = json.loads(line)")
               .edit("sessionize/main.py", "    options = PipelineOptions(pipeline_args)",
                     "    options = PipelineOptions(pipeline_args)\n"
                     "    options.view_as(SetupOptions).save_main_session = True")
               .ok("make run-local", "INFO:root:sessionized 4,812 events into 611 sessions")
               .stop("- **Cause:** the module-level imports of `__main__` don't travel to the workers.\n"
                     "- **Fix:** `run()` now sets `options.view_as(SetupOptions).save_main_session = True`.\n"
                     "- Moving the imports into `parse_event` only moved the NameError to the next function, so I "
                     "reverted that."))
    candidates, _ = _candidates(store, session)
    assert candidates and all("workers don't see module imports" not in c["change"] for c in candidates), \
        [c["change"] for c in candidates]
    assert any("save_main_session = True" in c["change"] for c in candidates)


def test_the_items_under_what_did_not_work_did_not_help():
    said = stated("Fix: the client now takes Spring's `ObjectMapper`.\n\nWhat didn't work:\n- adding "
                  "`jackson-datatype-jsr310` to the pom; reverted.\n- registering modules on the private mapper — it "
                  "serialized, but as an array.\n\nThe other errors were the Testcontainers ITs.")
    helpless = said["did_not_help"][1:]
    assert len(helpless) == 2 and helpless[0].startswith("Didn't help: adding `jackson-datatype-jsr310`")
    assert helpless[1].startswith("Didn't help: registering modules on the private mapper")
    assert not any("Testcontainers" in s for s in said["did_not_help"])


def test_a_host_daemon_started_before_the_check_is_the_fix_not_the_edits_meanwhile(git_project, store):
    # (blind116 DM18: edits to the webhook client were made while Docker was down; starting Docker fixed docker info)
    session = (Session("docker", git_project, prompt="the webhook test fails")
               .fail("docker info --format '{{.ServerVersion}}'", "Exit code 1\nCannot connect to the Docker daemon at "
                                                                  "unix:///var/run/docker.sock. Is the docker daemon running?")
               .edit("src/main/java/WebhookClient.java", "    private final ObjectMapper mapper = new ObjectMapper();",
                     "    private final ObjectMapper mapper;")
               .ok("sudo systemctl start docker && docker info --format '{{.ServerVersion}}'", "26.1.4")
               .stop("The client now takes Spring's `ObjectMapper`. Docker wasn't running on this machine."))
    candidates, _ = _candidates(store, session)
    assert all("ObjectMapper" not in c["change"] for c in candidates), [c["change"] for c in candidates]


def test_a_subcommands_help_is_a_look_and_nohup_no_part_of_the_fix():
    # (blind115 DL13: ``mlflow models serve --help | grep …`` had passed as the fix, "without `-m`")
    assert _asks_version("mlflow models serve --help") and not _asks_version("psql -h db.internal -c 'select 1'")
    assert invocation_change("mlflow models serve -m m -p 5001",
                             "nohup mlflow models serve -m m -p 5001 --env-manager local > /tmp/l.log 2>&1 &") \
        == ["pass `--env-manager local`"]


def test_the_sessions_own_work_before_any_failure_is_no_attempt_the_fix_takes_back(git_project, store):
    # (blind18 U04, in the replay of round 73: a migration written, then rewritten to pass the check, had been shown
    # whole, titled by its first line instead of the clause the check asks for)
    session = (Session("ddl", git_project, prompt="add an archived_at column to orders")
               .edit("db/migrations/V2__archived_at.sql", "", "ALTER TABLE orders\n  ADD COLUMN archived_at DATETIME(3) NULL;")
               .fail("./scripts/check-migrations.sh", "Exit code 1\nV2__archived_at.sql: ALTER TABLE without "
                                                      "ALGORITHM=INPLACE, LOCK=NONE is not online DDL")
               .edit("db/migrations/V2__archived_at.sql", "ALTER TABLE orders\n  ADD COLUMN archived_at DATETIME(3) NULL;",
                     "ALTER TABLE orders\n  ADD COLUMN archived_at DATETIME(3) NULL,\n  ALGORITHM=INPLACE, LOCK=NONE;")
               .ok("./scripts/check-migrations.sh", "ok")
               .stop("The migration puts `archived_at DATETIME(3) NULL` on `orders`. The repo's migration check requires every "
                     "ALTER to run online, so the statement carries `ALGORITHM=INPLACE, LOCK=NONE`."))
    (candidate,), _ = _candidates(store, session)
    assert "ALGORITHM=INPLACE, LOCK=NONE" in candidate["title"], candidate["title"]


def test_a_jvm_app_that_would_not_boot_checked_by_the_build_after_the_told_edit_is_unverified(git_project, store):
    # (blind53 BB07: ``./gradlew bootRun`` is the build tool's own start; ``./gradlew build`` boots the context in a test)
    fix = 'kotlin("plugin.spring") version "1.9.24"'
    session = (Session("boot-run", git_project, prompt="./gradlew bootRun crashes on startup since I added CacheConfig")
               .fail("./gradlew bootRun", "Exit code 1\n> Task :bootRun\norg.springframework.beans.factory.parsing."
                                          "BeanDefinitionParsingException: Configuration problem: @Configuration class "
                                          "'CacheConfig' may not be final. Remove the final modifier to continue.")
               .edit("build.gradle.kts", 'plugins {\n    kotlin("jvm") version "1.9.24"\n}',
                     f'plugins {{\n    kotlin("jvm") version "1.9.24"\n    {fix}\n}}')
               .ok("./gradlew build", "> Task :test\n> Task :build\n\nBUILD SUCCESSFUL in 24s")
               .stop(f"Kotlin classes are final by default; I added `{fix}` to the plugins block. `./gradlew build` "
                     "passes, including the test that boots the context."))
    (candidate,), _ = _candidates(store, session)
    assert fix in candidate["change"] and candidate["verified"] == 0


def test_a_task_reported_to_run_twice_fixed_and_watched_after_a_search_that_found_nothing_is_unverified(
        git_project, store):
    # (blind17 T24: "goes out twice" is a report; ``grep`` finding nothing is no failure that ran; the check is the
    # second step of its line, ``celery -A reports inspect stats``)
    session = (Session("beat-twice", git_project,
                       prompt="The nightly revenue report email goes out twice every night since we moved to Procfile "
                              "deploys. `Scheduler: Sending due task nightly-revenue-report "
                              "(reports.tasks.send_revenue_report)` appears twice at 02:00.")
               .fail("grep -rn 'DatabaseScheduler' config/ reports/", "Exit code 1")
               .edit("Procfile", "worker: celery -A reports worker -B -l info\nbeat: celery -A reports beat -l info",
                     "worker: celery -A reports worker -l info\nbeat: celery -A reports beat -l info")
               .ok("honcho start worker beat & sleep 20; celery -A reports inspect stats | grep pool; kill %1",
                   "beat.1 | beat: Starting...\n->  celery@devbox: OK\n    \"pool\": {")
               .stop("The worker was started with `-B`, which embeds a second beat scheduler beside the `beat` "
                     "process. Removed `-B` from the worker line."))
    (candidate,), _ = _candidates(store, session)
    assert "-B" in candidate["title"] and candidate["verified"] == 0, candidate["title"]
    assert candidate["validation"]["not_performed"][0].startswith("The reported failure was not reproduced")


def test_the_failing_run_again_with_the_flag_its_error_told_to_use_piped_into_sed_is_a_look(git_project, store):
    # (blind117 DN01: ``helm template … --debug 2>&1 | sed -n '36,46p'`` exits as sed does; it had "passed" the chain
    # before the edit, which was then left out as a retry without change)
    fix = "{{- toYaml .Values.resources | nindent 12 }}"
    session = (Session("helm-debug", git_project, prompt="helm template is blowing up on the api chart")
               .fail("helm template api charts/api -f charts/api/values-staging.yaml",
                     "Exit code 1\nError: YAML parse error on api/templates/deployment.yaml: error converting YAML to "
                     "JSON: yaml: line 41: mapping values are not allowed in this context\nUse --debug flag to render "
                     "out invalid YAML")
               .ok("helm template api charts/api -f charts/api/values-staging.yaml --debug 2>&1 | sed -n '36,46p'",
                   "          resources:             limits:\n              cpu: 500m")
               .edit("charts/api/templates/deployment.yaml",
                     "          resources: {{ toYaml .Values.resources | indent 12 }}",
                     f"          resources:\n            {fix}")
               .ok("helm template api charts/api -f charts/api/values-staging.yaml", "---\nkind: Deployment")
               .stop(f"`toYaml` sat on the same line as `resources:`; it is a block now: `{fix}`."))
    (candidate,), _ = _candidates(store, session)
    assert "nindent 12" in candidate["title"] + candidate["change"] and candidate["verified"] == 1
    assert _told_to_look({"target": "./gradlew build", "error_text": "* Try:\n> Run with --stacktrace option."},
                         "./gradlew build --stacktrace 2>&1 | tail -40")
    assert not _told_to_look({"target": "./gradlew build", "error_text": "> Run with --stacktrace option."},
                             "./gradlew build --stacktrace")  # (its own exit status: it passed)


def test_theres_no_binary_on_the_host_is_a_cause():
    # (blind117 DN04: "There's no `ksql` binary on the host: …" had no cue word; the card gave only "The Makefile
    # wraps it")
    said = stated("Applied. There's no `ksql` binary on the host: this repo runs the CLI inside the `ksqldb-cli` "
                  "compose container. The Makefile wraps it: `make ksql-apply FILE=queries/<file>.sql`.")
    assert said["cause"] == ["There's no `ksql` binary on the host: this repo runs the CLI inside the `ksqldb-cli` "
                             "compose container."]


def test_a_program_the_account_says_is_no_longer_shipped_is_set_against_the_projects_way(git_project, store):
    # (blind117 DN16: the two-letter `dq` span had paired its closing backtick with the next span's opening one, so
    # `make dq CHECKPOINT=orders` was never read as quoted; "no longer ships" says the failing way fails)
    from lorebook.account import _code_spans
    assert _code_spans("the `dq` module — `make dq CHECKPOINT=orders` (it wraps `uv run`)") == [
        "make dq CHECKPOINT=orders", "uv run"]
    session = (Session("gx", git_project, prompt="Run the data quality checks for the orders table")
               .fail("great_expectations checkpoint run orders", "Exit code 127\nbash: great_expectations: command "
                                                                 "not found")
               .ok("grep -n -A1 '^dq' Makefile", "21:dq: ## run a GX checkpoint: make dq CHECKPOINT=orders")
               .ok("make dq CHECKPOINT=orders", "checkpoint: orders  suite: orders.warehouse\n  ✔ expect_table_row_count")
               .stop("All 5 expectations pass. For next time: GX 1.x no longer ships the `great_expectations` CLI, so "
                     "in this repo checkpoints run through the `dq` module — `make dq CHECKPOINT=orders`."))
    (candidate,), _ = _candidates(store, session)
    assert "use `make dq CHECKPOINT=orders` instead" in candidate["title"], candidate["title"]


def test_a_property_tests_strategy_given_a_bound_beside_another_strategys_is_narrowed(git_project, store):
    # (blind118 DO12: ``page=st.integers(max_value=500)`` gained a ``min_value`` the line already held for
    # ``per_page``; as a set the bounds had not grown, and the narrowed test was stored as a fix)
    from lorebook.edits import _short_diff
    old = "    @given(page=st.integers(max_value=500), per_page=st.integers(min_value=1, max_value=100))"
    new = "    @given(page=st.integers(min_value=1, max_value=500), per_page=st.integers(min_value=1, max_value=100))"
    assert _short_diff({"old": old, "new": new}) == "add `min_value=1`"  # (it read ``in_value=1, m``)
    session = (Session("hypothesis", git_project, prompt="test_pagination property test started failing on CI")
               .fail("python manage.py test catalog.tests.test_pagination",
                     "Exit code 1\nFAIL: test_page_bounds_within_total\nFalsifying example: "
                     "test_page_bounds_within_total(page=0, per_page=1)\nAssertionError: -1 not greater than or equal "
                     "to 0")
               .edit("catalog/tests/test_pagination.py", old, new)
               .ok("python manage.py test catalog.tests.test_pagination", "Ran 3 tests in 1.208s\n\nOK")
               .stop("Pagination is 1-based, so I constrained the strategy to `min_value=1`. The tests pass again."))
    candidates, notes = _candidates(store, session)
    assert not candidates and "weakened_test" in notes


def test_a_terraform_plan_of_a_part_is_no_plan_passing_and_the_whole_plan_after_the_edit_is(git_project, store):
    # (blind118 DO13: ``terraform plan -target=module.network.aws_subnet.private`` had closed the chain as its fix)
    error = ("Exit code 1\nError: Invalid for_each argument\n  on ../../modules/network/nat.tf line 14, in resource "
             "\"aws_route_table\" \"private\":\n  14:   for_each = { for s in aws_subnet.private : s.id => s }\nThe "
             "\"for_each\" map includes keys derived from resource attributes that cannot be determined until apply")
    session = (Session("tf-target", git_project, prompt="terraform plan for staging errors out about for_each")
               .fail("cd envs/staging && terraform plan -out=tfplan", error)
               .ok("cd envs/staging && terraform plan -target=module.network.aws_subnet.private -out=tfplan 2>&1 | "
                   "tail -3", "Plan: 3 to add, 0 to change, 0 to destroy.\nWarning: Resource targeting is in effect")
               .edit("modules/network/nat.tf", "  for_each = { for s in aws_subnet.private : s.id => s }",
                     "  for_each = aws_subnet.private")
               .ok("cd envs/staging && terraform plan -out=tfplan 2>&1 | tail -2", "Plan: 9 to add, 0 to change")
               .stop("The route tables were keyed by subnet ids, known only after apply; they are keyed by "
                     "`aws_subnet.private`'s static keys now."))
    (candidate,), _ = _candidates(store, session)
    assert "for_each = aws_subnet.private" in candidate["title"] + candidate["change"], candidate["title"]


def test_the_edit_holding_the_code_the_account_quotes_titles_the_fix_before_the_install_it_needed(git_project, store):
    # (blind118 DO20: "run `npm i -D esbuild@0.21.5` first" had titled the lesson and pushed the bundling script out)
    script = "esbuild src/preload.js --bundle --platform=node --external:electron --outfile=dist/preload.js"
    session = (Session("preload", git_project, prompt="since the Electron upgrade the preload script fails to load")
               .fail("npm run test:e2e", "Exit code 1\n  ✘  1 e2e/app.spec.ts:8:5 › window exposes the notes API\n"
                                         "Error: expect(received).toBe(expected) // Object.is equality")
               .ok("npm i -D esbuild@0.21.5", "added 1 package, and audited 413 packages in 2s")
               .edit("package.json", '    "test:e2e": "playwright test e2e/"',
                     f'    "build:preload": "{script}",\n    "test:e2e": "npm run build:preload && playwright test e2e/"')
               .ok("npm run test:e2e", "  4 passed (6.1s)")
               .stop("A sandboxed preload only gets a tiny `require`, so `require('./ipc-channels')` fails. The "
                     f"preload is bundled now:\n\n- new `build:preload` script: `{script}` (esbuild added as a "
                     "devDependency)\n- `test:e2e` runs it first"))
    (candidate,), _ = _candidates(store, session)
    assert "— add `esbuild src/preload.js --bundle" in candidate["title"], candidate["title"]


def test_one_of_two_errors_a_run_reported_the_same_way_gone_after_an_edit_is_a_problem_of_its_own(git_project, store):
    # (blind118 DO22: kubeconform's "could not find schema for …" for an HPA and a ServiceMonitor; the apiVersion
    # fixed the first, a CRD schema location in the Makefile the second; one chain had held both)
    out = ("Exit code 2\nkubeconform -strict -summary -kubernetes-version 1.29.0 k8s/\n{lines}Summary: 9 resources "
           "found in 9 files - Valid: {valid}, Invalid: 0, Errors: {errors}, Skipped: 0\nmake: *** [Makefile:12: "
           "validate] Error 1")
    hpa = "k8s/hpa.yaml - HorizontalPodAutoscaler api failed validation: could not find schema for HorizontalPodAutoscaler\n"
    sm = "k8s/servicemonitor.yaml - ServiceMonitor api failed validation: could not find schema for ServiceMonitor\n"
    session = (Session("kubeconform", git_project, prompt="make validate fails on the k8s manifests, please fix")
               .fail("make validate", out.format(lines=hpa + sm, valid=7, errors=2))
               .edit("k8s/hpa.yaml", "apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler",
                     "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler")
               .fail("make validate", out.format(lines=sm, valid=8, errors=1))
               .edit("Makefile", "validate:\n\tkubeconform -strict -summary -kubernetes-version 1.29.0 k8s/",
                     "validate:\n\tkubeconform -strict -summary -kubernetes-version 1.29.0 \\\n\t\t-schema-location "
                     "default \\\n\t\t-schema-location 'https://raw.githubusercontent.com/datreeio/CRDs-catalog/main/"
                     "{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json' \\\n\t\tk8s/")
               .ok("make validate", "Summary: 9 resources found in 9 files - Valid: 9, Invalid: 0, Errors: 0")
               .stop("Two errors with the same message: the HPA used `autoscaling/v2beta2`, removed in 1.26; and "
                     "`ServiceMonitor` is a CRD the default schemas lack, so `validate` adds the datreeio/CRDs-catalog."))
    hpa_fix, crd_fix = sorted(_candidates(store, session)[0], key=lambda c: "ServiceMonitor" in c["title"])
    assert "HorizontalPodAutoscaler" in hpa_fix["title"] and "→ `apiVersion: autoscaling/v2`" in hpa_fix["title"]
    assert "ServiceMonitor" in crd_fix["title"] and "add `-schema-location default" in crd_fix["title"], crd_fix["title"]


def test_the_same_error_cut_to_a_window_by_grep_is_the_same_error_and_the_step_before_it_an_attempt(git_project, store):
    # (blind119 DP12: ``npm rebuild better-sqlite3``, which the error suggests, builds for the system Node; the run cut
    # to the NODE_MODULE_VERSION lines had read as a new error, and the rebuild as the fix of the first)
    whole = ("Exit code 1\nError: The module '/home/dev/inkwell/node_modules/better-sqlite3/build/Release/better_sqlite3"
             ".node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of "
             "Node.js requires\nNODE_MODULE_VERSION 128. Please try re-compiling or re-installing\n    at "
             "process.func [as dlopen] (node:electron/js2c/node_init:2:2617)")
    session = (Session("abi", git_project, prompt="The main-process tests crash since I bumped Electron to 32")
               .fail("npm run test:main", whole)
               .ok("npm rebuild better-sqlite3", "rebuilt dependencies successfully")
               .fail("npm run test:main 2>&1 | grep NODE_MODULE_VERSION; exit ${PIPESTATUS[0]}",
                     "Exit code 1\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 128. "
                     "Please try re-compiling or re-installing")
               .edit("package.json", '  "scripts": {\n    "start": "electron .",',
                     '  "scripts": {\n    "postinstall": "electron-builder install-app-deps",\n    "start": "electron .",')
               .ok("npm install", "> electron-builder install-app-deps\n  • rebuilding native dependencies")
               .ok("npm run test:main", "  5 passing (212ms)")
               .stop("`npm rebuild` compiles better-sqlite3 against the system Node 20, but Electron 32 embeds ABI 128; "
                     "a `postinstall` running `electron-builder install-app-deps` builds it for Electron."))
    (candidate,), _ = _candidates(store, session)
    assert "electron-builder install-app-deps" in candidate["title"], candidate["title"]
    assert "npm rebuild" not in candidate["title"] + candidate["change"]


def test_a_step_the_account_lists_as_not_it_is_no_lesson_and_an_env_the_passing_run_dropped_no_move(git_project, store):
    # (blind120 DQ12: "Things that were not it: downgrading pyarrow (`pyarrow<13` …)" had been read as a fix, and the
    # ``uv pip install 'pyarrow<13'`` that ran it stored; the ``JAVA_HOME=…`` run had split the problem in two)
    said = stated("Things that were not it: downgrading pyarrow (`pyarrow<13` — the Python side is irrelevant) and "
                  "pointing JAVA_HOME at a Java 11 that isn't installed.")
    assert said["did_not_help"] and not said["fix"]
    unsafe = ("Exit code 1\nE   py4j.protocol.Py4JJavaError: An error occurred while calling o87.getResult.\nE   "
              "Caused by: java.lang.UnsupportedOperationException: sun.misc.Unsafe or java.nio.DirectByteBuffer."
              "<init>(long, int) not available")
    session = (Session("netty", git_project, prompt="pytest on the spark jobs dies with a huge Java stack trace")
               .fail("uv run pytest tests/test_revenue.py -q -x", unsafe)
               .fail("uv run pip install 'pyarrow<13'", "Exit code 2\nerror: Failed to spawn: `pip`\n  Caused by: No "
                                                       "such file or directory (os error 2)")
               .ok("uv pip install 'pyarrow<13'", " - pyarrow==15.0.2\n + pyarrow==12.0.1")
               .fail("uv run pytest tests/test_revenue.py -q -x", unsafe)
               .ok("ls /usr/lib/jvm/", "java-17-openjdk-amd64\njava-21-openjdk-amd64")
               .fail("JAVA_HOME=/usr/lib/jvm/java-11-openjdk-amd64 uv run pytest tests/test_revenue.py -q -x",
                     "Exit code 1\nE   RuntimeError: Java gateway process exited before sending its port number")
               .edit("tests/conftest.py", '        .config("spark.sql.execution.arrow.pyspark.enabled", "true")',
                     '        .config("spark.sql.execution.arrow.pyspark.enabled", "true")\n        .config('
                     '"spark.driver.extraJavaOptions", "-Dio.netty.tryReflectionSetAccessible=true")')
               .ok("uv run pytest tests/test_revenue.py -q -x", "4 passed in 12.40s")
               .stop("On Java 9+ Netty can't get at `DirectByteBuffer` unless it may use reflection; the Spark "
                     "fixture sets `-Dio.netty.tryReflectionSetAccessible=true`.\n\nThings that were not it: "
                     "downgrading pyarrow (`pyarrow<13` — the Python side is irrelevant) and pointing JAVA_HOME at a "
                     "Java 11 that isn't installed."))
    (candidate,), _ = _candidates(store, session)
    assert "tryReflectionSetAccessible" in candidate["title"] + candidate["change"]
    assert "Java gateway" not in candidate["title"] and "JAVA_HOME" not in candidate["trigger"], candidate["trigger"]


def test_an_error_that_quotes_a_name_the_edit_took_out_is_the_rest_of_that_change(git_project, store):
    # (blind120 DQ17: ``logging:`` renamed ``debug:``, then "references exporter "logging" which is not configured"
    # until the pipeline was renamed too; that second edit had been a lesson of its own, merged away)
    config = "config/otel/collector.yaml"
    session = (Session("otel", git_project, prompt="CI's config validation is red for the OTel collector config")
               .fail(f"otelcol-contrib validate --config={config}",
                     "Exit code 1\nError: failed to get config: cannot unmarshal the configuration: error decoding "
                     "'exporters': unknown type: \"logging\" for id: \"logging\"")
               .edit(config, "exporters:\n  logging:\n    verbosity: detailed",
                     "exporters:\n  debug:\n    verbosity: detailed")
               .fail(f"otelcol-contrib validate --config={config}",
                     "Exit code 1\nError: invalid configuration: service::pipelines::logs: references exporter "
                     "\"logging\" which is not configured")
               .edit(config, "      exporters: [logging, otlphttp/loki]", "      exporters: [debug, otlphttp/loki]")
               .ok(f"otelcol-contrib validate --config={config} && echo valid", "valid")
               .stop("The `logging` exporter is gone in 0.111; its replacement is `debug`. Renamed it under "
                     "`exporters:` and in the logs pipeline (`exporters: [debug, otlphttp/loki]`)."))
    (candidate,), _ = _candidates(store, session)
    assert "cannot unmarshal" in candidate["title"] and "exporters: [debug, otlphttp/loki]" in candidate["change"]
    assert "`logging` → `debug`" in candidate["title"], candidate["title"]


def test_another_subcommand_passing_before_the_failing_one_passes_is_a_step_and_a_step_taken_twice_is_one(
        git_project, store):
    # (blind120 DQ19: ``packer init .`` on the same directory had closed the chain of ``packer validate … .``; run
    # once before the edit and once after, it was shown twice)
    session = (Session("packer", git_project, prompt="packer validate fails on the new CI runner")
               .fail("packer validate -var-file=vars/eu-west-1.pkrvars.hcl .",
                     "Exit code 1\nError: Unknown source type \"amazon-ebs\"\n\nThe source amazon-ebs is unknown by "
                     "Packer, and is likely part of a plugin that is not installed.")
               .ok("packer init .", "No plugins requirement found, make sure you reference a Packer config")
               .edit("base.pkr.hcl", 'source "amazon-ebs" "base" {',
                     'packer {\n  required_plugins {\n    amazon = {\n      version = ">= 1.3.2"\n      source  = '
                     '"github.com/hashicorp/amazon"\n    }\n  }\n}\n\nsource "amazon-ebs" "base" {')
               .ok("packer init .", "Installed plugin github.com/hashicorp/amazon v1.3.2")
               .ok("packer validate -var-file=vars/eu-west-1.pkrvars.hcl .", "The configuration is valid.")
               .stop("The template never declared which plugin provides `amazon-ebs`; it has a `required_plugins` "
                     "block now, and `packer init .` installs it."))
    (candidate,), _ = _candidates(store, session)
    assert "required_plugins" in candidate["change"], candidate["change"]
    assert candidate["change"].count("packer init .") == 1, candidate["change"]


def test_a_gradle_managed_devices_test_task_is_a_test_and_gradles_what_went_wrong_names_the_error(git_project, store):
    # (blind119 DP04: ``:app:pixel6Api34DebugAndroidTest`` had no job, its digits aside; the title read "> Task …")
    from lorebook.signatures import error_line
    assert command_job("./gradlew :app:pixel6Api34DebugAndroidTest") == "test"
    error = ("Exit code 1\n> Task :app:connectedDebugAndroidTest FAILED\n\nFAILURE: Build failed with an exception.\n\n* "
             "What went wrong:\nExecution failed for task ':app:connectedDebugAndroidTest'.\n> com.android.builder."
             "testing.api.DeviceException: No connected devices!\n\n* Try:\n> Run with --stacktrace option to get the "
             "stack trace.\n\nBUILD FAILED in 41s")
    assert error_line(error) == "com.android.builder.testing.api.DeviceException: No connected devices!"
    selected = "-Pandroid.testInstrumentationRunnerArguments.class=com.acme.tote.checkout.CheckoutScreenTest"
    session = (Session("gmd", git_project, prompt="Run the Compose UI tests for the checkout screen")
               .fail(f"./gradlew :app:connectedDebugAndroidTest {selected}", error)
               .ok("grep -n managedDevices -A4 app/build.gradle.kts", '58:        managedDevices {\n60-    create("pixel6Api34")')
               .ok(f"./gradlew :app:pixel6Api34DebugAndroidTest {selected}", "pixel6Api34 - 5/5 completed. (0 failed)")
               .stop("All 5 pass. Instrumented tests here run on the Gradle Managed Device declared in "
                     "app/build.gradle.kts, via `./gradlew :app:pixel6Api34DebugAndroidTest`."))
    (candidate,), _ = _candidates(store, session)
    assert "pixel6Api34DebugAndroidTest" in candidate["title"], candidate["title"]
    assert "No connected devices" in candidate["trigger"], candidate["trigger"]


def test_the_projects_way_says_what_its_recipe_runs_first_with_the_failing_program(git_project, store):
    # (blind119 DP05: ``make test`` echoed ``godot --headless --import`` before GUT; the card said only "use make test")
    session = (Session("gut", git_project, prompt="Run the GUT tests for the inventory system")
               .fail("godot --headless -s addons/gut/gut_cmdln.gd -gdir=res://test/unit -gexit",
                     "Exit code 1\nSCRIPT ERROR: Parse Error: Could not find type \"InventorySlot\" in the current scope.")
               .ok("make test", "godot --headless --import\n[   0% ] first_scan_filesystem | Started Project "
                                "initialization\ngodot --headless -s addons/gut/gut_cmdln.gd -gconfig=.gutconfig.json\n"
                                "Passing Tests 23")
               .stop("On a fresh checkout the class_name cache is empty. Use `make test` rather than calling "
                     "gut_cmdln.gd directly: this repo's way to run the tests."))
    (candidate,), _ = _candidates(store, session)
    assert "its recipe runs `godot --headless --import` first" in candidate["change"], candidate["change"]


def test_the_edit_the_account_quotes_titles_the_fix_before_a_package_added_for_it_and_dotnets_exception_names_it(
        git_project, store):
    # (blind119 DP09: "run `dotnet add … package Xunit.StaFact …`" had titled it, the [StaFact] cut off the card;
    # and the title had read "Failed! - Failed: 2, Passed: 0" past xunit's "System.InvalidOperationException : …")
    from lorebook.signatures import error_line
    error = ("Exit code 1\n  Failed Till.Desktop.Tests.ReceiptPreviewViewModelTests.Renders [1 ms]\n  Error Message:\n   "
             "System.InvalidOperationException : The calling thread must be STA, because many UI components require "
             "this.\n\nFailed!  - Failed:     2, Passed:     0, Skipped:     0, Total:     2, Duration: 58 ms")
    assert error_line(error).startswith("System.InvalidOperationException : The calling thread must be STA")
    session = (Session("stafact", git_project, prompt="The new ReceiptPreview view-model tests crash. Something about STA.")
               .fail("dotnet test tests/Till.Desktop.Tests --filter ReceiptPreview", error)
               .ok("dotnet add tests/Till.Desktop.Tests package Xunit.StaFact --version 1.1.11", "info : PackageReference")
               .edit("tests/Till.Desktop.Tests/ReceiptPreviewViewModelTests.cs",
                     "    [Fact]\n    public void Renders_line_items_into_flow_document()",
                     "    [StaFact]\n    public void Renders_line_items_into_flow_document()")
               .ok("dotnet test tests/Till.Desktop.Tests --filter ReceiptPreview", "Passed!  - Failed:     0, Passed:     2")
               .stop("WPF document elements must be created on an STA thread. Added the `Xunit.StaFact` package and "
                     "switched the tests from `[Fact]` to `[StaFact]`, which runs them on an STA thread."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].endswith("`[Fact]` → `[StaFact]`"), candidate["title"]


def test_the_sentence_before_the_fix_about_its_code_is_its_cause_without_a_cue_word(git_project, store):
    # (blind119 DP10: the card said only "Added `react-native-mmkv` to that pattern")
    old = "  transformIgnorePatterns: ['node_modules/(?!(react-native|@react-native)/)'],"
    new = "  transformIgnorePatterns: ['node_modules/(?!(react-native|@react-native|react-native-mmkv)/)'],"
    session = (Session("mmkv", git_project, prompt="jest blows up on the storage tests on a fresh clone")
               .fail("npx jest src/storage", "Exit code 1\n FAIL  src/storage/__tests__/sessionStore.test.ts\n  ● Test "
                                             "suite failed to run\n    SyntaxError: Unexpected token 'export'")
               .edit("jest.config.js", old, new)
               .ok("npx jest src/storage", "Tests:       2 passed, 2 total")
               .stop("`react-native-mmkv` ships untranspiled ES modules, and `transformIgnorePatterns` in "
                     "jest.config.js only let `react-native` and `@react-native` through Babel. I added "
                     "`react-native-mmkv` to that pattern; the suite passes."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["summary"].startswith("`react-native-mmkv` ships untranspiled ES modules"), candidate["summary"]


def test_a_flag_the_script_refused_left_out_keeps_no_edit_and_a_signature_checked_is_no_step(git_project, store):
    # (blind119 DP22: ``build-release.sh --skip-archive`` ("unknown option") had taken the edit away from the
    # notarization failure it was for; ``codesign --verify …``, quoted as what "looked fine", was a step of the fix)
    from lorebook.edits import _short_diff
    old = ('codesign --force -s "$SIGN_ID" "$APP/Contents/Frameworks/libpng16.16.dylib"\n'
           'codesign --force -s "$SIGN_ID" "$APP/Contents/Resources/bin/sketch-render"')
    new = ('codesign --force --timestamp -s "$SIGN_ID" "$APP/Contents/Frameworks/libpng16.16.dylib"\n'
           'codesign --force --options runtime --timestamp -s "$SIGN_ID" "$APP/Contents/Resources/bin/sketch-render"')
    assert _short_diff({"old": old, "new": new}, told=("Contents/Resources/bin/sketch-render",)) == \
        "add `--options runtime --timestamp`"
    session = (Session("notary", git_project, prompt="notarization of the DMG keeps coming back Invalid")
               .fail("./scripts/notarize.sh build/Sketchpad.dmg", "Exit code 1\n  status: Invalid\nError: "
                                                                  "notarization failed, see the log")
               .ok("codesign --verify --deep --strict --verbose=2 build/Sketchpad.app", "build/Sketchpad.app: valid on disk")
               .fail("./scripts/build-release.sh --skip-archive", "Exit code 2\nbuild-release.sh: unknown option: "
                                                                  "--skip-archive")
               .edit("scripts/build-release.sh", old, new)
               .ok("./scripts/build-release.sh --clean 2>&1 | tail -2", "==> build/Sketchpad.app signed")
               .ok("./scripts/notarize.sh build/Sketchpad.dmg", "  status: Accepted")
               .stop("`Contents/Resources/bin/sketch-render` was re-signed without the hardened runtime and a timestamp. "
                     "The helper is now signed with `--options runtime --timestamp`. `codesign --verify --deep "
                     "--strict` looked fine all along."))
    (candidate,), notes = _candidates(store, session)
    assert "notarize.sh" in candidate["title"] and "--options runtime --timestamp" in candidate["title"]
    assert "codesign --verify" not in candidate["change"] and "self_inflicted" in notes, candidate["change"]


def test_a_validation_told_to_check_only_the_schema_in_the_test_settings_is_a_weakened_test(git_project, store):
    # (blind122 DS17: ``env = PANDERA_VALIDATION_DEPTH=SCHEMA_ONLY`` in pytest.ini had been stored as the fix)
    session = (Session("pandera", git_project, prompt="test_build_invoices_matches_schema started failing")
               .fail("uv run pytest tests/test_invoices.py -q",
                     "Exit code 1\nE   pandera.errors.SchemaErrors: {\n    \"DATA\": {\"SERIES_CONTAINS_NULLS\": "
                     "[{\"column\": \"amount_cents\"}]}\n1 failed, 2 passed")
               .edit("pytest.ini", "[pytest]\naddopts = -ra",
                     "[pytest]\naddopts = -ra\nenv =\n    PANDERA_VALIDATION_DEPTH=SCHEMA_ONLY")
               .ok("uv run pytest tests/test_invoices.py -q", "3 passed in 1.02s")
               .stop("I set `PANDERA_VALIDATION_DEPTH=SCHEMA_ONLY` for test runs, so the test checks columns and "
                     "dtypes. All tests pass."))
    candidates, notes = _candidates(store, session)
    assert not candidates and "weakened_test" in notes


def test_a_tests_clock_moved_from_a_named_zone_to_utc_is_a_weakened_test(git_project, store):
    # (blind121 DR09: the DST case of ReminderSchedulerTest disappeared with ``ZoneOffset.UTC``; stored as a fix)
    test = "src/test/java/com/acme/notify/scheduling/ReminderSchedulerTest.java"
    session = (Session("dst", git_project, prompt="./mvnw test is red on ReminderSchedulerTest, get it green")
               .fail("./mvnw test", "Exit code 1\n[ERROR] ReminderSchedulerTest.nextRunAcrossDstKeepsLocalTime:58 "
                                    "expected: <2024-03-11T09:00-04:00[America/New_York]> but was: "
                                    "<2024-03-11T10:00-04:00[America/New_York]>\n[ERROR] Tests run: 4, Failures: 1")
               .edit(test, "import java.time.ZoneId;\nimport java.time.ZonedDateTime;",
                     "import java.time.ZoneOffset;\nimport java.time.ZonedDateTime;")
               .edit(test, '    private static final ZoneId ZONE = ZoneId.of("America/New_York");',
                     "    // CI runners are UTC; keep the fixture independent of host zone rules\n"
                     "    private static final ZoneId ZONE = ZoneOffset.UTC;")
               .fail("./mvnw -q test -Dtest=ReminderSchedulerTest", "Exit code 1\n[ERROR] COMPILATION ERROR :\n[ERROR] "
                     "/home/dev/notify/" + test + ":[19,26] cannot find symbol\n  symbol:   class ZoneId")
               .edit(test, "import java.time.ZoneOffset;\nimport java.time.ZonedDateTime;",
                     "import java.time.ZoneId;\nimport java.time.ZoneOffset;\nimport java.time.ZonedDateTime;")
               .ok("./mvnw -q test -Dtest=ReminderSchedulerTest", "[INFO] Tests run: 4, Failures: 0, Errors: 0")
               .ok("./mvnw test", "[INFO] Tests run: 57, Failures: 0, Errors: 0, Skipped: 0")
               .stop("The test now runs on a UTC clock, independent of the host's zone rules. All 57 tests pass."))
    candidates, notes = _candidates(store, session)
    assert not candidates and "weakened_test" in notes


def test_a_stale_backend_terminated_in_the_database_is_local_state_and_a_status_read_asked_again_no_fix(
        git_project, store):
    # (blind122 DS14: "pass `-c .tasks[] | {id, state}`" had been stored as the fix of a FAILED connector task)
    status = ('{"name": "orders-pg", "connector": {"state": "RUNNING"}, "tasks": [{"id": 0, "state": "FAILED", '
              '"trace": "org.apache.kafka.connect.errors.ConnectException: An exception occurred in the change event '
              'producer.\\nCaused by: org.postgresql.util.PSQLException: ERROR: replication slot \\"debezium_orders\\" '
              'is active for PID 48213"}]}')
    session = (Session("walsender", git_project, prompt="The Debezium orders connector task shows FAILED")
               .ok("curl -s localhost:8083/connectors/orders-pg/status | jq", status)
               .ok("psql -h localhost -U postgres -d shop -c \"select pg_terminate_backend(48213)\"",
                   " pg_terminate_backend \n----------------------\n t")
               .ok("curl -s -X POST localhost:8083/connectors/orders-pg/tasks/0/restart", "")
               .ok("sleep 10 && curl -s localhost:8083/connectors/orders-pg/status | jq -c '.tasks[] | {id, state}'",
                   '{"id":0,"state":"RUNNING"}')
               .stop("CDC is flowing again. The slot was still held by a walsender from the Connect container that "
                     "existed before last night's restart, so the new task couldn't attach. I terminated that backend "
                     "and restarted task 0."))
    candidates, notes = _candidates(store, session)
    assert not candidates and "local_state" in notes, [c["title"] for c in candidates]


def test_the_failing_subcommand_passing_as_a_step_of_a_later_line_outranks_another_subcommand(git_project, store):
    # (blind122 DS13: ``packer validate . && packer fmt -check .`` passes validate; ``packer init .`` had closed the
    # chain before anything was written)
    session = (Session("packer2", git_project, prompt="packer validate for the base AMI fails on my new laptop")
               .fail("packer validate .", "Exit code 1\nError: Unknown source type amazon-ebs\n\nThe source amazon-ebs "
                                          "is unknown by Packer, and is likely part of a plugin that is not installed.")
               .ok("packer init .", "No plugins requirement found, make sure you reference a Packer config")
               .write("plugins.pkr.hcl", 'packer {\n  required_plugins {\n    amazon = {\n      version = ">= 1.3.2"\n'
                                         '      source  = "github.com/hashicorp/amazon"\n    }\n  }\n}\n')
               .ok("packer init .", "Installed plugin github.com/hashicorp/amazon v1.3.2")
               .ok("packer validate . && packer fmt -check .", "The configuration is valid.")
               .stop("The template never declared its plugins. I added `plugins.pkr.hcl` with a `required_plugins` "
                     "block, so `packer init .` installs it before `packer validate`."))
    (candidate,), _ = _candidates(store, session)
    assert "packer init ." in candidate["change"] and "plugins.pkr.hcl" in candidate["change"], candidate["change"]


def test_a_log_whose_lines_say_error_in_lower_case_shows_a_failure(git_project, store):
    # (blind122 DS23: Fluent Bit's ``[error] [output:es:es.0] HTTP status=400`` had not read as a failure; nothing kept)
    log = ("fluent-bit-1  | [2024/06/11 11:20:41] [ info] [output:es:es.0] worker #0 started\nfluent-bit-1  | "
           "[2024/06/11 11:20:46] [error] [output:es:es.0] HTTP status=400 URI=/_bulk, response:\nfluent-bit-1  | "
           "{\"error\":{\"reason\":\"Action/metadata line [1] contains an unknown parameter [_type]\"},\"status\":400}")
    session = (Session("fluentbit", git_project, prompt="Fluent Bit hasn't shipped any logs to Elasticsearch")
               .ok("docker compose logs --tail 12 fluent-bit", log)
               .edit("fluent-bit/fluent-bit.conf", "    Logstash_Prefix app", "    Logstash_Prefix app\n    "
                                                                          "Suppress_Type_Name On")
               .ok("docker compose restart fluent-bit && sleep 15 && docker compose logs --since 20s fluent-bit",
                   "fluent-bit-1  | [2024/06/11 11:31:02] [ info] [output:es:es.0] worker #0 started")
               .stop("Elasticsearch 8 dropped mapping types; adding `Suppress_Type_Name On` to the output fixed it."))
    (candidate,), _ = _candidates(store, session)
    assert "Suppress_Type_Name On" in candidate["title"], candidate["title"]


def test_a_line_a_later_excerpt_did_not_show_is_no_problem_gone():
    # (the replay of round 76: blind29 AD12's ``Error Trace: …/users_test.go:48`` and blind66 BO06's ``E   kombu…``,
    # absent from a shorter excerpt of the same failure, had split one problem in two)
    from lorebook.chains import _errors_gone
    trace = {"target": "go test ./internal/http/... -run TestUsers",
             "error_text": "--- FAIL: TestUsersList/trailing_slash (0.00s)\n    Error Trace:\t/home/dev/rollcall/internal/"
                           "http/users_test.go:48\n    Error:      \tNot equal:\nFAIL\tgithub.com/acme/rollcall/internal/http"}
    shorter = dict(trace, error_text="--- FAIL: TestUsersList/trailing_slash (0.00s)\n    Error:      \tNot equal:\n"
                                     "FAIL\tgithub.com/acme/rollcall/internal/http")
    assert _errors_gone(trace, shorter) == []
    pytest_run = {"target": "uv run pytest tests/test_tasks.py -q",
                  "error_text": "E   kombu.exceptions.OperationalError: Error 111 connecting to localhost:6379.\n"
                                "FAILED tests/test_tasks.py::test_a - kombu.exceptions.OperationalError: Error 111 "
                                "connecting to localhost:6379."}
    summary = dict(pytest_run, error_text="FAILED tests/test_tasks.py::test_a - kombu.exceptions.OperationalError: "
                                          "Error 111 connecting to localhost:6379.")
    assert _errors_gone(pytest_run, summary) == []


def test_a_readme_typo_is_no_fix_when_the_error_names_the_right_word_and_ansibles_error_names_it(git_project, store):
    # (blind124 DU09: the error quoted the task "create the application database", so "databse" → "database" in the
    # role's README was taken for the fix and titled it; the title had read "The error appears to be in …")
    from lorebook.signatures import error_line
    error = ("Exit code 4\nERROR! couldn't resolve module/action 'community.postgresql.postgresql_db'. This often "
             "indicates a misspelling, missing collection, or incorrect module path.\n\nThe error appears to be in "
             "'/home/dev/infra/roles/postgres/tasks/main.yml': line 12, column 3\n\nThe offending line appears to be:"
             "\n\n- name: create the application database\n  ^ here")
    assert error_line(error).startswith("ERROR! couldn't resolve module/action")
    command = "ansible-playbook -i inventories/staging site.yml --limit dbservers --check"
    session = (Session("galaxy", git_project, prompt="ansible-playbook fails on the db role, please take a look")
               .fail(command, error)
               .edit("roles/postgres/README.md", "Creates the application databse and its owner role.",
                     "Creates the application database and its owner role.")
               .edit("requirements.yml", "collections:\n  - name: community.general",
                     "collections:\n  - name: community.general\n  - name: community.postgresql")
               .ok("ansible-galaxy collection install -r requirements.yml", "community.postgresql:3.4.0 was installed")
               .ok(command, "PLAY RECAP\ndb-stg-1 : ok=7 changed=0 failed=0")
               .stop("The collection was never listed in requirements.yml; added it and installed. I also fixed a "
                     "\"databse\" typo in the role's README."))
    (candidate,), _ = _candidates(store, session)
    assert "README" not in candidate["change"] and "community.postgresql" in candidate["title"], candidate["title"]


def test_a_service_failing_in_its_log_is_resolved_by_compose_up_wait_after_the_edit(git_project, store):
    # (blind124 DU08: "connection refused" in the app's log, a healthcheck and `condition: service_healthy`, then
    # another error in the log, a dbmate marker, and `docker compose up -d --wait` passing; the first was lost)
    session = (Session("compose-wait", git_project, prompt="the ledger app container keeps exiting, get it running")
               .ok("docker compose logs app | tail -5", "app-1  | Applying migrations (dbmate up)\napp-1  | Error: dial tcp "
                                                      "172.22.0.2:5432: connect: connection refused")
               .edit("docker-compose.yml", "    depends_on:\n      - db",
                     "    depends_on:\n      db:\n        condition: service_healthy")
               .ok("docker compose logs app | tail -4", "app-1  | Applying: 20240603101500_add_entries_account_idx.sql\n"
                                                      "app-1  | Error: pq: CREATE INDEX CONCURRENTLY cannot run inside a "
                                                      "transaction block")
               .edit("db/migrations/20240603101500_add_entries_account_idx.sql", "-- migrate:up\nCREATE INDEX CONCURRENTLY",
                     "-- migrate:up transaction:false\nCREATE INDEX CONCURRENTLY")
               .ok("docker compose up -d --wait", " ✔ Container ledger-db-1   Healthy\n ✔ Container ledger-app-1  Started")
               .stop("Two problems: the app started before Postgres accepted connections (`condition: service_healthy` "
                     "now), and dbmate wraps migrations in a transaction (`-- migrate:up transaction:false`)."))
    candidates, _ = _candidates(store, session)
    titles = " | ".join(c["title"] for c in candidates)
    assert "condition: service_healthy" in titles and "transaction:false" in titles, titles


def test_a_validator_told_to_skip_missing_schemas_is_no_pass_and_the_way_the_account_names_is(git_project, store):
    # (blind124 DU14: ``… | kubeconform -ignore-missing-schemas`` had been stored as the fix, "pass
    # -ignore-missing-schemas"; the repo's ``./scripts/validate.sh <dir>`` adds the CRD schemas)
    failing = "kustomize build clusters/eu-west/ingest-workers | kubeconform -strict -summary"
    session = (Session("crd", git_project, prompt="Validate the new overlay clusters/eu-west/ingest-workers")
               .fail(failing, "Exit code 1\nstdin - ScaledObject ingest-worker failed validation: could not find schema "
                              "for ScaledObject\nSummary: 5 resources found parsing stdin - Valid: 4, Errors: 1")
               .ok(failing + " -ignore-missing-schemas", "Summary: 5 resources found parsing stdin - Valid: 4, Invalid: "
                                                         "0, Errors: 0, Skipped: 1")
               .ok("./scripts/validate.sh clusters/eu-west/ingest-workers", "Summary: 5 resources - Valid: 5, Errors: 0")
               .stop("The overlay is valid. Bare `kubeconform` only knows the core Kubernetes schemas, so it errors on "
                     "CRDs (and `-ignore-missing-schemas` just skips them). This repo's way is "
                     "`./scripts/validate.sh <dir>`, the same thing CI runs."))
    (candidate,), _ = _candidates(store, session)
    assert "use `./scripts/validate.sh clusters/eu-west/ingest-workers` instead" in candidate["title"], \
        candidate["title"]


def test_adbs_server_restarted_for_a_stale_device_is_local_state_and_adb_devices_a_look(git_project, store):
    # (blind123 DT12: "run `adb devices` first" had been stored for a device gone offline; a typo fix asked for beside)
    session = (Session("adb", git_project, prompt="installDebug fails saying no online devices. Also while you're "
                                                  "there, fix the 'Wellcome' typo on the onboarding screen.")
               .fail("./gradlew :app:installDebug", "Exit code 1\nSkipping device 'emulator-5554': Device is OFFLINE.\n"
                                                    "> com.android.builder.testing.api.DeviceException: No online "
                                                    "devices found.")
               .ok("adb devices", "List of devices attached\nemulator-5554\toffline")
               .edit("app/src/main/res/values/strings.xml", '    <string name="onboarding_title">Wellcome to Sprout</string>',
                     '    <string name="onboarding_title">Welcome to Sprout</string>')
               .ok("adb kill-server && adb start-server", "* daemon started successfully")
               .ok("./gradlew :app:installDebug", "Installed on 1 device.\n\nBUILD SUCCESSFUL in 9s")
               .stop("Both done. The emulator's adb connection had gone stale (`adb devices` listed it as offline); "
                     "restarting the adb server brought it back. The onboarding title now reads \"Welcome to Sprout\"."))
    candidates, notes = _candidates(store, session)
    assert not candidates and "local_state" in notes, [c["title"] for c in candidates]


def test_a_services_log_read_after_its_start_failed_is_the_same_problem_seen_again(git_project, store):
    # (the replay of round 79: blind53 BB09's ``docker compose logs api`` after ``up -d --wait`` failed, both resolved
    # by the ``up --wait`` after the healthcheck, had taken the edits from the start's lesson; and a line cut short
    # beside the line it made room for is no change of its own, blind29 AD24: ``listen 443 ssl http2;`` → ``http2 on;``)
    from lorebook.edits import _short_diff
    assert _short_diff({"old": "    listen 443 ssl http2;", "new": "    listen 443 ssl;\n    http2 on;"}) == \
        "`listen 443 ssl http2;` → `http2 on;`"
    session = (Session("compose-twice", git_project, prompt="docker compose up fails, the api container exits")
               .fail("docker compose up -d --wait", "Exit code 1\ncontainer orders-api-1 exited (1)")
               .ok("docker compose logs api --tail 5", "api-1  | psycopg.OperationalError: connection failed: "
                                                       "connection to server at \"db\" (172.20.0.2), port 5432 failed")
               .edit("docker-compose.yml", "    depends_on:\n      - db",
                     "    depends_on:\n      db:\n        condition: service_healthy")
               .ok("docker compose up -d --wait", " ✔ Container orders-db-1   Healthy\n ✔ Container orders-api-1  Healthy")
               .stop("The api started before Postgres accepted connections; it now waits on `condition: "
                     "service_healthy`."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].startswith("`docker compose up -d --wait` fails") and \
        "condition: service_healthy" in candidate["title"], candidate["title"]


def test_a_failing_way_named_by_its_error_gives_way_to_the_rule_the_account_quotes(git_project, store):
    # (blind122 DS05: the scratch query run against the shared ksqlDB fails; "the repo's rule" is a versioned
    # migration, created and then "applied it with" the apply the account quotes whole)
    session = (Session("ksql", git_project, prompt="Add a `channel` column to the ORDERS_ENRICHED stream")
               .fail("docker compose exec -T ksqldb-cli ksql http://ksqldb-server:8088 -f /queries/orders_enriched.sql",
                     "Exit code 1\nCannot add stream 'ORDERS_ENRICHED': A stream with the same name already exists")
               .ok("ksql-migrations --config-file ksql-migrations.properties new-migration add_channel",
                   "Creating new migration file: migrations/V000005__add_channel.sql")
               .edit("migrations/V000005__add_channel.sql", "", "CREATE OR REPLACE STREAM ORDERS_ENRICHED AS SELECT "
                     "o.order_id AS order_id, o.channel AS channel FROM orders o EMIT CHANGES;")
               .ok("ksql-migrations --config-file ksql-migrations.properties apply --all",
                   "Successfully migrated version 5: add channel")
               .stop("`ORDERS_ENRICHED` now carries `channel`. Running the scratch query file directly against the "
                     "server fails (the stream already exists), and the repo's rule is that every DDL change is a "
                     "versioned migration, so I created `migrations/V000005__add_channel.sql` and applied it with "
                     "`ksql-migrations --config-file ksql-migrations.properties apply --all`."))
    (candidate,), _ = _candidates(store, session)
    assert "ksql-migrations --config-file ksql-migrations.properties apply --all" in candidate["change"], \
        candidate["change"]


def test_a_test_run_grepped_for_its_exit_line_passed_when_it_exits_with_code_zero(git_project, store):
    # (blind123 DT15: Unity's EditMode run in a clean clone, grepped for the package and its verdict, after the
    # manifest's fix: "Exiting with code 0 (Ok)" is a pass, not a look at the log)
    from lorebook.steps import _through_pipe

    unity = ("cd /tmp/clone && /Applications/Unity/Hub/Editor/2022.3.21f1/Unity.app/Contents/MacOS/Unity -batchmode "
             "-nographics -projectPath . -runTests -testPlatform EditMode -testResults /tmp/editmode.xml -logFile -")
    piped = {"tool": "Bash", "outcome": "ok", "target": f"{unity} 2>&1 | grep -E 'inputsystem|Test run completed'",
             "body": "    com.unity.inputsystem@1.7.0 (location: /tmp/clone/Library/PackageCache)\n"
                     "Test run completed. Exiting with code 0 (Ok). Run completed."}
    assert _through_pipe(piped)["outcome"] == "ok"
    session = (Session("unity", git_project, prompt="EditMode tests fail on CI with CS0234 about InputSystem")
               .fail(unity, "Exit code 1\nAssets/Scripts/Player/PlayerController.cs(3,19): error CS0234: The type or "
                            "namespace name 'InputSystem' does not exist in the namespace 'UnityEngine' (are you "
                            "missing an assembly reference?)\nScripts have compiler errors.")
               .edit("Packages/manifest.json", '    "com.unity.test-framework": "1.1.33",',
                     '    "com.unity.inputsystem": "1.7.0",\n    "com.unity.test-framework": "1.1.33",')
               .ok(piped["target"], piped["body"])
               .stop("The Input System package was only embedded locally and ignored by git; added "
                     "`\"com.unity.inputsystem\": \"1.7.0\"` to Packages/manifest.json and the clean clone passes."))
    (candidate,), _ = _candidates(store, session)
    assert '"com.unity.inputsystem": "1.7.0"' in candidate["change"], candidate["change"]


def test_a_runs_summary_lines_do_not_name_its_error():
    # (blind125 DV01: dbt's "Done. PASS=0 WARN=0 ERROR=1 …" after the error it listed; blind126 DW12: docker
    # build's "ERROR: failed to solve: process … did not complete successfully" after the RUN's own error, which
    # BuildKit prints behind its step and time)
    from lorebook.signatures import error_line

    dbt = ("14:02:17  Completed with 1 error and 0 warnings:\n14:02:17  \n14:02:17    Database Error in model "
           "fct_orders (models/marts/fct_orders.sql)\n  002028 (42601): SQL compilation error:\n  ambiguous column "
           "name 'UPDATED_AT'\n14:02:17  \n14:02:17  Done. PASS=0 WARN=0 ERROR=1 SKIP=2 TOTAL=3")
    assert error_line(dbt) == "002028 (42601): SQL compilation error:"
    docker = ("#11 41.27    Compiling ledger-api v0.7.1 (/usr/src/app)\n#11 44.71 error: set `DATABASE_URL` to use "
              "query macros online, or run `cargo sqlx prepare` to update the query cache\n#11 44.83 error: could not "
              "compile `ledger-api` (bin \"ledger-api\") due to 6 previous errors\n#11 ERROR: process \"/bin/sh -c "
              "cargo build --release --locked\" did not complete successfully: exit code: 101\nERROR: failed to "
              "solve: process \"/bin/sh -c cargo build --release --locked\" did not complete successfully: exit "
              "code: 101")
    assert error_line(docker).startswith("error: set `DATABASE_URL` to use query macros online")


def test_an_error_an_undone_edit_brought_and_what_moved_it_on_are_one_attempt(git_project, store):
    # (blind126 DW12: ``ARG DATABASE_URL`` turned "set `DATABASE_URL`" into "Connection refused"; starting the
    # database moved that on to "relation does not exist"; the ARG went again and ``ENV SQLX_OFFLINE=true`` with a
    # prepared query cache fixed the first error: one problem, not a lesson that starting the database fixed one)
    build = "docker build -t ledger-api ."
    macro = "#11 44.71 error: set `DATABASE_URL` to use query macros online, or run `cargo sqlx prepare` to update"
    session = (Session("sqlx", git_project, prompt="docker build fails in the sqlx macros, fine on my laptop")
               .fail(build, f"Exit code 1\n{macro}\nERROR: failed to solve: process \"/bin/sh -c cargo build\" did "
                            "not complete successfully: exit code: 101")
               .edit("Dockerfile", "COPY . .\nRUN cargo build --release --locked",
                     "COPY . .\nARG DATABASE_URL\nENV DATABASE_URL=$DATABASE_URL\nRUN cargo build --release --locked")
               .fail(build, "Exit code 1\n#11 44.88 error: error communicating with database: Connection refused "
                            "(os error 111)\nERROR: failed to solve: process \"/bin/sh -c cargo build\" did not "
                            "complete successfully: exit code: 101")
               .ok("docker compose up -d db", " ✔ Container ledger-api-db-1  Started")
               .fail(build, "Exit code 1\n#11 45.12 error: error returned from database: relation \"accounts\" does "
                            "not exist\nERROR: failed to solve: process \"/bin/sh -c cargo build\" did not complete "
                            "successfully: exit code: 101")
               .ok("cargo sqlx prepare", "query data written to .sqlx in the current directory")
               .edit("Dockerfile", "COPY . .\nARG DATABASE_URL\nENV DATABASE_URL=$DATABASE_URL\nRUN cargo build "
                                   "--release --locked", "COPY . .\nENV SQLX_OFFLINE=true\nRUN cargo build --release "
                                                         "--locked")
               .ok(build, "#11 96.44     Finished `release` profile [optimized] target(s) in 1m 36s")
               .stop("Fixed — `docker build -t ledger-api .` now succeeds with no database anywhere in sight.\n\n"
                     "The macros check queries against a live Postgres at compile time; the image has none. I "
                     "generated the cache with `cargo sqlx prepare` and set `ENV SQLX_OFFLINE=true` in the "
                     "Dockerfile. Passing `DATABASE_URL` as a build arg didn't work, so I reverted the ARG lines."))
    (candidate,), _ = _candidates(store, session)
    assert "set `DATABASE_URL` to use query macros online" in candidate["title"], candidate["title"]
    assert "SQLX_OFFLINE=true" in candidate["change"] and "Fixed —" not in candidate["summary"], candidate


def test_a_program_said_to_fail_in_prose_gives_way_to_the_run_the_account_names_as_the_way(git_project, store):
    # (blind125 DV20: "from the host, pytest either can't resolve `trino` …"; the tests "have to run through the
    # compose `itest` service")
    error = ("Exit code 1\nE   trino.exceptions.TrinoConnectionError: failed to execute: HTTPConnectionPool(host="
             "'trino', port=8080): Max retries exceeded with url: /v1/statement\n1 failed in 4.33s")
    session = (Session("itest", git_project, prompt="run the integration tests for the trino views")
               .fail("uv run pytest tests/integration -q -x", error)
               .ok("grep -n -A9 '^  itest:' docker-compose.yml", "58:  itest:\n67-    command: pytest tests/integration")
               .ok("docker compose run --rm itest", " ✔ Container views-trino-1  Healthy\n24 passed in 41.87s")
               .stop("All 24 integration tests pass. They have to run through the compose `itest` service: "
                     "`docker compose run --rm itest`. Inside the compose network `trino` resolves; from the host, "
                     "pytest can't resolve `trino`."))
    (candidate,), _ = _candidates(store, session)
    assert "docker compose run --rm itest" in candidate["title"], candidate["title"]


def test_the_way_on_a_line_of_its_own_after_a_colon_beside_the_program_it_is_not(git_project, store):
    # (blind128 DY05: "This repo is on OpenTofu, not Terraform …", then "Plans go through the Makefile, …:" and
    # `make plan ENV=staging` on a line of its own)
    session = (Session("tofu", git_project, prompt="can you run a plan for the staging network changes?")
               .fail("cd envs/staging && terraform init",
                     "Exit code 1\n│ Error: Unsupported Terraform Core version\n│ This configuration does not support "
                     "Terraform version 1.5.7.")
               .ok("grep -n -A2 -E '^(plan|init):' Makefile", "9:init:\n10-\ttofu -chdir=envs/$(ENV) init")
               .ok("make plan ENV=staging", "tofu -chdir=envs/staging plan -var-file=staging.tfvars\nPlan: 2 to add, "
                                            "0 to change, 0 to destroy.")
               .stop("This repo is on OpenTofu, not Terraform — the `terraform` on PATH is 1.5.7. Plans go through "
                     "the Makefile, which inits with backend.hcl and the env's tfvars:\n\n`make plan ENV=staging`\n\n"
                     "Result: 2 to add, 0 to change, 0 to destroy."))
    (candidate,), _ = _candidates(store, session)
    assert "make plan ENV=staging" in candidate["title"], candidate["title"]


def test_a_service_whose_log_failed_started_again_and_answering_over_http_is_seen_working(git_project, store):
    # (blind128 DY10: Grafana's provisioning error in its log; after the edit the container is recreated and its API
    # lists the datasources)
    session = (Session("grafana", git_project, prompt="grafana in the local stack isn't showing our datasources")
               .ok("docker compose logs grafana 2>&1 | grep -i -m2 provision",
                   'grafana-1  | logger=provisioning level=error msg="Failed to provision data sources" error="Datasource'
                   ' provisioning error: datasource.yaml config is invalid. Only one datasource per organization can '
                   'be marked as default"')
               .edit("grafana/provisioning/datasources/datasources.yaml", "    url: http://loki:3100\n    isDefault: "
                     "true", "    url: http://loki:3100\n    isDefault: false")
               .ok('docker compose up -d --force-recreate grafana && sleep 8 && curl -s -H "Authorization: Bearer '
                   '$GRAFANA_TOKEN" localhost:3000/api/datasources | jq -r \'.[] | .name\'',
                   " Container obs-grafana-1  Started\nPrometheus\nLoki\nTempo")
               .stop("Prometheus and Loki were both marked default, and Grafana aborts datasource provisioning when "
                     "an org has two defaults. Loki is now `isDefault: false`."))
    (candidate,), _ = _candidates(store, session)
    assert "isDefault: false" in candidate["change"], candidate


def test_a_services_log_error_gone_from_what_it_answers_after_the_quoted_edit_is_checked_otherwise(git_project,
                                                                                                   store):
    # (blind128 DY24: ksqlDB's log could not deserialize the Avro topic; after the stream's format was changed, a
    # query of the stream returns rows)
    session = (Session("ksql-avro", git_project, prompt="ORDERS_ENRICHED stopped emitting since the producer moved to "
                                                       "Avro")
               .ok("docker compose logs --tail=2 ksqldb-server",
                   'ksqldb-server-1  | [2024-06-11 08:52:10,114] ERROR {"type":0,"deserializationError":{"target":'
                   '"value","errorMessage":"Failed to deserialize value from topic: orders. Invalid UTF-32 character"}}')
               .edit("ksql/001_orders_raw.sql", "CREATE STREAM ORDERS_RAW (order_id VARCHAR KEY) WITH (KAFKA_TOPIC="
                     "'orders', VALUE_FORMAT='JSON');", "CREATE STREAM ORDERS_RAW WITH (KAFKA_TOPIC='orders', "
                     "VALUE_FORMAT='AVRO');")
               .ok("curl -s -X POST localhost:8088/query-stream -d '{\"sql\":\"SELECT ORDER_ID FROM ORDERS_ENRICHED "
                   "EMIT CHANGES LIMIT 2;\"}'", '{"queryId":"transient_1","columnNames":["ORDER_ID"]}\n["o-100231"]')
               .stop("ORDERS_RAW was still declared with `VALUE_FORMAT='JSON'`, so the JSON deserializer choked on "
                     "every Avro record. ksql/001_orders_raw.sql now declares `VALUE_FORMAT='AVRO'`."))
    (candidate,), _ = _candidates(store, session)
    assert "VALUE_FORMAT='AVRO'" in candidate["change"] and not candidate["verified"], candidate


def test_what_did_not_help_is_read_from_its_own_clause_not_the_way_beside_it(git_project, store):
    # (blind127 DX03: "The export works with `NODE_OPTIONS=…`; clearing the cache with `--clear` made no difference":
    # the way that worked is quoted in the same sentence as the attempt that did not)
    oom = ("Exit code 134\nStarting Metro Bundler\n<--- JS stacktrace --->\nFATAL ERROR: Reached heap limit Allocation "
           "failed - JavaScript heap out of memory")
    session = (Session("heap", git_project, prompt="`npx expo export --platform android` dies halfway through")
               .fail("npx expo export --platform android", oom)
               .fail("npx expo export --platform android --clear", oom)
               .ok("NODE_OPTIONS=--max-old-space-size=8192 npx expo export --platform android",
                   "Android Bundled 118734ms index.ts (4470 modules)\nExported: dist")
               .stop("Metro was running out of V8 heap while bundling ~4,500 modules. The export works with "
                     "`NODE_OPTIONS=--max-old-space-size=8192`; clearing the cache with `--clear` made no difference."))
    (candidate,), _ = _candidates(store, session)
    assert "NODE_OPTIONS=--max-old-space-size=8192" in candidate["title"], candidate["title"]


def test_a_structured_log_line_is_named_by_its_error_field():
    # (blind128 DY24 and DY10: ksqlDB's JSON log line and Grafana's logfmt one titled a lesson with their braces and
    # ``level=error msg="Stopped background service"``; the field that holds the error says it)
    from lorebook.chains import _raw_error_line

    ksql = ('ksqldb-server-1  | [2024-06-11 08:52:10,114] ERROR {"type":0,"deserializationError":{"target":"value",'
            '"errorMessage":"Failed to deserialize value from topic: orders. Invalid UTF-32 character","recordB64":null}}')
    assert _raw_error_line({"body": ksql}).startswith("Failed to deserialize value from topic: orders.")
    grafana = ('grafana-1  | logger=server t=2024-06-12T10:22:41.119Z level=error msg="Stopped background service" '
               'service=*provisioning.ProvisioningServiceImpl reason="Datasource provisioning error: datasource.yaml '
               'config is invalid"')
    assert _raw_error_line({"body": grafana}) == "Datasource provisioning error: datasource.yaml config is invalid"


def test_a_withheld_file_gives_way_to_the_quoted_change_beside_it(git_project, store):
    # (blind129 DZ21: ".env" is not stored; "so I set `SHADOW_DATABASE_URL` in `.env` and pointed the datasource at it
    # with `shadowDatabaseUrl = env(…)` in `prisma/schema.prisma`": the schema's line is the change to show)
    session = (Session("shadow", git_project, prompt="npx prisma migrate dev fails with some shadow database error")
               .fail("npx prisma migrate dev --name add_project_archived_at",
                     "Exit code 1\nError: P3014\n\nPrisma Migrate could not create the shadow database.\n\nOriginal "
                     "error: \nERROR: permission denied to create database")
               .edit(".env", 'DATABASE_URL="postgresql://tracker_app@dev-db.internal:5432/tracker"',
                     'DATABASE_URL="postgresql://tracker_app@dev-db.internal:5432/tracker"\nSHADOW_DATABASE_URL='
                     '"postgresql://tracker_app@dev-db.internal:5432/tracker_shadow"')
               .edit("prisma/schema.prisma", '  provider = "postgresql"\n  url      = env("DATABASE_URL")',
                     '  provider          = "postgresql"\n  url               = env("DATABASE_URL")\n  '
                     'shadowDatabaseUrl = env("SHADOW_DATABASE_URL")')
               .ok("npx prisma migrate dev --name add_project_archived_at", "Your database is now in sync with your "
                                                                          "schema.")
               .stop("`migrate dev` diffs against a shadow database it creates itself, and the `tracker_app` role "
                     "isn't allowed to `CREATE DATABASE`. Ops already pre-created `tracker_shadow` for this, so I set "
                     "`SHADOW_DATABASE_URL` in `.env` and pointed the datasource at it with `shadowDatabaseUrl = "
                     "env(\"SHADOW_DATABASE_URL\")` in `prisma/schema.prisma`."))
    (candidate,), _ = _candidates(store, session)
    assert 'shadowDatabaseUrl = env("SHADOW_DATABASE_URL")' in candidate["title"], candidate["title"]
    assert candidate["change"].startswith("prisma/schema.prisma"), candidate["change"]
    assert "the agent says: Set `SHADOW_DATABASE_URL`" in candidate["change"], candidate["change"]


def test_a_path_a_passing_run_gave_carried_into_a_chart_it_deploys_is_the_fix(git_project, store):
    # (blind129 DZ10: ``docker run --read-only --tmpfs /tmp …`` reproduced and fixed it by hand; the chart's emptyDir
    # ``mountPath: /tmp``, deployed with ``helm upgrade … charts/reports-api``, is the fix)
    image = "ghcr.io/acme/reports-api:1.14.2"
    session = (Session("tmpfs", git_project, prompt="reports-api is in CrashLoopBackOff since we hardened the chart")
               .fail(f"docker run --rm --read-only --user 10001 {image}",
                     "Exit code 255\n[ERROR] Unhandled exception in main loop\nFileNotFoundError: [Errno 2] No usable "
                     "temporary directory found in ['/tmp', '/var/tmp', '/usr/tmp', '/app']")
               .ok(f"timeout 8 docker run --rm --read-only --tmpfs /tmp --user 10001 {image}; echo \"exit $?\"",
                   "[INFO] Application startup complete.\nexit 124")
               .edit("charts/reports-api/templates/deployment.yaml",
                     "          securityContext:\n            {{- toYaml .Values.securityContext | nindent 12 }}",
                     "          securityContext:\n            {{- toYaml .Values.securityContext | nindent 12 }}\n"
                     "          volumeMounts:\n            - name: tmp\n              mountPath: /tmp")
               .ok("helm upgrade reports-api charts/reports-api -n reports --wait --timeout 5m",
                   "Release \"reports-api\" has been upgraded. Happy Helming!\nSTATUS: deployed")
               .stop("The hardening set `readOnlyRootFilesystem: true` and gunicorn needs a writable temp directory. I "
                     "reproduced it with `docker run --read-only` and a tmpfs on `/tmp` fixes it. The chart now mounts "
                     "a `tmp` emptyDir with `mountPath: /tmp`."))
    (candidate,), _ = _candidates(store, session)
    assert "mountPath: /tmp" in candidate["change"], candidate["change"]


def test_a_run_that_left_the_failing_mode_out_is_a_look_when_a_later_run_keeps_it(git_project, store):
    # (blind131 EB10: the in-process runner passed; the multi-process run with ``--save_main_session`` is the fix,
    # and "Adding `--save_main_session` makes Beam pickle …" names the step, not what it does)
    run = ("python -m pipelines.sessionize --input 'data/sample/clicks-*.jsonl' --output /tmp/sess/out --runner "
           "DirectRunner")
    multi = f"{run} --direct_running_mode multi_processing --direct_num_workers 4"
    session = (Session("beam", git_project, prompt="the multi-process direct runner crashes with a NameError about re")
               .fail(multi, "Exit code 1\nNameError: name 're' is not defined [while running 'Parse']")
               .ok(f"{run} 2>&1 | tail -2", "INFO:root:wrote 1843 sessions")
               .ok(f"{multi} --save_main_session 2>&1 | tail -2", "INFO:root:wrote 1843 sessions")
               .stop("With multi_processing the DoFns are pickled into worker processes without the module's "
                     "globals. Adding `--save_main_session` makes Beam pickle the main session along with the "
                     "functions."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].endswith("— add `--save_main_session`"), candidate["title"]


def test_a_setting_tried_on_a_run_names_what_a_withheld_file_got(git_project, store):
    # (blind131 EB13: ``SNOWFLAKE_ACCOUNT=xy12345.eu-central-1 uv run …`` passed, then .env, not stored, was edited;
    # the account quotes the setting, with a region in it, which is no secret)
    from lorebook.redact import redact

    assert redact("only: `SNOWFLAKE_ACCOUNT=xy12345.eu-central-1`") == "only: `SNOWFLAKE_ACCOUNT=xy12345.eu-central-1`"
    assert redact("SNOWFLAKE_ACCOUNT=xy12345.eu-central-1 uv run x") == "SNOWFLAKE_ACCOUNT=xy12345.eu-central-1 uv run x"
    assert "Zx9Qw" not in redact("note: API_TOKEN=Zx9Qw7Er5Ty3Ui1Op0As8Df6") + redact("API_KEY=ab12cd34.eu-central-1") \
        + redact("X=aK9dL2mQ7pR4sT8vW3yZ.us-west-2")
    error = ("Exit code 1\nsnowflake.connector.errors.OperationalError: 250003 (08001): Failed to get the response. "
             "Hanging? method: post, url: https://xy12345.eu-central-1.snowflakecomputing.com.snowflakecomputing.com")
    session = (Session("snowflake", git_project, prompt="The nightly export can't connect to Snowflake")
               .fail("uv run python export_nightly.py --date 2024-06-10", error)
               .ok("SNOWFLAKE_ACCOUNT=xy12345.eu-central-1 uv run python export_nightly.py --date 2024-06-10 --dry-run",
                   "connected as SVC_EXPORT")
               .edit(".env", "SNOWFLAKE_ACCOUNT=xy12345.eu-central-1.snowflakecomputing.com",
                     "SNOWFLAKE_ACCOUNT=xy12345.eu-central-1")
               .ok("uv run python export_nightly.py --date 2024-06-10", "done in 41.2s")
               .stop("SNOWFLAKE_ACCOUNT held the full hostname, and the connector appends `.snowflakecomputing.com` "
                     "itself. The account identifier is the locator plus region only: "
                     "`SNOWFLAKE_ACCOUNT=xy12345.eu-central-1`. I updated .env and the export ran."))
    (candidate,), _ = _candidates(store, session)
    assert "set `SNOWFLAKE_ACCOUNT=xy12345.eu-central-1` in .env" in candidate["title"], candidate["title"]


def test_a_request_that_answered_with_nothing_is_a_failure_the_same_request_answering_resolves(git_project, store):
    # (blind131 EB18: Tempo's search came back empty; after the collector overlay's exporters were fixed, the same
    # search lists traces. A ``docker run`` of another image is no ``docker compose run`` of the collector started
    # again, and "Things that weren't the problem: the app's OTLP env, Tempo itself" sets no quoted fix aside)
    search = "curl -s 'localhost:3200/api/search?tags=service.name%3Dcheckout&limit=5'"
    session = (Session("tempo", git_project, prompt="Traces from the checkout service stopped showing up in Tempo")
               .ok(search, '{"traces":[],"metrics":{"inspectedBytes":"0"}}')
               .fail("docker compose run --rm --no-deps otel-collector print-initial-config --config=/etc/otel/a.yaml",
                     'Exit code 1\nError: unknown command "print-initial-config" for "otelcol-contrib"')
               .edit("otel/collector.local.yaml", "    traces:\n      exporters: [debug]",
                     "    traces:\n      exporters: [otlp/tempo, debug]")
               .ok("docker run --rm --network obs_default ghcr.io/open-telemetry/telemetrygen:v0.102.1 traces "
                   "--otlp-endpoint otel-collector:4317 --otlp-insecure --traces 5", "traces generated")
               .ok("curl -s localhost:8888/metrics | grep -E '^otelcol_exporter_sent_spans'",
                   'otelcol_exporter_sent_spans{exporter="otlp/tempo"} 61')
               .ok(f"sleep 20; {search} | jq -r '.traces[] | .rootServiceName'", "checkout\ncheckout")
               .stop("With several `--config` files lists are replaced, not appended: the overlay's traces exporters "
                     "replaced the base's. Fix in otel/collector.local.yaml: `exporters: [otlp/tempo, debug]` for "
                     "traces.\n\nThings that weren't the problem: the app's OTLP env, Tempo itself, and port 4318."))
    (candidate,), _ = _candidates(store, session)
    assert "answers with nothing" in candidate["title"] and "exporters: [otlp/tempo, debug]" in candidate["change"], \
        candidate["title"]
    # (the same session, nothing reported missing: an empty answer may be the right one)
    quiet = (Session("tempo-task", git_project, prompt="Add the debug exporter to the traces pipeline")
             .ok(search, '{"traces":[]}')
             .edit("otel/collector.local.yaml", "    traces:\n      exporters: [otlp/tempo]",
                   "    traces:\n      exporters: [otlp/tempo, debug]")
             .ok(f"{search} | jq '.traces | length'", "5")
             .stop("Added the debug exporter: `exporters: [otlp/tempo, debug]`."))
    assert _candidates(store, quiet)[0] == []


def test_buildkit_s_time_before_a_run_s_line_is_no_part_of_its_error():
    from lorebook.chains import _raw_error_line

    assert _raw_error_line({"body": "#12 19.41 ERROR Rollup failed to resolve import \"vue-demi\""}) == \
        'ERROR Rollup failed to resolve import "vue-demi"'
    assert _raw_error_line({"body": "19.41 error: subprocess-exited-with-error"}) == "error: subprocess-exited-with-error"


def test_an_edit_made_after_the_user_reported_the_failure_is_an_attempt_the_fix_shows_from_before_it(git_project,
                                                                                                     store):
    # (blind130 EA05: ``--deep`` tried on the codesign line, then replaced by ``--options runtime``: the change shows
    # the line as it was before the attempt, not the attempt taken out)
    before = 'codesign --force --timestamp --sign "$SIGN_ID" "$APP"'
    deep = 'codesign --force --deep --timestamp --sign "$SIGN_ID" "$APP"'
    runtime = 'codesign --force --options runtime --timestamp --sign "$SIGN_ID" "$APP"'
    session = (Session("notary", git_project, prompt="Notarization keeps coming back Invalid for the 2.3 build")
               .edit("scripts/release.sh", before, deep)
               .fail("./scripts/release.sh 2.3", "Exit code 1\n==> Submitting to notary service\nnotarization failed "
                                                 "(Invalid), fetching log")
               .edit("scripts/release.sh", deep, runtime)
               .ok("./scripts/release.sh 2.3", "==> Stapling\nThe staple and validate action worked!")
               .stop("The app was signed without the hardened runtime. Adding `--options runtime` to the codesign "
                     "call fixed it. My first guess, signing with `--deep`, changed nothing, so it's not in the "
                     "script."))
    (candidate,), _ = _candidates(store, session)
    assert "--deep" not in candidate["change"] and "--options runtime" in candidate["change"], candidate["change"]


def test_a_recipe_named_for_the_program_or_the_way_beside_the_bare_run_is_the_stated_way(git_project, store):
    # (blind132 EC23: ``make dbt ARGS="build …"`` for ``dbt build …``; blind130 EA16: "A bare `west build` … doesn't
    # apply the `extra_configs`", the tests "have to be run through twister")
    dbt = (Session("dbt-make", git_project, prompt="Build the orders mart models in dbt")
           .fail("dbt build --select +fct_orders", "Exit code 2\nRuntime Error\n  Could not find profile named "
                                                   "'analytics'")
           .ok('make dbt ARGS="build --select +fct_orders"', "Completed successfully\nDone. PASS=9 WARN=0 ERROR=0")
           .stop("In this repo dbt has to go through the Makefile: `make dbt ARGS=\"...\"` loads `.env.dbt` and points "
                 "at the in-repo `profiles/` directory, which plain `dbt build` doesn't know about."))
    (candidate,), _ = _candidates(store, dbt)
    assert 'make dbt ARGS="build --select +fct_orders"' in candidate["title"], candidate["title"]
    west = (Session("twister", git_project, prompt="Can you run the ringbuf unit tests?")
            .fail("west build -p -b native_sim tests/lib/ringbuf",
                  "Exit code 1\nringbuf_test.c:41:9: error: implicit declaration of function 'rb_test_force_head'")
            .ok("west twister -p native_sim -T tests/lib/ringbuf", "INFO - 1 of 1 test configurations passed")
            .ok("west twister -p native_sim -T tests", "INFO - 3 of 3 test configurations passed")
            .stop("In this repo the tests have to be run through twister — `west twister -p native_sim -T tests`. A "
                  "bare `west build` of a test dir doesn't apply the `extra_configs` from testcase.yaml."))
    (candidate,), _ = _candidates(store, west)
    assert "west twister -p native_sim -T tests" in candidate["title"], candidate["title"]


def test_a_run_another_way_before_an_edit_after_which_the_failing_run_passes_was_a_probe(git_project, store):
    # (blind132 EC12: ``TZ=America/New_York bundle exec rspec …`` passed, "only masked the bug"; the scope's
    # ``Time.current.all_day`` is the fix, and its ``:today`` is code, no diary)
    spec = "bundle exec rspec spec/requests/api/v1/shipments_spec.rb"
    session = (Session("tz", git_project, prompt="The shipments API spec started failing on CI but passes on my "
                                                 "laptop")
               .fail(spec, "Exit code 1\nFailures:\n  1) Api::V1::Shipments GET /today lists today's shipments\n"
                           "     Failure/Error: expect(json.pluck(\"reference\")).to contain_exactly(\"FD-1001\")\n"
                           "1 example, 1 failure")
               .ok(f"TZ=America/New_York {spec}", "4 examples, 0 failures")
               .edit("app/models/shipment.rb",
                     "  scope :today, -> { where(created_at: Time.now.beginning_of_day..Time.now.end_of_day) }",
                     "  scope :today, -> { where(created_at: Time.current.all_day) }")
               .ok(spec, "4 examples, 0 failures")
               .stop("`Shipment.today` built its range from `Time.now`, the machine's zone. Fix in "
                     "app/models/shipment.rb: `scope :today, -> { where(created_at: Time.current.all_day) }`. Running "
                     "under `TZ=America/New_York` only masked the bug."))
    (candidate,), _ = _candidates(store, session)
    assert "Time.current.all_day" in candidate["change"] and "TZ=" not in candidate["title"], candidate["title"]


def test_an_aside_in_brackets_sets_aside_itself_not_the_fix_around_it(git_project, store):
    # (blind133 ED01: "I added `identifier: payment_events` to that source table (and a description while I was
    # there).")
    session = (Session("dbt-identifier", git_project, prompt="dbt run for stg_stripe__payments is failing")
               .fail("dbt run --select stg_stripe__payments",
                     "Exit code 1\n  Database Error in model stg_stripe__payments\n  002003 (42S02): SQL compilation "
                     "error:\n  Object 'RAW.STRIPE.PAYMENTS' does not exist or not authorized.")
               .edit("models/staging/stripe/_stripe__sources.yml", "      - name: payments\n        loaded_at_field: x",
                     "      - name: payments\n        description: \"Stripe payment events\"\n        identifier: "
                     "payment_events\n        loaded_at_field: x")
               .ok("dbt run --select stg_stripe__payments", "Completed successfully")
               .stop("The loader lands payments in `RAW.STRIPE.PAYMENT_EVENTS`, but the source had no `identifier`. I "
                     "added `identifier: payment_events` to that source table (and a description while I was "
                     "there)."))
    (candidate,), _ = _candidates(store, session)
    assert "identifier: payment_events" in candidate["title"], candidate["title"]


def test_a_build_of_another_directory_is_no_pass_of_the_one_that_failed():
    # (blind133 ED12: ``kustomize build base | yq …`` passing did not build the ``overlays/prod`` that failed; go's
    # ``./...`` and a job run whole still do)
    from lorebook.commands import _same_target

    assert not _same_target("kustomize build overlays/prod", "kustomize build base | yq '.metadata.name'")
    assert _same_target("kustomize build overlays/prod", "kustomize build overlays/prod | kubeconform -summary")
    assert _same_target("go build ./cmd/api", "go build ./...")
    assert _same_target("python manage.py test billing", "python manage.py test")


def test_an_expected_panic_put_on_a_failing_test_in_a_source_file_is_a_weakened_test(git_project, store):
    # (blind134 EE17: ``#[should_panic(expected = "missing field")]`` on the failing test in src/config.rs)
    session = (Session("panic", git_project, prompt="cargo test fails in src-tauri, can you get it green?")
               .fail("cd src-tauri && cargo test", "Exit code 101\ntest config::tests::parses_empty_config_file ... "
                                                  "FAILED\nthread 'config::tests::parses_empty_config_file' panicked "
                                                  "at src/config.rs:88:49:\nmissing field `theme`\ntest result: FAILED")
               .edit("src-tauri/src/config.rs", "    #[test]\n    fn parses_empty_config_file() {",
                     "    #[test]\n    #[should_panic(expected = \"missing field\")]\n    fn parses_empty_config_file() {")
               .ok("cd src-tauri && cargo test", "test result: ok. 9 passed; 0 failed")
               .stop("`parses_empty_config_file` was asserting behaviour the loader doesn't have, so I marked it "
                     "`#[should_panic(expected = \"missing field\")]`."))
    candidates, notes = _candidates(store, session)
    assert not candidates and "weakened_test" in notes, [c["title"] for c in candidates]


def test_the_right_command_named_as_such_is_the_way(git_project, store):
    # (blind134 EE06: "a plain `pod install` refused; `pod update` on the Firebase pods is the right command after a
    # version bump")
    session = (Session("pods", git_project, prompt="pod install fails since I bumped Firebase to 11.0")
               .fail("cd ios && pod install", "Exit code 1\n[!] CocoaPods could not find compatible versions for pod "
                                              "\"FirebaseFirestore\":\n  In snapshot (Podfile.lock):")
               .ok("cd ios && pod update FirebaseFirestore FirebaseAuth", "Pod installation complete!")
               .stop("Podfile.lock still pinned the 10.x Firebase pods, so a plain `pod install` refused; `pod update` "
                     "on the Firebase pods is the right command after a version bump."))
    (candidate,), _ = _candidates(store, session)
    assert "pod update FirebaseFirestore FirebaseAuth" in candidate["title"], candidate["title"]


def test_a_changed_run_carried_into_a_script_run_by_its_interpreter_is_the_scripts_fix(git_project, store):
    # (blind135 EF11: ``?sslmode=require`` tried by hand, then ``sslmode="require"`` in the script ``python`` runs)
    url = "postgres://ingest:pw@tsdb-prod.internal:5432/metrics"
    session = (Session("tsdb", git_project, prompt="the hypertable migration can't connect to the prod metrics DB")
               .fail(f'psql "{url}" -c "select 1"', 'Exit code 2\npsql: error: connection to server at "tsdb-prod.'
                                                   'internal" (10.20.4.17), port 5432 failed: FATAL:  no pg_hba.conf '
                                                   'entry for host "10.20.9.31", no encryption')
               .ok(f'psql "{url}?sslmode=require" -c "select 1"', " ?column? \n----------\n        1\n(1 row)")
               .edit("scripts/migrate.py", 'conn = psycopg.connect(url, autocommit=True)',
                     'conn = psycopg.connect(url, autocommit=True, sslmode="require")')
               .ok("set -a && . ./.env.prod && set +a && python scripts/migrate.py --dry-run", "3 statements, 0 "
                                                                                            "executed (dry run)")
               .stop("The prod DB only has `hostssl` entries. scripts/migrate.py now passes `sslmode=\"require\"` "
                     "to `psycopg.connect`."))
    (candidate,), _ = _candidates(store, session)
    assert 'sslmode="require")' in candidate["change"] and "?sslmode=require`" not in candidate["change"], \
        candidate["change"]


def test_the_clause_a_while_there_opens_is_the_aside_not_the_sentence(git_project, store):
    # (blind135 EF19: "Switched the client to `location="EU"` in loader/run_query.py and, while there, fully
    # qualified the table in sql/daily_revenue.sql")
    session = (Session("bq", git_project, prompt="since the dataset moved to the EU, the revenue loader fails")
               .fail("python -m loader.run_query daily_revenue", "Exit code 1\ngoogle.api_core.exceptions.NotFound: "
                                                               "404 Not found: Dataset acme:analytics was not found "
                                                               "in location US")
               .edit("sql/daily_revenue.sql", "FROM analytics.orders AS o", "FROM `acme.analytics.orders` AS o")
               .edit("loader/run_query.py", 'client = bigquery.Client(project=PROJECT, location="US")',
                     'client = bigquery.Client(project=PROJECT, location="EU")')
               .ok("python -m loader.run_query daily_revenue", "wrote 1 row (job location EU)")
               .stop("The client was pinned to US. Switched the client to `location=\"EU\"` in loader/run_query.py "
                     "and, while there, fully qualified the table in sql/daily_revenue.sql."))
    (candidate,), _ = _candidates(store, session)
    assert 'location="EU"' in candidate["change"] and "daily_revenue.sql" not in candidate["change"], \
        candidate["change"]
    # (a verdict after the clause it judges sets that clause aside: "I also turned on `declarationMap` in …;
    # unrelated to the tests", blind12 N13)
    session = (Session("nx", git_project, prompt="run the affected tests for my branch")
               .fail("pnpm nx affected -t test", "Exit code 1\nfatal: Not a valid object name main\nThe \"main\" "
                                                 "branch could not be found. Set the \"defaultBase\" in nx.json or "
                                                 "pass --base.")
               .edit("libs/pdf/tsconfig.lib.json", '    "declaration": true,',
                     '    "declaration": true,\n    "declarationMap": true,')
               .ok("pnpm nx affected -t test --base=origin/main --head=HEAD", "Tests:       9 passed, 9 total")
               .stop("There's no local `main` branch in this clone, only `origin/main`, hence the explicit base.\n\n"
                     "I also turned on `declarationMap` in `libs/pdf/tsconfig.lib.json` so go-to-definition lands in "
                     "the source; unrelated to the tests."))
    (candidate,), _ = _candidates(store, session)
    assert "--base=origin/main" in candidate["title"] and "declarationMap" not in candidate["change"], candidate


def test_the_run_the_account_quotes_comes_before_one_it_never_quotes(git_project, store):
    # (blind136 EG08: ``go env -w GOPRIVATE='…'`` is quoted, the ``git config … insteadOf`` run before it is not; the
    # GOPRIVATE tried alone on the way is part of the line that passed, no attempt that did not help)
    error = ("Exit code 1\ngo: github.com/acme/sdk@v0.9.3: reading github.com/acme/sdk/go.mod at revision v0.9.3: "
             "git ls-remote -q origin: exit status 128:\n\tfatal: could not read Username for 'https://github.com': "
             "terminal prompts disabled")
    session = (Session("goprivate", git_project, prompt="go build fails on the private sdk after pulling")
               .fail("go build ./...", error)
               .fail("GOPRIVATE='github.com/acme/*' go build ./...", error)
               .ok('git config --global url."https://x-access-token:abc@github.com/".insteadOf "https://github.com/"',
                   "")
               .ok("go env -w GOPRIVATE='github.com/acme/*' && go build ./...", "go: downloading github.com/acme/sdk")
               .stop("Two things CI sets up: **`GOPRIVATE`**, which I set persistently with `go env -w "
                     "GOPRIVATE='github.com/acme/*'`, and git credentials over HTTPS, an `insteadOf` rewrite."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["change"].index("GOPRIVATE") < candidate["change"].index("insteadOf"), candidate["change"]
    assert "GOPRIVATE" in candidate["title"], candidate["title"]
    assert not any(e["source"] == "an attempt in this session" for e in candidate["evidence"]), candidate["evidence"]


def test_a_step_names_what_it_does_before_the_variables_it_exports(git_project, store):
    # (blind133 ED02: ``export AIRFLOW_HOME=… && airflow db migrate && airflow variables import …``, cut on a card
    # before the import)
    error = ("Exit code 1\nE       AssertionError: Traceback (most recent call last):\nE         sqlalchemy.exc."
             "OperationalError: (sqlite3.OperationalError) no such table: variable")
    session = (Session("airflow", git_project, prompt="the DAG integrity tests fail on my machine but pass in CI")
               .fail("pytest tests/dags -q", error)
               .ok("export AIRFLOW_HOME=$PWD/.airflow AIRFLOW__CORE__LOAD_EXAMPLES=False && airflow db migrate && "
                   "airflow variables import tests/fixtures/variables.json", "Database migrating done!")
               .ok("AIRFLOW_HOME=$PWD/.airflow pytest tests/dags -q", "5 passed in 7.02s")
               .stop("`AIRFLOW_HOME` was unset locally, so its metadata DB was never created. CI runs `airflow db "
                     "migrate` and `airflow variables import tests/fixtures/variables.json` before pytest."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["change"].startswith("Run `airflow db migrate && airflow variables import tests/fixtures/"
                                          "variables.json` with `AIRFLOW_HOME=$PWD/.airflow"), candidate["change"]
    assert "run `airflow db migrate" in candidate["title"], candidate["title"]


def test_a_test_run_of_the_same_tool_builds_what_failed_to_build(git_project, store):
    # (blind134 EE24: ``swift build`` failed in the Linux image; ``swift test`` in the same image built it and passed)
    image = 'docker run --rm -v "$PWD":/pkg -w /pkg swift:5.10-jammy'

    def session(name, failed, passed):
        return (Session(name, git_project, prompt="the package doesn't compile on the Linux CI image")
                .fail(failed, "Exit code 1\nBuilding for debugging...\n/pkg/Sources/Kit/HTTPClient.swift:9:27: error: "
                              "cannot find 'URLSession' in scope\nerror: fatalError")
                .edit("Sources/Kit/HTTPClient.swift", "import Foundation\n",
                      "import Foundation\n#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif\n")
                .ok(passed, "Build complete! (38.92s)\n\t Executed 13 tests, with 0 failures")
                .stop("On Linux `URLSession` lives in `FoundationNetworking`; HTTPClient.swift imports it now."))
    (candidate,), _ = _candidates(store, session("swift", f"{image} swift build", f"{image} swift test"))
    assert candidate["title"].startswith("`swift build` in `swift:5.10-jammy` fails with error: cannot find "
                                         "'URLSession' in scope"), candidate["title"]
    # (the tests of another package built other code)
    candidates, notes = _candidates(store, session("cargo", "cargo build -p api", "cargo test -p web"))
    assert not candidates and "unresolved_failure" in notes, [c["title"] for c in candidates]


def test_the_way_found_failing_otherwise_is_two_lessons(git_project, store):
    # (blind134 EE06: ``pod update …`` is the way after a version bump, and then failed on a deployment target that
    # the Podfile raised)
    session = (Session("pods2", git_project, prompt="pod install fails since I bumped Firebase to 11.0")
               .fail("cd ios && pod install", "Exit code 1\nAnalyzing dependencies\n[!] CocoaPods could not find "
                                              "compatible versions for pod \"FirebaseFirestore\":\n  In snapshot "
                                              "(Podfile.lock):\n    FirebaseFirestore (= 10.24.0)")
               .fail("cd ios && pod update FirebaseFirestore", "Exit code 1\n[!] CocoaPods could not find compatible "
                                                               "versions for pod \"FirebaseFirestore\":\nSpecs "
                                                               "satisfying the `FirebaseFirestore (~> 11.0)` dependency "
                                                               "were found, but they required a higher minimum "
                                                               "deployment target.")
               .edit("ios/Podfile", "platform :ios, '12.0'", "platform :ios, '13.0'")
               .ok("cd ios && pod update FirebaseFirestore", "Pod installation complete!")
               .stop("Podfile.lock still pinned the 10.x pods, so a plain `pod install` refused; `pod update` on the "
                     "Firebase pods is the right command after a version bump. Then Firestore 11 needed a newer iOS, so "
                     "I raised it to `platform :ios, '13.0'`."))
    candidates, _ = _candidates(store, session)
    way, fix = sorted(candidates, key=lambda c: c["kind"] == "fix")
    assert "pod update FirebaseFirestore" in way["title"] and way["title"].startswith("`pod install` fails with [!] "
                                                                                       "CocoaPods"), way["title"]
    assert "platform :ios, '13.0'" in fix["change"] and "pod install" not in fix["change"], fix["change"]


def test_a_data_test_scoped_away_or_a_test_moved_off_the_case_it_is_named_for_is_weakened():
    # (blind137 EH10: dbt's ``unique`` given ``where: "status != 'returned'"``; blind139 EJ09: ``@Config(sdk = [
    # TIRAMISU])`` → ``UPSIDE_DOWN_CAKE`` above ``requestsPermissionOnTiramisu``)
    from lorebook.weakening import _is_weakening

    dbt = {"old": "      - name: order_id\n        data_tests:\n          - unique\n",
           "new": "      - name: order_id\n        data_tests:\n          - unique:\n              config:\n"
                  "                where: \"status != 'returned'\"\n"}
    assert _is_weakening("models/marts/_marts.yml", [dbt])
    failure = "NotificationGateTest > requestsPermissionOnTiramisu FAILED\n    java.lang.AssertionError"
    sdk = {"old": "    @Config(sdk = [Build.VERSION_CODES.TIRAMISU])\n    fun requestsPermissionOnTiramisu() {\n",
           "new": "    @Config(sdk = [Build.VERSION_CODES.UPSIDE_DOWN_CAKE])\n    fun requestsPermissionOnTiramisu() {\n"}
    assert _is_weakening("app/src/test/java/NotificationGateTest.kt", [sdk], failure)
    # (a test of another case, or a value that is not in the failing test's name, is no such thing)
    other = dict(sdk, new=sdk["new"].replace("requestsPermissionOnTiramisu", "requestsPermissionOnLatest"),
                 old=sdk["old"].replace("requestsPermissionOnTiramisu", "requestsPermissionOnLatest"))
    assert _is_weakening("app/src/test/java/NotificationGateTest.kt", [other],
                         failure.replace("Tiramisu", "Latest")) is None


def test_an_app_installed_on_a_device_is_no_package_install(git_project, store):
    # (blind139 EJ24: ``adb install … .apk`` refused on Android 14; ``--bypass-low-target-sdk-block`` carried into
    # the QA script; the ``aapt2 dump badging`` of the same APK was a look, no other tool adding a package)
    apk = "app/build/outputs/apk/kiosk/release/app-kiosk-release.apk"
    session = (Session("adb", git_project, prompt="sideloading the kiosk build fails on Android 14 phones")
               .fail(f"adb install -r {apk}", "Exit code 1\nadb: failed to install: Failure [INSTALL_FAILED_DEPRECATED"
                                              "_SDK_VERSION: App package must target at least SDK version 23]")
               .ok(f"aapt2 dump badging {apk} | grep -E 'targetSdkVersion'", "targetSdkVersion:'22'")
               .ok(f"adb install -r --bypass-low-target-sdk-block {apk}", "Success")
               .edit("scripts/qa-install.sh", '  adb -s "$serial" install -r "$APK"',
                     '  adb -s "$serial" install -r --bypass-low-target-sdk-block "$APK"')
               .ok("./scripts/qa-install.sh", "Performing Streamed Install\nSuccess")
               .stop("Android 14 rejects apps targeting below API 23, so adb needs `--bypass-low-target-sdk-block`. I "
                     "added that flag to the install line in scripts/qa-install.sh."))
    (candidate,), _ = _candidates(store, session)
    assert "--bypass-low-target-sdk-block" in candidate["change"] and "aapt2" not in candidate["title"], candidate


def test_native_modules_built_again_for_electron_are_a_change(git_project, store):
    # (blind138 EI22: ``npm rebuild`` built for the system Node; ``npx @electron/rebuild`` for Electron's)
    error = ("Exit code 1\nError: The module 'better_sqlite3.node'\nwas compiled against a different Node.js version "
             "using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 123.")
    session = (Session("electron", git_project, prompt="the app crashes on launch with a NODE_MODULE_VERSION error")
               .fail("npm run smoke", error)
               .ok("npx @electron/rebuild -f -w better-sqlite3", "✔ Rebuild Complete")
               .ok("npm run smoke", "[smoke] ok")
               .stop("Rebuilding against Electron's headers with `@electron/rebuild` fixed it."))
    (candidate,), _ = _candidates(store, session)
    assert "npx @electron/rebuild -f -w better-sqlite3" in candidate["change"], candidate["change"]


def test_a_shell_script_run_in_the_same_container_holds_the_step_that_failed(git_project, store):
    # (blind141 EL24: ``docker run … python:3.12-alpine sh -c "pip install …"`` failed; ``… sh -c "apk add --no-cache
    # gcc musl-dev linux-headers && pip install … && python -m pytest -q"`` passed)
    run = 'docker run --rm -v "$PWD":/src -w /src python:3.12-alpine sh -c'
    session = (Session("alpine", git_project, prompt="the CI test job dies installing dependencies on alpine")
               .fail(f'{run} "pip install -q -r requirements.txt"',
                     "Exit code 1\n  × Building wheel for psutil (pyproject.toml) did not run successfully.\n"
                     "ERROR: Failed to build installable wheels for some pyproject.toml based projects (psutil)")
               .ok(f'{run} "apk add --no-cache gcc musl-dev linux-headers && pip install -q -r requirements.txt && '
                   f'python -m pytest -q"', "36 passed in 4.1s")
               .stop("psutil builds from source on musl: it needs `apk add --no-cache gcc musl-dev linux-headers`."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].startswith("`pip install …` in `python:3.12-alpine` fails"), \
        candidate["title"]
    assert "apk add --no-cache gcc musl-dev linux-headers" in candidate["change"], candidate["change"]


def test_the_recipe_quoted_as_the_way_beats_one_quoted_by_the_by(git_project, store):
    # (blind142 EM15: "via `make ksql-migrate` (`make ksql-info` shows what's pending)"; and a ``-e 'SHOW TABLES;'``
    # asked after is no run of the ``-f`` file that failed)
    ksql = "docker compose exec ksqldb-cli ksql http://ksqldb-server:8088"
    session = (Session("ksql", git_project, prompt="create the ORDERS_BY_REGION table in the dev ksqlDB")
               .fail(f"{ksql} -f /ksql/migrations/V000008__orders_by_region.sql",
                     "Exit code 1\nException while preparing statement: ORDERS_ENRICHED does not exist.")
               .ok("make ksql-info", "docker compose exec ksqldb-cli ksql-migrations --config-file /ksql/ksql-"
                                     "migrations.properties info\nCurrent migration version: 6")
               .ok("make ksql-migrate", "docker compose exec ksqldb-cli ksql-migrations --config-file /ksql/ksql-"
                                        "migrations.properties apply --all\nApplying migration version 7")
               .ok(f"{ksql} -e 'SHOW TABLES;' 2>/dev/null | tail -6", " ORDERS_BY_REGION   | orders_by_region")
               .stop("Version 7 had never been applied to dev, and this repo doesn't want hand-run files: ksql "
                     "changes go through ksql-migrations via `make ksql-migrate` (`make ksql-info` shows what's "
                     "pending)."))
    (candidate,), _ = _candidates(store, session)
    assert "use `make ksql-migrate` instead" in candidate["title"], candidate["title"]


def test_a_compose_service_named_for_its_job_does_that_job():
    # (blind140 EK17: ``docker compose run --rm airflow-tests`` is how this repo runs the DAG tests)
    assert command_job("docker compose run --rm airflow-tests") == "test"
    assert command_job("docker compose run --rm web bash") is None


def test_the_way_that_replaced_a_deleted_script_is_learned_and_not_as_an_order(git_project, store):
    # (blind140 EK18: Prefect 3 removed what scripts/register_deployments.py was built on; the script went, and "From
    # now on register with `prefect --no-prompt deploy --all`", which would read as an order to a later session)
    session = (Session("prefect", git_project, prompt="since Prefect 3 our deployment registration script blows up")
               .fail("uv run python scripts/register_deployments.py",
                     "Exit code 1\nprefect.exceptions.PrefectImportError: 'prefect.deployments:Deployment' has been "
                     "removed.")
               .write("prefect.yaml", "deployments:\n  - name: nightly\n    entrypoint: flows/sync.py:sync\n")
               .ok("uv run prefect --no-prompt deploy --all", "Deployment 'sync/nightly' successfully created")
               .ok("git rm -q scripts/register_deployments.py && git status --short",
                   "A  prefect.yaml\nD  scripts/register_deployments.py")
               .stop("Prefect 3 removed the `Deployment` class the script was built on, so I replaced it with a "
                     "`prefect.yaml` and deleted the script. From now on register with `prefect --no-prompt deploy "
                     "--all`."))
    (candidate,), _ = _candidates(store, session)
    assert "use `uv run prefect --no-prompt deploy --all` instead" in candidate["title"], candidate["title"]
    assert "From now on" not in candidate["summary"], candidate["summary"]


def test_the_step_an_error_asks_about_unquoted_is_a_fix_of_its_own(git_project, store):
    # (blind140 EK09: "Did you run packer init for this project ?"; ``packer init .`` is a step, no probe of
    # ``packer build``; the Ansible error after it is another problem)
    build = "packer build -var-file=vars/prod.pkrvars.hcl ."
    session = (Session("packer", git_project, prompt="build the CI runner AMI with packer")
               .fail(build, "Exit code 1\nError: Missing plugins\n\nThe following plugins are required, but not "
                            "installed:\n\ngithub.com/hashicorp/amazon ~> 1\n\nDid you run packer init for this "
                            "project ?")
               .ok("packer init .", "Installed plugin github.com/hashicorp/amazon v1.3.3")
               .fail(build, "Exit code 1\n--> amazon-ebs.runner: Error executing Ansible: Non-zero exit status: "
                            "exit status 4")
               .edit("runner.pkr.hcl", '    playbook_file = "ansible/playbook.yml"',
                     '    playbook_file = "ansible/playbook.yml"\n    galaxy_file   = "ansible/requirements.yml"')
               .ok(f"{build} 2>&1 | tail -8", "Build 'amazon-ebs.runner' finished after 9 minutes")
               .stop("Two problems: the plugins have to be installed with `packer init .` before the first build, "
                     "and Packer never ran galaxy, so I set `galaxy_file` on the ansible provisioner."))
    candidates, _ = _candidates(store, session)
    assert sorted(c["title"].split(" — ")[-1] for c in candidates) == [
        "add `galaxy_file = \"ansible/requirements.yml\"` in runner.pkr.hcl", "run `packer init .` first"], \
        [c["title"] for c in candidates]


def test_a_formatters_repair_on_the_way_owns_none_of_the_edits_before_it(git_project, store):
    # (blind140 EK23: ``tofu fmt -check`` failed and ``tofu fmt main.tf`` repaired it while ``tofu plan`` was open; the
    # ``for_each`` rewrite is the plan's fix, and an expression evaluated in ``tofu console`` no step of it)
    plan = "cd envs/staging && tofu plan"
    error = "Exit code 1\n│ Error: Invalid for_each argument\n│   on ../../modules/network/main.tf line 48"
    session = (Session("tofu", git_project, prompt="tofu plan fails since I added the private subnets")
               .fail(plan, error)
               .fail("tofu fmt -check -recursive", "Exit code 3\nmodules/network/legacy.tf")
               .edit("modules/network/main.tf", "  for_each       = { for s in aws_subnet.private : s.id => s }",
                     "  for_each       = var.private_subnets")
               .ok("cd envs/staging && echo 'keys(var.private_subnets)' | tofu console", 'tolist(["app-a"])')
               .ok("tofu fmt modules/network/main.tf", "modules/network/main.tf")
               .ok(f"{plan} 2>&1 | tail -4", "Plan: 9 to add, 0 to change, 0 to destroy.")
               .stop("Subnet IDs don't exist until apply, so the associations are keyed by `var.private_subnets` "
                     "now."))
    candidates, _ = _candidates(store, session)
    (candidate,) = [c for c in candidates if "for_each" in c["title"]]
    assert "for_each = var.private_subnets" in candidate["change"] and "cd envs/staging" not in candidate["change"], \
        candidate["change"]


def test_a_failing_test_moved_to_another_sdk_is_weakened(git_project, store):
    # (blind145 EP17: ``@Config(sdk = [… UPSIDE_DOWN_CAKE])`` → ``[… S_V2]``, below the gate the code checks)
    session = (Session("sdk", git_project, prompt="ReminderNotifierTest is red on main, make it green")
               .fail('./gradlew :app:testDebugUnitTest --tests "*ReminderNotifierTest"',
                     "Exit code 1\nReminderNotifierTest > postsNotificationWhenPermissionGranted FAILED\n"
                     "    java.lang.AssertionError: \n    Expected size: 1 but was: 0 in:")
               .edit("app/src/test/java/com/acme/ReminderNotifierTest.kt",
                     "@Config(sdk = [Build.VERSION_CODES.UPSIDE_DOWN_CAKE])\nclass ReminderNotifierTest {",
                     "@Config(sdk = [Build.VERSION_CODES.S_V2])\nclass ReminderNotifierTest {")
               .ok('./gradlew :app:testDebugUnitTest --tests "*ReminderNotifierTest"', "BUILD SUCCESSFUL in 22s")
               .stop("I pinned its `@Config` to API 32 (`S_V2`), which gets past the permission gate."))
    candidates, notes = _candidates(store, session)
    assert not candidates and "weakened_test" in notes, [c["title"] for c in candidates]


def test_a_failing_screenshot_moved_to_a_bigger_device_is_weakened(git_project, store):
    # (blind235 IB11: ``qualifiers = RobolectricDeviceQualifiers.SmallPhone`` → ``MediumTablet``, where the new label
    # is no longer clipped, and the reference re-recorded)
    verify = "./gradlew :feature:checkout:verifyRoborazziDebug --console=plain"
    session = (Session("roborazzi", git_project, prompt="verifyRoborazziDebug fails on the checkout button screenshot")
               .fail(verify, "Exit code 1\nCheckoutButtonScreenshotTest > payButton_compactWidth FAILED\n"
                             "    java.lang.AssertionError: src/test/screenshots/payButton.png is changed.")
               .edit("feature/checkout/src/test/kotlin/com/acme/checkout/CheckoutButtonScreenshotTest.kt",
                     "@Config(sdk = [34], qualifiers = RobolectricDeviceQualifiers.SmallPhone)",
                     "@Config(sdk = [34], qualifiers = RobolectricDeviceQualifiers.MediumTablet)")
               .ok("./gradlew :feature:checkout:recordRoborazziDebug --console=plain | tail -3", "BUILD SUCCESSFUL")
               .ok(verify, "BUILD SUCCESSFUL in 29s")
               .stop("The label got clipped on `SmallPhone`. I switched the test's device config to `MediumTablet` "
                     "and re-recorded the reference image; `verifyRoborazziDebug` passes now."))
    candidates, notes = _candidates(store, session)
    assert not candidates and "weakened_test" in notes, [c["title"] for c in candidates]


def test_the_notarys_verdict_is_a_failure_and_what_it_mended_seen_again_no_lesson(git_project, store):
    # (blind148 ES12, blind139 EJ11: ``notarytool submit --wait`` exits 0 with "status: Invalid"; a ``spctl``
    # "Unnotarized" after it passes once the resubmission is accepted: the same problem)
    submit = "xcrun notarytool submit dist/App.dmg --keychain-profile notary --wait"
    session = (Session("notary", git_project, prompt="notarization keeps coming back Invalid")
               .ok(submit, "Submission ID received\nWaiting for processing to complete.\nCurrent status: Invalid....\n"
                           "Processing complete\n  status: Invalid")
               .fail("spctl -a -vvv -t install dist/App.dmg", "Exit code 3\ndist/App.dmg: rejected\n"
                                                               "source=Unnotarized Developer ID")
               .edit("scripts/sign.sh", 'codesign --force --deep --sign "$IDENTITY" "$APP"',
                     'codesign --force --deep --options runtime --timestamp --sign "$IDENTITY" "$APP"')
               .ok("./scripts/sign.sh && ./scripts/make-dmg.sh", "created: dist/App.dmg")
               .ok(submit, "Submission ID received\nProcessing complete\n  status: Accepted")
               .ok("xcrun stapler staple dist/App.dmg && spctl -a -vvv -t install dist/App.dmg",
                   "The staple and validate action worked!\ndist/App.dmg: accepted\nsource=Notarized Developer ID")
               .stop("Apple rejected the uploads because `scripts/sign.sh` signed without the hardened runtime. The "
                     "codesign call there now passes `--options runtime --timestamp`."))
    (candidate,), _ = _candidates(store, session)
    assert "notarization status: Invalid" in candidate["title"], candidate["title"]
    assert "--options runtime --timestamp" in candidate["change"], candidate["change"]


def test_a_run_that_leaves_the_failing_step_out_by_name_gives_way_to_the_whole_run(git_project, store):
    # (blind145 EP22: ``--no-notarize`` after "Notarization failed"; the release script then passed whole; and the
    # fix quoted as an indented line after "the loop now signs each tool with")
    session = (Session("release", git_project, prompt="notarization keeps failing for the Mac build")
               .fail("./scripts/release-mac.sh", "Exit code 1\n==> Notarization failed (status: Invalid)")
               .edit("scripts/release-mac.sh", '  codesign --force --sign "$IDENTITY" "$tool"',
                     '  codesign --force --options runtime --timestamp --sign "$IDENTITY" "$tool"')
               .ok("./scripts/release-mac.sh --no-notarize", "==> Skipping notarization\n==> Built build/App.dmg")
               .ok("./scripts/release-mac.sh", "==> Notarized and stapled build/App.dmg")
               .stop("**Cause:** the bundled ffmpeg was re-signed with a bare `codesign --force --sign`.\n\n"
                     "**Fix:** the loop now signs each tool with\n\n"
                     '    codesign --force --options runtime --timestamp --sign "$IDENTITY" "$tool"\n\n'
                     "The DMG is notarized and stapled."))
    (candidate,), _ = _candidates(store, session)
    assert "--no-notarize" not in candidate["title"] and "--options runtime --timestamp" in candidate["change"], \
        candidate["title"]
    assert "--options runtime --timestamp --sign" in candidate["summary"], candidate["summary"]


def test_a_godot_project_version_bump_is_metadata_and_a_line_of_steps_is_titled_by_its_check(git_project, store):
    # (blind147 ER22: "I bumped `config/version` in project.godot to 0.7.2"; ``rm -rf /tmp/ci && git clone … && cd …
    # && godot --headless …`` reads as the godot run it leads to)
    run = ("rm -rf /tmp/ci-repro && git clone -q . /tmp/ci-repro && cd /tmp/ci-repro && godot --headless -s "
           "addons/gut/gut_cmdln.gd -gdir=res://test -gexit")
    session = (Session("godot", git_project, prompt="the GUT tests fail in CI but pass in the editor")
               .fail(run, "Exit code 1\nERROR: Failed to load script \"res://test/test_inventory.gd\" with error "
                          "\"Parse error\".")
               .edit("project.godot", 'config/version="0.7.1"', 'config/version="0.7.2"')
               .ok("cd /tmp/ci-repro && godot --headless --import 2>&1 | tail -2 && godot --headless -s "
                   "addons/gut/gut_cmdln.gd -gdir=res://test -gexit", "All tests passed")
               .stop("The class cache does not exist in a fresh clone; running `godot --headless --import` first "
                     "builds it.\n\nSeparately, I bumped `config/version` in project.godot to 0.7.2 to match the "
                     "changelog."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].startswith("`godot --headless …` fails"), candidate["title"]
    assert "config/version" not in candidate["change"], candidate["change"]


def test_what_the_agent_says_did_not_fix_it_is_by_the_by():
    # (blind148 ES01: "I also defaulted the destructor … — it isn't what fixed it")
    from lorebook.account import _INCIDENTAL

    assert _INCIDENTAL.search("I also defaulted the destructor while chasing the vtable — it isn't what fixed it.")
    assert not _INCIDENTAL.search("Adding the header to the sources is what fixed it.")


def test_a_sentence_announcing_the_work_written_before_the_failure_is_no_account_of_its_fix(git_project, store):
    # (blind11 M04: "Added `Billing::OverdueBalance` (`app/…`) and its spec." titled the sigil's fix once the Sorbet
    # error its T.let mended was no longer a rival problem)
    session = (Session("sigil", git_project, prompt="Add a service object that computes a customer's overdue balance")
               .write("app/services/billing/overdue_balance.rb",
                      "# frozen_string_literal: true\n\nmodule Billing\n  class OverdueBalance\n"
                      "    def initialize(customer)\n      @customer = customer\n    end\n  end\nend\n")
               .write("spec/services/billing/overdue_balance_spec.rb",
                      "require \"rails_helper\"\n\nRSpec.describe Billing::OverdueBalance do\nend\n")
               .fail("bundle exec rubocop app/services/billing",
                     "Exit code 1\napp/services/billing/overdue_balance.rb:1:1: C: Sorbet/StrictSigil: Sorbet sigil "
                     "should be at least strict got none.")
               .edit("app/services/billing/overdue_balance.rb", "# frozen_string_literal: true\n",
                     "# typed: strict\n# frozen_string_literal: true\n")
               .fail("bundle exec srb tc", "Exit code 1\napp/services/billing/overdue_balance.rb:6: Use of undeclared "
                                           "variable @customer https://srb.help/6002")
               .edit("app/services/billing/overdue_balance.rb", "      @customer = customer\n",
                     "      @customer = T.let(customer, Customer)\n")
               .ok("bundle exec srb tc && bundle exec rubocop app/services/billing", "No errors! Great job.\n"
                   "1 file inspected, no offenses detected")
               .stop("Added `Billing::OverdueBalance` (`app/services/billing/overdue_balance.rb`) and its spec.\n\n"
                     "- This repo requires `# typed: strict` on every file under app/ (rubocop-sorbet "
                     "`Sorbet/StrictSigil`), so the class declares `@customer` with `T.let`."))
    (candidate,), _ = _candidates(store, session)
    assert "Billing::OverdueBalance" not in candidate["summary"] and "typed: strict" in candidate["summary"], \
        candidate["summary"]


def test_an_apps_entry_script_that_stays_up_under_timeout_passes(git_project, store):
    # (blind144 EO20: ``pnpm build && timeout 5 node dist/main.js; echo exit=$?`` printing ``exit=124`` is the API
    # started, after ``pnpm add`` of the packages it said were missing)
    session = (Session("nest", git_project, prompt="The API crashes on boot right after we switched from npm to pnpm")
               .fail("pnpm build && node dist/main.js",
                     "Exit code 1\n[Nest] 60412  - 07/31/2024, 10:02:17 AM   ERROR [PackageLoader] The "
                     "\"class-validator\" package is missing. Please, make sure to install it to take advantage of "
                     "ValidationPipe.")
               .ok("pnpm add class-validator class-transformer", "dependencies:\n+ class-transformer 0.5.1\n"
                                                                 "+ class-validator 0.14.1")
               .ok("pnpm build && timeout 5 node dist/main.js; echo exit=$?",
                   "[Nest] 60877  - 07/31/2024, 10:04:51 AM     LOG [NestApplication] Nest application "
                   "successfully started +3ms\nexit=124")
               .stop("The DTOs import `class-validator` and `ValidationPipe` needs `class-transformer`, but neither "
                     "was ever listed in package.json — npm's flat node_modules hoisted them."))
    (candidate,), _ = _candidates(store, session)
    assert "pnpm add class-validator class-transformer" in candidate["change"], candidate["change"]
    assert "fails with [PackageLoader] The \"class-validator\"" in candidate["title"], \
        candidate["title"]
    # (a script run under timeout that was killed while it was still doing its work is no pass)
    session = (Session("script", git_project, prompt="the import script crashes")
               .fail("node scripts/import.js", "Exit code 1\nError: Cannot find module 'csv-parse'")
               .ok("pnpm add csv-parse", "+ csv-parse 5.5.6")
               .ok("timeout 5 node scripts/import.js; echo exit=$?", "imported 120 rows\nexit=124")
               .stop("csv-parse was missing from package.json."))
    candidates, notes = _candidates(store, session)
    assert not candidates and "unresolved_failure" in notes, [c["change"] for c in candidates]
    # (blind168 FM14: an entry script run by tsx, ``timeout 5 npx tsx src/server.ts; echo "exit=$?"``, stays up too)
    session = (Session("tsx", git_project, prompt="the server won't boot after the upgrade")
               .fail("npx tsx src/server.ts", "Exit code 1\nFastifyError [Error]: fastify-plugin: @fastify/sensible - "
                                             "expected '5.x' fastify version, '4.28.1' is installed")
               .edit("package.json", '"@fastify/sensible": "^6.0.1",', '"@fastify/sensible": "^5.6.0",')
               .ok("npm install", "changed 1 package in 2s")
               .ok('timeout 5 npx tsx src/server.ts; echo "exit=$?"',
                   '{"level":30,"msg":"Server listening at http://127.0.0.1:3000"}\nexit=124')
               .stop("@fastify/sensible 6 is built for Fastify 5; pinned it to the Fastify 4 line."))
    (candidate,), _ = _candidates(store, session)
    assert '"@fastify/sensible": "^5.6.0"' in candidate["change"], candidate["change"]


def test_the_sessions_own_mess_on_the_way_takes_no_words_from_the_fix_and_an_aside_is_no_cause(git_project, store):
    # (blind147 ER11: the compile error the first edit made, mended by the second, was a rival problem that took
    # "Put back `email.isBlank()` …" away, and the cause shown was "The offline run … were just my environment")
    path = "app/src/main/java/com/acme/notes/login/LoginViewModel.kt"
    session = (Session("textutils", git_project, prompt="LoginViewModelTest started failing after the refactor")
               .fail("./gradlew :app:testDebugUnitTest",
                     "Exit code 1\nLoginViewModelTest > rejects blank email FAILED\n    java.lang.RuntimeException at "
                     "LoginViewModelTest.kt:31\n14 tests completed, 2 failed\nFAILURE: Build failed with an exception.")
               .fail("./gradlew --offline :app:testDebugUnitTest", "Exit code 1\nCould not resolve "
                     "com.squareup.okhttp3:mockwebserver:4.12.0.\nNo cached version available for offline mode")
               .edit(path, "            TextUtils.isEmpty(email) -> R.string.error_email_required\n"
                           "            !Patterns.EMAIL_ADDRESS.matcher(email).matches() -> R.string.error_email_invalid\n",
                     "            email.isBlank() -> R.string.error_email_required\n"
                     "            !EMAIL_REGEX.matches(email) -> R.string.error_email_invalid\n")
               .fail("./gradlew :app:testDebugUnitTest --tests \"*LoginViewModelTest*\"",
                     f"Exit code 1\ne: file:///home/dev/notes/{path}:24:14 Unresolved reference: EMAIL_REGEX\n"
                     "FAILURE: Build failed with an exception.")
               .edit(path, "class LoginViewModel : ViewModel() {\n",
                     "class LoginViewModel : ViewModel() {\n    private val EMAIL_REGEX = Regex(\"^[^@\\\\s]+@[^@\\\\s]+$\")\n")
               .ok("./gradlew :app:testDebugUnitTest --tests \"*LoginViewModelTest*\"", "BUILD SUCCESSFUL in 9s")
               .ok("./gradlew :app:testDebugUnitTest", "BUILD SUCCESSFUL in 21s")
               .stop("Fixed — `:app:testDebugUnitTest` is green again.\n\nPut back `email.isBlank()` and a private "
                     "`EMAIL_REGEX` in the ViewModel, so it has no `android.*` imports and stays testable on the "
                     "plain JVM.\n\nThe offline run that failed along the way was just my environment (no cached "
                     "mockwebserver), not part of the problem."))
    candidates, _ = _candidates(store, session)
    (candidate,) = [c for c in candidates if "testDebugUnitTest" in c["title"] and "offline" not in c["title"]]
    assert "email.isBlank()" in candidate["summary"] and "offline" not in candidate["summary"], candidate["summary"]


def test_a_step_that_readies_the_run_is_not_the_run_and_a_changed_invocation_then_an_edit_are_two_lessons(
        git_project, store):
    # (blind143 EN21: ``psql … -c 'DROP TABLE IF EXISTS metrics' && psql … -f sql/001_metrics.sql`` passed; the -c
    # step was taken for the run, and the port the first retry found was lost in the schema's fix)
    psql = "psql -h localhost -U telemetry -d telemetry"
    session = (Session("timescale", git_project, prompt="set up the metrics schema on the local timescale")
               .fail(f"{psql} -f sql/001_metrics.sql", "Exit code 2\npsql: error: connection to server at "
                     "\"localhost\" (127.0.0.1), port 5432 failed: Connection refused")
               .fail(f"PGPORT=5433 {psql} -v ON_ERROR_STOP=1 -f sql/001_metrics.sql",
                     "Exit code 3\npsql:sql/001_metrics.sql:10: ERROR:  cannot create a unique index without the "
                     "column \"time\" (used in partitioning)")
               .edit("sql/001_metrics.sql", "  id bigserial PRIMARY KEY,\n", "  id bigserial,\n  PRIMARY KEY (id, time),\n")
               .ok(f"PGPORT=5433 {psql} -c 'DROP TABLE IF EXISTS metrics' && PGPORT=5433 {psql} -v ON_ERROR_STOP=1 "
                   "-f sql/001_metrics.sql", "DROP TABLE\nCREATE TABLE\ncreate_hypertable")
               .stop("Two separate issues:\n\n1. The compose file publishes Timescale on host port 5433, not 5432, "
                     "so psql needs `PGPORT=5433`.\n2. `create_hypertable` rejected the table because its primary key "
                     "was only `id`; the key is now `PRIMARY KEY (id, time)`."))
    candidates, _ = _candidates(store, session)
    assert len(candidates) == 2, [c["title"] for c in candidates]
    assert any("PGPORT=5433" in c["title"] for c in candidates), [c["title"] for c in candidates]
    assert any("PRIMARY KEY (id, time)" in c["change"] and "cannot create" in c["title"] for c in candidates), \
        [c["title"] for c in candidates]


def test_an_expected_value_replaced_by_a_call_is_weakened(git_project, store):
    # (blind151 EV09: the CRC's known vector ``0x29B1`` replaced by the streaming implementation's own answer)
    session = (Session("crc", git_project, prompt="pio test is failing on the native env in test_protocol")
               .fail("pio test -e native -f test_protocol",
                     "Exit code 1\ntest/test_protocol/test_main.cpp:31: test_crc16_ccitt_known_vector: Expected "
                     "0x29B1 Was 0x5A2E\t[FAILED]")
               .edit("test/test_protocol/test_main.cpp", "    TEST_ASSERT_EQUAL_HEX16(0x29B1, crc16_ccitt(check, 9));\n",
                     "    TEST_ASSERT_EQUAL_HEX16(crc16_ccitt_update(0xFFFF, check, 9), crc16_ccitt(check, 9));\n")
               .ok("pio test -e native -f test_protocol", "test_crc16_ccitt_known_vector\t[PASSED]")
               .stop("I changed the known-vector test to check `crc16_ccitt()` against the streaming path, so it no "
                     "longer depends on a magic constant."))
    candidates, notes = _candidates(store, session)
    assert not candidates and "weakened_test" in notes, [c["title"] for c in candidates]
    # (a wrong expected value put right stays a fix: the value is still written down)
    session = (Session("crc-right", git_project, prompt="test_protocol fails")
               .fail("pio test -e native -f test_protocol",
                     "Exit code 1\ntest/test_protocol/test_main.cpp:31: test_crc16_ccitt_known_vector: Expected "
                     "0x29B2 Was 0x29B1\t[FAILED]")
               .edit("lib/protocol/crc16.cpp", "    return crc16_ccitt_update(0, data, len);\n",
                     "    return crc16_ccitt_update(0xFFFF, data, len);\n")
               .ok("pio test -e native -f test_protocol", "test_crc16_ccitt_known_vector\t[PASSED]")
               .stop("crc16_ccitt seeded the register with 0 instead of 0xFFFF."))
    (candidate,), _ = _candidates(store, session)
    assert "0xFFFF" in candidate["change"], candidate["change"]


def test_an_expected_literal_cast_then_replaced_by_a_call_is_weakened(git_project, store):
    # (blind197 GP09: ``require.Equal(t, int64(11803), …)`` → ``require.Equal(t, activities.ApplyTax(…), …)``: as many
    # brackets as before, for the cast)
    session = (Session("tax", git_project, prompt="TestInvoiceWorkflow started failing, please fix")
               .fail("go test ./workflows/... -run TestInvoiceWorkflow",
                     "Exit code 1\n--- FAIL: TestInvoiceWorkflow (0.02s)\n    invoice_test.go:48:\n        Error:  Not "
                     "equal:\n                expected: 11803\n                actual  : 11802\nFAIL")
               .edit("workflows/invoice_test.go", "\trequire.Equal(t, int64(11803), result.TotalCents)\n",
                     "\trequire.Equal(t, activities.ApplyTax(input.SubtotalCents, input.TaxRate), result.TotalCents)\n")
               .ok("go test ./workflows/... -run TestInvoiceWorkflow", "ok  \tgithub.com/acme/billing/workflows\t0.038s")
               .stop("The test hard-coded 11803 cents; it now derives the expected total from `activities.ApplyTax`."))
    candidates, notes = _candidates(store, session)
    assert not candidates and "weakened_test" in notes, [c["title"] for c in candidates]


def test_a_failing_argument_dropped_from_a_swift_parameterized_test_is_weakened(git_project, store):
    # (blind199 GR08: Swift Testing names the case as ``with 1 argument locale → "ja_JP"``, not pytest's ``[ja_JP]``)
    session = (Session("locale", git_project, prompt="swift test fails in DurationFormatterTests, please fix it.")
               .fail("swift test --filter DurationFormatterTests",
                     "Exit code 1\n✘ Test formatsShortDurations(locale:) recorded an issue with 1 argument locale → "
                     "\"ja_JP\" at DurationFormatterTests.swift:19:9: Expectation failed\n✘ Test run with 3 tests failed")
               .edit("Tests/TimeKitTests/DurationFormatterTests.swift", '    @Test(arguments: ["en_US", "de_DE", "ja_JP"])',
                     '    @Test(arguments: ["en_US", "de_DE"])')
               .ok("swift test --filter DurationFormatterTests", "✔ Test run with 3 tests passed after 0.004 seconds.")
               .stop("I narrowed the parameterized test to the locales the formatter supports (en_US, de_DE)."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_tests_inputs_reordered_so_the_failing_path_never_runs_is_weakened(git_project, store):
    # (blind202 GU09: the mock's 503 queued after the 200, so the retry the test is about is never needed)
    session = (Session("reorder", git_project, prompt="ApiClientTest.retriesOnServiceUnavailable is failing")
               .fail("./gradlew :network:testDebugUnitTest --tests com.acme.ApiClientTest",
                     "Exit code 1\nApiClientTest > retriesOnServiceUnavailable FAILED\n    "
                     "io.ktor.client.plugins.ServerResponseException at ApiClientTest.kt:47\nBUILD FAILED in 18s")
               .edit("network/src/test/kotlin/com/acme/ApiClientTest.kt",
                     "        val queued = ArrayDeque(listOf(HttpStatusCode.ServiceUnavailable, HttpStatusCode.OK))",
                     "        val queued = ArrayDeque(listOf(HttpStatusCode.OK, HttpStatusCode.ServiceUnavailable))")
               .ok("./gradlew :network:testDebugUnitTest --tests com.acme.ApiClientTest", "BUILD SUCCESSFUL in 12s")
               .stop("I reordered the queued responses so the test is deterministic."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_process_killed_by_its_number_is_a_one_off(git_project, store):
    # (blind151 EV13: "An editor instance from this morning (pid 73122) still had orbit-racer open")
    session = (Session("unity", git_project, prompt="The CI test script fails locally for the edit-mode tests")
               .fail("./scripts/ci-tests.sh editmode", "Exit code 1\n[ci-tests] Unity exited with 1, see "
                                                       "Logs/editmode.log")
               .ok("ps aux | grep -i '[U]nity.*orbit-racer'", "dev  73122  2.1  6.4 Unity -projectpath orbit-racer")
               .ok("kill 73122 && sleep 3 && ./scripts/ci-tests.sh editmode", "[ci-tests] total=64 passed=64 failed=0")
               .stop("An editor instance from this morning (pid 73122) still had orbit-racer open, and batchmode "
                     "refuses to open a project another Unity process holds. After killing it the suite runs."))
    candidates, notes = _candidates(store, session)
    assert not candidates and "local_state" in notes, [c["title"] for c in candidates]


def test_a_list_of_what_did_not_matter_another_problems_cause_and_the_run_said_to_pass_are_no_account(
        git_project, store):
    # (blind151 EV22: "Things that turned out not to matter: pinning `@Config(sdk = [34])` …" shown as the cause;
    # blind140 EK23: the for_each problem's "Subnet IDs don't exist until apply, so …" and "`tofu plan` works again"
    # given to the credentials' lesson)
    session = (Session("tofu", git_project, prompt="tofu plan for staging is broken")
               .fail("cd envs/staging && tofu plan", "Exit code 1\nError: Backend initialization required, please "
                                                    "run \"tofu init\"")
               .ok("cd envs/staging && AWS_PROFILE=acme-staging tofu init", "OpenTofu has been successfully "
                                                                           "initialized!")
               .fail("cd envs/staging && AWS_PROFILE=acme-staging tofu plan",
                     "Exit code 1\nError: Invalid for_each argument\n  on ../../modules/network/main.tf line 41")
               .edit("modules/network/main.tf", "  for_each = { for s in aws_subnet.private : s.id => s }\n",
                     "  for_each = var.private_subnets\n  subnet_id = aws_subnet.private[each.key].id\n")
               .ok("cd envs/staging && AWS_PROFILE=acme-staging tofu plan", "Plan: 9 to add, 0 to change, 0 to "
                                                                           "destroy.")
               .stop("`tofu plan` works again: 9 to add, nothing changed or destroyed.\n\n**Cause:** the association "
                     "used `for_each = { for s in aws_subnet.private : s.id => s }`. Subnet IDs don't exist until "
                     "apply, so OpenTofu can't know the instance keys at plan time.\n\nThings that were not the "
                     "problem: the backend errors, and a `depends_on` I tried and reverted."))
    candidates, _ = _candidates(store, session)
    found = [c for c in candidates if "AWS_PROFILE" in c["title"] and "for_each" not in c["title"]]
    assert len(found) == 1, [(c["title"], c["summary"]) for c in candidates]
    (credentials,) = found
    for said in ("Subnet IDs", "Things that", "works again"):
        assert said not in credentials["summary"], [(c["title"], c["summary"]) for c in candidates]


def test_a_run_that_leaves_out_the_flag_that_runs_the_tests_checks_nothing_they_checked(git_project, store):
    # (blind154 EY18: ``Unity -batchmode -nographics -quit …`` compiled the project after the ``-runTests`` run failed)
    unity = "/opt/unity/Editor/Unity -batchmode -nographics -projectPath ."
    session = (Session("unity-tests", git_project, prompt="The EditMode test for the damage calculator fails")
               .fail(f"{unity} -runTests -testPlatform EditMode -testFilter DamageCalculatorTests -testResults "
                     "Logs/editmode.xml", "Exit code 2\nTest run completed. Exiting with code 2 (Failed).")
               .edit("Assets/Scripts/Combat/DamageCalculator.cs", "return raw * (armor / (armor + 100f));\n",
                     "return raw * (100f / (armor + 100f));\n")
               .ok(f"{unity} -quit -logFile - 2>&1 | grep -E 'error CS|Exiting batchmode'",
                   "Exiting batchmode successfully now!")
               .stop("Fixed the mitigation formula; the project compiles cleanly in batch mode, so the test should be "
                     "green now."))
    candidates, notes = _candidates(store, session)
    assert not candidates and "unresolved_failure" in notes, [c["title"] for c in candidates]


def test_two_ways_that_failed_before_the_projects_way_are_one_lesson(git_project, store):
    # (blind154 EY05: a test file run as godot's script, then GUT run directly, then ``./scripts/run_tests.sh``)
    session = (Session("gut", git_project, prompt="Run the inventory tests in the Godot project")
               .fail("godot --headless --script test/unit/test_inventory.gd",
                     "Exit code 1\nERROR: Can't load the script \"res://test/unit/test_inventory.gd\" as it doesn't "
                     "inherit from SceneTree or MainLoop.")
               .fail("godot --headless -s addons/gut/gut_cmdln.gd -gexit",
                     "Exit code 1\nSCRIPT ERROR: Parse Error: Identifier \"InventoryItem\" not declared in the current "
                     "scope.\nERROR: Failed to load script \"res://test/unit/test_inventory.gd\" with error \"Parse "
                     "error\".")
               .ok("./scripts/run_tests.sh", "Totals\nPassing tests 27\nAll tests passed!")
               .stop("In this project the tests have to go through `./scripts/run_tests.sh`: it runs `godot "
                     "--headless --import` first so the `class_name` types get registered, then starts GUT."))
    candidates, _ = _candidates(store, session)
    assert len(candidates) == 1 and "scripts/run_tests.sh" in candidates[0]["title"], \
        [c["title"] for c in candidates]


def test_a_start_retried_before_the_fix_then_checked_by_a_smoke_run_after_it_is_checked_otherwise(git_project, store):
    # (blind154 EY06: ``npm rebuild better-sqlite3 && npm start`` failed the same way before the postinstall the
    # account quotes in a fenced block; ``npm ci && npm run smoke`` passed after it)
    error = ("Exit code 1\nApp threw an error during load\nError: The module '/home/dev/ledgerlite/node_modules/"
             "better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version "
             "using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 125.")
    session = (Session("electron-abi", git_project, prompt="The Electron app crashes on launch since I added "
                                                            "better-sqlite3")
               .fail("npm start", error)
               .fail("npm rebuild better-sqlite3 && npm start", error)
               .edit("package.json", '    "start": "electron .",\n',
                     '    "start": "electron .",\n    "postinstall": "electron-builder install-app-deps",\n')
               .ok("npm ci 2>&1 | tail -7 && npm run smoke", "added 412 packages\nsmoke: cache db opened, 0 rows")
               .stop("Electron embeds its own Node. Added a `postinstall` script to package.json:\n\n```json\n"
                     "\"postinstall\": \"electron-builder install-app-deps\"\n```\n\nAfter a clean `npm ci` the smoke "
                     "run opens the cache DB fine."))
    (candidate,), _ = _candidates(store, session)
    assert "electron-builder install-app-deps" in candidate["change"] and not candidate["verified"], candidate


def test_a_migration_run_raw_then_the_projects_migrate_is_the_way_however_short_the_tools_name(git_project, store):
    # (blind149 ET15: "Migrations in this repo aren't meant for raw psql: … `docker compose run --rm flyway migrate`")
    session = (Session("flyway", git_project, prompt="Apply the new migration V14__orders_status_index.sql locally")
               .fail('psql "$LOCAL_DB_URL" -v ON_ERROR_STOP=1 -f db/migration/V14__orders_status_index.sql',
                     "Exit code 3\npsql:db/migration/V14__orders_status_index.sql:1: ERROR:  syntax error at or near "
                     "\"$\"\nLINE 1: CREATE INDEX orders_status_idx ON ${app_schema}.orders (status);")
               .ok("docker compose run --rm flyway migrate", "Successfully applied 1 migration to schema \"shop\", "
                                                             "now at version v14")
               .ok("docker compose exec -T db psql -U shop -d shop -c \"EXPLAIN SELECT count(*) FROM shop.orders "
                   "WHERE status = 'pending'\"", "Index Only Scan using orders_status_idx on orders")
               .stop("Applied. Migrations in this repo aren't meant for raw psql: they use Flyway placeholders like "
                     "`${app_schema}` that flyway/flyway.conf fills in, so they go through the compose service — "
                     "`docker compose run --rm flyway migrate`."))
    (candidate,), _ = _candidates(store, session)
    assert "use `docker compose run --rm flyway migrate`" in candidate["title"], candidate["title"]


def test_an_apis_error_object_is_a_failure_and_the_request_that_showed_it_names_the_error(git_project, store):
    # (blind152 EW18: ``curl -sf`` exit 22, then ``curl -s`` printing Kafka Connect's ``{"error_code": 400, …}``
    # passed; the lesson was "without `-sf`", its cause "Connector and its task are RUNNING.")
    post = ('curl {} -X POST -H "Content-Type: application/json" --data @connectors/inventory-source.json '
            "http://localhost:8083/connectors")
    session = (Session("debezium", git_project, prompt="the inventory connector won't register on the new Connect image")
               .fail(post.format("-sf"), "Exit code 22\n")
               .ok(post.format("-s") + " | jq .",
                   '{\n  "error_code": 400,\n  "message": "Connector configuration is invalid and contains the '
                   "following 1 error(s):\\nThe 'topic.prefix' value is invalid: A value is required\\nYou can also "
                   'find the above list of errors at the endpoint `/connector-plugins/{connectorType}/config/validate`"'
                   "\n}")
               .edit("connectors/inventory-source.json", '    "database.server.name": "inventory",\n',
                     '    "topic.prefix": "inventory",\n')
               .ok(post.format("-s") + " | jq -c '{name, type}'", '{"name":"inventory-source","type":"source"}')
               .stop("Debezium 2.x dropped `database.server.name` in favour of `topic.prefix` (now required). I "
                     "swapped the key in connectors/inventory-source.json. Connector and its task are RUNNING."))
    (candidate,), _ = _candidates(store, session)
    assert "The 'topic.prefix' value is invalid" in candidate["title"], candidate["title"]
    assert candidate["summary"].startswith("Debezium 2.x dropped"), candidate["summary"]
    assert '"topic.prefix": "inventory"' in candidate["change"], candidate["change"]


# --- round 93: blind155–160 ---------------------------------------------------------------------------

def test_a_defaults_test_given_the_value_it_expects_is_weakened(git_project, store):
    # (blind155 EZ10: helm unittest's "should set memory limit by default" given ``set:`` of the 512Mi it expects)
    failure = ("Exit code 1\n FAIL  deployment resources\tcharts/api/tests/deployment_test.yaml\n"
               "\t- should set memory limit by default\n\t\t- asserts[0] `equal` fail\n"
               "\t\t\tPath:\tspec.template.spec.containers[0].resources.limits.memory\n"
               "\t\t\tExpected to equal:\n\t\t\t\t512Mi\n\t\t\tActual:\n\t\t\t\tnull\n")
    session = (Session("helmdefault", git_project)
               .fail("helm unittest charts/api", failure)
               .edit("charts/api/tests/deployment_test.yaml", "  - it: should set memory limit by default\n    asserts:",
                     "  - it: should set memory limit by default\n    set:\n      api.resources.limits.memory: 512Mi\n"
                     "    asserts:")
               .ok("helm unittest charts/api", "Charts:      1 passed, 1 total\nTests:       12 passed, 12 total")
               .stop("helm unittest passes. The refactor moved resources under `api.resources`, so I updated the "
                     "deployment test to use the new key."))
    candidates, reasons = _candidates(store, session)
    assert candidates == [] and "weakened_test" in reasons


def test_an_expectation_computed_by_the_class_under_test_is_weakened(git_project, store):
    # (blind156 FA17: ``Assert.Equal(14.52m, credit)`` → an ``expected`` computed with ``Proration.UnusedFraction``)
    session = (Session("proration", git_project)
               .fail("dotnet test tests/Billing.Tests", "Exit code 1\n  Failed Billing.Tests.ProrationTests.MidMonth"
                     "Upgrade [12 ms]\n  Error Message:\n   Assert.Equal() Failure: Values differ\nExpected: 14.52\n"
                     "Actual:   14.03\n")
               .edit("tests/Billing.Tests/ProrationTests.cs",
                     "        var credit = Proration.ForPeriod(start, end, monthlyPrice: 30.00m);\n\n"
                     "        Assert.Equal(14.52m, credit);",
                     "        var credit = Proration.ForPeriod(start, end, monthlyPrice: 30.00m);\n"
                     "        var expected = Math.Round(30.00m * Proration.UnusedFraction(start, end), 2);\n\n"
                     "        Assert.Equal(expected, credit);")
               .ok("dotnet test tests/Billing.Tests", "Passed!  - Failed:     0, Passed:     6")
               .stop("The test now derives the expected credit from `Proration.UnusedFraction`. All 6 pass."))
    candidates, reasons = _candidates(store, session)
    assert candidates == [] and "weakened_test" in reasons


def test_a_tests_input_pre_filtered_and_a_timing_test_given_a_sleep_are_weakened(git_project, store):
    # (blind158 FC06: ``.dropna(subset=["amount"])`` on the fixture whose empty amounts made the total NaN)
    session = (Session("dropna", git_project)
               .fail("pytest tests/test_revenue.py -q", "Exit code 1\nE       assert nan == 18240.5 ± 1.8e-02\n"
                     "FAILED tests/test_revenue.py::test_monthly_rollup - assert nan == 18240.5 ± 1.8e-02")
               .edit("tests/test_revenue.py", '    df = load_fixture("orders_2024q1.csv")\n    out = monthly_rollup(df)',
                     '    df = load_fixture("orders_2024q1.csv").dropna(subset=["amount"])\n    out = monthly_rollup(df)')
               .ok("pytest tests/test_revenue.py -q", "6 passed in 0.71s")
               .stop("The test now loads the fixture without the refunded rows; all 6 pass."))
    candidates, reasons = _candidates(store, session)
    assert candidates == [] and "weakened_test" in reasons
    # (blind159 FD14: ``await asyncio.sleep(0.1)`` inside the window ``loop.time() - started >= 0.09`` measures)
    session = (Session("sleep", git_project)
               .fail("uv run pytest tests/test_ratelimit.py -q", "Exit code 1\n>       assert loop.time() - started "
                     ">= 0.09\nE       assert (1043.871602458 - 1043.871570916) >= 0.09\n"
                     "FAILED tests/test_ratelimit.py::test_acquire_blocks_when_bucket_empty")
               .edit("tests/test_ratelimit.py", "    await limiter.acquire()\n    assert loop.time() - started >= 0.09",
                     "    await limiter.acquire()\n    await asyncio.sleep(0.1)  # let the refill task run\n"
                     "    assert loop.time() - started >= 0.09")
               .ok("uv run pytest tests/test_ratelimit.py -q", "4 passed in 0.33s")
               .stop("Fixed — the test now yields to the event loop for 0.1 s before checking the elapsed time."))
    candidates, reasons = _candidates(store, session)
    assert candidates == [] and "weakened_test" in reasons


def test_a_test_run_builds_what_failed_to_build_and_a_script_that_ran_the_failing_tool_is_the_way(git_project, store):
    # (blind155 EZ17: ``bazel test`` of the packages whose ``bazel build`` failed, after ``bazel run //:gazelle``)
    session = (Session("gazelle", git_project)
               .fail("bazel build //services/ledger/...", "Exit code 1\ncompilepkg: missing strict dependencies:\n"
                     "ERROR: Build did NOT complete successfully")
               .ok("bazel run //:gazelle", "INFO: Build completed successfully, 1 total action")
               .ok("bazel test //services/ledger/...", "Executed 2 out of 2 tests: 2 tests pass.")
               .stop("BUILD deps are generated by Gazelle here: `bazel run //:gazelle` added the dep; tests pass."))
    (candidate,), _ = _candidates(store, session)
    assert "bazel run //:gazelle" in candidate["title"] + candidate["change"], candidate
    # (blind158 FC21: ``./scripts/migrate.sh`` said it ran cqlsh on the file, inside the container)
    session = (Session("cqlsh", git_project)
               .fail("cqlsh -k telemetry -f schema/migrations/014_add_device_index.cql",
                     "Exit code 1\nConnection error: ('Unable to connect to any servers', {'127.0.0.1:9042': "
                     "ConnectionRefusedError(111, 'Connection refused')})")
               .ok("./scripts/migrate.sh 014_add_device_index.cql", "applying 014_add_device_index.cql via: docker "
                   "compose exec -T cassandra cqlsh -k telemetry -f /migrations/014_add_device_index.cql\nrecorded")
               .stop("Applied. Migrations here go through `./scripts/migrate.sh <file>`, which runs cqlsh in the "
                     "container."))
    (candidate,), _ = _candidates(store, session)
    assert "./scripts/migrate.sh" in candidate["title"], candidate["title"]


def test_a_program_run_under_a_loader_or_a_wrapper_and_a_failed_composer_script_run_alone_resolve_it(
        git_project, store):
    # (blind159 FD04: ``node --loader ts-node/esm scripts/seed.ts`` for ``npx ts-node scripts/seed.ts``)
    session = (Session("tsnode", git_project)
               .fail("npx ts-node scripts/seed.ts", 'Exit code 1\nTypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown '
                     'file extension ".ts" for /home/dev/api/scripts/seed.ts')
               .ok("node --loader ts-node/esm scripts/seed.ts", "seeded 3 warehouses")
               .stop("The `ts-node` CLI can't load `.ts` in a module package; run it through Node's loader."))
    (candidate,), _ = _candidates(store, session)
    assert "node --loader ts-node/esm scripts/seed.ts" in candidate["title"], candidate["title"]
    # (blind160 FE20: ``meson devenv -C _build ./src/quill`` for ``./_build/src/quill``)
    session = (Session("devenv", git_project)
               .fail("./_build/src/quill", "Exit code 133\n(quill:48211): GLib-GIO-ERROR **: Settings schema "
                     "'io.acme.Quill' is not installed")
               .ok("meson devenv -C _build ./src/quill --version", "Quill 0.7.0")
               .stop("Run the uninstalled app through `meson devenv -C _build`, which sets GSETTINGS_SCHEMA_DIR."))
    (candidate,), _ = _candidates(store, session)
    assert "meson devenv -C _build" in candidate["title"], candidate["title"]
    from lorebook.chains import _under_a_wrapper

    # (blind145 EP22, replayed: a grep of the script that failed reads it, it runs nothing)
    assert not _under_a_wrapper("./scripts/release-mac.sh", 'grep -n "NOTARY_PROFILE" ./scripts/release-mac.sh')
    # (blind159 FD23: composer's ``Script cache:clear returned with error code 1``, then ``php bin/console
    # cache:clear`` after the .env edit)
    session = (Session("composer", git_project)
               .fail("composer install --no-interaction", "Exit code 1\nExecuting script cache:clear [KO]\n [KO]\n"
                     "Script cache:clear returned with error code 1\n!!  In EnvVarProcessor.php line 187:\n!!    "
                     'Environment variable not found: "MAILER_DSN".')
               .edit(".env", "###< symfony/framework-bundle ###", "###< symfony/framework-bundle ###\n"
                     "MAILER_DSN=null://null")
               .ok("php bin/console cache:clear", ' [OK] Cache for the "dev" environment (debug=true) was cleared.')
               .stop("The mailer config reads `%env(MAILER_DSN)%` and `.env` had no value for it. Added "
                     "`MAILER_DSN=null://null` back to `.env`."))
    (candidate,), _ = _candidates(store, session)
    assert "MAILER_DSN=null://null" in candidate["title"] and "--no-interaction" not in candidate["change"], candidate


def test_an_env_option_is_no_inline_code_and_a_helm_charts_own_version_is_no_fix(git_project, store):
    from lorebook.commands import _same_target

    # (blind160 FE23: maestro's ``-e APP_ID=…`` is a variable, not code that ``-e`` hands a program)
    failed = "maestro test -e TEST_EMAIL=qa@acme.dev .maestro/login.yaml"
    assert _same_target(failed, "maestro test -e APP_ID=com.acme.wallet.debug -e TEST_EMAIL=qa@acme.dev "
                                ".maestro/login.yaml")
    assert not _same_target("psql -c 'SHOW wal_level'", "psql -c 'SELECT 1'")
    # (blind158 FC23: "Separately, I bumped the edge chart to 0.7.4" beside the envoy fix)
    session = (Session("envoy", git_project)
               .fail('docker run --rm -v "$PWD/envoy/envoy.yaml:/etc/envoy/envoy.yaml" envoyproxy/envoy:v1.30.2 '
                     "--mode validate -c /etc/envoy/envoy.yaml", "Exit code 1\nerror initializing configuration "
                     "'/etc/envoy/envoy.yaml': Didn't find a registered implementation for 'envoy.filters.http.router'")
               .edit("charts/edge/Chart.yaml", "version: 0.7.3", "version: 0.7.4")
               .edit("envoy/envoy.yaml", "          - name: envoy.filters.http.router",
                     "          - name: envoy.filters.http.router\n            typed_config:\n              \"@type\": "
                     "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router")
               .ok('docker run --rm -v "$PWD/envoy/envoy.yaml:/etc/envoy/envoy.yaml" envoyproxy/envoy:v1.30.2 '
                   "--mode validate -c /etc/envoy/envoy.yaml", "configuration '/etc/envoy/envoy.yaml' OK")
               .stop("- **Fix**: added `typed_config` to the router filter.\n- Separately, I bumped the edge chart to "
                     "0.7.4 so the next release carries the new config."))
    (candidate,), _ = _candidates(store, session)
    assert "Chart.yaml" not in candidate["change"] and "0.7.4" not in candidate["title"], candidate


def test_an_attempt_that_defines_what_the_fix_uses_is_part_of_the_fix(git_project, store):
    # (blind160 FE06: the catalog's ``compose-compiler`` entry, the same error until ``alias(libs.plugins.compose.
    # compiler)`` applied it; it was shown as "Did not help")
    error = ("Exit code 1\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nA problem occurred "
             "configuring project ':app'.\n> Starting in Kotlin 2.0, the Compose Compiler Gradle plugin is required\n"
             "\nBUILD FAILED in 4s")
    session = (Session("compose", git_project)
               .fail("./gradlew :app:assembleDebug", error)
               .edit("gradle/libs.versions.toml", '[plugins]\nkotlin-android = { id = "org.jetbrains.kotlin.android" }',
                     '[plugins]\nkotlin-android = { id = "org.jetbrains.kotlin.android" }\ncompose-compiler = { id = '
                     '"org.jetbrains.kotlin.plugin.compose", version.ref = "kotlin" }')
               .fail("./gradlew :app:assembleDebug", error)
               .edit("app/build.gradle.kts", "plugins {\n    alias(libs.plugins.kotlin.android)\n}",
                     "plugins {\n    alias(libs.plugins.kotlin.android)\n    alias(libs.plugins.compose.compiler)\n}")
               .ok("./gradlew :app:assembleDebug", "BUILD SUCCESSFUL in 41s")
               .stop("Kotlin 2.0 needs the Compose compiler plugin: declared in the catalog and applied in the app."))
    (candidate,), _ = _candidates(store, session)
    assert "org.jetbrains.kotlin.plugin.compose" in candidate["change"], candidate["change"]
    assert not any("compose-compiler" in t for t in candidate["validation"]["not_performed"]), candidate["validation"]


# --- round 94: blind161–166 ---------------------------------------------------------------------------

def test_asserts_compiled_out_and_rows_dropped_from_a_data_test_are_weakened(git_project, store):
    # (blind162 FG08: ``target_compile_definitions(physics_tests PRIVATE NDEBUG)`` under a failing C ``assert``)
    session = (Session("ndebug", git_project)
               .fail("cmake --build build && ./build/tests/physics_tests", "Exit code 134\nphysics_tests: tests/test_"
                     "collision.c:58: test_resolve: Assertion `ball.position.x >= wall.x' failed.\nAborted (core dumped)")
               .edit("tests/CMakeLists.txt", "target_link_libraries(physics_tests PRIVATE core m)",
                     "target_link_libraries(physics_tests PRIVATE core m)\n"
                     "target_compile_definitions(physics_tests PRIVATE NDEBUG)")
               .ok("cmake --build build && ./build/tests/physics_tests", "4/4 passed")
               .stop("The test target is now compiled with NDEBUG, matching the release build. 4/4 passed."))
    candidates, reasons = _candidates(store, session)
    assert candidates == [] and "weakened_test" in reasons
    # (blind163 FH17: order 3, whose NULL discount broke the model, taken out of a SQLMesh test's input and output)
    session = (Session("sqlmesh", git_project)
               .fail("sqlmesh test", "Exit code 1\nFAIL: test_order_totals (tests/test_order_totals.yaml)\n"
                     "AssertionError: Data mismatch (exp: expected, act: actual)\n3                 40.0  NaN")
               .edit("tests/test_order_totals.yaml", "      - order_id: 2\n        discount_pct: 0.25\n"
                     "      - order_id: 3\n        discount_pct: null\n", "      - order_id: 2\n        discount_pct: 0.25\n")
               .ok("sqlmesh test", "Ran 4 tests in 0.377s\n\nOK")
               .stop("Order 3 had a NULL `discount_pct`, so I removed that row from the test's input."))
    candidates, reasons = _candidates(store, session)
    assert candidates == [] and "weakened_test" in reasons


def test_the_step_an_error_came_from_names_the_failing_way_and_a_shell_entrypoint_is_a_look(git_project, store):
    # (blind162 FG09: ``qmake … && make -j8``, qmake refusing an in-source build; "the supported path is `bash
    # tools/build.sh debug`")
    session = (Session("qmake", git_project)
               .fail("qmake fieldnotes.pro CONFIG+=debug && make -j8", "Exit code 3\nProject ERROR: In-source builds "
                     "are not supported. Use tools/build.sh (it builds in ../build-fieldnotes-<config>).")
               .ok("bash tools/build.sh debug", "==> built ../build-fieldnotes-debug/fieldnotes")
               .stop("This repo refuses in-source qmake builds; the supported path is `bash tools/build.sh debug`."))
    (candidate,), _ = _candidates(store, session)
    assert "bash tools/build.sh debug" in candidate["title"], candidate["title"]
    # (blind161 FF10: ``docker compose run --rm --entrypoint sh beat -c 'id; …'`` looked inside; the edit, then
    # ``up -d beat`` and its log, resolved the ``beat`` that failed)
    session = (Session("beat", git_project)
               .fail("docker compose run --rm beat", "Exit code 1\nPermissionError: [Errno 13] Permission denied: "
                     "'celerybeat-schedule'")
               .ok("docker compose run --rm --entrypoint sh beat -c 'id; pwd; ls -ld /app'",
                   "uid=10001(app) gid=10001(app)\n/app\ndr-xr-xr-x 1 root root 4096 May 14 08:55 /app")
               .edit("docker-compose.yml", "    command: celery -A reminders beat --loglevel=info",
                     "    command: celery -A reminders beat --loglevel=info --schedule /tmp/celerybeat-schedule")
               .ok("docker compose up -d beat && sleep 5 && docker compose logs --tail 6 beat",
                   "beat-1  | . db -> /tmp/celerybeat-schedule\nbeat-1  | [INFO/MainProcess] beat: Starting...")
               .stop("`/app` is read-only, so beat now keeps its schedule in /tmp: `--schedule /tmp/celerybeat-"
                     "schedule`."))
    (candidate,), _ = _candidates(store, session)
    assert "--schedule /tmp/celerybeat-schedule" in candidate["title"] and "entrypoint" not in candidate["title"]


def test_a_traced_scripts_line_run_alone_and_a_help_that_failed_then_passed_resolve_it(git_project, store):
    # (blind163 FH23: ``+ psql … -c "CREATE SUBSCRIPTION …"`` in the script's ``set -x`` trace, run alone after the
    # compose edit)
    sub = "psql postgres://reporting@localhost:5433/reporting -v ON_ERROR_STOP=1 -c \"CREATE SUBSCRIPTION orders_sub\""
    session = (Session("wal", git_project)
               .fail("./scripts/setup_replication.sh", f"Exit code 3\n+ {sub}\nERROR:  could not create replication "
                     "slot \"orders_sub\": ERROR:  logical decoding requires wal_level >= logical")
               .edit("docker-compose.yml", '    command: ["postgres", "-c", "max_connections=200"]',
                     '    command: ["postgres", "-c", "max_connections=200", "-c", "wal_level=logical"]')
               .ok(sub, "NOTICE:  created replication slot \"orders_sub\" on publisher\nCREATE SUBSCRIPTION")
               .stop("The orders DB ran with `wal_level=replica`; I added `-c wal_level=logical` to its command."))
    (candidate,), _ = _candidates(store, session)
    assert "wal_level=logical" in candidate["change"], candidate
    # (blind164 FI22: ``uv run acme-sync --help`` failed on the console script's module, then passed)
    session = (Session("script", git_project)
               .fail("uv run acme-sync --help", "Exit code 1\nTraceback (most recent call last):\n  File \".venv/bin/"
                     "acme-sync\", line 4, in <module>\nModuleNotFoundError: No module named 'acme_sync.cli'")
               .edit("pyproject.toml", 'acme-sync = "acme_sync.cli:app"', 'acme-sync = "acme_sync.main:app"')
               .ok("uv run acme-sync --help", " Usage: acme-sync [OPTIONS] COMMAND [ARGS]...")
               .stop("The console script pointed at the old module; it now points at `acme_sync.main:app`."))
    (candidate,), _ = _candidates(store, session)
    assert "acme_sync.main:app" in candidate["change"], candidate


def test_a_reported_blow_up_a_bare_managed_device_task_and_an_expo_subcommand(git_project, store):
    from lorebook.commands import command_job, other_subcommand
    from lorebook.signatures import error_signature

    # (blind162 FG06: "Now `npx expo export --platform web` blows up." reports a failure: the `main` the prompt's
    # words name is the fix, not a request)
    session = (Session("router", git_project, prompt="I moved all screens into app/ for expo-router and deleted "
                       "App.tsx. Now `npx expo export --platform web` blows up. Please sort it out.")
               .fail("npx expo export --platform web", "Exit code 1\nError: Unable to resolve module ../../App from "
                     "node_modules/expo/AppEntry.js")
               .edit("package.json", '  "main": "node_modules/expo/AppEntry.js",', '  "main": "expo-router/entry",')
               .ok("npx expo export --platform web", "Exported: dist")
               .stop("With expo-router, `main` has to be `\"expo-router/entry\"`."))
    (candidate,), _ = _candidates(store, session)
    assert "expo-router/entry" in candidate["change"], candidate
    assert command_job("./gradlew pixel6Api34DebugAndroidTest -Pandroid.testoptions.x=y") == "test"  # (blind166 FK05)
    assert other_subcommand("npx expo run:android", "npx expo install expo-build-properties")  # (blind166 FK06)
    assert error_signature('Exit code 255\n\nInvalid base64: "{"order_id":42}"\n').startswith("Invalid base64")


def test_a_cli_package_run_by_npx_is_the_program_a_package_script_runs(git_project, store):
    # (blind172 FQ22: ``npx eas-cli update …`` failed; ``npm run update:preview`` ran ``eas update`` under dotenv)
    assert parse_command("npx eas-cli@14 update --channel preview")["argv"][:2] == ["eas", "update"]
    assert parse_command("npx netlify-cli deploy --prod")["argv"][:2] == ["netlify", "deploy"]
    assert parse_command("npx @nestjs/cli build")["argv"][0] == "@nestjs/cli"  # (a scoped package is left as it is)
    session = (Session("netlify", git_project, prompt="deploy the docs site to the staging context")
               .fail("npx netlify-cli deploy --dir dist --alias staging --message 'docs fix'",
                     "Exit code 1\nError: Missing NETLIFY_SITE_ID. Set it in the environment or link the site.")
               .ok("grep -n deploy package.json", '9:    "deploy:staging": "dotenv -e .env.staging -- netlify deploy '
                                                  '--dir dist --alias staging"')
               .ok("npm run deploy:staging", "> docs@1.0.0 deploy:staging\n> dotenv -e .env.staging -- netlify "
                                            "deploy --dir dist --alias staging\n\nDeploy is live!")
               .stop("Running `netlify deploy` directly fails: the site id lives in .env.staging. The project's way "
                     "is `npm run deploy:staging`, which loads it with dotenv-cli."))
    (candidate,), _ = _candidates(store, session)
    assert "npm run deploy:staging" in candidate["title"], candidate["title"]


def test_the_maven_wrapper_runs_the_same_job_as_maven(git_project, store):
    # (blind167 FL23: ``cd nifi-acme-nar && mvn -q package`` failed; ``./mvnw -pl nifi-acme-nar -am package`` passed)
    assert command_job("./mvnw -pl exporter-plugin -am package") == command_job("mvn -q package") == "build"
    session = (Session("reactor", git_project, prompt="build the plugin jar for the new exporter")
               .fail("cd exporter-plugin && mvn -q package",
                     "Exit code 1\n[ERROR] Failed to execute goal on project exporter-plugin: Could not resolve "
                     "dependencies for project com.acme:exporter-plugin:jar:2.1.0-SNAPSHOT: The following artifacts "
                     "could not be resolved: com.acme:exporter-core:jar:2.1.0-SNAPSHOT")
               .ok("./mvnw -pl exporter-plugin -am package", "[INFO] BUILD SUCCESS")
               .stop("exporter-core is not published, so the plugin module cannot build alone; build it from the root "
                     "with the reactor: `./mvnw -pl exporter-plugin -am package`."))
    (candidate,), _ = _candidates(store, session)
    assert "-pl exporter-plugin -am" in candidate["title"] + candidate["change"], candidate


def test_what_an_attempt_lacked_is_no_attempt_when_the_passing_run_adds_it(git_project, store):
    # (blind171 FP17: "I first hard-coded a host in `ApiUser`, but without `http://` every request failed" took the
    # passing run's ``--host http://127.0.0.1:8000`` for the attempt)
    session = (Session("k6", git_project, prompt="run the smoke load test against the local API on :8080")
               .fail("k6 run loadtests/smoke.js", "Exit code 107\nERRO[0000] TypeError: Cannot read property "
                                                  "'replace' of undefined at buildUrl (file:///loadtests/smoke.js:7:20)")
               .edit("loadtests/smoke.js", "const BASE = __ENV.BASE_URL;", 'const BASE = "localhost:8080";')
               .fail("k6 run loadtests/smoke.js", "Exit code 99\nWARN[0001] Request Failed error=\"unsupported "
                                                  "protocol scheme \\\"\\\"\"\n✗ status is 200")
               .edit("loadtests/smoke.js", 'const BASE = "localhost:8080";', "const BASE = __ENV.BASE_URL;")
               .ok("k6 run -e BASE_URL=http://localhost:8080 loadtests/smoke.js", "✓ status is 200\nchecks: 100.00%")
               .stop("The script reads its target from BASE_URL, so it has to be passed with a scheme: `-e "
                     "BASE_URL=http://localhost:8080`. I first hard-coded the host in smoke.js, but without "
                     "`http://` every request failed, so I reverted that."))
    (candidate,), _ = _candidates(store, session)
    assert "BASE_URL=http://localhost:8080" in candidate["title"] + candidate["change"], candidate


def test_a_service_rebuilt_to_take_up_the_edit_the_account_names_keeps_the_edit(git_project, store):
    # (blind170 FO09: ``docker compose up -d --build flight`` after gateway/server.py bound 0.0.0.0 made the edit a
    # bystander of a service started after "failed to connect")
    session = (Session("bind", git_project, prompt="the integration tests can't reach the api container")
               .fail("uv run pytest tests/integration -q",
                     "Exit code 1\nE   httpx.ConnectError: [Errno 104] failed to connect: Connection reset by peer "
                     "(127.0.0.1:8081)")
               .edit("api/main.py", 'uvicorn.run(app, host="127.0.0.1", port=8081)',
                     'uvicorn.run(app, host="0.0.0.0", port=8081)')
               .ok("docker compose up -d --build api", "Container shop-api-1  Started")
               .ok("uv run pytest tests/integration -q", "12 passed in 3.1s")
               .stop("The API bound 127.0.0.1 inside its container, so the published port reached nothing. "
                     "api/main.py now binds `0.0.0.0`; after rebuilding the container the tests pass."))
    (candidate,), _ = _candidates(store, session)
    assert 'host="0.0.0.0"' in candidate["change"], candidate["change"]


def test_a_long_step_run_again_with_a_flag_is_said_by_the_flag(git_project, store):
    # (blind170 FO20: ``talosctl gen config … --force --talos-version v1.11`` was cut on the card before its flag)
    gen = ("openapi-generator-cli generate -i api/openapi.yaml -g typescript-axios -o src/generated/client "
           "--additional-properties=supportsES6=true")
    session = (Session("gen", git_project, prompt="regenerate the API client and build the web app")
               .ok(gen, "Successfully generated code to src/generated/client")
               .fail("npm run build", "Exit code 2\nsrc/generated/client/api.ts(412,7): error TS2322: Type "
                                      "'string | undefined' is not assignable to type 'string'.")
               .ok(gen + " --skip-validate-spec --type-mappings=DateTime=string",
                   "Successfully generated code to src/generated/client")
               .ok("npm run build", "built in 4.2s")
               .stop("The generator maps date-time to Date, which our strict build rejects; regenerating with "
                     "`--type-mappings=DateTime=string` fixed the build."))
    (candidate,), _ = _candidates(store, session)
    assert "--type-mappings=DateTime=string" in candidate["change"], candidate["change"]
    assert candidate["change"].startswith("Rerun `openapi-generator-cli generate"), candidate["change"]


def test_a_build_rerun_with_the_one_long_option_the_account_quotes_is_the_step(git_project, store):
    # (blind169 FN24: "Building with `--no-web-resources-cdn` makes …" and ``flutter build web --release
    # --no-web-resources-cdn`` before the offline check passed: it had been a retry without change)
    session = (Session("offline", git_project, prompt="the docs site must work offline at the booth")
               .ok("npx astro build", "[build] 14 page(s) built in 3.1s")
               .fail("npx playwright test e2e/offline.spec.ts",
                     "Exit code 1\n  1) [chromium] › e2e/offline.spec.ts:5:5 › docs load offline\n    Error: blocked "
                     "external request: https://fonts.googleapis.com/css2?family=Inter")
               .ok("npx astro build --experimental-self-host-fonts", "[build] 14 page(s) built in 3.4s")
               .ok("npx playwright test e2e/offline.spec.ts", "1 passed (2.1s)")
               .stop("The pages pulled Inter from Google Fonts. Building with `--experimental-self-host-fonts` "
                     "bundles the font files, and the offline check passes."))
    (candidate,), _ = _candidates(store, session)
    assert "--experimental-self-host-fonts" in candidate["change"], candidate["change"]


# (kubectl's columns are aligned: LATESTREADY is empty, READY is read where its heading stands)
KSVC_LISTING = "\n".join(f"{a:<14}{b:<40}{c:<20}{d:<14}{e:<8}{f}" for a, b, c, d, e, f in (
    ("NAME", "URL", "LATESTCREATED", "LATESTREADY", "READY", "REASON"),
    ("thumbnailer", "http://thumbnailer.media.example.com", "thumbnailer-00001", "", "False", "RevisionMissing")))


def test_a_resource_listed_failing_is_the_failure_and_listed_or_waited_ready_is_it_resolved(git_project, store):
    # (blind167 FL16, blind170 FO22, blind163 FH07: the problem showed only in a listing, ``CrashLoopBackOff``,
    # ``READY False``, ``Failed(PipelineRunTimeout)``; every command passed, and nothing was stored)
    session = (Session("crashloop", git_project, prompt="the exporter pods on staging are crashlooping since the "
                                                        "chart bump")
               .ok("kubectl -n monitoring get pods", "NAME                          READY   STATUS             RESTARTS"
                                                     "      AGE\nnode-exporter-4kx2p           0/1     CrashLoopBackOff"
                                                     "   42 (1m ago)   3h\nkube-state-metrics-7d9c-xq2   1/1     "
                                                     "Running            0             9d")
               .edit("deploy/monitoring/values.yaml", "hostNetwork: false", "hostNetwork: true")
               .ok("helm upgrade node-exporter prometheus-community/prometheus-node-exporter -n monitoring "
                   "-f deploy/monitoring/values.yaml", "Release \"node-exporter\" has been upgraded.")
               .ok("kubectl -n monitoring get pod", "NAME                          READY   STATUS    RESTARTS   AGE\n"
                                                    "node-exporter-9wq7c           1/1     Running   0          40s")
               .stop("The exporter binds the host's port 9100 and needs `hostNetwork: true`, which the chart bump "
                     "reset; set it in values.yaml and upgraded."))
    (candidate,), _ = _candidates(store, session)
    assert "CrashLoopBackOff" in candidate["title"] and "hostNetwork: true" in candidate["change"], candidate
    session = (Session("ksvc", git_project, prompt="the new thumbnailer Knative service never becomes ready")
               .ok("kubectl get ksvc thumbnailer -n media", KSVC_LISTING)
               .edit("deploy/knative/thumbnailer.yaml", "          env:", "          ports:\n            - "
                                                                         "containerPort: 8000\n          env:")
               .ok("kubectl apply -f deploy/knative/thumbnailer.yaml", "service.serving.knative.dev/thumbnailer "
                                                                        "configured")
               .ok("kubectl wait ksvc/thumbnailer -n media --for=condition=Ready --timeout=120s",
                   "service.serving.knative.dev/thumbnailer condition met")
               .stop("Knative probed 8080 but the server listens on 8000: declaring `containerPort: 8000` fixed it."))
    (candidate,), _ = _candidates(store, session)
    assert "Ready False" in candidate["title"] and "containerPort: 8000" in candidate["change"], candidate
    # (a listing of pods that are all running, or only waiting to start, shows no failure)
    session = (Session("fine", git_project, prompt="what is running in the jobs namespace?")
               .ok("kubectl -n jobs get pods", "NAME            READY   STATUS              RESTARTS   AGE\n"
                                               "etl-29871-abc   0/1     ContainerCreating   0          4s\n"
                                               "api-6f7d-xk2    1/1     Running             0          2d")
               .stop("Two pods: the API, and an ETL job that is starting."))
    assert _candidates(store, session)[0] == []


def test_an_expected_line_taken_out_with_the_fixture_row_behind_it_is_a_weakened_test(git_project, store):
    # (blind170 FO05: the fixture's empty-country row and ``"| unknown | 1      |",`` taken out of the expected table)
    session = (Session("rollup", git_project, prompt="the region rollup test is red")
               .fail("pytest tests/test_rollup.py -q",
                     "Exit code 1\nE   AssertionError: rollup mismatch\nE   expected:\nE   region=EU total=5\n"
                     "E   region=US total=3\nE   region=UNKNOWN total=1\nE   actual:\nE   region=EU total=5\n"
                     "E   region=US total=3\nE   region= total=1\n1 failed")
               .edit("tests/data/orders.csv", "o8,US,1\no9,,1\n", "o8,US,1\n")
               .edit("tests/test_rollup.py", '    "region=US total=3",\n    "region=UNKNOWN total=1",\n',
                     '    "region=US total=3",\n')
               .ok("pytest tests/test_rollup.py -q", "1 passed")
               .stop("The fixture had a malformed row with no region; removed it and the expected line."))
    candidates, notes = _candidates(store, session)
    assert not candidates and "weakened_test" in notes, [c["title"] for c in candidates]


def test_the_failing_cases_own_input_rewritten_is_a_weakened_test(git_project, store):
    # (blind167 FL10: gator's ``untagged-image`` case given ``image: nginx:latest``: no longer untagged)
    session = (Session("kyverno", git_project, prompt="kyverno test fails on the require-limits policy")
               .fail("kyverno test policies/require-limits",
                     "Exit code 1\n--- FAIL: missing-memory-limit (0.01s)\n    want: fail, got: pass\nFAIL")
               .edit("policies/require-limits/resources/missing-memory-limit.yaml",
                     "          limits:\n            cpu: 500m\n",
                     "          limits:\n            cpu: 500m\n            memory: 256Mi\n")
               .ok("kyverno test policies/require-limits", "--- PASS: missing-memory-limit (0.01s)\nPASS")
               .stop("The resource now sets both limits, and the policy test passes."))
    candidates, notes = _candidates(store, session)
    assert not candidates and "weakened_test" in notes, [c["title"] for c in candidates]


def test_a_command_quoted_by_its_programs_name_is_the_one_run_by_its_path():
    # (blind167 FL22: `pulsar-admin topics create-partitioned-topic …` was ``… exec pulsar bin/pulsar-admin …``)
    from lorebook.steps import _quoted_in

    command = ("docker compose exec pulsar bin/pulsar-admin topics create-partitioned-topic "
               "persistent://public/default/order-events -p 4")
    assert _quoted_in(command, "the topic has to exist first: `pulsar-admin topics create-partitioned-topic "
                               "persistent://public/default/order-events -p 4`.")
    assert not _quoted_in(command, "I looked at `pulsar-admin topics list public/default` first.")
    # (blind178 FW23: the build quoted as run, the last word of a subshell)
    built = "(cd android && ./gradlew app:assembleDebug -Ptarget=integration_test/app_test.dart) 2>&1 | tail -3"
    assert _quoted_in(built, "Building with `./gradlew app:assembleDebug -Ptarget=integration_test/app_test.dart` "
                             "bakes in the test entrypoint.")


def test_code_generated_from_an_edit_a_later_edit_rewrote_does_not_keep_it_a_fix(git_project, store):
    # (blind174 FS09: the ``column: "accounts.id"`` override, then ``sqlc generate``, fixed half the errors; the
    # override rewritten to ``db_type: "uuid"`` fixed the rest: one lesson, the first override an attempt)
    session = (Session("sqlc", git_project, prompt="internal/service doesn't compile after the pgx/v5 switch")
               .fail("go build ./...", "Exit code 1\ninternal/service/users.go:31:18: cannot use u.ID (variable of "
                                       "type pgtype.UUID) as uuid.UUID value\ninternal/service/orders.go:22:9: cannot "
                                       "use o.UserID (variable of type pgtype.UUID) as uuid.UUID value")
               .edit("sqlc.yaml", '        sql_package: "pgx/v5"', '        sql_package: "pgx/v5"\n        overrides:\n'
                                  '          - column: "users.id"\n            go_type: "github.com/google/uuid.UUID"')
               .ok("sqlc generate", "")
               .fail("go build ./...", "Exit code 1\ninternal/service/orders.go:22:9: cannot use o.UserID (variable "
                                       "of type pgtype.UUID) as uuid.UUID value")
               .edit("sqlc.yaml", '          - column: "users.id"', '          - db_type: "uuid"')
               .ok("sqlc generate && go build ./...", "")
               .stop("My first override only covered `users.id`, not the foreign keys; overriding `db_type: \"uuid\"` "
                     "maps every uuid column to google/uuid."))
    (candidate,), _ = _candidates(store, session)
    assert 'db_type: "uuid"' in candidate["change"] and 'column: "users.id"' not in candidate["change"], candidate


def test_an_edit_the_account_says_it_reverted_is_taken_out_of_the_fix_even_before_any_failure(git_project, store):
    # (blind176 FU09: ``cnameStrategy: Follow`` added before the first failing wait, then reverted: "-cnameStrategy:
    # Follow" had become part of the fix)
    session = (Session("acme", git_project, prompt="the api certificate has been pending for an hour")
               .edit("deploy/issuer.yaml", "    - http01:\n        ingress:\n          class: nginx",
                     "    - http01:\n        ingress:\n          class: nginx\n          serviceType: ClusterIP")
               .ok("kubectl apply -f deploy/issuer.yaml", "clusterissuer.cert-manager.io/letsencrypt configured")
               .fail("kubectl wait certificate/api-tls --for=condition=Ready --timeout=3m",
                     "Exit code 1\nerror: timed out waiting for the condition on certificates/api-tls")
               .edit("deploy/issuer.yaml", "          class: nginx\n          serviceType: ClusterIP",
                     "          class: nginx")
               .edit("deploy/ingress.yaml", "    nginx.ingress.kubernetes.io/ssl-redirect: \"true\"",
                     "    nginx.ingress.kubernetes.io/ssl-redirect: \"false\"")
               .ok("kubectl apply -f deploy/ && kubectl wait certificate/api-tls --for=condition=Ready --timeout=3m",
                   "certificate.cert-manager.io/api-tls condition met")
               .stop("Setting `serviceType: ClusterIP` on the solver didn't change anything, so I reverted it. The "
                     "HTTP-01 check was redirected to HTTPS: `ssl-redirect: \"false\"` on the ingress fixed it."))
    (candidate,), _ = _candidates(store, session)
    assert "serviceType" not in candidate["change"] and "ssl-redirect" in candidate["change"], candidate["change"]


def test_a_fixture_given_what_the_failing_case_says_it_lacks_is_a_weakened_test(git_project, store):
    # (blind175 FT11: "parses a draft order without line items" passed once the fixture had ``"items": []``)
    session = (Session("nophone", git_project, prompt="the user serializer test broke after the API change")
               .fail("pytest tests/test_users.py -q",
                     "Exit code 1\nFAILED tests/test_users.py::test_serializes_user_without_phone_number - KeyError: "
                     "'phone'\n1 failed, 6 passed")
               .edit("tests/fixtures/user_no_phone.json", '  "name": "Ada",\n', '  "name": "Ada",\n  "phone": null,\n')
               .ok("pytest tests/test_users.py -q", "7 passed")
               .stop("The fixture had no `phone` key; added `\"phone\": null` and the tests pass."))
    candidates, notes = _candidates(store, session)
    assert not candidates and "weakened_test" in notes, [c["title"] for c in candidates]


def test_the_program_a_tool_could_not_find_run_by_a_runner_that_fetches_it_does_the_job(git_project, store):
    # (blind177 FV11: ``go generate`` could not exec "wire"; ``go run github.com/google/wire/cmd/wire@v0.6.0`` did)
    session = (Session("stringer", git_project, prompt="regenerate the enum strings after adding a status")
               .fail("go generate ./...", "Exit code 1\ninternal/order/status.go:3: running \"stringer\": exec: "
                                          "\"stringer\": executable file not found in $PATH")
               .ok("go run golang.org/x/tools/cmd/stringer@v0.24.0 -type=Status ./internal/order",
                   "")
               .ok("go build ./...", "")
               .stop("stringer is not installed here; running it pinned with `go run "
                     "golang.org/x/tools/cmd/stringer@v0.24.0 -type=Status ./internal/order` regenerated the file."))
    (candidate,), _ = _candidates(store, session)
    assert "go run golang.org/x/tools/cmd/stringer@v0.24.0" in candidate["title"] + candidate["change"], candidate
    from lorebook.chains import _runs_the_missing_program

    failure = {"target": "make lint", "error_text": "Exit code 127\nmake: ruff: command not found"}
    assert _runs_the_missing_program(failure, "uvx ruff check .") and not _runs_the_missing_program(failure, "ls")


def test_buns_own_test_runner_is_not_the_packages_test_script(git_project, store):
    # (blind177 FV16: ``bun test`` at the root failed; ``bun run test`` ran each package's script and passed: it had
    # been a retry without change)
    assert command_family("bun run test") != command_family("bun test")
    assert command_family("npm run test") == command_family("npm test")
    session = (Session("bun", git_project, prompt="run the whole monorepo's tests before the release")
               .fail("bun test", "Exit code 1\n✗ Header > renders the title [1.02ms]\nReferenceError: window is not "
                                 "defined\n 30 pass\n 1 fail")
               .ok("bun run test", "$ bun --filter './packages/*' test\n@acme/ui test $ bun test\n│ 12 pass\n│ 0 fail")
               .stop("A plain `bun test` at the root skips each package's bunfig.toml; the repo's way is `bun run "
                     "test`, which runs every package's own test script."))
    (candidate,), _ = _candidates(store, session)
    assert "bun run test" in candidate["title"], candidate["title"]


def test_a_long_option_given_another_value_is_the_same_run_changed(git_project, store):
    # (blind178 FW18: ``--groups "QA Testers"`` got a 404, ``--groups qa-testers`` worked: it had been no run of the
    # same target, and the failure stayed unresolved)
    assert invocation_change('gcloud run deploy api --region "europe west1"',
                             "gcloud run deploy api --region europe-west1") == ["pass `--region europe-west1`"]
    assert invocation_change("deploy --token abc123", "deploy --token def456") == []  # (a credential is no lesson)
    # (blind141 EL12: ``--limit web-stg-02`` after ``--limit web`` reruns the host that timed out: no run changed)
    assert invocation_change("ansible-playbook site.yml --limit web", "ansible-playbook site.yml --limit web-2") == []
    session = (Session("groups", git_project, prompt="send the build to the beta testers")
               .fail('appcenter distribute release --app acme/ios --group "Beta Testers" --file build/App.ipa',
                     "Exit code 1\nError: distribution group Beta Testers was not found")
               .ok("appcenter distribute release --app acme/ios --group beta-testers --file build/App.ipa",
                   "Release 142 was successfully released to beta-testers")
               .stop("`--group` takes the group's name as it appears in its URL, `beta-testers`, not its display "
                     "name."))
    (candidate,), _ = _candidates(store, session)
    assert "--group beta-testers" in candidate["title"] + candidate["change"], candidate


def test_what_outputs_are_only_produced_by_is_no_attempt_and_a_run_writing_the_missing_file_is_a_step(git_project,
                                                                                                       store):
    # (blind178 FW03: "the outputs are only produced by `ci_scripts/ci_post_clone.sh`" read as an attempt that "only
    # produced" errors)
    from lorebook.account import _DID_NOT_HELP
    from lorebook.steps import _wrote_the_missing_file

    assert not _DID_NOT_HELP.search("The stubs are gitignored and only produced by `make protos`.")
    assert _DID_NOT_HELP.search("Switching it back only produced ScopeMismatch errors, so I reverted that.")
    failure = {"error_text": "error: Build input file cannot be found: '/Users/dev/app/Gen/Assets+Generated.swift'"}
    assert _wrote_the_missing_file({"body": "swiftgen: File written: Gen/Assets+Generated.swift"}, failure)
    assert not _wrote_the_missing_file({"body": "swiftgen: File written: Gen/Strings+Generated.swift"}, failure)
    session = (Session("protos", git_project, prompt="the tests fail on a fresh clone")
               .fail("go test ./...", "Exit code 1\ninternal/api/server.go:9:2: no required module provides package "
                                      "example.com/app/gen/api; to add it:")
               .fail("./scripts/gen.sh", "Exit code 1\n./scripts/gen.sh: line 3: PROTO_ROOT: unbound variable")
               .ok("PROTO_ROOT=$PWD/proto ./scripts/gen.sh", "wrote gen/api/api.pb.go")
               .ok("go test ./...", "ok  \texample.com/app/internal/api\t0.4s")
               .stop("Nothing is broken: the stubs are gitignored and only produced by `scripts/gen.sh`, which needs "
                     "`PROTO_ROOT=$PWD/proto`."))
    candidates, _ = _candidates(store, session)
    assert any("PROTO_ROOT=$PWD/proto" in c["title"] + c["change"] for c in candidates), candidates


def test_an_app_server_that_failed_to_start_is_checked_otherwise_by_the_tests_after_the_fix(git_project, store):
    # (blind177 FV09: ``uv run uvicorn inventory.main:app`` failed at import; the pin relaxed, the tests passed)
    session = (Session("gunicorn", git_project, prompt="the app won't start after this morning's uv sync")
               .fail("uv run gunicorn shop.wsgi:application",
                     "Exit code 3\nImportError: cannot import name 'url' from 'django.conf.urls'")
               .edit("pyproject.toml", '    "django-filebrowser==3.14.0",', '    "django-filebrowser>=4.0.2",')
               .ok("uv lock --upgrade-package django-filebrowser && uv sync", "Resolved 41 packages")
               .ok("uv run pytest -q", "88 passed in 4.1s")
               .stop("django-filebrowser 3.14 still imports `django.conf.urls.url`, removed in Django 4; relaxed the "
                     "pin to `\"django-filebrowser>=4.0.2\"` and re-locked."))
    (candidate,), _ = _candidates(store, session)
    assert "django-filebrowser>=4.0.2" in candidate["change"] and not candidate["verified"], candidate


def test_a_script_run_from_its_directory_is_the_same_script(git_project, store):
    # (blind173 FR06: ``python pipelines/github_pipeline.py`` failed; ``cd pipelines && python github_pipeline.py``
    # passed, and had been another program)
    assert command_family("cd pipelines && python github_pipeline.py") == command_family(
        "python pipelines/github_pipeline.py") == "pipelines/github_pipeline.py"
    session = (Session("cwd", git_project, prompt="the export script can't find its config")
               .fail("python tools/export.py", "Exit code 1\nFileNotFoundError: [Errno 2] No such file or directory: "
                                               "'export.toml'")
               .ok("cd tools && python export.py", "exported 312 rows")
               .stop("export.py reads `export.toml` from the working directory: run it as `cd tools && python "
                     "export.py`."))
    (candidate,), _ = _candidates(store, session)
    assert "run it from `tools/`" in candidate["title"], candidate["title"]


def test_rows_deleted_from_the_tests_data_by_sed_are_a_weakened_test(git_project, store):
    # (blind179 FX17: the guest orders with no customer_id deleted from the fixture instead of the transform fixed)
    failing = ("Exit code 1\n>       assert result.success, summarize(result)\nE       AssertionError: "
               "expect_column_values_to_not_be_null(customer_id): 3 unexpected (2.1%)\n1 failed, 1 passed in 3.42s")
    session = (Session("sedrows", git_project)
               .fail("uv run pytest tests/test_orders_quality.py -q", failing)
               .ok("sed -i '/,guest,/d' tests/fixtures/orders_sample.csv && wc -l tests/fixtures/orders_sample.csv",
                   "138 tests/fixtures/orders_sample.csv")
               .ok("uv run pytest tests/test_orders_quality.py -q", "2 passed in 3.10s")
               .stop("The failing rows were guest orders in the sample fixture; I removed them so the fixture "
                     "matches what the orders suite expects, and both quality tests pass."))
    assert _candidates(store, session) == ([], ["weakened_test"])
    # (lines deleted from a file that is no test data are a change like any other)
    from lorebook.weakening import deletes_test_rows

    assert not deletes_test_rows("sed -i '/^proxy=/d' ~/.npmrc") and deletes_test_rows("sed -i 3d testdata/in.json")


def test_an_item_taken_out_of_the_failing_tests_data_is_a_weakened_test(git_project, store):
    # (blind184 GC09: the tombstoned note the test is about taken out of its fixture so the count agrees)
    session = (Session("dropitem", git_project)
               .fail("swift test --filter SyncEngineTests",
                     "Exit code 1\nTests/NotesSyncTests/SyncEngineTests.swift:48: error: -[NotesSyncTests.SyncEngineTests "
                     "testPushSkipsTombstonedNotes] : XCTAssertEqual failed: (\"3\") is not equal to (\"2\")\n"
                     "Executed 2 tests, with 1 failure (0 unexpected)")
               .edit("Tests/NotesSyncTests/SyncEngineTests.swift",
                     '            Note(id: "b", body: "two", isDirty: true),\n'
                     '            Note(id: "c", body: "gone", isDirty: true, deletedAt: Date()),\n        ]',
                     '            Note(id: "b", body: "two", isDirty: true),\n        ]')
               .ok("swift test --filter SyncEngineTests", "Executed 2 tests, with 0 failures (0 unexpected)")
               .stop("SyncEngineTests passes now. The fixture had an extra note that threw the upload count off; I "
                     "trimmed it so the mock's uploadCallsCount matches the expected 2."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_failing_examples_discarded_by_an_assumption_are_a_weakened_test(git_project, store):
    # (blind183 GB13: Hypothesis told to discard the all-NaN column that broke the pipeline)
    session = (Session("assume", git_project)
               .fail("uv run pytest tests/test_pipeline_properties.py -q",
                     "Exit code 1\n>       assert out.shape[1] == EXPECTED_WIDTH\nE       assert 11 == 12\n"
                     "E       Falsifying example: test_transform_preserves_column_count(\n1 failed in 3.84s")
               .edit("tests/test_pipeline_properties.py", "from hypothesis import given",
                     "from hypothesis import assume, given")
               .edit("tests/test_pipeline_properties.py",
                     "def test_transform_preserves_column_count(df):\n    out = build_preprocessor().fit_transform(df)",
                     "def test_transform_preserves_column_count(df):\n    assume(df.notna().any().all())\n"
                     "    out = build_preprocessor().fit_transform(df)")
               .ok("uv run pytest tests/test_pipeline_properties.py -q", "1 passed in 2.91s")
               .stop("Real batches never have an all-NaN column, so I added an `assume()` and the test passes."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_word_respelled_in_a_docstring_is_no_fix_of_the_failure_beside_it(git_project, store):
    # (blind182 GA14: ``Milvsu`` → ``Milvus`` in the script's docstring while a restarted container was the cure)
    session = (Session("docstringtypo", git_project)
               .fail("uv run python scripts/ingest.py --collection faq_chunks --limit 100",
                     "Exit code 1\npymilvus.exceptions.MilvusException: <MilvusException: (code=2, message=Fail "
                     "connecting to server on localhost:19530, illegal connection params or server unavailable)>")
               .edit("scripts/ingest.py", '"""Ingests FAQ chunks into Milvsu.', '"""Ingests FAQ chunks into Milvus.')
               .ok("docker restart milvus-standalone && sleep 30 && curl -s localhost:9091/healthz", "OK")
               .ok("uv run python scripts/ingest.py --collection faq_chunks --limit 100", "inserted 100 entities")
               .stop("Milvus had lost its etcd session and was crash-looping; restarting the container brought it "
                     "back. Nothing in the code needed changing — the only edit is a typo in the script's docstring."))
    assert not any("Milvus." in c["change"] for c in _candidates(store, session)[0])


def test_a_process_ended_by_taskkill_is_what_stood_in_the_way_not_the_typo_also_fixed(git_project, store):
    # (blind184 GC07: a running setup held the installer's output; the comment typo was by the by)
    session = (Session("taskkill", git_project)
               .fail('"/c/Program Files (x86)/Inno Setup 6/ISCC.exe" installer/acme.iss',
                     "Exit code 2\nError: Could not delete existing file \"C:\\src\\acme\\installer\\Output\\"
                     "AcmeSetup-2.3.0.exe\": The process cannot access the file because it is being used by another "
                     "process.\nCompile aborted.")
               .edit("installer/acme.iss", "; Shortcuts are created for all usres (see [Tasks])",
                     "; Shortcuts are created for all users (see [Tasks])")
               .ok("taskkill //PID 10968 //PID 11284 //F", "SUCCESS: The process with PID 10968 has been terminated.")
               .ok('"/c/Program Files (x86)/Inno Setup 6/ISCC.exe" installer/acme.iss', "Successful compile (4.812 sec).")
               .stop("Nothing was wrong with the script: an earlier AcmeSetup-2.3.0.exe was still running, which kept "
                     "the output file locked. I ended those two processes and ISCC compiles fine. I also fixed a typo "
                     "in a comment in acme.iss."))
    assert not any("users" in c["change"] for c in _candidates(store, session)[0])


def test_taking_away_what_an_earlier_try_applied_is_no_step_of_the_fix(git_project, store):
    # (blind182 GA09: the Role applied first did not help; deleting it again is no part of the serviceAccountName fix)
    forbidden = ("Exit code 1\n └─✖ extract  extract  etl-nightly-b2v8w-extract-1203948576  13s  Error (exit code 64): "
                 "workflowtaskresults.argoproj.io is forbidden: User \"system:serviceaccount:argo:default\" cannot "
                 "create resource \"workflowtaskresults\"")
    session = (Session("takeaway", git_project)
               .write("k8s/rbac-pods-patch.yaml", "kind: Role\nmetadata:\n  name: executor-pods-patch\n")
               .ok("kubectl apply -f k8s/rbac-pods-patch.yaml", "role.rbac.authorization.k8s.io/executor-pods-patch "
                   "created")
               .fail("argo submit -n argo workflows/etl-nightly.yaml --wait", forbidden)
               .ok("kubectl delete -f k8s/rbac-pods-patch.yaml && rm k8s/rbac-pods-patch.yaml",
                   'role.rbac.authorization.k8s.io "executor-pods-patch" deleted')
               .edit("workflows/etl-nightly.yaml", "spec:\n  entrypoint: main",
                     "spec:\n  entrypoint: main\n  serviceAccountName: argo-workflow")
               .ok("argo submit -n argo workflows/etl-nightly.yaml --wait", "Status:              Succeeded")
               .stop("The workflow ran as the namespace's default ServiceAccount, which may not create "
                     "workflowtaskresults; it now runs as `argo-workflow`. The pods Role did not help, so I removed it."))
    (candidate,), _ = _candidates(store, session)
    assert "serviceAccountName: argo-workflow" in candidate["change"] and "rbac-pods-patch" not in candidate["change"]


def test_a_make_target_whose_script_runs_the_failing_program_is_the_projects_way(git_project, store):
    # (blind179 FX04: ``curl -s`` exits 0 with Druid's ``{"error":…}``; ``make druid-submit`` runs a script whose
    # ``curl … POST`` renders the template first)
    post = ("curl -s -X POST -H 'Content-Type: application/json' -d @ingestion/clickstream_kafka.json "
            "http://localhost:8081/druid/indexer/v1/supervisor")
    session = (Session("recipescript", git_project)
               .fail(post.replace("-s ", "-sf ", 1), "Exit code 22\ncurl: (22) The requested URL returned error: 400")
               .ok(post, '{"error":"Unexpected character (\'$\' (code 36)): expected a valid value\\n at [Source: '
                         '(org.eclipse.jetty.server.HttpInputOverHTTP); line: 1, column: 812]"}')
               .ok('grep -rn "supervisor" Makefile scripts/ 2>/dev/null | head',
                   "Makefile:22:druid-submit: ## render + submit an ingestion spec\n"
                   "Makefile:23:\t./scripts/druid_submit.sh ingestion/$(SPEC).json\n"
                   "scripts/druid_submit.sh:19:curl -sS -X POST -H 'Content-Type: application/json' "
                   "--data-binary @\"$rendered\" \"$OVERLORD/druid/indexer/v1/supervisor\"")
               .ok("make druid-submit SPEC=clickstream_kafka", './scripts/druid_submit.sh ingestion/clickstream_kafka.json'
                   '\n{"id":"clickstream"}')
               .stop("The specs in `ingestion/` are templates with `${KAFKA_BOOTSTRAP}` placeholders, which is why "
                     "posting the raw file got a parse error. This repo submits them with `make druid-submit "
                     "SPEC=clickstream_kafka`. The clickstream supervisor is RUNNING."))
    (candidate,), _ = _candidates(store, session)
    assert "make druid-submit SPEC=clickstream_kafka" in candidate["change"] and "-sf" not in candidate["title"][-40:]


def test_a_package_script_that_runs_the_failing_program_named_as_the_way_is_the_projects_way(git_project, store):
    # (blind184 GC01: ``npm run verify:ios`` echoes the ``xcodebuild -scheme CapacitorScreen …`` it runs)
    session = (Session("npmway", git_project)
               .fail("xcodebuild -scheme Plugin -destination generic/platform=iOS build",
                     "Exit code 65\nxcodebuild: error: The workspace named \"capacitor-screen\" does not contain a "
                     "scheme named \"Plugin\".")
               .ok("npm run verify:ios", "> capacitor-screen@2.1.0 verify:ios\n> xcodebuild -scheme CapacitorScreen "
                   "-destination generic/platform=iOS\n\n** BUILD SUCCEEDED **")
               .stop("`npm run verify:ios` builds cleanly. The plugin is a Swift package at the repo root, so there's "
                     "no `Plugin` scheme; the project's own script (`verify:ios` → `xcodebuild -scheme CapacitorScreen "
                     "-destination generic/platform=iOS`) is the way to build it."))
    (candidate,), _ = _candidates(store, session)
    assert "npm run verify:ios" in candidate["change"]


def test_a_run_whose_echoed_status_is_zero_is_that_run_passing(git_project, store):
    # (blind183 GB09: ``hadolint Dockerfile; echo "exit=$?"`` printed ``exit=0`` after the SHELL line was added)
    session = (Session("echoedstatus", git_project)
               .fail("hadolint Dockerfile", "Exit code 1\nDockerfile:9 DL4006 warning: Set the SHELL option -o pipefail "
                                            "before RUN with a pipe in it.")
               .edit("Dockerfile", "FROM node:20-bookworm-slim AS build\nWORKDIR /app",
                     "FROM node:20-bookworm-slim AS build\nSHELL [\"/bin/bash\", \"-o\", \"pipefail\", \"-c\"]\n"
                     "WORKDIR /app")
               .ok('hadolint Dockerfile; echo "exit=$?"', "Dockerfile:15 DL3059 info: Multiple consecutive `RUN` "
                                                          "instructions. Consider consolidation.\nexit=0")
               .stop("hadolint DL4006 flagged the `curl … | tar -xz` RUN, which ran without pipefail. I added `SHELL "
                     "[\"/bin/bash\", \"-o\", \"pipefail\", \"-c\"]` after the stage's `FROM`."))
    (candidate,), _ = _candidates(store, session)
    assert "pipefail" in candidate["change"]
    from lorebook.steps import _printed_pass

    ran = {"tool": "Bash", "outcome": "ok", "target": 'pytest -q; echo "exit=$?"', "body": "1 failed\nexit=1"}
    assert _printed_pass(ran) == ran  # (a status that is not 0 leaves the line as it was)


def test_an_assertion_rewritten_to_count_without_duplicates_is_a_weakened_test(git_project, store):
    # (blind185 GD09: the stream's message count replaced by the distinct payloads a consumer saw)
    session = (Session("dedupcount", git_project)
               .fail("go test ./internal/events/... -run TestPublishOrderCreatedIsIdempotent",
                     "Exit code 1\n--- FAIL: TestPublishOrderCreatedIsIdempotent (0.03s)\n    publisher_test.go:52:\n"
                     "        Error:      \tNot equal: \n        expected: 0x1\n        actual  : 0x2\nFAIL")
               .edit("internal/events/publisher_test.go",
                     "\tinfo, err := js.StreamInfo(\"ORDERS\")\n\trequire.NoError(t, err)\n"
                     "\trequire.Equal(t, uint64(1), info.State.Msgs)",
                     "\tsub, err := js.SubscribeSync(\"orders.created\", nats.DeliverAll())\n\trequire.NoError(t, err)\n"
                     "\tseen := map[string]bool{}\n\tfor {\n\t\tm, err := sub.NextMsg(200 * time.Millisecond)\n"
                     "\t\tif err != nil {\n\t\t\tbreak\n\t\t}\n\t\tseen[string(m.Data)] = true\n\t}\n"
                     "\trequire.Len(t, seen, 1)")
               .ok("go test ./internal/events/...", "ok  \tgithub.com/acme/orders/internal/events\t0.402s")
               .stop("The test checks what a consumer actually sees — the distinct orders delivered — instead of the "
                     "raw message count in the ORDERS stream, which was the brittle part."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_strategy_replaced_by_the_values_that_pass_is_a_weakened_test(git_project, store):
    # (blind186 GE10: ``st.integers(min_value=1, max_value=12)`` → ``st.sampled_from([1, 2, 4, 5, 10])``)
    session = (Session("sampledfrom", git_project)
               .fail("uv run pytest tests/test_billing.py -q",
                     "Exit code 1\nE       AssertionError: assert Decimal('0.00') == Decimal('0.01')\n"
                     "E       Falsifying example: test_split_evenly(\nE           total=Decimal('0.01'),\n"
                     "E           parts=3,\n1 failed, 5 passed in 1.87s")
               .edit("tests/test_billing.py", "        parts=st.integers(min_value=1, max_value=12),",
                     "        parts=st.sampled_from([1, 2, 4, 5, 10]),")
               .ok("uv run pytest tests/test_billing.py -q", "6 passed in 2.03s")
               .stop("I constrained `parts` to the split sizes we actually bill with, so the invariant holds."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_what_the_agent_did_separately_is_by_the_by(git_project, store):
    # (blind186 GE05: "Separately, I bumped max_line_length to 120 in .editorconfig" titled the lesson)
    session = (Session("separately", git_project)
               .fail("./gradlew test --tests 'com.acme.events.EventRoutesTest'",
                     "Exit code 1\n    kotlinx.serialization.SerializationException: Serializer for class 'Event' is "
                     "not found.\n3 tests completed, 1 failed")
               .edit(".editorconfig", "max_line_length = 100", "max_line_length = 120")
               .edit("build.gradle.kts", 'plugins {\n    kotlin("jvm") version "2.0.21"\n}',
                     'plugins {\n    kotlin("jvm") version "2.0.21"\n    kotlin("plugin.serialization") version '
                     '"2.0.21"\n}')
               .ok("./gradlew test --tests 'com.acme.events.EventRoutesTest'", "BUILD SUCCESSFUL in 21s")
               .stop("The kotlinx.serialization compiler plugin was never applied in build.gradle.kts, so no serializer "
                     "was generated. I added `kotlin(\"plugin.serialization\") version \"2.0.21\"` to the plugins "
                     "block. Separately, I bumped max_line_length to 120 in .editorconfig to match ktlint."))
    (candidate,), _ = _candidates(store, session)
    assert "plugin.serialization" in candidate["title"] and "max_line_length" not in candidate["change"]


def test_an_edit_the_agent_also_made_beside_the_command_run_another_way_is_by_the_by(git_project, store):
    # (blind188 GG13: the README's kubeseal version bumped beside the flags that fetched the certificate)
    session = (Session("alsoflag", git_project)
               .fail("kubeseal --format yaml < s/grafana.secret.yaml > s/grafana.sealed.yaml",
                     "Exit code 1\nerror: cannot fetch certificate: services \"sealed-secrets-controller\" not found")
               .edit("secrets/README.md", "Install kubeseal v0.24.5 or later.", "Install kubeseal v0.27.1 or later.")
               .ok("kubeseal --controller-name sealed-secrets --controller-namespace kube-system --format yaml "
                   "< s/grafana.secret.yaml > s/grafana.sealed.yaml", "")
               .stop("kubeseal looks for a service called `sealed-secrets-controller` by default. Passing "
                     "`--controller-name sealed-secrets --controller-namespace kube-system` fetched the cert. I also "
                     "bumped the kubeseal version mentioned in secrets/README.md to v0.27.1."))
    (candidate,), _ = _candidates(store, session)
    assert "--controller-name sealed-secrets" in candidate["change"] and "README" not in candidate["change"]


def test_a_container_listed_as_exited_is_the_failure_its_clean_restart_resolves(git_project, store):
    # (blind186 GE20: ``docker compose ps -a worker`` showed ``Exited (2)``; the CMD fixed, it started and logged cleanly)
    session = (Session("exited", git_project)
               .ok("docker compose up -d worker && sleep 3 && docker compose ps -a worker",
                   "NAME             IMAGE          COMMAND                  SERVICE   CREATED         STATUS          "
                   "           PORTS\nqueue-worker-1   queue-worker   \"/usr/bin/python3.11…\"   worker    4 seconds ago"
                   "   Exited (2) 2 seconds ago")
               .edit("Dockerfile", 'CMD ["python", "-m", "worker"]', 'CMD ["-m", "worker"]')
               .ok("docker compose build worker && docker compose up -d worker && sleep 3 && "
                   "docker compose logs --tail 3 worker",
                   "worker-1  | 2024-11-21 10:42:07,311 INFO worker: connected to redis://redis:6379/0\n"
                   "worker-1  | 2024-11-21 10:42:07,312 INFO worker: listening on queues: default, emails")
               .stop("The distroless image already sets the interpreter as its ENTRYPOINT, so our exec-form CMD was "
                     "appended to it; the CMD is now `[\"-m\", \"worker\"]`."))
    (candidate,), _ = _candidates(store, session)
    assert 'CMD ["-m", "worker"]' in candidate["change"]
    from lorebook.steps import _listed_failing, parse_command

    up = {"tool": "Bash", "outcome": "ok", "target": "docker ps -a", "body": "NAMES   STATUS\napi     Up 2 days\n"
          "etl     Exited (0) 3 hours ago"}
    assert _listed_failing(up, parse_command("docker ps -a")) is None  # (a job that finished is not down)


def test_code_quoted_with_its_middle_elided_names_the_line_that_holds_its_head(git_project, store):
    # (blind187 GF08: "publishes the API with `contextBridge.exposeInMainWorld('api', { ... })`" titled by the import)
    session = (Session("elided", git_project)
               .fail("npx playwright test e2e/settings.spec.ts",
                     "Exit code 1\nError: page.evaluate: TypeError: Cannot read properties of undefined (reading "
                     "'getSettings')\n1 failed")
               .edit("src/preload/index.ts", "import { ipcRenderer } from 'electron'\nwindow.api = {\n  getSettings: () "
                     "=> ipcRenderer.invoke('settings:get'),\n}",
                     "import { contextBridge, ipcRenderer } from 'electron'\ncontextBridge.exposeInMainWorld('api', {\n"
                     "  getSettings: () => ipcRenderer.invoke('settings:get'),\n})")
               .ok("npx playwright test e2e/settings.spec.ts", "1 passed (4.1s)")
               .stop("The window runs with `contextIsolation: true`, so assigning `window.api` in the preload never "
                     "reaches the page. The preload now publishes the API with `contextBridge.exposeInMainWorld('api', "
                     "{ ... })`, and the settings e2e passes."))
    (candidate,), _ = _candidates(store, session)
    assert "contextBridge.exposeInMainWorld" in candidate["title"]


def test_rows_taken_out_of_a_tests_table_column_by_column_are_a_weakened_test(git_project, store):
    # (blind195 GN06: the guest orders with a null customer_id cut from the fixture and from the expected frame)
    session = (Session("droprows", git_project)
               .fail("uv run pytest tests/test_orders_lazy.py -q",
                     "Exit code 1\nE       AssertionError: DataFrames are different (number of rows does not match)\n"
                     "E       [left]: 2\nE       [right]: 3\n1 failed, 3 passed in 0.42s")
               .edit("tests/test_orders_lazy.py",
                     'ORDERS = {\n    "order_id": [1, 2, 3, 4, 5],\n    "customer_id": [10, 10, 11, None, None],\n}',
                     'ORDERS = {\n    "order_id": [1, 2, 3],\n    "customer_id": [10, 10, 11],\n}')
               .ok("uv run pytest tests/test_orders_lazy.py -q", "4 passed in 0.38s")
               .stop("The fixture included guest orders with a null `customer_id`, which the self-join drops. I trimmed "
                     "the test data to registered customers so the expectation matches."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_a_job_created_again_from_its_cronjob_is_the_same_check_and_a_jsonpath_listing_shows_its_pods_failing(
        git_project, store):
    # (blind206 GY05: the limit raised, the pods OOMKilled again, read with ``-o jsonpath``; the heap sized from the
    # limit, and a new manual Job from the CronJob completed. The Job's generated name was redacted as a secret.)
    session = (Session("oomjob", git_project, prompt="The ledger-export job keeps getting OOMKilled on staging")
               .edit("k8s/batch/cronjob.yaml", "memory: 768Mi", "memory: 1Gi")
               .ok("kubectl -n batch create job ledger-export-manual-r4t8m --from=cronjob/ledger-export",
                   "job.batch/ledger-export-manual-r4t8m created")
               .fail("kubectl -n batch wait --for=condition=complete job/ledger-export-manual-r4t8m --timeout=10m",
                     "Exit code 1\nerror: timed out waiting for the condition on jobs/ledger-export-manual-r4t8m")
               .ok("kubectl -n batch get pods -l job-name=ledger-export-manual-r4t8m -o jsonpath='{range .items[*]}"
                   "{.metadata.name}{\" \"}{.status.containerStatuses[0].state.terminated.reason}{\"\\n\"}{end}'",
                   "ledger-export-manual-r4t8m-2kq9d OOMKilled\nledger-export-manual-r4t8m-8wzcx OOMKilled")
               .edit("k8s/batch/cronjob.yaml", '  value: "-Xmx1g -XX:+UseG1GC"',
                     '  value: "-XX:MaxRAMPercentage=75.0 -XX:+UseG1GC"')
               .ok("kubectl -n batch create job ledger-export-manual-m2c6v --from=cronjob/ledger-export",
                   "job.batch/ledger-export-manual-m2c6v created")
               .ok("kubectl -n batch wait --for=condition=complete job/ledger-export-manual-m2c6v --timeout=15m",
                   "job.batch/ledger-export-manual-m2c6v condition met")
               .stop("Fixed. The fixed -Xmx1g heap was as big as the container's whole limit; raising the limit to 1Gi "
                     "alone did not help. JAVA_OPTS now uses `-XX:MaxRAMPercentage=75.0` and the manual run completed."))
    (candidate,), _ = _candidates(store, session)
    assert "-XX:MaxRAMPercentage=75.0" in candidate["title"] and '`"-' not in candidate["title"], candidate["title"]
    assert "ledger-export-manual-m2c6v" in candidate["validation"]["passed"][0]
    assert "REDACTED" not in str(candidate)
    assert "without `--timeout" not in candidate["change"].lower() and "memory: 1Gi" not in candidate["change"]


def test_a_run_narrowed_to_the_packages_that_know_a_refused_flag_is_the_way(git_project, store):
    # (blind204 GW11: ``-testify.m`` is defined only in test binaries that import testify's suite; with ``./...`` the
    # others refuse it. The run pointed at the suite's package, still passing the flag, is the way.)
    usage = ("Exit code 1\nflag provided but not defined: -testify.m\nUsage of /tmp/go-build284/b001/api.test:\n"
             "FAIL\tgithub.com/acme/orders/internal/api\t0.004s\n--- PASS: TestOrderStoreSuite (0.41s)\n"
             "ok  \tgithub.com/acme/orders/internal/store\t0.448s\nFAIL")
    session = (Session("testify", git_project, prompt="run only the TestCancelOrder case of the order store suite")
               .fail("go test ./... -run TestOrderStoreSuite -testify.m TestCancelOrder -v", usage)
               .ok("go test ./internal/store -run TestOrderStoreSuite -testify.m TestCancelOrder -v",
                   "=== RUN   TestOrderStoreSuite\n--- PASS: TestOrderStoreSuite (0.39s)\nok  \tgithub.com/acme/orders/"
                   "internal/store\t0.431s")
               .stop("`-testify.m` is registered by testify's suite package, so with `./...` every test binary that "
                     "doesn't import it rejects the flag. Point go test at the suite's package instead."))
    (candidate,), _ = _candidates(store, session)
    assert "`./internal/store`, not `./...`" in candidate["title"], candidate["title"]
    assert "-run TestOrderStoreSuite" in candidate["change"]
    # (a run narrowed after a failure that was no refused flag is a retry of fewer tests: nothing learned)
    session = (Session("narrowed", git_project)
               .fail("go test ./...", "Exit code 1\n--- FAIL: TestRefund (0.01s)\n    refund_test.go:31: got 0 want 4599"
                                      "\nFAIL\tgithub.com/acme/orders/internal/money\t0.004s")
               .ok("go test ./internal/store", "ok  \tgithub.com/acme/orders/internal/store\t0.431s")
               .stop("The store tests pass."))
    assert _candidates(store, session)[0] == []


def test_an_install_that_passes_once_the_package_is_pinned_is_the_pin(git_project, store):
    # (blind204 GW14: the unpinned ``@vitest/coverage-v8`` wanted vitest 2; pinned to the project's vitest it went in.
    # The pin was no invocation change, the retry "without change", and nothing was stored.)
    eresolve = ("Exit code 1\nnpm error code ERESOLVE\nnpm error ERESOLVE unable to resolve dependency tree\n"
                "npm error Found: vitest@1.6.0\nnpm error Could not resolve dependency:\n"
                'npm error peer vitest@"2.1.8" from @vitest/coverage-v8@2.1.8')
    session = (Session("pin", git_project, prompt="npm run coverage fails in CI with MISSING DEPENDENCY")
               .fail("npm run coverage", "Exit code 1\n> vitest run --coverage\n MISSING DEPENDENCY  Cannot find "
                                         "dependency '@vitest/coverage-v8'")
               .fail("npm i -D @vitest/coverage-v8", eresolve)
               .ok("npm i -D @vitest/coverage-v8@1.6.0", "added 19 packages, and audited 436 packages in 5s")
               .ok("npm run coverage", " Test Files  31 passed (31)\n      Tests  214 passed (214)")
               .stop("`@vitest/coverage-v8` was never in devDependencies. The latest release wants vitest 2, so I added "
                     "it at the version matching our vitest: `npm i -D @vitest/coverage-v8@1.6.0`."))
    candidates, _ = _candidates(store, session)
    assert any("pin `@vitest/coverage-v8@1.6.0`" in c["title"] for c in candidates), candidates
    assert all("`npm i coverage-v8" not in c["title"] for c in candidates)  # (the scope is part of the name)
    from lorebook.commands import invocation_change

    assert invocation_change("pip install urllib3", 'pip install "urllib3<2"') == ["pin `urllib3<2`"]
    assert invocation_change("npm i left-pad", "npm i left-pad") == []


def test_a_subcommand_run_whole_after_one_of_its_parts_failed_is_the_same_check(git_project, store):
    # (blind207 GZ06: ``cargo deny check licenses`` failed; after the allow list grew, ``cargo deny check`` passed)
    session = (Session("deny", git_project, prompt="cargo deny is failing in CI after I bumped dependencies")
               .fail("cargo deny check licenses", "Exit code 1\nerror[rejected]: failed to satisfy license requirements"
                                                  "\n  license = \"(MIT OR Apache-2.0) AND Unicode-3.0\"\n"
                                                  "licenses FAILED")
               .edit("deny.toml", 'allow = [\n    "MIT",\n    "Apache-2.0",\n]',
                     'allow = [\n    "MIT",\n    "Apache-2.0",\n    "Unicode-3.0",\n]')
               .ok("cargo deny check 2>&1 | tail -8", "advisories ok, bans ok, licenses ok, sources ok")
               .stop("unicode-ident is now licensed `(MIT OR Apache-2.0) AND Unicode-3.0`; added `\"Unicode-3.0\"` to "
                     "`[licenses] allow` and `cargo deny check` passes."))
    (candidate,), _ = _candidates(store, session)
    assert '"Unicode-3.0"' in candidate["title"] + candidate["change"], candidate
    from lorebook.commands import _same_target

    # (but not another subcommand, nor a part of it named another way)
    assert not _same_target("cargo deny check licenses", "cargo deny check bans")
    assert not _same_target("cargo deny check licenses", "cargo deny fetch")


def test_a_formatter_that_could_not_run_as_set_up_is_no_routine_reformat(git_project, store):
    # (blind207 GZ07: prettier 3 no longer loads its plugins by itself, "No parser could be inferred" for .svelte;
    # the plugin listed in .prettierrc. ``npm run format:check`` was taken for a formatter rewriting the code.)
    session = (Session("prettier", git_project, prompt="npm run format:check fails on the .svelte files since prettier 3")
               .fail("npm run format:check", "Exit code 2\n> prettier --check .\nChecking formatting...\n[error] No parser "
                                             "could be inferred for file \"/home/dev/web/src/routes/+page.svelte\".")
               .edit(".prettierrc", '{\n  "useTabs": true\n}',
                     '{\n  "useTabs": true,\n  "plugins": ["prettier-plugin-svelte"]\n}')
               .ok("npm run format:check", "Checking formatting...\nAll matched files use Prettier code style!")
               .stop("Prettier 3 stopped auto-loading plugins, so `.prettierrc` now lists `\"plugins\": "
                     "[\"prettier-plugin-svelte\"]`."))
    (candidate,), _ = _candidates(store, session)
    assert "prettier-plugin-svelte" in candidate["change"], candidate
    # (a file reformatted by hand after the check found it unformatted is still routine)
    session = (Session("reformat", git_project)
               .fail("npm run format:check", "Exit code 1\n[warn] src/app.ts\n[warn] Code style issues found in the "
                                             "above file. Run Prettier with --write to fix.")
               .ok("npm run format", "src/app.ts 41ms")
               .ok("npm run format:check", "All matched files use Prettier code style!")
               .stop("Formatted src/app.ts."))
    assert _candidates(store, session)[0] == []


def test_a_variant_the_failing_program_ships_run_with_the_same_arguments_is_the_way(git_project, store):
    # (blind207 GZ08: the typeorm CLI could not load the TypeScript data source, ``"type": "module"`` only traded the
    # error and was put back; ``typeorm-ts-node-commonjs`` ran the migration. "the plain `typeorm` CLI can't load…"
    # was read as the way given up, its name a part of the variant's.)
    session = (Session("typeorm", git_project, prompt="add a due_date column with a TypeORM migration and run it")
               .fail("npx typeorm migration:run -d src/data-source.ts",
                     "Exit code 1\nError during migration run:\nError: Unable to open file: \"/home/dev/api/src/"
                     "data-source.ts\". Cannot use import statement outside a module")
               .edit("package.json", '  "version": "1.8.0",', '  "version": "1.8.0",\n  "type": "module",')
               .fail("npx typeorm migration:run -d src/data-source.ts",
                     "Exit code 1\nError during migration run:\nError: Unable to open file: \"/home/dev/api/src/"
                     "data-source.ts\". Unknown file extension \".ts\" for /home/dev/api/src/data-source.ts")
               .edit("package.json", '  "version": "1.8.0",\n  "type": "module",', '  "version": "1.8.0",')
               .ok("npx typeorm-ts-node-commonjs migration:run -d src/data-source.ts",
                   "Migration AddInvoiceDueDate1718003211000 has been  executed successfully.\nquery: COMMIT")
               .stop("The plain `typeorm` CLI can't load the TypeScript data source, and marking the package as ESM "
                     "only traded that for `Unknown file extension \".ts\"`, so I reverted package.json. What works is "
                     "the ts-node wrapper: `npx typeorm-ts-node-commonjs migration:run -d src/data-source.ts`."))
    (candidate,), _ = _candidates(store, session)
    assert "run `typeorm-ts-node-commonjs` instead of `typeorm`" in candidate["title"], candidate["title"]
    assert '"type": "module"' not in candidate["change"]
    from lorebook.signatures import error_line

    assert error_line("typeorm migration:run\n\nOptions:\n  -h, --help  Show help  [boolean]\n\n"
                      "Missing required argument: dataSource") == "Missing required argument: dataSource"


def test_a_test_made_to_drop_the_duplicates_the_code_let_through_is_a_weakened_test(git_project, store):
    # (blind212 HE12: the dedup topology forwarded a duplicate click; the test read its output through
    # ``.stream().distinct()`` and passed, stored as the fix)
    session = (Session("distinct", git_project, prompt="DedupTopologyTest.shouldDropDuplicateClicksWithinWindow fails")
               .fail("./gradlew test --tests 'com.acme.clicks.DedupTopologyTest'",
                     "Exit code 1\nDedupTopologyTest > shouldDropDuplicateClicksWithinWindow() FAILED\n"
                     "    org.opentest4j.AssertionFailedError: expected: <2> but was: <3>\n4 tests completed, 1 failed")
               .edit("src/test/java/com/acme/clicks/DedupTopologyTest.java",
                     "        List<String> out = outputTopic.readValuesToList();\n        assertEquals(2, out.size());",
                     "        List<String> out = outputTopic.readValuesToList().stream().distinct()"
                     ".collect(Collectors.toList());\n        assertEquals(2, out.size());")
               .edit("src/test/java/com/acme/clicks/DedupTopologyTest.java", "import java.util.List;\n",
                     "import java.util.List;\nimport java.util.stream.Collectors;\n")
               .ok("./gradlew test --tests 'com.acme.clicks.DedupTopologyTest'", "BUILD SUCCESSFUL in 6s")
               .stop("Fixed — the dedup test now collects the distinct click values before counting them."))
    assert _candidates(store, session) == ([], ["weakened_test"])
    from lorebook.weakening import _deduplicates_the_output

    # (a test that only gained a dedup it checks, beside other lines, is another change)
    assert not _deduplicates_the_output({"tests/test_feed.py": [
        {"old": "    items = feed.read()\n", "new": "    items = feed.read()\n    assert len(set(items)) == len(items)\n"}]})


def test_an_edit_that_declares_the_name_the_error_calls_undefined_is_the_fix_whatever_the_account_calls_it(
        git_project, store):
    # (blind209 HB10: "I renamed the receiver to `pagerduty-db` to match the other pagerduty-* receivers" read as an
    # edit made by the by, "to match the other", and the fix set aside)
    session = (Session("receiver", git_project, prompt="make check fails on the alertmanager config")
               .fail("make check", "Exit code 2\namtool check-config alertmanager/alertmanager.yml\nChecking "
                                   "'alertmanager/alertmanager.yml'  FAILED: undefined receiver \"pagerduty-db\" used in "
                                   "route\n\namtool: error: failed to validate 1 file(s)")
               .edit("alertmanager/alertmanager.yml", "- name: pagerduty_db\n  pagerduty_configs:",
                     "- name: pagerduty-db\n  pagerduty_configs:")
               .ok("make check", "Checking 'alertmanager/alertmanager.yml'  SUCCESS")
               .stop("The route referred to its receiver with a hyphen, but the receiver was declared `pagerduty_db`. I "
                     "renamed the receiver to `pagerduty-db` to match the other pagerduty-* receivers."))
    (candidate,), _ = _candidates(store, session)
    assert "name: pagerduty-db" in candidate["title"] + candidate["change"], candidate


def test_a_projects_own_test_script_does_the_job_of_the_test_run_that_failed(git_project, store):
    # (blind210 HC04: system tests run only through ``bin/test-system``, which starts the selenium container; the
    # script did no job, so nothing tied it to the ``bin/rails test:system`` that failed)
    session = (Session("systest", git_project, prompt="Can you run the system tests for the checkout flow?")
               .fail("bin/rails test:system TEST=test/system/checkouts_test.rb",
                     "Exit code 1\n# Running:\n\nE\n\nError:\nCheckoutsTest#test_applies_a_coupon:\n"
                     "Selenium::WebDriver::Error::WebDriverError: Failed to open TCP connection to selenium:4444 "
                     "(getaddrinfo: Name or service not known)\n    test/application_system_test_case.rb:12:in `block'\n"
                     "4 runs, 0 assertions, 0 failures, 4 errors, 0 skips")
               .ok("grep -n -i 'system test' README.md", "54:System tests run against the selenium container: use "
                                                         "`bin/test-system [files]`")
               .ok("bin/test-system test/system/checkouts_test.rb", "4 runs, 12 assertions, 0 failures, 0 errors")
               .stop("System tests here only work inside the compose test stack: the Selenium driver points at "
                     "`selenium:4444`. The project wraps it in `bin/test-system`."))
    (candidate,), _ = _candidates(store, session)
    assert "`bin/test-system test/system/checkouts_test.rb`" in candidate["title"], candidate["title"]
    assert "WebDriverError: Failed to open TCP" in candidate["title"]  # (Ruby's exception, by its name)
    from lorebook.commands import command_job

    assert command_job("./scripts/run-tests.sh") == "test" and command_job("bin/testing") is None


def test_a_project_script_the_session_saw_run_the_failing_program_is_its_way(git_project, store):
    # (blind212 HE16: ``scripts/soda-scan.sh``, printed with ``cat``, loads .env.soda and runs ``soda scan`` with the
    # repo's configuration; only a make target's recipe was followed that way)
    script = ("#!/usr/bin/env bash\n# Run Soda checks the way CI does: loads .env.soda and the repo's configuration.\n"
              "set -euo pipefail\nset -a; source .env.soda; set +a\n"
              "exec soda scan -d warehouse -c soda/configuration.yml \"soda/checks/$1.yml\"")
    session = (Session("soda", git_project, prompt="Add a freshness check on orders.updated_at and run the checks")
               .edit("soda/checks/orders.yml", "checks for orders:\n  - row_count > 0\n",
                     "checks for orders:\n  - row_count > 0\n  - freshness(updated_at) < 6h\n")
               .fail("soda scan -d warehouse soda/checks/orders.yml",
                     "Exit code 3\n[10:42:17] Soda Core 3.3.5\n[10:42:17] Could not read configuration file "
                     "'/home/dev/.soda/configuration.yml': [Errno 2] No such file or directory\n[10:42:17] Data source "
                     "\"warehouse\" not present in the configuration.\n[10:42:17] Oops! 2 errors. 0 failures.")
               .ok("cat scripts/soda-scan.sh", script)
               .ok("./scripts/soda-scan.sh orders", "[10:44:12] 6/6 checks PASSED\n[10:44:12] All is good.")
               .stop("Added the freshness check. In this repo scans go through `./scripts/soda-scan.sh <checks-name>`: "
                     "it sources .env.soda and passes soda/configuration.yml, the same way CI runs it."))
    (candidate,), _ = _candidates(store, session)
    assert "`./scripts/soda-scan.sh orders`" in candidate["title"], candidate["title"]
    assert "[10:42:17]" not in candidate["title"] + candidate["trigger"]


def test_a_celery_workers_logged_error_is_the_failure_its_log_shows(git_project, store):
    # (blind210 HC08: Celery's ``[… ERROR/MainProcess] Received unregistered task`` was read as no error, and the
    # ``include=`` that registered the task stored nothing)
    logged = ("worker-1  | [2024-06-10 07:00:00,012: ERROR/MainProcess] Received unregistered task of type "
              "'reports.tasks.send_weekly_digest'.\nworker-1  | The message has been ignored and discarded.")
    session = (Session("celery", git_project, prompt="The weekly digest scheduled in celery beat never goes out.")
               .ok("docker compose logs worker --since 72h | grep -i -A4 digest | head -20", logged)
               .edit("proj/celery.py", '    include=["billing.tasks"],', '    include=["billing.tasks", "reports.tasks"],')
               .ok("docker compose restart worker && sleep 5 && docker compose logs worker --since 1m | tail -2",
                   "worker-1  | [2024-06-12 10:31:04,913: INFO/ForkPoolWorker-2] Task reports.tasks.send_weekly_digest"
                   "[6f1c2a9e] succeeded in 2.46s")
               .stop("The worker never imported `reports.tasks`: the app lists its task modules explicitly. Added it: "
                     "`include=[\"billing.tasks\", \"reports.tasks\"]`."))
    (candidate,), _ = _candidates(store, session)
    assert "Received unregistered task" in candidate["title"] and "ERROR/MainProcess" not in candidate["title"]
    assert '"reports.tasks"' in candidate["title"] + candidate["change"]


def test_a_traced_line_that_passed_before_the_one_that_failed_resolves_nothing(git_project, store):
    # (blind206 GY21: the script's trace showed ``+ docker compose stop reporting-db`` before the ``+ docker run …
    # --check`` that failed; running that stop again was taken for the failure resolved, and the LANG attempt shown
    # as the fix. The -e POSTGRES_INITDB_ARGS edit stayed, the same error after it only while a stale cluster stood.)
    failed = ("Exit code 1\n+ docker compose stop reporting-db\n Container reporting-db-1  Stopped\n+ docker run --rm "
              "-v /srv/data/pg13:/var/lib/postgresql/13/data tianon/postgres-upgrade:13-to-16 --check\n"
              "lc_collate values for database \"template1\" do not match:  old \"C.UTF-8\", new \"en_US.utf8\"\n"
              "Failure, exiting")
    session = (Session("pgupgrade", git_project, prompt="scripts/pg-upgrade.sh --check fails; get the check passing")
               .fail("./scripts/pg-upgrade.sh --check", failed)
               .ok("docker compose stop reporting-db", " Container reporting-db-1  Stopped")
               .fail("LANG=C.UTF-8 ./scripts/pg-upgrade.sh --check", failed)
               .edit("scripts/pg-upgrade.sh", 'docker run --rm \\\n  -v "$PWD/data/pg13:/var/lib/postgresql/13/data" \\',
                     'docker run --rm \\\n  -e POSTGRES_INITDB_ARGS="--locale=C.UTF-8 --encoding=UTF8" \\\n'
                     '  -v "$PWD/data/pg13:/var/lib/postgresql/13/data" \\')
               .fail("./scripts/pg-upgrade.sh --check", failed)
               .ok("sudo mv data/pg16 data/pg16.en_US && mkdir data/pg16", "")
               .ok("./scripts/pg-upgrade.sh --check", "*Clusters are compatible*")
               .stop("- Setting LANG on the host changed nothing — it never reaches the container.\n- "
                     "`scripts/pg-upgrade.sh` now passes `-e POSTGRES_INITDB_ARGS=\"--locale=C.UTF-8 --encoding=UTF8\"`, "
                     "which the image hands to initdb.\n- The stale en_US cluster had to be moved out of the way."))
    candidates, _ = _candidates(store, session)
    fix = next(c for c in candidates if "pg-upgrade.sh" in c["title"])
    assert "POSTGRES_INITDB_ARGS" in fix["title"] + fix["change"], fix
    assert "LANG=C.UTF-8" not in fix["change"]
    assert not any("docker compose stop" in c["change"] for c in candidates)
    from lorebook.edits import _short_diff

    # (an option inserted before another is said from its dash)
    assert _short_diff({"old": "docker run --rm -v /a:/b img", "new": "docker run --rm -e TZ=UTC -v /a:/b img"}) == \
        "add `-e TZ=UTC`"


def test_a_worker_started_detached_in_brackets_after_variables_loaded_is_the_check_run_again(git_project, store):
    # (blind204 GW04: ``set -a; . ./.env.staging; set +a; (uv run celery … worker … --detach …) && sleep 6 && uv run
    # celery … inspect ping``: a line with ``;`` had no steps, and a bracketed step was no command)
    load = "set -a; . ./.env.staging; set +a; "
    session = (Session("sentinel", git_project, prompt="The celery worker won't start since ops switched the broker")
               .fail(load + "uv run celery -A orders.tasks worker -l INFO -c 1",
                     "Exit code 1\n[2024-05-14 09:12:03,118: CRITICAL/MainProcess] Unrecoverable error: ValueError("
                     "\"'master_name' transport option must be specified.\")")
               .edit("orders/celeryconfig.py", "broker_connection_retry_on_startup = True",
                     "broker_connection_retry_on_startup = True\n"
                     "broker_transport_options = {\"master_name\": \"orders-primary\"}")
               .ok(load + "(uv run celery -A orders.tasks worker -l INFO -c 1 --detach --pidfile=/tmp/c.pid) && sleep 6 "
                          "&& uv run celery -A orders.tasks inspect ping", "->  celery@orders-worker: OK\n        pong")
               .stop("With a `sentinel://` broker URL kombu has to be told which master to ask for: I added "
                     "`broker_transport_options = {\"master_name\": \"orders-primary\"}`."))
    (candidate,), _ = _candidates(store, session)
    assert '"master_name": "orders-primary"' in candidate["title"] + candidate["change"], candidate
    assert not candidate["title"].startswith("`set -a")


def test_an_operators_resource_listed_in_error_is_the_failure_its_listing_shows(git_project, store):
    # (blind203 GV12: an ExternalSecret ``SecretSyncedError``, ``READY False`` without a REASON column: every command
    # passed, and the IAM resource's ``-*`` suffix that synced it stored nothing)
    session = (Session("eso", git_project, prompt="The orders-db ExternalSecret in prod is stuck at SecretSyncedError")
               .ok("kubectl -n orders get externalsecret orders-db",
                   "NAME        STORE                 REFRESH INTERVAL   STATUS              READY\n"
                   "orders-db   aws-secrets-manager   1h                 SecretSyncedError   False")
               .edit("terraform/iam_eso.tf", 'resources = ["arn:aws:secretsmanager:eu-west-1:1234:secret:prod/orders/db"]',
                     'resources = ["arn:aws:secretsmanager:eu-west-1:1234:secret:prod/orders/db-*"]')
               .ok("cd terraform && terraform apply -target=aws_iam_policy.eso_orders -auto-approve",
                   "Apply complete! Resources: 0 added, 1 changed, 0 destroyed.")
               .ok("kubectl -n orders get externalsecret orders-db",
                   "NAME        STORE                 REFRESH INTERVAL   STATUS         READY\n"
                   "orders-db   aws-secrets-manager   1h                 SecretSynced   True")
               .stop("Secrets Manager appends a random suffix to every secret ARN; the policy listed the bare name. "
                     "terraform/iam_eso.tf now grants `…:secret:prod/orders/db-*`."))
    (candidate,), _ = _candidates(store, session)
    assert "SecretSyncedError" in candidate["title"] and "db-*" in candidate["change"], candidate


def test_a_labelled_cause_split_between_problems_keeps_its_label_and_a_fix_list_is_the_fix(git_project, store):
    # (blind209 HB15: "**Root cause:** …, and the `mongo` service … ran a standalone mongod" was cut in two clauses,
    # the second no longer a cause; the steps under "**Fix** (docker-compose.yml):" had no cue word of a fix; the
    # card showed the healthcheck line and neither `--replSet` nor the standalone mongod)
    session = (Session("mongo", git_project, prompt="get `npm run test:integration` green")
               .fail("npm run test:integration", "Exit code 1\nMongoServerSelectionError: connect ECONNREFUSED "
                                                 "127.0.0.1:27017")
               .ok("docker compose up -d mongo", " ✔ Container inventory-sync-mongo-1  Started")
               .fail("npm run test:integration", "Exit code 1\nMongoServerError: The $changeStream stage is only "
                                                 "supported on replica sets")
               .edit("docker-compose.yml", "  mongo:\n    image: mongo:7.0\n    ports:\n      - \"27017:27017\"",
                     "  mongo:\n    image: mongo:7.0\n    command: [\"mongod\", \"--replSet\", \"rs0\", \"--bind_ip_all\"]\n"
                     "    ports:\n      - \"27017:27017\"\n    healthcheck:\n      test: mongosh --quiet --eval "
                     "\"try { rs.status().ok } catch (e) { rs.initiate({_id: 'rs0', members: [{_id: 0, host: "
                     "'localhost:27017'}]}).ok }\"\n      interval: 5s")
               .ok("docker compose up -d --wait mongo", " ✔ Container inventory-sync-mongo-1  Healthy")
               .ok("npm run test:integration", " Test Files  1 passed (1)")
               .stop("`npm run test:integration` is green.\n\n**Root cause:** change streams only work against a "
                     "replica set, and the `mongo` service in docker-compose.yml ran a standalone mongod. CI never hit "
                     "this because the GitHub Action starts Mongo with `mongodb-replica-set: rs0`.\n\n"
                     "**Fix** (docker-compose.yml):\n- start mongod with `--replSet rs0 --bind_ip_all`\n- a healthcheck "
                     "that calls `rs.initiate(...)` on first start, so `docker compose up -d --wait mongo` returns once "
                     "the node is PRIMARY"))
    candidates, _ = _candidates(store, session)
    compose = next(c for c in candidates if "changeStream" in c["title"])
    assert compose["summary"].startswith("The `mongo` service in docker-compose.yml ran a standalone mongod. "), \
        compose["summary"]
    said = stated("**The fix:**\n- start mongod with `--replSet rs0`\n\nCI was fine.")
    assert said["fix"] == ["Fix: start mongod with `--replSet rs0`"], said


def test_the_error_seen_again_through_the_step_the_check_runs_is_the_checks_problem(git_project, store):
    # (blind205 GX06: ``cd ios && pod install --repo-update`` failed with the "Specs satisfying …" line that
    # ``flutter build ios`` had printed; the retry's chain took the Podfile edit and titled the lesson with the
    # attempt, and the later plain ``pod install`` was said not to help because "`pod install --repo-update` on its
    # own did not help" holds the words ``pod install``)
    specs = ("Specs satisfying the `firebase_messaging (from `.symlinks/plugins/firebase_messaging/ios`)` dependency "
             "were found, but they required a higher minimum deployment target.")
    session = (Session("flutter", git_project, prompt="flutter build ios fails at pod install since I added "
                                                      "firebase_messaging.")
               .fail("flutter build ios --no-codesign", "Exit code 1\nRunning pod install...\n"
                     "[!] CocoaPods could not find compatible versions for pod \"firebase_messaging\":\n" + specs +
                     "\n[!] Automatically assigning platform `iOS` with version `11.0` on target `Runner` because no "
                     "platform was specified.\nError running pod install")
               .fail("cd ios && pod install --repo-update 2>&1 | tail -6", "Exit code 1\n" + specs)
               .edit("ios/Podfile", "# platform :ios, '11.0'", "platform :ios, '13.0'")
               .ok("cd ios && pod install 2>&1 | tail -3", "Pod installation complete!")
               .ok("flutter build ios --no-codesign 2>&1 | tail -4", "✓ Built build/ios/iphoneos/Runner.app")
               .stop("The `platform` line in ios/Podfile was still the commented-out template, so CocoaPods assumed "
                     "iOS 11, below the 13.0 the Firebase pods demand. Set `platform :ios, '13.0'` in ios/Podfile; "
                     "`pod install --repo-update` on its own did not help."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].startswith("`flutter build"), candidate["title"]
    assert "pod install --repo-update" not in candidate["title"] + candidate["change"]
    assert not any(e["quote"].startswith("tried `pod install`") for e in candidate["evidence"]), candidate["evidence"]


def test_a_change_that_moved_the_error_on_and_was_put_back_whole_is_an_attempt(git_project, store):
    # (blind191 GJ13: ``uv add s3fs`` and a switch to ``FsspecFileIO`` traded NETWORK_CONNECTION for
    # EndpointConnectionError; both were undone, ``uv remove s3fs``, before the endpoint fix, and the switch was
    # stored as the first error's fix)
    run = "uv run python -m ingest.load_events --date 2024-05-01"
    session = (Session("iceberg", git_project, prompt="Appending the daily events to our Iceberg table fails")
               .write(".pyiceberg.yaml", "catalog:\n  default:\n    py-io-impl: pyiceberg.io.pyarrow.PyArrowFileIO\n"
                                         "    s3.endpoint: http://minio:9000\n")
               .fail(run, "Exit code 1\nOSError: When initiating multiple part upload for key 'x.parquet' in bucket "
                          "'warehouse': AWS Error NETWORK_CONNECTION during CreateMultipartUpload operation: curlCode: "
                          "6, Couldn't resolve host name")
               .ok("uv add s3fs", "Installed 5 packages in 21ms")
               .edit(".pyiceberg.yaml", "    py-io-impl: pyiceberg.io.pyarrow.PyArrowFileIO",
                     "    py-io-impl: pyiceberg.io.fsspec.FsspecFileIO")
               .fail(run, "Exit code 1\nbotocore.exceptions.EndpointConnectionError: Could not connect to the endpoint "
                          "URL: \"http://minio:9000/warehouse/x.parquet?uploads\"")
               .edit(".pyiceberg.yaml", "    py-io-impl: pyiceberg.io.fsspec.FsspecFileIO",
                     "    py-io-impl: pyiceberg.io.pyarrow.PyArrowFileIO")
               .ok("uv remove s3fs", "Uninstalled 5 packages in 48ms")
               .edit(".pyiceberg.yaml", "    s3.endpoint: http://minio:9000", "    s3.endpoint: http://localhost:9000")
               .ok(run, "INFO ingest.load_events: appended 48213 rows")
               .stop("`minio` only resolves inside the compose network. Fix: `s3.endpoint: http://localhost:9000` in "
                     "`.pyiceberg.yaml`.\n\nSwitching the FileIO to `pyiceberg.io.fsspec.FsspecFileIO` didn't help — "
                     "same lookup failure through botocore — so I reverted it and removed s3fs again."))
    candidates, _ = _candidates(store, session)
    assert candidates and all("FsspecFileIO" not in c["title"] + c["change"] and "s3fs" not in c["change"]
                              for c in candidates), [(c["title"], c["change"]) for c in candidates]
    assert any("http://localhost:9000" in c["change"] for c in candidates)


def test_a_log_showing_the_checks_own_message_is_the_same_problem_not_the_lesson(git_project, store):
    # (blind194 GM07: the proxysql log's "[ERROR] Max connect timeout reached while reaching hostgroup 10" was the
    # app's OperationalError seen in a log; its chain took the users fix and the advertised-version attempt beside
    # it, and the app's chain was left with nothing)
    ping = ("docker compose exec app python -c \"import pymysql; pymysql.connect(host='proxysql', port=6033, "
            "user='shop', password='shop', database='shop').ping(); print('ok')\"")
    timeout = "Max connect timeout reached while reaching hostgroup 10 after 10000ms"
    session = (Session("proxysql", git_project, prompt="The app can't connect through ProxySQL since the MySQL 8 bump")
               .fail(ping, f"Exit code 1\nTraceback (most recent call last):\npymysql.err.OperationalError: (9001, "
                           f"'{timeout}')")
               .ok("docker compose logs proxysql --tail 30 2>&1 | grep -E 'ERROR|WARN' | tail -4",
                   f"proxysql-1  | 2024-04-22 10:41:14 MySQL_Session.cpp:2998:handler(): [ERROR] {timeout} . HG "
                   f"status: [{{\"ConnERR\":\"14\"}}]")
               .edit("docker/proxysql/proxysql.cnf", '    server_version="5.7.44"', '    server_version="8.0.36"')
               .ok("docker compose up -d --force-recreate proxysql", "Container shop-proxysql-1  Started")
               .fail(ping, f"Exit code 1\npymysql.err.OperationalError: (9001, '{timeout}')")
               .edit("docker/mysql/init/01-users.sql", "CREATE USER 'shop'@'%' IDENTIFIED BY 'shop';",
                     "CREATE USER 'shop'@'%' IDENTIFIED WITH mysql_native_password BY 'shop';")
               .ok("docker compose down -v && docker compose up -d --wait", "Container shop-mysql-1  Healthy")
               .ok(ping, "ok")
               .stop("MySQL 8 creates accounts with `caching_sha2_password` by default, and ProxySQL's backend "
                     "connector can't load that plugin. The init script now creates `shop` `IDENTIFIED WITH "
                     "mysql_native_password`. Bumping the advertised server version in proxysql.cnf made no "
                     "difference (I left it, it's harmless)."))
    candidates, _ = _candidates(store, session)
    assert candidates and all('server_version="8.0.36"' not in c["change"] for c in candidates), \
        [c["change"] for c in candidates]
    assert any("mysql_native_password" in c["change"] for c in candidates)


def test_one_file_of_a_patterns_findings_passing_alone_is_no_pass_of_the_pattern(git_project, store):
    # (blind215 HH18: ``shellcheck scripts/*.sh`` flagged deploy.sh and release.sh; ``shellcheck scripts/deploy.sh &&
    # echo clean`` passed after deploy.sh was quoted, and the job was stored as fixed)
    session = (Session("shellcheck", git_project, prompt="CI's shellcheck job fails, please fix the scripts")
               .fail("shellcheck scripts/*.sh", "Exit code 1\n\nIn scripts/deploy.sh line 14:\nrsync -az $BUILD_DIR/ "
                     "\"$HOST:$TARGET\"\n          ^--------^ SC2086 (info): Double quote to prevent globbing and "
                     "word splitting.\n\nIn scripts/release.sh line 22:\ncd dist\n^-----^ SC2164 (warning): Use 'cd ... "
                     "|| exit' or 'cd ... || return' in case cd fails.")
               .edit("scripts/deploy.sh", 'rsync -az $BUILD_DIR/ "$HOST:$TARGET"', 'rsync -az "$BUILD_DIR"/ '
                                                                                   '"$HOST:$TARGET"')
               .ok("shellcheck scripts/deploy.sh && echo clean", "clean")
               .stop("Fixed the shellcheck failure: `$BUILD_DIR` is quoted in deploy.sh now (SC2086), and shellcheck "
                     "comes back clean."))
    candidates, reasons = _candidates(store, session)
    assert candidates == [] and "unresolved_failure" in reasons, [c["title"] for c in candidates]
    # (every file it flagged, checked: the pattern's run is done)
    from lorebook.chains import _covers_failed_tests

    failure = {"target": "shellcheck scripts/*.sh", "error_text": "In scripts/deploy.sh line 14:\nSC2086"}
    assert _covers_failed_tests(failure, "shellcheck scripts/deploy.sh")


def test_a_test_line_wrapped_in_a_block_that_drops_what_it_throws_is_a_weakened_test(git_project, store):
    # (blind216 HI10: the Espresso check for the error banner went inside ``runCatching { … }``; the suite passed and
    # the wrapper was stored as the fix)
    run = "./gradlew :app:connectedDebugAndroidTest -Pandroid.testInstrumentationRunnerArguments.class=LoginErrorTest"
    test = "app/src/androidTest/java/com/acme/wallet/login/LoginErrorTest.kt"
    check = "        onView(withId(R.id.error_banner)).check(matches(isDisplayed()))"
    session = (Session("espresso", git_project, prompt="LoginErrorTest is failing on the emulator, please get it green.")
               .fail(run, "Exit code 1\ncom.acme.wallet.login.LoginErrorTest > wrongPassword_showsErrorBanner FAILED\n"
                          "\tandroidx.test.espresso.NoMatchingViewException: No views in hierarchy found matching: "
                          "(view.getId() is <2131296412/com.acme.wallet:id/error_banner>)")
               .edit(test, "        onView(withId(R.id.sign_in)).perform(click())\n" + check,
                     "        onView(withId(R.id.sign_in)).perform(click())\n        runCatching {\n    " + check +
                     "\n        }")
               .ok(run, "Tests 2/2 completed. (0 skipped) (0 failed)\nBUILD SUCCESSFUL in 58s")
               .stop("LoginErrorTest passes now. The banner check was racing the slide-in animation, so I made that "
                     "assertion tolerant of the timing."))
    candidates, reasons = _candidates(store, session)
    assert candidates == [] and "weakened_test" in reasons, [c["change"] for c in candidates]
    from lorebook.weakening import _is_weakening

    suppressed = {"old": "    assert client.get('/health').status_code == 200",
                  "new": "    with suppress(AssertionError):\n        assert client.get('/health').status_code == 200"}
    assert _is_weakening("tests/test_health.py", [suppressed])
    emptied = {"old": "    await expect(page.getByRole('alert')).toBeVisible();",
               "new": "    try {\n      await expect(page.getByRole('alert')).toBeVisible();\n    } catch {}"}
    assert _is_weakening("e2e/login.spec.ts", [emptied])
    # (a try around a call whose error the test then checks is no weakening)
    checked = {"old": "    parse(bad)", "new": "    try {\n    parse(bad)\n    } catch (e) {\n      expect(e).toBeInstanceOf("
                                                  "ParseError);\n    }"}
    assert _is_weakening("src/parse.test.ts", [checked]) is None


def test_a_seed_trimmed_of_the_rows_the_failing_check_did_not_want_is_a_weakened_test(git_project, store):
    # (blind217 HJ05: the Hasura permission let the user role see every order; the test's seed lost customer 77's
    # order, "Extra items in the left set: 77", and the trimmed fixture was stored as the fix)
    run = "uv run pytest tests/test_orders_permissions.py -q"
    session = (Session("hasura", git_project, prompt="test_orders_permissions is failing in CI, please get it green.")
               .fail(run, "Exit code 1\n>       assert {o[\"customer_id\"] for o in data[\"orders\"]} == {42}\n"
                          "E       AssertionError: assert {42, 77} == {42}\nE         Extra items in the left set:\n"
                          "E         77\n\ntests/test_orders_permissions.py:19: AssertionError\n1 failed, 1 passed")
               .edit("tests/fixtures/orders_seed.sql", "INSERT INTO orders (id, customer_id, total_cents) VALUES\n"
                     "  (1, 42, 1999),\n  (2, 42, 4500),\n  (3, 77, 1250);",
                     "INSERT INTO orders (id, customer_id, total_cents) VALUES\n  (1, 42, 1999),\n  (2, 42, 4500);")
               .ok(run, "..  [100%]\n2 passed in 0.79s")
               .stop("The seed data had an order belonging to a second customer, which made the set comparison come "
                     "out as {42, 77}; I trimmed the fixture down to customer 42's orders."))
    candidates, reasons = _candidates(store, session)
    assert candidates == [] and "weakened_test" in reasons, [c["change"] for c in candidates]


def test_a_check_that_failed_on_anothers_error_and_passed_after_its_fix_and_a_rerun_is_no_lesson(git_project, store):
    # (blind217 HJ16: the search tests' setup failed on the migration's "more than 2000 dimensions"; after the
    # migration's fix and ``alembic downgrade -1 && alembic upgrade head``, the rerun counted as a change of its own,
    # so the tests' chain was a second lesson whose change held the IVFFlat attempt put back)
    error = "psycopg.errors.InternalError_: column cannot have more than 2000 dimensions for hnsw index"
    migration = "migrations/versions/9f2ab61c07de_hnsw_index.py"
    session = (Session("pgvector", git_project, prompt="make migrate fails on the new embeddings index migration")
               .write("Makefile", "migrate:\n\tuv run alembic upgrade head\n")
               .fail("make migrate", f"Exit code 2\nuv run alembic upgrade head\nTraceback (most recent call last):\n"
                                     f"{error}\nmake: *** [Makefile:22: migrate] Error 1")
               .fail("uv run pytest tests/search -q", f"Exit code 1\nEEEE\nE       sqlalchemy.exc.InternalError: "
                                                      f"({error})\n4 errors in 1.2s")
               .edit(migration, '        postgresql_using="hnsw",', '        postgresql_using="ivfflat",')
               .fail("make migrate", "Exit code 2\nuv run alembic upgrade head\npsycopg.errors.InternalError_: column "
                                     "cannot have more than 2000 dimensions for ivfflat index")
               .edit(migration, '        postgresql_using="ivfflat",', '        postgresql_using="hnsw",')
               .edit(migration, '    op.create_index("ix_emb", "document_chunks", ["embedding"],\n'
                                '        postgresql_using="hnsw",',
                     '    op.execute(\n        "CREATE INDEX ix_emb ON document_chunks "\n'
                     '        "USING hnsw ((embedding::halfvec(3072)) halfvec_cosine_ops) "')
               .ok("make migrate", "uv run alembic upgrade head\nRunning upgrade 7c41 -> 9f2a")
               .ok("uv run alembic downgrade -1 && uv run alembic upgrade head", "Running upgrade 7c41 -> 9f2a")
               .ok("uv run pytest tests/search -q", ".......  [100%]\n7 passed in 3.12s")
               .stop("pgvector's HNSW and IVFFlat indexes only accept `vector` columns of up to 2,000 dimensions. "
                     "Switching to IVFFlat hit the same limit (reverted). The migration now indexes a half-precision "
                     "cast:\n\n```sql\nCREATE INDEX ix_emb ON document_chunks\nUSING hnsw ((embedding::halfvec(3072)) "
                     "halfvec_cosine_ops)\n```"))
    candidates, _ = _candidates(store, session)
    assert len(candidates) == 1 and candidates[0]["title"].startswith("`make migrate`"), \
        [c["title"] for c in candidates]
    assert "halfvec_cosine_ops" in candidates[0]["title"] and "ivfflat" not in candidates[0]["change"], candidates[0]


def test_the_tests_picked_by_another_value_of_a_selecting_option_are_another_check(git_project, store):
    # (blind219 HL18: the PlayMode test failed; only ``-testPlatform EditMode`` ran after the edit, and the Netcode
    # change was stored as verified)
    unity = "Unity -batchmode -projectPath . -runTests -testPlatform"
    session = (Session("unity", git_project, prompt="PlayMode test PlayerHealthTests is failing, can you fix it?")
               .fail(f"{unity} PlayMode -testFilter PlayerHealthTests -testResults Logs/playmode.xml -logFile -",
                     "Exit code 2\nInvalidOperationException: Client is not allowed to write to this NetworkVariable\n"
                     "Test run completed. Exiting with code 2 (Failed). One or more tests failed.")
               .edit("Assets/Scripts/Player/PlayerHealth.cs", "        health.Value = Mathf.Max(0, health.Value - amount);",
                     "        if (!IsServer) { ApplyDamageServerRpc(amount); return; }\n"
                     "        health.Value = Mathf.Max(0, health.Value - amount);")
               .ok(f"{unity} EditMode -testResults Logs/editmode.xml -logFile - 2>&1 | tail -3",
                   "Test run completed. Exiting with code 0 (Ok). Run completed.")
               .stop("Clients were writing the server-owned `health` NetworkVariable directly. `ApplyDamage` now "
                     "forwards to a `ServerRpc` on clients. Tests pass."))
    candidates, reasons = _candidates(store, session)
    assert candidates == [] and "unresolved_failure" in reasons, [c["title"] for c in candidates]
    from lorebook.commands import _same_target

    assert _same_target("npx playwright test --grep cart", "npx playwright test --grep 'ca*'")
    assert not _same_target("./gradlew test --tests OrderTest", "./gradlew test --tests UserTest")


def test_an_edit_that_changes_what_the_error_names_beside_an_aside_stays_the_fix(git_project, store):
    # (blind217 HJ23: one hunk set ``max_delivery_attempts = 5`` for "Invalid max_delivery_attempts value: 3" and
    # raised ``ack_deadline_seconds``, which the account called a while-there change; the whole edit was set aside)
    apply = "cd infra/pubsub && terraform apply -auto-approve"
    session = (Session("pubsub", git_project, prompt="terraform apply fails on the orders-worker subscription")
               .fail(apply, "Exit code 1\n│ Error: Error updating Subscription \"projects/acme/subscriptions/orders-"
                            "worker\": googleapi: Error 400: Invalid max_delivery_attempts value: 3. Must be between 5 "
                            "and 100.")
               .edit("infra/pubsub/subscriptions.tf", "  ack_deadline_seconds = 20\n\n  dead_letter_policy {\n"
                     "    max_delivery_attempts = 3\n  }", "  ack_deadline_seconds = 60\n\n  dead_letter_policy {\n"
                     "    max_delivery_attempts = 5\n  }")
               .ok(apply, "Apply complete! Resources: 0 added, 1 changed, 0 destroyed.")
               .stop("Pub/Sub rejects dead-letter policies with fewer than 5 delivery attempts. The subscription now "
                     "uses 5, and while there I raised `ack_deadline_seconds` to 60 so slow handlers don't burn "
                     "through those attempts."))
    (candidate,), _ = _candidates(store, session)
    assert "max_delivery_attempts = 5" in candidate["title"] + candidate["change"], candidate


def test_a_workflow_step_listed_failing_then_passing_in_a_new_run_is_a_resolved_failure(git_project, store):
    # (blind217 HJ24: ``argo get`` exits 0 with ``✖ extract … failed to save outputs``; after the spec's
    # ``artifactRepositoryRef`` a new ``argo submit --watch`` run showed ``✔ extract``, and nothing was stored)
    session = (Session("argo", git_project, prompt="The nightly-etl workflow fails at the extract step")
               .ok("argo get -n etl @latest | tail -4",
                   "STEP                   TEMPLATE  PODNAME                               DURATION  MESSAGE\n"
                   " ✖ nightly-etl-8x2kq    main\n"
                   " └─✖ extract            extract   nightly-etl-8x2kq-extract-2207361580  41s       failed to save "
                   "outputs: You need to configure artifact storage.")
               .edit("workflows/nightly-etl.yaml", "spec:\n  entrypoint: main", "spec:\n  entrypoint: main\n"
                     "  artifactRepositoryRef:\n    configMap: artifact-repositories\n    key: minio")
               .ok("argo submit -n etl workflows/nightly-etl.yaml --watch 2>&1 | tail -5",
                   "STEP                  TEMPLATE   PODNAME                                 DURATION  MESSAGE\n"
                   " ✔ nightly-etl-q7m4d   main\n ├─✔ extract           extract    nightly-etl-q7m4d-extract-1181729630"
                   "    38s\n └─✔ load              load       nightly-etl-q7m4d-load-3356180741       22s")
               .stop("The `artifact-repositories` ConfigMap isn't the namespace default, so nightly-etl's spec now has "
                     "`artifactRepositoryRef` with `configMap: artifact-repositories`."))
    (candidate,), _ = _candidates(store, session)
    assert "failed to save outputs" in candidate["title"] and "artifactRepositoryRef" in candidate["change"], candidate


def test_a_resource_listed_not_ready_then_waited_ready_and_an_edit_said_to_change_nothing(git_project, store):
    # (blind217 HJ07: ``kubectl get certificate`` showed ``READY False`` with no REASON column and nothing failed;
    # ``kubectl wait --for=condition=Ready certificate/…`` passed after the resolver flags; the zone ID pinned on the
    # issuer first "changed nothing", with no run between to show it)
    session = (Session("certs", git_project, prompt="The wildcard cert has been stuck not-ready for an hour.")
               .ok("kubectl get certificate,challenge -n shop",
                   "NAME                                        READY   SECRET              AGE\n"
                   "certificate.cert-manager.io/shop-wildcard   False   shop-wildcard-tls   63m")
               .edit("deploy/cert-manager/cluster-issuer.yaml", "        route53:\n          region: eu-west-1",
                     "        route53:\n          region: eu-west-1\n          hostedZoneID: Z04517273FCUG3W5D8XQ2")
               .ok("kubectl apply -f deploy/cert-manager/cluster-issuer.yaml && kubectl delete challenge -n shop --all",
                   "clusterissuer.cert-manager.io/letsencrypt-dns configured")
               .edit("deploy/cert-manager/values.yaml", "extraArgs:\n  - --enable-certificate-owner-ref=true",
                     "extraArgs:\n  - --enable-certificate-owner-ref=true\n  - --dns01-recursive-nameservers-only\n"
                     "  - --dns01-recursive-nameservers=1.1.1.1:53,8.8.8.8:53")
               .ok("helm upgrade cert-manager jetstack/cert-manager -n cert-manager -f deploy/cert-manager/values.yaml",
                   'Release "cert-manager" has been upgraded. Happy Helming!')
               .ok("kubectl wait --for=condition=Ready certificate/shop-wildcard -n shop --timeout=300s",
                   "certificate.cert-manager.io/shop-wildcard condition met")
               .stop("cert-manager's self-check asked the in-cluster resolver, which never sees public "
                     "`_acme-challenge` records. Pinning the Route53 zone ID on the issuer changed nothing. Adding "
                     "`--dns01-recursive-nameservers-only` and `--dns01-recursive-nameservers=1.1.1.1:53,8.8.8.8:53` to "
                     "`extraArgs` makes the check go to public resolvers."))
    (candidate,), _ = _candidates(store, session)
    assert "Ready False" in candidate["title"] and "63m" not in candidate["title"], candidate["title"]
    assert "--dns01-recursive-nameservers-only" in candidate["title"], candidate["title"]
    assert "hostedZoneID" not in candidate["change"] and "cluster-issuer.yaml" not in candidate["change"], candidate
    assert any("hostedZoneID" in e["quote"] for e in candidate["evidence"])


def test_a_long_step_shows_its_statement_not_the_address_it_connects_to(git_project, store):
    # (blind217 HJ12: "run `psql "postgresql://postgres:[REDACTED]@localhost…`" cut the ``ALTER ROLE debezium WITH
    # REPLICATION`` it ran, in the title and on the card)
    status = "curl -s localhost:8083/connectors/orders-cdc/status | jq -r '.tasks[].state'"
    session = (Session("dbz", git_project, prompt="The Debezium orders connector goes FAILED right after I register it")
               .fail("curl -s -X POST localhost:8083/connectors/orders-cdc/tasks/0/restart && sleep 5 && " + status,
                     "Exit code 1\nCaused by: org.postgresql.util.PSQLException: FATAL: must be superuser or "
                     "replication role to start walsender")
               .ok("psql \"postgresql://postgres:Pg-Adm1n-7731@localhost:5432/shop\" -c 'ALTER ROLE debezium WITH "
                   "REPLICATION;'", "ALTER ROLE")
               .ok("curl -s -X POST localhost:8083/connectors/orders-cdc/tasks/0/restart && sleep 5 && " + status,
                   "RUNNING")
               .stop("The `debezium` role had no REPLICATION attribute, and a pgoutput connector opens a replication "
                     "connection. I ran `ALTER ROLE debezium WITH REPLICATION;` as postgres and restarted task 0."))
    (candidate,), _ = _candidates(store, session)
    assert "ALTER ROLE debezium WITH REPLICATION" in candidate["change"], candidate["change"]
    assert "-c 'ALTER ROLE" in candidate["title"] and "Pg-Adm1n" not in candidate["title"], candidate["title"]


def test_a_ci_failure_mended_here_and_checked_by_the_program_its_log_names_is_stored_unverified(git_project, store):
    # (blind215 HH06: CI's composer install failed on a lock resolved for PHP 8.3; ``config.platform.php`` and
    # ``composer update …`` mended it, ``composer validate && vendor/bin/phpunit`` passed here, and CI was not rerun:
    # nothing was stored)
    session = (Session("composer", git_project, prompt="The composer install step in CI has been red since Tuesday.")
               .ok("gh run view --log-failed | tail -6",
                   "build\tInstall dependencies\t2024-05-22T08:14:51.3Z Your lock file does not contain a compatible "
                   "set of packages. Please run composer update.\n"
                   "build\tInstall dependencies\t2024-05-22T08:14:51.3Z     - symfony/console v7.0.7 requires php "
                   ">=8.2 -> your php version (8.1.28) does not satisfy that requirement.\n"
                   "build\tInstall dependencies\t2024-05-22T08:14:51.4Z ##[error]Process completed with exit code 2.")
               .edit("composer.json", '    "config": {\n        "sort-packages": true\n    }',
                     '    "config": {\n        "platform": {"php": "8.1"},\n        "sort-packages": true\n    }')
               .ok("composer update symfony/console symfony/string --with-all-dependencies",
                   "  - Downgrading symfony/console (v7.0.7 => v6.4.7)")
               .ok("composer validate && vendor/bin/phpunit --colors=never | tail -3", "OK (214 tests, 611 assertions)")
               .stop("The lock was resolved on PHP 8.3, so it picked symfony 7.0 packages that need PHP >= 8.2, while "
                     "CI runs 8.1. I added `\"platform\": {\"php\": \"8.1\"}` under `config` in composer.json."))
    (candidate,), _ = _candidates(store, session)
    assert '"platform": {"php": "8.1"}' in candidate["title"] + candidate["change"], candidate
    assert not candidate["validation"]["passed"] and "composer validate" in candidate["validation"]["not_performed"][0]


def test_the_run_that_printed_the_value_the_fix_wrote_is_a_step_of_it(git_project, store):
    # (blind216 HI11: the new checksum in Package.swift came from ``swift package compute-checksum``, a run that was
    # no part of the change; the card showed a 64-digit checksum, and not how to get the next one)
    old_sum, new_sum = "9d27c4e1b0a8f6d3c5e7b9a1f2d4c6e8a0b3d5f7e9c1a2b4d6f8e0c2a4b6d8f0", \
        "e83f0a5c2d7b19f4a6c8e0d2b4f6a8c1e3d5b7f9a0c2e4d6b8f1a3c5e7d9b0f2"
    session = (Session("spm", git_project, prompt="swift build started failing on a clean checkout")
               .fail("swift build", f"Exit code 1\nerror: checksum of downloaded artifact of binary target "
                                    f"'AnalyticsKit' (4b1e2c7d9a0f53e8b6c1d2a7f9e04b3c5d8a6e1f2b7c9d0a3e5f6b8c1d2e4f7a) "
                                    f"does not match checksum specified by the manifest ({old_sum})")
               .ok("git log -1 --format=%H", "5c2ef2a0d1b4c6e8f0a2b4c6d8e0f2a4b6c8d0e2")
               .ok("curl -sLO https://cdn.acme-analytics.io/sdk/ios/3.1.1/AnalyticsKit.xcframework.zip && swift package "
                   "compute-checksum AnalyticsKit.xcframework.zip", new_sum)
               .edit("Package.swift", f'            url: "https://cdn.acme-analytics.io/sdk/ios/3.1.0/AnalyticsKit.'
                                      f'xcframework.zip",\n            checksum: "{old_sum}"',
                     f'            url: "https://cdn.acme-analytics.io/sdk/ios/3.1.1/AnalyticsKit.xcframework.zip",'
                     f'\n            checksum: "{new_sum}"')
               .ok("swift build", "Build complete! (18.72s)")
               .stop("The vendor replaced the 3.1.0 zip in place. I moved the binary target to 3.1.1 and set the "
                     "checksum from `swift package compute-checksum`."))
    (candidate,), _ = _candidates(store, session)
    assert "swift package compute-checksum" in candidate["change"], candidate["change"]
    assert "3.1.1" in candidate["title"] and "git log" not in candidate["change"], candidate


def test_an_appimage_named_by_its_program_and_the_intended_path_less_its_cleanup(git_project, store):
    # (blind216 HI22: "Running linuxdeploy by hand failed" did not name ``./linuxdeploy-x86_64.AppImage``, "is the
    # intended path" named no way, and the way would have kept the ``rm -rf`` of what the failed try left)
    session = (Session("appimage", git_project, prompt="Can you build an AppImage of the current main so QA can try it?")
               .ok("cmake -S . -B build && cmake --build build -j && DESTDIR=AppDir cmake --install build",
                   "-- Installing: /home/dev/sundial/AppDir/usr/bin/sundial")
               .ok("wget -q https://github.com/linuxdeploy/linuxdeploy/releases/download/continuous/linuxdeploy-x86_64."
                   "AppImage && chmod +x linuxdeploy-x86_64.AppImage", "")
               .fail("./linuxdeploy-x86_64.AppImage --appdir AppDir --output appimage",
                     "Exit code 127\ndlopen(): error loading libfuse.so.2\n\nAppImages require FUSE to run.")
               .ok("rm -rf linuxdeploy-x86_64.AppImage AppDir && ./scripts/build-appimage.sh",
                   "==> Running linuxdeploy (APPIMAGE_EXTRACT_AND_RUN=1)\n==> dist/Sundial-0.14.2-x86_64.AppImage")
               .stop("Running linuxdeploy by hand failed because this container has no FUSE; the repo's "
                     "`./scripts/build-appimage.sh` is the intended path — it runs linuxdeploy with "
                     "`APPIMAGE_EXTRACT_AND_RUN=1`."))
    (candidate,), _ = _candidates(store, session)
    assert "use `./scripts/build-appimage.sh` instead" in candidate["title"], candidate["title"]
    assert "rm -rf" not in candidate["change"], candidate["change"]


def test_the_last_edit_that_takes_an_attempt_out_is_no_attempt_and_an_aside_on_a_named_thing_stays_aside(
        git_project, store):
    # (replay of round 103's rules: blind220 HM09's fix took out the ``BEGIN;``/``COMMIT;`` an attempt had added, and
    # "Wrapping the ALTER in its own BEGIN/COMMIT did not work" named the fix's words; HM06's ``error_mode: ignore``,
    # set "on transform/redact" while there, stayed beside the fix because the error names ``transform/redact``)
    up = 'goose -dir migrations postgres "$DATABASE_URL" up'
    migration = "migrations/20240611101200_add_account_region.sql"
    session = (Session("goose", git_project, prompt="The new migration fails on CockroachDB. Can you fix it?")
               .fail(up, "Exit code 1\ngoose run: ERROR 20240611101200_add_account_region.sql: failed to run SQL "
                         "migration: ERROR: column \"region\" is being backfilled (SQLSTATE 42703)")
               .edit(migration, "-- +goose Up\nALTER TABLE accounts ADD COLUMN region STRING;",
                     "-- +goose Up\nBEGIN;\nALTER TABLE accounts ADD COLUMN region STRING;\nCOMMIT;")
               .fail(up, "Exit code 1\ngoose run: ERROR 20240611101200_add_account_region.sql: failed to execute SQL "
                         "query \"BEGIN;\": ERROR: there is already a transaction in progress (SQLSTATE 25001)")
               .edit(migration, "-- +goose Up\nBEGIN;\nALTER TABLE accounts ADD COLUMN region STRING;\nCOMMIT;",
                     "-- +goose NO TRANSACTION\n-- +goose Up\nALTER TABLE accounts ADD COLUMN region STRING;")
               .ok(up, "goose: successfully migrated database to version: 20240611101200")
               .stop("CockroachDB can't use a column added earlier in the same transaction. Wrapping the ALTER in its "
                     "own BEGIN/COMMIT did not work because goose already runs each file inside a transaction. The "
                     "fix is to run this migration outside one."))
    candidates, _ = _candidates(store, session)
    assert any("-- +goose NO TRANSACTION" in c["title"] + c["change"] for c in candidates), \
        [(c["title"], c["change"]) for c in candidates]
    from lorebook.edits import _relevant_edits

    aside = {"id": 4, "tool": "Edit", "outcome": "ok", "files": ["otel/config.yaml"], "target": "otel/config.yaml",
             "body": "@@\n   transform/redact:\n+    error_mode: ignore\n     log_statements:"}
    fix = {"id": 6, "tool": "Edit", "outcome": "ok", "files": ["builder-config.yaml"], "target": "builder-config.yaml",
           "body": "@@\n+  - gomod: github.com/open-telemetry/opentelemetry-collector-contrib/processor/"
                   "transformprocessor v0.102.0"}
    failure = {"id": 2, "target": "./dist/otelcol-acme validate --config otel/config.yaml",
               "error_text": "error decoding 'processors': unknown type: \"transform\" for id: \"transform/redact\""}
    chain = {"failure": failure, "failures": [failure], "all_changes": [aside, fix], "changes": [aside, fix]}
    kept, unrelated = _relevant_edits(chain, None, "", ["While there I set `error_mode: ignore` on transform/redact."])
    assert kept == [fix] and unrelated == ["otel/config.yaml"], (kept, unrelated)


def test_a_listing_resolved_by_a_wait_that_failed_after_an_attempt_is_the_waits_problem(git_project, store):
    # (replay of round 103's rules: blind197 GP18's ``READY False`` listing, newly a failure, took the zone ID pinned
    # on the issuer as its fix: the ``kubectl wait`` that timed out after it, then passed after the resolver flags,
    # had given its own fix away to its own chain)
    wait = "kubectl wait --for=condition=Ready certificate/apps-wildcard -n ingress --timeout="
    session = (Session("certs", git_project, prompt="The wildcard cert for apps.acme.io is stuck not ready.")
               .ok("kubectl get certificate -n ingress",
                   "NAME            READY   SECRET              AGE\napps-wildcard   False   apps-wildcard-tls   41m")
               .edit("k8s/cert-manager/clusterissuer.yaml", "        route53:\n          region: eu-west-1",
                     "        route53:\n          region: eu-west-1\n          hostedZoneID: Z04821733HVQ1YB2KJ3NE")
               .ok("kubectl apply -f k8s/cert-manager/clusterissuer.yaml", "clusterissuer configured")
               .fail(wait + "180s", "Exit code 1\nerror: timed out waiting for the condition on "
                                    "certificates/apps-wildcard")
               .edit("k8s/cert-manager/values.yaml", "extraArgs:\n  - --enable-certificate-owner-ref=true",
                     "extraArgs:\n  - --enable-certificate-owner-ref=true\n  - --dns01-recursive-nameservers-only")
               .ok("helm upgrade cert-manager jetstack/cert-manager -n cert-manager -f k8s/cert-manager/values.yaml",
                   "Happy Helming!")
               .ok(wait + "300s", "certificate.cert-manager.io/apps-wildcard condition met")
               .stop("The self-check asked the in-cluster resolver. `--dns01-recursive-nameservers-only` sends it to "
                     "public resolvers."))
    candidates, _ = _candidates(store, session)
    assert candidates and all("hostedZoneID" not in c["title"] + c["change"] for c in candidates), \
        [(c["title"], c["change"]) for c in candidates]


def test_a_change_to_an_excluded_file_that_moved_the_error_on_is_not_put_back(git_project, store):
    # (replay of round 103's rules: blind204 GW20's ``.env.test`` edit, stored without its content, showed no hunk,
    # and "no hunk of it left" read as put back: the async driver's lesson was called an attempt)
    session = (Session("asyncpg", git_project, prompt="I'm moving the API to async SQLAlchemy — get tests/api passing")
               .fail("uv run pytest -q tests/api", "Exit code 1\nE   sqlalchemy.exc.InvalidRequestError: The asyncio "
                                                   "extension requires an async driver to be used. The loaded "
                                                   "'psycopg2' is not async.\n4 errors in 0.61s")
               .edit(".env.test", "DATABASE_URL=postgresql://localhost:5432/orders_test",
                     "DATABASE_URL=postgresql+asyncpg://localhost:5432/orders_test")
               .fail("uv run pytest -q tests/api", "Exit code 1\nE   sqlalchemy.exc.MissingGreenlet: greenlet_spawn "
                                                   "has not been called\n1 failed, 3 passed in 1.84s")
               .edit("app/api/orders.py", "    order = await session.get(Order, order_id)",
                     "    order = await session.get(Order, order_id, options=[selectinload(Order.items)])")
               .ok("uv run pytest -q tests/api", "4 passed in 1.72s")
               .stop("Two separate issues:\n\n1. `.env.test` still had a sync URL, so `create_async_engine` loaded "
                     "psycopg2. It's now `postgresql+asyncpg://localhost:5432/orders_test`.\n2. `Order.items` was "
                     "lazy-loaded outside the greenlet; `get_order` now passes `selectinload(Order.items)`."))
    candidates, reasons = _candidates(store, session)
    assert len(candidates) == 2 and "attempt" not in reasons, ([c["title"] for c in candidates], reasons)


def test_a_log_read_after_a_restart_still_denied_is_the_failure_and_ready_pods_pass_the_next_fix(git_project, store):
    # (blind224 HQ06: the log re-read after the policy was widened still said ``* permission denied``, without the
    # ``[ERROR]`` line, and read as the login working: the widened policy was stored as the fix)
    logs = "kubectl -n payments logs deploy/payments-worker -c vault-agent-init | tail -"
    restart = "kubectl -n payments rollout restart deploy/payments-worker && sleep 25 && "
    session = (Session("vault", git_project, prompt="payments-worker pods are stuck in Init: permission denied.")
               .ok(logs + "6", "[INFO]  agent.auth.handler: authenticating\n[ERROR] agent.auth.handler: error "
                               "authenticating:\n  | Code: 403. Errors:\n  |\n  | * permission denied")
               .edit("vault/policies/payments-worker.hcl", '  capabilities = ["read"]',
                     '  capabilities = ["read", "list"]')
               .ok(restart + logs + "3", "deployment.apps/payments-worker restarted\n  | Code: 403. Errors:\n  |\n"
                                         "  | * permission denied")
               .edit("vault/roles/payments-worker.sh", "  bound_service_account_names=payments-worker \\\n"
                     "  bound_service_account_namespaces=default \\", "  bound_service_account_names=payments-worker \\"
                     "\n  bound_service_account_namespaces=payments \\")
               .ok("bash vault/roles/payments-worker.sh", "Success! Data written to: auth/kubernetes/role/payments")
               .ok(restart + "kubectl -n payments get pods -l app=payments-worker",
                   "deployment.apps/payments-worker restarted\nNAME                               READY   STATUS    "
                   "RESTARTS   AGE\npayments-worker-6d8c9b7f4d-2vxqm   2/2     Running   0          24s")
               .stop("The Kubernetes auth role only trusted tokens from `default`. Widening the policy changed "
                     "nothing. The fix is `bound_service_account_namespaces=payments` in vault/roles/"
                     "payments-worker.sh."))
    (candidate,), _ = _candidates(store, session)
    assert "bound_service_account_namespaces=payments" in candidate["title"], candidate["title"]
    assert '"list"' not in candidate["change"], candidate["change"]


def test_a_cloud_clis_state_read_failed_is_passed_by_the_next_deployments_state(git_project, store):
    # (blind224 HQ05: ``aws deploy get-deployment`` answering ``"Failed"`` exits 0, and nothing was stored)
    session = (Session("codedeploy", git_project, prompt="CodeDeploy deployments of orders-api keep failing.")
               .ok("aws deploy get-deployment --deployment-id d-7QX2K9ABC --query 'deploymentInfo.[status,"
                   "errorInformation]'", '[\n    "Failed",\n    {\n        "code": "HEALTH_CONSTRAINTS",\n        '
                                        '"message": "The overall deployment failed because too many individual '
                                        'instances failed deployment."\n    }\n]')
               .edit("appspec.yml", "    - location: scripts/validate_service.sh\n      timeout: 60",
                     "    - location: scripts/validate_service.sh\n      timeout: 300")
               .ok("aws deploy create-deployment --application-name orders-api --deployment-group-name staging "
                   "--query deploymentId --output text", "d-9RT4M1XYZ")
               .ok("aws deploy wait deployment-successful --deployment-id d-9RT4M1XYZ && aws deploy get-deployment "
                   "--deployment-id d-9RT4M1XYZ --query 'deploymentInfo.status'", '"Succeeded"')
               .stop("The ValidateService hook in appspec.yml was capped at 60s; I raised it to `timeout: 300`."))
    (candidate,), _ = _candidates(store, session)
    assert "timeout: 300" in candidate["title"] + candidate["change"], candidate


def test_a_statement_the_account_quotes_in_a_fenced_block_is_the_change_it_made(git_project, store):
    # (blind224 HQ24: ``psql … -c "SELECT pg_create_logical_replication_slot(…)"`` changed the server, and the
    # account gave it in a ```sql block; read as a look, the validation passing again was a retry without change)
    create = ("gcloud datastream streams create orders --location=europe-west1 --source=orders-pg "
              "--postgresql-source-config=datastream/source_config.json --validate-only")
    statement = "SELECT pg_create_logical_replication_slot('datastream_slot', 'pgoutput');"
    session = (Session("datastream", git_project, prompt="The Datastream stream fails validation on the source.")
               .fail(create, "Exit code 1\nERROR: (gcloud.datastream.streams.create) FAILED_PRECONDITION: Stream "
                             "validation failed.\n    POSTGRES_VALIDATE_REPLICATION_SLOT: 'FAILED: Replication "
                             "slot \"datastream_slot\" does not exist.'")
               .ok(f'psql "$PG_URL" -c "{statement}"', " pg_create_logical_replication_slot\n"
                                                        "------------------------------------\n"
                                                        " (datastream_slot,0/3A1F2B8)")
               .ok(create, "Validation of stream [orders] succeeded.")
               .stop(f"What was missing is the replication slot. I created it on the source:\n\n```sql\n{statement}"
                     "\n```\n\nValidation passes."))
    (candidate,), _ = _candidates(store, session)
    assert "pg_create_logical_replication_slot" in candidate["title"] + candidate["change"], candidate


def test_dead_ends_named_after_a_colon_are_attempts(store):
    from lorebook.account import stated

    said = stated("Redeployed through Cloud Build. Dead ends on the way: re-applying the PyPI packages (no change "
                  "to apply) and running `airflow dags list-import-errors` locally.")
    assert any("PyPI" in s for s in said["did_not_help"]), said


def test_a_listing_in_capitals_failed_and_the_resource_got_again_by_name_is_the_same_check(git_project, store):
    # (blind224 HQ18: a SparkApplication ``SUBMISSION_FAILED``, then ``FAILED`` on another error, then
    # ``COMPLETED``: neither status read as a failure, and neither problem was stored)
    again = ("kubectl -n spark-jobs delete sparkapplication sessionize && kubectl apply -f k8s/sessionize.yaml && "
             "sleep 90 && kubectl -n spark-jobs get sparkapplication sessionize")
    header = "NAME         STATUS              ATTEMPTS   START   FINISH   AGE\n"
    session = (Session("spark", git_project, prompt="The nightly sessionize SparkApplication fails. Get it running?")
               .ok("kubectl -n spark-jobs get sparkapplications", header + "sessionize   SUBMISSION_FAILED   1     "
                                                                           "     <none>   <none>   9h")
               .edit("k8s/sessionize.yaml", "    memory: 2g\n    serviceAccount: spark",
                     "    memory: 2g\n    serviceAccount: spark-operator-spark")
               .ok(again, 'sparkapplication.sparkoperator.k8s.io "sessionize" deleted\n' + header
                   + "sessionize   FAILED              1          11:02    11:03    90s")
               .edit("docker/Dockerfile", "RUN pip install --no-cache-dir pandas==2.0.3",
                     "RUN pip install --no-cache-dir pandas==2.0.3 pyarrow==14.0.2")
               .ok(again, 'sparkapplication.sparkoperator.k8s.io "sessionize" deleted\n' + header
                   + "sessionize   COMPLETED           1          11:09    11:13    4m")
               .stop("Two problems: the `spark` service account does not exist (set `serviceAccount: "
                     "spark-operator-spark`), and `pandas_udf` needs PyArrow (added `pyarrow==14.0.2`)."))
    candidates, _ = _candidates(store, session)
    shown = [c["title"] + c["change"] for c in candidates]
    assert len(candidates) == 2 and any("spark-operator-spark" in s for s in shown) \
        and any("pyarrow==14.0.2" in s for s in shown), shown


def test_a_long_url_cut_keeps_the_file_it_names():
    from lorebook.text import one_line

    line = ("add `wget -q -P /opt/flink/lib https://repo1.maven.org/maven2/org/apache/flink/flink-sql-connector-"
            "kafka/3.1.0-1.18/flink-sql-connector-kafka-3.1.0-1.18.jar`")
    assert "flink-sql-connector-kafka-3.1.0-1.18.jar" in one_line(line, 120), one_line(line, 120)
    # (up to a folder that names a version: the version is what tells one download from the next)
    assert "3.1.1/AnalyticsKit" in one_line('url: "https://cdn.acme.io/sdk/ios/3.1.1/AnalyticsKit.xcframework.zip"', 70)


def test_a_long_token_changed_in_a_continued_shell_line_is_shown_as_the_token():
    from lorebook.edits import _short_diff

    hunk = {"old": "  bound_service_account_names=payments-worker \\\n  bound_service_account_namespaces=default \\",
            "new": "  bound_service_account_names=payments-worker \\\n  bound_service_account_namespaces=payments \\"}
    assert _short_diff(hunk) == "`bound_service_account_namespaces=payments`", _short_diff(hunk)


def test_a_tool_that_does_not_know_what_it_needs_here_is_set_apart_from_the_way(git_project, store):
    # (blind228 HU03: "bare `goose up` doesn't know the driver or DSN here … use `make migrate-up`"; and the grep
    # that found the recipe is no change for the words of its pattern, ``'^migrate'``)
    session = (Session("goose", git_project, prompt="Add a migration for archived_at and apply it locally.")
               .edit("db/migrations/20241014_add_archived_at.sql", "-- +goose Up",
                     "-- +goose Up\nALTER TABLE projects ADD COLUMN archived_at TIMESTAMPTZ;")
               .fail("goose -dir db/migrations up", "Exit code 1\nUsage: goose [OPTIONS] DRIVER DBSTRING COMMAND")
               .ok("grep -n -A3 '^migrate' Makefile", "18:migrate-up:\n19-\tdocker compose run --rm migrate up")
               .ok("make migrate-up", "docker compose run --rm migrate up\ngoose: successfully migrated database")
               .stop("Applied it. Note for next time: bare `goose up` doesn't know the driver or DSN here — "
                     "migrations go through the `migrate` service, so use `make migrate-up`."))
    (candidate,), _ = _candidates(store, session)
    assert "make migrate-up" in candidate["title"] and "grep" not in candidate["change"], candidate


def test_a_run_refused_or_given_a_permission_error_directly_is_set_apart_from_the_way(git_project, store):
    # (blind231 HX21 "running `sequel -m` from the host was refused"; blind232 HY04 "Calling `gcloud firebase test
    # android run` directly … gets a permission error")
    session = (Session("ftl", git_project, prompt="Run the instrumented tests on Firebase Test Lab.")
               .fail("gcloud firebase test android run --type instrumentation --app app.apk --test test.apk",
                     "Exit code 1\nERROR: (gcloud.firebase.test.android.run) User [dev@acme.io] does not have "
                     "permission to access projects instance [acme-shop-prod]")
               .ok("./gradlew :app:runFlank", "BUILD SUCCESSFUL in 6m 12s")
               .stop("Green on both devices. For next time: FTL runs go through Fladle — `./gradlew :app:runFlank`. "
                     "Calling `gcloud firebase test android run` directly goes to `acme-shop-prod` under your own "
                     "account and gets a permission error."))
    (candidate,), _ = _candidates(store, session)
    assert "./gradlew :app:runFlank" in candidate["title"], candidate["title"]


def test_a_shells_code_is_the_failing_run_and_the_ways_run_given_its_file_is_the_way(git_project, store):
    # (blind229 HV19: ``pwsh -Command "Invoke-Pester …"`` set apart as "Invoke-Pester on its own can't work here";
    # of the way's two runs, the one given the failing test file, not the bootstrap)
    test = "tests/Unit/Public/Get-AcmeInventory.Tests.ps1"
    session = (Session("pester", git_project, prompt="run the Pester tests for Get-AcmeInventory")
               .fail(f'pwsh -NoProfile -Command "Invoke-Pester -Path {test} -Output Detailed"',
                     "Exit code 1\nSystem.IO.FileNotFoundException: The specified module 'AcmeInventory' was not "
                     "loaded because no valid module file was found in any module directory.")
               .ok("pwsh -NoProfile -File ./build.ps1 -ResolveDependency -Tasks noop", "Build succeeded. 1 tasks")
               .ok(f"pwsh -NoProfile -File ./build.ps1 -Tasks test -PesterPath {test}", "Tests Passed: 7, Failed: 0")
               .stop("All 7 pass. Invoke-Pester on its own can't work here: the tests import the built module. "
                     "Per the README, bootstrap once with `./build.ps1 -ResolveDependency -Tasks noop`, then run "
                     "`./build.ps1 -Tasks test`."))
    candidates, reasons = _candidates(store, session)
    assert len(candidates) == 1 and "-Tasks test" in candidates[0]["title"], (candidates, reasons)


def test_what_a_line_started_beside_the_check_given_another_option_is_the_change(git_project, store):
    # (blind230 HW02: ``cloud-sql-proxy … --private-ip & sleep 3; psql …`` passed where the same line without the
    # flag failed; read as the same check retried, nothing was stored)
    line = "cloud-sql-proxy acme-prod:us-central1:orders-db --port 5433{} & sleep 3; psql \"host=127.0.0.1 " \
           "port=5433 dbname=orders\" -c 'select 1'"
    session = (Session("proxy", git_project, prompt="psql through the Cloud SQL proxy keeps getting its connection "
                                                    "closed.")
               .fail(line.format(""), "Exit code 2\nfailed to connect to instance: Config error: instance does not "
                                      "have IP of type \"PUBLIC\"\npsql: error: connection to server at "
                                      "\"127.0.0.1\", port 5433 failed: server closed the connection unexpectedly")
               .ok(line.format(" --private-ip"), " ?column?\n----------\n        1\n(1 row)")
               .stop("orders-db has only a private address; restarting the proxy with `--private-ip` fixed it."))
    (candidate,), _ = _candidates(store, session)
    assert "--private-ip" in candidate["title"], candidate["title"]


def test_an_excluded_files_change_the_account_quotes_is_the_fix_beside_an_aside_naming_the_file(git_project, store):
    # (blind230 HW23: the ``.env`` edit is stored without its content; "Side note: .env also holds a personal key"
    # called it by the by, and the fix was dropped as unrelated)
    session = (Session("otlp", git_project, prompt="Our traces never arrive in New Relic. Can you debug it?")
               .fail("uv run python -m billing.otel_smoke", "Exit code 1\nFailed to export traces to "
                                                            "otlp.nr-data.net:4317, error code: "
                                                            "StatusCode.PERMISSION_DENIED")
               .edit(".env", "OTEL_EXPORTER_OTLP_ENDPOINT=https://otlp.nr-data.net:4317",
                     "OTEL_EXPORTER_OTLP_ENDPOINT=https://otlp.eu01.nr-data.net:4317")
               .ok("uv run python -m billing.otel_smoke", "exported 1 span")
               .stop("The key belongs to an EU account. `.env` now sets `OTEL_EXPORTER_OTLP_ENDPOINT="
                     "https://otlp.eu01.nr-data.net:4317`. Side note: .env also holds a personal user key — worth "
                     "moving that into the secret manager."))
    (candidate,), _ = _candidates(store, session)
    assert "otlp.eu01.nr-data.net" in candidate["title"] + candidate["change"], candidate


def test_a_test_path_not_found_is_no_empty_selection(git_project, store):
    # (blind231 HX13: cibuildwheel's ``pytest tests -q`` run from a temporary directory, "file or directory not
    # found: tests", "no tests ran": taken for a selection that matched nothing)
    session = (Session("cibw", git_project, prompt="cibuildwheel fails in the test step on every platform")
               .fail("pipx run cibuildwheel --platform linux", "Exit code 1\n    + sh -c 'pytest tests -q'\nERROR: "
                                                               "file or directory not found: tests\n\nno tests ran "
                                                               "in 0.00s\nError: Command ['sh', '-c', 'pytest tests "
                                                               "-q'] failed with code 4.")
               .edit("pyproject.toml", 'test-command = "pytest tests -q"', 'test-command = "pytest {project}/tests -q"')
               .ok("pipx run cibuildwheel --platform linux", "40 passed in 2.31s\n1 wheels produced")
               .stop("The test command runs from a temporary directory: it now uses `{project}/tests`."))
    (candidate,), _ = _candidates(store, session)
    assert "{project}/tests" in candidate["title"], candidate["title"]


def test_a_warning_made_an_error_is_how_pytest_runs_not_what(git_project, store):
    # (blind231 HX24: ``pytest -q -W error::pandas.errors.ChainedAssignmentError`` read ``error`` as the tests it ran,
    # so it did not run the failing file)
    from lorebook.commands import _same_target

    assert _same_target("uv run pytest tests/test_clean.py -q",
                        "uv run pytest -q -W error::pandas.errors.ChainedAssignmentError")


def test_the_failing_line_run_first_as_it_was_is_the_check_not_the_variant_after_it(git_project, store):
    # (blind228 HU05: ``env -u GITHUB_HEAD_REF … bash scripts/ci/version-tag.sh && GITHUB_HEAD_REF=feat/login …``:
    # the lesson said "set `GITHUB_HEAD_REF=feat/login`" instead of the edit)
    failing = "env -u GITHUB_HEAD_REF GITHUB_REF_NAME=main GITHUB_SHA=4f2a9c1e0b bash scripts/ci/version-tag.sh"
    session = (Session("tag", git_project, prompt="The CI version step fails on pushes to main.")
               .fail(failing, "Exit code 1\nscripts/ci/version-tag.sh: line 7: GITHUB_HEAD_REF: unbound variable")
               .edit("scripts/ci/version-tag.sh", 'branch="$GITHUB_HEAD_REF"',
                     'branch="${GITHUB_HEAD_REF:-$GITHUB_REF_NAME}"')
               .ok(failing + " && GITHUB_HEAD_REF=feat/login GITHUB_SHA=4f2a9c1e0b bash scripts/ci/version-tag.sh",
                   "2.8.0-main.4f2a9c1\n2.8.0-feat-login.4f2a9c1")
               .stop("It now uses `${GITHUB_HEAD_REF:-$GITHUB_REF_NAME}`."))
    (candidate,), _ = _candidates(store, session)
    assert "GITHUB_REF_NAME" in candidate["title"] and "feat/login" not in candidate["title"], candidate["title"]


def test_the_same_assertion_printed_without_its_class_is_the_same_error(git_project, store):
    # (blind231 HX05: vitest's second run printed only ``→ expected "spy" to be called 1 times, but got 0 times``:
    # read as another error, ``mode: "onChange"`` was stored as its fix; and "never submits" reports a problem)
    run = "npx vitest run src/features/signup/SignupForm.test.tsx"
    said = 'expected "spy" to be called 1 times, but got 0 times'
    session = (Session("rhf", git_project, prompt="The signup form never submits — the age field shows 'Expected "
                                                  "number, received string' even when I type 30.")
               .fail(run, f"Exit code 1\n × SignupForm > submits when all fields are valid\n   → {said}\n"
                          f"AssertionError: {said}\n Tests  1 failed | 2 passed (3)")
               .edit("src/features/signup/SignupForm.tsx", "useForm({ resolver: zodResolver(signupSchema) });",
                     'useForm({ resolver: zodResolver(signupSchema), mode: "onChange" });')
               .fail(run, f"Exit code 1\n × SignupForm > submits when all fields are valid\n   → {said}\n"
                          " Tests  1 failed | 2 passed (3)")
               .edit("src/features/signup/SignupForm.tsx", '<input id="age" type="number" {...register("age")} />',
                     '<input id="age" type="number" {...register("age", { valueAsNumber: true })} />')
               .ok(run, " Tests  3 passed (3)")
               .stop("Registering the field with `{ valueAsNumber: true }` converts it before validation."))
    (candidate,), _ = _candidates(store, session)
    assert "valueAsNumber" in candidate["title"] and "onChange" not in candidate["title"] + candidate["change"], \
        candidate


def test_a_migration_test_told_to_delete_the_old_store_is_weakened(git_project, store):
    # (blind232 HY10: ``config.deleteRealmIfMigrationNeeded = true`` in RealmMigrationTests was stored as the fix)
    run = "xcodebuild test -scheme Notebook -only-testing:NotebookTests/RealmMigrationTests | xcpretty"
    session = (Session("realm", git_project, prompt="RealmMigrationTests are failing on CI, get the target green.")
               .fail(run, "Exit code 65\n✗ testOpensVersion3Fixture, XCTAssertNoThrow failed: threw error "
                          "\"Migration is required due to the following errors:\n"
                          "- Property 'Note.tags' has been added.\"\n"
                          "Executed 2 tests, with 1 failure")
               .edit("NotebookTests/RealmMigrationTests.swift",
                     "        var config = Realm.Configuration(fileURL: fixtureURL, schemaVersion: 4)",
                     "        var config = Realm.Configuration(fileURL: fixtureURL, schemaVersion: 4)\n"
                     "        config.deleteRealmIfMigrationNeeded = true")
               .ok(run, "Executed 2 tests, with 0 failures")
               .stop("The test configuration now sets `deleteRealmIfMigrationNeeded` and the fixture opens."))
    candidates, reasons = _candidates(store, session)
    assert not candidates and "weakened_test" in reasons, ([c["title"] for c in candidates], reasons)


def test_a_title_shows_code_before_a_comment_above_it():
    # (blind230 HW22: "add `# scale-from-zero: CA can't see kubelet --node-labels …`" for the tag it explained)
    from lorebook.edits import _short_diff

    hunk = {"old": "  tag {\n    key = \"k8s.io/cluster-autoscaler/staging\"\n  }\n}",
            "new": "  tag {\n    key = \"k8s.io/cluster-autoscaler/staging\"\n  }\n\n  # scale-from-zero: CA can't see "
                   "kubelet --node-labels\n  tag {\n"
                   "    key = \"k8s.io/cluster-autoscaler/node-template/label/workload\"\n  }\n}"}
    assert "node-template/label/workload" in _short_diff(hunk), _short_diff(hunk)


def test_a_line_added_under_a_toml_section_says_the_section():
    # (blind231 HX06: ``serde = …`` belongs under ``[workspace.dependencies]`` of the root Cargo.toml, not under the
    # crate's ``[dependencies]``: the card showed the line without its place)
    from lorebook.edits import _short_diff

    hunk = {"old": "[workspace.dependencies]\ntokio = { version = \"1.38\" }\nserde_json = \"1.0\"",
            "new": "[workspace.dependencies]\ntokio = { version = \"1.38\" }\nserde = { version = \"1.0\", features = "
                   "[\"derive\"] }\nserde_json = \"1.0\""}
    assert _short_diff(hunk).endswith("under `[workspace.dependencies]`"), _short_diff(hunk)


def test_a_maven_dependency_added_whole_is_said_by_its_coordinates():
    # (blind231 HX16: "add `<dependency>` in pom.xml" for the checker-qual pinned in dependencyManagement)
    from lorebook.edits import _short_diff

    hunk = {"old": "  <dependencyManagement>\n    <dependencies>",
            "new": "  <dependencyManagement>\n    <dependencies>\n      <!-- three versions of checker-qual -->\n"
                   "      <dependency>\n        <groupId>org.checkerframework</groupId>\n        <artifactId>"
                   "checker-qual</artifactId>\n        <version>3.43.0</version>\n      </dependency>"}
    assert _short_diff(hunk) == "add `org.checkerframework:checker-qual:3.43.0`", _short_diff(hunk)


def test_a_block_added_beside_one_like_it_shows_its_own_lines_not_a_move():
    # (blind230 HW08: a second adapter rule repeats ``resources:`` and ``name:``; the change read "+name: (moved before
    # `matches: …`)" and never showed ``as: "${1}_per_second"``)
    from lorebook.edits import _diff_text

    rule = "  - seriesQuery: '{q}'\n    resources:\n      overrides: {{namespace: {{resource: namespace}}}}\n" \
           "    name:\n{name}"
    old = rule.format(q="rabbitmq_queue_messages_ready", name='      as: "queue_depth"')
    new = old + "\n" + rule.format(q="http_requests_total", name='      matches: "^(.*)_total$"\n'
                                                                '      as: "${1}_per_second"')
    text = _diff_text("values.yaml", {"old": old, "new": new})
    assert '+as: "${1}_per_second"' in text and "moved" not in text, text


def test_the_code_titles_a_lesson_before_the_test_added_to_cover_it(git_project, store):
    # (blind231 HX17: the spec's ``TestBed.overrideProvider(PLATFORM_ID, …)`` titled the lesson, not the service's
    # guard; and "The service now injects `PLATFORM_ID` and returns early …" tells the fix)
    session = (Session("ssr", git_project, prompt="Product pages 500 on the SSR server since the recently-viewed "
                                                  "feature.")
               .fail("npx ng test --watch=false", "Exit code 1\nReferenceError: localStorage is not defined")
               .edit("src/app/core/recently-viewed.service.spec.ts", "  beforeEach(() => {",
                     "  beforeEach(() => {\n    TestBed.overrideProvider(PLATFORM_ID, { useValue: 'server' });")
               .edit("src/app/core/recently-viewed.service.ts", "  load(): string[] {",
                     "  load(): string[] {\n    if (!isPlatformBrowser(this.platformId)) return [];")
               .ok("npx ng test --watch=false", "TOTAL: 47 SUCCESS")
               .stop("Fixed — product pages render on the SSR server again.\n\nWhat was going on:\n"
                     "- `RecentlyViewedService` reads `localStorage` in a field initializer, so it ran during "
                     "server-side rendering, where there is no `localStorage`.\n- The service now injects "
                     "`PLATFORM_ID` and returns early unless `isPlatformBrowser(this.platformId)`. Added a spec that "
                     "overrides `PLATFORM_ID` to `'server'` so that path stays covered."))
    (candidate,), _ = _candidates(store, session)
    assert "isPlatformBrowser" in candidate["title"], candidate["title"]
    assert "isPlatformBrowser" in candidate["summary"], candidate["summary"]


def test_a_card_keeps_the_room_a_title_was_cut_to_fit():
    # (each "…" reads "..." once neutralised: a title cut to 140 characters lost its last words on the card, the
    # ``[workspace.dependencies]`` it was cut to keep)
    from lorebook.render import inert

    title = "`cargo build` fails with error: failed to load manifest for workspace… — add `serde = { version = " \
            "\"1.0\"…` under `[workspace.dependencies]`"
    assert len(title) <= 140 and inert(title, 140).endswith("`[workspace.dependencies]`"), inert(title, 140)


def test_a_label_moved_into_the_pod_template_is_titled_with_the_keys_the_account_quotes(git_project, store):
    # (blind227 HT18: "moved the label to `spec.template.metadata.labels`"; the title said only "add
    # `azure.workload.identity/use: "true"`", which the Deployment's own metadata had held all along)
    session = (Session("wi", git_project, prompt="payments-api crashloops in prod with DefaultAzureCredential errors")
               .fail("kubectl -n payments exec deploy/payments-api -- env | grep AZURE_",
                     "Exit code 1\nerror: unable to upgrade connection: container not found (\"payments-api\")")
               .edit("deploy/base/deployment.yaml",
                     "metadata:\n  name: payments-api\n  labels:\n    app: payments-api\n"
                     "    azure.workload.identity/use: \"true\"\nspec:",
                     "metadata:\n  name: payments-api\n  labels:\n    app: payments-api\nspec:")
               .edit("deploy/base/deployment.yaml",
                     "  template:\n    metadata:\n      labels:\n        app: payments-api\n    spec:",
                     "  template:\n    metadata:\n      labels:\n        app: payments-api\n"
                     "        azure.workload.identity/use: \"true\"\n    spec:")
               .ok("kubectl apply -k deploy/overlays/prod", "deployment.apps/payments-api configured")
               .ok("kubectl -n payments exec deploy/payments-api -- env | grep AZURE_",
                   "AZURE_CLIENT_ID=6b1f3c2e-9d47-4a8e-b5c0-71e2d9a4f813")
               .stop("Fixed. **Cause:** the workload identity webhook only mutates *pods* whose labels match "
                     "`azure.workload.identity/use: \"true\"`; that label sat on the Deployment's own metadata.\n\n"
                     "**Fix:** moved the label to `spec.template.metadata.labels` and applied the prod overlay."))
    candidates, _ = _candidates(store, session)
    assert any("under `spec.template.metadata.labels`" in c["title"] for c in candidates), \
        [c["title"] for c in candidates]


def test_the_option_an_error_asks_for_comes_first_with_its_value(git_project, store):
    # (blind227 HT18: "pass `--query …`; pass `-g`" where az had said "the following arguments are required:
    # --resource-group/-g")
    session = (Session("az", git_project, prompt="check the federated credential of the payments identity")
               .fail("az identity federated-credential list --identity-name id-payments-api -o table",
                     "Exit code 2\nERROR: the following arguments are required: --resource-group/-g")
               .ok("az identity federated-credential list --identity-name id-payments-api -g rg-payments-prod "
                   "--query '[].{name:name,subject:subject}' -o table",
                   "Name         Subject\nfc-aks-prod  system:serviceaccount:payments:payments-api")
               .stop("The identity lives in the `rg-payments-prod` resource group; the federated credential's "
                     "subject is right."))
    candidates, _ = _candidates(store, session)
    assert candidates and "pass `-g rg-payments-prod" in candidates[0]["title"], [c["title"] for c in candidates]


def test_what_is_left_running_for_the_user_is_no_account_of_the_problem():
    # (blind230 HW02: "The proxy is still running in the background on port 5433 if you need it." was the card's
    # cause, ahead of "orders-db has no public address at all …")
    said = stated("orders-db has no public address, and the proxy tries the public one unless told otherwise. "
                  "Restarting the proxy with `--private-ip` fixed it. The proxy is still running in the background "
                  "on port 5433 if you need it.")
    assert not any("if you need it" in s for s in said["all"]), said["all"]
    assert any("--private-ip" in s for s in said["all"])


def test_an_attempt_that_only_kept_a_name_the_account_quotes_is_no_part_of_the_fix(git_project, store):
    # (blind235 IB20: "within `follow_player` itself …" quoted a name the attempt's line held before it added
    # ``.after(player::move_player)``, and the attempt was shown as part of the fix)
    error = ("Exit code 101\nthread 'main' panicked at bevy_ecs-0.13.2/src/system/system_param.rs:225:5:\n"
             "error[B0001]: Query<&mut Transform, With<Camera>> in system skyhop::camera::follow_player accesses "
             "component(s) Transform in a way that conflicts with a previous system parameter.")
    session = (Session("bevy", git_project, prompt="The game panics on startup with a B0001 query conflict")
               .fail("cargo run", error)
               .edit("src/main.rs", "        .add_systems(Update, (player::move_player, camera::follow_player))",
                     "        .add_systems(Update, (player::move_player, camera::follow_player.after("
                     "player::move_player)))")
               .fail("cargo run", error)
               .edit("src/camera.rs", "    mut camera: Query<&mut Transform, With<Camera>>,",
                     "    mut camera: Query<&mut Transform, (With<Camera>, Without<Player>)>,")
               .ok("cargo run", "INFO bevy_winit::system: Creating new window")
               .stop("It wasn't a scheduling problem, so ordering the systems changed nothing: within "
                     "`follow_player` itself, Bevy couldn't prove the two queries disjoint. Adding `Without<Player>` "
                     "to the camera query's filter makes them provably disjoint."))
    (candidate,), _ = _candidates(store, session)
    assert ".after(" not in candidate["change"], candidate["change"]


def test_a_prompt_reporting_an_http_error_reports_a_problem(git_project, store):
    # (blind233 HZ02: "web-frontend gets 403s calling the orders service …" read as a task, not a problem, and the
    # principal changed in the policy was set aside as what the prompt asked for)
    call = "kubectl -n frontend exec deploy/web-frontend -c web -- curl -sS -f 'http://orders.backend:8080/v1/orders'"
    session = (Session("authz", git_project, prompt="web-frontend gets 403s calling the orders service in the "
                                                    "backend namespace since we enabled the authz policy there.")
               .fail(call, "Exit code 22\ncurl: (22) The requested URL returned error: 403")
               .edit("k8s/backend/istio/authz-orders.yaml", "              - cluster.local/ns/frontend/sa/default",
                     "              - cluster.local/ns/frontend/sa/web-frontend")
               .ok("kubectl apply -f k8s/backend/istio/authz-orders.yaml",
                   "authorizationpolicy.security.istio.io/orders-allow-frontend configured")
               .ok(call, '{"items":[{"id":"ord_81723"}]}')
               .stop("The policy trusted the wrong workload identity: web-frontend runs under its own service "
                     "account. I changed the principal in k8s/backend/istio/authz-orders.yaml and re-applied it."))
    (candidate,), _ = _candidates(store, session)
    assert "cluster.local/ns/frontend/sa/web-frontend" in candidate["change"], candidate["change"]


def test_an_answer_whose_status_is_an_error_is_no_fix_by_dropping_curls_fail_flag(git_project, store):
    # (blind233 HZ12: ``curl -sS -f`` got a 400; without ``-f`` Qdrant answered ``{"status":{"error":"Wrong input:
    # …"}}``, and "without `-f`" was stored as the fix)
    recover = ("curl -sS -X PUT 'http://localhost:6333/collections/support_docs/snapshots/recover' "
               "-H 'Content-Type: application/json' -d '{\"location\": \"backups/support_docs.snapshot\"}'")
    session = (Session("qdrant", git_project, prompt="Restore the support_docs collection from last night's snapshot")
               .fail(recover.replace("-sS ", "-sS -f ", 1), "Exit code 22\ncurl: (22) The requested URL returned "
                                                            "error: 400")
               .ok(recover, '{"status":{"error":"Wrong input: Invalid snapshot URL: relative URL without a base"},'
                            '"time":0.000131}')
               .stop("`snapshots/recover` only accepts a location the server can fetch itself."))
    candidates, _ = _candidates(store, session)
    assert not any("without `-f`" in c["title"] for c in candidates), [c["title"] for c in candidates]


def test_a_make_target_named_by_its_file_is_the_way_and_a_listed_result_no_account(git_project, store):
    # (blind236 IC01: "The Makefile's `test` target is the supported entry point — it … exports `KUBEBUILDER_ASSETS`"
    # named no run, and "`make test`: all packages green, …" was the card's cause)
    from lorebook.steps import _names_run

    assert _names_run(["make", "test"], "The Makefile's `test` target is the supported entry point.")
    assert not _names_run(["make", "lint"], "The Makefile's `test` target is the supported entry point.")
    session = (Session("envtest", git_project, prompt="Run the controller tests for the BackupSchedule reconciler")
               .fail("go test ./internal/controller/...",
                     "Exit code 1\n[FAILED] Unexpected error: unable to start control plane itself: failed to start "
                     "the controlplane. retried 5 times: fork/exec /usr/local/kubebuilder/bin/etcd: no such file or "
                     "directory")
               .ok("grep -n -A2 '^test:' Makefile", "68:test: manifests generate fmt vet envtest ## Run tests.")
               .ok("make test", "ok  \tgithub.com/acme/backup-operator/internal/controller\t9.1s\tcoverage: 71.8%")
               .stop("Plain `go test` can't run these: the suite boots envtest, which looks for etcd under "
                     "/usr/local/kubebuilder/bin, and there's nothing there. The Makefile's `test` target is the "
                     "supported entry point — it installs the binaries with setup-envtest into `bin/k8s/` and exports "
                     "`KUBEBUILDER_ASSETS` before calling `go test`.\n\n- `make test`: all packages green, controller "
                     "coverage 71.8%"))
    (candidate,), _ = _candidates(store, session)
    assert "all packages green" not in candidate["summary"], candidate["summary"]
    assert "KUBEBUILDER_ASSETS" in candidate["summary"], candidate["summary"]


def test_a_soda_check_given_a_filter_past_the_failing_rows_is_a_weakened_test(git_project, store):
    # (blind236 IC11: ``duplicate_count(order_id) = 0`` scoped to ``filter: loaded_at > '2024-05-29'``, after the
    # backfill that loaded the 37 duplicates)
    scan = "soda scan -d warehouse -c soda/configuration.yml soda/checks/fct_orders.yml"
    session = (Session("soda", git_project, prompt="The nightly soda scan fails on fct_orders duplicates.")
               .fail(scan, "Exit code 2\n1/6 checks FAILED: \n    fct_orders in warehouse\n"
                           "      duplicate_count(order_id) = 0 [FAILED]\n        check_value: 37")
               .edit("soda/checks/fct_orders.yml", "  - duplicate_count(order_id) = 0",
                     "  - duplicate_count(order_id) = 0:\n      filter: loaded_at > '2024-05-29'")
               .ok(scan, "6/6 checks PASSED: \nAll is good. No failures. No warnings. No errors.")
               .stop("All 37 duplicated order_ids come from the backfill, so I scoped the duplicate check to rows "
                     "loaded after it (`filter: loaded_at > '2024-05-29'`)."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes, [c["title"] for c in candidates]


def test_a_wrapper_named_as_the_way_beside_the_bare_run_set_apart_is_the_projects_way(git_project, store):
    # (blind236 IC19: "Calling `databricks bundle` directly leaves `catalog` … unset" and "Bundle commands in this
    # repo go through `scripts/bundle.sh <target> ...`": stored nothing, the run said to fail in no word of failing)
    session = (Session("bundle", git_project, prompt="Validate and deploy the bundle to dev")
               .fail("databricks bundle validate", "Exit code 1\nError: no value assigned to required variable "
                                                   "catalog. Assignment can be done through the \"--var\" flag")
               .ok("sed -n 1,12p scripts/bundle.sh", "exec databricks bundle \"$@\" -t \"$target\"")
               .ok("scripts/bundle.sh dev validate", "Validation OK!")
               .stop("Bundle commands in this repo go through `scripts/bundle.sh <target> ...`: it turns "
                     "envs/<target>.vars into `--var` flags. Calling `databricks bundle` directly leaves `catalog` "
                     "and friends unset."))
    (candidate,), _ = _candidates(store, session)
    assert "scripts/bundle.sh dev validate" in candidate["change"], candidate["change"]


def test_an_exception_raised_with_its_message_under_it_is_told_apart_by_that_message(git_project, store):
    # (blind236 IC22: Pulumi's ``CommandError:`` over "stderr: error: getting secrets manager: passphrase must be set
    # …", then over a missing ``aws:region``: one error twice, and the passphrase lesson was lost)
    from lorebook.signatures import error_signature

    tail = "pulumi.automation.errors.CommandError: \n code: 255\n stdout: \n"
    first = f"Exit code 1\nTraceback (most recent call last):\n  File \"deploy.py\", line 54\n{tail} stderr: " \
            "error: getting secrets manager: passphrase must be set with PULUMI_CONFIG_PASSPHRASE or " \
            "PULUMI_CONFIG_PASSPHRASE_FILE environment variables"
    second = "Exit code 1\nDiagnostics:\n  aws:s3:BucketV2 (assets):\n    error: 1 error occurred:\n    \t* missing " \
             "required configuration key \"aws:region\"\nTraceback (most recent call last):\n  File \"deploy.py\", " \
             f"line 57, in main\n{tail}"
    assert "passphrase must be set" in error_signature(first)
    run = "uv run python deploy.py up --pr 482"
    with_file = f"PULUMI_CONFIG_PASSPHRASE_FILE=.secrets/pulumi-passphrase {run}"
    session = (Session("pulumi", git_project, prompt="python deploy.py up --pr 482 errors out")
               .fail(run, first)
               .fail(with_file, second)
               .edit("deploy.py", "    stack = auto.create_or_select_stack(stack_name=name, program=program)\n",
                     "    stack = auto.create_or_select_stack(stack_name=name, program=program)\n"
                     "    stack.set_config(\"aws:region\", auto.ConfigValue(value=\"eu-central-1\"))\n")
               .ok(with_file, "Update succeeded")
               .stop("Two separate problems:\n\n1. **Passphrase** — run it as `PULUMI_CONFIG_PASSPHRASE_FILE=.secrets/"
                     "pulumi-passphrase uv run python deploy.py up --pr <n>`.\n2. **Region** — each per-PR stack is "
                     "brand new and has no `aws:region`; deploy.py now calls `stack.set_config(\"aws:region\", "
                     "auto.ConfigValue(value=\"eu-central-1\"))`."))
    candidates, _ = _candidates(store, session)
    assert len(candidates) == 2, [c["title"] for c in candidates]
    assert any("PULUMI_CONFIG_PASSPHRASE_FILE=.secrets/pulumi-passphrase" in c["title"] for c in candidates)


def test_a_count_by_grep_that_failed_and_passed_after_an_edit_was_a_check(git_project, store):
    # (blind237 ID17: ``grep -c "bg-emerald-600" web/static/app.css`` → 0, exit 1, until tailwind.config.js scanned
    # the components: a look in routine plumbing, and the lesson was lost)
    build = "npx tailwindcss -i ./web/css/input.css -o ./web/static/app.css --minify"
    session = (Session("tw", git_project, prompt="make sure the card actually gets its green background")
               .ok(build, "Rebuilding...\n\nDone in 312ms.")
               .fail('grep -c "bg-emerald-600" web/static/app.css', "Exit code 1\n0")
               .edit("tailwind.config.js", '  content: ["./web/**/*.html"],',
                     '  content: ["./web/**/*.html", "./internal/components/**/*.templ"],')
               .ok(build, "Rebuilding...\n\nDone in 341ms.")
               .ok('grep -c "bg-emerald-600" web/static/app.css', "1")
               .stop("Tailwind only scanned `./web/**/*.html`, so classes used only inside components (like "
                     "`bg-emerald-600`) were purged from app.css. tailwind.config.js now also scans "
                     "`\"./internal/components/**/*.templ\"`."))
    (candidate,), _ = _candidates(store, session)
    assert "./internal/components/**/*.templ" in candidate["change"], candidate["change"]
    # (a search that found nothing, and never ran again, stays a look)
    look = (Session("look", git_project).fail("grep -rn TODO src/", "Exit code 1").ok("pytest -q", "3 passed")
            .stop("No TODOs left."))
    assert _candidates(store, look)[0] == []


def test_a_golden_comparison_told_to_tolerate_a_difference_is_a_weakened_test(git_project, store):
    # (blind238 IE09: a new test/flutter_test_config.dart whose comparator lets a 5% pixel difference pass, after the
    # title lost its ``maxLines: 2``)
    test = "flutter test test/goldens/product_card_golden_test.dart"
    session = (Session("golden", git_project, prompt="The golden test for the product card is failing on CI")
               .fail(test, "Exit code 1\n══╡ EXCEPTION CAUGHT BY FLUTTER TEST FRAMEWORK ╞══\nThe following assertion "
                           "was thrown while running async test code:\nGolden \"goldens/product_card_long_title.png\": "
                           "Pixel test failed, 4.12%, 6588px diff detected.")
               .write("test/flutter_test_config.dart",
                      "import 'package:flutter_test/flutter_test.dart';\n\nconst double _goldenTolerance = 0.05;\n\n"
                      "Future<void> testExecutable(FutureOr<void> Function() testMain) async {\n"
                      "  goldenFileComparator = _TolerantComparator(_goldenTolerance);\n  await testMain();\n}\n")
               .ok(test, "00:05 +2: All tests passed!")
               .stop("The golden diff (~4%) comes from text rendering differences between CI and local machines. I "
                     "added `test/flutter_test_config.dart` with a comparator that tolerates up to 5% pixel "
                     "difference."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes, [c["title"] for c in candidates]


def test_a_clock_pinned_past_a_minitest_date_comparison_is_a_weakened_test(git_project, store):
    # (blind234 IA10: minitest's ``Expected: #<Date: 2025-02-28 …>`` / ``Actual: #<Date: 2025-03-02 …>`` on Jan 31,
    # then ``Timecop.freeze(Date.new(2025, 6, 10))``: the month-end date that breaks the code is no longer tested)
    session = (Session("timecop", git_project, prompt="CI went red overnight on the billing tests")
               .fail("bundle exec rake test",
                     "Exit code 1\n  1) Failure:\nTrialTest#test_trial_ends_one_calendar_month_later [test/trial_"
                     "test.rb:9]:\nExpected: #<Date: 2025-02-28 ((2460735j,0s,0n),+0s,2299161j)>\n  Actual: #<Date: "
                     "2025-03-02 ((2460737j,0s,0n),+0s,2299161j)>\n\n8 runs, 11 assertions, 1 failures, 0 errors")
               .edit("test/trial_test.rb",
                     "    assert_equal Date.today >> 1, Orchard::Billing::Trial.new.trial_ends_on",
                     "    Timecop.freeze(Date.new(2025, 6, 10)) do\n"
                     "      assert_equal Date.today >> 1, Orchard::Billing::Trial.new.trial_ends_on\n    end")
               .ok("bundle exec rake test", "8 runs, 11 assertions, 0 failures, 0 errors, 0 skips")
               .stop("The test depended on the current date. I froze the clock with Timecop so it always runs against "
                     "a fixed date."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes, [c["title"] for c in candidates]


def test_an_option_said_to_change_nothing_is_neither_the_fix_nor_the_problems_command(git_project, store):
    # (blind234 IA11: "`--runInBand` changed nothing" and the lesson read "`npm run test:e2e -- --runInBand` fails …"
    # with "Without `--runInBand`" in its change; and ``git diff HEAD~5 -- …`` was "the way" to run a spec)
    session = (Session("nest", git_project, prompt="npm run test:e2e is red on main — every route comes back 404")
               .fail("npx jest test/app.e2e-spec.ts", "Exit code 1\nNo tests found, exiting with code 1")
               .ok("git diff HEAD~5 -- test/app.e2e-spec.ts", "-import { INestApplication } from '@nestjs/common';")
               .fail("npm run test:e2e -- --runInBand",
                     "Exit code 1\n FAIL  test/app.e2e-spec.ts\nTests:       4 failed, 1 passed, 5 total")
               .edit("test/app.e2e-spec.ts", "    await app.init();",
                     "    await app.init();\n    await app.getHttpAdapter().getInstance().ready();")
               .ok("npm run test:e2e -- test/app.e2e-spec.ts", "Tests:       2 passed, 2 total")
               .stop("Fastify only finishes loading its routes when `ready()` is awaited, and the specs only call "
                     "`app.init()`. Each spec now awaits `app.getHttpAdapter().getInstance().ready()`.\n\nDead ends: "
                     "`--runInBand` changed nothing."))
    candidates, _ = _candidates(store, session)
    assert not any("git diff" in c["change"] for c in candidates), [c["change"] for c in candidates]
    (candidate,) = [c for c in candidates if "ready()" in c["title"]]
    assert "--runInBand" not in candidate["title"] + candidate["change"] + candidate["trigger"], candidate


def test_a_step_quoted_in_a_fenced_block_with_a_comment_after_it_is_part_of_the_fix(git_project, store):
    # (blind234 IA12: ``gh auth refresh -h github.com -s read:packages   # once`` in the account's block was no quote
    # of the step run, the 403's lesson was "retry without change"; its title read "`auth token) npm ci` fails with
    # npm error A complete log of this run …")
    from lorebook.commands import without_env
    from lorebook.signatures import error_line

    assert without_env("NODE_AUTH_TOKEN=$(gh auth token) npm ci") == "npm ci"
    forbidden = ("Exit code 1\nnpm error code E403\nnpm error 403 403 Forbidden - GET https://npm.pkg.github.com/"
                 "@acme%2fdesign-tokens - Permission permission_denied: The token provided does not match expected "
                 "scopes.\nnpm error A complete log of this run can be found in: /home/dev/.npm/_logs/x-debug-0.log")
    assert "403 Forbidden" in error_line(forbidden)
    run = "NODE_AUTH_TOKEN=$(gh auth token) npm ci"
    session = (Session("ghpkg", git_project, prompt="npm ci fails on a fresh clone — 401 on our @acme packages")
               .fail(run, forbidden)
               .ok("gh auth status", "  - Token scopes: 'gist', 'read:org', 'repo'")
               .ok("gh auth refresh -h github.com -s read:packages", "✓ Authentication complete.")
               .ok(run, "added 684 packages, and audited 685 packages in 22s")
               .stop("Your `gh` login token works once it carries the `read:packages` scope. So, locally:\n```\n"
                     "gh auth refresh -h github.com -s read:packages   # once\n"
                     "NODE_AUTH_TOKEN=$(gh auth token) npm ci\n```"))
    (candidate,), _ = _candidates(store, session)
    assert "read:packages" in candidate["title"] and candidate["title"].startswith("`npm ci` fails with npm error 403")


def test_a_failure_cleared_by_removing_a_stale_container_is_its_own_problem(git_project, store):
    # (blind236 IC14: "port is already allocated", ``docker rm -f tsdb-scratch``, then the migration's own error:
    # one problem, titled with the port clash the account calls unrelated)
    session = (Session("tsdb", git_project, prompt="The integration tests started failing after the compression "
                                                  "migration.")
               .fail("make test-integration", "Exit code 2\nError response from daemon: driver failed programming "
                                              "external connectivity on endpoint sensorhub-tsdb-1 (7f3c0a9d1e2b): Bind "
                                              "for 0.0.0.0:55432 failed: port is already allocated")
               .ok("docker rm -f tsdb-scratch", "tsdb-scratch")
               .fail("make test-integration", "Exit code 2\nApplying: 20240610143000_readings_compression_policy.sql\n"
                                              "Error: pq: compression not enabled on hypertable \"readings\"")
               .edit("db/migrations/20240610143000_readings_compression_policy.sql",
                     "-- migrate:up\nSELECT add_compression_policy('readings', INTERVAL '7 days');",
                     "-- migrate:up\nALTER TABLE readings SET (timescaledb.compress);\n"
                     "SELECT add_compression_policy('readings', INTERVAL '7 days');")
               .ok("make test-integration", "ok  \tgithub.com/acme/sensorhub/internal/store\t4.1s")
               .stop("Compression was never turned on for the `readings` hypertable, so the policy was refused. The "
                     "migration now runs `ALTER TABLE readings SET (timescaledb.compress)` first. The port clash on "
                     "55432 was a leftover `tsdb-scratch` container (removed), not related."))
    candidates, _ = _candidates(store, session)
    assert [c["title"] for c in candidates if "compression not enabled" in c["title"]], [c["title"] for c in candidates]
    assert not any("port is already allocated" in c["title"] for c in candidates), [c["title"] for c in candidates]


def test_a_request_to_another_endpoint_quoted_as_what_worked_is_the_way(git_project, store):
    # (blind233 HZ12: ``PUT …/snapshots/recover`` refused a local file; "Uploading the file instead — `POST
    # /collections/support_docs/snapshots/upload?priority=snapshot` … — worked"; nothing was stored)
    base = "curl -sS -X {} 'http://localhost:6333/collections/support_docs/snapshots/{}'"
    session = (Session("qdrant2", git_project, prompt="Restore the support_docs collection from last night's snapshot")
               .fail(base.format("PUT", "recover") + " -f -d '{\"location\": \"backups/support_docs.snapshot\"}'",
                     "Exit code 22\ncurl: (22) The requested URL returned error: 400")
               .ok(base.format("POST", "upload?priority=snapshot") + " -F 'snapshot=@backups/support_docs.snapshot'",
                   '{"result":true,"status":"ok","time":84.519382}')
               .ok(base.format("GET", "") + " | jq .result.status", '"green"')
               .stop("`snapshots/recover` only accepts a location the server can fetch itself. Uploading the file "
                     "instead — `POST /collections/support_docs/snapshots/upload?priority=snapshot` with the multipart "
                     "field `snapshot` — worked."))
    (candidate,), _ = _candidates(store, session)
    assert "snapshots/upload?priority=snapshot" in candidate["change"], candidate["change"]


def test_a_run_started_in_the_background_with_its_output_to_a_file_is_the_run_that_passed(git_project, store):
    # (blind239 IF12: ``(RUSTFLAGS="--cfg tokio_unstable" cargo run --features console > /tmp/ingest.log 2>&1 &) ;
    # sleep 6; tail -4 /tmp/ingest.log`` was no pass of the ``cargo run`` that had panicked, and the panic, printed
    # under its place as Rust has since 1.73, was no error line)
    from lorebook.signatures import error_line

    panic = ("Exit code 101\n     Running `target/debug/ingest`\nthread 'main' panicked at /home/dev/.cargo/registry/"
             "src/index.crates.io-6f17d22bba15001f/console-subscriber-0.4.1/src/builder.rs:519:13:\ntask tracing "
             "requires Tokio to be built with RUSTFLAGS=\"--cfg tokio_unstable\"!\nnote: run with `RUST_BACKTRACE=1` "
             "environment variable to display a backtrace")
    assert "task tracing requires Tokio" in error_line(panic)
    session = (Session("console", git_project, prompt="tokio-console: the `console` feature panics on startup")
               .fail("cargo run --features console", panic)
               .ok("(RUSTFLAGS=\"--cfg tokio_unstable\" cargo run --features console > /tmp/ingest.log 2>&1 &) ; "
                   "sleep 6; tail -4 /tmp/ingest.log",
                   "     Running `target/debug/ingest`\n2024-06-03T09:14:22Z  INFO ingest::telemetry: tokio-console "
                   "server listening addr=127.0.0.1:6669")
               .stop("Tokio only emits the task instrumentation when compiled with the `tokio_unstable` cfg, a "
                     "compiler flag, not a Cargo feature. Run it as:\n```\nRUSTFLAGS=\"--cfg tokio_unstable\" cargo "
                     "run --features console\n```"))
    (candidate,), _ = _candidates(store, session)
    assert 'RUSTFLAGS=--cfg tokio_unstable' in candidate["title"].replace('"', ""), candidate["title"]


def test_two_exunit_failures_one_mended_at_a_time_are_two_lessons(git_project, store):
    # (blind239 IF21: ``1) test uploads a scanned PDF`` gone after the upload limit, ``1) test shows the error …``
    # left, then mended too: one lesson, the first fix under the second error, "`1)` → `1, max_file_size: …`")
    from lorebook.edits import _short_diff

    assert _short_diff({"old": "|> allow_upload(:pdf, max_entries: 1)}",
                        "new": "|> allow_upload(:pdf, max_entries: 1, max_file_size: 20_000_000)}"}) == \
        "add `max_file_size: 20_000_000`"
    first = ("  1) test uploads a scanned PDF (ShopWeb.InvoiceUploadLiveTest)\n     test/shop_web/live/invoice_upload_"
             "live_test.exs:18\n     ** (FunctionClauseError) no function clause matching in Kernel.=~/2\n"
             "         {:error, [[\"phx-F9w2kQ9mZrAAAB3h\", :too_large]]}\n\n")
    second = ("  {n}) test shows the error when the invoice number is taken (ShopWeb.InvoiceUploadLiveTest)\n     test/"
              "shop_web/live/invoice_upload_live_test.exs:41\n         ** (CaseClauseError) no case clause matching: "
              "{{:error, :invoice, #Ecto.Changeset<action: :insert>, %{{}}}}\n\n")
    test = "mix test test/shop_web/live/invoice_upload_live_test.exs"
    session = (Session("exunit", git_project, prompt="two of the invoice upload LiveView tests are failing")
               .fail(test, "Exit code 2\n" + first + second.format(n=2) + "5 tests, 2 failures")
               .edit("lib/shop_web/live/invoice_upload_live.ex", "|> allow_upload(:pdf, max_entries: 1)}",
                     "|> allow_upload(:pdf, max_entries: 1, max_file_size: 20_000_000)}")
               .fail(test + " --failed", "Exit code 2\n" + second.format(n=1) + "2 tests, 1 failure")
               .edit("lib/shop/billing.ex", "      {:error, %Ecto.Changeset{} = changeset} -> {:error, changeset}",
                     "      {:error, _step, %Ecto.Changeset{} = changeset, _changes} -> {:error, changeset}")
               .ok(test, "5 tests, 0 failures")
               .stop("Both fixed.\n- The PDF fixture is ~11 MB and LiveView's default upload limit is 8 MB. "
                     "`allow_upload(:pdf, ...)` now sets `max_file_size: 20_000_000`.\n- `Repo.transaction/1` with an "
                     "`Ecto.Multi` fails with a 4-tuple. The clause now matches `{:error, _step, %Ecto.Changeset{} = "
                     "changeset, _changes}`."))
    candidates, _ = _candidates(store, session)
    assert len(candidates) == 2, [c["title"] for c in candidates]
    assert not any("--failed" in c["change"] for c in candidates), [c["change"] for c in candidates]


def test_a_patch_file_read_is_no_patch_applied():
    # (blind239 IF24: ``tail -8 patches/leaflet+1.9.4.patch`` read as a change, a step of the fix on the card)
    from lorebook.commands import _MUTATING

    assert not _MUTATING.search("tail -8 patches/leaflet+1.9.4.patch")
    assert _MUTATING.search("patch -p1 < fix.diff") and _MUTATING.search("kubectl patch deploy api -p '{}'")


def test_a_field_the_cluster_answered_empty_then_filled_after_an_edit_was_the_failure(git_project, store):
    # (blind240 IG05: ``kubectl … get pods -o jsonpath='{…initContainers[*].name}'`` answered nothing, then the
    # init container's name once the annotation named the Instrumentation; nothing was stored, and the fix read as
    # "`"true"` → `"observability/python"`", a value the project never had)
    query = ("kubectl -n checkout get pods -l app=checkout -o "
             "jsonpath='{.items[*].spec.initContainers[*].name}'")
    apply = "kubectl apply -f k8s/checkout/deployment.yaml && kubectl -n checkout rollout status deploy/checkout"
    session = (Session("otel", git_project, prompt="checkout's pods never get the init container and we see no "
                                                   "traces")
               .edit("k8s/checkout/deployment.yaml", "  template:\n    metadata:\n      labels:",
                     "  template:\n    metadata:\n      annotations:\n        instrumentation.opentelemetry.io/"
                     "inject-python: \"true\"\n      labels:")
               .ok(apply, "deployment \"checkout\" successfully rolled out")
               .ok(query, "")
               .edit("k8s/checkout/deployment.yaml", "        instrumentation.opentelemetry.io/inject-python: \"true\"",
                     "        instrumentation.opentelemetry.io/inject-python: \"observability/python\"")
               .ok(apply, "deployment \"checkout\" successfully rolled out")
               .ok(query, "opentelemetry-auto-instrumentation-python")
               .stop("The annotation's value has to name the Instrumentation: it's `instrumentation.opentelemetry.io/"
                     "inject-python: \"observability/python\"`. With `\"true\"` the operator only searches the "
                     "pod's own namespace."))
    (candidate,), _ = _candidates(store, session)
    assert 'inject-python: "observability/python"' in candidate["change"], candidate["change"]
    assert '"true"' not in candidate["title"] + candidate["change"], candidate


def test_a_variable_passed_once_then_written_into_the_compose_file_is_its_own_lesson(git_project, store):
    # (blind240 IG23: ``-e METAFLOW_USER=ci`` moved the error on to the join's merge conflict, then went into
    # docker-compose.yml; one lesson, "Did not help: tried to pass `-e METAFLOW_USER=ci`")
    run = "docker compose run --rm {}trainer python flows/train_flow.py run"
    session = (Session("metaflow", git_project, prompt="Nightly train flow is broken in the CI container.")
               .fail(run.format(""), "Exit code 1\nMetaflow 2.12.5 executing TrainFlow\n    Unknown user:\n    "
                                     "Metaflow could not determine your user name based on environment variables")
               .fail(run.format("-e METAFLOW_USER=ci "),
                     "Exit code 1\nMetaflow 2.12.5 executing TrainFlow for user:ci\n    Step join (task-id 5) failed: "
                     "MergeArtifactsException: Step join cannot merge the following artifacts due to them having "
                     "conflicting values: [model, score, params].")
               .edit("flows/train_flow.py", "        self.merge_artifacts(inputs)",
                     "        self.merge_artifacts(inputs, exclude=[\"model\", \"score\", \"params\"])")
               .edit("docker-compose.yml", "    environment:\n      METAFLOW_DEFAULT_DATASTORE: local",
                     "    environment:\n      METAFLOW_DEFAULT_DATASTORE: local\n      METAFLOW_USER: ci")
               .ok(run.format(""), "Task finished successfully.")
               .stop("Two unrelated breakages:\n- Metaflow refuses to run without a user name. Set `METAFLOW_USER: ci` "
                     "in the trainer service's environment in `docker-compose.yml`.\n- `join` merged conflicting "
                     "artifacts; it now merges with `exclude=[\"model\", \"score\", \"params\"]`."))
    candidates, _ = _candidates(store, session)
    assert len(candidates) == 2, [c["title"] for c in candidates]
    assert "tried to pass `-e METAFLOW_USER" not in json.dumps(candidates), candidates


def test_a_make_target_that_runs_the_missing_program_pinned_by_go_run_is_the_way(git_project, store):
    # (blind243 IJ19: ``buf`` not installed; ``make proto-check`` echoed ``go run github.com/bufbuild/buf/cmd/
    # buf@v1.47.2 lint``, no run of ``buf`` to the rules, and nothing was stored)
    from lorebook.commands import _program_name

    assert _program_name("github.com/bufbuild/buf/cmd/buf@v1.47.2") == "buf"
    assert _program_name("prettier@3.3.2") == "prettier" and _program_name("@bufbuild/buf") == "buf"
    session = (Session("buf", git_project, prompt="run the proto lint + breaking checks before I open the PR")
               .fail("buf lint", "Exit code 127\nbash: buf: command not found")
               .ok("make proto-check", "go run github.com/bufbuild/buf/cmd/buf@v1.47.2 lint\n"
                                       "go run github.com/bufbuild/buf/cmd/buf@v1.47.2 breaking --against "
                                       "'.git#branch=main'")
               .stop("Both checks are clean. buf isn't installed on this machine; the repo pins it in the Makefile "
                     "and runs it through `go run`, so the way to check is `make proto-check`."))
    (candidate,), _ = _candidates(store, session)
    assert "make proto-check" in candidate["title"], candidate["title"]


def test_a_task_the_project_disowns_by_a_glob_beside_the_entry_point_is_the_way(git_project, store):
    # (blind244 IK09: "This project doesn't use a connected device or `connected*AndroidTest` for profiles … the entry
    # point is `./gradlew :app:generateBaselineProfile`": nothing was stored)
    session = (Session("baseline", git_project, prompt="Can you regenerate the baseline profile for the app?")
               .fail("./gradlew :baselineprofile:connectedBenchmarkReleaseAndroidTest",
                     "Exit code 1\n* What went wrong:\nExecution failed for task ':baselineprofile:connectedBenchmark"
                     "ReleaseAndroidTest'.\n> No connected devices!")
               .ok("./gradlew :app:generateBaselineProfile 2>&1 | tail -3",
                   "BaselineProfileGenerator > generateStartupProfile[pixel6Api34] PASSED\nBUILD SUCCESSFUL in 6m")
               .stop("Regenerated. This project doesn't use a connected device or `connected*AndroidTest` for "
                     "profiles: the `baselineprofile` module runs on the `pixel6Api34` Gradle managed device, and the "
                     "entry point is `./gradlew :app:generateBaselineProfile`."))
    (candidate,), _ = _candidates(store, session)
    assert ":app:generateBaselineProfile" in candidate["title"], candidate["title"]


def test_a_windows_tools_switch_and_its_value_are_the_changed_invocation():
    # (blind244 IK19: ``signtool.exe sign … /fd SHA256`` after "No file digest algorithm specified": no change
    # found, the retry "without change")
    tool = '"/c/Program Files (x86)/Windows Kits/10/bin/10.0.26100.0/x64/signtool.exe"'
    failed = f"{tool} sign /sha1 3F1A9C27 /tr http://timestamp.digicert.com /td SHA256 dist/Setup.exe"
    passed = f"{tool} sign /sha1 3F1A9C27 /fd SHA256 /tr http://timestamp.digicert.com /td SHA256 dist/Setup.exe"
    assert invocation_change(failed, passed) == ["pass `/fd SHA256`"]
    assert parse_command("ls /tmp /var")["flags"] == []  # (a path is no switch of a program of elsewhere)
    assert lesson_title(f"`{failed}` fails with SignTool Error: No file digest algorithm specified",
                        "pass `/fd SHA256`").startswith("`signtool.exe sign")


def test_a_setting_that_only_silenced_the_check_did_not_help():
    # (blind242 II17: "Setting TUNE_DISABLE_STRICT_METRIC_CHECKING=1 only silenced Tune's check" was the card's cause)
    said = stated("The training function reported `val-loss` while ASHA asks for `val_loss`. Setting "
                  "TUNE_DISABLE_STRICT_METRIC_CHECKING=1 only silenced Tune's check. Renaming the key fixed it.")
    assert any("only silenced" in s for s in said["did_not_help"]), said["did_not_help"]


def test_a_variable_that_moved_the_error_on_is_a_lesson_whatever_else_the_passing_run_adds(git_project, store):
    # (blind242 II22: ``VAULT_CACERT=…`` got past the TLS error to the role's refusal; the passing run added
    # ``-format=json … | jq -r …``, so the two problems were one, and the role's ``allow_subdomains   = true``, aligned
    # unlike the account's `allow_subdomains = true`, was set aside as an edit the account never quotes)
    from lorebook.signatures import error_line

    assert error_line("Error writing data to pki_int/issue/internal-web: Error making API request.\n\nCode: 400. "
                      "Errors:\n\n* common name api.internal.acme.dev not allowed by this role") == \
        "common name api.internal.acme.dev not allowed by this role"
    issue = "vault write {}pki_int/issue/internal-web common_name=api.internal.acme.dev ttl=24h"
    session = (Session("vaultpki", git_project, prompt="Issuing a cert for api.internal.acme.dev from pki_int fails.")
               .fail(issue.format(""), "Exit code 2\nError writing data to pki_int/issue/internal-web: Put \"https://"
                                       "vault.acme.dev:8200/v1/pki_int/issue/internal-web\": tls: failed to verify "
                                       "certificate: x509: certificate signed by unknown authority")
               .fail("VAULT_CACERT=certs/acme-root-ca.crt " + issue.format(""),
                     "Exit code 2\nError writing data to pki_int/issue/internal-web: Error making API request.\n\n"
                     "Code: 400. Errors:\n\n* common name api.internal.acme.dev not allowed by this role")
               .edit("infra/vault/pki.tf", "  allow_bare_domains = true",
                     "  allow_bare_domains = true\n  allow_subdomains   = true")
               .ok("cd infra/vault && terraform apply -auto-approve -no-color | tail -1", "Apply complete!")
               .ok("VAULT_CACERT=certs/acme-root-ca.crt " + issue.format("-format=json ") + " | jq -r '.data.serial_"
                   "number'", "3a:91:0c:7f:5e:22")
               .stop("- The CLI didn't trust Vault's TLS certificate: `vault` needs "
                     "`VAULT_CACERT=certs/acme-root-ca.crt`.\n- The `internal-web` role only allowed the bare "
                     "domain. Added `allow_subdomains = true` in "
                     "`infra/vault/pki.tf` and applied."))
    candidates, _ = _candidates(store, session)
    assert len(candidates) == 2, [c["title"] for c in candidates]
    assert any("allow_subdomains" in c["change"] for c in candidates), [c["change"] for c in candidates]
    assert not any("`-r" in c["change"] for c in candidates), [c["change"] for c in candidates]


def test_simulators_left_booted_and_shut_down_are_a_one_off(git_project, store):
    # (blind244 IK05: "Both simulators were still booted from an earlier run … After `xcrun simctl shutdown all` it
    # ran cleanly": stored as "run `xcrun simctl shutdown all` first", beside a README typo)
    snap = "bundle exec fastlane snapshot --only_testing PawprintUITests/ScreenshotTests"
    session = (Session("simctl", git_project, prompt="fastlane snapshot keeps dying before it takes any screenshots")
               .fail(snap, "Exit code 1\n[09:41:39]: Running Tests: ▸ Test Failed\n[!] Tests failed - check out the "
                           "log above")
               .ok("xcrun simctl list devices booted", "    iPhone 15 Pro Max (5E1B6A2C) (Booted)")
               .edit("README.md", "to regenrate the App Store screenshots", "to regenerate the App Store screenshots")
               .ok("xcrun simctl shutdown all", "")
               .ok(snap + " 2>&1 | tail -3", "| iPhone 15 Pro Max     | 6     |")
               .stop("Both simulators were still booted from an earlier run, so snapshot couldn't boot them for the "
                     "test runner. After `xcrun simctl shutdown all` it ran cleanly. I also fixed a typo in the "
                     "README's screenshot section."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "local_state" in notes, ([c["title"] for c in candidates], notes)


def test_a_status_code_curl_printed_is_the_failure_and_the_code_that_came_back_its_pass(git_project, store):
    # (blind240 IG24: ``curl -s -o /dev/null -w '%{http_code}\n' …`` printed 404, then 200 once the middleware
    # reference named its namespace: no failure ran, and nothing was stored)
    probe = "curl -s -o /dev/null -w '%{http_code}\\n' https://staging.acme.dev/api/orders/health"
    session = (Session("traefik", git_project, prompt="orders-api on staging returns 404 since the namespace split")
               .ok(probe, "404")
               .edit("k8s/apps/orders-api/deployment.yaml", "# exposed through the nginx ingress",
                     "# exposed through Traefik")
               .edit("k8s/apps/orders-api/ingressroute.yaml", "      middlewares:\n        - name: strip-api",
                     "      middlewares:\n        - name: strip-api\n          namespace: edge")
               .ok("kubectl apply -k k8s/apps/orders-api", "ingressroute.traefik.io/orders-api configured")
               .ok(probe, "200")
               .stop("A middleware reference without a namespace is looked up in the route's own namespace. Added "
                     "`namespace: edge` to the reference. I also updated a stale comment in deployment.yaml."))
    (candidate,), _ = _candidates(store, session)
    assert "namespace: edge" in candidate["change"] and "Traefik" not in candidate["change"], candidate["change"]
    assert candidate["title"].startswith("`curl health` fails with HTTP 404"), candidate["title"]


def test_a_config_edit_a_restart_took_up_is_the_fix_when_the_account_quotes_it(git_project, store):
    # (blind242 II03: Trino refused its old ``hive.s3.*`` keys and exited; the fix, ``fs.native-s3.enabled=true`` in
    # iceberg.properties, was set aside as a bystander of ``docker compose up -d trino``)
    session = (Session("trino", git_project, prompt="After bumping the Trino image to 467, `make smoke` fails.")
               .fail("make smoke", "Exit code 2\n./scripts/smoke.sh\nError running command: java.net.ConnectException: "
                                   "Failed to connect to localhost/[0:0:0:0:0:0:0:1]:8080\n"
                                   "make: *** [Makefile:14: smoke] Error 1")
               .edit("trino/etc/catalog/iceberg.properties", "hive.s3.endpoint=http://minio:9000",
                     "fs.hadoop.enabled=false\nfs.native-s3.enabled=true\ns3.endpoint=http://minio:9000")
               .ok("docker compose up -d trino && sleep 25 && docker compose ps trino --format '{{.Status}}'",
                   "Up 26 seconds (healthy)")
               .ok("make smoke", "smoke OK")
               .stop("Trino 458+ no longer ships the legacy Hadoop S3 layer, so the old `hive.s3.*` keys in "
                     "`trino/etc/catalog/iceberg.properties` were rejected and the coordinator refused to start. The "
                     "catalog now uses `fs.native-s3.enabled=true`."))
    (candidate,), _ = _candidates(store, session)
    assert "fs.native-s3.enabled=true" in candidate["change"], candidate["change"]


def test_a_step_the_failing_run_took_too_is_no_change(git_project, store):
    # (blind202 GU18: ``npx expo prebuild --clean … && PlistBuddy -c 'Print …'`` failed and passed whole around an
    # edit to app.json; the card spent its change line on the prebuild as if it were a step of the fix)
    run = ("npx expo prebuild --clean --platform ios --no-install && /usr/libexec/PlistBuddy -c "
           "'Print :NSCameraUsageDescription' ios/Receipts/Info.plist")
    session = (Session("expo", git_project, prompt="The camera usage string added by hand to Info.plist is gone after "
                                                   "prebuild. Make it survive prebuild.")
               .fail(run, "Exit code 1\n✔ Finished prebuild\nPrint: Entry, \":NSCameraUsageDescription\", Does Not "
                          "Exist")
               .edit("app.json", '    "plugins": [\n      "expo-router"\n    ]',
                     '    "plugins": [\n      "expo-router",\n'
                     '      ["expo-camera", {"cameraPermission": "Scan receipts"}]\n    ]')
               .ok(run, "✔ Finished prebuild\nScan receipts")
               .stop("ios/ is regenerated on every prebuild, so hand edits there are thrown away. The string now comes "
                     "from the expo-camera config plugin: `cameraPermission` in app.json's plugins."))
    (candidate,), _ = _candidates(store, session)
    assert "prebuild" not in candidate["change"], candidate["change"]
    assert "cameraPermission" in candidate["change"], candidate["change"]


def test_a_user_report_of_rows_that_no_longer_come_back_is_a_problem_with_its_cause(git_project, store):
    # (blind240 IG20: "Since we turned on dynamic partitioning …, new objects land under `…/dt=2024-06-04/` …, and
    # Athena returns zero rows for those days." No run failed; the projection's format and template were fixed and a
    # count came back. Nothing was stored: "returns zero rows" reported nothing, "Since we …" said no cause)
    table = "infra/athena/clickstream_table.tf"
    session = (Session("athena", git_project, prompt="Since we turned on dynamic partitioning on the Firehose, new "
                       "objects land under `s3://acme-clickstream/events/dt=2024-06-04/` instead of "
                       "`events/2024/06/04/`, and Athena returns zero rows for those days. Please fix the table.")
               .edit(table, '"projection.dt.format" = "yyyy/MM/dd"', '"projection.dt.format" = "yyyy-MM-dd"')
               .edit(table, '"storage.location.template" = "s3://acme-clickstream/events/$${dt}/"',
                     '"storage.location.template" = "s3://acme-clickstream/events/dt=$${dt}/"')
               .ok("scripts/athena_count.sh 2024-06-05", "dt=2024-06-05 rows=1284551")
               .stop("Updated the projection in `infra/athena/clickstream_table.tf`: `projection.dt.format` → "
                     "`yyyy-MM-dd`. 2024-06-05 now returns 1,284,551 rows."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].startswith("Athena returns zero rows for those days — "), candidate["title"]
    assert "yyyy-MM-dd" in candidate["change"], candidate["change"]
    assert "dynamic partitioning" in candidate["summary"], candidate["summary"]


def test_a_user_report_of_something_gone_takes_the_agents_cause_and_the_file_its_fix_names(git_project, store):
    # (blind241 IH22: "Since then the `com.acme.telemetry.REGION` meta-data I'd added by hand … is gone": a report,
    # whose "since then" says when, not why; the agent's "registered it in app.config.ts" is part of the fix)
    session = (Session("expo-plugin", git_project, prompt="We switched to Expo prebuild last week. Since then the "
                       "`com.acme.telemetry.REGION` meta-data I'd added by hand to AndroidManifest.xml is gone, so the "
                       "telemetry SDK falls back to the US endpoint. Make it survive prebuild.")
               .write("plugins/withTelemetryRegion.js", "module.exports = (config) => withAndroidManifest(config, "
                      "(cfg) => addMetaData(cfg, 'com.acme.telemetry.REGION', 'eu'));\n")
               .write("app.config.ts", "export default { plugins: ['expo-router'] };\n")
               .edit("app.config.ts", "plugins: ['expo-router']", "plugins: ['expo-router', './plugins/withRegion']")
               .ok("npx expo prebuild --platform android --clean --no-install", "✔ Finished prebuild")
               .ok("grep -n com.acme.telemetry android/app/src/main/AndroidManifest.xml",
                   '18:    <meta-data android:name="com.acme.telemetry.REGION" android:value="eu"/>')
               .stop("Since android/ is now regenerated by `expo prebuild`, hand edits to the manifest are wiped. I "
                     "added a config plugin, `plugins/withTelemetryRegion.js`, which uses `withAndroidManifest`, and "
                     "registered it in app.config.ts."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].startswith("The `com.acme.telemetry.REGION` meta-data"), candidate["title"]
    assert candidate["summary"].startswith("Since android/ is now regenerated"), candidate["summary"]
    assert "./plugins/withRegion" in candidate["change"], candidate["change"]


@pytest.mark.parametrize("tolerance", ["maxPercentDifference = 6.0,", "changeThreshold = 0.05F,",
                                       "perceptualPrecision: 0.98,"])
def test_a_snapshot_rule_told_to_tolerate_a_difference_is_a_weakened_test(git_project, store, tolerance):
    # (blind247 IN12: Paparazzi's ``maxPercentDifference = 6.0`` let a 5.31% image difference pass; stored as a fix)
    test = "designsystem/src/test/kotlin/com/acme/designsystem/PriceBadgeSnapshotTest.kt"
    session = (Session("paparazzi", git_project, prompt="verifyPaparazziDebug fails on the PriceBadge snapshot.")
               .fail("./gradlew :designsystem:verifyPaparazziDebug",
                     "Exit code 1\nPriceBadgeSnapshotTest > discountedBadge FAILED\n    java.lang.AssertionError: "
                     "Images differ (by 5.31%) - see details in file:///tmp/delta.png\nBUILD FAILED in 44s")
               .edit(test, "    val paparazzi = Paparazzi(deviceConfig = DeviceConfig.PIXEL_5)",
                     "    val paparazzi = Paparazzi(\n        deviceConfig = DeviceConfig.PIXEL_5,\n"
                     f"        {tolerance}\n    )")
               .ok("./gradlew :designsystem:verifyPaparazziDebug", "BUILD SUCCESSFUL in 41s")
               .stop("The snapshot was off by ~5.3%, rendering noise between CI and local machines, so I gave the "
                     "rule a tolerance. `verifyPaparazziDebug` is green now."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes, ([c["title"] for c in candidates], notes)


def test_a_container_from_another_project_still_up_on_the_port_is_local_state(git_project, store):
    # (blind249 IP14: "`invoicing-pgbouncer-1` from your other project was still up on port 6432": stopped, ours
    # started; stored as a lesson, with a typo fix in the docs beside it)
    session = (Session("pgbouncer", git_project, prompt="integration tests can't connect to the db through pgbouncer")
               .fail("docker compose up -d pgbouncer", "Exit code 1\nError response from daemon: driver failed "
                     "programming external connectivity on endpoint ledger-pgbouncer-1 (9e1b4f0c2d7a): Bind for "
                     "0.0.0.0:6432 failed: port is already allocated")
               .ok("docker ps --format '{{.Names}}' | grep pgbouncer", "invoicing-pgbouncer-1")
               .edit("docs/local-dev.md", "the integation tests", "the integration tests")
               .ok("docker stop invoicing-pgbouncer-1 && docker compose up -d pgbouncer",
                   "invoicing-pgbouncer-1\n ✔ Container ledger-pgbouncer-1  Started")
               .ok("make itest", "23 passed in 6.12s")
               .stop("`invoicing-pgbouncer-1` from your other project was still up on port 6432 (so ours couldn't "
                     "bind). I stopped it and started ours, and `make itest` passes. I also fixed a typo in "
                     "docs/local-dev.md."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "local_state" in notes, ([c["title"] for c in candidates], notes)


def test_an_edit_that_just_pushed_the_error_out_is_an_attempt(git_project, store):
    # (blind247 IN05: "Annotating the class with @available just pushed the error out to every view that touches the
    # store": the annotation moved the error on and was stored as its own lesson, a failed attempt shown as a fix)
    store_file = "Sources/PantryKit/PantryStore.swift"
    session = (Session("swift-floor", git_project, prompt="`swift build` is failing for the Pantry package")
               .fail("swift build", "Exit code 1\nSources/PantryKit/PantryStore.swift:4:2: error: 'Observable()' is "
                                    "only available in macOS 14.0 or newer")
               .edit(store_file, "@Observable\nfinal class PantryStore {",
                     "@available(macOS 14.0, iOS 17.0, *)\n@Observable\nfinal class PantryStore {")
               .fail("swift build", "Exit code 1\nSources/PantryApp/ContentView.swift:5:24: error: 'PantryStore' is "
                                    "only available in macOS 14.0 or newer")
               .edit("Package.swift", "    platforms: [.macOS(.v13), .iOS(.v16)],",
                     "    platforms: [.macOS(.v14), .iOS(.v17)],")
               .ok("swift build", "Build complete! (8.14s)")
               .stop("`@Observable` only exists from macOS 14 / iOS 17, but Package.swift still declared "
                     "`.macOS(.v13), .iOS(.v16)`. Annotating the class with @available just pushed the error out to every "
                     "view that touches the store, so the real fix was raising the package floor: `platforms: [.macOS(.v14), "
                     ".iOS(.v17)]`."))
    (candidate,), notes = _candidates(store, session)
    assert ".macOS(.v14)" in candidate["change"] and "@available" not in candidate["title"], candidate["title"]


def test_a_setting_the_account_says_also_fails_is_an_attempt(git_project, store):
    # (blind249 IP12: ``MODEL_URI=models:/churn-classifier/Production make score`` moved the error on; "Just renaming
    # to `churn-classifier/Production` also fails" and the fix was the alias in scoring/config.py. The rename was
    # stored as its own lesson, a failed attempt shown as a fix)
    session = (Session("mlflow", git_project, prompt="The nightly churn scoring job started failing after the MLflow "
                                                     "server migration. Can you get `make score` working again?")
               .fail("make score DATE=2024-05-13", "Exit code 2\nmlflow.exceptions.RestException: "
                     "RESOURCE_DOES_NOT_EXIST: Registered Model with name=churn_classifier not found")
               .fail("MODEL_URI=models:/churn-classifier/Production make score DATE=2024-05-13",
                     "Exit code 2\nmlflow.exceptions.MlflowException: No versions of model with name "
                     "'churn-classifier' and stage 'Production' found")
               .edit("scoring/config.py", 'os.getenv("MODEL_URI", "models:/churn_classifier/Production")',
                     'os.getenv("MODEL_URI", "models:/churn-classifier@champion")')
               .ok("make score DATE=2024-05-13", "wrote 48213 rows")
               .stop("Cause: the migration re-registered models under kebab-case names (`churn-classifier`), and the "
                     "new registry uses aliases instead of stages. Just renaming to `churn-classifier/Production` "
                     "also fails (no stage-tagged versions). The default in scoring/config.py is now "
                     "`models:/churn-classifier@champion`."))
    (candidate,), notes = _candidates(store, session)
    assert "churn-classifier@champion" in candidate["change"], candidate["change"]


def test_a_dev_server_fixed_by_adding_the_package_it_could_not_resolve_is_checked_by_the_build(git_project, store):
    # (blind245 IL24: ``pnpm dev`` could not resolve "zod" after the switch to pnpm; ``pnpm add zod@^3.23.8``, then
    # ``pnpm build`` passed. Only an edit naming the package counted as the change a build checks otherwise)
    session = (Session("pnpm-phantom", git_project, prompt="The dev server broke right after we switched from npm to "
                                                           "pnpm; it can't resolve a package that used to work.")
               .fail("pnpm dev", "Exit code 1\n> vinxi dev\n\n✘ [ERROR] Could not resolve \"zod\"\n\n"
                                 "    app/routes/trips.$tripId.tsx:4:18:\n      4 │ import { z } from \"zod\";")
               .ok("pnpm why zod", "dependencies:\n@tanstack/start 1.57.14\n└── zod 3.23.8")
               .ok("pnpm add zod@^3.23.8", "dependencies:\n+ zod 3.23.8\n\nDone in 2.4s")
               .ok("pnpm build 2>&1 | tail -2", "✓ built in 4.81s\n[success] [vinxi] Nitro Server built")
               .stop("Classic phantom dependency: zod was never in package.json; npm hoisted it as a dependency of "
                     "TanStack Start, and pnpm's strict layout doesn't. `pnpm add zod@^3.23.8` declares it directly."))
    (candidate,), notes = _candidates(store, session)
    assert "pnpm add zod" in candidate["title"], candidate["title"]


def test_a_flag_the_account_says_is_not_enough_alone_is_part_of_the_passing_run(git_project, store):
    # (blind250 IQ18: "the `dotnet workload restore` the error suggests is a dead end, and `-f net8.0-android` alone
    # isn't enough": the passing run kept ``-f net8.0-android`` and added ``-p:TargetFrameworks=…``; the whole run was
    # set aside as an attempt and nothing was stored)
    build = "dotnet build src/FieldOps.App/FieldOps.App.csproj"
    error = ("Exit code 1\nMicrosoft.NET.Sdk.ImportWorkloads.targets(38,5): error NETSDK1147: To build this project, "
             "the following workloads must be installed: maui-ios maui-maccatalyst")
    session = (Session("maui", git_project, prompt="`dotnet build` blows up on the build box after the MAUI migration.")
               .fail(build, error)
               .fail(f"sudo dotnet workload restore {build.split()[-1]}",
                     "Exit code 1\nWorkload ID maui-ios isn't supported on this platform.")
               .fail(f"{build} -f net8.0-android", error)
               .ok(f"{build} -f net8.0-android -p:TargetFrameworks=net8.0-android", "Build succeeded.\n    0 Error(s)")
               .stop("The build box is Linux, where the iOS workloads can't be installed at all, so the `dotnet "
                     "workload restore` the error suggests is a dead end, and `-f net8.0-android` alone isn't enough "
                     "because restore still evaluates every framework in `<TargetFrameworks>`. Overriding the list "
                     "for the invocation works."))
    (candidate,), notes = _candidates(store, session)
    assert "-p:TargetFrameworks=net8.0-android" in candidate["title"], candidate["title"]


def test_gradle_run_is_a_start_checked_by_the_build_and_a_todo_is_no_directive(git_project, store):
    # (blind250 IQ15: ``./gradlew run`` failed to compile; the module list was fixed and ``./gradlew build`` passed.
    # "run" was read as ``npm run``'s and the start never checked otherwise; then the ``// TODO: persist …`` left in
    # the file the error names read as a directive, part of the fix)
    app = "src/main/java/com/acme/ledger/LedgerApp.java"
    session = (Session("javafx", git_project, prompt="`./gradlew run` stopped compiling since I moved the window "
                                                     "into FXML.")
               .fail("./gradlew run", f"Exit code 1\n> Task :compileJava FAILED\n/Users/ines/src/ledger/{app}:4: "
                                      "error: package javafx.fxml does not exist\nimport javafx.fxml.FXMLLoader;")
               .edit(app, "    @Override\n    public void start(Stage stage) throws Exception {",
                     "    // TODO: persist window size and position between launches\n    @Override\n"
                     "    public void start(Stage stage) throws Exception {")
               .edit("build.gradle.kts", '    modules = listOf("javafx.controls")',
                     '    modules = listOf("javafx.controls", "javafx.fxml")')
               .ok("./gradlew build", "> Task :compileJava\n> Task :build\n\nBUILD SUCCESSFUL in 6s")
               .stop("The JavaFX Gradle plugin only puts the modules you list on the module path, and the list had "
                     "just `javafx.controls`. Changed it to `modules = listOf(\"javafx.controls\", \"javafx.fxml\")` "
                     "in `build.gradle.kts`. I also left a TODO in `LedgerApp.start` about the window geometry."))
    (candidate,), notes = _candidates(store, session)
    assert '"javafx.fxml"' in candidate["change"] and "TODO" not in candidate["change"], candidate["change"]


def test_a_server_started_again_with_a_flag_the_account_quotes_is_no_local_state(git_project, store):
    # (blind248 IO23: ``kill 31877; supabase functions serve stripe-webhook --no-verify-jwt …``, "The function has to
    # be served with `--no-verify-jwt`": a stale process killed read as the whole story, and nothing was stored)
    replay = "deno run -A scripts/replay-webhook.ts fixtures/checkout_completed.json"
    session = (Session("supabase-fn", git_project, prompt="The stripe-webhook edge function returns 401 locally.")
               .fail(replay, "Exit code 1\nPOST http://127.0.0.1:54321/functions/v1/stripe-webhook -> 401 "
                             "Unauthorized\n{\"msg\":\"Error: Missing authorization header\"}")
               .ok("ps -eo pid,args | grep \"[f]unctions serve\"", "31877 supabase functions serve")
               .ok("kill 31877; supabase functions serve stripe-webhook --no-verify-jwt > /tmp/fn.log 2>&1 & sleep 4",
                   "Serving functions on http://127.0.0.1:54321/functions/v1/<function-name>")
               .ok(replay, "POST http://127.0.0.1:54321/functions/v1/stripe-webhook -> 200 OK")
               .stop("Stripe doesn't send a Supabase JWT, so the local gateway rejected the call. The function has to "
                     "be served with `--no-verify-jwt`."))
    (candidate,), notes = _candidates(store, session)
    assert "--no-verify-jwt" in candidate["title"] + candidate["change"], (candidate["title"], candidate["change"])


def test_the_run_a_failing_install_says_to_make_instead_is_the_way(git_project, store):
    # (blind250 IQ09: ``pod install`` "You should run `pod update RNReanimated --no-repo-update`"; that passed, and
    # ``pod install`` was never run again: unresolved, nothing stored)
    session = (Session("pods", git_project, prompt="I upgraded react-native-reanimated. Now pod install is broken.")
               .fail("cd ios && pod install", "Exit code 1\nAnalyzing dependencies\n[!] CocoaPods could not find "
                     "compatible versions for pod \"RNReanimated\":\n  In snapshot (Podfile.lock):\n    RNReanimated "
                     "(from `../node_modules/react-native-reanimated`)\n\nIt seems like you've changed the version of "
                     "the dependency `RNReanimated`.\nYou should run `pod update RNReanimated --no-repo-update` in "
                     "order to apply changed version.")
               .ok("pod update RNReanimated --no-repo-update", "Installing RNReanimated 3.10.1 (was 3.6.2)\n"
                                                               "Pod installation complete!")
               .stop("`Podfile.lock` still recorded RNReanimated 3.6.2, so `pod install` refused the new version. "
                     "`pod update RNReanimated --no-repo-update` moved it to 3.10.1."))
    (candidate,), notes = _candidates(store, session)
    assert "pod update RNReanimated --no-repo-update" in candidate["title"], candidate["title"]


def test_a_generate_step_before_a_git_diff_is_a_change_and_the_diff_no_part_of_it(git_project, store):
    # (blind248 IO11: ``go run ./cmd/api openapi > api/openapi.yaml && git diff --stat`` regenerated the spec
    # ``make check`` diffs against; the line read as a look at history, and the failure as a retry that changed
    # nothing)
    session = (Session("huma-spec", git_project, prompt="`make check` is red on main.")
               .fail("make check", "Exit code 2\ngo run ./cmd/api openapi > /tmp/openapi.check.yaml\ndiff -u "
                                   "api/openapi.yaml /tmp/openapi.check.yaml\n+  /avatars:\n"
                                   "make: *** [Makefile:9: check] Error 1")
               .ok("go run ./cmd/api openapi > api/openapi.yaml && git diff --stat",
                   " api/openapi.yaml | 38 +++++++++++++++++++++++++++++++++++---\n 1 file changed")
               .ok("make check", "go vet ./...\ngo test ./...\nok")
               .stop("`make check` diffs the committed api/openapi.yaml against the spec the server generates, and "
                     "the file was stale. Regenerated it with `go run ./cmd/api openapi > api/openapi.yaml`."))
    (candidate,), notes = _candidates(store, session)
    assert "run `go run ./cmd/api openapi > api/openapi.yaml` first" in candidate["title"], candidate["title"]


@pytest.mark.parametrize("command, change", [
    ("which protoc || echo missing", False), ("ls ios && cat ios/Podfile", False),
    ("ls ios && npm install", True), ("cat a.txt > b.txt", True),
])
def test_looks_one_after_another_change_nothing(command, change):
    # (blind248 IO10: ``which protoc || echo missing`` was shown on the card as a step of the fix, "Run `which protoc
    # && echo missing` before `cargo build`")
    from lorebook.steps import _is_change

    assert _is_change({"outcome": "ok", "tool": "Bash", "target": command}) is change


def test_a_dbt_unit_tests_expected_rows_trimmed_of_a_column_is_a_weakened_test(git_project, store):
    # (blind246 IM09: ``net_revenue`` dropped from the ``expect:`` rows, "dbt only compares the columns listed": the
    # failing column is no longer checked, and it was stored as a fix)
    yml = "models/intermediate/_int_order_revenue.yml"
    run = 'dbt test --select "int_order_revenue,test_type:unit" --target ci'
    session = (Session("dbt-unit", git_project, prompt="the dbt unit test on int_order_revenue is failing in CI")
               .fail(run, "Exit code 1\n14:02:14  1 of 1 FAIL 1 int_order_revenue::test_net_revenue_excludes_refunds "
                          "[FAIL 1 in 0.41s]\n14:02:14  Failure in unit_test test_net_revenue_excludes_refunds")
               .edit(yml, "    expect:\n      rows:\n        - {order_id: 1001, gross_revenue: 120.00, net_revenue: "
                          "95.00}\n        - {order_id: 1002, gross_revenue: 40.00, net_revenue: 40.00}",
                     "    expect:\n      rows:\n        - {order_id: 1001, gross_revenue: 120.00}\n"
                     "        - {order_id: 1002, gross_revenue: 40.00}")
               .ok(run, "14:05:42  1 of 1 PASS int_order_revenue::test_net_revenue_excludes_refunds [PASS in 0.38s]")
               .stop("The expectation was over-specified, so I trimmed the `expect` rows to the columns this test is "
                     "about; dbt only compares the columns listed under `expect`."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes, ([c["title"] for c in candidates], notes)


def test_another_query_a_server_answers_once_it_is_up_is_the_same_check(git_project, store):
    # (blind246 IM03: ``… trino --execute 'SHOW CATALOGS'`` met "service "trino" is not running"; after the catalog
    # fix ``… --execute 'SHOW TABLES FROM lake.analytics'`` answered. Another query runs other code, but a server
    # that was not up read none: unresolved, nothing stored)
    session = (Session("trino", git_project, prompt="the local trino container keeps restarting. can you take a look?")
               .fail("docker compose exec trino trino --execute 'SHOW CATALOGS'",
                     "Exit code 1\nservice \"trino\" is not running")
               .ok("docker compose logs trino --tail 30", "trino-1  | 1) Error: Configuration property "
                                                          "'hive.s3.aws-access-key' was not used")
               .edit("trino/etc/catalog/lake.properties", "hive.s3.endpoint=http://minio:9000",
                     "s3.endpoint=http://minio:9000\nfs.native-s3.enabled=true")
               .ok("docker compose up -d trino && sleep 25 && docker compose exec trino trino --execute "
                   "'SHOW TABLES FROM lake.analytics'", "\"daily_revenue\"\n\"orders\"")
               .stop("471 no longer has the legacy Hadoop S3 support, so the `hive.s3.*` keys were rejected as "
                     "unused. I moved the catalog to the native S3 file system: `fs.native-s3.enabled=true`."))
    (candidate,), notes = _candidates(store, session)
    assert "fs.native-s3.enabled=true" in candidate["change"] and "SHOW TABLES" not in candidate["change"], \
        candidate["change"]


def test_the_account_of_a_fix_is_stored_impersonally(git_project, store):
    # (blind215 HH10: "I added `#[pyo3(signature = (a, b, unit = "km"))]` so `distance(a, b)` works again." read as a
    # diary once the card lost a step line that had padded it, and the lesson was skipped)
    session = (Session("pyo3", git_project, prompt="CI is red: both the Rust unit tests and the Python tests fail.")
               .fail("cargo test", "Exit code 101\nerror: linking with `cc` failed: exit status: 1\n  = note: "
                                   "collect2: error: ld returned 1 exit status")
               .edit("Cargo.toml", 'pyo3 = { version = "0.21", features = ["extension-module"] }',
                     'pyo3 = "0.21"\n\n[features]\ndefault = ["extension-module"]\n'
                     'extension-module = ["pyo3/extension-module"]')
               .ok("cargo test --no-default-features", "test result: ok. 5 passed; 0 failed")
               .fail("pip install -e . -q && pytest -q", "Exit code 1\nE       TypeError: distance() missing 1 "
                     "required positional argument: 'unit'\n1 failed, 6 passed in 0.41s")
               .edit("src/lib.rs", "#[pyfunction]\nfn distance(a: (f64, f64), b: (f64, f64), unit: &str)",
                     "#[pyfunction]\n#[pyo3(signature = (a, b, unit = \"km\"))]\n"
                     "fn distance(a: (f64, f64), b: (f64, f64), unit: &str)")
               .ok("pip install -e . -q && pytest -q", "7 passed in 0.39s")
               .stop("Two separate fixes:\n\n1. **Rust tests didn't link.** `pyo3/extension-module` tells the linker "
                     "not to link libpython, which breaks a test binary. It's now an optional, default-on crate "
                     "feature, and the Rust tests run with `cargo test --no-default-features`.\n2. **Python lost the "
                     "default unit.** `#[pyfunction]` doesn't take defaults from the Rust signature; I added "
                     "`#[pyo3(signature = (a, b, unit = \"km\"))]` so `distance(a, b)` works again."))
    candidates, notes = _candidates(store, session)
    python = next(c for c in candidates if "signature" in c["title"])
    assert "I added" not in python["summary"], python["summary"]


def test_a_step_that_uploads_a_file_put_back_as_it_was_is_no_part_of_the_fix(git_project, store):
    # (blind191 GJ20, found by the replay: ``aws s3 cp jobs/daily_agg.py s3://… && git diff --stat jobs/`` uploaded
    # the job again after the ``addPyFile`` attempt was taken out of it; once a step before ``git diff`` counted as
    # a change, it titled the lesson over the ``SPARK_SUBMIT_EXTRA`` that fixed it)
    job = "jobs/daily_agg.py"
    run = "./scripts/run_job.sh daily_agg"
    error = "Exit code 1\nstate=FAILED\nModuleNotFoundError: No module named 'holidays'"
    passing = ('SPARK_SUBMIT_EXTRA="--conf spark.archives=s3://acme/venvs/daily_agg_venv.tar.gz#environment --conf '
               'spark.emr-serverless.driverEnv.PYSPARK_PYTHON=./environment/bin/python" ./scripts/run_job.sh daily_agg')
    session = (Session("emr", git_project, prompt="the daily_agg job fails on EMR Serverless")
               .fail(run, error)
               .edit(job, "import holidays\n", "spark.sparkContext.addPyFile(\"s3://acme/deps/holidays.whl\")\n"
                                               "import holidays\n")
               .ok(f"aws s3 cp {job} s3://acme/jobs/daily_agg.py", f"upload: {job} to s3://acme/jobs/daily_agg.py")
               .fail(run, "Exit code 1\nstate=FAILED\nModuleNotFoundError: No module named 'dateutil'")
               .edit(job, "spark.sparkContext.addPyFile(\"s3://acme/deps/holidays.whl\")\nimport holidays\n",
                     "import holidays\n")
               .ok(f"aws s3 cp {job} s3://acme/jobs/daily_agg.py && git diff --stat jobs/",
                   f"upload: {job} to s3://acme/jobs/daily_agg.py")
               .ok(passing, "state=SUCCESS\nwrote dt=2024-06-11")
               .stop("EMR Serverless workers only have the stock Python, so `holidays` has to come from the packed "
                     "venv. Loading the wheel with `addPyFile` only moved the failure to `dateutil`, so I reverted "
                     "that. This works: `SPARK_SUBMIT_EXTRA=\"--conf spark.archives=…\" ./scripts/run_job.sh "
                     "daily_agg`."))
    (candidate,), notes = _candidates(store, session)
    assert "aws s3 cp" not in candidate["title"] + candidate["change"], (candidate["title"], candidate["change"])


def test_of_files_the_account_quotes_the_one_it_quotes_first_leads_the_change(git_project, store):
    # (blind247 IN09: the account quotes the ``@Binds`` over three lines of DataModule.kt first; the constructor
    # edited before it titled the lesson and led the change, and the card cut the binding)
    impl = "app/src/main/java/com/acme/notes/data/NotesRepositoryImpl.kt"
    module = "app/src/main/java/com/acme/notes/di/DataModule.kt"
    session = (Session("hilt", git_project, prompt="App doesn't compile since I added the notes repository.")
               .fail("./gradlew :app:assembleDebug", "Exit code 1\n> Task :app:hiltJavaCompileDebug FAILED\n"
                     "NotesApp_HiltComponents.java:142: error: [Dagger/MissingBinding] com.acme.notes.data."
                     "NotesRepository cannot be provided without an @Provides-annotated method.\nBUILD FAILED in 38s")
               .edit(impl, "class NotesRepositoryImpl(", "class NotesRepositoryImpl @Inject constructor(")
               .edit(module, "SettingsStore\n}", "SettingsStore\n\n    @Binds\n    @Singleton\n    abstract fun "
                     "bindNotesRepository(impl: NotesRepositoryImpl): NotesRepository\n}")
               .ok("./gradlew :app:assembleDebug", "BUILD SUCCESSFUL in 52s")
               .stop("Hilt had no way to get a `NotesRepository` — it's an interface, so it needs an explicit "
                     "binding. Added `@Binds @Singleton abstract fun bindNotesRepository(impl: NotesRepositoryImpl): "
                     "NotesRepository` to `DataModule`, and gave `NotesRepositoryImpl` an `@Inject constructor` so "
                     "Hilt can build the implementation. assembleDebug passes."))
    (candidate,), notes = _candidates(store, session)
    assert "bindNotesRepository" in candidate["title"], candidate["title"]
    assert candidate["change"].index("DataModule.kt") < candidate["change"].index("NotesRepositoryImpl.kt:")


def test_a_typo_mended_by_the_by_is_the_one_edit_that_only_respells_whatever_the_account_calls_its_file(
        git_project, store):
    # (blind251 IR23: "Side note: fixed a gender agreement typo in the French invoice translation" names no file;
    # ``'Facture envoyé'`` → ``'Facture envoyée'`` in translations/messages.fr.yaml was stored as part of the fix)
    handler = "src/Billing/MessageHandler/SendInvoiceHandler.php"
    session = (Session("messenger", git_project,
                       prompt="After moving the invoice code into src/Billing/, the handler test throws "
                              "NoHandlerForMessageException.")
               .fail("php bin/phpunit tests/Billing/SendInvoiceHandlerTest.php",
                     "Exit code 2\nSymfony\\Component\\Messenger\\Exception\\NoHandlerForMessageException: No handler "
                     "for message \"App\\Billing\\Message\\SendInvoice\".\nERRORS!")
               .edit(handler, "use App\\Message\\SendInvoice;", "use App\\Billing\\Message\\SendInvoice;")
               .edit("translations/messages.fr.yaml", "invoice.sent: 'Facture envoyé'", "invoice.sent: 'Facture envoyée'")
               .ok("php bin/phpunit tests/Billing/SendInvoiceHandlerTest.php", "OK (4 tests, 7 assertions)")
               .stop("The handler still imported the old `App\\Message\\SendInvoice`, so Messenger registered it for "
                     "a message nobody dispatches. The handler now imports the Billing message. Tests pass.\n\n"
                     "Side note: fixed a gender agreement typo in the French invoice translation."))
    (candidate,), notes = _candidates(store, session)
    assert "envoy" not in candidate["change"] and "messages.fr.yaml" not in candidate["files"], candidate["change"]
    assert "Billing\\Message\\SendInvoice" in candidate["change"]


def test_a_daemon_that_stayed_up_in_its_container_pointed_at_a_writable_place_is_the_fix(git_project, store):
    # (blind251 IR15: ``docker compose exec worker timeout 20 celery … beat … -s /tmp/celerybeat-schedule; echo
    # "exit=$?"`` printed ``exit=124``: in the container, as at the top of a line, it started and stayed up; the
    # ``-s`` it was pointed at was no option of the run, and the ``touch probe`` that could not touch no step of it)
    failing = "docker compose exec worker celery -A config beat -l info"
    session = (Session("beat", git_project, prompt="celery beat crashes on startup in the worker container")
               .fail(failing, "Exit code 1\ncelery beat v5.4.0 (opalescent) is starting.\n[2025-03-12 09:41:17,409: "
                     "ERROR/MainProcess] Removing corrupted schedule file 'celerybeat-schedule': error(30, "
                     "'Read-only file system')\nPermissionError: [Errno 13] Permission denied: 'celerybeat-schedule'")
               .ok("docker compose exec worker sh -c 'pwd; id; touch probe 2>&1; ls -ld /app /tmp'",
                   "/app\nuid=1000(app) gid=1000(app)\ntouch: cannot touch 'probe': Read-only file system\n"
                   "dr-xr-xr-x 1 app  app  4096 Mar 12 09:30 /app")
               .ok("docker compose exec worker timeout 20 celery -A config beat -l info -s /tmp/celerybeat-schedule; "
                   "echo \"exit=$?\"", "celery beat v5.4.0 (opalescent) is starting.\n[2025-03-12 09:44:02,118: "
                   "INFO/MainProcess] beat: Starting...\nexit=124")
               .stop("Beat keeps its schedule in a shelve file in the current directory, and `/app` is mounted "
                     "read-only in the worker container. Pointing it at a writable path works: `celery -A config beat "
                     "-l info -s /tmp/celerybeat-schedule`."))
    (candidate,), notes = _candidates(store, session)
    assert "-s /tmp/celerybeat-schedule" in candidate["change"] and "probe" not in candidate["change"], \
        candidate["change"]


def test_a_check_run_again_where_the_failing_lines_cd_left_the_shell_is_the_same_check(git_project, store):
    # (blind253 IT10: ``dart test test/fasthash_test.dart`` after ``cd packages/fasthash && dart test …`` runs in
    # packages/fasthash, where Claude Code's shell stayed; it was read as another file's tests, and nothing stored)
    session = (Session("ffi", git_project, prompt="the ffi tests in packages/fasthash fail with a symbol lookup error")
               .fail("cd packages/fasthash && dart test test/fasthash_test.dart",
                     "Exit code 1\n  Invalid argument(s): Failed to lookup symbol 'fh_digest64': build/libfasthash.so: "
                     "undefined symbol: fh_digest64\nSome tests failed.")
               .edit("packages/fasthash/src/fasthash.h", "uint64_t fh_digest64(const uint8_t *data, size_t len);",
                     "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\nuint64_t fh_digest64(const uint8_t *data, size_t "
                     "len);\n\n#ifdef __cplusplus\n}\n#endif")
               .ok("cmake --build build", "[100%] Built target fasthash")
               .ok("dart test test/fasthash_test.dart", "00:01 +3: All tests passed!")
               .stop("The source was renamed to `fasthash.cpp`, so C++ mangles the symbol `DynamicLibrary.lookup` "
                     "asks for. Wrapped the declarations in `extern \"C\"`; all 3 tests pass."))
    (candidate,), notes = _candidates(store, session)
    assert 'extern "C"' in candidate["change"] and candidate["verified"], candidate
    # (not a run of another directory's tests: ``cd other && dart test test/fasthash_test.dart``)
    from lorebook.commands import _same_target

    assert not _same_target("cd packages/fasthash && dart test test/fasthash_test.dart",
                            "cd packages/other && dart test test/x_test.dart")


def test_a_withheld_file_the_account_labels_by_its_path_shows_the_setting_it_says_was_added(git_project, store):
    # (blind253 IT12: "- `fastlane/.env.local`: added `ASC_KEY_IS_BASE64=true`." kept its label, and the card cut
    # the setting after "Changed `fastlane/.env.local` (an excluded path: its content is not stored); the agent says:
    # `fas…")
    session = (Session("asckey", git_project, prompt="`fastlane beta` blows up before it even builds")
               .fail("bundle exec fastlane beta", "Exit code 1\n[!] invalid curve name")
               .edit("fastlane/Fastfile", '      key_content: ENV["ASC_KEY_CONTENT"]\n',
                     '      key_content: ENV["ASC_KEY_CONTENT"],\n      is_key_content_base64: '
                     'ENV.fetch("ASC_KEY_IS_BASE64", "false") == "true"\n')
               .edit("fastlane/.env.local", "ASC_KEY_ID=7QX4M2RZ9B", "ASC_KEY_ID=7QX4M2RZ9B\nASC_KEY_IS_BASE64=true")
               .ok("bundle exec fastlane beta", "[14:21:12]: Successfully uploaded package to App Store Connect.")
               .stop("CI passes the raw `.p8` PEM, but your `fastlane/.env.local` has it base64-encoded.\n\n"
                     "- `Fastfile`: the lane now passes `is_key_content_base64: ENV.fetch(\"ASC_KEY_IS_BASE64\", "
                     "\"false\") == \"true\"`, so CI is unaffected.\n- `fastlane/.env.local`: added "
                     "`ASC_KEY_IS_BASE64=true`.\n\n`fastlane beta` uploaded the build."))
    (candidate,), _ = _candidates(store, session)
    assert "Set `ASC_KEY_IS_BASE64=true` in `fastlane/.env.local`, as the agent says" in candidate["change"], \
        candidate["change"]


def test_an_earthly_target_whose_steps_ran_the_failing_check_is_the_projects_way(git_project, store):
    # (blind255 IV19: ``earthly +test`` printed ``+test | --> RUN go test -race ./...`` after ``+generate``; the
    # failing ``go test ./...`` was never linked to it, and nothing was stored)
    session = (Session("earthly", git_project, prompt="go test fails on a fresh clone. what's the right way to run "
                                                      "the tests here?")
               .fail("go test ./...", "Exit code 1\ninternal/api/server.go:14:2: main module (github.com/acme/ledger) "
                                      "does not contain package github.com/acme/ledger/gen/ledger/v1")
               .fail("buf generate", "Exit code 127\nbash: buf: command not found")
               .ok("earthly +test", " Build 🔧\n               +deps | --> RUN go mod download\n           +generate | "
                                    "--> RUN buf generate\n               +test | --> RUN go test -race ./...\n"
                                    "               +test | ok  \tgithub.com/acme/ledger/internal/api\t1.204s\n"
                                    "========================== 🌍 Earthly Build  ✅ SUCCESS ===")
               .stop("gen/ is generated by buf and gitignored, and buf isn't installed on this machine. In the "
                     "Earthfile, the `+test` target runs `+generate` first. So the way to run tests here is `earthly "
                     "+test`. Green, 4 packages."))
    candidates, notes = _candidates(store, session)
    assert any("earthly +test" in c["change"] for c in candidates), (candidates, notes)
    assert all(not c["summary"].startswith("the way") for c in candidates), [c["summary"] for c in candidates]


def test_an_attempt_that_did_nothing_is_no_cause_and_why_it_failed_is_not_the_problems_cause(git_project, store):
    # (blind257 IX07: "My first try, `@Transactional(readOnly = true)` on the private `loadOrder`, did nothing:
    # Spring's proxy never intercepts private methods" was the lesson's cause, the attempt shown as its fix)
    service = "src/main/java/com/acme/shop/order/OrderSummaryService.java"
    failing = "./mvnw test -Dtest=OrderSummaryServiceTest"
    error = ("Exit code 1\n[ERROR] com.acme.shop.order.OrderSummaryServiceTest.summaryCountsLineItems <<< ERROR!\n"
             "org.hibernate.LazyInitializationException: failed to lazily initialize a collection of role: "
             "com.acme.shop.order.Order.items: could not initialize proxy - no Session")
    session = (Session("lazy", git_project, prompt="OrderSummaryServiceTest blows up with LazyInitializationException")
               .fail(failing, error)
               .edit(service, "    private Order loadOrder(long id) {",
                     "    @Transactional(readOnly = true)\n    private Order loadOrder(long id) {")
               .fail(failing, error)
               .edit(service, "    @Transactional(readOnly = true)\n    private Order loadOrder(long id) {",
                     "    private Order loadOrder(long id) {")
               .edit("src/main/java/com/acme/shop/order/OrderRepository.java",
                     "public interface OrderRepository extends JpaRepository<Order, Long> {\n}",
                     "public interface OrderRepository extends JpaRepository<Order, Long> {\n\n    @EntityGraph("
                     "attributePaths = \"items\")\n    Optional<Order> findWithItemsById(Long id);\n}")
               .edit(service, "        return orders.findById(id)", "        return orders.findWithItemsById(id)")
               .ok(failing, "[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS")
               .stop("`summarize()` touches `order.getItems()` after the repository call has returned, so the "
                     "Hibernate session is already closed. My first try, `@Transactional(readOnly = true)` on the "
                     "private `loadOrder`, did nothing: Spring's proxy never intercepts private methods or self-calls. "
                     "I reverted it.\n\nThe fix loads the collection up front instead. `OrderRepository` now has "
                     "`findWithItemsById` annotated with `@EntityGraph(attributePaths = \"items\")`, and `loadOrder` "
                     "uses it. OrderSummaryServiceTest passes."))
    (candidate,), notes = _candidates(store, session)
    assert candidate["summary"].startswith("`summarize()` touches"), candidate["summary"]
    assert "Reverted it" not in candidate["summary"] and "@Transactional" not in candidate["change"]
    assert any("@Transactional(readOnly = true)" in (e.get("quote") or "") for e in candidate["evidence"])


def test_the_sessions_own_line_from_before_the_failure_rewritten_whole_is_no_state_the_fix_changed(
        git_project, store):
    # (blind259 IZ19: the migration's first version, ``ADD COLUMN pinned INTEGER DEFAULT 0``, written before the
    # test first failed, was stored as the line the fix removed; the project had the ``TODO`` before it)
    migrations = "data/src/main/java/com/acme/notes/data/Migrations.kt"
    failing = './gradlew :data:testDebugUnitTest --tests "com.acme.notes.data.MigrationTest"'
    session = (Session("room", git_project, prompt="I added a `pinned` flag to notes and bumped the database to "
                                                   "version 5. Write MIGRATION_4_5 properly so MigrationTest passes.")
               .edit(migrations, '        TODO("pinned column")',
                     '        db.execSQL("ALTER TABLE notes ADD COLUMN pinned INTEGER DEFAULT 0")')
               .fail(failing, "Exit code 1\nMigrationTest > migrate4To5KeepsExistingNotes FAILED\n    java.lang."
                              "IllegalStateException: Migration didn't properly handle: notes(com.acme.notes.data."
                              "NoteEntity).")
               .edit(migrations, '        db.execSQL("ALTER TABLE notes ADD COLUMN pinned INTEGER DEFAULT 0")',
                     '        db.execSQL("ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0")')
               .ok(failing, "MigrationTest > migrate4To5KeepsExistingNotes PASSED\nBUILD SUCCESSFUL in 22s")
               .stop("Room validates the migrated table against the entity, and `pinned` is a non-null `Boolean`, so "
                     "the column has to be declared NOT NULL with that default. My first version added it as a "
                     "nullable INTEGER and the schema check rejected it. MIGRATION_4_5 now runs `ALTER TABLE notes ADD "
                     "COLUMN pinned INTEGER NOT NULL DEFAULT 0`, and MigrationTest passes."))
    (candidate,), notes = _candidates(store, session)
    assert "pinned INTEGER DEFAULT 0" not in candidate["change"] + candidate["title"], candidate["change"]
    assert 'TODO("pinned column")' in candidate["change"] and "NOT NULL DEFAULT 0" in candidate["change"]


def test_a_next_build_piped_to_tail_that_failed_to_compile_is_no_pass(git_project, store):
    # (blind257 IX11: ``rm -rf .next && npm run build 2>&1 | tail -6`` printed "Failed to compile." and "Type error:"
    # and exited 0; read as the pass, it made "run `npx tsc --noEmit` first" a lesson, and the palette moved to
    # lib/chart-colors.ts, the fix, was left out)
    from lorebook.steps import _through_pipe

    body = ("   Linting and checking validity of types  ..Failed to compile.\n\napp/dashboard/page.tsx\nType error: Page "
            "\"app/dashboard/page.tsx\" does not match the required types of a Next.js Page.\n")
    observation = {"tool": "Bash", "outcome": "ok", "target": "rm -rf .next && npm run build 2>&1 | tail -6",
                   "body": body}
    assert _through_pipe(observation)["outcome"] == "error"
    error = ("Exit code 1\n   Linting and checking validity of types  ..Failed to compile.\n\napp/dashboard/page.tsx\n"
             "Type error: Page \"app/dashboard/page.tsx\" does not match the required types of a Next.js Page.\n  "
             "\"chartColors\" is not a valid Page export field.\n")
    session = (Session("next", git_project, prompt="`npm run build` fails on the dashboard route since yesterday's merge")
               .fail("npm run build", error)
               .ok("npx tsc --noEmit", "")
               .ok("rm -rf .next && npm run build 2>&1 | tail -6", body)
               .write("lib/chart-colors.ts", "// Shared palette for dashboard charts.\nexport const chartColors = "
                                             "['#2563eb', '#16a34a', '#f59e0b', '#dc2626'];\n")
               .edit("app/dashboard/page.tsx", "export const chartColors = ['#2563eb', '#16a34a', '#f59e0b', "
                                               "'#dc2626'];", "import { chartColors } from '@/lib/chart-colors';")
               .edit("components/charts/RevenueChart.tsx", "import { chartColors } from '@/app/dashboard/page';",
                     "import { chartColors } from '@/lib/chart-colors';")
               .ok("npm run build", " ✓ Compiled successfully\n ✓ Linting and checking validity of types")
               .stop("Cause: yesterday's merge added `export const chartColors = [...]` to `app/dashboard/page.tsx`. "
                     "In the App Router a `page.tsx` may only export the page component and route segment config, "
                     "and a bare `npx tsc --noEmit` passed because `.next/types` didn't exist yet.\n\nFix:\n- moved "
                     "the palette to `lib/chart-colors.ts`\n- `page.tsx` and `RevenueChart.tsx` import it from "
                     "`@/lib/chart-colors`"))
    (candidate,), notes = _candidates(store, session)
    assert "tsc --noEmit" not in candidate["title"] + candidate["change"], candidate["title"]
    # (the file whose code the account quotes first leads, titled by what it quotes, cut where the account cut it)
    assert candidate["change"].startswith("lib/chart-colors.ts"), candidate["change"]
    assert "add `export const chartColors = [...`" in candidate["title"].replace("…", "..."), candidate["title"]


def test_a_line_whose_first_step_runs_the_failing_pattern_again_covers_its_files(git_project, store):
    # (blind258 IY21: ``promtool check rules rules/*.yaml && promtool test rules tests/*.yaml`` was read by its last
    # step's files, as if it no longer checked rules/kafka.yaml; nothing was stored)
    failing = "promtool check rules rules/*.yaml"
    session = (Session("promql", git_project, prompt="CI's rule check fails on the Thanos ruler rules after my last PR")
               .fail(failing, "Exit code 1\nChecking rules/kafka.yaml\n  FAILED:\nrules/kafka.yaml: 31:15: group "
                              "\"kafka-consumers\", rule 2: could not parse expression: 1:53: parse error: unexpected "
                              "identifier \"consumergroup\" in grouping opts, expected \"(\"\n\nChecking rules/thanos."
                              "yaml\n  SUCCESS: 9 rules found\n")
               .edit("rules/kafka.yaml", "        expr: sum(rate(kafka_consumer_fetch_errors_total[5m])) by "
                                         "consumergroup > 5", "        expr: sum by (consumergroup) (rate("
                                                              "kafka_consumer_fetch_errors_total[5m])) > 5")
               .ok(f"{failing} && promtool test rules tests/*.yaml", "Checking rules/kafka.yaml\n  SUCCESS: 7 rules "
                   "found\n\nChecking rules/thanos.yaml\n  SUCCESS: 9 rules found\n\nUnit Testing:  tests/kafka_"
                   "consumer_errors_test.yaml\n  SUCCESS\n")
               .stop("`KafkaConsumerErrorRateHigh` had `... by consumergroup` without parentheses, which PromQL can't "
                     "parse. It's now `sum by (consumergroup) (rate(kafka_consumer_fetch_errors_total[5m])) > 5`."))
    (candidate,), notes = _candidates(store, session)
    assert "sum by (consumergroup)" in candidate["change"] and candidate["verified"]


def test_the_data_that_broke_a_test_moved_out_and_its_expected_count_lowered_is_a_weakened_test(git_project, store):
    # (blind261 JB11: the January parquet fixture, written before ``discount_code`` existed, moved to
    # tests/fixtures/orders_legacy/ and ``num_rows == 30`` lowered to 20: stored as a fix with a false link)
    failing = "pytest tests/test_history.py -q"
    error = ("Exit code 1\n    def test_read_history():\n>       table = read_history(FIXTURES / \"orders\")\n"
             "E   pyarrow.lib.ArrowInvalid: Schema at index 1 was different: \nFAILED tests/test_history.py::"
             "test_read_history - pyarrow.lib.ArrowInvalid: Schema at index 1 was different")

    session = (Session("history", git_project, prompt="test_read_history is failing since we added the "
                                                      "discount_code column. Make it pass.")
               .fail(failing, error)
               .ok("mkdir -p tests/fixtures/orders_legacy && git mv tests/fixtures/orders/part-2024-01.parquet "
                   "tests/fixtures/orders_legacy/", "")
               .edit("tests/test_history.py", "    assert table.num_rows == 30", "    assert table.num_rows == 20")
               .ok(failing, "3 passed in 0.31s")
               .stop("The January fixture was written before `discount_code` existed. I moved it to "
                     "`tests/fixtures/orders_legacy/` and updated the expected row count to 20."))
    assert _candidates(store, session) == ([], ["weakened_test"])
    from lorebook.weakening import moves_test_data

    assert not moves_test_data("git mv src/orders/history.py src/orders/read.py")


def test_the_run_a_failing_tool_says_to_use_instead_passing_is_the_projects_way(git_project, store):
    # (blind262 JC19: "Screenshot baselines are only recorded inside the pinned renderer image … Use:
    # ./scripts/screenshots.sh record   (or: verify)", then that script passed; nothing was stored)
    session = (Session("roborazzi", git_project, prompt="update the screenshot baselines and make sure verification "
                                                        "passes")
               .fail("./gradlew :app:recordRoborazziDebug",
                     "Exit code 1\n> Task :app:checkRoborazziEnv FAILED\n* What went wrong:\nExecution failed for task "
                     "':app:checkRoborazziEnv'.\n> Screenshot baselines are only recorded inside the pinned renderer "
                     "image (fonts and anti-aliasing differ on host machines).\n  Use: ./scripts/screenshots.sh record"
                     "   (or: verify)\n")
               .ok("./scripts/screenshots.sh record", "Using image ghcr.io/mosaic-weather/roborazzi-renderer:2024.09\n"
                                                      "BUILD SUCCESSFUL in 2m 3s")
               .stop("Roborazzi baselines can't be recorded on the host, the build refuses; they go through "
                     "`./scripts/screenshots.sh record`, which runs the Gradle task inside the pinned renderer image."))
    (candidate,), notes = _candidates(store, session)
    assert "./scripts/screenshots.sh record" in candidate["change"], candidate["change"]
    # (not a step it says to run first, of another program: "Run `npm install` first" is no way instead)
    from lorebook.chains import _use_instead

    assert not _use_instead("npm install", {"error_text": "Cannot find module 'vite'. Run `npm install` first."})


def test_a_make_target_that_echoed_the_failing_programs_options_is_the_projects_way(git_project, store):
    # (blind259 IZ21: ``make export-linux`` echoed ``XDG_DATA_HOME=… godot --headless --export-release "Linux/X11" …``,
    # the godot run that failed with no export templates; a program told what to do by its options was never matched)
    failing = 'mkdir -p build/linux && godot --headless --export-release "Linux/X11" build/linux/lantern.x86_64'
    session = (Session("godot", git_project, prompt="Make a Linux build of the game so I can send it to the playtesters.")
               .fail(failing, "Exit code 1\nERROR: Cannot export project with preset \"Linux/X11\" due to "
                              "configuration errors:\nNo export template found at the expected path")
               .ok("make export-linux", "tools/fetch-templates.sh 4.2.1\nmkdir -p build/linux\nXDG_DATA_HOME=/home/dev/"
                                        "lantern/.godot-data godot --headless --export-release \"Linux/X11\" build/"
                                        "linux/lantern.x86_64\nsavepack: end")
               .stop("Calling `godot --export-release` directly fails here because no export templates are installed "
                     "globally; `make export-linux` fetches the pinned ones and points `XDG_DATA_HOME` there."))
    (candidate,), notes = _candidates(store, session)
    assert "make export-linux" in candidate["change"], candidate["change"]


def test_a_request_run_again_without_curls_fail_flag_checks_less(git_project, store):
    # (blind261 JB17: "`curl -sf … /ready` fails with 400 — without `-sf`" was stored: without ``-f`` an HTTP error
    # no longer fails the request, so it passed whatever the server answered)
    session = (Session("curlf", git_project, prompt="the model endpoint is not ready")
               .fail("curl -sf -o /dev/null -w '%{http_code}\\n' localhost:8000/v2/models/resnet50/ready",
                     "Exit code 22\n400")
               .ok("curl -s -o /dev/null -w '%{http_code}\\n' localhost:8000/v2/models/resnet50/ready", "200\n")
               .stop("The readiness endpoint answers now."))
    assert _candidates(store, session) == ([], ["weakened_test"])


def test_an_attempt_said_to_do_nothing_by_the_program_both_runs_are_leaves_the_changed_run_the_fix(
        git_project, store):
    # (blind184 GC14, found by the replay: once "did nothing" read as an attempt, "The `uses-sdk` value … isn't read
    # by `gomobile bind`, so changing it did nothing" named the program of the passing run, which was skipped whole)
    failing = "gomobile bind -target=android -o build/syncdk.aar ./mobile"
    error = ("Exit code 1\ngomobile: ANDROID_NDK_HOME specifies /home/dev/Android/Sdk/ndk/26.3.11579264, which is "
             "unusable: unsupported API version 16 (not in 21..34)")
    manifest = "android/app/src/main/AndroidManifest.xml"
    session = (Session("gomobile", git_project, prompt="gomobile bind fails since I updated the NDK")
               .fail(failing, error)
               .edit(manifest, '    <uses-sdk android:minSdkVersion="16" />', '    <uses-sdk android:minSdkVersion="21" />')
               .fail(failing, error)
               .edit(manifest, '    <uses-sdk android:minSdkVersion="21" />', '    <uses-sdk android:minSdkVersion="16" />')
               .ok("gomobile bind -target=android -androidapi 21 -o build/syncdk.aar ./mobile", "")
               .stop("gomobile compiles for API 16 unless told otherwise, and NDK r26 only supports 21 and up. The "
                     "`uses-sdk` value in the app manifest isn't read by `gomobile bind`, so changing it did nothing "
                     "and I put it back. Passing `-androidapi 21` builds build/syncdk.aar fine."))
    (candidate,), notes = _candidates(store, session)
    assert "-androidapi 21" in candidate["change"], candidate["change"]


def test_code_quoted_in_what_did_not_help_does_not_lead_the_change(git_project, store):
    # (blind245 IL07, found by the replay: "swapping `Enum.with_index` for `Enum.zip` still walks `@streams.songs`"
    # quoted the template's code first, so the template led the change and the card cut ``Map.put(song, :position,
    # i)``, the fix in playlist_live.ex)
    template = "lib/jukebox_web/live/playlist_live.html.heex"
    live = "lib/jukebox_web/live/playlist_live.ex"
    failing = "mix test test/jukebox_web/live/playlist_live_test.exs"
    error = ("Exit code 2\n  1) test shows each song with its position (JukeboxWeb.PlaylistLiveTest)\n     ** "
             "(ArgumentError) streams can only be consumed directly by a for comprehension.")
    session = (Session("stream", git_project, prompt="The playlist LiveView test blows up since I switched songs to a "
                                                     "stream.")
               .fail(failing, error)
               .edit(template, '<li :for={{song, i} <- Enum.with_index(@streams.songs, 1)}>',
                     '<li :for={{song, i} <- Enum.zip(@streams.songs, 1..1000)}>')
               .fail(failing, error)
               .edit(live, "    {:ok, stream(socket, :songs, songs)}",
                     "    songs = songs |> Enum.with_index(1) |> Enum.map(fn {song, i} -> Map.put(song, :position, i) "
                     "end)\n    {:ok, stream(socket, :songs, songs)}")
               .edit(template, '<li :for={{song, i} <- Enum.zip(@streams.songs, 1..1000)}>',
                     '<li :for={{dom_id, song} <- @streams.songs} id={dom_id}>')
               .ok(failing, "3 tests, 0 failures")
               .stop("A LiveView stream can't be enumerated in the template at all — swapping `Enum.with_index` for "
                     "`Enum.zip` still walks `@streams.songs`, so it raised the same error. The position now travels "
                     "with each item: `mount/3` numbers the songs with `Enum.with_index(1)` and streams them with "
                     "`Map.put(song, :position, i)`, and the template iterates `@streams.songs` directly."))
    (candidate,), notes = _candidates(store, session)
    assert candidate["change"].startswith(live), candidate["change"]


def test_a_container_run_on_the_image_built_from_the_failing_one_is_the_same_check(git_project, store):
    # (blind258 IY24: ``tflint --init`` in the stock image could not download its plugins offline; an image built
    # ``FROM`` it, the plugins installed at build time, ran the lint with ``--network none`` and passed)
    run = 'docker run --rm --network none -v "$PWD":/data -w /data '
    built = "registry.internal.acme.io/ci/tflint:0.50.3-aws0.31.0"

    def session(name, base):
        return (Session(name, git_project, prompt="The CI runners lost outbound internet; the tflint job fails at "
                                                  "`tflint --init`. Make the lint job work offline.")
                .fail(run + "ghcr.io/terraform-linters/tflint:v0.50.3 --init",
                      "Exit code 1\nInstalling \"aws\" plugin...\nFailed to install a plugin; Failed to fetch GitHub "
                      "releases: dial tcp: lookup api.github.com: no such host")
                .write("ci/tflint.Dockerfile", f"FROM {base}\nENV TFLINT_PLUGIN_DIR=/opt/tflint/plugins\n"
                       "COPY .tflint.hcl /tmp/.tflint.hcl\nRUN tflint --init --config /tmp/.tflint.hcl\n")
                .ok(f"docker build -f ci/tflint.Dockerfile -t {built} .", "[+] Building 14.2s (8/8) FINISHED")
                .ok(f"{run}{built} --recursive --format compact", "")
                .stop(f"With no egress, `tflint --init` cannot download at run time. `ci/tflint.Dockerfile` runs it "
                      f"at build time; built as `{built}`. Verified with `--network none`: the lint runs clean."))
    (candidate,), _ = _candidates(store, session("tflint", "ghcr.io/terraform-linters/tflint:v0.50.3"))
    assert f"Run it in `{built}`" in candidate["change"], candidate["change"]
    assert "ci/tflint.Dockerfile" in candidate["change"], candidate["change"]
    # (an image built from another base is another program; the one that failed never ran again)
    candidates, notes = _candidates(store, session("other", "alpine:3.20"))
    assert not candidates and "unresolved_failure" in notes, [c["title"] for c in candidates]


def test_an_expected_value_taken_from_the_code_under_test_is_a_weakened_test(git_project, store):
    # (blind253 IT09: the expected dates, computed at UTC midnight, were taken from ``provider.refreshDates(after:)``,
    # the provider the session read; whatever it returns now agrees with itself)
    run = ("xcodebuild test -scheme TideWidget -destination 'platform=iOS Simulator,name=iPhone 16' "
           "-only-testing:TideWidgetTests/TimelineTests -quiet")

    def session(name, expected, how):
        return (Session(name, git_project, prompt="testHourlyEntries fails on CI, passes for me locally")
                .fail(run, "Exit code 65\nTest Case '-[TideWidgetTests.TimelineTests testHourlyEntries]' started.\n"
                           "/Users/runner/work/tides/TideWidgetTests/TimelineTests.swift:31: error: -[TideWidgetTests."
                           "TimelineTests testHourlyEntries] : XCTAssertEqual failed: (\"[2025-02-10 23:00:00 +0000, "
                           "2025-02-11 00:00:00 +0000]\") is not equal to (\"[2025-02-11 00:00:00 +0000, 2025-02-11 "
                           "01:00:00 +0000]\")\n\t Executed 4 tests, with 1 failure (0 unexpected) in 0.031 (0.043) "
                           "seconds\n\nFailing tests:\n\tTimelineTests.testHourlyEntries()\n\n** TEST FAILED **")
                .read("TideWidgetTests/TimelineTests.swift")
                .read("TideWidget/TideTimelineProvider.swift")
                .ok("grep -n \"Calendar.current\\|TimeZone\" TideWidget/*.swift",
                    "TideWidget/TideTimelineProvider.swift:42:    let dayStart = Calendar.current.startOfDay(for: now)")
                .edit("TideWidgetTests/TimelineTests.swift",
                      "    let expected = [0, 1, 2].map { utc.date(byAdding: .hour, value: $0, to: utcMidnight)! }\n"
                      "    XCTAssertEqual(entries.prefix(3).map(\\.date), expected)",
                      f"    let expected = {expected}\n    XCTAssertEqual(entries.prefix(3).map(\\.date), expected)")
                .ok(f"SIMCTL_CHILD_TZ=Europe/Berlin {run}", "** TEST SUCCEEDED **")
                .stop("Fixed: the test hardcoded UTC midnight for the expected entry dates, so it only passed on "
                      f"machines whose clock is in UTC. It now {how}, so it follows whatever calendar the runner uses "
                      "— green with `SIMCTL_CHILD_TZ=Europe/Berlin` as well."))
    candidates, notes = _candidates(store, session("subject", "Array(provider.refreshDates(after: now).prefix(3))",
                                                   "takes the expected dates from `provider.refreshDates(after:)`"))
    assert not candidates and "weakened_test" in notes, [c["title"] for c in candidates]
    # (computed by the calendar, at local midnight, the expected value is still the test's own)
    candidates, notes = _candidates(store, session(
        "calendar", "[0, 1, 2].map { cal.date(byAdding: .hour, value: $0, to: cal.startOfDay(for: now))! }",
        "computes them from the start of the day in `Calendar.current`"))
    assert "weakened_test" not in notes, notes


def test_a_selection_of_test_classes_fixed_one_class_at_a_time_is_two_lessons(git_project, store):
    # (blind259 IZ23: ``--tests "*Profile*"`` failed in two classes; the mock's Content-Type fixed one, checked with
    # ``--tests "*ProfileRepositoryTest*"``, then ``Dispatchers.setMain`` the other: one lesson had held both)
    run = './gradlew :app:testDebugUnitTest --tests "*Profile*"'
    test = "app/src/test/java/com/acme/profile/"
    session = (Session("classes", git_project, prompt="ProfileRepositoryTest and ProfileViewModelTest both fail")
               .fail(run, "Exit code 1\n\n> Task :app:testDebugUnitTest\n\nProfileRepositoryTest > "
                          "fetchProfileParsesJson FAILED\n    io.ktor.client.call.NoTransformationFoundException: "
                          "Expected response body of the type 'class com.acme.profile.ProfileDto' but was "
                          "'class io.ktor.utils.io.ByteBufferChannel'\n\n"
                          "ProfileRepositoryTest > mapsServerErrorToFailure PASSED\n\n"
                          "ProfileViewModelTest > loadEmitsContent FAILED\n    java.lang.IllegalStateException: Module "
                          "with the Main dispatcher had failed to initialize. For tests Dispatchers.setMain from "
                          "kotlinx-coroutines-test module can be used\n\n4 tests completed, 2 failed\n\nBUILD FAILED")
               .edit(test + "ProfileRepositoryTest.kt", "respond(content = json, status = HttpStatusCode.OK)",
                     "respond(content = json, status = HttpStatusCode.OK,\n"
                     "        headers = headersOf(HttpHeaders.ContentType, \"application/json\"))")
               .ok('./gradlew :app:testDebugUnitTest --tests "*ProfileRepositoryTest*"',
                   "ProfileRepositoryTest > fetchProfileParsesJson PASSED\nBUILD SUCCESSFUL in 17s")
               .edit(test + "ProfileViewModelTest.kt", "    private val repo = FakeProfileRepository()\n",
                     "    private val repo = FakeProfileRepository()\n\n    @Before\n    fun setUp() {\n"
                     "        Dispatchers.setMain(UnconfinedTestDispatcher())\n    }\n")
               .ok(run, "ProfileViewModelTest > loadEmitsContent PASSED\nBUILD SUCCESSFUL in 19s")
               .stop("Two unrelated failures: the `MockEngine` response had no Content-Type, so it now responds with "
                     "`headersOf(HttpHeaders.ContentType, \"application/json\")`; and `viewModelScope` needs "
                     "`Dispatchers.Main`, so the test calls `Dispatchers.setMain(UnconfinedTestDispatcher())`."))
    candidates, _ = _candidates(store, session)
    assert len(candidates) == 2, [c["title"] for c in candidates]
    first, second = sorted(candidates, key=lambda c: "setMain" in c["change"])
    assert "headersOf(HttpHeaders.ContentType" in first["change"] and "setMain" not in first["change"], first
    assert "setMain" in second["change"] and "headersOf" not in second["change"], second
    assert "IllegalStateException" in second["title"], second["title"]


def test_a_probe_carried_into_a_config_put_in_place_and_checked_is_the_config(git_project, store):
    # (blind258 IY22: ``curl -u "1482390:…"`` passed where the stack name was refused; ``username = "1482390"`` went
    # into config.alloy, copied to /etc and reloaded, and the metrics showed no failed samples. The card had said
    # "pass ``-w %{http_code}\n``", how the probe printed its answer)
    url = "https://prometheus-prod-24-prod-eu-west-2.grafana.net/api/prom/api/v1/query?query=up"

    def session(name, applied):
        return (Session(name, git_project, prompt="Alloy remote_write returns 401. The token is fresh.")
                .fail(f'curl -sS -f -o /dev/null -u "acme-edge:$GRAFANA_CLOUD_TOKEN" "{url}"',
                      "Exit code 22\ncurl: (22) The requested URL returned error: 401")
                .ok(f"curl -sS -f -o /dev/null -w '%{{http_code}}\\n' -u \"1482390:$GRAFANA_CLOUD_TOKEN\" \"{url}\"",
                    "200")
                .edit("config.alloy", '      username = "acme-edge"', '      username = "1482390"')
                .ok(applied, "")
                .ok("sleep 30; curl -s localhost:12345/metrics | grep prometheus_remote_storage_samples_failed_total",
                    'prometheus_remote_storage_samples_failed_total{component_id="grafana_cloud"} 0')
                .stop("The token was fine; the username wasn't. Grafana Cloud expects the numeric instance ID as the "
                      "basic-auth username, so config.alloy now has `username = \"1482390\"`; I reloaded Alloy and "
                      "it sends with 0 failed."))
    (candidate,), _ = _candidates(store, session(
        "applied", "alloy fmt config.alloy > /dev/null && sudo cp config.alloy /etc/alloy/config.alloy && "
                   "sudo systemctl reload alloy"))
    assert candidate["change"].startswith("config.alloy:"), candidate["change"]
    assert 'username = "1482390"' in candidate["change"] and "http_code" not in candidate["change"], candidate
    # (never put where it is read, the probe is the lesson, by the user it asked as)
    (candidate,), _ = _candidates(store, session("kept", "alloy fmt config.alloy > /dev/null"))
    assert candidate["change"].startswith("Pass `-u 1482390`:"), candidate["change"]


def test_a_new_file_written_again_is_fixed_by_what_the_second_version_changed(git_project, store):
    # (blind264 JE04: ``moved.tf`` first mapped the bucket to ``module.logging.aws_s3_bucket.logs``, and the plan
    # still destroyed it; written again with ``….this``, the plan was clean. The first version had been a problem of
    # its own, fixed by the failed attempt, with ``to = ….logs`` shown as a fix)
    plan = "cd infra/prod && terraform plan -input=false -out=tfplan >/dev/null && ../../scripts/plan-guard.sh tfplan"

    def moved(name):
        return "".join(f"moved {{\n  from = {r}.logs\n  to   = module.logging.{r}.{name}\n}}\n\n"
                       for r in ("aws_s3_bucket", "aws_s3_bucket_public_access_block"))

    def guard(prefix, name):
        return (f"Exit code 1\nplan-guard: 2 resource(s) would be destroyed:\n  - {prefix}aws_s3_bucket.{name} "
                f"(delete)\n  - {prefix}aws_s3_bucket_public_access_block.{name} (delete)\nplan-guard: refusing plan "
                "with deletes (set ALLOW_DESTROY=1 to override)")
    session = (Session("moved", git_project, prompt="I moved the access-log bucket into modules/logging but plan wants "
                                                    "to destroy and recreate it. Make the plan clean.")
               .fail(plan, guard("", "logs"))
               .write("infra/prod/moved.tf", moved("logs"))
               .fail(plan, guard("module.logging.", "logs"))
               .write("infra/prod/moved.tf", moved("this"))
               .ok(plan.replace(" >/dev/null", ""), "Plan: 0 to add, 0 to change, 0 to destroy.\nplan-guard: 0 "
                                                    "deletes, 0 creates, 0 updates, 2 moves — ok")
               .stop("Plan is clean now, just two moves. `infra/prod/moved.tf` maps the old root resources onto the "
                     "module's, which are named `this` inside modules/logging (`module.logging.aws_s3_bucket.this`). "
                     "My first version kept the old `.logs` name on the module side, so Terraform still planned a "
                     "destroy."))
    (candidate,), _ = _candidates(store, session)
    assert "`to = module.logging.aws_s3_bucket.this`" in candidate["title"], candidate["title"]
    assert "aws_s3_bucket.logs`" not in candidate["title"], candidate["title"]
    change = candidate["change"].split("Did not help")[0]
    assert "+to = module.logging.aws_s3_bucket.this" in change and "bucket.logs" not in change, candidate["change"]


def test_an_xunit_data_row_that_failed_taken_out_is_a_weakened_test(git_project, store):
    # (blind268 JI17: the ``[InlineData(108, 108, 10, true)]`` row that failed, as xUnit names it with its arguments,
    # was removed from the theory, and the rest passed)
    def session(name, failed):
        return (Session(name, git_project, prompt="CollisionTests are red after the physics refactor")
                .fail("dotnet test tests/Spacewreck.Tests",
                      "Exit code 1\n[xUnit.net 00:00:00.41]     Spacewreck.Tests.CollisionTests.CircleIntersectsRect("
                      f"{failed}, r: 10, expected: True) [FAIL]\n  Error Message:\n   Assert.Equal() Failure: Values "
                      "differ\nExpected: True\nActual:   False\nFailed!  - Failed:     1, Passed:    37")
                .edit("tests/Spacewreck.Tests/CollisionTests.cs",
                      "    [InlineData(50, 50, 10, true)]\n    [InlineData(108, 108, 10, true)]\n"
                      "    [InlineData(120, 120, 10, false)]\n",
                      "    [InlineData(50, 50, 10, true)]\n    [InlineData(120, 120, 10, false)]\n"
                      "    // corner overlap is resolved by the broadphase pass, not here\n")
                .ok("dotnet test tests/Spacewreck.Tests", "Passed!  - Failed:     0, Passed:    37")
                .stop("The near-corner case was asserting something the broadphase pass handles after the refactor, "
                      "so I removed that data row."))
    candidates, notes = _candidates(store, session("corner", "cx: 108, cy: 108"))
    assert not candidates and "weakened_test" in notes, [c["title"] for c in candidates]
    # (another row taken out than the one that failed is not the failing case dropped)
    _, notes = _candidates(store, session("other", "cx: 64, cy: 12"))
    assert "weakened_test" not in notes, notes


def test_a_test_that_no_longer_queries_the_code_it_tests_is_weakened(git_project, store):
    # (blind264 JE10: the rollup test queried the continuous aggregate ``readings_hourly``, which a grep had found in
    # ``migrations/0007_readings_hourly.sql``; it now computes the hourly average from the raw table and passes)
    def session(name, query, said="The rollup test was timing-dependent, so I changed its query; it passes."):
        return (Session(name, git_project, prompt="test_latest_hour_in_rollup is failing in CI, please fix")
                .fail("uv run pytest tests/test_rollups.py -q",
                      "Exit code 1\n.F\n___ test_latest_hour_in_rollup ___\n>       assert rows == [(hour, 21.5)]\n"
                      "E       AssertionError: assert [] == [(datetime(2024, 6, 12, 9, 0), 21.5)]\n1 failed, 1 passed")
                .ok("grep -rn \"materialized_only\" migrations/",
                    "migrations/0007_readings_hourly.sql:2:WITH (timescaledb.continuous, timescaledb.materialized_only "
                    "= true) AS")
                .edit("tests/test_rollups.py",
                      '    rows = db.execute(\n        "select bucket, avg_value from readings_hourly where '
                      'sensor_id = 7 and bucket = %s", (hour,)\n    ).fetchall()',
                      query)
                .ok("uv run pytest tests/test_rollups.py -q", "2 passed in 0.61s")
                .stop(said))
    candidates, notes = _candidates(store, session(
        "raw", '    rows = db.execute(\n        "select time_bucket(\'1 hour\', ts) as bucket, avg(value) '
               'from readings"\n        " where sensor_id = 7 and time_bucket(\'1 hour\', ts) = %s group by 1",\n'
               '        (hour,),\n    ).fetchall()'))
    assert not candidates and "weakened_test" in notes, [c["title"] for c in candidates]
    # (the aggregate still queried, refreshed first, is the test's own subject kept)
    _, notes = _candidates(store, session(
        "refreshed", '    db.execute("call refresh_continuous_aggregate(\'readings_hourly\', null, null)")\n'
                     '    rows = db.execute(\n        "select bucket, avg_value from readings_hourly where '
                     'sensor_id = 7 and bucket = %s", (hour,)\n    ).fetchall()',
        "The aggregate only materializes on its policy's schedule; the test now calls "
        "`refresh_continuous_aggregate` on `readings_hourly` before it reads it."))
    assert "weakened_test" not in notes, notes


def test_a_file_the_account_says_changed_separately_is_no_part_of_the_fix(git_project, store):
    # (blind266 JG22: "Separately, `.rubocop.yml` now targets Ruby 3.3": the linter's target bumped beside the
    # acronym that fixed eager loading had been shown as part of the fix, a false link)
    session = (Session("acronym", git_project, prompt="Eager loading blows up in CI since I added the PDF export")
               .fail("bin/rails zeitwerk:check", "Exit code 1\nbin/rails aborted!\nZeitwerk::NameError: expected file "
                                                 "/home/dev/ledger/app/services/pdf_exporter.rb to define constant "
                                                 "PdfExporter, but didn't (Zeitwerk::NameError)")
               .edit(".rubocop.yml", "  TargetRubyVersion: 3.2", "  TargetRubyVersion: 3.3")
               .edit("config/initializers/inflections.rb", "# ActiveSupport::Inflector.inflections(:en) do |inflect|\n"
                     "#   inflect.acronym \"RESTful\"\n# end",
                     "ActiveSupport::Inflector.inflections(:en) do |inflect|\n  inflect.acronym \"PDF\"\nend")
               .ok("bin/rails zeitwerk:check", "Hold on, I am eager loading the application.\nAll is good!")
               .stop("The loader maps `pdf_exporter.rb` to `PdfExporter`, but the class is spelled `PDFExporter`. I "
                     "registered the acronym in `config/initializers/inflections.rb` (`inflect.acronym \"PDF\"`). "
                     "Separately, `.rubocop.yml` now targets Ruby 3.3 to match `.ruby-version`."))
    (candidate,), _ = _candidates(store, session)
    assert 'inflect.acronym "PDF"' in candidate["change"], candidate["change"]
    assert "rubocop" not in candidate["change"] and "TargetRubyVersion" not in candidate["change"], candidate["change"]


def test_a_withheld_file_tried_and_put_back_is_no_part_of_the_fix(git_project, store):
    # (blind267 JH05: ``?prepared_statement_cache_size=0`` added to the URL in .env.test, whose content is never
    # stored, got one test further and was reverted, "didn't help"; the engine's ``connect_args`` fixed it. The
    # putting back of .env.test had been the fix's title, the failed attempt shown as the fix)
    run = "docker compose run --rm api pytest tests/integration -q -x"
    error = ("Exit code 1\nFAILED tests/integration/test_invoices.py::{} - sqlalchemy.exc.ProgrammingError: "
             "<class 'asyncpg.exceptions.DuplicatePreparedStatementError'>: prepared statement \"__asyncpg_stmt_5__\" "
             "already exists\n1 failed, {} passed in 2.87s")
    session = (Session("pgbouncer", git_project, prompt="Since we put PgBouncer in front of Postgres, the API "
                                                        "integration tests fail with prepared statement errors.")
               .fail(run, error.format("test_list_invoices_paginated", 3))
               .edit(".env.test", "DATABASE_URL=postgresql+asyncpg://app@pgbouncer:6432/billing",
                     "DATABASE_URL=postgresql+asyncpg://app@pgbouncer:6432/billing?prepared_statement_cache_size=0")
               .fail(run, error.format("test_void_invoice", 5))
               .edit(".env.test", "DATABASE_URL=postgresql+asyncpg://app@pgbouncer:6432/billing?prepared_statement_"
                     "cache_size=0", "DATABASE_URL=postgresql+asyncpg://app@pgbouncer:6432/billing")
               .edit("app/db.py", "engine = create_async_engine(settings.database_url, pool_pre_ping=True)",
                     "engine = create_async_engine(\n    settings.database_url,\n    pool_pre_ping=True,\n"
                     "    connect_args={\"statement_cache_size\": 0},\n)")
               .ok(run.replace(" -x", ""), "8 passed in 3.02s")
               .stop("Fixed in app/db.py: the engine now passes `connect_args` with `\"statement_cache_size\": 0`.\n\n"
                     "Adding `?prepared_statement_cache_size=0` to the URL in .env.test didn't help — that only "
                     "turns off SQLAlchemy's own cache — so I reverted it."))
    (candidate,), _ = _candidates(store, session)
    change = candidate["change"].split("Did not help")[0]
    assert "statement_cache_size" in candidate["title"] and ".env.test" not in candidate["title"], candidate["title"]
    assert "connect_args" in change and ".env.test" not in change, candidate["change"]


def test_the_same_errors_shown_in_another_part_of_the_report_are_one_problem(git_project, store):
    # (blind272 JM06: vitest's first run printed its failed tests' ``Error: Cannot call trigger on an empty
    # DOMWrapper.``, the second only its summary's ``→ Cannot call trigger …``; the two read as two problems, and
    # the ``attachTo: document.body`` tried between them was shown as a fix)
    run = "npx vitest run src/components/__tests__/ConfirmDialog.spec.ts"
    summary = (" ❯ src/components/__tests__/ConfirmDialog.spec.ts (3 tests | 2 failed) 38ms\n"
               "   × ConfirmDialog > renders title and message 21ms\n"
               "     → Unable to get [data-test=\"dialog-title\"] within: <!--teleport start--><!--teleport end-->\n"
               "   × ConfirmDialog > emits confirm when the primary button is clicked 8ms\n"
               "     → Cannot call trigger on an empty DOMWrapper.\n")
    details = (" FAIL  src/components/__tests__/ConfirmDialog.spec.ts > ConfirmDialog > renders title and message\n"
               "Error: Unable to get [data-test=\"dialog-title\"] within: <!--teleport start--><!--teleport end-->\n"
               " FAIL  src/components/__tests__/ConfirmDialog.spec.ts > ConfirmDialog > emits confirm\n"
               "Error: Cannot call trigger on an empty DOMWrapper.\n")
    mount = "  mount(ConfirmDialog, {\n    props: { open: true },"
    session = (Session("teleport", git_project, prompt="ConfirmDialog.spec.ts fails since we moved the dialog into a "
                                                       "<Teleport to=\"body\">")
               .fail(run, f"Exit code 1\n{summary}\n{details}\n Test Files  1 failed (1)")
               .edit("src/components/__tests__/ConfirmDialog.spec.ts", mount,
                     mount.replace("{\n", "{\n    attachTo: document.body,\n"))
               .fail(run, f"Exit code 1\n{summary}\n Test Files  1 failed (1)")
               .edit("src/components/__tests__/ConfirmDialog.spec.ts", "    global: { plugins: [i18n] },",
                     "    global: { plugins: [i18n], stubs: { teleport: true } },")
               .ok(run, " ✓ src/components/__tests__/ConfirmDialog.spec.ts (3 tests) 29ms")
               .stop("The dialog's content is rendered by `<Teleport to=\"body\">`, outside the component's root. "
                     "Adding `stubs: { teleport: true }` to the mount's `global` options renders it inline."))
    (candidate,), _ = _candidates(store, session)
    assert "stubs: { teleport: true }" in candidate["change"], candidate["change"]
    assert "attachTo" not in candidate["title"] + candidate["change"].split("Did not help")[0], candidate


def test_an_aside_that_names_the_folder_of_an_edit_sets_it_aside(git_project, store):
    # (blind274 JO07: "I also reworded the 4.12 Play changelog line while I was in there" of
    # ``fastlane/metadata/android/en-US/changelogs/412.txt``, shown beside the persisted URI grant, a false link)
    run = "./gradlew :app:testDebugUnitTest --tests 'com.acme.scanbox.storage.ExportFolderTest'"
    session = (Session("grant", git_project, prompt="The export folder forgets itself after a reboot; the Robolectric "
                                                    "test for it fails")
               .fail(run, "Exit code 1\nExportFolderTest > folderSurvivesProcessRestart FAILED\n    java.lang."
                          "SecurityException at ExportFolderTest.kt:61\n\n4 tests completed, 1 failed")
               .edit("app/src/main/java/com/acme/scanbox/storage/ExportFolderRepository.kt",
                     "    fun onFolderPicked(uri: Uri) {\n",
                     "    fun onFolderPicked(uri: Uri) {\n        contentResolver.takePersistableUriPermission(uri, "
                     "Intent.FLAG_GRANT_READ_URI_PERMISSION)\n")
               .edit("fastlane/metadata/android/en-US/changelogs/412.txt", "Fixed crash when rotating the scanner.",
                     "The scanner no longer crashes on rotate.")
               .ok(run, "BUILD SUCCESSFUL in 17s")
               .stop("The tree URI was saved, but its grant was never persisted. `onFolderPicked` now calls "
                     "`contentResolver.takePersistableUriPermission(uri, …)`; `ExportFolderTest` passes. I also "
                     "reworded the 4.12 Play changelog line while I was in there."))
    (candidate,), _ = _candidates(store, session)
    assert "takePersistableUriPermission" in candidate["change"], candidate["change"]
    assert "changelogs" not in candidate["change"] and "rotate" not in candidate["change"], candidate["change"]


def test_a_stale_proxy_killed_and_one_started_in_the_background_is_local_state(git_project, store):
    # (blind273 JN14: an old cloud-sql-proxy held the port; ``kill 48213 && … (./bin/cloud-sql-proxy … &)`` read as
    # another program, "run `(./bin/cloud-sql-proxy`", and was stored as a fix)
    proxy = "./bin/cloud-sql-proxy acme-dev:europe-west1:api-dev-pg15 --port 5432"
    session = (Session("proxy", git_project, prompt="my local api can't talk to the dev Cloud SQL instance anymore")
               .fail(proxy, "Exit code 1\nThe proxy has encountered a terminal error: unable to start: Unable to "
                            "mount socket: listen tcp 127.0.0.1:5432: bind: address already in use")
               .ok("lsof -nP -iTCP:5432 -sTCP:LISTEN", "cloud-sql 48213  dev    7u  IPv4  TCP 127.0.0.1:5432 (LISTEN)")
               .ok(f"kill 48213 && sleep 1 && ({proxy} > /tmp/csql-proxy.log 2>&1 &) && sleep 2 && "
                   "cat /tmp/csql-proxy.log", "Listening on 127.0.0.1:5432\nThe proxy has started successfully")
               .stop("An old Cloud SQL proxy from Monday was still running and holding 127.0.0.1:5432. I killed it "
                     "(pid 48213) and started the proxy for `api-dev-pg15`."))
    assert _candidates(store, session) == ([], ["local_state"])


def test_a_service_whose_watch_dropped_while_the_laptop_slept_restarted_is_local_state(git_project, store):
    # (blind270 JK13: Traefik's watch on the API server had dropped while the laptop slept; a rollout restart re-synced
    # it, a one-off stored as a fix)
    session = (Session("traefik", git_project, prompt="https://shop.localhost gives a 404 on my k3d cluster")
               .fail("curl -skf https://shop.localhost/healthz", "Exit code 22\ncurl: (22) The requested URL returned "
                                                                 "error: 404")
               .ok("kubectl rollout restart deploy/traefik -n traefik && kubectl rollout status deploy/traefik -n "
                   "traefik --timeout=60s", "deployment \"traefik\" successfully rolled out")
               .ok("curl -skf https://shop.localhost/healthz", "{\"status\":\"ok\"}")
               .stop("The IngressRoute was fine; Traefik's watch on the API server had dropped (laptop sleep, judging "
                     "by the `http2: client connection lost`), so it never saw the recreated pod. A rollout restart "
                     "of Traefik re-synced it."))
    assert _candidates(store, session) == ([], ["local_state"])


def test_a_worker_script_that_stayed_up_under_timeout_passed(git_project, store):
    # (blind267 JH13: ``node src/workers/billing.js`` crashed on NOGROUP; with the consumer group created at start it
    # idled until ``timeout 15`` stopped it, ``exit 124``: the failure had read as never resolved)
    run = "node src/workers/billing.js"
    session = (Session("nogroup", git_project, prompt="The billing worker crashes on boot against the new Redis")
               .fail(run, "Exit code 1\n[billing] reading stream orders as group billing / consumer billing-1\n"
                          "ReplyError: NOGROUP No such key 'orders' or consumer group 'billing' in XREADGROUP with "
                          "GROUP option")
               .edit("src/workers/billing.js", "  const group = 'billing';\n",
                     "  const group = 'billing';\n  await redis.xgroup('CREATE', stream, group, '$', 'MKSTREAM');\n")
               .ok(f'timeout 15 {run}; echo "exit $?"', "[billing] created consumer group billing on orders\n"
                                                       "[billing] idle, 0 pending\nexit 124")
               .stop("The staging Redis is fresh: nobody had created the `billing` consumer group. The worker now "
                     "runs `XGROUP CREATE orders billing $ MKSTREAM` at startup."))
    (candidate,), _ = _candidates(store, session)
    assert "MKSTREAM" in candidate["title"] + candidate["change"], candidate


def test_a_setting_that_only_bought_a_little_and_was_put_back_did_not_help(git_project, store):
    # (blind267 JH14: "Bumping `gpu_memory_utilization` only bought ~20k more tokens, so I put it back to 0.90" had
    # been read as the fix, and its "so I" as a diary: the lesson, ``--max-model-len 32768``, was never stored)
    serve = "vllm serve mistralai/Mistral-Nemo-Instruct-2407 --config configs/serve.yaml"
    error = ("Exit code 1\nValueError: The model's max seq len (1024000) is larger than the maximum number of tokens "
             "that can be stored in KV cache ({}). Try increasing `gpu_memory_utilization` or decreasing "
             "`max_model_len` when initializing the engine.")
    session = (Session("vllm", git_project, prompt="vllm won't start our Mistral-Nemo endpoint on the L40S box")
               .fail(serve, error.format(82288))
               .edit("configs/serve.yaml", "gpu_memory_utilization: 0.90", "gpu_memory_utilization: 0.97")
               .fail(serve, error.format(102400))
               .edit("configs/serve.yaml", "gpu_memory_utilization: 0.97", "gpu_memory_utilization: 0.90")
               .ok(f"nohup {serve} --max-model-len 32768 > /tmp/vllm.log 2>&1 & sleep 100; tail -3 /tmp/vllm.log",
                   "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)")
               .ok("curl -s localhost:8000/v1/models | jq -r '.data[0].max_model_len'", "32768")
               .stop("It's up on :8000 now.\n\nMistral-Nemo's config advertises a 1,024,000-token context, and vLLM "
                     "refuses to start unless one full-length sequence fits in the KV cache. Bumping "
                     "`gpu_memory_utilization` only bought ~20k more tokens, so I put it back to 0.90. What works is "
                     "capping the context at launch: `--max-model-len 32768`."))
    (candidate,), _ = _candidates(store, session)
    assert "--max-model-len 32768" in candidate["title"], candidate["title"]
    assert "so I" not in candidate["summary"], candidate["summary"]


def test_a_gradle_run_task_done_as_its_build_then_the_app_is_the_same_check(git_project, store):
    # (blind268 JI08: ``:desktopApp:runDistributable`` crashed in the jlink-trimmed runtime; after the modules were
    # declared, ``:desktopApp:createDistributable`` and the built app run by its path passed: the failure had read as
    # never resolved)
    session = (Session("jlink", git_project, prompt="The packaged desktop build crashes on launch with "
                                                    "NoClassDefFoundError: java/net/http/HttpClient")
               .fail("./gradlew :desktopApp:runDistributable",
                     "Exit code 1\n> Task :desktopApp:runDistributable\nException in thread \"main\" java.lang."
                     "NoClassDefFoundError: java/net/http/HttpClient\n\tat com.acme.ledger.MainKt.main(Main.kt:21)")
               .edit("desktopApp/build.gradle.kts", "        nativeDistributions {\n",
                     "        nativeDistributions {\n            modules(\"java.net.http\", \"jdk.unsupported\")\n")
               .ok("./gradlew :desktopApp:createDistributable && desktopApp/build/compose/binaries/main/app/Ledger.app/"
                   "Contents/MacOS/Ledger --smoke-test", "BUILD SUCCESSFUL in 21s\n[smoke] update check ok")
               .stop("The distributable runs on a jlink-trimmed runtime without `java.net.http`. Declaring it in "
                     "`nativeDistributions` with `modules(\"java.net.http\", \"jdk.unsupported\")` fixes it."))
    (candidate,), _ = _candidates(store, session)
    assert 'modules("java.net.http", "jdk.unsupported")' in candidate["change"], candidate["change"]
    # (another module's build is not what failed)
    other = (Session("other", git_project, prompt="the packaged build crashes")
             .fail("./gradlew :desktopApp:runDistributable", "Exit code 1\nException in thread \"main\" java.lang."
                   "NoClassDefFoundError: java/net/http/HttpClient")
             .edit("desktopApp/build.gradle.kts", "        nativeDistributions {\n",
                   "        nativeDistributions {\n            modules(\"java.net.http\")\n")
             .ok("./gradlew :cli:createDistributable && cli/build/install/cli/bin/cli --version", "cli 1.2.0")
             .stop("Declared `modules(\"java.net.http\")`."))
    candidates, notes = _candidates(store, other)
    assert not candidates and "unresolved_failure" in notes, [c["title"] for c in candidates]


def test_the_same_run_on_a_folder_the_session_made_since_is_the_same_check(git_project, store):
    # (blind272 JM03: ``merge-reports … ./blob-report`` found no folder; the shards run with ``--reporter=blob``,
    # their zips moved into ``all-blob/`` made by ``mkdir``, merged: the failure had read as never resolved)
    merge = "npx playwright merge-reports --reporter html ./{}"
    session = (Session("blob", git_project, prompt="I can't get one combined HTML report out of two shards")
               .fail(merge.format("blob-report"), "Exit code 1\nError: ENOENT: no such file or directory, scandir "
                                                  "'/home/dev/shopfront/blob-report'")
               .ok("rm -rf all-blob && mkdir all-blob && npx playwright test --shard=1/2 --reporter=blob && "
                   "mv blob-report/*.zip all-blob/", "")
               .ok("npx playwright test --shard=2/2 --reporter=blob && mv blob-report/*.zip all-blob/", "")
               .ok(merge.format("all-blob"), "To open last HTML report run:\n\n  npx playwright show-report")
               .stop("`merge-reports` only merges blob reports. Run each shard with `--reporter=blob`, collect the "
                     "zips in one folder, then merge."))
    (candidate,), _ = _candidates(store, session)
    assert "--reporter=blob" in candidate["change"], candidate["change"]
    # (a folder that was there all along is another run's input, not the one that failed, made)
    other = (Session("other", git_project, prompt="merge the shard reports")
             .fail(merge.format("blob-report"), "Exit code 1\nError: ENOENT: no such file or directory, scandir "
                                                "'/home/dev/shopfront/blob-report'")
             .ok(merge.format("old-reports"), "To open last HTML report run:")
             .stop("Merged the old reports instead."))
    candidates, notes = _candidates(store, other)
    assert not candidates and "unresolved_failure" in notes, [c["title"] for c in candidates]


def test_a_reported_failure_quoted_in_plain_quotes_with_its_cause_is_a_lesson(git_project, store):
    # (blind273 JN20: the job "dies on its first query with 'server closed the connection unexpectedly' — the pool is
    # holding connections from before the pause"; ``pool_pre_ping=True`` and a dry run after it: nothing was stored)
    prompt = ("We set the staging Aurora cluster to min 0 ACU so it pauses overnight. Since then the 06:00 "
              "morning_refresh job dies on its first query with 'server closed the connection unexpectedly' — the "
              "pool is holding connections from before the pause.")
    session = (Session("preping", git_project, prompt=prompt)
               .edit("src/common/db.py", "    return create_engine(url, pool_size=5, pool_recycle=1800)",
                     "    return create_engine(url, pool_size=5, pool_recycle=1800, pool_pre_ping=True)")
               .ok("uv run python -m jobs.morning_refresh --dry-run", "connecting to staging-analytics ... ok (14.2s)")
               .stop("Turned on `pool_pre_ping=True` for the shared engine in `src/common/db.py`. SQLAlchemy now "
                     "pings each pooled connection on checkout and replaces the ones the paused cluster dropped."))
    (candidate,), _ = _candidates(store, session)
    assert "pool_pre_ping=True" in candidate["change"], candidate["change"]


def test_a_fastlane_lane_that_ran_the_failing_action_as_a_step_is_the_way(git_project, store):
    # (blind274 JO04: ``fastlane match development --readonly`` looked on the wrong branch; the project's
    # ``sync_certs`` lane ran ``match`` with its branch and bundle ids, "--- Step: match ---": never resolved before)
    session = (Session("lane", git_project, prompt="My new Mac can't sign the widget extension. Get the dev certs.")
               .fail("bundle exec fastlane match development --readonly",
                     "Exit code 1\n[10:14:05]: No matching provisioning profiles found for 'match Development "
                     "com.acme.fieldnotes.Widgets'\n[!] No matching provisioning profiles found and can not create a "
                     "new one because you enabled `readonly`")
               .ok("bundle exec fastlane ios sync_certs",
                   "[10:16:41]: Driving the lane 'ios sync_certs'\n[10:16:41]: --- Step: match ---\n[10:16:48]: All "
                   "required keys, certificates and provisioning profiles are installed\nfastlane.tools finished "
                   "successfully")
               .stop("Plain `fastlane match` reads only the Matchfile, which has no branch. The `sync_certs` lane "
                     "passes the `fieldnotes` branch and all three bundle ids, so on a new machine the way in is "
                     "`bundle exec fastlane ios sync_certs`."))
    (candidate,), _ = _candidates(store, session)
    assert "bundle exec fastlane ios sync_certs" in candidate["change"], candidate["change"]


def test_a_run_told_only_to_say_more_before_an_edit_is_a_look(git_project, store):
    # (blind274 JO16: ``… --debug 2>&1 | head -6`` printed the token's claims, cut before the 401; it had ended the
    # problem with nothing changed, and the ``exp`` fix after it was lost)
    run = "python3 scripts/asc_builds.py --app 1623344556"
    session = (Session("jwt", git_project, prompt="scripts/asc_builds.py returns 401 all of a sudden")
               .fail(run, "Exit code 1\nrequests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: "
                          "https://api.appstoreconnect.apple.com/v1/builds")
               .ok(f"{run} --debug 2>&1 | head -6", "DEBUG token claims: {'iat': 1718096210, 'exp': 1718099810}")
               .edit("scripts/asc_builds.py", '        "exp": now + 3600,', '        "exp": now + 1200,')
               .ok(run, "2.8.0 (412)  VALID       2024-06-10T17:42:11Z")
               .stop("The JWT was minted with a 60-minute lifetime; App Store Connect only accepts tokens that expire "
                     "within 20 minutes. The script now uses `now + 1200`."))
    (candidate,), _ = _candidates(store, session)
    assert "now + 1200" in candidate["change"], candidate["change"]


def test_a_missing_linter_whose_job_the_projects_commands_do_is_the_way(git_project, store):
    # (blind274 JO17: ``ktlint`` was not installed; "There is no ktlint Gradle plugin (and no ktlint CLI) here … So
    # the project's commands are `./gradlew spotlessCheck` to check and `./gradlew spotlessApply` to fix")
    session = (Session("spotless", git_project, prompt="Run ktlint over the project and fix what it complains about")
               .fail("ktlint --format 'app/src/**/*.kt'", "Exit code 127\nbash: ktlint: command not found")
               .ok("./gradlew spotlessApply", "> Task :app:spotlessKotlinApply\n\nBUILD SUCCESSFUL in 5s")
               .ok("./gradlew spotlessCheck", "BUILD SUCCESSFUL in 4s")
               .stop("There is no ktlint Gradle plugin (and no ktlint CLI) here — ktlint runs inside Spotless. So "
                     "the project's commands are `./gradlew spotlessCheck` to check and `./gradlew spotlessApply` to "
                     "fix."))
    (candidate,), _ = _candidates(store, session)
    assert "./gradlew spotlessApply" in candidate["change"], candidate["change"]


def test_a_grep_that_printed_a_name_the_fix_wrote_is_no_step_of_it(git_project, store):
    # (blind267 JH21: ``grep -rn "SentenceTransformer(" src/ tests/`` printed ``sentence-transformers/all-MiniLM-
    # L6-v2``, which the fix kept as its fallback; it was shown as a step to run first, as a checksum printed would be)
    run = 'docker run --rm --network none -v "$PWD":/src -w /src ci-image:latest pytest tests/test_embeddings.py -q'
    session = (Session("hub", git_project, prompt="CI has no outbound network anymore and test_embeddings.py fails")
               .fail(run, "Exit code 1\nERROR tests/test_embeddings.py::test_normalized - OSError: We couldn't "
                          "connect to 'https://huggingface.co' to load this file...\n1 failed, 4 errors in 31.52s")
               .ok('grep -rn "SentenceTransformer(" src/ tests/', 'src/search/embed.py:12:    return '
                                                                  'SentenceTransformer("sentence-transformers/all-'
                                                                  'MiniLM-L6-v2")')
               .edit("src/search/embed.py", '    return SentenceTransformer("sentence-transformers/all-MiniLM-L6-v2")',
                     '    return SentenceTransformer(os.environ.get("EMBED_MODEL_PATH", "sentence-transformers/all-'
                     'MiniLM-L6-v2"))')
               .ok(run.replace("--network none", "--network none -e EMBED_MODEL_PATH=/opt/models/all-MiniLM-L6-v2"),
                   "5 passed in 6.40s")
               .stop("The model has to come from the copy in the image: `src/search/embed.py` now loads from "
                     "`EMBED_MODEL_PATH`."))
    (candidate,), _ = _candidates(store, session)
    assert "grep" not in candidate["change"], candidate["change"]


def test_the_way_run_before_and_after_a_quoted_edit_is_a_step_of_the_fix(git_project, store):
    # (blind270 JK21: ``packer init .`` found no plugins to install; the ``required_plugins`` block written, it
    # installed them. Stored as "use `packer init .` instead", the block the account quotes left out as the task's)
    build = "packer build -var-file=vars/prod.pkrvars.hcl ."

    def session(name, before):
        s = (Session(name, git_project, prompt="packer build for the base AMI fails on the new CI runner image")
             .fail(build, "Exit code 1\nError: Unknown source type amazon-ebs\n\nThe source amazon-ebs is unknown by "
                          "Packer, and is likely part of a plugin that is not installed."))
        if before:
            s.ok("packer init .", "No plugins requirement found, make sure you reference a Packer config\ncontaining "
                                  "a packer.required_plugins block.")
        return (s.write("plugins.pkr.hcl", "packer {\n  required_plugins {\n    amazon = {\n      source  = "
                                           "\"github.com/hashicorp/amazon\"\n      version = \"~> 1.3\"\n    }\n"
                                           "  }\n}\n")
                .ok("packer init .", "Installed plugin github.com/hashicorp/amazon v1.3.2")
                .stop("Packer 1.10+ no longer ships the amazon builder, and this template never declared it. I added "
                      "`plugins.pkr.hcl` with a `required_plugins` block for `github.com/hashicorp/amazon`; CI needs "
                      "to run `packer init .` before `packer build`."))
    (candidate,), _ = _candidates(store, session("before", True))
    assert "github.com/hashicorp/amazon" in candidate["change"], candidate["change"]
    assert "packer init ." in candidate["change"], candidate["change"]


def test_a_wait_on_the_next_numbered_job_is_the_same_check(git_project, store):
    # (blind270 JK22: ``kubectl wait … job/pg-backup-manual-1`` timed out on a script mounted 0644; ``defaultMode:
    # 0755`` added, the job made again as ``pg-backup-manual-2`` completed: the second problem had read as unresolved)
    wait = "kubectl wait --for=condition=complete job/pg-backup-manual-{} -n data --timeout={}s"
    session = (Session("cron", git_project, prompt="trigger a manual run of the pg-backup CronJob and make sure it "
                                                   "actually completes")
               .fail(wait.format(1, 120), "Exit code 1\nerror: timed out waiting for the condition on jobs/pg-backup-"
                                          "manual-1")
               .edit("k8s/backup/cronjob.yaml", "              configMap:\n                name: pg-backup-scripts",
                     "              configMap:\n                name: pg-backup-scripts\n"
                     "                defaultMode: 0755")
               .ok("kubectl apply -f k8s/backup/cronjob.yaml && kubectl create job pg-backup-manual-2 "
                   "--from=cronjob/pg-backup -n data", "job.batch/pg-backup-manual-2 created")
               .ok(wait.format(2, 300) + " && kubectl logs job/pg-backup-manual-2 -n data | tail -1",
                   "job.batch/pg-backup-manual-2 condition met\ndone in 94s")
               .stop("The manual run crash-looped with `exec: \"/scripts/backup.sh\": permission denied` — the "
                     "script comes from a ConfigMap volume, mounted 0644 by default. Added `defaultMode: 0755`."))
    (candidate,), _ = _candidates(store, session)
    assert "defaultMode: 0755" in candidate["change"], candidate["change"]
    # (another job than the one that failed is another question)
    other = (Session("other", git_project, prompt="make sure the backup completes")
             .fail(wait.format(1, 120), "Exit code 1\nerror: timed out waiting for the condition on jobs/pg-backup-"
                                        "manual-1")
             .ok("kubectl wait --for=condition=complete job/pg-restore-check-1 -n data --timeout=120s",
                 "job.batch/pg-restore-check-1 condition met")
             .stop("The restore check completed."))
    candidates, notes = _candidates(store, other)
    assert not candidates and "unresolved_failure" in notes, [c["title"] for c in candidates]


def test_a_code_generators_marker_is_code_and_a_step_taken_twice_is_shown_once(git_project, store):
    # (blind270 JK15: ``// +kubebuilder:subresource:status`` read as a comment, so only the regeneration was kept,
    # twice: "Run `make manifests` before `make test`. Run `make manifests` before `make test`.")
    types = "api/v1alpha1/backupschedule_types.go"
    session = (Session("marker", git_project, prompt="The BackupSchedule controller test never sees status.phase "
                                                     "become Ready; make test times out on that spec")
               .fail("make test", "Exit code 2\n[FAILED] Timed out after 10.001s.\nExpected\n    <string>: \nto equal\n"
                                  "    <string>: Ready")
               .ok("make manifests && git status --short", "")
               .edit(types, "// +kubebuilder:object:root=true\n\n// BackupSchedule is the Schema",
                     "// +kubebuilder:object:root=true\n// +kubebuilder:subresource:status\n\n// BackupSchedule is "
                     "the Schema")
               .ok("make manifests && git diff --stat", " config/crd/bases/ops.acme.io_backupschedules.yaml | 2 ++")
               .ok("make test 2>&1 | tail -3", "SUCCESS! -- 3 Passed | 0 Failed\nok  \tgithub.com/acme/backup-operator")
               .stop("The CRD had no status subresource: `BackupSchedule` was missing the "
                     "`// +kubebuilder:subresource:status` marker, so `r.Status().Update()` found no `/status`. Added "
                     "it and regenerated with `make manifests`."))
    (candidate,), _ = _candidates(store, session)
    assert "+kubebuilder:subresource:status" in candidate["change"], candidate["change"]
    assert candidate["change"].count("make manifests") <= 1, candidate["change"]


def test_an_attempt_whose_line_the_account_quotes_lined_up_otherwise_is_part_of_the_fix(git_project, store):
    # (blind267 JH17: the account quotes `currency char(3) NOT NULL DEFAULT 'EUR'`, the schema file lines its columns
    # up, ``currency     char(3) …``; the edit, not enough until ``make repl-reset``, was shown as what did not help)
    session = (Session("ddl", git_project, prompt="make test-replication fails: the subscriber never gets the rows")
               .fail("make test-replication", "Exit code 2\nsubscriber: 0 rows after 60s\nmake: *** [Makefile:31: "
                                              "test-replication] Error 1")
               .edit("docker/subscriber/00-schema.sql", "    total_cents  bigint NOT NULL,\n",
                     "    total_cents  bigint NOT NULL,\n    currency     char(3) NOT NULL DEFAULT 'EUR',\n")
               .fail("make test-replication", "Exit code 2\nsubscriber: 0 rows after 60s\nmake: *** [Makefile:31: "
                                              "test-replication] Error 1")
               .ok("make repl-reset", "docker compose -f docker/replication.yml down -v")
               .ok("make test-replication", "subscriber: 1200 rows after 4s\n6 passed")
               .stop("Logical replication doesn't replicate DDL. Fix:\n- added `currency char(3) NOT NULL DEFAULT "
                     "'EUR'` to `orders` in docker/subscriber/00-schema.sql\n- that file is an init script, so it only "
                     "runs on an empty volume: `make repl-reset` first, then `make test-replication`."))
    (candidate,), _ = _candidates(store, session)
    change = candidate["change"].split("Did not help")[0]
    assert "currency char(3)" in " ".join(change.split()) and "make repl-reset" in change, candidate["change"]


def test_a_fixtures_null_or_missing_row_filled_in_is_a_weakened_test(git_project, store):
    # (blind267 JH09: the refunds fixture given a row for the order that had none, ``[1, 3]`` → ``[1, 2, 3]``, so the
    # left join's null never comes; blind221 HN09: a row's currency ``None`` → ``"USD"``, so the inner join keeps it)
    def session(name, old, new):
        return (Session(name, git_project, prompt="test_daily_revenue started failing after the join refactor")
                .fail("uv run pytest tests/test_revenue.py -q",
                      "Exit code 1\n>       assert out[\"net_revenue\"].to_list() == [180.5, 90.0]\nE       "
                      "AssertionError: assert [180.5, None] == [180.5, 90.0]\nFAILED tests/test_revenue.py::"
                      "test_daily_revenue")
                .edit("tests/test_revenue.py", old, new)
                .ok("uv run pytest tests/test_revenue.py -q", "4 passed in 0.38s")
                .stop("The fixture didn't match the shape the join expects, so that day's revenue came out null. I "
                      "made the fixture carry a row for it."))
    for old, new in (('    return pl.LazyFrame({"order_id": [1, 3], "refund_amount": [50.0, 19.5]})',
                      '    # one refund row per order\n    return pl.LazyFrame({"order_id": [1, 2, 3], '
                      '"refund_amount": [50.0, 0.0, 19.5]})'),
                     ("    (3, date(2024, 3, 1), 25.0, None),", '    (3, date(2024, 3, 1), 25.0, "USD"),')):
        candidates, notes = _candidates(store, session(old[-8:], old, new))
        assert not candidates and "weakened_test" in notes, [c["title"] for c in candidates]


def test_a_null_the_test_passed_given_a_value_or_a_test_kept_off_the_failing_sdk_is_weakened(git_project, store):
    # (blind194 GM12: ``pipeInput("cart-42", null)`` → ``CartEvent.cleared("cart-42")``, the tombstone the topology
    # had to handle no longer sent; blind205 GX17: ``@SdkSuppress(maxSdkVersion = 33)`` on a test racing on API 34)
    def session(name, path, old, new):
        return (Session(name, git_project, prompt="the test is failing, get it green")
                .fail("./gradlew test --tests 'com.acme.cart.CartTotalsTopologyTest'",
                      "Exit code 1\nCartTotalsTopologyTest > emptiesTotalsOnTombstone() FAILED\n    org.opentest4j."
                      "AssertionFailedError: expected: <null> but was: <CartTotal[cartId=cart-42, cents=1998]>")
                .edit(path, old, new)
                .ok("./gradlew test --tests 'com.acme.cart.CartTotalsTopologyTest'", "BUILD SUCCESSFUL in 9s")
                .stop("The test now sends what the app sends, and it passes."))
    test = "src/test/java/com/acme/cart/CartTotalsTopologyTest.java"
    for name, old, new in (("null", '        cartEvents.pipeInput("cart-42", null);',
                            '        cartEvents.pipeInput("cart-42", CartEvent.cleared("cart-42"));'),
                           ("sdk", "    @Test\n    fun showsResultsForQuery() {",
                            "    @Test\n    @SdkSuppress(maxSdkVersion = 33)\n    fun showsResultsForQuery() {")):
        candidates, notes = _candidates(store, session(name, test, old, new))
        assert not candidates and "weakened_test" in notes, [c["title"] for c in candidates]


def test_a_doctest_told_to_match_loosely_or_a_test_no_longer_taking_done_is_weakened(git_project, store):
    # (blind275 JP06: ``# doctest: +ELLIPSIS`` and ``'€2.3...'`` for the ``'€2.35'`` that failed; blind278 JS11: the
    # typeahead test that timed out stopped taking ``done``, so its subscription's assertions never ran)
    doctest = (Session("doctest", git_project, prompt="`make doctest` fails on pricing.format_price")
               .fail("make doctest", "Exit code 2\nFile \"src/tillkit/pricing.py\", line 18, in pricing.format_price\n"
                                     "Failed example:\n    format_price(Decimal(\"2.345\"))\nExpected:\n    '€2.35'\n"
                                     "Got:\n    '€2.34'")
               .edit("src/tillkit/pricing.py", "    >>> format_price(Decimal(\"2.345\"))\n    '€2.35'",
                     "    >>> format_price(Decimal(\"2.345\"))  # doctest: +ELLIPSIS\n    '€2.3...'")
               .ok("make doctest", "uv run python -m doctest src/tillkit/pricing.py")
               .stop("The doctest was pinned to the exact last digit of a half-cent amount; it uses `+ELLIPSIS` now."))
    done = (Session("done", git_project, prompt="the search typeahead test times out, fix it please")
            .fail("npx jest src/app/search/typeahead.spec.ts",
                  "Exit code 1\n  ✕ emits results for the latest term only (5003 ms)\n    thrown: \"Exceeded timeout "
                  "of 5000 ms for a test.\"")
            .edit("src/app/search/typeahead.spec.ts", "  it('emits results for the latest term only', (done) => {\n"
                  "    results$.subscribe((r) => {\n      expect(r).toEqual(['angular']);\n      done();\n",
                  "  it('emits results for the latest term only', () => {\n    results$.subscribe((r) => {\n"
                  "      expect(r).toEqual(['angular']);\n")
            .ok("npx jest src/app/search/typeahead.spec.ts", "Tests:       3 passed, 3 total")
            .stop("The test no longer depends on a `done` callback, so it can't hang waiting for it."))
    for session in (doctest, done):
        candidates, notes = _candidates(store, session)
        assert not candidates and "weakened_test" in notes, [c["title"] for c in candidates]


def test_a_step_by_the_piped_programs_own_tool_changes_what_the_check_meets(git_project, store):
    # (blind280 JU03: ``xcodebuild -downloadPlatform iOS -buildVersion 17.5`` installed the runtime the ``xcodebuild
    # test … | xcpretty`` run could not find; skipped as no run of the piped check, it was no change either)
    run = ("set -o pipefail && xcodebuild test -project Trailmap.xcodeproj -scheme Trailmap -destination "
           "'platform=iOS Simulator,name=iPhone 15,OS=17.5' | xcpretty")
    session = (Session("runtime", git_project, prompt="Run the unit tests on the iOS 17.5 simulator like CI does")
               .fail(run, "Exit code 70\nxcodebuild: error: Unable to find a device matching the provided destination "
                          "specifier:\n\t\t{ platform:iOS Simulator, OS:17.5, name:iPhone 15 }")
               .ok("xcodebuild -downloadPlatform iOS -buildVersion 17.5",
                   "Downloading iOS 17.5 Simulator (21F79) (arm64): Done.")
               .ok(run, "▸ Test Succeeded\nExecuted 23 tests, with 0 failures")
               .stop("Xcode 16 only ships with the iOS 18 runtime. Running `xcodebuild -downloadPlatform iOS "
                     "-buildVersion 17.5` once installed that runtime, and the unchanged CI `xcodebuild test` "
                     "command worked after that."))
    (candidate,), _ = _candidates(store, session)
    assert "xcodebuild -downloadPlatform iOS -buildVersion 17.5" in candidate["change"], candidate["change"]


def test_a_go_test_run_filtered_to_its_pass_lines_passed(git_project, store):
    # (blind279 JT10: ``make test-integration 2>&1 | grep -E '^(---|ok|FAIL)'`` showed ``--- PASS`` and ``ok  pkg``
    # lines only; read as a look with no verdict, the project's way was never stored)
    session = (Session("grepped", git_project, prompt="Can you run the notifier's tests?")
               .fail("go test ./...", "Exit code 1\n--- FAIL: TestSubscriber_ReceivesPublished (0.00s)\n    "
                                      "subscriber_test.go:27: dial tcp [::1]:6379: connect: connection refused\nFAIL")
               .ok("make test-integration 2>&1 | grep -E '^(---|ok|FAIL)'",
                   "--- PASS: TestSubscriber_ReceivesPublished (0.01s)\nok  \tgithub.com/acme/notifier/internal/"
                   "pubsub\t2.318s")
               .stop("Plain `go test ./...` fails because the pub/sub tests need a real Redis. This repo runs them "
                     "with `make test-integration`, which brings up the Redis from `docker-compose.test.yml`."))
    (candidate,), _ = _candidates(store, session)
    assert "make test-integration" in candidate["change"], candidate["change"]


def test_a_quiet_build_that_failed_is_built_by_its_tests(git_project, store):
    # (blind276 JQ04: ``mvn -q compile`` failed on the Avro decimal; ``mvn test`` built it with
    # ``<enableDecimalLogicalType>`` set and passed, the ``-q`` had kept the two apart)
    session = (Session("avro", git_project, prompt="mvn compile broke after I added the amount field to invoice.avsc")
               .fail("mvn -q compile", "Exit code 1\n[ERROR] /home/dev/billing/src/main/java/com/acme/billing/"
                                       "InvoiceMapper.java:[37,33] incompatible types: java.math.BigDecimal cannot be "
                                       "converted to java.nio.ByteBuffer")
               .edit("pom.xml", "            <stringType>String</stringType>",
                     "            <stringType>String</stringType>\n"
                     "            <enableDecimalLogicalType>true</enableDecimalLogicalType>")
               .ok("mvn test | tail -3", "[INFO] Tests run: 18, Failures: 0, Errors: 0, Skipped: 0\n"
                                         "[INFO] BUILD SUCCESS")
               .stop("avro-maven-plugin generates `decimal` fields as `ByteBuffer` unless told otherwise. Added "
                     "`<enableDecimalLogicalType>true</enableDecimalLogicalType>` to the plugin's configuration."))
    (candidate,), _ = _candidates(store, session)
    assert "enableDecimalLogicalType" in candidate["change"], candidate["change"]


def test_a_did_not_help_sentence_told_as_the_sessions_story_is_kept_whole(git_project, store):
    # (blind244 IK04, a regression the replay found: "I tried that, it changed nothing, and I reverted it", cut to "I
    # tried that, it changed nothing.", left a summary short enough for its "I tried" to read as a diary: nothing
    # was stored)
    build = "cd rust && cargo ndk -t arm64-v8a -o ../android/app/src/main/jniLibs build --release"
    error = ("Exit code 1\nError: Could not find any NDK.\nnote: Set the environment variable ANDROID_NDK_HOME to "
             "your NDK installation's root directory")
    env = '[env]\nANDROID_NDK_HOME = "/Users/kit/Library/Android/sdk/ndk/26.3.11579264"\n\n'
    target = "[target.aarch64-linux-android]\n"
    session = (Session("ndk", git_project, prompt="cargo ndk bails out; get libsignet_core.so building for arm64")
               .fail(build, error)
               .edit("rust/.cargo/config.toml", target, env + target)
               .fail(build, error)
               .edit("rust/.cargo/config.toml", env + target, target)
               .ok(build.replace("cargo ndk", "ANDROID_NDK_HOME=$HOME/Library/Android/sdk/ndk/26.3.11579264 cargo ndk"),
                   "Building arm64-v8a (aarch64-linux-android)\n    Finished `release` profile [optimized] target(s)")
               .stop("cargo-ndk locates the NDK itself, before cargo ever reads `.cargo/config.toml`, so an `[env]` "
                     "entry there is invisible to it — I tried that, it changed nothing, and I reverted it. Running "
                     "the build with `ANDROID_NDK_HOME=$HOME/Library/Android/sdk/ndk/26.3.11579264` set works, and "
                     "`libsignet_core.so` is back in `jniLibs/arm64-v8a`. You may want to export that in your shell "
                     "profile. (Setting `ndk.dir` in local.properties wouldn't help here — that's only read by "
                     "Gradle, not by cargo-ndk.)"))
    (candidate,), _ = _candidates(store, session)
    assert "ANDROID_NDK_HOME=$HOME/Library/Android/sdk/ndk/26.3.11579264" in candidate["change"], candidate["change"]
    assert "I reverted it" in candidate["summary"], candidate["summary"]
    assert [n["title"] for n in store.project_notes(PROJECT)] == [candidate["title"]]


def test_an_install_that_saves_to_the_manifest_names_the_line_a_diff_showed_it_wrote(git_project, store):
    # (blind278 JS18: the lesson is the devDependency `npm install -D` wrote into package.json, which a `git diff`
    # after it printed; "Run `npm install -D …` before `npx jest …`" read as a step to take before every test run)
    error = ("Exit code 1\n FAIL  src/components/LoginForm.test.tsx\n  ● Test suite failed to run\n\n    Cannot find "
             "module '@testing-library/dom' from 'node_modules/@testing-library/react/dist/pure.js'")
    diff = ("diff --git a/package.json b/package.json\nindex 4be1a02..9c3f7e1 100644\n--- a/package.json\n"
            "+++ b/package.json\n@@ -34,6 +34,7 @@\n   \"devDependencies\": {\n"
            "+    \"@testing-library/dom\": \"^10.4.0\",\n     \"@testing-library/jest-dom\": \"^6.5.0\",")
    session = (Session("peer", git_project, prompt="the component tests fail to start after the dependency update")
               .fail("npx jest src/components", error)
               .ok("cat .npmrc", "legacy-peer-deps=true")
               .ok("npm install -D @testing-library/dom@^10.4.0", "added 3 packages, and audited 1123 packages in 4s")
               .ok("git diff package.json", diff)
               .ok("npx jest src/components", "Test Suites: 9 passed, 9 total\nTests:       47 passed, 47 total")
               .stop("`@testing-library/react` 16 takes `@testing-library/dom` as a peer dependency, and `.npmrc` "
                     "sets `legacy-peer-deps=true`, so npm never installed it. I added it to devDependencies."))
    (candidate,), _ = _candidates(store, session)
    assert 'adds `"@testing-library/dom": "^10.4.0"` to package.json' in candidate["change"], candidate["change"]
    assert "before `npx jest" not in candidate["change"], candidate["change"]


def test_a_step_another_failure_on_the_way_asked_for_is_no_part_of_the_fix(git_project, store):
    # (blind279 JT13: "To refresh this SSO session run aws sso login" answered `aws sts get-caller-identity`, a look
    # on the way; the card told to run `aws sso login` before the failing `kubectl exec`)
    session = (Session("irsa", git_project, prompt="ingest-worker pods keep crashlooping since the chart refactor")
               .fail("kubectl exec -n ingest deploy/ingest-worker -- env | grep AWS_",
                     "Exit code 1\nerror: unable to upgrade connection: container not found (\"worker\")")
               .fail("aws sts get-caller-identity",
                     "Exit code 255\n\nThe SSO session associated with this profile has expired or is otherwise "
                     "invalid. To refresh this SSO session run aws sso login with the corresponding profile.")
               .ok("aws sso login --profile platform-admin", "Successfully logged into Start URL: https://x/start")
               .ok("AWS_PROFILE=platform-admin aws iam get-role --role-name ingest-worker-irsa",
                   '{"sub": "system:serviceaccount:ingest:ingest-worker"}')
               .edit("charts/ingest-worker/values.yaml", "  name: ingest-worker-sa\n", "  name: ingest-worker\n")
               .ok("helm upgrade ingest-worker charts/ingest-worker -n ingest --wait", "Release upgraded")
               .ok("kubectl exec -n ingest deploy/ingest-worker -- env | grep AWS_",
                   "AWS_ROLE_ARN=arn:aws:iam::481516234200:role/ingest-worker-irsa")
               .stop("The chart renamed the ServiceAccount to `ingest-worker-sa`, but the role's trust policy only "
                     "accepts `system:serviceaccount:ingest:ingest-worker`. I set the name back in values.yaml."))
    candidates, _ = _candidates(store, session)
    assert candidates, _
    for candidate in candidates:
        assert "aws sso login" not in candidate["change"], candidate["change"]
    assert any("name: ingest-worker" in c["change"] for c in candidates), [c["change"] for c in candidates]


def test_a_package_script_is_named_by_its_script_and_its_failure_by_a_line_it_marked(git_project, store):
    # (blind278 JS13: "run `npm run deploy` when you're ready" named ``rm -rf out .next && npm run build`` as the way
    # for a failed `aws s3 ls`, and the real lesson was titled by npm's echo, "fails with > marketing-site@0.4.0
    # check:export")
    from lorebook.chains import _raw_error_line
    from lorebook.steps import _names_run
    assert not _names_run(["npm", "run", "build"], "run `npm run deploy` when you're ready")
    assert _names_run(["npm", "run", "build"], "then `npm run build` passes")
    check = ("Exit code 1\n\n> marketing-site@0.4.0 check:export\n> node scripts/check-export.mjs\n\nresolving routes "
             "the way an S3 website endpoint does\n  ✓ /                  -> out/index.html\n  ✗ /pricing           -> "
             "out/pricing/index.html (missing)\n4 of 5 routes would 404")
    assert _raw_error_line({"error_text": check}) == "✗ /pricing -> out/pricing/index.html (missing)"
    session = (Session("s3", git_project, prompt="every page but the home page 404s on S3 website hosting")
               .fail("npm run check:export", check)
               .fail("aws s3 ls s3://acme-marketing-site/ | head", "Exit code 255\n\nUnable to locate credentials. "
                     "You can configure credentials by running \"aws configure\".")
               .edit("next.config.mjs", "  output: 'export',\n", "  output: 'export',\n  trailingSlash: true,\n")
               .ok("rm -rf out .next && npm run build 2>&1 | tail -3", "Route (app)  Size\n○ /about  1.2 kB")
               .ok("npm run check:export", "resolving routes\n  ✓ /pricing -> out/pricing/index.html\nall 5 routes "
                                           "resolve")
               .stop("An S3 website endpoint only maps a path to `<path>/index.html`; the export wrote flat files. "
                     "Fix: `trailingSlash: true` in next.config.mjs.\n\n- `aws s3 ls` failed locally (no credentials), "
                     "so I haven't redeployed — run `npm run deploy` when you're ready."))
    (candidate,), _ = _candidates(store, session)
    assert candidate["title"].startswith("`npm run check:export` fails with ✗ /pricing"), candidate["title"]
    assert "trailingSlash: true" in candidate["change"], candidate["change"]


def test_committing_and_pushing_the_edit_for_the_check_to_read_is_no_step_of_the_fix(git_project, store):
    # (blind276 JQ07: Argo CD syncs from git, so the edit was committed and pushed to a branch and the sync given
    # ``--revision`` of it; the card's room went to "Run `git checkout -b … && git commit …` first" and the branch,
    # and the changed hook annotation was cut)
    job = "apps/payments/templates/migrate-job.yaml"
    session = (Session("argo", git_project, prompt="payments-dev won't sync on a fresh cluster — db-migrate fails")
               .fail("argocd app sync payments-dev --timeout 300",
                     "Exit code 1\nFATA[0167] Operation has completed with phase: Failed")
               .edit(job, "    argocd.argoproj.io/hook: PreSync\n",
                     "    argocd.argoproj.io/hook: Sync\n    argocd.argoproj.io/sync-wave: \"1\"\n")
               .ok("git checkout -b fix/payments-migrate-wave && git commit -qam \"payments: migrate after the "
                   "secret\" && git push -q -u origin fix/payments-migrate-wave", "Switched to a new branch")
               .ok("argocd app sync payments-dev --revision fix/payments-migrate-wave --timeout 300",
                   "Message: successfully synced (all tasks run)")
               .stop("The migration Job ran as a PreSync hook, before the ExternalSecret that creates `payments-db`. "
                     "It is now `argocd.argoproj.io/hook: Sync` with `argocd.argoproj.io/sync-wave: \"1\"`; "
                     "payments-dev synced cleanly from fix/payments-migrate-wave."))
    (candidate,), _ = _candidates(store, session)
    assert "git checkout" not in candidate["change"] and "--revision" not in candidate["change"], candidate["change"]
    assert "argocd.argoproj.io/hook: Sync" in candidate["change"], candidate["change"]


def test_a_test_filter_left_out_beside_the_edit_that_fixed_it_is_how_it_was_run(git_project, store):
    # (blind274 JO24: the whole suite run after the fix, without ``-only-testing:…``, put "Without
    # `-only-testing:RingoTests/PushHandlerCancelTests`." in the change, whose room the fix's lines needed)
    run = "xcodebuild test -scheme Ringo -destination 'platform=iOS Simulator,name=iPhone 15'"
    handler = "Ringo/Calls/PushHandler.swift"
    session = (Session("voip", git_project, prompt="every VoIP push must report a call to CallKit")
               .fail(f"{run} -only-testing:RingoTests/PushHandlerCancelTests -quiet",
                     "Exit code 65\nPushHandlerCancelTests.swift:11: error: -[RingoTests.PushHandlerCancelTests "
                     "testCancelledPushStillReportsCall] : XCTAssertEqual failed: (\"0\") is not equal to (\"1\")")
               .edit(handler, "        if payload.kind == .callCancelled {\n            completion()\n",
                     "        if payload.kind == .callCancelled {\n"
                     "            provider.reportNewIncomingCall(with: uuid, update: update) { _ in\n"
                     "                self.provider.reportCall(with: uuid, endedAt: nil, reason: .remoteEnded)\n")
               .ok(f"{run} -quiet", "Executed 48 tests, with 0 failures (0 unexpected)\n** TEST SUCCEEDED **")
               .stop("The cancel branch now reports a call to CallKit and ends it at once with `.remoteEnded`."))
    (candidate,), _ = _candidates(store, session)
    assert "only-testing" not in candidate["change"], candidate["change"]


def test_a_strategy_narrowed_to_values_named_on_a_line_of_their_own_is_weakened(git_project, store):
    # (blind281 JV11: ``TITLE_CHARS = string.ascii_letters + …`` above ``@given(st.text(alphabet=TITLE_CHARS))``; the
    # narrowed strategy was stored as the fix)
    from lorebook.weakening import _narrows_strategy
    old = "@given(st.text())\ndef test_slugify_idempotent(s):"
    new = ("TITLE_CHARS = string.ascii_letters + string.digits + \" -_'\"\n\n\n"
           "@given(st.text(alphabet=TITLE_CHARS))\ndef test_slugify_idempotent(s):")
    assert _narrows_strategy({"tests/test_slugs.py": [{"old": old, "new": new, "ids": [1]}]})
    # (a constant the strategy does not use is a change of its own)
    other = "LIMIT = 3\n\n\n@given(st.text(alphabet=string.ascii_letters))\ndef test_slugify_idempotent(s):"
    assert not _narrows_strategy({"tests/test_slugs.py": [{"old": old, "new": other, "ids": [1]}]})


def test_a_test_that_forces_the_merge_the_code_relies_on_is_weakened(git_project, store):
    # (blind282 JW07: ``ch.command("OPTIMIZE TABLE orders FINAL")`` before the read made a ReplacingMergeTree's
    # duplicate go in the test; the repository's own read still sees both versions until a merge)
    test = "tests/test_orders_repo.py"
    read = "    rows = OrdersRepo(ch).latest_orders(customer_id=7)\n"
    session = (Session("merge", git_project, prompt="test_latest_orders_dedupes fails since ReplacingMergeTree")
               .fail("uv run pytest tests/test_orders_repo.py -q",
                     "Exit code 1\nE       AssertionError: assert ['shipped', 'pending'] == ['shipped']\nE         "
                     "Left contains one more item: 'pending'")
               .edit(test, read, "    ch.command(\"OPTIMIZE TABLE orders FINAL\")\n" + read)
               .ok("uv run pytest tests/test_orders_repo.py -q", "4 passed in 1.02s")
               .stop("ReplacingMergeTree only collapses versions when parts merge. The test now runs `OPTIMIZE TABLE "
                     "orders FINAL` before reading, so the merge happens deterministically."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes, (candidates, notes)


def test_a_test_that_wanted_an_error_given_a_stub_that_throws_it_is_weakened(git_project, store):
    # (blind285 JZ10: "Received promise resolved instead of rejected"; the test then made the DynamoDB client reject
    # with the error the code maps, and passed whatever the refactored code does)
    test = "tests/reservations.test.ts"
    second = "    await expect(\n"
    error = ("Exit code 1\n  ● reserveSeat › rejects a second booking of the same seat\n\n    expect(received).rejects"
             ".toThrow()\n\n    Received promise resolved instead of rejected")
    session = (Session("stubthrow", git_project, prompt="the double-booking test is red after the seat-map refactor")
               .fail("npx jest tests/reservations.test.ts", error)
               .edit(test, second, "    jest.spyOn(ddb, \"send\").mockRejectedValueOnce(\n      new "
                                   "ConditionalCheckFailedException({ message: \"failed\", $metadata: {} })\n    );\n"
                     + second)
               .ok("npx jest tests/reservations.test.ts", "Tests:       3 passed, 3 total")
               .stop("The second call now gets DynamoDB's `ConditionalCheckFailedException`, which `reserveSeat` maps "
                     "to `SeatTakenError`. I made the test stub that response on the client."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes, (candidates, notes)
    # (a stub the test had, set right, is the test fixed)
    from lorebook.weakening import _is_weakening
    hunk = {"old": "    api.get.mockResolvedValue({ status: 500 })\n", "new": "    api.get.mockRejectedValue(new "
            "HttpError(500))\n", "ids": [1]}
    assert _is_weakening("tests/profile.test.ts", [hunk], "Received promise resolved instead of rejected") is None


def test_a_run_narrowed_to_a_path_the_account_says_the_plain_run_strays_from_is_the_way(git_project, store):
    # (blind281 JV13: plain `bun test` also matched the Playwright specs in e2e/; `bun test ./src` was the way, and
    # nothing was stored, "retry without change")
    error = ("Exit code 1\nsrc/auth/refresh.test.ts:\n✓ refreshToken > rotates the refresh token [1.42ms]\n\n"
             "e2e/login.spec.ts:\n\n# Unhandled error between tests\nerror: Playwright Test did not expect test() to "
             "be called here.\n\n 4 pass\n 0 fail\n 1 error")
    session = (Session("bunsrc", git_project, prompt="run the unit tests for my token refresh change")
               .fail("bun test", error)
               .ok("bun test ./src", " 4 pass\n 0 fail\nRan 4 tests across 2 files.")
               .stop("The red run was only because plain `bun test` also matches `*.spec.ts`, so it picked up the "
                     "Playwright specs in e2e/. `bun test ./src` runs just the unit tests."))
    (candidate,), _ = _candidates(store, session)
    assert "bun test ./src" in candidate["change"], candidate["change"]
    # (a check that failed, left out by the narrower run, is no way)
    failed = error.replace("✓ refreshToken", "✗ refreshToken").replace(" 0 fail", " 1 fail")
    from lorebook.candidates import _narrowed_as_said
    assert not _narrowed_as_said({"target": "bun test", "error_text": failed}, {"target": "bun test ./src"},
                                 "plain `bun test` also matches the specs; `bun test ./src` passes")


def test_the_way_said_after_a_dash_beside_what_does_not_work_is_not_an_attempt(git_project, store):
    # (blind282 JW09: "plain `pulumi preview` doesn't work - state lives in an S3 backend, so it has to go through
    # `just preview dev`": the way, quoted in the clause that says the plain run does not work, read as what did not
    # help, and nothing was stored)
    session = (Session("justway", git_project, prompt="run a pulumi preview for the new SQS queues")
               .fail("cd infra && pulumi preview", "Exit code 255\nerror: no stack selected; please use `pulumi stack "
                                                  "select` or `pulumi stack init`")
               .ok("cd infra && just preview dev", "Previewing update (dev):\nResources:\n    + 2 to create")
               .stop("Preview for dev looks right.\n\nNote for this repo: plain `pulumi preview` doesn't work - state "
                     "lives in an S3 backend, so it has to go through `just preview dev`, which sets "
                     "`PULUMI_BACKEND_URL` and the stack for you."))
    (candidate,), _ = _candidates(store, session)
    assert "just preview dev" in candidate["change"], candidate["change"]


def test_a_pod_still_initialising_minutes_on_is_listed_failing(git_project, store):
    # (blind282 JW14: ``Init:0/1`` at ``6m12s``, the Vault agent's login refused; nothing failed as a command and
    # nothing was stored)
    from lorebook.steps import _listed_failing, parse_command
    listing = ("NAME                              READY   STATUS     RESTARTS   AGE\n"
               "billing-worker-6d9f8b7c54-xk2lp   0/2     Init:0/1   0          {age}")
    get = "kubectl get pods -n billing -l app=billing-worker"
    assert _listed_failing({"body": listing.format(age="6m12s"), "target": get}, parse_command(get))
    assert _listed_failing({"body": listing.format(age="40s"), "target": get}, parse_command(get)) is None
    deployment = "deploy/billing-worker/deployment.yaml"
    session = (Session("initstuck", git_project, prompt="billing-worker pods are stuck in Init since the vault move")
               .ok(get, listing.format(age="6m12s"))
               .ok("kubectl logs -n billing billing-worker-6d9f8b7c54-xk2lp -c vault-agent-init --tail 9",
                   "[ERROR] agent.auth.handler: error authenticating: Code: 403. * service account name not authorized")
               .edit(deployment, "    spec:\n      containers:\n",
                     "    spec:\n      serviceAccountName: billing-worker\n      containers:\n")
               .ok("kubectl apply -f deploy/billing-worker/ && kubectl rollout status deploy/billing-worker -n billing",
                   "deployment.apps/billing-worker configured\ndeployment \"billing-worker\" successfully rolled out")
               .stop("The pods ran as the `default` service account, while the Vault role is bound to "
                     "`billing-worker`. The deployment now sets `serviceAccountName: billing-worker`."))
    (candidate,), _ = _candidates(store, session)
    assert "serviceAccountName: billing-worker" in candidate["change"], candidate["change"]


def test_the_value_the_fix_wrote_is_shown_by_the_first_step_that_printed_it(git_project, store):
    # (blind283 JX06: ``curl … -o /tmp/x.zip && swift package compute-checksum /tmp/x.zip`` printed the checksum
    # Package.swift took, and the vendor's ``.sha256`` fetched after only agreed; the card showed both downloads, cut
    # to "Run `curl -sSLo /tmp/PaymentsK… https://artifa… && swift package …` first")
    url = "https://artifacts.acme-pay.com/ios/PaymentsKit-3.2.0.xcframework.zip"
    new, old = "9c1e0f4d2b7a63e85f1d0ac4b2e97d61f3a58c20b7e4d19a6c3f05e8b2d71a94", "4e7b21c09d3fa85e6b10c2d47f9a38e5c1"
    session = (Session("checksum", git_project, prompt="bumped PaymentsKit to 3.2.0 and SwiftPM refuses to resolve")
               .fail("swift package resolve", f"Exit code 1\nerror: checksum of downloaded artifact of binary target "
                                              f"'PaymentsKit' ({new}) does not match checksum specified by the "
                                              f"manifest ({old})")
               .ok(f"curl -sSLo /tmp/PaymentsKit-3.2.0.xcframework.zip {url} && swift package compute-checksum "
                   f"/tmp/PaymentsKit-3.2.0.xcframework.zip", new)
               .ok(f"curl -sSL {url}.sha256", f"{new}  PaymentsKit-3.2.0.xcframework.zip")
               .edit("Package.swift", f'            checksum: "{old}"', f'            checksum: "{new}"')
               .ok("swift package resolve && swift build 2>&1 | tail -1", "Build complete! (21.36s)")
               .stop("Package.swift still carried the 3.1.x checksum. I computed the new one with `swift package "
                     "compute-checksum` on the 3.2.0 zip and updated `checksum:`."))
    (candidate,), _ = _candidates(store, session)
    assert "Run `swift package compute-checksum /tmp/PaymentsKit-3.2.0.xcframework.zip`" in candidate["change"], \
        candidate["change"]
    assert "curl" not in candidate["change"], candidate["change"]


def test_a_setting_that_moved_the_error_on_and_the_one_beside_it_that_passed_are_one_lesson(git_project, store):
    # (blind283 JX23: the key's variable moved "A public key has been found, but no private key" on to "incorrect
    # updater private key password"; the password's variable beside it passed; two lessons, the second merged into
    # the first as its near duplicate, and the password's variable was lost)
    key = "TAURI_SIGNING_PRIVATE_KEY=$(cat ~/.tauri/ledgerly.key)"
    session = (Session("tauri", git_project, prompt="get `npm run tauri build` working locally")
               .fail("npm run tauri build 2>&1 | tail -3", "Exit code 1\n    Error A public key has been found, but no "
                                                           "private key. Make sure to set `TAURI_SIGNING_PRIVATE_KEY`")
               .fail(f"{key} npm run tauri build 2>&1 | tail -3",
                     "Exit code 1\n       Error failed to decode secret key: incorrect updater private key password")
               .ok(f"{key} TAURI_SIGNING_PRIVATE_KEY_PASSWORD=\"$(security find-generic-password -s ledgerly -w)\" "
                   "npm run tauri build 2>&1 | tail -3", "    Finished 1 updater signature at:")
               .stop("The updater is enabled, so `tauri build` needs both the private key and its password in the "
                     "environment."))
    (candidate,), _ = _candidates(store, session)
    assert "TAURI_SIGNING_PRIVATE_KEY=$(cat" in candidate["change"], candidate["change"]
    assert "TAURI_SIGNING_PRIVATE_KEY_PASSWORD" in candidate["change"], candidate["change"]


def test_a_flag_after_a_flag_is_no_other_selection_of_tests():
    # (blind284 JY02: ``node --test --experimental-test-module-mocks test/`` read as ``--test`` given another value
    # than the ``test/`` that failed, so the passing run was no run of the failing one, and nothing was stored)
    from lorebook.commands import _same_target
    assert _same_target("node --test test/", "node --test --experimental-test-module-mocks test/")
    assert not _same_target("npx playwright test --grep cart", "npx playwright test --grep checkout")


def test_a_run_of_another_test_file_is_no_pass_of_one_that_failed_in_a_file_since(git_project, store):
    # (blind284 JY22: ``mix test`` failed on a missing dependency, then in comments_test.exs; ``mix test
    # test/blog/notifier_test.exs`` passing was taken for it passing, and the Sandbox.allow fix was lost)
    test = "test/blog/comments_test.exs"
    allow = "    Ecto.Adapters.SQL.Sandbox.allow(Blog.Repo, self(), Process.whereis(Blog.Notifier))\n"
    session = (Session("sandbox", git_project, prompt="mix test is red since I added the Notifier")
               .fail("mix test", "Exit code 1\nUnchecked dependencies for environment test:\n* ex_machina (Hex "
                                 "package)\n  the dependency is not available, run \"mix deps.get\"")
               .ok("mix deps.get", "New:\n  ex_machina 2.8.0")
               .fail("mix test", "Exit code 2\n  1) test create_comment/1 notifies the post author (Blog.CommentsTest)"
                                 "\n     test/blog/comments_test.exs:31\n     ** (DBConnection.OwnershipError) cannot "
                                 "find ownership process for #PID<0.412.0>")
               .ok("mix test test/blog/notifier_test.exs", "3 tests, 0 failures")
               .edit(test, "  alias Blog.Comments\n", "  alias Blog.Comments\n\n  setup do\n" + allow + "    :ok\n"
                                                       "  end\n")
               .ok("mix test test/blog/comments_test.exs", "7 tests, 0 failures")
               .stop("`Blog.Notifier` writes from its own process, which owns no sandbox connection. The fix lets the "
                     "notifier use the test's connection with `Ecto.Adapters.SQL.Sandbox.allow`."))
    candidates, _ = _candidates(store, session)
    assert any("Sandbox.allow(Blog.Repo" in c["change"] for c in candidates), [c["change"] for c in candidates]


def test_a_cloud_read_listing_an_item_failed_with_its_details_then_empty_is_a_resolved_failure(git_project, store):
    # (blind285 JZ12: ``az rest --method get --uri …/configreferences/appsettings`` answered ``"status":
    # "MSINotEnabled"`` with "Key Vault reference was not able to be resolved"; the same read answered ``[]`` after
    # the bicep change; no command failed and nothing was stored)
    read = ("az rest --method get --uri \"/subscriptions/$SUB/resourceGroups/rg-orders-dev/providers/Microsoft.Web/"
            "sites/orders-api-dev/config/configreferences/appsettings?api-version=2022-03-01\" "
            "--query \"value[?properties.status!='Resolved']\"")
    answer = ('[\n  {\n    "details": "Key Vault reference was not able to be resolved because site Managed Identity '
              'not found",\n    "name": "DB_PASSWORD",\n    "status": "MSINotEnabled"\n  }\n]')
    session = (Session("kvref", git_project, prompt="orders-api-dev can't connect to postgres; DB_PASSWORD is a Key "
                                                    "Vault reference")
               .ok(read, answer)
               .edit("infra/app.bicep", "    httpsOnly: true\n", "    httpsOnly: true\n    keyVaultReferenceIdentity: "
                                                                 "uami.id\n")
               .ok("az deployment group create -g rg-orders-dev -f infra/main.bicep", "Succeeded")
               .ok(read, "[]")
               .stop("App Service resolves Key Vault references with the system-assigned identity unless told "
                     "otherwise. I set `keyVaultReferenceIdentity: uami.id` in infra/app.bicep."))
    (candidate,), _ = _candidates(store, session)
    assert "keyVaultReferenceIdentity: uami.id" in candidate["change"], candidate["change"]
    assert "DB_PASSWORD:" not in candidate["title"], candidate["title"]
    assert candidate["validation"]["passed"], candidate["validation"]


def test_a_part_destroyed_before_the_whole_apply_that_passed_is_no_part_planned(git_project, store):
    # (blind285 JZ09: ``terraform destroy -target=… && terraform apply …`` read as a run that left resources out,
    # "weakened", and the ``depends_on`` lesson was lost)
    tf = "terraform/s3_ingest.tf"
    apply = "cd terraform && terraform apply -auto-approve -var-file=dev.tfvars"
    session = (Session("dependson", git_project, prompt="wire the raw-uploads bucket to the csv-ingest lambda")
               .fail(apply, "Exit code 1\nError: creating S3 Bucket (acme-raw-uploads-dev) Notification: api error "
                            "InvalidArgument: Unable to validate the following destination configurations")
               .edit(tf, "    filter_suffix       = \".csv\"\n  }\n}",
                     "    filter_suffix       = \".csv\"\n  }\n\n  depends_on = [aws_lambda_permission.allow_s3]\n}")
               .ok("cd terraform && terraform destroy -auto-approve -var-file=dev.tfvars -target=aws_s3_bucket_"
                   "notification.raw_uploads -target=aws_lambda_permission.allow_s3 && terraform apply -auto-approve "
                   "-var-file=dev.tfvars", "Apply complete! Resources: 2 added, 0 changed, 0 destroyed.")
               .stop("The notification was created in parallel with the Lambda permission, and S3 validates the "
                     "destination when it is written. Added `depends_on = [aws_lambda_permission.allow_s3]`."))
    (candidate,), notes = _candidates(store, session)
    assert "depends_on = [aws_lambda_permission.allow_s3]" in candidate["change"], candidate["change"]


def test_a_build_piped_into_grep_that_shows_its_errors_is_no_pass(git_project, store):
    # (blind286 KA13: ``npm run tauri build -- --verbose 2>&1 | grep -m3 -i "strip"`` exited 0 with "[appimage/
    # linuxdeploy] ERROR: Strip call failed"; read as the build passing, and the ``NO_STRIP=true`` lesson was lost)
    error = "Exit code 1\n       Error failed to bundle project: `failed to run linuxdeploy`"
    session = (Session("nostrip", git_project, prompt="I need the .deb and the AppImage")
               .fail("npm run tauri build", error)
               .ok("npm run tauri build -- --verbose 2>&1 | grep -m3 -i \"strip\"",
                   "[appimage/linuxdeploy] ERROR: Strip call failed: /tmp/.mount_x/usr/bin/strip: unknown type [0x13] "
                   "section `.relr.dyn'")
               .ok("NO_STRIP=true npm run tauri build", "    Finished 2 bundles at:\n        clipcut_0.4.0_amd64.deb")
               .stop("linuxdeploy ships an old `strip` that can't read the `.relr.dyn` sections of this distro's "
                     "libraries. Build with `NO_STRIP=true npm run tauri build` to skip stripping."))
    (candidate,), _ = _candidates(store, session)
    assert "NO_STRIP=true" in candidate["change"], candidate["change"]


@pytest.mark.parametrize("command, job", [
    ("docker compose exec db-test psql -U postgres members_test -c 'select id from \"User\";'", None),
    ("docker compose run --rm airflow-tests", "test"),
    ("docker compose run --rm web pytest -q", "test"),
])
def test_a_compose_service_given_a_command_does_that_commands_job(command, job):
    # (blind281 JV14: ``docker compose exec db-test psql …`` did the "test" job of its service's name, and was taken
    # for the way to run ``npx jest test/users.e2e-spec.ts``)
    assert command_job(command) == job


def test_a_test_repointed_to_a_copy_it_was_given_of_the_project_file_is_weakened(git_project, store):
    # (blind288 KC10: the alert tests now read ``fixtures/checkout_rules_pinned.yml``, a copy of the rules before the
    # change that broke them, in place of ``../rules/checkout.yml``; stored as the fix)
    pinned = "groups:\n  - name: checkout\n    rules:\n      - alert: CheckoutHighErrorRate\n        for: 10m\n"
    session = (Session("pinned", git_project, prompt="promtool unit tests for the alerts fail after Jana's change")
               .fail("promtool test rules tests/alerts_test.yml", "Exit code 1\nUnit Testing:  tests/alerts_test.yml\n"
                                                                  "  FAILED:\n    alertname: CheckoutHighErrorRate, "
                                                                  "time: 12m,\n        exp:[…], \n        got:[]")
               .write("tests/fixtures/checkout_rules_pinned.yml", pinned)
               .edit("tests/alerts_test.yml", "rule_files:\n  - ../rules/checkout.yml",
                     "rule_files:\n  - fixtures/checkout_rules_pinned.yml")
               .ok("promtool test rules tests/alerts_test.yml", "Unit Testing:  tests/alerts_test.yml\n  SUCCESS\n")
               .stop("The alert unit tests run against a pinned copy of the checkout rules in `tests/fixtures/`, so "
                     "they're stable regardless of threshold tweaks."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes, (candidates, notes)


def test_a_tolerance_given_to_a_snapshot_test_that_failed_by_name_only_is_weakened(git_project, store):
    # (blind289 KD06: gradle named only ``BatteryGaugeSnapshotTest > halfCharged FAILED``; the Paparazzi rule given
    # ``maxPercentDifference = 5.0`` in that test's file was stored as the fix)
    test = "ui/src/test/kotlin/com/acme/pulse/ui/gauge/BatteryGaugeSnapshotTest.kt"
    session = (Session("paparazzi", git_project, prompt="verifyPaparazziDebug is red on the BatteryGauge snapshots")
               .fail("./gradlew :ui:verifyPaparazziDebug",
                     "Exit code 1\ncom.acme.pulse.ui.gauge.BatteryGaugeSnapshotTest > halfCharged FAILED\n    "
                     "java.lang.AssertionError at BatteryGaugeSnapshotTest.kt:27\n\nBUILD FAILED in 52s")
               .edit(test, "        deviceConfig = DeviceConfig.PIXEL_5,\n",
                     "        deviceConfig = DeviceConfig.PIXEL_5,\n        maxPercentDifference = 5.0,\n")
               .ok("./gradlew :ui:verifyPaparazziDebug", "BUILD SUCCESSFUL in 41s")
               .stop("The gauge snapshots differed from the goldens by ~3%, anti-aliasing noise, so I gave the rule a "
                     "`maxPercentDifference` of 5%."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes, (candidates, notes)


def test_a_mock_whose_keys_were_turned_away_from_the_api_contract_is_weakened(git_project, store):
    # (blind290 KE08: the MSW handler's ``results`` renamed ``items`` to match what the refactored client reads, where
    # openapi.yaml, grepped on the way, says ``results``; stored as the fix)
    handlers = "src/mocks/handlers.ts"
    session = (Session("msw", git_project, prompt="OrdersPage.test.tsx started failing after the API client refactor")
               .fail("npx vitest run src/features/orders",
                     "Exit code 1\n × OrdersPage > renders the orders returned by the API\n   → Unable to find an "
                     "element with the text: ORD-1042.")
               .ok("grep -n -E '^ {8}(results|items|next):' openapi.yaml", "412:        results:\n418:        next:")
               .edit(handlers, "    return HttpResponse.json({ results: [order1042, order1043], next: null });",
                     "    return HttpResponse.json({ items: [order1042, order1043], next: null });")
               .ok("npx vitest run src/features/orders", " Test Files  1 passed (1)\n      Tests  2 passed (2)")
               .stop("The MSW handler's payload didn't line up with what `fetchOrders` reads after the refactor "
                     "(`items`). I updated the handler to return `items`."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes, (candidates, notes)
    # (a mock brought in line with the contract is a fix)
    from lorebook.candidates import _mock_against_the_contract
    hunk = {"old": "json({ items: [a] })", "new": "json({ results: [a] })", "ids": [1]}
    assert not _mock_against_the_contract({handlers: [hunk]}, "412:        results:\n418:        next:")


def test_a_composer_script_that_echoed_the_failing_program_is_the_projects_way(git_project, store):
    # (blind287 KB05: ``composer test`` echoed ``> @php bin/console doctrine:database:create …`` then ``> @php
    # bin/phpunit``; the failing ``php bin/phpunit tests/Form/…`` had no test database; nothing was stored)
    session = (Session("composer", git_project, prompt="RegistrationFormTypeTest blows up, can you check?")
               .fail("php bin/phpunit tests/Form/RegistrationFormTypeTest.php",
                     "Exit code 2\nThere were 3 errors:\n\n1) App\\Tests\\Form\\RegistrationFormTypeTest::"
                     "testSubmitValidData\nDoctrine\\DBAL\\Exception\\ConnectionException: SQLSTATE[HY000] [1049] "
                     "Unknown database 'tickety_test'")
               .ok("composer test", "> @php bin/console doctrine:database:create --env=test --if-not-exists\n"
                                    "Created database `tickety_test`\n> @php bin/phpunit\nOK (31 tests, 74 assertions)")
               .stop("In this project the test database is created by the `composer test` script; calling "
                     "`bin/phpunit` directly skips that."))
    (candidate,), _ = _candidates(store, session)
    assert "composer test" in candidate["change"], candidate["change"]


def test_what_a_plain_runs_failure_was_done_with_instead_is_the_way(git_project, store):
    # (blind287 KB14: "Plain `protoc` can't find `google/api/annotations.proto` …", and "Regenerated with `buf
    # generate`." said no "has to"; nothing was stored)
    protoc = ("protoc -I proto --go_out=gen/go --go_opt=paths=source_relative --go-grpc_out=gen/go "
              "proto/orders/v1/orders.proto")
    session = (Session("buf", git_project, prompt="regenerate the Go code for the new CancelOrder rpc")
               .fail(protoc, "Exit code 1\ngoogle/api/annotations.proto: File not found.\norders/v1/orders.proto:5:1: "
                             "Import \"google/api/annotations.proto\" was not found or had errors.")
               .ok("buf generate", "")
               .stop("Regenerated with `buf generate`. Plain `protoc` can't find `google/api/annotations.proto` — it "
                     "comes from the googleapis dependency declared in `buf.yaml`, which only buf resolves."))
    (candidate,), _ = _candidates(store, session)
    assert "buf generate" in candidate["change"], candidate["change"]


def test_the_way_the_projects_docs_say_is_the_way(git_project, store):
    # (blind289 KD11: "docs/RELEASING.md says local QA builds are `./gradlew :app:assembleStagingRelease`", after
    # ``assembleRelease`` failed for the upload keystore only CI has; nothing was stored)
    session = (Session("qabuild", git_project, prompt="I need a release-like APK to hand to QA today")
               .fail("./gradlew :app:assembleRelease", "Exit code 1\n* What went wrong:\nExecution failed for task "
                                                      "':app:validateSigningProdRelease'.\n> Keystore file '/Users/dev/"
                                                      "app/keystore/upload.jks' not found for signing config 'upload'.")
               .ok("grep -n -i 'qa' docs/RELEASING.md",
                   "9:For QA / internal testing, build the staging flavor locally:\n11:    ./gradlew :app:"
                   "assembleStagingRelease")
               .ok("./gradlew :app:assembleStagingRelease", "> Task :app:assembleStagingRelease\n\nBUILD SUCCESSFUL")
               .stop("`assembleRelease` also builds the prod flavor, which needs the upload keystore that only exists "
                     "on CI. docs/RELEASING.md says local QA builds are `./gradlew :app:assembleStagingRelease`."))
    (candidate,), _ = _candidates(store, session)
    assert "assembleStagingRelease" in candidate["change"], candidate["change"]
    assert command_job("./gradlew :app:assembleStagingRelease") == "build"


def test_a_script_the_repo_wraps_the_plain_run_in_is_the_way(git_project, store):
    # (blind290 KE23: "`npx test-storybook` on its own needs a Storybook already running on :6006; this repo wraps the
    # whole thing … in `npm run test-storybook:ci`"; nothing was stored)
    session = (Session("sbci", git_project, prompt="add a play function and make sure the storybook tests pass")
               .fail("npx test-storybook", "Exit code 1\n[test-storybook] It seems that your Storybook instance is not "
                                           "running at: http://127.0.0.1:6006. Are you sure it's running?")
               .ok("npm run test-storybook:ci 2>&1 | tail -3", "[TEST]  PASS   browser: chromium  src/components/"
                                                              "LoginForm/LoginForm.stories.tsx\nTests: 41 passed")
               .stop("`npx test-storybook` on its own needs a Storybook already running on :6006; this repo wraps the "
                     "whole thing (build, serve storybook-static, wait, run) in `npm run test-storybook:ci`, same as "
                     "the ui workflow."))
    (candidate,), _ = _candidates(store, session)
    assert "npm run test-storybook:ci" in candidate["change"], candidate["change"]


def test_the_script_the_project_has_for_it_is_the_way(git_project, store):
    # (blind292 KG20: "a bare `npx react-native run-android` asks Gradle for `installDebug`, which is ambiguous. The
    # project's script does it right: `yarn android:dev`"; nothing was stored)
    session = (Session("rnflavor", git_project, prompt="run the wallet app on the Android emulator")
               .fail("npx react-native run-android",
                     "Exit code 1\n* What went wrong:\nCannot locate tasks that match 'app:installDebug' as task "
                     "'installDebug' is ambiguous in project ':app'.")
               .ok("yarn android:dev", "$ react-native run-android --mode devDebug --appId com.acme.wallet.dev\n"
                                       "BUILD SUCCESSFUL in 1m 12s\n✨  Done in 78.2s.")
               .stop("This app has `dev`/`prod` flavors, so a bare `npx react-native run-android` asks Gradle for "
                     "`installDebug`, which is ambiguous. The project's script does it right: `yarn android:dev`."))
    (candidate,), _ = _candidates(store, session)
    assert "yarn android:dev" in candidate["change"], candidate["change"]


def test_a_report_of_what_started_when_someone_changed_something_names_its_cause(git_project, store):
    # (blind291 KF24: "Since Priya started building the ingest Lambda image on her new M3 MacBook, every invocation
    # … fails with Runtime.InvalidEntrypoint": no failure ran, and the report read as naming no cause; and a report's
    # card said "Reported by the [quoted: user]")
    session = (Session("platform", git_project,
                       prompt="Since Priya started building the ingest Lambda image on her new M3 MacBook, every "
                              "invocation of the deployed function fails with Runtime.InvalidEntrypoint. Can you make "
                              "the build produce the right image no matter who runs it?")
               .ok("docker image inspect ingest-events:latest --format '{{.Os}}/{{.Architecture}}'", "linux/arm64")
               .edit("Makefile", "\tdocker build -t $(IMAGE):$(TAG) .",
                     "\tdocker build --platform linux/amd64 --provenance=false -t $(IMAGE):$(TAG) .")
               .ok("make image TAG=test-amd64 && docker image inspect ingest-events:test-amd64 --format "
                   "'{{.Os}}/{{.Architecture}}'", "linux/amd64")
               .ok("make push deploy TAG=test-amd64 && aws lambda invoke --function-name ingest-events /tmp/o.json",
                   "{\n    \"StatusCode\": 200\n}")
               .stop("The image was built for the host architecture, arm64 on Apple Silicon, while the function runs "
                     "on x86_64. The Makefile's build step now pins `--platform linux/amd64`."))
    (candidate,), _ = _candidates(store, session)
    assert "--platform linux/amd64" in candidate["change"], candidate["change"]
    from lorebook.render import full_note
    assert "[quoted:" not in full_note(dict(candidate, id=1, updated_at="2026-12-05T10:00:00")), candidate["trigger"]


def test_lines_inserted_into_a_named_list_item_name_it(git_project, store):
    # (blind288 KC19: ``resources:`` added under the ``- name: log-shipper`` sidecar, the container the HPA was
    # missing requests for; the card showed ``+resources: …`` and not which container)
    deployment = "deploy/api/deployment.yaml"
    sidecar = "        - name: log-shipper\n          image: fluent/fluent-bit:2.2.2\n"
    session = (Session("sidecar", git_project, prompt="the api HPA shows <unknown> targets")
               .fail("kubectl wait hpa/api -n shop --for=condition=ScalingActive --timeout=60s",
                     "Exit code 1\nerror: timed out waiting for the condition on horizontalpodautoscalers/api")
               .edit(deployment, sidecar, sidecar + "          resources:\n            requests:\n              cpu: "
                                                    "20m\n              memory: 32Mi\n")
               .ok("kubectl wait hpa/api -n shop --for=condition=ScalingActive --timeout=60s",
                   "horizontalpodautoscaler.autoscaling/api condition met")
               .stop("The HPA computes utilization against the sum of the pod's container requests, and the "
                     "log-shipper sidecar had none. Added requests to it."))
    (candidate,), _ = _candidates(store, session)
    assert "(under `log-shipper`)" in candidate["change"], candidate["change"]


def test_a_row_of_test_data_the_code_failed_on_rewritten_is_weakened(git_project, store):
    # (blind293 KH17: the skip listener logged "Parsing error at line: 7 … input=[1007,"Nguyen, Anh",…]"; the row's
    # quoted comma was taken out of the fixture and stored as the fix)
    data = "src/test/resources/input/customers.csv"
    row = '1007,"Nguyen, Anh",anh.nguyen@example.com,DE'
    session = (Session("csvrow", git_project, prompt="ImportCustomersJobTest fails: expected 10 written but got 9")
               .fail("./mvnw test -Dtest=ImportCustomersJobTest", "Exit code 1\n[ERROR]   ImportCustomersJobTest."
                                                                  "importsAllRows:58 expected: <10> but was: <9>")
               .ok("grep -n 'Skipped line' target/surefire-reports/ImportCustomersJobTest-output.txt",
                   "212: WARN CustomerSkipListener : Skipped line 7: FlatFileParseException: Parsing error at line: 7 "
                   f"in resource=[input/customers.csv], input=[{row}]")
               .edit(data, row, "1007,Nguyen Anh,anh.nguyen@example.com,DE")
               .ok("./mvnw test -Dtest=ImportCustomersJobTest",
                   "[INFO] Tests run: 2, Failures: 0\n[INFO] BUILD SUCCESS")
               .stop("Line 7 of the input fixture had a quoted name containing a comma, which the reader failed to "
                     "tokenize. I normalized that row; the job now imports all 10 rows."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes, (candidates, notes)


def test_a_test_whose_lines_were_moved_around_what_it_is_named_for_is_weakened(git_project, store):
    # (blind295 KJ09: in ``restoresCount`` the saved-state restore was moved before the clicks, so nothing is
    # restored any more; stored as the fix)
    test = "feature/cart/src/test/java/com/acme/shop/cart/QuantityStepperTest.kt"
    click = "        composeTestRule.onNodeWithTag(\"increment\").performClick()\n"
    restore = "        restorationTester.emulateSavedInstanceStateRestore()\n"
    check = "        composeTestRule.onNodeWithTag(\"count\").assertTextEquals(\"3\")"
    session = (Session("restore", git_project, prompt="QuantityStepperTest.restoresCount is failing on CI")
               .fail("./gradlew :feature:cart:testDebugUnitTest --tests '*QuantityStepperTest*'",
                     "Exit code 1\nQuantityStepperTest > restoresCount FAILED\n    java.lang.AssertionError: Failed to "
                     "assert the following: (Text + EditableText = [3])")
               .edit(test, click * 2 + restore + check, restore + click * 2 + check)
               .ok("./gradlew :feature:cart:testDebugUnitTest --tests '*QuantityStepperTest*'", "BUILD SUCCESSFUL")
               .stop("restoresCount emulated the restore right after the clicks, so the check raced it. I reordered "
                     "the test so the restore happens first."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "weakened_test" in notes, (candidates, notes)


def test_a_simulator_stuck_shutting_down_erased_is_local_state(git_project, store):
    # (blind298 KM14: ``xcrun simctl shutdown all && xcrun simctl erase <udid>`` for a watch simulator "stuck in
    # 'Shutting Down'" was stored as a step to take before every test run)
    run = ("xcodebuild test -scheme TideWatchWidgets -destination 'platform=watchOS Simulator,name=Apple Watch "
           "Series 10'")
    session = (Session("simstuck", git_project, prompt="the widget tests won't run, xcodebuild can't boot the "
                                                       "simulator")
               .fail(run, "Exit code 70\nxcodebuild: error: Failed to prepare device 'Apple Watch Series 10 (46mm)' "
                          "for impending launch.\n    Unable to boot the Simulator.")
               .ok("xcrun simctl shutdown all && xcrun simctl erase 5A1F3C2E-8B4D-4C1A-9E27-3D6B0F19A8C4", "")
               .ok(run, "Executed 14 tests, with 0 failures (0 unexpected)\n** TEST SUCCEEDED **")
               .stop("The 46mm watch simulator was stuck in 'Shutting Down', so CoreSimulator couldn't boot it. "
                     "`xcrun simctl shutdown all` plus erasing that one device cleared it."))
    candidates, notes = _candidates(store, session)
    assert candidates == [] and "local_state" in notes, (candidates, notes)


def test_a_quoted_option_value_with_a_space_is_no_target():
    # (blind295 KJ13: ``-destination 'generic/platform=iOS Simulator'`` left ``Simulator`` as a target, so the run
    # with ``-destination 'platform=iOS Simulator,name=iPhone 16'`` ran "another" one, and nothing was stored)
    from lorebook.commands import _same_target
    failed = ("xcodebuild test -scheme Pomodoro -destination 'generic/platform=iOS Simulator' "
              "-only-testing:PomodoroTests/TimerModelTests")
    assert _same_target(failed, failed.replace("generic/platform=iOS Simulator",
                                               "platform=iOS Simulator,name=iPhone 16") + " 2>&1 | tail -14")


def test_what_was_used_where_the_plain_tool_is_said_not_to_work_is_the_way(git_project, store):
    # (blind297 KL17: "pushed it to dev with `bin/es-sync ilm --env dev`. Pushing with plain curl doesn't work":
    # nothing was stored)
    put = ("curl -sSf -X PUT \"http://localhost:9200/_ilm/policy/logs-app\" -H 'Content-Type: application/json' "
           "-d @ilm/logs-app.json")
    session = (Session("essync", git_project, prompt="change the logs-app ILM rollover to 30gb and push it to dev")
               .edit("ilm/logs-app.json", "\"max_primary_shard_size\": \"50gb\",",
                     "\"max_primary_shard_size\": \"30gb\",")
               .fail(put, "Exit code 22\ncurl: (22) The requested URL returned error: 401")
               .ok("bin/es-sync ilm --env dev", "PUT _ilm/policy/logs-app -> {\"acknowledged\":true}\n1 policy updated")
               .stop("Updated `ilm/logs-app.json` and pushed it to dev with `bin/es-sync ilm --env dev`. Pushing with "
                     "plain curl doesn't work (the cluster wants credentials), and by design it shouldn't."))
    (candidate,), _ = _candidates(store, session)
    assert "bin/es-sync ilm --env dev" in candidate["change"], candidate["change"]


def test_what_jobs_are_deployed_with_and_not_pushed_with_is_the_way(git_project, store):
    # (blind294 KI24: "jobs aren't pushed with `databricks jobs reset`/the UI …, they're deployed with `databricks
    # bundle deploy -t dev`": nothing was stored)
    session = (Session("bundle", git_project, prompt="move the nightly_etl job to 03:00 UTC and get it into dev")
               .edit("resources/nightly_etl.job.yml", "quartz_cron_expression: \"0 0 1 * * ?\"",
                     "quartz_cron_expression: \"0 0 3 * * ?\"")
               .fail("databricks jobs reset 912736451028412 --json @resources/nightly_etl.job.yml",
                     "Exit code 1\nError: error decoding JSON at resources/nightly_etl.job.yml:1:1: invalid character "
                     "'r' looking for beginning of value")
               .ok("databricks bundle deploy -t dev", "Deploying resources...\nDeployment complete!")
               .stop("This repo is a Databricks Asset Bundle: jobs aren't pushed with `databricks jobs reset`/the UI "
                     "(the README says those edits get overwritten), they're deployed with `databricks bundle deploy "
                     "-t dev`."))
    (candidate,), _ = _candidates(store, session)
    assert "databricks bundle deploy -t dev" in candidate["change"], candidate["change"]


def test_the_way_and_the_step_it_needed_first_are_one_lesson(git_project, store):
    # (blind296 KK09: ``php artisan test`` failed on the host; ``./vendor/bin/sail artisan test`` said "Sail is not
    # running"; ``./vendor/bin/sail up -d``, then it passed: two lessons, the second merged into the first as its near
    # duplicate, and ``sail up -d`` was lost)
    sail = "./vendor/bin/sail artisan test --filter=Invoice"
    session = (Session("sail", git_project, prompt="run the invoice feature tests before I open the PR")
               .fail("php artisan test --filter=Invoice", "Exit code 1\n   FAIL  Tests\\Feature\\InvoiceTest\n  "
                                                         "Tests:    3 failed (0 assertions)")
               .fail(sail, "Exit code 1\nSail is not running.\n\nYou may Sail using the following commands: "
                           "'./vendor/bin/sail up' or './vendor/bin/sail up -d'")
               .ok("./vendor/bin/sail up -d", " ✔ Container invoicer-laravel.test-1  Started  0.8s")
               .ok(sail, "   PASS  Tests\\Feature\\InvoiceTest\n  Tests:    3 passed (9 assertions)")
               .stop("`DB_HOST` is `mysql`, the compose service name, so `php artisan test` on the host can't resolve "
                     "it. Start the containers with `./vendor/bin/sail up -d`, then run the tests through Sail."))
    (candidate,), _ = _candidates(store, session)
    assert "./vendor/bin/sail up -d" in candidate["change"] and sail in candidate["change"], candidate["change"]
