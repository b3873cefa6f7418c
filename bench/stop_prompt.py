"""Should Stop ask the agent for its lesson by default? Three policies, measured on scripted sessions.

    python bench/stop_prompt.py [--holdout]

Every session (bench/loop.py's 19, and bench/data/stop_prompt_sessions.json:
changed invocations, conventions, routine retries; --holdout plays
bench/data/stop_prompt_holdout.json instead of the latter) is played through
the real `lorebook hook` processes with LOREBOOK_STOP_PROMPT=always, so each
Stop shows whether lorebook wrote a lesson itself and whether it asked. The
policies compared:

- off       never ask (the default before this bench);
- resolved  ask only when a failing command's program later passed and
            lorebook wrote nothing (the same test the hook runs);
- always    ask after any failure or edit when lorebook wrote nothing.

An asked agent answers with write_task_memory's record, derived from what it
did and said (as the Stop prompt asks); two agents: an eager one that always
writes, and a disciplined one that writes only when its final message states a
cause. Their records go through the real preflight (`write_memory`, manual
mode, as over MCP). It prints, per policy and agent: asks (extra model turns),
lessons recovered (sessions a reviewer expects a lesson from that lorebook
missed), low-value notes stored (sessions with no lesson), and the tokens the
asks cost. The JSON summary is the last line.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "bench" / "data"


def _loop_module():
    spec = importlib.util.spec_from_file_location("lorebook_bench_loop", REPO / "bench" / "loop.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play(runner, session: dict) -> dict:
    """The session's hook events; the Stop hook's answer."""
    cwd = str(runner.projects[session["project"]])
    base = {"session_id": session["sid"], "cwd": cwd, "transcript_path": f"/tmp/{session['sid']}.jsonl"}
    runner.hook("SessionStart", dict(base, hook_event_name="SessionStart", source="startup"))
    runner.hook("UserPromptSubmit", dict(base, hook_event_name="UserPromptSubmit", prompt=session["prompt"]))
    for n, step in enumerate(session["steps"], 1):
        tool_use_id = f"{session['sid']}-t{n}"
        if step[0] == "fail":
            runner.hook("PostToolUseFailure", dict(base, hook_event_name="PostToolUseFailure", tool_name="Bash",
                                                   tool_use_id=tool_use_id, tool_input={"command": step[1]},
                                                   error=step[2], is_interrupt=False))
            continue
        if step[0] == "ok":
            payload = dict(base, tool_name="Bash", tool_input={"command": step[1]},
                           tool_response={"stdout": step[2], "stderr": "", "interrupted": False})
        elif step[0] == "edit":
            path = f"{cwd}/{step[1]}"
            payload = dict(base, tool_name="Edit", tool_input={"file_path": path, "old_string": step[2],
                                                               "new_string": step[3]},
                           tool_response={"filePath": path})
        elif step[0] == "write":
            path = f"{cwd}/{step[1]}"
            payload = dict(base, tool_name="Write", tool_input={"file_path": path, "content": step[2]},
                           tool_response={"filePath": path, "type": "create"})
        else:
            path = f"{cwd}/{step[1]}"
            payload = dict(base, tool_name="Read", tool_input={"file_path": path},
                           tool_response={"type": "text", "file": {"filePath": path, "content": "…"}})
        runner.hook("PostToolUse", dict(payload, hook_event_name="PostToolUse", tool_use_id=tool_use_id))
    stop = dict(base, hook_event_name="Stop", stop_hook_active=False, last_assistant_message=session["stop"])
    answer, _ = runner.hook("Stop", stop)
    return answer


def agent_record(session: dict, observations: list[dict]) -> dict:
    """What an agent asked at Stop writes with write_task_memory: the record shape the Stop prompt asks for."""
    from lorebook.record import error_line, lesson_title

    failures = [o for o in observations if o["outcome"] == "error" and o["tool"] == "Bash"]
    passes = [o for o in observations if o["outcome"] == "ok" and o["tool"] == "Bash"]
    sentences = [s for s in re.split(r"(?<=[.;])\s+", session["stop"]) if s.strip()]
    failure = failures[0] if failures else None
    check = passes[-1] if passes else None
    error = error_line((failure or {}).get("error_text") or (failure or {}).get("body") or "")
    problem = f"`{failure['target']}` fails with {error}" if failure else session["prompt"]
    fix = next((s for s in sentences if re.search(r"(?i)\b(?:run|set|add|pin|install|need|must|use)", s)),
               sentences[-1] if sentences else "")
    record = {
        "title": lesson_title(problem, f"run it as `{check['target']}`" if check and failure
                              and check["target"] != failure["target"] else fix),
        "summary": " ".join(sentences[:2]), "kind": "fix",
        "trigger": f"Running `{failure['target']}`" if failure else session["prompt"],
        "evidence": [{"quote": error, "source": f"`{failure['target']}` failed", "observation_id": failure["id"]}]
        if failure and error else [{"quote": session["stop"][:200], "source": "the agent's final message"}],
        "change": f"`{check['target']}`" if check else fix,
        "validation": {"passed": [f"`{check['target']}` passed"] if check else [], "not_performed": []},
    }
    return record


def states_a_cause(message: str) -> bool:
    from lorebook.account import stated

    return bool(stated(message)["cause"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--holdout", action="store_true", help="Play the held-out sessions instead of the tuning set.")
    args = parser.parse_args()
    loop = _loop_module()
    extra = json.loads((DATA / ("stop_prompt_holdout.json" if args.holdout else "stop_prompt_sessions.json")).read_text())
    sessions = [dict(s, lesson=s["expect"] in ("created", "merged")) for s in loop.SESSIONS if not s.get("replay")]
    sessions += extra
    root = Path(tempfile.mkdtemp(prefix="lorebook-stop-prompt-"))
    runner = loop.Runner(root)
    runner.env["LOREBOOK_STOP_PROMPT"] = "always"
    if os.environ.get("PYTHONPATH"):  # measure another checkout's code (e.g. a branch's candidates) as well
        runner.env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    os.environ["LOREBOOK_HOME"] = str(runner.home)
    from lorebook.hooks.stop import STOP_PROMPT, would_ask
    from lorebook.text import estimate_tokens

    rows = []
    for session in sessions:
        answer = play(runner, session)
        rows.append({"session": session, "blocked": answer.get("decision") == "block"})
    from lorebook.store import Store

    db = runner.home / "lorebook.db"
    store = Store(db)
    for row in rows:
        sid = row["session"]["sid"]
        decision, detail = runner.decision(row["session"])
        row["wrote"] = decision in ("created", "merged")
        row["observations"] = store.session_observations(sid)
        results = [{"decision": decision, "reason_codes": [c for c in detail["reasons"] if c != "asked_agent"]}]
        for mode in ("resolved", "always"):  # the hook's own rule, on what the hook saw
            row[f"asked_{mode}"] = would_ask(mode, row["observations"], results)
        assert row["asked_always"] == row["blocked"], row["session"]["name"]  # the rule is the hook's
    store.close()
    prompt_tokens = estimate_tokens(STOP_PROMPT)
    summary = {}
    print(f"{'session':<66} lesson wrote ask:resolved ask:always")
    for row in rows:
        s = row["session"]
        print(f"{s['name'][:65]:<66} {'yes' if s['lesson'] else 'no ':<6} {'yes' if row['wrote'] else 'no ':<5} "
              f"{'ASK' if row['asked_resolved'] else '-':<12} {'ASK' if row['asked_always'] else '-'}")
    print()
    from lorebook.decision import write_memory

    for policy in ("off", "resolved", "always"):
        for agent in ("eager", "disciplined"):
            copy = root / f"{policy}-{agent}.db"
            shutil.copy(db, copy)
            for suffix in ("-wal", "-shm"):
                if Path(str(db) + suffix).exists():
                    shutil.copy(str(db) + suffix, str(copy) + suffix)
            store = Store(copy)
            asks = recovered = low_value = written = tokens = 0
            missed = sum(1 for r in rows if r["session"]["lesson"] and not r["wrote"])
            for row in rows:
                asked = policy != "off" and row[f"asked_{policy}"]
                if not asked:
                    continue
                asks += 1
                tokens += prompt_tokens
                s = row["session"]
                if agent == "disciplined" and not states_a_cause(s["stop"]):
                    continue
                record = agent_record(s, row["observations"])
                tokens += estimate_tokens(json.dumps(record))
                record["project_key"] = (store.get_session(s["sid"]) or {}).get("project_key")
                result = write_memory(store, record, mode="manual", source_agent="claude-code",
                                      source_run_key=f"{s['sid']}:agent", session_id=s["sid"])
                stored = result["decision"] in ("created", "merged")
                written += stored
                recovered += stored and s["lesson"] and not row["wrote"]
                low_value += stored and not s["lesson"]
            store.close()
            summary[f"{policy}/{agent}"] = {"asks": asks, "notes_written_by_agent": written,
                                            "lessons_missed_by_lorebook": missed, "recovered": recovered,
                                            "low_value_stored": low_value,
                                            "tokens_per_session": round(tokens / len(rows), 1)}
            print(f"{policy:>8} / {agent:<11} asks {asks:>2} of {len(rows)} sessions · recovered {recovered} of "
                  f"{missed} missed lessons · low-value notes stored {low_value} · "
                  f"~{tokens / len(rows):.0f} tokens a session")
    shutil.rmtree(root, ignore_errors=True)
    print(json.dumps({"set": "holdout" if args.holdout else "tuning", "sessions": len(rows),
                      "stop_prompt_tokens": prompt_tokens, "policies": summary}))


if __name__ == "__main__":
    sys.exit(main())
