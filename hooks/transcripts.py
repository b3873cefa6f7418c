"""Backfill from Claude Code transcripts (``~/.claude/projects/**/*.jsonl``).

A transcript is JSON lines of many types; only ``user`` and ``assistant``
lines matter here. One assistant message may span several lines sharing
``message.id`` (one content block each); its ``tool_use`` blocks are paired
with the ``tool_result`` blocks of later user lines (whose ``toolUseResult``
holds the same structure a PostToolUse hook receives), and each pair is
replayed through the hooks' own capture path. ``isMeta`` lines, compaction
summaries, task notifications and command echoes are not the user's words.
Subagent transcripts (``<session>/subagents/agent-<id>.jsonl``) carry their
parent's ``sessionId`` and an ``agentId``: their tool calls are recorded in the
parent session, and the subagent gets its own session row linked to it.

A malformed line is counted and skipped, never fatal. Re-importing adds
nothing: observations are keyed by ``tool_use_id``, prompts by their text.
"""
from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from lorebook.events import HookEvent
from lorebook.store import Store

BATCH_EVENTS = 200  # events per write transaction during an import

# user-line texts that Claude Code wrote itself
SYNTHETIC_PREFIXES = ("<task-notification>", "<command-name>", "<command-message>", "<local-command-stdout>",
                      "<local-command-stderr>", "<local-command-caveat>", "Caveat: The messages below",
                      "<bash-input>", "<bash-stdout>", "<bash-stderr>", "<user-memory-input>", "<system-reminder>",
                      "[Request interrupted by user")


_MARKER_TEXT = ('"type":"user"', '"type": "user"', '"type":"assistant"', '"type": "assistant"')
_MARKERS = {str: _MARKER_TEXT, bytes: tuple(m.encode() for m in _MARKER_TEXT)}


@dataclass
class ImportStats:
    """What an import read and stored."""

    files: int = 0
    lines: int = 0
    malformed_lines: int = 0
    sessions: set = field(default_factory=set)
    tool_calls: int = 0
    unpaired_tool_calls: int = 0
    observations_added: int = 0
    prompts_added: int = 0
    already_stored: int = 0
    not_stored: int = 0  # excluded by config, or vetoed by a plugin
    unreadable_files: list = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "files": self.files, "lines": self.lines, "malformed_lines": self.malformed_lines,
            "sessions": len(self.sessions), "tool_calls": self.tool_calls,
            "unpaired_tool_calls": self.unpaired_tool_calls, "observations_added": self.observations_added,
            "prompts_added": self.prompts_added, "already_stored": self.already_stored,
            "not_stored": self.not_stored, "unreadable_files": self.unreadable_files,
        }


def default_transcript_dir() -> Path:
    """Where Claude Code keeps transcripts: ``$CLAUDE_CONFIG_DIR/projects``, else ``~/.claude/projects``."""
    base = os.environ.get("CLAUDE_CONFIG_DIR")
    return (Path(base).expanduser() if base else Path.home() / ".claude") / "projects"


def find_transcripts(paths: Iterable[str | Path] = ()) -> list[Path]:
    """Every ``.jsonl`` file named or found under the given paths (default: Claude Code's transcript dir).

    Main transcripts come before subagent transcripts, so parents exist before their children.
    """
    paths = list(paths) or [default_transcript_dir()]
    found: dict[Path, None] = {}
    for path in paths:
        path = Path(path).expanduser()
        if path.is_dir():
            for file in sorted(path.rglob("*.jsonl")):
                found[file] = None
        elif path.exists():
            found[path] = None
    return sorted(found, key=lambda p: ("subagents" in p.parts, str(p)))


def _user_text(content) -> str | None:
    """The words of a user message (a string, or the text blocks of a list), or None if it has none."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [b.get("text") for b in content if isinstance(b, dict) and b.get("type") == "text"
                 and isinstance(b.get("text"), str)]
        return "\n".join(texts) if texts else None
    return None


def _result_text(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and isinstance(b.get("text"), str))
    return "" if content is None else json.dumps(content, ensure_ascii=False, default=str)


def is_users_words(line: dict, text: str) -> bool:
    if line.get("isMeta") or line.get("isCompactSummary") or line.get("isVisibleInTranscriptOnly"):
        return False
    stripped = text.lstrip()
    return bool(stripped) and not stripped.startswith(SYNTHETIC_PREFIXES)


def iter_events(lines: Iterable[bytes | str], stats: ImportStats) -> Iterator[tuple[str, dict, dict]]:
    """("prompt" | "tool", the transcript line, details) in order, from raw transcript lines."""
    pending: dict[str, dict] = {}
    for raw in lines:
        stats.lines += 1
        if len(raw) > 65536 and not any(marker in raw for marker in _MARKERS[type(raw)]):
            continue  # a large line of another type (api-request, prompt snapshot): not worth parsing
        if isinstance(raw, bytes):
            raw = raw.decode("utf-8", errors="replace")
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except ValueError:
            stats.malformed_lines += 1
            continue
        if not isinstance(line, dict):
            stats.malformed_lines += 1
            continue
        kind = line.get("type")
        message = line.get("message")
        if kind not in ("user", "assistant") or not isinstance(message, dict):
            continue
        content = message.get("content")
        if kind == "assistant":
            texts = []
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                    pending[block["id"]] = {"name": block.get("name"), "input": block.get("input")}
                elif isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str):
                    texts.append(block["text"])
            if any(t.strip() for t in texts):  # the last one is the session's final message, as Stop sees it
                yield "reply", line, {"text": "\n".join(texts)}
            continue
        results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"] \
            if isinstance(content, list) else []
        for block in results:
            tool_use_id = block.get("tool_use_id")
            use = pending.pop(tool_use_id, None) if isinstance(tool_use_id, str) else None
            if use is None or not isinstance(use.get("name"), str):
                continue
            structured = line.get("toolUseResult")
            yield "tool", line, {
                "tool_use_id": tool_use_id, "tool_name": use["name"], "tool_input": use.get("input") or {},
                "tool_response": structured if structured is not None and len(results) == 1
                else _result_text(block.get("content")),
                "is_error": bool(block.get("is_error")), "result_text": _result_text(block.get("content")),
            }
        if not results:
            text = _user_text(content)
            if text is not None and is_users_words(line, text):
                yield "prompt", line, {"text": text}
    stats.unpaired_tool_calls += len(pending)


def _event_for(line: dict, name: str, path: str, payload: dict, projects: dict) -> HookEvent:
    """A HookEvent as the hooks would have received it, with the project identified once per cwd."""
    cwd = line.get("cwd") if isinstance(line.get("cwd"), str) else None
    session_id = line.get("sessionId") if isinstance(line.get("sessionId"), str) else None
    event = HookEvent(name=name, payload=dict(payload, session_id=session_id, cwd=cwd, transcript_path=path))
    if cwd is not None:
        if cwd not in projects:
            from lorebook.project import identify

            # a transcript from another machine names a directory that may not exist here
            projects[cwd] = identify(cwd)
        event._project, event._project_known = projects[cwd], True
    return event


def import_transcript(path: str | Path, store: Store, stats: ImportStats | None = None,
                      only_session: str | None = None, progress: Callable[[int], None] | None = None,
                      projects: dict | None = None) -> ImportStats:
    """Replay one transcript file through the capture path; ``only_session`` keeps one session's lines."""
    from .capture import capture_tool_event, record_prompt, subagent_session_id

    stats = stats if stats is not None else ImportStats()
    projects = projects if projects is not None else {}
    path = str(path)
    try:
        handle = open(path, "rb")
    except OSError as ex:
        stats.unreadable_files.append(f"{path}: {ex.strerror or ex}")
        return stats
    stats.files += 1

    def lines():
        for raw in handle:
            if progress is not None:
                progress(len(raw))
            yield raw

    linked: set[str] = set()
    replies: dict[str, str] = {}
    with handle, contextlib.ExitStack() as batch:
        batch.enter_context(store.atomic())
        for done, (kind, line, details) in enumerate(iter_events(lines(), stats), 1):
            if done % BATCH_EVENTS == 0:  # commit now and then: live hooks must not wait on a long import
                batch.close()
                batch.enter_context(store.atomic())
            session_id = line.get("sessionId")
            if not isinstance(session_id, str) or not session_id:
                continue
            if only_session is not None and session_id != only_session:
                continue
            stats.sessions.add(session_id)
            if kind == "reply":
                if not line.get("agentId"):
                    replies[session_id] = details["text"]
                continue
            created_at = line.get("timestamp") if isinstance(line.get("timestamp"), str) else None
            agent_id = line.get("agentId") if isinstance(line.get("agentId"), str) else None
            if kind == "prompt":
                if agent_id:
                    continue  # a subagent's task is the parent's Agent call, recorded there
                event = _event_for(line, "user_prompt_submit", path,
                                   {"prompt": details["text"], "prompt_id": line.get("promptId")}, projects)
                if record_prompt(event, store, details["text"], created_at=created_at):
                    stats.prompts_added += 1
                continue
            stats.tool_calls += 1
            failed = details["is_error"]
            payload = {"tool_name": details["tool_name"], "tool_input": details["tool_input"],
                       "tool_use_id": details["tool_use_id"]}
            if failed:
                payload["error"] = details["result_text"] or (details["tool_response"]
                                                              if isinstance(details["tool_response"], str) else "")
            else:
                payload["tool_response"] = details["tool_response"]
            if agent_id:
                payload["agent_id"] = agent_id
            name = "post_tool_use_failure" if failed else "post_tool_use"
            event = _event_for(line, name, path, payload, projects)
            if agent_id and agent_id not in linked:
                linked.add(agent_id)
                parent = store.ensure_session(session_id, cwd=event.cwd)
                store.ensure_session(subagent_session_id(session_id, agent_id), cwd=event.cwd,
                                     project_key=parent.get("project_key"), parent_session_id=session_id,
                                     agent_id=agent_id, transcript_path=path)
            added = capture_tool_event(event, store, failed=failed, source="import", created_at=created_at)
            if added:
                stats.observations_added += 1
            elif _stored(store, details["tool_use_id"]):
                stats.already_stored += 1
            else:
                stats.not_stored += 1
        if replies:
            from lorebook.redact import redact

            for session_id, text in replies.items():
                if store.get_session(session_id) is not None:
                    store.update_session(session_id, last_assistant_message=redact(text))
    return stats


def _stored(store: Store, tool_use_id: str) -> bool:
    return store.execute("SELECT 1 FROM observations WHERE tool_use_id = ?", (tool_use_id,)).fetchone() is not None


def import_transcripts(paths: Iterable[str | Path], store: Store, progress: Callable[[int], None] | None = None,
                       files: list[Path] | None = None) -> ImportStats:
    """Import every transcript under ``paths`` (default: Claude Code's transcript dir)."""
    stats = ImportStats()
    projects: dict = {}
    for path in files if files is not None else find_transcripts(paths):
        import_transcript(path, store, stats, progress=progress, projects=projects)
    return stats
