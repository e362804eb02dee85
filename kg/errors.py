"""Every error kg raises on purpose, in one place.

The CLI turns a :class:`KGError` into one line on stderr and its ``exit_code``; anything else
is a bug. Messages name the file, the record (line number or id) and what was expected.
"""

from __future__ import annotations


class KGError(Exception):
    """Root of kg's own errors."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class InputError(KGError):
    """A bad input file or record. ``record`` is a 1-based line/record number or an id."""

    def __init__(self, file: str, record: int | str | None, message: str) -> None:
        self.file = file
        self.record = record
        if record is None:
            where = file
        elif str(record).startswith(("line ", "after ")):
            where = f"{file}: {record}"
        else:
            where = f"{file}: record {record}"
        super().__init__(f"{where}: {message}")


class ConfigError(KGError):
    """A bad option, configuration value or missing resource (e.g. no spaCy pipeline)."""


class OutputError(KGError):
    """An output that could not be written (not writable, disk full); nothing half-written."""


class GraphDirError(KGError):
    """A graph directory that is missing, incomplete, locked or not writable."""


class QueryError(KGError):
    """A SPARQL/Cypher query that does not parse or run, or an unknown named query."""


class ExportError(KGError):
    """An export that could not complete (e.g. the Neo4j server went away)."""

    exit_code = 1


class ExtractionError(KGError):
    """Extraction that could not finish because a process doing it died (killed, out of memory)."""

    exit_code = 1


class EvalError(KGError):
    """A gold/judgment file that cannot be used for evaluation."""
