"""How the text signals of :mod:`kg.related` turn a paper's title and abstract into vectors.

:func:`paper_text` is what they read; :func:`lexical_matrix` fits kg's lexical signal ``L``,
:func:`tfidf_matrix` the textbook TF-IDF baseline of ``kg eval related``, and
:func:`encoder_vectors` runs the sentence encoder of the ``N`` signal (:mod:`kg.encoder`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from kg.encoder import load_encoder
from kg.words import lexical_tokens


def tfidf_vectorizer() -> Any:
    """The TF-IDF configuration of ``kg eval related``'s baseline (not kg's lexical signal)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    # English stop words and sublinear tf: the textbook setup of a TF-IDF cosine baseline.
    return TfidfVectorizer(stop_words="english", sublinear_tf=True, dtype=np.float64)


def tfidf_matrix(abstracts: Sequence[str]) -> tuple[Any, sp.csr_matrix]:
    """Fit :func:`tfidf_vectorizer` on ``abstracts``; return it and the L2-normalized rows."""
    return _fit(tfidf_vectorizer(), abstracts)


def _fit(vectorizer: Any, texts: Sequence[str]) -> tuple[Any, sp.csr_matrix]:
    if not texts or not any(t.strip() for t in texts):
        return vectorizer, sp.csr_matrix((len(texts), 0))
    try:
        matrix = vectorizer.fit_transform(texts)
    except ValueError:  # only stop words, or no term in two texts
        return vectorizer, sp.csr_matrix((len(texts), 0))
    return vectorizer, sp.csr_matrix(matrix)


def lexical_vectorizer() -> Any:
    """The TF-IDF configuration of kg's lexical signal ``L`` (see :mod:`kg.related`)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(
        tokenizer=lexical_tokens,
        token_pattern=None,
        lowercase=False,
        ngram_range=(1, 2),
        min_df=2,
        sublinear_tf=True,
        dtype=np.float64,
    )


def encoder_vectors(
    texts: Sequence[str],
    saved: Mapping[str, np.ndarray] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """The sentence encoder's unit vectors of ``texts`` (:mod:`kg.encoder`), as float64."""
    return np.asarray(load_encoder().vectors(texts, saved, progress), dtype=np.float64)


def paper_text(title: str, abstract: str, title_derived: bool = False) -> str:
    """What ``L`` reads of a paper: its title (when it has a real one) and its abstract."""
    return f"{title}. {abstract}" if title and not title_derived else abstract


def paper_texts(nx_graph: Any, papers: Sequence[str] | None = None, titles: bool = True) -> list[str]:
    """:func:`paper_text` of each paper node of a graph (``papers``; default: every paper node,
    sorted: the related index's order); ``titles`` False reads the abstracts alone."""
    if papers is None:
        papers = sorted(n for n, d in nx_graph.nodes(data=True) if d.get("kind") == "Paper")
    nodes = nx_graph.nodes
    return [
        paper_text(
            str(nodes[n].get("title") or "") if titles else "",
            str(nodes[n].get("abstract") or ""),
            bool(nodes[n].get("title_derived")),
        )
        for n in papers
    ]


def lexical_matrix(texts: Sequence[str]) -> tuple[Any, sp.csr_matrix]:
    """Fit :func:`lexical_vectorizer` on ``texts``; return it and the L2-normalized rows."""
    return _fit(lexical_vectorizer(), texts)
