"""What the organisation registry adds to the mapping's organisation nodes (kg/rdf/registry_triples.py),
on the shipped table: ROR IRI, country, city, types, registry parent; the nodes' IRIs unchanged."""

from __future__ import annotations

import pyoxigraph as ox

from kg.ingest.comments import PublicationInfo
from kg.orgs.aliases import AliasTable
from kg.orgs.registry_table import load_registry
from kg.rdf.iris import Minter
from kg.rdf.mapping import paper_triples
from kg.rdf.terms import ntriples
from kg.records import Affiliation, AuthorDetail, Institution, PaperRecord, SourceRef
from kg.vocab import KG, ORG, OWL, RDF, SCHEMA

ALIASES = AliasTable({})
REF = SourceRef("papers.json", "papers.json", 1, "paperlists")


def _triples(registry, affiliation: Affiliation | None = None, institution: str | None = None) -> set[ox.Triple]:
    details = [AuthorDetail(affiliations=(affiliation,))] if affiliation else []
    institutions = [Institution(raw=institution, name=institution)] if institution else []
    record = PaperRecord(
        REF, "ICML", title="A Paper", authors=["Ada Lovelace"], author_details=details, institutions=institutions
    )
    said = paper_triples(record, PublicationInfo(venue="ICML", year=2026), Minter(), ALIASES, registry=registry)
    return set(ox.parse(ntriples(said), format=ox.RdfFormat.N_TRIPLES))


def _organisations(found: set[ox.Triple]) -> set[ox.NamedNode]:
    return {t.subject for t in found if t.predicate == RDF.type and t.object == ORG.Organization}


def _objects(found: set[ox.Triple], subject, predicate) -> set:
    return {t.object for t in found if t.subject == subject and t.predicate == predicate}


def test_a_matched_institution_gets_its_registry_record_and_keeps_its_iri():
    affiliation = Affiliation("University of Cambridge", "cam.ac.uk")
    found = _triples(load_registry(), affiliation)
    (node,) = _organisations(found)
    assert _organisations(_triples(None, affiliation)) == {node}  # the IRI is kg's, with or without the registry
    assert _objects(found, node, OWL.sameAs) == {ox.NamedNode("https://ror.org/013meh722")}
    assert _objects(found, node, SCHEMA.addressCountry) == {ox.Literal("GB")}
    assert _objects(found, node, SCHEMA.addressLocality) == {ox.Literal("Cambridge")}
    assert KG.EducationOrganisation in _objects(found, node, KG.organisationType)


def test_a_top_level_institution_gets_its_registry_parent():
    found = _triples(load_registry(), Affiliation("University of California, Berkeley", "berkeley.edu"))
    (node,) = _organisations(found)
    assert _objects(found, node, KG.registryParent) == {ox.NamedNode("https://ror.org/00pjdza24")}
    assert not _objects(found, node, ORG.subOrganizationOf)  # kg's own roll-ups are unchanged


def test_an_unknown_organisation_gets_the_country_its_string_names():
    found = _triples(load_registry(), Affiliation("Zorblax Robotics, Germany", "zorblax.com"))
    (node,) = _organisations(found)
    assert _objects(found, node, SCHEMA.addressCountry) == {ox.Literal("DE")}
    assert not _objects(found, node, OWL.sameAs)


def test_a_unit_gets_its_institutions_country_and_only_the_institution_its_record():
    found = _triples(load_registry(), institution="Department of Computer Science, Stanford University")
    units = {t.subject for t in found if t.predicate == RDF.type and t.object == ORG.OrganizationalUnit}
    (unit,) = units
    (top,) = _organisations(found) - units
    assert _objects(found, top, OWL.sameAs) == {ox.NamedNode("https://ror.org/00f54p054")}
    assert not _objects(found, unit, OWL.sameAs)
    assert _objects(found, unit, SCHEMA.addressCountry) == {ox.Literal("US")}


def test_without_a_registry_no_registry_triples():
    found = _triples(None, Affiliation("University of Cambridge", "cam.ac.uk"))
    assert not {t for t in found if t.predicate in (OWL.sameAs, SCHEMA.addressCountry, KG.organisationType)}
