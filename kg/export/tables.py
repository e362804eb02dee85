"""Export a built graph for graph tools and spreadsheets: GraphML, GEXF (Gephi) and nodes/edges CSV.

Every attribute is written as a string, and an absent value (``None``) is left out rather than
written as ``"None"``: lists and mappings become JSON text (``["SGD", "Adam"]``), booleans
``true``/``false``, numbers their shortest round-trip text. Nodes and edges are written sorted, so
the same build gives the same bytes.

- GraphML: node ids are the graph's node ids; each edge gets the id ``e<n>`` (GraphML edge ids are
  unique; the predicate stays in the ``predicate`` attribute).
- GEXF: names GEXF reserves for itself are renamed so nothing is lost: node ``id`` → ``paper_id``,
  ``start``/``end`` → ``span_start``/``span_end`` (GEXF reads those as time intervals); the edge
  label is its predicate; a share edge's ``weight`` is GEXF's numeric edge weight.
- XML 1.0 cannot hold most control characters: GraphML/GEXF write U+FFFD in their place and count them.
- CSV: ``nodes.csv`` (``id, kind, label``, then every other attribute; a paper's own ``id``
  attribute becomes ``paper_id``) and ``edges.csv`` (``source, target, predicate``, then every
  other attribute), UTF-8, RFC 4180 quoting. Values are written verbatim: a spreadsheet may read
  a cell starting with ``=`` as a formula, so open the files as text/CSV import, not by double-click.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import networkx as nx
import orjson

from kg.errors import ExportError
from kg.fileio import atomic_write

_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
# GEXF's own attribute names (networkx pops them off the data): renamed so no value is lost.
GEXF_NODE_RENAMES = {"id": "paper_id", "start": "span_start", "end": "span_end", "pid": "kg_pid",
                     "viz": "kg_viz", "parents": "kg_parents", "slices": "kg_slices", "spells": "kg_spells"}
GEXF_EDGE_RENAMES = {"id": "kg_id", "start": "span_start", "end": "span_end", "type": "kg_type",
                     "label": "kg_label", "slices": "kg_slices", "spells": "kg_spells",
                     "networkx_key": "kg_networkx_key"}

# The CSV's own columns (id, source, target) must not be shadowed by an attribute of that name.
CSV_NODE_RENAMES = {"id": "paper_id"}
CSV_EDGE_RENAMES = {"source": "kg_source", "target": "kg_target"}


@dataclass(frozen=True, slots=True)
class TableExport:
    """Files written, counts, and how many XML-invalid characters were replaced."""

    paths: tuple[Path, ...]
    nodes: int
    edges: int
    replaced_chars: int = 0


def attribute_text(value: Any) -> str | None:
    """An attribute value as text, or ``None`` to leave it out.

    >>> attribute_text(["SGD", "Adam"])
    '["SGD","Adam"]'
    >>> attribute_text(True), attribute_text(0.5), attribute_text(None)
    ('true', '0.5', None)
    """
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple | set | frozenset | Mapping):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        return orjson.dumps(items, option=orjson.OPT_SORT_KEYS, default=str).decode()
    return str(value)


def _text_attrs(attrs: Mapping[str, Any], renames: Mapping[str, str] | None = None) -> dict[str, str]:
    out: dict[str, str] = {}
    for name in sorted(attrs):
        text = attribute_text(attrs[name])
        if text is not None:
            out[(renames or {}).get(str(name), str(name))] = text
    return out


class _XmlCleaner:
    def __init__(self) -> None:
        self.replaced = 0

    def attrs(self, attrs: dict[str, str]) -> dict[str, str]:
        out = {}
        for name, text in attrs.items():
            clean, n = _XML_INVALID.subn("\ufffd", text)
            self.replaced += n
            out[name] = clean
        return out


def _sorted_edges(nx_graph: nx.MultiDiGraph) -> list[tuple[Any, Any, Any, dict[str, Any]]]:
    return sorted(nx_graph.edges(keys=True, data=True), key=lambda e: (str(e[0]), str(e[1]), str(e[2])))


def graphml_graph(nx_graph: nx.MultiDiGraph) -> tuple[nx.MultiDiGraph, int]:
    """The copy written as GraphML: string attributes, sorted, edge keys ``e<n>``."""
    clean = _XmlCleaner()
    out = nx.MultiDiGraph()
    for node in sorted(nx_graph.nodes, key=str):
        out.add_node(str(node), **clean.attrs(_text_attrs(nx_graph.nodes[node])))
    for i, (u, v, key, attrs) in enumerate(_sorted_edges(nx_graph)):
        data = _text_attrs(attrs)
        data.setdefault("predicate", str(key))
        out.add_edge(str(u), str(v), key=f"e{i}", **clean.attrs(data))
    return out, clean.replaced


def gexf_graph(nx_graph: nx.MultiDiGraph) -> tuple[nx.MultiDiGraph, int]:
    """The copy written as GEXF: string attributes with GEXF's reserved names renamed."""
    clean = _XmlCleaner()
    out = nx.MultiDiGraph()
    for node in sorted(nx_graph.nodes, key=str):
        out.add_node(str(node), **clean.attrs(_text_attrs(nx_graph.nodes[node], GEXF_NODE_RENAMES)))
    for i, (u, v, key, attrs) in enumerate(_sorted_edges(nx_graph)):
        data = _text_attrs({k: x for k, x in attrs.items() if k != "weight"}, GEXF_EDGE_RENAMES)
        data.setdefault("predicate", str(key))
        data["label"] = data["predicate"]
        data["id"] = f"e{i}"
        edge: dict[str, Any] = clean.attrs(data)
        weight = attrs.get("weight")
        if isinstance(weight, int | float) and not isinstance(weight, bool):
            edge["weight"] = float(weight)  # GEXF's own numeric edge weight, which Gephi uses
        out.add_edge(str(u), str(v), key=f"e{i}", **edge)
    return out, clean.replaced


def _write_xml(graph: nx.MultiDiGraph, replaced: int, path: str | Path, fmt: str) -> TableExport:
    """Write the prepared string-attribute ``graph`` as GraphML or GEXF, atomically."""
    writer = {"GraphML": nx.write_graphml, "GEXF": nx.write_gexf}[fmt]
    target = Path(path)
    with atomic_write(target, "wb") as out:
        try:
            writer(graph, out, encoding="utf-8", prettyprint=True)
        except (TypeError, ValueError, nx.NetworkXError) as exc:
            raise ExportError(f"{target}: cannot write {fmt}: {exc}") from exc
    return TableExport((target,), graph.number_of_nodes(), graph.number_of_edges(), replaced)


def export_graphml(nx_graph: nx.MultiDiGraph, path: str | Path) -> TableExport:
    """Write ``nx_graph`` as GraphML (string attributes only) to ``path``, atomically.

    Raises:
        ExportError: networkx cannot write the graph.
        OutputError: the file cannot be written.
    """
    return _write_xml(*graphml_graph(nx_graph), path, "GraphML")


def export_gexf(nx_graph: nx.MultiDiGraph, path: str | Path) -> TableExport:
    """Write ``nx_graph`` as GEXF 1.2 (string attributes only, Gephi-ready) to ``path``, atomically.

    Raises:
        ExportError: networkx cannot write the graph.
        OutputError: the file cannot be written.
    """
    return _write_xml(*gexf_graph(nx_graph), path, "GEXF")


def export_csv(nx_graph: nx.MultiDiGraph, out_dir: str | Path) -> TableExport:
    """Write ``nodes.csv`` and ``edges.csv`` into ``out_dir``, atomically.

    Raises:
        OutputError: a file cannot be written.
    """
    directory = Path(out_dir)
    nodes = [(str(n), _text_attrs(nx_graph.nodes[n], CSV_NODE_RENAMES))
             for n in sorted(nx_graph.nodes, key=str)]
    node_fixed = ["kind", "label"]
    node_cols = sorted({k for _n, a in nodes for k in a} - set(node_fixed))
    nodes_path = directory / "nodes.csv"
    with atomic_write(nodes_path) as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["id", *node_fixed, *node_cols])
        for node, attrs in nodes:
            writer.writerow([node, *(attrs.get(c, "") for c in [*node_fixed, *node_cols])])

    edges = []
    for u, v, key, attrs in _sorted_edges(nx_graph):
        data = _text_attrs(attrs, CSV_EDGE_RENAMES)
        data.setdefault("predicate", str(key))
        edges.append((str(u), str(v), data))
    edge_cols = sorted({k for _u, _v, a in edges for k in a} - {"predicate"})
    edges_path = directory / "edges.csv"
    with atomic_write(edges_path) as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["source", "target", "predicate", *edge_cols])
        for u, v, data in edges:
            writer.writerow([u, v, data["predicate"], *(data.get(c, "") for c in edge_cols)])
    return TableExport((nodes_path, edges_path), len(nodes), len(edges))
