"""lorebook's MCP server in the real Claude Code CLI: the agent recalls and writes memory mid-task.

`lorebook install` registers the server as `lorebook`, so Claude Code names
its tools `mcp__lorebook__<tool>`. The scripted model calls them; what the
tool returned is read from the NEXT request body the CLI sends, i.e. exactly
what a real model would have been shown.
"""
from __future__ import annotations

import json
import sqlite3

import pytest

from cc_harness import say, scenario, tool_use
from test_loop_e2e import play_two_sessions


@pytest.fixture(autouse=True, scope="module")
def _stop_the_warm_parent_afterwards():
    """The sessions here leave a warm `lorebook mcp` parent behind (by design); do not leave it to its idle timeout."""
    yield
    from lorebook import mcp_warm

    mcp_warm.stop()


def _pending(sb) -> int:
    db = sqlite3.connect(str(sb.lorebook_home / "lorebook.db"))
    try:
        return db.execute("SELECT count(*) FROM notes WHERE index_status = 'pending'").fetchone()[0]
    finally:
        db.close()


def wait_for_embedding(sb, timeout=60.0):
    """Wait for the lesson's vectors: until then recall is keyword-only (``retrieval-degraded``). The Stop hook
    embeds it by a detached `lorebook index`; when that has not finished in time (a loaded machine), the index is
    run here (what the detached process does is tested in tests/test_vectors.py; this test is about recall)."""
    import time

    for attempt in range(2):
        deadline = time.monotonic() + timeout
        while _pending(sb) and time.monotonic() < deadline:
            time.sleep(0.25)
        if not _pending(sb) or attempt:
            break
        sb.lorebook("index", "--quiet")
    return _pending(sb)


RUN_KEY = "e2e-task-7:vite-proxy"
LESSON = {
    "title": "Vite dev server 404s on /api: add server.proxy for /api to vite.config.ts",
    "summary": "The dev server answered /api itself with 404; proxying /api to the backend on port 8000 fixes "
               "local development.",
    "kind": "fix",
    "trigger": "Running `npm run dev` and calling fetch('/api/items') from the app",
    "evidence": [{"quote": "GET http://localhost:5173/api/items 404 (Not Found)", "source": "browser console"}],
    "change": "Added server.proxy = {'/api': 'http://localhost:8000'} to vite.config.ts so the dev server forwards "
              "API calls to the FastAPI backend instead of serving its own 404.",
    "validation": {"passed": ["curl localhost:5173/api/items returned 200 with JSON after the change"],
                   "not_performed": ["production build (the proxy is dev-only)"]},
    "files": ["vite.config.ts"],
    "tags": ["vite", "proxy"],
}


def tool_results(res) -> list[dict]:
    """Every tool_result block the CLI sent back to the model, in order (deduplicated by tool_use_id)."""
    seen, out = set(), []
    for request in res.model_requests:
        for message in request["body"].get("messages", []):
            if not isinstance(message.get("content"), list):
                continue
            for block in message["content"]:
                if block.get("type") == "tool_result" and block["tool_use_id"] not in seen:
                    seen.add(block["tool_use_id"])
                    out.append(block)
    return out


def result_json(block: dict) -> dict:
    content = block["content"]
    if isinstance(content, list):
        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return json.loads(content)


def test_recall_for_task_hands_the_agent_the_lesson_of_an_earlier_session(lorebook_sandbox):
    sb = lorebook_sandbox("install")
    first, _ = play_two_sessions(sb)  # session 1 fails, fixes app.cfg and explains; its lesson is stored
    assert wait_for_embedding(sb) == 0, "the Stop hook's detached `lorebook index` did not embed the lesson"
    res = sb.run("The check is failing again on another machine; what do we know?", scenario(
        [say("Let me ask lorebook what earlier sessions learned."),
         tool_use("mcp__lorebook__recall_for_task", goal="python3 check.py fails with a ConfigError about app.cfg",
                  error_signatures=["ConfigError: [client] retries is not set in app.cfg"], files=["app.cfg"])],
        say("lorebook recalled the retries lesson.")))
    assert res.returncode == 0, res.describe()
    (block,) = tool_results(res)  # read from the request that followed the call: what the model was shown
    assert not block.get("is_error"), block
    answer = result_json(block)
    assert answer["reason"] == "ok", answer
    memories = answer["project_memories"]
    assert memories, answer
    top = memories[0]
    assert "retries" in json.dumps(top), top  # the lesson stored by session 1
    assert top["provenance"]["session_id"] == first.session_id
    assert top["provenance"]["source_agent"] == "claude-code"
    assert "not an instruction" in answer["about"]


def test_write_task_memory_twice_with_one_run_key_leaves_one_note(lorebook_sandbox):
    sb = lorebook_sandbox("install")
    call = dict(mode="manual", source_agent="claude-code", source_run_key=RUN_KEY, scope="project", memory=LESSON)
    res = sb.run("Record what we learned about the vite proxy.", scenario(
        [say("Recording the lesson."), tool_use("mcp__lorebook__write_task_memory", **call)],
        [say("Retrying, in case the first call was lost."), tool_use("mcp__lorebook__write_task_memory", **call)],
        say("Recorded once.")))
    assert res.returncode == 0, res.describe()
    first, second = [result_json(b) for b in tool_results(res)]
    assert first["decision"] == "created" and isinstance(first["note_id"], int), first
    assert second["decision"] == "created" and second["note_id"] == first["note_id"] and second["replayed"] is True
    stats = json.loads(sb.lorebook("stats", "--json").stdout)
    assert stats["notes"] == 1, stats
    db = sqlite3.connect(str(sb.lorebook_home / "lorebook.db"))
    try:
        receipts = db.execute("SELECT decision, note_id FROM receipts WHERE run_key = ?", (RUN_KEY,)).fetchall()
        notes = db.execute("SELECT id, run_key, source_agent, claimed_agent FROM notes").fetchall()
    finally:
        db.close()
    assert receipts == [("created", first["note_id"])]
    # lorebook's own name for the writer (Claude Code started the server), and the writer's, kept as a claim
    assert notes == [(first["note_id"], RUN_KEY, "claude-code (mcp)", "claude-code")]


def test_the_server_is_ready_before_the_first_request_of_the_next_session(lorebook_sandbox):
    """The first server leaves a warm parent; the next session's server is forked from it, ready at once."""
    import time

    from lorebook import mcp_warm

    sb = lorebook_sandbox("install")
    hello = scenario(say("Nothing to do."))
    assert sb.run("say hello", hello).returncode == 0
    deadline = time.monotonic() + 90
    while mcp_warm.status() is None and time.monotonic() < deadline:
        time.sleep(0.5)
    assert mcp_warm.status() is not None, "the first `lorebook mcp` did not leave a warm parent"
    res = sb.run("say hello again", hello)
    assert res.returncode == 0, res.describe()
    first = res.first_request_text()
    assert "MCP servers are still connecting" not in first
    assert "mcp__lorebook__recall_for_task" in first  # the tools were listed in time for the first request
    assert "this machine's memory of earlier coding-agent sessions" in first  # the server's instructions
