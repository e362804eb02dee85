"""Measuring entity extraction: SciERC (strict and relaxed micro P/R/F1) and expert seed gold (recall).

``kg eval entities --scierc FILE`` runs the whole ``entities`` extractor (model + rules, through the
same pipeline ``kg extract`` uses) on a SciERC split and scores typed mentions:

* **strict**: same character span and same type as a gold span;
* **relaxed**: same type and overlapping spans (a prediction is correct if it overlaps a gold span of
  its type; a gold span is found if a prediction of its type overlaps it).

SciERC ``Generic`` spans are left out; ``Material`` is our ``Dataset`` and ``OtherScientificTerm``
our ``Concept``.

``kg eval entities --scier FILE`` does the same on SciER (full-text ML papers cut into passages of
whole sentences, about an abstract each), scoring only ``Dataset``, ``Method`` and ``Task``, the
three types SciER labels (our ``Metric`` and ``Concept`` mentions are not counted).

``kg eval entities --gold FILE INPUT…`` scores extraction of abstracts against hand-written key
entities (one JSON line per paper: ``{"id", "entities": [{"text", "type", "role"}]}``): typed and
untyped recall, and the share of named proposed methods found with role ``proposed``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kg.errors import InputError
from kg.evaluate.metrics import precision_recall_f1
from kg.evaluate.relations import RelScores, gold_of, predicted_of
from kg.types import ENTITY_TYPES, Extraction, Mention, Paper


@dataclass(slots=True)
class Counts:
    """Counts for one score row: predictions, gold, and the correct ones on each side."""

    pred: int = 0
    gold: int = 0
    pred_ok: int = 0  # predictions that are correct
    gold_ok: int = 0  # gold spans that are found

    def scores(self) -> dict[str, float]:
        """Precision, recall and F1 (0 where undefined)."""
        return precision_recall_f1(self.pred_ok, self.pred, self.gold_ok, self.gold)


@dataclass(slots=True)
class SciercScores:
    """Micro scores over a SciERC split, overall and per type, strict and relaxed."""

    docs: int = 0
    strict: Counts = field(default_factory=Counts)
    relaxed: Counts = field(default_factory=Counts)
    strict_by_type: dict[str, Counts] = field(default_factory=dict)
    relaxed_by_type: dict[str, Counts] = field(default_factory=dict)
    # Rel scores of the relations extracted between the extracted mentions (end to end), when the
    # documents have gold relations and the pipeline runs the relations family.
    relations: RelScores | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            **({"relations": self.relations.to_json()} if self.relations is not None else {}),
            "docs": self.docs,
            "strict": {**self.strict.scores(), "pred": self.strict.pred, "gold": self.strict.gold},
            "relaxed": self.relaxed.scores(),
            "per_type": {
                t: {
                    "strict": self.strict_by_type[t].scores(),
                    "relaxed": self.relaxed_by_type[t].scores(),
                    "gold": self.strict_by_type[t].gold,
                    "pred": self.strict_by_type[t].pred,
                }
                for t in ENTITY_TYPES
            },
        }


def score_spans(
    pred: Sequence[tuple[int, int, str]], gold: Sequence[tuple[int, int, str]], scores: SciercScores
) -> None:
    """Add one document's typed spans ``(start, end, type)`` to ``scores``.

    >>> s = SciercScores()
    >>> score_spans([(0, 5, "Task"), (10, 14, "Method")], [(0, 5, "Task"), (9, 14, "Method")], s)
    >>> s.strict.scores(), s.relaxed.scores()
    ({'p': 0.5, 'r': 0.5, 'f1': 0.5}, {'p': 1.0, 'r': 1.0, 'f1': 1.0})
    """
    pred_set = set(pred)
    gold_set = set(gold)
    exact = pred_set & gold_set
    relaxed_pred = {p for p in pred_set if any(_overlap(p, g) for g in gold_set)}
    relaxed_gold = {g for g in gold_set if any(_overlap(p, g) for p in pred_set)}
    for total, by_type, hit_pred, hit_gold in (
        (scores.strict, scores.strict_by_type, exact, exact),
        (scores.relaxed, scores.relaxed_by_type, relaxed_pred, relaxed_gold),
    ):
        for t in (None, *ENTITY_TYPES):
            counts = total if t is None else by_type.setdefault(t, Counts())
            counts.pred += sum(1 for x in pred_set if t in (None, x[2]))
            counts.gold += sum(1 for x in gold_set if t in (None, x[2]))
            counts.pred_ok += sum(1 for x in hit_pred if t in (None, x[2]))
            counts.gold_ok += sum(1 for x in hit_gold if t in (None, x[2]))


def _overlap(a: tuple[int, int, str], b: tuple[int, int, str]) -> bool:
    return a[2] == b[2] and a[0] < b[1] and b[0] < a[1]


def evaluate_scierc(
    path: str | Path | Sequence[str | Path],
    *,
    keys: set[str] | None = None,
    spacy_model: str | None = None,
    pipeline: Any = None,
) -> SciercScores:
    """Run the ``entities`` extractor on a SciERC split and score it against the gold spans.

    Args:
        path: a DyGIE-format SciERC file (``dev.json``), or several read as one.
        keys: score only the documents with these ``doc_key`` values (a fold: the frozen one is
            ``extractors/train/splits/scierc_frozen.txt``, read by :func:`read_keys`).
        spacy_model: the base spaCy pipeline to load (default: the run's usual choice).
        pipeline: an already loaded :class:`kg.pipeline.Pipeline` (tests pass one in).

    Returns:
        The micro scores.

    Raises:
        InputError: the file is missing or malformed.
        ConfigError: no spaCy pipeline or entity model can be loaded.
    """
    from extractors.train.scierc import SCIERC_TO_TYPE, read_scierc

    paths = [path] if isinstance(path, (str, Path)) else list(path)
    docs = [d for p in paths for d in read_scierc(p) if keys is None or d.key in keys]
    return score_docs(docs, SCIERC_TO_TYPE, spacy_model=spacy_model, pipeline=pipeline)


def read_keys(path: str | Path) -> set[str]:
    """Document keys listed in a split file: the first tab-separated column; ``#`` lines are comments.

    Raises:
        InputError: the file cannot be read.
    """
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(str(path), None, f"cannot read the key list: {exc.strerror}") from exc
    return {line.split("\t")[0].strip() for line in lines if line.strip() and not line.startswith("#")}


# SciER (Zhang et al., EMNLP 2024) labels Dataset, Method and Task only: our other types are not
# scored there (neither as predictions nor as gold).
SCIER_TO_TYPE: dict[str, str] = {"Dataset": "Dataset", "Method": "Method", "Task": "Task"}


def evaluate_scier(
    path: str | Path, *, spacy_model: str | None = None, pipeline: Any = None, max_chars: int = 1500
) -> SciercScores:
    """Score the extractor on SciER (full-text ML papers, Dataset/Method/Task spans).

    Each paper is cut into passages of whole sentences of at most ``max_chars`` characters (about an
    abstract, what ``kg extract`` reads) and each passage is extracted as one abstract. Our
    ``Dataset``, ``Method`` and ``Task`` mentions are compared with SciER's labels of the same names;
    ``Metric`` and ``Concept`` mentions are left out, as SciER does not label them.

    Raises:
        InputError: the file is missing or malformed.
    """
    from extractors.train.scierc import passages, read_scierc

    docs = [p for doc in read_scierc(path) for p in passages(doc, max_chars)]
    return score_docs(docs, SCIER_TO_TYPE, spacy_model=spacy_model, pipeline=pipeline)


def score_docs(
    docs: Sequence[Any], label_map: dict[str, str], *, spacy_model: str | None = None, pipeline: Any = None
) -> SciercScores:
    """Extract each :class:`~extractors.train.scierc.SciercDoc` and score typed spans.

    Gold spans whose label is not in ``label_map`` are left out, and so are predictions of a type
    that no label maps to.
    """
    from kg.pipeline import load_pipeline

    if pipeline is None:
        pipeline = load_pipeline(spacy_model, families=("entities",))
    types = set(label_map.values())
    papers = [Paper(id=d.key, title="", abstract=d.text) for d in docs]
    scores = SciercScores(docs=len(docs))
    if "relations" in pipeline.families and any(d.relations for d in docs):
        scores.relations = RelScores()
    for sdoc, extraction in zip(docs, pipeline.extract_many(papers), strict=True):
        pred = [(m.start, m.end, m.type) for m in extraction.mentions if m.type in types]
        gold = [(s.start, s.end, label_map[s.label]) for s in sdoc.spans if s.label in label_map]
        score_spans(pred, gold, scores)
        if scores.relations is not None:
            scores.relations.add(
                predicted_of(extraction.relations),
                *gold_of(sdoc),
                predicted_of(extraction.relations, generic=True),
            )
    return scores


# -- expert gold on abstracts ------------------------------------------------------------------


def _key(text: str) -> str:
    from extractors.canonical import canonical_key

    return canonical_key(text)


def read_gold(path: str | Path) -> dict[str, list[dict[str, Any]]]:
    """Read hand-written key entities: paper id → ``[{"text", "type", "role"}]``.

    Raises:
        InputError: the file is missing, a line is not JSON, or an entity lacks text/type.
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(str(path), None, f"cannot read gold file: {exc.strerror}") from exc
    gold: dict[str, list[dict[str, Any]]] = {}
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            entities = obj["entities"]
            for e in entities:
                if e["type"] not in ENTITY_TYPES or not str(e["text"]).strip():
                    raise ValueError(f"bad entity {e!r}")
            gold[str(obj["id"])] = entities
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(
                str(path), f"line {lineno}", f"expected {{id, entities: [{{text, type}}]}}: {exc}"
            ) from exc
    return gold


def _found(entity: dict[str, Any], mentions: Sequence[Mention], typed: bool) -> Mention | None:
    """The mention that finds a gold entity: same canonical key, or one contains the other as words."""
    key = _key(entity["text"])
    canon = _key(entity.get("canonical") or entity["text"])
    best = None
    for m in mentions:
        if typed and m.type != entity["type"]:
            continue
        mkey = _key(m.text)
        if mkey in (key, canon) or _key(m.canonical) in (key, canon):
            return m
        if (
            best is None
            and key
            and mkey
            and (
                re.search(r"(?<!\w)" + re.escape(key) + r"(?!\w)", mkey)
                or re.search(r"(?<!\w)" + re.escape(mkey) + r"(?!\w)", key)
            )
        ):
            best = m
    return best


@dataclass(slots=True)
class GoldScores:
    """Recall of hand-written key entities, and the proposed-role share."""

    papers: int = 0
    gold: int = 0
    found_typed: int = 0
    found_untyped: int = 0
    proposed: int = 0
    proposed_found: int = 0
    missing: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        def ratio(a: int, b: int) -> float:
            return round(a / b, 4) if b else 0.0

        return {
            "papers": self.papers,
            "gold_entities": self.gold,
            "recall_typed": ratio(self.found_typed, self.gold),
            "recall_untyped": ratio(self.found_untyped, self.gold),
            "proposed_gold": self.proposed,
            "proposed_with_role": ratio(self.proposed_found, self.proposed),
        }


def evaluate_gold(gold: dict[str, list[dict[str, Any]]], extractions: Sequence[Extraction]) -> GoldScores:
    """Score extractions against key entities (papers matched by id; other papers ignored).

    A gold entity is found when a mention has the same canonical key, or when one's key contains
    the other's as whole words ("BDC-Merge" in "BDC-Merge framework"). "Typed" also needs the type.
    A proposed gold entity counts for the proposed share when a typed match has role ``proposed``.
    """
    scores = GoldScores()
    for extraction in extractions:
        entities = gold.get(extraction.paper.id)
        if entities is None:
            continue
        scores.papers += 1
        for entity in entities:
            scores.gold += 1
            typed = _found(entity, extraction.mentions, typed=True)
            untyped = typed or _found(entity, extraction.mentions, typed=False)
            scores.found_typed += typed is not None
            scores.found_untyped += untyped is not None
            if entity.get("role") == "proposed":
                scores.proposed += 1
                if (
                    any(
                        m.role == "proposed" and m.type == entity["type"] and _key(m.text) == _key(typed.text)
                        for m in extraction.mentions
                    )
                    if typed is not None
                    else False
                ):
                    scores.proposed_found += 1
            if typed is None:
                scores.missing.append(f"{extraction.paper.id}\t{entity['type']}\t{entity['text']}")
    return scores


def format_scierc(scores: SciercScores, title: str = "SciERC entities") -> str:
    """The printed table: overall strict/relaxed micro P/R/F1, then per type (types with neither
    gold nor predictions are left out)."""
    out = [f"{title} ({scores.docs} docs, Generic left out; micro)"]
    out.append(f"{'':10s} {'P':>6s} {'R':>6s} {'F1':>6s}   {'P':>6s} {'R':>6s} {'F1':>6s}   gold  pred")
    out.append(f"{'':10s} {'strict':>20s}   {'relaxed (typed overlap)':>20s}")
    rows = [("ALL", scores.strict, scores.relaxed)]
    rows += [
        (t, scores.strict_by_type[t], scores.relaxed_by_type[t])
        for t in ENTITY_TYPES
        if t in scores.strict_by_type and (scores.strict_by_type[t].gold or scores.strict_by_type[t].pred)
    ]
    for name, strict, relaxed in rows:
        s, r = strict.scores(), relaxed.scores()
        out.append(
            f"{name:10s} {s['p']:6.3f} {s['r']:6.3f} {s['f1']:6.3f}   "
            f"{r['p']:6.3f} {r['r']:6.3f} {r['f1']:6.3f}"
            f"   {strict.gold:4d}  {strict.pred:4d}"
        )
    return "\n".join(out)
