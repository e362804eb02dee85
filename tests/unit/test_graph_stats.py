"""kg stats over a hand-built graph: counts, top entities, bounds, links, topics."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.assemble import assemble, rdf_triples
from kg.graphdir import write_graph_dir
from kg.stats import format_stats, graph_stats
from tests.unit.test_graph_assemble import CORPUS


@pytest.fixture(scope="module")
def stats() -> dict:
    return graph_stats(assemble(CORPUS), top=3)


def test_stats_counts(stats: dict) -> None:
    # Method: the 5 mentioned and 6 broader concepts no paper mentions (test_graph_assemble)
    assert stats["nodes"] == {"Bound": 2, "Dataset": 1, "Method": 11, "Metric": 2, "Paper": 7, "Task": 2}
    assert stats["edges"]["sharesTechniqueWith"] == 2


def test_stats_top_entities(stats: dict) -> None:
    assert stats["top_entities"]["Method"] == [
        {"canonical": "transformer", "papers": 6},
        {"canonical": "lora", "papers": 2},
        {"canonical": "rlhf", "papers": 2},
    ]


def test_stats_bounds(stats: dict) -> None:
    assert stats["bounds"] == {
        "papers_with_bounds": 1,
        "papers_with_formula_bounds": 1,
        "by_kind": {"lower": 1, "upper": 1},
    }


def test_stats_names_the_terms_too_common_to_link(stats: dict) -> None:
    assert stats["links"]["too_common"]["Method"] == [{"canonical": "transformer", "papers": 6}]
    assert stats["links"]["papers_without_links"] == 1  # p7, the bandit paper


def test_stats_topics(stats: dict) -> None:
    assert stats["topics"]["count"] == 4
    assert [t["papers"] for t in stats["topics"]["largest"]] == [2, 2, 2]


def test_stats_cli_prints_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from kg.cli import main

    g = assemble(CORPUS)
    out = write_graph_dir(tmp_path / "g", CORPUS, g, rdf_triples(g), {})
    assert main(["stats", "-g", str(out)]) == 0
    text = capsys.readouterr().out
    assert text == format_stats(graph_stats(g))
    assert "too common to link (in more than 3.5 papers): transformer (6)" in text
