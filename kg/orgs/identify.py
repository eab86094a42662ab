"""The registry records of one chain of organisations (an institution and its units, as the parser
reads an affiliation), and the country of an organisation the registry does not know.

The institution (the chain's top) is matched by its canonical name (the alias table's) and else
as written, in the context of the whole affiliation string and the author's e-mail domain. A unit
is matched only where its record belongs with the institution's: the institution's own
descendant, or a sibling under the same parent ("Google DeepMind" beside "Google (United States)",
both Alphabet's), so "Robotics Institute" never becomes another university's institute.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

from .countries import countries_in, country_of_domain
from .records import Match, Record
from .registry import Registry

_DEPTH = 3  # levels of parents looked through for a unit's relation to its institution


class Named(Protocol):
    written: str
    canonical: str | None


@dataclass(frozen=True, slots=True)
class Identified:
    """What the registry says of one level of a chain: its record (or None) and its country."""

    match: Match | None
    country: str | None


def identify_chain(
    levels: Sequence[Named], context: str, domain: str | None, registry: Registry
) -> tuple[Identified, ...]:
    """One :class:`Identified` per level, in the chain's order (most specific first, institution last):
    ``levels`` are a chain's names (:class:`kg.orgs.canonical_names.OrgName`), ``context`` the whole affiliation
    string, ``domain`` the author's e-mail domain. A unit the registry does not know takes its
    institution's country; a chain whose institution it does not know, the string's or the domain's.

    >>> from kg.orgs.aliases import active_aliases
    >>> from kg.orgs.chains import resolve_entries
    >>> from kg.orgs.registry_table import load_registry
    >>> entry = "CSAIL, MIT, Cambridge, MA, USA"
    >>> [chain] = resolve_entries(entry, None, active_aliases())
    >>> unit, top = identify_chain(chain.levels, entry, None, load_registry())
    >>> unit.match, unit.country, top.match.record.name, top.match.how
    (None, 'US', 'Massachusetts Institute of Technology', 'exact')
    >>> entry = "Zorblax Institute, Beijing, China"
    >>> [chain] = resolve_entries(entry, None, active_aliases())
    >>> identify_chain(chain.levels, entry, None, load_registry())
    (Identified(match=None, country='CN'),)
    """
    top = _match_level(levels[-1], context, domain, registry)
    fallback_country = (countries_in(context) or [None])[0] or country_of_domain(domain)
    identified = []
    for level in levels[:-1]:
        match = _match_level(level, context, domain, registry) if top else None
        if match and not _belongs(match.record, top.record, registry):
            match = None
        identified.append(Identified(match, top.record.country if top else fallback_country))
    identified.append(Identified(top, top.record.country if top else fallback_country))
    return tuple(identified)


def _match_level(level: Named, context: str, domain: str | None, registry: Registry) -> Match | None:
    """The record of the level's canonical name, else of its name as written. The canonical name is
    the node's, so it is asked alone: the parts after it in the string ("Indiana University,
    Bloomington") are what the alias table folded into it, and would lead one occurrence of the node
    to another record (the campus) than the others."""
    asked = {level.canonical: False} if level.canonical else {}
    asked.setdefault(level.written, True)
    return next(filter(None, (registry.match(name, context, domain, extend) for name, extend in asked.items())), None)


def _ancestors(record: Record, registry: Registry) -> set[str]:
    found, frontier = set(), {record.id}
    for _ in range(_DEPTH):
        frontier = {
            parent for ident in frontier if ident in registry.by_id for parent in registry.by_id[ident].parents
        } - found
        found |= frontier
    return found


def _belongs(unit: Record, institution: Record, registry: Registry) -> bool:
    if not unit.id or unit.id == institution.id:
        return False
    unit_ancestors = _ancestors(unit, registry)
    return institution.id in unit_ancestors or bool(unit_ancestors & {*institution.parents})
