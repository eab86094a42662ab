"""Names run together in one part with no separator ("Loom University Weave Labs AB"): where to cut,
and what the names on either side of a cut must look like."""

from __future__ import annotations

import re
from functools import cache

from ..text.names import clean, fold
from .aliases import AliasTable
from .canonical_names import is_known, looks_like_organisation, resolve_name
from .keys import is_legal_form, without_legal_form
from .lexicon import word_list
from .org_names import (
    ORGANISATION_WORDS,
    UNIT_ONLY_WORDS,
    UNIVERSITY_WORDS,
    address_city,
    is_country,
    is_organisation_acronym,
    is_top_level,
    starts_with_unit_word,
    words_of,
)
from .shapes import (
    _WEB_NAME,
    _academic,
    _donor,
    _ends_with_known,
    _names_subject,
    _university_shaped,
    brand_parent,
    names_institution,
    names_place_of_university,
    split_commas,
)

# Words that say what kind an institution is, not which one ("State University", "Technical University").
KIND_WORDS = word_list("kind")
# A company's AI lab, named after the company ("Deepwise AI Lab", "Tencent AI Lab"): after a
# university's name it begins another organisation, where the university's own lab would be its unit
# written before it ("Vision Lab, Foo University") or a lab with a subject's name ("Foo University Robotics Lab").
_COMPANY_AI_LAB = re.compile(r"^[A-Z][\w-]+ AI (?:Labs?|Research|Center|Centre)$")
# A university's school for its doctoral students, however its subject is written around it
# ("Artificial Intelligence Graduate School", "Doctoral School Computer Science"). A school named
# otherwise may be a university's or an institution of its own ("Gaoling School of Artificial
# Intelligence", but "Stockholm School of Economics", "Icahn School of Medicine at Mount Sinai").
_GRADUATE_SCHOOL = re.compile(r"\b(?:Graduate|Doctoral)\s+School\b")
# The most words of a comma part that run_together cuts: the shared sets' longest part has 18, two
# institutions run together rarely more; a longer part is prose or a list no rule reads, and trying
# every cut of it costs the cube of its length (an entry of 2,000 words took minutes).
LONGEST_RUN_TOGETHER = 32


def _ends_name(name: str, part: str, aliases: AliasTable) -> bool:
    return (
        is_legal_form(part)
        or is_country(part)
        or address_city(part) is not None
        or is_known(f"{name}, {part}", aliases)
        and not is_known(part, aliases)
    )


def _awaits_institution(group: list[str], aliases: AliasTable) -> bool:
    """The group's last part is a unit whose institution is still to come."""
    last = group[-1].removeprefix("and ")
    if "," in last or names_institution(last, aliases) or _ends_with_known(last, aliases):
        return False
    return (
        group[-1].startswith("and ")
        or starts_with_unit_word(last)
        or bool(words_of(last) & UNIT_ONLY_WORDS)
        or _names_subject(last)
        or len(group) > 1
        and " " not in last
        and is_organisation_acronym(last)
    )


def _school_of(school: str, following: str, aliases: AliasTable) -> bool:
    """A graduate or doctoral school before a university: that university's unit ("Artificial
    Intelligence Graduate School+Ulsan National Institute of Science and Technology"); one the table
    knows, or one before a company, is an affiliation of its own."""
    return (
        _GRADUATE_SCHOOL.search(school) is not None
        and not names_institution(school, aliases)
        and _university_shaped(split_commas(following)[0], aliases)
    )


def run_together(text: str, aliases: AliasTable) -> list[str]:
    """Rule 3 without a separator: two institutions written one after the other with only a space
    between them, as some lists join an author's affiliations ("Foo University The University of
    Bar", "…, Beijing, China Institute of Baz, …"). An entry is cut inside one of its comma parts,
    the longest first part first, only

    - after a complete institution: a name of the institution kind ending in an organisation word
      (University, Institute, Lab, Inc., …) or a name the table knows, and before another: a name
      the table knows, a university or a company ("Foo Labs AB"), not a place that a university is
      named after ("Princeton"), not a unit ("Shenzhen Graduate School"), not "in St. Louis";
    - or after a country that ends an address, before an organisation's name;
    - or after a known institution or the city after one, before a unit of the institution named
      by the next comma part ("… Chinese Academy of Sciences School of Foo, University of Bar").

    A name the table knows is never cut ("Google DeepMind", "University College London"), nor a
    known organisation's unit ("Tencent Foo Co."), nor one whose second part is its campus
    ("University of California Berkeley"). A comma part of more than :data:`LONGEST_RUN_TOGETHER`
    words is not cut.

    >>> from kg.orgs.aliases import active_aliases
    >>> run_together("Peking University Microsoft Research Asia", active_aliases())
    ['Peking University', 'Microsoft Research Asia']
    >>> run_together("Foo University The University of Hong Kong", active_aliases())
    ['Foo University', 'The University of Hong Kong']
    >>> [run_together(text, active_aliases()) for text in ("Google DeepMind", "University of California Berkeley")]
    [['Google DeepMind'], ['University of California Berkeley']]

    """
    pieces: list[str] = []
    # the first piece of each cut may hold more cuts (the longest first part is cut first), the rest
    # is read on in this loop, so no entry, however many institutions it runs together, recurses deeper
    # than one comma part has words
    while (cut := _first_cut(text, aliases)) is not None:
        first, text = cut
        pieces += run_together(first, aliases)
    return [*pieces, text]


def _first_cut(text: str, aliases: AliasTable) -> tuple[str, str] | None:
    """:func:`run_together`'s first cut of an entry: the text before it and after it."""
    if is_known(text, aliases):
        return None
    parts = split_commas(text)
    return next((cut for index in range(len(parts)) if (cut := _cut_in_part(parts, index, aliases))), None)


def _cut_in_part(parts: list[str], index: int, aliases: AliasTable) -> tuple[str, str] | None:
    """The first cut inside one comma part, the longest head first: the entry before it and after it."""
    part = parts[index]
    words = part.split()
    if not _may_run_together(part, aliases):
        return None
    # separators and brackets have rules of their own ("ETHZ - ETH Zurich", "Foo & Bar University"),
    # except in a name the table knows, before another ("Mila - Quebec AI Institute McGill University")
    plain = [word[0].isalnum() for word in words]
    # "Tencent Foo Co.": a known company's unit; after a university's or institute's name a
    # company's legal form makes a company of its own ("KTH Royal Institute of Technology Foo AB")
    brand = _company_unit(part, aliases)
    # an institution among the later comma parts, asked once
    institution_follows = cache(lambda: any(names_institution(later, aliases) for later in parts[index + 1 :]))
    for end in range(len(words) - 1, 0, -1):
        head, tail = " ".join(words[:end]), " ".join(words[end:])
        if not _cut_allowed(plain, end, head, aliases):
            continue
        after_address = _ends_address(head, parts, index, aliases)
        rest = ", ".join([tail, *parts[index + 1 :]])
        if after_address and _begins_after_address(tail, aliases):
            return ", ".join(parts[:index]), rest
        # a unit whose institution is the next comma part: "… Sciences School of Foo, Bar University"
        # (a unit's word alone names no unit: "Zorblax Research Lab, Bar University" is the lab's name)
        unit_of_next = starts_with_unit_word(tail) and " " in tail and institution_follows()
        if (
            unit_of_next
            and _institution_before_unit(head, parts, index, aliases)
            or not after_address
            and not brand
            and _two_names(head, tail, words[end], aliases)
        ):
            return ", ".join([*parts[:index], head]), rest
    return None


def _may_run_together(part: str, aliases: AliasTable) -> bool:
    """A comma part of two words or more, not too long to try every cut of, that the table does not know."""
    return 2 <= len(part.split()) <= LONGEST_RUN_TOGETHER and not is_known(part, aliases)


def _company_unit(part: str, aliases: AliasTable) -> bool:
    """A unit of a known company, named after it ("Tencent Foo Co.")."""
    return (parent := brand_parent(part, aliases)) is not None and not _academic(parent, aliases)


def _ends_address(head: str, parts: list[str], index: int, aliases: AliasTable) -> bool:
    """The head of a part is a country that ends the address written before it."""
    return index > 0 and is_country(head) and not looks_like_organisation(parts[index - 1], aliases)


def _cut_allowed(plain: list[bool], end: int, head: str, aliases: AliasTable) -> bool:
    """Plain words only (no separator, no bracket), or a name the table knows before the cut and plain
    words from the cut on."""
    return all(plain) or plain[end - 1] and all(plain[end:]) and is_known(head, aliases)


def _institution_before_unit(head: str, parts: list[str], index: int, aliases: AliasTable) -> bool:
    """The head of a part is an institution the table knows (not a centre named after a company: "Tencent
    Chair of Foo, Bar University" is the university's), or the place after the part before."""
    return (
        is_known(head, aliases)
        and _donor(parts[index], aliases) is None
        or index > 0
        and _is_place_after(head, parts[index - 1], aliases)
    )


def _two_names(head: str, tail: str, next_word: str, aliases: AliasTable) -> bool:
    """An institution's complete name, then the beginning of another's, that are not one known name
    with its comma left out nor one name written twice."""
    return (
        _ends_institution(head, next_word, aliases)
        and _begins_institution(tail, aliases)
        and not is_known(f"{head}, {tail}", aliases)
        and not _same_name(head, tail, aliases)
    )


def _organisation_word(word: str) -> bool:
    return fold(word).strip(".,()") in ORGANISATION_WORDS


def _ends_institution(name: str, next_word: str, aliases: AliasTable) -> bool:
    """A complete institution: known (not as the place a university is named after, "Oxford
    Brookes University"), or an institution's name ending in an organisation word or legal form;
    not a name that the next word completes into a known one ("Tsinghua University")."""
    last = name.split()[-1]
    if is_known(f"{name} {next_word}", aliases) or names_place_of_university(name, aliases):
        return False
    if not words_of(name) - ORGANISATION_WORDS - KIND_WORDS:  # a kind alone is no name: "University Mohammed VI …"
        return False
    # the last word first: names_institution reads every beginning of the name (brand_parent)
    return is_known(name, aliases) or (
        (_organisation_word(last) or is_legal_form(last)) and names_institution(name, aliases)
    )


def _begins_institution(name: str, aliases: AliasTable) -> bool:
    """Another institution: known, a university, a company ("Foo Labs AB") or a known organisation's
    lab ("Fraunhofer IAIS"), not a place a university is named after ("Princeton"), not a unit, not
    a legal form alone ("Corporation")."""
    if not name[0].isupper() or names_place_of_university(name, aliases) or is_legal_form(name):
        return False
    return (
        is_known(name, aliases)
        or (is_top_level(name) and not starts_with_unit_word(name))
        or without_legal_form(name) != clean(name)
        or brand_parent(name, aliases) is not None
        or _COMPANY_AI_LAB.match(name) is not None
    )


def _begins_after_address(name: str, aliases: AliasTable) -> bool:
    """An organisation's name after a country that ends an address ("…, Beijing, China Institute of
    Foo"): known, a unit's or a known organisation's lab; a name beginning "University" only when known
    (", China University of Petroleum" may be its own name)."""
    if not name[0].isupper():
        return False
    if is_known(name, aliases):
        return True
    if fold(name.split()[0]).strip(".,()") in UNIVERSITY_WORDS:
        return False
    # (a company by a web address for a name, "… China Zorblax.ai Inc"; a legal form alone says nothing
    # here: "…, Beijing, China Mobile Communications Co., Ltd." is one name)
    return (
        starts_with_unit_word(name)
        or brand_parent(name, aliases) is not None
        or _WEB_NAME.fullmatch(name.split()[0]) is not None
    )


def _is_place_after(name: str, before: str, aliases: AliasTable) -> bool:
    """A city after an institution ("…, International Institute of Foo, Hyderabad"): a few
    capitalised words that are no organisation's."""
    words = name.split()
    return (
        len(words) <= 3
        and all(word[0].isupper() for word in words)
        and names_institution(before, aliases)
        and not looks_like_organisation(name, aliases)
    )


def _same_name(first: str, second: str, aliases: AliasTable) -> bool:
    return resolve_name(first, aliases).key == resolve_name(second, aliases).key


def _last_name(text: str, aliases: AliasTable) -> str:
    """The last comma part of a piece that is not its address: "Foo University, UK and Bar
    Institute, Germany", "University College London, London, UK and …" name Foo University and
    University College London before their "and"."""
    parts = split_commas(text) or [text]  # (a piece of commas alone, ", and Foo", has none)
    # (a place is a word or two; more may be a name the "and" cuts: "…, China Aerospace Science and Industry …")
    while len(parts) > 1 and (
        is_country(parts[-1]) or len(parts[-1].split()) <= 2 and not looks_like_organisation(parts[-1], aliases)
    ):
        parts.pop()
    return parts[-1]


def _first_name(text: str, before: str, aliases: AliasTable) -> str:
    """The first comma part of a piece, or where that is a unit ("Center for Foo, NYU", "Gatsby Unit,
    UCL", "IWR, Heidelberg University") after an institution, the institution it is written before:
    the organisation a piece after a separator begins with. ("Technology, Bar University" after "Foo
    University of Science and" names no unit; after no institution, "Urban Traffic & Economics Lab,
    Foo University", the rules of :func:`_names_two` read the first part.)"""
    first, *later = split_commas(text) or [text]
    if (
        (words_of(first) & ORGANISATION_WORDS or is_organisation_acronym(first))
        and not names_institution(first, aliases)
        and names_institution(before, aliases)
    ):
        return next((part for part in later if names_institution(part, aliases)), first)
    return first
