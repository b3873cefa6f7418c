"""``lorebook demo``: play a bundled Claude Code session through the real hook path.

The sample (templates/demo_session.json) is a failing test fixed by a config
change, as Claude Code 2.1.332 reports it to hooks. Each event runs as its own
``lorebook hook EVENT`` process, exactly as Claude Code would run it; then a
second session starts in the same project and the demo shows the context that
session receives.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .errors import LorebookError

# fixed ids: replaying the demo into a kept data dir is a retry, not a second lesson
FIRST_SESSION = "0d3e7a4c-5b1f-4c2e-9a7d-lorebook-demo1"
NEXT_SESSION = "0d3e7a4c-5b1f-4c2e-9a7d-lorebook-demo2"
EVENT_ARGS = {
    "SessionStart": "session-start", "UserPromptSubmit": "user-prompt-submit", "PostToolUse": "post-tool-use",
    "PostToolUseFailure": "post-tool-use-failure", "Stop": "stop", "SessionEnd": "session-end",
}


class DemoError(LorebookError):
    "A demo hook process did not behave as Claude Code needs it to"


@dataclass
class Step:
    event: str
    label: str
    exit_code: int
    output: dict


@dataclass
class DemoRun:
    project_dir: Path
    lorebook_home: Path
    steps: list[Step] = field(default_factory=list)
    context: str = ""
    stats: dict = field(default_factory=dict)  # the whole database's counts after the run
    notes: list[dict] = field(default_factory=list)  # the sample project's notes: {"id", "title"}


def sample_session() -> dict:
    """The bundled sample: project files and hook events with {session_id}/{cwd}/{transcript_path} slots."""
    from .render import template

    return json.loads(template("demo_session.json"))


def _fill(value, slots: dict):
    if isinstance(value, str):
        for key, replacement in slots.items():
            value = value.replace("{" + key + "}", replacement)
        return value
    if isinstance(value, list):
        return [_fill(v, slots) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, slots) for k, v in value.items()}
    return value


def _label(payload: dict) -> str:
    if payload.get("hook_event_name") == "Stop":
        return "the agent's last message: " + str(payload.get("last_assistant_message") or "")[:60] + "…"
    tool = payload.get("tool_name")
    if tool:
        tool_input = payload.get("tool_input") or {}
        target = tool_input.get("command") or os.path.basename(str(tool_input.get("file_path") or ""))
        return f"{tool}: {target}"
    if payload.get("prompt"):
        return f'"{payload["prompt"]}"'
    return payload.get("source") or payload.get("reason") or ""


def run_hook_process(event: str, payload: dict, env: dict, cwd: Path) -> Step:
    """One ``lorebook hook EVENT`` process, stdin JSON in, one JSON object out."""
    cmd = [sys.executable, "-m", "lorebook", "hook", EVENT_ARGS[event]]
    proc = subprocess.run(cmd, input=json.dumps(payload).encode(), capture_output=True, env=env, cwd=cwd,
                          timeout=60)
    try:
        output = json.loads(proc.stdout.decode("utf-8", "replace").strip() or "null")
    except ValueError as ex:
        raise DemoError(f"`lorebook hook {EVENT_ARGS[event]}` printed something that is not JSON: "
                        f"{proc.stdout[:200]!r}") from ex
    if proc.returncode != 0 or not isinstance(output, dict):
        raise DemoError(f"`lorebook hook {EVENT_ARGS[event]}` exited {proc.returncode} with {output!r}: "
                        f"{proc.stderr.decode('utf-8', 'replace')[-500:]}")
    return Step(event, _label(payload), proc.returncode, output)


def _make_git_checkout(project_dir: Path, remote: str | None) -> None:
    """Give the sample project a git identity (lorebook keys projects by their remote), as a real one has."""
    config = project_dir / ".git" / "config"
    if config.exists() or not remote:
        return
    config.parent.mkdir(parents=True, exist_ok=True)
    (project_dir / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    config.write_text(f'[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = {remote}\n'
                      '\tfetch = +refs/heads/*:refs/remotes/origin/*\n')


def play(project_dir: Path, lorebook_home: Path, on_step=None) -> DemoRun:
    """Play the sample session, then a second session's start; return what happened."""
    sample = sample_session()
    project_dir.mkdir(parents=True, exist_ok=True)
    for name, text in sample.get("project_files", {}).items():
        path = project_dir / name
        if not path.exists():
            path.write_text(text)
    _make_git_checkout(project_dir, sample.get("remote"))
    env = dict(os.environ, LOREBOOK_HOME=str(lorebook_home))
    env.pop("LOREBOOK_DISABLE", None)
    run = DemoRun(project_dir=project_dir, lorebook_home=lorebook_home)
    slots = {"session_id": FIRST_SESSION, "cwd": str(project_dir),
             "transcript_path": str(project_dir / ".demo-transcripts" / f"{FIRST_SESSION}.jsonl")}
    for item in sample["events"]:
        step = run_hook_process(item["event"], _fill(item["payload"], slots), env, project_dir)
        run.steps.append(step)
        if on_step:
            on_step(step)
    start = {"session_id": NEXT_SESSION, "cwd": str(project_dir), "hook_event_name": "SessionStart",
             "transcript_path": str(project_dir / ".demo-transcripts" / f"{NEXT_SESSION}.jsonl"), "source": "startup"}
    step = run_hook_process("SessionStart", start, env, project_dir)
    run.context = (step.output.get("hookSpecificOutput") or {}).get("additionalContext", "")
    from .store import Store

    from .project import identify

    store = Store(lorebook_home / "lorebook.db")
    try:
        run.stats = store.stats()
        project = identify(str(project_dir))
        if project is not None:
            notes, _ = store.list_notes(project_key=project.key, limit=50)
            run.notes = [{"id": n["id"], "title": n.get("title") or ""} for n in notes]
    finally:
        store.close()
    return run


def database_counts(db: Path) -> dict:
    """The counts of an existing database (empty when there is none): what a demo run adds is the difference."""
    if not db.exists():
        return {}
    from .store import Store

    store = Store(db)
    try:
        return store.stats()
    finally:
        store.close()
