"""Lemma-like normal forms, so that plurals, case and spelling variants match one label.

``normal_form`` is applied to the words of the text (by the ``kg_normalise`` component, as
``Token.norm_``) and to the words of every topic label, so what matters is that both sides
are reduced the same way, not that the result is a dictionary lemma. Acronyms and coined
names (two or more capitals: "LLMs", "MoE", "RoPE") keep their case, so "RL" does not match
"rl" and "MoE" not "moe"; their plural "s" is dropped ("LLMs" -> "LLM").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from spacy.language import Language
from spacy.tokens import Doc, Span

from ..text.names import is_acronym

_BRITISH = (
    (re.compile(r"isation$"), "ization"),
    (re.compile(r"ising$"), "izing"),
    (re.compile(r"ised$"), "ized"),
    (re.compile(r"([aeiou])lling$"), r"\1ling"),
    (re.compile(r"([aeiou])lled$"), r"\1led"),
    (re.compile(r"(?<=[a-z]{3})our$"), "or"),
)
# Words whose final "s" is not a plural: keep them whole.
_NOT_PLURAL = re.compile(r"(ss|us|is|ics|ous|ws)$")


def singular(word: str) -> str:
    """A crude singular of a lower-case English word (consistent, not always a real word)."""
    if len(word) <= 3 or _NOT_PLURAL.search(word):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


@lru_cache(maxsize=1 << 18)  # a text's words are mostly the same few thousand
def normal_form(word: str) -> str:
    if is_acronym(word):
        return word[:-1] if word.endswith("s") and len(word) > 2 and word[-2].isupper() else word
    lowered = word.lower().replace("\u2019", "'")
    for pattern, replacement in _BRITISH:
        lowered = pattern.sub(replacement, lowered)
    return singular(lowered)


@dataclass(frozen=True)
class DocWords:
    """A doc's tokens as plain strings, by index, read once: the context rules scan the words around every
    mention, and a spaCy token made for each look was most of their cost."""

    text: list[str]
    lower: list[str]
    norm: list[str]  # the normal form, as ``Token.norm_``
    cue: list[str]  # the normal form in lower case, as cues are compared
    spaced: list[bool]  # followed by whitespace


#: ``Doc.user_data`` key of the doc's :class:`DocWords` (a plain key: an extension's look-up costs more).
WORDS = "kg.words"


def doc_words(words: Doc | Span) -> DocWords:
    """The word table of a doc, or of a span's doc (set by the ``kg_normalise`` component)."""
    doc = words if isinstance(words, Doc) else words.doc
    return doc.user_data[WORDS]


@Language.component("kg_normalise", assigns=["token.norm"])
def normalise(doc: Doc) -> Doc:
    """Set every token's NORM to its normal form (the topic matcher matches on NORM), and the doc's
    word table (:class:`DocWords`, in ``user_data``)."""
    texts, lowers, norms, spaced = [], [], [], []
    for token in doc:
        text = token.text
        token.norm_ = norm = normal_form(text)
        texts.append(text)
        lowers.append(token.lower_)
        norms.append(norm)
        spaced.append(bool(token.whitespace_))
    doc.user_data[WORDS] = DocWords(texts, lowers, norms, [_cue_form(norm) for norm in norms], spaced)
    return doc


@lru_cache(maxsize=1 << 16)
def _cue_form(norm: str) -> str:
    return norm.lower()
