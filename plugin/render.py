"""Render recalled notes as budgeted, clearly framed reference material.

Progressive disclosure: the top notes in full, the rest as an index of
titles and ids, and the command that fetches any of them. The result never
exceeds its token budget.
"""
from __future__ import annotations

from pathlib import Path

from .provenance import provenance, provenance_labels
from .sanitize import neutralise
from .text import estimate_tokens, one_line

FULL_NOTES = 3
FIELD_LIMIT = 600
INDEX_HEADER = "\nMore notes (titles only):\n"
# tokens kept free for the index while placing full notes, so that a long note does not crowd out the rest
INDEX_RESERVE = 60



def template(name: str) -> str:
    """The text of ``templates/<name>`` (installed as ``lorebook.templates``)."""
    import lorebook.templates

    return (Path(lorebook.templates.__file__).parent / name).read_text("utf-8")


def inert(text, limit: int = FIELD_LIMIT) -> str:
    """Stored ``text`` as inert data, cut to ``limit`` characters: every stored field is rendered through here.

    It cannot close the memory frame, open a tag, or pass for the user's or
    the system's words (see :func:`lorebook.sanitize.neutralise`).
    """
    text = neutralise(str(text or "")).strip()
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def _quoted(text: str, limit: int = FIELD_LIMIT) -> str:
    return "\n".join("> " + line for line in inert(text, limit).splitlines())


def evidence_text(evidence) -> str:
    if isinstance(evidence, list):
        parts = []
        for item in evidence:
            if isinstance(item, dict):
                parts.append(f"{item.get('quote', '')} (source: {item.get('source', 'unknown')})")
            else:
                parts.append(str(item))
        return "\n".join(parts)
    return str(evidence or "")


def validation_text(validation) -> str:
    if isinstance(validation, dict):
        lines = [f"passed: {v}" for v in validation.get("passed") or []]
        lines += [f"not performed: {v}" for v in validation.get("not_performed") or []]
        return "\n".join(lines)
    return str(validation or "")


def _labels(note: dict) -> dict:
    """The note's provenance as words, each made inert (an MCP writer's claimed name is stored text too)."""
    return {key: inert(value, 300) for key, value in provenance_labels(provenance(note)).items()}


def index_line(note: dict, why: list[str] | None = None) -> str:
    prov = _labels(note)
    line = (f"- #{note['id']} [{inert(note.get('kind', 'note'), 20)}, {prov['verified']}, {prov['date']}, "
            f"{prov['source']}] {one_line(inert(note['title'], 400), 140)}")
    if why:
        line += f" (matched: {one_line(inert('; '.join(why), 400), 80)})"
    return line


def full_note(note: dict, why: list[str] | None = None, limit: int = FIELD_LIMIT) -> str:
    prov = _labels(note)
    fields = []
    if why:
        fields.append(f"Matched: {one_line(inert('; '.join(why), 400), 160)}")
    for label, value in (
        ("Trigger", note.get("trigger")),
        ("Evidence", evidence_text(note.get("evidence"))),
        ("Change", note.get("change")),
        ("Validation", validation_text(note.get("validation"))),
        ("Applies when", note.get("conditions")),
    ):
        if value and str(value).strip():
            fields.append(f"{label}:\n{_quoted(str(value), limit)}")
    return template("note_full.md").format(
        id=note["id"], title=one_line(inert(note["title"], 400), 160), kind=inert(note.get("kind", "note"), 20),
        verified=prov["verified"], date=prov["date"], source=prov["source"], fields="\n".join(fields),
    ).strip()


def render_context(notes: list[dict], budget: int, heading: str = "", reasons: dict | None = None,
                   full_notes: int = FULL_NOTES) -> tuple[str, list[int]]:
    """The framed context for ``notes`` (best first) within ``budget`` tokens, and the ids it shows.

    ``reasons`` maps a note id to why it was picked (shown beside it);
    the first ``full_notes`` that fit are shown in full, the rest as an index.
    """
    if not notes or budget <= 0:
        return "", []
    reasons = reasons or {}
    frame = template("session_start.md")
    footer = "\nFetch any note in full with `lorebook show ID`."
    fixed = estimate_tokens(frame.format(body="") + heading + footer + INDEX_HEADER) + 8
    remaining = budget - fixed
    full, index, shown = [], [], []
    for position, note in enumerate(notes):
        if position < full_notes:
            placed = False
            for limit in (FIELD_LIMIT, FIELD_LIMIT // 3):  # a shorter excerpt rather than no body at all
                block = full_note(note, reasons.get(note["id"]), limit)
                cost = estimate_tokens(block) + 2
                if cost <= remaining - INDEX_RESERVE:
                    full.append(block)
                    shown.append(note["id"])
                    remaining -= cost
                    placed = True
                    break
            if placed:
                continue
        line = index_line(note, reasons.get(note["id"]))
        cost = estimate_tokens(line) + 1
        if cost > remaining:
            break
        index.append(line)
        shown.append(note["id"])
        remaining -= cost
    if not shown:
        return "", []
    body = inert(heading, 400) + "\n" if heading.strip() else ""
    if full:
        body += "\n" + "\n\n".join(full) + "\n"
    if index:
        body += INDEX_HEADER + "\n".join(index) + "\n"
    body += footer
    text = frame.format(body=body)
    assert estimate_tokens(text) <= budget, "render_context overran its budget"
    return text, shown
