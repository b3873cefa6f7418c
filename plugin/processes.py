"""lorebook's long-lived helpers (the warm MCP parent, the embedding server): which run, and stopping them.

`lorebook doctor` lists them with how to stop each; `lorebook uninstall` stops them.
"""
from __future__ import annotations


def background_processes() -> list[dict]:
    """lorebook's long-lived helpers that run now, each with how to stop it."""
    running = []
    try:
        from . import mcp_warm

        info = mcp_warm.status()
    except Exception:
        info = None
    if info:
        running.append({"name": "warm MCP parent", "pid": info.get("pid"), "stop": "lorebook mcp --stop-warm"})
    from .config import user_dir

    info = None
    if user_dir(create=False).is_dir():  # its socket lives there: no data dir, no server (and none created)
        try:
            from . import embed_server

            info = embed_server.ping()
        except Exception:
            info = None
    if info:
        running.append({"name": "embedding server", "pid": info.get("pid"), "stop": "lorebook embed-server --stop"})
    return running


def stop_background_processes() -> list[str]:
    """Stop lorebook's long-lived helpers (the warm MCP parent, the embedding server): what was stopped."""
    from . import embed_server, mcp_warm

    stopped = []
    for process in background_processes():
        ok = mcp_warm.stop() if process["name"] == "warm MCP parent" else embed_server.stop_server()
        if ok:
            stopped.append(f"{process['name']} (pid {process['pid']})")
    return stopped
