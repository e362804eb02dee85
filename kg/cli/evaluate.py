"""``kg eval KIND``: extraction and ranking quality against gold data."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from kg.cli.common import EncodingProgress, example, formatter

# --------------------------------------------------------------------------- eval


def _add_eval_related(eval_sub: Any) -> None:
    p = eval_sub.add_parser(
        "related", help="nDCG@5 and P@3 of kg related and of a TF-IDF baseline, on judgments",
        formatter_class=formatter,
        epilog=example("kg eval related --judgments tests/data/related_judgments.jsonl -g out"),
    )
    p.add_argument("--judgments", required=True, metavar="FILE",
                   help='JSONL: {"id": PAPER, "related": {PAPER: 2 | 1}} per line')
    p.add_argument("-g", "--graph", required=True, metavar="DIR", help="the build directory")
    p.add_argument("--weights", metavar="FILE.json", default=None, help="kg's scoring weights")
    p.add_argument("--no-titles", action="store_true",
                   help="kg's lexical signal reads the abstracts only, like the baseline (how much "
                        "of kg's lead do the titles bring?)")
    p.add_argument("--json", action="store_true", help="print the scores as JSON")
    p.set_defaults(run=_run_eval_related)


def _run_eval_related(args: argparse.Namespace) -> int:
    from pathlib import Path

    from kg.evaluate.related import evaluate_related, load_judgments
    from kg.graphdir import load_nx
    from kg.related import INDEX_FILE, RelatedWeights, saved_encoder_vectors

    judgments = load_judgments(args.judgments)
    weights = RelatedWeights.from_file(args.weights) if args.weights else None
    # The texts a saved index of this graph encoded are not encoded again.
    saved = saved_encoder_vectors(Path(args.graph) / INDEX_FILE)
    result = evaluate_related(load_nx(args.graph), judgments, weights, titles=not args.no_titles,
                              saved_vectors=saved, progress=EncodingProgress())
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        print(result.report())
    return 0


def _add_eval_links(eval_sub: Any) -> None:
    p = eval_sub.add_parser(
        "links", help="share links between papers: papers without one, degree, the concepts behind "
                      "them, and precision/recall against related-work judgments",
        formatter_class=formatter,
        epilog=example("kg eval links -g out --judgments tests/data/related_judgments.jsonl"),
    )
    p.add_argument("-g", "--graph", required=True, metavar="DIR", help="the build directory")
    p.add_argument("--judgments", metavar="FILE", action="append", default=[],
                   help="related-work judgments (the format of kg eval related); repeat for several files")
    p.add_argument("--top", type=int, default=30, metavar="N",
                   help="how many of the concepts that justify most links to list")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(run=_run_eval_links)


def _run_eval_links(args: argparse.Namespace) -> int:
    from pathlib import Path

    from kg.evaluate.links import evaluate_links
    from kg.evaluate.related import load_judgments
    from kg.graphdir import load_nx

    judgments = {Path(f).name: load_judgments(f) for f in args.judgments}
    result = evaluate_links(load_nx(args.graph), judgments, top=max(args.top, 0))
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        print(result.report())
    return 0


def _add_eval_entities(eval_sub: Any) -> None:
    p = eval_sub.add_parser(
        "entities", help="entity P/R/F1 on a SciERC split; recall of hand-written key entities",
        formatter_class=formatter,
        epilog=example("kg eval entities --scierc ../shared/data/scierc/dev.json\n  "
                        "kg eval entities --scierc ../shared/data/scierc/{train,dev}.json "
                        "--keys extractors/train/splits/scierc_frozen.txt\n  "
                        "kg eval entities --scier ../shared/data/scier/dev.jsonl\n  "
                        "kg eval entities --gold tests/data/seed_entities_gold.jsonl seeds/"),
    )
    p.add_argument("--scierc", metavar="FILE", nargs="+", default=None,
                   help="SciERC split(s) (DyGIE json), read as one: micro P/R/F1 strict, relaxed, per type; "
                        "relation Rel P/R/F1 per type, end to end and with gold entities")
    p.add_argument("--keys", metavar="FILE", default=None,
                   help="with --scierc: score only the documents whose doc_key this file lists (a fold, "
                        "e.g. extractors/train/splits/scierc_frozen.txt)")
    p.add_argument("--scier", metavar="FILE", default=None,
                   help="SciER split (full-text ML papers, DyGIE json): Dataset/Method/Task P/R/F1 on "
                        "passages of whole sentences; our Metric and Concept are not scored")
    p.add_argument("--gold", metavar="FILE", default=None,
                   help='JSONL {"id", "entities": [{"text", "type", "role"}]}: recall on INPUT papers')
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="abstracts scored against --gold")
    p.add_argument("--spacy-model", default=None, metavar="NAME", help="base spaCy pipeline to load")
    p.add_argument("--show-missing", action="store_true", help="list gold entities not found")
    p.add_argument("--json", action="store_true", help="print the scores as JSON")
    p.set_defaults(run=_run_eval_entities)


def _run_eval_entities(args: argparse.Namespace) -> int:
    from kg.errors import ConfigError
    from kg.evaluate.entities import (
        evaluate_gold,
        evaluate_scier,
        evaluate_scierc,
        format_scierc,
        read_gold,
        read_keys,
    )
    from kg.pipeline import load_pipeline

    if not args.scierc and not args.scier and not args.gold:
        raise ConfigError(
            "kg eval entities: give --scierc FILE, --scier FILE, or --gold FILE with INPUT abstracts"
        )
    if args.gold and not args.inputs:
        raise ConfigError("kg eval entities: --gold needs the INPUT abstracts it annotates")
    pipeline = load_pipeline(args.spacy_model, families=("entities", "relations"))
    out: dict[str, Any] = {}
    if args.scierc:
        from extractors.train.scierc import read_scierc
        from kg.evaluate.relations import format_relations, score_gold_entities

        keys = read_keys(args.keys) if args.keys else None
        scores = evaluate_scierc(args.scierc, keys=keys, pipeline=pipeline)
        out["scierc"] = scores.to_json()
        if not args.json:
            print(format_scierc(scores))
        if scores.relations is not None:
            docs = [d for p in args.scierc for d in read_scierc(p) if keys is None or d.key in keys]
            gold_mode = score_gold_entities(docs, pipeline)
            out["scierc"]["relations_gold_entities"] = gold_mode.to_json()
            if not args.json:
                print(format_relations(scores.relations, "SciERC relations, end to end"))
                print(format_relations(gold_mode, "SciERC relations, gold entities (relation step alone)"))
    if args.scier:
        scores = evaluate_scier(args.scier, pipeline=pipeline)
        out["scier"] = scores.to_json()
        if not args.json:
            print(format_scierc(scores, "SciER entities, Dataset/Method/Task"))
    if args.gold:
        from kg.ingest import read_papers

        gold = read_gold(args.gold)
        papers = read_papers(args.inputs)
        result = evaluate_gold(gold, pipeline.extract_many(papers))
        out["gold"] = result.to_json()
        if not args.json:
            g = out["gold"]
            print(f"key entities ({g['papers']} papers, {g['gold_entities']} entities): recall typed "
                  f"{g['recall_typed']:.3f}, untyped {g['recall_untyped']:.3f}; named proposed methods "
                  f"with role proposed {g['proposed_with_role']:.3f} (of {g['proposed_gold']})")
            if args.show_missing:
                for line in result.missing:
                    print("  missing\t" + line)
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
    return 0


def _add_eval_bounds(eval_sub: Any) -> None:
    p = eval_sub.add_parser(
        "bounds", help="claimed-bound detection P/R/F1 and kind/soft/attribution/quantity accuracy",
        formatter_class=formatter,
        epilog=example("kg eval bounds --gold tests/data/bounds_gold.jsonl --split dev seeds/ "
                       "tests/data/bounds_gold_papers.jsonl"),
    )
    p.add_argument("--gold", required=True, metavar="FILE", action="append",
                   help='JSONL {"doc": ID, "split": "dev"|"test", "bounds": [{"kind", "soft", "latex", '
                        '"expr", "quantity", "attribution"}]}; repeat it to score several files together')
    p.add_argument("--split", choices=("dev", "test", "all"), default="all",
                   help="the gold abstracts the rules are tuned on (dev), the frozen ones (test), or all")
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="abstracts (seeds dir, JSONL …) the gold names")
    p.add_argument("--spacy-model", default=None, metavar="NAME", help="base spaCy pipeline to load")
    p.add_argument("--annotations", default=None, metavar="FILE",
                   help="score this second hand annotation of some gold abstracts (same format) "
                        "instead of the extractor: how far two readers agree")
    p.add_argument("--show-errors", action="store_true", help="list missed, spurious and mislabelled bounds")
    p.add_argument("--json", action="store_true", help="print the scores as JSON")
    p.set_defaults(run=_run_eval_bounds)


def _run_eval_bounds(args: argparse.Namespace) -> int:
    from kg.evaluate.bounds import evaluate_bounds

    scores = evaluate_bounds(args.gold, args.inputs, split=args.split, workers=1,
                             spacy_model=args.spacy_model, annotations=args.annotations)
    if args.json:
        print(json.dumps(scores.to_json(), ensure_ascii=False, indent=2))
        return 0
    print(scores.report())
    if args.show_errors:
        for error in scores.errors:
            print("  " + json.dumps(error, ensure_ascii=False))
    return 0


# Each entry adds one `kg eval KIND` subcommand; evaluations add theirs here.
EVAL_KINDS: list[Callable[[Any], None]] = [
    _add_eval_related, _add_eval_links, _add_eval_entities, _add_eval_bounds,
]


def add_eval(sub: Any) -> None:
    p = sub.add_parser("eval", help="measure extraction or ranking quality against gold data",
                       formatter_class=formatter,
                       epilog=example("kg eval related --judgments FILE -g out"))
    eval_sub = p.add_subparsers(dest="kind", metavar="KIND")
    for add in EVAL_KINDS:
        add(eval_sub)
