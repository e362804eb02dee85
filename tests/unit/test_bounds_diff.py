"""``tools/bounds_diff.py``: which bounds changed between two extraction files, by class."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

from bounds_diff import compare, main, read_bounds, report  # noqa: E402


def bound(start: int, end: int, **fields: Any) -> dict[str, Any]:
    base = {"form": "formula", "kind": "upper", "quantity": "regret", "attribution": "this",
            "latex": "O(n)", "start": start, "end": end, "extractor": "bounds.latex.v1"}
    return {**base, **fields}


def write(path: Path, papers: dict[str, list[dict[str, Any]]]) -> Path:
    path.write_text("".join(json.dumps({"id": p, "bounds": b}) + "\n" for p, b in papers.items()),
                    encoding="utf-8")
    return path


def test_bounds_diff_classes_of_change(tmp_path: Path) -> None:
    before = {
        "a": [bound(0, 4), bound(10, 14), bound(20, 24), bound(30, 34)],
        "b": [bound(0, 4)],
    }
    after = {
        "a": [
            bound(0, 4, extractor="bounds.latex.v2"),  # the version alone: no change
            bound(10, 14, quantity="expected regret"),
            bound(20, 26, kind="lower", attribution="prior"),  # moved span
            bound(40, 44),
        ],
        "b": [bound(0, 4, kind="tight", attribution="prior")],
    }
    changes, only_before, only_after = compare(
        read_bounds(write(tmp_path / "x.jsonl", before)), read_bounds(write(tmp_path / "y.jsonl", after))
    )
    assert [(c.paper, c.cls) for c in changes] == [
        ("a", "quantity"), ("a", "span"), ("a", "removed"), ("a", "added"), ("b", "attribution+kind"),
    ]
    assert only_before == only_after == []
    text = report(changes, only_before, only_after, (5, 5), limit=3)
    assert "quantity: 1\n  ×1    quantity: 'regret' -> 'expected regret'" in text


def test_bounds_diff_exit_status(tmp_path: Path) -> None:
    same = write(tmp_path / "x.jsonl", {"a": [bound(0, 4)]})
    assert main([str(same), str(same)]) == 0
    other = write(tmp_path / "y.jsonl", {"a": [bound(0, 4)], "b": []})
    assert main([str(same), str(other)]) == 1  # a paper only one side has
