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
overwritten. Before lorebook first changes a file it keeps a copy of its bytes
in one place, ``install-backups/`` in the data dir (one backup per file), with
the hash of what it wrote: uninstall gives those bytes back when nothing else
changed the file since, and otherwise removes only lorebook's entries with a
minimal text edit (indentation, key order, escapes and empty containers stay).
Files lorebook creates under the user's home are 0600 (directories 0700).
"""
from __future__ import annotations

import copy
import hashlib
import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from . import jsonedit
from .errors import SettingsFileError

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
        root = Path(project_dir).resolve() if project_dir else project_root()
        return root / ".claude" / "settings.json", root / ".mcp.json"
    raise ValueError(f"scope must be 'user' or 'project', not {scope!r}")


def project_root(cwd: Path | None = None) -> Path:
    """The repository around ``cwd`` (the directory itself outside git): where --project registers."""
    from .project import find_git_root

    start = Path(cwd or Path.cwd()).resolve()
    found = find_git_root(str(start))
    return Path(found[0]) if found else start


# what a project's committed files run: found on each teammate's PATH, no path of this machine in them
PORTABLE_EXECUTABLE = "lorebook"


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


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def backup_dir() -> Path:
    """The one place install/uninstall keep their backups and what they need to undo exactly."""
    from .config import user_dir

    return user_dir() / "install-backups"


def _ledger_path() -> Path:
    return backup_dir() / "ledger.json"


def _load_ledger() -> dict:
    try:
        value = json.loads(_ledger_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _save_ledger(ledger: dict) -> None:
    if not ledger:  # nothing installed anywhere: leave no trace
        _ledger_path().unlink(missing_ok=True)
        return
    write_private(_ledger_path(), (json.dumps(ledger, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))


def _backup_slot(path: Path) -> Path:
    """One backup file per settings file: its name, then a short hash of its full path (two projects differ)."""
    digest = hashlib.sha256(str(path).encode("utf-8")).hexdigest()[:10]
    return backup_dir() / f"{path.name.lstrip('.') or 'file'}-{digest}"


def _make_private_dir(path: Path) -> None:
    """Create ``path`` (and missing parents) as 0700; an existing directory keeps its mode."""
    missing = []
    probe = path
    while not probe.exists():
        missing.append(probe)
        probe = probe.parent
    for directory in reversed(missing):
        directory.mkdir(mode=0o700, exist_ok=True)
        os.chmod(directory, 0o700)  # mkdir's mode is masked by the umask


def write_private(path: Path, data: bytes, private: bool = True) -> None:
    """Write ``data`` atomically. An existing file keeps its mode; a new one is 0600 (``private``) or 0644."""
    from .files import write_bytes_atomic

    if private:
        _make_private_dir(path.parent)
    write_bytes_atomic(path, data, private=private)


def _read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as ex:
        raise SettingsFileError(f"Cannot read {path}: {ex.strerror or ex}") from ex


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
        if kept_groups or not groups:
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


def _lorebook_entry_paths(data: dict) -> list[list]:
    """Paths (keys and indices) of lorebook's entries in a settings or MCP file, in document order."""
    paths: list[list] = []
    hooks = data.get("hooks")
    if isinstance(hooks, dict):
        for event, groups in hooks.items():
            if not isinstance(groups, list):
                continue
            for gi, group in enumerate(groups):
                handlers = group.get("hooks") if isinstance(group, dict) else None
                if not isinstance(handlers, list):
                    continue
                ours = [hi for hi, h in enumerate(handlers) if is_lorebook_hook(h)]
                if ours and len(ours) == len(handlers):
                    paths.append(["hooks", event, gi])
                else:
                    paths += [["hooks", event, gi, "hooks", hi] for hi in ours]
    servers = data.get("mcpServers")
    if isinstance(servers, dict) and is_lorebook_mcp(servers.get(MCP_SERVER_NAME)):
        paths.append(["mcpServers", MCP_SERVER_NAME])
    return paths


def _containers_install_creates(before: dict, after: dict) -> list[list]:
    """The keys install added (``hooks``, an event's list, ``mcpServers``): uninstall removes them when left empty."""
    created: list[list] = [[key] for key in after if key not in before]
    hooks_before = before.get("hooks") if isinstance(before.get("hooks"), dict) else {}
    hooks_after = after.get("hooks") if isinstance(after.get("hooks"), dict) else {}
    created += [["hooks", event] for event in hooks_after if event not in hooks_before]
    return created


def _get(data, path: list):
    for step in path:
        if isinstance(step, int):
            if not isinstance(data, list) or step >= len(data):
                return None
        elif not isinstance(data, dict) or step not in data:
            return None
        data = data[step]
    return data


def _describe(path: list) -> str:
    if path[0] == "mcpServers":
        return f"removed the MCP server {MCP_SERVER_NAME!r}"
    return f"removed the {path[1]} hook"


def _strip_lorebook(text: str, created: list[list] | None) -> tuple[str, list[str]]:
    """``text`` without lorebook's entries, every other byte kept; plus what was removed.

    created: the keys install added (from the ledger), removed when left empty. Without it (an install by an
    older lorebook), only a container that this removal emptied goes.
    """
    details: list[str] = []
    emptied: list[list] = []
    while True:
        paths = _lorebook_entry_paths(json.loads(text))
        if not paths:
            break
        path = paths[-1]  # the last first: earlier indices stay valid
        details.append(_describe(path))
        text = jsonedit.remove(text, path)
        emptied += [path[:2], path[:1]] if path[0] == "hooks" else [path[:1]]
    candidates = created if created is not None else emptied
    for path in sorted({tuple(p) for p in candidates}, key=len, reverse=True):
        value = _get(json.loads(text), list(path))
        if value in ({}, []) and (created is not None or list(path) in emptied):
            text = jsonedit.remove(text, list(path))
    details.reverse()
    return text, details


def _install_file(path: Path, edit, dry_run: bool, private: bool) -> FileChange:
    """Apply ``edit(data, details)`` to one file; the first time, keep its bytes to give back on uninstall."""
    before = _read_bytes(path)
    original = read_json_object(path)
    data = copy.deepcopy(original) if original is not None else {}
    details: list[str] = []
    edit(data, details)
    if data == (original if original is not None else {}):
        return FileChange(path, "unchanged", details=details)
    action = "updated" if before is not None else "created"
    if dry_run:
        return FileChange(path, action, details=details)
    ledger = _load_ledger()
    key = str(path.absolute())
    entry = ledger.get(key)
    slot = _backup_slot(path)
    if entry is None or not _lorebook_entry_paths(original or {}):
        # a first install here: what is in the file now is what uninstall gives back
        entry = {"existed": before is not None, "restorable": not _lorebook_entry_paths(original or {}),
                 "created": _containers_install_creates(original or {}, data), "backup": None,
                 "created_dir": not path.parent.exists()}
        if before is not None:
            write_private(slot, before)
            entry["backup"] = slot.name
    style = jsonedit.detect_style(before.decode("utf-8", "replace")) if before else {"indent": 2,
                                                                                      "ensure_ascii": False}
    after = (json.dumps(data, **style) + "\n").encode("utf-8")
    write_private(path, after, private=private)
    entry["installed_sha256"] = _sha256(after)
    ledger[key] = entry
    _save_ledger(ledger)
    return FileChange(path, action, backup=slot if entry["backup"] else None, details=details)


def _remove_created(path: Path, entry: dict) -> None:
    """Remove a file install created, and its directory too when install made that and it is empty now."""
    path.unlink()
    if entry.get("created_dir"):
        try:
            path.parent.rmdir()
        except OSError:
            pass  # something else lives there now


def _uninstall_file(path: Path, dry_run: bool) -> FileChange:
    """Give back the pre-install bytes when nothing else changed the file since; else remove only our entries."""
    before = _read_bytes(path)
    original = read_json_object(path)
    if before is None or not _lorebook_entry_paths(original or {}):
        return FileChange(path, "unchanged")
    ledger = _load_ledger()
    key = str(path.absolute())
    entry = ledger.get(key)
    slot = _backup_slot(path)
    if entry and entry.get("restorable") and entry.get("installed_sha256") == _sha256(before):
        saved = slot.read_bytes() if entry.get("existed") and slot.exists() else None
        if not entry.get("existed") or saved is not None:
            details = ["nothing else changed it since install: put back byte for byte as it was" if saved is not None
                       else "lorebook created it and nothing else changed it since: removed"]
            if dry_run:
                return FileChange(path, "updated" if saved is not None else "removed-file", details=details)
            if saved is not None:
                write_private(path, saved)
            else:
                _remove_created(path, entry)
            slot.unlink(missing_ok=True)
            del ledger[key]
            _save_ledger(ledger)
            return FileChange(path, "updated" if saved is not None else "removed-file", details=details)
    text, details = _strip_lorebook(before.decode("utf-8"), entry.get("created") if entry else None)
    remove_file = bool(entry) and not entry.get("existed") and json.loads(text) == {}
    action = "removed-file" if remove_file else "updated"
    if dry_run:
        return FileChange(path, action, details=details)
    write_private(slot, before)  # the file as it was before this uninstall
    if remove_file:
        _remove_created(path, entry)
    else:
        write_private(path, text.encode("utf-8"))
    if entry:
        del ledger[key]
        _save_ledger(ledger)
    return FileChange(path, action, backup=slot, details=details)


def install(scope: str = "user", project_dir: Path | None = None, executable: str | None = None,
            dry_run: bool = False) -> list[FileChange]:
    """Merge lorebook's hooks and MCP server into Claude Code's settings for ``scope``. Idempotent."""
    settings, mcp_file = target_files(scope, project_dir)
    # a project's files are committed and shared: they name `lorebook` (on PATH), not where it is here
    executable = executable or (PORTABLE_EXECUTABLE if scope == "project" else lorebook_executable())
    # read both before writing either: a broken second file must not leave a half install
    read_json_object(settings)
    read_json_object(mcp_file)
    private = scope == "user"
    return [_install_file(settings, _install_hooks(executable, str(settings)), dry_run, private),
            _install_file(mcp_file, _install_mcp(executable, str(mcp_file)), dry_run, private)]


def uninstall(scope: str = "user", project_dir: Path | None = None, dry_run: bool = False) -> list[FileChange]:
    """Remove exactly what ``install`` added for ``scope``; everything else stays, byte for byte."""
    settings, mcp_file = target_files(scope, project_dir)
    read_json_object(settings)
    read_json_object(mcp_file)
    return [_uninstall_file(settings, dry_run), _uninstall_file(mcp_file, dry_run)]


def installed_in(scope: str = "user", project_dir: Path | None = None) -> dict:
    """Which of lorebook's registrations a scope holds: {"hooks": [events], "mcp": bool} (lorebook doctor)."""
    settings, mcp_file = target_files(scope, project_dir)
    data = read_json_object(settings) or {}
    hooks = data.get("hooks") if isinstance(data.get("hooks"), dict) else {}
    events = sorted(event for event, groups in hooks.items() if isinstance(groups, list) and any(
        isinstance(g, dict) and isinstance(g.get("hooks"), list) and any(is_lorebook_hook(h) for h in g["hooks"])
        for g in groups))
    servers = (read_json_object(mcp_file) or {}).get("mcpServers")
    return {"hooks": events, "mcp": isinstance(servers, dict) and is_lorebook_mcp(servers.get(MCP_SERVER_NAME))}


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
