"""Counted things: "number of <nouns>" phrases and plural nouns a formula counts.

"the number of tests", "$X$ tests" and "$o(\\log p)$ random projections" name what a bound
counts ("number of tests"); "polynomial in the number of states" and "$O(1/N)$ for $N$
iterations" name a variable the bound depends on, which is not what it bounds. The parse tells
plural nouns from verbs ("$X$ tests" vs "$X$ holds") when there is one; a word-shape test
replaces it otherwise.
"""

from __future__ import annotations

import re
from typing import Any

from extractors.bounds.text import Text, derived, is_symbol, is_verb, token_at


def modifier_use(text: Text, k: int) -> bool:
    """Whether the word at ``k`` makes the quantity before it a modifier ("loss function")."""
    return k < len(text.words) and text.words[k].text in text.lex.modified_nouns


def number_spans(text: Text) -> dict[int, tuple[int, str]]:
    """Every "number of <nouns>" phrase: start word -> (end word, quantity), computed once.

    A rule phrase inside names the quantity ("the number of communication rounds" -> round
    complexity); otherwise the phrase itself does ("number of states", "number of neurons").
    """
    return derived(text, "number_spans", lambda: _number_spans(text))


def _number_spans(text: Text) -> dict[int, tuple[int, str]]:
    words, lex = text.words, text.lex
    spans: dict[int, tuple[int, str]] = {}
    n = len(words)
    for k in range(n - 2):
        if words[k].text != "number" or words[k + 1].text != "of":
            continue
        b = before_number(text, k)
        if b >= 0 and b < k - 1 and (words[b].formula >= 0 or words[b].text in lex.defining):
            continue  # "where $T$ is the number of rounds", "$K$ the number of processes"
        if variable_number(text, k):
            continue  # "polynomial in the number of states": a variable the bound depends on
        j = k + 2
        while j < n and words[j].text in ("the", "a", "an", "all", "total"):
            j += 1
        nouns: list[str] = []
        quantity = None
        while j < n and len(nouns) < 4:
            word = words[j].text
            hit = lex.quantities.at(words, j)
            if hit is not None and not modifier_use(text, j + len(hit)):
                quantity = lex.quantity_of[hit][0]
                j += len(hit)
                break
            if not word.isalpha() or word in lex.not_modifiers:
                break
            if word.endswith(("ed", "ing", "ly")) and not (nouns == [] and noun_follows(text, j)):
                break  # "number of rounds needed", but "number of training environments"
            if word in lex.clause_verbs or is_verb(text, j):
                break  # "the number of neurons must be at least $X$"
            nouns.append(word)
            j += 1
        if quantity is None and nouns:
            quantity = "number of " + " ".join(nouns) + and_counted(text, j)
            j += 2 if quantity.count(" and ") else 0
        if quantity is not None:
            spans[k] = (j, quantity)
    return spans


def noun_follows(text: Text, j: int) -> bool:
    """Whether ``words[j]`` is a participle modifying the noun after it ("training environments")."""
    if j + 1 >= len(text.words) or text.sentences[j + 1] != text.sentences[j]:
        return False
    word = text.words[j + 1].text
    return (
        word.isalpha()
        and len(word) > 2
        and word not in text.lex.not_modifiers
        and not word.endswith(("ed", "ing", "ly"))
    )


def count_noun_after(text: Text, wk: int) -> str | None:
    """ "number of tests" from "$X$ tests": a plural noun right after the formula counts a resource.

    The parse decides what is a plural noun when there is one ("$X$ holds" is a verb); without
    it, a plural-looking word that is not a common verb ending.
    """
    words = text.words
    k = wk + 1
    if k >= len(words) or text.sentences[k] != text.sentences[wk]:
        return None
    w = words[k]
    acronym = None
    if w.formula < 0 and 2 <= w.end - w.start <= 6 and text.abstract[w.start : w.end].isupper():
        # "$O(\\log T)$ OL instances": an acronym naming what is counted sits between
        acronym = token_at(text, w.start)
        k += 1
        if k >= len(words) or text.sentences[k] != text.sentences[wk] or words[k].formula >= 0:
            return None
        w = words[k]
    counted = counted_plural(text, k, False, acronym)
    if counted is not None:
        return "number of " + counted + and_counted(text, k + 1)
    if acronym is not None:
        return None
    # "$o(\\log p)$ random projections": one or two singular modifiers before the counted noun
    mods: list[str] = []
    while len(mods) < 2 and k + 1 < len(words):
        if text.sentences[k + 1] != text.sentences[wk] or words[k + 1].formula >= 0:
            return None
        word = words[k].text
        if not word.isalpha() or word.endswith("s") or word in text.lex.not_modifiers:
            return None
        mods.append(word)
        k += 1
        counted = counted_plural(text, k, True)
        if counted is not None:
            return "number of " + " ".join(mods) + " " + counted
    return None


def and_counted(text: Text, k: int) -> str:
    """ " and constraints" when ``words[k:k+2]`` join a second counted noun that closes the
    phrase ("$X$ variables and constraints", "the number of variables and constraints"), else ""."""
    words = text.words
    if k + 1 >= len(words) or words[k].text != "and":
        return ""
    if text.sentences[k + 1] != text.sentences[k]:
        return ""
    if not words[k - 1].text.endswith("s"):
        return ""
    counted = counted_plural(text, k + 1, False, conjunct=True)
    if counted is None or noun_follows(text, k + 1):
        return ""  # "variables and constraints matrices": the second noun modifies another
    return " and " + counted


def counted_plural(
    text: Text, k: int, modified: bool, acronym: Any = None, conjunct: bool = False
) -> str | None:
    """``words[k]`` when it is a plural noun counting a resource, else None.

    The parse decides what is a plural noun when there is one ("$X$ holds" is a verb); without
    it, a plural-looking word that is not a common verb ending. After a modifier (``modified``)
    a nominal suffix also decides, since the parse may read "random projections" as a verb. A
    noun joined to a counted one by "and" (``conjunct``) may be one that alone counts nothing
    ("$X$ variables and constraints").
    """
    lex = text.lex
    w = text.words[k]
    word = w.text
    if not word.isalpha() or len(word) < 4 or not word.endswith("s") or word.endswith(lex.not_plural):
        return None
    if word in lex.not_modifiers or (word in lex.not_counted and not conjunct) or modifier_use(text, k + 1):
        return None
    tok = token_at(text, w.start)
    if acronym is not None and tok is not None and acronym.head == tok and acronym.dep_ == "compound":
        pass  # the acronym modifies it: a noun, however the parse tagged it
    elif modified and word.endswith(lex.noun_plural_suffixes):
        pass
    elif tok is not None:
        if tok.tag_ not in ("NNS", "NNPS"):
            return None
    elif word in lex.verbs_in_s:
        return None
    return word


def counted_variable(text: Text, k: int, wk: int) -> bool:
    """Whether ``words[k]`` counts a symbol of the formula ``words[wk]`` ("$O(1/N)$ for $N$
    iterations"): the count is the bound's variable, not what it bounds."""
    if k < 1 or text.words[k].formula >= 0:
        return False
    at = k - 1
    if not names_symbol(text, at) and is_noun(text, k):
        # "$O(n^2)$ complexity for $n$ data samples", "$n$ training data points"
        while at > 0 and k - at <= 2 and noun_modifier_word(text, at):
            at -= 1
    if at < 0 or not names_symbol(text, at):
        return False
    symbol = text.abstract[text.words[at].start : text.words[at].end].strip("$ ")
    formula = text.abstract[text.words[wk].start : text.words[wk].end]
    return re.search(r"(?<![A-Za-z\\])" + re.escape(symbol) + r"(?![A-Za-z])", formula) is not None


def names_symbol(text: Text, k: int) -> bool:
    """A one-symbol formula, or a lone letter standing for one in math written without TeX
    ("over n data points"; not the article "a" nor "I")."""
    word = text.words[k].text
    return is_symbol(text, k) or (len(word) == 1 and word.isalpha() and word not in "aAI")


def is_noun(text: Text, k: int) -> bool:
    """Whether ``words[k]`` may be a noun: not a verb form in s, and a noun to the parse if any."""
    if text.words[k].text in text.lex.verbs_in_s:
        return False  # the small model reads "after $t$ iterations converges" as two nouns
    tok = token_at(text, text.words[k].start)
    return tok is None or bool(tok.tag_ in ("NN", "NNS"))


def noun_modifier_word(text: Text, k: int) -> bool:
    """A word that may modify the noun after it: lower-case letters, not a function word."""
    word = text.words[k].text
    return word.isalpha() and word.islower() and len(word) > 2 and word not in text.lex.not_modifiers


def variable_count(text: Text, k: int) -> bool:
    """Whether ``words[k]`` ends the nouns of an "in the number of <nouns>" that a bound depends
    on ("quadratic in the number of observations $n$"), which :func:`number_spans` leaves out
    as a quantity."""
    words = text.words
    j = k
    while j > 0 and k - j < 3 and noun_modifier_word(text, j - 1) and words[j - 1].text != "of":
        j -= 1
    if j < 3 or words[j - 1].text != "of" or words[j - 2].text != "number":
        return False
    return variable_number(text, j - 2)


def before_number(text: Text, k: int) -> int:
    """The word before the "number" at ``k``, past "the", "total", "overall" (-1 at the start)."""
    b = k - 1
    while b >= 0 and text.words[b].text in ("the", "total", "overall"):
        b -= 1
    return b


def variable_number(text: Text, k: int) -> bool:
    """Whether the "number of …" at ``k`` is one a bound depends on: "polynomial in the number
    of states", "linear in the total number of …"."""
    b = before_number(text, k)
    return 0 <= b < k - 1 and text.words[b].text in ("in", "to")
