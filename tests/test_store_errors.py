"""A database that cannot be used gives one clear message naming the file and what to do, never a traceback.

Each failure is produced for real: a directory where the file should be, random bytes, a truncated copy,
a read-only file or directory (chmod for a normal user; as root, which ignores permissions, chattr +i), and
a full database (SQLite's own SQLITE_FULL, provoked with PRAGMA max_page_count: the disk is not filled).
The commands run as a user runs them, in a process of their own.
"""
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from lorebook.errors import StoreCorrupt, StoreError, StoreFull, StoreReadOnly, StoreUnreadable
from lorebook.store import Store

OLD_HOME = Path(__file__).parent / "fixtures" / "home-main-2026-12-01"
# the quoted log is long enough to need pages of its own (a full database has room in its pages, none for more)
LOG = "\\n".join(f"tests/test_net.py::test_server_{n} FAILED OSError: [Errno 98] Address already in use"
                  for n in range(300))
LESSON = ('{"title": "Bind test sockets to port 0 to avoid EADDRINUSE on CI", "trigger": "pytest tests/test_net.py '
          'on a shared runner", "change": "Bind (127.0.0.1, 0) and read the port back with getsockname()", '
          f'"evidence": [{{"quote": "{LOG}", "source": "CI log"}}]}}')
COMMANDS = {
    "stats": ["stats"],
    "list": ["list"],
    "search": ["search", "KeyError encoding"],
    "show": ["show", "1"],
    "index": ["index"],
    "write": ["write", LESSON],
}
READS = ("stats", "list", "search", "show")
FULL_PRELUDE = """
import lorebook.store as store_module
_open = store_module.Store.__init__
def _open_full(self, *args, **kwargs):
    _open(self, *args, **kwargs)
    pages = self.conn.execute('PRAGMA page_count').fetchone()[0]
    self.conn.execute(f'PRAGMA max_page_count = {pages}')  # not one page more: SQLITE_FULL on growth
store_module.Store.__init__ = _open_full
"""


def lorebook(home, command, prelude=""):
    code = prelude + "\nfrom lorebook.cli import cli\ncli(prog_name='lorebook')\n"
    env = dict(os.environ, LOREBOOK_HOME=str(home))
    return subprocess.run([sys.executable, "-c", code, *COMMANDS[command]], env=env, capture_output=True,
                          text=True, timeout=300)


def assert_clear_failure(result, db, *advice):
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and result.stderr.rstrip().endswith(errors[0]), result.stderr  # one message, last
    assert errors[0].startswith(f"Error: The database {db} "), errors[0]
    for words in advice:
        assert words in errors[0], errors[0]


@pytest.fixture
def old_home(lorebook_home):
    """A populated user dir (the migration fixture): notes 1-3, vectors, a corpus."""
    shutil.copytree(OLD_HOME, lorebook_home)
    return lorebook_home


def _read_only(paths):
    """Make ``paths`` read-only for real; returns the undo. Root ignores permissions: chattr +i binds it too."""
    if os.geteuid() != 0:
        modes = [(p, p.stat().st_mode) for p in paths]
        for p in paths:
            p.chmod(0o555 if p.is_dir() else 0o444)
        return lambda: [p.chmod(mode) for p, mode in modes]
    if not shutil.which("chattr"):
        pytest.skip("running as root without chattr: no way to make a file read-only for root")
    done = subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True, text=True)
    if done.returncode != 0:
        subprocess.run(["chattr", "-i", *map(str, paths)], capture_output=True)
        pytest.skip(f"chattr +i is not supported here: {done.stderr.strip()}")
    return lambda: subprocess.run(["chattr", "-i", *map(str, paths)], check=True)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_directory_where_the_database_should_be(lorebook_home, command):
    db = lorebook_home / "lorebook.db"
    db.mkdir(parents=True)
    assert_clear_failure(lorebook(lorebook_home, command), db, "is a directory", f"mv {db} ")


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_file_of_random_bytes(lorebook_home, command):
    db = lorebook_home / "lorebook.db"
    lorebook_home.mkdir()
    db.write_bytes(os.urandom(64 * 1024))
    assert_clear_failure(lorebook(lorebook_home, command), db, "not a lorebook database", f"mv {db} ")


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_truncated_database(old_home, command):
    db = old_home / "lorebook.db"
    with open(db, "r+b") as fp:
        fp.truncate(16 * 4096)  # the first 16 pages of 51: the schema is there, the notes' pages are not
    assert_clear_failure(lorebook(old_home, command), db, "damaged", f"mv {db} ")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file: tested as a normal user only")
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_database_the_user_cannot_read(old_home, command):
    db = old_home / "lorebook.db"
    db.chmod(0o000)
    try:
        assert_clear_failure(lorebook(old_home, command), db, "permissions")
    finally:
        db.chmod(0o644)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_read_only_directory(old_home, command):
    db = old_home / "lorebook.db"
    undo = _read_only([db, old_home])
    try:
        result = lorebook(old_home, command)
    finally:
        undo()
    assert_clear_failure(result, db, "cannot be written", "permissions")


@pytest.mark.parametrize("command", ["write", "index"])
def test_a_read_only_file_in_a_writable_directory(old_home, command):
    db = old_home / "lorebook.db"
    conn = sqlite3.connect(db)  # a note waiting for its vectors, so that index has something to write
    conn.execute("UPDATE notes SET index_status = 'pending' WHERE id = 1")
    conn.commit()
    conn.close()
    undo = _read_only([db])
    try:
        result = lorebook(old_home, command)
    finally:
        undo()
    assert_clear_failure(result, db, "cannot be written", "permissions")


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_full_database(old_home, command):
    db = old_home / "lorebook.db"
    store = Store()  # migrated before it is full: the check is about what each command writes
    store.ensure_vector_tables()
    store.close()
    conn = sqlite3.connect(db)  # a long note waiting for its vectors: embedding it needs new pages
    conn.execute("UPDATE notes SET summary = summary || ?, index_status = 'pending' WHERE id = 1", (LOG,))
    conn.commit()
    conn.execute("VACUUM")
    conn.close()
    result = lorebook(old_home, command, prelude=FULL_PRELUDE)
    if command in READS:  # reading needs no room
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
    else:
        assert_clear_failure(result, db, "the disk holding it is full", "Free space")


# --- the library's side: domain errors, never raw sqlite3 ones ---------------------------------------------

def test_the_store_raises_domain_errors(lorebook_home):
    lorebook_home.mkdir()
    db = lorebook_home / "lorebook.db"
    db.mkdir()
    with pytest.raises(StoreUnreadable) as caught:
        Store(db)
    assert caught.value.path == str(db) and isinstance(caught.value, StoreError)
    db.rmdir()
    db.write_bytes(b"not sqlite " * 1000)
    with pytest.raises(StoreCorrupt):
        Store(db)


def test_a_full_store_raises_store_full_and_keeps_what_it_had(store):
    store.ensure_session("s")
    store.add_prompt("s", "first")
    pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
    store.conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StoreFull):
        for n in range(2000):
            store.add_prompt("s", f"prompt {n} " + "x" * 2000)
    assert store.session_prompts("s")[0]["text"] == "first"


def test_a_read_only_store_raises_store_read_only(old_home):
    db = old_home / "lorebook.db"
    store = Store(db)
    store.close()
    undo = _read_only([db])
    try:
        store = Store(db)
        try:
            assert store.get_note(1)["id"] == 1  # reading still works
            with pytest.raises(StoreReadOnly):
                store.add_prompt(store.get_note(1)["session_id"], "a new prompt")
        finally:
            store.close()
    finally:
        undo()


def test_query_only_gives_store_read_only_too(store):
    store.ensure_session("s")
    store.conn.execute("PRAGMA query_only = 1")
    with pytest.raises(StoreReadOnly):
        store.add_prompt("s", "hello")
