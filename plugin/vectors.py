"""Note vectors: indexing into llm's tables, and a fast top-k over a cached matrix.

Vectors live in lorebook's own database, in ``llm``-compatible
``collections`` / ``embeddings`` tables (collection ``lorebook-notes``, id =
the note id as text), so ``llm similar lorebook-notes -d "$(lorebook path --db)"``
works on them. Notes are committed first and embedded later by ``lorebook
index`` (never on a hook's hot path): ``notes.index_status`` is ``pending``
until their vector is stored, so a killed run resumes where it stopped.

``llm similar`` is brute force in Python; :func:`vector_top_k` ranks from a
float32 matrix cached in the user dir (memory-mapped ``.npy``), rebuilt when
the collection's (count, max rowid) changes.

This module's top level imports only the standard library: the Stop hook
calls :func:`start_index_detached`.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from typing import TYPE_CHECKING, Callable, Iterable

from .errors import EmbeddingUnavailable, LorebookError
from .files import FileLock

if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path

    import numpy

    from .store import Store

COLLECTION = "lorebook-notes"
INDEX_BATCH = 32
# Tests set these to stop `lorebook index` between its steps (see tests/test_vectors.py).
PAUSE_ENV = "LOREBOOK_INDEX_PAUSE"
AUTO_INDEX_ENV = "LOREBOOK_AUTO_INDEX"


class IndexBusy(LorebookError):
    "Another lorebook index process holds the lock"


# --- what gets embedded ---------------------------------------------------------


def note_text(note: dict) -> str:
    """The text embedded for a note: what a searcher's words would match, most telling first
    (MiniLM reads only the first 256 word pieces)."""
    parts = [note.get("title") or "", note.get("summary") or "", note.get("trigger") or "",
             note.get("change") or "", note.get("conditions") or ""]
    tags = note.get("tags")
    if isinstance(tags, list) and tags:
        parts.append("tags: " + ", ".join(str(t) for t in tags))
    return "\n".join(p.strip() for p in parts if p and p.strip())


def text_hash(text: str) -> bytes:
    """llm's content hash (``Collection.content_hash``): md5 of the UTF-8 text."""
    return hashlib.md5(text.encode("utf8")).digest()


# --- indexing ---------------------------------------------------------------------


def index_lock_path() -> Path:
    from .config import user_dir

    return user_dir() / "index.lock"


class IndexLock(FileLock):
    """An exclusive, non-blocking file lock: one ``lorebook index`` at a time; released when the process dies."""

    def __init__(self, path: Path | None = None):
        super().__init__(path or index_lock_path(), record_pid=True)

    def acquire(self, blocking: bool = False) -> bool:
        return super().acquire(blocking)

    def __enter__(self):
        if not self.acquire():
            raise IndexBusy(f"Another 'lorebook index' is running (pid {self.holder()}); it will pick up new notes.")
        return self


def _pause(step: str) -> None:
    """Sleep where a test asked to (LOREBOOK_INDEX_PAUSE=step:seconds), so that it can kill us there."""
    wanted = os.environ.get(PAUSE_ENV, "")
    if wanted.partition(":")[0] == step:
        print(f"lorebook index: paused at {step}", file=sys.stderr, flush=True)
        time.sleep(float(wanted.partition(":")[2] or 60))


def index_notes(store: "Store", model_id: str | None = None, batch_size: int = INDEX_BATCH,
                progress: Callable[[int, int], None] | None = None,
                announce: Callable[[str], None] | None = None) -> dict:
    """Embed every pending note into the ``lorebook-notes`` collection; commit after each batch.

    Takes the index lock (raises :class:`IndexBusy`), switches the collection to the
    configured model when it changed (re-embedding everything: ``announce`` says so),
    and returns counts. ``progress(done, total)`` is called after each batch.
    """
    from .embeddings import embedding_model_id

    model_id = model_id or embedding_model_id()
    announce = announce or (lambda message: None)
    result = None
    for _round in range(3):
        result = _index_round(store, model_id, batch_size, progress, announce, result)
        # a note committed while we held the lock, after our last read, would otherwise wait for the next
        # run: the Stop hook that wrote it saw our lock and left it to us
        if store.index_counts()["pending"] == 0:
            break
        lock = IndexLock()
        if not lock.acquire():
            break  # someone else is on it
        lock.release()
    return result


def _index_round(store, model_id, batch_size, progress, announce, previous) -> dict:
    import numpy as np

    from .embeddings import embed

    with IndexLock():
        store.ensure_vector_tables()
        existing = store.vector_collection(COLLECTION)
        if existing is None or existing["model"] != model_id:
            embed(["lorebook"], model_id)  # a broken model must fail here, before any vector is dropped
        if existing is not None and existing["model"] != model_id:
            announce(f"The embedding model changed from {existing['model']} to {model_id}: "
                     f"re-embedding every note.")
        collection_id, _previous = store.set_vector_collection(COLLECTION, model_id)
        total = store.index_counts()["pending"]
        done = failed = 0
        after_id = 0
        while True:
            notes = store.notes_to_index(batch_size, after_id)
            if not notes:
                break
            after_id = notes[-1]["id"]
            _pause("before-embed")
            texts = [note_text(n) for n in notes]
            vectors, bad = _embed_batch(texts, model_id, embed)
            rows = []
            for note, text, vector in zip(notes, texts, vectors):
                if vector is None:
                    continue
                rows.append({
                    "note_id": note["id"], "updated_at": note["updated_at"],
                    "embedding": np.asarray(vector, dtype="<f4").tobytes(),
                    "content": text, "content_hash": text_hash(text),
                    "metadata": {"title": note.get("title"), "kind": note.get("kind"),
                                 "scope": note.get("scope"), "project": note.get("project_key")},
                })
            done += store.save_note_vectors(collection_id, rows)
            if bad:
                store.mark_notes_index_failed(notes[i]["id"] for i in bad)
                failed += len(bad)
            if progress:
                progress(done + failed, max(total, done + failed))
            _pause("after-batch")
        counts = store.index_counts()
    if done:
        try:
            refresh_matrix_cache(store)
        except Exception:  # the cache is rebuilt on the next search anyway
            pass
    if previous:
        done += previous["embedded"]
        failed += previous["failed"]
    return {"model": model_id, "embedded": done, "failed": failed, **{f"notes_{k}": v for k, v in counts.items()}}


def _embed_batch(texts: list[str], model_id: str, embed) -> tuple[list, list[int]]:
    """Vectors for a batch; when the batch fails, one at a time, so that one bad text cannot block the rest.

    Raises EmbeddingUnavailable when the model fails on every text (the model, not the notes, is broken)."""
    try:
        return list(embed(texts, model_id)), []
    except EmbeddingUnavailable:
        if len(texts) == 1:
            raise
    vectors, bad, last_error = [], [], None
    for i, text in enumerate(texts):
        try:
            vectors.append(embed([text], model_id)[0])
        except EmbeddingUnavailable as ex:
            vectors.append(None)
            bad.append(i)
            last_error = ex
    if len(bad) == len(texts):
        raise last_error
    return vectors, bad


def auto_index_enabled() -> bool:
    from .config import flag

    return flag(AUTO_INDEX_ENV, True)


def start_index_detached() -> bool:
    """Start ``lorebook index --quiet`` in the background (new session, no inherited stdio); never raises.

    Cheap (a fork and exec, nothing heavy imported here). A second indexer finds the lock held and exits;
    the running one picks the new note up, since it re-reads pending notes until there are none."""
    if not auto_index_enabled():
        return False
    from .spawn import spawn_detached

    return spawn_detached(["index", "--quiet"])


# --- fast top-k -------------------------------------------------------------------
#
# A plain float32 matrix-vector product over 100,000 x 384 reads 154 MB per query: memory-bound, ~30 ms of
# CPU on this project's 2-core machines. So the cache holds the vectors rotated onto their principal axes
# (an orthonormal rotation: dot products are unchanged), split into a head (the first ~96 axes, which carry
# ~85% of MiniLM's energy) and a tail. A query scores every note on the head only (a quarter of the bytes),
# bounds what the tail can add (Cauchy-Schwarz: |q_tail| * |v_tail|), scores exactly the notes whose bound
# can still reach the k-th best exact score, and so returns the EXACT top-k (tests compare with brute force).


class VectorMatrix:
    """The cached, rotated vectors of one collection: ids (sorted), head, tail, tail norms, rotation."""

    def __init__(self, ids, head, tail, tail_norm, rotation, model):
        self.ids, self.head, self.tail, self.tail_norm, self.rotation, self.model = \
            ids, head, tail, tail_norm, rotation, model

    @property
    def dimensions(self) -> int:
        return int(self.rotation.shape[0]) if self.rotation.size else 0

    def __len__(self) -> int:
        return len(self.ids)

    @classmethod
    def build(cls, ids, vectors, model, sample: int = 20000) -> "VectorMatrix":
        """Rotate L2-normalised ``vectors`` (n, dim) onto their principal axes and split them."""
        import numpy as np

        n, dim = vectors.shape if vectors.size else (0, 0)
        if n == 0:
            empty = np.zeros((0, 0), dtype=np.float32)
            return cls(np.asarray(ids, dtype=np.int64), empty, empty, np.zeros(0, dtype=np.float32),
                       np.zeros((0, 0), dtype=np.float32), model)
        step = max(1, n // sample)
        rows = vectors[::step].astype(np.float64)
        eigenvalues, eigenvectors = np.linalg.eigh(rows.T @ rows)
        rotation = np.ascontiguousarray(eigenvectors[:, np.argsort(eigenvalues)[::-1]].astype(np.float32))
        rotated = vectors @ rotation
        split = head_dimensions(dim)
        head = np.ascontiguousarray(rotated[:, :split])
        tail = np.ascontiguousarray(rotated[:, split:])
        tail_norm = np.linalg.norm(tail, axis=1).astype(np.float32)
        return cls(np.asarray(ids, dtype=np.int64), head, tail, tail_norm, rotation, model)

    def top_k(self, query, k: int, rows=None) -> list[tuple[int, float]]:
        """Exact top-k by dot product with ``query`` (normalised), over all rows or the given row indices."""
        import numpy as np

        if k <= 0 or len(self.ids) == 0:
            return []
        if rows is not None and len(rows) == 0:
            return []
        rotated = np.asarray(query, dtype=np.float32) @ self.rotation
        split = self.head.shape[1]
        q_head, q_tail = rotated[:split], rotated[split:]
        total = len(self.ids)
        if rows is not None and len(rows) * 16 < total:
            # a few candidates: gather their rows and rank them alone
            return self._rank(self.head[rows], self.tail_norm[rows], lambda picked: self.tail[rows[picked]],
                              lambda: self.tail[rows] @ q_tail, rows, q_head, q_tail, k)
        # all rows, or many candidates: stream the whole head (cheaper than gathering), mask the others out
        mask = None
        if rows is not None:
            mask = np.zeros(total, dtype=bool)
            mask[rows] = True
        return self._rank(self.head, self.tail_norm, lambda picked: self.tail[picked],
                          lambda: self.tail @ q_tail, None, q_head, q_tail, k, mask)

    def _rank(self, head, tail_norm, tail_rows, tail_all, rows, q_head, q_tail, k, mask=None):
        import numpy as np

        n = head.shape[0]
        scores = head @ q_head  # the head part of every score
        live = n if mask is None else int(mask.sum())
        k = min(k, live)
        first = min(live, max(4 * k, 256))
        bound = scores + float(np.linalg.norm(q_tail)) * tail_norm
        if mask is not None:
            bound[~mask] = -np.inf
        if first >= n:
            checked = np.arange(n)
        else:
            checked = np.argpartition(-bound, first - 1)[:first]
        if mask is not None:
            checked = checked[mask[checked]]
        exact = scores[checked] + tail_rows(checked) @ q_tail
        if len(checked) < live:
            threshold = np.partition(exact, len(exact) - k)[len(exact) - k]
            bound[checked] = -np.inf
            more = np.flatnonzero(bound >= threshold)
            if len(more) > n // 8:
                # gathering that many rows costs as much as streaming the whole tail: score every row exactly
                everything = scores + tail_all()
                checked = np.arange(n) if mask is None else np.flatnonzero(mask)
                exact = everything[checked]
            elif len(more):
                checked = np.concatenate([checked, more])
                exact = np.concatenate([exact, scores[more] + tail_rows(more) @ q_tail])
        top = np.argpartition(-exact, k - 1)[:k] if k < len(exact) else np.arange(len(exact))
        top = top[np.argsort(-exact[top], kind="stable")]
        positions = checked[top] if rows is None else rows[checked[top]]
        return [(int(self.ids[p]), float(exact[t])) for p, t in zip(positions, top)]

    def rows_for(self, candidate_ids):
        """Row indices of the candidate note ids that have vectors."""
        import numpy as np

        wanted = np.unique(np.fromiter((int(i) for i in candidate_ids), dtype=np.int64))
        positions = np.searchsorted(self.ids, wanted)
        inside = positions < len(self.ids)
        positions, wanted = positions[inside], wanted[inside]
        return positions[self.ids[positions] == wanted]


def head_dimensions(dim: int) -> int:
    """How many rotated axes the first pass reads: a quarter (96 of MiniLM's 384), at least 16."""
    return min(dim, max(16, dim // 4))


_matrix_cache: dict = {}
_CACHE_PARTS = ("ids", "head", "tail", "tail_norm", "rotation")


def matrix_cache_paths(collection: str = COLLECTION) -> dict[str, Path]:
    """The cache files in the user dir's ``vectors/`` folder: one .npy per part, and meta .json."""
    from .config import user_dir

    folder = user_dir() / "vectors"
    paths = {part: folder / f"{collection}.{part}.npy" for part in _CACHE_PARTS}
    paths["meta"] = folder / f"{collection}.json"
    return paths


def refresh_matrix_cache(store: "Store", collection: str = COLLECTION, force: bool = False) -> VectorMatrix:
    """The collection's :class:`VectorMatrix`: from memory, else from the cache files (memory-mapped),
    else rebuilt from the ``embeddings`` table when the collection changed since they were written."""
    import numpy as np

    info = store.vector_collection(collection)
    if info is None:
        return VectorMatrix.build([], np.zeros((0, 0), dtype=np.float32), None)
    key = {"db": str(store.path), "model": info["model"], "generation": list(store.vector_generation(info["id"]))}
    memo = (str(store.path), collection)
    cached = _matrix_cache.get(memo)
    if cached is not None and cached[0] == key and not force:
        return cached[1]
    paths = matrix_cache_paths(collection)
    if not force:
        try:
            meta = json.loads(paths["meta"].read_text("utf-8"))
            if meta.get("key") == key:
                parts = {part: np.load(paths[part], mmap_mode="r") for part in _CACHE_PARTS}
                if all(len(parts[p]) == meta.get("rows") for p in ("ids", "head", "tail", "tail_norm")):
                    matrix = VectorMatrix(np.asarray(parts["ids"]), parts["head"], parts["tail"],
                                          np.asarray(parts["tail_norm"]), np.asarray(parts["rotation"]), info["model"])
                    _matrix_cache[memo] = (key, matrix)
                    return matrix
        except (OSError, ValueError):
            pass
    matrix = _build_matrix(store, info)
    try:
        paths["meta"].parent.mkdir(parents=True, exist_ok=True)
        suffix = f".tmp{os.getpid()}"
        for part in _CACHE_PARTS:
            with open(str(paths[part]) + suffix, "wb") as f:
                np.save(f, getattr(matrix, part))
            os.replace(str(paths[part]) + suffix, paths[part])
        tmp_meta = paths["meta"].with_name(paths["meta"].name + suffix)
        tmp_meta.write_text(json.dumps({"key": key, "rows": len(matrix)}))
        os.replace(tmp_meta, paths["meta"])  # last: readers trust the parts only once the meta matches
    except OSError:
        pass  # a read-only user dir: rank from memory
    _matrix_cache[memo] = (key, matrix)
    return matrix


def _build_matrix(store: "Store", info: dict) -> VectorMatrix:
    import numpy as np

    ids, blobs = [], []
    for item_id, blob in store.collection_vectors(info["id"]):
        try:
            ids.append(int(item_id))
        except (TypeError, ValueError):
            continue  # not a note: someone else's item in the collection
        blobs.append(blob)
    if blobs:
        width = max(set(len(b) for b in blobs), key=[len(b) for b in blobs].count)
        keep = [i for i, b in enumerate(blobs) if len(b) == width]  # vectors of another length cannot be ranked
        ids = [ids[i] for i in keep]
        vectors = np.frombuffer(b"".join(blobs[i] for i in keep), dtype="<f4").reshape(len(keep), width // 4)
        vectors = vectors.astype(np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        vectors /= norms  # llm models need not normalise: cosine = dot product after this
    else:
        vectors = np.zeros((0, 0), dtype=np.float32)
    order = np.argsort(np.asarray(ids, dtype=np.int64), kind="stable")
    return VectorMatrix.build(np.asarray(ids, dtype=np.int64)[order], np.ascontiguousarray(vectors[order]),
                              info["model"])


def vector_top_k(store: "Store", query_vector, k: int, candidate_ids: Iterable[int] | None = None,
                 collection: str = COLLECTION) -> list[tuple[int, float]]:
    """The ``k`` notes whose vectors are most similar to ``query_vector``: [(note id, cosine)], best first.

    Exact (the same ranking as brute force). ``candidate_ids`` restricts the ranking to those notes
    (e.g. a project's). Raises EmbeddingUnavailable when the query's length does not match the
    stored vectors' (they come from another model)."""
    import numpy as np

    matrix = refresh_matrix_cache(store, collection)
    if k <= 0 or len(matrix) == 0:
        return []
    query = np.asarray(query_vector, dtype=np.float32).reshape(-1)
    if query.shape[0] != matrix.dimensions:
        raise EmbeddingUnavailable(
            f"The query vector has {query.shape[0]} dimensions, the stored vectors {matrix.dimensions}: "
            "they come from different models. Run 'lorebook index' to re-embed the notes.")
    norm = float(np.linalg.norm(query))
    if norm:
        query = query / norm
    rows = None if candidate_ids is None else matrix.rows_for(candidate_ids)
    return matrix.top_k(query, k, rows)


def semantic_search(store: "Store", text: str, k: int = 10, candidate_ids: Iterable[int] | None = None,
                    model_id: str | None = None) -> list[tuple[int, float]]:
    """Embed ``text`` with the collection's model and rank notes by cosine: [(note id, score)], best first.

    Raises EmbeddingUnavailable when the model cannot be loaded, or when the notes were
    embedded with a different model than the configured one (run ``lorebook index``)."""
    from .embeddings import embed, embedding_model_id

    model_id = model_id or embedding_model_id()
    info = store.vector_collection(COLLECTION)
    if info is None:
        return []
    if info["model"] != model_id:
        raise EmbeddingUnavailable(
            f"The notes' vectors were made with {info['model']}, but the configured model is {model_id}. "
            "Run 'lorebook index' to re-embed them.")
    return vector_top_k(store, embed([text], model_id)[0], k, candidate_ids)
