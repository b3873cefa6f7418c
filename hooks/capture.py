"""Capture from Claude Code: one observation per tool event, the user's prompts, finished subagents.

The per-tool extractors live in :mod:`lorebook.hooks.extractors`; this module
turns their result into a redacted, bounded observation and stores it, after
the privacy rules (:mod:`lorebook.privacy`) and every plugin's
``keep_observation`` had their say. Live hooks and ``lorebook import`` (which
replays transcripts through the same event hooks) both arrive here.
"""
from __future__ import annotations

import re
from typing import Any

from lorebook import hookimpl
from lorebook.events import EDIT_TOOLS, HookEvent
from lorebook.privacy import command_touches_excluded, path_excluded, project_excluded, tool_excluded
from lorebook.redact import redact, redact_value
from lorebook.sessions import (ensure_session, seen_secrets_redacted, secrets_remembered, session_redacted,
                               subagent_session_id)
from lorebook.store import Store
from lorebook.text import bounded, one_line

from .claude_code import is_synthetic_prompt
from .extractors import (BODY_LIMIT, ERROR_LIMIT, FILE_TOOLS, SUMMARY_LIMIT, TARGET_LIMIT, ToolCall, as_text, excerpt,
                         extract, file_of, relative_path, reset_registry)


def reset_caches() -> None:
    """Forget the compiled exclusions and the extractor registry (tests change both)."""
    from lorebook.privacy import reset_caches as reset_exclusions

    reset_exclusions()
    reset_registry()


# --- building and storing an observation ----------------------------------------------

def _strip_tool_error(text: str) -> str:
    return re.sub(r"</?tool_use_error>", "", text or "").strip()


INPUT_REDACT_LIMIT = 8192  # longer input strings (file contents) are redacted by excerpt(), before their cut


def _redacted_input(value, key: str | None = None, env_file: bool = False):
    """The tool input with every short string redacted (key-aware); long ones are left to excerpt()."""
    if isinstance(value, dict):
        return {k: _redacted_input(v, str(k), env_file) for k, v in value.items()}
    if isinstance(value, list):
        return [_redacted_input(v, key, env_file) for v in value]
    if isinstance(value, str) and len(value) <= INPUT_REDACT_LIMIT:
        value = redact_value(value, key)
        return redact(value, env_file=True) if env_file else value
    return value


# what Claude Code answers for a call the user turned down (or a permission rule denied): it never ran, so there is no
# failure to learn from ("pip install --user pre-commit" rejected is no refusal of pip's)
# (matched only on a failure, so a hook that stores a success never compiles it)
_NOT_RUN = (r"^\s*(?:<tool_use_error>)?\s*(?:The user doesn't want to (?:proceed with|take) this (?:tool use|action)|"
            r"Tool use rejected with user message:|Permission to use \w+ has been denied)")


def build_observation(call: ToolCall) -> dict | None:
    """The observation for one tool call (redacted, bounded), or None when it must not be stored."""
    if tool_excluded(call.tool) or call.failed and re.match(_NOT_RUN, call.error or ""):
        return None
    files_touched = file_of(call) if call.tool in FILE_TOOLS else ""
    if files_touched and path_excluded(files_touched, call.cwd):
        # an excluded file that was changed is kept as the fact of the change, never its content (".env.test was
        # written" is part of how a problem was fixed); reading one leaves nothing
        return _withheld_change(call, files_touched) if call.tool in EDIT_TOOLS and not call.failed else None
    withheld = None
    if call.tool == "Bash":
        withheld = command_touches_excluded(as_text(call.input.get("command")), call.cwd)
    # redact before anything is cut or summarised: a summary cut through a raw token would keep half of it
    call.input = _redacted_input(call.input, env_file=bool(withheld))
    extracted = extract(call)
    error = excerpt(_strip_tool_error(call.error or ""), 10**9) if call.failed else ""
    if withheld:
        extracted["body"] = f"[output not stored: the command reads an excluded path ({withheld})]"
        extracted["signature_text"] = None
        error = re.sub(r"^\s*((?:Error: )?Exit code \d+).*", r"\1", error, flags=re.S)
    if extracted.get("signature_text"):
        extracted["signature_text"] = excerpt(extracted["signature_text"], 10**9)
    summary = extracted.get("summary") or call.tool
    signature = None
    if call.failed:
        from lorebook.signatures import error_line, error_signature

        detail = re.sub(r"^\s*(?:Error: )?(?:Exit code \d+\s*)?", "", error)
        named = error_line(detail) if detail else None
        first = one_line(redact(named or detail), 100)
        if call.tool == "Bash":
            summary += f": {first}" if first else ""
        else:
            label = extracted.get("label") or f"{call.tool} {one_line(relative_path(as_text(extracted.get('target')), call.cwd), 100)}"
            summary = f"{label} ✗ {first or 'failed'}"
        if call.payload.get("is_interrupt"):
            summary += " (interrupted)"

        command = as_text(call.input.get("command")) if call.tool == "Bash" else None
        signature = error_signature(error or extracted.get("signature_text") or "", command)
        if signature is None and extracted.get("signature_text"):
            signature = error_signature(extracted["signature_text"], command)
    files = extracted.get("files") or []
    observation = {
        "tool": call.tool,
        "target": one_line(redact(as_text(extracted.get("target"))), TARGET_LIMIT),
        "summary": redact(one_line(summary, SUMMARY_LIMIT)),
        "outcome": "error" if call.failed else "ok",
        "exit_code": extracted.get("exit_code"),
        "error_text": excerpt(error, ERROR_LIMIT) if call.failed and error else None,
        "error_signature": redact(signature) if signature else None,
        "files": [redact(f) for f in files if isinstance(f, str)],
        "body": bounded(extracted.get("body") or "", BODY_LIMIT),
        "meta": redact_value({k: v for k, v in (extracted.get("meta") or {}).items() if v is not None}),
    }
    if withheld:
        observation["meta"]["output_withheld"] = True
    if call.failed and call.payload.get("is_interrupt"):
        observation["meta"]["interrupted"] = True
    return observation


def _withheld_change(call: ToolCall, path: str) -> dict:
    """The observation of a change to an excluded file: which tool, which file, nothing of what it wrote."""
    shown = one_line(redact(relative_path(path, call.cwd)), 300)
    return {"tool": call.tool, "target": shown, "summary": f"{call.tool} {shown} (content not stored)",
            "outcome": "ok", "exit_code": None, "error_text": None, "error_signature": None, "files": [redact(path)],
            "body": f"[content not stored: {shown} is an excluded path]", "meta": {"content_withheld": True}}


def capture_tool_event(event: HookEvent, store: Store, failed: bool) -> int | None:
    """Store one PostToolUse(Failure) event; the new observation's id, or None (excluded, vetoed, duplicate)."""
    payload = event.payload
    tool = payload.get("tool_name")
    if not isinstance(tool, str) or not tool:
        return None
    session = ensure_session(event, store)
    project_key = session["project_key"] if session else None
    if project_excluded(store, project_key, event.cwd):
        return None
    error = as_text(payload.get("error")) if failed else None
    call = ToolCall(tool, payload.get("tool_input"), payload.get("tool_response"), failed, error,
                    cwd=event.cwd, payload=payload)
    # (a secret redacted earlier in the session is redacted here too, wherever it stands: ``-u ci:7d1e…``; and one
    # this event's command gave, where its output prints it again: ``KEYCHAIN_PASSWORD='…' ./ci/sign.sh`` tracing
    # ``+ security unlock-keychain -p …``)
    seen = store.secret_prints(event.session_id) if event.session_id else set()
    with secrets_remembered(store, event.session_id) as fresh:
        observation = build_observation(call)
    if observation is None:
        return None
    seen |= fresh
    if seen:
        fields = ("target", "summary", "body", "error_text")
        for name, value in zip(fields, seen_secrets_redacted(store, event.session_id, *map(observation.get, fields),
                                                             prints=seen)):
            observation[name] = value
    agent_id = payload.get("agent_id")
    if isinstance(agent_id, str) and agent_id:
        observation["meta"]["agent_id"] = agent_id
    tool_use_id = payload.get("tool_use_id")
    observation.update(
        session_id=event.session_id,
        project_key=project_key,
        tool_use_id=tool_use_id if isinstance(tool_use_id, str) and tool_use_id else None,
        event=event.name,
        source=event.source,
    )
    if event.created_at:
        observation["created_at"] = event.created_at
    from lorebook.plugins import pm

    if any(verdict is False for verdict in pm.hook.keep_observation(observation=observation, event=event)):
        return None
    return store.add_observation(observation)



def record_prompt(event: HookEvent, store: Store, prompt: Any) -> int | None:
    """Store the user's prompt (redacted, <private> dropped); synthetic prompts are not the user's words."""
    if not isinstance(prompt, str) or not prompt.strip() or is_synthetic_prompt(prompt):
        return None
    session = ensure_session(event, store)
    if session is None or project_excluded(store, session["project_key"], event.cwd):
        return None
    text = session_redacted(store, event.session_id, prompt)
    if not text.replace("[private]", "").strip():
        return None
    prompt_id = event.payload.get("prompt_id")
    return store.add_prompt(event.session_id, bounded(text, 20_000),
                            prompt_id=prompt_id if isinstance(prompt_id, str) else None, created_at=event.created_at)


def record_subagent_stop(event: HookEvent, store: Store) -> int | None:
    """Link a finished subagent to its parent session and record what it reported."""
    payload = event.payload
    agent_id = payload.get("agent_id")
    session = ensure_session(event, store)
    if session is None or not isinstance(agent_id, str) or not agent_id:
        return None
    if project_excluded(store, session["project_key"], event.cwd):
        return None
    agent_type = as_text(payload.get("agent_type")) or "subagent"
    message = as_text(payload.get("last_assistant_message"))
    transcript = payload.get("agent_transcript_path")
    child = subagent_session_id(event.session_id, agent_id)
    store.ensure_session(child, project_key=session["project_key"], cwd=event.cwd, parent_session_id=event.session_id,
                         agent_id=agent_id, transcript_path=transcript if isinstance(transcript, str) else None)
    from lorebook.store import now

    message = session_redacted(store, event.session_id, message, lambda text: excerpt(text, BODY_LIMIT))
    store.update_session(child, status="closed", ended_at=now(), last_assistant_message=message or None)
    if tool_excluded("Agent"):
        return None
    observation = {
        "tool": "Agent",
        "target": agent_type,
        "summary": redact(one_line(f"Subagent {agent_type} finished" + (f": {message}" if message.strip() else ""),
                                   SUMMARY_LIMIT)),
        "outcome": "ok",
        "body": excerpt(message, BODY_LIMIT),
        "files": [],
        "meta": {"agent_id": agent_id, "agent_type": agent_type, "subagent_session": child},
        "session_id": event.session_id,
        "project_key": session["project_key"],
        "tool_use_id": None,
        "event": "subagent_stop",
        "source": event.source,
    }
    from lorebook.plugins import pm

    if any(verdict is False for verdict in pm.hook.keep_observation(observation=observation, event=event)):
        return None
    return store.add_observation(observation)


class Capture:
    """The plugin: what Claude Code's tool, prompt and subagent events store (the ids they stored)."""

    @hookimpl
    def post_tool_use(self, event, store):
        return capture_tool_event(event, store, failed=False)

    @hookimpl
    def post_tool_use_failure(self, event, store):
        return capture_tool_event(event, store, failed=True)

    @hookimpl
    def subagent_stop(self, event, store):
        return record_subagent_stop(event, store)

    @hookimpl
    def user_prompt_submit(self, event, store):
        return record_prompt(event, store, event.payload.get("prompt"))


plugin = Capture()
