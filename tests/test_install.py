"""`lorebook install` / `uninstall`: merge into Claude Code's settings, idempotent, reversible, never clobbering."""
import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from lorebook.cli import cli
from lorebook.install import HOOK_EVENTS, install, is_lorebook_hook

REPO = Path(__file__).resolve().parent.parent
EXE = "/opt/lorebook venv/bin/lorebook"  # a space: the command must quote it

USER_SETTINGS = {
    "model": "opus",
    "permissions": {"allow": ["Bash(git status)"]},
    "hooks": {
        "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/audit.sh", "timeout": 5}]}],
        "Notification": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
}
USER_STATE = {"numStartups": 7, "projects": {"/src/x": {"allowedTools": []}},
              "mcpServers": {"github": {"type": "stdio", "command": "gh-mcp", "args": []}}}


@pytest.fixture
def home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    return home


def write_json(path: Path, value) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(value, indent=4)
    path.write_text(text)
    return text


def read_json(path: Path):
    return json.loads(path.read_text())


def invoke(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def backups(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.lorebook-backup-*"))


def kept_backups(lorebook_home: Path) -> list[Path]:
    """The backups install/uninstall keep in the data dir (the ledger aside)."""
    return sorted(p for p in (lorebook_home / "install-backups").glob("*") if p.name != "ledger.json")


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_install_into_an_empty_home(home):
    result = invoke("install")
    assert result.exit_code == 0, result.output
    assert "created: " + str(home / ".claude" / "settings.json") in result.output
    settings = read_json(home / ".claude" / "settings.json")
    assert sorted(settings["hooks"]) == sorted(event for event, *_ in HOOK_EVENTS)
    for event, arg, timeout, matcher in HOOK_EVENTS:
        (group,) = settings["hooks"][event]
        (handler,) = group["hooks"]
        argv = shlex.split(handler["command"])
        assert os.path.isabs(argv[0]) and os.path.basename(argv[0]) == "lorebook" and os.access(argv[0], os.X_OK)
        assert argv[1:] == ["hook", arg]
        assert handler["timeout"] == timeout and handler["type"] == "command"
        assert group.get("matcher") == matcher
    server = read_json(home / ".claude.json")["mcpServers"]["lorebook"]
    assert server["args"] == ["mcp"] and os.path.basename(server["command"]) == "lorebook"
    assert backups(home / ".claude") == [] and backups(home) == []
    assert "lorebook uninstall" in result.output
    # private, as Claude Code itself creates them: ~/.claude.json holds account state
    assert mode(home / ".claude.json") == 0o600 and mode(home / ".claude" / "settings.json") == 0o600
    assert mode(home / ".claude") == 0o700


def test_existing_files_keep_their_mode(home, lorebook_home):
    write_json(home / ".claude" / "settings.json", USER_SETTINGS)
    (home / ".claude" / "settings.json").chmod(0o644)
    write_json(home / ".claude.json", USER_STATE)
    (home / ".claude.json").chmod(0o640)
    (home / ".claude").chmod(0o755)
    assert invoke("install").exit_code == 0
    assert mode(home / ".claude" / "settings.json") == 0o644 and mode(home / ".claude.json") == 0o640
    assert mode(home / ".claude") == 0o755
    # the backups and the data dir that holds them are private
    assert [mode(p) for p in kept_backups(lorebook_home)] == [0o600, 0o600]
    assert mode(lorebook_home / "install-backups") == 0o700
    assert invoke("uninstall").exit_code == 0
    assert mode(home / ".claude" / "settings.json") == 0o644 and mode(home / ".claude.json") == 0o640


def test_a_new_data_dir_is_private(tmp_path, monkeypatch):
    from lorebook.config import user_dir

    monkeypatch.setenv("LOREBOOK_HOME", str(tmp_path / "fresh" / "lorebook"))
    assert mode(user_dir()) == 0o700


def test_install_merges_without_touching_anything_else_and_backs_up(home, lorebook_home):
    settings_text = write_json(home / ".claude" / "settings.json", USER_SETTINGS)
    state_text = write_json(home / ".claude.json", USER_STATE)
    changes = install("user", executable=EXE)
    assert [c.action for c in changes] == ["updated", "updated"]
    settings = read_json(home / ".claude" / "settings.json")
    assert settings["model"] == "opus" and settings["permissions"] == USER_SETTINGS["permissions"]
    assert settings["hooks"]["Notification"] == USER_SETTINGS["hooks"]["Notification"]
    # the user's own PostToolUse hook is still first and intact; lorebook's comes after it
    assert settings["hooks"]["PostToolUse"][0] == USER_SETTINGS["hooks"]["PostToolUse"][0]
    assert settings["hooks"]["PostToolUse"][1]["hooks"][0]["command"] == "'/opt/lorebook venv/bin/lorebook' hook post-tool-use"
    state = read_json(home / ".claude.json")
    assert {k: v for k, v in state.items() if k != "mcpServers"} == {k: v for k, v in USER_STATE.items() if k != "mcpServers"}
    assert state["mcpServers"]["github"] == USER_STATE["mcpServers"]["github"]
    assert state["mcpServers"]["lorebook"] == {"type": "stdio", "command": EXE, "args": ["mcp"], "env": {}}
    # one backup per file, in one place in the data dir, holding the file exactly as it was
    assert backups(home / ".claude") == [] and backups(home) == []
    assert sorted(p.read_text() for p in kept_backups(lorebook_home)) == sorted([settings_text, state_text])
    assert changes[0].backup.read_text() == settings_text and changes[1].backup.read_text() == state_text
    assert changes[0].backup.parent == lorebook_home / "install-backups"


def test_install_twice_is_install_once(home, lorebook_home):
    write_json(home / ".claude" / "settings.json", USER_SETTINGS)
    first = invoke("install")
    after_first = (home / ".claude" / "settings.json").read_bytes(), (home / ".claude.json").read_bytes()
    second = invoke("install")
    assert second.exit_code == 0
    assert "already registered" in second.output and second.output.count("unchanged: ") == 2
    assert ((home / ".claude" / "settings.json").read_bytes(), (home / ".claude.json").read_bytes()) == after_first
    assert len(kept_backups(lorebook_home)) == 1, first.output  # ~/.claude.json did not exist
    assert "backup: " + str(kept_backups(lorebook_home)[0]) in first.output


def test_reinstall_from_another_path_replaces_the_old_entries(home):
    install("user", executable="/old/venv/bin/lorebook")
    install("user", executable=EXE)
    settings = read_json(home / ".claude" / "settings.json")
    for event, *_ in HOOK_EVENTS:
        commands = [h["command"] for g in settings["hooks"][event] for h in g["hooks"]]
        assert len(commands) == 1 and commands[0].startswith("'/opt/lorebook venv/bin/lorebook' hook ")
    assert read_json(home / ".claude.json")["mcpServers"]["lorebook"]["command"] == EXE


def test_uninstall_removes_exactly_what_install_added(home):
    write_json(home / ".claude" / "settings.json", USER_SETTINGS)
    write_json(home / ".claude.json", USER_STATE)
    assert invoke("install").exit_code == 0
    result = invoke("uninstall")
    assert result.exit_code == 0, result.output
    assert read_json(home / ".claude" / "settings.json") == USER_SETTINGS
    assert read_json(home / ".claude.json") == USER_STATE
    again = invoke("uninstall")
    assert "nothing to do" in again.output


def test_uninstall_after_install_into_empty_home_leaves_no_files(home):
    invoke("install")
    result = invoke("uninstall")
    assert "removed: " in result.output and "lorebook created it and nothing else changed it since" in result.output
    assert not (home / ".claude" / "settings.json").exists() and not (home / ".claude.json").exists()
    assert not (home / ".claude").exists()  # install made it; nothing else lives there


def test_uninstall_keeps_a_handler_sharing_a_group_with_lorebook(home):
    install("user", executable=EXE)
    settings = read_json(home / ".claude" / "settings.json")
    settings["hooks"]["Stop"][0]["hooks"].append({"type": "command", "command": "say stopped"})
    write_json(home / ".claude" / "settings.json", settings)
    invoke("uninstall")
    assert read_json(home / ".claude" / "settings.json") == {
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say stopped"}]}]}}


@pytest.mark.parametrize("broken", ["{not json", '{"hooks": {}} trailing', "[1, 2]"])
@pytest.mark.parametrize("which", ["settings.json", ".claude.json"])
def test_invalid_json_is_a_clear_error_and_is_never_overwritten(home, broken, which):
    path = home / ".claude" / "settings.json" if which == "settings.json" else home / ".claude.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(broken)
    result = CliRunner().invoke(cli, ["install"])
    assert result.exit_code == 1
    assert str(path) in result.output and ("not valid JSON" in result.output or "not an object" in result.output)
    assert "Traceback" not in result.output
    assert path.read_text() == broken
    # nothing was half-installed into the other file
    other = home / ".claude.json" if which == "settings.json" else home / ".claude" / "settings.json"
    assert not other.exists()
    assert CliRunner().invoke(cli, ["uninstall"]).exit_code == 1 and path.read_text() == broken


def test_hooks_of_the_wrong_type_are_refused(home):
    write_json(home / ".claude" / "settings.json", {"hooks": ["not", "an", "object"]})
    result = CliRunner().invoke(cli, ["install"])
    assert result.exit_code == 1 and "`hooks`" in result.output and "not an object" in result.output


def test_dry_run_writes_nothing(home):
    write_json(home / ".claude" / "settings.json", USER_SETTINGS)
    result = invoke("install", "--dry-run")
    assert result.exit_code == 0
    assert "would update: " + str(home / ".claude" / "settings.json") in result.output
    assert "would create: " + str(home / ".claude.json") in result.output
    assert read_json(home / ".claude" / "settings.json") == USER_SETTINGS
    assert not (home / ".claude.json").exists() and backups(home / ".claude") == []


def test_json_output(home):
    data = json.loads(invoke("install", "--json").output)
    assert [c["action"] for c in data["changes"]] == ["created", "created"] and data["dry_run"] is False


def test_project_scope(home, tmp_path, monkeypatch):
    project = tmp_path / "proj"
    project.mkdir()
    write_json(project / ".mcp.json", {"mcpServers": {"db": {"command": "db-mcp"}}})
    monkeypatch.chdir(project)
    assert invoke("install", "--project").exit_code == 0
    assert sorted(read_json(project / ".claude" / "settings.json")["hooks"]) == sorted(e for e, *_ in HOOK_EVENTS)
    servers = read_json(project / ".mcp.json")["mcpServers"]
    assert servers["db"] == {"command": "db-mcp"} and servers["lorebook"]["args"] == ["mcp"]
    assert not (home / ".claude" / "settings.json").exists() and not (home / ".claude.json").exists()
    assert invoke("uninstall", "--project").exit_code == 0
    assert not (project / ".claude" / "settings.json").exists()
    assert read_json(project / ".mcp.json") == {"mcpServers": {"db": {"command": "db-mcp"}}}


def test_project_registration_is_portable_and_at_the_repository_root(home, tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    (repo / "src" / "pkg").mkdir(parents=True)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / ".mcp.json").write_text('{\n  "mcpServers": {\n    "db": {"command": "db-mcp"}\n  }\n}\n')
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)
    monkeypatch.chdir(repo / "src" / "pkg")
    result = invoke("install", "--project")
    assert result.exit_code == 0, result.output
    assert not (repo / "src" / "pkg" / ".claude").exists() and not (repo / "src" / "pkg" / ".mcp.json").exists()
    settings_text = (repo / ".claude" / "settings.json").read_text()
    mcp_text = (repo / ".mcp.json").read_text()
    # nothing of this machine in files a team commits
    for text in (settings_text, mcp_text):
        assert str(home) not in text and str(tmp_path) not in text and "/bin/" not in text
    settings = json.loads(settings_text)
    assert settings["hooks"]["Stop"][0]["hooks"][0]["command"] == "lorebook hook stop"
    assert json.loads(mcp_text)["mcpServers"]["lorebook"] == {"type": "stdio", "command": "lorebook", "args": ["mcp"],
                                                             "env": {}}
    status = subprocess.run([*git, "status", "--porcelain", "--untracked-files=all"], capture_output=True, text=True)
    assert sorted(status.stdout.splitlines()) == [" M .mcp.json", "?? .claude/settings.json"]
    assert invoke("uninstall", "--project").exit_code == 0
    status = subprocess.run([*git, "status", "--porcelain", "--untracked-files=all"], capture_output=True, text=True)
    assert status.stdout == ""  # no backups, no temporary files, the .mcp.json as committed
    assert not (repo / ".claude").exists()


def test_claude_config_dir_is_honoured(home, tmp_path, monkeypatch):
    config = tmp_path / "cc-config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    invoke("install")
    assert (config / "settings.json").exists() and (config / ".claude.json").exists()
    assert not (home / ".claude").exists()


def test_a_foreign_mcp_server_named_lorebook_is_left_alone(home):
    write_json(home / ".claude.json", {"mcpServers": {"lorebook": {"command": "npx", "args": ["some-other-lorebook"]}}})
    result = invoke("install")
    assert "left the existing MCP server 'lorebook' alone" in result.output
    assert read_json(home / ".claude.json")["mcpServers"]["lorebook"]["command"] == "npx"
    invoke("uninstall")
    assert read_json(home / ".claude.json")["mcpServers"]["lorebook"]["command"] == "npx"


def test_install_warns_when_the_plugin_is_also_enabled(home):
    write_json(home / ".claude" / "settings.json", {"enabledPlugins": {"lorebook@lorebook": True, "other@x": True}})
    result = CliRunner().invoke(cli, ["install"])
    assert result.exit_code == 0
    assert "also enabled as the Claude Code plugin lorebook@lorebook" in result.output
    assert "claude plugin uninstall lorebook@lorebook" in result.output


def test_install_warns_when_the_other_scope_is_registered_too(home, tmp_path, monkeypatch):
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    monkeypatch.chdir(project)
    assert "Warning" not in CliRunner().invoke(cli, ["install"]).output
    result = CliRunner().invoke(cli, ["install", "--project"])
    assert result.exit_code == 0
    assert "also registered in the user settings" in result.output and "`lorebook uninstall`" in result.output


def test_no_double_registration_warning_by_default(home):
    assert "Warning" not in CliRunner().invoke(cli, ["install"]).output


@pytest.mark.parametrize("command,expected", [
    ("/x/bin/lorebook hook stop", True),
    ("'/a b/lorebook' hook session-start", True),
    ("lorebook hook post-tool-use", True),
    ("/x/bin/lorebook mcp", False),
    ("/x/bin/not-lorebook hook stop", False),
    ("echo lorebook hook", False),
    ("python3 dump_hook.py 'unbalanced", False),
])
def test_recognising_lorebook_hooks(command, expected):
    assert is_lorebook_hook({"type": "command", "command": command}) is expected


def test_install_help_has_an_example():
    for name in ("install", "uninstall", "demo"):
        result = invoke(name, "--help")
        assert result.exit_code == 0 and f"lorebook {name}" in result.output


# --- the plugin files: what Claude Code reads from the checkout --------------------------------

def test_hooks_json_matches_what_install_registers():
    hooks = json.loads((REPO / "hooks" / "hooks.json").read_text())["hooks"]
    assert sorted(hooks) == sorted(event for event, *_ in HOOK_EVENTS)
    for event, arg, timeout, matcher in HOOK_EVENTS:
        (group,) = hooks[event]
        (handler,) = group["hooks"]
        assert handler["command"] == f'"${{CLAUDE_PLUGIN_ROOT}}/hooks/lorebook-hook" {arg}'
        assert handler["timeout"] == timeout and group.get("matcher") == matcher


def test_plugin_manifests():
    plugin = json.loads((REPO / ".claude-plugin" / "plugin.json").read_text())
    assert plugin["name"] == "lorebook"
    market = json.loads((REPO / ".claude-plugin" / "marketplace.json").read_text())
    (entry,) = market["plugins"]
    assert entry["name"] == "lorebook"
    assert (REPO / entry["source"] / ".claude-plugin" / "plugin.json").exists()
    server = json.loads((REPO / ".mcp.json").read_text())["mcpServers"]["lorebook"]
    assert server["command"] == "${CLAUDE_PLUGIN_ROOT}/hooks/lorebook-mcp"
    for script in ("lorebook-hook", "lorebook-mcp"):
        assert os.access(REPO / "hooks" / script, os.X_OK)


# --- hooks/lorebook-hook: the wrapper Claude Code runs --------------------------------------

def run_wrapper(tmp_path, env_extra, stdin=b"garbage"):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "empty-home"), "LOREBOOK_HOME": str(tmp_path / "lb")}
    env.update(env_extra)
    return subprocess.run([str(REPO / "hooks" / "lorebook-hook"), "post-tool-use"], input=stdin, env=env,
                          capture_output=True, timeout=60)


def lorebook_exe() -> str:
    import sys

    return str(Path(sys.executable).with_name("lorebook"))


def test_wrapper_runs_lorebook_bin(tmp_path):
    proc = run_wrapper(tmp_path, {"LOREBOOK_BIN": lorebook_exe()},
                       stdin=json.dumps({"session_id": "w1", "cwd": str(tmp_path), "hook_event_name": "PostToolUse",
                                         "tool_name": "Bash", "tool_use_id": "t1", "tool_input": {"command": "ls"},
                                         "tool_response": {"stdout": "a", "stderr": ""}}).encode())
    assert proc.returncode == 0 and json.loads(proc.stdout) == {}
    assert (tmp_path / "lb" / "lorebook.db").exists()


def test_wrapper_finds_the_install_sh_venv(tmp_path):
    venv_bin = tmp_path / "empty-home" / ".local" / "share" / "lorebook" / "venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "lorebook").symlink_to(lorebook_exe())
    proc = run_wrapper(tmp_path, {})
    assert proc.returncode == 0 and proc.stdout.strip() == b"{}"


def test_wrapper_finds_lorebook_on_path(tmp_path):
    proc = run_wrapper(tmp_path, {"PATH": str(Path(lorebook_exe()).parent) + ":/usr/bin:/bin"})
    assert proc.returncode == 0 and proc.stdout.strip() == b"{}"


def test_wrapper_without_lorebook_is_silent_and_exits_0(tmp_path):
    proc = run_wrapper(tmp_path, {})
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")


def test_wrapper_without_lorebook_tells_the_user_what_to_run_at_session_start(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "empty-home"), "LOREBOOK_HOME": str(tmp_path / "lb")}
    proc = subprocess.run([str(REPO / "hooks" / "lorebook-hook"), "session-start"], input=b'{"session_id": "x"}',
                          env=env, capture_output=True, timeout=60)
    assert proc.returncode == 0
    message = json.loads(proc.stdout)["systemMessage"]
    assert "lorebook itself is not installed" in message and f"Run {REPO}/install.sh" in message


def test_wrapper_names_its_route(tmp_path):
    spy = tmp_path / "spy-lorebook"
    spy.write_text('#!/bin/sh\nprintf "%s" "$LOREBOOK_ROUTE" > "$(dirname "$0")/route"\n')
    spy.chmod(0o755)
    run_wrapper(tmp_path, {"LOREBOOK_BIN": str(spy)})
    assert (tmp_path / "route").read_text() == f"plugin:{REPO}"


def test_wrapper_never_passes_on_a_failure(tmp_path):
    broken = tmp_path / "broken-lorebook"
    broken.write_text("#!/bin/sh\necho boom >&2\nexit 2\n")
    broken.chmod(0o755)
    proc = run_wrapper(tmp_path, {"LOREBOOK_BIN": str(broken)})
    assert proc.returncode == 0


def test_garbage_on_stdin_exits_0(tmp_path):
    """The issue's check: printf 'garbage' | lorebook hook post-tool-use; echo $?  ->  0"""
    proc = subprocess.run(f"printf 'garbage' | '{lorebook_exe()}' hook post-tool-use; echo $?", shell=True,
                          capture_output=True, env=dict(os.environ, LOREBOOK_HOME=str(tmp_path / "lb")), timeout=60)
    assert proc.stdout.decode().splitlines() == ["{}", "0"]


# --- exact uninstall -----------------------------------------------------------------------

UNUSUAL_SETTINGS = (
    '{\n'
    '\t"model":    "opus",\n'
    '\t"statusLine": {"type": "command", "command": "echo \\u00e9t\\u00e9 \\"quoted\\" \\/path"},\n'
    '\t"hooks": {\n'
    '\t\t"PreToolUse": [],\n'
    '\t\t"Stop": [ ],\n'
    '\t\t"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit"}]}]\n'
    '\t},\n'
    '\t"env": {}\n'
    '}'
)
UNUSUAL_STATE = '{"numStartups":3,"mcpServers":{},"tips":"caf\\u00e9"}\n'


@pytest.mark.parametrize("settings_text", [UNUSUAL_SETTINGS, "{}", "{}\n", "  {\n}  \n"])
def test_install_then_uninstall_gives_back_the_same_bytes(home, lorebook_home, settings_text):
    settings, state = home / ".claude" / "settings.json", home / ".claude.json"
    settings.parent.mkdir()
    settings.write_text(settings_text)
    state.write_text(UNUSUAL_STATE)
    assert invoke("install").exit_code == 0
    assert settings.read_text() != settings_text and "lorebook" in state.read_text()
    result = invoke("uninstall")
    assert result.exit_code == 0, result.output
    assert settings.read_text() == settings_text and state.read_text() == UNUSUAL_STATE
    assert "byte for byte" in result.output
    assert kept_backups(lorebook_home) == []  # nothing to keep once the file is as it was
    assert not (lorebook_home / "install-backups" / "ledger.json").exists()
    assert backups(home / ".claude") == [] and backups(home) == []


def test_uninstall_after_another_change_removes_only_lorebooks_entries(home, lorebook_home):
    """Claude Code rewrote ~/.claude.json since install: lorebook takes out its entries and nothing else."""
    settings, state = home / ".claude" / "settings.json", home / ".claude.json"
    settings.parent.mkdir()
    settings.write_text(UNUSUAL_SETTINGS)
    state.write_text(UNUSUAL_STATE)
    assert invoke("install").exit_code == 0
    # someone else edits both files afterwards, in their own formatting
    installed = json.loads(settings.read_text())
    installed["theme"] = "dark"
    installed["mcpServers"] = {}  # an empty object lorebook did not add: it stays
    edited_settings = json.dumps(installed, indent=3, ensure_ascii=True)
    settings.write_text(edited_settings)
    edited_state = json.loads(state.read_text())
    edited_state["numStartups"] = 4
    state.write_text(json.dumps(edited_state, separators=(",", ":")))
    result = invoke("uninstall")
    assert result.exit_code == 0, result.output
    expected = json.loads(UNUSUAL_SETTINGS)
    expected["theme"] = "dark"
    expected["mcpServers"] = {}
    assert json.loads(settings.read_text()) == expected  # "PreToolUse": [], "Stop": [ ] and "env": {} kept
    assert json.loads(state.read_text()) == {"numStartups": 4, "mcpServers": {}, "tips": "café"}
    # the other editor's formatting stays: three spaces, ASCII escapes, compact separators
    assert '\n   "theme": "dark"' in settings.read_text() and "\\u00e9" in settings.read_text()
    assert state.read_text() == '{"numStartups":4,"mcpServers":{},"tips":"caf\\u00e9"}'
    # the files as they were before this uninstall: one backup each, named in the output
    saved = kept_backups(lorebook_home)
    assert sorted(p.read_text() for p in saved) == sorted([edited_settings, json.dumps(edited_state, separators=(",", ":"))])
    for path in saved:
        assert f"backup: {path}" in result.output


def test_uninstall_of_an_install_by_an_older_lorebook(home, lorebook_home):
    """No ledger (installed before lorebook kept one): remove the entries and only what that emptied."""
    settings = home / ".claude" / "settings.json"
    install("user", executable=EXE)
    (lorebook_home / "install-backups" / "ledger.json").unlink()
    data = json.loads(settings.read_text())
    data["hooks"]["PreToolUse"] = []
    settings.write_text(json.dumps(data, indent=2))
    assert invoke("uninstall").exit_code == 0
    assert json.loads(settings.read_text()) == {"hooks": {"PreToolUse": []}}


@pytest.mark.parametrize("path,before,after", [
    (["a"], '{"a": 1, "b": 2}', '{"b": 2}'),
    (["b"], '{"a": 1, "b": 2}', '{"a": 1}'),
    (["a"], '{ "a" : [1] }', '{}'),
    ([1], '[\n  1,\n  2,\n  3\n]', '[\n  1,\n  3\n]'),
    (["x", 0, "y"], '{"x": [{"y": "\\u00e9", "z": []}]}', '{"x": [{"z": []}]}'),
])
def test_minimal_json_removal(path, before, after):
    from lorebook.jsonedit import remove

    assert remove(before, path) == after


# --- a clean exit: no lorebook process outlives uninstall -------------------------------------

def _wait_for(probe, what: str, limit_s: float = 120.0):
    import time

    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"{what} did not come up")


def test_uninstall_stops_lorebooks_background_processes(home, lorebook_home, tmp_path, monkeypatch):
    import sys

    from lorebook import embed_server, mcp_warm

    import shutil
    import tempfile

    runtime = Path(tempfile.mkdtemp(prefix="lb-"))  # short: the warm parent's unix socket lives in it
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.setenv("LOREBOOK_MCP_IDLE", "120")
    monkeypatch.setenv("LOREBOOK_EMBED_SERVER_IDLE", "120")
    lorebook_home.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    embedder = subprocess.Popen([sys.executable, "-m", "lorebook", "embed-server"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    warm = subprocess.Popen([sys.executable, "-m", "lorebook.mcp_warm"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for(lambda: embed_server.ping(timeout=2.0), "the embedding server")
        _wait_for(mcp_warm.status, "the warm MCP parent")
        install("user", executable=EXE)
        result = invoke("uninstall")
        assert result.exit_code == 0, result.output
        assert f"stopped: the embedding server (pid {embedder.pid})" in result.output
        assert f"stopped: the warm MCP parent (pid {warm.pid})" in result.output
        # both exit: no lorebook process is left running
        assert embedder.wait(timeout=60) is not None and warm.wait(timeout=60) is not None
        assert embed_server.ping() is None and mcp_warm.status() is None
        assert "stopped" not in invoke("uninstall").output  # nothing left to stop
    finally:
        for proc in (embedder, warm):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        shutil.rmtree(runtime, ignore_errors=True)
