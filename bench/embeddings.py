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

Vectors are random unit vectors (the timing does not depend on their values)
stored through lorebook's own Store methods in llm's tables. Wall time
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


def seed(home: Path, count: int) -> float:
    """A lorebook dir with ``count`` notes, each with a random unit vector in llm's tables."""
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
        vectors = rng.standard_normal((len(notes), 384)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        store.save_note_vectors(collection_id, [
            {"note_id": n["id"], "updated_at": n["updated_at"], "embedding": v.astype("<f4").tobytes(),
             "content": n["title"], "content_hash": b"", "metadata": {}} for n, v in zip(notes, vectors)])
    store.close()
    return time.perf_counter() - start


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
    model.encode([f"note {i}: " + queries[i % 4] + " and some more words of context" for i in range(256)])
    results["embed_256_notes_ms"] = round((time.perf_counter() - start) * 1000, 2)

    # --- top-k per size ------------------------------------------------------------------------
    from lorebook import vectors
    from lorebook.embed_server import EmbedServer

    for size in sizes:
        home = root / f"home-{size}"
        seed_s = seed(home, size)
        os.environ["LOREBOOK_HOME"] = str(home)
        size_env = dict(env, LOREBOOK_HOME=str(home))
        from lorebook.store import Store

        store = Store()
        figures: dict = {"seed_s": round(seed_s, 1)}
        query = model.encode([queries[0]])[0]
        vectors._matrix_cache.clear()
        start = time.perf_counter()
        vectors.refresh_matrix_cache(store)  # builds the .npy cache (done at the end of `lorebook index`)
        figures["cache_build_ms"] = round((time.perf_counter() - start) * 1000, 2)
        times = []
        for _ in range(50):
            start = time.perf_counter()
            vectors.vector_top_k(store, query, 10)
            times.append(time.perf_counter() - start)
        figures["lorebook_top_k_ms"] = median_ms(times)
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
                    if op == "embed_query":
                        reply = embed_server.embed_query(queries[i % 4], timeout=5, start=False)
                    else:
                        reply = embed_server.query_top_k(queries[i % 4], 10, timeout=5, start=False)
                    times.append(time.perf_counter() - start)
                    assert reply is not None, op
                figures[f"server_{op}_ms"] = median_ms(times)
            figures["process_hook_like_query_top_k_via_server"] = process_figures(
                "import sys; from lorebook.embed_server import query_top_k; "
                "hits = query_top_k('sqlite database is locked', 10, timeout=2, start=False); "
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
