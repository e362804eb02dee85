"""The graph as a :class:`pyvis.network.Network`, built through pyvis's own API, for notebooks.

``KnowledgeGraph.to_pyvis()`` calls :func:`to_network`; the result is pyvis's, to style further,
``show_buttons()``, ``show()`` or ``write_html()`` as pyvis documents. The nodes and edges are
those of one view of the offline page (:func:`kg.export.html.select_view`, folded the same way
beyond ``max_nodes``/``max_edges``). Each node is added with its label, a plain-text ``title``
(the tooltip), the shape of its type and a ``group``: the paper's topic (``topic 3``) for papers,
its type for the others, so vis-network colours papers by region. Each edge carries a label (the
shared entities of a paper–paper link), a title, and a ``value`` (its weight) that sets its width.

pyvis pages load vis-network from its own files or from CDNs (its ``cdn_resources`` option); for the
page that makes no request at all, use ``kg export html`` (:mod:`kg.export.html`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kg.export.html import (
    COOCCURS,
    DEFAULT_MAX_EDGES,
    DEFAULT_MAX_NODES,
    DEFAULT_VIEW,
    NODE_STYLES,
    OTHER_STYLE,
    fold_least_connected,
    fold_weakest_edges,
    select_view,
)
from kg.vocab import PAPER_PAPER_PROPERTIES

if TYPE_CHECKING:
    import networkx as nx
    from pyvis.network import Network

LABEL_CHARS = 42
TITLE_CHARS = 300


def _clip(value: Any, limit: int) -> str:
    text = " ".join(str(value).split()) if value is not None else ""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _tooltip(lines: list[str]) -> str:
    """A title shown as text. pyvis switches every tooltip of its page to ``innerHTML`` when one
    title contains "href" (its template's link mode): a zero-width space in the word keeps an
    abstract that quotes HTML from becoming markup."""
    return "\n".join(x for x in lines if x).replace("href", "hre\u200bf")


def _names(value: Any) -> str:
    return ", ".join(str(v) for v in value) if isinstance(value, list | tuple) else _clip(value, TITLE_CHARS)


def _node(node: str, d: dict[str, Any]) -> dict[str, Any]:
    """The pyvis ``add_node`` arguments of one graph node."""
    kind = str(d.get("kind") or "other")
    if kind == "Paper":
        name = d.get("title") or d.get("label") or node
        topic = d.get("topic")
        lines = [_clip(name, TITLE_CHARS), " ".join(str(x) for x in (d.get("venue"), d.get("year")) if x),
                 _clip(d.get("abstract"), TITLE_CHARS), f"Paper {d.get('id') or node}"]
        group = f"topic {topic}" if topic is not None else kind
    else:
        name = d.get("label") or d.get("canonical") or d.get("latex") or node
        lines = [_clip(name, TITLE_CHARS), f"{kind} · {node}"]
        if d.get("aliases"):
            lines.append("aliases: " + _names(d["aliases"]))
        group = kind
    return {"label": _clip(name, LABEL_CHARS), "title": _tooltip(lines), "group": group,
            "shape": NODE_STYLES.get(kind, OTHER_STYLE)["shape"]}


def _edge(key: Any, d: dict[str, Any]) -> dict[str, Any]:
    """The pyvis ``add_edge`` arguments of one graph edge (after its ends)."""
    predicate = str(d.get("predicate", key))
    linked = predicate in PAPER_PAPER_PROPERTIES or predicate == COOCCURS
    shared = _names(d.get("shared")) if d.get("shared") else ""
    lines = [predicate, f"shared: {shared}" if shared else "", _clip(d.get("sentence"), TITLE_CHARS)]
    edge: dict[str, Any] = {"title": _tooltip(lines),
                            "label": _clip(shared, LABEL_CHARS) if shared else "",
                            # symmetric links and co-occurrences have no direction to show
                            "arrows": "" if linked else "to"}
    if d.get("weight") is not None:
        edge["value"] = float(d["weight"])
    return edge


def to_network(
    nx_graph: nx.MultiDiGraph,
    *,
    view: str = DEFAULT_VIEW,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_edges: int = DEFAULT_MAX_EDGES,
    **network: Any,
) -> Network:
    """One view of ``nx_graph`` as a pyvis Network: nodes with groups and titles, edges with labels.

    Args:
        nx_graph: a kg graph (node ``kind``/``label``, edge ``predicate``).
        view: ``full``, ``papers`` or ``entities`` (:func:`kg.export.html.select_view`).
        max_nodes: the least connected nodes beyond this many are left out.
        max_edges: the weakest edges beyond this many are left out.
        network: keyword arguments of :class:`pyvis.network.Network` (``height``, ``width``,
            ``notebook``, ``cdn_resources``: default ``"in_line"``, a page that needs no
            ``lib/`` folder beside it …).

    Returns:
        The :class:`pyvis.network.Network`, nodes sorted by id, edges by their ends.

    Raises:
        ConfigError: bad ``view``, ``max_nodes`` or ``max_edges``.
    """
    from pyvis.network import Network

    shown = fold_weakest_edges(fold_least_connected(select_view(nx_graph, view), max_nodes), max_edges)
    network.setdefault("cdn_resources", "in_line")
    # directed: pyvis would otherwise drop a second link between two papers (a shared technique and
    # a shared task); each edge says itself whether it has arrows.
    net = Network(directed=True, **network)
    for node in sorted(shown.nodes, key=str):
        net.add_node(str(node), **_node(str(node), shown.nodes[node]))
    edges = sorted(shown.edges(keys=True, data=True), key=lambda e: (str(e[0]), str(e[1]), str(e[2])))
    for u, v, key, d in edges:
        net.add_edge(str(u), str(v), **_edge(key, d))
    net.barnes_hut(gravity=-8000, spring_length=150)
    net.set_edge_smooth("continuous")
    return net
