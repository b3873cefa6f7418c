"""``lorebook hook <event>``: stdin → ``pm.hook.parse_event`` → ``pm.hook.<event>(…)`` → ``pm.hook.render_output``.

The dispatcher knows lorebook's event hooks, not any agent's wire format: a
plugin (for Claude Code, :mod:`lorebook.hooks.claude_code`) turns stdin into
a :class:`~lorebook.events.HookEvent` and the results into the JSON object
printed on stdout. It fails open: whatever goes wrong, it prints a harmless
JSON object, logs the traceback (redacted) under the user dir and exits 0.
Exit code 2 would block the user's prompt or tool, so it is never used.
"""
from __future__ import annotations

import json
import sys

from .config import log  # the hook log (one writer, in config, which flag() also uses)

# lorebook's event hooks (hookspecs.py); `lorebook hook` also takes them dashed or in CamelCase
EVENT_HOOKS = ("session_start", "user_prompt_submit", "post_tool_use", "post_tool_use_failure", "subagent_stop",
               "stop", "pre_compact", "session_end")

MAX_STDIN_BYTES = 64 * 1024 * 1024


def hook_name_for(event_arg: str) -> str | None:
    """The event hook named by ``session-start``, ``session_start`` or ``SessionStart``; None if there is none."""
    name = "".join("_" + c.lower() if c.isupper() and i else c.lower() for i, c in enumerate(event_arg))
    name = name.replace("-", "_")
    return name if name in EVENT_HOOKS else None


def run_hook(event_arg: str, raw: bytes) -> dict:
    """The JSON object to print for one hook call. Raises only on internal errors."""
    from .config import disabled

    if disabled():
        return {}
    hook_name = hook_name_for(event_arg)
    if hook_name is None:
        log(event_arg, f"unknown event {event_arg!r}: ignored")
        return {}
    if len(raw) > MAX_STDIN_BYTES:
        log(hook_name, f"stdin of {len(raw)} bytes is over {MAX_STDIN_BYTES}: ignored")
        return {}
    from .plugins import load_plugins

    pm = load_plugins()
    event = pm.hook.parse_event(name=hook_name, raw=raw)
    if event is None:
        log(hook_name, f"stdin is not a hook payload ({len(raw)} bytes): ignored")
        return {}
    from .routes import claim

    first_route = claim(event.session_id, hook_name, raw)
    if first_route is not None:
        return _second_route_output(event, hook_name, first_route)
    from .spool import attach, drain_quietly
    from .store import HOOK_BUSY_TIMEOUT_S, Store

    # never stall Claude Code on another process's lock, nor on a checkpoint's fsyncs as the hook ends
    store = Store(busy_timeout=HOOK_BUSY_TIMEOUT_S, checkpoint_on_close=False)
    try:
        # capture that meets the lock waits in the spool; what earlier hooks left there is stored first
        spool = attach(store, log=lambda message, exc=None: log(hook_name, message, exc))
        results = getattr(pm.hook, hook_name)(event=event, store=store)
        drain_quietly(store, spool, wait=False)  # ours or others', if the lock is free now
    finally:
        store.close()
    event.notice = config_warning(event.session_id)  # e.g. a broken config.json: the agent's plugin shows it
    return pm.hook.render_output(event=event, results=results) or {}


def config_warning(session_id) -> str | None:
    """What is wrong with the settings, said once per session (the Claude Code plugin shows it as a systemMessage)."""
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


def _second_route_output(event, hook_name: str, first_route: str) -> dict:
    """A second lorebook registration fired this event: skip it, and tell the user once per session."""
    from .routes import current_route, duplicate_message, should_warn

    log(hook_name, f"skipped: already handled by {first_route} (this call came by {current_route()})")
    if not should_warn(event.session_id):
        return {}
    # systemMessage: shown to the user by Claude Code (other agents ignore the key)
    return {"systemMessage": duplicate_message(first_route, current_route())}


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
