"""Real Claude Code sessions exported by third-party tools, turned back into transcripts and learned from.

    python bench/real_sessions.py RAW_DIR OUT_DIR [--import]

Public exports of real sessions keep what Claude Code did but not its transcript
format. This turns each export in RAW_DIR into a transcript shaped as Claude
Code writes it, under OUT_DIR/<encoded-cwd>/<sessionId>.jsonl (the
~/.claude/projects layout), so `lorebook import` reads it as it reads a user's
history. With --import it then runs `lorebook import OUT_DIR --json` (learning
on) in a throwaway LOREBOOK_HOME and prints every receipt and note.

Inputs, one file per session:
- ``*.md``: a "Claude Session Export" markdown file (### User / ### Assistant
  sections, each a timestamp line ``> 11/30/2025, 11:38:19 PM`` then plain text
  or the message's JSON content-block array);
- ``*.jsonl``: a condensed transcription, one event a line: ``{"meta": {session,
  cwd}}``, ``{"ts", "user"}``, ``{"ts", "text"}``, ``{"ts", "tool", "input",
  "result", "error"}`` (``error`` set marks a failed call; ``result`` null means
  none was recorded).

Output lines carry ``type`` user/assistant, ``uuid``, ``parentUuid``,
``sessionId``, ISO ``timestamp``, ``cwd``, ``version``, ``message {role,
content}`` with one content block per line; tool_use ids matched by
``tool_result.tool_use_id``; ``is_error`` on failures; ``toolUseResult`` where
Claude Code adds one (Bash stdout, Edit structuredPatch, Write, Read file), and
``isMeta`` on Stop-hook feedback. Thinking blocks are dropped (signatures only).
The data stays out of the repository; this script holds none of it.
The JSON summary is the last line.
"""
from __future__ import annotations


import difflib
import json
import re
import sys
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path

VERSION = "2.0.55"
_NS = uuid.UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8")


def encoded(cwd: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "-", cwd)


def _iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def _parse_time(text: str | None) -> datetime | None:
    if not text:
        return None
    text = text.strip()
    for fmt in ("%m/%d/%Y, %I:%M:%S %p",):
        try:
            return datetime.strptime(text, fmt).replace(tzinfo=timezone.utc)
        except ValueError:
            pass
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


# --- reading the exports -------------------------------------------------------------------------

def read_markdown(path: Path) -> tuple[dict, list[dict]]:
    """(meta, messages) of a markdown export; each message is {role, ts, content}."""
    text = path.read_text(encoding="utf-8", errors="replace")
    meta = {}
    m = re.search(r"\*\*Session ID\*\*: `([^`]+)`", text)
    if m:
        meta["session"] = m.group(1)
    m = re.search(r"\*\*Project Path\*\*: `([^`]+)`", text)
    if m:
        meta["cwd"] = m.group(1)
    body = text.split("## Conversation", 1)[-1]
    messages = []
    parts = re.split(r"\n### (User|Assistant)\n", "\n" + body)
    for role, section in zip(parts[1::2], parts[2::2]):
        section = re.sub(r"\n---\s*$", "", section.rstrip())
        ts = None
        m = re.match(r"\s*> ([^\n]+)\n", section)
        if m:
            ts = _parse_time(m.group(1))
            section = section[m.end():]
        section = section.strip()
        content: object = section
        if section.startswith("["):
            try:
                content = json.loads(section)
            except ValueError:
                content = section
        messages.append({"role": role.lower(), "ts": ts, "content": content})
    return meta, messages


def read_condensed(path: Path) -> tuple[dict, list[dict]]:
    """(meta, messages) of a condensed transcription, in the markdown reader's shape."""
    meta: dict = {}
    messages: list[dict] = []
    counter = 0
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip():
            continue
        event = json.loads(raw)
        if "meta" in event:
            meta = event["meta"]
            continue
        ts = _parse_time(event.get("ts"))
        if "user" in event:
            messages.append({"role": "user", "ts": ts, "content": event["user"]})
        elif "text" in event:
            messages.append({"role": "assistant", "ts": ts, "content": [{"type": "text", "text": event["text"]}]})
        elif "tool" in event:
            counter += 1
            tool_id = "toolu_" + uuid.uuid5(_NS, f"{path.name}:{counter}").hex[:24]
            messages.append({"role": "assistant", "ts": ts, "content": [
                {"type": "tool_use", "id": tool_id, "name": event["tool"], "input": event.get("input") or {}}]})
            if event.get("result") is not None:
                failed = bool(event.get("error"))
                messages.append({"role": "user", "ts": ts, "content": [
                    {"tool_use_id": tool_id, "type": "tool_result", "content": event["result"],
                     "is_error": failed}]})
    return meta, messages


# --- writing Claude Code lines -------------------------------------------------------------------

def _patch(old: str, new: str) -> list[dict]:
    """A Claude Code structuredPatch (hunks of ' '/'-'/'+' lines) for replacing ``old`` by ``new``."""
    a, b = old.splitlines(), new.splitlines()
    hunks = []
    for group in difflib.SequenceMatcher(None, a, b).get_grouped_opcodes(3):
        lines = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines += [" " + l for l in a[i1:i2]]
            else:
                lines += ["-" + l for l in a[i1:i2]] + ["+" + l for l in b[j1:j2]]
        first, last = group[0], group[-1]
        hunks.append({"oldStart": first[1] + 1, "oldLines": last[2] - first[1],
                      "newStart": first[3] + 1, "newLines": last[4] - first[3], "lines": lines})
    return hunks


def _result_text(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict))
    return ""


def tool_use_result(name: str, tool_input: dict, block: dict):
    """What Claude Code writes as ``toolUseResult`` beside a tool_result (None where it writes none)."""
    text = _result_text(block.get("content"))
    if block.get("is_error"):
        return f"Error: {text}"
    if name == "Bash":
        return {"stdout": text, "stderr": "", "interrupted": False, "isImage": False}
    if name in ("Edit", "MultiEdit"):
        edits = tool_input.get("edits") or [tool_input]
        hunks = []
        for e in edits:
            hunks += _patch(str(e.get("old_string") or ""), str(e.get("new_string") or ""))
        return {"filePath": tool_input.get("file_path"), "oldString": tool_input.get("old_string"),
                "newString": tool_input.get("new_string"), "structuredPatch": hunks,
                "userModified": False, "replaceAll": bool(tool_input.get("replace_all"))}
    if name == "Write":
        return {"type": "create", "filePath": tool_input.get("file_path"),
                "content": tool_input.get("content"), "structuredPatch": []}
    if name == "Read":
        lines = text.count("\n") + 1 if text else 0
        return {"type": "text", "file": {"filePath": tool_input.get("file_path"), "content": text,
                                         "numLines": lines, "startLine": 1, "totalLines": lines}}
    return None


def convert(meta: dict, messages: list[dict], out_dir: Path) -> dict:
    session = meta.get("session") or str(uuid.uuid4())
    cwd = meta.get("cwd") or "/"
    target = out_dir / encoded(cwd) / f"{session}.jsonl"
    target.parent.mkdir(parents=True, exist_ok=True)
    uses: dict[str, dict] = {}
    parent = None
    last_ts = datetime(2025, 1, 1, tzinfo=timezone.utc)
    lines = []
    stats = {"session": session, "cwd": cwd, "tool_calls": 0, "failures": 0, "bash": 0, "bash_failures": 0,
             "prompts": 0, "path": str(target)}
    for message in messages:
        ts = message["ts"] or last_ts
        if ts <= last_ts:
            ts = last_ts + timedelta(milliseconds=1)
        last_ts = ts
        content = message["content"]
        blocks = content if isinstance(content, list) else [content]
        for block in blocks:
            if isinstance(block, dict) and block.get("type") in ("thinking", "redacted_thinking"):
                continue  # signatures only; the text adds nothing the importer reads
            me = str(uuid.uuid5(_NS, f"{session}:{len(lines)}"))
            line = {"parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": cwd,
                    "sessionId": session, "version": VERSION, "gitBranch": "", "type": message["role"],
                    "uuid": me, "timestamp": _iso(ts)}
            if message["role"] == "assistant":
                line["message"] = {"id": "msg_" + me.replace("-", "")[:24], "type": "message", "role": "assistant",
                                   "model": "claude-opus-4-5-20251101", "content": [block], "stop_reason": None,
                                   "stop_sequence": None}
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    uses[block["id"]] = block
                    stats["tool_calls"] += 1
                    stats["bash"] += block.get("name") == "Bash"
            else:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    use = uses.get(block.get("tool_use_id"), {})
                    block = dict(block, content=_result_text(block.get("content")))
                    line["message"] = {"role": "user", "content": [block]}
                    result = tool_use_result(use.get("name", ""), use.get("input") or {}, block)
                    if result is not None:
                        line["toolUseResult"] = result
                    if use:
                        line["sourceToolAssistantUUID"] = use.get("_line")
                    if block.get("is_error"):
                        stats["failures"] += 1
                        stats["bash_failures"] += use.get("name") == "Bash"
                else:
                    text = block if isinstance(block, str) else _result_text([block])
                    line["message"] = {"role": "user", "content": text}
                    if text.startswith("Stop hook feedback:"):  # Claude Code marks hook feedback as meta, not the user's words
                        line.update(isMeta=True, rowSource="hook", hookText=True)
                    line["promptId"] = str(uuid.uuid5(_NS, f"{session}:prompt:{len(lines)}"))
                    stats["prompts"] += 1
            if isinstance(block, dict) and block.get("type") == "tool_use":
                block["_line"] = me
            lines.append(line)
            parent = me
    with target.open("w", encoding="utf-8") as out:
        for line in lines:
            for block in (line["message"].get("content") if isinstance(line["message"].get("content"), list) else []):
                if isinstance(block, dict):
                    block.pop("_line", None)
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return stats


def run_import(out_dir: Path) -> dict:
    """``lorebook import OUT_DIR --json`` in a throwaway home; the summary, every receipt and every note."""
    import os
    import sqlite3
    import subprocess
    import tempfile

    home = tempfile.mkdtemp(prefix="lorebook-real-")
    env = dict(os.environ, LOREBOOK_HOME=home)
    done = subprocess.run([sys.executable, "-m", "lorebook", "import", str(out_dir), "--json"], env=env,
                          capture_output=True, text=True, check=True)
    summary = json.loads(done.stdout)
    db = sqlite3.connect(Path(home) / "lorebook.db")
    db.row_factory = sqlite3.Row
    receipts = [dict(r) for r in db.execute("select run_key, decision, note_id, reasons from receipts")]
    notes = [dict(r) for r in db.execute("select id, title, summary, change, validation, verified from notes")]
    return {"home": home, "import": summary, "receipts": receipts, "notes": notes}


def main(argv: list[str]) -> int:
    args = [a for a in argv[1:] if not a.startswith("--")]
    raw_dir, out_dir = Path(args[0]), Path(args[1])
    sessions = []
    for path in sorted(raw_dir.iterdir()):
        if path.suffix == ".md":
            meta, messages = read_markdown(path)
        elif path.suffix == ".jsonl":
            meta, messages = read_condensed(path)
        else:
            continue
        stats = convert(meta, messages, out_dir)
        stats["source"] = path.name
        sessions.append(stats)
        print(json.dumps(stats))
    result: dict = {"sessions": len(sessions), "tool_calls": sum(s["tool_calls"] for s in sessions),
                    "bash": sum(s["bash"] for s in sessions), "failures": sum(s["failures"] for s in sessions),
                    "bash_failures": sum(s["bash_failures"] for s in sessions)}
    if "--import" in argv:
        learned = run_import(out_dir)
        for receipt in learned["receipts"]:
            print(json.dumps(receipt))
        for note in learned["notes"]:
            print(json.dumps(note))
        result.update(notes=len(learned["notes"]), learned=learned["import"].get("learned"), home=learned["home"])
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
