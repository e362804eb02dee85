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

Only the papers travel to the workers and only their records come back (JSON bytes, not pickled
kg classes): the input files, the build directory and the graph stay on the machine that runs
``kg build``. Every partition's result says which extractor versions made it; a worker whose
kg differs from this one's (another version of the rules, the models or the spaCy pipeline) is
refused with a :class:`~kg.errors.ConfigError` instead of mixing its records into the graph.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import orjson

from kg.errors import ConfigError
from kg.types import Extraction, Paper

PARTITION = 256
_PIPELINES: dict[tuple[str | None, tuple[str, ...]], Any] = {}


def _extract_partition(
    papers: list[Paper], spacy_model: str | None, families: tuple[str, ...]
) -> tuple[dict[str, str], dict[str, float], list[bytes]]:
    """Run on a worker: extract one partition with the worker's cached pipeline.

    Returns the worker's extractor versions, its CPU seconds (``parse``, ``extract``, as
    :meth:`kg.pipeline.Pipeline.extract_many` counts them) and one JSON record per paper.
    """
    from kg.pipeline import load_pipeline

    key = (spacy_model, families)
    pipeline = _PIPELINES.get(key)
    if pipeline is None:
        pipeline = _PIPELINES[key] = load_pipeline(spacy_model, families)
    cpu: dict[str, float] = {}
    records = pipeline.extract_many(papers, cpu)
    started = time.process_time()
    # JSON travels between processes and machines without pickling kg's classes.
    rows = [orjson.dumps(e.to_json()) for e in records]
    cpu["extract"] = cpu.get("extract", 0.0) + time.process_time() - started
    return pipeline.versions, cpu, rows


def extract_papers_dask(
    papers: Sequence[Paper],
    *,
    scheduler: str | None = None,
    workers: int = 2,
    spacy_model: str | None = None,
    families: Sequence[str] | None = None,
    progress: Callable[[int], None] | None = None,
    versions: dict[str, str] | None = None,
    cpu: dict[str, float] | None = None,
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
        versions: the extractor versions of this process's pipeline; a worker that extracts with
            others is refused.
        cpu: when a dict, receives the workers' CPU seconds (``parse``, ``extract``).

    Raises:
        ConfigError: the scheduler cannot be reached, or a worker runs other extractors.
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
                worker_versions, spent, rows = future.result()
                if versions is not None and worker_versions != versions:
                    raise ConfigError(_mismatch(scheduler, versions, worker_versions))
                if cpu is not None:
                    for part, seconds in spent.items():
                        cpu[part] = cpu.get(part, 0.0) + seconds
                yield from (Extraction.from_json(orjson.loads(row)) for row in rows)
                if progress:
                    progress(len(rows))
    finally:
        if cluster is not None:
            cluster.close()


def _mismatch(scheduler: str | None, ours: dict[str, str], theirs: dict[str, str]) -> str:
    """One line naming what differs between this kg's extractors and a worker's."""
    differ = sorted(k for k in ours.keys() | theirs.keys() if ours.get(k) != theirs.get(k))
    parts = ", ".join(f"{k}: {theirs.get(k, 'none')} (here {ours.get(k, 'none')})" for k in differ)
    where = scheduler or "the local cluster"
    return (f"a Dask worker of {where} extracts with other versions ({parts}); install the same kg "
            "and requirements.lock on every worker")
