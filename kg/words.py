"""The words kg's text signals count, of an abstract and of an entity's names.

:func:`lexical_tokens` are the words of a title and abstract that the related-work lexical
signal ``L`` (:mod:`kg.related`) and the latent semantic model (:mod:`kg.semantic`) read;
:func:`entity_terms` the words and word pairs of an entity's names that the entity-word signal
``W`` matches on. Both drop the same LaTeX and PDF-extraction debris.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_WORD = re.compile(r"[a-z][a-z0-9]*")
# Placeholder and LaTeX words that name no idea ("$O(\\sqrt{T})$ regret" → "regret").
_NOT_WORDS = frozenset(
    {
        "math",
        "mathcal",
        "mathbb",
        "mathbf",
        "mathrm",
        "tilde",
        "widetilde",
        "sqrt",
        "log",
        "frac",
        "left",
        "right",
        "lvert",
        "rvert",
        "lbrace",
        "rbrace",
        "textit",
        "textbf",
        "emph",
        "cdot",
        "le",
        "leq",
        "ge",
        "geq",
        "mid",
        "big",
        "bigr",
        "bigl",
        "operatorname",
        "varepsilon",
        "epsilon",
        "delta",
        "top",
    }
)


# Scholarly boilerplate that heads many entity names ("… framework", "… model", "… algorithm")
# without saying what a paper is about. In a large graph IDF discounts them; in a small one
# (50 seeds) it cannot, and they would make every paper look related to every other.
_GENERIC = frozenset(
    {
        "algorithm",
        "analysis",
        "approach",
        "architecture",
        "based",
        "baseline",
        "data",
        "design",
        "effective",
        "efficient",
        "existing",
        "framework",
        "function",
        "general",
        "high",
        "large",
        "learning",
        "level",
        "low",
        "mechanism",
        "method",
        "model",
        "modeling",
        "new",
        "novel",
        "performance",
        "problem",
        "procedure",
        "process",
        "result",
        "scheme",
        "setting",
        "simple",
        "strategy",
        "structure",
        "study",
        "system",
        "task",
        "technique",
        "theory",
        "time",
        "tool",
        "work",
    }
)


def singular(word: str) -> str:
    # "bandits" → "bandit", "squares" → "square"; keep "loss", "lasso", "analysis", "gaussian"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def entity_terms(names: Iterable[str]) -> tuple[str, ...]:
    """The words and adjacent word pairs of an entity's names: what ``W`` matches on.

    Names holding LaTeX (``$…$`` or a backslash) are skipped; stop words and LaTeX words are
    dropped, plurals folded; generic words ("model", "framework") count only inside a pair
    ("language model").

    >>> entity_terms(["stochastic linear bandits", "SLB"])
    ('bandit', 'linear', 'linear bandit', 'slb', 'stochastic', 'stochastic linear')
    """
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    out: dict[str, None] = {}
    for name in names:
        if "$" in name or "\\" in name:
            continue
        words = [
            singular(w)
            for w in _WORD.findall(name.lower())
            if w not in ENGLISH_STOP_WORDS and w not in _NOT_WORDS and len(w) > 1
        ]
        for w in words:
            if w not in _GENERIC:
                out.setdefault(w, None)
        for a, b in zip(words, words[1:], strict=False):
            if a not in _GENERIC or b not in _GENERIC:
                out.setdefault(f"{a} {b}", None)
    return tuple(sorted(out))


_LEXICAL_TOKEN = re.compile(r"(?u)\b\w\w+\b")
# Markup that abstracts carry as words: LaTeX commands and the "(cid:173)" debris of PDF
# extraction. Two theory abstracts share "mathbf" and "varepsilon" whatever they are about.
_MARKUP = _NOT_WORDS | {"cid", "emph", "textit", "mathit", "boldsymbol", "hat", "bar", "cal", "bm"}


def lexical_tokens(text: str) -> list[str]:
    """The words kg's lexical signal counts: letters only, no stop word, no markup.

    >>> lexical_tokens("We bound the regret by $O(\\\\sqrt{T})$ with (cid:173) 2-layer nets")
    ['bound', 'regret', 'layer', 'nets']
    """
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return [
        t
        for t in _LEXICAL_TOKEN.findall(text.lower())
        if t.isalpha() and t not in _MARKUP and t not in ENGLISH_STOP_WORDS
    ]
