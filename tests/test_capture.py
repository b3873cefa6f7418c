"""Capture: every tool event, from real Claude Code payloads, becomes a specific, readable observation."""
import json
from pathlib import Path

import pytest

from hookutil import run_hook

FIXTURES = Path(__file__).parent / "fixtures"
VERSIONS = ("2.1.112", "2.1.332")


def tool_payloads(version):
    """Real PostToolUse(Failure)/SubagentStop stdin recorded from claude <version> (make_tool_payloads.py)."""
    return json.loads((FIXTURES / f"tool-payloads-{version}.json").read_text())


def replay(payload):
    event = {"PostToolUse": "post-tool-use", "PostToolUseFailure": "post-tool-use-failure",
             "SubagentStop": "subagent-stop", "UserPromptSubmit": "user-prompt-submit"}[payload["hook_event_name"]]
    code, out = run_hook(event, payload)
    assert (code, out) == (0, {})


def observation_for(store, tool_use_id):
    row = store.conn.execute("SELECT id FROM observations WHERE tool_use_id = ?", (tool_use_id,)).fetchone()
    assert row is not None, f"no observation for {tool_use_id}"
    return store.get_observation(row[0])


def find(payloads, tool, event="PostToolUse", **match):
    for p in payloads:
        if p.get("tool_name") == tool and p["hook_event_name"] == event and all(
                p["tool_input"].get(k) == v for k, v in match.items()):
            return p
    raise LookupError(f"{event} {tool} {match}")


@pytest.fixture(autouse=True)
def fresh_capture_caches():
    from lorebook.hooks import capture

    capture.reset_caches()
    yield
    capture.reset_caches()


@pytest.mark.parametrize("version", VERSIONS)
def test_every_recorded_tool_event_gives_a_specific_observation(version, store):
    payloads = tool_payloads(version)
    for payload in payloads:
        replay(payload)
    tool_events = [p for p in payloads if p["hook_event_name"] in ("PostToolUse", "PostToolUseFailure")]
    for payload in tool_events:
        obs = observation_for(store, payload["tool_use_id"])
        assert obs["tool"] == payload["tool_name"]
        assert obs["summary"] and obs["summary"] != obs["tool"], obs
        assert obs["outcome"] == ("error" if payload["hook_event_name"] == "PostToolUseFailure" else "ok")
        assert obs["source"] == "hook" and obs["session_id"] == payload["session_id"]
        assert obs["project_key"]  # the project was identified (once, for the session)
    assert store.stats()["observations"] == len(tool_events) + 1  # + the SubagentStop report


@pytest.mark.parametrize("version", VERSIONS)
def test_file_tools(version, store):
    payloads = tool_payloads(version)
    for payload in payloads:
        replay(payload)
    write = observation_for(store, find(payloads, "Write")["tool_use_id"])
    assert write["summary"] == "Write notes.txt (created, 2 lines)"
    assert write["files"] == [find(payloads, "Write")["tool_input"]["file_path"]]
    assert write["body"] == "alpha\nbeta\n"
    read = observation_for(store, find(payloads, "Read", file_path=write["files"][0])["tool_use_id"])
    assert read["summary"] == "Read notes.txt (3 lines)"
    assert read["meta"] == {"type": "text", "start": 1, "lines": 3, "total": 3}
    edit = observation_for(store, find(payloads, "Edit")["tool_use_id"])
    assert edit["summary"] == "Edit notes.txt (+1 −1)"
    assert "-beta\n+gamma" in edit["body"] and edit["meta"]["added"] == 1
    notebook = observation_for(store, find(payloads, "NotebookEdit")["tool_use_id"])
    assert notebook["summary"] == "NotebookEdit analysis.ipynb (replace code cell c1)"
    assert notebook["body"] == "print(2)"
    nb_read = [p for p in payloads if p.get("tool_name") == "Read" and p["tool_input"]["file_path"].endswith(".ipynb")]
    assert observation_for(store, nb_read[0]["tool_use_id"])["summary"] == "Read analysis.ipynb (notebook, 1 cell)"
    missing = observation_for(store, find(payloads, "Read", event="PostToolUseFailure")["tool_use_id"])
    assert missing["summary"].startswith("Read missing.txt ✗ File does not exist.")
    assert missing["error_text"].startswith("File does not exist.")


@pytest.mark.parametrize("version", VERSIONS)
def test_bash_success_and_failure(version, store):
    payloads = tool_payloads(version)
    for payload in payloads:
        replay(payload)
    ok = observation_for(store, find(payloads, "Bash", command="printf 'line1\\nline2\\n'")["tool_use_id"])
    assert ok["summary"] == "$ printf 'line1\\nline2\\n' → ok, 2 lines"
    assert (ok["exit_code"], ok["body"], ok["error_signature"]) == (0, "line1\nline2", None)
    assert ok["meta"]["description"] == "two lines"
    failed = observation_for(store, find(payloads, "Bash", event="PostToolUseFailure")["tool_use_id"])
    assert failed["exit_code"] == 1
    assert failed["error_signature"] == "ModuleNotFoundError: No module named '<mod>'"
    assert failed["summary"] == ("$ python3 -c 'import yaml_missing_mod' → exit 1: "
                                 "ModuleNotFoundError: No module named 'yaml_missing_mod'")
    assert "No module named 'yaml_missing_mod'" in failed["error_text"]  # the specifics stay searchable


def test_failure_without_an_error_line_is_named_by_program_and_exit_status(captured_payloads, store):
    payload = captured_payloads["2.1.332"]["PostToolUseFailure(Bash)"]  # cat notes.txt; exit 3
    replay(payload)
    obs = observation_for(store, payload["tool_use_id"])
    assert (obs["exit_code"], obs["error_signature"], obs["outcome"]) == (3, "cat: exit code 3", "error")
    assert obs["body"] == "alpha\ngamma"


def test_search_tools_from_2_1_112(store):
    payloads = tool_payloads("2.1.112")  # 2.1.332 no longer offers Grep/Glob/TodoWrite in this mode
    for payload in payloads:
        replay(payload)
    grep = observation_for(store, find(payloads, "Grep", pattern="def main")["tool_use_id"])
    assert grep["summary"] == 'Grep "def main" in . → 1 file'
    assert grep["body"] == "src/app.py"
    content = observation_for(store, find(payloads, "Grep", pattern="getcwd")["tool_use_id"])
    assert content["summary"] == 'Grep "getcwd" in . → 1 matching line'
    assert content["body"] == "src/app.py:4:    return os.getcwd()"
    glob = observation_for(store, find(payloads, "Glob")["tool_use_id"])
    assert glob["summary"] == "Glob **/*.py in . → 1 file" and glob["body"] == "src/app.py"
    todo = observation_for(store, find(payloads, "TodoWrite")["tool_use_id"])
    assert todo["summary"] == "TodoWrite 3 items: 1 done, 1 in progress, 1 pending; now: Fix the import"
    assert todo["body"] == "[x] Reproduce the failure\n[>] Fix the import\n[ ] Run the tests"


@pytest.mark.parametrize("version", VERSIONS)
def test_web_mcp_and_agent_tools(version, store):
    payloads = tool_payloads(version)
    for payload in payloads:
        replay(payload)
    fetch = observation_for(store, find(payloads, "WebFetch", event="PostToolUseFailure")["tool_use_id"])
    assert fetch["summary"].startswith("WebFetch http://127.0.0.1:") and "✗ Unable to verify if domain" in fetch["summary"]
    search = observation_for(store, find(payloads, "WebSearch")["tool_use_id"])
    assert search["summary"] == 'WebSearch "sqlite wal checkpoint busy" → no results'
    mcp = observation_for(store, find(payloads, "mcp__lorebook__list_notes")["tool_use_id"])
    assert mcp["summary"] == 'MCP lorebook · list_notes(search="retry")'
    assert mcp["meta"] == {"server": "lorebook", "tool": "list_notes"}
    assert "Notes from lorebook" in mcp["body"]
    agent = observation_for(store, find(payloads, "Agent")["tool_use_id"])
    if version == "2.1.112":  # a foreground subagent: its result comes back in the tool response
        assert agent["summary"] == 'Agent general-purpose "probe" → completed: subagent found app.py'
        assert "Result:\nsubagent found app.py" in agent["body"]
    else:  # 2.1.332 runs it in the background: the result arrives with SubagentStop
        assert agent["summary"] == 'Agent general-purpose "probe" → launched in the background'
    assert agent["body"].startswith("Task: SUBAGENT_TASK: list files")


@pytest.mark.parametrize("version", VERSIONS)
def test_subagent_is_linked_to_its_parent(version, store):
    payloads = tool_payloads(version)
    for payload in payloads:
        replay(payload)
    stop = next(p for p in payloads if p["hook_event_name"] == "SubagentStop")
    parent, agent_id = stop["session_id"], stop["agent_id"]
    child = store.get_session(f"{parent}/agent-{agent_id}")
    assert child["parent_session_id"] == parent and child["agent_id"] == agent_id
    assert child["status"] == "closed" and child["last_assistant_message"] == "subagent found app.py"
    assert child["transcript_path"] == stop["agent_transcript_path"]
    report = [o for o in store.session_observations(parent) if o["event"] == "subagent_stop"]
    assert [o["summary"] for o in report] == ["Subagent general-purpose finished: subagent found app.py"]
    inner = find(payloads, "Bash", command="ls")  # the subagent's own tool call carries its agent_id
    assert observation_for(store, inner["tool_use_id"])["meta"]["agent_id"] == agent_id


def _base(tmp_path, sid="s1"):
    return {"session_id": sid, "cwd": str(tmp_path), "transcript_path": str(tmp_path / f"{sid}.jsonl")}


def test_multiedit_and_ls_shapes(tmp_path, store):
    """Neither tool exists in 2.1.112 or 2.1.332 (both answer "No such tool available"); older CLIs sent these shapes."""
    base = _base(tmp_path)
    path = str(tmp_path / "app.py")
    run_hook("post-tool-use", dict(base, tool_name="MultiEdit", tool_use_id="me1",
             tool_input={"file_path": path, "edits": [{"old_string": "a = 1", "new_string": "a = 2"},
                                                        {"old_string": "b = 1\n", "new_string": "b = 2\nc = 3\n"}]},
             tool_response={"filePath": path, "edits": [], "originalFileContents": "a = 1\nb = 1\n",
                            "structuredPatch": [{"oldStart": 1, "oldLines": 2, "newStart": 1, "newLines": 3,
                                                 "lines": ["-a = 1", "-b = 1", "+a = 2", "+b = 2", "+c = 3"]}]}))
    run_hook("post-tool-use", dict(base, tool_name="LS", tool_use_id="ls1", tool_input={"path": str(tmp_path)},
             tool_response=f"- {tmp_path}/\n  - app.py\n  - tests/\n    - test_app.py\n"))
    multi = observation_for(store, "me1")
    assert multi["summary"] == "MultiEdit app.py (2 edits, +3 −2)" and multi["files"] == [path]
    ls = observation_for(store, "ls1")
    assert ls["summary"] == "LS . → 3 entries"


def test_unknown_tool_gives_a_generic_bounded_record(tmp_path, store):
    run_hook("post-tool-use", dict(_base(tmp_path), tool_name="ExitPlanMode", tool_use_id="u1",
             tool_input={"plan": "1. Reproduce\n2. Fix", "api_key": "sk-proj-" + "A1b2C3d4" * 6},
             tool_response={"result": "x" * 20_000}))
    obs = observation_for(store, "u1")
    assert obs["summary"].startswith('ExitPlanMode(plan="1. Reproduce 2. Fix", api_key="[REDACTED:')
    assert obs["meta"] == {"generic": True}
    assert len(obs["body"]) < 2000 and "truncated" in obs["body"]


def test_a_call_the_user_rejected_never_ran_and_is_not_stored(tmp_path, store):
    # (a real session imported: ``pip install --user pre-commit``, turned down by the user, stored as pip failing)
    rejected = ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file "
                "edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to "
                "tell you how to proceed.")
    run_hook("post-tool-use-failure", dict(_base(tmp_path), tool_name="Bash", tool_use_id="r1",
             tool_input={"command": "pip install --user pre-commit"}, error=rejected))
    run_hook("post-tool-use-failure", dict(_base(tmp_path), tool_name="Bash", tool_use_id="r2",
             tool_input={"command": "pip install pre-commit"},
             error="Exit code 1\nerror: externally-managed-environment"))
    assert [row[0] for row in store.conn.execute("SELECT tool_use_id FROM observations")] == ["r2"]


def test_a_third_party_extractor_overrides_a_builtin(tmp_path, store):
    from lorebook import hookimpl
    from lorebook.hooks import capture
    from lorebook.plugins import load_plugins

    class Plugin:
        @hookimpl
        def register_tool_extractors(self, register):
            register("Bash", lambda call: {"target": call.input["command"], "summary": "custom bash", "body": ""})
            register("mcp__acme__", lambda call: {"target": "acme", "summary": "acme tool"})

    pm = load_plugins()
    pm.register(Plugin(), name="extractor-test")
    capture.reset_caches()
    try:
        run_hook("post-tool-use", dict(_base(tmp_path), tool_name="Bash", tool_use_id="b1",
                                       tool_input={"command": "ls"}, tool_response={"stdout": "x"}))
        run_hook("post-tool-use", dict(_base(tmp_path), tool_name="mcp__acme__deploy", tool_use_id="m1",
                                       tool_input={}, tool_response="ok"))
        run_hook("post-tool-use", dict(_base(tmp_path), tool_name="mcp__other__x", tool_use_id="m2",
                                       tool_input={"q": 1}, tool_response="ok"))
    finally:
        pm.unregister(name="extractor-test")
        capture.reset_caches()
    assert observation_for(store, "b1")["summary"] == "custom bash"
    assert observation_for(store, "m1")["summary"] == "acme tool"
    assert observation_for(store, "m2")["summary"] == "MCP other · x(q=1)"


def test_replayed_event_is_stored_once(captured_payloads, store):
    payload = captured_payloads["2.1.332"]["PostToolUse(Bash)"]
    for _ in range(3):
        replay(payload)
    assert store.stats()["observations"] == 1


def test_identical_events_without_an_id_dedupe_by_content(tmp_path, store):
    event = dict(_base(tmp_path), tool_name="Bash", tool_input={"command": "git status"},
                 tool_response={"stdout": "clean"})
    run_hook("post-tool-use", event)
    run_hook("post-tool-use", event)
    run_hook("post-tool-use", dict(event, tool_response={"stdout": "modified: a.py"}))
    assert store.stats()["observations"] == 2


@pytest.mark.parametrize("raw", [
    "caf\udce9 \ud800 lone surrogates",              # what json.loads makes of "\udce9"
    "\x00\x01\x02\x03" * 500 + "binary",             # a binary file piped to stdout
    "\u00e9\u00e8 \u65e5\u672c\u8a9e \U0001f600",     # ordinary non-ASCII
])
def test_odd_output_is_stored_safely(tmp_path, store, raw):
    run_hook("post-tool-use", dict(_base(tmp_path), tool_name="Bash", tool_use_id="odd",
                                   tool_input={"command": "cat blob"}, tool_response={"stdout": raw, "stderr": ""}))
    obs = observation_for(store, "odd")
    assert obs["outcome"] == "ok"
    obs["body"].encode("utf-8")  # storable and readable back
    if raw.startswith("\x00"):
        assert obs["body"].startswith("[binary output:")


def test_long_output_keeps_head_and_tail_with_a_marker(tmp_path, store):
    lines = [f"line {i}" for i in range(5000)]
    run_hook("post-tool-use", dict(_base(tmp_path), tool_name="Bash", tool_use_id="long",
                                   tool_input={"command": "seq"}, tool_response={"stdout": "\n".join(lines)}))
    body = observation_for(store, "long")["body"]
    assert body.startswith("line 0\nline 1") and body.endswith("line 4999")
    assert "chars truncated]" in body and len(body) < 3000


def test_a_long_command_is_stored_whole(tmp_path, store):
    # (blind300 KO21: a 575-character spark-submit line cut at 500 no longer compared with the run that failed)
    command = "spark-submit " + " ".join(f"--conf spark.opt{i}=value{i}" for i in range(40)) + " jobs/dedupe.py"
    run_hook("post-tool-use", dict(_base(tmp_path), tool_name="Bash", tool_use_id="longcmd",
                                   tool_input={"command": command}, tool_response={"stdout": "done"}))
    assert len(command) > 1000 and observation_for(store, "longcmd")["target"] == command


def test_a_secret_at_a_cut_is_still_redacted(tmp_path, store, lorebook_home):
    token = "ghp_" + "Zx9" * 12
    # the secret sits where an excerpt is cut: head and tail windows and the final bound
    for i, size in enumerate((2_390, 64 * 1024 - 10, 150_000)):
        stdout = "a" * size + f" token={token} " + "b" * size
        run_hook("post-tool-use", dict(_base(tmp_path), tool_name="Bash", tool_use_id=f"cut{i}",
                                       tool_input={"command": "dump"}, tool_response={"stdout": stdout}))
    assert_not_on_disk(lorebook_home, [token, token[:20], token[-20:]])


def assert_not_on_disk(home: Path, secrets):
    files = [p for p in home.rglob("*") if p.is_file()]
    assert any(p.name == "lorebook.db" for p in files)
    for path in files:
        data = path.read_bytes()
        for secret in secrets:
            assert secret.encode() not in data, f"{secret!r} found in {path}"


def test_secrets_never_reach_the_database_wal_or_log(tmp_path, store, lorebook_home, monkeypatch):
    aws = "AKIA" + "Q7RZ4X2M9PLK3JTV"
    stripe = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
    password = "Tr0ub4dor-horse-92"
    base = _base(tmp_path)
    run_hook("user-prompt-submit", dict(base, prompt=f"deploy with AWS_ACCESS_KEY_ID={aws} please"))
    run_hook("post-tool-use", dict(base, tool_name="Bash", tool_use_id="s1",
                                   tool_input={"command": f"curl -u admin:{password} https://api.acme.io"},
                                   tool_response={"stdout": f"export STRIPE_KEY={stripe}\n", "stderr": ""}))
    run_hook("post-tool-use-failure", dict(base, tool_name="Bash", tool_use_id="s2",
                                           tool_input={"command": "psql"},
                                           error=f"Exit code 2\npsql: error: password={password} rejected"))
    run_hook("post-tool-use", dict(base, tool_name="Write", tool_use_id="s3",
                                   tool_input={"file_path": str(tmp_path / "settings.py"),
                                               "content": f'DB_PASSWORD = "{password}"\n'},
                                   tool_response={"type": "create", "filePath": str(tmp_path / "settings.py")}))
    # an internal error logs its traceback: the secret in the exception message must not reach the log
    import lorebook.hooks.capture as capture

    def boom(call):
        raise RuntimeError(f"bad payload with {stripe}")

    monkeypatch.setattr(capture, "extract", boom)
    run_hook("post-tool-use", dict(base, tool_name="Bash", tool_use_id="s4", tool_input={"command": "x"}))
    assert "RuntimeError" in (lorebook_home / "logs" / "hooks.log").read_text()
    assert store.stats()["observations"] == 3 and store.stats()["prompts"] == 1
    assert (lorebook_home / "lorebook.db-wal").exists()
    assert_not_on_disk(lorebook_home, [aws, stripe, password])
    rows = store.conn.execute("SELECT summary, body, error_text, target FROM observations").fetchall()
    assert any("[REDACTED:" in (r["body"] or "") + (r["target"] or "") for r in rows)


def test_a_secret_the_command_gave_is_redacted_where_its_own_output_prints_it(tmp_path, store, lorebook_home):
    # (blind223 HP12: ``KEYCHAIN_PASSWORD='…' ./ci/sign.sh`` traced each line it ran, the password in them, with a
    # flag no rule knows; the fingerprints were recorded only after this event's own output was stored)
    value = "kc-9fT2mQx7Lw4RzB"
    base = _base(tmp_path)
    run_hook("post-tool-use-failure", dict(base, tool_name="Bash", tool_use_id="k1",
                                           tool_input={"command": f"KEYCHAIN_PASSWORD='{value}' ./ci/sign.sh"},
                                           error=f"Exit code 1\n+ keytool-wrapper --secret-word {value} build.keychain\n"
                                                 "errSecInternalComponent"))
    assert_not_on_disk(lorebook_home, [value])
    body = store.conn.execute("SELECT error_text FROM observations WHERE tool_use_id = 'k1'").fetchone()[0]
    assert "--secret-word [REDACTED:seen-secret] build.keychain" in body, body


def test_a_secret_seen_redacted_once_is_redacted_where_it_comes_back(tmp_path, store, lorebook_home):
    # (a value no rule knows as a secret on its own: only its key, in the grep's output, says what it is)
    value = "7d1e3f9a:b84c20e6"
    base = _base(tmp_path)
    run_hook("post-tool-use", dict(base, tool_name="Bash", tool_use_id="g1",
                                   tool_input={"command": "grep -n CONTRIBSYS .env.local"},
                                   tool_response={"stdout": f".env.local:4:BUNDLE_GEMS__CONTRIBSYS__COM={value}\n",
                                                  "stderr": ""}))
    run_hook("post-tool-use", dict(base, tool_name="Bash", tool_use_id="g2",
                                   tool_input={"command": f"bundle config set --local gems.contribsys.com {value}"},
                                   tool_response={"stdout": "", "stderr": ""}))
    run_hook("user-prompt-submit", dict(base, prompt=f"is {value} still the right one?"))
    run_hook("stop", dict(base, hook_event_name="Stop", stop_hook_active=False,
                          last_assistant_message=f"Bundler reads them from the environment, and the value ({value}) "
                                                 "is in your git-ignored `.env.local`."))
    assert_not_on_disk(lorebook_home, [value])
    session = store.get_session(base["session_id"])
    assert "the value ([REDACTED:seen-secret]) is in" in session["last_assistant_message"]
    target = store.conn.execute("SELECT target FROM observations WHERE tool_use_id = 'g2'").fetchone()[0]
    assert target == "bundle config set --local gems.contribsys.com [REDACTED:seen-secret]"
    # the session keeps fingerprints, never the values; another session's text is left alone
    prints = store.secret_prints(base["session_id"])
    assert prints and not any(value in p or "7d1e" in p for p in prints)
    assert store.secret_prints("another-session") == set()


def test_private_blocks_are_dropped_everywhere(tmp_path, store, lorebook_home):
    base = _base(tmp_path)
    run_hook("user-prompt-submit", dict(base, prompt="fix the build <private>my bank pin is 4417</private> now"))
    run_hook("user-prompt-submit", dict(base, prompt="<private>only a private note</private>"))
    run_hook("post-tool-use", dict(base, tool_name="Write", tool_use_id="p1",
                                   tool_input={"file_path": str(tmp_path / "notes.md"),
                                               "content": "public\n<private>\ndiary entry kumquat\n</private>\nend"},
                                   tool_response={"type": "create"}))
    run_hook("post-tool-use", dict(base, tool_name="Bash", tool_use_id="p2", tool_input={"command": "cat notes.md"},
                                   tool_response={"stdout": "public\n<private>\ndiary entry kumquat\n</private>\nend"}))
    assert [p["text"] for p in store.session_prompts("s1")] == ["fix the build [private] now"]
    assert observation_for(store, "p1")["body"] == "public\n[private]\nend"
    assert observation_for(store, "p2")["body"] == "public\n[private]\nend"
    assert_not_on_disk(lorebook_home, ["4417", "kumquat", "only a private note"])


def test_synthetic_prompts_are_not_the_users_words(captured_payloads, store):
    replay(captured_payloads["2.1.332"]["UserPromptSubmit(task-notification)"])
    replay(captured_payloads["2.1.332"]["UserPromptSubmit"])
    assert [p["text"] for p in store.conn.execute("SELECT text FROM prompts")] == ["Please run echo hello"]
    # (a compaction's summary is Claude Code's text, flagged or not: a real session's export read it as the user's
    # diagnosis)
    from lorebook.hooks.claude_code import is_synthetic_prompt

    assert is_synthetic_prompt("This session is being continued from a previous conversation that ran out of "
                               "context. The conversation is summarized below:\n<analysis>")


def write_config(home: Path, **config):
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.json").write_text(json.dumps(config))


def test_default_path_exclusions(tmp_path, store, lorebook_home):
    base = _base(tmp_path)
    secret_line = "STRIPE_KEY=plainvalue-that-is-secret"
    for i, name in enumerate((".env", ".env.production", "secrets/db.yaml", "deploy/server.pem", "home/.ssh/id_rsa")):
        run_hook("post-tool-use", dict(base, tool_name="Read", tool_use_id=f"r{i}",
                                       tool_input={"file_path": str(tmp_path / name)},
                                       tool_response={"type": "text", "file": {"filePath": str(tmp_path / name),
                                                                               "content": secret_line}}))
    run_hook("post-tool-use", dict(base, tool_name="Bash", tool_use_id="b1", tool_input={"command": "cat .env"},
                                   tool_response={"stdout": secret_line}))
    run_hook("post-tool-use", dict(base, tool_name="Read", tool_use_id="ok",
                                   tool_input={"file_path": str(tmp_path / "env.py")},
                                   tool_response={"type": "text", "file": {"content": "import os"}}))
    tools = [(o["tool"], o["tool_use_id"]) for o in store.session_observations("s1")]
    assert tools == [("Bash", "b1"), ("Read", "ok")]
    bash = observation_for(store, "b1")
    assert bash["target"] == "cat .env"
    assert bash["body"] == "[output not stored: the command reads an excluded path (.env)]"
    assert bash["meta"]["output_withheld"] is True
    assert_not_on_disk(lorebook_home, ["plainvalue-that-is-secret"])


def test_configured_exclusions(tmp_path, store, lorebook_home, git_project):
    write_config(lorebook_home, exclude_tools=["mcp__slack__*", "WebFetch"], exclude_paths=["**/*.sql"],
                 exclude_projects=["github.com/acme/widget"])
    other = _base(tmp_path, "other")
    run_hook("post-tool-use", dict(other, tool_name="WebFetch", tool_use_id="w", tool_input={"url": "https://x.io"}))
    run_hook("post-tool-use", dict(other, tool_name="mcp__slack__post", tool_use_id="m", tool_input={"text": "hi"}))
    run_hook("post-tool-use", dict(other, tool_name="mcp__github__get", tool_use_id="g", tool_input={}))
    run_hook("post-tool-use", dict(other, tool_name="Read", tool_use_id="q", tool_input={"file_path": "db/dump.sql"}))
    widget = dict(_base(tmp_path, "widget"), cwd=str(git_project))
    run_hook("user-prompt-submit", dict(widget, prompt="refactor the widget"))
    run_hook("post-tool-use", dict(widget, tool_name="Bash", tool_use_id="x", tool_input={"command": "ls"},
                                   tool_response={"stdout": "a"}))
    assert [o["tool_use_id"] for o in store.session_observations("other")] == ["g"]
    assert store.session_observations("widget") == [] and store.session_prompts("widget") == []


def test_pre_compact_backfills_from_the_transcript_and_session_end_closes(tmp_path, store):
    source = FIXTURES / "tool-transcript-2.1.332.jsonl"
    session_id = json.loads(source.read_text().splitlines()[0])["sessionId"]
    transcript = tmp_path / f"{session_id}.jsonl"
    transcript.write_bytes(source.read_bytes())
    base = {"session_id": session_id, "cwd": str(tmp_path), "transcript_path": str(transcript)}
    run_hook("pre-compact", dict(base, hook_event_name="PreCompact", trigger="auto"))
    imported = store.session_observations(session_id)
    assert len(imported) > 10 and {o["source"] for o in imported} == {"import"}
    run_hook("session-end", dict(base, hook_event_name="SessionEnd", reason="other"))
    session = store.get_session(session_id)
    assert (session["status"], session["end_reason"]) == ("closed", "other") and session["ended_at"]
    assert len(store.session_observations(session_id)) == len(imported)  # the flush is idempotent


def test_a_secret_where_the_summary_is_cut_leaves_no_fragment(tmp_path, store, lorebook_home):
    token = "ghp_" + "Vb7" * 12
    command = "git push --force-with-lease " + "x" * 100 + f" https://{token}@github.com/acme/widget.git"
    run_hook("post-tool-use", dict(_base(tmp_path), tool_name="Bash", tool_use_id="cut-summary",
                                   tool_input={"command": command}, tool_response={"stdout": ""}))
    obs = observation_for(store, "cut-summary")
    assert "[REDACTED:github-token]" in obs["target"]
    assert_not_on_disk(lorebook_home, [token, token[:12]])


def test_a_heredoc_into_an_excluded_file_hides_every_value(tmp_path, store, lorebook_home):
    command = "cat > .env <<'EOF'\nAPP_UNLOCK_PHRASE=tangerine-orbit-lantern\nDEBUG=1\nEOF"
    run_hook("post-tool-use", dict(_base(tmp_path), tool_name="Bash", tool_use_id="heredoc",
                                   tool_input={"command": command}, tool_response={"stdout": ""}))
    obs = observation_for(store, "heredoc")
    assert "APP_UNLOCK_PHRASE=[REDACTED:env-value]" in obs["target"]
    assert_not_on_disk(lorebook_home, ["tangerine-orbit-lantern"])


EXPECTED_SUMMARIES = {
    "PostToolUse(Bash)": "$ echo hello → ok, 1 line",
    "PostToolUse(Write)": "Write notes.txt (created, 2 lines)",
    "PostToolUse(Read)": "Read notes.txt (3 lines)",
    "PostToolUse(Edit)": "Edit notes.txt (+1 −1)",
    "PostToolUseFailure(Bash)": "$ cat notes.txt; exit 3 → exit 3: alpha gamma",
}


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("label", [*EXPECTED_SUMMARIES, "PostToolUse(Agent)"])
def test_the_foundation_fixtures_give_specific_summaries(captured_payloads, store, version, label):
    payload = captured_payloads[version][label]
    replay(payload)
    obs = observation_for(store, payload["tool_use_id"])
    assert "generic" not in obs["meta"]
    if label == "PostToolUse(Agent)":
        assert obs["summary"].startswith('Agent general-purpose "probe" → ')
    else:
        assert obs["summary"] == EXPECTED_SUMMARIES[label]


def test_a_change_to_an_excluded_file_is_kept_as_the_fact_of_it_never_its_content(tmp_path, store, lorebook_home):
    base = _base(tmp_path)
    secret_line = "STRIPE_KEY=plainvalue-that-is-secret"
    run_hook("post-tool-use", dict(base, tool_name="Write", tool_use_id="w1",
                                   tool_input={"file_path": str(tmp_path / ".env.test"), "content": secret_line},
                                   tool_response={"type": "create", "filePath": str(tmp_path / ".env.test"),
                                                  "content": secret_line}))
    run_hook("post-tool-use", dict(base, tool_name="Edit", tool_use_id="e1",
                                   tool_input={"file_path": str(tmp_path / ".env"), "old_string": "A=1",
                                               "new_string": secret_line},
                                   tool_response={"filePath": str(tmp_path / ".env")}))
    write, edit = (observation_for(store, key) for key in ("w1", "e1"))
    assert write["target"] == ".env.test" and write["meta"]["content_withheld"] is True
    assert write["body"] == "[content not stored: .env.test is an excluded path]"
    assert edit["summary"] == "Edit .env (content not stored)"
    assert_not_on_disk(lorebook_home, ["plainvalue-that-is-secret", "STRIPE_KEY"])
