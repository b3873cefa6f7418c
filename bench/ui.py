"""lorebook ui at scale: every page's latency with 10,000 notes and 100,000 observations.

    python bench/ui.py                      # 10,000 notes, 100,000 observations, 30 runs a page
    python bench/ui.py --notes 2000 --observations 20000 --runs 10

Seeds a fresh LOREBOOK_HOME (20 projects, 1,000 sessions of 100 observations
each, every 10th a failure with an error signature; notes over a Zipf
vocabulary as in bench/scale.py; one Stop receipt a session), starts the real
viewer on a free loopback port in this process, and fetches each page over
HTTP, interleaved with ``baseline_static`` (``/ping``: the same server and
HTTP round trip, no page work), page by page. Search here is by keywords (no
vectors are seeded: embedding 10,000 notes would take the better part of an
hour). Budget: p50 <= 300 ms for every page. Prints medians (p50) and p95 in
ms; JSON on the last line.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from scale import vocabulary  # noqa: E402  (the same synthetic text as the search bench)

BUDGET_MS = 300


def seed(home: Path, notes: int, observations: int) -> dict:
    os.environ["LOREBOOK_HOME"] = str(home)
    from lorebook.store import Store

    rng = random.Random(notes)
    words = vocabulary()
    weights = [1.0 / (rank + 1) for rank in range(len(words))]

    def text(n):
        return " ".join(rng.choices(words, weights, k=n))

    store = Store()
    projects = [f"github.com/acme/project-{i:02d}" for i in range(20)]
    for key in projects:
        store.ensure_project(key, key.rsplit("/", 1)[-1], root=f"/src/{key.rsplit('/', 1)[-1]}")
    sessions = max(observations // 100, 1)
    started = time.perf_counter()
    with store.atomic():
        for s in range(sessions):
            sid = f"bench-session-{s:05d}"
            project = projects[s % 20]
            day = f"2026-{1 + s % 11:02d}-{1 + s % 27:02d}"
            store.ensure_session(sid, project_key=project, cwd=f"/src/{project}", started_at=f"{day}T10:00:00Z")
            store.add_prompt(sid, text(15))
            for o in range(100 if s < sessions - 1 else observations - 100 * (sessions - 1)):
                failed = o % 10 == 9
                store.add_observation({
                    "session_id": sid, "project_key": project,
                    "event": "post_tool_use_failure" if failed else "post_tool_use",
                    "tool": rng.choice(["Bash", "Read", "Edit", "Grep"]), "target": f"src/{rng.choice(words)}.py",
                    "summary": text(10), "outcome": "error" if failed else "ok",
                    "error_signature": f"{rng.choice(words)}Error: <n>" if failed else None,
                    "created_at": f"{day}T10:{o // 60:02d}:{o % 60:02d}Z"})
            store.add_receipt({"source_agent": "claude-code", "run_key": f"{sid}:none:1", "decision": "skipped",
                               "reasons": [{"code": "no_failure_fix_chain", "message": "no failure was fixed"}],
                               "warnings": [], "created_at": f"{day}T11:00:00Z"})
            store.update_session(sid, status="closed")
        for i in range(notes):
            scope = "global" if i % 10 == 0 else "project"
            store.add_note({
                "title": text(8).capitalize(), "summary": text(20), "trigger": text(12), "change": text(30),
                "kind": rng.choice(["fix", "pitfall", "pattern", "decision", "gotcha", "how-it-works"]),
                "scope": scope, "project_key": None if scope == "global" else projects[i % 20],
                "files": [f"src/{rng.choice(words)}.py"], "tags": rng.sample(words[:60], 2), "source_agent": "bench",
                "session_id": f"bench-session-{i % sessions:05d}", "verified": int(i % 3 == 0),
                "evidence": [{"quote": text(10), "source": "bench", "observation_id": i + 1}],
            })
    seeded_s = time.perf_counter() - started
    store.checkpoint()
    store.close()
    return {"seed_s": round(seeded_s, 1), "projects": projects, "sessions": sessions}


def fetch_ms(url: str) -> float:
    started = time.perf_counter()
    with urllib.request.urlopen(url) as response:
        response.read()
        assert response.status == 200, url
    return (time.perf_counter() - started) * 1000


def summary(times: list[float]) -> dict:
    ordered = sorted(times)
    return {"p50": round(statistics.median(ordered), 1), "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 1)}


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--observations", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="lorebook-bench-ui-") as tmp:
        info = seed(Path(tmp), args.notes, args.observations)
        from lorebook.ui import UI, make_server, server_url

        app = UI()
        server = make_server(app, "127.0.0.1", 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = server_url(server, app)
        project = urllib.parse.quote(info["projects"][3], safe="")
        session = f"bench-session-{info['sessions'] // 2:05d}"
        pages = {
            "notes": "", "notes_filtered": f"?project={project}&kind=fix&verified=yes",
            "notes_search": "?q=retry+backoff+timeout", "note": "note/5000" if args.notes >= 5000 else "note/1",
            "sessions": "sessions", "session": f"session/{session}",
            "session_live_poll": f"session/{session}/observations.json?after=0",
            "next_session": f"next?project={project}&prompt=retry+backoff+for+flaky+http+client",
            "projects": "projects", "corpora": "corpora", "stats": "stats",
        }
        figures, baseline = {}, []
        for name, path in pages.items():
            fetch_ms(base + path)  # warm: the first request imports the page's modules
            times = []
            for _ in range(args.runs):
                baseline.append(fetch_ms(base + "ping"))
                times.append(fetch_ms(base + path))
            figures[name] = summary(times)
            print(f"{name:20} p50 {figures[name]['p50']:7.1f} ms  p95 {figures[name]['p95']:7.1f} ms", file=sys.stderr)
        server.shutdown()
        server.server_close()
    figures["baseline_static"] = summary(baseline)
    worst = max(v["p50"] for k, v in figures.items() if k != "baseline_static")
    out = {"notes": args.notes, "observations": args.observations, "runs": args.runs, "seed_s": info["seed_s"],
           "load_avg": [round(x, 2) for x in os.getloadavg()], "budget_p50_ms": BUDGET_MS,
           "worst_page_p50_ms": worst, "within_budget": worst <= BUDGET_MS, "pages": figures}
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
