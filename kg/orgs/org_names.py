"""What the words of an organisation's name are: the lexicon's word lists, places and postal
addresses, acronyms, French joint research units' numbers, and the shapes of top-level names.

A postal address at the end of the qualifiers ("…, Cambridge, MA", "…, La Jolla, CA 92014",
"…, 80333 Munich, Germany") is left out of both the key and the name shown
(:mod:`.canonical_names`): countries, US states, postcodes and the city they follow, except the city
of a name whose campus is part of its identity ("University of X, Y, ST"). A city with no state or
postcode after it is not known to be an address and stays.
"""

from __future__ import annotations

import re

import pycountry

from ..text.names import clean, fold, is_acronym
from .keys import institution_key
from .lexicon import word_list, word_sequence

ORGANISATION_WORDS = word_list("organisation")
UNIVERSITY_WORDS = word_list("university")
# Words of fields that labs, schools and departments are named after, beside the ones shaped like
# a subject's name (SUBJECT_WORD: "Robotics", "Engineering", "Vision"): none says which lab it is.
FIELD_WORDS = word_list("field")
# Words that make a name a top-level institution rather than a unit of one: a university's, a company's
# legal form ("LG Electronics Canada Incorporated, TAIL": TAIL is the company's lab, not its parent).
TOP_LEVEL_WORDS = UNIVERSITY_WORDS | word_list("company_form")
UNIT_WORDS = word_list("unit")
# Words after a company's name that name the company itself ("Huawei Technologies", "Adobe Systems"):
# where the corpus never writes the bare name, its labs ("Huawei Noah's Ark Lab") are the company's so written.
COMPANY_NAME_WORDS = word_sequence("company_name")
# Words that make a name a unit wherever they stand in it ("State Key Laboratory of Foo", "Data
# Science Thrust"); "School", "Institute" or "Center" begin units but end many institutions' names
# ("Higher School of Economics", "Alan Turing Institute").
UNIT_ONLY_WORDS = word_list("unit_only")
LAB_WORDS = word_list("lab")


def subdivisions(country: str, *types: str) -> tuple[frozenset[str], frozenset[str]]:
    """The keys of a country's subdivisions of the given types (all without types), and their codes.

    >>> keys, codes = subdivisions("AU")
    >>> "new south wales" in keys, sorted(codes)
    (True, ['ACT', 'NSW', 'NT', 'QLD', 'SA', 'TAS', 'VIC', 'WA'])
    """
    found = [
        division
        for division in pycountry.subdivisions.get(country_code=country) or ()
        if not types or division.type in types
    ]
    return (
        frozenset(institution_key(division.name) for division in found),
        frozenset(division.code.partition("-")[2] for division in found),
    )


US_STATES, US_STATE_CODES = subdivisions("US", "State", "District")
# The largest Canadian provinces and Australian states as addresses write them ("…, Toronto, ON",
# "…, Sydney, NSW 2007"); the others' codes are organisations' acronyms too ("SK Telecom", "NU" for a
# university, "BC" for Boston College, "ACT"), so they are left to the rules for acronyms.
REGION_CODES = US_STATE_CODES | word_list("address_region_code")
# Every Canadian province and Australian state by name but those that name a city and its university too.
REGIONS = US_STATES | ((subdivisions("CA")[0] | subdivisions("AU")[0]) - word_list("not_region"))
# Upper-case words that are places or numerals, not organisations' acronyms.
PLACE_CODES = REGION_CODES | word_list("place_code")
# Trailing countries that qualify a name ("…, Japan"): never a part of its identity. Every country ISO
# 3166 names, in each of its forms ("Tunisia", "Bulgaria", "Viet Nam", "Republic of Bulgaria"), but a
# US state's name or a US territory's ("Atlanta, Georgia", "Mayagüez, Puerto Rico": a state, which
# ends no affiliation), and the ways affiliations write countries that ISO does not.
_ISO_COUNTRIES = (
    frozenset(
        institution_key(getattr(country, form))
        for country in pycountry.countries
        for form in ("name", "official_name", "common_name")
        if hasattr(country, form)
    )
    - US_STATES
    - word_list("us_territory")
)
COUNTRIES = _ISO_COUNTRIES | word_list("country")
# Postcodes as addresses write them: 02139, 94305-4020, 100081, 113-8656, D-80333, CB3 0FD, K1A 0B1, 1098 XH.
_POSTCODE = (
    r"(?:\d{4,6}(?:-\d{4})?|\d{3}-\d{4}|[A-Z]{1,2}-\d{4,5}|[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}"
    r"|[A-Z]\d[A-Z] \d[A-Z]\d|\d{4} [A-Z]{2})"
)
# An address part: a city with a state's code after it ("Pittsburgh PA", "CA 94305"), or with a postcode
# before or after it ("Beijing 100081", "80333 Munich").
_STATE_ADDRESS = re.compile(
    rf"(?P<city>[^\d,]*?)\s*\b(?:{'|'.join(sorted(REGION_CODES))})\.?"
    r"(?:\s+(?:\d{4,5}(?:-\d{4})?|[A-Z]\d[A-Z] ?\d[A-Z]\d))?"
)  # ZIP, Australian or Canadian postcode
_POSTCODE_ADDRESS = re.compile(rf"(?P<before>\D*?)\s*{_POSTCODE}\s*(?P<after>\D*)")
# France's public research organisations, which a French lab's affiliation lists beside its university
# as the lab's co-supervisors (its "tutelles": "Sorbonne Université, CNRS, LIP6"): institutions of their own.
FRENCH_RESEARCH_ORGANISATIONS = word_list("french_research_organisation")
_TUTELLE = "|".join(sorted(FRENCH_RESEARCH_ORGANISATIONS))
# The number of a French joint research unit ("UMR 5205", "UMR CNRS 7606", "CNRS UMR 8001", "U1001"):
# the lab's number, which names no organisation and is no part of the lab's identity.
_UNIT_NUMBER_WORDS = (
    rf"(?:(?:{_TUTELLE})[\s/-]+)?(?:UMRS?|UMR[-_]S|UPR|UMI|UAR|USR|FRE|ERL|EA|U)"
    rf"(?:[\s_-]*(?:{_TUTELLE}))?[\s_-]*\d{{3,5}}"
)
_UNIT_NUMBER = re.compile(rf"^{_UNIT_NUMBER_WORDS}$", re.IGNORECASE)
# The number written before or after the lab's name in one part ("UMR CNRS 6285 Lab-STICC", "LIRIS UMR 5205").
_UNIT_NUMBER_BESIDE_NAME = re.compile(rf"^{_UNIT_NUMBER_WORDS}\s+(?=\S)|\s+{_UNIT_NUMBER_WORDS}$", re.IGNORECASE)
_ACRONYM_PIECE = re.compile(r"[A-Za-z0-9&*]+")
# Surnames with an inner capital are not acronyms: McAllister, MacLeod, DeMarco, O'Neil.
_SURNAME_PREFIX = re.compile(r"^(?:Mc|Mac|De|Di|Da|La|Le|Van|Von|O'|D')[A-Z][a-z]+$")


def is_organisation_acronym(word: str) -> bool:
    """An acronym (:func:`kg.text.names.is_acronym`) in one hyphen-free piece of letters, digits, "&"
    and "*" (CITEC, ReLER, VIA-SD, A*STAR), not a place code ("USA", "MA"), a surname ("McAllister")
    or a hyphenated given name ("Tae-Kyun"): an affiliation's address and its authors' names are
    written beside organisations, and their capitals are no organisation's.

    >>> [is_organisation_acronym(word) for word in ("A*STAR", "VIA-SD", "(MILA)")]
    [True, True, True]
    >>> [is_organisation_acronym(word) for word in ("USA", "McAllister", "Tae-Kyun")]
    [False, False, False]
    """
    word = word.strip("(),.（）")
    if word in PLACE_CODES or _SURNAME_PREFIX.match(word):
        return False
    return any(_ACRONYM_PIECE.fullmatch(piece) and is_acronym(piece) for piece in word.split("-"))


def is_unit_number(text: str) -> bool:
    """A French joint research unit's number ("UMR 5205", "CNRS UMR 8001").

    >>> is_unit_number("CNRS UMR 8001"), is_unit_number("LIRIS UMR 5205")
    (True, False)
    """
    return _UNIT_NUMBER.match(clean(text)) is not None


def without_unit_number(text: str) -> str:
    """A lab's name without its joint research unit's number beside it ("Lab-STICC" of "UMR CNRS
    6285 Lab-STICC"); a number alone stays (it qualifies the part before it).

    >>> without_unit_number("UMR CNRS 6285 Lab-STICC"), without_unit_number("LIRIS UMR 5205")
    ('Lab-STICC', 'LIRIS')
    >>> without_unit_number("UMR 5205")
    'UMR 5205'
    """
    return _UNIT_NUMBER_BESIDE_NAME.sub("", text)


def is_french_research_organisation(text: str) -> bool:
    """A French national research organisation, which co-supervises labs with universities.

    >>> is_french_research_organisation("CNRS"), is_french_research_organisation("Sorbonne Université")
    (True, False)
    """
    return institution_key(text) in FRENCH_RESEARCH_ORGANISATIONS


def is_country(text: str) -> bool:
    """A country's name or a place code (a US state's, "USA"): a qualifier that no name's identity keeps.

    >>> is_country("P.R. China"), is_country("CA"), is_country("Paris")
    (True, True, False)
    """
    return institution_key(text) in COUNTRIES or clean(text).strip(".") in PLACE_CODES


def address_city(text: str) -> str | None:
    """The city a postal address part names besides its state or postcode ("Pittsburgh" of
    "Pittsburgh PA", "Sydney" of "Sydney NSW 2007", "" of "CA 94305", "California" and "Ontario"),
    or None when the part is no address.

    >>> address_city("Pittsburgh PA"), address_city("Sydney NSW 2007"), address_city("CA 94305")
    ('Pittsburgh', 'Sydney', '')
    >>> address_city("Lab 42"), address_city("Paris")
    (None, None)
    """
    text = clean(text)
    if institution_key(text) in REGIONS:
        return ""
    if not (match := _STATE_ADDRESS.fullmatch(text) or _POSTCODE_ADDRESS.fullmatch(text)):
        return None
    city = clean(" ".join(group or "" for group in match.groups())).strip(" ,")
    # "Lab 42", "Building 5 Research Center" are no addresses
    return None if len(city.split()) > 3 or words_of(city) & ORGANISATION_WORDS else city


def without_address(qualifiers: tuple[str, ...], keep_city: bool) -> tuple[str, ...]:
    """The qualifiers before the postal address that ends them: countries, US states, postcodes,
    and the city they follow ("…, Cambridge, MA", "…, La Jolla, CA 92014", "…, Pittsburgh PA,
    USA"). A city with no state or postcode after it ("…, Paris, France") stays, and so does the
    city of a name whose campus is part of its identity (``keep_city``: "University of X, Y").

    >>> without_address(("Cambridge", "MA", "USA"), keep_city=False), without_address(("Paris", "France"), False)
    ((), ('Paris',))
    >>> without_address(("Merced", "CA"), keep_city=True)
    ('Merced',)
    """
    kept = list(qualifiers)
    postal = False
    while kept:
        city = address_city(kept[-1])
        if city is None and not is_country(kept[-1]):
            break
        kept.pop()
        if city:  # the address's city, written in the same part
            return (*kept, city) if keep_city else tuple(kept)
        postal = postal or city == ""
    if postal and kept and not keep_city:
        kept.pop()
    return tuple(kept)


def acronym_fits(acronym: str, name: str) -> bool:
    """An acronym fits a name when its letters are initials of the name's words, in order, or,
    written in capitals, letters of the name in order from its first ("POLIMI", "MILA").

    >>> acronym_fits("FBL", "Foo Bar Lab"), acronym_fits("POLIMI", "Politecnico di Milano")
    (True, True)
    >>> acronym_fits("IBM", "Google Research")
    False
    """
    words = re.findall(r"[A-Za-z]+", name)
    initials = "".join(word[0] for word in words).upper()
    letters = [ch for ch in acronym.upper() if ch.isalpha()]
    if len(letters) < 2:
        return False
    if _in_order(letters, initials):
        return True
    return acronym.isupper() and initials[:1] == letters[0] and _in_order(letters, "".join(words).upper())


def _in_order(letters: list[str], text: str) -> bool:
    position = 0
    for letter in letters:
        position = text.find(letter, position) + 1
        if position == 0:
            return False
    return True


def words_of(text: str) -> set[str]:
    """Folded words, hyphenated compounds taken apart ("Ruprecht-Karls-Universität").

    >>> sorted(words_of("Ruprecht-Karls-Universität Heidelberg"))
    ['heidelberg', 'karls', 'ruprecht', 'universitat']
    """
    return {fold(word).strip(".,()（）") for word in re.split(r"[\s\-]+", clean(text)) if word}


def starts_with_unit_word(text: str) -> bool:
    """The name's first word names a unit (department, lab, school, in any language the lexicon has).

    >>> starts_with_unit_word("Laboratoire LISSI"), starts_with_unit_word("Stanford University")
    (True, False)
    """
    words = institution_key(text).split()
    return bool(words) and fold(words[0]) in UNIT_WORDS


def is_top_level(text: str) -> bool:
    """Shaped like an institution of its own: a university, a company, an "Institute of … Technology",
    a state's "Tech".

    >>> [is_top_level(text) for text in ("Zorblax Inc.", "Harbin Institute of Technology", "Texas Tech")]
    [True, True, True]
    >>> is_top_level("School of Computing"), is_top_level("Robotics Institute")
    (False, False)
    """
    if starts_with_unit_word(text):
        return False
    key = institution_key(text)
    return (
        bool(words_of(text) & TOP_LEVEL_WORDS)
        or ("institute" in key.split() and key.endswith("technology"))
        or is_state_tech(key)
    )


def is_state_tech(key: str) -> bool:
    """ "Georgia Tech", "Illinois Tech", "Texas Tech": a US state's name and "Tech" name its university
    of technology (a company writes more: "Zorblax Tech").

    >>> is_state_tech("georgia tech"), is_state_tech("zorblax tech")
    (True, False)
    """
    return key.endswith(" tech") and key.removesuffix(" tech") in US_STATES
