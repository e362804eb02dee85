"""Measuring the ``proposed`` role: which methods a paper itself introduces.

The gold (``tests/data/proposed_gold.jsonl``, see docs/quality.md) lists, per abstract, the methods
the paper proposes, each as one or more surface strings that name it in the text (alternatives: a
name, its long form, a descriptive phrase). A paper may propose nothing.

Matching is fixed as follows:

* a gold method's **occurrences** are every case-insensitive match of any of its strings in the
  abstract, as whole words, with any run of white space between words;
* a **predicted** proposed method is one canonical name the extractor gives role ``proposed`` and
  type ``Method`` in the paper (all its mentions together);
* a gold method is **found** when a mention of a predicted method overlaps one of its occurrences
  (by at least one character: "Anchor PCA" finds "Anchor PCA method", "NLRR" finds "NLRR"), or,
  for a gold string the abstract never spells as such ("f-GRPO" written "$f$-GRPO"), when a
  predicted method has its canonical key;
* a predicted method is **correct** when one of its mentions overlaps an occurrence of any gold
  method of the paper.

Recall = found / gold methods, precision = correct / predicted methods (micro, over papers).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kg.errors import InputError
from kg.evaluate.metrics import precision_recall_f1
from kg.types import Extraction


@dataclass(slots=True)
class ProposedGold:
    """One judged abstract: the methods it proposes, each as alternative surface strings."""

    id: str
    split: str
    title: str
    abstract: str
    proposed: list[list[str]]


def read_proposed_gold(path: str | Path) -> list[ProposedGold]:
    """Read ``{"id", "split", "title", "abstract", "proposed": [[str, …], …]}`` lines.

    Raises:
        InputError: the file is missing, or a line is not such an object.
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(str(path), None, f"cannot read gold file: {exc.strerror}") from exc
    out = []
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            items = [[str(s) for s in item] for item in obj["proposed"]]
            if any(not item or not all(s.strip() for s in item) for item in items):
                raise ValueError("an empty method")
            out.append(ProposedGold(str(obj["id"]), str(obj["split"]), obj["title"], obj["abstract"], items))
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(
                str(path), f"line {lineno}", f"expected {{id, split, title, abstract, proposed}}: {exc}"
            ) from exc
    return out


def occurrences(text: str, names: Iterable[str]) -> list[tuple[int, int]]:
    """Spans of each name in ``text``: whole words, any case, any white space between words.

    >>> occurrences("We propose  Anchor PCA; anchor pca wins.", ["Anchor PCA"])
    [(12, 22), (24, 34)]
    """
    spans: list[tuple[int, int]] = []
    for name in names:
        pattern = r"(?<!\w)" + r"\s+".join(re.escape(w) for w in name.split()) + r"(?!\w)"
        spans.extend((m.start(), m.end()) for m in re.finditer(pattern, text, re.I))
    return sorted(set(spans))


@dataclass(slots=True)
class ProposedScores:
    """Counts for proposed-role precision and recall, with the errors to read."""

    papers: int = 0
    gold: int = 0
    found: int = 0
    predicted: int = 0
    correct: int = 0
    missed: list[str] = field(default_factory=list)
    spurious: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        prf = precision_recall_f1(self.correct, self.predicted, self.found, self.gold)
        return {
            "papers": self.papers,
            "gold": self.gold,
            "found": self.found,
            "predicted": self.predicted,
            "correct": self.correct,
            "precision": prf["p"],
            "recall": prf["r"],
            "f1": prf["f1"],
        }


def score_paper(
    abstract: str,
    gold: Sequence[Sequence[str]],
    mentions: Sequence[Any],
    scores: ProposedScores,
    label: str = "",
) -> None:
    """Add one paper to ``scores``: its gold methods and the extractor's mentions (any objects with
    ``start``, ``end``, ``text``, ``type``, ``role``, ``canonical``).

    >>> from types import SimpleNamespace as M
    >>> s = ProposedScores()
    >>> text = "We propose NLRR, a variant of LRR. NLRR beats LRR."
    >>> ms = [M(start=11, end=15, text="NLRR", type="Method", role="proposed", canonical="NLRR"),
    ...       M(start=30, end=33, text="LRR", type="Method", role="proposed", canonical="LRR")]
    >>> score_paper(text, [["NLRR"]], ms, s)
    >>> s.to_json()["precision"], s.to_json()["recall"]
    (0.5, 1.0)
    """
    from extractors.canonical import canonical_key

    scores.papers += 1
    predicted: dict[str, list[tuple[int, int]]] = {}
    keys: dict[str, str] = {}  # canonical key of a mention's text or canonical name -> its name
    for m in mentions:
        if m.role == "proposed" and m.type == "Method":
            name = m.canonical or m.text
            predicted.setdefault(name, []).append((m.start, m.end))
            keys[canonical_key(m.text)] = keys[canonical_key(name)] = name
    gold_spans = [occurrences(abstract, item) for item in gold]
    all_gold = [s for spans in gold_spans for s in spans]

    def hits(spans: Sequence[tuple[int, int]], targets: Sequence[tuple[int, int]]) -> bool:
        return any(a < d and c < b for a, b in spans for c, d in targets)

    scores.gold += len(gold)
    matched: set[str] = set()
    for item, spans in zip(gold, gold_spans, strict=True):
        unspelled = {canonical_key(s) for s in item if not occurrences(abstract, [s])}
        if any(hits(p, spans) for p in predicted.values()) or unspelled & set(keys):
            scores.found += 1
            matched.update(keys[k] for k in unspelled if k in keys)
        else:
            scores.missed.append(f"{label}\t{item[0]}")
    scores.predicted += len(predicted)
    for name, spans in sorted(predicted.items()):
        if hits(spans, all_gold) or name in matched:
            scores.correct += 1
        else:
            scores.spurious.append(f"{label}\t{name}")


def evaluate_proposed(
    gold: Sequence[ProposedGold], extractions: Sequence[Extraction], *, split: str = "all"
) -> ProposedScores:
    """Score the extractions of the gold abstracts (matched by paper id) on one split (``dev``,
    ``test`` or ``all``)."""
    by_id = {e.id: e for e in extractions}
    scores = ProposedScores()
    for g in gold:
        if split != "all" and g.split != split:
            continue
        extraction = by_id.get(g.id)
        mentions = extraction.mentions if extraction is not None else ()
        score_paper(g.abstract, g.proposed, mentions, scores, label=g.id)
    return scores
