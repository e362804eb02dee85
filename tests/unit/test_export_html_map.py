"""The map view: LaTeX as Unicode, derived titles, regions (named, pooled, laid out), levels of detail."""

from __future__ import annotations

import json

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kg.export.html import DEFAULT_VIEW, render_html
from kg.export.mapview import map_data
from kg.export.mathtext import latex_to_text
from kg.export.regions import OTHER, build_regions, lay_out, region_links
from kg.export.titles import display_title, noun_phrase
from tests.fixtures.html_graphs import corpus_shaped_graph, tiny_graph


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        ("$\\tilde{O}(\\sqrt{T})$ regret", "Õ(√T) regret"),
        ("$\\alpha$-mixing", "α-mixing"),
        ("$x^2 + y_1$", "x² + y₁"),
        ("$\\mathcal{O}(d/T)$", "𝒪(d/T)"),
        ("$\\mathbb{R}^d$", "ℝᵈ"),
        ("$\\frac{1}{\\epsilon^2}$", "1/ϵ²"),
        ("$T$", "T"),
        ("$O(\\sqrt{d T \\log T})$", "O(√(d T log T))"),
        ("no math at all", "no math at all"),
        ("Schr\\\"odinger bridges", "Schrödinger bridges"),
    ],
)
def test_latex_is_written_as_unicode_text(latex: str, text: str) -> None:
    assert latex_to_text(latex) == text


@given(st.text(alphabet=st.sampled_from(list("$\\{}^_ab1 alphasqrt~-")), max_size=40))
def test_latex_to_text_never_leaves_a_dollar_or_backslash(text: str) -> None:
    out = latex_to_text(text)
    assert "$" not in out and "\\" not in out


def _untitled(g: nx.MultiDiGraph, pid: str, abstract: str, proposes: list[str]) -> None:
    g.add_node(pid, kind="Paper", title=abstract[:30], title_derived=True, abstract=abstract, topic=0)
    for k, name in enumerate(proposes):
        node = f"Method:{name.lower()}"
        g.add_node(node, kind="Method", label=name, papers=1)
        g.add_edge(pid, node, key="proposes", predicate="proposes", start=10 * k, text=name)


def test_derived_title_prefers_a_coined_name_then_a_specific_method_then_a_noun_phrase() -> None:
    g = nx.MultiDiGraph()
    _untitled(g, "paper:a", "To do so we propose BDC-Merge, a framework for merging.", ["BDC-Merge"])
    # A bare acronym names a field, not the paper: the multi-word method it proposes is the title.
    _untitled(g, "paper:b", "We study schedules. We propose SGD with warm restarts.",
              ["SGD", "cosine warm restart schedule"])
    # Nothing proposed says anything alone ("theoretical analysis"): a noun phrase of the abstract.
    _untitled(g, "paper:c",
              "In this paper, we study the sample complexity of $\\epsilon$-greedy exploration.",
              ["theoretical analysis"])
    g.add_node("paper:d", kind="Paper", title="On $\\tilde{O}(\\sqrt{T})$ regret", title_derived=False)
    assert display_title(g, "paper:a") == "BDC-Merge"
    assert display_title(g, "paper:b") == "Cosine warm restart schedule"
    assert display_title(g, "paper:c") == "Sample complexity of ϵ-greedy exploration"
    assert display_title(g, "paper:d") == "On Õ(√T) regret"


def test_derived_title_is_never_raw_latex() -> None:
    g = nx.MultiDiGraph()
    _untitled(g, "paper:t", "$T$ rounds of play are studied here.", [])
    g.nodes["paper:t"]["title"] = "$T$"
    title = display_title(g, "paper:t")
    assert title and "$" not in title and "\\" not in title


@pytest.mark.parametrize(
    ("abstract", "phrase"),
    [
        ("We propose a contextual cascading bandit model in which the agent acts.",
         "Contextual cascading bandit model"),
        ("As LLM systems grow, they fail. We present Shepherd, a tool.", "Shepherd"),
        ("This paper studies attention mechanisms through the lens of kernels and their many uses in vision.",
         "Attention mechanisms through the lens of kernels"),
    ],
)
def test_noun_phrase_of_the_first_sentences(abstract: str, phrase: str) -> None:
    assert noun_phrase(abstract) == phrase


def _two_regions() -> nx.MultiDiGraph:
    g = tiny_graph()
    for p, topic in (("p1", 0), ("p2", 0), ("p3", 1), ("p4", 1)):
        g.nodes[f"paper:{p}"]["topic"] = topic
    g.add_edge("paper:p3", "paper:p4", key="sharesTechniqueWith", predicate="sharesTechniqueWith", weight=0.4,
               shared=["adam"])
    return g


def test_region_label_falls_back_to_the_entities_its_papers_share() -> None:
    g = _two_regions()
    papers = sorted(n for n, d in g.nodes(data=True) if d["kind"] == "Paper")
    regions = build_regions(g, papers)
    # p1 and p2 share the Transformer and self-attention; p3 and p4 share nothing held by both.
    assert [(r.id, r.papers) for r in regions] == [(0, ["paper:p1", "paper:p2"]),
                                                   (1, ["paper:p3", "paper:p4"])]
    assert regions[0].label == "Transformer · self-attention"
    assert regions[0].concepts == ["Method:transformer", "Concept:self-attention"]
    assert regions[1].label == "2 papers"


def test_region_label_comes_from_the_graph_when_the_build_names_regions() -> None:
    g = _two_regions()
    g.graph["regions"] = [{"id": 1, "label": "stochastic optimisation", "concepts": ["Method:adam"],
                           "papers": 2}]
    regions = build_regions(g, sorted(n for n, d in g.nodes(data=True) if d["kind"] == "Paper"))
    assert (regions[1].label, regions[1].concepts) == ("stochastic optimisation", ["Method:adam"])


def test_small_regions_and_papers_without_topic_are_pooled_not_dropped() -> None:
    g = corpus_shaped_graph(600)
    papers = sorted(n for n, d in g.nodes(data=True) if d["kind"] == "Paper")
    regions = build_regions(g, papers, max_regions=10)
    assert len(regions) == 11 and regions[-1].id == OTHER
    assert sorted(p for r in regions for p in r.papers) == papers
    assert "without a topic" in regions[-1].label and "small regions" in regions[-1].label


def test_layout_is_the_same_whatever_the_insertion_order() -> None:
    g = corpus_shaped_graph(400)
    shuffled = nx.MultiDiGraph()
    shuffled.add_nodes_from(reversed(list(g.nodes(data=True))))
    shuffled.add_edges_from(reversed(list(g.edges(keys=True, data=True))))

    def positions(graph: nx.MultiDiGraph) -> dict[str, tuple[float, float]]:
        papers = sorted(n for n, d in graph.nodes(data=True) if d["kind"] == "Paper")
        regions = build_regions(graph, papers)
        lay_out(graph, regions, region_links(graph, {p: r.id for r in regions for p in r.papers}))
        return {p: xy for r in regions for p, xy in r.positions.items()}

    assert positions(g) == positions(shuffled)
    assert len(set(positions(g).values())) == 400  # no two papers on one spot


def test_map_is_the_default_view_and_holds_every_paper() -> None:
    assert DEFAULT_VIEW == "map"
    page = render_html(_two_regions())
    assert (page.view, page.nodes, page.folded) == ("map", 4, 0)


def test_large_graph_opens_on_the_regions_and_says_how_to_open_them() -> None:
    g = corpus_shaped_graph(300)
    small, large = map_data(g, max_nodes=300), map_data(g, max_nodes=100)
    assert (small["level"], large["level"]) == ("papers", "regions")
    assert len(large["papers"]) == 300  # nothing folded away: a region opens on the page itself
    note = "".join(text for _, text in large["note"])
    assert "300 papers in" in note and "Click a region" in note and "--max-nodes 100" in note
    assert small["note"] == [] or "Click a region" not in "".join(t for _, t in small["note"])


def test_paper_panel_names_methods_tasks_datasets_bounds_and_related_papers() -> None:
    data = map_data(_two_regions(), max_nodes=100)
    ents = data["entities"]
    by_id = {p["id"]: p for p in data["papers"]}
    p1, p3 = by_id["paper:p1"]["panel"], by_id["paper:p3"]["panel"]
    assert [ents[i]["label"] for i in p1["proposed"]] == ["Transformer"]
    assert [ents[i]["label"] for i in p1["tasks"]] == ["machine translation"]
    assert [ents[i]["label"] for i in p1["datasets"]] == ["WMT 2014"]
    assert p3["bounds"] == [["O(√T)", "regret", "upper"]]
    linked = [data["papers"][i]["id"] for i, _ in p1["related"]]
    assert linked == ["paper:p2"]
    # kg related's own ranking and explanation (cheap signals) on a page of papers.
    similar = [(data["papers"][i]["id"], why) for i, why in p1["similar"]]
    assert similar[0][0] == "paper:p2" and "both use self-attention" in similar[0][1]
    assert json.dumps(data).count("\\\\") == 0  # no LaTeX backslash left in the page data
