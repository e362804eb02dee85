"""Build orchestration: ingest → extract (cached) → resolve → assemble → write the build dir.

Three entry points, one assembly: :func:`build_graph` (``kg build INPUT... -o DIR``),
:func:`update_graph` (``kg build --update DIR NEW...``) and :func:`remove_papers`
(``kg remove DIR ID...``). All three end by assembling the graph from the complete, sorted set
of per-paper extraction records, so an incremental result equals a full rebuild of the same
final input by construction; what they save is the extraction, the only expensive stage.
:func:`build_in_memory` is the same assembly with nothing written (``kg.build`` without an
output directory).

The per-paper cache is the ``extractions.jsonl`` of the build directory: a record is reused
when the paper's text and metadata (everything but its sources) are unchanged and the extractor
versions (plus the spaCy pipeline name/version and the digest of the rule tables in
``extractors/patterns``) in the manifest equal the current ones.
"""

from __future__ import annotations

import contextlib
import hashlib
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.assemble import LinkConfig, assemble, rdf_triples
from kg.errors import ExtractionError, GraphDirError
from kg.graphdir import graph_counts, load_extractions, load_manifest, lock, write_graph_dir
from kg.journal import Journal
from kg.memory import gc_paused
from kg.resolve import resolve_entities
from kg.types import Extraction, Paper, RunReport
from kg.vocab import paper_node

if TYPE_CHECKING:
    import networkx as nx

    from kg.pending import BaseGraph
    from kg.pipeline import Pipeline


@dataclass(slots=True)
class BuildResult:
    """What a build did: the run report and how many papers were extracted vs reused."""

    report: RunReport
    directory: Path | None  # None: built in memory (build_in_memory)
    extracted: int = 0
    reused: int = 0
    removed: list[str] = field(default_factory=list)


@contextlib.contextmanager
def _stage(report: RunReport | dict[str, float], name: str) -> Iterator[None]:
    """Add the wall time of the ``with`` body to ``report.stages[name]`` (or to ``stages[name]``
    of a plain dict, for a stage timed before the run's report exists)."""
    stages = report if isinstance(report, dict) else report.stages
    started = time.perf_counter()
    try:
        yield
    finally:
        stages[name] = stages.get(name, 0.0) + time.perf_counter() - started


def _paper_key(paper: Paper) -> str:
    """Cache key of a paper: hash of its text and metadata, sources excluded.

    A derived title is left out too: the pipeline may refine it from the mentions (the coined
    method a paper proposes), so the cached record's title differs from the one just read, while
    both follow from the abstract, which is in the key.
    """
    obj = paper.to_json()
    obj.pop("sources", None)
    if paper.title_derived:
        obj["title"] = None
    text = repr(sorted(obj.items()))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def file_digest(path: str) -> str:
    """``sha256:<hex>`` of a file's bytes (streamed), or ``-`` for stdin."""
    if path == "-":
        return "-"
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return "sha256:" + digest.hexdigest()


def _load_cache(directory: Path, versions: dict[str, str]) -> dict[str, Extraction]:
    """Cached records of ``directory`` keyed by :func:`_paper_key`, if its versions match."""
    if not (directory / "manifest.json").is_file() or not (directory / "extractions.jsonl").is_file():
        return {}
    try:
        manifest = load_manifest(directory)
        if manifest.get("extractors") != versions:
            return {}
        return {_paper_key(e.paper): e for e in load_extractions(directory)}
    except GraphDirError:
        return {}  # an unreadable cache is only a slower build


def _extract(
    papers: Sequence[Paper],
    cache: dict[str, Extraction],
    pipeline: Pipeline,
    workers: int | None,
    progress: Callable[[int], None] | None,
    journal: Journal | None = None,
    engine: str = "local",
    scheduler: str | None = None,
    cpu: dict[str, float] | None = None,
) -> tuple[list[Extraction], int]:
    """Records for ``papers``: cached ones reused (with the new sources), the rest extracted.

    With a ``journal``, records an interrupted run left in it count as cached, and every record
    extracted now is appended to it as it arrives, so an interrupt loses at most one chunk.
    """
    from kg.pipeline import extract_papers

    if journal is not None:
        cache = {**journal.load(lambda e: _paper_key(e.paper)), **cache}
    out: dict[str, Extraction] = {}
    todo: list[Paper] = []
    for paper in papers:
        hit = cache.get(_paper_key(paper))
        if hit is not None:
            out[paper.id] = replace(hit, paper=replace(hit.paper, sources=paper.sources))
            if progress:
                progress(1)
        else:
            todo.append(paper)
    if engine == "dask":
        from kg.distributed import extract_papers_dask

        stream = extract_papers_dask(todo, scheduler=scheduler, workers=workers or 2,
                                     spacy_model=pipeline.nlp_name, families=pipeline.families,
                                     progress=progress, versions=pipeline.versions, cpu=cpu)
    else:
        stream = extract_papers(todo, pipeline=pipeline, workers=workers, progress=progress, cpu=cpu)
    done = 0
    try:
        for ext in stream:
            out[ext.paper.id] = ext
            done += 1
            if journal is not None:
                journal.append(ext)
    except ExtractionError as exc:
        kept = f"; the {done} papers extracted before it are journaled for a re-run" if journal else ""
        raise ExtractionError(f"{exc}; nothing was written{kept}") from None
    finally:
        if journal is not None:
            journal.flush()
            journal.close()
    return [out[p.id] for p in papers], len(todo)


def _manifest(
    report: RunReport,
    inputs: dict[str, str],
    versions: dict[str, str],
    config: LinkConfig,
    removed: Sequence[str] = (),
) -> dict[str, Any]:
    return {
        "inputs": dict(sorted(inputs.items())),
        "extractors": dict(sorted(versions.items())),
        "links": asdict(config),
        "removed": sorted(removed),
        "report": report.to_json(),
    }


def _assemble(
    extractions: list[Extraction], config: LinkConfig, report: RunReport
) -> tuple[nx.MultiDiGraph, dict[str, dict[str, int]]]:
    """Resolve and assemble the records into the graph; its counts, also put in the report."""
    with _stage(report, "resolve"):
        resolution = resolve_entities(extractions)
    with _stage(report, "assemble"):
        nx_graph = assemble(extractions, config, resolution)
    counts = graph_counts(nx_graph)
    report.counts = {**counts["nodes"], **{f"edges:{k}": v for k, v in counts["edges"].items()}}
    report.papers = len(extractions)
    return nx_graph, counts


@gc_paused()  # assembling and writing 10^6 live objects: see kg.memory
def _write(
    directory: Path,
    extractions: list[Extraction],
    config: LinkConfig,
    report: RunReport,
    inputs: dict[str, str],
    versions: dict[str, str],
    removed: Sequence[str] = (),
) -> None:
    nx_graph, counts = _assemble(extractions, config, report)
    with _stage(report, "write"):
        write_graph_dir(
            directory,
            extractions,
            nx_graph,
            rdf_triples(nx_graph),
            _manifest(report, inputs, versions, config, removed),
            counts=counts,
        )


def _read_and_load(
    inputs: Sequence[Any], fmt: str | None, skip_bad: bool, pipeline: Pipeline | None,
    spacy_model: str | None, strict: bool = False,
) -> tuple[RunReport, list[Paper], Pipeline, dict[str, str]]:
    """Read the inputs, load the pipeline (unless given): the run report, papers, pipeline, versions."""
    from kg.ingest import read_papers

    report = RunReport()
    with _stage(report, "read"):
        papers = read_papers(inputs, fmt=fmt, skip_bad=skip_bad, report=report, strict=strict)
    pipeline, versions = _load_pipeline(report, pipeline, spacy_model)
    return report, papers, pipeline, versions


def _load_pipeline(
    report: RunReport, pipeline: Pipeline | None, spacy_model: str | None
) -> tuple[Pipeline, dict[str, str]]:
    from kg.pipeline import load_pipeline

    with _stage(report, "load pipeline"):
        pipeline = pipeline or load_pipeline(spacy_model)
    report.pipeline = pipeline.nlp_name
    report.extractors = pipeline.versions
    return pipeline, pipeline.versions


class _ExtractionProcess:
    """A forked process that loads the pipeline, then extracts the papers it is given, while
    this one reads the graph: an update's two costs before assembly, side by side on two cores.

    The child answers on a pipe: ``ready`` with the extractor versions once the pipeline is
    loaded, ``progress`` per chunk, ``done`` with the records and the workers' CPU, or ``error``
    with the exception. It ignores Ctrl-C; this process decides (``close`` ends it).
    """

    def __init__(self, target: Path, pipeline: Pipeline | None, spacy_model: str | None,
                 workers: int | None) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(target=_extraction_child, daemon=False,  # it forks workers of its own
                                 args=(child, target, pipeline, spacy_model, workers))
        self._proc.start()
        child.close()

    def _answer(self, progress: Callable[[int], None] | None = None) -> Any:
        while True:
            try:
                kind, value = self._conn.recv()
            except EOFError:
                self._proc.join(5)
                raise ExtractionError(f"the extraction process ended without an answer "
                                      f"({_exit_status(self._proc.exitcode)}); nothing was written") from None
            if kind == "progress":
                if progress:
                    progress(value)
            elif kind == "error":
                raise value
            else:
                return value

    def ready(self) -> tuple[dict[str, str], str]:
        """Wait for the pipeline: its extractor versions and spaCy pipeline name."""
        versions, name = self._answer()
        return versions, name

    def extract(self, papers: list[Paper], progress: Callable[[int], None] | None,
                cpu: dict[str, float]) -> list[Extraction]:
        """Extract ``papers`` (journaled in the child as a build journals them)."""
        self._conn.send(papers)
        records, spent = self._answer(progress)
        for part, seconds in spent.items():
            cpu[part] = cpu.get(part, 0.0) + seconds
        return list(records)

    def close(self) -> None:
        """End the child: it exits by itself once done or told so; one still extracting (the
        update was interrupted or failed) is terminated, and its workers end with it."""
        if self._proc.is_alive():
            with contextlib.suppress(OSError):
                self._conn.send(None)
            self._proc.join(1)
            if self._proc.is_alive():
                self._proc.terminate()
                self._proc.join()
        self._conn.close()


def _exit_status(code: int | None) -> str:
    """A process's exit code in words: "killed by SIGKILL" for a signal, else "exit code N"."""
    if code is not None and code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"


class _ClusterExtraction:
    """The :class:`_ExtractionProcess` interface for ``--engine dask``: the pipeline is loaded
    here (for its versions), the papers are extracted on the cluster."""

    def __init__(self, target: Path, pipeline: Pipeline, workers: int | None, scheduler: str | None) -> None:
        self._target, self._pipeline = target, pipeline
        self._workers, self._scheduler = workers, scheduler

    def ready(self) -> tuple[dict[str, str], str]:
        return self._pipeline.versions, self._pipeline.nlp_name

    def extract(self, papers: list[Paper], progress: Callable[[int], None] | None,
                cpu: dict[str, float]) -> list[Extraction]:
        records, _n = _extract(papers, {}, self._pipeline, self._workers, progress,
                               Journal(self._target, self._pipeline.versions), "dask", self._scheduler, cpu)
        return records

    def close(self) -> None:
        pass


def _extraction_child(conn: Any, target: Path, pipeline: Pipeline | None, spacy_model: str | None,
                      workers: int | None) -> None:
    import pickle
    import signal

    from kg.errors import KGError, OutputError
    from kg.pipeline import load_pipeline

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        pipeline = pipeline or load_pipeline(spacy_model)
        conn.send(("ready", (pipeline.versions, pipeline.nlp_name)))
        papers = conn.recv()
        if papers is None:
            return
        cpu: dict[str, float] = {}
        records, _n = _extract(papers, {}, pipeline, workers, lambda n: conn.send(("progress", n)),
                               Journal(target, pipeline.versions), cpu=cpu)
        conn.send(("done", (records, cpu)))
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
        try:
            pickle.loads(pickle.dumps(exc))
            portable: BaseException = exc
        except Exception:  # noqa: BLE001 - an exception that does not survive pickling
            portable = (OutputError if isinstance(exc, KGError) else RuntimeError)(str(exc))
        with contextlib.suppress(OSError):
            conn.send(("error", portable))
    finally:
        conn.close()


def build_graph(
    inputs: Sequence[Any],
    directory: str | Path,
    *,
    fmt: str | None = None,
    skip_bad: bool = False,
    strict: bool = False,
    workers: int | None = None,
    spacy_model: str | None = None,
    config: LinkConfig | None = None,
    use_cache: bool = True,
    pipeline: Pipeline | None = None,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
    engine: str = "local",
    scheduler: str | None = None,
) -> BuildResult:
    """Build the graph of ``inputs`` into the build directory ``directory`` (replaced atomically).

    Args:
        inputs: files, directories, globs or ``-``, or records (dicts or :class:`Paper`).
        directory: the output build directory.
        fmt: force the input format.
        skip_bad: skip bad records instead of stopping (they are listed in the run report).
        strict: refuse as bad input what is otherwise read with a warning (a ``$`` that opens no
            math, a year field without a year; :func:`kg.ingest.record_to_paper`).
        workers: extraction processes (default: both cores).
        spacy_model: spaCy pipeline to load first.
        config: link/topic settings.
        use_cache: reuse records of an existing ``directory`` built with the same extractors.
        pipeline: an already loaded pipeline (tests, benchmarks).
        progress: called with the number of papers done.
        on_start: called once with the number of papers, before extraction (progress bars).
        engine: ``local`` (forked processes) or ``dask`` (partitions on a Dask cluster).
        scheduler: the Dask scheduler address; none starts a LocalCluster.

    Returns:
        A :class:`BuildResult`.

    Raises:
        InputError: bad input (unless ``skip_bad``).
        GraphDirError: the directory cannot be written or is locked.
    """
    started = time.perf_counter()
    target = Path(directory)
    config = config or LinkConfig()
    report, papers, pipeline, versions = _read_and_load(inputs, fmt, skip_bad, pipeline, spacy_model, strict)
    if on_start:
        on_start(len(papers))
    with lock(target, wait=False):
        cache = _load_cache(target, versions) if use_cache else {}
        journal = Journal(target, versions) if use_cache else None
        with _stage(report, "extract"):
            extractions, extracted = _extract(papers, cache, pipeline, workers, progress, journal,
                                              engine, scheduler, report.worker_cpu)
        with _stage(report, "hash inputs"):
            digests = {f: file_digest(f) for f in report.files}
        _write(target, extractions, config, report, digests, versions)
        if journal is not None:
            journal.discard()
    report.seconds = time.perf_counter() - started
    return BuildResult(report, target, extracted=extracted, reused=len(papers) - extracted)


@gc_paused()
def build_in_memory(
    inputs: Sequence[Any],
    *,
    fmt: str | None = None,
    skip_bad: bool = False,
    strict: bool = False,
    workers: int | None = None,
    spacy_model: str | None = None,
    config: LinkConfig | None = None,
    pipeline: Pipeline | None = None,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
    engine: str = "local",
    scheduler: str | None = None,
) -> tuple[BuildResult, list[Extraction], nx.MultiDiGraph]:
    """Build the graph of ``inputs`` without writing anything: the records and the networkx graph
    a :func:`build_graph` of the same input writes (the same assembly, no cache).

    Args:
        inputs: files, directories, globs, ``-``, or records (dicts or :class:`Paper`).
        The others: as :func:`build_graph`'s.

    Returns:
        The :class:`BuildResult` (``directory`` None), the records sorted by paper id, the graph.

    Raises:
        InputError: bad input (unless ``skip_bad``).
    """
    started = time.perf_counter()
    config = config or LinkConfig()
    report, papers, pipeline, _versions = _read_and_load(
        inputs, fmt=fmt, skip_bad=skip_bad, pipeline=pipeline, spacy_model=spacy_model, strict=strict
    )
    if on_start:
        on_start(len(papers))
    with _stage(report, "extract"):
        extractions, extracted = _extract(papers, {}, pipeline, workers, progress, None, engine, scheduler,
                                          report.worker_cpu)
    nx_graph, _counts = _assemble(extractions, config, report)
    report.seconds = time.perf_counter() - started
    records = sorted(extractions, key=lambda e: e.paper.id)
    return BuildResult(report, None, extracted=extracted), records, nx_graph


def update_graph(
    directory: str | Path,
    inputs: Sequence[Any],
    *,
    fmt: str | None = None,
    skip_bad: bool = False,
    strict: bool = False,
    workers: int | None = None,
    spacy_model: str | None = None,
    pipeline: Pipeline | None = None,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
    engine: str = "local",
    scheduler: str | None = None,
    compact: bool = False,
) -> BuildResult:
    """Add the papers of ``inputs`` to an existing build directory without re-extracting it.

    New papers (and new sources of papers already there) become *pending additions*: only they
    are extracted and assembled, into a delta the readers lay over the graph (:mod:`kg.pending`);
    the pipeline loads in a forked process while this one reads the graph (with ``engine="dask"``
    it loads here, and the cluster extracts). The update instead
    re-assembles and rewrites the whole graph, as a full rebuild of the same final input would
    (a *compaction*), when ``compact`` is set, when a paper already in the graph comes with
    another abstract (it is re-extracted and replaced), when the extractor versions changed
    since the build (every paper is re-extracted: the cache is stale), or when the pending
    papers would exceed :data:`kg.pending.COMPACT_RATIO` of the others. The link settings are
    the build's (manifest).

    Raises:
        GraphDirError: ``directory`` is not a complete build directory, or is locked.
        InputError: bad input (unless ``skip_bad``).
    """
    from kg.graphdir import load_base, load_pending
    from kg.ingest import read_papers
    from kg.pending import COMPACT_RATIO

    started = time.perf_counter()
    target = Path(directory)
    with lock(target, wait=True):
        report = RunReport()
        with _stage(report, "read graph"):
            manifest = load_manifest(target)
            pending = {e.paper.id: e for e in load_pending(target)}
        config = LinkConfig(**manifest.get("links", {}))
        with _stage(report, "read"):
            new_papers = read_papers(inputs, fmt=fmt, skip_bad=skip_bad, report=report, strict=strict)
        whole = (target, manifest, report, new_papers, config, workers, progress, on_start, engine,
                 scheduler, started)
        if compact:
            return _update_whole(*whole, *_load_pipeline(report, pipeline, spacy_model))
        extractor: _ExtractionProcess | _ClusterExtraction
        if engine == "dask":
            pipeline, _versions = _load_pipeline(report, pipeline, spacy_model)
            extractor = _ClusterExtraction(target, pipeline, workers, scheduler)
        else:
            extractor = _ExtractionProcess(target, pipeline, spacy_model, workers)
        try:
            # the base graph's 10^6 objects stay alive from here on: no collector passes over them
            with gc_paused():
                with _stage(report, "read graph"):
                    base = load_base(target)
                with _stage(report, "load pipeline"):
                    versions, report.pipeline = extractor.ready()
                report.extractors = versions
                abstracts = {d["id"]: d["abstract"] for d in base.nodes.values() if d.get("kind") == "Paper"}
                base_papers = len(abstracts)
                abstracts.update({pid: e.paper.abstract for pid, e in pending.items()})
                changed = any(p.id in abstracts and abstracts[p.id] != p.abstract for p in new_papers)
                waiting = len(abstracts) - base_papers + sum(1 for p in new_papers if p.id not in abstracts)
                fits = not changed and waiting <= COMPACT_RATIO * base_papers
                if manifest.get("extractors") == versions and fits:
                    return _update_pending(target, manifest, base, pending, report, new_papers, extractor,
                                           versions, config, progress, on_start, started)
                del base
        finally:
            extractor.close()
        return _update_whole(*whole, *_load_pipeline(report, pipeline, spacy_model))


def _sources_added(old: Paper, new: Paper) -> Paper:
    return replace(old, sources=old.sources + tuple(s for s in new.sources if s not in old.sources))


def _update_pending(
    target: Path, manifest: dict[str, Any], base: BaseGraph, pending: dict[str, Extraction],
    report: RunReport, new_papers: Sequence[Paper], extractor: _ExtractionProcess | _ClusterExtraction,
    versions: dict[str, str], config: LinkConfig, progress: Callable[[int], None] | None,
    on_start: Callable[[int], None] | None, started: float,
) -> BuildResult:
    """The update as pending additions (the caller holds the lock and checked it applies)."""
    from kg.graphdir import write_pending
    from kg.pending import assemble_pending, delta_counts

    records = dict(pending)
    base_records: dict[str, Extraction] | None = None
    todo: list[Paper] = []
    for paper in new_papers:
        if paper.id in records:
            old = records[paper.id]
            records[paper.id] = replace(old, paper=_sources_added(old.paper, paper))
        elif paper_node(paper.id) in base:
            if base_records is None:  # a known paper from another file: read the base's records once
                base_records = {e.paper.id: e for e in load_extractions(target, pending=False)}
            old = base_records[paper.id]
            records[paper.id] = replace(old, paper=_sources_added(old.paper, paper))
        else:
            todo.append(paper)
    if on_start:
        on_start(len(todo))
    with _stage(report, "extract"):
        records.update({e.paper.id: e for e in extractor.extract(todo, progress, report.worker_cpu)})
    with _stage(report, "assemble"):
        delta = assemble_pending(base, list(records.values()), config)
    base_counts = (manifest.get("pending") or {}).get("base_counts") or manifest.get("counts", {})
    counts = delta_counts(base_counts, base, delta)
    report.counts = {**counts["nodes"], **{f"edges:{k}": v for k, v in counts["edges"].items()}}
    report.papers = counts["nodes"].get("Paper", 0)
    inputs_hashes = dict(manifest.get("inputs", {}))
    with _stage(report, "hash inputs"):
        inputs_hashes.update({f: file_digest(f) for f in report.files})
    new_manifest = _manifest(report, inputs_hashes, versions, config, manifest.get("removed", []))
    new_manifest["counts"] = counts
    new_manifest["pending"] = {
        "base_counts": base_counts,
        "papers": sum(1 for pid in records if paper_node(pid) not in base),
    }
    with _stage(report, "write"):
        write_pending(target, records.values(), delta, new_manifest)
    Journal(target, versions).discard()
    report.seconds = time.perf_counter() - started
    return BuildResult(report, target, extracted=len(todo), reused=len(new_papers) - len(todo))


def _update_whole(
    target: Path, manifest: dict[str, Any], report: RunReport, new_papers: Sequence[Paper],
    config: LinkConfig, workers: int | None, progress: Callable[[int], None] | None,
    on_start: Callable[[int], None] | None, engine: str, scheduler: str | None, started: float,
    pipeline: Pipeline, versions: dict[str, str],
) -> BuildResult:
    """The update as a compaction: every record re-assembled, the directory rewritten."""
    with _stage(report.stages, "read graph"):
        existing = load_extractions(target)
    stale = manifest.get("extractors") != versions
    by_id: dict[str, Paper] = {e.paper.id: e.paper for e in existing}
    for paper in new_papers:
        old = by_id.get(paper.id)
        if old is not None and old.abstract == paper.abstract:
            by_id[paper.id] = _sources_added(old, paper)
        else:
            by_id[paper.id] = paper
    cache = {} if stale else {_paper_key(e.paper): e for e in existing}
    papers = [by_id[pid] for pid in sorted(by_id)]
    if on_start:
        on_start(len(papers))
    journal = Journal(target, versions)
    with _stage(report, "extract"):
        extractions, extracted = _extract(papers, cache, pipeline, workers, progress, journal,
                                          engine, scheduler, report.worker_cpu)
    inputs_hashes = dict(manifest.get("inputs", {}))
    with _stage(report, "hash inputs"):
        inputs_hashes.update({f: file_digest(f) for f in report.files})
    _write(target, extractions, config, report, inputs_hashes, versions, manifest.get("removed", []))
    journal.discard()
    report.seconds = time.perf_counter() - started
    return BuildResult(report, target, extracted=extracted, reused=len(papers) - extracted)


def compact_graph(directory: str | Path) -> BuildResult:
    """Fold a build directory's pending additions into the graph: re-assemble and rewrite it
    from every record, the bytes of a full rebuild of the same input (``kg compact DIR``).

    Raises:
        GraphDirError: the directory is incomplete or locked.
    """
    return remove_papers(directory, [])


def remove_papers(directory: str | Path, paper_ids: Sequence[str]) -> BuildResult:
    """Remove papers (ids, or ``paper:<id>`` node ids) from a build directory.

    Entities, bounds and links left without a supporting paper disappear with them, since the
    graph is re-assembled from the remaining records.

    Raises:
        GraphDirError: a paper id is not in the graph, or the directory is incomplete/locked.
    """
    started = time.perf_counter()
    target = Path(directory)
    report = RunReport()
    with lock(target, wait=True):
        with _stage(report, "read graph"):
            manifest = load_manifest(target)
            existing = load_extractions(target)
        known = {e.paper.id for e in existing}
        wanted = [pid.removeprefix("paper:") for pid in paper_ids]
        missing = sorted(set(wanted) - known)
        if missing:
            raise GraphDirError(f"{target}: no paper with id {', '.join(map(repr, missing))} in the graph")
        drop = set(wanted)
        kept = [e for e in existing if e.paper.id not in drop]
        previous = manifest.get("report", {})
        report.pipeline = previous.get("pipeline")
        report.extractors = dict(manifest.get("extractors", {}))
        config = LinkConfig(**manifest.get("links", {}))
        removed = sorted(set(manifest.get("removed", [])) | set(wanted))
        _write(
            target,
            kept,
            config,
            report,
            dict(manifest.get("inputs", {})),
            dict(manifest.get("extractors", {})),
            removed,
        )
    report.seconds = time.perf_counter() - started
    return BuildResult(report, target, removed=sorted(set(wanted)))


def type_counts(extractions: Sequence[Extraction]) -> Counter[str]:
    """Mentions per entity type plus ``Bound``, over ``extractions``."""
    counts: Counter[str] = Counter()
    for ext in extractions:
        counts.update(m.type for m in ext.mentions)
        counts["Bound"] += len(ext.bounds)
    return counts
