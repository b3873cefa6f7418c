"""Where a note came from, in the one shape every face (MCP, CLI, search, recall, llm, corpora) returns.

``provenance(note)`` is::

    {"source_agent": str | None,   # the agent that recorded it ("claude-code", "lorebook", …), as lorebook knows it
     "claimed_agent": str | None,  # what a writer over MCP called itself: a claim, never checked
     "session_id": str | None,     # the session it was learned in
     "run_key": str | None,        # the writer's idempotency key, when it gave one
     "observation_ids": list[int], # the captured tool events it was derived from
     "created_at": str | None,     # ISO 8601, UTC
     "updated_at": str | None,     # ISO 8601, UTC: the last merge or edit
     "verified": bool,             # a check that passed after the change is on record, or a person said so
     "verified_by": str | None}    # "observation", "check" (quoted with its source), "person"; "claimed":
                                   # the writer said verified with no check on record (verified is False)

``provenance_labels`` turns that into the words text faces print.
"""
from __future__ import annotations


def provenance(note: dict) -> dict:
    """Who recorded a note, when, from what, and whether it was verified."""
    return {
        "source_agent": note.get("source_agent"),
        "claimed_agent": note.get("claimed_agent"),
        "session_id": note.get("session_id"),
        "run_key": note.get("run_key"),
        "observation_ids": note.get("observation_ids") or [],
        "created_at": note.get("created_at"),
        "updated_at": note.get("updated_at"),
        "verified": bool(note.get("verified")),
        "verified_by": note.get("verified_by"),
    }


def provenance_labels(prov: dict) -> dict:
    """A provenance as text: ``{"date": "2026-01-31", "source": "claude-code session 1a2b3c4d", "verified": "verified"}``."""
    return {
        "date": str(prov.get("updated_at") or prov.get("created_at") or "")[:10],
        "source": f"{prov.get('source_agent') or 'unknown agent'} session {(prov.get('session_id') or '?')[:8]}"
                  + (f" (the writer calls itself \"{prov['claimed_agent']}\", unchecked)"
                     if prov.get("claimed_agent") else ""),
        "verified": verified_label(prov),
    }


def verified_label(prov: dict) -> str:
    """Verified (by a check on record, or by a person), claimed by the writer with no check, or not verified."""
    if prov.get("verified"):
        return "verified by a person" if prov.get("verified_by") == "person" else "verified"
    if prov.get("verified_by") == "claimed":
        return "claimed verified by the agent (no check on record)"
    return "not verified"
