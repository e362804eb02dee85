"""The ``bounds`` family: claimed asymptotic and explicit bounds, rates and complexities.

A bound is found inside math spans (asymptotic notation ``O``, ``\\tilde{O}``, ``\\Omega``,
``\\Theta``, ``o``, ``\\omega``; inequalities bounding a named quantity; orders ``\\sim``,
``\\asymp``; a bare expression the words claim: "of order $X$"), in the text outside math where
scraped abstracts write Unicode or bare LaTeX (``Õ(dB + d√T)``, ``O(n log n)``), and as verbal
claims without a formula ("linear convergence rate"). Each bound gets a kind (upper, lower,
tight, order), a quantity (what is bounded), a subject (the method), an attribution (this paper
or prior work) and a condition (the regime it holds in).

The extractor is a few stages, one module each, passing frozen records
(:mod:`extractors.bounds.extract` runs them): :mod:`.notation` and :mod:`.plain` read the math,
:mod:`.words` and :mod:`.text` cut the words and sentences, :mod:`.statements` finds the bound
statements and conditions, :mod:`.kind`, :mod:`.quantity` (with :mod:`.phrases`, :mod:`.counts`,
:mod:`.clues`, :mod:`.definitions`), :mod:`.subject` and :mod:`.attribution` read their fields.
Every word list, cue phrase, quantity name and LaTeX command they look for is data in
``extractors/patterns/`` (:mod:`.lexicon`), and the controlled vocabulary of bounded quantities
is ``extractors/patterns/quantities.jsonl`` (:mod:`.quantities`, whose loader depends on nothing of
the extractor).
"""

from extractors.bounds.extract import (
    NAME,
    BoundsExtractor,
    count_formula_bound_papers,
    create_bounds_extractor,
    extract_bounds,
)
from extractors.bounds.lexicon import lexicon, named_quantity
from extractors.bounds.quantities import Quantity, load_quantities
from extractors.bounds.subject import subject_of

__all__ = [
    "NAME",
    "BoundsExtractor",
    "Quantity",
    "count_formula_bound_papers",
    "create_bounds_extractor",
    "extract_bounds",
    "lexicon",
    "load_quantities",
    "named_quantity",
    "subject_of",
]
