"""One route at a time: when two lorebook registrations fire the same hook event, only the first one runs.

A user can register lorebook several ways at once (``lorebook install``, the
project's settings, ``claude --plugin-dir``, the marketplace plugin); Claude
Code then runs every hook once per registration, so the memory would be
injected twice. Each hook call claims a marker named after its session, its
event and a hash of its stdin (an atomic create: the first one wins); a call
that finds a fresh marker left by another route is the same event arriving
twice (the same route twice is a retry or a replay, and runs). It
does nothing but tell the user, once per session, how to remove the extra
route. Standard library only, and no pathlib: this runs on the hook path.
Capture events are not claimed: an observation is stored once per
``tool_use_id`` whichever route delivers it, so a second copy costs nothing.
"""
from __future__ import annotations

import hashlib
import os
import time

# the same event from two routes arrives within a moment; an identical payload later is a new event
DUPLICATE_WINDOW_S = 20.0
MARKER_TTL_S = 24 * 3600
MARKERS_DIR = "routes"  # in the data dir
ROUTE_ENV = "LOREBOOK_ROUTE"  # set by the plugin's launchers (hooks/lorebook-hook): "plugin:<plugin root>"
# events whose second copy would inject, write back or ask twice (capture is idempotent by tool_use_id)
CLAIMED_EVENTS = ("session_start", "user_prompt_submit", "stop", "pre_compact", "session_end")


def current_route() -> str:
    """How this hook call was registered: ``plugin:<dir>`` through the plugin's launcher, else ``settings``."""
    return os.environ.get(ROUTE_ENV) or "settings"


def describe_route(route: str) -> str:
    if route.startswith("plugin:"):
        return f"the Claude Code plugin at {route[len('plugin:'):]}"
    return "the hooks `lorebook install` put in a Claude Code settings file"


def _markers_dir() -> str:
    from .config import user_dir_str

    return os.path.join(user_dir_str(), MARKERS_DIR)


def _session_dir(session_id: str) -> str:
    return os.path.join(_markers_dir(), hashlib.sha256(session_id.encode("utf-8", "replace")).hexdigest()[:24])


def _create(path: str, content: str) -> bool:
    """Create ``path`` holding ``content``, atomically (a reader never sees it empty); False if it exists."""
    tmp = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fp:
        fp.write(content)
    try:
        os.link(tmp, path)  # fails when the marker exists: the first one wins
    except FileExistsError:
        return False
    finally:
        os.unlink(tmp)
    return True


def claim(session_id: str | None, hook_name: str, raw: bytes) -> str | None:
    """None when this call should run; else the route that already ran this very event (we are the extra one)."""
    if not session_id or hook_name not in CLAIMED_EVENTS:
        return None
    try:
        directory = _session_dir(session_id)
        os.makedirs(directory, mode=0o700, exist_ok=True)
    except OSError:
        return None  # no marker, no de-duplication: running twice beats not running
    marker = os.path.join(directory, f"{hook_name}-{hashlib.sha256(raw).hexdigest()[:24]}")
    route = current_route()
    for _ in range(2):
        try:
            created = _create(marker, route)
        except OSError:
            return None
        if created:
            if hook_name == "session_start":
                prune()
            return None
        try:
            age = time.time() - os.stat(marker).st_mtime
            with open(marker, encoding="utf-8") as fp:
                first = fp.read()
        except OSError:
            continue  # removed under us: try to create it again
        if first == route:
            return None  # the same route again (a retry, a replay): not a second registration
        if age <= DUPLICATE_WINDOW_S:
            return first or "settings"
        try:  # the same payload again, much later (a resumed session): a new event
            os.unlink(marker)
        except OSError:
            pass
    return None


def should_warn(session_id: str) -> bool:
    """True the first time a session's extra route is noticed (the user is told once per session)."""
    return _create(os.path.join(_session_dir(session_id), "warned"), "")


def duplicate_message(first: str, second: str) -> str:
    """What the user reads: the two routes and how to keep one."""
    routes = {first, second}
    lines = [f"lorebook is registered twice for this session: by {describe_route(first)} and by "
             f"{describe_route(second)}. Each hook ran once (lorebook skipped the second copy), but keep one route:"]
    if any(r.startswith("plugin:") for r in routes):
        lines.append("to keep the plugin, run `lorebook uninstall` (and `lorebook uninstall --project` in a project "
                     "that registered it); to keep the settings, stop passing --plugin-dir or run "
                     "`claude plugin uninstall lorebook@<marketplace>`.")
    else:
        lines.append("both ~/.claude/settings.json and this project's .claude/settings.json register it: "
                     "`lorebook uninstall --project` (or `lorebook uninstall`) removes one.")
    lines.append("`lorebook doctor` lists the active routes.")
    return " ".join(lines)


def prune(max_age_s: float = MARKER_TTL_S) -> None:
    """Forget the markers of sessions older than a day (called now and then; never raises)."""
    try:
        now = time.time()
        for entry in os.scandir(_markers_dir()):
            try:
                if now - entry.stat().st_mtime <= max_age_s:
                    continue
                for marker in os.scandir(entry.path):
                    os.unlink(marker.path)
                os.rmdir(entry.path)
            except OSError:
                continue
    except OSError:
        pass
