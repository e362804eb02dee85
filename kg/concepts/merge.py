"""Near-variants of one name, merged into one concept (within one entity type).

:func:`kg.resolve.resolve_entities` already folds case, determiners, hyphens, the plural of the
last word and acronyms. Two more variants meet here:

- the same words up to plural and spacing: "graph neural networks based" / "graphs neural
  network based", "pre-training" / "pretraining" (every word singular, spaces and hyphens
  dropped: :func:`kg.concepts.terms.squash`);
- a name and the same name with a generic head, when the shorter one is itself a concept of the
  build: "phased-elimination algorithm" ≡ "phased elimination" (``data/generic_heads.txt``).

Precision first: digits, version numbers and symbols are part of the key, so "GPT-2" and "GPT-4",
"ResNet-50" and "ResNet-101", "SR-2023-052" and "SR-2023-053", "C++" and "C" stay apart.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping
from typing import TypeVar

from kg.concepts.terms import core, squash, term_text, term_words

K = TypeVar("K", bound=Hashable)
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyz0123456789 -_/'")


def variant_key(name: str) -> str:
    """The merge key of a name: its squashed term, and every symbol that is not a plain letter,
    digit, space or hyphen (so "C++" is not "C", "3.5" not "35", "α-divergence" not "divergence").

    >>> variant_key("Pre-Training") == variant_key("pretrainings")
    True
    >>> variant_key("GPT-2") == variant_key("GPT-4"), variant_key("C++") == variant_key("C")
    (False, False)
    """
    lowered = name.lower()
    residue = "".join(c for c in lowered if c not in _PLAIN)
    return f"{squash(term_words(lowered))}|{residue}"


def variant_merges(names: Mapping[K, str], counts: Mapping[K, int], type_of: Mapping[K, str]) -> dict[K, K]:
    """Which entity key merges into which: ``{member: representative}`` for every key of a group
    of two or more (the representative maps to itself).

    Args:
        names: entity key → its canonical name.
        counts: entity key → how many mentions it has (the most mentioned name represents its group).
        type_of: entity key → its type; only keys of one type merge.

    Returns:
        The representative of each merged key; keys merged with nothing are absent.
    """
    groups: dict[tuple[str, str], list[K]] = defaultdict(list)
    words_of: dict[K, tuple[str, ...]] = {}
    for key in sorted(names, key=repr):
        name = names[key]
        words_of[key] = term_words(name.lower())
        groups[(type_of[key], variant_key(name))].append(key)
    # The near-synonym rule: "X <generic head>" joins X's group when X is a concept of its type.
    known: dict[str, set[str]] = defaultdict(set)
    group_of_term: dict[tuple[str, str], tuple[str, str]] = {}
    for gkey, members in groups.items():
        for key in members:
            if gkey[1].endswith("|"):  # symbols in the name: never the shorter form of another
                text = term_text(words_of[key])
                known[gkey[0]].add(text)
                group_of_term.setdefault((gkey[0], text), gkey)
    parent: dict[tuple[str, str], tuple[str, str]] = {}
    known_of_type = {etype: frozenset(texts) for etype, texts in known.items()}
    for gkey in sorted(groups):
        if not gkey[1].endswith("|"):
            continue
        words = words_of[groups[gkey][0]]
        shorter = core(words, known_of_type[gkey[0]])
        if shorter != words:
            target = group_of_term.get((gkey[0], term_text(shorter)))
            if target is not None and target != gkey:
                parent[gkey] = target

    def root(gkey: tuple[str, str]) -> tuple[str, str]:
        while gkey in parent:
            gkey = parent[gkey]
        return gkey

    merged: dict[tuple[str, str], list[K]] = defaultdict(list)
    for gkey, members in groups.items():
        merged[root(gkey)].extend(members)
    out: dict[K, K] = {}
    for members in merged.values():
        if len(members) < 2:
            continue
        rep = min(members, key=lambda k: (-counts.get(k, 0), len(words_of[k]), repr(k)))
        for key in members:
            out[key] = rep
    return out
