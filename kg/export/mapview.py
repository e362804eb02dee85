"""The ``map`` view of the HTML page: papers coloured by region, opened region by region on large graphs.

Every paper of the graph is in the page (nothing folded away). With at most ``max_nodes`` papers the
page opens on the papers themselves, each region coloured and named; with more, it opens on the map
of regions (one node per region, sized by its papers, linked by the concepts their papers share),
and a click on a region (or its name in the legend) opens its papers. A note on the page says what
is aggregated and how to open it.

What a selection explains is computed here, once:

* a paper: its methods (proposed / used), tasks, datasets, metrics, bounds (formula as Unicode
  text, quantity, kind); its most related papers by ``kg related`` with their explanations, on a
  page of at most ``max_nodes`` papers (:func:`related_papers`: the cheap signals, the sentence
  encoder off, so a 1,500-paper page exports in seconds); and its linked papers: its strongest
  share links, each with the concepts the two share and the level where they meet (the same
  concept, a common parent, …);
* a share link: its shared concepts, with their level (``via``, else the ``shared`` list);
* a concept (from a paper's panel): its broader and narrower concepts (``broader`` edges) and its
  papers;
* a region: its label, concepts, papers and links to other regions.

Each paper keeps its :data:`LINKS_PER_PAPER` strongest share links for drawing (the panel's related
list reads all of them); the note says how many links that leaves out.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

import networkx as nx

from kg.export.mathtext import latex_to_text
from kg.export.regions import OTHER, build_regions, edge_label, lay_out, region_links
from kg.export.titles import display_title
from kg.vocab import ENTITY_CLASSES, PAPER_PAPER_PROPERTIES

LINKS_PER_PAPER = 6
RELATED = 5
LIST_ITEMS = 8
SNIPPET_CHARS = 300
LABEL_CHARS = 42
BROADER = "broader"
# Paper → entity predicates, and the panel section each fills.
SECTIONS = {"proposes": "proposed", "uses": "used", "addresses": "tasks", "evaluatesOn": "datasets",
            "measures": "metrics", "mentions": "concepts"}
LEVEL_WORDS = {0: "same concept", 1: "common parent", 2: "common ancestor (2 levels up)"}


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _pred(key: Any, d: dict[str, Any]) -> str:
    return str(d.get("predicate", key))


def level_words(level: int) -> str:
    return LEVEL_WORDS.get(level, f"common ancestor ({level} levels up)")


class _Entities:
    """The entity table of the page: each entity the panels name, once, with its hierarchy."""

    def __init__(self, g: nx.MultiDiGraph) -> None:
        self.g = g
        self.index: dict[str, int] = {}
        self.rows: list[dict[str, Any]] = []

    def add(self, node: str, depth: int = 0) -> int:
        if node in self.index:
            return self.index[node]
        d = self.g.nodes[node]
        i = len(self.rows)
        self.index[node] = i
        label = latex_to_text(str(d.get("label") or d.get("canonical") or node))
        row: dict[str, Any] = {"id": node, "label": label,
                               "kind": str(d.get("kind") or ""), "papers": int(d.get("papers") or 0)}
        self.rows.append(row)
        if depth < 3:  # the chain of parents, a few levels up
            parents = sorted(str(v) for _, v, k, e in self.g.out_edges(node, keys=True, data=True)
                             if _pred(k, e) == BROADER)
            row["broader"] = [self.add(p, depth + 1) for p in parents[:LIST_ITEMS]]
        if depth == 0:
            children = sorted(str(u) for u, _, k, e in self.g.in_edges(node, keys=True, data=True)
                              if _pred(k, e) == BROADER)
            row["narrower"] = [self.add(c, 3) for c in children[:LIST_ITEMS]]
            row["narrower_total"] = len(children)
        return i


def _via(d: dict[str, Any]) -> list[list[Any]]:
    """``[[concept label, level], …]`` of a share link: its ``via`` (contract), else ``shared`` at level 0."""
    out: list[list[Any]] = []
    via = d.get("via")
    if isinstance(via, list) and via:
        for item in via:
            if isinstance(item, dict) and item.get("concept") is not None:
                out.append([str(item["concept"]), int(item.get("level") or 0)])
        return out
    shared = d.get("shared") or []
    return [[str(s), 0] for s in (shared if isinstance(shared, list | tuple) else [shared])]


def _concept_name(g: nx.MultiDiGraph, ref: str) -> str:
    if ref in g:
        d = g.nodes[ref]
        return latex_to_text(str(d.get("label") or d.get("canonical") or ref))
    return latex_to_text(ref)


def _paper_panel(g: nx.MultiDiGraph, node: str, ents: _Entities, snippet: int) -> dict[str, Any]:
    """The panel of a paper (the page searches its title and the names listed in it)."""
    d = g.nodes[node]
    lists: dict[str, list[tuple[int, str]]] = defaultdict(list)
    bounds = []
    for _, v, k, e in g.out_edges(node, keys=True, data=True):
        pred = _pred(k, e)
        vd = g.nodes[v]
        if pred == "claimsBound" or vd.get("kind") == "Bound":
            formula = latex_to_text(str(vd.get("latex") or vd.get("label") or vd.get("expr") or ""))
            quantity = latex_to_text(str(vd.get("quantity") or ""))
            bounds.append([formula, quantity, str(vd.get("bound_kind") or ""),
                           int(vd.get("start") or 0)])
            continue
        section = SECTIONS.get(pred)
        if section is None or vd.get("kind") not in ENTITY_CLASSES:
            continue
        if section in ("proposed", "used") and vd.get("kind") != "Method":
            section = {"Task": "tasks", "Dataset": "datasets", "Metric": "metrics"}.get(str(vd.get("kind")),
                                                                                      "concepts")
        lists[section].append((int(e.get("start") or 0), str(v)))
    panel: dict[str, Any] = {}
    for section, items in lists.items():
        seen: list[str] = []
        for _, v in sorted(items):
            if v not in seen:
                seen.append(v)
        panel[section] = [ents.add(v) for v in seen[:LIST_ITEMS]]
        if len(seen) > LIST_ITEMS:
            panel[section + "_more"] = len(seen) - LIST_ITEMS
    if bounds:
        panel["bounds"] = [b[:3] for b in sorted(bounds, key=lambda b: (b[3], b[0]))]
    authors = [latex_to_text(str(a)) for a in d.get("authors") or []]
    if authors:
        panel["authors"] = ", ".join(authors[:3]) + (" et al." if len(authors) > 3 else "")
    if d.get("abstract"):
        panel["abstract"] = _clip(latex_to_text(str(d["abstract"])), snippet)
    panel["pid"] = str(d.get("id") or node)
    if d.get("title_derived"):
        panel["derived"] = True
    return panel


def _links(g: nx.MultiDiGraph, papers: list[str]) -> dict[tuple[str, str], list[tuple[str, dict[str, Any]]]]:
    """Share links between two papers, grouped by the (sorted) pair."""
    pairs: dict[tuple[str, str], list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    known = set(papers)
    for u, v, k, d in g.edges(keys=True, data=True):
        pred = _pred(k, d)
        if pred in PAPER_PAPER_PROPERTIES and u in known and v in known and u != v:
            pairs[(min(str(u), str(v)), max(str(u), str(v)))].append((pred, d))
    return pairs


def related_papers(g: nx.MultiDiGraph, top: int = RELATED) -> dict[str, list[tuple[str, str]]]:
    """``kg related`` for every paper of ``g``: paper node → ``[(related node, explanation), …]``.

    Its cheap signals only (``encoder`` weight 0: the sentence encoder is what makes an index slow);
    explanations as ``kg related`` prints them, math as Unicode.
    """
    from dataclasses import replace

    from kg.related.rank import build_index
    from kg.related.weights import RelatedWeights

    node_of = {str(d.get("id") or n): str(n) for n, d in g.nodes(data=True) if d.get("kind") == "Paper"}
    index = build_index(g, replace(RelatedWeights(), encoder=0.0))
    out: dict[str, list[tuple[str, str]]] = {}
    for pid, results in index.related_all(top=top):
        out[node_of.get(pid, pid)] = [(node_of.get(r.id, r.id), _clip(latex_to_text(r.explanation), 240))
                                      for r in results]
    return out


def map_data(g: nx.MultiDiGraph, max_nodes: int, links_per_paper: int = LINKS_PER_PAPER) -> dict[str, Any]:
    """The JSON-ready data of the ``map`` view (see the module docstring)."""
    papers = sorted(str(n) for n, d in g.nodes(data=True) if d.get("kind") == "Paper")
    regions = build_regions(g, papers)
    of_paper = {p: r.id for r in regions for p in r.papers}
    rlinks = region_links(g, of_paper)
    lay_out(g, regions, rlinks)
    pos = {p: xy for r in regions for p, xy in r.positions.items()}
    at = {p: i for i, p in enumerate(papers)}
    pairs = _links(g, papers)
    ents = _Entities(g)
    similar = related_papers(g) if 2 <= len(papers) <= max_nodes else {}

    # Share links: weight of a pair = sum over its predicates; each paper keeps its strongest few.
    strength = {pair: sum(float(d.get("weight") or 0.0) for _, d in items) for pair, items in pairs.items()}
    around: dict[str, list[tuple[float, tuple[str, str]]]] = defaultdict(list)
    for pair, w in strength.items():
        for p in pair:
            around[p].append((-w, pair))
    for p in around:
        around[p].sort()
    drawn = sorted({pair for p in around for _, pair in around[p][:links_per_paper]})
    top = max(strength.values(), default=1.0) or 1.0

    def concepts_of(items: list[tuple[str, dict[str, Any]]]) -> list[list[Any]]:
        """``[[entity index (or name, for a concept not in the graph), level], …]``, lowest level first."""
        seen: dict[Any, tuple[int, str]] = {}
        for _, d in items:
            for ref, level in _via(d):
                key: Any = ents.add(ref) if ref in g else _concept_name(g, ref)
                name = ents.rows[key]["label"] if isinstance(key, int) else key
                if key not in seen or level < seen[key][0]:
                    seen[key] = (level, name)
        return [[key, level] for key, (level, _) in sorted(seen.items(), key=lambda x: (x[1], str(x[0])))]

    links = []
    for a, b in drawn:
        items = pairs[(a, b)]
        items.sort(key=lambda x: x[0])
        label = next((edge_label(d) for _, d in items if edge_label(d)), "")
        links.append({"a": at[a], "b": at[b], "p": [pred for pred, _ in items], "l": label,
                      "w": round(strength[(a, b)], 3), "width": round(1 + 3 * strength[(a, b)] / top, 1),
                      "c": concepts_of(items)[:LIST_ITEMS]})
    degree = {p: len(around.get(p, [])) for p in papers}
    top_degree = max(degree.values(), default=0) or 1
    rows = []
    with_bounds = 0
    for p in papers:
        d = g.nodes[p]
        panel = _paper_panel(g, p, ents, SNIPPET_CHARS if len(papers) <= max_nodes else SNIPPET_CHARS // 2)
        related = []
        for _, pair in around.get(p, [])[:RELATED]:
            other = pair[1] if pair[0] == p else pair[0]
            related.append([at[other], concepts_of(pairs[pair])[:4]])
        if related:
            panel["related"] = related
            panel["links"] = len(around[p])
        if similar.get(p):
            panel["similar"] = [[at[q], why] for q, why in similar[p] if q in at]
        title = display_title(g, p)
        with_bounds += bool(panel.get("bounds"))
        year = d.get("year")
        x, y = pos[p]
        rows.append({"id": p, "title": title, "region": of_paper[p],
                     "x": x, "y": y, "size": round(7 + 13 * math.sqrt(degree[p] / top_degree), 1),
                     "year": int(year) if isinstance(year, int) and not isinstance(year, bool) else None,
                     "venue": latex_to_text(str(d.get("venue") or "")), "bounds": bool(panel.get("bounds")),
                     "panel": panel})
    region_rows = [{"id": r.id, "label": r.label, "concepts": [_concept_name(g, c) for c in r.concepts],
                    "papers": len(r.papers), "color": r.color, "x": r.x, "y": r.y,
                    "radius": round(r.radius, 1),
                    "size": round(max(14.0, 0.45 * r.radius), 1), "pooled": r.pooled,
                    "other": r.id == OTHER} for r in regions]
    level = "regions" if len(papers) > max_nodes else "papers"
    total_links = len(pairs)
    return {
        "view": "map",
        "level": level,
        "regions": region_rows,
        "region_links": rlinks,
        "papers": rows,
        "links": links,
        "entities": ents.rows,
        "years": sorted({r["year"] for r in rows if r["year"] is not None}),
        "venues": sorted({r["venue"] for r in rows if r["venue"]}),
        "with_bounds": with_bounds,
        "total_links": total_links,
        "note": _note(len(papers), len(regions), level, total_links, len(links), links_per_paper, max_nodes),
        "max_nodes": max_nodes,
    }


def _note(papers: int, regions: int, level: str, total: int, drawn: int, per_paper: int,
          max_nodes: int) -> list[list[str]]:
    """What the page aggregates and how to open it, as ``[kind, text]`` parts (numbers only)."""
    parts: list[list[str]] = []
    if level == "regions":
        parts.append(["text", f"{papers:,} papers in {regions} regions: each region is drawn as one node, "
                              "sized by "
                              "its papers. Click a region, or its name on the left, to open its papers; "
                              "“Close all” folds them back. "])
        parts += [["text", "(The map opens on the papers themselves up to "],
                  ["option", f"--max-nodes {max_nodes}"],
                  ["text", " papers.) "]]
    if drawn < total:
        parts.append(["text", f"{drawn:,} of {total:,} share links drawn: each paper's {per_paper} "
                              "strongest; "
                              "a paper's panel lists its related papers."])
    return parts
