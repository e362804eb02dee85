"""Measuring relation extraction on SciERC: Rel micro P/R/F1, overall and per type.

A predicted relation is correct when both argument spans are exactly a gold relation's (head and
tail, in that direction) and its type is the gold type: "Rel" as in PURE (Zhong and Chen, NAACL
2021) and PL-Marker; entity types are not required. Two settings:

* **end to end**: the relations ``kg extract`` outputs, between the mentions the entity extractor
  found (what a user gets);
* **gold entities**: the relation step alone, given SciERC's gold entities and SciERC's
  sentences (the gold ``Generic`` spans as its generic references).

In both, every gold relation counts; a third of SciERC's relations have a ``Generic`` argument
("*it* USED-FOR …"), which kg finds as a generic reference (:mod:`extractors.generic_refs`), not
as an entity; :attr:`RelScores.generic_gold` says how many they are, and the figures without them
are printed beside.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kg.evaluate.metrics import precision_recall_f1

RelKey = tuple[int, int, int, int, str]


@dataclass(slots=True)
class RelCounts:
    pred: int = 0
    gold: int = 0
    ok: int = 0

    def scores(self) -> dict[str, float]:
        return precision_recall_f1(self.ok, self.pred, self.ok, self.gold)


@dataclass(slots=True)
class RelScores:
    """Micro Rel counts over documents, overall, per type, and with the Generic-argument gold left out."""

    docs: int = 0
    all: RelCounts = field(default_factory=RelCounts)
    by_type: dict[str, RelCounts] = field(default_factory=dict)
    no_generic: RelCounts = field(default_factory=RelCounts)
    generic_gold: int = 0

    def add(
        self,
        pred: Iterable[RelKey],
        gold: Iterable[RelKey],
        generic: Iterable[RelKey] = (),
        generic_pred: Iterable[RelKey] = (),
    ) -> None:
        """Add one document: predicted and gold relations, which gold ones have a Generic argument
        and which predicted ones a generic reference (both left out of :attr:`no_generic`).

        >>> s = RelScores()
        >>> s.add([(0, 3, 8, 12, "USED-FOR"), (0, 3, 8, 12, "COMPARE")], [(0, 3, 8, 12, "USED-FOR")])
        >>> s.all.scores()
        {'p': 0.5, 'r': 1.0, 'f1': 0.6667}
        """
        pred_set, gold_set, generic_set = set(pred), set(gold), set(generic)
        self.docs += 1
        hits = pred_set & gold_set
        for counts, p, g in (
            (self.all, pred_set, gold_set),
            (self.no_generic, pred_set - set(generic_pred), gold_set - generic_set),
        ):
            counts.pred += len(p)
            counts.gold += len(g)
            counts.ok += len(hits & p & g)
        self.generic_gold += len(gold_set & generic_set)
        for t in sorted({r[4] for r in pred_set | gold_set}):
            c = self.by_type.setdefault(t, RelCounts())
            c.pred += sum(1 for r in pred_set if r[4] == t)
            c.gold += sum(1 for r in gold_set if r[4] == t)
            c.ok += sum(1 for r in hits if r[4] == t)

    def to_json(self) -> dict[str, Any]:
        return {
            "docs": self.docs,
            "rel": {**self.all.scores(), "pred": self.all.pred, "gold": self.all.gold},
            "rel_without_generic_gold": {**self.no_generic.scores(), "gold": self.no_generic.gold},
            "generic_gold": self.generic_gold,
            "per_type": {
                t: {**c.scores(), "gold": c.gold, "pred": c.pred} for t, c in sorted(self.by_type.items())
            },
        }


def gold_of(sdoc: Any) -> tuple[set[RelKey], set[RelKey]]:
    """The gold relations of a SciERC document, and those of them with a ``Generic`` argument."""
    generic = {(s.start, s.end) for s in sdoc.spans if s.label == "Generic"}
    gold = {(*r.head, *r.tail, r.label) for r in sdoc.relations}
    return gold, {g for g in gold if (g[0], g[1]) in generic or (g[2], g[3]) in generic}


def predicted_of(relations: Iterable[Any], generic: bool | None = None) -> set[RelKey]:
    """:class:`kg.types.EntityRelation` records as scored keys (``generic``: only those with a
    generic-reference argument, or only those without one)."""
    return {
        (r.head.start, r.head.end, r.tail.start, r.tail.end, r.type)
        for r in relations
        if generic is None or generic == (r.head.generic or r.tail.generic)
    }


def relation_step(pipeline: Any) -> Any:
    """The pipeline's relation extractor (the shipped one when the pipeline runs none)."""
    for extractor in pipeline.extractors:
        if getattr(extractor, "reads_mentions", False):
            return extractor
    from extractors.relations import relation_extractor

    return relation_extractor()


def score_gold_entities(docs: Sequence[Any], pipeline: Any) -> RelScores:
    """The relation step alone on SciERC documents, given their gold entities (the ``Generic``
    ones as its generic references) and SciERC's sentences."""
    from extractors.base import ParsedPaper
    from extractors.relations import RelationExtractor
    from extractors.train.scierc import SCIERC_TO_ARG_TYPE
    from kg.text import normalize
    from kg.types import Mention, Paper

    step = RelationExtractor(relation_step(pipeline).model, generic=None)
    scores = RelScores()
    norms = [normalize(d.text) for d in docs]
    for sdoc, norm, doc in zip(docs, norms, pipeline.nlp.pipe(n.text for n in norms), strict=True):
        mentions = []
        for s in sdoc.spans:
            if s.label not in SCIERC_TO_ARG_TYPE:
                continue
            sent = next(((a, b) for a, b in sdoc.sentences if a <= s.start < b), (-1, -1))
            etype = SCIERC_TO_ARG_TYPE[s.label]
            mentions.append(
                Mention(
                    etype, sdoc.text[s.start : s.end], s.start, s.end, "", None, 1.0, "gold", sent[0], sent[1]
                )
            )
        mentions.sort(key=lambda m: (m.start, m.end, m.type))
        parsed = ParsedPaper(Paper(id=sdoc.key, title="", abstract=sdoc.text), norm, doc, tuple(mentions))
        gold, generic = gold_of(sdoc)
        rels = list(step.extract(parsed))
        scores.add(predicted_of(rels), gold, generic, predicted_of(rels, generic=True))
    return scores


def format_relations(scores: RelScores, title: str) -> str:
    """The printed table: Rel P/R/F1 overall (all gold; without Generic-argument gold) and per type."""
    out = [f"{title} ({scores.docs} docs; Rel: both argument spans exact and the type right; micro)"]
    out.append(f"{'':14s} {'P':>6s} {'R':>6s} {'F1':>6s}   gold  pred")
    rows = [("ALL", scores.all)] + sorted(scores.by_type.items())
    for name, c in rows:
        s = c.scores()
        out.append(f"{name:14s} {s['p']:6.3f} {s['r']:6.3f} {s['f1']:6.3f}   {c.gold:4d}  {c.pred:4d}")
    ng = scores.no_generic.scores()
    out.append(
        f"{scores.generic_gold} gold relations have a Generic argument (kg finds it as a generic reference); "
        f"without them (and the predictions with one): P {ng['p']:.3f} R {ng['r']:.3f} F1 {ng['f1']:.3f}"
    )
    return "\n".join(out)
