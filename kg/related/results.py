"""What a related-work query returns, and how each result reads.

:class:`Related` (one related paper: score, signals and evidence) reads as one phrase
(:attr:`Related.explanation`) or one line (:func:`render_line`); :class:`MethodPapers` and
:class:`BridgePaper` answer ``kg related --method`` and ``--bridge``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

# The order shared entities are listed in: what a researcher recognizes first.
TYPE_ORDER: tuple[str, ...] = ("Method", "Task", "Dataset", "Metric", "Concept")
PROPOSED = "proposed"
USED = "used"


@dataclass(frozen=True, slots=True)
class SharedEntity:
    """An entity both papers hold, and what each does with it."""

    type: str
    canonical: str
    label: str
    roles: tuple[str, str]  # (query's role, candidate's role): "proposed" | "used"
    contribution: float

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "canonical": self.canonical,
            "label": self.label,
            "roles": list(self.roles),
            "contribution": round(self.contribution, 6),
        }

    def phrase(self) -> str:
        q, c = self.roles
        if q == PROPOSED and c == PROPOSED:
            return f"{self.label} (both propose)"
        if q == PROPOSED:
            return f"{self.label} (uses the query's)"
        if c == PROPOSED:
            return f"{self.label} (proposed here)"
        return self.label


# What two papers do with a concept they both hold, by its type ("both use Thompson sampling").
_BOTH_HOLD = {"Task": "both address", "Metric": "both measure"}


@dataclass(frozen=True, slots=True)
class SharedConcept:
    """A concept two papers meet on: both hold it (levels 0, 0) or it is broader than theirs."""

    node: str
    type: str
    label: str
    levels: tuple[int, int]  # (query's, candidate's): 0 held, 1 a parent of a held concept, …
    family: bool  # a taxonomy family ("bandit algorithms")
    contribution: float

    def to_json(self) -> dict[str, Any]:
        return {
            "node": self.node,
            "type": self.type,
            "label": self.label,
            "levels": list(self.levels),
            "contribution": round(self.contribution, 6),
        }

    def phrase(self) -> str:
        """ "both use Thompson sampling"; "both are bandit algorithms"; "both are kinds of linear bandit"."""
        if self.levels == (0, 0):
            return f"{_BOTH_HOLD.get(self.type, 'both use')} {self.label}"
        if self.family:
            return f"both are {self.label}"
        return f"both are kinds of {self.label}"


@dataclass(frozen=True, slots=True)
class SimilarEntity:
    """A candidate's entity sharing a word with a different entity of the query."""

    type: str
    canonical: str
    query: str  # the query's entity
    term: str  # the shared word or word pair

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "canonical": self.canonical, "query": self.query, "term": self.term}

    def phrase(self) -> str:
        return f"{self.canonical} ≈ {self.query}"


@dataclass(frozen=True, slots=True)
class Related:
    """One related paper: its score, the score's parts, and the evidence for it."""

    id: str
    title: str
    score: float
    signals: dict[str, float]
    shared: tuple[SharedEntity, ...] = ()
    similar: tuple[SimilarEntity, ...] = ()
    bounds: tuple[str, ...] = ()
    topic: int | None = None
    terms: tuple[str, ...] = ()
    close: tuple[str, ...] = ()  # the candidate's words nearest the query's subject (``S``)
    concepts: tuple[SharedConcept, ...] = ()  # the concepts carrying ``C``, most contributing first

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "score": round(self.score, 6),
            "signals": {k: round(v, 6) for k, v in self.signals.items()},
            "shared": [s.to_json() for s in self.shared],
            "similar": [s.to_json() for s in self.similar],
            "bounds": list(self.bounds),
            "topic": self.topic,
            "terms": list(self.terms),
            "close": list(self.close),
            "concepts": [c.to_json() for c in self.concepts],
        }

    @property
    def explained(self) -> bool:
        """Whether the result carries any explanation at all."""
        return bool(
            self.concepts
            or self.shared
            or self.similar
            or self.bounds
            or self.topic is not None
            or self.terms
            or self.close
        )

    @property
    def explanation(self) -> str:
        """The evidence as one readable phrase: the concepts met on, the other shared entities by
        type (Method first), bounds, topic, terms, words close in meaning."""
        # A concept both hold that is also a shared entity reads with what each does with it.
        entity_of = {(s.type, s.label.casefold()): s for s in self.shared}
        parts: list[str] = []
        said: set[tuple[str, str]] = set()
        rank = {t: i for i, t in enumerate(TYPE_ORDER)}  # Methods first, as for the entities
        for c in sorted(self.concepts, key=lambda c: (rank.get(c.type, 9), -c.contribution)):
            entity = entity_of.get((c.type, c.label.casefold())) if c.levels == (0, 0) else None
            if entity is not None and entity.roles != (USED, USED):
                parts.append(entity.phrase())
            else:
                parts.append(c.phrase())
            if c.levels == (0, 0):
                said.add((c.type, c.label.casefold()))
        by_type: dict[str, list[SharedEntity]] = defaultdict(list)
        for s in self.shared:
            if (s.type, s.label.casefold()) not in said:
                by_type[s.type].append(s)
        for etype in TYPE_ORDER:
            if by_type.get(etype):
                noun = {
                    "Method": "methods",
                    "Task": "tasks",
                    "Dataset": "datasets",
                    "Metric": "metrics",
                    "Concept": "concepts",
                }[etype]
                parts.append(f"{noun}: " + ", ".join(s.phrase() for s in by_type[etype]))
        if self.similar:
            parts.append("similar: " + ", ".join(s.phrase() for s in self.similar))
        parts.extend(self.bounds)
        if self.topic is not None:
            parts.append(f"same topic {self.topic}")
        if self.terms:
            parts.append("terms: " + ", ".join(self.terms))
        if self.close:
            parts.append("close in meaning: " + ", ".join(self.close))
        return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class MethodPapers:
    """The papers that propose or use one Method entity."""

    node: str
    canonical: str
    label: str
    proposed: tuple[tuple[str, str], ...]  # (paper id, title)
    used: tuple[tuple[str, str], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.node,
            "canonical": self.canonical,
            "label": self.label,
            "proposed": [{"id": i, "title": t} for i, t in self.proposed],
            "used": [{"id": i, "title": t} for i, t in self.used],
        }


@dataclass(frozen=True, slots=True)
class BridgePaper:
    """A paper linking two sides (topics or entities), with its best link to each side."""

    id: str
    title: str
    score: float
    links: tuple[tuple[str, str, tuple[str, ...]], tuple[str, str, tuple[str, ...]]]
    # per side: (side name, linked paper id or "member", shared canonical names)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "score": round(self.score, 6),
            "links": [{"side": s, "via": via, "shared": list(shared)} for s, via, shared in self.links],
        }

    @property
    def explanation(self) -> str:
        """How the paper is reached, as one phrase: the sides it is in or linked to, and via what."""
        parts = []
        for side, via, shared in self.links:
            if via == "member":
                parts.append(f"in {side}")
            else:
                parts.append(f"to {side} via {via}" + (f" ({', '.join(shared)})" if shared else ""))
        return "; ".join(parts)


def render_line(rank: int, result: Related, title_width: int = 60) -> str:
    """One readable line per result: rank, score, id, title and the explanation."""
    title = result.title if len(result.title) <= title_width else result.title[: title_width - 1] + "…"
    why = result.explanation or "no shared evidence"
    return f"{rank:>2}. {result.score:.3f}  {result.id}  {title} — {why}"
