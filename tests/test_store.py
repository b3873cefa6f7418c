import sqlite3

from lorebook import store as store_module


def test_schema_version_matches_migrations():
    from lorebook.migrations import migrations

    assert len(migrations.pending(__import__("sqlite_utils").Database(memory=True))) == store_module.SCHEMA_VERSION


def test_store_uses_wal_and_busy_timeout(store):
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000


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

