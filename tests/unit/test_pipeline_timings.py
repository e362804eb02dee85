"""Extraction reports where its CPU time went, from forked workers too, without changing records."""

from __future__ import annotations

import spacy

from kg.pipeline import CHUNK, Pipeline, extract_papers
from kg.types import Paper


def _pipeline() -> Pipeline:
    return Pipeline(spacy.blank("en"), "blank", [], [])


def _papers(n: int) -> list[Paper]:
    sentence = "Paper {i} studies bandits and regret bounds. "
    return [Paper(f"p{i:04d}", f"T{i}", sentence.format(i=i) * 20) for i in range(n)]


def test_pipeline_cpu_times_come_back_from_the_workers() -> None:
    papers = _papers(3 * CHUNK + 5)  # four chunks over two forked workers
    cpu: dict[str, float] = {}
    forked = list(extract_papers(papers, pipeline=_pipeline(), workers=2, cpu=cpu))
    assert set(cpu) == {"parse", "extract"} and cpu["parse"] > 0 and cpu["extract"] > 0
    alone = list(extract_papers(papers, pipeline=_pipeline(), workers=1))
    assert [e.to_json() for e in forked] == [e.to_json() for e in alone]


def test_pipeline_cpu_times_add_up_across_calls() -> None:
    cpu: dict[str, float] = {}
    pipeline = _pipeline()
    pipeline.extract_many(_papers(10), cpu)
    first = dict(cpu)
    pipeline.extract_many(_papers(10), cpu)
    assert cpu["parse"] >= first["parse"] and cpu["extract"] >= first["extract"]
    assert cpu["parse"] + cpu["extract"] > first["parse"] + first["extract"]
