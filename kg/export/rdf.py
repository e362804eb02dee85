"""Export the RDF graph of a build in another serialization: Turtle, N-Triples, JSON-LD or RDF/XML.

The triples are those of ``DIR/graph.ttl`` (the ontology's terms, :mod:`kg.vocab`), added to a
fresh graph in sorted order so every serializer sees them in the same order: the same build gives
the same bytes. RDF/XML (XML 1.0) cannot hold most control characters; a literal holding one is
written with U+FFFD in its place and the count is reported (the other formats keep it verbatim).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rdflib import Graph, Literal
from rdflib.term import Node

from kg.errors import ConfigError, ExportError
from kg.fileio import atomic_write
from kg.vocab import PREFIXES

# name on the command line → (rdflib plugin, usual file extension)
RDF_FORMATS: dict[str, tuple[str, str]] = {
    "turtle": ("turtle", ".ttl"),
    "nt": ("nt", ".nt"),
    "jsonld": ("json-ld", ".jsonld"),
    "xml": ("xml", ".rdf"),
}
# Characters XML 1.0 forbids (everything below U+0020 except tab, newline, return; U+FFFE/FFFF).
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class RdfExport:
    """The serialization written: where, which format, how many triples and replaced characters."""

    path: Path | None
    format: str
    triples: int
    replaced_chars: int = 0


def _xml_safe(term: Node) -> tuple[Node, int]:
    if isinstance(term, Literal) and _XML_INVALID.search(str(term)):
        text, n = _XML_INVALID.subn("\ufffd", str(term))
        return Literal(text, lang=term.language, datatype=term.datatype), n
    return term, 0


def serialize_rdf(rdf_graph: Graph, fmt: str = "turtle") -> tuple[bytes, int]:
    """The graph's bytes in ``fmt`` (a key of :data:`RDF_FORMATS`) and the number of replaced characters.

    Raises:
        ConfigError: an unknown format.
        ExportError: rdflib cannot serialize the graph.
    """
    if fmt not in RDF_FORMATS:
        raise ConfigError(f"unknown RDF format {fmt!r}; choose one of {', '.join(RDF_FORMATS)}")
    plugin = RDF_FORMATS[fmt][0]
    ordered = Graph(bind_namespaces="none")
    for prefix, namespace in sorted(PREFIXES.items()):
        ordered.bind(prefix, namespace)
    replaced = 0
    for s, p, o in sorted(rdf_graph):
        if fmt == "xml":
            o, n = _xml_safe(o)
            replaced += n
        ordered.add((s, p, o))
    try:
        if fmt == "jsonld":
            data = ordered.serialize(format=plugin, encoding="utf-8", context=dict(sorted(PREFIXES.items())))
        else:
            data = ordered.serialize(format=plugin, encoding="utf-8")
    except Exception as exc:  # rdflib raises assorted serializer errors
        raise ExportError(f"cannot serialize the graph as {fmt}: {exc}") from exc
    if fmt == "nt":
        # One triple per line, lines sorted: diffable, and identical for identical graphs.
        lines = sorted(line for line in bytes(data).split(b"\n") if line)
        return b"".join(line + b"\n" for line in lines), replaced
    return bytes(data), replaced


def export_rdf(rdf_graph: Graph, path: str | Path | None, fmt: str = "turtle") -> tuple[RdfExport, bytes]:
    """Serialize ``rdf_graph`` as ``fmt`` into ``path`` (atomically), or only return the bytes.

    Args:
        rdf_graph: the build's RDF graph (:func:`kg.graphdir.load_rdf`).
        path: the file to write, or ``None`` to write nothing (the caller prints the bytes).
        fmt: ``turtle``, ``nt``, ``jsonld`` or ``xml``.

    Returns:
        What was written, and the serialized bytes.

    Raises:
        ConfigError: an unknown format.
        ExportError: the graph cannot be serialized.
        OutputError: the file cannot be written.
    """
    data, replaced = serialize_rdf(rdf_graph, fmt)
    target = Path(path) if path is not None else None
    if target is not None:
        with atomic_write(target, "wb") as out:
            out.write(data)
    return RdfExport(path=target, format=fmt, triples=len(rdf_graph), replaced_chars=replaced), data
