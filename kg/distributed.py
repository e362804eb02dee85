"""Extraction on a Dask cluster: the path beyond one machine.

The papers are cut into partitions; each Dask worker loads the spaCy pipeline once (cached per
worker process) and extracts its partitions; results come back and are yielded in input order, so
the graph assembled from them is the same, byte for byte, as a single-process build. With no
scheduler address a :class:`distributed.LocalCluster` is started on this machine.

On a real cluster, start a scheduler and workers on machines that have kg installed
(``pip install -e .`` from this repository, same ``requirements.lock``)::

    dask scheduler                              # on the head node, listens on :8786
    dask worker tcp://HEAD:8786 --nthreads 1    # on every worker node, one per core
    kg build INPUT... -o DIR --engine dask --scheduler tcp://HEAD:8786
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from kg.errors import ConfigError
from kg.types import Extraction, Paper

PARTITION = 256
_PIPELINES: dict[tuple[str | None, tuple[str, ...]], Any] = {}


def _extract_partition(
    papers: list[Paper], spacy_model: str | None, families: tuple[str, ...]
) -> list[dict[str, Any]]:
    """Run on a worker: extract one partition with the worker's cached pipeline."""
    from kg.pipeline import load_pipeline

    key = (spacy_model, families)
    pipeline = _PIPELINES.get(key)
    if pipeline is None:
        pipeline = _PIPELINES[key] = load_pipeline(spacy_model, families)
    # JSON-shaped results travel between processes and machines without pickling our classes.
    return [e.to_json() for e in pipeline.extract_many(papers)]


def extract_papers_dask(
    papers: Sequence[Paper],
    *,
    scheduler: str | None = None,
    workers: int = 2,
    spacy_model: str | None = None,
    families: Sequence[str] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[Extraction]:
    """Yield one :class:`Extraction` per paper, in input order, computed on a Dask cluster.

    Args:
        papers: the papers to extract.
        scheduler: address of a running scheduler (``tcp://host:8786``); ``None`` starts a
            LocalCluster of ``workers`` single-threaded worker processes.
        workers: worker processes for the LocalCluster.
        spacy_model: the spaCy pipeline name each worker loads first.
        families: extractor families (default: all registered defaults).
        progress: called with the number of papers finished after each partition.

    Raises:
        ConfigError: the scheduler cannot be reached.
    """
    from dask.distributed import Client, LocalCluster

    from extractors.registry import DEFAULT_FAMILIES

    fams = tuple(families or DEFAULT_FAMILIES)
    cluster = None
    try:
        if scheduler:
            try:
                client = Client(scheduler, timeout="20s")
            except OSError as exc:
                raise ConfigError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        else:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=40)
            client = Client(cluster)
        with client:
            parts = [list(papers[i : i + PARTITION]) for i in range(0, len(papers), PARTITION)]
            futures = [client.submit(_extract_partition, part, spacy_model, fams, pure=False)
                       for part in parts]
            for future in futures:  # in submission order, whatever order they finish in
                rows = future.result()
                yield from (Extraction.from_json(row) for row in rows)
                if progress:
                    progress(len(rows))
    finally:
        if cluster is not None:
            cluster.close()
