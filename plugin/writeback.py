"""Writeback: turn a session into a reusable lesson, or into nothing.

Deterministic: a failure that was later resolved (the same command failing,
then succeeding after a change) is a candidate; the last assistant message
supplies the stated cause and fix. A session with nothing reusable gives
no note.
"""
from __future__ import annotations

import os

from .store import Store
from .text import bounded, one_line

SOURCE_AGENT = "claude-code"
EDIT_TOOLS = ("Edit", "Write", "MultiEdit", "NotebookEdit")


def resolved_failures(observations: list[dict]) -> list[tuple[dict, list[dict], dict]]:
    """(failure, changes in between, success) for each command that failed, then passed after a change."""
    chains = []
    for i, failure in enumerate(observations):
        if failure["outcome"] != "error" or failure["tool"] != "Bash" or not failure.get("target"):
            continue
        changes: list[dict] = []
        for later in observations[i + 1:]:
            if later["tool"] in EDIT_TOOLS and later["outcome"] == "ok":
                changes.append(later)
            elif later["tool"] == "Bash" and later.get("target") == failure["target"]:
                if later["outcome"] == "ok" and changes:
                    chains.append((failure, changes, later))
                break  # failed again, or passed with no change between: not this chain
    return chains


def candidate_from_session(store: Store, session_id: str, last_message: str | None) -> dict | None:
    """The lesson a session teaches, or None."""
    session = store.get_session(session_id)
    if session is None:
        return None
    chains = resolved_failures(store.session_observations(session_id))
    if not chains:
        return None
    failure, changes, success = chains[-1]
    files = sorted({f for change in changes for f in change.get("files") or []})
    command = one_line(failure["target"], 120)
    signature = failure.get("error_signature")
    error_excerpt = bounded(failure.get("error_text") or failure.get("body") or "", 600)
    stated = (last_message or "").strip()
    change_text = stated or "Edited " + ", ".join(files)
    title = f"`{command}` failed" + (f" with {signature}" if signature else "") + (
        f"; fixed in {', '.join(os.path.basename(f) for f in files)}" if files else "")
    return {
        "title": one_line(title, 160),
        "summary": one_line(stated, 300) if stated else one_line(title, 300),
        "kind": "fix",
        "trigger": f"Running `{command}`" + (f" fails with: {signature}" if signature else " fails"),
        "evidence": [{"quote": error_excerpt, "source": f"observation {failure['id']} ({failure['tool']})",
                      "observation_id": failure["id"]}],
        "change": bounded(change_text, 1500) + (f"\nFiles changed: {', '.join(files)}" if files else ""),
        "validation": {"passed": [f"`{command}` succeeded after the change (observation {success['id']})"],
                       "not_performed": []},
        "scope": "project",
        "project_key": session["project_key"],
        "files": files,
        "error_signatures": [signature] if signature else [],
        "source_agent": SOURCE_AGENT,
        "session_id": session_id,
        "run_key": f"{session_id}:{failure['id']}",
        "observation_ids": [failure["id"], *(c["id"] for c in changes), success["id"]],
        "verified": 1,
    }


def write_back(store: Store, session_id: str, last_message: str | None) -> dict | None:
    """Derive and store the session's lesson; the receipt, or None with nothing to write.

    A retry with the same run key returns the first decision and writes nothing.
    """
    candidate = candidate_from_session(store, session_id, last_message)
    if candidate is None:
        return None
    receipt = store.get_receipt(candidate["source_agent"], candidate["run_key"])
    if receipt is not None:
        return receipt
    with store.atomic():
        note_id = store.add_note(candidate)
        store.add_receipt({"source_agent": candidate["source_agent"], "run_key": candidate["run_key"],
                           "decision": "created", "note_id": note_id, "reasons": ["resolved-failure"]})
    return store.get_receipt(candidate["source_agent"], candidate["run_key"])

