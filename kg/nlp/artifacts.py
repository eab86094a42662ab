"""Named research artifacts a paper introduces, told apart from those it only mentions.

A candidate is a coined name: a token or hyphen-joined compound with a digit, two capitals,
or a capital inside a word (MLUBench, LUMoE, A2SG, Di-COT, InfraRL), or a capitalised
hyphenated name (Mixture-of-Judges). Names that are topic labels (LLM, DPO, ResNet) are
topics, not artifacts. A candidate counts as *introduced* only with an introducing cue:

- title: the name before the title's colon ("PAWS: Preference Learning with …");
- abstract: the object of "we introduce / propose / present / develop / release …" with no
  preposition or "including / such as / than" in between ("we propose LUMoE"), a name in such
  a sentence described by an apposition ("…, and HalluJudge, a lightweight model"), a name right
  after "a new <type>" ("a new metric, the Residual Knowledge Score (RKS)"), or one that is
  "dubbed / called / termed";
- Chinese summary: a Latin name right after 提出/构建/引入/… or in parentheses in that sentence.

Everything else (AlphaFold3 in "models, including AlphaFold3", SVDQuant in "over SVDQuant") is
a mention and is not reported. The type comes from the word the paper uses for the artifact,
nearest evidence first; see :func:`artifact_type`.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache

from spacy.language import Language
from spacy.tokens import Doc, Span

from ..text.names import is_acronym, match_key
from .introductions import (
    enumerated_part,
    extra_candidates,
    modifies_next_noun,
    names_a_long_form,
    not_a_name,
    our_kind_first,
    title_name,
)
from .normalise import normal_form
from .scheme import TopicScheme, topic_scheme
from .words import INTRODUCING, NAMING, PAPER_VERBS, SUBJECT_WORDS, TYPE_WORDS

if not Doc.has_extension("artifacts"):
    Doc.set_extension("artifacts", default=None)

DEFAULT_KIND = "method"
# Words between an introducing verb and a name that make the name something else's argument.
BLOCKERS = {
    "including",
    "include",
    "includes",
    "such",
    "e.g.",
    "like",
    "compared",
    "than",
    "over",
    "against",
    "using",
    "on",
    "with",
    "from",
    "across",
    "by",
    "beyond",
    "versus",
    "vs",
    "vs.",
    "that",
    "which",
    "to",
    "for",
    "of",
    "in",
    "where",
    "while",
    "when",
    ";",
    ":",
    "whose",
    "unlike",
    "upon",
    "via",
    "into",
}
NOT_NAMES = {
    "AI",
    "ML",
    "GPU",
    "CPU",
    "TPU",
    "API",
    "SOTA",
    "US",
    "UK",
    "EU",
    "II",
    "III",
    "IV",
    "URL",
    "PhD",
    "NeurIPS",
    "ICML",
    "ICLR",
    "CVPR",
    "ACL",
    "TeX",
    "LaTeX",
    "GitHub",
    "OK",
    "FLOPs",
    "FLOP",
}
HYPHENS = {"-", "\u2010", "\u2011", "\u2013"}
MAX_OBJECT_DISTANCE = 12
# Tokens a name's context is searched back from it: bounds the work per name on sentences of any length.
LOOKBACK = 60


@dataclass(frozen=True)
class Found:
    name: str
    kind: str | None  # None: no word of the paper says what it is
    long_form: str | None = None


def is_coined(word: str) -> bool:
    letters = any(ch.isalpha() for ch in word)
    return letters and (any(ch.isdigit() for ch in word) or is_acronym(word) or any(ch.isupper() for ch in word[1:]))


def name_like(parts: list[str]) -> bool:
    if any(is_coined(part) for part in parts):
        return True
    titled = [p for p in parts if p[:1].isupper()]
    return len(parts) >= 2 and parts[0][:1].isupper() and len(titled) >= 2


class ArtifactNames:
    """Which strings can be artifact names (the topic labels cannot)."""

    def __init__(self, scheme: TopicScheme):
        self.topic_keys = {match_key(label) for c in scheme.concepts.values() for label in c.labels}
        self.topic_keys |= {match_key(normal_form(label)) for c in scheme.concepts.values() for label in c.labels}

    def allowed(self, name: str) -> bool:
        key = match_key(name)
        return (
            bool(key) and name not in NOT_NAMES and key not in self.topic_keys and "\\" not in name and "$" not in name
        )


def _candidates(doc: Doc, names: ArtifactNames) -> list[Span]:
    """Name-like tokens, hyphen-joined tokens taken together ("Di-COT", "Mixture-of-Judges")."""
    texts, joined = [], []  # read once: a Token object per look-up made this scan most of the rules' time
    for token in doc:
        texts.append(token.text)
        joined.append(not token.whitespace_)
    found, i = [], 0
    while i < len(texts):
        j = i
        while (
            j + 2 < len(texts) and texts[j + 1] in HYPHENS and joined[j] and joined[j + 1] and _has_alnum(texts[j + 2])
        ):
            j += 2
        if _can_name(tuple(texts[i : j + 1]), names):
            found.append(doc[i : j + 1])
        i = j + 1
    return found


def _has_alnum(text: str) -> bool:
    return any(ch.isalnum() for ch in text)


@lru_cache(maxsize=1 << 16)  # words repeat; the rules are pure
def _can_name(tokens: tuple[str, ...], names: ArtifactNames) -> bool:
    """Whether tokens (one, or hyphen-joined without spaces) are an artifact's name by their shape."""
    text = "".join(tokens)
    return (
        any(ch.isalpha() for ch in text)
        and name_like([token for token in tokens if token not in HYPHENS])
        and names.allowed(text)
    )


def _type_word(token) -> str | None:
    """The artifact kind a word names, unless it only modifies a hyphenated compound ("model-agnostic")."""
    nxt = token.nbor(1) if token.i + 1 < len(token.doc) else None
    if nxt is not None and nxt.text in HYPHENS and not token.whitespace_:
        return None
    return TYPE_WORDS.get(token.norm_) or TYPE_WORDS.get(token.lower_)


def _sentence(span: Span) -> Span:
    """The span's sentence, cut to LOOKBACK tokens either side: spaCy's ``span.sent`` walks the
    whole sentence, which made a 20 kB one-sentence abstract quadratic."""
    doc = span.doc
    starts = doc.user_data.get(_SENTENCE_STARTS)
    if starts is None:  # once per document
        starts = doc.user_data[_SENTENCE_STARTS] = [sent.start for sent in doc.sents] + [len(doc)]
    at = bisect.bisect_right(starts, span.start) - 1
    return doc[max(starts[at], span.start - LOOKBACK) : min(starts[at + 1], span.end + LOOKBACK)]


_SENTENCE_STARTS = "kg.sentence_starts"


def _in_parentheses(span: Span) -> bool:
    doc = span.doc
    return span.start >= 1 and doc[span.start - 1].text == "(" and span.end < len(doc) and doc[span.end].text == ")"


def _inside_long_parenthesis(span: Span) -> bool:
    """A name among other words in parentheses ("(Utility & Planning Human-Scale …)") is part of a long form."""
    doc, sent = span.doc, _sentence(span)
    opened = next((t.i for t in reversed(doc[sent.start : span.start]) if t.text in "()"), None)
    return opened is not None and doc[opened].text == "(" and not _in_parentheses(span)


def _after_parenthetical(span: Span) -> int:
    """Index of the first token after the name and a parenthesis right behind it (or around it)."""
    doc, k = span.doc, span.end
    if _in_parentheses(span):
        return k + 1
    if k < len(doc) and doc[k].text == "(":
        while k < len(doc) and doc[k].text != ")":
            k += 1
        k += 1
    return k


def _long_form(span: Span) -> str | None:
    """ "Divide and Contrast (Di-COT)" -> "Divide and Contrast"; "UPHELD (Utility … Dialogues)" -> the inside."""
    doc = span.doc
    if _in_parentheses(span):
        k = span.start - 2
        while k >= 0 and (
            doc[k].text[:1].isupper() or (doc[k].lower_ in {"and", "of", "for", "&", "-", "the"} and k > 0)
        ):
            k -= 1
        words = doc[k + 1 : span.start - 1]
        while len(words) and not words[0].text[:1].isupper():
            words = words[1:]
        return words.text if len(words) >= 2 else None
    end = _after_parenthetical(span)
    if end > span.end + 3:
        inside = doc[span.end + 1 : end - 1]
        if inside[0].text[:1].isupper():
            return inside.text
    return None


def artifact_type(span: Span, long_form: str | None) -> str | None:
    """What the paper calls the artifact, nearest evidence first.

    1. the word right after the name ("a Mixture-of-Judges framework");
    2. an apposition ("LUMoE, an effective and efficient method");
    3. a type word shortly before it ("a new metric, the Residual Knowledge Score (RKS)",
       "an objective …, which we call LayerTie"), not across the introducing verb;
    4. the next sentence ("… (BSCT). This efficient benchmark …");
    5. the last word of its long form ("… Characterization Test"), or its own ending (…Bench).
    """
    doc, sent = span.doc, _sentence(span)
    k = _after_parenthetical(span)
    if k < sent.end and (kind := _type_word(doc[k])):
        return kind
    if k < sent.end and doc[k].text == ",":
        for token in doc[k + 1 : min(sent.end, k + 14)]:
            if token.text in {".", ";"} or token.lower_ in {"that", "which", "who", "where", "to"}:
                break
            if kind := _type_word(token):
                return kind
    for token in reversed(doc[max(sent.start, span.start - 14) : span.start]):
        if token.lower_ in INTRODUCING:
            break
        if token.text != "(" and (kind := _type_word(token)):
            return kind
    if sent.end < len(doc):
        following = doc[sent.end : sent.end + 5]
        if following[0].lower_ in {"this", "these", "it", "the", "our"}:
            for token in following[1:]:
                if kind := _type_word(token):
                    return kind
    if long_form:
        kind = TYPE_WORDS.get(normal_form(long_form.split()[-1]).lower())
        if kind:
            return kind
    return suffix_type(span.text)


def suffix_type(name: str) -> str | None:
    lowered = name.lower()
    if lowered.endswith(("bench", "arena")):
        return "benchmark"
    if lowered.endswith("net"):
        return "model"
    return None


def _title_type(span: Span) -> str | None:
    """ "PAWS: A Benchmark for …" -> benchmark (the first few words after the colon only)."""
    for token in span.doc[span.end + 1 : span.end + 8]:
        if token.lower_ in BLOCKERS:
            break
        if kind := _type_word(token):
            return kind
    return None


def _introduced_in_text(span: Span) -> bool:
    doc, sent = span.doc, _sentence(span)
    before = doc[sent.start : span.start]
    if any(t.lower_ in NAMING for t in before[-3:]) and not (len(before) >= 3 and before[-3].lower_ == "so"):
        # "we analyze a method named SSCN" names another's method
        verbs_before = {t.lower_ for t in before}
        return bool(verbs_before & INTRODUCING) or not verbs_before & (PAPER_VERBS - INTRODUCING)
    k = _after_parenthetical(span)
    if _described_as_new(span, sent, k) or our_kind_first(sent, span) or enumerated_part(span, k):
        return True
    first_we = next((t.i for t in before if t.lower_ in SUBJECT_WORDS), span.start)
    verbs = [t for t in before if t.lower_ in INTRODUCING and t.i > first_we]
    if not verbs:
        return False
    between = doc[verbs[-1].i + 1 : span.start]
    if len(between) <= MAX_OBJECT_DISTANCE and not any(t.lower_ in BLOCKERS for t in between):
        return True
    if _in_parentheses(span) and len(between) <= 2 * MAX_OBJECT_DISTANCE:
        return _names_what_the_verb_introduces(span, sent, verbs[-1].i, k)
    return k + 1 < sent.end and doc[k].text == "," and doc[k + 1].lower_ in {"a", "an", "the", "our"}


def _described_as_new(span: Span, sent: Span, k: int) -> bool:
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
        and _type_word(doc[k])
    ):
        return True
    news = [t.i for t in doc[max(sent.start, span.start - 9) : span.start] if t.lower_ in {"new", "novel"}]
    return (
        bool(news)
        and any(_type_word(t) for t in doc[news[0] : span.start])
        and not any(t.lower_ in BLOCKERS for t in doc[news[0] : span.start])
    )


def _names_what_the_verb_introduces(span: Span, sent: Span, verb: int, k: int) -> bool:
    """A name in parentheses after a description of what the paper introduces ("a framework for … (LTC)");
    a capitalised long form must then follow the verb itself ("… using Structural Causal Models (SCMs)")."""
    doc = span.doc
    long_form = _long_form(span)
    if long_form is None:  # "(LTC)." names the description; "face recognition (FR) datasets" does not
        return k >= sent.end or not doc[k].is_alpha
    start = next(
        (
            span.start - 1 - n
            for n in range(1, 16)
            if doc[max(0, span.start - 1 - n) : span.start - 1].text == long_form
        ),
        span.start - 1,
    )
    return all(t.lower_ in {"a", "an", "the", "novel", "new", "our"} for t in doc[verb + 1 : max(verb + 1, start)])


def _ends_a_name(span: Span) -> bool:
    """What may follow a name the rules found by its place alone: a comma, a parenthesis, a type word, the end."""
    doc = span.doc
    return span.end >= len(doc) or doc[span.end].text in {",", "(", ".", ";", ":"} or bool(_type_word(doc[span.end]))


class ArtifactExtractor:
    def __init__(self, scheme: TopicScheme):
        self.names = ArtifactNames(scheme)

    def __call__(self, doc: Doc) -> Doc:
        if doc.user_data.get("kg.section") == "title":
            doc._.artifacts = self._in_title(doc)
            return doc
        found: list[Found] = []
        covered: set[int] = set()
        starts = {sent.start for sent in doc.sents}
        for span in extra_candidates(doc, starts):
            if (
                self._may_name(span)
                and _ends_a_name(span)
                and not names_a_long_form(span)
                and _introduced_in_text(span)
            ):
                covered.update(range(span.start, span.end))
                long_form = _long_form(span)
                found.append(Found(span.text, artifact_type(span, long_form), long_form))
        for span in _candidates(doc, self.names):
            if covered.intersection(range(span.start, span.end)) or not self._may_name(span) or names_a_long_form(span):
                continue
            if not _inside_long_parenthesis(span) and _introduced_in_text(span):
                long_form = _long_form(span)
                found.append(Found(span.text, artifact_type(span, long_form), long_form))
        doc._.artifacts = found
        return doc

    def _may_name(self, span: Span) -> bool:
        return (
            self.names.allowed(span.text)
            and not not_a_name(span.text)
            and not modifies_next_noun(span)
            and not self._abbreviates_a_topic(span)
        )

    def _abbreviates_a_topic(self, span: Span) -> bool:
        """ "continual learning (CL)": an acronym in parentheses after a topic's label is that topic's."""
        doc = span.doc
        if not _in_parentheses(span):
            return False
        letters = "".join(ch for ch in span.text if ch.isalpha()).lower().removesuffix("s")
        for n in range(1, min(6, span.start)):
            words = doc[span.start - 1 - n : span.start - 1]
            initials = "".join(t.text[0] for t in words if t.is_alpha).lower()
            if initials == letters and match_key(words.text) in self.names.topic_keys:
                return True
        return False

    def _in_title(self, doc: Doc) -> list[Found]:
        named = title_name(doc)
        if named is None or not self._may_name(named[0]):
            return []
        name, long_form = named
        return [Found(name.text, _title_type(name), long_form.text if long_form else None)]


@Language.factory("kg_artifacts", assigns=["doc._.artifacts"], requires=["token.norm"])
def make_artifact_extractor(nlp: Language, name: str) -> ArtifactExtractor:
    return ArtifactExtractor(topic_scheme())


# ---------------------------------------------------------------- Chinese summaries

ZH_INTRODUCING = re.compile(r"提出|构建|引入|设计了|发布|开发|推出")
LATIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*(?: [A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*)*")
ZH_TYPES = (
    ("基准", "benchmark"),
    ("评测", "benchmark"),
    ("数据集", "dataset"),
    ("语料", "dataset"),
    ("模型", "model"),
    ("指标", "metric"),
    ("度量", "metric"),
    ("方法", "method"),
    ("框架", "method"),
    ("算法", "method"),
    ("机制", "method"),
    ("策略", "method"),
)
ZH_CLAUSE_END = re.compile(r"[，,。；;：:]")


def _zh_type(rest: str) -> str | None:
    """The first type word of the clause after a name (or of the next, when it is "一种…" apposition)."""
    clause, _, following = rest.partition("，") if "，" in rest else (rest, "", "")
    clause = ZH_CLAUSE_END.split(clause)[0]
    if not clause.strip() and following.startswith(("一种", "一个")):
        clause = ZH_CLAUSE_END.split(following)[0]
    hits = [(clause.find(word), kind) for word, kind in ZH_TYPES if word in clause]
    return min(hits)[1] if hits else None


def summary_artifacts(summary: str, names: ArtifactNames) -> list[Found]:
    """Artifacts a Chinese summary says the paper introduces ("提出MLUBench基准" -> MLUBench, benchmark)."""
    found: list[Found] = []
    for sentence in re.split(r"[。；;]", summary):
        cues = list(ZH_INTRODUCING.finditer(sentence))
        if not cues:
            continue
        spots = []
        for cue in cues:
            tail = sentence[cue.end() :].lstrip()
            if match := LATIN_NAME.match(tail):
                spots.append((match.group(), tail[match.end() :]))
        tail = sentence[cues[0].end() :]
        for inner in re.finditer(r"[（(]\s*(" + LATIN_NAME.pattern + r")\s*[）)]", tail):
            spots.append((inner.group(1), tail[inner.end() :]))
        for name, rest in spots:
            parts = re.split(r"[\s\-]+", name)
            if name_like(parts) and names.allowed(name):
                found.append(Found(name, _zh_type(rest)))
    return found
