"""Retrieval quality on LoCoMo, through lorebook's own store, index and search.

    python bench/locomo.py --data ../shared/bench/locomo-dev.json
    python bench/locomo.py --data FILE --lexical        # keywords only (no vectors)
    python bench/locomo.py --data FILE --no-cache       # rebuild the store and its vectors

Every dialogue turn becomes one lorebook note (``Store.add_note``): its
title is ``"<speaker>: <text>"`` (plus ``[image: <caption>]``), its evidence
quotes the neighbouring turns and the session date (context from
neighbouring items: bm25 sees it at half the title's weight, the embedding
does not), its tag is the speaker, its session id the conversation's
session. Each conversation is one project: a question searches only its own
conversation through scope, as recall does. Vectors are made by ``lorebook
index`` (``vectors.index_notes``, the offline default model unless
LOREBOOK_EMBED_MODEL says otherwise); each question is answered by
``lorebook.search.search`` (FTS5 bm25 fused with cosine, same-session
context), and the query embedding is timed as part of the query.

The built store is cached (keyed by the data file, this script's ingestion
and the model) under ``$XDG_CACHE_HOME/lorebook-bench`` so that reruns skip
the embedding. Metrics follow ../shared/bench/README.md: turn_any@k,
turn_all@k, turn_frac@k, sess_any@k, on categories 1-4 (headline) and per
category; ms per query is the median wall time of one search (query
embedding included), beside its CPU time (wall time on a loaded machine
mostly measures waiting for a CPU) and the load average. A baseline is
measured in the same run: plain bm25 over the turn text alone (FTS5,
stopwords removed, no fusion, no context). JSON on the last line.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

INGEST_VERSION = "3"
HEADLINE_CATEGORIES = (1, 2, 3, 4)


def turn_text(turn: dict) -> str:
    text = f"{turn['speaker']}: {turn['text']}"
    if turn.get("blip_caption"):
        text += f" [image: {turn['blip_caption']}]"
    return text


def session_keys(conversation: dict) -> list[str]:
    keys = [k for k in conversation if re.fullmatch(r"session_\d+", k)]
    return sorted(keys, key=lambda k: int(k.split("_")[1]))


def parse_date(text: str | None) -> str | None:
    """'1:56 pm on 8 May, 2023' -> an ISO timestamp (the note's created_at)."""
    if not text:
        return None
    for fmt in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y"):
        try:
            return datetime.strptime(text.strip(), fmt).replace(tzinfo=timezone.utc).isoformat()
        except ValueError:
            continue
    return None


def evidence_ids(qa: dict) -> list[str]:
    ids = []
    for item in qa.get("evidence") or []:
        ids += [x for x in re.split(r"[;,\s]+", str(item)) if x]
    return ids


def ingest(store, data: list[dict]) -> dict[int, tuple[int, str, str]]:
    """Store every turn as a note; returns note id -> (sample index, dia_id, session key)."""
    where: dict[int, tuple[int, str, str]] = {}
    with store.atomic():
        for index, sample in enumerate(data):
            project = f"locomo/{sample.get('sample_id', index)}"
            store.ensure_project(project, project)
            conversation = sample["conversation"]
            for session in session_keys(conversation):
                turns = conversation[session]
                date_text = conversation.get(f"{session}_date_time")
                created = parse_date(date_text) or "2023-01-01T00:00:00+00:00"
                for position, turn in enumerate(turns):
                    evidence = []
                    if position > 0:
                        evidence.append({"quote": turn_text(turns[position - 1]), "source": "previous turn"})
                    if position + 1 < len(turns):
                        evidence.append({"quote": turn_text(turns[position + 1]), "source": "next turn"})
                    if date_text:
                        evidence.append({"quote": f"session date {date_text}", "source": "session"})
                    note_id = store.add_note({
                        "title": turn_text(turn), "kind": "how-it-works", "scope": "project",
                        "project_key": project, "evidence": evidence, "tags": [turn["speaker"]],
                        "session_id": f"{project}:{session}", "source_agent": "locomo",
                        "run_key": turn["dia_id"], "created_at": created, "updated_at": created,
                    })
                    where[note_id] = (index, turn["dia_id"], session)
    return where


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "lorebook-bench"


def build_store(data_path: Path, data: list[dict], use_cache: bool, lexical: bool) -> tuple[object, dict, dict]:
    """A store holding the conversations (and their vectors unless ``lexical``), from the cache when it can."""
    from lorebook.embeddings import embedding_model_id
    from lorebook.store import Store

    digest = hashlib.sha256(data_path.read_bytes()).hexdigest()[:16]
    model = "none" if lexical else embedding_model_id()
    key = f"locomo-{digest}-v{INGEST_VERSION}-{re.sub(r'[^A-Za-z0-9_.-]', '_', model)}"
    cached = cache_dir() / key
    home = Path(tempfile.mkdtemp(prefix="lorebook-locomo-"))
    os.environ["LOREBOOK_HOME"] = str(home)
    info = {"cache": str(cached), "cached": False}
    if use_cache and (cached / "lorebook.db").exists():
        shutil.copy(cached / "lorebook.db", home / "lorebook.db")
        store = Store()
        where = {int(k): tuple(v) for k, v in json.loads((cached / "where.json").read_text()).items()}
        info["cached"] = True
        return store, where, info
    started = time.perf_counter()
    store = Store()
    where = ingest(store, data)
    info["ingest_s"] = round(time.perf_counter() - started, 2)
    if not lexical:
        from lorebook.vectors import index_notes

        started = time.perf_counter()
        result = index_notes(store, announce=lambda m: print(m, file=sys.stderr))
        info["index_s"] = round(time.perf_counter() - started, 2)
        info["index"] = {k: result.get(k) for k in ("embedded", "model", "notes_indexed", "notes_failed")}
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    if use_cache:
        cached.mkdir(parents=True, exist_ok=True)
        shutil.copy(home / "lorebook.db", cached / "lorebook.db")
        (cached / "where.json").write_text(json.dumps({str(k): list(v) for k, v in where.items()}))
    return store, where, info


def baseline_bm25(store, question: str, project: str, limit: int) -> list[int]:
    """Plain bm25 over the turn text only: no context columns, no fusion, no session context."""
    from lorebook.search import fts_match, query_terms

    terms = query_terms(question)
    if not terms:
        return []
    filters = {"project_keys": [project], "include_global": False}
    weights = (1.0, 0, 0, 0, 0, 0, 0, 0)
    return [i for i, _ in store.search_notes_fts(fts_match(terms), weights, filters, limit)]


def score(ranked_turns: list[tuple[str, str]], evidence: set[str], k: int) -> dict:
    top = ranked_turns[:k]
    ids = [t for t, _ in top]
    found = evidence & set(ids)
    sessions = []
    for _, session in ranked_turns:
        if session not in sessions:
            sessions.append(session)
    evidence_sessions = {"session_" + e.split(":")[0].lstrip("D") for e in evidence if ":" in e}
    return {"any": bool(found), "all": evidence <= set(ids), "frac": len(found) / len(evidence),
            "sess": bool(evidence_sessions & set(sessions[:k]))}


def evaluate(rank, questions, where) -> tuple[dict, list[float]]:
    per_question, times, cpu = [], [], []
    for qa in questions:
        started, cpu_started = time.perf_counter(), time.process_time()
        note_ids = rank(qa)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - cpu_started) * 1000)
        ranked = [(where[i][1], where[i][2]) for i in note_ids if i in where]
        evidence = set(qa["_evidence"])
        row = {"category": qa["category"]}
        for k in (5, 10):
            s = score(ranked, evidence, k)
            row.update({f"turn_any@{k}": s["any"], f"turn_all@{k}": s["all"], f"turn_frac@{k}": s["frac"],
                        f"sess_any@{k}": s["sess"]})
        per_question.append(row)

    def summarise(rows):
        keys = [k for k in rows[0] if k != "category"] if rows else []
        out = {k: round(100 * statistics.fmean(float(r[k]) for r in rows), 1) for k in keys}
        out["n"] = len(rows)
        return out

    headline = [r for r in per_question if r["category"] in HEADLINE_CATEGORIES]
    result = summarise(headline)
    result["per_category"] = {str(c): summarise([r for r in per_question if r["category"] == c])
                              for c in sorted({r["category"] for r in per_question})}
    result["cpu_ms_per_query_p50"] = round(statistics.median(cpu), 2)
    return result, times


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True, type=Path, help="locomo-dev.json")
    parser.add_argument("--lexical", action="store_true", help="Keywords only: no vectors.")
    parser.add_argument("--no-cache", action="store_true", help="Rebuild the store and its vectors.")
    parser.add_argument("--limit", type=int, default=30, help="Hits per question (>= 10; sess_any needs more).")
    parser.add_argument("--categories", default="1,2,3,4,5", help="Which categories to run.")
    parser.add_argument("--depth", type=int, default=100, help="Candidates per list (search's depth).")
    args = parser.parse_args(argv)
    data = json.loads(args.data.read_text("utf-8"))
    wanted = {int(c) for c in args.categories.split(",")}
    store, where, info = build_store(args.data, data, not args.no_cache, args.lexical)
    questions = []
    for index, sample in enumerate(data):
        for qa in sample.get("qa") or []:
            ids = evidence_ids(qa)
            if ids and qa.get("category") in wanted:
                questions.append(dict(qa, _evidence=ids, _project=f"locomo/{sample.get('sample_id', index)}"))

    from lorebook.search import search

    def hybrid(qa):
        result = search(store, qa["question"], limit=args.limit, project_key=qa["_project"],
                        include_global=False, semantic=not args.lexical, depth=args.depth)
        if result["warnings"] and not args.lexical:
            raise SystemExit("degraded search in the benchmark: " + "; ".join(result["warnings"]))
        return [h["note"]["id"] for h in result["hits"]]

    if not args.lexical:  # load the model and the matrix once, outside the timings
        search(store, "warm up", project_key=questions[0]["_project"], include_global=False)
    figures, times = evaluate(hybrid, questions, where)
    baseline, baseline_times = evaluate(lambda qa: baseline_bm25(store, qa["question"], qa["_project"], args.limit),
                                        questions, where)
    out = {
        "bench": "locomo", "mode": "lexical" if args.lexical else "hybrid",
        "model": None if args.lexical else info.get("index", {}).get("model") or os.environ.get(
            "LOREBOOK_EMBED_MODEL", "lorebook-minilm"),
        "notes": len(where), "questions": len(questions),
        **{k: v for k, v in figures.items() if k not in ("per_category", "cpu_ms_per_query_p50")},
        "ms_per_query_p50": round(statistics.median(times), 2),
        "ms_per_query_p95": round(sorted(times)[int(0.95 * (len(times) - 1))], 2),
        "cpu_ms_per_query_p50": figures["cpu_ms_per_query_p50"], "load_avg_1m": round(os.getloadavg()[0], 2),
        "per_category": figures["per_category"],
        "baseline_bm25_turn_only": {"turn_any@5": baseline["turn_any@5"], "turn_any@10": baseline["turn_any@10"],
                                    "turn_frac@10": baseline["turn_frac@10"], "sess_any@5": baseline["sess_any@5"],
                                    "ms_per_query_p50": round(statistics.median(baseline_times), 2)},
        "store": info,
    }
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
