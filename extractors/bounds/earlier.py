"""What the bounds read before the current one settled: the one record passed between bounds.

The stages are functions of the :class:`~extractors.bounds.text.Text` and of an :class:`Earlier`;
after each bound the extractor makes the next :class:`Earlier` (nothing is changed in place). The
quantity of a repeated formula is the one it had first; a vague "the rate" after a bound is that
bound's rate; a bound in a list keeps the attribution of the one before; a cue word between two
bounds is read through formulas that make no bound ("$k$-junta"): the rules only ever look at the
formulas before the current one, so the words of all the statements serve as those that made a
bound so far.
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

    bound_words: frozenset[int] = frozenset()  # the formula words that make a bound (all of them)
    repeated: frozenset[str] = frozenset()  # formulas written more than once in the abstract
    last: Made | None = None  # the bound read last
    quantity_by_latex: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    last_quantity: str | None = None  # the last quantity named

    def after(self, made: Made, latex: str) -> Earlier:
        """The record once ``made`` (a bound written ``latex``) is read too. The first quantity of
        a formula is kept only for a formula written again (the only one that asks for it)."""
        by_latex = self.quantity_by_latex
        if made.quantity is not None and latex in self.repeated and latex not in by_latex:
            by_latex = MappingProxyType({**by_latex, latex: made.quantity})
        return Earlier(
            bound_words=self.bound_words,
            repeated=self.repeated,
            last=made,
            quantity_by_latex=by_latex,
            last_quantity=made.quantity if made.quantity is not None else self.last_quantity,
        )
