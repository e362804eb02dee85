"""Attribution: whether a bound is this paper's result or earlier work's.

The cues since the previous formula of the sentence decide (earlier work: "previous", "existing",
"the best known", a citation such as "(Name, 2018)", "[UAI 2020]", "\\cite{…}"; this paper:
"we", "our", "this paper"), read in the formula's clause: a semicolon, a participle after a comma
("…, achieving a regret of $X$") or the other predicate of a coordination ("… improves upon the
state of the art and achieves $X$") closes the clause whose cues spoke of something else. Before
the cues: "from $A$ to $B$" ($A$ is earlier, $B$ this paper's), "$X$ is known", "$X$ (Cai et al.,
2022)", "matching the $X$ lower bound", "improves the sublinear rate $X$" (the object of an
improving verb), "the $X$ lower bound established in this paper". Without any cue, a bound in a
list or an enumeration keeps the attribution of the one before, a clause with no subject of its
own continues the clause before, the words after the formula ("$X$ of SAGA", "…, recent work
has …"), then the bound before it in its sentence, then a connective setting the sentence against
what came before ("However, …": earlier work's shortcoming) and then the nearest earlier sentence
with a cue decide (of a sentence opening on a contrasting phrase, "Compared to existing methods,
…", its main clause speaks; an earlier-work cue counts only in the sentence right before, "we"
in any of the three before); a bound stated before the abstract first speaks of itself is
background (earlier work).
"""

from __future__ import annotations

from extractors.bounds.earlier import Earlier
from extractors.bounds.subject import is_method_name
from extractors.bounds.text import (
    SPAN,
    Text,
    derived,
    ends_before,
    is_verb,
    sentence_span,
    token_at,
    window_before,
    word_of,
)
from extractors.bounds.words import Phrase, match_at

_BACK_SENTENCES = 3  # earlier sentences a this-paper attribution may be inherited from (earlier work: 1)


def attribute(text: Text, wk: int, earlier: Earlier) -> str:
    """``prior`` when the words before the formula point to earlier work, else ``this``.

    The cues since the previous formula of the sentence decide; without any, the words after
    it ("To address the prohibitive $O(n^3)$ cost, recent work …"), and without any there
    either, the nearest earlier sentence that has one.
    """
    lex = text.lex
    lo = window_before(text, wk, SPAN, earlier.bound_words)
    # "… improve upon the state of the art; in particular, it is the first to achieve $X$": a
    # semicolon closes the clause whose cues spoke of earlier work
    lo = next((k + 1 for k in range(wk - 1, lo - 1, -1) if text.words[k].text == ";"), lo)
    # "… improves upon the original regret bound …, achieving a regret of $X$": the participle
    # after a comma states what the subject reaches, not the earlier work just named
    lo = next(
        (
            k + 1
            for k in range(wk - 1, lo, -1)
            if text.words[k].text in lex.reaching_participles and text.words[k - 1].text == ","
        ),
        lo,
    )
    contrasted = _after_fronted_contrast(text, wk)
    if contrasted is not None and contrasted > lo:
        lo = contrasted  # "Compared to existing methods that need $A$, ours needs $X$"
    if _from_before(text, wk) and _to_formula_after(text, wk):
        # "improves from $A$ to $B$", "accelerates from a rate of $A$ to $B$", "from $A$ for
        # PC-PG to $B$ for COPOE"
        return "prior"
    if _to_end_of_from(text, wk):
        return "this"  # "reduced from the typical $A$ complexity to merely $B$": the new value
    if lex.cue("prior-right-after", "after").at(text.words, wk + 1) is not None:
        return "prior"  # "a lower bound of $X$ is known", "$X$ was conjectured"
    if _cited_after(text, wk):
        return "prior"  # "improving the one with overhead $X$ in \\cite{BHPQ17}"
    if _claimed_here_after(text, wk):
        return "this"  # "matching the $X$ lower bound established in this paper"
    if ends_before(
        text, wk, "prior-adjacent", lo=window_before(text, wk, 6), gap=3
    ) is not None and not _resource_preposition_before(text, wk):
        return "prior"  # "analogous to the $X$ optimistic rate", "matching the $X$ lower bound"
    if _improved_object(text, wk):
        return "prior"  # "which substantially improves the sublinear rate $X$ of …"
    conj = _earlier_conjunct(text, wk)
    if conj is not None and lo < conj[1]:
        # "… a novel algorithm that improves upon the state of the art and achieves $X$": the
        # cues of the predicate coordinated before speak of that predicate only
        state = cue_state(text, conj[1], wk)
        if state is None and lo < conj[0]:
            state = cue_state(text, lo, conj[0])
    else:
        state = cue_state(text, lo, wk)
    if state is not None:
        return state
    if contrasted is not None:
        # the main clause after the contrast states the new result, unless it cites (the
        # cues since the previous formula were read above, those of the whole clause here)
        return _cue_state_any(text, contrasted, wk) or "this"
    if match_at(text.words, wk - 1, ("to",)):
        return "this"  # "sharpens the prior best $A$ … to $B$": the improved value
    item = _enumerated_item(text, wk, earlier)
    if item is not None:
        return item
    if wk - lo <= 3 and earlier.last is not None and earlier.last.word == lo - 1:
        return earlier.last.attribution  # a list: "$O(n^3)$, $O(n^2)$ and $n^2$"
    same_clause = _continued_clause(text, wk, earlier)
    if same_clause is not None:
        return same_clause
    first, last = sentence_span(text, wk)
    if cue_state(text, first, min(wk, first + 3)) == "prior" and _cue_state_any(text, first, wk) != "this":
        return "prior"  # "Existing guarantees …: in offline bounds …, the penalty is $X$"
        # (but "In contrast, we show that …, as long as $X$" speaks of this paper)
    hi = wk + 1
    while hi < last and text.words[hi].formula < 0 and not _comment_opens(text, hi):
        hi += 1
    state = _cue_state_any(text, wk + 1, hi, "after")
    if state is None and _of_other_method(text, wk):
        return "prior"  # "the complexity $X$ of SAGA without delays", "… of first-order methods"
    if state is not None:
        return state
    if _cue_state_any(text, first, wk) == "this":
        return "this"  # "We give two applications: …, and … with $X$"
    if earlier.last is not None and text.sentences[earlier.last.word] == text.sentences[wk]:
        # "existing methods require $A$ queries … and $B$ queries if …": nothing in the clause
        # speaks of this bound, so the sentence's bound before it does, before earlier sentences
        return earlier.last.attribution
    if _sets_a_limitation(text, first):
        return "prior"  # "However, computing the likelihood … has a time complexity of $X$"
    k = first - 1
    for back in range(_BACK_SENTENCES):
        if k < 0:
            break
        s_lo, s_hi = sentence_span(text, k)
        main = _after_fronted_contrast(text, k)
        if main is not None:
            # "Compared to existing DP techniques, DP-AMBSSGD provides nearly optimal error
            # bounds": the contrasted phrase's cues speak of what the main clause is set against
            state = _cue_state_any(text, main, s_hi) or "this"
        else:
            state = _cue_state_any(text, s_lo, s_hi)
        if state == "prior" and back > 0:
            # "Existing MAB and BCO algorithms become intractable. … Based on a unifying analysis
            # framework, it is established that both DEXP3 and DBGD guarantee $X$": earlier work
            # spoken of two sentences before has been left; only the sentence right before hands
            # its earlier-work cue on, while the paper's own voice carries further
            state = None
        if state is not None:
            return state
        k = s_lo - 1
    first_this = _first_this(text)
    if first_this is not None and first_this > wk:
        # "Most kernel methods … require $O(n^2)$ time. … In this paper, we …": a bound stated
        # with no cue before the abstract first speaks of itself is the background
        return "prior"
    return "this"


def _after_fronted_contrast(text: Text, wk: int) -> int | None:
    """The first word of the main clause when the formula's sentence sets a contrasting phrase
    before it ("Unlike existing approaches that …, the proposed method converges in $X$",
    "Compared to the state of the art, our algorithm requires $X$"), else None.

    The phrase opens the sentence or follows a comma, ends with a comma where its parse subtree
    ends, and the formula comes after it: the earlier work it names is contrasted with the main
    clause, not its subject. Needs the parse.
    """
    lex = text.lex
    first, _ = sentence_span(text, wk)
    for k in range(first, wk):
        if k > first and text.words[k - 1].text != ",":
            continue
        if not any(match_at(text.words, k, p) for p in lex.contrast_openers):
            continue
        tok = token_at(text, text.words[k].start)
        end = word_of(text, tok.right_edge) if tok is not None else None
        if end is None or end + 2 > wk or text.words[end + 1].text != ",":
            return None
        return end + 2
    return None


def _sets_a_limitation(text: Text, first: int) -> bool:
    """Whether the sentence starting at ``words[first]`` opens on an adversative connective
    ("However, …", "Unfortunately, …"), so that, without a cue of its own, it states a shortcoming
    of earlier work; not when its subject is "the <method>", the paper's own method spoken of
    again ("However, the algorithm runs in near linear time, $X$")."""
    words = text.words
    if words[first].text.lower() not in text.lex.adversative_openers:
        return False
    j = first + 1 + (first + 1 < len(words) and words[first + 1].text == ",")
    return not (
        j + 1 < len(words) and words[j].text == "the" and words[j + 1].text in text.lex.method_nouns
    )


def _comment_opens(text: Text, k: int) -> bool:
    """Whether a participle after a comma opens at ``words[k]`` ("…, thus matching existing upper
    bounds", "…, outperforming existing approaches"): a comment on the bound before it, whose
    earlier work is what the bound is compared with, not whose bound it is."""
    if text.words[k].text != ",":
        return False
    j = k + 1
    if j < len(text.words) and text.words[j].text in text.lex.comment_adverbs:
        j += 1
    if j >= len(text.words) or text.words[j].formula >= 0 or not text.words[j].text.endswith("ing"):
        return False
    return text.lex.cue("prior", "after").at(text.words, j) is None  # not ", existing methods …"


def cue_state(text: Text, lo: int, hi: int, where: str = "before") -> str | None:
    """The last attribution cue in ``words[lo:hi]``: ``prior``, ``this`` or None.

    ``where="after"`` uses the narrower earlier-work cues that may follow a bound ("…, recent
    work has …"); "improving over the state of the art" after a bound does not make it prior.
    """
    lex = text.lex
    state = None
    prior, this = lex.cue("prior", where), lex.cue("this")
    not_prior = lex.cue("prior-not-before", "after")
    k = lo
    while k < hi:
        if citation_at(text, k):
            state = "prior"  # "Chen and Li (2016)", "[NIPS 2017]", "\\cite{…}"
            k += 1
            continue
        hit = prior.at(text.words, k)
        # "prior knowledge", "prior distribution": the Bayesian prior, not earlier work
        if (
            hit is not None
            and k + len(hit) <= hi
            and not_prior.at(text.words, k + len(hit)) is None
            and not _bounding_than(text, k, hit)
            and not _suffered_by_any(text, k, hit)
            and not _known_as_given(text, k, hit)
            and not _known_attained(text, k, hit)
            and not _compared_elsewhere(text, k + len(hit), hi, hit)
        ):
            state = "prior"
            k += len(hit)
            continue
        hit = this.at(text.words, k)
        nxt = k + len(hit) if hit is not None else hi
        setting = nxt < hi and text.words[nxt].text in lex.setting_nouns
        if hit in (("our",), ("in", "this")) and setting:
            hit = None  # "benchmarks in our task including $X$", "in this case": the setting
        if hit is not None and k + len(hit) <= hi and _before_this(text, k):
            state = "prior"  # "Prior to this work, other methods required $X$"
            k += len(hit)
            continue
        if hit is not None and k + len(hit) <= hi:
            state = "this"
            k += len(hit)
            continue
        k += 1
    return state


def _cue_state_any(text: Text, lo: int, hi: int, where: str = "before") -> str | None:
    """``this`` if any "we"/"our" cue is in ``words[lo:hi]``, else ``prior`` if any earlier-work cue."""
    found = {cue_state(text, k, min(hi, k + 4), where) for k in range(lo, hi) if text.words[k].formula < 0}
    if "this" in found:
        return "this"
    return "prior" if "prior" in found else None


def citation_at(text: Text, k: int) -> bool:
    """Whether ``words[k]`` is a citation: a year closing a reference, or ``\\cite``."""
    w = text.words[k]
    if w.text in text.lex.cite_commands and k > 0 and text.words[k - 1].text == "\\":
        return True
    if len(w.text) != 4 or not w.text.isdigit() or not w.text.startswith(("19", "20")):
        return False
    nxt = text.words[k + 1].text if k + 1 < len(text.words) else ""
    if len(nxt) == 1 and nxt in "abcdef" and k + 2 < len(text.words):
        nxt = text.words[k + 2].text  # "(Li, 2009a)": an author's second paper that year
    prev = text.words[k - 1].text if k > 0 else ""
    # "(2016)", "(Feldman and Vondrak, 2018)", "[WWW 2020]", "[Hu and Evans, UAI 2020]"
    return nxt in (")", "]", ";") or prev in ("(", "[")


def _cited_after(text: Text, wk: int) -> bool:
    """Whether a citation follows the formula ("$X$ (Cai et al., 2022)", "$X$ by Lee et al.
    2020", "$X$ in \\cite{…}"), before any other formula or the clause's end."""
    k = wk + 1
    if k < len(text.words) and text.words[k].text in ("in", "by", "of", "from"):
        k += 1
    if k >= len(text.words):
        return False
    first = text.abstract[text.words[k].start : text.words[k].start + 1]
    if not (text.words[k].text in ("(", "[", "\\") or first.isupper()):
        return False  # a reference opens on a bracket, \\cite or an author's name
    sent = text.sentences[wk]
    for j in range(k, min(k + 9, len(text.words))):
        w = text.words[j]
        if text.sentences[j] != sent or w.formula >= 0 or w.text == ";":
            return False
        if citation_at(text, j):
            return True
    return False


def _bounding_than(text: Text, k: int, hit: Phrase) -> bool:
    """ "never larger than $X$", "no estimator can achieve a rate faster than $X$": ``than`` in a
    denied comparison (a negation earlier in its clause) states the bound this sentence claims,
    not a comparison with earlier work."""
    if hit != ("than",):
        return False
    lo = sentence_span(text, k)[0]
    for j in range(k - 1, max(lo, k - 14) - 1, -1):
        word = text.words[j].text
        if word in (",", ";", ":") or text.words[j].formula >= 0:
            return False
        if word in text.lex.negations:
            return True
    return False


def _compared_elsewhere(text: Text, k: int, hi: int, hit: Phrase) -> bool:
    """Whether a comparing cue ending at ``words[k]`` ("than", "improvement over") is separated
    from the end of its window by a finite verb: "our algorithm, which labels a point if the
    uncertainty is larger than a threshold, achieves $X$" compares the uncertainty, not the bound
    of the verb after it. Needs the parse; without it, False."""
    if hit[-1] not in text.lex.comparison_ends:
        return False
    return any(is_verb(text, j) for j in range(k, hi))


def _before_this(text: Text, k: int) -> bool:
    """Whether the this-paper cue at ``k`` is the object of "prior to" / "before": earlier work."""
    return k >= 1 and text.words[k - 1].text == "before" or match_at(text.words, k - 2, ("prior", "to"))


def _known_as_given(text: Text, k: int, hit: Phrase) -> bool:
    """ "if $Q$ is known, the sample complexity becomes $X$": "known" said of a given input in a
    condition clause (if, when, unless …) means given, not known from earlier work."""
    lex = text.lex
    if hit != ("known",) or k < 2 or text.words[k - 1].text not in ("is", "are", "be", "been"):
        return False
    lo = sentence_span(text, k)[0]
    for j in range(k - 2, lo - 1, -1):
        if text.words[j].text in (",", ";", ":"):
            return False  # the clause began without a condition
        if text.words[j].text in lex.given_openers:
            return True
    return False


def _known_attained(text: Text, k: int, hit: Phrase) -> bool:
    """ "SGD can achieve the fastest known $X$", "reach the best known complexity of $X$": the
    subject attains the known value, so the bound is its own claim."""
    lex = text.lex
    if hit[-1] not in ("known", "best-known"):
        return False
    j = k - 1
    while j >= 0 and k - j <= 3 and text.words[j].text in lex.known_fillers:
        j -= 1
    return j >= 0 and text.words[j].text.startswith(lex.attain_verbs)


def _suffered_by_any(text: Text, k: int, hit: Phrase) -> bool:
    """ "any algorithm must suffer $X$", "our method suffers only $X$": a claim, not a baseline.

    "suffers" points to earlier work ("Stress Majorization suffers from high complexity
    $X$") unless a lower bound over every method or this paper's method is the subject.
    """
    lex = text.lex
    if not hit[0].startswith("suffer"):
        return False
    if any(text.words[j].text in lex.suffer_claims for j in range(max(0, k - 3), k)):
        return True
    # "We show … that the algorithm suffers $\Omega(T^{2/3})$": a result of this paper
    lo, _ = sentence_span(text, k)
    return any(text.words[j].text in ("we", "our", "us") for j in range(lo, k))


def _continued_clause(text: Text, wk: int, earlier: Earlier) -> str | None:
    """The attribution of the bound before when this one's clause has no subject of its own.

    "…, both of which achieved error $O(1/T)$, but only in expectation, and achieved … $X$":
    from the previous bound of the sentence to this one, no subject ("we", a noun before a
    verb in the parse) and no attribution cue intervene, so whoever claimed the first bound
    claims this one too. Needs the parse; without it, None.
    """
    if text.doc is None or earlier.last is None:
        return None
    prev = earlier.last.word
    if text.sentences[prev] != text.sentences[wk] or wk - prev > SPAN:
        return None
    for k in range(prev + 1, wk):
        w = text.words[k]
        if w.formula >= 0 or w.text in (";", ".", "we", "our", "us", "i"):
            return None
        tok = token_at(text, w.start)
        if tok is not None and tok.dep_ in ("nsubj", "nsubjpass", "expl"):
            return None  # a clause with its own subject
    return earlier.last.attribution


def _of_other_method(text: Text, wk: int) -> bool:
    """Whether "of <a method>" right after the formula names a method this paper does not propose.

    "the complexity $X$ of SAGA", "the rate $X$ of first-order methods": a named method other
    than the ones the abstract introduces ("We develop an algorithm ADSAGA"), or a plural class
    of methods, owns the bound.
    """
    lex = text.lex
    k = wk + 1
    if k >= len(text.words) or text.words[k].text != "of" or text.sentences[k] != text.sentences[wk]:
        return False
    k += 1
    if k < len(text.words) and text.words[k].text == "the":
        k += 1
    if k >= len(text.words) or text.words[k].formula >= 0:
        return False
    w = text.words[k]
    name = text.abstract[w.start : w.end]
    if is_method_name(name):
        return name not in _own_names(text)
    for j in range(k, min(k + 4, len(text.words))):
        word = text.words[j].text
        if word in lex.own_marks or not (word.isalpha() or "-" in word):
            return False
        if word.endswith("s") and word[:-1] in lex.method_nouns:
            return True
    return False


def _own_names(text: Text) -> frozenset[str]:
    """Method names the abstract introduces: the first name after "we propose/develop/…" or "our"."""
    return derived(text, "own_names", lambda: _introduced_names(text))


def _introduced_names(text: Text) -> frozenset[str]:
    lex = text.lex
    names = set()
    for k, w in enumerate(text.words):
        if w.text not in lex.introducing:
            continue
        for j in range(k + 1, min(k + 6, len(text.words))):
            name = text.abstract[text.words[j].start : text.words[j].end]
            if is_method_name(name):
                names.add(name)
                break
    return frozenset(names)


def _resource_preposition_before(text: Text, wk: int) -> bool:
    """ "can recover the tensor exactly from $X$ samples": a preposition right before the formula
    introduces what the verb needs, so the verb's object is no earlier value."""
    return wk > 0 and text.words[wk - 1].text in ("from", "using", "with", "within")


def _enumerated_item(text: Text, wk: int, earlier: Earlier) -> str | None:
    """The attribution of the bound in the item before when the formula sits in a later item
    of an enumeration ("generalizes previous known bounds: (i) … $A$, and (ii) … with regret
    $B$"), with no cue of its own between its marker and it."""
    lex = text.lex
    lo, _ = sentence_span(text, wk)
    for m in range(wk - 1, max(lo, wk - SPAN) - 1, -1):
        w = text.words[m]
        if w.formula >= 0:
            return None  # another formula before any marker: the item has its own
        if w.text in lex.enumeration_later_items and m + 1 < wk and text.words[m + 1].text == ")":
            before = earlier.last
            if (
                before is None
                or text.sentences[before.word] != text.sentences[wk]
                or before.word >= m
                or cue_state(text, m + 2, wk) is not None
            ):
                return None
            return before.attribution
    return None


def _first_this(text: Text) -> int | None:
    """The first word of a this-paper cue ("we", "our", "this paper") in the abstract."""
    this = text.lex.cue("this")
    return derived(
        text, "first_this", lambda: next((k for k in range(len(text.words)) if this.at(text.words, k)), None)
    )


def _earlier_conjunct(text: Text, wk: int) -> tuple[int, int] | None:
    """``(verb word, conjunct start word)`` when the formula is in a predicate coordinated after
    another ("… improves upon X and achieves $Y$"): the words from the first predicate's verb up
    to the second predicate belong to the first only. Needs the parse."""
    tok = token_at(text, text.words[wk].start)
    if tok is None:
        return None
    for anc in (tok, *tok.ancestors):
        if anc.dep_ == "conj" and anc.pos_ in ("VERB", "AUX") and anc.head.i < anc.i:
            verb, start = word_of(text, anc.head), word_of(text, anc.left_edge)
            if verb is not None and start is not None and verb < start <= wk:
                return verb, start
            return None
    return None


def _from_before(text: Text, wk: int) -> bool:
    """Whether "from" opens the phrase the formula ends: "from $A$", "from a rate of $A$"."""
    lex = text.lex
    for k in range(wk - 1, max(wk - 5, -1), -1):
        word = text.words[k].text
        if word == "from":
            return True
        if word not in lex.from_fillers:
            return False
    return False


def _to_end_of_from(text: Text, wk: int) -> bool:
    """Whether the formula ends a "from $A$ … to $B$" chain as its $B$."""
    lex = text.lex
    j = wk - 1
    while j >= 0 and wk - j <= 4 and text.words[j].text in lex.to_fillers and text.words[j].text != "to":
        j -= 1
    if j < 0 or text.words[j].text != "to":
        return False
    prev = next((i for i in range(j - 1, max(j - 8, -1), -1) if text.words[i].formula >= 0), None)
    return prev is not None and _from_before(text, prev) and _to_formula_after(text, prev)


def _to_formula_after(text: Text, wk: int) -> bool:
    """Whether "to" and another formula follow within the clause: "$A$ to $B$", "$A$ for
    PC-PG to up to $B$" (not "from $A$ to learn"; no comma between); a parenthesis after the
    formula is passed over ("from $A$ (no similarity matrix) to $B$")."""
    lex = text.lex
    sent = text.sentences[wk]
    start = wk + 1
    if start < len(text.words) and text.words[start].text == "(":
        stop = min(start + 8, len(text.words))
        close = next((j for j in range(start + 1, stop) if text.words[j].text == ")"), None)
        if close is None:
            return False
        start = close + 1
    for k in range(start, min(start + 4, len(text.words) - 1)):
        w = text.words[k]
        if text.sentences[k] != sent or w.formula >= 0 or w.text in (",", ";", "."):
            return False
        if w.text == "to":
            j = k + 1
            while j < len(text.words) and j <= k + 3 and text.words[j].text in lex.to_fillers:
                j += 1
            return j < len(text.words) and text.words[j].formula >= 0
    return False


def _improved_object(text: Text, wk: int) -> bool:
    """Whether the formula is in the object of an improving verb ("improves the sublinear rate
    $X$", "we improve the best known $X$ regret bound … to $Y$"): the value improved upon.

    The parse path from the formula to the verb goes through nouns only (compound, apposition,
    modifier, the object itself); "improves the regret to $X$" or "by $X$" is another path.
    Needs the parse.
    """
    lex = text.lex
    tok = token_at(text, text.words[wk].start)
    if tok is None:
        return False
    cur = tok
    for _ in range(4):
        if cur.dep_ == "dobj":
            lemma = cur.head.lemma_.lower()
            if lemma in lex.reducing_lemmas:
                # "reduce the complexity $X$ of … to $Y$" reduces $X$; "reduce the sample
                # complexity …, i.e., $X$" restates what it reduces to
                verb = word_of(text, cur.head)
                return verb is not None and not any(
                    text.words[j].text in (",", ";", "i.e.") for j in range(verb, wk)
                )
            return lemma in lex.improving_lemmas
        if cur.dep_ not in ("compound", "appos", "nmod", "amod", "nummod") or cur.head is cur:
            return False
        cur = cur.head
    return False


def _claimed_here_after(text: Text, wk: int) -> bool:
    """ "the $X$ lower bound established in this paper": a participle after the bound noun that
    names this paper as the source."""
    lex = text.lex
    k = wk + 1
    while k < len(text.words) and k <= wk + 3 and text.words[k].text in lex.bound_sides:
        k += 1
    if k + 2 >= len(text.words) or text.words[k].text not in lex.bound_nouns:
        return False
    if text.sentences[k + 2] != text.sentences[wk]:
        return False
    if not text.words[k + 1].text.endswith(lex.participle_endings):
        return False
    this = lex.cue("this")
    return any(this.at(text.words, j) is not None for j in range(k + 2, min(k + 4, len(text.words))))
