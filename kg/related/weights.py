"""The weights of the related-work score, and the order of its signals."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from kg.errors import ConfigError
from kg.types import ENTITY_TYPES as ENTITY_CLASSES

# The score's signals, in the order of :class:`RelatedWeights` and of ``Related.signals``.
SIGNALS: tuple[str, ...] = (
    "entity", "concept", "terms", "bound", "topic", "lexical", "semantic", "encoder",
)


def _default_types() -> dict[str, float]:
    # A shared named method or task says more about what two papers do than a shared metric
    # or a generic concept ("regret", "convergence") does.
    return {"Method": 1.0, "Task": 0.8, "Dataset": 0.8, "Metric": 0.5, "Concept": 0.4}


@dataclass(frozen=True, slots=True)
class RelatedWeights:
    """The weights of the related-work score (see :mod:`kg.related` for the formula).

    Each weight multiplies a signal divided by its scale (a typical best match), so the weights
    compare kinds of evidence, not the raw ranges of cosines. The defaults: the words of the
    titles and abstracts (``L``) carry the ranking; the entity words (``W``) a quarter of that;
    the exact shared entities (``E``) and bound shapes (``B``), sparse and often generic ("regret
    upper bounds", a shared "neural networks"), a tenth, enough to order near-ties and to be named
    in the explanation; the topic nothing, because the build computes topics from the very shared
    entities ``E`` already counts (it is still named in the explanation). They were chosen on the
    pooled judgments of 30 query papers of the ML-abstracts corpus
    (``tests/data/related_judgments_corpus.jsonl``), never on the seed judgments, and checked on
    20 query papers judged afterwards (``related_judgments_corpus_test.jsonl``); the ``semantic``
    and ``encoder`` weights were chosen together on the same 30 queries. What each choice measured,
    on every judgment set: ``docs/related.md``.

    Attributes:
        entity: weight of the shared-entity similarity ``E`` (identical entities, with roles).
        concept: weight of the concept similarity ``C`` (shared specific concepts and their
            broader concepts, :mod:`kg.related.concepts`).
        broader: the factor on a concept's entry per level above the paper's own concept (a
            shared parent counts ``broader²`` of a shared leaf of the same IDF).
        generic: the factor on a concept the graph marks as not specific: it adds to ``C`` for
            papers that meet on something else, never a reason alone.
        passing: the factor in ``C`` on a concept a paper holds only in passing (not proposed or
            addressed, named once, after its first two sentences:
            :func:`kg.concepts.links.is_salient`), and on the broader concepts reached only
            through such concepts.
        mentions: the factor in ``C`` on the log of how many times a paper names a concept: its
            entries are multiplied by ``1 + mentions × ln(count)`` (the sublinear term frequency
            of TF-IDF, on the graph's mention counts; 0 ignores the counts).
        terms: weight of the entity-word similarity ``W`` (entities that share words).
        bound: weight of the bound-shape similarity ``B``.
        topic: bonus when both papers are in the same topic.
        lexical: weight of the TF-IDF cosine of the titles and abstracts ``L``.
        semantic: weight of the latent semantic cosine of the same texts ``S``.
        encoder: weight of the sentence-encoder cosine of the same texts ``N`` (0 skips the
            encoder, and with it the cost of encoding the graph's abstracts).
        types: per entity type, the factor on that type's entries.
        proposed_used: role factor when one paper proposes an entity the other uses.
        both_proposed: role factor when both papers propose the entity.
    """

    entity: float = 0.1
    concept: float = 0.1
    broader: float = 0.7
    generic: float = 0.5
    passing: float = 0.5
    mentions: float = 1.0
    terms: float = 0.25
    bound: float = 0.1
    topic: float = 0.0
    lexical: float = 1.0
    semantic: float = 0.25
    encoder: float = 3.0
    types: dict[str, float] = field(default_factory=_default_types)
    proposed_used: float = 1.25
    both_proposed: float = 1.5

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any], source: str = "weights") -> RelatedWeights:
        """Weights from a mapping; keys not given keep their defaults.

        Raises:
            ConfigError: an unknown key, an unknown entity type, or a value that is not a
                non-negative number (the message names ``source`` and the key).
        """
        if not isinstance(obj, Mapping):
            raise ConfigError(f"{source}: expected a JSON object of weights")
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in obj.items():
            if key not in known:
                raise ConfigError(f"{source}: unknown weight {key!r}; known: {', '.join(sorted(known))}")
            if key == "types":
                if not isinstance(value, Mapping):
                    raise ConfigError(f"{source}: 'types' must map entity types to numbers")
                types = _default_types()
                for etype, w in value.items():
                    if etype not in ENTITY_CLASSES:
                        raise ConfigError(f"{source}: types: unknown entity type {etype!r}")
                    types[etype] = _weight(source, f"types.{etype}", w)
                values["types"] = types
            else:
                values[key] = _weight(source, key, value)
        return cls(**values)

    @classmethod
    def from_file(cls, path: str | Path) -> RelatedWeights:
        """Weights from a JSON file (``--weights FILE.json``).

        Raises:
            ConfigError: the file cannot be read, is not JSON, or holds a bad weight.
        """
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read the weights file: {exc.strerror or exc}") from None
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{path}: line {exc.lineno}: not valid JSON: {exc.msg}") from None
        return cls.from_dict(obj, source=str(path))

    def to_json(self) -> dict[str, Any]:
        """The weights as a JSON object (what ``--weights`` reads)."""
        return {
            f.name: (dict(self.types) if f.name == "types" else getattr(self, f.name)) for f in fields(self)
        }


def _weight(source: str, key: str, value: Any) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value < 0
    ):
        raise ConfigError(f"{source}: weight {key!r} must be a non-negative number, got {value!r}")
    return float(value)
