"""Export a built graph as a Cypher script for ``cypher-shell -f FILE``: parameters, never spliced text.

The script holds the uniqueness constraints, then, per batch, a ``:param {rows: [...]}`` line that
sets the batch's rows as the query parameter ``$rows`` and the same ``UNWIND $rows … MERGE``
statement the Bolt export runs (:mod:`kg.export.neo4j_model`). User text thus only ever appears
inside parameter values, as Cypher string literals with every quote, backslash and control
character escaped; the statements themselves name only ontology labels and relationship types.
Loading the script twice leaves the same graph.

    cypher-shell -a bolt://localhost:7687 -u neo4j -f graph.cypher
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import networkx as nx

from kg.errors import ExportError
from kg.export.neo4j_model import (
    batched,
    constraint_statements,
    merge_nodes_statement,
    merge_relationships_statement,
    node_rows,
    relationship_rows,
)
from kg.fileio import atomic_write

# Rows per :param line; one line per batch keeps each cypher-shell command on a single line.
DEFAULT_BATCH_SIZE = 200
_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
# Backslash, quote, C0/C1 controls, DEL, line/paragraph separators and lone surrogates.
_NEEDS_ESCAPE = re.compile("[\\\\'\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class CypherExport:
    """The script written: where, how many rows and statements."""

    path: Path
    nodes: int
    relationships: int
    statements: int


def _escape(match: re.Match[str]) -> str:
    c = match.group(0)
    return _ESCAPES.get(c) or f"\\u{ord(c):04x}"


def cypher_string(text: str) -> str:
    """A Cypher string literal that reads back as exactly ``text``.

    >>> cypher_string("it's")
    "'it\\\\'s'"
    """
    return "'" + _NEEDS_ESCAPE.sub(_escape, text) + "'"


def cypher_name(name: str) -> str:
    """A map key: bare when it is a plain identifier, else backtick-quoted (backticks doubled)."""
    return name if _IDENTIFIER.match(name) else "`" + name.replace("`", "``") + "`"


def cypher_literal(value: Any) -> str:
    """A Cypher literal for a parameter value (strings, numbers, booleans, lists, maps, null).

    Raises:
        ExportError: a value Cypher cannot express as a literal (NaN, infinity, other objects).
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ExportError(f"cannot write the non-finite number {value!r} as a Cypher literal")
        return repr(value)
    if isinstance(value, str):
        return cypher_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(cypher_literal(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{cypher_name(str(k))}: {cypher_literal(v)}" for k, v in value.items()) + "}"
    raise ExportError(f"cannot write a {type(value).__name__} as a Cypher literal")


def _write_batch(out: IO[Any], statement: str, rows: Sequence[dict[str, Any]]) -> None:
    out.write(":param {rows: " + cypher_literal(rows) + "}\n")
    out.write(statement + ";\n")


def export_cypher(nx_graph: nx.MultiDiGraph, path: str | Path, *,
                  batch_size: int = DEFAULT_BATCH_SIZE) -> CypherExport:
    """Write the cypher-shell script for ``nx_graph`` to ``path`` (atomically).

    Args:
        nx_graph: a graph following the graph contract.
        path: the ``.cypher`` file to write.
        batch_size: rows per ``:param`` line and statement.

    Returns:
        The path and counts.

    Raises:
        ExportError: a node or edge outside the ontology, or an unwritable value.
        OutputError: the file cannot be written.
    """
    if batch_size < 1:
        raise ExportError(f"batch size must be at least 1, got {batch_size}")
    target = Path(path)
    nodes = node_rows(nx_graph)
    rels = relationship_rows(nx_graph)
    n_nodes = sum(len(r) for r in nodes.values())
    n_rels = sum(len(r) for r in rels.values())
    statements = 0
    with atomic_write(target) as out:
        out.write(f"// Written by `kg export cypher`: {n_nodes} nodes, {n_rels} relationships.\n"
                  f"// Load with: cypher-shell -a bolt://localhost:7687 -u neo4j -f {target.name}\n"
                  "// Values are query parameters (:param); re-loading leaves the same graph (MERGE).\n")
        for statement in constraint_statements():
            out.write(statement + ";\n")
            statements += 1
        for label, rows in nodes.items():
            for batch in batched(rows, batch_size):
                _write_batch(out, merge_nodes_statement(label), batch)
                statements += 1
        for key, rows in rels.items():
            for batch in batched(rows, batch_size):
                _write_batch(out, merge_relationships_statement(key), batch)
                statements += 1
        out.write(":param {rows: []}\n")
    return CypherExport(path=target, nodes=n_nodes, relationships=n_rels, statements=statements)
