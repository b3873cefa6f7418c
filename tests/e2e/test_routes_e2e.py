"""Registration routes in the real Claude Code CLI: two routes at once run lorebook once and say so; the
plugin without lorebook says what to run; a project registered on one machine works for a teammate."""
import json

from cc_harness import Sandbox, say, scenario

LESSON = {
    "title": "pip install fails behind the corporate proxy with SSL: CERTIFICATE_VERIFY_FAILED",
    "summary": "Point pip at the proxy's CA bundle instead of disabling verification.",
    "kind": "gotcha",
    "trigger": "pip install of any package on a machine whose HTTPS goes through the proxy",
    "evidence": [{"quote": "SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED]'))",
                  "source": "pip install requests"}],
    "change": "export PIP_CERT=/etc/ssl/certs/corp-proxy.pem so that pip trusts the proxy's certificate",
    "validation": {"passed": ["pip install requests succeeded after setting PIP_CERT"]},
    "conditions": "any project, on machines behind the corporate HTTPS proxy",
    "tags": ["pip", "proxy"],
}
MARK = "PIP_CERT=/etc/ssl/certs/corp-proxy.pem"


def seed(sb: Sandbox) -> None:
    written = sb.lorebook("write", "--scope", "global", "--json", input=json.dumps(LESSON))
    assert json.loads(written.stdout)["decision"] == "created", written.stdout + written.stderr


def system_messages(res) -> list[str]:
    """What Claude Code showed the user from hooks' systemMessage (the transcript's hook_system_message)."""
    return [line["attachment"]["content"] for line in res.transcript()
            if isinstance(line.get("attachment"), dict) and line["attachment"].get("type") == "hook_system_message"]


def test_settings_plus_plugin_dir_runs_once_and_warns_once(lorebook_sandbox):
    sb = lorebook_sandbox("install")
    sb.register("plugin-dir")  # and `claude --plugin-dir <checkout>` on top: two routes
    seed(sb)
    res = sb.run_turns(["Please run echo hello", "And once more, please"],
                       scenario(say("Hello."), say("Again.")))
    assert res.returncode == 0, res.describe()
    first = res.first_request_text()
    assert first.count(MARK) == 1, res.describe()  # injected once, not once per route
    (message,) = system_messages(res)  # one warning, though every event of both turns fired twice
    assert "registered twice" in message and "lorebook uninstall" in message and "--plugin-dir" in message
    assert "skipped: already handled by" in sb.hook_log
    assert "internal error" not in sb.hook_log, sb.hook_log
    sessions = json.loads(sb.lorebook("stats", "--json").stdout)["sessions"]
    assert sessions == 1


def test_plugin_dir_without_lorebook_says_what_to_run(lorebook_sandbox):
    sb = lorebook_sandbox("plugin-dir")
    # a machine where lorebook was never installed: not on PATH, no install.sh venv, no LOREBOOK_BIN
    sb.extra_env["PATH"] = "/usr/bin:/bin"
    res = sb.run("Please run echo hello", scenario(say("Hello.")))
    assert res.returncode == 0, res.describe()
    (message,) = system_messages(res)
    assert "lorebook itself is not installed" in message and "/install.sh" in message, message
    assert not (sb.lorebook_home / "lorebook.db").exists()


def test_a_project_registered_on_one_machine_works_for_a_teammate(lorebook_sandbox):
    alice = lorebook_sandbox("install-project")
    settings = (alice.project / ".claude" / "settings.json").read_text()
    mcp = (alice.project / ".mcp.json").read_text()
    for text in (settings, mcp):  # nothing of Alice's machine in the files the team commits
        assert str(alice.root) not in text and str(alice.home) not in text and "/bin/" not in text
    alice.git("add", ".claude/settings.json", ".mcp.json")
    alice.git("commit", "-qm", "register lorebook for the team")
    assert alice.git("status", "--porcelain", "--untracked-files=all").stdout == ""

    bob = lorebook_sandbox(None)  # another HOME, another memory; lorebook on his PATH
    bob.project = alice.project
    seed(bob)
    res = bob.run("Please run echo hello", scenario(say("Hello.")),
                  args=["--settings", json.dumps({"enableAllProjectMcpServers": True})])
    assert res.returncode == 0, res.describe()
    assert MARK in res.first_request_text(), res.describe()  # Bob's memory, through Alice's registration
    assert "internal error" not in bob.hook_log and "not found" not in res.stderr, res.describe()
    assert json.loads(bob.lorebook("stats", "--json").stdout)["sessions"] == 1
    assert not (alice.lorebook_home / "lorebook.db").exists() or \
        json.loads(alice.lorebook("stats", "--json").stdout)["sessions"] == 0
