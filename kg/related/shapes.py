"""Bound shapes: what a claimed bound says, reduced to what two papers can share.

A bound's plain expression is read by :func:`dependence` into each variable's exponent and log
power; :func:`bound_shape` makes the :class:`BoundShape` the bound signal ``B`` of
:mod:`kg.related` counts, and :func:`compare_shapes` says why two bounds are alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from extractors.bounds import named_quantity
from kg.types import Bound

_SMALL_VARIABLES = frozenset({"epsilon", "varepsilon", "eps", "delta", "alpha", "gamma"})
_WRAPPERS = frozenset({"O", "Omega", "Theta", "o", "omega", "tilde", "poly", "polylog"})
_FUNCTIONS = _WRAPPERS | {"sqrt", "log", "ln", "loglog", "exp", "min", "max"}
_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9{}]+)?)|(.))")

Dependence = dict[str, tuple[Fraction, int]]  # variable → (polynomial exponent, log power)

# The shape feature every bound has: two papers that both claim bounds meet on it (a theory paper
# is nearer another theory paper than an empirical one), at the IDF of bound-claiming papers.
ANY_BOUND = "bound"


class _Unparsable(Exception):
    pass


class _DependenceParser:
    """A tiny recursive-descent reader of :func:`extractors.latex.to_expr` normal forms.

    It computes, for each variable, the exponent of its dominant term: sums take the maximum,
    products add, quotients subtract, ``sqrt`` halves, ``x^p`` multiplies by a numeric ``p``
    and ``log`` turns a variable into a log power. A variable raised to a non-numeric power
    (``n^(1/(2 beta))``) or inside ``exp`` has no exponent and is dropped.
    """

    def __init__(self, expr: str, variables: Iterable[str] = ()) -> None:
        known = sorted(set(variables), key=lambda v: (-len(v), v))
        self.tokens: list[tuple[str, str]] = []
        for m in _TOKEN.finditer(expr):
            if m.group(1):
                self.tokens.append(("num", m.group(1)))
            elif m.group(2):
                self.tokens.extend(("name", part) for part in _split_name(m.group(2), known))
            elif m.group(3) and not m.group(3).isspace():
                self.tokens.append(("op", m.group(3)))
        self.i = 0
        self.dropped: set[str] = set()

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        if tok is None:
            raise _Unparsable
        self.i += 1
        return tok

    def parse(self) -> Dependence:
        dep, _num = self.sum()
        if self.peek() is not None:
            raise _Unparsable
        return {v: e for v, e in dep.items() if v not in self.dropped}

    def sum(self) -> tuple[Dependence, Fraction | None]:
        dep, num = self.product()
        while self.peek() in (("op", "+"), ("op", "-"), ("op", ",")):
            self.take()
            other, _ = self.product()
            for v, e in other.items():
                # The dominant term grows fastest in a large variable (T, n, d) and shrinks
                # slowest in a small one (ε, δ): 1/ε^2 dominates 1/ε.
                pick = min if _is_small(v) else max
                dep[v] = pick(dep.get(v, (Fraction(0), 0)), e)
            num = None
        return dep, num

    def product(self) -> tuple[Dependence, Fraction | None]:
        if self.peek() == ("op", "-"):
            self.take()
        dep, num = self.power()
        while True:
            tok = self.peek()
            if tok is None or tok in (("op", "+"), ("op", "-"), ("op", ","), ("op", ")")):
                return dep, num
            sign = 1
            if tok in (("op", "*"), ("op", "/")):
                self.take()
                sign = -1 if tok[1] == "/" else 1
            other, onum = self.power()
            for v, (e, lg) in other.items():
                old = dep.get(v, (Fraction(0), 0))
                dep[v] = (old[0] + sign * e, old[1] + sign * lg)
            num = (
                None
                if num is None or onum is None
                else (num * onum if sign > 0 else (num / onum if onum else None))
            )

    def power(self) -> tuple[Dependence, Fraction | None]:
        dep, num = self.atom()
        if self.peek() == ("op", "^"):
            self.take()
            negative = self.peek() == ("op", "-")
            if negative:
                self.take()
            edep, enum = self.atom()
            if negative and enum is not None:
                enum = -enum
            if enum is None:
                self.dropped.update(dep)
                self.dropped.update(edep)
                return {}, None
            dep = {v: (e * enum, lg) for v, (e, lg) in dep.items()}
            num = num ** int(enum) if num is not None and enum.denominator == 1 else None
        return dep, num

    def atom(self) -> tuple[Dependence, Fraction | None]:
        kind, text = self.take()
        if kind == "num":
            return {}, Fraction(text)
        if kind == "op" and text == "(":
            dep, num = self.sum()
            if self.take() != ("op", ")"):
                raise _Unparsable
            return dep, num
        if kind != "name":
            raise _Unparsable
        if self.peek() == ("op", "("):
            self.take()
            inner, num = self.sum()
            if self.take() != ("op", ")"):
                raise _Unparsable
            if text == "sqrt":
                return {v: (e / 2, lg) for v, (e, lg) in inner.items()}, None
            if text in ("log", "ln", "loglog", "polylog"):
                return {v: (Fraction(0), 1) for v in inner}, None
            if text == "exp":
                self.dropped.update(inner)
                return {}, None
            # O(…), Theta(…), min(…), poly(…): the argument's dependence
            return inner, (num if text in _WRAPPERS else None)
        if text in ("sqrt", "log"):  # "log T" without parentheses
            inner, _ = self.power()
            if text == "sqrt":
                return {v: (e / 2, lg) for v, (e, lg) in inner.items()}, None
            return {v: (Fraction(0), 1) for v in inner}, None
        return {text: (Fraction(1), 0)}, None


def _split_name(name: str, known: Sequence[str]) -> list[str]:
    """``dB`` → ``d``, ``B`` when both are the bound's variables (the normal form writes an
    implicit product of one-letter variables as one word); other names stay whole."""
    if not known or name in known or name in _FUNCTIONS:
        return [name]
    parts: list[str] = []
    i = 0
    while i < len(name):
        hit = next((v for v in known if name.startswith(v, i)), None)
        if hit is None:
            return [name]
        parts.append(hit)
        i += len(hit)
    return parts


def dependence(expr: str, variables: Iterable[str] = ()) -> Dependence:
    """Each variable's exponent (and log power) in the dominant term of a plain expression.

    Args:
        expr: a bound's ``expr`` (the plain normal form of its LaTeX).
        variables: the bound's variables; a word made of them (``dB``) is read as their product.

    Returns:
        variable → (exponent, log power); empty when the expression cannot be read.

    >>> dep = dependence("O(dB + d sqrt(T))", ("B", "T", "d"))
    >>> {v: (str(e), lg) for v, (e, lg) in sorted(dep.items())}
    {'B': ('1', 0), 'T': ('1/2', 0), 'd': ('1', 0)}
    >>> {v: (str(e), lg) for v, (e, lg) in sorted(dependence("t_mix^3/epsilon^2").items())}
    {'epsilon': ('-2', 0), 't_mix': ('3', 0)}
    """
    try:
        return _DependenceParser(expr, variables).parse()
    except (_Unparsable, ZeroDivisionError, OverflowError):
        return {}


def format_dependence(variable: str, exponent: Fraction, log_power: int = 0) -> str:
    """A readable growth term: ``√T``, ``d^(3/2)``, ``1/ε^2``, ``log T``.

    >>> format_dependence("T", Fraction(1, 2)), format_dependence("epsilon", Fraction(-2))
    ('√T', '1/ε^2')
    """
    name = {
        "epsilon": "ε",
        "varepsilon": "ε",
        "delta": "δ",
        "gamma": "γ",
        "alpha": "α",
        "beta": "β",
        "eta": "η",
        "lambda": "λ",
        "sigma": "σ",
        "mu": "μ",
    }.get(variable, variable)
    parts: list[str] = []
    e = exponent
    if e != 0:
        mag = abs(e)
        if mag == Fraction(1, 2):
            term = f"√{name}"
        elif mag == 1:
            term = name
        elif mag.denominator == 1:
            term = f"{name}^{mag.numerator}"
        else:
            term = f"{name}^({mag.numerator}/{mag.denominator})"
        parts.append(f"1/{term}" if e < 0 else term)
    if log_power:
        parts.append(f"log{'^' + str(log_power) if log_power > 1 else ''} {name}")
    return "·".join(parts) if parts else "constant"


@dataclass(frozen=True, slots=True)
class BoundShape:
    """What a bound says, reduced to what two papers can share.

    Attributes:
        quantity: the bounded quantity's name ("regret"), or "" when unknown.
        sides: "upper" and/or "lower" (tight and order-of bounds are both).
        dependence: variable → (exponent, log power).
        latex: the bound as written, for the explanation.
        attribution: "this" (the paper's own claim) or "prior".
    """

    quantity: str
    sides: tuple[str, ...]
    dependence: tuple[tuple[str, Fraction, int], ...]
    latex: str
    attribution: str

    def features(self) -> list[str]:
        """The shape features of this bound (see :mod:`kg.related`), the coarsest first: that it
        is a bound at all (:data:`ANY_BOUND`), then its quantity and side, then each dependence."""
        out = [ANY_BOUND]
        for side in self.sides:
            out.append(f"{self.quantity}|{side}")
            out.extend(f"{self.quantity}|{side}|{v}|{e}|{lg}" for v, e, lg in self.dependence)
        return out

    def phrase(self, side: str) -> str:
        noun = self.quantity or "a quantity"
        return f"{noun} {side} bounds"


def bound_shape(
    kind: str,
    expr: str,
    quantity: str | None,
    latex: str = "",
    attribution: str = "this",
    variables: Iterable[str] = (),
) -> BoundShape:
    """The :class:`BoundShape` of a bound's fields (graph node attributes or a :class:`Bound`)."""
    sides = {"upper": ("upper",), "lower": ("lower",)}.get(kind, ("upper", "lower"))
    dep = dependence(expr or "", [v for v in variables if v not in _FUNCTIONS])
    return BoundShape(
        # "expected regret" and "Nash regret" bounds share the shape of a regret bound
        quantity=named_quantity(quantity or ""),
        sides=sides,
        dependence=tuple(sorted((v, e, lg) for v, (e, lg) in dep.items())),
        latex=latex,
        attribution=attribution or "this",
    )


def compare_shapes(a: BoundShape, b: BoundShape) -> list[tuple[int, str]]:
    """Why two bounds are alike: (strength, phrase) pairs, strongest first.

    ``a`` is the query's bound, ``b`` the candidate's. "both claim regret upper bounds in √T"
    (the same exponent in a shared variable, strength 3) beats "both claim regret upper bounds"
    (strength 1); when both are upper bounds on the same quantity and one has the better
    exponent in shared variables, a phrase says which (strength 2): "improves the query's
    regret upper bound in d (d vs d^(3/2))".
    """
    if a.quantity != b.quantity:
        return []
    out: list[tuple[int, str]] = []
    da = {v: (e, lg) for v, e, lg in a.dependence}
    db = {v: (e, lg) for v, e, lg in b.dependence}
    for side in sorted(set(a.sides) & set(b.sides), key=lambda s: s != "upper"):
        same = sorted(v for v in set(da) & set(db) if da[v] == db[v])
        if same:
            terms = ", ".join(format_dependence(v, *da[v]) for v in same)
            out.append((3, f"both claim {a.phrase(side)} in {terms}"))
        else:
            out.append((1, f"both claim {a.phrase(side)}"))
        if side != "upper":
            continue
        noun = f"{a.quantity} upper bound" if a.quantity else "upper bound"
        theirs: list[str] = []
        ours: list[str] = []
        for v in sorted(set(da) & set(db)):
            if da[v] == db[v]:
                continue
            q, c = format_dependence(v, *da[v]), format_dependence(v, *db[v])
            if _better(v, da[v], db[v]):
                ours.append(f"{v} ({q} vs {c})")
            else:
                theirs.append(f"{v} ({c} vs {q})")
        if theirs:
            out.append((2, f"improves the query's {noun} in {', '.join(theirs)}"))
        if ours:
            out.append((2, f"the query's {noun} is better in {', '.join(ours)}"))
    out.sort(key=lambda x: -x[0])
    return out


def _is_small(variable: str) -> bool:
    return variable.split("_")[0].lower() in _SMALL_VARIABLES


def _better(variable: str, a: tuple[Fraction, int], b: tuple[Fraction, int]) -> bool:
    """True when ``a`` is the better upper-bound dependence on ``variable`` than ``b``."""
    if _is_small(variable):
        return a > b  # 1/ε is better than 1/ε^2
    return a < b


def shape_of(bound: Bound) -> BoundShape:
    """The :class:`BoundShape` of an extracted :class:`Bound`."""
    return bound_shape(
        bound.kind, bound.expr, bound.quantity, bound.latex, bound.attribution, bound.variables
    )


def shape_json(shape: BoundShape) -> list[Any]:
    """``shape`` as JSON (a saved index holds its papers' shapes so)."""
    dependence = [[v, e.numerator, e.denominator, lg] for v, e, lg in shape.dependence]
    return [shape.quantity, list(shape.sides), dependence, shape.latex, shape.attribution]


def shape_from_json(obj: Sequence[Any]) -> BoundShape:
    """The inverse of :func:`shape_json`."""
    quantity, sides, dependence, latex, attribution = obj
    return BoundShape(
        str(quantity),
        tuple(sides),
        tuple((str(v), Fraction(int(n), int(d)), int(lg)) for v, n, d, lg in dependence),
        str(latex),
        str(attribution),
    )
