"""Files several processes share: one exclusive lock, one atomic JSON write."""
from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path


class FileLock:
    """An exclusive ``flock`` on a file, released by :meth:`release` or when the process dies.

    ``record_pid`` writes the holder's pid into the file, so that the next one can say who holds it.
    Where ``fcntl`` is missing (Windows) every acquire succeeds: SQLite's own locking has to do.
    """

    def __init__(self, path: str | Path, record_pid: bool = False):
        from pathlib import Path  # here, not at the top: importing this module must not cost pathlib

        self.path = Path(path)
        self.record_pid = record_pid
        self._file = None

    def acquire(self, blocking: bool = True) -> bool:
        """Take the lock (waiting for it when ``blocking``); False when another process holds it.

        Raises OSError when the file cannot be opened, or a blocking lock fails."""
        self._file = open(self.path, "a+")
        try:
            import fcntl

            fcntl.flock(self._file, fcntl.LOCK_EX if blocking else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:  # pragma: no cover - Windows
            pass
        except OSError:
            self._file.close()
            self._file = None
            if blocking:
                raise
            return False
        if self.record_pid:
            self._file.seek(0)
            self._file.truncate()
            self._file.write(str(os.getpid()))
            self._file.flush()
        return True

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing drops the flock
            self._file = None

    def holder(self) -> str:
        """The pid a ``record_pid`` holder wrote, or "?"."""
        try:
            return self.path.read_text().strip() or "?"
        except OSError:
            return "?"

    def __enter__(self) -> "FileLock":
        self.acquire(blocking=True)
        return self

    def __exit__(self, *exc) -> None:
        self.release()


def is_locked(path: str | Path) -> bool:
    """True when another process holds the lock on ``path`` (False when the file cannot be opened)."""
    lock = FileLock(path)
    try:
        if not lock.acquire(blocking=False):
            return True
    except OSError:
        return False
    lock.release()
    return False


def write_json_atomic(path: Path, value, private: bool = True) -> None:
    """Write ``value`` as JSON to ``path`` atomically (see :func:`write_bytes_atomic`)."""
    text = json.dumps(value, indent=2, ensure_ascii=False, default=str) + "\n"
    write_bytes_atomic(path, text.encode("utf-8"), private=private)


def write_bytes_atomic(path: Path, data: bytes, private: bool = True) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the new one, never half of one.

    A file that exists keeps its permissions; a new one is readable by its owner only when ``private``
    (else the umask decides)."""
    import secrets
    import shutil
    from pathlib import Path

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if private else 0o666)
    try:
        with os.fdopen(fd, "wb") as fp:
            fp.write(data)
            fp.flush()
            os.fsync(fp.fileno())
        if path.exists():
            shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
