"""Capture: one observation per tool event, redacted before it is written."""
from __future__ import annotations

import re

from lorebook import hookimpl
from lorebook.events import HookEvent
from lorebook.redact import redact
from lorebook.store import Store
from lorebook.text import bounded, one_line

from .claude_code import is_synthetic_prompt
from .sessions import ensure_session

BODY_LIMIT = 4000
ERROR_LIMIT = 2000


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    import json

    return json.dumps(value, ensure_ascii=False, default=str)


def error_signature(text: str) -> str | None:
    """The last line that names an error, with paths, numbers and ids masked."""
    lines = [l.strip() for l in (text or "").splitlines() if l.strip()]
    for line in reversed(lines):
        if re.search(r"(Error|Exception|error:|FAILED|fatal:|Traceback)", line):
            sig = re.sub(r"(/[\w.@+-]+)+", "<path>", line)
            sig = re.sub(r"0x[0-9a-fA-F]+", "<addr>", sig)
            sig = re.sub(r"\b\d+\b", "<n>", sig)
            return one_line(sig, 200)
    return None


def extract(tool: str, tool_input: dict, response, failed: bool, error: str | None) -> dict:
    """A scannable observation for one tool call."""
    tool_input = tool_input if isinstance(tool_input, dict) else {}
    files: list[str] = []
    target = ""
    body = ""
    exit_code = None
    if tool == "Bash":
        target = _text(tool_input.get("command"))
        if isinstance(response, dict):
            body = "\n".join(p for p in (_text(response.get("stdout")), _text(response.get("stderr"))) if p)
        else:
            body = _text(response)
        if failed and error:
            match = re.match(r"Exit code (\d+)", error)
            exit_code = int(match.group(1)) if match else None
        elif not failed:
            exit_code = 0
    elif tool in ("Read", "Write", "Edit", "MultiEdit", "NotebookEdit"):
        target = _text(tool_input.get("file_path") or tool_input.get("notebook_path"))
        files = [target] if target else []
        if tool == "Edit":
            body = f"- {_text(tool_input.get('old_string'))}\n+ {_text(tool_input.get('new_string'))}"
    else:
        target = one_line(_text(tool_input), 300)
        body = _text(response)
    outcome = "error" if failed else "ok"
    error_text = bounded(error or "", ERROR_LIMIT) if failed else None
    summary = f"{tool} {one_line(target, 160)}".strip() + (" → failed" if failed else "")
    return {
        "tool": tool,
        "target": target,
        "summary": summary,
        "outcome": outcome,
        "exit_code": exit_code,
        "error_text": error_text,
        "error_signature": error_signature(error or body) if failed else None,
        "files": files,
        "body": bounded(body, BODY_LIMIT),
    }


def capture(event: HookEvent, store: Store, failed: bool) -> int | None:
    payload = event.payload
    tool = payload.get("tool_name")
    if not isinstance(tool, str) or not tool:
        return None
    session = ensure_session(event, store)
    error = payload.get("error") if failed else None
    observation = extract(tool, payload.get("tool_input") or {}, payload.get("tool_response"), failed, _text(error))
    for field in ("target", "summary", "error_text", "error_signature", "body"):
        if observation.get(field):
            observation[field] = redact(observation[field])
    observation.update(
        session_id=event.session_id,
        project_key=session["project_key"] if session else None,
        tool_use_id=payload.get("tool_use_id") if isinstance(payload.get("tool_use_id"), str) else None,
        event=event.name,
    )
    from lorebook.plugins import pm

    if any(verdict is False for verdict in pm.hook.keep_observation(observation=observation, event=event)):
        return None
    return store.add_observation(observation)


@hookimpl
def post_tool_use(event, store):
    capture(event, store, failed=False)


@hookimpl
def post_tool_use_failure(event, store):
    capture(event, store, failed=True)


@hookimpl(tryfirst=True)
def session_start(event, store):
    ensure_session(event, store)


@hookimpl(tryfirst=True)
def user_prompt_submit(event, store):
    prompt = event.payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip() or is_synthetic_prompt(prompt):
        return None
    if ensure_session(event, store) is None:
        return None
    text = redact(prompt)
    if text.strip():
        store.add_prompt(event.session_id, text, prompt_id=event.payload.get("prompt_id"))
    return None


@hookimpl
def session_end(event, store):
    if event.session_id and store.get_session(event.session_id):
        from lorebook.store import now

        reason = event.payload.get("reason")
        store.update_session(event.session_id, status="closed", ended_at=now(),
                             end_reason=reason if isinstance(reason, str) else None)
