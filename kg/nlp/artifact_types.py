"""Where an artifact's name stands in its sentence, and what kind of artifact the paper calls it.

The kind comes from the paper's own word for the artifact (``type`` rows of
``ontology/paper-words.tsv``), nearest evidence first; see :func:`artifact_type`.
"""

from __future__ import annotations

import bisect

from spacy.tokens import Span

from .normalise import normal_form
from .words import (
    ACTION_NOUN_ENDINGS,
    APPOSITION_STARTS,
    BLOCKERS,
    FURTHER_STEPS,
    INTRODUCING,
    LIST_JOINERS,
    NAME_ENDINGS,
    NOVELTY,
    SUBJECT_WORDS,
    TYPE_WORDS,
    VERB_LEADS,
)

HYPHENS = {"-", "\u2010", "\u2011", "\u2013"}
# Tokens a name's context is searched back from it: bounds the work per name on sentences of any length.
LOOKBACK = 60


def type_word(token) -> str | None:
    """The artifact kind a word names, unless it only modifies a hyphenated compound ("model-agnostic")."""
    nxt = token.nbor(1) if token.i + 1 < len(token.doc) else None
    if nxt is not None and nxt.text in HYPHENS and not token.whitespace_:
        return None
    return TYPE_WORDS.get(token.norm_) or TYPE_WORDS.get(token.lower_)


#: Words after a type word that end its noun phrase ("a modular architecture for …", "policies and").
PHRASE_ENDS = BLOCKERS | LIST_JOINERS
#: Lower-case words searched after a type word for a later head noun of the same phrase.
HEAD_LOOKAHEAD = 3


def head_type(token, in_title: bool = False) -> str | None:
    """The kind a type word names as the head noun of its phrase: not as the tail of a hyphenated
    compound ("cross-platform", "multi-agent") nor as a modifier of a later noun ("an environment design
    algorithm", "a policy network", "score distillation"; in a title a gerund after it: "Efficient Policy
    Learning")."""
    doc, i = token.doc, token.i
    kind = type_word(token)
    if kind is None or (i >= 1 and doc[i - 1].text in HYPHENS and not doc[i - 1].whitespace_) or _a_verb(token):
        return None
    for following in doc[i + 1 : min(len(doc), i + 1 + HEAD_LOOKAHEAD)]:
        if not following.is_alpha or following.lower_ in PHRASE_ENDS:
            break
        if type_word(following) or (in_title and following.lower_.endswith("ing")):
            return None
        if not following.is_lower:
            break
        if following.lower_.endswith(ACTION_NOUN_ENDINGS):
            return None
    return kind


def _a_verb(token) -> bool:
    """ "a method to statistically test FS reliability, named SFS-DA": after "to", a subject pronoun or a
    modal (and adverbs), a type word is a verb; "a test (SFS-DA)" is a noun."""
    doc, i = token.doc, token.i - 1
    while i >= 0 and doc[i].is_lower and doc[i].lower_.endswith("ly"):
        i -= 1
    return i >= 0 and doc[i].lower_ in VERB_LEADS


def sentence(span: Span) -> Span:
    """The span's sentence, cut to LOOKBACK tokens either side: spaCy's ``span.sent`` walks the
    whole sentence, which made a 20 kB one-sentence abstract quadratic."""
    doc = span.doc
    starts = doc.user_data.get(_SENTENCE_STARTS)
    if starts is None:  # once per document
        starts = doc.user_data[_SENTENCE_STARTS] = [sent.start for sent in doc.sents] + [len(doc)]
    at = bisect.bisect_right(starts, span.start) - 1
    return doc[max(starts[at], span.start - LOOKBACK) : min(starts[at + 1], span.end + LOOKBACK)]


_SENTENCE_STARTS = "kg.sentence_starts"


def in_parentheses(span: Span) -> bool:
    doc = span.doc
    return span.start >= 1 and doc[span.start - 1].text == "(" and span.end < len(doc) and doc[span.end].text == ")"


def after_parenthetical(span: Span) -> int:
    """Index of the first token after the name and a parenthesis right behind it (or around it)."""
    doc, k = span.doc, span.end
    if in_parentheses(span):
        return k + 1
    if k < len(doc) and doc[k].text == "(":
        while k < len(doc) and doc[k].text != ")":
            k += 1
        k += 1
    return k


def artifact_type(span: Span, long_form: str | None, named_from: int | None = None) -> str | None:
    """What the paper calls the artifact, nearest evidence first.

    1. the word right after the name ("a Mixture-of-Judges framework");
    2. an apposition ("LUMoE, an effective and efficient method");
    3. a type word shortly before it or its long form (``named_from``: "a new metric, the Residual
       Knowledge Score (RKS)", "an objective …, which we call LayerTie"), not across the introducing
       verb; a type word before a colon names the list after it ("two frameworks: … policies (A and B)");
    4. the next sentence ("… (BSCT). This efficient benchmark …");
    5. the last word of its long form ("… Characterization Test") or of its own words ("Analytic Neural
       Network"), or its own ending (…Bench).
    """
    sent, k = sentence(span), after_parenthetical(span)
    for evidence in _TYPE_EVIDENCE:
        if kind := evidence(span, sent, k, long_form):
            return kind
    if kind := _word_before(span, sent, span.start if named_from is None else named_from):
        return kind
    for evidence in _LATER_EVIDENCE:
        if kind := evidence(span, sent, k, long_form):
            return kind
    return suffix_type(span.text)


#: The most tokens of the names after a name's "and" before the type word they share.
MAX_LISTED_TOKENS = 5


def _word_after(span: Span, sent: Span, k: int, long_form: str | None) -> str | None:
    """ "a Mixture-of-Judges framework": the word right after the name (and its parenthesis); "the FD-UCB
    and IS-UCB algorithms": the type word after the names the name's "and" joins it to."""
    doc = span.doc
    if k < sent.end and doc[k].lower_ in LIST_JOINERS:
        j = k + 1
        while j < min(sent.end, k + 1 + MAX_LISTED_TOKENS) and not doc[j].is_lower:
            j += 1
        if k + 1 < j < sent.end and (kind := type_word(doc[j])):
            return kind
    return type_word(doc[k]) if k < sent.end else None


#: What sets an apposition off from its name ("LUMoE, an effective method", "PAWS-Data: an extensive dataset").
APPOSITION_MARKS = {",", ":", "\u2014", "--"}


def _apposition(span: Span, sent: Span, k: int, long_form: str | None) -> str | None:
    """ "LUMoE, an effective and efficient method": a type word in the clause after a comma."""
    doc = span.doc
    if k + 1 < sent.end and doc[k].text in APPOSITION_MARKS and doc[k + 1].lower_ in APPOSITION_STARTS:
        words = 0  # "DIP, a new mathematical decomposition of … scores": the head noun stands before its "of"
        for token in doc[k + 1 : min(sent.end, k + 14)]:
            if token.text in {".", ";"} or token.lower_ in {"that", "which", "who", "where", "to"}:
                break
            if kind := head_type(token):
                return kind
            if token.lower_ == "of" and words >= 2:
                break
            words += token.is_alpha and token.lower_ not in APPOSITION_STARTS and token.lower_ not in NOVELTY
    return None


def _word_before(span: Span, sent: Span, start: int) -> str | None:
    """ "a new metric, the Residual Knowledge Score (RKS)": a type word shortly before the name (or before
    its long form, from ``start``), not across the introducing verb; the type word before a colon
    names what the colon lists ("two frameworks: … decision tree policies (A and B)")."""
    nearest = None
    for token in reversed(span.doc[max(sent.start, start - 14) : start]):
        if token.lower_ in INTRODUCING:
            break
        if token.text == ":" and token.i >= 1 and (listed := type_word(span.doc[token.i - 1])):
            return listed
        if nearest is None and token.text != "(":
            nearest = head_type(token)
    return nearest


def _next_sentence(span: Span, sent: Span, k: int, long_form: str | None) -> str | None:
    """ "… (BSCT). This efficient benchmark …": a type word early in the next sentence that refers back."""
    doc = span.doc
    if sent.end < len(doc):
        following = doc[sent.end : sent.end + 5]
        if following[0].lower_ in {"this", "these", "it", "the", "our"}:
            for token in following[1:]:
                if kind := type_word(token):
                    return kind
    return None


def _long_form_ending(span: Span, sent: Span, k: int, long_form: str | None) -> str | None:
    """ "… Characterization Test": the last word of the long form, or of a name of several words ("we present
    the Analytic Neural Network, which …")."""
    words = (long_form or span.text).split()
    return TYPE_WORDS.get(normal_form(words[-1]).lower()) if long_form or len(words) > 1 else None


#: The evidence for an artifact's kind, nearest first (see :func:`artifact_type`), before and after the
#: type word before the name.
_TYPE_EVIDENCE = (_word_after, _apposition)
_LATER_EVIDENCE = (_next_sentence, _long_form_ending)


def suffix_type(name: str) -> str | None:
    """The kind a name's ending says ("FooBench" -> benchmark, "FooNet" -> model), or None."""
    lowered = name.lower()
    return next((kind for ending, kind in NAME_ENDINGS.items() if lowered.endswith(ending)), None)


def title_type(span: Span, long_form: str | None = None) -> str | None:
    """ "PAWS: A Benchmark for …" -> benchmark (the head nouns of the first few words after the colon
    only: "EXTRACT: Efficient Policy Learning by …" names no kind), else the last word of the name's
    long form ("Surgical Robot Transformer (SRT): …")."""
    for token in span.doc[span.end + 1 : span.end + 8]:
        if token.lower_ in BLOCKERS:
            break
        if kind := head_type(token, in_title=True):
            return kind
    return _long_form_ending(span, span, span.end, long_form)


#: The most tokens between an introducing verb and the head noun of the unnamed thing it introduces.
INTRODUCED_REACH = 8


def unnamed_kind(doc) -> str | None:
    """ "To address this problem, we present a large-scale synthetic dataset, …": the kind of the first thing
    the paper says it introduces ("we" or "this paper" and an introducing verb), by its head noun before any
    blocker or punctuation; None when that first introduction names no kind or is a further step ("Second,
    we introduce a novel transformer" introduces a part)."""
    for token in doc:
        if token.lower_ not in INTRODUCING or not token.i or doc[token.i - 1].lower_ not in SUBJECT_WORDS:
            continue
        if any(t.lower_ in FURTHER_STEPS for t in doc[token.sent.start : token.i]):
            return None
        for following in doc[token.i + 1 : min(len(doc), token.i + 1 + INTRODUCED_REACH)]:
            if following.lower_ in BLOCKERS or (following.is_punct and following.text not in HYPHENS):
                break
            if kind := head_type(following):
                return kind
        return None
    return None
