"""The event object every event hook receives."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class HookEvent:
    """One Claude Code hook call: its snake_case name and its stdin payload.

    ``payload`` is the JSON object as Claude Code sent it; only plugins in
    ``lorebook.hooks`` interpret its tool-specific shapes.
    """

    name: str
    payload: dict
    _project: Any = field(default=None, repr=False)
    _project_known: bool = field(default=False, repr=False)

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
        """The :class:`lorebook.project.Project` of ``cwd``, or None without one."""
        if not self._project_known:
            from .project import identify

            self._project = identify(self.cwd) if self.cwd else None
            self._project_known = True
        return self._project
