"""Small sparse-matrix helpers of the related-work index: rows without slicing, weighted and
normalized rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp


def csr_row(matrix: sp.csr_matrix, i: int) -> tuple[np.ndarray, np.ndarray]:
    """Row ``i`` of a CSR matrix as (column indices, values), without building a matrix."""
    start, end = matrix.indptr[i], matrix.indptr[i + 1]
    return matrix.indices[start:end], matrix.data[start:end]


def shared_products(
    a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]
) -> list[tuple[float, int]]:
    """(a[k] * b[k], k) for the columns ``k`` two sparse rows share."""
    common, ia, ib = np.intersect1d(a[0], b[0], assume_unique=True, return_indices=True)
    return list(zip((a[1][ia] * b[1][ib]).tolist(), common.tolist(), strict=True))


def weighted_matrix(
    rows: Sequence[int], cols: Sequence[int], weight: np.ndarray, shape: tuple[int, int]
) -> sp.csr_matrix:
    data = weight[np.asarray(cols, dtype=np.int64)] if len(cols) else np.zeros(0)
    matrix = sp.csr_matrix(
        (data, (np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64))),
        shape=shape,
        dtype=np.float64,
    )
    matrix.sum_duplicates()
    matrix.eliminate_zeros()
    return matrix


def _row_norms(matrix: sp.csr_matrix) -> np.ndarray:
    return np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())


def l2_rows(matrix: sp.csr_matrix) -> sp.csr_matrix:
    norms = _row_norms(matrix)
    norms[norms == 0] = 1.0
    return sp.csr_matrix(sp.diags(1.0 / norms) @ matrix)


def normalize_pair(used: sp.csr_matrix, proposed: sp.csr_matrix) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """Scale both role matrices by the norm of their sum (one vector per paper, split by role)."""
    norms = np.sqrt(_row_norms(used) ** 2 + _row_norms(proposed) ** 2)
    norms[norms == 0] = 1.0
    scale = sp.diags(1.0 / norms)
    return sp.csr_matrix(scale @ used), sp.csr_matrix(scale @ proposed)


def dense(matrix: Any) -> np.ndarray:
    if sp.issparse(matrix):
        return np.asarray(matrix.todense()).ravel()
    return np.asarray(matrix).ravel()
