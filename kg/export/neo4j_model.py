"""How the graph maps onto Neo4j, and every Cypher statement kg sends or writes, in one place.

The three Neo4j exports (Bolt: :mod:`kg.export.neo4j`, ``neo4j-admin`` CSV:
:mod:`kg.export.neo4j_csv`, cypher-shell file: :mod:`kg.export.cypher`) all take their rows and their
statements from here, so they store the same nodes, relationships and properties.

- A node's label is its ``kind`` (an ontology class, :func:`kg.vocab.node_label`); its property
  ``key`` holds the networkx node id (``paper:p-…``, ``Method:sgd``, ``bound:p-…:0``), unique per
  label by a constraint. Its other properties are its networkx attributes but ``kind``, which
  the label already says (``labels(n)``).
- A relationship's type is the UPPER_SNAKE of its predicate (:func:`kg.vocab.rel_type`); its
  properties are the edge attributes (evidence offsets, sentence, confidence, weight, shared …)
  but ``predicate``, which the type already says (``type(r)``). Storing neither twice saves
  a property write per node and per relationship (``docs/performance.md``: what it saves).
- Property values are what Neo4j can store: ``None``, empty lists and non-finite floats are left
  out (absent means unknown or empty), lists become lists of one primitive type (of strings when
  mixed), mappings become JSON text.

Labels and relationship types come only from the ontology's fixed set, checked here, and are
the only names ever spliced into Cypher text; every value travels as a query parameter.
"""

from __future__ import annotations

import math
import operator
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import networkx as nx
import orjson

from kg.errors import ExportError
from kg.graphdir import NodeLink
from kg.vocab import CLASSES, EDGE_PROPERTIES, node_label, rel_type

KEY = "key"
# The only names that may appear inside Cypher text: the ontology's labels and types.
LABELS: tuple[str, ...] = tuple(node_label(c) for c in CLASSES)
REL_TYPES: tuple[str, ...] = tuple(rel_type(p) for p in EDGE_PROPERTIES)
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
T = TypeVar("T")


def _name(name: str, allowed: tuple[str, ...]) -> str:
    """A label or type for Cypher text, backtick-quoted, after checking it is an ontology name."""
    if name not in allowed or not _NAME.match(name):
        raise ExportError(f"{name!r} is not an ontology label or relationship type; refusing to write it")
    return f"`{name}`"


# ------------------------------------------------------------------------------------ values


def neo4j_value(value: Any) -> Any:
    """A networkx attribute value as a value Neo4j can store, or ``None`` to leave it out.

    >>> neo4j_value(["a", 1])
    ['a', '1']
    >>> neo4j_value([]) is None
    True
    """
    kind = type(value)
    if kind is str or kind is bool:  # exact types first: this runs once per property of a big graph
        return value
    if kind is int:
        return value if INT64_MIN <= value <= INT64_MAX else str(value)
    if kind is float:
        return value if math.isfinite(value) else None
    if value is None:
        return None
    if isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return value if INT64_MIN <= value <= INT64_MAX else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS, default=str).decode()
    if isinstance(value, list | tuple | set | frozenset):
        items = [neo4j_value(v) for v in (sorted(value, key=str) if isinstance(value, set | frozenset)
                                          else value)]
        items = [v for v in items if v is not None and not isinstance(v, list)]
        if not items:
            return None
        kinds = {type(v) for v in items}
        if len(kinds) == 1:
            return items
        if kinds == {int, float}:
            return [float(v) for v in items]
        return [v if isinstance(v, str) else orjson.dumps(v).decode() for v in items]
    return str(value)


def neo4j_props(attrs: Mapping[str, Any], leave_out: str | None = None) -> dict[str, Any]:
    """A node's or edge's attributes as Neo4j properties (sorted by name, absent values left out,
    and the attribute ``leave_out``, which the label or type already says)."""
    out: dict[str, Any] = {}
    for name in sorted(attrs):
        if name == leave_out:
            continue
        value = neo4j_value(attrs[name])
        if value is not None:
            out[str(name)] = value
    return out


# -------------------------------------------------------------------------------------- rows


@dataclass(frozen=True, slots=True)
class NodeBatchKey:
    """The rows of one node statement share a label."""

    label: str


@dataclass(frozen=True, slots=True)
class RelBatchKey:
    """The rows of one relationship statement share a type and both end labels."""

    rel_type: str
    start_label: str
    end_label: str


NodeItem = tuple[str, Mapping[str, Any]]
EdgeItem = tuple[str, str, Mapping[str, Any]]


def node_groups(graph: nx.MultiDiGraph | NodeLink) -> dict[str, list[NodeItem]]:
    """``(node id, attributes)`` per label, labels and items sorted by id (deterministic).

    Raises:
        ExportError: a node without a ``kind`` that is an ontology class.
    """
    groups: dict[str, list[NodeItem]] = defaultdict(list)
    for node_id, attrs in NodeLink.of(graph).nodes:
        groups[label_of(node_id, attrs)].append((str(node_id), attrs))
    return {label: sorted(groups[label], key=lambda item: item[0]) for label in sorted(groups)}


def node_row(item: NodeItem) -> dict[str, Any]:
    """The statement row ``{"key": id, "props": {...}}`` of a node."""
    node_id, attrs = item
    props = neo4j_props(attrs, leave_out="kind")
    props[KEY] = node_id
    return {KEY: node_id, "props": props}


def node_rows(graph: nx.MultiDiGraph | NodeLink) -> dict[str, list[dict[str, Any]]]:
    """Rows ``{"key": id, "props": {...}}`` per label, labels and rows sorted (deterministic).

    Raises:
        ExportError: a node without a ``kind`` that is an ontology class.
    """
    return {label: [node_row(item) for item in items] for label, items in node_groups(graph).items()}


def label_of(node_id: Any, attrs: Mapping[str, Any]) -> str:
    """The Neo4j label of a node: its ``kind``, which must be an ontology class."""
    kind = attrs.get("kind")
    if kind not in CLASSES:
        raise ExportError(f"node {node_id!r}: kind {kind!r} is not an ontology class {list(CLASSES)}")
    return node_label(kind)


def relationship_groups(graph: nx.MultiDiGraph | NodeLink) -> dict[RelBatchKey, list[EdgeItem]]:
    """``(start id, end id, attributes)`` per (type, start label, end label), all sorted.

    Raises:
        ExportError: an edge whose predicate is not an ontology object property, or an end
            that is not a node of the graph.
    """
    items = NodeLink.of(graph)
    labels = {node_id: label_of(node_id, attrs) for node_id, attrs in items.nodes}
    types = {p: rel_type(p) for p in EDGE_PROPERTIES}
    # Grouped under plain tuples (hashed in C): one key per edge of a 650k-edge graph.
    groups: dict[tuple[str, str, str], list[EdgeItem]] = defaultdict(list)
    for u, v, key, attrs in items.edges:
        predicate = attrs.get("predicate", key)
        if predicate not in types:
            raise ExportError(f"edge {u!r} -> {v!r}: predicate {predicate!r} is not an ontology property")
        if u not in labels or v not in labels:
            raise ExportError(f"edge {u!r} -> {v!r}: an end is not a node of the graph")
        groups[(types[predicate], labels[u], labels[v])].append((str(u), str(v), attrs))
    by_ends = operator.itemgetter(0, 1)
    return {RelBatchKey(*k): sorted(groups[k], key=by_ends) for k in sorted(groups)}


def relationship_row(item: EdgeItem) -> dict[str, Any]:
    """The statement row ``{"start": id, "end": id, "props": {...}}`` of a relationship."""
    start, end, attrs = item
    return {"start": start, "end": end, "props": neo4j_props(attrs, leave_out="predicate")}


def relationship_rows(graph: nx.MultiDiGraph | NodeLink) -> dict[RelBatchKey, list[dict[str, Any]]]:
    """Rows ``{"start": id, "end": id, "props": {...}}`` per (type, start label, end label), sorted.

    Raises:
        ExportError: an edge whose predicate is not an ontology object property, or an end
            that is not a node of the graph.
    """
    return {k: [relationship_row(item) for item in items] for k, items in relationship_groups(graph).items()}


def expected_counts(
    nodes: Mapping[str, Sequence[NodeItem]], rels: Mapping[RelBatchKey, Sequence[EdgeItem]]
) -> tuple[dict[str, int], dict[str, int]]:
    """What an export must leave in Neo4j, from its :func:`node_groups` and
    :func:`relationship_groups`: nodes per label, relationships per type."""
    labels = {label: len(items) for label, items in nodes.items()}
    types: dict[str, int] = defaultdict(int)
    for key, items in rels.items():
        types[key.rel_type] += len(items)
    return dict(sorted(labels.items())), dict(sorted(types.items()))


def batched(rows: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    """Consecutive slices of ``rows`` of at most ``size`` rows."""
    for i in range(0, len(rows), size):
        yield rows[i : i + size]


# --------------------------------------------------------------------------------- statements


def constraint_name(label: str) -> str:
    """The name kg gives the uniqueness constraint on ``label``'s key (stable, so IF NOT EXISTS works)."""
    return f"kg_{label.lower()}_key"


def constraint_statements() -> list[str]:
    """One ``CREATE CONSTRAINT … IF NOT EXISTS`` per ontology label: ``key`` is unique."""
    return [
        f"CREATE CONSTRAINT {constraint_name(label)} IF NOT EXISTS "
        f"FOR (n:{_name(label, LABELS)}) REQUIRE n.{KEY} IS UNIQUE"
        for label in LABELS
    ]


def merge_nodes_statement(label: str) -> str:
    """Upsert a batch ``$rows`` of one label; ``SET n = props`` makes a re-run leave the same node."""
    return f"UNWIND $rows AS row MERGE (n:{_name(label, LABELS)} {{{KEY}: row.{KEY}}}) SET n = row.props"


def merge_relationships_statement(batch: RelBatchKey) -> str:
    """Upsert a batch ``$rows`` of one relationship type between two labels (ends must exist)."""
    return _relationships_statement(batch, "MERGE")


def _relationships_statement(batch: RelBatchKey, verb: str) -> str:
    start = _name(batch.start_label, LABELS)
    end = _name(batch.end_label, LABELS)
    rel = _name(batch.rel_type, REL_TYPES)
    return (
        f"UNWIND $rows AS row "
        f"MATCH (a:{start} {{{KEY}: row.start}}) MATCH (b:{end} {{{KEY}: row.end}}) "
        f"{verb} (a)-[r:{rel}]->(b) SET r = row.props"
    )


def create_nodes_statement(label: str) -> str:
    """Insert a batch ``$rows`` of one label (the label held no node when the export began)."""
    return f"UNWIND $rows AS row CREATE (n:{_name(label, LABELS)}) SET n = row.props"


def create_relationships_statement(batch: RelBatchKey) -> str:
    """Insert a batch ``$rows`` of one relationship type (none of it existed when the export began)."""
    return _relationships_statement(batch, "CREATE")


def count_outgoing_statement(batch: RelBatchKey) -> str:
    """How many relationships of ``batch``'s type leave a node of its start label (a count-store read)."""
    return (f"MATCH (:{_name(batch.start_label, LABELS)})-[r:{_name(batch.rel_type, REL_TYPES)}]->() "
            "RETURN count(r) AS count")


def delete_project_statement(limit: int = 1000) -> str:
    """Delete up to ``limit`` of this project's nodes (ontology labels only) with their relationships.

    Run it in its own write transaction until it returns 0: bounded transactions on any graph
    size, and plain Cypher that every Neo4j 5 server accepts (no ``CALL … IN TRANSACTIONS``).
    """
    where = " OR ".join(f"n:{_name(label, LABELS)}" for label in LABELS)
    return f"MATCH (n) WHERE {where} WITH n LIMIT {int(limit)} DETACH DELETE n RETURN count(*) AS deleted"


def count_label_statement(label: str) -> str:
    """How many nodes carry ``label``."""
    return f"MATCH (n:{_name(label, LABELS)}) RETURN count(n) AS count"


def count_type_statement(rel: str) -> str:
    """How many relationships have type ``rel``."""
    return f"MATCH ()-[r:{_name(rel, REL_TYPES)}]->() RETURN count(r) AS count"
