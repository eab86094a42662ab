"""Bare units placed in their institution by the e-mail domain their authors write from.

A structured source may give an author's affiliation as a unit alone ("Department of Computer
Science", e-mail cs.washington.edu). The mapping keeps such a unit apart per registrable domain
(``kg:scopedByDomain``); here, across every source, it becomes a unit of the one top-level
institution whose other affiliations carry that registrable domain (University of Washington:
washington.edu, cs.washington.edu). Where several institutions share the domain (google.com is
Google's and Waymo's) or none has it, the unit stays as it is. Derived, so it is recomputed from
the store and never depends on the order sources came in.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterator

import pyoxigraph as ox

from ..rdf.iris import Minter, slug
from ..stores.embedded import KGStore
from ..text.domains import institutional_domain
from ..vocab import KG, ORG, RDF, RDFS, sparql_prologue

_SCOPED = sparql_prologue() + "SELECT DISTINCT ?unit ?domain WHERE { ?unit kg:scopedByDomain ?domain }"
# The top of every organisation an author's domain was stated with (scoped units aside: they
# are what is being placed, and "Department of X" of one domain says nothing of the institution).
_DOMAINS = (
    sparql_prologue()
    + """
SELECT DISTINCT ?top ?domain WHERE {
  ?org a org:Organization ; kg:emailDomain ?domain ; org:subOrganizationOf* ?top .
  FILTER NOT EXISTS { ?org kg:scopedByDomain ?scope }
  FILTER NOT EXISTS { ?top org:subOrganizationOf ?above }
}"""
)


def institutions_by_domain(store: KGStore) -> dict[str, set[str]]:
    """Registrable domain -> the top-level institutions whose affiliations carry it."""
    found: dict[str, set[str]] = defaultdict(set)
    for top, domain in store.select_terms(_DOMAINS):
        if registered := institutional_domain(domain.value):
            found[registered].add(top.value)
    return found


def domain_unit_triples(store: KGStore, minter: Minter) -> Iterator[ox.Triple]:
    """``org:subOrganizationOf`` from each scoped unit to its domain's only institution, with a
    ``kg:UnitByDomain`` record of why (for ``kg quality``)."""
    institutions = institutions_by_domain(store)
    for unit, domain in sorted(store.select_terms(_SCOPED), key=lambda row: (row[0].value, row[1].value)):
        candidates = institutions.get(domain.value, set()) - {unit.value}
        if len(candidates) != 1:
            continue
        parent = ox.NamedNode(next(iter(candidates)))
        yield ox.Triple(unit, ORG.subOrganizationOf, parent)
        yield ox.Triple(unit, RDF.type, ORG.OrganizationalUnit)
        record = ox.NamedNode(minter.iri("unit-by-domain", slug(unit.value.rsplit("/", 1)[-1])))
        yield ox.Triple(record, RDF.type, KG.UnitByDomain)
        yield ox.Triple(record, KG.unit, unit)
        yield ox.Triple(record, KG.parentInstitution, parent)
        yield ox.Triple(record, KG.emailDomain, domain)
        yield ox.Triple(
            record, RDFS.comment, ox.Literal(f"the only institution whose authors write from {domain.value}")
        )
