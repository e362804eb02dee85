"""The ontology's names, in one place: classes, properties, IRIs and their Neo4j forms.

Code never spells an IRI or a label by hand; it asks this module. A test checks that every
term used here exists in ``schema/ontology.ttl``.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from pathlib import Path
from urllib.parse import quote

from rdflib import URIRef
from rdflib.namespace import DCTERMS, PROV, RDF, RDFS, SDO, SKOS, XSD, DefinedNamespace, Namespace

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema"
KG_NS = "https://w3id.org/kg-abstracts/ontology#"
DATA_NS = "https://w3id.org/kg-abstracts/resource/"

ENTITY_CLASSES: tuple[str, ...] = ("Method", "Task", "Dataset", "Metric", "Concept")
CLASSES: tuple[str, ...] = ("Paper", *ENTITY_CLASSES, "Bound", "Mention")

# What a paper does with an entity, per entity type and role.
PAPER_ENTITY_PROPERTIES: tuple[str, ...] = (
    "proposes",
    "uses",
    "addresses",
    "evaluatesOn",
    "measures",
    "mentions",
)
PAPER_PAPER_PROPERTIES: tuple[str, ...] = (
    "sharesTechniqueWith",
    "sharesTaskWith",
    "sharesConceptWith",
)
BOUND_PROPERTIES: tuple[str, ...] = ("claimsBound", "boundsQuantity", "boundsSubject", "broaderQuantity")
# Entity → entity relations read in one sentence (extractors/relations.py), by SciERC type: the
# head of the relation is the edge's source ("A USED-FOR B": A usedFor B).
ENTITY_RELATION_PROPERTY: dict[str, str] = {
    "USED-FOR": "usedFor",
    "FEATURE-OF": "featureOf",
    "HYPONYM-OF": "hyponymOf",
    "PART-OF": "partOf",
    "COMPARE": "comparedWith",
    "CONJUNCTION": "conjunction",
    "EVALUATE-FOR": "evaluatedFor",
}
ENTITY_ENTITY_PROPERTIES: tuple[str, ...] = tuple(ENTITY_RELATION_PROPERTY.values())
OBJECT_PROPERTIES: tuple[str, ...] = (
    *PAPER_ENTITY_PROPERTIES,
    *BOUND_PROPERTIES,
    *PAPER_PAPER_PROPERTIES,
    *ENTITY_ENTITY_PROPERTIES,
)
# SKOS properties between entities (networkx edge key → term): the concept hierarchy.
SKOS_PROPERTIES: dict[str, URIRef] = {"broader": SKOS.broader}
# Every edge key of the graph with an RDF property and a Neo4j relationship type.
EDGE_PROPERTIES: tuple[str, ...] = (*OBJECT_PROPERTIES, *SKOS_PROPERTIES)
# Which paper–entity property carries which entity type into which paper–paper link.
SHARE_PROPERTY_OF_TYPE: dict[str, str] = {
    "Method": "sharesTechniqueWith",
    "Task": "sharesTaskWith",
    "Concept": "sharesConceptWith",
}


class KG(DefinedNamespace):
    """The kg ontology terms (``schema/ontology.ttl``); an unknown attribute raises.

    >>> str(KG.proposes)
    'https://w3id.org/kg-abstracts/ontology#proposes'
    """

    _NS = Namespace(KG_NS)
    _fail = True

    # classes
    Paper: URIRef
    Entity: URIRef
    Method: URIRef
    Task: URIRef
    Dataset: URIRef
    Metric: URIRef
    Concept: URIRef
    Bound: URIRef
    Mention: URIRef
    Extractor: URIRef
    Link: URIRef
    RelationEvidence: URIRef
    LinkConcept: URIRef
    # object properties
    paperEntityProperty: URIRef
    proposes: URIRef
    uses: URIRef
    addresses: URIRef
    evaluatesOn: URIRef
    measures: URIRef
    mentions: URIRef
    claimsBound: URIRef
    boundsQuantity: URIRef
    boundsSubject: URIRef
    broaderQuantity: URIRef
    sharesEntityWith: URIRef
    sharesTechniqueWith: URIRef
    sharesTaskWith: URIRef
    sharesConceptWith: URIRef
    refersTo: URIRef
    supportsProperty: URIRef
    linkProperty: URIRef
    linksPaper: URIRef
    sharedEntity: URIRef
    entityRelationProperty: URIRef
    usedFor: URIRef
    featureOf: URIRef
    hyponymOf: URIRef
    partOf: URIRef
    comparedWith: URIRef
    conjunction: URIRef
    evaluatedFor: URIRef
    relationProperty: URIRef
    relationSource: URIRef
    relationTarget: URIRef
    via: URIRef
    viaConcept: URIRef
    # datatype properties
    venue: URIRef
    author: URIRef
    titleDerived: URIRef
    topic: URIRef
    inputSource: URIRef
    canonicalName: URIRef
    paperCount: URIRef
    startOffset: URIRef
    endOffset: URIRef
    confidence: URIRef
    surfaceText: URIRef
    sentence: URIRef
    mentionCount: URIRef
    boundForm: URIRef
    boundKind: URIRef
    notation: URIRef
    soft: URIRef
    latex: URIRef
    expr: URIRef
    variable: URIRef
    quantity: URIRef
    subject: URIRef
    attribution: URIRef
    condition: URIRef
    extractorName: URIRef
    weight: URIRef
    level: URIRef
    linkLabel: URIRef
    documentFrequency: URIRef
    idf: URIRef
    specific: URIRef
    depth: URIRef
    family: URIRef


# The other vocabularies the graph uses, re-exported so callers import names from one module.
__all__ = [
    "DCTERMS",
    "KG",
    "PROV",
    "RDF",
    "RDFS",
    "SDO",
    "SKOS",
    "XSD",
    "PREFIXES",
    "rel_type",
    "node_label",
    "prop_iri",
    "class_iri",
    "slug",
    "paper_node",
    "entity_node",
    "bound_node",
    "node_iri",
    "mention_iri",
    "extractor_iri",
    "link_iri",
    "relation_iri",
]

# Resource namespaces, one per node kind, so graph.ttl can write `paper:p-…`, `Method:sgd`.
_RESOURCE_PREFIX: dict[str, str] = {
    "paper": "paper",
    **{cls: cls.lower() for cls in ENTITY_CLASSES},
    "bound": "bound",
    "mention": "mention",
    "extractor": "extractor",
    "link": "link",
    "relation": "relation",
}
PREFIXES: dict[str, str] = {
    "kg": KG_NS,
    "rdf": str(RDF),
    "rdfs": str(RDFS),
    "xsd": str(XSD),
    "dcterms": str(DCTERMS),
    "skos": str(SKOS),
    "prov": str(PROV),
    "schema": str(SDO),
    **{name: f"{DATA_NS}{path}/" for name, path in _RESOURCE_PREFIX.items()},
}


def rel_type(prop: str) -> str:
    """The Neo4j relationship type of an ontology property: its UPPER_SNAKE form.

    >>> rel_type("sharesTechniqueWith")
    'SHARES_TECHNIQUE_WITH'
    """
    if prop not in OBJECT_PROPERTIES and prop not in SKOS_PROPERTIES:
        raise ValueError(f"not an ontology object property: {prop!r}")
    return re.sub(r"(?<!^)(?=[A-Z])", "_", prop).upper()


def node_label(cls: str) -> str:
    """The Neo4j label of an ontology class: the class name itself."""
    if cls not in CLASSES:
        raise ValueError(f"not an ontology class: {cls!r}")
    return cls


def prop_iri(prop: str) -> URIRef:
    """The IRI of an ontology object property name (``"proposes"`` → ``kg:proposes``;
    ``"broader"`` → ``skos:broader``)."""
    if prop in SKOS_PROPERTIES:
        return SKOS_PROPERTIES[prop]
    if prop not in OBJECT_PROPERTIES:
        raise ValueError(f"not an ontology object property: {prop!r}")
    return URIRef(KG_NS + prop)


def class_iri(cls: str) -> URIRef:
    """The IRI of an ontology class name (``"Method"`` → ``kg:Method``)."""
    if cls not in CLASSES:
        raise ValueError(f"not an ontology class: {cls!r}")
    return URIRef(KG_NS + cls)


_NON_SLUG = re.compile(r"[^a-z0-9]+")


# A 22k-paper build slugs ~400k distinct names several times over: the cache must hold them all.
@functools.lru_cache(maxsize=1 << 20)
def slug(name: str) -> str:
    """A stable, IRI-safe slug of a canonical name; the entity id is derived from it.

    Accents are folded, everything else that is not a letter or digit becomes one hyphen;
    a name with no ASCII letter or digit at all (e.g. CJK) keeps its characters, percent-
    encoded later in the IRI.

    >>> slug("Stochastic Gradient Descent (SGD)")
    'stochastic-gradient-descent-sgd'
    >>> slug("f-GRPO")
    'f-grpo'
    """
    if name.isascii():  # most names: no accents to fold, the same result without NFKD
        out = _NON_SLUG.sub("-", name.lower()).strip("-")
        return out or re.sub(r"\s+", "-", name.strip().lower())
    # Punctuation (en dashes, middle dots) separates words before accents are folded away.
    spaced = "".join(
        c if c.isalnum() else " " for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)
    )
    folded = spaced.encode("ascii", "ignore").decode("ascii")
    out = _NON_SLUG.sub("-", folded.lower()).strip("-")
    if out:
        return out
    return re.sub(r"\s+", "-", name.strip().lower())


def paper_node(paper_id: str) -> str:
    """The networkx node id of a paper: ``paper:<id>``."""
    return f"paper:{paper_id}"


def entity_node(entity_type: str, canonical: str) -> str:
    """The networkx node id of an entity: ``<Type>:<slug of canonical>``."""
    if entity_type not in ENTITY_CLASSES:
        raise ValueError(f"not an entity class: {entity_type!r}")
    return f"{entity_type}:{slug(canonical)}"


def bound_node(paper_id: str, n: int) -> str:
    """The networkx node id of a paper's n-th bound: ``bound:<paper id>:<n>``."""
    return f"bound:{paper_id}:{n}"


@functools.lru_cache(maxsize=1 << 18)
def _local(value: str) -> str:
    return quote(value, safe="-._~")


def node_iri(node: str) -> URIRef:
    """The RDF resource IRI of a networkx node id (paper, entity or bound).

    >>> str(node_iri("Method:sgd"))
    'https://w3id.org/kg-abstracts/resource/method/sgd'
    """
    head, _, rest = node.partition(":")
    if head == "paper":
        return URIRef(f"{DATA_NS}paper/{_local(rest)}")
    if head == "bound":
        pid, _, n = rest.rpartition(":")
        return URIRef(f"{DATA_NS}bound/{_local(pid)}-b{n}")
    if head in ENTITY_CLASSES:
        return URIRef(f"{DATA_NS}{head.lower()}/{_local(rest)}")
    raise ValueError(f"not a graph node id: {node!r}")


def mention_iri(paper_id: str, prop: str, entity: str) -> URIRef:
    """The IRI of the Mention (evidence) node of one paper–entity statement."""
    etype, _, eslug = entity.partition(":")
    return URIRef(f"{DATA_NS}mention/{_local(paper_id)}.{prop}.{etype}.{_local(eslug)}")


@functools.lru_cache(maxsize=4096)
def extractor_iri(name: str) -> URIRef:
    """The IRI of the Extractor activity of a versioned extractor name."""
    return URIRef(f"{DATA_NS}extractor/{_local(name or 'unknown')}")


def link_iri(prop: str, source: str, target: str) -> URIRef:
    """The IRI of the Link explaining one paper–paper statement (``source < target``)."""
    a = _local(source.partition(":")[2])
    b = _local(target.partition(":")[2])
    return URIRef(f"{DATA_NS}link/{prop}.{a}.{b}")


def relation_iri(prop: str, source: str, target: str, paper_id: str, start: int) -> URIRef:
    """The IRI of the evidence of one entity–entity statement (``source prop target``) read in
    the sentence of paper ``paper_id`` starting at ``start``: one per paper and sentence, so an
    update's pending papers add evidence without clashing with the build's."""
    head, _, a = source.partition(":")
    kind, _, b = target.partition(":")
    return URIRef(
        f"{DATA_NS}relation/{prop}.{head.lower()}-{_local(a)}.{kind.lower()}-{_local(b)}.{_local(paper_id)}.{start}"
    )
