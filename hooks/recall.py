"""SessionStart: inject the project's most useful notes, within the token budget."""
from __future__ import annotations

from lorebook import hookimpl
from lorebook.config import load_config
from lorebook.render import render_context

from .sessions import ensure_session


@hookimpl
def session_start(event, store):
    session = ensure_session(event, store)
    if session is None:
        return None
    budget = int(load_config()["context_budget"])
    notes = store.project_notes(session["project_key"], limit=40)
    text, shown = render_context(notes, budget)
    if shown:
        store.record_recalls(event.session_id, shown, "session_start")
    return text or None
