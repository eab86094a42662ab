"""An organisation of the registry, and a match of a name to one."""

from __future__ import annotations

from dataclasses import dataclass

ROR = "https://ror.org/"


@dataclass(frozen=True, slots=True)
class Record:
    """One organisation of the registry; ``id`` is the ROR id's last part, "" for a university only
    the universities list has."""

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
        return ROR + self.id if self.id else None


@dataclass(frozen=True, slots=True)
class Match:
    record: Record
    how: str  # exact, branch, acronym, fuzzy, domain
