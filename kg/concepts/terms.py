"""Concept terms: the word form every concept name and every reference-corpus phrase is read as.

A term is a tuple of lowercase words, each singular (:func:`extractors.canonical.singularize`),
hyphens, slashes and underscores read as spaces: "Phased-Elimination Algorithms" is
``("phased", "elimination", "algorithm")``. The same function reads the entity names of a build
and the phrases counted over the reference corpus (``tools/build_concept_df.py``), so their
document frequencies meet.

>>> term_words("Phased-Elimination Algorithms")
('phased', 'elimination', 'algorithm')
>>> squash(("pre", "training")) == squash(("pretraining",))
True
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from extractors.canonical import singularize

DATA_DIR = Path(__file__).resolve().parent / "data"
_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


@functools.lru_cache(maxsize=1 << 18)
def singular(word: str) -> str:
    """The singular of one lowercase word (``policies`` → ``policy``; ``loss`` stays)."""
    return singularize(word)


@functools.lru_cache(maxsize=1 << 18)
def term_words(name: str) -> tuple[str, ...]:
    """The term of a name: lowercase words, each singular, punctuation read as spaces."""
    return tuple(singular(w) for w in _TOKEN.findall(name.lower().replace("'s ", " ")))


def term_text(words: tuple[str, ...]) -> str:
    """The term as text (its key in the reference-corpus statistics)."""
    return " ".join(words)


def squash(words: tuple[str, ...]) -> str:
    """The spacing-free key of a term: "pre training" and "pretraining" are one name.

    Version numbers stay as they are: "gpt 2" squashes to "gpt2", never to "gpt4"'s key.
    """
    return "".join(words)


def read_list(name: str) -> list[tuple[str, str]]:
    """The entries of a list file under ``data/``: ``term<TAB>note`` per line; ``#`` comments."""
    out: list[tuple[str, str]] = []
    for line in (DATA_DIR / name).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        term, _, note = line.partition("\t")
        out.append((term_text(term_words(term)), note.strip()))
    return out


@functools.lru_cache(maxsize=1)
def generic_heads() -> dict[str, int]:
    """Heads that only say what kind of thing a name is ("algorithm", "method", "framework"),
    each with the least words a name must keep without it (``data/generic_heads.txt``): dropped
    to find a near-synonym, never made a parent."""
    return {term: int(note.partition("\t")[0]) for term, note in read_list("generic_heads.txt")}


@functools.lru_cache(maxsize=1)
def generic_terms() -> frozenset[str]:
    """The reviewed stop-list of terms too generic to link two papers (``data/generic.txt``)."""
    return frozenset(term for term, _note in read_list("generic.txt"))


@functools.lru_cache(maxsize=1)
def generic_modifiers() -> frozenset[str]:
    """Modifiers that add no kind ("novel", "proposed", "unknown"): a term made of them and a
    generic word is generic (``data/generic_modifiers.txt``)."""
    return frozenset(term for term, _note in read_list("generic_modifiers.txt"))


def core(words: tuple[str, ...], known: frozenset[str] | set[str] = frozenset()) -> tuple[str, ...]:
    """The term without a trailing generic head: "phased elimination algorithm" → "phased
    elimination", when at least the head's least words are left or the shorter term is in
    ``known`` (a concept of the build); a name that is only a generic head stays as it is.

    >>> core(("phased", "elimination", "algorithm")), core(("large", "language", "model"))
    (('phased', 'elimination'), ('large', 'language', 'model'))
    """
    heads = generic_heads()
    out = words
    while len(out) >= 2 and out[-1] in heads:
        rest = out[:-1]
        if len(rest) < heads[out[-1]] and " ".join(rest) not in known:
            break
        out = rest
    return out
