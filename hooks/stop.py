"""Claude Code's Stop: write back the session's lesson, fast, without ever blocking the agent by default.

The deterministic writeback runs in the hook (well under a second: no model,
no vectors). With ``LOREBOOK_MODEL`` set, a detached ``lorebook refine``
process asks that model to improve the record afterwards; the hook never
imports ``llm``. With ``LOREBOOK_STOP_PROMPT`` (``resolved``: after a resolved
failure; ``1``: after any failure or edit; off by default, see bench/stop_prompt.py)
the agent is asked, once per session and never while ``stop_hook_active``, to
record its lesson through the MCP tool ``write_task_memory`` when lorebook found
nothing to write itself.
"""
from __future__ import annotations

import os

from lorebook import hookimpl
from lorebook.config import flag
from lorebook.events import EDIT_TOOLS
from lorebook.sessions import ensure_session
from lorebook.spawn import spawn_detached

STOP_PROMPT_KEY = "stop-prompt"
STOP_PROMPT = (
    "lorebook (memory plugin): before you stop, if this session taught something a future session should know "
    "(a cause you found, a fix that worked, including a change to how a command is run, a pitfall, a decision "
    "and its reason), record it once with the MCP tool write_task_memory, for a reader who never saw this "
    "session: title (the problem and its fix in one line, e.g. '`pytest` fails with ModuleNotFoundError: app "
    "— run it with PYTHONPATH=src'), summary (the cause and the fix, one or two sentences), trigger, evidence "
    "(the error line quoted, and one line per attempt that did not help: 'tried X: still failed with …'), "
    "change (the net change only: the final diff or the final command, paths relative to the project root), "
    "validation (the check that passed after the change; what was not checked), scope and conditions. "
    "If it taught nothing reusable, just stop: do not write status notes."
)


def stop_prompt_mode() -> str:
    """LOREBOOK_STOP_PROMPT: ``resolved`` (ask only after a resolved failure lorebook could not turn into a
    lesson), ``1``/``always`` (ask after any failure or edit), ``0``/``off`` (never)."""
    value = os.environ.get("LOREBOOK_STOP_PROMPT", "").strip().lower()
    if value in ("resolved", "auto"):
        return "resolved"
    if value == "always":
        return "always"
    return "always" if flag("LOREBOOK_STOP_PROMPT", False) else "off"


def _resolved_failure(observations: list[dict]) -> bool:
    """A command failed and a later run of the same program passed: the session found something out."""
    from lorebook.commands import command_family

    failed: set[str] = set()
    for o in observations:
        if o["tool"] != "Bash" or not o.get("target"):
            continue
        family = command_family(o["target"])
        if o["outcome"] == "error":
            failed.add(family)
        elif family in failed:
            return True
    return False


def would_ask(mode: str, observations: list[dict], results: list[dict]) -> bool:
    """Whether Stop asks the agent for its lesson, by the session's observations and writeback results."""
    if mode == "off" or any(r["decision"] in ("created", "merged") for r in results):
        return False  # lorebook already recorded the lesson itself
    codes = {code for r in results for code in r.get("reason_codes") or []}
    if "instruction_injection" in codes:
        return False  # the session's own account tried to steer future agents: do not invite more of it
    if mode == "resolved" and (not _resolved_failure(observations)
                               or codes and codes <= {"retry_without_change", "self_inflicted", "flaky_failure",
                                                                   "local_state"}):
        return False  # no failure was resolved, or lorebook knows the fix taught nothing (a plain retry, a typo)
    # nothing happened that could hold a lesson
    return any(o["outcome"] == "error" or o["tool"] in EDIT_TOOLS for o in observations)


def _should_ask(event, store, results: list[dict]) -> bool:
    from lorebook.writeback import SOURCE_AGENT

    mode = stop_prompt_mode()
    if mode == "off" or event.payload.get("stop_hook_active"):
        return False
    if not would_ask(mode, store.session_observations(event.session_id), results):
        return False
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
        from lorebook.sessions import session_redacted

        message = session_redacted(store, event.session_id, message)
        store.update_session(event.session_id, last_assistant_message=message)
    from lorebook.sessions import write_back_or_defer

    results = write_back_or_defer(store, event.session_id, message)
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
