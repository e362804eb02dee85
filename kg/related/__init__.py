"""Related-work discovery that explains itself: "what should I read next, and why?"

Every score is computed from the graph and comes with the evidence that produced it. For a
query paper ``q`` and a candidate ``c`` (both papers of the graph, or ``q`` an abstract read on
the fly)::

    score(q, c) = w.entity  * E(q, c) / s_E     shared entities, by rarity, type and role
                + w.concept * C(q, c) / s_C     shared concepts and broader concepts, by IDF and level
                + w.terms   * W(q, c) / s_W     entities that share words, by rarity and type
                + w.bound   * B(q, c) / s_B     shared bound shapes
                + w.topic   * [topic(q) == topic(c)]
                + w.lexical * L(q, c) / s_L     TF-IDF cosine of the titles and abstracts
                + w.semantic * S(q, c) / s_S    latent semantic cosine of the same texts
                + w.encoder  * N(q, c) / s_N    sentence-encoder cosine of the same texts

with the defaults ``w.entity = 0.1, w.concept = 0.1, w.terms = 0.25, w.bound = 0.1, w.topic = 0,
w.lexical = 1, w.semantic = 0.25, w.encoder = 3`` (:class:`RelatedWeights` says why and how they
were chosen).

**Scales** ``s``. The signals are cosines of very different vectors: two papers' entity-word
vectors (a dozen words) meet far more often, and far higher, than their abstracts' TF-IDF vectors
(hundreds of words and word pairs). Each signal is therefore divided by its scale, the value of a
typical paper's best match under that signal: the median, over the papers that have the signal
at all, of their highest value with any other paper (computed once when the index is built, on
an evenly spaced sample of at most 1,000 papers). A signal of 1 is "as similar as a typical best
match", so the weights say how much each kind of evidence counts, whatever its raw range in this
graph. ``Related.signals`` reports the signals in these units, so ``score = Σ w · signals``.

**Entities** ``E``. Each paper is a vector over the entities it holds (its paper→entity edges).
Entry ``x_p[e] = w.types[type(e)] * idf(e)`` with ``idf(e) = ln((N + 1) / (df(e) + 1))``
(``N`` papers, ``df`` papers holding ``e``): a rare named Method outweighs a common Concept, and
an entity every paper has weighs nothing. Vectors are L2-normalized, and each shared entity adds
``x_q[e] * x_c[e] * role(q, c, e)`` where ``role`` is 1 when both papers use ``e``,
``w.proposed_used`` when one proposes what the other uses (builds on it) and
``w.both_proposed`` when both propose it (competing claims to the same thing). Without roles
``E`` is the cosine of the two vectors.

**Concepts** ``C`` (:mod:`kg.related.concepts`). The graph's entities are its concepts, and its
``broader`` edges a hierarchy ("stochastic linear bandit" → "linear bandit" → "bandit
algorithms"). Each paper is a vector over the concepts it holds and their parents and
grandparents, an entry ``type weight × idf × w.broader ** level`` (``level`` 0 for a held
concept, 1 for its parent, 2 for a grandparent;
``idf`` the node's reference-corpus ``idf`` when the graph has one; a concept the graph marks not
``specific`` counts ``w.generic`` of that; one held in passing ``w.passing``; one named ``m`` times
``1 + w.mentions · ln m`` times as much). ``C`` is the cosine: a shared leaf weighs more than a
shared parent, which weighs more than a shared grandparent. The explanation names the shared concepts
carrying ``C`` at the level they meet ("both use Thompson sampling"; "both are bandit
algorithms"), a shared concept standing for its ancestors.

**Entity words** ``W``. Extracted entities are often long and specific ("stochastic linear
bandit", "generalized linear contextual bandit") and rarely identical across papers, yet their
words say the papers meet on "linear bandit". Each entity contributes the words and word pairs
of its canonical name (and of plain-text aliases such as the acronym "PCA"), singularized, stop
words dropped; a paper's entry for a word is the largest type weight of its entities having it,
times the word's IDF over papers. ``W`` is the cosine of these vectors; the explanation names
the entity pairs behind the strongest shared words ("similar: generalized linear contextual
bandit ≈ stochastic linear bandit"). Generic heads ("framework", "model") count only in pairs.

**Bounds** ``B``. Each claimed bound (``Bound`` nodes) yields shape features: "a bound" (every
bound has it: two papers claiming bounds on different quantities still meet there, weakly),
``(quantity, side)`` ("a regret upper bound") and ``(quantity, side, variable, exponent)`` ("a
regret upper bound in √T"), where the exponent of each variable is read off the bound's plain
expression by :func:`dependence` (``d sqrt(T log T)`` → ``d: 1, T: 1/2 · log``). Tight and
order-of bounds count as both sides. The quantity is the one the bound rules name, without the
qualifiers they read ("expected regret" and "Nash regret" bounds are regret bounds:
:func:`extractors.bounds.named_quantity`). Features are IDF-weighted and L2-normalized like
entities; ``B`` is their cosine. The explanation also says when one paper's upper bound has a
smaller exponent in a shared variable than the other's (it improves that dependence).

**Topic** is the community id the build assigns (``topic`` on paper nodes; weight 0 by default,
see :class:`RelatedWeights`, but always named in the explanation).

**Lexical** ``L`` is the cosine of TF-IDF vectors (:func:`lexical_matrix`) of each paper's title,
when it has a real one (not derived from the abstract), followed by its abstract. It counts words
and adjacent word pairs ("stochastic block", "matrix completion", "imitation learning" say more
than their words apart) that occur in at least two papers, with sublinear term frequency and English
stop words removed; LaTeX commands and PDF-extraction debris ("mathbf", "varepsilon", "cid") and
tokens with digits are not words (:func:`lexical_tokens`). The explanation names the most shared
terms, a word pair standing for its words. ``kg eval related``'s baseline is deliberately *not*
this representation but the textbook one (:func:`tfidf_matrix`: abstract words, stop words,
sublinear tf), so that the comparison measures what kg adds.

**Semantic** ``S`` is the cosine (negative values count 0) of the same texts' vectors under a
latent semantic model trained once on 22,654 ML abstracts and shipped with kg
(:mod:`kg.semantic`): papers on one subject meet there even when they share few words. Its
explanation names the candidate's words, absent from the query, that lie closest to the query's
subject ("close in meaning: arms, exploration").

**Encoder** ``N`` is the cosine (negative values count 0) of the same texts' vectors under the
sentence encoder all-MiniLM-L6-v2 (:mod:`kg.encoder`, in onnxruntime, its linear layers in int8),
which was trained on pairs of related sentences and papers and so reads what an abstract is about
rather than which words it uses. ``S`` and ``N`` only order papers that share some evidence (an
entity, an entity word, a bound shape or a term): neither makes a result alone, and the
explanation names the evidence. Encoding is the one costly step of an index (about 0.02 s of CPU
per abstract), so vectors are kept in the saved index by each text's digest and reused when the
graph changes.

Weights live in :class:`RelatedWeights`; ``kg related --weights FILE.json`` overrides any of
them. Everything is precomputed once into a :class:`RelatedIndex` (sparse matrices; an entity's
papers are its column), so one query is a few sparse products over all papers (about 10 ms on
22,654 papers). :func:`write_index` saves the index beside the graph (``related-index.npz``)
so that ``kg related`` need not read ``graph.json`` nor fit TF-IDF on each call.

The package, one module per part, lower floors first: :mod:`~kg.related.weights` (the weights),
:mod:`~kg.related.shapes` (bound shapes), :mod:`~kg.related.concepts` (the concept signal),
:mod:`~kg.related.vectorizers` (the text signals'
vectors; the words they count are :mod:`kg.words`'), :mod:`~kg.related.sparse`,
:mod:`~kg.related.results` (what a query returns), :mod:`~kg.related.index` (the precomputed
index, saved and loaded), :mod:`~kg.related.explain` (the evidence behind a score),
:mod:`~kg.related.rank` (scoring and the queries), :mod:`~kg.related.store` (the index of a
build directory) and :mod:`~kg.related.queryinput` (the abstract ``kg related --text`` reads).
"""

from kg.related.index import INDEX_FORMAT, SignalIndex, paper_ids, saved_encoder_vectors
from kg.related.queryinput import read_query_text
from kg.related.rank import RelatedIndex, build_index
from kg.related.results import (
    BridgePaper,
    MethodPapers,
    Related,
    SharedConcept,
    SharedEntity,
    SimilarEntity,
    render_line,
)
from kg.related.shapes import BoundShape, bound_shape, compare_shapes, dependence, format_dependence
from kg.related.store import INDEX_FILE, load_index, write_index
from kg.related.vectorizers import lexical_matrix, paper_text, tfidf_matrix, tfidf_vectorizer
from kg.related.weights import SIGNALS, RelatedWeights
from kg.words import entity_terms, lexical_tokens

__all__ = [
    "INDEX_FILE",
    "INDEX_FORMAT",
    "SIGNALS",
    "BoundShape",
    "BridgePaper",
    "MethodPapers",
    "Related",
    "RelatedIndex",
    "RelatedWeights",
    "SharedConcept",
    "SharedEntity",
    "SignalIndex",
    "SimilarEntity",
    "bound_shape",
    "build_index",
    "compare_shapes",
    "dependence",
    "entity_terms",
    "format_dependence",
    "lexical_matrix",
    "lexical_tokens",
    "load_index",
    "paper_ids",
    "paper_text",
    "read_query_text",
    "render_line",
    "saved_encoder_vectors",
    "tfidf_matrix",
    "tfidf_vectorizer",
    "write_index",
]
