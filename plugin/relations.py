"""How lessons relate: near-duplicates, contradictions, and a note's lifecycle.

Similarity is lexical (weighted tokens, with identifiers, error signatures and
files counting most) fused with vector cosine when an embedding model is
available. Similar is not enough to merge: a duplicate is the same problem with
the same fix, so two lessons whose fixes or triggers name facts the other never
mentions (a package, variable, flag, file, value, version, error code), or that
do different things to one thing, stay two (:func:`different_fix`). A
contradiction is one problem with incompatible fixes (:func:`contradicts`).
A name is the same name spelled out in words, and a fix told again at more length
(all the shorter one says, and more details) is the same fix. Where the model finds
the two notes alike (hybrid mode only), a name is also said by its words in any order
or form (:func:`_said_in_words`). Contradictions are
decided by what the fixes do, not by a phrase: a rejection that names the other's
remedy, another value for one name, the opposite direction, or taking away what
the other adds, keeping what the other takes away, doing without it ("instead of
pinning clap"), the other order of the same steps. Thresholds and cues were chosen
on the pairs of ``bench/dedupe.py``; each blind set there was run once before it was
tuned on. Relation kinds: supersedes, similar_to, contradicts, derived_from,
resolved_by.
"""
from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import Callable, Sequence

from .quality import LazyRegex

RELATION_KINDS = ("supersedes", "similar_to", "contradicts", "derived_from", "resolved_by")

# Chosen on bench/dedupe.py's in-sample pairs; lexical is what the Stop hook uses
MERGE_THRESHOLD_LEXICAL = 0.30
MERGE_THRESHOLD_HYBRID = 0.50
RELATED_THRESHOLD = 0.22       # below this, two notes are unrelated
DISTINCT_WEIGHT = 1.0         # facts only one lesson names, on each side, that make two lessons
ONE_SIDED_WEIGHT = 2.0        # or facts only one fix names, on one side: a merge would lose them
CONTAINED_WEIGHT = 0.5        # the shorter lesson said within the longer counts half as much as the same words
SAME_STORY = 0.6              # titles this alike (word sequence) tell one story: the words they swap are subjects
TOLD_WITHIN = 0.85            # a fix this much said within the other lesson is that lesson told more briefly
SAME_PROBLEM_THRESHOLD = 0.3  # title + trigger + error: at or above, one problem (contradictions need it)
RECALLED_FACTOR = 0.8          # a restatement of a note recalled into the session merges more readily
VECTOR_WEIGHT = 0.5
# at or above this cosine of the whole notes (hybrid mode only), a name one lesson writes as an identifier and
# the other says in words (DATABASE_URL / "the database URL") is one name, not a fact apart
SAID_IN_WORDS_COSINE = 0.75

_STOP = frozenset("""
a an the and or but if then else of to in on at by for with from into onto as is are was were be been being it its
this that these those there here so such than too very can could should would will shall may might must do does did
done has have had not no nor only own same just also when while which who whom whose what why how all any both each
few more most other some our we i you he she they them their his her my your us me after before again further once
up down out over under about above below between through during until against because since via per
""".split())
# words every coding lesson uses: they say little about which lesson it is
_COMMON = frozenset("""
test tests testing error errors fail fails failed failing failure fix fixed fixes fixing run runs ran running
pass passes passed passing add added adding change changed changes use used using file files code make made
issue problem work works worked working need needs needed set setting get gets now new when instead because
command project check checks value version line lines build call calls called return returns function method
""".split())
# phrases that reject a remedy or a diagnosis: what turns "same topic" into "disagrees"
_REJECTION = LazyRegex(
    r"(?ix)\b(?:do\s*n[o']t|don't|never|avoid)\s+(?:\w+\s+){0,2}?(?:add|use|run|set|raise|increase|decrease|commit|"
    r"create|switch|force|migrate|stringify|install|whitelist|trust|pin|unpin|upgrade|downgrade|copy|merge|"
    r"change|remove|relock|bump|disable|enable|make|put|guard|exclude|default|transform|turn|rename|strip|filter|"
    r"convert|grant|mock|stub|patch|wrap|move|delete|drop|cache|retry|restart)(?!\w?ed\b|d\b|e?s\b)\w*"  # "never deleted", "never creates" narrate
    r"|\b(?:did|does|do|would|will)\s*(?:not|n't)\s+(?:help|fix|work|matter|stop|solve|change|speed)\w*"
    r"|\b(?:didn't|doesn't|won't)\s+(?:help|fix|work|matter|stop|solve)\w*"
    r"|\bmade\s+no\s+difference\b|\bno\s+effect\b|\bred\s+herring\b|\bwrong\s+fix\b"
    r"|\b(?:is|was|are|were)\s+the\s+wrong\b|\b(?:is|was)\s+not\s+(?:the\s+)?(?:fix|cause|problem|issue|about|"
    r"a\s+missing)\b|\bnot\s+(?:about|the\s+(?:fix|cause))\b|\bcannot\s+help\b|\bis\s+not\s+the\s+fix\b"
    r"|\b(?:is|are)\s+fine\b|\bonly\s+a\s+warning\b|\bstill\s+(?:exceeded|failed|fails|deadlocked|timed\s+out)\b"
    r"|\bdid\s+not\s+(?:help|fix|stop)\b|\bnot\s+yet\b"
    r"|\b(?:must|should|may)\s*(?:not|n't|never)\s+\w+|\b(?:mustn't|shouldn't)\s+\w+"     # "must not build assets"
    r"|\b(?:is|are|was|were)\s+(?:banned|forbidden|prohibited|disallowed|not\s+an\s+option)\b"
    r"|\b(?:is|are|was|were)\s+(?:no\s+longer\s+|not\s+)(?:allowed|permitted|supported|wanted)\b(?!\s+to\b)"  # "X are not allowed"
    r"|(?<=[;,(\u2014])\s*(?-i:no\s+(?:[a-z]{3,}s(?=\s*(?:[.;,)]|$))|--?\w))"                      # "..., no locks"
    r"|\bnever\s+(?:in|inside|from|on|at|with|via|through)\b"                                 # "never in the Dockerfile"
    r"|\bmade\s+(?:it|things|this)\s+worse\b"
    r"|(?:^|(?<=[:;,(\u2014])|(?<=[:;,(\u2014]\s)|\b(?<=so\s)|\b(?<=and\s)|\b(?<=but\s))"  # an instruction opens
    r"(?:do\s+not|don't)\s+(?!know|have|need|see|understand|exist|matter)[a-z]{3,}"       # its clause: "do not X"
    r"|\bnever\s+\w+\s+(?=-)"                                                                   # "never init -upgrade"
    r"|\bnever\s+(?=[\w-]+[.:/_][\w.:/-]+)"                                           # "never db:test:prepare"
    r"|不要|无效|没有用")
_NO_THING = LazyRegex(r"(?i)\s*no\s")
_CLAUSE_END = LazyRegex(r"[,;:]\s|\s\u2014\s|\s(?:and|but|then|instead)\s")
_INSTRUCTION = LazyRegex(r"(?i)do\s*n[o']t|don't|never|avoid|must|should|may|mustn't|shouldn't")
_WHERE_NOT = LazyRegex(r"(?i)never\s+(?:in|inside|from|on|at|with|via|through)\b")
_OPPOSITES = [("increase", "decrease"), ("enable", "disable"), ("upgrade", "downgrade"), ("pin", "unpin"),
              ("allow", "deny"), ("raise", "lower")]
_ASSIGNMENT = LazyRegex(r"([A-Za-z_][\w.\-]*)\s*(==|>=|<=|~=|=)\s*([\w.\-]+)")
_WORD = LazyRegex(r"[A-Za-z_][A-Za-z0-9_]*(?:[.\-/][A-Za-z0-9_]+)*|\d+(?:\.\d+)+|[\u3400-\u9fff\uac00-\ud7a3]")


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


_IDENTIFIER_MARK = LazyRegex(r"[._/\-\d]|[a-z][A-Z]")
_PARTS = LazyRegex(r"[._/\-]")


def _is_identifier(raw: str) -> bool:
    return bool(_IDENTIFIER_MARK.search(raw) or raw.isupper() and len(raw) > 2)


@lru_cache(maxsize=2048)
def tokens(text: str) -> dict[str, float]:
    """Weighted tokens: identifiers (dotted, snake_case, camelCase, versions) 3, words 1, common coding words 0.3."""
    weights: dict[str, float] = {}
    for raw in _WORD.findall(text or ""):
        for key, weight in _word_tokens(raw):
            if weight > weights.get(key, 0.0):
                weights[key] = weight
    return weights


@lru_cache(maxsize=65536)
def _word_tokens(raw: str) -> tuple[tuple[str, float], ...]:
    """One word's weighted tokens; cached, as a write compares its lesson with 25 notes that share most words."""
    out = []
    parts = [raw]
    if _is_identifier(raw) and len(raw) > 2:
        parts += [p for p in _PARTS.split(raw) if len(p) > 2]  # `yaml.safe_load` also matches `yaml`
    for i, part in enumerate(parts):
        word = part.lower()
        if word in _STOP or (len(word) < 2 and not re.match(r"[\u3400-\u9fff\uac00-\ud7a3]", word)):
            continue
        if i == 0 and _is_identifier(part):
            weight = 3.0
        elif word in _COMMON or _stem(word) in _COMMON:
            weight = 0.3
        else:
            weight = 1.0 if i == 0 else 1.5
        key = word if i == 0 and _is_identifier(part) else _stem(word)
        out.append((key, weight))
    return tuple(out)


def note_text(note: dict) -> str:
    """The text two notes are compared on."""
    parts = [note.get("title"), note.get("summary"), note.get("trigger"), note.get("change")]
    parts += list(note.get("error_signatures") or [])
    kept: list[str] = []
    for part in (str(p).strip() for p in parts if p):
        if part and not any(part in k for k in kept):  # a free-text lesson says its sentence in several fields
            kept.append(part)
    return "\n".join(kept)


def lexical_similarity(a: dict, b: dict) -> float:
    """Weighted Jaccard of the two notes' tokens, or half of how much of the shorter the longer says (a one-line
    lesson told again as a paragraph), nudged by shared error signatures and files."""
    ta, tb = tokens(note_text(a)), tokens(note_text(b))
    if not ta or not tb:
        return 0.0
    keys = set(ta) | set(tb)
    num = sum(min(ta.get(k, 0.0), tb.get(k, 0.0)) for k in keys)
    den = sum(max(ta.get(k, 0.0), tb.get(k, 0.0)) for k in keys)
    score = num / den if den else 0.0
    score = max(score, CONTAINED_WEIGHT * num / min(sum(ta.values()), sum(tb.values())))
    shared = same_error(a, b)
    if shared is not None:
        score += 0.15 if shared else -0.1
    fa = {str(f).rsplit("/", 1)[-1] for f in a.get("files") or []}
    fb = {str(f).rsplit("/", 1)[-1] for f in b.get("files") or []}
    if fa and fb and fa & fb:
        score += 0.05
    return max(0.0, min(1.0, score))


def _signature_key(signature: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<\w+>|['\"`]", "", str(signature))).strip().lower()


def same_error(a: dict, b: dict) -> bool | None:
    """Whether the two lessons report one error (None when either gives no signature). One error quoted more or
    less fully is one error: "exec format error" and "exec /usr/bin/api: exec format error", "DBConnection.
    OwnershipError" and "** (DBConnection.OwnershipError) cannot find ownership process"."""
    sa = {_signature_key(s) for s in a.get("error_signatures") or [] if str(s).strip()}
    sb = {_signature_key(s) for s in b.get("error_signatures") or [] if str(s).strip()}
    if not sa or not sb:
        return None
    # containment only: two errors that share boilerplate ("... JavaScript heap out of memory") but differ in
    # a word are two errors, however many words they share
    return any(x == y or (min(len(x), len(y)) >= 12 and (x in y or y in x)) for x in sa for y in sb)


def vector_similarities(a_texts: Sequence[str], b_texts: Sequence[str]) -> list[float] | None:
    """Cosine of each (a, b) text pair, or None when no embedding model is available."""
    try:
        from .embeddings import embed
    except ImportError:
        return None
    try:
        vectors = embed(list(a_texts) + list(b_texts))
    except Exception:  # EmbeddingUnavailable, or a model that failed: lexical only
        return None
    n = len(a_texts)
    return [float((vectors[i] * vectors[n + i]).sum()) for i in range(n)]


def fused(lexical: float, cosine: float | None) -> float:
    """One score from both signals; cosine of unrelated MiniLM sentences sits near 0.2, so it is rescaled."""
    if cosine is None:
        return lexical
    rescaled = max(0.0, (cosine - 0.3) / 0.6)
    return (1 - VECTOR_WEIGHT) * lexical + VECTOR_WEIGHT * min(1.0, rescaled)


# --- what tells two lessons apart: the facts they name -------------------------------------

# a fact is what a fix or a trigger is *about*: a package, a variable, a flag, a file, a value, a version, a
# make target, an error code. Two lessons that each name a fact the other never mentions are two lessons.
_QUOTED = LazyRegex(r"`([^`\n]{1,80})`|'([^'\n]{1,60})'|\"([^\"\n]{1,60})\"")
# strong facts: a path or file, a version, a dotted or snake_case name, an ENV_VAR, an error code, a long flag
_STRONG_FACT = LazyRegex(
    r"(?<![\w\-])(?:--[A-Za-z][\w\-]*(?:=[\w.\-/:]+)?"                     # --timeout, --max-old-space-size=4096
    r"|[\w~@$][\w$\-]*(?:[./:@~][\w$*\-]+)+/?"                            # paths, dotted names, scoped packages
    r"|\d+(?:\.\d+)+[A-Za-z]*|v\d+(?:\.\d+)*"                              # 6.0.1, v1.4.2
    r"|[A-Za-z]{1,5}\d{2,}\b"                                              # E501, TS2532, GH001
    r"|[A-Za-z0-9]+_[A-Za-z0-9_]+"                                         # snake_case, ENV_VARS, 0012_refunds
    r"|[A-Z][A-Z0-9]{2,}(?=\s*=)|\d{2,}[A-Za-z]{0,3})(?![\w])")            # NAME=..., 4096, 512Mi, 300s
# weak facts: camelCase names, hyphenated names, short flags, quoted words, what a fix verb acts on
_WEAK_FACT = LazyRegex(r"(?<![\w\-])(?:[A-Za-z]+[a-z][A-Z]\w*|[a-z][a-z0-9]*(?:-[a-z0-9]+)+|-[A-Za-z])(?![\w\-])")
_FIX_OBJECT = LazyRegex(
    r"(?i)\b(?:add(?:ed|ing|s)?|install(?:ed|ing|s)?|pin(?:ned|s)?|bump(?:ed|s)?|upgrad(?:e|ed|es|ing)|"
    r"downgrad(?:e|ed|es|ing)|uninstall(?:ed)?|import(?:s|ed)?|named|requires?|enabl(?:e|ed|es)|"
    r"disabl(?:e|ed|es)|exclud(?:e|ed|es)|declar(?:e|ed|es)|set(?:ting|s)?)\s+(?:the\s+|a\s+|an\s+)?"
    r"([A-Za-z][\w\-]{2,})(\s+(?:to|in|into|from|for|as)\b|\s*[:=])?")
_PLAIN_ACRONYM = LazyRegex(r"^[A-Z]{2,6}$")  # CI, API, PDF, SSL: topic words, not facts
_FILE_WORD = LazyRegex(r"\b[A-Z][a-z]+file\b")  # Dockerfile, Makefile, Gemfile, Procfile, Jenkinsfile, Pipfile
_PLATFORM = LazyRegex(
    r"(?i)\b(?:windows|macos|os\s?x|linux|wsl2?|alpine|debian|ubuntu|centos|rhel|fedora|musl|glibc|android|ios|"
    r"safari|firefox|chromium|webkit|edge|graalvm|pypy|jruby|bun|deno)\b")
STRONG, WEAK = 1.0, 0.5
QUOTED = WEAK


@lru_cache(maxsize=2048)
def _facts(text: str) -> dict[str, float]:
    """The facts ``text`` names, lowercased, with their weight (strong 1, weak 0.5)."""
    facts: dict[str, float] = {}
    if not text:
        return facts

    def add(raw: str, weight: float) -> None:
        raw = raw.rstrip(".,:;)/'\"`")
        low = raw.lower()
        if len(low) < 2 or _PLAIN_ACRONYM.match(raw) or low in _STOP or low in _COMMON or _stem(low) in _COMMON:
            return
        facts[low] = max(facts.get(low, 0.0), weight)
        if low not in _FACT_PARTS and len(_FACT_PARTS) < 100_000:
            _FACT_PARTS[low] = _parts_of(raw)
        if low not in _CAMEL_PARTS and len(_CAMEL_PARTS) < 100_000 and _CAMEL.search(raw):
            _CAMEL_PARTS[low] = tuple(w.lower() for w in _CAMEL_WORD.findall(raw) if len(w) > 1)
        if low not in _AS_IS and len(_AS_IS) < 100_000 and _NAME_AS_IS.search(raw):
            _AS_IS.add(low)  # written once as an ENV_VAR or a file: said in words only as its words in a row

    for match in _QUOTED.finditer(text):  # a plain word in quotes or backticks is a name: `requests`, 'yaml'
        inner = next(g for g in match.groups() if g is not None)
        # a quoted name given a value is a setting: `"overrides": {...}`, `'timeout' = 30`
        weight = STRONG if re.match(r"\s*[:=]", text[match.end():match.end() + 3]) else QUOTED
        for word in _WORD.findall(inner):
            if len(word) > 2:
                add(word, weight)
    for raw in _PLATFORM.findall(text):  # where it fails is what the lesson is about: macOS is not Windows
        add(raw, STRONG)
    for raw in _FILE_WORD.findall(text):  # a file is a fact, also without an extension
        add(raw, STRONG)
    for match in _FIX_OBJECT.finditer(text):  # "add requests to", "pin grpcio in": the thing the fix is about
        add(match.group(1), STRONG if match.group(2) or re.search(r"[\d_\-.]", match.group(1)) else WEAK)
    for raw in _WEAK_FACT.findall(text):
        if "-" in raw and raw.islower():
            add(raw, WEAK / 1.5)  # hyphenated words are often just English
        else:  # lowerCamelCase is code (useCallback, moduleNameMapper); UpperCamel is often a product name
            add(raw, STRONG if raw[0].islower() and len(raw) > 1 and raw[1:] != raw[1:].lower() else WEAK)
    for raw in _STRONG_FACT.findall(text):
        add(raw, STRONG)
    return facts


def _fact_set(text: str) -> set[str]:
    return set(_facts(text))


_VERSION_FACT = LazyRegex(r"v?(\d+(?:\.\d+)*)(?:\.[x*])?")


_AMOUNT = LazyRegex(r"(\d{2,})(?:[a-z]{1,3})?")
_PINNED = LazyRegex(r"(@?[a-z][\w.\-/]*?)(?:@|==|>=|~=)v?(\d+(?:\.\d+)*)")
_FACT_PARTS: dict[str, tuple[str, ...]] = {}  # a fact's words, split where its original spelling joins them
_CAMEL_PARTS: dict[str, tuple[str, ...]] = {}  # a camelCase fact's words: hashFiles (hash, files)
_CAMEL = LazyRegex(r"^@?(?:[a-z]+[A-Z]|[A-Z][a-z]+[A-Z]|[A-Z]{2,}[a-z])[A-Za-z0-9]*$")
_CAMEL_WORD = LazyRegex(r"[A-Z]{2,}(?=[A-Z][a-z]|\b|$)|[A-Z]?[a-z]+|\d+")
_AS_IS: set[str] = set()  # facts spelled as ENV_VARS or files: said in words only as those words in a row
_JOINS = LazyRegex(r"[._/\-:@$*=,\s()\[\]{}'\"`]+")


# names that are only ever written as they are: ENV_VARS (RELEASE_TOKEN is not "the release token"), files
_NAME_AS_IS = LazyRegex(r"[A-Z]{2,}_|_[A-Z]{2,}|^[A-Z0-9_]+$|\.(?:[a-z]{1,4}|[a-z]+rc)$")


def _parts_of(raw: str) -> tuple[str, ...]:
    """The words a name is made of, where it joins them with `_ . - /`: `autocommit_block` and "an autocommit
    block" name one thing. Digits stay whole (a version or a code must match as it is)."""
    if _NAME_AS_IS.search(raw):
        return ()
    parts = tuple(_stem(p.lower()) for p in _JOINS.split(raw)
                  if p and (p.isdigit() or len(p) > 2) and p.lower() not in _STOP)
    return parts if len(parts) > 1 or (parts and raw.startswith("--")) else ()  # `--push`: "pushes"


def _mentions(fact: str, text_lower: str, words: set[str]) -> bool:
    if fact in words:
        return True
    version = _VERSION_FACT.fullmatch(fact)
    if version:  # v3, 3.x and 3 are one version
        return version.group(1) in text_lower and re.search(
            r"(?<![\w.])v?" + re.escape(version.group(1)) + r"(?:\.[x*])?(?![\w])", text_lower) is not None
    if _bounded_in(fact, text_lower):
        return True
    amount = _AMOUNT.fullmatch(fact)  # 120 and 120s, 512 and 512Mi: one number, with or without its unit
    if amount:
        return re.search(r"(?<![\w.])" + re.escape(amount.group(1)) + r"(?:[a-z]{1,3})?(?![\w.])", text_lower) is not None
    pinned = _PINNED.fullmatch(fact)  # `bcrypt@5.1.1`, `grpcio==1.60.1`: the name and the version, anywhere
    if pinned:
        return _mentions(pinned.group(1), text_lower, words) and _mentions(pinned.group(2), text_lower, words)
    parts = _FACT_PARTS.get(fact)  # spelled out in words, in order: `loop_scope` and "the loop scope"
    return bool(parts) and all(p in text_lower for p in parts) and re.search(
        r"(?<![\w])" + r"\w*[\s_.\-/]+".join(re.escape(p) for p in parts) + r"\w*", text_lower) is not None


def _bounded_in(fact: str, text: str) -> bool:
    r"""``fact`` occurs in ``text`` with no word character on either side: the regex
    ``(?<!\w)fact(?!\w)`` without compiling one pattern per fact (a write checks dozens)."""
    start = text.find(fact)
    while start != -1:
        end = start + len(fact)
        if not (start and _is_word_char(text[start - 1])) and not (end < len(text) and _is_word_char(text[end])):
            return True
        start = text.find(fact, start + 1)
    return False


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"  # what a str pattern's \w matches


def _full_text(note: dict) -> str:
    parts = [note.get(f) for f in ("title", "summary", "trigger", "change", "conditions")]
    parts += list(note.get("error_signatures") or []) + list(note.get("files") or [])
    return "\n".join(str(p) for p in parts if p)


# a title's second half is a fix when it says what to do, first or after a semicolon ("pin Y", "do not add Z",
# "Incorrect string value; convert to utf8mb4")
_FIX_OPENING = LazyRegex(
    r"(?i)(?:^|[;\u2014]\s*|\s-\s|,\s*so\s+)\W*(?:(?:so|then|instead|just|always|first|now|fix(?:ed)?(?:\s+it)?(?:\s+by)?)\s+)?(?:do\s*n[o']t|don't|never|"
    r"add|set|pin|unpin|use|run|install|uninstall|raise|lower|increase|decrease|move|remove|make|keep|leave|switch|"
    r"upgrade|downgrade|bump|update|revert|declare|enable|disable|exclude|include|ignore|skip|mark|replace|rename|"
    r"give|point|pass|put|wrap|mock|stub|patch|export|unset|delete|drop|call|close|open|start|stop|restart|wait|"
    r"bind|build|rebuild|regenerate|clear|purge|reset|rerun|retry|limit|cap|allow|deny|grant|load|read|write|"
    r"register|configure|create|split|merge|sort|quote|escape|encode|decode|convert|cast|check|guard|catch|"
    r"handle|await|lock|relock|sync|fetch|pull|rebase|commit|push|squash|cherry-pick|stash|prefix|suffix|"
    r"append|prepend|inline|vendor|copy|mount|expose|map|alias|route|proxy|trust|sign|tag|stay|choose|prefer|"
    r"go|delay|defer|flush|free|kill|turn|run|type|annotate|narrow|import|require|define|fill|seed|migrate|"
    r"squash|reorder|order|isolate|serialize|reuse|share|cache|invalidate|bust|shorten|lengthen|extend|"
    r"set\s+up|clean|pre-?build|preload|warm|tune|match|align|target|compile|transpile|transform|strip)\b")


def _title_halves(note: dict) -> tuple[str, str]:
    """(problem, fix) halves of a title like "pytest fails with X: pin Y". The second half is the fix only
    when it reads as one (it opens with what to do); otherwise, and without a colon, all of it is the problem
    (the change says the fix): "npm fails with ERESOLVE: react-x wants react 18" names no fix."""
    title = str(note.get("title") or "")
    head, sep, tail = title.partition(": ")
    while sep and tail and ": " in tail and not _FIX_OPENING.search(tail.split(": ")[0]):
        more, sep, tail = tail.partition(": ")  # "X fails with ModuleNotFoundError: No module named 'y': add z"
        head = f"{head}: {more}"
    return (head, tail) if sep and tail and (_FIX_OPENING.search(tail) or _KEPT_OFF.search(tail)) else (title, "")


def _problem_text(note: dict) -> str:
    """Where a lesson states its problem: the title's first half, the trigger, the error signatures."""
    parts = [_title_halves(note)[0], note.get("trigger"), *(note.get("error_signatures") or [])]
    return "\n".join(str(p) for p in parts if p)


def _remedy_text(note: dict) -> str:
    """Where a lesson states its fix: the change and the title's second half."""
    return "\n".join(str(p) for p in (note.get("change"), _title_halves(note)[1]) if p)


@lru_cache(maxsize=2048)
def _words_of(text_lower: str) -> frozenset[str]:
    words = set()
    for raw in _WORD.findall(text_lower):
        words.add(raw)
        words.update(p for p in re.split(r"[._/\-]", raw) if p)
    return frozenset(words)


def distinct_facts(a: dict, b: dict, role: str = "fix",
                   loose: bool = False) -> tuple[dict[str, float], dict[str, float]]:
    """(facts only ``a`` names, facts only ``b`` names) in its fix (``role="fix"``) or its problem ("problem"),
    weighted: a name, value, file or code that the other lesson never mentions anywhere. ``loose``: a name
    whose words the other lesson says anywhere, in any order, is mentioned (see :func:`_said_in_words`)."""
    part = _remedy_text if role == "fix" else _problem_text
    ta, tb = _full_text(a).lower(), _full_text(b).lower()
    wa, wb = _words_of(ta), _words_of(tb)
    only_a = {f: w for f, w in _facts(part(a)).items()
              if not _mentions(f, tb, wb) and not (loose and _said_in_words(f, tb, wb))}
    only_b = {f: w for f, w in _facts(part(b)).items()
              if not _mentions(f, ta, wa) and not (loose and _said_in_words(f, ta, wa))}
    return only_a, only_b


@lru_cache(maxsize=8192)
def _said_in_words(fact: str, text_lower: str, words: frozenset[str]) -> bool:
    """Every word of the name ``fact`` (two or more, split where it joins them) is said in the other lesson, in
    any order and form: `maven-surefire-plugin` in "pins the Surefire plugin ... Maven". An ENV_VAR or a file is
    said only as its words in a row (`DATABASE_URL`: "the database URL"; `RELEASE_TOKEN` is not "the release job
    ... a token"). Digits must be said as they are (a version or a code is no paraphrase). One name spelled with
    or without its hyphens (pkg-config, pkgconfig) and a qualified name said by its last two parts
    (Ecto.Adapters.SQL.Sandbox.allow, Sandbox.allow) are said too, and so is a one-word name said in another form
    (`compile`: "compiling")."""
    squashed = re.sub(r"[\-_]", "", fact)  # pkg-config and pkgconfig, no_cache and nocache
    if len(squashed) > 4 and squashed in {re.sub(r"[\-_]", "", w) for w in words}:
        return True
    dotted = fact.split(".")  # a qualified name and its tail: Ecto.Adapters.SQL.Sandbox.allow and Sandbox.allow
    if len(dotted) > 2 and all(dotted) and _bounded_in(".".join(dotted[-2:]), text_lower):
        return True
    parts = [p for p in _JOINS.split(fact) if p and (len(p) > 2 or re.search(r"\d", p)) and p not in _STOP]
    if re.search(r"\w[._]\w", fact) and re.search(r"\w[._]" + re.escape(fact) + r"(?!\w)", text_lower):
        return True  # the tail of the other's longer name: unicode_ci in utf8mb4_unicode_ci
    camel = _CAMEL_PARTS.get(fact)
    if camel:  # hashFiles: "the hash of the lock files"; LocalServerPort: "the local server port annotation"
        parts = list(camel)
    if len(parts) > 2:  # `--use-system-libraries`: "the system libraries" (words every lesson uses say nothing)
        parts = [p for p in parts if p not in _COMMON] or parts
    if len(parts) == 1 and parts[0].isalpha() and len(parts[0]) > 3 and fact == parts[0]:
        stem = _stem(parts[0]).rstrip("e").replace("iz", "is")  # another form: compile, compiling; -ize, -ise
        return any(w.replace("iz", "is").startswith(stem) and len(w) - len(stem) <= 4
                   # or the tail of a longer word: brew, Homebrew
                   or len(stem) >= 4 and len(w) > len(stem) + 2 and w.endswith(parts[0]) for w in words)
    if len(parts) < 2:
        return False
    if fact in _AS_IS:
        return re.search(r"(?<![\w])" + r"\w*[\s_.\-/']+".join(re.escape(_stem(p)) for p in parts) + r"\w*",
                         text_lower) is not None
    stems = {_stem(w) for w in words}
    for part in parts:
        if part in words:
            continue
        if any(ch.isdigit() for ch in part):
            return False
        stem = _stem(part)
        if not any(w.startswith(stem) or (len(w) >= 5 and stem.startswith(w)) for w in stems):
            return False
    return True


# what a fix does to a thing; two fixes doing different things to one thing are two fixes
_ACTION_CLASSES = {
    "add": "add|added|adding|adds|pin|pinned|pins|install|installed|installs|declare|declared|declares|"
           "enable|enabled|enables|include|included",
    "set": "set|sets|export|exports|exported",
    "remove": "remove|removed|removes|removing|drop|dropped|drops|uninstall|uninstalled|delete|deleted|deletes|"
              "disable|disabled|disables|unpin|unpinned|unset|unsets|revert|reverted|reverts",
    "upgrade": "upgrade|upgraded|upgrades|bump|bumped|bumps|update|updated|updates",
    "downgrade": "downgrade|downgraded|downgrades",
    "stub": "mock|mocked|mocks|stub|stubbed|stubs|patch|patched|patches|fake|faked",
    "exclude": "exclude|excluded|excludes|ignore|ignored|ignores|skip|skipped|skips",
    "move": "move|moved|moves|rename|renamed|renames|split|splits|inline|inlined",
}
_ACTION = LazyRegex(r"(?i)\b(" + "|".join(_ACTION_CLASSES.values()) + r")\s+(?:the\s+|a\s+|an\s+)?([\w.\-/@]{3,})")
# "leave X unset", "keep X unpinned", "X must stay unset", "took X out": a fix that takes a thing away
_KEPT_OFF = LazyRegex(
    r"(?i)\b(?:leave|leaves|left|keep|keeps|kept)\s+(?:the\s+)?([\w.\-/@]{3,})\s+(?:unset|unpinned|disabled|off|out)\b"
    r"|\b([\w.\-/@]{3,})\s+(?:must|should|has\s+to|needs\s+to)\s+(?:stay|remain|be)\s+(?:unset|unpinned|disabled|off|empty)\b"
    r"|\b(?:take|takes|took|taking|leave|leaves|left)\s+(?:the\s+)?([\w.\-/@]{3,})\s+out\b")
_NEGATED = LazyRegex(r"(?i)(?:n't|\bnot|\bnever|\bavoid|\bno\s+longer)\s+(?:\w+ly\s+)?$")
_ACTION_OF: dict[str, str] = {}
_OPPOSITE_ACTIONS = (("add", "remove"), ("set", "remove"), ("upgrade", "downgrade"))
# setting a thing agrees with adding, raising or lowering it ("set lib to ES2021" / "bumped lib to ES2021")
_AGREEING_ACTIONS = {frozenset(("set", "add")), frozenset(("set", "upgrade")), frozenset(("set", "downgrade")),
                     frozenset(("move", "upgrade")), frozenset(("move", "downgrade"))}  # "moved X from 5.0 to 5.1"


def _actions(note: dict) -> dict[str, set[str]]:
    """What the fix does to which thing: {name: {action class, ...}} (lowercased names)."""
    if not _ACTION_OF:
        _ACTION_OF.update({verb: cls for cls, verbs in _ACTION_CLASSES.items() for verb in verbs.split("|")})
    text = _remedy_text(note)
    # "don't pin X" applies nothing to X
    found = [(_ACTION_OF[m.group(1).lower()], m.group(2)) for m in _ACTION.finditer(text)
             if not _NEGATED.search(text, max(0, m.start() - 12), m.start())]
    found += [("remove", next(name for name in names if name)) for names in _KEPT_OFF.findall(text)]
    out: dict[str, set[str]] = {}
    for action, name in found:
        name = name.lower().split("==")[0].rstrip(".,;:")
        if name not in _STOP and name not in _COMMON:
            out.setdefault(name, set()).add(action)
    return out


def opposite_actions(a: dict, b: dict) -> list[str]:
    """The things one fix adds (or upgrades) and the other removes (or downgrades), neither doing both."""
    xa, xb = _actions(a), _actions(b)
    return sorted({name for name in set(xa) & set(xb) for x, y in _OPPOSITE_ACTIONS
                   if (x in xa[name] and y in xb[name] and y not in xa[name] and x not in xb[name])
                   or (y in xa[name] and x in xb[name] and x not in xa[name] and y not in xb[name])})


def _told_within(short: dict, long: dict) -> float:
    """The share of the words of ``short``'s fix that ``long`` says too (1.0: all of it)."""
    words = _content_words(_remedy_text(short))
    return len(words & _content_words(_full_text(long))) / len(words) if words else 0.0


def _starts_where_fixed(short: dict, long: dict) -> bool:
    """Whether ``long``'s problem starts where ``short``'s fix left off: it names a flag, path or value of that fix
    in its failing command (as its title quotes it, or the run a step comes before, or a run it shows whole) and
    nowhere in its own fix.
    ``ctest --test-dir build`` failing with "No tests were found" came after ``--test-dir build`` fixed another
    problem; ``flutter run … --flavor dev`` failing on its Firebase config, after ``--flavor dev`` did: two lessons."""
    # (a flag, a path, a value: not a program, ``ctest``, nor a word, "flavor" of ``--flavor dev``)
    facts = [f for f, weight in _facts(_remedy_text(short)).items() if weight >= 1 and not f.isalpha()]
    if not facts:
        return False
    lines = f"{_remedy_text(long)}\n{long.get('summary') or ''}".splitlines()
    # (the change as lorebook writes a step: "Run `cp …` before `flutter run … --flavor dev`.")
    step = r"^(Run `[^`]+`) before `([^`]*)`\.?$"
    told = "\n".join(re.sub(step, r"\1", line) for line in lines if not line.startswith("$ ")).lower()
    # (its failing command as its title or trigger quotes it: "`ctest --test-dir build …` fails with …")
    failing = re.findall(r"`([^`]+)` (?:fails|failed)\b|^Running `([^`]+)` in this project\b",
                         f"{long.get('title') or ''}\n{long.get('trigger') or ''}", re.M)
    failing = [command for pair in failing for command in pair if command]
    started = "\n".join([*failing, *(line for line in lines if line.startswith("$ ")),
                         *(m.group(2) for line in lines if (m := re.match(step, line)))]).lower()
    told_words = _words_of(told)
    return any(f in started and not _mentions(f, told, told_words) for f in facts)  # (named as written)


def swapped_subjects(a: dict, b: dict) -> tuple[set[str], set[str]]:
    """Words in which two alike titles differ, each one its lesson uses again (in its trigger, change or summary)
    and the other lesson never: one story told of two subjects ("... from the celery worker" / "... from the rq
    worker"). A reworded verb ("moved" / "jumped") is said once and is not a subject."""
    ta = _WORD.findall(str(a.get("title") or "").lower())
    tb = _WORD.findall(str(b.get("title") or "").lower())
    if not ta or not tb:
        return set(), set()
    matcher = difflib.SequenceMatcher(a=ta, b=tb, autojunk=False)
    if matcher.ratio() < SAME_STORY:
        return set(), set()
    full_a, full_b = _full_text(a).lower(), _full_text(b).lower()
    words_a, words_b = _words_of(full_a), _words_of(full_b)

    def subjects(titled: list[str], note: dict, other_text: str, other_words: frozenset[str]) -> set[str]:
        body = "\n".join(str(note.get(f) or "") for f in ("trigger", "change", "summary")).lower()
        body_words = _words_of(body)
        return {w for w in titled if w not in _STOP and w not in _COMMON and _stem(w) not in _COMMON
                and not _mentions(w, other_text, other_words) and _mentions(w, body, body_words)}

    only_a: set[str] = set()
    only_b: set[str] = set()
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "replace":
            only_a |= subjects(ta[i1:i2], a, full_b, words_b)
            only_b |= subjects(tb[j1:j2], b, full_a, words_a)
    return (only_a, only_b) if only_a and only_b else (set(), set())


def different_fix(a: dict, b: dict, loose: bool = False) -> list[str]:
    """Why ``a`` and ``b`` are two lessons, not one (empty: nothing tells them apart).

    Each names a fact the other never mentions — another package, variable, flag,
    file, value, version, make target or error code — so merging would drop a fix.
    """
    xa, xb = _actions(a), _actions(b)
    otherwise = sorted(name for name in set(xa) & set(xb) if not xa[name] & xb[name]
                       and not any(frozenset((x, y)) in _AGREEING_ACTIONS for x in xa[name] for y in xb[name]))
    if otherwise:
        return [f"the fixes do different things to {', '.join(otherwise[:3])}"]
    subject_a, subject_b = swapped_subjects(a, b)
    if subject_a:
        return [f"one is about {', '.join(sorted(subject_a)[:3])}, the other about {', '.join(sorted(subject_b)[:3])}"]
    # a note that states no fix (a person's one line: "stuck helm release on api") loses no fix in a merge: only
    # its problem can tell it apart
    roles = ("fix", "problem") if _remedy_text(a).strip() and _remedy_text(b).strip() else ("problem",)
    for role in roles:
        only_a, only_b = distinct_facts(a, b, role, loose and role == "fix")
        if sum(only_a.values()) >= DISTINCT_WEIGHT and sum(only_b.values()) >= DISTINCT_WEIGHT:
            return [f"the {role} of one names {', '.join(sorted(only_a)[:3])}",
                    f"the other's names {', '.join(sorted(only_b)[:3])}"]
        if role == "fix":  # a fix that names several things the other never mentions would be lost in a merge,
            # unless the other fix is all said in it: then it is the same fix told in more detail
            for only, this, other in ((only_a, a, b), (only_b, b, a)):
                if sum(only.values()) >= ONE_SIDED_WEIGHT and _told_within(other, this) < TOLD_WITHIN:
                    return [f"only one fix names {', '.join(sorted(only)[:3])}"]
    if _starts_where_fixed(a, b) or _starts_where_fixed(b, a):
        return ["one lesson's problem starts where the other's fix left off"]
    return []


# --- contradictions: the same problem, an incompatible fix ------------------------------------

def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?;])\s+|\n+|:\s+(?=[A-Z])", text or "") if s.strip()]


def _fix_text(note: dict) -> str:
    return "\n".join(str(note.get(f) or "") for f in ("title", "summary", "change"))


def _rejected_facts(note: dict) -> tuple[set[str], set[str]]:
    """(facts, words) inside the sentences of ``note`` that reject a remedy ("do not add X", "X did not help")."""
    return _rejected_in(_fix_text(note))


@lru_cache(maxsize=2048)
def _rejected_in(text: str) -> tuple[frozenset[str], frozenset[str]]:
    facts: set[str] = set()
    words: set[str] = set()
    for sentence in _sentences(text):
        for match in _REJECTION.finditer(sentence):
            # the remedy rejected sits in the clause around the rejection phrase
            start = max(0, sentence.rfind(",", 0, match.start()) + 1)
            if not sentence[start:match.start()].strip() and _WHERE_NOT.match(match.group(0)):
                # "built by CI, never in the image": it rejects the clause before
                start = max(0, sentence.rfind(",", 0, start - 1) + 1)
            # ... up to the end of the clause it opens: "don't pin X, upgrade Y" rejects X, not Y
            end = _CLAUSE_END.search(sentence, match.end())
            if _NO_THING.match(match.group(0)):  # "(no --allow-net host list)" rejects what follows alone
                start = match.start()
            clause = sentence[start:end.start() if end and (_INSTRUCTION.match(match.group(0))
                                                             or _NO_THING.match(match.group(0))) else len(sentence)]
            facts |= _fact_set(clause)
            words |= _content_words(clause)
    return frozenset(facts), frozenset(words)


def _remedy(note: dict) -> tuple[set[str], set[str]]:
    """(facts, content words) of what ``note`` changes: its change and the fix half of its title."""
    title = str(note.get("title") or "")
    fix_half = title.split(": ", 1)[1] if ": " in title else ""
    text = " ".join([str(note.get("change") or ""), fix_half])
    return _fact_set(text), _content_words(text)


@lru_cache(maxsize=4096)
def _content_words(text: str) -> frozenset[str]:
    """The stemmed words that carry meaning, a name's parts included (`assets.deploy`: assets, deploy)."""
    words = set()
    for raw in _WORD.findall(text):
        for w in {raw, *re.split(r"[._/\-]", raw)}:
            low = w.lower()
            if len(low) > 3 and low not in _STOP and low not in _COMMON:
                words.add(_stem(low))
    return frozenset(words)


def _rejects(x: dict, y: dict) -> bool:
    """``x`` rejects the remedy ``y`` applies: a rejection in ``x`` names ``y``'s fix, and ``y`` does not reject it too."""
    rejected_facts, rejected_words = _rejected_facts(x)
    if not rejected_facts and not rejected_words:
        return False
    facts, words = _remedy(y)
    own_facts, own_words = _rejected_facts(y)
    # what ``y`` takes away it does not apply: "don't pin markupsafe" agrees with "removed the markupsafe pin"
    removed = {name for name, done in _actions(y).items() if "remove" in done}
    removed |= {value.lower() for name, _, value in _ASSIGNMENT.findall(_remedy_text(y)) if name.lower() in removed}
    removed |= {_stem(part) for name in removed for part in re.split(r"[._/\-]", name) if len(part) > 3}
    # what ``y`` keeps clear of it does not apply: "must not run inside a transaction" agrees with "runs outside
    # the migration transaction"
    avoided = _avoided_in(_remedy_text(y))
    hit_facts = (rejected_facts | (rejected_words & facts)) & facts - own_facts - removed - avoided
    hit_words = (rejected_words & words) - own_words - removed - avoided
    return bool(hit_facts) or len(hit_words) >= 2


# what a fix keeps clear of: "outside the migration transaction", "without fakeredis" (a few words, up to the
# next preposition or clause)
_AVOIDING = LazyRegex(r"(?i)\b(?:outside(?:\s+of)?|without)\s+((?:(?!(?:in|inside|on|at|for|with|from|to|so|as|"
                      r"because|by)\b)[^\s,;:.]+\s*){1,4})")


@lru_cache(maxsize=2048)
def _avoided_in(text: str) -> frozenset[str]:
    """The facts and content words of what ``text`` keeps clear of ("outside the transaction", "without X")."""
    words: set[str] = set()
    for match in _AVOIDING.finditer(text):
        words |= _content_words(match.group(1)) | _fact_set(match.group(1))
    return frozenset(words)


def _value_conflict(a: str, b: str) -> bool:
    """Both set the same name to different values (``requests==2.31`` vs ``requests==2.28``, ``timeout=5`` vs 30)."""
    def plain(value: str) -> str:  # 120 and 120s, "1" and 1 are one value
        value = value.lower().strip("'\"").rstrip(".-")
        return re.sub(r"^(\d+(?:\.\d+)?)(?:s|sec|secs|seconds)$", r"\1", value)

    def values(text: str) -> tuple[dict[str, set], set[str]]:
        """{name: values} the text sets, and the names it only upgrades (two upgrades to two releases both move
        forward: no conflict between them)."""
        found: dict[str, set] = {}
        upgraded: set[str] = set()
        for name, _, value in _ASSIGNMENT.findall(text):
            found.setdefault(name.lower(), set()).add(plain(value))
        for name, value in _DIRECTIVE.findall(text):  # nginx's ``client_max_body_size 50m;``
            found.setdefault(name.lower(), set()).add(plain(value))
        for name, value in _KEY_LITERAL.findall(text):  # ``readonly: true``
            found.setdefault(name.lower(), set()).add(plain(value))
        for m in _SET_TO.finditer(text):  # "pin maven-surefire-plugin to 2.22.2"
            name, value = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            if re.match(r"v?\d", value):
                found.setdefault(name.lower(), set()).add(plain(value.lstrip("v")))
                if re.match(r"(?i)upgrad|bump|updat", m.group(0)):
                    upgraded.add(name.lower())
        return found, upgraded

    (va, up_a), (vb, up_b) = values(a), values(b)
    # "changed X = A to X = B" shares B with "X = B": they agree on where X ends up
    return any(not va[name] & vb[name] for name in set(va) & set(vb) if not (name in up_a and name in up_b))


_DIRECTIVE = LazyRegex(r"\b([a-z]+(?:_[a-z]+)+)\s+([\w.\-/]+);")
_ORDER_CUE = LazyRegex(r"(?i)\b(?:first|then|before)\b")


def _order_conflict(a: dict, b: dict) -> bool:
    """Both fixes put the same steps in order, each the other way round ("A first, then B" / "B first, then A")."""
    ta, tb = _remedy_text(a), _remedy_text(b)
    if not (_ORDER_CUE.search(ta) and _ORDER_CUE.search(tb)) or re.search(r"(?i)\bafter\b", ta + tb):
        return False

    def order(text: str) -> list[str]:  # the steps named in the sentences that put things in order
        steps = []
        for sentence in _sentences(text):
            if _ORDER_CUE.search(sentence):
                low = sentence.lower()
                found = [f for f in _fact_set(sentence) if ("/" in f or "." in f) and low.find(f) >= 0]
                steps += [f for f in sorted(found, key=lambda f: (low.find(f), -len(f), f)) if f not in steps]
        return steps

    oa, ob = order(ta), order(tb)
    shared = [f for f in oa if f in ob]
    return len(shared) >= 2 and [f for f in ob if f in shared] != shared


def _same_place(a: dict, b: dict) -> bool:
    """The two fixes change one place: a file they share, or no file named apart. Two values for one setting in
    two places (``--max-old-space-size`` in .gitlab-ci.yml and in the GitHub workflow) are two settings."""
    def places(note: dict) -> set[str]:
        named = [*(note.get("files") or []), *_FILE_NAMED.findall(str(note.get("change") or ""))]
        return {str(f).lower().removeprefix("./") for f in named}

    def one(x: str, y: str) -> bool:  # a path and its file name said alone are one place; two tasks.py are not
        return x == y or ("/" not in x and y.endswith("/" + x)) or ("/" not in y and x.endswith("/" + y))

    fa, fb = places(a), places(b)
    return not fa or not fb or any(one(x, y) for x in fa for y in fb)


_FILE_NAMED = LazyRegex(r"[\w\-/.]*\w\.(?:py|js|ts|tsx|jsx|rb|go|rs|ex|exs|java|kt|cs|php|ya?ml|toml|json|ini|cfg|conf|"
                        r"gradle|xml|sh|env|tf|lock|txt)\b|\b[A-Z]\w*file\b")


# a fix that takes a thing away, or keeps it as it is: "Removed the RWMutex from cache.go", "keep webdrivers",
# "journal_mode stays DELETE" (the words up to the end of the clause, or where it says from where)
_TAKES_AWAY = LazyRegex(
    r"(?i)\b(?:remov|drop|delet|uninstall|unset|unpin|disabl|revert|strip)\w*\s+((?:(?!(?:from|in|out|and|so|"
    r"because|since|with|to)\b)(?:[^\s,;:.]|\.(?=\w))+\s*){1,4})")
_KEEPS = LazyRegex(
    r"(?i)\b(?:keep|keeps|kept|leave|leaves|left)\s+((?:(?!(?:and|so|because|since|with|but|as|at|on|for)\b)"
    r"(?:[^\s,;:.]|\.(?=\w))+\s*){1,4})|\b([\w.\-]+(?:\s+[\w.\-]+)?)\s+(?:stays|remains|must\s+(?:stay|remain))\b")


# "replaced `psycopg2` with `psycopg2-binary`": the first is taken away; "--no-cache", "--no-frozen-lockfile": so is
# what the flag names
_REPLACED = LazyRegex(r"(?i)\b(?:replac|swap)\w*\s+((?:(?!with\b|by\b|for\b)[^\s,;:]+\s*){1,5})"
                      r"(?:with|by|for)\s+((?:(?!in\b|and\b|so\b|on\b)[^\s,;:]+\s*){1,5})")
# "raise rust-version instead of pinning clap", "2Gi rather than 512Mi": what follows is what the fix does without
_INSTEAD_OF = LazyRegex(r"(?i)\b(?:instead\s+of|rather\s+than)\s+((?:(?!(?:and|so|because|since|but)\b)"
                        r"(?:[^\s,;:.]|\.(?=\w))+\s*){1,4})")
_NO_FLAG = LazyRegex(r"--no-([\w-]{3,})|\(was\s+([^)]{3,80})\)")  # "(was `process.env.API_URL`)"
_RENAMED = LazyRegex(r"(?i)\brenam\w*\s+((?:(?!to\b)[^\s,;:]+\s*){1,3})to\s+((?:[^\s,;:]|[:.](?=\w))+)")
# "pin maven-surefire-plugin to 2.22.2", "maven-surefire-plugin version 2.22.2", "raise visibility_timeout to 43200"
_SET_TO = LazyRegex(r"(?i)\b(?:upgrad|downgrad|pin|bump|set|rais|lower|increas|decreas|updat|mov)\w*\s+(?:the\s+)?"
                    r"([\w.\-/@]{3,})\s+(?:to|at)\s+v?([\w.\-]+)|([\w.\-/@]{3,})\s+version\s+v?(\d[\w.\-]*)")
_KEY_LITERAL = LazyRegex(r"\b([A-Za-z_]\w*):\s*(true|false|yes|no|on|off)\b")
_PUTS = LazyRegex(
    r"(?i)\b(?:add(?:s|ed|ing)?|install(?:s|ed|ing)?|pin(?:s|ned|ning)?|sets?|enabl(?:e|es|ed|ing)|us(?:e|es|ed|ing)|"
    r"includ(?:e|es|ed|ing)|declar(?:e|es|ed|ing)|export(?:s|ed|ing)?|configur(?:e|es|ed|ing)|guard(?:s|ed|ing)?|"
    r"creat(?:e|es|ed|ing))"
    r"\s+((?:(?!from\b|in\b|to\b|"
    r"into\b|and\b|so\b|because\b|since\b|on\b|for\b)(?:[^\s,;:.]|\.(?=\w))+\s*){1,4})")


def _things(text: str) -> set[str]:
    """The facts and plain words of a clause, whole (``psycopg2-binary`` does not name ``psycopg2``), a flag also
    without its dashes."""
    facts = _fact_set(text)
    words = {_stem(w.lower()) for w in _WORD.findall(text) if not re.search(r"[._/\-]", w)
             and len(w) > 3 and w.lower() not in _STOP and w.lower() not in _COMMON}
    return {w for w in facts | words | {f.lstrip("-") for f in facts if f.startswith("-")} if len(w) > 2}


def _undoes(x: dict, y: dict) -> bool:
    """``x``'s fix takes away what ``y``'s fix puts in (or keeps what ``y`` takes away): "Removed the RWMutex" /
    "Added mu sync.RWMutex"; "keep webdrivers" / "Removed gem webdrivers". What both take away is no conflict."""
    x_text, y_text = _remedy_text(x), _remedy_text(y)

    def of(pattern, text: str, group: int = 0) -> set[str]:
        # "don't pin X" puts nothing in, "never remove Y" takes nothing away
        found = set().union(*(_things(m.group(group) if group else next(g for g in m.groups() if g))
                              for m in pattern.finditer(text)
                              if not _NEGATED.search(text, max(0, m.start() - 12), m.start())))
        return found | {part for name in found for part in re.split(r"[./]", name) if len(part) > 3}

    def away(text: str) -> set[str]:  # "replaced A with B" takes away what A says and B does not
        return of(_TAKES_AWAY, text) | (of(_REPLACED, text, 1) - of(_REPLACED, text, 2)) | of(_NO_FLAG, text) \
            | of(_INSTEAD_OF, text) | (of(_RENAMED, text, 1) - of(_RENAMED, text, 2))

    def put(text: str) -> set[str]:  # "instead of pinning clap" puts nothing in
        return of(_PUTS, _INSTEAD_OF.sub(" ", text)) | of(_REPLACED, text, 2) | of(_RENAMED, text, 2)

    x_away, y_away, x_put, y_put = away(x_text), away(y_text), put(x_text), put(y_text)
    # what x keeps, where its sentence names no other file than y changes ("requirements.txt keeps psycopg2" says
    # nothing of requirements-dev.txt)
    y_places = {"files": [*(y.get("files") or []), *_FILE_NAMED.findall(y_text)]}
    x_kept = set().union(*(of(_KEEPS, sentence) | of(_AVOIDING, sentence) for sentence in _sentences(x_text)
                           if _same_place({"files": _FILE_NAMED.findall(sentence)}, y_places)))
    changed = {name.lower() for name, _, _ in _ASSIGNMENT.findall(y_text)} if _value_conflict(x_text, y_text) else set()
    changed |= {(m.group(1) or m.group(3)).lower() for m in _SET_TO.finditer(y_text)}  # "raise visibility_timeout to N"
    return bool((x_away - y_away - x_put) & (y_put - y_away)) or bool(of(_AVOIDING, x_text) & (y_put - y_away)) \
        or bool((x_kept - x_away - x_put) & (y_away | changed))


def same_problem(a: dict, b: dict) -> bool:
    """The two lessons are about one problem: the same error, or a trigger and title that name nothing apart."""
    pa = {"title": a.get("title"), "trigger": a.get("trigger"), "error_signatures": a.get("error_signatures")}
    pb = {"title": b.get("title"), "trigger": b.get("trigger"), "error_signatures": b.get("error_signatures")}
    shared = same_error(a, b)
    if shared is not None:
        return shared
    ta, tb = str(a.get("trigger") or "").lower(), str(b.get("trigger") or "").lower()
    only_a = {f for f in _fact_set(str(a.get("trigger") or "")) if not _mentions(f, _full_text(b).lower(), set())}
    only_b = {f for f in _fact_set(str(b.get("trigger") or "")) if not _mentions(f, _full_text(a).lower(), set())}
    if only_a and only_b and ta != tb:
        return False
    return lexical_similarity(pa, pb) >= SAME_PROBLEM_THRESHOLD


def contradicts(a: dict, b: dict) -> bool:
    """One problem, incompatible fixes: one rejects the other's remedy, sets the same name to another value, or
    moves it the opposite way. A sentence like "the lockfile did not change" rejects nothing the other applies."""
    return _conflict(a, b) == "contradicts"


def _conflict(a: dict, b: dict) -> str | None:
    """"contradicts"; "undoes" when one seems to take away what the other puts in though the fixes name nothing
    apart (doubt enough to keep them from merging, not proof of a contradiction); or None."""
    if not same_problem(a, b):
        return None
    if _rejects(a, b) or _rejects(b, a):
        return "contradicts"
    ca, cb = str(a.get("change") or ""), str(b.get("change") or "")
    if (_value_conflict(ca, cb) and _same_place(a, b)) or opposite_actions(a, b) or _order_conflict(a, b):
        return "contradicts"
    undone = _undoes(a, b) or _undoes(b, a)
    if undone and different_fix(a, b):
        return "contradicts"  # what one takes away the other puts in, and the fixes do differ (not one fix told twice)
    wa = {_stem(w.lower()) for w in _WORD.findall(ca)}
    wb = {_stem(w.lower()) for w in _WORD.findall(cb)}
    for x, y in _OPPOSITES:
        if (x in wa and y in wb and y not in wa) or (y in wa and x in wb and x not in wa):
            return "contradicts"
    return "undoes" if undone else None


def compare(a: dict, b: dict, cosine: float | None = None, recalled: bool = False) -> dict:
    """How note ``a`` relates to ``b``: {"relation": "duplicate"|"contradicts"|"related"|"unrelated", "score"}.

    A duplicate is the same problem with the same fix: similar enough, and no fact
    (package, variable, flag, file, value, version, error code) that only one of them names.
    """
    lexical = lexical_similarity(a, b)
    score = fused(lexical, cosine)
    threshold = MERGE_THRESHOLD_HYBRID if cosine is not None else MERGE_THRESHOLD_LEXICAL
    if recalled:
        threshold *= RECALLED_FACTOR
    result = {"score": score, "lexical": lexical, "cosine": cosine}
    if score < RELATED_THRESHOLD:
        return dict(result, relation="unrelated")
    conflict = _conflict(a, b)
    if conflict == "contradicts":
        return dict(result, relation="contradicts")
    if score >= threshold:
        apart = different_fix(a, b, loose=cosine is not None and cosine >= SAID_IN_WORDS_COSINE)
        if not apart and conflict == "undoes":
            apart = ["one fix may undo what the other does"]  # too much doubt for a merge
        if not apart:
            return dict(result, relation="duplicate")
        return dict(result, relation="related", different_fix=apart)
    return dict(result, relation="related")


def _vector_neighbour_ids(store, text: str, k: int) -> list[int]:
    try:
        from .vectors import semantic_search

        return [note_id for note_id, _score in semantic_search(store, text, k=k)]
    except Exception:  # no index yet, another model, no embedding model: lexical neighbours only
        return []


SERVER_TIMEOUT = 0.5  # a warm embedding server answers in tens of milliseconds; a busy one is not waited for
# below this cosine a note bm25 did not find cannot reach the hybrid merge threshold: not worth comparing
VECTOR_NEIGHBOUR_MIN = 0.5


def ask_server_neighbours(candidate: dict, k: int = 25) -> Callable[[], tuple[list[int], dict[int, float]] | None]:
    """Ask the warm embedding server for ``candidate``'s nearest notes now; the function returned waits for
    (their ids, their cosines), or None when it is not running (it is then started for the next write).

    The server embeds and ranks while this process runs its checks and its bm25 comparisons: pass the
    function to :func:`closest_notes`. No numpy, no model in this process."""
    try:
        from .embed_server import request_top_k
    except ImportError:
        return lambda: None
    hits = request_top_k(note_text(candidate), k=k, timeout=SERVER_TIMEOUT)

    def answer() -> tuple[list[int], dict[int, float]] | None:
        found = hits()
        if found is None:
            return None
        return [i for i, _ in found], dict(found)

    return answer


def closest_notes(store, candidate: dict, *, use_vectors: bool, recalled_ids: set[int] = frozenset(),
                  limit: int = 25, local_vectors: bool = True,
                  server_answer: Callable[[], tuple[list[int], dict[int, float]] | None] | None = None) -> list[dict]:
    """The existing notes nearest to ``candidate``, each with its comparison, most similar first.

    With ``use_vectors``, cosines come from the warm embedding server when it runs (the notes' stored
    vectors: nothing is embedded here; ``server_answer`` is a request already sent by
    :func:`ask_server_neighbours`), else from the model in this process when ``local_vectors``, else the
    comparison is lexical (what the Stop hook uses); a lexical neighbour outside the server's k is compared
    lexically."""
    text = note_text(candidate)
    if use_vectors and server_answer is None:
        server_answer = ask_server_neighbours(candidate, limit)
    neighbours = store.similar_note_candidates(text, candidate.get("project_key"), limit=limit)

    def add(note_id: int, recalled_only: bool = False) -> None:
        if any(n["id"] == note_id for n in neighbours):
            return
        try:
            note = store.get_note(note_id)
        except Exception:
            return
        if note["status"] == "active" and (recalled_only or note["scope"] == "global"
                                           or note["project_key"] == candidate.get("project_key")):
            neighbours.append(note)

    served = server_answer() if use_vectors else None
    if served is not None:  # a paraphrase may share few words: the vector index's nearest notes too
        for note_id in served[0]:
            if served[1][note_id] >= VECTOR_NEIGHBOUR_MIN:
                add(note_id)
    elif use_vectors and local_vectors:
        for note_id in _vector_neighbour_ids(store, text, limit):
            add(note_id)
    for note_id in recalled_ids:  # a recalled note is always compared, even if bm25 missed it
        add(note_id, recalled_only=True)
    if not neighbours:
        return []
    if served is not None:
        cosines = [served[1].get(n["id"]) for n in neighbours]
    elif use_vectors and local_vectors:
        cosines = vector_similarities([text] * len(neighbours), [note_text(n) for n in neighbours])
    else:
        cosines = None
    results = []
    for i, note in enumerate(neighbours):
        comparison = compare(candidate, note, cosines[i] if cosines else None, recalled=note["id"] in recalled_ids)
        results.append(dict(comparison, note=note, recalled=note["id"] in recalled_ids))
    results.sort(key=lambda r: r["score"], reverse=True)
    return results


# --- lifecycle: supersede, stale, forget -------------------------------------------------

def link(store, from_note: int, to_note: int, kind: str) -> None:
    if kind not in RELATION_KINDS:
        raise ValueError(f"Unknown relation {kind!r}; one of {', '.join(RELATION_KINDS)}")
    if from_note == to_note:
        raise ValueError("A note cannot relate to itself.")
    store.get_note(from_note)
    store.get_note(to_note)
    store.add_relation(from_note, to_note, kind)


def supersede(store, old_id: int, new_id: int) -> dict:
    """NEW replaces OLD: OLD is no longer injected or searched by default; both keep their history."""
    old, new = store.get_note(old_id), store.get_note(new_id)
    if old_id == new_id:
        raise ValueError("A note cannot supersede itself.")
    if new["status"] != "active":
        raise ValueError(f"Note {new_id} is {new['status']}: only an active note can supersede another.")
    with store.atomic():
        store.add_relation(new_id, old_id, "supersedes")
        store.update_note(old_id, {"status": "superseded", "superseded_by": new_id}, f"superseded by #{new_id}")
    return store.get_note(old_id)


def mark_stale(store, note_id: int, reason: str = "marked stale") -> dict:
    """The note no longer holds (the code moved on): kept for the record, never injected."""
    note = store.get_note(note_id)
    if note["status"] == "forgotten":
        raise ValueError(f"Note {note_id} was forgotten.")
    store.update_note(note_id, {"status": "stale"}, reason)
    return store.get_note(note_id)


def forget(store, note_id: int) -> None:
    """Erase a note everywhere: its content, FTS entry, revisions, vectors, and every plugin's copy (corpora)."""
    from .plugins import load_plugins

    store.forget_note_content(note_id)
    try:  # the in-memory/on-disk top-k matrix must not keep the forgotten vector either
        from .vectors import refresh_matrix_cache

        refresh_matrix_cache(store, force=True)
    except Exception:
        pass
    load_plugins().hook.forget_item(kind="note", item_id=note_id, store=store)
