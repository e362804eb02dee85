"""``kg eval related``: nDCG@5 and P@3 of related-work ranking against relevance judgments.

A judgment file is JSON Lines, one query paper per line::

    {"id": "p-9898d1ffb550", "related": {"p-1ae9a80a13e2": 2, "p-2065e093cc1b": 1}}

(grade 2 strongly related, 1 related; papers listed with 0 or not listed are 0; ``related`` may
also be a list of ``{"id": …, "grade": …}``; other keys such as ``area`` are notes). Two systems
are scored in the same run on the same graph: kg (:mod:`kg.related`) and the textbook TF-IDF
cosine baseline over the abstracts (:func:`kg.related.tfidf_matrix`: words, English stop words,
sublinear tf; not kg's own lexical signal, which also reads titles and word pairs).

Four judgment files come with kg: ``tests/data/related_judgments.jsonl`` (the 50 seed
abstracts, every other seed judged), ``related_judgments_seeds_second.jsonl`` (the same 50 judged
again by a second judge who saw neither the first's grades nor any system's ranking: stricter,
101 related pairs against 189, 95 of them shared, 3 strong pairs against 45, nine queries with
none) and, for the 22,616-paper corpus build, ``related_judgments_corpus.jsonl`` (30 query
papers, the first in sha256(id) order among those with at least three extracted entities; the
weights were chosen on them) and
``related_judgments_corpus_test.jsonl`` (the next 20, judged once the weights were fixed). The
corpus files were judged by pooling, TREC-style: each query's pool is the top 10 of TF-IDF and
of kg, and the top 5 of every kg version measured on it, shuffled so that the judge does not know
which system found what, graded from the titles and abstracts; the 0 grades are kept to show
what was judged. When the semantic signal came (:mod:`kg.semantic`), its top 5s, with and without
titles, held 18 papers no pool had; they were judged the same way (from the titles and abstracts,
against the query's earlier grades, not told which system found them) before any figure was
computed on them. The sentence-encoder signal (:mod:`kg.encoder`) did the same for 106 papers
across the weights it was chosen among (judged in four rounds as the weight grid grew, each round
before its figures were computed; 17 graded 2, 54 graded 1, 35 graded 0). A query
whose judged papers are not in the graph is skipped (counted), so a file can be scored on any
build that holds its papers.

nDCG@k uses gains ``2^grade - 1`` and discount ``1 / log2(rank + 1)``, normalized by the ideal
ordering of the query's judged papers that are in the graph; P@k counts results with grade ≥ 1.
Queries whose judged-related papers are all missing from the graph are left out (counted).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from kg.errors import EvalError
from kg.related import RelatedIndex, RelatedWeights, build_index, tfidf_matrix

Judgments = dict[str, dict[str, int]]
NDCG_K = 5
P_K = 3


def load_judgments(path: str | Path) -> Judgments:
    """Read a judgment file (see the module docstring).

    Raises:
        EvalError: the file cannot be read, or a line is not a valid judgment (file and line named).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise EvalError(f"{path}: cannot read the judgments: {exc.strerror or exc}") from None
    out: Judgments = {}
    for line_no, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}: line {line_no}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise EvalError(f"{where}: not valid JSON: {exc.msg}") from None
        if not isinstance(row, dict) or not isinstance(row.get("id"), str) or not row["id"]:
            raise EvalError(f'{where}: expected an object with a string "id"')
        related = row.get("related", {})
        if isinstance(related, list):
            try:
                related = {r["id"]: r["grade"] for r in related}
            except (TypeError, KeyError):
                raise EvalError(f'{where}: "related" list items need "id" and "grade"') from None
        if not isinstance(related, dict):
            raise EvalError(f'{where}: "related" must map paper ids to grades 0, 1 or 2')
        grades: dict[str, int] = {}
        for other, grade in related.items():
            if isinstance(grade, bool) or grade not in (0, 1, 2):
                raise EvalError(f"{where}: grade of {other!r} must be 0, 1 or 2, got {grade!r}")
            if other == row["id"]:
                raise EvalError(f"{where}: paper {other!r} is judged related to itself")
            grades[str(other)] = int(grade)
        if row["id"] in out:
            raise EvalError(f"{where}: paper {row['id']!r} is judged twice")
        out[row["id"]] = grades
    if not out:
        raise EvalError(f"{path}: no judgments in the file")
    return out


def dcg(gains: Sequence[int], k: int) -> float:
    """Discounted cumulative gain of graded results (``2^g - 1`` over ``log2(rank + 1)``)."""
    return sum((2**g - 1) / math.log2(rank + 2) for rank, g in enumerate(gains[:k]))


def ndcg_at(ranked: Sequence[str], grades: Mapping[str, int], k: int = NDCG_K) -> float:
    """nDCG@k of a ranking against graded judgments; 0.0 when nothing is relevant.

    >>> ndcg_at(["b", "a"], {"a": 2, "b": 0}, 5) < 1.0 == ndcg_at(["a", "b"], {"a": 2}, 5)
    True
    """
    ideal = dcg(sorted(grades.values(), reverse=True), k)
    if ideal <= 0:
        return 0.0
    return dcg([grades.get(pid, 0) for pid in ranked], k) / ideal


def precision_at(ranked: Sequence[str], grades: Mapping[str, int], k: int = P_K) -> float:
    """Share of the top ``k`` results with grade ≥ 1 (a short list counts its gaps as misses)."""
    return sum(1 for pid in ranked[:k] if grades.get(pid, 0) >= 1) / k


@dataclass(slots=True)
class SystemScore:
    """One system's mean scores over the evaluated queries."""

    name: str
    ndcg: list[float] = field(default_factory=list)
    precision: list[float] = field(default_factory=list)

    @property
    def mean_ndcg(self) -> float:
        return float(np.mean(self.ndcg)) if self.ndcg else 0.0

    @property
    def mean_precision(self) -> float:
        return float(np.mean(self.precision)) if self.precision else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.name,
            "queries": len(self.ndcg),
            f"ndcg@{NDCG_K}": round(self.mean_ndcg, 4),
            f"p@{P_K}": round(self.mean_precision, 4),
        }


@dataclass(slots=True)
class RelatedEvaluation:
    """The result of :func:`evaluate_related`."""

    systems: list[SystemScore]
    queries: int
    missing_queries: list[str]
    no_relevant: list[str]
    explained_top3: int
    top3: int
    titles: bool = True  # whether kg's lexical signal read the titles

    def to_json(self) -> dict[str, Any]:
        return {
            "systems": [s.to_json() for s in self.systems],
            "kg_reads_titles": self.titles,
            "queries": self.queries,
            "missing_queries": self.missing_queries,
            "no_relevant_in_graph": self.no_relevant,
            "explained_top3": self.explained_top3,
            "top3": self.top3,
        }

    def report(self) -> str:
        """The table ``kg eval related`` prints."""
        lines = [f"{'system':<8} {'queries':>7} {f'nDCG@{NDCG_K}':>8} {f'P@{P_K}':>6}"]
        for s in self.systems:
            lines.append(f"{s.name:<8} {len(s.ndcg):>7} {s.mean_ndcg:>8.4f} {s.mean_precision:>6.4f}")
        if len(self.systems) == 2:
            diff = self.systems[0].mean_ndcg - self.systems[1].mean_ndcg
            lines.append(f"nDCG@{NDCG_K} {self.systems[0].name} − {self.systems[1].name}: {diff:+.4f}")
        lines.append(f"kg top-3 results with an explanation: {self.explained_top3}/{self.top3}")
        if not self.titles:
            lines.append("kg read the abstracts only (--no-titles), as the baseline does")
        if self.missing_queries:
            lines.append(
                f"{len(self.missing_queries)} judged paper(s) not in the graph, skipped: "
                + ", ".join(self.missing_queries[:5])
                + (" …" if len(self.missing_queries) > 5 else "")
            )
        if self.no_relevant:
            lines.append(f"{len(self.no_relevant)} query(ies) with no related paper in the graph, skipped")
        return "\n".join(lines)


def tfidf_rankings(
    ids: Sequence[str], abstracts: Sequence[str], queries: Sequence[str], k: int
) -> dict[str, list[str]]:
    """The baseline: for each query paper, the ``k`` others with the highest TF-IDF cosine of
    the abstracts (ties broken by paper id; only papers with a positive cosine)."""
    _vectorizer, matrix = tfidf_matrix(abstracts)
    if matrix.shape[1] == 0:
        return {q: [] for q in queries}
    row_of = {pid: i for i, pid in enumerate(ids)}
    positions = np.arange(len(ids))
    out: dict[str, list[str]] = {}
    for q in queries:
        i = row_of[q]
        row = np.round((matrix[i] @ matrix.T).toarray().ravel(), 9)
        row[i] = -1.0
        ranked = positions[np.lexsort((positions, -row))]
        out[q] = [ids[j] for j in ranked[:k] if row[j] > 0]
    return out


def evaluate_related(
    nx_graph: nx.MultiDiGraph,
    judgments: Judgments,
    weights: RelatedWeights | None = None,
    index: RelatedIndex | None = None,
    titles: bool = True,
    saved_vectors: Mapping[str, np.ndarray] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RelatedEvaluation:
    """Score kg and the TF-IDF baseline on the same graph and judgments.

    ``titles=False`` builds kg's index with a lexical signal that reads the abstracts only, like
    the baseline (ignored when ``index`` is given): on a graph whose papers have real titles,
    the difference says how much of kg's lead the titles bring, which untitled abstracts (the
    seeds) cannot have.

    Raises:
        EvalError: when no judged paper is in the graph.
    """
    index = index or build_index(
        nx_graph, weights, titles=titles, saved_vectors=saved_vectors, progress=progress
    )
    in_graph = set(index.ids)
    missing = sorted(q for q in judgments if q not in in_graph)
    queries = sorted(q for q in judgments if q in in_graph)
    if not queries:
        raise EvalError(
            f"none of the {len(judgments)} judged papers is in the graph "
            f"({len(index.ids)} papers): wrong judgments or graph directory?"
        )
    k = max(NDCG_K, P_K)
    abstracts = [str(nx_graph.nodes[f"paper:{pid}"].get("abstract") or "") for pid in index.ids]
    baseline = tfidf_rankings(index.ids, abstracts, queries, k)
    kg_score, tfidf_score = SystemScore("kg"), SystemScore("tfidf")
    no_relevant: list[str] = []
    explained = top3 = 0
    for q in queries:
        grades = {pid: g for pid, g in judgments[q].items() if pid in in_graph and g > 0}
        results = index.related(q, top=k)
        top3 += min(P_K, len(results))
        explained += sum(1 for r in results[:P_K] if r.explained)
        if not grades:
            no_relevant.append(q)
            continue
        for system, ranked in ((kg_score, [r.id for r in results]), (tfidf_score, baseline[q])):
            system.ndcg.append(ndcg_at(ranked, grades, NDCG_K))
            system.precision.append(precision_at(ranked, grades, P_K))
    return RelatedEvaluation(
        [kg_score, tfidf_score], len(queries), missing, no_relevant, explained, top3, index.lexical_titles
    )


__all__ = [
    "RelatedEvaluation",
    "SystemScore",
    "dcg",
    "evaluate_related",
    "load_judgments",
    "ndcg_at",
    "precision_at",
    "tfidf_rankings",
]
