"""Records passed between stages: the one place they are defined.

Data flows one way (``ingest → text → extractors → resolve → assemble → export``); every stage
takes and returns these frozen, slotted dataclasses. Offsets are always character offsets into
the ORIGINAL abstract string: ``paper.abstract[m.start:m.end] == m.text`` holds for every
:class:`Mention` and ``paper.abstract[b.start:b.end] == b.latex`` for every :class:`Bound`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

EntityType = Literal["Method", "Task", "Dataset", "Metric", "Concept"]
ENTITY_TYPES: tuple[str, ...] = ("Method", "Task", "Dataset", "Metric", "Concept")

Role = Literal["proposed", "used"]
BoundKind = Literal["upper", "lower", "tight", "order"]
BoundForm = Literal["formula", "verbal"]
Attribution = Literal["this", "prior"]


@dataclass(frozen=True, slots=True)
class Source:
    """Where a paper was read: the file and the 1-based record position in it."""

    file: str
    position: int

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "position": self.position}


@dataclass(frozen=True, slots=True)
class Paper:
    """One abstract and its metadata, as read by :mod:`kg.ingest`."""

    id: str
    title: str
    abstract: str
    title_derived: bool = False
    venue: str | None = None
    year: int | None = None
    authors: tuple[str, ...] = ()
    url: str | None = None
    sources: tuple[Source, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "title_derived": self.title_derived,
            "abstract": self.abstract,
            "venue": self.venue,
            "year": self.year,
            "authors": list(self.authors),
            "url": self.url,
            "sources": [s.to_json() for s in self.sources],
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Paper:
        return cls(
            id=obj["id"],
            title=obj["title"],
            abstract=obj["abstract"],
            title_derived=bool(obj.get("title_derived", False)),
            venue=obj.get("venue"),
            year=obj.get("year"),
            authors=tuple(obj.get("authors") or ()),
            url=obj.get("url"),
            sources=tuple(Source(s["file"], int(s["position"])) for s in obj.get("sources") or ()),
        )


@dataclass(frozen=True, slots=True)
class MathSpan:
    """A located math span (``$…$``, ``$$…$$``, ``\\(…\\)``, ``\\[…\\]``) in the original text.

    ``start``/``end`` cover the delimiters; ``body_start``/``body_end`` the LaTeX inside them.
    """

    start: int
    end: int
    body_start: int
    body_end: int


@dataclass(frozen=True, slots=True)
class StrayDelimiter:
    """A math delimiter read as text: nothing closes it, or pairing it would make prose math."""

    offset: int
    delimiter: str


@dataclass(frozen=True, slots=True)
class MathScan:
    """The math spans of a text, and the delimiters read as text instead (:func:`kg.text.read_math`)."""

    spans: tuple[MathSpan, ...]
    stray: tuple[StrayDelimiter, ...] = ()


@dataclass(frozen=True, slots=True)
class Mention:
    """A typed entity mention with its evidence span in the original abstract."""

    type: str  # one of ENTITY_TYPES
    text: str
    start: int
    end: int
    canonical: str
    role: str | None = None  # "proposed" | "used" | None
    confidence: float = 1.0
    extractor: str = ""
    sentence_start: int = -1  # sentence containing the mention, original offsets
    sentence_end: int = -1

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "canonical": self.canonical,
            "role": self.role,
            "confidence": self.confidence,
            "extractor": self.extractor,
            "sentence": [self.sentence_start, self.sentence_end],
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Mention:
        sentence = obj.get("sentence") or [-1, -1]
        return cls(
            type=obj["type"],
            text=obj["text"],
            start=int(obj["start"]),
            end=int(obj["end"]),
            canonical=obj["canonical"],
            role=obj.get("role"),
            confidence=float(obj.get("confidence", 1.0)),
            extractor=obj.get("extractor", ""),
            sentence_start=int(sentence[0]),
            sentence_end=int(sentence[1]),
        )


@dataclass(frozen=True, slots=True)
class Bound:
    """A claimed mathematical bound, rate or complexity.

    For ``form == "formula"`` ``latex`` is exactly ``abstract[start:end]``; for ``verbal`` bounds
    (formula-free claims such as "linear convergence rate") it is the claiming phrase.
    """

    form: str  # "formula" | "verbal"
    kind: str  # "upper" | "lower" | "tight" | "order"
    notation: str  # "O", "Omega", "Theta", "o", "omega", "le", "ge", "sim", "order", "verbal" …
    soft: bool
    latex: str
    expr: str
    variables: tuple[str, ...]
    quantity: str | None
    subject: str | None
    attribution: str  # "this" | "prior"
    condition: str | None
    start: int
    end: int
    confidence: float = 1.0
    extractor: str = ""

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["variables"] = list(self.variables)
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Bound:
        fields: dict[str, Any] = {k: obj.get(k) for k in cls.__slots__}  # type: ignore[attr-defined]
        fields["variables"] = tuple(obj.get("variables") or ())
        fields["soft"] = bool(obj.get("soft", False))
        fields["confidence"] = float(obj.get("confidence", 1.0))
        fields["extractor"] = obj.get("extractor") or ""
        return cls(**fields)


@dataclass(frozen=True, slots=True)
class TextSpan:
    """A span of the original abstract: ``abstract[start:end] == text``; ``generic`` marks a
    relation argument that is a generic reference ("this method", "it"), not an entity mention."""

    start: int
    end: int
    text: str
    generic: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"start": self.start, "end": self.end, "text": self.text}
        if self.generic:
            out["generic"] = True
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> TextSpan:
        return cls(int(obj["start"]), int(obj["end"]), str(obj["text"]), bool(obj.get("generic", False)))


@dataclass(frozen=True, slots=True)
class EntityRelation:
    """A typed relation between two entity mentions of one sentence (SciERC's types:
    ``USED-FOR``, ``FEATURE-OF``, ``HYPONYM-OF``, ``PART-OF``, ``COMPARE``, ``CONJUNCTION``,
    ``EVALUATE-FOR``); ``head`` and ``tail`` are the spans of two of the paper's mentions, or of
    one mention and a generic reference (:attr:`TextSpan.generic`)."""

    type: str
    head: TextSpan
    tail: TextSpan
    confidence: float = 1.0
    extractor: str = ""
    sentence_start: int = -1  # the sentence holding both, original offsets
    sentence_end: int = -1

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "head": self.head.to_json(),
            "tail": self.tail.to_json(),
            "confidence": self.confidence,
            "extractor": self.extractor,
            "sentence": [self.sentence_start, self.sentence_end],
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> EntityRelation:
        sentence = obj.get("sentence") or [-1, -1]
        return cls(
            type=str(obj["type"]),
            head=TextSpan.from_json(obj["head"]),
            tail=TextSpan.from_json(obj["tail"]),
            confidence=float(obj.get("confidence", 1.0)),
            extractor=obj.get("extractor", ""),
            sentence_start=int(sentence[0]),
            sentence_end=int(sentence[1]),
        )


@dataclass(frozen=True, slots=True)
class Extraction:
    """Everything extracted from one paper: the record a build caches and assembles."""

    paper: Paper
    mentions: tuple[Mention, ...] = ()
    bounds: tuple[Bound, ...] = ()
    relations: tuple[EntityRelation, ...] = ()

    @property
    def id(self) -> str:
        return self.paper.id

    @property
    def title(self) -> str:
        return self.paper.title

    @property
    def abstract(self) -> str:
        return self.paper.abstract

    @property
    def entities(self) -> tuple[Mention, ...]:
        """The entity mentions, under the name ``kg extract`` gives them."""
        return self.mentions

    def to_json(self) -> dict[str, Any]:
        out = self.paper.to_json()
        out["entities"] = [m.to_json() for m in self.mentions]
        out["bounds"] = [b.to_json() for b in self.bounds]
        out["relations"] = [r.to_json() for r in self.relations]
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Extraction:
        return cls(
            paper=Paper.from_json(obj),
            mentions=tuple(Mention.from_json(m) for m in obj.get("entities") or ()),
            bounds=tuple(Bound.from_json(b) for b in obj.get("bounds") or ()),
            relations=tuple(EntityRelation.from_json(r) for r in obj.get("relations") or ()),
        )


@dataclass(frozen=True, slots=True)
class Entity:
    """A canonical entity after resolution: one node per (type, canonical name)."""

    key: str  # stable id: "<type>/<slug of canonical>"
    type: str
    canonical: str
    label: str  # preferred display label (most frequent surface form)
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Relation:
    """A typed edge between two node keys, with its evidence when it has one."""

    source: str
    target: str
    predicate: str  # an ontology property name, e.g. "proposes"
    weight: float = 1.0
    evidence: tuple[Mention, ...] = ()


@dataclass(frozen=True, slots=True)
class SkippedRecord:
    """An input record that was not used, and why."""

    file: str
    record: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"file": self.file, "record": self.record, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class RecordWarning:
    """An input record that was used, with something in it read otherwise than it is written."""

    file: str
    record: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"file": self.file, "record": self.record, "message": self.message}

    def __str__(self) -> str:
        return f"{self.file}: record {self.record}: {self.message}"


@dataclass(slots=True)
class RunReport:
    """What a run did: read, skipped, which pipeline loaded, counts. Printed and saved."""

    pipeline: str | None = None
    files: list[str] = field(default_factory=list)
    records_read: int = 0
    papers: int = 0
    duplicates_merged: int = 0
    skipped: list[SkippedRecord] = field(default_factory=list)
    warnings: list[RecordWarning] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    extractors: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    # Where the time went, not part of the (deterministic) JSON: stage → wall seconds, in order;
    # and the extraction processes' CPU seconds: "parse" (spaCy) and "extract" (kg's own work).
    stages: dict[str, float] = field(default_factory=dict)
    worker_cpu: dict[str, float] = field(default_factory=dict)

    def timings(self) -> dict[str, Any]:
        """The stage wall times and worker CPU times (``kg build --timings FILE``)."""
        return {
            "seconds": round(self.seconds, 3),
            "stages": {k: round(v, 3) for k, v in self.stages.items()},
            "worker_cpu": {k: round(v, 3) for k, v in self.worker_cpu.items()},
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "pipeline": self.pipeline,
            "files": list(self.files),
            "records_read": self.records_read,
            "papers": self.papers,
            "duplicates_merged": self.duplicates_merged,
            "skipped": [s.to_json() for s in self.skipped],
            "warnings": [w.to_json() for w in self.warnings],
            "counts": dict(sorted(self.counts.items())),
            "extractors": dict(sorted(self.extractors.items())),
        }
