"""A warm parent for ``lorebook mcp``: ready in a fraction of a second although the SDK takes ~1.5 s to import.

The first ``lorebook mcp`` serves its client in-process and then starts a
detached warm parent (``python -m lorebook.mcp_warm``) that imports the ``mcp``
SDK and lorebook's server once and listens on a private unix socket. Every
later ``lorebook mcp`` connects to it and hands over its stdin, stdout and
stderr (``SCM_RIGHTS``), its environment and working directory; the warm
parent forks a child that serves the client on those very pipes with the
same SDK server, and ``lorebook mcp`` waits for that child's exit code,
forwarding SIGTERM, SIGINT and SIGHUP to it.

No orphans: the warm parent exits after ``LOREBOOK_MCP_IDLE`` seconds (default
900) without a client, when its socket is removed, or on ``lorebook mcp
--stop-warm``. Its socket name is keyed by the code it runs, so an upgrade
starts a new one. ``LOREBOOK_MCP_WARM=0`` turns all of this off. Unix only.
"""
from __future__ import annotations

import json
import os
import socket
import struct
import sys
import time

IDLE_DEFAULT_S = 900
_HEADER = struct.Struct("!I")


def enabled() -> bool:
    from .config import flag

    return flag("LOREBOOK_MCP_WARM", True) and hasattr(socket, "send_fds") and hasattr(os, "fork")


def _code_key() -> str:
    """Changes whenever the code the warm parent would run changes (lorebook, the SDK, the interpreter)."""
    import hashlib
    import importlib.util

    digest = hashlib.sha1(os.path.realpath(sys.executable).encode())
    here = os.path.dirname(os.path.abspath(__file__))
    for name in sorted(os.listdir(here)):
        if name.endswith(".py"):
            st = os.stat(os.path.join(here, name))
            digest.update(f"{name}:{st.st_mtime_ns}:{st.st_size}".encode())
    spec = importlib.util.find_spec("mcp")
    if spec and spec.origin:
        digest.update(str(os.stat(os.path.dirname(spec.origin)).st_mtime_ns).encode())
    return digest.hexdigest()[:12]


def socket_dir() -> str:
    base = os.environ.get("XDG_RUNTIME_DIR") or "/tmp"
    path = os.path.join(base, f"lorebook-{os.getuid()}")
    os.makedirs(path, mode=0o700, exist_ok=True)
    st = os.stat(path)
    if st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise PermissionError(f"{path} must belong to you and be private (mode 0700)")
    return path


def socket_path() -> str:
    return os.path.join(socket_dir(), f"mcp-{_code_key()}.sock")


def _send(sock: socket.socket, message: dict, fds: list[int] | None = None) -> None:
    data = json.dumps(message).encode()
    frame = _HEADER.pack(len(data)) + data
    if fds:
        socket.send_fds(sock, [frame], fds)
    else:
        sock.sendall(frame)


def _recv_exact(sock: socket.socket, size: int, first: bytes = b"") -> bytes:
    data = first
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the other side closed the socket")
        data += chunk
    return data


def _recv(sock: socket.socket, with_fds: int = 0) -> tuple[dict, list[int]]:
    fds: list[int] = []
    if with_fds:
        data, fds, _, _ = socket.recv_fds(sock, 65536, with_fds)
        if not data:
            raise ConnectionError("the other side closed the socket")
    else:
        data = sock.recv(65536)
        if not data:
            raise ConnectionError("the other side closed the socket")
    head = _recv_exact(sock, _HEADER.size, data[:_HEADER.size]) if len(data) < _HEADER.size else data[:_HEADER.size]
    (size,) = _HEADER.unpack(head)
    body = _recv_exact(sock, size, data[_HEADER.size:])
    return json.loads(body[:size]), fds


def _connect(path: str | None = None, timeout: float = 2.0) -> socket.socket | None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect(path or socket_path())
        return sock
    except OSError:  # nobody listening, or no usable socket dir
        sock.close()
        return None


# --- the client side: `lorebook mcp` -------------------------------------------------------------

def serve_through_warm_parent() -> int | None:
    """Have the warm parent serve this process's stdio; its exit code, or None when there is none to ask."""
    import signal

    if not enabled():
        return None
    try:
        sock = _connect()
    except Exception:  # no usable socket dir (see socket_dir): serve in-process
        return None
    if sock is None:
        return None
    try:
        _send(sock, {"op": "serve", "env": dict(os.environ), "cwd": os.getcwd()}, [0, 1, 2])
        sock.settimeout(10)
        started, _ = _recv(sock)
    except (OSError, ValueError):
        sock.close()
        return None  # nothing was started on our pipes: serve in-process
    child = started["pid"]
    forwarded: list[int] = []

    def forward(signum, frame):
        forwarded.append(signum)
        try:
            os.kill(child, signum)
        except ProcessLookupError:
            pass

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, forward)
    # our own copies of the pipes are not needed any more; the child has its own
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(devnull, fd)
    sock.settimeout(None)
    try:
        ended, _ = _recv(sock)
        return int(ended.get("exit") or 0)
    except (OSError, ValueError):
        # the child was stopped by a signal (ours, forwarded: the usual way a client ends a server) or crashed
        return 128 + forwarded[0] if forwarded else 1


def _lock(path: str):
    """The warm parent's lock file, held for its whole life; None when another process holds it."""
    from .files import FileLock

    lock = FileLock(path + ".lock")
    return lock if lock.acquire(blocking=False) else None


def start_warm_parent() -> None:
    """Start a detached warm parent unless one is running or starting (called once this server is up)."""
    if not enabled():
        return
    try:
        lock = _lock(socket_path())
    except OSError:  # no usable socket dir: every server imports the SDK itself
        return
    if lock is None:
        return  # a warm parent holds it: running, or still importing
    lock.release()
    from .config import user_dir

    log_dir = user_dir() / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    from .spawn import spawn_detached

    with open(log_dir / "mcp-warm.log", "a") as log:
        spawn_detached([], module="lorebook.mcp_warm", stderr=log)


def status() -> dict | None:
    """The warm parent's pid, socket and number of children, or None when none is listening."""
    try:
        sock = _connect()
    except OSError:
        return None
    if sock is None:
        return None
    with sock:
        _send(sock, {"op": "status"})
        return _recv(sock)[0]


def stop() -> bool:
    """Ask the warm parent to exit (its children finish serving their clients); False if none was listening."""
    try:
        sock = _connect()
    except OSError:
        return False
    if sock is None:
        return False
    with sock:
        _send(sock, {"op": "stop"})
        try:
            _recv(sock)
        except (OSError, ValueError):
            pass
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        probe = _connect(timeout=0.2)
        if probe is None:
            break
        probe.close()
        time.sleep(0.05)
    return True


# --- the warm parent ----------------------------------------------------------------------------

def _child(conn: socket.socket, listener: socket.socket, message: dict, fds: list[int]) -> None:
    """In the forked child: adopt the client's stdio, environment and directory, then serve it."""
    code = 0
    try:
        listener.close()
        for fd, target in zip(fds, (0, 1, 2)):
            os.dup2(fd, target)
            os.close(fd)
        os.environ.clear()
        os.environ.update(message["env"])
        os.chdir(message["cwd"])
        _send(conn, {"pid": os.getpid()})
        from .mcp_server import serve

        serve()
    except SystemExit as ex:
        code = ex.code if isinstance(ex.code, int) else (0 if ex.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    try:
        _send(conn, {"exit": code})
    except OSError:
        pass
    os._exit(code)


def run(idle: float | None = None) -> None:
    """Import the server once, then fork a child per client until idle for ``idle`` seconds."""
    import select

    idle = float(idle if idle is not None else os.environ.get("LOREBOOK_MCP_IDLE") or IDLE_DEFAULT_S)
    path = socket_path()
    lock = _lock(path)
    if lock is None:
        return  # another warm parent runs or is starting
    # everything a child needs, imported once here: the SDK and lorebook's server and library
    from . import mcp_server

    mcp_server.build_server()
    mcp_server.warm_imports()
    import anyio  # noqa: F401
    from mcp.server.stdio import stdio_server  # noqa: F401

    if os.path.exists(path):
        os.unlink(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    os.chmod(path, 0o600)
    listener.listen(32)
    inode = os.stat(path).st_ino
    children: set[int] = set()
    last_active = last_code_check = time.monotonic()
    try:
        while True:
            for pid in list(children):
                try:
                    done, _ = os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    done = pid
                if done:
                    children.discard(pid)
                    last_active = time.monotonic()
            try:
                if os.stat(path).st_ino != inode:
                    return  # replaced by another warm parent
            except FileNotFoundError:
                return
            now = time.monotonic()
            if not children and now - last_active > idle:
                return
            if not children and now - last_code_check > 10:
                last_code_check = now
                if socket_path() != path:
                    return  # lorebook or the SDK changed on disk: the next client starts a fresh parent
            readable, _, _ = select.select([listener], [], [], 1.0)
            if not readable:
                continue
            conn, _ = listener.accept()
            try:
                creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
                _, uid, _ = struct.unpack("3i", creds)
                if uid != os.getuid():
                    conn.close()
                    continue
                conn.settimeout(5)
                message, fds = _recv(conn, with_fds=3)
            except (OSError, ValueError):
                conn.close()
                continue
            last_active = time.monotonic()
            op = message.get("op")
            if op == "status":
                _send(conn, {"pid": os.getpid(), "children": len(children), "socket": path, "idle_s": idle})
                conn.close()
            elif op == "stop":
                if os.stat(path).st_ino == inode:
                    os.unlink(path)  # no new client can reach a parent that is going away
                _send(conn, {"stopping": True})
                conn.close()
                return
            elif op == "serve" and len(fds) == 3:
                pid = os.fork()
                if pid == 0:
                    lock.release()
                    _child(conn, listener, message, fds)
                children.add(pid)
                for fd in fds:
                    os.close(fd)
                conn.close()
            else:
                for fd in fds:
                    os.close(fd)
                conn.close()
    finally:
        for leftover in (path, path + ".lock"):
            try:
                if leftover != path or os.stat(path).st_ino == inode:
                    os.unlink(leftover)
            except FileNotFoundError:
                pass
        listener.close()
        lock.release()


if __name__ == "__main__":
    run()
