"""What the bounds read before the current one settled: the one record passed between bounds.

The stages are functions of the :class:`~extractors.bounds.text.Text` and of an :class:`Earlier`;
after each bound the extractor makes the next :class:`Earlier` (nothing is changed in place). The
quantity of a repeated formula is the one it had first; a vague "the rate" after a bound is that
bound's rate; a bound in a list keeps the attribution of the one before; a cue word between two
bounds is read through formulas that made no bound ("$k$-junta").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class Made:
    """A formula bound already read: its word, quantity and attribution."""

    word: int
    quantity: str | None
    attribution: str


@dataclass(frozen=True, slots=True)
class Earlier:
    """The formula bounds read so far, as the rules for the next one consult them."""

    last: Made | None = None  # the bound read last
    bound_words: frozenset[int] = frozenset()  # the formula words that made a bound
    quantity_by_latex: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    last_quantity: str | None = None  # the last quantity named

    def after(self, made: Made, latex: str) -> Earlier:
        """The record once ``made`` (a bound written ``latex``) is read too."""
        by_latex = self.quantity_by_latex
        if made.quantity is not None and latex not in by_latex:
            by_latex = MappingProxyType({**by_latex, latex: made.quantity})
        return Earlier(
            last=made,
            bound_words=self.bound_words | {made.word},
            quantity_by_latex=by_latex,
            last_quantity=made.quantity if made.quantity is not None else self.last_quantity,
        )
