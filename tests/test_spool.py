"""A held write lock never stalls a hook past ~1 s nor loses capture: recall still answers, and what could
not be written waits in the spool until a later hook stores it (in order, once). The lock is held for real
by a second process in ``BEGIN IMMEDIATE``."""
import contextlib
import json
import subprocess
import sys

import pytest

from hookutil import context_of, run_hook
from lorebook import spool as spool_module
from lorebook.spool import Spool
from lorebook.store import HOOK_BUSY_TIMEOUT_S, Store

WIDGET = "github.com/acme/widget"
SECRET = "AKIAIOSFODNN7EXAMPLE"

HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()  # until the test closes our stdin
conn.execute("ROLLBACK")
"""


@contextlib.contextmanager
def write_lock(db):
    """Another process holding the database's write lock (a writer in the middle of its transaction)."""
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline().strip() == b"locked"
        yield holder
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)


def event(git_project, name, session="s1", **fields):
    return dict({"session_id": session, "cwd": str(git_project), "transcript_path": "/nonexistent/t.jsonl",
                 "hook_event_name": name}, **fields)


def toolu(n):
    return f"toolu_01XFDUDYJgAACzvnptv{n:05d}"  # as random as Claude Code's: the spool must not take it for a secret


def tool_event(git_project, n, output="1 passed"):
    return event(git_project, "PostToolUse", tool_name="Bash", tool_use_id=toolu(n),
                 tool_input={"command": f"pytest tests/test_{n}.py"},
                 tool_response={"stdout": output, "stderr": "", "interrupted": False})


@pytest.fixture
def known_project(store, git_project):
    """A database that knows the project (session s1 seen before) and holds one of its lessons."""
    assert run_hook("SessionStart", event(git_project, "SessionStart", source="startup")) == (0, {})
    store.add_note({"title": "pytest fails with ModuleNotFoundError yaml: install pyyaml in the venv",
                    "summary": "The test venv lacked pyyaml; pip install pyyaml fixed the import.",
                    "trigger": "pytest tests/test_config.py", "change": "pip install pyyaml",
                    "project_key": WIDGET, "verified": 1, "source_agent": "test"})
    return store


def observations(store):
    return [o["tool_use_id"] for o in store.session_observations("s1")]


def test_hooks_wait_at_most_a_second_for_the_lock():
    assert HOOK_BUSY_TIMEOUT_S <= 1.0


def test_session_start_and_prompt_answer_while_another_process_holds_the_lock(known_project, git_project,
                                                                            lorebook_home):
    db = lorebook_home / "lorebook.db"
    with write_lock(db):
        code, out = run_hook("SessionStart", event(git_project, "SessionStart", session="s2", source="startup"))
        assert code == 0 and "install pyyaml" in context_of(out)
        code, out = run_hook("UserPromptSubmit", event(git_project, "UserPromptSubmit", session="s2",
                                                       prompt="pytest says ModuleNotFoundError: No module named yaml"))
        assert code == 0 and "install pyyaml" in context_of(out)
        assert known_project.get_session("s2") is None  # nothing could be written yet ...
        assert Spool().pending()  # ... it waits in the spool
    # the next hook stores it: the new session, its prompt, what it was shown
    assert run_hook("PostToolUse", tool_event(git_project, 1)) == (0, {})
    session = known_project.get_session("s2")
    assert session["project_key"] == WIDGET
    assert [p["text"] for p in known_project.session_prompts("s2")] == [
        "pytest says ModuleNotFoundError: No module named yaml"]
    assert known_project.recalled_note_ids("s2")
    assert not Spool().pending()
    log = (lorebook_home / "logs" / "hooks.log").read_text()
    assert "internal error" not in log and "kept in capture-spool.jsonl" in log


def test_capture_under_the_lock_is_spooled_redacted_and_stored_later_in_order(known_project, git_project,
                                                                               lorebook_home):
    db = lorebook_home / "lorebook.db"
    with write_lock(db):
        for n in range(1, 4):
            output = f"{n} passed" if n != 2 else f"export AWS_ACCESS_KEY_ID={SECRET}\n1 failed"
            assert run_hook("PostToolUse", tool_event(git_project, n, output)) == (0, {})
        spooled = Spool().path.read_text()
        assert observations(known_project) == []
    lines = [json.loads(line) for line in spooled.splitlines()]
    # (the second output held a secret: its fingerprint is kept for the session, before the observation)
    assert [line["method"] for line in lines] == ["add_observation", "add_secret_prints", "add_observation",
                                                  "add_observation"]
    assert SECRET not in spooled  # redacted like stored data
    # a later hook of any kind drains it first, then writes its own
    assert run_hook("PostToolUse", tool_event(git_project, 4)) == (0, {})
    assert observations(known_project) == [toolu(n) for n in range(1, 5)]
    assert not Spool().pending()
    # replaying the same lines again stores nothing twice
    Spool().path.write_text(spooled)
    assert run_hook("PostToolUse", tool_event(git_project, 5)) == (0, {})
    assert observations(known_project) == [toolu(n) for n in range(1, 6)]


def test_a_first_session_seen_under_the_lock_is_created_later(store, git_project, lorebook_home):
    with write_lock(lorebook_home / "lorebook.db"):
        assert run_hook("PostToolUse", tool_event(git_project, 1)) == (0, {})
        assert store.get_session("s1") is None
    assert run_hook("PostToolUse", tool_event(git_project, 2)) == (0, {})
    assert store.get_session("s1")["project_key"] == WIDGET
    assert [p["key"] for p in store.list_projects()] == [WIDGET]
    assert observations(store) == [toolu(1), toolu(2)]


def test_a_hook_that_spooled_drains_itself_once_the_lock_is_gone(store, lorebook_home):
    spool = Spool(lorebook_home / "capture-spool.jsonl")
    store.use_spool(spool)
    store.ensure_session("s1")
    store.mark_spooling()  # as after a locked write: the next ones follow it to the spool
    store.add_prompt("s1", "first prompt")
    assert store.session_prompts("s1") == [] and spool.pending()
    spool_module.drain_quietly(store, spool, wait=False)
    assert [p["text"] for p in store.session_prompts("s1")] == ["first prompt"]
    assert not spool.pending() and not store.spooling


def test_a_spooled_call_that_cannot_be_stored_is_skipped_not_stuck(store, lorebook_home):
    spool = Spool(lorebook_home / "capture-spool.jsonl")
    spool.append("add_prompt", {"session_id": "no-such-session", "text": "orphan"})  # breaks a foreign key
    spool.append("drop_everything", {})  # not a spooled write
    spool.path.open("a").write("not json\n")
    spool.append("ensure_session", {"session_id": "s9"})
    assert spool.drain(store) == 1
    assert store.get_session("s9") is not None and not spool.pending()


def test_a_line_still_being_written_is_left_for_the_next_drain(store, lorebook_home):
    spool = Spool(lorebook_home / "capture-spool.jsonl")
    spool.append("ensure_session", {"session_id": "s1"})
    with spool.path.open("a") as fp:
        fp.write('{"method": "ensure_session", "argu')
    assert spool.drain(store) == 1
    assert spool.path.read_text() == '{"method": "ensure_session", "argu'


def test_the_spool_is_bounded(store, lorebook_home, monkeypatch):
    monkeypatch.setattr(spool_module, "MAX_SPOOL_BYTES", 2000)
    spool = Spool(lorebook_home / "capture-spool.jsonl")
    kept = [spool.append("add_prompt", {"session_id": "s1", "text": "x" * 300}) for _ in range(20)]
    assert kept.count(True) == 5 and not any(kept[5:])
    assert spool.path.stat().st_size <= 2000


APPENDER = """
import sys
from lorebook.spool import Spool
spool = Spool(sys.argv[1])
for n in range(int(sys.argv[3])):
    assert spool.append("add_prompt", {"session_id": "s1", "text": f"worker {sys.argv[2]} prompt {n} " + "y" * 3000})
"""


def test_concurrent_appenders_and_a_drainer_keep_every_line_whole(store, lorebook_home):
    path = lorebook_home / "capture-spool.jsonl"
    store.ensure_session("s1")
    workers, each = 6, 40
    procs = [subprocess.Popen([sys.executable, "-c", APPENDER, str(path), str(w), str(each)])
             for w in range(workers)]
    drained = 0
    while any(p.poll() is None for p in procs):
        drained += Spool(path).drain(store)
    assert all(p.wait() == 0 for p in procs)
    drained += Spool(path).drain(store)
    texts = [p["text"] for p in store.session_prompts("s1")]
    assert drained == len(texts) == workers * each
    for w in range(workers):  # each writer's lines arrive whole and in its order
        mine = [t.split()[3] for t in texts if t.startswith(f"worker {w} ")]
        assert mine == [str(n) for n in range(each)]


def test_a_stop_that_meets_the_lock_writes_its_lesson_once_the_lock_is_gone(store, git_project, lorebook_home):
    """A Stop (and the SessionEnd after it) that cannot write leaves the writeback to a detached
    `lorebook writeback`, which waits as long as a command does: the lesson is not lost to a busy moment."""
    import time

    steps = [event(git_project, "PostToolUseFailure", tool_name="Bash", tool_use_id=toolu(1),
                   tool_input={"command": "pytest -q tests/test_config.py"}, is_interrupt=False,
                   error="Exit code 1\nE   ModuleNotFoundError: No module named 'yaml'\n1 error in 0.12s"),
             event(git_project, "PostToolUse", tool_name="Bash", tool_use_id=toolu(2),
                   tool_input={"command": "pip install pyyaml==6.0.1"},
                   tool_response={"stdout": "Successfully installed PyYAML-6.0.1", "stderr": "",
                                  "interrupted": False}),
             event(git_project, "PostToolUse", tool_name="Bash", tool_use_id=toolu(3),
                   tool_input={"command": "pytest -q tests/test_config.py"},
                   tool_response={"stdout": "4 passed in 0.20s", "stderr": "", "interrupted": False})]
    assert run_hook("SessionStart", event(git_project, "SessionStart", source="startup")) == (0, {})
    for step in steps:
        assert run_hook(step["hook_event_name"], step)[0] == 0
    message = "The config loader imports yaml but PyYAML was not installed; pip install pyyaml fixed the tests."
    with write_lock(lorebook_home / "lorebook.db"):
        assert run_hook("Stop", event(git_project, "Stop", stop_hook_active=False,
                                      last_assistant_message=message)) == (0, {})
        assert run_hook("SessionEnd", event(git_project, "SessionEnd", reason="other")) == (0, {})
        assert store.session_receipts("s1") == []  # nothing could be written yet
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not store.session_receipts("s1"):
        time.sleep(0.25)
    receipts = store.session_receipts("s1")
    assert [r["decision"] for r in receipts if r["decision"] == "created"] == ["created"]
    note = store.get_note(next(r["note_id"] for r in receipts if r["decision"] == "created"))
    assert "pyyaml" in (note["change"] + note["title"]).lower()
