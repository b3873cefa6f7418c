"""Run the hook dispatcher in-process, the way Claude Code runs `lorebook hook EVENT`."""
import io
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))
from lessons import _rewrite_patch  # noqa: E402  (a file written again, as Claude Code reports it)


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


class PlayedSession:
    """A session played through the real dispatcher, one tool call at a time (Bash, Read, Edit, Write, then Stop)."""

    def __init__(self, sid, cwd, prompt=None):
        self.sid, self.cwd, self.n, self.message, self.written = sid, cwd, 0, None, {}
        self.base = {"session_id": sid, "cwd": str(cwd), "transcript_path": f"/tmp/{sid}.jsonl"}
        run_hook("session-start", dict(self.base, source="startup"))
        if prompt:
            run_hook("user-prompt-submit", dict(self.base, prompt=prompt))

    def _id(self):
        self.n += 1
        return f"{self.sid}-{self.n}"

    def fail(self, command, error):
        run_hook("post-tool-use-failure", dict(self.base, tool_name="Bash", tool_use_id=self._id(),
                                               tool_input={"command": command}, error=error))
        return self

    def ok(self, command, out="ok"):
        run_hook("post-tool-use", dict(self.base, tool_name="Bash", tool_use_id=self._id(),
                                       tool_input={"command": command}, tool_response={"stdout": out, "stderr": ""}))
        return self

    def edit(self, path, old, new):
        full = f"{self.cwd}/{path}"
        run_hook("post-tool-use", dict(self.base, tool_name="Edit", tool_use_id=self._id(),
                                       tool_input={"file_path": full, "old_string": old, "new_string": new},
                                       tool_response={"filePath": full}))
        return self

    def read(self, path, content="..."):
        full = f"{self.cwd}/{path}"
        run_hook("post-tool-use", dict(self.base, tool_name="Read", tool_use_id=self._id(),
                                       tool_input={"file_path": full},
                                       tool_response={"type": "text", "file": {"filePath": full, "content": content}}))
        return self

    def write(self, path, content):
        full = f"{self.cwd}/{path}"
        before = self.written.get(path)
        run_hook("post-tool-use", dict(self.base, tool_name="Write", tool_use_id=self._id(),
                                       tool_input={"file_path": full, "content": content},
                                       tool_response={"type": "create", "filePath": full, "content": content}
                                       if before is None else
                                       {"type": "update", "filePath": full, "content": content,
                                        "structuredPatch": _rewrite_patch(before, content), "originalFile": before}))
        self.written[path] = content
        return self

    def stop(self, message):
        run_hook("stop", dict(self.base, stop_hook_active=False, last_assistant_message=message))
        self.message = message
        return self
