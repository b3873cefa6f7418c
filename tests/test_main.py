"""The console script: a command runs with the collector on, and only a process of its own is tuned."""
import json
import os
import subprocess
import sys


def _run(code: str, home) -> dict:
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=dict(os.environ, LOREBOOK_HOME=str(home)))
    assert "STATE=" in result.stdout, result.stderr
    return json.loads(result.stdout.split("STATE=")[-1])


def test_the_console_script_freezes_what_importing_made_and_leaves_the_collector_on(lorebook_home):
    # as the console script runs it: main() with no argv; the command reports the collector's state
    code = ("import gc, json, sys\n"
            "sys.argv = ['lorebook', 'path']\n"
            "from lorebook.main import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('STATE=' + json.dumps({'enabled': gc.isenabled(), 'frozen': gc.get_freeze_count()}))")
    state = _run(code, lorebook_home)
    assert state["enabled"] is True  # long-running commands (mcp, ui, embed-server) must still collect
    assert state["frozen"] > 1000  # the CLI's modules, classes and commands: kept out of every collection


def test_a_caller_that_passes_argv_keeps_its_own_collector(lorebook_home):
    # tests and embedders call main(argv) in their own process: lorebook does not tune their collector
    code = ("import gc, json\n"
            "from lorebook.main import main\n"
            "try:\n    main(['path'])\nexcept SystemExit:\n    pass\n"
            "print('STATE=' + json.dumps({'enabled': gc.isenabled(), 'frozen': gc.get_freeze_count()}))")
    assert _run(code, lorebook_home) == {"enabled": True, "frozen": 0}
