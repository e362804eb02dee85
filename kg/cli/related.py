"""``kg related``: papers to read next, each with why."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from kg.cli.common import EncodingProgress, add_pipeline_options, example, formatter

# --------------------------------------------------------------------------- related work


def add_related(sub: Any) -> None:
    p = sub.add_parser(
        "related", help="papers to read next, each with why (shared methods, bounds, topic)",
        formatter_class=formatter,
        epilog=example("kg related p-9898d1ffb550 -g out --top 5\n"
                        "  kg related 'BDC-Merge' -g out --json\n"
                        "  kg related --text abstract.txt -g out\n"
                        "  kg related --all -g out --top 10 --jsonl -o related.jsonl\n"
                        "  kg related --method 'policy mirror descent' -g out\n"
                        "  kg related --bridge topic:0 topic:3 -g out"),
    )
    p.add_argument("paper", nargs="?", metavar="PAPER", help="a paper id or a title substring")
    p.add_argument("-g", "--graph", required=True, metavar="DIR", help="the build directory")
    p.add_argument("--top", type=int, default=10, metavar="K", help="results per query (default: 10)")
    p.add_argument("--json", action="store_true", help="structured JSON instead of readable lines")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--text", metavar="FILE", default=None,
                      help="an abstract NOT in the graph (a file, or - for stdin); extracted on the "
                           "fly and not added")
    mode.add_argument("--all", action="store_true", help="every paper of the graph (with --jsonl)")
    mode.add_argument("--method", metavar="NAME", default=None,
                      help="the papers that propose, then use, a method")
    mode.add_argument("--bridge", nargs=2, metavar=("A", "B"), default=None,
                      help="papers linking two topics (topic:N) or entities (names)")
    mode.add_argument("--write-index", action="store_true",
                      help="precompute DIR/related-index.npz now (the first query with the default "
                           "weights saves it too), so later queries skip graph.json")
    p.add_argument("--jsonl", action="store_true", help="with --all: one JSON line per paper")
    p.add_argument("-o", "--output", default="-", metavar="FILE",
                   help="with --all: the JSONL file to write (default: stdout)")
    p.add_argument("--weights", metavar="FILE.json", default=None,
                   help="override the scoring weights (see kg.related.RelatedWeights)")
    add_pipeline_options(p)
    p.set_defaults(run=_run_related)


def _run_related(args: argparse.Namespace) -> int:
    import kg
    from kg.errors import ConfigError
    from kg.related import read_query_text, render_line

    modes = sum(bool(x) for x in (args.paper, args.text, args.all, args.method, args.bridge,
                                  args.write_index))
    if modes != 1:
        raise ConfigError("kg related: give exactly one of PAPER, --text FILE, --all, --method NAME, "
                          "--bridge A B or --write-index")
    graph = kg.KnowledgeGraph(args.graph)
    if args.write_index:
        print(f"wrote {graph.write_related_index(args.weights, EncodingProgress())}", file=sys.stderr)
        return 0
    if args.top < 1:
        raise ConfigError(f"kg related: --top must be at least 1, got {args.top}")
    if args.jsonl and not args.all:
        raise ConfigError("kg related: --jsonl goes with --all (use --json for one query)")
    index = graph.related_index(args.weights, EncodingProgress())  # what the queries below use
    if args.all:
        from kg.fileio import write_jsonl_atomic

        rows = ({"id": pid, "related": [r.to_json() for r in results]}
                for pid, results in graph.related_all(args.top, weights=args.weights))
        if args.output == "-":
            for row in rows:
                sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
        else:
            n = write_jsonl_atomic(args.output, rows)
            print(f"wrote {args.output}: related papers of {n} paper(s)", file=sys.stderr)
        return 0
    if args.method:
        found = graph.method_papers(args.method, weights=args.weights)
        if args.json:
            print(json.dumps(found.to_json(), ensure_ascii=False, indent=2))
            return 0
        print(f"{found.label} ({found.node})")
        for role, papers in (("proposed by", found.proposed), ("used by", found.used)):
            print(f"  {role} {len(papers)} paper(s)")
            for pid, title in papers:
                print(f"    {pid}  {title}")
        return 0
    if args.bridge:
        bridges = graph.bridge(args.bridge[0], args.bridge[1], args.top, weights=args.weights)
        if args.json:
            print(json.dumps([b.to_json() for b in bridges], ensure_ascii=False, indent=2))
        for rank, b in enumerate(bridges if not args.json else [], 1):
            print(f"{rank:>2}. {b.score:.3f}  {b.id}  {b.title} — {b.explanation}")
        if not bridges and not args.json:
            print("no paper links the two sides", file=sys.stderr)
        return 0
    if args.text:
        extraction = kg.extract(read_query_text(args.text), spacy_model=args.spacy_model)
        query = {"text": args.text, "id": extraction.paper.id, "title": extraction.paper.title}
        results = graph.related_text(extraction, args.top, weights=args.weights)
    else:
        pid = index.find_paper(args.paper)
        query = {"id": pid, "title": index.titles[index.row_of[pid]]}
        results = graph.related(pid, args.top, weights=args.weights)
    if args.json:
        print(json.dumps({"query": query, "related": [r.to_json() for r in results]},
                         ensure_ascii=False, indent=2))
        return 0
    print(f"related to {query['id']}  {query['title']}", file=sys.stderr)
    for rank, result in enumerate(results, 1):
        print(render_line(rank, result))
    if not results:
        print("no related paper found", file=sys.stderr)
    return 0
