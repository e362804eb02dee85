"""Kind and tightness: which side a bound is on, and whether the abstract calls it tight.

The notation gives a kind (``O`` upper, ``\\Omega`` lower, ``\\Theta`` tight, ``\\sim`` order);
the words refine it. "a lower bound of $\\mathcal{O}(Km\\log T)$" and "an $O(d/T)$ lower bound"
are lower bounds whatever the head; "impossible … with $o(\\log n)$ rounds" and "a rate of $X$
is not attainable" bound from below. A bound is tight when a tight cue stands right before it
("optimal", unhedged: "nearly tight" is no cue), in its clause after it ("…, which is also
tight"; not "tight up to log factors"), later in its sentence about it ("…, and show that this
bound is tight"), or when the next sentence opens on a reference to it and calls it tight or
states a matching lower bound ("… of order $X$. Those rates are optimal").
"""

from __future__ import annotations

from extractors.bounds.notation import Piece
from extractors.bounds.text import SPAN, Text, bound_formula, ends_before, sentence_span, window_before
from extractors.bounds.words import Phrase, match_at


def refine_kind(text: Text, wk: int, piece: Piece, kind: str) -> str:
    """Refine ``kind``: a bound the abstract calls tight, unimprovable or matching is ``tight``."""
    lex = text.lex
    if kind == "tight":
        return kind
    if (
        kind == "upper"
        and piece.rule.startswith("head.")
        and ends_before(text, wk, "lower-override", lo=window_before(text, wk, 4), gap=1)
    ):
        return "lower"  # "a lower bound of $\\mathcal{O}(Km\\log T)$": the words say which side
    if kind == "upper" and piece.rule.startswith("head.") and _lower_bound_after(text, wk):
        return "lower"  # "an $O(d/T)$ lower bound on the excess risk"
    if (
        kind == "upper"
        and piece.notation in ("o", "O")
        and (_impossible_before(text, wk) or _unattainable_after(text, wk))
    ):
        return "lower"  # "impossible … with $o(\\log n)$ rounds" states a lower bound
    if kind == "upper" and piece.notation == "o" and _negated_before(text, wk):
        return "lower"  # "no algorithm … learns it in $o(\\log\\log n)$ rounds": not within o(X)
    lo = window_before(text, wk, 4)
    before = ends_before(text, wk, "tight", lo=lo, gap=3)
    if before is not None:
        k = next((k for k in range(wk - 1, lo - 1, -1) if text.words[k].text == before[0]), wk)
        # "This lower bound is best possible, as $O(d^2)$ samples suffice": a cue that a comma
        # parts from the formula is about another bound
        parted = any(text.words[j].text in (",", ";") for j in range(k, wk))
        if not parted and lex.cue("tight-hedge").ending(text.words, k, lo) is None:
            return "tight"  # but "almost tight", "nearly tight" are not
    sent = text.sentences[wk]
    after = lex.cue("tight", "after")
    k = wk + 1
    # the clause after the formula: up to a comma, semicolon, another formula or the sentence end
    while (
        k < len(text.words)
        and k <= wk + 16
        and text.sentences[k] == sent
        and (text.words[k].text not in (",", ";") or match_at(text.words, k, (",", "which")))
        and text.words[k].formula < 0
    ):
        # "…, which is also tight": a relative clause about the bound continues the clause
        phrase = after.at(text.words, k)
        if phrase is not None:
            if _limited(text, phrase, k + len(phrase)):
                return kind  # "tight up to log factors", "tight within polylog factors": not tight
            return "tight"
        k += 1
    end = k
    _, s_hi = sentence_span(text, wk)
    while end < s_hi and not bound_formula(text, end):
        end += 1  # "…, when $d>1$, and show that this bound is tight": a condition is passed
    if _referred_tight(text, k, end) or _called_tight_next(text, wk) or _both_called_tight(text, end):
        return "tight"
    return kind


def _unattainable_after(text: Text, wk: int) -> bool:
    """ "a rate of $O(1/k^{1+\\epsilon})$ is not generally attainable": the formula's own
    predicate denies it can be reached, which bounds the quantity from below."""
    lex = text.lex
    k = wk + 1
    if k + 1 < len(text.words) and text.words[k].text in lex.resource_nouns:
        k += 1  # "$\\poly(1/\\gamma)$ time is impossible"
    if any(match_at(text.words, k, phrase) for phrase in lex.insufficient):
        return True  # "even $O(n^{1.499}/\\epsilon^2)$ examples do not suffice"
    if not (k < len(text.words) and text.words[k].text in ("is", "are")):
        return False
    k += 1
    while k < len(text.words) and k - wk <= 4 and text.words[k].text in lex.hedge_adverbs:
        k += 1
    if k < len(text.words) and text.words[k].text in lex.impossible:
        return True
    if not match_at(text.words, k, ("not",)):
        return False
    k += 1
    while k < len(text.words) and k - wk <= 6 and text.words[k].text in lex.hedge_adverbs:
        k += 1
    return k < len(text.words) and text.words[k].text in lex.unattainable


def _lower_bound_after(text: Text, wk: int) -> bool:
    """Whether a "lower-override" cue right after the formula names it ("an $O(d/T)$ lower
    bound", "$O(d/T)$-lower bound")."""
    lex = text.lex
    k = wk + 1
    if k < len(text.words) and text.words[k].text == "-":
        k += 1
    return lex.cue("lower-override", "after").at(text.words, k) is not None


def _impossible_before(text: Text, wk: int) -> bool:
    lex = text.lex
    lo, _ = sentence_span(text, wk)
    phrases = lex.cue("impossible", "sentence")
    for k in range(wk - 1, lo - 1, -1):
        if text.words[k].text in lex.contrasts and k > lo and text.words[k - 1].text == ",":
            return False  # "… time is impossible, while learning is possible in time $X$"
        if phrases.at(text.words, k) is not None:
            return True
    return False


def _negated_before(text: Text, wk: int) -> bool:
    """Whether a negation ("no", "not", "cannot" …) stands before the formula in its sentence,
    with no contrast opening a clause between ("… not …, while it runs in $o(n)$")."""
    lo, _ = sentence_span(text, wk)
    for k in range(wk - 1, lo - 1, -1):
        if text.words[k].text in text.lex.contrasts and k > lo and text.words[k - 1].text == ",":
            return False
        if text.words[k].text in text.lex.negations:
            return True
    return False


def bound_side_before(text: Text, wk: int) -> str | None:
    """ "upper" or "lower" when "upper bound"/"lower bound" is said earlier in the sentence."""
    lo, _ = sentence_span(text, wk)
    for k in range(wk - 1, max(lo, wk - 25, 0), -1):
        if text.words[k].text in ("bound", "bounds") and text.words[k - 1].text in ("upper", "lower"):
            return text.words[k - 1].text
    return None


def _both_called_tight(text: Text, k: int) -> bool:
    """ "achieving loss $A$ when $d=1$ and $B$ when $d>1$, and show that both bounds are tight":
    the bounds of a sentence that later calls them all tight ("both bounds", "these rates").
    ``k`` is the word after the clause of the first formula."""
    lex = text.lex
    if k >= len(text.words):
        return False
    _, last = sentence_span(text, k)
    for j in range(k, last):
        if bound_formula(text, j):
            k = j + 1
    plural = any(
        text.words[j].text in ("both", "these", "all")
        and text.words[j + 1].text.endswith("s")
        and text.words[j + 1].text in lex.result_nouns
        for j in range(k, last - 1)
    )
    return plural and _referred_tight(text, k, last)


def _called_tight_next(text: Text, wk: int) -> bool:
    """Whether the next sentence calls the bounds of this one tight: "… rate of order $X$. Those
    rates are optimal in the sense that they cannot be improved", "This bound is tight."

    The next sentence must open on a reference to them ("this bound", "these rates", "both
    results") and hold a tight cue after it, not hedged ("is nearly tight" is no cue) nor
    limited ("tight up to log factors").
    """
    sent = text.sentences[wk]
    _, k = sentence_span(text, wk)
    if k < len(text.words) and text.sentences[k] == sent:
        return False  # the sentence goes on past the look-around
    lo = k
    hi = k
    while hi < len(text.words) and hi - lo < SPAN and text.sentences[hi] == sent + 1:
        hi += 1
    return _referred_tight(text, lo, hi, opening=True) or _matching_lower_next(text, lo, hi)


def _matching_lower_next(text: Text, lo: int, hi: int) -> bool:
    """ "… using $X$ samples. A matching information-theoretic lower bound is proved": a next
    sentence opening on a matching lower bound makes the bounds before it tight."""
    j = lo + (lo < hi and text.words[lo].text in ("a", "the"))
    if not match_at(text.words, j, ("matching",)):
        return False
    return any(
        match_at(text.words, m, ("lower", "bound")) or match_at(text.words, m, ("lower", "bounds"))
        for m in range(j + 1, min(j + 4, hi - 1))
    )


def _referred_tight(text: Text, lo: int, hi: int, opening: bool = False) -> bool:
    """Whether ``words[lo:hi]`` refers to a bound ("this bound", "these rates") and calls it
    tight after that, unhedged and unlimited: "…, and that this bound is tight". With
    ``opening``, the reference must be among the first five words (a sentence's opening)."""
    lex = text.lex
    after = lex.cue("tight", "after")
    ref = next(
        (
            j
            for j in range(lo, min(lo + 5, hi - 1) if opening else hi - 1)
            if text.words[j].text in lex.referring
            and (
                text.words[j + 1].text in lex.result_nouns
                # "This sample complexity is shown to be optimal"
                or opening
                and text.words[j].text in ("this", "these")
                and lex.quantities.at(text.words, j + 1) is not None
                # "…, and show that this is the best possible"
                or text.words[j].text == "this"
                and text.words[j + 1].text == "is"
                and after.at(text.words, j + 1) is not None
            )
        ),
        None,
    )
    if ref is None:
        return False
    for j in range(ref + 1, hi):
        if bound_formula(text, j):
            return False  # a formula of its own: the words are about that one
        phrase = after.at(text.words, j)
        if phrase is not None:
            return not _limited(text, phrase, j + len(phrase))
    return False


def _limited(text: Text, phrase: Phrase, end: int) -> bool:
    """Whether the tight cue ``phrase`` ending before ``words[end]`` is limited: "tight up to log
    factors", "within polylog factors", or in one variable only ("optimal in $n$")."""
    return (
        phrase[-1] == "up"
        or match_at(text.words, end, ("up", "to"))
        or match_at(text.words, end, ("within",))
        or match_at(text.words, end, ("in",))
        and end + 1 < len(text.words)
        and text.words[end + 1].formula >= 0
    )


# -- attribution -----------------------------------------------------------------------------
