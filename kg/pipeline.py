"""Extraction: papers → normalized text → one spaCy parse → every extractor → records.

The pipeline owns the single ``nlp``. With ``workers > 1`` the pipeline is loaded once in the
parent and the worker processes are forked from it, so they share its memory; papers go out
in chunks and come back in input order, so the output does not depend on the worker count.
"""

from __future__ import annotations

import functools
import hashlib
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from extractors.base import Extractor, ParsedPaper
from extractors.registry import DEFAULT_FAMILIES, create
from kg.errors import ExtractionError
from kg.ingest import is_coined
from kg.nlp import load_nlp
from kg.text import NormalizedText, normalize
from kg.types import Bound, EntityRelation, Extraction, Mention, Paper

if TYPE_CHECKING:
    from spacy.language import Language

CHUNK = 64
PATTERNS_DIR = Path(__file__).resolve().parents[1] / "extractors" / "patterns"


@functools.lru_cache(maxsize=1)
def patterns_digest() -> str:
    """``sha256:`` and 12 hex digits over the names and bytes of the rule tables in
    ``extractors/patterns`` (aliases, cues, quantity names …). Part of the cache key, so a record
    extracted before a table changed is extracted again even when no extractor's name changed
    (an alias added to ``aliases.jsonl`` changes canonical names without a new entity extractor)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in PATTERNS_DIR.rglob("*") if p.is_file()):
        digest.update(path.relative_to(PATTERNS_DIR).as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return "sha256:" + digest.hexdigest()[:12]


@dataclass(slots=True)
class Pipeline:
    """A loaded ``nlp`` and the extractors to run on its parses."""

    nlp: Language
    nlp_name: str
    families: list[str]
    extractors: list[Extractor]

    @property
    def versions(self) -> dict[str, str]:
        """Extractor family → versioned name, plus the spaCy pipeline and the digest of the rule
        tables the extractors read: the cache key parts."""
        out = {"spacy": f"{self.nlp_name}-{self.nlp.meta.get('version', '?')}", "patterns": patterns_digest()}
        for family, extractor in zip(self.families, self.extractors, strict=True):
            out[family] = extractor.name
        return out

    def extract_one(self, paper: Paper, doc: Any = None, norm: NormalizedText | None = None) -> Extraction:
        """The record of one paper; ``doc`` and ``norm`` when its parse and normal form are at hand."""
        if norm is None:
            norm = normalize(paper.abstract)
        if doc is None:
            doc = self.nlp(norm.text)
        parsed = ParsedPaper(paper, norm, doc)
        mentions: list[Mention] = []
        bounds: list[Bound] = []
        relations: list[EntityRelation] = []
        for extractor in self.extractors:
            if getattr(extractor, "reads_mentions", False):
                mentions.sort(key=lambda m: (m.start, m.end, m.type))
                parsed = replace(parsed, mentions=tuple(mentions))
            for item in extractor.extract(parsed):
                if isinstance(item, Bound):
                    bounds.append(item)
                elif isinstance(item, EntityRelation):
                    relations.append(item)
                else:
                    mentions.append(item)
        mentions.sort(key=lambda m: (m.start, m.end, m.type))
        bounds.sort(key=lambda b: (b.start, b.end))
        relations.sort(key=lambda r: (r.head.start, r.tail.start, r.head.end, r.tail.end, r.type))
        return Extraction(_refine_title(paper, mentions), tuple(mentions), tuple(bounds), tuple(relations))

    def extract_many(self, papers: Sequence[Paper], cpu: dict[str, float] | None = None) -> list[Extraction]:
        """The records of ``papers``, parsed as one stream.

        With ``cpu``, adds this process's CPU seconds to ``cpu["parse"]`` (spaCy's ``nlp.pipe``)
        and ``cpu["extract"]`` (normalizing and the extractors).
        """
        clock = time.process_time
        t0 = clock()
        norms = [normalize(p.abstract) for p in papers]
        docs = iter(self.nlp.pipe((n.text for n in norms), batch_size=CHUNK))
        parse = 0.0
        out = []
        for paper, norm in zip(papers, norms, strict=True):
            t = clock()
            doc = next(docs)
            parse += clock() - t
            out.append(self.extract_one(paper, doc, norm))
        if cpu is not None:
            _add_cpu(cpu, {"parse": parse, "extract": clock() - t0 - parse})
        return out


def _refine_title(paper: Paper, mentions: list[Mention]) -> Paper:
    """An untitled paper is labelled by the coined method it proposes, when there is one."""
    if not paper.title_derived:
        return paper
    for mention in mentions:
        if mention.type == "Method" and mention.role == "proposed" and is_coined(mention.text):
            return replace(paper, title=mention.text)
    return paper


def load_pipeline(spacy_model: str | None = None, families: Sequence[str] = DEFAULT_FAMILIES) -> Pipeline:
    """Load the spaCy pipeline, build the extractors of ``families`` and let each add to ``nlp``
    the components it reads (:meth:`extractors.base.Extractor.setup`)."""
    nlp, name = load_nlp(spacy_model)
    extractors = [create(f) for f in families]
    for extractor in extractors:
        extractor.setup(nlp)
    return Pipeline(nlp, name, list(families), extractors)


_WORKER: Pipeline | None = None


def _add_cpu(total: dict[str, float], spent: dict[str, float]) -> None:
    for key, seconds in spent.items():
        total[key] = total.get(key, 0.0) + seconds


def _work(chunk: list[Paper]) -> tuple[list[Extraction], dict[str, float]]:
    assert _WORKER is not None
    cpu: dict[str, float] = {}
    return _WORKER.extract_many(chunk, cpu), cpu


def default_workers() -> int:
    return max(1, min(2, os.cpu_count() or 1))


def extract_papers(
    papers: Sequence[Paper],
    *,
    pipeline: Pipeline | None = None,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    cpu: dict[str, float] | None = None,
) -> Iterator[Extraction]:
    """Yield one :class:`Extraction` per paper, in input order.

    Args:
        papers: the papers to extract.
        pipeline: a loaded pipeline (loaded here when omitted).
        workers: processes to use (default: both cores); 1 runs in this process.
        progress: called with the number of papers finished after each chunk.
        cpu: when a dict, receives the extraction processes' CPU seconds ("parse", "extract").
    """
    global _WORKER
    pipeline = pipeline or load_pipeline()
    workers = workers or default_workers()
    # up to CHUNK papers are one chunk; a few chunks' worth is shared evenly between the
    # processes (100 papers: 50 + 50, not 64 + 36); a corpus goes in chunks of CHUNK
    size = CHUNK if len(papers) <= CHUNK else min(CHUNK, -(-len(papers) // workers))
    chunks = [list(papers[i : i + size]) for i in range(0, len(papers), size)]
    if workers <= 1 or len(chunks) <= 1 or sys.platform == "win32":
        for chunk in chunks:
            yield from pipeline.extract_many(chunk, cpu)
            if progress:
                progress(len(chunk))
        return
    _WORKER = pipeline  # inherited by the forked workers
    ctx = multiprocessing.get_context("fork")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_ignore_sigint)
    try:
        for result, spent in pool.map(_work, chunks):
            if cpu is not None:
                _add_cpu(cpu, spent)
            yield from result
            if progress:
                progress(len(result))
    except BrokenProcessPool:
        raise ExtractionError("an extraction worker process ended abruptly (killed, or out of memory)") \
            from None
    finally:
        # On Ctrl-C (or any error) drop the chunks not started instead of finishing them all:
        # only the chunks in flight are waited for.
        pool.shutdown(wait=True, cancel_futures=True)
        _WORKER = None


def _ignore_sigint() -> None:
    # Ctrl-C reaches the whole process group; the parent alone decides what it means, so the
    # workers do not each print a KeyboardInterrupt traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


__all__ = ["Pipeline", "extract_papers", "load_pipeline", "default_workers"]
