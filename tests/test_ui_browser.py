"""lorebook ui in a real headless Chromium (Debian's package, driven by Playwright).

tests/run installs chromium with apt-get when it is missing; without it (or
without Playwright) these tests are skipped and say why. Each test saves a
screenshot under its tmp dir; LOREBOOK_UI_SCREENSHOT_DIR copies them elsewhere
(how docs/ui.png is made).
"""
import os
import shutil
import threading
import urllib.parse
from pathlib import Path

import pytest

from test_ui import PROJECT, SCRIPT_TITLE, SESSION, seed

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (tests/run installs it with apt-get as root)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e .[test])")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def viewer(store):
    """A seeded database and a running viewer; returns (url, app, ids)."""
    from lorebook.ui import UI, make_server, server_url

    ids = seed(store)
    app = UI()
    server = make_server(app, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server_url(server, app), app, ids
    server.shutdown()
    server.server_close()


def save_screenshot(page, name: str) -> None:
    """An extra screenshot (the README's), saved beside the test's own."""
    shot = page.tmp_path / name
    page.screenshot(path=str(shot), full_page=True)
    target = os.environ.get("LOREBOOK_UI_SCREENSHOT_DIR")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(target) / name)


@pytest.fixture
def page(browser, tmp_path, request):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.tmp_path = tmp_path
    page.dialogs = []
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    shot = tmp_path / f"{request.node.name}.png"
    page.screenshot(path=str(shot), full_page=True)
    target = os.environ.get("LOREBOOK_UI_SCREENSHOT_DIR")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(target) / shot.name)
    context.close()


def test_search_open_forget_and_gone_from_search_and_preview(viewer, page):
    url, _, ids = viewer
    page.goto(url)
    assert page.locator(".note-row").count() == 4
    page.fill("#q", "legacy CSV UnicodeDecodeError")
    page.click("#search")
    page.wait_for_url("**q=legacy*")
    page.click("text=Legacy CSV exports are latin-1, not utf-8")
    page.wait_for_url(f"**/note/{ids['csv']}")
    assert page.locator("h3", has_text="Cause and fix").is_visible()
    assert "The 2019 exporter wrote latin-1" in page.inner_text(".note")
    save_screenshot(page, "note_card.png")
    page.goto(url + "next?" + urllib.parse.urlencode({"project": PROJECT}))
    assert "Legacy CSV exports are latin-1" in page.inner_text("main")
    page.goto(url + f"note/{ids['csv']}")
    page.click("text=Forget…")
    page.click("text=Forget it for good")
    page.wait_for_url("**status=forgotten*")
    page.goto(url + "?" + urllib.parse.urlencode({"q": "legacy CSV UnicodeDecodeError"}))
    assert "Legacy CSV exports" not in page.inner_text("main")
    page.goto(url + "next?" + urllib.parse.urlencode({"project": PROJECT, "prompt": "legacy CSV UnicodeDecodeError"}))
    text = page.inner_text("main")
    assert "Legacy CSV exports" not in text and "tokens" in text
    assert page.errors == []


def test_session_page_shows_the_stop_decision_and_live_observations(viewer, page, store):
    url, _, _ = viewer
    receipt = store.session_receipts(SESSION)[0]
    page.goto(url + f"session/{SESSION}")
    decision = page.inner_text(".receipt")
    assert receipt["decision"] in decision
    assert receipt["reasons"] and all(r["message"] in decision for r in receipt["reasons"])
    assert "pytest tests/test_import.py" in page.inner_text("#timeline")
    store.add_observation({"session_id": SESSION, "project_key": PROJECT, "event": "post_tool_use_failure",
                           "tool": "Bash", "target": "<img src=x onerror=alert(1)> make lint", "summary": "lint",
                           "outcome": "error", "error_signature": "E501 line too long", "tool_use_id": "live-1"})
    page.wait_for_selector("li.live", timeout=15000)  # polled in, no reload
    assert "<img src=x onerror=alert(1)> make lint" in page.inner_text("li.live")
    assert page.dialogs == [] and page.errors == []


def test_a_script_note_is_inert(viewer, page):
    url, _, ids = viewer
    for path in ("", f"note/{ids['script']}", "?" + urllib.parse.urlencode({"q": "yaml loader"})):
        page.goto(url + path)
        page.hover("main")
        assert page.evaluate("window.__pwned") is None
        assert SCRIPT_TITLE in page.inner_text("main")
    assert page.locator("main img").count() == 0
    assert page.dialogs == [] and page.errors == []


def test_curation_in_the_browser(viewer, page, store):
    url, _, ids = viewer
    page.goto(url + f"note/{ids['retry']}")
    page.fill("input[name=title]", "Back off on HTTP 429 from the storage API")
    page.click("text=Save")
    page.wait_for_selector("text=edited in the viewer")
    assert store.get_note(ids["retry"])["title"] == "Back off on HTTP 429 from the storage API"
    page.click("button:has-text('Mark stale')")
    page.wait_for_selector(".meta:has-text('stale')")
    assert store.get_note(ids["retry"])["status"] == "stale"
    page.goto(url)  # the overview for the README
    assert page.errors == []
