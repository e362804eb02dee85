"""``kg eval links``: the share links of small hand-built graphs, counted and judged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.cli import main
from kg.evaluate.links import evaluate_links, judge_links, share_links
from kg.graphdir import write_graph_dir
from tests.unit.related_graph import GraphBuilder


def _linked(gb: GraphBuilder, a: str, b: str, predicate: str, shared: list[str], **attrs: object) -> None:
    gb.g.add_edge(f"paper:{a}", f"paper:{b}", key=predicate, predicate=predicate, weight=1.0,
                  shared=shared, **attrs)


def _five_papers() -> GraphBuilder:
    """a–b linked twice (technique and concept), b–c once, a–d once; e alone."""
    gb = GraphBuilder()
    for pid in "abcde":
        gb.paper(pid, f"Paper {pid}")
    _linked(gb, "a", "b", "sharesTechniqueWith", ["thompson sampling"])
    _linked(gb, "a", "b", "sharesConceptWith", ["regret"])
    _linked(gb, "b", "c", "sharesTaskWith", ["model merging"])
    _linked(gb, "a", "d", "sharesConceptWith", ["regret"])
    return gb


def test_eval_links_counts_pairs_not_edges_and_the_papers_left_alone() -> None:
    result = evaluate_links(_five_papers().g)
    assert (result.papers, result.edges, result.links, result.unlinked) == (5, 4, 3, 1)
    # degrees: a 2, b 2, c 1, d 1, e 0
    assert (result.median_degree, result.max_degree) == (1.0, 2)
    assert result.linked_share == pytest.approx(0.8)
    # "regret" justifies two links (a–b once although two edges name the pair, a–d)
    assert [(c.label, c.links) for c in result.concepts] == [
        ("regret", 2), ("model merging", 1), ("thompson sampling", 1)
    ]


def test_eval_links_complete_judgments_count_unlisted_pairs_as_unrelated() -> None:
    """Every paper a query (the seed files): a link between two papers neither lists is judged 0."""
    gb = _five_papers()
    judgments = {
        "a": {"b": 2, "c": 1},
        "b": {"a": 1},
        "c": {},
        "d": {},
        "e": {"c": 1},
    }
    judged = judge_links(gb.g, share_links(gb.g), judgments)
    # links a–b (related), b–c (unjudged-as-listed but complete: 0), a–d (0)
    assert (judged.judged_links, judged.related_links) == (3, 1)
    assert judged.precision == pytest.approx(1 / 3)
    # related pairs: a–b, a–c, c–e; only a–b is linked
    assert (judged.related_pairs, judged.linked_related_pairs) == (3, 1)
    assert judged.recall == pytest.approx(1 / 3)
    assert judged.judged_pairs == 10  # all pairs of five papers
    assert judged.base_rate == pytest.approx(0.3)


def test_eval_links_pool_judgments_judge_only_listed_pairs() -> None:
    """Some papers queries (the corpus pool files): a pair is judged only when a query lists it."""
    gb = _five_papers()
    judgments = {"a": {"b": 0, "c": 2, "zz-not-in-graph": 1}}
    judged = judge_links(gb.g, share_links(gb.g), judgments)
    assert judged.queries == 1
    # a–d is linked but a does not list d: not judged; a–b judged 0
    assert (judged.judged_links, judged.related_links) == (1, 0)
    assert (judged.judged_pairs, judged.related_pairs, judged.linked_related_pairs) == (2, 1, 0)
    assert judged.recall == 0.0


def test_eval_links_names_concepts_by_via_with_their_level_and_specificity() -> None:
    gb = GraphBuilder()
    for pid in "abc":
        gb.paper(pid, f"Paper {pid}")
    gb.g.add_node("Method:thompson-sampling", kind="Method", label="Thompson sampling", df=40,
                  idf=6.3, specific=True)
    gb.g.add_node("Method:bandit-algorithm", kind="Method", label="bandit algorithms", df=900,
                  idf=3.2, specific=True, family=True)
    _linked(gb, "a", "b", "sharesTechniqueWith", ["Thompson sampling"],
            via=[{"concept": "Method:thompson-sampling", "level": 0}], label="Thompson sampling")
    _linked(gb, "a", "c", "sharesTechniqueWith", ["bandit algorithms"],
            via=[{"concept": "Method:bandit-algorithm", "level": 1}], label="bandit algorithms")
    _linked(gb, "b", "c", "sharesTechniqueWith", ["bandit algorithms"],
            via=[{"concept": "Method:bandit-algorithm", "level": 1}], label="bandit algorithms")
    result = evaluate_links(gb.g)
    top = [c.to_json() for c in result.concepts]
    assert top[0] == {"concept": "Method:bandit-algorithm", "label": "bandit algorithms", "links": 2,
                      "level": 1, "df": 900, "idf": 3.2, "specific": True}
    assert top[1]["label"] == "Thompson sampling"
    assert top[1]["level"] == 0


def test_eval_links_cli_reports_each_judgment_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "graph"
    write_graph_dir(out, [], _five_papers().g, [], {})
    judgments = tmp_path / "j.jsonl"
    judgments.write_text(
        "\n".join(json.dumps({"id": q, "related": r}) for q, r in
                  [("a", {"b": 2}), ("b", {}), ("c", {}), ("d", {}), ("e", {})]) + "\n",
        encoding="utf-8",
    )
    assert main(["eval", "links", "-g", str(out), "--judgments", str(judgments)]) == 0
    text = capsys.readouterr().out
    assert "papers without a share link: 1 / 5" in text
    assert "j.jsonl (5 queries): links joining papers judged related 1/3 = 0.333" in text
    assert "judged-related pairs linked 1/1 = 1.000" in text
    assert main(["eval", "links", "-g", str(out), "--json", "--top", "1"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["papers_without_link"] == 1
    assert doc["top_concepts"] == [{"concept": "regret", "label": "regret", "links": 2}]
