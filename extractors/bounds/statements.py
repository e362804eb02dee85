"""Finding bound statements: which formula pieces the words make bounds, which are conditions,
and the formula-free claims.

A piece read as a bound by its notation (``O``, ``\\Omega`` …) is one unless a condition cue
makes it a regime ("when $|A| = \\exp(\\Omega(d))$", "for $n \\ge d^2$", a sentence opening on
"When …, we …"). A relation (``\\le``, ``\\sim``) is a bound when it states an order of a formula,
its left side names a bounded quantity (``R_T``, ``\\|x - x^*\\|``), or a quantity phrase is near
it. A bare expression is a bound only when words claim it ("of order $X$", "prior best $X$",
"improves … to $X$", "$X$ regret"). "by a factor of $X$", "improves the sample complexity by $X$"
and "$f^1, f^2, \\ldots, f^n$" bound nothing. Formula-free claims ("linear convergence rate")
come from ``bounds_verbal.jsonl``, longest phrase first.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from extractors.bounds.counts import count_noun_after
from extractors.bounds.definitions import symbol_quantities
from extractors.bounds.kind import bound_side_before, refine_kind
from extractors.bounds.notation import Piece
from extractors.bounds.phrases import quantity_adjacent, quantity_after, quantity_before, quantity_near
from extractors.bounds.text import Text, ends_before, sentence_span, window_before
from extractors.bounds.words import Phrase

# The left side of a relation when it is one symbol: "n", "N", "m_1", "\\ell".
_LHS_SYMBOL = re.compile(
    r"\s*((?:\\[A-Za-z]+|[A-Za-z])(?:\s*_\s*\{?[A-Za-z0-9]+\}?)?)\s*(?:[=<>≤≥≲≳≈≪≫]|\\[a-z])"
)


@dataclass(frozen=True, slots=True)
class Statement:
    """A formula piece that states a bound, with the kind, notation and rule that make it one."""

    piece: Piece
    word: int  # the formula's word
    kind: str
    notation: str
    rule: str


@dataclass(frozen=True, slots=True)
class Condition:
    """A regime ("when $d > 1$") that qualifies the bound nearest it in its sentence."""

    word: int
    sentence: int
    text: str  # as written, from its cue word to the end of its formula


@dataclass(frozen=True, slots=True)
class VerbalClaim:
    """A formula-free claim ("linear convergence rate") and what ``bounds_verbal.jsonl`` says of it."""

    word: int  # its first word
    start: int
    end: int
    kind: str
    quantity: str | None


def find_statements(text: Text) -> tuple[list[Statement], list[Condition]]:
    """The bound statements and conditions of the formulas of ``text``, in text order."""
    lex = text.lex
    statements: list[Statement] = []
    conditions: list[Condition] = []
    amounts: set[int] = set()  # formula words read as amounts of improvement so far
    sample_sizes: list[tuple[Statement, Condition]] = []  # sizes of a sample under a condition
    for fi, formula in enumerate(text.formulas):
        wk = text.formula_word[fi]
        if ends_before(text, wk, "not-bound", lo=window_before(text, wk, 3)):
            continue  # "by a factor of $X$"
        if _improvement_amount(text, wk, amounts):
            amounts.add(wk)
            continue
        if _ratio_after(text, wk) or lex.enumeration.search(text.abstract, formula.start, formula.end):
            continue  # "the extra $X$ factor"; "samples $f^1, f^2, \\ldots, f^n$" names symbols
        opening = _opening_condition(text, wk)
        for piece in formula.pieces:
            cond_cue = _condition_cue(text, wk) or opening
            regime = cond_cue is not None and (
                piece.has_lhs or cond_cue[1] in lex.regime_cues or opening is not None
            )
            if (
                cond_cue is not None
                and cond_cue[1] == ("with",)
                and (quantity_after(text, wk) is not None or count_noun_after(text, wk) is not None)
            ):
                # "with $m=\\Theta(N)$ neurons": a resource claimed, not a regime (unless the
                # sentence opens on a condition that holds it)
                cond_cue = opening
                regime = opening is not None
            if (
                piece.role in ("bound", "relation")
                and cond_cue is not None
                and (piece.has_lhs or piece.role == "bound" and regime)
            ):
                written = text.abstract[text.words[cond_cue[0]].start : formula.end].strip()
                condition = Condition(wk, text.sentences[wk], written)
                if _sizes_samples(text, wk, piece):
                    statement = Statement(piece, wk, piece.kind, piece.notation, piece.rule)
                    sample_sizes.append((statement, condition))
                else:
                    conditions.append(condition)
                continue
            if piece.role == "bound":
                statements.append(Statement(piece, wk, piece.kind, piece.notation, piece.rule))
            elif piece.role == "relation" and piece.notation:
                if (
                    piece.kind == "order"
                    and piece.formula_like
                    or piece.quantity_symbol
                    or (not piece.has_lhs and quantity_near(text, wk) is not None)
                    or piece.has_lhs
                    and quantity_adjacent(text, wk) is not None
                    and piece.formula_like
                    or _sizes_samples(text, wk, piece)
                ):
                    statements.append(Statement(piece, wk, piece.kind, piece.notation, piece.rule))
            elif piece.role == "expression":
                claimed = _claim(text, wk, piece)
                if claimed is not None:
                    kind, notation, rule = claimed
                    statements.append(Statement(piece, wk, kind, notation, rule))
    if sample_sizes:
        # "consistent estimation is achievable when $n \\gg S^2/\\log S$", "Given $N =
        # \\tilde\\Omega(d^2)$ samples, …": a sample size that decides what can be done is a bound
        # on the sample complexity, unless its sentence states another bound it is the regime of
        # ("… to $O(1/n^2)$ when $n = \\tilde\\Omega(\\kappa d)$")
        bounded = {text.sentences[s.word] for s in statements}
        for statement, condition in sample_sizes:
            if condition.sentence in bounded:
                conditions.append(condition)
            else:
                statements.append(statement)
        statements.sort(key=lambda s: (s.piece.start, s.piece.end))
        conditions.sort(key=lambda c: c.word)
    return statements, conditions


def _sizes_samples(text: Text, wk: int, piece: Piece) -> bool:
    """Whether ``piece`` sizes a sample: its left side is one symbol, its right side a formula
    (not a symbol), and the words count samples
    with it ("given $N = \\tilde\\Omega(d^2)$ samples", "a dataset of size $n \\gtrsim k\\ln d$") or
    the abstract defines the symbol as such a count ("$n$ samples", "the sample size $n$")."""
    if piece.role not in ("bound", "relation") or not (piece.has_lhs and piece.notation):
        return False
    if not piece.formula_like:
        return False  # "when $n \\gg m$" compares two sizes: a regime
    lhs = _LHS_SYMBOL.match(text.abstract, piece.start, piece.end)
    if lhs is None:
        return False
    counted = text.lex.sample_counts
    named = [quantity_after(text, wk, naming=True), quantity_before(text, wk, 3, naming=True)]
    if any(q is not None and q[0].lower() in counted for q in named):
        return True
    noun = count_noun_after(text, wk)
    if noun is not None and noun.lower() in counted:
        return True
    defined = symbol_quantities(text).get(lhs.group(1).replace(" ", ""))
    return defined is not None and defined.lower() in counted


def find_verbal(text: Text) -> list[VerbalClaim]:
    """Formula-free claims from ``bounds_verbal.jsonl``, longest phrase first, never overlapping."""
    lex = text.lex
    found = []
    k = 0
    n = len(text.words)
    while k < n:
        phrase = lex.verbal.at(text.words, k)
        if phrase is None:
            k += 1
            continue
        kind, quantity, _ = lex.verbal_of[phrase]
        found.append(VerbalClaim(k, text.words[k].start, text.words[k + len(phrase) - 1].end, kind, quantity))
        k += len(phrase)
    return found


def _condition_cue(text: Text, wk: int) -> tuple[int, Phrase] | None:
    """A condition cue ("when", "if", "for", "such as") just before the formula word ``wk``."""
    lex = text.lex
    lo = window_before(text, wk, 4)
    phrases = lex.cue("condition")
    for skip in range(0, 3):
        end = wk - skip
        if not all(text.words[j].text in lex.condition_fillers for j in range(end, wk)):
            break
        hit = phrases.ending(text.words, end, lo)
        if hit is not None:
            return end - len(hit), hit
    return None


def _opening_condition(text: Text, wk: int) -> tuple[int, Phrase] | None:
    """The opener of a conditional clause that starts the sentence and holds the formula: "When
    we have polynomial eigen-decay ($\\mu_j \\le O(j^{-\\beta})$), we find …", "Provided the
    chain mixes fast, i.e., the relaxation time is at most $X$, estimation is …".

    The clause ends at the first comma that no "i.e." or "e.g." continues; a main clause must
    follow it, or the sentence is the condition's own claim."""
    lex = text.lex
    lo, hi = sentence_span(text, wk)
    if lo > 0 and text.sentences[lo - 1] == text.sentences[lo]:
        return None  # the sentence starts beyond the look-around
    first = lo
    while first < wk and text.words[first].text.startswith("\\"):
        first += 1  # "\\item Provided …"
    opener = text.words[first].text.lower() if first < wk else ""
    if opener not in lex.clause_openers:
        return None
    for k in range(first + 1, hi - 1):
        if first + 1 < k < wk and text.words[k].text in lex.main_clause_openers:
            return None  # "When the data lies in $R^D$ we obtain a rate of $X$, which …"
        if text.words[k].text != ",":
            continue
        if _continued_past(text, k):
            continue
        return (first, (opener,)) if wk < k else None
    return None


def _continued_past(text: Text, k: int) -> bool:
    """Whether the comma ``words[k]`` opens or closes an "i.e." or "e.g." that goes on with
    the clause (the words split "i.e." into "i . e .")."""
    after = [w.text for w in text.words[k + 1 : k + 4]]
    before = [w.text for w in text.words[max(0, k - 3) : k]]
    return (
        after[:3] in (["i", ".", "e"], ["e", ".", "g"])
        or after[:1] == ["namely"]
        or before[-2:] in ([".", "e"], [".", "g"], ["e", "."], ["g", "."])
    )


def _ratio_after(text: Text, wk: int) -> bool:
    """ "the extra $\\sqrt{\\gamma_n}$ factor", "an $\\epsilon$-approximation": a ratio or a
    parameter named right after the formula, not a bound."""
    after = text.lex.cue("not-bound", "after").at(text.words, wk + 1)
    if after is None:
        return False
    # "an $\epsilon$-approximation" names a parameter, but "an $O(1)$-approximation" bounds the
    # approximation ratio: the asymptotic head makes it a claim
    return not (after[0] == "-" and after[-1].startswith("approximat") and _asymptotic(text, wk))


def _asymptotic(text: Text, wk: int) -> bool:
    """Whether the formula at ``words[wk]`` is an O/Ω/Θ expression standing alone (no left side,
    not one coordinate of a pair: "an $(\\epsilon, O(\\epsilon^{0.5}))$-approximate minimum")."""
    w = text.words[wk]
    body = text.abstract[w.start : w.end].strip("$ ")
    if body.startswith("(") and "," in body:
        return False
    pieces = text.formulas[w.formula].pieces
    return any(
        p.role == "bound" and p.notation in ("O", "Omega", "Theta") and not p.has_lhs and p.formula_like
        for p in pieces
    )


def _improvement_amount(text: Text, wk: int, amounts: AbstractSet[int]) -> bool:
    """ "improves the sample complexity by $X$ and $Y$": amounts of improvement, not bounds
    (``amounts``: the formula words read as such before)."""
    lex = text.lex
    k = wk - 1
    while (
        k >= 0
        and wk - k <= 3
        and text.words[k].text in ("and", ",", "or")
        or k >= 0
        and text.words[k].formula >= 0
        and k in amounts
    ):
        k -= 1
    if k < 0 or text.words[k].text != "by":
        return False
    if k > 0 and text.words[k - 1].text in lex.bounding_participles:
        return False  # "(i) decreases as …, and (ii) is always capped by $X$" states a bound
    s_lo, _ = sentence_span(text, wk)
    # "is lower bounded by $X$" states a bound
    return any(
        text.words[j].text.startswith(lex.improve_verbs)
        and not (text.words[j].text == "lower" and text.words[j + 1].text.startswith("bound"))
        for j in range(max(s_lo, k - 15), k)
    )


def _claim(text: Text, wk: int, piece: Piece) -> tuple[str, str, str] | None:
    """Words that make a bare expression a bound: "of order $X$", "prior best $X$" …:
    ``(kind, notation, rule)`` or None."""
    lex = text.lex
    if not piece.formula_like:
        return None  # a lone symbol ("at least $\\varepsilon$") is a parameter, not a claim
    lo = window_before(text, wk, 8)
    if ends_before(text, wk, "order", lo=lo, gap=1):
        # "an upper bound on the regret …, of order $X$": the sentence says which side
        side = bound_side_before(text, wk)
        if side is not None:
            return side, "le" if side == "upper" else "ge", "cue.order+" + side
        return "order", "order", "cue.order"
    if ends_before(text, wk, "lower", lo=lo, gap=1):
        return "lower", "ge", "cue.lower"
    if ends_before(text, wk, "upper", lo=lo, gap=2):
        return "upper", "le", "cue.upper"
    s_lo, _ = sentence_span(text, wk)
    if text.at(wk - 1, ("to",)) and any(
        text.words[j].text.startswith(lex.improve_verbs) for j in range(max(s_lo, wk - 15), wk)
    ):
        return "upper", "le", "cue.improve-to"
    if text.at(wk - 1, ("from",)) and text.at(wk + 1, ("to",)):
        return "upper", "le", "cue.from-to"
    if refine_kind(text, wk, piece, "order") == "tight":
        return "tight", "order", "cue.tight"
    if ends_before(text, wk, "copula", lo=lo) and quantity_before(text, wk, 8):
        s_lo, s_hi = sentence_span(text, wk)
        if any(text.words[k].text in lex.bound_nouns for k in range(s_lo, s_hi)):
            return "upper", "le", "cue.copula"
        return "order", "order", "cue.copula"
    if quantity_after(text, wk) is not None:
        return "upper", "le", "cue.quantity-after"
    if quantity_before(text, wk, 1) is not None and any(op in piece.expr for op in lex.claim_operators):
        return "upper", "le", "cue.quantity-before"  # "small iteration complexity $\\log_{2\\sqrt{2}}n$"
    return None
