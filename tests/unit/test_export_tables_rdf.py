"""`kg export rdf`: every serialization re-parses to an isomorphic graph, byte-stable across runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.compare import isomorphic

from kg.errors import ConfigError
from kg.export.rdf import RDF_FORMATS, export_rdf, serialize_rdf
from kg.vocab import DATA_NS, KG, RDF, RDFS, XSD
from tests.fixtures.export_graph import EVIL, HTML_EVIL

PAPER = URIRef(f"{DATA_NS}paper/p-a")
METHOD = URIRef(f"{DATA_NS}method/stochastic-gradient-descent")
EVIL_METHOD = URIRef(f"{DATA_NS}method/evil-net")


def small_rdf() -> Graph:
    """A hand-built graph: typed literals, a language tag, Unicode, newlines and injection text."""
    g = Graph()
    g.add((PAPER, RDF.type, KG.Paper))
    g.add((PAPER, RDFS.label, Literal("Über ∑ — “SGD”\nsecond line")))
    g.add((PAPER, KG.venue, Literal("NeurIPS")))
    g.add((PAPER, KG.titleDerived, Literal(False)))
    g.add((PAPER, KG.topic, Literal(3)))
    g.add((PAPER, KG.confidence, Literal("0.75", datatype=XSD.decimal)))
    g.add((PAPER, KG.author, Literal("Ada Lovelace")))
    g.add((PAPER, KG.author, Literal("Alan Turing")))
    g.add((PAPER, KG.uses, METHOD))
    g.add((PAPER, KG.uses, EVIL_METHOD))
    g.add((METHOD, RDF.type, KG.Method))
    g.add((METHOD, RDFS.label, Literal("stochastic gradient descent", lang="en")))
    g.add((EVIL_METHOD, RDF.type, KG.Method))
    g.add((EVIL_METHOD, KG.canonicalName, Literal(EVIL)))
    g.add((EVIL_METHOD, RDFS.comment, Literal(HTML_EVIL)))
    return g


@pytest.mark.parametrize("fmt", list(RDF_FORMATS))
def test_export_rdf_round_trip_isomorphic(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / f"graph{RDF_FORMATS[fmt][1]}"
    result, data = export_rdf(small_rdf(), path, fmt)
    assert result.triples == 15 and result.replaced_chars == 0
    assert path.read_bytes() == data
    reread = Graph().parse(path, format=RDF_FORMATS[fmt][0])
    assert len(reread) == 15
    assert isomorphic(reread, small_rdf())
    assert (EVIL_METHOD, KG.canonicalName, Literal(EVIL)) in reread


@pytest.mark.parametrize("fmt", list(RDF_FORMATS))
def test_export_rdf_same_bytes_for_the_same_graph(fmt: str) -> None:
    # Triples added in the opposite order must serialize the same.
    reversed_graph = Graph()
    for triple in sorted(small_rdf(), reverse=True):
        reversed_graph.add(triple)
    assert serialize_rdf(small_rdf(), fmt)[0] == serialize_rdf(reversed_graph, fmt)[0]


def test_export_rdf_nt_is_one_sorted_line_per_triple() -> None:
    lines = serialize_rdf(small_rdf(), "nt")[0].decode().splitlines()
    assert len([line for line in lines if line]) == 15
    assert lines == sorted(lines)


def test_export_rdf_xml_replaces_control_characters_and_says_so() -> None:
    g = Graph()
    g.add((PAPER, RDFS.label, Literal("bad\x00nul and \x07bell")))
    result, data = export_rdf(g, None, "xml")
    assert result.replaced_chars == 2
    reread = Graph().parse(data=data, format="xml")
    assert list(reread.objects(PAPER, RDFS.label)) == [Literal("bad\ufffdnul and \ufffdbell")]


def test_export_rdf_turtle_keeps_control_characters_verbatim() -> None:
    g = Graph()
    g.add((PAPER, RDFS.label, Literal("bad\x00nul")))
    result, data = export_rdf(g, None, "turtle")
    assert result.replaced_chars == 0
    assert isomorphic(Graph().parse(data=data, format="turtle"), g)


def test_export_rdf_unknown_format_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown RDF format 'rdfa'; choose one of turtle, nt, jsonld, xml"):
        serialize_rdf(small_rdf(), "rdfa")


# Numbers as kg writes them (kg.assemble.decimal_lexical): rounded decimals, some of which a
# double in exponent or 7-digit form would change.
NUMBERS = [12.345678, 0.8, 1.0, 1e-06, 123456.789012, 0.30000000000000004]


def _lexical_forms(rdf_graph: Graph) -> set[tuple[str, str, str]]:
    return {(str(p), str(o), str(o.datatype)) for _s, p, o in rdf_graph if isinstance(o, Literal)}


def parse_verbatim(data: bytes | str, fmt: str) -> Graph:
    """Parse without rdflib's literal normalization, so a changed lexical form shows."""
    import rdflib

    before = rdflib.NORMALIZE_LITERALS
    rdflib.NORMALIZE_LITERALS = False
    try:
        return Graph().parse(data=data, format=fmt)
    finally:
        rdflib.NORMALIZE_LITERALS = before


@pytest.mark.parametrize("fmt", list(RDF_FORMATS))
def test_export_rdf_keeps_every_number_digit_for_digit(fmt: str) -> None:
    from kg.graphdir import turtle_lines

    triples = [(str(PAPER), str(KG.weight), value) for value in NUMBERS]
    graph_ttl = "".join(turtle_lines(triples))
    assert "kg:weight 12.345678 ;" in graph_ttl and "0.000001" in graph_ttl
    source = parse_verbatim(graph_ttl, "turtle")
    expected = {(str(KG.weight), text, str(XSD.decimal))
                for text in ("12.345678", "0.8", "1.0", "0.000001", "123456.789012", "0.30000000000000004")}
    assert _lexical_forms(source) == expected
    data, _replaced = serialize_rdf(Graph().parse(data=graph_ttl, format="turtle"), fmt)
    reread = parse_verbatim(data, RDF_FORMATS[fmt][0])
    assert _lexical_forms(reread) == expected
    assert isomorphic(reread, source)
