"""One abstract as the rules read it: its words, sentences, formulas and parse, and the look-arounds.

:class:`Text` is built once per abstract and never changes; every stage reads it. Facts derived
from it that not every abstract needs (the parse tokens by offset, the "number of …" phrases, the
symbols the abstract defines …) are computed on first use by :func:`derived` and kept in
``Text.memo``: pure functions of the text, so the order in which stages ask cannot change them.

Every look-around is bounded (a window of words, a sentence capped at :data:`SPAN` words either
side), so a formula costs O(1) word visits.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, TypeVar

from extractors.bounds.lexicon import Lexicon
from extractors.bounds.notation import SUBSCRIPT, Formula
from extractors.bounds.words import Phrase, Word, match_at
from kg.text import NormalizedText

SPAN = 80  # words either side of a formula that its sentence may contribute
_T = TypeVar("_T")
# One symbol, a letter or a macro, possibly subscripted: "d", "T_0", "\alpha", "\ell_2".
_ONE_SYMBOL = re.compile(r"(?:[A-Za-z]|\\[A-Za-z]+)(?:" + SUBSCRIPT + r"|_\\[A-Za-z]+)")
_FINITE_VERB_TAGS = frozenset(("MD", "VBZ", "VBP", "VBD"))


@dataclass(frozen=True, slots=True)
class Text:
    """An abstract's words (each formula one word), their sentence numbers, its formulas, the
    vocabulary, and the spaCy parse of its normalized text (``doc`` and ``norm`` may be None)."""

    abstract: str
    words: Sequence[Word]
    sentences: Sequence[int]
    formulas: Sequence[Formula]
    formula_word: dict[int, int]  # formula index -> its word index
    lex: Lexicon
    doc: Any
    norm: NormalizedText | None
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def written(self, k: int) -> str:
        """``words[k]`` as the abstract writes it (case kept)."""
        w = self.words[k]
        return self.abstract[w.start : w.end]

    def at(self, k: int, phrase: Phrase) -> bool:
        """Whether ``phrase`` occupies the words from ``k``."""
        return match_at(self.words, k, phrase)


def derived(text: Text, key: str, compute: Callable[[], _T]) -> _T:
    """``compute()`` the first time ``key`` is asked of ``text``, the kept value after that."""
    try:
        value: _T = text.memo[key]
    except KeyError:
        value = text.memo[key] = compute()
    return value


def window_before(text: Text, wk: int, limit: int = 10, bound_words: AbstractSet[int] | None = None) -> int:
    """First word index of the window before ``wk``: same sentence, after the previous formula.

    With ``bound_words`` (the formula words that made a bound so far), only such a formula ends
    the window: "$k$-junta" or "$\\epsilon$-approximate" read as words between a cue and its bound.
    """
    lo = wk
    sent = text.sentences[wk]
    while lo > 0 and wk - lo < limit and text.sentences[lo - 1] == sent:
        before = text.words[lo - 1]
        if before.formula >= 0 and not (bound_words is not None and lo - 1 not in bound_words):
            break
        lo -= 1
    return lo


def sentence_span(text: Text, wk: int) -> tuple[int, int]:
    """Word range of ``wk``'s sentence, capped at :data:`SPAN` words either side of it."""
    sent = text.sentences[wk]
    lo = wk
    while lo > 0 and wk - lo < SPAN and text.sentences[lo - 1] == sent:
        lo -= 1
    hi = wk
    while hi < len(text.words) and hi - wk < SPAN and text.sentences[hi] == sent:
        hi += 1
    return lo, hi


def ends_before(
    text: Text, wk: int, role: str, where: str = "before", lo: int | None = None, gap: int = 0
) -> Phrase | None:
    """The ``role`` cue ending right before word ``wk`` (allowing ``gap`` words between)."""
    lo = window_before(text, wk) if lo is None else lo
    phrases = text.lex.cue(role, where)
    for skip in range(gap + 1):
        hit = phrases.ending(text.words, wk - skip, lo)
        if hit is not None:
            return hit
    return None


def token_at(text: Text, offset: int) -> Any:
    """The spaCy token starting at original ``offset``, when the abstract was parsed."""
    if text.doc is None or text.norm is None:
        return None
    return derived(text, "token_starts", lambda: _token_starts(text)).get(offset)


def _token_starts(text: Text) -> dict[int, Any]:
    assert text.norm is not None
    starts: dict[int, Any] = {}
    for tok in text.doc:
        start, _ = text.norm.to_original(tok.idx, tok.idx + len(tok))
        starts.setdefault(start, tok)
    return starts


def word_of(text: Text, tok: Any) -> int | None:
    """The index of the word a parse token starts in (None when it maps to no word)."""
    if text.norm is None:
        return None
    start, _ = text.norm.to_original(tok.idx, tok.idx + len(tok))
    word_starts = derived(text, "word_starts", lambda: [w.start for w in text.words])
    k = bisect.bisect_right(word_starts, start) - 1
    return k if k >= 0 and start < text.words[k].end else None


def is_verb(text: Text, k: int) -> bool:
    """Whether the parse tags ``words[k]`` a finite verb or a modal ("must", "grows"; not the
    participles of "labeled examples"); False without a parse."""
    tok = token_at(text, text.words[k].start)
    return tok is not None and tok.tag_ in _FINITE_VERB_TAGS


def is_symbol(text: Text, k: int) -> bool:
    """Whether ``words[k]`` is a formula that is one symbol ("$\\alpha$", "$d_1$"), not a bound."""
    w = text.words[k]
    if w.formula < 0:
        return False
    body = text.abstract[w.start : w.end].strip("$ ")
    return bool(_ONE_SYMBOL.fullmatch(body))


def bound_formula(text: Text, k: int) -> bool:
    """Whether ``words[k]`` is a formula with a bound in it (not a condition such as "$d>1$")."""
    w = text.words[k]
    return w.formula >= 0 and text.formulas[w.formula].has_bound
