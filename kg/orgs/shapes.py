"""The classifier of the organisation parser: what one name is by its words, its shape and the alias
table (an institution, a unit, a company, a place, a subject)."""

from __future__ import annotations

import re
from functools import lru_cache

from ..text.names import clean, fold
from .aliases import AliasTable
from .canonical_names import is_known, resolve_name
from .keys import institution_key, without_legal_form
from .lexicon import word_list, word_mapping
from .org_names import (
    FIELD_WORDS,
    LAB_WORDS,
    ORGANISATION_WORDS,
    TOP_LEVEL_WORDS,
    UNIT_ONLY_WORDS,
    UNIT_WORDS,
    UNIVERSITY_WORDS,
    is_country,
    is_french_research_organisation,
    is_organisation_acronym,
    is_top_level,
    starts_with_unit_word,
    words_of,
)

# How the names of subjects end ("Robotics", "Biology", "Engineering", "Chemistry", "Vision"):
# such a word alone is a field, not an organisation's name.
SUBJECT_WORD = re.compile(r"(?:ics|logy|istry|ing|ion|ence|ance|ity|ine|omy|graphy)$", re.IGNORECASE)
# Disciplines, which departments are named after: how one word of them ends ("Mathematics",
# "Biology", "Chemistry"), and the words that end longer names ("Computer Science", "Electrical
# Engineering"), where the other endings end companies' names too ("Boston Dynamics", "Agility
# Robotics"); a word of a name written plainly.
_DISCIPLINE = re.compile(r"(?:ics|logy|istry)$")
_DISCIPLINE_ENDS = word_list("discipline_end")
_PLAIN_WORD = re.compile(r"[A-Z][a-z]+")
# A unit named after someone: "Robert Bosch Centre for …", "Tata Centre of …".
_NAMED_UNIT = re.compile(
    r"^(?P<donor>.+?)\s+(?:Centre|Center|Institute|School|College|Chair)\s+(?:for|of)\s", re.IGNORECASE
)
# Words that name an organisation's kind or its field, not which organisation it is ("AI Institute"; a
# name "of" or "for" a field is often an institution's own, "Institute of Statistical Mathematics").
_GENERIC_NAME_WORDS = ORGANISATION_WORDS | FIELD_WORDS | word_list("generic_name_extra")
# The words a unit's name begins with, by the kind of unit they say.
_UNIT_KINDS = word_mapping("unit_kind")
_TOWN_WORDS = word_list("town")
_TOWN_NAMED_AFTER = word_list("town_named_after")
_SUBJECT_JOINING = word_list("subject_joining")
_TEAM_WORDS = word_list("team")
_GOVERNMENT_DEPARTMENT = word_list("government_department")
# A web address for a company's name ("Contract.fit", "Valeo.ai").
_WEB_NAME = re.compile(r"[A-Za-z][\w-]*\.(?:ai|io|com|fit|co|net|org|tech|app|dev|xyz)", re.IGNORECASE)
# Words that end companies' names and no place's: "Zhipu AI", "Megvii Technology", "Boston Dynamics".
_COMPANY_NAME_ENDS = word_list("company_name_end")
_UNIT_AND = re.compile(r"\s+(?:and|&)\s+")
_AT_OR_BY = re.compile(r"^(?P<unit>.+?)\s+(?:at|by)\s+(?P<parent>.+)$")
# A bare word that, before a company, names the company's lab.
GENERIC_UNITS = word_list("generic_unit")
# After a known prefix, these make the name an institution of its own ("Penn State University").
OWN_INSTITUTION_WORDS = TOP_LEVEL_WORDS | word_list("own_institution")
_ACADEMIC_WORDS = word_list("academic")
# "Faculty IV", "Lab 2": a numbered unit, not a place like "College Park".
_NUMBERED = re.compile(r"\d+|[ivx]+")
PREPOSITIONS = word_list("preposition")


def split_commas(text: str) -> list[str]:
    """Comma-separated parts (full-width commas too), ignoring commas inside brackets ("DFKI (DFKI, DSA)").

    >>> split_commas("DFKI (DFKI, DSA), Kaiserslautern, Germany"), split_commas("清华大学，计算机系")
    (['DFKI (DFKI, DSA)', 'Kaiserslautern', 'Germany'], ['清华大学', '计算机系'])
    """
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in "(（[":
            depth += 1
        elif ch in ")）]":
            depth = max(0, depth - 1)
        if ch in ",，" and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    parts.append("".join(current).strip())
    return [part for part in parts if part]


@lru_cache(maxsize=1 << 16)
def brand_parent(text: str, aliases: AliasTable) -> str | None:
    """The known organisation a name begins with ("Google Brain" -> Google; a university before a
    unit's name, "Carnegie Mellon University Robotics Institute") or is "at"/"by"; None for a name the
    table knows itself, or one that says too little beside a university's ("Stanford Medicine").

    >>> from kg.orgs.aliases import active_aliases
    >>> brand_parent("Carnegie Mellon University Robotics Institute", active_aliases())
    'Carnegie Mellon University'
    >>> brand_parent("Zorblax Lab at Tsinghua University", active_aliases())
    'Tsinghua University'
    >>> brand_parent("Tencent Foo Co., Ltd.", active_aliases()), brand_parent("Stanford Medicine", active_aliases())
    ('Tencent', None)
    """
    if is_known(text, aliases):
        return None
    tokens = without_legal_form(text).split()  # "Tencent Foo Co., Ltd." is "Tencent Foo", a unit of Tencent
    for end in range(len(tokens) - 1, 0, -1):
        rest = {fold(word).strip("(),.") for word in tokens[end:]}
        if rest & OWN_INSTITUTION_WORDS:
            continue
        known = resolve_name(" ".join(tokens[:end]), aliases).canonical
        # "Stanford Medicine" says too little; "Carnegie Mellon University Robotics Institute" names a unit
        if known and (not words_of(known) & UNIVERSITY_WORDS or _names_unit_of_its_own(tokens[end:])):
            return known
    if (university := _university_before_unit(tokens)) is not None:
        return university
    if (match := _AT_OR_BY.match(clean(text))) and (known := resolve_name(match["parent"], aliases)).canonical:
        return known.canonical
    return None


def _university_before_unit(tokens: list[str]) -> str | None:
    """A university's name by its shape, the longest first ("Carnegie Mellon University", "University
    of Toronto"), before a unit's name ("… Robotics Institute", "… Institute for Aerospace Studies").
    After "University of", one word of a place and a unit that begins with its kind: where the place
    ends is not known otherwise ("University of Novi Sad Faculty of Sciences", "University of Michigan
    Ross School of Business" are left whole)."""
    for end in range(len(tokens) - 2, 1, -1):
        head, rest = tokens[:end], tokens[end:]
        if "-" in " ".join(head):  # "University of Foo-Bar University Joint Institute": two universities' joint unit
            continue
        named_after_place = (
            len(head) == 3 and fold(head[0]) in UNIVERSITY_WORDS and head[1] == "of" and head[2][0].isupper()
        )
        shaped = fold(head[-1]) in UNIVERSITY_WORDS or named_after_place and starts_with_unit_word(" ".join(rest))
        if shaped and _names_unit_of_its_own(rest) and not words_of(" ".join(rest)) & UNIVERSITY_WORDS:
            return " ".join(head)
    return None


def _names_unit_of_its_own(words: list[str]) -> bool:
    """The words after a university's name that name a unit of it: two or more, a unit's word among
    the first three or last, or a lab's or department's anywhere ("Robotics Institute", "Institute
    for Aerospace Studies", "Ross School of Business", "State Key Lab of Foo"), up to a comma; not an
    institution's own shape ("University of Ontario Institute of Technology") nor a lab named by one
    word of a place ("Zhejiang University Zhejiang Lab": two institutions run together)."""
    comma = next((index for index, word in enumerate(words) if word.endswith(",")), None)
    if comma is not None:  # the place after the name ("…, Warpville") is not the unit's
        words = [*words[:comma], words[comma].rstrip(",")]
    name, key = " ".join(words), institution_key(" ".join(words))
    institution_shaped = (
        bool(words_of(name) & TOP_LEVEL_WORDS) or "institute" in key.split() and key.endswith("technology")
    )
    places_lab = len(words) == 2 and fold(words[1]) in LAB_WORDS and fold(words[0]) not in _GENERIC_NAME_WORDS
    joint = "joint" in words_of(name)  # "Southeast University Monash University Joint Graduate School": both's
    if len(words) < 2 or institution_shaped or places_lab or joint or not words[0][0].isupper():
        return False
    return any(fold(word) in UNIT_WORDS for word in (*words[:3], words[-1])) or bool(words_of(name) & UNIT_ONLY_WORDS)


def names_institution(text: str, aliases: AliasTable) -> bool:
    """Rule 4's institution part: the name is an institution of its own (its shape, the table, a known
    organisation it begins with, a government's department), not a unit.

    >>> from kg.orgs.aliases import active_aliases
    >>> [names_institution(name, active_aliases()) for name in ("Zorblax Inc.", "Mila", "Google Brain")]
    [True, True, True]
    >>> names_institution("Department of Computer Science", active_aliases())
    False
    """
    return (
        is_top_level(text)
        or is_known(text, aliases)
        or brand_parent(text, aliases) is not None
        or _government_department(text)
    )


def _acronym_and_place(name: str) -> bool:
    """ "ETH Zurich", "MPI Tübingen": an institution's acronym and its place's one or two capitalised
    words, none an organisation's, a subject's or a lab's generic word ("AI & Robotics Lab", "EECS &
    CSAIL" name no two institutions; "Texas A & M" no acronym)."""
    acronym, *place = name.split()
    return (
        is_organisation_acronym(acronym)
        and institution_key(acronym) not in GENERIC_UNITS
        and 1 <= len(place) <= 2
        and all(
            word[0].isupper() and not is_organisation_acronym(word) and not SUBJECT_WORD.search(word) for word in place
        )
        and not words_of(" ".join(place)) & ORGANISATION_WORDS
        and institution_key(" ".join(place)) not in GENERIC_UNITS
    )


def _organisation_alone(name: str, aliases: AliasTable) -> bool:
    """An institution, one of France's research organisations, or one word that can be an
    organisation's own name: capitalised, of three letters or more, not a lab's generic word
    ("Research"), a country or a subject's name ("Robotics", "Biology")."""
    if names_institution(name, aliases) or is_french_research_organisation(name):
        return True
    letters = re.sub(r"[^\w]", "", name)
    return (
        " " not in name
        and len(letters) >= 3
        and name[0].isupper()
        and institution_key(name) not in GENERIC_UNITS
        and not is_country(name)
        and not SUBJECT_WORD.search(name)
    )


def _discipline_word(word: str) -> bool:
    return _DISCIPLINE.search(word) is not None or fold(word) in _DISCIPLINE_ENDS


def _names_subject(name: str) -> bool:
    """A discipline's name written for its department ("Computer Science", "Electrical Engineering",
    "Mathematics", "Mathematics and Statistics"): plain capitalised words (no brand's "Mizuho-DL"),
    none an organisation's, one discipline's word, disciplines' words joined by "and", or ending
    with "Science" or "Engineering" ("Boston Dynamics", "International Business Machines" are no
    discipline)."""
    words = name.split()
    return (
        bool(words)
        and all(_PLAIN_WORD.fullmatch(word) or word in _SUBJECT_JOINING for word in words)
        and not words_of(name) & ORGANISATION_WORDS
        and all(
            _discipline_word(words[0]) if len(words) == 1 else fold(words[-1]) in _DISCIPLINE_ENDS
            for words in map(str.split, _UNIT_AND.split(name))
        )
    )


def _university_shaped(name: str, aliases: AliasTable) -> bool:
    """A university, or an institute of science and technology that is one ("Ulsan National Institute
    of Science and Technology (UNIST)"), not a company."""
    display = resolve_name(name, aliases).display
    return bool(words_of(display) & UNIVERSITY_WORDS) or (
        is_top_level(display) and not words_of(display) & TOP_LEVEL_WORDS
    )


def _ends_with_known(name: str, aliases: AliasTable) -> bool:
    """A unit's name that ends with its institution's, as the table knows it ("Centre for Foo TU Darmstadt")."""
    words = name.split()
    return any(is_known(" ".join(words[start:]), aliases) for start in range(1, len(words)))


def names_place_of_university(text: str, aliases: AliasTable) -> bool:
    """A place that a university is named after, written alone ("Princeton", "Stanford"): the table
    knows it as the university, but it has no organisation word and all its words are the place's.

    >>> from kg.orgs.aliases import active_aliases
    >>> names_place_of_university("Princeton", active_aliases()), names_place_of_university("Beijing", active_aliases())
    (True, False)
    """
    found = resolve_name(text, aliases)
    return (
        found.canonical is not None
        and not words_of(text) & ORGANISATION_WORDS
        and bool(words_of(found.canonical) & UNIVERSITY_WORDS)
        and words_of(text) < words_of(found.canonical)
    )


def place_shaped(text: str) -> bool:
    """ "College Park", "College Station": an organisation word followed by a name, nothing else (not
    an acronym, the lab's: "Laboratoire LISSI"), nor a numbered unit ("Faculty IV").

    >>> place_shaped("College Park"), place_shaped("Laboratoire LISSI"), place_shaped("Faculty IV")
    (True, False, False)
    """
    words, written = institution_key(text).split(), clean(text).split()
    return (
        len(words) == 2
        and starts_with_unit_word(text)
        and words[1] not in PREPOSITIONS
        and not is_organisation_acronym(text)
        and not _NUMBERED.fullmatch(words[1])
        and not is_organisation_acronym(written[-1])
    )


def _town_named_after_university(text: str) -> bool:
    """ "University Park", "College Station", "University Heights": a town or district named after its
    university, written after an institution as its place."""
    words = fold(clean(text)).split()  # as written: the key reads "University Park" as "University of Park"
    return len(words) == 2 and words[0] in _TOWN_NAMED_AFTER and words[1] in _TOWN_WORDS


def _unit_kind(name: str) -> str | None:
    """The kind of unit a name begins with ("Department", "Dept." and "Departamento" alike), if any."""
    words = institution_key(name).split()
    return _UNIT_KINDS.get(words[0]) if words else None


def _company_shaped(name: str) -> bool:
    """ "Zhipu AI", "Megvii Technology", "Zorblax Robotics": one or two capitalised words of a name, then
    a word companies' names end with (no place's does), or a web address ("Contract.fit", "Cyclope.ai"):
    no place but an organisation, a unit of the one before it unless a web address makes it a company
    ("Amazon, Alexa AI" is Amazon's; a research group, "Humanoid Robotics", is too). A field's name is
    no company's ("Artificial Intelligence", "Computer Vision Technology")."""
    words = name.split()
    if len(words) == 1 and _WEB_NAME.fullmatch(name):
        return True
    return (
        2 <= len(words) <= 3
        and fold(words[-1]) in _COMPANY_NAME_ENDS
        and all(word[0].isupper() for word in words)
        and not words_of(name) & ORGANISATION_WORDS
        and not _says_no_name(" ".join(words[:-1]))
    )


def _says_no_name(name: str) -> bool:
    """Only words an organisation's kind or a field is named with: no word says which one it is."""
    return all(word in _GENERIC_NAME_WORDS for word in words_of(name))


def _says_unit(name: str) -> bool:
    """A name with a unit's own word, or a team's ("Xiaomi, XiaoAI Team"), other than a government's
    department. (A team is not a unit wherever it stands: before a '+' it may be an affiliation of
    its own, "Seed Team+Tsinghua University".)"""
    return bool(words_of(name) & (UNIT_ONLY_WORDS | _TEAM_WORDS)) and not _government_department(name)


def _government_department(name: str) -> bool:
    """ "US Department of Veterans Affairs", "U.S. Dept. of Energy": a country's name or code before
    "Department" names its government's department, an institution, not a university's unit."""
    words = name.split()
    return any(
        is_country(" ".join(words[:end])) and fold(words[end]).strip(".") in _GOVERNMENT_DEPARTMENT
        for end in range(1, min(len(words), 4))
    )


def _donor(name: str, aliases: AliasTable) -> str | None:
    """The company a centre, institute, school or chair "for" or "of" a subject is named after, where
    the table knows it ("Robert Bosch Centre for …" -> Robert Bosch GmbH)."""
    match = _NAMED_UNIT.match(clean(name))
    donor = resolve_name(match["donor"], aliases).canonical if match else None
    return donor if donor and not _academic(donor, aliases) else None


def _co_supervisor_shaped(name: str) -> bool:
    """ "Grenoble INP", "INSA Lyon", "CentraleSupélec": an acronym and no word of a unit."""
    return (
        any(is_organisation_acronym(word) for word in name.split())
        and not starts_with_unit_word(name)
        and not words_of(name) & (ORGANISATION_WORDS - TOP_LEVEL_WORDS)
    )


def _academic(name: str, aliases: AliasTable) -> bool:
    """A university, college, school, academy or institute: a place after it that names another
    university ("MIT, Harvard") is that university; after a company ("Google Research, Princeton")
    it is where the company's lab is."""
    return bool(words_of(resolve_name(name, aliases).display) & (UNIVERSITY_WORDS | _ACADEMIC_WORDS))
