"""Roles of entity mentions: what a paper proposes, and what it uses.

* **Proposed**: a coined name soon after a proposal verb whose subject is the paper ("we propose
  X", "this paper introduces X") or after a naming trigger ("called X"), and every other occurrence
  of that name; the coined subject of a result claim ("X outperforms …") when the paper introduces
  it; the object of a proposal verb whose subject is the paper.
  When nothing else names that object, the object's own noun phrase is the proposed Method if its
  head is a method noun ("we develop an experimentation framework"); when that phrase alone names
  nothing, the phrase with what follows it ("we present an algorithm for learning decision trees"),
  around the task the recognizer found in it. A Concept with a method head that the paper says it
  builds ("we design a novel reward function") is a proposed Method.
* **Not proposed**: what a paper builds on — a name the proposal reaches through a preposition or
  another verb ("we propose a bilevel extension of SARAH", "we propose MVPC, which extends the PC
  algorithm"), a "recently proposed X", a name coined in a sentence about earlier work ("coined
  LISTA, was proposed in …"); and what a paper shows rather than builds (a bound, a rate, an
  analysis: ``not_proposed_head``), or any Metric or Task.
* **Used**: a Method that is the object of a use verb ("we fine-tune Llama"); a named Dataset.

The verbs and triggers are data (``extractors/patterns/triggers.jsonl``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from extractors.abbrev import Abbreviation
from extractors.canonical import canonical_key, is_coined, load_aliases
from extractors.entity_rules import NameRule, triggers
from extractors.entity_spans import COMMON_CAPS, Candidate, is_generic, occurrences, without_math
from kg.text import MATH_PLACEHOLDER, NormalizedText

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token


def tokens_where(doc: Doc, attr: str, values: Collection[str]) -> list[Token]:
    """The tokens of ``doc`` whose ``attr`` ("POS", "DEP") is one of ``values``, in order: one array
    read, not a Token object for every token of the abstract."""
    strings = doc.vocab.strings
    wanted = np.asarray([strings[v] for v in values], dtype=np.uint64)
    return [doc[int(i)] for i in np.flatnonzero(np.isin(doc.to_array(attr), wanted))]


# A title's name before its colon: "Shepherd: …", "BDC-Merge: …" (at most four words, checked after).
TITLE_NAME = re.compile(r"\s*([^:\s][^:]{0,40}?)\s*:\s+\S")

AFTER_OBJECT = re.compile(
    r"\b(?:based on|built (?:up)?on|using|such as|including|compared (?:to|with)|than|unlike|"
    r"instead of|rather than|inspired by|on top of|extends?|extending|over)\b",
    re.I,
)
CLAIM_VERBS = frozenset(
    """outperform improve achieve reduce surpass beat enable mitigate preserve attain exceed match
    deliver scale generalize converge recover enjoy demonstrate yield obtain lift boost
    accelerate speed outpace""".split()
)
DATASET_APPOSITION = re.compile(
    r"\s*(?:[,:(]\s*|\s+)(?:a|an|the)?\s*(?:[\w\-]+\s+){0,4}?"
    r"(?:dataset|data set|benchmark|corpus|suite|collection|testbed|leaderboard)s?\b",
    re.I,
)
# A sentence about earlier work: "X, coined LISTA, was proposed in [3]", "has been introduced by".
BACKGROUND = re.compile(
    r"\b(?:was|were|has been|have been|had been)\s+(?:\w+\s+)?(?:proposed|introduced|developed|presented|"
    r"suggested|designed)\b|\\cite|\bet al\b",
    re.I,
)
# Kinds of analysis a paper carries out, not analysis methods: "convergence analysis".
ANALYSIS_KINDS = frozenset(
    "convergence complexity regret sensitivity ablation error stability risk case".split()
)
HEAD_ENDS = frozenset("of for on in with to via under between over from by".split())
NAMING_VERBS = frozenset("call name dub term coin denote refer abbreviate".split())
# Adverbs that make "proposed" someone else's: "a recently proposed scheme".
EARLIER = frozenset("recently previously originally already widely formerly earlier".split())
WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-.+]*[A-Za-z0-9+]|[A-Za-z0-9]")
# Heads that stay part of a coined name: "SLE kernel", "GRACE loss". Generic heads do not.
NAME_HEADS = frozenset(
    "kernel kernels loss estimator sampler regularizer encoder decoder attention embedding embeddings "
    "prior objective operator index test policy transform layer module head score bound".split()
)


# Prepositions that say what a method is for or of: "an algorithm for …", "an approach to …".
COMPLEMENT_PREPS = frozenset("for to of".split())


def complement_end(noun: Token) -> Token | None:
    """The last token of the complement right after a method noun, or ``None``: a prepositional
    phrase up to its noun ("an estimator for the maximum expected value"), a gerund up to its
    object ("an algorithm for learning decision trees"), an infinitive up to its object ("a method
    to find faster algorithms"). The parser often hangs the preposition on the verb, so the words
    right after the noun decide, not their attachment."""
    doc = noun.doc
    if noun.i + 1 >= len(doc):
        return None
    nxt = doc[noun.i + 1]
    if nxt.lower_ in COMPLEMENT_PREPS and nxt.dep_ == "prep":
        arg = next((c for c in nxt.children if c.dep_ in ("pobj", "pcomp")), None)
    elif nxt.lower_ == "to" and nxt.dep_ == "aux" and nxt.head.i == noun.i + 2:
        arg = nxt.head
    else:
        return None
    if arg is None or arg.i - noun.i > 6:
        return None
    if arg.pos_ == "VERB":
        obj = next((c for c in arg.children if c.dep_ == "dobj" and c.i > arg.i), None)
        if obj is not None and obj.i - noun.i <= 8:
            return obj
    return arg


def with_definitions(text: str, cands: list[Candidate], abbrevs: list[Abbreviation]) -> list[Candidate]:
    """A proposed short form at its definition covers the whole name: "Sparse Landmark Embedding
    (SLE) kernel", not "SLE" alone (the head noun comes along when it is a name head)."""
    out = []
    for c in cands:
        ab = next((a for a in abbrevs if (a.short_start, a.short_end) == (c.start, c.end)), None)
        if ab is not None and ab.long_start < c.start:
            end = text.find(")", ab.short_end)
            end = end + 1 if end >= 0 else c.end
            head = re.match(r" ([A-Za-z]+)\b", text[end:])
            if head and head.group(1).lower() in NAME_HEADS:
                end += head.end()
            c = replace(c, start=ab.long_start, end=end)
        out.append(c)
    return out


class RoleFinder:
    """Proposal and use triggers, compiled once."""

    def __init__(self, pretrained: list[NameRule]) -> None:
        """Args:
        pretrained: the pretrained-model rules (their names are used, never proposed here).
        """
        self.pretrained = pretrained
        trig = triggers()
        self.propose_re = re.compile(
            r"\b(?:we|this (?:paper|work|study)|in this (?:paper|work)|our (?:paper|work))\b[^.;]{0,80}?\b(?:"
            + "|".join(re.escape(w) for w in trig["propose_verb"])
            + r")(?:s|es|d|ed|ing)?\b",
            re.I,
        )
        self.naming_re = re.compile(
            r"\b(?:" + "|".join(re.escape(w) for w in trig["naming"]) + r")\s+(?:as\s+)?",
            re.I,
        )
        # A capitalized word right after a proposal or naming trigger, before ", a …"/"(…"/"which".
        self.named_after_re = re.compile(
            r"(?:"
            + self.propose_re.pattern
            + r"|"
            + self.naming_re.pattern
            + r")\s*(?:\w+\s+){0,2}?([A-Z][a-z]+[A-Za-z]*)(?=\s*[,:(]|\s+(?:a|an|which|that)\b)",
            re.I,
        )
        self.use_verbs = frozenset(trig["use_verb"])
        self.paper_subjects = frozenset(trig["paper_subject"])
        self.own_modifiers = frozenset(trig["proposal_modifier"])
        self.propose_passive_verbs = frozenset(trig["propose_passive_verb"])
        self.propose_verbs = frozenset(trig["propose_verb"])
        self.method_heads = frozenset(trig["method_head"])
        self.not_proposed_heads = frozenset(trig["not_proposed_head"])

    def proposable(self, text: str) -> bool:
        """Whether a phrase can name a proposed thing: its head noun is not what a paper shows
        ("temporal generalization bound", "theoretical analysis"). An analysis named by a noun
        before it is a method ("latent confusion analysis", "principal component analysis").

        >>> finder = RoleFinder([])
        >>> phrases = ["fast calibration rate", "analysis of estimators", "component analysis", "GRACE loss"]
        >>> [finder.proposable(t) for t in phrases]
        [False, False, True, True]
        """
        words = re.findall(r"[A-Za-z]+", text.split("(")[0])
        # The head comes before a preposition: "analysis of sampling estimators".
        cut = next((i for i, w in enumerate(words) if i and w.lower() in HEAD_ENDS), len(words))
        words = words[:cut]
        if not words or words[-1].lower() not in self.not_proposed_heads:
            return True
        if words[-1].lower() in ("analysis", "analyses") and len(words) > 1:
            prev = words[-2].lower()
            return not (re.search(r"(?:al|ic|ive|ous|ed)$", prev) or prev in ANALYSIS_KINDS)
        return False

    def coined_names(self, norm: NormalizedText, lo: int, hi: int) -> Iterator[tuple[int, int]]:
        """Coined-name spans in ``text[lo:hi]``, extended over adjacent capitalized words and a
        non-generic head noun ("Anchor PCA", "SLE kernel")."""
        text = norm.text
        words = []
        for m in WORD.finditer(text, lo, hi):
            a, b = m.start(), m.end()
            # "$f$-GRPO" is a name of its own (MATH-GRPO); "$\\mathcal{A}(x)$-BDC-Merge" is a formula
            # in front of one: a math prefix stays only when its body is a symbol or two.
            while text.startswith(MATH_PLACEHOLDER + "-", a, b):
                span = norm.math_at(a, a + len(MATH_PLACEHOLDER))
                if span is not None and span.body_end - span.body_start <= 2:
                    break
                a += len(MATH_PLACEHOLDER) + 1
            while b - a > len(MATH_PLACEHOLDER) and text.endswith("-" + MATH_PLACEHOLDER, a, b):
                b -= len(MATH_PLACEHOLDER) + 1
            if a < b:
                words.append((a, b))
        i = 0
        while i < len(words):
            a, b = words[i]
            if not is_coined(without_math(text[a:b])):
                i += 1
                continue
            j = i
            # Capitalized words right before: "Anchor PCA", "Sheaf Stain" — not "We", "The".
            while j > 0 and text[words[j - 1][1] : words[j][0]] == " ":
                prev = text[words[j - 1][0] : words[j - 1][1]]
                if prev[:1].isupper() and prev not in COMMON_CAPS and prev.isalpha():
                    j -= 1
                else:
                    break
            k = i
            # At most five words: a name, not a run of capitalized title words.
            while k + 1 < len(words) and k - j < 4 and text[words[k][1] : words[k + 1][0]] == " ":
                nxt = text[words[k + 1][0] : words[k + 1][1]]
                if is_coined(without_math(nxt)) or (
                    nxt[:1].isupper() and nxt.isalpha() and nxt not in COMMON_CAPS
                ):
                    k += 1
                elif nxt.lower() in NAME_HEADS:
                    k += 1
                    break
                else:
                    break
            yield words[j][0], words[k][1]
            i = k + 1

    def proposed_cands(
        self, norm: NormalizedText, sents: list[tuple[int, int]], doc: Doc | None = None
    ) -> Iterator[Candidate]:
        text = norm.text
        for s_start, s_end in sents:
            sentence = text[s_start:s_end]
            m = self.propose_re.search(sentence)
            lo = s_start + m.end() if m else None
            namings = list(self.naming_re.finditer(sentence))
            if m is None and namings and BACKGROUND.search(sentence):
                continue  # "an acceleration, coined LISTA, was proposed in [3]": earlier work
            for n in namings:
                lo = min(lo, s_start + n.start()) if lo is not None else s_start + n.start()
            if lo is None:
                continue
            verb = self._verb_at(doc, s_start + m.end()) if m is not None and doc is not None else None
            # The proposed thing is named soon after the verb, before what it is built on or
            # compared with: "we propose X, based on Y" proposes X, not Y.
            hi = min(s_end, lo + 160)
            stop = AFTER_OBJECT.search(text, lo, hi)
            hi = stop.start() if stop else hi
            coined = []
            for a, b in self.coined_names(norm, lo, hi):
                # A name the abstract already used before this sentence is background ("DAGs are
                # foundational … we introduce ADAG … for DAG learning"), not the new system; so is
                # a name the proposal reaches only through a preposition or another verb ("we
                # propose an extension of SARAH", "we propose X, which extends PC").
                # It is still a named Method, typed by this rule, without a role.
                name = text[a:b]
                coined.append((a, b))
                named = any(s_start + n.end() <= a <= s_start + n.end() + 40 for n in namings)
                if (
                    occurrences(text[:s_start], name)
                    or occurrences(text[:s_start], name + "s")
                    or (verb is not None and not named and not self._reaches(doc, a, b, verb))
                ):
                    yield Candidate(a, b, "Method", "proposed", "coined", None)
                else:
                    yield Candidate(a, b, "Method", "proposed", "proposed.coined", "proposed")
            # "we introduce Shepherd, a …" / "called Shepherd": one capitalized word as the name
            # (not a word of a longer coined name: "PC" of "Missing Value PC (MVPC)").
            for c in self.named_after_re.finditer(sentence):
                word = c.group(1)
                at = s_start + c.start(1)
                if any(a <= at < b for a, b in coined):
                    continue
                if word[0].isupper() and word not in COMMON_CAPS:
                    yield Candidate(
                        s_start + c.start(1),
                        s_start + c.end(1),
                        "Method",
                        "proposed",
                        "proposed.named",
                        "proposed",
                    )

    def _verb_at(self, doc: Doc | None, end: int) -> Token | None:
        """The proposal verb whose match ends at character ``end`` ("we propose|")."""
        if doc is None:
            return None
        from spacy.attrs import IDX, LENGTH

        starts, lengths = doc.to_array([IDX, LENGTH]).T
        for i in np.flatnonzero((starts < end) & (end <= starts + lengths + 3)):
            token = doc[int(i)]
            if token.lemma_.lower() in self.propose_verbs:
                return token
        return None

    def _reaches(self, doc: Doc | None, a: int, b: int, verb: Token) -> bool:
        """Whether the proposal ``verb`` proposes the name at ``a:b``: from the name up to the verb
        the parse passes through no preposition and no other verb than a naming or proposal one
        ("we propose X, a Y named Z"; not "an extension of Z", "X, which extends Z")."""
        if doc is None:
            return True
        span = doc.char_span(a, b, alignment_mode="expand")
        if span is None:
            return True
        token = span.root
        for _ in range(8):
            if token is verb:
                return True
            head = token.head
            if head is token:
                return True  # the parse joined the sentence elsewhere: no evidence against
            lemma = head.lemma_.lower()
            if head.pos_ in ("VERB", "AUX") and head is not verb:
                if lemma in NAMING_VERBS or (lemma in self.propose_verbs and token.dep_ != "pobj"):
                    return True
                return False
            if token.dep_ == "pobj" or (head.dep_ == "prep" and head.lower_ != "as"):
                return False
            token = head
        return True

    def object_cands(self, doc: Doc) -> Iterator[Candidate]:
        """The object of a proposal verb whose subject is the paper, as a proposed Method, when its
        head is a method noun ("we develop a simple experimentation framework"): the noun phrase up
        to its head, without determiners and empty modifiers ("new", "novel"). It only fills a
        place no other rule or the recognizer names."""
        for verb in tokens_where(doc, "POS", ("VERB",)):
            if not self._proposes(verb, passive=False):
                continue
            objects = [c for c in verb.children if c.dep_ == "dobj"]
            objects += [c for o in objects for c in o.children if c.dep_ in ("conj", "appos")]
            yield from self._phrase_cands(doc, objects)

    def _phrase_cands(self, doc: Doc, nouns: list[Token]) -> Iterator[Candidate]:
        """A method noun's phrase up to the noun, without determiners and own modifiers; two words
        at least ("algorithm" alone names nothing). When the phrase alone names nothing ("an
        algorithm", "a general approach"), the phrase with the complement that says what it is for
        ("an algorithm for learning decision trees", "a method to find faster algorithms"), a
        ``nested`` candidate: it may contain the task or concept the recognizer found there."""
        for noun in nouns:
            if noun.lemma_.lower() not in self.method_heads or noun.pos_ not in ("NOUN", "PROPN"):
                continue
            tokens = list(doc[noun.left_edge.i : noun.i + 1])
            while tokens and (
                tokens[0].dep_ in ("det", "poss", "predet", "nummod", "punct", "cc")
                or tokens[0].lower_ in self.own_modifiers
                or tokens[0].lower_ in ("new", "two", "several", "various")
            ):
                tokens = tokens[1:]
            if not tokens or any(t.pos_ in ("PUNCT", "VERB", "ADP") for t in tokens):
                continue
            start, end = tokens[0].idx, tokens[-1].idx + len(tokens[-1])
            if len(tokens) >= 2 and not is_generic("".join(t.text_with_ws for t in tokens)):
                yield Candidate(start, end, "Method", "object", "proposed.object", "proposed")
                continue
            last = complement_end(noun)
            if last is not None:
                end = last.idx + len(last)
                yield Candidate(start, end, "Method", "nested", "proposed.complement", "proposed")

    def claim_subject_cands(self, doc: Doc, text: str) -> Iterator[Candidate]:
        """A coined name that is the subject of a result claim ("SN-VLM substantially reduces …",
        "VOXPERFORMER remains competitive") is this paper's own system; pretrained models and names
        in the alias table are left to their own rules."""
        for token in tokens_where(doc, "DEP", ("nsubj", "nsubjpass")):
            if token.head.lemma_.lower() not in CLAIM_VERBS:
                continue
            word = next(
                (
                    w
                    for w in WORD.finditer(text, max(0, token.idx - 30), token.idx + len(token) + 30)
                    if w.start() <= token.idx < w.end()
                ),
                None,
            )
            if word is None or not is_coined(word.group()) or canonical_key(word.group()) in load_aliases():
                continue
            if any(rule.regex.fullmatch(word.group()) for rule in self.pretrained):
                continue
            yield Candidate(word.start(), word.end(), "Method", "proposed", "proposed.claim", "proposed")

    def everywhere(self, text: str, proposed: list[Candidate]) -> list[Candidate]:
        """Every occurrence of a proposed name, not only the one after the verb ("ADAG wins")."""
        out = list(proposed)
        seen = {(c.start, c.end) for c in proposed}
        for c in proposed:
            name = text[c.start : c.end]
            for a, b in occurrences(text, name):
                if (a, b) not in seen:
                    seen.add((a, b))
                    out.append(replace(c, start=a, end=b))
        return out

    def retype_datasets(self, text: str, cands: list[Candidate]) -> list[Candidate]:
        """A proposed name introduced as "X, a new benchmark …" is a Dataset, not a Method."""
        out = []
        for c in cands:
            if c.source == "proposed" and DATASET_APPOSITION.match(text, c.end):
                c = replace(c, type="Dataset")
            out.append(c)
        return out

    def role(self, doc: Doc, cand: Candidate, text: str) -> str | None:
        """The role of a Method, Dataset, Metric or Concept the rules left without one.

        A Method, Dataset or Metric is ``proposed`` when the paper marks it as its own, in the
        parse: a proposal modifier on it or on a phrase in apposition with it ("our X", "the
        proposed X", "X, our method"); or it is what a proposal verb proposes, reached from the verb
        through objects, appositions and conjuncts only (not through a preposition: "we propose a
        variant of SGD" does not propose SGD), with the paper as subject ("we present X") or in the
        present passive ("X is introduced"; "X has been proposed" is background), or it follows a
        naming trigger ("which we call X"). Otherwise ``used`` for a Dataset, and for a Method that
        is the object of a use verb ("we fine-tune Llama"). A Concept is ``proposed`` only when a
        method noun heads it and a proposal verb with the paper as subject proposes it ("we design
        a novel reward function"), else it has no role. ``text`` is the text ``doc`` was parsed
        from (``doc.text`` would rebuild it from the tokens on every access).
        """
        if cand.role or cand.type not in ("Method", "Dataset", "Metric", "Concept"):
            return cand.role
        span = doc.char_span(cand.start, cand.end, alignment_mode="expand")
        if span is None:
            return "used" if cand.type == "Dataset" else None
        if cand.type == "Concept":
            # What the paper says it builds, when a method noun heads it ("we design a novel
            # reward function"), is a Method the recognizer took for a concept; "a new asymptotic
            # distribution" is not, nor "the proposed loss function", which refers back, nor "a
            # smoothed objective is introduced only as an analytical bridge".
            if span.root.lemma_.lower() in self.method_heads and self._proposed_object(
                span.root, passive=False
            ):
                return "proposed"
            return None
        if self._marked_own(span) or self._proposed_object(span.root) or self._named_here(doc, cand, text):
            return "proposed"
        if cand.type == "Dataset":  # a paper names a dataset to train or test on, unless it proposes it
            return "used"
        if cand.type == "Metric":
            return None
        token = span.root
        for _ in range(4):
            if token.head is token:
                break
            token = token.head
            if token.pos_ == "VERB":
                return "used" if token.lemma_.lower() in self.use_verbs else None
        return None

    def _named_here(self, doc: Doc, cand: Candidate, text: str) -> bool:
        """A phrase right after a naming trigger ("which we called “normalized gamma construction”"),
        in a sentence that is not about earlier work."""
        before = text[max(0, cand.start - 40) : cand.start]
        m = re.search(self.naming_re.pattern + r"[\"“'‘]?$", before, re.I)
        if m is None:
            return False
        sent = doc.char_span(cand.start, cand.end, alignment_mode="expand")
        return sent is not None and not BACKGROUND.search(sent.sent.text)

    def _marked_own(self, span: Span) -> bool:
        """A proposal modifier ("our", "proposed", "novel") on the phrase or on one in apposition.

        Not when a noun follows the phrase: then it modifies that noun, and so does the modifier
        ("our IO guarantees" are the paper's guarantees about IO, however the parser attached "our").
        """
        if span.end < len(span.doc) and span.doc[span.end].pos_ in ("NOUN", "PROPN"):
            return False
        root = span.root
        heads = [root, *(c for c in root.children if c.dep_ == "appos")]
        if root.dep_ == "appos":
            heads.append(root.head)
        for head in heads:
            for child in head.children:
                if (
                    child.dep_ in ("poss", "amod", "det", "compound")
                    and child.lower_ in self.own_modifiers
                    and not self._earlier(child)
                ):
                    return True
        return any(
            t.lower_ in self.own_modifiers and not self._earlier(t)
            for t in span
            if t.dep_ in ("poss", "amod")
        )

    @staticmethod
    def _earlier(modifier: Token) -> bool:
        """"recently proposed", "proposed by …", "proposed in [3]": someone else's."""
        return any(
            c.lower_ in EARLIER or (c.dep_ in ("agent", "prep") and c.lower_ in ("by", "in"))
            for c in modifier.children
        )

    def _proposed_object(self, token: Token, *, passive: bool = True) -> bool:
        """Whether a proposal verb proposes ``token`` (see :meth:`role`); with ``passive`` false,
        only a verb whose subject is the paper ("we introduce X", not "X is introduced")."""
        deps = (
            ("conj", "appos", "dobj", "attr", "oprd", "nsubjpass") if passive else ("conj", "appos", "dobj")
        )
        for _ in range(5):
            if token.dep_ in deps:
                dep = token.dep_
                token = token.head
                if token.pos_ in ("VERB", "AUX"):
                    return dep != "conj" and self._proposes(token, passive=dep == "nsubjpass")
                continue
            return False
        return False

    def _proposes(self, verb: Token, *, passive: bool) -> bool:
        lemma = verb.lemma_.lower()
        if lemma not in (self.propose_passive_verbs if passive else self.propose_verbs):
            return False
        if passive:
            # "X is introduced": present tense; "X has been / was proposed (by …)" is earlier work.
            aux = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
            return any(c.lower_ in ("is", "are") for c in aux) and not any(
                c.lower_ in ("has", "have", "had", "was", "were") for c in aux
            )
        return any(c.dep_ == "nsubj" and c.lower_ in self.paper_subjects for c in verb.children)

    def title_cands(self, title: str, text: str) -> Iterator[Candidate]:
        """The name a title gives before its colon ("Foo: A Framework for …"), at each of its
        occurrences in the abstract: the paper's own system. The name must look like one: at most
        four words with a coined word in it ("BiLSTM-CRF", "GPT-Judge"), or one capitalized word
        that is not a common sentence opener ("Shepherd") nor used in the abstract as a common noun."""
        m = TITLE_NAME.match(title)
        if m is None:
            return
        name = m.group(1).strip()
        words = name.split()
        if len(words) > 4 or not (
            any(is_coined(without_math(w)) for w in words)
            or (len(words) == 1 and name[:1].isupper() and name.isalpha() and name not in COMMON_CAPS)
        ):
            return
        # "Attention: …" names no system when the abstract uses "attention" as a common noun.
        if len(words) == 1 and not is_coined(name) and occurrences(text, name.lower()):
            return
        for a, b in occurrences(text, name):
            yield Candidate(a, b, "Method", "proposed", "proposed.title", "proposed")
