"""Small text helpers shared by capture, recall and writeback."""
from __future__ import annotations

import re

TRUNCATION_MARKER = "…[{n} chars truncated]…"

# compiled on first use: this wide class costs ~10 ms to compile, and capture hooks never count tokens
_WIDE_CLASS = r"[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\U00020000-\U0003ffff]"


def estimate_tokens(text: str) -> int:
    """A conservative token estimate: ~4 characters a token, one a token for CJK."""
    if not text:
        return 0
    if text.isascii():
        return (len(text) + 3) // 4
    wide = len(re.findall(_WIDE_CLASS, text))
    return wide + (len(text) - wide + 3) // 4


def bounded(text: str | None, limit: int, tail: int | None = None) -> str:
    """``text`` cut to about ``limit`` characters, keeping head and tail, with a visible marker."""
    if not text:
        return ""
    if len(text) <= limit:
        return text
    tail = limit // 3 if tail is None else tail
    head = max(limit - tail, 0)
    cut = len(text) - head - tail
    return text[:head] + TRUNCATION_MARKER.format(n=cut) + (text[-tail:] if tail else "")


def one_line(text: str | None, limit: int = 200) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
