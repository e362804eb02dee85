"""``kg export FORMAT``: the built graph as an HTML page, in Neo4j, as Cypher, RDF or files."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from kg.cli.common import add_graph_option, example, formatter

# --------------------------------------------------------------------------- export

def _add_export_html(export_sub: Any) -> None:
    from kg.export.html import DEFAULT_MAX_EDGES, DEFAULT_MAX_NODES, DEFAULT_VIEW, VIEWS

    p = export_sub.add_parser(
        "html", help="one self-contained, offline, interactive HTML page (vis-network)",
        formatter_class=formatter,
        epilog=example("kg export html -g out -o out/graph.html --view papers"),
    )
    p.add_argument("-g", "--graph", required=True, metavar="DIR", help="the build directory")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the .html file to write")
    p.add_argument("--view", choices=VIEWS, default=DEFAULT_VIEW,
                   help="map: papers coloured by region, a map of regions on large graphs; "
                        "full: every node and edge; "
                        "papers: papers linked by what they share; "
                        f"entities: entities linked when papers use them together (default: {DEFAULT_VIEW})")
    p.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES, metavar="N",
                   help="fold the least connected nodes beyond N, with a note on the page "
                        f"(default: {DEFAULT_MAX_NODES})")
    p.add_argument("--max-edges", type=int, default=DEFAULT_MAX_EDGES, metavar="N",
                   help="fold the weakest edges beyond N, with a note on the page "
                        f"(default: {DEFAULT_MAX_EDGES})")
    p.set_defaults(run=_run_export_html)


def _run_export_html(args: argparse.Namespace) -> int:
    import kg

    page = kg.KnowledgeGraph(args.graph).write_html(args.output, view=args.view, max_nodes=args.max_nodes,
                                                    max_edges=args.max_edges)
    folded = (f" (folded: {page.folded} of {page.total_nodes} nodes, {page.folded_edges} of "
              f"{page.total_edges} edges)" if page.folded or page.folded_edges else "")
    print(f"wrote {args.output}: {page.view} view, {page.nodes} nodes, {page.edges} edges{folded}",
          file=sys.stderr)
    return 0


# --------------------------------------------------------------------------- export: Neo4j and files


def _add_export_neo4j(export_sub: Any) -> None:
    from kg.export.neo4j import DEFAULT_BATCH_SIZE, DEFAULT_RETRY_SECONDS, DEFAULT_SESSIONS

    p = export_sub.add_parser(
        "neo4j", help="write the graph into a running Neo4j over Bolt (MERGE: re-runs change nothing)",
        formatter_class=formatter,
        description="Credentials come from the environment: NEO4J_USER (default neo4j) and "
                    "NEO4J_PASSWORD; without NEO4J_PASSWORD kg asks on a terminal (input hidden) "
                    "and connects without authentication elsewhere. The password is never printed.",
        epilog=example("NEO4J_PASSWORD=… kg export neo4j -g out --uri bolt://localhost:7687"),
    )
    add_graph_option(p)
    p.add_argument("--uri", default=None, metavar="URI",
                   help="bolt://, neo4j://, bolt+s:// or neo4j+s:// address "
                        "(default: $NEO4J_URI, else bolt://localhost:7687)")
    p.add_argument("--database", default=None, metavar="NAME",
                   help="database to write (default: the server's default database)")
    p.add_argument("--user", default=None, metavar="USER",
                   help="user name (default: $NEO4J_USER, else neo4j)")
    p.add_argument("--replace", action="store_true",
                   help="first delete this project's nodes (ontology labels only) and their relationships")
    p.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE, metavar="N",
                   help=f"rows per write transaction (default: {DEFAULT_BATCH_SIZE})")
    p.add_argument("--retry-seconds", type=float, default=DEFAULT_RETRY_SECONDS, metavar="S",
                   help="give up on a batch after retrying transient errors this long "
                        f"(default: {DEFAULT_RETRY_SECONDS:g})")
    p.add_argument("--sessions", type=int, default=DEFAULT_SESSIONS, metavar="N",
                   help=f"batches written at once, one session each (default: {DEFAULT_SESSIONS})")
    p.set_defaults(run=_run_export_neo4j)


def _neo4j_password() -> str | None:
    """NEO4J_PASSWORD, else a hidden prompt on a terminal, else none (no authentication)."""
    import os

    password = os.environ.get("NEO4J_PASSWORD")
    if password:
        return password
    if sys.stdin.isatty() and sys.stderr.isatty():
        import getpass

        return getpass.getpass("Neo4j password (empty for none): ") or None
    return None


def _run_export_neo4j(args: argparse.Namespace) -> int:
    import os

    import kg
    from kg.export.neo4j import export_rows_total

    graph = kg.KnowledgeGraph(args.graph)
    uri = args.uri or os.environ.get("NEO4J_URI") or "bolt://localhost:7687"
    user = args.user or os.environ.get("NEO4J_USER") or "neo4j"
    password = _neo4j_password()
    bar = None
    if sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=export_rows_total(graph.items()), desc="neo4j", unit="row", file=sys.stderr,
                   leave=False)
    try:
        result = graph.to_neo4j(uri, (user, password) if password else None, database=args.database,
                                replace=args.replace, batch_size=args.batch_size,
                                retry_seconds=args.retry_seconds, sessions=args.sessions,
                                progress=bar.update if bar else None)
    finally:
        if bar is not None:
            bar.close()
    print(result.summary(), file=sys.stderr)
    return 0


def _add_export_neo4j_csv(export_sub: Any) -> None:
    p = export_sub.add_parser(
        "neo4j-csv", help="CSV files for `neo4j-admin database import full`, and the exact command",
        formatter_class=formatter, epilog=example("kg export neo4j-csv -g out -o out/neo4j-import"))
    add_graph_option(p)
    p.add_argument("-o", "--output", required=True, metavar="OUTDIR", help="directory for the CSV files")
    p.add_argument("--database", default="neo4j", metavar="NAME",
                   help="database the import command targets (default: neo4j)")
    p.set_defaults(run=_run_export_neo4j_csv)


def _run_export_neo4j_csv(args: argparse.Namespace) -> int:
    import kg

    result = kg.KnowledgeGraph(args.graph).write_neo4j_csv(args.output, database=args.database)
    print(f"wrote {len(result.node_files)} node and {len(result.relationship_files)} relationship files "
          f"({result.nodes} nodes, {result.relationships} relationships) to {result.directory}; "
          f"with the database stopped, import them with (also in {result.directory / 'import.sh'}):",
          file=sys.stderr)
    print(result.command_line)
    print(f"then create the constraints: cypher-shell -f {result.directory / 'constraints.cypher'}",
          file=sys.stderr)
    return 0


def _add_export_cypher(export_sub: Any) -> None:
    from kg.export.cypher import DEFAULT_BATCH_SIZE

    p = export_sub.add_parser(
        "cypher", help="a parameterized Cypher script for cypher-shell -f",
        formatter_class=formatter, epilog=example("kg export cypher -g out -o out/graph.cypher\n"
                                                    "  cypher-shell -u neo4j -f out/graph.cypher"))
    add_graph_option(p)
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the .cypher file to write")
    p.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE, metavar="N",
                   help=f"rows per statement (default: {DEFAULT_BATCH_SIZE})")
    p.set_defaults(run=_run_export_cypher)


def _run_export_cypher(args: argparse.Namespace) -> int:
    import kg

    result = kg.KnowledgeGraph(args.graph).write_cypher(args.output, batch_size=args.batch_size)
    print(f"wrote {result.path}: {result.statements} statements for {result.nodes} nodes and "
          f"{result.relationships} relationships; load with: cypher-shell -f {result.path}", file=sys.stderr)
    return 0


def _add_export_rdf(export_sub: Any) -> None:
    from kg.export.rdf import RDF_FORMATS

    p = export_sub.add_parser(
        "rdf", help="the RDF graph as Turtle, N-Triples, JSON-LD or RDF/XML",
        formatter_class=formatter,
        epilog=example("kg export rdf -g out --format jsonld -o out/graph.jsonld"))
    add_graph_option(p)
    p.add_argument("--format", dest="rdf_format", choices=list(RDF_FORMATS), default="turtle",
                   help="serialization (default: turtle)")
    p.add_argument("-o", "--output", default="-", metavar="FILE", help="file to write (default: stdout)")
    p.set_defaults(run=_run_export_rdf)


def _run_export_rdf(args: argparse.Namespace) -> int:
    import kg

    to_stdout = args.output == "-"
    graph = kg.KnowledgeGraph(args.graph)
    result, data = graph.write_rdf(None if to_stdout else args.output, args.rdf_format)
    if to_stdout:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    replaced = (f"; {result.replaced_chars} control character(s) XML cannot hold written as U+FFFD"
                if result.replaced_chars else "")
    print(f"wrote {result.triples} triples as {result.format} to {args.output}{replaced}", file=sys.stderr)
    return 0


def _add_export_table(export_sub: Any, fmt: str, help_text: str, what: str) -> None:
    p = export_sub.add_parser(fmt, help=help_text, formatter_class=formatter,
                              epilog=example(f"kg export {fmt} -g out -o out/{what}"))
    add_graph_option(p)
    meta = "OUTDIR" if fmt == "csv" else "FILE"
    p.add_argument("-o", "--output", required=True, metavar=meta,
                   help="directory for nodes.csv and edges.csv" if fmt == "csv" else "the file to write")
    p.set_defaults(run=_run_export_table, table_format=fmt)


def _run_export_table(args: argparse.Namespace) -> int:
    import kg

    graph = kg.KnowledgeGraph(args.graph)
    writers = {"graphml": graph.write_graphml, "gexf": graph.write_gexf, "csv": graph.write_csv}
    writer = writers[args.table_format]
    result = writer(args.output)
    replaced = (f"; {result.replaced_chars} control character(s) XML cannot hold written as U+FFFD"
                if result.replaced_chars else "")
    print(f"wrote {', '.join(str(p) for p in result.paths)}: {result.nodes} nodes, {result.edges} edges"
          f"{replaced}", file=sys.stderr)
    return 0


def _add_export_files(export_sub: Any) -> None:
    _add_export_table(export_sub, "graphml", "GraphML (string attributes; Gephi, yEd, Cytoscape)",
                      "graph.graphml")
    _add_export_table(export_sub, "gexf", "GEXF 1.2 for Gephi (string attributes)", "graph.gexf")
    _add_export_table(export_sub, "csv", "nodes.csv and edges.csv", "tables")


# Each entry adds one `kg export FORMAT` subcommand; exporters add theirs here.
EXPORT_FORMATS: list[Callable[[Any], None]] = [_add_export_html, _add_export_neo4j, _add_export_neo4j_csv,
                                                _add_export_cypher, _add_export_rdf, _add_export_files]


def add_export(sub: Any) -> None:
    p = sub.add_parser("export", help="export a built graph (html, …)", formatter_class=formatter,
                       epilog=example("kg export html -g out -o out/graph.html"))
    export_sub = p.add_subparsers(dest="format", metavar="FORMAT")
    for add in EXPORT_FORMATS:
        add(export_sub)
