"""Export a built graph as ``neo4j-admin database import full`` CSV files, for offline bulk loads.

One file per label (``nodes_<Label>.csv``) and one per relationship type (``rels_<TYPE>.csv``),
each with its typed header row (``key:ID``, ``year:long``, ``authors:string[]``, ``:START_ID`` …),
the same nodes, relationships and properties as the Bolt export (:mod:`kg.export.neo4j_model`), plus
``import.sh`` holding the exact import command and ``constraints.cypher`` with the uniqueness
constraints to create after the import (the importer does not create them).

Format choices, all passed on the printed command line:

- every present value is double-quoted (a quote inside is doubled); an absent value is an empty,
  unquoted field, which the importer reads as "no property";
- ``--multiline-fields=true``: abstracts and evidence sentences may contain newlines;
- ``--array-delimiter=U+001F`` (the ASCII unit separator) instead of ``;``, which real names
  contain; the rare U+001F inside a value is replaced by U+FFFD;
- node ids live in one global id space (they are unique across labels: ``paper:…``, ``Method:…``).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import networkx as nx

from kg.export.neo4j_model import (
    KEY,
    constraint_statements,
    node_rows,
    relationship_rows,
)
from kg.fileio import atomic_write

ARRAY_DELIMITER = "\x1f"
ARRAY_DELIMITER_ARG = "U+001F"
DEFAULT_DATABASE = "neo4j"


@dataclass(frozen=True, slots=True)
class Neo4jCsvExport:
    """The files written and the command that imports them."""

    directory: Path
    node_files: dict[str, Path]
    relationship_files: dict[str, Path]
    nodes: int
    relationships: int
    command: list[str]

    @property
    def command_line(self) -> str:
        """The import command as one shell-quoted line."""
        return " ".join(shlex.quote(a) for a in self.command)


def _column_type(values: Iterable[Any]) -> str:
    """The importer type suffix for a column: boolean, long, double, their arrays, else string."""
    kinds: set[str] = set()
    for value in values:
        if isinstance(value, list):
            inner = {_scalar_kind(v) for v in value}
            kinds.add(("array:" + inner.pop()) if len(inner) == 1 else "array:string")
        else:
            kinds.add(_scalar_kind(value))
    if kinds == {"long", "double"}:
        return "double"
    if kinds == {"array:long", "array:double"}:
        return "double[]"
    if len(kinds) == 1:
        kind = kinds.pop()
        return kind[len("array:"):] + "[]" if kind.startswith("array:") else kind
    return "string[]" if all(k.startswith("array:") for k in kinds) else "string"


def _scalar_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    return "string"


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value).replace(ARRAY_DELIMITER, "\ufffd")


def _field(value: Any, column_type: str) -> str:
    """One CSV field: absent → empty and unquoted, else quoted with doubled inner quotes."""
    if value is None:
        return ""
    # A lone scalar in an array column is read by the importer as a one-element array.
    text = ARRAY_DELIMITER.join(_scalar_text(v) for v in value) if isinstance(value, list) \
        else _scalar_text(value)
    return '"' + text.replace('"', '""') + '"'


def _header(name: str, column_type: str) -> str:
    # Property names never contain ':' or ',' or quotes in kg graphs; refuse anything odd anyway.
    safe = name.replace('"', "").replace(",", "_").replace(":", "_")
    return safe if column_type == "string" else f"{safe}:{column_type}"


def _write_table(path: Path, fixed: list[str], fixed_values: list[list[str]],
                 props: list[dict[str, Any]]) -> None:
    """A CSV file: the fixed columns (already typed headers), then one column per property."""
    columns = sorted({name for row in props for name in row} - {KEY})
    types = {c: _column_type(row[c] for row in props if c in row) for c in columns}
    with atomic_write(path) as out:
        out.write(",".join([*fixed, *(_header(c, types[c]) for c in columns)]) + "\n")
        for head, row in zip(fixed_values, props, strict=True):
            fields = ['"' + v.replace('"', '""') + '"' for v in head]
            fields += [_field(row.get(c), types[c]) for c in columns]
            out.write(",".join(fields) + "\n")


def export_neo4j_csv(nx_graph: nx.MultiDiGraph, out_dir: str | Path, *,
                     database: str = DEFAULT_DATABASE) -> Neo4jCsvExport:
    """Write the import CSVs, ``import.sh`` and ``constraints.cypher`` into ``out_dir``.

    Args:
        nx_graph: a graph following the graph contract.
        out_dir: the directory to write (created if missing; files replaced atomically).
        database: the database name the import command targets.

    Returns:
        The files and the exact ``neo4j-admin database import full`` command.

    Raises:
        ExportError: a node or edge outside the ontology.
        OutputError: the directory or a file cannot be written.
    """
    directory = Path(out_dir)
    node_files: dict[str, Path] = {}
    for label, rows in node_rows(nx_graph).items():
        path = directory / f"nodes_{label}.csv"
        _write_table(path, [f"{KEY}:ID"], [[r[KEY]] for r in rows], [r["props"] for r in rows])
        node_files[label] = path

    by_type: dict[str, list[dict[str, Any]]] = {}
    for batch, rows in relationship_rows(nx_graph).items():
        by_type.setdefault(batch.rel_type, []).extend(rows)
    relationship_files: dict[str, Path] = {}
    for rel, rows in sorted(by_type.items()):
        rows.sort(key=lambda r: (r["start"], r["end"]))
        path = directory / f"rels_{rel}.csv"
        _write_table(path, [":START_ID", ":END_ID"], [[r["start"], r["end"]] for r in rows],
                     [r["props"] for r in rows])
        relationship_files[rel] = path

    command = [
        "neo4j-admin", "database", "import", "full",
        *(f"--nodes={label}={path.resolve()}" for label, path in node_files.items()),
        *(f"--relationships={rel}={path.resolve()}" for rel, path in relationship_files.items()),
        "--multiline-fields=true",
        f"--array-delimiter={ARRAY_DELIMITER_ARG}",
        database,
    ]
    result = Neo4jCsvExport(
        directory=directory,
        node_files=node_files,
        relationship_files=relationship_files,
        nodes=nx_graph.number_of_nodes(),
        relationships=nx_graph.number_of_edges(),
        command=command,
    )
    with atomic_write(directory / "constraints.cypher") as out:
        out.write("// Run after the import: kg's uniqueness constraints "
                  "(cypher-shell -f constraints.cypher)\n")
        for statement in constraint_statements():
            out.write(statement + ";\n")
    with atomic_write(directory / "import.sh") as out:
        out.write("#!/bin/sh\n# Written by `kg export neo4j-csv`. Run with the database stopped; "
                  "the target database must be new or empty.\n")
        out.write(result.command_line + "\n")
    (directory / "import.sh").chmod(0o755)
    return result
