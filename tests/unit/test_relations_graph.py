"""Entity → entity relation edges: networkx attributes, RDF evidence, shapes, GraphML, Neo4j rows.

The records are written by hand (mentions and relations at known offsets), so what each export
must hold is read off them, not off the code under test.
"""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
from rdflib import RDF, Literal, URIRef
from rdflib.namespace import PROV

from kg.assemble import assemble, to_rdflib
from kg.graphdir import graph_counts, rdf_counts, validate_rdf
from kg.types import EntityRelation, Extraction, Mention, Paper, TextSpan
from kg.vocab import KG, node_iri

A1 = "We use BERT for question answering. Accuracy on SQuAD evaluates BERT."
A2 = "BERT is used for question answering, and ELMo is a language model."


def _mention(abstract: str, etype: str, text: str, nth: int = 0) -> Mention:
    start = -1
    for _ in range(nth + 1):
        start = abstract.index(text, start + 1)
    sentence_start = abstract.rfind(". ", 0, start)
    sentence_start = 0 if sentence_start < 0 else sentence_start + 2
    sentence_end = abstract.find(".", start) + 1
    return Mention(etype, text, start, start + len(text), text.lower(), None, 0.8, "entities.test.v1",
                   sentence_start, sentence_end)


def _rel(rtype: str, head: Mention, tail: Mention, confidence: float) -> EntityRelation:
    return EntityRelation(
        rtype, TextSpan(head.start, head.end, head.text), TextSpan(tail.start, tail.end, tail.text),
        confidence, "relations.test.v1", head.sentence_start, head.sentence_end,
    )


def _records() -> list[Extraction]:
    bert, qa = _mention(A1, "Method", "BERT"), _mention(A1, "Task", "question answering")
    squad, bert2 = _mention(A1, "Dataset", "SQuAD"), _mention(A1, "Method", "BERT", 1)
    acc = _mention(A1, "Metric", "Accuracy")
    p1 = Extraction(
        Paper("p1", "T1", A1), (bert, qa, acc, squad, bert2),
        relations=(_rel("USED-FOR", bert, qa, 0.7), _rel("EVALUATE-FOR", squad, bert2, 0.6)),
    )
    b, q = _mention(A2, "Method", "BERT"), _mention(A2, "Task", "question answering")
    elmo, lm = _mention(A2, "Method", "ELMo"), _mention(A2, "Method", "language model")
    p2 = Extraction(
        Paper("p2", "T2", A2), (b, q, elmo, lm),
        relations=(_rel("USED-FOR", b, q, 0.9), _rel("HYPONYM-OF", elmo, lm, 0.5)),
    )
    return [p1, p2]


@pytest.fixture(scope="module")
def graph() -> nx.MultiDiGraph:
    return assemble(_records())


def test_relation_edges_carry_evidence_per_paper_and_sentence(graph: nx.MultiDiGraph) -> None:
    d = graph.edges["Method:bert", "Task:question-answering", "usedFor"]
    assert d["predicate"] == "usedFor"
    assert d["papers"] == 2
    assert d["confidence"] == 0.9
    assert d["evidence"] == [
        {"paper": "p1", "start": 0, "end": A1.index(".") + 1, "confidence": 0.7},
        {"paper": "p2", "start": 0, "end": len(A2), "confidence": 0.9},
    ]
    assert A1[d["evidence"][0]["start"] : d["evidence"][0]["end"]] == "We use BERT for question answering."
    assert graph.has_edge("Dataset:squad", "Method:bert", "evaluatedFor")
    assert graph.has_edge("Method:elmo", "Method:language-model", "hyponymOf")
    assert graph_counts(graph)["edges"]["usedFor"] == 1


def test_relation_whose_argument_is_no_mention_gives_no_edge() -> None:
    rec = _records()[1]
    stray = EntityRelation("USED-FOR", TextSpan(0, 2, "BE"), TextSpan(17, 35, "question answering"), 0.9)
    g = assemble([Extraction(rec.paper, rec.mentions, relations=(stray,))])
    assert not [k for _u, _v, k in g.edges(keys=True) if k == "usedFor"]


def test_a_generic_reference_stands_for_the_mention_around_it_and_nothing_else() -> None:
    abstract = "We present an algorithm for learning decision trees. It beats this method on MNIST."
    phrase = _mention(abstract, "Method", "algorithm for learning decision trees")
    task = _mention(abstract, "Task", "learning decision trees")
    mnist = _mention(abstract, "Dataset", "MNIST")
    algorithm = TextSpan(phrase.start, phrase.start + 9, "algorithm", generic=True)
    it = TextSpan(53, 55, "It", generic=True)
    method = TextSpan(abstract.index("method"), abstract.index("method") + 6, "method", generic=True)
    rels = (
        EntityRelation("USED-FOR", algorithm, TextSpan(task.start, task.end, task.text), 0.8),
        EntityRelation("COMPARE", it, method, 0.7),  # neither inside a mention
        EntityRelation("EVALUATE-FOR", TextSpan(mnist.start, mnist.end, "MNIST"), method, 0.6),
    )
    g = assemble([Extraction(Paper("p1", "T", abstract), (phrase, task, mnist), relations=rels)])
    edges = {(u, v, k) for u, v, k in g.edges(keys=True) if k in ("usedFor", "comparedWith", "evaluatedFor")}
    assert len(edges) == 1
    ((u, v, _k),) = edges
    assert g.nodes[u]["label"] == "algorithm for learning decision trees"
    assert g.nodes[v]["label"] == "learning decision trees"


def test_relation_edges_reified_in_rdf(graph: nx.MultiDiGraph) -> None:
    rdf = to_rdflib(graph)
    bert, qa = node_iri("Method:bert"), node_iri("Task:question-answering")
    assert (bert, KG.usedFor, qa) in rdf
    evidence = sorted(rdf.subjects(RDF.type, KG.RelationEvidence))
    assert len(evidence) == 4  # two for usedFor, one each for evaluatedFor and hyponymOf
    used = [e for e in evidence if (e, KG.relationProperty, KG.usedFor) in rdf]
    assert {rdf.value(e, PROV.wasDerivedFrom) for e in used} == {node_iri("paper:p1"), node_iri("paper:p2")}
    for e in used:
        assert rdf.value(e, KG.relationSource) == bert and rdf.value(e, KG.relationTarget) == qa
        assert rdf.value(e, KG.startOffset) == Literal(0)
        assert float(rdf.value(e, KG.confidence)) in (0.7, 0.9)
        assert isinstance(rdf.value(e, PROV.wasGeneratedBy), URIRef)
    assert rdf_counts(rdf) == graph_counts(graph)


@pytest.mark.parametrize("ontology", [True, False], ids=["with-ontology", "data-alone"])
def test_relation_edges_conform_to_the_shapes(graph: nx.MultiDiGraph, ontology: bool) -> None:
    conforms, text = validate_rdf(to_rdflib(graph), ontology=ontology)
    assert conforms, text


def test_shapes_refuse_relation_evidence_without_source(graph: nx.MultiDiGraph) -> None:
    rdf = to_rdflib(graph)
    evidence = next(iter(rdf.subjects(RDF.type, KG.RelationEvidence)))
    rdf.remove((evidence, KG.relationSource, None))
    conforms, _text = validate_rdf(rdf, ontology=False)
    assert not conforms


def test_relation_edges_in_graphml(graph: nx.MultiDiGraph, tmp_path: Path) -> None:
    from kg.export.tables import export_graphml

    export_graphml(graph, tmp_path / "g.graphml")
    back = nx.read_graphml(tmp_path / "g.graphml")
    found = [d for u, v, d in back.edges(data=True)
             if (u, v) == ("Method:bert", "Task:question-answering") and d["predicate"] == "usedFor"]
    assert len(found) == 1
    assert '"paper":"p2"' in found[0]["evidence"] and found[0]["papers"] == "2"


def test_relation_edges_are_neo4j_relationship_rows(graph: nx.MultiDiGraph) -> None:
    from kg.export.neo4j_model import relationship_rows

    rows = {(k.rel_type, k.start_label, k.end_label): r for k, r in relationship_rows(graph).items()}
    used = rows[("USED_FOR", "Method", "Task")]
    assert [(r["start"], r["end"]) for r in used] == [("Method:bert", "Task:question-answering")]
    assert used[0]["props"]["papers"] == 2 and used[0]["props"]["confidence"] == 0.9
    assert len(used[0]["props"]["evidence"]) == 2
    assert ("EVALUATED_FOR", "Dataset", "Method") in rows and ("HYPONYM_OF", "Method", "Method") in rows


def test_extraction_record_round_trips_its_relations() -> None:
    rec = _records()[0]
    obj = rec.to_json()
    assert obj["relations"][0] == {
        "type": "USED-FOR",
        "head": {"start": 7, "end": 11, "text": "BERT"},
        "tail": {"start": 16, "end": 34, "text": "question answering"},
        "confidence": 0.7,
        "extractor": "relations.test.v1",
        "sentence": [0, 35],
    }
    assert Extraction.from_json(obj) == rec


@pytest.mark.parametrize(("confidence", "enters"), [(0.9, True), (0.3, False)])
def test_a_hyponym_relation_enters_the_hierarchy_only_when_likelier_than_not(
    confidence: float, enters: bool
) -> None:
    elmo, lm = _mention(A2, "Method", "ELMo"), _mention(A2, "Method", "language model")
    rec = Extraction(Paper("p2", "T2", A2), (elmo, lm), relations=(_rel("HYPONYM-OF", elmo, lm, confidence),))
    g = assemble([rec])
    assert g.has_edge("Method:elmo", "Method:language-model", "hyponymOf")  # the relation, either way
    broader = g.get_edge_data("Method:elmo", "Method:language-model", "broader") or {}
    assert ("hyponym" in broader.get("sources", ())) is enters
