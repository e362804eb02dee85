"""``kg eval links``: do the graph's paper–paper share links join papers that belong together?

The share links are the ``sharesTechniqueWith`` / ``sharesTaskWith`` / ``sharesConceptWith``
edges between papers (:mod:`kg.assemble`). Two papers linked by several of them are one *link*
(one unordered pair): the measures below count pairs, and also report the raw edge count.

On any graph:

- **no link**: papers with no share link at all (count / N);
- **degree**: the median and largest number of papers a paper is linked to;
- **concepts**: the concepts that justify most links. A link is justified by the concepts its
  edges name: ``via`` (node ids, with the level at which the papers meet: 0 a shared concept,
  1 a shared parent, …) when the graph carries it, else ``shared`` (labels). Each concept counts
  once per link. With ``via``, each row also gives the node's ``df``, ``idf`` and ``specific``
  attributes when the graph has them, so a reader sees whether a generic word carries the links.

Against relevance judgments (the files of ``kg eval related``, :mod:`kg.evaluate.related`):

- **precision**: of the links whose pair is judged, the share judged related (grade ≥ 1). A pair
  is judged when one paper is a query of the file and lists the other (any grade, 0 included,
  as the corpus pool files keep), or when every paper of the graph is a query of the file (the
  seed files: every seed judged against every other, unlisted meaning 0);
- **base rate**: the share of all judged pairs that are related: what a random link would reach;
- **recall**: of the judged-related pairs with both papers in the graph, the share linked directly.

A pair graded by both of its papers (each a query) takes the higher grade.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from kg.evaluate.related import Judgments

SHARE_PREDICATES: frozenset[str] = frozenset({"sharesTechniqueWith", "sharesTaskWith", "sharesConceptWith"})
TOP_CONCEPTS = 30

Pair = tuple[str, str]


def _pair(a: str, b: str) -> Pair:
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True, slots=True)
class ConceptCount:
    """A concept and how many links it justifies."""

    concept: str  # node id (from ``via``) or label (from ``shared``)
    label: str
    links: int
    level: int | None = None  # the lowest level it justifies a link at (``via`` only)
    df: int | None = None
    idf: float | None = None
    specific: bool | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"concept": self.concept, "label": self.label, "links": self.links}
        for key in ("level", "df", "idf", "specific"):
            value = getattr(self, key)
            if value is not None:
                out[key] = round(value, 4) if isinstance(value, float) else value
        return out


@dataclass(frozen=True, slots=True)
class JudgedLinks:
    """The links of a graph against one judgment file."""

    name: str
    queries: int  # queries of the file in the graph
    judged_links: int  # links whose pair is judged
    related_links: int  # of those, judged related
    judged_pairs: int  # all judged pairs with both papers in the graph
    related_pairs: int  # of those, related
    linked_related_pairs: int  # related pairs joined by a link

    @property
    def precision(self) -> float:
        return self.related_links / self.judged_links if self.judged_links else 0.0

    @property
    def base_rate(self) -> float:
        return self.related_pairs / self.judged_pairs if self.judged_pairs else 0.0

    @property
    def recall(self) -> float:
        return self.linked_related_pairs / self.related_pairs if self.related_pairs else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "judgments": self.name,
            "queries": self.queries,
            "judged_links": self.judged_links,
            "related_links": self.related_links,
            "precision": round(self.precision, 4),
            "judged_pairs": self.judged_pairs,
            "related_pairs": self.related_pairs,
            "base_rate": round(self.base_rate, 4),
            "linked_related_pairs": self.linked_related_pairs,
            "recall": round(self.recall, 4),
        }


@dataclass(slots=True)
class LinkEvaluation:
    """The result of :func:`evaluate_links`."""

    papers: int
    edges: int
    links: int
    unlinked: int
    median_degree: float
    max_degree: int
    concepts: list[ConceptCount]
    judged: list[JudgedLinks] = field(default_factory=list)

    @property
    def linked_share(self) -> float:
        return (self.papers - self.unlinked) / self.papers if self.papers else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "papers": self.papers,
            "share_edges": self.edges,
            "links": self.links,
            "papers_without_link": self.unlinked,
            "papers_with_link_share": round(self.linked_share, 4),
            "median_degree": self.median_degree,
            "max_degree": self.max_degree,
            "top_concepts": [c.to_json() for c in self.concepts],
            "judgments": [j.to_json() for j in self.judged],
        }

    def report(self) -> str:
        """The text ``kg eval links`` prints."""
        lines = [
            f"papers without a share link: {self.unlinked} / {self.papers} "
            f"({100 * self.linked_share:.1f}% have one)",
            f"links (linked paper pairs): {self.links} from {self.edges} share edges; "
            f"share degree median {self.median_degree:g}, max {self.max_degree}",
        ]
        for j in self.judged:
            lines.append(
                f"{j.name} ({j.queries} queries): links joining papers judged related "
                f"{j.related_links}/{j.judged_links} = {j.precision:.3f} (judged pairs: {j.base_rate:.3f}); "
                f"judged-related pairs linked {j.linked_related_pairs}/{j.related_pairs} = {j.recall:.3f}"
            )
        if self.concepts:
            lines.append(f"the {len(self.concepts)} concepts that justify most links:")
            for c in self.concepts:
                extra = []
                if c.level is not None:
                    extra.append(f"level {c.level}")
                if c.df is not None:
                    extra.append(f"df {c.df}")
                if c.specific is not None:
                    extra.append("specific" if c.specific else "NOT specific")
                tail = f"  ({', '.join(extra)})" if extra else ""
                lines.append(f"  {c.links:>6}  {c.label}{tail}")
        return "\n".join(lines)


def share_links(nx_graph: nx.MultiDiGraph) -> dict[Pair, list[dict[str, Any]]]:
    """Each linked paper pair (paper node ids, sorted) → the attributes of its share edges."""
    links: dict[Pair, list[dict[str, Any]]] = defaultdict(list)
    for u, v, key, data in nx_graph.edges(keys=True, data=True):
        if key in SHARE_PREDICATES and u != v:
            links[_pair(u, v)].append(data)
    return dict(links)


def _paper_id(nx_graph: nx.MultiDiGraph, node: str) -> str:
    return str(nx_graph.nodes[node].get("id") or node.partition(":")[2])


def _justifying(nx_graph: nx.MultiDiGraph, edges: Iterable[Mapping[str, Any]]) -> dict[str, int | None]:
    """The concepts one link names → the lowest level it names each at (None: no ``via``)."""
    found: dict[str, int | None] = {}
    for data in edges:
        via = data.get("via")
        if via:
            for step in via:
                concept = str(step.get("concept"))
                level = int(step.get("level", 0))
                old = found.get(concept)
                found[concept] = level if old is None else min(old, level)
        else:
            for label in data.get("shared") or ():
                found.setdefault(str(label), None)
    return found


def _concept_count(nx_graph: nx.MultiDiGraph, concept: str, links: int, level: int | None) -> ConceptCount:
    if concept not in nx_graph:  # a label from ``shared``
        return ConceptCount(concept, concept, links)
    d = nx_graph.nodes[concept]
    df = d.get("df")
    idf = d.get("idf")
    specific = d.get("specific")
    return ConceptCount(
        concept,
        str(d.get("label") or d.get("canonical") or concept),
        links,
        level,
        int(df) if df is not None else None,
        float(idf) if idf is not None else None,
        bool(specific) if specific is not None else None,
    )


def judge_links(
    nx_graph: nx.MultiDiGraph, links: Iterable[Pair], judgments: Judgments, name: str = "judgments"
) -> JudgedLinks:
    """The links (pairs of paper node ids) against one judgment file (see the module docstring)."""
    node_of = {
        _paper_id(nx_graph, n): n for n, d in nx_graph.nodes(data=True) if d.get("kind") == "Paper"
    }
    queries = sorted(q for q in judgments if q in node_of)
    complete = bool(node_of) and set(queries) == set(node_of)
    grades: dict[Pair, int] = {}
    for q in queries:
        listed = judgments[q]
        others = (p for p in node_of if p != q) if complete else (p for p in listed if p in node_of)
        for other in others:
            pair = _pair(node_of[q], node_of[other])
            grades[pair] = max(grades.get(pair, 0), listed.get(other, 0))
    linked = set(links)
    judged_links = [p for p in linked if p in grades]
    related = {p for p, g in grades.items() if g >= 1}
    return JudgedLinks(
        name,
        len(queries),
        len(judged_links),
        sum(1 for p in judged_links if p in related),
        len(grades),
        len(related),
        len(related & linked),
    )


def evaluate_links(
    nx_graph: nx.MultiDiGraph,
    judgments: Mapping[str, Judgments] | None = None,
    top: int = TOP_CONCEPTS,
) -> LinkEvaluation:
    """Measure the share links of a graph, and against each judgment file (name → judgments)."""
    papers = sorted(n for n, d in nx_graph.nodes(data=True) if d.get("kind") == "Paper")
    links = share_links(nx_graph)
    neighbours: dict[str, set[str]] = defaultdict(set)
    for a, b in links:
        neighbours[a].add(b)
        neighbours[b].add(a)
    degrees = [len(neighbours.get(p, ())) for p in papers]
    counts: Counter[str] = Counter()
    levels: dict[str, int | None] = {}
    for edges in links.values():
        for concept, level in _justifying(nx_graph, edges).items():
            counts[concept] += 1
            old = levels.get(concept)
            levels[concept] = level if old is None else (old if level is None else min(old, level))
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return LinkEvaluation(
        papers=len(papers),
        edges=sum(len(e) for e in links.values()),
        links=len(links),
        unlinked=sum(1 for d in degrees if d == 0),
        median_degree=float(statistics.median(degrees)) if degrees else 0.0,
        max_degree=max(degrees, default=0),
        concepts=[_concept_count(nx_graph, c, n, levels[c]) for c, n in ranked],
        judged=[judge_links(nx_graph, links, j, name) for name, j in (judgments or {}).items()],
    )


__all__ = [
    "SHARE_PREDICATES",
    "ConceptCount",
    "JudgedLinks",
    "LinkEvaluation",
    "evaluate_links",
    "judge_links",
    "share_links",
]
