"""How two lessons relate (issue 12): each rule of ``relations.compare`` stated in words, with pairs written for
these tests (none comes from bench/data). A duplicate is the same problem with the same fix; a lesson whose fix
or trigger names something the other never does is a second lesson; a contradiction is one problem with an
incompatible fix, decided by what the fixes do, not by a phrase."""
import pytest

from lorebook.relations import (compare, contradicts, different_fix, distinct_facts, opposite_actions, same_error,
                               swapped_subjects)


def lesson(title, trigger, change, summary="", signatures=(), files=()):
    return {"title": title, "trigger": trigger, "change": change, "summary": summary,
            "error_signatures": list(signatures), "files": list(files)}


def both_ways(a, b):
    """The relation each way round (compare(new, existing) is what a write asks)."""
    return {compare(a, b)["relation"], compare(b, a)["relation"]}


# --- the same problem with the same fix, worded differently: one lesson ------------------------------------

POOL_TEARDOWN = lesson(
    "Integration tests fail with too many connections for role app: close the engine after each test",
    "Running the integration suite with 16 xdist workers against the staging database",
    "The db fixture in tests/conftest.py now calls engine.dispose() in its teardown.",
    signatures=['FATAL: too many connections for role "app"'], files=["tests/conftest.py"])

DUPLICATES = {
    "reworded, with the identifier spelled out": (
        lesson("pytest cannot import the app package: set PYTHONPATH=src",
               "Running `pytest` from the repository root with a src layout",
               "Export PYTHONPATH=src in the Makefile's test target.",
               signatures=["ModuleNotFoundError: No module named 'app'"]),
        lesson("ModuleNotFoundError for app under pytest in the src layout: point PYTHONPATH at src",
               "`pytest` run from the repo root cannot find the app package that lives under src/",
               "The Makefile test target now sets PYTHONPATH to src before calling pytest.",
               signatures=["ModuleNotFoundError: No module named 'app'"])),
    "one terse line, one long paragraph": (
        lesson("go vet fails on the generated mocks: exclude internal/mocks", "Running `go vet ./...`",
               "The vet target in the Makefile now runs on $(go list ./... | grep -v internal/mocks)."),
        lesson("`go vet ./...` trips over generated mock code, so leave internal/mocks out of the vet target",
               "In CI, `go vet ./...` started failing after mockgen regenerated the mocks with an unused parameter; "
               "the failures are all in the generated files, which we never edit by hand",
               "We changed the Makefile's vet target to list packages with `go list ./...` and filter out "
               "internal/mocks with grep -v, so vet only checks hand-written code; mockgen output stays as generated.",
               "mockgen output is regenerated on every build and is not worth vetting.")),
    "the same fix told in other words": (
        POOL_TEARDOWN,
        lesson("Postgres refuses the 17th connection during the xdist run: dispose the SQLAlchemy engine in teardown",
               "The integration tests on 16 workers exhaust the staging database's connection limit",
               "Every test's db fixture (tests/conftest.py) disposes its engine when it finishes, so connections "
               "are released.", "Each worker leaked its pool.",
               signatures=['FATAL: too many connections for role "app"'], files=["tests/conftest.py"])),
    # setting a thing agrees with adding or bumping it: "set X to 2021" and "bumped X to 2021" are one fix
    "set and bumped are one action": (
        lesson("eslint cannot parse optional chaining: set ecmaVersion to 2020",
               "Running `npx eslint src` after the first `a?.b` landed",
               "Set parserOptions.ecmaVersion to 2020 in .eslintrc.json.",
               signatures=["Parsing error: Unexpected token ."]),
        lesson("eslint Parsing error on `?.`: the parser's ecmaVersion was too old",
               "`npx eslint src` fails on the first optional chain",
               "Bumped parserOptions.ecmaVersion in .eslintrc.json to 2020.",
               signatures=["Parsing error: Unexpected token ."])),
}


@pytest.mark.parametrize("name", DUPLICATES)
def test_the_same_problem_with_the_same_fix_in_other_words_merges(name):
    a, b = DUPLICATES[name]
    assert both_ways(a, b) == {"duplicate"}, (name, compare(a, b), compare(b, a))


# --- what differs makes two lessons, however alike the sentences ------------------------------------------

DISTINCT = {
    # the same error, another fix: each fix names a file, value or name the other lesson never mentions
    "same error: a longer timeout, or a fake for the slow service": (
        lesson("tests/test_checkout.py times out after 30 s: raise the pytest-timeout limit to 120",
               "Running `pytest tests/test_checkout.py` on the shared CI runner",
               "Set timeout = 120 under [tool.pytest.ini_options] in pyproject.toml.",
               "The checkout test calls the payment sandbox, which is slow on CI.",
               ["Failed: Timeout >30.0s"], ["pyproject.toml"]),
        lesson("tests/test_checkout.py times out after 30 s: stub the payment sandbox with a fixture",
               "Running `pytest tests/test_checkout.py` on the shared CI runner",
               "Added a fake_gateway fixture in tests/conftest.py that answers instead of the payment sandbox.",
               "The checkout test calls the payment sandbox, which is slow on CI.",
               ["Failed: Timeout >30.0s"], ["tests/conftest.py"])),
    "same error: system headers, or the vendored build": (
        lesson("cargo build fails linking openssl-sys: install the system OpenSSL headers",
               "Running `cargo build` in the rust:1.75-slim image",
               "Added `apt-get install -y libssl-dev pkg-config` to the Dockerfile before cargo build.",
               signatures=["Could not find directory of OpenSSL installation"], files=["Dockerfile"]),
        lesson("cargo build fails linking openssl-sys: build OpenSSL from source with the vendored feature",
               "Running `cargo build` in the rust:1.75-slim image",
               "Enabled features = [\"vendored\"] for the openssl dependency in Cargo.toml.",
               signatures=["Could not find directory of OpenSSL installation"], files=["Cargo.toml"])),
    "same error: a pooler in front, or closing connections": (
        lesson("Integration tests fail with too many connections for role app: put PgBouncer in front of Postgres",
               "Running the integration suite with 16 xdist workers against the staging database",
               "Pointed DATABASE_URL at the pgbouncer service (transaction pooling) in docker-compose.test.yml.",
               signatures=['FATAL: too many connections for role "app"'], files=["docker-compose.test.yml"]),
        POOL_TEARDOWN),
    # the same template with other facts: another environment variable, flag or version
    "same template, another environment variable": (
        lesson("The worker crashes at boot with KeyError REDIS_URL: add it to .env.example",
               "Running `docker compose up worker` from a fresh clone",
               "Added REDIS_URL=redis://redis:6379/0 to .env.example and the README setup step.",
               signatures=["KeyError: 'REDIS_URL'"]),
        lesson("The worker crashes at boot with KeyError SENTRY_DSN: add it to .env.example",
               "Running `docker compose up worker` from a fresh clone",
               "Added SENTRY_DSN= (empty) to .env.example and the README setup step.",
               signatures=["KeyError: 'SENTRY_DSN'"])),
    "same template, another flag": (
        lesson("rspec hangs in CI on the first system spec: run Chrome with --no-sandbox",
               "Running `bundle exec rspec spec/system` in the GitHub Actions container",
               "Added --no-sandbox to the Selenium Chrome options in spec/support/capybara.rb."),
        lesson("rspec hangs in CI on the first system spec: run Chrome with --disable-dev-shm-usage",
               "Running `bundle exec rspec spec/system` in the GitHub Actions container",
               "Added --disable-dev-shm-usage to the Selenium Chrome options in spec/support/capybara.rb.")),
    "only the versions differ": (
        lesson("`npm ci` fails on Node 18 with EBADENGINE: use Node 20 in the CI image",
               "Running `npm ci` in the node:18 CI job", "Changed the CI image to node:20-bookworm in .gitlab-ci.yml.",
               signatures=["npm ERR! code EBADENGINE"]),
        lesson("`npm ci` fails on Node 16 with EBADENGINE: use Node 18 in the CI image",
               "Running `npm ci` in the node:16 CI job", "Changed the CI image to node:18-bookworm in .gitlab-ci.yml.",
               signatures=["npm ERR! code EBADENGINE"])),
    # the same kind of fix for another tool's complaint
    "the same kind of fix, another trigger": (
        lesson("mypy reports missing library stubs for requests: add types-requests", "Running `mypy src` in CI",
               "Added types-requests to requirements-dev.txt.",
               signatures=['error: Library stubs not installed for "requests"']),
        lesson("pyright reports reportMissingModuleSource for yaml: add types-PyYAML", "Running `pyright` in the editor",
               "Added types-PyYAML to requirements-dev.txt.", signatures=["reportMissingModuleSource"])),
}


@pytest.mark.parametrize("name", DISTINCT)
def test_a_fix_or_trigger_that_names_what_the_other_never_does_is_a_second_lesson(name):
    a, b = DISTINCT[name]
    assert "duplicate" not in both_ways(a, b), (name, compare(a, b), compare(b, a))
    assert "contradicts" not in both_ways(a, b), name


def test_what_tells_two_lessons_apart_is_said():
    a, b = DISTINCT["same template, another environment variable"]
    reasons = " ".join(different_fix(a, b))
    assert "sentry_dsn" in reasons and "redis_url" in reasons


def test_a_title_whose_second_half_only_restates_the_error_has_no_fix_half():
    """The second half of "X fails: <the error>" is problem text: the facts in it are the problem's, so a lesson
    that names the same error in its trigger is not told apart by them."""
    a = lesson("npm install fails with ERESOLVE: left-pad-ui@2.1.0 wants react ^16 || ^17",
               "Running `npm install` after upgrading react to 18.2.0",
               "Upgraded left-pad-ui to 3.0.1, whose peer range includes react 18, in package.json.",
               signatures=["npm ERR! code ERESOLVE"], files=["package.json"])
    b = lesson("ERESOLVE after the react 18 upgrade: left-pad-ui 2 does not allow it",
               "`npm install` fails once react is 18.2.0",
               "package.json now has left-pad-ui 3.0.1, which allows react 18.",
               signatures=["npm ERR! code ERESOLVE"], files=["package.json"])
    assert both_ways(a, b) == {"duplicate"}, (compare(a, b), compare(b, a))


# --- contradictions by meaning: one problem, an incompatible fix -------------------------------------------

MINIO_SET = lesson("Uploads fail with SignatureDoesNotMatch against MinIO: set AWS_S3_FORCE_PATH_STYLE=1",
                   "Running the upload tests against the local MinIO container",
                   "Set AWS_S3_FORCE_PATH_STYLE=1 in .env.test.", signatures=["SignatureDoesNotMatch"])
MINIO_UNSET = lesson("Uploads fail with SignatureDoesNotMatch against MinIO: AWS_S3_FORCE_PATH_STYLE must stay unset",
                     "Running the upload tests against the local MinIO container",
                     "Took AWS_S3_FORCE_PATH_STYLE out of .env.test; the signature error came from clock skew, fixed by "
                     "syncing the container clock.", signatures=["SignatureDoesNotMatch"])
DOCUTILS_PIN = lesson("Sphinx build fails with a docutils AttributeError: pin docutils==0.17.1",
                      "Running `make docs` after a fresh install", "Pinned docutils==0.17.1 in docs/requirements.txt.",
                      signatures=["AttributeError: module 'docutils.nodes' has no attribute 'reprunicode'"])
DOCUTILS_UNPIN = lesson("Sphinx build fails with a docutils AttributeError: upgrade sphinx-rtd-theme to 2.0",
                        "Running `make docs` after a fresh install",
                        "Upgraded sphinx-rtd-theme to 2.0.0 in docs/requirements.txt and removed the docutils pin.",
                        signatures=["AttributeError: module 'docutils.nodes' has no attribute 'reprunicode'"])


@pytest.mark.parametrize("a, b", [(MINIO_SET, MINIO_UNSET), (DOCUTILS_PIN, DOCUTILS_UNPIN)],
                         ids=["set, or must stay unset", "pin, or remove the pin"])
def test_one_fix_adding_what_the_other_takes_away_for_one_problem_is_a_contradiction(a, b):
    """No "do not" anywhere: the fixes do opposite things to one name (add or set it / remove it or keep it
    unset) for one problem, so a merge would keep an answer that the other lesson undoes."""
    assert opposite_actions(a, b)
    assert both_ways(a, b) == {"contradicts"}, (compare(a, b), compare(b, a))


def test_opposite_actions_on_one_thing_for_another_problem_are_no_contradiction():
    """Adding a variable for one error and removing it for another error are two unrelated lessons."""
    other = lesson("The thumbnail job fails with NoSuchBucket on staging: remove AWS_S3_FORCE_PATH_STYLE",
                   "Running the thumbnail job against the staging S3 bucket",
                   "Removed AWS_S3_FORCE_PATH_STYLE from deploy/staging.env.", signatures=["NoSuchBucket"])
    assert opposite_actions(MINIO_SET, other)
    assert not contradicts(MINIO_SET, other) and not contradicts(other, MINIO_SET)


def test_a_fix_that_adds_and_removes_the_same_thing_is_not_opposed_by_either():
    """Moving a package (remove it from one file, add it to another) does not oppose a lesson that adds it."""
    moved = lesson("Sphinx build fails with a docutils AttributeError: pin docutils==0.17.1 in the docs extras",
                   "Running `make docs` after a fresh install",
                   "Removed docutils from requirements.txt and pinned docutils==0.17.1 in docs/requirements.txt.",
                   signatures=["AttributeError: module 'docutils.nodes' has no attribute 'reprunicode'"])
    assert not opposite_actions(DOCUTILS_PIN, moved)


def test_a_near_duplicate_that_narrates_a_negation_is_not_a_contradiction():
    a, b = DUPLICATES["the same fix told in other words"]
    narrated = dict(b, summary="Each worker leaked its pool; the connection limit did not change.")
    assert compare(narrated, a)["relation"] == "duplicate"


def test_a_rejection_that_names_the_other_fix_is_a_contradiction():
    rejecting = lesson("Integration tests fail with too many connections for role app: do not put PgBouncer in "
                       "front, dispose the engine",
                       "Running the integration suite with 16 xdist workers against the staging database",
                       "PgBouncer did not help: the pool leaked in tests/conftest.py; engine.dispose() in teardown.",
                       signatures=['FATAL: too many connections for role "app"'])
    pooler = DISTINCT["same error: a pooler in front, or closing connections"][0]
    assert compare(rejecting, pooler)["relation"] == "contradicts"


# --- one error, however fully quoted; two errors, however alike ---------------------------------------------

def test_one_error_quoted_more_or_less_fully_is_one_error():
    full = lesson("t", "x", "y", signatures=["exec /usr/local/bin/worker: exec format error"])
    short = lesson("t", "x", "y", signatures=["exec format error"])
    assert same_error(full, short) and same_error(short, full)


def test_two_errors_that_differ_in_a_word_are_two_errors():
    """Boilerplate shared by many errors does not make them one: the word that differs is the error."""
    a = lesson("t", "x", "y", signatures=["FATAL: role \"billing\" does not exist"])
    b = lesson("t", "x", "y", signatures=["FATAL: role \"reports\" does not exist"])
    assert same_error(a, b) is False
    assert same_error(a, lesson("t", "x", "y")) is None


# --- told in other words: names spelled out, pinned versions, more detail ----------------------------------

def test_a_name_spelled_out_in_words_is_the_same_name():
    """`statement_timeout` and "the statement timeout" name one setting; an ENV_VAR is only ever itself."""
    a = lesson("Nightly report query is cancelled: raise statement_timeout for the report role",
               "Running the nightly report job", "ALTER ROLE report SET statement_timeout = '10min';",
               signatures=["canceling statement due to statement timeout"])
    b = lesson("The nightly report gets cancelled by Postgres: give the report role a longer statement timeout",
               "nightly report job", "The report role's statement timeout is now ten minutes (ALTER ROLE ... SET).",
               signatures=["canceling statement due to statement timeout"])
    only_a, _ = distinct_facts(a, b, "fix")
    assert "statement_timeout" not in only_a
    env = lesson("t", "x", "Set REPORT_TIMEOUT=600 in the job env.")
    prose = lesson("t", "x", "The report timeout of the job env is 600.")
    assert "report_timeout" in distinct_facts(env, prose, "fix")[0]


# --- hybrid mode: an identifier in one lesson, plain words in the other ----------------------------------------

# the same lesson told twice: the one names the setting and the file, the other says them in words
SOCKET_TIMEOUT = lesson(
    "Nightly export to the SFTP host hangs forever: set sftp_socket_timeout in exporter.toml",
    "Running the nightly export job against partner SFTP",
    "Set `sftp_socket_timeout = 30` and `sftp_keepalive_interval = 10` under [export] in config/exporter.toml, so a "
    "dead connection fails after 30 s.",
    signatures=["export job exceeded 6h"])
SOCKET_TIMEOUT_IN_WORDS = lesson(
    "The nightly partner export never finishes when the SFTP server stops answering; give its socket a timeout",
    "nightly export job to the partner SFTP server",
    "config/exporter.toml now gives the SFTP socket a timeout of 30 seconds and a keepalive at an interval of 10 "
    "seconds, so a dead connection fails fast.",
    signatures=["export job exceeded 6h"])
# the same story with another fix: a retry wrapper, not a timeout
SOCKET_RETRY = lesson(
    "The nightly partner export never finishes when the SFTP server stops answering; retry the upload",
    "nightly export job to the partner SFTP server",
    "Wrapped the upload in export/sftp.py with tenacity.retry(stop_after_attempt(3)) so a dead connection is "
    "retried on a new socket.",
    signatures=["export job exceeded 6h"])


def test_a_name_said_in_words_merges_when_the_model_agrees():
    """Hybrid mode (a write, MCP): with a cosine this high, `sftp_socket_timeout` and "gives the SFTP socket a
    timeout" are one setting, in any order; lexically (the Stop hook) the names stay facts apart."""
    assert compare(SOCKET_TIMEOUT_IN_WORDS, SOCKET_TIMEOUT, cosine=0.86)["relation"] == "duplicate"
    assert compare(SOCKET_TIMEOUT, SOCKET_TIMEOUT_IN_WORDS, cosine=0.86)["relation"] == "duplicate"
    assert compare(SOCKET_TIMEOUT_IN_WORDS, SOCKET_TIMEOUT)["relation"] == "related"
    # a cosine under SAID_IN_WORDS_COSINE does not vouch for the words
    low = compare(SOCKET_TIMEOUT_IN_WORDS, SOCKET_TIMEOUT, cosine=0.7)
    assert low["relation"] != "duplicate", low


def test_another_fix_stays_apart_however_alike_the_meaning():
    """What the other fix names (a file, a call, a count) is said nowhere in the first: no cosine merges them."""
    for a, b in ((SOCKET_RETRY, SOCKET_TIMEOUT), (SOCKET_RETRY, SOCKET_TIMEOUT_IN_WORDS)):
        assert compare(a, b, cosine=0.93)["relation"] != "duplicate", compare(a, b, cosine=0.93)
        assert compare(b, a, cosine=0.93)["relation"] != "duplicate", compare(b, a, cosine=0.93)


@pytest.mark.parametrize("fact, said, merged", [
    ("tls-verify-depth", "the depth of the TLS verify step", True),        # any order, any form
    ("tls-verify-depth", "the TLS depth", False),                          # a word missing
    ("cache.v2.ttl", "the cache TTL", False),                              # a version is said as it is
    ("CACHE_TTL_SECONDS", "the cache ttl seconds setting", True),          # an ENV_VAR: its words in a row
    ("CACHE_TTL_SECONDS", "the cache job runs every few seconds with a ttl", False),
    ("ci/deploy_key.pem", "the ci deploy key pem", True),                  # a file: in a row too
    ("ci/deploy_key.pem", "the deploy job in CI reads a key", False),
    ("libxml-dev", "the libxmldev package", True),                         # one name, hyphen or none
    ("zstd", "the z-std package", False),                                  # too short to say it is one name
    ("Billing.Workers.Invoice.retry", "Invoice.retry", True),              # a qualified name and its tail
    ("Billing.Workers.Invoice.retry", "Payment.retry", False),
    ("reindex", "a search that is reindexed", True),                      # one word in another form
    ("buildkit", "the build step", False),                                 # not a word cut short
    ("retry_ms", "the client_retry_ms setting", True),                     # the tail of a longer name
    ("retry_ms", "the retry_msec setting", False),
])
def test_a_name_is_said_in_words_only_when_all_its_words_are(fact, said, merged):
    a = lesson("t", "x", f"Set `{fact}` in the service config.")
    b = lesson("t", "x", f"The service config now sets {said}.")
    assert (fact.lower() not in distinct_facts(a, b, "fix", loose=True)[0]) is merged
    assert fact.lower() in distinct_facts(a, b, "fix")[0]  # lexically it is always a fact apart


def test_a_pinned_name_is_mentioned_by_its_name_and_version():
    a = lesson("x", "y", "npm install left-pad-ui@3.0.1")
    b = lesson("x", "y", "Bumped left-pad-ui to 3.0.1 in package.json.")
    assert "left-pad-ui@3.0.1" not in distinct_facts(a, b, "fix")[0]
    c = lesson("x", "y", "Bumped left-pad-ui to 3.0.2 in package.json.")
    assert "left-pad-ui@3.0.1" in distinct_facts(a, c, "fix")[0]


def test_a_fix_told_again_in_more_detail_is_one_fix():
    """The longer telling names details (flags, files, versions) the one-liner leaves out; the one-liner says
    nothing the longer one does not: a duplicate, not a second fix."""
    short = lesson("celery worker OOM-killed: max-tasks-per-child", "",
                   "celery worker --max-tasks-per-child=200")
    long = lesson("The celery worker is OOM-killed after a few hours: recycle worker children",
                  "Running the celery worker in the k8s deployment for a day",
                  "The worker command in deploy/worker.yaml now passes --max-tasks-per-child=200 and "
                  "--max-memory-per-child=400000, so each child is replaced before its leak grows.",
                  "A C extension leaks about 2 MB per task; the pod limit is 1Gi.", ["OOMKilled"])
    assert both_ways(short, long) == {"duplicate"}, (compare(short, long), compare(long, short))
    other = lesson("The celery worker is OOM-killed after a few hours: raise the pod memory limit",
                   "Running the celery worker in the k8s deployment for a day",
                   "resources.limits.memory is 2Gi in deploy/worker.yaml and the HPA scales on memory at 70%.",
                   "A C extension leaks about 2 MB per task; the pod limit is 1Gi.", ["OOMKilled"])
    assert "duplicate" not in both_ways(long, other), (compare(long, other), compare(other, long))


def test_a_quoted_name_given_a_value_is_a_setting():
    """`"resolutions": {...}` names a setting as surely as an identifier does."""
    overrides = lesson("yarn install fails with an incorrect peer dependency on react 17: force one react",
                       "Running `yarn install` after adding a chart library",
                       "Added \"resolutions\": {\"react\": \"18.2.0\"} to package.json.",
                       signatures=["warning \" > chart-lib@2.0.0\" has incorrect peer dependency"])
    upgrade = lesson("yarn install fails with an incorrect peer dependency on react 17: upgrade the chart library",
                     "Running `yarn install` after adding a chart library",
                     "Upgraded chart-lib to 3.1.0, whose peer range includes react 18, in package.json.",
                     signatures=["warning \" > chart-lib@2.0.0\" has incorrect peer dependency"])
    assert "resolutions" in distinct_facts(overrides, upgrade, "fix")[0]
    assert "duplicate" not in both_ways(overrides, upgrade)


# --- contradictions stated without "do not" ------------------------------------------------------------------

@pytest.mark.parametrize("phrase", [
    "the image must not build assets, CI does", "building assets in the image is banned here",
    "assets are built by CI, never in the image"])
def test_a_rule_against_the_other_fix_is_a_contradiction(phrase):
    build_in_image = lesson("The web image serves no CSS: build the assets in the image",
                            "Deploying the web image to production",
                            "Added `RUN npm run build:assets` to the Dockerfile before the final stage.",
                            signatures=["GET /static/app.css 404"])
    ci_builds = lesson("The web image serves no CSS: assets come from CI",
                       "Deploying the web image to production",
                       f"CI runs the asset build and uploads static/ to the bucket; {phrase}.",
                       signatures=["GET /static/app.css 404"])
    assert both_ways(build_in_image, ci_builds) == {"contradicts"}, (compare(build_in_image, ci_builds),
                                                                       compare(ci_builds, build_in_image))


def test_a_rule_that_explains_the_cause_rejects_nothing():
    """ "X must not ..." that explains why the error happens names no remedy of the other lesson."""
    a = DUPLICATES["the same fix told in other words"][0]
    b = dict(DUPLICATES["the same fix told in other words"][1],
             summary="Each worker leaked its pool; a role must not hold more connections than its limit.")
    assert compare(b, a)["relation"] == "duplicate"


def test_do_not_with_any_verb_is_an_instruction_that_rejects_the_other_fix():
    allow = lesson("Phoenix test: DBConnection.OwnershipError in a spawned Task: allow it in the sandbox",
                   "Running `mix test` after the controller started a Task for the export",
                   "conn_case calls Ecto.Adapters.SQL.Sandbox.allow(Repo, self(), task_pid) for the Task.",
                   signatures=["DBConnection.OwnershipError"])
    inline = lesson("Phoenix test: DBConnection.OwnershipError in a spawned Task: run the export inline",
                    "Running `mix test` after the controller started a Task for the export",
                    "Do not touch the sandbox allow calls; config/test.exs sets async_export: false so the export "
                    "runs in the request process.", signatures=["DBConnection.OwnershipError"])
    assert both_ways(allow, inline) == {"contradicts"}, (compare(allow, inline), compare(inline, allow))
    narrated = dict(inline, change="We do not know why the Task outlived the test; config/test.exs sets "
                                   "async_export: false so the export runs in the request process.")
    assert "contradicts" not in both_ways(allow, narrated)


MARKUPSAFE = ["ImportError: cannot import name 'soft_unicode' from 'markupsafe'"]


def test_rejecting_what_the_other_fix_removes_agrees_with_it():
    """ "Don't pin X, upgrade Y" and "removed the X pin, bumped Y" are one fix: a rejection rejects only its own
    clause (not the Y it recommends), and what the other lesson takes away it does not apply."""
    a = lesson("Jinja import fails with soft_unicode ImportError: don't pin markupsafe, upgrade jinja2",
               "Running `flask run` after a fresh install",
               "Don't pin markupsafe==2.0.1 any more; upgraded jinja2 to 3.1.4 in requirements.txt.",
               signatures=MARKUPSAFE)
    b = lesson("soft_unicode ImportError from markupsafe: unpin it and move to Jinja2 3.1",
               "`flask run` in a new virtualenv",
               "Removed the markupsafe==2.0.1 pin and bumped jinja2 to 3.1.4 in requirements.txt.",
               signatures=MARKUPSAFE)
    assert not opposite_actions(a, b)
    assert both_ways(a, b) == {"duplicate"}, (compare(a, b), compare(b, a))
    pinned = lesson("Jinja import fails with soft_unicode ImportError: pin markupsafe==2.0.1",
                    "Running `flask run` after a fresh install", "Pinned markupsafe==2.0.1 in requirements.txt.",
                    signatures=MARKUPSAFE)
    assert both_ways(a, pinned) == {"contradicts"}


def test_a_negation_in_the_middle_of_a_clause_narrates():
    """ "events do not cross the bind mount" explains the cause; it is no instruction against the other fix."""
    a = lesson("Webpack dev server does not reload on file changes inside Docker: poll the filesystem",
               "Running `npm start` in the dev container on macOS",
               "Set watchOptions.poll = 1000 in webpack.config.js; inotify events do not cross the bind mount.",
               signatures=["no rebuild after save"])
    b = lesson("No hot reload in the dev container: file change events do not reach webpack, so poll",
               "`npm start` inside the Docker dev container on a Mac", "webpack.config.js: watchOptions.poll is 1000 ms.",
               signatures=["no rebuild after save"])
    assert both_ways(a, b) == {"duplicate"}, (compare(a, b), compare(b, a))


def test_a_rule_the_other_fix_also_keeps_is_no_contradiction():
    """ "CONCURRENTLY must not run inside a transaction" is the reason for the fix the other lesson applies
    ("runs outside the migration transaction"): a rule both keep rejects nothing."""
    signature = ["CREATE INDEX CONCURRENTLY cannot run inside a transaction block"]
    a = lesson("Alembic migration with CREATE INDEX CONCURRENTLY fails: use an autocommit block",
               "Running `alembic upgrade head` with the new index migration",
               "Wrapped op.create_index(..., postgresql_concurrently=True) in op.get_context().autocommit_block(); "
               "CONCURRENTLY must not run inside a transaction.", signatures=signature)
    b = lesson("CREATE INDEX CONCURRENTLY cannot run inside a transaction block: run it in autocommit",
               "`alembic upgrade head` on the index migration",
               "The migration creates the index inside op.get_context().autocommit_block() so it runs outside the "
               "migration transaction.", signatures=signature)
    assert both_ways(a, b) == {"duplicate"}, (compare(a, b), compare(b, a))


def test_one_value_written_with_its_unit_is_one_value():
    """ "timeout=120" and "timeout=120s" set one value; 120 and 30 are two, and for one problem, a contradiction."""
    def timeout(value):
        return lesson("tests/test_export.py times out: raise the pytest timeout",
                      "Running `pytest tests/test_export.py` in CI", f"Set timeout={value} in pytest.ini.",
                      signatures=["Failed: Timeout >60.0s"])
    assert both_ways(timeout("120"), timeout("120s")) == {"duplicate"}
    assert both_ways(timeout("120"), timeout("30")) == {"contradicts"}


SENTRY = ["No events in Sentry"]


def test_one_story_told_of_two_subjects_is_two_lessons():
    """Alike titles that swap a word each lesson uses again and the other never does (celery / rq) are about
    two things, even when no identifier tells them apart."""
    celery = lesson("Sentry gets no errors from the celery worker: initialise the SDK in the worker process",
                    "Raising an exception inside a celery task in staging",
                    "Call sentry_sdk.init() in worker startup (celery signal worker_process_init).", signatures=SENTRY)
    rq = lesson("Sentry gets no errors from the rq worker: initialise the SDK in the worker process",
                "Raising an exception inside an rq job in staging",
                "Call sentry_sdk.init() in worker startup (the rq worker's custom Worker class).", signatures=SENTRY)
    assert swapped_subjects(celery, rq) == ({"celery"}, {"rq"})
    assert "duplicate" not in both_ways(celery, rq), (compare(celery, rq), compare(rq, celery))


def test_a_reworded_verb_in_an_alike_title_is_no_subject():
    a = lesson("The provider upgrade moved aws_s3_bucket acl to its own resource: split it out",
               "Running `terraform plan` after bumping hashicorp/aws to 5.0",
               "Moved the acl argument into an aws_s3_bucket_acl resource in modules/site/main.tf.")
    b = lesson("The provider upgrade jumped aws_s3_bucket acl to its own resource: split it out",
               "Running `terraform plan` after bumping hashicorp/aws to 5.0",
               "Moved the acl argument into an aws_s3_bucket_acl resource in modules/site/main.tf.")
    assert swapped_subjects(a, b) == (set(), set())
    assert both_ways(a, b) == {"duplicate"}


RACE = ["WARNING: DATA RACE"]


def test_a_fix_that_takes_away_what_the_other_puts_in_contradicts_it():
    """No phrase needed: one fix removes the lock the other adds, or keeps the gem the other removes."""
    locked = lesson("go test -race: DATA RACE on the token cache map: guard it with a sync.RWMutex",
                    "Running `go test -race ./internal/auth/...`",
                    "Added mu sync.RWMutex to tokenCache in internal/auth/cache.go; Get takes RLock.", signatures=RACE)
    owned = lesson("DATA RACE on the token cache map: one goroutine owns the cache",
                   "Running `go test -race ./internal/auth/...`",
                   "Removed the RWMutex from internal/auth/cache.go; a cache goroutine serves get and put over a "
                   "channel.", signatures=RACE)
    assert both_ways(locked, owned) == {"contradicts"}
    kept = lesson("System tests fail: ChromeDriver only supports Chrome 114: keep webdrivers, upgrade it to 5.3.1",
                  "Running `bin/rails test:system`", "Upgraded webdrivers to 5.3.1 in the Gemfile.",
                  signatures=["This version of ChromeDriver only supports Chrome version 114"])
    dropped = lesson("System tests fail: ChromeDriver only supports Chrome 114: drop webdrivers",
                     "Running `bin/rails test:system`", "Removed webdrivers from the Gemfile; Selenium Manager "
                     "fetches the driver.", signatures=["This version of ChromeDriver only supports Chrome version 114"])
    assert both_ways(kept, dropped) == {"contradicts"}


def test_one_setting_with_two_values_in_two_places_is_no_contradiction():
    oom = ["FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory"]
    gitlab = lesson("webpack build runs out of heap in GitLab CI: NODE_OPTIONS=--max-old-space-size=4096",
                    "Running `npm run build` in the build:web job",
                    'Added NODE_OPTIONS: "--max-old-space-size=4096" to .gitlab-ci.yml.', signatures=oom,
                    files=[".gitlab-ci.yml"])
    actions = lesson("next build runs out of heap in GitHub Actions: NODE_OPTIONS=--max-old-space-size=6144",
                     "Running `npm run build` in the docs workflow",
                     'Added NODE_OPTIONS: "--max-old-space-size=6144" to .github/workflows/docs.yml.', signatures=oom,
                     files=[".github/workflows/docs.yml"])
    assert "contradicts" not in both_ways(gitlab, actions)
    # in one file, two values for one setting do contradict
    assert both_ways(gitlab, dict(gitlab, title=gitlab["title"].replace("4096", "8192"),
                                  change=gitlab["change"].replace("4096", "8192"))) == {"contradicts"}


def test_a_change_from_one_value_to_another_agrees_with_the_value_it_ends_on():
    port = ["Web server failed to start. Port 8080 was already in use."]
    long = lesson("Spring Boot ITs fail with Port 8080 was already in use: use webEnvironment RANDOM_PORT",
                  "Running `./mvnw verify` with two failsafe forks",
                  "Changed @SpringBootTest(webEnvironment = DEFINED_PORT) to @SpringBootTest(webEnvironment = "
                  "RANDOM_PORT) in OrderApiIT.java.", signatures=port)
    short = lesson("port 8080 in use in ITs: RANDOM_PORT", "", "OrderApiIT: webEnvironment = RANDOM_PORT.",
                   signatures=port)
    assert "contradicts" not in both_ways(long, short)


def test_a_fix_done_instead_of_what_the_other_fix_does_contradicts_it():
    msrv = ["clap_derive 4.5.4 requires rustc 1.74"]
    pin = lesson("cargo build fails on the MSRV job: clap_derive 4.5.4 requires rustc 1.74: pin clap to 4.4.18",
                 "Running the msrv CI job", "`cargo update -p clap --precise 4.4.18`; committed Cargo.lock.",
                 signatures=msrv)
    raise_it = lesson("clap_derive 4.5.4 requires rustc 1.74 on the MSRV job: raise rust-version to 1.74 instead of "
                      "pinning clap", "Running the msrv CI job", 'Cargo.toml: `rust-version = "1.74"`.', signatures=msrv)
    assert both_ways(pin, raise_it) == {"contradicts"}
    # "instead of" naming the old state both fixes leave behind is agreement
    one = lesson("pg_config not found installing psycopg2: use psycopg2-binary", "pip install -r requirements-dev.txt",
                 "requirements-dev.txt: psycopg2-binary==2.9.9 instead of psycopg2.")
    two = lesson("pip install psycopg2 fails: pg_config executable not found: use psycopg2-binary",
                 "pip install -r requirements-dev.txt",
                 "Replaced psycopg2==2.9.9 with psycopg2-binary==2.9.9 in requirements-dev.txt.")
    assert "contradicts" not in both_ways(one, two)


def test_the_same_steps_in_the_other_order_contradict():
    err = ["Unable to locate executable file: pnpm"]
    pnpm_first = lesson("setup-node with cache: pnpm fails: run pnpm/action-setup before actions/setup-node", "CI",
                        "Ordered the steps pnpm/action-setup@v4 first, then actions/setup-node@v4.", signatures=err)
    node_first = lesson("setup-node with cache: pnpm fails: run actions/setup-node first, then pnpm/action-setup", "CI",
                        "Ordered the steps actions/setup-node@v4 first, then pnpm/action-setup@v4.", signatures=err)
    assert both_ways(pnpm_first, node_first) == {"contradicts"}
    moved = lesson("setup-node (cache: pnpm) fails: put pnpm/action-setup before actions/setup-node", "CI",
                   "Moved `uses: pnpm/action-setup@v4` above `uses: actions/setup-node@v4`.", signatures=err)
    assert "contradicts" not in both_ways(pnpm_first, moved)


def test_a_flag_and_its_no_form_or_a_kept_setting_given_another_value_contradict():
    err = ["ERR_PNPM_OUTDATED_LOCKFILE"]
    strict = lesson("CI pnpm install fails with ERR_PNPM_OUTDATED_LOCKFILE: commit the updated pnpm-lock.yaml", "CI",
                    "Ran `pnpm install` and committed pnpm-lock.yaml; kept --frozen-lockfile in CI so drift fails.",
                    signatures=err)
    loose = lesson("ERR_PNPM_OUTDATED_LOCKFILE in CI: install with --no-frozen-lockfile", "CI",
                   "`.github/workflows/ci.yml`: `run: pnpm install --no-frozen-lockfile`.", signatures=err)
    assert both_ways(strict, loose) == {"contradicts"}
    body = ["413 Request Entity Too Large"]
    zero = lesson("Uploads fail with 413: set client_max_body_size 0", "uploading a file",
                  "deploy/nginx/app.conf: `client_max_body_size 0;` in the app server block.", signatures=body)
    fifty = lesson("Uploads fail with 413: set client_max_body_size 50m", "uploading a file",
                   "deploy/nginx/app.conf: `client_max_body_size 50m;` in the app server block.", signatures=body)
    assert both_ways(zero, fifty) == {"contradicts"}


def test_a_fix_told_twice_is_no_contradiction_however_its_sentences_run():
    """ "so pgjdbc never creates named statements" narrates what the fix does; "no named statements are created"
    says it again: one fix, merged."""
    err = ['prepared statement "S_1" already exists']
    one = lesson('prepared statement "S_1" already exists through PgBouncer: add prepareThreshold=0 to the JDBC URL',
                 "JDBC behind PgBouncer", "spring.datasource.url in deploy/orders/values.yaml now ends with "
                 "`?prepareThreshold=0`; no server-side named statements are created.", signatures=err)
    two = lesson('JDBC queries fail with prepared statement "S_1" already exists behind PgBouncer: set prepareThreshold=0',
                 "JDBC behind PgBouncer", "Appended `?prepareThreshold=0` to the JDBC URL in deploy/orders/values.yaml, "
                 "so pgjdbc never creates named server-side statements.", signatures=err)
    assert both_ways(one, two) == {"duplicate"}


def test_a_fix_that_seems_to_undo_the_other_but_names_nothing_apart_is_neither_merged_nor_contradicting():
    err = ["Could not resolve package dependencies"]
    wipe = lesson("xcodebuild fails on CI with Could not resolve package dependencies: wipe the SwiftPM cache", "CI",
                  "Deleted ~/Library/Caches/org.swift.swiftpm before resolving.", signatures=err)
    added = lesson("xcodebuild fails on CI with Could not resolve package dependencies: clear the SwiftPM cache", "CI",
                   "Added `rm -rf ~/Library/Caches/org.swift.swiftpm` to ci/build.sh before resolving.",
                   signatures=err)
    assert "contradicts" not in both_ways(wipe, added)


def test_a_fix_that_is_only_the_other_lessons_starting_point_is_another_lesson():
    """blind16 S10: ``ctest`` from the wrong folder, fixed with ``--test-dir build``; then ``ctest --test-dir build``
    found no tests, fixed with ``enable_testing()``. The second names the first's flag only in its failing command
    and the run it shows whole: two lessons, however close their words."""
    flag = lesson("`ctest` fails with No test configuration file found! — pass `--test-dir build`",
                  "", "Pass `--test-dir build`: `ctest --test-dir build --output-on-failure`.",
                  "ctest looks for CTestTestfile.cmake in the current folder.")
    testing = lesson("`ctest --test-dir build --output-on-failure` fails with No tests were found!!! — add "
                     "`enable_testing()` in CMakeLists.txt", "",
                     "CMakeLists.txt:\n+enable_testing()\n$ cmake -S . -B build && ctest --test-dir build "
                     "--output-on-failure",
                     "The top-level `CMakeLists.txt` never called `enable_testing()`, so `add_test()` in tests/ was "
                     "ignored and ctest reported \"No tests were found\".")
    assert different_fix(flag, testing) and different_fix(testing, flag)
    assert "duplicate" not in {compare(flag, testing, cosine)["relation"] for cosine in (None, 0.8, 0.9)}
    # (blind16 S11: ``--flavor dev``, then each flavor's Firebase config copied before the same run)
    flavor = lesson("`flutter run …` fails with Gradle build failed to produce an .apk file — pass `--flavor dev`", "",
                    "Pass `--flavor dev`: `flutter run -d emulator-5554 --flavor dev -t lib/main_dev.dart`.")
    config = lesson("`flutter run …` fails with No matching client found for package name 'com.acme.shop.dev'", "",
                    "Run `mkdir -p android/app/src/dev && cp config/firebase/google-services.dev.json "
                    "android/app/src/dev/google-services.json` before `flutter run -d emulator-5554 --flavor dev`.",
                    "Each flavor needs its own Firebase config at `android/app/src/dev/google-services.json`.")
    assert "duplicate" not in {compare(flavor, config, cosine)["relation"] for cosine in (None, 0.83, 0.9)}
