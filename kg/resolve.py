"""Mentions → canonical entities across papers: one node per (type, canonical name).

A mention's canonical name comes from its extractor (``Mention.canonical``, computed with
:mod:`extractors.canonical` by the entity extractor) or, when empty, from
:func:`canonicalize`. Resolution then merges acronyms with their long forms across papers:

1. Definitions: a mention immediately followed by ``(ACR)`` in its abstract, where ``ACR``
   abbreviates the mention (Schwartz–Hearst: same first letter, letters in order), defines
   ``ACR`` as that long form. Votes over the corpus pick one long form per (type, acronym).
2. Undefined acronyms: an acronym never defined anywhere whose letters are exactly the
   initials of ONE long-form entity of the same type (``SGD`` ↔ ``stochastic gradient
   descent``) is merged with it; with two candidates it stays on its own (ambiguous).
3. Near-variants (:mod:`kg.concepts.merge`): the same words up to plural and spacing, or a
   name and the same name with a generic head ("phased elimination algorithm" ≡ "phased
   elimination") when the shorter is an entity of the same type.

The merged entity keeps the canonical name of its most used long form (by mentions: "principal
component analysis" over one paper's "principle component analysis"), that form's most frequent
surface form as label, and every other surface form (acronyms included) as an alias. Bound quantities are
resolved as ``Metric`` names the same way, so a bound links to the Metric entity a paper's
text also mentions.
"""

from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from kg.concepts.merge import variant_merges
from kg.types import Entity, Extraction
from kg.vocab import entity_node, slug

_WS = re.compile(r"\s+")
_DASHES = re.compile(r"[\u2010-\u2015\u2212]")
_DETERMINERS = re.compile(r"^(?:the|a|an|our|their|its|this|these|those)\s+", re.IGNORECASE)
_ACRONYM = re.compile(r"^[A-Za-z][A-Za-z0-9\-]{0,11}$")
_PAREN_AFTER = re.compile(r"\s*\(([^()]{1,16})\)")
_WORD = re.compile(r"[A-Za-z0-9]+")


def _fallback_canonicalize(text: str, entity_type: str) -> str:
    """Case/space/hyphen/determiner folding, used when :mod:`extractors.canonical` is absent."""
    out = _WS.sub(" ", _DASHES.sub("-", text)).strip()
    out = _DETERMINERS.sub("", out)
    upper = sum(c.isupper() for c in out)
    # Keep coinages and acronyms (BDC-Merge, GPT-2, SGD) as written; fold ordinary words.
    if upper >= 2 and " " not in out:
        return out
    return out.lower()


def _load_canonicalize() -> Callable[[str, str], str]:
    try:
        from extractors.canonical import canonicalize  # the entity engineer's rules and aliases

        canonicalize("stochastic gradient descent", "Method")  # its alias data must load too
    except (ImportError, OSError):
        return _fallback_canonicalize
    return canonicalize  # type: ignore[no-any-return]


canonicalize: Callable[[str, str], str] = _load_canonicalize()


@functools.lru_cache(maxsize=1 << 18)  # asked ~10^6 times of ~3x10^5 names on 22k papers
def is_acronym(text: str) -> bool:
    """True for a short token with at least two capitals and no space (``SGD``, ``GPT-2``, ``ViT``).

    >>> is_acronym("SGD"), is_acronym("Adam"), is_acronym("stochastic gradient descent")
    (True, False, False)
    """
    return bool(_ACRONYM.match(text)) and sum(c.isupper() for c in text) >= 2


def abbreviates(short: str, long: str) -> bool:
    """Schwartz–Hearst test: does ``short`` abbreviate ``long``?

    The first letters agree and every letter/digit of ``short`` occurs in ``long`` in order,
    each one at a word start or after the previous match.

    >>> abbreviates("SGD", "stochastic gradient descent")
    True
    >>> abbreviates("BDCorr", "Brownian Distance Correlation")
    True
    >>> abbreviates("SGD", "Adam optimizer")
    False
    """
    s = [c.lower() for c in short if c.isalnum()]
    lw = long.lower()
    if not s or not lw or s[0] != lw[0]:
        return False
    i = len(lw) - 1
    # Right-to-left as in Schwartz & Hearst (2003): the first short char must start a word.
    for k in range(len(s) - 1, -1, -1):
        c = s[k]
        while i >= 0 and (lw[i] != c or (k == 0 and i > 0 and lw[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return False
        i -= 1
    return True


def initials(name: str) -> str:
    """Lower-case initials of the words of ``name`` (``stochastic gradient descent`` → ``sgd``)."""
    return "".join(w[0] for w in _WORD.findall(name.lower()))


@dataclass(frozen=True, slots=True)
class Resolution:
    """The result of resolution: the entities and how every mention maps to one.

    ``entities`` maps node id (``Method:stochastic-gradient-descent``) → :class:`Entity`, sorted
    by id; ``of_mention[(paper_id, i)]`` is the node id of the paper's i-th mention;
    ``of_quantity[(paper_id, i)]`` the Metric node id of the paper's i-th bound's quantity.
    """

    entities: dict[str, Entity]
    of_mention: dict[tuple[str, int], str]
    of_quantity: dict[tuple[str, int], str]
    by_key: dict[tuple[str, str], str]  # (type, slug of any canonical/alias) → node id

    def lookup(self, entity_type: str, name: str) -> str | None:
        """The node id of the entity of ``entity_type`` named ``name`` (canonical or alias)."""
        node = self.by_key.get((entity_type, slug(canonicalize(name, entity_type))))
        return node if node is not None else self.by_key.get((entity_type, slug(name)))


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[tuple[str, str], tuple[str, str]] = {}

    def find(self, x: tuple[str, str]) -> tuple[str, str]:
        root = x
        while self.parent.get(root, root) != root:
            root = self.parent[root]
        while self.parent.get(x, x) != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, child: tuple[str, str], root: tuple[str, str]) -> None:
        a, b = self.find(child), self.find(root)
        if a != b:
            self.parent[a] = b


def _best(counter: Counter[str]) -> str:
    """Most frequent value, ties broken by the smallest string (deterministic)."""
    if len(counter) == 1:
        return next(iter(counter))  # most counters of a corpus hold one value
    return min(counter.items(), key=lambda kv: (-kv[1], kv[0]))[0]


def resolve_entities(extractions: Sequence[Extraction]) -> Resolution:
    """Resolve every mention (and bound quantity) of ``extractions`` to a canonical entity.

    Args:
        extractions: the per-paper records, in any order (the result does not depend on it).

    Returns:
        A :class:`Resolution`.

    Example:
        >>> from kg.types import Paper, Mention, Extraction
        >>> p = Paper("p1", "t", "We use stochastic gradient descent (SGD).")
        >>> m1 = Mention("Method", "stochastic gradient descent", 7, 34, "stochastic gradient descent")
        >>> q = Paper("p2", "t", "SGD converges.")
        >>> m2 = Mention("Method", "SGD", 0, 3, "SGD")
        >>> r = resolve_entities([Extraction(p, (m1,)), Extraction(q, (m2,))])
        >>> r.of_mention[("p2", 0)]
        'Method:stochastic-gradient-descent'
    """
    ordered = sorted(extractions, key=lambda e: e.paper.id)
    # Each occurrence: (paper id, index, is_quantity, group key); counted per group on the way.
    # Hot on 22k papers (~800k mentions): slugs are memoized per distinct canonical name.
    occurrences: list[tuple[str, int, bool, tuple[str, str]]] = []
    canon_counts: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    surface_counts: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    slugs: dict[str, str] = {}

    def add(pid: str, i: int, is_q: bool, etype: str, canon: str, surface: str) -> None:
        s = slugs.get(canon)
        if s is None:
            s = slugs[canon] = slug(canon)
        if not s:
            return
        key = (etype, s)
        occurrences.append((pid, i, is_q, key))
        canon_counts[key][canon] += 1
        surface_counts[key][surface] += 1

    for ext in ordered:
        pid = ext.paper.id
        for i, mention in enumerate(ext.mentions):
            canon = mention.canonical.strip() or canonicalize(mention.text, mention.type)
            add(pid, i, False, mention.type, canon, mention.text)
        for i, bound in enumerate(ext.bounds):
            if bound.quantity and bound.quantity.strip():
                q = bound.quantity.strip()
                add(pid, i, True, "Metric", canonicalize(q, "Metric"), q)

    definitions = _acronym_definitions(ordered)
    uf = _UnionFind()
    defined: set[tuple[str, str]] = set()
    for (etype, acr_slug), votes in sorted(definitions.items()):
        key = (etype, acr_slug)
        long_slug = _best(votes)
        if key in canon_counts and (etype, long_slug) in canon_counts and long_slug != acr_slug:
            uf.union(key, (etype, long_slug))
            defined.add(key)
    # Undefined acronyms: merge when exactly one long form of the type has those initials.
    by_initials: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    best_canon = {key: _best(counts) for key, counts in canon_counts.items()}
    for key, canon in best_canon.items():
        if not is_acronym(canon) and len(_WORD.findall(canon)) >= 2:
            by_initials[(key[0], initials(canon))].append(key)
    for key in sorted(canon_counts):
        if key in defined:
            continue
        canon = best_canon[key]
        if not is_acronym(canon) and not is_acronym(_best(surface_counts[key])):
            continue
        letters = "".join(c for c in canon.lower() if c.isalpha())
        candidates = by_initials.get((key[0], letters), [])
        if len(candidates) == 1 and candidates[0] != key:
            uf.union(key, candidates[0])
    # Near-variants of one name: every word's plural, spacing, a generic head (kg/concepts/merge.py).
    counts = {key: sum(c.values()) for key, c in canon_counts.items()}
    for key, rep in sorted(variant_merges(best_canon, counts, {key: key[0] for key in canon_counts}).items()):
        uf.union(key, rep)

    # Build entities per root group.
    members: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for key in canon_counts:
        members[uf.find(key)].append(key)
    entities: dict[str, Entity] = {}
    node_of_key: dict[tuple[str, str], str] = {}
    by_key: dict[tuple[str, str], str] = {}
    for root in sorted(members):
        etype = root[0]
        group = members[root]
        # Named after its most used long form, whichever key the unions made the root.
        rep = root if len(group) == 1 else min(
            [k for k in group if not is_acronym(best_canon[k])] or group, key=lambda k: (-counts[k], k))
        canonical = best_canon[rep]
        node = entity_node(etype, canonical)
        # Most groups hold one key: its counts are read as they are, not copied (22k papers: 170k
        # groups, 300k names).
        if len(group) == 1:
            surfaces, names = surface_counts[root], canon_counts[root]
        else:
            surfaces, names = Counter(), Counter()
            for key in group:
                surfaces.update(surface_counts[key])
                names.update(canon_counts[key])
        # Display label: the most frequent surface form of the group, a spelled-out form before
        # an acronym on a tie ("stochastic gradient descent" over "SGD").
        root_surfaces = surface_counts[rep]
        if len(root_surfaces) == 1:
            label = next(iter(root_surfaces))
        else:
            label = min(root_surfaces.items(), key=lambda kv: (-kv[1], is_acronym(kv[0]), kv[0]))[0]
        aliases = tuple(sorted((surfaces.keys() | names.keys()) - {label, canonical}))
        entities[node] = Entity(key=node, type=etype, canonical=canonical, label=label, aliases=aliases)
        for key in group:
            node_of_key[key] = node
            by_key[key] = node
        for name in (*surfaces, *names):
            s = slugs.get(name)
            if s is None:
                s = slugs[name] = slug(name)
            by_key.setdefault((etype, s), node)

    of_mention: dict[tuple[str, int], str] = {}
    of_quantity: dict[tuple[str, int], str] = {}
    for pid, i, is_q, key in occurrences:
        (of_quantity if is_q else of_mention)[(pid, i)] = node_of_key[key]
    return Resolution(
        entities=dict(sorted(entities.items())),
        of_mention=of_mention,
        of_quantity=of_quantity,
        by_key=by_key,
    )


def _acronym_definitions(extractions: Iterable[Extraction]) -> dict[tuple[str, str], Counter[str]]:
    """Votes ``(type, slug(acronym)) → Counter(slug(long canonical))`` from "long form (ACR)" text."""
    votes: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for ext in extractions:
        abstract = ext.paper.abstract
        for mention in ext.mentions:
            if is_acronym(mention.text):
                continue
            match = _PAREN_AFTER.match(abstract, mention.end)
            if not match:
                continue
            short = match.group(1).strip()
            if not is_acronym(short) or not abbreviates(short, mention.text):
                continue
            long_canon = mention.canonical.strip() or canonicalize(mention.text, mention.type)
            short_canon = canonicalize(short, mention.type)
            votes[(mention.type, slug(short_canon))][slug(long_canon)] += 1
            if slug(short) != slug(short_canon):
                votes[(mention.type, slug(short))][slug(long_canon)] += 1
    return votes
