"""Abbreviation detection (Schwartz & Hearst, PSB 2003) over normalized abstract text.

Finds "long form (SHORT)" definitions such as "Brownian Distance Correlation (BDCorr)",
"Attention-DAG (ADAG)" and "Structural Equation Models (SEMs)". The short form's letters must
appear, in order and right to left, in the long form, with its first letter starting a word; the
long form is the shortest such word sequence before the parenthesis. Offsets are into the text
given (the pipeline passes ``norm.text``, where math is one ``MATH`` token).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The long form never crosses these: they end a clause or open another aside.
_LF_STOP_CHARS = frozenset('.;:!?()[]{},"')
_NOT_SHORT = frozenset({"e.g", "i.e", "eg", "ie", "cf", "see", "etc", "resp", "ours", "math", "vs"})
_SHORT = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-./+&']{0,11}")


@dataclass(frozen=True, slots=True)
class Abbreviation:
    """A defined abbreviation: short and long form with their ``[start, end)`` offsets."""

    short: str
    short_start: int
    short_end: int
    long: str
    long_start: int
    long_end: int


def is_short_form(candidate: str) -> bool:
    """Whether ``candidate`` (the text inside parentheses) can be an abbreviation.

    One word of at most 12 characters, starting alphanumeric, with a letter, and with an
    uppercase letter (so "(see)", "(e.g.)" and "(MATH)" are not).

    >>> [is_short_form(s) for s in ["BDCorr", "SEMs", "f-GRPO", "e.g.", "see", "MATH", "2019"]]
    [True, True, True, False, False, False, False]
    """
    if not _SHORT.fullmatch(candidate) or candidate.lower().rstrip(".") in _NOT_SHORT:
        return False
    return any(c.isupper() for c in candidate) and any(c.isalpha() for c in candidate)


def best_long_form(short: str, long: str) -> int:
    """Start index in ``long`` of the shortest suffix that the letters of ``short`` fit; -1 if none.

    The Schwartz–Hearst match: walk both strings right to left, every alphanumeric character of
    ``short`` matched case-insensitively in ``long``, the first one at the start of a word.

    >>> long = "we study Structural Equation Models"
    >>> long[best_long_form("SEMs", long):]
    'Structural Equation Models'
    """
    s = len(short) - 1
    pos = len(long) - 1
    while s >= 0:
        c = short[s].lower()
        if not c.isalnum():
            s -= 1
            continue
        while pos >= 0 and (long[pos].lower() != c or (s == 0 and pos > 0 and long[pos - 1].isalnum())):
            pos -= 1
        if pos < 0:
            return -1
        pos -= 1
        s -= 1
    return pos + 1


def initials_long_form(short: str, long: str) -> int:
    """Start index in ``long`` of the words that ``short`` abbreviates part by part; -1 if none.

    The fallback for coinages that Schwartz–Hearst misses because a part is a stem, not letters:
    each hyphen part of ``short`` is either an acronym (one capital per word: "BDC") or a word
    sharing its first three letters with one long-form word ("Merge" ~ "Merging").

    >>> long = "we propose Brownian Distance Correlation Merging"
    >>> long[initials_long_form("BDC-Merge", long):]
    'Brownian Distance Correlation Merging'
    """
    words = [(m.start(), m.group()) for m in re.finditer(r"[^\s\-]+", long)]
    wi = len(words) - 1
    for part in reversed([p for p in re.split(r"[-\s]", short) if p]):
        if part.isupper() and part.isalpha():
            for letter in reversed(part):
                if wi < 0 or words[wi][1][0].upper() != letter:
                    return -1
                wi -= 1
        elif len(part) >= 3 and part.isalpha():
            if wi < 0 or words[wi][1][:3].lower() != part[:3].lower():
                return -1
            wi -= 1
        else:
            return -1
    return words[wi + 1][0] if wi + 1 < len(words) else -1


def find_abbreviations(text: str) -> list[Abbreviation]:
    """All "long form (SHORT)" definitions in ``text``, in order of appearance.

    >>> [(a.short, a.long) for a in find_abbreviations("We use Attention-DAG (ADAG) and SGD.")]
    [('ADAG', 'Attention-DAG')]
    """
    found: list[Abbreviation] = []
    for match in re.finditer(r"\(([^()]{1,40})\)", text):
        inner = match.group(1).strip()
        # "(BDCorr; Smith 2020)" or "(SEMs, for short)": the abbreviation is the first part.
        inner = re.split(r"[;,]\s", inner)[0].strip()
        if not is_short_form(inner):
            continue
        short_start = text.index(inner, match.start(1))
        short_end = short_start + len(inner)
        window_end = match.start()
        while window_end > 0 and text[window_end - 1] == " ":
            window_end -= 1
        # Back to the nearest clause boundary, at most 300 characters (long forms are short).
        window_start = window_end
        limit = max(0, window_end - 300)
        while window_start > limit and text[window_start - 1] not in _LF_STOP_CHARS:
            window_start -= 1
        words = text[window_start:window_end].split()
        # At most min(|SF| + 5, 2 |SF|) words, as in Schwartz–Hearst.
        n_letters = sum(c.isalnum() for c in inner)
        max_words = min(n_letters + 5, 2 * n_letters)
        words = words[-max_words:]
        if not words:
            continue
        candidate = " ".join(words)
        cand_start = window_end - len(candidate)
        if text[cand_start:window_end] != candidate:  # irregular spacing: fall back to a re-scan
            cand_start = window_start
            candidate = text[window_start:window_end]
        k = best_long_form(inner, candidate)
        if k < 0:
            k = initials_long_form(inner, candidate)
        if k < 0:
            continue
        long_form = candidate[k:]
        n_words = len(long_form.split())
        # The long form must be longer than the short form and not merely contain it as a word.
        if len(long_form) <= len(inner) or inner.lower() in long_form.lower().split():
            continue
        if n_words > max_words:
            continue
        if long_form.split()[0].lower() in {"the", "a", "an", "and", "of", "or", "in", "for", "with"}:
            continue
        found.append(
            Abbreviation(
                inner, short_start, short_end, long_form, cand_start + k, cand_start + k + len(long_form)
            )
        )
    return found
