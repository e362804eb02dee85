"""The related-work index: every paper's vectors under every signal, precomputed once.

:class:`SignalIndex` builds them from the graph (the formula is :mod:`kg.related`'s), finds
papers and entities by name, and saves and loads itself as one ``.npz`` (:data:`INDEX_FORMAT`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

import numpy as np
import orjson
import scipy.sparse as sp

from kg.concepts.links import is_salient
from kg.encoder import DIMENSIONS as ENCODER_DIMENSIONS
from kg.encoder import NAME as ENCODER_NAME
from kg.encoder import text_key
from kg.errors import QueryError
from kg.fileio import atomic_write
from kg.related.concepts import ConceptSpace, concept_space, held_factor
from kg.related.results import PROPOSED, USED
from kg.related.shapes import BoundShape, bound_shape, shape_from_json, shape_json
from kg.related.sparse import csr_row, l2_rows, normalize_pair, weighted_matrix
from kg.related.vectorizers import encoder_vectors, lexical_matrix, lexical_vectorizer, paper_texts
from kg.related.weights import SIGNALS, RelatedWeights
from kg.semantic import load_model as load_semantic_model
from kg.types import ENTITY_TYPES as ENTITY_CLASSES
from kg.words import entity_terms

if TYPE_CHECKING:
    import networkx as nx

# Bump when what the saved index holds, or how any part of it is computed, changes: a file of
# another format is ignored and the index rebuilt from the graph.
# 2: L reads titles and word pairs, signals divided by scales; 3: S; 4: named quantities; 5: N;
# 6: C (concepts and their broader concepts); 8: C weighs concepts by their mention counts;
# 9: B's coarsest feature, "a bound"; 10: C reaches two levels up, as the share links do
INDEX_FORMAT = 10


@dataclass(slots=True)
class QueryVectors:
    """A query paper as vectors: a row of the index, or an abstract extracted on the fly."""

    row: int  # -1 for a paper not in the graph
    used: sp.csr_matrix
    proposed: sp.csr_matrix
    words: sp.csr_matrix
    bounds: sp.csr_matrix
    lexical: sp.csr_matrix
    semantic: np.ndarray  # (k,) unit vector, or zeros
    encoder: np.ndarray  # (384,) unit vector, or zeros
    topic: int
    shapes: tuple[BoundShape, ...]
    # (type, canonical, words) of an abstract's own entities, graph entities or not
    names: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    concept: sp.csr_matrix | None = None  # (1, concepts) row of C; None: no concept
    concept_levels: dict[int, int] = field(default_factory=dict)  # concept column → level


class SignalIndex:
    """Everything a related-work query needs, precomputed once from the graph.

    Each paper's vectors under every signal, the entities' and terms' columns, the signals'
    scales; saved and loaded as one ``.npz``. The queries are
    :class:`kg.related.rank.RelatedIndex`'s, built with :func:`kg.related.build_index`.
    """

    def __init__(
        self,
        nx_graph: nx.MultiDiGraph,
        weights: RelatedWeights | None = None,
        *,
        titles: bool = True,
        saved_vectors: Mapping[str, np.ndarray] | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.weights = weights or RelatedWeights()
        # False: L reads the abstracts only, as for untitled input (``kg eval related --no-titles``)
        self.lexical_titles = titles
        w = self.weights
        papers = sorted(n for n, d in nx_graph.nodes(data=True) if d.get("kind") == "Paper")
        self.ids: list[str] = [str(nx_graph.nodes[n].get("id") or n.partition(":")[2]) for n in papers]
        self.titles: list[str] = [
            str(nx_graph.nodes[n].get("title") or nx_graph.nodes[n].get("label") or "") for n in papers
        ]
        self.row_of: dict[str, int] = {pid: i for i, pid in enumerate(self.ids)}
        self.topics = np.array([_topic(nx_graph.nodes[n].get("topic")) for n in papers], dtype=np.int64)
        n_papers = len(papers)
        row_of_node = {n: i for i, n in enumerate(papers)}

        # --- entities: paper → entity edges, one role per (paper, entity)
        holdings: dict[str, dict[int, str]] = defaultdict(dict)
        # (paper row, entity) → (held saliently: kg.concepts.links.is_salient, mentions)
        statements: dict[tuple[int, str], tuple[bool, int]] = {}
        for u, v, key, attrs in nx_graph.edges(keys=True, data=True):
            if u in row_of_node and nx_graph.nodes[v].get("kind") in ENTITY_CLASSES:
                paper_row = row_of_node[u]
                role = PROPOSED if key == "proposes" else USED
                if holdings[v].get(paper_row) != PROPOSED:
                    holdings[v][paper_row] = role
                salient = "sentence" in attrs and is_salient(
                    str(nx_graph.nodes[u].get("abstract") or ""), attrs
                )
                was_salient, mentions = statements.get((paper_row, v), (False, 1))
                mentions = max(mentions, _count(attrs.get("mentions")))
                statements[(paper_row, v)] = (was_salient or salient, mentions)
        self.entities: list[str] = sorted(holdings)
        self.entity_col: dict[str, int] = {e: j for j, e in enumerate(self.entities)}
        self.entity_type: list[str] = [nx_graph.nodes[e]["kind"] for e in self.entities]
        self.entity_canonical: list[str] = [
            str(nx_graph.nodes[e].get("canonical") or nx_graph.nodes[e].get("label") or e)
            for e in self.entities
        ]
        self.entity_label: list[str] = [
            str(nx_graph.nodes[e].get("label") or c)
            for e, c in zip(self.entities, self.entity_canonical, strict=True)
        ]
        self.entity_idf = np.array(
            [math.log((n_papers + 1) / (len(holdings[e]) + 1)) for e in self.entities], dtype=np.float64
        )
        # An entity the graph marks as not specific (too common to say what a paper is about,
        # kg.related.concepts) is no reason for a match.
        self.entity_weight = self.entity_idf * np.array(
            [
                0.0 if nx_graph.nodes[e].get("specific") is False else w.types.get(t, 0.0)
                for e, t in zip(self.entities, self.entity_type, strict=True)
            ],
            dtype=np.float64,
        )
        self._lazy: dict[str, Any] = {}
        name_map: dict[tuple[str, str], int] = {}
        for j, e in enumerate(self.entities):
            names = [
                self.entity_canonical[j],
                self.entity_label[j],
                *(nx_graph.nodes[e].get("aliases") or []),
            ]
            for name in names:
                name_map.setdefault((self.entity_type[j], slug(str(name))), j)
            name_map.setdefault((self.entity_type[j], e.partition(":")[2]), j)
        self._names_map: dict[tuple[str, str], int] | None = name_map
        self._holders: list[dict[int, str]] | None = [holdings[e] for e in self.entities]
        u_rows: list[int] = []
        u_cols: list[int] = []
        p_rows: list[int] = []
        p_cols: list[int] = []
        for j, e in enumerate(self.entities):
            for i, role in holdings[e].items():
                (p_rows if role == PROPOSED else u_rows).append(i)
                (p_cols if role == PROPOSED else u_cols).append(j)
        m = len(self.entities)
        used = weighted_matrix(u_rows, u_cols, self.entity_weight, (n_papers, m))
        proposed = weighted_matrix(p_rows, p_cols, self.entity_weight, (n_papers, m))
        self.used, self.proposed = normalize_pair(used, proposed)

        # --- concepts: the held entities and their broader concepts (kg.related.concepts), those
        # held in passing weighing less, those named more often more
        self.concept_space = concept_space(
            nx_graph, self.entities, self.holders, n_papers, w.types, w.generic
        )
        held: list[dict[int, float]] = [{} for _ in range(n_papers)]
        for (paper_row, entity), (salient, mentions) in statements.items():
            held[paper_row][self.entity_col[entity]] = held_factor(salient, mentions, w.passing, w.mentions)
        self.concepts = self.concept_space.matrix(held, w.broader)

        # --- entity words
        self.entity_terms: list[tuple[str, ...]] = []
        for j, e in enumerate(self.entities):
            names = [
                self.entity_canonical[j],
                self.entity_label[j],
                *(str(a) for a in nx_graph.nodes[e].get("aliases") or []),
            ]
            self.entity_terms.append(entity_terms(names))
        term_weight: list[dict[str, float]] = [{} for _ in papers]
        for j, terms in enumerate(self.entity_terms):
            tw = w.types.get(self.entity_type[j], 0.0)
            for i in self.holders[j]:
                row = term_weight[i]
                for t in terms:
                    if row.get(t, -1.0) < tw:
                        row[t] = tw
        term_df: dict[str, int] = defaultdict(int)
        for row in term_weight:
            for t in row:
                term_df[t] += 1
        self.term_names: list[str] = sorted(term_df)
        self.term_col: dict[str, int] = {t: k for k, t in enumerate(self.term_names)}
        self.term_idf = np.array(
            [math.log((n_papers + 1) / (term_df[t] + 1)) for t in self.term_names], dtype=np.float64
        )
        self.words = l2_rows(self._term_rows(term_weight))

        # --- bounds
        shapes: list[list[BoundShape]] = [[] for _ in papers]
        for u, v, key in nx_graph.edges(keys=True):
            if key == "claimsBound" and u in row_of_node:
                d = nx_graph.nodes[v]
                quantity = d.get("quantity")
                for _b, q, qkey in nx_graph.out_edges(v, keys=True):
                    if qkey == "boundsQuantity":
                        quantity = nx_graph.nodes[q].get("canonical") or quantity
                shapes[row_of_node[u]].append(
                    bound_shape(
                        str(d.get("bound_kind") or "upper"),
                        str(d.get("expr") or ""),
                        quantity,
                        str(d.get("latex") or d.get("label") or ""),
                        str(d.get("attribution") or "this"),
                        [str(x) for x in d.get("variables") or ()],
                    )
                )
        self._shapes: list[tuple[BoundShape, ...]] | None = [
            tuple(sorted(s, key=lambda b: (b.quantity, b.latex))) for s in shapes
        ]
        feature_papers: dict[str, set[int]] = defaultdict(set)
        for i, paper_shapes in enumerate(self.shapes):
            for shape in paper_shapes:
                for f in shape.features():
                    feature_papers[f].add(i)
        self.bound_features: list[str] = sorted(feature_papers)
        self.bound_col: dict[str, int] = {f: j for j, f in enumerate(self.bound_features)}
        self.bound_idf = np.array(
            [math.log((n_papers + 1) / (len(feature_papers[f]) + 1)) for f in self.bound_features],
            dtype=np.float64,
        )
        b_rows, b_cols = [], []
        for f, rows in feature_papers.items():
            for i in rows:
                b_rows.append(i)
                b_cols.append(self.bound_col[f])
        self.bounds = l2_rows(
            weighted_matrix(b_rows, b_cols, self.bound_idf, (n_papers, len(self.bound_features)))
        )

        # --- lexical: the title (a real one, not derived from the abstract) and the abstract
        texts = paper_texts(nx_graph, papers, titles)
        self.vectorizer, self.lexical = lexical_matrix(texts)
        self.terms = (
            np.array(self.vectorizer.get_feature_names_out(), dtype=object)
            if self.lexical.shape[1]
            else np.array([], dtype=object)
        )
        self.lexical_idf = (
            np.asarray(self.vectorizer.idf_, dtype=np.float64) if self.lexical.shape[1] else np.zeros(0)
        )

        # --- semantic: the same texts under the shipped latent semantic model
        model = load_semantic_model()
        self.semantic_model = model.name
        self.semantic = model.vectors(texts)

        # --- encoder: the same texts under the sentence encoder (none when its weight is 0)
        self.text_keys = [text_key(t) for t in texts]
        self.encoder = (
            encoder_vectors(texts, saved_vectors, progress)
            if w.encoder > 0
            else np.zeros((len(texts), ENCODER_DIMENSIONS))
        )
        self._finish()
        self.scales = self._signal_scales()

    def _finish(self) -> None:
        """The derived matrices queries multiply against (rebuilt after loading a saved index)."""
        w = self.weights
        self.row_of = {pid: i for i, pid in enumerate(self.ids)}
        self.entity_col = {e: j for j, e in enumerate(self.entities)}
        self.term_col = {t: k for k, t in enumerate(self.term_names)}
        self.bound_col = {f: j for j, f in enumerate(self.bound_features)}
        # score = U_q·(U_c + r_pu P_c) + P_q·(r_pu U_c + r_pp P_c)   (see :mod:`kg.related`)
        self._against_used = sp.csr_matrix((self.used + w.proposed_used * self.proposed).T)
        self._against_proposed = sp.csr_matrix(
            (w.proposed_used * self.used + w.both_proposed * self.proposed).T
        )
        self._words_t = sp.csr_matrix(self.words.T)
        self._concepts_t = sp.csr_matrix(self.concepts.T)
        self._bounds_t = sp.csr_matrix(self.bounds.T)
        self._lexical_t = sp.csr_matrix(self.lexical.T)
        # each lexical term's column in the semantic model (-1: a word pair or an unknown word)
        model = load_semantic_model()
        model_col = {t: k for k, t in enumerate(model.terms)}
        self.semantic_col = np.array([model_col.get(str(t), -1) for t in self.terms], dtype=np.int64)
        self.loadings = model.loadings()
        self.semantic_idf = model.idf

    def _signal_scales(self, sample: int = 1000, chunk: int = 100) -> np.ndarray:
        """Each signal's scale: its value for a typical paper's best match (see :mod:`kg.related`).

        The median, over the papers having the signal at all, of their highest value with any
        other paper; on an evenly spaced sample of ``sample`` papers, so that a 22k-paper graph
        costs a second. 1 when no paper has the signal.
        """
        n = len(self.ids)
        rows = np.unique(np.linspace(0, max(n - 1, 0), min(n, sample)).astype(np.int64))
        products = {
            "lexical": lambda r: self.lexical[r] @ self._lexical_t,
            "terms": lambda r: self.words[r] @ self._words_t,
            "concept": lambda r: self.concepts[r] @ self._concepts_t,
            "entity": lambda r: self.used[r] @ self._against_used + self.proposed[r] @ self._against_proposed,
            "bound": lambda r: self.bounds[r] @ self._bounds_t,
            "semantic": lambda r: sp.csr_matrix(np.maximum(self.semantic[r] @ self.semantic.T, 0.0)),
            "encoder": lambda r: sp.csr_matrix(np.maximum(self.encoder[r] @ self.encoder.T, 0.0)),
        }
        scales = np.ones(len(SIGNALS), dtype=np.float64)
        for k, name in enumerate(SIGNALS):
            if name not in products:
                continue  # the topic is 0 or 1 already
            best: list[float] = []
            for start in range(0, len(rows), chunk):
                r = rows[start : start + chunk]
                m = sp.coo_matrix(products[name](r))
                keep = (r[m.row] != m.col) & (m.data > 0)  # a paper is not its own match
                top = np.zeros(len(r))
                np.maximum.at(top, m.row[keep], m.data[keep])
                best.extend(top[top > 0].tolist())
            if best:
                scales[k] = float(np.median(best))
        return scales

    @property
    def _names(self) -> dict[tuple[str, str], int]:
        """(entity type, slug of a name or alias) → entity column."""
        if self._names_map is None:
            self._names_map = {(t, n): int(j) for t, n, j in self._lazy["names"]}
        return self._names_map

    @property
    def holders(self) -> list[dict[int, str]]:
        """Per entity column: paper row → role ("proposed" or "used")."""
        if self._holders is None:
            self._holders = [{int(i): str(r) for i, r in h} for h in self._lazy["holders"]]
        return self._holders

    @property
    def shapes(self) -> list[tuple[BoundShape, ...]]:
        """Per paper row: the shapes of its bounds."""
        if self._shapes is None:
            self._shapes = [tuple(shape_from_json(b) for b in shapes) for shapes in self._lazy["shapes"]]
        return self._shapes

    def _vectorizer(self) -> Any:
        """The fitted TF-IDF vectorizer (rebuilt from the saved vocabulary and IDF after a load)."""
        if self.vectorizer is None:
            vectorizer = lexical_vectorizer()
            vectorizer.set_params(vocabulary={str(t): k for k, t in enumerate(self.terms)})
            vectorizer.fit(["x"])  # fixes the vocabulary; the IDF is then replaced by the saved one
            vectorizer.idf_ = self.lexical_idf
            self.vectorizer = vectorizer
        return self.vectorizer

    # --------------------------------------------------------------------------- saving

    _MATRICES = ("used", "proposed", "concepts", "words", "bounds", "lexical")
    _ARRAYS = (
        "topics", "entity_idf", "entity_weight", "concept_weight", "term_idf", "bound_idf", "lexical_idf",
        "scales", "semantic", "encoder",
    )

    @property
    def concept_weight(self) -> np.ndarray:
        """Per concept column, its weight in ``C`` (type × IDF × specific)."""
        return self.concept_space.weight

    def save(self, path: str | Path, graph_key: Mapping[str, Any]) -> None:
        """Write the index to ``path`` (one ``.npz``, no pickles), atomically.

        Args:
            path: the file to write.
            graph_key: what identifies the graph it was built from; :func:`load_index` uses the
                file only when the graph still has this key.
        """
        arrays: dict[str, np.ndarray] = {name: getattr(self, name) for name in self._ARRAYS}
        arrays["encoder"] = self.encoder.astype(np.float32)  # the encoder's own precision: lossless
        for name in self._MATRICES:
            matrix = sp.csr_matrix(getattr(self, name))
            arrays[f"{name}.data"] = matrix.data
            arrays[f"{name}.indices"] = matrix.indices
            arrays[f"{name}.indptr"] = matrix.indptr
            arrays[f"{name}.shape"] = np.array(matrix.shape, dtype=np.int64)
        meta = {
            "format": INDEX_FORMAT,
            "graph": dict(graph_key),
            "weights": self.weights.to_json(),
            "lexical_titles": self.lexical_titles,
            "semantic_model": self.semantic_model,
            "encoder_model": ENCODER_NAME,
            "text_keys": self.text_keys,
            "ids": self.ids,
            "titles": self.titles,
            "entities": self.entities,
            "entity_type": self.entity_type,
            "entity_canonical": self.entity_canonical,
            "entity_label": self.entity_label,
            "entity_terms": [list(t) for t in self.entity_terms],
            "concept_space": self.concept_space.to_json(),
            "names": [[t, n, j] for (t, n), j in sorted(self._names.items())],
            "holders": [sorted(h.items()) for h in self.holders],
            "term_names": self.term_names,
            "bound_features": self.bound_features,
            "shapes": [[shape_json(b) for b in shapes] for shapes in self.shapes],
            "terms": [str(t) for t in self.terms],
        }
        arrays["meta"] = np.frombuffer(orjson.dumps(meta), dtype=np.uint8)
        with atomic_write(path, "wb") as out:
            np.savez(out, **arrays)  # type: ignore[arg-type]  # numpy stubs type **kwds as its options

    @classmethod
    def load(
        cls, path: str | Path, graph_key: Mapping[str, Any], weights: RelatedWeights
    ) -> Self | None:
        """The index saved at ``path`` if it was built from this graph with these weights, else None."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = orjson.loads(bytes(data["meta"]))
                if (
                    meta.get("format") != INDEX_FORMAT
                    or meta.get("graph") != dict(graph_key)
                    or meta.get("weights") != weights.to_json()
                    or meta.get("lexical_titles", True) is not True
                    or meta.get("semantic_model") != load_semantic_model().name
                    or meta.get("encoder_model") != ENCODER_NAME
                ):
                    return None
                index = cls.__new__(cls)
                index.weights = weights
                index.lexical_titles = True
                index.semantic_model = meta["semantic_model"]
                for name in cls._ARRAYS:
                    if name == "concept_weight":
                        index.concept_space = ConceptSpace.from_json(
                            meta["concept_space"], np.array(data[name])
                        )
                    else:
                        setattr(index, name, np.array(data[name]))
                index.encoder = index.encoder.astype(np.float64)
                for name in cls._MATRICES:
                    shape = tuple(int(x) for x in data[f"{name}.shape"])
                    matrix = sp.csr_matrix(
                        (data[f"{name}.data"], data[f"{name}.indices"], data[f"{name}.indptr"]), shape=shape
                    )
                    setattr(index, name, matrix)
        except (OSError, KeyError, ValueError, UnicodeDecodeError, orjson.JSONDecodeError):
            return None  # unreadable or from another version: rebuild from the graph
        index.ids = meta["ids"]
        index.text_keys = meta["text_keys"]
        index.titles = meta["titles"]
        index.entities = meta["entities"]
        index.entity_type = meta["entity_type"]
        index.entity_canonical = meta["entity_canonical"]
        index.entity_label = meta["entity_label"]
        index.entity_terms = [tuple(t) for t in meta["entity_terms"]]
        # Built on first use: a paper query needs none of them but its results' bound shapes.
        index._lazy = {"names": meta["names"], "holders": meta["holders"], "shapes": meta["shapes"]}
        index._names_map = index._holders = index._shapes = None
        index.term_names = meta["term_names"]
        index.bound_features = meta["bound_features"]
        index.terms = np.array(meta["terms"], dtype=object)
        index.vectorizer = None
        index._finish()
        return index

    def _term_rows(self, term_weight: Sequence[Mapping[str, float]]) -> sp.csr_matrix:
        rows, cols, data = [], [], []
        for i, row in enumerate(term_weight):
            for t, tw in row.items():
                k = self.term_col.get(t)
                if k is not None:
                    rows.append(i)
                    cols.append(k)
                    data.append(tw * self.term_idf[k])
        matrix = sp.csr_matrix(
            (data, (rows, cols)), shape=(len(term_weight), len(self.term_names)), dtype=np.float64
        )
        matrix.eliminate_zeros()
        return matrix

    # ------------------------------------------------------------------------------- lookup

    def __len__(self) -> int:
        return len(self.ids)

    def find_paper(self, query: str) -> str:
        """The paper id a query names: an id, a ``paper:`` node id, or a title substring.

        Raises:
            QueryError: no paper matches, or a title substring matches several (they are listed).
        """
        q = query.strip()
        pid = q.partition(":")[2] if q.startswith("paper:") else q
        if pid in self.row_of:
            return pid
        needle = q.casefold()
        if not needle:
            raise QueryError("empty paper query: give a paper id or a title substring")
        exact = [i for i, t in enumerate(self.titles) if t.casefold() == needle]
        hits = exact or [i for i, t in enumerate(self.titles) if needle in t.casefold()]
        if len(hits) == 1:
            return self.ids[hits[0]]
        if not hits:
            raise QueryError(
                f"no paper with id or title matching {query!r} in the graph ({len(self.ids)} papers)"
            )
        listed = "; ".join(f"{self.ids[i]} {self.titles[i]!r}" for i in hits[:5])
        more = f" and {len(hits) - 5} more" if len(hits) > 5 else ""
        raise QueryError(
            f"{query!r} matches {len(hits)} paper titles: {listed}{more}; "
            f"give a paper id or a longer title substring"
        )

    def find_entity(self, name: str, types: Iterable[str] = ENTITY_CLASSES) -> int:
        """The entity column a name denotes (canonical name, label, alias or node id).

        Raises:
            QueryError: no entity of ``types`` has that name, or several do.
        """
        types = tuple(types)
        key = slug(name.partition(":")[2] if name.partition(":")[0] in ENTITY_CLASSES else name)
        hits = sorted({self._names[(t, key)] for t in types if (t, key) in self._names})
        if not hits:
            hits = sorted(
                j
                for j, (t, c) in enumerate(zip(self.entity_type, self.entity_canonical, strict=True))
                if t in types and key and key in slug(c)
            )
        if len(hits) == 1:
            return hits[0]
        what = "/".join(types) if len(types) < len(ENTITY_CLASSES) else "entity"
        if not hits:
            raise QueryError(f"no {what} named {name!r} in the graph")
        listed = ", ".join(self.entities[j] for j in hits[:8])
        raise QueryError(f"{name!r} names {len(hits)} {what} entities: {listed}; be more specific")

    def query_row(self, row: int) -> QueryVectors:
        """The vectors of the paper in ``row``, as a query."""
        return QueryVectors(
            row,
            self.used[row],
            self.proposed[row],
            self.words[row],
            self.bounds[row],
            self.lexical[row],
            self.semantic[row],
            self.encoder[row],
            int(self.topics[row]),
            self.shapes[row],
            concept=self.concepts[row],
            concept_levels=self.concept_space.levels(self.entity_cols(row)),
        )

    def entity_cols(self, row: int) -> list[int]:
        """The entity columns the paper in ``row`` holds, in column order."""
        return sorted(csr_row(self.used, row)[0].tolist() + csr_row(self.proposed, row)[0].tolist())


def saved_encoder_vectors(path: str | Path) -> dict[str, np.ndarray]:
    """The encoder vectors a saved index holds, by text key (empty when there are none to reuse).

    An index goes stale when its graph changes (an update, a compaction, a rebuild); most of its
    papers' texts are still there, and encoding is the one costly part of building an index.
    """
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = orjson.loads(bytes(data["meta"]))
            if meta.get("encoder_model") != ENCODER_NAME or not meta.get("weights", {}).get("encoder"):
                return {}
            vectors = np.array(data["encoder"], dtype=np.float32)
            keys = meta["text_keys"]
    except (OSError, KeyError, ValueError, UnicodeDecodeError, orjson.JSONDecodeError):
        return {}
    if vectors.shape != (len(keys), ENCODER_DIMENSIONS):
        return {}
    return dict(zip(keys, vectors, strict=True))


def slug(name: str) -> str:
    """:func:`kg.vocab.slug`, imported on first use: kg.vocab loads rdflib, which a query
    answered from a saved index never needs (it would add a fifth of a second to each call)."""
    from kg.vocab import slug as vocab_slug

    return vocab_slug(name)


def _count(value: Any) -> int:
    """A statement's mention count (``mentions`` on a paper → entity edge; 1 when absent or bad)."""
    try:
        return max(int(value), 1)
    except (TypeError, ValueError):
        return 1


def _topic(value: Any) -> int:
    try:
        return int(value) if value is not None else -1
    except (TypeError, ValueError):
        return -1


def paper_ids(nx_graph: nx.MultiDiGraph) -> list[str]:
    """The paper ids of a graph, sorted."""
    return sorted(
        str(d.get("id") or n.partition(":")[2])
        for n, d in nx_graph.nodes(data=True)
        if d.get("kind") == "Paper"
    )
