"""`lorebook write` as a whole process on a 10,000-note store, beside `python -c pass`.

    python bench/write.py [--notes 10000] [--runs 15] [--server] [--cache-dir DIR]

Seeds a fresh LOREBOOK_HOME like bench/scale.py (N synthetic notes over 20
projects, random unit vectors), then runs ``lorebook write "<a distinct
lesson>"`` from a git checkout of one of the projects, interleaved with
``python -c pass`` on the same interpreter (the floor any Python process pays).
Each figure has its wall time (p50, p95) and its CPU time (user + system,
``cpu_p50``): on a shared, loaded machine wall time mostly measures waiting
for a CPU, so read both beside the load average printed with them.

Without ``--server`` the write compares lexically (no embedding server runs:
what a write costs when none is warm). With ``--server`` a warm embedding
server (``lorebook embed-server``) runs first and the write takes its cosines
from it (the model is never loaded in the writing process).

The store is seeded in one transaction with random vectors (no model is
loaded to seed it). ``--cache-dir`` keeps the seeded store there and copies it
into each run's fresh home, so later runs skip seeding and every write is new.

The target is p50 <= 300 ms at 10,000 notes. JSON on the last line.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import scale  # noqa: E402  (bench/scale.py: the same seeded store and project checkout)

TARGET_P50_MS = 300


def lesson(i: int) -> str:
    return (f"`make target-{i}` fails with E{2000 + i} in a fresh checkout: export ACME_LIMIT_{i}=1 in the "
            f"Makefile, because the target-{i} recipe reads it and stops when it is unset.")


def start_server(env: dict) -> bool:
    subprocess.Popen([sys.executable, "-m", "lorebook", "embed-server"], env=env, stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    os.environ["LOREBOOK_HOME"] = env["LOREBOOK_HOME"]
    from lorebook import embed_server

    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:  # the first top_k loads the model and the note matrix
        if embed_server.query_top_k("warm up", k=3, timeout=60, start=False) is not None:
            return True
        time.sleep(0.5)
    return False


def seeded_home(home: Path, notes: int, cache_dir: Path | None) -> float:
    """Seed ``home`` with ``notes`` notes (or copy the copy kept in ``cache_dir``); the seconds seeding took."""
    if cache_dir is None:
        return scale.seed(home, notes)["seed_s"]
    cached = cache_dir / f"home-{notes}"
    if not (cached / "lorebook.db").exists():
        shutil.rmtree(cached, ignore_errors=True)
        seed_s = scale.seed(cached, notes)["seed_s"]
    else:
        seed_s = 0.0
    shutil.copytree(cached, home)
    return seed_s


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--server", action="store_true", help="Write with a warm embedding server running.")
    parser.add_argument("--cache-dir", type=Path, help="Keep the seeded store here and reuse it in later runs.")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="lorebook-bench-write-"))
    home = root / "home"
    seed_s = seeded_home(home, args.notes, args.cache_dir)
    project = scale.make_project(root)
    env = dict(os.environ, LOREBOOK_HOME=str(home), LOREBOOK_AUTO_INDEX="0",
               LOREBOOK_EMBED_SERVER="1" if args.server else "0")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    lorebook = [sys.executable, "-m", "lorebook"]
    served = start_server(env) if args.server else False
    subprocess.run([*lorebook, "write", "--json", lesson(-1)], capture_output=True, env=env, cwd=str(project))
    wall: dict[str, list[float]] = {"lorebook_write": [], "baseline_python": []}
    cpu: dict[str, list[float]] = {"lorebook_write": [], "baseline_python": []}
    decisions: dict[str, int] = {}
    for i in range(args.runs):
        w, c, result = scale._run([*lorebook, "write", "--json", lesson(i)], env=env, cwd=str(project))
        wall["lorebook_write"].append(w)
        cpu["lorebook_write"].append(c)
        decision = json.loads(result.stdout or b"{}").get("decision", f"error: {result.stderr[-200:]!r}")
        decisions[decision] = decisions.get(decision, 0) + 1
        w, c, _ = scale._run([sys.executable, "-c", "pass"], env=env)
        wall["baseline_python"].append(w)
        cpu["baseline_python"].append(c)
    if args.server:
        subprocess.run([*lorebook, "embed-server", "--stop"], capture_output=True, env=env)
    shutil.rmtree(root, ignore_errors=True)
    out = {name: dict(scale.summary(wall[name]), cpu_p50=round(statistics.median(cpu[name]), 1)) for name in wall}
    out.update(notes=args.notes, runs=args.runs, server=args.server, server_answered=served, decisions=decisions,
               seed_s=seed_s, load_average=[round(x, 2) for x in os.getloadavg()],
               target_p50_ms=TARGET_P50_MS)
    print(f"lorebook write: p50 {out['lorebook_write']['p50']} ms (cpu {out['lorebook_write']['cpu_p50']} ms); "
          f"python -c pass: p50 {out['baseline_python']['p50']} ms (cpu {out['baseline_python']['cpu_p50']} ms); "
          f"load {out['load_average']}")
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
