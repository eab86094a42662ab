"""Institution entries -> organisations: one chain of units per institution the entry names.

Rules, in the order they apply to one entry of a listing's institution field (the names
themselves resolve by :mod:`.org_names`):

1. ``English（中文）``: the bracketed part is a second name of the same entry (``@zh`` when it
   is Chinese); the listing reader already splits it off. A word a PDF cut at a line's end is
   whole again where its pieces make a word of organisations' names ("Kyoto Univer-sity"); a
   sentence about the authors is no part of the name ("The authors are affiliated with the Foo
   Institute", "Bar Institute in Switzerland.").
2. A name the alias table knows is never cut: "University of California, Berkeley" and
   "Agency for Science, Technology and Research, Singapore" stay whole.
3. An entry naming two institutions gives two: it is cut at ";", at "+" (glued or spaced) as
   :func:`plus_groups` reads it (also a comma: "School of Foo+Bar University" is one), and at "/", "|", " & " and
   " and " when every piece names an institution ("Chalmers University of Technology and
   University of Gothenburg", "DeepMind/Google"; a country ending the first piece is read past,
   "Foo University, UK and Bar University, Germany"), also at "/" between two organisations' own
   names ("DeepMind/Google" where the table knows neither, "LAAS / CNRS") and at " & " between a
   lab's name and a university ("Google Brain Robotics & Columbia University"), and at any of them
   before or after an acronym and its place ("ETH Zurich & MPI Tübingen"; not "Texas A&M",
   "Johnson & Johnson"); an entry that
   states no affiliation ("Independent Researcher", a form's "N/A") names none, and an e-mail address,
   a dangling "and" or a footnote number glued to a name ("1Department of …") is no part of one;
   "U. of X" is "University of X"; "and" after an institution, before a unit written before another
   institution, cuts the entry ("DeepMind and Gatsby Unit, UCL"); and a comma list of two institutions
   ("Peking University, Tsinghua University") gives two chains, never a unit of the other. Two
   written with only a space between them are cut after a complete institution, before another
   ("Foo University The University of Bar"; :func:`run_together`), or after an address's country.
4. Otherwise the entry is cut at commas (outside brackets) and at spaced dashes ("ETHZ - ETH
   Zurich") into parts. An *institution* part is a university, a company, an "Institute of …
   Technology", a name the table knows, or a name that begins with one ("Google Brain"). A
   part that is a legal form ("Inc.", "Ltd.", also with the acronym in brackets, "Limited (FOO)")
   ends the name before it ("Foo Co., Ltd."), and
   footnote marks ("Dept. of Psychology‡") and a bracketed note ("(work done at Foo)") are no
   part of a name; a country, a place or a campus ("Seattle", "College Park", "(Guangzhou)")
   qualifies the part before it and is never an organisation; so is the place a university is
   named after when it follows a company ("Google Research, Princeton"). Commas that list a name's
   subjects stay in it ("Institute for Logic, Language and Computation"), and a numbered unit
   ("Faculty IV") is no place. Parts before an institution are its units, smallest first; a unit written
   after its institution ("The University of Tokyo, Graduate School of …", "Sorbonne
   Université, LPSM") is still its unit, so a unit and its parent are never inverted; a country
   ends an affiliation, so no unit before it belongs to an institution after it. Where no part is
   an institution, a part with a lab's, department's or faculty's word is never the parent of one
   without ("EDF R&D, Lab Paris-Saclay"); a country before "Department" names its government's, an
   institution ("US Department of Veterans Affairs"). A French lab's
   co-supervisors written side by side ("Univ. Grenoble Alpes, CNRS, Grenoble INP, LJK, UMR 5224")
   are institutions of their own and the lab a unit of the first; its "UMR" number is no unit, nor
   a part of the lab's name written beside it ("UMR CNRS 6285 Lab-STICC"). A bare
   "Research" or "Labs" before a company is the company's lab ("Research, Google" =
   "Google Research"), also before a name no rule knows that is no place ("Research, Zorblax"),
   and a lab's name after one word no rule knows is that word's lab ("Amazon, AWS AI Labs").
   A unit "of" its institution is two parts ("School of Computer Science of Wuhan University"), two
   units joined by "and" are siblings under what follows them ("Department of Automation and
   BNRist, Tsinghua University"), as are units of one kind side by side ("Department of Foo,
   Department of Bar, Baz University"); a comma after a compass adjective is inside the name
   ("University of Western, Australia"); a company's shape ("…, Zhipu AI") is no place but a unit,
   and a web address for a name ("…, Contract.fit") a company of its own; an institute before an
   academy of sciences is the academy's; a discipline's name after a university named first is its
   department; a generic name of two words the table knows ("AI Institute") before a university
   that is not its parent is that university's unit; a province's code before its country ("…, BC,
   Canada") and a town named after a university ("University Park") are places, and a state's code
   right after a unit ends no affiliation.
5. The same institution written twice in one entry ("Technion - Israel Institute of
   Technology, Technion", "Edinburgh University, University of Edinburgh") is one; an
   institution followed by its own parent ("Google DeepMind, Google") is one chain; a part that is
   an earlier part's name cut short before its "of" or "for" ("Max Planck Institute for Foo,
   Max-Planck Institute") names nothing new.
6. Labs, brands and divisions are units of their parent: the table's parent column ("Google
   DeepMind" → Google), a name beginning with a known organisation ("Adobe Research",
   "Amazon Development Center Germany"; not when the rest makes it an institution of its own,
   "Penn State University"; not across a hyphen, "MIT-IBM Watson AI Lab"; not a centre "for" a
   subject named after the company before another organisation, "Robert Bosch Centre for Foo, IISc",
   which is that organisation's), a university's name before a unit's ("Carnegie Mellon University
   Robotics Institute"), or "X at/by Y" ("Robotics at Google").
7. Units get IRIs under their parent's (``institution/{parent}--{unit}``): "Department of
   Mathematics" is a different unit at every university.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..text.names import clean, fold, has_cjk
from .aliases import AliasTable
from .keys import institution_key, is_legal_form, swapped, without_legal_form
from .org_names import (
    FIELD_WORDS,
    ORGANISATION_WORDS,
    REGION_CODES,
    TOP_LEVEL_WORDS,
    UNIT_ONLY_WORDS,
    UNIT_WORDS,
    UNIVERSITY_WORDS,
    OrgName,
    acronym_fits,
    address_city,
    is_acronym,
    is_country,
    is_french_research_organisation,
    is_known,
    is_top_level,
    is_unit_number,
    looks_like_organisation,
    resolve_name,
    starts_with_unit_word,
    without_unit_number,
    words_of,
)

# "A; B" always names two institutions; "A+B" (how aggregators join one author's affiliations, and
# some also a comma) by the rules of :func:`plus_groups`; the others only when the names on both
# sides of them are institutions.
_SEMICOLON = re.compile(r"\s*;\s*")
# The "+" between them is glued, spaced or half spaced ("A+B", "A + B", "A+ B"); a "+" beside another
# is a name's own ("C++ Lab").
_PLUS = re.compile(r"(?<=[^\s+])(\s*\+\s*)(?=[^\s+])")
_SEPARATORS = (re.compile(r"\s*\|\s*"), re.compile(r"\s*/\s*"), re.compile(r"\s+&\s+"),
               re.compile(r"\s+and\s+"))
# Words that say an author has no institution, and the words for the author beside them.
_NO_AFFILIATION_WORDS = frozenset("independent unaffiliated selfemployed self employed freelance freelancer none".split())
# What a form's empty field is filled with ("N/A", "Unknown", "null", its own label "Affiliation").
_PLACEHOLDER_KEYS = frozenset({"n a", "na", "nan", "null", "nil", "unknown", "not applicable", "not available",
                               "affiliation", "affiliations"})
# An e-mail address, which papers print beside an affiliation: no part of its name.
_EMAIL = re.compile(r"(?:[(<]\s*)?[\w.+-]+@[\w-]+(?:\.[\w-]+)+(?:\s*[)>])?")
# A footnote's number glued to the name it marks ("1Department of …"): see _without_footnote_number.
_FOOTNOTE_NUMBER = re.compile(r"(?P<number>\d{1,2})(?P<word>[A-Z][A-Za-z]*)")
# A list's joining word or comma left at a piece's end or start where a PDF's line or a list was cut
# ("Foo University and", ", and Foo" where an e-mail address stood).
_DANGLING_AND = re.compile(r"^(?:[\s,;]*(?:and|&)\s+)+|^[\s,;]+|(?:[\s,;]+(?:and|&))+[\s,;]*$|[\s,;&]+$")
_NO_AFFILIATION_PERSONS = frozenset("researcher research scientist scholar consultant engineer developer".split())
# Words that say what kind an institution is, not which one ("State University", "Technical University").
KIND_WORDS = frozenset("state national technical technological polytechnic federal open public private the".split())
_SLASH, _AMPERSAND = _SEPARATORS[1], _SEPARATORS[2]
# How the names of subjects end ("Robotics", "Biology", "Engineering", "Chemistry", "Vision"):
# such a word alone is a field, not an organisation's name.
SUBJECT_WORD = re.compile(r"(?:ics|logy|istry|ing|ion|ence|ance|ity|ine|omy|graphy)$", re.IGNORECASE)
# Disciplines, which departments are named after: how one word of them ends ("Mathematics",
# "Biology", "Chemistry"), and the words that end longer names ("Computer Science", "Electrical
# Engineering"), where the other endings end companies' names too ("Boston Dynamics", "Agility
# Robotics"); a word of a name written plainly.
_DISCIPLINE = re.compile(r"(?:ics|logy|istry)$")
_DISCIPLINE_ENDS = frozenset("science sciences engineering computing".split())
_PLAIN_WORD = re.compile(r"[A-Z][a-z]+")
# A company's AI lab, named after the company ("Deepwise AI Lab", "Tencent AI Lab"): after a
# university's name it begins another organisation, where the university's own lab would be its unit
# written before it ("Vision Lab, Foo University") or a lab with a subject's name ("Foo University Robotics Lab").
_COMPANY_AI_LAB = re.compile(r"^[A-Z][\w-]+ AI (?:Labs?|Research|Center|Centre)$")
# A sentence that says where the authors work, before the institution's name ("The authors are
# affiliated with the …", "Work done at …"): a verb, then "with", "at", "from" or "by".
_LEAD_IN = re.compile(r"^(?:[A-Za-z]+\s+){0,6}?(?:is|are|was|were|done|affiliated|employed|working)\s+"
                      r"(?:[a-z]+\s+){0,3}?(?:with|at|from|by)\s+(?:the\s+)?(?=[A-Z])")
_IN_COUNTRY = re.compile(r"\s+in\s+(?P<country>[^,.]+)\.?$")
# Two pieces of letters joined by one hyphen (and the space where the line broke), a word of their own
# ("Univer-sity", "Univer- sity"), and the words of organisations' names such pieces may make again.
_HYPHENATED = re.compile(r"(?<![\w-])([^\W\d_]+)- ?([^\W\d_]+)(?![\w-])")
_NAME_WORDS = ORGANISATION_WORDS | UNIT_WORDS | KIND_WORDS
_SPACED_DASH = re.compile(r"\s+[-–—]\s+")
_TRAILING_BRACKET = re.compile(r"^(?P<name>.+?)\s*[(（](?P<inner>[^()（）]+)[)）]$")
# A name whose subjects follow its organisation word: "Institute for Logic", "Department of Electrical",
# "Dipartimento di Informatica", "Departamento de Ingeniería Eléctrica".
# One word after it: with two, the list would take places ("Institute for Intelligent Systems, Tübingen
# and Stuttgart").
_SUBJECT_LIST = re.compile(r"^\S.* (?:of|for|di|de|del|della|des|du|für) [^\W\d_a-z][\w-]*$")
_SUBJECT_LIST_TWO = re.compile(r"^\S.* (?:of|for|di|de|del|della|des|du|für) [^\W\d_a-z][\w-]* [^\W\d_a-z][\w-]*$")
# "University of X" at the end of a part: a university named after X, a place or a subject.
_UNIVERSITY_OF = re.compile(r"\bUniversity of ([^\W\d_a-z][\w-]*)$")
# "And" between the last two subjects, in the languages departments are named in.
_LIST_AND = frozenset({"and", "&", "e", "y", "et", "und"})
# How a subject's name ends, English or Romance ("Bioengineering", "Bioingegneria", "Robótica"), so a
# list goes on through it: a place's or company's name ("Stanford", "Google") ends no subject's way.
_SUBJECT_END = re.compile(r"(?:ics|logy|istry|ing|ion|ence|ia|ía|ica|ique|ie|ção|ción|zione)$", re.IGNORECASE)
# A unit named after someone: "Robert Bosch Centre for …", "Tata Centre of …".
_NAMED_UNIT = re.compile(r"^(?P<donor>.+?)\s+(?:Centre|Center|Institute|School|College|Chair)\s+(?:for|of)\s", re.IGNORECASE)
# A university's school for its doctoral students, however its subject is written around it
# ("Artificial Intelligence Graduate School", "Doctoral School Computer Science"). A school named
# otherwise may be a university's or an institution of its own ("Gaoling School of Artificial
# Intelligence", but "Stockholm School of Economics", "Icahn School of Medicine at Mount Sinai").
_GRADUATE_SCHOOL = re.compile(r"\b(?:Graduate|Doctoral)\s+School\b")
# A ministry, and the labs a ministry funds: see _sponsor_of_lab.
_MINISTRY = re.compile(r"(?:the\s+)?Ministry\s+of\s+\S|MoE$", re.IGNORECASE)  # "MOE": China's, of Education
_KEY_LAB = re.compile(r"\b(?:Key\s+Lab(?:oratory)?|Engineering\s+Research\s+Cent(?:er|re))\b", re.IGNORECASE)
# Words that name an organisation's kind or its field, not which organisation it is ("AI Institute"; a
# name "of" or "for" a field is often an institution's own, "Institute of Statistical Mathematics").
_GENERIC_NAME_WORDS = ORGANISATION_WORDS | FIELD_WORDS | frozenset("ai ml the and & research".split())
# The words a unit's name begins with, by the kind of unit they say.
_UNIT_KINDS = {word: kind for kind, words in (
    ("department", "department dept departement departamento dipartimento"), ("school", "school escuela scuola"),
    ("faculty", "faculty faculte facultad fakultat"), ("laboratory", "lab laboratory laboratoire laboratorio"),
    ("centre", "center centre"), ("institute", "institute"), ("college", "college"), ("division", "division"),
) for word in words.split()}
_TOWN_WORDS = frozenset("park station heights hill hills place city square town".split())
# The codes of a country's provinces or states, by the country's key.
_REGION_CODES_OF = {country: frozenset(codes.split()) for country, codes in (
    ("canada", "AB BC MB NB NL NS NT NU ON PE QC SK YT"), ("australia", "ACT NSW NT QLD SA TAS VIC WA"))}
_CODE_THEN_COUNTRY = tuple(re.compile(rf"\b(?:{'|'.join(sorted(codes))})\.?,?\s+{country}\b", re.IGNORECASE)
                           for country, codes in _REGION_CODES_OF.items())
# A web address for a company's name ("Contract.fit", "Valeo.ai").
_WEB_NAME = re.compile(r"[A-Za-z][\w-]*\.(?:ai|io|com|fit|co|net|org|tech|app|dev|xyz)", re.IGNORECASE)
# Words that end companies' names and no place's: "Zhipu AI", "Megvii Technology", "Boston Dynamics".
_COMPANY_NAME_ENDS = frozenset("ai technology technologies robotics dynamics".split())
# The rules' own reading of a name, where the alias table's organisation of that name is not the one meant.
UNLISTED = AliasTable({})
_OF = re.compile(r"\s+of\s+(?:the\s+)?")
_LAB_WORDS = frozenset("lab labs laboratory laboratories".split())
_OF_WORDS = frozenset("of de del di du do da".split())
_DIRECTIONS = frozenset("western southern northern eastern central".split())
_UNIT_AND = re.compile(r"\s+(?:and|&)\s+")
_AT_OR_BY = re.compile(r"^(?P<unit>.+?)\s+(?:at|by)\s+(?P<parent>.+)$")
# A bare word that, before a company, names the company's lab.
GENERIC_UNITS = frozenset({"research", "ai", "labs", "lab", "ai research", "ai lab", "ai labs", "research labs"})
# After a known prefix, these make the name an institution of its own ("Penn State University").
OWN_INSTITUTION_WORDS = TOP_LEVEL_WORDS | {"state", "technological", "tech", "polytechnic"}
_ACADEMIC_WORDS = frozenset("institute institut college school academy".split())
# "Faculty IV", "Lab 2": a numbered unit, not a place like "College Park".
_NUMBERED = re.compile(r"\d+|[ivx]+")
# The most words of a comma part that run_together cuts: the shared sets' longest part has 18, two
# institutions run together rarely more; a longer part is prose or a list no rule reads, and trying
# every cut of it costs the cube of its length (an entry of 2,000 words took minutes).
LONGEST_RUN_TOGETHER = 32
PREPOSITIONS = frozenset("of for on in de des di du fur für".split())
# A French university or school's name, which begins a lab's list of co-supervisors.
_FRENCH_UNIVERSITY_WORDS = frozenset("universite ecole".split())
# "U. of Oxford", "U of Toronto": "U" alone, opening a part, abbreviates "University" before "of" a
# capitalised word ("U of T" is a name of its own, which the table may know; "Penn State U. of …" is
# left as written).
_U_OF = re.compile(r"(?:^|(?<=[,;(+]))\s*U\.?\s+of\s+(?=[A-Z][a-z])")
_FRENCH_UNIV = re.compile(r"\bUniv\b\.?(?!\s+of\b)")
# Footnote marks that tie an affiliation to its authors on a paper ("Dept. of Psychology‡"), card
# suits and stars as ACL papers use them ("Charles University♠") among them.
FOOTNOTE_MARKS = " *∗⋆†‡§¶‖¹²³⁴⁵⁶⁷⁸⁹⁰♠♡♢♣♤♥♦♧★☆◇◆⋄"


@dataclass(frozen=True, slots=True)
class Level:
    """One part of an entry with the place qualifiers written after it."""

    name: str
    qualifiers: tuple[str, ...] = ()
    # False where the alias table's organisation of this name is not the one meant (_generic_unit_of_later)
    listed: bool = True


@dataclass(frozen=True, slots=True)
class OrgChain:
    """An institution resolved: levels from the entry itself (first) to its top-level parent (last),
    with the Chinese name of each level where the bracketed name could be aligned."""

    levels: tuple[OrgName, ...]
    chinese: tuple[str | None, ...]


def split_commas(text: str) -> list[str]:
    """Comma-separated parts, ignoring commas inside brackets ("DFKI (DFKI, DSA)")."""
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
    unit's name, "Carnegie Mellon University Robotics Institute") or is "at"/"by"."""
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
        named_after_place = (len(head) == 3 and fold(head[0]) in UNIVERSITY_WORDS and head[1] == "of"
                             and head[2][0].isupper())
        shaped = (fold(head[-1]) in UNIVERSITY_WORDS
                  or named_after_place and starts_with_unit_word(" ".join(rest)))
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
    institution_shaped = bool(words_of(name) & TOP_LEVEL_WORDS) or "institute" in key.split() and key.endswith("technology")
    places_lab = len(words) == 2 and fold(words[1]) in _LAB_WORDS and fold(words[0]) not in _GENERIC_NAME_WORDS
    joint = "joint" in words_of(name)  # "Southeast University Monash University Joint Graduate School": both's
    if len(words) < 2 or institution_shaped or places_lab or joint or not words[0][0].isupper():
        return False
    return any(fold(word) in UNIT_WORDS for word in (*words[:3], words[-1])) or bool(words_of(name) & UNIT_ONLY_WORDS)


def names_institution(text: str, aliases: AliasTable) -> bool:
    """Rule 4's institution part."""
    return (is_top_level(text) or is_known(text, aliases) or brand_parent(text, aliases) is not None
            or _government_department(text))


def split_institutions(text: str, aliases: AliasTable) -> list[str]:
    """Rule 3: the pieces of an entry that names several institutions at once."""
    pieces = [piece for piece in _SEMICOLON.split(text) if piece.strip()]
    if len(pieces) == 1:
        pieces = plus_groups(text, aliases)
    if len(pieces) == 1:  # '+' written for a comma is one now: "Foo Co., Ltd."
        text = pieces[0]
        pieces = run_together(text, aliases)
    if len(pieces) > 1:
        return [part for piece in pieces for part in split_institutions(piece, aliases)]
    if is_known(text, aliases):
        return [text]
    for separator in _SEPARATORS:
        pieces = [piece for piece in separator.split(text) if piece]
        # the name before a separator ends it, the one after begins the next: "X, Chalmers … and University of …"
        if len(pieces) > 1 and all(_names_two(separator, (last := _last_name(before, aliases)),
                                              _first_name(after, last, aliases), aliases)
                                   for before, after in zip(pieces, pieces[1:])):
            return [part for piece in pieces for part in split_institutions(piece, aliases)]
    return [text]


def _names_two(separator: re.Pattern, first: str, second: str, aliases: AliasTable) -> bool:
    """Two institutions, one on each side of a separator; or, at a slash, two organisations' own
    names, one a brand or an institution ("DeepMind/Google", "LAAS / CNRS"; not "AI/ML"); or, at an
    ampersand, a lab's name and a university ("Google Brain Robotics & Columbia University"; not
    "Texas A & M University", "Electrical Engineering & Computer Science Department"); at any of
    them, two institutions of which one or both are an acronym and a place ("ETH Zurich & MPI
    Tübingen", "ETH Zurich and MPI Tübingen")."""
    if names_institution(first, aliases) and names_institution(second, aliases):
        # "Virginia Polytechnic Institute and State University": a kind of institution alone names none
        return bool(words_of(second) - ORGANISATION_WORDS - KIND_WORDS) or is_known(second, aliases)
    if all(names_institution(name, aliases) or _acronym_and_place(name) for name in (first, second)):
        return True  # "ETH Zurich & MPI Tübingen", "ETH Zurich and MPI Tübingen"
    if separator is _SLASH:
        return (all(_organisation_alone(name, aliases) for name in (first, second))
                and any(names_institution(name, aliases) or is_acronym(name) for name in (first, second)))
    if separator is _AMPERSAND:
        words = first.split()
        return (len(words) >= 2 and all(word[0].isupper() and len(word) > 1 for word in words)
                and not words_of(first) & TOP_LEVEL_WORDS and is_top_level(second)
                and bool(words_of(second) & UNIVERSITY_WORDS or is_known(second, aliases)))
    return False


def _acronym_and_place(name: str) -> bool:
    """"ETH Zurich", "MPI Tübingen": an institution's acronym and its place's one or two capitalised
    words, none an organisation's, a subject's or a lab's generic word ("AI & Robotics Lab", "EECS &
    CSAIL" name no two institutions; "Texas A & M" no acronym)."""
    acronym, *place = name.split()
    return (is_acronym(acronym) and institution_key(acronym) not in GENERIC_UNITS and 1 <= len(place) <= 2
            and all(word[0].isupper() and not is_acronym(word) and not SUBJECT_WORD.search(word) for word in place)
            and not words_of(" ".join(place)) & ORGANISATION_WORDS and institution_key(" ".join(place)) not in GENERIC_UNITS)


def _organisation_alone(name: str, aliases: AliasTable) -> bool:
    """An institution, one of France's research organisations, or one word that can be an
    organisation's own name: capitalised, of three letters or more, not a lab's generic word
    ("Research"), a country or a subject's name ("Robotics", "Biology")."""
    if names_institution(name, aliases) or is_french_research_organisation(name):
        return True
    letters = re.sub(r"[^\w]", "", name)
    return (" " not in name and len(letters) >= 3 and name[0].isupper() and institution_key(name) not in GENERIC_UNITS
            and not is_country(name) and not SUBJECT_WORD.search(name))


def plus_groups(text: str, aliases: AliasTable) -> list[str]:
    """An entry's parts joined by '+', glued or spaced: each affiliation of one author ("Zorblax Group
    + University at Foo"), and where a list also wrote its commas as '+' (KDD's), the parts of one
    ("School of Computer Science+Fudan University"); a '+' between two subjects is a name's own.
    A part that ends the name before it (a legal form, "Foo Co.+Ltd."; a country or postal
    address; a campus the table knows with it, "University of California+Santa Barbara") is that
    name's, after a comma; a unit that names no institution ("School of Foo", "State Key Lab of
    Bar", a subject's name for its department, "Computer Science", a lab's acronym after a unit) is
    the unit of the part after it (of the institution before it where none follows), so each university's
    school is its own. A part after an institution begins the next affiliation ("Foo
    University+Bar AI", "University of Pennsylvania+Amazon"); a leading "and" is the comma list's."""
    groups: list[list[str]] = []
    for piece in _plus_pieces(text):
        if groups and _ends_name(groups[-1][-1], piece, aliases):
            groups[-1][-1] = f"{groups[-1][-1]}, {piece}"
        elif groups and (_awaits_institution(groups[-1], aliases) or _school_of(groups[-1][-1], piece, aliases)):
            groups[-1].append(piece)
        else:
            groups.append([piece])
    if len(groups) > 1 and _awaits_institution(groups[-1], aliases) and names_institution(groups[-2][-1], aliases):
        # no institution follows the last unit: it is the one's before it, written before it as a
        # unit is ("Foo Institute of Technology+Department of Computer Science")
        groups[-2:] = [groups[-1] + groups[-2]]
    return [", ".join(part.removeprefix("and ") for part in group) for group in groups]


def _plus_pieces(text: str) -> list[str]:
    """The parts between an entry's '+', less a '+' that lists a name's subjects ("Department of
    Computing + Mathematical Sciences"), as an "&" or "and" would."""
    pieces = _PLUS.split(text)
    joined = [pieces[0]]
    for plus, piece in zip(pieces[1::2], pieces[2::2]):
        if _lists_subjects(joined[-1], split_commas(piece)[0] if piece.strip() else ""):
            joined[-1] += plus + piece
        else:
            joined.append(piece)
    return [piece.strip() for piece in joined if piece.strip()]


def _lists_subjects(before: str, after: str) -> bool:
    """A discipline ends the text before a '+' and the words after it (up to their comma) name
    another: "Computing + Mathematical Sciences", not "Computer Science+Purdue University"."""
    return (bool(before.split()) and _discipline_word(before.split()[-1]) and not is_top_level(before)
            and _names_subject(after))


def _discipline_word(word: str) -> bool:
    return _DISCIPLINE.search(word) is not None or fold(word) in _DISCIPLINE_ENDS


def _names_subject(name: str) -> bool:
    """A discipline's name written for its department ("Computer Science", "Electrical Engineering",
    "Mathematics", "Mathematics and Statistics"): plain capitalised words (no brand's "Mizuho-DL"),
    none an organisation's, one discipline's word, disciplines' words joined by "and", or ending
    with "Science" or "Engineering" ("Boston Dynamics", "International Business Machines" are no
    discipline)."""
    words = name.split()
    return (bool(words) and all(_PLAIN_WORD.fullmatch(word) or word in ("and", "&", "of") for word in words)
            and not words_of(name) & ORGANISATION_WORDS
            and all(_discipline_word(words[0]) if len(words) == 1 else fold(words[-1]) in _DISCIPLINE_ENDS
                    for words in map(str.split, _UNIT_AND.split(name))))


def _ends_name(name: str, part: str, aliases: AliasTable) -> bool:
    return (is_legal_form(part) or is_country(part) or address_city(part) is not None
            or is_known(f"{name}, {part}", aliases) and not is_known(part, aliases))


def _awaits_institution(group: list[str], aliases: AliasTable) -> bool:
    """The group's last part is a unit whose institution is still to come."""
    last = group[-1].removeprefix("and ")
    if "," in last or names_institution(last, aliases) or _ends_with_known(last, aliases):
        return False
    return (group[-1].startswith("and ") or starts_with_unit_word(last) or bool(words_of(last) & UNIT_ONLY_WORDS)
            or _names_subject(last) or len(group) > 1 and " " not in last and is_acronym(last))


def _school_of(school: str, following: str, aliases: AliasTable) -> bool:
    """A graduate or doctoral school before a university: that university's unit ("Artificial
    Intelligence Graduate School+Ulsan National Institute of Science and Technology"); one the table
    knows, or one before a company, is an affiliation of its own."""
    return (_GRADUATE_SCHOOL.search(school) is not None and not names_institution(school, aliases)
            and _university_shaped(split_commas(following)[0], aliases))


def _university_shaped(name: str, aliases: AliasTable) -> bool:
    """A university, or an institute of science and technology that is one ("Ulsan National Institute
    of Science and Technology (UNIST)"), not a company."""
    display = resolve_name(name, aliases).display
    return bool(words_of(display) & UNIVERSITY_WORDS) or (is_top_level(display)
                                                          and not words_of(display) & TOP_LEVEL_WORDS)


def _ends_with_known(name: str, aliases: AliasTable) -> bool:
    """A unit's name that ends with its institution's, as the table knows it ("Centre for Foo TU Darmstadt")."""
    words = name.split()
    return any(is_known(" ".join(words[start:]), aliases) for start in range(1, len(words)))


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
    words is not cut."""
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
    for index, part in enumerate(parts):
        words = part.split()
        if not 2 <= len(words) <= LONGEST_RUN_TOGETHER or is_known(part, aliases):
            continue
        # separators and brackets have rules of their own ("ETHZ - ETH Zurich", "Foo & Bar University"),
        # except in a name the table knows, before another ("Mila - Quebec AI Institute McGill University")
        plain = [word[0].isalnum() for word in words]
        # "Tencent Foo Co.": a known company's unit; after a university's or institute's name a
        # company's legal form makes a company of its own ("KTH Royal Institute of Technology Foo AB")
        brand = (parent := brand_parent(part, aliases)) is not None and not _academic(parent, aliases)
        institution_follows: bool | None = None  # an institution among the later comma parts, asked once
        for end in range(len(words) - 1, 0, -1):
            head, tail = " ".join(words[:end]), " ".join(words[end:])
            if not all(plain) and not (plain[end - 1] and all(plain[end:]) and is_known(head, aliases)):
                continue
            after_address = index > 0 and is_country(head) and not looks_like_organisation(parts[index - 1], aliases)
            rest = ", ".join([tail, *parts[index + 1:]])
            if after_address and _begins_after_address(tail, aliases):
                return ", ".join(parts[:index]), rest
            # a unit whose institution is the next comma part: "… Sciences School of Foo, Bar University"
            if starts_with_unit_word(tail) and institution_follows is None:
                institution_follows = any(names_institution(later, aliases) for later in parts[index + 1:])
            # (a unit's word alone names no unit: "Zorblax Research Lab, Bar University" is the lab's name)
            unit_of_next = starts_with_unit_word(tail) and " " in tail and institution_follows
            # (not a centre named after a company: "Tencent Chair of Foo, Bar University" is the university's)
            if (unit_of_next and (is_known(head, aliases) and _donor(part, aliases) is None
                                  or index > 0 and _is_place_after(head, parts[index - 1], aliases))
                    or not after_address and not brand and _ends_institution(head, words[end], aliases)
                    and _begins_institution(tail, aliases) and not is_known(f"{head}, {tail}", aliases)
                    and not _same_name(head, tail, aliases)):
                return ", ".join([*parts[:index], head]), rest
    return None


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
    return is_known(name, aliases) or ((_organisation_word(last) or is_legal_form(last)) and names_institution(name, aliases))


def _begins_institution(name: str, aliases: AliasTable) -> bool:
    """Another institution: known, a university, a company ("Foo Labs AB") or a known organisation's
    lab ("Fraunhofer IAIS"), not a place a university is named after ("Princeton"), not a unit, not
    a legal form alone ("Corporation")."""
    if not name[0].isupper() or names_place_of_university(name, aliases) or is_legal_form(name):
        return False
    return (is_known(name, aliases) or (is_top_level(name) and not starts_with_unit_word(name))
            or without_legal_form(name) != clean(name) or brand_parent(name, aliases) is not None
            or _COMPANY_AI_LAB.match(name) is not None)


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
    return (starts_with_unit_word(name) or brand_parent(name, aliases) is not None
            or _WEB_NAME.fullmatch(name.split()[0]) is not None)


def _is_place_after(name: str, before: str, aliases: AliasTable) -> bool:
    """A city after an institution ("…, International Institute of Foo, Hyderabad"): a few
    capitalised words that are no organisation's."""
    words = name.split()
    return (len(words) <= 3 and all(word[0].isupper() for word in words) and names_institution(before, aliases)
            and not looks_like_organisation(name, aliases))


def _same_name(first: str, second: str, aliases: AliasTable) -> bool:
    return resolve_name(first, aliases).key == resolve_name(second, aliases).key


def names_place_of_university(text: str, aliases: AliasTable) -> bool:
    """A place that a university is named after, written alone ("Princeton", "Stanford"): the table
    knows it as the university, but it has no organisation word and all its words are the place's."""
    found = resolve_name(text, aliases)
    return (found.canonical is not None and not words_of(text) & ORGANISATION_WORDS
            and bool(words_of(found.canonical) & UNIVERSITY_WORDS) and words_of(text) < words_of(found.canonical))


def _last_name(text: str, aliases: AliasTable) -> str:
    """The last comma part of a piece that is not its address: "Foo University, UK and Bar
    Institute, Germany", "University College London, London, UK and …" name Foo University and
    University College London before their "and"."""
    parts = split_commas(text) or [text]  # (a piece of commas alone, ", and Foo", has none)
    # (a place is a word or two; more may be a name the "and" cuts: "…, China Aerospace Science and Industry …")
    while len(parts) > 1 and (is_country(parts[-1]) or len(parts[-1].split()) <= 2
                              and not looks_like_organisation(parts[-1], aliases)):
        parts.pop()
    return parts[-1]


def _first_name(text: str, before: str, aliases: AliasTable) -> str:
    """The first comma part of a piece, or where that is a unit ("Center for Foo, NYU", "Gatsby Unit,
    UCL", "IWR, Heidelberg University") after an institution, the institution it is written before:
    the organisation a piece after a separator begins with. ("Technology, Bar University" after "Foo
    University of Science and" names no unit; after no institution, "Urban Traffic & Economics Lab,
    Foo University", the rules of :func:`_names_two` read the first part.)"""
    first, *later = split_commas(text) or [text]
    if ((words_of(first) & ORGANISATION_WORDS or is_acronym(first)) and not names_institution(first, aliases)
            and names_institution(before, aliases)):
        return next((part for part in later if names_institution(part, aliases)), first)
    return first


def _parts(text: str, aliases: AliasTable) -> list[str]:
    """Comma and dash parts, a known tail kept whole, a bracketed parent or place as a part."""
    commas = _with_subject_lists(_with_directions_joined(split_commas(text)))
    for start in range(1, len(commas)):
        if is_known(", ".join(commas[start:]), aliases):
            commas = commas[:start] + [", ".join(commas[start:])]
            break
    commas = [piece for index, part in enumerate(commas)
              for piece in _unit_of_institution(part, commas[index + 1:], aliases)]
    parts = []
    for part in commas:
        pieces = [part] if is_known(part, aliases) else _SPACED_DASH.split(part)
        if len(pieces) == 2 and (named := _with_acronym(*pieces)):  # "IRD - Institute of Research for …"
            pieces = [named]
        elif len(pieces) == 2 and " " not in pieces[0]:  # "Technion - Israel Institute of Technology", "Mila - …"
            pieces = [part]
        for piece in pieces:
            match = _TRAILING_BRACKET.match(piece)
            inner = match["inner"] if match else ""
            if match and _is_note(inner):
                parts.append(match["name"])
            elif match and not acronym_fits(inner, match["name"]) and (
                    is_known(inner, aliases) or not looks_like_organisation(inner, aliases)):
                parts += [match["name"], inner]
            else:
                parts.append(piece)
    return _with_legal_forms([without_unit_number(part.strip(FOOTNOTE_MARKS)) for part in parts
                              if institution_key(part) not in _PLACEHOLDER_KEYS])  # "Foo (N/A)"


def _with_directions_joined(parts: list[str]) -> list[str]:
    """"University of Western, Australia", "University of Southern, California": a name does not end
    with "of" a compass point's adjective, so the comma after one (a list's, where a PDF's line broke)
    is inside the name ("Case Western, Cleveland" and "Universidad Central, Venezuela" end there)."""
    joined: list[str] = []
    for part in parts:
        words = joined[-1].split() if joined else []
        if len(words) > 2 and fold(words[-1]) in _DIRECTIONS and words[-2] in _OF_WORDS and part[:1].isupper():
            joined[-1] = f"{joined[-1]} {part}"
        else:
            joined.append(part)
    return joined


def _unit_of_institution(part: str, later: list[str], aliases: AliasTable) -> list[str]:
    """"School of Computer Science of Wuhan University", "Academy of Mathematics and Systems Science of
    the Chinese Academy of Sciences", "Weaving Lab of Zorblax Inc.": a unit (a name with an organisation
    word, none a university's), "of", and the institution it belongs to (the last "of" first) are two
    parts, the unit first; written as the table knows the pair ("Unit, Institution"), one. Not a
    university's own name ("University of Science and Technology of China"), nor where a field's word
    follows the "of" ("Chinese Academy of Sciences Institute of Computing Technology"), nor a ministry after a
    lab ("Key Laboratory of Foo of the Ministry of Education", the lab's sponsor), nor where the
    entry names the institution again after it: there the "of" is in the unit's own name ("Key Lab
    of Foo of Chinese Academy of Sciences (CAS), Institute of Computing Technology, CAS")."""
    if is_known(part, aliases):
        return [part]
    for match in reversed(list(_OF.finditer(part))):
        unit, institution = part[:match.start()], part[match.end():]
        if (not words_of(unit) & ORGANISATION_WORDS or words_of(unit) & UNIVERSITY_WORDS or is_top_level(unit)
                or fold(institution.split()[0]) in FIELD_WORDS  # "Chinese Academy of Sciences Institute of …"
                or _MINISTRY.match(institution) or _joint(institution, aliases)  # "Broad Institute of MIT and Harvard"
                or not names_institution(institution, aliases)):
            continue
        if any(_same_name(institution, other, aliases) for other in later):
            return [part]
        joined = f"{unit}, {institution}"
        return [joined] if is_known(joined, aliases) else [unit, institution]
    return [part]


def _joint(name: str, aliases: AliasTable) -> bool:
    """"MIT and Harvard": institutions joined by "and", of which the name before them is a joint unit."""
    pieces = _UNIT_AND.split(name)
    return len(pieces) > 1 and all(names_institution(piece, aliases) for piece in pieces)


def _with_subject_lists(parts: list[str]) -> list[str]:
    """Commas that list a name's subjects ("Institute for Logic, Language and Computation", "School
    of Electronics, Electrical Engineering and Computer Science"): a part with no organisation word
    that ends the list with "and" ("e", "y", "et", "und"), after a part whose "of"/"for"/"di"/"de"
    begins it and any subjects' names between ("Dipartimento di Informatica, Bioingegneria, Robotica
    e Ingegneria dei Sistemi (DIBRIS)"), is the rest of that name.
    A country ("…, Trinidad and Tobago") is no subject. Written before the organisation word, the
    list ends with a part that begins with "and" ("Mechanical, Materials, and Aerospace Engineering
    Department"): the parts before it with no organisation word are the beginning of its name."""
    joined: list[str] = []
    for part in parts:
        name = _TRAILING_BRACKET.match(part)
        words = set(fold(part).split()) | set(fold(name["name"]).split() if name else ())
        start = _list_start(joined, _names_subjects_only(name["name"] if name else part))
        if (start is not None and _LIST_AND & words and not is_country(part)
                and not words_of(name["name"] if name else part) & ORGANISATION_WORDS):
            joined[start:] = [", ".join([*joined[start:], part])]
        elif part.split()[0] in ("and", "&") and joined and _list_item(joined[-1]):
            start = len(joined) - 1
            while start > 0 and _list_item(joined[start - 1]):
                start -= 1
            joined[start:] = [", ".join([*joined[start:], part])]
        else:
            joined.append(part)
    return joined


def _list_start(parts: list[str], subjects_next: bool = False) -> int | None:
    """Where a list of subjects that the next part may end begins: the last part, or the one before
    a run of subjects' names ("Dipartimento di Informatica", "Bioingegneria"), whose "of"/"for"/"di"
    begins it; None if there is none. Two words after it begin the list only where the next part
    names subjects alone ("Research Center for Visual Computing, Interaction and AI")."""
    start = len(parts) - 1
    while start > 0 and _list_item(parts[start]) and _SUBJECT_END.search(parts[start]):
        start -= 1
    if start < 0 or not (_SUBJECT_LIST.search(parts[start])
                         or subjects_next and _SUBJECT_LIST_TWO.search(parts[start])):
        return None
    # a university named after its place ends there: "University of Oxford, Mathematics and Statistics"
    # is its department after it ("University of Sciences, Techniques and Technologies" lists subjects)
    place = _UNIVERSITY_OF.search(parts[start])
    return None if place and not (_discipline_word(place[1]) or _SUBJECT_END.search(place[1])) else start


def _names_subjects_only(part: str) -> bool:
    """"Interaction and AI", "Vision and Learning": subjects' words joined by "and", none a place's."""
    words = [word for word in fold(part).split() if word not in _LIST_AND]
    return bool(words) and len(words) < len(fold(part).split()) and all(
        word in FIELD_WORDS or word in ("ai", "ml") or _SUBJECT_END.search(word) for word in words)


def _list_item(part: str) -> bool:
    """One or a few words of a list of subjects: no organisation word, acronym or country."""
    return (len(part.split()) <= 3 and not words_of(part) & ORGANISATION_WORDS and not is_country(part)
            and not any(map(is_acronym, part.split())))


def _is_note(text: str) -> bool:
    """A bracketed sentence about the author, not a name: most of its three or more words are in
    lower case ("(Work was done prior to joining Foo)", "(on leave from Bar)"); a name's lower-case
    words are its few joining ones ("(University of Science and Technology of China)")."""
    words = text.split()
    return len(words) >= 3 and 2 * sum(word[0].islower() for word in words) > len(words)


def _with_legal_forms(parts: list[str]) -> list[str]:
    """A legal form written as a part of its own ("Foo Co., Ltd.", "Bar, Inc.") is the end of the
    name before it, never an organisation."""
    joined: list[str] = []
    for part in parts:
        match = _TRAILING_BRACKET.match(part)
        if joined and match and is_legal_form(match["name"]):  # "Foo Co., Limited (FOO)"
            joined[-1] = f"{joined[-1]}, {part}"
        elif joined and is_legal_form(part):
            joined[-1] = f"{joined[-1]}, {part}"
        elif not is_legal_form(part):
            joined.append(part)
    return joined


def _with_acronym(first: str, second: str) -> str | None:
    """"ACR - Name" or "Name - ACR" where the acronym fits the name: one name, "Name (ACR)"."""
    for acronym, name in ((first, second), (second, first)):
        if " " not in acronym and is_acronym(acronym) and acronym_fits(acronym, name):
            return f"{name} ({acronym})"
    return None


def _lab_word_before_name(first: str, second: str, aliases: AliasTable) -> bool:
    """"Research, Zorblax": a bare lab word and, after it, a name that is neither an organisation
    the rules know nor a place, so the lab of the company the name is (as "Research, Google" is
    Google Research where the table knows Google)."""
    return (institution_key(first) in GENERIC_UNITS and not is_country(second) and address_city(second) is None
            and not looks_like_organisation(second, aliases) and len(second.split()) <= 3 and second[:1].isupper())


def _name_before_its_lab(first: str, second: str, aliases: AliasTable) -> bool:
    """"Amazon, AWS AI Labs": one word no rule knows, that is no place, before a lab's name (one that
    ends in "Lab", "Labs", "Research" or "AI") that names no institution: the lab is the named
    organisation's, as "Research, Zorblax" is; places are written after what they qualify."""
    return (" " not in first and _lab_word_before_name("Research", first, aliases) and not names_institution(second, aliases)
            and institution_key(second).split()[-1:] in (["lab"], ["labs"], ["research"], ["ai"])
            and len(second.split()) > 1)


def place_shaped(text: str) -> bool:
    """"College Park", "College Station": an organisation word followed by a name, nothing else (not
    an acronym, the lab's: "Laboratoire LISSI")."""
    words, written = institution_key(text).split(), clean(text).split()
    return (len(words) == 2 and starts_with_unit_word(text) and words[1] not in PREPOSITIONS and not is_acronym(text)
            and not _NUMBERED.fullmatch(words[1]) and not is_acronym(written[-1]))


def _town_named_after_university(text: str) -> bool:
    """"University Park", "College Station", "University Heights": a town or district named after its
    university, written after an institution as its place."""
    words = fold(clean(text)).split()  # as written: the key reads "University Park" as "University of Park"
    return len(words) == 2 and words[0] in ("university", "college") and words[1] in _TOWN_WORDS


def _same(first: Level, second: Level, aliases: AliasTable) -> bool:
    a, b = resolve_name(first.name, aliases), resolve_name(second.name, aliases)
    return a.key == b.key or (not (a.canonical and b.canonical) and swapped(a.key) == b.key)


def _ancestors(level: Level, aliases: AliasTable) -> set[str]:
    return {name.key for name in _with_parents((resolve_name(level.name, aliases),), aliases)[1:]}


def split_groups(text: str, aliases: AliasTable) -> list[list[Level]]:
    """Rules 2–5: the levels of each institution an entry names, smallest first."""
    groups: list[list[Level]] = []
    text = _U_OF.sub(" University of ", _LEAD_IN.sub("", _line_breaks_rejoined(_EMAIL.sub("", text))))
    text = _footnotes_as_separators(text)
    for piece in split_institutions(clean(text), aliases):
        piece = _without_placeholders(_without_footnote_number(_DANGLING_AND.sub("", piece)))
        # "---", a place holder, and "Independent Researcher", no affiliation, name no organisation
        if any(map(str.isalnum, piece)) and not states_no_affiliation(piece):
            groups += _piece_groups(_with_country_apart(piece), aliases)
    return groups


def _without_placeholders(piece: str) -> str:
    """The piece less the parts a form's empty field is filled with ("N/A", "Unknown", "Affiliation"):
    "N/A" names nothing, "n/a, Google" Google."""
    parts = split_commas(piece)
    kept = [part for part in parts if institution_key(part) not in _PLACEHOLDER_KEYS]
    return piece if len(kept) == len(parts) else ", ".join(kept)


# A footnote number inside an entry, glued to a name after a space ("… 2Google Research").
_FOOTNOTE_INSIDE = re.compile(r"(?<=\S)\s+(?P<number>\d{1,2})(?=[A-Z])")


def _footnotes_as_separators(text: str) -> str:
    """"1Stanford University 2Google Research": in an entry that a footnote number opens, each number
    after it begins another affiliation, as a ";" would; elsewhere only a number the rules of
    :func:`_without_footnote_number` read as one ("Foo University 2Department of Bar")."""
    opened = _without_footnote_number(text) != text

    def separator(match: re.Match) -> str:
        rest, before = text[match.start("number"):], text[:match.start()].split()[-1]
        if any(map(str.isdigit, before)):  # a postcode's second half: "London WC1E 6BT", "V6T 1Z4"
            return match[0]
        return "; " if opened or _without_footnote_number(rest) != rest else match[0]
    return _FOOTNOTE_INSIDE.sub(separator, text)


def _without_footnote_number(piece: str) -> str:
    """"1Department of Foo", "2CUHK-Zorblax Joint Lab": the footnote number that ties an affiliation
    to its authors on a paper, glued to the name's first word where that word is an organisation's,
    a field's or an acronym in capitals, or any word of a name that a university's or institute's
    word follows ("2Zorblax Institute of …"); a name that begins with a number keeps it
    ("4Paradigm AI Lab", "1QBit", "3M", "3DV Lab", "9Yards Lab")."""
    match = _FOOTNOTE_NUMBER.match(piece)
    if match is None:
        return piece
    word, rest = match["word"], piece[match.end("number"):]
    if word[0] == "D" and word[1:2] != word[1:2].lower() and match["number"] in "234":
        return piece  # "3DV Lab", "4DReplay": dimensions, not a footnote
    # (a word of a name before a university's or institute's word: "2Inception Institute of …")
    named = len(word) > 2 and not word.isupper() and words_of(rest) & (UNIVERSITY_WORDS | _ACADEMIC_WORDS)
    acronym = len(word) > 1 and word.isupper()  # "1CUHK", "1UC Santa Barbara"; not "1QBit"
    return rest if fold(word) in _NAME_WORDS | FIELD_WORDS or acronym or named else piece


def _with_country_apart(piece: str) -> str:
    """"Foo Research Institute in Switzerland.": a sentence's "in" and the country that ends it are
    the address's country, written apart (", Switzerland"); a place that is no country stays in the
    name ("Washington University in St. Louis")."""
    match = _IN_COUNTRY.search(piece)
    return f"{piece[:match.start()]}, {match['country']}" if match and is_country(match["country"]) else piece


def _line_breaks_rejoined(text: str) -> str:
    """Words that text copied from a PDF cut at a line's end ("Kyoto Univer-sity", "Labo-ratory of
    Foo"), whole again where the two pieces make a word of organisations' names; names with a hyphen
    of their own ("Sun Yat-sen", "Lab-STICC", "Baden-Württemberg") make none."""
    return _HYPHENATED.sub(lambda match: match[1] + match[2] if match[2][0].islower()
                           and fold(match[1] + match[2]) in _NAME_WORDS else match[0], text)


def states_no_affiliation(piece: str) -> bool:
    """"Independent Researcher", "Unaffiliated", "Independent", "Self-employed", "None": the author
    has no institution (with a place after it, "Independent Researcher, Berlin", still none)."""
    words = set(institution_key(split_commas(piece)[0]).split())
    return bool(words & _NO_AFFILIATION_WORDS) and words <= _NO_AFFILIATION_WORDS | _NO_AFFILIATION_PERSONS


def _piece_groups(piece: str, aliases: AliasTable) -> list[list[Level]]:
    if is_known(piece, aliases):
        return [[Level(piece)]]
    parts = _without_shortened_names(_parts(piece, aliases))
    if len(parts) == 2 and _lab_word_before_name(*parts, aliases):  # "Research, Zorblax" is Zorblax Research
        parts = [f"{parts[1]} {parts[0]}"]
    if len(parts) == 2 and _name_before_its_lab(*parts, aliases):  # "Zorblax, Zorblax AI Labs"
        return [[Level(parts[1]), Level(parts[0])]]
    if len(parts) > 1 and (units := _two_units(parts[0])):
        return [group for unit in units for group in _parts_groups([unit, *parts[1:]], aliases)]
    return _parts_groups(parts, aliases)


def _two_units(part: str) -> tuple[str, str] | None:
    """"Department of Automation and BNRist", "Dept. of Foo & ASRI", "Key Laboratory of Foo and School
    of Bar": two units joined by "and" or "&" where the one after it begins as a unit does (a unit's
    word, an acronym, an acronym before a unit's name), siblings under what follows; the last such
    "and" first. Not the subjects a unit's name lists ("Department of Electrical and Computer
    Engineering", "Department of Physics and AI", "School of EE and CS")."""
    for match in reversed(list(_UNIT_AND.finditer(part))):
        first, second = part[:match.start()], part[match.end():]
        if words_of(first) & UNIT_WORDS and _begins_unit(second):
            return first, second
    return None


def _begins_unit(name: str) -> bool:
    words = name.split()
    return (starts_with_unit_word(name) and len(words) > 1 and fold(words[1]) in PREPOSITIONS
            or len(words) == 1 and _sibling_acronym(name)
            or len(words) > 1 and _sibling_acronym(words[0]) and bool(words_of(name) & UNIT_WORDS))


def _sibling_acronym(word: str) -> bool:
    """An acronym that can name a unit of its own: three letters or more, no lab's generic word ("AI")."""
    return is_acronym(word) and sum(map(str.isalpha, word)) >= 3 and institution_key(word) not in GENERIC_UNITS


def _parts_groups(parts: list[str], aliases: AliasTable) -> list[list[Level]]:
    """The chains of one affiliation's parts (rules 4–6)."""
    levels: list[Level] = []
    for index, part in enumerate(parts):
        if levels and _sponsor_of_lab(part, levels[-1].name):
            continue
        if levels and not (part := _without_region_code(part, parts[index + 1] if index + 1 < len(parts) else "")):
            continue
        if levels and (is_country(part) or is_unit_number(part) or _town_named_after_university(part)
                       or not (looks_like_organisation(part, aliases) or is_french_research_organisation(part)
                               or _company_shaped(part) or len(levels) == 1
                               and _department_after_university(parts, index, levels[-1], aliases))
                       or (names_place_of_university(part, aliases) and not _academic(levels[-1].name, aliases)
                           and not starts_with_unit_word(levels[-1].name))):
            levels[-1] = Level(levels[-1].name, (*levels[-1].qualifiers, part))
        else:
            levels.append(Level(part))
    levels = [Level(level.name, level.qualifiers, listed=False) if _generic_unit_of_later(levels, index, aliases)
              else level for index, level in enumerate(levels)]
    tutelles = _tutelles(levels, aliases)
    groups: list[list[Level]] = []
    units: list[Level] = []
    for index, level in enumerate(levels):
        # (a state's code right after a unit is no address: "Foo Lab, DC, Bar University" may be a
        # department's "DC"; after a city it is, "Foo Lab, Pittsburgh, PA, Bar Inc.")
        if units and any(is_country(qualifier) and (position or clean(qualifier).strip(".") not in REGION_CODES)
                         for position, qualifier in enumerate(units[-1].qualifiers)):
            # a country ends an address, and so the affiliation: "Foo Institute, Japan, Bar Institute of Technology"
            groups.append(units)
            units = []
        # ", and" before a list's last affiliation begins it: "Foo Lab, Bar Institute, and Baz Centre, Bar Institute"
        begins_affiliation = bool(groups) and not units and level.name.startswith("and ")
        if begins_affiliation:
            level = Level(level.name.removeprefix("and "), level.qualifiers, level.listed)
        # (a web address for a name after an institution is a company; before one, it may be its lab)
        if index in tutelles or (_WEB_NAME.fullmatch(level.name) and groups and not units) or (
                names_institution(level.name, aliases if level.listed else UNLISTED)
                and not _donors_centre_of_later(levels, index, aliases)):
            previous = groups[-1][-1] if groups and not units and not begins_affiliation else None
            if units and institution_key(units[-1].name) in GENERIC_UNITS:  # "Research, Google"
                units[-1] = Level(f"{level.name} {units[-1].name}", units[-1].qualifiers)
            if previous and _same(previous, level, aliases):
                if institution_key(level.name).startswith("university of "):  # the form the table uses
                    groups[-1][-1] = level
                continue
            if previous and (resolve_name(level.name, aliases).key in _ancestors(previous, aliases)
                             or _institute_of_academy(previous, level, aliases)):
                groups[-1].append(level)
            elif previous and resolve_name(previous.name, aliases).key in _ancestors(level, aliases):
                groups[-1][-1:] = [level, previous]
            else:
                groups += _with_siblings_apart(units + [level])
                units = []
        elif groups and not units and not begins_affiliation and not place_shaped(level.name):
            # a unit written after its institution; after a French lab's co-supervisors, the first one's
            groups[0 if tutelles else -1].insert(0, level)
        elif groups and not units and not begins_affiliation:
            last = groups[-1][-1]
            groups[-1][-1] = Level(last.name, (*last.qualifiers, level.name, *level.qualifiers))
        else:
            units.append(level)
    if units:
        groups.append(_unit_words_first(units))
    return groups


def _with_siblings_apart(group: list[Level]) -> list[list[Level]]:
    """"Department of Foo, Department of Bar, Baz University": units of one kind written side by side
    are siblings, each a unit of what follows them (two chains), not one inside the other."""
    if len(group) < 3:
        return [group]
    kind, end = _unit_kind(group[0].name), 1
    while kind and end < len(group) - 1 and _unit_kind(group[end].name) == kind:
        end += 1
    return [[sibling, *above] for sibling in group[:end] for above in _with_siblings_apart(group[end:])]


def _unit_kind(name: str) -> str | None:
    """The kind of unit a name begins with ("Department", "Dept." and "Departamento" alike), if any."""
    words = institution_key(name).split()
    return _UNIT_KINDS.get(words[0]) if words else None


def _department_after_university(parts: list[str], index: int, university: Level, aliases: AliasTable) -> bool:
    """"Michigan State University, Computer Science & Engineering": a discipline's name right after a
    university that the entry names first is its department (not a place), where no organisation
    follows in the entry (after a lab, "CSAIL, Electrical Engineering & Computer Science", after a
    unit, "Robotics Institute, CMU, Computer Science", or before one, "…, Computer Science, Stanford
    AI Lab", it says too little to place)."""
    return (_names_subject(parts[index]) and not university.qualifiers
            and bool(words_of(resolve_name(university.name, aliases).display) & UNIVERSITY_WORDS)
            and not any(looks_like_organisation(later, aliases) and not names_place_of_university(later, aliases)
                        and not is_country(later) for later in parts[index + 1:]))


def _institute_of_academy(institute: Level, academy: Level, aliases: AliasTable) -> bool:
    """"Shenzhen Institute of Advanced Technology, CAS", "Institute of Physics, Polish Academy of
    Sciences": an institute (no university, no academy itself, none the table knows as its own)
    followed by an academy of sciences is one of the academy's institutes."""
    academy_words = words_of(resolve_name(academy.name, aliases).display)
    name = resolve_name(institute.name, aliases)
    institute_words = words_of(name.display)
    return ({"academy", "sciences"} <= academy_words and not academy_words & UNIVERSITY_WORDS  # not UCAS
            and "institute" in institute_words and name.canonical is None
            and not institute_words & (UNIVERSITY_WORDS | {"academy"}))


def _company_shaped(name: str) -> bool:
    """"Zhipu AI", "Megvii Technology", "Zorblax Robotics": one or two capitalised words of a name, then
    a word companies' names end with (no place's does), or a web address ("Contract.fit", "Cyclope.ai"):
    no place but an organisation, a unit of the one before it unless a web address makes it a company
    ("Amazon, Alexa AI" is Amazon's; a research group, "Humanoid Robotics", is too). A field's name is
    no company's ("Artificial Intelligence", "Computer Vision Technology")."""
    words = name.split()
    if len(words) == 1 and _WEB_NAME.fullmatch(name):
        return True
    return (2 <= len(words) <= 3 and fold(words[-1]) in _COMPANY_NAME_ENDS and all(word[0].isupper() for word in words)
            and not words_of(name) & ORGANISATION_WORDS and not _says_no_name(" ".join(words[:-1])))


def _generic_unit_of_later(levels: list[Level], index: int, aliases: AliasTable) -> bool:
    """"AI Institute, University of South Carolina": a name of two generic words (an organisation's, a
    field's: "AI Institute", "Data Center") that the table knows as one organisation, written before a
    university the table does not make its parent: that university's unit of the name, not the
    table's organisation (which is written alone, or before its own parent). A longer name of such
    words is an organisation's own ("Technology Innovation Institute, Khalifa University")."""
    level = levels[index]
    if (index + 1 >= len(levels) or any(map(is_country, level.qualifiers))  # a country ends its affiliation
            or not _says_no_name(level.name) or len(words_of(level.name) - {"the"}) > 2
            or fold(level.name.split()[0]) == "the" or not is_known(level.name, aliases)):  # "The AI Institute": its name
        return False
    university = levels[index + 1].name
    return (_university_shaped(university, aliases)
            and resolve_name(university, aliases).key not in _ancestors(level, aliases))


def _says_no_name(name: str) -> bool:
    """Only words an organisation's kind or a field is named with: no word says which one it is."""
    return all(word in _GENERIC_NAME_WORDS for word in words_of(name))


def _without_region_code(part: str, country: str) -> str:
    """"…, BC, Canada", "…, Canberra ACT, Australia": a province's or state's code before its country
    is an address's, whatever organisation the code also names (Boston College, a lab "ACT"); the
    part less it (nothing where it is alone), or less it and what follows where the country follows it
    in the part ("University of Foo BC Canada V6T 1Z4")."""
    for pattern in _CODE_THEN_COUNTRY:  # "BC Canada V6T 1Z4": address from the code on
        if match := pattern.search(part):
            return part[:match.start()].strip(" ,")
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


def _says_unit(name: str) -> bool:
    """A name with a unit's own word, or a team's ("Xiaomi, XiaoAI Team"), other than a government's
    department. (A team is not a unit wherever it stands: before a '+' it may be an affiliation of
    its own, "Seed Team+Tsinghua University".)"""
    return bool(words_of(name) & (UNIT_ONLY_WORDS | {"team"})) and not _government_department(name)


def _government_department(name: str) -> bool:
    """"US Department of Veterans Affairs", "U.S. Dept. of Energy": a country's name or code before
    "Department" names its government's department, an institution, not a university's unit."""
    words = name.split()
    return any(is_country(" ".join(words[:end])) and fold(words[end]).strip(".") in ("department", "dept")
               for end in range(1, min(len(words), 4)))


def _donors_centre_of_later(levels: list[Level], index: int, aliases: AliasTable) -> bool:
    """"Robert Bosch Centre for Cyber-Physical Systems, IISc": a centre, institute, school or chair "for"
    or "of" a subject, named after a company the table knows (its donor), before another organisation
    (places are no levels): a unit of that organisation, not the company's lab ("Bosch Center for AI"
    alone, or before its city, is the company's)."""
    return index < len(levels) - 1 and _donor(levels[index].name, aliases) is not None


def _donor(name: str, aliases: AliasTable) -> str | None:
    """The company a centre, institute, school or chair "for" or "of" a subject is named after, where
    the table knows it ("Robert Bosch Centre for …" -> Robert Bosch GmbH)."""
    match = _NAMED_UNIT.match(clean(name))
    donor = resolve_name(match["donor"], aliases).canonical if match else None
    return donor if donor and not _academic(donor, aliases) else None


def _without_shortened_names(parts: list[str]) -> list[str]:
    """The parts less those that are an earlier part's name cut before its "of" or "for" ("Max Planck
    Institute for Foo, Max-Planck Institute", "Technical University of Foo, Technical University"):
    the same name shortened, which names nothing new (made a parent, it would put the institution
    under a second root beside its own). A beginning followed by a lab's words names the parent
    ("Zorblax Labs, Zorblax") and stays."""
    kept: list[str] = []
    for part in parts:
        short = institution_key(part).split()
        if not any(_shortens(short, institution_key(earlier).split()) for earlier in kept):
            kept.append(part)
    return kept


def _shortens(short: list[str], full: list[str]) -> bool:
    return 0 < len(short) < len(full) and full[:len(short)] == short and full[len(short)] in PREPOSITIONS


def _tutelles(levels: list[Level], aliases: AliasTable) -> set[int]:
    """The co-supervisors of a French lab, written side by side before it ("Univ. Grenoble Alpes,
    CNRS, Grenoble INP, LJK", "Univ Lyon, INSA Lyon, CNRS, LIRIS, UMR 5205"): in an entry that
    names one of France's public research organisations, a joint research unit's number or a
    French university or school, the institutions, those organisations, and the names with an
    acronym and no unit's word written between the first institution and the lab (the last part
    that is neither). Each is an institution of its own; the lab is a unit of the first. Empty
    where the entry is no such list, or names fewer than two."""
    organisations = {index for index, level in enumerate(levels)
                     if is_french_research_organisation(level.name) or names_institution(level.name, aliases)}
    french = any(is_french_research_organisation(level.name) or any(map(is_unit_number, level.qualifiers))
                 or words_of(level.name) & _FRENCH_UNIVERSITY_WORDS or _FRENCH_UNIV.search(level.name)
                 for level in levels)
    if not french or not organisations:
        return set()
    lab = max((index for index in range(len(levels)) if index not in organisations), default=None)
    first = min(organisations)
    if lab is not None:
        organisations |= {index for index in range(first + 1, lab) if _co_supervisor_shaped(levels[index].name)}
    return organisations if len(organisations) > 1 else set()


def _co_supervisor_shaped(name: str) -> bool:
    """"Grenoble INP", "INSA Lyon", "CentraleSupélec": an acronym and no word of a unit."""
    return (any(is_acronym(word) for word in name.split()) and not starts_with_unit_word(name)
            and not words_of(name) & (ORGANISATION_WORDS - TOP_LEVEL_WORDS))


def _academic(name: str, aliases: AliasTable) -> bool:
    """A university, college, school, academy or institute: a place after it that names another
    university ("MIT, Harvard") is that university; after a company ("Google Research, Princeton")
    it is where the company's lab is."""
    return bool(words_of(resolve_name(name, aliases).display) & (UNIVERSITY_WORDS | _ACADEMIC_WORDS))


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
        chain.append(OrgName(found.written, found.key, found.canonical, found.acronym,
                             f"parent of {top.display}, from {how}"))


def align_chinese(levels: list[str], chinese: str | None) -> list[str | None]:
    """The Chinese name of each level, where the bracketed name can be matched to them.

    Untranslated acronym levels ("ReLER", "CFAR") that the Chinese leaves out are skipped;
    then equal counts pair up, a shorter comma list pairs from the end (the parent is
    always last), and a Chinese name that cannot be cut belongs to the entry as a whole.
    """
    aligned: list[str | None] = [None] * len(levels)
    if not chinese:
        return aligned
    offset = 0
    while offset < len(levels) - 1 and is_acronym(levels[offset]) and levels[offset] not in chinese:
        offset += 1
    pieces = split_commas(chinese) if has_cjk(chinese) else [chinese]
    targets = list(range(offset, len(levels)))
    if len(pieces) > 1 and len(pieces) <= len(targets):
        for index, piece in zip(targets[-len(pieces):], pieces):
            aligned[index] = piece
    else:
        aligned[offset] = chinese
    return aligned


def resolve_entries(name: str, chinese: str | None, aliases: AliasTable) -> list[OrgChain]:
    """Every institution an entry names, each as its chain of units (rules 1–7)."""
    chains: list[OrgChain] = []
    groups = split_groups(name, aliases)
    for group in groups:
        written = tuple(resolve_name(level.name, aliases if level.listed else UNLISTED, level.qualifiers)
                        for level in group)
        levels = _filled(written, aliases)
        aligned = align_chinese([level.name for level in group], chinese) if len(groups) == 1 else [None] * len(group)
        by_level = dict(zip(written, aligned))
        chains.append(OrgChain(levels, tuple(by_level.get(level) for level in levels)))
    keys = [{level.key for level in chain.levels} for chain in chains]
    # "DeepMind/Google": the parent named beside its own unit is not a second institution.
    return [chain for index, chain in enumerate(chains)
            if not any(index != other and keys[index] < keys[other] for other in range(len(chains)))
            and keys[index] not in keys[:index]]


def explain_entry(name: str, aliases: AliasTable) -> str:
    """How an entry resolved, level by level and by which rule: the quality report's "why"."""
    return " ; ".join(" < ".join(f"{level.display} ({level.rule})" for level in chain.levels)
                      for chain in resolve_entries(name, None, aliases))
