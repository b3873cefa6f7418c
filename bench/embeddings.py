"""Embedding and vector top-k latency: what a search or a hook process pays, and what the warm server saves.

    python bench/embeddings.py                      # 10,000 and 100,000 vectors
    python bench/embeddings.py --sizes 10000 --runs 20

Measures, in one run and under the same machine load:

- process floor: ``python -c pass``, ``python -c "import numpy"``, and a whole
  process that embeds one query in-process (imports + model load + embed);
- in-process: model load, one-query embed latency (warm);
- top-k at each size: lorebook's ``vector_top_k`` (cached float32 matrix, the
  cache check included) against ``llm similar``'s brute force
  (``llm.Collection.similar_by_vector``, what the CLI runs), and a cold
  process that loads the memory-mapped cache and ranks;
- the warm embedding server: ``embed_query`` and ``query_top_k`` round trips
  from a client that imports neither numpy nor llm, and a whole hook-like
  process (``python -c`` importing only lorebook.embed_server) that asks it.

Vectors are drawn from a Gaussian fitted to real MiniLM vectors (600 turns of
``../shared/bench/locomo-dev.json`` embedded by lorebook-minilm; isotropic
random unit vectors when that file is absent), so that their spectrum — which
the pruned top-k relies on — is realistic; stored through lorebook's own
Store methods in llm's tables. A plain numpy brute force (``matrix @ query``
over the float32 matrix) is the in-process baseline. Wall time
suffers from whatever else the machine runs: each subprocess figure comes with
its CPU time (user + sys), and the 1-minute load average is reported.
JSON figures on the last line (medians in ms).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PYTHON = sys.executable


def median_ms(values):
    return round(statistics.median(values) * 1000, 2)


def p95_ms(values):
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000, 2)


def run_process(code: str, env: dict) -> tuple[float, float]:
    """(wall seconds, cpu seconds) of ``python -c code``."""
    start = time.perf_counter()
    proc = subprocess.Popen([PYTHON, "-c", code], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"bench process failed: {code}\n{proc.stderr.read().decode()}")
    proc.stderr.close()
    return wall, usage.ru_utime + usage.ru_stime


def process_figures(code: str, env: dict, runs: int) -> dict:
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = run_process(code, env)
        walls.append(wall)
        cpus.append(cpu)
    return {"wall_p50_ms": median_ms(walls), "wall_p95_ms": p95_ms(walls), "cpu_p50_ms": median_ms(cpus)}


LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo-dev.json"


def vector_sampler(model):
    """A function (rng, n) -> n unit vectors shaped like real MiniLM vectors, and where they come from."""
    import numpy as np

    texts = []
    if LOCOMO.exists():
        def walk(item):
            if isinstance(item, dict):
                for key, value in item.items():
                    if key == "text" and isinstance(value, str):
                        texts.append(value)
                    else:
                        walk(value)
            elif isinstance(item, list):
                for value in item:
                    walk(value)
        walk(json.loads(LOCOMO.read_text("utf-8")))
        texts = list(dict.fromkeys(texts))[:600]
    if len(texts) < 400:
        return (lambda rng, n: rng.standard_normal((n, 384))), "isotropic random"
    real = model.encode(texts).astype(np.float64)
    mean, factor = real.mean(axis=0), np.linalg.cholesky(np.cov(real.T) + 1e-6 * np.eye(real.shape[1]))
    return (lambda rng, n: mean + rng.standard_normal((n, real.shape[1])) @ factor.T), \
        f"Gaussian fitted to {len(texts)} real MiniLM vectors (LoCoMo turns)"


def seed(home: Path, count: int, sample) -> float:
    """A lorebook dir with ``count`` notes, each with a vector in llm's tables."""
    import numpy as np

    os.environ["LOREBOOK_HOME"] = str(home)
    from lorebook.store import Store
    from lorebook.vectors import COLLECTION

    start = time.perf_counter()
    store = Store()
    with store.atomic():
        for i in range(count):
            store.add_note({"title": f"bench note {i}", "summary": "synthetic", "project_key": f"p{i % 7}"})
    store.ensure_vector_tables()
    collection_id, _ = store.set_vector_collection(COLLECTION, "lorebook-minilm")
    rng = np.random.default_rng(7)
    after = 0
    while True:
        notes = store.notes_to_index(5000, after)
        if not notes:
            break
        after = notes[-1]["id"]
        vectors = sample(rng, len(notes)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        store.save_note_vectors(collection_id, [
            {"note_id": n["id"], "updated_at": n["updated_at"], "embedding": v.astype("<f4").tobytes(),
             "content": n["title"], "content_hash": b"", "metadata": {}} for n, v in zip(notes, vectors)])
    store.close()
    return time.perf_counter() - start


def _plain_ids(store):
    from lorebook.vectors import COLLECTION

    import numpy as np

    info = store.vector_collection(COLLECTION)
    return np.asarray([int(i) for i, _ in store.collection_vectors(info["id"])], dtype=np.int64)


def _plain_matrix(store):
    """The collection as one float32 matrix, in the table's order (the brute-force baseline)."""
    import numpy as np

    from lorebook.vectors import COLLECTION

    info = store.vector_collection(COLLECTION)
    blobs = [blob for _, blob in store.collection_vectors(info["id"])]
    matrix = np.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(blobs), -1).copy()
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000", help="comma-separated vector counts")
    parser.add_argument("--runs", type=int, default=15, help="repetitions of each subprocess measurement")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    root = Path(tempfile.mkdtemp(prefix="lorebook-bench-emb-"))
    env = dict(os.environ, LOREBOOK_AUTO_INDEX="0", LOREBOOK_EMBED_SERVER="0")
    env.pop("LOREBOOK_EMBED_MODEL", None)
    results: dict = {"load_avg_1m_start": round(os.getloadavg()[0], 2), "runs": args.runs}

    # --- process floor and the whole in-process path -------------------------------------
    results["process_python_bare"] = process_figures("pass", env, args.runs)
    results["process_import_numpy"] = process_figures("import numpy", env, args.runs)
    results["process_embed_one_query_in_process"] = process_figures(
        "from lorebook.embeddings import embed; embed(['sqlite database is locked when two writers run'])",
        env, max(5, args.runs // 3))

    # --- in-process: load and embed ----------------------------------------------------------
    import numpy as np

    from lorebook import embeddings

    start = time.perf_counter()
    model = embeddings.MiniLM(embeddings.minilm_dir())
    results["model_load_ms"] = round((time.perf_counter() - start) * 1000, 2)
    embeddings._minilm = model
    queries = ["sqlite database is locked when two writers run", "retry backoff", "how do I freeze time in a test",
               "docker build cache invalidated by COPY before pip install"]
    model.encode(queries[:1])
    times = []
    for i in range(40):
        start = time.perf_counter()
        model.encode([queries[i % len(queries)]])
        times.append(time.perf_counter() - start)
    results["embed_one_query_warm_ms"] = median_ms(times)
    start = time.perf_counter()
    model.encode([f"note {i}: " + queries[i % 4] + " and some more words of context" for i in range(64)])
    results["embed_64_notes_ms"] = round((time.perf_counter() - start) * 1000, 2)

    # --- top-k per size ------------------------------------------------------------------------
    from lorebook import vectors

    sample, results["vectors_from"] = vector_sampler(model)
    query_texts = ["what did Caroline do at the support group", "when did Melanie paint a sunrise",
                   "plans for the summer", "adoption agencies", "a concert with the kids", "pottery class"]
    query_vectors = model.encode(query_texts)
    for size in sizes:
        home = root / f"home-{size}"
        seed_s = seed(home, size, sample)
        os.environ["LOREBOOK_HOME"] = str(home)
        size_env = dict(env, LOREBOOK_HOME=str(home))
        from lorebook.store import Store

        store = Store()
        figures: dict = {"seed_s": round(seed_s, 1)}
        query = query_vectors[0]
        vectors._matrix_cache.clear()
        start = time.perf_counter()
        vectors.refresh_matrix_cache(store)  # builds the .npy cache (done at the end of `lorebook index`)
        figures["cache_build_ms"] = round((time.perf_counter() - start) * 1000, 2)
        walls, cpus, brute_walls, brute_cpus = [], [], [], []
        plain = _plain_matrix(store)
        for i in range(60):
            q = query_vectors[i % len(query_vectors)]
            start, cpu = time.perf_counter(), time.process_time()
            vectors.vector_top_k(store, q, 10)
            walls.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
            start, cpu = time.perf_counter(), time.process_time()
            scores = plain @ q
            np.argsort(-scores[np.argpartition(-scores, 9)[:10]])
            brute_walls.append(time.perf_counter() - start)
            brute_cpus.append(time.process_time() - cpu)
        figures["lorebook_top_k_ms"] = median_ms(walls)
        figures["lorebook_top_k_p95_ms"] = p95_ms(walls)
        figures["lorebook_top_k_cpu_ms"] = median_ms(cpus)
        figures["numpy_brute_force_ms"] = median_ms(brute_walls)
        figures["numpy_brute_force_cpu_ms"] = median_ms(brute_cpus)
        plain_ids = _plain_ids(store)
        exact = all([i for i, _ in vectors.vector_top_k(store, q, 10)]
                    == [int(plain_ids[j]) for j in np.argsort(-(plain @ q))[:10]] for q in query_vectors)
        figures["same_top10_as_numpy_brute_force"] = exact
        # queries about nothing stored (the software questions of the first part, against LoCoMo-shaped
        # vectors): the bound prunes little, so this is near the worst case
        unrelated = model.encode(queries)
        walls, cpus = [], []
        for i in range(40):
            start, cpu = time.perf_counter(), time.process_time()
            vectors.vector_top_k(store, unrelated[i % len(unrelated)], 10)
            walls.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
        figures["lorebook_top_k_unrelated_query_ms"] = median_ms(walls)
        figures["lorebook_top_k_unrelated_query_cpu_ms"] = median_ms(cpus)
        candidates = list(range(1, size + 1, 7))
        times = []
        for _ in range(20):
            start = time.perf_counter()
            vectors.vector_top_k(store, query, 10, candidate_ids=candidates)
            times.append(time.perf_counter() - start)
        figures["lorebook_top_k_with_candidates_ms"] = median_ms(times)
        figures["candidates"] = len(candidates)

        import llm
        import sqlite_utils

        collection = llm.Collection(vectors.COLLECTION, sqlite_utils.Database(str(store.path)))
        times = []
        for _ in range(3 if size <= 10000 else 1):
            start = time.perf_counter()
            brute = collection.similar_by_vector(list(map(float, query)), number=10)
            times.append(time.perf_counter() - start)
        figures["llm_similar_brute_force_ms"] = median_ms(times)
        ours = [i for i, _ in vectors.vector_top_k(store, query, 10)]
        figures["same_top10_as_llm_similar"] = ours == [int(e.id) for e in brute]
        figures["speedup_vs_llm_similar"] = round(figures["llm_similar_brute_force_ms"] / figures["lorebook_top_k_ms"], 1)

        figures["process_top_k_cold"] = process_figures(
            "import json; from lorebook.store import Store; from lorebook.vectors import vector_top_k; "
            "import numpy as np; v = np.ones(384, dtype=np.float32); vector_top_k(Store(), v, 10)",
            size_env, max(5, args.runs // 3))

        # the warm server, in this process's child, reached by stdlib-only clients
        server = subprocess.Popen([PYTHON, "-m", "lorebook", "embed-server", "--idle", "120"], env=size_env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            from lorebook import embed_server

            deadline = time.monotonic() + 120
            while embed_server.ping(0.5) is None:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the embedding server did not start")
                time.sleep(0.2)
            embed_server.query_top_k("warm the matrix cache", 10, timeout=30, start=False)
            for op in ("embed_query", "query_top_k"):
                times = []
                for i in range(40):
                    start = time.perf_counter()
                    text = query_texts[i % len(query_texts)]
                    if op == "embed_query":
                        reply = embed_server.embed_query(text, timeout=5, start=False)
                    else:
                        reply = embed_server.query_top_k(text, 10, timeout=5, start=False)
                    times.append(time.perf_counter() - start)
                    assert reply is not None, op
                figures[f"server_{op}_ms"] = median_ms(times)
            figures["process_hook_like_query_top_k_via_server"] = process_figures(
                "import sys; from lorebook.embed_server import query_top_k; "
                "hits = query_top_k('when did Melanie paint a sunrise', 10, timeout=2, start=False); "
                "assert hits and 'numpy' not in sys.modules and 'llm' not in sys.modules, hits",
                size_env, args.runs)
        finally:
            embed_server.stop_server()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
        store.close()
        results[f"vectors_{size}"] = figures

    results["load_avg_1m_end"] = round(os.getloadavg()[0], 2)
    for key, value in results.items():
        print(f"{key}: {value}")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
