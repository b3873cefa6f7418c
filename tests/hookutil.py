"""Run the hook dispatcher in-process, the way Claude Code runs `lorebook hook EVENT`."""
import io
import json
import sys


def run_hook(event, payload, monkeypatch=None):
    """Call the dispatcher with ``payload`` (dict, str or bytes) on stdin; return (exit code, parsed stdout)."""
    from lorebook.dispatch import main_hook

    if isinstance(payload, (dict, list)):
        raw = json.dumps(payload).encode()
    elif isinstance(payload, str):
        raw = payload.encode()
    else:
        raw = payload
    stdin, stdout = sys.stdin, sys.stdout
    sys.stdin = io.TextIOWrapper(io.BytesIO(raw))
    sys.stdout = io.StringIO()
    try:
        code = main_hook([event])
        out = sys.stdout.getvalue()
    finally:
        sys.stdin, sys.stdout = stdin, stdout
    lines = [l for l in out.splitlines() if l.strip()]
    assert len(lines) == 1, f"expected exactly one JSON line, got {out!r}"
    return code, json.loads(lines[0])


def context_of(output):
    return (output.get("hookSpecificOutput") or {}).get("additionalContext", "")
