"""config.flag: the one parser of on/off settings, and the switches that use it."""
import os
import socket

import pytest

from lorebook import config

ON = ["1", "true", "TRUE", "yes", "Yes", "on", "ON", " on ", "true\n"]
OFF = ["0", "false", "False", "no", "NO", "off", "Off", "", "  ", " 0 "]
UNKNOWN = ["2", "enabled", "disable", "y", "n", "-1", "tru"]


@pytest.mark.parametrize("default", [True, False])
@pytest.mark.parametrize("value", ON)
def test_on_values_turn_a_flag_on_whatever_its_default(monkeypatch, value, default):
    monkeypatch.setenv("LOREBOOK_TEST_FLAG", value)
    assert config.flag("LOREBOOK_TEST_FLAG", default) is True


@pytest.mark.parametrize("default", [True, False])
@pytest.mark.parametrize("value", OFF)
def test_off_values_turn_a_flag_off_whatever_its_default(monkeypatch, value, default):
    monkeypatch.setenv("LOREBOOK_TEST_FLAG", value)
    assert config.flag("LOREBOOK_TEST_FLAG", default) is False


@pytest.mark.parametrize("default", [True, False])
def test_an_unset_flag_is_its_default_and_logs_nothing(monkeypatch, lorebook_home, default):
    monkeypatch.delenv("LOREBOOK_TEST_FLAG", raising=False)
    assert config.flag("LOREBOOK_TEST_FLAG", default) is default
    assert not (lorebook_home / "logs" / "hooks.log").exists()


@pytest.mark.parametrize("default", [True, False])
@pytest.mark.parametrize("value", UNKNOWN)
def test_any_other_value_is_the_default_and_the_log_says_so(monkeypatch, lorebook_home, value, default):
    monkeypatch.setenv("LOREBOOK_TEST_FLAG", value)
    assert config.flag("LOREBOOK_TEST_FLAG", default) is default
    log = (lorebook_home / "logs" / "hooks.log").read_text()
    assert f"LOREBOOK_TEST_FLAG={value!r}" in log
    assert f"using the default, {'on' if default else 'off'}" in log


@pytest.mark.parametrize("value, disabled", [("1", True), ("yes", True), ("on", True),
                                             ("0", False), ("no", False), ("off", False), ("", False),
                                             ("maybe", False)])
def test_lorebook_disable_reads_off_as_off(monkeypatch, value, disabled):
    # LOREBOOK_DISABLE=off used to disable every hook
    monkeypatch.setenv("LOREBOOK_DISABLE", value)
    assert config.disabled() is disabled


def _switches():
    from lorebook import embed_server, mcp_warm, vectors

    return [("LOREBOOK_AUTO_INDEX", vectors.auto_index_enabled),
            ("LOREBOOK_EMBED_SERVER", embed_server.auto_start_enabled),
            ("LOREBOOK_MCP_WARM", mcp_warm.enabled)]


@pytest.mark.parametrize("index", range(3))
def test_every_default_on_switch_reads_the_same_words(monkeypatch, index):
    name, enabled = _switches()[index]
    if name == "LOREBOOK_MCP_WARM" and not (hasattr(socket, "send_fds") and hasattr(os, "fork")):
        pytest.skip("the warm MCP parent is Unix only")
    monkeypatch.delenv(name, raising=False)
    assert enabled() is True
    for value, expected in (("off", False), ("no", False), ("on", True), ("0", False), ("yes", True)):
        monkeypatch.setenv(name, value)
        assert enabled() is expected, (name, value)
