"""An organisation of the registry, and a match of a name to one."""

from __future__ import annotations

from dataclasses import dataclass

ROR = "https://ror.org/"


@dataclass(frozen=True, slots=True)
class Record:
    """One organisation of the registry; ``id`` is the ROR id's last part, "" for a university only
    the universities list has. Its ``keys`` are :func:`.name_keys.name_key`'s of its names.

    >>> from kg.orgs.registry_table import load_registry
    >>> tsinghua = load_registry().match("Tsinghua University").record
    >>> tsinghua.country, tsinghua.city, tsinghua.domains, tsinghua.iri
    ('CN', 'Beijing', ('tsinghua.edu.cn',), 'https://ror.org/03cve4549')
    """

    id: str
    name: str
    country: str
    city: str
    types: tuple[str, ...]
    parents: tuple[str, ...]
    domains: tuple[str, ...]
    active: bool
    keys: tuple[str, ...]
    branch_keys: tuple[str, ...]
    acronyms: tuple[str, ...]

    @property
    def iri(self) -> str | None:
        """The record's ROR IRI; None for a university the universities list alone has."""
        return ROR + self.id if self.id else None

    def __reduce__(self):
        # pickled as its fields (kg.cache): loading calls the constructor, not a setattr per field
        return (
            Record,
            (
                self.id,
                self.name,
                self.country,
                self.city,
                self.types,
                self.parents,
                self.domains,
                self.active,
                self.keys,
                self.branch_keys,
                self.acronyms,
            ),
        )


@dataclass(frozen=True, slots=True)
class Match:
    """The record a name names and the registry's step that found it.

    >>> from kg.orgs.registry_table import load_registry
    >>> load_registry().match("Beihang Uinveristy").how
    'fuzzy'
    """

    record: Record
    how: str  # exact, branch, acronym, fuzzy, domain
