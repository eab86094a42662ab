"""When a scheme label found in a text is a mention of its topic: the scheme's context rules.

Two data files beside the scheme say it, not code:

- ``ontology/topic-contexts.tsv``: per concept (and optionally per label) the words one of which
  the paper must contain elsewhere (``requires``: "attention" needs a transformer, token or
  softmax) and the words that must not stand right beside the label (``excludes``: "garnered
  significant attention", "hate speech", "supplementary materials");
- ``ontology/mention-cues.tsv``: words after which a mention, to the end of its clause, is not
  the paper's subject: negation ("without supervised fine-tuning"), prior work ("unlike prior
  work", "compared with"), the supplementary material, and a technique the paper only uses
  ("we use a Vision Transformer to …", "a model based on diffusion") up to what it is used for.

Besides, a label inside a URL, a path or a coined name ("Qwen2.5-0.5B-DPO") is no mention, and an
acronym counts only with an expansion (another label of its concept) in the paper or its row's
required context ("PLMs" is a protein language model only in a paper about proteins).
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from spacy.tokens import Span

from .. import ONTOLOGY_DIR
from ..errors import KgError
from .normalise import doc_words, normal_form
from .scheme import topic_scheme
from .words import CLAUSE_ENDS

CONTEXTS_FILE = ONTOLOGY_DIR / "topic-contexts.tsv"
CUES_FILE = ONTOLOGY_DIR / "mention-cues.tsv"
#: How many words either side of a label its ``excludes`` words are looked for.
NEAR = 3
#: Where a cue's reach ends: the end of its clause, and at most this many words after it.
CUE_REACH = 10
#: How far back an example cue reaches over its list ("such as translation, …, and summarization").
LIST_REACH = 40
#: Where even a list of examples ends; and the kind of cue that reaches over its list's commas.
LIST_ENDS = {".", ";", ":", "(", ")", "!", "?"}
EXAMPLE = "example"
PRIOR_WORK = "prior work"
#: A technique the paper uses ("we use", "based on") is not its subject, up to a purpose word ("to", "for").
TECHNIQUE, PURPOSE = "technique", "purpose"
#: Characters that make a whitespace-delimited word a URL, a path, an identifier or code.
NOT_PROSE = ("://", "www.", "/", "_", "@", "`", ".com", ".io", ".org", ".html")


def words_of(text: str) -> tuple[str, ...]:
    """A phrase as the normal forms of its words, hyphens as spaces ("self-attention" -> self attention)."""
    return tuple(normal_form(word) for word in _WORD.findall(text))


@lru_cache(maxsize=1 << 14)  # a mention's words, looked up for every mention of the same few thousand labels
def mention_words(text: str) -> tuple[str, ...]:
    return words_of(text)


_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


@dataclass(frozen=True)
class ContextRule:
    slug: str
    label: tuple[str, ...] | None  # the label's words; None: every label of the concept
    requires: tuple[tuple[str, ...], ...]
    excludes: frozenset[str]
    title_only: bool = False  # assigned from keywords or the title only


def _rows(path: Path, width: int):
    with path.open(encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.reader(handle, delimiter="\t"), 1):
            if not row or row[0].startswith("#"):
                continue
            if len(row) != width:
                raise KgError(f"{path}:{number}: {len(row)} fields, expected {width}")
            yield number, [field.strip() for field in row]


def _phrases(field: str) -> list[str]:
    return [phrase.strip() for phrase in field.split(",") if phrase.strip()]


@lru_cache(maxsize=1)
def context_rules() -> dict[tuple[str, tuple[str, ...] | None], ContextRule]:
    """The rules by (concept slug, label words or None), checked against the scheme."""
    concepts = {c.label: c for c in topic_scheme().concepts.values()}
    rules = {}
    for number, (concept_label, label, requires, excludes, evidence) in _rows(CONTEXTS_FILE, 5):
        concept = concepts.get(concept_label)
        if concept is None:
            raise KgError(f"{CONTEXTS_FILE}:{number}: {concept_label!r} is not a concept of the scheme")
        label_words = words_of(label) if label else None
        if label_words and label_words not in {words_of(known) for known in concept.labels}:
            raise KgError(f"{CONTEXTS_FILE}:{number}: {label!r} is not a label of {concept_label!r}")
        rules[(concept.slug, label_words)] = ContextRule(
            concept.slug,
            label_words,
            tuple(words_of(p) for p in _phrases(requires)),
            frozenset(w for p in _phrases(excludes) for w in words_of(p)),
            evidence == "title",
        )
    return rules


@lru_cache(maxsize=1)
def mention_cues() -> dict[tuple[str, ...], str]:
    """Cue words -> why a mention after them is not the paper's subject."""
    return {cue_words(cue): kind for _, (cue, kind, _example) in _rows(CUES_FILE, 3)}


def cue_words(cue: str) -> tuple[str, ...]:
    """A cue as the tokens' normal forms it is compared with (the tokenizer keeps "e.g." one token)."""
    return tuple(normal_form(word).lower() for word in cue.split())


@lru_cache(maxsize=1 << 16)
def is_acronym_label(text: str) -> bool:
    """One word of mostly capitals ("LLMs", "PLM", "MoE", "PbRL"), not a capitalised phrase or a name."""
    letters = [ch for ch in text if ch.isalpha()]
    capitals = sum(ch.isupper() for ch in letters)
    return " " not in text and capitals >= 2 and 2 * capitals >= len(letters)


def rule_for(slug: str, text: str) -> ContextRule | None:
    rules = context_rules()
    return rules.get((slug, mention_words(text))) or rules.get((slug, None))


def title_only(slug: str) -> bool:
    """Whether the topic is one papers mostly use rather than study: assigned from keywords or title only."""
    rule = context_rules().get((slug, None))
    return rule is not None and rule.title_only


def in_prose(span: Span) -> bool:
    """False for a label inside a URL, a path, code, or a coined name with digits ("Qwen2.5-0.5B-DPO")."""
    words, text = doc_words(span), span.text
    start, end = span.start, span.end
    while start > 0 and not words.spaced[start - 1]:
        start -= 1
    while end < len(words.spaced) and not words.spaced[end - 1]:
        end += 1
    # the whitespace-delimited word: the words glued to the label, before and after it
    word = "".join(words.text[start : span.start]) + text + "".join(words.text[span.end : end])
    word = word.strip("()[]{}\"'.,;:!?")
    if any(mark in word for mark in NOT_PROSE):
        return False
    glued = word != text and len(word) > len(text)
    return not (glued and is_acronym_label(text) and any(ch.isdigit() for ch in word))


def excluded_nearby(span: Span, rule: ContextRule | None) -> bool:
    if rule is None or not rule.excludes:
        return False
    words = doc_words(span)
    before, after = slice(max(0, span.start - NEAR), span.start), slice(span.end, span.end + NEAR)
    near = words.norm[before] + words.norm[after] + words.lower[before] + words.lower[after]
    return not rule.excludes.isdisjoint(near)


def cue_before(span: Span) -> str | None:
    """The kind of cue whose clause the mention is in ("without", "unlike prior work"), if any. An
    example cue ("such as") reaches over the commas of its list; a technique cue ("we use", "based
    on") only to the next purpose word ("to", "for": what the technique is used for is the subject)."""
    doc, words = span.doc, doc_words(span)
    # a title's "Using X to …" names the paper's means and often its subject: technique cues read running text only
    clause_open, purpose_open = True, doc.user_data.get("kg.section") == "abstract"
    # an acronym in parentheses after its expansion ("a Vision Transformer (ViT)") shares its cue
    opening = span.start - 1 if span.end < len(words.text) and words.text[span.end] == ")" else -1
    for i in range(span.start - 1, max(0, span.start - LIST_REACH) - 1, -1):
        text = words.text[i]
        if text in LIST_ENDS and i != opening:
            return None
        for kind in _cues_from(words.cue, i, span.start):
            if kind == PURPOSE:
                purpose_open = False
            elif _cue_reaches(kind, clause_open, purpose_open):
                return kind
        if words.lower[i] in CLAUSE_ENDS or text in CLAUSE_ENDS or span.start - i > CUE_REACH:
            clause_open = False
    return None


def _cue_reaches(kind: str, clause_open: bool, purpose_open: bool) -> bool:
    """Whether a cue of ``kind`` reaches the mention: an example cue over its list, another within its
    clause, a technique cue only when no purpose word stands between (and in running text)."""
    return kind == EXAMPLE or (clause_open and (kind != TECHNIQUE or purpose_open))


@lru_cache(maxsize=1)
def _cues_by_first_word() -> dict[str, list[tuple[tuple[str, ...], str]]]:
    """The cues (words, kind) by their first word, shortest first."""
    by_first: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for cue, kind in sorted(mention_cues().items(), key=lambda item: len(item[0])):
        if cue:
            by_first.setdefault(cue[0], []).append((cue, kind))
    return by_first


def _cues_from(cue_words: list[str], i: int, end: int) -> Iterator[str]:
    """The kinds of the cues that start at word ``i`` and end by word ``end``, shortest first."""
    for cue, kind in _cues_by_first_word().get(cue_words[i], ()):
        if i + len(cue) <= end and tuple(cue_words[i : i + len(cue)]) == cue:
            yield kind


def says_cue(words: Span, kind: str) -> bool:
    """Whether a cue of ``kind`` stands among ``words`` ("a strategy inspired by the … estimator")."""
    cue_words = doc_words(words).cue
    return any(
        cue_kind == kind for i in range(words.start, words.end) for cue_kind in _cues_from(cue_words, i, words.end)
    )


def required_context(rule: ContextRule | None, paper_words: str, mention: str) -> bool:
    """Whether the paper says one of the rule's required words outside the mention itself: more often
    than the mention's own words hold it ("membership inference" is no context for itself, but a "convex"
    of "convex solvers" has the context of a "convex optimization" said elsewhere)."""
    if rule is None or not rule.requires:
        return True
    own = " " + " ".join(mention_words(mention)) + " "
    return any(_count(phrase, paper_words) > _count(phrase, own) for phrase in rule.requires)


def _count(phrase: tuple[str, ...], words: str) -> int:
    """How often ``phrase`` stands in space-delimited ``words`` (occurrences may share their spaces)."""
    return len(_phrase_pattern(phrase).findall(words))


@lru_cache(maxsize=1 << 12)
def _phrase_pattern(phrase: tuple[str, ...]) -> re.Pattern:
    return re.compile("(?= " + re.escape(" ".join(phrase)) + " )")


def paper_text(texts) -> str:
    """The normal forms of a paper's words, space-delimited, for :func:`required_context`."""
    return " " + " ".join(w for text in texts if text for w in words_of(text)) + " "
