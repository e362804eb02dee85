"""The subject of a bound: the method it is about, from the parse ("the proposed estimator achieves
$X$" -> "the proposed estimator"), and what makes a word a method name ("SAGA", "LinMED").
"""

from __future__ import annotations

from typing import Any

from extractors.bounds.lexicon import Lexicon, lexicon
from kg.text import MATH_PLACEHOLDER, NormalizedText


def is_method_name(name: str) -> bool:
    """An acronym or coined name: "SAGA", "ADSAGA", "LinMED", "UCB-V" (not "The", not "GD's")."""
    letters = [c for c in name if c.isalpha()]
    if len(letters) < 2 or not name[:1].isupper() or not all(c.isalnum() or c == "-" for c in name):
        return False
    return sum(c.isupper() for c in letters) >= 2


def names_method(lex: Lexicon, tok: Any) -> bool:
    """Whether a subject token names a method: an algorithm noun or a coined name ("it" may be
    the quantity: "a regime in which it scales as $n^{-1}$")."""
    return tok.lemma_.lower() in lex.method_nouns or is_method_name(tok.text)


def subject_of(doc: Any, norm: NormalizedText, offset: int) -> str | None:
    """The method a bound is about, from the parse: the subject of the verb governing the formula.

    Pronouns ("we", "it", "this") name no method; "The first"/"the second" is resolved to the
    numbered noun introduced before ("We develop two phased-elimination algorithms" ->
    "the first phased-elimination algorithm").
    """
    lex = lexicon()
    token = None
    for tok in doc:
        start, end = norm.to_original(tok.idx, tok.idx + len(tok))
        if start <= offset < end:
            token = tok
            break
    if token is None:
        return None
    verb = token
    for _ in range(20):  # climb to the governing verb
        if verb.pos_ in ("VERB", "AUX") or verb.head is verb:
            break
        verb = verb.head
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    for _ in range(3):  # "… the second incorporates … to obtain $X$ regret": the purpose clause's verb
        if subjects or verb.dep_ not in ("xcomp", "advcl", "relcl", "ccomp") or verb.head is verb:
            break
        verb = verb.head
        subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    if not subjects:
        return None
    subj = subjects[0]
    if subj.lower_ in lex.no_subject or subj.pos_ == "PRON" and subj.lower_ not in lex.ordinals:
        return None
    first = subj.left_edge.i
    for i in range(subj.left_edge.i, subj.i):  # "More precisely, dense backpropagation": after the comma
        if doc[i].text in (",", ";", ":", "(", ")"):
            first = i + 1
    words = list(doc[first : subj.i + 1])
    if token.i in range(first, subj.i + 1) or any(t.text == MATH_PLACEHOLDER for t in words):
        return None  # the formula is itself the subject: "$\Omega(…)$ regret is unavoidable"
    if len(words) <= 2 and words[-1].lower_ in lex.ordinals:
        named = _numbered_noun(lex, doc, subj.i)
        if named is not None:
            return f"the {words[-1].lower_} {named}"
        return None
    # a method: a name, or a noun that names an algorithm ("the proposed estimator")
    if subj.pos_ == "PROPN" or subj.lemma_.lower() in lex.method_nouns:
        return str(doc[first : subj.i + 1].text)
    return None


def _numbered_noun(lex: Lexicon, doc: Any, before: int) -> str | None:
    """ "phased-elimination algorithm" from "… two phased-elimination algorithms …" before ``before``."""
    for i in range(before - 1, -1, -1):
        tok = doc[i]
        if (
            tok.lower_ in lex.counts
            and tok.head.pos_ == "NOUN"
            and tok.head.lower_.endswith("s")
            and tok.head.i > tok.i
        ):
            noun = tok.head
            phrase = doc[tok.i + 1 : noun.i].text
            head = noun.text[:-1] if noun.text.endswith("s") else noun.text
            return f"{phrase} {head}".strip()
    return None
