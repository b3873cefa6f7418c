"""Recall into Claude Code: SessionStart and UserPromptSubmit inject notes, each within its own token budget.

SessionStart ranks the project's notes with cheap hints: the branch (read
from ``.git/HEAD``) and the files in ``git status`` (one ``git`` call with a
short timeout; skipped when git is missing or slow). UserPromptSubmit treats
the prompt as the task: notes that match it (hybrid when the warm embedding
server answers in time, else keywords, and the context says which), never a
note this session already received, never for a synthetic prompt.
Nothing here imports numpy, llm or click: this is the hook hot path.
"""
from __future__ import annotations

import os

from lorebook import hookimpl
from lorebook.config import load_config

from .claude_code import is_synthetic_prompt
from .sessions import ensure_session

GIT_STATUS_TIMEOUT_S = 0.08
MAX_HINT_FILES = 50
SESSION_NOTES = 40
PROMPT_MIN_CHARS = 12
# how long UserPromptSubmit waits for the warm embedding server before answering by keywords
EMBED_TIMEOUT_S = 0.06


def read_branch(root: str | None) -> str | None:
    """The checked-out branch, from ``.git/HEAD`` (no subprocess); None when detached or unknown."""
    if not root:
        return None
    from lorebook.project import find_git_root

    found = find_git_root(root)
    if not found:
        return None
    git_dir = found[1]
    try:
        with open(os.path.join(git_dir, "HEAD"), encoding="utf-8") as fp:
            head = fp.read().strip()
    except OSError:
        return None
    if head.startswith("ref: refs/heads/"):
        return head[len("ref: refs/heads/"):]
    return None


def changed_files(root: str | None, timeout: float = GIT_STATUS_TIMEOUT_S) -> list[str]:
    """Files ``git status`` reports as changed or new, relative to the root; [] when git is missing or slow."""
    if not root or not os.path.exists(os.path.join(root, ".git")):
        return []
    import subprocess  # here, not at the top: every hook event imports this module

    try:
        result = subprocess.run(
            ["git", "-C", root, "status", "--porcelain=v1", "-z", "--untracked-files=normal"],
            capture_output=True, timeout=timeout, env=dict(os.environ, GIT_OPTIONAL_LOCKS="0"))
    except (OSError, subprocess.SubprocessError):
        return []
    if result.returncode != 0:
        return []
    files = []
    entries = result.stdout.decode("utf-8", "replace").split("\0")
    skip = False
    for entry in entries:
        if skip:  # the source of a rename
            skip = False
            continue
        if len(entry) < 4:
            continue
        status, path = entry[:2], entry[3:]
        if "R" in status or "C" in status:
            skip = True
        files.append(path)
        if len(files) >= MAX_HINT_FILES:
            break
    return files


# words in so many file paths that they would match most notes: not a hint
PATH_NOISE = frozenset("""test tests spec specs src lib libs index main init utils util helpers conftest setup
config settings readme package app mod core common base""".split())


def _hint_words(branch: str | None) -> str:
    if not branch or branch in ("main", "master", "trunk", "develop", "dev"):
        return ""
    return " ".join(branch.replace("/", " ").replace("-", " ").replace("_", " ").split())


def rank_session_notes(store, project_key: str | None, branch: str | None, files: list[str]) -> tuple[list[dict], dict]:
    """The notes to offer at SessionStart, best first: those matching the hints, then verified and recent ones."""
    from lorebook.search import search

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


@hookimpl
def session_start(event, store):
    session = ensure_session(event, store)
    if session is None:
        return None
    budget = int(load_config()["context_budget"])
    project_key = session["project_key"]
    project = event.project
    root = project.root if project is not None else None
    branch = read_branch(root)
    files = changed_files(root)
    notes, reasons = rank_session_notes(store, project_key, branch, files)
    from lorebook.render import render_context

    heading = ""
    if project_key is None:
        heading = "No project identity for this directory: only global notes are shown.\n"
    elif branch and reasons:
        heading = f"Ranked for branch `{branch}`" + (f" and {len(files)} changed file(s)" if files else "") + ".\n"
    text, shown = render_context(notes, budget, heading=heading, reasons=reasons)
    if shown:
        store.record_recalls(event.session_id, shown, "session_start")
    _warm_embedder(store)
    return text or None


def _warm_embedder(store) -> None:
    """Start the warm embedding server (detached) so that the first prompt can be searched by meaning."""
    try:
        if store.vector_collection("lorebook-notes") is not None:
            from lorebook import embed_server

            embed_server.ensure_server()
    except Exception:  # optional: keyword recall works without it
        pass


def _remote_top_k():
    try:
        from lorebook import embed_server
    except ImportError:
        return None

    def top_k(text, k, candidate_ids):
        return embed_server.query_top_k(text, k, candidate_ids, timeout=EMBED_TIMEOUT_S)

    return top_k


@hookimpl
def user_prompt_submit(event, store):
    prompt = event.payload.get("prompt")
    if not isinstance(prompt, str) or len(prompt.strip()) < PROMPT_MIN_CHARS or is_synthetic_prompt(prompt):
        return None
    session = ensure_session(event, store)
    if session is None:
        return None
    from lorebook.recall import recall_for_task

    from lorebook.render import render_context

    budget = int(load_config()["prompt_budget"])
    already = store.recalled_note_ids(event.session_id)
    remote = _remote_top_k()
    result = recall_for_task(store, prompt[:4000], project_key=session["project_key"], project_limit=4,
                             global_limit=2, exclude_ids=already, semantic=remote is not None,
                             remote_top_k=remote)
    memories = result["project_memories"] + result["global_memories"]
    if not memories:
        return None
    notes = store.get_notes([m["id"] for m in memories])
    ordered = [notes[m["id"]] for m in memories if m["id"] in notes]
    reasons = {m["id"]: m["why"] for m in memories}
    how = "by keywords and meaning" if result["mode"] == "hybrid" else "by keywords only"
    heading = f"Notes that match this prompt ({how}; notes shown earlier in this session are left out).\n"
    text, shown = render_context(ordered, budget, heading=heading, reasons=reasons, full_notes=1)
    if shown:
        store.record_recalls(event.session_id, shown, "user_prompt_submit")
    return text or None
