"""Quantity phrases: the noun phrases of ``bounds_quantities.jsonl`` and the ones built like them.

A rule phrase names a quantity ("regret", "sample complexities", "error rate" for error); one
that names itself keeps the qualifiers the parse attaches to it that say which quantity it is
("Nash regret", "expected regret", "calibration error", "an optimal (dynamic) regret"), and drops
the words that describe the bound instead ("optimal", "minimax", "worst-case", "$T$-round"). A
generic head noun ("complexity", "violation", "divergence", "distance" …) takes the noun before
it, whatever it is ("teaching complexity", "constraint violation"), so quantities no table lists
are still named. Phrases are looked up at a word, ending at a word, right after a formula
("$X$ regret", through a few modifiers) and before it ("regret of $X$").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from extractors.bounds.counts import counted_variable, modifier_use, number_spans
from extractors.bounds.lexicon import Lexicon
from extractors.bounds.text import Text, is_symbol, token_at, window_before
from extractors.bounds.words import Phrase

Quantity = tuple[str, str]  # (quantity, rule id)

_QUALIFIER_DEPS = frozenset(("compound", "amod", "nmod"))
_QUALIFIER_TAGS = frozenset(("JJ", "NN", "NNS", "NNP", "NNPS", "VBN", "VBG"))
_QUALIFIER_WORD = re.compile(r"[A-Za-z][A-Za-z\-]*[A-Za-z]")


def general(text: Text) -> Callable[[Phrase], bool]:
    """A filter of the quantity phrases usable away from the formula ("time" and "rate" are not)."""
    lex = text.lex
    return lambda phrase: phrase not in lex.after_only and phrase not in lex.adjacent_only


def q_at(
    text: Text, k: int, keep: Callable[[Phrase], bool] | None = None, naming: bool = False
) -> tuple[Quantity, int] | None:
    """The quantity phrase starting at ``words[k]``: ``((quantity, rule id), length)`` or None.

    Rule phrases first (not used as a modifier: "loss function", "risk minimization"); with
    ``naming``, also "number of <nouns>" ("the number of states $S$").
    """
    lex = text.lex
    hit = lex.quantities.at(
        text.words, k, lambda p: (keep is None or keep(p)) and (naming or p not in lex.name_only)
    )
    if hit is not None and not modifier_use(text, k + len(hit)):
        return compound(text, k, k + len(hit)) or qualified(text, k, k + len(hit), hit), len(hit)
    found = compound(text, k, k + 1)
    if found is not None and (keep is None or keep((text.words[k].text,))):
        return found, 1
    if naming and k in number_spans(text):
        end, quantity = number_spans(text)[k]
        return (quantity, "q.number-of"), end - k
    return None


def q_ending(
    text: Text, end: int, lo: int, keep: Callable[[Phrase], bool] | None = None, naming: bool = False
) -> Quantity | None:
    """The quantity phrase ending just before ``words[end]``, starting at or after ``lo``."""
    lex = text.lex
    hit = lex.quantities.ending(
        text.words, end, lo, lambda p: (keep is None or keep(p)) and (naming or p not in lex.name_only)
    )
    if hit is not None and not modifier_use(text, end):
        return compound(text, end - len(hit), end) or qualified(text, end - len(hit), end, hit)
    found = compound(text, end - 1, end) if end - 1 >= lo else None
    if found is not None and (keep is None or keep((text.words[end - 1].text,))):
        return found
    if naming:
        for start, (stop, quantity) in number_spans(text).items():
            if stop == end and start >= lo:
                return quantity, "q.number-of"
    return None


def singular_phrase(
    text: Text, end: int, lo: int, keep: Callable[[Phrase], bool] | None = None
) -> Quantity | None:
    """A rule phrase written in the plural before ``words[end]``: "all have runtimes $X$"."""
    lex = text.lex
    last = text.words[end - 1].text if lo <= end - 1 < len(text.words) else ""
    if len(last) < 4 or not last.endswith("s") or last.endswith(lex.not_plural) or modifier_use(text, end):
        return None
    for n in (3, 2, 1):
        if end - n < lo:
            continue
        phrase = tuple(w.text for w in text.words[end - n : end - 1]) + (last[:-1],)
        if phrase in lex.quantity_of and (keep is None or keep(phrase)):
            return lex.quantity_of[phrase]
    return None


def qualified(text: Text, start: int, end: int, hit: Phrase) -> Quantity:
    """The quantity of rule phrase ``hit`` at ``words[start:end]``, with the qualifiers before it.

    A phrase that names its quantity ("regret", "sample complexities", "error rate" for error)
    takes the words the parse attaches to it as modifiers that say which quantity it is ("Nash
    regret", "expected regret", "full swap regret"), also when the parse made the phrase a
    modifier of the noun after it ("expected regret bound", "single-user cumulative regret
    scaling"); words that describe the bound or its regime instead ("optimal", "worst-case",
    "high-probability", "$T$-round") are skipped. A phrase a rule maps to another name ("time"
    -> running time) and text without a parse keep the rule's quantity.
    """
    words, sentences, lex = text.words, text.sentences, text.lex
    quantity, rule = lex.quantity_of[hit]
    if quantity == "convergence rate" and names_itself(hit, quantity) and start > 0:
        # the words before a convergence rate describe the method ("accelerated", "last-iterate"),
        # but an expected or ergodic one is another quantity
        before = words[start - 1].text
        if before in lex.rate_qualifiers and sentences[start - 1] == sentences[start]:
            return f"{before} {quantity}", "q.qualified"
    if not names_itself(hit, quantity) or quantity == "convergence rate" or text.doc is None:
        return quantity, rule
    if start >= 2 and words[start - 1].text == "expected" and words[start - 2].formula >= 0:
        # "it has $O(k)$ expected running time": the small parser reads "expected" as a verb
        return f"expected {quantity}", "q.qualified"
    head = token_at(text, words[end - 1].start)
    if head is None:
        return quantity, rule
    inside = {head.i}
    for w in words[start : end - 1]:
        tok = token_at(text, w.start)
        if tok is not None:
            inside.add(tok.i)
    if head.dep_ == "compound" and head.head.i == head.i + 1:
        inside.add(head.head.i)  # "an expected regret bound": the parse's head is "bound"
    taken: list[int] = []
    k = start - 1
    while k >= 0 and start - k <= 5 and sentences[k] == sentences[start]:
        w = words[k]
        opened = None
        if w.text == ")" and k >= 2 and words[k - 2].text == "(":
            opened, k = k - 2, k - 1  # "an optimal (dynamic) regret"
            w = words[k]
        # a hyphenated word is read by its last part ("per-action regret")
        tok = token_at(text, w.start + w.text.rfind("-") + 1 if w.formula < 0 else w.start)
        if tok is None or _attached(text, k) or tok.tag_ not in _QUALIFIER_TAGS:
            break
        if tok.dep_ not in _QUALIFIER_DEPS or tok.head.i not in inside:
            break
        if w.formula >= 0:
            # "an expected $\ell_2$ error": a symbol between qualifiers is skipped, never named
            # (a formula with no qualifier before it is the bound: "attains $X$ regret")
            if not _symbol_between_qualifiers(text, k, inside | {tok.i}):
                break
        elif bound_describing(lex, w.text):
            pass  # "cumulative achievable regret", "worst case regret": skipped
        elif _QUALIFIER_WORD.fullmatch(w.text):
            taken.append(k)
        else:
            break
        inside.add(tok.i)
        k = (opened if opened is not None else k) - 1
    if not taken:
        return quantity, rule
    names: list[str] = []
    for j in sorted(taken):
        written = text.written(j)
        # a name keeps its capital ("Nash", "Bayesian"); a sentence's first word does not
        first = j == 0 or sentences[j - 1] != sentences[j]
        names.append(written if written[:1].isupper() and not first else words[j].text)
    return " ".join([*names, quantity]), "q.qualified"


def _symbol_between_qualifiers(text: Text, k: int, inside: set[int]) -> bool:
    """Whether the formula ``words[k]`` is a symbol after a qualifier ("expected $\\ell_2$ error")."""
    if k < 1 or not is_symbol(text, k):
        return False
    before = text.words[k - 1]
    tok = token_at(text, before.start)
    return (
        before.formula < 0
        and tok is not None
        and tok.dep_ in _QUALIFIER_DEPS
        and tok.tag_ in _QUALIFIER_TAGS
        and tok.head.i in inside
        and bool(_QUALIFIER_WORD.fullmatch(before.text))
        and not bound_describing(text.lex, before.text)
    )


def _attached(text: Text, k: int) -> bool:
    """Whether ``words[k]`` continues a formula or hyphen written against it ("$T$-round")."""
    prev = text.words[k - 1] if k > 0 else None
    if prev is None or prev.end != text.words[k].start:
        return False
    return prev.formula >= 0 or prev.text == "-"


def compound(text: Text, start: int, end: int) -> Quantity | None:
    """An open-vocabulary quantity: a noun modifier and a generic head noun ("teaching complexity").

    ``words[start:end]`` is a one-word head of the ``open-heads`` list ("complexity",
    "violation", "divergence" …); the noun right before it names which one ("projection
    complexity", "constraint violation"), whatever the noun, so quantities the rule tables never
    listed are still named. A determiner, adjective, number or formula before the head names none.
    """
    lex = text.lex
    if end - start != 1 or start < 1:
        return None
    head = text.words[start]
    if head.text not in lex.open_heads or modifier_use(text, end):
        return None
    k = start - 1
    mod = text.words[k]
    if mod.formula >= 0 or text.sentences[k] != text.sentences[start] or not _noun_modifier(text, k):
        return None
    word = mod.text.lower()
    named = lex.quantity_of.get((word, lex.open_heads[head.text]))
    if named is not None:
        return named  # "time complexities": the tables' "time complexity", a running time
    return f"{word} {lex.open_heads[head.text]}", "q.open-compound"


def _noun_modifier(text: Text, k: int) -> bool:
    """Whether ``words[k]`` is a noun modifying the next word: the parse decides when there is one."""
    lex = text.lex
    word = text.words[k].text
    if not re.fullmatch(r"[A-Za-z][A-Za-z\-]*[A-Za-z]", word) or "-" in word:
        return False
    if word.lower() in lex.not_modifiers or word.lower() in lex.not_noun_modifiers:
        return False
    tok = token_at(text, text.words[k].start)
    if tok is not None:
        return bool(tok.tag_ in ("NN", "NNS", "NNP", "VBG") and tok.dep_ in ("compound", "amod", "nmod"))
    return not word.lower().endswith(lex.adjective_endings)


def quantity_after(text: Text, wk: int, naming: bool = False) -> Quantity | None:
    """A quantity phrase right after the formula (``$X$ regret``), skipping a few modifiers.

    Without ``naming`` (when the phrase decides whether a formula is a claim at all), phrases
    that only name a quantity ("$L \\times K$ mean reward matrix") do not count.
    """
    sent = text.sentences[wk]
    for skip in (1, 2, 3):
        k = wk + skip
        if k >= len(text.words) or text.sentences[k] != sent or text.words[k].formula >= 0:
            return None
        word = text.words[k].text
        if word == "per" or word.startswith("per-"):
            # "$X$ per-step cost", "$X$ per step complexity": a cost per unit
            return _per_unit_cost(text, k) if naming else None
        hit = q_at(text, k, naming=naming)
        if hit is not None:
            return hit[0]
        # "$X$ random linear measurements", "$X$ problem-dependent regret": modifiers in between
        if not word[:1].isalpha() and word != "-" or word in text.lex.not_modifiers:
            return None
    return None


def _per_unit_cost(text: Text, k: int) -> Quantity | None:
    """ "per-step cost" / "per step complexity" at word ``k``: "per-step cost", as written."""
    words = text.words
    if words[k].text == "per":
        if k + 2 >= len(words) or not words[k + 1].text.isalpha():
            return None
        unit, at = words[k + 1].text, k + 2
    else:
        unit, at = words[k].text[4:], k + 1
    if at >= len(words) or not unit.isalpha():
        return None
    if words[at].text in text.lex.per_unit_heads:
        return f"per-{unit} {words[at].text}", "q.per-unit-cost"
    hit = q_at(text, at, naming=True)  # "$X$ per-iteration time and space": the running time
    return hit[0] if hit is not None else None


def quantity_before(text: Text, wk: int, limit: int = 10, naming: bool = False) -> Quantity | None:
    """A quantity phrase ending at most ``limit`` words before the formula ("regret of $X$")."""
    lex = text.lex
    lo = window_before(text, wk, limit)
    # a phrase ending in the window may start a little before it: "the estimation error is of order"
    lo_start = window_before(text, wk, limit + 3)
    for end in range(wk, lo, -1):
        near = wk - end <= 3  # "rate", "complexity" count only this close
        if end < wk and counted_variable(text, end - 1, wk):
            continue  # "$O(1/\sqrt{n})$ after $n$ iterations, and of $O(1/n)$ …"

        def usable(p: Phrase, near: bool = near) -> bool:
            return p not in lex.after_only and (near or p not in lex.adjacent_only)

        hit = q_ending(text, end, lo_start, usable, naming)
        if hit is None and near:
            hit = singular_phrase(text, end, lo_start, usable)  # "all have runtimes $X$"
        if hit is not None:
            return hit
    return None


def quantity_adjacent(text: Text, wk: int) -> Quantity | None:
    """A quantity phrase right after the formula or at most four words before it."""
    return quantity_after(text, wk) or quantity_before(text, wk, 4)


def quantity_near(text: Text, wk: int, naming: bool = False) -> Quantity | None:
    """A quantity phrase right after the formula or at most six words before it."""
    return quantity_after(text, wk, naming) or quantity_before(text, wk, 6, naming)


def names_itself(phrase: Phrase, quantity: str) -> bool:
    """Whether a rule phrase names its quantity, up to hyphens, plurals and a unit after it:
    "regret", "sample complexities", "simple-regret", "error rate" (error); not "time" (running
    time) or "test error" (error)."""
    words = " ".join(phrase).replace("-", " ").split()
    wanted = quantity.lower().split()
    if len(words) < len(wanted):
        return False
    return all(w == q or w == q + "s" for w, q in zip(words, wanted, strict=False))


def bound_describing(lex: Lexicon, word: str) -> bool:
    """A modifier that describes the bound or its regime, not the quantity ("$T$-round", "minimax",
    "best-known")."""
    low = word.lower()
    if low in lex.bound_describing:
        return True
    first, _, rest = low.partition("-")
    return bool(rest) and (
        len(first) == 1 or rest in lex.describing_suffixes or first in lex.bound_describing
    )
