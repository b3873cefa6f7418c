"""The plugin manager: built-ins plus third-party plugins from the ``lorebook`` entry-point group.

Entry points are found by reading ``entry_points.txt`` files on ``sys.path``
directly: ``importlib.metadata`` costs ~75 ms to import, more than a capture
hook's whole budget.
"""
from __future__ import annotations

import importlib
import os
import sys

import pluggy

from . import hookspecs

ENTRY_POINT_GROUP = "lorebook"

DEFAULT_PLUGINS = (
    "lorebook.hooks.capture",
    "lorebook.hooks.recall",
    "lorebook.hooks.writeback",
    "lorebook.quality",
    "lorebook.corpora",
)

pm = pluggy.PluginManager("lorebook")
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
    for plugin in DEFAULT_PLUGINS:
        if not pm.has_plugin(plugin):
            pm.register(importlib.import_module(plugin), name=plugin)
    return pm


def get_plugins() -> list[dict]:
    """Every registered plugin with the hooks it implements, for ``lorebook plugins``."""
    load_plugins()
    plugins = []
    for plugin in pm.get_plugins():
        hooks = sorted(h.name for h in pm.get_hookcallers(plugin) or [])
        plugins.append({"name": pm.get_name(plugin), "hooks": hooks})
    return sorted(plugins, key=lambda p: p["name"])
