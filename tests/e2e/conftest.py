"""End-to-end tests: the REAL Claude Code CLI, offline, against lorebook's own fake Anthropic server.

How it works: `claude -p` runs in a throwaway sandbox (its own HOME, project
dir, TMPDIR and LOREBOOK_HOME) and talks only to tests/e2e/fake_anthropic.py
on 127.0.0.1, which answers with a script: tool calls (real tools run: Bash,
Write, Edit, ...) then a final text. Real hooks fire and run the venv's real
`lorebook hook ...`. Every request body the CLI sends is logged, so a test can
assert on exactly what the model was shown.

Where claude comes from: $LOREBOOK_CLAUDE, else the cache that tests/run fills
(`~/.cache/lorebook-tests/claude-code-2.1.332/`, LOREBOOK_TEST_CACHE overrides)
with `npm install @anthropic-ai/claude-code@2.1.332`. Without it the tests
skip, and the skip reason says what is missing (npm, or the install). Under
CI=true with npm present, a missing claude is a failure, not a skip.

Fixtures:

    claude_bin        (session) path of the claude binary, or skip
    lorebook_bin      (session) the venv's `lorebook` executable
    fake_api          (session) the running FakeAnthropic server (one for all tests)
    lorebook_sandbox  factory: lorebook_sandbox(route="plugin-dir", git=True, remote=None) -> Sandbox
    sandbox           a Sandbox, parametrized over both registration routes
                      ("plugin-dir" and "install"): a test using it runs twice

Routes: "plugin-dir" (`claude --plugin-dir <checkout>`), "install" (`lorebook
install` into the sandbox's ~/.claude/settings.json), "install-project"
(`lorebook install --project`), "marketplace" (`claude plugin marketplace add
<checkout>` then `claude plugin install lorebook@lorebook`), None (unregistered).

A Sandbox:

    sb.project, sb.home, sb.lorebook_home       pathlib.Path
    sb.write("app/config.ini", "...")           a file in the project
    res = sb.run("prompt", scenario(...))       one `claude -p` session -> Result
    res = sb.run_turns(["one", "two"], sc)      several turns in one session (res.results per turn)
    sb.run("/compact", args=["--resume", sid])  extra claude args (resume, compact, ...)
    sb.lorebook("stats", "--json")              the venv's lorebook, sandbox env (CompletedProcess)
    sb.hook_log                                 text of $LOREBOOK_HOME/logs/hooks.log
    sb.extra_env["LOREBOOK_DISABLE"] = "1"      env for every later run

A Result: res.returncode, res.text (final text), res.session_id, res.stdout,
res.stderr, res.requests (every API request), res.model_requests (agent-loop
requests), res.first_request_text() (the whole first request body as JSON
text: search it, the context may sit in the system prompt or a
<system-reminder>), res.all_model_text(), res.transcript(), res.describe()
(use as the assertion message).

Example:

    from cc_harness import say, scenario, tool_use

    def test_context_reaches_model(sandbox):
        res = sandbox.run("run it", scenario(
            [say("Running."), tool_use("Bash", command="echo hi", description="say hi")],
            say("It printed hi.")))
        assert res.returncode == 0, res.describe()

Test files here need unique basenames across tests/ (there is no
__init__.py). Every test in this folder is marked `e2e` (`pytest -m "not
e2e"` skips them). LOREBOOK_E2E_KEEP=1 keeps the sandboxes for debugging.
"""
from __future__ import annotations

import os
import shutil

import pytest

from cc_harness import ROUTES, FakeAnthropic, Sandbox, find_claude, find_lorebook


def pytest_collection_modifyitems(config, items):
    here = os.path.dirname(os.path.abspath(__file__))
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def claude_bin() -> str:
    path, reason = find_claude()
    if path is None:
        if os.environ.get("CI") and shutil.which("npm"):
            pytest.fail(f"CI has npm but no Claude Code CLI: {reason}")
        pytest.skip(f"Claude Code CLI unavailable: {reason}")
    return path


@pytest.fixture(scope="session")
def lorebook_bin() -> str:
    path = find_lorebook()
    if path is None:
        pytest.fail("no `lorebook` executable beside the test interpreter or on PATH: pip install -e . first")
    return path


@pytest.fixture(scope="session")
def fake_api(claude_bin):
    with FakeAnthropic() as api:
        yield api


@pytest.fixture
def lorebook_sandbox(fake_api, claude_bin, lorebook_bin):
    made: list[Sandbox] = []

    def make(route: str | None = "plugin-dir", git: bool = True, remote: str | None = None) -> Sandbox:
        sb = Sandbox(fake_api, claude_bin, lorebook_bin, route=route, git=git, remote=remote)
        made.append(sb)
        return sb

    yield make
    for sb in made:
        sb.cleanup()


@pytest.fixture(params=ROUTES)
def sandbox(request, lorebook_sandbox) -> Sandbox:
    return lorebook_sandbox(request.param)
