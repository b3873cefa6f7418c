"""Does a secret reach the disk? Every labelled bench session that holds a secret is played through the real hook
processes, then each secret's bytes are looked for in every file lorebook left under its home: the SQLite
database and its WAL, the spool, the logs, the index.

    python bench/leaks.py [--set all|blindN|…]

A control shows the search can find what it looks for: a canary string is written into the database itself (a
table of its own, committed) before the search, and must be found. Prints its figures as JSON on the last line.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import lessons  # noqa: E402  (the bench's own player and sessions)

CANARY = "lorebook-leak-canary-7f3a9c2e5d1b"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default="all", help="Which labelled sessions (default: all of them).")
    args = parser.parse_args()
    sessions = [s for s in lessons.load(args.set) if s.get("secrets")]
    tmp = Path(tempfile.mkdtemp(prefix="lorebook-leaks-"))
    try:
        player = lessons.Player(tmp)
        for session in sessions:
            player.play(session)
        _settle(player.home)  # (the Stop hook's detached index and writeback write after it returns)
        with sqlite3.connect(player.home / "lorebook.db") as db:  # (the control: text stored in the database)
            db.execute("CREATE TABLE leak_canary (value TEXT)")
            db.execute("INSERT INTO leak_canary VALUES (?)", (CANARY,))
        files = [(p, p.read_bytes()) for p in player.home.rglob("*") if p.is_file()]  # (settled: nothing moves now)
        leaks = sorted({(s["id"], secret[:6] + "…", str(p.relative_to(player.home)))
                        for s in sessions for secret in s["secrets"] for p, data in files
                        if secret.encode("utf-8") in data})
        control = any(CANARY.encode() in data for _, data in files)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for session_id, secret, where in leaks:
        print(f"LEAK {session_id}: {secret} in {where}")
    print(json.dumps({"sessions": len(sessions), "secrets": sum(len(s["secrets"]) for s in sessions),
                      "files": len(files), "leaks": len(leaks), "control_found": control,
                      "where": [list(leak) for leak in leaks[:10]], "targets": {"leaks": 0, "control_found": True}}))
    if leaks or not control:
        sys.exit(1)


def _settle(home: Path, quiet: float = 3.0, limit: float = 120.0) -> None:
    """Wait until no file under ``home`` has changed for ``quiet`` seconds (at most ``limit``)."""
    def state():
        seen = []
        for p in home.rglob("*"):
            try:
                stat = p.stat()
            except OSError:  # (a file removed as it was listed: a change)
                continue
            seen.append((str(p), stat.st_size, stat.st_mtime_ns))
        return sorted(seen)

    start, last, since = time.monotonic(), state(), time.monotonic()
    while time.monotonic() - start < limit and time.monotonic() - since < quiet:
        time.sleep(0.5)
        now = state()
        if now != last:
            last, since = now, time.monotonic()


if __name__ == "__main__":
    os.environ.pop("LOREBOOK_HOME", None)
    main()
