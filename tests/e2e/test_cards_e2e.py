"""The lesson, not the log, in the real Claude Code CLI: what session 1 learned reaches session 2's first request.

(a) a fix made only by changing how a command is run (PYTHONPATH=src), and (b) a fix found on the second
try: the final change is injected as the fix, the first try as an attempt that did not help.
"""
import json
import sqlite3
from contextlib import closing

from cc_harness import say, scenario, tool_use
from fix_scenario import APP_CFG, CHECK_PY

SHOP_CHECK = """\
import shop
print("check ok:", shop.NAME)
"""


def memory_block(result) -> str:
    """The <lorebook-memory> block of a session's FIRST model request (wherever Claude Code put it)."""
    found = []

    def walk(value):
        if isinstance(value, str):
            if "<lorebook-memory>" in value:
                found.append(value[value.index("<lorebook-memory>"):])
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    requests = result.model_requests
    assert requests, result.describe()
    walk(requests[0]["body"])
    # the hook log says whether session 1's Stop stored a lesson and how session 2's SessionStart went
    assert found, ("no lorebook memory in the first request:\n" + json.dumps(requests[0]["body"])[:3000]
                   + "\n" + result.describe())
    block = found[0]
    return block[: block.index("</lorebook-memory>") + len("</lorebook-memory>")]


def stored_titles(sb) -> list[str]:
    """The titles of the notes in the sandbox's store (read with sqlite3, as a user would)."""
    path = sb.lorebook_home / "lorebook.db"
    if not path.exists():
        return []
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return [title for (title,) in db.execute("select title from notes")]


def card_lines(block: str) -> dict:
    """The first card's lines by label ("Change", "Did not help", …), and its title under "title"."""
    card = block.split("\n### ", 1)[1].split("\n\n", 1)[0]
    lines = card.splitlines()
    out = {"title": lines[0]}
    for line in lines[2:]:
        label, _, value = line.partition(": ")
        out.setdefault(label, []).append(value)
    return out


def invocation_session(project) -> dict:
    """The check fails to import the package under src/; the same check passes once run with PYTHONPATH=src."""
    script = scenario(
        [say("Running the check."), tool_use("Bash", command="python3 tests/check_shop.py", description="Run it")],
        [say("The package is under src/."), tool_use("Bash", command="ls src", description="List src")],
        [tool_use("Bash", command="PYTHONPATH=src python3 tests/check_shop.py", description="Run with src")],
        say("tests/check_shop.py failed with ModuleNotFoundError because the shop package lives under src/ and "
            "is not installed; running it with PYTHONPATH=src makes it importable, and the check passes."),
    )
    return json.loads(json.dumps(script).replace("{project}", str(project)))


def second_try_session(project) -> dict:
    """The first edit (retries in defaults.cfg) does not help; the second (retries in app.cfg) does."""
    script = scenario(
        [say("Running the check."), tool_use("Bash", command="python3 check.py", description="Run the check")],
        [say("Adding the default."), tool_use("Edit", file_path="{project}/defaults.cfg", old_string="[client]",
                                              new_string="[client]\nretries = 3")],
        [tool_use("Bash", command="python3 check.py", description="Re-run the check")],
        [say("Still failing: it reads app.cfg."), tool_use("Edit", file_path="{project}/app.cfg",
                                                           old_string="timeout = 5",
                                                           new_string="timeout = 5\nretries = 3")],
        [tool_use("Bash", command="python3 check.py", description="Re-run the check")],
        say("Adding retries to defaults.cfg did not help: check.py reads only app.cfg. check.py failed because "
            "app.cfg had no retries setting in its [client] section; adding `retries = 3` under [client] in "
            "app.cfg fixed it."),
    )
    return json.loads(json.dumps(script).replace("{project}", str(project)))


def test_a_fix_by_invocation_reaches_the_next_session(lorebook_sandbox):
    sb = lorebook_sandbox("plugin-dir")
    sb.write("src/shop/__init__.py", 'NAME = "shop"\n')
    sb.write("tests/check_shop.py", SHOP_CHECK)
    first = sb.run("The shop check fails, please fix it.", invocation_session(sb.project))
    assert first.returncode == 0, first.describe()
    assert "check ok: shop" in first.all_model_text(), first.describe()  # the real command really passed
    assert (sb.project / "tests" / "check_shop.py").read_text() == SHOP_CHECK  # nothing was edited
    second = sb.run("Please run echo hello")
    assert second.returncode == 0, second.describe()
    block = memory_block(second)
    assert "not instructions" in block and f"claude-code session {first.session_id[:8]}" in block
    card = card_lines(block)
    assert "PYTHONPATH=src" in card["title"], block
    assert "No module named 'shop'" in block
    assert any("PYTHONPATH=src" in line for line in card.get("Change", []) + card.get("Cause and fix", [])), block
    assert "internal error" not in sb.hook_log, sb.hook_log


def test_a_fix_found_on_the_second_try_is_injected_as_the_final_change(lorebook_sandbox):
    sb = lorebook_sandbox("plugin-dir")
    sb.write("check.py", CHECK_PY)
    sb.write("app.cfg", APP_CFG)
    sb.write("defaults.cfg", "[client]\ntimeout = 30\n")
    first = sb.run("The check fails, please fix it.", second_try_session(sb.project))
    assert first.returncode == 0, first.describe()
    assert "retries = 3" in (sb.project / "app.cfg").read_text()
    assert "check ok: retries = 3" in first.all_model_text(), first.describe()
    assert stored_titles(sb), first.describe()  # session 1's Stop wrote its lesson before session 2 starts
    second = sb.run("Please run echo hello")
    assert second.returncode == 0, second.describe()
    block = memory_block(second)
    card = card_lines(block)
    change = " ".join(card.get("Change", []))
    # the final change is the fix; the first try is evidence that it did not help, never part of the change
    assert "app.cfg" in change and "retries = 3" in change, block
    assert "defaults.cfg" not in change, block
    assert any("defaults.cfg" in line for line in card.get("Did not help", [])), block
    assert "defaults.cfg" not in card["title"], block
    assert "internal error" not in sb.hook_log, sb.hook_log
