"""Capture a hook could not write because another process held the database's write lock, kept for later.

A hook waits at most ``store.HOOK_BUSY_TIMEOUT_S`` for the lock. Past that, its writes (observations,
prompts, the session's and project's rows, which notes it showed) go to ``capture-spool.jsonl`` in the
user dir instead of being dropped: one JSON line per store call, redacted like stored data, written with
one ``O_APPEND`` write so that concurrent hooks never interleave. The file is bounded
(``MAX_SPOOL_BYTES``; past it a line is dropped and the hook log says so).

Every hook run that finds lines there replays them, in order, through the same store methods
(``Store.replay_spooled``): they are idempotent (an observation's tool_use_id is unique, sessions,
projects, prompts and recalls are inserted or ignored), so a line replayed twice stores nothing twice.
One process drains at a time; appenders take a shared lock, the drainer an exclusive one only for the
moment it cuts the replayed lines off the file.
"""
from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pathlib costs a hook process ~6 ms of imports
    from pathlib import Path

MAX_SPOOL_BYTES = 16 * 1024 * 1024
MAX_LINE_BYTES = 1024 * 1024

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: O_APPEND alone
    fcntl = None


def spool_path() -> str:
    from .config import user_dir_str

    return os.path.join(user_dir_str(), "capture-spool.jsonl")


def _lock(fd: int, mode: int) -> bool:
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, mode)
        return True
    except OSError:
        return False


# keys whose values identify a row: replay must find the same row (an id is never a secret; the redactor
# may still take a long random one for a token)
IDENTIFIERS = ("session_id", "tool_use_id", "prompt_id", "key", "content_hash", "parent_session_id", "agent_id")


def _redacted(arguments: dict, redact_value) -> dict:
    """``arguments`` redacted like stored data (capture redacted them already: this is the spool's own
    guarantee), identifiers kept as they are, also inside an observation."""
    out = {}
    for name, value in arguments.items():
        if name in IDENTIFIERS:
            out[name] = value
        elif isinstance(value, dict):
            out[name] = _redacted(value, redact_value)
        else:
            out[name] = redact_value(value, name)
    return out


class Spool:
    """An append-only file of store calls waiting for the database (see the module's docstring)."""

    def __init__(self, path: str | Path | None = None, log=None):
        self._path = os.fspath(path) if path is not None else spool_path()
        self._log_to = log  # log(message, exc=None): the hook log

    @property
    def path(self) -> Path:
        """The spool file (a ``Path``: pathlib is imported only when asked for)."""
        from pathlib import Path

        return Path(self._path)

    def _log(self, message: str, exc: BaseException | None = None) -> None:
        if self._log_to is not None:
            self._log_to(message, exc)

    def pending(self) -> bool:
        try:
            return os.stat(self._path).st_size > 0
        except OSError:
            return False

    def append(self, method: str, arguments: dict) -> bool:
        """Add one call; False (and a line in the hook log) when it could not be kept."""
        from .redact import redact_value

        line = json.dumps({"method": method, "arguments": _redacted(arguments, redact_value)}, ensure_ascii=False,
                          default=str) + "\n"
        data = line.encode("utf-8", "replace")
        if len(data) > MAX_LINE_BYTES:
            self._log(f"a {method} call of {len(data)} bytes is over {MAX_LINE_BYTES}: not spooled, dropped")
            return False
        try:
            fd = os.open(self._path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        except OSError as ex:
            self._log(f"cannot open {self._path}: {method} dropped", ex)
            return False
        try:
            _lock(fd, fcntl.LOCK_SH if fcntl else 0)
            if os.fstat(fd).st_size + len(data) > MAX_SPOOL_BYTES:
                self._log(f"{self._path} is full ({MAX_SPOOL_BYTES} bytes): {method} dropped")
                return False
            os.write(fd, data)  # one write of the whole line: O_APPEND keeps concurrent lines whole
            self._log(f"the database was locked: {method} kept in {os.path.basename(self._path)} for the next hook")
            return True
        except OSError as ex:
            self._log(f"cannot write {self._path}: {method} dropped", ex)
            return False
        finally:
            os.close(fd)

    def drain(self, store) -> int:
        """Replay the waiting calls into ``store`` and cut them off the file: how many were stored.

        Raises ``StoreLocked`` (or another ``StoreError``) and keeps the file when the store cannot be
        written. Returns when nothing waits, or when another process is draining: a drainer checks the
        file again after letting go of it, so a line appended meanwhile is never left behind."""
        stored = 0
        while self.pending():
            taken = self._drain_once(store)
            if taken is None:
                break  # another process is draining: it looks again when it is done
            stored += taken
        return stored

    def _drain_once(self, store) -> int | None:
        guard = os.open(self._path + ".lock", os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            if fcntl is not None and not _lock(guard, fcntl.LOCK_EX | fcntl.LOCK_NB):
                return None
            with open(self._path, "rb") as fp:
                data = fp.read()
            end = data.rfind(b"\n") + 1  # a line still being written is left for next time
            if end == 0:
                return None
            calls = []
            for raw in data[:end].splitlines():
                try:
                    record = json.loads(raw)
                    calls.append((str(record["method"]), dict(record["arguments"])))
                except (ValueError, KeyError, TypeError) as ex:
                    self._log(f"an unreadable line in {os.path.basename(self._path)} skipped", ex)
            stored = store.replay_spooled(
                calls, on_error=lambda name, arguments, ex: self._log(f"a spooled {name} could not be stored", ex))
            self._cut(end)
            return stored
        finally:
            os.close(guard)

    def _cut(self, end: int) -> None:
        """Remove the first ``end`` bytes (the replayed lines), keeping whatever was appended since."""
        fd = os.open(self._path, os.O_RDWR)
        try:
            _lock(fd, fcntl.LOCK_EX if fcntl else 0)
            size = os.fstat(fd).st_size
            rest = os.pread(fd, size - end, end) if size > end else b""
            os.ftruncate(fd, 0)
            if rest:
                os.pwrite(fd, rest, 0)
        finally:
            os.close(fd)


def attach(store, log=None) -> Spool:
    """For a hook process: spool the writes that meet a held lock, and store what earlier hooks spooled."""
    spool = Spool(log=log)
    store.use_spool(spool)
    drain_quietly(store, spool)
    return spool


def drain_quietly(store, spool: Spool, wait: bool = True) -> None:
    """Drain if anything waits; a held lock only marks the store as spooling (its writes then follow)."""
    from .errors import StoreError

    if not spool.pending():
        return
    waited = store.busy_timeout
    if not wait:
        store.set_busy_timeout(0)
    try:
        spool.drain(store)
    except StoreError as ex:
        store.mark_spooling()
        if not wait:
            return
        spool._log(f"the database could not take the spooled capture yet: {ex}")
    except OSError as ex:
        spool._log("the spool could not be drained", ex)
    finally:
        if not wait:
            store.set_busy_timeout(waited)
