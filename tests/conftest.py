import json
import os
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


def pytest_configure(config):
    sys._called_from_test = True


@pytest.fixture(autouse=True)
def lorebook_home(tmp_path, monkeypatch):
    """Every test gets its own user dir; nothing from the developer's environment leaks in."""
    home = tmp_path / "lorebook-home"
    monkeypatch.setenv("LOREBOOK_HOME", str(home))
    for var in ("LOREBOOK_DISABLE", "LOREBOOK_LOAD_PLUGINS", "LOREBOOK_CONTEXT_BUDGET", "LOREBOOK_MODEL",
                "LOREBOOK_EMBED_MODEL", "LOREBOOK_STOP_PROMPT"):
        monkeypatch.delenv(var, raising=False)
    return home


@pytest.fixture
def store(lorebook_home):
    from lorebook.store import Store

    s = Store()
    yield s
    s.close()


@pytest.fixture(scope="session")
def captured_payloads():
    """Real hook payloads captured from Claude Code, by version."""
    return {
        path.stem.split("-")[-1]: json.loads(path.read_text())
        for path in sorted(FIXTURES.glob("hook-payloads-*.json"))
    }


@pytest.fixture
def git_project(tmp_path):
    """A project directory that is a git checkout with an origin remote."""
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "config").write_text('[remote "origin"]\n\turl = git@github.com:Acme/Widget.git\n')
    return root
