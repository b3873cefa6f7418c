"""Near-duplicate detection on labelled pairs of coding lessons: precision and recall of "merge".

    python bench/dedupe.py [--data bench/data/dedupe_pairs.json] [--sweep]

Two sets: ``dedupe_pairs.json`` (108 pairs; the thresholds and contradiction
cues were chosen on it) and ``dedupe_holdout.json`` (28 pairs written after
they were frozen, never tuned on). Positives are duplicate and paraphrase pairs (they should merge); related and
contradicting pairs must not merge. It runs lorebook's own decision
(``lorebook.relations.compare``) lexically (what the Stop hook uses) and, when
an embedding model is available, hybrid (what ``lorebook write`` and MCP use),
beside a baseline: plain word Jaccard at its best threshold in this run.
The JSON summary is the last line.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

from lorebook import relations  # noqa: E402

POSITIVE = ("duplicate", "paraphrase")


def scores(tp: int, fp: int, fn: int) -> dict:
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 3), "recall": round(recall, 3), "f1": round(f1, 3)}


def evaluate(pairs: list[dict], cosines: list[float] | None) -> dict:
    tp = fp = fn = 0
    contradictions_found = wrong = 0
    errors = []
    for i, pair in enumerate(pairs):
        result = relations.compare(pair["b"], pair["a"], cosines[i] if cosines else None)
        merged = result["relation"] == "duplicate"
        positive = pair["label"] in POSITIVE
        tp += merged and positive
        fp += merged and not positive
        fn += (not merged) and positive
        if pair["label"] == "contradicts":
            contradictions_found += result["relation"] == "contradicts"
        elif result["relation"] == "contradicts":
            wrong += 1
        if merged != positive:
            errors.append(f"{pair['label']:>11} → {result['relation']:<11} {result['score']:.2f}  {pair['topic']}")
    n_contra = sum(p["label"] == "contradicts" for p in pairs)
    out = scores(tp, fp, fn)
    out.update(contradiction_recall=round(contradictions_found / n_contra, 3) if n_contra else None,
               false_contradictions=wrong, errors=errors)
    return out


def _words(note: dict) -> set[str]:
    return set(re.findall(r"\w+", relations.note_text(note).lower()))


def baseline(pairs: list[dict]) -> dict:
    """Plain word Jaccard, with the threshold that gives it the best F1 on this very set (an upper bound)."""
    sims = [(len(_words(p["a"]) & _words(p["b"])) / max(1, len(_words(p["a"]) | _words(p["b"]))),
             p["label"] in POSITIVE) for p in pairs]
    best = None
    for step in range(5, 95):
        t = step / 100
        tp = sum(s >= t and pos for s, pos in sims)
        fp = sum(s >= t and not pos for s, pos in sims)
        fn = sum(s < t and pos for s, pos in sims)
        result = dict(scores(tp, fp, fn), threshold=t)
        if best is None or result["f1"] > best["f1"]:
            best = result
    return best


def sweep(pairs: list[dict], cosines: list[float] | None) -> list[dict]:
    """Precision and recall of the fused score at each threshold (how the shipped threshold was chosen)."""
    rows = []
    fused = [relations.fused(relations.lexical_similarity(p["b"], p["a"]), cosines[i] if cosines else None)
             for i, p in enumerate(pairs)]
    contra = [relations.contradicts(p["b"], p["a"]) for p in pairs]
    for step in range(20, 80, 2):
        t = step / 100
        tp = sum(f >= t and not c and p["label"] in POSITIVE for f, c, p in zip(fused, contra, pairs))
        fp = sum(f >= t and not c and p["label"] not in POSITIVE for f, c, p in zip(fused, contra, pairs))
        fn = sum(not (f >= t and not c) and p["label"] in POSITIVE for f, c, p in zip(fused, contra, pairs))
        rows.append(dict(scores(tp, fp, fn), threshold=t))
    return rows


def run(path: Path, sweep_too: bool, cache: Path | None) -> dict:
    pairs = json.loads(path.read_text("utf-8"))["pairs"]
    counts = {label: sum(p["label"] == label for p in pairs) for label in ("duplicate", "paraphrase", "related",
                                                                            "contradicts")}
    print(f"== {path.name}: {len(pairs)} labelled pairs: {counts}")
    lexical = evaluate(pairs, None)
    started = time.perf_counter()
    if cache and cache.exists():
        cosines = json.loads(cache.read_text())
    else:
        cosines = relations.vector_similarities([relations.note_text(p["b"]) for p in pairs],
                                                [relations.note_text(p["a"]) for p in pairs])
        if cache and cosines:
            cache.write_text(json.dumps(cosines))
    embed_s = time.perf_counter() - started
    hybrid = evaluate(pairs, cosines) if cosines else None
    base = baseline(pairs)
    for name, result in (("lexical (Stop hook)", lexical), ("hybrid (write/MCP)", hybrid)):
        if result is None:
            print(f"{name}: no embedding model available")
            continue
        print(f"{name}: precision {result['precision']:.3f}  recall {result['recall']:.3f}  "
              f"contradictions linked {result['contradiction_recall']:.3f}  false contradictions "
              f"{result['false_contradictions']}")
        for line in result["errors"]:
            print("   miss:", line)
    print(f"baseline (word Jaccard, best threshold {base['threshold']}): precision {base['precision']:.3f}  "
          f"recall {base['recall']:.3f}")
    if sweep_too:
        for mode, cos in (("lexical", None), ("hybrid", cosines)):
            if mode == "hybrid" and not cos:
                continue
            print(f"sweep ({mode}):")
            for row in sweep(pairs, cos):
                print(f"  t={row['threshold']:.2f}  P={row['precision']:.3f}  R={row['recall']:.3f}  F1={row['f1']:.3f}")
    return {
        "pairs": len(pairs), "labels": counts,
        "lexical": {k: lexical[k] for k in ("precision", "recall", "f1", "contradiction_recall")}
        | {"threshold": relations.MERGE_THRESHOLD_LEXICAL},
        "hybrid": ({k: hybrid[k] for k in ("precision", "recall", "f1", "contradiction_recall")}
                   | {"threshold": relations.MERGE_THRESHOLD_HYBRID, "embed_seconds": round(embed_s, 2)})
        if hybrid else None,
        "baseline_word_jaccard": base,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", action="append",
                        help="A labelled pairs file (repeatable). Default: the tuning set and the held-out set.")
    parser.add_argument("--sweep", action="store_true", help="Print precision/recall at every threshold.")
    parser.add_argument("--cache", help="Reuse the first file's cosines from this JSON file (written if missing).")
    args = parser.parse_args()
    paths = [Path(p) for p in args.data] if args.data else [HERE / "data" / "dedupe_pairs.json",
                                                            HERE / "data" / "dedupe_holdout.json"]
    summary = {}
    for i, path in enumerate(paths):
        name = {"dedupe_pairs": "tuning", "dedupe_holdout": "holdout"}.get(path.stem, path.stem)
        summary[name] = run(path, args.sweep, Path(args.cache) if args.cache and i == 0 else None)
    summary["target"] = {"precision": 0.9, "recall": 0.9}
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
