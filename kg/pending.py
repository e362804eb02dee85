"""Pending additions: ``kg build --update`` without re-assembling and rewriting the whole graph.

A full build assembles the graph from every record at once, and some of what it computes is
global: each entity's canonical name and label are the most frequent of the whole corpus, a
share link's weight is the rarity of what it shares among all papers, each paper keeps its
``top_k`` strongest links, topics are communities of the whole link graph. Recomputing all of it
for 100 new papers costs what a rebuild of the 22k-paper graph costs after extraction (about
35 s); adding them to the graph as it stands costs a fraction of a second.

So an update that only adds papers leaves the build's ``graph.json``, ``graph.ttl`` and
``extractions.jsonl`` untouched and writes beside them the pending records and a *delta graph*
(:func:`assemble_pending`) that the readers of :mod:`kg.graphdir` lay over the base graph:

- a new paper's mentions resolve to the base graph's entity when one has that name (canonical
  name, label or alias, under the same type); the rest become new entities, resolved among the
  pending papers as a full build resolves them (acronyms defined there, alias groups);
- an entity's ``papers`` counts the pending papers too; its name and label stay the base's;
- a new paper's share links are those a full build would give it as it ranks its own ``top_k``,
  weighted by rarity among base and pending papers together (:data:`LinkConfig` limits
  included), plus those to base papers that would rank it among their own ``top_k`` (before the
  ``top_k``-th of their links); the base's links stay, with their weights;
- a new paper's topic is the topic its links weigh most (its base neighbours'), ties to the
  smaller topic; a paper with no link to a base paper starts a new topic;
- a paper already in the base with the same abstract only gains its new sources.

The delta holds those nodes and edges plus, as context, the base nodes its edges reach; the only
base attributes it changes are an entity's ``papers`` and a paper's ``sources``. Each update
recomputes the delta from the base and all pending records, so updates do not stack. A
*compaction* (``kg compact``, ``kg remove``, a full ``kg build``, or an update that would bring
the pending papers above :data:`COMPACT_RATIO` of the base, changes an abstract or meets new
extractor versions) re-assembles everything and gives the bytes of a full rebuild of the same
final input.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from kg.assemble import LinkConfig, broader_quantity, paper_graph
from kg.concepts.links import DISCOUNT, MAX_LEVEL, is_salient
from kg.concepts.stats import load_stats
from kg.concepts.terms import term_words
from kg.nodelink import node_items
from kg.resolve import Resolution, resolve_entities
from kg.types import Entity, Extraction
from kg.vocab import ENTITY_CLASSES, SHARE_PROPERTY_OF_TYPE, paper_node, slug

# Pending papers beyond this share of the base papers make an update compact instead.
COMPACT_RATIO = 0.10


@dataclass(slots=True)
class BaseGraph:
    """What an update reads of the build's own graph (``graph.json``): every node's attributes
    and the paper–entity edges both ways; the share links and the rest are not needed, which
    spares building networkx's adjacency for 650k edges (4 s on the 22k-paper graph)."""

    nodes: dict[str, dict[str, Any]]
    entities_of: dict[str, list[str]] = field(default_factory=dict)  # paper node → entity nodes
    salient_of: dict[str, list[str]] = field(default_factory=dict)  # … those it holds saliently
    papers_of: dict[str, list[str]] = field(default_factory=dict)  # entity node → paper nodes
    broader: set[tuple[str, str]] = field(default_factory=set)  # broaderQuantity edges
    concept_parents: set[tuple[str, str]] = field(default_factory=set)  # broader edges (concepts)
    # (paper, "") → (weight, other paper) of its links
    links: dict[tuple[str, str], list[tuple[float, str]]] = field(default_factory=dict)

    @classmethod
    def from_node_link(cls, data: dict[str, Any]) -> BaseGraph:
        """From node-link JSON (``graph.json`` parsed; its dicts are taken over, not copied).

        Raises:
            KeyError, TypeError, AttributeError: not node-link JSON of the graph contract.
        """
        base = cls(dict(node_items(data)))
        entities_of: dict[str, list[str]] = defaultdict(list)
        salient_of: dict[str, list[str]] = defaultdict(list)
        papers_of: dict[str, list[str]] = defaultdict(list)
        links: dict[tuple[str, str], list[tuple[float, str]]] = defaultdict(list)
        for edge in data["edges"]:
            if "sentence" in edge:  # paper → entity, with its evidence
                entities_of[edge["source"]].append(edge["target"])
                papers_of[edge["target"]].append(edge["source"])
                if is_salient(str(base.nodes[edge["source"]].get("abstract") or ""), edge):
                    salient_of[edge["source"]].append(edge["target"])
            elif "shared" in edge:  # paper – paper: one link per pair, ranked over every type
                links[(edge["source"], "")].append((edge["weight"], edge["target"]))
                links[(edge["target"], "")].append((edge["weight"], edge["source"]))
            elif edge["key"] == "broaderQuantity":
                base.broader.add((edge["source"], edge["target"]))
            elif edge["key"] == "broader":
                base.concept_parents.add((edge["source"], edge["target"]))
        base.entities_of, base.papers_of = dict(entities_of), dict(papers_of)
        base.salient_of = dict(salient_of)
        base.links = dict(links)
        return base

    def would_keep(self, pnode: str, prop: str, other: str, weight: float, top_k: int) -> bool:
        """Whether base paper ``pnode`` would rank a link of ``weight`` to ``other`` among the
        ``top_k`` it keeps of type ``prop`` (heavier first, ties to the smaller paper id, as
        :func:`kg.assemble._add_share_links` ranks): when it ranks before the ``top_k``-th of
        ``pnode``'s links. Its own ``top_k`` are among them, so a yes is sure; a link that only
        the ``top_k``-th of those it was kept by would beat is missed."""
        ranked = sorted((-w, q) for w, q in self.links.get((pnode, prop), ()))
        return len(ranked) < top_k or (-weight, other) < ranked[top_k - 1]

    def __contains__(self, node: object) -> bool:
        return node in self.nodes

    def papers(self) -> int:
        return sum(1 for d in self.nodes.values() if d.get("kind") == "Paper")


def entity_index(base: BaseGraph, wanted: set[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """``(type, slug)`` → entity node of ``base``, for the keys of ``wanted`` that are the
    canonical name, label or alias of one.

    A node's own id (``<Type>:<slug of canonical>``) wins; a label or alias two entities share
    goes to the first by node id (the base graph lists entities sorted).
    """
    index: dict[tuple[str, str], str] = {}
    for key in wanted:
        node = f"{key[0]}:{key[1]}"
        if node in base.nodes:
            index[key] = node
    for node, d in base.nodes.items():
        kind = d.get("kind")
        if kind not in ENTITY_CLASSES:
            continue
        for name in (d.get("label") or "", *(d.get("aliases") or ())):
            key = (kind, slug(name))
            if key in wanted and key not in index:
                index[key] = node
    return index


def _resolve_against(base: BaseGraph, new: Sequence[Extraction]) -> Resolution:
    """Resolve the mentions of ``new`` among themselves, then map each resulting entity to the
    base entity with the same type and one of its names, where there is one."""
    own = resolve_entities(new)
    wanted = set(own.by_key)
    for entity in own.entities.values():
        wanted.update((entity.type, slug(name)) for name in (entity.canonical, entity.label, *entity.aliases))
    index = entity_index(base, wanted)
    target: dict[str, str] = {}
    for node, entity in own.entities.items():
        found = node if node in base else None
        for name in (entity.canonical, entity.label, *entity.aliases):
            if found is not None:
                break
            found = index.get((entity.type, slug(name)))
        target[node] = found or node
    entities: dict[str, Entity] = {}
    for node, entity in own.entities.items():
        mapped = target[node]
        if mapped in base:
            d = base.nodes[mapped]
            entities[mapped] = Entity(key=mapped, type=d["kind"], canonical=d["canonical"],
                                      label=d["label"], aliases=tuple(d.get("aliases") or ()))
        else:
            entities[mapped] = entity
    by_key = {key: target[node] for key, node in own.by_key.items()}
    by_key.update(index)  # a name the base knows means the base's entity (of those the new papers use)
    return Resolution(
        entities=dict(sorted(entities.items())),
        of_mention={k: target[v] for k, v in own.of_mention.items()},
        of_quantity={k: target[v] for k, v in own.of_quantity.items()},
        by_key=by_key,
    )


def assemble_pending(
    base: BaseGraph, records: Sequence[Extraction], config: LinkConfig | None = None
) -> nx.MultiDiGraph:
    """The delta graph of the pending ``records`` over the base graph ``base`` (module docstring).

    Args:
        base: the build's own graph (``graph.json``, without any earlier delta).
        records: every pending record: papers not in ``base``, and papers of ``base`` with the
            same abstract and more sources.
        config: the build's link settings.

    Returns:
        The delta: new nodes, changed and context base nodes (all attributes), new edges.

    Raises:
        ValueError: a record of a paper in ``base`` whose abstract differs, or two records of
            one paper.
    """
    config = config or LinkConfig()
    ordered = sorted(records, key=lambda e: e.paper.id)
    for a, b in zip(ordered, ordered[1:], strict=False):
        if a.paper.id == b.paper.id:
            raise ValueError(f"two extraction records for paper {a.paper.id!r}")
    new = [e for e in ordered if paper_node(e.paper.id) not in base]
    delta = nx.MultiDiGraph()
    for ext in ordered:
        pnode = paper_node(ext.paper.id)
        if pnode in base:
            d = base.nodes[pnode]
            if d.get("abstract") != ext.paper.abstract:
                raise ValueError(f"paper {ext.paper.id!r} is in the graph with another abstract")
            delta.add_node(pnode, **{**d, "sources": [f"{s.file}:{s.position}" for s in ext.paper.sources]})
    if not new:
        return delta

    res = _resolve_against(base, new)
    own, quantities = paper_graph(new, res)
    for node, d in own.nodes(data=True):
        if node in base:  # an entity the base has: its attributes, counting the new papers too
            d = {**base.nodes[node], "papers": base.nodes[node]["papers"] + d["papers"]}
        delta.add_node(node, **d)
    delta.add_edges_from(own.edges(keys=True, data=True))

    def holds(node: str) -> bool:
        return node in delta or node in base

    for qnode in quantities:
        broader = broader_quantity(delta.nodes[qnode], res)
        if broader is None or broader == qnode or not holds(broader):
            continue
        if (qnode, broader) in base.broader:
            continue
        if broader not in delta:
            delta.add_node(broader, **base.nodes[broader])
        delta.add_edge(qnode, broader, key="broaderQuantity", predicate="broaderQuantity")

    weights = _add_pending_links(base, delta, config, [paper_node(e.paper.id) for e in new])
    _assign_topics(base, delta, [paper_node(e.paper.id) for e in new], weights)
    return delta


def _add_pending_links(
    base: BaseGraph, delta: nx.MultiDiGraph, config: LinkConfig, new: Sequence[str]
) -> dict[tuple[str, str], float]:
    """Each new paper's share links, as a full build ranks its own ``top_k`` (through shared
    concepts and their broader concepts, :mod:`kg.concepts.links`), and those to the base papers
    that would rank it among theirs; returns the summed weight of each linked (new paper, other
    paper). Concepts are entity nodes here (a full build unites the nodes of one term across types)."""
    stats = load_stats()
    n_base = base.papers()
    new_set = set(new)
    limit, limit_base = config.df_limit(n_base + len(new)), config.df_limit(n_base)
    parents: dict[str, set[str]] = defaultdict(set)
    for child, parent in base.concept_parents:
        parents[child].add(parent)
    for u, v, k in delta.edges(keys=True):
        if k == "broader":
            parents[u].add(v)

    def attrs(node: str) -> dict[str, Any]:
        return base.nodes[node] if node in base.nodes else delta.nodes[node]

    above: dict[str, dict[str, int]] = {}

    def ancestors(node: str) -> dict[str, int]:
        if node not in above:
            out: dict[str, int] = {}
            frontier = [node]
            for level in range(1, MAX_LEVEL + 1):
                frontier = [p for n in frontier for p in sorted(parents.get(n, ()))
                            if p not in out and p != node]
                for p in frontier:
                    out.setdefault(p, level)
            above[node] = out
        return above[node]

    def held(pnode: str, salient_only: bool) -> dict[str, int]:
        if pnode in new_set:
            abstract = str(delta.nodes[pnode].get("abstract") or "")
            own = [v for _u, v, d in delta.out_edges(pnode, data=True)
                   if "sentence" in d and (not salient_only or is_salient(abstract, d))]
        else:
            own = list((base.salient_of if salient_only else base.entities_of).get(pnode, ()))
        out = {e: 0 for e in own if attrs(e).get("kind") in SHARE_PROPERTY_OF_TYPE}
        for e in list(out):
            for a, level in ancestors(e).items():
                if out.get(a, 99) > level:
                    out[a] = level
        return out

    holding: dict[str, dict[str, int]] = {p: held(p, False) for p in (*base.entities_of, *new)}
    holding_salient: dict[str, dict[str, int]] = {p: held(p, True) for p in (*base.entities_of, *new)}

    def indexed(holdings: dict[str, dict[str, int]]) -> dict[str, list[tuple[str, int]]]:
        out: dict[str, list[tuple[str, int]]] = defaultdict(list)
        for pnode, terms in holdings.items():
            for node, level in terms.items():
                out[node].append((pnode, level))
        return out

    index, index_salient = indexed(holding), indexed(holding_salient)

    def idf(node: str) -> float:
        d = attrs(node)
        value = d.get("idf")
        return float(value) if value is not None else stats.idf(term_words(str(d.get("canonical", ""))))

    def usable(node: str, n_limit: float, base_only: bool = False) -> bool:
        count = sum(1 for p, _l in index[node] if not base_only or p not in new_set)
        return bool(attrs(node).get("specific", True)) and 2 <= count <= n_limit and idf(node) > 0

    def scored(pnode: str, holdings: dict[str, dict[str, int]], by_node: dict[str, list[tuple[str, int]]]
               ) -> tuple[dict[str, float], dict[str, float]]:
        scores: dict[str, float] = defaultdict(float)
        as_base: dict[str, float] = defaultdict(float)
        for node, level in holdings[pnode].items():
            if not usable(node, limit):
                continue
            in_base = usable(node, limit_base, base_only=True)
            for other, olevel in by_node[node]:
                if other != pnode:
                    part = idf(node) * DISCOUNT ** (level + olevel)
                    scores[other] += part
                    if in_base:
                        as_base[other] += part
        return scores, as_base

    sum_weights: dict[tuple[str, str], float] = defaultdict(float)
    for pnode in new:
        source = holding_salient
        scores, as_base = scored(pnode, holding_salient, index_salient)
        ranked = sorted(scores, key=lambda q: (-round(scores[q], 9), q))
        # The new paper keeps its top_k; a base paper keeps it too when it would rank it among
        # its own, weighed as the base weighed the links it ranks it against.
        kept = ranked[: config.top_k] + [
            q for q in ranked[config.top_k:]
            if q not in new_set and base.would_keep(q, "", pnode, round(as_base[q], 6), config.top_k)
        ]
        if not kept:  # nothing salient shared: its strongest link through any shared concept
            source = holding
            scores, _as_base = scored(pnode, holding, index)
            kept = sorted(scores, key=lambda q: (-round(scores[q], 9), q))[:1]
        mine = source[pnode]
        for other in kept:
            a, b = sorted((pnode, other))
            theirs = source[other]
            rows = sorted((max(mine[n], theirs[n]), -idf(n), str(attrs(n)["canonical"]), n)
                          for n in mine if n in theirs and usable(n, limit))
            if not rows or any(delta.has_edge(a, b, k) for k in SHARE_PROPERTY_OF_TYPE.values()):
                continue  # two new papers that keep each other
            weight = round(sum(idf(n) * DISCOUNT ** (mine[n] + theirs[n]) for *_r, n in rows), 6)
            via = [{"concept": n, "level": level} for level, _i, _c, n in rows]
            names = [str(attrs(n)["label"]) for *_r, n in rows]
            prop = SHARE_PROPERTY_OF_TYPE.get(str(attrs(rows[0][3])["kind"]), "sharesConceptWith")
            if other not in delta:
                delta.add_node(other, **base.nodes[other])
            for n in (r[3] for r in rows):
                if n not in delta:
                    delta.add_node(n, **base.nodes[n])
            delta.add_edge(a, b, key=prop, predicate=prop, weight=weight, shared=names, via=via,
                           label=names[0])
            sum_weights[(pnode, other)] += weight
            if other in new_set:
                sum_weights[(other, pnode)] += weight
    return sum_weights


def _assign_topics(
    base: BaseGraph, delta: nx.MultiDiGraph, new: Sequence[str], weights: dict[tuple[str, str], float]
) -> None:
    """A new paper's topic: the base topic its links to base papers weigh most (ties: the smaller
    topic), else a topic of its own, numbered after the base's."""
    topics = [int(d.get("topic", -1)) for d in base.nodes.values() if d.get("kind") == "Paper"]
    next_topic = max(topics, default=-1) + 1
    by_paper: dict[str, dict[int, float]] = defaultdict(lambda: defaultdict(float))
    for (pnode, other), weight in weights.items():
        if other in base:
            by_paper[pnode][int(base.nodes[other]["topic"])] += weight
    for pnode in new:
        votes = by_paper.get(pnode)
        if votes:
            delta.nodes[pnode]["topic"] = min(votes, key=lambda t: (-round(votes[t], 9), t))
        else:
            delta.nodes[pnode]["topic"] = next_topic
            next_topic += 1


def overlay(base: nx.MultiDiGraph, delta: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """Lay ``delta`` over ``base`` in place: its nodes' attributes replace the base's, its edges
    are added. Returns ``base``."""
    for node, d in delta.nodes(data=True):
        if node in base:
            base.nodes[node].update(d)
        else:
            base.add_node(node, **d)
    base.add_edges_from(delta.edges(keys=True, data=True))
    return base


def delta_counts(base_counts: dict[str, dict[str, int]], base: BaseGraph,
                 delta: nx.MultiDiGraph) -> dict[str, dict[str, int]]:
    """The counts (:func:`kg.graphdir.graph_counts`) of ``base`` overlaid with ``delta``."""
    nodes = dict(base_counts.get("nodes", {}))
    edges = dict(base_counts.get("edges", {}))
    for node, d in delta.nodes(data=True):
        if node not in base:
            nodes[d["kind"]] = nodes.get(d["kind"], 0) + 1
    for _u, _v, key in delta.edges(keys=True):
        edges[key] = edges.get(key, 0) + 1
    return {"nodes": dict(sorted(nodes.items())), "edges": dict(sorted(edges.items()))}

