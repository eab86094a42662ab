"""Institution entries -> organisations: one chain of units per institution the entry names.

Rules, in the order they apply to one entry of a listing's institution field (the names
themselves resolve by :mod:`.org_names`):

1. ``English（中文）``: the bracketed part is a second name of the same entry (``@zh`` when it
   is Chinese); the listing reader already splits it off.
2. A name the alias table knows is never cut: "University of California, Berkeley" and
   "Agency for Science, Technology and Research, Singapore" stay whole.
3. An entry naming two institutions gives two: it is cut at "/", "|", "+", ";", " & " and
   " and " when every piece names an institution ("Chalmers University of Technology and
   University of Gothenburg", "DeepMind/Google"; a country ending the first piece is read past,
   "Foo University, UK and Bar University, Germany"), and a comma list of two institutions
   ("Peking University, Tsinghua University") gives two chains, never a unit of the other.
4. Otherwise the entry is cut at commas (outside brackets) and at spaced dashes ("ETHZ - ETH
   Zurich") into parts. An *institution* part is a university, a company, an "Institute of …
   Technology", a name the table knows, or a name that begins with one ("Google Brain"). A
   part that is a legal form ("Inc.", "Ltd.") ends the name before it ("Foo Co., Ltd."), and
   footnote marks ("Dept. of Psychology‡") and a bracketed note ("(work done at Foo)") are no
   part of a name; a country, a place or a campus ("Seattle", "College Park", "(Guangzhou)")
   qualifies the part before it and is never an organisation. Parts before an institution are its units, smallest first; a unit written
   after its institution ("The University of Tokyo, Graduate School of …", "Sorbonne
   Université, LPSM") is still its unit, so a unit and its parent are never inverted. A bare
   "Research" or "Labs" before a company is the company's lab ("Research, Google" =
   "Google Research"), also before a name no rule knows that is no place ("Research, Zorblax").
5. The same institution written twice in one entry ("Technion - Israel Institute of
   Technology, Technion", "Edinburgh University, University of Edinburgh") is one; an
   institution followed by its own parent ("Google DeepMind, Google") is one chain.
6. Labs, brands and divisions are units of their parent: the table's parent column ("Google
   DeepMind" → Google), a name beginning with a known organisation ("Adobe Research",
   "Amazon Development Center Germany"; not when the rest makes it an institution of its own,
   "Penn State University"; not across a hyphen, "MIT-IBM Watson AI Lab"), or "X at/by Y"
   ("Robotics at Google").
7. Units get IRIs under their parent's (``institution/{parent}--{unit}``): "Department of
   Mathematics" is a different unit at every university.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..ingest.names import clean, fold, has_cjk
from .aliases import AliasTable
from .keys import institution_key, is_legal_form, swapped, without_legal_form
from .org_names import (
    TOP_LEVEL_WORDS,
    address_city,
    UNIVERSITY_WORDS,
    OrgName,
    acronym_fits,
    is_acronym,
    is_country,
    is_known,
    is_top_level,
    looks_like_organisation,
    resolve_name,
    starts_with_unit_word,
    words_of,
)

# "A+B" (how aggregators join one author's affiliations) and "A; B" always name two institutions;
# the others only when the names on both sides of them are institutions.
_ALWAYS_SEPARATES = re.compile(r"(?<=\S)\+(?=\S)|\s*;\s*")
_SEPARATORS = (re.compile(r"\s+\+\s+"), re.compile(r"\s*\|\s*"), re.compile(r"\s*/\s*"), re.compile(r"\s+&\s+"),
               re.compile(r"\s+and\s+"))
_SPACED_DASH = re.compile(r"\s+[-–—]\s+")
_TRAILING_BRACKET = re.compile(r"^(?P<name>.+?)\s*[(（](?P<inner>[^()（）]+)[)）]$")
_AT_OR_BY = re.compile(r"^(?P<unit>.+?)\s+(?:at|by)\s+(?P<parent>.+)$")
# A bare word that, before a company, names the company's lab.
GENERIC_UNITS = frozenset({"research", "ai", "labs", "lab", "ai research", "ai lab", "ai labs", "research labs"})
# After a known prefix, these make the name an institution of its own ("Penn State University").
_OWN_INSTITUTION_WORDS = TOP_LEVEL_WORDS | {"state", "technological", "tech", "polytechnic"}
_PREPOSITIONS = frozenset("of for on in de des di du fur für".split())
# Footnote marks that tie an affiliation to its authors on a paper ("Dept. of Psychology‡"), card
# suits and stars as ACL papers use them ("Charles University♠") among them.
FOOTNOTE_MARKS = " *∗⋆†‡§¶‖¹²³⁴⁵⁶⁷⁸⁹⁰♠♡♢♣♤♥♦♧★☆◇◆⋄"


@dataclass(frozen=True, slots=True)
class Level:
    """One part of an entry with the place qualifiers written after it."""

    name: str
    qualifiers: tuple[str, ...] = ()


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
    """The known organisation a name begins with ("Google Brain" -> Google) or is "at"/"by"."""
    if is_known(text, aliases):
        return None
    tokens = without_legal_form(text).split()  # "Tencent Foo Co., Ltd." is "Tencent Foo", a unit of Tencent
    for end in range(len(tokens) - 1, 0, -1):
        rest = {fold(word).strip("(),.") for word in tokens[end:]}
        if rest & _OWN_INSTITUTION_WORDS:
            continue
        known = resolve_name(" ".join(tokens[:end]), aliases).canonical
        if known and not words_of(known) & UNIVERSITY_WORDS:  # "Stanford Medicine" says too little
            return known
    if (match := _AT_OR_BY.match(clean(text))) and (known := resolve_name(match["parent"], aliases)).canonical:
        return known.canonical
    return None


def names_institution(text: str, aliases: AliasTable) -> bool:
    """Rule 4's institution part."""
    return is_top_level(text) or is_known(text, aliases) or brand_parent(text, aliases) is not None


def split_institutions(text: str, aliases: AliasTable) -> list[str]:
    """Rule 3: the pieces of an entry that names several institutions at once."""
    pieces = [piece for piece in _ALWAYS_SEPARATES.split(text) if piece.strip()]
    if len(pieces) > 1:
        return [part for piece in pieces for part in split_institutions(piece, aliases)]
    if is_known(text, aliases):
        return [text]
    for separator in _SEPARATORS:
        pieces = [piece for piece in separator.split(text) if piece]
        # the name before a separator ends it, the one after begins the next: "X, Chalmers … and University of …"
        if len(pieces) > 1 and all(names_institution(_last_name(before), aliases)
                                   and names_institution(split_commas(after)[0], aliases)
                                   for before, after in zip(pieces, pieces[1:])):
            return [part for piece in pieces for part in split_institutions(piece, aliases)]
    return [text]


def _last_name(text: str) -> str:
    """The last comma part of a piece that is not its country: "Foo University, UK and Bar
    Institute, Germany" names Foo University before its "and"."""
    parts = split_commas(text)
    while len(parts) > 1 and is_country(parts[-1]):
        parts.pop()
    return parts[-1]


def _parts(text: str, aliases: AliasTable) -> list[str]:
    """Comma and dash parts, a known tail kept whole, a bracketed parent or place as a part."""
    commas = split_commas(text)
    for start in range(1, len(commas)):
        if is_known(", ".join(commas[start:]), aliases):
            commas = commas[:start] + [", ".join(commas[start:])]
            break
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
    return _with_legal_forms([part.strip(FOOTNOTE_MARKS) for part in parts])


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
        if joined and is_legal_form(part):
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


def _place_shaped(text: str) -> bool:
    """"College Park", "College Station": an organisation word followed by a name, nothing else."""
    words = institution_key(text).split()
    return len(words) == 2 and starts_with_unit_word(text) and words[1] not in _PREPOSITIONS and not is_acronym(text)


def _same(first: Level, second: Level, aliases: AliasTable) -> bool:
    a, b = resolve_name(first.name, aliases), resolve_name(second.name, aliases)
    return a.key == b.key or (not (a.canonical and b.canonical) and swapped(a.key) == b.key)


def _ancestors(level: Level, aliases: AliasTable) -> set[str]:
    return {name.key for name in _with_parents((resolve_name(level.name, aliases),), aliases)[1:]}


def split_groups(text: str, aliases: AliasTable) -> list[list[Level]]:
    """Rules 2–5: the levels of each institution an entry names, smallest first."""
    groups: list[list[Level]] = []
    for piece in split_institutions(clean(text), aliases):
        groups += _piece_groups(piece, aliases)
    return groups


def _piece_groups(piece: str, aliases: AliasTable) -> list[list[Level]]:
    if is_known(piece, aliases):
        return [[Level(piece)]]
    levels: list[Level] = []
    parts = _parts(piece, aliases)
    if len(parts) == 2 and _lab_word_before_name(*parts, aliases):  # "Research, Zorblax" is Zorblax Research
        parts = [f"{parts[1]} {parts[0]}"]
    for part in parts:
        if levels and (is_country(part) or not looks_like_organisation(part, aliases)):
            levels[-1] = Level(levels[-1].name, (*levels[-1].qualifiers, part))
        else:
            levels.append(Level(part))
    groups: list[list[Level]] = []
    units: list[Level] = []
    for level in levels:
        if names_institution(level.name, aliases):
            previous = groups[-1][-1] if groups and not units else None
            if units and institution_key(units[-1].name) in GENERIC_UNITS:  # "Research, Google"
                units[-1] = Level(f"{level.name} {units[-1].name}", units[-1].qualifiers)
            if previous and _same(previous, level, aliases):
                if institution_key(level.name).startswith("university of "):  # the form the table uses
                    groups[-1][-1] = level
                continue
            if previous and resolve_name(level.name, aliases).key in _ancestors(previous, aliases):
                groups[-1].append(level)
            elif previous and resolve_name(previous.name, aliases).key in _ancestors(level, aliases):
                groups[-1][-1:] = [level, previous]
            else:
                groups.append(units + [level])
                units = []
        elif groups and not units and not _place_shaped(level.name):
            groups[-1].insert(0, level)
        elif groups and not units:
            last = groups[-1][-1]
            groups[-1][-1] = Level(last.name, (*last.qualifiers, level.name, *level.qualifiers))
        else:
            units.append(level)
    if units:
        groups.append(units)
    return groups


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
        written = tuple(resolve_name(level.name, aliases, level.qualifiers) for level in group)
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
