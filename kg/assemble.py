"""Extraction records → the networkx graph and the RDF graph, from the same records.

:func:`assemble` resolves the records (:mod:`kg.resolve`) and builds one ``nx.MultiDiGraph``
following the graph contract (node ids ``paper:<id>``, ``<Type>:<slug>``, ``bound:<id>:<n>``;
edge key = attribute ``predicate``); :func:`rdf_triples` renders that graph as RDF triples of the
ontology (``schema/ontology.ttl``), with a ``kg:Mention`` (PROV-O) node per paper–entity edge
carrying the evidence, and a ``kg:Link`` per paper–paper edge carrying its weight and the shared
entities. Both are deterministic: the same records give the same nodes, edges and triples in the
same order.

Paper–paper links: for each share type (Method → ``sharesTechniqueWith``, Task →
``sharesTaskWith``, Concept → ``sharesConceptWith``) two papers are linked when they share an
entity of that type; the link weight is the sum over the shared entities of their IDF,
``log((N + 1) / (df + 1))`` with ``N`` papers and ``df`` the papers having the entity. A term in
every paper has IDF 0 and terms in more than ``max_df_ratio`` of the papers (or more than
``max_df`` papers) are not used at all, so a ubiquitous "neural network" links nothing; each paper
keeps its ``top_k`` strongest links per type (a link survives when either end keeps it).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NamedTuple

import networkx as nx
from rdflib import Graph, Literal, URIRef
from rdflib.term import Node

from extractors.bounds import named_quantity
from kg.concepts.hierarchy import build_hierarchy
from kg.concepts.links import add_concept_links, add_regions, paper_terms
from kg.concepts.stats import load_stats
from kg.relgraph import add_relation_edges, evidence_triples
from kg.resolve import Resolution, canonicalize, resolve_entities
from kg.types import Extraction, Mention, Paper
from kg.vocab import (
    CLASSES,
    DCTERMS,
    EDGE_PROPERTIES,
    KG,
    PROV,
    RDF,
    RDFS,
    SDO,
    SHARE_PROPERTY_OF_TYPE,
    SKOS,
    XSD,
    bound_node,
    class_iri,
    extractor_iri,
    link_iri,
    mention_iri,
    node_iri,
    paper_node,
    prop_iri,
    slug,
)

# What a paper does with an entity it mentions, by entity type, when not proposed.
DEFAULT_PROPERTY_OF_TYPE: dict[str, str] = {
    "Method": "uses",
    "Task": "addresses",
    "Dataset": "evaluatesOn",
    "Metric": "measures",
    "Concept": "mentions",
}


@dataclass(frozen=True, slots=True)
class LinkConfig:
    """How paper–paper share links are made (see the module docstring).

    Attributes:
        max_df_ratio: entities in more than this share of the papers are too common to link.
        max_df: entities in more than this many papers are too common to link (bounds the work).
        top_k: links kept per paper and share type (the strongest; kept if either end keeps it).
        resolution: Louvain resolution for topics (higher → more, smaller topics).
        seed: seed of the Louvain random generator (fixed: topics are deterministic).
    """

    max_df_ratio: float = 0.5
    max_df: int = 200
    top_k: int = 10
    resolution: float = 1.0
    seed: int = 42

    def df_limit(self, n_papers: int) -> float:
        """The most papers an entity may be in and still link them, among ``n_papers``."""
        return min(self.max_df, self.max_df_ratio * n_papers)


def link_idf(df: int, n_papers: int, limit: float) -> float:
    """The weight a shared entity in ``df`` of ``n_papers`` papers gives a link:
    ``log((N + 1) / (df + 1))``, or 0 when it is in fewer than 2 or more than ``limit`` papers."""
    value = math.log((n_papers + 1) / (df + 1)) if 2 <= df <= limit else 0.0
    return value if value > 0 else 0.0


def paper_property(mention: Mention) -> str:
    """The paper–entity property a mention supports: ``proposes`` for a proposed entity, else by type."""
    if mention.role == "proposed":
        return "proposes"
    return DEFAULT_PROPERTY_OF_TYPE[mention.type]


def _sentence(paper: Paper, mention: Mention) -> str:
    if 0 <= mention.sentence_start < mention.sentence_end <= len(paper.abstract):
        return paper.abstract[mention.sentence_start : mention.sentence_end].strip()
    return ""


def assemble(
    extractions: Sequence[Extraction],
    config: LinkConfig | None = None,
    resolution: Resolution | None = None,
) -> nx.MultiDiGraph:
    """Build the networkx graph of ``extractions`` (the graph contract).

    Args:
        extractions: one record per paper (ids unique), in any order.
        config: link and topic settings; defaults to :class:`LinkConfig`'s.
        resolution: a precomputed :func:`kg.resolve.resolve_entities` result (else computed).

    Returns:
        The ``nx.MultiDiGraph``; nodes inserted papers → entities → bounds, each sorted by id.

    Raises:
        ValueError: when two records have the same paper id.
    """
    config = config or LinkConfig()
    ordered = sorted(extractions, key=lambda e: e.paper.id)
    for a, b in zip(ordered, ordered[1:], strict=False):
        if a.paper.id == b.paper.id:
            raise ValueError(f"two extraction records for paper {a.paper.id!r}")
    res = resolution or resolve_entities(ordered)
    g, quantities = paper_graph(ordered, res)
    for qnode in quantities:
        broader = broader_quantity(g.nodes[qnode], res)
        if broader is not None and broader != qnode and broader in g:
            g.add_edge(qnode, broader, key="broaderQuantity", predicate="broaderQuantity")

    papers = [paper_node(e.paper.id) for e in ordered]  # sorted: the ids are
    # The concept layer (kg/concepts): hierarchy, specificity, links through shared concepts, regions.
    stats = load_stats()
    hierarchy = build_hierarchy(g, stats, ordered, res.of_mention)
    held = paper_terms(g, hierarchy, papers)  # each paper's terms, for its links and its region
    weights = add_concept_links(g, hierarchy, stats, papers, config.top_k, config.df_limit(len(papers)), held)
    _add_topics(g, config, papers, weights)
    add_regions(g, hierarchy, stats, papers, held)
    return g


def paper_graph(ordered: Sequence[Extraction], res: Resolution) -> tuple[nx.MultiDiGraph, list[str]]:
    """What each paper contributes on its own: its node, the entities it mentions (``papers``:
    how many of ``ordered`` hold each), its bounds and the edges between them; no paper–paper
    links, no topics (every paper's ``topic`` is -1) and no ``broaderQuantity`` edges.

    Args:
        ordered: the records, sorted by paper id.
        res: a resolution covering every mention and bound quantity of ``ordered``.

    Returns:
        The graph (papers → entities → bounds, each sorted by id) and the sorted Metric nodes
        that some bound bounds.
    """
    # Paper → entity statements: (paper node, entity node) → property and supporting mentions.
    statements: dict[tuple[str, str], list[Mention]] = defaultdict(list)
    proposed: set[tuple[str, str]] = set()
    for ext in ordered:
        pnode = paper_node(ext.paper.id)
        for i, mention in enumerate(ext.mentions):
            enode = res.of_mention.get((ext.paper.id, i))
            if enode is None:
                continue
            statements[(pnode, enode)].append(mention)
            if mention.role == "proposed":
                proposed.add((pnode, enode))

    papers_of_entity: dict[str, set[str]] = defaultdict(set)
    for pnode, enode in statements:
        papers_of_entity[enode].add(pnode)

    bound_rows: list[tuple[str, str, dict[str, Any], str | None, str | None]] = []
    for ext in ordered:
        pnode = paper_node(ext.paper.id)
        local_methods = sorted(
            {
                res.of_mention[(ext.paper.id, i)]
                for i, m in enumerate(ext.mentions)
                if m.type == "Method" and (ext.paper.id, i) in res.of_mention
            },
        )
        for n, bound in enumerate(ext.bounds):
            qnode = res.of_quantity.get((ext.paper.id, n))
            snode = _subject_node(bound.subject, local_methods, res) if bound.subject else None
            attrs = {
                "kind": "Bound",
                "label": bound.latex,
                "paper": ext.paper.id,
                "form": bound.form,
                "bound_kind": bound.kind,
                "notation": bound.notation,
                "soft": bool(bound.soft),
                "latex": bound.latex,
                "expr": bound.expr,
                "variables": list(bound.variables),
                "quantity": bound.quantity,
                "subject": bound.subject,
                "attribution": bound.attribution,
                "condition": bound.condition,
                "start": bound.start,
                "end": bound.end,
                "confidence": round(bound.confidence, 4),
                "extractor": bound.extractor,
            }
            bound_rows.append((pnode, bound_node(ext.paper.id, n), attrs, qnode, snode))
            for enode in (qnode, snode):
                if enode is not None:
                    papers_of_entity[enode].add(pnode)

    g = nx.MultiDiGraph()
    for ext in ordered:
        paper = ext.paper
        g.add_node(
            paper_node(paper.id),
            kind="Paper",
            label=paper.title,
            id=paper.id,
            title=paper.title,
            title_derived=paper.title_derived,
            venue=paper.venue,
            year=paper.year,
            abstract=paper.abstract,
            url=paper.url,
            authors=list(paper.authors),
            sources=[f"{s.file}:{s.position}" for s in paper.sources],
            topic=-1,
        )
    for enode, entity in res.entities.items():
        if enode not in papers_of_entity:
            continue
        g.add_node(
            enode,
            kind=entity.type,
            label=entity.label,
            canonical=entity.canonical,
            aliases=list(entity.aliases),
            papers=len(papers_of_entity[enode]),
        )
    for _pnode, bnode, attrs, _q, _s in sorted(bound_rows, key=lambda r: r[1]):
        g.add_node(bnode, **attrs)

    ext_by_node = {paper_node(e.paper.id): e.paper for e in ordered}
    for (pnode, enode), mentions in sorted(statements.items()):
        etype = g.nodes[enode]["kind"]
        prop = "proposes" if (pnode, enode) in proposed else DEFAULT_PROPERTY_OF_TYPE[etype]
        best = min(mentions, key=lambda m: (-m.confidence, m.start, m.end))
        g.add_edge(
            pnode,
            enode,
            key=prop,
            predicate=prop,
            start=best.start,
            end=best.end,
            text=best.text,
            sentence=_sentence(ext_by_node[pnode], best),
            extractor=best.extractor,
            confidence=round(max(m.confidence for m in mentions), 4),
            mentions=len(mentions),
        )
    for pnode, bnode, _attrs, qnode, snode in sorted(bound_rows, key=lambda r: r[1]):
        g.add_edge(pnode, bnode, key="claimsBound", predicate="claimsBound")
        if qnode is not None:
            g.add_edge(bnode, qnode, key="boundsQuantity", predicate="boundsQuantity")
        if snode is not None:
            g.add_edge(bnode, snode, key="boundsSubject", predicate="boundsSubject")
    add_relation_edges(g, ordered, res)
    return g, sorted({r[3] for r in bound_rows if r[3] is not None})


def broader_quantity(attrs: dict[str, Any], res: Resolution) -> str | None:
    """The Metric node a bounded quantity (node attributes ``attrs``) named with qualifiers
    qualifies: "expected regret", "Nash regret" → regret (:func:`extractors.bounds.named_quantity`);
    the caller checks it is in the graph."""
    canonical = str(attrs.get("canonical") or "")
    named = named_quantity(canonical)
    if not named or named == canonical.lower():
        return None
    return res.lookup("Metric", named)


def _subject_node(subject: str, local_methods: Sequence[str], res: Resolution) -> str | None:
    """The Method entity a bound's subject names: a known Method by name, else the paper's
    Method whose name the subject contains (the longest; "the first phased-elimination
    algorithm" → phased-elimination)."""
    direct = res.lookup("Method", subject)
    if direct is not None:
        return direct
    subject_slug = f"-{slug(canonicalize(subject, 'Method'))}-"
    best: tuple[int, str] | None = None
    for enode in local_methods:
        entity = res.entities[enode]
        for name in (entity.canonical, entity.label, *entity.aliases):
            s = slug(name)
            if s and f"-{s}-" in subject_slug and (best is None or (-len(s), enode) < best):
                best = (-len(s), enode)
    return best[1] if best else None


def _add_share_links(
    g: nx.MultiDiGraph, config: LinkConfig, papers: Sequence[str]
) -> dict[tuple[int, int], float]:
    """Add the weighted paper–paper share edges (see the module docstring).

    The pair weights come from one sparse product ``X·Xᵀ`` (X: papers × usable entities, IDF
    values), so the cost is in C, not in Python loops over pairs; only the kept pairs get their
    explanation (the shared entities) computed in Python, and their weight is summed from that
    list so it does not depend on the product's summation order.
    """
    import numpy as np
    from scipy import sparse

    index = {p: i for i, p in enumerate(papers)}
    n_papers = len(papers)
    limit = config.df_limit(n_papers)
    pair_weights: dict[tuple[int, int], float] = defaultdict(float)
    holders: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for u, v in g.edges():
        kind = g.nodes[v]["kind"]
        if kind in SHARE_PROPERTY_OF_TYPE and u in index:
            holders[kind][v].add(u)
    for etype, prop in sorted(SHARE_PROPERTY_OF_TYPE.items()):
        idf: dict[str, float] = {}
        for enode, members in holders[etype].items():
            value = link_idf(len(members), n_papers, limit)
            if value:
                idf[enode] = value
        if not idf:
            continue
        columns = sorted(idf)
        rows: list[int] = []
        cols: list[int] = []
        vals: list[float] = []
        entities_of: dict[str, list[str]] = defaultdict(list)
        for j, enode in enumerate(columns):
            for pnode in holders[etype][enode]:
                rows.append(index[pnode])
                cols.append(j)
                vals.append(idf[enode])
                entities_of[pnode].append(enode)
        x = sparse.csr_matrix((vals, (rows, cols)), shape=(n_papers, len(columns)))
        xb = sparse.csr_matrix((np.ones(len(vals)), (rows, cols)), shape=(n_papers, len(columns)))
        scores = (x @ xb.T).tocsr()
        scores.setdiag(0)
        scores.eliminate_zeros()
        keep: set[tuple[int, int]] = set()
        for i in range(n_papers):
            lo, hi = scores.indptr[i], scores.indptr[i + 1]
            if lo == hi:
                continue
            neighbours = scores.indices[lo:hi]
            weights = np.round(scores.data[lo:hi], 9)
            order = np.lexsort((neighbours, -weights))[: config.top_k]
            keep.update((min(i, int(j)), max(i, int(j))) for j in neighbours[order])
        # Hot on 22k papers (~120k kept pairs per type): sets, sort keys and names made once.
        held = {p: frozenset(es) for p, es in entities_of.items()}
        rank_of = {e: (-idf[e], g.nodes[e]["canonical"]) for e in columns}
        for a, b in sorted(keep):
            pa, pb = papers[a], papers[b]
            shared = sorted(held[pa] & held[pb], key=rank_of.__getitem__)
            weight = round(sum(idf[e] for e in shared), 6)
            pair_weights[(a, b)] += weight
            names = [rank_of[e][1] for e in shared]
            g.add_edge(pa, pb, key=prop, predicate=prop, weight=weight, shared=names)
    return pair_weights


def _add_topics(
    g: nx.MultiDiGraph, config: LinkConfig, papers: Sequence[str], weights: dict[tuple[int, int], float]
) -> None:
    """Louvain communities over the papers (``weights``: the link weights of each pair of paper
    rows, summed over the link types) as ``topic`` on each paper.

    igraph's C implementation (``community_multilevel``) with its random generator seeded from
    ``config.seed``: networkx's pure-Python Louvain took ~35 CPU-s on 22k papers / 400k links,
    this takes ~2. Topics are numbered by size, ties by smallest paper id.
    """
    import random

    import igraph

    pairs = sorted(weights)
    if pairs:
        ig_graph = igraph.Graph(n=len(papers), edges=pairs)
        ig_graph.es["weight"] = [weights[pair] for pair in pairs]
        igraph.set_random_number_generator(random.Random(config.seed))
        try:
            clusters = ig_graph.community_multilevel(weights="weight", resolution=config.resolution)
        finally:
            igraph.set_random_number_generator(random)
        communities = [[papers[i] for i in members] for members in clusters]
    else:
        communities = [[p] for p in papers]
    ranked = sorted((sorted(c) for c in communities), key=lambda c: (-len(c), c[0]))
    for topic, members in enumerate(ranked):
        for pnode in members:
            g.nodes[pnode]["topic"] = topic


# ------------------------------------------------------------------------------------------ RDF


class TypedLiteral(NamedTuple):
    """A literal with an explicit datatype (gYear, anyURI) in :func:`rdf_triples` output."""

    lexical: str
    datatype: str


class Text(str):
    """A string literal in :func:`rdf_triples` output (a plain ``str`` there is an IRI)."""

    __slots__ = ()


# rdf_triples speaks plain Python, not rdflib terms: IRIs are plain ``str``, string literals
# :class:`Text`, numbers and booleans themselves, other datatypes :class:`TypedLiteral`. An
# rdflib term per value (URIRef/Literal construction, their Python-level __eq__ in dict lookups)
# costs more than the rest of the write on the 22k-paper corpus; :func:`to_term` converts.
Obj = str | int | float | bool | TypedLiteral


def _lit(value: Any) -> Any:
    return Text(value) if isinstance(value, str) else value


def decimal_lexical(value: float) -> str:
    """The xsd:decimal lexical form of a float: its shortest repr, never in exponent form.

    Every float kg writes to RDF is a decimal it rounded (a confidence to 4 places, a link weight
    to 6), so it is written as that decimal, digit for digit. Not as xsd:double: rdflib's Turtle
    writer prints a double in 7 significant digits (``1.234568e+01`` for 12.345678) and its
    JSON-LD writer as a JSON number, which a JSON-LD reader turns into another lexical form.

    >>> decimal_lexical(12.345678), decimal_lexical(1e-06), decimal_lexical(2.0)
    ('12.345678', '0.000001', '2.0')
    """
    text = repr(value)
    if "e" not in text and "n" not in text:  # the common case, already a decimal ("inf", "nan" are not)
        return text
    if not math.isfinite(value):
        raise ValueError(f"not a finite number, cannot be an xsd:decimal: {value!r}")
    text = format(Decimal(text), "f")
    return text if "." in text else text + ".0"


def to_term(value: Obj) -> Node:
    """The rdflib term of an :func:`rdf_triples` object (floats are xsd:decimal)."""
    if type(value) is str:
        return URIRef(value)
    if isinstance(value, Text):
        return Literal(str(value))
    if isinstance(value, TypedLiteral):
        return Literal(value.lexical, datatype=URIRef(value.datatype))
    if isinstance(value, float):
        return Literal(decimal_lexical(value), datatype=XSD.decimal)
    return Literal(value)


_TYPE_OF_SHARE = {prop: etype for etype, prop in SHARE_PROPERTY_OF_TYPE.items()}

_BOUND_FIELDS: tuple[tuple[str, str], ...] = (
    ("form", str(KG.boundForm)),
    ("bound_kind", str(KG.boundKind)),
    ("notation", str(KG.notation)),
    ("soft", str(KG.soft)),
    ("latex", str(KG.latex)),
    ("expr", str(KG.expr)),
    ("quantity", str(KG.quantity)),
    ("subject", str(KG.subject)),
    ("attribution", str(KG.attribution)),
    ("condition", str(KG.condition)),
    ("start", str(KG.startOffset)),
    ("end", str(KG.endOffset)),
    ("confidence", str(KG.confidence)),
    ("extractor", str(KG.extractorName)),
)


# The ontology terms rdf_triples writes, looked up once (DefinedNamespace lookups are slow).
_KG_Entity = str(KG.Entity)
_KG_Extractor = str(KG.Extractor)
_KG_Link = str(KG.Link)
_KG_Mention = str(KG.Mention)
_KG_author = str(KG.author)
_KG_canonicalName = str(KG.canonicalName)
_KG_confidence = str(KG.confidence)
_KG_endOffset = str(KG.endOffset)
_KG_extractorName = str(KG.extractorName)
_KG_inputSource = str(KG.inputSource)
_KG_linkProperty = str(KG.linkProperty)
_KG_linksPaper = str(KG.linksPaper)
_KG_mentionCount = str(KG.mentionCount)
_KG_paperCount = str(KG.paperCount)
_KG_refersTo = str(KG.refersTo)
_KG_sentence = str(KG.sentence)
_KG_sharedEntity = str(KG.sharedEntity)
_KG_startOffset = str(KG.startOffset)
_KG_supportsProperty = str(KG.supportsProperty)
_KG_surfaceText = str(KG.surfaceText)
_KG_titleDerived = str(KG.titleDerived)
_KG_topic = str(KG.topic)
_KG_variable = str(KG.variable)
_KG_venue = str(KG.venue)
_KG_weight = str(KG.weight)
_KG_LinkConcept = str(KG.LinkConcept)
_KG_via = str(KG.via)
_KG_viaConcept = str(KG.viaConcept)
_KG_level = str(KG.level)
_KG_linkLabel = str(KG.linkLabel)
# Concept attributes of an entity node (kg/concepts), in the order written.
_CONCEPT_FIELDS: tuple[tuple[str, str], ...] = (
    ("df", str(KG.documentFrequency)),
    ("idf", str(KG.idf)),
    ("specific", str(KG.specific)),
    ("depth", str(KG.depth)),
    ("family", str(KG.family)),
)


_RDF_type = str(RDF.type)
_RDFS_label = str(RDFS.label)
_SDO_ScholarlyArticle = str(SDO.ScholarlyArticle)
_DC_identifier = str(DCTERMS.identifier)
_DC_title = str(DCTERMS.title)
_DC_abstract = str(DCTERMS.abstract)
_DC_date = str(DCTERMS.date)
_DC_source = str(DCTERMS.source)
_PROV_wasDerivedFrom = str(PROV.wasDerivedFrom)
_PROV_wasGeneratedBy = str(PROV.wasGeneratedBy)
_SKOS_prefLabel = str(SKOS.prefLabel)
_SKOS_altLabel = str(SKOS.altLabel)
_XSD_gYear = str(XSD.gYear)
_XSD_anyURI = str(XSD.anyURI)


def rdf_triples(g: nx.MultiDiGraph) -> Iterator[tuple[str, str, Obj]]:
    """The RDF triples of an assembled graph, in graph order (deterministic), each subject's
    triples together.

    Papers, entities and bounds become resources of their ontology class (papers are also
    ``schema:ScholarlyArticle``, entities also ``kg:Entity``); every paper–entity
    edge becomes the direct triple plus a ``kg:Mention`` carrying its evidence (PROV-O
    ``wasDerivedFrom`` the paper, ``wasGeneratedBy`` the extractor); every paper–paper edge the
    direct triple plus a ``kg:Link`` with its weight and shared entities.
    """
    iri: dict[str, str] = {node: str(node_iri(node)) for node in g.nodes}
    succ = g.succ
    props = {prop: str(prop_iri(prop)) for prop in EDGE_PROPERTIES}
    classes = {cls: str(class_iri(cls)) for cls in CLASSES}
    for node, d in g.nodes(data=True):
        s = iri[node]
        kind = d["kind"]
        yield s, _RDF_type, classes[kind]
        yield s, _RDFS_label, _lit(d["label"])
        if kind == "Paper":
            yield s, _RDF_type, _SDO_ScholarlyArticle
            yield s, _DC_identifier, _lit(d["id"])
            yield s, _DC_title, _lit(d["title"])
            yield s, _DC_abstract, _lit(d["abstract"])
            yield s, _KG_titleDerived, _lit(bool(d["title_derived"]))
            yield s, _KG_topic, _lit(int(d["topic"]))
            if d.get("venue"):
                yield s, _KG_venue, _lit(d["venue"])
            if d.get("year") is not None:
                yield s, _DC_date, TypedLiteral(str(d["year"]), _XSD_gYear)
            if d.get("url"):
                yield s, _DC_source, TypedLiteral(d["url"], _XSD_anyURI)
            for author in d.get("authors") or ():
                yield s, _KG_author, _lit(author)
            for source in d.get("sources") or ():
                yield s, _KG_inputSource, _lit(source)
        elif kind == "Bound":
            yield s, _PROV_wasDerivedFrom, iri[paper_node(d["paper"])]
            if d.get("extractor"):
                yield s, _PROV_wasGeneratedBy, str(extractor_iri(d["extractor"]))
            for attr, prop in _BOUND_FIELDS:
                # expr is "" for a verbal bound and still written: every Bound has one
                if d.get(attr) is not None and (d[attr] != "" or attr == "expr"):
                    yield s, prop, _lit(d[attr])
            for var in d.get("variables") or ():
                yield s, _KG_variable, _lit(var)
        else:
            # stated, not only implied by rdfs:subClassOf: SHACL engines and stores without
            # inference see every entity as a kg:Entity (schema/shapes.ttl asks for it)
            yield s, _RDF_type, _KG_Entity
            yield s, _SKOS_prefLabel, _lit(d["label"])
            yield s, _KG_canonicalName, _lit(d["canonical"])
            yield s, _KG_paperCount, _lit(int(d["papers"]))
            for alias in d.get("aliases") or ():
                yield s, _SKOS_altLabel, _lit(alias)
            for attr, prop in _CONCEPT_FIELDS:
                if d.get(attr) is not None:
                    yield s, prop, _lit(d[attr])
        # the node's outgoing edges right after it: each subject's triples stay together
        for v, keys in succ[node].items():
            for key in keys:
                yield s, props[key], iri[v]
    # the adjacency read directly: g.edges' order without a view object per edge
    for u, v, key, d in ((u, v, key, d) for u, nbrs in succ.items() for v, keys in nbrs.items()
                         for key, d in keys.items()):
        s, o, p = iri[u], iri[v], props[key]
        if "sentence" in d:  # paper → entity: its evidence
            m = str(mention_iri(d_paper_id(u), key, v))
            yield m, _RDF_type, _KG_Mention
            yield m, _PROV_wasDerivedFrom, s
            yield m, _KG_refersTo, o
            yield m, _KG_supportsProperty, p
            yield m, _KG_startOffset, _lit(int(d["start"]))
            yield m, _KG_endOffset, _lit(int(d["end"]))
            yield m, _KG_surfaceText, _lit(d["text"])
            yield m, _KG_sentence, _lit(d["sentence"])
            yield m, _KG_confidence, _lit(float(d["confidence"]))
            yield m, _KG_mentionCount, _lit(int(d["mentions"]))
            if d.get("extractor"):
                yield m, _KG_extractorName, _lit(d["extractor"])
                yield m, _PROV_wasGeneratedBy, str(extractor_iri(d["extractor"]))
        elif "shared" in d:  # paper – paper: its explanation
            link = str(link_iri(key, u, v))
            yield link, _RDF_type, _KG_Link
            yield link, _KG_linkProperty, p
            yield link, _KG_linksPaper, s
            yield link, _KG_linksPaper, o
            yield link, _KG_weight, _lit(float(d["weight"]))
            if d.get("via"):  # the concepts it goes through (kg/concepts/links.py)
                if d.get("label"):
                    yield link, _KG_linkLabel, _lit(d["label"])
                concepts = [iri.get(item["concept"]) or str(node_iri(item["concept"])) for item in d["via"]]
                for j, concept in enumerate(concepts):
                    yield link, _KG_sharedEntity, concept
                    yield link, _KG_via, f"{link}-v{j}"
                for j, (concept, item) in enumerate(zip(concepts, d["via"], strict=True)):
                    via = f"{link}-v{j}"  # after the link's own triples: one block per subject
                    yield via, _RDF_type, _KG_LinkConcept
                    yield via, _KG_viaConcept, concept
                    yield via, _KG_level, _lit(int(item["level"]))
                continue
            etype = _TYPE_OF_SHARE[key]
            for name in d["shared"]:
                yield (
                    link,
                    _KG_sharedEntity,
                    iri.get(f"{etype}:{slug(name)}") or str(node_iri(f"{etype}:{slug(name)}")),
                )
        elif "evidence" in d:  # entity → entity: a kg:RelationEvidence per sentence stating it
            yield from evidence_triples(u, v, key, d, iri, p)
    extractors = {d["extractor"] for _n, d in g.nodes(data=True)
                  if d["kind"] == "Bound" and d.get("extractor")}
    extractors.update(d["extractor"] for *_e, d in g.edges(data=True)
                      if ("sentence" in d or "evidence" in d) and d.get("extractor"))
    for name in sorted(extractors):
        yield str(extractor_iri(name)), _RDF_type, _KG_Extractor
        yield str(extractor_iri(name)), _RDFS_label, _lit(name)


def d_paper_id(node: str) -> str:
    """The paper id of a ``paper:<id>`` node id."""
    return node.partition(":")[2]


def to_rdflib(g: nx.MultiDiGraph) -> Graph:
    """The :func:`rdf_triples` of ``g`` in an ``rdflib.Graph`` (with the ontology prefixes bound)."""
    from kg.vocab import PREFIXES

    rdf_graph = Graph(bind_namespaces="none")
    for prefix, ns in PREFIXES.items():
        rdf_graph.bind(prefix, ns)
    rdf_graph.addN((URIRef(s), URIRef(p), to_term(o), rdf_graph) for s, p, o in rdf_triples(g))
    return rdf_graph
