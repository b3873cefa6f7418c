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
    assert "This demo stored: 4 observations, 1 note." in out
    context = out.split("Claude Code receives this context:")[1]
    assert "<lorebook-memory>" in context and "not instructions" in context
    # the card: its title states the problem and the fix, the cause comes first, the check that passed last
    card = context.split("\n### ")[1].split("\n\n")[0]
    title = card.splitlines()[0]
    assert ERROR in title and title.endswith(FIX), title
    assert card.splitlines()[2].startswith("Cause and fix: ") and CAUSE in card.splitlines()[2]
    assert "Checked: the failing command passed after the change" in card and "verified" in card
    # the lesson, not the log: no pytest furniture; the log is one command away
    assert "collected 4 items" not in context and "=====" not in context and "def test_fetch" not in context
    assert "lorebook show ID --evidence" in context
    from lorebook.text import estimate_tokens

    assert estimate_tokens("### " + card) <= 150
    # the default leaves the user's own data dir alone
    assert not (lorebook_home / "lorebook.db").exists()
    # the context tells the model to fetch notes with `lorebook show ID`: the demo says why that cannot work here
    assert "`lorebook show ID` will not find these notes" in out and "lorebook demo --keep" in out


def test_demo_keep_says_what_it_adds_to_the_real_memory(lorebook_home):
    runner = CliRunner()
    # the user's memory already holds a note of their own
    from lorebook.store import Store

    store = Store()
    store.add_note(USER_NOTE)
    store.close()
    first = runner.invoke(cli, ["demo", "--keep"])
    assert first.exit_code == 0, first.output
    assert f"into your real memory in {lorebook_home}: the sample note stays there" in first.output
    # its own counts, not the database's totals
    assert "This demo stored: 4 observations, 1 note." in first.output
    stats = json.loads(runner.invoke(cli, ["stats", "--json"]).output)
    assert stats["notes"] == 2
    # the hint names the sample's note, and it works: the note is there
    line = next(l for l in first.output.splitlines() if l.startswith("Kept in your memory"))
    shown = line.split("Read one with `lorebook show ")[1].split("`")[0]
    show = runner.invoke(cli, ["show", shown])
    assert show.exit_code == 0 and "timeout_seconds" in show.output
    assert "lorebook forget ID" in line
    second = runner.invoke(cli, ["demo", "--keep"])
    assert second.exit_code == 0 and "This demo stored: 0 observations, 0 notes (the rest was there" in second.output
    stats = json.loads(runner.invoke(cli, ["stats", "--json"]).output)
    assert stats["notes"] == 2 and stats["sessions"] == 2
    assert (lorebook_home / "demo" / "weather-app" / "settings.toml").exists()


USER_NOTE = {"kind": "fix", "scope": "global", "project_key": None, "title": "Debian 12 pip wants a venv", "source_agent": "cli", "session_id": "mine",
             "run_key": "mine:1", "verified": 1, "trigger": "pip install outside a venv on Debian 12",
             "change": "Use a venv; pip refuses to touch the system Python (PEP 668).",
             "evidence": [{"quote": "error: externally-managed-environment", "source": "pip output"}],
             "validation": {"passed": ["python -m venv .venv"], "not_performed": []}}


def test_top_level_help_starts_with_first_steps_and_cuts_nothing():
    out = CliRunner().invoke(cli, ["--help"]).output
    first = out.split("Options:")[0]
    assert first.index("lorebook install") < first.index("lorebook demo") < first.index("lorebook doctor")
    assert "lorebook path         the data dir" in out and "where the database lives" not in out
    commands = out.split("Commands:")[1]
    assert "..." not in commands and "…" not in commands
    assert "doctor" in commands


def test_option_help_has_no_dangling_references():
    mcp = CliRunner().invoke(cli, ["mcp", "--help"]).output
    assert "(see below)" not in mcp and "--stop-warm" in mcp
    plugins = CliRunner().invoke(cli, ["plugins", "--help"]).output
    assert "(the default here)" not in plugins and "always prints JSON" in plugins


def test_path_log_says_when_there_is_no_log_yet(lorebook_home):
    result = CliRunner().invoke(cli, ["path", "--log"])
    assert result.exit_code == 0
    assert result.stdout.strip() == str(lorebook_home / "logs" / "hooks.log")
    assert "no hook log there yet" in result.stderr
    (lorebook_home / "logs").mkdir(parents=True)
    (lorebook_home / "logs" / "hooks.log").write_text("x\n")
    again = CliRunner().invoke(cli, ["path", "--log"])
    assert again.stderr == ""


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
