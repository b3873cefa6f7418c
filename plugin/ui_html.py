"""HTML for ``lorebook ui``: every value is escaped unless it is already ``Safe`` (markup built here).

``tpl(fmt, **values)`` fills trusted markup with escaped values, so that stored text
(a note's title, a command line, an error) can never become markup.
"""
from __future__ import annotations

import html
import string
from importlib import resources


class Safe(str):
    """HTML built here, from escaped parts: inserted as is."""


def esc(value) -> Safe:
    return value if isinstance(value, Safe) else Safe(html.escape("" if value is None else str(value), quote=True))


class _Escaping(string.Formatter):
    def format_field(self, value, format_spec):
        return esc(value if isinstance(value, Safe) or not format_spec else format(value, format_spec))


_FORMATTER = _Escaping()


def tpl(fmt: str, **values) -> Safe:
    """``fmt`` (trusted markup) with each ``{name}`` replaced by its value, escaped."""
    return Safe(_FORMATTER.vformat(fmt, (), values))


def join(parts) -> Safe:
    return Safe("".join(esc(p) for p in parts))


def template(name: str) -> str:
    return resources.files("lorebook.templates").joinpath("ui", name).read_text(encoding="utf-8")


def options(values, selected, blank: str = "any") -> Safe:
    out = [tpl('<option value="">{blank}</option>', blank=blank)]
    for value in values:
        label = value[1] if isinstance(value, tuple) else value
        value = value[0] if isinstance(value, tuple) else value
        out.append(tpl('<option value="{v}"{sel}>{label}</option>', v=value, label=label,
                       sel=Safe(" selected") if value == selected else Safe("")))
    return join(out)


def html_list(items) -> Safe:
    items = [i for i in items if i not in (None, "")]
    return tpl("<ul>{items}</ul>", items=join(tpl("<li>{i}</li>", i=i) for i in items)) if items else Safe("")


def field(label: str, value) -> Safe:
    if value in (None, "", [], {}):
        return Safe("")
    return tpl('<div class="field"><h3>{label}</h3><div class="text">{value}</div></div>', label=label, value=value)
