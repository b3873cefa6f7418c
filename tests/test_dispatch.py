"""The hook dispatcher fails open: exit 0, one JSON object, whatever the input."""
import json
import os
import subprocess
import sys

import pytest

from hookutil import run_hook


@pytest.mark.parametrize("raw", [b"", b"garbage", b"[1, 2]", b'"a string"', b"\xff\xfe\x00bad",
                                 b'{"no": "fields"}', b"{", b"null"])
@pytest.mark.parametrize("event", ["post-tool-use", "session-start", "stop", "user-prompt-submit"])
def test_bad_input_is_a_harmless_no_op(event, raw, store):
    code, out = run_hook(event, raw)
    assert code == 0
    assert out == {}


def test_unknown_event_is_logged_and_ignored(lorebook_home):
    code, out = run_hook("made-up-event", {"session_id": "x"})
    assert (code, out) == (0, {})
    assert "unknown event" in (lorebook_home / "logs" / "hooks.log").read_text()


def test_internal_error_fails_open_and_logs_traceback(lorebook_home, monkeypatch):
    import lorebook.hooks.capture as capture

    def boom(*a, **k):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(capture, "extract", boom)
    code, out = run_hook("post-tool-use", {"session_id": "s", "tool_name": "Bash", "tool_input": {}})
    assert (code, out) == (0, {})
    log = (lorebook_home / "logs" / "hooks.log").read_text()
    assert "RuntimeError" in log and "Traceback" in log


def test_disable_turns_everything_off(lorebook_home, monkeypatch):
    monkeypatch.setenv("LOREBOOK_DISABLE", "1")
    code, out = run_hook("post-tool-use", {"session_id": "s", "tool_name": "Bash", "tool_input": {"command": "ls"}})
    assert (code, out) == (0, {})
    assert not (lorebook_home / "lorebook.db").exists()


def test_huge_tool_response_stores_a_bounded_excerpt(store):
    big = "x" * (50 * 1024 * 1024)
    code, out = run_hook("post-tool-use", {"session_id": "big", "tool_name": "Bash", "tool_use_id": "b1",
                                           "tool_input": {"command": "cat big.log"},
                                           "tool_response": {"stdout": big, "stderr": ""}})
    assert code == 0
    (obs,) = store.session_observations("big")
    assert len(obs["body"]) < 10_000
    assert "truncated" in obs["body"]


def _cli(args, env_extra, stdin=b""):
    env = dict(os.environ, **env_extra)
    return subprocess.run([sys.executable, "-m", "lorebook", *args], input=stdin, capture_output=True, env=env)


def test_garbage_through_the_real_process_exits_zero(lorebook_home):
    result = _cli(["hook", "post-tool-use"], {"LOREBOOK_HOME": str(lorebook_home)}, b"garbage")
    assert result.returncode == 0
    assert json.loads(result.stdout) == {}


def test_broken_data_dir_fails_open(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the data dir should be")
    payload = json.dumps({"session_id": "s", "cwd": str(tmp_path), "tool_name": "Bash",
                          "tool_input": {"command": "ls"}, "tool_response": {"stdout": ""}}).encode()
    for event in ("session-start", "post-tool-use", "stop"):
        result = _cli(["hook", event], {"LOREBOOK_HOME": str(blocker)}, payload)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout) == {}


def test_hook_path_never_imports_llm_or_click(lorebook_home, git_project):
    payload = json.dumps({"session_id": "s", "cwd": str(git_project), "tool_name": "Bash", "tool_use_id": "t",
                          "tool_input": {"command": "ls"}, "tool_response": {"stdout": "a"}})
    code = (
        "import io, sys; sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()));"
        "from lorebook.main import main; main(['hook', 'post-tool-use']);"
        "heavy = sorted(m for m in ('llm', 'click', 'sqlite_utils', 'numpy', 'importlib.metadata') if m in sys.modules);"
        "sys.stderr.write('HEAVY=' + ','.join(heavy))"
    )
    result = subprocess.run([sys.executable, "-c", code, payload], capture_output=True, text=True,
                            env=dict(os.environ, LOREBOOK_HOME=str(lorebook_home)))
    # the first run migrates the schema (sqlite_utils is allowed then); the second is the steady state
    result = subprocess.run([sys.executable, "-c", code, payload], capture_output=True, text=True,
                            env=dict(os.environ, LOREBOOK_HOME=str(lorebook_home)))
    assert "HEAVY=" in result.stderr, result.stderr
    assert result.stderr.split("HEAVY=")[-1].strip() == ""


def test_real_captured_payloads_replay_through_the_dispatcher(captured_payloads, store):
    for version, payloads in captured_payloads.items():
        for label, payload in payloads.items():
            if label.startswith("_") or payload is None:  # 2.1.112 never sent a task-notification
                continue
            event = payload["hook_event_name"]
            code, out = run_hook(event, payload)
            assert code == 0, (version, label)
            assert isinstance(out, dict)
    assert store.stats()["observations"] >= 4


@pytest.mark.parametrize("arg, hook", [("session-start", "session_start"), ("session_start", "session_start"),
                                       ("SessionStart", "session_start"), ("PostToolUseFailure", "post_tool_use_failure"),
                                       ("Stop", "stop"), ("made-up-event", None), ("", None), ("parse_event", None)])
def test_event_names_in_every_spelling(arg, hook):
    from lorebook.dispatch import hook_name_for

    assert hook_name_for(arg) == hook
