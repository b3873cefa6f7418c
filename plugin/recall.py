"""Recall for a task: the project's lessons and the global ones that apply, with a reason the caller can act on.

``recall_for_task`` is what the MCP tool of the same name, ``lorebook recall``
and the hooks call. Scope is strict: another project's project-scoped notes
are never offered; without a project identity only global notes are searched
(and ``reason`` says so). ``rank_session_notes`` orders the notes offered
when a session starts, with cheap hints (the branch, the changed files).
"""
from __future__ import annotations

import os
from typing import Any, Callable, Iterable

from .search import query_terms, search

# a hit counts as relevant when its meaning is close enough, or when it shares enough of the task's words
RECALL_MIN_SIMILARITY = 0.35
RECALL_MIN_COVERAGE = 0.34


def resolve_project_key(store, cwd: str | None = None, project_key: str | None = None) -> str | None:
    """The canonical project key: an explicit key (or the project it is an alias of), else ``cwd``'s identity."""
    if project_key:
        return store.canonical_project(project_key)
    if not cwd:
        return None
    from .project import identify

    found = identify(cwd)
    if found is None:
        return None
    return store.canonical_project(found.key)


def task_query(goal: str, error_signatures: Iterable[str] | None = None, files: Iterable[str] | None = None) -> str:
    """The text searched for a task: the goal, the error lines, and the files' names."""
    parts = [goal or ""]
    parts += [e for e in (error_signatures or []) if e]
    parts += [os.path.basename(f.rstrip("/")) for f in (files or []) if f]
    return "\n".join(p for p in parts if p.strip())


def is_relevant(hit: dict, terms: list[str]) -> bool:
    """Whether a search hit is strong enough to offer unasked: close in meaning, or sharing enough words."""
    if (hit.get("semantic") or 0.0) >= RECALL_MIN_SIMILARITY:
        return True
    if any(w.startswith("files:") for w in hit.get("why") or []):
        return True
    matched = len(hit.get("matched_terms") or [])
    total = hit.get("query_terms") or len(terms)
    return matched >= 2 or (total > 0 and matched / total >= RECALL_MIN_COVERAGE)


def memory(hit: dict, relations: list[dict] | None = None) -> dict:
    """The card recall returns for one note."""
    note = hit["note"]
    out = {"id": note["id"], "title": note.get("title"), "summary": note.get("summary") or "",
           "kind": note.get("kind"), "scope": note.get("scope"), "score": hit["score"],
           "why": list(hit.get("why") or []), "provenance": hit["provenance"]}
    if relations is not None:
        out["relations"] = relations
    return out


def recall_for_task(store, goal: str, error_signatures=None, files=None, cwd=None, project_key=None,
                    project_limit=5, global_limit=3, include_relations=False, *,
                    exclude_ids: Iterable[int] | None = None, semantic: bool = True,
                    embed_query: Callable[[str], Any] | None = None,
                    remote_top_k: Callable[..., Any] | None = None) -> dict:
    """Lessons for a task: ``{project_key, reason, warnings, project_memories, global_memories}``.

    ``reason`` is ``ok`` (memories found), ``no-matches`` (retrieval worked and
    nothing relevant is stored), ``retrieval-degraded`` (semantic search was
    unavailable: an absence is weak evidence) or ``no-project-identity``
    (only global memories were searched). ``exclude_ids`` leaves out notes the
    caller already has (e.g. what this session already received).
    """
    key = resolve_project_key(store, cwd, project_key)
    warnings: list[str] = []
    if key is None:
        warnings.append("No project identity (no usable directory or project key): only global memories "
                        "were searched.")
    text = task_query(goal, error_signatures, files)
    terms = query_terms(text)
    depth = max(project_limit, global_limit, 1) * 4
    result = search(store, text, limit=depth * 2, project_key=key, include_global=global_limit > 0,
                    include_project=project_limit > 0 and key is not None, touching=files or None,
                    semantic=semantic, embed_query=embed_query, remote_top_k=remote_top_k,
                    exclude_ids=exclude_ids)
    warnings += result["warnings"]
    project_hits, global_hits = [], []
    for hit in result["hits"]:
        if not is_relevant(hit, terms):
            continue
        note = hit["note"]
        if note.get("scope") == "global":
            global_hits.append(hit)
        elif key is not None:
            project_hits.append(hit)
    project_hits, global_hits = project_hits[:project_limit], global_hits[:global_limit]
    relations = None
    if include_relations:
        relations = store.note_relations_for([h["note"]["id"] for h in project_hits + global_hits])
    project_memories = [memory(h, relations.get(h["note"]["id"]) if relations else None) for h in project_hits]
    global_memories = [memory(h, relations.get(h["note"]["id"]) if relations else None) for h in global_hits]
    degraded = result.get("degraded", False)
    if key is None:
        reason = "no-project-identity"
    elif degraded:
        reason = "retrieval-degraded"
    elif not project_memories and not global_memories:
        reason = "no-matches"
    else:
        reason = "ok"
    return {"project_key": key, "reason": reason, "warnings": warnings, "mode": result["mode"],
            "project_memories": project_memories, "global_memories": global_memories}


# --- a session's first notes ---------------------------------------------------------

SESSION_NOTES = 40
MAX_HINT_FILES = 50
# words in so many file paths that they would match most notes: not a hint
PATH_NOISE = frozenset("""test tests spec specs src lib libs index main init utils util helpers conftest setup
config settings readme package app mod core common base""".split())


def _hint_words(branch: str | None) -> str:
    if not branch or branch in ("main", "master", "trunk", "develop", "dev"):
        return ""
    return " ".join(branch.replace("/", " ").replace("-", " ").replace("_", " ").split())


def session_start_context(store, project_key: str | None, root: str | None, budget: int,
                          git_timeout: float) -> tuple[str, list[int], str | None, list[str]]:
    """The context a session in ``root`` starts with, the ids of the notes shown, and the hints it was ranked by
    (the branch and the changed files).

    The project's notes ranked by the checked-out branch and the files ``git status`` reports changed
    (read with ``git_timeout``), within ``budget`` tokens. One function for the SessionStart hook and
    the viewer's "next session" preview, so that the preview is exactly what the hook injects.
    """
    from .git import changed_files, read_branch
    from .render import render_context

    branch, files = None, []
    if root and os.path.isdir(root):
        branch, files = read_branch(root), changed_files(root, timeout=git_timeout)
    notes, reasons = rank_session_notes(store, project_key, branch, files)
    heading = ""
    if project_key is None:
        heading = "No project identity for this directory: only global notes are shown.\n"
    elif branch and reasons:
        heading = f"Ranked for branch `{branch}`" + (f" and {len(files)} changed file(s)" if files else "") + ".\n"
    text, shown = render_context(notes, budget, heading=heading, reasons=reasons)
    return text, shown, branch, files


def rank_session_notes(store, project_key: str | None, branch: str | None, files: list[str]) -> tuple[list[dict], dict]:
    """The notes to offer at SessionStart, best first: those matching the hints, then verified and recent ones."""
    keys = store.project_keys_like(project_key) if project_key else []
    base = store.useful_notes(keys, limit=SESSION_NOTES)
    reasons: dict[int, list[str]] = {}
    hinted: list[dict] = []
    words = _hint_words(branch)
    # file names without their extension: "py" or "ts" would match every note that names a file
    names = [os.path.splitext(os.path.basename(f.rstrip("/")))[0] for f in files[:MAX_HINT_FILES]]
    names = [w for name in names for w in name.replace("-", "_").split("_") if w and w.lower() not in PATH_NOISE]
    query = " ".join([words] + names).strip()
    if query and project_key is not None:
        result = search(store, query, limit=10, project_key=project_key, touching=files, semantic=False)
        for hit in result["hits"]:
            reasons[hit["note"]["id"]] = hit["why"]
            hinted.append(hit["note"])
    seen, ranked = set(), []
    for note in hinted + base:
        if note["id"] not in seen:
            seen.add(note["id"])
            ranked.append(note)
    return ranked, reasons
