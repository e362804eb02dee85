"""Typed entity mentions (Method, Task, Dataset, Metric, Concept) with roles and canonical names.

Two sources, merged per paper:

* **The SciERC model** (``scierc_ner``, trained by :mod:`extractors.train.scierc_ner`), added to the
  pipeline's one ``nlp`` by :func:`add_components`. It finds most mentions, with SciERC's boundary
  conventions; its ``Generic`` label ("this method") is dropped.
* **Precise rules**, each with an id in ``extractors/patterns/*.jsonl``: named new systems in a
  proposal context (role ``proposed``), pretrained models (``Method``, role ``used``), dataset lists
  and known benchmarks (``Dataset``) and abbreviation definitions (short and long form share one
  canonical name).

Merging: where a rule span overlaps a model span the rule wins, unless the model span contains it
with the same type ("the SN-VLM framework": the model's boundary, the rule's role); abbreviation
forms only fill spans the model left empty; a phrase the model typed once keeps that type at its
other occurrences; a name in a dataset list that the model takes for a metric stays a metric
("BLEU and NIST"). The one exception to spans not overlapping: a proposed method named by what it
is for ("an algorithm for learning decision trees") contains the task or concept found in it.
Within a paper one canonical name has one type (the majority) and one role.

Every mention passes the same filters: generic heads alone ("our method", "results") and math
placeholders alone are never entities; determiners, edge punctuation, unbalanced brackets, a
trailing formula and a trailing verb or adverb are trimmed. Offsets are mapped back to the original
abstract, so ``paper.abstract[m.start:m.end] == m.text``.

The pieces live beside this module, one job each: :mod:`extractors.entity_spans` (the candidate
record, trimming, generic phrases, repeats), :mod:`extractors.entity_rules` (lexicons, dataset
lists, abbreviation forms), :mod:`extractors.entity_roles` (proposed and used) and
:mod:`extractors.entity_types` (the span-type classifier); this module loads the recognizer,
merges candidates and builds the mentions.

The model's spans are then retyped by a second-stage classifier (:mod:`extractors.entity_types`,
trained on SciERC train gold spans) where it is confident (probability ≥ 0.5, chosen on dev); rule
types are kept. Retyping comes before repeats, abbreviation forms and the per-name majority, so
those inherit the new types.

Measured (``kg eval entities``): SciERC dev strict typed micro-F1 0.587, relaxed 0.703 (0.550 and
0.655 with the recognizer's own types; untyped relaxed 0.875); on the hand-written seed gold,
key-entity recall 0.645 typed / 0.874 untyped, and 16 of 17 named proposed systems carry role
``proposed``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from extractors.abbrev import Abbreviation, find_abbreviations
from extractors.base import ParsedPaper
from extractors.canonical import acronym_map, canonical_key, canonicalize
from extractors.entity_roles import RoleFinder, with_definitions
from extractors.entity_rules import RuleFinder, repair_definitions
from extractors.entity_spans import (
    Candidate,
    canonical_surface,
    is_generic,
    occurrences,
    repeats,
    sentence_bounds,
    sentence_of,
    trim,
)
from extractors.entity_types import TypeClassifier, shipped_classifier, token_bounds
from kg.errors import ConfigError
from kg.types import Mention

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

NAME = "entities.v5"
COMPONENT = "scierc_ner"
MODEL_DIR = Path(__file__).resolve().parent / "models" / COMPONENT
MODEL_EXTRACTOR = "entities.scierc_ner.v2"
# The name ``_to_mentions`` gives a proposal's object with its complement (rule proposed.complement):
# the one mention that may contain others, which the relation step reads through its parts.
NESTED_EXTRACTOR = "entities.rule.proposed.complement.v1"

# SciERC label → our type; Generic is deliberately absent (dropped).
LABEL_TO_TYPE: dict[str, str] = {
    "Method": "Method",
    "Task": "Task",
    "Material": "Dataset",
    "Metric": "Metric",
    "OtherScientificTerm": "Concept",
}
# Rules outrank the model on overlap; among rules, the more specific wins.
# Abbreviation forms rank below the model: SciERC (and a reader) take "convolutional neural networks
# (CNNs)" as one mention, so they only fill spans the model left empty.
# A proposal verb's object phrase ranks lowest: it only names what nothing else does. The object
# phrase with its complement ("nested") does not compete: it is added around what was chosen
# (``_nest``).
_PRIORITY = {
    "object": -2, "abbrev": -1, "model": 0, "dataset_list": 2, "dataset": 3, "pretrained": 3, "proposed": 4
}
_CONFIDENCE = {
    "model": 0.8,
    "abbrev": 0.85,
    "dataset_list": 0.85,
    "dataset": 0.95,
    "pretrained": 0.95,
    "proposed": 0.9,
    "object": 0.7,
    "nested": 0.7,
}


def _model_meta(model_dir: Path = MODEL_DIR) -> dict[str, Any]:
    meta_path = model_dir / "meta.json"
    try:
        return json.loads(meta_path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    except OSError as exc:
        raise ConfigError(
            f"{meta_path}: the SciERC entity model is missing ({exc.strerror}); rebuild it with "
            "`python -m extractors.train.scierc_ner`"
        ) from exc


def add_components(nlp: Language, model_dir: Path = MODEL_DIR) -> Language:
    """Add the trained SciERC recognizer to ``nlp`` (after the tagger) and drop the stock ``ner``.

    The component has its own tok2vec, so the base pipeline's components are untouched; it reads
    the base tagger's ``TAG``, which must run before it.

    Args:
        nlp: the pipeline's one spaCy ``Language`` (``en_core_web_sm`` family).
        model_dir: directory with ``meta.json`` and ``component/`` (default: the shipped model).

    Returns:
        ``nlp``, changed in place.

    Raises:
        ConfigError: the model files are missing or do not load.
    """
    if COMPONENT in nlp.pipe_names:
        return nlp
    if "ner" in nlp.pipe_names:  # OntoNotes types (PERSON, ORG …) are not ours; one less pass
        nlp.remove_pipe("ner")
    meta = _model_meta(model_dir)
    if meta.get("vectors"):
        # The recognizer's embedding reads these in-domain word vectors (the sm base pipeline has
        # none, so nothing else in it is affected; token.vector now uses them too).
        from spacy.vectors import Vectors

        try:
            nlp.vocab.vectors = Vectors().from_disk(model_dir / meta["vectors"])
        except (OSError, ValueError) as exc:
            raise ConfigError(
                f"{model_dir / meta['vectors']}: cannot load the entity vectors: {exc}"
            ) from exc
    config = {"model": meta["model"], **meta.get("config", {})}
    pipe: Any = nlp.add_pipe(meta.get("factory", "ner"), name=COMPONENT, config=config, last=True)
    try:
        pipe.from_disk(model_dir / "component", exclude=["vocab"])
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{model_dir}: cannot load the SciERC entity model: {exc}") from exc
    return nlp


def _model_cands(doc: Doc) -> Iterator[Candidate]:
    for ent in doc.ents:
        etype = LABEL_TO_TYPE.get(ent.label_)
        if etype is None:
            continue
        end = ent.end
        # "the SLE kernel matches …", "BDC-Merge consistently": a finite verb or an adverb never
        # ends a name; the model sometimes runs on.
        while end - ent.start > 1 and doc[end - 1].tag_ in ("VBZ", "VBD", "VBP", "MD", "RB", "RBR", "RBS"):
            end -= 1
        yield Candidate(ent.start_char, doc[end - 1].idx + len(doc[end - 1]), etype, "model", COMPONENT)


class EntityExtractor:
    """The ``entities`` family: model mentions merged with precise rules; see the module doc."""

    name = NAME

    def __init__(self, classifier: TypeClassifier | None = None, *, retype: bool = True) -> None:
        """Args:
        classifier: the span-type classifier (default: the shipped one).
        retype: whether model spans are retyped by it at all (``False``: the recognizer's types).
        """
        self.classifier = (classifier or shipped_classifier()) if retype else None
        self.rules = RuleFinder()
        self.roles = RoleFinder(self.rules.pretrained)

    def setup(self, nlp: Language) -> None:
        """Add the SciERC recognizer and its word vectors to the pipeline's ``nlp``."""
        add_components(nlp)

    def extract(self, parsed: ParsedPaper) -> Iterable[Mention]:
        """Mentions of ``parsed``, in text order, one per span; see the module doc."""
        doc = parsed.doc
        text = parsed.norm.text
        sents = sentence_bounds(doc)
        model = self._retype(doc, list(_model_cands(doc)))
        model += repeats(text, model)
        rules = [
            *self.rules.lexicon_cands(text),
            *self.rules.dataset_list_cands(text, sents),
            *self.rules.named_dataset_cands(text),
        ]
        # "improvements on BLEU and NIST": a list in an experiments sentence names metrics too;
        # the recognizer tells which.
        metrics = [(c.start, c.end) for c in model if c.type == "Metric"]
        rules = [
            c
            for c in rules
            if c.source != "dataset_list" or not any(a <= c.start and c.end <= b for a, b in metrics)
        ]
        proposed = list(self.roles.proposed_cands(parsed.norm, sents, doc))
        if not parsed.paper.title_derived:
            proposed.extend(self.roles.title_cands(parsed.paper.title, text))
        first = next((a for a, b in sents if self.roles.propose_re.search(text, a, b)), None)
        for c in self.roles.claim_subject_cands(doc, text):
            # Claims make a name proposed only when the paper introduces it (first used at or after
            # its first proposal sentence); a background name keeps the type, not the role.
            name = text[c.start : c.end]
            before = text[:first] if first is not None else text
            if first is None or occurrences(before, name) or occurrences(before, name + "s"):
                c = replace(c, rule="coined", role=None)
            proposed.append(c)
        abbrevs = find_abbreviations(text)
        model = repair_definitions(model, abbrevs)
        proposed.sort(key=lambda c: c.role is None)  # a name's proposed occurrence copies first
        proposed = self.roles.everywhere(text, self.roles.retype_datasets(text, proposed))
        rules.extend(with_definitions(text, proposed, abbrevs))
        rules.extend(self.rules.abbrev_cands(text, abbrevs, rules + model))
        objects = list(self.roles.object_cands(doc))
        rules.extend(c for c in objects if c.source != "nested")
        chosen = self._merge(text, doc, rules, model)
        chosen = self._nest(text, chosen, [c for c in objects if c.source == "nested"])
        return self._to_mentions(parsed, chosen, abbrevs, sents)

    def _retype(self, doc: Doc, model: list[Candidate]) -> list[Candidate]:
        """The recognizer's spans with the classifier's type where it is confident (one scoring of
        all spans of the document)."""
        if self.classifier is None or not model:
            return model
        bounds = token_bounds(doc, [(c.start, c.end) for c in model])
        types = self.classifier.retype(doc, bounds, [c.type for c in model])
        return [c if c.type == t else replace(c, type=t) for c, t in zip(model, types, strict=True)]

    def _merge(self, text: str, doc: Doc, rules: list[Candidate], model: list[Candidate]) -> list[Candidate]:
        """One candidate per span: rules by priority, then the model, then abbreviation forms.

        A model span that contains rule spans of its own type keeps the model's boundary and takes
        the rule's role ("the SN-VLM framework", "GPT-2 language model"), as SciERC would bracket it.
        """
        taken: list[Candidate] = []
        ordered = sorted(
            rules + model,
            key=lambda c: (-_PRIORITY[c.source], c.start, -(c.end - c.start)),
        )
        for cand in ordered:
            start, end = trim(text, cand.start, cand.end)
            if end <= start or is_generic(text[start:end]):
                continue
            cand = replace(cand, start=start, end=end)
            clashes = [t for t in taken if t.start < end and start < t.end]
            if not clashes:
                taken.append(cand)
            elif cand.source == "model" and all(
                t.source != "model"
                and (t.type == cand.type or t.source == "proposed")
                and start <= t.start
                and t.end <= end
                and (t.start, t.end) != (start, end)
                # "Shepherd's versatility" is about the system, not the system itself.
                and not text.startswith("'s", t.end)
                for t in clashes
            ):
                role = next((t.role for t in clashes if t.role), None)
                taken = [t for t in taken if t not in clashes]
                taken.append(replace(cand, role=role))
        return sorted(taken, key=lambda c: (c.start, c.end))

    def _nest(self, text: str, chosen: list[Candidate], nested: list[Candidate]) -> list[Candidate]:
        """The proposed phrases with their complement ("an algorithm for learning decision
        trees") beside the mentions inside them: the task or concept stays a mention of its own
        ("learning decision trees"), the phrase becomes the method the paper proposes. Not where a
        Method or a proposed name is already found in the phrase ("an extension of SARAH"), nor
        where a mention starts before it; a mention running past its end is taken in whole
        ("a framework for assessing whether large language models (LLMs)")."""
        out = list(chosen)
        for cand in nested:
            start, end = trim(text, cand.start, cand.end)
            if end <= start or is_generic(text[start:end]):
                continue
            inside = [t for t in out if t.start < end and start < t.end]
            if any(t.type == "Method" or t.role == "proposed" or t.start < start for t in inside):
                continue
            out.append(replace(cand, start=start, end=max([end, *(t.end for t in inside)])))
        return sorted(out, key=lambda c: (c.start, c.end))

    def _to_mentions(
        self,
        parsed: ParsedPaper,
        chosen: list[Candidate],
        abbrevs: list[Abbreviation],
        sents: list[tuple[int, int]],
    ) -> list[Mention]:
        text = parsed.norm.text
        abstract = parsed.paper.abstract
        acronyms: dict[str, str] = {}
        for ab in abbrevs:
            etype = next((c.type for c in chosen if c.start == ab.long_start and c.end == ab.long_end), "")
            long_form = canonical_surface(
                parsed.norm, Candidate(ab.long_start, ab.long_end, etype, "abbrev", ""), []
            )
            short_form = canonical_surface(
                parsed.norm, Candidate(ab.short_start, ab.short_end, etype, "abbrev", ""), []
            )
            acronyms.update(acronym_map([(short_form, long_form)], etype))
        roles = {id(c): self.roles.role(parsed.doc, c, parsed.norm.text) for c in chosen}
        canon = {
            id(c): canonicalize(canonical_surface(parsed.norm, c, abbrevs), c.type, acronyms) for c in chosen
        }
        # One name, one role in a paper, whatever type each occurrence was given.
        proposed = {
            canon[id(c)]
            for c in chosen
            if roles[id(c)] == "proposed" and self.roles.proposable(text[c.start : c.end])
        }
        # "the Shared-Noise Verifiable Binomial Mechanism (SN-VBM) and the … Laplace Mechanism
        # (SN-VLM)": definitions coordinated in one phrase share the role of either.
        for first, second in zip(abbrevs, abbrevs[1:], strict=False):
            between = text[first.short_end : second.long_start]
            if not re.fullmatch(r"\)?\s*(?:,|,?\s*(?:and|or))\s*(?:the\s+)?", between):
                continue
            keys = [acronyms.get(canonical_key(ab.short)) for ab in (first, second)]
            if any(k in proposed for k in keys):
                proposed.update(k for k in keys if k)
        # One name, one type in a paper: the majority type of its occurrences (rules count double).
        votes: dict[str, Counter[str]] = {}
        for c in chosen:
            votes.setdefault(canon[id(c)], Counter())[c.type] += 1 if c.source == "model" else 2
        majority = {key: max(sorted(v), key=lambda t: v[t]) for key, v in votes.items()}
        mentions = []
        for c in chosen:
            ctype = majority[canon[id(c)]] if c.source == "model" else c.type
            start, end = parsed.norm.to_original(c.start, c.end)
            s_start, s_end = parsed.norm.to_original(*sentence_of(sents, c.start))
            role = roles[id(c)]
            if canon[id(c)] in proposed:
                role = "proposed"
            elif role == "proposed":  # a bound, a rate, an analysis: shown, not proposed
                role = None
            # A paper proposes systems, models, losses and datasets; a "proposed" Concept is the
            # model's type confusion on a new name ("… Binomial Mechanism (SN-VBM)"). A Metric or
            # a Task is never the paper's proposal ("fast calibration rate").
            etype = "Method" if role == "proposed" and ctype == "Concept" else ctype
            if role == "proposed" and etype not in ("Method", "Dataset"):
                role = None
            extractor = MODEL_EXTRACTOR if c.source == "model" else f"entities.rule.{c.rule}.v1"
            mentions.append(
                Mention(
                    type=etype,
                    text=abstract[start:end],
                    start=start,
                    end=end,
                    canonical=canon[id(c)],
                    role=role,
                    confidence=_CONFIDENCE[c.source],
                    extractor=extractor,
                    sentence_start=s_start,
                    sentence_end=s_end,
                )
            )
        return mentions


def entity_extractor() -> EntityExtractor:
    """The current ``entities`` extractor (rule data read once, here)."""
    return EntityExtractor()
