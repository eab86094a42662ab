"""kg/rdf/mapping.py: one record and its publication facts -> triples, purely."""

from __future__ import annotations

import pyoxigraph as ox

from kg.ingest.comments import PublicationInfo
from kg.orgs.aliases import AliasTable
from kg.rdf.iris import Minter
from kg.rdf.mapping import paper_triples, source_triples
from kg.rdf.terms import iri, literal, literal_value, ntriples, value
from kg.records import PaperRecord, SourceRef
from kg.vocab import BIBO, DCTERMS, FABIO, KG, RDF, SCHEMA, XSD

ALIASES = AliasTable({})  # configuration is passed in: no environment, no store

REF = SourceRef("listing.txt", "listing.txt", 3, "listing")


def triples(info: PublicationInfo, **fields) -> set[ox.Triple]:
    record = PaperRecord(REF, "ICML", title="A Paper", authors=["Ada Lovelace", "Alan Turing"], **fields)
    return set(ox.parse(ntriples(paper_triples(record, info, Minter(), ALIASES)), format=ox.RdfFormat.N_TRIPLES))


def objects(found: set[ox.Triple], subject, predicate) -> set:
    return {t.object for t in found if t.subject == subject and t.predicate == predicate}


def test_the_same_record_gives_the_same_triples():
    info = PublicationInfo(venue="ICML", year=2026, code_urls=["https://github.com/a/b"])
    assert triples(info) == triples(PublicationInfo(venue="ICML", year=2026, code_urls=["https://github.com/a/b"]))


def test_an_edition_has_dates_and_its_series_and_the_paper_none_of_its_own():
    found = triples(PublicationInfo(venue="ICML", year=2026))
    paper = next(t.subject for t in found if t.predicate == RDF.type and t.object == SCHEMA.ScholarlyArticle)
    (event,) = objects(found, paper, BIBO.presentedAt)
    year = ox.Literal("2026", datatype=XSD.gYear)
    assert objects(found, event, SCHEMA.startDate) == objects(found, event, DCTERMS.date) == {year}
    assert not objects(found, paper, FABIO.hasPublicationYear)  # the edition's year is the paper's
    (series,) = objects(found, event, SCHEMA.superEvent)
    assert objects(found, series, RDF.type) == {KG.ConferenceSeries, SCHEMA.EventSeries}


def test_without_a_year_the_paper_is_presented_at_the_series_and_has_no_year():
    found = triples(PublicationInfo(venue="ICML"))
    paper = next(t.subject for t in found if t.predicate == RDF.type and t.object == SCHEMA.ScholarlyArticle)
    (series,) = objects(found, paper, BIBO.presentedAt)
    assert KG.ConferenceSeries in objects(found, series, RDF.type)
    assert not objects(found, series, SCHEMA.startDate)


def test_code_is_software_source_code_based_on_the_paper():
    found = triples(
        PublicationInfo(code_urls=["https://github.com/a/b"]),
        abstract="See https://gitlab.com/c/d and https://example.org.",
    )
    paper = next(t.subject for t in found if t.predicate == RDF.type and t.object == SCHEMA.ScholarlyArticle)
    code = {t.subject for t in found if t.predicate == RDF.type and t.object == SCHEMA.SoftwareSourceCode}
    assert {next(iter(objects(found, c, SCHEMA.codeRepository))).value for c in code} == {
        "https://github.com/a/b",
        "https://gitlab.com/c/d",
    }
    assert all(objects(found, c, SCHEMA.isBasedOn) == {paper} for c in code)
    assert not any(t.subject == paper and t.predicate == SCHEMA.codeRepository for t in found)
    assert objects(found, paper, ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#seeAlso")) == {
        ox.NamedNode("https://example.org")
    }


def test_a_source_says_when_its_file_was_modified():
    modified = str(ox.Literal("2026-01-02T03:04:05Z", datatype=XSD.dateTime))
    assert any(
        predicate == str(DCTERMS.modified) and obj == modified
        for _, predicate, obj in source_triples("listing.txt", "listing", "ICML", Minter(), modified)
    )
    assert not any(
        predicate == str(DCTERMS.modified)
        for _, predicate, _ in source_triples("listing.txt", "listing", "ICML", Minter())
    )


def test_terms_are_written_as_pyoxigraph_writes_them_and_read_back():
    texts = [
        'Quotes " and \\ back\nslash\r\ttab \x01 \x7f \ufffe \uffff é 中文 \U0001f600',
        "plain",
        "".join(map(chr, range(0x80))),
    ]
    kinds = ((None, None), ("en", None), ("zh-hant", None), (None, XSD.integer), (None, XSD.string))
    for text in texts:
        for language, datatype in kinds:
            written = literal(text, language, str(datatype) if datatype else None)
            assert written == str(ox.Literal(text, language=language, datatype=datatype))
            assert literal_value(written) == (text, language or "")
            assert value(written) == text
    assert iri("https://example.org/ä?q=1#x") == str(ox.NamedNode("https://example.org/ä?q=1#x"))
    assert value(iri("https://example.org/ä?q=1#x")) == "https://example.org/ä?q=1#x"


def test_statements_are_n_triples_lines():
    paper, title = ox.NamedNode("https://kg.example.org/id/paper/p"), ox.NamedNode("http://purl.org/dc/terms/title")
    objects = [ox.Literal('Quotes " and \\ back\nslash', language="en"), ox.Literal("3", datatype=XSD.integer), paper]
    said = [(paper, title, obj) for obj in objects]
    statements = [tuple(map(str, statement)) for statement in said]
    assert ntriples(statements) == ox.serialize([ox.Triple(*s) for s in said], format=ox.RdfFormat.N_TRIPLES)
