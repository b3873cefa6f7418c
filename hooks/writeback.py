"""Stop: write back the session's lesson. SessionEnd / PreCompact: record the last message."""
from __future__ import annotations

from lorebook import hookimpl
from lorebook.writeback import write_back

from .sessions import ensure_session


@hookimpl(trylast=True)
def stop(event, store):
    if ensure_session(event, store) is None:
        return None
    message = event.payload.get("last_assistant_message")
    message = message if isinstance(message, str) else None
    if message:
        from lorebook.redact import redact

        message = redact(message)
        store.update_session(event.session_id, last_assistant_message=message)
    write_back(store, event.session_id, message)
    return None
