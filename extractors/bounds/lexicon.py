"""The bounds vocabulary, read once from the rule data in ``extractors/patterns/``.

Every word, phrase and command the rules look for is data, each with an id and a comment or
example:

* ``bounds_notation.jsonl``: asymptotic heads (``O``, ``\\Omega``, ``\\tilde O`` …) and the
  relations that bound (``\\le``, ``\\sim`` …), each with its notation and kind;
* ``bounds_cues.jsonl``: cue phrases by role (earlier work, this paper, tight, order, condition,
  not a bound …) and by where they stand (before the formula, after it, in its sentence);
* ``bounds_quantities.jsonl``: phrases that name a bounded quantity, mapped to its name in the
  controlled vocabulary (``quantities.jsonl``);
* ``bounds_verbal.jsonl``: formula-free claims ("linear convergence rate");
* ``bounds_words.jsonl`` and ``bounds_latex.jsonl``: the word lists and LaTeX command lists the
  rules read (function words that end a noun phrase, verbs of improving, sizing commands …).

:func:`lexicon` gives them as one frozen :class:`Lexicon`; a list's id ``words.not-modifiers`` is
the field ``not_modifiers``.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from extractors.bounds.quantities import load_quantities
from extractors.bounds.words import NO_PHRASES, Phrase, Phrases, phrase_words
from extractors.canonical import read_rules
from kg.errors import ConfigError

_LIST_FILES = ("bounds_words.jsonl", "bounds_latex.jsonl")
_SHAPES = ("words", "phrases", "prefixes", "suffixes", "map", "chars")


@dataclass(frozen=True, slots=True)
class Lexicon:
    """The rule tables and word lists of the bounds extractor (see the module docstring)."""

    heads: dict[str, tuple[str, str, bool, str]]  # head -> (notation, kind, soft, rule id)
    relations: dict[str, tuple[str, str, str]]  # expr relation -> (notation, kind, rule id)
    cues: dict[tuple[str, str], Phrases]  # (role, where) -> phrases
    quantities: Phrases
    quantity_of: dict[Phrase, tuple[str, str]]  # phrase -> (quantity, rule id)
    after_only: frozenset[Phrase]  # phrases that name a quantity only right after a formula
    adjacent_only: frozenset[Phrase]  # ... only right after or at most three words before
    name_only: frozenset[Phrase]  # phrases that name a quantity but never make a formula a claim
    sentence_first: frozenset[Phrase]  # "rate": the rate of what the sentence names, if it names one
    verbal: Phrases
    verbal_of: dict[Phrase, tuple[str, str | None, str]]  # phrase -> (kind, quantity, rule id)
    vague_ids: frozenset[str]  # rule ids of the sentence_first phrases: a quantity that names nothing
    vague_complexity: str  # what a lone "complexity" names, which an earlier one specifies
    families: dict[str, str]  # quantity name -> its family ("expected regret" -> "regret"), else itself
    # bounds_words.jsonl: sentences and clauses
    sentence_abbreviations: frozenset[str]
    condition_fillers: frozenset[str]
    regime_cues: frozenset[Phrase]
    clause_openers: frozenset[str]
    main_clause_openers: frozenset[str]
    contrasts: frozenset[str]
    enumeration_later_items: frozenset[str]
    # what is not a bound
    improve_verbs: tuple[str, ...]
    bounding_participles: frozenset[str]
    hedge_adverbs: frozenset[str]
    unattainable: frozenset[str]
    impossible: frozenset[str]
    insufficient: frozenset[Phrase]
    resource_nouns: frozenset[str]
    # kind and tightness
    referring: frozenset[str]
    result_nouns: frozenset[str]
    known: frozenset[str]
    # quantity: phrases and modifiers
    not_modifiers: frozenset[str]
    open_heads: dict[str, str]
    not_noun_modifiers: frozenset[str]
    bound_describing: frozenset[str]
    describing_suffixes: frozenset[str]
    adjective_endings: tuple[str, ...]
    modified_nouns: frozenset[str]
    rate_qualifiers: frozenset[str]
    rate_nouns: frozenset[str]
    vague_heads: frozenset[str]
    per_unit_heads: frozenset[str]
    rate_quantities: frozenset[str]
    expectable: frozenset[str]
    class_nouns: frozenset[str]
    class_adjectives: frozenset[str]
    algorithm_adjectives: frozenset[str]
    sized_nouns: frozenset[str]
    # quantity: counted resources
    not_plural: tuple[str, ...]
    not_counted: frozenset[str]
    noun_plural_suffixes: tuple[str, ...]
    verbs_in_s: frozenset[str]
    clause_verbs: frozenset[str]
    defining: frozenset[str]
    defining_fillers: frozenset[str]
    memory_units: frozenset[str]
    memory_words: frozenset[str]
    bit_resources: dict[str, str]
    measure_links: frozenset[str]
    resource_verbs: frozenset[str]
    at_most_least: frozenset[Phrase]
    growth_prefixes: frozenset[str]
    growth_words: frozenset[str]
    compute_verbs: frozenset[str]
    oracle_words: frozenset[str]
    oracle_counts: frozenset[str]
    oracle_names: frozenset[str]
    gradient_words: frozenset[str]
    oracle_only_counts: frozenset[str]
    # quantity: predicates and subjects
    bound_nouns: frozenset[str]
    bound_on_fillers: frozenset[str]
    requirement_nouns: frozenset[str]
    bound_sides: frozenset[str]
    rate_verbs: frozenset[str]
    sizing_lemmas: frozenset[str]
    subject_skip: frozenset[str]
    setting_nouns: frozenset[str]
    # attribution
    suffer_claims: frozenset[str]
    reaching_participles: frozenset[str]
    contrast_openers: frozenset[Phrase]
    negations: frozenset[str]
    comment_adverbs: frozenset[str]
    comparison_ends: frozenset[str]
    adversative_openers: frozenset[str]
    attain_verbs: tuple[str, ...]
    known_fillers: frozenset[str]
    from_fillers: frozenset[str]
    to_fillers: frozenset[str]
    improving_lemmas: frozenset[str]
    reducing_lemmas: frozenset[str]
    given_openers: frozenset[str]
    participle_endings: tuple[str, ...]
    own_marks: frozenset[str]
    introducing: frozenset[str]
    we: frozenset[str]
    paper_nouns: frozenset[str]
    # subject
    method_nouns: frozenset[str]
    ordinals: frozenset[str]
    counts: frozenset[str]
    no_subject: frozenset[str]
    # bounds_latex.jsonl
    font_wrappers: frozenset[str]
    soft_wrappers: frozenset[str]
    head_skip: frozenset[str]
    char_heads: frozenset[str]
    command_heads: frozenset[str]
    star_commands: frozenset[str]
    constants: frozenset[str]
    space_names: frozenset[str]
    group_names: frozenset[str]
    distribution_prefixes: tuple[str, ...]
    quantity_symbols: tuple[str, ...]
    math_words: frozenset[str]
    membership_relations: frozenset[str]
    ignored_relations: frozenset[str]
    draw_relations: frozenset[str]
    text_commands: frozenset[str]
    text_connectives: frozenset[str]
    text_only_commands: frozenset[str]
    separator_commands: frozenset[str]
    trim_leading: frozenset[str]
    trim_trailing: frozenset[str]
    formula_operators: tuple[str, ...]
    claim_operators: tuple[str, ...]
    cite_commands: frozenset[str]
    bare_letters: frozenset[str]
    bare_words: frozenset[str]
    ocr_heads: dict[str, str]  # "0" -> "O": what an OCR printed for a head
    bare_head: re.Pattern[str]  # a head and its parenthesis, or a head command, inside a token
    sizing_before_paren: tuple[str, ...]
    ellipsis_commands: frozenset[str]
    # built from the lists above
    growth_word: re.Pattern[str]  # "nearly-linear", "polynomial"
    group_name: re.Pattern[str]  # "SO(3)", "GL(n)"
    text_only: re.Pattern[str]  # "\\textit{or}"
    enumeration: re.Pattern[str]  # ", \\ldots": a list of symbols
    memory_counts: frozenset[str]  # "number of bits", "number of words" ...
    memory_word_counts: frozenset[str]  # "number of words", "number of bytes"
    # the names of sample complexity and of the quantities under it (quantities.jsonl's broader):
    # a symbol sized under a condition ("when $n \gg d$") that counts one is a bound on it
    sample_counts: frozenset[str]

    def cue(self, role: str, where: str = "before") -> Phrases:
        """The cue phrases of ``role`` that stand ``where`` (before, after, sentence)."""
        return self.cues.get((role, where), NO_PHRASES)


_TABLE_FIELDS = frozenset(
    "heads relations cues quantities quantity_of after_only adjacent_only name_only sentence_first "
    "verbal verbal_of vague_ids vague_complexity families growth_word group_name text_only enumeration "
    "memory_counts memory_word_counts sample_counts bare_head".split()
)


def _word_lists() -> dict[str, Any]:
    """The lists of ``bounds_words.jsonl`` and ``bounds_latex.jsonl`` by field name, each in the
    shape its field reads (a frozenset, a tuple of affixes, a map)."""
    wanted = {f.name for f in dataclasses.fields(Lexicon)} - _TABLE_FIELDS
    out: dict[str, Any] = {}
    for name in _LIST_FILES:
        for row in read_rules(name):
            field = row["id"].split(".", 1)[1].replace("-", "_")
            shape = next((s for s in _SHAPES if s in row), None)
            if field not in wanted or field in out or shape is None:
                raise ConfigError(
                    f"{name}: list {row['id']!r} is unknown, repeated or has no {'/'.join(_SHAPES)}"
                )
            value = row[shape]
            if shape == "map":
                out[field] = dict(value)
            elif shape == "phrases":
                out[field] = frozenset(phrase_words(p) for p in value)
            elif shape in ("prefixes", "suffixes") or row.get("ordered"):
                out[field] = tuple(value)
            else:
                out[field] = frozenset(value)
    missing = sorted(wanted - out.keys())
    if missing:
        raise ConfigError(f"{' and '.join(_LIST_FILES)}: no list for {', '.join(missing)}")
    return out


def _alternation(words: frozenset[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    """The rule tables and word lists, read once from ``extractors/patterns/bounds_*.jsonl``.

    Raises:
        ConfigError: a rule file cannot be read, or a word list is missing or unknown.
    """
    heads: dict[str, tuple[str, str, bool, str]] = {}
    relations: dict[str, tuple[str, str, str]] = {}
    for row in read_rules("bounds_notation.jsonl"):
        if "head" in row:
            heads[row["head"]] = (row["notation"], row["kind"], bool(row.get("soft", False)), row["id"])
        else:
            relations[row["relation"]] = (row["notation"], row["kind"], row["id"])
    cue_lists: dict[tuple[str, str], list[Phrase]] = {}
    for row in read_rules("bounds_cues.jsonl"):
        cue_lists.setdefault((row["role"], row["where"]), []).append(phrase_words(row["phrase"]))
    rows = read_rules("bounds_quantities.jsonl")
    quantity_of = {phrase_words(r["phrase"]): (r["quantity"], r["id"]) for r in rows}
    for phrase, value in list(quantity_of.items()):
        # "iteration-complexity", "sample-size": a two-word phrase hyphenated is one word
        if len(phrase) == 2:
            quantity_of.setdefault(("-".join(phrase),), value)
    sentence_first = frozenset(phrase_words(r["phrase"]) for r in rows if r.get("sentence_first"))
    families = {r["quantity"].lower(): r["quantity"].lower() for r in rows}
    families.update((r["quantity"].lower(), r["family"].lower()) for r in rows if "family" in r)
    verbal_of = {
        phrase_words(r["phrase"]): (r["kind"], r.get("quantity"), r["id"])
        for r in read_rules("bounds_verbal.jsonl")
    }
    lists = _word_lists()
    growth = rf"(?:(?:{_alternation(lists['growth_prefixes'])})-?)?(?:{_alternation(lists['growth_words'])})"
    return Lexicon(
        heads=heads,
        relations=relations,
        cues={key: Phrases(v) for key, v in cue_lists.items()},
        quantities=Phrases(quantity_of),
        quantity_of=quantity_of,
        after_only=frozenset(phrase_words(r["phrase"]) for r in rows if r.get("after_only")),
        adjacent_only=frozenset(phrase_words(r["phrase"]) for r in rows if r.get("adjacent_only")),
        name_only=frozenset(phrase_words(r["phrase"]) for r in rows if r.get("name_only")),
        sentence_first=sentence_first,
        verbal=Phrases(verbal_of),
        verbal_of=verbal_of,
        vague_ids=frozenset(quantity_of[p][1] for p in sentence_first),
        vague_complexity=quantity_of[("complexity",)][0],
        families=families,
        growth_word=re.compile(growth),
        group_name=re.compile(rf"(?:{_alternation(lists['group_names'])})\(\w{{1,3}}\)$"),
        text_only=re.compile(rf"\\(?:{_alternation(lists['text_only_commands'])})\{{[A-Za-z][A-Za-z \-]*\}}"),
        enumeration=re.compile(rf",[\s;~]*\\(?:{_alternation(lists['ellipsis_commands'])})\b"),
        memory_counts=frozenset("number of " + u for u in lists["memory_units"]),
        memory_word_counts=frozenset("number of " + u for u in lists["memory_words"]),
        sample_counts=_names_under("sample-complexity"),
        bare_head=_bare_head(heads, lists),
        **lists,
    )


def _bare_head(heads: dict[str, tuple[str, str, bool, str]], lists: dict[str, Any]) -> re.Pattern[str]:
    """A head written outside math with its parenthesis, star, index, tilde or sizing command ("O(",
    "Omega(", "Õ^*", "O_P", "O~(", "O\\left("), or a head or wrapper command ("\\Omega",
    "\\mathcal"), anywhere in a token."""
    letters = lists["bare_words"] | frozenset(lists["bare_letters"])
    commands = frozenset(heads) | lists["font_wrappers"] | lists["soft_wrappers"]
    return re.compile(
        rf"(?:^|[^A-Za-z\\])(?:{_alternation(letters)})\s*(?:[(^*∗_~]|\\(?:left|big|Big))"
        rf"|\\(?:{_alternation(commands)})(?![a-z])"
    )


def _names_under(top: str) -> frozenset[str]:
    """The names and aliases (lower-cased) of the vocabulary entry ``top`` and of every entry
    whose chain of ``broader`` reaches it."""
    by_id = {q.id: q for q in load_quantities()}

    def reaches(qid: str | None) -> bool:
        seen = set()
        while qid is not None and qid not in seen:
            if qid == top:
                return True
            seen.add(qid)
            qid = by_id[qid].broader
        return False

    return frozenset(n.lower() for q in by_id.values() if reaches(q.id) for n in (q.name, *q.aliases))


def named_quantity(quantity: str) -> str:
    """The rule tables' quantity a quantity name ends in, without the qualifiers the extractor
    reads, and that quantity's family where the tables give one ("Nash regret" -> "regret",
    "expected cumulative regret" -> "cumulative regret", "expected regret" -> "regret"); a name
    ending in none is returned as it is (lower-cased).

    >>> named_quantity("Maximum stable learning rate")
    'learning rate'
    >>> named_quantity("expected regret"), named_quantity("teaching complexity")
    ('regret', 'teaching complexity')
    """
    words = quantity.lower().split()
    families = lexicon().families
    for i in range(len(words)):
        tail = " ".join(words[i:])
        if tail in families:
            return families[tail]
    return " ".join(words)
