"""A piece's comma parts as the names they write: subjects a name lists kept in it, legal forms and
acronyms joined to their name, a unit of an institution written in one part cut in two, a name written
again shortened left out. Each reshaping is a rule of the ``parts`` step (kg.orgs.rules) whose id the
parts it makes carry, and the levels read from them after."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..text.names import fold
from .aliases import AliasTable
from .canonical_names import is_known, looks_like_organisation
from .joined import _same_name
from .keys import institution_key, is_legal_form
from .lexicon import word_list
from .org_names import (
    FIELD_WORDS,
    ORGANISATION_WORDS,
    UNIT_WORDS,
    UNIVERSITY_WORDS,
    acronym_fits,
    address_city,
    is_country,
    is_organisation_acronym,
    is_top_level,
    starts_with_unit_word,
    without_unit_number,
    words_of,
)
from .rules import BY_ID
from .shapes import _UNIT_AND, GENERIC_UNITS, PREPOSITIONS, _discipline_word, names_institution, split_commas
from .tokenizer import _PLACEHOLDER_KEYS

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
_LIST_AND = word_list("list_and")
_LIST_LAST = word_list("list_last")
_SUBJECT_ABBREVIATIONS = word_list("subject_abbreviation")
_LAB_NAME_ENDS = word_list("lab_name_end")
# How a subject's name ends, English or Romance ("Bioengineering", "Bioingegneria", "Robótica"), so a
# list goes on through it: a place's or company's name ("Stanford", "Google") ends no subject's way.
_SUBJECT_END = re.compile(r"(?:ics|logy|istry|ing|ion|ence|ia|ía|ica|ique|ie|ção|ción|zione)$", re.IGNORECASE)
# A ministry, and the labs a ministry funds: see _sponsor_of_lab.
_MINISTRY = re.compile(r"(?:the\s+)?Ministry\s+of\s+\S|MoE$", re.IGNORECASE)  # "MOE": China's, of Education
_OF = re.compile(r"\s+of\s+(?:the\s+)?")
_OF_WORDS = word_list("of")
_DIRECTIONS = word_list("direction")
# Footnote marks that tie an affiliation to its authors on a paper ("Dept. of Psychology‡"), card
# suits and stars as ACL papers use them ("Charles University♠") among them.
FOOTNOTE_MARKS = " *∗⋆†‡§¶‖¹²³⁴⁵⁶⁷⁸⁹⁰♠♡♢♣♤♥♦♧★☆◇◆⋄"


@dataclass(frozen=True, slots=True)
class Part:
    """One name of a piece, as written, with the ids of the rules that reshaped it."""

    text: str
    rules: tuple[str, ...] = ()

    def noted(self, rule: str | None) -> Part:
        """The part with one more rule that shaped it (none: the part as it is).

        >>> Part("Dept. of CS").noted("new-level"), Part("CSAIL").noted(None)
        (Part(text='Dept. of CS', rules=('new-level',)), Part(text='CSAIL', rules=()))
        """
        return replace(self, rules=(*self.rules, BY_ID[rule].id)) if rule else self


def _joined(parts: list[Part], separator: str, rule: str) -> Part:
    """Consecutive parts as one name, by the rule that joins them."""
    return Part(separator.join(part.text for part in parts), tuple(r for part in parts for r in part.rules)).noted(rule)


def _each(parts: list[Part], reshape: Callable[[str, int], tuple[str | None, list[str]]]) -> list[Part]:
    """Each part reshaped on its own into the pieces it writes: (the rule that applied or None, pieces)."""
    out: list[Part] = []
    for index, part in enumerate(parts):
        rule, pieces = reshape(part.text, index)
        out += [Part(piece, part.rules).noted(rule) for piece in pieces]
    return out


def _parts(text: str, aliases: AliasTable) -> list[Part]:
    """Comma and dash parts, a known tail kept whole, a bracketed parent or place as a part."""
    commas = _with_known_tail(
        _with_subject_lists(_with_directions_joined(list(map(Part, split_commas(text))))), aliases
    )
    later = [part.text for part in commas]
    commas = _each(commas, lambda part, index: _unit_of_institution(part, later[index + 1 :], aliases))
    parts = _each(
        _each(commas, lambda part, _: _dash_pieces(part, aliases)), lambda part, _: _bracket_parts(part, aliases)
    )
    kept: list[Part] = []
    for part in parts:
        if institution_key(part.text) not in _PLACEHOLDER_KEYS:  # "Foo (N/A)"
            kept.append(replace(part, text=without_unit_number(part.text.strip(FOOTNOTE_MARKS))))
        elif kept:
            kept[-1] = kept[-1].noted("placeholder-left-out")
    return _with_legal_forms(kept)


def _with_known_tail(commas: list[Part], aliases: AliasTable) -> list[Part]:
    """The parts from the first that begins a name the table knows whole, commas and all, as one."""
    for start in range(1, len(commas)):
        if is_known(", ".join(part.text for part in commas[start:]), aliases):
            return [*commas[:start], _joined(commas[start:], ", ", "known-tail")]
    return commas


def _dash_pieces(part: str, aliases: AliasTable) -> tuple[str | None, list[str]]:
    """A comma part cut at its spaced dashes, but an acronym and its name ("IRD - Institute of Research for
    …") and one word before a name ("Technion - Israel Institute of Technology", "Mila - …") stay one."""
    pieces = [part] if is_known(part, aliases) else _SPACED_DASH.split(part)
    if len(pieces) == 2 and (named := _with_acronym(*pieces)):
        return "acronym-beside-its-name", [named]
    if len(pieces) == 2 and " " not in pieces[0]:
        return None, [part]
    return ("cut-at-spaced-dash" if len(pieces) > 1 else None), pieces


def _bracket_parts(piece: str, aliases: AliasTable) -> tuple[str | None, list[str]]:
    """A name with a bracket after it: less a note in it, or the name and a parent or place in it (not
    the name's own acronym)."""
    match = _TRAILING_BRACKET.match(piece)
    inner = match["inner"] if match else ""
    if match and _is_note(inner):
        return "bracketed-note-left-out", [match["name"]]
    if (
        match
        and not acronym_fits(inner, match["name"])
        and (is_known(inner, aliases) or not looks_like_organisation(inner, aliases))
    ):
        return "bracketed-parent-or-place", [match["name"], inner]
    return None, [piece]


def _with_directions_joined(parts: list[Part]) -> list[Part]:
    """ "University of Western, Australia", "University of Southern, California": a name does not end
    with "of" a compass point's adjective, so the comma after one (a list's, where a PDF's line broke)
    is inside the name ("Case Western, Cleveland" and "Universidad Central, Venezuela" end there)."""
    joined: list[Part] = []
    for part in parts:
        words = joined[-1].text.split() if joined else []
        if len(words) > 2 and fold(words[-1]) in _DIRECTIONS and words[-2] in _OF_WORDS and part.text[:1].isupper():
            joined[-1] = _joined([joined[-1], part], " ", "direction-joined")
        else:
            joined.append(part)
    return joined


def _unit_of_institution(part: str, later: list[str], aliases: AliasTable) -> tuple[str | None, list[str]]:
    """ "School of Computer Science of Wuhan University", "Academy of Mathematics and Systems Science of
    the Chinese Academy of Sciences", "Weaving Lab of Zorblax Inc.": a unit (a name with an organisation
    word, none a university's), "of", and the institution it belongs to (the last "of" first) are two
    parts, the unit first; written as the table knows the pair ("Unit, Institution"), one. Not a
    university's own name ("University of Science and Technology of China"), nor where a field's word
    follows the "of" ("Chinese Academy of Sciences Institute of Computing Technology"), nor a ministry after a
    lab ("Key Laboratory of Foo of the Ministry of Education", the lab's sponsor), nor where the
    entry names the institution again after it: there the "of" is in the unit's own name ("Key Lab
    of Foo of Chinese Academy of Sciences (CAS), Institute of Computing Technology, CAS")."""
    if is_known(part, aliases):
        return None, [part]
    for match in reversed(list(_OF.finditer(part))):
        unit, institution = part[: match.start()], part[match.end() :]
        if (
            not words_of(unit) & ORGANISATION_WORDS
            or words_of(unit) & UNIVERSITY_WORDS
            or is_top_level(unit)
            or fold(institution.split()[0]) in FIELD_WORDS  # "Chinese Academy of Sciences Institute of …"
            or _MINISTRY.match(institution)
            or _joint(institution, aliases)  # "Broad Institute of MIT and Harvard"
            or not names_institution(institution, aliases)
        ):
            continue
        if any(_same_name(institution, other, aliases) for other in later):
            return None, [part]
        joined = f"{unit}, {institution}"
        return "unit-of-institution", [joined] if is_known(joined, aliases) else [unit, institution]
    return None, [part]


def _joint(name: str, aliases: AliasTable) -> bool:
    """ "MIT and Harvard": institutions joined by "and", of which the name before them is a joint unit."""
    pieces = _UNIT_AND.split(name)
    return len(pieces) > 1 and all(names_institution(piece, aliases) for piece in pieces)


def _with_subject_lists(parts: list[Part]) -> list[Part]:
    """Commas that list a name's subjects ("Institute for Logic, Language and Computation", "School
    of Electronics, Electrical Engineering and Computer Science"): a part with no organisation word
    that ends the list with "and" ("e", "y", "et", "und"), after a part whose "of"/"for"/"di"/"de"
    begins it and any subjects' names between ("Dipartimento di Informatica, Bioingegneria, Robotica
    e Ingegneria dei Sistemi (DIBRIS)"), is the rest of that name.
    A country ("…, Trinidad and Tobago") is no subject. Written before the organisation word, the
    list ends with a part that begins with "and" ("Mechanical, Materials, and Aerospace Engineering
    Department"): the parts before it with no organisation word are the beginning of its name."""
    joined: list[Part] = []
    for part in parts:
        text, texts = part.text, [earlier.text for earlier in joined]
        name = _TRAILING_BRACKET.match(text)
        words = set(fold(text).split()) | set(fold(name["name"]).split() if name else ())
        start = _list_start(texts, _names_subjects_only(name["name"] if name else text))
        if (
            start is not None
            and _LIST_AND & words
            and not is_country(text)
            and not words_of(name["name"] if name else text) & ORGANISATION_WORDS
        ):
            joined[start:] = [_joined([*joined[start:], part], ", ", "subjects-listed")]
        elif text.split()[0] in _LIST_LAST and joined and _list_item(texts[-1]):
            start = len(joined) - 1
            while start > 0 and _list_item(texts[start - 1]):
                start -= 1
            joined[start:] = [_joined([*joined[start:], part], ", ", "subjects-listed-before-name")]
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
    if start < 0 or not (
        _SUBJECT_LIST.search(parts[start]) or subjects_next and _SUBJECT_LIST_TWO.search(parts[start])
    ):
        return None
    # a university named after its place ends there: "University of Oxford, Mathematics and Statistics"
    # is its department after it ("University of Sciences, Techniques and Technologies" lists subjects)
    place = _UNIVERSITY_OF.search(parts[start])
    return None if place and not (_discipline_word(place[1]) or _SUBJECT_END.search(place[1])) else start


def _names_subjects_only(part: str) -> bool:
    """ "Interaction and AI", "Vision and Learning": subjects' words joined by "and", none a place's."""
    words = [word for word in fold(part).split() if word not in _LIST_AND]
    return (
        bool(words)
        and len(words) < len(fold(part).split())
        and all(word in FIELD_WORDS or word in _SUBJECT_ABBREVIATIONS or _SUBJECT_END.search(word) for word in words)
    )


def _list_item(part: str) -> bool:
    """One or a few words of a list of subjects: no organisation word, acronym or country."""
    return (
        len(part.split()) <= 3
        and not words_of(part) & ORGANISATION_WORDS
        and not is_country(part)
        and not any(map(is_organisation_acronym, part.split()))
    )


def _is_note(text: str) -> bool:
    """A bracketed sentence about the author, not a name: most of its three or more words are in
    lower case ("(Work was done prior to joining Foo)", "(on leave from Bar)"); a name's lower-case
    words are its few joining ones ("(University of Science and Technology of China)")."""
    words = text.split()
    return len(words) >= 3 and 2 * sum(word[0].islower() for word in words) > len(words)


def _with_legal_forms(parts: list[Part]) -> list[Part]:
    """A legal form written as a part of its own ("Foo Co., Ltd.", "Bar, Inc.") is the end of the
    name before it, never an organisation."""
    joined: list[Part] = []
    for part in parts:
        match = _TRAILING_BRACKET.match(part.text)
        if joined and (is_legal_form(part.text) or match and is_legal_form(match["name"])):  # "Foo Co., Limited (FOO)"
            joined[-1] = _joined([joined[-1], part], ", ", "legal-form-joined")
        elif not is_legal_form(part.text):
            joined.append(part)
    return joined


def _with_acronym(first: str, second: str) -> str | None:
    """ "ACR - Name" or "Name - ACR" where the acronym fits the name: one name, "Name (ACR)"."""
    for acronym, name in ((first, second), (second, first)):
        if " " not in acronym and is_organisation_acronym(acronym) and acronym_fits(acronym, name):
            return f"{name} ({acronym})"
    return None


def _lab_word_before_name(first: str, second: str, aliases: AliasTable) -> bool:
    """ "Research, Zorblax": a bare lab word and, after it, a name that is neither an organisation
    the rules know nor a place, so the lab of the company the name is (as "Research, Google" is
    Google Research where the table knows Google)."""
    return (
        institution_key(first) in GENERIC_UNITS
        and not is_country(second)
        and address_city(second) is None
        and not looks_like_organisation(second, aliases)
        and len(second.split()) <= 3
        and second[:1].isupper()
    )


def _name_before_its_lab(first: str, second: str, aliases: AliasTable) -> bool:
    """ "Amazon, AWS AI Labs": one word no rule knows, that is no place, before a lab's name (one that
    ends in "Lab", "Labs", "Research" or "AI") that names no institution: the lab is the named
    organisation's, as "Research, Zorblax" is; places are written after what they qualify."""
    return (
        " " not in first
        and _lab_word_before_name("Research", first, aliases)
        and not names_institution(second, aliases)
        and any(word in _LAB_NAME_ENDS for word in institution_key(second).split()[-1:])
        and len(second.split()) > 1
    )


def _two_units(part: str) -> tuple[str, str] | None:
    """ "Department of Automation and BNRist", "Dept. of Foo & ASRI", "Key Laboratory of Foo and School
    of Bar": two units joined by "and" or "&" where the one after it begins as a unit does (a unit's
    word, an acronym, an acronym before a unit's name), siblings under what follows; the last such
    "and" first. Not the subjects a unit's name lists ("Department of Electrical and Computer
    Engineering", "Department of Physics and AI", "School of EE and CS")."""
    for match in reversed(list(_UNIT_AND.finditer(part))):
        first, second = part[: match.start()], part[match.end() :]
        if words_of(first) & UNIT_WORDS and _begins_unit(second):
            return first, second
    return None


def _begins_unit(name: str) -> bool:
    words = name.split()
    return (
        starts_with_unit_word(name)
        and len(words) > 1
        and fold(words[1]) in PREPOSITIONS
        or len(words) == 1
        and _sibling_acronym(name)
        or len(words) > 1
        and _sibling_acronym(words[0])
        and bool(words_of(name) & UNIT_WORDS)
    )


def _sibling_acronym(word: str) -> bool:
    """An acronym that can name a unit of its own: three letters or more, no lab's generic word ("AI")."""
    return (
        is_organisation_acronym(word)
        and sum(map(str.isalpha, word)) >= 3
        and institution_key(word) not in GENERIC_UNITS
    )


def _without_shortened_names(parts: list[Part]) -> list[Part]:
    """The parts less those that are an earlier part's name cut before its "of" or "for" ("Max Planck
    Institute for Foo, Max-Planck Institute", "Technical University of Foo, Technical University"):
    the same name shortened, which names nothing new (made a parent, it would put the institution
    under a second root beside its own). A beginning followed by a lab's words names the parent
    ("Zorblax Labs, Zorblax") and stays."""
    kept: list[Part] = []
    for part in parts:
        short = institution_key(part.text).split()
        full = next(
            (index for index, earlier in enumerate(kept) if _shortens(short, institution_key(earlier.text).split())),
            None,
        )
        if full is None:
            kept.append(part)
        else:
            kept[full] = kept[full].noted("shortened-name-left-out")
    return kept


def _shortens(short: list[str], full: list[str]) -> bool:
    return 0 < len(short) < len(full) and full[: len(short)] == short and full[len(short)] in PREPOSITIONS
