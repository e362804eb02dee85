"""Ranking: rarity, type, role, bound shapes and topic each move a paper up, and say so."""

from __future__ import annotations

import pytest

from kg.related import RelatedWeights, build_index
from kg.types import Extraction, Mention, Paper
from kg.words import entity_terms
from tests.unit.related_graph import GraphBuilder, filler


def _graph(*papers: str, topics: dict[str, int] | None = None, fillers: int = 8) -> GraphBuilder:
    """Papers whose titles and abstracts share no word (so the lexical signal is zero), plus
    fillers."""
    gb = GraphBuilder()
    for pid in papers:
        gb.paper(pid, f"Title{pid}", f"word{pid}", (topics or {}).get(pid, -1))
    for pid, abstract in filler(fillers):
        gb.paper(pid, f"Filler {pid}", abstract)
    return gb


def test_related_shared_method_outranks_shared_concept() -> None:
    gb = _graph("q", "meth", "conc")
    gb.holds("q", "Method", "m").holds("q", "Concept", "c")
    gb.holds("meth", "Method", "m").holds("conc", "Concept", "c")
    # the encoder's reading of the placeholder texts is no part of this test (see the next one)
    ranked = build_index(gb.g, RelatedWeights(encoder=0.0)).related("q")
    assert [r.id for r in ranked] == ["meth", "conc"]


def test_related_rare_entity_outranks_common_entity() -> None:
    gb = _graph("q", "rare", *[f"common{i}" for i in range(5)])
    gb.holds("q", "Method", "rare-method").holds("rare", "Method", "rare-method")
    gb.holds("q", "Method", "common-method")
    for i in range(5):
        gb.holds(f"common{i}", "Method", "common-method")
    # the placeholder texts ("Titlecommon0. wordcommon0") share no word, but the sentence encoder
    # still finds them more or less alike; this test is about the entities alone
    ranked = [r.id for r in build_index(gb.g, RelatedWeights(encoder=0.0)).related("q")]
    assert ranked[0] == "rare"
    assert sorted(ranked[1:]) == [f"common{i}" for i in range(5)]


@pytest.mark.parametrize(
    ("candidate_predicates", "expected_first", "expected_roles"),
    [
        # one uses what the query proposes (builds on it) beats one sharing a used method
        ({"builds": ("x", "uses"), "alongside": ("y", "uses")}, "builds", ("proposed", "used")),
        # both proposing the same method beats merely using it
        ({"rival": ("x", "proposes"), "user": ("x", "uses")}, "rival", ("proposed", "proposed")),
    ],
)
def test_related_role_factor_orders_candidates(
    candidate_predicates: dict[str, tuple[str, str]],
    expected_first: str,
    expected_roles: tuple[str, str],
) -> None:
    gb = _graph("q", *candidate_predicates)
    gb.holds("q", "Method", "x", "proposes").holds("q", "Method", "y", "uses")
    for pid, (method, predicate) in candidate_predicates.items():
        gb.holds(pid, "Method", method, predicate)
    results = build_index(gb.g).related("q")
    assert results[0].id == expected_first
    assert [(s.canonical, s.roles) for s in results[0].shared] == [("x", expected_roles)]


def test_related_shared_bound_shape_is_found_and_explained() -> None:
    gb = _graph("q", "same", "other")
    gb.bound("q", "upper", "O(d sqrt(T))", ["T", "d"], "regret")
    gb.bound("same", "upper", "O(sqrt(T))", ["T"], "regret")
    gb.bound("other", "lower", "Omega(1/epsilon^2)", ["epsilon"], "sample complexity")
    results = build_index(gb.g).related("q")
    # "other" claims a bound too, on another quantity: it meets q on the coarsest shape only
    assert [r.id for r in results] == ["same", "other"]
    assert results[0].bounds == ("both claim regret upper bounds in √T",)
    assert results[0].explanation == "both claim regret upper bounds in √T"
    assert results[1].bounds == ("both claim bounds",)
    assert results[0].signals["bound"] > 2 * results[1].signals["bound"] > 0


def test_related_papers_claiming_bounds_meet_on_the_coarsest_shape_only_when_both_do() -> None:
    gb = _graph("q", "theory", "empirical")
    gb.bound("q", "upper", "O(sqrt(T))", ["T"], "regret")
    gb.bound("theory", "lower", "Omega(1/epsilon^2)", ["epsilon"], "sample complexity")
    gb.holds("q", "Method", "m").holds("theory", "Method", "m").holds("empirical", "Method", "m")
    by_id = {r.id: r for r in build_index(gb.g).related("q")}
    assert by_id["theory"].signals["bound"] > 0 == by_id["empirical"].signals["bound"]
    assert by_id["theory"].score > by_id["empirical"].score


def test_related_bound_improvement_is_explained() -> None:
    gb = _graph("q", "better")
    gb.bound("q", "upper", "O(d^(3/2) sqrt(T))", ["T", "d"], "regret")
    gb.bound("better", "upper", "O(d sqrt(T))", ["T", "d"], "regret")
    (result,) = build_index(gb.g).related("q")
    assert result.bounds == (
        "both claim regret upper bounds in √T",
        "improves the query's regret upper bound in d (d vs d^(3/2))",
    )


def test_related_same_topic_adds_a_bonus_and_says_so() -> None:
    gb = _graph("q", "sibling", "entity", topics={"q": 3, "sibling": 3, "entity": 5})
    gb.holds("q", "Method", "m").holds("entity", "Method", "m")
    results = build_index(gb.g, RelatedWeights(topic=0.1)).related("q")
    assert [r.id for r in results] == ["entity", "sibling"]
    assert results[1].topic == 3
    assert results[1].explanation == "same topic 3"
    assert results[0].topic is None


def test_related_topic_counts_nothing_by_default_but_is_named() -> None:
    gb = _graph("q", "sibling", "entity", topics={"q": 3, "sibling": 3, "entity": 3})
    gb.holds("q", "Method", "m").holds("entity", "Method", "m")
    results = build_index(gb.g).related("q")
    assert [r.id for r in results] == ["entity"]
    assert results[0].explanation == "both use m; same topic 3"


def test_related_entities_sharing_words_are_similar() -> None:
    gb = _graph("q", "c")
    gb.holds("q", "Method", "stochastic linear bandit")
    gb.holds("c", "Method", "generalized linear contextual bandit")
    (result,) = build_index(gb.g).related("q")
    assert result.id == "c"
    assert result.shared == ()
    assert [s.to_json() for s in result.similar] == [
        {
            "type": "Method",
            "canonical": "generalized linear contextual bandit",
            "query": "stochastic linear bandit",
            "term": "bandit",
        }
    ]
    assert result.explanation == "similar: generalized linear contextual bandit ≈ stochastic linear bandit"


@pytest.mark.parametrize(
    ("names", "terms"),
    [
        (
            ["stochastic linear bandits"],
            ("bandit", "linear", "linear bandit", "stochastic", "stochastic linear"),
        ),
        (
            ["principal component analysis", "PCA"],
            ("component", "component analysis", "pca", "principal", "principal component"),
        ),
        # generic words count only inside a pair
        (["language model"], ("language", "language model")),
        (["novel framework"], ()),
        # names holding LaTeX are skipped, the math placeholder is no word
        (["$\\widetilde{O}(dB)$ regret", "MATH regret"], ("regret",)),
        # "-ss" and "-us" are no plurals; pairs skip the stop words between them
        (["the loss of the lasso", "consensus"], ("consensus", "lasso", "loss", "loss lasso")),
    ],
)
def test_related_entity_terms(names: list[str], terms: tuple[str, ...]) -> None:
    assert entity_terms(names) == terms


def test_related_explanation_lists_methods_first() -> None:
    gb = _graph("q", "c", "d1", "d2", "d3")
    gb.holds("q", "Concept", "rare-concept").holds("c", "Concept", "rare-concept")
    gb.holds("q", "Task", "task").holds("c", "Task", "task")
    gb.holds("q", "Method", "common", label="Common Method").holds("c", "Method", "common")
    for pid in ("d1", "d2", "d3"):
        gb.holds(pid, "Method", "common")
    (first, *_rest) = build_index(gb.g).related("q")
    assert first.id == "c"
    assert [s.type for s in first.shared] == ["Method", "Task", "Concept"]
    assert first.explanation.startswith("both use Common Method; both address task; both use rare-concept")


def test_related_excludes_the_query_breaks_ties_by_id_and_respects_top() -> None:
    gb = _graph("q", "b", "a", "c")
    for pid in ("q", "b", "a", "c"):
        gb.holds(pid, "Method", "x")
    index = build_index(gb.g, RelatedWeights(encoder=0.0))  # a tie on the one method, nothing else
    assert [r.id for r in index.related("q", top=2)] == ["a", "b"]
    assert [r.id for r in index.related("q", top=10)] == ["a", "b", "c"]


def test_related_lexical_signal_names_shared_terms() -> None:
    gb = GraphBuilder()
    gb.paper("q", "Q", "bandit regret exploration")
    gb.paper("c", "C", "bandit regret graphs")
    gb.paper("z", "Z", "protein folding")
    (result,) = build_index(gb.g).related("q")
    assert result.id == "c"
    assert result.terms == ("bandit regret",)  # the word pair stands for its two words
    assert result.shared == () and result.bounds == ()


def test_related_all_equals_one_query_per_paper() -> None:
    gb = _graph("q", "a", "b", fillers=3)
    gb.holds("q", "Method", "x").holds("a", "Method", "x").holds("b", "Task", "t").holds("q", "Task", "t")
    index = build_index(gb.g)
    everything = list(index.related_all(top=2))
    assert [pid for pid, _ in everything] == sorted(index.ids)
    for pid, results in everything:
        assert [r.to_json() for r in results] == [r.to_json() for r in index.related(pid, top=2)]


def test_related_weights_change_the_ranking() -> None:
    gb = _graph("q", "meth", "conc")
    gb.holds("q", "Method", "m").holds("q", "Concept", "c")
    gb.holds("meth", "Method", "m").holds("conc", "Concept", "c")
    flipped = RelatedWeights(
        types={"Method": 0.1, "Task": 0.8, "Dataset": 0.8, "Metric": 0.5, "Concept": 1.0}
    )
    assert [r.id for r in build_index(gb.g, flipped).related("q")] == ["conc", "meth"]


def test_related_text_matches_entities_by_alias_and_adds_nothing() -> None:
    gb = _graph("holder", "other")
    gb.holds("holder", "Method", "stochastic gradient descent", aliases=["SGD"])
    gb.holds("other", "Method", "adam")
    index = build_index(gb.g)
    nodes_before = sorted(gb.g.nodes)
    abstract = "We analyse SGD."
    paper = Paper(id="p-new", title="New", abstract=abstract)
    mention = Mention(type="Method", text="SGD", start=11, end=14, canonical="SGD")
    results = index.related_text(Extraction(paper, (mention,), ()))
    assert results[0].id == "holder"
    assert [(s.canonical, s.roles) for s in results[0].shared] == [
        ("stochastic gradient descent", ("used", "used"))
    ]
    assert sorted(gb.g.nodes) == nodes_before
    assert "p-new" not in index.ids


def test_related_text_matches_an_entity_named_under_another_type() -> None:
    gb = _graph("holder")
    gb.holds("holder", "Method", "principal component analysis")
    paper = Paper(id="p-new", title="New", abstract="We study principal component analysis.")
    mention = Mention(
        type="Task",
        text="principal component analysis",
        start=9,
        end=37,
        canonical="principal component analysis",
    )
    (result,) = build_index(gb.g).related_text(Extraction(paper, (mention,), ()))
    assert [(s.type, s.canonical) for s in result.shared] == [("Method", "principal component analysis")]
