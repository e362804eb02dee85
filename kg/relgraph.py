"""Entity → entity edges from the relations extracted in each paper, and their RDF evidence.

Each :class:`kg.types.EntityRelation` whose head and tail are mentions the resolution mapped to
two different entity nodes (a generic reference standing for the mention around it: the
"algorithm" of "an algorithm for learning decision trees") gives one piece of evidence for the
edge ``head --prop--> tail`` (``prop`` by :data:`kg.vocab.ENTITY_RELATION_PROPERTY`: ``usedFor``,
``featureOf``, ``hyponymOf``, ``partOf``, ``comparedWith``, ``conjunction``, ``evaluatedFor``).
The edge (key = predicate) carries ``confidence`` (the highest of its evidence), ``papers`` (how
many papers state it), ``extractor`` and ``evidence``: ``{"paper", "start", "end",
"confidence"}`` per paper and sentence, the span being the sentence's in the original abstract,
sorted by paper then offset.

In RDF (:func:`evidence_triples`) the edge is the direct triple ``head kg:usedFor tail`` plus
one ``kg:RelationEvidence`` per evidence entry: ``prov:wasDerivedFrom`` the paper,
``kg:relationProperty``, ``kg:relationSource``, ``kg:relationTarget``, the sentence's
``kg:startOffset`` / ``kg:endOffset``, ``kg:confidence`` and ``prov:wasGeneratedBy`` the extractor.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import networkx as nx

from kg.resolve import Resolution
from kg.types import Extraction, TextSpan
from kg.vocab import (
    ENTITY_RELATION_PROPERTY,
    KG,
    PROV,
    RDF,
    extractor_iri,
    node_iri,
    paper_node,
    relation_iri,
)

_RDF_type = str(RDF.type)
_KG_RelationEvidence = str(KG.RelationEvidence)
_KG_relationProperty = str(KG.relationProperty)
_KG_relationSource = str(KG.relationSource)
_KG_relationTarget = str(KG.relationTarget)
_KG_startOffset = str(KG.startOffset)
_KG_endOffset = str(KG.endOffset)
_KG_confidence = str(KG.confidence)
_PROV_wasDerivedFrom = str(PROV.wasDerivedFrom)
_PROV_wasGeneratedBy = str(PROV.wasGeneratedBy)


def add_relation_edges(g: nx.MultiDiGraph, ordered: Sequence[Extraction], res: Resolution) -> None:
    """Add the entity → entity edges of ``ordered``'s relations to ``g`` (both ends already nodes)."""
    found: dict[tuple[str, str, str], dict[tuple[str, int, int], float]] = defaultdict(dict)
    extractor: dict[tuple[str, str, str], str] = {}
    for ext in ordered:
        if not ext.relations:
            continue
        pid = ext.paper.id
        node_at: dict[tuple[int, int], str] = {}
        for i, m in enumerate(ext.mentions):
            enode = res.of_mention.get((pid, i))
            if enode is not None:
                node_at.setdefault((m.start, m.end), enode)
        for rel in ext.relations:
            prop = ENTITY_RELATION_PROPERTY.get(rel.type)
            head = _node_of(rel.head, node_at)
            tail = _node_of(rel.tail, node_at)
            if prop is None or head is None or tail is None or head == tail:
                continue
            if head not in g or tail not in g:
                continue
            key = (head, tail, prop)
            span = (pid, rel.sentence_start, rel.sentence_end)
            found[key][span] = max(found[key].get(span, 0.0), rel.confidence)
            extractor.setdefault(key, rel.extractor)
    for (head, tail, prop), spans in sorted(found.items()):
        evidence = [
            {"paper": pid, "start": start, "end": end, "confidence": round(conf, 4)}
            for (pid, start, end), conf in sorted(spans.items())
        ]
        g.add_edge(
            head,
            tail,
            key=prop,
            predicate=prop,
            confidence=round(max(spans.values()), 4),
            papers=len({e["paper"] for e in evidence}),
            evidence=evidence,
            extractor=extractor[(head, tail, prop)],
        )


def _node_of(arg: TextSpan, node_at: Mapping[tuple[int, int], str]) -> str | None:
    """The entity node of a relation argument: the mention at its span; for a generic reference
    ("an *algorithm* for learning decision trees"), the shortest mention around it, the phrase
    whose head it is (a generic reference is found only outside the mentions the relation step
    reads, so only a mention that contains others can hold one)."""
    node = node_at.get((arg.start, arg.end))
    if node is not None or not arg.generic:
        return node
    around = [(e - s, s, node) for (s, e), node in node_at.items() if s <= arg.start and arg.end <= e]
    return min(around)[2] if around else None


def evidence_triples(
    u: str, v: str, key: str, d: dict[str, Any], iri: dict[str, str], prop: str
) -> Iterator[tuple[str, str, Any]]:
    """The ``kg:RelationEvidence`` triples of one entity → entity edge (objects as
    :func:`kg.assemble.rdf_triples` yields them: IRIs as ``str``, literals wrapped)."""
    for ev in d["evidence"]:
        node = str(relation_iri(key, u, v, ev["paper"], ev["start"]))
        yield node, _RDF_type, _KG_RelationEvidence
        pnode = paper_node(ev["paper"])
        yield node, _PROV_wasDerivedFrom, iri.get(pnode) or str(node_iri(pnode))
        yield node, _KG_relationProperty, prop
        yield node, _KG_relationSource, iri[u]
        yield node, _KG_relationTarget, iri[v]
        if ev["start"] >= 0:
            yield node, _KG_startOffset, int(ev["start"])
            yield node, _KG_endOffset, int(ev["end"])
        yield node, _KG_confidence, float(ev["confidence"])
        if d.get("extractor"):
            yield node, _PROV_wasGeneratedBy, str(extractor_iri(d["extractor"]))
