"""Recall into Claude Code: SessionStart and UserPromptSubmit inject notes, each within its own token budget.

The ranking is the core's (:func:`lorebook.recall.rank_session_notes`,
:func:`lorebook.recall.recall_for_task`); this module only reads the payload
and frames the context. SessionStart hints with the branch and the files
``git status`` reports (run safely, see :mod:`lorebook.git`, with a short
timeout). UserPromptSubmit treats the prompt as the task: notes that match it
(hybrid when the warm embedding server answers in time, else keywords, and
the context says which), never a note this session already received, never
for a synthetic prompt, never for an event replayed from a transcript.
Nothing here imports numpy, llm or click: this is the hook hot path.
"""
from __future__ import annotations

from lorebook import hookimpl
from lorebook.config import load_config
from lorebook.sessions import ensure_session

from .claude_code import is_synthetic_prompt

GIT_STATUS_TIMEOUT_S = 0.08
PROMPT_MIN_CHARS = 12
# how long UserPromptSubmit waits for the warm embedding server before answering by keywords
EMBED_TIMEOUT_S = 0.06


def session_context(event, store) -> str | None:
    """The notes a new session starts with, ranked by the branch and the changed files."""
    session = ensure_session(event, store)
    if session is None:
        return None
    from lorebook.recall import session_start_context

    project = event.project
    root = project.root if project is not None else None
    text, shown, _, _ = session_start_context(store, session["project_key"], root,
                                              int(load_config()["context_budget"]), GIT_STATUS_TIMEOUT_S)
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


def prompt_context(event, store) -> str | None:
    """The notes that match the user's prompt and that this session has not seen yet."""
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


class Recall:
    """The plugin: context for a live session's start and for each of its prompts (none for imports)."""

    @hookimpl
    def session_start(self, event, store):
        return session_context(event, store) if event.source == "hook" else None

    @hookimpl
    def user_prompt_submit(self, event, store):
        return prompt_context(event, store) if event.source == "hook" else None


plugin = Recall()
