import os
import sqlite3

import pytest

from lorebook import store as store_module


def test_schema_version_matches_migrations():
    from lorebook.migrations import migrations

    assert len(migrations.pending(__import__("sqlite_utils").Database(memory=True))) == store_module.SCHEMA_VERSION


def test_store_uses_wal_and_busy_timeout(store):
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000


def test_store_commits_without_fsync_in_wal_mode(store):
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL: safe in WAL mode


def _hook_capture(path, n: int) -> None:
    """What one hook process does to the database: open, store one observation, close."""
    from lorebook.store import Store

    hook = Store(path, checkpoint_on_close=False)
    hook.ensure_session("s", project_key=None, cwd=None)
    hook.add_observation({"session_id": "s", "tool_use_id": f"t{n}", "event": "post_tool_use", "tool": "Bash",
                          "target": f"pytest -k case_{n}", "summary": f"$ pytest -k case_{n} → ok", "outcome": "ok",
                          "body": f"case {n}\n" + "collected 40 items " * 100})
    hook.close()


@pytest.mark.skipif(not hasattr(sqlite3.Connection, "setconfig"), reason="SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE: 3.12+")
def test_a_closing_hook_store_leaves_the_wal_to_the_next_process(lorebook_home, monkeypatch):
    """Hooks do not checkpoint as they close (the checkpoint's fsyncs are most of a close's time); past
    WAL_TRUNCATE_BYTES a closing hook truncates the WAL, so that it stays bounded. (Before Python 3.12 the
    sqlite3 module cannot ask for that: every close that is the database's last checkpoints, as before.)"""
    from lorebook.store import Store

    monkeypatch.setattr(store_module, "WAL_TRUNCATE_BYTES", 256 * 1024)
    first = Store()  # migrates
    path = first.path
    first.close()
    wal = str(path) + "-wal"
    sizes = []
    for n in range(40):
        _hook_capture(path, n)  # the only connection each time: SQLite would checkpoint as it closes
        sizes.append(os.path.getsize(wal) if os.path.exists(wal) else 0)
    assert sizes[0] > 0  # left for the next process
    assert max(sizes) < 256 * 1024 + 256 * 1024 and sizes.count(0) >= 1  # and bounded
    check = Store(path)
    assert check.conn.execute("SELECT count(*) FROM observations").fetchone()[0] == 40
    check.close()


def test_reopening_does_not_migrate_again(store, lorebook_home):
    from lorebook.store import Store

    again = Store()
    assert again.conn.execute("PRAGMA user_version").fetchone()[0] == store_module.SCHEMA_VERSION
    again.close()


def test_atomic_rolls_back(store):
    store.ensure_session("s")
    try:
        with store.atomic():
            store.add_prompt("s", "hello")
            raise ValueError("stop")
    except ValueError:
        pass
    assert store.stats()["prompts"] == 0


def test_notes_fts_follows_updates(store):
    note_id = store.add_note({"title": "Retry with exponential backoff", "source_agent": "t"})
    hits = store.conn.execute("SELECT rowid FROM notes_fts WHERE notes_fts MATCH 'backoff'").fetchall()
    assert [h[0] for h in hits] == [note_id]


def test_sql_runs_only_in_the_store():
    from pathlib import Path

    from lorebook.store import Store

    assert not hasattr(Store, "execute")  # callers ask named methods
    root = Path(__file__).parent.parent
    offenders = []
    for path in sorted([*(root / "plugin").glob("*.py"), *(root / "hooks").glob("*.py")]):
        if path.name in ("store.py", "migrations.py"):
            continue
        text = path.read_text()
        for needle in (".execute(", ".executemany(", ".executescript(", ".conn.", "import sqlite3",
                       "sqlite3.OperationalError", "sqlite3.DatabaseError"):
            if needle in text:
                offenders.append(f"{path.relative_to(root)}: {needle}")
    assert offenders == []

