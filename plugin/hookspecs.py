"""Every hook lorebook calls. Built-in plugins (lorebook.hooks.*) implement them like any other.

Event hooks take ``event`` (a :class:`lorebook.events.HookEvent`) and ``store``
(a :class:`lorebook.store.Store`); implementations may accept either or both.
"""
from __future__ import annotations

from typing import Any, Callable

import pluggy

hookspec = pluggy.HookspecMarker("lorebook")


# --- Claude Code events -------------------------------------------------------

@hookspec
def session_start(event, store) -> str | None:
    """Return text to add to the new session's context (joined with the other plugins' text)."""


@hookspec
def user_prompt_submit(event, store) -> str | None:
    """Record the user's prompt; return text to add to the context for this turn."""


@hookspec
def post_tool_use(event, store) -> None:
    """Capture what a tool call did."""


@hookspec
def post_tool_use_failure(event, store) -> None:
    """Capture a failed tool call (it counts as a failed step)."""


@hookspec
def subagent_stop(event, store) -> None:
    """Record what a subagent did, linked to its parent session."""


@hookspec(firstresult=True)
def stop(event, store) -> dict | None:
    """Write back what the session taught; return a Stop decision dict only to ask the agent to continue."""


@hookspec
def pre_compact(event, store) -> None:
    """Flush anything buffered before the context is compacted."""


@hookspec
def session_end(event, store) -> None:
    """Close the session."""


# --- Decisions other plugins can take part in --------------------------------

@hookspec
def keep_observation(observation: dict, event) -> bool | None:
    """Return False to veto storing this observation (None or True: no objection)."""


@hookspec
def forget_item(kind: str, item_id: int, store) -> None:
    """Remove every copy you hold of a forgotten item (kind is "note" or "observation")."""


# --- Registries ---------------------------------------------------------------

@hookspec
def register_commands(cli) -> None:
    """Add click commands or groups to the ``lorebook`` CLI."""


@hookspec
def register_quality_checks(register: Callable[..., Any]) -> None:
    """Register preflight checks for lessons: ``register(name, check)``."""


@hookspec
def register_tool_extractors(register: Callable[..., Any]) -> None:
    """Register an observation extractor for a tool: ``register(tool_name_or_prefix, extract)``."""
