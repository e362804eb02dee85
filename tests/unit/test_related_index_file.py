"""The saved related-work index: same answers as a fresh one, ignored when stale or re-weighted."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import numpy as np
import pytest

import kg.encoder
import kg.related.index
import kg.related.store
from kg.cli import main
from kg.graphdir import load_nx, write_graph_dir
from kg.related import INDEX_FILE, RelatedIndex, RelatedWeights, build_index, load_index, write_index
from kg.types import Extraction, Mention, Paper
from tests.unit.related_graph import pca_and_bandits


def _answers(index: RelatedIndex) -> list[object]:
    out: list[object] = [[r.to_json() for r in results] for _pid, results in index.related_all(5)]
    paper = Paper(id="p-new", title="New", abstract="We study private bandits with PCA.")
    mention = Mention(type="Method", text="PCA", start=29, end=32, canonical="PCA")
    out.append([r.to_json() for r in index.related_text(Extraction(paper, (mention,), ()), 5)])
    out.append(index.by_method("PCA").to_json())
    return out


def test_related_saved_index_gives_the_same_answers(tmp_path: Path) -> None:
    directory = tmp_path / "graph"
    write_graph_dir(directory, [], pca_and_bandits().g, [], {})
    fresh = build_index(load_nx(directory))
    path = write_index(directory)
    assert path == directory / INDEX_FILE
    loaded = load_index(directory)
    assert loaded.vectorizer is None  # came from the file, not from graph.json
    assert np.array_equal(loaded.scales, fresh.scales)
    assert _answers(loaded) == _answers(fresh)


def test_related_saved_index_of_another_format_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = tmp_path / "graph"
    write_graph_dir(directory, [], pca_and_bandits().g, [], {})
    with monkeypatch.context() as patch:
        patch.setattr(kg.related.index, "INDEX_FORMAT", kg.related.index.INDEX_FORMAT - 1)
        write_index(directory)  # an index written by the previous version of kg
    index = load_index(directory)
    assert index.vectorizer is not None  # rebuilt from graph.json, not read from the file
    assert _answers(index) == _answers(build_index(load_nx(directory)))


def test_related_saved_index_of_another_semantic_model_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = tmp_path / "graph"
    write_graph_dir(directory, [], pca_and_bandits().g, [], {})
    model = kg.related.index.load_semantic_model()
    other = dataclasses.replace(model, name=model.name + "-retrained")
    with monkeypatch.context() as patch:
        patch.setattr(kg.related.index, "load_semantic_model", lambda: other)
        write_index(directory)  # an index whose S vectors came from another model
    index = load_index(directory)
    assert index.vectorizer is not None and index.semantic_model == model.name  # rebuilt
    assert _answers(index) == _answers(build_index(load_nx(directory)))


def test_related_saved_index_is_ignored_when_the_graph_changes(tmp_path: Path) -> None:
    directory = tmp_path / "graph"
    write_graph_dir(directory, [], pca_and_bandits().g, [], {})
    write_index(directory)
    saved = (directory / INDEX_FILE).read_bytes()
    write_graph_dir(directory, [], pca_and_bandits("successive elimination").g, [], {})
    (directory / INDEX_FILE).write_bytes(saved)  # a stale index left behind
    os.utime(directory / "graph.json", ns=(1, 1))
    index = load_index(directory)
    assert index.by_method("successive elimination").used == (("p-ddd", "Private linear bandits"),)


def test_related_saved_index_is_ignored_for_other_weights(tmp_path: Path) -> None:
    directory = tmp_path / "graph"
    write_graph_dir(directory, [], pca_and_bandits().g, [], {})
    write_index(directory)
    weights_file = tmp_path / "w.json"
    weights_file.write_text('{"lexical": 0, "terms": 0}', encoding="utf-8")
    index = load_index(directory, weights_file)
    assert index.weights == RelatedWeights(lexical=0, terms=0)
    expected = build_index(load_nx(directory), RelatedWeights(lexical=0, terms=0))
    assert _answers(index) == _answers(expected)


def test_related_saved_index_without_titles_is_not_used(tmp_path: Path) -> None:
    # an ablation index (titles=False) saved by mistake must not answer ordinary queries
    directory = tmp_path / "graph"
    write_graph_dir(directory, [], pca_and_bandits().g, [], {})
    key = kg.related.store._graph_key(directory)
    build_index(load_nx(directory), titles=False).save(directory / INDEX_FILE, key)
    assert RelatedIndex.load(directory / INDEX_FILE, key, RelatedWeights()) is None
    index = load_index(directory)
    assert index.lexical_titles and index.vectorizer is not None  # rebuilt from graph.json


def test_related_saved_index_unreadable_falls_back_to_the_graph(tmp_path: Path) -> None:
    directory = tmp_path / "graph"
    write_graph_dir(directory, [], pca_and_bandits().g, [], {})
    (directory / INDEX_FILE).write_bytes(b"not an npz")
    assert _answers(load_index(directory)) == _answers(build_index(load_nx(directory)))


def test_related_cli_write_index(tmp_path: Path) -> None:
    directory = tmp_path / "graph"
    write_graph_dir(directory, [], pca_and_bandits().g, [], {})
    assert main(["related", "--write-index", "-g", str(directory)]) == 0
    assert (directory / INDEX_FILE).is_file()


def test_related_first_query_saves_the_index_for_the_next(tmp_path: Path) -> None:
    directory = tmp_path / "graph"
    write_graph_dir(directory, [], pca_and_bandits().g, [], {})
    first = load_index(directory)
    assert first.vectorizer is not None and (directory / INDEX_FILE).is_file()  # built, then saved
    second = load_index(directory)
    assert second.vectorizer is None  # read from the saved file
    assert _answers(second) == _answers(first)


def test_related_other_weights_do_not_replace_the_saved_index(tmp_path: Path) -> None:
    directory = tmp_path / "graph"
    write_graph_dir(directory, [], pca_and_bandits().g, [], {})
    weights_file = tmp_path / "w.json"
    weights_file.write_text('{"semantic": 0}', encoding="utf-8")
    load_index(directory, weights_file)
    assert not (directory / INDEX_FILE).exists()


def test_related_index_that_cannot_be_saved_still_answers(tmp_path: Path) -> None:
    directory = tmp_path / "graph"
    write_graph_dir(directory, [], pca_and_bandits().g, [], {})
    (directory / INDEX_FILE).mkdir()  # the index's path is taken: saving it fails for real
    index = load_index(directory)
    assert (directory / INDEX_FILE).is_dir()
    assert _answers(index) == _answers(build_index(load_nx(directory)))


def test_related_rewritten_directory_keeps_the_encoder_vectors_of_unchanged_texts(tmp_path: Path) -> None:
    directory = tmp_path / "graph"
    gb = pca_and_bandits()
    write_graph_dir(directory, [], gb.g, [], {})
    first = load_index(directory)
    assert (directory / INDEX_FILE).is_file()
    # a rewrite (a rebuild, compaction or removal replaces the whole directory) with one changed text
    changed = next(n for n, d in gb.g.nodes(data=True) if d.get("kind") == "Paper")
    gb.g.nodes[changed]["abstract"] = "A changed abstract about private bandits."
    write_graph_dir(directory, [], gb.g, [], {})
    assert (directory / INDEX_FILE).is_file()  # carried over, stale
    encoded: list[tuple[int, int]] = []
    kg.encoder.load_encoder()._memo.clear()  # nothing from this process's earlier encodings
    second = load_index(directory, progress=lambda done, total: encoded.append((done, total)))
    assert encoded and encoded[-1] == (1, 1)  # only the changed text was encoded again
    row = second.row_of[gb.g.nodes[changed]["id"]]
    kept = [i for i in range(len(second.ids)) if i != row]
    assert np.array_equal(second.encoder[kept], first.encoder[kept])
    assert not np.array_equal(second.encoder[row], first.encoder[row])
