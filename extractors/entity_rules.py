"""Rule candidates for entities: pretrained-model and dataset lexicons, dataset lists, named datasets,
abbreviation forms.

Each rule has an id in ``extractors/patterns/*.jsonl`` (``pretrained.jsonl``, ``datasets.jsonl``,
``triggers.jsonl``), which the mention's extractor name carries.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache

from extractors.abbrev import Abbreviation
from extractors.canonical import is_coined, read_rules
from extractors.entity_spans import COMMON_CAPS, Candidate, occurrences
from kg.text import MATH_PLACEHOLDER


@dataclass(frozen=True, slots=True)
class NameRule:
    """A lexicon rule: its id, the type it gives, the compiled name pattern."""

    id: str
    type: str
    regex: re.Pattern[str]


# A name ends where the word ends, or before a hyphenated modifier ("PopQA-based", "GPT-2-style").
NAME_END = r"(?![\w])(?!-(?!(?:based|style|like|level|scale|sized|specific|trained|generated)\b)[\w])"
NAMED_DATASET = re.compile(
    r"(?<![\w\-])([A-Za-z0-9][\w\-.+]*[A-Za-z0-9+])\s+(?:dataset|data set|benchmark|corpus|suite|testbed)s?\b"
)
OURS_BEFORE = re.compile(
    r"\b(?:our|new|novel|introduce\w*|curate\w*|release\w*|construct\w*|collect\w*)\b", re.I
)


def name_rules(file: str) -> list[NameRule]:
    # A name ends as NAME_END says; where it may start is checked by find_names.
    return [
        NameRule(obj["id"], obj["type"], re.compile(r"(?:" + obj["regex"] + r")" + NAME_END))
        for obj in read_rules(file)
    ]


def find_names(regex: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    r"""The matches of ``regex`` that start a word: not right after a word character or a hyphen.

    The same matches as ``finditer`` of the pattern behind ``(?<![\w\-])``, at half the cost: a
    leading look-behind keeps the regex engine from skipping ahead to a possible first letter.
    """
    pos = 0
    while (m := regex.search(text, pos)) is not None:
        start = m.start()
        if start and (text[start - 1].isalnum() or text[start - 1] in "_-"):
            pos = start + 1  # no name starts here; one may start inside this match
            continue
        yield m
        pos = m.end() if m.end() > start else start + 1


@lru_cache(maxsize=1)
def triggers() -> dict[str, tuple[str, ...]]:
    return {obj["kind"]: tuple(obj["words"]) for obj in read_rules("triggers.jsonl")}


def repair_definitions(model: list[Candidate], abbrevs: list[Abbreviation]) -> list[Candidate]:
    """A model span holding "(SHORT)" but starting inside the long form starts with the long form:
    "Equation Models (SEMs)" becomes "Structural Equation Models (SEMs)"."""
    out = []
    for c in model:
        for ab in abbrevs:
            if ab.long_start < c.start < ab.long_end and c.start < ab.short_start and ab.short_end <= c.end:
                c = replace(c, start=ab.long_start)
                break
        out.append(c)
    return out


class RuleFinder:
    """The lexicon and dataset rules, read once."""

    def __init__(self) -> None:
        self.pretrained = name_rules("pretrained.jsonl")
        self.datasets = name_rules("datasets.jsonl")
        self.dataset_ctx_re = re.compile(
            r"\b(?:" + "|".join(re.escape(w) for w in triggers()["dataset_context"]) + r")\b", re.I
        )

    def lexicon_cands(self, text: str) -> Iterator[Candidate]:
        for rules, source, role in (
            (self.pretrained, "pretrained", "used"),
            (self.datasets, "dataset", None),
        ):
            for rule in rules:
                for m in find_names(rule.regex, text):
                    if m.group() == MATH_PLACEHOLDER:
                        continue
                    yield Candidate(m.start(), m.end(), rule.type, source, rule.id, role)

    def dataset_list_cands(self, text: str, sents: list[tuple[int, int]]) -> Iterator[Candidate]:
        item = r"(?:[A-Z][\w\-.+/]*|[\w\-]*\d[\w\-.]*)(?:[ \-](?:[A-Z0-9][\w\-.+/]*))*"
        list_re = re.compile(
            r"\b(?:on|including|includes|such as|namely|like|from|across|over|in)\s+(?:the\s+)?"
            r"("
            + item
            + r")((?:\s*,\s*(?:and\s+|or\s+)?"
            + item
            + r")*)(?:,?\s+(?:and|or)\s+("
            + item
            + r"))?"
        )
        for s_start, s_end in sents:
            sentence = text[s_start:s_end]
            if not self.dataset_ctx_re.search(sentence):
                continue
            for m in list_re.finditer(sentence):
                spans = [(m.start(1), m.end(1))]
                if m.group(2):
                    for sub in re.finditer(item, m.group(2)):
                        spans.append((m.start(2) + sub.start(), m.start(2) + sub.end()))
                if m.group(3):
                    spans.append((m.start(3), m.end(3)))
                if len(spans) < 2:
                    continue
                names = [sentence[a:b] for a, b in spans]
                if any(n in COMMON_CAPS or n == MATH_PLACEHOLDER or n.isdigit() for n in names):
                    continue
                for a, b in spans:
                    yield Candidate(s_start + a, s_start + b, "Dataset", "dataset_list", "dataset.list")

    def named_dataset_cands(self, text: str) -> Iterator[Candidate]:
        """A coined name right before "dataset"/"benchmark"/"corpus" ("our XShapeCorpus dataset")."""
        for m in NAMED_DATASET.finditer(text):
            if not is_coined(m.group(1)):
                continue
            ours = OURS_BEFORE.search(text, max(0, m.start() - 40), m.start())
            yield Candidate(
                m.start(1), m.end(1), "Dataset", "dataset", "dataset.named", "proposed" if ours else None
            )

    def abbrev_cands(
        self, text: str, abbrevs: list[Abbreviation], typed: list[Candidate]
    ) -> Iterator[Candidate]:
        """Long and short forms of each definition, typed by what the model or a rule found on
        either form anywhere in the text; untyped definitions are skipped. On SciERC dev, typing
        the rest by head word added 12 wrong mentions for 1 right one."""
        for ab in abbrevs:
            shorts = occurrences(text, ab.short)
            spans = [(ab.long_start, ab.long_end), *shorts]
            etype = None
            for cand in sorted(typed, key=lambda c: c.source == "model"):  # rules first
                if any(cand.start < b and a < cand.end for a, b in spans):
                    etype = cand.type
                    break
            if etype is None:
                continue
            yield Candidate(ab.long_start, ab.long_end, etype, "abbrev", "abbrev.long")
            for a, b in shorts:
                yield Candidate(a, b, etype, "abbrev", "abbrev.short")
