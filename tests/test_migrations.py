"""Every table, index and trigger comes from a numbered migration, and a database made by an older
lorebook (tests/fixtures/home-main-2026-12-01, see make_db_main.py there) upgrades in place with no loss."""
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from lorebook.cli import cli
from lorebook.search import search
from lorebook.store import Store
from lorebook.vectors import COLLECTION, semantic_search

OLD_HOME = Path(__file__).parent / "fixtures" / "home-main-2026-12-01"
TABLES = ("projects", "sessions", "prompts", "observations", "notes", "note_revisions", "relations", "receipts",
          "recalls", "collections", "embeddings", "lorebook_vector_generation")
WIDGET = "github.com/acme/widget"


def _snapshot(db_path):
    conn = sqlite3.connect(db_path)
    conn.row_factory = sqlite3.Row
    try:
        counts = {t: conn.execute(f"SELECT count(*) FROM [{t}]").fetchone()[0] for t in TABLES}
        notes = {r["id"]: dict(r) for r in conn.execute("SELECT * FROM notes")}
        vectors = {r["id"]: r["embedding"] for r in conn.execute("SELECT id, embedding FROM embeddings")}
        schema = {(r["type"], r["name"]) for r in conn.execute("SELECT type, name FROM sqlite_master")}
        applied = {(r[0], r[1]) for r in conn.execute("SELECT migration_set, name FROM _sqlite_migrations")}
    finally:
        conn.close()
    return counts, notes, vectors, schema, applied


@pytest.fixture
def old_home(lorebook_home):
    shutil.copytree(OLD_HOME, lorebook_home)
    return lorebook_home


def test_the_fixture_is_a_database_of_the_previous_main():
    counts, notes, vectors, schema, applied = _snapshot(OLD_HOME / "lorebook.db")
    # made before the vector migrations existed: their work was done by Store.ensure_vector_tables then
    assert not any(s == "lorebook.vectors" for s, _ in applied)
    assert ("trigger", "lorebook_embeddings_ai") in schema
    assert all(counts[t] for t in TABLES if t != "recalls"), counts
    assert counts["embeddings"] == sum(1 for n in notes.values() if n["index_status"] == "indexed") == 3


def test_a_database_of_the_previous_main_upgrades_with_no_loss(old_home):
    before = _snapshot(old_home / "lorebook.db")
    store = Store()
    store.ensure_vector_tables()  # what `lorebook index` and every vector search do first
    store.close()
    counts, notes, vectors, schema, applied = _snapshot(old_home / "lorebook.db")
    assert counts == before[0]
    # every note as it was, plus the columns later migrations added, at their defaults (flags, claimed_agent)
    assert {i: {k: n[k] for k in before[1][i]} for i, n in notes.items()} == before[1]
    assert all(n["flags"] == "[]" and n["claimed_agent"] is None for n in notes.values())
    assert vectors == before[2]
    assert schema >= before[3]
    assert ("lorebook.vectors", "m001_vector_generation") in applied
    assert applied >= before[4]


def test_an_upgraded_database_answers_as_before(old_home):
    store = Store()
    try:
        note = store.get_note(1)
        assert note["title"] == "Parser KeyError 'encoding' when the config omits it: default to utf-8"
        assert note["files"] == ["parser.py"] and note["error_signatures"] == ["KeyError: 'encoding'"]
        assert note["evidence"][0]["quote"] == "E   KeyError: 'encoding'"
        assert len(store.note_revisions(1)) == 1  # the merge kept the note as it was
        assert store.get_receipt("fixture", "run-3")["decision"] == "merged"
        assert [r["kind"] for r in store.note_relations(2)] == ["supersedes"]
        assert store.get_note(2)["status"] == "superseded"

        hits = search(store, "KeyError encoding", project_key=WIDGET, semantic=False)["hits"]
        assert hits[0]["note"]["id"] == 1
        # the vectors made by the old code still rank by meaning, with the real model
        assert semantic_search(store, "the config file has no encoding setting and parsing crashes", k=1)[0][0] == 1
        hybrid = search(store, "crash when a setting is missing from the config", project_key=WIDGET)
        assert hybrid["mode"] == "hybrid" and hybrid["hits"][0]["note"]["id"] == 1

        # the generation counter (now from a migration) still moves with every vector change
        collection_id = store.vector_collection(COLLECTION)["id"]
        first = store.vector_generation(collection_id)
        assert first[0] == "generation"
        store.forget_note_content(3)
        assert store.vector_generation(collection_id) != first
    finally:
        store.close()


def test_the_old_corpus_and_commands_work_on_the_upgraded_database(old_home):
    runner = CliRunner()
    shown = runner.invoke(cli, ["corpus", "show", "widget-fixes", "--json"])
    assert shown.exit_code == 0, shown.output
    assert {item["id"] for item in json.loads(shown.output)["items"] if item.get("type") != "observation"} >= {1}
    rebuilt = runner.invoke(cli, ["corpus", "rebuild", "widget-fixes"])
    assert rebuilt.exit_code == 0, rebuilt.output
    listed = runner.invoke(cli, ["list", "--json"])
    assert listed.exit_code == 0, listed.output
    assert "Parser KeyError 'encoding'" in listed.output
    indexed = runner.invoke(cli, ["index"])
    assert indexed.exit_code == 0, indexed.output


def test_a_fresh_database_gets_its_vector_companions_from_the_migration(lorebook_home):
    store = Store()
    try:
        assert store.vector_collection(COLLECTION) is None  # no llm tables before vectors are needed
        store.ensure_vector_tables()
        store.ensure_vector_tables()  # idempotent
    finally:
        store.close()
    _counts, _notes, _vectors, schema, applied = _snapshot(lorebook_home / "lorebook.db")
    assert ("lorebook.vectors", "m001_vector_generation") in applied
    assert {("table", "lorebook_vector_generation"), ("trigger", "lorebook_embeddings_ai"),
            ("trigger", "lorebook_embeddings_ad"), ("trigger", "lorebook_embeddings_au")} <= schema


def test_store_creates_no_schema_outside_migrations():
    # the store's own SQL may read, insert, update and delete; CREATE/DROP/ALTER belong to migrations.py
    source = (Path(__file__).parent.parent / "plugin" / "store.py").read_text()
    for word in ("CREATE TABLE", "CREATE INDEX", "CREATE TRIGGER", "CREATE VIRTUAL", "DROP ", "ALTER TABLE"):
        assert word not in source.upper(), word
