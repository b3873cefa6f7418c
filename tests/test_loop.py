"""The first complete memory loop, through the real dispatcher: fail → fix → pass → Stop → next SessionStart."""
import re

import pytest

from hookutil import context_of, run_hook


def _session(sid, cwd):
    return {"session_id": sid, "cwd": str(cwd), "transcript_path": f"/tmp/{sid}.jsonl"}


def play_fix_session(cwd, sid="s1"):
    base = _session(sid, cwd)
    run_hook("session-start", dict(base, hook_event_name="SessionStart", source="startup"))
    run_hook("post-tool-use-failure", dict(base, tool_name="Bash", tool_use_id=f"{sid}-t1",
             tool_input={"command": "pytest -q"},
             error="Exit code 1\nE   ModuleNotFoundError: No module named 'yaml'"))
    run_hook("post-tool-use", dict(base, tool_name="Edit", tool_use_id=f"{sid}-t2",
             tool_input={"file_path": f"{cwd}/requirements.txt", "old_string": "", "new_string": "pyyaml==6.0"},
             tool_response={"filePath": f"{cwd}/requirements.txt"}))
    run_hook("post-tool-use", dict(base, tool_name="Bash", tool_use_id=f"{sid}-t3",
             tool_input={"command": "pytest -q"}, tool_response={"stdout": "3 passed", "stderr": ""}))
    return run_hook("stop", dict(base, stop_hook_active=False,
                    last_assistant_message="pytest failed because PyYAML was missing from requirements.txt; "
                                           "adding pyyaml==6.0 there fixed the import."))


def test_fix_session_becomes_a_lesson_the_next_session_receives(git_project, store):
    code, out = play_fix_session(git_project)
    assert (code, out) == (0, {})
    notes = store.project_notes("github.com/acme/widget")
    assert len(notes) == 1
    note = notes[0]
    assert "pytest -q" in note["title"] and "ModuleNotFoundError" in note["title"]
    assert "PyYAML was missing" in note["summary"] and "pyyaml==6.0" in note["change"]
    assert note["validation"]["passed"]

    code, out = run_hook("session-start", dict(_session("s2", git_project), source="startup"))
    context = context_of(out)
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "pyyaml==6.0" in context
    assert "not instructions" in context
    assert "· verified ·" in context
    assert re.search(r"recorded \d{4}-\d\d-\d\d by claude-code session s1", context)
    assert store.recalled_note_ids("s2") == {note["id"]}


def test_replaying_stop_does_not_duplicate(git_project, store):
    play_fix_session(git_project)
    play_fix_session(git_project)  # same session id, same tool_use_ids: a retry
    assert store.stats()["notes"] == 1
    assert store.stats()["observations"] == 3


def test_session_with_nothing_reusable_gives_no_note(git_project, store):
    base = _session("s3", git_project)
    run_hook("post-tool-use", dict(base, tool_name="Bash", tool_use_id="x1",
             tool_input={"command": "ls"}, tool_response={"stdout": "a b", "stderr": ""}))
    run_hook("stop", dict(base, stop_hook_active=False, last_assistant_message="Listed the files."))
    assert store.stats()["notes"] == 0


def test_other_projects_do_not_receive_the_lesson(git_project, tmp_path, store):
    play_fix_session(git_project)
    other = tmp_path / "other"
    other.mkdir()
    code, out = run_hook("session-start", dict(_session("s9", other), source="startup"))
    assert out == {}


@pytest.mark.parametrize("budget", [200, 400, 1500])
def test_injected_context_stays_within_budget(git_project, store, monkeypatch, budget):
    from lorebook.text import estimate_tokens

    for i in range(30):
        store.add_note({"title": f"Lesson {i}: " + "word " * 30, "trigger": "t " * 100, "change": "c " * 200,
                        "scope": "project", "project_key": "github.com/acme/widget", "source_agent": "test"})
    monkeypatch.setenv("LOREBOOK_CONTEXT_BUDGET", str(budget))
    code, out = run_hook("session-start", dict(_session("s4", git_project), source="startup"))
    context = context_of(out)
    assert context and estimate_tokens(context) <= budget
