"""Scores shared by the evaluation commands (``kg eval entities|bounds``)."""

from __future__ import annotations


def precision_recall_f1(pred_ok: int, pred: int, gold_ok: int, gold: int) -> dict[str, float]:
    """Precision (``pred_ok/pred``), recall (``gold_ok/gold``) and F1, rounded; 0 where undefined.

    >>> precision_recall_f1(3, 4, 3, 6)
    {'p': 0.75, 'r': 0.5, 'f1': 0.6}
    """
    p = pred_ok / pred if pred else 0.0
    r = gold_ok / gold if gold else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"p": round(p, 4), "r": round(r, 4), "f1": round(f1, 4)}
