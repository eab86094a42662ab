"""Which strings can be an artifact's name by their shape, and the coined words a text offers as names.

A coined name is a token or hyphen-joined compound with a digit, two capitals, or a capital inside a
word (MLUBench, LUMoE, A2SG, Di-COT, InfraRL), or a capitalised hyphenated name (Mixture-of-Judges).
A name may carry inline math where its letters are coined around it ("T$^2$SQNet",
"Neural-$\\sigma^2$-LinearUCB"); math alone ("$O(m)$", "$G$") is no name. Topic labels (LLM, DPO,
ResNet) are topics, not artifacts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from spacy.tokens import Doc, Span

from ..text.names import is_acronym, match_key
from .artifact_types import HYPHENS
from .normalise import doc_words, normal_form
from .scheme import TopicScheme
from .words import NOT_NAMES


@dataclass(frozen=True)
class Found:
    name: str
    kind: str | None  # None: no word of the paper says what it is
    long_form: str | None = None


#: ``Doc.user_data`` key: the words the paper's markup styles as names ("\\textsc{sparrow}"), which may be
#: names whatever their shape.
STYLED = "kg.styled"

#: Inline math as listings carry it over from LaTeX: "$^2$", "$\sigma^2$".
INLINE_MATH = re.compile(r"\$[^$\s]+\$")


def is_coined(word: str) -> bool:
    letters = any(ch.isalpha() for ch in word)
    return letters and (any(ch.isdigit() for ch in word) or is_acronym(word) or any(ch.isupper() for ch in word[1:]))


def name_like(parts: list[str]) -> bool:
    # "D-learning": one capital letter joined to a word (a name only where the text names it: see not_a_name)
    if any(is_coined(part) for part in parts) or (len(parts) == 2 and len(parts[0]) == 1 and parts[0].isupper()):
        return True
    titled = [p for p in parts if p[:1].isupper()]
    return len(parts) >= 2 and parts[0][:1].isupper() and len(titled) >= 2


def outside_math(name: str) -> str:
    """The name without its inline math: "T$^2$SQNet" -> "TSQNet"."""
    return INLINE_MATH.sub("", name)


class ArtifactNames:
    """Which strings can be artifact names (the topic labels cannot)."""

    def __init__(self, scheme: TopicScheme):
        self.topic_keys = {match_key(label) for c in scheme.concepts.values() for label in c.labels}
        self.topic_keys |= {match_key(normal_form(label)) for c in scheme.concepts.values() for label in c.labels}
        # "Test Time Adaptation" is the label "test-time adaptation" written with a space
        self.topic_keys |= {match_key(label.replace("-", " ")) for c in scheme.concepts.values() for label in c.labels}

    def allowed(self, name: str) -> bool:
        key, letters = match_key(name), outside_math(name)
        return (
            bool(key)
            and name not in NOT_NAMES
            and key not in self.topic_keys
            and "\\" not in letters
            and "$" not in letters
            and any(ch.isalpha() for ch in letters)
        )


def coined_candidates(doc: Doc, names: ArtifactNames) -> list[Span]:
    """Name-like tokens, hyphen-joined tokens taken together ("Di-COT", "Mixture-of-Judges")."""
    words = doc_words(doc)  # plain strings: a Token object per look-up made this scan most of the rules' time
    texts, spaced = words.text, words.spaced
    styled = doc.user_data.get(STYLED, frozenset())
    found, i = [], 0
    while i < len(texts):
        j = i
        while (
            j + 2 < len(texts)
            and texts[j + 1] in HYPHENS
            and not spaced[j]
            and not spaced[j + 1]
            and _has_alnum(texts[j + 2])
        ):
            j += 2
        tokens = tuple(texts[i : j + 1])
        if _can_name(tokens, names) or (styled and _styled_name("".join(tokens), styled, names)):
            found.append(doc[i : j + 1])
        i = j + 1
    return found


def _styled_name(text: str, styled: frozenset[str], names: ArtifactNames) -> bool:
    """ "\\textsc{sparrow}": a word the markup styles as a name may be one, whatever its shape."""
    return text in styled and names.allowed(text)


def _has_alnum(text: str) -> bool:
    return any(ch.isalnum() for ch in text)


@lru_cache(maxsize=1 << 16)  # words repeat; the rules are pure
def _can_name(tokens: tuple[str, ...], names: ArtifactNames) -> bool:
    """Whether tokens (one, or hyphen-joined without spaces) are an artifact's name by their shape."""
    text = "".join(tokens)
    return (
        any(ch.isalpha() for ch in text)
        and name_like([outside_math(token) for token in tokens if token not in HYPHENS])
        and names.allowed(text)
    )


#: The shortest name whose hyphenated extensions are its variants ("ADEPT" -> "ADEPT-PCA").
MIN_VARIANT_BASE = 3


def variant_of(name: str, bases) -> str | None:
    """The introduced name ``name`` extends by a hyphenated part ("ADEPT-PCA" of "ADEPT"), or None."""
    head, hyphen, tail = name.rpartition("-")
    while hyphen:
        if head in bases and len(head) >= MIN_VARIANT_BASE and _has_alnum(tail):
            return head
        head, hyphen, _ = head.rpartition("-")
    return None


def join_spelled_names(found: list[tuple[str, Found]]) -> list[tuple[str, Found]]:
    """ "an Adaptive Submodular Allocation policy, ASA, …": a capitalised name of several words whose
    initials spell an acronym found in the same section is that acronym's long form (one artifact)."""
    spelled = {}
    for section, item in found:
        words = item.name.split()
        if item.long_form is None and len(words) >= 2 and all(word[:1].isupper() for word in words):
            spelled[(section, "".join(word[0] for word in words))] = item.name
    return [
        (section, replace(item, long_form=spelled[(section, item.name)]))
        if item.long_form is None and is_acronym(item.name) and (section, item.name) in spelled
        else (section, item)
        for section, item in found
    ]


def join_title_variants(found: list[tuple[str, Found]]) -> list[tuple[str, Found]]:
    """ "Faster WIND: …" over an abstract that introduces WIND, "Federated UCBVI: …" over one that introduces
    Fed-UCBVI: a title's name that is an abstract's name written another way is that artifact (one node)."""
    abstract = [item for section, item in found if section == "abstract"]
    joined = []
    for section, item in found:
        same = next((other for other in abstract if section == "title" and _written_another_way(item, other)), None)
        if same is not None:
            item = Found(same.name, item.kind, None if same.long_form else item.name)
        joined.append((section, item))
    return joined


#: What separates a name's parts: spaces and hyphens.
_SEPARATORS = re.compile(r"[\s\-\u2010\u2011]+")


def _compact(name: str | None) -> str | None:
    """A name without its spaces and hyphens, in lower case: "Graph Agent" -> "graphagent"."""
    return _SEPARATORS.sub("", name).lower() if name else None


#: The shortest start of a word that abbreviates it in a name ("Fed" of "Federated").
MIN_ABBREVIATION = 3


def _written_another_way(title: Found, abstract: Found) -> bool:
    """The title's words hold the abstract's name with ordinary words around it ("Faster WIND" and WIND), or
    abbreviate to it part by part ("Federated UCBVI" and Fed-UCBVI); or the title writes the abstract's name
    or long form as one word ("GraphAgent" and Graph Agent (GA)) or in the singular ("ENO" and ENOs)."""
    words, parts = title.name.split(), _SEPARATORS.split(abstract.name)
    if title.name == abstract.name or not parts:
        return False
    if abstract.name == f"{title.name}s" or _compact(title.name) in {
        _compact(abstract.name),
        _compact(abstract.long_form),
    }:
        return True
    for start in range(len(words) - len(parts) + 1):
        if words[start : start + len(parts)] == parts:
            rest = words[:start] + words[start + len(parts) :]
            return not any(is_coined(word) for word in rest)
    return _elided(title.name, abstract.name) or (
        len(words) == len(parts) > 1
        and all(
            word.startswith(part) and (len(part) >= MIN_ABBREVIATION or word == part)
            for word, part in zip(words, parts)
        )
    )


#: The capitalised parts of a coined word: "SkillMimicGen" -> Skill, Mimic, Gen.
_CAMEL_PARTS = re.compile(r"[A-Z][a-z]+|[A-Z]+(?![a-z])|\d+")


def _elided(title: str, abstract: str) -> bool:
    """ "SkillMimicGen: …" over an abstract that introduces SkillGen: one coined word is the other without
    some of its inner parts, its first and last parts kept."""
    if " " in title or " " in abstract or "".join(_CAMEL_PARTS.findall(title)) != title:
        return False
    long, short = _CAMEL_PARTS.findall(title), _CAMEL_PARTS.findall(abstract)
    if not 2 <= len(short) < len(long) or short[0] != long[0] or short[-1] != long[-1]:
        return False
    rest = iter(long)
    return all(part in rest for part in short)  # in order
