"""The event object every event hook receives."""
from __future__ import annotations

from typing import Any

_UNKNOWN = object()

# the agent's tools that change a file: what an observation's ``tool`` is when the session edited something
EDIT_TOOLS = ("Edit", "Write", "MultiEdit", "NotebookEdit")


class HookEvent:
    """One agent event: its snake_case hook name and its payload.

    ``payload`` is the JSON object as the agent sent it; only plugins in
    ``lorebook.hooks`` interpret its tool-specific shapes. ``source`` is
    ``"hook"`` for a live event and ``"import"`` for one replayed from a
    transcript (whose ``created_at`` is the transcript's time); a plain
    class, not a dataclass: ``dataclasses`` costs a hook process a few ms.
    """

    __slots__ = ("name", "payload", "source", "created_at", "_project", "notice")

    def __init__(self, name: str, payload: dict, source: str = "hook", created_at: str | None = None,
                 project: Any = _UNKNOWN):
        self.name = name
        self.payload = payload
        self.source = source
        self.created_at = created_at
        self._project = project
        self.notice: str | None = None  # a message for the user (e.g. a config problem), shown the agent's way

    def __repr__(self) -> str:
        return f"HookEvent(name={self.name!r}, source={self.source!r}, session_id={self.session_id!r})"

    @property
    def session_id(self) -> str | None:
        value = self.payload.get("session_id")
        return value if isinstance(value, str) and value else None

    @property
    def cwd(self) -> str | None:
        value = self.payload.get("cwd")
        return value if isinstance(value, str) and value else None

    @property
    def transcript_path(self) -> str | None:
        value = self.payload.get("transcript_path")
        return value if isinstance(value, str) and value else None

    @property
    def project(self):
        """The :class:`lorebook.project.Project` of ``cwd``, or None without one (identified once)."""
        if self._project is _UNKNOWN:
            from .project import identify

            self._project = identify(self.cwd) if self.cwd else None
        return self._project
