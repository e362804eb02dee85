"""Measuring bound extraction against hand-written gold: ``kg eval bounds --gold FILE INPUT…``.

The gold file has one JSON line per abstract::

    {"doc": ID, "split": "dev"|"test", "bounds": [{"kind", "soft", "latex", "expr", "quantity",
    "attribution"}]}

``split`` says whether the abstract is in the part the rules are tuned on (``dev``) or in the
frozen part that is only measured (``test``; ``tools/bounds_split.py`` says how it was decided);
``kg eval bounds --split dev|test`` scores one part. ``ID`` is the paper id the readers give (the
record's ``id`` in JSONL, the derived ``p-…`` id for seed text). A gold bound is located in its
abstract by its ``latex``; when the same text occurs more than once, the k-th gold bound with
that text takes the k-th unused occurrence, preferring occurrences that fill a whole math span.

The shipped gold, ``tests/data/bounds_gold.jsonl``, was written by reading the abstracts (never
from extractor output): all 50 seed abstracts, and 1785 abstracts of ``ml-abstracts.jsonl``
(copied to ``tests/data/bounds_gold_papers.jsonl``) chosen by a filter blind to the extractor:
venue COLT, ALT, AISTATS or UAI; the abstract contains ``$`` and one of ``O(``, ``\\Omega``,
``\\Theta``, ``\\tilde``, ``\\widetilde``, ``\\mathcal{O}``, ``\\le``, ``\\ge``, ``\\sim``; kg can
read it (its math closes); all 879 of them, in order of ``sha256(id)``, then all 467 of the
abstracts of the other venues that pass the same filter, in the same order, then all 440 of
those that write their bounds without TeX math (one of them, the same text as an earlier one
under another id, is left out)
(``tools/bounds_batch.py FIRST LAST`` draws records of that order; a unit test checks the shipped
ones are its head). Formula bounds only. How each batch was written and scored, what every rule
version reached on it and what was tried and dropped is in ``docs/bounds-gold.md``.

Scores, over the papers named in the gold file only:

* detection precision, recall and F1 of **formula** bounds (verbal bounds are not in the gold):
  a prediction matches a gold bound when their spans overlap by at least half of the longer one,
  one to one, largest overlap first;
* on matched pairs, the accuracy of ``kind``, ``soft``, ``attribution`` and ``quantity``
  (quantities compared case-insensitively, hyphens as spaces), and of ``expr`` as a diagnostic;
* ``quantity_canonical`` (printed "as Metric", under ``quantity``): the quantities compared by the
  key of the Metric entity the graph links a bound's quantity to (``kg.resolve.canonicalize(q,
  "Metric")``, slugged: plurals, determiners and case folded), since in the graph a quantity is
  right when it resolves to the same Metric. It is printed beside the strict figure, never
  instead of it;
* ``quantity_lenient`` (printed "lenient"): a quantity counts when it shares a content word with
  the gold's (lower-cased, hyphens as spaces, plurals folded, words of scikit-learn's English stop
  list left out: "expected regret" for "regret", "sample size" for "sample complexity"), as a
  reader checks that the right thing is bounded; both empty also agree.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kg.errors import EvalError
from kg.evaluate.metrics import precision_recall_f1
from kg.text import find_math
from kg.types import Bound, Paper

FIELDS = ("kind", "soft", "attribution", "quantity")
SPLITS = ("dev", "test")
_KINDS = frozenset(("upper", "lower", "tight", "order"))
_ATTRIBUTIONS = frozenset(("this", "prior"))


@dataclass(frozen=True, slots=True)
class GoldBound:
    """One hand-written bound of the gold file."""

    kind: str
    soft: bool
    latex: str
    expr: str
    quantity: str | None
    attribution: str


@dataclass(slots=True)
class BoundsScores:
    """Detection counts and per-field agreement on matched bounds, with the errors seen."""

    docs: int = 0
    gold: int = 0
    predicted: int = 0
    matched: int = 0
    agree: dict[str, int] = field(
        default_factory=lambda: {f: 0 for f in (*FIELDS, "quantity_canonical", "quantity_lenient", "expr")}
    )
    errors: list[dict[str, Any]] = field(default_factory=list)

    def detection(self) -> dict[str, float]:
        return precision_recall_f1(self.matched, self.predicted, self.matched, self.gold)

    def accuracy(self) -> dict[str, float]:
        return {f: round(n / self.matched, 4) if self.matched else 0.0 for f, n in self.agree.items()}

    def to_json(self) -> dict[str, Any]:
        return {
            "docs": self.docs,
            "gold": self.gold,
            "predicted": self.predicted,
            "matched": self.matched,
            "detection": self.detection(),
            "accuracy": self.accuracy(),
            "errors": self.errors,
        }

    def report(self) -> str:
        """The printed summary: one line for detection, one per field."""
        d = self.detection()
        lines = [
            f"bounds: {self.docs} abstracts, {self.gold} gold, {self.predicted} predicted (formula), "
            f"{self.matched} matched",
            f"detection  P {d['p']:.3f}  R {d['r']:.3f}  F1 {d['f1']:.3f}",
        ]
        for name, n in self.agree.items():
            label = _LABELS.get(name, name)  # the quantity variants under "quantity"
            value = n / self.matched if self.matched else 0.0  # not the 4-place JSON figure: one rounding
            lines.append(f"{label:<12} accuracy {value:.3f}  ({n}/{self.matched})")
        return "\n".join(lines)


_LABELS = {"quantity_canonical": "  as Metric", "quantity_lenient": "  lenient"}


def load_gold(path: str, split: str = "all") -> dict[str, list[GoldBound]]:
    """Read a bounds gold file, only its ``split`` part unless ``split`` is ``"all"``.

    Raises:
        EvalError: a malformed record (the line named), or a record without a split when one
            part is asked for.
    """
    gold: dict[str, list[GoldBound]] = {}
    seen: set[str] = set()
    try:
        f = open(path, encoding="utf-8")
    except OSError as exc:
        raise EvalError(f"{path}: cannot read the gold file ({exc.strerror})") from None
    with f:
        for line_no, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                doc = obj["doc"]
                part = obj.get("split")
                if part is not None and part not in SPLITS:
                    raise ValueError(f"split {part!r} is not one of {list(SPLITS)}")
                bounds = [_gold_bound(b) for b in obj["bounds"]]
            except (ValueError, KeyError, TypeError) as exc:
                raise EvalError(
                    f"{path}: line {line_no}: expected "
                    f'{{"doc": ID, "split": "dev"|"test", "bounds": [{{"kind", "soft", "latex", "expr", '
                    f'"quantity", "attribution"}}]}} ({exc})'
                ) from None
            if doc in seen:
                raise EvalError(f"{path}: line {line_no}: doc {doc!r} appears twice")
            seen.add(doc)
            if split != "all" and part is None:
                raise EvalError(f"{path}: line {line_no}: no split, so no {split} part can be read")
            if split == "all" or part == split:
                gold[doc] = bounds
    if not seen:
        raise EvalError(f"{path}: no gold records")
    return gold


def load_golds(paths: Sequence[str], split: str = "all") -> dict[str, list[GoldBound]]:
    """The gold of several files (the extractor's own and a blind batch), one part or all;
    :class:`EvalError` when two files hold the same doc, or when the part asked for is empty."""
    gold: dict[str, list[GoldBound]] = {}
    for path in paths:
        part = load_gold(path, split)
        twice = sorted(d for d in part if d in gold)
        if twice:
            raise EvalError(f"{path}: doc {twice[0]!r} is in an earlier gold file too")
        gold.update(part)
    if not gold:
        raise EvalError(f"{', '.join(paths)}: no {split} abstracts in the gold")
    return gold


def _gold_bound(obj: dict[str, Any]) -> GoldBound:
    kind, attribution = obj["kind"], obj["attribution"]
    if kind not in _KINDS:
        raise ValueError(f"kind {kind!r} is not one of {sorted(_KINDS)}")
    if attribution not in _ATTRIBUTIONS:
        raise ValueError(f"attribution {attribution!r} is not one of {sorted(_ATTRIBUTIONS)}")
    if not obj["latex"]:
        raise ValueError("empty latex")
    return GoldBound(
        kind, bool(obj["soft"]), obj["latex"], obj.get("expr") or "", obj.get("quantity"), attribution
    )


def locate_gold(abstract: str, bounds: Sequence[GoldBound], doc: str = "") -> list[tuple[int, int]]:
    """Character spans of ``bounds`` in ``abstract``; :class:`EvalError` when a latex is absent."""
    bodies = {(m.body_start, m.body_end) for m in find_math(abstract)}
    used: list[tuple[int, int]] = []
    out = []
    for b in bounds:
        spans = []
        i = abstract.find(b.latex)
        while i >= 0:
            j = i + len(b.latex)
            whole = any(
                s <= i and j <= e and not abstract[s:i].strip() and not abstract[j:e].strip()
                for s, e in bodies
            )
            spans.append((not whole, i, j))
            i = abstract.find(b.latex, i + 1)
        free = [(i, j) for _, i, j in sorted(spans) if not any(i < e and s < j for s, e in used)]
        if not free:
            raise EvalError(f"gold bound {b.latex!r} not found (or used up) in the abstract of {doc!r}")
        used.append(free[0])
        out.append(free[0])
    return out


def _overlaps_enough(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Overlap length when it is at least half the longer span, else 0."""
    overlap = min(a[1], b[1]) - max(a[0], b[0])
    longest = max(a[1] - a[0], b[1] - b[0])
    return overlap if overlap > 0 and 2 * overlap >= longest else 0


def match_spans(
    gold: Sequence[tuple[int, int]], predicted: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """One-to-one ``(gold index, predicted index)`` pairs of spans overlapping by at least half
    the longer one, largest overlap first (ties: earlier gold, then earlier prediction)."""
    pairs = sorted(
        (
            (ov, gi, pi)
            for gi, gs in enumerate(gold)
            for pi, ps in enumerate(predicted)
            if (ov := _overlaps_enough(gs, ps))
        ),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    taken_g: set[int] = set()
    taken_p: set[int] = set()
    out: list[tuple[int, int]] = []
    for _, gi, pi in pairs:
        if gi not in taken_g and pi not in taken_p:
            taken_g.add(gi)
            taken_p.add(pi)
            out.append((gi, pi))
    return out


def _norm_quantity(q: str | None) -> str:
    return " ".join((q or "").lower().replace("-", " ").split())


def _content_words(q: str | None) -> frozenset[str]:
    """The content words of a quantity: lower-cased, hyphens as spaces, singular, no stop words."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    from extractors.canonical import singularize

    words = _norm_quantity(q).split()
    return frozenset(singularize(w) for w in words if w.isalpha() and w not in ENGLISH_STOP_WORDS)


def _same_lenient(gold: str | None, predicted: str | None) -> bool:
    """Whether two quantities share a content word (both empty agree too)."""
    g, p = _content_words(gold), _content_words(predicted)
    return bool(g & p) if g or p else True


def _metric_key(q: str | None) -> str:
    """The key of the Metric entity the graph links a bound's quantity to (``kg.resolve``: the
    entity rules' canonical name, slugged), "" for no quantity."""
    from kg.resolve import canonicalize
    from kg.vocab import slug

    return slug(canonicalize(q.strip(), "Metric")) if q and q.strip() else ""


def score_bounds(
    gold: Mapping[str, Sequence[GoldBound]], papers: Iterable[Paper], predicted: Mapping[str, Sequence[Bound]]
) -> BoundsScores:
    """Score ``predicted`` bounds (by paper id) against ``gold`` on the papers gold names."""
    scores = BoundsScores()
    by_id = {p.id: p for p in papers}
    missing = sorted(d for d in gold if d not in by_id)
    if missing:
        raise EvalError(f"{len(missing)} gold doc(s) not in the input, e.g. {missing[0]!r}")
    for doc in sorted(gold):
        paper = by_id[doc]
        gold_bounds = list(gold[doc])
        gold_spans = locate_gold(paper.abstract, gold_bounds, doc)
        preds = [b for b in predicted.get(doc, ()) if b.form == "formula"]
        scores.docs += 1
        scores.gold += len(gold_bounds)
        scores.predicted += len(preds)
        matched = match_spans(gold_spans, [(p.start, p.end) for p in preds])
        taken_g = {gi for gi, _ in matched}
        taken_p = {pi for _, pi in matched}
        for gi, pi in matched:
            g, p = gold_bounds[gi], preds[pi]
            scores.matched += 1
            same = {
                "kind": g.kind == p.kind,
                "soft": g.soft == p.soft,
                "attribution": g.attribution == p.attribution,
                "quantity": _norm_quantity(g.quantity) == _norm_quantity(p.quantity),
                "quantity_canonical": _metric_key(g.quantity) == _metric_key(p.quantity),
                "quantity_lenient": _same_lenient(g.quantity, p.quantity),
                "expr": g.expr.replace(" ", "") == p.expr.replace(" ", ""),
            }
            for name, ok in same.items():
                scores.agree[name] += ok
            wrong = [n for n in FIELDS if not same[n]]
            if wrong:
                scores.errors.append(
                    {
                        "doc": doc,
                        "latex": g.latex,
                        "error": "fields",
                        "fields": {n: [getattr(g, n), getattr(p, n)] for n in wrong},
                    }
                )
        for gi, g in enumerate(gold_bounds):
            if gi not in taken_g:
                scores.errors.append({"doc": doc, "latex": g.latex, "error": "missed"})
        for pi, p in enumerate(preds):
            if pi not in taken_p:
                scores.errors.append({"doc": doc, "latex": p.latex, "error": "spurious", "kind": p.kind})
    return scores


def annotated_bounds(abstract: str, bounds: Sequence[GoldBound], doc: str = "") -> list[Bound]:
    """A hand annotation's bounds as :class:`Bound` records located in ``abstract`` (the way
    :func:`locate_gold` places gold), so that :func:`score_bounds` can score one reader against
    another exactly as it scores the extractor."""
    return [
        Bound(form="formula", kind=b.kind, notation="", soft=b.soft, latex=b.latex, expr=b.expr,
              variables=(), quantity=b.quantity, subject=None, attribution=b.attribution,
              condition=None, start=start, end=end, extractor="annotation")
        for b, (start, end) in zip(bounds, locate_gold(abstract, bounds, doc), strict=True)
    ]


def evaluate_bounds(
    gold_files: str | Sequence[str],
    inputs: Sequence[str],
    *,
    split: str = "all",
    workers: int | None = 1,
    spacy_model: str | None = None,
    annotations: str | None = None,
) -> BoundsScores:
    """Read ``inputs``, extract bounds from the papers the gold files name, and score them.

    ``split`` (``dev``, ``test`` or ``all``) keeps the gold abstracts of that part only.

    Extraction goes through the same pipeline as ``kg extract`` (spaCy parse included), with only
    the ``bounds`` family. With ``annotations``, a second hand annotation of some of the gold's
    abstracts (same format) is scored instead of the extractor, on the abstracts it holds: the
    agreement of two readers, the ceiling a measure against one reader's gold can show.

    Raises:
        EvalError: a malformed gold or annotations file, gold docs missing from the inputs, or
            annotated docs missing from the gold.
        InputError: an unreadable input.
    """
    from kg.ingest import read_papers
    from kg.pipeline import extract_papers, load_pipeline

    files = [gold_files] if isinstance(gold_files, str) else list(gold_files)
    gold = load_golds(files, split)
    if annotations is not None:
        second = load_gold(annotations)
        known = load_golds(files)
        unknown = sorted(d for d in second if d not in known)
        if unknown:
            raise EvalError(f"{annotations}: {len(unknown)} doc(s) not in the gold {', '.join(files)}, "
                            f"e.g. {unknown[0]!r}")
        gold = {d: gold[d] for d in second if d in gold}
        papers = [p for p in read_papers(inputs) if p.id in gold]
        by_id = {p.id: p for p in papers}
        return score_bounds(gold, papers, {
            d: annotated_bounds(by_id[d].abstract, bounds, d) for d, bounds in second.items() if d in by_id
        })
    papers = [p for p in read_papers(inputs) if p.id in gold]
    pipeline = load_pipeline(spacy_model, families=("bounds",))
    predicted = {
        x.paper.id: list(x.bounds) for x in extract_papers(papers, pipeline=pipeline, workers=workers)
    }
    return score_bounds(gold, papers, predicted)
