"""Names that a naming word gives: "dubbed X", "a scheme that we call X", "we refer to it as X",
"the resulting method (referred to as SPMA)"; and the named parts of what the paper introduces
("InterACT consists of a Hierarchical Attention Encoder and a Multi-arm Decoder")."""

from __future__ import annotations

from collections.abc import Collection

from spacy.tokens import Span

from .artifact_types import type_word
from .words import BLOCKERS, NAMING, NOVELTY, OBJECT_WORDS, OWN_MARK_WORDS, PARTS, REFERRING, RESULT_LINKS, RESULTING


def we_name(before: Span) -> bool:
    """ "a scheme that we call X": the paper itself names a thing of a type word (among the three words
    before the name); "navigation tasks we call MINT" names a task, no artifact."""
    doc, tail = before.doc, list(before[-4:])
    return any(
        a.lower_ == "we" and b.lower_ in NAMING and any(type_word(t) for t in doc[max(0, a.i - 2) : a.i])
        for a, b in zip(tail, tail[1:])
    )


#: How many tokens before a naming word a type word may stand ("a … method for global optimization, called").
KIND_REACH = 10


def kind_named(lead: Span) -> bool:
    """Whether a type word stands shortly before the naming word that ends ``lead``."""
    doc = lead.doc
    if naming_object(lead) is not None:  # "we term this approach …": the type word is the verb's object
        return True
    naming = next((t.i for t in reversed(lead[-3:]) if t.lower_ in NAMING), None)
    return naming is not None and any(type_word(t) for t in doc[max(lead.start, naming - KIND_REACH) : naming])


def after_a_naming_word(before: Span) -> bool:
    """A naming word ("named", "called") among the three words before the name, but not "so called";
    or "as" after the paper's referring word ("we refer to the resulting algorithm as FooGrad"; "is often
    referred to as SGD-M" is the literature's name)."""
    if len(before) and before[-1].lower_ == "as" and _the_paper_refers(before):
        return True
    named = any(t.lower_ in NAMING for t in before[-3:]) and not (len(before) >= 3 and before[-3].lower_ == "so")
    return named or naming_object(before) is not None


def after_a_result_word(token) -> bool:
    """ "resulting in", "leading to", "yielding": what the paper's own work yields."""
    doc, i = token.doc, token.i
    if token.lower_ in RESULTING:
        return i + 1 < len(doc) and doc[i + 1].lower_ not in RESULT_LINKS
    return i >= 1 and token.lower_ in RESULT_LINKS and doc[i - 1].lower_ in RESULTING


def naming_object(before: Span) -> int | None:
    """ "We call our method X", "we term this approach sparse mixture routing (SMR)", "we call the resulting
    framework X": the index of the naming verb whose object, the paper's own type word, ends ``before``."""
    doc = before.doc
    if not len(before) or not type_word(before[-1]):
        return None
    k = before[-1].i - 1
    while k > before.start and (doc[k].lower_ in OBJECT_WORDS or doc[k].lower_ in RESULTING):
        k -= 1
    return k if k < before[-1].i - 1 and doc[k].lower_ in NAMING and doc[k].lower_ != "named" else None


def _the_paper_refers(before: Span) -> bool:
    """Whether the referring word before "as" is the paper's own ("we refer to …", "(referred to as …")."""
    words = {t.lower_ for t in before[-8:-1]}
    referring = words & REFERRING
    if not referring:
        return False
    said_by_us = any(t.lower_ == "we" for t in before)
    # "we combine both ideas and refer to this approach as X": the active verb after "we" in the sentence
    active = any(not word.endswith("ed") for word in referring) and said_by_us
    # "we further introduce … techniques, referred to as EPN-reg", "Our proposed class of architectures,
    # referred to as Steinmetz Neural Networks": set off from the paper's own type word
    set_off = len(before) >= 5 and before[-4].text in {",", "("} and bool(type_word(before[-5]))
    ours = any(t.lower_ in OWN_MARKS for t in before[:-5])
    return "we" in words or "(" in words or active or (set_off and (said_by_us or ours))


#: Words before a type word that make it the paper's own thing ("the resulting method", "our method").
OWN_MARKS = RESULTING | NOVELTY | OWN_MARK_WORDS


def referred_to_in_parentheses(before: Span) -> bool:
    """ "we … analyze the resulting method (referred to as SPMA)": a referring word in parentheses right
    after the paper's own type word ("the resulting", "our", "the proposed") names it."""
    doc, end = before.doc, before.end
    return (
        len(before) >= 6
        and doc[end - 4].text == "("
        and doc[end - 3].lower_ in REFERRING
        and bool(type_word(doc[end - 5]))
        and any(t.lower_ in OWN_MARKS for t in doc[max(before.start, end - 8) : end - 5])
    )


#: The most tokens between a word for parts and a part's name ("consists of a Hierarchical …").
MAX_PART_DISTANCE = 12


def named_part(span: Span, sent: Span, introduced: Collection[str]) -> bool:
    """ "InterACT consists of a Hierarchical Attention Encoder and a Multi-arm Decoder": a name after a
    word for parts whose subject is the paper's own artifact (a name it ``introduced``, "our framework",
    "the proposed method"); "ResNet consists of residual blocks" names no part of the paper's."""
    doc = span.doc
    window = doc[max(sent.start, span.start - MAX_PART_DISTANCE) : span.start]
    parts = next((t.i for t in reversed(window) if t.lower_ in PARTS), None)
    if parts is None or any(t.lower_ in BLOCKERS - {"of", ":"} for t in doc[parts + 1 : span.start]):
        return False
    subject = doc[sent.start : parts]
    return any(t.text in introduced or t.lower_ in OWN_MARK_WORDS for t in subject)
