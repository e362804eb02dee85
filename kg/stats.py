"""``kg stats``: what a built graph holds — counts per type, top entities, bounds, topics."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import networkx as nx

from kg.assemble import LinkConfig
from kg.vocab import ENTITY_CLASSES, PAPER_PAPER_PROPERTIES, SHARE_PROPERTY_OF_TYPE


def graph_stats(nx_graph: nx.MultiDiGraph, top: int = 10, config: LinkConfig | None = None) -> dict[str, Any]:
    """Summary numbers of an assembled graph.

    Args:
        nx_graph: the graph (``kg.graphdir.load_nx``).
        top: how many top entities per type and topics to list.
        config: the link settings the graph was built with (for the "too common" list).

    Returns:
        ``nodes`` per kind, ``edges`` per predicate, ``top_entities`` per entity type
        (canonical, papers), ``bounds`` (papers with any bound, with a formula bound, per kind),
        ``links`` (papers without any share link; among the top entities, those too common to
        link papers) and ``topics`` (count, the largest with their
        size and most frequent methods).
    """
    config = config or LinkConfig()
    kinds = Counter(d["kind"] for _n, d in nx_graph.nodes(data=True))
    edges = Counter(k for _u, _v, k in nx_graph.edges(keys=True))
    top_entities: dict[str, list[dict[str, Any]]] = {}
    for etype in ENTITY_CLASSES:
        ranked = sorted(
            ((d["papers"], d["canonical"]) for _n, d in nx_graph.nodes(data=True) if d["kind"] == etype),
            key=lambda x: (-x[0], x[1]),
        )
        top_entities[etype] = [{"canonical": c, "papers": n} for n, c in ranked[:top]]

    bound_papers: set[str] = set()
    formula_papers: set[str] = set()
    bound_kinds: Counter[str] = Counter()
    for _n, d in nx_graph.nodes(data=True):
        if d["kind"] == "Bound":
            bound_papers.add(d["paper"])
            bound_kinds[d["bound_kind"]] += 1
            if d["form"] == "formula":
                formula_papers.add(d["paper"])

    papers = [n for n, d in nx_graph.nodes(data=True) if d["kind"] == "Paper"]
    # Entities too common to link papers (see kg.assemble.LinkConfig): the evidence that a
    # ubiquitous "neural network" explains no link.
    too_common: dict[str, list[dict[str, Any]]] = {}
    limit = config.df_limit(len(papers))
    for etype in SHARE_PROPERTY_OF_TYPE:
        rows = [r for r in top_entities[etype] if r["papers"] > limit]
        too_common[etype] = rows
    linked = {x for u, v, k in nx_graph.edges(keys=True) if k in PAPER_PAPER_PROPERTIES for x in (u, v)}
    members: dict[int, list[str]] = defaultdict(list)
    for p in papers:
        members[int(nx_graph.nodes[p]["topic"])].append(p)
    topics = []
    for topic in sorted(members, key=lambda t: (-len(members[t]), t))[:top]:
        methods: Counter[str] = Counter()
        for p in members[topic]:
            for _u, v, k in nx_graph.out_edges(p, keys=True):
                if k in ("uses", "proposes") and nx_graph.nodes[v]["kind"] == "Method":
                    methods[nx_graph.nodes[v]["canonical"]] += 1
        common = [m for m, _c in sorted(methods.items(), key=lambda x: (-x[1], x[0]))[:3]]
        topics.append({"topic": topic, "papers": len(members[topic]), "methods": common})
    return {
        "nodes": dict(sorted(kinds.items())),
        "edges": dict(sorted(edges.items())),
        "top_entities": top_entities,
        "bounds": {
            "papers_with_bounds": len(bound_papers),
            "papers_with_formula_bounds": len(formula_papers),
            "by_kind": dict(sorted(bound_kinds.items())),
        },
        "links": {
            "papers": len(papers),
            "papers_without_links": len(set(papers) - linked),
            "df_limit": limit,
            "too_common": too_common,
        },
        "topics": {
            "count": len(members),
            "multi_paper": sum(1 for m in members.values() if len(m) > 1),
            "largest": topics,
        },
    }


def format_stats(stats: dict[str, Any]) -> str:
    """The stats as readable text."""
    lines = [
        "nodes:   " + ", ".join(f"{k} {v}" for k, v in stats["nodes"].items()),
        "edges:   " + ", ".join(f"{k} {v}" for k, v in stats["edges"].items()),
    ]
    b = stats["bounds"]
    lines.append(
        f"bounds:  {b['papers_with_bounds']} papers claim bounds "
        f"({b['papers_with_formula_bounds']} with a formula bound); "
        + ", ".join(f"{k} {v}" for k, v in b["by_kind"].items())
    )
    links = stats["links"]
    lines.append(
        f"links:   {links['papers'] - links['papers_without_links']} of {links['papers']} "
        f"papers linked to another"
    )
    common = [f"{r['canonical']} ({r['papers']})" for rows in links["too_common"].values() for r in rows]
    if common:
        lines.append(f"  too common to link (in more than {links['df_limit']:g} papers): {', '.join(common)}")
    if stats.get("pending"):
        lines.append(f"pending: {stats['pending']} papers added since the graph was last assembled "
                     f"(`kg compact` folds them in)")
    t = stats["topics"]
    lines.append(f"topics:  {t['count']} ({t['multi_paper']} with more than one paper)")
    for topic in t["largest"]:
        lines.append(
            f"  topic {topic['topic']}: {topic['papers']} papers; {', '.join(topic['methods']) or '-'}"
        )
    lines.append("top entities:")
    for etype, rows in stats["top_entities"].items():
        shown = ", ".join(f"{r['canonical']} ({r['papers']})" for r in rows)
        lines.append(f"  {etype}: {shown or '-'}")
    return "\n".join(lines) + "\n"
