"""The interactive HTML page: one self-contained file that draws the graph with vis-network.

``kg export html -g DIR -o graph.html [--view papers|entities|full] [--max-nodes N] [--max-edges N]``.

The page works offline and makes no request at all: vis-network's JavaScript and CSS are inlined
from the copy the ``pyvis`` package ships (``pyvis/templates/lib/vis-9.1.2``), next to our own small
template, script and stylesheet in ``kg/export/templates/``. pyvis's own template is not used because
it loads vis-network and Bootstrap from CDNs and builds tooltips as HTML strings.

Security: graph text (titles, abstracts, entity names, evidence sentences) never becomes markup.
It travels as JSON inside ``<script type="application/json">`` with ``<``, ``>`` and ``&`` written as
``\\u003c``/``\\u003e``/``\\u0026`` (so neither ``</script>`` nor ``<!--`` can occur in it), and the
page script puts it on screen only through ``textContent``; no event handler is built from data.

Views:

* ``map`` (default) — every paper, coloured by its region (topic) and placed by a layout computed
  here; on a large graph the page opens on the map of regions and opens a region on a click
  (:mod:`kg.export.mapview`, :mod:`kg.export.regions`).
* ``full`` — every node and edge of the graph.
* ``papers`` — papers only; the edges are the paper–paper links (``sharesTechniqueWith``,
  ``sharesTaskWith``, ``sharesConceptWith``) labelled with the shared entities.
* ``entities`` — the Method/Task/Dataset/Metric/Concept nodes; two entities are linked when papers
  use them together, the edge labelled with how many papers do.

Large graphs: beyond ``max_nodes`` (default :data:`DEFAULT_MAX_NODES` = 1500) the least connected
nodes are folded away: the node with the fewest edges among the nodes still shown goes first (ties by
id), again and again, which keeps the most interlinked part of the graph rather than hubs that share
no edge. Beyond ``max_edges`` (default :data:`DEFAULT_MAX_EDGES` = 5000) the weakest edges are folded
(lowest ``weight``, e.g. papers using two entities together; every shown node keeps its strongest
edge). The page says what was folded in a visible note. In the browser the force layout runs a
bounded number of iterations within a time budget (:data:`LAYOUT_SECONDS`), then physics is switched
off, so the page settles and stays still.

Output is deterministic: the same graph gives the same bytes.
"""

from __future__ import annotations

import base64
import hashlib
import heapq
import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import networkx as nx

from kg.errors import ConfigError, ExportError
from kg.export.mathtext import latex_to_text
from kg.export.titles import display_title
from kg.fileio import atomic_write
from kg.vocab import ENTITY_CLASSES, PAPER_PAPER_PROPERTIES

VIEWS: tuple[str, ...] = ("map", "full", "papers", "entities")
DEFAULT_VIEW = "map"
# 1500 nodes lay out and draw in a few seconds in headless Chromium on a 2-core machine (the
# 22k-paper papers view is folded to this); more makes the force layout the bottleneck.
DEFAULT_MAX_NODES = 1500
# Drawing and laying out edges costs too: the entities view of a large corpus links 1500 entities
# by ~200k co-occurrences (a 50 MB page that takes 35 s to settle); 5000 keeps it a few seconds.
DEFAULT_MAX_EDGES = 5000
# The force layout's time budget in the browser (from the page script's start): with the page's
# parsing and first drawing this keeps a folded 22k-paper view within issue 8's 10 s on a busy machine.
LAYOUT_SECONDS = 4.0

# Colour and vis-network shape per ontology class: the legend is generated from this table.
# ``glyph`` is the legend's picture of the shape.
NODE_STYLES: dict[str, dict[str, str]] = {
    "Paper": {"color": "#4e79a7", "shape": "dot", "glyph": "●"},
    "Method": {"color": "#f28e2b", "shape": "diamond", "glyph": "◆"},
    "Task": {"color": "#59a14f", "shape": "triangle", "glyph": "▲"},
    "Dataset": {"color": "#b07aa1", "shape": "square", "glyph": "■"},
    "Metric": {"color": "#e15759", "shape": "star", "glyph": "★"},
    "Concept": {"color": "#76b7b2", "shape": "hexagon", "glyph": "⬢"},
    "Bound": {"color": "#9c755f", "shape": "triangleDown", "glyph": "▼"},
}
OTHER_STYLE: dict[str, str] = {"color": "#bab0ac", "shape": "dot", "glyph": "●"}
COOCCURS = "coOccursWith"  # the entities view's derived edge; not an ontology property
EDGE_COLORS: dict[str, str] = {
    "proposes": "#d37295",
    "uses": "#a0a0a0",
    "addresses": "#8cd17d",
    "evaluatesOn": "#b6992d",
    "measures": "#ff9d9a",
    "mentions": "#d4d4d4",
    "claimsBound": "#9c755f",
    "boundsQuantity": "#c7a98b",
    "boundsSubject": "#c7a98b",
    "broaderQuantity": "#c7a98b",
    "sharesTechniqueWith": "#f28e2b",
    "sharesTaskWith": "#59a14f",
    "sharesConceptWith": "#76b7b2",
    COOCCURS: "#9d9d9d",
}
DEFAULT_EDGE_COLOR = "#a0a0a0"

SNIPPET_CHARS = 300
LABEL_CHARS = 42
LIST_ITEMS = 6

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"
_VIS_DIR = ("pyvis", "templates/lib/vis-9.1.2")
_MARKER = re.compile(r"@@KG_([A-Z_]+)@@")
_RAW_TEXT_END = {"script": re.compile(r"</script|<!--", re.IGNORECASE),
                 "style": re.compile(r"</style", re.IGNORECASE)}


@dataclass(frozen=True, slots=True)
class HtmlPage:
    """What an HTML export put on the page.

    Attributes:
        html: the whole document.
        view: the view drawn.
        nodes: nodes drawn.
        edges: edges drawn.
        total_nodes: nodes the view had before folding.
        folded: nodes folded away by ``max_nodes``.
        total_edges: edges the view had before folding.
        folded_edges: edges folded away (with their nodes, or by ``max_edges``).
    """

    html: str
    view: str
    nodes: int
    edges: int
    total_nodes: int
    folded: int
    total_edges: int
    folded_edges: int


# --------------------------------------------------------------------------------------- views


def select_view(nx_graph: nx.MultiDiGraph, view: str) -> nx.MultiDiGraph:
    """The subgraph a view draws (``nx_graph`` itself for ``full``: treat the result as read-only).

    Args:
        nx_graph: a kg graph (contract: node ``kind``/``label``, edge key = ``predicate``).
        view: ``full``, ``papers`` or ``entities``.

    Returns:
        A MultiDiGraph whose edges carry their attributes; the ``entities`` view's edges are
        ``coOccursWith`` with ``papers`` (sorted paper ids) and ``weight`` (their count).

    Raises:
        ConfigError: ``view`` is not one of :data:`VIEWS`.

    >>> g = nx.MultiDiGraph()
    >>> g.add_node("paper:a", kind="Paper", label="A"); g.add_node("Method:x", kind="Method", label="x")
    >>> _ = g.add_edge("paper:a", "Method:x", key="uses", predicate="uses")
    >>> sorted(select_view(g, "papers").nodes)
    ['paper:a']
    """
    if view not in VIEWS:
        raise ConfigError(f"unknown HTML view {view!r}: expected one of {', '.join(VIEWS)}")
    if view == "map":
        view = "papers"  # the map view draws the papers and their share links
    if view == "full":
        return nx_graph  # no copy: a 22k-paper graph has ~250k edges and nothing here modifies it
    if view == "papers":
        sub = nx.MultiDiGraph()
        sub.add_nodes_from((n, d) for n, d in nx_graph.nodes(data=True) if d.get("kind") == "Paper")
        sub.add_edges_from(
            (u, v, k, d)
            for u, v, k, d in nx_graph.edges(keys=True, data=True)
            if _predicate(k, d) in PAPER_PAPER_PROPERTIES and u in sub and v in sub
        )
        return sub
    entity_kinds = set(ENTITY_CLASSES)
    sub = nx.MultiDiGraph()
    sub.add_nodes_from((n, d) for n, d in nx_graph.nodes(data=True) if d.get("kind") in entity_kinds)
    together: dict[tuple[str, str], set[str]] = defaultdict(set)
    for paper, d in nx_graph.nodes(data=True):
        if d.get("kind") != "Paper":
            continue
        used = sorted({v for v in nx_graph.successors(paper) if v in sub})
        for i, a in enumerate(used):
            for b in used[i + 1:]:
                together[(a, b)].add(str(paper))
    for (a, b), papers in together.items():
        sub.add_edge(a, b, key=COOCCURS, predicate=COOCCURS, papers=sorted(papers), weight=len(papers))
    return sub


def _require_at_least(option: str, value: int, minimum: int) -> None:
    if value < minimum:
        raise ConfigError(f"{option} must be at least {minimum}, got {value}")


def fold_least_connected(view_graph: nx.MultiDiGraph, max_nodes: int) -> nx.MultiDiGraph:
    """Keep ``max_nodes`` nodes of ``view_graph``, folding the least connected.

    Peels nodes one at a time: the node with the fewest edges to the nodes still kept goes first
    (multi-edges counted, ties by node id, so the choice is deterministic). Ranking by degree once
    would keep hubs (say, popular methods) that share no edge with each other; peeling keeps the
    most interlinked part. Edges between kept nodes are kept.

    Returns:
        A new graph, or ``view_graph`` itself when it has at most ``max_nodes`` nodes.

    Raises:
        ConfigError: ``max_nodes`` < 1.
    """
    _require_at_least("--max-nodes", max_nodes, 1)
    if view_graph.number_of_nodes() <= max_nodes:
        return view_graph
    links: dict[Any, Counter[Any]] = {n: Counter() for n in view_graph.nodes}
    for u, v in view_graph.edges():
        if u != v:
            links[u][v] += 1
            links[v][u] += 1
    degree = {n: sum(c.values()) for n, c in links.items()}
    heap = [(d, str(n), n) for n, d in degree.items()]
    heapq.heapify(heap)
    kept = set(view_graph.nodes)
    while len(kept) > max_nodes:
        d, _, node = heapq.heappop(heap)
        if node not in kept or d != degree[node]:
            continue  # a stale entry: the node's degree dropped after it was pushed
        kept.discard(node)
        for other, count in links[node].items():
            if other in kept:
                degree[other] -= count
                heapq.heappush(heap, (degree[other], str(other), other))
    # Built directly: subgraph(...).copy() filters through views and is ~3x slower on 200k edges.
    folded = nx.MultiDiGraph()
    folded.add_nodes_from((n, d) for n, d in view_graph.nodes(data=True) if n in kept)
    folded.add_edges_from((u, v, k, d) for u, v, k, d in view_graph.edges(keys=True, data=True)
                          if u in kept and v in kept)
    return folded


def _strength(data: dict[str, Any]) -> float:
    for field in ("weight", "mentions", "confidence"):
        value = data.get(field)
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            return float(value)
    return 1.0


def fold_weakest_edges(view_graph: nx.MultiDiGraph, max_edges: int) -> nx.MultiDiGraph:
    """Keep ``max_edges`` edges of ``view_graph``, folding the weakest (same nodes).

    Strength is the edge's ``weight`` (else ``mentions``, else ``confidence``, else 1); ties by
    (source, target, key). First every node keeps its strongest edge, so folding edges never strands
    a node that had one; the rest of the budget goes to the strongest remaining edges.

    Returns:
        A new graph, or ``view_graph`` itself when it has at most ``max_edges`` edges.

    Raises:
        ConfigError: ``max_edges`` < 0.
    """
    _require_at_least("--max-edges", max_edges, 0)
    if view_graph.number_of_edges() <= max_edges:
        return view_graph
    ordered = sorted(view_graph.edges(keys=True, data=True),
                     key=lambda e: (-_strength(e[3]), str(e[0]), str(e[1]), str(e[2])))
    keep: dict[tuple[Any, Any, Any], dict[str, Any]] = {}
    covered: set[Any] = set()
    for u, v, k, d in ordered:
        if len(keep) >= max_edges:
            break
        if u not in covered or v not in covered:
            keep[(u, v, k)] = d
            covered.update((u, v))
    for u, v, k, d in ordered:
        if len(keep) >= max_edges:
            break
        keep.setdefault((u, v, k), d)
    folded = nx.MultiDiGraph()
    folded.add_nodes_from(view_graph.nodes(data=True))
    folded.add_edges_from((u, v, k, d) for (u, v, k), d in keep.items())
    return folded


# ------------------------------------------------------------------------------- page content


def fold_note(view_graph: nx.MultiDiGraph, shown: nx.MultiDiGraph, max_nodes: int, max_edges: int,
              edges_capped: bool) -> list[list[str]]:
    """The page's note on what folding left out, as ``[kind, text]`` parts (kind ``text`` or ``option``).

    Empty when nothing was folded. Numbers only: no graph text goes into it. ``--max-edges`` is named
    only when the edge cap, not just the folded nodes, removed edges.
    """
    nodes, total_nodes = shown.number_of_nodes(), view_graph.number_of_nodes()
    edges, total_edges = shown.number_of_edges(), view_graph.number_of_edges()
    folded_nodes, folded_edges = total_nodes - nodes, total_edges - edges
    if not folded_nodes and not folded_edges:
        return []
    parts: list[list[str]] = [["text", "Showing "]]
    if folded_nodes:
        parts += [["text", f"the {nodes} most interlinked of {total_nodes} nodes ({folded_nodes} less "
                           "connected folded away; "],
                  ["option", f"--max-nodes {max_nodes}"], ["text", ")"]]
    if folded_edges:
        if folded_nodes:
            parts.append(["text", " and "])
        parts.append(["text", f"{edges} of {total_edges} edges ({folded_edges} folded away"])
        if edges_capped:
            parts += [["text", (" with their nodes or" if folded_nodes else "") + " as the weakest; "],
                      ["option", f"--max-edges {max_edges}"], ["text", ")"]]
        else:
            parts.append(["text", " with their nodes)"])
    parts.append(["text", ". Export with larger limits to show more."])
    return parts


def _predicate(key: Any, data: dict[str, Any]) -> str:
    return str(data.get("predicate", key))


def _text(value: Any) -> str:
    """Display form of an attribute: None → "", lists joined, everything else str()."""
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(_text(v) for v in value)
    return str(value)


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _listing(items: list[str], limit: int = LIST_ITEMS) -> str:
    shown = items[:limit]
    more = len(items) - len(shown)
    return "; ".join(shown) + (f"; and {more} more" if more > 0 else "")


def _words(prop: str) -> str:
    """``sharesTechniqueWith`` → ``shares technique with``."""
    return re.sub(r"(?<!^)(?=[A-Z])", " ", prop).lower()


def _paper_titles(nx_graph: nx.MultiDiGraph, ids: Iterable[str]) -> list[str]:
    return [display_title(nx_graph, pid) if pid in nx_graph else pid for pid in ids]


def _node_tip(nx_graph: nx.MultiDiGraph, node: str, d: dict[str, Any]) -> list[list[str]]:
    """Tooltip rows ``[css class, text]`` of a node; the page sets each with textContent."""
    kind = _text(d.get("kind")) or "node"
    rows: list[list[str]] = []
    if kind == "Paper":
        rows.append(["title", display_title(nx_graph, node)])
        meta = " ".join(p for p in (_text(d.get("venue")), _text(d.get("year"))) if p)
        authors = [_text(a) for a in d.get("authors") or []]
        if authors:
            shown = ", ".join(authors[:3]) + (" et al." if len(authors) > 3 else "")
            meta = f"{meta} · {shown}" if meta else shown
        if meta:
            rows.append(["meta", meta])
        if d.get("abstract"):
            rows.append(["body", _clip(_text(d["abstract"]), SNIPPET_CHARS)])
        rows.append(["meta", f"Paper · {_text(d.get('id')) or node}"])
    elif kind == "Bound":
        formula = _text(d.get("latex") or d.get("expr") or d.get("label") or node)
        rows.append(["title", latex_to_text(formula)])
        what = " ".join(p for p in (_text(d.get("bound_kind")), "bound") if p)
        rows.append(["meta", f"{what} · {_text(d.get('notation'))}".rstrip(" ·")])
        for field in ("quantity", "subject", "condition"):
            if d.get(field):
                rows.append(["body", f"{field}: {_text(d[field])}"])
        papers = sorted(str(u) for u in nx_graph.predecessors(node)
                        if nx_graph.nodes[u].get("kind") == "Paper")
        if papers:
            rows.append(["list", "paper: " + _listing(_paper_titles(nx_graph, papers))])
    else:
        rows.append(["title", latex_to_text(_text(d.get("label") or d.get("canonical") or node)) or node])
        papers = sorted(str(u) for u in nx_graph.predecessors(node)
                        if nx_graph.nodes[u].get("kind") == "Paper")
        count = d.get("papers", len(papers))
        rows.append(["meta", f"{kind} · {count} paper{'' if count == 1 else 's'}"])
        aliases = [_text(a) for a in d.get("aliases") or [] if _text(a) != _text(d.get("label"))]
        if aliases:
            rows.append(["body", "aliases: " + ", ".join(aliases)])
        if papers:
            rows.append(["list", "papers: " + _listing(_paper_titles(nx_graph, papers))])
    return rows


def _edge_tip(nx_graph: nx.MultiDiGraph, pred: str, d: dict[str, Any]) -> list[list[str]]:
    """Tooltip rows of an edge: shared entities, evidence sentence or co-occurring papers."""
    if pred == COOCCURS:
        papers = list(d.get("papers") or [])
        rows = [["title", f"used together in {len(papers)} paper{'' if len(papers) == 1 else 's'}"]]
        rows.append(["list", _listing(_paper_titles(nx_graph, papers))])
        return rows
    rows = [["title", _words(pred)]]
    if d.get("shared"):
        rows.append(["body", "shared: " + _text(d["shared"])])
    if d.get("sentence"):
        rows.append(["body", _text(d["sentence"])])
    meta = []
    if d.get("text"):
        meta.append(f"“{_text(d['text'])}”")
    if d.get("weight") is not None and pred in PAPER_PAPER_PROPERTIES:
        meta.append(f"weight {float(d['weight']):.3g}")
    if d.get("extractor"):
        meta.append(_text(d["extractor"]))
    if d.get("confidence") is not None:
        meta.append(f"confidence {float(d['confidence']):.2f}")
    if d.get("mentions"):
        count = int(d["mentions"])
        meta.append(f"{count} mention{'' if count == 1 else 's'}")
    if meta:
        rows.append(["meta", " · ".join(meta)])
    return rows


def _node_label(nx_graph: nx.MultiDiGraph, node: str, d: dict[str, Any]) -> str:
    if d.get("kind") == "Paper":
        return _clip(display_title(nx_graph, node), LABEL_CHARS)
    return _clip(latex_to_text(_text(d.get("label") or d.get("canonical") or node)), LABEL_CHARS)


def _search_text(node: str, d: dict[str, Any]) -> str:
    parts = [node, _text(d.get("label")), _text(d.get("title")), _text(d.get("canonical")),
             _text(d.get("aliases")), _text(d.get("latex")), latex_to_text(_text(d.get("label")))]
    return " ".join(p for p in parts if p).lower()


def page_data(nx_graph: nx.MultiDiGraph, view: str = DEFAULT_VIEW, max_nodes: int = DEFAULT_MAX_NODES,
              max_edges: int = DEFAULT_MAX_EDGES, layout_seconds: float = LAYOUT_SECONDS) -> dict[str, Any]:
    """Everything the page script needs, as one JSON-ready dict (nodes and edges sorted).

    Args:
        nx_graph: the whole kg graph (tooltips look up paper titles in it).
        view: see :func:`select_view`.
        max_nodes: node folding cap, see :func:`fold_least_connected`.
        max_edges: edge folding cap, see :func:`fold_weakest_edges`.
        layout_seconds: the page's time budget for the force layout, counted from when its script
            starts; the layout stops early when it is spent.

    Returns:
        ``{"view", "nodes", "edges", "legend", "predicates", "total_nodes", "folded", "total_edges",
        "folded_edges", "max_nodes", "max_edges", "options"}``;
        each node ``{"id", "label", "kind", "shape", "color", "size", "search", "tip"}``, each edge
        ``{"id", "from", "to", "predicate", "label", "color", "tip"}``.

    Raises:
        ConfigError: bad ``view``, ``max_nodes`` or ``max_edges``.
    """
    # Checked before the (possibly long) view is built; the fold functions check again.
    _require_at_least("--max-nodes", max_nodes, 1)
    _require_at_least("--max-edges", max_edges, 0)
    view_graph = select_view(nx_graph, view)
    kept_nodes = fold_least_connected(view_graph, max_nodes)
    shown = fold_weakest_edges(kept_nodes, max_edges)
    degree = dict(view_graph.degree())
    top_degree = max((degree[n] for n in shown.nodes), default=0) or 1
    nodes: list[dict[str, Any]] = []
    for node in sorted(shown.nodes, key=str):
        d = shown.nodes[node]
        kind = _text(d.get("kind")) or "other"
        style = NODE_STYLES.get(kind, OTHER_STYLE)
        nodes.append({
            "id": str(node),
            "label": _node_label(nx_graph, str(node), d),
            "kind": kind,
            "shape": style["shape"],
            "color": style["color"],
            # Size by degree in the view, relative to the best connected node shown (8 to 30 px),
            # sqrt so hubs stand out without covering a dense view where every degree is large.
            "size": round(8 + 22 * math.sqrt(degree.get(node, 0) / top_degree), 1),
            "search": _search_text(str(node), d),
            "tip": _node_tip(nx_graph, str(node), d),
        })
    edges: list[dict[str, Any]] = []
    edge_ids: Counter[str] = Counter()
    pairs: Counter[tuple[str, str]] = Counter()  # edges so far between the same two nodes
    # Links between papers (or entities) are drawn thicker the stronger they are, relative to the
    # strongest shown; evidence edges stay thin, there are many of them.
    weighted = {*PAPER_PAPER_PROPERTIES, COOCCURS}
    top = max((_strength(d) for _, _, k, d in shown.edges(keys=True, data=True)
               if _predicate(k, d) in weighted), default=1.0) or 1.0
    ordered = sorted(shown.edges(keys=True, data=True), key=lambda e: (str(e[0]), str(e[1]), str(e[2])))
    for u, v, k, d in ordered:
        pred = _predicate(k, d)
        if pred in PAPER_PAPER_PROPERTIES:
            label = _clip(latex_to_text(_text(d.get("label") or d.get("shared"))), 40)
        elif pred == COOCCURS:
            label = str(d.get("weight", ""))
        else:
            label = ""
        pair = (min(str(u), str(v)), max(str(u), str(v)))
        pairs[pair] += 1
        edge_id = f"{u}|{v}|{k}"
        edge_ids[edge_id] += 1
        if edge_ids[edge_id] > 1:  # ids with "|" in them could collide; vis rejects duplicate ids
            edge_id = f"{edge_id}#{edge_ids[edge_id]}"
        edges.append({
            "id": edge_id,
            "from": str(u),
            "to": str(v),
            "predicate": pred,
            "label": label,
            "color": EDGE_COLORS.get(pred, DEFAULT_EDGE_COLOR),
            "arrows": pred not in weighted,
            # 0 for the first edge between two nodes, 1, 2… for the next: drawn as wider arcs, so
            # a technique link and a concept link between the same papers do not cover each other.
            "parallel": pairs[pair] - 1,
            "width": round(1 + 3 * max(_strength(d), 0.0) / top, 1) if pred in weighted else 1,
            "tip": _edge_tip(nx_graph, pred, d),
        })
    kinds: Counter[str] = Counter(str(n["kind"]) for n in nodes)
    legend = [{"kind": kind, **NODE_STYLES.get(kind, OTHER_STYLE), "count": kinds[kind]}
              for kind in [*NODE_STYLES, *sorted(set(kinds) - set(NODE_STYLES))] if kinds[kind]]
    preds: Counter[str] = Counter(str(e["predicate"]) for e in edges)
    predicates = [{"predicate": p, "words": _words(p), "color": EDGE_COLORS.get(p, DEFAULT_EDGE_COLOR),
                   "count": preds[p]} for p in sorted(preds)]
    n = len(nodes)
    return {
        "view": view,
        "nodes": nodes,
        "edges": edges,
        "legend": legend,
        "predicates": predicates,
        "total_nodes": view_graph.number_of_nodes(),
        "folded": view_graph.number_of_nodes() - n,
        "total_edges": view_graph.number_of_edges(),
        "folded_edges": view_graph.number_of_edges() - len(edges),
        "note": fold_note(view_graph, shown, max_nodes, max_edges,
                          edges_capped=kept_nodes.number_of_edges() > max_edges),
        "max_nodes": max_nodes,
        "max_edges": max_edges,
        "options": {
            # Small graphs get a fully settled layout; big ones fewer iterations, and the page stops
            # the layout once its time budget is spent, so load time stays bounded on a slow machine
            # (issue 8: the 22k-paper papers view loads in <= 10 s).
            "iterations": 400 if n <= 200 else 200,
            "layout_ms": round(layout_seconds * 1000),
            "smooth": len(edges) <= 1500,
            "edge_labels": view != "full" and len(edges) <= 3000,
        },
    }


# --------------------------------------------------------------------------------- rendering


def _json_for_script(obj: Any) -> str:
    """JSON safe inside a ``<script>`` element: ASCII only, and no ``<``, ``>`` or ``&`` at all.

    ASCII (``\\uXXXX`` escapes) so that any string survives, even a lone surrogate that UTF-8 cannot
    encode; no NaN, which JSON.parse rejects.
    """
    text = json.dumps(obj, ensure_ascii=True, allow_nan=False, sort_keys=True, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _asset(package: str | None, name: str) -> str:
    """A bundled text asset: from ``package`` (e.g. pyvis) or, with None, from our templates/."""
    try:
        if package is None:
            return (TEMPLATES_DIR / name).read_text(encoding="utf-8")
        return resources.files(package).joinpath(name).read_text(encoding="utf-8")
    except (OSError, ModuleNotFoundError) as exc:
        raise ExportError(f"{package or TEMPLATES_DIR}/{name}: HTML export asset missing: {exc}") from None


def _csp_hash(code: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode() + "'"


def _inline(code: str, name: str, element: str) -> str:
    """``code`` checked safe to inline in a ``<script>``/``<style>`` element."""
    # An asset containing "</script" (or "<!--") would end or confuse the element it is inlined in.
    if _RAW_TEXT_END[element].search(code):
        raise ExportError(f"{name}: contains the end of a <{element}> element; cannot be inlined safely")
    return code


def render_html(nx_graph: nx.MultiDiGraph, view: str = DEFAULT_VIEW, max_nodes: int = DEFAULT_MAX_NODES,
                max_edges: int = DEFAULT_MAX_EDGES, layout_seconds: float = LAYOUT_SECONDS) -> HtmlPage:
    """Render the self-contained page for one view of ``nx_graph``.

    Args:
        nx_graph: the kg graph.
        view: ``full``, ``papers`` or ``entities``.
        max_nodes: nodes beyond this many (least connected first) are folded with a note.
        max_edges: edges beyond this many (weakest first) are folded with a note.
        layout_seconds: the page's time budget for its force layout.

    Returns:
        The :class:`HtmlPage` (the document and its counts).

    Raises:
        ConfigError: bad ``view``, ``max_nodes`` or ``max_edges``.
        ExportError: a bundled asset is missing.
    """
    if view == "map":
        _require_at_least("--max-nodes", max_nodes, 1)
        _require_at_least("--max-edges", max_edges, 0)
        from kg.export.mapview import map_data

        data = map_data(nx_graph, max_nodes)
        n_papers = len(data["papers"])
        data.update(total_nodes=n_papers, folded=0, total_edges=data["total_links"],
                    folded_edges=data["total_links"] - len(data["links"]), nodes=data["papers"],
                    edges=data["links"])
        scripts, styles, template_name = ("map_panels.js", "map.js"), ("graph.css", "map.css"), "map.html"
    else:
        data = page_data(nx_graph, view, max_nodes, max_edges, layout_seconds)
        scripts, styles, template_name = ("graph.js",), ("graph.css",), "graph.html"  # type: ignore[assignment]
    vis_pkg, vis_dir = _VIS_DIR
    parts = {
        "VIS_CSS": _inline(_asset(vis_pkg, f"{vis_dir}/vis-network.css"), "vis-network.css", "style"),
        "VIS_JS": _inline(_asset(vis_pkg, f"{vis_dir}/vis-network.min.js"), "vis-network.min.js", "script"),
        "PAGE_CSS": "\n".join(_inline(_asset(None, name), name, "style") for name in styles),
        "PAGE_JS": "\n".join(_inline(_asset(None, name), name, "script") for name in scripts),
        "DATA": _json_for_script(data),
        "VIEW": view,  # one of VIEWS: fixed ASCII, safe as markup
    }
    # The Content-Security-Policy allows exactly our two inline scripts (by hash) and no URL at all:
    # an injected <script> or <img src=http://…> could neither run nor fetch anything.
    parts["SCRIPT_HASHES"] = " ".join(_csp_hash(parts[k]) for k in ("VIS_JS", "PAGE_JS"))
    template = _asset(None, template_name)
    # One pass, so text substituted in is never scanned for markers again.
    html = _MARKER.sub(lambda m: parts[m.group(1)], template)
    return HtmlPage(html=html, view=view, nodes=len(data["nodes"]), edges=len(data["edges"]),
                    total_nodes=data["total_nodes"], folded=data["folded"],
                    total_edges=data["total_edges"], folded_edges=data["folded_edges"])


def write_html(nx_graph: nx.MultiDiGraph, out_path: str | Path, view: str = DEFAULT_VIEW,
               max_nodes: int = DEFAULT_MAX_NODES, max_edges: int = DEFAULT_MAX_EDGES) -> HtmlPage:
    """Write the offline page of ``nx_graph`` to ``out_path`` (atomically); see :func:`render_html`.

    Raises:
        ConfigError: bad ``view``, ``max_nodes`` or ``max_edges``.
        OutputError: ``out_path`` cannot be written.
    """
    page = render_html(nx_graph, view, max_nodes, max_edges)
    with atomic_write(out_path) as out:
        out.write(page.html)
    return page


def export_html(graph_dir: str | Path, out_path: str | Path, view: str = DEFAULT_VIEW,
                max_nodes: int = DEFAULT_MAX_NODES, max_edges: int = DEFAULT_MAX_EDGES) -> HtmlPage:
    """Write the page for the graph in ``graph_dir`` to ``out_path`` (atomically).

    Args:
        graph_dir: a directory written by ``kg build``.
        out_path: the ``.html`` file to write.
        view: ``full``, ``papers`` or ``entities``.
        max_nodes: node folding cap (default :data:`DEFAULT_MAX_NODES`).
        max_edges: edge folding cap (default :data:`DEFAULT_MAX_EDGES`).

    Returns:
        The :class:`HtmlPage` written.

    Raises:
        GraphDirError: ``graph_dir`` holds no readable graph.
        ConfigError: bad ``view``, ``max_nodes`` or ``max_edges``.
        OutputError: ``out_path`` cannot be written.
    """
    from kg.graphdir import load_nx  # here, so `kg --help` does not pay for rdflib

    return write_html(load_nx(graph_dir), out_path, view, max_nodes, max_edges)
