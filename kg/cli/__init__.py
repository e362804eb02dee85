"""The ``kg`` command line. Nothing imports this package; it only calls the stages.

One module per command group: :mod:`~kg.cli.build` (ingest, extract, build, remove, compact),
:mod:`~kg.cli.query` (query, stats), :mod:`~kg.cli.export`, :mod:`~kg.cli.related`,
:mod:`~kg.cli.evaluate` (eval), and :mod:`~kg.cli.common` for what they share. Every
subcommand's parser is built by one ``add_<command>`` function and run by one
``_run_<command>`` function. Errors the user can fix arrive as :class:`kg.errors.KGError` and
leave as one line on stderr with the error's exit code (2 for bad input), never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from kg.cli.build import add_build, add_compact, add_extract, add_ingest, add_remove
from kg.cli.common import EPILOG_HELP, formatter
from kg.cli.evaluate import add_eval
from kg.cli.export import add_export
from kg.cli.query import add_query, add_stats
from kg.cli.related import add_related
from kg.errors import KGError

# --------------------------------------------------------------------------- command table

# Each entry adds one subcommand. Later stages add theirs here.
COMMANDS: list[Callable[[Any], None]] = [
    add_ingest, add_extract, add_build, add_remove, add_compact, add_query, add_stats, add_export,
    add_related, add_eval,
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kg",
        description="Build a typed knowledge graph of ML paper abstracts.",
        formatter_class=formatter,
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

