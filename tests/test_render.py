"""A record shaped for reading: titles a person would write, the cause and fix first, cards of ~150 tokens."""
import json

import pytest
from click.testing import CliRunner

from lorebook.cli import cli
from lorebook.record import error_line, lesson_problem, lesson_title
from lorebook.render import full_note, inert, note_for_reading, render_context
from lorebook.text import estimate_tokens

PYTEST_LOG = """Exit code 1
============================= test session starts ==============================
collected 12 items

tests/test_app.py F...........                                           [100%]

=================================== FAILURES ===================================
_________________________________ test_import __________________________________
ImportError while importing test module '/home/dev/shop/tests/test_app.py'.
E   ModuleNotFoundError: No module named 'shop'
=========================== short test summary info ============================
ERROR tests/test_app.py - ModuleNotFoundError: No module named 'shop'
========================= 1 error in 0.31s ==========================="""

# the record shape candidates produce (branch `lessons`): net change, one line per failed attempt
SECOND_TRY = {
    "id": 7, "kind": "fix", "verified": 1, "source_agent": "claude-code", "session_id": "5f1e2d3c-aaaa",
    "created_at": "2026-11-30T10:00:00", "updated_at": "2026-11-30T10:00:00", "scope": "project",
    "title": lesson_title("`pytest -q` fails with ModuleNotFoundError: No module named 'shop'",
                          "ran it with PYTHONPATH=src"),
    "summary": "The package lives under src/ and is not installed, so pytest cannot import it from the repository "
               "root. Running pytest with PYTHONPATH=src makes `shop` importable.",
    "trigger": "Running `pytest -q` fails with `ModuleNotFoundError: No module named 'shop'`",
    "evidence": [
        {"quote": PYTEST_LOG, "source": "observation 11 (`pytest -q` failed)", "observation_id": 11},
        {"quote": "tried `pip install pytest`: still failed with ModuleNotFoundError: No module named 'shop'",
         "source": "an attempt in this session", "observation_id": 12},
        {"quote": "`PYTHONPATH=src pytest -q` passed: 12 passed in 0.40s", "source": "observation 13",
         "observation_id": 13},
    ],
    "change": "Run the tests as `PYTHONPATH=src pytest -q` (the environment variable was added).",
    "validation": {"passed": ["`PYTHONPATH=src pytest -q` passed after the change (observation 13)"],
                   "not_performed": []},
    "conditions": "", "files": [], "error_signatures": ["ModuleNotFoundError: No module named <name>"],
    "observation_ids": [11, 12, 13],
}


@pytest.mark.parametrize("problem, fix, expected", [
    ("`pytest -q tests/test_forecast.py` fails with FAILED tests/test_forecast.py::test_fetch_times_out - "
     "weather.errors.ConfigError: [http] timeout_seconds is required in settings.toml",
     "Added `timeout_seconds = 10` under [http]; all 4 forecast tests pass now.",
     "`pytest -q tests/test_forecast.py` fails with ConfigError: [http] timeout_seconds is required — "
     "add `timeout_seconds = 10` under [http]"),
    ("`pytest -q` fails with ModuleNotFoundError: No module named 'shop'", "I ran it with PYTHONPATH=src",
     "`pytest -q` fails with ModuleNotFoundError: No module named 'shop' — run it with PYTHONPATH=src"),
    (PYTEST_LOG, "pinned urllib3<2 in requirements.txt",
     "ModuleNotFoundError: No module named 'shop' — pin urllib3<2 in requirements.txt"),
    ("`make` fails with /home/dev/shop/build/out.o: No such file or directory", "",
     "`make` fails with out.o: No such file or directory"),
])
def test_lesson_title_states_the_problem_then_the_fix(problem, fix, expected):
    assert lesson_title(problem, fix) == expected
    assert lesson_title(problem, fix) == lesson_title(problem, fix)  # deterministic


def test_a_long_title_gives_way_between_words_never_mid_word_and_keeps_the_fix():
    title = lesson_title("`cargo build --release --features very-long-feature-name,another-one` fails with "
                         "error[E0433]: failed to resolve: use of undeclared crate or module `tokio` in "
                         "/home/dev/proj/src/main.rs", "added tokio with the rt-multi-thread feature to Cargo.toml")
    assert len(title) <= 140 and title.endswith("— add tokio with the rt-multi-thread feature to Cargo.toml")
    assert "error[E0433]" in title and "/home/dev" not in title
    head = title.split(" — ")[0]
    assert head.count("`") % 2 == 0 and (head.endswith("…") or len(head) < 100)
    assert not head.rstrip("…").endswith(("resol", "undecl"))  # cut between words


def test_a_title_too_long_for_its_fix_drops_the_file_then_cuts_inside_the_code():
    title = lesson_title("`helm upgrade --install worker charts/worker -n staging` fails with Error: UPGRADE FAILED: "
                         "context deadline exceeded",
                         "add `{{- with .Values.imagePullSecrets }}` in charts/worker/templates/deployment.yaml")
    assert title.endswith("— add `{{- with .Values.imagePullSecrets }}`"), title
    title = lesson_title("`./gradlew :server:test` fails with Unresolved reference: testApplication in "
                         "src/test/kotlin/RoutesTest.kt",
                         'add `testImplementation("io.ktor:ktor-server-test-host:$ktorVersion")` in '
                         "server/build.gradle.kts and sync")
    fix = title.split(" — ")[1]
    # a code span cut short is closed, with the cut shown inside it, not dropped ("add…")
    assert fix.startswith('add `testImplementation("io.ktor:ktor-server') and fix.endswith("…`"), title


def test_a_line_of_steps_is_titled_by_the_step_its_error_names_else_by_its_last():
    # (blind20 W04: "CMake Error" is cmake's, not the ``ninja -C build`` after it)
    title = lesson_title("`cmake -B build -GNinja app && ninja -C build` fails with CMake Error at CMakeLists.txt:4 "
                         "(find_package): By not providing \"FindZephyr.cmake\" in CMAKE_MODULE_PATH this project",
                         "use `west build -p auto -b nrf52840dk/nrf52840 app` instead")
    assert title.startswith("`cmake build …` fails with CMake Error"), title
    title = lesson_title("`docker compose up -d db && go test ./internal/invoices/...` fails with list: sql: Scan "
                         "error on column index 4, name \"paid_at\": unsupported Scan, storing driver.Value type "
                         "<nil> into type *time.Time", "`PaidAt time.Time` → `PaidAt sql.NullTime`")
    assert title.startswith("`go test …` fails with list: sql: Scan error"), title


def test_a_titles_problem_drops_a_loggers_time_stamp_before_its_level():
    # (blind144 EO20: NestJS's ``[Nest] 60412  - 07/31/2024, 10:02:17 AM   ERROR [PackageLoader] …``)
    assert lesson_problem("[Nest] 60412  - 07/31/2024, 10:02:17 AM   ERROR [PackageLoader] The \"class-validator\" "
                          "package is missing.") == "[PackageLoader] The \"class-validator\" package is missing"
    assert lesson_problem("2024-07-31T10:02:17.123Z ERROR Failed to bind 0.0.0.0:8080") == "Failed to bind 0.0.0.0:8080"
    assert lesson_problem("[2024-07-31 10:02:17,001] ERROR Connector orders-cdc failed") == "Connector orders-cdc failed"
    assert lesson_problem("10:02:17 INFO started") == "10:02:17 INFO started"  # (no level of failure: as it is)


def test_error_line_is_the_line_that_names_the_error():
    assert error_line(PYTEST_LOG) == "ModuleNotFoundError: No module named 'shop'"
    assert error_line("Exit code 1\n=== 1 failed in 0.3s ===\nE   KeyError: 'DATABASE_URL'\n=== 1 failed ===") \
        == "KeyError: 'DATABASE_URL'"
    assert error_line("just one line") == "just one line"
    # (the step a line of steps failed in is never the status passed on after it: blind205 GX05's ``…| tail -8; exit
    # ${PIPESTATUS[0]}``, nor the variables loaded before it)
    from lorebook.record import _failed_step

    assert _failed_step("/opt/unity/Editor/Unity -batchmode -quit 2>&1 | tail -8; exit ${PIPESTATUS[0]}",
                        "Aborting batchmode due to failure").startswith("/opt/unity/Editor/Unity")
    assert _failed_step("set -a; . ./.env.staging; set +a; uv run celery -A orders worker", "") == \
        "uv run celery -A orders worker"
    # (jest's heading over a suite that could not load says only that: blind213 HF20's Yarn PnP message is the error)
    jest = (" FAIL  src/editor/__tests__/exportHtml.test.ts\n  ● Test suite failed to run\n\n    draft-js-export-html "
            "tried to access immutable, but it isn't declared in its dependencies; this makes the require call "
            "ambiguous and unsound.\n\n    Required package: immutable\n\nTest Suites: 1 failed, 1 total")
    from lorebook import signatures

    assert signatures.error_line(jest).startswith("draft-js-export-html tried to access immutable")
    # (and Ruby's exception by its namespaced name, blind210 HC04)
    assert signatures.error_line("Error:\nCheckoutsTest#test_applies_a_coupon:\nSelenium::WebDriver::Error::WebDriverError: Failed "
                                 "to open TCP connection to selenium:4444\n4 runs, 0 assertions, 0 failures, 4 errors") \
        .startswith("Selenium::WebDriver::Error::WebDriverError: Failed")


def test_cabals_verdict_is_a_wrapper_and_ghcs_missing_preprocessor_names_the_error():
    # (blind584 VM19: every cabal failure ends ``Error: [Cabal-7125]`` and "Failed to build …": the same for a type
    # error and for a missing ``hspec-discover``)
    from lorebook import signatures

    log = ("Building test suite 'bookshelf-api-test' for bookshelf-api-0.1.0.0...\n"
           "ghc-9.6.6: could not execute: hspec-discover\nError: [Cabal-7125]\n"
           "Failed to build test:bookshelf-api-test from bookshelf-api-0.1.0.0.")
    assert signatures.error_line(log) == "ghc-9.6.6: could not execute: hspec-discover"
    assert signatures.is_wrapper_line("Failed to build bookshelf-api-0.1.0.0 (which is required by exe:bookshelf-api "
                                      "from bookshelf-api-0.1.0.0).")
    # (blind726 AAY09: the older cabal's ``Error: cabal: Failed to build …``, under GHC's error)
    assert signatures.is_wrapper_line("Error: cabal: Failed to build ledgerline-0.2.0.")


def test_flutters_gradle_verdict_is_a_wrapper_and_darts_located_error_names_the_error():
    from lorebook.signatures import error_line

    flutter = ("Exit code 1\nlib/models/user.dart:9:6: Error: Error when reading 'lib/models/user.g.dart': No such "
               "file or directory\nTarget kernel_snapshot failed: Exception\n\nFAILURE: Build failed with an "
               "exception.\n\nBUILD FAILED in 19s\nError: Gradle task assembleDebug failed with exit code 1")
    assert error_line(flutter) == ("lib/models/user.dart:9:6: Error: Error when reading 'lib/models/user.g.dart': "
                                   "No such file or directory")


def test_go_tests_message_at_its_place_names_the_error_and_a_comments_next_line_is_scaffolding():
    # (blind150 EU01: "=== RUN TestCreateLink" stood for the error, and the comment's second line for the fix)
    from lorebook.record import scaffolding
    from lorebook.signatures import error_line

    go = ("Exit code 1\n=== RUN   TestCreateLink\n    handlers_test.go:48: Content-Type = \"text/plain; "
          "charset=utf-8\", want \"application/json\"\n--- FAIL: TestCreateLink (0.01s)\nFAIL")
    assert error_line(go).startswith("handlers_test.go:48: Content-Type = ")
    assert scaffolding("+// written, later Header().Set calls are silently dropped.")
    assert not scaffolding("+# typed: strict")


def test_a_verdict_that_points_at_the_errors_above_is_a_wrapper():
    # (blind148 ES17: PlatformIO's "Uploading stage has failed, see errors above. Use `--without-uploading` …" stood
    # for the error, and put the flag that did not help in the title)
    from lorebook.signatures import error_line

    pio = ("Exit code 1\nSerial port /dev/ttyUSB0\nA fatal error occurred: Could not open /dev/ttyUSB0, the port "
           "doesn't exist\n*** [upload] Error 2\nUploading stage has failed, see errors above. Use "
           "`--without-uploading` option to skip upload process.")
    assert error_line(pio) == "A fatal error occurred: Could not open /dev/ttyUSB0, the port doesn't exist"


def test_a_title_short_of_room_drops_the_errors_place_before_its_words():
    title = lesson_title("`flutter build apk --debug` fails with lib/models/profile.dart:22:36: Error: Method not "
                         "found: '_$ProfileToJson'.", "ran `dart run build_runner build --delete-conflicting-outputs`")
    assert title.startswith("`flutter build apk --debug` fails with Error: Method not found"), title
    assert title.endswith("— run `dart run build_runner build --delete-conflicting-outputs`")


def test_a_title_reads_a_list_of_absolute_paths_as_the_search_path():
    title = lesson_title("`ansible-playbook playbooks/site.yml` fails with ERROR! the role 'common' was not found in "
                         "/home/dev/infra/playbooks/roles:/home/dev/.ansible/roles:/usr/share/ansible/roles",
                         "run it from `ansible/`")
    assert title == ("`ansible-playbook playbooks/site.yml` fails with ERROR! the role 'common' was not found in the "
                     "search path — run it from `ansible/`")


def test_a_title_keeps_a_urls_path_and_drops_an_absolute_ones_folders():
    assert lesson_title("`godot --headless` fails with Failed to load script \"res://tests/unit/test_damage.gd\"") == (
        "`godot --headless` fails with Failed to load script \"res://tests/unit/test_damage.gd\"")
    assert lesson_title("`curl -sf` fails with https://api.example.com/v1/health: 404") == (
        "`curl -sf` fails with https://api.example.com/v1/health: 404")
    assert lesson_title("`make` fails with /home/dev/shop/build/out.o: missing") == "`make` fails with out.o: missing"


def test_compose_waits_verdict_names_the_container_that_failed():
    from lorebook.signatures import error_line, error_signature

    out = ("Exit code 1\n Container stack-loki-1  Running\n Container stack-grafana-1  Started\n"
           "container stack-grafana-1 exited (1)")
    assert error_line(out) == "container stack-grafana-1 exited (1)"
    assert error_signature(out) != error_signature(out.replace("grafana", "fluent-bit"))


def test_inert_is_one_bounded_line():
    assert inert("a\n\n  b\tc ", 100) == "a b c"
    assert len(inert("word " * 100, 50)) == 50
    assert inert(None, 10) == ""


def test_a_typical_card_leads_with_the_cause_and_fix_and_fits_150_tokens():
    card = full_note(SECOND_TRY)
    lines = card.splitlines()
    assert lines[0] == "### #7 " + SECOND_TRY["title"]
    assert lines[1] == "fix · verified · recorded 2026-11-30 by claude-code session 5f1e2d3c"
    assert lines[2].startswith("Cause and fix: The package lives under src/")
    assert "Change: Run the tests as `PYTHONPATH=src pytest -q`" in card
    # the failed attempt is shown as one, never as the fix
    assert "Did not help: tried `pip install pytest`: still failed" in card
    assert "pip install" not in card.split("Did not help:")[0]
    # the check is the command the change line has just shown: named, not spelt out again
    assert "Checked: the fixed command passed after the change" in card
    assert "Checked: `PYTHONPATH=src pytest -q` passed after the change" in note_for_reading(SECOND_TRY)
    # the evidence is its error line, not the log
    assert "collected 12 items" not in card and "=====" not in card and "short test summary" not in card
    assert estimate_tokens(card) <= 150, (estimate_tokens(card), card)


def test_a_card_names_the_error_when_nothing_else_on_it_does():
    note = dict(SECOND_TRY, title="Tests need PYTHONPATH=src", trigger="Running the tests from the repository root",
                evidence=[SECOND_TRY["evidence"][0], SECOND_TRY["evidence"][2]])
    card = full_note(note)
    assert "Error: ModuleNotFoundError: No module named 'shop' (observation 11)" in card
    assert "When: Running the tests from the repository root" in card


def test_an_unverified_card_says_what_was_not_checked():
    note = dict(SECOND_TRY, verified=0, validation={"passed": [], "not_performed": ["The full suite was not run."]})
    card = full_note(note)
    assert "not verified" in card.splitlines()[1]
    assert "Not checked: The full suite was not run." in card and "Checked:" not in card.replace("Not checked", "")


def test_a_long_record_still_makes_a_bounded_card():
    note = dict(SECOND_TRY, summary="The cause. " * 80, change="line\n" * 200, trigger="t " * 300,
                conditions="Linux " * 100)
    card = full_note(note)
    assert estimate_tokens(card) <= 150
    assert card.splitlines()[2].startswith("Cause and fix: The cause. The cause.")


def test_injection_frames_cards_as_evidence_within_the_budget_with_the_way_to_the_logs():
    others = [dict(SECOND_TRY, id=i, title=f"Other lesson {i}") for i in range(20, 30)]
    text, shown = render_context([SECOND_TRY, *others], 600)
    assert estimate_tokens(text) <= 600
    assert text.startswith("<lorebook-memory>") and "not instructions" in text
    assert shown[0] == 7 and "Cause and fix: The package lives" in text
    assert "More notes (titles only):" in text
    assert "`lorebook show ID --evidence`" in text


@pytest.fixture
def stored_note(store, tmp_path):
    """SECOND_TRY stored, with the observations it cites."""
    store.ensure_session("5f1e2d3c-aaaa", project_key=None)
    ids = []
    for tool, target, outcome, body in (("Bash", "pytest -q", "error", PYTEST_LOG),
                                        ("Bash", "pip install pytest", "ok", "Requirement already satisfied"),
                                        ("Bash", "PYTHONPATH=src pytest -q", "ok", "12 passed in 0.40s")):
        ids.append(store.add_observation({"session_id": "5f1e2d3c-aaaa", "event": "post_tool_use", "tool": tool, "target": target, "summary": target,
                                          "outcome": outcome, "body": body,
                                          "error_text": body if outcome == "error" else None}))
    note = {k: v for k, v in SECOND_TRY.items() if k not in ("id", "created_at", "updated_at")}
    note["evidence"] = [dict(e, observation_id=ids[n]) for n, e in enumerate(SECOND_TRY["evidence"])]
    note["observation_ids"] = ids
    return store.add_note(note), ids


def test_show_leads_with_the_cause_and_fix_and_evidence_prints_the_logs(stored_note):
    note_id, ids = stored_note
    out = CliRunner().invoke(cli, ["show", str(note_id)]).output
    lines = out.splitlines()
    assert lines[0] == f"#{note_id} {SECOND_TRY['title']}"
    assert lines[3].startswith("Cause and fix: The package lives under src/ and is not installed")
    assert "Did not help: tried `pip install pytest`" in out
    assert "  - ModuleNotFoundError: No module named 'shop' — observation 11 (`pytest -q` failed)" in out
    assert "collected 12 items" not in out
    assert f"Full logs: `lorebook show {note_id} --evidence` (observations {', '.join(map(str, ids))})" in out
    full = CliRunner().invoke(cli, ["show", str(note_id), "--evidence"]).output
    assert full.startswith(out.rstrip("\n"))
    assert f"observation {ids[0]} · Bash `pytest -q` · error" in full
    assert "  collected 12 items" in full and "  12 passed in 0.40s" in full
    data = json.loads(CliRunner().invoke(cli, ["show", str(note_id), "--evidence", "--json"]).output)
    assert [o["id"] for o in data["observations"]] == ids


def test_note_for_reading_keeps_a_multi_line_change_as_written():
    note = dict(SECOND_TRY, change="settings.toml:\n retries = 2\n+timeout_seconds = 10")
    text = note_for_reading(note)
    assert "Change:\n  settings.toml:\n  retries = 2\n  +timeout_seconds = 10" in text


def test_mcp_get_note_reads_lesson_first_with_error_lines_and_the_way_to_the_logs(stored_note, store):
    from lorebook.mcp_server import Tools

    note_id, ids = stored_note
    answer = Tools(str(store.path) if hasattr(store, "path") else None).get_note(note_id)
    note = answer["note"]
    assert list(note)[:5] == ["id", "title", "summary", "kind", "trigger"]
    assert note["evidence"][0]["quote"] == "ModuleNotFoundError: No module named 'shop'"
    assert note["evidence"][1]["quote"].startswith("tried `pip install pytest`: still failed")
    assert note["logs"] == f"the full output behind the evidence: `lorebook show {note_id} --evidence`"


def test_a_card_shows_the_state_a_diff_reaches_and_a_full_note_shows_both_sides():
    note = dict(SECOND_TRY, change="src/worker.rs:\n-let state = Rc::new(RefCell::new(State::default()));\n"
                                   "+let state = Arc::new(Mutex::new(State::default()));")
    card = full_note(note)
    assert "Change: src/worker.rs: +let state = Arc::new(Mutex::new(State::default()));" in card
    assert "Rc::new(RefCell" not in card.split("Change:")[1]
    assert "-let state = Rc::new(RefCell" in note_for_reading(note)


def test_a_trigger_that_restates_the_title_is_left_off_the_card():
    note = dict(SECOND_TRY, trigger="Running `pytest -q` in this project (it failed with "
                                    "ModuleNotFoundError: No module named 'shop')")
    assert "\nWhen:" not in full_note(note)
    assert "\nWhen:" in full_note(dict(note, title="Tests need PYTHONPATH=src"))


def test_a_fix_of_several_lines_is_titled_by_its_first():
    assert lesson_title("`make` fails with missing PROFILE", "Set PROFILE=release\nall checks pass now") \
        == "`make` fails with missing PROFILE — set PROFILE=release"


# a fix over two files whose long diff does not fit a card whole (the shape of a Room migration added and registered)
TWO_FILES = dict(
    SECOND_TRY,
    title=lesson_title("`gradlew :app:testDebugUnitTest` fails with java.lang.RuntimeException: "
                       "java.lang.IllegalStateException: A migration from 7 to 8 was required but not found",
                       "change app/src/main/java/org/example/tasks/storage/Migrations.kt"),
    summary="Version 8 added the `archived` column but no migration from 7 was registered, so existing databases "
            "could not open. Added `MIGRATION_7_8` and registered it in the builder.",
    trigger="Running `./gradlew :app:testDebugUnitTest --tests '*TaskDaoTest*'` in this project (it failed with "
            "java.lang.IllegalStateException: A migration from 7 to 8 was required but not found)",
    change="app/src/main/java/org/example/tasks/storage/Migrations.kt:\n"
           "+import androidx.sqlite.db.SupportSQLiteDatabase\n"
           "+val MIGRATION_7_8 = object : Migration(7, 8) {\n"
           "+override fun migrate(db: SupportSQLiteDatabase) {\n"
           "+db.execSQL(\"ALTER TABLE tasks ADD COLUMN archived INTEGER NOT NULL DEFAULT 0\")\n"
           "app/src/main/java/org/example/tasks/storage/TaskDatabase.kt:\n"
           "-.addMigrations(MIGRATION_5_6, MIGRATION_6_7)\n"
           "app/src/main/java/org/example/tasks/storage/TaskDatabase.kt:\n"
           "+.addMigrations(MIGRATION_5_6, MIGRATION_6_7, MIGRATION_7_8)",
    validation={"passed": ["`./gradlew :app:testDebugUnitTest --tests '*TaskDaoTest*'` passed after the change "
                           "(observation 13)"], "not_performed": []},
    evidence=[{"quote": "java.lang.IllegalStateException: A migration from 7 to 8 was required but not found.",
               "source": "observation 11", "observation_id": 11}],
)


def test_a_chained_exception_is_titled_by_the_innermost_one():
    assert TWO_FILES["title"].startswith("`gradlew :app:testDebugUnitTest` fails with IllegalStateException")


def test_a_two_file_fix_shows_each_files_change_before_the_lines_around_it():
    card = full_note(TWO_FILES)
    assert estimate_tokens(card) <= 150
    change = card.split("Change: ")[1].splitlines()[0]
    # the line that says what changed in each file, each file named once; the imports and block openers give way
    assert 'ALTER TABLE tasks ADD COLUMN archived INTEGER NOT NULL DEFAULT 0' in change
    assert "+.addMigrations(MIGRATION_5_6, MIGRATION_6_7, MIGRATION_7_8)" in change
    assert change.count("TaskDatabase.kt:") == 1 and "import androidx" not in change
    assert "object : Migration(7, 8) {" not in change
    # the title names `gradlew`, the trigger `./gradlew`: the lines the title says already are left off
    assert "\nWhen:" not in card and "\nError:" not in card
    # the check is named whole, not cut to a stub
    assert "Checked: the failing command passed after the change" in card
    # a person reading the note gets every line, with the full paths
    assert "+import androidx.sqlite.db.SupportSQLiteDatabase" in note_for_reading(TWO_FILES)
    assert "app/src/main/java/org/example/tasks/storage/Migrations.kt" in note_for_reading(TWO_FILES)


def test_a_card_with_room_to_spare_keeps_the_whole_change():
    note = dict(TWO_FILES, change="settings.gradle.kts:\n+include(\":core\")\n+include(\":feature-tasks\")")
    assert "Change: settings.gradle.kts: +include(\":core\"); +include(\":feature-tasks\")" in full_note(note)


def test_a_fix_that_opens_a_block_is_titled_by_what_the_block_holds():
    from lorebook.edits import _short_diff

    hunk = {"old": "android {\n", "new": "android {\nsourceSets {\n"
                                         "getByName(\"androidTest\").assets.srcDir(\"$projectDir/schemas\")\n"}
    assert _short_diff(hunk) == 'add `getByName("androidTest").assets.srcDir("$projectDir/schemas")`'
    assert _short_diff({"old": "", "new": "import numpy\n"}) == "add `import numpy`"


def test_a_card_keeps_the_changed_lines_the_error_asks_for_and_each_repeated_line_once():
    note = dict(TWO_FILES,
                title=lesson_title("`kyverno apply policies/ --resource deploy/` fails with validation error: "
                                   "containers must set readOnlyRootFilesystem=true and drop ALL capabilities",
                                   "add `runAsNonRoot: true` in deploy/web.yaml"),
                trigger="Running `kyverno apply policies/ --resource deploy/` in this project",
                summary="The pod hardening policy rejects both deployments.",
                change="deploy/web.yaml:\n+securityContext:\n+runAsNonRoot: true\n+runAsUser: 10001\n"
                       "+allowPrivilegeEscalation: false\n+seccompProfile:\n+type: RuntimeDefault\n"
                       "+readOnlyRootFilesystem: true\n+capabilities:\n+drop: [\"ALL\"]\n"
                       "deploy/worker.yaml:\n+securityContext:\n+runAsNonRoot: true\n+runAsUser: 10001\n"
                       "+allowPrivilegeEscalation: false\n+readOnlyRootFilesystem: true\n+capabilities:\n"
                       "+drop: [\"ALL\"]",
                evidence=[{"quote": "validation error: containers must set readOnlyRootFilesystem=true and drop ALL "
                                    "capabilities", "source": "observation 11", "observation_id": 11}])
    card = full_note(note)
    change = card.split("Change: ")[1].splitlines()[0]
    assert estimate_tokens(card) <= 150
    assert "+readOnlyRootFilesystem: true" in change and '+drop: ["ALL"]' in change
    assert "+securityContext:" not in change  # a line that only opens a block
    assert change.endswith("deploy/worker.yaml: the same lines")


def test_a_fix_is_titled_by_its_code_not_the_comment_above_it():
    from lorebook.edits import _short_diff

    hunk = {"old": "", "new": "# Fixed encryption keys for the test environment (no test credentials)\n"
                              "config.active_record.encryption.primary_key = \"test-primary-key\"\n"}
    assert _short_diff(hunk).startswith("add `config.active_record.encryption.primary_key")
    assert _short_diff({"old": "", "new": "# typed: strict\n"}) == "add `# typed: strict`"


def test_a_line_that_only_moved_a_bracket_gives_way_to_the_line_it_made_room_for():
    from lorebook.render import _change_text

    change = ("src/dune:\n-(libraries lwt cohttp))\n+(libraries lwt cohttp)\n+(preprocess\n+(pps ppx_deriving_show)))\n"
              "dune-project:\n+(depends ppx_deriving)")
    assert _change_text(change, compact=True, limit=80) == \
        "src/dune: +(pps ppx_deriving_show))); dune-project: +(depends ppx_deriving)"
    assert "+(libraries lwt cohttp)" in _change_text(change, compact=True, limit=400)  # with room, every line


def test_a_comment_gives_way_before_the_changed_signature_beside_it():
    # (blind150 EU05: ``// start from Boot's builder …`` kept, ``objectMapper(Jackson2ObjectMapperBuilder builder) {``
    # dropped)
    from lorebook.render import _change_text

    change = ("src/main/java/com/acme/orders/config/MessagingConfig.java:\n"
              "-public ObjectMapper objectMapper() {\n-return new ObjectMapper();\n"
              "+public ObjectMapper objectMapper(Jackson2ObjectMapperBuilder builder) {\n"
              "+// start from Boot's builder so JavaTimeModule and spring.jackson.* still apply\n"
              "+return builder.build();")
    text = _change_text(change, compact=True, limit=150)
    assert "Jackson2ObjectMapperBuilder" in text and "start from Boot's builder" not in text, text


def test_a_file_whose_change_only_removed_lines_shows_what_it_removed():
    from lorebook.render import _change_text

    change = "tests/CMakeLists.txt:\n-enable_testing()\nCMakeLists.txt:\n+enable_testing()\n-add_subdirectory(tests)"
    assert _change_text(change, compact=True, limit=200) == \
        "tests/CMakeLists.txt: -enable_testing(); CMakeLists.txt: +enable_testing()"


def test_a_long_step_gives_way_to_the_file_change_beside_it():
    # (blind6 G23: the pull secret's long ``kubectl create secret`` took the room of the `imagePullSecrets:` it is for)
    from lorebook.render import _change_text

    step = ("Run `kubectl -n staging create secret docker-registry ghcr-pull --docker-server=ghcr.io "
            "--docker-username=acme-deploy --docker-password=[REDACTED:github-token]` first.")
    change = step + "\ncharts/worker/values-staging.yaml:\n+imagePullSecrets:\n+  - name: ghcr-pull"
    text = _change_text(change, compact=True, limit=150)
    assert text == ("Run `kubectl -n staging create secret docker-registry ghcr-pull …` first. "
                    "charts/worker/values-staging.yaml: +imagePullSecrets: +  - name: ghcr-pull"), text
    assert _change_text(step, compact=True, limit=100) == step  # (alone, the step is the change: inert cuts it)

def test_a_card_never_ends_a_sentence_inside_a_code_span():
    from lorebook.render import _whole_sentences

    text = "Activate the local switch: `eval $(opam env --switch=. --set-switch)` first. " + "More words here. " * 20
    assert _whole_sentences(text, 90) == "Activate the local switch: `eval $(opam env --switch=. --set-switch)` first."


def test_a_card_keeps_the_changed_lines_of_code_the_account_quotes_over_several():
    # (blind208 HA18: "`sqfliteFfiInit(); databaseFactory = databaseFactoryFfi;`" is two lines of the diff; the import
    # of the package the account also names was kept instead, and the card lost the fix)
    from lorebook.render import _change_text

    change = ("test/data/note_repository_test.dart:\n+setUpAll(() {\n+sqfliteFfiInit();\n"
              "+databaseFactory = databaseFactoryFfi;\n+});\ntest/data/note_repository_test.dart:\n"
              "+import 'package:sqflite_common_ffi/sqflite_ffi.dart';")
    quoted = ("sqflite_common_ffi", "sqfliteFfiInit(); databaseFactory = databaseFactoryFfi;")
    text = _change_text(change, compact=True, limit=100, quoted=quoted)
    assert "+databaseFactory = databaseFactoryFfi;" in text, text


def test_a_card_keeps_the_changed_line_that_holds_code_the_account_quotes():
    from lorebook.render import _change_text

    change = ("gradle.properties:\n+org.gradle.java.installations.paths=/usr/lib/jvm/temurin-17-jdk-amd64\n"
              "+org.gradle.java.home=/usr/lib/jvm/temurin-17-jdk-amd64\nbuild.gradle:\n+java {\n"
              "+languageVersion = JavaLanguageVersion.of(17)\n+}")
    text = _change_text(change, compact=True, limit=120, quoted=("org.gradle.java.home",))
    assert "org.gradle.java.home=" in text
    assert "org.gradle.java.home=" not in _change_text(change, compact=True, limit=120)


def test_of_two_quoted_lines_the_card_keeps_the_one_holding_more_of_the_quote():
    from lorebook.render import _change_text

    change = ("migrations/versions/9c1e_add_last_login.py:\n-Revises: a71d03e5c2b8\n+Revises: b83f6d2e41a9\n"
              "migrations/versions/9c1e_add_last_login.py:\n-down_revision: Union[str, None] = \"a71d03e5c2b8\"\n"
              "+down_revision: Union[str, None] = \"b83f6d2e41a9\"")
    text = _change_text(change, compact=True, limit=100,
                        quoted=("Revises:", 'down_revision: Union[str, None] = "b83f6d2e41a9"'))
    assert '+down_revision: Union[str, None] = "b83f6d2e41a9"' in text and "Revises" not in text


def test_a_changed_invocation_gives_way_to_the_diff_before_its_command_is_spelt_out_again():
    from lorebook.render import _change_text

    change = ("Dockerfile:\n+ARG VERSION=0.0.0\n+ENV SETUPTOOLS_SCM_PRETEND_VERSION=${VERSION}\n"
              "Pass `--build-arg VERSION=$(git describe --tags)`: `docker build --build-arg VERSION=$(git describe "
              "--tags) -t ingest:dev .`.")
    text = _change_text(change, compact=True, limit=140, ran="docker build -t ingest:dev .")
    assert text == ("Dockerfile: +ARG VERSION=0.0.0; +ENV SETUPTOOLS_SCM_PRETEND_VERSION=${VERSION}; "
                    "Pass `--build-arg VERSION=$(git describe --tags)`.")
    assert "-t ingest:dev" in _change_text(change, compact=True, limit=400)  # with room, the command as run
    # (not when the command as run holds more than what changed since the last failure: a variable set before)
    change = ("Set `TESTCONTAINERS_RYUK_DISABLED=true`: `DOCKER_HOST=unix:///run/podman.sock "
              "TESTCONTAINERS_RYUK_DISABLED=true ./mvnw test`.")
    assert "DOCKER_HOST" in _change_text(change, compact=True, limit=60, ran="./mvnw test")
    # (a flag what changed does not name is no part of the change: ``-d`` beside the ``--abort-on-container-exit``
    # taken away)
    change = ("docker-compose.yml:\n+condition: service_healthy\nWithout `--abort-on-container-exit`: `docker compose up "
              "--build -d api`.")
    assert _change_text(change, compact=True, limit=90, ran="docker compose up --build --abort-on-container-exit api") \
        == "docker-compose.yml: +condition: service_healthy; Without `--abort-on-container-exit`."


def test_a_card_shows_one_attempt_and_counts_the_others():
    attempts = [{"quote": f"tried `docker compose -f docker-compose.test.yml run --rm test{n}`: still failed",
                 "source": "an attempt in this session"} for n in range(3)]
    note = dict(SECOND_TRY, evidence=SECOND_TRY["evidence"][:1] + attempts)
    card = full_note(note)
    assert card.count("Did not help:") == 1 and "(and 2 more attempts)" in card
    assert note_for_reading(note).count("Did not help:") == 3  # a person reading the note sees them all


def test_a_card_shows_the_command_as_run_when_the_title_dropped_its_flags():
    note = dict(SECOND_TRY, title="`dotnet build …` fails with OutboxOptions.cs(7,19): error CS8618: Non-nullable… — "
                                  "`public required string ConnectionName { get; init; }`",
                trigger="Running `dotnet build --no-restore -c Release -warnaserror` in this project (it failed with "
                        "/home/dev/src/OutboxOptions.cs(7,19): error CS8618)",
                summary="Made the property required; it is only ever bound from configuration.",
                change="src/OutboxOptions.cs:\n+public required string ConnectionName { get; init; }",
                evidence=SECOND_TRY["evidence"][:1])
    assert "When: `dotnet build --no-restore -c Release -warnaserror` fails" in full_note(note)
    # (a title that keeps every flag, or drops only a one-letter one, says it already)
    for title, trigger in [("`dotnet build -warnaserror` fails with error CS8618", "`dotnet build -warnaserror`"),
                           ("`docker build ingest:dev .` fails with ERROR", "`docker build -t ingest:dev .`")]:
        card = full_note(dict(note, title=title, trigger=f"Running {trigger} in this project (it failed)"))
        assert "When:" not in card


def test_a_programs_own_error_line_names_the_error():
    from lorebook.signatures import error_line

    text = ("[backup] dumping billing\npg_dump: error: aborting because of server version mismatch\n"
            "[backup] pg_dump failed with status 1")
    assert error_line(text) == "pg_dump: error: aborting because of server version mismatch"


def test_the_command_as_run_is_not_shown_twice_nor_for_a_flag_that_only_says_how_much_it_prints():
    note = dict(SECOND_TRY, title="`mvn test …` fails with No tests matching pattern — use `mvn verify` instead",
                trigger="Running `mvn -q test -Dtest=OrderRepositoryIT` in this project (it failed)",
                change="Run `mvn verify -Dit.test=OrderRepositoryIT` (this project's way to do it), not "
                       "`mvn -q test -Dtest=OrderRepositoryIT`.", evidence=SECOND_TRY["evidence"][:1])
    assert "When:" not in full_note(note)
    note = dict(note, title="`docker compose logs` fails with ECONNREFUSED", change="Changed `.env`.",
                trigger="Running `docker compose logs api --tail 12` in this project (it failed)")
    assert "When:" not in full_note(note)


def test_cargos_count_of_the_errors_above_is_no_error_of_its_own():
    from lorebook.signatures import error_line

    text = ("error: set `DATABASE_URL` to use query macros online, or run `cargo sqlx prepare` to update the query "
            "cache\n  --> src/routes/invoices.rs:12:5\nerror: could not compile `billing-api` (bin \"billing-api\") "
            "due to 6 previous errors")
    assert error_line(text).startswith("error: set `DATABASE_URL`")


def test_a_command_run_from_a_directory_is_the_one_the_title_names():
    note = dict(SECOND_TRY, title="`cargo tauri build` fails with error: failed to run custom build… — add `x`",
                trigger="Running `cd src-tauri && cargo tauri build 2>&1 | tail -12` in this project (it failed with "
                        "error: failed to run custom build command for `quillnote v0.3.1`)",
                change="src-tauri/Cargo.toml:\n+tauri-plugin-shell = \"2.0.1\"", evidence=[
                    {"quote": "error: failed to run custom build command for `quillnote v0.3.1`", "source": "o 1",
                     "observation_id": 1}])
    note["summary"] = ("The new capability grants `shell:allow-open`, but the shell plugin wasn't a dependency, so "
                       "Tauri's ACL resolution in the build script couldn't find that permission. " * 2)
    card = full_note(note)
    # (a full card gives up first what the title says already; the plumbing after the command is no flag of it)
    assert "When:" not in card and "+tauri-plugin-shell" in card and estimate_tokens(card) <= 150


def test_a_card_drops_asides_without_code_first_and_then_the_last_aside_first():
    from lorebook.render import _whole_sentences

    text = ("A bare `rebar3 ct` never loads that file (nobody noticed for months); the Makefile target does "
            "(`rebar3 as test ct --sys_config config/test.config`), and that is what CI calls. Run the suites with "
            "`make ct` (add `CT_OPTS=--suite=test/limiter_SUITE` for a single one): all pass.")
    cut = _whole_sentences(text, 230)
    assert "--sys_config config/test.config" in cut and "months" not in cut and "CT_OPTS" not in cut



def test_an_aside_that_is_an_attempts_verdict_is_kept():
    from lorebook.render import _whole_sentences

    # (its "(ruled out)" is what says the bound did not help: without it the line reads as the fix)
    text = ("Compiler: your default `ghc` is 9.8.2 (base 4.19.1); CI's matrix pins GHC 9.4.8 (base 4.17), which ghcup "
            "already has installed here. Loosening `base` (ruled out): bumping the bound to `<4.20` only moved the "
            "conflict — streamly 0.10 also caps base below 4.19.")
    cut = _whole_sentences(text, 200)
    assert "`base` (ruled out): bumping the bound to `<4.20`" in cut and "(base 4.19.1)" not in cut

def test_a_ruby_block_opened_or_closed_is_scaffolding():
    from lorebook.record import scaffolding

    assert scaffolding("ActiveSupport::Inflector.inflections(:en) do |inflect|") and scaffolding("  end")
    # (and a docstring in words, as a comment is: blind962 AKA15's fixture had shown its docstring, not its call)
    assert scaffolding('+    """PyRTL builds into one global working block; give every test an empty one."""')
    assert not scaffolding("+    pyrtl.reset_working_block()")
    assert scaffolding("defmodule Shop.Repo do") and not scaffolding('  inflect.acronym "PDF"')
    assert not scaffolding("  on_mount: [{LarderWeb.UserAuth, :ensure_authenticated}] do")  # (what it passes)
    assert scaffolding("import { StrictMode } from 'react';") and not scaffolding("import('./bootstrap');")
    # (a test's setup, blind68 BQ15: the ``Sandbox.allow(…)`` inside ``setup do`` is the change)
    assert scaffolding("  setup do") and scaffolding("before do") and not scaffolding("  Sandbox.allow(Repo, self())")


def test_a_card_drops_an_import_before_the_block_opener_that_changed():
    from lorebook.render import _change_text

    change = ("src/main/scala/app/JsonFormats.scala:\n"
              "+object JsonFormats extends SprayJsonSupport with DefaultJsonProtocol {\n"
              "+import akka.http.scaladsl.marshallers.sprayjson.SprayJsonSupport")
    assert _change_text(change, compact=True, limit=110) == \
        "src/…/app/JsonFormats.scala: +object JsonFormats extends SprayJsonSupport with DefaultJsonProtocol {"


def test_a_card_keeps_an_import_that_takes_a_name_from_elsewhere():
    from lorebook.render import _change_text

    change = ("mailer/config.py:\n-from pydantic import BaseSettings, Field\n+from pydantic import Field\n"
              "+from pydantic_settings import BaseSettings, SettingsConfigDict\n"
              "+model_config = SettingsConfigDict(env_prefix=\"MAILER_\")")
    assert "+from pydantic_settings import BaseSettings" in _change_text(change, compact=True, limit=120)


def test_a_fix_sentence_too_long_for_the_card_keeps_its_first_clause():
    # (blind114 DK24: the card showed the cause alone, "Prefect 3 removed `Deployment.build_from_flow`.")
    from lorebook.render import _whole_sentences

    text = ("Prefect 3 removed `Deployment.build_from_flow`. deploy.py now uses `flow.from_source(...).deploy(...)`, "
            "pointing at the `k8s-etl` work pool with the prebuilt image and `build=False`, keeping the hourly cron.")
    assert _whole_sentences(text, 110) == ("Prefect 3 removed `Deployment.build_from_flow`. deploy.py now uses "
                                           "`flow.from_source(...).deploy(...)`, …")
    # (a clause without code says nothing a reader can act on: the cause stays alone)
    assert _whole_sentences("Prefect 3 removed it. The deploy script now points elsewhere, keeping the cron hourly "
                            "and the image prebuilt for the workers.", 40) == "Prefect 3 removed it."


def test_a_method_call_opened_on_its_own_line_is_the_change_not_scaffolding():
    from lorebook.record import scaffolding

    assert not scaffolding("+    flow.from_source(")  # (blind114 DK24)
    assert scaffolding("+(preprocess") and scaffolding("+setup(")


def test_a_compacted_command_keeps_a_quoted_argument_whole():
    # (jq's ``-e`` is not an environment: its filter stays, and never as half a filter and a stray quote)
    title = lesson_title("`curl -s localhost:8083/connectors/inventory-source/status | jq -e "
                         "'.tasks[0].state == \"RUNNING\"'` fails with false",
                         'add `"plugin.name": "pgoutput"` to connectors/inventory-source.json')
    assert title == ("`curl status | jq '.tasks[0].state == \"RUNNING\"'` fails with false — "
                     'add `"plugin.name": "pgoutput"` to connectors/inventory-source.json'), title


def test_a_compacted_command_keeps_gos_every_package_pattern():
    title = lesson_title("`go test -v ./...` fails with pattern ./...: directory prefix . does not "
                         "contain modules listed in go.work or their selected dependencies",
                         "pass `$(go list -f '{{.Dir}}/...' -m)`")
    assert title.startswith("`go test ./...` fails with pattern ./...: directory prefix"), title


def test_a_class_the_cut_would_drop_loses_its_package_instead():
    from lorebook.text import one_line

    # (blind143 EN04: ``…"org.apache.maven.plugins.shade.r…`` had cut the class the lesson is about)
    line = '<transformer implementation="org.apache.maven.plugins.shade.resource.ServicesResourceTransformer"/>'
    assert one_line(line, 70) == '<transformer implementation="…ServicesResourceTransformer"/>'
    assert one_line(line, 200) == line  # (what fits stays whole)
    assert one_line("Caused by: org.apache.flink.table.api.ValidationException: x", 40) == \
        "Caused by: …ValidationException: x"


def test_cargos_failed_build_script_is_a_wrapper_around_the_reason_under_it():
    # (blind166 FK23: the title said "error: failed to run custom build command for…", not the missing sidecar)
    from lorebook.signatures import error_line

    cargo = ("   Compiling viewer v0.3.0 (/home/dev/viewer/src-tauri)\nerror: failed to run custom build command for "
             "`viewer v0.3.0 (/home/dev/viewer/src-tauri)`\n\nCaused by:\n  process didn't exit successfully: "
             "`/home/dev/viewer/src-tauri/target/debug/build/viewer-1a2b/build-script-build` (exit status: 1)\n"
             "  --- stdout\n  cargo:rerun-if-changed=tauri.conf.json\n  resource path `bin/pdfium-aarch64-apple-darwin`"
             " doesn't exist\n     Error failed to build app: failed to build app")
    assert error_line(cargo) == "resource path `bin/pdfium-aarch64-apple-darwin` doesn't exist"
    from lorebook.commands import _asks_version

    assert _asks_version("rustc -vV") and _asks_version("cargo -vV")  # (``rustc -vV | grep host`` is a look, no step)


def test_a_block_opening_line_changed_within_is_the_change_and_a_name_extended_is_said_whole():
    # (blind169 FN12: ``Column(modifier = GlanceModifier.fillMaxSize()…) {`` gave way to the imports, and the title
    # said "add `Glance`")
    from lorebook.edits import _short_diff
    from lorebook.render import _change_text, _words

    change = ("app/src/main/java/com/acme/repo/OrdersRepo.kt:\n-import org.jetbrains.exposed.sql.Database\n"
              "+import org.jetbrains.exposed.r2dbc.R2dbcDatabase\n+import org.jetbrains.exposed.r2dbc.transactions."
              "suspendTransaction\n-class OrdersRepo(private val db: Database) {\n"
              "+class OrdersRepo(private val db: R2dbcDatabase) {")
    telling = _words("Type mismatch: inferred type is Database but R2dbcDatabase was expected")
    shown = _change_text(change, compact=True, limit=150, telling=telling)
    assert "+class OrdersRepo(private val db: R2dbcDatabase) {" in shown, shown
    hunk = {"old": "class OrdersRepo(private val db: Database) {", "new": "class OrdersRepo(private val db: "
                                                                             "R2dbcDatabase) {"}
    assert _short_diff(hunk) == "`Database` → `R2dbcDatabase`"


def test_a_line_the_title_shows_gives_way_first_on_a_card():
    # (blind178 FW12: the title's "add `ViewCompat.setOnApplyWindowInsetsListener(binding.root) { v,…`" is shown; the
    # room goes to the ``WindowInsetsCompat.Type.systemBars()`` line after it)
    from lorebook.render import _change_text

    change = ("app/src/main/java/com/acme/shop/checkout/CheckoutActivity.kt:\n"
              "+ViewCompat.setOnApplyWindowInsetsListener(binding.root) { v, insets ->\n"
              "+val bars = insets.getInsets(WindowInsetsCompat.Type.systemBars())\n"
              "+v.updatePadding(top = bars.top, bottom = bars.bottom)\n+insets\n+}")
    titled = "ViewCompat.setOnApplyWindowInsetsListener(binding.root) { v,…"
    shown = _change_text(change, compact=True, limit=120, titled=titled)
    assert "WindowInsetsCompat.Type.systemBars()" in shown and "setOnApplyWindowInsetsListener" not in shown
    # (a title that names another line leaves the first where it was)
    assert "setOnApplyWindowInsetsListener" in _change_text(change, compact=True, limit=120, titled="insets")


def test_a_file_whose_change_the_title_shows_gives_way_to_the_other_files_on_a_card():
    # (blind210 HC12: "`headers` → `headers, next: { tags: ["invoices"] }` in lib/api.ts" titled; the card spelt that
    # line out again and cut the ``revalidateTag("invoices")`` of actions.ts)
    from lorebook.render import note_lines

    note = {"id": 1, "kind": "fix", "title": "`npx playwright …` fails with Error: Timed out 5000ms waiting for… — "
                                             "`headers` → `headers, next: { tags: [\"invoices\"] }` in lib/api.ts",
            "summary": "Next 14 caches fetch results; the list fetch is now tagged.",
            "change": "lib/api.ts:\n-const res = await fetch(`${API_URL}/invoices`, { headers });\n"
                      "+const res = await fetch(`${API_URL}/invoices`, { headers, next: { tags: [\"invoices\"] } });\n"
                      "app/invoices/actions.ts:\n+import { revalidateTag } from \"next/cache\";\n"
                      "+revalidateTag(\"invoices\");\n+redirect(`/invoices?created=${encodeURIComponent(parsed.data.number)}`);"
                      "\nRun `rm -rf .next/cache/fetch-cache && npm run build` before "
                      "`npx playwright test e2e/invoices.spec.ts --project=chromium`."}
    change = dict(note_lines(note))["Change"]
    assert 'revalidateTag("invoices");' in change and "lib/api.ts" not in change, change
    # (not a short line, which frees little room and says the line whole: blind205 GX22's ``+import
    # Qt5Compat.GraphicalEffects`` beside the title's "→ `Qt5Compat.GraphicalEffects`")
    from lorebook.render import _drop_titled_file

    parts = {"qml/Banner.qml:": ["+import Qt5Compat.GraphicalEffects"], "CMakeLists.txt:": ["+Core5Compat"]}
    assert not _drop_titled_file(parts, "Qt5Compat.GraphicalEffects") and len(parts) == 2
    # (nor a line the card's title cuts: blind192 GK08's "add `ioDispatcher = StandardTestDispatcher(testScheduler…`")
    long_title = dict(note, title="`gradlew :sync:test …` fails with UncompletedCoroutinesError: After waiting for "
                                  "10s… — add `ioDispatcher = StandardTestDispatcher(testScheduler)`",
                      change="sync/src/test/PollerTest.kt:\n+val poller = Poller(fakeApi, ioDispatcher = "
                             "StandardTestDispatcher(testScheduler))\nsync/src/main/Poller.kt:\n+private val ioDispatcher"
                             ": CoroutineDispatcher = Dispatchers.IO,\n+val snap = withContext(ioDispatcher) {\n"
                             "Run `./gradlew :sync:compileKotlin --console=plain` before `./gradlew :sync:test --tests "
                             "com.acme.sync.PollerTest`.")
    assert "StandardTestDispatcher(testScheduler))" in dict(note_lines(long_title))["Change"]


def test_a_line_holding_code_the_account_quotes_is_no_scaffolding():
    # (blind176 FU24: "Switched the AuthorizationPolicy from `selector` to `targetRefs`")
    from lorebook.render import _change_text

    change = ("mesh/payments/authz-admin.yaml:\n-selector:\n-matchLabels:\n-app: payments-api\n+targetRefs:\n"
              "+- kind: Service\n+group: \"\"\n+name: payments-api\n"
              "Run `kubectl apply -f mesh/payments/authz-admin.yaml` before `./mesh/tests/check-admin-blocked.sh`.")
    assert "+targetRefs:" in _change_text(change, compact=True, limit=110, quoted=("targetRefs",))
    assert "+targetRefs:" not in _change_text(change, compact=True, limit=110)


def test_a_file_the_account_names_keeps_its_changed_line_on_the_card():
    # (blind175 FT24: "the uploader couldn't read GoogleService-Info.plist inside the built app"; the check is cut
    # with "…" and is still the failing command; ``set -o pipefail &&`` is no program of its own)
    lines = ['"${DWARF_DSYM_FOLDER_PATH}/${DWARF_DSYM_FILE_NAME}",',
             '"${DWARF_DSYM_FOLDER_PATH}/${DWARF_DSYM_FILE_NAME}/Contents/Resources/DWARF/${PRODUCT_NAME}",',
             '"${DWARF_DSYM_FOLDER_PATH}/${DWARF_DSYM_FILE_NAME}/Contents/Info.plist",',
             '"$(TARGET_BUILD_DIR)/$(UNLOCALIZED_RESOURCES_FOLDER_PATH)/GoogleService-Info.plist",',
             '"$(TARGET_BUILD_DIR)/$(EXECUTABLE_PATH)",']
    run = ("set -o pipefail && xcodebuild -workspace Pantry.xcworkspace -scheme Pantry -configuration Release "
           "-destination 'generic/platform=iOS' -archivePath build/Pantry.xcarchive archive")
    error = "error: Could not get GOOGLE_APP_ID in Google Services file from build environment"
    note = dict(SECOND_TRY, title=f"`xcodebuild -workspace …` fails with {error[:40]}… — add `{lines[0]}`",
                trigger=f"Running `{run}` in this project (it failed with {error})",
                summary=("With sandboxing, a run script may only read files it declares as inputs, and the Crashlytics "
                         "phase declared none — so the uploader couldn't read GoogleService-Info.plist inside the "
                         "built app (that's the GOOGLE_APP_ID error). Added the input files Firebase documents for "
                         "sandboxed builds to the \"Upload dSYMs to Crashlytics\" phase."),
                change="Pantry.xcodeproj/project.pbxproj:\n" + "\n".join("+" + line for line in lines),
                evidence=[{"quote": error, "source": "o 1", "observation_id": 1}],
                validation={"passed": [f"`{run[:100]}…` passed after the change (observation 6)"],
                            "not_performed": []})
    card = full_note(note)
    assert "GoogleService-Info.plist" in card.split("Change:")[1].split("\n")[0]
    assert "Checked: the failing command passed after the change" in card and "When:" not in card
    assert estimate_tokens(card) <= 150


def test_a_bare_value_replaced_in_a_long_line_is_said_with_its_key():
    # (blind167 FL20: ``3}"`` → ``1}"`` told nothing)
    from lorebook.edits import _short_diff

    line = "        \"{'class': 'NetworkTopologyStrategy', 'replication_factor': %s}\""
    assert _short_diff({"old": line % 3, "new": line % 1}) == \
        "`'replication_factor': 3` → `'replication_factor': 1`"
    line = "server: {host: \"0.0.0.0\", port: %s, workers: 4, timeout: 30, keepalive: true}"
    assert _short_diff({"old": line % 8080, "new": line % 9090}) == "`port: 8080` → `port: 9090`"


def test_a_line_whose_quoted_code_the_title_cuts_is_not_shown_by_the_title():
    # (blind181 FZ24: the title's `@RenameColumn(tableName = "notes", fromColumnName = "body", t…` leaves out the
    # ``toColumnName = "content"`` the account quotes: the line stays before the spec class beside it)
    from lorebook.render import _change_text

    rename = '@RenameColumn(tableName = "notes", fromColumnName = "body", toColumnName = "content")'
    change = ("data/src/main/java/com/acme/notes/data/AppDatabase.kt:\n"
              "+AutoMigration(from = 3, to = 4, spec = AppDatabase.RenameBodyToContent::class),\n"
              f"+{rename}\n+class RenameBodyToContent : AutoMigrationSpec")
    titled = '@RenameColumn(tableName = "notes", fromColumnName = "body", t…'
    quoted = (rename, "RenameBodyToContent", "AutoMigration")
    assert rename in _change_text(change, compact=True, limit=150, quoted=quoted, titled=titled)
    # (unquoted, the title's line gives way first)
    assert rename not in _change_text(change, compact=True, limit=150, titled=titled)


def test_a_setting_quoted_by_its_path_keeps_its_line_on_the_card():
    # (blind187 GF06: "lists both … in `resolver.nodeModulesPaths`" and the card dropped ``nodeModulesPaths: [``)
    note = dict(SECOND_TRY, title="`npx react-native bundle …` fails with Error: Unable to resolve module @acme/ui… — "
                                  "add `watchFolders: [workspaceRoot],` in apps/mobile/metro.config.js",
                summary="Metro only watched apps/mobile. `apps/mobile/metro.config.js` now sets `watchFolders: "
                        "[workspaceRoot]` and lists both node_modules in `resolver.nodeModulesPaths`.",
                change="apps/mobile/metro.config.js:\n+const workspaceRoot = path.resolve(projectRoot, '../..');\n"
                       "+watchFolders: [workspaceRoot],\n+nodeModulesPaths: [\n"
                       "+path.resolve(projectRoot, 'node_modules'),\n+path.resolve(workspaceRoot, 'node_modules'),\n+],",
                evidence=[{"quote": "Error: Unable to resolve module @acme/ui from apps/mobile/src/App.tsx",
                           "source": "o 1", "observation_id": 1}])
    assert "nodeModulesPaths" in full_note(note).split("Change:")[1]


def test_a_field_quoted_as_the_query_uses_it_keeps_its_line_on_the_card():
    # (blind227 HT17: "filters on `assigneeId ==` and `status ==`" named the composite index's first field, and the
    # card kept ``updatedAt``, the one field the failed single-field override had also named)
    note = dict(SECOND_TRY, title="`npm run …` fails with Tests: 1 failed, 3 passed, 4 total — add an index",
                summary="`listMyOpenTickets` filters on `assigneeId ==` and `status ==` and orders by `updatedAt "
                        "desc`, which needs a composite index; the single-field override on `updatedAt` did not help.",
                change='firestore.indexes.json:\n+"collectionGroup": "tickets",\n+"queryScope": "COLLECTION",\n'
                       '+{ "fieldPath": "assigneeId", "order": "ASCENDING" },\n'
                       '+{ "fieldPath": "status", "order": "ASCENDING" },\n'
                       '+{ "fieldPath": "updatedAt", "order": "DESCENDING" }',
                evidence=[{"quote": "9 FAILED_PRECONDITION: The query requires an index.", "source": "o 1",
                           "observation_id": 1}])
    assert '"assigneeId", "order": "ASCENDING"' in full_note(note).split("Change:")[1]


def test_a_check_run_after_a_build_step_is_the_one_the_title_names():
    # (blind187 GF08: "When: Running `npm run build && npx playwrigh…" was a stub the title says already)
    note = dict(SECOND_TRY, title="`npx playwright …` fails with Error: page.evaluate: TypeError: Cannot read… — add `x`",
                trigger="Running `npm run build && npx playwright test e2e/settings.spec.ts` in this project (it failed "
                        "with Error: page.evaluate: TypeError: Cannot read properties of undefined)",
                change="src/preload/index.ts:\n+contextBridge.exposeInMainWorld('api', {")
    note["summary"] = ("The window runs with `contextIsolation: true`, so the preload lives in its own JavaScript world "
                       "and assigning `window.api` there never reaches the page. " * 2)
    assert "When:" not in full_note(note)


def test_a_quoted_span_the_change_added_keeps_its_line_before_one_a_removed_line_held():
    # (blind199 GR16: "suspended on `downloader.fetch`" tells the cause, in a line the change removed too; the card
    # kept ``let task = Task { try await downloader.fetch(url) }`` and lost the ``inFlight[url] = task`` of the fix)
    from lorebook.render import _change_text

    change = ("Sources/ImageKit/ImageLoader.swift:\n-let image = try await downloader.fetch(url)\n"
              "+if let running = inFlight[url] { return try await running.value }\n"
              "+let task = Task { try await downloader.fetch(url) }\n+inFlight[url] = task\n"
              "+defer { inFlight[url] = nil }\n+let image = try await task.value")
    quoted = ("downloader.fetch", "ImageLoader", "Task", "inFlight[url]")
    titled = "if let running = inFlight[url] { return try await running.val…"
    text = _change_text(change, compact=True, limit=70, quoted=quoted, titled=titled)
    assert "inFlight[url] = task" in text, text


def test_a_long_added_line_quoted_within_a_longer_span_is_said_by_itself():
    # (blind247 IN09: "`@Binds @Singleton abstract fun bindNotesRepository(impl: NotesRepositoryImpl): NotesRepository`"
    # quotes the added line within a longer span; ``max()`` of the spans it holds was empty and the Stop hook's
    # writeback raised, storing nothing)
    from lorebook.edits import _short_diff

    line = "    abstract fun bindNotesRepository(impl: NotesRepositoryImpl): NotesRepositoryContractForTheApp"
    told = (f"@Binds @Singleton {line.strip()}",)
    old = "    @Binds\n    abstract fun bindSettingsStore(impl: DataStoreSettingsStore): SettingsStore\n}"
    said = _short_diff({"old": old, "new": f"{old[:-1]}\n    @Binds\n    @Singleton\n{line}\n}}"}, told=told)
    assert said.startswith("add `abstract fun bindNotesRepository("), said


def test_the_code_a_cut_summary_ends_in_keeps_its_line_on_the_card():
    # (blind246 IM19: the summary was cut at "… and `--dns01-recu…`"; the card kept the line the title shows,
    # ``--dns01-recursive-nameservers-only``, and lost the resolvers the account went on to quote)
    note = dict(SECOND_TRY, title="`kubectl wait api-tls` fails with error: timed out waiting for the condition on… — "
                                  "add `- --dns01-recursive-nameservers-only`",
                summary="The TXT record was published fine, but cert-manager's self-check asks the cluster DNS, and "
                        "in-cluster `acme.io` resolves through the private Route53 zone, which never gets the "
                        "`_acme-challenge` record, so the propagation check waited forever. The fix is in "
                        "`platform/cert-manager/values.yaml`: run the controller with "
                        "`--dns01-recursive-nameservers-only` and `--dns01-recu…",
                change="platform/cert-manager/values.yaml:\n+extraArgs:\n+- --dns01-recursive-nameservers-only\n"
                       "+- --dns01-recursive-nameservers=1.1.1.1:53,8.8.8.8:53\nRun `kubectl apply -f "
                       "platform/cert-manager/clusterissuer.yaml && helm upgrade cert-manager jetstack/cert-manager "
                       "-n cert-manager --version v1.16.1 -f platform/cert-manager/values.yaml` before `kubectl -n "
                       "ingress wait --for=condition=Ready certificate/api-tls --timeout=300s`.",
                evidence=[{"quote": "error: timed out waiting for the condition on certificates/api-tls",
                           "source": "o 1", "observation_id": 1}])
    assert "1.1.1.1:53" in full_note(note).split("Change:")[1]


def test_a_title_cut_with_three_dots_once_neutralised_still_shows_its_line():
    # (blind250 IQ21: the card's title is neutralised, its "…" read "...", and the one line of libs.versions.toml the
    # title shows took the room of the ``alias(libs.plugins.kotlin.compose)`` the fix applies)
    from lorebook.render import _titled

    line = '+kotlin-compose = { id = "org.jetbrains.kotlin.plugin.compose", version.ref = "kotlin" }'
    assert _titled(line, 'kotlin-compose = { id = "org.jetbrains.kotlin.plugin.compose"...')
    assert _titled(line, 'kotlin-compose = { id = "org.jetbrains.kotlin.plugin.compose"…')
    assert not _titled(line, 'kotlin-compose = { id = "org.jetbrains.kotlin.plugin.serialization"...')


def test_a_file_whose_line_the_title_cut_early_keeps_its_line_on_the_card():
    # (blind187 GF22, found by the replay: the title's "module = "com.jakewharton.espresso…" cut the coordinate that
    # names the library; once a title cut with "..." counted as showing its line, the card dropped the line whole)
    from lorebook.render import _drop_titled_file

    line = ('+okhttp-idling-resource = { module = "com.jakewharton.espresso:okhttp3-idling-resource", '
            'version = "1.0.0" }')
    parts = {"gradle/libs.versions.toml:": [line], "app/build.gradle.kts:": ["+androidTestImplementation(libs.x)"]}
    assert not _drop_titled_file(parts, 'okhttp-idling-resource = { module = "com.jakewharton.espresso...')
    # (a title that shows two thirds of it and more says it: IQ21's plugin line gives way)
    line = '+kotlin-compose = { id = "org.jetbrains.kotlin.plugin.compose", version.ref = "kotlin" }'
    parts = {"gradle/libs.versions.toml:": [line], "build.gradle.kts:": ["+alias(libs.plugins.kotlin.compose)"]}
    assert _drop_titled_file(parts, 'kotlin-compose = { id = "org.jetbrains.kotlin.plugin.compose"...')
    # (nor does code the account quotes keep a line the title shows uncut: blind235 IB02's ``AutoMigration(…, spec =
    # Migrations.RenameBodyToContent::class)`` gives way to the ``@RenameColumn`` the spec adds)
    parts = {"data/AppDatabase.kt:": ["+AutoMigration(from = 3, to = 4, spec = Migrations.RenameBodyToContent::class)"],
             "data/Migrations.kt:": ['+@RenameColumn(tableName = "notes", fromColumnName = "body")']}
    assert _drop_titled_file(parts, "spec = Migrations.RenameBodyToContent::class") and len(parts) == 1


def test_a_compilers_error_line_is_shown_from_the_file_it_names_not_its_directories():
    # (blind247 IN09: "Error: /home/pat/src/notes/app/build/generated/hil… (observation 64)": the card's room for the
    # error went to the directories before the message)
    from lorebook.render import note_lines

    log = ("Exit code 1\n> Task :app:hiltJavaCompileDebug FAILED\n/home/pat/src/notes/app/build/generated/hilt/"
           "component_sources/debug/com/acme/notes/NotesApp_HiltComponents.java:142: error: [Dagger/MissingBinding] "
           "com.acme.notes.data.NotesRepository cannot be provided without an @Provides-annotated method.\n"
           "BUILD FAILED in 38s")
    note = dict(SECOND_TRY, title="`./gradlew :app:assembleDebug` fails with Execution failed for task — add a binding",
                evidence=[{"quote": log, "source": "observation 64", "observation_id": 64}])
    error = dict(note_lines(note))["Error"]
    assert error.startswith("NotesApp_HiltComponents.java:142: error: [Dagger/MissingBinding]"), error
    assert "NotesRepository" in error and "/home/pat" not in error
    # (a path the message names after its start is the message's: "no such file /etc/ssl/certs/corp.pem")
    note["evidence"] = [{"quote": "curl: (77) error setting certificate file: /etc/ssl/certs/corp.pem",
                         "observation_id": 3}]
    assert "/etc/ssl/certs/corp.pem" in dict(note_lines(note))["Error"]


def test_a_php_exception_is_the_error_line_and_titled_without_its_namespace():
    # (blind251 IR23: PHPUnit's banner, "PHPUnit 11.4.3 by Sebastian Bergmann and…", titled the lesson: the
    # namespaced exception under it was no error line)
    from lorebook import signatures

    log = ("Exit code 2\nPHPUnit 11.4.3 by Sebastian Bergmann and contributors.\n\nRuntime:       PHP 8.3.13\n\n"
           "E.E.                                                                4 / 4 (100%)\n\nThere were 2 errors:\n\n"
           "1) App\\Tests\\Billing\\SendInvoiceHandlerTest::testInvoiceIsSentWhenOrderIsPaid\n"
           "Symfony\\Component\\Messenger\\Exception\\NoHandlerForMessageException: No handler for message "
           "\"App\\Billing\\Message\\SendInvoice\".\n\n/home/dev/ledgerline/vendor/symfony/messenger/Middleware/"
           "HandleMessageMiddleware.php:117\n\nERRORS!\nTests: 4, Assertions: 3, Errors: 2.")
    assert signatures.error_line(log).startswith("Symfony\\Component\\Messenger\\Exception\\NoHandlerForMessage")
    title = lesson_title(f"`php bin/phpunit` fails with {signatures.error_line(log)}", "import the Billing message")
    assert "fails with NoHandlerForMessageException: No handler" in title, title


def test_a_card_over_its_budget_drops_the_trigger_and_the_error_whole_before_cutting_lines_to_stubs():
    # (blind242 II24: "When: Running `docker run --rm -v "$PWD/envoy:/…" and "Error: [1][critical][main]
    # [source/server/config…" told nothing, and the change was cut before ``…http.router.v3.Router``)
    note = dict(SECOND_TRY, title="`--mode validate -c envoy.yaml` in `envoyproxy/envoy:v1.31.2` fails… — add "
                                  "`\"@type\": type.googleapis.com/envoy.extensions.filters.http.ro…`",
                summary="The router entry in the HTTP filter chain had no `typed_config`, and current Envoy resolves "
                        "HTTP filters by the type of their config, not by their name, so it rejected the router. "
                        "Added the typed config with the router's `@type`; validation passes.",
                trigger="Running `docker run --rm -v \"$PWD/envoy:/etc/envoy\" envoyproxy/envoy:v1.31.2 --mode "
                        "validate -c /etc/envoy/envoy.yaml` in this project (it failed with [critical] error)",
                change="envoy/envoy.yaml:\n@@ -40,6 +40,8 @@\n-          - name: envoy.filters.http.router\n"
                       "+          - name: envoy.filters.http.router\n+            typed_config:\n"
                       "+              \"@type\": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router",
                evidence=[{"quote": "[2024-11-02 10:14:55.123][1][critical][main] [source/server/config_validation/"
                                    "server.cc:67] error initializing configuration '/etc/envoy/envoy.yaml': Didn't "
                                    "find a registered implementation for 'envoy.filters.http.router' with type URL",
                           "observation_id": 188}],
                validation={"passed": ["`docker run --rm -v \"$PWD/envoy:/etc/envoy\" envoyproxy/envoy:v1.31.2 "
                                       "--mode validate -c /etc/envoy/envoy.yaml` passed after the change (observation "
                                       "190)"], "not_performed": []})
    card = full_note(note)
    assert estimate_tokens(card) <= 150, card
    assert "envoy.extensions.filters.http.router.v3.Router" in card, card
    assert "When:" not in card and "Error:" not in card, card


def test_a_titles_error_cut_to_nothing_is_left_out():
    # (blind259 IZ19: "`gradlew :data:testDebugUnitTest …` fails with… — `db.execSQL(…`" promised an error it left out)
    title = lesson_title("`./gradlew :data:testDebugUnitTest --tests \"com.acme.notes.data.MigrationTest\"` fails with "
                         "java.lang.IllegalStateException: Migration didn't properly handle: notes(NoteEntity).",
                         "`TODO(\"pinned column\")` → `db.execSQL(\"ALTER TABLE notes ADD COLUMN pinned INTEGER NOT "
                         "NULL DEFAULT 0\")` in data/src/main/java/com/acme/notes/data/Migrations.kt")
    assert "fails —" in title and "with…" not in title, title


def test_a_closing_bracket_gives_way_before_the_named_setting_it_closes():
    # (blind285 JZ24: ``+column_to_json_key_mappings = {`` dropped as a line that opens a block while the two ``+}``
    # that close it stayed)
    from lorebook.render import _change_text

    change = ("terraform/firehose_clickstream.tf:\n+case_insensitive = true\n+column_to_json_key_mappings = {\n"
              "+session_id = \"sessionId\"\n+page_url   = \"pageUrl\"\n+event_ts   = \"eventTs\"\n"
              "+user_agent = \"userAgent\"\n+}\n+}")
    text = _change_text(change, compact=True, limit=170)
    assert "+column_to_json_key_mappings = {" in text and "+}" not in text, text


def test_a_check_that_prints_fail_names_its_error_by_that_line():
    # (blind285 JZ24: a smoke script's ``FAIL: session_id is NULL`` lines; the title showed "put_record -> RecordId …")
    from lorebook.chains import _raw_error_line
    text = ("Exit code 1\nput_record -> RecordId 4965123456789\nwaiting 90s for buffer flush...\n"
            "FAIL: session_id is NULL\nFAIL: page_url is NULL")
    assert _raw_error_line({"error_text": text}) == "FAIL: session_id is NULL"


def test_lines_of_brackets_alone_give_way_first_counted_or_not():
    # (blind299 KN07: ``+{ (×2); +} (×2)`` kept before the relation's own lines)
    from lorebook.render import _change_text

    change = ("app/Models/Post.php:\n+{ (×2)\n+} (×2)\n+public function author(): BelongsTo\n"
              "+return $this->belongsTo(User::class, 'user_id');\n+public function comments(): HasMany")
    text = _change_text(change, compact=True, limit=150)
    assert "(×2)" not in text and "belongsTo(User::class, 'user_id')" in text, text


def test_a_line_a_second_file_repeats_is_the_same_line_however_many_times_the_first_added_it():
    # (blind323 LL14: ``#[Groups(['book:read'])]`` twice in Book.php and once in Author.php left no room for the
    # controller's ``context: ['groups' => ['book:read']]``)
    from lorebook.render import _change_text

    change = ("src/Entity/Book.php:\n+#[Groups(['book:read'])] (×2)\nsrc/Entity/Author.php:\n"
              "+#[Groups(['book:read'])]\nsrc/Controller/BookController.php:\n"
              "+return $this->json($book, context: ['groups' => ['book:read']]);")
    text = _change_text(change, compact=True, limit=150)
    assert "src/Entity/Author.php: the same lines" in text, text
    assert "'groups' => ['book:read']" in text, text


def test_a_files_only_changed_line_stays_beside_the_steps_after_it():
    # (blind335 LX04: ``+import alembic_postgresql_enum`` dropped as scaffolding, leaving "migrations/env.py:" bare
    # before the steps that regenerated the revision)
    from lorebook.render import _change_text

    change = ('pyproject.toml:\n+"alembic-postgresql-enum>=1.2",\nRun `uv sync` first.\nmigrations/env.py:\n'
              "+import alembic_postgresql_enum\nRun `rm migrations/versions/9d4be1a0c3f7_add_refunded_status.py && uv "
              'run alembic revision --autogenerate -m "add refunded status"` first.\n'
              "Run `uv run alembic upgrade head` first.")
    text = _change_text(change, compact=True, limit=200)
    assert "+import alembic_postgresql_enum" in text, text


def test_an_xml_files_declaration_and_bare_tags_give_way_before_a_tag_with_settings():
    # (blind346 MI14: ``<?xml …?>`` and ``<network-security-config>`` kept, ``<domain-config
    # cleartextTrafficPermitted="true">`` cut)
    from lorebook.render import _change_text

    change = ('app/src/debug/res/xml/network_security_config.xml:\n+<?xml version="1.0" encoding="utf-8"?>\n'
              '+<network-security-config>\n+<domain-config cleartextTrafficPermitted="true">\n'
              '+<domain includeSubdomains="false">10.0.2.2</domain>\n'
              '+<domain includeSubdomains="false">localhost</domain>\n+</domain-config>\n+</network-security-config>')
    text = _change_text(change, compact=True, limit=200)
    assert 'cleartextTrafficPermitted="true"' in text and "<?xml" not in text, text


def test_a_removed_yaml_list_item_gives_way_to_the_items_that_replaced_it():
    # (blind378 NO24: ``-- OTEL_EXPORTER_OTLP_ENDPOINT=…:4318``, a removed ``- …`` line of a compose file, was read as
    # a line of its own and shown where the added ``+- OTEL_EXPORTER_OTLP_PROTOCOL=grpc`` should have been)
    change = ("docker-compose.yml:\n-- OTEL_EXPORTER_OTLP_ENDPOINT=http://otel-collector:4318\n"
              "+- OTEL_EXPORTER_OTLP_ENDPOINT=http://otel-collector:4317\n+- OTEL_EXPORTER_OTLP_PROTOCOL=grpc")
    card = full_note(dict(SECOND_TRY, change=change))
    changed = next(line for line in card.splitlines() if line.startswith("Change:"))
    assert "4318" not in changed and "+- OTEL_EXPORTER_OTLP_PROTOCOL=grpc" in changed, changed


def test_a_curl_request_is_titled_by_its_method_and_address_not_a_header_cut_at_its_slash():
    # (blind721 AAT24: ``-H 'Content-Type: application/json'`` read "json'", a stray quote and all)
    title = lesson_title("`curl -s -w '\\n%{http_code}\\n' -X POST http://localhost:3000/rpc/monthly_revenue -H "
                         "'Content-Type: application/json' -d '{\"year\": 2024}'` fails with HTTP 404 and a long "
                         "message about the schema cache", "`db-schemas = \"api\"` → `db-schemas = \"api, reporting\"`")
    assert title.startswith("`curl POST monthly_revenue` fails with HTTP 404"), title
