"""Candidate lessons from a session (deterministic, no model needed).

A failure resolved by a change (the same command failing, then passing after
an edit; or an error signature that disappears after an edit), or a decision
stated in the final message next to the files it changed. Retries without a
change, self-inflicted typos and pure exploration teach nothing and give no
candidate, only a reason code.
"""
from __future__ import annotations

import os
import re

from .quality import LazyRegex
from .record import lesson_title
from .store import Store
from .text import bounded, one_line

EDIT_TOOLS = ("Edit", "Write", "MultiEdit", "NotebookEdit")

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
    title = lesson_title(f"`{command}` fails" + (f" with {shown}" if shown else ""),
                         (said["fix"] or [f"change {', '.join(files)}" if files else ""])[0])
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


# why a session gave no candidate
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
