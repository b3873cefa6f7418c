"""The plugin manager: built-ins plus third-party plugins from the ``lorebook`` entry-point group.

Entry points are found by reading ``entry_points.txt`` files on ``sys.path``
directly: ``importlib.metadata`` costs ~75 ms to import, more than a capture
hook's whole budget. Built-ins are named like entry points (``module:attr``)
and registered as the objects they name: small classes holding only their
hookimpls, because pluggy inspects every attribute of what it registers.

``LOREBOOK_TRACE_PLUGINS=1`` logs every hook call (its name, the plugins it
called and its duration) to the hook log, as datasette's
``DATASETTE_TRACE_PLUGINS`` does.
"""
from __future__ import annotations

import importlib
import os
import sys

import pluggy

from . import hookspecs

ENTRY_POINT_GROUP = "lorebook"

# (name, "module:attr"): the core, the faces that know Claude Code (lorebook.hooks), preflight and corpora
DEFAULT_PLUGINS = (
    ("lorebook.sessions", "lorebook.sessions:plugin"),
    ("lorebook.hooks.claude_code", "lorebook.hooks.claude_code:plugin"),
    ("lorebook.hooks.extractors", "lorebook.hooks.extractors:plugin"),
    ("lorebook.hooks.capture", "lorebook.hooks.capture:plugin"),
    ("lorebook.hooks.recall", "lorebook.hooks.recall:plugin"),
    ("lorebook.hooks.stop", "lorebook.hooks.stop:plugin"),
    ("lorebook.hooks.transcripts", "lorebook.hooks.transcripts:plugin"),
    ("lorebook.quality", "lorebook.builtin_plugins:quality"),
    ("lorebook.corpora", "lorebook.builtin_plugins:corpora"),
)
TRACE_ENV = "LOREBOOK_TRACE_PLUGINS"

class PluginManager(pluggy.PluginManager):
    """pluggy's manager, minus the cost of looking at every dunder of every plugin for a hookimpl."""

    def parse_hookimpl_opts(self, plugin, name: str):
        if name.startswith("__"):  # an object's own machinery, never a hook; pluggy checks each one statically
            return None
        return super().parse_hookimpl_opts(plugin, name)


pm = PluginManager("lorebook")
pm.add_hookspecs(hookspecs)

_loaded = False


def _parse_group(text: str, group: str) -> list[tuple[str, str]]:
    found, current = [], None
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip()
        elif current == group and "=" in line:
            name, _, value = line.partition("=")
            found.append((name.strip(), value.split("[")[0].strip()))
    return found


def entry_points(group: str = ENTRY_POINT_GROUP) -> list[tuple[str, str, str]]:
    """(distribution, name, "module:attr") for every installed entry point in ``group``."""
    seen, found = set(), []
    for base in sys.path:
        try:
            names = os.listdir(base or ".")
        except OSError:
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(base, name, "entry_points.txt"), encoding="utf-8") as fp:
                    text = fp.read()
            except OSError:
                continue
            dist = name.rsplit(".", 1)[0].split("-")[0]
            if dist in seen:
                continue
            seen.add(dist)
            if group in text:  # most distributions have entry points, few in this group: parse only those
                found.extend((dist, ep, value) for ep, value in _parse_group(text, group))
    return found


def _load(value: str):
    module_name, _, attr = value.partition(":")
    obj = importlib.import_module(module_name.strip())
    for part in filter(None, attr.strip().split(".")):
        obj = getattr(obj, part)
    return obj


def load_plugins() -> pluggy.PluginManager:
    """Register entry-point plugins, then the built-ins; once per process.

    ``LOREBOOK_LOAD_PLUGINS`` is an allow-list of distribution names (empty: none).
    Tests set ``sys._called_from_test`` to skip entry points.
    """
    global _loaded
    if _loaded:
        return pm
    _loaded = True
    allow = os.environ.get("LOREBOOK_LOAD_PLUGINS")
    if allow is not None or not hasattr(sys, "_called_from_test"):
        allowed = None if allow is None else {n.strip().lower().replace("-", "_") for n in allow.split(",") if n.strip()}
        for dist, name, value in entry_points():
            if allowed is not None and dist.lower().replace("-", "_") not in allowed:
                continue
            if pm.has_plugin(name):
                continue
            try:
                pm.register(_load(value), name=name)
            except Exception as ex:  # a broken third-party plugin must not take lorebook down
                sys.stderr.write(f"lorebook: plugin {name!r} from {dist} failed to load: {ex}\n")
    for name, value in DEFAULT_PLUGINS:
        if not pm.has_plugin(name):
            pm.register(_load(value), name=name)
    if os.environ.get(TRACE_ENV, "").strip().lower() not in ("", "0", "false", "no", "off"):
        trace_hook_calls(pm)
    return pm


def trace_hook_calls(manager: pluggy.PluginManager) -> None:
    """Log every hook call made through ``manager``: its name, duration, and each plugin's part (ms)."""
    import time

    from .config import log

    calls: list[tuple[float, list]] = []  # a stack: hooks call hooks

    def timed(plugin_name: str, function):
        def call(*args):
            start = time.perf_counter()
            try:
                return function(*args)
            finally:
                if calls:
                    calls[-1][1].append((plugin_name, (time.perf_counter() - start) * 1000))

        call.lorebook_traced = True
        return call

    def before(hook_name, hook_impls, kwargs):
        for impl in hook_impls:  # wrapped on first call, so plugins registered later are traced too
            if not getattr(impl.function, "lorebook_traced", False):
                impl.function = timed(impl.plugin_name, impl.function)
        calls.append((time.perf_counter(), []))

    def after(outcome, hook_name, hook_impls, kwargs):
        if not calls:
            return
        start, parts = calls.pop()
        total = (time.perf_counter() - start) * 1000
        plugins = ", ".join(f"{name} {ms:.2f} ms" for name, ms in parts) or "no implementation ran"
        failed = " (raised)" if outcome.exception is not None else ""
        log("trace", f"{hook_name} {total:.2f} ms{failed}: {plugins}")

    manager.add_hookcall_monitoring(before, after)
