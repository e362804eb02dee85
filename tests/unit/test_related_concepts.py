"""The concept signal C: shared specific concepts by IDF, shared broader concepts discounted by level."""

from __future__ import annotations

import math
import re
from pathlib import Path

from kg.graphdir import load_nx, write_graph_dir
from kg.related import RelatedWeights, build_index, load_index, write_index
from kg.types import Extraction, Mention, Paper
from kg.vocab import entity_node
from tests.unit.related_graph import GraphBuilder, filler

# The graph's own evidence only: the text signals and the entity words off, as `--weights` does it.
GRAPH_ONLY = RelatedWeights(lexical=0, semantic=0, encoder=0, terms=0, concept=1.0)


def _broader(gb: GraphBuilder, etype: str, child: str, parent: str, family: bool = False) -> None:
    child_node, parent_node = entity_node(etype, child), entity_node(etype, parent)
    if parent_node not in gb.g:
        gb.g.add_node(parent_node, kind=etype, canonical=parent, label=parent, aliases=[], papers=0,
                      family=family)
    if child_node not in gb.g:
        gb.g.add_node(child_node, kind=etype, canonical=child, label=child, aliases=[], papers=0)
    gb.g.add_edge(child_node, parent_node, key="broader", predicate="broader", sources=["structure"])


def _bandits() -> GraphBuilder:
    """q: linear Thompson sampling. same: the same; sibling: neural Thompson sampling (they meet
    on Thompson sampling, one level up); cousin: UCB (they meet on the family, bandit
    algorithms); gnn: nothing in common."""
    gb = GraphBuilder()
    for pid, abstract in filler(8):
        gb.paper(pid, pid, abstract)
    for pid in ("q", "same", "sibling", "cousin", "gnn"):
        gb.paper(pid, pid.capitalize())
    gb.holds("q", "Method", "linear thompson sampling")
    gb.holds("same", "Method", "linear thompson sampling")
    gb.holds("sibling", "Method", "neural thompson sampling")
    gb.holds("cousin", "Method", "upper confidence bound")
    gb.holds("gnn", "Method", "graph neural network")
    for pid, _abstract in filler(8)[:4]:
        gb.holds(pid, "Method", "graph neural network")
    _broader(gb, "Method", "linear thompson sampling", "thompson sampling")
    _broader(gb, "Method", "neural thompson sampling", "thompson sampling")
    _broader(gb, "Method", "thompson sampling", "bandit algorithms", family=True)
    _broader(gb, "Method", "upper confidence bound", "bandit algorithms", family=True)
    return gb


def test_related_concepts_rank_a_shared_leaf_over_a_shared_parent_over_a_shared_family() -> None:
    results = build_index(_bandits().g, GRAPH_ONLY).related("q")
    assert [r.id for r in results] == ["same", "sibling", "cousin"]  # gnn shares nothing
    same, sibling, cousin = results
    assert same.signals["concept"] > sibling.signals["concept"] > cousin.signals["concept"] > 0
    assert sibling.signals["entity"] == cousin.signals["entity"] == 0  # no entity in common


def test_related_concepts_explain_the_level_at_which_papers_meet() -> None:
    same, sibling, cousin = build_index(_bandits().g, GRAPH_ONLY).related("q")
    # the shared leaf stands for its ancestors: they are not named again
    assert [(c.label, c.levels) for c in same.concepts] == [("linear thompson sampling", (0, 0))]
    assert same.explanation.startswith("both use linear thompson sampling")
    assert "methods: linear thompson sampling" not in same.explanation
    assert [(c.label, c.levels) for c in sibling.concepts] == [("thompson sampling", (1, 1))]
    assert sibling.explanation.startswith("both are kinds of thompson sampling")
    assert [(c.label, c.levels) for c in cousin.concepts] == [("bandit algorithms", (2, 1))]
    assert cousin.explanation.startswith("both are bandit algorithms")


def test_related_concepts_reach_as_far_as_the_grandparent() -> None:
    """q and "two" meet on a grandparent of what each holds; q and "three" only three levels up,
    where a broad family joins whole areas: that is no match, as it links no papers either."""
    gb = GraphBuilder()
    for pid, abstract in filler(8):
        gb.paper(pid, pid, abstract)
    gb.paper("q", "Q").paper("two", "Two").paper("three", "Three")
    gb.holds("q", "Method", "sparse linear thompson sampling")
    gb.holds("two", "Method", "neural thompson sampling")
    gb.holds("three", "Method", "kernel upper confidence bound")
    _broader(gb, "Method", "sparse linear thompson sampling", "linear thompson sampling")
    _broader(gb, "Method", "linear thompson sampling", "thompson sampling")
    _broader(gb, "Method", "neural thompson sampling", "neural bandit")
    _broader(gb, "Method", "neural bandit", "thompson sampling")
    _broader(gb, "Method", "thompson sampling", "bandit algorithms", family=True)
    _broader(gb, "Method", "kernel upper confidence bound", "upper confidence bound")
    _broader(gb, "Method", "upper confidence bound", "optimistic bandit")
    _broader(gb, "Method", "optimistic bandit", "bandit algorithms", family=True)
    results = build_index(gb.g, GRAPH_ONLY).related("q")
    assert [r.id for r in results] == ["two"]
    assert [(c.label, c.levels) for c in results[0].concepts] == [("thompson sampling", (2, 2))]


def test_related_concepts_broader_discount_weighs_parents() -> None:
    """A smaller factor per level makes a parent-level match weigh less against a leaf."""
    graph = _bandits().g

    def ratio(broader: float) -> float:
        weights = RelatedWeights(lexical=0, semantic=0, encoder=0, terms=0, concept=1.0, broader=broader)
        by_id = {r.id: r for r in build_index(graph, weights).related("q")}
        return by_id["sibling"].signals["concept"] / by_id["same"].signals["concept"]

    assert ratio(0.25) < ratio(0.5) < ratio(0.9)


def test_related_concepts_a_generic_concept_weighs_little_and_is_named_last() -> None:
    gb = GraphBuilder()
    for pid, abstract in filler(6):
        gb.paper(pid, pid, abstract)
    gb.paper("q", "Q").paper("generic", "Generic").paper("lora", "Lora")
    for pid in ("q", "generic", "lora"):
        gb.holds(pid, "Concept", "model")
    gb.holds("q", "Method", "low rank adaptation").holds("lora", "Method", "low rank adaptation")
    model = entity_node("Concept", "model")
    gb.g.nodes[model].update(specific=False, idf=2.0, df=9000)
    gb.g.nodes[entity_node("Method", "low rank adaptation")].update(specific=True, idf=2.0, df=50)
    results = build_index(gb.g, GRAPH_ONLY).related("q")
    assert [r.id for r in results] == ["lora", "generic"]
    lora, generic = results
    assert [c.label for c in lora.concepts] == ["low rank adaptation"]  # "model" said nothing more
    assert "model" not in lora.explanation
    assert [c.label for c in generic.concepts] == ["model"]  # the only thing they share
    assert generic.signals["concept"] < lora.signals["concept"]
    # the generic factor at 0: "model" is no reason at all
    no_generic = RelatedWeights(lexical=0, semantic=0, encoder=0, terms=0, concept=1.0, generic=0.0)
    assert [r.id for r in build_index(gb.g, no_generic).related("q")] == ["lora"]


def test_related_concepts_use_the_idf_the_graph_carries() -> None:
    """Two concepts held by as many papers weigh by the reference IDF on their nodes."""
    gb = GraphBuilder()
    for pid, abstract in filler(6):
        gb.paper(pid, pid, abstract)
    gb.paper("q", "Q").paper("rare", "Rare").paper("common", "Common")
    gb.holds("q", "Method", "sinkhorn iteration").holds("rare", "Method", "sinkhorn iteration")
    gb.holds("q", "Method", "gradient descent").holds("common", "Method", "gradient descent")
    weights = RelatedWeights(lexical=0, semantic=0, encoder=0, terms=0, entity=0, bound=0, concept=1.0)
    gb.g.nodes[entity_node("Method", "sinkhorn iteration")].update(idf=6.0, specific=True)
    gb.g.nodes[entity_node("Method", "gradient descent")].update(idf=1.5, specific=True)
    assert [r.id for r in build_index(gb.g, weights).related("q")] == ["rare", "common"]
    gb.g.nodes[entity_node("Method", "sinkhorn iteration")].update(idf=1.5)
    gb.g.nodes[entity_node("Method", "gradient descent")].update(idf=6.0)
    assert [r.id for r in build_index(gb.g, weights).related("q")] == ["common", "rare"]


def test_related_concepts_reach_broader_concepts_from_an_abstract_not_in_the_graph() -> None:
    index = build_index(_bandits().g, GRAPH_ONLY)
    text = "We study neural Thompson sampling."
    paper = Paper(id="p-new", title="New", abstract=text)
    mention = Mention(type="Method", text="neural Thompson sampling", start=9, end=33,
                      canonical="neural thompson sampling")
    by_id = {r.id: r for r in index.related_text(Extraction(paper, (mention,), ()))}
    assert [(c.label, c.levels) for c in by_id["q"].concepts] == [("thompson sampling", (1, 1))]
    assert by_id["sibling"].signals["concept"] > by_id["q"].signals["concept"] > by_id["cousin"].signals[
        "concept"
    ]


def test_related_concepts_survive_the_saved_index(tmp_path: Path) -> None:
    directory = tmp_path / "graph"
    write_graph_dir(directory, [], _bandits().g, [], {})
    weights = RelatedWeights(encoder=0, concept=0.5)
    fresh = build_index(load_nx(directory), weights)
    write_index(directory, weights)
    loaded = load_index(directory, weights)
    assert loaded.vectorizer is None  # read from the file
    for pid in ("q", "sibling", "cousin"):
        assert [r.to_json() for r in loaded.related(pid)] == [r.to_json() for r in fresh.related(pid)]
    assert loaded.related("q")[1].concepts[0].label == "thompson sampling"


def test_related_concepts_a_concept_named_in_passing_weighs_less() -> None:
    """q is about Thompson sampling and names graph neural networks once, late; "about" shares
    its topic, "passing" only what q names in passing. Both concepts are equally rare."""
    text = "We study Thompson sampling. It is hard. We bound it. We also tried a graph neural network."
    gb = GraphBuilder()
    for pid, abstract in filler(8):
        gb.paper(pid, pid, abstract)
    gb.paper("q", "Q", text).paper("about", "About").paper("passing", "Passing")
    gb.holds("q", "Method", "thompson sampling").holds("q", "Method", "graph neural network")
    late = gb.g.edges["paper:q", entity_node("Method", "graph neural network"), "uses"]
    late["start"] = text.index("graph")
    gb.holds("about", "Method", "thompson sampling").holds("passing", "Method", "graph neural network")
    about, passing = build_index(gb.g, GRAPH_ONLY).related("q")
    assert (about.id, passing.id) == ("about", "passing")
    ratio = passing.signals["concept"] / about.signals["concept"]
    assert abs(ratio - RelatedWeights().passing) < 1e-9
    flat = build_index(gb.g, RelatedWeights(**{**GRAPH_ONLY.to_json(), "passing": 1.0}))
    signals = {r.id: r.signals["concept"] for r in flat.related("q")}
    assert abs(signals["passing"] - signals["about"]) < 1e-9  # without the factor, the two tie


def test_related_concepts_a_concept_named_more_often_weighs_more() -> None:
    """q names Thompson sampling three times and graph neural networks once, both saliently;
    "often" shares the first, "once" the second. Both concepts are equally rare, so the concept
    named three times carries more of q's vector: by ``1 + ln 3`` against 1."""
    gb = GraphBuilder()
    for pid, abstract in filler(8):
        gb.paper(pid, pid, abstract)
    gb.paper("q", "Q").paper("often", "Often").paper("once", "Once")
    gb.holds("q", "Method", "thompson sampling").holds("q", "Method", "graph neural network")
    gb.g.edges["paper:q", entity_node("Method", "thompson sampling"), "uses"]["mentions"] = 3
    gb.holds("often", "Method", "thompson sampling").holds("once", "Method", "graph neural network")
    often, once = build_index(gb.g, GRAPH_ONLY).related("q")
    assert (often.id, once.id) == ("often", "once")
    assert abs(often.signals["concept"] / once.signals["concept"] - (1 + math.log(3))) < 1e-9
    flat = build_index(gb.g, RelatedWeights(**{**GRAPH_ONLY.to_json(), "mentions": 0.0}))
    signals = {r.id: r.signals["concept"] for r in flat.related("q")}
    assert abs(signals["often"] - signals["once"]) < 1e-9  # counts ignored: the two tie


def test_related_concepts_an_abstract_not_in_the_graph_weighs_its_mention_counts() -> None:
    """The same factor for an abstract read on the fly: its mentions are counted."""
    gb = GraphBuilder()
    for pid, abstract in filler(8):
        gb.paper(pid, pid, abstract)
    gb.paper("often", "Often").paper("once", "Once")
    gb.holds("often", "Method", "thompson sampling").holds("once", "Method", "graph neural network")
    text = "Thompson sampling and graph neural networks. Thompson sampling again. Thompson sampling."
    spans = [("thompson sampling", m.start()) for m in re.finditer("Thompson sampling", text)]
    spans.append(("graph neural network", text.index("graph")))
    mentions = tuple(
        Mention(type="Method", text=text[s : s + len(c)], start=s, end=s + len(c), canonical=c)
        for c, s in spans
    )
    paper = Paper(id="p-new", title="New", abstract=text)
    by_id = {r.id: r for r in build_index(gb.g, GRAPH_ONLY).related_text(Extraction(paper, mentions, ()))}
    ratio = by_id["often"].signals["concept"] / by_id["once"].signals["concept"]
    assert abs(ratio - (1 + math.log(3))) < 1e-9
