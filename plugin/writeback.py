"""Writeback at Stop: turn a session into reusable lessons, or into nothing.

The steps live in their own modules: :mod:`lorebook.candidates` derives the
lessons a session teaches, :mod:`lorebook.decision` preflights each and decides
created, merged or skipped (with a receipt), :mod:`lorebook.record` is the
record's shape, and :mod:`lorebook.refine` lets an ``llm`` model improve it in a
detached process.
"""
from __future__ import annotations

import re

from .candidates import REASON_TEXT, session_candidates
from .decision import _receipt_result, write_memory
from .store import Store

SOURCE_AGENT = "claude-code"
# new lessons one Stop may write; a long session's earlier lessons were decided at earlier Stops (receipts)
MAX_NEW_LESSONS = 5


def write_back(store: Store, session_id: str, last_message: str | None, *, source_agent: str = SOURCE_AGENT,
               use_vectors: bool = False, index: bool = False) -> list[dict]:
    """Derive and write the session's lessons (automatic mode); one result per candidate, or one "skipped".

    Safe to repeat: every candidate's receipt is keyed by the session and the
    observation it starts from, so a replayed Stop returns the first decisions.
    """
    details: dict[str, list[str]] = {}
    candidates, notes = session_candidates(store, session_id, last_message, details)
    from .quality import _INJECTION

    # (an element quoted alone as code is the file's, not a role's tag: pfSense's "the `<system>` section of
    # config.xml"; stored, it is neutralized as any text is)
    if candidates and last_message and _INJECTION.search(
            re.sub(r"`</?(?:system|instructions?)>`", "`element`", last_message)):
        # the session's own account tries to steer future agents: none of its lessons can be trusted as written
        candidates, notes = [], sorted(set(notes) | {"instruction_injection"})
    results = []
    fresh = 0
    for candidate in candidates:
        run_key = f"{session_id}:{candidate.pop('_run_key')}"
        origin = candidate.pop("_reason")
        if store.get_receipt(source_agent, run_key) is None:
            if fresh >= MAX_NEW_LESSONS:
                continue  # a session is not a flood: the rest wait for the next Stop
            fresh += 1
        result = write_memory(store, candidate, mode="auto", source_agent=source_agent, source_run_key=run_key,
                              session_id=session_id, use_vectors=use_vectors, index=index)
        result.update(run_key=run_key, origin=origin)
        results.append(result)
    if not results:
        observations = store.session_observations(session_id)
        run_key = f"{session_id}:none:{observations[-1]['id'] if observations else 0}"
        receipt = store.get_receipt(source_agent, run_key)
        fresh = receipt is None
        if receipt is None:
            # each code with the failures it is about, so one session's many failures stay readable
            reasons = [{"code": code, "severity": "skip", "field": None,
                        "message": REASON_TEXT.get(code, code) + (
                            ": " + "; ".join(list(dict.fromkeys(details[code]))[:3]) if details.get(code) else "")}
                       for code in notes]
            store.add_receipt({"source_agent": source_agent, "run_key": run_key, "decision": "skipped",
                               "note_id": None, "merged_into": None, "reasons": reasons, "warnings": []})
            receipt = store.get_receipt(source_agent, run_key)
        results.append(dict(_receipt_result(store, receipt), run_key=run_key, origin="none", replayed=not fresh))
    return results


def learn_from_sessions(store: Store, session_ids, progress=None, *, source_agent: str = SOURCE_AGENT) -> dict:
    """Write back each of ``session_ids`` as its Stop would have (automatic mode; ``lorebook import --learn``).

    ``progress`` is called once per session. Returns the counts of created,
    merged and skipped decisions, and the ids of the notes created. Receipts make
    it safe to repeat: a session learned from before returns its first decisions.
    """
    counts = {"sessions": 0, "created": 0, "merged": 0, "skipped": 0, "already_decided": 0, "note_ids": []}
    for session_id in session_ids:
        session = store.get_session(session_id)
        if session is not None:
            counts["sessions"] += 1
            for result in write_back(store, session_id, session.get("last_assistant_message"),
                                     source_agent=source_agent):
                if result.get("replayed"):
                    counts["already_decided"] += 1
                    continue
                counts[result["decision"]] = counts.get(result["decision"], 0) + 1
                if result["decision"] == "created" and result.get("note_id"):
                    counts["note_ids"].append(result["note_id"])
        if progress is not None:
            progress(1)
    return counts
