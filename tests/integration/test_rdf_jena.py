"""kg's RDF in a second real engine: Apache Jena (riot, rdfcompare, arq, shacl) beside rdflib and pySHACL.

On the seeds build, generically (every serialization ``kg export rdf`` writes, every ``kg/queries/*.rq``,
the shapes as they are): each serialization parses in Jena with no error or warning and is the graph of
``graph.ttl``, literal for literal; each named query file, run as it is by Jena, gives the rows
``kg query --named`` gives with the file's example parameters; the graph conforms to
``schema/shapes.ttl`` in both SHACL engines, alone and with the ontology merged in.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.compare import isomorphic
from rdflib.term import Node

from kg.export.rdf import RDF_FORMATS
from kg.graphdir import validate_rdf
from kg.query import QUERIES_DIR, _plain, named_queries, run_named
from kg.vocab import KG, RDF, SCHEMA_DIR
from tests.fixtures.jena import Jena
from tests.unit.test_export_tables_rdf import parse_verbatim

pytestmark = pytest.mark.integration

SERIALIZATIONS = ["graph.ttl", *RDF_FORMATS]
SPARQL_QUERIES = [name for name, query in named_queries().items() if "sparql" in query.texts]
_GROUP_CONCAT = re.compile(
    r"GROUP_CONCAT\s*\(\s*(?:DISTINCT\s+)?\?\w+\s*(?:;\s*SEPARATOR\s*=\s*\"([^\"]*)\"\s*)?\)\s*AS\s+\?(\w+)",
    re.IGNORECASE,
)


@pytest.fixture(scope="module")
def rdf_files(seed_graph_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``graph.ttl`` and every serialization ``kg export rdf`` writes of it, by format name."""
    from kg.cli import main

    out = tmp_path_factory.mktemp("rdf-exports")
    files = {"graph.ttl": seed_graph_dir / "graph.ttl"}
    for fmt, (_plugin, ext) in RDF_FORMATS.items():
        path = out / f"graph{ext}"
        assert main(["export", "rdf", "-g", str(seed_graph_dir), "--format", fmt, "-o", str(path)]) == 0
        files[fmt] = path
    return files


# ------------------------------------------------------------------------------- serializations


@pytest.mark.parametrize("name", SERIALIZATIONS)
def test_rdf_jena_parses_every_serialization_without_errors_or_warnings(
    jena: Jena, rdf_files: dict[str, Path], seed_rdf_graph: Graph, name: str
) -> None:
    count = jena.riot_count(rdf_files[name])
    assert (count.errors, count.warnings) == (0, 0), count.messages
    assert count.triples == len(seed_rdf_graph)


@pytest.mark.parametrize("fmt", list(RDF_FORMATS))
def test_rdf_jena_every_export_is_the_graph_of_graph_ttl(
    jena: Jena, rdf_files: dict[str, Path], fmt: str
) -> None:
    assert jena.isomorphic(rdf_files["graph.ttl"], rdf_files[fmt])


@pytest.mark.parametrize("fmt", list(RDF_FORMATS))
def test_rdf_rdflib_every_export_is_the_graph_of_graph_ttl(rdf_files: dict[str, Path], fmt: str) -> None:
    # literals as written, not normalized on reading: a number in another lexical form shows
    source = parse_verbatim(rdf_files["graph.ttl"].read_bytes(), "turtle")
    reread = parse_verbatim(rdf_files[fmt].read_bytes(), RDF_FORMATS[fmt][0])
    assert len(reread) == len(source)
    assert isomorphic(reread, source)


def test_rdf_jena_tells_a_bad_literal_and_another_lexical_form(jena: Jena, tmp_path: Path) -> None:
    """The checks above can fail: riot warns of a bad lexical form, and rdfcompare compares literals
    as written (a weight written as a double is not the graph of graph.ttl, as the Turtle export
    once was)."""
    (tmp_path / "bad.ttl").write_text(
        '<https://e.org/l> <https://w3id.org/kg-abstracts/ontology#weight> "2.83x"^^'
        "<http://www.w3.org/2001/XMLSchema#decimal> .\n",
        encoding="utf-8",
    )
    count = jena.riot_count(tmp_path / "bad.ttl")
    assert (count.triples, count.errors, count.warnings) == (1, 0, 1)
    decimal = '<https://e.org/l> <https://w3id.org/kg-abstracts/ontology#weight> "2.833213"^^<{}> .\n'
    (tmp_path / "a.nt").write_text(
        decimal.format("http://www.w3.org/2001/XMLSchema#decimal"), encoding="utf-8"
    )
    (tmp_path / "b.nt").write_text(
        decimal.format("http://www.w3.org/2001/XMLSchema#double"), encoding="utf-8"
    )
    assert jena.isomorphic(tmp_path / "a.nt", tmp_path / "a.nt")
    assert not jena.isomorphic(tmp_path / "a.nt", tmp_path / "b.nt")


# ------------------------------------------------------------------------------- named queries


def _term(binding: dict[str, str] | None) -> Node | None:
    """An rdflib term of one SPARQL 1.1 JSON results binding."""
    if binding is None:
        return None
    if binding["type"] == "uri":
        return URIRef(binding["value"])
    if binding["type"] == "bnode":
        return BNode(binding["value"])
    return Literal(binding["value"], lang=binding.get("xml:lang"), datatype=binding.get("datatype"))


def _normalized(rows: Sequence[Sequence[Any]], columns: Sequence[str], lists: dict[str, str]) -> list[Any]:
    """Rows as a sorted multiset; a GROUP_CONCAT cell as the sorted list of its items (SPARQL leaves
    their order to the store)."""
    out = []
    for row in rows:
        cells = []
        for column, cell in zip(columns, row, strict=True):
            if column in lists and isinstance(cell, str):
                cells.append(sorted(cell.split(lists[column])))
            else:
                cells.append(cell)
        out.append(cells)
    return sorted(out, key=lambda cells: json.dumps(cells, sort_keys=True, default=str))


@pytest.mark.parametrize("name", SPARQL_QUERIES)
def test_rdf_jena_named_query_file_gives_the_rows_of_kg_query(
    jena: Jena, seed_graph_dir: Path, name: str
) -> None:
    query = named_queries()[name]
    ours = run_named(seed_graph_dir, name, {p.name: p.example or "" for p in query.params}, "sparql")
    assert ours.rows, (
        f"{name}.rq finds nothing in the seeds build: give its VALUES lines an example that does"
    )
    # the file as it is, with its own prefixes and example VALUES: what a user pastes into a store
    results = jena.select(QUERIES_DIR / f"{name}.rq", [seed_graph_dir / "graph.ttl"])
    columns = results["head"]["vars"]
    assert columns == ours.columns
    theirs = [[_plain(_term(b.get(c))) for c in columns] for b in results["results"]["bindings"]]
    concat = _GROUP_CONCAT.finditer(query.texts["sparql"])
    lists = {m.group(2): " " if m.group(1) is None else m.group(1) for m in concat}  # " " is the default
    assert len(theirs) == len(ours.rows)
    assert _normalized(theirs, columns, lists) == _normalized(ours.rows, columns, lists)


# ------------------------------------------------------------------------------------- shapes


@pytest.mark.parametrize("ontology", [False, True], ids=["data-alone", "with-ontology"])
def test_rdf_jena_graph_conforms_to_the_shapes(
    jena: Jena, seed_graph_dir: Path, seed_rdf_graph: Graph, tmp_path: Path, ontology: bool
) -> None:
    data = seed_graph_dir / "graph.ttl"
    if ontology:
        data = jena.merge([data, SCHEMA_DIR / "ontology.ttl"], tmp_path / "merged.nt")
        assert jena.riot_count(data).triples > len(seed_rdf_graph)
    report = jena.shacl(SCHEMA_DIR / "shapes.ttl", data)
    assert (report.conforms, report.results) == (True, 0), report.report[:3000]


@pytest.mark.parametrize("ontology", [False, True], ids=["data-alone", "with-ontology"])
def test_rdf_pyshacl_graph_conforms_to_the_shapes(seed_rdf_graph: Graph, ontology: bool) -> None:
    conforms, text = validate_rdf(seed_rdf_graph, ontology=ontology)
    assert conforms, text[:3000]


def test_rdf_jena_shapes_need_the_entity_types_the_data_states(
    jena: Jena, seed_rdf_graph: Graph, tmp_path: Path
) -> None:
    """The SHACL checks above can fail: without its ``a kg:Entity`` statements the graph alone
    violates the shapes in Jena too (every sh:class kg:Entity whose value is an entity)."""
    untyped = Graph()
    for triple in seed_rdf_graph:
        if triple[1:] != (RDF.type, KG.Entity):
            untyped.add(triple)
    assert len(untyped) < len(seed_rdf_graph)
    untyped.serialize(tmp_path / "untyped.nt", format="nt", encoding="utf-8")
    report = jena.shacl(SCHEMA_DIR / "shapes.ttl", tmp_path / "untyped.nt")
    assert not report.conforms and report.results > 0
    assert "Entity" in report.report
    merged = jena.merge([tmp_path / "untyped.nt", SCHEMA_DIR / "ontology.ttl"], tmp_path / "merged.nt")
    assert jena.shacl(SCHEMA_DIR / "shapes.ttl", merged).conforms
