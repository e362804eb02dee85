"""``kg query`` and ``kg stats``: read a build directory."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from kg.cli.common import example, formatter

# --------------------------------------------------------------------------- graph: query / stats


def add_query(sub: Any) -> None:
    p = sub.add_parser(
        "query", help="run SPARQL or Cypher (or a named example query) over a built graph",
        formatter_class=formatter,
        epilog=example('kg query sparql "SELECT ?t WHERE { ?p dcterms:title ?t }" -g out/\n'
                        '  kg query cypher "MATCH (m:Method) RETURN m.label LIMIT 5" -g out/\n'
                        "  kg query --named shared-techniques --param paper=p-6523ccd9390b -g out/\n"
                        "  kg query --list"),
    )
    p.add_argument("language", nargs="?", choices=["sparql", "cypher"],
                   help="query language (with --named: which form to run; default sparql)")
    p.add_argument("query", nargs="?", default=None,
                   help="query text, or a file holding it")
    p.add_argument("-g", "--graph", default="out", metavar="DIR", help="build directory (default: out)")
    p.add_argument("--named", default=None, metavar="NAME", help="run a named query from kg/queries/")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a query parameter (repeatable); bound as a parameter, never pasted in")
    p.add_argument("--list", action="store_true", help="list the named queries and their parameters")
    p.add_argument("--format", dest="out_format", default="table", choices=["table", "json", "csv"],
                   help="output format (default: table)")
    p.add_argument("--neo4j", default=None, metavar="URI",
                   help="run Cypher on this Neo4j server (user/password from NEO4J_USER/NEO4J_PASSWORD)")
    p.add_argument("--database", default=None, help="Neo4j database name")
    p.set_defaults(run=_run_query)


def _run_query(args: argparse.Namespace) -> int:
    import os
    from pathlib import Path

    import kg
    from kg.errors import QueryError
    from kg.query import format_result

    if args.list:
        for name, q in kg.named_queries().items():
            params = " ".join(f"--param {p.name}=<{p.type}>" for p in q.params)
            langs = "+".join(lang for lang in ("sparql", "cypher") if lang in q.texts)
            print(f"{name} [{langs}] {params}".rstrip())
            print(f"    {q.description}")
        return 0
    raw: dict[str, str] = {}
    for item in args.param:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise QueryError(f"--param {item!r}: expected NAME=VALUE")
        raw[name] = value
    user = os.environ.get("NEO4J_USER")
    server = {"neo4j": args.neo4j, "database": args.database,
              "auth": (user, os.environ.get("NEO4J_PASSWORD") or "") if user else None}
    graph = kg.KnowledgeGraph(args.graph)  # read only if the query runs here, not on --neo4j
    if args.named:
        if args.query:
            raise QueryError("give either --named NAME or a query, not both")
        result = graph.query(args.named, language=args.language, params=raw, **server)
    else:
        if not args.language or not args.query:
            raise QueryError("give a language and a query (kg query sparql|cypher QUERY), or --named NAME")
        text = args.query
        if len(text) < 4096 and "\n" not in text and Path(text).is_file():
            text = Path(text).read_text(encoding="utf-8")
        result = graph.query(text, language=args.language, params=raw, **server)
    sys.stdout.write(format_result(result, args.out_format))
    return 0


def add_stats(sub: Any) -> None:
    p = sub.add_parser("stats", help="counts per type, top entities, papers with bounds, topics",
                       formatter_class=formatter, epilog=example("kg stats -g out/"))
    p.add_argument("-g", "--graph", default="out", metavar="DIR", help="build directory (default: out)")
    p.add_argument("--top", type=int, default=10, help="entities/topics listed (default: 10)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_run_stats)


def _run_stats(args: argparse.Namespace) -> int:
    import kg
    from kg.stats import format_stats

    stats = kg.load(args.graph).stats(top=args.top)
    if args.json:
        print(json.dumps(stats, ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(format_stats(stats))
    return 0
