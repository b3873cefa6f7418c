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
    for name in DEFAULT_PLUGINS:
        assert pm.has_plugin(name.partition(":")[0])
    pm.check_pending()  # a misspelled hookimpl name would raise here


def test_every_hookspec_has_a_docstring():
    specs = [getattr(hookspecs, n) for n in dir(hookspecs) if hasattr(getattr(hookspecs, n), "lorebook_spec")]
    assert len(specs) >= 10
    for spec in specs:
        assert spec.__doc__ and spec.__doc__.strip(), spec.__name__


def test_entry_points_txt_parsing():
    text = "[console_scripts]\nlb = a:b\n\n[lorebook]\none = pkg.mod\ntwo = pkg:obj [extra]\n"
    assert _parse_group(text, "lorebook") == [("one", "pkg.mod"), ("two", "pkg:obj")]
