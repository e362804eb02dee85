"""Named queries, SPARQL and embedded Cypher over a hand-built graph directory."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kg.assemble import assemble, rdf_triples
from kg.errors import QueryError
from kg.graphdir import write_graph_dir
from kg.query import format_result, named_queries, run_named, run_query
from tests.unit.test_graph_assemble import CORPUS


@pytest.fixture(scope="module")
def graph_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    g = assemble(CORPUS)
    return write_graph_dir(tmp_path_factory.mktemp("q") / "g", CORPUS, g, rdf_triples(g), {})


SPARQL_QUERIES = [name for name, q in named_queries().items() if "sparql" in q.texts]


@pytest.mark.parametrize("name", SPARQL_QUERIES)
def test_query_file_is_standalone_sparql(name: str) -> None:
    from rdflib.plugins.sparql import prepareQuery

    from kg.vocab import PREFIXES

    text = named_queries()[name].texts["sparql"]
    prepareQuery(text)  # no initNs: an undeclared prefix fails here
    declared = dict(re.findall(r"^PREFIX\s+(\w*):\s*<([^>]*)>", text, re.MULTILINE))
    assert declared, name
    assert {p: iri for p, iri in declared.items() if p in PREFIXES} == {p: PREFIXES[p] for p in declared}


@pytest.mark.parametrize("name", SPARQL_QUERIES)
def test_query_file_as_it_is_gives_the_rows_of_its_example_params(graph_dir: Path, name: str) -> None:
    from kg.graphdir import load_rdf
    from kg.query import run_sparql

    query = named_queries()[name]
    as_is = run_sparql(load_rdf(graph_dir), query.texts["sparql"])
    assert as_is == run_named(graph_dir, name, {p.name: p.example or "" for p in query.params}, "sparql")


@pytest.mark.parametrize("name", [n for n, q in named_queries().items() if len(q.texts) == 2])
def test_query_cypher_twin_takes_the_same_params(name: str) -> None:
    from kg.query import _parse_header

    query = named_queries()[name]
    _description, cypher_params = _parse_header(query.texts["cypher"], "//")
    assert [(p.name, p.type) for p in cypher_params] == [(p.name, p.type) for p in query.params]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("SELECT ?t WHERE { ?p kg:topic ?topic }", "needs exactly one line 'VALUES \\?topic"),
        ("SELECT ?t WHERE {\n  VALUES ?topic { 0 1 }\n  ?p kg:topic ?topic }", "must hold one integer"),
        ('SELECT ?t WHERE {\n  VALUES ?topic { "0" }\n  ?p kg:topic ?topic }', "must hold one integer"),
    ],
)
def test_query_param_without_one_example_is_refused(tmp_path: Path, body: str, message: str) -> None:
    (tmp_path / "q.rq").write_text(f"# description: d\n# param: topic int t\n{body}\n", encoding="utf-8")
    with pytest.raises(QueryError, match=message):
        named_queries(tmp_path)


def test_query_at_least_ten_documented_named_queries() -> None:
    queries = named_queries()
    assert len(queries) >= 10
    for q in queries.values():
        assert q.description, q.name
        assert "sparql" in q.texts or "cypher" in q.texts


def _idf(name: str) -> float:
    """The reference-corpus IDF of a term, log((N + 1) / (df + 1)) (kg/concepts/stats.py)."""
    import math

    from kg.concepts.stats import load_stats

    stats = load_stats()
    return math.log((stats.n_docs + 1) / (stats.df(tuple(name.split())) + 1))


# p1 and p2 share LoRA and summarization, each at level 0: the weight is the sum of their IDFs
_P1_P2 = round(_idf("lora") + _idf("summarization"), 6)
# (name, params, language, expected rows) — expectations read off CORPUS by hand.
CASES = [
    ("shared-techniques", {"paper": "p1"}, "sparql", [["p2", "Title p2", _P1_P2, "lora; summarization"]]),
    ("shared-techniques", {"paper": "p2"}, "cypher", [["p1", "Title p1", _P1_P2, ["LoRA", "summarization"]]]),
    (
        "top-methods",
        {},
        "sparql",
        [
            ["transformer", "transformer", 6],
            ["lora", "LoRA", 2],
            ["rlhf", "RLHF", 2],
            ["lora-x", "LoRA-X", 1],
            ["phased elimination algorithm", "phased elimination algorithm", 1],
        ],
    ),
    ("regret-lower-bounds", {}, "sparql", [["p7", "Title p7", "$\\Omega(B d)$", "expr", "regret", "this"]]),
    ("regret-lower-bounds", {}, "cypher", [["p7", "Title p7", "$\\Omega(B d)$", "expr", "regret", "this"]]),
    ("methods-for-tasks", {}, "sparql", [["summarization", "p2", "Title p2", "LoRA-X"]]),
    ("methods-for-tasks", {}, "cypher", [["summarization", "p2", "Title p2", "LoRA-X"]]),
    ("datasets", {}, "sparql", [["ImageNet", 1, "p4"]]),
    ("datasets", {}, "cypher", [["ImageNet", "p4", "Title p4"]]),
    (
        "methods-used-together",
        {},
        "sparql",
        [
            ["lora", "transformer", 2],
            ["rlhf", "transformer", 2],
            ["lora", "lora-x", 1],
            ["lora-x", "transformer", 1],
        ],
    ),
    ("topic-papers", {"topic": "0"}, "sparql", [["p1", "Title p1"], ["p2", "Title p2"]]),
    ("topic-papers", {"topic": "0"}, "cypher", [["p1", "Title p1"], ["p2", "Title p2"]]),
    ("papers-with-bounds", {}, "sparql", [["p7", "Title p7", 2, 1, 1, 0, 0]]),
    ("papers-with-bounds", {}, "cypher", [["p7", "Title p7", 2]]),
    (
        "method-papers",
        {"method": "lora"},
        "sparql",
        [["p1", "Title p1", "kg:uses", "LoRA"], ["p2", "Title p2", "kg:uses", "LoRA"]],
    ),
    ("method-papers", {"method": "lora"}, "cypher", [["p1", "Title p1", "USES"], ["p2", "Title p2", "USES"]]),
]


@pytest.mark.parametrize(("name", "params", "language", "expected"), CASES)
def test_query_named_rows(
    graph_dir: Path, name: str, params: dict[str, str], language: str, expected: list[list[object]]
) -> None:
    assert run_named(graph_dir, name, params, language).rows == expected


@pytest.mark.parametrize("language", ["sparql", "cypher"])
def test_query_edge_evidence(graph_dir: Path, language: str) -> None:
    rows = run_named(graph_dir, "edge-evidence", {"paper": "p4"}, language).rows
    sentence = "A transformer trained with RLHF on ImageNet, measuring accuracy."
    assert [(r[2], r[3], r[4], r[5]) for r in rows] == [
        ("transformer", 2, 13, sentence),
        ("RLHF", 27, 31, sentence),
        ("ImageNet", 35, 43, sentence),
        ("accuracy", 55, 63, sentence),
    ]


def test_query_sqrt_t_finds_the_upper_bound(tmp_path: Path) -> None:
    from dataclasses import replace

    from kg.types import Extraction

    # the corpus bounds carry a dummy expr; give the upper one its real normal form
    p7 = CORPUS[-1]
    bounds = (p7.bounds[0], replace(p7.bounds[1], expr="dB + d sqrt(T)"))
    corpus = [*CORPUS[:-1], Extraction(p7.paper, p7.mentions, bounds)]
    g = assemble(corpus)
    out = write_graph_dir(tmp_path / "g", corpus, g, rdf_triples(g), {})
    expected = ["p7", "Title p7", "$\\widetilde{O}(dB + d\\sqrt{T})$", "dB + d sqrt(T)", "regret", True]
    assert run_named(out, "sqrt-t-upper-bounds", {}, "sparql").rows == [expected]
    assert run_named(out, "sqrt-t-upper-bounds", {}, "cypher").rows == [expected]


def test_query_sparql_param_is_bound_not_pasted(graph_dir: Path) -> None:
    hostile = 'p1" } } SELECT * WHERE { ?s ?p ?o } #'
    assert run_named(graph_dir, "shared-techniques", {"paper": hostile}, "sparql").rows == []


@pytest.mark.parametrize(
    ("language", "query", "message"),
    [
        ("sparql", "SELECT ?x WHERE {", "SPARQL query failed"),
        ("cypher", "MATCH (m:Method RETURN m", "Cypher query failed"),
        ("cypher", "MATCH (m:Method) WHERE m.canonical = $name RETURN m.label", "has no value"),
        ("gremlin", "g.V()", "unknown query language"),
    ],
)
def test_query_bad_query_is_a_query_error(graph_dir: Path, language: str, query: str, message: str) -> None:
    with pytest.raises(QueryError, match=message):
        run_query(graph_dir, language, query)


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("no-such-query", {}, "unknown named query 'no-such-query'"),
        ("shared-techniques", {}, "needs --param paper"),
        ("topic-papers", {"topic": "x"}, "expected an integer"),
        ("top-methods", {"paper": "p1"}, "has no parameter 'paper'"),
    ],
)
def test_query_named_errors(graph_dir: Path, name: str, params: dict[str, str], message: str) -> None:
    with pytest.raises(QueryError, match=message):
        run_named(graph_dir, name, params)


def test_query_cypher_rejects_unsafe_values(graph_dir: Path) -> None:
    with pytest.raises(QueryError, match="accepts only"):
        run_named(graph_dir, "shared-techniques", {"paper": 'p1"}) RETURN 1 //'}, "cypher")


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("csv", "paper,title\np1,Title p1\np2,Title p2\n"),
        (
            "json",
            '[\n  {\n    "paper": "p1",\n    "title": "Title p1"\n  },\n  {\n    "paper": "p2",\n'
            '    "title": "Title p2"\n  }\n]\n',
        ),
        ("table", "paper  title\n-----  --------\np1     Title p1\np2     Title p2\n(2 rows)\n"),
    ],
)
def test_query_output_formats(graph_dir: Path, fmt: str, expected: str) -> None:
    result = run_named(graph_dir, "topic-papers", {"topic": "0"}, "sparql")
    assert format_result(result, fmt) == expected


@pytest.mark.parametrize(
    ("argv", "code", "stderr"),
    [
        (["query", "sparql", "SELECT ?x WHERE {"], 2, "kg: error: SPARQL query failed"),
        (["query", "--named", "nope"], 2, "kg: error: unknown named query 'nope'"),
        (
            ["query", "--named", "topic-papers", "--param", "topic"],
            2,
            "kg: error: --param 'topic': expected NAME=VALUE",
        ),
    ],
)
def test_query_cli_errors_are_one_line(
    graph_dir: Path, capsys: pytest.CaptureFixture[str], argv: list[str], code: int, stderr: str
) -> None:
    from kg.cli import main

    assert main([*argv, "-g", str(graph_dir)]) == code
    err = capsys.readouterr().err
    assert err.startswith(stderr) and err.count("\n") == 1


def test_query_cli_named_json(graph_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from kg.cli import main

    assert main(["query", "--named", "datasets", "-g", str(graph_dir), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"dataset": "ImageNet", "papers": 1, "paper_ids": "p4"}]
