"""The meaning signals, S (latent semantic) and N (sentence encoder): they order papers that share
evidence, S names the words behind it, and neither makes a result on its own."""

from __future__ import annotations

import pytest

from kg.related import RelatedWeights, build_index
from kg.types import Extraction, Paper
from tests.unit.related_graph import GraphBuilder

QUERY = "Regret of multi-armed bandit algorithms under exploration."
# Both candidates share exactly one word with the query ("exploration"); one is about bandits in
# other words, the other about images. Their ids put the image paper first on a tie.
NEAR = "Agents pull arms to maximize reward with exploration."
FAR = "Adversarial networks synthesize realistic images with exploration."


def _graph() -> GraphBuilder:
    gb = GraphBuilder()
    gb.paper("q", "", QUERY)
    gb.paper("p1-images", "", FAR)
    gb.paper("p2-arms", "", NEAR)
    # shares no word with the query ("arms" is not "armed"), but is a bandit paper too; it also
    # puts "arms", "reward" and "pull" in the graph's vocabulary (words of at least two papers)
    gb.paper("p3-reward", "", "Which arms to pull for the highest reward.")
    # and the same for three words of the image paper, so both candidates' word vectors have
    # the same length and weigh "exploration" alike
    gb.paper("p4-look", "", "Images look realistic under adversarial training.")
    for pid in ("q", "p1-images", "p2-arms", "p3-reward", "p4-look"):
        gb.g.nodes[f"paper:{pid}"]["title_derived"] = True
    return gb


def test_related_semantic_orders_papers_with_equal_shared_words() -> None:
    gb = _graph()
    plain = build_index(gb.g, RelatedWeights(semantic=0.0, encoder=0.0)).related("q")
    assert [r.id for r in plain] == ["p1-images", "p2-arms"]  # a tie on "exploration", by id
    assert plain[0].score == plain[1].score
    for weights in (RelatedWeights(), RelatedWeights(encoder=0.0), RelatedWeights(semantic=0.0)):
        ranked = build_index(gb.g, weights).related("q")
        assert [r.id for r in ranked] == ["p2-arms", "p1-images"], weights
        assert ranked[0].signals["lexical"] == pytest.approx(ranked[1].signals["lexical"])
    # each meaning signal alone puts the bandit paper nearer
    assert ranked[0].signals["semantic"] > ranked[1].signals["semantic"]
    assert ranked[0].signals["encoder"] > ranked[1].signals["encoder"]


def test_related_semantic_names_candidate_words_the_query_lacks() -> None:
    (first, *_rest) = build_index(_graph().g).related("q")
    assert first.id == "p2-arms" and first.close
    assert set(first.close) <= {"agents", "pull", "arms", "maximize", "reward"}
    assert "exploration" not in first.close  # a shared word is a term, not a close word
    assert first.terms == ("exploration",)
    assert "close in meaning: " + ", ".join(first.close) in first.explanation
    assert first.to_json()["close"] == list(first.close)


def test_related_semantic_alone_makes_no_result() -> None:
    gb = _graph()
    for weights in (RelatedWeights(), RelatedWeights(semantic=10.0), RelatedWeights(encoder=10.0)):
        ranked = build_index(gb.g, weights).related("q", top=10)
        assert "p3-reward" not in [r.id for r in ranked]  # close in meaning, no shared evidence
        assert all(r.explained for r in ranked)


def test_related_semantic_reads_an_abstract_not_in_the_graph() -> None:
    index = build_index(_graph().g)
    paper = Paper("new", "", "Bandit exploration: which arms give regret.", title_derived=True)
    ranked = {r.id: r for r in index.related_text(Extraction(paper, (), ()), top=5)}
    assert ranked["p2-arms"].signals["semantic"] > ranked["p1-images"].signals["semantic"] > 0
    assert ranked["p2-arms"].signals["encoder"] > ranked["p1-images"].signals["encoder"] > 0
