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
    # Stop would start a detached `lorebook index` (loads the model) in every test: off unless a test wants it
    monkeypatch.setenv("LOREBOOK_AUTO_INDEX", "0")
    # likewise the warm embedding server that hooks would start (tests/test_embed_server.py turns it on)
    monkeypatch.setenv("LOREBOOK_EMBED_SERVER", "0")
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


@pytest.fixture(scope="session")
def _migrated_llm_logs(tmp_path_factory):
    """An empty, fully migrated llm logs.db: migrating one takes seconds, copying it does not."""
    import sqlite_utils
    from llm.migrations import migrate

    path = tmp_path_factory.mktemp("llm-logs") / "logs.db"
    db = sqlite_utils.Database(path)
    migrate(db)
    db.close()
    return path


@pytest.fixture
def llm_user(tmp_path, monkeypatch, _migrated_llm_logs):
    """llm's user dir (logs.db, aliases) in tmp, with lorebook's llm plugin and the fake model registered.

    Under pytest llm skips its entry points (sys._called_from_test), so the plugins are registered by hand;
    tests that need the real entry point run llm in a subprocess.
    """
    import llm_fake
    import lorebook.llm_plugin
    from llm.plugins import load_plugins, pm

    import shutil

    path = tmp_path / "llm-user"
    path.mkdir()
    shutil.copy(_migrated_llm_logs, path / "logs.db")
    monkeypatch.setenv("LLM_USER_PATH", str(path))
    load_plugins()
    for name, module in (("lorebook", lorebook.llm_plugin), ("lorebook-fake", llm_fake)):
        if not pm.is_registered(module):
            pm.register(module, name=name)
    return path
