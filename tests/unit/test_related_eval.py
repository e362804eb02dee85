"""The related-work evaluation: metrics, judgment files, and the two systems scored together."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from kg.errors import EvalError
from kg.evaluate.related import evaluate_related, load_judgments, ndcg_at, precision_at, tfidf_rankings
from kg.ingest import read_papers
from kg.related import RelatedWeights, build_index, tfidf_vectorizer
from tests.unit.related_graph import GraphBuilder

REPO = Path(__file__).resolve().parents[2]
JUDGMENTS = REPO / "tests" / "data" / "related_judgments.jsonl"


@pytest.mark.parametrize(
    ("ranked", "grades", "k", "expected"),
    [
        (["a", "b"], {"a": 2, "b": 1}, 5, 1.0),
        (["b", "a"], {"a": 2, "b": 1}, 5, (1 + 3 / math.log2(3)) / (3 + 1 / math.log2(3))),
        (["x", "a"], {"a": 1}, 5, (1 / math.log2(3)) / 1),
        (["x", "y"], {"a": 2}, 5, 0.0),
        (["x", "x2", "x3", "x4", "x5", "a"], {"a": 2}, 5, 0.0),  # beyond the cut-off
        ([], {}, 5, 0.0),
    ],
)
def test_related_ndcg_at(ranked: list[str], grades: dict[str, int], k: int, expected: float) -> None:
    assert ndcg_at(ranked, grades, k) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("ranked", "expected"),
    [(["a", "b", "c"], 2 / 3), (["a"], 1 / 3), (["x", "y", "z", "a"], 0.0), (["b", "a", "x"], 2 / 3)],
)
def test_related_precision_at_3(ranked: list[str], expected: float) -> None:
    assert precision_at(ranked, {"a": 2, "b": 1, "c": 0}, 3) == pytest.approx(expected)


def test_related_judgment_fixture_covers_the_50_seeds() -> None:
    seeds = {p.id for p in read_papers([str(REPO / "seeds")])}
    judgments = load_judgments(JUDGMENTS)
    assert len(seeds) == 50
    assert set(judgments) == seeds
    for pid, grades in judgments.items():
        assert grades, pid
        assert set(grades) <= seeds - {pid}
        assert set(grades.values()) <= {1, 2}


def test_related_second_seed_judgments_cover_the_50_seeds() -> None:
    """A second judge's seed judgments, written without the first's: same papers, own grades."""
    seeds = {p.id for p in read_papers([str(REPO / "seeds")])}
    second = load_judgments(REPO / "tests" / "data" / "related_judgments_seeds_second.jsonl")
    assert set(second) == seeds
    for pid, grades in second.items():
        assert set(grades) <= seeds - {pid}
        assert set(grades.values()) <= {1, 2}
    assert sum(len(g) for g in second.values()) != sum(len(g) for g in load_judgments(JUDGMENTS).values())


def test_related_corpus_judgments_are_two_disjoint_pooled_sets() -> None:
    rows = {}
    for name in ("related_judgments_corpus.jsonl", "related_judgments_corpus_test.jsonl"):
        lines = (REPO / "tests" / "data" / name).read_text(encoding="utf-8").splitlines()
        rows[name] = [json.loads(line) for line in lines]
        assert all(row["area"] for row in rows[name])
        judgments = load_judgments(REPO / "tests" / "data" / name)
        # pooled: every query has judged papers, and 0 grades record what was judged unrelated
        assert all(any(g > 0 for g in grades.values()) for grades in judgments.values())
        assert any(0 in grades.values() for grades in judgments.values())
    dev, test = ({row["id"] for row in rows[name]} for name in rows)
    assert (len(dev), len(test)) == (30, 20)
    assert not dev & test


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "line 1: not valid JSON"),
        ('{"related": {}}', 'line 1: expected an object with a string "id"'),
        ('{"id": "a", "related": {"b": 3}}', "line 1: grade of 'b' must be 0, 1 or 2, got 3"),
        ('{"id": "a", "related": {"a": 1}}', "line 1: paper 'a' is judged related to itself"),
        ('{"id": "a", "related": [{"id": "b"}]}', 'line 1: "related" list items need "id" and "grade"'),
        ('{"id": "a", "related": 5}', 'line 1: "related" must map paper ids to grades 0, 1 or 2'),
        ('{"id": "a", "related": {}}\n{"id": "a", "related": {}}', "line 2: paper 'a' is judged twice"),
        ("", "no judgments in the file"),
    ],
)
def test_related_bad_judgments_are_eval_errors(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(EvalError) as err:
        load_judgments(path)
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)


def test_related_judgments_accept_a_list_of_grades(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text(json.dumps({"id": "a", "related": [{"id": "b", "grade": 2}]}) + "\n", encoding="utf-8")
    assert load_judgments(path) == {"a": {"b": 2}}


def _eval_graph() -> GraphBuilder:
    gb = GraphBuilder()
    # the abstracts mislead TF-IDF: q reads like "decoy"; the graph knows q builds on "ucb"
    gb.paper("q", "Q", "optimistic exploration in decision making")
    gb.paper("ucb", "UCB paper", "a confidence method")
    gb.paper("decoy", "Decoy", "optimistic exploration in decision making for robots")
    gb.paper("far", "Far", "protein structures")
    gb.holds("q", "Method", "upper confidence bound", "uses").holds(
        "ucb", "Method", "upper confidence bound", "proposes"
    )
    return gb


def test_related_evaluate_scores_both_systems_on_the_same_queries() -> None:
    gb = _eval_graph()
    result = evaluate_related(gb.g, {"q": {"ucb": 2}, "missing": {"q": 1}, "far": {"q": 0}})
    kg, tfidf = result.systems
    assert (kg.name, tfidf.name) == ("kg", "tfidf")
    # "ucb" shares no word with q: TF-IDF never ranks it; kg finds it through the shared method,
    # second after the near-duplicate decoy (the words weigh most)
    assert kg.ndcg == [pytest.approx(1 / math.log2(3))]
    assert tfidf.ndcg == [0.0]
    assert result.missing_queries == ["missing"]
    assert result.no_relevant == ["far"]
    assert result.queries == 2
    report = result.report()
    assert report.splitlines()[0].split() == ["system", "queries", "nDCG@5", "P@3"]
    assert "1 judged paper(s) not in the graph, skipped: missing" in report


def test_related_baseline_stays_textbook_tfidf_of_the_abstracts() -> None:
    """The baseline is not kg's lexical signal: it reads abstract words only (no titles, no word
    pairs), so kg's better text representation counts as kg's, not the baseline's."""
    params = tfidf_vectorizer().get_params()
    assert (params["stop_words"], params["sublinear_tf"], params["ngram_range"]) == ("english", True, (1, 1))
    gb = GraphBuilder()
    gb.paper("q", "Graduated optimization", "a continuation heuristic for hard problems")
    gb.paper("c", "Graduated optimization of networks", "smoothing the loss while training")
    gb.paper("z", "Protein folding", "structures of molecules")
    lexical = RelatedWeights(entity=0, terms=0, bound=0, topic=0, lexical=1)
    index = build_index(gb.g, lexical)
    abstracts = [gb.g.nodes[f"paper:{pid}"]["abstract"] for pid in index.ids]
    assert tfidf_rankings(index.ids, abstracts, ["q"], 5) == {"q": []}
    assert [r.id for r in index.related("q", 5)] == ["c"]


def test_related_evaluate_no_titles_reads_the_abstracts_only() -> None:
    """--no-titles: kg's lexical signal reads what the baseline reads, so a lead won only through
    titles disappears (the seeds, whose titles are derived from their abstracts, have none)."""
    gb = GraphBuilder()
    # q and c meet only in their titles; their abstracts share no word
    gb.paper("q", "Graduated optimization", "a continuation heuristic for hard problems")
    gb.paper("c", "Graduated optimization of networks", "smoothing the loss while training")
    gb.paper("z", "Protein folding", "structures of molecules")
    lexical = RelatedWeights(entity=0, terms=0, bound=0, topic=0, lexical=1)
    with_titles = evaluate_related(gb.g, {"q": {"c": 2}}, lexical)
    assert with_titles.titles and with_titles.systems[0].ndcg == [1.0]
    result = evaluate_related(gb.g, {"q": {"c": 2}}, lexical, titles=False)
    assert not result.titles
    assert result.systems[0].ndcg == [0.0] == result.systems[1].ndcg
    assert result.to_json()["kg_reads_titles"] is False
    assert "kg read the abstracts only (--no-titles)" in result.report()
    assert "--no-titles" not in with_titles.report()


def test_related_evaluate_without_judged_papers_in_the_graph_is_an_error() -> None:
    with pytest.raises(EvalError, match="none of the 1 judged papers is in the graph"):
        evaluate_related(_eval_graph().g, {"p-zzz": {"q": 1}})
