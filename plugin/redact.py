"""Redact secrets before anything is stored or logged."""
from __future__ import annotations

import re

PRIVATE_BLOCK = re.compile(r"<private>.*?(?:</private>|\Z)", re.S | re.I)

PATTERNS: list[tuple[str, re.Pattern]] = [
    ("private-key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)", re.S)),
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b")),
    ("anthropic-key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
    ("openai-key", re.compile(r"\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("url-password", re.compile(r"(?<=://)([^/\s:@]+):([^/\s@]+)(?=@)")),
    ("assignment", re.compile(
        r"(?i)((?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|auth)[\w-]*\s*[=:]\s*[\"']?)([^\s\"',;]{4,})")),
]


def redact(text: str | None) -> str:
    """``text`` with secrets replaced by ``[REDACTED:<kind>]`` and <private> blocks dropped."""
    if not text:
        return text or ""
    text = PRIVATE_BLOCK.sub("[PRIVATE]", text)
    for kind, pattern in PATTERNS:
        if kind == "url-password":
            text = pattern.sub(lambda m: f"{m.group(1)}:[REDACTED:{kind}]", text)
        elif kind == "assignment":
            text = pattern.sub(lambda m: f"{m.group(1)}[REDACTED:{kind}]", text)
        else:
            text = pattern.sub(f"[REDACTED:{kind}]", text)
    return text
