"""Clues to the bounded quantity near a formula: what the words around it say it bounds.

Each reader looks for one construction and returns a quantity name or None; :mod:`quantity`
tries them in order of evidence. "$X$ lower bound on the regret" (:func:`bound_on_after`),
"the regret of the method grows as $X$" (:func:`rate_subject`), "the worst-case sample complexity
of our algorithm … is upper bounded by $X$" (:func:`predicate_subject`, from the parse), "improves
the time from $A$ to $B$" (:func:`improved_from_to`), "runs in time $X$"
(:func:`resource_right_before`), "$X$ stochastic gradient and Hessian-vector products"
(:func:`oracle_count_after`), "polynomial time ($X$)" (:func:`apposition`) …
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from extractors.bounds.counts import counted_plural, counted_variable, modifier_use, number_spans
from extractors.bounds.definitions import named_before, symbol_quantities
from extractors.bounds.lexicon import Lexicon
from extractors.bounds.phrases import Quantity, bound_describing, general, q_at, q_ending, quantity_after
from extractors.bounds.subject import names_method
from extractors.bounds.text import Text, sentence_span, token_at, window_before, word_of
from extractors.bounds.words import match_at

# Dependencies a formula's parse path may climb to the verb whose subject it bounds.
_PATH_DEPS = frozenset(
    "pobj attr acomp oprd prep agent conj npadvmod advmod amod quantmod pcomp appos".split()
)


def coordinated_quantity(text: Text, wk: int) -> Quantity | None:
    """The quantity after the next formula when "and"/"or" joins them: "$X$ upper-level and $Y$
    lower-level projection complexity" bounds one quantity twice; but "$X$ questions and $Y$
    bits" counts a noun of its own."""
    lex = text.lex
    sent = text.sentences[wk]
    nxt = wk + 1
    if nxt < len(text.words) and text.sentences[nxt] == sent and counted_plural(text, nxt, False):
        return None
    for k in range(wk + 1, min(wk + 4, len(text.words))):
        w = text.words[k]
        if text.sentences[k] != sent or w.formula >= 0:
            return None
        if w.text in ("and", "or"):
            nxt = k + 1
            if nxt < len(text.words) and text.sentences[nxt] == sent and text.words[nxt].formula >= 0:
                return quantity_after(text, nxt, naming=True)
            return None
        if w.text in lex.not_modifiers or not (w.text[:1].isalpha() or w.text == "-"):
            return None
    return None


def apposition(text: Text, wk: int) -> str | None:
    """The quantity a parenthesised formula restates: "polynomial time ($O(n^2e)$)".

    A formula opening a parenthesis gives the size of the noun phrase just before it; any
    quantity phrase there (even "time", which counts only next to a formula) names it, and
    one head noun after that phrase may close it ("a polynomial time algorithm ($X$, …)").
    """
    lex = text.lex
    if wk < 2 or text.sentences[wk - 1] != text.sentences[wk]:
        return None
    if text.words[wk - 1].text == "," and wk + 1 < len(text.words):
        # "runs in near linear time, $X$, and …": a formula set off by commas restates too
        closed = text.words[wk + 1].text in (",", ".", ";")
        if not closed and text.sentences[wk + 1] == text.sentences[wk]:
            return None
    elif text.words[wk - 1].text != "(":
        return None
    for end in (wk - 1, wk - 2):
        if end < 1 or text.words[end - 1].formula >= 0:
            return None
        hit = lex.quantities.ending(text.words, end, max(0, end - 4))
        if hit is not None and not (end == wk - 1 and modifier_use(text, end)):
            return lex.quantity_of[hit][0]
    return None


def improved_from_to(text: Text, wk: int, bound_words: AbstractSet[int]) -> str | None:
    """ "improves the sample complexity for realizing logarithmic regrets from $A$ to $B$": both
    formulas bound the object of the improving verb, the first quantity after it."""
    lex = text.lex
    k = wk - 1
    if k >= 2 and text.words[k].text == "to" and text.words[k - 1].formula >= 0:
        k -= 2  # "… from $A$ to $B$": back to the "from" of $A$
    if k < 0 or text.words[k].text != "from":
        return None
    lo = window_before(text, k, 16, bound_words)
    for v in range(k - 1, lo - 1, -1):
        if text.words[v].text in (";", ":"):
            return None
        if text.words[v].text.startswith(lex.improve_verbs):
            for j in range(v + 1, k):
                hit = q_at(text, j, naming=True)
                if hit is not None and j + hit[1] <= k:
                    return hit[0][0]
            return None
    return None


def improved_to(text: Text, wk: int) -> str | None:
    """ "we reduce the space to $X$ and the time to $Y$": the object of the improving verb
    before "to" ("space" and "time" count here, as the object named)."""
    lex = text.lex
    if wk < 3 or text.words[wk - 1].text != "to":
        return None
    lo = window_before(text, wk, 8)
    for v in range(wk - 2, lo - 1, -1):
        w = text.words[v]
        if w.formula >= 0 or w.text in (";", ":", ","):
            return None
        if w.text.startswith(lex.improve_verbs) or w.text in ("and", "or"):
            for j in range(v + 1, wk - 1):
                hit = q_at(text, j, naming=True)
                if hit is not None and j + hit[1] == wk - 1:
                    return None if hit[0][1] in lex.vague_ids else hit[0][0]
            return None
    return None


def resource_right_before(text: Text, wk: int) -> str | None:
    """The quantity a resource word right before the formula names, after a resource verb:
    "runs in time $O(n^5)$", "requires space $X$" (words that count only next to a formula),
    also with the growth the formula states in words between: "in nearly-linear time $X$"."""
    lex = text.lex
    end = wk
    if wk >= 3 and (text.words[wk - 2].text, text.words[wk - 1].text) in lex.at_most_least:
        end = wk - 2  # "takes time at least $X$"
    verb = end - 2
    while verb >= 0 and end - verb <= 4 and lex.growth_word.fullmatch(text.words[verb].text):
        verb -= 1
    if verb < 0 or text.words[verb].text not in lex.resource_verbs:
        return None
    hit = lex.quantities.ending(text.words, end, end - 1)
    return lex.quantity_of[hit][0] if hit is not None and hit in lex.after_only else None


def predicate_subject(text: Text, wk: int) -> str | None:
    """The quantity the subject of a bounding predicate names: "the worst-case sample complexity
    of our algorithm to learn … is upper bounded by $X$", "its regret is at most $A$ …, and at
    most $B$", "running time that is $X$".

    From the formula, the parse is climbed through prepositions, complements and coordinated
    complements (never through a noun, which would own the formula: "regret of $X$") to a verb
    that states a size (be, become, bound, scale, grow, decay, converge …); its subject (the
    antecedent of a relative pronoun; a coordinated or passive verb's head's subject) is read
    as a quantity phrase ending at the subject's head word. Needs the parse; a vague subject
    ("the rate is …") names nothing.
    """
    lex = text.lex
    tok = token_at(text, text.words[wk].start)
    if tok is None:
        return None
    cur, verb = tok, None
    for _ in range(6):
        head = cur.head
        if head is cur or cur.dep_ not in _PATH_DEPS and not _second_subject(cur):
            return None
        if head.pos_ in ("VERB", "AUX"):
            verb = head
            break
        if head.pos_ not in ("ADP", "ADV", "ADJ", "SCONJ", "CCONJ", "PART") and head.lower_ != "order":
            return None  # a noun owns the formula, but "is on the order of $X$" does not
        cur = head
    if verb is None or not _sizing_verb(text, verb):
        return None
    subjects: list[Any] = []
    for _ in range(3):
        subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
        if subjects or verb.dep_ not in ("acomp", "xcomp", "conj") or verb.head is verb:
            break
        verb = verb.head
    if not subjects:
        return None
    subj = subjects[0]
    if subj.tag_ == "WDT" and verb.dep_ == "relcl":
        subj = verb.head  # "running time that is $X$": the relative clause's antecedent
    if verb.lemma_ == "scale" and names_method(lex, subj):
        return "running time"  # "the FACS algorithm only scales as $O(k \log k)$"
    if subj.pos_ not in ("NOUN", "PROPN"):
        return None
    k = word_of(text, subj)
    if k is None or k >= wk or text.sentences[k] != text.sentences[wk]:
        return None
    if counted_variable(text, k, wk):
        return None  # "The error … after $t$ iterations scales like $\\beta/t$"
    if k in number_spans(text):
        return number_spans(text)[k][1]  # "the number of tests … is at most $X$"
    lo = max(sentence_span(text, k)[0], k - 4)
    found = q_ending(text, k + 1, lo, naming=True)
    if found is None and subj.tag_ == "NNS" and subj.lemma_.lower() != text.words[k].text:
        # "their $L_\infty$/$L_2$ ratios are upperbounded by $X$": the singular names it
        singular = subj.lemma_.lower()
        for n in (3, 2, 1):
            phrase = tuple(w.text for w in text.words[max(lo, k - n + 1) : k]) + (singular,)
            if len(phrase) == n and phrase in lex.quantity_of:
                found = lex.quantity_of[phrase]
                break
    if found is not None and found[0] == lex.vague_complexity and found[1] in lex.vague_ids:
        # "the complexity of SCSG to reach a stationary point … is $X$": the complexity the
        # abstract named before, else a computational one
        return named_before(text, k, "complexity", "complexities") or found[0]
    if found is None or found[1] in lex.vague_ids:
        return None
    return found[0]


def _second_subject(tok: Any) -> bool:
    """Whether the parse made the formula token a second subject of its verb, after the real
    one ("For a matrix D, the complexity of … is $X$": "complexity" and the formula both nsubj);
    the formula is then the verb's complement."""
    if tok.dep_ != "nsubj" or tok.head.pos_ not in ("VERB", "AUX"):
        return False
    return any(c.dep_ in ("nsubj", "nsubjpass") and c.i < tok.head.i < tok.i for c in tok.head.children)


def problem_class(text: Text, k: int) -> bool:
    """Whether ``words[k]`` ends a class of problems, not a quantity: a loss or objective that
    "for" or "with" makes convex, smooth or Lipschitz ("for strongly convex loss", "with
    smooth losses")."""
    lex = text.lex
    if text.words[k].text not in lex.class_nouns:
        return False
    j = k - 1
    while j >= 0 and k - j <= 3 and text.words[j].text.lower() in lex.class_adjectives:
        j -= 1
    return j < k - 1 and j >= 0 and text.words[j].text in ("for", "with", "of")


def sized_algorithm(text: Text, wk: int) -> bool:
    """ "the $O(N \\log N)$ Cooley-Tukey FFT algorithm": an asymptotic formula between a
    determiner and, at most three words on, the algorithm it sizes is that algorithm's running
    time; words that describe the algorithm may stand before the formula ("an efficient
    $O(n \\log n)$ algorithm", "the previous $O(n^2)$ algorithm")."""
    lex = text.lex
    k = wk - 1
    while k >= 0 and wk - k <= 2 and _describes_algorithm(lex, text.words[k].text):
        k -= 1
    if k < 0 or text.words[k].text not in ("the", "a", "an"):
        return False
    pieces = text.formulas[text.words[wk].formula].pieces
    if not any(p.role == "bound" and p.notation in ("O", "Theta") and not p.has_lhs for p in pieces):
        return False
    for k in range(wk + 1, min(wk + 5, len(text.words))):
        w = text.words[k]
        if w.formula >= 0 or text.sentences[k] != text.sentences[wk] or not w.text[:1].isalpha():
            return False  # "$O(\\log n)$-competitive algorithm" sizes another quantity
        if w.text in lex.sized_nouns:
            return True
    return False


def bound_on(text: Text, wk: int) -> Quantity | None:
    """The quantity of "a bound on the X …" / "guarantees for X" earlier in the sentence.

    "their bound on the estimation error of any … algorithm on $n$ samples … is $X$": the
    quantity the bound is said to be on outranks nouns nearer to the formula.
    """
    lex = text.lex
    lo, _ = sentence_span(text, wk)
    for k in range(wk - 2, lo - 1, -1):
        if text.words[k].text not in lex.bound_nouns or text.words[k + 1].text not in ("on", "for"):
            continue
        j = k + 2
        while j < wk and text.words[j].text in lex.bound_on_fillers:
            j += 1
        hit = q_at(text, j, general(text), naming=True)
        if hit is not None and j + hit[1] <= wk:
            return hit[0]
    return None


def bound_on_after(text: Text, wk: int) -> str | None:
    """ "$X$ lower bound on the regret", "$X$ guarantees for the excess risk", "an upper bound of
    $X$ on the loss": the bounded noun."""
    lex = text.lex
    sent = text.sentences[wk]
    k = wk + 1
    while k < len(text.words) and k <= wk + 3 and text.words[k].text in lex.bound_sides:
        k += 1
    if (
        wk >= 2
        and text.words[wk - 1].text == "of"
        and text.words[wk - 2].text in lex.bound_nouns
        and k == wk + 1
        and k < len(text.words)
        and text.sentences[k] == sent
        and text.words[k].text == "on"
    ):
        # "a worst-case upper bound of $X$ on the loss after $T$ rounds" ("regret bounds of $X$
        # for suboptimality gap $\Delta_i$" names a parameter, not what is bounded)
        j = k + 1
    elif (
        k + 1 >= len(text.words)
        or text.sentences[k + 1] != sent
        or text.words[k].text not in lex.bound_nouns | lex.requirement_nouns
        or text.words[k + 1].text not in ("on", "for")
    ):
        return None
    else:
        j = k + 2
    while j < len(text.words) and text.words[j].text in lex.bound_on_fillers:
        j += 1
    if j < len(text.words) and text.words[j].formula >= 0:
        # "the $\widetilde{\Omega}(\kappa d)$ requirement on $n$", $n$ the number of samples
        symbol = text.abstract[text.words[j].start : text.words[j].end].strip("$ ").replace(" ", "")
        return symbol_quantities(text).get(symbol)
    hit = q_at(text, j, general(text), naming=True) if j < len(text.words) else None
    return hit[0][0] if hit is not None else None


def oracle_count_after(text: Text, wk: int) -> str | None:
    """ "$X$ stochastic gradient and Hessian-vector product computations" count oracle calls.

    A counted resource (computations, products, evaluations, costs, calls, queries) after the
    formula whose modifiers name a gradient, a Hessian, a function or an oracle is an oracle
    complexity, whatever the head noun alone would say ("computations", "queries"); gradients
    alone, evaluated, computed or paid for, are a gradient complexity ("$X$ stochastic
    gradient evaluations").
    """
    lex = text.lex
    sent = text.sentences[wk]
    named: set[str] = set()
    for k in range(wk + 1, min(wk + 9, len(text.words))):
        w = text.words[k]
        if text.sentences[k] != sent or w.formula >= 0:
            return None
        if w.text in lex.oracle_counts:
            if not named:
                return None
            gradient = named <= lex.gradient_words and w.text not in lex.oracle_only_counts
            return "gradient complexity" if gradient else "oracle complexity"
        if w.text in lex.oracle_words:
            named.add(w.text)
        elif not (w.text in ("and", "or", "/", "-") or w.text.isalpha() and w.text not in lex.not_modifiers):
            return None
    return None


def rate_subject(text: Text, wk: int) -> str | None:
    """The quantity that "converges as", "decays like" or "is bounded by" the formula.

    "the loss converges as $O(1/t)$", "the regret of the method grows as $X$": the subject of
    the verb names what is bounded ("the weight vector converges …" names nothing).
    """
    lex = text.lex
    lo = window_before(text, wk, 8)
    verb = next((k for k in range(wk - 1, lo - 1, -1) if text.words[k].text in lex.rate_verbs), None)
    if verb is None or any(text.words[k].text in (",", ";", "and") for k in range(verb, wk)):
        return None
    k = verb
    while k > lo and text.words[k - 1].text in lex.subject_skip:
        k -= 1
    found = q_ending(text, k, max(lo, k - 4), naming=True)
    if found is not None and counted_variable(text, k - 1, wk):
        # "The error … after $t$ iterations scales like $\\beta/t$": the count is the bound's
        # variable; the subject is the quantity named before it in the sentence
        s_lo = sentence_span(text, wk)[0]
        found = next(
            (
                hit
                for end in range(k - 2, s_lo, -1)
                if (hit := q_ending(text, end, max(s_lo, end - 4), naming=True)) is not None
            ),
            None,
        )
    if found is None:
        # "the $\\ell_2$-error of our estimator decays": the noun before an "of" phrase
        of = next((j for j in range(k - 1, max(lo, k - 5) - 1, -1) if text.words[j].text == "of"), None)
        if of is not None:
            found = q_ending(text, of, max(lo, of - 4), naming=True)
    if found is None or found[1] in lex.vague_ids:
        return None
    return found[0]


def measured_before(text: Text, wk: int) -> str | None:
    """The specific quantity ending right before the formula, through linking words only
    ("regret of", "complexity at least", "regret"): what a unit after the formula measures."""
    lex = text.lex
    k = wk
    lo = window_before(text, wk, 4)
    while k > lo and text.words[k - 1].text in lex.measure_links:
        k -= 1
    found = q_ending(text, k, max(0, k - 4))
    if found is None or found[1] in lex.vague_ids:
        return None
    return found[0]


def bits_of(text: Text, wk: int) -> str | None:
    """The resource counted in bits after the formula: "$X$ bits of space" is a space complexity,
    and so are "$X$ words of space" and "$X$ bits to store"."""
    lex = text.lex
    sent = text.sentences[wk]
    for k in range(wk + 1, min(wk + 4, len(text.words) - 2)):
        if text.sentences[k + 2] != sent:
            return None
        if text.words[k].text in lex.memory_units and text.words[k + 1].text in ("of", "to"):
            return lex.bit_resources.get(text.words[k + 2].text)
    return None


def resource_bound_before(text: Text, wk: int) -> str | None:
    """ "communication lower bounds of $X$", "our space lower bound is $X$": a resource noun
    naming the bound before the formula names the quantity (the noun alone may name none)."""
    lex = text.lex
    k = wk
    lo = window_before(text, wk, 6)
    while k > lo and text.words[k - 1].text in lex.measure_links:
        k -= 1
    if k - 1 <= lo or text.words[k - 1].text not in lex.bound_nouns:
        return None
    k -= 1
    while k > lo and text.words[k - 1].text in lex.bound_sides:
        k -= 1
    if k - 1 < lo or text.words[k - 1].formula >= 0:
        return None
    found = q_ending(text, k, max(lo, k - 4))
    if found is not None:
        return None if found[1] in lex.vague_ids else found[0]  # "cumulative regret bound of"
    noun = text.words[k - 1].text
    hit = lex.quantity_of.get((noun, "complexity")) or lex.quantity_of.get((noun,))
    if hit is None or hit[1] in lex.vague_ids or (noun,) in lex.name_only:
        return None
    return hit[0]


def converging_rate(text: Text, wk: int) -> bool:
    """Whether "rate" right before the formula (or right after it, "converge at a $X$ rate") is
    governed by a converging verb ("converges at a rate of $X$", "converging at rate $X$"): a
    convergence rate, whatever else the sentence names."""
    rates = text.lex.rate_nouns
    lo = window_before(text, wk, 6)
    rate = next((k for k in range(wk - 1, lo - 1, -1) if text.words[k].text in rates), None)
    if rate is None:
        if wk + 1 < len(text.words) and text.words[wk + 1].text in rates:
            # "converge to the optimum at a $O(1/t^2)$ rate"
            lo = window_before(text, wk, 8)
            return any(text.words[k].text.startswith("converg") for k in range(lo, wk))
        return False
    return any(text.words[k].text.startswith("converg") for k in range(max(lo, rate - 4), rate))


def modifier_before_parenthesis(text: Text, wk: int) -> str | None:
    """ "gradient (i.e., stochastic first-order oracle, SFO) complexity of $X$" → oracle complexity:
    the parenthesis names an oracle, or else the phrase before it names the quantity."""
    lex = text.lex
    for h in range(wk - 1, max(wk - 4, 0), -1):
        if text.words[h].text not in lex.vague_heads:
            continue
        if text.words[h - 1].text != ")":
            return None
        depth = 0
        for p in range(h - 1, max(h - 16, 0), -1):
            word = text.words[p].text
            depth += (word == ")") - (word == "(")
            if depth == 0:
                if any(w.text in lex.oracle_names for w in text.words[p + 1 : h - 1]):
                    return "oracle complexity"  # the parenthesis says it counts oracle calls
                for n in (2, 1):
                    phrase = tuple(w.text for w in text.words[max(p - n, 0) : p]) + (text.words[h].text,)
                    hit = lex.quantity_of.get(phrase)
                    if hit is not None and phrase not in lex.sentence_first:
                        return hit[0]
                return None
        return None
    return None


def computed_in(text: Text, wk: int, bound_words: AbstractSet[int]) -> bool:
    """ "runs in $O(nd)$.", "we can compute $A$ in $X$, such that …": time, named by the verb."""
    lex = text.lex
    if wk < 2 or text.words[wk - 1].text != "in":
        return False
    nxt = text.words[wk + 1].text if wk + 1 < len(text.words) else "."
    if text.sentences[min(wk + 1, len(text.words) - 1)] != text.sentences[wk] or nxt in (",", ";", "."):
        lo = window_before(text, wk, 8, bound_words)
        return any(text.words[k].text in lex.compute_verbs for k in range(lo, wk - 1))
    return False


def in_expectation(text: Text, wk: int, quantity: str | None) -> str | None:
    """ "a regret bound of $X$ in expectation" bounds the expected regret: an expectation
    right after the formula qualifies a regret, risk, error, loss or cost it bounds, as "expected"
    before it does ("samples in expectation" stay a sample complexity)."""
    lex = text.lex
    if (
        quantity is None
        or quantity.split(" ")[-1] not in lex.expectable
        or quantity.startswith("expected ")
        or not match_at(text.words, wk + 1, ("in", "expectation"))
        or text.sentences[wk + 2] != text.sentences[wk]
    ):
        return quantity
    return "expected " + quantity


def _sizing_verb(text: Text, verb: Any) -> bool:
    """Whether a parse verb states the size of its subject ("is", "bounded", "decays")."""
    lex = text.lex
    lemma = verb.lemma_.lower()
    return lemma in lex.sizing_lemmas or verb.lower_ in lex.rate_verbs or verb.lower_.endswith("bounded")


def _describes_algorithm(lex: Lexicon, word: str) -> bool:
    """A word before the formula sizing an algorithm that describes the algorithm ("efficient",
    "previous", "naive")."""
    return bound_describing(lex, word) or word in lex.algorithm_adjectives
