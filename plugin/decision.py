"""Preflight and decide: created, merged or skipped, with a receipt.

Shared by the Stop hook, ``lorebook write`` and the MCP tools. Preflight runs
the named checks of :mod:`lorebook.quality` (automatic mode skips what manual
mode accepts with warnings); the decision is created, merged (a near-duplicate:
evidence and validation are added, the old state kept in ``note_revisions``) or
skipped, with a receipt keyed by (source_agent, run key), so a retry returns
the same decision. The note is committed before its vectors
(``index_status = pending``); ``lorebook index`` embeds whatever is pending.
"""
from __future__ import annotations

import os

from .quality import LazyRegex
from .record import MEMORY_FIELDS, MODES, normalize_memory, redacted
from .store import Store


def _reason_text(reasons: list[dict]) -> str:
    return "; ".join(f"{r['code']}: {r['message']}" for r in reasons)


def _project_key_for(store: Store, session_id: str | None) -> str | None:
    if session_id:
        session = store.get_session(session_id)
        if session and session.get("project_key"):
            return session["project_key"]
    from .project import identify

    project = identify(os.getcwd())
    if project is None:
        return None
    return store.canonical_project(project.key)


def _new_evidence(note: dict, record: dict) -> list[dict]:
    have_ids = set(note.get("observation_ids") or []) | {e.get("observation_id") for e in note.get("evidence") or []
                                                          if isinstance(e, dict)}
    have_quotes = {" ".join(str(e.get("quote", "")).split()).lower() for e in note.get("evidence") or []
                   if isinstance(e, dict)}
    fresh = []
    for item in record.get("evidence") or []:
        if item.get("observation_id") is not None and item["observation_id"] in have_ids:
            continue
        if " ".join(item["quote"].split()).lower() in have_quotes:
            continue
        fresh.append(item)
    return fresh


# --- verified is computed, never asserted ---------------------------------------------------

_RESULT = LazyRegex(r"(?i)\b(?:pass(?:es|ed)?|ok|green|succeed(?:s|ed)?|success(?:ful)?|exit(?:s|ed)?\s+(?:code\s+)?0|"
                     r"no\s+(?:errors?|failures?)|clean|works?)\b")
_SOURCED = LazyRegex(r"`[^`]+`|\([^)]{3,}\)|^[^:]{2,80}:\s|\b(?:job|run|build|pipeline|workflow)\s+#?\d+|https?://")
_OBSERVATION_REF = LazyRegex(r"(?i)\bobservation\s+#?(\d+)")
VERIFIED_BY_RANK = {None: 0, "claimed": 1, "check": 2, "observation": 3, "person": 4}


def verification(store: Store, record: dict) -> tuple[int, str | None]:
    """(verified, verified_by) for a record: verified when a check that passed after the change is on record.

    "observation": a passed check names an observation of this record that the
    store holds; "check": a passed check quoted with its source (a command in
    backticks, "command: result", a CI job, a link) and a result; "claimed": the
    writer said ``verified`` with no such check (kept, shown as claimed, not boosted).
    """
    passed = (record.get("validation") or {}).get("passed") or []
    own = set(record.get("observation_ids") or [])
    for check in passed:
        for ref in _OBSERVATION_REF.findall(check):
            if int(ref) in own and store.get_observation(int(ref)) is not None:
                return 1, "observation"
    if any(_RESULT.search(check) and _SOURCED.search(check) for check in passed):
        return 1, "check"
    return 0, ("claimed" if record.get("verified") else None)


# --- restating a recalled note is not corroboration -------------------------------------------

RESTATEMENT_LEXICAL = 0.5    # share of a quote's weighted words already in the note: a restatement
RESTATEMENT_COSINE = 0.8     # or this close in meaning to something the note already says


def _restatements(note: dict, quotes: list[str], use_vectors: bool) -> list[bool]:
    """For each quote, whether it only says again what ``note`` says (by meaning, not by exact words)."""
    from .relations import tokens, vector_similarities

    said = [str(e.get("quote") or "") for e in note.get("evidence") or [] if isinstance(e, dict)]
    said += [str(note.get(f) or "") for f in ("title", "summary", "trigger", "change")]
    said = [t for t in said if t.strip()]
    have = tokens("\n".join(said))
    out = []
    for quote in quotes:
        mine = tokens(quote)
        total = sum(mine.values())
        covered = sum(w for k, w in mine.items() if k in have)
        out.append(bool(total) and covered / total >= RESTATEMENT_LEXICAL)
    if use_vectors and said and not all(out):
        pending = [i for i, r in enumerate(out) if not r]
        pairs = [(quotes[i], t) for i in pending for t in said]
        cosines = vector_similarities([q for q, _ in pairs], [t for _, t in pairs])
        if cosines:
            for n, i in enumerate(pending):
                if max(cosines[n * len(said):(n + 1) * len(said)]) >= RESTATEMENT_COSINE:
                    out[i] = True
    return out


def _independent_evidence(store: Store, note: dict, record: dict, use_vectors: bool) -> list[dict]:
    """The record's evidence that is new to ``note`` when ``note`` was recalled into the writer's session:
    an observation the note does not hold, or a quote that does not restate the note (by meaning)."""
    fresh = _new_evidence(note, record)
    stated = [item for item in fresh if item.get("observation_id") is None]
    restated = _restatements(note, [item["quote"] for item in stated], use_vectors) if stated else []
    dropped = {id(item) for item, again in zip(stated, restated) if again}
    return [item for item in fresh if id(item) not in dropped]


def _scope_for(record: dict, mode: str) -> dict | None:
    """A manual global lesson without conditions is stored for its project (a warning says so); None: as is."""
    from .quality import word_count

    if record.get("scope") != "global" or word_count(record.get("conditions")) >= 3:
        return None
    if mode != "manual" or not record.get("project_key"):
        return None
    record["scope"] = "project"
    return {"code": "stored_as_project", "severity": "warn", "field": "conditions", "message": (
        "It claims global scope without conditions, so it is stored for this project only; give the "
        "conditions (language, tool, version, OS) under which it holds to make it global.")}


def plan(store: Store, record: dict, *, mode: str, session_id: str | None = None,
         use_vectors: bool = True, local_vectors: bool = True) -> dict:
    """What writing ``record`` would do, without writing: the preflight verdict and the decision.

    Only a note of the same scope can absorb it (a project note for a project
    lesson of that project, a global note for a global one), and only a true
    duplicate: the same problem with the same fix. A global lesson with
    conditions that repeats a project note promotes it (the project note is
    superseded by the global one). A note it contradicts is named in a warning.
    """
    from .quality import run_checks, verdict
    from .relations import RELATED_THRESHOLD, ask_server_neighbours, closest_notes

    demoted = _scope_for(record, mode)
    stored = redacted(record)
    # the warm embedding server (where it runs) embeds and ranks while the checks and bm25 comparisons run here
    server_answer = ask_server_neighbours(stored) if use_vectors else None
    findings = run_checks(record)
    accepted, blocking, warnings = verdict(findings, mode)
    stored["verified"], stored["verified_by"] = verification(store, stored)
    result = {"accepted": accepted, "decision": "skipped", "merged_into": None, "related": [], "contradicts": [],
              "promotes": [], "reasons": [f.as_dict() for f in blocking],
              "warnings": [f.as_dict() for f in warnings if not (demoted and f.code == "global_without_conditions")],
              "note": stored}
    if demoted:
        result["warnings"].append(demoted)
    if stored["verified_by"] == "claimed":
        result["warnings"].append({"code": "verified_claimed", "severity": "warn", "field": "validation", "message": (
            "It says verified, but no passed check is on record (an observation, or a passed check quoted with "
            "its source): it is kept as claimed by the writer, not verified.")})
    if not accepted:
        return result
    flags = [f.as_dict() for f in findings if f.severity == "quarantine"]
    if flags:
        # it tries to steer a future agent: kept apart (never merged into a note that is injected), flagged
        result.update(decision="created", quarantined=True, flags=flags)
        return result
    recalled = store.recalled_note_ids(session_id) if session_id else set()
    matches = closest_notes(store, stored, use_vectors=use_vectors, recalled_ids=recalled,
                            local_vectors=local_vectors, server_answer=server_answer)
    same_scope = [m for m in matches if m["note"]["scope"] == stored["scope"]
                  and (stored["scope"] == "global" or m["note"]["project_key"] == stored.get("project_key"))]
    duplicate = next((m for m in same_scope if m["relation"] == "duplicate"), None)
    result["contradicts"] = [m["note"]["id"] for m in matches if m["relation"] == "contradicts"]
    for m in matches:
        if m["relation"] == "contradicts":
            result["warnings"].append({"code": "contradicts", "severity": "warn", "field": "change", "message": (
                f"It contradicts note #{m['note']['id']} ({m['note']['title'][:100]!r}): the same problem with an "
                "incompatible fix. Both are kept and linked; supersede the one that no longer holds.")})
    result["related"] = [m["note"]["id"] for m in matches if m["relation"] == "related"
                         and m["score"] >= RELATED_THRESHOLD and m is not duplicate][:3]
    result["related"] += [m["note"]["id"] for m in matches if m["relation"] == "duplicate" and m not in same_scope
                          and m["note"]["id"] not in result["related"]][:3]
    if stored["scope"] == "global" and stored.get("project_key"):
        result["promotes"] = [m["note"]["id"] for m in matches if m["relation"] == "duplicate"
                              and m["note"]["scope"] == "project"
                              and m["note"]["project_key"] == stored["project_key"]][:1]
    result["derived_from"] = [m["note"]["id"] for m in matches if m["recalled"] and m["relation"] == "related"]
    result["similarity"] = round(duplicate["score"], 3) if duplicate else None
    if duplicate is None:
        result["decision"] = "created"
        if result["promotes"]:
            result["reasons"].append({"code": "promoted", "severity": "info", "field": None, "message": (
                f"It repeats project note #{result['promotes'][0]} with conditions under which it holds anywhere: "
                "the global note supersedes it.")})
        return result
    note = duplicate["note"]
    fresh = (_independent_evidence(store, note, stored, use_vectors and local_vectors) if duplicate["recalled"]
             else _new_evidence(note, stored))
    if duplicate["recalled"] and not fresh:
        result["reasons"].append({"code": "restates_recalled_note", "severity": "skip", "field": None, "message": (
            f"It restates note #{note['id']}, which was recalled into this session, and adds no new evidence "
            "(its quotes say again what the note says): repeating a recalled note is not independent "
            "corroboration.")})
        return result
    if not fresh and not _new_validation(note, stored):
        result["reasons"].append({"code": "already_recorded", "severity": "skip", "field": None, "message": (
            f"Note #{note['id']} already holds this lesson and this evidence.")})
        return result
    result["decision"] = "merged"
    result["merged_into"] = note["id"]
    result["reasons"].append({"code": "near_duplicate", "severity": "info", "field": None, "message": (
        f"The same problem with the same fix as note #{note['id']} (similarity {duplicate['score']:.2f})"
        + ("; it was recalled into this session, so only its new evidence is added" if duplicate["recalled"] else "")
        + ": its evidence and validation are added there.")})
    return result


def _new_validation(note: dict, record: dict) -> bool:
    old = note.get("validation") or {}
    new = record.get("validation") or {}
    return bool(set(new.get("passed") or []) - set(old.get("passed") or []))


def _union(a, b) -> list:
    return list(dict.fromkeys([*(a or []), *(b or [])]))


def merge_into(store: Store, note_id: int, record: dict, reason: str, evidence_only: bool = False,
               use_vectors: bool = False) -> None:
    """Add the record's evidence and validation to the note; the note's previous state goes to note_revisions.

    ``evidence_only`` (the note was recalled into the writer's session): only evidence that does not restate
    the note is added, and nothing else changes."""
    note = store.get_note(note_id)
    fresh = _independent_evidence(store, note, record, use_vectors) if evidence_only else _new_evidence(note, record)
    old_validation = note.get("validation") or {}
    new_validation = record.get("validation") or {}
    passed = _union(old_validation.get("passed"), new_validation.get("passed"))
    not_performed = [v for v in _union(old_validation.get("not_performed"), new_validation.get("not_performed"))
                     if v not in passed]
    fields = {
        "evidence": [*(note.get("evidence") or []), *fresh],
        "validation": {"passed": passed, "not_performed": not_performed},
        "observation_ids": sorted(set(note.get("observation_ids") or []) | set(record.get("observation_ids") or [])),
        "verified": max(int(note.get("verified") or 0), int(record.get("verified") or 0)),
    }
    strongest = max((note.get("verified_by"), record.get("verified_by")), key=lambda v: VERIFIED_BY_RANK.get(v, 0))
    if strongest != note.get("verified_by"):
        fields["verified_by"] = strongest
    if not evidence_only:
        for field in ("files", "error_signatures", "tags", "concepts"):
            fields[field] = _union(note.get(field), record.get(field))
        for field in ("summary", "trigger", "change", "conditions"):
            if not (note.get(field) or "").strip() and (record.get(field) or "").strip():
                fields[field] = record[field]
    store.update_note(note_id, fields, reason, extra_snapshot=record)


def validate_memory(store: Store, memory: dict | str, mode: str = "manual", *, scope: str | None = None,
                    session_id: str | None = None, use_vectors: bool = True, local_vectors: bool = True) -> dict:
    """Preflight a lesson without writing it.

    Returns ``{accepted, decision, reasons, warnings, note}``: reasons are the
    blocking findings (code, message), warnings the rest, and note the record as
    it would be stored (normalised, secrets redacted).
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    record = normalize_memory(memory, scope=scope)
    if record.get("project_key") is None:
        record["project_key"] = _project_key_for(store, session_id)
    result = plan(store, record, mode=mode, session_id=session_id, use_vectors=use_vectors,
                  local_vectors=local_vectors)
    result["reason_codes"] = [r["code"] for r in result["reasons"]]
    result["reason"] = _reason_text(result["reasons"])
    return result


def _receipt_result(store: Store, receipt: dict) -> dict:
    note_id = receipt.get("note_id") or receipt.get("merged_into")
    index_status = None
    if note_id:
        index_status = store.note_index_status(note_id)
    reasons = receipt.get("reasons") or []
    return {"decision": receipt["decision"], "note_id": receipt.get("note_id"),
            "merged_into": receipt.get("merged_into"), "reason": _reason_text(reasons),
            "reasons": reasons, "reason_codes": [r["code"] for r in reasons],
            "warnings": receipt.get("warnings") or [], "index_status": index_status, "replayed": True}


def write_memory(store: Store, memory: dict | str, *, mode: str, source_agent: str, source_run_key: str,
                 scope: str | None = None, session_id: str | None = None, use_vectors: bool | None = None,
                 index: bool = True, local_vectors: bool = True, claimed_agent: str | None = None) -> dict:
    """Preflight and store a lesson: created, merged or skipped, with its reasons and a receipt.

    Returns ``{decision, note_id, merged_into, reason, warnings, index_status}``
    (plus ``reasons`` and ``reason_codes``). ``source_agent`` is lorebook's own
    name for the writer; ``claimed_agent`` what the writer called itself (kept
    beside it as a claim, never as provenance). A second call with the same
    (source_agent, source_run_key) returns the first decision and writes nothing.
    The note is committed before it is embedded: ``index_status`` stays
    ``pending`` until ``lorebook index`` (or this call, when ``index``) embeds it.
    ``local_vectors=False`` (a short-lived process like ``lorebook write``) takes
    cosines only from the warm embedding server, and compares lexically without it.
    """
    if not source_agent or not source_run_key:
        raise ValueError("source_agent and source_run_key are required: they make a retry safe.")
    receipt = store.get_receipt(source_agent, source_run_key)
    if receipt is not None:
        return _receipt_result(store, receipt)
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    record = normalize_memory(memory, scope=scope)
    if record.get("project_key") is None:
        record["project_key"] = _project_key_for(store, session_id)
    if use_vectors is None:
        use_vectors = True
    planned = plan(store, record, mode=mode, session_id=session_id, use_vectors=use_vectors,
                   local_vectors=local_vectors)
    note = planned["note"]
    note_id = merged_into = None
    with store.atomic():
        if store.get_receipt(source_agent, source_run_key) is not None:  # a concurrent retry won the race
            return _receipt_result(store, store.get_receipt(source_agent, source_run_key))
        if planned["decision"] == "created":
            row = {k: v for k, v in note.items() if k in MEMORY_FIELDS}
            row["verified_by"] = note.get("verified_by")
            row.update(source_agent=source_agent, session_id=session_id, run_key=source_run_key,
                       status="quarantined" if planned.get("quarantined") else "active", index_status="pending",
                       flags=planned.get("flags") or [], claimed_agent=claimed_agent)
            note_id = store.add_note(row)
            for other in planned.get("contradicts") or []:
                store.add_relation(note_id, other, "contradicts")
            for other in planned.get("derived_from") or []:
                store.add_relation(note_id, other, "derived_from")
            for other in planned.get("related") or []:
                if other not in (planned.get("derived_from") or []):
                    store.add_relation(note_id, other, "similar_to")
            _link_resolutions(store, note_id, note)
            for other in planned.get("promotes") or []:
                store.add_relation(note_id, other, "supersedes")
                store.update_note(other, {"status": "superseded", "superseded_by": note_id},
                                  f"promoted to global note #{note_id}")
        elif planned["decision"] == "merged":
            merged_into = planned["merged_into"]
            recalled = session_id and merged_into in store.recalled_note_ids(session_id)
            merge_into(store, merged_into, dict(note, source_agent=source_agent, run_key=source_run_key,
                                                session_id=session_id),
                       f"merged from {source_agent} run {source_run_key}", evidence_only=bool(recalled),
                       use_vectors=use_vectors and local_vectors)
        warnings = planned["warnings"]
        store.add_receipt({"source_agent": source_agent, "run_key": source_run_key, "decision": planned["decision"],
                           "note_id": note_id, "merged_into": merged_into, "reasons": planned["reasons"],
                           "warnings": warnings})
    target = note_id or merged_into
    if target and index:
        index_notes(store, [target])
    index_status = None
    if target:
        index_status = store.note_index_status(target)
    return {"decision": planned["decision"], "note_id": note_id, "merged_into": merged_into,
            "reason": _reason_text(planned["reasons"]), "reasons": planned["reasons"],
            "reason_codes": [r["code"] for r in planned["reasons"]], "warnings": warnings,
            "contradicts": planned.get("contradicts") or [], "verified": bool(note.get("verified")),
            "verified_by": note.get("verified_by"), "index_status": index_status, "replayed": False,
            "quarantined": bool(planned.get("quarantined"))}


def _link_resolutions(store: Store, note_id: int, note: dict) -> None:
    """A new fix whose error signature an open pitfall or gotcha names resolves it (``resolved_by``)."""
    signatures = [s for s in note.get("error_signatures") or [] if s]
    if note.get("kind") != "fix" or not signatures:
        return
    for other in store.open_problems_with_signatures(signatures, note.get("project_key"), exclude_id=note_id):
        store.add_relation(other, note_id, "resolved_by")


def index_notes(store: Store, note_ids: list[int]) -> None:
    """Have the fresh note embedded by a detached ``lorebook index``; until then it stays pending."""
    try:
        from .vectors import start_index_detached
    except ImportError:
        return
    start_index_detached()


def verify_note(store: Store, note_id: int, check: str | None = None) -> dict:
    """A person marks the note verified (``lorebook verify``): recorded with a revision, the check kept."""
    note = store.get_note(note_id)
    if note["status"] == "forgotten":
        raise ValueError(f"Note {note_id} was forgotten.")
    fields: dict = {"verified": 1, "verified_by": "person"}
    if check and check.strip():
        validation = note.get("validation") or {}
        passed = _union(validation.get("passed"), [f"{check.strip()} (verified by a person)"])
        fields["validation"] = {"passed": passed, "not_performed": validation.get("not_performed") or []}
    store.update_note(note_id, fields, "verified by a person" + (f": {check.strip()}" if check else ""))
    return store.get_note(note_id)
