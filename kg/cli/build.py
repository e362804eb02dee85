"""``kg ingest``, ``kg extract``, ``kg build`` (and ``--update``), ``kg remove``, ``kg compact``:
the commands that read inputs and make or change a build directory."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from typing import Any

from kg.cli.common import (
    Progress,
    add_input_options,
    add_pipeline_options,
    example,
    formatter,
    print_skipped,
    summarize,
)
from kg.types import RunReport

# --------------------------------------------------------------------------- ingest / extract


def add_ingest(sub: Any) -> None:
    p = sub.add_parser("ingest", help="read inputs into papers (JSONL), without extraction",
                       formatter_class=formatter,
                       epilog=example("kg ingest seeds/ -o papers.jsonl"))
    add_input_options(p)
    p.add_argument("-o", "--output", default="-", help="output JSONL (default: stdout)")
    p.set_defaults(run=_run_ingest)


def _run_ingest(args: argparse.Namespace) -> int:
    from kg.fileio import write_jsonl_atomic
    from kg.ingest import read_papers

    report = RunReport()
    papers = read_papers(args.inputs, fmt=args.input_format, skip_bad=args.skip_bad, report=report,
                         strict=args.strict)
    rows = (p.to_json() for p in papers)
    if args.output == "-":
        for row in rows:
            sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
    else:
        write_jsonl_atomic(args.output, rows)
    print(summarize(report, "read"), file=sys.stderr)
    print_skipped(report)
    return 0


def add_extract(sub: Any) -> None:
    p = sub.add_parser("extract", help="extract entities and bounds from abstracts (JSONL out)",
                       formatter_class=formatter,
                       epilog=example("kg extract seeds/ -o x.jsonl"))
    add_input_options(p)
    add_pipeline_options(p)
    p.add_argument("-o", "--output", default="-", help="output JSONL (default: stdout)")
    p.add_argument("--report", default=None, metavar="FILE", help="also save the run report as JSON")
    p.set_defaults(run=_run_extract)


def _run_extract(args: argparse.Namespace) -> int:
    from kg.fileio import write_jsonl_atomic
    from kg.ingest import read_papers
    from kg.pipeline import extract_papers, load_pipeline

    started = time.perf_counter()
    report = RunReport()
    papers = read_papers(args.inputs, fmt=args.input_format, skip_bad=args.skip_bad, report=report,
                         strict=args.strict)
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
    print_skipped(report)
    return 0


# --------------------------------------------------------------------------- graph: build / remove


def add_build(sub: Any) -> None:
    p = sub.add_parser(
        "build", help="build the graph directory (RDF, networkx JSON, extractions, manifest)",
        formatter_class=formatter,
        epilog=example("kg build seeds/ -o out/\n  kg build --update out/ new.jsonl"),
    )
    add_input_options(p)
    add_pipeline_options(p)
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
    import kg
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
            graph = kg.update(args.update, args.inputs, fmt=args.input_format,
                              skip_bad=args.skip_bad, strict=args.strict, workers=args.workers,
                              spacy_model=args.spacy_model, progress=step, on_start=start,
                              engine=args.engine, scheduler=args.scheduler, compact=args.compact)
        else:
            graph = kg.build(args.inputs, output=args.output, fmt=args.input_format,
                             skip_bad=args.skip_bad, strict=args.strict, workers=args.workers,
                             spacy_model=args.spacy_model, use_cache=not args.no_cache,
                             progress=step, on_start=start, engine=args.engine,
                             scheduler=args.scheduler)
    finally:
        for bar in bars:
            bar.close()
    assert graph.run is not None  # a graph made by a build says what the build did
    result = graph.run
    print(summarize(result.report, f"built {result.directory}"), file=sys.stderr)
    print(f"  {result.extracted} paper(s) extracted, {result.reused} reused from the cache",
          file=sys.stderr)
    if args.timings:
        from kg.fileio import write_json_atomic

        write_json_atomic(args.timings, result.report.timings())
    print_skipped(result.report)
    return 0


def add_remove(sub: Any) -> None:
    p = sub.add_parser("remove", help="remove papers (and what only they supported) from a graph",
                       formatter_class=formatter,
                       epilog=example("kg remove out/ p-5469f1db286b"))
    p.add_argument("directory", metavar="DIR", help="the build directory")
    p.add_argument("paper_ids", nargs="+", metavar="PAPER_ID", help="paper ids to remove")
    p.set_defaults(run=_run_remove)


def _run_remove(args: argparse.Namespace) -> int:
    import kg

    result = kg.remove(args.directory, args.paper_ids).run
    assert result is not None
    print(f"removed {len(result.removed)} paper(s) from {result.directory}; "
          f"{result.report.papers} left", file=sys.stderr)
    return 0


def add_compact(sub: Any) -> None:
    p = sub.add_parser("compact", help="fold an update's pending additions into the graph (the bytes "
                                       "of a full rebuild)",
                       formatter_class=formatter, epilog=example("kg compact out/"))
    p.add_argument("directory", metavar="DIR", help="the build directory")
    p.set_defaults(run=_run_compact)


def _run_compact(args: argparse.Namespace) -> int:
    import kg

    result = kg.compact(args.directory).run
    assert result is not None
    print(f"compacted {result.directory}: {result.report.papers} paper(s)", file=sys.stderr)
    return 0
