"""Claude Code's Stop: write back the session's lesson, fast, without ever blocking the agent by default.

The deterministic writeback runs in the hook (well under a second: no model,
no vectors). With ``LOREBOOK_MODEL`` set, a detached ``lorebook refine``
process asks that model to improve the record afterwards; the hook never
imports ``llm``. With ``LOREBOOK_STOP_PROMPT=1`` the agent is asked, once per
session and never while ``stop_hook_active``, to record its lesson through the
MCP tool ``write_task_memory`` when lorebook found nothing to write itself.
"""
from __future__ import annotations

import os

from lorebook import hookimpl
from lorebook.config import flag
from lorebook.sessions import ensure_session
from lorebook.spawn import spawn_detached

STOP_PROMPT_KEY = "stop-prompt"
STOP_PROMPT = (
    "lorebook (memory plugin): before you stop, if this session taught something a future session should know "
    "(a cause you found, a fix that worked, a pitfall, a decision and its reason), record it once with the MCP "
    "tool write_task_memory: title, trigger, evidence (quoted), change, validation (what passed, what was not "
    "checked), scope and conditions. If it taught nothing reusable, just stop: do not write status notes."
)


def _should_ask(event, store, results: list[dict]) -> bool:
    from lorebook.writeback import SOURCE_AGENT

    if not flag("LOREBOOK_STOP_PROMPT", False) or event.payload.get("stop_hook_active"):
        return False
    if any(r["decision"] in ("created", "merged") for r in results):
        return False  # lorebook already recorded the lesson itself
    observations = store.session_observations(event.session_id)
    if not any(o["outcome"] == "error" or o["tool"] in ("Edit", "Write", "MultiEdit") for o in observations):
        return False  # nothing happened that could hold a lesson
    run_key = f"{event.session_id}:{STOP_PROMPT_KEY}"
    if store.get_receipt(SOURCE_AGENT, run_key) is not None:
        return False  # asked once already in this session
    store.add_receipt({"source_agent": SOURCE_AGENT, "run_key": run_key, "decision": "skipped",
                       "reasons": [{"code": "asked_agent", "severity": "info", "field": None,
                                    "message": "the agent was asked once to record its lesson"}]})
    return True


def stop(event, store) -> dict | None:
    """Write back what the session taught; a Stop decision only to ask the agent for its lesson."""
    if ensure_session(event, store) is None:
        return None
    message = event.payload.get("last_assistant_message")
    message = message if isinstance(message, str) else None
    if message:
        from lorebook.redact import redact

        message = redact(message)
        store.update_session(event.session_id, last_assistant_message=message)
    from lorebook.writeback import write_back

    results = write_back(store, event.session_id, message)
    if any(r.get("decision") in ("created", "merged") for r in results):
        # the note is committed; its vectors come from a detached `lorebook index` (never in the hook)
        from lorebook.vectors import start_index_detached

        start_index_detached()
    # a model may see a lesson the deterministic pass missed; only for decisions taken now, not replays
    if os.environ.get("LOREBOOK_MODEL", "").strip() and not event.payload.get("stop_hook_active") and any(
            not r.get("replayed") and (r.get("origin") != "none"
                                       or not set(r.get("reason_codes") or []) <= {"exploration_only", "no_activity"})
            for r in results):
        spawn_detached(["refine", event.session_id])
    if _should_ask(event, store, results):
        return {"decision": "block", "reason": STOP_PROMPT}
    return None


class Stop:
    """The plugin: Claude Code's Stop event (the session's end is the core's, :mod:`lorebook.sessions`)."""

    @hookimpl(trylast=True)
    def stop(self, event, store):
        return stop(event, store)


plugin = Stop()
