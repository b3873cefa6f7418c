"""Corpora: a named, filtered snapshot of memory that a model reads once and answers from.

A corpus is one JSON file, ``corpora/NAME.corpus.json`` in the user dir: its
filter (the whole definition: no implicit recency window), full snapshots of
the items it selected, their stats, the system prompt, and the id of the
``llm`` conversation it was primed into. ``prime`` has a model read it;
``query`` continues that conversation; ``rebuild`` re-runs the filter and
refuses to silently lose most of a corpus.

This module is registered as a lorebook plugin (its ``forget_item`` hook), so
it is imported on the hook path: only the standard library at module level.
Talking to models goes through :mod:`lorebook.llm_bridge`, the one module
that imports ``llm`` (imported only when a model is primed or queried).
"""
from __future__ import annotations

import json
import os
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from . import hookimpl
from .errors import LorebookError
from .files import write_json_atomic

FORMAT_VERSION = 1
DEFAULT_CORPUS_BUDGET = 100_000
SHRINK_MIN_ITEMS = 4
OBSERVATION_KIND = "observation"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")

Echo = Callable[[str], None]


class CorpusError(LorebookError):
    "A corpus cannot be built, read, primed or queried"


class CorpusNotFound(CorpusError):
    "No corpus has that name"


class CorpusExists(CorpusError):
    "A corpus with that name already exists"


class CorpusTooLarge(CorpusError):
    "The corpus is larger than the model's token budget"


class CorpusShrinkRefused(CorpusError):
    "A rebuild would lose half or more of the corpus"


class ConversationUnavailable(CorpusError):
    "The corpus's llm conversation cannot be resumed"


# --- files ----------------------------------------------------------------------

def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def corpora_dir(create: bool = True) -> Path:
    from .config import user_dir

    path = user_dir() / "corpora"
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


def check_name(name: str) -> str:
    if not _NAME.match(name or "") or name.endswith(".corpus"):
        raise CorpusError(
            f"{name!r} is not a usable corpus name: use letters, digits, '-', '_' or '.', "
            "starting with a letter or digit (at most 64 characters)."
        )
    return name


def corpus_path(name: str) -> Path:
    return corpora_dir() / f"{check_name(name)}.corpus.json"


def load_corpus(name: str) -> dict:
    path = corpus_path(name)
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        known = ", ".join(c["name"] for c in list_corpora()) or "none yet"
        raise CorpusNotFound(
            f"No corpus is named {name!r} (corpora: {known}). Build one with "
            f"'lorebook corpus build {name} --description \"…\" --query \"…\"'."
        ) from None
    try:
        corpus = json.loads(text)
    except ValueError as ex:
        raise CorpusError(f"{path} is not valid JSON ({ex}). Rebuild it or delete the file.") from ex
    if not isinstance(corpus, dict) or corpus.get("version") != FORMAT_VERSION:
        raise CorpusError(f"{path} is not a version-{FORMAT_VERSION} corpus file. Delete it and build it again.")
    return corpus


def save_corpus(corpus: dict) -> Path:
    path = corpus_path(corpus["name"])
    write_json_atomic(path, corpus)
    return path


def list_corpora() -> list[dict]:
    """Every corpus file, as dicts (unreadable files appear with an ``error``)."""
    found = []
    for path in sorted(corpora_dir().glob("*.corpus.json")):
        try:
            corpus = json.loads(path.read_text("utf-8"))
            if not isinstance(corpus, dict):
                raise ValueError("not an object")
        except (OSError, ValueError) as ex:
            found.append({"name": path.name[: -len(".corpus.json")], "error": str(ex), "path": str(path)})
            continue
        corpus["path"] = str(path)
        found.append(corpus)
    return found


def delete_corpus(name: str) -> None:
    path = corpus_path(name)
    if not path.exists():
        load_corpus(name)  # raises CorpusNotFound with the list of names
    path.unlink()


# --- the filter -----------------------------------------------------------------

def parse_date(value: str | None, option: str) -> str | None:
    """An ISO date or datetime, normalised to UTC ISO text (comparable with stored timestamps)."""
    if value is None or value == "":
        return None
    from .dates import parse_when

    try:
        return parse_when(value)
    except ValueError:
        raise CorpusError(f"{option} must be an ISO date like 2026-01-31 or 2026-01-31T09:00, not {value!r}.") from None


def make_filter(project: str | None = None, kinds: tuple | list = (), tags: tuple | list = (),
                files: tuple | list = (), query: str | None = None, since: str | None = None,
                until: str | None = None, limit: int | None = None) -> dict:
    """A corpus definition, validated; ``project`` is a project key (already resolved from a directory)."""
    from .store import NOTE_KINDS

    kinds = [k.strip().lower() for k in kinds if k and k.strip()]
    unknown = [k for k in kinds if k not in NOTE_KINDS and k != OBSERVATION_KIND]
    if unknown:
        raise CorpusError(f"Unknown kind {', '.join(unknown)}: use {', '.join(NOTE_KINDS)} or {OBSERVATION_KIND}.")
    if limit is not None and limit < 1:
        raise CorpusError("--limit must be at least 1.")
    since_iso, until_iso = parse_date(since, "--since"), parse_date(until, "--until")
    if since_iso and until_iso and since_iso >= until_iso:
        raise CorpusError(f"--since {since} is not before --until {until}: nothing could match.")
    return {
        "project": project or None,
        "kinds": kinds,
        "tags": [t.strip() for t in tags if t and t.strip()],
        "files": [f.strip() for f in files if f and f.strip()],
        "query": (query or "").strip() or None,
        "since": since_iso,
        "until": until_iso,
        "limit": limit,
    }


def describe_filter(flt: dict) -> str:
    parts = []
    if flt.get("project"):
        parts.append(f"project {flt['project']}")
    if flt.get("kinds"):
        parts.append("kind " + "|".join(flt["kinds"]))
    if flt.get("tags"):
        parts.append("tag " + "|".join(flt["tags"]))
    if flt.get("files"):
        parts.append("file " + "|".join(flt["files"]))
    if flt.get("query"):
        parts.append(f"query {flt['query']!r}")
    if flt.get("since"):
        parts.append(f"since {flt['since'][:10]}")
    if flt.get("until"):
        parts.append(f"until {flt['until'][:10]}")
    if flt.get("limit"):
        parts.append(f"limit {flt['limit']}")
    return ", ".join(parts) or "everything (no filter)"


def _file_matches(patterns: list[str], files: list) -> bool:
    for pattern in patterns:
        for path in files or []:
            path = str(path)
            if any(ch in pattern for ch in "*?["):
                import fnmatch

                if fnmatch.fnmatch(path, pattern) or fnmatch.fnmatch(os.path.basename(path), pattern):
                    return True
            elif path == pattern or path.endswith("/" + pattern.lstrip("/")) or pattern in path:
                return True
    return False


def _search_note_ids(store, query: str, limit: int | None, warnings: list[str]) -> list[int]:
    """Ids of active notes relevant to ``query`` in every project, best first (lorebook's hybrid search).

    A hit counts when recall would offer it (close in meaning, or sharing
    enough of the query's words); the corpus filter then decides projects,
    kinds and dates.
    """
    from .recall import is_relevant
    from .search import query_terms, search

    result = search(store, query, limit=max(limit or 0, 200), all_projects=True)
    warnings.extend(result["warnings"])
    terms = query_terms(query)
    return [hit["note"]["id"] for hit in result["hits"] if is_relevant(hit, terms)]


def select_items(store, flt: dict) -> tuple[list[dict], list[str]]:
    """The items a filter selects, as full snapshots (each with ``type``), and any warnings."""
    warnings: list[str] = []
    project_keys = store.project_keys_like(flt["project"]) if flt.get("project") else None
    kinds = flt.get("kinds") or []
    note_kinds = [k for k in kinds if k != OBSERVATION_KIND]
    want_notes = not kinds or bool(note_kinds)
    want_observations = OBSERVATION_KIND in kinds
    items: list[dict] = []
    if want_notes:
        ranked_ids = _search_note_ids(store, flt["query"], flt.get("limit"), warnings) if flt.get("query") else None
        notes = store.corpus_notes(project_keys, note_kinds or None, flt.get("since"), flt.get("until"),
                                   note_ids=ranked_ids)
        if ranked_ids is not None:
            order = {note_id: i for i, note_id in enumerate(ranked_ids)}
            notes.sort(key=lambda n: order.get(n["id"], len(order)))
        tags = {t.lower() for t in flt.get("tags") or []}
        for note in notes:
            if tags and not tags & {str(t).lower() for t in note.get("tags") or []}:
                continue
            if flt.get("files") and not _file_matches(flt["files"], note.get("files") or []):
                continue
            items.append(dict(note, type="note"))
    if want_observations:
        words = [w.lower() for w in (flt.get("query") or "").split()]
        for obs in store.corpus_observations(project_keys, flt.get("since"), flt.get("until")):
            if flt.get("files") and not _file_matches(flt["files"], obs.get("files") or []):
                continue
            if words:
                text = " ".join(str(obs.get(k) or "") for k in ("tool", "target", "summary", "error_text")).lower()
                if not any(w in text for w in words):
                    continue
            items.append(dict(obs, type="observation"))
    if flt.get("limit"):
        items = items[: flt["limit"]]
    return items, warnings


# --- rendering --------------------------------------------------------------------

def _template(name: str) -> str:
    from .render import template

    return template(name)


def _defuse(text: str) -> str:
    """Stop quoted evidence from closing the frames it sits in."""
    return re.sub(r"</(item|lorebook-)", r"<\\/\1", str(text))


def _quote(text: str) -> str:
    return "\n".join("> " + line for line in _defuse(text).strip().splitlines())


def _note_fields(note: dict) -> str:
    """The note's readable lines (the cause and fix first, the evidence as error lines), then what filters it."""
    from .render import FULL_LIMITS, inert, note_lines

    fields = list(note_lines(note, FULL_LIMITS))
    for label, value in (
        ("Scope", note.get("scope")),
        ("Files", ", ".join(map(str, note.get("files") or []))),
        ("Error signatures", ", ".join(map(str, note.get("error_signatures") or []))),
        ("Tags", ", ".join(map(str, note.get("tags") or []))),
    ):
        if value and str(value).strip():
            fields.append((label, inert(value, FULL_LIMITS["trigger"])))
    return "\n".join(f"{label}:\n{_quote(value)}" for label, value in fields)


def attr(value) -> str:
    """``value`` made safe inside a double-quoted attribute of a frame (kind="…", source="…")."""
    return str(value or "").replace('"', "'").replace("\n", " ")


def render_note(note: dict, template_name: str = "corpus_note.md", **extra) -> str:
    from .provenance import provenance, provenance_labels
    from .render import inert

    prov = provenance_labels(provenance(note))
    return _template(template_name).format(
        id=note["id"], kind=attr(note.get("kind") or "note"), verified=prov["verified"], date=prov["date"],
        source=attr(prov["source"]), project=attr(note.get("project_key") or "global"),
        title=_defuse(inert(note.get("title"), 200)), fields=_note_fields(note), **extra,
    ).strip()


def render_observation(obs: dict) -> str:
    fields = []
    for label, value in (("Target", obs.get("target")), ("Error", obs.get("error_text")),
                         ("Files", ", ".join(map(str, obs.get("files") or []))), ("Excerpt", obs.get("body"))):
        if value and str(value).strip():
            fields.append(f"{label}:\n{_quote(str(value))}")
    return _template("corpus_observation.md").format(
        id=obs["id"], tool=attr(obs.get("tool")), outcome=attr(obs.get("outcome")),
        date=(obs.get("created_at") or "")[:10], session=attr((obs.get("session_id") or "?")[:8]),
        project=attr(obs.get("project_key") or "none"), summary=_quote(obs.get("summary") or ""),
        fields="\n".join(fields),
    ).strip()


def render_item(item: dict) -> str:
    return render_observation(item) if item.get("type") == OBSERVATION_KIND else render_note(item)


def render_items(corpus: dict) -> str:
    """The corpus body: every item in full, framed, with its provenance."""
    return _template("corpus_body.md").format(
        name=attr(corpus["name"]), count=len(corpus["items"]), updated_at=corpus.get("updated_at", ""),
        items="\n\n".join(render_item(item) for item in corpus["items"]),
    ).strip()


def system_prompt(name: str, description: str) -> str:
    return _template("corpus_system.md").format(name=name, description=description).strip()


def prime_prompt(corpus: dict) -> str:
    """What the model reads when it is primed: the rendered corpus and the request to summarise its themes."""
    stats = corpus["stats"]
    first, last = stats.get("date_range") or [None, None]
    dates = f"{first[:10]} to {last[:10]}" if first and last else "at unknown dates"
    return _template("corpus_prime.md").format(
        name=corpus["name"], count=stats["count"], tokens=f"{stats['tokens']:,}", date_range=dates,
        corpus=render_items(corpus),
    ).strip()


def as_fragment_text(corpus: dict) -> str:
    """The corpus for ``llm -f corpus:NAME``: its system framing, then every item."""
    return corpus["system_prompt"] + "\n\n" + render_items(corpus)


def compute_stats(corpus: dict) -> dict:
    from .text import estimate_tokens

    items = corpus["items"]
    kinds: dict[str, int] = {}
    for item in items:
        key = OBSERVATION_KIND if item.get("type") == OBSERVATION_KIND else (item.get("kind") or "note")
        kinds[key] = kinds.get(key, 0) + 1
    dates = sorted(d for d in ((i.get("created_at") or "") for i in items) if d)
    return {
        "count": len(items),
        "tokens": estimate_tokens(corpus["system_prompt"]) + estimate_tokens(render_items(corpus)),
        "date_range": [dates[0], dates[-1]] if dates else [None, None],
        "kinds": dict(sorted(kinds.items())),
    }


# --- build and rebuild -----------------------------------------------------------

def build_corpus(store, name: str, description: str, flt: dict, replace: bool = False) -> tuple[dict, list[str]]:
    """Select the items, snapshot them into ``corpora/NAME.corpus.json``; (corpus, warnings)."""
    check_name(name)
    if not (description or "").strip():
        raise CorpusError("A corpus needs a --description: it tells the model what the corpus is for.")
    path = corpus_path(name)
    if path.exists() and not replace:
        raise CorpusExists(
            f"A corpus named {name!r} already exists ({path}). Use 'lorebook corpus rebuild {name}' to refresh it, "
            "or add --replace to redefine it."
        )
    items, warnings = select_items(store, flt)
    stamp = _now()
    corpus = {
        "version": FORMAT_VERSION,
        "name": name,
        "description": description.strip(),
        "created_at": stamp,
        "updated_at": stamp,
        "filter": flt,
        "stats": {},
        "system_prompt": system_prompt(name, description.strip()),
        "conversation_id": None,
        "model": None,
        "primed_at": None,
        "stale": None,
        "items": items,
    }
    corpus["stats"] = compute_stats(corpus)
    save_corpus(corpus)
    if not items:
        warnings.append(f"The filter ({describe_filter(flt)}) selected nothing: the corpus is empty.")
    return corpus, warnings


def _item_key(item: dict) -> tuple[str, int]:
    return (item.get("type") or "note", int(item["id"]))


def _shrink_causes(store, flt: dict, search_warnings: list[str]) -> list[str]:
    causes = []
    if flt.get("since") or flt.get("until"):
        causes.append(f"a date filter ({describe_filter({'since': flt.get('since'), 'until': flt.get('until')})}) "
                      "now excludes items, or their dates changed")
    if flt.get("project"):
        count = store.count_project_notes(flt["project"])
        causes.append(f"a renamed or moved project: {flt['project']!r} now has {count} active notes "
                      f"(if its notes now live under another key: lorebook project alias {flt['project']} --to NEW_KEY)")
    if flt.get("query"):
        detail = f" ({'; '.join(search_warnings)})" if search_warnings else ""
        causes.append(f"the search backend is down or degraded for --query {flt['query']!r}{detail}")
    causes.append("notes were superseded, marked stale or forgotten since the last build")
    return causes


def rebuild_corpus(store, name: str, force: bool = False) -> tuple[dict, dict]:
    """Re-run the stored filter; (corpus, report). Refuses a rebuild that keeps half or less of a corpus of >= 4 items."""
    corpus = load_corpus(name)
    old_keys = {_item_key(i) for i in corpus["items"]}
    items, warnings = select_items(store, corpus["filter"])
    new_keys = {_item_key(i) for i in items}
    kept = len(old_keys & new_keys)
    report = {"before": len(old_keys), "after": len(items), "kept": kept,
              "added": len(new_keys - old_keys), "removed": len(old_keys - new_keys), "warnings": warnings}
    if len(old_keys) >= SHRINK_MIN_ITEMS and kept * 2 <= len(old_keys) and not force:
        causes = _shrink_causes(store, corpus["filter"], warnings)
        raise CorpusShrinkRefused(
            f"Rebuilding {name!r} would keep only {kept} of its {len(old_keys)} items "
            f"(the filter now selects {len(items)}); the old file is kept.\n"
            "Likely causes:\n" + "\n".join(f"  - {c}" for c in causes) +
            f"\nCheck the filter ({describe_filter(corpus['filter'])}), or run "
            f"'lorebook corpus rebuild {name} --force' to accept the smaller corpus."
        )
    changed = old_keys != new_keys or any(
        old.get("updated_at") != new.get("updated_at")
        for old, new in zip(sorted(corpus["items"], key=_item_key), sorted(items, key=_item_key))
    )
    corpus["items"] = items
    corpus["stats"] = compute_stats(corpus)
    if changed:
        corpus["updated_at"] = _now()
        if corpus.get("conversation_id"):
            previous = corpus.get("stale") or {}
            reason = f"rebuilt: +{report['added']} −{report['removed']} items"
            corpus["stale"] = {"reason": "; ".join(r for r in [previous.get("reason"), reason] if r),
                               "forgotten": bool(previous.get("forgotten")), "at": corpus["updated_at"]}
    save_corpus(corpus)
    report["changed"] = changed
    return corpus, report


# --- state ---------------------------------------------------------------------------

def corpus_state(corpus: dict) -> str:
    """``not primed``, ``primed``, or ``stale`` (the snapshot changed after the conversation was primed)."""
    if not corpus.get("conversation_id"):
        return "not primed"
    if corpus.get("stale") or (corpus.get("updated_at") or "") > (corpus.get("primed_at") or ""):
        return "stale"
    return "primed"


def summary(corpus: dict) -> dict:
    """What ``corpus list`` shows for one corpus."""
    if "error" in corpus:
        return {"name": corpus["name"], "error": corpus["error"], "path": corpus.get("path")}
    state = corpus_state(corpus)
    return {
        "name": corpus["name"],
        "description": corpus.get("description"),
        "count": corpus["stats"]["count"],
        "tokens": corpus["stats"]["tokens"],
        "kinds": corpus["stats"].get("kinds", {}),
        "date_range": corpus["stats"].get("date_range"),
        "updated_at": corpus.get("updated_at"),
        "primed": bool(corpus.get("conversation_id")),
        "primed_at": corpus.get("primed_at"),
        "model": corpus.get("model"),
        "conversation_id": corpus.get("conversation_id"),
        "snapshot_newer_than_conversation": state == "stale",
        "stale_reason": (corpus.get("stale") or {}).get("reason") if state == "stale" else None,
        "filter": describe_filter(corpus.get("filter") or {}),
        "path": corpus.get("path"),
    }


# --- priming and querying (through llm) -------------------------------------------

def corpus_budget(model_id: str) -> int:
    """The token budget for a prime with ``model_id``: config ``corpus_budgets[model]``, else
    ``LOREBOOK_CORPUS_BUDGET``, else config ``corpus_budget``, else 100,000."""
    from .config import load_config

    config = load_config()
    per_model = config.get("corpus_budgets") or {}
    if isinstance(per_model, dict) and model_id in per_model:
        return int(per_model[model_id])
    env = os.environ.get("LOREBOOK_CORPUS_BUDGET")
    if env:
        try:
            return int(env)
        except ValueError:
            raise CorpusError(f"LOREBOOK_CORPUS_BUDGET must be a whole number of tokens, not {env!r}.") from None
    return int(config.get("corpus_budget") or DEFAULT_CORPUS_BUDGET)


def prime_corpus(name: str, model_id: str | None = None, echo: Echo | None = None,
                 status: Echo | None = None) -> dict:
    """Have a model (no tools) read the corpus; store the llm conversation id in the corpus file.

    ``echo`` receives the model's reply as it streams; ``status`` progress lines.
    """
    from . import llm_bridge
    from .text import estimate_tokens

    status = status or (lambda _: None)
    corpus = load_corpus(name)
    try:
        model_id = llm_bridge.resolve_model_id(model_id or corpus.get("model") or os.environ.get("LOREBOOK_MODEL"))
    except llm_bridge.UnknownModel as ex:
        raise CorpusError(f"{ex}. List models with 'llm models'.") from None
    system = corpus["system_prompt"]
    prompt = prime_prompt(corpus)
    tokens = estimate_tokens(system) + estimate_tokens(prompt)
    budget = corpus_budget(model_id)
    if tokens > budget:
        raise CorpusTooLarge(
            f"Corpus {name!r} is about {tokens:,} tokens; the budget for {model_id} is {budget:,} tokens. "
            f"Narrow it (--limit, --since, --kind, --query) with 'lorebook corpus build {name} --replace …', "
            f"or raise the budget: \"corpus_budgets\": {{\"{model_id}\": N}} in config.json, "
            "or LOREBOOK_CORPUS_BUDGET."
        )
    if not corpus["items"]:
        status(f"Warning: corpus {name!r} is empty; the model will have nothing to answer from.")
    status(f"Priming {name!r} with {model_id}: {corpus['stats']['count']} items, ~{tokens:,} tokens "
           f"(budget {budget:,})…")
    started = _now()
    snapshot_at = corpus["updated_at"]
    try:
        result = llm_bridge.prime_conversation(model_id, system, prompt, echo=echo, status=status)
    except llm_bridge.ModelFailed as ex:
        raise CorpusError(f"{ex.model_id} failed while reading the corpus: {ex.reason}") from ex
    corpus = load_corpus(name)  # re-read: a forget or rebuild may have landed while the model was reading
    changed_meanwhile = corpus["updated_at"] != snapshot_at
    corpus.update(conversation_id=result["conversation_id"], model=result["model"],
                  primed_at=snapshot_at if changed_meanwhile else max(started, snapshot_at))
    if not changed_meanwhile:
        corpus["stale"] = None
    save_corpus(corpus)
    if echo:
        echo("\n")
    status(f"Primed in {result['seconds']:g} s. Continue with: lorebook corpus query {name} \"…\"  (or llm -c --cid {result['conversation_id']})")
    return dict(result, tokens=tokens, budget=budget)


def reprime_corpus(name: str, model_id: str | None = None, echo: Echo | None = None,
                   status: Echo | None = None) -> dict:
    """Forget the corpus's conversation and prime a new one."""
    corpus = load_corpus(name)
    old = corpus.get("conversation_id")
    corpus.update(conversation_id=None, primed_at=None, stale=None)
    save_corpus(corpus)
    if old and status:
        status(f"Dropped conversation {old} (it stays in llm's logs).")
    return prime_corpus(name, model_id, echo=echo, status=status)


def query_corpus(name: str, question: str, echo: Echo | None = None, status: Echo | None = None) -> dict:
    """Ask the primed conversation ``question``; prime (again) first when it cannot be resumed, and say so."""

    status = status or (lambda _: None)
    if not (question or "").strip():
        raise CorpusError("Ask a question: lorebook corpus query NAME \"question\".")
    corpus = load_corpus(name)
    reprimed = None
    if not corpus.get("conversation_id"):
        reprimed = "it was never primed"
    elif (corpus.get("stale") or {}).get("forgotten"):
        reprimed = f"its conversation still holds forgotten items ({corpus['stale']['reason']})"
    if reprimed is None:
        if corpus_state(corpus) == "stale":
            status(f"Note: the snapshot of {name!r} is newer than its primed conversation "
                   f"({(corpus.get('stale') or {}).get('reason') or 'rebuilt since'}); "
                   f"run 'lorebook corpus reprime {name}' to refresh it.")
        try:
            return dict(continue_conversation(corpus["conversation_id"], question, echo=echo), reprimed=None)
        except ConversationUnavailable as ex:
            reprimed = f"its conversation cannot be resumed: {ex}"
    status(f"Priming {name!r} again because {reprimed}.")
    primed = reprime_corpus(name, echo=None, status=status)
    result = continue_conversation(primed["conversation_id"], question, echo=echo)
    return dict(result, reprimed=reprimed)


def continue_conversation(conversation_id: str, question: str, echo: Echo | None = None) -> dict:
    """Ask ``question`` in llm's logged conversation: ConversationUnavailable when it cannot be resumed."""
    from . import llm_bridge

    try:
        return llm_bridge.continue_conversation(conversation_id, question, echo=echo)
    except llm_bridge.ConversationNotFound as ex:
        raise ConversationUnavailable(str(ex)) from None
    except llm_bridge.ModelFailed as ex:
        raise CorpusError(str(ex)) from ex


# --- forgetting (lorebook hook) -------------------------------------------------------

@hookimpl
def forget_item(kind: str, item_id: int, store) -> None:
    """Remove the item from every corpus snapshot; a primed conversation that read it is marked stale."""
    item_type = OBSERVATION_KIND if kind == OBSERVATION_KIND else "note"
    key = (item_type, int(item_id))
    try:
        directory = corpora_dir(create=False)
    except LorebookError:
        return
    if not directory.is_dir():
        return
    label = f"obs:{item_id}" if item_type == OBSERVATION_KIND else f"note #{item_id}"
    for path in sorted(directory.glob("*.corpus.json")):
        try:
            corpus = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            continue
        items = corpus.get("items") or []
        kept = [i for i in items if _item_key(i) != key]
        if len(kept) == len(items):
            continue
        corpus["items"] = kept
        corpus["stats"] = compute_stats(corpus)
        corpus["updated_at"] = _now()
        if corpus.get("conversation_id"):
            previous = corpus.get("stale") or {}
            reasons = [r for r in [previous.get("reason"), f"{label} was forgotten"] if r]
            corpus["stale"] = {"reason": "; ".join(reasons), "forgotten": True, "at": corpus["updated_at"]}
        write_json_atomic(path, corpus)
