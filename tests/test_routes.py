"""One route at a time: a second lorebook registration firing the same event runs nothing and warns once."""
import glob
import json
import os

from lorebook.dispatch import run_hook
from lorebook.store import Store

PLUGIN = "plugin:/src/lorebook"


def payload(session="s-routes", **extra) -> bytes:
    return json.dumps({"session_id": session, "cwd": "/tmp", "hook_event_name": "UserPromptSubmit",
                       "prompt": "why does the build fail on arm64?", **extra}).encode()


def capture(session="s-routes", **extra) -> bytes:
    return json.dumps({"session_id": session, "cwd": "/tmp", "hook_event_name": "PostToolUse", "tool_name": "Bash",
                       "tool_use_id": "t1", "tool_input": {"command": "ls"},
                       "tool_response": {"stdout": "a", "stderr": ""}, **extra}).encode()


def prompts(session="s-routes") -> int:
    store = Store()
    try:
        return len(store.session_prompts(session))
    finally:
        store.close()


def observations(session="s-routes") -> int:
    store = Store()
    try:
        return len(store.session_observations(session))
    finally:
        store.close()


def test_the_second_route_runs_nothing_and_warns_once(monkeypatch):
    assert run_hook("user-prompt-submit", payload()) == {}
    assert prompts() == 1
    monkeypatch.setenv("LOREBOOK_ROUTE", PLUGIN)
    warned = run_hook("user-prompt-submit", payload())
    assert prompts() == 1  # not recorded (nor recalled) twice
    message = warned["systemMessage"]
    assert "registered twice" in message and "/src/lorebook" in message and "lorebook uninstall" in message
    # the next duplicate event in the same session: skipped silently
    monkeypatch.delenv("LOREBOOK_ROUTE")
    second = payload(prompt="and on x86?")
    assert run_hook("user-prompt-submit", second) == {}
    monkeypatch.setenv("LOREBOOK_ROUTE", PLUGIN)
    assert run_hook("user-prompt-submit", second) == {}
    assert prompts() == 2
    # another session is told again
    monkeypatch.delenv("LOREBOOK_ROUTE")
    run_hook("user-prompt-submit", payload("s-other"))
    monkeypatch.setenv("LOREBOOK_ROUTE", PLUGIN)
    assert "systemMessage" in run_hook("user-prompt-submit", payload("s-other"))


def test_capture_from_two_routes_is_stored_once_and_claims_nothing(monkeypatch):
    """Capture is idempotent by tool_use_id: the hot path pays for no marker file."""
    from lorebook import routes

    assert run_hook("post-tool-use", capture()) == {}
    monkeypatch.setenv("LOREBOOK_ROUTE", PLUGIN)
    assert run_hook("post-tool-use", capture()) == {}
    assert observations() == 1
    assert not os.path.exists(routes._session_dir("s-routes"))


def test_the_same_route_twice_is_a_replay_and_runs(monkeypatch):
    monkeypatch.setenv("LOREBOOK_ROUTE", PLUGIN)
    assert run_hook("user-prompt-submit", payload()) == {}
    assert run_hook("user-prompt-submit", payload()) == {}
    from lorebook.config import log_path

    assert not log_path().exists() or "skipped" not in log_path().read_text()


def test_session_start_context_is_injected_once(monkeypatch, tmp_path):
    from lorebook.routes import claim

    assert claim("s1", "session_start", b"x") is None
    monkeypatch.setenv("LOREBOOK_ROUTE", PLUGIN)
    assert claim("s1", "session_start", b"x") == "settings"
    assert claim("s1", "session_start", b"y") is None  # another payload is another event


def test_an_old_marker_is_a_new_event(monkeypatch):
    from lorebook import routes

    assert routes.claim("s1", "stop", b"x") is None
    marker = glob.glob(os.path.join(routes._session_dir("s1"), "stop-*"))[0]
    os.utime(marker, (1, 1))
    monkeypatch.setenv("LOREBOOK_ROUTE", PLUGIN)
    assert routes.claim("s1", "stop", b"x") is None
