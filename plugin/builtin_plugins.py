"""Built-in plugins whose work lives in larger modules, registered without importing those modules.

Every hook process registers every built-in; ``lorebook.quality`` and
``lorebook.corpora`` are needed only when a lesson is checked or an item
forgotten, so each is imported on its plugin's first call instead.
"""
from __future__ import annotations

from . import hookimpl


class QualityChecks:
    """The plugin: the built-in preflight checks (:mod:`lorebook.quality`)."""

    @hookimpl
    def register_quality_checks(self, register):
        from .quality import register_quality_checks

        register_quality_checks(register)


class CorpusForgetting:
    """The plugin: a forgotten item leaves every corpus snapshot (:mod:`lorebook.corpora`)."""

    @hookimpl
    def forget_item(self, kind, item_id, store):
        from .corpora import forget_item

        forget_item(kind, item_id, store)


quality = QualityChecks()
corpora = CorpusForgetting()
