"""The concept signal ``C``: papers meeting on a specific concept, or on a common broader one.

The graph's entity nodes are its concepts; ``broader`` edges (child → parent, from the structure
of the names, lexical patterns, a taxonomy of technique families) make them a hierarchy. A paper
holds its entities at level 0 and reaches each ancestor at the level of the shortest path up.
Its vector over concepts (the held ones and their ancestors up to :data:`MAX_LEVEL`, the
parent and the grandparent: the depth the share links read, :mod:`kg.concepts.links`) has the
entry::

    x_p[c] = w.types[type(c)] * idf(c) * g(c) * w.broader ** level_p(c)

times ``w.passing`` when the paper holds ``c`` only in passing (neither proposed nor addressed,
named once, after its first two sentences: :func:`kg.concepts.links.is_salient`), and times
``1 + w.mentions * ln(m)`` when it names it ``m`` times (the graph's mention count: the sublinear term
frequency of TF-IDF); a broader concept takes the largest of its entries through the concepts
below it that the paper holds (:func:`held_factor`, :meth:`ConceptSpace.row`). ``idf(c)`` is the
node's ``idf`` attribute (the reference corpus's) when the graph carries one, else
``ln((N + 1) / (df + 1))`` over the graph's papers, a concept's ``df`` counting the papers that hold it or any
concept below it; ``g(c)`` is 1 for a specific concept and ``w.generic`` for one the graph marks
as not ``specific`` (too common to say what a paper is about). ``C`` is the cosine of two papers'
vectors: a shared leaf adds ``idf²``, a shared parent one level up from both ``w.broader²`` times
its (smaller) ``idf²``, a distant ancestor less still. A generic concept weighs little (its IDF is
small) and is named in an explanation only when the two papers share no specific one. On a graph
without ``broader`` edges, ``C`` is the cosine of the papers' entities by IDF.

:class:`ConceptSpace` holds the columns (concept nodes), their weights and parents, and each
entity's column; :func:`concept_space` reads it from the graph. Explanations name the shared
concepts carrying the score at the level they meet (:func:`shared_concepts`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

from kg.concepts.links import MAX_LEVEL
from kg.related.results import SharedConcept
from kg.related.sparse import l2_rows
from kg.types import ENTITY_TYPES as ENTITY_CLASSES

if TYPE_CHECKING:
    import networkx as nx

BROADER = "broader"


@dataclass(slots=True)
class ConceptSpace:
    """The concept columns of the related-work index and how entities reach them."""

    nodes: list[str]  # concept node ids, sorted: the columns
    labels: list[str]
    types: list[str]
    family: list[bool]  # a taxonomy family (a parent no paper mentions)
    weight: np.ndarray  # type weight × idf (× w.generic when not specific), per column
    specific: list[bool]  # may link two papers by itself
    parents: list[list[int]]  # per column, its parents' columns
    entity_col: list[int]  # per entity column of the index, its concept column
    reached: dict[int, dict[int, int]] = field(default_factory=dict, repr=False)  # :meth:`reach`

    def levels(self, entity_cols: Iterable[int]) -> dict[int, int]:
        """Concept column → the level at which entities ``entity_cols`` reach it (0: held), up to
        :data:`MAX_LEVEL`: the nearest of the entities' own :meth:`reach`."""
        level: dict[int, int] = {}
        for col in {self.entity_col[j] for j in entity_cols}:
            for c, depth in self.reach(col).items():
                if depth < level.get(c, MAX_LEVEL + 1):
                    level[c] = depth
        return level

    def ancestors(self, col: int) -> set[int]:
        """The columns of every ancestor of concept column ``col``."""
        seen: set[int] = set()
        frontier = [col]
        while frontier:
            nxt = []
            for c in frontier:
                for p in self.parents[c]:
                    if p not in seen:
                        seen.add(p)
                        nxt.append(p)
            frontier = nxt
        return seen

    def reach(self, col: int) -> dict[int, int]:
        """Concept column → the level at which concept ``col`` reaches it (itself at 0, its
        ancestors up to :data:`MAX_LEVEL`), computed once per column."""
        cached = self.reached.get(col)
        if cached is None:
            cached = {col: 0}
            frontier = [col]
            for depth in range(1, MAX_LEVEL + 1):
                nxt: list[int] = []
                for c in frontier:
                    for parent in self.parents[c]:
                        if parent not in cached:
                            cached[parent] = depth
                            nxt.append(parent)
                frontier = nxt
            self.reached[col] = cached
        return cached

    def row(self, held: Mapping[int, float], discount: float) -> tuple[list[int], list[float]]:
        """A paper's (columns, entries) before normalization: ``held`` maps each entity column
        the paper holds to its factor (how much the paper is about it: :func:`held_factor`); a
        concept's entry is its weight times the largest ``factor × discount ** level`` over the
        held entities reaching it."""
        best: dict[int, float] = {}
        for j, factor in held.items():
            for c, level in self.reach(self.entity_col[j]).items():
                x = factor * discount**level
                if x > best.get(c, 0.0):
                    best[c] = x
        cols = sorted(c for c in best if self.weight[c] > 0)
        return cols, [float(self.weight[c]) * best[c] for c in cols]

    def matrix(self, paper_held: Sequence[Mapping[int, float]], discount: float) -> sp.csr_matrix:
        """The L2-normalized paper × concept matrix of ``C`` (:meth:`row` per paper)."""
        rows: list[int] = []
        cols: list[int] = []
        data: list[float] = []
        for i, held in enumerate(paper_held):
            c, x = self.row(held, discount)
            rows.extend([i] * len(c))
            cols.extend(c)
            data.extend(x)
        matrix = sp.csr_matrix(
            (data, (rows, cols)), shape=(len(paper_held), len(self.nodes)), dtype=np.float64
        )
        matrix.eliminate_zeros()
        return l2_rows(matrix)

    def to_json(self) -> dict[str, Any]:
        return {
            "nodes": self.nodes,
            "labels": self.labels,
            "types": self.types,
            "family": self.family,
            "specific": self.specific,
            "parents": self.parents,
            "entity_col": self.entity_col,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any], weight: np.ndarray) -> ConceptSpace:
        return cls(
            list(obj["nodes"]),
            list(obj["labels"]),
            list(obj["types"]),
            [bool(f) for f in obj["family"]],
            weight,
            [bool(s) for s in obj["specific"]],
            [list(p) for p in obj["parents"]],
            list(obj["entity_col"]),
        )


def held_factor(salient: bool, mentions: int, passing: float, mention_weight: float) -> float:
    """How much a paper is about an entity it holds, the factor on its concepts' entries in ``C``.

    1 when the paper holds it saliently (:func:`kg.concepts.links.is_salient`), else
    ``passing``; times ``1 + mention_weight × ln(mentions)``, the sublinear term frequency of
    TF-IDF read off the graph's own mention counts: an abstract that names a concept three times
    is more about it than one that names it once.

    >>> held_factor(True, 1, 0.5, 1.0), held_factor(False, 1, 0.5, 1.0)
    (1.0, 0.5)
    >>> round(held_factor(True, 3, 0.5, 1.0), 3)
    2.099
    """
    return (1.0 if salient else passing) * (1.0 + mention_weight * math.log(max(mentions, 1)))


def _parents(nx_graph: nx.MultiDiGraph, node: str) -> list[str]:
    return sorted(
        v
        for _u, v, key in nx_graph.out_edges(node, keys=True)
        if key == BROADER and v != node and nx_graph.nodes[v].get("kind") in ENTITY_CLASSES
    )


def concept_space(
    nx_graph: nx.MultiDiGraph,
    entities: Sequence[str],
    holders: Sequence[Mapping[int, str]],
    n_papers: int,
    types: Mapping[str, float],
    generic: float = 1.0,
) -> ConceptSpace:
    """The concept columns of a graph, their weights and parents.

    Args:
        nx_graph: the graph (entity nodes, ``broader`` edges, optional ``idf``/``specific``).
        entities: the index's entity columns (node ids of the entities papers hold).
        holders: per entity column, the paper rows holding it.
        n_papers: the number of papers (rows).
        types: the weight of each entity type.
        generic: the factor on a concept the graph marks as not ``specific``.

    Returns:
        The :class:`ConceptSpace` (a concept's ``df``, when the graph gives it no ``idf``, counts the
        papers whose held entities reach it).
    """
    nodes: set[str] = set()
    frontier = list(entities)
    parents_of: dict[str, list[str]] = {}
    while frontier:  # every ancestor of a held entity, whatever its distance (cycles stop here)
        nxt: list[str] = []
        for node in frontier:
            if node in nodes:
                continue
            nodes.add(node)
            parents_of[node] = _parents(nx_graph, node)
            nxt.extend(p for p in parents_of[node] if p not in nodes)
        frontier = nxt
    ordered = sorted(nodes)
    col = {n: k for k, n in enumerate(ordered)}
    entity_col = [col[e] for e in entities]
    provisional = ConceptSpace(
        ordered,
        [str(nx_graph.nodes[n].get("label") or nx_graph.nodes[n].get("canonical") or n) for n in ordered],
        [str(nx_graph.nodes[n].get("kind")) for n in ordered],
        [bool(nx_graph.nodes[n].get("family")) for n in ordered],
        np.ones(len(ordered)),
        [nx_graph.nodes[n].get("specific") is not False for n in ordered],
        [[col[p] for p in parents_of[n]] for n in ordered],
        entity_col,
    )
    held: list[list[int]] = [[] for _ in range(n_papers)]
    for j, rows in enumerate(holders):
        for i in rows:
            held[i].append(j)
    paper_levels = [provisional.levels(cols) for cols in held]
    df = np.zeros(len(ordered))
    for levels in paper_levels:
        for c in levels:
            df[c] += 1
    weight = np.zeros(len(ordered))
    for k, node in enumerate(ordered):
        d = nx_graph.nodes[node]
        idf = d.get("idf")
        value = (
            float(idf)
            if isinstance(idf, (int, float)) and not isinstance(idf, bool) and math.isfinite(idf) and idf > 0
            else math.log((n_papers + 1) / (df[k] + 1))
        )
        factor = 1.0 if provisional.specific[k] else generic
        weight[k] = value * types.get(provisional.types[k], 0.0) * factor
    provisional.weight = weight
    return provisional


def shared_concepts(
    space: ConceptSpace,
    q_levels: Mapping[int, int],
    c_levels: Mapping[int, int],
    q_row: tuple[np.ndarray, np.ndarray],
    c_row: tuple[np.ndarray, np.ndarray],
    scale: float,
    limit: int = 3,
) -> list[SharedConcept]:
    """The shared concepts that carry ``C`` for a pair, most contributing first.

    A concept is left out when a more specific shared one below it is already named ("both use
    Thompson sampling" says that both are bandit algorithms): each named concept stands for
    what it adds. ``scale`` turns products into the signal's units times its weight.
    """
    q_x = dict(zip(q_row[0].tolist(), q_row[1].tolist(), strict=True))
    c_x = dict(zip(c_row[0].tolist(), c_row[1].tolist(), strict=True))
    shared = {k: q_x[k] * c_x[k] * scale for k in set(q_x) & set(c_x) if q_x[k] * c_x[k] > 0}
    # A generic concept is named only when nothing specific is shared: "both use a model"
    # explains little, but more than nothing.
    if any(space.specific[k] for k in shared):
        shared = {k: x for k, x in shared.items() if space.specific[k]}
    covered: set[int] = set()
    for k in shared:
        covered |= space.ancestors(k)
    ranked = sorted(
        (k for k in shared if k not in covered),
        key=lambda k: (-shared[k], space.nodes[k]),
    )
    return [
        SharedConcept(
            space.nodes[k],
            space.types[k],
            space.labels[k],
            (q_levels.get(k, 0), c_levels.get(k, 0)),
            space.family[k],
            shared[k],
        )
        for k in ranked[:limit]
    ]


__all__ = ["BROADER", "MAX_LEVEL", "ConceptSpace", "concept_space", "held_factor", "shared_concepts"]
