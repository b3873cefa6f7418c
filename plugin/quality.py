"""Preflight: named, programmatic checks that say whether a lesson is well written.

Passing them means "well written", not "true". Every check is registered
through the ``register_quality_checks`` hook (this module is a built-in plugin
in DEFAULT_PLUGINS), so a third party adds its own the same way::

    @hookimpl
    def register_quality_checks(register):
        register("no_jira_ids", check_no_jira_ids)

A check takes the normalised memory dict and returns a list of
:class:`Finding` (or dicts with the same keys). Severities:

- ``reject``: never stored automatically; a person's (manual) write is refused
  only when it is empty or unsafe, and stored with a warning otherwise
  (``MANUAL_WARNS``: too short, a placeholder, status only, no change);
- ``skip``: automatic writeback skips it, a manual write stores it with a warning;
- ``warn``: stored in both modes, with a warning;
- ``quarantine``: stored in both modes, but flagged (status ``quarantined``): shown to people, never recalled
  into a session.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Callable

from lorebook import hookimpl


class LazyRegex:
    """A regex compiled on first use: hook processes import these modules but rarely need every pattern."""

    def __init__(self, pattern: str, flags: int = 0):
        self.pattern, self.flags, self._compiled = pattern, flags, None

    def __getattr__(self, name):
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        value = getattr(self._compiled, name)
        setattr(self, name, value)  # found directly from now on: a write calls these methods ~2,000 times
        return value


SEVERITIES = ("reject", "skip", "warn", "quarantine")

# Minimum substance, in words (a CJK character counts as two thirds of a word)
MIN_TITLE_WORDS = 4
MIN_BODY_WORDS = 12


@dataclass
class Finding:
    code: str
    severity: str
    message: str
    field: str | None = None

    def as_dict(self) -> dict:
        return asdict(self)


_CJK = LazyRegex(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uf900-\ufaff\U00020000-\U0002ffff]")
_LATIN_WORD = LazyRegex(r"[^\W\d_]{2,}|\d+(?:\.\d+)*|[A-Za-z_][\w.\-/]*\w", re.UNICODE)


def word_count(text: str | None) -> float:
    """Words in ``text``, CJK-aware: Chinese, Japanese and Korean are not space-separated."""
    if not text:
        return 0.0
    if text.isascii():  # most lessons: no CJK to count, and its large character class is not compiled
        return float(len(_LATIN_WORD.findall(text)))
    cjk = len(_CJK.findall(text))
    latin = len(_LATIN_WORD.findall(_CJK.sub(" ", text)))
    return latin + cjk / 1.5


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return " ".join(_text(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return " ".join(_text(v) for v in value)
    return str(value)


# the fields a reader sees (and that are redacted before storing); ids and keys are not content
CONTENT_FIELDS = ("title", "summary", "trigger", "evidence", "change", "validation", "conditions", "files",
                  "error_signatures", "tags", "concepts")


def _strings(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []


def _evidence_quotes(memory: dict) -> list[str]:
    return [(e.get("quote") or "") if isinstance(e, dict) else str(e) for e in memory.get("evidence") or []]


def _prose(memory: dict) -> str:
    """The words a reader reads: title, summary, trigger, change, conditions."""
    return "\n".join(_text(memory.get(f)) for f in ("title", "summary", "trigger", "change", "conditions"))


# --- the built-in checks ---------------------------------------------------------------

def _content_words(memory: dict) -> float:
    """Words of the prose that are not placeholders, with secrets taken out: what would be left to read."""
    from .redact import redact

    left = [value for value in (_text(memory.get(f)).strip() for f in ("title", "summary", "trigger", "change",
                                                                        "conditions"))
            if value and not _PLACEHOLDER.match(value)]
    if word_count("\n".join(left)) > 12:  # more than a secret could be: no need to redact to know
        return word_count("\n".join(left))
    return word_count("\n".join(re.sub(r"\[REDACTED:[\w-]+\]", " ", redact(value)) for value in left))


def check_minimum_length(memory: dict) -> list[Finding]:
    if _content_words(memory) < 1:
        return [Finding("empty", "reject", (
            "There is nothing to store: the lesson is empty, a placeholder, or only a secret."), "title")]
    findings = []
    title_words = word_count(memory.get("title"))
    if title_words < MIN_TITLE_WORDS:
        findings.append(Finding("too_short", "reject", (
            f"The title has {title_words:.0f} word(s); a scannable title names the problem and its fix "
            f"in at least {MIN_TITLE_WORDS} words."), "title"))
    body = word_count("\n".join(_text(memory.get(f)) for f in ("summary", "trigger", "change")))
    if body < MIN_BODY_WORDS:
        findings.append(Finding("too_short", "reject", (
            f"Summary, trigger and change hold {body:.0f} word(s) together; a reusable lesson needs at least "
            f"{MIN_BODY_WORDS} to say what went wrong and what changed."), "summary"))
    return findings


_PLACEHOLDER = LazyRegex(
    r"(?ix)^\s*(?:unknown|n/?a|none|null|tbd|todo|fixme|xxx|\?+|-+|\.\.\.|…|lorem\ ipsum.*|"
    r"fix(?:ed)?\ the\ (?:issue|bug|problem|error)|see\ above|as\ discussed|same\ as\ before)\s*[.!]?\s*$")
# an unfilled slot is a bare name in braces ({{description}}, {{ fill me }}); ``{{ .Values.x }}``, ``{{- with … }}``
# and ``${{ secrets.TOKEN }}`` are template code (Helm, Jinja, GitHub Actions)
# (an uppercase TODO as a word: a project named todo-api, a `Todo` model or `todos.group` is content)
_PLACEHOLDER_INLINE = LazyRegex(r"(?<![\w/.-])(?:TODO|TBD|FIXME)(?![\w/.-])|(?i:<(?:insert|fill|placeholder)[^>]*>)|"
                                r"(?<!\$)\{\{\s*[A-Za-z_][A-Za-z_ ]*\s*\}\}")

# a code span, or a line of a diff (``+where …``, ``-where …``)
_QUOTED_CODE = LazyRegex(r"(?m)`[^`\n]+`|^[+-].*$")


def check_placeholders(memory: dict) -> list[Finding]:
    findings = []
    for field in ("title", "summary", "trigger", "change", "conditions"):
        value = _text(memory.get(field))
        if not value.strip():
            continue
        # (quoted code holds template code as it is: dbt's ``where o.updated_at > (select max(updated_at) from
        # {{ this }})``, a diff line's ``# TODO``)
        if _PLACEHOLDER.match(value) or _PLACEHOLDER_INLINE.search(_QUOTED_CODE.sub("", value)):
            findings.append(Finding("placeholder", "reject",
                                    f"The {field} is a placeholder ({value.strip()[:40]!r}), not content.", field))
    return findings


_STATUS = LazyRegex(
    r"(?ix)\b(?:tests?\ (?:now\ )?(?:pass(?:es|ed)?|are\ passing|green)|all\ (?:tests\ )?(?:pass(?:ing)?|green)|"
    r"(?:it\ )?works?\ now|now\ works|working\ now|ci\ (?:is\ )?green|build\ (?:passe[sd]|succeeded|is\ green)|"
    r"fixed\ it|it'?s\ fixed|(?:bug|issue|problem)\ (?:is\ )?(?:fixed|resolved|solved)|done|resolved|lgtm)\b")
# words that say *why* or *what*: a mechanism, a cause, a concrete change
_MECHANISM = LazyRegex(
    r"(?ix)\b(?:because|caused|cause|due\ to|since|so\ that|which|when|whenever|if|unless|instead|"
    r"by\ (?:adding|removing|setting|pinning|changing|using|passing|moving|renaming)|"
    r"set|pin(?:ned)?|added|removed|changed|renamed|moved|replaced|bump(?:ed)?|upgrad\w*|downgrad\w*|"
    r"config\w*|timeout|version|env\w*|flag|option|path|import|install\w*|missing|requires?)\b"
    r"|[=`/]|\w+\.\w{1,5}\b|\w+\(\)")


def check_status_only(memory: dict) -> list[Finding]:
    prose = _prose(memory)
    if not _STATUS.search(prose):
        return []
    stripped = _STATUS.sub(" ", prose)
    if _MECHANISM.search(stripped) and word_count(stripped) >= 8:
        return []
    return [Finding("status_only", "reject", (
        "It reports an outcome (\"tests pass\", \"works now\", \"fixed it\") but not the mechanism: "
        "what was wrong, what changed and why that fixed it."), "summary")]


_DIARY = LazyRegex(
    r"(?ix)(?:^|[.!?]\s+|\n)\s*(?:I|We)\s+(?:then\s+|first\s+|finally\s+)?(?:tried|looked|checked|ran|noticed|"
    r"decided|started|spent|went|found|fixed|realized|realised|wanted|was|were|had|did|think|thought|"
    r"managed|investigated|debugged|updated|changed|added)\b"
    r"|\b(?:today|this\ morning|this\ afternoon|yesterday|after\ a\ while|at\ first|then\ I|so\ I)\b")


def check_diary_phrasing(memory: dict) -> list[Finding]:
    prose = _QUOTED_CODE.sub("", _prose(memory))  # (code says what it says: ``scope :today, -> { … }``)
    hits = _DIARY.findall(prose)
    if len(hits) >= 2 or (hits and word_count(prose) < 40):
        return [Finding("diary_phrasing", "skip", (
            "It reads like a diary of the session (\"I tried…, then I…\"); state the trigger, the cause and "
            "the change impersonally so that it reads as a lesson."), "summary")]
    return []


_GENERIC = LazyRegex(
    r"(?ix)^\s*(?:add(?:ed)?|improv\w+|better|more|proper|fix(?:ed)?|handl\w+|updat\w+|refactor\w*|clean\w*\ up|"
    r"us(?:e|ed)|check(?:ed)?|make\ sure|ensure)\s+(?:the\s+|some\s+|more\s+|better\s+|proper\s+)?"
    r"(?:input\ )?(?:validation|error\ handling|tests?|checks?|logging|code|logic|handling|the\ code|things|it|"
    r"the\ bug|the\ issue|types?|null\ checks?|retries|docs?)\s*[.!]?\s*$")


def check_generic_fix(memory: dict) -> list[Finding]:
    change = _text(memory.get("change")).strip()
    first = change.splitlines()[0] if change else ""
    if first and _GENERIC.match(first) and word_count(change) < 12:
        return [Finding("generic_fix", "skip", (
            f"The change ({first!r}) is generic: say which input, which code path and what exactly changed."),
            "change")]
    return []


def check_required_fields(memory: dict) -> list[Finding]:
    findings = []
    if word_count(memory.get("change")) < 3:
        findings.append(Finding("missing_change", "reject",
                                "It does not say what was changed (the fix, the decision or the workaround).",
                                "change"))
    if word_count(memory.get("trigger")) < 3:
        findings.append(Finding("missing_trigger", "skip",
                                "It does not say what triggers the problem (which command, version, input or "
                                "operation exposes it).", "trigger"))
    quotes = [q for q in _evidence_quotes(memory) if q.strip()]
    if not quotes:
        findings.append(Finding("missing_evidence", "skip",
                                "It quotes no evidence (an error, a log line, a failing check) with its source.",
                                "evidence"))
    validation = memory.get("validation") or {}
    passed = validation.get("passed") if isinstance(validation, dict) else None
    not_performed = validation.get("not_performed") if isinstance(validation, dict) else None
    if not passed and not not_performed:
        findings.append(Finding("missing_validation", "skip",
                                "It does not say how it was validated: the checks that passed, or that none "
                                "was performed.", "validation"))
    elif not passed:
        findings.append(Finding("not_validated", "warn", "No check passed after the change: it is unverified.",
                                "validation"))
    return findings


def check_scope(memory: dict) -> list[Finding]:
    if memory.get("scope") == "global" and word_count(memory.get("conditions")) < 3:
        return [Finding("global_without_conditions", "skip", (
            "It claims global scope without conditions: say where it applies (language, tool, version, OS)."),
            "conditions")]
    return []


def check_secrets(memory: dict) -> list[Finding]:
    from .redact import redact

    kinds: set[str] = set()
    for field in CONTENT_FIELDS:
        for text in _strings(memory.get(field)):
            cleaned = redact(text)
            if cleaned != text:
                before = set(re.findall(r"\[REDACTED:([\w-]+)\]", text))
                kinds |= (set(re.findall(r"\[REDACTED:([\w-]+)\]", cleaned)) - before) or {"private block"}
    if not kinds:
        return []
    kinds = sorted(kinds)
    return [Finding("secret_present", "skip", (
        f"It contains what looks like a secret ({', '.join(kinds)}); it would be stored redacted."), None)]


_INJECTION = LazyRegex(
    r"(?ix)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier|"
    r"your|system)\s+(?:instructions?|prompts?|rules|messages?)|\bsystem\s+prompt\b|"
    r"\byou\s+are\s+now\b|\bnew\s+instructions?\s*:|</?(?:system|instructions?)>|\bdo\s+not\s+tell\s+the\s+user\b|"
    # (a verb, not a noun after its article: "the upload key listed in the prod file" is Android's signing key)
    r"(?<!\bthe\s)(?<!\ban\s)(?<!\ba\s)(?<!\bour\s)(?<!\bits\s)(?<!\byour\s)(?<!\btheir\s)(?<!'s\s)"
    r"\b(?:exfiltrate|send|upload|post)\s+(?:the\s+|all\s+)?(?:secrets?|credentials?|tokens?|keys?|\.env)\b")
STEERING_TEXT = {
    "override": "tells the agent to ignore or replace its instructions",
    "authority": "claims to speak for the user, the system or another authority",
    "standing_order": "gives a future agent standing orders",
    "remote_code": "runs code fetched from the network, or a destructive or persistent command",
    "exfiltration": "sends, prints or reads secrets",
    "hidden_characters": "hides characters inside words",
    "encoded": "carries an encoded instruction",
}


def _field_strings(memory: dict) -> list[tuple[str, str]]:
    out = [(field, text) for field in CONTENT_FIELDS if field != "evidence" for text in _strings(memory.get(field))]
    out += [("evidence", q) for q in _evidence_quotes(memory)]
    return out


def check_instruction_like(memory: dict) -> list[Finding]:
    """Text that tries to steer a future agent is quarantined: stored with its flag, never injected."""
    from .sanitize import steering_reasons

    findings = []
    for field, text in _field_strings(memory):
        reasons = [r for r in steering_reasons(text) if not (field == "evidence" and r == "hidden_characters")]
        if reasons:
            findings.append(Finding("instruction_like", "quarantine", (
                f"The {field} {', '.join(STEERING_TEXT.get(r, r) for r in reasons)}: memory is evidence, never "
                "instructions, so this lesson is quarantined (stored and shown to people with this flag, never "
                "injected into a session)."), field))
    return findings


BUILTIN_CHECKS: dict[str, Callable[[dict], list]] = {
    "minimum_length": check_minimum_length,
    "placeholders": check_placeholders,
    "status_only": check_status_only,
    "diary_phrasing": check_diary_phrasing,
    "generic_fix": check_generic_fix,
    "required_fields": check_required_fields,
    "scope_conditions": check_scope,
    "secrets": check_secrets,
    "instruction_like": check_instruction_like,
}


@hookimpl
def register_quality_checks(register):
    for name, check in BUILTIN_CHECKS.items():
        register(name, check)


# --- running them ---------------------------------------------------------------------

def quality_checks() -> dict[str, Callable]:
    """Every registered check by name (built-ins and third-party plugins)."""
    from .plugins import load_plugins

    checks: dict[str, Callable] = {}

    def register(name: str, check: Callable) -> None:
        checks[name] = check

    load_plugins().hook.register_quality_checks(register=register)
    return checks


def run_checks(memory: dict) -> list[Finding]:
    """Every finding of every registered check; a check that raises is reported, not fatal."""
    findings: list[Finding] = []
    for name, check in quality_checks().items():
        try:
            results = check(memory) or []
        except Exception as ex:  # a broken third-party check must not lose the lesson
            findings.append(Finding("check_failed", "warn", f"Quality check {name!r} failed: {ex}"))
            continue
        for result in results:
            if isinstance(result, dict):
                result = Finding(**{k: result.get(k) for k in ("code", "severity", "message", "field")})
            if result.severity not in SEVERITIES:
                result.severity = "warn"
            findings.append(result)
    return findings


# A person's write (manual mode) is kept unless it is empty, a secret or an injection attempt: these findings,
# which refuse a lesson written automatically, come back to a person as warnings instead.
MANUAL_WARNS = frozenset({"too_short", "placeholder", "status_only", "missing_change"})


def verdict(findings: list[Finding], mode: str) -> tuple[bool, list[Finding], list[Finding]]:
    """(accepted, blocking findings, warnings) for ``mode`` ("auto" or "manual").

    auto (the Stop hook, agents) blocks every ``reject`` and ``skip`` finding;
    manual (a person) blocks only a ``reject`` that is not in MANUAL_WARNS: an
    empty lesson, a secret, an injection attempt, or a plugin's own refusal.
    """
    if mode not in ("auto", "manual"):
        raise ValueError(f"mode must be 'auto' or 'manual', not {mode!r}")
    if mode == "auto":
        blocking = [f for f in findings if f.severity in ("reject", "skip")]
    else:
        blocking = [f for f in findings if f.severity == "reject" and f.code not in MANUAL_WARNS]
    warnings = [f for f in findings if f not in blocking]
    return not blocking, blocking, warnings
