"""Backfill from Claude Code transcripts (``~/.claude/projects/**/*.jsonl``).

A transcript is JSON lines of many types; only ``user`` and ``assistant``
lines matter here. One assistant message may span several lines sharing
``message.id`` (one content block each); its ``tool_use`` blocks are paired
with the ``tool_result`` blocks of later user lines (whose ``toolUseResult``
holds the same structure a PostToolUse hook receives), and each pair is
replayed through the same pluggy event hooks as a live event (``source`` is
"import"), so a plugin can veto or replace capture for imports too. ``isMeta`` lines, compaction
summaries, task notifications and command echoes are not the user's words.
Subagent transcripts (``<session>/subagents/agent-<id>.jsonl``) carry their
parent's ``sessionId`` and an ``agentId``: their tool calls are recorded in the
parent session, and the subagent gets its own session row linked to it.

A malformed line is counted and skipped, never fatal. Re-importing adds
nothing: observations are keyed by ``tool_use_id``, prompts by their text.

Only regular files are read (a FIFO, ``/dev/zero`` or a directory named as a
transcript is refused without waiting), and bytes are counted while reading:
a file never costs more than its limit, whatever its size claims.
"""
from __future__ import annotations

import contextlib
import json
import os
import stat
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from lorebook import hookimpl
from lorebook.events import HookEvent
from lorebook.sessions import subagent_session_id
from lorebook.store import Store

from .claude_code import is_synthetic_prompt

if TYPE_CHECKING:  # registered on every hook: pathlib (~6 ms of imports) only when transcripts are read
    from pathlib import Path

BATCH_EVENTS = 200  # events per write transaction during an import
IMPORT_MAX_BYTES = 1024 ** 3  # read at most this much of one transcript for `lorebook import`
BACKFILL_MAX_BYTES = 8 * 1024 ** 2  # PreCompact/SessionEnd backfill: larger transcripts are left to an import
MAX_LINE_BYTES = 32 * 1024 ** 2  # a longer line is skipped (counted as malformed) without being held whole
READ_CHUNK = 1024 ** 2


_MARKER_TEXT = ('"type":"user"', '"type": "user"', '"type":"assistant"', '"type": "assistant"')
_MARKERS = {str: _MARKER_TEXT, bytes: tuple(m.encode() for m in _MARKER_TEXT)}


class ImportStats:
    """What an import read and stored."""

    def __init__(self):
        self.files = self.lines = self.malformed_lines = 0
        self.sessions: set = set()
        self.tool_calls = self.unpaired_tool_calls = 0
        self.observations_added = self.prompts_added = self.already_stored = 0
        self.not_stored = 0  # excluded by config, or vetoed by a plugin
        self.unreadable_files: list = []

    def as_dict(self) -> dict:
        return {
            "files": self.files, "lines": self.lines, "malformed_lines": self.malformed_lines,
            "sessions": len(self.sessions), "tool_calls": self.tool_calls,
            "unpaired_tool_calls": self.unpaired_tool_calls, "observations_added": self.observations_added,
            "prompts_added": self.prompts_added, "already_stored": self.already_stored,
            "not_stored": self.not_stored, "unreadable_files": self.unreadable_files,
            "session_ids": sorted(self.sessions),
        }


def default_transcript_dir() -> Path:
    """Where Claude Code keeps transcripts: ``$CLAUDE_CONFIG_DIR/projects``, else ``~/.claude/projects``."""
    from pathlib import Path

    base = os.environ.get("CLAUDE_CONFIG_DIR")
    return (Path(base).expanduser() if base else Path.home() / ".claude") / "projects"


def find_transcripts(paths: Iterable[str | Path] = ()) -> list[Path]:
    """Every ``.jsonl`` file named or found under the given paths (default: Claude Code's transcript dir).

    Main transcripts come before subagent transcripts, so parents exist before their children.
    """
    from pathlib import Path

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
    """Whether a user line holds the user's own words (not a meta line, a summary or Claude Code's own text)."""
    if line.get("isMeta") or line.get("isCompactSummary") or line.get("isVisibleInTranscriptOnly"):
        return False
    return bool(text.strip()) and not is_synthetic_prompt(text)


class NotARegularFile(OSError):
    """A transcript path that names a FIFO, a device, a directory or a socket."""


def open_transcript(path: str):
    """A regular file, opened for binary reading; raises OSError (NotARegularFile) for anything else.

    Opened non-blocking, so that a FIFO with no writer cannot hang the hook;
    the type is checked on the open descriptor, not on the path.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotARegularFile(0, "not a regular file")
        handle = os.fdopen(fd, "rb", buffering=0)
    except BaseException:
        os.close(fd)
        raise
    return handle


def bounded_lines(handle, max_bytes: int, stats: ImportStats, max_line: int = MAX_LINE_BYTES) -> Iterator[bytes]:
    """The lines of ``handle``, reading at most ``max_bytes``; a line over ``max_line`` is skipped as malformed."""
    budget = max_bytes
    partial: list[bytes] = []
    partial_size = 0
    oversized = False
    while budget > 0:
        chunk = handle.read(min(READ_CHUNK, budget))
        if not chunk:
            break
        budget -= len(chunk)
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            if end == -1:
                piece = chunk[start:]
                if not oversized:
                    partial_size += len(piece)
                    if partial_size > max_line:
                        oversized, partial, partial_size = True, [], 0
                    else:
                        partial.append(piece)
                break
            piece = chunk[start:end + 1]
            if oversized or partial_size + len(piece) > max_line:
                stats.lines += 1
                stats.malformed_lines += 1
            else:
                yield b"".join(partial) + piece if partial else piece
            partial, partial_size, oversized = [], 0, False
            start = end + 1
    if oversized:
        stats.lines += 1
        stats.malformed_lines += 1
    elif partial:
        yield b"".join(partial)


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
    created_at = line.get("timestamp") if isinstance(line.get("timestamp"), str) else None
    payload = dict(payload, session_id=session_id, cwd=cwd, transcript_path=path)
    if cwd is None:
        return HookEvent(name=name, payload=payload, source="import", created_at=created_at)
    if cwd not in projects:
        from lorebook.project import identify

        # a transcript from another machine names a directory that may not exist here
        projects[cwd] = identify(cwd)
    return HookEvent(name=name, payload=payload, source="import", created_at=created_at, project=projects[cwd])


def _stored_ids(results) -> bool:
    """Whether an event hook's results say something was stored (an implementation returns the new row's id)."""
    return any(isinstance(r, int) and not isinstance(r, bool) for r in results or [])


def import_transcript(path: str | Path, store: Store, stats: ImportStats | None = None,
                      only_session: str | None = None, progress: Callable[[int], None] | None = None,
                      projects: dict | None = None, max_bytes: int | None = None) -> ImportStats:
    """Replay one transcript file through the event hooks; ``only_session`` keeps one session's lines."""
    from lorebook.plugins import pm

    stats = stats if stats is not None else ImportStats()
    projects = projects if projects is not None else {}
    max_bytes = IMPORT_MAX_BYTES if max_bytes is None else max_bytes
    path = str(path)
    try:
        handle = open_transcript(path)
    except OSError as ex:
        stats.unreadable_files.append(f"{path}: {ex.strerror or ex}")
        return stats
    stats.files += 1

    def lines():
        for raw in bounded_lines(handle, max_bytes, stats):
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
            agent_id = line.get("agentId") if isinstance(line.get("agentId"), str) else None
            if kind == "prompt":
                if agent_id:
                    continue  # a subagent's task is the parent's Agent call, recorded there
                event = _event_for(line, "user_prompt_submit", path,
                                   {"prompt": details["text"], "prompt_id": line.get("promptId")}, projects)
                if _stored_ids(pm.hook.user_prompt_submit(event=event, store=store)):
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
            if _stored_ids(getattr(pm.hook, name)(event=event, store=store)):
                stats.observations_added += 1
            elif _stored(store, details["tool_use_id"]):
                stats.already_stored += 1
            else:
                stats.not_stored += 1
        if handle.read(1):
            stats.unreadable_files.append(f"{path}: only the first {max_bytes} bytes were read (the limit)")
        if replies:
            from lorebook.sessions import session_redacted

            for session_id, text in replies.items():
                if store.get_session(session_id) is not None:
                    store.update_session(session_id, last_assistant_message=session_redacted(store, session_id, text))
    return stats


def _stored(store: Store, tool_use_id: str) -> bool:
    return store.has_observation(tool_use_id)


def import_transcripts(paths: Iterable[str | Path], store: Store, progress: Callable[[int], None] | None = None,
                       files: list[Path] | None = None) -> ImportStats:
    """Import every transcript under ``paths`` (default: Claude Code's transcript dir)."""
    stats = ImportStats()
    projects: dict = {}
    for path in files if files is not None else find_transcripts(paths):
        import_transcript(path, store, stats, progress=progress, projects=projects)
    return stats


def backfill_session(event: HookEvent, store: Store) -> None:
    """Store what the hooks missed, from the session's transcript (tool_use_id dedupes)."""
    path = event.transcript_path
    if not path or not event.session_id:
        return
    import_transcript(path, store, only_session=event.session_id, max_bytes=BACKFILL_MAX_BYTES)


class Transcripts:
    """The plugin: Claude Code's transcripts, for backfill at the end of a session and for ``lorebook import``."""

    @hookimpl
    def backfill_session(self, event, store):
        backfill_session(event, store)

    @hookimpl(trylast=True)
    def find_transcripts(self, paths):
        where = ", ".join(str(p) for p in paths) if paths else str(default_transcript_dir())
        return {"files": find_transcripts(paths), "what": "Claude Code transcripts (*.jsonl)", "where": where}

    @hookimpl(trylast=True)
    def import_transcripts(self, files, store, progress):
        return import_transcripts((), store, progress=progress, files=files).as_dict()


plugin = Transcripts()
