"""The plugin system: built-ins are ordinary plugins, and third parties plug in through entry points."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

from lorebook import hookspecs
from lorebook.plugins import DEFAULT_PLUGINS, _parse_group, load_plugins, pm

THIRD_PARTY = textwrap.dedent('''
    from lorebook import hookimpl

    @hookimpl
    def session_start(event, store):
        return "THIRD-PARTY-CONTEXT: staging is frozen this week"

    @hookimpl
    def keep_observation(observation, event):
        if "do-not-store" in (observation.get("target") or ""):
            return False
''')


@pytest.fixture
def third_party_site(tmp_path):
    """A directory on PYTHONPATH holding an installed distribution with a `lorebook` entry point."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "frozen_staging.py").write_text(THIRD_PARTY)
    dist = site / "lorebook_frozen_staging-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: lorebook-frozen-staging\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[console_scripts]\nx = y:z\n\n[lorebook]\nfrozen = frozen_staging\n")
    return site


def _hook(event, payload, home, site, **env):
    full_env = dict(os.environ, LOREBOOK_HOME=str(home), PYTHONPATH=str(site), **env)
    result = subprocess.run([sys.executable, "-m", "lorebook", "hook", event], input=json.dumps(payload).encode(),
                            capture_output=True, env=full_env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_third_party_plugin_adds_context_at_session_start(third_party_site, lorebook_home, git_project):
    out = _hook("session-start", {"session_id": "s1", "cwd": str(git_project), "source": "startup"},
                lorebook_home, third_party_site)
    assert "THIRD-PARTY-CONTEXT" in out["hookSpecificOutput"]["additionalContext"]


def test_third_party_plugin_can_veto_an_observation(third_party_site, lorebook_home, git_project):
    base = {"session_id": "s1", "cwd": str(git_project), "tool_name": "Bash", "tool_response": {"stdout": "ok"}}
    _hook("post-tool-use", dict(base, tool_use_id="a", tool_input={"command": "echo do-not-store"}),
          lorebook_home, third_party_site)
    _hook("post-tool-use", dict(base, tool_use_id="b", tool_input={"command": "echo keep-me"}),
          lorebook_home, third_party_site)
    from lorebook.store import Store

    targets = [o["target"] for o in Store().session_observations("s1")]
    assert targets == ["echo keep-me"]


def test_load_plugins_allow_list_excludes_others(third_party_site, lorebook_home, git_project):
    out = _hook("session-start", {"session_id": "s1", "cwd": str(git_project), "source": "startup"},
                lorebook_home, third_party_site, LOREBOOK_LOAD_PLUGINS="")
    assert "THIRD-PARTY-CONTEXT" not in json.dumps(out)
    out = _hook("session-start", {"session_id": "s2", "cwd": str(git_project), "source": "startup"},
                lorebook_home, third_party_site, LOREBOOK_LOAD_PLUGINS="lorebook-frozen-staging")
    assert "THIRD-PARTY-CONTEXT" in json.dumps(out)


def test_a_broken_third_party_plugin_does_not_break_the_hook(tmp_path, lorebook_home, git_project):
    site = tmp_path / "site"
    dist = site / "broken-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "entry_points.txt").write_text("[lorebook]\nbroken = no_such_module_here\n")
    out = _hook("post-tool-use", {"session_id": "s1", "cwd": str(git_project), "tool_name": "Bash",
                                  "tool_use_id": "t", "tool_input": {"command": "ls"}, "tool_response": {}},
                lorebook_home, site)
    assert out == {}
    from lorebook.store import Store

    assert Store().stats()["observations"] == 1


def test_builtins_are_registered_and_hook_names_are_spelled_right():
    load_plugins()
    for name, _ in DEFAULT_PLUGINS:
        assert pm.has_plugin(name)
    pm.check_pending()  # a misspelled hookimpl name would raise here


def test_every_hookspec_has_a_docstring():
    specs = [getattr(hookspecs, n) for n in dir(hookspecs) if hasattr(getattr(hookspecs, n), "lorebook_spec")]
    assert len(specs) >= 10
    for spec in specs:
        assert spec.__doc__ and spec.__doc__.strip(), spec.__name__


def test_entry_points_txt_parsing():
    text = "[console_scripts]\nlb = a:b\n\n[lorebook]\none = pkg.mod\ntwo = pkg:obj [extra]\n"
    assert _parse_group(text, "lorebook") == [("one", "pkg.mod"), ("two", "pkg:obj")]


def test_trace_plugins_logs_every_hook_call_with_its_plugins_and_duration(lorebook_home, git_project, tmp_path):
    base = {"session_id": "s1", "cwd": str(git_project), "tool_name": "Bash", "tool_use_id": "t1",
            "tool_input": {"command": "ls"}, "tool_response": {"stdout": "a"}}
    _hook("post-tool-use", base, lorebook_home, tmp_path, LOREBOOK_TRACE_PLUGINS="1")
    log = (lorebook_home / "logs" / "hooks.log").read_text()
    traced = [line for line in log.splitlines() if "[trace]" in line]
    by_hook = {line.split("[trace] ")[1].split(" ")[0]: line for line in traced}
    assert {"parse_event", "post_tool_use", "keep_observation", "register_tool_extractors",
            "render_output"} <= set(by_hook)
    line = by_hook["post_tool_use"]
    # "post_tool_use 12.34 ms: lorebook.hooks.capture 12.01 ms"
    import re

    assert re.search(r"post_tool_use \d+\.\d\d ms: lorebook\.hooks\.capture \d+\.\d\d ms", line), line
    assert "lorebook.hooks.claude_code" in by_hook["parse_event"]


def test_no_trace_unless_asked(lorebook_home, git_project, tmp_path):
    base = {"session_id": "s1", "cwd": str(git_project), "tool_name": "Bash", "tool_use_id": "t1",
            "tool_input": {"command": "ls"}, "tool_response": {"stdout": "a"}}
    _hook("post-tool-use", base, lorebook_home, tmp_path, LOREBOOK_TRACE_PLUGINS="0")
    log = lorebook_home / "logs" / "hooks.log"
    assert not log.exists() or "[trace]" not in log.read_text()


def test_builtin_hook_plugins_hold_only_their_hookimpls():
    """pluggy inspects every attribute of what it registers: every built-in is a small class of hookimpls."""
    import inspect

    load_plugins()
    for name, _ in DEFAULT_PLUGINS:
        plugin = pm.get_plugin(name)
        assert not inspect.ismodule(plugin), name
        own = [n for n in dir(plugin) if not n.startswith("__")]
        assert own and all(hasattr(getattr(plugin, n), "lorebook_impl") for n in own), (name, own)


def test_the_capture_hook_imports_only_what_it_uses(lorebook_home, git_project):
    # pathlib (with urllib.parse, ipaddress, fnmatch: ~6 ms a hook) may be loaded at startup by an editable
    # install's import hook: forgotten first, so that the hook path's own import of it shows
    code = ("import sys, json; [sys.modules.pop(m) for m in ('pathlib', 'urllib.parse', 'ipaddress') "
            "if m in sys.modules]; from lorebook.main import main; main(['hook', 'post-tool-use']); "
            "print(json.dumps(sorted(sys.modules)), file=sys.stderr)")
    payload = {"session_id": "s1", "cwd": str(git_project), "tool_name": "Bash", "tool_use_id": "t1",
               "tool_input": {"command": "pytest -q"}, "tool_response": {"stdout": "3 passed"}}
    # as on every call but a session's first: the database is migrated, the session and its project known
    _hook("post-tool-use", dict(payload, tool_use_id="t0"), lorebook_home, git_project)
    result = subprocess.run([sys.executable, "-c", code], input=json.dumps(payload).encode(), capture_output=True,
                            env=dict(os.environ, LOREBOOK_HOME=str(lorebook_home)))
    modules = set(json.loads(result.stderr.decode().strip().splitlines()[-1]))
    assert "lorebook.hooks.capture" in modules
    for heavy in ("llm", "click", "sqlite_utils", "numpy", "importlib.metadata", "dataclasses", "lorebook.writeback",
                  "lorebook.search", "lorebook.render", "subprocess", "pathlib", "urllib.parse"):
        assert heavy not in modules, heavy


def test_the_core_never_imports_the_claude_code_package():
    """Only lorebook.hooks knows Claude Code: no module of the core imports it, even inside a function."""
    import ast
    from pathlib import Path

    import lorebook

    offenders = []
    for path in Path(lorebook.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [("." * node.level) + (node.module or "")] + [
                    ("." * node.level) + (node.module + "." if node.module else "") + a.name for a in node.names]
            if any(n in ("lorebook.hooks", ".hooks") or n.startswith(("lorebook.hooks.", ".hooks.")) for n in names):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []
