"""Every injection/awkward-text payload (tests/data/injection_payloads.json) is stored verbatim by
every file export, and re-read as data (never as markup, formula or query) by the usual readers."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import networkx as nx
import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.compare import isomorphic

from kg.export.neo4j_csv import export_neo4j_csv
from kg.export.rdf import RDF_FORMATS, export_rdf
from kg.export.tables import export_csv, export_gexf, export_graphml
from kg.vocab import DATA_NS, KG
from tests.fixtures.export_graph import payload_graph, payloads

PAYLOADS = payloads()


def _check_nodes(read: dict[str, dict[str, str]]) -> None:
    for i, text in enumerate(PAYLOADS):
        assert read[f"Method:payload-{i:02d}"]["canonical"] == text
        assert read[f"paper:p-payload-{i:02d}"]["abstract"] == text


def test_payloads_file_is_what_the_tests_expect() -> None:
    assert len(PAYLOADS) == 24 and len(set(PAYLOADS)) == 24
    # No C0 control characters but newline: XML formats would replace them (tested elsewhere).
    assert not [p for p in PAYLOADS if any(ord(c) < 32 and c != "\n" and c != "\t" for c in p)]


@pytest.mark.parametrize("fmt", ["graphml", "gexf"])
def test_payloads_verbatim_in_graph_files(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / f"g.{fmt}"
    if fmt == "graphml":
        export_graphml(payload_graph(), path)
        g = nx.read_graphml(path)
    else:
        export_gexf(payload_graph(), path)
        g = nx.read_gexf(path)
    _check_nodes(dict(g.nodes(data=True)))
    sentences = sorted(d["sentence"] for _u, _v, d in g.edges(data=True))
    assert sentences == sorted(PAYLOADS)
    assert sorted(json.loads(g.nodes[f"Method:payload-{i:02d}"]["aliases"])[0] for i in range(24)) == \
        sorted(PAYLOADS)


def test_payloads_verbatim_in_csv(tmp_path: Path) -> None:
    export_csv(payload_graph(), tmp_path)
    with open(tmp_path / "nodes.csv", newline="", encoding="utf-8") as fh:
        _check_nodes({row["id"]: row for row in csv.DictReader(fh)})
    with open(tmp_path / "edges.csv", newline="", encoding="utf-8") as fh:
        assert sorted(row["sentence"] for row in csv.DictReader(fh)) == sorted(PAYLOADS)


def test_payloads_verbatim_in_neo4j_import_csv(tmp_path: Path) -> None:
    export_neo4j_csv(payload_graph(), tmp_path)
    with open(tmp_path / "nodes_Method.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    by_key = {row["key:ID"]: row for row in rows}
    for i, text in enumerate(PAYLOADS):
        assert by_key[f"Method:payload-{i:02d}"]["canonical"] == text
        assert by_key[f"Method:payload-{i:02d}"]["aliases:string[]"].split("\x1f") == [text]
    with open(tmp_path / "nodes_Paper.csv", newline="", encoding="utf-8") as fh:
        papers = {row["key:ID"]: row for row in csv.DictReader(fh)}
    assert [papers[f"paper:p-payload-{i:02d}"]["authors:string[]"].split("\x1f") for i in range(24)] == \
        [[text, "Plain Author"] for text in PAYLOADS]


@pytest.mark.parametrize("fmt", list(RDF_FORMATS))
def test_payloads_verbatim_in_rdf(fmt: str) -> None:
    g = Graph()
    for i, text in enumerate(PAYLOADS):
        subject = URIRef(f"{DATA_NS}method/payload-{i:02d}")
        g.add((subject, KG.canonicalName, Literal(text)))
        g.add((subject, KG.surfaceText, Literal(text, lang="en")))
    _result, data = export_rdf(g, None, fmt)
    reread = Graph().parse(data=data, format=RDF_FORMATS[fmt][0])
    assert isomorphic(reread, g)
    assert sorted(str(o) for o in reread.objects(None, KG.canonicalName)) == sorted(PAYLOADS)
