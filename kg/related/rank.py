"""Ranking related work: the score of every paper for a query, the best ones explained.

:class:`RelatedIndex` answers the queries of ``kg related`` on a :class:`SignalIndex`: a paper
of the graph (:meth:`RelatedIndex.related`), an abstract read on the fly
(:meth:`RelatedIndex.related_text`), every paper (:meth:`RelatedIndex.related_all`), a method's
papers (:meth:`RelatedIndex.by_method`) and the papers bridging two sides
(:meth:`RelatedIndex.bridge`). The score is the weighted sum of :mod:`kg.related`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from kg.encoder import DIMENSIONS as ENCODER_DIMENSIONS
from kg.encoder import load_encoder
from kg.errors import QueryError
from kg.memory import gc_paused
from kg.related.concepts import held_factor
from kg.related.explain import explain
from kg.related.index import QueryVectors, SignalIndex, slug
from kg.related.results import PROPOSED, TYPE_ORDER, USED, BridgePaper, MethodPapers, Related
from kg.related.shapes import shape_of
from kg.related.sparse import dense, l2_rows, normalize_pair, weighted_matrix
from kg.related.vectorizers import paper_text
from kg.related.weights import SIGNALS, RelatedWeights
from kg.semantic import load_model as load_semantic_model
from kg.types import ENTITY_TYPES as ENTITY_CLASSES
from kg.types import Extraction
from kg.words import entity_terms

if TYPE_CHECKING:
    import networkx as nx

# Signals that order papers sharing some evidence but are never a reason alone.
_MEANING: frozenset[str] = frozenset({"semantic", "encoder"})


class RelatedIndex(SignalIndex):
    """The related-work queries, answered on the precomputed :class:`SignalIndex`.

    Build it with :func:`build_index`; then :meth:`related`, :meth:`related_text`,
    :meth:`related_all`, :meth:`by_method` and :meth:`bridge` answer queries.
    """

    def _scores(self, q: QueryVectors) -> dict[str, np.ndarray]:
        entity = q.used @ self._against_used + q.proposed @ self._against_proposed
        bound = q.bounds @ self._bounds_t
        lexical = q.lexical @ self._lexical_t if q.lexical.shape[1] else sp.csr_matrix((1, len(self)))
        topic = (self.topics == q.topic).astype(np.float64) if q.topic >= 0 else np.zeros(len(self))
        concept = dense(q.concept @ self._concepts_t) if q.concept is not None else np.zeros(len(self))
        return {
            "concept": concept,
            "semantic": np.maximum(self.semantic @ q.semantic, 0.0),
            "encoder": np.maximum(self.encoder @ q.encoder, 0.0),
            "entity": dense(entity),
            "terms": dense(q.words @ self._words_t),
            "bound": dense(bound),
            "topic": topic,
            "lexical": dense(lexical),
        }

    def _rank(self, q: QueryVectors, top: int) -> list[Related]:
        if top <= 0 or not len(self):
            return []
        w = self.weights
        raw = self._scores(q)
        # Each signal in units of its scale (a typical best match), so that the weights say how
        # much each counts, not how large its cosines happen to run in this graph.
        parts = {name: raw[name] / self.scales[k] for k, name in enumerate(SIGNALS)}
        evidence = np.zeros(len(self))
        for name in SIGNALS:
            if name not in _MEANING:
                evidence += getattr(w, name) * parts[name]
        total = evidence + sum(getattr(w, name) * parts[name] for name in sorted(_MEANING))
        if q.row >= 0:
            total[q.row] = 0.0
        # Rounded before ranking so ties (broken by paper id) do not depend on float noise.
        total = np.round(total, 9)
        # S orders the papers that share some evidence; alone it explains nothing, so a paper
        # close in meaning only (no shared entity, word, bound) is not a result.
        candidates = np.flatnonzero((total > 0) & (np.round(evidence, 9) > 0))
        if candidates.size > top:
            cut = np.partition(-total[candidates], top - 1)[top - 1]
            candidates = candidates[-total[candidates] <= cut]
        order = candidates[np.lexsort((candidates, -total[candidates]))][:top]
        return [
            explain(self, q, int(c), float(total[c]), {k: float(v[c]) for k, v in parts.items()})
            for c in order
        ]

    def related(self, paper: str, top: int = 10) -> list[Related]:
        """The ``top`` papers most related to a paper of the graph, best first, explained.

        Args:
            paper: a paper id, ``paper:`` node id or title substring (:meth:`find_paper`).
            top: how many results.

        Raises:
            QueryError: when ``paper`` names no paper or several.
        """
        return self._rank(self.query_row(self.row_of[self.find_paper(paper)]), top)

    def related_text(self, extraction: Extraction, top: int = 10) -> list[Related]:
        """The ``top`` papers most related to an abstract NOT in the graph (nothing is added).

        The extraction's mentions are matched to the graph's entities by type and canonical
        name (or alias), then by name under another type: one abstract's extraction may call
        "principal component analysis" a Task where the graph has it as a Method, and it is
        still the same thing. Its bounds and abstract give the other signals. It has no topic.
        """
        m = len(self.entities)
        roles: dict[int, str] = {}
        matched: dict[int, int] = {}  # mention index → entity column
        for i, mention in enumerate(extraction.mentions):
            keys = [slug(mention.canonical or mention.text), slug(mention.text)]
            types = [mention.type, *(t for t in TYPE_ORDER if t != mention.type)]
            j = next((self._names[(t, k)] for t in types for k in keys if (t, k) in self._names), None)
            if j is None:
                continue
            matched[i] = j
            if mention.role == PROPOSED or roles.get(j) != PROPOSED:
                roles[j] = PROPOSED if mention.role == PROPOSED else roles.get(j, USED)
        u = [j for j, r in sorted(roles.items()) if r == USED]
        p = [j for j, r in sorted(roles.items()) if r == PROPOSED]
        used = weighted_matrix([0] * len(u), u, self.entity_weight, (1, m))
        proposed = weighted_matrix([0] * len(p), p, self.entity_weight, (1, m))
        used, proposed = normalize_pair(used, proposed)
        # Entity words come from every mention, in the graph or not: a new abstract's
        # "contextual dueling bandit" still meets the graph's bandits on "bandit".
        names: dict[tuple[str, str], tuple[str, ...]] = {}
        term_weight: dict[str, float] = {}
        for mention in extraction.mentions:
            if mention.type not in ENTITY_CLASSES:
                continue
            canonical = mention.canonical or mention.text
            terms = entity_terms([canonical, mention.text])
            names.setdefault((mention.type, canonical), terms)
            tw = self.weights.types.get(mention.type, 0.0)
            for t in terms:
                term_weight[t] = max(term_weight.get(t, 0.0), tw)
        words = l2_rows(self._term_rows([term_weight]))
        concept_levels = self.concept_space.levels(sorted(roles))
        concept_cols, concept_x = self.concept_space.row(
            _held(extraction, matched, self.weights), self.weights.broader
        )
        concept = l2_rows(
            sp.csr_matrix(
                (concept_x, ([0] * len(concept_cols), concept_cols)),
                shape=(1, len(self.concept_space.nodes)),
                dtype=np.float64,
            )
        )
        shapes = tuple(sorted((shape_of(b) for b in extraction.bounds), key=lambda b: (b.quantity, b.latex)))
        cols = sorted({self.bound_col[f] for s in shapes for f in s.features() if f in self.bound_col})
        bounds = l2_rows(
            weighted_matrix([0] * len(cols), cols, self.bound_idf, (1, len(self.bound_features)))
        )
        text = paper_text(
            extraction.paper.title if self.lexical_titles else "",
            extraction.paper.abstract,
            extraction.paper.title_derived,
        )
        lexical = (
            sp.csr_matrix(self._vectorizer().transform([text]))
            if self.lexical.shape[1]
            else sp.csr_matrix((1, 0))
        )
        row = self.row_of.get(extraction.paper.id, -1)  # the same abstract: do not return itself
        query = QueryVectors(
            row,
            used,
            proposed,
            words,
            bounds,
            lexical,
            load_semantic_model().vectors([text])[0],
            load_encoder().vectors([text])[0] if self.weights.encoder > 0 else np.zeros(ENCODER_DIMENSIONS),
            -1,
            shapes,
            tuple((t, n, terms) for (t, n), terms in sorted(names.items())),
            concept,
            concept_levels,
        )
        return self._rank(query, top)

    def related_all(self, top: int = 10) -> Iterator[tuple[str, list[Related]]]:
        """``(paper id, related)`` for every paper of the graph, in paper id order."""
        for row, pid in enumerate(self.ids):
            yield pid, self._rank(self.query_row(row), top)

    def by_method(self, name: str) -> MethodPapers:
        """The papers that propose, then those that use, the Method ``name`` (by id order).

        Raises:
            QueryError: when no Method (or several) has that name.
        """
        j = self.find_entity(name, ("Method",))
        holders = self.holders[j]
        proposed = tuple((self.ids[i], self.titles[i]) for i in sorted(holders) if holders[i] == PROPOSED)
        used = tuple((self.ids[i], self.titles[i]) for i in sorted(holders) if holders[i] == USED)
        return MethodPapers(self.entities[j], self.entity_canonical[j], self.entity_label[j], proposed, used)

    def side(self, name: str) -> tuple[str, set[int]]:
        """A bridge side: ``topic:N`` (or a bare number) → that topic's papers; else an entity's
        holders.

        Raises:
            QueryError: when the topic is empty or the entity is unknown or ambiguous.
        """
        text = name.strip()
        number = text.partition(":")[2] if text.lower().startswith("topic:") else text
        if number.isdigit():
            rows = {int(i) for i in np.flatnonzero(self.topics == int(number))}
            if not rows:
                raise QueryError(
                    f"topic {number} has no papers (topics run 0–{int(self.topics.max(initial=-1))})"
                )
            return f"topic {number}", rows
        j = self.find_entity(text)
        return self.entities[j], set(self.holders[j])

    def bridge(self, a: str, b: str, top: int = 10) -> list[BridgePaper]:
        """Papers linking two sides (topics or entities), best first.

        A paper's link to a side is 1 when it belongs to it, else its best entity similarity
        ``E`` to a paper of that side; the bridge score is the product of its two links, so a
        paper must reach both sides. Papers inside both sides come first.

        Raises:
            QueryError: when a side is unknown or empty.
        """
        name_a, rows_a = self.side(a)
        name_b, rows_b = self.side(b)
        if not len(self):
            return []
        links: list[tuple[np.ndarray, np.ndarray]] = []
        for rows in (rows_a, rows_b):
            members = np.array(sorted(rows), dtype=np.int64)
            sims = (self.used + self.proposed) @ sp.csr_matrix(
                (self.used[members] + self.proposed[members]).T
            )
            sims = sp.csr_matrix(sims)
            best = np.asarray(sims.max(axis=1).todense()).ravel()
            arg = np.asarray(sims.argmax(axis=1)).ravel()
            best[members] = 1.0
            links.append((best, members[arg]))
        score = np.round(links[0][0] * links[1][0], 9)
        candidates = np.flatnonzero(score > 0)
        order = candidates[np.lexsort((candidates, -score[candidates]))][:top]
        out = []
        for c in order:
            per_side: list[tuple[str, str, tuple[str, ...]]] = []
            for (_best, via), (side_name, rows) in zip(
                links, ((name_a, rows_a), (name_b, rows_b)), strict=True
            ):
                if int(c) in rows:
                    per_side.append((side_name, "member", ()))
                else:
                    other = int(via[c])
                    shared = sorted(set(self.entity_cols(int(c))) & set(self.entity_cols(other)))
                    per_side.append(
                        (side_name, self.ids[other], tuple(self.entity_canonical[j] for j in shared[:5]))
                    )
            out.append(BridgePaper(self.ids[c], self.titles[c], float(score[c]), (per_side[0], per_side[1])))
        return out


@gc_paused()  # ~10^6 live objects of the index: see kg.memory
def build_index(
    nx_graph: nx.MultiDiGraph,
    weights: RelatedWeights | None = None,
    *,
    titles: bool = True,
    saved_vectors: Mapping[str, np.ndarray] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RelatedIndex:
    """Precompute the related-work index of a graph (see :class:`RelatedIndex`).

    ``titles=False`` makes the lexical signal ``L`` read the abstracts only, as it does for
    papers without a real title (an ablation: ``kg eval related --no-titles``).
    ``saved_vectors`` (text key → vector, :func:`saved_encoder_vectors`) spares the encoder the
    texts an earlier index of the graph already encoded; ``progress(done, total)`` follows it.

    >>> import networkx as nx
    >>> g = nx.MultiDiGraph()
    >>> for p in ("a", "b"):
    ...     g.add_node(f"paper:{p}", kind="Paper", id=p, title=p.upper(), abstract="bandits", topic=0)
    ...     _ = g.add_edge(f"paper:{p}", "Method:ucb", key="uses", predicate="uses")
    >>> g.add_node("Method:ucb", kind="Method", label="UCB", canonical="ucb")
    >>> g.add_node("paper:c", kind="Paper", id="c", title="C", abstract="graphs", topic=1)
    >>> [r.id for r in build_index(g).related("a")]
    ['b']
    """
    return RelatedIndex(nx_graph, weights, titles=titles, saved_vectors=saved_vectors, progress=progress)


def _held(extraction: Extraction, matched: Mapping[int, int], weights: RelatedWeights) -> dict[int, float]:
    """The entity columns an abstract holds, each with its factor in ``C``
    (:func:`kg.related.concepts.held_factor`), read from its mentions as the graph reads a
    paper's statements: salient when proposed or of a type a paper addresses, named twice or
    more, or named first in its opening sentences (:func:`kg.concepts.links.is_salient`); its
    mention count the number of its mentions."""
    from kg.assemble import DEFAULT_PROPERTY_OF_TYPE
    from kg.concepts.links import is_salient

    predicate: dict[int, str] = {}
    count: dict[int, int] = {}
    start: dict[int, int] = {}
    for i, j in sorted(matched.items()):
        mention = extraction.mentions[i]
        if mention.role == PROPOSED:
            predicate[j] = "proposes"
        else:
            predicate.setdefault(j, DEFAULT_PROPERTY_OF_TYPE.get(mention.type, ""))
        count[j] = count.get(j, 0) + 1
        start[j] = min(start.get(j, mention.start), mention.start)
    abstract = extraction.paper.abstract
    return {
        j: held_factor(
            is_salient(abstract, {"predicate": predicate[j], "mentions": count[j], "start": start[j]}),
            count[j],
            weights.passing,
            weights.mentions,
        )
        for j in sorted(predicate)
    }
