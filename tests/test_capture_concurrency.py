"""Parallel sessions and parallel tool calls write at once: nothing is lost, nothing fails.

16 concurrent processes, 50 `lorebook hook post-tool-use` events each, starting
from no database at all (so the first ones also race to create and migrate it),
must leave exactly 800 observations and no error.

In the first mode each of the 16 processes runs the real entry point
(``lorebook.main.main(["hook", "post-tool-use"])``) 50 times in a row, each
time with fresh stdin and its own Store connection, exactly as a hook process
does after start-up; the second mode spawns a new ``lorebook hook
post-tool-use`` process per event, as Claude Code does (800 process
start-ups, about a minute on a quiet 2-core machine).
"""
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

WORKERS = 16
EVENTS = 50


def lorebook_executable():
    found = shutil.which("lorebook", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "lorebook"]


# one worker process: EVENTS hook calls through the real entry point, one Store per call
WORKER = r"""
import io, json, sys
from lorebook.main import main
failures = []
for line in sys.stdin.read().splitlines():
    sys.stdin = io.TextIOWrapper(io.BytesIO(line.encode()))
    out = io.StringIO()
    real_stdout, sys.stdout = sys.stdout, out
    try:
        code = main(["hook", "post-tool-use"])
    finally:
        sys.stdout = real_stdout
    if code != 0 or out.getvalue().strip() != "{}":
        failures.append([code, out.getvalue()[-200:]])
print(json.dumps(failures))
"""


def payload(tmp_path, git_project, worker, n):
    return {
        "session_id": f"session-{worker % 4}",  # 4 sessions, 4 parallel tool streams each
        "transcript_path": str(tmp_path / f"session-{worker % 4}.jsonl"),
        "cwd": str(git_project), "hook_event_name": "PostToolUse", "tool_name": "Bash",
        "tool_use_id": f"toolu_{worker:02d}_{n:03d}",
        "tool_input": {"command": f"pytest -q tests/test_{worker}_{n}.py", "description": "run"},
        "tool_response": {"stdout": f"{n} passed", "stderr": "", "interrupted": False},
    }


@pytest.mark.parametrize("mode", ["worker-processes", "process-per-event"])
def test_sixteen_concurrent_hook_streams_lose_nothing(tmp_path, lorebook_home, git_project, mode):
    command = lorebook_executable() + ["hook", "post-tool-use"]
    env = dict(os.environ, LOREBOOK_HOME=str(lorebook_home))
    env.pop("LOREBOOK_DISABLE", None)
    assert not (lorebook_home / "lorebook.db").exists()

    def worker_process(worker):
        events = "\n".join(json.dumps(payload(tmp_path, git_project, worker, n)) for n in range(EVENTS))
        result = subprocess.run([sys.executable, "-c", WORKER], input=events.encode(), capture_output=True, env=env)
        if result.returncode != 0 or result.stderr:
            return [(worker, result.returncode, result.stderr[-800:])]
        return [(worker, failure) for failure in json.loads(result.stdout.splitlines()[-1])]

    def stream(worker):
        failures = []
        for n in range(EVENTS):
            event = payload(tmp_path, git_project, worker, n)
            result = subprocess.run(command, input=json.dumps(event).encode(), capture_output=True, env=env)
            if result.returncode != 0 or result.stdout.strip() != b"{}" or result.stderr:
                failures.append((worker, n, result.returncode, result.stdout[-200:], result.stderr[-500:]))
        return failures

    run = worker_process if mode == "worker-processes" else stream
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        failures = [f for batch in pool.map(run, range(WORKERS)) for f in batch]
    assert failures == []
    log = lorebook_home / "logs" / "hooks.log"
    assert not log.exists() or "internal error" not in log.read_text(), log.read_text()

    from lorebook.store import Store

    store = Store()
    try:
        assert store.conn.execute("SELECT count(*) FROM observations").fetchone()[0] == WORKERS * EVENTS
        assert store.conn.execute("SELECT count(DISTINCT tool_use_id) FROM observations").fetchone()[0] == WORKERS * EVENTS
        assert store.conn.execute("SELECT count(*) FROM sessions").fetchone()[0] == 4
        assert store.conn.execute("SELECT count(*) FROM projects").fetchone()[0] == 1
        assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        store.close()
