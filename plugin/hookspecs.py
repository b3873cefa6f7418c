"""Every hook lorebook calls. Built-in plugins (``DEFAULT_PLUGINS``) implement them like any other.

Event hooks take ``event`` (a :class:`lorebook.events.HookEvent`) and ``store``
(a :class:`lorebook.store.Store`); implementations may accept either or both.
An event replayed from a transcript by ``lorebook import`` or a backfill
comes through the same hooks, with ``event.source == "import"``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import pluggy

if TYPE_CHECKING:
    from .events import HookEvent
    from .store import Store

hookspec = pluggy.HookspecMarker("lorebook")


# --- The agent's events -------------------------------------------------------

@hookspec
def session_start(event: HookEvent, store: Store) -> str | None:
    """Return text to add to the new session's context (joined with the other plugins' text)."""


@hookspec
def user_prompt_submit(event: HookEvent, store: Store) -> str | int | None:
    """Record the user's prompt (return the stored prompt's id) or return text to add to this turn's context."""


@hookspec
def post_tool_use(event: HookEvent, store: Store) -> int | None:
    """Capture what a tool call did; return the id of the observation stored, if any."""


@hookspec
def post_tool_use_failure(event: HookEvent, store: Store) -> int | None:
    """Capture a failed tool call (it counts as a failed step); return the id of the observation stored, if any."""


@hookspec
def subagent_stop(event: HookEvent, store: Store) -> int | None:
    """Record what a subagent did, linked to its parent session; return the id of the observation stored, if any."""


@hookspec(firstresult=True)
def stop(event: HookEvent, store: Store) -> dict | None:
    """Write back what the session taught; return a Stop decision dict only to ask the agent to continue."""


@hookspec
def pre_compact(event: HookEvent, store: Store) -> None:
    """Flush anything buffered before the context is compacted."""


@hookspec
def session_end(event: HookEvent, store: Store) -> None:
    """Close the session."""


# --- The agent's wire format ----------------------------------------------------

@hookspec(firstresult=True)
def parse_event(name: str, raw: bytes) -> HookEvent | None:
    """Return the HookEvent for hook ``name`` and its raw stdin, or None when it is not a payload you read."""


@hookspec(firstresult=True)
def render_output(event: HookEvent, results: Any) -> dict | None:
    """Return the JSON object the agent expects on stdout for this event's hook results."""


@hookspec
def backfill_session(event: HookEvent, store: Store) -> None:
    """Store what live capture missed for the event's session (from the agent's transcript), through the event hooks."""


@hookspec(firstresult=True)
def find_transcripts(paths: tuple) -> dict | None:
    """Return ``{"files": [...], "what": …, "where": …}``: the transcripts under ``paths`` (or the agent's default)."""


@hookspec(firstresult=True)
def import_transcripts(files: list, store: Store, progress: Callable[[int], None] | None) -> dict | None:
    """Replay these transcript files through the event hooks; return the import's summary counts."""


# --- Decisions other plugins can take part in --------------------------------

@hookspec
def keep_observation(observation: dict, event: HookEvent) -> bool | None:
    """Return False to veto storing this observation (None or True: no objection)."""


@hookspec
def forget_item(kind: str, item_id: int, store: Store) -> None:
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
