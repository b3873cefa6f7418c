"""Hybrid search over notes: FTS5 bm25 fused with vector similarity, filtered and boosted.

Any raw text is a safe query: it is cut into words, every word quoted, and
the words OR-ed, so a query is a bag of terms (``retry backoff`` finds
"retries with exponential backoff": notes_fts stems with porter), never one
exact phrase and never FTS5 syntax. Lexical and semantic scores are fused
score-aware (each normalised by the best score of its list, then weighted),
not by rank alone: a weak keyword match stays weak next to a strong one.

When the vector side cannot answer (model broken, nothing indexed, no fast
index), the search answers lexically and says so in ``warnings``, so that a
caller can tell "nothing relevant" (no hits, no warning) from "retrieval
failed" (warning). Nothing here imports numpy unless vectors are used: the
hook path imports this module.
"""
from __future__ import annotations

import math
import re
import time
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Sequence

from .provenance import provenance

# bm25 column weights for notes_fts: title, summary, trigger, evidence, change, tags, files, error_signatures
FTS_WEIGHTS = (2.0, 1.5, 1.5, 1.0, 1.0, 2.0, 1.5, 2.0)
LEXICAL_WEIGHT = 1.0
# tuned on bench/locomo.py: meaning refines keyword ranking more than it replaces it
SEMANTIC_WEIGHT = 0.45
# cosine similarity below this is noise for MiniLM-sized models: it neither ranks nor counts as a match
MIN_SIMILARITY = 0.1
# how much a note gains from the best-scoring other note of the session it was recorded in
SESSION_CONTEXT_WEIGHT = 0.3
BOOST_SAME_PROJECT = 0.10
BOOST_FILES = 0.30
BOOST_VERIFIED = 0.10
BOOST_RECENCY = 0.10      # at most, for a note updated today; halves every RECENCY_HALF_LIFE_DAYS
RECENCY_HALF_LIFE_DAYS = 90.0

MODES = ("hybrid", "lexical")
NOT_INDEXED = "no note has been embedded yet: run `lorebook index`"

STOPWORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being below between
both but by can could did do does doing down during each few for from further had has have having he her here
hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off
on once only or other our ours ourselves out over own same she should so some such than that the their theirs
them themselves then there these they this those through to too under until up very was we were what when where
which while who whom why will with would you your yours yourself yourselves
""".split())

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
MAX_QUERY_TERMS = 64


def query_terms(text: str, keep_stopwords: bool = False) -> list[str]:
    """The distinct words of ``text``, lowercased, stopwords dropped unless nothing else is left."""
    words = [w.lower() for w in _WORD.findall(text or "")]
    kept = words if keep_stopwords else [w for w in words if w not in STOPWORDS]
    return list(dict.fromkeys(kept or words))[:MAX_QUERY_TERMS]


# an identifier: word parts joined by _ . - / : @ with no space (ACME_DIST_LIMIT_1, yaml.safe_load, src/app.py)
_IDENTIFIER = re.compile(r"\w+(?:[.\-/:@]\w+)*", re.UNICODE)
MAX_QUERY_PHRASES = 8


def identifier_phrases(text: str) -> list[str]:
    """The identifiers of ``text`` that FTS5 splits into several words, each as the phrase of its words.

    notes_fts splits ``ACME_DIST_LIMIT_1`` into acme, dist, limit, 1, so its words alone match
    ``ACME_DIST_LIMIT_11`` as well; the phrase "acme dist limit 1" matches only a note that holds the
    identifier itself, which its extra bm25 weight then ranks first."""
    phrases = []
    for token in _IDENTIFIER.findall(text or ""):
        words = [w.lower() for w in _WORD.findall(token)]
        if len(words) > 1:
            phrases.append(" ".join(words))
    return list(dict.fromkeys(phrases))[:MAX_QUERY_PHRASES]


def fts_match(terms: Sequence[str], phrases: Sequence[str] = ()) -> str:
    """An FTS5 expression matching any of ``terms`` or ``phrases``, each quoted (no operator in the text
    survives; a quoted string of several words is an FTS5 phrase)."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in [*terms, *phrases])


def _age_days(note: dict, now: datetime) -> float | None:
    stamp = note.get("updated_at") or note.get("created_at")
    if not stamp:
        return None
    try:
        when = datetime.fromisoformat(str(stamp).replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max((now - when).total_seconds() / 86400.0, 0.0)


def _path_matches(note_file: str, wanted: str) -> bool:
    note_file, wanted = note_file.strip(), wanted.strip()
    if not note_file or not wanted:
        return False
    return note_file == wanted or note_file.endswith("/" + wanted) or wanted.endswith("/" + note_file)


def _matched_terms(note: dict, terms: Sequence[str]) -> list[str]:
    """The query words a note contains (prefix match, so "retry" counts for "retries")."""
    import bisect

    text = " ".join(str(note.get(f) or "") for f in (
        "title", "summary", "trigger", "evidence", "change", "tags", "files", "error_signatures")).lower()
    words = sorted(set(_WORD.findall(text)))
    found = []
    for term in terms:
        stem = term[: max(4, len(term) - 3)] if len(term) > 4 else term
        position = bisect.bisect_left(words, stem)
        if position < len(words) and words[position].startswith(stem):
            found.append(term)
    return found


def semantic_candidates(store, query: str, k: int, candidate_ids: list[int] | None = None,
                        query_vector=None, embed_query: Callable[[str], Any] | None = None,
                        remote_top_k: Callable[..., Any] | None = None, local_fallback: bool = False
                        ) -> tuple[list[tuple[int, float]] | None, str | None]:
    """(note id, cosine) pairs from the vector index, or (None, why) when semantic search is unavailable.

    ``remote_top_k(text, k, candidate_ids)`` ranks in another process (the warm
    embedding server: no numpy here); it returns None when it cannot answer in time,
    and then ``local_fallback`` loads the model in this process instead.
    """
    try:
        from . import vectors
        from .embeddings import embedding_model_id
    except ImportError as ex:
        return None, f"vector search is not available in this install ({ex})"
    try:
        info = store.vector_collection(vectors.COLLECTION)
        if info is None:
            return None, NOT_INDEXED
        if remote_top_k is not None and query_vector is None:
            found = remote_top_k(query, k, candidate_ids)
            if found is not None:
                return list(found), None
            if not local_fallback:
                return None, "the warm embedding server did not answer in time (it starts for the next prompt)"
        if query_vector is None and embed_query is not None:
            query_vector = embed_query(query)
            if query_vector is None:
                return None, "the embedding model did not answer in time"
        if query_vector is None:
            return vectors.semantic_search(store, query, k, candidate_ids=candidate_ids), None
        if info["model"] != embedding_model_id():
            return None, (f"the notes were embedded with {info['model']}, not with the configured "
                          f"{embedding_model_id()}: run `lorebook index`")
        return vectors.vector_top_k(store, query_vector, k, candidate_ids=candidate_ids), None
    except Exception as ex:  # EmbeddingUnavailable, a broken plugin, a damaged cache: degrade, and say why
        return None, f"{type(ex).__name__}: {ex}"


def search(store, query: str, *, limit: int = 10, project_key: str | None = None,
           include_global: bool = True, include_project: bool = True, all_projects: bool = False,
           kind: str | None = None, kinds: Iterable[str] | None = None, tags: Iterable[str] | None = None,
           files: Iterable[str] | None = None, since: str | None = None, until: str | None = None,
           statuses: Iterable[str] | None = None, touching: Iterable[str] | None = None,
           semantic: bool = True, query_vector=None, embed_query: Callable[[str], Any] | None = None,
           remote_top_k: Callable[..., Any] | None = None, local_fallback: bool = False,
           exclude_ids: Iterable[int] | None = None, session_context: float = SESSION_CONTEXT_WEIGHT,
           fts_weights: Sequence[float] = FTS_WEIGHTS, lexical_weight: float = LEXICAL_WEIGHT,
           semantic_weight: float = SEMANTIC_WEIGHT, min_similarity: float = MIN_SIMILARITY,
           depth: int = 100) -> dict:
    """Find notes for ``query`` (any raw text). Returns ``{"query", "mode", "warnings", "hits"}``.

    Each hit is ``{"note", "score", "why", "lexical", "semantic", "matched_terms", "provenance"}``,
    best first. ``degraded`` is true when semantic search was wanted but unavailable (see warnings).
    Scope: the notes of ``project_key`` (and its aliases) plus global notes;
    ``all_projects`` searches every project. ``statuses`` defaults to active
    only: superseded, stale and forgotten notes come back only when asked for.
    ``files`` filters (a note must name one of them); ``touching`` boosts
    notes about files being worked on. ``semantic=False`` skips vectors on
    purpose (no warning); ``embed_query`` embeds the query (return None when
    it could not in time) instead of loading the model in this process.
    """
    started = time.perf_counter()
    warnings: list[str] = []
    keys = store.project_keys_like(project_key) if project_key else []
    kind_list = list(kinds or []) + ([kind] if kind else [])
    filters = {
        "project_keys": keys, "include_global": include_global, "include_project": include_project,
        "all_projects": all_projects, "kinds": kind_list, "tags": list(tags or []), "files": list(files or []),
        "since": since, "until": until, "statuses": tuple(statuses or ("active",)),
    }
    exclude = set(exclude_ids or ())
    terms = query_terms(query)
    depth = max(depth, limit * 3)

    lexical: dict[int, float] = {}
    if terms:
        for note_id, score in store.search_notes_fts(fts_match(terms, identifier_phrases(query)), fts_weights,
                                                     filters, depth):
            if note_id not in exclude:
                lexical[note_id] = max(score, 0.0)

    vector: dict[int, float] = {}
    mode = "lexical"
    degraded = False
    if semantic and (query or "").strip():
        narrowed = any(filters[f] for f in ("kinds", "tags", "files", "since", "until")) or (
            not all_projects and not include_global)
        candidates = store.candidate_note_ids(filters) if narrowed else None
        found, problem = (None, None)
        if candidates == []:
            found = []
        else:
            found, problem = semantic_candidates(store, query, depth * 3, candidates, query_vector, embed_query,
                                                 remote_top_k, local_fallback)
        if found is None and problem == NOT_INDEXED and not store.unindexed_note_count(filters):
            found = []  # nothing in scope at all: nothing was missed
        if found is None:
            warnings.append(f"Semantic search unavailable ({problem}): these results are keyword matches only.")
            degraded = True
        else:
            allowed = store.filter_note_ids([i for i, _ in found], filters) if candidates is None else None
            for note_id, cosine in found:
                if note_id in exclude or (allowed is not None and note_id not in allowed):
                    continue
                if cosine >= min_similarity:
                    vector[note_id] = float(cosine)
            mode = "hybrid"
            pending = store.unindexed_note_count(filters)
            if pending:
                warnings.append(f"{pending} note(s) in scope are not embedded yet (run `lorebook index`): "
                                "they were searched by keywords only.")

    ids = set(lexical) | set(vector)
    if not ids:
        return {"query": query, "mode": mode, "degraded": degraded, "warnings": warnings, "hits": [],
                "took_ms": round((time.perf_counter() - started) * 1000, 1)}

    best_lex = max(lexical.values(), default=0.0) or 1.0
    best_vec = max(vector.values(), default=0.0)
    base: dict[int, float] = {}
    for note_id in ids:
        lex = lexical.get(note_id, 0.0) / best_lex
        vec = 0.0
        if note_id in vector and best_vec > min_similarity:
            vec = (vector[note_id] - min_similarity) / (best_vec - min_similarity)
        base[note_id] = lexical_weight * lex + semantic_weight * vec

    # notes recorded in the same session share context: a note whose session-mates match gains a little
    touching = [t for t in (touching or []) if t]
    rows = store.note_rank_fields(ids, with_files=bool(touching))
    context: dict[int, float] = {}
    if session_context:
        by_group: dict[str, list[float]] = {}
        for note_id, row in rows.items():
            if row.get("session_id"):
                by_group.setdefault(row["session_id"], []).append(base[note_id])
        for scores in by_group.values():
            scores.sort(reverse=True)
        for note_id, row in rows.items():
            scores = by_group.get(row.get("session_id") or "", [])
            if len(scores) > 1:  # the best score among the *other* notes of the session
                context[note_id] = scores[1] if base[note_id] >= scores[0] else scores[0]

    now = datetime.now(timezone.utc)
    recency: dict[str, float] = {}  # by timestamp: notes written together share one
    ranked = []
    for note_id, row in rows.items():
        why = []
        score = base[note_id] + session_context * context.get(note_id, 0.0)
        factor = 1.0
        if project_key and row.get("project_key") in keys and row.get("scope") == "project":
            factor += BOOST_SAME_PROJECT
            why.append("this project")
        if touching:
            hit_files = [f for f in (row.get("files") or []) if isinstance(f, str)
                         and any(_path_matches(f, t) for t in touching)]
            if hit_files:
                factor += BOOST_FILES
                why.append("files: " + ", ".join(hit_files[:3]))
        if row.get("verified"):
            factor += BOOST_VERIFIED
            why.append("verified")
        stamp = row.get("updated_at") or row.get("created_at") or ""
        if stamp not in recency:
            age = _age_days(row, now)
            recency[stamp] = 0.0 if age is None else BOOST_RECENCY * math.pow(0.5, age / RECENCY_HALF_LIFE_DAYS)
        factor += recency[stamp]
        if row.get("status") != "active":
            why.append(f"status: {row.get('status')}")
        ranked.append((score * factor, note_id, why))
    ranked.sort(key=lambda r: (-r[0], -r[1]))
    ranked = ranked[:limit]
    notes = store.get_notes([note_id for _, note_id, _ in ranked])
    hits = []
    for final, note_id, boosts in ranked:
        note = notes.get(note_id)
        if note is None:
            continue
        matched = _matched_terms(note, terms) if note_id in lexical else []
        why = []
        if note_id in lexical:
            why.append("words: " + ", ".join(matched) if matched else "keyword match")
        if note_id in vector:
            why.append(f"meaning: similarity {vector[note_id]:.2f}")
        if context.get(note_id):
            why.append("related notes from the same session match")
        hits.append({"note": note, "score": round(final, 6), "why": why + boosts,
                     "lexical": round(lexical[note_id], 4) if note_id in lexical else None,
                     "semantic": round(vector[note_id], 4) if note_id in vector else None,
                     "matched_terms": matched, "query_terms": len(terms),
                     "provenance": provenance(note)})
    return {"query": query, "mode": mode, "degraded": degraded, "warnings": warnings, "hits": hits,
            "took_ms": round((time.perf_counter() - started) * 1000, 1)}
