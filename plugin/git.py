"""Git, read without running anything a repository configures.

A repository's own config can name commands git runs on ``git status``:
``core.fsmonitor``, the clean/process commands of a ``filter.<driver>``
(run for "racy" index entries), a pager, hooks. lorebook looks at
repositories it did not write (every SessionStart does), so :func:`run_git`
turns each of them off, ignores the system config and every ``GIT_*``
variable of the caller, and never waits longer than its timeout. The branch
is read from ``.git/HEAD`` with no subprocess at all.
"""
from __future__ import annotations

import os
import time

MAX_HINT_FILES = 50

# every setting through which a repository's config could make these git calls run a command
SAFE_CONFIG = (
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.pager=cat",
    "core.askPass=",
    "core.sshCommand=",
    "credential.helper=",
    "diff.external=",
    "submodule.recurse=false",
    "protocol.allow=never",
)
# the per-driver settings of a filter that name a command
_FILTER_COMMANDS = ("clean", "smudge", "process")


def _config_options(settings) -> list[str]:
    return [part for setting in settings for part in ("-c", setting)]


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0", GIT_PAGER="cat",
               PAGER="cat", GIT_ATTR_NOSYSTEM="1", LC_ALL="C")
    return env


def _run(root: str, options: list[str], args: list[str], timeout: float, env: dict):
    import subprocess  # here, not at the top: the hook path imports this module

    try:
        return subprocess.run(["git", "-C", root, *options, *args], capture_output=True, timeout=timeout, env=env,
                              stdin=subprocess.DEVNULL)
    except (OSError, ValueError, subprocess.SubprocessError):
        return None


def _filter_drivers(root: str, timeout: float, env: dict) -> list[str] | None:
    """Names of the filter drivers any config in reach defines (``git config`` itself runs nothing)."""
    result = _run(root, _config_options(SAFE_CONFIG), ["config", "-z", "--get-regexp", r"^filter\."], timeout, env)
    if result is None or result.returncode not in (0, 1):  # 1: no such setting
        return None
    drivers = set()
    for entry in result.stdout.decode("utf-8", "replace").split("\0"):
        key = entry.split("\n", 1)[0]
        if key.startswith("filter.") and key.count(".") >= 2:
            drivers.add(key[len("filter."):key.rindex(".")])
    return sorted(drivers)


def run_git(root: str, args: list[str], timeout: float) -> bytes | None:
    """stdout of ``git -C root ARGS`` with every repository-configured command off; None on failure or timeout."""
    deadline = time.monotonic() + timeout
    env = _env()
    drivers = _filter_drivers(root, timeout, env)
    if drivers is None:
        return None
    settings = list(SAFE_CONFIG)
    for driver in drivers:  # an empty command means "no filter"
        settings += [f"filter.{driver}.{command}=" for command in _FILTER_COMMANDS]
        settings.append(f"filter.{driver}.required=false")
    options = _config_options(settings)
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return None
    result = _run(root, options, args, remaining, env)
    if result is None or result.returncode != 0:
        return None
    return result.stdout


def read_branch(root: str | None) -> str | None:
    """The checked-out branch, from ``.git/HEAD`` (no subprocess); None when detached or unknown."""
    if not root:
        return None
    from .project import find_git_root

    found = find_git_root(root)
    if not found:
        return None
    try:
        with open(os.path.join(found[1], "HEAD"), encoding="utf-8") as fp:
            head = fp.read(4096).strip()
    except OSError:
        return None
    if head.startswith("ref: refs/heads/"):
        return head[len("ref: refs/heads/"):]
    return None


def changed_files(root: str | None, timeout: float = 1.0, limit: int = MAX_HINT_FILES) -> list[str]:
    """Files ``git status`` reports as changed or new, relative to the root; [] when git is missing or slow."""
    if not root or not os.path.exists(os.path.join(root, ".git")):
        return []
    out = run_git(root, ["status", "--porcelain=v1", "-z", "--untracked-files=normal",
                         "--ignore-submodules=all"], timeout)
    if out is None:
        return []
    files: list[str] = []
    skip = False
    for entry in out.decode("utf-8", "replace").split("\0"):
        if skip:  # the source of a rename
            skip = False
            continue
        if len(entry) < 4:
            continue
        status, path = entry[:2], entry[3:]
        if "R" in status or "C" in status:
            skip = True
        files.append(path)
        if len(files) >= limit:
            break
    return files
