"""The warm embedding server: started by lorebook, reached without numpy, gone when idle or stopped."""
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from click.testing import CliRunner

from lorebook import embed_server
from lorebook.cli import cli
from lorebook.embeddings import embed
from lorebook.vectors import vector_top_k


def _wait_for(condition, timeout=90.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie child of ours counts as gone
        done, _ = os.waitpid(pid, os.WNOHANG)
        return done == 0
    except ChildProcessError:
        return True


@pytest.fixture
def server(monkeypatch):
    """A server started the way hooks start it; stopped (or killed) afterwards whatever happens."""
    monkeypatch.setenv("LOREBOOK_EMBED_SERVER", "1")
    started = []

    def start():
        assert embed_server.ensure_server() is True
        assert _wait_for(lambda: embed_server.ping(0.5) is not None), "the server did not come up"
        started.append(embed_server.ping()["pid"])
        return started[-1]

    yield start
    for pid in started:
        embed_server.stop_server()
        if not _wait_for(lambda: not _pid_alive(pid), 10):
            os.kill(pid, signal.SIGKILL)


def test_no_server_means_none_and_nothing_started():
    assert os.environ["LOREBOOK_EMBED_SERVER"] == "0"  # conftest
    assert embed_server.embed_query("hello", timeout=0.2) is None
    assert embed_server.query_top_k("hello", timeout=0.2) is None
    time.sleep(0.5)
    assert not embed_server._server_running()
    assert CliRunner().invoke(cli, ["embed-server", "--status"]).output.strip() == "No embedding server is running."


def test_first_call_starts_the_server_and_later_calls_get_real_vectors(store, monkeypatch, server):
    monkeypatch.setenv("LOREBOOK_EMBED_SERVER", "1")
    assert embed_server.embed_query("retry backoff", timeout=0.2) is None  # not there yet: started for next time
    assert _wait_for(lambda: embed_server.ping(0.5) is not None)
    server_pid = embed_server.ping()["pid"]
    try:
        assert embed_server.ensure_server() is False  # one server per lorebook dir
        vector = embed_server.embed_query("retry backoff", timeout=10)
        assert len(vector) == 384
        assert float(np.asarray(vector) @ embed(["retry backoff"])[0]) > 0.999
        # a client asking for another model gets None, not wrong vectors
        assert embed_server.embed_query("retry backoff", timeout=10, model_id="jina-embeddings-v2-small-en") is None
    finally:
        embed_server.stop_server()
        assert _wait_for(lambda: not _pid_alive(server_pid), 20), "the server did not exit when stopped"


def test_query_top_k_in_the_server_matches_in_process(store, server):
    from test_vectors import add_notes, run_index

    ids = add_notes(store)
    assert run_index().exit_code == 0
    server()
    hits = embed_server.query_top_k("my tests cannot import the module", 3, timeout=10)
    expected = vector_top_k(store, embed(["my tests cannot import the module"])[0], 3)
    assert [i for i, _ in hits] == [i for i, _ in expected]
    assert hits[0][0] == ids[2]
    assert np.allclose([s for _, s in hits], [s for _, s in expected], atol=1e-4)
    # sent now, read later: the caller works while the server embeds and ranks, and gets the same hits
    later = embed_server.request_top_k("my tests cannot import the module", 3, timeout=10)
    assert embed(["work done meanwhile"]).shape == (1, 384)
    assert later() == hits
    only = embed_server.query_top_k("my tests cannot import the module", 3, candidate_ids=[ids[0], ids[1]], timeout=10)
    assert {i for i, _ in only} == {ids[0], ids[1]}
    # a note indexed after the server loaded its matrix is found: the cache follows the collection
    new = store.add_note({"title": "Import errors in tests come from a missing conftest rootdir", "project_key": "p"})
    assert run_index().exit_code == 0
    assert new in [i for i, _ in embed_server.query_top_k("tests fail with import errors", 3, timeout=10)]


def test_client_imports_neither_numpy_nor_llm(server):
    server()
    code = ("import sys; from lorebook.embed_server import embed_query; v = embed_query('x', timeout=10); "
            "print(len(v), 'numpy' in sys.modules, 'llm' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "384 False False"


def test_idle_server_exits_by_itself(monkeypatch, server):
    monkeypatch.setenv("LOREBOOK_EMBED_SERVER_IDLE", "2")
    pid = server()
    assert _wait_for(lambda: not _pid_alive(pid), 30), "the idle server is still running"
    assert not embed_server.socket_path().exists()


def test_server_whose_socket_is_removed_exits(server):
    pid = server()
    embed_server.socket_path().unlink()
    assert _wait_for(lambda: not _pid_alive(pid), 30), "an unreachable server kept running"


def test_second_server_refuses_and_cli_stops_the_first(server):
    pid = server()
    result = subprocess.run([sys.executable, "-m", "lorebook", "embed-server"], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 1
    assert "already runs" in result.stderr
    status = CliRunner().invoke(cli, ["embed-server", "--status"])
    assert f"Embedding server pid {pid} serves lorebook-minilm" in status.output
    assert CliRunner().invoke(cli, ["embed-server", "--stop"]).output.strip() == "Stopped the embedding server."
    assert _wait_for(lambda: not _pid_alive(pid), 20)


def test_long_user_dir_gets_a_short_socket_path(tmp_path, monkeypatch):
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    monkeypatch.setenv("LOREBOOK_HOME", str(deep))
    path = embed_server.socket_path()
    assert len(str(path)) <= 100 and str(path).startswith("/tmp/lorebook-")
    monkeypatch.setenv("LOREBOOK_HOME", str(tmp_path / "short"))
    assert embed_server.socket_path() == tmp_path / "short" / "embed.sock" or len(str(tmp_path)) > 80


def test_without_a_server_the_client_does_not_even_import_socket():
    code = ("import sys; from lorebook.embed_server import query_top_k, request_top_k; "
            "print(query_top_k('x', timeout=0.2, start=False), request_top_k('x', start=False)(), "
            "'socket' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "None None False"
