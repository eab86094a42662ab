"""Whether a title's words before its colon, taken as a name, are one: the abstract may write them as a
phrase ("protein fitness landscapes") or never say them ("Survival Models: …"), and then they are not.
"""

from __future__ import annotations

import re

from ..text.names import is_acronym, match_key
from .words import INTRODUCING, PAPER_VERBS


def written_as_a_phrase(name: str, abstract: str | None) -> bool:
    """ "Protein Fitness Landscape: …" with "protein fitness landscapes" in the abstract: a title's name of
    ordinary words that the abstract writes in lower case (and never capitalised inside a sentence) is
    a descriptive phrase, not a name ("Perceive with Confidence (PwC)" in the abstract keeps it one)."""
    words = name.split()
    if not abstract or not _ordinary_words(words):
        return False
    written = [re.escape(word.lower()) for word in words[:-1]] + [re.escape(words[-1].lower().removesuffix("s")) + "s?"]
    phrase = re.compile(r"(?<![\w-])" + r"\s+".join(written), re.IGNORECASE)
    starts = [abstract[match.start()] for match in phrase.finditer(abstract)]
    return any(ch.islower() for ch in starts) and not _capitalised_inside_a_sentence(phrase, abstract)


def left_unsaid(name: str, abstract: str | None, title: str | None = None, abstract_names: int = 0) -> bool:
    """ "Generalized Animal Imitator: …" whose abstract introduces VIM, "Survival Models: …" whose abstract
    never says those words: a title's name of ordinary words the abstract does not say is a slogan or the
    paper's subject, not an artifact (its last word may be singular there: "Gameplay Filters"), unless the
    title goes on to say what it is and the abstract gives no other name ("Tag Map: A Text-Based Map …")."""
    if not abstract or not _ordinary_words(name.split()) or (_described_after_colon(title) and not abstract_names):
        return False
    said = f" {match_key(abstract)} "
    return not any(f" {match_key(form)} " in said for form in (name, name.removesuffix("s")))


#: Verbs that say what a paper studies, not what it introduces ("we study", "we consider").
STUDYING = PAPER_VERBS - INTRODUCING


def studied_in_abstract(name: str, abstract: str | None) -> bool:
    """ "Federated Causal Inference: …" whose abstract says "We study Federated Causal Inference, an approach …":
    a title's name of ordinary words that the abstract says is what the paper studies is its subject."""
    if not abstract or not _ordinary_words(name.split()):
        return False
    verbs = "|".join(sorted(STUDYING))
    studied = re.compile(rf"\bwe\s+(?:{verbs})\s+(?:the\s+)?{re.escape(name)}\b", re.IGNORECASE)
    return studied.search(abstract) is not None


def _ordinary_words(words: list[str]) -> bool:
    """Two or more words, none an acronym or with a digit: a name a title's words may be a phrase of."""
    return len(words) >= 2 and not any(is_acronym(word) or any(ch.isdigit() for ch in word) for word in words)


def _capitalised_inside_a_sentence(phrase: re.Pattern, abstract: str) -> bool:
    return any(
        abstract[match.start()].isupper() and abstract[: match.start()].rstrip()[-1:] not in {"", ".", "!", "?"}
        for match in phrase.finditer(abstract)
    )


#: A title's words after its colon that describe what the name before it is ("Tag Map: A Text-Based Map …").
_DESCRIBED = re.compile(r"^\s*(?:an?|the)\s", re.IGNORECASE)


def _described_after_colon(title: str | None) -> bool:
    return bool(title) and bool(_DESCRIBED.match(title.partition(":")[2]))
