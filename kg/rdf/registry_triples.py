"""The triples the organisation registry adds to one organisation node of a chain (kg/orgs/identify.py):
``owl:sameAs`` its ROR IRI, ``schema:addressCountry`` (ISO 3166-1 alpha-2), ``schema:addressLocality``,
``kg:organisationType`` per ROR type, and ``kg:registryParent`` where kg gives the node no parent of
its own; an organisation the registry does not know gets only the country its string or e-mail domain
names. The node's IRI is kg's own either way."""

from __future__ import annotations

from typing import Iterator

from ..orgs.identify import Identified
from ..orgs.records import ROR
from .terms import Statement, iri, literal
from .vocab_texts import KG, OWL, SCHEMA

# ROR's types -> the concepts of kg:OrganisationTypes (ontology/kg.ttl)
TYPE_CONCEPTS = {
    "education": KG.EducationOrganisation,
    "company": KG.CompanyOrganisation,
    "facility": KG.FacilityOrganisation,
    "government": KG.GovernmentOrganisation,
    "healthcare": KG.HealthcareOrganisation,
    "nonprofit": KG.NonprofitOrganisation,
    "funder": KG.FunderOrganisation,
    "archive": KG.ArchiveOrganisation,
    "other": KG.OtherOrganisation,
}


def identified_triples(node: str, identified: Identified, has_parent: bool) -> Iterator[Statement]:
    """What the registry says of an organisation node: its country, and where a record names it,
    the record's IRI, city, kinds and (for a node the chain gives no parent) the record's parents.

    >>> from kg.rdf.terms import value
    >>> from kg.rdf.terms import minted, value
    >>> node = minted("http://ex/institution/loom-university")
    >>> said = identified_triples(node, Identified(None, "GB"), False)
    >>> [(value(predicate), value(obj)) for _, predicate, obj in said]
    [('https://schema.org/addressCountry', 'GB')]
    """
    if identified.country:
        yield node, SCHEMA.addressCountry, literal(identified.country)
    record = identified.match.record if identified.match else None
    if record is None or not record.id:  # a university only the universities list has: its country alone
        return
    yield node, OWL.sameAs, iri(record.iri)
    if record.city:
        yield node, SCHEMA.addressLocality, literal(record.city)
    for kind in record.types:
        if kind in TYPE_CONCEPTS:
            yield node, KG.organisationType, TYPE_CONCEPTS[kind]
    if not has_parent:
        for parent in record.parents:
            yield node, KG.registryParent, iri(ROR + parent)
