"""The ``lorebook`` console script.

``lorebook hook EVENT`` is what Claude Code runs on every tool call, so it
takes a fast path that never imports click (or anything else it does not
need); every other command goes through the click CLI.
"""
from __future__ import annotations

import gc
import sys


def main(argv: list[str] | None = None) -> int | None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) >= 1 and args[0] == "hook" and not any(a in ("-h", "--help") for a in args[1:]):
        from .dispatch import main_hook

        return main_hook(args[1:])
    # The process is ours (the console script, ``python -m lorebook``): what importing the CLI creates
    # (modules, classes, click's commands) lives until exit, so the collector neither runs while it is
    # built nor walks it again, on every collection and at exit (~30 ms of a ~250 ms ``lorebook write``).
    own_process = argv is None and gc.isenabled()
    if own_process:
        gc.disable()
    try:
        from .cli import cli
    finally:
        if own_process:
            gc.freeze()
            gc.enable()
    return cli.main(args=args, prog_name="lorebook")


if __name__ == "__main__":
    sys.exit(main())
