"""Claude Code's hook contract: parse stdin payloads, render hook output."""
from __future__ import annotations

import json

from lorebook.events import HookEvent

# hook name -> Claude Code's hookEventName, for events whose output can carry context
CONTEXT_EVENTS = {"session_start": "SessionStart", "user_prompt_submit": "UserPromptSubmit"}


def parse_payload(hook_name: str, raw: bytes) -> HookEvent | None:
    """The event for this stdin, or None when it is not a JSON object."""
    if not raw or not raw.strip():
        return None
    text = raw.decode("utf-8", errors="replace")
    try:
        payload = json.loads(text)
    except ValueError:
        return None
    if not isinstance(payload, dict):
        return None
    return HookEvent(name=hook_name, payload=payload)


def is_synthetic_prompt(prompt: str) -> bool:
    """A prompt Claude Code made itself (a background task finished), not the user's words."""
    return prompt.lstrip().startswith("<task-notification>")


def render_output(event: HookEvent, results) -> dict:
    """The JSON object Claude Code expects back for this event's hook results."""
    if event.name in CONTEXT_EVENTS:
        parts = [r.strip() for r in (results or []) if isinstance(r, str) and r.strip()]
        if not parts:
            return {}
        return {"hookSpecificOutput": {
            "hookEventName": CONTEXT_EVENTS[event.name],
            "additionalContext": "\n\n".join(parts),
        }}
    if event.name == "stop" and isinstance(results, dict) and results.get("decision") == "block":
        if event.payload.get("stop_hook_active"):
            return {}  # never block twice
        return {"decision": "block", "reason": str(results.get("reason") or "")}
    return {}
