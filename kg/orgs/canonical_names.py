"""One organisation name -> its identity key and canonical name, through the alias table.

A name resolves through the alias table (after the key rules of :mod:`.keys`), in this order:
the name with its qualifiers; the name without a trailing country ("…, Japan"); the name
without its campus or place qualifiers ("University of Washington, Seattle") when the table
knows the name but not the campus; the name with "University of X" / "X University" swapped
when the table knows only the swapped form. A name the table does not know keeps its own key;
its place qualifiers are left out of it for an "X University" (one university: "Rutgers
University, New Brunswick") and kept for "University of X, Y", the way systems name campuses,
so "University of California, Merced" stays apart from "…, Irvine". The postal address at the end
of the qualifiers is left out (:func:`.org_names.without_address`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..text.names import clean
from .aliases import AliasTable
from .keys import institution_key, swapped
from .lexicon import word_list, word_sequence
from .org_names import (
    COMPANY_NAME_WORDS,
    LAB_WORDS,
    ORGANISATION_WORDS,
    UNIT_ONLY_WORDS,
    acronym_fits,
    address_city,
    is_country,
    is_organisation_acronym,
    is_state_tech,
    is_unit_number,
    without_address,
    words_of,
)

# A lab's name, whose parent an unknown name after it may be ("Zorblax AI Labs, Quillon").
_UNIT_ONLY_OR_LAB_WORDS = UNIT_ONLY_WORDS | LAB_WORDS
# Names whose campus is part of their identity ("University of X, Y", "Indian Institute of Technology, Y").
_CAMPUS_NAME = re.compile(r"\b(?:university|institute|college) of\b")
# Names of systems of several universities or institutes, one per campus: "University of X, Y" (a
# name of its own, "Foo University", "Foo Institute of Technology", is one), "State University of
# X, Y", "Indian Institute of Technology, Y", "National Institute of Technology, Y".
_SYSTEM_NAME = re.compile(r"^(?:the )?(?:university|institute|college) of\b")
_SYSTEM_PREFIXES = word_sequence("system_prefix")
_ORDER_JOINING = word_list("order_joining")
_ACRONYM_IN_BRACKETS = re.compile(r"^(?P<name>.+?)\s*[(（](?P<acronym>[A-Z][A-Za-z0-9&*\-]{1,11})[)）]$")


@dataclass(frozen=True, slots=True)
class OrgName:
    """One level of an institution entry: as written, its identity key, its canonical name, and
    the rule that decided its identity (for the quality report); :attr:`display` is the name shown.

    >>> OrgName("Zorblax Lab", "zorblax lab").display
    'Zorblax Lab'
    >>> OrgName("MIT", "massachusetts institute of technology", "Massachusetts Institute of Technology").display
    'Massachusetts Institute of Technology'
    """

    written: str
    key: str
    canonical: str | None = None
    acronym: str | None = None
    rule: str = "own name"

    @property
    def display(self) -> str:
        return self.canonical or self.written


@lru_cache(maxsize=1 << 16)  # names repeat across a corpus; the table is immutable once loaded
def resolve_name(text: str, aliases: AliasTable, qualifiers: tuple[str, ...] = ()) -> OrgName:
    """One organisation name (with the place qualifiers written after it) -> key and canonical name.

    >>> from kg.orgs.aliases import active_aliases
    >>> found = resolve_name("Univ. of Washington", active_aliases(), ("Seattle", "WA"))
    >>> found.written, found.canonical, found.rule
    ('Univ. of Washington, Seattle', 'University of Washington', "alias table, campus or place 'Seattle' left out")
    >>> found = resolve_name("University of California", active_aliases(), ("Merced",))
    >>> found.key, found.canonical
    ('university of california merced', 'University of California, Merced')
    >>> found = resolve_name("Zorblax Research Lab (ZRL)", active_aliases(), ("Tokyo",))
    >>> found.key, found.canonical, found.acronym
    ('zorblax research lab tokyo', None, 'ZRL')
    """
    name, acronym = _name_and_acronym(clean(text))
    base = institution_key(name)
    # the postal address is where the institution is, not which one it is, nor a part of its name
    # a place whose words the name already has ("Shenzhen University, Shenzhen", "Technion - …, Technion")
    # adds nothing, to its name as written or to its key; nor does a country
    kept = tuple(
        q
        for q in without_address(qualifiers, keep_city=_CAMPUS_NAME.search(base) is not None)
        if not set(institution_key(q).split()) <= set(base.split())
    )
    written = clean(", ".join((text, *kept)))
    places = tuple(q for q in kept if not is_country(q) and not is_unit_number(q))
    full = institution_key(", ".join((name, *places)))
    for key, rule in _table_keys(name, qualifiers, places, base, full):
        if (canonical := aliases.canonical(key)) is not None:
            return OrgName(written, institution_key(canonical), canonical, acronym, rule)
    turned = swapped(base)
    if not places and turned and turned in aliases.canonical_keys and base not in aliases:
        canonical = aliases.canonical(turned)
        return OrgName(written, institution_key(canonical), canonical, acronym, "alias table, words in swapped order")
    if places and _is_where(base, places):
        # "Rutgers University, New Brunswick", "Zorblax Institute of Technology, Weihai", "Zorblax
        # Research, Tokyo": a name of its own names one organisation, and its place is where it is
        # (a campus, a site)
        return OrgName(written, base, None, acronym, f"own name, campus or place {', '.join(places)!r} left out")
    return OrgName(written, full, None, acronym, f"own name, identity key {full!r}")


def _name_and_acronym(name: str) -> tuple[str, str | None]:
    """A name less the acronym in brackets after it that fits it ("Foo Bar Lab (FBL)"), and the acronym."""
    if (match := _ACRONYM_IN_BRACKETS.match(name)) and acronym_fits(match["acronym"], match["name"]):
        return match["name"], match["acronym"]
    return name, None


def _table_keys(
    name: str, qualifiers: tuple[str, ...], places: tuple[str, ...], base: str, full: str
) -> list[tuple[str, str]]:
    """The keys to look a name up by in the alias table, in order, each with how it was found: with all
    its qualifiers, with its country only, without its country, without its places."""
    countries = tuple(q for q in qualifiers if is_country(q))
    keys = [(institution_key(", ".join((name, *qualifiers))), "alias table")]
    if countries:  # "Northeastern University, Shenyang, China": the table knows the name with its country
        keys.append((institution_key(", ".join((name, *countries))), "alias table, address left out"))
    keys.append((full, "alias table, country left out"))
    if places:
        keys.append((base, f"alias table, campus or place {', '.join(places)!r} left out"))
    return keys


def _is_where(base: str, places: tuple[str, ...]) -> bool:
    """Places after a name say where it is, not which one: not after a system's name (its campuses
    are written "University of X, Y"), nor after a lab's, whose parent an unknown name may be
    ("Foo Lab, Bar Technologies", "Foo AI Labs (Bar)"), nor when one of them is an organisation's name."""
    return (
        not _SYSTEM_NAME.search(base)
        and not base.startswith(_SYSTEM_PREFIXES)
        and not set(base.split()) & _UNIT_ONLY_OR_LAB_WORDS
        and not any(
            words_of(place) & (ORGANISATION_WORDS | set(COMPANY_NAME_WORDS))
            or any(map(is_organisation_acronym, place.split()))
            for place in places
        )
    )


def is_known(text: str, aliases: AliasTable) -> bool:
    """The alias table (or the registry behind it) knows the name.

    >>> from kg.orgs.aliases import active_aliases
    >>> is_known("CMU", active_aliases()), is_known("Zorblax Lab", active_aliases())
    (True, False)
    """
    return resolve_name(text, aliases).canonical is not None


@lru_cache(maxsize=1 << 16)  # asked of every institution entry of every record
def looks_like_organisation(text: str, aliases: AliasTable) -> bool:
    """An organisation word, an acronym (not a place code, nor a piece of a postcode: "ON N2L 3G1"), a
    state's "Tech", or a name the alias table knows.

    >>> from kg.orgs.aliases import active_aliases
    >>> [looks_like_organisation(text, active_aliases()) for text in ("Zorblax Lab", "ReLER", "Georgia Tech")]
    [True, True, True]
    >>> [looks_like_organisation(text, active_aliases()) for text in ("Pengwei Sun", "ON N2L 3G1")]
    [False, False]
    """
    acronyms = [word for word in clean(text).split() if is_organisation_acronym(word)]
    if acronyms and address_city(text) is not None:
        acronyms = [word for word in acronyms if not any(map(str.isdigit, word))]
    if words_of(text) & ORGANISATION_WORDS or is_state_tech(institution_key(text)) or acronyms:
        return True
    return is_known(text, aliases)


def why_apart(first: str, second: str, aliases: AliasTable) -> str:
    """Why two names that look alike are different institutions: the quality report's "why".

    >>> from kg.orgs.aliases import active_aliases
    >>> why_apart("Newcastle University", "University of Newcastle", active_aliases())
    'the same words in another order, which names another institution unless the alias table says so'
    >>> print(why_apart("University of Washington", "Washington University", active_aliases()))
    ... # doctest: +NORMALIZE_WHITESPACE
    the alias table lists both as institutions of their own
    (University of Washington / Washington University in St. Louis)

    """
    a, b = resolve_name(first, aliases), resolve_name(second, aliases)
    if a.canonical and b.canonical:
        return f"the alias table lists both as institutions of their own ({a.canonical} / {b.canonical})"
    if set(a.key.split()) - _ORDER_JOINING == set(b.key.split()) - _ORDER_JOINING:
        return "the same words in another order, which names another institution unless the alias table says so"
    return f"different identity keys ({a.key!r} / {b.key!r}) and the alias table has neither as a form of the other"
