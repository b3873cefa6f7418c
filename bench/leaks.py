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
import sqlite3
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import lessons  # noqa: E402  (the bench's own player and sessions)

CANARY = "lorebook-leak-canary-7f3a9c2e5d1b"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default="all", help="Which labelled sessions (default: all of them).")
    args = parser.parse_args()
    sessions = [s for s in lessons.load(args.set) if s.get("secrets")]
    with tempfile.TemporaryDirectory(prefix="lorebook-leaks-") as tmp:
        player = lessons.Player(Path(tmp))
        for session in sessions:
            player.play(session)
        with sqlite3.connect(player.home / "lorebook.db") as db:  # (the control: text stored in the database)
            db.execute("CREATE TABLE leak_canary (value TEXT)")
            db.execute("INSERT INTO leak_canary VALUES (?)", (CANARY,))
        files = [(p, p.read_bytes()) for p in player.home.rglob("*") if p.is_file()]
        leaks = sorted({(s["id"], secret[:6] + "…", str(p.relative_to(player.home)))
                        for s in sessions for secret in s["secrets"] for p, data in files
                        if secret.encode("utf-8") in data})
        control = any(CANARY.encode() in data for _, data in files)
    for session_id, secret, where in leaks:
        print(f"LEAK {session_id}: {secret} in {where}")
    print(json.dumps({"sessions": len(sessions), "secrets": sum(len(s["secrets"]) for s in sessions),
                      "files": len(files), "leaks": len(leaks), "control_found": control,
                      "where": [list(leak) for leak in leaks[:10]], "targets": {"leaks": 0, "control_found": True}}))
    if leaks or not control:
        sys.exit(1)


if __name__ == "__main__":
    os.environ.pop("LOREBOOK_HOME", None)
    main()
