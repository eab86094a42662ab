"""Places where a paper marks a name as its own without an introducing verb before it.

"X, a novel prior", "our framework LeLaN", "our probabilistic approach (PRCut)", "This work provides an
approach, FaithfulDefense, that …", "our FooNet outperforms …" (see :mod:`.artifacts` for the verbs).
"""

from __future__ import annotations

from spacy.tokens import Span

from .artifact_names import is_coined
from .artifact_types import HYPHENS, in_parentheses, type_word
from .words import BLOCKERS, SUBJECT_WORDS


def described_as_new(span: Span, sent: Span, k: int) -> bool:
    """ "X, a novel prior", "our Inverse-Flow models", "a novel Backclip mechanism", "a new metric, the … (RKS)"."""
    doc = span.doc
    if (
        k + 2 < sent.end
        and doc[k].text == ","
        and doc[k + 1].lower_ in {"a", "an"}
        and doc[k + 2].lower_ in {"new", "novel"}
    ):
        return True
    if (
        span.start > sent.start
        and doc[span.start - 1].lower_ in {"our", "novel", "new"}
        and k < sent.end
        and type_word(doc[k])
    ):
        return True
    if _appositive_of_our_kind(span, sent, k) or _after_our_type_word(span, sent):
        return True
    news = [t.i for t in doc[max(sent.start, span.start - 9) : span.start] if t.lower_ in {"new", "novel"}]
    return (
        bool(news)
        and any(type_word(t) for t in doc[news[0] : span.start])
        and not any(t.lower_ in BLOCKERS for t in doc[news[0] : span.start])
    )


#: Quotation marks a name may stand in ("Our solution ``CASE''").
QUOTES = {"`", "``", "'", "''", '"', "\u201c", "\u201d", "\u2018", "\u2019"}


#: Lower-case words that may stand between "our" and its type word ("our probabilistic approach (PRCut)").
MAX_MODIFIERS = 3


def _after_our_type_word(span: Span, sent: Span) -> bool:
    """ "Our solution ``CASE'' aims …", "our framework LeLaN uses …", "our probabilistic approach (PRCut)",
    "the proposed method (X)": the name right after (or in parentheses after) the paper's own type word."""
    doc, j = span.doc, span.start - 1
    while j > sent.start and (doc[j].text in QUOTES or (doc[j].text == "(" and in_parentheses(span))):
        j -= 1
    if not type_word(doc[j]):
        return False
    k = j - 1
    while k >= max(sent.start, j - MAX_MODIFIERS) and _modifier(doc[k]):
        k -= 1
    proposed = any(t.lower_ == "proposed" for t in doc[k + 1 : j])
    return k >= sent.start and (doc[k].lower_ == "our" or (doc[k].lower_ == "the" and proposed))


def _modifier(token) -> bool:
    """A lower-case word of a description ("probabilistic", "proposed", "error-bounded" in its parts)."""
    return (token.is_alpha and token.text.islower() and token.lower_ not in BLOCKERS | {"our", "the"}) or (
        token.text in HYPHENS
    )


def _appositive_of_our_kind(span: Span, sent: Span, k: int) -> bool:
    """ "This work provides an approach, FaithfulDefense, that …": a name set off by commas after "a <type
    word>" in a sentence whose subject is the paper ("we", "this work"), not after a blocker ("against")."""
    doc, start = span.doc, span.start
    if not (start - 3 >= sent.start and k < sent.end and doc[k].text == "," and doc[start - 1].text == ","):
        return False
    before = doc[sent.start : start - 3]
    return (
        doc[start - 3].lower_ in {"a", "an"}
        and bool(type_word(doc[start - 2]))
        and any(t.lower_ in SUBJECT_WORDS for t in before)
        and not any(t.lower_ in BLOCKERS for t in before)
    )


def ours(span: Span) -> bool:
    """ "our FooNet outperforms …": a coined name right after "our" and before its verb ("our PyTorch code"
    names no artifact, "our BF16 with SR strategy" is a description)."""
    doc, k = span.doc, span.end
    verb = k < len(doc) and doc[k].is_lower and (doc[k].lower_.endswith("s") or doc[k].lower_ == "can")
    return verb and span.start >= 1 and doc[span.start - 1].lower_ == "our" and len(span) == 1 and is_coined(span.text)
