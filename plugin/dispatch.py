"""``lorebook hook <event>``: stdin JSON → ``pm.hook.<event>(…)`` → one JSON object on stdout.

It fails open: whatever goes wrong, it prints a harmless JSON object, logs
the traceback (redacted) under the user dir and exits 0. Exit code 2 would
block the user's prompt or tool, so it is never used.
"""
from __future__ import annotations

import json
import sys
import time

# Claude Code's event names, and the CLI spellings, to hook names
EVENTS = {
    "SessionStart": "session_start",
    "UserPromptSubmit": "user_prompt_submit",
    "PostToolUse": "post_tool_use",
    "PostToolUseFailure": "post_tool_use_failure",
    "SubagentStop": "subagent_stop",
    "Stop": "stop",
    "PreCompact": "pre_compact",
    "SessionEnd": "session_end",
}
EVENTS.update({hook.replace("_", "-"): hook for hook in list(EVENTS.values())})
EVENTS.update({hook: hook for hook in set(EVENTS.values())})

MAX_STDIN_BYTES = 64 * 1024 * 1024


def log(event: str, message: str, exc: BaseException | None = None) -> None:
    """Append a line (and a redacted traceback) to the hook log; never raises."""
    try:
        import traceback

        from .config import log_path, rotate_log
        from .redact import redact

        path = log_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        rotate_log(path)
        text = f"{time.strftime('%Y-%m-%dT%H:%M:%S')} [{event}] {message}\n"
        if exc is not None:
            text += "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        with open(path, "a", encoding="utf-8") as fp:
            fp.write(redact(text))
    except Exception:
        pass


def run_hook(event_arg: str, raw: bytes) -> dict:
    """The JSON object to print for one hook call. Raises only on internal errors."""
    from .config import disabled

    if disabled():
        return {}
    hook_name = EVENTS.get(event_arg)
    if hook_name is None:
        log(event_arg, f"unknown event {event_arg!r}: ignored")
        return {}
    if len(raw) > MAX_STDIN_BYTES:
        log(hook_name, f"stdin of {len(raw)} bytes is over {MAX_STDIN_BYTES}: ignored")
        return {}
    from lorebook.hooks.claude_code import parse_payload, render_output

    event = parse_payload(hook_name, raw)
    if event is None:
        log(hook_name, f"stdin is not a hook payload ({len(raw)} bytes): ignored")
        return {}
    from .plugins import load_plugins
    from .store import Store

    pm = load_plugins()
    store = Store()
    try:
        results = getattr(pm.hook, hook_name)(event=event, store=store)
    finally:
        store.close()
    output = render_output(event, results)
    warning = config_warning(event.payload.get("session_id"))
    if warning:
        output["systemMessage"] = warning
    return output


def config_warning(session_id) -> str | None:
    """What is wrong with the settings, said once per session (Claude Code shows ``systemMessage`` to the user)."""
    from .config import config_problems, user_dir

    problems = config_problems()
    if not problems or not isinstance(session_id, str) or not session_id:
        return None
    marker = user_dir() / "logs" / "config-warned"
    try:
        if marker.read_text("utf-8").strip() == session_id:
            return None
    except OSError:
        pass
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(session_id, "utf-8")
    except OSError:
        return None  # better silent than the same warning on every event
    for problem in problems:
        log("config", problem)
    return "lorebook: " + " ".join(problems)


def main_hook(argv: list[str]) -> int:
    """Entry for ``lorebook hook EVENT``: always exits 0."""
    event_arg = argv[0] if argv else ""
    output: dict = {}
    try:
        raw = sys.stdin.buffer.read() if not sys.stdin.closed else b""
        output = run_hook(event_arg, raw)
    except BaseException as ex:  # fail open, whatever it was
        log(event_arg, f"internal error, failing open: {type(ex).__name__}", ex)
        output = {}
    try:
        sys.stdout.write(json.dumps(output, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    except Exception:
        pass
    return 0
