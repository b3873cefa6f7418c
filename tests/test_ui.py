"""lorebook ui: the pages, escaping, CSRF, read-only, Host and token checks, curation through lorebook's code.

These drive the real server over HTTP (urllib); tests/test_ui_browser.py drives it in a real Chromium.
"""
import re
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest
from click.testing import CliRunner

from lorebook.cli import cli
from lorebook.store import Store
from lorebook.ui import UI, make_server, next_session_preview, server_url
from lorebook.ui_html import tpl

PROJECT = "github.com/acme/widget"
SESSION = "sess-1234-abcd"
SCRIPT_TITLE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> yaml loader note'


def seed(store: Store) -> dict:
    """A project, one finished session (prompts, observations, a real Stop decision) and a few notes."""
    from lorebook.writeback import write_back

    store.ensure_project(PROJECT, "widget", root="/src/widget")
    store.ensure_session(SESSION, project_key=PROJECT, cwd="/src/widget", started_at="2026-11-30T10:00:00Z")
    store.add_prompt(SESSION, "Make the importer accept the legacy CSV layout")
    obs = store.add_observation({
        "session_id": SESSION, "project_key": PROJECT, "event": "post_tool_use_failure", "tool": "Bash",
        "target": "pytest tests/test_import.py", "summary": "pytest failed", "outcome": "error", "exit_code": 1,
        "error_text": "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff",
        "error_signature": "UnicodeDecodeError: 'utf-8' codec can't decode byte <n>", "tool_use_id": "t1"})
    store.add_observation({
        "session_id": SESSION, "project_key": PROJECT, "event": "post_tool_use", "tool": "Read",
        "target": "src/importer.py", "summary": "read the importer", "outcome": "ok", "tool_use_id": "t2"})
    base = {"kind": "fix", "scope": "project", "project_key": PROJECT, "source_agent": "claude-code",
            "session_id": SESSION, "observation_ids": [obs]}
    ids = {
        "csv": store.add_note(dict(base, title="Legacy CSV exports are latin-1, not utf-8",
                                   summary="Open legacy CSV exports with encoding='latin-1'.",
                                   trigger="UnicodeDecodeError reading a legacy CSV export",
                                   change="The 2019 exporter wrote latin-1; read with encoding='latin-1'.",
                                   evidence=[{"quote": "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff",
                                              "source": "pytest", "observation_id": obs}],
                                   validation={"passed": ["pytest tests/test_import.py"]}, verified=1,
                                   error_signatures=["UnicodeDecodeError: 'utf-8' codec can't decode byte <n>"])),
        "retry": store.add_note(dict(base, kind="pattern", title="Retry the flaky upload with exponential backoff",
                                     summary="The storage API throttles bursts; back off 1, 2, 4 seconds.")),
        "script": store.add_note(dict(base, kind="gotcha", title=SCRIPT_TITLE,
                                      summary='<b onmouseover="window.__pwned = 3">yaml</b> safe_load only')),
        "global": store.add_note(dict(base, scope="global", project_key=None, kind="pitfall",
                                      title="git stash drops untracked files unless -u is given",
                                      summary="Use git stash -u to keep new files.")),
    }
    write_back(store, SESSION, "Done: the importer reads latin-1 CSV exports now.")
    store.update_session(SESSION, status="closed", ended_at="2026-11-30T10:20:00Z", end_reason="stop")
    return ids


@pytest.fixture
def seeded(store):
    return seed(store)


@pytest.fixture
def serve():
    """Start a viewer in a thread; returns (url, app). Stopped at teardown."""
    servers = []

    def start(read_only=False, token=None, host="127.0.0.1"):
        app = UI(read_only=read_only, token=token)
        server = make_server(app, host, 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return server_url(server, app).split("?")[0], app

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def get(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.read().decode(), dict(response.headers)
    except urllib.error.HTTPError as ex:
        return ex.code, ex.read().decode(), dict(ex.headers)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def post(url, form, headers=None):
    data = urllib.parse.urlencode(form).encode()
    request = urllib.request.Request(url, data=data, headers=headers or {}, method="POST")
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request) as response:
            return response.status, response.read().decode(), dict(response.headers)
    except urllib.error.HTTPError as ex:
        return ex.code, ex.read().decode(), dict(ex.headers)


def test_tpl_escapes_values_but_not_markup():
    assert tpl("<b>{x}</b>", x='<script>"&') == '<b>&lt;script&gt;&quot;&amp;</b>'
    assert tpl("<i>{x}</i>", x=tpl("<b>{y}</b>", y="<")) == "<i><b>&lt;</b></i>"


@pytest.mark.parametrize("path", ["/", "/?q=csv+encoding", "/?kind=fix&verified=yes", "/sessions",
                                  f"/session/{SESSION}", "/next", f"/next?project={PROJECT}&prompt=retry+upload",
                                  "/projects", "/corpora", "/stats"])
def test_pages_escape_stored_text(seeded, serve, path):
    url, _ = serve()
    status, body, headers = get(url + path.lstrip("/"))
    assert status == 200, body
    assert "<script>window" not in body and "<img src=x" not in body and "<b onmouseover" not in body
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert "<script" not in body.replace('<script src="/static/ui.js" defer></script>', "")


def test_notes_page_filters_and_search(seeded, serve):
    url, _ = serve()
    _, body, _ = get(url + "?verified=yes")
    assert "Legacy CSV exports are latin-1" in body and "Retry the flaky upload" not in body
    _, body, _ = get(url + "?scope=global")
    assert "git stash drops untracked" in body and "Legacy CSV" not in body
    _, body, _ = get(url + "?kind=pattern")
    assert "Retry the flaky upload" in body and "Legacy CSV" not in body
    _, body, _ = get(url + "?" + urllib.parse.urlencode({"q": "upload throttled backoff"}))
    assert "Retry the flaky upload" in body and "Legacy CSV" not in body
    assert "&lt;script&gt;window.__pwned" in get(url)[1]


def test_note_page_is_a_readable_card(seeded, serve):
    url, _ = serve()
    _, body, _ = get(url + f"note/{seeded['csv']}")
    for text in ("Cause and fix", "The 2019 exporter wrote latin-1", "Trigger", "Evidence", "Validation",
                 "Provenance", "verified", f'href="/session/{SESSION}#obs-'):
        assert text in body, text


def test_curation_needs_the_csrf_token_and_goes_through_lorebook(seeded, serve, store):
    url, app = serve()
    note = seeded["retry"]
    status, _, _ = post(url + f"note/{note}/stale", {})
    assert status == 403 and store.get_note(note)["status"] == "active"
    status, _, _ = post(url + f"note/{note}/stale", {"csrf": "guess"})
    assert status == 403 and store.get_note(note)["status"] == "active"
    status, _, _ = post(url + f"note/{note}/stale", {"csrf": app.csrf}, {"Origin": "http://evil.example"})
    assert status == 403 and store.get_note(note)["status"] == "active"
    status, _, headers = post(url + f"note/{note}/stale", {"csrf": app.csrf})
    assert status == 303 and headers["Location"] == f"/note/{note}"
    assert store.get_note(note)["status"] == "stale"


def test_edit_keeps_the_old_text_as_a_revision(seeded, serve, store):
    url, app = serve()
    note = seeded["retry"]
    status, _, _ = post(url + f"note/{note}/edit", {"csrf": app.csrf, "title": "Back off on 429 from storage",
                                                    "summary": "Backoff 1, 2, 4 s.", "scope": "global"})
    assert status == 303
    after = store.get_note(note)
    assert (after["title"], after["scope"]) == ("Back off on 429 from storage", "global")
    revisions = store.note_revisions(note)
    assert revisions[-1]["snapshot"]["title"] == "Retry the flaky upload with exponential backoff"
    _, body, _ = get(url + f"note/{note}")
    assert "Retry the flaky upload with exponential backoff" in body and "edited in the viewer" in body


def test_verify_and_supersede(seeded, serve, store):
    url, app = serve()
    assert post(url + f"note/{seeded['retry']}/verify", {"csrf": app.csrf})[0] == 303
    assert store.get_note(seeded["retry"])["verified"] == 1
    assert post(url + f"note/{seeded['retry']}/supersede", {"csrf": app.csrf, "new_id": str(seeded["csv"])})[0] == 303
    old = store.get_note(seeded["retry"])
    assert (old["status"], old["superseded_by"]) == ("superseded", seeded["csv"])
    _, body, _ = get(url + f"note/{seeded['retry']}")
    assert f'supersedes (by) <a href="/note/{seeded["csv"]}">#{seeded["csv"]} Legacy CSV' in body
    assert "superseded by #" in body  # the revision's reason
    status, body, _ = post(url + f"note/{seeded['csv']}/supersede", {"csrf": app.csrf, "new_id": "x"})
    assert status == 400 and "number of the note" in body


def test_forget_reaches_search_and_the_next_session_preview(seeded, serve, store):
    url, app = serve()
    note = seeded["csv"]
    before = next_session_preview(store, PROJECT, "legacy CSV UnicodeDecodeError")
    assert note in before["parts"][0]["note_ids"]
    assert "Forget it for good" in get(url + f"note/{note}/forget")[1]
    assert post(url + f"note/{note}/forget", {"csrf": app.csrf})[0] == 303
    assert store.get_note(note)["status"] == "forgotten"
    _, body, _ = get(url + "?" + urllib.parse.urlencode({"q": "legacy CSV latin-1"}))
    assert "Legacy CSV exports" not in body
    after = next_session_preview(store, PROJECT, "legacy CSV UnicodeDecodeError")
    assert all(note not in part["note_ids"] for part in after["parts"])
    _, body, _ = get(url + "next?" + urllib.parse.urlencode({"project": PROJECT, "prompt": "legacy CSV"}))
    assert "Legacy CSV exports" not in body and "tokens" in body


def test_corpora_and_stats_pages_and_forget_reaches_a_corpus(seeded, serve, store):
    from lorebook.corpora import build_corpus, load_corpus, make_filter

    build_corpus(store, "importer", "What we learned about the importer", make_filter(project=PROJECT))
    ids = lambda: {item.get("id") for item in load_corpus("importer")["items"]}
    assert seeded["csv"] in ids()
    url, app = serve()
    _, body, _ = get(url + "corpora")
    assert "importer" in body and "What we learned about the importer" in body and "not primed" in body
    _, body, _ = get(url + "stats")
    assert "notes waiting for vectors" in body and "database size" in body
    assert post(url + f"note/{seeded['csv']}/forget", {"csrf": app.csrf})[0] == 303
    assert seeded["csv"] not in ids()


def test_next_session_preview_matches_the_session_start_hook(seeded, store):
    from lorebook.config import load_config
    from lorebook.recall import rank_session_notes
    from lorebook.render import render_context

    notes, reasons = rank_session_notes(store, PROJECT, None, [])
    expected, _ = render_context(notes, int(load_config()["context_budget"]), reasons=reasons)
    preview = next_session_preview(store, PROJECT, None)["parts"][0]
    assert preview["text"] == expected and "Legacy CSV exports" in expected
    assert 0 < preview["tokens"] <= preview["budget"]


def test_next_session_preview_is_what_the_real_session_start_hook_injects(store, tmp_path):
    """A real git checkout on a branch with changed files: the preview equals the hook's additionalContext."""
    import os
    import subprocess

    from hookutil import context_of, run_hook

    root = tmp_path / "widget"
    (root / "billing").mkdir(parents=True)
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@x", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@x")

    def git(*args):
        subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)

    git("init", "-q", "-b", "fix/invoice-rounding")
    git("remote", "add", "origin", "git@github.com:acme/widget.git")
    (root / "billing" / "invoice.py").write_text("x = 1\n")
    git("add", ".")
    git("commit", "-q", "-m", "init")
    (root / "billing" / "invoice.py").write_text("x = 2\n")
    for i in range(8):
        store.add_note({"title": f"Unrelated verified lesson {i} about the deploy script", "project_key": PROJECT,
                        "verified": 1, "change": "the change", "trigger": "the trigger"})
    hinted = store.add_note({"title": "Invoice totals drift by a cent", "project_key": PROJECT,
                             "files": ["billing/invoice.py"], "change": "round once", "trigger": "invoice total"})
    _, out = run_hook("session-start", {"session_id": "s-hook", "cwd": str(root), "hook_event_name": "SessionStart",
                                        "source": "startup", "transcript_path": "/tmp/s-hook.jsonl"})
    injected = context_of(out)
    assert f"#{hinted} Invoice totals" in injected and "Ranked for branch `fix/invoice-rounding`" in injected
    preview = next_session_preview(store, PROJECT, None)
    assert preview["branch"] == "fix/invoice-rounding"
    assert preview["parts"][0]["text"].strip() == injected.strip()  # the dispatcher trims the last newline


def test_session_page_shows_timeline_and_stop_decision(seeded, serve, store):
    url, _ = serve()
    receipts = store.session_receipts(SESSION)
    assert receipts, "the seeded Stop left no receipt"
    _, body, _ = get(url + f"session/{SESSION}")
    assert "Stop decision" in body and receipts[0]["decision"] in body
    for reason in receipts[0]["reasons"]:
        assert str(reason.get("message") if isinstance(reason, dict) else reason) in body.replace("&#x27;", "'")
    assert "Make the importer accept the legacy CSV layout" in body
    assert "pytest tests/test_import.py" in body and "UnicodeDecodeError" in body


def test_live_observations_endpoint(seeded, serve, store):
    url, _ = serve()
    import json

    first = json.loads(get(url + f"session/{SESSION}/observations.json?after=0")[1])["observations"]
    last = first[-1]["id"]
    store.add_observation({"session_id": SESSION, "project_key": PROJECT, "event": "post_tool_use", "tool": "Edit",
                           "target": "src/importer.py", "summary": "edit", "outcome": "ok", "tool_use_id": "t9"})
    new = json.loads(get(url + f"session/{SESSION}/observations.json?after={last}")[1])["observations"]
    assert [o["tool"] for o in new] == ["Edit"]


def test_read_only_refuses_every_change(seeded, serve, store):
    url, app = serve(read_only=True)
    _, body, _ = get(url + f"note/{seeded['retry']}")
    assert "Mark stale" not in body and "read-only" in body
    status, _, _ = post(url + f"note/{seeded['retry']}/forget", {"csrf": app.csrf})
    assert status == 403 and store.get_note(seeded["retry"])["status"] == "active"


def test_unknown_host_is_refused(seeded, serve):
    url, _ = serve()
    status, body, _ = get(url, {"Host": "attacker.example:80"})
    assert status == 403 and "Legacy CSV" not in body


def test_token_is_required_when_set(seeded, serve):
    url, _ = serve(token="s3cret")
    assert get(url)[0] == 403
    status, body, headers = get(url + "?token=s3cret")
    assert status == 200 and "Legacy CSV" in body and "HttpOnly" in headers["Set-Cookie"]
    assert get(url, {"Cookie": "lorebook_ui_token=s3cret"})[0] == 200


def test_lorebook_ui_prints_its_url_serves_and_stops_on_ctrl_c(seeded, lorebook_home):
    import os
    import signal
    import subprocess
    import sys

    # (Ctrl-C reaches it as from a terminal, whatever this run inherited: a test run started in the background
    # ignores SIGINT, and so would the viewer)
    process = subprocess.Popen([sys.executable, "-m", "lorebook", "ui", "--no-open", "--read-only"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=dict(os.environ, LOREBOOK_HOME=str(lorebook_home)),
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        line = process.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line).group(0)
        assert "(read-only)" in line
        status, body, _ = get(url + f"note/{seeded['csv']}")
        assert status == 200 and "Legacy CSV exports are latin-1" in body and "Mark stale" not in body
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert "stopped" in out


def test_cli_refuses_a_non_loopback_bind_without_the_flag():
    result = CliRunner().invoke(cli, ["ui", "--host", "0.0.0.0", "--no-open"])
    assert result.exit_code == 2 and "--allow-remote" in result.output


def test_cli_help():
    result = CliRunner().invoke(cli, ["ui", "--help"])
    assert result.exit_code == 0 and "--read-only" in result.output and "lorebook ui" in result.output


def test_the_hook_path_never_imports_the_viewer(lorebook_home, tmp_path):
    import json
    import os
    import subprocess
    import sys

    payload = json.dumps({"session_id": "s-ui", "cwd": str(tmp_path), "hook_event_name": "SessionStart",
                          "source": "startup"})
    code = ("import io, sys; sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()));"
            "from lorebook.main import main; main(['hook', 'session-start']);"
            "sys.stderr.write('UI=' + ','.join(m for m in ('lorebook.ui', 'http.server') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code, payload], capture_output=True, text=True,
                            env=dict(os.environ, LOREBOOK_HOME=str(lorebook_home)))
    assert "UI=" in result.stderr, result.stderr
    assert result.stderr.split("UI=")[-1].strip() == ""


def test_no_sql_console(seeded, serve):
    url, _ = serve()
    assert get(url + "sql?q=select+1")[0] == 404
    assert not re.search(r"(?i)select \* from", get(url)[1])
