"""Writeback decisions: created / merged / skipped, receipts, revisions, relations, Stop, model refine."""
import json
import os
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner

from hookutil import run_hook
from lorebook import hookimpl
from lorebook.cli import cli
from lorebook.candidates import session_candidates
from lorebook.chains import find_chains
from lorebook.decision import validate_memory, write_memory
from lorebook.refine import refine_with_model
from lorebook.writeback import write_back

PROJECT = "github.com/acme/widget"

LESSON = {
    "title": "pytest fails with ModuleNotFoundError for yaml until PyYAML is in requirements.txt",
    "summary": "The config loader imports yaml at module load, but PyYAML was never declared.",
    "kind": "fix",
    "trigger": "Running `pytest -q` in a fresh virtualenv fails at collection",
    "evidence": [{"quote": "E   ModuleNotFoundError: No module named 'yaml'", "source": "pytest output"}],
    "change": "Added pyyaml==6.0.1 to requirements.txt because app/config.py imports yaml at import time.",
    "validation": {"passed": ["pytest -q: 42 passed"], "not_performed": ["CI run"]},
    "files": ["requirements.txt"],
    "error_signatures": ["ModuleNotFoundError: No module named 'yaml'"],
    "project_key": PROJECT,
}
PARAPHRASE = dict(
    LESSON,
    title="Test collection breaks on `import yaml`: declare the PyYAML dependency",
    summary="The yaml package is not installed in new environments because nothing listed it.",
    trigger="A clean checkout's test run dies while importing app/config.py",
    change="Declared PyYAML in requirements.txt (pinned to 6.0.1) since the YAML config loader needs it.",
    evidence=[{"quote": "ModuleNotFoundError: No module named 'yaml' (CI job 4411)", "source": "CI log"}],
    validation={"passed": ["CI job 4412 green"], "not_performed": []},
)
CONTRADICTION = dict(
    LESSON,
    title="PyYAML does not belong in requirements.txt: the yaml import error came from the wrong virtualenv",
    summary="The ModuleNotFoundError was not a missing dependency: pytest ran from the system interpreter.",
    change="Do not add pyyaml to requirements.txt; it is already in requirements-base.txt. Activate .venv.",
    evidence=[{"quote": "which pytest -> /usr/bin/pytest", "source": "shell"}],
)
UNRELATED = dict(
    LESSON,
    title="Gunicorn workers killed with WORKER TIMEOUT during report export: raise --timeout",
    summary="Synchronous workers are killed after 30 s without a heartbeat.",
    trigger="Exporting a large report through /reports/export in production",
    change="Set --timeout 120 in the gunicorn command (Procfile); exports take 40-90 s.",
    evidence=[{"quote": "[CRITICAL] WORKER TIMEOUT (pid:12)", "source": "gunicorn log"}],
    error_signatures=["[CRITICAL] WORKER TIMEOUT (pid:<n>)"], files=["Procfile"],
)


def write(store, memory, key, **kw):
    kw.setdefault("use_vectors", False)
    return write_memory(store, memory, mode=kw.pop("mode", "manual"), source_agent="test", source_run_key=key, **kw)


def test_create_then_retry_returns_the_same_decision_and_writes_nothing(store):
    first = write(store, LESSON, "run-1")
    assert first["decision"] == "created" and first["index_status"] == "pending"
    again = write(store, dict(LESSON, title="something else entirely, a different title"), "run-1")
    assert again["decision"] == "created" and again["note_id"] == first["note_id"] and again["replayed"]
    assert store.stats()["notes"] == 1 and store.stats()["receipts"] == 1


def test_a_paraphrase_merges_adding_evidence_and_validation_and_keeping_history(store):
    original = write(store, LESSON, "run-1")["note_id"]
    result = write(store, PARAPHRASE, "run-2")
    assert result["decision"] == "merged" and result["merged_into"] == original
    assert "near_duplicate" in result["reason_codes"]
    note = store.get_note(original)
    quotes = [e["quote"] for e in note["evidence"]]
    assert quotes == [LESSON["evidence"][0]["quote"], PARAPHRASE["evidence"][0]["quote"]]
    assert note["validation"]["passed"] == ["pytest -q: 42 passed", "CI job 4412 green"]
    assert note["title"] == LESSON["title"]  # the first wording stays; nothing is overwritten
    (revision,) = store.note_revisions(original)
    assert revision["snapshot"]["evidence"] == LESSON["evidence"]
    assert revision["snapshot"]["_merged"]["title"] == PARAPHRASE["title"]  # the merged text is kept too
    assert store.stats()["notes"] == 1


def test_the_same_lesson_with_nothing_new_is_skipped(store):
    write(store, LESSON, "run-1")
    result = write(store, dict(LESSON), "run-2")
    assert result["decision"] == "skipped" and result["reason_codes"] == ["already_recorded"]


def test_a_contradiction_is_linked_not_merged(store):
    original = write(store, LESSON, "run-1")["note_id"]
    result = write(store, CONTRADICTION, "run-2")
    assert result["decision"] == "created"
    assert {"from_note": result["note_id"], "to_note": original, "kind": "contradicts"}.items() <= \
        store.note_relations(original)[0].items()
    assert store.get_note(original)["evidence"] == LESSON["evidence"]


def test_unrelated_lessons_are_both_created(store):
    write(store, LESSON, "run-1")
    assert write(store, UNRELATED, "run-2")["decision"] == "created"
    assert store.stats()["notes"] == 2


def test_another_projects_note_is_never_merged_into(store):
    write(store, LESSON, "run-1")
    result = write(store, dict(PARAPHRASE, project_key="github.com/acme/other"), "run-2")
    assert result["decision"] == "created"


def test_restating_a_recalled_note_without_new_evidence_is_not_corroboration(store):
    original = write(store, LESSON, "run-1")["note_id"]
    store.ensure_project(PROJECT, "widget")
    store.ensure_session("s2", project_key=PROJECT)
    store.record_recalls("s2", [original], "session_start")
    restated = dict(PARAPHRASE, evidence=LESSON["evidence"], validation=LESSON["validation"])
    result = write(store, restated, "run-2", session_id="s2")
    assert result["decision"] == "skipped" and result["reason_codes"] == ["restates_recalled_note"]
    assert store.note_revisions(original) == []
    # with evidence of its own from that session it merges, as evidence only
    fresh = dict(PARAPHRASE, evidence=[{"quote": "tox -e py311: ERROR: InvocationError for command "
                                                 "/app/.tox/py311/bin/pytest (exited with code 2)", "source": "tox"}])
    result = write(store, fresh, "run-3", session_id="s2")
    assert result["decision"] == "merged" and result["merged_into"] == original
    note = store.get_note(original)
    assert len(note["evidence"]) == 2 and note["summary"] == LESSON["summary"]


@pytest.mark.parametrize("use_vectors", [False, True])
def test_a_paraphrased_quote_of_a_recalled_note_is_not_new_evidence(store, use_vectors):
    """The quote says again, in other words, what the recalled note says: decided by meaning, not by exact match."""
    original = write(store, LESSON, "run-1")["note_id"]
    store.ensure_project(PROJECT, "widget")
    store.ensure_session("s3", project_key=PROJECT)
    store.record_recalls("s3", [original], "user_prompt")
    reworded = dict(PARAPHRASE, evidence=[
        {"quote": "No module named 'yaml' (ModuleNotFoundError) while collecting the tests", "source": "pytest"},
        {"quote": "app/config.py imports yaml at import time, and PyYAML is not declared", "source": "reading"}])
    result = write(store, reworded, "run-2", session_id="s3", use_vectors=use_vectors)
    assert result["decision"] == "skipped" and result["reason_codes"] == ["restates_recalled_note"]
    assert store.get_note(original)["evidence"] == LESSON["evidence"] and store.note_revisions(original) == []
    # the same paraphrase from a session that never saw the note is independent: it merges
    result = write(store, reworded, "run-3", use_vectors=use_vectors)
    assert result["decision"] == "merged" and result["merged_into"] == original


def test_auto_mode_skips_a_weak_lesson_that_manual_mode_stores_with_warnings(store):
    weak = dict(LESSON, evidence=[], validation={})
    auto = write(store, weak, "run-1", mode="auto")
    assert auto["decision"] == "skipped"
    assert set(auto["reason_codes"]) == {"missing_evidence", "missing_validation"}
    manual = write(store, weak, "run-2")
    assert manual["decision"] == "created"
    assert {w["code"] for w in manual["warnings"]} == {"missing_evidence", "missing_validation"}


def test_secrets_are_stored_redacted(store):
    leaky = dict(LESSON, change=LESSON["change"] + " Used token ghp_" + "b" * 36 + " to fetch the wheel.")
    result = write(store, leaky, "run-1")
    note = store.get_note(result["note_id"])
    assert "ghp_bbbb" not in json.dumps(note) and "[REDACTED:" in note["change"]


# --- lifecycle ---------------------------------------------------------------------------------

def _injected_ids(store):
    return [n["id"] for n in store.project_notes(PROJECT)]


def test_supersede_stale_and_forget_are_never_injected(store):
    old = write(store, LESSON, "run-1")["note_id"]
    new = write(store, UNRELATED, "run-2")["note_id"]
    third = write(store, dict(UNRELATED, title="Celery task fails: Object of type Decimal is not JSON "
                                               "serializable", change="Pass str(total) and convert back "
                                                                         "with Decimal() inside the task.",
                              trigger="Calling send_invoice.delay(invoice.total) with a Decimal",
                              summary="The default task serializer is JSON.", error_signatures=[],
                              files=["app/tasks.py"]), "run-3")["note_id"]
    runner = CliRunner()
    assert runner.invoke(cli, ["supersede", str(old), str(new)]).exit_code == 0
    assert store.get_note(old)["status"] == "superseded" and store.get_note(old)["superseded_by"] == new
    assert {"from_note": new, "to_note": old, "kind": "supersedes"}.items() <= store.note_relations(old)[0].items()
    assert runner.invoke(cli, ["stale", str(third), "--reason", "tasks moved to dramatiq"]).exit_code == 0
    assert store.note_revisions(third)[-1]["reason"] == "tasks moved to dramatiq"
    assert _injected_ids(store) == [new]
    assert runner.invoke(cli, ["forget", str(new), "--yes"]).exit_code == 0
    assert _injected_ids(store) == []


def test_forget_erases_fts_revisions_vectors_and_reaches_plugins(store):
    note_id = write(store, LESSON, "run-1")["note_id"]
    write(store, PARAPHRASE, "run-2")  # a revision that holds the old text
    store.ensure_vector_tables()
    collection_id, _ = store.set_vector_collection("lorebook-notes", "lorebook-minilm")
    store.conn.execute("INSERT INTO embeddings (collection_id, id, embedding, content) VALUES (?, ?, ?, ?)",
                  (collection_id, str(note_id), b"\0" * 16, "pyyaml"))
    seen = []

    class Corpora:
        @hookimpl
        def forget_item(self, kind, item_id, store):
            seen.append((kind, item_id))

    from lorebook.plugins import load_plugins

    pm = load_plugins()
    plugin = Corpora()
    pm.register(plugin, name="test-forget")
    try:
        result = CliRunner().invoke(cli, ["forget", str(note_id), "--yes"])
    finally:
        pm.unregister(plugin)
    assert result.exit_code == 0, result.output
    assert seen == [("note", note_id)]
    assert store.conn.execute("SELECT rowid FROM notes_fts WHERE notes_fts MATCH 'pyyaml'").fetchall() == []
    assert store.note_revisions(note_id) == []
    assert store.conn.execute("SELECT count(*) FROM embeddings WHERE id = ?", (str(note_id),)).fetchone()[0] == 0
    note = store.get_note(note_id)
    assert note["status"] == "forgotten" and "yaml" not in json.dumps(note).lower()


def test_cli_write_is_idempotent_with_a_run_key(store, tmp_path):
    path = tmp_path / "lesson.json"
    path.write_text(json.dumps(LESSON))
    runner = CliRunner()
    first = json.loads(runner.invoke(cli, ["write", "--file", str(path), "--run-key", "k1", "--json"]).output)
    second = runner.invoke(cli, ["write", "--file", str(path), "--run-key", "k1"])
    assert first["decision"] == "created"
    assert f"Created note #{first['note_id']}" in second.output and "already written" in second.output
    assert store.stats()["notes"] == 1


# --- candidates from sessions, through the real dispatcher -----------------------------------------

def _base(sid, cwd):
    return {"session_id": sid, "cwd": str(cwd), "transcript_path": f"/tmp/{sid}.jsonl"}


def _bash(base, n, command, error=None, out="ok"):
    if error:
        return run_hook("post-tool-use-failure", dict(base, tool_name="Bash", tool_use_id=f"{base['session_id']}-{n}",
                                                      tool_input={"command": command}, error=error))
    return run_hook("post-tool-use", dict(base, tool_name="Bash", tool_use_id=f"{base['session_id']}-{n}",
                                          tool_input={"command": command},
                                          tool_response={"stdout": out, "stderr": ""}))


def _edit(base, n, path, old="a", new="b"):
    return run_hook("post-tool-use", dict(base, tool_name="Edit", tool_use_id=f"{base['session_id']}-{n}",
                                          tool_input={"file_path": path, "old_string": old, "new_string": new},
                                          tool_response={"filePath": path}))


def _fix_session(cwd, sid="s1"):
    base = _base(sid, cwd)
    run_hook("session-start", dict(base, source="startup"))
    _bash(base, 1, "pytest -q 2>&1 | tail -5", error="Exit code 1\nE   ModuleNotFoundError: No module named 'yaml'")
    _edit(base, 2, f"{cwd}/requirements.txt", "", "pyyaml==6.0.1")
    _bash(base, 3, "pytest -q", out="3 passed")
    return run_hook("stop", dict(base, stop_hook_active=False,
                                 last_assistant_message="I ran pytest. It failed because PyYAML was missing from "
                                                        "requirements.txt; adding pyyaml==6.0.1 fixed the import."))


def test_a_session_replayed_twice_with_the_same_run_key_leaves_one_note(git_project, store):
    _fix_session(git_project)
    _fix_session(git_project)
    assert store.stats()["notes"] == 1
    (note,) = store.project_notes(PROJECT)
    assert note["title"].startswith("`pytest -q` fails with ModuleNotFoundError: No module named 'yaml'")
    assert "PyYAML was missing" in note["summary"] and not note["summary"].startswith("I ")
    assert note["validation"]["passed"] and note["verified"] == 1
    assert [e["observation_id"] for e in note["evidence"]] == [1, 3]


def test_a_retry_without_change_teaches_nothing(git_project, store):
    base = _base("s5", git_project)
    _bash(base, 1, "npm install", error="Exit code 1\nnpm ERR! code ETIMEDOUT")
    _bash(base, 2, "npm install", out="added 312 packages")
    (result,) = write_back(store, "s5", "npm install timed out once; a retry worked.")
    assert result["decision"] == "skipped" and result["reason_codes"] == ["retry_without_change"]
    assert store.stats()["notes"] == 0


def test_the_same_check_passing_after_an_edit_is_a_chain_unless_the_error_comes_back(store):
    observations = [
        {"id": 1, "tool": "Bash", "target": "pytest tests/test_api.py", "outcome": "error",
         "error_signature": "KeyError: 'DATABASE_URL'"},
        {"id": 2, "tool": "Edit", "target": "tests/conftest.py", "outcome": "ok", "files": ["tests/conftest.py"]},
        {"id": 3, "tool": "Bash", "target": "pytest", "outcome": "ok", "error_signature": None},
    ]
    chains, notes = find_chains(observations)
    assert [c["kind"] for c in chains] == ["same_check"] and notes == []
    observations.append({"id": 4, "tool": "Bash", "target": "pytest -x", "outcome": "error",
                         "error_signature": "KeyError: 'DATABASE_URL'"})
    assert find_chains(observations)[0] == []  # it came back: not resolved


def test_a_typo_in_a_file_the_session_just_wrote_is_not_a_lesson(git_project, store):
    base = _base("s6", git_project)
    path = f"{git_project}/app/slug.py"
    run_hook("post-tool-use", dict(base, tool_name="Write", tool_use_id="s6-1",
                                   tool_input={"file_path": path, "content": "def f(:\n"},
                                   tool_response={"filePath": path}))
    _bash(base, 2, "python -c 'import app.slug'", error="Exit code 1\nSyntaxError: invalid syntax")
    _edit(base, 3, path, "def f(:", "def f():")
    _bash(base, 4, "python -c 'import app.slug'", out="")
    candidates, notes = session_candidates(store, "s6", "Fixed a typo.")
    assert candidates == [] and notes == ["self_inflicted"]


# --- Stop: fast, never blocking unless asked, never twice ---------------------------------------------

def test_stop_never_blocks_by_default(git_project, store):
    base = _base("s7", git_project)
    _edit(base, 1, f"{git_project}/app.py")
    code, out = run_hook("stop", dict(base, stop_hook_active=False, last_assistant_message="Edited app.py."))
    assert (code, out) == (0, {})


def test_stop_prompt_opt_in_asks_once_and_respects_stop_hook_active(git_project, store, monkeypatch):
    monkeypatch.setenv("LOREBOOK_STOP_PROMPT", "1")
    base = _base("s8", git_project)
    _edit(base, 1, f"{git_project}/app.py")
    code, out = run_hook("stop", dict(base, stop_hook_active=True, last_assistant_message="Edited app.py."))
    assert out == {}  # Claude Code is already continuing because of a Stop hook: never again
    code, out = run_hook("stop", dict(base, stop_hook_active=False, last_assistant_message="Edited app.py."))
    assert out["decision"] == "block" and "write_task_memory" in out["reason"]
    code, out = run_hook("stop", dict(base, stop_hook_active=False, last_assistant_message="Edited app.py."))
    assert out == {}  # asked once per session


def test_stop_prompt_is_not_needed_when_lorebook_wrote_the_lesson(git_project, store, monkeypatch):
    monkeypatch.setenv("LOREBOOK_STOP_PROMPT", "1")
    code, out = _fix_session(git_project, "s9")
    assert out == {} and store.stats()["notes"] == 1


# --- an llm model's record, schema-checked, with fallback -------------------------------------------

class ScriptedModel:
    """Stands in for an llm model object: ``prompt(text).text()`` returns a fixed answer."""

    model_id = "scripted"

    def __init__(self, answer):
        self.answer, self.prompts = answer, []

    def prompt(self, text):
        self.prompts.append(text)
        answer = self.answer

        class Response:
            def text(self):
                if isinstance(answer, Exception):
                    raise answer
                return answer

        return Response()


def _model_lesson(observation_id):
    return {"lesson": {
        "title": "PyYAML must be declared in requirements.txt: app/config.py imports yaml at start-up",
        "summary": "Fresh virtualenvs lacked PyYAML, so pytest could not import app/config.py.",
        "kind": "fix", "trigger": "`pytest -q` in a new virtualenv, at collection",
        "evidence": [{"quote": "ModuleNotFoundError: No module named 'yaml'", "observation_id": observation_id}],
        "change": "Pinned pyyaml==6.0.1 in requirements.txt so the config loader's import resolves.",
        "validation": {"passed": ["pytest -q: 3 passed"], "not_performed": ["CI"]},
        "scope": "project", "conditions": "", "files": ["requirements.txt"],
        "error_signatures": ["ModuleNotFoundError: No module named 'yaml'"], "tags": ["dependencies"]}}


def test_a_model_record_refines_the_note_keeping_the_old_text(git_project, store):
    _fix_session(git_project, "s10")
    (note,) = store.project_notes(PROJECT)
    model = ScriptedModel("```json\n" + json.dumps(_model_lesson(note["observation_ids"][0])) + "\n```")
    result = refine_with_model(store, "s10", model)
    assert result == {"outcome": "refined", "note_id": note["id"]}
    assert "<session>" in model.prompts[0] and "ModuleNotFoundError" in model.prompts[0]
    refined = store.get_note(note["id"])
    assert refined["title"].startswith("PyYAML must be declared")
    assert store.note_revisions(note["id"])[0]["snapshot"]["title"] == note["title"]


@pytest.mark.parametrize("answer", [
    "not json at all",
    json.dumps({"lesson": {"title": "x"}}),
    json.dumps(_model_lesson(99999)),  # cites an observation this session never had
    RuntimeError("the model is unreachable"),
])
def test_any_model_failure_falls_back_to_the_deterministic_record(git_project, store, answer):
    _fix_session(git_project, "s11")
    (note,) = store.project_notes(PROJECT)
    result = refine_with_model(store, "s11", ScriptedModel(answer))
    assert result["outcome"] == "fallback" and result["reason"]
    assert store.get_note(note["id"])["title"] == note["title"]


def test_stop_with_a_model_configured_stays_out_of_llm(git_project, store, monkeypatch):
    """The hook starts `lorebook refine` detached and never imports llm itself."""
    monkeypatch.setenv("LOREBOOK_MODEL", "no-such-model-for-tests")
    started = []
    import lorebook.hooks.stop as hook

    monkeypatch.setattr(hook, "spawn_detached", lambda args: started.append(args) or True)
    _fix_session(git_project, "s12")
    assert started == [["refine", "s12"]]
    env = dict(os.environ, LOREBOOK_MODEL="no-such-model-for-tests")
    code = ("import sys, io, json; from lorebook.dispatch import run_hook; "
            "run_hook('stop', json.dumps({'session_id': 's12', 'cwd': %r, 'stop_hook_active': False, "
            "'last_assistant_message': 'x'}).encode()); print('llm' in sys.modules)") % str(git_project)
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert proc.stdout.strip().splitlines()[-1] == "False", proc.stderr


def test_refine_cli_with_an_unknown_model_falls_back(git_project, store, monkeypatch):
    _fix_session(git_project, "s13")
    monkeypatch.setenv("LOREBOOK_MODEL", "no-such-model-for-tests")
    result = CliRunner().invoke(cli, ["refine", "s13"])
    assert json.loads(result.output)["outcome"] == "fallback"


# --- committed before its vectors: a killed indexer leaves a note that `lorebook index` completes ----------

def test_a_note_survives_an_indexer_killed_mid_embedding(store, tmp_path):
    from lorebook import vectors

    path = tmp_path / "lesson.json"
    path.write_text(json.dumps(LESSON))
    written = subprocess.run([sys.executable, "-m", "lorebook", "write", "--file", str(path), "--run-key", "k9",
                              "--json"], capture_output=True, text=True, env=dict(os.environ))
    result = json.loads(written.stdout)
    assert result["decision"] == "created" and result["index_status"] == "pending"
    env = dict(os.environ, **{vectors.PAUSE_ENV: "before-embed:120"})
    proc = subprocess.Popen([sys.executable, "-m", "lorebook", "index", "--quiet"], env=env, text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert proc.stderr.readline().strip() == "lorebook index: paused at before-embed"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        proc.stderr.close()
    assert store.get_note(result["note_id"])["index_status"] == "pending"
    assert CliRunner().invoke(cli, ["index", "--quiet"]).exit_code == 0
    assert store.get_note(result["note_id"])["index_status"] == "indexed"
    again = subprocess.run([sys.executable, "-m", "lorebook", "write", "--file", str(path), "--run-key", "k9",
                            "--json"], capture_output=True, text=True)
    assert json.loads(again.stdout)["note_id"] == result["note_id"] and store.stats()["notes"] == 1


def test_validate_with_vectors_finds_a_paraphrase(store):
    write(store, LESSON, "run-1")
    result = validate_memory(store, PARAPHRASE, "manual", use_vectors=True)
    assert result["decision"] == "merged" and result["accepted"]


def test_a_session_that_ends_without_a_stop_still_writes_back_once(git_project, store):
    base = _base("s14", git_project)
    _bash(base, 1, "pytest -q", error="Exit code 1\nE   ModuleNotFoundError: No module named 'yaml'")
    _edit(base, 2, f"{git_project}/requirements.txt", "", "pyyaml==6.0.1")
    _bash(base, 3, "pytest -q", out="3 passed")
    run_hook("session-end", dict(base, reason="other"))
    run_hook("session-end", dict(base, reason="other"))
    (note,) = store.project_notes(PROJECT)
    assert "requirements.txt" in note["title"] and store.get_session("s14")["status"] == "closed"


def test_the_stop_path_that_writes_a_note_imports_nothing_heavy(git_project, store, lorebook_home):
    base = _base("s15", git_project)
    _bash(base, 1, "pytest -q", error="Exit code 1\nE   ModuleNotFoundError: No module named 'yaml'")
    _edit(base, 2, f"{git_project}/requirements.txt", "", "pyyaml==6.0.1")
    _bash(base, 3, "pytest -q", out="3 passed")
    payload = json.dumps(dict(base, stop_hook_active=False,
                              last_assistant_message="pytest failed because PyYAML was missing from requirements.txt."))
    code = (
        "import io, sys; sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()));"
        "from lorebook.main import main; main(['hook', 'stop']);"
        "heavy = sorted(m for m in ('llm', 'click', 'sqlite_utils', 'numpy', 'importlib.metadata') if m in sys.modules);"
        "sys.stderr.write('HEAVY=' + ','.join(heavy))"
    )
    result = subprocess.run([sys.executable, "-c", code, payload], capture_output=True, text=True,
                            env=dict(os.environ, LOREBOOK_HOME=str(lorebook_home)))
    assert result.stderr.split("HEAVY=")[-1].strip() == "", result.stderr
    assert store.stats()["notes"] == 1


def test_a_fix_resolves_an_open_pitfall_with_the_same_error(store):
    pitfall = write(store, dict(LESSON, kind="pitfall", title="Fresh virtualenvs cannot import yaml: PyYAML is an "
                                "undeclared dependency of the config loader",
                                change="Watch for it: nothing declares PyYAML, so new environments miss it."),
                    "run-1")["note_id"]
    fix = write(store, dict(UNRELATED, kind="fix", error_signatures=LESSON["error_signatures"]), "run-2")
    assert fix["decision"] == "created"
    kinds = {(r["from_note"], r["to_note"], r["kind"]) for r in store.note_relations(pitfall)}
    assert (pitfall, fix["note_id"], "resolved_by") in kinds


def test_a_different_lesson_next_to_a_recalled_note_is_derived_from_it(store):
    recalled = write(store, LESSON, "run-1")["note_id"]
    store.ensure_project(PROJECT, "widget")
    store.ensure_session("s16", project_key=PROJECT)
    store.record_recalls("s16", [recalled], "session_start")
    follow_up = dict(LESSON, title="pytest fails with ModuleNotFoundError for tomli on Python 3.10 runners",
                     summary="The settings loader uses tomllib, which Python 3.10 lacks.",
                     trigger="Running `pytest -q` on the Python 3.10 CI runner fails at collection",
                     change="Added `tomli; python_version < \"3.11\"` to requirements.txt.",
                     evidence=[{"quote": "ModuleNotFoundError: No module named 'tomli'", "source": "CI"}],
                     error_signatures=["ModuleNotFoundError: No module named 'tomli'"])
    result = write(store, follow_up, "run-2", session_id="s16")
    assert result["decision"] == "created"
    assert {"from_note": result["note_id"], "to_note": recalled, "kind": "derived_from"}.items() <= \
        next(r for r in store.note_relations(recalled) if r["kind"] == "derived_from").items()


def test_superseded_and_stale_notes_never_reach_the_next_session(git_project, store):
    from hookutil import context_of

    _fix_session(git_project, "s17")
    (old,) = store.project_notes(PROJECT)
    newer = write(store, dict(UNRELATED, project_key=PROJECT), "run-new")["note_id"]
    CliRunner().invoke(cli, ["supersede", str(old["id"]), str(newer)])
    code, out = run_hook("session-start", dict(_base("s18", git_project), source="startup"))
    context = context_of(out)
    assert "WORKER TIMEOUT" in context and "PyYAML" not in context and "yaml" not in context.lower()
    CliRunner().invoke(cli, ["stale", str(newer)])
    code, out = run_hook("session-start", dict(_base("s19", git_project), source="startup"))
    assert "WORKER TIMEOUT" not in context_of(out)


def test_a_model_refines_only_decisions_taken_now_not_replays(git_project, store, monkeypatch):
    monkeypatch.setenv("LOREBOOK_MODEL", "no-such-model-for-tests")
    started = []
    import lorebook.hooks.stop as hook

    monkeypatch.setattr(hook, "spawn_detached", lambda args: started.append(args) or True)
    _fix_session(git_project, "s20")
    _fix_session(git_project, "s20")  # the same Stop again: nothing new to refine
    assert started == [["refine", "s20"]]
