"""The session lifecycle, one plugin: a session is created on first sight, backfilled, closed and written back.

Every event hook may be the first a session sends (a hook can be missed), so
each plugin that needs the session row asks :func:`ensure_session`, which is
idempotent; no plugin relies on another running first. The end of a session
is one ordered sequence here: backfill what live capture missed (through the
``backfill_session`` hook: the agent's plugin knows where its transcript is),
close the session, write back what it taught.
"""
from __future__ import annotations

import contextlib
import os

from . import hookimpl


def subagent_session_id(parent_session_id: str, agent_id: str) -> str:
    """The session id lorebook gives a subagent of ``parent_session_id``."""
    return f"{parent_session_id}/agent-{agent_id}"


@contextlib.contextmanager
def secrets_remembered(store, session_id: str | None):
    """Within the block, what redaction replaces is remembered for the session, as keyed fingerprints (never the
    values), so that :func:`seen_secrets_redacted` finds it again where no rule would. Yields the set those
    fingerprints are put in when the block ends (for the rest of what the same event stores)."""
    from .redact import collecting

    prints: set[str] = set()
    with collecting() as seen:
        yield prints
    if seen and session_id:
        from .config import print_key
        from .redact import fingerprints

        prints |= fingerprints(seen, print_key())
        store.add_secret_prints(session_id, prints)


def seen_secrets_redacted(store, session_id: str | None, *texts, prints: set[str] | None = None):
    """``texts`` (strings, or None) with every secret the session redacted before redacted again: the value of a
    ``BUNDLE_GEMS__…=`` line that the agent's last message quotes as "the value (7d1e…) is in .env.local".
    ``prints``: the session's fingerprints when the caller has read them already."""
    if prints is None:
        prints = store.secret_prints(session_id) if session_id else set()
    if not prints:
        return list(texts)
    from .config import print_key
    from .redact import redact_seen

    key = print_key()
    return [redact_seen(t, prints, key) if isinstance(t, str) else t for t in texts]


def session_redacted(store, session_id: str | None, text: str | None, redactor=None) -> str:
    """``text`` redacted (by ``redactor``, :func:`lorebook.redact.redact` by default) with what it redacts remembered
    for the session, and every secret the session redacted before redacted in it too."""
    if redactor is None:
        from .redact import redact as redactor
    with secrets_remembered(store, session_id):
        text = redactor(text)
    return seen_secrets_redacted(store, session_id, text)[0]


def ensure_session(event, store) -> dict | None:
    """The session row for this event, created (with its project) on first sight.

    The project is identified once per session and cached on the row, so
    capture hooks do not look for ``.git`` on every tool call.
    """
    session_id = event.session_id
    if session_id is None:
        return None
    session = store.get_session(session_id)
    if session is not None and (session["project_key"] or not event.cwd):
        return session
    project = event.project
    if project is not None:
        canonical = store.canonical_project(project.key)
        if canonical.startswith("path:") and not os.path.isdir(project.root):
            # a deleted worktree or moved checkout: the project it was known under, not a new one
            canonical = store.project_for_root(project.root) or canonical
        store.ensure_project(canonical, project.name, project.root, project.remote)
        project_key = canonical
    else:
        project_key = None
    return store.ensure_session(
        session_id, project_key=project_key, cwd=event.cwd, transcript_path=event.transcript_path
    )


def end_session(event, store) -> list[dict]:
    """Backfill, close and write back a session that ended; the writeback results."""
    from .plugins import pm
    from .store import now

    pm.hook.backfill_session(event=event, store=store)
    reason = event.payload.get("reason")
    store.update_session(event.session_id, status="closed", ended_at=now(),
                         end_reason=reason if isinstance(reason, str) else None)
    # a session can end without a last Stop (interrupted, /clear): receipts make a second writeback a no-op
    session = store.get_session(event.session_id) or {}
    results = write_back_or_defer(store, event.session_id, session.get("last_assistant_message"))
    index_new_notes(results)
    store.checkpoint()
    return results


def index_new_notes(results: list[dict]) -> None:
    """Start a detached ``lorebook index`` when a writeback decided something new (a replayed receipt adds
    nothing to embed)."""
    if any(r.get("decision") in ("created", "merged") and not r.get("replayed") for r in results):
        from .vectors import start_index_detached

        start_index_detached()


def write_back_or_defer(store, session_id: str, message: str | None) -> list[dict]:
    """The session's writeback; when the database stays locked past a hook's short wait, a detached
    ``lorebook writeback SESSION_ID`` does it instead, waiting as long as a command does, so a lesson is never
    lost to a busy moment (receipts make a writeback that already happened a no-op)."""
    from .errors import StoreLocked
    from .writeback import write_back

    try:
        return write_back(store, session_id, message)
    except StoreLocked:
        from .spawn import spawn_detached

        spawn_detached(["writeback", session_id])
        return []


class SessionLifecycle:
    """The plugin: sessions start, are backfilled before compaction, and end here."""

    @hookimpl
    def session_start(self, event, store):
        ensure_session(event, store)

    @hookimpl
    def pre_compact(self, event, store):
        if ensure_session(event, store) is not None:
            from .plugins import pm

            pm.hook.backfill_session(event=event, store=store)

    @hookimpl
    def session_end(self, event, store):
        if ensure_session(event, store) is not None:
            end_session(event, store)


plugin = SessionLifecycle()
