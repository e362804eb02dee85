"""Latent semantic similarity of abstracts: the ``S`` signal of :mod:`kg.related`.

Two abstracts on the same problem often share few words: "arms", "exploration" and "regret" on
one side, "bandit feedback" and "pull" on the other. TF-IDF (the ``L`` signal) sees no overlap;
a latent semantic model trained once on many abstracts sees the same subject. The model is latent
semantic analysis (Deerwester et al., "Indexing by latent semantic analysis", JASIS 1990): a
TF-IDF matrix of a large corpus of ML abstracts factored by a truncated SVD into ``k``
directions; an abstract's vector is its TF-IDF row projected on them, and two abstracts are as
similar as the cosine of their vectors.

The shipped model (``kg/models/semantic/``: ``meta.json`` and ``weights.npz``, no pickles) was
trained on the titles and abstracts of the 22,654 papers of ``ml-abstracts.jsonl`` (NeurIPS,
ICML, ICLR, COLT, AISTATS, UAI, …), offline and deterministically::

    .venv/bin/python -m kg.semantic ../shared/data/ml-abstracts.jsonl

It reads words as the ``L`` signal does (:func:`kg.words.lexical_tokens`), keeps those in at
least 3 papers (15,254 words on that corpus; at most the 20,000 most frequent), weighs them by
sublinear TF-IDF and keeps 100
directions. Those settings were chosen among three candidates (15k words and 100 or 200
directions, 40k words and word pairs and 150) on the 30 corpus query papers the other weights were
chosen on (``tests/data/related_judgments_corpus.jsonl``; the seed and 20-query figures were
printed beside them, the choice follows the 30); see
:class:`kg.related.RelatedWeights` for what the signal changes. At run time nothing is fitted:
the vectors are a sparse product with the shipped matrix, the same for the same text.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from kg.errors import ConfigError
from kg.fileio import read_model
from kg.words import lexical_tokens

MODEL_DIR = Path(__file__).resolve().parent / "models" / "semantic"
REBUILD = "python -m kg.semantic ../shared/data/ml-abstracts.jsonl"
MAX_TERMS = 20_000
MIN_DF = 3
DIMENSIONS = 100


@dataclass(frozen=True)  # no slots: the fitted vectorizer is cached on first use
class SemanticModel:
    """A trained latent semantic model: vocabulary, IDF and the ``k × V`` direction matrix."""

    terms: tuple[str, ...]
    idf: np.ndarray  # (V,)
    components: np.ndarray  # (k, V), float32
    name: str  # "lsa-<k>-<digest>": identifies the weights (a saved related index keys on it)

    @functools.cached_property
    def _vectorizer(self) -> Any:
        from sklearn.feature_extraction.text import TfidfVectorizer

        vectorizer = _tfidf(vocabulary={t: k for k, t in enumerate(self.terms)})
        vectorizer.fit(["x"])  # fixes the vocabulary; the corpus IDF replaces the one fitted here
        vectorizer.idf_ = self.idf
        assert isinstance(vectorizer, TfidfVectorizer)
        return vectorizer

    def tfidf(self, texts: Sequence[str]) -> sp.csr_matrix:
        """The L2-normalized TF-IDF rows of ``texts`` over the model's vocabulary."""
        return sp.csr_matrix(self._vectorizer.transform(list(texts)), dtype=np.float64)

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length semantic vectors of ``texts`` (``n × k``); zeros for a text with no known word.

        >>> model = load_model()
        >>> v = model.vectors(["regret of bandit algorithms", "exploration of arms in bandits", ""])
        >>> v.shape[1] == model.components.shape[0], float(np.abs(v[2]).sum())
        (True, 0.0)
        >>> bool(v[0] @ v[1] > 0.5)
        True
        """
        return _unit(np.asarray(self.tfidf(texts) @ self.components.T, dtype=np.float64))

    def loadings(self) -> np.ndarray:
        """The ``V × k`` matrix of each vocabulary word's direction (the explanation reads it)."""
        return np.ascontiguousarray(self.components.T, dtype=np.float64)


def _unit(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)


def _tfidf(**params: Any) -> Any:
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(
        tokenizer=lexical_tokens, token_pattern=None, lowercase=False, sublinear_tf=True,
        dtype=np.float64, **params,
    )


@functools.lru_cache(maxsize=4)
def load_model(model_dir: Path = MODEL_DIR) -> SemanticModel:
    """Load the shipped model (once per process).

    Raises:
        ConfigError: the files are missing or inconsistent.
    """
    meta, weights = read_model(model_dir, ("idf", "components"), REBUILD)
    idf = np.asarray(weights["idf"], dtype=np.float64)
    components = np.asarray(weights["components"], dtype=np.float32)
    try:
        terms = tuple(str(t) for t in meta["terms"])
    except (KeyError, TypeError) as exc:
        raise ConfigError(
            f"{model_dir}: meta.json has no term list ({exc}); rebuild it with `{REBUILD}`"
        ) from None
    if components.ndim != 2 or components.shape[1] != len(terms) or idf.shape != (len(terms),):
        raise ConfigError(
            f"{model_dir}: semantic model shapes disagree: {len(terms)} terms, idf {idf.shape}, "
            f"components {components.shape}"
        )
    digest = hashlib.sha256(components.tobytes() + idf.tobytes()).hexdigest()[:12]
    return SemanticModel(terms, idf, components, f"lsa-{components.shape[0]}-{digest}")


def train(
    texts: Sequence[str], dimensions: int = DIMENSIONS, max_terms: int = MAX_TERMS, min_df: int = MIN_DF
) -> tuple[tuple[str, ...], np.ndarray, np.ndarray, float]:
    """Fit the model on ``texts``: (terms, idf, components, explained variance ratio).

    Deterministic: a fixed random state for the randomized SVD, and each direction's sign fixed
    so that its largest-magnitude word weight is positive.
    """
    from sklearn.decomposition import TruncatedSVD

    vectorizer = _tfidf(min_df=min_df, max_features=max_terms)
    matrix = vectorizer.fit_transform(list(texts))
    svd = TruncatedSVD(dimensions, algorithm="randomized", n_iter=7, random_state=0).fit(matrix)
    components = np.asarray(svd.components_, dtype=np.float64)
    signs = np.sign(components[np.arange(len(components)), np.abs(components).argmax(axis=1)])
    components *= signs[:, None]
    terms = tuple(str(t) for t in vectorizer.get_feature_names_out())
    return terms, np.asarray(vectorizer.idf_, dtype=np.float64), components.astype(np.float32), float(
        svd.explained_variance_ratio_.sum()
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m kg.semantic CORPUS.jsonl [-o DIR]``: train and write the model."""
    ap = argparse.ArgumentParser(prog="python -m kg.semantic", description=main.__doc__)
    ap.add_argument("corpus", help="JSONL of papers with title and abstract")
    ap.add_argument("-o", "--output", default=str(MODEL_DIR))
    ap.add_argument("--dimensions", type=int, default=DIMENSIONS)
    ap.add_argument("--max-terms", type=int, default=MAX_TERMS)
    ap.add_argument("--min-df", type=int, default=MIN_DF)
    args = ap.parse_args(argv)
    corpus = Path(args.corpus)
    try:
        raw = corpus.read_bytes()
    except OSError as exc:
        print(f"kg.semantic: {corpus}: cannot read the corpus: {exc.strerror or exc}", file=sys.stderr)
        return 2
    texts = []
    for n, line in enumerate(raw.decode("utf-8").split("\n"), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            print(f"kg.semantic: {corpus}: line {n}: not valid JSON: {exc.msg}", file=sys.stderr)
            return 2
        texts.append(f"{record.get('title') or ''}. {record.get('abstract') or ''}")
    try:
        terms, idf, components, explained = train(texts, args.dimensions, args.max_terms, args.min_df)
    except ValueError as exc:  # fewer words or documents than directions, an empty vocabulary
        print(f"kg.semantic: {corpus}: cannot train {args.dimensions} directions: {exc}", file=sys.stderr)
        return 2
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "weights.npz", "wb") as fh:
        np.savez_compressed(fh, idf=idf, components=components)
    import sklearn

    meta = {
        "model": "latent semantic analysis: sublinear TF-IDF (kg.words.lexical_tokens), truncated SVD",
        "corpus": corpus.name,
        "corpus_sha256": hashlib.sha256(raw).hexdigest(),
        "documents": len(texts),
        "dimensions": args.dimensions,
        "max_terms": args.max_terms,
        "min_df": args.min_df,
        "explained_variance": round(explained, 4),
        "sklearn": sklearn.__version__,
        "rebuild": REBUILD,
        "terms": list(terms),
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"kg.semantic: {len(texts)} documents, {len(terms)} terms, {args.dimensions} directions "
          f"({explained:.3f} of the variance) → {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
