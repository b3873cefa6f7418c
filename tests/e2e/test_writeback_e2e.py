"""Stop in the real Claude Code CLI: never blocks by default; with LOREBOOK_STOP_PROMPT=1 asks once, never twice."""
import json

from cc_harness import say, scenario, tool_use

ASK = "record it once with the MCP tool write_task_memory"


def edit_session() -> dict:
    """An edit that lorebook cannot turn into a lesson by itself (no failure, no stated decision)."""
    return scenario(
        [say("Editing."), tool_use("Edit", file_path="{project}/app.cfg", old_string="timeout = 5",
                                   new_string="timeout = 10")],
        say("Raised the timeout in app.cfg."),
        say("Nothing reusable to record from this change."),
    )


def _script(project) -> dict:
    return json.loads(json.dumps(edit_session()).replace("{project}", str(project)))


def test_stop_does_not_block_by_default(lorebook_sandbox):
    sb = lorebook_sandbox()
    sb.write("app.cfg", "[client]\ntimeout = 5\n")
    res = sb.run("raise the timeout", _script(sb.project))
    assert res.returncode == 0, res.describe()
    assert ASK not in res.all_model_text()
    assert len(res.model_requests) == 2  # the edit, then the final answer: Stop let it end


def test_stop_prompt_asks_the_agent_once_and_never_twice(lorebook_sandbox):
    sb = lorebook_sandbox()
    sb.write("app.cfg", "[client]\ntimeout = 5\n")
    sb.extra_env["LOREBOOK_STOP_PROMPT"] = "1"
    res = sb.run("raise the timeout", _script(sb.project))
    assert res.returncode == 0, res.describe()
    asked = [r for r in res.model_requests if ASK in json.dumps(r["body"])]
    # the third request carries the Stop hook feedback; the second Stop (stop_hook_active) lets the agent stop
    assert len(res.model_requests) == 3, res.describe()
    assert asked and asked[0] is res.model_requests[2]
    assert res.text == "Nothing reusable to record from this change."
    stats = json.loads(sb.lorebook("stats", "--json").stdout)
    assert stats["notes"] == 0 and stats["sessions"] == 1
