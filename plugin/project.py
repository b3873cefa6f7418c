"""Project identity: the normalised git remote, else the git root, else the directory.

Reads ``.git/config`` directly: no ``git`` subprocess on a hook's hot path.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Project:
    key: str
    name: str
    root: str
    remote: str | None = None


_SCP_LIKE = re.compile(r"^(?:[\w.-]+@)?([\w.-]+):(?!//)(.+)$")


def normalise_remote(url: str) -> str:
    """One key for every spelling of a remote: ``git@github.com:Org/Repo.git`` and
    ``https://user@github.com/org/repo`` both give ``github.com/org/repo``."""
    url = url.strip()
    match = re.match(r"^[a-z][a-z0-9+.-]*://(?:[^@/]*@)?([^/:]+)(?::\d+)?/(.*)$", url, re.I)
    if match:
        host, path = match.groups()
    else:
        match = _SCP_LIKE.match(url)
        if not match:
            return url.rstrip("/").lower()
        host, path = match.groups()
    path = re.sub(r"\.git/?$", "", path.strip("/"))
    return f"{host.lower()}/{path.strip('/').lower()}"


def _git_dir(root: str) -> str | None:
    dot_git = os.path.join(root, ".git")
    if os.path.isdir(dot_git):
        return dot_git
    if os.path.isfile(dot_git):  # a worktree or submodule: "gitdir: <path>"
        try:
            with open(dot_git, encoding="utf-8") as fp:
                line = fp.readline().strip()
        except OSError:
            return None
        if line.startswith("gitdir:"):
            path = os.path.normpath(os.path.join(root, line[7:].strip()))
            common = os.path.join(path, "commondir")
            if os.path.isfile(common):
                with open(common, encoding="utf-8") as fp:
                    path = os.path.normpath(os.path.join(path, fp.read().strip()))
            return path
    return None


def find_git_root(start: str) -> tuple[str, str] | None:
    path = os.path.abspath(start)
    while True:
        git_dir = _git_dir(path)
        if git_dir:
            return path, git_dir
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent


def read_remote(git_dir: str) -> str | None:
    """The URL of ``origin``, else of the first remote in the git config."""
    try:
        with open(os.path.join(git_dir, "config"), encoding="utf-8", errors="replace") as fp:
            text = fp.read()
    except OSError:
        return None
    remotes: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        line = line.strip()
        section = re.match(r'^\[remote\s+"([^"]+)"\]$', line)
        if section:
            current = section.group(1)
        elif line.startswith("["):
            current = None
        elif current and "=" in line:
            key, _, value = line.partition("=")
            if key.strip() == "url" and current not in remotes:
                remotes[current] = value.strip()
    if not remotes:
        return None
    return remotes.get("origin") or next(iter(remotes.values()))


def identify(cwd: str | None) -> Project | None:
    """The project ``cwd`` belongs to, or None when there is no directory at all.

    A directory that no longer exists (a deleted worktree, a session imported
    after its checkout moved) keeps a project: the git repository around its
    nearest surviving parent when there is one, else its own path.
    """
    if not cwd or not isinstance(cwd, str) or "\0" in cwd:
        return None
    path = os.path.abspath(cwd)
    if not os.path.isdir(path):
        parent = os.path.dirname(path)
        while parent != os.path.dirname(parent) and not os.path.isdir(parent):
            parent = os.path.dirname(parent)
        found = find_git_root(parent) if os.path.isdir(parent) else None
        if found is None or found[0] == os.path.dirname(found[0]):
            return Project(key="path:" + path, name=os.path.basename(path) or path, root=path)
        return _from_git(*found)
    found = find_git_root(path)
    if found:
        return _from_git(*found)
    return Project(key="path:" + path, name=os.path.basename(path) or path, root=path)


def _from_git(root: str, git_dir: str) -> Project:
    remote = read_remote(git_dir)
    if remote:
        key = normalise_remote(remote)
        return Project(key=key, name=key.rsplit("/", 1)[-1] or os.path.basename(root), root=root, remote=remote)
    return Project(key="path:" + root, name=os.path.basename(root) or root, root=root)
