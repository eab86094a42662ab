"""The chain builder of the organisation parser: a piece's parts read as levels and put into chains by
the rules of kg.orgs.rules, each level recording the ids of the rules that placed it."""

from __future__ import annotations

import re
from dataclasses import replace

from ..text.names import clean
from .aliases import AliasTable
from .canonical_names import is_known, looks_like_organisation, resolve_name
from .keys import institution_key
from .levels import (
    Level,
    OrgChain,
    _ancestors,
    _department_after_university,
    _donors_centre_of_later,
    _filled,
    _generic_unit_of_later,
    _institute_of_academy,
    _parent_rule,
    _same,
    _sponsor_of_lab,
    _tutelles,
    _unit_words_first,
    _without_region_code,
)
from .org_names import REGION_CODES, is_country, is_french_research_organisation, is_unit_number, starts_with_unit_word
from .parts import Part, _lab_word_before_name, _name_before_its_lab, _parts, _two_units, _without_shortened_names
from .rules import BY_ID
from .shapes import (
    _WEB_NAME,
    GENERIC_UNITS,
    _academic,
    _company_shaped,
    _town_named_after_university,
    _unit_kind,
    names_institution,
    names_place_of_university,
    place_shaped,
)
from .tokenizer import (
    _footnotes_as_separators,
    _line_breaks_rejoined,
    _with_country_apart,
    _without_footnote_number,
    _without_placeholders,
    align_chinese,
    cut_entry,
    states_no_affiliation,
)

# An e-mail address, which papers print beside an affiliation: no part of its name.
_EMAIL = re.compile(r"(?:[(<]\s*)?[\w.+-]+@[\w-]+(?:\.[\w-]+)+(?:\s*[)>])?")
# A list's joining word or comma left at a piece's end or start where a PDF's line or a list was cut
# ("Foo University and", ", and Foo" where an e-mail address stood).
_DANGLING_AND = re.compile(r"^(?:[\s,;]*(?:and|&)\s+)+|^[\s,;]+|(?:[\s,;]+(?:and|&))+[\s,;]*$|[\s,;&]+$")
# A sentence that says where the authors work, before the institution's name ("The authors are
# affiliated with the …", "Work done at …"): a verb, then "with", "at", "from" or "by".
_LEAD_IN = re.compile(
    r"^(?:[A-Za-z]+\s+){0,6}?(?:is|are|was|were|done|affiliated|employed|working)\s+"
    r"(?:[a-z]+\s+){0,3}?(?:with|at|from|by)\s+(?:the\s+)?(?=[A-Z])"
)
# The rules' own reading of a name, where the alias table's organisation of that name is not the one meant.
UNLISTED = AliasTable({})
# "U. of Oxford", "U of Toronto": "U" alone, opening a part, abbreviates "University" before "of" a
# capitalised word ("U of T" is a name of its own, which the table may know; "Penn State U. of …" is
# left as written).
_U_OF = re.compile(r"(?:^|(?<=[,;(+]))\s*U\.?\s+of\s+(?=[A-Z][a-z])")


def split_groups(text: str, aliases: AliasTable) -> list[list[Level]]:
    """Rules 2–5: the levels of each institution an entry names, smallest first, each with the place
    qualifiers written after it.

    >>> from kg.orgs.aliases import active_aliases
    >>> [group] = split_groups("CSAIL, MIT, Cambridge, MA, USA", active_aliases())
    >>> [(level.name, level.qualifiers) for level in group]
    [('CSAIL', ()), ('MIT', ('Cambridge', 'MA', 'USA'))]
    """
    groups: list[list[Level]] = []
    text = _U_OF.sub(" University of ", _LEAD_IN.sub("", _line_breaks_rejoined(_EMAIL.sub("", text))))
    text = _footnotes_as_separators(text)
    for piece, cuts in cut_entry(clean(text), aliases):
        piece = _without_placeholders(_without_footnote_number(_DANGLING_AND.sub("", piece)))
        # "---", a place holder, and "Independent Researcher", no affiliation, name no organisation
        if any(map(str.isalnum, piece)) and not states_no_affiliation(piece):
            groups += [_cut_by(group, cuts) for group in _piece_groups(_with_country_apart(piece), aliases)]
    return groups


def _cut_by(group: list[Level], cuts: tuple[str, ...]) -> list[Level]:
    """The group with the entry's cuts that made its piece noted first on its top level."""
    return [*group[:-1], replace(group[-1], rules=(*(BY_ID[cut].id for cut in cuts), *group[-1].rules))]


def _piece_groups(piece: str, aliases: AliasTable) -> list[list[Level]]:
    if is_known(piece, aliases):
        return [[Level(piece).noted("known-name")]]
    parts = _without_shortened_names(_parts(piece, aliases))
    texts = [part.text for part in parts]
    if len(parts) == 2 and _lab_word_before_name(*texts, aliases):  # "Research, Zorblax" is Zorblax Research
        return _parts_groups(
            [Part(f"{texts[1]} {texts[0]}", parts[1].rules + parts[0].rules)], aliases, "lab-word-before-name"
        )
    if len(parts) == 2 and _name_before_its_lab(*texts, aliases):  # "Zorblax, Zorblax AI Labs"
        return [[Level(part.text, rules=part.rules).noted("name-before-its-lab") for part in reversed(parts)]]
    if len(parts) > 1 and (units := _two_units(texts[0])):
        return [
            group
            for unit in units
            for group in _parts_groups([Part(unit, parts[0].rules), *parts[1:]], aliases, "two-units-joined-by-and")
        ]
    return _parts_groups(parts, aliases)


def _parts_groups(parts: list[Part], aliases: AliasTable, first_rule: str | None = None) -> list[list[Level]]:
    """The chains of one affiliation's parts: the parts read as levels, the levels put into chains."""
    levels = _part_levels(parts, aliases)
    if first_rule and levels:
        levels[0] = levels[0].noted(first_rule)
    levels = [
        Level(level.name, level.qualifiers, False, level.rules).noted("generic-name-before-university")
        if _generic_unit_of_later(levels, index, aliases)
        else level
        for index, level in enumerate(levels)
    ]
    return _ChainBuilder(levels, aliases).chains()


def _organisation_part(part: str, parts: list[str], index: int, levels: list[Level], aliases: AliasTable) -> bool:
    return (
        looks_like_organisation(part, aliases)
        or is_french_research_organisation(part)
        or _company_shaped(part)
        or len(levels) == 1
        and _department_after_university(parts, index, levels[-1], aliases)
    )


# The rules of the "part" step that make a part a qualifier of the level before it, in their order:
# rule id -> test(part, parts, index, levels, aliases), the part as read (its region code dropped).
_QUALIFIER_TESTS = {
    "country": lambda part, parts, index, levels, aliases: is_country(part),
    "unit-number": lambda part, parts, index, levels, aliases: is_unit_number(part),
    "town-named-after-university": lambda part, parts, index, levels, aliases: _town_named_after_university(part),
    "no-organisation-word": lambda part, *context: not _organisation_part(part, *context),
    "place-of-university": lambda part, parts, index, levels, aliases: (
        names_place_of_university(part, aliases)
        and not _academic(levels[-1].name, aliases)
        and not starts_with_unit_word(levels[-1].name)
    ),
}


def _part_levels(shaped: list[Part], aliases: AliasTable) -> list[Level]:
    """The levels of an affiliation's parts, each with the places and numbers written after it and the
    rules that shaped the parts read into it."""
    parts = [part.text for part in shaped]
    levels = [Level(parts[0], rules=shaped[0].rules)] if parts else []
    for index in range(1, len(parts)):
        part, previous, rules = parts[index], levels[-1], shaped[index].rules
        if _sponsor_of_lab(part, previous.name):
            levels[-1] = previous.noted(*rules, "sponsor-of-key-lab")
            continue
        if (bare := _without_region_code(part, parts[index + 1] if index + 1 < len(parts) else "")) != part:
            levels[-1] = previous = previous.noted("region-code-before-country")
        if not bare:
            levels[-1] = previous.noted(*rules)
            continue
        rule = next(
            (rule for rule, test in _QUALIFIER_TESTS.items() if test(bare, parts, index, levels, aliases)), None
        )
        if rule:
            levels[-1] = replace(previous, qualifiers=(*previous.qualifiers, bare)).noted(*rules, rule)
        else:
            levels.append(Level(bare).noted(*rules, "new-level"))
    return levels


class _ChainBuilder:
    """Puts an affiliation's levels into chains, in order: a unit waits for its institution, an
    institution ends a chain, a level after an institution is its unit or its place."""

    def __init__(self, levels: list[Level], aliases: AliasTable):
        self.levels, self.aliases = levels, aliases
        self.tutelles = _tutelles(levels, aliases)
        self.groups: list[list[Level]] = []
        self.units: list[Level] = []

    def chains(self) -> list[list[Level]]:
        for index, level in enumerate(self.levels):
            self._end_at_country()
            # ", and" before a list's last affiliation begins it: "Foo Lab, Bar Institute, and Baz Centre, Bar
            # Institute"
            begins = bool(self.groups) and not self.units and level.name.startswith("and ")
            if begins:
                level = replace(level, name=level.name.removeprefix("and ")).noted("and-begins-affiliation")
            if rule := self._institution_rule(index, level):
                self._place_institution(level.noted(rule), begins)
            elif self.groups and not self.units and not begins:
                self._place_after_institution(level)
            else:
                self.units.append(level.noted("unit-before-institution"))
        if self.units:
            self.groups.append([level.noted("no-institution") for level in _unit_words_first(self.units)])
        return self.groups

    def _end_at_country(self) -> None:
        """A country ends an address, and so the affiliation: "Foo Institute, Japan, Bar Institute of
        Technology". (A state's code right after a unit is no address: "Foo Lab, DC, Bar University" may
        be a department's "DC"; after a city it is, "Foo Lab, Pittsburgh, PA, Bar Inc.")"""
        if self.units and any(
            is_country(qualifier) and (position or clean(qualifier).strip(".") not in REGION_CODES)
            for position, qualifier in enumerate(self.units[-1].qualifiers)
        ):
            self.units[-1] = self.units[-1].noted("country-ends-affiliation")
            self.groups.append(self.units)
            self.units = []

    def _institution_rule(self, index: int, level: Level) -> str | None:
        """The rule that makes the level an institution, if one does. (A web address for a name after an
        institution is a company; before one, it may be its lab.)"""
        if index in self.tutelles:
            return "co-supervisor"
        if _WEB_NAME.fullmatch(level.name) and self.groups and not self.units:
            return "web-name-company"
        if names_institution(level.name, self.aliases if level.listed else UNLISTED) and not _donors_centre_of_later(
            self.levels, index, self.aliases
        ):
            return "institution"
        return None

    def _place_institution(self, level: Level, begins: bool) -> None:
        groups, units, aliases = self.groups, self.units, self.aliases
        previous = groups[-1][-1] if groups and not units and not begins else None
        if units and institution_key(units[-1].name) in GENERIC_UNITS:  # "Research, Google"
            units[-1] = Level(f"{level.name} {units[-1].name}", units[-1].qualifiers, rules=units[-1].rules).noted(
                "generic-unit-of-company"
            )
        if previous and _same(previous, level, aliases):
            # the form the table uses
            kept = level if institution_key(level.name).startswith("university of ") else previous
            groups[-1][-1] = kept.noted("institution-repeated")
            return
        if previous and (
            resolve_name(level.name, aliases).key in _ancestors(previous, aliases)
            or _institute_of_academy(previous, level, aliases)
        ):
            groups[-1].append(level.noted("parent-after-institution"))
        elif previous and resolve_name(previous.name, aliases).key in _ancestors(level, aliases):
            groups[-1][-1:] = [level.noted("child-after-parent"), previous]
        else:
            self.groups += _with_siblings_apart(units + [level])
            self.units = []

    def _place_after_institution(self, level: Level) -> None:
        if not place_shaped(level.name):
            # a unit written after its institution; after a French lab's co-supervisors, the first one's
            self.groups[0 if self.tutelles else -1].insert(0, level.noted("unit-after-institution"))
        else:
            last = self.groups[-1][-1]
            self.groups[-1][-1] = Level(
                last.name, (*last.qualifiers, level.name, *level.qualifiers), rules=last.rules
            ).noted("place-after-institution")


def _with_siblings_apart(group: list[Level]) -> list[list[Level]]:
    """ "Department of Foo, Department of Bar, Baz University": units of one kind written side by side
    are siblings, each a unit of what follows them (two chains), not one inside the other."""
    if len(group) < 3:
        return [group]
    kind, end = _unit_kind(group[0].name), 1
    while kind and end < len(group) - 1 and _unit_kind(group[end].name) == kind:
        end += 1
    siblings = group[:end] if end == 1 else [sibling.noted("siblings-apart") for sibling in group[:end]]
    return [[sibling, *above] for sibling in siblings for above in _with_siblings_apart(group[end:])]


def resolve_entries(name: str, chinese: str | None, aliases: AliasTable) -> list[OrgChain]:
    """Every institution an entry names, each as its chain of units, from the entry's own unit up (the
    parents the alias table knows added above it), with ``chinese``, the entry's Chinese name, aligned.

    >>> from kg.orgs.aliases import active_aliases
    >>> entry = "Dept. of Computer Science, Tsinghua University; Microsoft Research Asia"
    >>> for chain in resolve_entries(entry, None, active_aliases()):
    ...     print(" < ".join(level.display for level in chain.levels))
    Dept. of Computer Science < Tsinghua University
    Microsoft Research Asia < Microsoft Research < Microsoft
    >>> entry, chinese = "Department of Computer Science, Tsinghua University", "计算机系，清华大学"
    >>> resolve_entries(entry, chinese, active_aliases())[0].chinese
    ('计算机系', '清华大学')

    """
    groups = split_groups(name, aliases)
    chains = [_chain(group, chinese if len(groups) == 1 else None, aliases) for group in groups]
    keys = [{level.key for level in chain.levels} for chain in chains]
    # "DeepMind/Google": the parent named beside its own unit is not a second institution.
    return [
        chain
        for index, chain in enumerate(chains)
        if not any(index != other and keys[index] < keys[other] for other in range(len(chains)))
        and keys[index] not in keys[:index]
    ]


def _chain(group: list[Level], chinese: str | None, aliases: AliasTable) -> OrgChain:
    """One institution's levels as names, with the levels between and above them that the entry does not
    write, the Chinese name of each level where it aligns, and the rules that placed each."""
    written = tuple(
        resolve_name(level.name, aliases if level.listed else UNLISTED, level.qualifiers) for level in group
    )
    levels = _filled(written, aliases)
    by_level = dict(zip(written, align_chinese([level.name for level in group], chinese)))
    rules = dict(zip(written, (level.rules for level in group)))
    return OrgChain(
        levels,
        tuple(by_level.get(level) for level in levels),
        tuple(rules.get(level, (_parent_rule(level),)) for level in levels),
    )


def explain_entry(name: str, aliases: AliasTable) -> str:
    """How an entry resolved, level by level and by which rule: the quality report's "why".

    >>> from kg.orgs.aliases import active_aliases
    >>> explain_entry("Google DeepMind", active_aliases())
    'Google DeepMind (alias table) < Google (parent of Google DeepMind, from the alias table)'
    """
    return " ; ".join(
        " < ".join(f"{level.display} ({level.rule})" for level in chain.levels)
        for chain in resolve_entries(name, None, aliases)
    )


def explain_rules(name: str, aliases: AliasTable) -> list[str]:
    """Each chain of an entry, one line a level from the top: its name, the ids of the rules that placed
    it (kg.orgs.rules) and how its name was read: ``kg explain``'s answer.

    >>> from kg.orgs.aliases import active_aliases
    >>> print("\\n".join(explain_rules("Google DeepMind", active_aliases())))
    institution 1:
      Google  [parent-from-alias-table]  (parent of Google DeepMind, from the alias table)
        Google DeepMind  [known-name]  (alias table)
    >>> explain_rules("Independent Researcher", active_aliases())
    ['no organisation']
    """
    lines: list[str] = []
    for number, chain in enumerate(resolve_entries(name, None, aliases), start=1):
        lines.append(f"institution {number}:")
        for depth, (level, rules) in enumerate(reversed(list(zip(chain.levels, chain.rules)))):
            lines.append(f"{'  ' * (depth + 1)}{level.display}  [{', '.join(rules) or 'first part'}]  ({level.rule})")
    return lines or ["no organisation"]
