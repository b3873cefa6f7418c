"""`lorebook demo`: the bundled session through real `lorebook hook` processes, then the next session's context."""
import json

from click.testing import CliRunner

from lorebook.cli import cli
from lorebook.demo import sample_session

ERROR = "ConfigError: [http] timeout_seconds is required"
FIX = "add `timeout_seconds = 10` under [http]"
CAUSE = "the settings refactor dropped `timeout_seconds` from the [http] section of settings.toml"


def test_demo_shows_the_lesson_the_next_session_gets(lorebook_home, monkeypatch):
    # LOREBOOK_DISABLE in the user's shell must not make the demo show nothing: the demo clears it for its run
    monkeypatch.setenv("LOREBOOK_DISABLE", "1")
    result = CliRunner().invoke(cli, ["demo"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "temporary data dir" in out
    for event in ("SessionStart", "UserPromptSubmit", "PostToolUseFailure", "PostToolUse", "Stop", "SessionEnd"):
        assert f"  {event} " in out
    assert "exit 1" not in out and "exit 2" not in out
    assert "Stored: 4 observations, 1 note." in out
    context = out.split("Claude Code receives this context:")[1]
    assert "<lorebook-memory>" in context and "not instructions" in context
    # the card: its title states the problem and the fix, the cause comes first, the check that passed last
    card = context.split("\n### ")[1].split("\n\n")[0]
    title = card.splitlines()[0]
    assert ERROR in title and title.endswith(FIX), title
    assert card.splitlines()[2].startswith("Cause and fix: ") and CAUSE in card.splitlines()[2]
    assert "Checked: `pytest -q tests/test_forecast.py` passed after the change" in card and "verified" in card
    # the lesson, not the log: no pytest furniture; the log is one command away
    assert "collected 4 items" not in context and "=====" not in context and "def test_fetch" not in context
    assert "lorebook show ID --evidence" in context
    from lorebook.text import estimate_tokens

    assert estimate_tokens("### " + card) <= 150
    # the default leaves the user's own data dir alone
    assert not (lorebook_home / "lorebook.db").exists()


def test_demo_keep_uses_the_real_data_dir_and_replays_idempotently(lorebook_home):
    runner = CliRunner()
    assert runner.invoke(cli, ["demo", "--keep"]).exit_code == 0
    second = runner.invoke(cli, ["demo", "--keep"])
    assert second.exit_code == 0 and "Kept in your data dir" in second.output
    stats = json.loads(runner.invoke(cli, ["stats", "--json"]).output)
    assert stats["notes"] == 1 and stats["sessions"] == 2
    assert (lorebook_home / "demo" / "weather-app" / "settings.toml").exists()


def test_sample_is_shipped_as_package_data():
    sample = sample_session()
    assert [e["event"] for e in sample["events"]][0] == "SessionStart"
    assert any(e["event"] == "PostToolUseFailure" for e in sample["events"])


def test_readme_set_up_and_test_commands():
    """The README's two set-up commands and its test command, exactly, and the files they run."""
    import os
    import re
    from pathlib import Path

    repo = Path(__file__).resolve().parent.parent
    readme = (repo / "README.md").read_text()

    def first_block(section):
        body = readme.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
        return re.search(r"```bash\n(.*?)```", body, re.S).group(1).strip().splitlines()

    assert first_block("Set up and run") == ["./install.sh", "lorebook demo"]
    assert first_block("Test") == ["tests/run"]
    for script in ("install.sh", "tests/run"):
        assert os.access(repo / script, os.X_OK)
    assert "tests/run" in (repo / ".ci" / "run").read_text()
