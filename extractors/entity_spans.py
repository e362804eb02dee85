"""Spans of entity candidates: the candidate record, trimming, generic phrases, repeats, canonical text.

The pieces every entity source shares (:mod:`extractors.entities` merges the model's and the rules'
candidates with them): a candidate in normalized-text offsets, the trim that every span passes
(determiners, edge punctuation, unbalanced brackets, a trailing formula), the test that a phrase is
too generic to be an entity, whole-word occurrences of a phrase, and the text a canonical name is
computed from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from extractors.abbrev import Abbreviation
from extractors.canonical import PATTERNS_DIR, singularize
from kg.text import MATH_PLACEHOLDER, NormalizedText

if TYPE_CHECKING:
    from spacy.tokens import Doc

# Modifiers that do not make a generic head specific: "the proposed method", "existing approaches".
EMPTY_MODIFIERS = frozenset(
    """proposed novel new existing previous prior standard original same above resulting final simple
    general different other several many two three four first second various given current our their
    its this these those the a an such each both all any some more most key main overall entire
    whole underlying corresponding respective typical popular conventional classical traditional
    recent modern state-of-the-art sota unified effective efficient""".split()
)
PRONOUNS = frozenset("it they them this these those which that we us one ones itself".split())
# Capitalized words that start names less often than they start sentences or titles.
COMMON_CAPS = frozenset(
    """We Our The This These Those In On For With By To From As At Its It Their Finally Moreover However
    Furthermore Additionally Specifically First Second Third Then Thus Hence Here Experiments Results
    Extensive Empirically Theoretically Unlike While When Although Despite Because Existing Recent
    Prior Previous Current Modern Large Deep Neural Bayesian Gaussian Markov Euclidean Riemannian
    Hilbert Lipschitz Lagrangian Hessian Fourier Monte Carlo English Chinese A An And Or Of Not No
    Both Each Across Among Using Based Given Inspired Building Motivated To Further Overall Code""".split()
)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A candidate mention in normalized-text offsets, before merging."""

    start: int
    end: int
    type: str
    source: str  # model | abbrev | dataset | dataset_list | pretrained | proposed
    rule: str  # rule id for the extractor name
    role: str | None = None


@lru_cache(maxsize=1)
def generic_words() -> frozenset[str]:
    text = (PATTERNS_DIR / "generic.txt").read_text(encoding="utf-8")
    return frozenset(w.strip() for w in text.splitlines() if w.strip() and not w.startswith("#"))


def sentence_bounds(doc: Doc) -> list[tuple[int, int]]:
    try:
        return [(s.start_char, s.end_char) for s in doc.sents]
    except ValueError:  # no parser: the whole text is one sentence
        return [(0, len(doc.text))]


def sentence_of(bounds: list[tuple[int, int]], pos: int) -> tuple[int, int]:
    for start, end in bounds:
        if start <= pos < end:
            return start, end
    return bounds[-1] if bounds else (0, 0)


PAIRS = {"(": ")", "[": "]", "{": "}"}
DETERMINER = re.compile(r"(?:the|a|an|our|their|this|these|those|its|such)\s+", re.I)
# A name does not end on a function word: "learning ability of", "Gibbs sampling and", "RL with".
TRAILING_FUNCTION_WORD = re.compile(
    r"\s+(?:a|an|the|of|in|on|at|by|for|from|to|with|via|into|than|as|and|or|nor)$"
)


def balanced(text: str, start: int, end: int, opening: str) -> bool:
    return text.count(opening, start, end) == text.count(PAIRS[opening], start, end)


def trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink ``[start, end)`` past leading determiners, trailing function words ("sampling and"),
    edge spaces and punctuation, and unbalanced edge brackets ("Polish ( SyntLex )" keeps its
    parentheses).

    >>> t = "the Polish ( SyntLex ) corpus."
    >>> t[slice(*trim(t, 0, len(t)))]
    'Polish ( SyntLex ) corpus'
    """
    # "Binomial Mechanism (SN-VBM" ends one character early: take the closing bracket.
    for opening, closing in PAIRS.items():
        if (
            end < len(text)
            and text[end] == closing
            and text.count(opening, start, end) == text.count(closing, start, end) + 1
        ):
            end += 1
    while True:
        changed = True
        while changed and start < end:
            changed = False
            first, last = text[start], text[end - 1]
            if first in " ,;:.\"'" or (first in PAIRS and not balanced(text, start, end, first)):
                start += 1
                changed = True
            elif last in " ,;:\"'" or (last == "." and not re.search(r"\w\.\w+\.$", text[start:end])):
                end -= 1
                changed = True
            elif last in ")]}" and not balanced(text, start, end, "([{"[")]}".index(last)]):
                end -= 1
                changed = True
        # A trailing formula is a value or a condition, not part of the name: "error $\\le\\epsilon$".
        if end - start > len(MATH_PLACEHOLDER) + 1 and text.endswith(" " + MATH_PLACEHOLDER, start, end):
            end -= len(MATH_PLACEHOLDER) + 1
            continue
        tail = TRAILING_FUNCTION_WORD.search(text, start, end)
        if tail is not None and tail.start() > start:
            end = tail.start()
            continue
        m = DETERMINER.match(text, start, end)
        if not m or m.end() >= end:
            return start, end
        start = m.end()


def is_generic(text: str) -> bool:
    """Whether a phrase is a generic word with empty modifiers ("the proposed method", "results"),
    a pronoun, or bare math: never an entity.

    >>> [is_generic(t) for t in ["our proposed framework", "Results", "MATH", "it", "graph neural network"]]
    [True, True, True, True, False]
    """
    words = re.findall(r"[\w\-]+", text.lower())
    content = [w for w in words if w not in EMPTY_MODIFIERS and w != MATH_PLACEHOLDER.lower()]
    if not content:
        return True
    if len(content) == 1:
        word = content[0]
        return word in PRONOUNS or word in generic_words() or singularize(word) in generic_words()
    return False


def without_math(word: str) -> str:
    """A word without ``MATH-`` prefixes and ``-MATH`` suffixes, for the coined-name test."""
    parts = [p for p in word.split("-") if p != MATH_PLACEHOLDER]
    return "-".join(parts)


def canonical_surface(norm: NormalizedText, cand: Candidate, abbrevs: list[Abbreviation]) -> str:
    """The text a mention's canonical name is computed from.

    An inner "(SHORT)" is dropped ("convolutional neural networks (CNNs)" is named by its long
    form, so it merges with "CNN"), and a short formula is put back as its symbol ("$f$-GRPO" →
    "f-GRPO", where the parser saw "MATH-GRPO").
    """
    text = norm.text
    segments = [(cand.start, cand.end)]
    for ab in abbrevs:
        if cand.start <= ab.long_start and ab.short_end <= cand.end:
            close = text.find(")", ab.short_end, cand.end)
            segments = [(cand.start, ab.long_end), (close + 1 if close >= 0 else ab.short_end, cand.end)]
            break
    out = []
    for a, b in segments:
        piece = text[a:b]
        pos = piece.find(MATH_PLACEHOLDER)
        while pos >= 0:
            span = norm.math_at(a + pos, a + pos + len(MATH_PLACEHOLDER))
            body = norm.original[span.body_start : span.body_end] if span is not None else ""
            symbol = body.strip().lstrip("\\") if len(body.strip()) <= 3 else MATH_PLACEHOLDER.lower()
            piece = piece[:pos] + symbol + piece[pos + len(MATH_PLACEHOLDER) :]
            a -= len(symbol) - len(MATH_PLACEHOLDER)
            pos = piece.find(MATH_PLACEHOLDER, pos + len(symbol))
        out.append(piece)
    return "".join(out).strip()


def word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def occurrences(text: str, phrase: str) -> list[tuple[int, int]]:
    """Whole-word occurrences of ``phrase``: not inside a longer word or hyphenated compound.

    (``str.find`` rather than a regex per phrase: compiling one per mention cost more than the
    rest of the extractor on the corpus.)

    >>> occurrences("ADAG, ADAG-based and ADAGs; ADAG- ADAG", "ADAG")
    [(0, 4), (28, 32), (34, 38)]
    """
    out = []
    n = len(text)
    i = text.find(phrase)
    while i >= 0:
        j = i + len(phrase)
        ok = i == 0 or not (word_char(text[i - 1]) or text[i - 1] == "-")
        k = j
        while k < n and text[k] == "-":
            k += 1
        if k < n and word_char(text[k]):
            ok = False
        if ok and phrase:
            out.append((i, j))
        i = text.find(phrase, i + 1) if phrase else -1
    return out


def repeats(text: str, model: list[Candidate]) -> list[Candidate]:
    """Other occurrences of a phrase the model typed, where the model found nothing.

    An abstract names its terms more than once and the model sometimes types only some of the
    occurrences ("word sense disambiguation (WSD)" … "WSD" … "verb WSD"); a term keeps its type.
    """
    out: list[Candidate] = []
    taken = [(c.start, c.end) for c in model]
    for cand in model:
        phrase = text[cand.start : cand.end]
        if len(phrase) < 3 or is_generic(phrase):
            continue
        for a, b in occurrences(text, phrase):
            if not any(x < b and a < y for x, y in taken):
                taken.append((a, b))
                out.append(replace(cand, start=a, end=b))
    return out
