"""The lesson record: its fields, its stored shape, and what a usable record must hold."""
from __future__ import annotations

import os
import re

from .commands import LOADS_VARIABLES, container_words, split_outside_quotes, without_env
from .quality import LazyRegex
from .store import NOTE_KINDS
from .text import one_line

MODES = ("auto", "manual")
MEMORY_FIELDS = ("title", "summary", "kind", "trigger", "evidence", "change", "validation", "scope", "conditions",
                 "files", "error_signatures", "tags", "concepts", "observation_ids", "verified", "project_key")
LIST_FIELDS = ("files", "error_signatures", "tags", "concepts")


def _as_list(value, split_commas: bool = False) -> list:
    """A list field from whatever was given: a single string is one item (a comma list too, for tags)."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        parts = re.split(r"[\n,]" if split_commas else r"\n", value)
        return [v.strip() for v in parts if v.strip()]
    if isinstance(value, (list, tuple, set)):
        return [v for v in value if v not in (None, "")]
    return [value]


def _evidence(value) -> list[dict]:
    """Evidence items from a list of quotes or {quote, source} objects; a single string or object is one item."""
    if isinstance(value, (str, dict)):
        value = [value]
    items = []
    for item in value if isinstance(value, (list, tuple)) else []:
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


def _check_text(value) -> str:
    """A passed check as text; ``{"check": ..., "source": ...}`` becomes "check (source)"."""
    if isinstance(value, dict):
        check = str(value.get("check") or value.get("quote") or value.get("text") or "").strip()
        source = str(value.get("source") or "").strip()
        return f"{check} ({source})" if check and source else check
    return str(value).strip()


def _validation(value) -> dict:
    if isinstance(value, dict):
        return {"passed": [_check_text(v) for v in _as_list(value.get("passed")) if _check_text(v)],
                "not_performed": [_check_text(v) for v in _as_list(value.get("not_performed")) if _check_text(v)]}
    if isinstance(value, (list, tuple)):
        return {"passed": [str(v) for v in value if str(v).strip()], "not_performed": []}
    text = str(value or "").strip()
    if not text:
        return {"passed": [], "not_performed": []}
    if re.match(r"(?i)(?:not performed|none|not (?:run|tested|verified)|unverified)", text):
        return {"passed": [], "not_performed": [text]}
    return {"passed": [text], "not_performed": []}


_SENTENCE = LazyRegex(r"(?<=[.!?])\s+(?=[A-Z`'\"(\d])|\n+")
_FIX_CUE = LazyRegex(
    r"(?i)\b(?:the\s+fix|fix(?:ed)?\s+(?:it\s+)?(?:by|with)|solution|workaround|resolved\s+by|fixes\s+it|"
    r"add(?:ed|ing)?|set(?:ting)?|pin(?:ned|ning)?|install(?:ed|ing)?|us(?:e|ed|ing)|switch(?:ed)?\s+to|"
    r"replac(?:e|ed)|remov(?:e|ed)|upgrad(?:e|ed)|downgrad(?:e|ed)|bump(?:ed)?|renam(?:e|ed)|mov(?:e|ed)|"
    r"export(?:ed)?|declar(?:e|ed)|configur(?:e|ed)|chang(?:e|ed)|run\s+`|wrap(?:ped)?|pass(?:ed)?\s+--)\b")
_TRIGGER_CUE = LazyRegex(
    r"(?i)\b(?:when(?:ever)?|running|fail(?:s|ed|ing)?|errors?|crash(?:es|ed)?|raises?|throws?|breaks?|"
    r"exception|refuses?|rejects?|times?\s+out|hangs?|dies|OOM\w*)\b")
_ERROR_TEXT = LazyRegex(r"\b[A-Z]\w*(?:Error|Exception|Exceeded|Failure)\b(?::\s*[^.\n`]{1,160})?")


def _fix_score(sentence: str) -> float:
    """How much a sentence reads as the fix: it opens with a fix verb, names one, or explains a cause instead."""
    if not _FIX_CUE.search(sentence):
        return 0.0
    opener = re.sub(r"(?i)^(?:so|then|finally|i|we|the fix(?: is| was)?[:,]?|fix(?:ed)?(?: it)?:?)\s+", "", sentence)
    score = 1.0 + (2.0 if _FIX_CUE.match(opener) else 0.0)
    if re.search(r"(?i)\b(?:because|but|never|was not|wasn't|since|caused)\b", sentence):
        score -= 0.5
    return score


def lesson_from_text(text: str) -> dict:
    """A record from a person's free text, as well as it can be read: the first line or sentence is the title;
    a "problem: fix" title, or the sentences that say what fails and what changed, give the trigger and the
    change; the whole text is the summary; error names in it become error signatures."""
    text = text.strip()
    if not text:
        return {"title": "", "summary": ""}
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    sentences = [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]
    first = lines[0] if len(lines) > 1 and len(lines[0]) <= 200 else sentences[0]
    title = one_line(first.rstrip("."), 200)
    rest = [s for s in sentences if s.rstrip(".") not in title]
    problem = fix = ""
    head, sep, tail = title.partition(": ")
    if sep and tail and _FIX_CUE.search(tail) and not _FIX_CUE.search(head):
        problem, fix = head, tail
    change = max(rest, key=_fix_score, default="")
    change = change if _fix_score(change) > 0 else ""
    trigger = next((s for s in rest if s != change and _TRIGGER_CUE.search(s)), "")
    if not change:
        change = fix or (title if _FIX_CUE.search(title) and not rest else "")
    if not trigger:
        trigger = problem or (title if _TRIGGER_CUE.search(title) and title != change else "")
    record = {"title": title, "summary": text, "trigger": trigger, "change": change}
    signatures = list(dict.fromkeys(re.split(r"\s+(?:when|while|after|because|since|if|until|during|in\s+an?|on\s+an?)\b", m.group(0))[0].strip()
                                    for m in _ERROR_TEXT.finditer(text)))[:3]
    if signatures:
        record["error_signatures"] = signatures
    return record


def normalize_memory(memory: dict | str, *, scope: str | None = None, project_key: str | None = None) -> dict:
    """The record in its stored shape (lists, dicts, known kind and scope); plain text is read into
    title, trigger, change and summary (:func:`lesson_from_text`). A single string where a list is wanted
    is one item."""
    if isinstance(memory, str):
        memory = lesson_from_text(memory)
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
        record[field] = [str(v) for v in _as_list(record.get(field), split_commas=field in ("tags", "concepts"))]
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


TITLE_LIMIT = 140
# past tense as an agent reports a fix -> the imperative a title states it in
_IMPERATIVE = {"added": "add", "set": "set", "pinned": "pin", "changed": "change", "ran": "run", "installed": "install",
               "replaced": "replace", "removed": "remove", "renamed": "rename", "moved": "move", "upgraded": "upgrade",
               "downgraded": "downgrade", "bumped": "bump", "fixed": "fix", "used": "use", "switched": "switch",
               "passed": "pass", "exported": "export", "configured": "configure", "created": "create",
               "deleted": "delete", "updated": "update", "enabled": "enable", "disabled": "disable",
               "restored": "restore", "reverted": "revert", "wrapped": "wrap", "called": "call", "made": "make"}
# a logger's time stamp before its level: ``[Nest] 60412  - 07/31/2024, 10:02:17 AM   ERROR [PackageLoader] …``,
# ``2024-07-31T10:02:17.123Z ERROR …``, ``[2024-07-31 10:02:17,001] ERROR …``
LOG_STAMP = re.compile(r"^(?:\[\w+\]\s+\d+\s+-\s+)?\[?(?:\d{4}-\d{2}-\d{2}[T ]|\d{1,2}/\d{1,2}/\d{2,4},?\s+)?"
                       r"\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?Z?(?:\s*[AP]M)?\]?\s+(?:ERROR|FATAL|CRITICAL)\b:?\s*")
_LOG_PREFIX = re.compile(r"^(?:Exit code \d+$|E\s+|>\s+|-\s+|ERROR:?\s+|error:\s+(?=\S+:)|Caused by:\s+)|"
                         + LOG_STAMP.pattern[1:])
_PYTEST_FAILED = re.compile(r"\b(?:FAILED|ERROR)\s+\S+\s+-\s+")
# (and Ruby's: ``Selenium::WebDriver::Error::WebDriverError`` reads ``WebDriverError``)
# (and PHP's namespace: ``Symfony\Component\Messenger\Exception\NoHandlerForMessageException``)
_DOTTED_EXCEPTION = re.compile(r"\b(?:(?:[a-z_]\w*\.)+|(?:[A-Z]\w*::)+|(?:[A-Z]\w*\\)+)"
                               r"([A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt)\b)")
# (not a URL's path: Godot's ``res://tests/unit/test_damage.gd`` is the project's own)
_ABSOLUTE_PATH = re.compile(r"(?<![\w./])(?<!\w:)/(?:[\w.@+-]+/)+([\w.@+-]+)")
# the wrappers of a chained exception (``RuntimeException: RuntimeException: BuildException: Build failure``): the
# innermost exception says what went wrong
_WRAPPING_EXCEPTIONS = re.compile(r"(?<!\S)(?:[A-Z]\w*(?:Error|Exception): )+(?=[A-Z]\w*(?:Error|Exception)\b)")
# a changed line that only holds code around the change: an import, a line that only opens a block
# (``sourceSets {``, ``providers: [``, ``val M = object : Migration(3, 4) {``, ``securityContext:``) whose next line
# says what it holds, or a comment about it
# (an import statement, not a dynamic ``import('./bootstrap')``)
# (and Julia's, no semicolon: ``using Resample, Random, StableRNGs, Test``)
_IMPORT = (r"import\b(?!\s*\()|from\s+\S+\s+import\b|#include\b|require\b|using\s+[\w.]+;"
           r"|use\s+[\w:\\{}, ]+;|using\s+[\w.]+(?:\s*[,:]\s*[\w.]+)*\s*$")
_SCAFFOLDING = LazyRegex(r"^[+-]?\s*(?:" + _IMPORT + r"|.*[{(\[:]\s*$|[)\]}>;,\s]+$"
                         # a Ruby or Elixir block opened and closed (``inflections(:en) do |inflect|``, ``defmodule
                         # X do``, ``end``; not ``on_mount: [{UserAuth, :ensure_authenticated}] do``: what it passes)
                         # (or a test's setup, ExUnit's ``setup do``, RSpec's ``before do``)
                         r"|.*\bdo\s*\|[^|]*\|\s*$|\s*(?:def\w*|describe|context|it|test|module|class|setup\w*|before|"
                         r"after)\b.*\bdo\s*$"
                         r"|\s*end\s*$"
                         # an XML declaration, or a tag opened or closed bare (``<?xml version="1.0"?>``,
                         # ``<network-security-config>``; not ``<domain-config cleartextTrafficPermitted="true">``);
                         # a DOCTYPE, a plist's root
                         r"|<\?xml\b[^>]*\?>\s*$|</?[\w.:-]+>\s*$|<!DOCTYPE\b[^>]*>\s*$|<plist\b[^>]*>\s*$"
                         # a comment's delimiter on a line of its own (``/**``, `` */``, ``"""``, ``<!--``)
                         r"|(?:/\*+|\*+/?|\"\"\"|\'\'\'|<!--|-->)\s*$"
                         # a comment in words (not a directive: ``# typed: strict``, ``// eslint-disable-line x``)
                         # (or its next line: ``// written, later Header().Set calls are silently dropped.``)
                         r"|(?:#|//|--|/\*|\*|;)\s*[A-Za-z][\w'/.-]*(?![\w:-])[,;]?(?:\s+\S+){3,}"
                         # (or a docstring in words: ``"""PyRTL builds into one global working block; …"""``)
                         r"|(?:\"\"\"|\'\'\')\s*[A-Za-z][\w'/.-]*(?:\s+\S+){3,})")
_ERROR_NAME = re.compile(r"\b\w*(?:Error|Exception)\b|(?i:\berror\b\s*[:\[](?!\s*\d)|\bfatal:|\bpanic)")
_ERROR_WORD = re.compile(r"(?i)error|exception|fail|fatal|panic|denied|not found|no such|cannot|can't|unable")
_FIRST_PERSON = re.compile(r"(?i)^(?:(?:so|then|finally|and)\s+)?(?:I|we)\s+(?:have\s+|had\s+|then\s+|just\s+)?")
_CODE = re.compile(r"`([^`]+)`")


def error_line(text: str) -> str:
    """The line of a log a reader needs: the last that names an error (``KeyError: …``, ``error[E0433]``), else
    the last that says something failed, else the last that says anything ("4 passed"); log furniture stripped."""
    # text.bounded's marker joins the head of one line to the tail of another: keep whole words only
    text = re.sub(r"…\[\d+ chars truncated\]…\S*\s*", "\n", str(text or ""))
    lines = [line.strip().strip("=").strip() for line in text.splitlines()]
    lines = [_LOG_PREFIX.sub("", _PYTEST_FAILED.sub("", line)).strip() for line in lines if line.strip(" -_*>#\t")]
    lines = [line for line in lines if line]
    if len(lines) <= 1:
        return lines[0] if lines else ""
    named = [line for line in lines if _ERROR_NAME.search(line)]
    failed = [line for line in lines if _ERROR_WORD.search(line)]
    return (named or failed or lines)[-1]


def scaffolding(line: str) -> bool:
    """A changed line that only holds code around the change (an import, a line that opens a block): the line after
    it, or another file's, says what changed."""
    code = line.lstrip("+- \t")
    if re.match(r"(?i)(?:CREATE|ALTER)\s+(?:TABLE|INDEX|VIEW|TYPE|EXTENSION|SCHEMA|FUNCTION|TRIGGER)\b", code):
        return False  # ``CREATE TABLE orders_aud (``: the statement is what changed, its columns the detail
    if re.match(r"(?:\}\s*)?(?:if|elif|else\s+if|unless|while)\b.*\w\(", code):
        return False  # ``if (setlocale(LC_CTYPE, "C.UTF-8") == NULL) {``: the call it tests is the change
    if re.fullmatch(r"[\"']?[A-Za-z_][\w.-]*_[\w.-]*[\"']?\s*[:=]\s*[\[{]", code.strip()):
        return False  # ``column_to_json_key_mappings = {``: the setting named is the change, its entries the detail
    if re.fullmatch(r"(?:\w+\s*=\s*)?\w+(?:\.\w+)+\(", code.strip()):
        return False  # ``flow.from_source(``: the method called is the change, its arguments the detail
    return bool(_SCAFFOLDING.match(line)) or (  # ``(preprocess``: a form opened, its content on the next line
        code.count("(") > code.count(")") and len(code.split()) <= 2)


_IMPORT_LINE = LazyRegex(r"^[+-]?\s*(?:" + _IMPORT + ")")


def imports(line: str) -> bool:
    """Whether a (diff) line is an import statement: the scaffolding a card drops first."""
    return bool(_IMPORT_LINE.match(line))


def _title_part(text: str, error: bool = True) -> str:
    """One clause of a title: the line that says something (the error line of a log, or a fix's first line),
    without log furniture or absolute paths."""
    first = next((line for line in str(text or "").splitlines() if line.strip()), "")
    text = " ".join((error_line(text) if error else first).split())
    for _ in range(3):
        text = _LOG_PREFIX.sub("", text).strip()
    text = _PYTEST_FAILED.sub("", text)
    text = _DOTTED_EXCEPTION.sub(r"\1", text)
    if error:
        text = _WRAPPING_EXCEPTIONS.sub("", text)
        # (a list of absolute paths is where it looked: "the role 'common' was not found in /a/roles:/b/roles:…")
        text = re.sub(r"(?<![\w/])[/~][^\s:]*(?::[/~][^\s:]*)+", "the search path", text)
        text = _ABSOLUTE_PATH.sub(r"\1", text)
    else:  # a fix keeps the paths it quotes: `SSL_CERT_FILE=/etc/ssl/certs/corp.pem` is the lesson
        text = re.sub(r"(`[^`]*`)|([^`]+)", lambda m: m.group(1) or _ABSOLUTE_PATH.sub(r"\1", m.group(2)), text)
    return text.strip(" .;,")


def _imperative(fix: str) -> str:
    # "added X; all tests pass now": the fix is the first clause (a "; " inside a code span is code)
    fix = _FIRST_PERSON.sub("", re.split(r";\s(?=(?:[^`]*`[^`]*`)*[^`]*$)", fix)[0]).strip()
    first, _, rest = fix.partition(" ")
    verb = _IMPERATIVE.get(first.lower())
    if verb:
        return f"{verb} {rest}".strip()
    return fix[:1].lower() + fix[1:] if fix[:1].isupper() and not fix[1:2].isupper() else fix


def _shorten(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, cut between words (and code spans kept whole), never mid-word."""
    if len(text) <= limit:
        return text
    # (never inside a redaction's mark: ``PASSWORD=[REDAC…`` reads as a secret of its own; the mark goes whole)
    mark = next((m for m in re.finditer(r"\[REDACTED:[\w-]+\]", text) if m.start() < limit - 1 < m.end() + 1), None)
    if mark:
        text = text[:mark.start()] + "…" + text[mark.end():]
        if len(text) <= limit:
            return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    cut = cut[:space] if space > limit // 2 else cut
    if cut.count("`") % 2:  # never leave a code span open: close it, cut, when most of it fits; else drop it
        opened = cut.rfind("`")
        if len(text[: limit - 2]) - opened > 20:
            return text[: limit - 2].rstrip() + "…`"
        cut = cut[:opened].rstrip()
    return cut.rstrip(" ,;:-(") + "…"


_WORD = LazyRegex(r"(?:[^\s'\"]+|'[^']*'|\"[^\"]*\"|['\"])+")


def _compact_command(match: re.Match) -> str:
    # (``DATABASE_URL='postgresql://…' npx prisma …``: its program; a quoted argument is one word:
    # ``jq -e '.tasks[0].state == "RUNNING"'`` keeps its filter whole, never half of it and a stray quote)
    # (a program's quoted path by its name: ``"/c/Program Files (x86)/…/signtool.exe" sign …`` reads ``signtool.exe
    # sign``)
    # (and any quoted path by its name, without a stray quote: ``"$PWD/Duskharbor.uproject"`` reads
    # ``Duskharbor.uproject``)
    words = [re.sub(r'^(["\'])(.*)\1$', r"\2", w) if n == 0 or re.fullmatch(r'(["\'])[^\s"\']*/[^\s"\']*\1', w) else w
             for n, w in enumerate(_WORD.findall(without_env(match.group(1))))]
    inner = _in_container(words)
    if inner:  # (a command run in a container, by itself and the image: ``swift build` in `swift:5.10-jammy``)
        return f"`{' '.join(inner[1:])}` in `{inner[0]}`"
    # (with the value of an option that only picks where it runs: ``kubectl -n edge wait`` reads ``kubectl wait``)
    # (and what curl writes where: ``-o /dev/null -w '%{http_code}\n'``)
    curl = bool(words) and os.path.basename(words[0]) == "curl"
    words = [w for i, w in enumerate(words) if not re.fullmatch(r"-\w|--[\w-]+=\S+|--tb=\w+", w)
             and not (i and words[i - 1] in ("-n", "--namespace", "-e", "--environment", "--context", "-o",
                                             "--output")
                      and re.fullmatch(r"[\w.-]+", w))
             and not (curl and i and words[i - 1] in ("-o", "--output", "-w", "--write-out", "-H", "--header", "-d",
                                                     "--data", "--data-raw", "--data-binary"))]
    # (a URL by the last part of its path, else its host, without its quotes or query: ``psql
    # "postgresql://analytics:…@pg-replica.internal:5432/warehouse?sslmode=require"`` reads ``psql warehouse``)
    words = [(url.group(2) or url.group(1))
             if (url := re.fullmatch(r"[\"']?\w[\w+.-]*://(?:[^@/\s]*@)?([^/:?\s\"']+)[^/?\s\"']*"
                                     r"(?:/(?:[^?\s\"']*/)?([^/?\s\"']*))?(?:\?[^\s\"']*)?[\"']?", w)) else w
             for w in words]
    # a directory argument keeps its name (``src/`` stays ``src``): an empty basename would leave a bare program
    # (and go's ``./...``, every package below, stays whole: ``...`` alone says nothing; so does a scoped package,
    # ``@vitest/coverage-v8``, its scope part of its name)
    return "`" + " ".join(os.path.basename(w.rstrip("/")).strip(".") and os.path.basename(w.rstrip("/"))
                          or w if "/" in w and not w.startswith(("-", "@")) and not re.match(r"[\"'].*\s", w)
                          else w for w in words) + "`"


def _in_container(words: list[str]) -> list[str] | None:
    """The image and the command a ``docker run`` (or podman's) runs in it: ``docker run --rm -v "$PWD":/pkg -w /pkg
    swift:5.10-jammy swift build`` → ``["swift:5.10-jammy", "swift", "build"]``; None for any other line, or a run of
    the image's own command."""
    run = container_words(words) if len(words) >= 4 else None
    if run is None:
        return None
    inner = run[1]
    # (a shell's script, by the script: ``sh -c "pip install -q -r requirements.txt"``)
    if len(inner) >= 4 and inner[1] in ("sh", "bash", "ash") and inner[2] in ("-c", "-lc", "-ec", "-euc"):
        inner = [inner[0], *_WORD.findall(" ".join(inner[3:]).strip("'\""))]
    return inner if len(inner) >= 2 else None


def _failed_step(command: str, error: str) -> str:
    """Of a line of steps, the one the error names (``cmake -B build -GNinja app`` for "CMake Error at …", not the
    ``ninja -C build`` after it), else the last: the check they lead to (``rm -rf /tmp/x && git clone … && godot …``)."""
    # (not what only loads variables first: ``set -a; . ./.env.staging; set +a; uv run celery …``)
    command = command[loaded.end():] if (loaded := LOADS_VARIABLES.match(command)) else command
    # (at an ``&&`` outside quotes: ``--filter-pattern '{ $.level == "ERROR" && $.status >= 500 }'`` is one word)
    steps = [s.strip() for s in split_outside_quotes(command, ("&&",)) if s.strip()] or [command]
    named = [s for s in steps for program in [next((w for w in s.split() if "=" not in w), "")]
             if len(program) >= 3 and re.search(rf"(?i)\b{re.escape(os.path.basename(program))}\b", error)]
    # (or the step that builds the program the last one runs, where the error is at a line of a source it was given:
    # ``gfortran -o /tmp/tw test/test_weighted.f90 && /tmp/tw`` after "test/test_weighted.f90:3:7: … Fatal Error")
    last = next((w for w in steps[-1].split() if "=" not in w), "")
    built = [s for s in steps[:-1] if last and re.search(rf"(?:^|\s)-o\s*{re.escape(last)}(?:\s|$)", s)
             and any(re.search(rf"(?<![\w./-]){re.escape(w)}:\d+:\d+", error) for w in s.split()[1:] if "." in w)]
    return (named or built or steps)[-1]


def _fit_problem(problem: str, room: int) -> str:
    """The problem within ``room``: first without a trailing "in FILE" or the error's leading place
    (``lib/models/profile.dart:22:36:``), then with its command's flags and directories dropped, and only then cut
    between words."""
    steps = (lambda p: re.sub(r"\s+in\s+[\w./-]+\.\w+$", "", p),
             lambda p: re.sub(r"(?<=\bwith )[\w./-]+\.\w+:\d+(?::\d+)?:\s+(?=\S)", "", p),
             lambda p: _CODE.sub(_compact_command, p),
             # (less a ``timeout 20`` before it: "`nvim --headless …`", not "`timeout 20 …`")
             lambda p: _CODE.sub(lambda m: m.group(0) if len(m.group(1)) <= 30
                                 else "`" + " ".join(re.sub(r"^timeout\s+(?:-\S+\s+)*\d+\w*\s+", "", _failed_step(
                                     m.group(1), p[m.end():])).split()[:2]) + " …`", p))
    for step in steps:
        if len(problem) <= room:
            break
        problem = step(problem)
    # (an error cut to nothing is left out, not promised: "`gradlew :data:testDebugUnitTest …` fails with…")
    return re.sub(r"\s+(?:with|on|in|at)…$", "", _shorten(problem, room))


def lesson_problem(text: str) -> str:
    """``text`` read as a title's problem (its error line, log furniture and absolute paths dropped), uncut."""
    return _title_part(text)


def lesson_title(problem: str, fix: str | None = None, limit: int = TITLE_LIMIT) -> str:
    """The one line a person would title a lesson with: the problem, then its fix ("X fails with Y — add Z").

    Deterministic. ``problem`` is what goes wrong (a command and its error, a symptom),
    ``fix`` what made it go away (an edit, an invocation: "added X" reads "add X").
    Log furniture (``E``, ``FAILED path -``, ``Exit code 1``), dotted module paths
    of exception names and absolute paths are dropped; when the line is too long the
    problem gives way first (its file, its command's flags, then words), and the fix
    keeps at least half the line.
    """
    problem, fix = _title_part(problem), _imperative(_title_part(fix or "", error=False))
    if not fix:
        return _fit_problem(problem[:1].upper() + problem[1:], limit)
    if not problem:
        return _shorten(fix[:1].upper() + fix[1:], limit)
    joint = " — "
    room = limit - len(joint)
    fix_room = max(room - len(problem), room // 2)
    if len(fix) > fix_room:  # "add `X` in charts/a/b.yaml": the file goes before the fix is cut ("add `X` in…")
        fix = re.sub(r"\s+in\s+[\w./-]+$", "", fix)
    fix = _shorten(fix, fix_room)
    problem = _fit_problem(problem, room - len(fix))
    return f"{problem[:1].upper()}{problem[1:]}{joint}{fix}"


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

