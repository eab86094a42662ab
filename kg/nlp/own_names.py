"""Places where a paper marks a name as its own without an introducing verb before it.

"X, a novel prior", "our framework LeLaN", "our probabilistic approach (PRCut)", "This work provides an
approach, FaithfulDefense, that …", "our FooNet outperforms …", "Our method, PALO, …", "(ii) SEE-Splat,
a real-time module", and the passive "FooNet is proposed to …" (see :mod:`.artifacts` for the verbs).
"""

from __future__ import annotations

from spacy.tokens import Span

from .artifact_names import is_coined
from .artifact_types import HYPHENS, after_parenthetical, in_parentheses, sentence, type_word
from .long_forms import long_form_start
from .words import (
    BLOCKERS,
    ENUMERATORS,
    FINITE_BEFORE,
    INDEFINITE_ARTICLES,
    INTRODUCING,
    NOVELTY,
    OWN_PARTICIPLES,
    PASSIVE_ADVERBS,
    PASSIVE_AUXILIARIES,
    SUBJECT_WORDS,
    is_type_word,
)


def described_as_new(span: Span, sent: Span, k: int) -> bool:
    """ "X, a novel prior", "our Inverse-Flow models", "a novel Backclip mechanism", "a new metric, the … (RKS)"."""
    return (
        _a_new_one_after(span, sent, k)
        or _our_type_word_after(span, sent, k)
        or _appositive_of_our_kind(span, sent, k)
        or _after_our_type_word(span, sent)
        or _new_type_word_before(span, sent)
    )


def _a_new_one_after(span: Span, sent: Span, k: int) -> bool:
    """ "X, a novel prior": "a new" or "a novel" right after the name's comma."""
    doc = span.doc
    return (
        k + 2 < sent.end
        and doc[k].text == ","
        and doc[k + 1].lower_ in INDEFINITE_ARTICLES
        and doc[k + 2].lower_ in NOVELTY
    )


def _our_type_word_after(span: Span, sent: Span, k: int) -> bool:
    """ "our Inverse-Flow models", "a novel Backclip mechanism", "the proposed X algorithm": "our", "new",
    "novel" or "the proposed" before the name (or its long form: "a novel Foundation Tactile (FoTa)
    dataset") and a type word after it."""
    doc, i = span.doc, long_form_start(span)  # "a novel Foundation Tactile (FoTa) dataset"
    # "the proposed Action-wise OAS-UCRL algorithm" ("the recently proposed X algorithm" is another's)
    proposed = i - 2 >= sent.start and doc[i - 1].lower_ == "proposed" and doc[i - 2].lower_ in {"the", "our"}
    return (
        i > sent.start
        and (doc[i - 1].lower_ in NOVELTY | {"our"} or proposed)
        and k < sent.end
        and bool(type_word(doc[k]))
    )


def _new_type_word_before(span: Span, sent: Span) -> bool:
    """ "a new metric, the Residual Knowledge Score (RKS)": "new" or "novel" and a type word shortly
    before the name, no blocker between and no comma but the one right after the type word."""
    doc = span.doc
    news = [t.i for t in doc[max(sent.start, span.start - 9) : span.start] if t.lower_ in NOVELTY]
    typed = [t.i for t in doc[news[0] : span.start] if type_word(t)] if news else []
    # "novel data collection methods involving simulator rollouts, X consists …": a comma after other
    # words than the type word ends its phrase
    cut = typed and any(t.text == "," and t.i != typed[-1] + 1 for t in doc[typed[-1] : span.start])
    return bool(typed) and not cut and not any(t.lower_ in BLOCKERS for t in doc[news[0] : span.start])


#: Quotation marks a name may stand in ("Our solution ``CASE''").
QUOTES = {"`", "``", "'", "''", '"', "\u201c", "\u201d", "\u2018", "\u2019"}


#: Lower-case words that may stand between "our" and its type word ("our probabilistic approach (PRCut)").
MAX_MODIFIERS = 3


def _after_our_type_word(span: Span, sent: Span) -> bool:
    """ "Our solution ``CASE'' aims …", "our framework LeLaN uses …", "our probabilistic approach (PRCut)",
    "the proposed method (X)", "our algorithm, X, …": the name right after (in parentheses or commas after)
    the paper's own type word."""
    doc, j = span.doc, span.start - 1
    # "we demonstrate that our algorithm, QuickPrune, efficiently prunes …": set off by commas
    appositive = span.end < sent.end and doc[span.end].text == ","
    while j > sent.start and (
        doc[j].text in QUOTES or (doc[j].text == "(" and in_parentheses(span)) or (doc[j].text == "," and appositive)
    ):
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
        doc[start - 3].lower_ in INDEFINITE_ARTICLES
        and bool(type_word(doc[start - 2]))
        and any(t.lower_ in SUBJECT_WORDS for t in before)
        and not any(t.lower_ in BLOCKERS for t in before)
    )


def ours(span: Span) -> bool:
    """ "our FooNet outperforms …", "Our Evidential Probing Network (EPN) uses …", "we train our Acoustic Noise
    Predictor (ANP)": a coined name (or its long form) right after "our", and before its verb unless its long
    form stands before it ("our PyTorch code" names no artifact, "our BF16 with SR
    strategy" is a description)."""
    doc, k, start = span.doc, after_parenthetical(span), long_form_start(span)
    # "the proposed SpaRo outperforms …", "the resulting … (SMS-UBU) integrator" are "our SpaRo"; "the recently
    # proposed X" is another's
    proposed = start >= 2 and doc[start - 1].lower_ in OWN_PARTICIPLES and doc[start - 2].lower_ == "the"
    if (
        not (proposed or (start >= 1 and doc[start - 1].lower_ == "our"))
        or " " in span.text
        or not is_coined(span.text)
    ):
        return False
    # "we … train our Acoustic Noise Predictor (ANP)": a name with its long form after "our" is the paper's
    spelled = in_parentheses(span) and start < span.start - 1
    return spelled or (k < len(doc) and doc[k].is_lower and (doc[k].lower_.endswith("s") or doc[k].lower_ == "can"))


def enumerated_part(span: Span, k: int) -> bool:
    """A named part in an enumeration of the contribution: "(ii) SEE-Splat, a real-time module"."""
    doc = span.doc
    return (
        span.start >= 3
        and doc[span.start - 1].text == ")"
        and doc[span.start - 2].lower_ in ENUMERATORS
        and doc[span.start - 3].text == "("
        and k + 1 < len(doc)
        and doc[k].text == ","
        and doc[k + 1].lower_ in INDEFINITE_ARTICLES
    )


def our_kind_first(sent: Span, span: Span) -> bool:
    """A sentence that starts "Our <type word>," names the paper's own artifact next ("Our method, PALO, …")."""
    doc = span.doc
    head = doc[sent.start : min(sent.end, sent.start + 4)]
    return (
        len(head) >= 3
        and head[0].lower_ == "our"
        and any(is_type_word(t) for t in head[1:3])
        and any(t.text == "," for t in head)
        and span.start - sent.start <= 16
    )


#: The most lower-case words of a description between a name and its passive verb ("… (MVQ-Former) for
#: aggregating semantic information is introduced").
MAX_PASSIVE_REACH = 8


def _passive_verb_after(span: Span, k: int) -> int | None:
    """The index of the "is" / "are" of the name's passive verb: at ``k``, or past a lower-case description
    of the name that the sentence opens with ("An efficient … Transformer (MVQ-Former) for aggregating
    information is introduced"); None without one."""
    doc, sent = span.doc, sentence(span)
    if k < len(doc) and doc[k].lower_ in PASSIVE_AUXILIARIES:
        return k
    verb = None
    for j in range(k, min(sent.end, k + MAX_PASSIVE_REACH)):
        if doc[j].lower_ in PASSIVE_AUXILIARIES:
            verb = j
            break
        if not (doc[j].is_lower and doc[j].is_alpha) and doc[j].text not in HYPHENS:
            return None
    opening = doc[max(sent.start, span.start - 2 * MAX_PASSIVE_REACH) : span.start]
    return None if verb is None or any(t.lower_ in FINITE_BEFORE for t in opening) else verb


def passive_introduction(span: Span) -> bool:
    """ "FooNet is proposed to solve …": the name is the subject of an introducing verb in the present
    passive; "is proposed by Smith" (a capitalised agent) is another's."""
    doc, k = span.doc, after_parenthetical(span)  # "The Local Learning Coefficient (LLC) is introduced as …"
    if k + 2 < len(doc) and type_word(doc[k]) and doc[k + 1].lower_ in PASSIVE_AUXILIARIES:
        k += 1  # "the FooBar module is introduced to …"
    k = _passive_verb_after(span, k)
    if k is None or k + 1 >= len(doc):
        return False
    k += 1
    if doc[k].lower_ in PASSIVE_ADVERBS or doc[k].lower_.endswith("ly"):
        k += 1
    if k >= len(doc) or doc[k].lower_ not in INTRODUCING or not doc[k].lower_.endswith(("ed", "built")):
        return False
    return not (k + 2 < len(doc) and doc[k + 1].lower_ == "by" and doc[k + 2].text[:1].isupper())
