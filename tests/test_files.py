"""files: the one file lock (and atomic JSON write) that lorebook's processes share."""
import os
import subprocess
import sys
import textwrap

import pytest

from lorebook.files import FileLock, is_locked

HOLD = textwrap.dedent("""
    import sys, time
    from lorebook.files import FileLock
    lock = FileLock(sys.argv[1], record_pid=True)
    assert lock.acquire(blocking=False)
    print("held", flush=True)
    sys.stdin.readline()
""")


@pytest.fixture
def held(tmp_path):
    """A lock file held by another process until the test ends."""
    path = tmp_path / "x.lock"
    child = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    assert child.stdout.readline().strip() == "held"
    yield path, child
    child.stdin.close()
    child.wait(timeout=60)


def test_a_held_lock_is_refused_and_names_its_holder(held):
    path, child = held
    lock = FileLock(path)
    assert lock.acquire(blocking=False) is False
    assert lock.holder() == str(child.pid)
    assert is_locked(path) is True


def test_a_lock_is_free_again_when_its_holder_dies(held):
    path, child = held
    child.kill()
    child.wait(timeout=60)  # its files are closed once it is reaped: the kernel has dropped the flock
    lock = FileLock(path)
    assert lock.acquire(blocking=False) is True
    lock.release()


def test_release_lets_the_next_one_in_and_the_probe_does_not_take_it(tmp_path):
    path = tmp_path / "y.lock"
    assert is_locked(path) is False
    first, second = FileLock(path, record_pid=True), FileLock(path)
    assert first.acquire(blocking=False) and first.holder() == str(os.getpid())
    assert second.acquire(blocking=False) is False  # flock: two opens of one file exclude each other, same process too
    first.release()
    assert is_locked(path) is False
    with second:
        assert is_locked(path) is True
    assert is_locked(path) is False


def test_a_lock_in_a_missing_directory_raises_and_the_probe_says_unlocked(tmp_path):
    path = tmp_path / "missing" / "z.lock"
    with pytest.raises(OSError):
        FileLock(path).acquire()
    assert is_locked(path) is False


def test_an_atomic_json_write_replaces_the_file_and_keeps_its_mode(tmp_path):
    import json

    from lorebook.files import write_json_atomic

    path = tmp_path / "sub" / "settings.json"
    write_json_atomic(path, {"a": 1, "ü": "ß"}, private=False)
    assert json.loads(path.read_text("utf-8")) == {"a": 1, "ü": "ß"} and path.read_text("utf-8").endswith("}\n")
    assert path.stat().st_mode & 0o777 == 0o666 & ~_umask()
    path.chmod(0o640)
    write_json_atomic(path, {"a": 2})
    assert json.loads(path.read_text()) == {"a": 2}
    assert path.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]


def test_a_new_private_file_is_its_owners_only(tmp_path):
    from lorebook.files import write_json_atomic

    path = tmp_path / "x.corpus.json"
    write_json_atomic(path, {"notes": []})
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_failed_atomic_write_leaves_the_old_file_and_no_temp_file(tmp_path):
    from lorebook.files import write_json_atomic

    path = tmp_path / "keep.json"
    path.write_text('{"old": true}\n')
    with pytest.raises(TypeError):
        write_json_atomic(path, {("not", "a", "key"): 1})
    assert path.read_text() == '{"old": true}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["keep.json"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
