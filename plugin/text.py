"""Small text helpers shared by capture, recall and writeback."""
from __future__ import annotations

import os
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


# a class's package, four names or more before a class name of eight letters or more
# (``org.apache.maven.plugins.shade.resource.`` before ``ServicesResourceTransformer``)
_PACKAGE = r"(?<![\w./-])(?:[a-z][a-z0-9_]*\.){4,}(?=([A-Z]\w{7,}))"
_URL_FOLDERS = r"\bhttps?://([^/\s`'\"]+/)([^\s`'\"]*/)([^/\s`'\"]+)"


def one_line(text: str | None, limit: int = 200) -> str:
    """``text`` on one line within ``limit`` characters; a class the cut would drop loses its package instead
    (``<transformer implementation="…ServicesResourceTransformer"/>``, not ``"org.apache.maven.plugins.shade.r…``)."""
    text = " ".join((text or "").split())
    if len(text) <= limit:
        return text
    for match in re.finditer(_PACKAGE, text):
        if match.start() < limit - 1 < match.end() + len(match.group(1)):
            return one_line(text[:match.start()] + "…" + text[match.end():], limit)
    # (and a URL its first folders, as few as will do, up to one that names a version: ``https://repo1.maven.org/…/
    # flink-sql-connector-kafka-3.1.0-1.18.jar``, the file it names, not ``https://repo1.maven.org/maven2/org/a…``)
    for match in re.finditer(_URL_FOLDERS, text):
        folders = match.group(2).removeprefix("…/").split("/")[:-1]
        plain = next((n for n, f in enumerate(folders) if re.search(r"\d\.\d|^v?\d+$", f)), len(folders))
        if match.start() < limit - 1 < match.end() and plain:
            over = match.end() - (limit - 1)
            kept = folders[next((n for n in range(1, plain + 1)
                                 if sum(len(f) + 1 for f in folders[:n]) - 2 >= over), plain):]
            return one_line(text[:match.start(2)] + "…/" + "".join(f + "/" for f in kept) + text[match.start(3):],
                            limit)
    # (never inside a redaction's mark: ``PASSWORD=[REDAC…`` reads as a secret of its own; the mark goes whole)
    for match in re.finditer(r"\[REDACTED:[\w-]+\]", text):
        if match.start() < limit - 1 < match.end():
            return text[:match.start()].rstrip() + "…"
    return text[: limit - 1] + "…"


def common_ends(a: str, b: str) -> tuple[int, int]:
    """How many characters ``a`` and ``b`` share at their start, and then at their end (past the start): what is
    left between is what changed."""
    head = len(os.path.commonprefix([a, b]))
    return head, len(os.path.commonprefix([a[head:][::-1], b[head:][::-1]]))


def elided_heads(spans) -> tuple[str, ...]:
    """Of quoted code that elides its middle (`contextBridge.exposeInMainWorld('api', { ... })`), the part before the
    elision, which a changed line holds as written (``contextBridge.exposeInMainWorld('api', {``)."""
    heads = (re.split(r"\s*(?:\.\.\.|…)", span, maxsplit=1)[0].rstrip() for span in spans
             if re.search(r"\.\.\.|…", span))
    return tuple(head for head in heads if len(head) >= 12)


def held_out(pattern: str, text: str):
    """``text`` with each match of ``pattern`` held out as a placeholder, so that no split or filter reads inside it
    (a code span, a command substitution), and the function that puts the held text back into any piece of it."""
    held: list[str] = []
    text = re.sub(pattern, lambda m: held.append(m.group(0)) or f"\x00{len(held) - 1}\x00", text)

    def restore(piece: str) -> str:
        return re.sub(r"\x00(\d+)\x00", lambda m: held[int(m.group(1))], piece) if held else piece

    return text, restore
