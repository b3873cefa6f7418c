"""Hooks under a held write lock: how long SessionStart, UserPromptSubmit and PostToolUse take, and whether
they still answer, while another process holds `BEGIN IMMEDIATE` on lorebook's database.

    python bench/hook_lock.py            # 5 runs of each hook, locked and unlocked
    python bench/hook_lock.py --runs 10

Each run is the real `lorebook hook EVENT` process. The unlocked runs of the same hooks, in the same run of
the script, are the baseline: the lock should add about HOOK_BUSY_TIMEOUT_S (1 s) at most, where it used
to add the 5 s busy timeout and then drop the event. After the lock is released one more hook runs, and the
script checks that every observation and prompt made under the lock was stored from the spool. JSON
figures on the last line.
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

HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="lorebook-hook-lock-"))
    home, project = tmp / "home", tmp / "widget"
    (project / ".git").mkdir(parents=True)
    (project / ".git" / "config").write_text('[remote "origin"]\n\turl = git@github.com:Acme/Widget.git\n')
    env = dict(os.environ, LOREBOOK_HOME=str(home), LOREBOOK_AUTO_INDEX="0", LOREBOOK_EMBED_SERVER="0")
    lorebook = shutil.which("lorebook", path=str(Path(sys.executable).parent)) or "lorebook"
    counter = {"n": 0}

    def hook(event: str, session: str, **fields) -> tuple[float, dict]:
        payload = dict({"session_id": session, "cwd": str(project), "transcript_path": str(tmp / "t.jsonl")},
                       **fields)
        start = time.perf_counter()
        done = subprocess.run([lorebook, "hook", event], input=json.dumps(payload).encode(), env=env,
                              capture_output=True)
        return time.perf_counter() - start, json.loads(done.stdout or b"{}")

    def round_of(label: str) -> dict:
        figures = {}
        for event in ("session-start", "user-prompt-submit", "post-tool-use"):
            times, answered = [], 0
            for _ in range(args.runs):
                counter["n"] += 1
                session = f"{label}-{counter['n']}"
                fields = {"session-start": {"hook_event_name": "SessionStart", "source": "startup"},
                          "user-prompt-submit": {"hook_event_name": "UserPromptSubmit",
                                                 "prompt": f"pytest fails: ModuleNotFoundError yaml ({counter['n']})"},
                          "post-tool-use": {"hook_event_name": "PostToolUse", "tool_name": "Bash",
                                            "tool_use_id": f"toolu-{label}-{counter['n']}",
                                            "tool_input": {"command": "pytest -q"},
                                            "tool_response": {"stdout": "3 passed", "stderr": ""}}}[event]
                seconds, out = hook(event, session, **fields)
                times.append(seconds)
                answered += "pyyaml" in json.dumps(out)
            figures[event] = {"p50_ms": round(statistics.median(times) * 1000, 1),
                              "max_ms": round(max(times) * 1000, 1)}
            if event != "post-tool-use":
                figures[event]["answered"] = f"{answered}/{args.runs}"
        return figures

    try:
        os.environ["LOREBOOK_HOME"] = str(home)
        from lorebook.store import Store

        store = Store()
        store.ensure_project("github.com/acme/widget", "widget", str(project))
        store.add_note({"title": "pytest ModuleNotFoundError yaml: install pyyaml in the venv",
                        "summary": "pip install pyyaml", "trigger": "pytest", "change": "pip install pyyaml",
                        "project_key": "github.com/acme/widget", "verified": 1, "source_agent": "bench"})
        unlocked = round_of("free")
        holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(home / "lorebook.db")],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert holder.stdout.readline().strip() == b"locked"
        try:
            locked = round_of("locked")
        finally:
            holder.stdin.close()
            holder.wait()
        hook("post-tool-use", "after", hook_event_name="PostToolUse", tool_name="Bash", tool_use_id="toolu-after",
             tool_input={"command": "ls"}, tool_response={"stdout": "a", "stderr": ""})
        stored = sum(1 for n in range(1, counter["n"] + 1)
                     if store.has_observation(f"toolu-locked-{n}"))
        prompts = sum(len(store.session_prompts(f"locked-{n}")) for n in range(1, counter["n"] + 1))
        store.close()
        result = {"runs": args.runs, "unlocked": unlocked, "locked": locked,
                  "stored_from_spool": {"observations": f"{stored}/{args.runs}", "prompts": f"{prompts}/{args.runs}"},
                  "load_1m": round(os.getloadavg()[0], 2)}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
