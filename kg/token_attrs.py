"""The base pipeline's ``attribute_ruler`` and ``lemmatizer``, memoized per token.

Both components are token-local rules: the ruler's patterns read a token's ``LOWER``, ``TAG``,
``DEP`` and ``IS_SPACE`` (all fixed by its ``ORTH``, ``TAG`` and ``DEP``), and the rule lemmatizer
reads its text, ``POS`` and ``MORPH``. So the ``POS``, ``MORPH`` and ``LEMMA`` they leave on a token
are a function of ``(ORTH, TAG, DEP)``, computed once by the real components and looked up
afterwards. The few ruler patterns that span two tokens (``there`` + ``is`` → ``VERB``, ``gon na``)
make a token depend on its neighbours: those tokens are found with a matcher of just these patterns
and computed on a three-token window around them, by the real components again.

The output is the stock components' output (checked token by token on real abstracts by the tests);
the time is not: on ML abstracts the two took about a fifth of the parse, this takes a dictionary
lookup per token.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy
from spacy.attrs import DEP, LEMMA, MORPH, ORTH, POS, TAG
from spacy.language import Language
from spacy.matcher import Matcher
from spacy.tokens import Doc

if TYPE_CHECKING:
    from collections.abc import Callable

FACTORY = "kg_token_attrs"
ATTRS = [POS, MORPH, LEMMA]
# What a ruler pattern may read for the memoization to be exact: the token's tag and label, and
# attributes of its word alone. A pattern reading anything else (POS, ENT_TYPE, an operator, an
# extension) leaves the pipeline as it is.
TOKEN_LOCAL = frozenset(
    ("ORTH", "TEXT", "LOWER", "NORM", "SHAPE", "PREFIX", "SUFFIX", "LENGTH", "TAG", "DEP")
)


class TokenAttrs:
    """Sets what ``ruler`` then ``lemmatizer`` would set, from a cache keyed by (ORTH, TAG, DEP)."""

    def __init__(self, nlp: Language, ruler: str, lemmatizer: str) -> None:
        self.vocab = nlp.vocab
        self.ruler: Callable[[Doc], Doc] = nlp.get_pipe(ruler)
        self.lemmatizer: Callable[[Doc], Doc] = nlp.get_pipe(lemmatizer)
        # The two-token patterns, and each of their token slots as a one-token pattern: a doc is
        # searched for the former only when its tokens fill every slot of one (a bit mask per
        # token, cached with its attributes), which on abstracts is rare.
        self.context = Matcher(self.vocab, validate=False)
        self.slots = Matcher(self.vocab, validate=False)
        self.needs: list[int] = []
        for i, entry in enumerate(getattr(self.ruler, "patterns", [])):
            spanning = [p for p in entry["patterns"] if len(p) > 1]
            if spanning:
                self.context.add(f"ctx{i}", spanning)
            for pattern in spanning:
                need = 0
                for spec in pattern:
                    bit = 1 << len(self.slots)
                    self.slots.add(str(bit), [[spec]])
                    need |= bit
                self.needs.append(need)
        self.cache: dict[tuple[int, int, int], tuple[int, int, int, int]] = {}

    def __call__(self, doc: Doc) -> Doc:
        if not len(doc):
            return doc
        keys = [tuple(k) for k in doc.to_array([ORTH, TAG, DEP]).tolist()]
        cache = self.cache
        missing = {k: i for i, k in enumerate(keys) if k not in cache}
        if missing:
            self._fill(doc, list(missing.values()))
        out = [cache[k] for k in keys]
        filled = 0
        for value in out:
            filled |= value[3]
        if any(filled & need == need for need in self.needs):
            for _, start, end in self.context(doc, allow_missing=True):
                for i in range(start, end):
                    out[i] = (*self._window(doc, i), 0)
        values: Any = numpy.asarray([v[:3] for v in out], dtype="uint64")
        doc.from_array(ATTRS, values)
        return doc

    def _fill(self, doc: Doc, indices: list[int]) -> None:
        """Cache the tokens at ``indices``: run the real components once over those tokens side by side.

        Tokens side by side can only influence one another through the two-token patterns; where
        those match in the side-by-side doc, the tokens involved are computed alone instead.
        """
        small = self._doc([doc[i] for i in indices])
        clash: set[int] = set()
        for _, start, end in self.context(small, allow_missing=True):
            clash.update(range(start, end))
        masks = [0] * len(small)
        for slot, start, _ in self.slots(small, allow_missing=True):
            masks[start] |= int(self.vocab.strings[slot])
        values = self.lemmatizer(self.ruler(small)).to_array(ATTRS).tolist()
        for j, i in enumerate(indices):
            pos, morph, lemma = self._window(doc, i, alone=True) if j in clash else values[j]
            self.cache[doc[i].orth, doc[i].tag, doc[i].dep] = (pos, morph, lemma, masks[j])

    def _doc(self, toks: list[Any]) -> Doc:
        """A new doc of ``toks``' words with their tags and dependency labels (each its own head)."""
        return Doc(
            self.vocab,
            words=[t.text for t in toks],
            spaces=[bool(t.whitespace_) for t in toks],
            tags=[t.tag_ for t in toks],
            deps=[t.dep_ for t in toks],
            heads=list(range(len(toks))),  # the rules read labels, not the tree
        )

    def _window(self, doc: Doc, i: int, alone: bool = False) -> tuple[int, int, int]:
        """Run the real components on token ``i`` with its neighbours (or alone) and read it back."""
        lo, hi = (i, i + 1) if alone else (max(0, i - 1), min(len(doc), i + 2))
        small = self.lemmatizer(self.ruler(self._doc(list(doc[lo:hi]))))
        pos, morph, lemma = small.to_array(ATTRS).tolist()[i - lo]
        return pos, morph, lemma

    def to_disk(self, *args: Any, **kwargs: Any) -> None:
        """Nothing to save: the wrapped components are saved under their own names."""

    def from_disk(self, *args: Any, **kwargs: Any) -> TokenAttrs:
        """Nothing to load (see :meth:`to_disk`)."""
        return self


@Language.factory(FACTORY, default_config={"ruler": "attribute_ruler", "lemmatizer": "lemmatizer"})
def make_token_attrs(nlp: Language, name: str, ruler: str, lemmatizer: str) -> TokenAttrs:
    """spaCy factory: wraps the (disabled) components named ``ruler`` and ``lemmatizer``."""
    return TokenAttrs(nlp, ruler, lemmatizer)


def install(nlp: Language) -> Language:
    """Put :class:`TokenAttrs` where ``attribute_ruler`` runs and disable the two it replaces.

    A pipeline without both components (another package, or one already changed), or whose ruler
    reads more than :data:`TOKEN_LOCAL` and the word's ``IS_*``/``LIKE_*`` flags, is returned as it is.
    """
    names = nlp.pipe_names
    if FACTORY in names or "attribute_ruler" not in names or "lemmatizer" not in names:
        return nlp
    if getattr(nlp.get_pipe("lemmatizer"), "mode", None) != "rule":
        return nlp
    read = {
        key.upper()
        for entry in getattr(nlp.get_pipe("attribute_ruler"), "patterns", [])
        for pattern in entry["patterns"]
        for spec in pattern
        for key in spec
    }
    if any(key not in TOKEN_LOCAL and not key.startswith(("IS_", "LIKE_")) for key in read):
        return nlp
    nlp.add_pipe(FACTORY, before="attribute_ruler")
    nlp.disable_pipe("attribute_ruler")
    nlp.disable_pipe("lemmatizer")
    return nlp
