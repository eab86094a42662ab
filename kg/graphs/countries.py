"""Countries as members of papers: the country network's nodes, their names and IRIs.

A paper's countries are those of the organisations it lists (``schema:addressCountry``, ISO 3166-1
alpha-2, which the organisation registry gives): an organisation's own, else that of the
organisations it is a unit of, as the library's ``country-papers`` query reads them. A paper counts
once for each of its countries however many of its organisations are there (full counting; the
network's ``--counting fractional`` weighs its edges by 1/(n-1) as for any network). A country is
named by the EU's country authority IRI (ISO 3166-1 alpha-3), so its site page is
``country/{alpha-3}.html`` and its node links there.
"""

from __future__ import annotations

from functools import lru_cache

import pycountry

from ..errors import KgError
from ..stores.embedded import KGStore
from .aggregates import LabelRow, Papers, Teams, label_rows, team_sets, values

COUNTRY_AUTHORITY = "http://publications.europa.eu/resource/authority/country/"

# Each paper's countries; the OPTIONALs bind a listed organisation's own country or its parents'.
_PAPER_COUNTRIES = """SELECT DISTINCT ?paper ?country WHERE {
  ?paper schema:sourceOrganization ?listed .
  OPTIONAL { ?listed schema:addressCountry ?own }
  OPTIONAL { ?listed org:subOrganizationOf+/schema:addressCountry ?above }
  BIND (COALESCE(?own, ?above) AS ?country)
  FILTER (BOUND(?country))
}"""


@lru_cache(maxsize=None)
def _country(code: str):
    return pycountry.countries.get(alpha_2=code.upper())


def country_iri(code: str) -> str:
    """The country's IRI: the EU authority's, by its alpha-3 code (the alpha-2 code where pycountry has none)."""
    found = _country(code)
    return COUNTRY_AUTHORITY + (found.alpha_3 if found else code.upper())


def country_name(code: str) -> str:
    """The country's common English name ("South Korea", "Taiwan"), else its ISO name, else the code."""
    found = _country(code)
    return (getattr(found, "common_name", None) or found.name) if found else code.upper()


def find_country(typed: str) -> str:
    """The alpha-2 code of a country as typed: a code (alpha-2 or alpha-3) or a name."""
    try:
        return pycountry.countries.lookup(typed.strip()).alpha_2
    except LookupError:
        raise KgError(f"no country matches {typed!r}: give its name or ISO code (DE, DEU, Germany)") from None


def country_teams(store: KGStore, labels: list[LabelRow] | None = None, papers: Papers | None = None) -> Teams:
    """Each paper's countries (as IRIs), the papers' years, and every label with the countries' names
    (``labels``, ``papers``: as :func:`.aggregates.team_sets` takes them)."""
    codes: set[str] = set()

    def pairs():
        for paper, code in values(store, _PAPER_COUNTRIES):
            codes.add(code)
            yield paper, country_iri(code)

    read = team_sets(store, pairs(), label_rows(store) if labels is None else labels, papers)
    names = [(country_iri(code), country_name(code), "en") for code in sorted(codes)]
    return Teams(read.members, read.years, [*read.labels, *names], read.papers)
