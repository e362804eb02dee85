"""The HTML export in a real headless Chromium: offline load, counts, tooltips, filter, search, XSS, size."""

from __future__ import annotations

import random
import struct
from collections.abc import Callable
from pathlib import Path

import networkx as nx
import pytest

from kg.export.html import render_html
from tests.fixtures.browser import VIEWPORT, PageSession
from tests.fixtures.html_graphs import XSS_IMG, XSS_SCRIPT, tiny_graph, xss_graph

pytestmark = pytest.mark.integration

SETTLED = "() => document.body.dataset.stabilized === 'true'"
SHARE = {"sharesTechniqueWith", "sharesTaskWith", "sharesConceptWith"}

# The DOM point (page coordinates) where vis-network drew a node.
NODE_POINT = """(id) => {
  const pos = kg.network.canvasToDOM(kg.network.getPositions([id])[id]);
  const box = document.getElementById("kg-network").getBoundingClientRect();
  return [pos.x + box.left, pos.y + box.top];
}"""
VISIBLE_NODES = "() => kg.network.body.nodeIndices.slice().sort()"
# A DOM point (page coordinates) on the middle of a drawn edge and on no node. A curved edge leaves the
# straight line between its nodes, so across that line vis is asked which edge lies at each pixel, and
# the middle of the run of pixels on this edge is taken: its centre line, where vis shows the tooltip.
EDGE_POINT = """(id) => {
  const net = kg.network, edge = kg.edges.get(id);
  const pos = net.getPositions([edge.from, edge.to]);
  const a = net.canvasToDOM(pos[edge.from]), b = net.canvasToDOM(pos[edge.to]);
  const len = Math.hypot(b.x - a.x, b.y - a.y), nx = (a.y - b.y) / len, ny = (b.x - a.x) / len;
  const box = document.getElementById("kg-network").getBoundingClientRect();
  for (const t of [0.5, 0.4, 0.6, 0.3, 0.7]) {
    const hits = [];
    for (let off = -0.5 * len; off <= 0.5 * len; off += 1) {
      const p = { x: a.x + t * (b.x - a.x) + off * nx, y: a.y + t * (b.y - a.y) + off * ny };
      if (net.getEdgeAt(p) === id && net.getNodeAt(p) === undefined) hits.push(p);
    }
    if (hits.length) {
      const p = hits[Math.floor(hits.length / 2)];
      return [p.x + box.left, p.y + box.top];
    }
  }
  return null;
}"""



def _open(open_page: Callable[..., PageSession], tmp_path: Path, g: nx.MultiDiGraph, view: str = "full",
          max_nodes: int = 1500) -> PageSession:
    path = tmp_path / f"{view}.html"
    path.write_text(render_html(g, view, max_nodes).html, encoding="utf-8")
    return open_page(path, wait_for=SETTLED)


def _assert_clean(session: PageSession) -> None:
    assert session.console_errors == []
    assert session.page_errors == []
    assert session.foreign_requests() == []
    assert session.dialogs == []


def _hover(session: PageSession, node: str) -> str:
    """Hover ``node`` and return the text of the vis tooltip that appears."""
    x, y = session.page.evaluate(NODE_POINT, node)
    session.page.mouse.move(x, y)
    tooltip = session.page.wait_for_selector("div.vis-tooltip", state="visible", timeout=5000)
    return tooltip.inner_text()


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.parametrize("view", ["full", "papers", "entities"])
def test_export_html_loads_offline_without_errors_and_settles(
        open_page: Callable[..., PageSession], tmp_path: Path, view: str) -> None:
    session = _open(open_page, tmp_path, tiny_graph(), view)
    _assert_clean(session)
    assert session.requests == [session.url]
    assert session.page.evaluate("kg.network.physics.options.enabled") is False
    assert session.page.is_hidden("#kg-note")


def test_export_html_empty_graph_loads_and_settles(
        open_page: Callable[..., PageSession], tmp_path: Path) -> None:
    session = _open(open_page, tmp_path, nx.MultiDiGraph(), "full")
    _assert_clean(session)
    assert session.page.inner_text("#kg-status") == "0 nodes, 0 edges"


def test_export_html_network_holds_the_graph_nodes_and_edges(
        open_page: Callable[..., PageSession], tmp_path: Path) -> None:
    g = tiny_graph()
    session = _open(open_page, tmp_path, g, "full")
    page = session.page
    assert sorted(page.evaluate("Object.keys(kg.network.getPositions())")) == sorted(g.nodes)
    assert sorted(page.evaluate("Object.keys(kg.network.body.edges)")) == sorted(
        f"{u}|{v}|{k}" for u, v, k in g.edges(keys=True))
    assert page.evaluate(VISIBLE_NODES) == sorted(g.nodes)


def test_export_html_papers_view_holds_papers_and_their_share_links(
        open_page: Callable[..., PageSession], tmp_path: Path) -> None:
    g = tiny_graph()
    papers = sorted(n for n, d in g.nodes(data=True) if d["kind"] == "Paper")
    links = sorted(f"{u}|{v}|{k}" for u, v, k in g.edges(keys=True) if k in SHARE)
    session = _open(open_page, tmp_path, g, "papers")
    assert sorted(session.page.evaluate("Object.keys(kg.network.getPositions())")) == papers
    assert sorted(session.page.evaluate("Object.keys(kg.network.body.edges)")) == links
    assert session.page.evaluate("kg.edges.get('paper:p2|paper:p3|sharesTechniqueWith').label") == "adam"


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        ("paper:p1", ["Attention Is All You Need", "NeurIPS 2017", "We propose the Transformer"]),
        ("Method:transformer", ["Transformer", "Method · 2 papers", "aliases: transformers"]),
    ],
)
def test_export_html_hovering_a_node_shows_its_tooltip(
        open_page: Callable[..., PageSession], tmp_path: Path, node: str, expected: list[str]) -> None:
    session = _open(open_page, tmp_path, tiny_graph(), "full")
    text = _hover(session, node)
    assert [part for part in expected if part not in text] == []
    _assert_clean(session)


@pytest.mark.parametrize(
    ("view", "edge", "expected"),
    [
        ("papers", "paper:p2|paper:p3|sharesTechniqueWith",
         "shares technique with\nshared: adam\nweight 0.5"),
        ("papers", "paper:p1|paper:p2|sharesConceptWith",
         "shares concept with\nshared: self attention\nweight 0.25"),
        ("full", "paper:p1|Metric:bleu|measures",
         "measures\nIt reaches 28.4 BLEU on WMT 2014.\n"
         "“BLEU” · entities.rules.v1 · confidence 0.90 · 1 mention"),
    ],
)
def test_export_html_hovering_an_edge_shows_what_it_shares_or_its_evidence(
        open_page: Callable[..., PageSession], tmp_path: Path, view: str, edge: str, expected: str) -> None:
    session = _open(open_page, tmp_path, tiny_graph(), view)
    point = session.page.evaluate(EDGE_POINT, edge)
    assert point is not None
    session.page.mouse.move(*point)
    tooltip = session.page.wait_for_selector("div.vis-tooltip", state="visible", timeout=5000)
    assert tooltip.inner_text() == expected


def test_export_html_selecting_a_node_pins_its_details(
        open_page: Callable[..., PageSession], tmp_path: Path) -> None:
    session = _open(open_page, tmp_path, tiny_graph(), "full")
    page = session.page
    assert page.is_hidden("#kg-details")
    x, y = page.evaluate(NODE_POINT, "paper:p3")
    page.mouse.click(x, y)
    assert page.evaluate("kg.network.getSelectedNodes()") == ["paper:p3"]
    assert page.is_visible("#kg-details")
    assert page.inner_text("#kg-details-body .kg-tip-title") == "Adam: A Method for Stochastic Optimization"
    assert page.inner_text("#kg-details-body .kg-tip-meta") == "ICLR 2015 · Diederik Kingma, Jimmy Ba"


def test_export_html_type_filter_hides_and_shows_nodes(
        open_page: Callable[..., PageSession], tmp_path: Path) -> None:
    g = tiny_graph()
    session = _open(open_page, tmp_path, g, "full")
    page = session.page
    page.uncheck('input[data-kind="Method"]')
    assert page.evaluate(VISIBLE_NODES) == sorted(n for n, d in g.nodes(data=True) if d["kind"] != "Method")
    # A hidden node cannot be hit either: the click lands on empty canvas.
    x, y = page.evaluate(NODE_POINT, "Method:adam")
    page.mouse.click(x, y)
    assert page.evaluate("kg.network.getSelectedNodes()") == []
    page.check('input[data-kind="Method"]')
    assert page.evaluate(VISIBLE_NODES) == sorted(g.nodes)
    _assert_clean(session)


def test_export_html_search_selects_matching_nodes(
        open_page: Callable[..., PageSession], tmp_path: Path) -> None:
    session = _open(open_page, tmp_path, tiny_graph(), "full")
    page = session.page
    page.fill("#kg-search", "Transformer")
    # The Method by name, and BERT by "Transformers" in its title.
    assert sorted(page.evaluate("kg.network.getSelectedNodes()")) == ["Method:transformer", "paper:p2"]
    assert page.inner_text("#kg-search-count") == "2 matches"
    page.fill("#kg-search", "wmt14")  # an alias
    assert page.evaluate("kg.network.getSelectedNodes()") == ["Dataset:wmt-2014"]
    assert page.inner_text("#kg-details-body .kg-tip-title") == "WMT 2014"


def test_export_html_folded_nodes_are_announced(
        open_page: Callable[..., PageSession], tmp_path: Path) -> None:
    session = _open(open_page, tmp_path, tiny_graph(), "full", max_nodes=3)
    page = session.page
    shown = sorted(page.evaluate("Object.keys(kg.network.getPositions())"))
    assert shown == ["Method:transformer", "paper:p1", "paper:p2"]
    assert page.is_visible("#kg-note")
    assert page.inner_text("#kg-note") == (
        "Showing the 3 most interlinked of 11 nodes (8 less connected folded away; --max-nodes 3) and 4 of "
        "13 edges (9 folded away with their nodes). Export with larger limits to show more.")
    assert page.inner_text("#kg-note code.kg-option") == "--max-nodes 3"


def test_export_html_payloads_render_as_text_and_never_run(
        open_page: Callable[..., PageSession], tmp_path: Path) -> None:
    session = _open(open_page, tmp_path, xss_graph(), "full")
    page = session.page
    assert XSS_SCRIPT in _hover(session, "paper:px")
    page.mouse.move(0, 0)
    x, y = page.evaluate(NODE_POINT, "Method:payload")
    page.mouse.click(x, y)
    details = page.inner_text("#kg-details-body")
    assert f"{XSS_SCRIPT} and {XSS_IMG}" in details
    page.fill("#kg-search", "<img")
    assert page.evaluate("kg.network.getSelectedNodes()") == ["Method:payload"]
    page.wait_for_timeout(300)
    assert page.evaluate("document.images.length") == 0
    assert page.evaluate("document.scripts.length") == 3
    assert page.evaluate("typeof window.alert") == "function"
    _assert_clean(session)


def test_export_html_screenshot(open_page: Callable[..., PageSession], tmp_path: Path) -> None:
    session = _open(open_page, tmp_path, tiny_graph(), "full")
    shot = tmp_path / "graph.png"
    session.page.screenshot(path=str(shot))
    assert _png_size(shot.read_bytes()) == (VIEWPORT["width"], VIEWPORT["height"])
    # The canvas is drawn: a blank canvas would be a single colour.
    colours = session.page.evaluate("""() => {
      const c = document.querySelector('#kg-network canvas');
      const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const seen = new Set();
      for (let i = 0; i < px.length; i += 4 * 97) seen.add(px[i] + ',' + px[i + 1] + ',' + px[i + 2]);
      return seen.size;
    }""")
    assert colours > 5


def test_export_html_seed_graph_loads_with_every_node_and_edge(
        open_page: Callable[..., PageSession], tmp_path: Path, seed_nx_graph: nx.MultiDiGraph) -> None:
    g = seed_nx_graph
    session = _open(open_page, tmp_path, g, "full", max_nodes=g.number_of_nodes())
    _assert_clean(session)
    assert sorted(session.page.evaluate("Object.keys(kg.network.getPositions())")) == sorted(g.nodes)
    assert session.page.evaluate("Object.keys(kg.network.body.edges).length") == g.number_of_edges()
    session.page.screenshot(path=str(tmp_path / "seed.png"))


def _synthetic_papers(n: int, seed: int = 0) -> nx.MultiDiGraph:
    """``n`` papers with ~3n share links to skewed endpoints (a few hubs, a long tail), like real corpora."""
    rng = random.Random(seed)
    g = nx.MultiDiGraph()
    for i in range(n):
        g.add_node(f"paper:{i:05d}", kind="Paper", label=f"Paper {i}", id=f"{i:05d}",
                   title=f"On method {i % 97} for task {i % 31}", venue="NeurIPS", year=2026,
                   abstract="We study a problem and propose a method. " * 25, authors=["A. Author"],
                   topic=i % 20)
    for _ in range(3 * n):
        a, b = sorted((rng.randrange(n), int(rng.random() ** 2 * n)))
        if a != b:
            g.add_edge(f"paper:{a:05d}", f"paper:{b:05d}", key="sharesTechniqueWith",
                       predicate="sharesTechniqueWith", weight=0.3, shared=["transformer", "adam"])
    return g


@pytest.mark.parametrize(
    ("papers", "layout_seconds", "end"),
    [(4, 4.0, "stable"), (2000, 0.05, "budget")],
)
def test_export_html_layout_settles_or_stops_at_its_time_budget(
        open_page: Callable[..., PageSession], tmp_path: Path, papers: int, layout_seconds: float,
        end: str) -> None:
    path = tmp_path / "page.html"
    g = tiny_graph() if papers == 4 else _synthetic_papers(papers)
    path.write_text(render_html(g, "papers", layout_seconds=layout_seconds).html, encoding="utf-8")
    session = open_page(path, wait_for=SETTLED)
    assert session.page.evaluate("document.body.dataset.layoutEnd") == end
    done = int(session.page.evaluate("document.body.dataset.layoutIterations"))
    # A cut layout still ran its minimum 20 iterations (batches of 10) and stopped well short of 200.
    assert 0 < done < 400 if end == "stable" else 20 <= done < 200
    assert session.page.evaluate("kg.network.physics.options.enabled") is False
    _assert_clean(session)


@pytest.mark.slow
def test_export_html_22k_paper_view_folds_to_the_cap_and_settles(
        open_page: Callable[..., PageSession], tmp_path: Path) -> None:
    # How fast it loads is measured by `make bench` (bench/run.py), not asserted here.
    path = tmp_path / "big.html"
    page_info = render_html(_synthetic_papers(22_000), "papers")
    path.write_text(page_info.html, encoding="utf-8")
    session = open_page(path, wait_for=SETTLED, timeout_ms=120_000)
    assert session.page.evaluate("kg.nodes.length") == page_info.nodes == 1500
    assert session.page.is_visible("#kg-note")
    _assert_clean(session)
