"""The bounded quantity: what a bound statement bounds, in order of evidence.

1. a formula written again keeps the quantity it had first, unless a quantity right after it,
   a resource right before it or the subject of its predicate names another;
2. a left side the abstract defines: "$n = \\Omega(d)$" where "$n$ is the number of samples",
   "$\\mathrm{RTD}(\\mathcal C) = O(d^2)$" after "recursive teaching dimension (RTD)";
3. a quantity phrase right after it ("$X$ regret", "$X$ bits of space"), what it is said to bound
   ("$X$ lower bound on the regret", "improves the time from $A$ to $X$", the subject of a sizing
   predicate or of a rate verb), a counted plural right after it ("$X$ tests"), a quantity phrase
   right before it ("regret of $X$", "in time $X$");
4. a parenthesis or commas restating the phrase before it, "runs in $X$", "a sample of size $X$",
   "the $O(N \\log N)$ FFT algorithm", "a bound on the X" earlier in the sentence, a quantity near
   it, else in its sentence (not from a "where" clause defining symbols);
5. for a vague "rate" or "complexity", the quantity of the bound before (two sentences back at
   most), the regret or estimation error of an abstract that never speaks of convergence, the
   complexity named before; else the last quantity named, then the abstract's first quantity.
"""

from __future__ import annotations

import re

from extractors.bounds.clues import (
    apposition,
    bits_of,
    bound_on,
    bound_on_after,
    computed_in,
    converging_rate,
    coordinated_quantity,
    improved_from_to,
    improved_to,
    measured_before,
    modifier_before_parenthesis,
    oracle_count_after,
    predicate_subject,
    problem_class,
    rate_subject,
    resource_bound_before,
    resource_right_before,
    sized_algorithm,
)
from extractors.bounds.counts import count_noun_after, counted_variable, variable_count
from extractors.bounds.definitions import (
    abstract_rate_of,
    acronyms,
    first_quantity,
    named_before,
    symbol_quantities,
)
from extractors.bounds.earlier import Earlier
from extractors.bounds.notation import SUBSCRIPT
from extractors.bounds.phrases import (
    Quantity,
    general,
    q_at,
    q_ending,
    quantity_after,
    quantity_before,
    quantity_near,
)
from extractors.bounds.text import Text, is_symbol, sentence_span
from extractors.canonical import acronym_singular, singularize

# "$n = \Theta(q\log p)$", "$n \ge \Omega(d)$": a single symbol on the left of a relation
_LHS_SYMBOL = re.compile(
    r"\s*([A-Za-z]" + SUBSCRIPT + r")\s*"
    r"(?:=|<|>|\\(?:leq?|geq?|lesssim|gtrsim|sim|asymp|approx)(?![A-Za-z]))"
)
# A left side naming a quantity by an acronym: "\mathrm{RTD}(\mathcal C) = O(d^2)", "VCD = O(d)"
_LHS_ACRONYM = re.compile(
    r"\s*(?:\\(?:mathrm|text|operatorname|textsf|mathsf)\s*\{\s*)?([A-Z][A-Z0-9]{1,7})(?![A-Za-z])\s*\}?\s*"
    r"(?:\([^()=]*\))?\s*(?:=|\\(?:leq?|geq?|lesssim|gtrsim)(?![A-Za-z])|<|>)"
)


def name_quantity(text: Text, wk: int, latex_text: str, earlier: Earlier) -> str | None:
    """What the formula word ``wk`` (written ``latex_text``) bounds; see the module docstring."""
    lex = text.lex
    if latex_text in earlier.quantity_by_latex:
        return _repeated(text, wk, earlier.quantity_by_latex[latex_text], earlier)
    lhs = _LHS_SYMBOL.match(latex_text)
    if lhs is not None and lhs.group(1).replace(" ", "") in symbol_quantities(text):
        # "$n = \widetilde{\Omega}(\kappa d)$, where $n$ is the number of samples"
        return symbol_quantities(text)[lhs.group(1).replace(" ", "")]
    acronym = _LHS_ACRONYM.match(latex_text)
    if acronym is not None and acronym.group(1) in acronyms(text):
        # "the recursive teaching dimension (RTD) … $\mathrm{RTD}(\mathcal C) = O(d^2)$"
        return acronyms(text)[acronym.group(1)]

    def vague(q: Quantity | None) -> bool:
        return q is not None and q[1] in lex.vague_ids

    resource = resource_right_before(text, wk)  # "runs in time $O(n^5)$", "uses memory $X$"

    q = quantity_after(text, wk, naming=True)
    if q is not None and q[1] == "q.cost":
        # "the per-iteration cost … a superlinear rate with $O(d^2)$ cost": the cost the abstract
        # named before
        named = named_before(text, wk, "cost", "costs")
        if named is not None:
            return named
    if q is None and resource is None:
        # "$X$ upper-level and $Y$ lower-level projection complexity"; but "requires space $X$
        # or $Y$ time" names the first formula's quantity right before it
        q = coordinated_quantity(text, wk)
    if q is not None and q[0] in lex.memory_counts:
        # "must use $X$ bits of space": the resource the bits are of names the quantity
        resource = bits_of(text, wk)
        if resource is not None:
            return resource
    if q is not None and q[0].startswith("number of"):
        # "information complexity at least $X$ bits", "a regret of $X$ bits": a unit after the
        # formula measures the quantity named right before it
        measured = measured_before(text, wk)
        if measured is not None:
            return measured
    if q is None:
        # "$X$ lower bound on the regret", "$X$ stochastic gradient and Hessian-vector products",
        # "the loss converges as $X$": what the formula is said to bound, before nearer nouns
        named = (
            improved_from_to(text, wk, earlier.bound_words)
            or improved_to(text, wk)
            or bound_on_after(text, wk)
            or resource_bound_before(text, wk)
            or oracle_count_after(text, wk)
            or predicate_subject(text, wk)
            or rate_subject(text, wk)
        )
        if named is not None:
            return named
        if resource is not None:
            return resource  # "$X$ samples in super-linear time $Y$"
        # "the optimal rate of convergence with only $O(\log T)$ projections": what the formula
        # counts; but "a regret of $X$ facing strategic buyers" still bounds the regret
        tied = wk > 0 and text.words[wk - 1].text in lex.measure_links
        counted = None if tied else count_noun_after(text, wk)
        if counted is not None and counted not in lex.memory_word_counts:
            return counted
        q = quantity_before(text, wk, 4, naming=True)
    if q is not None and not vague(q):
        return q[0]
    if q is not None:
        # "gradient (i.e., SFO) complexity of $X$": the modifier before a parenthesis
        named = modifier_before_parenthesis(text, wk)
        if named is not None:
            return named
        if converging_rate(text, wk):
            return "convergence rate"  # "while converging at a rate of $X$": the verb says which
    if q is None:
        named = apposition(text, wk)
        if named is not None:
            return named
    if q is None and (computed_in(text, wk, earlier.bound_words) or text.at(wk - 2, ("runs", "in"))):
        # "we can compute $A$ in $\widetilde{O}(m n^2)$, such that …"; "a parallel algorithm
        # which runs in $O(\log^3 d)$ when …" (here, not in computed_in, which also decides
        # whether a formula is a claim at all)
        return "running time"
    if resource is not None:
        return resource
    if q is None:
        named = _sized(text, wk) or _counted(text, wk)
        if named is not None:
            return named
    on = bound_on(text, wk)
    if on is not None and not vague(on):
        return on[0]
    q = q or quantity_near(text, wk, naming=True)
    if q is not None and not vague(q):
        return q[0]
    named = _in_sentence(text, wk)
    if named is not None:
        return named
    if q is not None:
        return _vague(text, wk, q, earlier)
    if earlier.last_quantity is not None:
        return earlier.last_quantity
    return first_quantity(text)


def _repeated(text: Text, wk: int, first: str, earlier: Earlier) -> str:
    """The quantity of a formula written again: the same claim (``first``), unless a quantity
    right after it names another ("$X$ regret and $X$ hard constraint violation"; "the $X$ rate"
    is no other), a resource right before it ("using $X$ samples and in linear time $X$"), a
    "from … to" clause of its own ("improves the time from $A$ to $X$ and reduces the memory
    requirement from $X$ to $B$"), or the subject of its predicate ("… on $2^{O(1/\\epsilon^2)}$
    nodes. … running time that is $2^{O(1/\\epsilon^2)}$")."""
    after = quantity_after(text, wk, naming=True)
    if after is not None and after[1] not in text.lex.vague_ids:
        return after[0]
    resource = resource_right_before(text, wk) or improved_from_to(text, wk, earlier.bound_words)
    if resource is not None:
        return resource
    return predicate_subject(text, wk) or first


def _sized(text: Text, wk: int) -> str | None:
    """ "a uniform sample of size $X$", "a coreset of size $X$": the sized thing names it."""
    if wk < 3 or not text.at(wk - 2, ("of", "size")):
        return None
    lex = text.lex
    noun = text.words[wk - 3]
    if not noun.text.isalpha() or noun.text in lex.not_modifiers:
        return None
    sized = lex.quantity_of.get((noun.text, "size"))
    name = text.abstract[noun.start : noun.end]  # "GGMs of size $X$" keeps its case
    # "networks of size $X$" bound the network size, "GGMs of size $X$" the GGM size
    name = singularize(name) if name.islower() else acronym_singular(name)
    return sized[0] if sized is not None else f"{name} size"


def _counted(text: Text, wk: int) -> str | None:
    """What the formula counts right after it ("$X$ tests"; "$X$ words of space" is a space
    complexity), or the running time of the algorithm it sizes ("the $O(N \\log N)$ FFT algorithm")."""
    counted = count_noun_after(text, wk)
    if counted in text.lex.memory_word_counts:
        return bits_of(text, wk) or counted
    if counted is not None:
        return counted
    if sized_algorithm(text, wk):
        return "running time"
    return None


def _in_sentence(text: Text, wk: int) -> str | None:
    """A quantity phrase of the formula's sentence: the nearest before it, else the first after it
    up to a "where" that defines symbols; a class of problems ("for strongly convex loss") and a
    count of the bound's own variable ("for $N$ iterations", "in the number of data points") are
    passed over, and so is a phrase naming a symbol ("total variation distance $\\alpha$")."""
    lo, hi = sentence_span(text, wk)
    for k in range(wk - 1, lo - 1, -1):
        if k + 1 < wk and is_symbol(text, k + 1):
            continue
        if problem_class(text, k) or counted_variable(text, k, wk) or variable_count(text, k):
            continue
        found = q_ending(text, k + 1, lo, general(text), naming=True)
        if found is not None:
            return found[0]
    for k in range(wk + 1, hi):
        if text.words[k].text == "where":
            break
        at = q_at(text, k, general(text), naming=True)
        if at is None or problem_class(text, k + at[1] - 1) or counted_variable(text, k, wk):
            continue
        if variable_count(text, k + at[1] - 1):
            continue
        return at[0][0]
    return None


def _vague(text: Text, wk: int, q: Quantity, earlier: Earlier) -> str:
    """What a vague "rate" or "complexity" ``q`` with nothing more specific in its sentence is: the
    quantity of the bound before ("the above rate recovers …"), the regret or estimation error of
    an abstract that never speaks of convergence, the complexity named before ("We analyze the
    sample complexity of … we require $X$ complexity"), else the vague name itself."""
    before = earlier.last
    if (
        before is not None
        and before.quantity is not None
        and text.sentences[wk] - text.sentences[before.word] <= 2
    ):
        return before.quantity
    if q[1] in ("q.rate", "q.rates"):
        rate_of = abstract_rate_of(text)
        if rate_of is not None:
            return rate_of
    if q[0] == text.lex.vague_complexity:
        named = named_before(text, wk, "complexity", "complexities")
        if named is not None:
            return named
    return q[0]
