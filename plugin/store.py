"""The one module that writes SQL: lorebook's SQLite database.

The hook hot path uses a plain ``sqlite3`` connection (``import sqlite_utils``
costs ~200 ms); ``Store.db`` wraps the same connection in a
``sqlite_utils.Database`` for everything else. Migrations run only when
``PRAGMA user_version`` says the file is behind, under a file lock so that
concurrent first runs do not race.
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import sqlite3
import time
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from .errors import (NoteNotFound, StoreCorrupt, StoreError, StoreFull, StoreLocked, StoreReadOnly,
                     StoreUnreadable)

if TYPE_CHECKING:  # pathlib, hashlib and datetime cost a hook process ~10 ms of imports: used lazily
    from pathlib import Path

SCHEMA_VERSION = 5
BUSY_TIMEOUT_S = 5.0
HOOK_BUSY_TIMEOUT_S = 1.0  # a hook answers Claude Code; capture that meets a longer lock goes to the spool
# A store opened with checkpoint_on_close=False (hook processes) leaves the WAL to the next process instead of
# copying it into the database (and fsyncing both) as it closes; past this size it truncates the WAL as it closes.
# SQLite's autocheckpoint cannot bound it alone: a process that opens the database first rebuilds the WAL index,
# forgetting what was already copied, so the WAL is never rewound and would grow with every hook.
WAL_TRUNCATE_BYTES = 1024 * 1024

NOTE_JSON_FIELDS = ("evidence", "validation", "files", "error_signatures", "tags", "concepts", "observation_ids",
                    "flags")
OBSERVATION_JSON_FIELDS = ("files", "meta")
NOTE_STATUSES = ("active", "superseded", "stale", "forgotten", "quarantined")
NOTE_KINDS = ("fix", "pitfall", "pattern", "decision", "gotcha", "how-it-works")


def now() -> str:
    """The UTC time to the second, ISO 8601 (``2026-12-01T15:44:03+00:00``)."""
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())


def content_hash(*parts: Any) -> str:
    import hashlib

    digest = hashlib.sha256()
    for part in parts:
        digest.update(json.dumps(part, sort_keys=True, default=str).encode("utf-8", "replace"))
        digest.update(b"\x00")
    return digest.hexdigest()


def _decode(row: sqlite3.Row | None, json_fields: Iterable[str]) -> dict | None:
    if row is None:
        return None
    record = dict(row)
    for field in json_fields:
        if field in record and isinstance(record[field], str):
            try:
                record[field] = json.loads(record[field])
            except ValueError:
                pass
    return record


def _encode(record: dict, json_fields: Iterable[str]) -> dict:
    out = dict(record)
    for field in json_fields:
        if field in out and not isinstance(out[field], str):
            out[field] = json.dumps(out[field], ensure_ascii=False)
    return out


def _corpus_filter(project_keys: list[str] | None, since: str | None, until: str | None) -> tuple[list[str], list]:
    """WHERE terms and parameters shared by the corpus queries over notes and observations."""
    where, params = [], []
    if project_keys is not None:
        where.append(f"project_key IN ({', '.join('?' for _ in project_keys)})")
        params += project_keys
    if since:
        where.append("created_at >= ?")
        params.append(since)
    if until:
        where.append("created_at < ?")
        params.append(until)
    return where, params


# SQLite's primary result codes (``sqlite3.Error.sqlite_errorcode & 0xff``, Python 3.11+), and the words of
# their messages for older Pythons: which domain error each becomes
_PERM, _BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _AUTH, _NOTADB = 3, 5, 6, 8, 10, 11, 13, 14, 23, 26
_ERROR_CODES = {_BUSY: StoreLocked, _LOCKED: StoreLocked, _READONLY: StoreReadOnly, _FULL: StoreFull,
                _CORRUPT: StoreCorrupt, _NOTADB: StoreCorrupt, _CANTOPEN: StoreUnreadable, _IOERR: StoreUnreadable,
                _PERM: StoreUnreadable, _AUTH: StoreUnreadable}
_ERROR_WORDS = (("locked", StoreLocked), ("busy", StoreLocked), ("readonly", StoreReadOnly),
                ("read-only", StoreReadOnly), ("is full", StoreFull), ("malformed", StoreCorrupt),
                ("not a database", StoreCorrupt), ("unable to open", StoreUnreadable),
                ("disk i/o error", StoreUnreadable), ("authorization denied", StoreUnreadable))


def _store_error_class(ex: sqlite3.Error) -> type[StoreError] | None:
    """The domain error for a SQLite error about the file itself; None for a bug (bad SQL, a constraint)."""
    if isinstance(ex, (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.DataError)):
        return None
    code = getattr(ex, "sqlite_errorcode", None)
    if code is not None:
        return _ERROR_CODES.get(code & 0xFF)
    text = str(ex).lower()
    return next((cls for words, cls in _ERROR_WORDS if words in text), None)


def _writable(path: Path) -> bool:
    """Whether the database file and its directory (for -wal, -shm and the lock file) can be written.

    access(2) also says no for a read-only mount and an immutable file (chattr +i), even to root."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def _translating(method):
    """Run ``method`` with SQLite's errors about the file raised as lorebook's domain errors."""
    import functools

    if method.__code__.co_flags & 0x20:  # a generator: errors surface while it is iterated
        @functools.wraps(method)
        def generator(self, *args, **kwargs):
            try:
                yield from method(self, *args, **kwargs)
            except sqlite3.Error as ex:
                raise self._domain_error(ex) from ex
        return generator

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as ex:
            raise self._domain_error(ex) from ex
        except OSError as ex:  # the lock file beside the database, its size
            raise self._domain_error(ex) from ex
    return call


def _spooled(method):
    """A write that a hook may leave for later: past the lock's wait it goes to the store's spool.

    Only with a spool attached (hook processes), never inside a transaction (the caller holds the lock
    then), and once one write of this process is spooled the next ones follow it there at once: they
    keep their order, and the hook does not wait on the lock twice."""
    import functools

    code = method.__code__
    names = code.co_varnames[1:code.co_argcount]

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        if self._spool is None or self.conn.in_transaction:
            return method(self, *args, **kwargs)
        if not self._spooling:
            try:
                return method(self, *args, **kwargs)
            except StoreLocked:
                self.mark_spooling()
        arguments = dict(zip(names, args), **kwargs)
        return getattr(self, f"_spool_{method.__name__}")(arguments)
    return call


def _translate_errors(cls):
    """Wrap every method of the class (not the plumbing that does it itself) with :func:`_translating`."""
    for name, attr in list(vars(cls).items()):
        if name in ("atomic", "_domain_error") or (name.startswith("__") and name != "__init__"):
            continue
        if callable(attr) and hasattr(attr, "__code__"):
            setattr(cls, name, _translating(attr))
    return cls


@_translate_errors
class Store:
    """lorebook's database. ``Store()`` opens the file in the user dir.

    The store is the only code that runs SQL: callers use its named methods. SQLite's errors
    about the file (locked, damaged, read-only, full, unreadable) come out as the domain errors
    of ``lorebook.errors`` (``StoreError`` and its subclasses), each naming the file and what to
    do. ``conn`` is the raw connection, for tests and benchmarks only.
    """

    def __init__(self, path: str | Path | None = None, busy_timeout: float = BUSY_TIMEOUT_S,
                 checkpoint_on_close: bool = True):
        if path is None:
            from .config import db_file

            path = db_file()
        self._path = os.fspath(path)
        self.busy_timeout = busy_timeout
        self._spool = None
        self._spooling = False
        self.conn = sqlite3.connect(self._path, timeout=busy_timeout, isolation_level=None)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        self.conn.execute("PRAGMA foreign_keys = ON")
        self.conn.execute("PRAGMA synchronous = NORMAL")  # safe in WAL mode: commits do not fsync
        self._checkpoint_on_close = checkpoint_on_close
        if not checkpoint_on_close and hasattr(self.conn, "setconfig"):  # Python 3.12+
            self.conn.setconfig(sqlite3.SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, True)
        self._db = None
        if self.conn.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
            self._migrate()

    # --- plumbing --------------------------------------------------------------

    @property
    def path(self) -> Path:
        """The database file (a ``Path``: pathlib is imported only when asked for)."""
        from pathlib import Path

        return Path(self._path)

    def _domain_error(self, ex: sqlite3.Error | OSError) -> Exception:
        """The domain error (with the file and what to do) for a SQLite error; the error itself for a bug."""
        path = self.path
        if isinstance(ex, OSError):
            cls = {errno.ENOSPC: StoreFull, errno.EDQUOT: StoreFull, errno.EROFS: StoreReadOnly,
                   errno.EACCES: StoreReadOnly, errno.EPERM: StoreReadOnly}.get(ex.errno, StoreUnreadable)
        else:
            cls = _store_error_class(ex)
        if cls is None:
            return ex
        if cls is StoreUnreadable and path.is_file() and not _writable(path):
            cls = StoreReadOnly  # SQLite could not set up a read-only file (its -wal/-shm): say why
        if cls is StoreLocked:
            message = (f"The database {path} stayed locked for {self.busy_timeout:g} s: another lorebook process "
                       "is writing. Try again in a moment.")
        elif cls is StoreCorrupt:
            message = (f"The database {path} is damaged or is not a lorebook database ({ex}). Move it away "
                       f"(mv {path} {path}.broken): lorebook starts a new one, and `sqlite3 {path}.broken .recover` "
                       "may rescue what it held.")
        elif cls is StoreReadOnly:
            message = (f"The database {path} cannot be written ({ex}). Fix the permissions of the file and of its "
                       f"directory (SQLite writes {path.name}-wal and {path.name}-shm beside it), or point "
                       "LOREBOOK_HOME at a writable directory.")
        elif cls is StoreFull:
            message = (f"The database {path} cannot grow: the disk holding it is full ({ex}). Free space there, "
                       "or point LOREBOOK_HOME at a disk with room.")
        elif path.is_dir():
            message = (f"The database {path} is a directory, not a file ({ex}). Move it away "
                       f"(mv {path} {path}.moved): lorebook starts a new database there.")
        else:
            message = (f"The database {path} cannot be opened or read ({ex}). Fix its permissions (and its "
                       "directory's), or move it away: lorebook starts a new one.")
        return cls(message, path=str(path))

    def _migrate(self) -> None:
        from .files import FileLock

        with FileLock(self._path + ".lock"):
            if self.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
                return  # another process migrated while we waited
            mode = self.conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode.lower() != "wal":  # e.g. a network file system
                self.conn.execute("PRAGMA journal_mode = DELETE")
            from .migrations import migrations

            migrations.apply(self.db)
            self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @property
    def db(self):
        """A ``sqlite_utils.Database`` on this store's connection (imports sqlite_utils)."""
        if self._db is None:
            import sqlite_utils

            self._db = sqlite_utils.Database(self.conn)
        return self._db

    @contextlib.contextmanager
    def atomic(self) -> Iterator[sqlite3.Connection]:
        """A write transaction; ``BEGIN IMMEDIATE`` so that busy waits happen up front."""
        if self.conn.in_transaction:
            name = f"sp_{os.urandom(6).hex()}"
            self.conn.execute(f"SAVEPOINT {name}")
            try:
                yield self.conn
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
                    self.conn.execute(f"RELEASE SAVEPOINT {name}")
                raise
            try:
                self.conn.execute(f"RELEASE SAVEPOINT {name}")
            except sqlite3.Error as ex:
                raise self._domain_error(ex) from ex
            return
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as ex:
            raise self._domain_error(ex) from ex
        try:
            yield self.conn
        except BaseException:
            if self.conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute("ROLLBACK")
            raise
        try:
            self.conn.execute("COMMIT")
        except sqlite3.Error as ex:  # e.g. the disk filled up, or a reader held the lock past the timeout
            if self.conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute("ROLLBACK")
            raise self._domain_error(ex) from ex

    def close(self) -> None:
        """Close the connection. A hook's store (``checkpoint_on_close=False``) leaves the WAL as it is, unless
        it is over ``WAL_TRUNCATE_BYTES``: then it copies it into the database and truncates it, when no other
        process is in the way (else a later close does)."""
        if not self._checkpoint_on_close:
            try:
                if os.path.getsize(self._path + "-wal") > WAL_TRUNCATE_BYTES:
                    self.conn.execute("PRAGMA busy_timeout = 0")
                    self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except (OSError, sqlite3.Error):
                pass  # no WAL (another journal mode), or busy: the next close tries again
        self.conn.close()

    def set_busy_timeout(self, seconds: float) -> None:
        """How long a write waits for another process's lock before ``StoreLocked``."""
        self.busy_timeout = seconds
        self.conn.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")

    # --- the spool: capture a hook could not write for the lock (lorebook.spool) ------------------

    SPOOLED_METHODS = ("ensure_project", "ensure_session", "update_session", "add_prompt", "add_observation",
                       "record_recalls", "add_secret_prints")

    def use_spool(self, spool) -> None:
        """Send the writes of ``SPOOLED_METHODS`` that meet a held lock to ``spool`` (``spool.append(name,
        arguments)``) instead of failing; they answer as if written (``ensure_session`` with the row to be)."""
        self._spool = spool

    def mark_spooling(self) -> None:
        """The lock was held past the wait: the next spooled writes go to the spool at once (after the
        earlier ones, in order), and no later write of this process waits for the lock again."""
        self._spooling = True
        self.set_busy_timeout(0)

    @property
    def spooling(self) -> bool:
        """Whether this store has sent a write to its spool (the lock was held past the wait)."""
        return self._spooling

    def replay_spooled(self, calls: Iterable[tuple[str, dict]], on_error=None) -> int:
        """Make spooled writes, in order, in one transaction: how many were made.

        Each is idempotent, so a call replayed twice stores nothing twice. A call that fails for
        another reason than the lock is passed to ``on_error(name, arguments, error)`` and skipped."""
        done = 0
        with self.atomic():
            for name, arguments in calls:
                if name not in self.SPOOLED_METHODS:
                    if on_error:
                        on_error(name, arguments, ValueError(f"not a spooled write: {name!r}"))
                    continue
                try:
                    getattr(self, name)(**arguments)
                except StoreError:
                    raise  # the file, not the call: the spool stays for later
                except (sqlite3.Error, TypeError, ValueError, KeyError, AttributeError) as ex:
                    if on_error:
                        on_error(name, arguments, ex)
                    continue
                done += 1
        self._spooling = False
        return done

    def _spool_call(self, name: str, arguments: dict) -> None:
        self._spool.append(name, arguments)

    def _spool_ensure_project(self, arguments: dict) -> None:
        self._spool_call("ensure_project", arguments)

    def _spool_ensure_session(self, arguments: dict) -> dict:
        self._spool_call("ensure_session", arguments)
        # the row as it will be: the stored one with the new fields filling its gaps, or a new one
        session = self.get_session(arguments["session_id"])
        if session is None:
            columns = [r[1] for r in self.conn.execute("PRAGMA table_info(sessions)")]
            stamp = now()
            session = dict.fromkeys(columns)
            session.update(id=arguments["session_id"], source_agent="claude-code", status="open",
                           started_at=stamp, last_event_at=stamp)
        for key, value in arguments.items():
            if key != "session_id" and session.get(key) is None:
                session[key] = value
        return session

    def _spool_update_session(self, arguments: dict) -> None:
        self._spool_call("update_session", arguments)

    def _spool_add_prompt(self, arguments: dict) -> None:
        arguments["created_at"] = arguments.get("created_at") or now()
        self._spool_call("add_prompt", arguments)

    def _spool_add_observation(self, arguments: dict) -> None:
        arguments["observation"] = dict(arguments["observation"])
        arguments["observation"].setdefault("created_at", now())
        self._spool_call("add_observation", arguments)

    def _spool_add_secret_prints(self, arguments: dict) -> None:
        arguments["prints"] = sorted(arguments["prints"])
        self._spool_call("add_secret_prints", arguments)

    def _spool_record_recalls(self, arguments: dict) -> None:
        arguments["note_ids"] = list(arguments["note_ids"])
        self._spool_call("record_recalls", arguments)

    def _insert(self, table: str, record: dict, or_ignore: bool = False) -> int | None:
        columns = ", ".join(f"[{c}]" for c in record)
        marks = ", ".join("?" for _ in record)
        verb = "INSERT OR IGNORE" if or_ignore else "INSERT"
        cursor = self.conn.execute(f"{verb} INTO [{table}] ({columns}) VALUES ({marks})", list(record.values()))
        if cursor.rowcount == 0:
            return None
        return cursor.lastrowid

    # --- projects and sessions ---------------------------------------------------

    @_spooled
    def ensure_project(self, key: str, name: str, root: str | None = None, remote: str | None = None) -> None:
        with self.atomic():
            self.conn.execute(
                "INSERT OR IGNORE INTO projects (key, name, root, remote, created_at) VALUES (?, ?, ?, ?, ?)",
                (key, name, root, remote, now()),
            )

    def get_project(self, key: str) -> dict | None:
        return _decode(self.conn.execute("SELECT * FROM projects WHERE key = ?", (key,)).fetchone(), ("aliases",))

    def project_for_alias(self, key: str) -> str | None:
        """The project key that lists ``key`` among its aliases (a moved repo), if any."""
        row = self.conn.execute(
            "SELECT projects.key FROM projects, json_each(projects.aliases) WHERE json_each.value = ?", (key,)
        ).fetchone()
        return row[0] if row else None

    def canonical_project(self, key: str) -> str:
        """The key a project's notes live under: the project ``key`` is an alias of (a moved repo), else ``key``."""
        return self.project_for_alias(key) or key

    def project_for_root(self, path: str) -> str | None:
        """The known project whose root is ``path`` or holds it (the longest such root), if any."""
        row = self.conn.execute(
            "SELECT key FROM projects WHERE root = ? OR substr(?, 1, length(root) + 1) = root || '/' "
            "ORDER BY length(root) DESC LIMIT 1", (path, path)
        ).fetchone()
        return row[0] if row else None

    def get_session(self, session_id: str) -> dict | None:
        row = self.conn.execute("SELECT * FROM sessions WHERE id = ?", (session_id,)).fetchone()
        return dict(row) if row else None

    @_spooled
    def ensure_session(self, session_id: str, **fields: Any) -> dict:
        """The session row, created on first sight; ``fields`` fill what is still empty."""
        stamp = now()
        with self.atomic():
            self.conn.execute(
                "INSERT OR IGNORE INTO sessions (id, started_at, last_event_at) VALUES (?, ?, ?)",
                (session_id, stamp, stamp),
            )
            sets = ", ".join(f"[{k}] = COALESCE([{k}], ?)" for k in fields)
            self.conn.execute(
                f"UPDATE sessions SET {sets + ', ' if sets else ''}last_event_at = ? WHERE id = ?",
                [*fields.values(), stamp, session_id],
            )
        return self.get_session(session_id)

    @_spooled
    def update_session(self, session_id: str, **fields: Any) -> None:
        if not fields:
            return
        sets = ", ".join(f"[{k}] = ?" for k in fields)
        with self.atomic():
            self.conn.execute(f"UPDATE sessions SET {sets} WHERE id = ?", [*fields.values(), session_id])

    def checkpoint(self) -> None:
        """Copy the WAL into the database file when no reader is in the way (SessionEnd's flush)."""
        try:
            self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.OperationalError:
            pass  # busy: the next checkpoint will do it

    # --- prompts and observations ----------------------------------------------

    @_spooled
    def add_prompt(self, session_id: str, text: str, prompt_id: str | None = None,
                   created_at: str | None = None) -> int | None:
        with self.atomic():
            return self._insert(
                "prompts",
                {"session_id": session_id, "prompt_id": prompt_id, "text": text,
                 "content_hash": content_hash(text), "created_at": created_at or now()},
                or_ignore=True,
            )

    @_spooled
    def add_secret_prints(self, session_id: str, prints: Iterable[str]) -> None:
        """Keep the fingerprints of secrets redacted in the session (``redact.fingerprints``; never the values)."""
        rows = [(session_id, p) for p in sorted(set(prints))]
        if rows:
            with self.atomic():
                self.conn.executemany("INSERT OR IGNORE INTO secret_prints (session_id, print) VALUES (?, ?)", rows)

    def secret_prints(self, session_id: str) -> set[str]:
        """The fingerprints of the secrets redacted in the session so far (none from a spool not yet replayed)."""
        return {r[0] for r in self.conn.execute("SELECT print FROM secret_prints WHERE session_id = ?", (session_id,))}

    def session_prompts(self, session_id: str) -> list[dict]:
        return [dict(r) for r in self.conn.execute("SELECT * FROM prompts WHERE session_id = ? ORDER BY id", (session_id,))]

    @_spooled
    def add_observation(self, observation: dict) -> int | None:
        """Store one observation; None if it is a duplicate (same tool_use_id or same content in the session)."""
        record = dict(observation)
        record.setdefault("created_at", now())
        record.setdefault("content_hash", content_hash(
            record.get("tool"), record.get("target"), record.get("outcome"), record.get("body"), record.get("tool_use_id")))
        with self.atomic():
            return self._insert("observations", _encode(record, OBSERVATION_JSON_FIELDS), or_ignore=True)

    def has_observation(self, tool_use_id: str) -> bool:
        """Whether an observation with this tool_use_id is stored (transcript import skips those)."""
        return self.conn.execute(
            "SELECT 1 FROM observations WHERE tool_use_id = ?", (tool_use_id,)).fetchone() is not None

    def session_observations(self, session_id: str) -> list[dict]:
        rows = self.conn.execute("SELECT * FROM observations WHERE session_id = ? ORDER BY id", (session_id,))
        return [_decode(r, OBSERVATION_JSON_FIELDS) for r in rows]

    def get_observation(self, observation_id: int) -> dict | None:
        return _decode(self.conn.execute("SELECT * FROM observations WHERE id = ?", (observation_id,)).fetchone(),
                       OBSERVATION_JSON_FIELDS)

    # --- notes ---------------------------------------------------------------------

    def add_note(self, note: dict) -> int:
        stamp = now()
        record = dict(note)
        record.setdefault("created_at", stamp)
        record.setdefault("updated_at", stamp)
        record.setdefault("content_hash", content_hash(
            record.get("title"), record.get("trigger"), record.get("change"), record.get("evidence")))
        with self.atomic():
            return self._insert("notes", _encode(record, NOTE_JSON_FIELDS))

    def get_note(self, note_id: int) -> dict:
        note = _decode(self.conn.execute("SELECT * FROM notes WHERE id = ?", (note_id,)).fetchone(), NOTE_JSON_FIELDS)
        if note is None:
            raise NoteNotFound(f"No note has id {note_id}. List notes with 'lorebook list'.")
        return note

    def count_notes(self) -> int:
        """How many notes are stored, whatever their status (reading it also proves the file is a database)."""
        return self.conn.execute("SELECT count(*) FROM notes").fetchone()[0]

    def note_index_status(self, note_id: int) -> str | None:
        """pending, indexed, failed or forgotten; None when no note has that id."""
        row = self.conn.execute("SELECT index_status FROM notes WHERE id = ?", (note_id,)).fetchone()
        return row[0] if row else None

    def open_problems_with_signatures(self, signatures: list[str], project_key: str | None,
                                      exclude_id: int) -> list[int]:
        """Active pitfalls and gotchas (of this project, or global) naming one of these error signatures."""
        # EXISTS, not a join with DISTINCT: a note's signatures are read only once it is a pitfall in scope
        rows = self.conn.execute(
            """SELECT notes.id FROM notes WHERE notes.status = 'active' AND notes.kind IN ('pitfall', 'gotcha')
               AND notes.id != ? AND (notes.scope = 'global' OR notes.project_key IS ?)
               AND EXISTS (SELECT 1 FROM json_each(notes.error_signatures)
                           WHERE json_each.value IN (SELECT value FROM json_each(?)))
               ORDER BY notes.id""",
            (exclude_id, project_key, json.dumps(signatures)))
        return [r[0] for r in rows]

    def project_notes(self, project_key: str | None, limit: int = 50, include_global: bool = True) -> list[dict]:
        """Active notes of a project (and global ones), most useful first: verified, then newest."""
        rows = self.conn.execute(
            """SELECT * FROM notes WHERE status = 'active'
               AND ((scope = 'project' AND project_key IS ? AND ? IS NOT NULL) OR (scope = 'global' AND ?))
               ORDER BY verified DESC, updated_at DESC, id DESC LIMIT ?""",
            (project_key, project_key, 1 if include_global else 0, limit),
        )
        return [_decode(r, NOTE_JSON_FIELDS) for r in rows]

    # --- recalls and receipts ------------------------------------------------------

    @_spooled
    def record_recalls(self, session_id: str, note_ids: Iterable[int], event: str) -> None:
        stamp = now()
        with self.atomic():
            self.conn.executemany(
                "INSERT OR IGNORE INTO recalls (session_id, note_id, event, created_at) VALUES (?, ?, ?, ?)",
                [(session_id, note_id, event, stamp) for note_id in note_ids],
            )

    def recalled_note_ids(self, session_id: str) -> set[int]:
        return {r[0] for r in self.conn.execute("SELECT note_id FROM recalls WHERE session_id = ?", (session_id,))}

    def get_receipt(self, source_agent: str, run_key: str) -> dict | None:
        row = self.conn.execute(
            "SELECT * FROM receipts WHERE source_agent = ? AND run_key = ?", (source_agent, run_key)
        ).fetchone()
        return _decode(row, ("reasons", "warnings"))

    def add_receipt(self, receipt: dict) -> None:
        record = _encode(dict(receipt, created_at=receipt.get("created_at") or now()), ("reasons", "warnings"))
        with self.atomic():
            self._insert("receipts", record, or_ignore=True)

    # --- listing (lorebook list, MCP list_notes) -------------------------------------

    LIST_TEXT_FIELDS = ("title", "summary", "trigger", "change", "conditions", "evidence", "tags", "files",
                        "error_signatures")

    def list_notes(self, *, tag: str | None = None, search: str | None = None, kind: str | None = None,
                   status: str | None = "active", since: str | None = None, until: str | None = None,
                   project_key: str | None = None, limit: int = 20, offset: int = 0) -> tuple[list[dict], int]:
        """One page of notes, newest first, and how many match in all.

        ``search`` is a literal, case-insensitive (ASCII) substring: ``%`` and
        ``_`` match themselves (``instr``, not ``LIKE``). ``tag`` matches one
        tag exactly (case-insensitive). ``since``/``until`` bound ``created_at``
        (ISO strings; ``until`` is exclusive). ``status=None`` lists every status.
        """
        where, params = ["1"], []
        if status is not None:
            where.append("status = ?")
            params.append(status)
        if kind is not None:
            where.append("kind = ?")
            params.append(kind)
        if project_key is not None:
            where.append("project_key = ?")
            params.append(project_key)
        if tag is not None:
            where.append("EXISTS (SELECT 1 FROM json_each(notes.tags) WHERE lower(json_each.value) = lower(?))")
            params.append(tag)
        if search:
            where.append("(" + " OR ".join(f"instr(lower([{f}]), lower(?)) > 0" for f in self.LIST_TEXT_FIELDS) + ")")
            params += [search] * len(self.LIST_TEXT_FIELDS)
        if since is not None:
            where.append("created_at >= ?")
            params.append(since)
        if until is not None:
            where.append("created_at < ?")
            params.append(until)
        clause = " AND ".join(where)
        # one scan: the page and the total together (a window count), not a count and a page
        rows = [_decode(r, NOTE_JSON_FIELDS) for r in self.conn.execute(
            f"SELECT *, count(*) OVER () AS _total FROM notes WHERE {clause} "
            "ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?", [*params, limit, offset])]
        if rows:
            total = rows[0]["_total"]
            for row in rows:
                del row["_total"]
        else:  # past the last page (or nothing matches): count apart
            total = self.conn.execute(f"SELECT count(*) FROM notes WHERE {clause}", params).fetchone()[0]
        return rows, total

    # --- corpora: the rows a corpus filter selects -----------------------------

    def corpus_notes(self, project_keys: list[str] | None = None, kinds: list[str] | None = None,
                     since: str | None = None, until: str | None = None,
                     note_ids: list[int] | None = None) -> list[dict]:
        """Active notes matching a corpus filter (tags and files are matched by the caller), most useful first.

        ``since``/``until`` compare with ``created_at`` (ISO strings sort as dates).
        """
        where, params = _corpus_filter(project_keys, since, until)
        where.append("status = 'active'")
        if kinds:
            where.append(f"kind IN ({', '.join('?' for _ in kinds)})")
            params += kinds
        if note_ids is not None:
            where.append("id IN (SELECT value FROM json_each(?))")
            params.append(json.dumps(note_ids))
        rows = self.conn.execute(
            f"SELECT * FROM notes WHERE {' AND '.join(where)} ORDER BY verified DESC, updated_at DESC, id DESC", params)
        return [_decode(r, NOTE_JSON_FIELDS) for r in rows]

    def corpus_observations(self, project_keys: list[str] | None = None, since: str | None = None,
                            until: str | None = None) -> list[dict]:
        """Observations matching a corpus filter, newest first."""
        where, params = _corpus_filter(project_keys, since, until)
        where.append("1")
        rows = self.conn.execute(
            f"SELECT * FROM observations WHERE {' AND '.join(where)} ORDER BY created_at DESC, id DESC", params)
        return [_decode(r, OBSERVATION_JSON_FIELDS) for r in rows]

    def project_keys_like(self, key: str) -> list[str]:
        """The project key itself, every key listed as its alias, and the project it is an alias of."""
        keys = [key]
        project = self.get_project(key)
        if project:
            keys += [k for k in project.get("aliases") or [] if isinstance(k, str)]
        owner = self.project_for_alias(key)
        if owner:
            keys.append(owner)
        return list(dict.fromkeys(keys))

    def count_project_notes(self, project_key: str) -> int:
        return self.conn.execute(
            "SELECT count(*) FROM notes WHERE project_key = ? AND status = 'active'", (project_key,)).fetchone()[0]

    # --- writeback: neighbours, revisions, relations, lifecycle -------------------

    def similar_note_candidates(self, text: str, project_key: str | None, limit: int = 25) -> list[dict]:
        """Active notes of this project (or global) sharing words with ``text``, best bm25 first; raw text is safe."""
        words = [w for w in "".join(c if c.isalnum() or c == "_" else " " for c in text).split() if len(w) > 1]
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in dict.fromkeys(words[:200]))
        rows = self.conn.execute(
            """SELECT notes.* FROM notes_fts JOIN notes ON notes.id = notes_fts.rowid
               WHERE notes_fts MATCH ? AND notes.status = 'active'
               AND (notes.scope = 'global' OR notes.project_key IS ?)
               ORDER BY bm25(notes_fts) LIMIT ?""", (match, project_key, limit))
        return [_decode(r, NOTE_JSON_FIELDS) for r in rows]

    def update_note(self, note_id: int, fields: dict, reason: str, extra_snapshot: dict | None = None) -> None:
        """Change a note, keeping its previous state in ``note_revisions``; its vectors become pending."""
        with self.atomic():
            before = self.get_note(note_id)
            revision = self.conn.execute(
                "SELECT COALESCE(MAX(revision), 0) + 1 FROM note_revisions WHERE note_id = ?", (note_id,)).fetchone()[0]
            snapshot = dict(before, **({"_merged": extra_snapshot} if extra_snapshot else {}))
            self.conn.execute(
                "INSERT INTO note_revisions (note_id, revision, snapshot, reason, created_at) VALUES (?, ?, ?, ?, ?)",
                (note_id, revision, json.dumps(snapshot, ensure_ascii=False, default=str), reason, now()))
            record = _encode(dict(fields), NOTE_JSON_FIELDS)
            after = dict(before, **fields)
            record["content_hash"] = content_hash(after.get("title"), after.get("trigger"), after.get("change"),
                                                  after.get("evidence"))
            record.setdefault("updated_at", now())
            if any(k in fields for k in ("title", "summary", "trigger", "evidence", "change", "tags", "files",
                                         "error_signatures", "conditions")):
                record.setdefault("index_status", "pending")
            sets = ", ".join(f"[{k}] = ?" for k in record)
            self.conn.execute(f"UPDATE notes SET {sets} WHERE id = ?", [*record.values(), note_id])

    def count_note_revisions(self, note_id: int) -> int:
        return self.conn.execute("SELECT count(*) FROM note_revisions WHERE note_id = ?", (note_id,)).fetchone()[0]

    def note_revisions(self, note_id: int) -> list[dict]:
        rows = self.conn.execute("SELECT * FROM note_revisions WHERE note_id = ? ORDER BY revision", (note_id,))
        return [_decode(r, ("snapshot",)) for r in rows]

    def add_relation(self, from_note: int, to_note: int, kind: str) -> None:
        with self.atomic():
            self.conn.execute(
                "INSERT OR IGNORE INTO relations (from_note, to_note, kind, created_at) VALUES (?, ?, ?, ?)",
                (from_note, to_note, kind, now()))

    def note_relations(self, note_id: int) -> list[dict]:
        """Every relation touching the note, both directions."""
        rows = self.conn.execute(
            "SELECT * FROM relations WHERE from_note = ? OR to_note = ? ORDER BY id", (note_id, note_id))
        return [dict(r) for r in rows]

    def forget_note_content(self, note_id: int) -> None:
        """Erase a note's content (FTS follows through its trigger), its revisions and its stored vectors.

        The row stays as a tombstone (status ``forgotten``) so that relations and receipts stay valid.
        """
        with self.atomic():
            self.get_note(note_id)
            self.conn.execute(
                """UPDATE notes SET title = '[forgotten]', summary = '', trigger = '', evidence = '[]', change = '',
                   validation = '{}', conditions = '', files = '[]', error_signatures = '[]', tags = '[]',
                   concepts = '[]', observation_ids = '[]', status = 'forgotten', index_status = 'forgotten',
                   content_hash = ?, updated_at = ? WHERE id = ?""", (content_hash("forgotten", note_id), now(), note_id))
            self.conn.execute("DELETE FROM note_revisions WHERE note_id = ?", (note_id,))
            self.conn.execute("DELETE FROM recalls WHERE note_id = ?", (note_id,))
            has_embeddings = self.conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'embeddings'").fetchone()
            if has_embeddings:
                # llm's table: (collection_id, id) with the note id as text, in lorebook's note collections
                self.conn.execute(
                    """DELETE FROM embeddings WHERE id IN (?, ?) AND collection_id IN
                       (SELECT id FROM collections WHERE name LIKE 'lorebook-notes%')""",
                    (str(note_id), f"note:{note_id}"))

    # --- vectors: llm-compatible collections / embeddings tables (lorebook.vectors) --------

    def has_vector_tables(self) -> bool:
        return self.conn.execute(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('collections', 'embeddings')"
        ).fetchone()[0] == 2

    def ensure_vector_tables(self) -> None:
        """Create or upgrade llm's ``collections`` / ``embeddings`` tables (llm's migrations: imports llm),
        then lorebook's own vector migrations (``migrations.vector_migrations``) that build on them."""
        from .llm_bridge import apply_embeddings_migrations

        from .files import FileLock

        with FileLock(self._path + ".lock"):
            apply_embeddings_migrations(self.db)
            from .migrations import vector_migrations

            vector_migrations.apply(self.db)

    def vector_collection(self, name: str) -> dict | None:
        """The llm collection row (id, name, model), or None (also when the tables do not exist yet)."""
        try:
            row = self.conn.execute("SELECT id, name, model FROM collections WHERE name = ?", (name,)).fetchone()
        except sqlite3.OperationalError:
            return None
        return dict(row) if row else None

    def set_vector_collection(self, name: str, model: str) -> tuple[int, str | None]:
        """Create the collection for ``model``, or switch it to ``model``: (collection id, previous model).

        Switching drops the collection's vectors and marks every note pending again."""
        with self.atomic():
            row = self.conn.execute("SELECT id, model FROM collections WHERE name = ?", (name,)).fetchone()
            if row is None:
                cursor = self.conn.execute("INSERT INTO collections (name, model) VALUES (?, ?)", (name, model))
                return cursor.lastrowid, None
            if row["model"] != model:
                self.conn.execute("DELETE FROM embeddings WHERE collection_id = ?", (row["id"],))
                self.conn.execute("UPDATE collections SET model = ? WHERE id = ?", (model, row["id"]))
                self.conn.execute(
                    "UPDATE notes SET index_status = 'pending' WHERE index_status IN ('indexed', 'failed')")
            return row["id"], row["model"]

    def notes_to_index(self, limit: int, after_id: int = 0) -> list[dict]:
        """Pending notes (forgotten ones never), lowest id first, from ``after_id`` on."""
        rows = self.conn.execute(
            """SELECT * FROM notes WHERE index_status = 'pending' AND status != 'forgotten' AND id > ?
               ORDER BY id LIMIT ?""", (after_id, limit))
        return [_decode(r, NOTE_JSON_FIELDS) for r in rows]

    def save_note_vectors(self, collection_id: int, rows: Iterable[dict]) -> int:
        """Store vectors and mark their notes indexed, in one transaction: how many were saved.

        Each row: note_id, updated_at (as read), embedding (bytes), content, content_hash, metadata.
        A note edited since it was read keeps ``pending`` (its new text gets embedded next time)."""
        saved = 0
        stamp = int(time.time())
        with self.atomic():
            for row in rows:
                cursor = self.conn.execute(
                    """UPDATE notes SET index_status = 'indexed'
                       WHERE id = ? AND updated_at IS ? AND index_status = 'pending' AND status != 'forgotten'""",
                    (row["note_id"], row["updated_at"]))
                if cursor.rowcount == 0:
                    continue
                self.conn.execute(
                    """INSERT OR REPLACE INTO embeddings
                       (collection_id, id, embedding, content, content_hash, metadata, updated)
                       VALUES (?, ?, ?, ?, ?, ?, ?)""",
                    (collection_id, str(row["note_id"]), row["embedding"], row["content"], row["content_hash"],
                     json.dumps(row.get("metadata") or {}, ensure_ascii=False), stamp))
                saved += 1
        return saved

    def mark_notes_index_failed(self, note_ids: Iterable[int]) -> None:
        with self.atomic():
            self.conn.executemany("UPDATE notes SET index_status = 'failed' WHERE id = ? AND index_status = 'pending'",
                                  [(i,) for i in note_ids])

    def retry_failed_index(self) -> int:
        """Mark failed notes pending again: how many."""
        with self.atomic():
            return self.conn.execute("UPDATE notes SET index_status = 'pending' WHERE index_status = 'failed'").rowcount

    def index_counts(self) -> dict[str, int]:
        """Notes by index_status (forgotten notes left out)."""
        counts = {"pending": 0, "indexed": 0, "failed": 0}
        rows = self.conn.execute(
            "SELECT index_status, count(*) FROM notes WHERE status != 'forgotten' GROUP BY index_status")
        counts.update({status: n for status, n in rows})
        return counts

    def vector_generation(self, collection_id: int) -> tuple:
        """A value that changes whenever a vector of the collection is added, replaced or deleted.

        O(1) from the trigger-kept counter; when the triggers are missing (an older database, or a
        later llm migration rebuilt the table) (count, max rowid), which llm's INSERT OR REPLACE also moves."""
        triggers = self.conn.execute(
            """SELECT count(*) FROM sqlite_master WHERE type = 'trigger'
               AND name IN ('lorebook_embeddings_ai', 'lorebook_embeddings_ad', 'lorebook_embeddings_au')""").fetchone()[0]
        if triggers == 3:
            row = self.conn.execute(
                "SELECT generation FROM lorebook_vector_generation WHERE collection_id = ?", (collection_id,)).fetchone()
            return ("generation", int(row[0]) if row else 0)
        row = self.conn.execute(
            "SELECT count(*), COALESCE(max(rowid), 0) FROM embeddings WHERE collection_id = ?", (collection_id,)
        ).fetchone()
        return ("count", int(row[0]), int(row[1]))

    def collection_vectors(self, collection_id: int) -> Iterator[tuple[str, bytes]]:
        """(id, embedding blob) of every vector in a collection."""
        yield from self.conn.execute("SELECT id, embedding FROM embeddings WHERE collection_id = ?", (collection_id,))

    # --- search and recall (lorebook.search, lorebook.recall) -------------------------

    def _note_filter(self, filters: dict) -> tuple[str, list]:
        """A WHERE clause over ``notes`` for search filters (see :func:`lorebook.search.search`)."""
        where, params = [], []
        statuses = filters.get("statuses") or ("active",)
        where.append(f"notes.status IN ({', '.join('?' for _ in statuses)})")
        params += list(statuses)
        if not filters.get("all_projects"):
            keys = filters.get("project_keys") or []
            parts = []
            if keys and filters.get("include_project", True):
                parts.append(f"(notes.scope = 'project' AND notes.project_key IN ({', '.join('?' for _ in keys)}))")
                params += list(keys)
            if filters.get("include_global", True):
                parts.append("notes.scope = 'global'")
            where.append("(" + (" OR ".join(parts) or "0") + ")")
        elif filters.get("project_keys"):
            keys = filters["project_keys"]
            where.append(f"(notes.project_key IN ({', '.join('?' for _ in keys)})"
                         + (" OR notes.scope = 'global')" if filters.get("include_global", True) else ")"))
            params += list(keys)
        if filters.get("kinds"):
            where.append(f"notes.kind IN ({', '.join('?' for _ in filters['kinds'])})")
            params += list(filters["kinds"])
        if filters.get("tags"):
            where.append("EXISTS (SELECT 1 FROM json_each(notes.tags) WHERE lower(json_each.value) IN "
                         f"({', '.join('lower(?)' for _ in filters['tags'])}))")
            params += list(filters["tags"])
        if filters.get("files"):
            # a note's file and a wanted file match when one is a path suffix of the other
            tests = []
            for path in filters["files"]:
                tests.append("(json_each.value = ? OR substr(json_each.value, -length(?) - 1) = '/' || ? "
                             "OR substr(?, -length(json_each.value) - 1) = '/' || json_each.value)")
                params += [path, path, path, path]
            where.append(f"EXISTS (SELECT 1 FROM json_each(notes.files) WHERE {' OR '.join(tests)})")
        if filters.get("since"):
            where.append("notes.created_at >= ?")
            params.append(filters["since"])
        if filters.get("until"):
            where.append("notes.created_at < ?")
            params.append(filters["until"])
        return " AND ".join(where), params

    def search_notes_fts(self, match: str, weights: Iterable[float], filters: dict,
                         limit: int) -> list[tuple[int, float]]:
        """(note id, bm25 relevance, higher is better) for an FTS5 ``match`` expression, filtered."""
        clause, params = self._note_filter(filters)
        bm25 = f"bm25(notes_fts, {', '.join(repr(float(w)) for w in weights)})"
        rows = self.conn.execute(
            f"""SELECT notes_fts.rowid, -{bm25} FROM notes_fts JOIN notes ON notes.id = notes_fts.rowid
                WHERE notes_fts MATCH ? AND {clause} ORDER BY {bm25} LIMIT ?""", [match, *params, limit])
        return [(r[0], r[1]) for r in rows]

    def filter_note_ids(self, ids: Iterable[int], filters: dict) -> set[int]:
        """Which of ``ids`` pass the search ``filters``."""
        clause, params = self._note_filter(filters)
        return {row[0] for row in self._notes_by_ids("id", ids, clause, params)}

    def candidate_note_ids(self, filters: dict) -> list[int]:
        """Every note id that passes the search ``filters`` (the candidates for a filtered vector search)."""
        clause, params = self._note_filter(filters)
        return [r[0] for r in self.conn.execute(f"SELECT id FROM notes WHERE {clause}", params)]

    def unindexed_note_count(self, filters: dict) -> int:
        """How many notes passing ``filters`` have no vectors yet (index_status not 'indexed')."""
        clause, params = self._note_filter(filters)
        return self.conn.execute(
            f"SELECT count(*) FROM notes WHERE index_status IN ('pending', 'failed') AND {clause}", params).fetchone()[0]

    def get_notes(self, ids: Iterable[int]) -> dict[int, dict]:
        """Notes by id (missing ids are left out)."""
        return {row["id"]: _decode(row, NOTE_JSON_FIELDS) for row in self._notes_by_ids("*", ids)}

    RANK_FIELDS = ("id", "project_key", "scope", "files", "verified", "status", "session_id", "created_at",
                   "updated_at")

    def note_rank_fields(self, ids: Iterable[int], with_files: bool = True) -> dict[int, dict]:
        """The few columns ranking needs (scope, files, verified, dates, session), by note id."""
        columns = ", ".join(f for f in self.RANK_FIELDS if with_files or f != "files")
        return {row["id"]: _decode(row, ("files",)) if with_files else dict(row)
                for row in self._notes_by_ids(columns, ids)}

    def _notes_by_ids(self, columns: str, ids: Iterable[int], where: str = "1",
                      params: Iterable[Any] = ()) -> Iterator[sqlite3.Row]:
        """Rows of ``notes`` for these ids (and ``where``), 500 ids a query (SQLite caps bound parameters)."""
        ids, params = list(ids), list(params)
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            yield from self.conn.execute(
                f"SELECT {columns} FROM notes WHERE id IN ({', '.join('?' for _ in chunk)}) AND {where}",
                [*chunk, *params])

    def useful_notes(self, project_keys: list[str], limit: int = 40, include_global: bool = True) -> list[dict]:
        """Active notes of these projects (and global ones), verified first, then newest.

        Two indexed lookups instead of one OR over the whole table: SessionStart runs it on every session.
        """
        rows: list = []
        if project_keys:
            marks = ", ".join("?" for _ in project_keys)
            rows += self.conn.execute(
                f"""SELECT * FROM notes WHERE project_key IN ({marks}) AND status = 'active' AND scope = 'project'
                    ORDER BY verified DESC, updated_at DESC, id DESC LIMIT ?""", [*project_keys, limit]).fetchall()
        if include_global:
            rows += self.conn.execute(
                """SELECT * FROM notes WHERE scope = 'global' AND status = 'active'
                   ORDER BY verified DESC, updated_at DESC, id DESC LIMIT ?""", (limit,)).fetchall()
        rows.sort(key=lambda r: (r["verified"], r["updated_at"] or "", r["id"]), reverse=True)
        return [_decode(r, NOTE_JSON_FIELDS) for r in rows[:limit]]

    def add_project_alias(self, key: str, alias: str) -> None:
        """Record ``alias`` (an old key of a moved repo) as another name of project ``key``."""
        with self.atomic():
            self.conn.execute(
                "INSERT OR IGNORE INTO projects (key, name, created_at) VALUES (?, ?, ?)",
                (key, key.rsplit("/", 1)[-1] or key, now()))
            self.conn.execute(
                """UPDATE projects SET aliases = json_insert(aliases, '$[#]', ?)
                   WHERE key = ? AND NOT EXISTS (SELECT 1 FROM json_each(projects.aliases) WHERE value = ?)""",
                (alias, key, alias))

    def remove_project_alias(self, key: str, alias: str) -> bool:
        with self.atomic():
            cursor = self.conn.execute(
                """UPDATE projects SET aliases = (SELECT json_group_array(value) FROM json_each(projects.aliases)
                   WHERE value != ?) WHERE key = ? AND EXISTS
                   (SELECT 1 FROM json_each(projects.aliases) WHERE value = ?)""", (alias, key, alias))
            return cursor.rowcount > 0

    def list_projects(self) -> list[dict]:
        rows = self.conn.execute(
            """SELECT projects.*, (SELECT count(*) FROM notes WHERE notes.project_key = projects.key
               AND notes.status = 'active') AS active_notes FROM projects ORDER BY key""")
        return [_decode(r, ("aliases",)) for r in rows]

    def note_relations_for(self, ids: Iterable[int]) -> dict[int, list[dict]]:
        """The relations touching each of ``ids`` (both directions)."""
        ids = list(ids)
        out: dict[int, list[dict]] = {i: [] for i in ids}
        if not ids:
            return out
        marks = ", ".join("?" for _ in ids)
        for row in self.conn.execute(
                f"SELECT * FROM relations WHERE from_note IN ({marks}) OR to_note IN ({marks}) ORDER BY id",
                [*ids, *ids]):
            rel = dict(row)
            for note_id in {rel["from_note"], rel["to_note"]} & set(ids):
                out[note_id].append(rel)
        return out

    # --- reporting --------------------------------------------------------------

    def stats(self) -> dict:
        counts = {}
        for table in ("projects", "sessions", "prompts", "observations", "notes", "receipts"):
            counts[table] = self.conn.execute(f"SELECT count(*) FROM [{table}]").fetchone()[0]
        counts["notes_by_status"] = dict(self.conn.execute("SELECT status, count(*) FROM notes GROUP BY status").fetchall())
        counts["db_bytes"] = sum(
            os.path.getsize(p) for p in (self._path, self._path + "-wal") if os.path.exists(p)
        )
        return counts

    def count_notes_with_status(self, status: str) -> int:
        """How many notes have ``status`` (e.g. how many are quarantined and never injected)."""
        return self.conn.execute("SELECT count(*) FROM notes WHERE status = ?", (status,)).fetchone()[0]


    # --- the web viewer (lorebook ui) ----------------------------------------------------

    def browse_notes(self, *, project_key: str | None = None, kind: str | None = None, scope: str | None = None,
                     status: str | None = None, verified: bool | None = None, limit: int = 50,
                     offset: int = 0) -> tuple[list[dict], int]:
        """One page of notes for the viewer, newest first, and how many match; ``None`` filters nothing."""
        where, params = ["1"], []
        for column, value in (("project_key", project_key), ("kind", kind), ("scope", scope), ("status", status)):
            if value is not None:
                where.append(f"[{column}] = ?")
                params.append(value)
        if verified is not None:
            where.append("verified = ?")
            params.append(1 if verified else 0)
        clause = " AND ".join(where)
        rows = [_decode(r, NOTE_JSON_FIELDS) for r in self.conn.execute(
            f"SELECT * FROM notes WHERE {clause} ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?",
            [*params, limit, offset])]
        total = self.conn.execute(f"SELECT count(*) FROM notes WHERE {clause}", params).fetchone()[0]
        return rows, total

    def list_sessions(self, project_key: str | None = None, limit: int = 50) -> list[dict]:
        """The latest sessions, newest first, each with its prompt and observation counts."""
        where, params = ("WHERE project_key = ?", [project_key]) if project_key else ("", [])
        rows = self.conn.execute(
            f"""SELECT sessions.*,
                (SELECT count(*) FROM prompts WHERE prompts.session_id = sessions.id) AS prompt_count,
                (SELECT count(*) FROM observations WHERE observations.session_id = sessions.id) AS observation_count
                FROM sessions {where} ORDER BY COALESCE(last_event_at, started_at) DESC LIMIT ?""", [*params, limit])
        return [dict(r) for r in rows]

    def observations_after(self, session_id: str, after_id: int = 0, limit: int = 500) -> list[dict]:
        """A session's observations with an id above ``after_id`` (the live view polls with the last it has)."""
        rows = self.conn.execute(
            "SELECT * FROM observations WHERE session_id = ? AND id > ? ORDER BY id LIMIT ?",
            (session_id, after_id, limit))
        return [_decode(r, OBSERVATION_JSON_FIELDS) for r in rows]

    def session_recalls(self, session_id: str) -> list[dict]:
        """The notes injected into a session (at start, on a prompt, through MCP), in order, with their titles."""
        rows = self.conn.execute(
            """SELECT recalls.*, notes.title AS note_title FROM recalls LEFT JOIN notes ON notes.id = recalls.note_id
               WHERE recalls.session_id = ? ORDER BY recalls.created_at, recalls.note_id""", (session_id,))
        return [dict(r) for r in rows]

    def session_receipts(self, session_id: str) -> list[dict]:
        """The writeback decisions (receipts) a session's Stop produced: their run keys start with its id."""
        rows = self.conn.execute(
            "SELECT * FROM receipts WHERE substr(run_key, 1, length(?) + 1) = ? || ':' ORDER BY created_at",
            (session_id, session_id))
        return [_decode(r, ("reasons", "warnings")) for r in rows]

    def integrity_check(self) -> list[str]:
        """SQLite's integrity check: the problems it finds, an empty list when the database is sound."""
        rows = [row[0] for row in self.conn.execute("PRAGMA integrity_check").fetchall()]
        return [] if rows == ["ok"] else rows
