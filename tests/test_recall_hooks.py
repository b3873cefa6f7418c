"""Injection through the real dispatcher: SessionStart hints, UserPromptSubmit recall, budgets, no repeats."""
import json
import os
import subprocess
import sys

import pytest

from hookutil import context_of, run_hook

KEY = "github.com/acme/widget"


def add(store, title, **fields):
    return store.add_note(dict({"title": title, "scope": "project", "project_key": KEY, "source_agent": "test",
                                "session_id": "earlier-session", "change": "the change", "trigger": "the trigger"},
                               **fields))


@pytest.fixture
def repo(tmp_path):
    """A real git checkout on a feature branch, with one modified and one new file."""
    root = tmp_path / "widget"
    root.mkdir()
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@x", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@x")
    git = lambda *a: subprocess.run(["git", "-C", str(root), *a], check=True, capture_output=True, env=env)
    git("init", "-q", "-b", "fix/payment-rounding")
    git("remote", "add", "origin", "git@github.com:acme/widget.git")
    (root / "billing").mkdir()
    (root / "billing" / "invoice.py").write_text("x = 1\n")
    git("add", ".")
    git("commit", "-q", "-m", "init")
    (root / "billing" / "invoice.py").write_text("x = 2\n")
    (root / "billing" / "ledger.py").write_text("y = 1\n")
    return root


def start(sid, cwd):
    return {"session_id": sid, "cwd": str(cwd), "hook_event_name": "SessionStart", "source": "startup",
            "transcript_path": f"/tmp/{sid}.jsonl"}


def prompt(sid, cwd, text):
    return {"session_id": sid, "cwd": str(cwd), "hook_event_name": "UserPromptSubmit", "prompt": text,
            "transcript_path": f"/tmp/{sid}.jsonl"}


def test_branch_and_git_status_rank_session_start(store, repo):
    from lorebook.git import changed_files, read_branch

    assert read_branch(str(repo)) == "fix/payment-rounding"
    assert sorted(changed_files(str(repo))) == ["billing/invoice.py", "billing/ledger.py"]
    for i in range(12):
        add(store, f"Unrelated verified lesson {i} about the deploy script", verified=1)
    hinted = add(store, "Invoice totals drift by a cent", files=["billing/invoice.py"])
    code, out = run_hook("session-start", start("s1", repo))
    context = context_of(out)
    assert context.index(f"#{hinted} Invoice totals") < context.index("Unrelated verified lesson")
    assert "Ranked for branch `fix/payment-rounding`" in context
    assert "files: billing/invoice.py" in context


def test_session_start_without_hints_still_injects(store, git_project):
    nid = add(store, "Lesson about retries")
    code, out = run_hook("session-start", start("s2", git_project))
    assert f"#{nid}" in context_of(out)


def test_prompt_injects_matching_notes_once(store, git_project, monkeypatch):
    monkeypatch.setenv("LOREBOOK_EMBED_SERVER", "0")
    match = add(store, "Celery worker retries need exponential backoff with jitter",
                summary="Use autoretry_for with retry_backoff=True")
    add(store, "Frontend build needs node 20")
    code, out = run_hook("user-prompt-submit", prompt("s3", git_project, "The celery worker retries too fast, add backoff"))
    context = context_of(out)
    assert out["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    assert f"#{match}" in context and "node 20" not in context
    assert "by keywords only" in context and "not instructions" in context
    assert "recorded" in context and "test session earlier-" in context  # provenance
    # the same session does not get it twice
    code, out = run_hook("user-prompt-submit", prompt("s3", git_project, "still about celery worker retries backoff"))
    assert out == {}
    assert store.recalled_note_ids("s3") == {match}


def test_prompt_skips_notes_session_start_already_gave(store, git_project, monkeypatch):
    monkeypatch.setenv("LOREBOOK_EMBED_SERVER", "0")
    nid = add(store, "Celery worker retries need exponential backoff")
    run_hook("session-start", start("s4", git_project))
    assert nid in store.recalled_note_ids("s4")
    code, out = run_hook("user-prompt-submit", prompt("s4", git_project, "celery worker retries backoff again"))
    assert out == {}


def test_synthetic_and_trivial_prompts_inject_nothing(store, git_project):
    add(store, "Celery worker retries need exponential backoff")
    for text in ("<task-notification>celery worker retries backoff</task-notification>", "ok", ""):
        code, out = run_hook("user-prompt-submit", prompt("s5", git_project, text))
        assert out == {}
    assert store.recalled_note_ids("s5") == set()


def test_prompt_does_not_offer_other_projects_notes(store, tmp_path, monkeypatch):
    monkeypatch.setenv("LOREBOOK_EMBED_SERVER", "0")
    add(store, "Celery worker retries need exponential backoff")
    other = tmp_path / "other"
    other.mkdir()
    code, out = run_hook("user-prompt-submit", prompt("s6", other, "celery worker retries backoff"))
    assert out == {}


@pytest.mark.parametrize("budget", [120, 250, 600])
def test_prompt_budget_is_never_exceeded(store, git_project, monkeypatch, budget):
    from lorebook.text import estimate_tokens

    monkeypatch.setenv("LOREBOOK_EMBED_SERVER", "0")
    monkeypatch.setenv("LOREBOOK_PROMPT_BUDGET", str(budget))
    for i in range(10):
        add(store, f"Celery retries backoff lesson {i} " + "detail " * 40, change="c " * 400, trigger="t " * 300)
    code, out = run_hook("user-prompt-submit", prompt("s7", git_project, "celery retries backoff lesson"))
    context = context_of(out)
    assert estimate_tokens(context) <= budget
    assert bool(context) == (budget >= 250)  # 120 tokens cannot hold the evidence frame and one title


def test_prompt_hook_imports_nothing_heavy(lorebook_home, git_project):
    from lorebook.store import Store

    store = Store()
    add(store, "Celery worker retries need exponential backoff")
    store.close()
    payload = json.dumps(prompt("s8", git_project, "celery worker retries backoff"))
    code = (
        "import io, sys; sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()));"
        "from lorebook.main import main; main(['hook', sys.argv[2]]);"
        "heavy = sorted(m for m in ('llm', 'click', 'sqlite_utils', 'numpy', 'importlib.metadata') if m in sys.modules);"
        "sys.stderr.write('HEAVY=' + ','.join(heavy))"
    )
    for event in ("user-prompt-submit", "session-start"):
        result = subprocess.run([sys.executable, "-c", code, payload, event], capture_output=True, text=True,
                                env=dict(os.environ, LOREBOOK_HOME=str(lorebook_home)))
        assert result.stderr.split("HEAVY=")[-1].strip() == "", (event, result.stderr)
