"""The regions of the map view: which papers belong together, what each region is about, where it lies.

A region is a topic of the graph: the ``topic`` of its papers (communities of the share links,
:func:`kg.assemble._add_topics`), named by ``g.graph["regions"]`` when the build wrote it (label
and 2–3 most specific concepts, written by the concept layer). Without it the label is read from the
region's papers: the entities most of them hold, weighed by rarity (``idf`` of the node, else the
reference-corpus IDF of its words, see :func:`_idf`), never a generic one (``specific`` false, or
only generic words such as "model"); a one-paper region is named by its paper's title.

At most :data:`MAX_REGIONS` regions of two papers or more get their own colour and node; the
papers of the other (smaller) regions and the papers without a topic form one more region,
"other papers", which says how many regions it pools. Nothing is dropped: every paper is in
exactly one region.

Layout (deterministic, computed here, not in the browser): the regions are placed by a
Fruchterman–Reingold layout of the region graph (igraph, fixed start positions and random seed),
each region a disc whose area grows with its papers, pushed apart until no two discs overlap; the
papers of a region are laid out the same way on the share links inside it and scaled into its disc.
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from kg.export.mathtext import latex_to_text
from kg.export.titles import _words, display_title
from kg.vocab import ENTITY_CLASSES, PAPER_PAPER_PROPERTIES
from kg.words import lexical_tokens

MAX_REGIONS = 40
OTHER = -2  # the id of the pooled region
LABEL_CONCEPTS = 3
SEED = 7
# Disc radius of a region, in the page's units: area grows with the papers, ≈ 70 units between two
# papers (a label's width at the fitted zoom of a small graph; a large one is read zoomed in).
PAPER_SPACING = 40.0
# Up to this many papers a region is a sunflower (evenly spread); a force layout reads nothing more.
SUNFLOWER = 12
# Tableau 20, then golden-angle hues: neighbours in rank get distinct colours.
PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
           "#9c755f", "#86bcb6", "#499894", "#d37295", "#8cd17d", "#b6992d", "#a0cbe8", "#ffbe7d",
           "#f1ce63", "#d4a6c8", "#79706e", "#fabfd2"]
OTHER_COLOR = "#bab0ac"


@dataclass
class Region:
    """One region of the map: its papers (node ids, sorted) and what names it."""

    id: int
    label: str
    concepts: list[str]
    papers: list[str]
    color: str
    pooled: int = 1  # topics pooled into it (the "other papers" region pools many)
    x: float = 0.0
    y: float = 0.0
    radius: float = 0.0
    positions: dict[str, tuple[float, float]] = field(default_factory=dict)


def color_of(rank: int) -> str:
    if rank < len(PALETTE):
        return PALETTE[rank]
    hue = (rank * 137.508) % 360
    return f"hsl({hue:.0f}, 55%, 55%)"


@functools.cache
def _word_idf() -> tuple[dict[str, float], float]:
    """The IDF of each word over the 22,654-abstract reference corpus (the shipped semantic model's)."""
    from kg.semantic import load_model

    model = load_model()
    return dict(zip(model.terms, (float(x) for x in model.idf), strict=True)), float(model.idf.max())


def _idf(d: dict[str, Any], n_papers: int) -> float:
    """How specific an entity is: its ``idf`` when the build wrote one; else the mean reference-corpus
    IDF of the words of its name (a word too rare for the model's vocabulary counts as the rarest),
    times the IDF of the entity among this graph's papers."""
    idf = d.get("idf")
    if isinstance(idf, int | float) and not isinstance(idf, bool) and idf > 0:
        return float(idf)
    here = math.log((n_papers + 1) / (int(d.get("papers") or 1) + 1)) + 1.0
    words = lexical_tokens(str(d.get("label") or d.get("canonical") or ""))
    if not words:
        return here
    table, rarest = _word_idf()
    return here * sum(table.get(w, rarest) for w in words) / len(words)


def _generic(d: dict[str, Any]) -> bool:
    if d.get("specific") is False:
        return True
    label = str(d.get("label") or "").lower()
    words = label.split()
    w = _words()
    return not words or all(t in w["generic"] or t in w["generic_modifiers"] for t in words)


def _entity_label(g: nx.MultiDiGraph, node: str) -> str:
    d = g.nodes.get(node, {})
    return latex_to_text(str(d.get("label") or d.get("canonical") or node))


def _read_label(g: nx.MultiDiGraph, papers: list[str], n_papers: int) -> tuple[str, list[str]]:
    """Label and concepts of a region, from the entities its papers hold (the fallback)."""
    if len(papers) == 1:
        return display_title(g, papers[0]), []
    count: Counter[str] = Counter()
    for p in papers:
        held = {v for v in g.successors(p) if g.nodes[v].get("kind") in ENTITY_CLASSES}
        count.update(held)
    # Ties: a Method names a region better than a Task, a Dataset or a loose Concept.
    rank = {kind: i for i, kind in enumerate(("Method", "Task", "Dataset", "Metric", "Concept"))}
    scored = sorted(((c * _idf(g.nodes[e], n_papers), rank.get(str(g.nodes[e].get("kind")), 9), e)
                     for e, c in count.items() if c >= 2 and not _generic(g.nodes[e])),
                    key=lambda x: (-x[0], x[1], x[2]))
    concepts = [e for _, _, e in scored[:LABEL_CONCEPTS]]
    labels: list[str] = []
    for e in concepts:  # "bandit" and "linear bandit" both: keep the longer, more specific one
        label = _entity_label(g, e)
        if not any(label.lower() in other.lower() or other.lower() in label.lower() for other in labels):
            labels.append(label)
    if not labels:
        return f"{len(papers)} papers", []
    return " · ".join(labels), concepts


def build_regions(g: nx.MultiDiGraph, papers: list[str], max_regions: int = MAX_REGIONS) -> list[Region]:
    """The regions of ``papers`` (node ids of ``g``), largest first, the pooled region last."""
    n_papers = len(papers)
    by_topic: dict[int, list[str]] = defaultdict(list)
    for p in papers:
        topic = g.nodes[p].get("topic")
        by_topic[int(topic) if isinstance(topic, int) and not isinstance(topic, bool) else -1].append(p)
    named = {int(r["id"]): r for r in g.graph.get("regions") or [] if isinstance(r, dict) and "id" in r}
    ranked = sorted((t for t in by_topic if t >= 0 and len(by_topic[t]) >= 2),
                    key=lambda t: (-len(by_topic[t]), t))
    kept, pooled = ranked[:max_regions], [t for t in by_topic if t not in ranked[:max_regions]]
    regions = []
    for rank, topic in enumerate(kept):
        members = sorted(by_topic[topic])
        info = named.get(topic)
        if info and info.get("label"):
            label = latex_to_text(str(info["label"]))
            concepts = [str(c) for c in info.get("concepts") or []]
        else:
            label, concepts = _read_label(g, members, n_papers)
        regions.append(Region(topic, label, concepts, members, color_of(rank)))
    if pooled:
        members = sorted(p for t in pooled for p in by_topic[t])
        topics = sum(1 for t in pooled if t >= 0)
        unlinked = len(by_topic.get(-1, []))
        parts = []
        if topics:
            parts.append(f"{topics} small region{'s' if topics != 1 else ''}")
        if unlinked:
            parts.append(f"{unlinked} without a topic")
        regions.append(Region(OTHER, "other papers (" + ", ".join(parts) + ")", [], members, OTHER_COLOR,
                              pooled=len(pooled)))
    return regions


def region_links(g: nx.MultiDiGraph, of_paper: dict[str, int], per_region: int = 4) -> list[dict[str, Any]]:
    """Links between regions: the share links between their papers, counted, with their top concepts.

    Each region keeps its ``per_region`` strongest links (summed weight), so the map is a map.
    """
    agg: dict[tuple[int, int], dict[str, Any]] = {}
    for u, v, k, d in g.edges(keys=True, data=True):
        if str(d.get("predicate", k)) not in PAPER_PAPER_PROPERTIES:
            continue
        ru, rv = of_paper.get(str(u)), of_paper.get(str(v))
        if ru is None or rv is None or ru == rv:
            continue
        key = (min(ru, rv), max(ru, rv))
        entry = agg.setdefault(key, {"count": 0, "weight": 0.0, "concepts": Counter()})
        entry["count"] += 1
        entry["weight"] += float(d.get("weight") or 0.0)
        label = edge_label(d)
        if label:
            entry["concepts"][label] += 1
    best: dict[int, list[tuple[float, tuple[int, int]]]] = defaultdict(list)
    for key, entry in agg.items():
        for r in key:
            best[r].append((-entry["weight"], key))
    keep: set[tuple[int, int]] = set()
    for items in best.values():
        keep.update(key for _, key in sorted(items)[:per_region])
    out = []
    for a, b in sorted(keep):
        entry = agg[(a, b)]
        top = sorted(entry["concepts"].items(), key=lambda x: (-x[1], x[0]))[:5]
        out.append({"from": a, "to": b, "count": entry["count"], "weight": round(entry["weight"], 3),
                    "label": top[0][0] if top else "", "concepts": [[c, n] for c, n in top]})
    return out


def edge_label(d: dict[str, Any]) -> str:
    """What a share link is labelled with: its ``label`` (the most specific shared concept), else the
    first of ``shared``; math as Unicode."""
    label = d.get("label")
    if not label:
        shared = d.get("shared") or []
        label = shared[0] if isinstance(shared, list | tuple) and shared else shared
    return latex_to_text(str(label)) if label else ""


def _spiral(n: int) -> list[tuple[float, float]]:
    """``n`` points evenly spread over the unit disc (sunflower): deterministic start positions."""
    golden = math.pi * (3 - math.sqrt(5))
    return [(math.sqrt((i + 0.5) / n) * math.cos(i * golden), math.sqrt((i + 0.5) / n) * math.sin(i * golden))
            for i in range(n)]


def _force_layout(n: int, edges: list[tuple[int, int]], weights: list[float]) -> list[tuple[float, float]]:
    """Positions of ``n`` nodes in the unit disc: igraph's Fruchterman–Reingold from the spiral, seeded."""
    start = _spiral(n)
    if n <= SUNFLOWER or not edges:
        return start
    import igraph

    graph = igraph.Graph(n=n, edges=edges)
    igraph.set_random_number_generator(random.Random(SEED))
    try:
        # Above 300 nodes the grid variant (repulsion from nearby nodes only) and fewer iterations:
        # ~0.5 s for 2,000 nodes instead of ~10 s; the start positions already spread them evenly.
        big = n > 300
        # Start at the layout's own scale (≈ √n across): from the unit disc every node would sit in
        # one cell of the grid and the grid variant would cost as much as the plain one.
        spread = math.sqrt(n)
        layout = graph.layout_fruchterman_reingold(seed=[[x * spread, y * spread] for x, y in start],
                                                   weights=weights,
                                                   niter=150 if big else 500, grid=big)
    finally:
        igraph.set_random_number_generator(random)
    coords = [(float(x), float(y)) for x, y in layout.coords]
    cx = sum(x for x, _ in coords) / n
    cy = sum(y for _, y in coords) / n
    # Scale by a high quantile of the distances, so one far-off node does not shrink the rest.
    dists = sorted(math.hypot(x - cx, y - cy) for x, y in coords)
    scale = dists[min(n - 1, int(0.95 * n))] or 1.0
    out = []
    for x, y in coords:
        dx, dy = (x - cx) / scale, (y - cy) / scale
        r = math.hypot(dx, dy)
        if r > 1:  # the far-off few: onto the rim
            dx, dy = dx / r, dy / r
        out.append((dx, dy))
    return out


def _separate(regions: list[Region], margin: float) -> None:
    """Push region discs apart until no two overlap (deterministic, pairwise in a fixed order)."""
    for _ in range(300):
        moved = False
        for i, a in enumerate(regions):
            for b in regions[i + 1:]:
                dx, dy = b.x - a.x, b.y - a.y
                dist = math.hypot(dx, dy)
                need = a.radius + b.radius + margin
                if dist >= need:
                    continue
                if dist < 1e-6:
                    dx, dy, dist = 1.0, 0.0, 1.0
                push = (need - dist) / 2
                ux, uy = dx / dist, dy / dist
                a.x, a.y = a.x - ux * push, a.y - uy * push
                b.x, b.y = b.x + ux * push, b.y + uy * push
                moved = True
        if not moved:
            return


def lay_out(g: nx.MultiDiGraph, regions: list[Region], links: list[dict[str, Any]]) -> None:
    """Set each region's centre and radius and each paper's position (rounded: same graph, same bytes)."""
    for region in regions:
        region.radius = PAPER_SPACING * math.sqrt(len(region.papers)) + 20.0
    index = {r.id: i for i, r in enumerate(regions)}
    pairs = [(index[link["from"]], index[link["to"]]) for link in links]
    centres = _force_layout(len(regions), pairs, [max(link["weight"], 1e-3) for link in links])
    spread = math.sqrt(sum(r.radius ** 2 for r in regions)) * 1.8
    for region, (x, y) in zip(regions, centres, strict=True):
        region.x, region.y = x * spread, y * spread
    _separate(regions, margin=30.0)
    for region in regions:
        members = region.papers
        at = {p: i for i, p in enumerate(members)}
        inner: dict[tuple[int, int], float] = defaultdict(float)
        for p in members:
            for _, q, k, d in g.out_edges(p, keys=True, data=True):
                if q in at and q != p and str(d.get("predicate", k)) in PAPER_PAPER_PROPERTIES:
                    inner[(min(at[p], at[q]), max(at[p], at[q]))] += float(d.get("weight") or 0.1)
        keys = sorted(inner)
        coords = _force_layout(len(members), keys, [inner[k] for k in keys])
        rim = region.radius - 10.0 if len(members) > 1 else 0.0
        region.positions = {p: (round(region.x + x * rim, 1), round(region.y + y * rim, 1))
                            for p, (x, y) in zip(members, coords, strict=True)}
        region.x, region.y = round(region.x, 1), round(region.y, 1)
