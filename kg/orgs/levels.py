"""The levels of a chain (Level), the chains (OrgChain), what the chain builder asks of a level among
the others (a lab's co-supervisors, an institute of an academy, a donor's centre), and the parents the
alias table or a name gives a level."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..text.names import fold
from .aliases import AliasTable
from .canonical_names import OrgName, is_known, looks_like_organisation, resolve_name
from .keys import institution_key, swapped
from .lexicon import word_list
from .org_names import (
    REGION_CODES,
    UNIVERSITY_WORDS,
    is_country,
    is_french_research_organisation,
    is_unit_number,
    subdivisions,
    words_of,
)
from .parts import _MINISTRY
from .rules import BY_ID
from .shapes import (
    _co_supervisor_shaped,
    _donor,
    _names_subject,
    _says_no_name,
    _says_unit,
    _university_shaped,
    brand_parent,
    names_institution,
    names_place_of_university,
)

_KEY_LAB = re.compile(r"\b(?:Key\s+Lab(?:oratory)?|Engineering\s+Research\s+Cent(?:er|re))\b", re.IGNORECASE)
# The codes of a country's provinces or states, by the country's key.
_REGION_CODES_OF = {"canada": subdivisions("CA")[1], "australia": subdivisions("AU")[1]}
_CODE_THEN_COUNTRY = tuple(
    re.compile(rf"\b(?:{'|'.join(sorted(codes))})\.?,?\s+{country}\b", re.IGNORECASE)
    for country, codes in _REGION_CODES_OF.items()
)
# A French university or school's name, which begins a lab's list of co-supervisors.
_FRENCH_UNIVERSITY_WORDS = word_list("french_university")
_ACADEMY_OF_SCIENCES = word_list("academy_of_sciences")
_ACADEMY = word_list("academy")
_ARTICLE = word_list("article")
_FRENCH_UNIV = re.compile(r"\bUniv\b\.?(?!\s+of\b)")


@dataclass(frozen=True, slots=True)
class Level:
    """One part of an entry with the place qualifiers written after it, and the ids of the rules that
    placed it (:meth:`noted`).

    >>> Level("MIT", ("Cambridge", "MA", "USA")) == Level("MIT", ("Cambridge", "MA", "USA"), rules=("institution",))
    True
    """

    name: str
    qualifiers: tuple[str, ...] = ()
    # False where the alias table's organisation of this name is not the one meant (_generic_unit_of_later)
    listed: bool = True
    # The ids of the rules (kg.orgs.rules) that placed it: what explain_rules prints, no part of its identity.
    rules: tuple[str, ...] = field(default=(), compare=False)

    def noted(self, *rules: str) -> Level:
        """The level with more rules that placed it (ids of kg.orgs.rules: an unknown one is a KeyError).

        >>> Level("CSAIL").noted("unit-before-institution").noted("institution").rules
        ('unit-before-institution', 'institution')
        """
        return replace(self, rules=(*self.rules, *(BY_ID[rule].id for rule in rules)))


@dataclass(frozen=True, slots=True)
class OrgChain:
    """An institution resolved: levels from the entry itself (first) to its top-level parent (last),
    with the Chinese name of each level where the bracketed name could be aligned.

    >>> from kg.orgs.aliases import active_aliases
    >>> from kg.orgs.chains import resolve_entries
    >>> [chain] = resolve_entries("Google DeepMind", None, active_aliases())
    >>> [level.display for level in chain.levels], chain.rules
    (['Google DeepMind', 'Google'], (('known-name',), ('parent-from-alias-table',)))
    """

    levels: tuple[OrgName, ...]
    chinese: tuple[str | None, ...]
    # The ids of the rules that placed each level (kg.orgs.rules), level by level.
    rules: tuple[tuple[str, ...], ...] = ()


def _same(first: Level, second: Level, aliases: AliasTable) -> bool:
    a, b = resolve_name(first.name, aliases), resolve_name(second.name, aliases)
    return a.key == b.key or (not (a.canonical and b.canonical) and swapped(a.key) == b.key)


def _ancestors(level: Level, aliases: AliasTable) -> set[str]:
    return {name.key for name in _with_parents((resolve_name(level.name, aliases),), aliases)[1:]}


def _department_after_university(parts: list[str], index: int, university: Level, aliases: AliasTable) -> bool:
    """ "Michigan State University, Computer Science & Engineering": a discipline's name right after a
    university that the entry names first is its department (not a place), where no organisation
    follows in the entry (after a lab, "CSAIL, Electrical Engineering & Computer Science", after a
    unit, "Robotics Institute, CMU, Computer Science", or before one, "…, Computer Science, Stanford
    AI Lab", it says too little to place)."""
    return (
        _names_subject(parts[index])
        and not university.qualifiers
        and bool(words_of(resolve_name(university.name, aliases).display) & UNIVERSITY_WORDS)
        and not any(
            looks_like_organisation(later, aliases)
            and not names_place_of_university(later, aliases)
            and not is_country(later)
            for later in parts[index + 1 :]
        )
    )


def _institute_of_academy(institute: Level, academy: Level, aliases: AliasTable) -> bool:
    """ "Shenzhen Institute of Advanced Technology, CAS", "Institute of Physics, Polish Academy of
    Sciences": an institute (no university, no academy itself, none the table knows as its own)
    followed by an academy of sciences is one of the academy's institutes."""
    academy_words = words_of(resolve_name(academy.name, aliases).display)
    name = resolve_name(institute.name, aliases)
    institute_words = words_of(name.display)
    return (
        _ACADEMY_OF_SCIENCES <= academy_words
        and not academy_words & UNIVERSITY_WORDS  # not UCAS
        and "institute" in institute_words
        and name.canonical is None
        and not institute_words & (UNIVERSITY_WORDS | _ACADEMY)
    )


def _generic_unit_of_later(levels: list[Level], index: int, aliases: AliasTable) -> bool:
    """ "AI Institute, University of South Carolina": a name of two generic words (an organisation's, a
    field's: "AI Institute", "Data Center") that the table knows as one organisation, written before a
    university the table does not make its parent: that university's unit of the name, not the
    table's organisation (which is written alone, or before its own parent). A longer name of such
    words is an organisation's own ("Technology Innovation Institute, Khalifa University")."""
    level = levels[index]
    if (
        index + 1 >= len(levels)
        or any(map(is_country, level.qualifiers))  # a country ends its affiliation
        or not _says_no_name(level.name)
        or len(words_of(level.name) - _ARTICLE) > 2
        or fold(level.name.split()[0]) in _ARTICLE
        or not is_known(level.name, aliases)
    ):  # "The AI Institute": its name
        return False
    university = levels[index + 1].name
    return _university_shaped(university, aliases) and resolve_name(university, aliases).key not in _ancestors(
        level, aliases
    )


def _without_region_code(part: str, country: str) -> str:
    """ "…, BC, Canada", "…, Canberra ACT, Australia": a province's or state's code before its country
    is an address's, whatever organisation the code also names (Boston College, a lab "ACT"); the
    part less it (nothing where it is alone), or less it and what follows where the country follows it
    in the part ("University of Foo BC Canada V6T 1Z4")."""
    for pattern in _CODE_THEN_COUNTRY:  # "BC Canada V6T 1Z4": address from the code on
        if match := pattern.search(part):
            return part[: match.start()].strip(" ,")
    codes = _REGION_CODES_OF.get(institution_key(country), ())
    *place, code = part.split() or [""]
    # (the codes every address writes, "ON", "NSW", are read with their city as an address already)
    return " ".join(place) if code.strip(".") in codes and code.strip(".") not in REGION_CODES else part


def _sponsor_of_lab(part: str, lab: str) -> bool:
    """The ministry that funds a Chinese key laboratory or engineering research centre, written after
    it ("Key Laboratory of Foo, Ministry of Education, Bar University"): neither a level between the
    lab and its university nor part of the lab's name, which other papers write without it. A
    ministry after another lab is its parent ("Defence Science and Technology Laboratory, Ministry
    of Defence")."""
    return _MINISTRY.match(part) is not None and _KEY_LAB.search(lab) is not None


def _unit_words_first(levels: list[Level]) -> list[Level]:
    """The levels of an affiliation that names no institution the rules know, those with a unit's own
    word (lab, department, faculty) first: such a level is never the parent of one without ("EDF
    R&D, Lab Paris-Saclay", "Sony Europe B.V., Stuttgart Laboratory 1" write the company first)."""
    return sorted(levels, key=lambda level: not _says_unit(level.name))


def _donors_centre_of_later(levels: list[Level], index: int, aliases: AliasTable) -> bool:
    """ "Robert Bosch Centre for Cyber-Physical Systems, IISc": a centre, institute, school or chair "for"
    or "of" a subject, named after a company the table knows (its donor), before another organisation
    (places are no levels): a unit of that organisation, not the company's lab ("Bosch Center for AI"
    alone, or before its city, is the company's)."""
    return index < len(levels) - 1 and _donor(levels[index].name, aliases) is not None


def _tutelles(levels: list[Level], aliases: AliasTable) -> set[int]:
    """The co-supervisors of a French lab, written side by side before it ("Univ. Grenoble Alpes,
    CNRS, Grenoble INP, LJK", "Univ Lyon, INSA Lyon, CNRS, LIRIS, UMR 5205"): in an entry that
    names one of France's public research organisations, a joint research unit's number or a
    French university or school, the institutions, those organisations, and the names with an
    acronym and no unit's word written between the first institution and the lab (the last part
    that is neither). Each is an institution of its own; the lab is a unit of the first. Empty
    where the entry is no such list, or names fewer than two."""
    organisations = {
        index
        for index, level in enumerate(levels)
        if is_french_research_organisation(level.name) or names_institution(level.name, aliases)
    }
    if not any(map(_says_french, levels)) or not organisations:
        return set()
    lab = max((index for index in range(len(levels)) if index not in organisations), default=None)
    first = min(organisations)
    if lab is not None:
        organisations |= {index for index in range(first + 1, lab) if _co_supervisor_shaped(levels[index].name)}
    return organisations if len(organisations) > 1 else set()


def _says_french(level: Level) -> bool:
    """A level that makes an entry French: a public research organisation, a joint research unit's number
    or a French university's or school's name."""
    return bool(
        is_french_research_organisation(level.name)
        or any(map(is_unit_number, level.qualifiers))
        or words_of(level.name) & _FRENCH_UNIVERSITY_WORDS
        or _FRENCH_UNIV.search(level.name)
    )


def _filled(levels: tuple[OrgName, ...], aliases: AliasTable) -> tuple[OrgName, ...]:
    """The levels between a written unit and a written ancestor ("AWS AI Labs (Amazon)": Amazon
    Web Services), so that a unit has one node however much of its chain is written."""
    chain = [levels[0]]
    for level in levels[1:]:
        path = _with_parents((chain[-1],), aliases)
        between = next((path[1:index] for index, found in enumerate(path) if found.key == level.key), ())
        chain += [*between, level]
    return _with_parents(tuple(chain), aliases)


def _with_parents(levels: tuple[OrgName, ...], aliases: AliasTable) -> tuple[OrgName, ...]:
    """Rule 6: the chain continued up to its top-level parent."""
    chain = list(levels)
    while True:
        top = chain[-1]
        parent = aliases.parent(top.canonical) if top.canonical else brand_parent(top.written, aliases)
        if parent is None or institution_key(parent) in {level.key for level in chain}:
            return tuple(chain)
        found = resolve_name(parent, aliases)
        how = "the alias table" if top.canonical else "its name"
        chain.append(
            OrgName(found.written, found.key, found.canonical, found.acronym, f"parent of {top.display}, from {how}")
        )


def _parent_rule(level: OrgName) -> str:
    """The rule that added a level no part of the entry wrote (see _with_parents)."""
    return BY_ID["parent-from-alias-table" if level.rule.endswith("from the alias table") else "parent-from-name"].id
