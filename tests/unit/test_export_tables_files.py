"""`kg export graphml|gexf|csv`: re-read by networkx / csv with the same counts and string attributes."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import networkx as nx
import pytest

from kg.export.tables import attribute_text, export_csv, export_gexf, export_graphml
from tests.fixtures.export_graph import EVIL, EVIL_NODE, contract_graph


def with_parallel_edges() -> nx.MultiDiGraph:
    """The contract graph plus a second predicate between the same two papers (a parallel edge)."""
    g = contract_graph()
    g.add_edge("paper:p-a", "paper:p-b", key="sharesConceptWith", predicate="sharesConceptWith",
               weight=0.125, shared=["regret"])
    return g


def _all_strings(attrs: dict) -> bool:
    return all(isinstance(v, str) and v != "None" for v in attrs.values())


def test_export_graphml_round_trip_counts_and_strings(tmp_path: Path) -> None:
    result = export_graphml(with_parallel_edges(), tmp_path / "g.graphml")
    assert (result.nodes, result.edges) == (11, 16)
    g = nx.read_graphml(tmp_path / "g.graphml", force_multigraph=True)
    assert (g.number_of_nodes(), g.number_of_edges()) == (11, 16)
    assert sorted(g.nodes) == sorted(contract_graph().nodes)
    assert all(_all_strings(d) for _n, d in g.nodes(data=True))
    assert all(_all_strings(d) for _u, _v, d in g.edges(data=True))
    assert g.number_of_edges("paper:p-a", "paper:p-b") == 2
    assert g.nodes[EVIL_NODE]["canonical"] == EVIL
    assert g.nodes[EVIL_NODE]["aliases"] == '["EN;1","a,b"]'
    assert json.loads(g.nodes["bound:p-a:0"]["variables"]) == ["T"]
    assert "condition" not in g.nodes["bound:p-a:0"]  # None is left out, never "None"
    assert "venue" not in g.nodes["paper:p-b"]


def test_export_gexf_round_trip_counts_and_renamed_reserved_names(tmp_path: Path) -> None:
    result = export_gexf(with_parallel_edges(), tmp_path / "g.gexf")
    assert (result.nodes, result.edges) == (11, 16)
    g = nx.read_gexf(tmp_path / "g.gexf")
    assert (g.number_of_nodes(), g.number_of_edges()) == (11, 16)
    assert sorted(g.nodes) == sorted(contract_graph().nodes)
    paper = g.nodes["paper:p-a"]
    assert paper["paper_id"] == "p-a" and paper["label"] == "Stochastic gradient descent for " + EVIL
    bound = g.nodes["bound:p-a:0"]
    assert (bound["span_start"], bound["span_end"]) == ("11", "26")
    assert "start" not in bound and "end" not in bound  # not read as GEXF time intervals
    shares = [d for _u, _v, d in g.edges(data=True) if d["predicate"] == "sharesTaskWith"]
    assert len(shares) == 1 and shares[0]["weight"] == 1.0 and shares[0]["label"] == "sharesTaskWith"
    assert json.loads(shares[0]["shared"]) == [EVIL, "x"]
    for _n, attrs in g.nodes(data=True):
        assert _all_strings(attrs)


def test_export_csv_round_trip(tmp_path: Path) -> None:
    result = export_csv(with_parallel_edges(), tmp_path)
    assert (result.nodes, result.edges) == (11, 16)
    with open(tmp_path / "nodes.csv", newline="", encoding="utf-8") as fh:
        nodes = list(csv.DictReader(fh))
    with open(tmp_path / "edges.csv", newline="", encoding="utf-8") as fh:
        edges = list(csv.DictReader(fh))
    assert len(nodes) == 11 and len(edges) == 16
    assert list(nodes[0])[:3] == ["id", "kind", "label"]
    assert list(edges[0])[:3] == ["source", "target", "predicate"]
    by_id = {row["id"]: row for row in nodes}
    assert by_id[EVIL_NODE]["canonical"] == EVIL
    assert by_id["paper:p-a"]["abstract"] == contract_graph().nodes["paper:p-a"]["abstract"]
    assert "\n" in by_id["paper:p-a"]["abstract"]
    assert by_id["paper:p-b"]["venue"] == ""
    assert by_id["paper:p-a"]["paper_id"] == "p-a"  # the paper's own id does not shadow the node id
    uses = [e for e in edges if e["predicate"] == "uses" and e["target"] == EVIL_NODE]
    assert uses[0]["sentence"] == "Adam uses\nSGD ideas. " + EVIL and uses[0]["start"] == "0"


@pytest.mark.parametrize("writer,name", [(export_graphml, "g.graphml"), (export_gexf, "g.gexf")])
def test_export_xml_tables_same_bytes_and_control_chars_replaced(tmp_path: Path, writer, name) -> None:
    g = contract_graph()
    g.nodes["paper:p-c"]["abstract"] = "nul\x00 and bell\x07 and tab\t kept"
    first = writer(g, tmp_path / "a" / name)
    writer(g, tmp_path / "b" / name)
    assert first.replaced_chars == 2
    assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    reread = nx.read_graphml(tmp_path / "a" / name) if name.endswith("graphml") else nx.read_gexf(
        tmp_path / "a" / name)
    assert reread.nodes["paper:p-c"]["abstract"] == "nul\ufffd and bell\ufffd and tab\t kept"


@pytest.mark.parametrize("value,text", [
    (None, None), ("x", "x"), ("", ""), (True, "true"), (False, "false"), (3, "3"), (0.1, "0.1"),
    (["a", "b"], '["a","b"]'), ([], "[]"), ({"b": 1, "a": [2]}, '{"a":[2],"b":1}'), ({"y", "x"}, '["x","y"]'),
])
def test_export_tables_attribute_text(value, text) -> None:
    assert attribute_text(value) == text
