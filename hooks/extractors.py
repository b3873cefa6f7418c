"""What each Claude Code tool call did, as a scannable observation: one extractor per tool.

This is the only module that knows the shapes of Claude Code's tool payloads
(``tool_input`` / ``tool_response`` for Bash, Read, Edit, Grep, Agent, MCP
tools …). Each extractor is registered through the
``register_tool_extractors`` hook, so a plugin can add or replace one.

Every text is cut to a bounded excerpt *after* it is redacted, so no cut can
split a secret into an unrecognisable piece.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable

from lorebook import hookimpl
from lorebook.privacy import drop_excluded_lines
from lorebook.redact import reads_a_secret, redact, redact_value, withhold_secret
from lorebook.text import TRUNCATION_MARKER, bounded, one_line

BODY_LIMIT = 4000     # the whole body of an observation
STDOUT_LIMIT = 2400   # Bash stdout excerpt (head and tail)
STDERR_LIMIT = 1400   # Bash stderr excerpt
LIGHT_LIMIT = 600     # reads, listings, searches: kept light
ERROR_LIMIT = 2000
SUMMARY_LIMIT = 200
TARGET_LIMIT = 2000   # a command as run: a spark-submit line cut at 500 no longer compares with its rerun
MAX_SCAN = 64 * 1024  # redact at most this much of a head and of a tail before cutting

FILE_TOOLS = ("Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "NotebookRead")


class ToolCall:
    """One tool event, as the extractors see it."""

    __slots__ = ("tool", "input", "response", "failed", "error", "cwd", "payload")

    def __init__(self, tool: str, tool_input: Any, response: Any, failed: bool, error: str | None,
                 cwd: str | None = None, payload: dict | None = None):
        self.tool = tool
        self.input = tool_input if isinstance(tool_input, dict) else {}
        self.response = response
        self.failed = failed
        self.error = error
        self.cwd = cwd
        self.payload = payload or {}


# --- text helpers -------------------------------------------------------------------

def as_text(value: Any) -> str:
    """Any JSON value as text; bytes and broken Unicode made safe."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    elif not isinstance(value, str):
        value = json.dumps(value, ensure_ascii=False, default=str)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates from JSON escapes: SQLite would refuse them
        value = value.encode("utf-8", errors="replace").decode("utf-8")
    return value


def _looks_binary(text: str) -> bool:
    sample = text[:4096]
    if not sample:
        return False
    odd = sum(1 for ch in sample if (ch < " " and ch not in "\t\n\r\x1b\x0c") or ch == "\ufffd")
    return odd > max(8, len(sample) // 20)


def _cut_point(text: str, at: int, forward: bool) -> int:
    """A position near ``at`` on a line break or a space, so that no token is split."""
    window = text[at:at + 512] if forward else text[max(at - 512, 0):at]
    for sep in ("\n", " ", ",", ";", "\t"):
        i = window.find(sep) if forward else window.rfind(sep)
        if i != -1:
            return at + i + 1 if forward else max(at - 512, 0) + i
    return at


def excerpt(value: Any, limit: int, env_file: bool = False) -> str:
    """A redacted excerpt of ``value``: head and tail, at most about ``limit`` characters, marked where cut.

    Redaction runs before the cut, on pieces cut at line breaks or spaces, so
    a secret is never split into halves the redactor would not recognise.
    """
    text = as_text(value)
    if not text:
        return ""
    if _looks_binary(text):
        return f"[binary output: {len(text)} characters not stored]"
    if len(text) > 2 * MAX_SCAN:
        head_end = _cut_point(text, MAX_SCAN, forward=False)
        tail_start = _cut_point(text, len(text) - MAX_SCAN, forward=True)
        head = redact(text[:head_end], env_file=env_file)
        tail = redact(text[tail_start:], env_file=env_file)
        text = head + "\n" + TRUNCATION_MARKER.format(n=tail_start - head_end) + "\n" + tail
    else:
        text = redact(text, env_file=env_file)
    return bounded(text, limit)


def relative_path(path: str, cwd: str | None) -> str:
    """``path`` relative to the session's directory when it is inside it (readable summaries)."""
    if cwd and path.rstrip("/") == cwd.rstrip("/"):
        return "."
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1:]
    return path


def _count_lines(text: str) -> int:
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _arg_summary(args: dict, limit: int = 160) -> str:
    """``key="value", n=3`` for a tool's arguments, redacted, each value one-lined and short."""
    parts = []
    for key, value in redact_value(args).items():
        if isinstance(value, str):
            shown = json.dumps(one_line(value, 60), ensure_ascii=False)
        elif isinstance(value, (dict, list)):
            shown = one_line(json.dumps(value, ensure_ascii=False, default=str), 40)
        else:
            shown = json.dumps(value)
        parts.append(f"{key}={shown}")
    return one_line(", ".join(parts), limit)


def _patch_stats(patch: Any) -> tuple[int, int, str]:
    """(lines added, lines removed, unified text) of a Claude Code ``structuredPatch``."""
    added = removed = 0
    text_lines: list[str] = []
    if isinstance(patch, list):
        for hunk in patch:
            if not isinstance(hunk, dict):
                continue
            text_lines.append(f"@@ -{hunk.get('oldStart')},{hunk.get('oldLines')} "
                              f"+{hunk.get('newStart')},{hunk.get('newLines')} @@")
            for line in hunk.get("lines") or []:
                if not isinstance(line, str):
                    continue
                if line.startswith("+"):
                    added += 1
                elif line.startswith("-"):
                    removed += 1
                text_lines.append(line)
    return added, removed, "\n".join(text_lines)


def _string_diff(old: str, new: str) -> tuple[int, int, str]:
    old_lines = old.splitlines() if old else []
    new_lines = new.splitlines() if new else []
    body = "\n".join([f"-{l}" for l in old_lines] + [f"+{l}" for l in new_lines])
    return len(new_lines), len(old_lines), body


# --- extractors, one per tool -------------------------------------------------------

def extract_bash(call: ToolCall) -> dict:
    command = as_text(call.input.get("command"))
    response = call.response if isinstance(call.response, dict) else {}
    stdout = as_text(response.get("stdout") if response else call.response)
    stderr = as_text(response.get("stderr"))
    exit_code = None
    if call.failed:
        match = re.match(r"\s*(?:Error: )?Exit code (\d+)", call.error or "")
        exit_code = int(match.group(1)) if match else None
        if not stdout and not stderr and call.error:
            stdout = re.sub(r"^\s*(?:Error: )?Exit code \d+\n?", "", call.error, count=1)
    elif response.get("interrupted"):
        exit_code = None
    else:
        exit_code = 0
    meta = {"description": one_line(as_text(call.input.get("description")), 120) or None,
            "stdout_lines": _count_lines(stdout), "stderr_lines": _count_lines(stderr)}
    if response.get("interrupted"):
        meta["interrupted"] = True
    if response.get("backgroundTaskId") or call.input.get("run_in_background"):
        meta["background_task"] = response.get("backgroundTaskId") or True
    parts = []
    if reads_a_secret(command):  # (``kubectl get secret … -o jsonpath='{.data.password}' | base64 -d``: the value)
        stdout = withhold_secret(stdout)
    if stdout.strip():
        parts.append(excerpt(stdout, STDOUT_LIMIT))
    if stderr.strip():
        parts.append("[stderr]\n" + excerpt(stderr, STDERR_LIMIT))
    if call.failed:
        status = f"exit {exit_code}" if exit_code is not None else "failed"
    elif meta.get("interrupted"):
        status = "interrupted"
    elif meta.get("background_task"):
        status = "started in background"
    else:
        status = "ok" + (f", {_plural(meta['stdout_lines'], 'line')}" if meta["stdout_lines"] else ", no output")
    return {"target": command, "summary": f"$ {one_line(command, 140)} → {status}",
            "body": "\n".join(parts), "exit_code": exit_code, "meta": meta,
            "signature_text": "\n".join(p for p in (stderr, stdout) if p) if call.failed else None}


def file_of(call: ToolCall) -> str:
    response = call.response if isinstance(call.response, dict) else {}
    path = call.input.get("file_path") or call.input.get("notebook_path") or response.get("filePath")
    if not path and isinstance(response.get("file"), dict):
        path = response["file"].get("filePath")
    return as_text(path)


def extract_read(call: ToolCall) -> dict:
    path = file_of(call)
    response = call.response if isinstance(call.response, dict) else {}
    kind = response.get("type") or "text"
    file = response.get("file") if isinstance(response.get("file"), dict) else {}
    meta: dict = {"type": kind}
    body = ""
    if kind == "text":
        start, lines, total = file.get("startLine"), file.get("numLines"), file.get("totalLines")
        meta.update(start=start, lines=lines, total=total)
        if isinstance(start, int) and isinstance(lines, int) and isinstance(total, int) and lines < total:
            detail = f"lines {start}–{start + max(lines - 1, 0)} of {total}"
        elif isinstance(total, int):
            detail = _plural(total, "line")
        else:
            detail = "read"
        body = excerpt(file.get("content"), LIGHT_LIMIT)
    elif kind == "notebook":
        cells = file.get("cells") if isinstance(file.get("cells"), list) else []
        meta["cells"] = len(cells)
        detail = f"notebook, {_plural(len(cells), 'cell')}"
    elif kind == "image":
        detail = "image"
        meta["size"] = file.get("originalSize")
    else:
        detail = str(kind)
    rel = relative_path(path, call.cwd)
    summary = f"Read {rel}" if call.failed else f"Read {rel} ({detail})"
    return {"target": path, "files": [path] if path else [], "summary": summary,
            "body": body, "meta": meta}


def extract_write(call: ToolCall) -> dict:
    path = file_of(call)
    response = call.response if isinstance(call.response, dict) else {}
    kind = response.get("type") or ("update" if response.get("originalFile") else "create")
    content = as_text(call.input.get("content") if "content" in call.input else response.get("content"))
    added, removed, patch = _patch_stats(response.get("structuredPatch"))
    if kind == "create" or not patch:
        lines = _count_lines(content)
        detail, body = f"created, {_plural(lines, 'line')}", excerpt(content, LIGHT_LIMIT * 2)
        meta = {"type": "create", "lines": lines}
    else:
        detail, body = f"rewritten, +{added} −{removed}", excerpt(patch, BODY_LIMIT)
        meta = {"type": "update", "added": added, "removed": removed}
    return {"target": path, "files": [path] if path else [], "summary": f"Write {relative_path(path, call.cwd)} ({detail})",
            "body": body, "meta": meta}


def extract_edit(call: ToolCall) -> dict:
    path = file_of(call)
    response = call.response if isinstance(call.response, dict) else {}
    added, removed, patch = _patch_stats(response.get("structuredPatch"))
    edits = call.input.get("edits") if isinstance(call.input.get("edits"), list) else None
    if not patch:
        if edits is not None:
            pairs = [(as_text(e.get("old_string")), as_text(e.get("new_string"))) for e in edits if isinstance(e, dict)]
        else:
            pairs = [(as_text(call.input.get("old_string")), as_text(call.input.get("new_string")))]
        added = removed = 0
        bodies = []
        for old, new in pairs:
            a, r, b = _string_diff(old, new)
            added, removed = added + a, removed + r
            bodies.append(b)
        patch = "\n".join(bodies)
    detail = f"+{added} −{removed}"
    meta: dict = {"added": added, "removed": removed}
    if edits is not None:
        detail = f"{_plural(len(edits), 'edit')}, {detail}"
        meta["edits"] = len(edits)
    if call.input.get("replace_all"):
        detail += ", all occurrences"
        meta["replace_all"] = True
    return {"target": path, "files": [path] if path else [], "summary": f"{call.tool} {relative_path(path, call.cwd)} ({detail})",
            "body": excerpt(patch, BODY_LIMIT), "meta": meta}


def extract_notebook_edit(call: ToolCall) -> dict:
    path = file_of(call)
    response = call.response if isinstance(call.response, dict) else {}
    mode = call.input.get("edit_mode") or response.get("edit_mode") or "replace"
    cell = call.input.get("cell_id") or response.get("cell_id")
    cell_type = call.input.get("cell_type") or response.get("cell_type") or "code"
    source = as_text(call.input.get("new_source") if "new_source" in call.input else response.get("new_source"))
    detail = f"{mode} {cell_type} cell" + (f" {cell}" if cell else "")
    if response.get("error"):
        detail += f", error: {one_line(as_text(response['error']), 80)}"
    return {"target": path, "files": [path] if path else [],
            "summary": f"NotebookEdit {relative_path(path, call.cwd)} ({detail})",
            "body": excerpt(source, LIGHT_LIMIT * 2),
            "meta": {"edit_mode": mode, "cell_id": cell, "cell_type": cell_type}}


def _filenames(response: dict) -> list[str]:
    names = response.get("filenames")
    return [as_text(n) for n in names if isinstance(n, str)] if isinstance(names, list) else []


def extract_grep(call: ToolCall) -> dict:
    pattern = as_text(call.input.get("pattern"))
    where = as_text(call.input.get("path")) or ""
    response = call.response if isinstance(call.response, dict) else {}
    mode = response.get("mode") or call.input.get("output_mode") or "files_with_matches"
    files = _filenames(response)
    num_files = response.get("numFiles") if isinstance(response.get("numFiles"), int) else len(files)
    content = as_text(response.get("content")) if response else as_text(call.response)
    content = drop_excluded_lines(content, call.cwd)
    if mode == "content":
        lines = response.get("numLines") if isinstance(response.get("numLines"), int) else _count_lines(content)
        hits = _plural(lines, "matching line")
    elif mode == "count":
        matches = response.get("numMatches")
        hits = _plural(matches, "match") if isinstance(matches, int) else _plural(num_files, "file")
    else:
        hits = _plural(num_files, "file")
    scope = " in " + relative_path(where, call.cwd) if where else ""
    if call.input.get("glob"):
        scope += f" ({call.input['glob']})"
    elif call.input.get("type"):
        scope += f" (type {call.input['type']})"
    body = excerpt(content, LIGHT_LIMIT) if content.strip() else "\n".join(relative_path(f, call.cwd) for f in files[:10])
    if len(files) > 10 and not content.strip():
        body += f"\n… {len(files) - 10} more"
    summary = f"Grep {json.dumps(one_line(pattern, 80), ensure_ascii=False)}{scope} → " + (
        hits if (num_files or content.strip()) else "no matches")
    return {"target": pattern, "summary": summary, "body": redact(body),
            "label": f"Grep {json.dumps(one_line(pattern, 80), ensure_ascii=False)}{scope}",
            "meta": {"mode": mode, "files": num_files, "path": where or None}}


def extract_glob(call: ToolCall) -> dict:
    pattern = as_text(call.input.get("pattern"))
    where = as_text(call.input.get("path"))
    response = call.response if isinstance(call.response, dict) else {}
    files = _filenames(response)
    count = response.get("numFiles") if isinstance(response.get("numFiles"), int) else len(files)
    shown = "\n".join(relative_path(f, call.cwd) for f in files[:10]) + (f"\n… {count - 10} more" if count > 10 else "")
    detail = _plural(count, "file") + (" (truncated)" if response.get("truncated") else "") if count else "no files"
    scope = f" in {relative_path(where, call.cwd)}" if where else ""
    return {"target": pattern, "summary": f"Glob {pattern}{scope} → {detail}", "body": redact(shown),
            "label": f"Glob {pattern}{scope}",
            "meta": {"files": count, "truncated": bool(response.get("truncated"))}}


def extract_ls(call: ToolCall) -> dict:
    path = as_text(call.input.get("path"))
    listing = as_text(call.response if not isinstance(call.response, dict) else
                      call.response.get("content") or call.response.get("result") or call.response)
    entries = [l for l in listing.splitlines() if l.strip().startswith("- ") or (l.strip() and not l.startswith("NOTE"))]
    count = max(len(entries) - 1, 0) if entries and entries[0].strip().startswith("- /") else len(entries)
    return {"target": path, "label": f"LS {relative_path(path, call.cwd) or '.'}",
            "summary": f"LS {relative_path(path, call.cwd) or '.'} → {_plural(count, 'entry').replace('entrys', 'entries')}",
            "body": excerpt(listing, LIGHT_LIMIT), "meta": {"entries": count}}


def extract_web_fetch(call: ToolCall) -> dict:
    url = redact(as_text(call.input.get("url")))
    response = call.response if isinstance(call.response, dict) else {}
    code, text = response.get("code"), response.get("codeText")
    size = response.get("bytes")
    status = " ".join(str(p) for p in (code, text) if p) or ("failed" if call.failed else "fetched")
    if isinstance(size, int):
        status += f", {size // 1024} KiB" if size >= 1024 else f", {size} B"
    prompt = as_text(call.input.get("prompt"))
    result = response.get("result") if response else call.response
    body = (f"Prompt: {one_line(prompt, 300)}\n\n" if prompt else "") + excerpt(result, LIGHT_LIMIT * 2)
    return {"target": url, "summary": f"WebFetch {one_line(url, 140)} → {status}", "body": body,
            "label": f"WebFetch {one_line(url, 140)}",
            "meta": {"code": code, "bytes": size}}


def extract_web_search(call: ToolCall) -> dict:
    query = as_text(call.input.get("query"))
    response = call.response if isinstance(call.response, dict) else {}
    hits: list[str] = []
    for item in response.get("results") or []:
        if isinstance(item, dict):
            for link in item.get("content") or []:
                if isinstance(link, dict):
                    hits.append(f"{one_line(as_text(link.get('title')), 100)} <{as_text(link.get('url'))}>")
    domains = call.input.get("allowed_domains")
    scope = f" (only {', '.join(map(str, domains))})" if isinstance(domains, list) and domains else ""
    summary = f"WebSearch {json.dumps(one_line(query, 120), ensure_ascii=False)}{scope} → " + (
        _plural(len(hits), "result") if hits else "no results")
    body = "\n".join(hits[:8]) if hits else excerpt(call.response, LIGHT_LIMIT)
    return {"target": query, "summary": summary, "body": redact(body), "meta": {"results": len(hits)},
            "label": f"WebSearch {json.dumps(one_line(query, 120), ensure_ascii=False)}"}


def _agent_result_text(response: Any) -> str:
    if isinstance(response, dict):
        content = response.get("content")
        if isinstance(content, list):
            return "\n".join(as_text(b.get("text")) for b in content if isinstance(b, dict) and b.get("type") == "text")
        if isinstance(content, str):
            return content
        return as_text(response.get("result") or "")
    if isinstance(response, list):
        return "\n".join(as_text(b.get("text")) for b in response if isinstance(b, dict) and b.get("text"))
    return as_text(response)


def extract_agent(call: ToolCall) -> dict:
    description = as_text(call.input.get("description"))
    subagent = as_text(call.input.get("subagent_type")) or "subagent"
    task = as_text(call.input.get("prompt"))
    response = call.response if isinstance(call.response, dict) else {}
    status = response.get("status") or ("failed" if call.failed else "completed")
    result = _agent_result_text(call.response)
    meta = {"agent_id": response.get("agentId"), "subagent_type": subagent, "status": status,
            "tool_uses": response.get("totalToolUseCount"), "tokens": response.get("totalTokens"),
            "duration_ms": response.get("totalDurationMs")}
    if status == "async_launched":
        outcome = "launched in the background"
    elif result.strip():
        outcome = f"{status}: {one_line(redact(result), 100)}"
    else:
        outcome = status
    body = f"Task: {excerpt(task, 1200)}" + (f"\n\nResult:\n{excerpt(result, 2400)}" if result.strip() else "")
    return {"target": description or one_line(task, 120),
            "label": f"{call.tool} {subagent} {json.dumps(one_line(description, 80), ensure_ascii=False)}",
            "summary": f"{call.tool} {subagent} {json.dumps(one_line(description, 80), ensure_ascii=False)} → {outcome}",
            "body": body, "meta": {k: v for k, v in meta.items() if v is not None}}


TODO_MARKS = {"completed": "[x]", "in_progress": "[>]", "pending": "[ ]"}


def extract_todo_write(call: ToolCall) -> dict:
    todos = call.input.get("todos") if isinstance(call.input.get("todos"), list) else []
    items = [t for t in todos if isinstance(t, dict)]
    counts = {s: sum(1 for t in items if t.get("status") == s) for s in ("completed", "in_progress", "pending")}
    lines = [f"{TODO_MARKS.get(t.get('status'), '[?]')} {one_line(as_text(t.get('content')), 160)}" for t in items]
    current = next((as_text(t.get("content")) for t in items if t.get("status") == "in_progress"), "")
    detail = ", ".join(f"{n} {label}" for n, label in ((counts["completed"], "done"),
                                                        (counts["in_progress"], "in progress"),
                                                        (counts["pending"], "pending")) if n)
    summary = f"TodoWrite {_plural(len(items), 'item')}" + (f": {detail}" if detail else "") + (
        f"; now: {one_line(current, 80)}" if current else "")
    return {"target": one_line(current, 200), "summary": summary, "label": f"TodoWrite {_plural(len(items), 'item')}", "body": excerpt("\n".join(lines), BODY_LIMIT),
            "meta": counts}


def _mcp_text(response: Any) -> str:
    if isinstance(response, list):
        return "\n".join(as_text(b.get("text")) if isinstance(b, dict) and "text" in b else as_text(b) for b in response)
    if isinstance(response, dict) and isinstance(response.get("content"), list):
        return _mcp_text(response["content"])
    return as_text(response)


def extract_mcp(call: ToolCall) -> dict:
    parts = call.tool.split("__")
    server = parts[1] if len(parts) > 1 else "?"
    tool = "__".join(parts[2:]) or "?"
    args = _arg_summary(call.input)
    text = _mcp_text(call.response)
    return {"target": f"{server}.{tool}", "summary": f"MCP {server} · {tool}({args})",
            "label": f"MCP {server} · {tool}({args})",
            "body": excerpt(text, LIGHT_LIMIT * 2), "meta": {"server": server, "tool": tool}}


def extract_generic(call: ToolCall) -> dict:
    """Any tool lorebook has no extractor for: its name, an argument summary, a bounded excerpt."""
    args = _arg_summary(call.input)
    text = call.response if isinstance(call.response, str) else _mcp_text(call.response)
    return {"target": one_line(args, 300), "summary": f"{call.tool}({args})", "label": f"{call.tool}({args})",
            "body": excerpt(text, LIGHT_LIMIT * 2),
            "meta": {"generic": True}}


def register_builtin_extractors(register) -> None:
    """Register the built-in extractors (see :class:`BuiltinExtractors`)."""
    register("Bash", extract_bash)
    register("Read", extract_read)
    register("NotebookRead", extract_read)
    register("Write", extract_write)
    register("Edit", extract_edit)
    register("MultiEdit", extract_edit)
    register("NotebookEdit", extract_notebook_edit)
    register("Grep", extract_grep)
    register("Glob", extract_glob)
    register("LS", extract_ls)
    register("WebFetch", extract_web_fetch)
    register("WebSearch", extract_web_search)
    register("Task", extract_agent)
    register("Agent", extract_agent)
    register("TodoWrite", extract_todo_write)
    register("mcp__", extract_mcp)  # a name ending in "__" or "*" is a prefix


_registry: dict[str, Callable[[ToolCall], dict]] | None = None


def extractors() -> dict[str, Callable[[ToolCall], dict]]:
    """Tool name (or prefix) → extractor, from every plugin; the first registration of a name wins."""
    global _registry
    if _registry is None:
        from lorebook.plugins import load_plugins

        found: dict[str, Callable[[ToolCall], dict]] = {}

        def register(name: str, extract: Callable[[ToolCall], dict]) -> None:
            found.setdefault(name, extract)

        # third-party plugins are called before the built-ins (trylast), so theirs are kept
        load_plugins().hook.register_tool_extractors(register=register)
        _registry = found
    return _registry


def extractor_for(tool: str) -> Callable[[ToolCall], dict]:
    registry = extractors()
    if tool in registry:
        return registry[tool]
    best = None
    for name in registry:
        prefix = name.rstrip("*")
        if name.endswith(("__", "*")) and tool.startswith(prefix) and (best is None or len(prefix) > len(best)):
            best = name
    return registry[best] if best else extract_generic


def extract(call: ToolCall) -> dict:
    """What the tool's extractor makes of the call (target, summary, body, files, meta, exit_code)."""
    return dict(extractor_for(call.tool)(call) or {})


def reset_registry() -> None:
    """Forget the extractor registry (tests register their own)."""
    global _registry
    _registry = None


class BuiltinExtractors:
    """The plugin: the built-in extractors, a fallback, so any plugin's extractor for the same tool wins."""

    @hookimpl(trylast=True)
    def register_tool_extractors(self, register):
        register_builtin_extractors(register)


plugin = BuiltinExtractors()
