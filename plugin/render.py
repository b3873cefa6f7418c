"""Render recalled notes as budgeted, clearly framed reference material.

Progressive disclosure: the top notes in full, the rest as an index of
titles and ids, and the command that fetches any of them. The result never
exceeds its token budget.
"""
from __future__ import annotations

import difflib
import re
from pathlib import Path

from .provenance import provenance, provenance_labels
from .record import error_line, imports, lesson_problem, scaffolding
from .sanitize import neutralise
from .text import elided_heads, estimate_tokens, held_out, one_line

FULL_NOTES = 3
FIELD_LIMIT = 600
INDEX_HEADER = "\nMore notes (titles only):\n"
# tokens kept free for the index while placing full notes, so that a long note does not crowd out the rest
INDEX_RESERVE = 60
# characters each card line may take before the card's token budget cuts it (full_note): the cause and fix and the
# change may take most of a card; logs never
CARD_LIMITS = {"title": 140, "summary": 320, "trigger": 110, "change": 240, "attempt": 100, "error": 110,
               "check": 90, "conditions": 100, "why": 100}
# the same lines for a person reading one note (`lorebook show`, corpora, the llm fragment)
FULL_LIMITS = {"title": 200, "summary": 1200, "trigger": 600, "change": 1500, "attempt": 300, "error": 300,
               "check": 300, "conditions": 600, "why": 300}
CARD_TOKENS = 150
SHORT_LIMITS = {k: v * 2 // 3 for k, v in CARD_LIMITS.items()}
EVIDENCE_HINT = "lorebook show {id} --evidence"
_ERROR_LINE = re.compile(r"(?i)error|exception|fail|fatal|panic|traceback|denied|not found|no such|cannot|can't|"
                         r"unable|refused|missing|invalid|undefined")
_DID_NOT_HELP = re.compile(r"(?i)\b(?:did not|didn't|does not|doesn't) (?:help|work|fix)|still fail")
_HUNK_HEADER = re.compile(r"^@@ [^@]* @@")
# an aside that gives an attempt's verdict ("(ruled out)", "(didn't help)", "(no effect)")
_VERDICT_ASIDE = re.compile(r"(?i)\((?:ruled out|rejected|(?:a )?dead end|no luck|no effect|no change|not it|"
                            r"(?:did not|didn't|does not|doesn't) (?:help|work|fix it))\)")
_OBSERVATION_REF = re.compile(r"\s*\(observations? [\d, ]+\)")


def template(name: str) -> str:
    """The text of ``templates/<name>`` (installed as ``lorebook.templates``)."""
    import lorebook.templates

    return (Path(lorebook.templates.__file__).parent / name).read_text("utf-8")


def inert(text, limit: int = FIELD_LIMIT) -> str:
    """Stored text as any face may show it: one line, whitespace normalised, at most ``limit`` characters.

    Every piece of stored text lorebook renders (titles included) goes through here
    and nowhere else, so that what makes stored text safe to show lives in one place:
    :func:`lorebook.sanitize.neutralise` (no frame marker, tag or role label survives).
    """
    text = str(text or "")
    # (each "…" the text was cut with reads "..." once neutralised: the room it was cut to fit, kept)
    return one_line(neutralise(text), limit + 2 * text.count("…"))


def is_attempt(item: dict) -> bool:
    """An evidence item that records a failed attempt ("tried X: still failed with …"), not the fix."""
    quote = str(item.get("quote") or "").lstrip().lower()
    return quote.startswith(("tried ", "attempt", "first try")) or bool(_DID_NOT_HELP.search(quote)) \
        or bool(_DID_NOT_HELP.search(str(item.get("source") or "")))


def _words(text) -> set[str]:
    return {w for w in re.findall(r"[\w./-]+", str(text or "").lower()) if len(w) > 2}


def _said_already(text, shown) -> bool:
    """Most of ``text``'s words are in ``shown`` already (a trigger that only restates the title's problem)."""
    words = _words(text) - {"running", "run", "fails", "failed", "with", "when", "the", "this", "project", "it"}
    return bool(words) and len(words & _words(shown)) >= 0.7 * len(words)


def _whole_sentences(text, limit: int) -> str:
    """``text``, or as many of its first sentences as fit in ``limit`` (at least one, which inert may cut); asides in
    parentheses go first ("tried to reach Redis (`kombu…: Error 111 …`) because …"), so the next sentence, often
    the fix, still fits."""
    text = " ".join(str(text or "").split())
    if len(text) <= limit:
        return text
    # (those without code first, then the last first: ``(`rebar3 as test ct --sys_config config/test.config`)``
    # says what the Makefile target runs)
    aside = r"\s+\((?:[^()]|\([^()]*\))*\)(?=[\s.,;:!?])"
    # (never one that is the sentence's verdict: "Loosening `base` (ruled out): bumping the bound …" did not help)
    verdict = lambda m: _VERDICT_ASIDE.fullmatch(m.group(0).strip())  # noqa: E731
    text = re.sub(aside, lambda m: m.group(0) if "`" in m.group(0) or verdict(m) else "", text)
    while len(text) > limit and (spans := [m for m in re.finditer(aside, text) if not verdict(m)]):
        text = text[:spans[-1].start()] + text[spans[-1].end():]
    if len(text) <= limit:
        return text
    kept = ""
    # (a sentence never ends inside a code span: `opam env --switch=. --set-switch`)
    held, restore = held_out(r"`[^`]*`", text)
    for sentence in re.split(r"(?<=[.!?。])(?<!\bi\.e\.)(?<!\be\.g\.)\s+", held):
        if kept and len(kept) + 1 + len(restore(sentence)) > limit:
            # (of the next, its first clause when that quotes code and fits: "deploy.py now uses
            # `flow.from_source(...).deploy(...)`, …", the fix after its cause)
            clause = restore(re.split(r",\s+|\s+[—–]\s+|;\s+", sentence)[0])
            if "`" in clause and clause != restore(sentence) and len(kept) + len(clause) + 3 <= limit:
                kept = f"{kept} {clause.rstrip('.')}, …"
            break
        kept = f"{kept} {restore(sentence)}".strip()
    return kept


def _observation_ref(item: dict) -> str:
    return f" (observation {item['observation_id']})" if isinstance(item.get("observation_id"), int) else ""


def _change_text(change: str, compact: bool = False, limit: int | None = None, telling: set[str] = frozenset(),
                 quoted: tuple[str, ...] = (), ran: str = "", titled: str = "") -> str:
    """The change as one readable line: diff hunk headers dropped, lines joined.

    A card (``compact``) keeps a diff's added lines only (the state to reach; of a file that only lost lines, those
    it lost) and names each file once. Within ``limit`` it gives way in this order: long paths to their ends; lines a
    second file repeats from the first; imports, lines that only open a block, comments and lines that only moved a
    bracket; the command a changed invocation or a step spells out again; then, from the longest file's part, the
    line the title shows already (``titled``, its code) first, then the line sharing fewest words with ``telling``
    (what the problem says), the last first, and a line that holds code the account quotes (``quoted``) only after
    every other (no such line is scaffolding). So
    each file's first changed line shows before any file's second, ``readOnlyRootFilesystem: true`` before
    ``runAsUser: 10001`` when the error asks for a read-only root filesystem, and the ``org.gradle.java.home=…`` the
    account names before the ``org.gradle.java.installations.paths=…`` above it."""
    lines = [line.rstrip() for line in str(change or "").splitlines()
             if line.strip() and not _HUNK_HEADER.match(line.strip())]
    if not compact:
        return _joined(lines)
    # an added line that only moved a bracket or a comma of a removed one (``(libraries yojson unix))`` →
    # ``(libraries yojson unix)``, to make room for the next line) says nothing of its own
    removed = {_bare(line) for line in lines if re.match(r"-(?!--)", line)}
    # (or that was part of a removed line, now on a line of its own: ``imports: [A.forFeature([Order])],`` →
    # ``A.forFeature([Order]),``)
    # (not a line that only lost a character or two: ``proxy_pass http://api_upstream/;`` → ``…api_upstream;``)
    reshaped = {line for line in lines if re.match(r"\+(?!\+)", line) and (_bare(line) in removed or len(
        _bare(line)) >= 12 and any(_bare(line) in r and len(r) - len(_bare(line)) > 3 for r in removed))}
    parts: dict[str, list[str]] = {}  # file header (or "") -> its lines, in order of first appearance
    header = ""
    for line in lines:
        if _FILE_HEADER.match(line):
            header = line
            parts.setdefault(header, [])
        else:
            parts.setdefault(header, []).append(line)
    for header, body in parts.items():  # (a file whose change only removed lines shows what it removed)
        if any(re.match(r"\+(?!\+)", line) for line in body):
            parts[header] = [line for line in body if not re.match(r"-(?!--)", line)]
    parts = {(_short_path(h) if limit and len(_joined(_flat(parts))) > limit else h): body
             for h, body in parts.items()}
    for give_way in (_drop_repeated, _shorten_long_step,
                     lambda parts: _drop_scaffolding(parts, reshaped, removed, quoted),
                     lambda parts: _drop_spelt_out(parts, ran),
                     lambda parts: _drop_titled_file(parts, titled),
                     lambda parts: _drop_least_telling(parts, telling, quoted, titled, removed)):
        while limit and len(_joined(_flat(parts))) > limit and give_way(parts):
            pass
    return _joined(_flat(parts))


_FILE_NAMED = re.compile(r"(?<![\w./$-])[A-Za-z][\w-]*\.(?:plist|json|ya?ml|toml|xml|gradle|kts|properties|"
                         r"conf|cfg|ini|lock|env)\b")
_FILE_HEADER = re.compile(r"^[\w.@~/][\w.@+~/-]*:$")  # (not a diff line: ``+securityContext:`` is one)


def _bare(line: str) -> str:
    """A diff line without its sign and the brackets, commas and semicolons that close it."""
    return _unclosed(line[1:].strip())


def _unclosed(text: str) -> str:
    return re.sub(r"[\s,;)\]}]+$", "", text)


def _joined(lines: list[str]) -> str:
    out = ""
    for line in lines:
        line = line.strip() if not line.startswith(("+", "-")) else line
        out += ("" if not out else " " if out.endswith((".", ";", ":", ",")) else "; ") + line
    return out


def _flat(parts: dict[str, list[str]]) -> list[str]:
    return [line for header, body in parts.items() for line in ([header] if header else []) + body]


def _short_path(header: str) -> str:
    """``app/src/main/java/com/acme/data/Migrations.kt:`` as ``app/…/data/Migrations.kt:``."""
    names = header[:-1].split("/") if header else []
    return f"{names[0]}/…/{names[-2]}/{names[-1]}:" if len(names) > 4 else header


def _drop_repeated(parts: dict[str, list[str]]) -> bool:
    """The last diff line that an earlier file's part has already shown (the same ``runAsNonRoot: true`` in a second
    manifest); a part that only repeats an earlier one says so."""
    seen: set[str] = set()
    repeated = None
    for body in parts.values():
        # (however many times each part added it: ``+#[Groups(['book:read'])] (×2)`` in Book.php, once in Author.php)
        lines = [_COUNTED.sub("", line) for line in body]
        diff = [line for line in lines if line.startswith(("+", "-"))]
        if diff and all(line in seen for line in diff):
            seen.update(lines)
            body[:] = [_SAME]
            return True
        for i, line in enumerate(lines):
            if line.startswith(("+", "-")) and line in seen and len(body) > 1:
                repeated = (body, i)
        seen.update(lines)
    if repeated is None:
        return False
    del repeated[0][repeated[1]]
    return True


_SAME = "the same lines"
_COUNTED = re.compile(r" \(×\d+\)$")  # (how many times a part added the line)


_COMMENT = re.compile(r"^[+-]\s*(?://|/\*|\*|#(?!include|define|if|pragma|!)|--\s|<!--)")


def _drop_scaffolding(parts: dict[str, list[str]], reshaped: set[str], removed: set[str] = frozenset(),
                      quoted: tuple[str, ...] = ()) -> bool:
    """The first import, then the first other line around the change (a block opened, a comment, a bracket moved):
    ``object JsonFormats extends SprayJsonSupport with DefaultJsonProtocol {`` outlasts the import it needs. An
    import that takes a name from elsewhere than a line the change removed is no scaffolding (``from
    pydantic_settings import BaseSettings`` for ``from pydantic import BaseSettings, Field``), nor the one line that
    holds code the account quotes (``quoted``: "from `selector` to `targetRefs`" keeps ``targetRefs:``; a
    ``val MIGRATION_7_8 = object : Migration(7, 8) {`` whose name ``.addMigrations(…, MIGRATION_7_8)`` shows
    gives way)."""
    taken = {w for line in removed for w in re.findall(r"\w{6,}", line)} - {"import", "require"}
    # (a comment before the code it sits by: ``// start from Boot's builder …`` goes before the changed signature
    # ``objectMapper(Jackson2ObjectMapperBuilder builder) {``)
    # (nor a line that opens a block as the line it replaced did, changed: ``Column(modifier =
    # GlanceModifier.fillMaxSize()…) {`` for ``Column(modifier = Modifier.fillMaxSize()…) {``)
    diff = [line for body in parts.values() for line in body if line.startswith(("+", "-"))]
    # (a line that only closes a block, or only opens one, first of all: ``+}`` says nothing, where the
    # ``column_to_json_key_mappings = {`` it closes names what the lines in it are)
    # (never a file's last changed line: ``+import alembic_postgresql_enum``, the import that registers the comparator,
    # beside the steps that follow it)
    found = [(not _BRACKETS_ONLY.fullmatch(line.strip()), not imports(line), not _COMMENT.match(line), n, body, i)
             for n, body in enumerate(parts.values()) if sum(l.startswith(("+", "-")) for l in body) > 1
             for i, line in enumerate(body) if line.startswith(("+", "-"))
             and (scaffolding(line) or line in reshaped or _BRACKETS_ONLY.fullmatch(line.strip()))
             and not (imports(line) and set(re.findall(r"\w{6,}", line)) & taken and _bare(line) not in removed)
             and not (line not in reshaped and not imports(line) and _edited_from(_bare(line), removed))
             and not any(_holds_code(line, q) and not any(_holds_code(other, q) for other in diff if other != line)
                         for q in quoted)]
    if not found:
        return False
    *_, body, i = min(found, key=lambda f: f[:4])
    del body[i]
    return True


# a diff line of brackets alone, however many times it was added (``+}``, ``+{ (×2)``)
_BRACKETS_ONLY = re.compile(r"[+-]\s*[(){}\[\]]+[;,]?(?: \(×\d+\))?")


def _holds_code(line: str, code: str) -> bool:
    return bool(re.search(rf"(?<!\w){re.escape(code)}(?!\w)", line))


def _edited_from(line: str, removed: set[str]) -> bool:
    """Whether ``line`` is one of the ``removed`` lines changed within it (the same start and end, a name between)."""
    return len(line) >= 12 and any(r != line and difflib.SequenceMatcher(a=r, b=line, autojunk=False).ratio() >= 0.8
                                   for r in removed)


def _drop_spelt_out(parts: dict[str, list[str]], ran: str = "") -> bool:
    """The command a changed invocation spells out after what changed ("Pass `--build-arg V=…`: `docker build
    --build-arg V=… -t x .`."), when what changed names every variable it sets beyond the command that failed
    (``ran``), or a step names again after it ("Run `npm install x` before `npm run build`."): the title names it."""
    for body in parts.values():
        for i, line in enumerate(body):
            said = re.match(r"^([^+-].*`.*?): `([^`]+)`\.?$", line)
            if said and not all(word in said.group(1) for word in said.group(2).split()
                                if re.match(r"[A-Za-z_]\w*=", word) and word not in ran.split()):
                said = None  # (the passing command sets more than the last change: ``DOCKER_HOST=…`` set before)
            before = re.match(r"^(Run `[^`]+`) before `[^`]+`\.$", line)
            if said or before:
                body[i] = said.group(1) + "." if said else before.group(1) + " first."
                return True
    return False


def _shorten_long_step(parts: dict[str, list[str]]) -> bool:
    """A step's long command ("Run `kubectl -n staging create secret docker-registry ghcr-pull --docker-server=… …`
    first.") cut to its first words, when a file's change beside it would otherwise not fit (the note has it whole)."""
    if not any(header for header in parts):
        return False
    for body in parts.values():
        for i, line in enumerate(body):
            step = re.match(r"^(Run `)([^`]{81,})(`.*)$", line)
            if step:
                # (its long words first, an address or a path, so that every step of the line still shows: ``curl
                # -sLO https://cdn.… && swift package compute-checksum AnalyticsKit.xcframework.zip``)
                command = re.sub(r"[^\s`]{30,}", lambda m: m.group(0)[:14] + "…", step.group(2))
                if len(command) > 80:
                    command = command[:72].rsplit(" ", 1)[0] + " …"
                body[i] = step.group(1) + command + step.group(3)
                return True
    return False


def _drop_titled_file(parts: dict[str, list[str]], titled: str) -> bool:
    """A file's part whose every changed line the title shows (``titled``), beside another file's: the title says
    it, and the room goes to the rest of the fix (``lib/api.ts``'s tagged fetch, titled, beside the
    ``revalidateTag("invoices")`` in actions.ts). Not a short one, which frees little room and says the line whole
    (``+import Qt5Compat.GraphicalEffects`` beside the title's "→ `Qt5Compat.GraphicalEffects`"), nor one whose
    line the title cut before two thirds of it (``module = "com.jakewharton.espresso…`` leaves out the
    ``:okhttp3-idling-resource`` that names the library)."""
    title, cut = _title_code(titled)
    shown = [header for header, body in parts.items() if header and len(parts) > 1
             and any(line.startswith("+") for line in body) and len(_joined(body)) >= 60
             and all(_titled(line, titled) and (not cut or 3 * len(title) >= 2 * len(_bare(line)))
                     for line in body if line.startswith(("+", "-")))]
    if not shown:
        return False
    del parts[shown[0]]
    return True


def _drop_least_telling(parts: dict[str, list[str]], telling: set[str], quoted: tuple[str, ...] = (),
                        titled: str = "", removed: set[str] = frozenset()) -> bool:
    """From the longest file's part, a diff line the title shows already (``titled``: the code it quotes, maybe cut
    with "…"), then the line sharing fewest words with ``telling``, the last of those, a line that holds one of
    ``quoted`` last of all, the more of it the later, code the change added before code a ``removed`` line held
    (prose, "Run `x` before `y`.", is never dropped: inert cuts it)."""
    diffs = [body for body in parts.values() if sum(line.startswith(("+", "-")) for line in body) > 1]
    if not diffs:
        return False
    body = max(diffs, key=lambda body: len(_joined(body)))
    lines = [i for i, line in enumerate(body) if line.startswith(("+", "-"))]
    # (of two lines that hold quoted code, the one holding more of it: ``down_revision: … = "b83f6d2e41a9"`` over the
    # docstring's ``Revises:``)
    # (the title's "add `ViewCompat.setOnApplyWindowInsetsListener(binding.root) { v,…`" leaves the room to the
    # ``val bars = insets.getInsets(WindowInsetsCompat.Type.systemBars())`` after it)
    # (or a line of code the account quotes over several: "`sqfliteFfiInit(); databaseFactory = databaseFactoryFfi;`"
    # holds ``+databaseFactory = databaseFactoryFfi;``)
    # (and code the change added over code it kept: "suspended on `downloader.fetch`" tells the cause, in a line the
    # change removed too; "records each download … in `inFlight[url]`" tells the fix, ``inFlight[url] = task``)
    def held(i: int) -> tuple[bool, int]:
        code = _bare(body[i])
        spans = [q for q in quoted if q in body[i] or len(code) >= 12 and code in q]
        new = [q for q in spans if not any(q in old for old in removed)]
        return bool(new), max(map(len, new or spans), default=0)

    # (but a line whose quoted code the title cuts is not shown by it: `@RenameColumn(…, fromColumnName = "body", t…`
    # leaves out the ``toColumnName = "content"`` the account quotes)
    def shown(i: int) -> bool:
        return _titled(body[i], titled) and not any(q in body[i] and q not in titled for q in quoted)

    del body[min(lines, key=lambda i: (held(i)[1] > 0, not shown(i), held(i), len(_words(body[i]) & telling), -i))]
    return True


def _title_code(titled: str) -> tuple[str, bool]:
    """The title's code as far as it goes, and whether it was cut: with "…", which reads "..." once the card's
    title is neutralised."""
    cut = re.search(r"(?:…|\.\.\.)$", titled)
    return _unclosed(titled[:cut.start()] if cut else titled), bool(cut)


def _titled(line: str, titled: str) -> bool:
    """Whether the title's code (``titled``, cut with "…" where it was long) shows diff ``line``: all of it, the
    first 24 characters and more of it before the cut, or a part of it of 24 characters and more, whole."""
    code, (shown, cut) = _bare(line), _title_code(titled)
    # (or the part of it that changed, long enough to tell: "`headers` → `headers, next: { tags: ["invoices"] }`")
    return bool(shown) and (code == shown or cut and len(shown) >= 24 and code.startswith(shown)
                            or not cut and len(shown) >= 24 and shown in code)


def _named_check(check: str, note: dict, shown: str, limit: int) -> str:
    """A check that reran the failing command, or the changed one, named rather than spelt out again on a card (and,
    short as that is, never cut to a stub); spelt out, within ``limit``, when the card has not shown it whole (a cut
    change line)."""
    match = re.match(r"`([^`]+)` (passed.*)", check)
    if match and _holds(str(note.get("trigger") or ""), match.group(1)):
        return inert(f"the failing command {match.group(2)}")
    if match and _holds(shown, match.group(1)):
        return inert(f"the fixed command {match.group(2)}")
    return inert(check, limit)


def _holds(text: str, command: str) -> bool:
    """Whether ``text`` holds ``command``, which a check may have cut with "…" (``./gradlew :app:connected… -P…=…
    CheckoutFlowTest``): each piece, in order."""
    at = 0
    for piece in (piece for piece in command.split("…") if piece.strip()):
        found = text.find(piece, at)
        if found < 0:
            return False
        at = found + len(piece)
    return at > 0


def note_lines(note: dict, limits: dict | None = None, why: list[str] | None = None) -> list[tuple[str, str]]:
    """A note's readable lines, in reading order: the cause and fix first, then when it happens, the change,
    what did not help, the error, the check that passed. Logs are never among them (see EVIDENCE_HINT)."""
    limits = limits or CARD_LIMITS
    compact = limits["summary"] < FULL_LIMITS["summary"]  # a card names one check; a full note names them all
    lines: list[tuple[str, str]] = []
    if why:
        lines.append(("Matched", inert("; ".join(why), limits["why"])))
    lines.append(("Cause and fix", inert(_whole_sentences(note.get("summary"), limits["summary"]), limits["summary"])))
    run = _cut_run(note)
    if compact and run is not None:  # (the title names the command but cut its flags: `dotnet build …`)
        # (shown once: not when the change names it already, "Run `mvn verify …`, not `mvn -q test …`")
        if run and len(run) + 8 <= limits["trigger"] and f"`{run}`" not in str(note.get("change") or ""):
            lines.append(("When", inert(f"`{run}` fails", limits["trigger"])))
    elif not compact or not _said_already(lesson_problem(note.get("trigger")), note.get("title")):
        lines.append(("When", inert(note.get("trigger"), limits["trigger"])))
    # what the problem says (its title, trigger and error): the change's lines that answer it show first
    telling = _words(" ".join(str(note.get(k) or "") for k in ("title", "trigger")) + " " + " ".join(
        str(e.get("quote") or "") for e in note.get("evidence") or [] if isinstance(e, dict)))
    # (and the code the account quotes, where a changed line holds it: ``org.gradle.java.home``)
    # (paired first: a short span, `require`, must not pair its closing backtick with the next one's opening)
    # (a file the account names is quoted code too: "couldn't read GoogleService-Info.plist")
    summary = str(note.get("summary") or "")
    # (and a setting quoted by its path, by its own name: `resolver.nodeModulesPaths` is the ``nodeModulesPaths: [``
    # of a config file)
    spans = re.findall(r"`([^`\n]*)`", summary)
    # (and the code a cut summary ends in, as far as it goes: "… with `--dns01-recu…`" holds the start of
    # ``--dns01-recursive-nameservers=1.1.1.1:53,8.8.8.8:53``)
    if summary.count("`") % 2 and summary.endswith("…"):
        spans.append(summary.rpartition("`")[2].rstrip("…"))
    # (and a field quoted as the query uses it, by its name: `assigneeId ==` is the index's ``"fieldPath":
    # "assigneeId"``)
    fields = [m.group(1) for m in (re.fullmatch(r"([A-Za-z_]\w*)\s+(?:[=!<>]=?|(?i:asc|desc))", s) for s in spans) if m]
    quoted = tuple(span for span in spans + _FILE_NAMED.findall(summary) + list(elided_heads(spans)) + [
        span.rsplit(".", 1)[1] for span in spans if re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+", span)] + fields
                   if len(span) >= 8)
    # (the code a fix's title quotes, the last clause: "— add `…`"; of "`a` → `b`", what it became; as the card
    # shows it, cut where it is long)
    fix_clause = inert(str(note.get("title") or ""), limits["title"]).rpartition(" — ")[2]
    titled = re.findall(r"`([^`]+)`", fix_clause.partition(" → ")[2] or fix_clause)
    lines.append(("Change", inert(_change_text(note.get("change"), compact, limits["change"] if compact else None,
                                               telling, quoted, _failing_command(note), titled[0] if titled else ""),
                                 limits["change"])))
    evidence = [e for e in note.get("evidence") or [] if isinstance(e, dict)]
    attempts = [item for item in evidence if is_attempt(item)]
    # (a card shows the first attempt and counts the rest: three stubs, "tried `docker compose -f docker-comp…", would
    # take the room of the change)
    more = len(attempts) - 1 if compact else 0
    for item in attempts[:1] if compact else attempts:
        lines.append(("Did not help", inert(item.get("quote"), limits["attempt"])
                      + (f" (and {more} more attempt{'s' if more > 1 else ''})" if more > 0 else "")))
    seen = " ".join([str(note.get("title") or "")] + [value for _, value in lines])  # what the reader has so far
    for item in evidence:
        if is_attempt(item):
            continue
        # (a compiler's message after the file it names, by its name: ``/home/pat/…/NotesApp_HiltComponents.java:142:
        # error: …`` showed only the path within the card's room)
        line = _LEADING_DIRS.sub("", error_line(item.get("quote")))
        if line and _ERROR_LINE.search(line) and not _said_already(lesson_problem(line), seen):
            lines.append(("Error", inert(line, limits["error"]) + _observation_ref(item)))
        break  # the first quote is the failure; later ones are the passing run, named by the check below
    validation = note.get("validation") if isinstance(note.get("validation"), dict) else {}
    seen = " ".join([str(note.get("title") or "")] + [value for _, value in lines])
    passed = [_named_check(_OBSERVATION_REF.sub("", str(v)), note, seen, limits["check"]) if compact
              else inert(v, limits["check"]) for v in validation.get("passed") or [] if str(v).strip()]
    # (what was not checked stands in for the check on an unverified card: it may take the room of both)
    missing = [inert(v, limits["check"] * 3 // 2) for v in validation.get("not_performed") or [] if str(v).strip()]
    if passed:
        lines.append(("Checked", passed[0] if compact else "; ".join(passed)))
    if missing and (not passed or not compact):
        lines.append(("Not checked", missing[0] if compact else "; ".join(missing)))
    if not passed and not missing:
        lines.append(("Checked", "nothing after the change"))
    lines.append(("Applies when", inert(note.get("conditions"), limits["conditions"])))
    return [(label, value) for label, value in lines if value and limits.get(_LIMIT_OF.get(label, ""), 1)]


def _failing_command(note: dict) -> str:
    """The command the trigger quotes first, as it was run (``cd src-tauri && cargo tauri build 2>&1 | tail -12``)."""
    match = re.search(r"`([^`]+)`", str(note.get("trigger") or ""))
    return match.group(1) if match else ""


# what runs before the program on a failing command's line: a directory and the variables it sets
# (and the shell option that only makes a pipe fail: ``set -o pipefail && xcodebuild …``)
_RUN_PREFIX = re.compile(r"^(?:set -[euxo]+(?: pipefail)? *(?:&&|;) *)?(?:cd \S+ && )?(?:[A-Za-z_]\w*=\S*\s+)*")


def _check_run(note: dict) -> str:
    """The failing command's check, as run: less what runs before it on the line (``npm run build && npx playwright
    test …`` is the ``npx playwright test …`` the title names) and the variables it sets."""
    return _RUN_PREFIX.sub("", _RUN_PREFIX.sub("", _failing_command(note)).rsplit(" && ", 1)[-1])


def _cut_run(note: dict) -> str | None:
    """The failing command as run (without the variables set before it), when the title names it without its flags
    (``dotnet build …`` for ``dotnet build --no-restore -c Release -warnaserror``: the flag that made the warning an
    error is the lesson); "" when the title shows them all; None when the title does not name it."""
    command = _check_run(note)
    named = re.match(r"`([^`]+)`", str(note.get("title") or ""))
    if not command.strip() or not named or command.split()[0].rsplit("/", 1)[-1] != named.group(1).split()[0]:
        return None
    run = re.split(r"\s+(?:\d?>|\|)", " ".join(command.split()))[0]  # (less its plumbing: ``2>&1 | tail -12``)
    # (a flag of its own, not one that only says how much it prints: ``--tail 12``, ``--no-color``)
    return run if any(re.match(r"-(?:-|\w\w)", w) and not _OUTPUT_FLAG.match(w) and w not in named.group(1).split()
                      for w in run.split()) else ""


_OUTPUT_FLAG = re.compile(r"--?(?:tail|since|until|follow|lines|limit|quiet|verbose|(?:no-)?colou?r|tb|format|output|"
                          r"json|pretty|progress|silent|no-header|summary)\b")


# the directories before the file a compiler's message names: ``/home/pat/…/NotesApp_HiltComponents.java:142: …``
_LEADING_DIRS = re.compile(r"^(?:[A-Za-z]:)?(?:[/~\\][\w.@+ -]*?)+[/\\](?=[\w.@+-]+:\d)")


# the limit key of each line a card may drop whole (a limit of 0) rather than cut to a stub
_LIMIT_OF = {"When": "trigger", "Error": "error"}


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
    prov = provenance_labels(provenance(note))
    line = (f"- #{note['id']} [{inert(note.get('kind') or 'note', 20)}, {prov['verified']}, {prov['date']}, "
            f"{inert(prov['source'], 160)}] {inert(note['title'], 140)}")
    if why:
        line += f" (matched: {inert('; '.join(why), 80)})"
    return line


def full_note(note: dict, why: list[str] | None = None, limits: dict | None = None,
              tokens: int | None = CARD_TOKENS) -> str:
    """One note as a card (templates/note_full.md): title, provenance, then :func:`note_lines`.

    Within ``tokens`` where it can be: the lines give way (the trigger, the checks, …
    first, then the cause and fix, by whole sentences, the change last) before the card
    grows past it; the title stays.
    """
    limits = dict(limits or CARD_LIMITS)
    prov = provenance_labels(provenance(note))
    others = [k for k in limits if k not in ("title", "summary", "change")]
    # the lines the title mostly says already go first, whole, when the title names the failing command (a line cut
    # to a stub, "When: Running `ansible-playbook -i inventorie…", tells nothing); then the other lines give way,
    # then the cause and fix (to whole sentences), then both further; the change last of all (a card cut to its
    # budget must still show what to do)
    # (`./gradlew …` titled `gradlew …`, `DATABASE_URL=… uv run …` `uv run …`, `cd x && make` `make`)
    command = re.match(r"(?:\S*/)?([^\s/]+)", _check_run(note))
    said = ["trigger", "error"] if command and f"`{command.group(1)}" in str(note.get("title") or "") else []
    if said and _cut_run(note):  # (the command as run, when the title cut its flags, is short: it stays)
        said.remove("trigger")
    # (the trigger and the error go whole before any line is cut to 40: "When: Running `docker run --rm -v
    # "$PWD/envoy:/…" and "Error: [1][critical][main] [source/server/config…" told nothing, and took the room that
    # cut the change's ``envoy.extensions.filters.http.router.v3.Router``)
    dropped = [key for key in ("trigger", "error") if key not in said]
    phases = iter([([key], 0) for key in said] + [
        (others, 70), (["summary"], 100), (dropped, 0), ([k for k in others if k not in dropped], 40),
        (["change"], 70), (["summary"], 60), (["change"], 40)])
    keys, floor = next(phases)
    while True:
        fields = "\n".join(f"{label}: {value}" for label, value in note_lines(note, limits, why))
        card = template("note_full.md").format(
            id=note["id"], title=inert(note["title"], limits["title"]), kind=inert(note.get("kind") or "note", 20),
            verified=prov["verified"], date=prov["date"], source=inert(prov["source"], 160), fields=fields,
        ).strip()
        if tokens is None or estimate_tokens(card) <= tokens:
            return card
        while all(limits[k] <= floor for k in keys):
            try:
                keys, floor = next(phases)
            except StopIteration:
                return card
        for key in keys:
            limits[key] = max(limits[key] * 4 // 5, floor) if floor and limits[key] else 0


def note_for_reading(note: dict) -> str:
    """One note for a person (`lorebook show`): the card's lines at full length, the change as written,
    the evidence as its error lines, and where the full logs are."""
    prov = provenance_labels(provenance(note))
    out = [f"#{note['id']} {inert(note['title'], FULL_LIMITS['title'])}",
           f"{inert(note.get('kind') or 'note', 20)} · {prov['verified']} · recorded {prov['date']} by "
           f"{inert(prov['source'], 160)}", ""]
    for label, value in note_lines(note, FULL_LIMITS):
        if label == "Change" and "\n" in str(note.get("change") or "").strip():
            out.append("Change:")
            out += ["  " + inert(line, FULL_LIMITS["change"]) for line in str(note["change"]).strip().splitlines()
                    if line.strip()]
            continue
        out.append(f"{label}: {value}")
    evidence = [e for e in note.get("evidence") or [] if isinstance(e, dict) and not is_attempt(e)]
    if evidence:
        out.append("Evidence:")
        for item in evidence:
            source = inert(item.get("source"), 120)
            out.append(f"  - {inert(error_line(item.get('quote')), FULL_LIMITS['error'])}"
                       + (f" — {source}" if source else ""))
    if note.get("observation_ids"):
        out.append(f"Full logs: `{EVIDENCE_HINT.format(id=note['id'])}` (observations "
                   + ", ".join(str(i) for i in note["observation_ids"]) + ")")
    return "\n".join(out)


def observation_for_reading(observation: dict) -> str:
    """An observation as recorded (its full excerpt): what `lorebook show ID --evidence` prints."""
    head = (f"observation {observation['id']} · {inert(observation.get('tool'), 40)} "
            f"`{inert(observation.get('target'), 200)}` · {inert(observation.get('outcome'), 20)} · "
            f"{(observation.get('created_at') or '')[:19]}")
    body = observation.get("error_text") or observation.get("body") or observation.get("summary") or ""
    return "\n".join([head, *("  " + inert(line, 400) for line in str(body).splitlines())])


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
    footer = f"\nFetch any note in full with `lorebook show ID`, its logs with `{EVIDENCE_HINT.format(id='ID')}`."
    fixed = estimate_tokens(frame.format(body="") + heading + footer + INDEX_HEADER) + 8
    remaining = budget - fixed
    full, index, shown = [], [], []
    for position, note in enumerate(notes):
        if position < full_notes:
            placed = False
            for limits in (CARD_LIMITS, SHORT_LIMITS):  # a shorter card rather than no card at all
                block = full_note(note, reasons.get(note["id"]), limits)
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
