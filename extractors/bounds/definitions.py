"""What the whole abstract says about its quantities: the symbols and acronyms it defines, the
quantity it names first, the quantity a vague "rate" or "complexity" refers to.

Each fact is a pure function of the :class:`Text`, computed once on first use.
"""

from __future__ import annotations

import re

from extractors.abbrev import find_abbreviations
from extractors.bounds.counts import variable_count
from extractors.bounds.lexicon import named_quantity
from extractors.bounds.notation import SUBSCRIPT
from extractors.bounds.phrases import general, q_at, q_ending
from extractors.bounds.text import Text, derived

# A symbol as a math span of its own: "$n$", "$d_{in}$", "$T_0$"
_SYMBOL = re.compile(r"[A-Za-z]" + SUBSCRIPT)


def symbol_quantities(text: Text) -> dict[str, str]:
    """Symbols the abstract defines as a quantity: symbol -> quantity.

    "$n$ is the number of samples", "$m$ the number of neurons", "the number of samples $n$",
    "sample size $n$", "$n$ samples": a bound on the symbol ("$n = \\Omega(d)$") bounds that.
    """
    return derived(text, "symbol_quantities", lambda: _symbol_quantities(text))


def _symbol_quantities(text: Text) -> dict[str, str]:
    words, lex = text.words, text.lex
    symbols: dict[str, str] = {}
    n = len(words)
    for k, w in enumerate(words):
        if w.formula < 0:
            continue
        body = text.abstract[w.start : w.end].strip("$ ")
        if not _SYMBOL.fullmatch(body):
            continue
        sym = body.replace(" ", "")
        if sym in symbols:
            continue
        j = k + 1
        while j < n and words[j].text in lex.defining_fillers:
            j += 1
        hit = q_at(text, j, general(text), naming=True) if j < n and j > k + 1 else None
        if hit is None and k + 1 < n:
            hit = q_at(text, k + 1, general(text))  # "$n$ samples"
        before = k - 1 if k > 0 and words[k - 1].text == "(" else k
        named = hit[0][0] if hit is not None else None
        if named is None and before > 0:
            found = q_ending(text, before, max(0, before - 6), general(text), naming=True)
            named = found[0] if found is not None else None
        if named is not None and text.sentences[min(j, n - 1)] == text.sentences[k]:
            symbols[sym] = named
    return symbols


def acronyms(text: Text) -> dict[str, str]:
    """Acronyms the abstract defines ("recursive teaching dimension (RTD)"): short -> long form,
    as written ("Rademacher complexity (RC)"), lower-cased when every word is capitalized."""
    return derived(text, "acronyms", lambda: _acronyms(text))


def _acronyms(text: Text) -> dict[str, str]:
    found: dict[str, str] = {}
    for abbr in find_abbreviations(text.abstract):
        long = abbr.long
        if all(w[:1].isupper() for w in long.split()):
            long = long.lower()  # "Recursive Teaching Dimension (RTD)": title case
        found.setdefault(abbr.short, long)
    return found


def in_where_clause(text: Text, k: int) -> bool:
    """Whether ``words[k]`` follows a "where" of its sentence (8 words back): a symbol's definition."""
    sent = text.sentences[k]
    for j in range(k - 1, max(k - 9, -1), -1):
        if text.sentences[j] != sent or text.words[j].text in (";", ":"):
            return False
        if text.words[j].text == "where":
            return True
    return False


def abstract_rate_of(text: Text) -> str | None:
    """What a vague "rate" is the rate of in an abstract that never speaks of convergence: the
    first regret or estimation error it names ("OFW achieves a faster rate of $X$" in an
    abstract on regret; "we obtain a rate of $X$" after "the estimation error")."""
    return derived(text, "rate_of", lambda: _abstract_rate_of(text))


def _abstract_rate_of(text: Text) -> str | None:
    found = None
    for k in range(len(text.words)):
        if text.words[k].text.startswith(("converge", "convergence")):
            return None
        if found is None:
            at = q_at(text, k, general(text))
            if at is not None and named_quantity(at[0][0]) in text.lex.rate_quantities:
                found = at[0][0]
    return found


def first_quantity(text: Text) -> str | None:
    """The first quantity the abstract names, not in a symbol's definition nor a count a bound
    depends on: the quantity of a bound nothing else names."""
    return derived(text, "first_quantity", lambda: _first_quantity(text))


def _first_quantity(text: Text) -> str | None:
    for k in range(len(text.words)):
        at = q_at(text, k, general(text))
        if at is None or in_where_clause(text, k) or variable_count(text, k + at[1] - 1):
            continue  # a symbol's definition, or a count the bound depends on
        return at[0][0]
    return None


def named_before(text: Text, wk: int, head: str, plural: str) -> str | None:
    """The last specific quantity named before word ``wk`` whose name ends in ``head`` (written
    ``head`` or ``plural``): "the sample complexity of …" for a vague complexity, "the
    per-iteration cost" for a bare "$X$ cost". A bare or vague phrase names nothing, nor one the
    rules rename ("time complexity" is a running time)."""
    for k in range(wk, 0, -1):
        if not text.words[k - 1].text.endswith((head, plural)):
            continue  # named as such, not counted ("output labels")
        found = q_ending(text, k, max(0, k - 4), general(text))
        if found is not None and found[1] not in text.lex.vague_ids and found[0].endswith(head):
            return found[0]
    return None
