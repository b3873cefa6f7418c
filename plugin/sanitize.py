"""Stored text is data: make it inert before it is shown to a model, and tell when it tries to steer one.

Two jobs, both on text that came from tool output, repositories or other agents:

- :func:`neutralise` rewrites text so that it cannot end lorebook's memory frame
  or impersonate the user or the system once rendered into a session's context:
  Unicode is NFKC-normalised, zero-width, bidirectional and other invisible
  format characters are removed, every tag-shaped ``<…>`` (the frame's own
  ``<lorebook-memory>`` markers, ``<system>``, ``</anything>``) loses its angle
  brackets to look-alike guillemets (a type's arguments glued to its name,
  ``List<int>`` or ``Arc<Mutex<State>>``, are code and stay as they are), and role labels (``Human:``,
  ``Assistant:``, ``System:``) or claimed notices ("IMPORTANT NOTICE FROM THE
  USER") are wrapped as ``[quoted: …]``.
- :func:`steering_reasons` says why a lesson reads like an instruction aimed at
  a future agent (imperatives to run, read, send or ignore things, claims of
  authority, ``curl … | sh``, exfiltration), after undoing the usual
  obfuscations (invisible characters, homoglyphs, letter spacing, base64). A
  lesson with reasons is quarantined: stored, shown to people with its flag,
  never injected.

Pure standard library and cheap to import: the hook path renders with it.
"""
from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from functools import lru_cache

# invisible characters that can hide words from a reader or a filter; NFKC keeps most of them
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\U000e0000-\U000e007f]")
# control characters other than tab and newline
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# a "<" that could open or close a tag: <name, </name, <!…, <?…
_TAG_OPEN = re.compile(r"<(?=\s*/|[!?A-Za-z])")
# (or what is left of one cut short: ``<|im_e``)
_SPECIAL_TOKEN = re.compile(r"<\|([\w.-]{1,40})(\|>)?")
_TAG_CLOSE = re.compile(r"(?<=[\w\"'/\-])>")
ROLE_LABELS = ("human", "assistant", "system", "user", "developer", "operator", "administrator", "admin", "claude",
               "anthropic", "model", "ai", "lorebook")
_ROLE = re.compile(
    # (not a scope: PHP's ``User::class``, C++'s ``System::String``)
    r"(?i)(?<![\w\[])(" + "|".join(ROLE_LABELS) + r")(\s*(?:message|prompt|note|instructions?)?)\s*:(?!//|\d|:)"
    # (not a name in a colon path, Kubernetes' ``system:serviceaccount:ingest:ingest-worker``, ``system:node:ip-1``)
    r"(?!(?-i:[a-z][\w.-]*):[\w.-])"
    # (nor a principal's type glued to its name, Kafka's ``User:svc-billing``: a name with a dash, dot or underscore)
    r"(?!(?-i:[a-z][a-z0-9]*[-_.][\w.-]*)(?:[\s,;)\]}'\"`]|$))")
_NOTICE = re.compile(
    r"(?i)(?<!\[quoted: )\b((?:(?:important|urgent|official|critical|mandatory|new|priority|security)\s+)*"
    r"(?:notice|message|instructions?|note|directive|update|order|request|override|reminder)s?\s+"
    r"(?:from|by)\s+(?:the\s+)?(?:user|system|developer|operator|administrator|admin|anthropic|lorebook|owner|"
    r"maintainers?|human))\b(?!\s*\])\s*:?")


# a type's arguments glued to its name: List<int>, Arc<Mutex<State>>, AddSingleton<IClock, SystemClock>, up to
# two levels deep; never a "/", "=", quote or "!" inside, so never a closing tag or one with attributes
_GENERIC_START = re.compile(r"[\w\]]<[A-Za-z_]")
_GENERIC = re.compile(r"(?<=[\w\]])<[A-Za-z_][\w:., \[\]?*&+]{0,60}"
                      r"(?:<[A-Za-z_][\w:., \[\]?*&+]{0,60}(?:<[A-Za-z_][\w:., \[\]?*&+]{0,60}>)?"
                      r"[\w:., \[\]?*&+]{0,60}>[\w:., \[\]?*&+]{0,60})*>")
_TYPE_WORD = re.compile(r"[A-Za-z_]\w*")
# lower-case type names a generic takes; any other lower-case word inside "<...>" could be a tag
_PRIMITIVES = frozenset("""
int uint long short byte sbyte char bool boolean float double decimal void string str object any unknown never number
bigint symbol u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 dyn impl const mut std java util
""".split())
# names that could pass for a role or a system tag however they are cased (<System>, <User>)
_TAG_NAMES = frozenset(ROLE_LABELS) | frozenset("""
instruction instructions important system_reminder reminder tool tools function functions memory prompt context
thinking result results output invoke parameter parameters document documents example examples message messages
command commands admin root
""".split())


def _is_type_arguments(span: str) -> bool:
    """``span`` (``<...>`` glued to a name) reads as a type's arguments: every word in it a type name (capitalised,
    a primitive or a qualified name), none a role or a tag lorebook's frame could be mistaken for."""
    words = _TYPE_WORD.findall(span)
    return bool(words) and all(
        w.lower() not in _TAG_NAMES and (w[0].isupper() or w in _PRIMITIVES or w == "_" or len(w) == 1)
        for w in words)


def strip_invisible(text: str) -> str:
    """``text`` NFKC-normalised, without invisible format characters or control characters (tab, newline kept)."""
    text = unicodedata.normalize("NFKC", text)
    text = _INVISIBLE.sub("", text)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return _CONTROL.sub(" ", text)


def neutralise(text: str | None) -> str:
    """``text`` made inert for a model's context: no frame markers, no tags, no role labels, nothing invisible.

    Idempotent: neutralising neutralised text changes nothing.
    """
    if not text:
        return ""
    text = str(text)
    # each step only where it can apply: this runs on every field SessionStart renders
    text = strip_invisible(text) if not text.isascii() else _CONTROL.sub(" ", text)
    if "<" in text:
        generics = _GENERIC.findall(text) if _GENERIC_START.search(text) else []
        kept = [g for g in generics if _is_type_arguments(g)]
        for i, g in enumerate(kept):  # a type's arguments are code, not a tag: kept as they are
            text = text.replace(g, f"\x00{i}\x00", 1)
        # (a chat template's token, ``<|im_end|>``, shown as text: ``‹|im_end|›``)
        if "<|" in text:
            text = _SPECIAL_TOKEN.sub(lambda m: f"\u2039|{m.group(1)}" + ("|\u203a" if m.group(2) else ""), text)
        text = _TAG_OPEN.sub("\u2039", text)          # ‹
        text = re.sub(r"\u2039([^<>\n]{0,200}?)>", "\u2039\\1\u203a", text)  # ‹name› once its "<" is gone
        for i, g in enumerate(kept):
            text = text.replace(f"\x00{i}\x00", g, 1)
    lowered = text.lower()
    if "from" in lowered or "by" in lowered:
        text = _NOTICE.sub(lambda m: f"[quoted: {' '.join(m.group(1).split())}]", text)
    if ":" in text:
        text = _ROLE.sub(lambda m: f"[quoted: {m.group(1)}{m.group(2)}]", text)
    return text


# --- instruction-like content -------------------------------------------------------------------------

# homoglyphs NFKC leaves alone: Cyrillic and Greek letters that look Latin
_CONFUSABLES = str.maketrans({
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s",
    "һ": "h", "ԁ": "d", "ɡ": "g", "ո": "n", "ս": "u", "ν": "v", "ο": "o", "α": "a", "ε": "e", "ι": "i",
    "κ": "k", "τ": "t", "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
    "С": "C", "Т": "T", "Х": "X", "І": "I", "Ј": "J", "Ѕ": "S", "Α": "A", "Β": "B", "Ε": "E", "Ι": "I",
    "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Χ": "X", "Υ": "Y", "Ζ": "Z",
    "0": "0", "ℓ": "l", "‐": "-", "‑": "-", "–": "-", "—": "-",
})
# single letters separated by spaces, dots or dashes: "i g n o r e", "i.g.n.o.r.e"
_SPACED = re.compile(r"\b(?:[A-Za-z][ .\-_*]{1,2}){3,}[A-Za-z]\b")
_BASE64 = re.compile(r"[A-Za-z0-9+/]{16,}={0,2}")


def _unspace(match: re.Match) -> str:
    return re.sub(r"[ .\-_*]", "", match.group(0))


def _decoded_base64(text: str) -> list[str]:
    out = []
    for chunk in _BASE64.findall(text)[:8]:
        try:
            raw = base64.b64decode(chunk + "=" * (-len(chunk) % 4), validate=False)
        except (binascii.Error, ValueError):
            continue
        try:
            decoded = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if sum(ch.isprintable() for ch in decoded) >= 0.9 * len(decoded) and re.search(r"[a-z]{3,} [a-z]{2,}", decoded):
            out.append(decoded)
    return out


def canonical(text: str) -> str:
    """``text`` with obfuscations undone for matching: invisible characters, homoglyphs, letter spacing."""
    text = strip_invisible(text or "").translate(_CONFUSABLES)
    return _SPACED.sub(_unspace, text)


_AGENT = r"(?:agents?|assistants?|claude|the\s+(?:agent|assistant|model|ai)|future\s+(?:agents?|sessions?|" \
         r"assistants?|readers?)|any\s+(?:agent|assistant|model)|llms?|ai\s+assistants?)"
_SECRET_THINGS = (r"(?:(?:~|\$HOME)?/?\.ssh\S*|(?:~|\$HOME)/\S*(?:\.aws|\.docker|\.netrc|\.pgpass|\.npmrc|"
                  r"\.git-credentials|\.config/gcloud)\S*|id_rsa\S*|id_ed25519\S*|private\s+keys?|ssh\s+keys?|\.env\b\S*|\.aws\S*|"
                  r"\.netrc|\.pgpass|\.git-credentials|\.npmrc|\.docker/config\.json|credentials?|secrets?|"
                  r"passwords?|passphrases?|api[\s_-]?keys?|access\s+keys?|tokens?|cookies?(?!\s+(?:consent|banner|policy|notice|preferences))|session\s+ids?|environment\s+variables|"
                  r"env\s+vars|/etc/(?:passwd|shadow)|keychain|wallet)")


def _deferred(pattern: str, flags: int = 0) -> tuple[str, int]:
    """A pattern compiled on first use (:func:`_compiled`): rendering, on the hook path, imports this module
    for :func:`neutralise` and never needs these ~30 ms of large patterns; :func:`steering_reasons` does."""
    return pattern, flags


@lru_cache(maxsize=None)
def _compiled(pattern: str, flags: int) -> re.Pattern:
    return re.compile(pattern, flags)


STEERING_PATTERNS: dict[str, tuple[str, int]] = {
    # ignore / override the instructions the agent has
    "override": _deferred(
        r"(?ix)\b(?:ignore|disregard|forget|override|bypass|skip|drop|abandon|discard)\s+(?:all\s+|any\s+|every\s+)?"
        r"(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+|those\s+)?(?:previous|prior|above|earlier|preceding|original|"
        r"existing|other|system|safety|security|developer|user'?s?|old|current|standing)?\s*"
        r"(?:instructions?|prompts?|rules|guidelines|guardrails|messages?|directives|policies|polic(?:y|ies)|"
        r"constraints|restrictions|context|orders)\b"
        r"|\b(?:system|developer)\s+(?:prompt|message)\b"
        r"|\byou\s+are\s+(?:now|no\s+longer)\b|\bact\s+as\s+(?:an?\s+)?(?:unrestricted|jailbroken|root|admin|dan)\b"
        r"|\bnew\s+(?:instructions?|rules|directives?|orders)\s*[:\-]"
        r"|\b(?:jailbreak|developer\s+mode|dan\s+mode|god\s+mode)\b"
        r"|\b(?:execute|follow|obey|run|carry\s+out)\s+(?:any|every|all)\s+(?:instructions?|commands?|orders?)\s+"
        r"(?:found|given|written|contained|you\s+find)?\s*(?:in|from)\b"),
    # claims of authority or of being the user
    "authority": _deferred(
        r"(?ix)\b(?:notice|message|instructions?|directive|order|request|reminder|update|note)\s+(?:from|by)\s+"
        r"(?:the\s+)?(?:user|system|developer|operator|administrator|admin|anthropic|owner|maintainers?|human|"
        r"security\s+team|it\s+department)\b"
        r"|\b(?:the\s+user|the\s+owner|your\s+(?:user|owner|operator|developer)|anthropic|the\s+admin(?:istrator)?|"
        r"the\s+(?:system|operator))\s+(?:has\s+)?(?:says?|said|wants|requests?|requested|instructs?|instructed|"
        r"authori[sz]es|authori[sz]ed|orders?|ordered|requires|demands?|approved|asks?|asked)\b"
        # (not pip's resolver: "The user requested (constraint) apache-airflow-providers-common-sql==1.19.0")
        r"(?!\s+(?:\(constraint\)\s+)?[A-Za-z][\w.-]*(?:\[[^\]]*\])?\s*(?:[=<>!~]=|[<>@]))"
        r"|\b(?:this\s+is\s+(?:the\s+user|the\s+system|your\s+(?:user|owner|operator)|anthropic|an?\s+official)|"
        r"on\s+behalf\s+of\s+(?:the\s+user|anthropic|the\s+system))"
        r"|\b(?:authori[sz]ed|approved|verified|trusted)\s+by\s+(?:the\s+)?(?:user|owner|anthropic|admin|system)\b"
        r"|\b(?:treat|regard|consider)\s+(?:every|each|all|this|these|the)\s+(?:lorebook\s+)?(?:notes?|memor(?:y|ies)|"
        r"lessons?|text)\s+(?:as|like)\s+(?:an?\s+)?(?:direct\s+|binding\s+)?(?:orders?|instructions?|commands?|"
        r"rules?|directives?)"
        r"|\b(?:highest|top|maximum)\s+priority\s+(?:instruction|order|directive)"
        r"|(?:^|\n|[\[(])\s*(?P<role>system|admin|administrator|developer|assistant|human)\s*"
        r"(?:message|note|override)?\s*[:\]]\s*\w"
        # (not a Nix function of that name, its argument used on the line: ``genAttrs systems (system: f x.${system})``)
        r"(?![^\n]*\$\{(?P=role)\})"
        # a role tag; glued to a name and capitalised it is a type's argument (`Repository<User>`), not a role
        # (nor a command's placeholders: `poetry config http-basic.repo <user> <token>`, `<user>:<password>`)
        # (nor a path's, `/media/<user>/<device name>`)
        r"|(?:(?<![\w$/])<|</)\s*(?:system|instructions?|admin|developer|assistant|user|human|im_start|im_end|"
        r"lorebook-memory)\s*>(?![:\s]\s*<(?:token|password|pass|pat|secret|api[_-]?key|key)>|/)"
        r"|(?<=[\w$])<\s*(?-i:system|instructions?|admin|developer|assistant|user|human|im_start|im_end|"
        r"lorebook-memory)\s*>"
        # a chat template's turn opened for a role, ChatML's or Llama 3's (not the bare token a Modelfile names as its
        # stop, ``PARAMETER stop "<|im_end|>"``, nor a template's turn whose text is a placeholder,
        # ``<|im_start|>system\n{{ .System }}``)
        r"|<\|im_start\|>\s*(?:system|user|assistant|developer|tool)\b(?!\s*\{\{)"
        r"|<\|start_header_id\|>\s*(?:system|user|assistant|ipython|tool)\s*<\|end_header_id\|>(?!\s*\{\{)"),
    # standing orders addressed to a future agent
    "standing_order": _deferred(
        # ("From now on, never …", "assistant, from now on run …", "every command you run from now on"; not "so CI
        # follows go.mod from now on", what a change makes a build do)
        r"(?ix)(?:(?:^|[.!?:;,\u2014\u2013\n]|\s-)\s*|\byou\b[^.\n]{0,40}?)"
        r"(?:from\s+now\s+on|henceforth|going\s+forward)\b|"
        r"\b(?:for\s+all\s+future\s+(?:sessions?|tasks?|requests?)|"
        r"in\s+every\s+(?:future\s+)?(?:session|conversation|task|response)|at\s+the\s+start\s+of\s+every\s+"
        r"(?:session|task|conversation)|before\s+(?:doing\s+)?anything\s+else|as\s+your\s+first\s+(?:action|step))\b"
        r"|\b" + _AGENT + r"\s*[,:]?\s+(?:must|should|shall|have\s+to|need\s+to|are\s+(?:required|instructed|"
        r"ordered|told)\s+to|will\s+now)\s+(?:always\s+|never\s+|immediately\s+|now\s+|first\s+|silently\s+|also\s+)*"
        r"(?!be\s+aware|know\b|note\b|expect\b|see\b|check\s+(?:that|whether|the\s+version))\w+"
        r"|\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|alert|notify|ask)\s+"
        r"(?:the\s+)?(?:user|human|owner|anyone|operator)\b"
        r"|\b(?:do\s+not|don'?t|never)\s+(?:mention|reveal|disclose|show|report)\s+[^\n.]{0,60}\bto\s+"
        r"(?:the\s+)?(?:user|human|owner|anyone|operator)\b"
        r"|\bwithout\s+(?:telling|asking|informing|notifying|alerting)\s+(?:the\s+)?(?:user|human|owner|anyone)\b"
        r"|\b(?:silently|secretly|quietly|covertly)\s+(?:run|execute|send|upload|post|add|install|delete|remove|"
        r"copy|modify|change|disable|commit|push|read|paste|print|include|append)\b"
        r"|\b(?:must|always)\s+(?:obey|follow|comply\s+with|execute|carry\s+out)\s+(?:these|this|the\s+following|"
        r"(?:every|each|all)\s+(?:note|instruction|order))"),
    # running fetched code, destructive or persistence commands
    "remote_code": _deferred(
        r"(?ix)\b(?:curl|wget|fetch|iwr|invoke-webrequest|invoke-restmethod)\b[^\n|;]{0,200}\|\s*(?:sudo\s+)?"
        r"(?:ba|z|k|da|fi|c)?sh\b"
        # (not a JSON printer: ``curl -s localhost:8083/connectors/x/status | python3 -m json.tool``)
        r"|\b(?:curl|wget)\b[^\n|;]{0,200}\|\s*(?:sudo\s+)?(?:python3?(?!\s+-m\s+json\.tool\b)|perl|ruby|node|php|iex|"
        r"invoke-expression)\b"
        r"|\b(?:ba|z)?sh\s+(?:-c\s+)?[\"']?\$\(\s*(?:curl|wget)\b"
        r"|\b(?:ba|z)?sh\s+<\s*\(\s*(?:curl|wget)\b"
        r"|\bsource\s+<\s*\(\s*(?:curl|wget)\b"
        r"|\bbase64\s+(?:-d|--decode)\b[^\n]{0,40}\|\s*(?:ba|z)?sh\b"
        r"|\beval\s*[\"'(]?\s*\$\(\s*(?:curl|wget|echo\s+\S+\s*\|\s*base64)"
        r"|\brm\s+-(?:rf|fr|r\s+-f|f\s+-r)\s+(?:--no-preserve-root\s+)?(?:/|~|\$HOME|\*)(?:\s|$|[\"'])"
        r"|\bchmod\s+(?:-R\s+)?777\s+(?:/|~)(?:\s|$|[`\"'])"
        r"|\b(?:nc|ncat|netcat)\s+(?:-e|-c)\s"
        r"|/dev/tcp/"
        r"|\bcrontab\b[^\n]{0,60}(?:curl|wget|nc\b)"
        r"|>>?\s*~?/?(?:\.ssh/authorized_keys|\.bashrc|\.zshrc|\.profile)\b[^\n]{0,0}"
        r"|\bgit\s+push\s+(?:--force|-f)\s+\S+\s+(?:main|master)\b[^\n]{0,40}(?:always|every|each)"),
    # sending or revealing secrets, reading them into the conversation
    "exfiltration": _deferred(
        # (a leak of secrets, not of state: "items from one test leak into another", a memory leak)
        r"(?ix)\bexfiltrat\w*|\b(?:leak|smuggle)\s+(?:out\s+)?(?:(?:all|any|every|the|your|their|its|my)\s+)*"
        + _SECRET_THINGS +
        # (not what a protocol or a login does with one: "has to fetch the RSA key to send the password", "pipe the
        # token in with `--password-stdin`"; but to a named place, always: "to send the tokens to ops@example.net")
        r"|(?<!\bto\s)\b(?:send|upload|post|transmit|forward|email|e-mail|share|submit|report|copy|sync|pipe|beacon)\s+"
        r"(?:(?:all|any|every|the|your|their|its|my|a\s+copy\s+of|contents?\s+of|output\s+of)\s+)*(?:(?:user'?s?|local|private|aws|cloud|"
        r"github|api|ssh|npm|stored|saved|current|session|database|db|admin|root|deploy|service|account|production|"
        r"prod|repo(?:sitory)?)\s+)*" + _SECRET_THINGS + r"(?![^\n.]{0,60}\bstdin\b)"
        r"|\b(?:send|upload|post|transmit|forward|email|e-mail|share|submit|copy|sync|pipe|beacon)\s+"
        r"(?:(?:all|any|every|the|your|their|its|my)\s+)*" + _SECRET_THINGS + r"[^\n.]{0,40}?\b(?:to|via|into)\s+"
        r"(?:\S+@[\w-]+\.[\w.-]+|https?://|\d{1,3}(?:\.\d{1,3}){3}|[\w-]+\.(?:com|net|org|io|dev|xyz|ru|cn|sh|site|app)\b|"
        r"(?:an?\s+|the\s+|my\s+)?(?:webhook|pastebin|gist))"
        r"|\b(?:paste|print|output|echo|show|display|reveal|dump|include|append|attach|read\s+out|list)\s+"
        r"(?:out\s+)?(?:(?:all|any|every|the|your|their|its|my|full)\s+)*(?:(?:contents?|output|value)\s+of\s+)?"
        r"(?:(?:the\s+)?(?:user'?s?|local|private|aws|cloud|github|ssh|session|database|db|admin|root|deploy|"
        r"service|account|production|prod)\s+)*" + _SECRET_THINGS +
        r"|\b(?:paste|print|send|post|include|share|output)\s+(?:the\s+)?(?:output|result|contents?)\s+of\s+"
        r"[`\"']?\s*(?:cat|type|less|more|head|tail|env|printenv|set|security\s+find)\b"
        r"|\bcat\s+[\"']?~?/?(?:\.ssh/|\.aws/|\.gnupg/|\.netrc|\.pgpass|\.git-credentials|\.docker/config|"
        r"/etc/shadow)[^\n]{0,80}(?:\||>|and\s+(?:send|post|paste|include))"
        r"|\b(?:curl|wget|http|requests\.post|fetch)\b[^\n]{0,120}(?:-d|--data(?:-binary|-raw)?|-F|--upload-file|-T)"
        r"\s*[\"']?@?[\"']?(?:~|\$HOME)?/?(?:\.ssh|\.aws|\.env|\.netrc|\.pgpass|\.git-credentials|\.npmrc|"
        r"\.docker|/etc/passwd|id_rsa|credentials)"
        r"|\b(?:curl|wget)\b[^\n]{0,120}\$\((?:cat|env|printenv)\b"
        r"|\b(?:curl|wget)\b[^\n]{0,160}\$(?:\{)?(?:[A-Z_]*(?:TOKEN|SECRET|KEY|PASSWORD|PASS|CREDENTIALS?))\b"
        r"|\b(?:env|printenv)\s*\|\s*(?:curl|nc|wget)\b"
        r"|\b(?:urlopen|requests\.\w+|fetch|axios\.\w+|http\.request|socket\.\w+)\s*\([^\n]{0,200}"
        r"(?:environ|process\.env|getenv)[^\n]{0,40}(?:SECRET|TOKEN|KEY|PASSWORD|PASS|CREDENTIAL)"
        r"|\b(?:read|reading|open|opening|load|loading|cat)\s+(?:the\s+)?(?:file\s+)?(?:contents?\s+of\s+)?[\"'`]?"
        r"(?:~|\$HOME)?/?(?:\.ssh/id_\w+|\.aws/credentials|\.netrc|\.pgpass|\.git-credentials|\.docker/config\.json|"
        r"/etc/shadow|\.npmrc|\.gnupg\S*)[^\n]{0,80}\b(?:echo|print|paste|send|include|share|post|upload|output|"
        r"keep\s+it|reply|answer|message|context|show)"),
}


# the same ideas with every space removed, for text whose letters were spaced out ("i g n o r e  a l l")
COMPACT_PATTERNS: dict[str, tuple[str, int]] = {
    "override": _deferred(
        r"(?i)(?:ignore|disregard|forget|override|bypass)(?:all|any|every)?(?:of)?(?:the|your|my|these)?"
        r"(?:previous|prior|above|earlier|system|safety|security|developer|existing)?"
        r"(?:instructions?|prompts?|rules|guidelines|guardrails|policies|restrictions)|systemprompt|youarenow"),
    "standing_order": _deferred(r"(?i)fromnowon|henceforth|goingforward|ineveryfuturesession|"
                                 r"(?:donot|don'?t|never)(?:tell|inform|mention)"),
    "remote_code": _deferred(r"(?i)(?:curl|wget)[^|;]{0,200}\|(?:sudo)?(?:ba|z)?sh\b|\$\((?:curl|wget)|"
                              r"rm-(?:rf|fr)(?:/|~|\$home)"),
    "exfiltration": _deferred(r"(?i)(?:send|upload|post|paste|print|share|exfiltrate|leak)(?:all|the|your|my)*"
                               r"(?:\.ssh|id_rsa|privatekeys?|credentials|secrets|tokens?|passwords?|\.env|apikeys?)"),
}


# one request of curl or wget, up to the end of its command (``|``, ``;``, ``&``, a line's end)
_LOCAL_REQUEST = re.compile(r"\b(?:curl|wget)\b[^\n|;&`]*")
# (or cut short there, on a card: ``… localhost…``, ``localhost...`` once NFKC has read it)
_LOCAL_HOST = re.compile(r"(?<![\w.-])(?:https?://)?(?:localhost|127\.0\.0\.1|\[::1\])(?=[:/\s\"'…]|\.\.\.|$)")
# anything that could name another host, or run something to make one: a URL, a dotted name, an address, ``$(…)``,
# an option that sends the request elsewhere or reads more options from a file (``-x``, ``--resolve``, ``-K``)
_OTHER_HOST = re.compile(r"[a-z][\w+.-]*://(?!(?:localhost|127\.0\.0\.1|\[::1\])(?:[:/\s\"']|$))|"
                         r"(?<![\w-])(?!127\.0\.0\.1\b)[\w-]+(?:\.[\w-]+)+(?::\d+)?(?:/|\b)|@|\$\(|<\(|\\|"
                         r"(?<!\S)(?:(?-i:-[a-zA-Z]*[xKe])|--(?:proxy|preproxy|resolve|connect-to|config|socks\w*|"
                         r"doh-url|url|execute|input)\b)", re.IGNORECASE)


def _to_this_machine(match: re.Match) -> str:
    """A request that goes to this machine only, as ``curl <this machine>``; any other, as it is."""
    request = match.group(0)
    rest = _LOCAL_HOST.sub(" ", request)
    # (what is left may hold an option's value with dots, ``-H "Accept: application/json"``: only a host-like word
    # outside quotes counts, and a quoted one with ``//``)
    unquoted = re.sub(r"\"[^\"]*\"|'[^']*'", " ", rest)
    if _LOCAL_HOST.search(request) and not _OTHER_HOST.search(unquoted) and "//" not in rest:
        return "curl <this machine>"
    return request


def steering_reasons(text: str) -> list[str]:
    """Why ``text`` reads like instructions aimed at a future agent (pattern names), or [] when it does not.

    Matches the text as written and after undoing obfuscations (NFKC,
    invisible characters, homoglyphs, spaced-out letters), and the decoded
    form of any base64 run in it. A hidden character inside a word is itself a
    reason: nobody types a zero-width space into a lesson by accident.
    """
    if not text:
        return []
    reasons: list[str] = []
    variants = [canonical(text)]
    variants += [canonical(decoded) for decoded in _decoded_base64(variants[0])]
    for name, (pattern, flags) in STEERING_PATTERNS.items():
        # (a request to this machine only carries nothing off it: ``curl -s -H "Authorization: Bearer
        # $GRAFANA_TOKEN" localhost:3000/api/datasources``, a check a session ran against its own stack)
        if any(_compiled(pattern, flags).search(_LOCAL_REQUEST.sub(_to_this_machine, variant)
                                                if name == "exfiltration" else variant) for variant in variants):
            reasons.append(name)
    if _SPACED.search(strip_invisible(text).translate(_CONFUSABLES)):
        compact = re.sub(r"\s+", "", variants[0])
        reasons += [name for name, (pattern, flags) in COMPACT_PATTERNS.items()
                    if name not in reasons and _compiled(pattern, flags).search(compact)]
    if re.search(r"\w[\u200b-\u200d\u2060\ufeff\u00ad]+\w|[\u202a-\u202e\u2066-\u2069]", text):
        reasons.append("hidden_characters")
    if len(variants) > 1 and reasons:
        reasons.append("encoded")
    return reasons
