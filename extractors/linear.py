"""Scores of the shipped linear models (logistic regressions read from ``weights.npz``).

Each model stores one weight row per known sparse feature and one spare zero row after them, the
row of "no known feature", so that every example has a row to sum even when none of its features
is known.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np


def sparse_scores(
    weights: np.ndarray, index: Mapping[str, int], feature_lists: Sequence[Sequence[str]]
) -> np.ndarray:
    """Per example, the sum of the weight rows of its known features (and the spare row):
    ``examples × classes`` for a 2-D ``weights``, ``examples`` for a 1-D one."""
    spare = weights.shape[0] - 1
    ids: list[int] = []
    offsets = []
    for feats in feature_lists:
        offsets.append(len(ids))
        ids.extend([index[f] for f in feats if f in index])
        ids.append(spare)
    return np.add.reduceat(weights[ids], offsets, axis=0)  # type: ignore[no-any-return]


def softmax(scores: np.ndarray) -> np.ndarray:
    """Row-wise class probabilities of ``scores`` (changed in place)."""
    scores -= scores.max(axis=1, keepdims=True)
    exp = np.exp(scores)
    return exp / exp.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]
