"""The graph → Neo4j mapping, the Cypher kg writes, and the offline file formats (no server needed;
the same files are loaded by the real cypher-shell and neo4j-admin in tests/integration)."""

from __future__ import annotations

import math
from pathlib import Path

import networkx as nx
import pytest

from kg.errors import ExportError
from kg.export.cypher import cypher_literal, cypher_name, cypher_string, export_cypher
from kg.export.neo4j_csv import export_neo4j_csv
from kg.export.neo4j_model import (
    RelBatchKey,
    constraint_statements,
    delete_project_statement,
    merge_nodes_statement,
    merge_relationships_statement,
    neo4j_value,
    node_rows,
    relationship_rows,
)
from tests.fixtures.export_graph import EVIL, EVIL_NODE, contract_graph


@pytest.mark.parametrize("value,stored", [
    (None, None), ("", ""), ("x", "x"), (True, True), (0, 0), (2**63 - 1, 2**63 - 1), (2**63, str(2**63)),
    (0.5, 0.5), (math.nan, None), (math.inf, None), ([], None), (["a", "b"], ["a", "b"]), ((1, 2), [1, 2]),
    ([1, 2.5], [1.0, 2.5]), (["a", 1], ["a", "1"]), ([True, 1], ["true", "1"]), ([None, "a"], ["a"]),
    ({"b": 1, "a": 2}, '{"a":2,"b":1}'), ({"y", "x"}, ["x", "y"]),
])
def test_neo4j_value(value, stored) -> None:
    assert neo4j_value(value) == stored


def test_neo4j_node_rows_grouped_by_label_with_key() -> None:
    rows = node_rows(contract_graph())
    assert list(rows) == ["Bound", "Concept", "Dataset", "Method", "Metric", "Paper", "Task"]
    assert [r["key"] for r in rows["Method"]] == [EVIL_NODE, "Method:stochastic-gradient-descent"]
    evil = rows["Method"][0]["props"]
    assert evil == {"aliases": ["EN;1", "a,b"], "canonical": EVIL, "key": EVIL_NODE,
                    "label": EVIL, "papers": 1}  # the kind is the label, not a property as well
    assert "venue" not in rows["Paper"][1]["props"] and "authors" not in rows["Paper"][1]["props"]


def test_neo4j_relationship_rows_grouped_by_type_and_end_labels() -> None:
    rows = relationship_rows(contract_graph())
    assert RelBatchKey("USES", "Paper", "Method") in rows
    assert [(r["start"], r["end"]) for r in rows[RelBatchKey("USES", "Paper", "Method")]] == [
        ("paper:p-b", EVIL_NODE), ("paper:p-b", "Method:stochastic-gradient-descent")]
    assert all("predicate" not in r["props"] for group in rows.values() for r in group)  # the type says it
    assert len(rows) == 13 and sum(len(r) for r in rows.values()) == 15


@pytest.mark.parametrize("kind", ["Person", "paper", None, "Paper`) DETACH DELETE n //"])
def test_neo4j_rows_refuse_a_kind_outside_the_ontology(kind) -> None:
    g = nx.MultiDiGraph()
    g.add_node("x:1", kind=kind, label="x")
    with pytest.raises(ExportError, match="is not an ontology class"):
        node_rows(g)


def test_neo4j_rows_refuse_a_predicate_outside_the_ontology() -> None:
    g = contract_graph()
    g.add_edge("paper:p-a", "paper:p-b", key="cites", predicate="cites")
    with pytest.raises(ExportError, match="predicate 'cites' is not an ontology property"):
        relationship_rows(g)


def test_neo4j_statements_name_only_ontology_terms_values_are_parameters() -> None:
    assert merge_nodes_statement("Paper") == \
        "UNWIND $rows AS row MERGE (n:`Paper` {key: row.key}) SET n = row.props"
    assert merge_relationships_statement(RelBatchKey("USES", "Paper", "Method")) == (
        "UNWIND $rows AS row MATCH (a:`Paper` {key: row.start}) MATCH (b:`Method` {key: row.end}) "
        "MERGE (a)-[r:`USES`]->(b) SET r = row.props")
    assert constraint_statements()[0] == \
        "CREATE CONSTRAINT kg_paper_key IF NOT EXISTS FOR (n:`Paper`) REQUIRE n.key IS UNIQUE"
    assert len(constraint_statements()) == 8
    assert delete_project_statement(10).endswith("WITH n LIMIT 10 DETACH DELETE n RETURN count(*) AS deleted")
    with pytest.raises(ExportError):
        merge_nodes_statement("Bystander")
    with pytest.raises(ExportError):
        merge_relationships_statement(RelBatchKey("CITES", "Paper", "Paper"))


@pytest.mark.parametrize("text,literal", [
    ("plain", "'plain'"),
    ("it's", "'it\\'s'"),
    ('say "hi"', "'say \"hi\"'"),
    ("back\\slash", "'back\\\\slash'"),
    ("line\nbreak\r\ttab", "'line\\nbreak\\r\\ttab'"),
    ("nul\x00 bell\x07 del\x7f", "'nul\\u0000 bell\\u0007 del\\u007f'"),
    ("sep\u2028", "'sep\\u2028'"),
    ("Über ∑ 😀", "'Über ∑ 😀'"),
    (EVIL, "'Evil\\'\" `Net`}) MATCH (n) DETACH DELETE n //'"),
])
def test_cypher_string_escapes(text: str, literal: str) -> None:
    assert cypher_string(text) == literal


def test_cypher_literal_values_and_names() -> None:
    assert cypher_literal({"a": [1, 2.5, True, None], "b c": "x"}) == "{a: [1, 2.5, true, null], `b c`: 'x'}"
    assert cypher_name("we`ird") == "`we``ird`"
    with pytest.raises(ExportError):
        cypher_literal(math.nan)


def test_export_cypher_script_shape(tmp_path: Path) -> None:
    result = export_cypher(contract_graph(), tmp_path / "g.cypher", batch_size=2)
    lines = (tmp_path / "g.cypher").read_text(encoding="utf-8").splitlines()
    # 8 constraints; nodes 7 labels (Paper 3 rows → 2 batches); relationships 13 groups of ≤ 2 rows.
    assert result.statements == 8 + 8 + 13
    assert (result.nodes, result.relationships) == (11, 15)
    params = [line for line in lines if line.startswith(":param ")]
    assert len(params) == 8 + 13 + 1 and params[-1] == ":param {rows: []}"
    statements = [line for line in lines if line and not line.startswith((":param", "//"))]
    assert len(statements) == result.statements and all(s.endswith(";") for s in statements)
    assert not any(EVIL in s for s in statements)  # user text only inside :param values
    assert export_cypher(contract_graph(), tmp_path / "h.cypher", batch_size=2).statements == 8 + 8 + 13
    assert (tmp_path / "g.cypher").read_bytes().replace(b"g.cypher", b"h.cypher") == \
        (tmp_path / "h.cypher").read_bytes()


def test_export_neo4j_csv_headers_fields_and_command(tmp_path: Path) -> None:
    result = export_neo4j_csv(contract_graph(), tmp_path)
    bound = (tmp_path / "nodes_Bound.csv").read_text(encoding="utf-8").splitlines()
    assert bound[0] == ("key:ID,attribution,bound_kind,confidence:double,end:long,expr,extractor,form,"
                        "label,latex,notation,paper,quantity,soft:boolean,start:long,subject,variables:string[]")
    assert bound[1].startswith('"bound:p-a:0","this","upper","0.9","26",')
    method = (tmp_path / "nodes_Method.csv").read_text(encoding="utf-8").splitlines()
    assert method[0] == "key:ID,aliases:string[],canonical,label,papers:long"
    assert method[1] == (f'"{EVIL_NODE}","EN;1\x1fa,b","Evil\'"" `Net`}}) MATCH (n) DETACH DELETE n //",'
                         f'"Evil\'"" `Net`}}) MATCH (n) DETACH DELETE n //","1"')
    paper = (tmp_path / "nodes_Paper.csv").read_text(encoding="utf-8")
    assert ',"NeurIPS","2019"\n' in paper and ',,\n' in paper  # absent venue/year: empty, unquoted
    assert (tmp_path / "rels_USES.csv").read_text(encoding="utf-8").splitlines()[0] == (
        ":START_ID,:END_ID,confidence:double,end:long,extractor,mentions:long,sentence,start:long,text")
    assert result.command[:4] == ["neo4j-admin", "database", "import", "full"]
    assert result.command[-3:] == ["--multiline-fields=true", "--array-delimiter=U+001F", "neo4j"]
    assert sum(a.startswith("--nodes=") for a in result.command) == 7
    assert sum(a.startswith("--relationships=") for a in result.command) == 13
    assert f"--nodes=Paper={(tmp_path / 'nodes_Paper.csv').resolve()}" in result.command
    assert (tmp_path / "import.sh").read_text().splitlines()[-1] == result.command_line
    assert (tmp_path / "constraints.cypher").read_text().count("CREATE CONSTRAINT") == 8


def test_node_link_read_from_graph_json_equals_the_networkx_view(tmp_path: Path) -> None:
    from kg.graphdir import NodeLink, load_node_link, load_nx, write_graph_dir

    directory = write_graph_dir(tmp_path / "g", [], contract_graph(), [], {})
    raw, viewed = load_node_link(directory), NodeLink.of(load_nx(directory))
    assert raw.nodes == viewed.nodes and raw.edges == viewed.edges and len(raw) == 11 + 15
    assert dict(raw.nodes)["paper:p-a"]["id"] == "p-a"  # the paper's own id, not node-link's
    assert node_rows(raw) == node_rows(contract_graph())
    assert relationship_rows(raw) == relationship_rows(contract_graph())


def test_node_link_of_bad_graph_json_is_a_clear_error(tmp_path: Path) -> None:
    from kg.errors import GraphDirError
    from kg.graphdir import load_node_link

    (tmp_path / "graph.json").write_text('{"nodes": [{"kind": "Paper"}], "edges": []}')
    with pytest.raises(GraphDirError, match=r"graph.json: not node-link JSON of a multigraph"):
        load_node_link(tmp_path)


def test_relationship_rows_refuse_an_edge_to_a_missing_node() -> None:
    from kg.graphdir import NodeLink

    items = NodeLink([("paper:p-a", {"kind": "Paper"})],
                     [("paper:p-a", "Method:x", "uses", {"predicate": "uses"})])
    with pytest.raises(ExportError, match="an end is not a node of the graph"):
        relationship_rows(items)
