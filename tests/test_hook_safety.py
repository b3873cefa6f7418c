"""Hooks that cannot be turned against their user: no repository command runs, no transcript path hangs them."""
import json
import os
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from hookutil import run_hook

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env=dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
                            GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com"))


@pytest.fixture
def hostile_repo(tmp_path):
    """A repository whose own config runs a command from core.fsmonitor and from a clean filter on `git status`."""
    repo = tmp_path / "hostile"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "fix/ledger-rounding")
    (repo / ".gitattributes").write_text("*.py filter=evil\n")
    (repo / "ledger.py").write_text("TOTAL = 1\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "init")
    markers = {"fsmonitor": tmp_path / "fsmonitor-ran", "filter": tmp_path / "filter-ran"}
    _git(repo, "config", "core.fsmonitor", f"touch {markers['fsmonitor']}; true")
    _git(repo, "config", "filter.evil.clean", f"touch {markers['filter']}; cat")
    (repo / "ledger.py").write_text("TOTAL = 2\n")  # same size, new mtime: git must read it through the filter
    os.utime(repo / "ledger.py", (2_000_000_000, 2_000_000_000))
    return repo, markers


@needs_git
def test_plain_git_status_would_run_the_repository_commands(hostile_repo):
    """The premise of the next test: without lorebook's precautions, `git status` runs both commands."""
    repo, markers = hostile_repo
    subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], capture_output=True,
                   env=dict(os.environ, GIT_CONFIG_NOSYSTEM="1"))
    assert markers["fsmonitor"].exists() and markers["filter"].exists()


@needs_git
def test_session_start_runs_no_command_from_the_repository(hostile_repo, store):
    repo, markers = hostile_repo
    code, out = run_hook("session-start", {"session_id": "s1", "cwd": str(repo), "source": "startup"})
    assert code == 0
    assert not markers["fsmonitor"].exists() and not markers["filter"].exists()


@needs_git
def test_safe_git_still_reports_the_changed_files(hostile_repo):
    from lorebook.git import changed_files, read_branch

    repo, markers = hostile_repo
    (repo / "new_module.py").write_text("x = 1\n")
    assert sorted(changed_files(str(repo), timeout=10)) == ["ledger.py", "new_module.py"]
    assert read_branch(str(repo)) == "fix/ledger-rounding"
    assert not markers["fsmonitor"].exists() and not markers["filter"].exists()


@needs_git
def test_git_ignores_the_callers_git_environment(hostile_repo, tmp_path, monkeypatch):
    """GIT_DIR or GIT_CONFIG_* from the environment must not point git at another repository or setting."""
    from lorebook.git import changed_files

    repo, markers = hostile_repo
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "nowhere"))
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "core.fsmonitor")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", f"touch {markers['fsmonitor']}; true")
    assert changed_files(str(repo), timeout=10) == ["ledger.py"]
    assert not markers["fsmonitor"].exists()


# --- transcript paths that are not transcripts ---------------------------------------------

def _fifo(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    path = tmp_path / "session.jsonl"
    os.mkfifo(path)
    return path


def _sparse(tmp_path):
    path = tmp_path / "huge.jsonl"
    with open(path, "wb") as fp:
        fp.truncate(64 * 1024 ** 3)  # 64 GiB that take no disk: all zero bytes, no newline
    return path


def _device(name):
    def make(tmp_path):
        if not os.path.exists(name):
            pytest.skip(f"{name} does not exist here")
        return name
    return make


BAD_TRANSCRIPTS = {"fifo": _fifo, "dev-zero": _device("/dev/zero"), "dev-urandom": _device("/dev/urandom"),
                   "sparse-64GiB": _sparse, "directory": lambda tmp_path: tmp_path}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("event", ["pre-compact", "session-end"])
@pytest.mark.parametrize("kind", sorted(BAD_TRANSCRIPTS))
def test_a_bad_transcript_path_neither_hangs_nor_floods_a_hook(kind, event, tmp_path, git_project, store):
    path = BAD_TRANSCRIPTS[kind](tmp_path)
    code, out = run_hook(event, {"session_id": "s1", "cwd": str(git_project), "transcript_path": str(path)})
    assert (code, out) == (0, {})
    assert store.get_session("s1") is not None
    assert store.stats()["observations"] == 0


@pytest.mark.timeout(60)
def test_a_fifo_transcript_does_not_hang_the_hook_process(tmp_path, git_project, lorebook_home):
    """The real entry point, as Claude Code runs it: exit 0, promptly, with a FIFO nobody writes to."""
    fifo = _fifo(tmp_path)
    payload = json.dumps({"session_id": "s1", "cwd": str(git_project), "transcript_path": str(fifo)}).encode()
    for event in ("pre-compact", "session-end"):
        result = subprocess.run([sys.executable, "-m", "lorebook", "hook", event], input=payload,
                                capture_output=True, env=dict(os.environ, LOREBOOK_HOME=str(lorebook_home)),
                                timeout=50)
        assert result.returncode == 0 and json.loads(result.stdout) == {}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "dev-urandom"])
def test_import_refuses_what_is_not_a_regular_file(kind, tmp_path, store):
    from lorebook.cli import cli

    path = BAD_TRANSCRIPTS[kind](tmp_path)
    result = CliRunner().invoke(cli, ["import", str(path), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["files"] == 0 and summary["lines"] == 0
    assert summary["unreadable_files"] == [f"{path}: not a regular file"]


@pytest.mark.timeout(60)
def test_import_stops_reading_at_its_byte_limit(tmp_path, store, monkeypatch):
    """A sparse 64 GiB file claims a size it would take minutes to read: the limit is counted while reading."""
    from lorebook.cli import cli
    from lorebook.hooks import transcripts

    monkeypatch.setattr(transcripts, "IMPORT_MAX_BYTES", 48 * 1024 ** 2)
    path = _sparse(tmp_path)
    result = CliRunner().invoke(cli, ["import", str(path), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["files"] == 1 and summary["malformed_lines"] == 1  # one endless line, never held whole
    assert summary["unreadable_files"] == [f"{path}: only the first {48 * 1024 ** 2} bytes were read (the limit)"]


def test_bounded_lines_keeps_lines_and_drops_an_overlong_one():
    import io

    from lorebook.hooks.transcripts import ImportStats, bounded_lines

    stats = ImportStats()
    data = b'{"a": 1}\n' + b"x" * 5000 + b'\n{"b": 2}\n{"c": 3}'
    lines = list(bounded_lines(io.BytesIO(data), max_bytes=10 ** 6, stats=stats, max_line=1000))
    assert lines == [b'{"a": 1}\n', b'{"b": 2}\n', b'{"c": 3}']
    assert stats.malformed_lines == 1
    cut = list(bounded_lines(io.BytesIO(data), max_bytes=12, stats=ImportStats(), max_line=1000))
    assert cut == [b'{"a": 1}\n', b"xxx"]


def test_a_backfill_reads_the_real_transcript(tmp_path, git_project, store):
    """The bounded reader still backfills a real transcript at SessionEnd (what the hooks missed)."""
    from pathlib import Path

    fixture = sorted(p for p in (Path(__file__).parent / "fixtures").glob("*.jsonl")
                     if not p.name.endswith("-subagent.jsonl"))[0]
    session = json.loads(fixture.read_text().splitlines()[0])["sessionId"]
    code, out = run_hook("session-end", {"session_id": session, "cwd": str(git_project),
                                         "transcript_path": str(fixture), "reason": "other"})
    assert code == 0
    observations = store.session_observations(session)
    assert observations and all(o["source"] == "import" for o in observations)
    assert store.get_session(session)["status"] == "closed"
