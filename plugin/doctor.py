"""``lorebook doctor``: one screen to read when something seems off, each problem with what to do.

Every check returns a :class:`Check`; ``status`` is ``ok``, ``info`` (worth
knowing, nothing to do) or ``action`` (something needs the user: ``fix`` says
what). The command exits non-zero when any check needs action.
"""
from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from .errors import LorebookError


@dataclass
class Check:
    name: str
    status: str  # ok | info | action
    summary: str
    fix: str | None = None
    data: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"name": self.name, "status": self.status, "summary": self.summary, "fix": self.fix,
                "data": self.data}


# --------------------------------------------------------------------------- the checks

def check_version() -> Check:
    import sys

    from . import __version__

    return Check("version", "ok", f"lorebook {__version__} on Python {sys.version.split()[0]}",
                 data={"version": __version__, "python": sys.version.split()[0], "executable": sys.executable})


def check_data_dir() -> Check:
    from .config import user_dir

    path = user_dir(create=False)
    if not path.exists():
        return Check("data dir", "info", f"{path} does not exist yet (created by the first session)",
                     data={"path": str(path)})
    if not path.is_dir():
        return Check("data dir", "action", f"{path} is not a directory",
                     fix=f"Move {path} away, or set LOREBOOK_HOME to another directory.", data={"path": str(path)})
    if not os.access(path, os.W_OK | os.X_OK):
        return Check("data dir", "action", f"{path} is not writable",
                     fix=f"Give yourself write access: chmod u+rwx {shlex.quote(str(path))}", data={"path": str(path)})
    mode = path.stat().st_mode & 0o777
    data = {"path": str(path), "mode": oct(mode)}
    if mode & 0o077:
        return Check("data dir", "info", f"{path} (mode {oct(mode)}: others can read it; it holds prompts and "
                     f"tool output; chmod 700 {shlex.quote(str(path))} makes it private)", data=data)
    return Check("data dir", "ok", str(path), data=data)


def check_database() -> Check:
    from .config import user_dir

    path = user_dir(create=False) / "lorebook.db"
    if not path.exists():
        return Check("database", "info", f"{path} does not exist yet (created by the first session)",
                     data={"path": str(path)})
    moved = f"{path}.broken"
    fix = (f"Move the damaged database away (mv {shlex.quote(str(path))} {shlex.quote(moved)}); lorebook starts a "
           "new one at the next session (the old notes stay in the moved file).")
    try:
        from .store import Store

        store = Store(path)
    except Exception as ex:  # a damaged file fails here (StoreCorrupt), or anything else that stops it opening
        return Check("database", "action", f"{path} cannot be opened: {ex}", fix=fix, data={"path": str(path)})
    try:
        problems = store.integrity_check()
        stats = store.stats()
        counts = store.index_counts()
    except Exception as ex:
        return Check("database", "action", f"{path} cannot be read: {ex}", fix=fix, data={"path": str(path)})
    finally:
        store.close()
    data = {"path": str(path), "bytes": stats["db_bytes"], "notes": stats["notes"],
            "notes_waiting_for_vectors": counts["pending"], "notes_failed_to_embed": counts["failed"],
            "integrity": problems or ["ok"]}
    size = f"{stats['db_bytes'] / 1024:.0f} KiB"
    if problems:
        return Check("database", "action", f"{path} ({size}) fails its integrity check: {problems[0]}",
                     fix=fix, data=data)
    summary = f"{path} ({size}, {stats['notes']} notes, integrity ok"
    summary += f", {counts['pending']} waiting for vectors)" if counts["pending"] else ")"
    if counts["failed"]:
        return Check("database", "action", summary + f"; {counts['failed']} notes failed to embed",
                     fix="Retry them: lorebook index --retry-failed", data=data)
    if counts["pending"]:
        return Check("database", "info", summary + "; the next Stop embeds them, or run: lorebook index", data=data)
    return Check("database", "ok", summary, data=data)


def check_embedding_model() -> Check:
    from .embeddings import DEFAULT_MODEL_ID, INSTALL_HINT, embedding_model_id, minilm_dir

    model_id = embedding_model_id()
    data = {"model": model_id}
    if model_id == DEFAULT_MODEL_ID:
        try:
            where = minilm_dir()
        except LorebookError as ex:
            return Check("embedding model", "action", str(ex), fix=INSTALL_HINT, data=data)
        missing = [name for name in ("model.safetensors",) if not (where / name).exists()]
        if not where.is_dir() or missing:
            return Check("embedding model", "action", f"{model_id}: the weights are missing from {where}",
                         fix=INSTALL_HINT, data=dict(data, dir=str(where)))
        return Check("embedding model", "ok", f"{model_id} (offline, {where})", data=dict(data, dir=str(where)))
    try:
        from .embeddings import _llm_embedding_model

        _llm_embedding_model(model_id)
    except Exception as ex:
        return Check("embedding model", "action", f"{model_id} (LOREBOOK_EMBED_MODEL) is not available: {ex}",
                     fix="Install the llm plugin that provides it (llm embed-models lists them), "
                         "or unset LOREBOOK_EMBED_MODEL to use the offline default.", data=data)
    return Check("embedding model", "ok", f"{model_id} (through llm)", data=data)


def _registered_commands(scope: str, root: Path) -> list[str]:
    """The executables lorebook's hooks and MCP server run in a scope's files."""
    from .install import is_lorebook_hook, is_lorebook_mcp, read_json_object, target_files, MCP_SERVER_NAME

    settings, mcp_file = target_files(scope, root)
    found = []
    hooks = (read_json_object(settings) or {}).get("hooks")
    for groups in (hooks.values() if isinstance(hooks, dict) else []):
        for group in groups if isinstance(groups, list) else []:
            for handler in (group.get("hooks") or []) if isinstance(group, dict) else []:
                if is_lorebook_hook(handler):
                    found.append(shlex.split(handler["command"])[0])
    server = ((read_json_object(mcp_file) or {}).get("mcpServers") or {}).get(MCP_SERVER_NAME)
    if is_lorebook_mcp(server):
        found.append(server["command"])
    return sorted(set(found))


def _runs(executable: str) -> bool:
    import shutil

    if os.sep in executable:
        return os.access(executable, os.X_OK)
    return shutil.which(executable) is not None


def check_routes(cwd: Path | None = None) -> list[Check]:
    """Which registrations are active, whether more than one is, and whether their commands exist."""
    from .install import enabled_lorebook_plugins, installed_in, project_root, target_files

    root = project_root(cwd)
    routes = []
    checks = []
    for scope, label, undo in (("user", "user settings", "lorebook uninstall"),
                               ("project", f"project settings ({root})", "lorebook uninstall --project")):
        try:
            found = installed_in(scope, root)
            commands = _registered_commands(scope, root)
        except LorebookError as ex:
            checks.append(Check(f"route: {label}", "action", str(ex), fix="Fix the file, then run lorebook doctor "
                                "again."))
            continue
        if not found["hooks"] and not found["mcp"]:
            continue
        routes.append({"route": scope, "label": label, "undo": undo, "hooks": found["hooks"], "mcp": found["mcp"],
                       "files": [str(p) for p in target_files(scope, root)], "commands": commands})
        broken = [c for c in commands if not _runs(c)]
        if broken:
            checks.append(Check(f"route: {label}", "action",
                                f"registered, but runs {', '.join(broken)}, which is not there",
                                fix=f"Register this lorebook again: lorebook install{' --project' if scope == 'project' else ''}"))
    for plugin in enabled_lorebook_plugins(root):
        routes.append({"route": "marketplace", "label": f"marketplace plugin {plugin}",
                       "undo": f"claude plugin uninstall {plugin}"})
    seen = _plugin_dirs_seen()
    for plugin_dir in seen:
        if any(r["route"] == "marketplace" for r in routes) and "/.claude/plugins/" in plugin_dir:
            continue  # the marketplace plugin's own copy
        routes.append({"route": "plugin dir", "label": f"claude --plugin-dir {plugin_dir} (seen in the last day)",
                       "undo": "stop passing --plugin-dir (or run lorebook uninstall to keep only the plugin)"})
    data = {"routes": routes, "project_root": str(root)}
    if not routes:
        checks.insert(0, Check("routes", "action", "lorebook is not registered with Claude Code here",
                               fix="Run: lorebook install (or lorebook install --project for this repository only)",
                               data=data))
    elif len(routes) > 1:
        names = "; ".join(r["label"] for r in routes)
        fixes = " or ".join(f"`{r['undo']}`" for r in routes)
        checks.insert(0, Check("routes", "action", f"{len(routes)} routes register lorebook: {names}. Every hook "
                               "fires once per route.", fix=f"Keep one: {fixes}.", data=data))
    else:
        checks.insert(0, Check("routes", "ok", routes[0]["label"], data=data))
    return checks


def _plugin_dirs_seen(max_age_s: float = 24 * 3600) -> list[str]:
    """Plugin directories whose launcher ran a hook lately (the route markers name them)."""
    import time

    from .config import user_dir
    from .routes import MARKERS_DIR

    seen = set()
    now = time.time()
    try:
        for session in (user_dir(create=False) / MARKERS_DIR).iterdir():
            for marker in session.iterdir():
                try:
                    if now - marker.stat().st_mtime > max_age_s:
                        continue
                    route = marker.read_text(encoding="utf-8")
                except OSError:
                    continue
                if route.startswith("plugin:"):
                    seen.add(route[len("plugin:"):])
    except OSError:
        pass
    return sorted(seen)


def check_mcp() -> Check:
    """Whether the MCP server's tools load (the same code Claude Code starts with `lorebook mcp`)."""
    try:
        from .mcp_tools import TOOLS
    except Exception as ex:
        return Check("mcp server", "action", f"the MCP tools do not load: {ex}",
                     fix="Reinstall lorebook (./install.sh, or pip install --force-reinstall lorebook).")
    try:
        import mcp  # noqa: F401  (the SDK `lorebook mcp` serves with)
    except ImportError:
        return Check("mcp server", "action", "the MCP SDK (the `mcp` package) is not installed",
                     fix="pip install mcp  (in lorebook's environment)")
    return Check("mcp server", "ok", f"{len(TOOLS)} tools; Claude Code starts it as `lorebook mcp` "
                 "(in a session, /mcp shows it connected)", data={"tools": sorted(TOOLS)})


def check_processes() -> Check:
    from .processes import background_processes

    running = background_processes()
    if not running:
        return Check("background processes", "ok", "none running", data={"processes": []})
    text = "; ".join(f"{p['name']} pid {p['pid']} (stop: {p['stop']})" for p in running)
    return Check("background processes", "info", text + "; they exit on their own when idle",
                 data={"processes": running})


_LOG_LINE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d) \[([^\]]*)\] (.*)$")


def check_hook_log(limit: int = 3, recent_s: float = 24 * 3600) -> Check:
    import time

    from .config import user_dir

    path = user_dir(create=False) / "logs" / "hooks.log"
    if not path.exists():
        return Check("hook log", "ok", f"no errors logged ({path} does not exist yet)", data={"path": str(path)})
    try:
        with open(path, "rb") as fp:
            fp.seek(max(0, path.stat().st_size - 256 * 1024))
            lines = fp.read().decode("utf-8", "replace").splitlines()
    except OSError as ex:
        return Check("hook log", "info", f"cannot read {path}: {ex}", data={"path": str(path)})
    errors = []
    for line in lines:
        match = _LOG_LINE.match(line)
        if match and "error" in match.group(3).lower():
            errors.append({"time": match.group(1), "event": match.group(2), "message": match.group(3)})
    errors = errors[-limit:]
    data = {"path": str(path), "last_errors": errors}
    if not errors:
        return Check("hook log", "ok", f"no errors in {path}", data=data)
    newest = time.mktime(time.strptime(errors[-1]["time"], "%Y-%m-%dT%H:%M:%S"))
    text = "; ".join(f"{e['time']} [{e['event']}] {e['message']}" for e in errors)
    if time.time() - newest > recent_s:
        return Check("hook log", "info", f"older errors in {path}: {text}", data=data)
    return Check("hook log", "action", f"recent errors in {path}: {text}",
                 fix=f"Read the tracebacks in {path}; if it is a bug, report it with them.", data=data)


def run_checks(cwd: Path | None = None) -> list[Check]:
    checks = [check_version(), check_data_dir(), check_database(), check_embedding_model()]
    checks += check_routes(cwd)
    checks += [check_mcp(), check_processes(), check_hook_log()]
    return checks


def needs_action(checks: list[Check]) -> bool:
    return any(c.status == "action" for c in checks)
