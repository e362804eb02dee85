"""The concept layer (issue 27): merged variants, the hierarchy, specificity and concept links,
on small hand-written abstracts."""

from __future__ import annotations

import networkx as nx
import pytest

from kg.assemble import assemble
from kg.concepts.stats import load_stats
from kg.concepts.terms import term_words
from kg.resolve import resolve_entities
from kg.types import Extraction, Mention, Paper
from kg.vocab import PAPER_PAPER_PROPERTIES


def _ext(pid: str, abstract: str, *mentions: tuple[str, str]) -> Extraction:
    """A paper with one mention per (type, text) at the text's first occurrence, canonicalized by kg."""
    out = []
    for etype, text in mentions:
        start = abstract.index(text)
        out.append(Mention(etype, text, start, start + len(text), ""))
    return Extraction(Paper(pid, f"title {pid}", abstract), tuple(out))


def _one(pid: str, etype: str, name: str) -> Extraction:
    return _ext(pid, f"We study {name} here.", (etype, name))


# Papers on unrelated topics: a concept of two papers among six is not in most of them.
FILLER = [_ext(f"z{i}", f"We study {name}.", ("Method", name)) for i, name in enumerate(
    ["protein folding", "speech synthesis", "portfolio selection", "weather forecasting"])]


def _links(g: nx.MultiDiGraph) -> dict[frozenset[str], dict]:
    edges = g.edges(keys=True, data=True)
    return {frozenset((u, v)): d for u, v, k, d in edges if k in PAPER_PAPER_PROPERTIES}


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("phased-elimination algorithm", "phased elimination"),
        ("pre-training", "pretraining"),
        ("Graphs Neural Networks", "graph neural network"),
        ("contextual cascading bandit model", "contextual cascading bandit"),
    ],
)
def test_concepts_variants_merge_into_one_concept(first: str, second: str) -> None:
    res = resolve_entities([_one("p1", "Method", first), _one("p2", "Method", second)])
    assert res.of_mention[("p1", 0)] == res.of_mention[("p2", 0)]
    assert len(res.entities) == 1


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("GPT-2", "GPT-4"),
        ("ResNet-50", "ResNet-101"),
        ("SR-2023-052", "SR-2023-053"),
        ("GPT-3.5", "GPT-35"),
        ("large language model", "language model"),
        ("mixture model", "mixture density"),
    ],
)
def test_concepts_near_miss_names_never_merge(first: str, second: str) -> None:
    res = resolve_entities([_one("p1", "Method", first), _one("p2", "Method", second)])
    assert res.of_mention[("p1", 0)] != res.of_mention[("p2", 0)]
    assert len(res.entities) == 2


def test_concepts_hierarchy_follows_term_structure() -> None:
    g = assemble([
        _one("p1", "Method", "stochastic linear bandit"),
        _one("p2", "Method", "policy mirror descent"),
    ])
    broader = {(u, v): d["sources"] for u, v, k, d in g.edges(keys=True, data=True) if k == "broader"}
    assert broader[("Method:stochastic-linear-bandit", "Method:linear-bandit")] == ["structure"]
    # "bandit" is also the bandit family of the taxonomy: one node, a family no paper mentions
    (bandit,) = [v for (u, v) in broader if u == "Method:linear-bandit"]
    assert g.nodes[bandit]["canonical"] == "bandit"
    assert "structure" in broader[("Method:linear-bandit", bandit)]
    assert broader[("Method:policy-mirror-descent", "Method:mirror-descent")] == ["structure"]
    # parents no paper mentions are nodes of their own, deeper concepts below them
    assert g.nodes["Method:linear-bandit"]["papers"] == 0
    assert g.nodes["Method:stochastic-linear-bandit"]["depth"] > g.nodes["Method:linear-bandit"]["depth"]
    # no generic parent: "descent" alone or "method" never appears
    assert "Method:method" not in g


def test_concepts_version_numbers_are_children_not_merges() -> None:
    g = assemble([_one("p1", "Method", "ResNet-50"), _one("p2", "Method", "ResNet-101")])
    broader = {(u, v) for u, v, k in g.edges(keys=True) if k == "broader"}
    assert ("Method:resnet-50", "Method:resnet") in broader
    assert ("Method:resnet-101", "Method:resnet") in broader


def test_concepts_taxonomy_family_is_a_parent() -> None:
    g = assemble([_one("p1", "Method", "Thompson sampling"), _one("p2", "Method", "UCB")])
    broader = {(u, v): d["sources"] for u, v, k, d in g.edges(keys=True, data=True) if k == "broader"}
    family = [v for (u, v) in broader if u == "Method:thompson-sampling" and g.nodes[v].get("family")]
    assert family and g.nodes[family[0]]["papers"] == 0
    assert broader[("Method:thompson-sampling", family[0])] == ["taxonomy"]
    assert any(v == family[0] for (u, v) in broader if u == "Method:ucb")


def test_concepts_hearst_pattern_gives_broader_edge() -> None:
    text = "Kernel density estimators such as the Parzen window are studied."
    ext = _ext("p1", text, ("Method", "Kernel density estimators"), ("Method", "Parzen window"))
    g = assemble([ext, _one("p2", "Method", "Parzen window")])
    d = g.get_edge_data("Method:parzen-window", "Method:kernel-density-estimator", "broader")
    assert d is not None and "pattern" in d["sources"]


@pytest.mark.parametrize("generic", ["unknown parameter", "machine learning model", "noise", "feature"])
def test_concepts_generic_term_never_links(generic: str) -> None:
    g = assemble([_one("p1", "Concept", generic), _one("p2", "Concept", generic), *FILLER])
    node = next(n for n, d in g.nodes(data=True) if d["kind"] == "Concept" and d["papers"] == 2)
    assert g.nodes[node]["specific"] is False
    assert _links(g) == {}


def test_concepts_parent_level_link_weighs_less_than_leaf_level() -> None:
    g = assemble([
        _one("a1", "Method", "mirror descent"),
        _one("a2", "Method", "mirror descent"),
        _one("b1", "Method", "policy mirror descent"),
        _one("b2", "Method", "online mirror descent"),
        *FILLER,
    ])
    links = _links(g)
    leaf = links[frozenset(("paper:a1", "paper:a2"))]
    parent = links[frozenset(("paper:b1", "paper:b2"))]
    assert leaf["via"][0] == {"concept": "Method:mirror-descent", "level": 0}
    assert parent["via"][0] == {"concept": "Method:mirror-descent", "level": 1}
    assert parent["label"] == "mirror descent" and parent["shared"][0] == "mirror descent"
    assert 0 < parent["weight"] < leaf["weight"]


def test_concepts_regions_are_named_by_shared_concepts() -> None:
    g = assemble([
        _one("a1", "Method", "Thompson sampling"),
        _one("a2", "Method", "Thompson sampling"),
        *FILLER,
    ])
    regions = g.graph["regions"]
    assert regions[0]["papers"] == 2
    assert regions[0]["concepts"][0] == "Method:thompson-sampling"
    assert regions[0]["label"].startswith("Thompson sampling")


def test_concepts_reference_stats_load() -> None:
    stats = load_stats()
    assert stats.n_docs > 20_000
    assert stats.df(term_words("Thompson sampling")) > 0
    assert stats.idf(term_words("Thompson sampling")) > stats.idf(term_words("neural network"))
    assert stats.specific(term_words("Thompson sampling"))
    assert not stats.specific(term_words("proposed method"))


def _late(pid: str, topic: str, passing: str) -> Extraction:
    """A paper about ``topic`` (first sentence) that names ``passing`` once, in its fourth sentence."""
    text = f"We study {topic}. It is hard. We give an analysis. Experiments use {passing} once."
    return _ext(pid, text, ("Task", topic), ("Method", passing))


def test_concepts_a_concept_named_in_passing_does_not_link_papers_about_other_things() -> None:
    g = assemble([
        _late("a1", "protein design", "Adam"), _late("a2", "protein design", "Adam"),
        _late("b1", "speech separation", "Adam"), _late("b2", "speech separation", "Adam"),
        *FILLER,
    ])
    links = _links(g)
    assert set(links) == {frozenset(("paper:a1", "paper:a2")), frozenset(("paper:b1", "paper:b2"))}
    assert all("Adam" not in d["shared"] for d in links.values())


def test_concepts_a_paper_sharing_only_a_passing_concept_keeps_its_strongest_link() -> None:
    g = assemble([_late("a1", "protein design", "Adam"), _late("b1", "speech separation", "Adam"), *FILLER])
    links = _links(g)
    assert list(links) == [frozenset(("paper:a1", "paper:b1"))]
    assert links[frozenset(("paper:a1", "paper:b1"))]["shared"] == ["Adam"]


def test_concepts_a_pattern_never_puts_a_term_under_a_rarer_one() -> None:
    # "reinforcement learning" is in far more reference abstracts than "preference tuning":
    # the sentence read backwards must not make it the narrower term
    text = "Preference tuning, such as reinforcement learning, is studied."
    ext = _ext("p1", text, ("Method", "Preference tuning"), ("Method", "reinforcement learning"))
    stats = load_stats()
    assert stats.df(term_words("preference tuning")) < stats.df(term_words("reinforcement learning"))
    g = assemble([ext, _one("p2", "Method", "reinforcement learning")])
    assert not any(k == "broader" and u == "Method:reinforcement-learning" and "pattern" in d["sources"]
                   for u, _v, k, d in g.edges(keys=True, data=True))
