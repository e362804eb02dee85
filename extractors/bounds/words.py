"""The words of an abstract, with every formula as one opaque word, and their sentences.

Every rule of the bounds extractor looks at words around a formula: this module cuts the
abstract into lowercased words (letters with inner hyphens, a number, or one other character),
each formula (a math span or a bound written outside math) one word of its own, and numbers
their sentences. :class:`Phrases` finds rule phrases at a word in constant time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

Phrase = tuple[str, ...]

# A word of text: letters (with inner hyphens/apostrophes), a number, or one other character.
WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*[A-Za-z]|[A-Za-z]|[0-9]+(?:\.[0-9]+)?|\S")
HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2019": "'"})
FORMULA = "\x00"  # the text of a formula's word


class Word(NamedTuple):
    """One word of the abstract: its lowercased text and offsets; a formula's index if it is one.

    A named tuple, immutable like every record of the extractor and the cheapest of them to make:
    an abstract has hundreds of words.
    """

    text: str  # lowercased, hyphens unified; FORMULA for a formula
    start: int
    end: int
    formula: int = -1  # index into the formula list, or -1


def phrase_words(phrase: str) -> Phrase:
    """A rule phrase as the words :func:`tokenize` would cut it into: ``"Best-known"`` ->
    ``("best-known",)``."""
    return tuple(w.lower() for w in WORD.findall(phrase.translate(HYPHENS)))


def tokenize(abstract: str, opaque: Sequence[tuple[int, int]]) -> list[Word]:
    """Words of ``abstract`` with each ``opaque`` span (sorted, disjoint) as one formula word."""
    words: list[Word] = []
    # An ASCII abstract (most) has no hyphen to unify and lowers character by character, so it
    # is lowered once; otherwise word by word (case rules such as a final sigma see one word).
    low = abstract.lower() if abstract.isascii() else None

    def add(lo: int, hi: int) -> None:
        for m in WORD.finditer(abstract, lo, hi):
            a, b = m.span()
            words.append(Word(low[a:b] if low is not None else m.group().translate(HYPHENS).lower(), a, b))

    pos = 0
    for idx, (start, end) in enumerate(opaque):
        add(pos, start)
        words.append(Word(FORMULA, start, end, idx))
        pos = end
    add(pos, len(abstract))
    return words


def sentence_ids(abstract: str, words: Sequence[Word], abbreviations: frozenset[str]) -> list[int]:
    """Sentence number of every word: a break after . ? ! before a capital, a formula or the end.

    A period after one of ``abbreviations`` ("al", "e.g") or after an initial ends no sentence.
    """
    ids: list[int] = []
    sent = 0
    for k, w in enumerate(words):
        ids.append(sent)
        if w.text in (".", "?", "!") and k + 1 < len(words):
            nxt = words[k + 1]
            prev = words[k - 1].text if k > 0 else ""
            if prev in abbreviations:
                continue
            if len(prev) == 1 and prev.isalpha() and prev != "a":
                # an initial ("J. Smith") or the end of "i.e." / "e.g."; but a variable written
                # out ends a sentence: "depend only on the rank d. For the stochastic model"
                initial = abstract[words[k - 1].start].isupper()
                if initial or (k >= 2 and words[k - 2].text == "."):
                    continue
            first = abstract[nxt.start]
            if first.isupper() or nxt.formula >= 0 or first.isdigit() and w.text == ".":
                sent += 1
    return ids


def match_at(words: Sequence[Word], k: int, phrase: Phrase) -> bool:
    """Whether ``phrase`` occupies ``words[k:k+len(phrase)]``."""
    if k < 0 or k + len(phrase) > len(words):
        return False
    return all(words[k + i].text == p for i, p in enumerate(phrase))


def ends_with(words: Sequence[Word], end: int, phrase: Phrase, lo: int) -> bool:
    """Whether ``phrase`` occupies ``words[end-len(phrase):end]`` at or after ``lo``."""
    start = end - len(phrase)
    return start >= lo and match_at(words, start, phrase)


class Phrases:
    """Word phrases indexed by their first and last word: a lookup costs O(1) per position.

    Matching every phrase at every word would make a 100 kB abstract take seconds; the index keeps
    the scan linear in the number of words.
    """

    def __init__(self, phrases: Iterable[Phrase]) -> None:
        by_first: dict[str, list[Phrase]] = {}
        by_last: dict[str, list[Phrase]] = {}
        for phrase in sorted(set(phrases), key=lambda p: (-len(p), p)):
            by_first.setdefault(phrase[0], []).append(phrase)
            by_last.setdefault(phrase[-1], []).append(phrase)
        self.by_first = by_first
        self.by_last = by_last

    def at(
        self, words: Sequence[Word], k: int, keep: Callable[[Phrase], bool] | None = None
    ) -> Phrase | None:
        """The longest phrase starting at ``words[k]`` (that ``keep`` accepts)."""
        if k < 0 or k >= len(words):
            return None
        for phrase in self.by_first.get(words[k].text, ()):
            if match_at(words, k, phrase) and (keep is None or keep(phrase)):
                return phrase
        return None

    def ending(
        self, words: Sequence[Word], end: int, lo: int = 0, keep: Callable[[Phrase], bool] | None = None
    ) -> Phrase | None:
        """The longest phrase ending just before ``words[end]`` and starting at or after ``lo``."""
        if end - 1 < max(lo, 0) or end - 1 >= len(words):
            return None
        for phrase in self.by_last.get(words[end - 1].text, ()):
            if ends_with(words, end, phrase, lo) and (keep is None or keep(phrase)):
                return phrase
        return None


NO_PHRASES = Phrases(())
