"""Assembly: the networkx graph of the contract, its RDF rendering, links, topics, determinism."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from rdflib import RDF
from rdflib.compare import isomorphic

from kg.assemble import LinkConfig, assemble, rdf_triples, to_rdflib
from kg.graphdir import (
    graph_counts,
    load_nx,
    load_rdf,
    rdf_counts,
    turtle_lines,
    validate_rdf,
    write_graph_dir,
)
from kg.types import Bound, Extraction, Mention, Paper
from kg.vocab import KG


def _paper(
    pid: str, abstract: str, *mentions: tuple[str, str, str | None], bounds: tuple[Bound, ...] = ()
) -> Extraction:
    """mentions: (type, text, role); each located at its first occurrence, sentence = whole text."""
    out = []
    for etype, text, role in mentions:
        start = abstract.index(text)
        out.append(
            Mention(
                etype,
                text,
                start,
                start + len(text),
                text.lower(),
                role,
                0.9,
                "entities.test.v1",
                0,
                len(abstract),
            )
        )
    return Extraction(
        Paper(pid, f"Title {pid}", abstract, venue="NeurIPS", year=2026, authors=("Ada L",)),
        tuple(out),
        bounds,
    )


BATCHED = (
    "We prove $\\Omega(B d)$ regret is unavoidable. The first phased elimination algorithm "
    "achieves $\\widetilde{O}(dB + d\\sqrt{T})$ regret."
)


def _bound(latex: str, kind: str, quantity: str | None, subject: str | None) -> Bound:
    start = BATCHED.index(latex)
    return Bound(
        "formula",
        kind,
        "O",
        kind == "upper",
        latex,
        "expr",
        ("B", "d"),
        quantity,
        subject,
        "this",
        None,
        start,
        start + len(latex),
        0.8,
        "bounds.test.v1",
    )


CORPUS = [
    _paper(
        "p1",
        "A transformer with LoRA for summarization.",
        ("Method", "transformer", "used"),
        ("Method", "LoRA", "used"),
        ("Task", "summarization", None),
    ),
    _paper(
        "p2",
        "We propose LoRA-X, a transformer using LoRA for summarization.",
        ("Method", "LoRA-X", "proposed"),
        ("Method", "transformer", None),
        ("Method", "LoRA", "used"),
        ("Task", "summarization", None),
    ),
    _paper(
        "p3",
        "A transformer trained with RLHF for summarization.",
        ("Method", "transformer", None),
        ("Method", "RLHF", "used"),
        ("Task", "summarization", None),
    ),
    _paper(
        "p4",
        "A transformer trained with RLHF on ImageNet, measuring accuracy.",
        ("Method", "transformer", None),
        ("Method", "RLHF", "used"),
        ("Dataset", "ImageNet", None),
        ("Metric", "accuracy", None),
    ),
    _paper(
        "p5", "A transformer for translation.", ("Method", "transformer", None), ("Task", "translation", None)
    ),
    _paper(
        "p6",
        "A transformer for translation and phased elimination.",
        ("Method", "transformer", None),
        ("Task", "translation", None),
    ),
    _paper(
        "p7",
        BATCHED,
        ("Method", "phased elimination algorithm", "proposed"),
        bounds=(
            _bound("$\\Omega(B d)$", "lower", "regret", None),
            _bound(
                "$\\widetilde{O}(dB + d\\sqrt{T})$",
                "upper",
                "regret",
                "The first phased elimination algorithm",
            ),
        ),
    ),
]


@pytest.fixture(scope="module")
def graph():  # noqa: ANN201
    return assemble(CORPUS)


def test_assemble_node_ids_and_kinds(graph) -> None:  # noqa: ANN001
    # the entities some paper mentions (broader concepts no paper mentions have papers == 0)
    kinds = Counter(d["kind"] for _n, d in graph.nodes(data=True) if d.get("papers", 1) > 0)
    assert kinds == {"Paper": 7, "Method": 5, "Task": 2, "Dataset": 1, "Metric": 2, "Bound": 2}
    assert graph.nodes["paper:p1"]["title"] == "Title p1"
    assert graph.nodes["Method:lora"]["papers"] == 2
    assert graph.nodes["Method:transformer"]["papers"] == 6
    assert set(graph.nodes) >= {
        "Method:lora-x",
        "Task:summarization",
        "Dataset:imagenet",
        "Metric:accuracy",
        "Metric:regret",
        "bound:p7:0",
        "bound:p7:1",
    }


@pytest.mark.parametrize(
    ("source", "target", "predicate"),
    [
        ("paper:p2", "Method:lora-x", "proposes"),
        ("paper:p2", "Method:lora", "uses"),
        ("paper:p2", "Method:transformer", "uses"),
        ("paper:p1", "Task:summarization", "addresses"),
        ("paper:p4", "Dataset:imagenet", "evaluatesOn"),
        ("paper:p4", "Metric:accuracy", "measures"),
        ("paper:p7", "bound:p7:0", "claimsBound"),
        ("bound:p7:0", "Metric:regret", "boundsQuantity"),
        ("bound:p7:1", "Method:phased-elimination-algorithm", "boundsSubject"),
    ],
)
def test_assemble_edges_by_role_and_type(graph, source: str, target: str, predicate: str) -> None:  # noqa: ANN001
    assert list(graph[source][target]) == [predicate]
    assert graph[source][target][predicate]["predicate"] == predicate


def test_assemble_lower_bound_has_no_subject(graph) -> None:  # noqa: ANN001
    assert [k for _u, _v, k in graph.out_edges("bound:p7:0", keys=True)] == ["boundsQuantity"]
    assert graph.nodes["bound:p7:0"]["bound_kind"] == "lower"
    assert graph.nodes["bound:p7:1"]["soft"] is True


def test_assemble_edge_evidence(graph) -> None:  # noqa: ANN001
    edge = graph["paper:p4"]["Dataset:imagenet"]["evaluatesOn"]
    abstract = graph.nodes["paper:p4"]["abstract"]
    assert abstract[edge["start"] : edge["end"]] == edge["text"] == "ImageNet"
    assert edge["sentence"] == abstract
    assert (edge["extractor"], edge["confidence"], edge["mentions"]) == ("entities.test.v1", 0.9, 1)


def test_assemble_ubiquitous_method_links_nothing(graph) -> None:  # noqa: ANN001
    # "transformer" is in 6 of 7 papers: no link goes through it; p5–p6 share only it and a
    # rare task, so their link is the task one.
    links = {(u, v): (k, d) for u, v, k, d in graph.edges(keys=True, data=True) if "via" in d}
    assert all("Method:transformer" not in [i["concept"] for i in d["via"]] for _k, d in links.values())
    assert links[("paper:p1", "paper:p2")][0] == "sharesTechniqueWith"
    assert links[("paper:p1", "paper:p2")][1]["shared"] == ["LoRA", "summarization"]
    assert links[("paper:p3", "paper:p4")][1]["label"] == "RLHF"
    assert list(graph["paper:p5"]["paper:p6"]) == ["sharesTaskWith"]


def test_assemble_link_weight_is_reference_idf(graph) -> None:  # noqa: ANN001
    import math

    from kg.concepts.stats import load_stats

    stats = load_stats()

    def idf(name: str) -> float:  # log((N + 1) / (df + 1)) over the reference corpus
        return math.log((stats.n_docs + 1) / (stats.df(tuple(name.split())) + 1))

    # p1, p2 both hold LoRA and summarization (level 0: full IDF each)
    assert graph["paper:p1"]["paper:p2"]["sharesTechniqueWith"]["weight"] == pytest.approx(
        idf("lora") + idf("summarization"), abs=1e-5
    )
    # p3, p4 both hold RLHF, and through it its family (level 1 in each: a quarter of its IDF)
    d = graph["paper:p3"]["paper:p4"]["sharesTechniqueWith"]
    assert d["via"] == [{"concept": "Method:rlhf", "level": 0},
                        {"concept": "Method:large-language-models", "level": 1}]
    assert d["weight"] == pytest.approx(idf("rlhf") + idf("large language model") / 4, abs=1e-5)


def test_assemble_share_edges_stored_once_per_pair(graph) -> None:  # noqa: ANN001
    for u, v, k in graph.edges(keys=True):
        if k.startswith("shares"):
            assert u < v and not graph.has_edge(v, u, k)


def test_assemble_max_df_ratio_drops_common_terms() -> None:
    # with a 0.2 ratio (1.4 of 7 papers) nothing shared by two papers may link
    g = assemble(CORPUS, LinkConfig(max_df_ratio=0.2))
    assert [k for _u, _v, k in g.edges(keys=True) if k.startswith("shares")] == []


def test_assemble_topics_follow_links(graph) -> None:  # noqa: ANN001
    topic = {n: d["topic"] for n, d in graph.nodes(data=True) if d["kind"] == "Paper"}
    assert topic["paper:p5"] == topic["paper:p6"]
    assert topic["paper:p7"] not in {topic[p] for p in topic if p != "paper:p7"}
    assert sorted(set(topic.values())) == list(range(len(set(topic.values()))))


def test_assemble_rdf_agrees_with_networkx(graph) -> None:  # noqa: ANN001
    rdf_graph = to_rdflib(graph)
    # counted by hand from CORPUS (see the edge cases above)
    expected = {
        # Method: 5 mentioned + 6 broader (elimination; the families of phased elimination, RLHF
        # and transformer and theirs: bandits, RL, LLMs, neural networks, machine learning)
        "nodes": {"Bound": 2, "Dataset": 1, "Method": 11, "Metric": 2, "Paper": 7, "Task": 2},
        "edges": {
            "addresses": 5,
            "boundsQuantity": 2,
            "boundsSubject": 1,
            "broader": 8,
            "claimsBound": 2,
            "evaluatesOn": 1,
            "measures": 1,
            "proposes": 2,
            # one link per pair: p1–p3, p2–p3 (summarization), p5–p6 (translation)
            "sharesTaskWith": 3,
            # p1–p2 (LoRA), p3–p4 (RLHF)
            "sharesTechniqueWith": 2,
            "uses": 10,
        },
    }
    assert rdf_counts(rdf_graph) == graph_counts(graph) == expected
    # one Mention (evidence) per paper–entity edge
    assert len(set(rdf_graph.subjects(RDF.type, KG.Mention))) == 5 + 1 + 1 + 2 + 10


@pytest.mark.parametrize("ontology", [True, False], ids=["with-ontology", "data-alone"])
def test_assemble_rdf_validates_against_shapes(graph, ontology: bool) -> None:  # noqa: ANN001
    conforms, text = validate_rdf(to_rdflib(graph), ontology=ontology)
    assert conforms, text


def test_assemble_rdf_states_every_entity_is_a_kg_entity(graph) -> None:  # noqa: ANN001
    from kg.vocab import ENTITY_CLASSES, class_iri

    rdf_graph = to_rdflib(graph)
    typed = {s for cls in ENTITY_CLASSES for s in rdf_graph.subjects(RDF.type, class_iri(cls))}
    assert typed and set(rdf_graph.subjects(RDF.type, KG.Entity)) == typed
    # without the statement only the ontology's rdfs:subClassOf makes them entities
    rdf_graph.remove((None, RDF.type, KG.Entity))
    assert validate_rdf(rdf_graph, ontology=True)[0]
    conforms, text = validate_rdf(rdf_graph, ontology=False)
    assert not conforms and "Value does not have class kg:Entity" in text


def test_assemble_shapes_catch_a_paper_without_title(graph) -> None:  # noqa: ANN001
    from kg.vocab import DCTERMS, node_iri

    rdf_graph = to_rdflib(graph)
    rdf_graph.remove((node_iri("paper:p1"), DCTERMS.title, None))
    conforms, text = validate_rdf(rdf_graph)
    assert not conforms
    assert "Focus Node: paper:p1" in text and "Result Path: dcterms:title" in text


def test_assemble_is_deterministic_whatever_the_record_order() -> None:
    a = "".join(turtle_lines(rdf_triples(assemble(CORPUS))))
    b = "".join(turtle_lines(rdf_triples(assemble(list(reversed(CORPUS))))))
    assert a == b


def test_assemble_graph_dir_round_trips(tmp_path: Path, graph) -> None:  # noqa: ANN001
    out = write_graph_dir(tmp_path / "g", CORPUS, graph, rdf_triples(graph), {"inputs": {}})
    assert isomorphic(load_rdf(out), to_rdflib(graph))
    loaded = load_nx(out)
    assert sorted(loaded.nodes(data=True)) == sorted(graph.nodes(data=True))
    assert sorted(loaded.edges(keys=True, data=True)) == sorted(graph.edges(keys=True, data=True))


def test_assemble_graph_dir_bytes_are_stable(tmp_path: Path, graph) -> None:  # noqa: ANN001
    first = write_graph_dir(tmp_path / "a", CORPUS, graph, rdf_triples(graph), {"inputs": {}})
    second = write_graph_dir(
        tmp_path / "b",
        list(reversed(CORPUS)),
        assemble(list(reversed(CORPUS))),
        rdf_triples(assemble(CORPUS)),
        {"inputs": {}},
    )
    for name in ("graph.ttl", "graph.json", "extractions.jsonl", "manifest.json"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_assemble_rejects_duplicate_paper_ids() -> None:
    with pytest.raises(ValueError, match="p1"):
        assemble([CORPUS[0], CORPUS[0]])


def test_assemble_graph_json_is_networkx_node_link(tmp_path: Path, graph) -> None:  # noqa: ANN001
    import networkx as nx
    import orjson

    out = write_graph_dir(tmp_path / "g", CORPUS, graph, rdf_triples(graph), {})
    expected = orjson.dumps(nx.node_link_data(graph, edges="edges"), option=orjson.OPT_SORT_KEYS) + b"\n"
    assert (out / "graph.json").read_bytes() == expected


def test_rdf_triples_keep_each_subject_together(graph) -> None:  # noqa: ANN001
    """The Turtle writer streams one block per run of a subject: a subject met again later would
    be written twice."""
    triples = list(rdf_triples(graph))
    runs = [s for k, (s, _p, _o) in enumerate(triples) if k == 0 or triples[k - 1][0] != s]
    assert len(runs) == len(set(runs))


def test_graph_dir_a_failing_turtle_write_leaves_nothing(tmp_path: Path, graph) -> None:  # noqa: ANN001
    from kg.errors import GraphDirError

    def failing():  # noqa: ANN202
        yield from list(rdf_triples(graph))[:10]
        raise OSError(28, "No space left on device")

    with pytest.raises(GraphDirError, match=r"cannot write the build directory: .*No space left on device"):
        write_graph_dir(tmp_path / "g", CORPUS, graph, failing(), {})
    assert list(tmp_path.iterdir()) == []


def test_assemble_links_a_qualified_quantity_to_the_one_it_qualifies() -> None:
    """bounds.latex.v6 names "expected regret", "Nash regret": each links the regret Metric when a
    bound of the graph bounds regret itself, and nothing when none does."""
    regret = _bound("$\\Omega(B d)$", "lower", "regret", None)
    expected = _bound("$\\widetilde{O}(dB + d\\sqrt{T})$", "upper", "expected regret", None)
    nash = _bound("$\\widetilde{O}(dB + d\\sqrt{T})$", "upper", "Nash regret", None)
    g = assemble([_paper("p1", BATCHED, bounds=(regret,)), _paper("p2", BATCHED, bounds=(expected, nash))])
    broader = sorted((u, v) for u, v, k in g.edges(keys=True) if k == "broaderQuantity")
    assert broader == [("Metric:expected-regret", "Metric:regret"), ("Metric:nash-regret", "Metric:regret")]
    alone = assemble([_paper("p2", BATCHED, bounds=(expected,))])
    assert [k for _u, _v, k in alone.edges(keys=True) if k == "broaderQuantity"] == []
