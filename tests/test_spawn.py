"""spawn.spawn_detached: the one way lorebook starts a process that outlives its caller."""
import sys
import time

from lorebook.spawn import spawn_detached


def _wait_for_text(path, deadline_s=60.0):
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        text = path.read_text() if path.exists() else ""
        if text.strip():
            return text
        time.sleep(0.05)
    return ""


def test_a_detached_lorebook_runs_the_command_and_writes_only_where_told(tmp_path, capfd):
    log = tmp_path / "child.log"
    with open(log, "a") as fp:
        assert spawn_detached(["no-such-command"], stderr=fp) is True
    text = _wait_for_text(log)
    assert "No such command" in text and "no-such-command" in text
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")  # nothing on the caller's stdio


def test_another_module_can_be_run(tmp_path):
    log = tmp_path / "child.log"
    with open(log, "a") as fp:
        assert spawn_detached([], module="lorebook.no_such_module", stderr=fp) is True
    assert "No module named lorebook.no_such_module" in _wait_for_text(log)


def test_a_spawn_that_cannot_start_returns_false_instead_of_raising(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-python-here"))
    assert spawn_detached(["index", "--quiet"]) is False
