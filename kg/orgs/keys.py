"""Identity keys for institution names: what must match for two written forms to be one.

On top of :func:`kg.text.names.match_key` (case, diacritics, punctuation), institution names
also ignore

- hyphens as word breaks ("Urbana-Champaign" = "Urbana Champaign"), "&" vs "and", a leading
  "The" and the word "at" ("University of Illinois at Urbana-Champaign");
- a trailing legal form: "ByteDance Inc." = "Bytedance", "Allegro Sp. z o.o." = "Allegro",
  "Huawei Technologies Co., Ltd." = "Huawei Technologies";
- the language of the organisation word and of the city: "Universität Freiburg" = "University
  of Freiburg", "Universität Wien" = "University of Vienna", "Università di Torino" =
  "University of Turin", "TU Darmstadt" = "Technische Universität Darmstadt". Only the word
  that names the kind of organisation is translated, so "Universidad Católica de Chile" stays
  apart from "Universidad de Chile".

- a misspelt word for the kind of organisation: "Tsinghua Univeresity", "Ben-Gurion Universtiy",
  "INSTATUTE OF …" (one letter added, dropped, changed or two swapped inside the word, its first
  and last letters right); a word of another language is no misspelling ("Universite", "Instituto",
  "Departement", "Institutet", "Laboratori"), nor is a plural ("Institutes") or a name's own word
  ("Rational").

- the spacing of a romanised Chinese compound: "Jiaotong" = "Jiao Tong" ("Shanghai Jiaotong
  University" = "Shanghai Jiao Tong University", so every Jiao Tong university), "Chiaotung" =
  "Chiao Tung" (the Wade-Giles spelling of the same word).

Word order is *not* ignored: "University of Washington" and "Washington University" are
different keys (see :func:`swapped`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz.distance import OSA

from ..text.names import HYPHENS, clean, match_key
from .lexicon import word_list, word_mapping, word_sequence

_HYPHENS = re.compile(f"[{HYPHENS}]")
_IGNORED_WORDS = word_list("key_ignored")
_NOT_SWAPPED = word_list("not_swapped")
# Places where "X University" and "University of X" are two institutions ("Newcastle University" in
# England, the University of Newcastle in Australia): the two orders never name one.
DISTINCT_IN_SWAPPED_ORDER = word_list("distinct_swapped")
# Legal forms, as match_key spells them ("Sp. z o.o." -> "sp z oo", "S.A." -> "sa"), longest first.
LEGAL_FORMS = tuple(
    tuple(form.split()) for form in sorted(word_sequence("legal_form"), key=lambda form: -len(form.split()))
)
# The word for "university" (or "technical", "institute") in other languages, after folding.
NATIVE_WORDS = word_mapping("native")
# The words for a kind of organisation whose misspellings are read as them: long ones, where one
# letter wrong inside cannot make another word of a name. Other languages' words for the same kinds
# mostly differ at the end ("Institutet", "Laboratori", "Collegi"), as plurals do; those that do not
# are listed.
SPELLED_WORDS = word_list("spelled")
OTHER_LANGUAGES = frozenset(NATIVE_WORDS) | word_list("other_language_extra")
# Romanised Chinese words written as one word or as their syllables: the syllables are the key's.
SYLLABLES = {word: tuple(syllables.split()) for word, syllables in word_mapping("syllables").items()}
# Abbreviations of those words as affiliations write them ("Univ. Grenoble Alpes", "Univ Lyon").
ABBREVIATIONS = word_mapping("abbreviation")
# Prepositions that follow such a word ("Universidad de Chile", "Università degli Studi di Milano").
_NATIVE_OF = re.compile(
    r"\b(university|institute) (?:degli studi )?(?:de la|de|di|del|della|des|du|van|zu|do|da|w|v)\b"
)
# "University" right before a one-word place ("Universität Freiburg", "Technical University
# Munich") means "of"; "University College London" has no place there.
_NATIVE_BARE = re.compile(
    (
        r"^(?P<kind>technical university|university) "
        r"(?!of\b|college\b|hospital\b|medical\b|center\b|centre\b|clinic\b|press\b)(?P<place>\S+)$"
    )
)
# Cities written in their own language -> the English name the alias table uses.
EXONYMS = word_mapping("exonym")


def _without_legal_form(words: list[str]) -> list[str]:
    changed = True
    while changed:
        changed = False
        for form in LEGAL_FORMS:
            if len(words) > len(form) and tuple(words[-len(form) :]) == form:
                words, changed = words[: -len(form)], True
                break
    return words


def is_legal_form(text: str) -> bool:
    """True when the text is legal forms and nothing else: "Inc.", "Co., Ltd.", "Sp. z o.o.".

    >>> is_legal_form("Co., Ltd."), is_legal_form("Sp. z o.o."), is_legal_form("Ltd. Research")
    (True, True, False)
    """
    words = match_key(text).split()
    return bool(words) and _without_legal_form(["name", *words]) == ["name"]


def without_legal_form(name: str) -> str:
    """A name as written without the legal form it ends with ("Foo Technology Co., Ltd." -> "Foo Technology").

    >>> without_legal_form("Huawei Technologies Co., Ltd."), without_legal_form("Allegro Sp. z o.o.")
    ('Huawei Technologies', 'Allegro')
    """
    tokens = clean(name).split()
    end = next((end for end in range(1, len(tokens)) if is_legal_form(" ".join(tokens[end:]))), len(tokens))
    return " ".join(tokens[:end]).rstrip(",")


def _in_english(words: list[str]) -> list[str]:
    native = any(word in NATIVE_WORDS or word in ABBREVIATIONS for word in words)
    words = [EXONYMS.get(word, ABBREVIATIONS.get(word, word)) for word in words]
    if words[:1] == ["tu"] and len(words) == 2:  # "TU Darmstadt", "TU Wien"
        words = ["technische", "universitat", words[1]]
        native = True
    text = " ".join(NATIVE_WORDS.get(word, word) for word in words)
    if native:
        text = _NATIVE_OF.sub(r"\1 of", text)
    if match := _NATIVE_BARE.match(text):  # "Universität Freiburg", "Technical University Munich"
        text = f"{match['kind']} of {match['place']}"
    return text.split()


@lru_cache(maxsize=1 << 12)
def spelled(word: str) -> str:
    """The kind word a folded word misspells ("univeresity" -> "university"), else the word itself:
    a word of another language, a plural or a name's own word is no misspelling.

    >>> spelled("univeresity"), spelled("insitute"), spelled("universite"), spelled("institutes")
    ('university', 'institute', 'universite', 'institutes')
    """
    if len(word) < 7 or word in SPELLED_WORDS or word in OTHER_LANGUAGES:
        return word
    near = [
        kind
        for kind in SPELLED_WORDS
        if (kind[0], kind[-1]) == (word[0], word[-1]) and OSA.distance(word, kind, score_cutoff=1) <= 1
    ]
    return near[0] if len(near) == 1 else word


@lru_cache(maxsize=1 << 16)
def institution_key(name: str) -> str:
    """The identity key of an institution's name as written (the rules in this module's docstring).

    >>> institution_key("Universität Freiburg"), institution_key("TU Darmstadt")
    ('university of freiburg', 'technical university of darmstadt')
    >>> institution_key("Shanghai Jiaotong Univeresity"), institution_key("Universidad Católica de Chile")
    ('shanghai jiao tong university', 'university catolica de chile')
    """
    words = [
        syllable
        for word in map(spelled, match_key(_HYPHENS.sub(" ", clean(name).replace("&", " and "))).split())
        for syllable in SYLLABLES.get(word, (word,))
    ]
    if words[:1] == ["the"]:
        words = words[1:]
    words = _in_english(_without_legal_form(words))
    return " ".join(word for word in words if word not in _IGNORED_WORDS)


def _other_order(key: str) -> tuple[str, str] | None:
    """(the key in the other word order, its place X) of ``university of x`` or ``x university``."""
    if key.startswith("university of "):
        rest = key.removeprefix("university of ")
        return f"{rest} university", rest
    if key.endswith(" university"):
        rest = key.removesuffix(" university")
        return f"university of {rest}", rest
    return None


def swapped(key: str) -> str | None:
    """``university of x`` <-> ``x university`` for a plain X (no "of", "and", "university" in it),
    not a place whose two orders are two institutions (:data:`DISTINCT_IN_SWAPPED_ORDER`), else None.

    >>> swapped("tokyo university"), swapped("newcastle university"), swapped("university of washington")
    ('university of tokyo', None, None)
    """
    other = _other_order(key)
    if other is None or not other[1] or _NOT_SWAPPED & set(other[1].split()) or other[1] in DISTINCT_IN_SWAPPED_ORDER:
        return None
    return other[0]


def distinct_other_order(key: str) -> str | None:
    """The other word order of a key whose place's two orders are two institutions ("university of
    newcastle" for "newcastle university"), else None.

    >>> distinct_other_order("newcastle university"), distinct_other_order("tokyo university")
    ('university of newcastle', None)
    """
    other = _other_order(key)
    return other[0] if other and other[1] in DISTINCT_IN_SWAPPED_ORDER else None
