"""The `kg export rdf|graphml|gexf|csv|cypher|neo4j-csv` commands on a hand-built graph directory."""

from __future__ import annotations

import csv
import json
import shlex
from pathlib import Path

import networkx as nx
import pytest
from rdflib import Graph
from rdflib.compare import isomorphic

from kg.cli import main
from kg.graphdir import write_graph_dir
from tests.fixtures.export_graph import contract_graph
from tests.unit.test_export_tables_rdf import small_rdf


@pytest.fixture()
def graph_dir(tmp_path: Path) -> Path:
    directory = write_graph_dir(tmp_path / "graph", [], contract_graph(), [], {})
    # graph.ttl written by rdflib itself, so the test depends only on load_rdf reading Turtle.
    small_rdf().serialize(directory / "graph.ttl", format="turtle")
    manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
    manifest["bytes"]["graph.ttl"] = (directory / "graph.ttl").stat().st_size  # the file it now is
    (directory / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return directory


@pytest.mark.parametrize("fmt,parser", [("turtle", "turtle"), ("nt", "nt"), ("jsonld", "json-ld"),
                                        ("xml", "xml")])
def test_kg_export_rdf_to_file_and_stdout(graph_dir: Path, tmp_path: Path, capsysbinary, fmt: str,
                                          parser: str) -> None:
    out = tmp_path / f"graph.{fmt}"
    assert main(["export", "rdf", "-g", str(graph_dir), "--format", fmt, "-o", str(out)]) == 0
    assert isomorphic(Graph().parse(out, format=parser), small_rdf())
    capsysbinary.readouterr()
    assert main(["export", "rdf", "-g", str(graph_dir), "--format", fmt]) == 0
    captured = capsysbinary.readouterr()
    assert captured.out == out.read_bytes()
    assert captured.err == f"wrote 15 triples as {fmt} to -\n".encode()


@pytest.mark.parametrize("fmt,reader", [("graphml", nx.read_graphml), ("gexf", nx.read_gexf)])
def test_kg_export_graph_files(graph_dir: Path, tmp_path: Path, capsys, fmt: str, reader) -> None:
    out = tmp_path / f"graph.{fmt}"
    assert main(["export", fmt, "-g", str(graph_dir), "-o", str(out)]) == 0
    g = reader(out)
    assert (g.number_of_nodes(), g.number_of_edges()) == (11, 15)
    assert capsys.readouterr().err == f"wrote {out}: 11 nodes, 15 edges\n"


def test_kg_export_csv(graph_dir: Path, tmp_path: Path) -> None:
    assert main(["export", "csv", "-g", str(graph_dir), "-o", str(tmp_path / "tables")]) == 0
    with open(tmp_path / "tables" / "edges.csv", newline="", encoding="utf-8") as fh:
        assert len(list(csv.DictReader(fh))) == 15


def test_kg_export_cypher(graph_dir: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "graph.cypher"
    assert main(["export", "cypher", "-g", str(graph_dir), "-o", str(out), "--batch-size", "100"]) == 0
    assert out.read_text(encoding="utf-8").count("UNWIND $rows") == 7 + 13
    assert capsys.readouterr().err.startswith(f"wrote {out}: 28 statements for 11 nodes and 15 relationships")


def test_kg_export_neo4j_csv_prints_the_import_command(graph_dir: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "import"
    assert main(["export", "neo4j-csv", "-g", str(graph_dir), "-o", str(out), "--database", "papers"]) == 0
    printed = capsys.readouterr().out.strip()
    command = shlex.split(printed)
    assert command[:4] == ["neo4j-admin", "database", "import", "full"] and command[-1] == "papers"
    assert printed == (out / "import.sh").read_text().splitlines()[-1]
    assert len(list(out.glob("nodes_*.csv"))) == 7 and len(list(out.glob("rels_*.csv"))) == 13


@pytest.mark.parametrize("argv", [
    ["export", "rdf", "-g", "{missing}"],
    ["export", "graphml", "-g", "{missing}", "-o", "x.graphml"],
    ["export", "neo4j", "-g", "{missing}", "--uri", "bolt://127.0.0.1:1"],
])
def test_kg_export_missing_graph_dir_is_one_line(tmp_path: Path, capsys, argv: list[str]) -> None:
    missing = tmp_path / "nope"
    assert main([a.replace("{missing}", str(missing)) for a in argv]) == 2
    assert capsys.readouterr().err == (f"kg: error: {missing}: not a graph directory "
                                       f"(run `kg build INPUT -o {missing}`)\n")
