"""How specific a concept is: its document frequency in the reference corpus, its IDF, and
whether it may link two papers by itself.

The reference statistics (``data/concept_df.tsv.gz``, rebuilt by ``tools/build_concept_df.py``
from 22,654 ML abstracts) count each phrase once per abstract, read as concept terms are
(:mod:`kg.concepts.terms`). A term is *generic* (never links two papers by itself) when

- it is in more than :attr:`Specificity.max_df_ratio` of the reference abstracts (5%: "neural
  network", "optimization"), or, for a single word, more than :attr:`Specificity.max_df_ratio_word`
  (2%: a single word is read in many senses: "embedding", "attention", "noise");
- it is in the reviewed stop-list ``data/generic.txt`` ("loss function", "ground truth");
- or it is only modifiers that add no kind (``data/generic_modifiers.txt``: "proposed",
  "unknown") before a generic word ("unknown parameter", "novel approach").

>>> stats = load_stats()
>>> stats.specific(("thompson", "sampling")), stats.specific(("unknown", "parameter"))
(True, False)
"""

from __future__ import annotations

import functools
import gzip
import math
from dataclasses import dataclass, field

from kg.concepts.terms import DATA_DIR, core, generic_heads, generic_modifiers, generic_terms, term_text

DF_PATH = DATA_DIR / "concept_df.tsv.gz"


@dataclass(frozen=True, slots=True)
class Specificity:
    """The cut between specific and generic terms (module docstring)."""

    max_df_ratio: float = 0.05
    max_df_ratio_word: float = 0.02


@dataclass(slots=True)
class ConceptStats:
    """Document frequencies of the reference corpus: ``df[term text]`` over ``n_docs`` abstracts."""

    df_of: dict[str, int]
    n_docs: int
    cut: Specificity = field(default_factory=Specificity)

    def df(self, words: tuple[str, ...]) -> int:
        """The term's document frequency in the reference corpus (0 when unknown or rare)."""
        return self.df_of.get(term_text(words), 0)

    def idf(self, words: tuple[str, ...]) -> float:
        """``log((N + 1) / (df + 1))`` over the reference corpus, rounded to 6 places."""
        return round(math.log((self.n_docs + 1) / (self.df(words) + 1)), 6)

    def too_common(self, words: tuple[str, ...]) -> bool:
        """In more of the reference abstracts than the cut allows (a single word: its own cut)."""
        ratio = self.cut.max_df_ratio_word if len(words) == 1 else self.cut.max_df_ratio
        return self.df(words) > ratio * self.n_docs

    def generic_word(self, word: str) -> bool:
        """A word that says nothing of a topic on its own (a generic head, stop-listed or too common)."""
        return word in generic_heads() or word in generic_terms() or self.too_common((word,))

    def generic(self, words: tuple[str, ...]) -> bool:
        """Too generic to link two papers by itself (module docstring)."""
        if not words or all(w.isdigit() or len(w) < 2 for w in words):
            return True
        text = term_text(words)
        if text in generic_terms() or text in generic_heads() or self.too_common(words):
            return True
        stripped = core(words)
        if stripped != words and (term_text(stripped) in generic_terms() or self.too_common(stripped)):
            return True  # "machine learning model": the machine learning
        modifiers = generic_modifiers()
        return all(w in modifiers for w in stripped[:-1]) and self.generic_word(stripped[-1])

    def specific(self, words: tuple[str, ...]) -> bool:
        """May link two papers by itself: not :meth:`generic`."""
        return not self.generic(words)


@functools.lru_cache(maxsize=1)
def load_stats() -> ConceptStats:
    """The shipped reference statistics (``data/concept_df.tsv.gz``), read once."""
    df_of: dict[str, int] = {}
    with gzip.open(DF_PATH, "rt", encoding="utf-8") as f:
        _label, _, n = f.readline().rstrip("\n").partition("\t")
        for line in f:
            term, _, count = line.rstrip("\n").partition("\t")
            df_of[term] = int(count)
    return ConceptStats(df_of, int(n))
