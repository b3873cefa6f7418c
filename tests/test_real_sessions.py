"""bench/real_sessions.py: an exported session turns back into a transcript the importer reads as Claude Code's."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from lorebook.hooks.transcripts import ImportStats, iter_events

REPO = Path(__file__).resolve().parent.parent

EXPORT = """# Claude Session Export

## Session Information

- **Session ID**: `11111111-2222-3333-4444-555555555555`
- **Project Path**: `/work/demo`

---

## Conversation

### User
> 12/1/2025, 2:35:57 PM

run the tests

---

### Assistant
> 12/1/2025, 2:36:03 PM

[
  {"type": "thinking", "thinking": "plan", "signature": "abc"},
  {"type": "tool_use", "id": "toolu_a", "name": "Bash", "input": {"command": "pytest -q"}}
]

---

### User
> 12/1/2025, 2:36:04 PM

[
  {"tool_use_id": "toolu_a", "type": "tool_result", "content": "Exit code 1\\nE   ModuleNotFoundError: No module named 'demo'", "is_error": true}
]

---

### Assistant
> 12/1/2025, 2:36:09 PM

[
  {"type": "tool_use", "id": "toolu_b", "name": "Bash", "input": {"command": "PYTHONPATH=src pytest -q"}}
]

---

### User
> 12/1/2025, 2:36:10 PM

[
  {"tool_use_id": "toolu_b", "type": "tool_result", "content": "3 passed", "is_error": false}
]

---

### User
> 12/1/2025, 2:36:12 PM

Stop hook feedback:
update the docs

---

### Assistant
> 12/1/2025, 2:36:20 PM

[
  {"type": "text", "text": "The package lives under src/, so pytest needs PYTHONPATH=src."}
]
"""


def load_bench():
    spec = importlib.util.spec_from_file_location("real_sessions", REPO / "bench" / "real_sessions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_export_becomes_a_transcript_in_the_projects_layout(tmp_path):
    bench = load_bench()
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "one.md").write_text(EXPORT)
    meta, messages = bench.read_markdown(raw / "one.md")
    stats = bench.convert(meta, messages, tmp_path / "projects")

    path = tmp_path / "projects" / "-work-demo" / "11111111-2222-3333-4444-555555555555.jsonl"
    assert Path(stats["path"]) == path
    assert (stats["tool_calls"], stats["bash"], stats["failures"], stats["bash_failures"]) == (2, 2, 1, 1)
    lines = [json.loads(raw_line) for raw_line in path.read_text().splitlines()]
    assert all(line["sessionId"] == meta["session"] and line["cwd"] == "/work/demo" for line in lines)
    assert [line["parentUuid"] for line in lines[1:]] == [line["uuid"] for line in lines[:-1]]
    assert not any(block.get("type") == "thinking" for line in lines
                   for block in (line["message"]["content"] if isinstance(line["message"]["content"], list) else []))
    failed = next(line for line in lines if line.get("toolUseResult") and line["message"]["content"][0]["is_error"])
    assert failed["toolUseResult"].startswith("Error: Exit code 1")
    passed = next(line for line in lines if isinstance(line.get("toolUseResult"), dict))
    assert passed["toolUseResult"]["stdout"] == "3 passed"
    feedback = next(line for line in lines if line["message"]["content"] == "Stop hook feedback:\nupdate the docs")
    assert feedback["isMeta"] is True

    events = list(iter_events((raw_line.encode() for raw_line in path.read_text().splitlines()), ImportStats()))
    tools = [details for kind, _line, details in events if kind == "tool"]
    assert [(t["tool_input"]["command"], t["is_error"]) for t in tools] == [
        ("pytest -q", True), ("PYTHONPATH=src pytest -q", False)]
    prompts = [details["text"] for kind, _line, details in events if kind == "prompt"]
    assert prompts == ["run the tests"]  # the hook's feedback is not the user's words
