"""Writeback: turn a session into a reusable lesson, or into nothing.

Three steps, shared by the Stop hook, ``lorebook write`` and the MCP tools:

1. **Candidates** (deterministic): a failure resolved by a change (the same
   command failing, then passing after an edit; or an error signature that
   disappears after an edit), or a decision stated in the final message next
   to the files it changed. Retries without a change, self-inflicted typos and
   pure exploration teach nothing and give no note.
2. **Preflight** (:mod:`lorebook.quality`): named checks; automatic mode skips
   what manual mode accepts with warnings.
3. **Decide**: created, merged (a near-duplicate: evidence and validation are
   added, the old state kept in ``note_revisions``) or skipped — with a receipt
   keyed by (source_agent, run key), so a retry returns the same decision.

The note is committed before its vectors (``index_status = pending``);
``lorebook index`` embeds whatever is pending.
"""
from __future__ import annotations

import json
import os
import re

from .quality import LazyRegex
from .store import NOTE_KINDS, Store
from .text import bounded, one_line

SOURCE_AGENT = "claude-code"
EDIT_TOOLS = ("Edit", "Write", "MultiEdit", "NotebookEdit")
MODES = ("auto", "manual")
MEMORY_FIELDS = ("title", "summary", "kind", "trigger", "evidence", "change", "validation", "scope", "conditions",
                 "files", "error_signatures", "tags", "concepts", "observation_ids", "verified", "project_key")
LIST_FIELDS = ("files", "error_signatures", "tags", "concepts")

# Bash commands that change the project (a dependency, a file) count as a change between failure and success
_MUTATING = LazyRegex(
    r"(?x)\b(?:pip3?\s+install|uv\s+(?:add|pip\s+install)|poetry\s+add|npm\s+(?:install|i)\s+\S|yarn\s+add|"
    r"pnpm\s+add|cargo\s+add|go\s+get|sed\s+-i|git\s+(?:checkout|revert|apply|restore)|patch\b|mv\s|cp\s|"
    r"ln\s|chmod\s|mkdir\s|touch\s|\becho\b[^|]*>|\bcat\b[^|]*>|tee\s)")
_SELF_INFLICTED = LazyRegex(r"(?i)\b(?:SyntaxError|IndentationError|TabError|unexpected (?:token|indent|EOF)|"
                             r"unterminated|ParseError|parse error)\b")
_CAUSE = LazyRegex(
    r"(?i)\b(?:because|caused by|root cause|the cause|due to|turn(?:s|ed) out|the (?:problem|issue|bug) was|"
    r"was missing|were missing|is missing|happens when|only when|whenever|so that|which (?:made|caused|broke))\b"
    r"|原因|因为|由于|導致|导致|ため")
_DECISION = LazyRegex(r"(?i)\b(?:decided|decision|chose|chosen|opted|went with|going with|prefer(?:red)?|"
                       r"instead of|rather than|trade-?off)\b|决定|選択|选择")
_FIX = LazyRegex(r"(?i)\b(?:fix(?:ed|es)? (?:it |this )?by|the fix|pinn?(?:ed|ing)?|sett?(?:ing)?|add(?:ed|ing)|"
                  r"remov(?:ed|ing)|chang(?:ed|ing)|replac(?:ed|ing)|bump(?:ed|ing)?|upgrad(?:ed|ing)|"
                  r"downgrad(?:ed|ing)|renam(?:ed|ing)|mov(?:ed|ing)|configur(?:ed|ing))\b|修复|改为|添加|設定")
_CHATTER = LazyRegex(r"(?i)^(?:sure|okay|ok|great|done|let me|i'll|i will|now i|here(?:'s| is)|all set|"
                      r"let's|next,? i)\b")
_FIRST_PERSON = LazyRegex(r"^(?:I|We)\s+(?:have\s+|had\s+|then\s+|also\s+)?(?=\w)")


# --- the record --------------------------------------------------------------------------

def _as_list(value) -> list:
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [v.strip() for v in re.split(r"[\n,]", value) if v.strip()]
    if isinstance(value, (list, tuple, set)):
        return [v for v in value if v not in (None, "")]
    return [value]


def _evidence(value) -> list[dict]:
    items = []
    for item in value if isinstance(value, list) else _as_list(value) if not isinstance(value, str) else [value]:
        if isinstance(item, dict):
            quote = str(item.get("quote") or item.get("text") or "").strip()
            if not quote:
                continue
            entry = {"quote": quote, "source": str(item.get("source") or "stated by the agent")}
            if isinstance(item.get("observation_id"), int):
                entry["observation_id"] = item["observation_id"]
            items.append(entry)
        elif str(item).strip():
            items.append({"quote": str(item).strip(), "source": "stated by the agent"})
    return items


def _validation(value) -> dict:
    if isinstance(value, dict):
        return {"passed": [str(v) for v in _as_list(value.get("passed"))],
                "not_performed": [str(v) for v in _as_list(value.get("not_performed"))]}
    if isinstance(value, (list, tuple)):
        return {"passed": [str(v) for v in value if str(v).strip()], "not_performed": []}
    text = str(value or "").strip()
    if not text:
        return {"passed": [], "not_performed": []}
    if re.match(r"(?i)(?:not performed|none|not (?:run|tested|verified)|unverified)", text):
        return {"passed": [], "not_performed": [text]}
    return {"passed": [text], "not_performed": []}


def normalize_memory(memory: dict | str, *, scope: str | None = None, project_key: str | None = None) -> dict:
    """The record in its stored shape (lists, dicts, known kind and scope); plain text becomes title + summary."""
    if isinstance(memory, str):
        text = memory.strip()
        memory = {"title": text.splitlines()[0] if text else "", "summary": text}
    if not isinstance(memory, dict):
        raise ValueError("A memory is a JSON object (title, summary, trigger, evidence, change, validation, …).")
    record = {k: memory.get(k) for k in MEMORY_FIELDS if k in memory}
    for field in ("title", "summary", "trigger", "change", "conditions"):
        record[field] = str(record.get(field) or "").strip()
    kind = str(record.get("kind") or "fix").strip().lower().replace("_", "-")
    record["kind"] = kind if kind in NOTE_KINDS else "fix"
    record["scope"] = (scope or str(record.get("scope") or "project")).strip().lower()
    if record["scope"] not in ("project", "global"):
        raise ValueError(f"scope must be 'project' or 'global', not {record['scope']!r}")
    record["evidence"] = _evidence(record.get("evidence"))
    record["validation"] = _validation(record.get("validation"))
    for field in LIST_FIELDS:
        record[field] = [str(v) for v in _as_list(record.get(field))]
    record["observation_ids"] = sorted({int(i) for i in _as_list(record.get("observation_ids"))
                                        if str(i).isdigit()} | {e["observation_id"] for e in record["evidence"]
                                                                if "observation_id" in e})
    record["verified"] = 1 if record.get("verified") else 0
    if project_key is not None:
        record["project_key"] = project_key
    record.setdefault("project_key", None)
    if not record["title"] and record["summary"]:
        record["title"] = one_line(record["summary"], 120)
    return record


def redacted(record: dict) -> dict:
    """The record as it would be stored: secrets redacted everywhere, <private> blocks dropped."""
    from .redact import redact

    def walk(value):
        if isinstance(value, str):
            return redact(value)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        return value

    from .quality import CONTENT_FIELDS

    return {k: walk(v) if k in CONTENT_FIELDS else v for k, v in record.items()}


# --- candidates from a session ------------------------------------------------------------

def command_key(command: str) -> str:
    """One spelling per command: output plumbing (``2>&1 | tail``) and ``cd X &&`` removed."""
    cmd = " ".join((command or "").split())
    cmd = re.sub(r"^(?:cd\s+\S+\s*&&\s*)+", "", cmd)
    cmd = re.sub(r"\s*2>&1", "", cmd)
    cmd = re.sub(r"\s*\|\s*(?:tail|head|grep|less|cat|tee)\b.*$", "", cmd)
    return cmd.strip()


def command_family(command: str) -> str:
    """The program a command runs (``pytest``, ``npm test``, ``cargo test``), for "same check" chains."""
    words = [w for w in command_key(command).split() if not re.match(r"^\w+=", w)]
    if not words:
        return ""
    if words[0] in ("python", "python3", "uv", "poetry", "pipenv") and len(words) > 2 and words[1] in ("-m", "run"):
        return words[2]
    if re.fullmatch(r"python[\d.]*|node|ruby|bash|sh|perl", words[0]) and len(words) > 1:
        return words[1]
    if words[0] in ("npm", "yarn", "pnpm", "cargo", "go", "make", "npx", "bundle", "mvn", "gradle", "dotnet") \
            and len(words) > 1:
        return f"{words[0]} {words[1] if words[1] != 'run' or len(words) < 3 else words[2]}"
    return words[0]


def _is_change(observation: dict) -> bool:
    if observation["outcome"] != "ok":
        return False
    if observation["tool"] in EDIT_TOOLS:
        return True
    return observation["tool"] == "Bash" and bool(_MUTATING.search(observation.get("target") or ""))


def find_chains(observations: list[dict]) -> tuple[list[dict], list[str]]:
    """Failures resolved by a change, and reason codes for failures that taught nothing."""
    chains: list[dict] = []
    notes: list[str] = []
    covered_until = -1
    for i, failure in enumerate(observations):
        if i <= covered_until or failure["outcome"] != "error" or failure["tool"] != "Bash" \
                or not failure.get("target"):
            continue
        key, family, signature = command_key(failure["target"]), command_family(failure["target"]), \
            failure.get("error_signature")
        changes: list[dict] = []
        failures = [failure]
        for j in range(i + 1, len(observations)):
            later = observations[j]
            if _is_change(later):
                changes.append(later)
                continue
            if later["tool"] != "Bash":
                continue
            same = command_key(later.get("target") or "") == key
            if same and later["outcome"] == "error":
                failures.append(later)  # failed again: the chain goes on while changes keep coming
                continue
            if later["outcome"] != "ok":
                continue
            kind = "same_command" if same else (
                "signature_gone" if signature and changes and command_family(later.get("target") or "") == family
                and not any(o.get("error_signature") == signature for o in observations[j + 1:]) else None)
            if kind is None:
                continue
            if not changes:
                notes.append("retry_without_change")
            else:
                chains.append({"failure": failure, "failures": failures, "changes": changes, "success": later,
                               "kind": kind})
                covered_until = j
            break
        else:
            notes.append("unresolved_failure")
    return chains, notes


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?。！？])\s+|\n+|(?<=[。！？])", text or "")
    out = []
    for part in parts:
        part = part.strip(" -*•\t")
        if len(part) < 4 or _CHATTER.match(part):
            continue
        stripped = _FIRST_PERSON.sub("", part)
        out.append(stripped[:1].upper() + stripped[1:] if stripped != part else part)
    return out


def stated(message: str | None) -> dict:
    """Cause, fix and decision sentences from the final assistant message."""
    sentences = _sentences(message or "")
    return {
        "cause": [s for s in sentences if _CAUSE.search(s)],
        "fix": [s for s in sentences if _FIX.search(s) and not _CAUSE.search(s)],
        "decision": [s for s in sentences if _DECISION.search(s)],
        "all": sentences,
    }


def _edit_excerpt(changes: list[dict], limit: int = 500) -> str:
    parts = []
    for change in changes:
        if change["tool"] == "Bash":
            parts.append(f"$ {one_line(change.get('target'), 200)}")
        elif change.get("body"):
            parts.append(f"{change.get('target')}:\n{bounded(change['body'], 300)}")
    return bounded("\n".join(parts), limit)


def _raw_error_line(failure: dict) -> str | None:
    """The error line as printed (the stored signature masks names and numbers: good for matching, bad to read)."""
    signature = failure.get("error_signature") or ""
    head = re.split(r"<\w+>|['\"`]", signature)[0].strip()
    if len(head) < 4:
        return None
    for line in reversed((failure.get("error_text") or failure.get("body") or "").splitlines()):
        line = line.strip().lstrip("E").strip()
        if head in line:
            return one_line(line, 160)
    return None


def _files(changes: list[dict]) -> list[str]:
    return sorted({f for change in changes for f in change.get("files") or []})


def _rel(path: str, cwd: str | None) -> str:
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1:]
    return path


def candidate_from_chain(session: dict, chain: dict, said: dict, observations: list[dict]) -> dict:
    failure, changes, success = chain["failure"], chain["changes"], chain["success"]
    cwd = session.get("cwd")
    files = [_rel(f, cwd) for f in _files(changes)]
    command = one_line(command_key(failure["target"]), 120)
    signature = failure.get("error_signature")
    shown = _raw_error_line(failure) or signature
    explanation = said["cause"][:2] + [s for s in said["fix"] if s not in said["cause"]][:2]
    title = f"`{command}` fails" + (f" with {shown}" if shown else "") + (
        f"; fixed in {', '.join(os.path.basename(f) for f in files)}" if files else "")
    summary = " ".join(explanation) if explanation else (
        f"`{command}` failed" + (f" ({signature})" if signature else "") +
        f" until {', '.join(files) or 'a change'} was changed; it then passed.")
    change = " ".join(said["fix"][:3] or said["cause"][:1])
    detail = _edit_excerpt(changes)
    change = (change + "\n" if change else "") + (f"Files changed: {', '.join(files)}\n" if files else "") + detail
    evidence = [{"quote": bounded(f.get("error_text") or f.get("body") or f.get("summary") or "", 600),
                 "source": f"observation {f['id']} (`{one_line(f.get('target'), 80)}` failed)",
                 "observation_id": f["id"]} for f in chain["failures"][:2]]
    evidence.append({"quote": bounded(success.get("body") or success.get("summary") or "", 300) or "exit code 0",
                     "source": f"observation {success['id']} (`{one_line(success.get('target'), 80)}` passed)",
                     "observation_id": success["id"]})
    passed = [f"`{one_line(command_key(success['target']), 120)}` passed after the change "
              f"(observation {success['id']})"]
    later_checks = [o for o in observations if o["id"] > success["id"] and o["tool"] == "Bash"
                    and o["outcome"] == "ok" and not _is_change(o)]
    not_performed = [] if later_checks else ["No other check was run after the change."]
    if chain["kind"] == "signature_gone":
        not_performed.append(f"`{command}` itself was not re-run; `{command_key(success['target'])}` was.")
    trigger = f"Running `{command}`" + (f" fails with `{shown}`" if shown else " fails")
    return {
        "title": one_line(title, 160), "summary": summary, "kind": "fix", "trigger": trigger,
        "evidence": evidence, "change": change.strip(),
        "validation": {"passed": passed, "not_performed": not_performed},
        "scope": "project", "conditions": "", "files": files,
        "error_signatures": [signature] if signature else [],
        "tags": [command_family(failure["target"])] if command_family(failure["target"]) else [],
        "observation_ids": [o["id"] for o in [*chain["failures"], *changes, success]],
        "verified": 1,
        "_run_key": f"chain:{failure['id']}",
        "_reason": f"resolved_failure:{chain['kind']}",
    }


def candidate_from_decision(session: dict, said: dict, observations: list[dict], prompts: list[dict]) -> dict | None:
    edits = [o for o in observations if _is_change(o)]
    if not said["decision"] or not edits:
        return None
    cwd = session.get("cwd")
    files = [_rel(f, cwd) for f in _files(edits)]
    last_edit = edits[-1]
    checks = [o for o in observations if o["id"] > last_edit["id"] and o["tool"] == "Bash" and not _is_change(o)]
    passed = [f"`{one_line(command_key(o['target']), 120)}` passed (observation {o['id']})"
              for o in checks if o["outcome"] == "ok"][:3]
    task = one_line(prompts[0]["text"], 200) if prompts else ""
    decision = said["decision"]
    reasons = [s for s in said["cause"] if s not in decision][:2]
    return {
        "title": one_line(decision[0].rstrip("."), 150),
        "summary": " ".join((decision[:2] + reasons)),
        "kind": "decision",
        "trigger": (f"Working on: {task}" if task else "Changing " + ", ".join(files)),
        "evidence": [{"quote": bounded(e.get("body") or e.get("summary") or "", 400),
                      "source": f"observation {e['id']} ({e['tool']} {os.path.basename(e.get('target') or '')})",
                      "observation_id": e["id"]} for e in edits[-2:]],
        "change": " ".join(decision[:2]) + (f"\nFiles changed: {', '.join(files)}" if files else ""),
        "validation": {"passed": passed, "not_performed": [] if passed else ["No check was run after the change."]},
        "scope": "project", "conditions": "", "files": files, "error_signatures": [], "tags": [],
        "observation_ids": [e["id"] for e in edits] + [o["id"] for o in checks if o["outcome"] == "ok"],
        "verified": 1 if passed else 0,
        "_run_key": f"decision:{last_edit['id']}",
        "_reason": "stated_decision",
    }


def session_candidates(store: Store, session_id: str, last_message: str | None) -> tuple[list[dict], list[str]]:
    """The lessons a session teaches (deterministic), and reason codes when it teaches none."""
    session = store.get_session(session_id)
    if session is None:
        return [], ["unknown_session"]
    observations = store.session_observations(session_id)
    said = stated(last_message)
    chains, notes = find_chains(observations)
    candidates = []
    for chain in chains:
        earlier_edits = {f for o in observations if o["id"] < chain["failure"]["id"] and o["tool"] in EDIT_TOOLS
                         for f in o.get("files") or []}
        if _SELF_INFLICTED.search(chain["failure"].get("error_signature") or chain["failure"].get("error_text") or "") \
                and set(_files(chain["changes"])) <= earlier_edits:
            notes.append("self_inflicted")  # a typo in a file this session had just written: nothing to reuse
            continue
        candidates.append(candidate_from_chain(session, chain, said, observations))
    if not candidates:
        decision = candidate_from_decision(session, said, observations, store.session_prompts(session_id))
        if decision:
            candidates.append(decision)
    if not candidates and not notes:
        if any(_is_change(o) for o in observations):
            notes.append("no_lesson_stated")
        elif observations:
            notes.append("exploration_only")
        else:
            notes.append("no_activity")
    for candidate in candidates:
        candidate["project_key"] = session["project_key"]
    return candidates, sorted(set(notes))


# --- preflight and decision ---------------------------------------------------------------

REASON_TEXT = {
    "retry_without_change": "a command failed, then passed on a retry with no change in between: nothing was learned",
    "unresolved_failure": "a failure was never resolved in this session: no validated lesson",
    "self_inflicted": "the only failure was a syntax error in a file this session had just written",
    "no_lesson_stated": "files changed, but no failure was resolved and no decision or cause was stated",
    "exploration_only": "the session only explored (reads, searches, passing commands): nothing changed",
    "no_activity": "the session did nothing lorebook could learn from",
    "unknown_session": "lorebook has no record of this session",
    "instruction_injection": "the final message contains text aimed at steering future agents "
                             "(\"ignore previous instructions\"…): nothing from this session is stored",
}


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
    return store.project_for_alias(project.key) or project.key


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


def plan(store: Store, record: dict, *, mode: str, session_id: str | None = None,
         use_vectors: bool = True) -> dict:
    """What writing ``record`` would do, without writing: the preflight verdict and the decision."""
    from .quality import run_checks, verdict
    from .relations import RELATED_THRESHOLD, closest_notes

    findings = run_checks(record)
    accepted, blocking, warnings = verdict(findings, mode)
    stored = redacted(record)
    result = {"accepted": accepted, "decision": "skipped", "merged_into": None, "related": [],
              "reasons": [f.as_dict() for f in blocking], "warnings": [f.as_dict() for f in warnings],
              "note": stored}
    if not accepted:
        return result
    recalled = store.recalled_note_ids(session_id) if session_id else set()
    matches = closest_notes(store, stored, use_vectors=use_vectors, recalled_ids=recalled)
    duplicate = next((m for m in matches if m["relation"] == "duplicate"), None)
    result["contradicts"] = [m["note"]["id"] for m in matches if m["relation"] == "contradicts"]
    result["related"] = [m["note"]["id"] for m in matches if m["relation"] == "related"
                         and m["score"] >= RELATED_THRESHOLD][:3]
    result["derived_from"] = [m["note"]["id"] for m in matches if m["recalled"] and m["relation"] == "related"]
    result["similarity"] = round(duplicate["score"], 3) if duplicate else None
    if duplicate is None:
        result["decision"] = "created"
        return result
    note = duplicate["note"]
    fresh = _new_evidence(note, stored)
    if duplicate["recalled"] and not fresh:
        result["reasons"].append({"code": "restates_recalled_note", "severity": "skip", "field": None, "message": (
            f"It restates note #{note['id']}, which was recalled into this session, and adds no new evidence: "
            "repeating a recalled note is not independent corroboration.")})
        return result
    if not fresh and not _new_validation(note, stored):
        result["reasons"].append({"code": "already_recorded", "severity": "skip", "field": None, "message": (
            f"Note #{note['id']} already holds this lesson and this evidence.")})
        return result
    result["decision"] = "merged"
    result["merged_into"] = note["id"]
    result["reasons"].append({"code": "near_duplicate", "severity": "info", "field": None, "message": (
        f"A near-duplicate of note #{note['id']} (similarity {duplicate['score']:.2f})"
        + ("; it was recalled into this session, so only its new evidence is added" if duplicate["recalled"] else "")
        + ": its evidence and validation are added there.")})
    return result


def _new_validation(note: dict, record: dict) -> bool:
    old = note.get("validation") or {}
    new = record.get("validation") or {}
    return bool(set(new.get("passed") or []) - set(old.get("passed") or []))


def _union(a, b) -> list:
    return list(dict.fromkeys([*(a or []), *(b or [])]))


def merge_into(store: Store, note_id: int, record: dict, reason: str, evidence_only: bool = False) -> None:
    """Add the record's evidence and validation to the note; the note's previous state goes to note_revisions."""
    note = store.get_note(note_id)
    fresh = _new_evidence(note, record)
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
    if not evidence_only:
        for field in ("files", "error_signatures", "tags", "concepts"):
            fields[field] = _union(note.get(field), record.get(field))
        for field in ("summary", "trigger", "change", "conditions"):
            if not (note.get(field) or "").strip() and (record.get(field) or "").strip():
                fields[field] = record[field]
    store.update_note(note_id, fields, reason, extra_snapshot=record)


def validate_memory(store: Store, memory: dict | str, mode: str = "manual", *, scope: str | None = None,
                    session_id: str | None = None, use_vectors: bool = True) -> dict:
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
    result = plan(store, record, mode=mode, session_id=session_id, use_vectors=use_vectors)
    result["reason_codes"] = [r["code"] for r in result["reasons"]]
    result["reason"] = _reason_text(result["reasons"])
    return result


def _receipt_result(store: Store, receipt: dict) -> dict:
    note_id = receipt.get("note_id") or receipt.get("merged_into")
    index_status = None
    if note_id:
        row = store.execute("SELECT index_status FROM notes WHERE id = ?", (note_id,)).fetchone()
        index_status = row[0] if row else None
    reasons = receipt.get("reasons") or []
    return {"decision": receipt["decision"], "note_id": receipt.get("note_id"),
            "merged_into": receipt.get("merged_into"), "reason": _reason_text(reasons),
            "reasons": reasons, "reason_codes": [r["code"] for r in reasons],
            "warnings": receipt.get("warnings") or [], "index_status": index_status, "replayed": True}


def write_memory(store: Store, memory: dict | str, *, mode: str, source_agent: str, source_run_key: str,
                 scope: str | None = None, session_id: str | None = None, use_vectors: bool | None = None,
                 index: bool = True) -> dict:
    """Preflight and store a lesson: created, merged or skipped, with its reasons and a receipt.

    Returns ``{decision, note_id, merged_into, reason, warnings, index_status}``
    (plus ``reasons`` and ``reason_codes``). A second call with the same
    (source_agent, source_run_key) returns the first decision and writes nothing.
    The note is committed before it is embedded: ``index_status`` stays
    ``pending`` until ``lorebook index`` (or this call, when ``index``) embeds it.
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
    planned = plan(store, record, mode=mode, session_id=session_id, use_vectors=use_vectors)
    note = planned["note"]
    note_id = merged_into = None
    with store.atomic():
        if store.get_receipt(source_agent, source_run_key) is not None:  # a concurrent retry won the race
            return _receipt_result(store, store.get_receipt(source_agent, source_run_key))
        if planned["decision"] == "created":
            row = {k: v for k, v in note.items() if k in MEMORY_FIELDS}
            row.update(source_agent=source_agent, session_id=session_id, run_key=source_run_key,
                       status="active", index_status="pending")
            note_id = store.add_note(row)
            for other in planned.get("contradicts") or []:
                store.add_relation(note_id, other, "contradicts")
            for other in planned.get("derived_from") or []:
                store.add_relation(note_id, other, "derived_from")
            for other in planned.get("related") or []:
                if other not in (planned.get("derived_from") or []):
                    store.add_relation(note_id, other, "similar_to")
            _link_resolutions(store, note_id, note)
        elif planned["decision"] == "merged":
            merged_into = planned["merged_into"]
            recalled = session_id and merged_into in store.recalled_note_ids(session_id)
            merge_into(store, merged_into, dict(note, source_agent=source_agent, run_key=source_run_key,
                                                session_id=session_id),
                       f"merged from {source_agent} run {source_run_key}", evidence_only=bool(recalled))
        warnings = planned["warnings"]
        store.add_receipt({"source_agent": source_agent, "run_key": source_run_key, "decision": planned["decision"],
                           "note_id": note_id, "merged_into": merged_into, "reasons": planned["reasons"],
                           "warnings": warnings})
    target = note_id or merged_into
    if target and index:
        index_notes(store, [target])
    index_status = None
    if target:
        index_status = store.execute("SELECT index_status FROM notes WHERE id = ?", (target,)).fetchone()[0]
    return {"decision": planned["decision"], "note_id": note_id, "merged_into": merged_into,
            "reason": _reason_text(planned["reasons"]), "reasons": planned["reasons"],
            "reason_codes": [r["code"] for r in planned["reasons"]], "warnings": warnings,
            "index_status": index_status, "replayed": False}


def _link_resolutions(store: Store, note_id: int, note: dict) -> None:
    """A new fix whose error signature an open pitfall or gotcha names resolves it (``resolved_by``)."""
    signatures = [s for s in note.get("error_signatures") or [] if s]
    if note.get("kind") != "fix" or not signatures:
        return
    rows = store.execute(
        """SELECT notes.id FROM notes, json_each(notes.error_signatures) WHERE notes.status = 'active'
           AND notes.kind IN ('pitfall', 'gotcha') AND notes.id != ? AND json_each.value IN (SELECT value FROM
           json_each(?)) AND (notes.scope = 'global' OR notes.project_key IS ?)""",
        (note_id, json.dumps(signatures), note.get("project_key"))).fetchall()
    for (other,) in rows:
        store.add_relation(other, note_id, "resolved_by")


def index_notes(store: Store, note_ids: list[int]) -> None:
    """Have the fresh note embedded by a detached ``lorebook index``; until then it stays pending."""
    try:
        from .vectors import start_index_detached
    except ImportError:
        return
    start_index_detached()


# --- the Stop hook's entry point ------------------------------------------------------------

def write_back(store: Store, session_id: str, last_message: str | None, *, source_agent: str = SOURCE_AGENT,
               use_vectors: bool = False, index: bool = False) -> list[dict]:
    """Derive and write the session's lessons (automatic mode); one result per candidate, or one "skipped".

    Safe to repeat: every candidate's receipt is keyed by the session and the
    observation it starts from, so a replayed Stop returns the first decisions.
    """
    candidates, notes = session_candidates(store, session_id, last_message)
    from .quality import _INJECTION

    if candidates and last_message and _INJECTION.search(last_message):
        # the session's own account tries to steer future agents: none of its lessons can be trusted as written
        candidates, notes = [], sorted(set(notes) | {"instruction_injection"})
    results = []
    for candidate in candidates[:3]:
        run_key = f"{session_id}:{candidate.pop('_run_key')}"
        origin = candidate.pop("_reason")
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
            reasons = [{"code": code, "severity": "skip", "field": None, "message": REASON_TEXT.get(code, code)}
                       for code in notes]
            store.add_receipt({"source_agent": source_agent, "run_key": run_key, "decision": "skipped",
                               "note_id": None, "merged_into": None, "reasons": reasons, "warnings": []})
            receipt = store.get_receipt(source_agent, run_key)
        results.append(dict(_receipt_result(store, receipt), run_key=run_key, origin="none", replayed=not fresh))
    return results


# --- an llm model's take on the record (run detached: ``lorebook refine``) ---------------------

REQUIRED_STRINGS = ("title", "summary", "trigger", "change")


def record_schema_errors(record, observation_ids: set[int]) -> list[str]:
    """Why a model's JSON is not a usable record (empty list: it is)."""
    if not isinstance(record, dict):
        return ["the lesson is not a JSON object"]
    errors = [f"{field} must be a non-empty string" for field in REQUIRED_STRINGS
              if not isinstance(record.get(field), str) or not record[field].strip()]
    if record.get("kind") not in NOTE_KINDS:
        errors.append(f"kind must be one of {', '.join(NOTE_KINDS)}")
    if record.get("scope", "project") not in ("project", "global"):
        errors.append("scope must be project or global")
    evidence = record.get("evidence")
    if not isinstance(evidence, list) or not evidence:
        errors.append("evidence must be a non-empty list")
    else:
        for item in evidence:
            if not isinstance(item, dict) or not isinstance(item.get("quote"), str) or not item["quote"].strip():
                errors.append("every evidence item needs a quote")
            elif item.get("observation_id") not in observation_ids:
                errors.append(f"evidence cites observation {item.get('observation_id')!r}, not one of this session's")
    validation = record.get("validation")
    if not isinstance(validation, dict) or not all(isinstance(validation.get(k, []), list)
                                                   for k in ("passed", "not_performed")):
        errors.append("validation must be {passed: [...], not_performed: [...]}")
    for field in LIST_FIELDS:
        if field in record and not isinstance(record[field], list):
            errors.append(f"{field} must be a list")
    return errors


def parse_model_json(text: str):
    """The JSON object in a model's answer (code fences and chatter around it tolerated)."""
    text = (text or "").strip()
    fenced = re.search(r"```(?:json)?\s*(\{.*\})\s*```", text, re.S)
    if fenced:
        text = fenced.group(1)
    start, end = text.find("{"), text.rfind("}")
    if start == -1 or end <= start:
        raise ValueError("no JSON object in the answer")
    return json.loads(text[start:end + 1])


def refine_prompt(store: Store, session_id: str) -> tuple[str, list[dict], set[int]]:
    """The prompt (templates/writeback_prompt.md) for this session, its candidates, and its observation ids."""
    from .render import template

    session = store.get_session(session_id) or {}
    observations = store.session_observations(session_id)
    prompts = store.session_prompts(session_id)
    message = session.get("last_assistant_message") or ""
    candidates, _ = session_candidates(store, session_id, message)
    lines = []
    for o in observations[-60:]:
        excerpt = one_line(o.get("error_text") or o.get("body") or "", 300)
        lines.append(f"[{o['id']}] {o['tool']} {one_line(o.get('target'), 160)} -> {o['outcome']}: {excerpt}")
    draft = {k: v for k, v in candidates[0].items() if not k.startswith("_")} if candidates else None
    prompt = template("writeback_prompt.md").format(
        task=one_line(prompts[0]["text"], 400) if prompts else "(not recorded)",
        observations="\n".join(lines) or "(none)", final_message=bounded(message, 2000) or "(none)",
        draft=json.dumps(draft, ensure_ascii=False, indent=1) if draft else "(no draft: lorebook found no lesson)")
    return prompt, candidates, {o["id"] for o in observations}


def refine_with_model(store: Store, session_id: str, model=None, *, source_agent: str = SOURCE_AGENT) -> dict:
    """Ask an ``llm`` model (``LOREBOOK_MODEL``) for a better record; on any failure keep the deterministic one.

    A note the Stop hook already created is revised in place (its old text kept
    in note_revisions); otherwise the model's lesson goes through preflight in
    automatic mode under the run key ``<session>:model``.
    """
    from .redact import redact

    try:
        if model is None:
            import llm

            model = llm.get_model(os.environ.get("LOREBOOK_MODEL") or None)
        prompt, candidates, observation_ids = refine_prompt(store, session_id)
        answer = parse_model_json(model.prompt(prompt).text())
        lesson = answer.get("lesson") if isinstance(answer, dict) and "lesson" in answer else answer
        if lesson is None:
            return {"outcome": "kept", "reason": "the model found no lesson; the deterministic decision stands"}
        errors = record_schema_errors(lesson, observation_ids)
        if errors:
            return {"outcome": "fallback", "reason": "; ".join(errors)}
        for item in lesson["evidence"]:
            item["source"] = f"observation {item['observation_id']}"
            item["quote"] = redact(item["quote"])
    except Exception as ex:  # unknown model, network, bad JSON: the deterministic candidate stands
        return {"outcome": "fallback", "reason": f"{type(ex).__name__}: {ex}"}
    model_id = getattr(model, "model_id", "model")
    created = None
    for candidate in candidates:
        receipt = store.get_receipt(source_agent, f"{session_id}:{candidate['_run_key']}")
        if receipt and receipt.get("note_id"):
            created = receipt["note_id"]
            break
    record = normalize_memory(lesson)
    if created is not None:
        from .quality import run_checks, verdict

        accepted, blocking, _ = verdict(run_checks(record), "auto")
        if not accepted:
            return {"outcome": "fallback", "reason": "the model's record failed preflight: "
                    + ", ".join(f.code for f in blocking)}
        note = store.get_note(created)
        fields = {k: v for k, v in redacted(record).items() if k in (
            "title", "summary", "kind", "trigger", "change", "conditions", "scope")}
        fields["evidence"] = [*(note.get("evidence") or []), *_new_evidence(note, record)]
        for field in ("files", "error_signatures", "tags"):
            fields[field] = _union(note.get(field), record.get(field))
        validation = record["validation"]
        fields["validation"] = {"passed": _union((note.get("validation") or {}).get("passed"), validation["passed"]),
                                "not_performed": validation["not_performed"]}
        store.update_note(created, fields, f"refined by {model_id}")
        index_notes(store, [created])  # the edit made its vectors stale: re-embed now, not at the next Stop
        return {"outcome": "refined", "note_id": created}
    result = write_memory(store, record, mode="auto", source_agent=source_agent,
                          source_run_key=f"{session_id}:model", session_id=session_id)
    return {"outcome": result["decision"], **result}
