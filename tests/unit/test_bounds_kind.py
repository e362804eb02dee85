"""Kind and tightness: the side the words put a bound on ("a lower bound of $O(…)$", "at least
$O(…)$", "impossible with $o(…)$"), and a bound the abstract calls tight, before it, after it,
later in its sentence or in the next one.

Expected fields are written from the sentences, not from extractor output.
"""

from __future__ import annotations

from typing import Any

import pytest

from kg.types import Paper
from tests.unit.bounds_cases import only, unparsed


@pytest.mark.parametrize(
    ("abstract", "kind"),
    [
        # a relative clause after a comma still speaks of the bound
        (
            "We show that $\\Omega(1/\\epsilon^4)$ iterations are necessary for GD to match SGD, which "
            "is also tight.",
            "tight",
        ),
        ("The computational complexity is $O(N)$, which is optimal.", "tight"),
        # "tight within polylogarithmic factors", like "tight up to", is not tight
        ("Its sample complexity is $O(d/\\epsilon)$ that is tight within polylog factors.", "upper"),
    ],
)
def test_bounds_kind_relative_clause_and_limits(abstract: str, kind: str) -> None:
    assert only(abstract).kind == kind


def test_bounds_kind_at_least_big_o_is_a_lower_bound() -> None:
    assert only("Storing the kernel matrix requires at least $O(n^2)$ time.").kind == "lower"


def test_bounds_kind_the_next_sentence_calls_the_bounds_tight() -> None:
    abstract = (
        "We construct algorithms with convergence rate of order $O(T^{-1/2})$ for independent "
        "signals and $O(T^{-1/3})$ otherwise. Those rates are optimal in the sense that they "
        "cannot be improved without further assumptions."
    )
    assert [b.kind for b in unparsed(abstract)] == ["tight", "tight"]
    hedged = "We show a sample complexity of $\\tilde O(d/\\alpha^2)$. This bound is nearly tight."
    assert [b.kind for b in unparsed(hedged)] == ["upper"]
    # the next sentence is about a formula of its own
    other = (
        "We show a regret of $O(\\sqrt{T})$. This result is complemented by a lower bound of "
        "$\\Omega(\\sqrt{T})$, which is tight."
    )
    assert [b.kind for b in unparsed(other)] == ["upper", "tight"]


def test_bounds_kind_known_to_be_tight() -> None:
    abstract = "The algorithm has an error bound of $O(\\sqrt{k}/\\epsilon)$, which is known to be tight."
    assert [b.kind for b in unparsed(abstract)] == ["tight"]


def test_bounds_kind_necessary_and_sufficient_is_tight() -> None:
    for said in ("are necessary (and sufficient)", "are necessary and sufficient"):
        abstract = f"We show that $\\Omega(A^2/\\varepsilon^2)$ episodes {said} to learn a good policy."
        assert [b.kind for b in unparsed(abstract)] == ["tight"]
    assert [b.kind for b in unparsed("We show that $\\Omega(A^2)$ episodes are necessary.")] == ["lower"]


def test_bounds_kind_converges_as_states_an_order() -> None:
    bounds = unparsed("Our results also include bounds that converge as $1/m$, not known before.")
    assert [(b.latex, b.kind) for b in bounds] == [("1/m", "order")]


def test_bounds_kind_this_bound_is_tight_later_in_the_sentence() -> None:
    abstract = (
        "We show that any stable algorithm has empirical gap $\\Omega(1/n)$, and that this bound is tight."
    )
    assert [b.kind for b in unparsed(abstract)] == ["tight"]
    hedged = "We show a regret of $\\Omega(\\sqrt{T})$, and that this bound is nearly tight."
    assert [b.kind for b in unparsed(hedged)] == ["lower"]
    # another formula in between: the reference is to that one
    other = "We show a regret of $\\Omega(\\sqrt{T})$ and an upper bound of $O(T)$, and this bound is tight."
    assert [b.kind for b in unparsed(other)] == ["lower", "tight"]


def test_bounds_kind_this_is_the_best_possible_and_a_matching_lower_bound_next() -> None:
    same = "The algorithm achieves regret $O(T^{2/3})$, and we show that this is the best possible."
    assert [b.kind for b in unparsed(same)] == ["tight"]
    nxt = "It finds a policy with $\\widetilde{O}(SA/\\epsilon^2)$ samples. A matching lower bound is proved."
    assert [b.kind for b in unparsed(nxt)] == ["tight"]
    hedged = "It finds a policy with $\\widetilde{O}(SA/\\epsilon^2)$ samples. A lower bound is proved."
    assert [b.kind for b in unparsed(hedged)] == ["upper"]


def test_bounds_kind_exceeding_states_a_lower_bound() -> None:
    abstract = "After $T$ steps the iterates reach values exceeding $(\\mathrm{OPT}/2 - \\epsilon)$."
    assert [b.kind for b in unparsed(abstract)] == ["lower"]


def test_bounds_kind_a_rate_that_is_not_attainable_is_a_lower_bound() -> None:
    abstract = "This is tight in the sense that a rate of $O(1/k^{2})$ is not generally attainable by them."
    assert [b.kind for b in unparsed(abstract)] == ["lower"]
    attained = "We show that a rate of $O(1/k^{2})$ is attainable by such methods."
    assert [b.kind for b in unparsed(attained)] == ["upper"]


def test_bounds_kind_both_bounds_called_tight_past_their_conditions() -> None:
    abstract = (
        "We give an algorithm achieving total loss $O(\\log T)$ when $d=1$ and $O(T^{(d-1)/d})$ when "
        "$d>1$, and show that both bounds are tight."
    )
    assert [b.kind for b in unparsed(abstract)] == ["tight", "tight"]
    one = "It achieves loss $O(\\log T)$ when $d=1$, and we show that this bound is tight."
    assert [b.kind for b in unparsed(one)] == ["tight"]
    other = "It achieves loss $O(\\log T)$ when $d=1$ and $O(\\sqrt{T})$ else; the latter bound is tight."
    assert [b.kind for b in unparsed(other)] == ["upper", "upper"]


def test_bounds_kind_impossibility_of_a_resource_and_its_contrast() -> None:
    (bound,) = unparsed("We show that $o(\\sqrt{T})$ regret is impossible for this class.")
    assert bound.kind == "lower"
    contrast = (
        "Earlier work showed that $o(n)$ time is impossible, while learning is possible in time "
        "$O(n \\log n)$."
    )
    assert [b.kind for b in unparsed(contrast)] == ["lower", "upper"]


@pytest.mark.parametrize(
    ("abstract", "kinds"),
    [
        (
            "The method needs only $\\tilde{O}(\\sqrt{n}m)$ samples. This sample complexity is shown "
            "to be optimal.",
            ["tight"],
        ),
        ("All three achieve $O(\\log T)$ compensation that match the theoretical lower bound.", ["tight"]),
        # optimal in one variable only, or up to factors: not tight
        (
            "It uses $\\tilde{O}(n/\\theta^4)$ units. This bound is shown to be optimal in $n$ up to "
            "log factors.",
            ["upper"],
        ),
        ("It achieves $O(\\log T)$ regret that matches the lower bound up to a constant.", ["upper"]),
    ],
)
def test_bounds_kind_called_optimal_or_matching(abstract: str, kinds: list[str]) -> None:
    assert [b.kind for b in unparsed(abstract)] == kinds


@pytest.mark.parametrize(
    ("abstract", "kinds"),
    [
        ("Under stronger assumptions, even $O(n^{1.499}/\\epsilon^2)$ examples do not suffice.", ["lower"]),
        ("Learning this class using $O(n/\\epsilon^2)$ examples is impossible.", ["lower"]),
        ("We show that $O(n/\\epsilon^2)$ examples suffice.", ["upper"]),
        ("It achieves an $O(\\sqrt{dT})$ regret. This regret matches the minimax lower bound.", ["tight"]),
        ("We achieve error $O(1/t)$ which is information theoretically optimal.", ["tight"]),
        ("It reaches regret $O(\\sqrt{T})$ and matches the theoretical lower bound in $T$.", ["upper"]),
    ],
)
def test_bounds_kind_insufficient_and_matching(abstract: str, kinds: list[str]) -> None:
    assert [b.kind for b in unparsed(abstract)] == kinds


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        # an asymptotic head before "-approximation" bounds the approximation ratio …
        (
            "We give an $O(\\log n)$-approximation algorithm for the problem.",
            [("O(\\log n)", "upper", "approximation ratio")],
        ),
        (
            "We give an O(log n)-approximation algorithm for the problem.",
            [("O(log n)", "upper", "approximation ratio")],
        ),
        # … a parameter or one coordinate of a pair does not
        ("We find an $\\epsilon$-approximation of the optimum.", []),
        ("It finds an $(\\epsilon, O(\\epsilon^{0.5}))$-approximate local minimum.", []),
        # "lower bound" right after an O-formula says which side
        (
            "We demonstrate an $O(d \\log T/T)$ upper bound on the excess risk, and an $O(d/T)$ lower bound "
            "on the excess risk of any method.",
            [("O(d \\log T/T)", "upper", "excess risk"), ("O(d/T)", "lower", "excess risk")],
        ),
        # a written-out left side may be a command
        (
            "It requires a target dimension of \\ell = O(k/ε) for any k.",
            [("\\ell = O(k/ε)", "upper", "target dimension")],
        ),
        # "capped by" bounds, even after a verb of decrease earlier in the sentence
        (
            "The ratio (i) decreases as the error decreases, and (ii) is always capped by O(log k), which "
            "holds without any input.",
            [("O(log k)", "upper", "error")],
        ),
        # "best possible" right before the formula calls it tight, not across a comma
        (
            "An optimal rule converges at a best-possible rate O(N^-α/d) for such integrands.",
            [("O(N^-α/d)", "tight", "convergence rate")],
        ),
        (
            "This lower bound is best possible, as $O(d^2)$ samples suffice to learn the covariance.",
            [("O(d^2)", "upper", "sample complexity")],
        ),
    ],
)
def test_bounds_kind_approximations_sides_and_cues(
    bounds_pipeline: Any, abstract: str, expected: list[tuple[str, str, str]]
) -> None:
    paper = Paper(id="p-test", title="t", abstract=abstract)
    bounds = [b for b in bounds_pipeline.extract_one(paper).bounds if b.form == "formula"]
    assert [(b.latex, b.kind, b.quantity) for b in bounds] == expected


@pytest.mark.parametrize(
    ("abstract", "kinds"),
    [
        ("We prove that there are no streaming protocols that use $o(n)$ memory and find the heavy hitter.",
         ["lower"]),
        ("The target is approximated by networks of size $O(d)$ and not by networks of size $o(d)$.",
         ["upper", "lower"]),
        ("The sketch uses $o(n)$ memory and does not need the labels.", ["upper"]),
        ("No labels are needed, while the sketch uses $o(n)$ memory.", ["upper"]),
    ],
)
def test_bounds_kind_a_negated_little_o_is_a_lower_bound(abstract: str, kinds: list[str]) -> None:
    assert [b.kind for b in unparsed(abstract)] == kinds
