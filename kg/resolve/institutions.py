"""Institution entries -> organisations: canonical names, units of parents, English/Chinese labels.

Rules, in the order they apply to one entry of a listing's institution field:

1. ``English（中文）``: the bracketed part is a second name of the same entry (``@zh`` when it
   is Chinese); the listing reader already splits it off.
2. A trailing acronym in brackets that fits the name ("Munich Center for Machine Learning
   (MCML)") is an alternative name, not part of the name.
3. The whole entry is looked up in the alias table first; a known name is never split, so
   "University of California, Berkeley" and "Agency for Science, Technology and Research,
   Singapore" stay whole.
4. Otherwise the entry is cut at commas (outside brackets) into units, smallest first:
   the longest tail the alias table knows becomes the parent; any other part becomes a
   level of its own only if it looks like an organisation (an organisation word such as
   University, Department, Lab, Center; an acronym such as CITEC or LMU; or a name the
   table knows). Everything else (places such as "Berkeley", "Singapore", "Japan", list
   fragments such as "Technology and Research") stays with the part before it. If the
   first part is a university and the last begins with a unit word ("Zhejiang University,
   College of …"), the order is reversed.
5. Each level resolves to a canonical name through the table (after the key rules of
   :mod:`.keys`, then without a trailing country, then in swapped word order when the
   table knows the swapped form and not the written one); unknown names keep their key.
6. Units get IRIs under their parent's (``institution/{parent}--{unit}``): "Department of
   Mathematics" is a different unit at every university.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..ingest.names import clean, fold, has_cjk
from .aliases import AliasTable
from .keys import institution_key, swapped

ORGANISATION_WORDS = frozenset(
    "university universitat universität universite université universidad universidade universita università "
    "college institute institut instituto school faculty department dept laboratory laboratories lab labs "
    "center centre centro academy agency hospital foundation council corporation corp inc ltd llc gmbh "
    "company division program programme unit clinic ministry polytechnic politecnico ecole école observatory".split()
)
TOP_LEVEL_WORDS = frozenset("university universitat universität université universidad company corporation inc ltd gmbh".split())
UNIT_WORDS = frozenset("department dept school faculty college lab laboratory institute center centre division group chair program".split())
# Upper-case words that are places, not organisations' acronyms.
PLACE_CODES = frozenset(
    "USA US UK UAE PRC ROC EU AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV "
    "NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC".split()
)
# Trailing countries that qualify a name ("…, Japan") and may be left out when looking it up.
COUNTRIES = (
    "germany", "japan", "china", "p r china", "singapore", "usa", "us", "uk", "united states", "united kingdom",
    "france", "canada", "korea", "south korea", "switzerland", "italy", "spain", "netherlands", "israel", "india",
    "australia", "austria", "sweden", "denmark", "norway", "finland", "belgium", "taiwan", "poland", "portugal",
    "ireland", "brazil", "czech republic",
)
_ACRONYM_IN_BRACKETS = re.compile(r"^(?P<name>.+?)\s*\((?P<acronym>[A-Z][A-Za-z0-9&*\-]{1,11})\)$")
_ACRONYM_PIECE = re.compile(r"^[A-Za-z0-9&*]*[A-Z][A-Za-z0-9&*]*[A-Z][A-Za-z0-9&*]*$")
# Surnames with an inner capital are not acronyms: McAllister, MacLeod, DeMarco, O'Neil.
_SURNAME_PREFIX = re.compile(r"^(?:Mc|Mac|De|Di|Da|La|Le|Van|Von|O'|D')[A-Z][a-z]+$")


def is_acronym(word: str) -> bool:
    """Two capitals in one hyphen-free piece (CITEC, ReLER, VIA-SD, A*STAR), not a place code or a
    hyphenated given name ("Tae-Kyun")."""
    word = word.strip("(),.")
    if word in PLACE_CODES or _SURNAME_PREFIX.match(word):
        return False
    return any(_ACRONYM_PIECE.match(piece) for piece in word.split("-"))


@dataclass(frozen=True, slots=True)
class OrgName:
    """One level of an institution entry: as written, its identity key, its canonical name."""

    written: str
    key: str
    canonical: str | None = None
    acronym: str | None = None

    @property
    def display(self) -> str:
        return self.canonical or self.written


@dataclass(frozen=True, slots=True)
class OrgChain:
    """An entry resolved: levels from the entry itself (first) to its top-level parent (last),
    with the Chinese name of each level where the bracketed name could be aligned."""

    levels: tuple[OrgName, ...]
    chinese: tuple[str | None, ...]


def resolve_name(text: str, aliases: AliasTable) -> OrgName:
    """One organisation name -> its key and canonical name (rules 2 and 5)."""
    written = clean(text)
    name, acronym = written, None
    if (match := _ACRONYM_IN_BRACKETS.match(written)) and _fits(match["acronym"], match["name"]):
        name, acronym = match["name"], match["acronym"]
    key = institution_key(name)
    for candidate in _lookups(key):
        if (canonical := aliases.canonical(candidate)) is not None:
            return OrgName(name, institution_key(canonical), canonical, acronym)
    turned = swapped(key)
    if turned and turned in aliases.canonical_keys and key not in aliases:
        canonical = aliases.canonical(turned)
        return OrgName(name, institution_key(canonical), canonical, acronym)
    return OrgName(name, key, None, acronym)


def _lookups(key: str) -> list[str]:
    """The key, then the key without a trailing country ("…, Japan")."""
    keys = [key]
    for country in COUNTRIES:
        if key.endswith(" " + country) and len(key) > len(country) + 1:
            keys.append(key[: -len(country) - 1])
    return keys


def _fits(acronym: str, name: str) -> bool:
    """An acronym fits a name when its letters are initials of the name's words, in order."""
    initials = "".join(word[0] for word in re.findall(r"[A-Za-z]+", name)).upper()
    letters = [ch for ch in acronym.upper() if ch.isalpha()]
    position = 0
    for letter in letters:
        position = initials.find(letter, position) + 1
        if position == 0:
            return False
    return len(letters) >= 2


def is_known(text: str, aliases: AliasTable) -> bool:
    return resolve_name(text, aliases).canonical is not None


def looks_like_organisation(text: str, aliases: AliasTable) -> bool:
    """An organisation word, an acronym (not a place code), or a name the alias table knows."""
    words = clean(text).split()
    if {fold(word).strip(".,()") for word in words} & {fold(w) for w in ORGANISATION_WORDS}:
        return True
    if any(is_acronym(word) for word in words):
        return True
    return is_known(text, aliases)


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


def split_units(text: str, aliases: AliasTable) -> list[str]:
    """Rule 3 and 4: an entry's levels, smallest first."""
    if is_known(text, aliases):
        return [clean(text)]
    parts = split_commas(clean(text))
    tail: list[str] = []
    for start in range(1, len(parts)):
        suffix = ", ".join(parts[start:])
        if is_known(suffix, aliases):
            parts, tail = parts[:start], [suffix]
            break
    levels: list[str] = []
    for part in parts:
        if levels and not looks_like_organisation(part, aliases):
            levels[-1] = f"{levels[-1]}, {part}"
        else:
            levels.append(part)
    levels += tail
    if len(levels) > 1 and _is_top_level(levels[0]) and _starts_with_unit_word(levels[-1]):
        levels.reverse()
    return levels


def _is_top_level(text: str) -> bool:
    words = {fold(word) for word in text.split()}
    return bool(words & {fold(w) for w in TOP_LEVEL_WORDS}) and not words & UNIT_WORDS


def _starts_with_unit_word(text: str) -> bool:
    first = fold(text.split()[0]) if text.split() else ""
    return first in UNIT_WORDS


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


def resolve_entry(name: str, chinese: str | None, aliases: AliasTable) -> OrgChain:
    levels = split_units(name, aliases)
    return OrgChain(tuple(resolve_name(level, aliases) for level in levels), tuple(align_chinese(levels, chinese)))
