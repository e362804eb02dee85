"""The ontology's names, in one place: classes, properties, IRIs and their Neo4j forms.

Code never spells an IRI or a label by hand; it asks this module. A test checks that every
term used here exists in ``schema/ontology.ttl``.
"""

from __future__ import annotations

import re
from pathlib import Path

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema"
KG_NS = "https://w3id.org/kg-abstracts/ontology#"
DATA_NS = "https://w3id.org/kg-abstracts/resource/"

ENTITY_CLASSES: tuple[str, ...] = ("Method", "Task", "Dataset", "Metric", "Concept")
CLASSES: tuple[str, ...] = ("Paper", *ENTITY_CLASSES, "Bound", "Mention")

# What a paper does with an entity, per entity type and role.
PAPER_ENTITY_PROPERTIES: tuple[str, ...] = (
    "proposes", "uses", "addresses", "evaluatesOn", "measures", "mentions",
)
PAPER_PAPER_PROPERTIES: tuple[str, ...] = (
    "sharesTechniqueWith", "sharesTaskWith", "sharesConceptWith",
)
BOUND_PROPERTIES: tuple[str, ...] = ("claimsBound", "boundsQuantity", "boundsSubject")
OBJECT_PROPERTIES: tuple[str, ...] = (
    *PAPER_ENTITY_PROPERTIES, *BOUND_PROPERTIES, *PAPER_PAPER_PROPERTIES,
)


def rel_type(prop: str) -> str:
    """The Neo4j relationship type of an ontology property: its UPPER_SNAKE form.

    >>> rel_type("sharesTechniqueWith")
    'SHARES_TECHNIQUE_WITH'
    """
    if prop not in OBJECT_PROPERTIES:
        raise ValueError(f"not an ontology object property: {prop!r}")
    return re.sub(r"(?<!^)(?=[A-Z])", "_", prop).upper()


def node_label(cls: str) -> str:
    """The Neo4j label of an ontology class: the class name itself."""
    if cls not in CLASSES:
        raise ValueError(f"not an ontology class: {cls!r}")
    return cls
