"""Config errors are loud (CLI on stderr, the user once per session) and lorebook keeps working; the log rotates."""
import json

import pytest
from click.testing import CliRunner

from hookutil import context_of, run_hook
from lorebook.cli import cli

KEY = "github.com/acme/widget"
BROKEN = [
    ("{broken", "cannot be read"),
    ('{"exclude_tools": 5}', '"exclude_tools" must be a list of strings'),
    ('{"context_budget": "lots"}', '"context_budget" must be a whole number'),
    ("[1, 2]", "must hold a JSON object"),
]


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "widget"
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "config").write_text('[remote "origin"]\n\turl = git@github.com:acme/widget.git\n')
    return root


def write_config(home, text):
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.json").write_text(text)


@pytest.mark.parametrize("text,problem", BROKEN)
def test_the_cli_names_the_file_and_the_problem_on_stderr(lorebook_home, text, problem):
    write_config(lorebook_home, text)
    result = CliRunner().invoke(cli, ["stats", "--json"])
    assert result.exit_code == 0
    assert problem in result.stderr and str(lorebook_home / "config.json") in result.stderr
    assert json.loads(result.stdout)["notes"] == 0  # the command itself still works


def test_a_good_config_prints_no_warning(lorebook_home):
    write_config(lorebook_home, json.dumps({"context_budget": 900, "exclude_tools": ["WebFetch"]}))
    result = CliRunner().invoke(cli, ["stats", "--json"])
    assert result.exit_code == 0 and result.stderr == ""


@pytest.mark.parametrize("text,problem", BROKEN)
def test_hooks_keep_working_and_tell_the_user_once_per_session(store, lorebook_home, project, text, problem):
    store.add_note({"title": "Invoice totals drift by a cent with float math", "scope": "project",
                    "project_key": KEY, "source_agent": "test", "change": "Use Decimal", "trigger": "invoices"})
    write_config(lorebook_home, text)
    base = {"session_id": "s1", "cwd": str(project), "transcript_path": "/tmp/s1.jsonl"}
    code, out = run_hook("session-start", dict(base, hook_event_name="SessionStart", source="startup"))
    assert code == 0 and "Invoice totals drift" in context_of(out)  # defaults, not silence
    assert problem in out["systemMessage"] and "config.json" in out["systemMessage"]
    _, out = run_hook("post-tool-use", dict(base, hook_event_name="PostToolUse", tool_name="Bash",
                                            tool_use_id="t1", tool_input={"command": "pytest -q"},
                                            tool_response={"stdout": "1 failed", "stderr": ""}))
    assert "systemMessage" not in out
    assert [o["tool_use_id"] for o in store.session_observations("s1")] == ["t1"]  # capture still works
    _, out = run_hook("session-start", dict(base, session_id="s2", hook_event_name="SessionStart", source="startup"))
    assert problem in out["systemMessage"]


def test_a_bad_budget_variable_is_reported_not_fatal(store, lorebook_home, project, monkeypatch):
    monkeypatch.setenv("LOREBOOK_CONTEXT_BUDGET", "lots")
    store.add_note({"title": "Invoice totals drift by a cent with float math", "scope": "project",
                    "project_key": KEY, "source_agent": "test", "change": "Use Decimal", "trigger": "invoices"})
    _, out = run_hook("session-start", {"session_id": "s1", "cwd": str(project), "source": "startup",
                                        "hook_event_name": "SessionStart"})
    assert "Invoice totals drift" in context_of(out) and "LOREBOOK_CONTEXT_BUDGET" in out["systemMessage"]


def test_the_hook_log_rotates_and_keeps_one_old_file(lorebook_home, monkeypatch):
    from lorebook import config
    from lorebook.config import log

    monkeypatch.setattr(config, "LOG_MAX_BYTES", 10_000)
    monkeypatch.setattr(config.rotate_log, "__defaults__", (10_000,))
    for i in range(400):
        log("test", f"line {i} " + "x" * 100)
    logs = sorted(p.name for p in (lorebook_home / "logs").iterdir() if p.name.startswith("hooks.log"))
    assert logs == ["hooks.log", "hooks.log.1"]
    assert (lorebook_home / "logs" / "hooks.log").stat().st_size <= 10_000 + 200
    assert "line 399" in (lorebook_home / "logs" / "hooks.log").read_text()
