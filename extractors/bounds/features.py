"""The inputs of a learned attribution, for :mod:`extractors.train.bounds_attribution` alone.

A logistic regression over these did not beat the rules of :mod:`extractors.bounds.attribution`
under cross-validation grouped by paper, so extraction never computes them; ``extract_bounds(…,
collect=[])`` gathers them with the rule's decision for that comparison.
"""

from __future__ import annotations

from extractors.bounds.attribution import citation_at
from extractors.bounds.earlier import Earlier
from extractors.bounds.text import Text, sentence_span, token_at, window_before

_VERB_TAGS = frozenset(("VBD", "VBN", "VBZ", "VBP", "VBG", "VB", "MD"))


def _feature_word(text: str) -> bool:
    return text.isalpha() or "-" in text and any(c.isalpha() for c in text)


def attribution_features(text: Text, wk: int, rule: str, earlier: Earlier) -> list[str]:
    """Inputs of a learned attribution for the formula word ``wk``, sorted.

    Only :mod:`extractors.train.bounds_attribution` reads them (the model did not beat the
    rules under grouped cross-validation, so extraction never computes them). ``rule`` is the
    rule-based decision (:func:`~extractors.bounds.attribution.attribute`). Words are lowercased
    and alphabetic; the clause before is the window the rules read (12 words at most,
    back to the previous bound or a semicolon), the words after stop at the next formula.
    """
    words, lex = text.words, text.lex
    first, last = sentence_span(text, wk)
    feats = {"rule:" + rule}
    lo = window_before(text, wk, 12, earlier.bound_words)
    lo = next((k + 1 for k in range(wk - 1, lo - 1, -1) if words[k].text == ";"), lo)
    before = [w.text for w in words[lo:wk] if w.formula < 0 and _feature_word(w.text)]
    hi = wk + 1
    while hi < last and hi - wk <= 8 and words[hi].formula < 0:
        hi += 1
    after = [w.text for w in words[wk + 1 : hi] if _feature_word(w.text)]
    feats.update("b:" + t for t in before)
    feats.update(f"bb:{a}_{b}" for a, b in zip(before, before[1:], strict=False))
    feats.update("a:" + t for t in after)
    sentence = [w.text for w in words[first:last] if w.formula < 0]
    feats.update("s:" + t for t in sentence if _feature_word(t))
    if any(t in lex.we for t in sentence):
        feats.add("s_we")
    if any(t in lex.we for t in before):
        feats.add("b_we")
    if any(w.text in lex.we for w in words[:first]):
        feats.add("earlier_we")
    if any(a == "this" and b in lex.paper_nouns for a, b in zip(sentence, sentence[1:], strict=False)):
        feats.add("s_this_paper")
    if any(citation_at(text, k) for k in range(first, last)) or any(
        a == "et" and b == "al" for a, b in zip(sentence, sentence[1:], strict=False)
    ):
        feats.add("s_cite")
    sent = text.sentences[wk]
    n_sent = text.sentences[-1] + 1 if text.sentences else 1
    feats.add(f"pos:{min(sent, 3)}")
    feats.add(f"third:{min(2, 3 * sent // n_sent)}")
    if earlier.last is None:
        feats.add("first_bound")
    elif text.sentences[earlier.last.word] == sent:
        feats.add("prev_in_sentence:" + earlier.last.attribution)
    for k in range(lo, wk):
        tok = token_at(text, words[k].start)
        if tok is not None and tok.tag_ in _VERB_TAGS:
            feats.add("bt:" + tok.tag_)
    for k in range(first, last):
        tok = token_at(text, words[k].start)
        if tok is not None and tok.tag_ in _VERB_TAGS:
            feats.add("st:" + tok.tag_)
    return sorted(feats)
