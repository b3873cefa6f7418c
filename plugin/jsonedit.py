"""Minimal edits to JSON text: remove one member or element and leave every other byte as it was.

``lorebook uninstall`` uses it so that a settings file keeps its indentation,
key order, escapes and empty arrays/objects: only lorebook's entries go.
Only strict JSON (what ``json.loads`` accepts) is handled.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

_WS = " \t\n\r"


@dataclass
class Span:
    """Where one JSON value sits in the text; containers know their children."""

    start: int
    end: int  # one past the value's last character
    members: list[tuple[str, int, "Span"]] = field(default_factory=list)  # objects: (key, key start, value)
    items: list["Span"] = field(default_factory=list)  # arrays


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.decoder = json.JSONDecoder()

    def skip(self, i: int) -> int:
        while i < len(self.text) and self.text[i] in _WS:
            i += 1
        return i

    def value(self, i: int) -> Span:
        i = self.skip(i)
        ch = self.text[i]
        if ch == "{":
            span = Span(i, i)
            j = self.skip(i + 1)
            if self.text[j] == "}":
                span.end = j + 1
                return span
            while True:
                key, after_key = self.decoder.raw_decode(self.text, j)
                colon = self.skip(after_key)
                child = self.value(colon + 1)
                span.members.append((key, j, child))
                j = self.skip(child.end)
                if self.text[j] == "}":
                    span.end = j + 1
                    return span
                j = self.skip(j + 1)  # the comma
        if ch == "[":
            span = Span(i, i)
            j = self.skip(i + 1)
            if self.text[j] == "]":
                span.end = j + 1
                return span
            while True:
                child = self.value(j)
                span.items.append(child)
                j = self.skip(child.end)
                if self.text[j] == "]":
                    span.end = j + 1
                    return span
                j = self.skip(j + 1)
        _, end = self.decoder.raw_decode(self.text, i)
        return Span(i, end)


def parse_spans(text: str) -> Span:
    """The span tree of a JSON document (raises ValueError on text ``json.loads`` would refuse)."""
    json.loads(text)
    return _Parser(text).value(0)


def _child(span: Span, step) -> Span:
    if isinstance(step, int):
        return span.items[step]
    for key, _, value in reversed(span.members):  # json.loads keeps the last duplicate
        if key == step:
            return value
    raise KeyError(step)


def remove(text: str, path: list) -> str:
    """``text`` without the member (str step) or element (int step) at ``path``; nothing else changes.

    Removing the only child leaves ``{}`` or ``[]``.
    """
    parent = parse_spans(text)
    for step in path[:-1]:
        parent = _child(parent, step)
    last = path[-1]
    if isinstance(last, int):
        starts = [(item.start, item) for item in parent.items]
        index = last
    else:
        starts = [(key_start, value) for _, key_start, value in parent.members]
        index = max(i for i, (key, _, _) in enumerate(parent.members) if key == last)
    start, value = starts[index]
    if len(starts) == 1:
        cut_from, cut_to = parent.start + 1, parent.end - 1
    elif index + 1 < len(starts):
        cut_from, cut_to = start, starts[index + 1][0]
    else:
        cut_from, cut_to = starts[index - 1][1].end, value.end
    return text[:cut_from] + text[cut_to:]


def detect_style(text: str) -> dict:
    """json.dumps keyword arguments that write a file the way ``text`` was written (indent, escapes)."""
    indent: str | int | None = 2
    lines = text.splitlines()
    if len(lines) <= 1 and text.strip():
        indent = None
    else:
        for line in lines[1:]:
            stripped = line.lstrip(" \t")
            if stripped and stripped != line:
                indent = line[: len(line) - len(stripped)]
                break
    ensure_ascii = "\\u" in text and all(ord(c) < 128 for c in text)
    return {"indent": indent, "ensure_ascii": ensure_ascii}
