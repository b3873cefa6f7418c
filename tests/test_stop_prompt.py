"""When Stop asks the agent for its lesson (LOREBOOK_STOP_PROMPT), decided on the session's record."""
import pytest

from lorebook.hooks.stop import STOP_PROMPT, stop_prompt_mode, would_ask


def bash(n, command, outcome):
    return {"id": n, "tool": "Bash", "target": command, "outcome": outcome}


INVOCATION_FIX = [bash(1, "pytest -q", "error"), bash(2, "ls src", "ok"), bash(3, "PYTHONPATH=src pytest -q", "ok")]
NOTHING_WRITTEN = [{"decision": "skipped", "reason_codes": ["unresolved_failure"]}]


@pytest.mark.parametrize("value, mode", [(None, "off"), ("", "off"), ("0", "off"), ("off", "off"),
                                         ("resolved", "resolved"), ("auto", "resolved"), ("1", "always"),
                                         ("always", "always"), ("yes", "always")])
def test_modes(monkeypatch, value, mode):
    if value is None:
        monkeypatch.delenv("LOREBOOK_STOP_PROMPT", raising=False)
    else:
        monkeypatch.setenv("LOREBOOK_STOP_PROMPT", value)
    assert stop_prompt_mode() == mode


def test_resolved_asks_when_a_failure_was_resolved_and_lorebook_wrote_nothing():
    assert would_ask("resolved", INVOCATION_FIX, NOTHING_WRITTEN)
    assert not would_ask("off", INVOCATION_FIX, NOTHING_WRITTEN)
    assert not would_ask("resolved", INVOCATION_FIX, [{"decision": "created", "reason_codes": []}])


@pytest.mark.parametrize("observations, codes", [
    ([bash(1, "pytest -q", "error"), bash(2, "cargo build", "ok")], ["unresolved_failure"]),  # another program
    ([bash(1, "npm install", "error"), bash(2, "npm install", "ok")], ["retry_without_change"]),  # a plain retry
    ([{"id": 1, "tool": "Edit", "target": "a.py", "outcome": "ok"}], ["no_lesson_stated"]),  # no failure at all
    (INVOCATION_FIX, ["instruction_injection"]),  # the session tried to steer future agents
])
def test_resolved_does_not_ask_when_nothing_was_found_out(observations, codes):
    results = [{"decision": "skipped", "reason_codes": codes}]
    assert not would_ask("resolved", observations, results)


def test_always_asks_after_any_failure_or_edit():
    edit_only = [{"id": 1, "tool": "Edit", "target": "a.py", "outcome": "ok"}]
    assert would_ask("always", edit_only, [{"decision": "skipped", "reason_codes": ["no_lesson_stated"]}])
    assert not would_ask("always", [bash(1, "ls", "ok")], [{"decision": "skipped", "reason_codes": []}])


def test_the_stop_prompt_asks_for_the_record_lorebook_injects():
    for part in ("title (the problem and its fix in one line", "summary (the cause and the fix",
                 "tried X: still failed with", "the net change only", "validation (the check that passed",
                 "record it once with the MCP tool write_task_memory"):
        assert part in STOP_PROMPT


def test_the_model_and_the_agent_are_asked_for_the_same_record():
    from lorebook.render import template

    prompt = template("writeback_prompt.md")
    for shape in ("the problem and its fix in one line", "the cause and the fix, one or two sentences",
                  "tried <an attempt that did not help>: still failed with", "the NET change only",
                  "paths relative to the project root", "that passed after the change"):
        assert shape in prompt
    agent = STOP_PROMPT.lower()
    for shape in ("the problem and its fix in one line", "the cause and the fix, one or two sentences",
                  "tried x: still failed with", "the net change only", "paths relative to the project root",
                  "the check that passed after the change"):
        assert shape in agent, shape
