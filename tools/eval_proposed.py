"""Proposed-role precision and recall on the judged abstracts, and the seeds check.

    .venv/bin/python tools/eval_proposed.py                 # dev part of tests/data/proposed_gold.jsonl
    .venv/bin/python tools/eval_proposed.py --split test    # the frozen part (score it once per change)
    .venv/bin/python tools/eval_proposed.py --seeds         # the seeds, roles of seed_entities_gold.jsonl
    .venv/bin/python tools/eval_proposed.py --show-errors   # list missed and spurious methods

Matching is defined in :mod:`kg.evaluate.proposed`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from kg.evaluate.proposed import (  # noqa: E402
    ProposedScores,
    evaluate_proposed,
    read_proposed_gold,
    score_paper,
)
from kg.types import Paper  # noqa: E402


def _print(name: str, scores: ProposedScores, show_errors: bool) -> None:
    s = scores.to_json()
    print(
        f"{name}: {s['papers']} papers, {s['gold']} gold proposed methods, {s['predicted']} predicted; "
        f"precision {s['precision']:.3f} ({s['correct']}/{s['predicted']}), "
        f"recall {s['recall']:.3f} ({s['found']}/{s['gold']})"
    )
    if show_errors:
        for line in scores.missed:
            print("  missed\t" + line)
        for line in scores.spurious:
            print("  spurious\t" + line)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gold", default=str(REPO / "tests" / "data" / "proposed_gold.jsonl"))
    p.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    p.add_argument("--seeds", action="store_true", help="score the seeds against the key-entity gold instead")
    p.add_argument("--show-errors", action="store_true")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()

    from kg.pipeline import load_pipeline

    pipeline = load_pipeline(None, families=("entities",))
    if args.seeds:
        from kg.evaluate.entities import read_gold
        from kg.ingest import read_papers

        gold = read_gold(REPO / "tests" / "data" / "seed_entities_gold.jsonl")
        papers = read_papers([str(REPO / "seeds")])
        scores = ProposedScores()
        for ex in pipeline.extract_many(papers):
            items = [[e["text"]] for e in gold.get(ex.id, []) if e.get("role") == "proposed"]
            score_paper(ex.abstract, items, ex.mentions, scores, label=ex.id)
        name = "seeds (key-entity gold, proposed role)"
    else:
        judged = [g for g in read_proposed_gold(args.gold) if args.split == "all" or g.split == args.split]
        papers = [Paper(id=g.id, title=g.title, abstract=g.abstract) for g in judged]
        scores = evaluate_proposed(judged, list(pipeline.extract_many(papers)), split=args.split)
        name = f"proposed gold, {args.split}"
    if args.json:
        print(json.dumps(scores.to_json()))
    else:
        _print(name, scores, args.show_errors)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
