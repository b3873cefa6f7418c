"""Privacy policy: which tools, paths and projects are never stored (``exclude_*`` in the config).

Globs: ``**`` crosses directories, ``*`` does not, a bare name matches
anywhere. A shell command that names an excluded path keeps its command
line, never its output (the capture plugins ask :func:`command_touches_excluded`).
"""
from __future__ import annotations

import re

_exclusions: dict | None = None


def _glob_regex(pattern: str) -> re.Pattern:
    """A path glob as a regex: ``**`` crosses directories, ``*`` does not; a bare name matches anywhere."""
    pattern = pattern.strip()
    anchored = "/" in pattern.rstrip("/")
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    body = "".join(out)
    return re.compile(("" if anchored else "(?:.*/)?") + body + "(?:/.*)?")


def exclusions() -> dict:
    """The compiled exclusions from the config (once per process)."""
    global _exclusions
    if _exclusions is None:
        from lorebook.config import load_config

        config = load_config()

        def strings(key):
            value = config.get(key) or []
            return [v for v in ([value] if isinstance(value, str) else value) if isinstance(v, str) and v.strip()]

        _exclusions = {
            "paths": [_glob_regex(p) for p in strings("exclude_paths")],
            "tools": [re.compile(_glob_regex(t).pattern.replace("[^/]*", ".*")) for t in strings("exclude_tools")],
            "projects": strings("exclude_projects"),
        }
    return _exclusions


def reset_caches() -> None:
    """Forget the compiled exclusions (tests change the config)."""
    global _exclusions
    _exclusions = None


def path_excluded(path: str, cwd: str | None = None) -> bool:
    """Whether ``path`` (absolute, or relative to ``cwd``) matches an ``exclude_paths`` glob."""
    if not path:
        return False
    rules = exclusions()["paths"]
    if not rules:
        return False
    candidates = {path.replace("\\", "/")}
    if cwd and not path.startswith(("/", "~")):
        candidates.add(cwd.rstrip("/") + "/" + path.lstrip("./"))
    candidates |= {"/" + c.lstrip("/") for c in candidates}
    return any(rule.fullmatch(c) for rule in rules for c in candidates)


def tool_excluded(tool: str) -> bool:
    """Whether the tool's name matches an ``exclude_tools`` glob."""
    return any(rule.fullmatch(tool) for rule in exclusions()["tools"])


def project_excluded(store, project_key: str | None, cwd: str | None) -> bool:
    """Whether the project (its key, name or root) or ``cwd`` matches an ``exclude_projects`` pattern."""
    patterns = exclusions()["projects"]
    if not patterns:
        return False
    names = {n for n in (project_key, cwd) if n}
    if project_key:
        project = store.get_project(project_key)
        if project:
            names |= {n for n in (project.get("name"), project.get("root")) if n}
    import fnmatch

    return any(fnmatch.fnmatchcase(name, pattern) or name == pattern.rstrip("/")
               for name in names for pattern in patterns)


_SHELL_WORD = re.compile(r"""[^\s'"`;|&<>()]+|'[^']*'|"[^"]*\"""")


def command_touches_excluded(command: str, cwd: str | None) -> str | None:
    """The first word of a shell command that names an excluded path, or None."""
    for word in _SHELL_WORD.findall(command or ""):
        word = word.strip("'\"")
        if ("/" in word or "." in word) and path_excluded(word, cwd):
            return word
    return None


def drop_excluded_lines(content: str, cwd: str | None) -> str:
    """Search output lines that come from an excluded file (``path:line:text``) are left out."""
    if not content or not exclusions()["paths"]:
        return content
    kept = []
    for line in content.splitlines():
        name = line.split(":", 1)[0]
        if name and path_excluded(name, cwd):
            continue
        kept.append(line)
    return "\n".join(kept)
