"""Claude Code's hook contract: its event names, its stdin payloads, the output it expects back."""
from __future__ import annotations

import json

from lorebook import hookimpl
from lorebook.events import HookEvent

# lorebook's hook name -> Claude Code's hookEventName
EVENT_NAMES = {
    "session_start": "SessionStart",
    "user_prompt_submit": "UserPromptSubmit",
    "post_tool_use": "PostToolUse",
    "post_tool_use_failure": "PostToolUseFailure",
    "subagent_stop": "SubagentStop",
    "stop": "Stop",
    "pre_compact": "PreCompact",
    "session_end": "SessionEnd",
}
# events whose output can carry context for the model
CONTEXT_EVENTS = ("session_start", "user_prompt_submit")

# texts Claude Code writes itself into a user turn: not the user's words
SYNTHETIC_PREFIXES = ("<task-notification>", "<command-name>", "<command-message>", "<local-command-stdout>",
                      "<local-command-stderr>", "<local-command-caveat>", "Caveat: The messages below",
                      "<bash-input>", "<bash-stdout>", "<bash-stderr>", "<user-memory-input>", "<system-reminder>",
                      "[Request interrupted by user",
                      # (a compaction's summary, where the line lacks ``isCompactSummary``: an export, an old version)
                      "This session is being continued from a previous conversation")


def is_synthetic_prompt(prompt: str) -> bool:
    """A prompt Claude Code made itself (a finished background task, a command echo …), not the user's words."""
    return prompt.lstrip().startswith(SYNTHETIC_PREFIXES)


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


def render_output(event: HookEvent, results) -> dict:
    """The JSON object Claude Code expects back for this event's hook results (and ``event.notice`` for the user)."""
    output = _render_results(event, results)
    if getattr(event, "notice", None):
        output["systemMessage"] = event.notice  # Claude Code shows it to the user
    return output


def _render_results(event: HookEvent, results) -> dict:
    if event.name in CONTEXT_EVENTS:
        parts = [r.strip() for r in (results or []) if isinstance(r, str) and r.strip()]
        if not parts:
            return {}
        return {"hookSpecificOutput": {
            "hookEventName": EVENT_NAMES[event.name],
            "additionalContext": "\n\n".join(parts),
        }}
    if event.name == "stop" and isinstance(results, dict) and results.get("decision") == "block":
        if event.payload.get("stop_hook_active"):
            return {}  # never block twice
        return {"decision": "block", "reason": str(results.get("reason") or "")}
    return {}


class ClaudeCode:
    """The plugin: reads Claude Code's hook payloads and writes its hook output (a fallback another agent's
    plugin can take over)."""

    @hookimpl(trylast=True)
    def parse_event(self, name, raw):
        return parse_payload(name, raw)

    @hookimpl(trylast=True)
    def render_output(self, event, results):
        return render_output(event, results)


plugin = ClaudeCode()
