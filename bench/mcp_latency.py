"""How fast `lorebook mcp` is ready, and how fast its tools answer at 10,000 notes.

    python bench/mcp_latency.py                    # 10,000 notes, 7 start-ups, 30 queries
    python bench/mcp_latency.py --notes 2000 --runs 3 --queries 10

Measured in one run, under the same machine load:

- baselines: ``python -c pass``, and the import of the MCP SDK alone
  (``import mcp.server.lowlevel, mcp.server.stdio``), the floor of any server
  built on it;
- ready: from spawning ``lorebook mcp`` to its ``initialize`` answer (the
  moment Claude Code can list the tools), cold (``LOREBOOK_MCP_WARM=0``: the
  process imports the SDK itself) and warm (a warm parent forks the server);
  with each process's CPU time (user + sys) at that moment, since wall time
  suffers from whatever else the machine runs;
- tool calls at ``--notes`` notes (realistic text, random unit vectors in
  lorebook's vector tables, so the search is hybrid: the query is embedded by
  the real offline model in the server): search_knowledge, recall_for_task
  and list_notes round trips over stdio, after one first call made right
  after tools/list (reported apart: it waits for the server's warm-up, which
  loads the embedding model), beside the same search called
  in-process (the library floor, so the MCP layer's own cost shows).

JSON on the last line: medians (p50) and p95 in ms, with the baselines.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PYTHON = sys.executable
LOREBOOK = str(Path(PYTHON).with_name("lorebook"))
TOPICS = ["pytest", "docker", "postgres", "redis", "nginx", "webpack", "vite", "celery", "kafka", "terraform",
          "kubernetes", "django", "flask", "fastapi", "react", "typescript", "rust", "cargo", "poetry", "npm",
          "eslint", "mypy", "gunicorn", "uvicorn", "sqlalchemy", "alembic", "graphql", "grpc", "s3", "oauth"]
PROBLEMS = ["timeout", "connection refused", "import error", "permission denied", "out of memory", "flaky test",
            "version conflict", "missing env var", "race condition", "encoding error", "deadlock", "slow query",
            "cache miss", "certificate error", "port already in use", "segfault", "schema drift", "retry storm"]
FIXES = ["pin the version", "raise the pool size", "set the env var in CI", "add a retry with backoff",
         "increase the timeout", "use a lock", "rebuild the cache", "run migrations first", "bump the base image",
         "quote the path", "close the connection", "use utf-8 explicitly", "disable the parallel runner"]


def median_ms(values):
    return round(statistics.median(values) * 1000, 1)


def p95_ms(values):
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000, 1)


def figures(values) -> dict:
    return {"p50_ms": median_ms(values), "p95_ms": p95_ms(values), "n": len(values)}


def process_wall(args: list[str], env: dict) -> tuple[float, float]:
    start = time.perf_counter()
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    """`lorebook mcp` spoken to with raw JSON-RPC lines (no client library in the measurement)."""

    def __init__(self, env: dict, cwd: str):
        self.started = time.perf_counter()
        self.proc = subprocess.Popen([LOREBOOK, "mcp"], env=env, cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0

    def request(self, method: str, params: dict | None = None) -> dict:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"lorebook mcp closed its output while answering {method}")
            answer = json.loads(line)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]

    def initialize(self) -> tuple[float, float]:
        """(wall seconds since spawn, CPU seconds of the process) when `initialize` was answered."""
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "1"}})
        wall = time.perf_counter() - self.started
        cpu = cpu_seconds(self.proc.pid)
        self.proc.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        self.proc.stdin.flush()
        return wall, cpu

    def call(self, name: str, arguments: dict) -> tuple[float, dict]:
        start = time.perf_counter()
        result = self.request("tools/call", {"name": name, "arguments": arguments})
        elapsed = time.perf_counter() - start
        if result.get("isError"):
            raise RuntimeError(f"{name} failed: {result['content'][0]['text']}")
        return elapsed, result.get("structuredContent") or json.loads(result["content"][0]["text"])

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def seed(home: Path, project_key: str, count: int) -> float:
    """``count`` notes of realistic text, each with a random unit vector in lorebook's vector tables."""
    import numpy as np

    os.environ["LOREBOOK_HOME"] = str(home)
    from lorebook.store import Store
    from lorebook.vectors import COLLECTION, refresh_matrix_cache

    rng = random.Random(7)
    start = time.perf_counter()
    store = Store()
    with store.atomic():
        for i in range(count):
            topic, problem, fix = rng.choice(TOPICS), rng.choice(PROBLEMS), rng.choice(FIXES)
            other = rng.choice(TOPICS)
            store.add_note({
                "title": f"{topic} {problem} when calling {other}: {fix}",
                "summary": f"The {problem} in {topic} came from {other}; the fix was to {fix}.",
                "trigger": f"Running the {topic} integration tests against {other}",
                "change": f"{fix} in config/{topic}.yml (case {i})",
                "evidence": [{"quote": f"{topic}: {problem} ({i})", "source": "test output"}],
                "tags": [topic, other], "files": [f"config/{topic}.yml"],
                "scope": "global" if i % 10 == 0 else "project",
                "project_key": None if i % 10 == 0 else (project_key if i % 2 else f"github.com/other/p{i % 7}"),
                "source_agent": "bench", "session_id": f"bench-{i // 5}", "verified": i % 3 == 0})
    store.ensure_vector_tables()
    collection_id, _ = store.set_vector_collection(COLLECTION, "lorebook-minilm")
    vectors = np.random.default_rng(7)
    after = 0
    while True:
        notes = store.notes_to_index(5000, after)
        if not notes:
            break
        after = notes[-1]["id"]
        matrix = vectors.standard_normal((len(notes), 384)).astype(np.float32)
        matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
        store.save_note_vectors(collection_id, [
            {"note_id": n["id"], "updated_at": n["updated_at"], "embedding": v.astype("<f4").tobytes(),
             "content": n["title"], "content_hash": b"", "metadata": {}} for n, v in zip(notes, matrix)])
    refresh_matrix_cache(store)
    store.close()
    return time.perf_counter() - start


def queries(count: int) -> list[str]:
    rng = random.Random(11)
    return [f"{rng.choice(TOPICS)} {rng.choice(PROBLEMS)}" for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7, help="start-ups measured, cold and warm each")
    parser.add_argument("--queries", type=int, default=30)
    args = parser.parse_args()

    root = Path(tempfile.mkdtemp(prefix="lb-mcp-bench-"))
    home, project = root / "home", root / "project"
    (project / ".git").mkdir(parents=True)
    (project / ".git" / "config").write_text('[remote "origin"]\n\turl = https://github.com/acme/bench.git\n')
    seconds = seed(home, "github.com/acme/bench", args.notes)
    print(f"seeded {args.notes} notes (with vectors) in {seconds:.1f} s", file=sys.stderr)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LOREBOOK_")}
    env.update(LOREBOOK_HOME=str(home), LOREBOOK_MCP_IDLE="120")
    out: dict = {"notes": args.notes, "load_avg_1m": round(os.getloadavg()[0], 2)}

    # baselines
    walls = [process_wall([PYTHON, "-c", "pass"], env) for _ in range(args.runs)]
    out["baseline_python_pass"] = dict(figures([w for w, _ in walls]), cpu_p50_ms=median_ms([c for _, c in walls]))
    sdk = [process_wall([PYTHON, "-c", "import mcp.server.lowlevel, mcp.server.stdio"], env) for _ in range(args.runs)]
    out["baseline_sdk_import"] = dict(figures([w for w, _ in sdk]), cpu_p50_ms=median_ms([c for _, c in sdk]))

    # ready: cold (the process imports the SDK itself) and warm (forked from a warm parent)
    from lorebook import mcp_warm

    mcp_warm.stop()
    cold = []
    for _ in range(args.runs):
        server = Server(dict(env, LOREBOOK_MCP_WARM="0"), str(project))
        cold.append(server.initialize())
        server.close()
    out["ready_cold"] = dict(figures([w for w, _ in cold]), cpu_p50_ms=median_ms([c for _, c in cold]))
    parent = subprocess.Popen([PYTHON, "-m", "lorebook.mcp_warm"], env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while mcp_warm.status() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    warm, forked = [], 0
    for _ in range(args.runs):
        server = Server(env, str(project))
        warm.append(server.initialize())
        forked += (mcp_warm.status() or {}).get("children", 0) >= 1
        server.close()
    out["ready_warm"] = dict(figures([w for w, _ in warm]), cpu_p50_ms=median_ms([c for _, c in warm]),
                             served_by_warm_parent=forked)

    # tool calls over stdio at --notes notes, in one (warm-started) server
    server = Server(env, str(project))
    server.initialize()
    server.request("tools/list")  # as Claude Code does; it starts the server's warm-up (model, matrix)
    asked = queries(args.queries)
    first, answer = server.call("search_knowledge", {"query": "warm up the embedding model"})
    out["search_first_call_right_after_listing_ms"] = round(first * 1000, 1)
    search_times, modes = [], set()
    for query in asked:
        elapsed, answer = server.call("search_knowledge", {"query": query, "limit": 10})
        search_times.append(elapsed)
        modes.add(answer["mode"])
    out["search_knowledge"] = dict(figures(search_times), mode=sorted(modes))
    recall_times = [server.call("recall_for_task", {"goal": f"fix the {q} in our service"})[0] for q in asked]
    out["recall_for_task"] = figures(recall_times)
    list_times = [server.call("list_notes", {"search": q.split()[0], "page": 2})[0] for q in asked[:10]]
    out["list_notes"] = figures(list_times)
    server.close()
    parent.terminate()
    parent.wait(10)

    # the library floor: the same search in-process (model loaded, matrix cached)
    from lorebook.search import search
    from lorebook.store import Store

    store = Store(home / "lorebook.db")
    search(store, "warm up the embedding model", project_key="github.com/acme/bench")
    floor = []
    for query in asked:
        start = time.perf_counter()
        search(store, query, limit=10, project_key="github.com/acme/bench")
        floor.append(time.perf_counter() - start)
    store.close()
    out["baseline_search_in_process"] = figures(floor)
    out["mcp_overhead_p50_ms"] = round(out["search_knowledge"]["p50_ms"] - out["baseline_search_in_process"]["p50_ms"], 1)
    out["targets"] = {"ready_ms": 1000, "search_p50_ms": 100,
                      "ready_warm_met": out["ready_warm"]["p50_ms"] <= 1000,
                      "ready_cold_met": out["ready_cold"]["p50_ms"] <= 1000,
                      "search_met": out["search_knowledge"]["p50_ms"] <= 100}
    import shutil

    shutil.rmtree(root, ignore_errors=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
