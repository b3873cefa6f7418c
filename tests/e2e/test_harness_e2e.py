"""The e2e harness itself, on a real multi-turn session: one claude process, one lorebook session, every prompt."""
import json


def test_turns_in_one_process_are_one_session_with_every_prompt(lorebook_sandbox):
    sb = lorebook_sandbox("plugin-dir")
    res = sb.run_turns(["first: run echo hello", "second turn"])
    assert res.returncode == 0, res.describe()
    assert len(res.results) == 2 and len({r["session_id"] for r in res.results}) == 1
    stats = json.loads(sb.lorebook("stats", "--json").stdout)
    assert (stats["sessions"], stats["prompts"]) == (1, 2), stats
    assert "internal error" not in sb.hook_log, sb.hook_log
