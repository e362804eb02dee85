"""The broader/narrower hierarchy of the concepts: ``broader`` edges child → parent.

Concepts are read as terms (:mod:`kg.concepts.terms`; "contextual cascading bandit model" and
the Task "contextual cascading bandit" are one term); the hierarchy is built between terms, then
drawn between entity nodes (a term's node of the child's type when there is one). Each edge keeps
the sorted list of its sources:

- ``structure``: a term's head with fewer modifiers is broader ("stochastic linear bandit" →
  "linear bandit" → "bandit"; "policy mirror descent" → "mirror descent"; "ResNet 50" →
  "ResNet"). The nearest such sub-term becomes the parent when it is useful: a concept of the
  build, a sub-term of two or more concepts, or a phrase of the reference corpus; never a
  generic head, a stop-listed term or a word in more than a fifth of the reference abstracts.
- ``pattern``: lexico-syntactic patterns between two mentions of one abstract: "X such as Y (, Y2
  and Y3)", "X including Y", "Y and other X", "Y, a kind of X" (Hearst, 1992).
- ``taxonomy``: the curated families of ``data/taxonomy.jsonl`` (a name, a parent family,
  member patterns: ``"thompson sampling"`` a term, ``"*bandit"`` every term ending so); a term
  joins a family unless a broader term of it already does.
- ``hyponym``: the ``hyponymOf`` relations between entities, where the build has them.

Parents no paper mentions become entity nodes with ``papers`` 0 (families: ``family`` True). An
edge that would close a cycle is left out (sources in the order above). Every entity node gets
``df``, ``idf``, ``specific`` and ``depth`` (0: no parent).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from kg.concepts.stats import ConceptStats
from kg.concepts.terms import (
    DATA_DIR,
    core,
    generic_heads,
    generic_modifiers,
    generic_terms,
    term_text,
    term_words,
)
from kg.types import Extraction
from kg.vocab import ENTITY_CLASSES, entity_node

Term = tuple[str, ...]
TYPE_ORDER = {t: i for i, t in enumerate(("Method", "Task", "Concept", "Dataset", "Metric"))}
SOURCES = ("structure", "pattern", "taxonomy", "hyponym")
# Words that end a term's head: a term with them has no structural parent ("mixture of experts").
_NO_STRUCTURE = frozenset("of for in on with to and or via from by versus vs".split())
MAX_PARENT_DF_RATIO = 0.2
# A hyponymOf relation enters the hierarchy only when the relation classifier gives it at least
# this probability: its records keep relations from 0.2 on (a threshold chosen for Rel F1), but a
# broader edge links every paper under it, so it takes a relation likelier than not.
MIN_HYPONYM_CONFIDENCE = 0.5


@dataclass(frozen=True, slots=True)
class Family:
    """One family of ``data/taxonomy.jsonl``."""

    id: str
    name: str
    parent: str | None
    broad: bool
    members: tuple[str, ...]
    note: str

    @property
    def term(self) -> Term:
        return core(term_words(self.name))


def load_taxonomy(path: str | None = None) -> list[Family]:
    """The families of the curated taxonomy, in file order."""
    text = (DATA_DIR / "taxonomy.jsonl").read_text(encoding="utf-8") if path is None else open(path).read()
    out = []
    for line in text.splitlines():
        if line.strip():
            obj = json.loads(line)
            out.append(Family(obj["id"], obj["name"], obj.get("parent"), bool(obj.get("broad")),
                              tuple(obj.get("members") or ()), obj.get("note", "")))
    return out


@dataclass(slots=True)
class Hierarchy:
    """The term hierarchy of one graph.

    ``term_of``: entity node → its term; ``nodes_of``: term → its entity nodes (sorted);
    ``parents``: term → parent term → sources; ``families``: family terms (and whether broad).
    """

    term_of: dict[str, Term] = field(default_factory=dict)
    nodes_of: dict[Term, list[str]] = field(default_factory=dict)
    parents: dict[Term, dict[Term, set[str]]] = field(default_factory=lambda: defaultdict(dict))
    families: dict[Term, bool] = field(default_factory=dict)

    def ancestors(self, term: Term, max_level: int = 99) -> dict[Term, int]:
        """Every broader term of ``term`` with its distance (the shortest), up to ``max_level``."""
        out: dict[Term, int] = {}
        frontier = [term]
        for level in range(1, max_level + 1):
            nxt = []
            for t in frontier:
                for p in sorted(self.parents.get(t, ())):
                    if p not in out and p != term:
                        out[p] = level
                        nxt.append(p)
            if not nxt:
                break
            frontier = nxt
        return out

    def add(self, child: Term, parent: Term, source: str) -> bool:
        """Add the edge unless it is a loop or closes a cycle; True when added (or known)."""
        if child == parent or not child or not parent:
            return False
        if parent in self.parents.get(child, {}):
            self.parents[child][parent].add(source)
            return True
        if child in self.ancestors(parent):
            return False
        self.parents[child][parent] = {source}
        return True

    def node(self, term: Term, kind: str | None = None) -> str | None:
        """The entity node of ``term``: of type ``kind`` when there is one, else the most used."""
        nodes = self.nodes_of.get(term)
        if not nodes:
            return None
        if kind is not None:
            for node in nodes:
                if node.partition(":")[0] == kind:
                    return node
        return nodes[0]


def _allowed_parent(words: Term, stats: ConceptStats) -> bool:
    text = term_text(words)
    if text in generic_heads() or text in generic_terms() or text in generic_modifiers():
        return False
    if all(w.isdigit() or len(w) < 2 for w in words):
        return False
    return stats.df(words) <= MAX_PARENT_DF_RATIO * stats.n_docs


def _broader_in_use(child: Term, parent: Term, stats: ConceptStats) -> bool:
    """Can a sentence's "X such as Y" (or a hyponymOf relation) make ``parent`` broader than
    ``child``: only when the reference corpus names the parent in at least as many abstracts as
    the child, as a broader term is named wherever its narrower ones are and more. This keeps a
    pattern read backwards ("reinforcement learning such as LLM alignment") and one-off
    descriptions ("support vector machines, a kind of classification models with margins") from
    piling parents onto common concepts across a large corpus."""
    return stats.df(parent) >= stats.df(child)


def _structural_candidates(term: Term) -> list[Term]:
    if len(term) < 2 or any(w in _NO_STRUCTURE for w in term):
        return []
    if term[-1].isdigit():  # a version of a named model: "resnet 50" → "resnet"
        return [term[:-1]] if not term[-2].isdigit() else []
    return [term[i:] for i in range(1, len(term))]


def build_hierarchy(
    g: nx.MultiDiGraph,
    stats: ConceptStats,
    extractions: Sequence[Extraction] = (),
    of_mention: Mapping[tuple[str, int], str] | None = None,
    taxonomy: Sequence[Family] | None = None,
) -> Hierarchy:
    """Add the concept hierarchy to ``g`` (module docstring) and return it.

    Args:
        g: the graph of :func:`kg.assemble.paper_graph` (entity nodes with ``canonical``).
        stats: the reference-corpus statistics.
        extractions: the records, for the lexico-syntactic patterns (none: no pattern edges).
        of_mention: ``(paper id, mention index)`` → entity node (:class:`kg.resolve.Resolution`).
        taxonomy: the families (default: ``data/taxonomy.jsonl``).
    """
    h = Hierarchy()
    entity_nodes = [n for n, d in g.nodes(data=True) if d.get("kind") in ENTITY_CLASSES]
    raw = {n: term_words(str(g.nodes[n].get("canonical") or g.nodes[n].get("label") or ""))
           for n in entity_nodes}
    known = frozenset(term_text(t) for t in raw.values())
    nodes_of: dict[Term, list[str]] = defaultdict(list)
    for node in entity_nodes:
        term = core(raw[node], known)
        h.term_of[node] = term
        nodes_of[term].append(node)
    families = load_taxonomy() if taxonomy is None else list(taxonomy)
    family_terms = {f.id: f.term for f in families}
    created: dict[Term, tuple[str, str, bool]] = {}  # term → (type, label, family) of a new node
    for fam in families:
        h.families[fam.term] = fam.broad
        if fam.term not in nodes_of:
            created[fam.term] = ("Method", fam.name, True)

    # structure
    suffix_count: dict[Term, int] = defaultdict(int)
    for term in nodes_of:
        for cand in _structural_candidates(term):
            suffix_count[cand] += 1
    work = deque(sorted(nodes_of))
    seen: set[Term] = set(work)
    child_types: dict[Term, list[str]] = defaultdict(list)
    while work:
        term = work.popleft()
        for cand in _structural_candidates(term):
            useful = cand in nodes_of or cand in created or suffix_count[cand] >= 2 or stats.df(cand) >= 3
            if not useful or not _allowed_parent(cand, stats):
                continue
            if h.add(term, cand, "structure"):
                for node in nodes_of.get(term, ()):
                    child_types[cand].append(node.partition(":")[0])
                if cand not in seen:
                    seen.add(cand)
                    work.append(cand)
            break
    for term in sorted(seen - set(nodes_of) - set(created)):
        types = child_types.get(term) or ["Concept"]
        kind = min(set(types), key=lambda t: (-types.count(t), TYPE_ORDER[t]))
        created[term] = (kind, term_text(term), False)

    # taxonomy: the family tree
    for fam in families:
        if fam.parent and fam.parent in family_terms:
            h.add(fam.term, family_terms[fam.parent], "taxonomy")
    # hyponymOf relations the classifier holds likelier than not
    for u, v, key, conf in sorted(g.edges(keys=True, data="confidence")):
        if key == "hyponymOf" and (conf or 0.0) >= MIN_HYPONYM_CONFIDENCE and u in h.term_of \
                and v in h.term_of and _allowed_parent(h.term_of[v], stats) \
                and _broader_in_use(h.term_of[u], h.term_of[v], stats):
            h.add(h.term_of[u], h.term_of[v], "hyponym")
    # patterns
    if of_mention is not None:
        for child_node, parent_node in sorted(pattern_pairs(extractions, of_mention)):
            cterm, pterm = h.term_of.get(child_node), h.term_of.get(parent_node)
            if cterm and pterm and _allowed_parent(pterm, stats) and not stats.generic(pterm) \
                    and _broader_in_use(cterm, pterm, stats):
                h.add(cterm, pterm, "pattern")
    # taxonomy: members, each term under the families its broader terms are not already under
    # member patterns by their words: a term is looked up whole and by each of its suffixes
    exact: dict[Term, set[Term]] = defaultdict(set)
    ending: dict[Term, set[Term]] = defaultdict(set)
    for fam in families:
        for p in fam.members:
            (ending if p.startswith("*") else exact)[tuple(term_words(p.lstrip("*")))].add(fam.term)
    all_terms = sorted(set(nodes_of) | set(created))
    heads = generic_heads()
    matched: dict[Term, set[Term]] = {}
    for term in all_terms:
        stripped = term
        while len(stripped) >= 2 and stripped[-1] in heads:
            stripped = stripped[:-1]
        found: set[Term] = set()
        for form in {term, stripped}:
            found |= exact.get(form, set())
            for k in range(len(form) + 1):
                found |= ending.get(form[len(form) - k:], set())
        found.discard(term)
        matched[term] = found
    for term in all_terms:
        above = h.ancestors(term)
        inherited = set().union(*(matched.get(a, set()) for a in above)) if above else set()
        for fterm in sorted(matched[term] - inherited - set(above)):
            h.add(term, fterm, "taxonomy")

    # nodes for the terms no paper mentions, then the edges between nodes
    # a term no paper mentions is kept when it is above one that a paper mentions
    in_use: set[Term] = set()
    for term in nodes_of:
        in_use.update(h.ancestors(term))
    for term in list(h.parents):
        if term not in nodes_of and term not in in_use:
            del h.parents[term]
    for term, (kind, label, _is_family) in sorted(created.items()):
        if term not in in_use:
            continue  # a family with no member and no child family here, or an unused parent
        node = entity_node(kind, label)
        if node not in g:
            g.add_node(node, kind=kind, label=label, canonical=term_text(term), aliases=[], papers=0)
        nodes_of[term].append(node)
        h.term_of[node] = term
    for fam in families:
        for node in nodes_of.get(fam.term, ()):
            g.nodes[node]["family"] = True
    def rank(n: str) -> tuple[int, int, str]:
        return (-int(g.nodes[n].get("papers", 0)), TYPE_ORDER[g.nodes[n]["kind"]], n)

    h.nodes_of = {t: sorted(ns, key=rank) for t, ns in nodes_of.items()}
    for child in sorted(h.parents):
        for parent, sources in sorted(h.parents[child].items()):
            for u in h.nodes_of.get(child, ()):
                v = h.node(parent, g.nodes[u]["kind"])
                if v is None or v == u:
                    continue
                old = set(g.edges[u, v, "broader"]["sources"]) if g.has_edge(u, v, "broader") else set()
                g.add_edge(u, v, key="broader", predicate="broader", sources=sorted(old | sources))
    _annotate(g, h, stats)
    return h


def _annotate(g: nx.MultiDiGraph, h: Hierarchy, stats: ConceptStats) -> None:
    depth: dict[Term, int] = {}

    def depth_of(term: Term, trail: frozenset[Term] = frozenset()) -> int:
        if term not in depth:
            ps = [p for p in h.parents.get(term, ()) if p not in trail]
            depth[term] = 1 + max(depth_of(p, trail | {term}) for p in ps) if ps else 0
        return depth[term]

    for node, term in h.term_of.items():
        d: dict[str, Any] = g.nodes[node]
        family_df = stats.df(term_words(str(d.get("label")))) if term in h.families else 0
        d["df"] = max(stats.df(term), family_df)
        d["idf"] = concept_idf(h, stats, term)
        d["specific"] = is_specific(h, stats, term)
        d["depth"] = depth_of(term)


def is_specific(h: Hierarchy, stats: ConceptStats, term: Term) -> bool:
    """May the term link two papers by itself: a family that is not broad and not in more of the
    reference abstracts than the cut for multi-word terms, else a term that is not generic."""
    if term in h.families:
        return not h.families[term] and stats.df(term) <= stats.cut.max_df_ratio * stats.n_docs
    return stats.specific(term)


def concept_idf(h: Hierarchy, stats: ConceptStats, term: Term) -> float:
    """The term's IDF in the reference corpus (a family: of its name, when that is rarer)."""
    return stats.idf(term)


_SUCH_AS = re.compile(
    r",?\s+(?:such as|including|e\.g\.,?|like|especially|particularly)\s+(?:the\s+|an?\s+)?$", re.I
)
_LIST_SEP = re.compile(r"^(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)$", re.I)
_AND_OTHER = re.compile(r"^,?\s+(?:and|or)\s+other\s+$", re.I)
_KIND_OF = re.compile(
    r"^,\s+(?:a|an|one)\s+(?:kind|type|class|family|form|variant|instance|special case)\s+of\s+$", re.I
)


def pattern_pairs(
    extractions: Sequence[Extraction], of_mention: Mapping[tuple[str, int], str]
) -> set[tuple[str, str]]:
    """``(narrower node, broader node)`` pairs read from Hearst patterns between two mentions.

    >>> from kg.types import Paper, Mention, Extraction
    >>> text = "bandit algorithms such as Thompson sampling and UCB work."
    >>> ms = (Mention("Method", "bandit algorithms", 0, 17, ""),
    ...       Mention("Method", "Thompson sampling", 26, 43, ""), Mention("Method", "UCB", 48, 51, ""))
    >>> ext = Extraction(Paper("p", "t", text), ms)
    >>> sorted(pattern_pairs([ext], {("p", 0): "B", ("p", 1): "T", ("p", 2): "U"}))
    [('T', 'B'), ('U', 'B')]
    """
    out: set[tuple[str, str]] = set()
    for ext in extractions:
        text = ext.paper.abstract
        spans = sorted((m.start, m.end, of_mention[(ext.paper.id, i)]) for i, m in enumerate(ext.mentions)
                       if (ext.paper.id, i) in of_mention)
        for k, (_s, end, node) in enumerate(spans):
            if k + 1 >= len(spans):
                break
            nstart, nend, nnode = spans[k + 1]
            between = text[end:nstart] if nstart >= end else ""
            if len(between) > 40:
                continue
            if _SUCH_AS.match(between):
                out.add((nnode, node))
                j, last_end = k + 1, nend
                while j + 1 < len(spans) and _LIST_SEP.match(text[last_end : spans[j + 1][0]]):
                    j += 1
                    out.add((spans[j][2], node))
                    last_end = spans[j][1]
            elif _AND_OTHER.match(between) or _KIND_OF.match(between):
                out.add((node, nnode))
    return {(c, p) for c, p in out if c != p}
