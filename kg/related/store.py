"""The related-work index of a build directory: saved beside the graph, reused while it holds.

:func:`write_index` saves it (``related-index.npz``); :func:`load_index` reads it back when it
was built from this graph with these weights, else builds it from ``graph.json``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kg.errors import OutputError
from kg.graphdir import GRAPH_JSON, MANIFEST, RELATED_INDEX, load_nx
from kg.related.index import saved_encoder_vectors
from kg.related.rank import RelatedIndex, build_index
from kg.related.weights import RelatedWeights

INDEX_FILE = RELATED_INDEX  # kept through rewrites of the directory (kg.graphdir.CARRIED)


def _graph_key(directory: str | Path) -> dict[str, Any]:
    """What identifies a build's graph: the size and modification time of graph.json and of the
    manifest (a rebuild replaces the directory, an update with pending additions the manifest)."""
    try:
        stat = (Path(directory) / GRAPH_JSON).stat()
        manifest = (Path(directory) / MANIFEST).stat()
    except OSError:
        return {}
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns,
            "manifest_size": manifest.st_size, "manifest_mtime_ns": manifest.st_mtime_ns}


def write_index(
    directory: str | Path,
    weights: RelatedWeights | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Path:
    """Precompute the related-work index of a build directory into ``DIR/related-index.npz``.

    ``kg related`` then loads it instead of reading ``graph.json`` and fitting TF-IDF on every
    call (a build may call this before publishing its directory). It holds one set of weights;
    a query with other weights builds its index from the graph instead.

    Raises:
        GraphDirError: the directory is not a complete build.
        OutputError: the file cannot be written.
    """
    path = Path(directory) / INDEX_FILE
    index = build_index(
        load_nx(directory), weights, saved_vectors=saved_encoder_vectors(path), progress=progress
    )
    index.save(path, _graph_key(directory))
    return path


def load_index(
    directory: str | Path,
    weights_file: RelatedWeights | str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RelatedIndex:
    """The related-work index of a build directory, with the weights given or read from
    ``weights_file`` (default: :class:`RelatedWeights`'s).

    Uses ``DIR/related-index.npz`` (:func:`write_index`) when it was built from this graph with
    these weights, else builds the index from ``graph.json`` and, with the default weights, saves
    it there for the next call (a directory that cannot be written is only slower: nothing is
    saved and nothing fails).

    Raises:
        GraphDirError: the directory is not a complete build.
        ConfigError: the weights file is bad.
    """
    if isinstance(weights_file, RelatedWeights):
        weights = weights_file
    else:
        weights = RelatedWeights.from_file(weights_file) if weights_file else RelatedWeights()
    saved = Path(directory) / INDEX_FILE
    key = _graph_key(directory)
    if saved.is_file() and key:
        index = RelatedIndex.load(saved, key, weights)
        if index is not None:
            return index
    index = build_index(
        load_nx(directory), weights, saved_vectors=saved_encoder_vectors(saved), progress=progress
    )
    if weights == RelatedWeights() and key:
        try:
            index.save(saved, key)
        except (OSError, OutputError):
            pass  # a read-only build directory: the next call builds the index again
    return index
