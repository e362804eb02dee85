"""Finding the query: paper by id or title, method by name or alias, bridge sides."""

from __future__ import annotations

import pytest

from kg.errors import QueryError
from kg.related import RelatedIndex, build_index
from tests.unit.related_graph import GraphBuilder, pca_and_bandits


@pytest.fixture(scope="module")
def index() -> RelatedIndex:
    gb = pca_and_bandits()
    gb.paper("p-eee", "Spectral bandits", "pca bandits", topic=2)
    gb.holds("p-aaa", "Method", "anchor pca", "proposes", label="Anchor PCA")
    gb.holds("p-eee", "Method", "principal component analysis").holds("p-eee", "Task", "linear bandits")
    return build_index(gb.g)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("p-ccc", "p-ccc"),
        ("paper:p-ccc", "p-ccc"),
        ("one bit", "p-ccc"),
        ("ANCHOR pca", "p-aaa"),
        ("  Private linear bandits ", "p-ddd"),
        ("spectral bandits", "p-eee"),
    ],
)
def test_related_find_paper_by_id_or_title(index: RelatedIndex, query: str, expected: str) -> None:
    assert index.find_paper(query) == expected


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (
            "bandits",
            "'bandits' matches 3 paper titles: p-ccc 'Linear bandits with one bit'; "
            "p-ddd 'Private linear bandits'; p-eee 'Spectral bandits'; give a paper id or "
            "a longer title substring",
        ),
        ("graph neural", "no paper with id or title matching 'graph neural' in the graph (5 papers)"),
        ("  ", "empty paper query: give a paper id or a title substring"),
    ],
)
def test_related_find_paper_errors_name_the_problem(index: RelatedIndex, query: str, message: str) -> None:
    with pytest.raises(QueryError) as err:
        index.find_paper(query)
    assert str(err.value) == message


def test_related_exact_title_wins_over_substring_matches() -> None:
    gb = GraphBuilder().paper("p-1", "Bandits", "x").paper("p-2", "Bandits with experts", "y")
    assert build_index(gb.g).find_paper("bandits") == "p-1"


@pytest.mark.parametrize(
    "name", ["PCA", "principal component analysis", "Method:principal-component-analysis"]
)
def test_related_by_method_lists_papers_by_role(index: RelatedIndex, name: str) -> None:
    found = index.by_method(name)
    assert found.node == "Method:principal-component-analysis"
    assert found.proposed == ()
    assert [pid for pid, _t in found.used] == ["p-aaa", "p-bbb", "p-eee"]


def test_related_by_method_separates_proposers_from_users(index: RelatedIndex) -> None:
    found = index.by_method("phased elimination")
    assert found.to_json()["proposed"] == [{"id": "p-ccc", "title": "Linear bandits with one bit"}]
    assert found.to_json()["used"] == [{"id": "p-ddd", "title": "Private linear bandits"}]


def test_related_by_method_unknown_is_an_error(index: RelatedIndex) -> None:
    with pytest.raises(QueryError, match="no Method named 'linear bandits' in the graph"):
        index.by_method("linear bandits")  # a Task, not a Method


def test_related_bridge_between_topics_finds_the_linking_paper(index: RelatedIndex) -> None:
    bridges = index.bridge("topic:0", "1")
    assert bridges[0].id == "p-eee"
    # p-bbb holds PCA alone, so its entity cosine with p-eee beats p-aaa's (which adds Anchor PCA)
    assert bridges[0].explanation == (
        "to topic 0 via p-bbb (principal component analysis); to topic 1 via p-ccc (linear bandits)"
    )


def test_related_bridge_between_entities_puts_holders_of_both_first(index: RelatedIndex) -> None:
    bridges = index.bridge("PCA", "linear bandits")
    assert bridges[0].id == "p-eee"
    assert bridges[0].score == 1.0
    assert bridges[0].explanation == "in Method:principal-component-analysis; in Task:linear-bandits"


def test_related_bridge_unknown_topic_is_an_error(index: RelatedIndex) -> None:
    with pytest.raises(QueryError, match="topic 9 has no papers"):
        index.bridge("topic:9", "topic:0")
