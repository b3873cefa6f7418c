"""Search and injection latency at scale: 10,000 and 100,000 notes.

    python bench/scale.py                       # 10,000 and 100,000 notes
    python bench/scale.py --notes 10000 --runs 30

For each size, seeds a fresh LOREBOOK_HOME with N notes (20 projects plus
global notes; synthetic text over a 3,000-word vocabulary with Zipf
frequencies, the technical words the queries use at ranks 20-400, so that
each is common without being in nearly every note; files, tags) and N vectors. The vectors are random unit vectors in the default
model's 384 dimensions: top-k latency does not depend on their values, and
embedding 100,000 notes with the real model would take the better part of an
hour. Then measures, as medians (p50) and p95 in ms:

- ``search_lexical``: ``lorebook.search.search`` in-process, keywords only;
- ``search_hybrid``: the same with a query vector given (bm25 + matrix top-k
  + fusion; the query's embedding is not included: the warm server does it);
- ``hook_session_start`` / ``hook_user_prompt_submit``: the whole
  ``lorebook hook EVENT`` process, as Claude Code runs it (fresh session ids,
  a git project with changed files for SessionStart, a real prompt for
  UserPromptSubmit; no warm server, so the prompt is matched by keywords);
- ``cli_search_lexical``: the whole ``lorebook search --lexical`` process;
- ``baseline_python``: ``python -c pass`` on the same interpreter, measured
  interleaved with the hook runs: the floor any Python hook pays;
- ``baseline_hook_session_start_empty_store``: the same SessionStart hook on
  an empty store: the dispatcher's own cost (interpreter, imports, plugins,
  session bookkeeping), so that the difference is what N notes add.

Each process figure has its wall time and its CPU time (user + system,
``cpu_p50``): on a shared, loaded machine wall time mostly measures waiting
for a CPU, so read both beside the load average printed with them.

The budget is p50 <= 150 ms per hook process at 10,000 notes. JSON on the last line.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS_SEED = 7
QUERIES = [
    "retry backoff for flaky HTTP client", "ModuleNotFoundError: No module named 'yaml'",
    "migration fails on sqlite locked database", "docker build cache invalidated by COPY",
    "pytest fixture leaks temp files", "unicode filename in CSV export", "CI timeout on integration tests",
    "memory leak in worker pool", "TypeError: 'NoneType' object is not subscriptable", "rate limit 429 from API",
]


def vocabulary(size: int = 3000) -> list[str]:
    rng = random.Random(WORDS_SEED)
    base = ("retry backoff client server http request response timeout cache build docker image layer test "
            "pytest fixture mock patch database sqlite postgres migration schema index query lock transaction "
            "worker pool thread async await event loop queue consumer producer kafka redis memory leak profile "
            "latency config yaml json toml parser encoder unicode csv export import module package dependency "
            "version pin upgrade deprecation warning error exception traceback signal deploy kubernetes helm "
            "terraform ci pipeline cron job secret token auth oauth session cookie header proxy tls certificate "
            "git branch merge rebase hook lint format typecheck compile link bundle webpack vite node npm").split()
    words = []
    letters = "abcdefghijklmnopqrstuvwxyz"
    while len(words) < size - len(base):
        words.append("".join(rng.choice(letters) for _ in range(rng.randint(4, 10))))
    # the technical words (those the queries use) sit at ranks 20-400 of the Zipf curve, not at its head:
    # in real notes "retry" or "client" is common, but not in nearly every note
    for position, word in enumerate(base):
        words.insert(20 + position * 3, word)
    return words


def seed(home: Path, count: int) -> dict:
    os.environ["LOREBOOK_HOME"] = str(home)
    import numpy as np

    from lorebook.embeddings import embedding_model_id
    from lorebook.store import Store
    from lorebook.vectors import COLLECTION

    rng = random.Random(count)
    words = vocabulary()
    weights = [1.0 / (rank + 1) for rank in range(len(words))]  # Zipf-like, as real text
    store = Store()
    projects = [f"github.com/acme/project-{i:02d}" for i in range(20)]
    for key in projects:
        store.ensure_project(key, key.rsplit("/", 1)[-1])
    started = time.perf_counter()
    with store.atomic():
        for i in range(count):
            def text(n):
                return " ".join(rng.choices(words, weights, k=n))
            scope = "global" if i % 10 == 0 else "project"
            store.add_note({
                "title": text(8).capitalize(), "summary": text(20), "trigger": text(12), "change": text(30),
                "kind": rng.choice(["fix", "pitfall", "pattern", "decision", "gotcha", "how-it-works"]),
                "scope": scope, "project_key": None if scope == "global" else projects[i % 20],
                "files": [f"src/{rng.choice(words)}.py", f"tests/test_{rng.choice(words)}.py"],
                "tags": rng.sample(words[:60], 2), "source_agent": "bench", "session_id": f"s{i // 5}",
                "verified": int(i % 3 == 0),
            })
    seeded_s = time.perf_counter() - started
    store.ensure_vector_tables()
    collection_id, _ = store.set_vector_collection(COLLECTION, embedding_model_id())
    vectors = np.random.default_rng(count).standard_normal((count, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    rows = store.conn.execute("SELECT id, updated_at FROM notes ORDER BY id").fetchall()
    store.save_note_vectors(collection_id, (
        {"note_id": row[0], "updated_at": row[1], "embedding": vectors[n].tobytes(), "content": None,
         "content_hash": None} for n, row in enumerate(rows)))
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    return {"seed_s": round(seeded_s, 1), "projects": projects}


def timed(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


def summary(times: list[float]) -> dict:
    ordered = sorted(times)
    return {"p50": round(statistics.median(ordered), 1), "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 1)}


def in_process(home: Path, project: str, runs: int) -> dict:
    import numpy as np

    from lorebook.search import search
    from lorebook.store import Store

    os.environ["LOREBOOK_HOME"] = str(home)
    store = Store()
    rng = np.random.default_rng(1)
    queries = [QUERIES[i % len(QUERIES)] for i in range(runs)]
    search(store, "warm up", project_key=project, query_vector=rng.standard_normal(384).astype(np.float32))
    lexical = []
    for q in queries:
        started = time.perf_counter()
        search(store, q, project_key=project, semantic=False)
        lexical.append((time.perf_counter() - started) * 1000)
    hybrid = []
    for q in queries:
        vector = rng.standard_normal(384).astype(np.float32)
        started = time.perf_counter()
        result = search(store, q, project_key=project, query_vector=vector)
        hybrid.append((time.perf_counter() - started) * 1000)
        assert result["mode"] == "hybrid", result["warnings"]
    store.close()
    return {"search_lexical": summary(lexical), "search_hybrid": summary(hybrid)}


def _run(args, **kwargs) -> tuple[float, float, subprocess.CompletedProcess]:
    """(wall ms, CPU ms of the child: user + system, result)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(args, capture_output=True, **kwargs)
    wall = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000
    return wall, cpu, result


def processes(home: Path, project_dir: Path, runs: int) -> dict:
    env = dict(os.environ, LOREBOOK_HOME=str(home), LOREBOOK_EMBED_SERVER="0")
    # as installed: bytecode is cached (with PYTHONDONTWRITEBYTECODE every run recompiles edited modules)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    lorebook = [sys.executable, "-m", "lorebook"]
    names = ("hook_session_start", "hook_user_prompt_submit", "cli_search_lexical", "baseline_python",
             "baseline_hook_session_start_empty_store")
    empty_env = dict(env, LOREBOOK_HOME=str(home.parent / "empty-home"))
    for warm_env in (empty_env, env):  # the first run creates the schema and writes the bytecode caches
        for event in ("session-start", "user-prompt-submit"):
            subprocess.run([*lorebook, "hook", event], capture_output=True, env=warm_env,
                           input=b'{"session_id": "warm", "cwd": "/", "prompt": "warm up the caches"}')
    wall: dict[str, list[float]] = {n: [] for n in names}
    cpu: dict[str, list[float]] = {n: [] for n in names}
    injected = {"hook_session_start": 0, "hook_user_prompt_submit": 0}

    def record(name, args, **kwargs):
        w, c, result = _run(args, env=env, **kwargs)
        wall[name].append(w)
        cpu[name].append(c)
        return result

    for i in range(runs):
        payload = json.dumps({"session_id": f"scale-{i}", "cwd": str(project_dir), "hook_event_name": "SessionStart",
                              "source": "startup", "transcript_path": "/tmp/x.jsonl"}).encode()
        out = record("hook_session_start", [*lorebook, "hook", "session-start"], input=payload)
        injected["hook_session_start"] += bool(json.loads(out.stdout or b"{}"))
        payload = json.dumps({"session_id": f"scale-{i}", "cwd": str(project_dir), "hook_event_name": "UserPromptSubmit",
                              "prompt": QUERIES[i % len(QUERIES)] + " - please fix it",
                              "transcript_path": "/tmp/x.jsonl"}).encode()
        out = record("hook_user_prompt_submit", [*lorebook, "hook", "user-prompt-submit"], input=payload)
        injected["hook_user_prompt_submit"] += bool(json.loads(out.stdout or b"{}"))
        record("baseline_python", [sys.executable, "-c", "pass"])
        payload = json.dumps({"session_id": f"empty-{i}", "cwd": str(project_dir), "hook_event_name": "SessionStart",
                              "source": "startup"}).encode()
        w, c, _ = _run([*lorebook, "hook", "session-start"], input=payload, env=empty_env)
        wall["baseline_hook_session_start_empty_store"].append(w)
        cpu["baseline_hook_session_start_empty_store"].append(c)
        record("cli_search_lexical", [*lorebook, "search", QUERIES[i % len(QUERIES)], "--lexical", "--project",
                                      "github.com/acme/project-03"], cwd=str(project_dir))
    out = {name: dict(summary(wall[name]), cpu_p50=round(statistics.median(cpu[name]), 1)) for name in names}
    out["runs_that_injected"] = injected
    return out


def make_project(root: Path) -> Path:
    """A git checkout of project-03 with a branch and changed files (SessionStart's hints)."""
    project = root / "project-03"
    project.mkdir()
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@x", GIT_COMMITTER_NAME="b",
               GIT_COMMITTER_EMAIL="b@x")
    subprocess.run(["git", "init", "-q", "-b", "fix/retry-backoff", str(project)], check=True, env=env)
    subprocess.run(["git", "-C", str(project), "remote", "add", "origin", "git@github.com:acme/project-03.git"],
                   check=True)
    for name in ("src/client.py", "src/retry.py", "tests/test_client.py"):
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x = 1\n")
    subprocess.run(["git", "-C", str(project), "add", "."], check=True)
    subprocess.run(["git", "-C", str(project), "commit", "-q", "-m", "init"], check=True, env=env)
    (project / "src/retry.py").write_text("x = 2\n")
    (project / "src/backoff.py").write_text("y = 1\n")
    return project


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, action="append", help="Store size (repeatable; default 10000 and 100000).")
    parser.add_argument("--runs", type=int, default=25, help="Runs per measurement.")
    parser.add_argument("--keep", action="store_true", help="Keep the temp data dirs.")
    args = parser.parse_args(argv)
    sizes = args.notes or [10_000, 100_000]
    out = {"bench": "scale", "runs": args.runs, "cpus": os.cpu_count(), "sizes": {}}
    for size in sizes:
        root = Path(tempfile.mkdtemp(prefix=f"lorebook-scale-{size}-"))
        home = root / "home"
        info = seed(home, size)
        project = make_project(root)
        figures = {"seed_s": info["seed_s"]}
        figures.update(in_process(home, "github.com/acme/project-03", args.runs))
        figures.update(processes(home, project, args.runs))
        figures["notes_cost_over_empty_store_p50"] = {
            name: {"wall": round(figures[name]["p50"] - figures["baseline_hook_session_start_empty_store"]["p50"], 1),
                   "cpu": round(figures[name]["cpu_p50"]
                                - figures["baseline_hook_session_start_empty_store"]["cpu_p50"], 1)}
            for name in ("hook_session_start", "hook_user_prompt_submit")}
        figures["hook_overhead_over_python_p50"] = {
            name: {"wall": round(figures[name]["p50"] - figures["baseline_python"]["p50"], 1),
                   "cpu": round(figures[name]["cpu_p50"] - figures["baseline_python"]["cpu_p50"], 1)}
            for name in ("hook_session_start", "hook_user_prompt_submit")}
        figures["load_avg_1m"] = round(os.getloadavg()[0], 2)
        out["sizes"][str(size)] = figures
        print(json.dumps({str(size): figures}), file=sys.stderr)
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
