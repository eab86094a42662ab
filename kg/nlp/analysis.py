"""One paper's keywords, title, abstract and Chinese summary -> its topics and introduced artifacts.

A topic is assigned when its evidence weighs at least :data:`MIN_WEIGHT`: the source's keywords
(authors' keywords, a primary area, arXiv categories) are the strongest evidence, then the title;
one mention in the abstract alone is a passing one and makes no topic, and a topic found in the
abstract or the keywords alone is left out of a paper with :data:`SUBJECTS_PER_PAPER` heavier ones.
Only the topics found are assigned: broader ones are reached through the scheme's ``skos:broader`` by
the queries and pages.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Iterable, Sequence

import spacy
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import compile_prefix_regex, compile_suffix_regex

from ..text.names import match_key
from . import artifacts as _artifacts  # noqa: F401  (registers the components)
from . import normalise as _normalise  # noqa: F401
from . import topics as _topics  # noqa: F401
from .areas import area_mentions
from .artifact_names import STYLED, ArtifactNames, Found, join_spelled_names, join_title_variants
from .artifact_types import unnamed_kind
from .artifacts import DEFAULT_KIND, INTRODUCED
from .context import is_acronym_label, paper_text, required_context, rule_for, title_only
from .markup import strip_markup, styled_names
from .scheme import topic_scheme
from .summaries import summary_artifacts
from .title_names import left_unsaid, studied_in_abstract, written_as_a_phrase
from .topics import ChineseTopicFinder, Mention

#: How much one mention counts, by where it is: keywords and a title name what the paper is about.
SECTION_WEIGHTS = {"keywords": 3.0, "title": 2.0, "abstract": 1.0, "summary": 2.0}
#: An abstract's mention in its first sentence or in one that says what the paper does ("we propose").
SALIENT_WEIGHT = 2.0
#: A one-word label ("robots", "convex", "manipulation") said once where the abstract states its subject
#: weighs less than a phrase there: an ordinary word names a subject only when the abstract says it again.
ONE_WORD_SALIENT_WEIGHT = 1.5
#: Topics whose mentions add up to less than this are left out ...
MIN_WEIGHT = 2.0
#: ... unless the paper would have fewer topics than this: then the heaviest of its mentions make its
#: topics (ties alike). Every paper is about something: on the real papers with no topic otherwise, the
#: topic of the heaviest mention was a main topic 6 times in 7.
MIN_TOPICS = 1
#: A topic papers mostly use rather than study (:func:`.context.title_only`) is the subject of a paper
#: whose abstract says it at least this often, as it is of one whose keywords or title say it.
REPEATED_MENTIONS = 3
#: A paper is about a few subjects: a topic found in one place alone of :data:`THIN_PLACES` (the abstract
#: only, or the keywords only) is left out when this many of the paper's topics weigh more. On the real
#: papers such a topic past a paper's first four was wrong 15 times in 21 (a technique the paper uses, an
#: author keyword beside its subject), and left a main topic missing twice.
SUBJECTS_PER_PAPER = 4
THIN_PLACES = ("abstract", "keywords")
#: A paper whose title introduces a benchmark is about evaluation, whatever words it uses.
EVALUATION_TOPIC = "evaluation-and-benchmarking"
EVALUATION_KINDS = ("benchmark",)
SECTIONS = tuple(SECTION_WEIGHTS)


@dataclass(frozen=True)
class TopicAssignment:
    slug: str
    weight: float
    labels: tuple[str, ...] = ()  # the words matched, as written
    sections: tuple[str, ...] = ()  # where they were found: keywords, title, abstract, summary


@dataclass(frozen=True)
class Artifact:
    name: str
    kind: str
    long_form: str | None
    sections: tuple[str, ...]


@dataclass(frozen=True)
class Analysis:
    topics: list[TopicAssignment]
    artifacts: list[Artifact]


@lru_cache(maxsize=1)
def pipeline() -> Language:
    """spacy.blank("en") with the sentencizer and the kg components (built once per process)."""
    nlp = spacy.blank("en")
    _keep_inline_math(nlp)
    for name in ("sentencizer", "kg_normalise", "kg_topics", "kg_artifacts"):
        nlp.add_pipe(name)
    return nlp


def _keep_inline_math(nlp: Language) -> None:
    """Inline math stays in its token ("T$^2$SQNet", "($\\beta$-LS)", "Riemann$^2$:"): "$" is no prefix,
    and no suffix after a digit (papers' texts write no prices). A name's final capital keeps no period
    ("Nu-X." is "Nu-X" and the sentence's end)."""
    prefixes = [prefix for prefix in nlp.Defaults.prefixes if prefix != "\\$"]
    # "we introduce a dataset, Nu-X.": the period after a compound's last capital ends the sentence
    suffixes = [suffix.replace("\\$|", "") for suffix in nlp.Defaults.suffixes] + [r"(?<=\w-[A-Z])\."]
    nlp.tokenizer.prefix_search = compile_prefix_regex(prefixes).search
    nlp.tokenizer.suffix_search = compile_suffix_regex(suffixes).search


@lru_cache(maxsize=1)
def _summary_tools() -> tuple[ChineseTopicFinder, ArtifactNames]:
    scheme = topic_scheme()
    return ChineseTopicFinder(scheme), ArtifactNames(scheme)


@lru_cache(maxsize=1 << 12)  # listings word many summaries alike ("提出X方法，显著降低了计算开销。")
def _summary_findings(summary: str) -> tuple[tuple[Mention, ...], tuple[Found, ...]]:
    """A Chinese summary's topic mentions and the artifacts it introduces."""
    chinese_topics, names = _summary_tools()
    return tuple(chinese_topics(summary)), tuple(summary_artifacts(summary, names))


# spaCy's tokenizer takes quadratic time over the affixes of one long unbroken run ("((((…"),
# so no run longer than this reaches it; no word, and few links, are longer.
MAX_RUN = 100
_UNBROKEN = re.compile(rf"\S{{{MAX_RUN}}}")


#: A paper's texts: title, abstract, Chinese summary (each may be missing), and optionally its
#: source's keywords (authors' keywords, primary area, categories).
Texts = tuple[str | None, str | None, str | None] | tuple[str | None, str | None, str | None, Sequence[str]]


def analyse(
    title: str | None, abstract: str | None, summary: str | None = None, keywords: Sequence[str] = ()
) -> Analysis:
    return analyse_all([(title, abstract, summary, keywords)])[0]


def analyse_all(papers: Sequence[Texts]) -> list[Analysis]:
    """The analyses of many papers, their English sections tagged in one ``nlp.pipe`` per section
    (spaCy's fixed cost per call was most of the cost of a title). Titles skip the sentencizer:
    only the artifact rules for running text ask where a sentence ends."""
    nlp = pipeline()
    # title, abstract (its name macros standing for the title's name), keywords (one text, a keyword per clause)
    prepared = [
        [
            _prepared(text, texts[0]) if text else None
            for text in (*texts[:2], "; ".join(texts[3]) if len(texts) > 3 else None)
        ]
        for texts in papers
    ]
    styled = [styled_names(texts[0]) | styled_names(texts[1]) for texts in papers]
    mentions, found = _tagged(nlp, prepared, styled)
    _RESIDENT.keep(nlp, (text for texts in prepared for text in texts if text))
    return [
        _analysis(
            mentions[index],
            found[index],
            texts[2],
            paper_text(prepared[index]),
            prepared[index][:2],
            area_mentions(texts[3] if len(texts) > 3 else ()),
        )
        for index, texts in enumerate(papers)
    ]


#: The English sections in the order they are tagged, each with the pipeline components it skips.
_TAGGED_SECTIONS = (("title", ["sentencizer"]), ("abstract", []), ("keywords", ["sentencizer", "kg_artifacts"]))


def _tagged(
    nlp: Language, prepared: list[list[str | None]], styled: list[frozenset[str]]
) -> tuple[list[list[tuple[str, Mention]]], list[list[tuple[str, Found]]]]:
    """Each paper's topic mentions and found names, by section, from its ``prepared`` title, abstract
    and keywords (and the words their markup ``styled`` as names): one ``nlp.pipe`` per section over the
    papers that have it."""
    mentions: list[list[tuple[str, Mention]]] = [[] for _ in prepared]
    found: list[list[tuple[str, Found]]] = [[] for _ in prepared]
    # The words a batch adds to the vocabulary are forgotten after it (what leaves the zone is plain
    # text): kept, they grew a mapping process by ~1.2 MB per 1,000 papers, without end.
    with nlp.memory_zone():
        for position, (section, unneeded) in enumerate(_TAGGED_SECTIONS):
            owners = [index for index, texts in enumerate(prepared) if texts[position]]
            docs = (_doc(nlp, section, prepared[index][position], found[index], styled[index]) for index in owners)
            for index, doc in zip(owners, nlp.pipe(docs, disable=unneeded)):
                mentions[index] += [(section, m) for m in doc._.topic_mentions]
                found[index] += [(section, f) for f in doc._.artifacts or ()]
                if section == "abstract" and not doc._.artifacts:
                    found[index] = _typed_by_the_introduction(found[index], doc)
    return mentions, found


def _typed_by_the_introduction(found: list[tuple[str, Found]], doc: Doc) -> list[tuple[str, Found]]:
    """A title's name with no type word of its own, over an abstract that introduces no name ("DexGraspNet 2.0:
    Learning …"), is the kind of thing the abstract says it introduces ("we present a … synthetic dataset")."""
    kind = unnamed_kind(doc) if any(s == "title" and f.kind is None for s, f in found) else None
    return [(s, replace(f, kind=kind)) if s == "title" and f.kind is None and kind else (s, f) for s, f in found]


class ResidentWords:
    """The words a corpus keeps using stay in the vocabulary past the batches' memory zones: those
    met in two batches in a row, at most :attr:`LIMIT`, so memory stays flat. Made again in every
    batch (a lexeme each), they were a quarter to a third of the tagging of abstracts (AISTATS 2025:
    1.7–2.0 s, against 1.3 s with nothing forgotten). Tagging is the same either way."""

    LIMIT = 1 << 16

    def __init__(self) -> None:
        self.kept: set[str] = set()
        self.last: set[str] = set()

    def keep(self, nlp: Language, texts: Iterable[str]) -> None:
        """Keep, of the words of a batch's ``texts``, those the batch before met too."""
        if len(self.kept) >= self.LIMIT:
            return
        words = {word for text in texts for word in text.split()}
        new = sorted((words & self.last) - self.kept)[: self.LIMIT - len(self.kept)]
        if new:
            nlp.tokenizer(" ".join(new))  # outside any zone: its lexemes and cache entries stay
            self.kept.update(new)
        self.last = words


_RESIDENT = ResidentWords()


def _prepared(text: str, title: str | None) -> str:
    return _UNBROKEN.sub(r"\g<0> ", strip_markup(text, title))


def _doc(nlp: Language, section: str, text: str, earlier: list[tuple[str, Found]], styled: frozenset[str]) -> Doc:
    doc = nlp.make_doc(text)
    doc.user_data["kg.section"] = section  # set before the components run: the artifact rules read it
    doc.user_data[INTRODUCED] = {item.name: item.kind for _, item in earlier}  # the title's names, for variants
    doc.user_data[STYLED] = styled  # "\\textsc{sparrow}": words the markup styled as names
    return doc


def _analysis(
    mentions: list[tuple[str, Mention]],
    found: list[tuple[str, Found]],
    summary: str | None,
    words: str,
    english: Sequence[str | None] = (None, None),
    areas: Sequence[Mention] = (),
) -> Analysis:
    """One paper's topics and artifacts from what its English sections and its summary say;
    ``words`` are the normal forms of its English texts, for the context rules; ``english`` its title
    and abstract; ``areas`` the topics its source's areas and categories name, which no context rule
    applies to."""
    title, abstract = english
    in_abstract = sum(s == "abstract" for s, _ in found)
    found = [
        (s, f)
        for s, f in found
        if not (
            s == "title"
            and (
                written_as_a_phrase(f.name, abstract)
                or left_unsaid(f.name, abstract, title, in_abstract)
                or studied_in_abstract(f.name, abstract)
            )
        )
    ]
    mentions = _subject_mentions(mentions, words) + [("keywords", m) for m in areas]
    if summary:
        summary_mentions, summary_found = _summary_findings(summary)
        mentions += [("summary", m) for m in summary_mentions]
        found += [("summary", f) for f in summary_found]
    artifacts = _artifacts_of(found)
    # a benchmark the title introduces ("FetchBench: A Simulation Benchmark …") makes a paper about evaluation
    mentions += [
        ("title", Mention(EVALUATION_TOPIC, a.name))
        for a in artifacts
        if a.kind in EVALUATION_KINDS and a.sections[0] == "title"
    ]
    return Analysis(_topics_of(mentions), artifacts)


def _subject_mentions(mentions: list[tuple[str, Mention]], words: str) -> list[tuple[str, Mention]]:
    """The mentions in their context, less the abstract's few ones of a topic papers mostly use
    rather than study (:func:`.context.title_only`)."""
    mentions = [(section, m) for section, m in mentions if _in_context(m, mentions, words)]
    in_abstract = Counter(m.slug for section, m in mentions if section == "abstract")
    return [
        (section, m)
        for section, m in mentions
        if not (section == "abstract" and title_only(m.slug) and in_abstract[m.slug] < REPEATED_MENTIONS)
    ]


def _in_context(mention: Mention, mentions: list[tuple[str, Mention]], words: str) -> bool:
    """An acronym needs its expansion in the paper or its rule's context; a label with a rule, that context."""
    rule = rule_for(mention.slug, mention.text)
    if is_acronym_label(mention.text) and not any(
        m.slug == mention.slug and not is_acronym_label(m.text) for _, m in mentions
    ):
        return rule is not None and bool(rule.requires) and required_context(rule, words, mention.text)
    return required_context(rule, words, mention.text)


def mention_weight(section: str, mention: Mention) -> float:
    """How much one mention counts: by its section, and in the abstract by where and how it is said."""
    if not mention.salient:
        return SECTION_WEIGHTS[section]
    return ONE_WORD_SALIENT_WEIGHT if " " not in mention.text.strip() else SALIENT_WEIGHT


def _topics_of(mentions: list[tuple[str, Mention]]) -> list[TopicAssignment]:
    weight: dict[str, float] = defaultdict(float)
    labels: dict[str, set[str]] = defaultdict(set)
    sections: dict[str, set[str]] = defaultdict(set)
    for section, mention in mentions:
        weight[mention.slug] += mention_weight(section, mention)
        labels[mention.slug].add(mention.text)
        sections[mention.slug].add(section)
    least = _least_weight(weight)
    assignments = [
        TopicAssignment(
            slug, weight[slug], tuple(sorted(labels[slug])), tuple(s for s in SECTIONS if s in sections[slug])
        )
        for slug in weight
        if weight[slug] >= least
    ]
    return sorted(_past_the_subjects(assignments), key=lambda a: (-a.weight, a.slug))


def _least_weight(weight: dict[str, float]) -> float:
    """What a topic's mentions must weigh: :data:`MIN_WEIGHT`, or less where fewer than :data:`MIN_TOPICS`
    topics reach it (the weight of the paper's :data:`MIN_TOPICS`-th heaviest topic)."""
    weights = sorted(weight.values(), reverse=True)
    if len(weights) < MIN_TOPICS:
        return min(weights, default=MIN_WEIGHT)
    return min(MIN_WEIGHT, weights[MIN_TOPICS - 1]) if MIN_TOPICS else MIN_WEIGHT


def _past_the_subjects(assignments: list[TopicAssignment]) -> list[TopicAssignment]:
    """The assignments less those found in one thin place alone that :data:`SUBJECTS_PER_PAPER` others
    outweigh (ties do not count: a topic as heavy as the fourth stays)."""
    weights = sorted((a.weight for a in assignments), reverse=True)
    if len(weights) <= SUBJECTS_PER_PAPER:
        return assignments
    bar = weights[SUBJECTS_PER_PAPER - 1]
    return [a for a in assignments if not (a.weight < bar and len(a.sections) == 1 and a.sections[0] in THIN_PLACES)]


#: Inline math's marks, which a name may be written with or without ("D$^3$RoMa" is "D3RoMa").
_MATH_MARKS = re.compile(r"[$^{}]")


def name_key(name: str) -> str:
    """The identity of an artifact's name: its match key, without inline math's marks."""
    return match_key(_MATH_MARKS.sub("", name))


def _artifacts_of(found: list[tuple[str, Found]]) -> list[Artifact]:
    """One artifact per name (by match key), an artifact named by another's long form merged into that
    one; the abstract's word for its type wins over the title's and summary's."""
    by_key: dict[str, list[tuple[str, Found]]] = defaultdict(list)
    for section, item in join_title_variants(join_spelled_names(found)):
        by_key[name_key(item.name)].append((section, item))
    for key in sorted(by_key):
        long_forms = {name_key(f.long_form) for _, f in by_key.get(key, ()) if f.long_form}
        for other in sorted(long_forms & by_key.keys() - {key}):
            by_key[key] += by_key.pop(other)
    artifacts = []
    for _key, items in sorted(by_key.items()):
        ordered = sorted(items, key=lambda pair: SECTIONS.index(pair[0]))  # title, abstract, summary
        by_evidence = sorted(items, key=lambda pair: ("abstract", "title", "summary").index(pair[0]))
        kind = next((f.kind for _, f in by_evidence if f.kind), DEFAULT_KIND)
        long_form = next((f.long_form for _, f in ordered if f.long_form), None)
        short = [f.name for _, f in ordered if f.name != long_form]
        name = short[0] if short else ordered[0][1].name
        artifacts.append(Artifact(name, kind, long_form, tuple(dict.fromkeys(s for s, _ in ordered))))
    return artifacts
