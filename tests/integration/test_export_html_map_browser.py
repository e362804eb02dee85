"""The map view in a real headless Chromium: regions, levels of detail, readable labels, panels, search.

The 22k-shaped page (tests/fixtures/html_graphs.corpus_shaped_graph) opens on the map of regions;
its time from navigation to the first drawing is measured and printed, not asserted.
"""

from __future__ import annotations

import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import networkx as nx
import pytest

from kg.export.html import render_html
from tests.fixtures.browser import VIEWPORT, PageSession
from tests.fixtures.html_graphs import corpus_shaped_graph, tiny_graph

pytestmark = pytest.mark.integration

TOOL = Path(__file__).resolve().parents[2] / "tools" / "html_screenshot.py"

SETTLED = "() => document.body.dataset.stabilized === 'true'"
# Labels of the nodes vis-network draws (not hidden), by id.
VISIBLE_LABELS = """() => Object.fromEntries(kg.network.body.nodeIndices.map(
  id => [id, kg.network.body.nodes[id].options.label || ""]))"""
NODE_POINT = """(id) => {
  const pos = kg.network.canvasToDOM(kg.network.getPositions([id])[id]);
  const box = document.getElementById("kg-network").getBoundingClientRect();
  return [pos.x + box.left, pos.y + box.top];
}"""


def _clean(session: PageSession) -> None:
    assert session.console_errors == []
    assert session.page_errors == []
    assert session.foreign_requests() == []
    assert session.dialogs == []


def _open_map(open_page: Callable[..., PageSession], path: Path, g: nx.MultiDiGraph,
              timeout_ms: float = 60_000) -> PageSession:
    path.write_text(render_html(g, "map").html, encoding="utf-8")
    return open_page(path, wait_for=SETTLED, timeout_ms=timeout_ms)


def _regions_graph() -> nx.MultiDiGraph:
    """tiny_graph with two regions: p1, p2 in topic 0; p3, p4 in topic 1; p4's title "$T$", derived."""
    g = tiny_graph()
    for p, topic in (("p1", 0), ("p2", 0), ("p3", 1), ("p4", 1)):
        g.nodes[f"paper:{p}"]["topic"] = topic
    g.nodes["paper:p4"].update(title="$T$", label="$T$", title_derived=True,
                               abstract="We study the sample complexity of $\\epsilon$-greedy exploration.")
    g.add_edge("paper:p3", "paper:p4", key="sharesTechniqueWith", predicate="sharesTechniqueWith", weight=0.4,
               shared=["adam"])
    g.add_node("Method:optimizers", kind="Method", label="optimizers", papers=0, family=True)
    g.add_edge("Method:adam", "Method:optimizers", key="broader", predicate="broader", sources=["taxonomy"])
    return g


def test_map_view_colours_papers_by_region_with_readable_labels(
        open_page: Callable[..., PageSession], tmp_path: Path) -> None:
    session = _open_map(open_page, tmp_path / "map.html", _regions_graph())
    page = session.page
    _clean(session)
    labels = page.evaluate(VISIBLE_LABELS)
    assert sorted(labels) == ["paper:p1", "paper:p2", "paper:p3", "paper:p4"]
    assert [label for label in labels.values() if "$" in label or "\\" in label] == []
    assert labels["paper:p4"] == "Sample complexity of ϵ-greedy exploration"
    colours = page.evaluate("() => Object.fromEntries(kg.nodes.get().map(n => [n.id, n.color.background]))")
    assert colours["paper:p1"] == colours["paper:p2"] != colours["paper:p3"] == colours["paper:p4"]
    # Physics is off: positions are the page's own, the same on every load.
    assert page.evaluate("kg.network.physics.options.enabled") is False


def test_map_view_region_legend_hides_and_shows_a_region(
        open_page: Callable[..., PageSession], tmp_path: Path) -> None:
    session = _open_map(open_page, tmp_path / "map.html", _regions_graph())
    page = session.page
    page.uncheck('input[data-region="1"]')
    assert sorted(page.evaluate(VISIBLE_LABELS)) == ["paper:p1", "paper:p2"]
    page.check('input[data-region="1"]')
    assert sorted(page.evaluate(VISIBLE_LABELS)) == ["paper:p1", "paper:p2", "paper:p3", "paper:p4"]
    _clean(session)


def test_map_view_paper_panel_shows_methods_tasks_datasets_bounds_and_related(
        open_page: Callable[..., PageSession], tmp_path: Path) -> None:
    session = _open_map(open_page, tmp_path / "map.html", _regions_graph())
    page = session.page
    x, y = page.evaluate(NODE_POINT, "paper:p1")
    page.mouse.click(x, y)
    text = page.inner_text("#kg-panel")
    for part in ("Attention Is All You Need", "METHODS PROPOSED\nTransformer", "TASKS\nmachine translation",
                 "DATASETS\nWMT 2014", "METRICS\nBLEU", "RELATED PAPERS (KG RELATED)",
                 "both use self-attention", "LINKED PAPERS",
                 "BERT: Pre-training of Deep Bidirectional Transformers"):
        assert part in text, part
    page.evaluate("kg.panels.paper(2)")  # paper:p3, Adam: its bound as Unicode text
    text = page.inner_text("#kg-panel")
    assert "O(√T) — upper regret bound" in text
    assert "METHODS PROPOSED\nAdam" in text
    # A concept: its broader family and its papers.
    page.click('#kg-panel [data-entity="Method:adam"]')
    assert page.get_attribute("#kg-panel", "data-kind") == "concept"
    text = page.inner_text("#kg-panel")
    assert "BROADER\noptimizers" in text
    assert "Adam: A Method for Stochastic Optimization" in text and "BERT" in text
    _clean(session)


def test_map_view_link_panel_shows_shared_concepts_and_their_level(
        open_page: Callable[..., PageSession], tmp_path: Path) -> None:
    g = _regions_graph()
    g.add_edge("paper:p1", "paper:p3", key="sharesConceptWith", predicate="sharesConceptWith", weight=0.2,
               shared=["optimizers"], label="optimizers", via=[{"concept": "Method:optimizers", "level": 1}])
    session = _open_map(open_page, tmp_path / "map.html", g)
    page = session.page
    index = page.evaluate("kg.data.links.findIndex(l => l.l === 'optimizers')")
    page.evaluate(f"kg.panels.link({index})")
    text = page.inner_text("#kg-panel")
    assert "optimizers (common parent)" in text
    assert "shares concept with" in text
    _clean(session)


def test_map_view_search_highlights_matches_and_their_neighbours(
        open_page: Callable[..., PageSession], tmp_path: Path) -> None:
    session = _open_map(open_page, tmp_path / "map.html", _regions_graph())
    page = session.page
    page.fill("#kg-search", "wmt")  # a dataset of p1
    assert page.inner_text("#kg-search-count") == "1 match in 1 region"
    assert page.evaluate("kg.network.getSelectedNodes()") == ["paper:p1"]
    dim = page.evaluate("() => Object.fromEntries(kg.nodes.get().map(n => [n.id, n.color.background]))")
    assert dim["paper:p3"] == dim["paper:p4"] == "#e4e4e4"  # neither a match nor linked to one
    assert dim["paper:p2"] != "#e4e4e4"  # p2 shares a link with p1
    page.fill("#kg-search", "")
    _clean(session)


def test_map_view_filters_by_bounds_year_and_venue(
        open_page: Callable[..., PageSession], tmp_path: Path) -> None:
    session = _open_map(open_page, tmp_path / "map.html", _regions_graph())
    page = session.page
    page.check("#kg-has-bounds")  # only p3 claims a bound
    assert sorted(page.evaluate(VISIBLE_LABELS)) == ["paper:p3"]
    assert page.inner_text("#kg-filter-count") == "1 of 4 papers pass the filters"
    page.uncheck("#kg-has-bounds")
    page.select_option("#kg-year-from", "2017")
    page.select_option("#kg-year-to", "2019")  # p1 2017, p2 2019; p3 2015 and p4 2020 out
    assert sorted(page.evaluate(VISIBLE_LABELS)) == ["paper:p1", "paper:p2"]
    page.select_option("#kg-year-from", "")
    page.select_option("#kg-year-to", "")
    page.select_option("#kg-venue", "ICLR")
    assert sorted(page.evaluate(VISIBLE_LABELS)) == ["paper:p3"]
    _clean(session)


@pytest.fixture(scope="module")
def corpus_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("corpus") / "corpus.html"
    started = time.perf_counter()
    page = render_html(corpus_shaped_graph(22_000), "map")
    path.write_text(page.html, encoding="utf-8")
    print(f"\n22k-shaped map page: {page.nodes} papers, {page.edges} links drawn at most, "
          f"{len(page.html) / 1e6:.1f} MB, exported in {time.perf_counter() - started:.1f} s")
    yield path


@pytest.mark.slow
def test_corpus_map_opens_on_regions_and_opens_a_region_on_click(
        open_page: Callable[..., PageSession], corpus_page: Path) -> None:
    started = time.perf_counter()
    session = open_page(corpus_page, wait_for=SETTLED, timeout_ms=120_000)
    page = session.page
    print(f"22k-shaped map page: loaded and drawn in {time.perf_counter() - started:.2f} s "
          f"(page script to first drawing: {page.evaluate('document.body.dataset.settleMs')} ms)")
    _clean(session)
    labels = page.evaluate(VISIBLE_LABELS)
    assert labels and all(node.startswith("region:") for node in labels)
    assert [label for label in labels.values() if "$" in label or "\\" in label] == []
    assert "22,000 papers in" in page.inner_text("#kg-note")
    assert "Click a region" in page.inner_text("#kg-note")
    # Every paper is in one region: the region sizes add up to the corpus.
    assert page.evaluate("kg.data.regions.reduce((s, r) => s + r.papers, 0)") == 22_000
    x, y = page.evaluate(NODE_POINT, "region:0")
    page.mouse.click(x, y)
    papers = page.evaluate("kg.data.regions[0].papers")
    labels = page.evaluate(VISIBLE_LABELS)
    assert sum(1 for node in labels if node.startswith("paper:")) == papers
    assert "region:0" not in labels
    assert [label for label in labels.values() if "$" in label or "\\" in label] == []
    assert page.get_attribute("#kg-panel", "data-kind") == "region"
    page.fill("#kg-search", "sysnet12345")
    assert page.inner_text("#kg-search-count") == "1 match in 1 region"
    _clean(session)


def test_screenshot_tool_pictures_the_map_with_a_panel_open(browser: object, tmp_path: Path) -> None:
    # The script behind `make screenshot` and the docs pictures, run as `make` runs it.
    page = tmp_path / "map.html"
    page.write_text(render_html(_regions_graph(), "map").html, encoding="utf-8")
    shot = tmp_path / "map.png"
    run = subprocess.run([sys.executable, str(TOOL), str(page), str(shot), "--paper", "adam"],
                         capture_output=True, text=True, timeout=300, check=False)
    print("\n" + run.stderr.strip())
    assert run.returncode == 0, run.stderr
    assert "loaded and settled in" in run.stderr
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (VIEWPORT["width"], VIEWPORT["height"])
    missing = subprocess.run([sys.executable, str(TOOL), str(page), str(shot), "--paper", "no such paper"],
                             capture_output=True, text=True, timeout=300, check=False)
    assert missing.returncode == 1 and "no paper title holds" in missing.stderr
