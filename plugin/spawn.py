"""Start a lorebook process that outlives its caller (a hook, a server): the one way lorebook detaches."""
from __future__ import annotations

import sys


def spawn_detached(args: list[str], module: str = "lorebook", stderr=None) -> bool:
    """Start ``python -m MODULE ARGS`` in its own session with no inherited stdio; never raises.

    ``stderr`` is an open file to log to (default: nowhere). Cheap: a fork and exec, nothing heavy
    imported here. Returns whether the process started."""
    import subprocess  # here: a caller that decides not to spawn never pays for this import

    try:
        subprocess.Popen([sys.executable, "-m", module, *args], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL if stderr is None else stderr,
                         start_new_session=True, close_fds=True)
        return True
    except OSError:
        return False
