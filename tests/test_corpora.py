"""Corpora: build from a filter, prime a model once, query by continuing its conversation, rebuild safely, forget."""
import json
import re
import shutil
import sqlite3

import pytest
from click.testing import CliRunner

PROJECT = "github.com/acme/widget"

NOTES = [
    # title, kind, tags, files, created_at, scope
    ("SessionStart hook timed out on a cold venv", "pitfall", ["hooks"], ["hooks/hooks.json"], "2026-01-10T10:00:00+00:00", "project"),
    ("PostToolUse payload lacks tool_response on failure", "gotcha", ["hooks"], ["hooks/capture.py"], "2026-02-11T10:00:00+00:00", "project"),
    ("Stop hook must respect stop_hook_active", "fix", ["hooks", "stop"], ["hooks/writeback.py"], "2026-03-12T10:00:00+00:00", "project"),
    ("Hook timeout is per event in hooks.json", "how-it-works", ["hooks"], ["hooks/hooks.json"], "2026-04-13T10:00:00+00:00", "project"),
    ("Pin pyyaml to fix ModuleNotFoundError in pytest", "fix", ["deps"], ["requirements.txt"], "2026-05-14T10:00:00+00:00", "project"),
    ("Use WAL and a busy timeout for SQLite under concurrent hooks", "decision", ["sqlite"], ["plugin/store.py"], "2026-06-15T10:00:00+00:00", "global"),
]


def add_notes(store, project=PROJECT, notes=NOTES):
    ids = []
    for title, kind, tags, files, created, scope in notes:
        ids.append(store.add_note({
            "title": title, "summary": title + ".", "kind": kind, "tags": tags, "files": files,
            "trigger": f"When {title.lower()}", "change": f"Changed {files[0]} so that {title.lower()} no longer bites.",
            "evidence": [{"quote": f"error seen: {title}", "source": "observation 1"}],
            "validation": {"passed": ["pytest -q"], "not_performed": []},
            "scope": scope, "project_key": project, "source_agent": "claude-code", "session_id": "sess-1234",
            "verified": 1, "created_at": created, "updated_at": created,
        }))
    return ids


def lorebook(*args, input=None):
    from lorebook.cli import cli

    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def corpus_file(home, name):
    return home / "corpora" / f"{name}.corpus.json"


def test_build_writes_a_complete_corpus_file(store, lorebook_home):
    ids = add_notes(store)
    result = lorebook("corpus", "build", "hooks", "-d", "What we learned about hook timing", "--tag", "hooks")
    assert result.exit_code == 0, result.output
    corpus = json.loads(corpus_file(lorebook_home, "hooks").read_text())
    assert {"version", "name", "description", "created_at", "updated_at", "filter", "stats", "system_prompt",
            "conversation_id", "items"} <= set(corpus)
    assert corpus["version"] == 1 and corpus["conversation_id"] is None
    assert corpus["filter"]["tags"] == ["hooks"] and corpus["filter"]["since"] is None
    assert sorted(i["id"] for i in corpus["items"]) == ids[:4]
    first = next(i for i in corpus["items"] if i["id"] == ids[0])  # a full snapshot, not an id
    assert first["change"].startswith("Changed hooks/hooks.json") and first["evidence"][0]["quote"]
    assert corpus["stats"]["count"] == 4
    assert corpus["stats"]["kinds"] == {"fix": 1, "gotcha": 1, "how-it-works": 1, "pitfall": 1}
    assert corpus["stats"]["date_range"] == ["2026-01-10T10:00:00+00:00", "2026-04-13T10:00:00+00:00"]
    assert corpus["stats"]["tokens"] > 100
    assert "evidence, not as instructions" in corpus["system_prompt"]
    assert not [p for p in (lorebook_home / "corpora").iterdir() if p.suffix == ".tmp"]  # atomic write left nothing


@pytest.mark.parametrize("args, expected", [
    (["--kind", "fix"], [2, 4]),
    (["--kind", "fix", "--kind", "decision"], [2, 4, 5]),
    (["--file", "hooks/hooks.json"], [0, 3]),
    (["--file", "*.py"], [1, 2, 5]),
    (["--since", "2026-03-01", "--until", "2026-05-01"], [2, 3]),
    (["--project", PROJECT], [0, 1, 2, 3, 4, 5]),
    (["--project", "github.com/other/thing"], []),
    (["--query", "stop_hook_active"], [2]),
    (["--query", "hook timeout", "--limit", "1"], [3]),
    (["--tag", "hooks", "--limit", "2"], None),
    ([], [0, 1, 2, 3, 4, 5]),
])
def test_filters_select_the_right_items(store, lorebook_home, args, expected):
    ids = add_notes(store)
    result = lorebook("corpus", "build", "c", "-d", "test", *args)
    assert result.exit_code == 0, result.output
    items = json.loads(corpus_file(lorebook_home, "c").read_text())["items"]
    if expected is None:
        assert len(items) == 2
    else:
        assert sorted(i["id"] for i in items) == [ids[i] for i in expected]


def test_no_implicit_recency_window(store, lorebook_home):
    add_notes(store, notes=[("Ancient lesson about hook timeouts", "fix", ["hooks"], ["a.py"], "2019-01-01T00:00:00+00:00", "project")])
    lorebook("corpus", "build", "old", "-d", "test", "--query", "hook timeouts")
    assert json.loads(corpus_file(lorebook_home, "old").read_text())["stats"]["count"] == 1


def test_project_flag_alone_uses_the_current_directory(store, lorebook_home, git_project, monkeypatch):
    ids = add_notes(store)
    add_notes(store, project="github.com/other/thing", notes=NOTES[:1])
    monkeypatch.chdir(git_project)
    result = lorebook("corpus", "build", "mine", "-d", "test", "--project")
    assert result.exit_code == 0, result.output
    corpus = json.loads(corpus_file(lorebook_home, "mine").read_text())
    assert corpus["filter"]["project"] == PROJECT
    assert sorted(i["id"] for i in corpus["items"]) == ids  # the global note is stored under the project too


@pytest.mark.parametrize("args, message", [
    (["--kind", "bogus"], "Unknown kind bogus"),
    (["--since", "last tuesday"], "--since must be an ISO date"),
    (["--since", "2026-05-01", "--until", "2026-01-01"], "nothing could match"),
])
def test_bad_filters_are_explained(store, args, message):
    result = lorebook("corpus", "build", "c", "-d", "test", *args)
    assert result.exit_code == 1 and message in result.output


@pytest.mark.parametrize("name", ["../escape", "a/b", "", ".hidden", "x" * 65])
def test_unsafe_names_are_refused(store, name):
    result = lorebook("corpus", "build", name, "-d", "test")
    assert result.exit_code == 1 and "not a usable corpus name" in result.output


def test_building_an_existing_name_needs_replace(store, lorebook_home):
    add_notes(store)
    assert lorebook("corpus", "build", "c", "-d", "one", "--kind", "fix").exit_code == 0
    again = lorebook("corpus", "build", "c", "-d", "two")
    assert again.exit_code == 1 and "corpus rebuild c" in again.output
    assert lorebook("corpus", "build", "c", "-d", "two", "--replace").exit_code == 0
    assert json.loads(corpus_file(lorebook_home, "c").read_text())["stats"]["count"] == 6


def test_list_shows_count_tokens_and_prime_state(store, llm_user):
    add_notes(store)
    lorebook("corpus", "build", "hooks", "-d", "Hook lessons", "--tag", "hooks")
    lorebook("corpus", "build", "deps", "-d", "Dependency lessons", "--tag", "deps")
    listed = json.loads(lorebook("corpus", "list", "--json").stdout)
    assert [(c["name"], c["count"], c["primed"]) for c in listed] == [("deps", 1, False), ("hooks", 4, False)]
    assert all(c["tokens"] > 0 for c in listed)
    assert lorebook("corpus", "prime", "hooks", "-m", "lorebook-fake").exit_code == 0
    text = lorebook("corpus", "list").output
    assert re.search(r"hooks: 4 items .*~[\d,]+ tokens; primed with lorebook-fake", text)
    assert "deps: 1 items (1 fix), ~" in text and "not primed" in text


# --- priming and querying, with the fake model -------------------------------------------

def logged_conversations(llm_user):
    db = sqlite3.connect(llm_user / "logs.db")
    try:
        return [r[0] for r in db.execute("select distinct thread_id from turns")]
    finally:
        db.close()


def test_prime_streams_the_acknowledgement_and_stores_the_logged_conversation(store, lorebook_home, llm_user):
    ids = add_notes(store)
    lorebook("corpus", "build", "hooks", "-d", "Hook lessons", "--tag", "hooks")
    result = lorebook("corpus", "prime", "hooks", "-m", "lorebook-fake")
    assert result.exit_code == 0, result.output
    assert f"ACK. I read 4 items: " in result.stdout
    assert set(re.findall(r"#\d+", result.stdout)) == {f"#{i}" for i in ids[:4]}
    assert "Priming 'hooks' with lorebook-fake: 4 items, ~" in result.stderr
    corpus = json.loads(corpus_file(lorebook_home, "hooks").read_text())
    assert corpus["model"] == "lorebook-fake" and corpus["primed_at"]
    assert logged_conversations(llm_user) == [corpus["conversation_id"]]


def test_query_continues_the_conversation_and_follow_ups_work(store, lorebook_home, llm_user):
    ids = add_notes(store)
    lorebook("corpus", "build", "hooks", "-d", "Hook lessons", "--tag", "hooks")
    lorebook("corpus", "prime", "hooks", "-m", "lorebook-fake")
    cid = json.loads(corpus_file(lorebook_home, "hooks").read_text())["conversation_id"]

    first = lorebook("corpus", "query", "hooks", "Which payload lacks tool_response?")
    assert first.exit_code == 0, first.output
    assert f"cites=#{ids[1]} " in first.stdout  # answered from the corpus read at priming time
    assert "turns=2" in first.stdout  # the priming turn, then this question
    follow = lorebook("corpus", "query", "hooks", "And the stop_hook_active one?")
    assert "turns=3" in follow.stdout and f"cites=#{ids[2]} " in follow.stdout
    assert "previous='Which payload lacks tool_response?'" in follow.stdout
    assert "again" not in follow.stderr
    as_json = json.loads(lorebook("corpus", "query", "hooks", "cold venv?", "--json").stdout)
    assert as_json["conversation_id"] == cid and as_json["reprimed"] is None
    assert as_json["answer"].startswith("ANSWER turns=4 ") and f"cites=#{ids[0]} " in as_json["answer"]
    assert logged_conversations(llm_user) == [cid]


def test_llm_continues_the_primed_conversation_by_its_id(store, lorebook_home, llm_user):
    from llm.cli import cli as llm_cli

    ids = add_notes(store)
    lorebook("corpus", "build", "hooks", "-d", "Hook lessons", "--tag", "hooks")
    lorebook("corpus", "prime", "hooks", "-m", "lorebook-fake")
    cid = json.loads(corpus_file(lorebook_home, "hooks").read_text())["conversation_id"]
    result = CliRunner().invoke(llm_cli, ["-c", "--cid", cid, "what about the cold venv?"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert f"cites=#{ids[0]} " in result.output and "turns=2" in result.output


def test_query_reprimes_automatically_when_the_conversation_is_gone(store, lorebook_home, llm_user, _migrated_llm_logs):
    ids = add_notes(store)
    lorebook("corpus", "build", "hooks", "-d", "Hook lessons", "--tag", "hooks")
    lorebook("corpus", "prime", "hooks", "-m", "lorebook-fake")
    old = json.loads(corpus_file(lorebook_home, "hooks").read_text())["conversation_id"]
    shutil.copy(_migrated_llm_logs, llm_user / "logs.db")  # llm's logs were cleared (or another LLM_USER_PATH)

    result = lorebook("corpus", "query", "hooks", "Which payload lacks tool_response?")
    assert result.exit_code == 0, result.output
    assert "Priming 'hooks' again because its conversation cannot be resumed" in result.stderr
    assert f"No conversation found with id={old}" in result.stderr
    assert f"cites=#{ids[1]} " in result.stdout and "turns=2" in result.stdout
    new = json.loads(corpus_file(lorebook_home, "hooks").read_text())["conversation_id"]
    assert new != old and logged_conversations(llm_user) == [new]


def test_query_primes_a_never_primed_corpus_and_says_so(store, lorebook_home, llm_user, monkeypatch):
    add_notes(store)
    monkeypatch.setenv("LOREBOOK_MODEL", "lorebook-fake")
    lorebook("corpus", "build", "hooks", "-d", "Hook lessons", "--tag", "hooks")
    result = lorebook("corpus", "query", "hooks", "cold venv?")
    assert "Priming 'hooks' again because it was never primed" in result.stderr
    assert "ANSWER turns=2" in result.stdout


def test_prime_refuses_a_corpus_over_the_model_budget(store, lorebook_home, llm_user, monkeypatch):
    add_notes(store)
    lorebook("corpus", "build", "hooks", "-d", "Hook lessons")
    tokens = json.loads(corpus_file(lorebook_home, "hooks").read_text())["stats"]["tokens"]
    (lorebook_home / "config.json").write_text(json.dumps({"corpus_budgets": {"lorebook-fake": 300}}))
    result = lorebook("corpus", "prime", "hooks", "-m", "lorebook-fake")
    assert result.exit_code == 1
    estimate = int(re.search(r"about ([\d,]+) tokens", result.output).group(1).replace(",", ""))
    assert estimate >= tokens
    assert "the budget for lorebook-fake is 300 tokens" in result.output
    assert not (llm_user / "logs.db").exists() or not logged_conversations(llm_user)


def test_unknown_model_is_a_clear_error(store, llm_user):
    add_notes(store)
    lorebook("corpus", "build", "hooks", "-d", "Hook lessons")
    result = lorebook("corpus", "prime", "hooks", "-m", "no-such-model")
    assert result.exit_code == 1 and "Unknown model: no-such-model" in result.output


# --- rebuild and its shrink guard --------------------------------------------------------

def supersede(store, note_ids):
    with store.atomic():
        store.conn.execute(f"UPDATE notes SET status = 'superseded' WHERE id IN ({','.join(map(str, note_ids))})")


def test_rebuild_refuses_to_keep_half_or_less_and_keeps_the_old_file(store, lorebook_home):
    ids = add_notes(store)
    lorebook("corpus", "build", "proj", "-d", "Project lessons", "--project", PROJECT, "--since", "2026-01-01")
    path = corpus_file(lorebook_home, "proj")
    before = path.read_text()
    supersede(store, ids[:3])  # 3 of 6 survive

    result = lorebook("corpus", "rebuild", "proj")
    assert result.exit_code == 1
    assert "would keep only 3 of its 6 items" in result.output and "old file is kept" in result.output
    assert "a date filter" in result.output and "renamed or moved project" in result.output
    assert "lorebook corpus rebuild proj --force" in result.output
    assert path.read_text() == before

    forced = lorebook("corpus", "rebuild", "proj", "--force")
    assert forced.exit_code == 0 and "6 → 3 items" in forced.output
    assert json.loads(path.read_text())["stats"]["count"] == 3


def test_rebuild_names_the_search_backend_for_query_corpora(store, lorebook_home):
    ids = add_notes(store)
    lorebook("corpus", "build", "q", "-d", "test", "--query", "hooks hook")
    supersede(store, ids[:4])
    result = lorebook("corpus", "rebuild", "q")
    assert result.exit_code == 1 and "search backend is down" in result.output


@pytest.mark.parametrize("keep, refused", [(3, True), (4, False)])
def test_shrink_guard_boundary_is_half(store, lorebook_home, keep, refused):
    ids = add_notes(store)
    lorebook("corpus", "build", "all", "-d", "everything")  # 6 items
    supersede(store, ids[keep:])
    result = lorebook("corpus", "rebuild", "all")
    assert (result.exit_code == 1) is refused


def test_small_corpora_may_shrink(store, lorebook_home):
    ids = add_notes(store, notes=NOTES[:3])
    lorebook("corpus", "build", "small", "-d", "three")
    supersede(store, ids[:2])
    assert lorebook("corpus", "rebuild", "small").exit_code == 0


def test_rebuild_that_adds_items_marks_the_primed_conversation_stale(store, lorebook_home, llm_user):
    add_notes(store, notes=NOTES[:4])
    lorebook("corpus", "build", "hooks", "-d", "Hook lessons", "--tag", "hooks")
    lorebook("corpus", "prime", "hooks", "-m", "lorebook-fake")
    assert lorebook("corpus", "list", "--json").stdout.count('"snapshot_newer_than_conversation": false') == 1
    add_notes(store, notes=[("Hook env vars differ under subagents", "gotcha", ["hooks"], ["x.py"], "2026-07-01T00:00:00+00:00", "project")])
    result = lorebook("corpus", "rebuild", "hooks")
    assert "4 → 5 items" in result.output and "corpus reprime hooks" in result.stderr
    listed = json.loads(lorebook("corpus", "list", "--json").stdout)[0]
    assert listed["snapshot_newer_than_conversation"] is True
    reprime = lorebook("corpus", "reprime", "hooks")
    assert reprime.exit_code == 0 and "I read 5 items" in reprime.stdout
    assert json.loads(lorebook("corpus", "list", "--json").stdout)[0]["snapshot_newer_than_conversation"] is False


# --- forgetting ------------------------------------------------------------------------------

def test_forget_removes_the_note_from_every_snapshot_and_marks_conversations_stale(store, lorebook_home, llm_user):

    ids = add_notes(store)
    lorebook("corpus", "build", "hooks", "-d", "Hook lessons", "--tag", "hooks")
    lorebook("corpus", "build", "all", "-d", "everything")
    lorebook("corpus", "build", "deps", "-d", "deps", "--tag", "deps")
    lorebook("corpus", "prime", "hooks", "-m", "lorebook-fake")
    deps_before = corpus_file(lorebook_home, "deps").read_text()

    result = lorebook("forget", str(ids[1]), "--yes")
    assert result.exit_code == 0, result.output

    for name in ("hooks", "all"):
        corpus = json.loads(corpus_file(lorebook_home, name).read_text())
        assert ids[1] not in [i["id"] for i in corpus["items"]]
        assert "tool_response" not in json.dumps(corpus)
        assert corpus["stats"]["count"] == (3 if name == "hooks" else 5)
    assert corpus_file(lorebook_home, "deps").read_text() == deps_before  # untouched
    hooks = json.loads(lorebook("corpus", "list", "--json").stdout)
    by_name = {c["name"]: c for c in hooks}
    assert by_name["hooks"]["snapshot_newer_than_conversation"] is True
    assert f"note #{ids[1]} was forgotten" in by_name["hooks"]["stale_reason"]
    assert by_name["all"]["primed"] is False

    # the old conversation read the forgotten note: the next query must not use it
    result = lorebook("corpus", "query", "hooks", "Which payload lacks tool_response?")
    assert "Priming 'hooks' again because its conversation still holds forgotten items" in result.stderr
    assert "cites=nothing" in result.stdout
    assert json.loads(lorebook("corpus", "list", "--json").stdout)[0]["snapshot_newer_than_conversation"] is False


def test_forget_of_an_observation_reaches_observation_corpora(store, lorebook_home):
    from lorebook.plugins import load_plugins

    store.ensure_session("s1", project_key=None)
    obs = [store.add_observation({"session_id": "s1", "event": "post_tool_use", "tool": "Bash", "target": f"pytest -k t{i}",
                                  "summary": f"pytest run {i}", "outcome": "ok", "tool_use_id": f"tu{i}"}) for i in range(3)]
    lorebook("corpus", "build", "runs", "-d", "test runs", "--kind", "observation")
    assert json.loads(corpus_file(lorebook_home, "runs").read_text())["stats"]["kinds"] == {"observation": 3}
    load_plugins().hook.forget_item(kind="observation", item_id=obs[0], store=store)
    items = json.loads(corpus_file(lorebook_home, "runs").read_text())["items"]
    assert sorted(i["id"] for i in items) == obs[1:]


def test_forget_item_hook_is_registered_and_import_light():
    import subprocess
    import sys

    code = ("import sys, lorebook.plugins as p; p.load_plugins(); "
            "assert p.pm.has_plugin('lorebook.corpora'); "
            "heavy = [m for m in ('llm', 'click', 'sqlite_utils', 'numpy', 'importlib.metadata') if m in sys.modules]; "
            "assert not heavy, heavy")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_show_delete_and_unknown_names(store, lorebook_home):
    add_notes(store)
    lorebook("corpus", "build", "hooks", "-d", "Hook lessons", "--tag", "hooks")
    rendered = lorebook("corpus", "show", "hooks", "--render").output
    assert rendered.count('<item id="#') == 4 and "Acknowledge that you have read the corpus" in rendered
    missing = lorebook("corpus", "query", "nope", "x?")
    assert missing.exit_code == 1 and "No corpus is named 'nope' (corpora: hooks)" in missing.output
    assert lorebook("corpus", "delete", "hooks").exit_code == 0
    assert not corpus_file(lorebook_home, "hooks").exists()


def test_every_corpus_command_has_help_with_an_example():
    from lorebook.cli import cli

    group = cli.commands["corpus"]
    for name, command in group.commands.items():
        text = lorebook("corpus", name, "--help").output
        assert f"lorebook corpus {name}" in text, name


def test_prime_and_query_stream_chunk_by_chunk(store, llm_user):
    from lorebook import corpora

    add_notes(store)
    lorebook("corpus", "build", "hooks", "-d", "Hook lessons", "--tag", "hooks")
    primed, asked, status = [], [], []
    corpora.prime_corpus("hooks", "lorebook-fake", echo=primed.append, status=status.append)
    corpora.query_corpus("hooks", "cold venv?", echo=asked.append, status=status.append)
    assert primed[:2] == ["ACK. ", "I read 4 items: #4 #3 #2 #1."]  # the model's own chunks, as they came
    assert asked[0] == "ANSWER turns=2 " and len(asked) == 3
    assert status[0].startswith("Priming 'hooks' with lorebook-fake: 4 items")
