"""Paper–paper share links through the concepts they share, and the named regions of the graph.

Each paper holds the terms of its Method, Task and Concept entities (level 0) and, through the
hierarchy, their broader terms (level 1 for a parent, 2 for a grandparent). Two papers are linked
when they hold a *usable* term in common: a specific term (:mod:`kg.concepts.stats`) held by at
least two papers and by no more than the :class:`kg.assemble.LinkConfig` limit. A shared term
weighs its reference-corpus IDF times ``discount ** (level in one paper + level in the other)``:
a shared leaf weighs its IDF, a leaf of one paper that is the other's parent half of it, a shared
parent a quarter (discount 0.5). The link weight is the sum over the shared terms.

Pair weights come from one sparse product ``X·Xᵀ`` over papers × usable terms (values
``sqrt(idf) · discount ** level``), so 22k papers cost what the entity-level product cost; each
paper keeps its ``top_k`` strongest links (a link stays when either end keeps it), and only the
kept pairs get their explanation: ``shared`` (labels, most specific first), ``via`` (``{concept:
node, level}``, level = the larger of the two papers' levels), ``label`` (the first shared) and
the predicate of the first shared concept's type (Method → ``sharesTechniqueWith``, Task →
``sharesTaskWith``, else ``sharesConceptWith``).

Only what a paper is *about* links it by default: a concept it holds saliently (:func:`is_salient`:
its proposed method or addressed task, a concept it names twice or more, or one named in its
first two sentences, where an abstract sets out its setting and problem), and the broader terms
of those. A concept named once in passing ("we optimise with Adam") does not link two papers. A
paper that shares nothing salient with any other keeps one link, its strongest through any shared
concept, so that no paper that shares a specific concept is left alone.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import networkx as nx

from kg.concepts.hierarchy import Hierarchy, Term, is_specific
from kg.concepts.stats import ConceptStats
from kg.concepts.terms import term_text
from kg.vocab import SHARE_PROPERTY_OF_TYPE

DISCOUNT = 0.5
# How far up the hierarchy a paper's terms reach: their parents (1) and grandparents (2). The
# concept signal of kg.related reads the same depth; three levels up is mostly a broad family
# ("neural networks") that every paper of an area reaches, and it ranked worse (docs/related.md).
MAX_LEVEL = 2
SALIENT_PREDICATES = frozenset({"proposes", "addresses"})
OPENING_SENTENCES = 2
_SENTENCE_END = re.compile(r"[.!?]\s")


def is_salient(abstract: str, edge: Mapping[str, Any]) -> bool:
    """Is the paper → entity statement ``edge`` about what the paper is about: the paper proposes
    the entity or addresses it, names it twice or more, or names it (its best mention) in its
    first two sentences.

    >>> text = "Bandits are hard. We study regret. We use Adam."
    >>> [is_salient(text, {"predicate": "uses", "start": text.index(w), "mentions": 1})
    ...  for w in ("Bandits", "regret", "Adam")]
    [True, True, False]
    >>> is_salient(text, {"predicate": "proposes", "start": 40, "mentions": 1})
    True
    """
    if edge.get("predicate") in SALIENT_PREDICATES or int(edge.get("mentions", 1)) >= 2:
        return True
    start = int(edge.get("start", len(abstract)))
    return len(_SENTENCE_END.findall(abstract, 0, max(0, start))) < OPENING_SENTENCES


def paper_terms(
    g: nx.MultiDiGraph, h: Hierarchy, papers: Sequence[str], salient_only: bool = False
) -> dict[str, dict[Term, int]]:
    """Each paper's terms with their level (0: its own entities; 1, 2: broader terms); with
    ``salient_only``, only those it holds saliently (:func:`is_salient`) and their broader terms."""
    out: dict[str, dict[Term, int]] = {}
    cache: dict[Term, dict[Term, int]] = {}
    for pnode in papers:
        held: dict[Term, int] = {}
        abstract = str(g.nodes[pnode].get("abstract") or "")
        for _u, v, d in g.out_edges(pnode, data=True):
            if "sentence" not in d or g.nodes[v].get("kind") not in SHARE_PROPERTY_OF_TYPE:
                continue
            if salient_only and not is_salient(abstract, d):
                continue
            term = h.term_of.get(v)
            if not term:
                continue
            held[term] = 0
        for term in list(held):
            above = cache.get(term)
            if above is None:
                above = cache[term] = h.ancestors(term, MAX_LEVEL)
            for parent, level in above.items():
                if held.get(parent, 99) > level:
                    held[parent] = level
        out[pnode] = held
    return out


def add_concept_links(
    g: nx.MultiDiGraph,
    h: Hierarchy,
    stats: ConceptStats,
    papers: Sequence[str],
    top_k: int,
    df_limit: float,
    held: Mapping[str, Mapping[Term, int]] | None = None,
) -> dict[tuple[int, int], float]:
    """Add the share links of ``papers`` (module docstring); returns the weight of each linked
    pair of paper rows ``(i, j)``, ``i < j``. ``held``: :func:`paper_terms` of ``papers``, when
    the caller has it."""
    held = held if held is not None else paper_terms(g, h, papers)
    held_salient = paper_terms(g, h, papers, salient_only=True)
    holders: dict[Term, int] = defaultdict(int)
    for terms in held.values():
        for term in terms:
            holders[term] += 1
    idf: dict[Term, float] = {}
    for term, count in holders.items():
        if 2 <= count <= df_limit and is_specific(h, stats, term):
            value = stats.idf(term)
            if value > 0:
                idf[term] = value
    pair_weights: dict[tuple[int, int], float] = {}
    if not idf:
        return pair_weights
    salient_scores = _pair_scores(held_salient, papers, idf)
    keep = _strongest(salient_scores, top_k)
    linked = {i for pair in keep for i in pair}
    fill = _strongest(_pair_scores(held, papers, idf), 1, skip=linked)
    for a, b in sorted(keep | fill):
        source = held_salient if (a, b) in keep else held
        pair_weights[(a, b)] = _add_link(g, h, papers[a], papers[b], source, idf)
    return pair_weights


def _pair_scores(held: Mapping[str, Mapping[Term, int]], papers: Sequence[str],
                 idf: Mapping[Term, float]) -> Any:
    """The papers × papers weights (CSR, no diagonal) of what they hold in common: one sparse
    product over papers × usable terms, values ``sqrt(idf) · discount ** level``."""
    from scipy import sparse

    columns = sorted(idf)
    col = {t: j for j, t in enumerate(columns)}
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    for i, pnode in enumerate(papers):
        for term, level in held[pnode].items():
            j = col.get(term)
            if j is not None:
                rows.append(i)
                cols.append(j)
                vals.append(math.sqrt(idf[term]) * DISCOUNT**level)
    x = sparse.csr_matrix((vals, (rows, cols)), shape=(len(papers), len(columns)))
    scores = (x @ x.T).tocsr()
    scores.setdiag(0)
    scores.eliminate_zeros()
    return scores


def _strongest(scores: Any, top_k: int, skip: Collection[int] = ()) -> set[tuple[int, int]]:
    """The pairs ``(i, j)``, ``i < j``, that each paper not in ``skip`` keeps: its ``top_k``
    heaviest (ties to the smaller row)."""
    import numpy as np

    keep: set[tuple[int, int]] = set()
    for i in range(scores.shape[0]):
        lo, hi = scores.indptr[i], scores.indptr[i + 1]
        if lo == hi or i in skip:
            continue
        neighbours = scores.indices[lo:hi]
        weights = np.round(scores.data[lo:hi], 9)
        order = np.lexsort((neighbours, -weights))[:top_k]
        keep.update((min(i, int(j)), max(i, int(j))) for j in neighbours[order])
    return keep


def _add_link(g: nx.MultiDiGraph, h: Hierarchy, pa: str, pb: str,
              held: Mapping[str, Mapping[Term, int]], idf: Mapping[Term, float]) -> float:
    """Add the share edge of ``pa`` and ``pb`` through the usable terms both hold in ``held``;
    returns its weight."""
    ta, tb = held[pa], held[pb]
    rows: list[tuple[int, float, str, Term]] = []
    weight = 0.0
    for t in ta:
        if t in tb and t in idf:
            weight += idf[t] * DISCOUNT ** (ta[t] + tb[t])
            rows.append((max(ta[t], tb[t]), -idf[t], term_text(t), t))
    rows.sort()
    weight = round(weight, 6)
    via: list[dict[str, Any]] = []
    names: list[str] = []
    for level, _idf, _text, t in rows:
        node = h.node(t)
        assert node is not None
        via.append({"concept": node, "level": level})
        names.append(str(g.nodes[node]["label"]))
    first = via[0]["concept"]
    prop = SHARE_PROPERTY_OF_TYPE.get(g.nodes[first]["kind"], "sharesConceptWith")
    g.add_edge(pa, pb, key=prop, predicate=prop, weight=weight, shared=names, via=via, label=names[0])
    return weight


def add_regions(g: nx.MultiDiGraph, h: Hierarchy, stats: ConceptStats, papers: Sequence[str],
                held: Mapping[str, Mapping[Term, int]] | None = None) -> None:
    """``g.graph["regions"]``: per paper ``topic``, its 2–3 most telling concepts (held at level 0
    or 1 by at least two of its papers, ranked by papers × IDF) and a label of the first two.
    ``held``: :func:`paper_terms` of ``papers``, when the caller has it."""
    held = held if held is not None else paper_terms(g, h, papers)
    members: dict[int, list[str]] = defaultdict(list)
    for pnode in papers:
        members[int(g.nodes[pnode].get("topic", -1))].append(pnode)
    regions: list[dict[str, Any]] = []
    for topic in sorted(t for t in members if t >= 0):
        counts: dict[Term, int] = defaultdict(int)
        for pnode in members[topic]:
            for term, level in held[pnode].items():
                if level <= 1:
                    counts[term] += 1
        ranked = sorted(
            ((c * stats.idf(t), t) for t, c in counts.items()
             if (c >= 2 or len(members[topic]) == 1) and is_specific(h, stats, t)),
            key=lambda st: (-round(st[0], 9), term_text(st[1])),
        )
        concepts = [n for n in (h.node(t) for _s, t in ranked[:3]) if n is not None]
        label = ", ".join(str(g.nodes[n]["label"]) for n in concepts[:2])
        regions.append({"id": topic, "label": label, "concepts": concepts, "papers": len(members[topic])})
    g.graph["regions"] = regions
