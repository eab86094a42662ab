"""Topic mentions: scheme labels found in English text (spaCy) and in Chinese summaries.

English labels are matched with a PhraseMatcher on NORM (see :mod:`.normalise`), so
"Multi-Agent RL", "multiagent reinforcement learning" and "multi agent RL" find the same
concept. Each label is added as written, with its hyphens as spaces, with its hyphens
dropped ("multiagent") and with its spaces as hyphens ("mixture-of-experts"), because the
tokenizer splits hyphenated words. Overlapping matches keep the longest ("offline RL" wins
over "RL"); a label of two concepts ("community detection") is a mention of both. Chinese labels are
found by plain substring search, longest first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc
from spacy.util import filter_spans

from .context import cue_before, excluded_nearby, in_prose, rule_for
from .normalise import doc_words, normal_form
from .scheme import TopicScheme, topic_scheme
from .words import PAPER_VERBS, SUBJECT_WORDS

if not Doc.has_extension("topic_mentions"):
    Doc.set_extension("topic_mentions", default=None)


@dataclass(frozen=True)
class Mention:
    slug: str
    text: str  # the words as written in the text
    salient: bool = False  # in an abstract's first sentence or in the sentence that says what the paper does


def label_variants(label: str) -> set[str]:
    """The spellings of one label the tokenizer may meet: hyphens as written, as spaces, dropped; spaces as hyphens."""
    variants = {label, label.replace("-", " "), label.replace("-", "")}
    if " " in label:
        variants.add(label.replace(" ", "-"))
    return variants


class TopicMatcher:
    def __init__(self, nlp: Language, scheme: TopicScheme):
        self.matcher = PhraseMatcher(nlp.vocab, attr="NORM")
        for slug, concept in sorted(scheme.concepts.items()):
            spellings = sorted({v for label in concept.labels for v in label_variants(label)})
            patterns = [self._normalised(doc) for doc in nlp.tokenizer.pipe(spellings)]
            self.matcher.add(slug, patterns)

    @staticmethod
    def _normalised(doc: Doc) -> Doc:
        for token in doc:
            token.norm_ = normal_form(token.text)
        return doc

    def __call__(self, doc: Doc) -> Doc:
        found = self.matcher(doc, as_spans=True)
        # the longest match wins where matches overlap; a label of two concepts is a mention of both
        kept = {(span.start, span.end) for span in filter_spans(found)}
        spans = [span for span in found if (span.start, span.end) in kept and _meant(span)]
        running_text = doc.user_data.get("kg.section") == "abstract"
        salient = _salient_sentences(doc) if spans and running_text else None
        doc._.topic_mentions = [
            Mention(span.label_, span.text, salient is not None and _in_any(span, salient)) for span in spans
        ]
        return doc


def _salient_sentences(doc: Doc) -> list[tuple[int, int]]:
    """The first sentence and those where the authors say what they do ("we propose …", "this paper studies …")."""
    sentences = [(sent.start, sent.end) for sent in doc.sents]
    lowers = doc_words(doc).lower
    said = [(start, end) for start, end in sentences[1:] if _says_what_paper_does(lowers[start:end])]
    return sentences[:1] + said


def _says_what_paper_does(words: list[str]) -> bool:
    return any(word in SUBJECT_WORDS for word in words) and any(word in PAPER_VERBS for word in words)


def _in_any(span, ranges: list[tuple[int, int]]) -> bool:
    return any(start <= span.start < end for start, end in ranges)


def _meant(span) -> bool:
    """Whether a label found in running text is said of the topic (see :mod:`.context`)."""
    return in_prose(span) and not excluded_nearby(span, rule_for(span.label_, span.text)) and cue_before(span) is None


@Language.factory("kg_topics", assigns=["doc._.topic_mentions"])
def make_topic_matcher(nlp: Language, name: str) -> TopicMatcher:
    return TopicMatcher(nlp, topic_scheme())


class ChineseTopicFinder:
    """Chinese labels in a summary, longest label first at each position."""

    def __init__(self, scheme: TopicScheme):
        self.slug_of = {label: c.slug for c in scheme.concepts.values() for label in c.labels_zh}
        alternatives = sorted(self.slug_of, key=lambda label: (-len(label), label))
        self.pattern = re.compile("|".join(re.escape(label) for label in alternatives))

    def __call__(self, text: str) -> list[Mention]:
        return [Mention(self.slug_of[m.group()], m.group()) for m in self.pattern.finditer(text)]
