"""Register lorebook with Claude Code by editing its settings files, and undo it exactly.

Hooks go into ``settings.json`` (``~/.claude/settings.json``, or the project's
``.claude/settings.json``). Claude Code does not read MCP servers from
settings.json: a user-scope server lives in ``~/.claude.json`` (top-level
``mcpServers``, as ``claude mcp add -s user`` writes it) and a project-scope
one in the project's ``.mcp.json``. ``CLAUDE_CONFIG_DIR`` moves both user files.

Every edit is a merge: lorebook's entries are recognised by their command
(an executable named ``lorebook`` run as ``lorebook hook EVENT``, or the MCP
server ``lorebook`` running ``lorebook mcp``), replaced or removed, and
nothing else in the file changes. A file that is not valid JSON is never
overwritten; a changed file is backed up first.
"""
from __future__ import annotations

import copy
import json
import os
import shlex
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .errors import SettingsFileError
from .files import write_json_atomic

# (Claude Code event, `lorebook hook` argument, timeout in seconds, matcher) -- as in hooks/hooks.json
HOOK_EVENTS: tuple[tuple[str, str, int, str | None], ...] = (
    ("SessionStart", "session-start", 10, None),
    ("UserPromptSubmit", "user-prompt-submit", 10, None),
    ("PostToolUse", "post-tool-use", 10, "*"),
    ("PostToolUseFailure", "post-tool-use-failure", 10, "*"),
    ("SubagentStop", "subagent-stop", 30, None),
    ("Stop", "stop", 30, None),
    ("PreCompact", "pre-compact", 30, None),
    ("SessionEnd", "session-end", 30, None),
)
MCP_SERVER_NAME = "lorebook"


@dataclass
class FileChange:
    """What install/uninstall did (or, with dry_run, would do) to one file."""

    path: Path
    action: str  # created | updated | removed-file | unchanged
    backup: Path | None = None
    details: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"path": str(self.path), "action": self.action,
                "backup": str(self.backup) if self.backup else None, "details": self.details}


# --------------------------------------------------------------------------- where things live

def claude_config_dir() -> Path:
    """Claude Code's user config dir: CLAUDE_CONFIG_DIR, else ~/.claude."""
    explicit = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(explicit).expanduser() if explicit else Path.home() / ".claude"


def user_state_file() -> Path:
    """The file holding user-scope MCP servers: ~/.claude.json (inside CLAUDE_CONFIG_DIR when that is set)."""
    explicit = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(explicit).expanduser() / ".claude.json" if explicit else Path.home() / ".claude.json"


def target_files(scope: str, project_dir: Path | None = None) -> tuple[Path, Path]:
    """(settings.json for the hooks, the JSON file for the MCP server) of a scope."""
    if scope == "user":
        return claude_config_dir() / "settings.json", user_state_file()
    if scope == "project":
        root = Path(project_dir or Path.cwd()).resolve()
        return root / ".claude" / "settings.json", root / ".mcp.json"
    raise ValueError(f"scope must be 'user' or 'project', not {scope!r}")


def lorebook_executable() -> str:
    """The absolute path of the lorebook executable that is running now."""
    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if argv0 is not None and argv0.name == "lorebook" and argv0.exists():
        return str(argv0.resolve())
    beside = Path(sys.executable).with_name("lorebook")
    if beside.exists():
        return str(beside)
    found = shutil.which("lorebook")
    if found:
        return str(Path(found).resolve())
    raise SettingsFileError("Cannot find the lorebook executable to register: is lorebook installed (pip install .)?")


# --------------------------------------------------------------------------- recognising lorebook's entries

def _argv(command) -> list[str]:
    if not isinstance(command, str):
        return []
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def is_lorebook_hook(handler) -> bool:
    """A settings.json hook handler that runs `lorebook hook EVENT` (any path to lorebook)."""
    if not isinstance(handler, dict):
        return False
    argv = _argv(handler.get("command"))
    return len(argv) >= 2 and os.path.basename(argv[0]) == "lorebook" and argv[1] == "hook"


def is_lorebook_mcp(server) -> bool:
    """An mcpServers entry that runs `lorebook mcp` (any path to lorebook)."""
    if not isinstance(server, dict):
        return False
    command = server.get("command")
    return (isinstance(command, str) and os.path.basename(command) == "lorebook"
            and list(server.get("args") or []) == ["mcp"])


def hook_command(executable: str, event_arg: str) -> str:
    return f"{shlex.quote(executable)} hook {event_arg}"


def mcp_server(executable: str) -> dict:
    return {"type": "stdio", "command": executable, "args": ["mcp"], "env": {}}


# --------------------------------------------------------------------------- reading and writing JSON safely

def read_json_object(path: Path) -> dict | None:
    """The JSON object in ``path``, or None when the file does not exist. Never guesses past bad JSON."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as ex:
        raise SettingsFileError(f"Cannot read {path}: {ex.strerror or ex}") from ex
    if not text.strip():
        return {}
    try:
        value = json.loads(text)
    except ValueError as ex:
        raise SettingsFileError(
            f"{path} is not valid JSON ({ex}). lorebook left it untouched: fix it (or move it away) and run again."
        ) from ex
    if not isinstance(value, dict):
        raise SettingsFileError(
            f"{path} holds a JSON {type(value).__name__}, not an object. lorebook left it untouched."
        )
    return value


def _backup(path: Path) -> Path:
    stamp = time.strftime("%Y%m%dT%H%M%S")
    backup = path.with_name(f"{path.name}.lorebook-backup-{stamp}")
    n = 1
    while backup.exists():
        n += 1
        backup = path.with_name(f"{path.name}.lorebook-backup-{stamp}-{n}")
    shutil.copy2(path, backup)
    return backup


def _apply(path: Path, edit, dry_run: bool, remove_if_emptied: bool = False) -> FileChange:
    """Read ``path``, let ``edit(data, details)`` change a copy, and write it back (with a backup) if it changed.

    remove_if_emptied: delete the file when the edit leaves it empty (uninstall of a file install created).
    """
    original = read_json_object(path)
    data = copy.deepcopy(original) if original is not None else {}
    details: list[str] = []
    edit(data, details)
    if original is not None and data == original:
        return FileChange(path, "unchanged", details=details)
    if original is None and not data:
        return FileChange(path, "unchanged", details=details)
    if remove_if_emptied and original and not data:
        if dry_run:
            return FileChange(path, "removed-file", details=details)
        backup = _backup(path)
        path.unlink()
        return FileChange(path, "removed-file", backup=backup, details=details)
    if dry_run:
        return FileChange(path, "updated" if original is not None else "created", details=details)
    backup = _backup(path) if original is not None else None
    write_json_atomic(path, data, private=False)  # a shared .mcp.json stays readable
    return FileChange(path, "updated" if original is not None else "created", backup=backup, details=details)


# --------------------------------------------------------------------------- the edits

def _dict_at(data: dict, key: str, path_hint: str) -> dict:
    value = data.setdefault(key, {})
    if not isinstance(value, dict):
        raise SettingsFileError(f"`{key}` in {path_hint} is a {type(value).__name__}, not an object; lorebook left it untouched.")
    return value


def _remove_lorebook_hooks(hooks: dict, details: list[str], path_hint: str) -> None:
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept_groups = []
        for group in groups:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list) or not any(is_lorebook_hook(h) for h in handlers):
                kept_groups.append(group)
                continue
            others = [h for h in handlers if not is_lorebook_hook(h)]
            details.append(f"removed the {event} hook")
            if others:
                kept_groups.append(dict(group, hooks=others))
        if kept_groups:
            hooks[event] = kept_groups
        else:
            del hooks[event]


def _install_hooks(executable: str, path_hint: str):
    def edit(data: dict, details: list[str]) -> None:
        hooks = _dict_at(data, "hooks", path_hint)
        for event in HOOK_EVENTS:
            if event[0] in hooks and not isinstance(hooks[event[0]], list):
                raise SettingsFileError(f"`hooks.{event[0]}` in {path_hint} is not a list; lorebook left it untouched.")
        before = copy.deepcopy(hooks)
        _remove_lorebook_hooks(hooks, [], path_hint)
        for event, arg, timeout, matcher in HOOK_EVENTS:
            group: dict = {"matcher": matcher} if matcher else {}
            group["hooks"] = [{"type": "command", "command": hook_command(executable, arg), "timeout": timeout}]
            hooks.setdefault(event, []).append(group)
        if hooks != before:
            details.append(f"registered {len(HOOK_EVENTS)} hooks running {executable} hook EVENT")
    return edit


def _uninstall_hooks(path_hint: str):
    def edit(data: dict, details: list[str]) -> None:
        hooks = data.get("hooks")
        if not isinstance(hooks, dict):
            return
        _remove_lorebook_hooks(hooks, details, path_hint)
        if not hooks:
            del data["hooks"]
    return edit


def _install_mcp(executable: str, path_hint: str):
    def edit(data: dict, details: list[str]) -> None:
        servers = _dict_at(data, "mcpServers", path_hint)
        current = servers.get(MCP_SERVER_NAME)
        if current is not None and not is_lorebook_mcp(current):
            details.append(f"left the existing MCP server {MCP_SERVER_NAME!r} alone: it does not run `lorebook mcp`")
            return
        wanted = mcp_server(executable)
        if current != wanted:
            servers[MCP_SERVER_NAME] = wanted
            details.append(f"declared the MCP server {MCP_SERVER_NAME!r} ({executable} mcp)")
    return edit


def _uninstall_mcp(path_hint: str):
    def edit(data: dict, details: list[str]) -> None:
        servers = data.get("mcpServers")
        if not isinstance(servers, dict) or not is_lorebook_mcp(servers.get(MCP_SERVER_NAME)):
            return
        del servers[MCP_SERVER_NAME]
        details.append(f"removed the MCP server {MCP_SERVER_NAME!r}")
        if not servers:
            del data["mcpServers"]
    return edit


def install(scope: str = "user", project_dir: Path | None = None, executable: str | None = None,
            dry_run: bool = False) -> list[FileChange]:
    """Merge lorebook's hooks and MCP server into Claude Code's settings for ``scope``. Idempotent."""
    settings, mcp_file = target_files(scope, project_dir)
    executable = executable or lorebook_executable()
    # read both before writing either: a broken second file must not leave a half install
    read_json_object(settings)
    read_json_object(mcp_file)
    return [_apply(settings, _install_hooks(executable, str(settings)), dry_run),
            _apply(mcp_file, _install_mcp(executable, str(mcp_file)), dry_run)]


def uninstall(scope: str = "user", project_dir: Path | None = None, dry_run: bool = False) -> list[FileChange]:
    """Remove exactly what ``install`` added for ``scope``; everything else stays."""
    settings, mcp_file = target_files(scope, project_dir)
    read_json_object(settings)
    read_json_object(mcp_file)
    return [_apply(settings, _uninstall_hooks(str(settings)), dry_run, remove_if_emptied=True),
            _apply(mcp_file, _uninstall_mcp(str(mcp_file)), dry_run, remove_if_emptied=True)]


def enabled_lorebook_plugins(project_dir: Path | None = None) -> list[str]:
    """lorebook plugins (``lorebook@MARKETPLACE``) enabled in the user's or the project's settings.json.

    With one of these and ``lorebook install`` both active, every hook runs twice.
    """
    found = []
    for scope in ("user", "project"):
        settings, _ = target_files(scope, project_dir)
        try:
            data = read_json_object(settings) or {}
        except SettingsFileError:
            continue
        plugins = data.get("enabledPlugins")
        if isinstance(plugins, dict):
            found += [name for name, on in plugins.items() if on and str(name).startswith("lorebook@")]
    return sorted(set(found))
