"""The lesson record: its fields, its stored shape, and what a usable record must hold."""
from __future__ import annotations

import re

from .store import NOTE_KINDS
from .text import one_line

MODES = ("auto", "manual")
MEMORY_FIELDS = ("title", "summary", "kind", "trigger", "evidence", "change", "validation", "scope", "conditions",
                 "files", "error_signatures", "tags", "concepts", "observation_ids", "verified", "project_key")
LIST_FIELDS = ("files", "error_signatures", "tags", "concepts")


def _as_list(value) -> list:
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [v.strip() for v in re.split(r"[\n,]", value) if v.strip()]
    if isinstance(value, (list, tuple, set)):
        return [v for v in value if v not in (None, "")]
    return [value]


def _evidence(value) -> list[dict]:
    items = []
    for item in value if isinstance(value, list) else _as_list(value) if not isinstance(value, str) else [value]:
        if isinstance(item, dict):
            quote = str(item.get("quote") or item.get("text") or "").strip()
            if not quote:
                continue
            entry = {"quote": quote, "source": str(item.get("source") or "stated by the agent")}
            if isinstance(item.get("observation_id"), int):
                entry["observation_id"] = item["observation_id"]
            items.append(entry)
        elif str(item).strip():
            items.append({"quote": str(item).strip(), "source": "stated by the agent"})
    return items


def _validation(value) -> dict:
    if isinstance(value, dict):
        return {"passed": [str(v) for v in _as_list(value.get("passed"))],
                "not_performed": [str(v) for v in _as_list(value.get("not_performed"))]}
    if isinstance(value, (list, tuple)):
        return {"passed": [str(v) for v in value if str(v).strip()], "not_performed": []}
    text = str(value or "").strip()
    if not text:
        return {"passed": [], "not_performed": []}
    if re.match(r"(?i)(?:not performed|none|not (?:run|tested|verified)|unverified)", text):
        return {"passed": [], "not_performed": [text]}
    return {"passed": [text], "not_performed": []}


def normalize_memory(memory: dict | str, *, scope: str | None = None, project_key: str | None = None) -> dict:
    """The record in its stored shape (lists, dicts, known kind and scope); plain text becomes title + summary."""
    if isinstance(memory, str):
        text = memory.strip()
        memory = {"title": text.splitlines()[0] if text else "", "summary": text}
    if not isinstance(memory, dict):
        raise ValueError("A memory is a JSON object (title, summary, trigger, evidence, change, validation, …).")
    record = {k: memory.get(k) for k in MEMORY_FIELDS if k in memory}
    for field in ("title", "summary", "trigger", "change", "conditions"):
        record[field] = str(record.get(field) or "").strip()
    kind = str(record.get("kind") or "fix").strip().lower().replace("_", "-")
    record["kind"] = kind if kind in NOTE_KINDS else "fix"
    record["scope"] = (scope or str(record.get("scope") or "project")).strip().lower()
    if record["scope"] not in ("project", "global"):
        raise ValueError(f"scope must be 'project' or 'global', not {record['scope']!r}")
    record["evidence"] = _evidence(record.get("evidence"))
    record["validation"] = _validation(record.get("validation"))
    for field in LIST_FIELDS:
        record[field] = [str(v) for v in _as_list(record.get(field))]
    record["observation_ids"] = sorted({int(i) for i in _as_list(record.get("observation_ids"))
                                        if str(i).isdigit()} | {e["observation_id"] for e in record["evidence"]
                                                                if "observation_id" in e})
    record["verified"] = 1 if record.get("verified") else 0
    if project_key is not None:
        record["project_key"] = project_key
    record.setdefault("project_key", None)
    if not record["title"] and record["summary"]:
        record["title"] = one_line(record["summary"], 120)
    return record


def redacted(record: dict) -> dict:
    """The record as it would be stored: secrets redacted everywhere, <private> blocks dropped."""
    from .redact import redact

    def walk(value):
        if isinstance(value, str):
            return redact(value)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        return value

    from .quality import CONTENT_FIELDS

    return {k: walk(v) if k in CONTENT_FIELDS else v for k, v in record.items()}


REQUIRED_STRINGS = ("title", "summary", "trigger", "change")


def record_schema_errors(record, observation_ids: set[int]) -> list[str]:
    """Why a model's JSON is not a usable record (empty list: it is)."""
    if not isinstance(record, dict):
        return ["the lesson is not a JSON object"]
    errors = [f"{field} must be a non-empty string" for field in REQUIRED_STRINGS
              if not isinstance(record.get(field), str) or not record[field].strip()]
    if record.get("kind") not in NOTE_KINDS:
        errors.append(f"kind must be one of {', '.join(NOTE_KINDS)}")
    if record.get("scope", "project") not in ("project", "global"):
        errors.append("scope must be project or global")
    evidence = record.get("evidence")
    if not isinstance(evidence, list) or not evidence:
        errors.append("evidence must be a non-empty list")
    else:
        for item in evidence:
            if not isinstance(item, dict) or not isinstance(item.get("quote"), str) or not item["quote"].strip():
                errors.append("every evidence item needs a quote")
            elif item.get("observation_id") not in observation_ids:
                errors.append(f"evidence cites observation {item.get('observation_id')!r}, not one of this session's")
    validation = record.get("validation")
    if not isinstance(validation, dict) or not all(isinstance(validation.get(k, []), list)
                                                   for k in ("passed", "not_performed")):
        errors.append("validation must be {passed: [...], not_performed: [...]}")
    for field in LIST_FIELDS:
        if field in record and not isinstance(record[field], list):
            errors.append(f"{field} must be a list")
    return errors
