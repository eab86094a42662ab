"""The tokenizer of the organisation parser: an entry cleaned (e-mails, footnotes, placeholders, lead-in
sentences, words cut at line breaks) and cut into one piece per institution at ";", "+", "/", "&",
"and" and where two names run together."""

from __future__ import annotations

import re

from ..text.names import fold, has_cjk
from .aliases import AliasTable
from .canonical_names import is_known
from .joined import (
    KIND_WORDS,
    _awaits_institution,
    _ends_name,
    _first_name,
    _last_name,
    _school_of,
    run_together,
)
from .keys import institution_key
from .lexicon import word_list
from .org_names import (
    FIELD_WORDS,
    ORGANISATION_WORDS,
    TOP_LEVEL_WORDS,
    UNIT_WORDS,
    UNIVERSITY_WORDS,
    is_country,
    is_organisation_acronym,
    is_top_level,
    words_of,
)
from .shapes import (
    _ACADEMIC_WORDS,
    _acronym_and_place,
    _discipline_word,
    _names_subject,
    _organisation_alone,
    names_institution,
    split_commas,
)

# "A; B" always names two institutions; "A+B" (how aggregators join one author's affiliations, and
# some also a comma) by the rules of :func:`plus_groups`; the others only when the names on both
# sides of them are institutions.
_SEMICOLON = re.compile(r"\s*;\s*")
# The "+" between them is glued, spaced or half spaced ("A+B", "A + B", "A+ B"); a "+" beside another
# is a name's own ("C++ Lab").
_PLUS = re.compile(r"(?<=[^\s+])(\s*\+\s*)(?=[^\s+])")
_SEPARATORS = (re.compile(r"\s*\|\s*"), re.compile(r"\s*/\s*"), re.compile(r"\s+&\s+"), re.compile(r"\s+and\s+"))
# Words that say an author has no institution, and the words for the author beside them.
_NO_AFFILIATION_WORDS = word_list("no_affiliation")
# What a form's empty field is filled with ("N/A", "Unknown", "null", its own label "Affiliation").
_PLACEHOLDER_KEYS = word_list("placeholder")
# A footnote's number glued to the name it marks ("1Department of …"): see _without_footnote_number.
_FOOTNOTE_NUMBER = re.compile(r"(?P<number>\d{1,2})(?P<word>[A-Z][A-Za-z]*)")
_NO_AFFILIATION_PERSONS = word_list("no_affiliation_person")
_SLASH, _AMPERSAND = _SEPARATORS[1], _SEPARATORS[2]
_IN_COUNTRY = re.compile(r"\s+in\s+(?P<country>[^,.]+)\.?$")
# Two pieces of letters joined by one hyphen (and the space where the line broke), a word of their own
# ("Univer-sity", "Univer- sity"), and the words of organisations' names such pieces may make again.
_HYPHENATED = re.compile(r"(?<![\w-])([^\W\d_]+)- ?([^\W\d_]+)(?![\w-])")
_NAME_WORDS = ORGANISATION_WORDS | UNIT_WORDS | KIND_WORDS


def cut_entry(text: str, aliases: AliasTable) -> list[tuple[str, tuple[str, ...]]]:
    """Rule 3: the pieces of an entry that names several institutions at once, each with the ids of
    the cuts (kg.orgs.rules, step "entry") that made it.

    >>> from kg.orgs.aliases import active_aliases
    >>> cut_entry("Tsinghua University; Microsoft Research Asia", active_aliases())
    [('Tsinghua University', ('cut-at-semicolon',)), ('Microsoft Research Asia', ('cut-at-semicolon',))]
    >>> cut_entry("DeepMind/Google", active_aliases())
    [('DeepMind', ('cut-at-separator',)), ('Google', ('cut-at-separator',))]
    >>> cut_entry("Texas A & M University", active_aliases())
    [('Texas A & M University', ())]
    """
    pieces, cut = [piece for piece in _SEMICOLON.split(text) if piece.strip()], "cut-at-semicolon"
    if len(pieces) == 1:
        pieces, cut = plus_groups(text, aliases), "cut-at-plus"
    if len(pieces) == 1:  # '+' written for a comma is one now: "Foo Co., Ltd."
        text = pieces[0]
        pieces, cut = run_together(text, aliases), "cut-names-run-together"
    if len(pieces) > 1:
        return [(part, (cut, *cuts)) for piece in pieces for part, cuts in cut_entry(piece, aliases)]
    if is_known(text, aliases):
        return [(text, ())]
    pieces = _at_separator(text, aliases) or []
    cut = "cut-at-separator"
    return [(part, (cut, *cuts)) for piece in pieces for part, cuts in cut_entry(piece, aliases)] or [(text, ())]


def _at_separator(text: str, aliases: AliasTable) -> list[str] | None:
    """The pieces of the text at the first separator that has an institution's name on each side."""
    for separator in _SEPARATORS:
        pieces = [piece for piece in separator.split(text) if piece]
        # the name before a separator ends it, the one after begins the next: "X, Chalmers … and University of …"
        if len(pieces) > 1 and all(
            _names_two(separator, (last := _last_name(before, aliases)), _first_name(after, last, aliases), aliases)
            for before, after in zip(pieces, pieces[1:])
        ):
            return pieces
    return None


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
        return all(_organisation_alone(name, aliases) for name in (first, second)) and any(
            names_institution(name, aliases) or is_organisation_acronym(name) for name in (first, second)
        )
    return separator is _AMPERSAND and _lab_and_university(first, second, aliases)


def _lab_and_university(first: str, second: str, aliases: AliasTable) -> bool:
    """A lab's name of capitalised words, no top-level word, then a university ("Google Brain Robotics
    & Columbia University")."""
    words = first.split()
    return (
        len(words) >= 2
        and all(word[0].isupper() and len(word) > 1 for word in words)
        and not words_of(first) & TOP_LEVEL_WORDS
        and is_top_level(second)
        and bool(words_of(second) & UNIVERSITY_WORDS or is_known(second, aliases))
    )


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
    University+Bar AI", "University of Pennsylvania+Amazon"); a leading "and" is the comma list's.

    >>> from kg.orgs.aliases import active_aliases
    >>> plus_groups("Zorblax Group + University at Buffalo", active_aliases())
    ['Zorblax Group', 'University at Buffalo']
    >>> plus_groups("School of Computer Science+Fudan University", active_aliases())
    ['School of Computer Science, Fudan University']
    >>> plus_groups("University of California+Santa Barbara", active_aliases())
    ['University of California, Santa Barbara']
    """
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
    return (
        bool(before.split())
        and _discipline_word(before.split()[-1])
        and not is_top_level(before)
        and _names_subject(after)
    )


def _without_placeholders(piece: str) -> str:
    """The piece less the parts a form's empty field is filled with ("N/A", "Unknown", "Affiliation"):
    "N/A" names nothing, "n/a, Google" Google."""
    parts = split_commas(piece)
    kept = [part for part in parts if institution_key(part) not in _PLACEHOLDER_KEYS]
    return piece if len(kept) == len(parts) else ", ".join(kept)


# A footnote number inside an entry, glued to a name after a space ("… 2Google Research").
_FOOTNOTE_INSIDE = re.compile(r"(?<=\S)\s+(?P<number>\d{1,2})(?=[A-Z])")


def _footnotes_as_separators(text: str) -> str:
    """ "1Stanford University 2Google Research": in an entry that a footnote number opens, each number
    after it begins another affiliation, as a ";" would; elsewhere only a number the rules of
    :func:`_without_footnote_number` read as one ("Foo University 2Department of Bar")."""
    opened = _without_footnote_number(text) != text

    def separator(match: re.Match) -> str:
        rest, before = text[match.start("number") :], text[: match.start()].split()[-1]
        if any(map(str.isdigit, before)):  # a postcode's second half: "London WC1E 6BT", "V6T 1Z4"
            return match[0]
        return "; " if opened or _without_footnote_number(rest) != rest else match[0]

    return _FOOTNOTE_INSIDE.sub(separator, text)


def _without_footnote_number(piece: str) -> str:
    """ "1Department of Foo", "2CUHK-Zorblax Joint Lab": the footnote number that ties an affiliation
    to its authors on a paper, glued to the name's first word where that word is an organisation's,
    a field's or an acronym in capitals, or any word of a name that a university's or institute's
    word follows ("2Zorblax Institute of …"); a name that begins with a number keeps it
    ("4Paradigm AI Lab", "1QBit", "3M", "3DV Lab", "9Yards Lab")."""
    match = _FOOTNOTE_NUMBER.match(piece)
    if match is None:
        return piece
    word, rest = match["word"], piece[match.end("number") :]
    if word[0] == "D" and word[1:2] != word[1:2].lower() and match["number"] in "234":
        return piece  # "3DV Lab", "4DReplay": dimensions, not a footnote
    # (a word of a name before a university's or institute's word: "2Inception Institute of …")
    named = len(word) > 2 and not word.isupper() and words_of(rest) & (UNIVERSITY_WORDS | _ACADEMIC_WORDS)
    acronym = len(word) > 1 and word.isupper()  # "1CUHK", "1UC Santa Barbara"; not "1QBit"
    return rest if fold(word) in _NAME_WORDS | FIELD_WORDS or acronym or named else piece


def _with_country_apart(piece: str) -> str:
    """ "Foo Research Institute in Switzerland.": a sentence's "in" and the country that ends it are
    the address's country, written apart (", Switzerland"); a place that is no country stays in the
    name ("Washington University in St. Louis")."""
    match = _IN_COUNTRY.search(piece)
    return f"{piece[: match.start()]}, {match['country']}" if match and is_country(match["country"]) else piece


def _line_breaks_rejoined(text: str) -> str:
    """Words that text copied from a PDF cut at a line's end ("Kyoto Univer-sity", "Labo-ratory of
    Foo"), whole again where the two pieces make a word of organisations' names; names with a hyphen
    of their own ("Sun Yat-sen", "Lab-STICC", "Baden-Württemberg") make none."""
    return _HYPHENATED.sub(
        lambda match: (
            match[1] + match[2] if match[2][0].islower() and fold(match[1] + match[2]) in _NAME_WORDS else match[0]
        ),
        text,
    )


def states_no_affiliation(piece: str) -> bool:
    """ "Independent Researcher", "Unaffiliated", "Independent", "Self-employed", "None": the author
    has no institution (with a place after it, "Independent Researcher, Berlin", still none).

    >>> states_no_affiliation("Independent Researcher, Berlin"), states_no_affiliation("Unaffiliated")
    (True, True)
    >>> states_no_affiliation("Independent University, Bangladesh")
    False
    """
    words = set(institution_key(split_commas(piece)[0]).split())
    return bool(words & _NO_AFFILIATION_WORDS) and words <= _NO_AFFILIATION_WORDS | _NO_AFFILIATION_PERSONS


def align_chinese(levels: list[str], chinese: str | None) -> list[str | None]:
    """The Chinese name of each level, where the bracketed name can be matched to them.

    Untranslated acronym levels ("ReLER", "CFAR") that the Chinese leaves out are skipped;
    then equal counts pair up, a shorter comma list pairs from the end (the parent is
    always last), and a Chinese name that cannot be cut belongs to the entry as a whole.

    >>> align_chinese(["Department of Computer Science", "Tsinghua University"], "计算机系，清华大学")
    ['计算机系', '清华大学']
    >>> align_chinese(["ReLER", "AAII", "University of Technology Sydney"], "悉尼科技大学")
    [None, None, '悉尼科技大学']
    """
    aligned: list[str | None] = [None] * len(levels)
    if not chinese:
        return aligned
    offset = 0
    while offset < len(levels) - 1 and is_organisation_acronym(levels[offset]) and levels[offset] not in chinese:
        offset += 1
    pieces = split_commas(chinese) if has_cjk(chinese) else [chinese]
    targets = list(range(offset, len(levels)))
    if len(pieces) > 1 and len(pieces) <= len(targets):
        for index, piece in zip(targets[-len(pieces) :], pieces):
            aligned[index] = piece
    else:
        aligned[offset] = chinese
    return aligned
