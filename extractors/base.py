"""The contract between the pipeline and every extractor."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from kg.text import NormalizedText
from kg.types import Bound, EntityRelation, Mention, Paper

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc


@dataclass(frozen=True, slots=True)
class ParsedPaper:
    """A paper, its normalized text (math masked) and the spaCy ``doc`` of that text.

    ``doc`` is parsed from ``norm.text``, never from ``paper.abstract``: map a token span back
    with ``norm.to_original(token.idx, token.idx + len(token))``.
    """

    paper: Paper
    norm: NormalizedText
    doc: Doc
    # The mentions the extractors before this one found, sorted by span: what an extractor with
    # ``reads_mentions = True`` (relations) is given; empty for the others.
    mentions: tuple[Mention, ...] = ()

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Original-abstract offsets of the normalized span ``[start, end)``."""
        return self.norm.to_original(start, end)


class Extractor(Protocol):
    """What the pipeline calls. ``name`` is versioned; bump it when the output changes."""

    name: str

    def setup(self, nlp: Language) -> None:
        """Add to the pipeline's one ``nlp`` the components this extractor reads (called once,
        after the base pipeline loads and before any parse); an extractor that reads the base
        parse as it is adds nothing."""
        ...

    def extract(self, parsed: ParsedPaper) -> Iterable[Mention | Bound | EntityRelation]: ...


def describe(extractor: Any) -> str:
    return getattr(extractor, "name", type(extractor).__name__)
