"""A warm embedding process for the hook path: one loaded model, reached over a unix socket.

A hook process has ~150 ms. Importing numpy and loading the model costs more
than that on its own (see bench/embeddings.py), so the hook asks a local
server instead: :func:`embed_query` and :func:`query_top_k` use only the
standard library (no numpy, no llm) and return ``None`` when the server is
not there, after starting it in the background for the next call — the
caller answers lexically meanwhile and says so.

The server (``lorebook embed-server``, started by lorebook itself) holds the
model and the note matrix, serves one request at a time, and exits after
``LOREBOOK_EMBED_SERVER_IDLE`` seconds without requests (default 600), when
its socket file is removed or replaced, or on ``lorebook embed-server --stop``.
One server per user dir (a file lock); ``LOREBOOK_EMBED_SERVER=0`` turns
auto-start off.

Protocol: one JSON object per line each way.
``{"op": "embed", "text", "model"}`` → ``{"vector": [...]}``;
``{"op": "top_k", "text", "k", "candidate_ids", "model"}`` → ``{"hits": [[id, score], ...]}``;
``{"op": "ping"}`` → ``{"ok": true, "pid", "model"}``; ``{"op": "stop"}``; errors → ``{"error": "..."}``.
"""
from __future__ import annotations

import json
import os
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path
    from typing import Callable

DEFAULT_IDLE_S = 600.0
IDLE_ENV = "LOREBOOK_EMBED_SERVER_IDLE"
ENABLE_ENV = "LOREBOOK_EMBED_SERVER"
MAX_MESSAGE = 8 * 1024 * 1024
_SUN_PATH_MAX = 100  # sockaddr_un holds 104-108 bytes


def _user_dir() -> str:
    from .config import user_dir_str

    return user_dir_str()


def _socket_file() -> str:
    """:func:`socket_path` as a string, without pathlib (the hook path asks the server)."""
    home = _user_dir()
    path = os.path.join(home, "embed.sock")
    if len(os.fsencode(path)) <= _SUN_PATH_MAX:
        return path
    import hashlib

    digest = hashlib.sha256(os.fsencode(os.path.realpath(home))).hexdigest()[:16]
    return os.path.join("/tmp", f"lorebook-{os.getuid()}-{digest}.sock")


def socket_path() -> "Path":
    """The server's socket: in the user dir, or under /tmp when that path is too long for a unix socket."""
    from pathlib import Path

    return Path(_socket_file())


def _lock_path() -> str:
    return os.path.join(_user_dir(), "embed-server.lock")


def _model_id() -> str:
    return (os.environ.get("LOREBOOK_EMBED_MODEL") or "").strip() or "lorebook-minilm"


def auto_start_enabled() -> bool:
    from .config import flag

    return flag(ENABLE_ENV, True)


# --- client: standard library only ---------------------------------------------------


def _send(message: dict, timeout: float) -> Callable[[], dict | None]:
    """Send ``message`` now; the function returned waits for the reply (None: no server, too slow, an error).

    It waits at most ``timeout`` from when it is called, so a caller that works while the server answers
    gives the server more time than a request that waits at once, never less."""
    path = _socket_file()
    if not os.path.exists(path):  # no server: not even the socket module is needed
        return lambda: None
    import socket

    started = time.monotonic()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(max(0.001, timeout))
        sock.connect(path)
        sock.sendall(json.dumps(message).encode("utf-8") + b"\n")
    except OSError:
        sock.close()
        return lambda: None
    sending = time.monotonic() - started

    def receive() -> dict | None:
        deadline = time.monotonic() + timeout - sending  # called at once: ``timeout`` in all, as it always was
        try:
            with sock:
                chunks = []
                while True:
                    sock.settimeout(max(0.001, deadline - time.monotonic()))
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    chunks.append(chunk)
                    if chunk.endswith(b"\n"):
                        break
            reply = json.loads(b"".join(chunks) or b"null")
            return reply if isinstance(reply, dict) else None
        except (OSError, ValueError):
            return None

    return receive


def _request(message: dict, timeout: float) -> dict | None:
    return _send(message, timeout)()


def start_server() -> bool:
    """Start ``lorebook embed-server`` detached (new session, no inherited stdio); never raises."""
    from .spawn import spawn_detached

    return spawn_detached(["embed-server"])


def _ask(message: dict, timeout: float, start: bool) -> Callable[[], dict | None]:
    """Send now, read later; when no reply comes, the server is started for the next call."""
    receive = _send(message, timeout)

    def answer() -> dict | None:
        reply = receive()
        if reply is None and start and auto_start_enabled() and not _server_running():
            start_server()
        return reply

    return answer


def _server_running() -> bool:
    """True when a server holds the lock (starting up or serving): no second one is needed."""
    from .files import is_locked

    return is_locked(_lock_path())


def embed_query(text: str, timeout: float = 0.5, model_id: str | None = None, start: bool = True) -> list[float] | None:
    """The query's vector from the warm server, or None (not running — then started for next time —,
    too slow, another model, or an error). Imports neither numpy nor llm."""
    reply = _ask({"op": "embed", "text": text, "model": model_id or _model_id()}, timeout, start)()
    vector = (reply or {}).get("vector")
    return vector if isinstance(vector, list) else None


def request_top_k(text: str, k: int = 10, candidate_ids=None, timeout: float = 0.5, model_id: str | None = None,
                  start: bool = True) -> Callable[[], list[tuple[int, float]] | None]:
    """Send a top-k request now; the function returned waits for its hits (as :func:`query_top_k` returns
    them). The server embeds and ranks while the caller does its own work: one round trip, overlapped."""
    message = {"op": "top_k", "text": text, "k": int(k), "model": model_id or _model_id(),
               "candidate_ids": None if candidate_ids is None else [int(i) for i in candidate_ids]}
    answer = _ask(message, timeout, start)

    def hits() -> list[tuple[int, float]] | None:
        found = (answer() or {}).get("hits")
        if not isinstance(found, list):
            return None
        return [(int(i), float(s)) for i, s in found]

    return hits


def query_top_k(text: str, k: int = 10, candidate_ids=None, timeout: float = 0.5, model_id: str | None = None,
                start: bool = True) -> list[tuple[int, float]] | None:
    """Embed ``text`` and rank the notes in the server: [(note id, cosine)], best first; None as for embed_query."""
    return request_top_k(text, k, candidate_ids, timeout, model_id, start)()


def ensure_server() -> bool:
    """Start the server if it is not running (e.g. at SessionStart, so that the first prompt finds it warm)."""
    if not auto_start_enabled() or _server_running():
        return False
    return start_server()


def ping(timeout: float = 0.5) -> dict | None:
    return _request({"op": "ping"}, timeout)


def stop_server(timeout: float = 2.0) -> bool:
    """Ask the server to exit; True if one answered."""
    return _request({"op": "stop"}, timeout) is not None


# --- server ------------------------------------------------------------------------------


class EmbedServer:
    """Serves embed / top_k requests from one loaded model until idle, stopped or orphaned."""

    def __init__(self, idle_timeout: float | None = None, model_id: str | None = None):
        if idle_timeout is None:
            try:
                idle_timeout = float(os.environ.get(IDLE_ENV) or DEFAULT_IDLE_S)
            except ValueError:
                idle_timeout = DEFAULT_IDLE_S
        self.idle_timeout = idle_timeout
        self.model_id = model_id or _model_id()
        self.path = socket_path()
        self._lock = None
        self._sock = None
        self._store = None
        self._inode = None
        self._lock_file = str(_lock_path())

    def _take_lock(self) -> bool:
        from .files import FileLock

        self._lock = FileLock(self._lock_file, record_pid=True)
        if not self._lock.acquire(blocking=False):
            self._lock = None
            return False
        return True

    def serve(self) -> int:
        """Run until idle or stopped. Returns 0, or 1 when another server already runs for this user dir."""
        if not self._take_lock():
            return 1
        import socket

        # one BLAS thread for the server's whole life: switching OpenBLAS between 1 thread (the model's
        # small matmuls) and 2 (top-k) on every request costs more than the second thread gains
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        os.environ.setdefault("OMP_NUM_THREADS", "1")
        try:
            from .embeddings import embed

            try:
                from threadpoolctl import threadpool_limits

                self._blas_limit = threadpool_limits(limits=1, user_api="blas")  # numpy may be loaded already
            except Exception:
                pass

            embed(["warm up"], self.model_id)  # load before listening: the first client gets a fast answer
            try:
                self.path.unlink()
            except FileNotFoundError:
                pass
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            old_umask = os.umask(0o077)  # the socket is the user's only
            try:
                self._sock.bind(str(self.path))
            finally:
                os.umask(old_umask)
            self._inode = os.stat(self.path).st_ino
            self._sock.listen(16)
            self._sock.settimeout(1.0)
            last = time.monotonic()
            while True:
                try:
                    conn, _ = self._sock.accept()
                except socket.timeout:
                    if time.monotonic() - last > self.idle_timeout or self._orphaned():
                        break
                    continue
                last = time.monotonic()
                with conn:
                    if self._handle(conn) == "stop":
                        break
            return 0
        finally:
            self.close()

    def _orphaned(self) -> bool:
        """The socket file was removed or replaced, or the user dir is gone: nobody needs us any more."""
        if not os.path.exists(self._lock_file):
            return True
        try:
            return os.stat(self.path).st_ino != self._inode
        except OSError:
            return True

    def _handle(self, conn) -> str | None:
        conn.settimeout(5.0)
        data = b""
        try:
            while not data.endswith(b"\n") and len(data) < MAX_MESSAGE:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                data += chunk
            request = json.loads(data or b"null")
            reply, action = self._answer(request if isinstance(request, dict) else {})
        except Exception as ex:  # a bad request must not kill the server
            reply, action = {"error": f"{type(ex).__name__}: {ex}"}, None
        try:
            conn.sendall(json.dumps(reply).encode("utf-8") + b"\n")
        except OSError:
            pass
        return action

    def _answer(self, request: dict) -> tuple[dict, str | None]:
        op = request.get("op")
        if op == "ping":
            return {"ok": True, "pid": os.getpid(), "model": self.model_id}, None
        if op == "stop":
            return {"ok": True, "stopping": True}, "stop"
        model = request.get("model") or self.model_id
        if model != self.model_id:
            return {"error": f"this server runs {self.model_id}, not {model}"}, None
        from .embeddings import embed

        text = request.get("text")
        if not isinstance(text, str):
            return {"error": "text must be a string"}, None
        vector = embed([text], self.model_id)[0]
        if op == "embed":
            return {"vector": [float(x) for x in vector]}, None
        if op == "top_k":
            from .vectors import COLLECTION, vector_top_k

            store = self._get_store()
            info = store.vector_collection(COLLECTION)
            if info is None:
                return {"hits": []}, None
            if info["model"] != self.model_id:
                return {"error": f"the notes were embedded with {info['model']}; run 'lorebook index'"}, None
            hits = vector_top_k(store, vector, int(request.get("k") or 10), request.get("candidate_ids"))
            return {"hits": [[i, s] for i, s in hits]}, None
        return {"error": f"unknown op {op!r}"}, None

    def _get_store(self):
        if self._store is None:
            from .store import Store

            self._store = Store()
        return self._store

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
            try:
                if os.stat(self.path).st_ino == self._inode:
                    self.path.unlink()
            except OSError:
                pass
        if self._store is not None:
            self._store.close()
            self._store = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None
