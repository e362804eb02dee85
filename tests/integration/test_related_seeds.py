"""Related work on the real build of the seed abstracts: quality floors, lookups, --text, --all."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from kg.cli import main
from kg.evaluate.related import evaluate_related, load_judgments
from kg.graphdir import load_nx
from kg.ingest import read_papers
from kg.related import INDEX_FILE, RelatedIndex, RelatedWeights, build_index

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
JUDGMENTS = REPO / "tests" / "data" / "related_judgments.jsonl"
SEED_IDS = {p.id: p for p in read_papers([str(REPO / "seeds")])}


@pytest.fixture(scope="module")
def seed_index(seed_graph_dir: Path) -> RelatedIndex:
    return build_index(load_nx(seed_graph_dir))


def _digest(directory: Path) -> dict[str, str]:
    """The build's files; not the related index, a cache of them that the first query saves."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.iterdir())
        if p.name != INDEX_FILE
    }


def test_related_seed_eval_keeps_kg_at_or_above_tfidf(seed_graph_dir: Path, seed_index: RelatedIndex) -> None:
    result = evaluate_related(load_nx(seed_graph_dir), load_judgments(JUDGMENTS), index=seed_index)
    print("\n" + result.report())
    kg, tfidf = result.systems
    assert result.queries == 50 and len(kg.ndcg) == 50
    # Floors just under what `kg eval related` prints (docs/related.md); the target is a lead of 0.10.
    assert kg.mean_ndcg >= 0.57
    assert kg.mean_ndcg >= tfidf.mean_ndcg + 0.10
    assert result.explained_top3 == result.top3 == 150


def test_related_seed_eval_on_a_second_judge(seed_graph_dir: Path, seed_index: RelatedIndex) -> None:
    """The second judge's seed judgments (sparser: 101 related pairs, 9 queries with none)."""
    second = load_judgments(JUDGMENTS.with_name("related_judgments_seeds_second.jsonl"))
    result = evaluate_related(load_nx(seed_graph_dir), second, index=seed_index)
    print("\n" + result.report())
    kg, tfidf = result.systems
    assert result.queries == 50 and len(kg.ndcg) == 41 and len(result.no_relevant) == 9
    # Floors just under what `kg eval related` prints (docs/related.md).
    assert kg.mean_ndcg >= 0.61
    assert kg.mean_ndcg >= tfidf.mean_ndcg + 0.09


def test_related_seed_eval_graph_only(seed_graph_dir: Path) -> None:
    """The graph's own evidence alone (`--weights` with the text signals and the entity words at 0):
    floors just under docs/related.md's issue-27 table, both judges."""
    graph = load_nx(seed_graph_dir)
    index = build_index(graph, RelatedWeights(lexical=0, semantic=0, encoder=0, terms=0))
    first = evaluate_related(graph, load_judgments(JUDGMENTS), index=index)
    second = evaluate_related(
        graph, load_judgments(JUDGMENTS.with_name("related_judgments_seeds_second.jsonl")), index=index
    )
    print("\n" + first.report() + "\n" + second.report())
    assert first.systems[0].mean_ndcg >= 0.42
    assert second.systems[0].mean_ndcg >= 0.45


def test_related_seed_titles_are_derived_so_no_titles_changes_nothing(
    seed_graph_dir: Path, seed_index: RelatedIndex
) -> None:
    # The seeds' titles are derived from their abstracts, which kg's lexical signal never reads:
    # the corpus lead that the titles bring (kg eval related --no-titles) cannot show here.
    graph = load_nx(seed_graph_dir)
    assert all(d.get("title_derived") for _n, d in graph.nodes(data=True) if d.get("kind") == "Paper")
    judgments = load_judgments(JUDGMENTS)
    titled = evaluate_related(graph, judgments, index=seed_index)
    plain = evaluate_related(graph, judgments, titles=False)
    assert not plain.titles
    assert plain.systems[0].ndcg == titled.systems[0].ndcg
    assert plain.systems[1].ndcg == titled.systems[1].ndcg


def test_related_every_seed_top3_is_explained(seed_index: RelatedIndex) -> None:
    for pid, results in seed_index.related_all(top=3):
        assert len(results) == 3, pid
        for result in results:
            assert result.explanation, (pid, result.id)


@pytest.mark.parametrize(
    ("query", "expected"),
    [("p-9df13b966861", "p-9df13b966861"), ("BDC-Merge", "p-9df13b966861"), ("sheafstain", "p-d90669865161")],
)
def test_related_seed_lookup_by_id_or_title(
    seed_graph_dir: Path, capsys: pytest.CaptureFixture[str], query: str, expected: str
) -> None:
    assert main(["related", query, "-g", str(seed_graph_dir), "--json", "--top", "3"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["query"]["id"] == expected
    assert len(doc["related"]) == 3
    assert expected not in [r["id"] for r in doc["related"]]


def test_related_text_query_is_extracted_and_not_added(
    seed_graph_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    abstract = tmp_path / "abstract.txt"
    abstract.write_text(
        "We study contextual linear bandits with delayed feedback. We propose a phased elimination "
        "algorithm and prove a regret upper bound of $\\tilde{O}(d\\sqrt{T})$, matching the lower "
        "bound up to logarithmic factors.",
        encoding="utf-8",
    )
    before = _digest(seed_graph_dir)
    assert main(["related", "--text", str(abstract), "-g", str(seed_graph_dir), "--json", "--top", "5"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["query"]["id"] not in SEED_IDS
    assert len(doc["related"]) == 5
    assert all(r["shared"] or r["similar"] or r["bounds"] or r["terms"] or r["close"] for r in doc["related"])
    # the bandit papers of the seeds, not the LLM ones, come first
    bandits = {
        "p-9898d1ffb550",
        "p-1ae9a80a13e2",
        "p-5a02604ffd02",
        "p-d68c87015078",
        "p-3287e6a353d7",
        "p-3e4e85bba480",
    }
    assert doc["related"][0]["id"] in bandits
    assert _digest(seed_graph_dir) == before


def test_related_text_of_a_seed_abstract_does_not_return_itself(
    seed_graph_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paper = SEED_IDS["p-06c81bb3f57d"]  # Anchor PCA
    path = tmp_path / "anchor.txt"
    path.write_text(paper.abstract, encoding="utf-8")
    assert main(["related", "--text", str(path), "-g", str(seed_graph_dir), "--json", "--top", "3"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["query"]["id"] == paper.id
    assert paper.id not in [r["id"] for r in doc["related"]]


def test_related_all_jsonl_on_seeds(seed_graph_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "related.jsonl"
    assert main(["related", "--all", "-g", str(seed_graph_dir), "--top", "4", "--jsonl", "-o", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [row["id"] for row in rows] == sorted(SEED_IDS)
    for row in rows:
        assert len(row["related"]) == 4
        for item in row["related"]:
            assert {"id", "score", "shared"} <= set(item)
            assert all(set(s) >= {"type", "canonical"} for s in item["shared"])
