"""Topic mentions: scheme labels found in English text (spaCy) and in Chinese summaries.

English labels are matched with a PhraseMatcher on NORM (see :mod:`.normalise`), so
"Multi-Agent RL", "multiagent reinforcement learning" and "multi agent RL" find the same
concept. Each label is added as written, with its hyphens as spaces, with its hyphens
dropped ("multiagent") and with its spaces as hyphens ("mixture-of-experts"), because the
tokenizer splits hyphenated words. Overlapping matches keep the longest ("offline RL" wins
over "RL"). Chinese labels are found by plain substring search, longest first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc
from spacy.util import filter_spans

from .normalise import normal_form
from .scheme import TopicScheme, topic_scheme

if not Doc.has_extension("topic_mentions"):
    Doc.set_extension("topic_mentions", default=None)


@dataclass(frozen=True)
class Mention:
    slug: str
    text: str  # the words as written in the text


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
        spans = filter_spans(self.matcher(doc, as_spans=True))
        doc._.topic_mentions = [Mention(span.label_, span.text) for span in spans]
        return doc


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
