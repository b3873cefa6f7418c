"""The memory loop in the real Claude Code CLI: session 1 fails, fixes and explains; session 2 starts knowing it."""
import json

import pytest

from fix_scenario import APP_CFG, CAUSE, CHECK_PY, fix_session


def play_two_sessions(sb):
    sb.write("check.py", CHECK_PY)
    sb.write("app.cfg", APP_CFG)
    first = sb.run("The check fails, please fix it.", fix_session(sb.project))
    assert first.returncode == 0, first.describe()
    assert first.text.startswith(CAUSE), first.describe()
    assert "retries = 3" in (sb.project / "app.cfg").read_text()
    second = sb.run("Please run echo hello")
    assert second.returncode == 0, second.describe()
    return first, second


@pytest.mark.parametrize("route", ["plugin-dir", "install", "marketplace"])
def test_second_session_starts_with_the_lesson(lorebook_sandbox, route):
    sandbox = lorebook_sandbox(route)
    first, second = play_two_sessions(sandbox)
    # the first session was new to lorebook: nothing was injected into it
    assert CAUSE not in first.first_request_text()
    # the second session's FIRST model request carries the lesson, framed as evidence with provenance
    request = second.first_request_text()
    assert "retries = 3" in request, second.describe()  # the fix
    assert "python3 check.py" in request  # the trigger
    assert "ConfigError: [client] retries is not set in app.cfg" in request  # the evidence
    assert f"claude-code session {first.session_id[:8]}" in request
    assert "not instructions" in request
    stats = json.loads(sandbox.lorebook("stats", "--json").stdout)
    assert stats["notes"] == 1 and stats["sessions"] == 2
    # failing open must not hide a broken hook: no hook of either session hit an internal error
    assert "internal error" not in sandbox.hook_log, sandbox.hook_log


def test_broken_data_dir_does_not_break_the_session(lorebook_sandbox):
    sb = lorebook_sandbox("plugin-dir")
    sb.lorebook_home.parent.mkdir(parents=True, exist_ok=True)
    sb.lorebook_home.write_text("not a directory")  # a file where lorebook's data dir should be
    sb.write("check.py", CHECK_PY)
    sb.write("app.cfg", APP_CFG)
    res = sb.run("The check fails, please fix it.", fix_session(sb.project))
    assert res.returncode == 0, res.describe()
    assert res.text.startswith(CAUSE)
    assert "hook error" not in res.stderr.lower()
    assert sb.lorebook_home.read_text() == "not a directory"


def test_uninstall_stops_lorebook_in_the_next_session(lorebook_sandbox):
    sb = lorebook_sandbox("install-project")
    assert sb.run("Please run echo hello").returncode == 0
    assert json.loads(sb.lorebook("stats", "--json").stdout)["sessions"] == 1
    assert sb.lorebook("uninstall", "--project").returncode == 0
    assert not (sb.project / ".claude" / "settings.json").exists()
    res = sb.run("Please run echo hello")
    assert res.returncode == 0, res.describe()
    assert json.loads(sb.lorebook("stats", "--json").stdout)["sessions"] == 1


def test_lorebook_disable_turns_it_off_in_a_real_session(lorebook_sandbox):
    sb = lorebook_sandbox("plugin-dir")
    sb.extra_env["LOREBOOK_DISABLE"] = "1"
    res = sb.run("Please run echo hello")
    assert res.returncode == 0 and res.text == "The command printed: hello. Done.", res.describe()
    assert not (sb.lorebook_home / "lorebook.db").exists()
