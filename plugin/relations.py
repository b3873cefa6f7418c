"""How lessons relate: near-duplicates, contradictions, and a note's lifecycle.

Similarity is lexical (weighted tokens, with identifiers, error signatures and
files counting most) fused with vector cosine when an embedding model is
available. The thresholds were chosen on ``bench/data/dedupe_pairs.json``
(``python bench/dedupe.py`` prints precision and recall). Relation kinds:
supersedes, similar_to, contradicts, derived_from, resolved_by.
"""
from __future__ import annotations

import re
from typing import Sequence

from .quality import LazyRegex

RELATION_KINDS = ("supersedes", "similar_to", "contradicts", "derived_from", "resolved_by")

# Chosen on bench/data/dedupe_pairs.json (see bench/dedupe.py); lexical is what the Stop hook uses
MERGE_THRESHOLD_LEXICAL = 0.32
MERGE_THRESHOLD_HYBRID = 0.55
RELATED_THRESHOLD = 0.22       # below this, two notes are unrelated
RECALLED_FACTOR = 0.8          # a restatement of a note recalled into the session merges more readily
VECTOR_WEIGHT = 0.5

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
    r"(?ix)\b(?:do\s*n[o']t|don't|never|avoid)\s+(?:\w+\s+){0,2}?(?:add|use|run|set|raise|increase|decrease|"
    r"create|switch|force|migrate|stringify|install|whitelist|trust|pin|unpin|upgrade|downgrade|copy|merge|"
    r"change|remove|relock|bump|disable|enable)\w*"
    r"|\b(?:did|does|do|would|will)\s*(?:not|n't)\s+(?:help|fix|work|matter|stop|solve|change|speed)\w*"
    r"|\b(?:didn't|doesn't|won't)\s+(?:help|fix|work|matter|stop|solve)\w*"
    r"|\bmade\s+no\s+difference\b|\bno\s+effect\b|\bred\s+herring\b|\bwrong\s+fix\b"
    r"|\b(?:is|was|are|were)\s+the\s+wrong\b|\b(?:is|was)\s+not\s+(?:the\s+)?(?:fix|cause|problem|issue|about|"
    r"a\s+missing)\b|\bnot\s+(?:about|the\s+(?:fix|cause))\b|\bcannot\s+help\b|\bis\s+not\s+the\s+fix\b"
    r"|\b(?:is|are)\s+fine\b|\bonly\s+a\s+warning\b|\bstill\s+(?:exceeded|failed|fails|deadlocked|timed\s+out)\b"
    r"|\bdid\s+not\s+(?:help|fix|stop)\b|\bnot\s+yet\b"
    r"|不要|无效|没有用")
_OPPOSITES = [("increase", "decrease"), ("enable", "disable"), ("upgrade", "downgrade"), ("pin", "unpin"),
              ("allow", "deny")]
_ASSIGNMENT = LazyRegex(r"([A-Za-z_][\w.\-]*)\s*(==|>=|<=|~=|=)\s*([\w.\-]+)")
_WORD = LazyRegex(r"[A-Za-z_][A-Za-z0-9_]*(?:[.\-/][A-Za-z0-9_]+)*|\d+(?:\.\d+)+|[\u3400-\u9fff\uac00-\ud7a3]")


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _is_identifier(raw: str) -> bool:
    return bool(re.search(r"[._/\-\d]", raw) or (re.search(r"[a-z][A-Z]", raw)) or raw.isupper() and len(raw) > 2)


def tokens(text: str) -> dict[str, float]:
    """Weighted tokens: identifiers (dotted, snake_case, camelCase, versions) 3, words 1, common coding words 0.3."""
    weights: dict[str, float] = {}
    for raw in _WORD.findall(text or ""):
        parts = [raw]
        if _is_identifier(raw) and len(raw) > 2:
            parts += [p for p in re.split(r"[._/\-]", raw) if len(p) > 2]  # `yaml.safe_load` also matches `yaml`
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
            weights[key] = max(weights.get(key, 0.0), weight)
    return weights


def note_text(note: dict) -> str:
    """The text two notes are compared on."""
    parts = [note.get("title"), note.get("summary"), note.get("trigger"), note.get("change")]
    parts += list(note.get("error_signatures") or [])
    return "\n".join(str(p) for p in parts if p)


def lexical_similarity(a: dict, b: dict) -> float:
    """Weighted Jaccard of the two notes' tokens, nudged by shared error signatures and files."""
    ta, tb = tokens(note_text(a)), tokens(note_text(b))
    if not ta or not tb:
        return 0.0
    keys = set(ta) | set(tb)
    num = sum(min(ta.get(k, 0.0), tb.get(k, 0.0)) for k in keys)
    den = sum(max(ta.get(k, 0.0), tb.get(k, 0.0)) for k in keys)
    score = num / den if den else 0.0
    sa = {_signature_key(s) for s in a.get("error_signatures") or [] if s}
    sb = {_signature_key(s) for s in b.get("error_signatures") or [] if s}
    if sa and sb:
        score += 0.15 if sa & sb else -0.1
    fa = {str(f).rsplit("/", 1)[-1] for f in a.get("files") or []}
    fb = {str(f).rsplit("/", 1)[-1] for f in b.get("files") or []}
    if fa and fb and fa & fb:
        score += 0.05
    return max(0.0, min(1.0, score))


def _signature_key(signature: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<\w+>|['\"`]", "", str(signature))).strip().lower()


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


def _value_conflict(a: str, b: str) -> bool:
    """Both set the same name to different values (``requests==2.31`` vs ``requests==2.28``, ``timeout=5`` vs 30)."""
    va: dict[str, set] = {}
    for name, _, value in _ASSIGNMENT.findall(a):
        va.setdefault(name.lower(), set()).add(value.lower().rstrip(".-"))
    for name, _, value in _ASSIGNMENT.findall(b):
        values = va.get(name.lower())
        if values and value.lower().rstrip(".-") not in values:
            return True
    return False


def contradicts(a: dict, b: dict) -> bool:
    """Two notes on one topic whose conclusions disagree: one rejects a remedy, opposite verbs, or different values."""
    ca = " ".join(str(a.get(f) or "") for f in ("title", "summary", "change"))
    cb = " ".join(str(b.get(f) or "") for f in ("title", "summary", "change"))
    if _value_conflict(ca, cb):
        return True
    ra, rb = bool(_REJECTION.search(ca)), bool(_REJECTION.search(cb))
    if ra != rb:
        return True
    wa = {_stem(w.lower()) for w in _WORD.findall(ca)}
    wb = {_stem(w.lower()) for w in _WORD.findall(cb)}
    for x, y in _OPPOSITES:
        if (x in wa and y in wb and y not in wa) or (y in wa and x in wb and x not in wa):
            return True
    return False


def compare(a: dict, b: dict, cosine: float | None = None, recalled: bool = False) -> dict:
    """How note ``a`` relates to ``b``: {"relation": "duplicate"|"contradicts"|"related"|"unrelated", "score"}."""
    lexical = lexical_similarity(a, b)
    score = fused(lexical, cosine)
    threshold = MERGE_THRESHOLD_HYBRID if cosine is not None else MERGE_THRESHOLD_LEXICAL
    related = RELATED_THRESHOLD
    if recalled:
        threshold *= RECALLED_FACTOR
    if score < related:
        return {"relation": "unrelated", "score": score, "lexical": lexical, "cosine": cosine}
    if contradicts(a, b):
        return {"relation": "contradicts", "score": score, "lexical": lexical, "cosine": cosine}
    if score >= threshold:
        return {"relation": "duplicate", "score": score, "lexical": lexical, "cosine": cosine}
    return {"relation": "related", "score": score, "lexical": lexical, "cosine": cosine}


def _vector_neighbour_ids(store, text: str, k: int) -> list[int]:
    try:
        from .vectors import semantic_search

        return [note_id for note_id, _score in semantic_search(store, text, k=k)]
    except Exception:  # no index yet, another model, no embedding model: lexical neighbours only
        return []


def closest_notes(store, candidate: dict, *, use_vectors: bool, recalled_ids: set[int] = frozenset(),
                  limit: int = 25) -> list[dict]:
    """The existing notes nearest to ``candidate``, each with its comparison, most similar first."""
    neighbours = store.similar_note_candidates(note_text(candidate), candidate.get("project_key"), limit=limit)
    if use_vectors:  # a paraphrase may share few words: ask the vector index for its nearest notes too
        for note_id in _vector_neighbour_ids(store, note_text(candidate), limit):
            if not any(n["id"] == note_id for n in neighbours):
                try:
                    note = store.get_note(note_id)
                except Exception:
                    continue
                if note["status"] == "active" and (note["scope"] == "global"
                                                   or note["project_key"] == candidate.get("project_key")):
                    neighbours.append(note)
    for note_id in recalled_ids:  # a recalled note is always compared, even if bm25 missed it
        if not any(n["id"] == note_id for n in neighbours):
            try:
                note = store.get_note(note_id)
            except Exception:
                continue
            if note["status"] == "active":
                neighbours.append(note)
    if not neighbours:
        return []
    cosines = vector_similarities([note_text(candidate)] * len(neighbours),
                                  [note_text(n) for n in neighbours]) if use_vectors else None
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
