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
    with pytest.raises(EvalError, match="one.jsonl: no test abstracts"):
        load_golds([one], "test")
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
    """Floors under what the rules reach on the whole gold without a parse (the figures, with the
    parse and by part, are printed by ``kg eval bounds`` and kept in docs/quality.md)."""
    g = load_gold(str(DATA / "bounds_gold.jsonl"))
    papers = [p for p in read_papers([str(SEEDS), str(DATA / "bounds_gold_papers.jsonl")]) if p.id in g]
    predicted = {p.id: extract_bounds(p.abstract) for p in papers}
    scores = score_bounds(g, papers, predicted)
    accuracy = scores.accuracy()
    assert scores.detection()["f1"] >= 0.92
    assert accuracy["kind"] >= 0.95 and accuracy["attribution"] >= 0.90 and accuracy["quantity"] >= 0.67


# (F1, kind, attribution, quantity, lenient quantity) floors under docs/quality.md's figures: "dev"
# is the tuning set (the main gold's dev part and the blind gold's dev half), "test" the frozen set
FLOORS = {"dev": (0.92, 0.94, 0.92, 0.71, 0.83), "test": (0.92, 0.95, 0.90, 0.70, 0.83)}
# detection F1 floors of the blind gold's halves alone, the text the rules were not tuned on
BLIND_FLOORS = {"dev": 0.75, "test": 0.83}


def test_bounds_eval_floors_on_gold_with_the_parse(bounds_pipeline: Any) -> None:
    """The tuning set and the frozen set (each with its half of the blind gold) through the real
    pipeline, as ``kg eval bounds --split`` runs them; the blind halves alone; and the seeds, whose
    F1 must stay at 0.93 or more."""
    files = [str(DATA / "bounds_gold.jsonl"), str(DATA / "bounds_gold_blind.jsonl")]
    inputs = [str(SEEDS), *(str(DATA / f"bounds_gold{part}_papers.jsonl") for part in ("", "_blind"))]
    every = load_golds(files)
    papers = [p for p in read_papers(inputs) if p.id in every]
    predicted = {p.id: list(bounds_pipeline.extract_one(p).bounds) for p in papers}
    for split, (f1, kind, attribution, quantity, lenient) in FLOORS.items():
        g = load_golds(files, split)
        scores = score_bounds(g, [p for p in papers if p.id in g], predicted)
        accuracy = scores.accuracy()
        assert scores.detection()["f1"] >= f1, split
        assert accuracy["kind"] >= kind and accuracy["attribution"] >= attribution, split
        assert accuracy["quantity"] >= quantity and accuracy["quantity_lenient"] >= lenient, split
    for split, f1 in BLIND_FLOORS.items():
        g = load_golds(files[1:], split)
        assert score_bounds(g, [p for p in papers if p.id in g], predicted).detection()["f1"] >= f1, split
    seeds = {d: b for d, b in every.items() if d.startswith("p-")}
    assert score_bounds(seeds, [p for p in papers if p.id in seeds], predicted).detection()["f1"] >= 0.93


def test_bounds_eval_blind_gold_is_halved_and_located() -> None:
    """The blind gold (docs/bounds-gold-blind.md) has a dev half and a frozen test half, its papers
    are the ones it names, and every bound it gives is found in its abstract."""
    path = DATA / "bounds_gold_blind.jsonl"
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    assert {r["split"] for r in records} == {"dev", "test"} and len(records) == 239
    gold = load_gold(str(path))
    papers = {p.id: p for p in read_papers([str(DATA / "bounds_gold_blind_papers.jsonl")])}
    assert set(papers) == set(gold)
    assert not set(gold) & set(load_gold(str(DATA / "bounds_gold.jsonl")))
    for doc, bounds in gold.items():
        assert len(annotated_bounds(papers[doc].abstract, bounds, doc)) == len(bounds)
