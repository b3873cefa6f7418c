"""Sessions and their projects, as Claude Code reports them."""
from __future__ import annotations

import os

from lorebook.events import HookEvent
from lorebook.store import Store


def ensure_session(event: HookEvent, store: Store) -> dict | None:
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
