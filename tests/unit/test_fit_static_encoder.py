"""``tools/fit_static_encoder.py``: a token table fitted to sentence vectors by ridge regression."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import scipy.sparse as sp

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

from fit_static_encoder import mean_matrix, ridge  # noqa: E402


def test_ridge_matches_the_closed_form_solution() -> None:
    rng = np.random.default_rng(0)
    x = sp.random(60, 25, density=0.3, random_state=1, format="csr")
    y = rng.normal(size=(60, 4))
    prior = rng.normal(size=(25, 4))
    lam = 0.5
    exact = np.linalg.solve((x.T @ x).toarray() + lam * np.eye(25), x.T @ y + lam * prior)
    assert np.allclose(ridge(x, y, lam, prior, iters=200), exact, atol=1e-6)


def test_ridge_keeps_the_prior_of_a_token_no_text_holds() -> None:
    x = sp.csr_matrix(np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]))
    y = np.array([[1.0, 0.0], [0.0, 1.0]])
    prior = np.array([[0.0, 0.0], [0.0, 0.0], [0.3, -0.7]])
    table = ridge(x, y, 0.1, prior, iters=50)
    assert np.allclose(table[2], prior[2])
    assert np.allclose(table[0], [1 / 1.1, 0.0])


def test_mean_matrix_rows_are_token_shares_of_each_text() -> None:
    rows = mean_matrix(["bandit bandit regret", ""], 30522).toarray()
    assert np.isclose(rows[0].sum(), 1.0)
    assert rows[0].max() >= 2 / 3 - 1e-9  # "bandit" twice among three or more tokens
    assert rows[1].sum() == 0.0
