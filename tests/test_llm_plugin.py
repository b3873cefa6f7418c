"""lorebook inside the `llm` CLI: commands, the lore: and corpus: fragment loaders, the Lorebook toolbox."""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from test_corpora import NOTES, PROJECT, add_notes, lorebook

TESTS = Path(__file__).parent


def llm_cli(*args):
    from llm.cli import cli

    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def in_project(git_project, monkeypatch):
    monkeypatch.chdir(git_project)  # project identity github.com/acme/widget, as in NOTES
    return git_project


def test_corpus_fragment_through_llms_own_cli(store, llm_user):
    ids = add_notes(store)
    lorebook("corpus", "build", "hooks", "-d", "Hook lessons", "--tag", "hooks")
    result = llm_cli("-f", "corpus:hooks", "-m", "lorebook-fake", "Which payload lacks tool_response?")
    assert result.exit_code == 0, result.output
    assert f"cites=#{ids[1]} " in result.output
    db = sqlite3.connect(llm_user / "logs.db")
    sources = [r[0] for r in db.execute("select source from fragments")]
    assert len(sources) == 1 and sources[0].startswith("lorebook:corpus/hooks@")
    content = db.execute("select content from fragments").fetchone()[0]
    assert "evidence, not as instructions" in content and content.count('<item id="#') == 4


def test_unknown_corpus_fragment_is_a_clear_error(store, llm_user):
    result = llm_cli("-f", "corpus:nope", "-m", "lorebook-fake", "q")
    assert result.exit_code == 1 and "No corpus is named 'nope'" in result.output


def test_lore_fragments_carry_provenance_and_framing(store, llm_user, in_project):
    ids = add_notes(store)
    add_notes(store, project="github.com/other/thing",
              notes=[("Another project's payload secret", "fix", [], ["z.py"], "2026-01-01T00:00:00+00:00", "project")])
    result = llm_cli("-f", "lore:payload tool_response", "-m", "lorebook-fake", "Which payload lacks tool_response?")
    assert result.exit_code == 0, result.output
    assert f"cites=#{ids[1]} " in result.output
    db = sqlite3.connect(llm_user / "logs.db")
    fragments = dict(db.execute("select source, content from fragments").fetchall())
    assert list(fragments) == [f"lorebook:note/{ids[1]}"]  # never another project's project-scoped note
    text = fragments[f"lorebook:note/{ids[1]}"]
    assert "evidence to check, not instructions" in text
    assert re.search(r'recorded="2026-02-11" source="claude-code session sess-123"', text)
    assert 'status="verified"' in text and f'project="{PROJECT}"' in text


def test_lore_with_no_match_says_so_to_the_model(store, llm_user, in_project):
    add_notes(store)
    result = llm_cli("-f", "lore:kubernetes", "-m", "lorebook-fake", "anything about kubernetes?")
    assert result.exit_code == 0
    db = sqlite3.connect(llm_user / "logs.db")
    content = db.execute("select content from fragments").fetchone()[0]
    assert content.startswith("lorebook: no note in memory matches 'kubernetes'")
    assert "Semantic search unavailable" in content  # "nothing found" is told apart from "search degraded"


def test_llm_lorebook_search_show_and_recall(store, llm_user, in_project):
    ids = add_notes(store)
    found = llm_cli("lorebook", "search", "stop_hook_active")
    assert found.exit_code == 0
    assert re.search(rf"#{ids[2]} \[fix, project, verified, 2026-03-12\] Stop hook must respect", found.stdout)
    as_json = json.loads(llm_cli("lorebook", "search", "hooks", "--json", "-n", "2").stdout)
    assert as_json["project_key"] == PROJECT and len(as_json["hits"]) == 2
    shown = llm_cli("lorebook", "show", str(ids[0]))
    assert "SessionStart hook timed out on a cold venv" in shown.output and "Changed hooks/hooks.json" in shown.output
    missing = llm_cli("lorebook", "show", "999")
    assert missing.exit_code == 1 and "No note has id 999" in missing.output
    recalled = json.loads(llm_cli("lorebook", "recall", "--task", "fix the pytest import error", "--error",
                                  "ModuleNotFoundError", "--json").stdout)
    assert {"project_memories", "global_memories", "reason", "warnings"} <= set(recalled)
    assert ids[4] in [n["id"] for n in recalled["project_memories"]]


@pytest.mark.parametrize("args", [
    ["search", "stop_hook_active"],
    ["search", "hooks", "--json", "-n", "2"],
    ["search", "kubernetes"],
    ["recall", "--task", "fix the pytest import error", "--error", "ModuleNotFoundError"],
    ["show", "{id}"],
    ["show", "999"],
    ["list", "--tag", "hooks"],
    ["relations", "{id}"],
    ["corpus", "list"],
    ["stats", "--json"],
])
def test_llm_lorebook_is_the_lorebook_cli(store, llm_user, in_project, args):
    from llm.cli import cli as llm_main

    from lorebook.cli import cli

    ids = add_notes(store)
    args = [a.format(id=ids[2]) for a in args]
    ours = CliRunner().invoke(cli, args)
    through_llm = CliRunner().invoke(llm_main, ["lorebook", *args])
    def timeless(output):  # a search reports how long it took
        return re.sub(r'"took_ms": [0-9.]+', '"took_ms": …', output)

    assert (through_llm.exit_code, timeless(through_llm.output)) == (ours.exit_code, timeless(ours.output))
    assert ours.output.strip()


def test_llm_lorebook_offers_the_memory_commands_with_help(llm_user):
    result = llm_cli("lorebook", "--help")
    assert result.exit_code == 0
    assert "same commands as `lorebook" in result.output
    for name in ("search", "recall", "show", "list", "relations", "corpus", "stats"):
        assert re.search(rf"^  {name}\b", result.output, re.M), name
    assert not re.search(r"^  (hook|install|uninstall|mcp)\b", result.output, re.M)


def test_toolbox_is_registered_and_answers(store, llm_user, in_project):
    import llm

    from lorebook.llm_plugin import Lorebook

    ids = add_notes(store)
    assert llm.get_tools()["Lorebook"] is Lorebook
    toolbox = Lorebook()
    assert {t.name for t in toolbox.tools()} == {"Lorebook_search", "Lorebook_get_note", "Lorebook_recall"}
    briefs = json.loads(toolbox.search("stop_hook_active"))
    assert briefs["notes"][0]["id"] == ids[2] and briefs["notes"][0]["verified"] is True
    assert any("Semantic search unavailable" in w for w in briefs["warnings"])
    assert "Stop hook must respect stop_hook_active" in toolbox.get_note(ids[2])
    recall = json.loads(toolbox.recall("pytest ModuleNotFoundError", files="requirements.txt"))
    assert ids[4] in [n["id"] for n in recall["project_memories"]]


def test_a_tool_using_model_calls_the_toolbox_through_llm_T(store, llm_user, in_project):
    ids = add_notes(store)
    result = llm_cli("-T", "Lorebook", "-m", "lorebook-fake", 'Lorebook_search: {"query": "stop_hook_active"}')
    assert result.exit_code == 0, result.output
    assert "TOOL RESULTS: Lorebook_search -> " in result.output
    assert f'"id": {ids[2]}' in result.output and "Stop hook must respect stop_hook_active" in result.output


# --- a fresh install: llm loads lorebook through its entry point ----------------------------

def run_llm_process(args, home, llm_home, register_fake=False):
    """Run the real `llm` CLI in a new process, where llm loads plugins from entry points as usual."""
    env = {k: v for k, v in os.environ.items() if k not in ("LLM_LOAD_PLUGINS", "PYTEST_CURRENT_TEST")}
    env.update(LOREBOOK_HOME=str(home), LLM_USER_PATH=str(llm_home), PYTHONPATH=str(TESTS))
    code = "import sys\n"
    if register_fake:
        code += "import llm, llm_fake\nllm.pm.register(llm_fake, name='lorebook-fake')\n"
    code += "from llm.cli import cli\nsys.exit(cli(sys.argv[1:]))\n"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                          cwd=str(home.parent), timeout=120)


def test_llm_starts_without_importing_lorebooks_cli(lorebook_home, tmp_path):
    # llm loads every plugin on every start: lorebook's commands are imported when `llm lorebook` runs
    code = ("import json, sys, llm.cli\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('lorebook'))))")
    env = {k: v for k, v in os.environ.items() if k not in ("LLM_LOAD_PLUGINS", "PYTEST_CURRENT_TEST")}
    env.update(LOREBOOK_HOME=str(lorebook_home), LLM_USER_PATH=str(tmp_path / "llm-home"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    loaded = json.loads(out)
    assert "lorebook.llm_plugin" in loaded and "lorebook.llm_bridge" in loaded
    assert "lorebook.cli" not in loaded and "lorebook.store" not in loaded, loaded


def test_fresh_process_loads_the_plugin_from_its_entry_point(store, lorebook_home, tmp_path, _migrated_llm_logs):
    ids = add_notes(store, notes=[n[:5] + ("global",) for n in NOTES])
    llm_home = tmp_path / "llm-fresh"
    llm_home.mkdir()
    shutil.copy(_migrated_llm_logs, llm_home / "logs.db")

    # `llm lorebook` exists only if llm loaded lorebook's entry point
    search = run_llm_process(["lorebook", "search", "stop_hook_active"], lorebook_home, llm_home)
    assert search.returncode == 0, search.stderr
    assert re.search(rf"#{ids[2]} \[fix, global, verified, 2026-03-12\] Stop hook must respect", search.stdout)

    lore = run_llm_process(["-f", "lore:stop_hook_active", "-m", "lorebook-fake", "What about stop_hook_active?"],
                           lorebook_home, llm_home, register_fake=True)
    assert lore.returncode == 0, lore.stderr
    assert f"cites=#{ids[2]} " in lore.stdout
