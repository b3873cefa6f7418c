"""Note vectors: `lorebook index` into llm's tables, resumable and locked; fast top-k from a cached matrix."""
import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import numpy as np
import pytest
from click.testing import CliRunner

from lorebook import vectors
from lorebook.cli import cli
from lorebook.embeddings import embed
from lorebook.errors import EmbeddingUnavailable
from lorebook.vectors import COLLECTION, IndexLock, semantic_search, vector_top_k

NOTES = [
    ("Retry HTTP 429 with exponential backoff", "The API rate-limits bursts; retries with jittered exponential backoff succeed."),
    ("SQLite 'database is locked' under concurrent writers", "Enable WAL mode and a busy timeout so writers wait."),
    ("pytest cannot import the package", "Install it editable (pip install -e .) in the venv before running tests."),
    ("Docker layer cache busted on every build", "Copy requirements and pip install before COPY . . so the layer is reused."),
    ("Flaky test depends on wall-clock time", "Freeze time with a fixture instead of sleeping."),
]


@pytest.fixture
def llm_home(tmp_path, monkeypatch):
    monkeypatch.setenv("LLM_USER_PATH", str(tmp_path / "llm-home"))
    from lorebook.llm_plugin import ensure_registered

    ensure_registered()
    return tmp_path / "llm-home"


def add_notes(store, items=NOTES, project="github.com/acme/widget"):
    return [store.add_note({"title": title, "summary": summary, "project_key": project, "tags": ["t"]})
            for title, summary in items]


def status_counts(db_path):
    conn = sqlite3.connect(db_path)
    try:
        return dict(conn.execute("SELECT index_status, count(*) FROM notes GROUP BY index_status").fetchall())
    finally:
        conn.close()


def run_index(*args):
    result = CliRunner().invoke(cli, ["index", *args])
    return result


def test_index_fills_llm_compatible_tables(store):
    ids = add_notes(store)
    assert store.index_counts()["pending"] == len(ids)
    assert not store.has_vector_tables()  # created on the index path only

    result = run_index()
    assert result.exit_code == 0, result.output
    assert f"Embedded {len(ids)} note(s) with lorebook-minilm" in result.output

    assert store.index_counts() == {"pending": 0, "indexed": len(ids), "failed": 0}
    collection = store.vector_collection(COLLECTION)
    assert collection["model"] == "lorebook-minilm"
    rows = store.conn.execute("SELECT id, embedding, content, content_hash, metadata FROM embeddings "
                         "WHERE collection_id = ? ORDER BY CAST(id AS INTEGER)", (collection["id"],)).fetchall()
    assert [r["id"] for r in rows] == [str(i) for i in ids]
    first = store.get_note(ids[0])
    assert rows[0]["content"] == vectors.note_text(first)
    assert rows[0]["content_hash"] == hashlib.md5(rows[0]["content"].encode()).digest()  # llm's hash
    assert json.loads(rows[0]["metadata"])["title"] == NOTES[0][0]
    stored = np.frombuffer(rows[0]["embedding"], dtype="<f4")
    assert stored.shape == (384,)
    assert float(stored @ embed([rows[0]["content"]])[0]) > 0.999
    # llm's own migrations ran: llm can upgrade these tables later
    assert store.conn.execute("SELECT count(*) FROM _sqlite_migrations WHERE migration_set = 'llm.embeddings'").fetchone()[0] >= 4

    again = run_index("--json")
    assert json.loads(again.output)["embedded"] == 0


def test_llm_similar_works_on_lorebooks_database(store, llm_home):
    ids = add_notes(store)
    assert run_index().exit_code == 0
    from llm.cli import cli as llm_cli

    result = CliRunner().invoke(llm_cli, ["similar", COLLECTION, "-d", str(store.path), "-c",
                                          "too many requests, back off and retry", "-n", "2"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.strip().splitlines()]
    assert lines[0]["id"] == str(ids[0])
    assert lines[0]["metadata"]["title"] == NOTES[0][0]


def test_lorebook_path_db_is_what_llm_similar_takes(store, llm_home):
    add_notes(store)
    run_index()
    db = CliRunner().invoke(cli, ["path", "--db"]).output.strip()
    from llm.cli import cli as llm_cli

    result = CliRunner().invoke(llm_cli, ["similar", COLLECTION, "-d", db, "-c", "database is locked"])
    assert json.loads(result.output.splitlines()[0])["metadata"]["title"].startswith("SQLite")


def test_changed_model_reembeds_everything_with_a_message(store):
    ids = add_notes(store)
    assert run_index().exit_code == 0
    # as if the notes had been embedded with another model before
    store.conn.execute("UPDATE collections SET model = 'jina-embeddings-v2-small-en' WHERE name = ?", (COLLECTION,))
    result = run_index()
    assert result.exit_code == 0, result.output
    assert "The embedding model changed from jina-embeddings-v2-small-en to lorebook-minilm: re-embedding every note." \
        in result.output
    assert f"Embedded {len(ids)} note(s)" in result.output
    assert store.vector_collection(COLLECTION)["model"] == "lorebook-minilm"


def test_broken_model_leaves_notes_pending_and_vectors_intact(store, monkeypatch, llm_home):
    add_notes(store)
    assert run_index().exit_code == 0
    newer = store.add_note({"title": "A newer lesson about cache invalidation", "project_key": "p"})
    monkeypatch.setenv("LOREBOOK_EMBED_MODEL", "nonexistent")
    result = run_index()
    assert result.exit_code == 1
    assert "Unknown embedding model 'nonexistent'" in result.output
    assert "Notes stay pending" in result.output
    assert store.get_note(newer)["index_status"] == "pending"
    collection = store.vector_collection(COLLECTION)
    assert collection["model"] == "lorebook-minilm"  # nothing dropped for a model that does not work
    assert store.conn.execute("SELECT count(*) FROM embeddings WHERE collection_id = ?",
                         (collection["id"],)).fetchone()[0] == len(NOTES)


def test_second_index_says_so_and_exits(store):
    add_notes(store)
    lock = IndexLock()
    assert lock.acquire()
    try:
        result = run_index()
        assert result.exit_code == 0
        assert f"Another 'lorebook index' is running (pid {os.getpid()})" in result.output
        assert store.index_counts()["pending"] == len(NOTES)
    finally:
        lock.release()
    assert run_index().exit_code == 0
    assert store.index_counts()["pending"] == 0


def test_the_background_index_waits_out_a_database_another_process_is_writing(store, monkeypatch):
    """The Stop hook's ``lorebook index --quiet`` once met a write lock held past the busy timeout and gave up,
    leaving the new lesson without vectors (recall answered keyword-only); it now waits, as a deferred writeback
    does. A person's ``lorebook index`` still says the database is busy at once."""
    from lorebook import vectors
    from lorebook.errors import StoreLocked

    add_notes(store)
    real, calls = vectors.index_notes, []

    def busy_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise StoreLocked("The database stayed locked for 5 s: another lorebook process is writing.")
        return real(*args, **kwargs)

    monkeypatch.setattr(vectors, "index_notes", busy_once)
    assert run_index("--quiet").exit_code == 0
    assert len(calls) == 2 and store.index_counts()["pending"] == 0
    calls.clear()
    add_notes(store, NOTES[:1])
    result = run_index()
    assert result.exit_code != 0 and "stayed locked" in result.output and len(calls) == 1


def test_a_note_edited_while_being_embedded_stays_pending(store):
    store.ensure_vector_tables()
    collection_id, _ = store.set_vector_collection(COLLECTION, "lorebook-minilm")
    (note_id,) = add_notes(store, NOTES[:1])
    stale = store.get_note(note_id)
    store.update_note(note_id, {"title": "Retry 429 and 503 with backoff", "updated_at": "2099-01-01T00:00:00+00:00"},
                      reason="edited")
    saved = store.save_note_vectors(collection_id, [{
        "note_id": note_id, "updated_at": stale["updated_at"], "embedding": b"\0" * 1536,
        "content": "old", "content_hash": b"x", "metadata": {}}])
    assert saved == 0
    assert store.get_note(note_id)["index_status"] == "pending"


def _spawn_index(env_extra):
    env = dict(os.environ, **env_extra)
    return subprocess.Popen([sys.executable, "-m", "lorebook", "index", "--quiet"], env=env, text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def _wait_for(condition, timeout=90.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def _kill_when_paused(proc, step):
    try:
        line = proc.stderr.readline()  # the indexer says where it sleeps
        assert line.strip() == f"lorebook index: paused at {step}", line
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        proc.stderr.close()


def test_killed_before_embedding_leaves_pending_and_next_run_completes(store):
    add_notes(store)  # committed: the note comes first, its vectors later
    _kill_when_paused(_spawn_index({vectors.PAUSE_ENV: "before-embed:120"}), "before-embed")
    assert status_counts(str(store.path)) == {"pending": len(NOTES)}
    assert run_index().exit_code == 0
    assert status_counts(str(store.path)) == {"indexed": len(NOTES)}


def test_killed_mid_run_keeps_committed_batches_and_resumes(store):
    many = [(f"{title} (case {i})", summary) for i in range(8) for title, summary in NOTES]  # 40 notes
    add_notes(store, many)
    # one batch of 32 commits, then the indexer sleeps: kill it there
    _kill_when_paused(_spawn_index({vectors.PAUSE_ENV: "after-batch:120"}), "after-batch")
    assert status_counts(str(store.path)) == {"indexed": 32, "pending": 8}
    result = run_index()
    assert "Embedded 8 note(s)" in result.output
    assert status_counts(str(store.path)) == {"indexed": 40}


def test_start_index_detached_embeds_in_the_background(store, monkeypatch):
    add_notes(store)
    assert vectors.start_index_detached() is False  # off in tests unless asked for (conftest)
    monkeypatch.setenv("LOREBOOK_AUTO_INDEX", "1")
    started = time.perf_counter()
    assert vectors.start_index_detached() is True
    assert time.perf_counter() - started < 0.5  # it does not wait for the indexer
    assert _wait_for(lambda: status_counts(str(store.path)) == {"indexed": len(NOTES)})


def test_start_index_detached_imports_nothing_heavy():
    code = ("import sys; import lorebook.vectors; "
            "print(sorted(m for m in ('numpy', 'llm', 'click', 'sqlite_utils', 'tokenizers') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# --- top-k ---------------------------------------------------------------------------


def _brute_force(store, query, candidates=None):
    rows = store.conn.execute("SELECT id, embedding FROM embeddings").fetchall()
    scored = [(int(r["id"]), float(np.frombuffer(r["embedding"], dtype="<f4") @ query)) for r in rows
              if candidates is None or int(r["id"]) in candidates]
    return sorted(scored, key=lambda pair: -pair[1])


def test_vector_top_k_matches_brute_force(store):
    many = [(f"{title} #{i}", f"{summary} variant {i}") for i in range(6) for title, summary in NOTES]
    ids = add_notes(store, many)
    assert run_index().exit_code == 0
    query = embed(["rate limit errors from the API"])[0]
    expected = _brute_force(store, query)
    got = vector_top_k(store, query, 7)
    assert [i for i, _ in got] == [i for i, _ in expected[:7]]
    assert np.allclose([s for _, s in got], [s for _, s in expected[:7]], atol=1e-5)

    candidates = set(ids[10:20]) | {999_999}
    got = vector_top_k(store, query, 3, candidate_ids=candidates)
    assert [i for i, _ in got] == [i for i, _ in _brute_force(store, query, candidates)[:3]]
    assert vector_top_k(store, query, 3, candidate_ids=[]) == []
    assert len(vector_top_k(store, query, 1000)) == len(ids)


def test_matrix_cache_follows_the_collection(store):
    ids = add_notes(store)
    assert run_index().exit_code == 0
    query = embed(["cache invalidation in the build"])[0]
    vector_top_k(store, query, 3)
    assert all(path.exists() for path in vectors.matrix_cache_paths().values())

    vectors._matrix_cache.clear()  # a new process: loads the files, memory-mapped
    assert isinstance(vectors.refresh_matrix_cache(store).head, np.memmap)

    new = store.add_note({"title": "Webpack build cache invalidation", "summary": "Bust the cache on lockfile change",
                          "project_key": "p"})
    assert run_index().exit_code == 0
    assert vector_top_k(store, query, 1)[0][0] == new

    store.forget_note_content(new)  # deletes its vector: the cache must not return it any more
    assert new not in [i for i, _ in vector_top_k(store, query, 10)]
    assert len(vector_top_k(store, query, 10)) == len(ids)


def test_semantic_search_ranks_by_meaning(store):
    ids = add_notes(store)
    assert semantic_search(store, "anything") == []  # nothing indexed yet
    assert run_index().exit_code == 0
    hits = semantic_search(store, "my unit tests can't find the module", k=2)
    assert hits[0][0] == ids[2]
    assert 0 < hits[1][1] < hits[0][1] <= 1.0


def test_semantic_search_refuses_vectors_from_another_model(store, monkeypatch):
    add_notes(store)
    assert run_index().exit_code == 0
    monkeypatch.setenv("LOREBOOK_EMBED_MODEL", "jina-embeddings-v2-small-en")
    with pytest.raises(EmbeddingUnavailable, match="Run 'lorebook index'"):
        semantic_search(store, "database locked")
    with pytest.raises(EmbeddingUnavailable, match="dimensions"):
        vector_top_k(store, [0.1] * 512, 3)


def test_index_help_has_an_example():
    result = CliRunner().invoke(cli, ["index", "--help"])
    assert "lorebook index" in result.output and "--retry-failed" in result.output


def test_stop_writes_the_note_then_indexes_it_detached(git_project, store, monkeypatch):
    from test_loop import play_fix_session

    monkeypatch.setenv("LOREBOOK_AUTO_INDEX", "1")
    code, out = play_fix_session(git_project)
    assert (code, out) == (0, {})
    (note,) = store.project_notes("github.com/acme/widget")
    # the hook returned with the note committed; the vectors arrive from the background process
    assert _wait_for(lambda: store.get_note(note["id"])["index_status"] == "indexed")
    hits = semantic_search(store, "ModuleNotFoundError yaml when running pytest", k=1)
    assert hits[0][0] == note["id"]


def test_vector_generation_moves_with_every_change(store):
    ids = add_notes(store)
    assert run_index().exit_code == 0
    collection_id = store.vector_collection(COLLECTION)["id"]
    first = store.vector_generation(collection_id)
    assert first[0] == "generation"
    store.forget_note_content(ids[0])  # a delete
    second = store.vector_generation(collection_id)
    assert second != first
    store.update_note(ids[1], {"title": "Retry 429 with capped exponential backoff"}, reason="edit")
    assert run_index().exit_code == 0  # a replace
    assert store.vector_generation(collection_id) != second
    # triggers gone (say a later llm migration rebuilt the table): a (count, max rowid) key still works
    store.conn.execute("DROP TRIGGER lorebook_embeddings_ai")
    fallback = store.vector_generation(collection_id)
    assert fallback[0] == "count" and fallback[1] == len(ids) - 1


@pytest.mark.parametrize("spectrum", ["isotropic", "anisotropic"])
def test_pruned_ranking_is_exact(spectrum):
    # random unit vectors (nothing to prune: every bound passes) and vectors whose energy sits in a few
    # axes like real embeddings (most notes pruned): both must give brute force's top-k, with candidates too
    rng = np.random.default_rng(3)
    scale = np.ones(384) if spectrum == "isotropic" else 1.0 / (1.0 + np.arange(384)) ** 0.8
    data = (rng.standard_normal((6000, 384)) * scale).astype(np.float32)
    data = (data @ np.linalg.qr(rng.standard_normal((384, 384)))[0]).astype(np.float32)  # not axis-aligned
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    ids = np.arange(10, 6010, dtype=np.int64)
    matrix = vectors.VectorMatrix.build(ids, data, "m")
    many = matrix.rows_for(range(10, 6010, 3))
    few = matrix.rows_for(range(10, 6010, 50))
    for q in data[:15] + 0.3 * rng.standard_normal((15, 384)).astype(np.float32):
        q = q / np.linalg.norm(q)
        brute = data @ q
        for k in (1, 10, 50):
            got = matrix.top_k(q, k)
            assert [i for i, _ in got] == [int(ids[j]) for j in np.argsort(-brute, kind="stable")[:k]]
            assert np.allclose([s for _, s in got], np.sort(brute)[::-1][:k], atol=1e-5)
        for subset in (many, few):  # streamed with a mask / gathered
            sub = matrix.top_k(q, 10, subset)
            expected = sorted(((float(brute[r]), int(ids[r])) for r in subset), reverse=True)[:10]
            assert [i for i, _ in sub] == [i for _, i in expected]
