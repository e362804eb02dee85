"""Every ontology term the code uses exists in schema/ontology.ttl; names map one way to Neo4j."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rdflib import OWL, RDF, Graph, URIRef

from kg import vocab
from kg.vocab import KG, KG_NS, SCHEMA_DIR, entity_node, node_iri, node_label, rel_type, slug

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def ontology() -> Graph:
    return Graph().parse(SCHEMA_DIR / "ontology.ttl", format="turtle")


def _declared(ontology: Graph) -> set[str]:
    kinds = (OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty)
    return {
        str(s)[len(KG_NS) :]
        for k in kinds
        for s in ontology.subjects(RDF.type, k)
        if str(s).startswith(KG_NS)
    }


def test_vocab_namespace_terms_are_declared(ontology: Graph) -> None:
    names = set(KG.__annotations__)
    assert names - _declared(ontology) == set()
    assert _declared(ontology) - names == set()


def test_vocab_name_tuples_are_declared(ontology: Graph) -> None:
    declared = _declared(ontology)
    for name in (*vocab.CLASSES, *vocab.OBJECT_PROPERTIES):
        assert name in declared


def test_vocab_every_kg_term_in_the_code_is_declared(ontology: Graph) -> None:
    # Scan the library for KG.<term> uses and any hand-spelled ontology IRI.
    declared = _declared(ontology)
    used: set[str] = set()
    for path in [*(REPO / "kg").rglob("*.py"), *(REPO / "extractors").rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        used.update(re.findall(r"\bKG\.([A-Za-z_]\w*)", text))
        if path.name != "vocab.py":
            assert "w3id.org/kg-abstracts/ontology#" not in text, f"{path} spells an ontology IRI"
    assert used, "the scan found no KG.<term> use at all"
    assert used - declared == set()


def test_vocab_unknown_term_raises() -> None:
    with pytest.raises(AttributeError):
        _ = KG.proposedBy


@pytest.mark.parametrize(
    ("prop", "expected"),
    [
        ("proposes", "PROPOSES"),
        ("evaluatesOn", "EVALUATES_ON"),
        ("claimsBound", "CLAIMS_BOUND"),
        ("boundsQuantity", "BOUNDS_QUANTITY"),
        ("sharesTechniqueWith", "SHARES_TECHNIQUE_WITH"),
    ],
)
def test_vocab_rel_type_is_upper_snake(prop: str, expected: str) -> None:
    assert rel_type(prop) == expected


@pytest.mark.parametrize("bad", ["Proposes", "usedBy", ""])
def test_vocab_rel_type_rejects_unknown(bad: str) -> None:
    with pytest.raises(ValueError):
        rel_type(bad)


def test_vocab_node_label_is_class_name() -> None:
    assert [node_label(c) for c in vocab.CLASSES] == list(vocab.CLASSES)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Stochastic Gradient Descent", "stochastic-gradient-descent"),
        ("f-GRPO", "f-grpo"),
        ("Q-learning", "q-learning"),
        ("  k–means  ", "k-means"),
        ("Gödel machine", "godel-machine"),
    ],
)
def test_vocab_slug(name: str, expected: str) -> None:
    assert slug(name) == expected


@pytest.mark.parametrize(
    ("node", "iri"),
    [
        ("paper:p-5469f1db286b", "https://w3id.org/kg-abstracts/resource/paper/p-5469f1db286b"),
        (
            "Method:stochastic-gradient-descent",
            "https://w3id.org/kg-abstracts/resource/method/stochastic-gradient-descent",
        ),
        ("bound:p-1:3", "https://w3id.org/kg-abstracts/resource/bound/p-1-b3"),
        ("paper:10.1/x y", "https://w3id.org/kg-abstracts/resource/paper/10.1%2Fx%20y"),
    ],
)
def test_vocab_node_iri(node: str, iri: str) -> None:
    assert node_iri(node) == URIRef(iri)


def test_vocab_entity_node_rejects_non_entity_class() -> None:
    assert entity_node("Task", "Image Classification") == "Task:image-classification"
    with pytest.raises(ValueError):
        entity_node("Paper", "x")


def test_vocab_readme_names_every_term() -> None:
    readme = (SCHEMA_DIR / "README.md").read_text(encoding="utf-8")
    missing = [name for name in KG.__annotations__ if f"kg:{name}" not in readme]
    assert missing == []
    for prop in vocab.OBJECT_PROPERTIES:
        assert f"`{rel_type(prop)}`" in readme, prop


def test_turtle_prefixes_an_iri_by_the_longest_namespace_it_starts_with() -> None:
    """The writer finds a term's namespace by cutting at its last "/" or "#": it must give what
    trying every namespace, longest first, gives, for every namespace kg binds."""
    import re

    from kg.graphdir import _iri_text
    from kg.vocab import PREFIXES

    local_ok = re.compile(r"^[A-Za-z0-9_](?:[A-Za-z0-9_\-.]*[A-Za-z0-9_\-])?$")

    def longest_first(term: str) -> str:
        for prefix, ns in sorted(PREFIXES.items(), key=lambda kv: -len(kv[1])):
            if term.startswith(ns):
                return f"{prefix}:{term[len(ns):]}" if local_ok.match(term[len(ns):]) else f"<{term}>"
        return f"<{term}>"

    assert all(ns.endswith(("/", "#")) for ns in PREFIXES.values())
    for ns in PREFIXES.values():
        for local in ("p1", "a.b-c_d", "", "x/y", "x#y", "-x", "x."):
            assert _iri_text(ns + local) == longest_first(ns + local), ns + local
    assert _iri_text("https://example.org/other/x") == "<https://example.org/other/x>"
