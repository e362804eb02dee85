"""Why a candidate is related to a query: the evidence behind a score, as named things.

:func:`explain` turns a ranked candidate into a :class:`kg.related.results.Related`: the
entities both papers hold (and what each does with them), entities that share a word, bound
shapes, the topic, the most shared terms and the candidate's words closest in meaning.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

from kg.related.concepts import shared_concepts
from kg.related.index import QueryVectors, SignalIndex
from kg.related.results import PROPOSED, TYPE_ORDER, USED, Related, SharedEntity, SimilarEntity
from kg.related.shapes import BoundShape, compare_shapes
from kg.related.sparse import csr_row, shared_products
from kg.related.weights import SIGNALS
from kg.words import singular

# A word in at most 1 in 20 documents of the semantic model's corpus (smooth IDF ln((1+n)/(1+df))+1)
# names a subject; a commoner one ("algorithm", "bounds") does not explain a match.
_SUBJECT_IDF = math.log(20) + 1
# A shared abstract word worth naming: letters only ("t_" and "2d" come from math markup).
_EXPLAINING_WORD = re.compile(r"[a-z]{3,}")


def explain(index: SignalIndex, q: QueryVectors, c: int, score: float, signals: dict[str, float]) -> Related:
    """The :class:`Related` of candidate row ``c`` for query ``q``, with its evidence."""
    w = index.weights
    shared: list[SharedEntity] = []
    q_roles: dict[int, str] = {}
    for mat, role in ((q.used, USED), (q.proposed, PROPOSED)):
        for j, x in zip(mat.indices, mat.data, strict=True):
            if x > 0:
                q_roles[int(j)] = role
    # Raw CSR rows: slicing a scipy row costs more than the whole explanation otherwise.
    c_used, c_prop = csr_row(index.used, c), csr_row(index.proposed, c)
    c_weight = dict(zip(c_used[0].tolist(), c_used[1].tolist(), strict=True))
    c_roles = {j: USED for j in c_weight}
    for j, x in zip(c_prop[0].tolist(), c_prop[1].tolist(), strict=True):
        c_weight[j] = x
        c_roles[j] = PROPOSED
    q_weight = {
        int(j): float(x)
        for mat in (q.used, q.proposed)
        for j, x in zip(mat.indices, mat.data, strict=True)
    }
    for j in sorted(set(q_roles) & set(c_roles)):
        roles = (q_roles[j], c_roles[j])
        factor = (
            w.both_proposed
            if roles == (PROPOSED, PROPOSED)
            else w.proposed_used
            if PROPOSED in roles
            else 1.0
        )
        contribution = q_weight[j] * c_weight[j] * factor * w.entity / index.scales[0]
        if contribution <= 0:
            continue
        shared.append(
            SharedEntity(
                index.entity_type[j], index.entity_canonical[j], index.entity_label[j], roles, contribution
            )
        )
    rank = {t: i for i, t in enumerate(TYPE_ORDER)}
    shared.sort(key=lambda s: (rank.get(s.type, 9), -s.contribution, s.canonical))
    similar = similar_entities(index, q, c, {s.canonical for s in shared}) if w.terms > 0 else []
    bounds = _bound_phrases(q.shapes, index.shapes[c]) if w.bound > 0 else []
    topic = int(index.topics[c]) if q.topic >= 0 and index.topics[c] == q.topic else None
    terms: tuple[str, ...] = ()
    if w.lexical > 0 and q.lexical.shape[1]:
        shared_terms = sorted(
            shared_products((q.lexical.indices, q.lexical.data), csr_row(index.lexical, c)),
            key=lambda x: (-x[0], index.terms[x[1]]),
        )
        terms = _explaining_terms(str(index.terms[j]) for _x, j in shared_terms)
    close = close_words(index, q, c, terms) if w.semantic > 0 else ()
    concepts = (
        shared_concepts(
            index.concept_space,
            q.concept_levels,
            index.concept_space.levels(index.entity_cols(c)),
            (q.concept.indices, q.concept.data),
            csr_row(index.concepts, c),
            w.concept / index.scales[SIGNALS.index("concept")],
        )
        if w.concept > 0 and q.concept is not None
        else []
    )
    return Related(
        index.ids[c],
        index.titles[c],
        score,
        signals,
        tuple(shared),
        tuple(similar),
        tuple(bounds),
        topic,
        terms,
        close,
        tuple(concepts),
    )


def close_words(
    index: SignalIndex, q: QueryVectors, c: int, named: Sequence[str], limit: int = 3
) -> tuple[str, ...]:
    """The candidate's subject words, absent from the query, that add most to ``S``.

    ``S`` is the cosine of the two papers' projections; a candidate word's share is its weight
    in the candidate's text times the projection of that word's direction on the query's
    vector. Named are words the query does not use itself (in any number: shared words are
    ``terms``) and that are rare enough to name a subject: in at most 1 in 20 abstracts of the
    model's corpus ("bandit", "exploration"), not "algorithm" or "bounds".
    """
    if not q.semantic.any() or not index.lexical.shape[1]:
        return ()
    cols, weights = csr_row(index.lexical, c)
    model_cols = index.semantic_col[cols]
    keep = model_cols >= 0
    keep[keep] = index.semantic_idf[model_cols[keep]] >= _SUBJECT_IDF
    if not keep.any():
        return ()
    shares = weights[keep] * (index.loadings[model_cols[keep]] @ q.semantic)
    skip = {singular(str(index.terms[j])) for j in q.lexical.indices.tolist()}
    skip |= {singular(t) for phrase in named for t in phrase.split()}
    ranked = sorted(
        ((float(x), str(index.terms[j])) for x, j in zip(shares, cols[keep], strict=True) if x > 0),
        key=lambda p: (-p[0], p[1]),
    )
    out: list[str] = []
    for _x, word in ranked:
        if singular(word) not in skip:
            skip.add(singular(word))
            out.append(word)
    return tuple(out[:limit])


def similar_entities(
    index: SignalIndex, q: QueryVectors, c: int, exact: set[str], limit: int = 3
) -> list[SimilarEntity]:
    """The entity pairs behind the strongest shared entity words (not identical entities)."""
    products = shared_products((q.words.indices, q.words.data), csr_row(index.words, c))
    if not products:
        return []
    ranked = sorted(products, key=lambda x: (-x[0], index.term_names[x[1]]))
    q_cols = sorted(set(q.used.indices.tolist()) | set(q.proposed.indices.tolist()))
    q_names = q.names or tuple(
        (index.entity_type[j], index.entity_canonical[j], index.entity_terms[j]) for j in q_cols
    )
    c_names = [
        (index.entity_type[j], index.entity_canonical[j], index.entity_terms[j])
        for j in index.entity_cols(c)
    ]
    out: list[SimilarEntity] = []
    seen: set[tuple[str, str]] = set()
    rank = {t: i for i, t in enumerate(TYPE_ORDER)}
    for _x, k in ranked:
        term = index.term_names[k]
        pick = [(rank.get(t, 9), len(n), t, n) for t, n, terms in c_names if term in terms]
        mine = [(rank.get(t, 9), len(n), n) for t, n, terms in q_names if term in terms]
        if not pick or not mine:
            continue
        _r, _l, etype, name = min(pick)
        query_name = min(mine)[2]
        if name == query_name or name in exact or (query_name, name) in seen:
            continue
        seen.add((query_name, name))
        out.append(SimilarEntity(etype, name, query_name, term))
        if len(out) >= limit:
            break
    return out


def _explaining_terms(ranked: Iterable[str], limit: int = 3) -> tuple[str, ...]:
    """The strongest shared terms worth naming; a word pair stands for its words.

    >>> _explaining_terms(["block", "stochastic block", "xy", "community", "stochastic", "model"])
    ('stochastic block', 'community', 'model')
    """
    out: list[str] = []
    for term in ranked:
        words = term.split()
        if not all(_EXPLAINING_WORD.fullmatch(w) for w in words):
            continue
        if len(words) > 1:  # "stochastic block" replaces an earlier "block"
            out = [t for t in out if not set(t.split()) <= set(words)]
        if set(words) <= {w for t in out for w in t.split()}:
            continue
        out.append(term)
        if len(out) == limit:
            break
    return tuple(out)


def _bound_phrases(a: Sequence[BoundShape], b: Sequence[BoundShape], limit: int = 3) -> list[str]:
    """The bound evidence of a pair: the shared shapes first (strongest), then improvements."""
    found: dict[str, int] = {}
    for x in a:
        for y in b:
            for strength, phrase in compare_shapes(x, y):
                found[phrase] = max(found.get(phrase, 0), strength)
    if not found and a and b:
        return ["both claim bounds"]  # on different quantities: the coarsest shared shape
    shared = sorted((p for p, s in found.items() if s != 2), key=lambda p: (-found[p], p))
    # "both claim regret upper bounds" adds nothing once "… in √T" is said.
    kept = [p for p in shared if not any(o.startswith(p + " in ") for o in shared)]
    # One improvement phrase per direction: a candidate with three bounds would repeat itself.
    improvements: list[str] = []
    for prefix in ("improves the query's", "the query's"):
        first = sorted(p for p, s in found.items() if s == 2 and p.startswith(prefix))[:1]
        improvements.extend(first)
    return (kept[:2] + improvements)[:limit]
