"""Records -> triples: the one place that decides how a paper is said in RDF.

The shape is documented in ``ontology/kg.ttl``. Functions here are pure: the same record
and publication facts always give the same triples, so exports are deterministic.
"""

from __future__ import annotations

from typing import Iterator

from pyoxigraph import Literal, NamedNode, Triple

from ..ingest.comments import PublicationInfo
from .iris import Minter, digest, file_slug, slug
from ..ingest.names import clean, has_cjk, match_key
from ..nlp.graph import topic_triples
from ..ingest.records import PaperRecord, SourceRef
from ..resolve.record_triples import institution_triples
from ..ingest.urls import find_urls, is_code_repository
from .vocab import BIBO, DCTERMS, FOAF, KG, PROV, RDF, RDFS, SCHEMA, XSD

TRACKS = {"main": KG.MainTrack, "position": KG.PositionTrack, "workshop": KG.WorkshopTrack}
PRESENTATIONS = {"oral": KG.Oral, "spotlight": KG.Spotlight, "poster": KG.Poster, "contributed-talk": KG.ContributedTalk}


def _integer(value: int) -> Literal:
    return Literal(str(value), datatype=XSD.integer)


def _text(value: str, language: str | None = None) -> Literal:
    return Literal(value, language=language) if language else Literal(value)


def _link(url: str) -> NamedNode | None:
    """A URL as an IRI, or None when it is not a valid one (it stays in the raw text)."""
    try:
        return NamedNode(url)
    except ValueError:
        return None


def paper_slug(record: PaperRecord) -> str:
    """Papers are named by their title and byline: two listings of one title with other authors
    are two papers (else one paper's authorships would hold both bylines), the same title and
    authors, however written, in any source, one. Abstract-only papers by their first words and
    a digest."""
    if record.title:
        byline = "|".join(match_key(author) for author in record.authors)
        return f"{slug(record.title)}-{digest(byline, 6)}" if byline else slug(record.title)
    words = " ".join((record.abstract or "").split()[:8])
    return f"{slug(words, 60)}-{digest(match_key(record.abstract or ''), 8)}"


def source_iri(source_name: str, minter: Minter) -> NamedNode:
    """The source file's IRI, which also names the graph of everything read from it."""
    return NamedNode(minter.iri("source", file_slug(source_name)))


def source_triples(name: str, format_name: str, venue_header: str, minter: Minter) -> Iterator[Triple]:
    node = source_iri(name, minter)
    yield Triple(node, RDF.type, KG.Source)
    yield Triple(node, DCTERMS.title, Literal(name))
    yield Triple(node, RDFS.label, Literal(name))
    yield Triple(node, KG.format, Literal(format_name))
    if venue_header:
        yield Triple(node, KG.venueHeader, Literal(venue_header))


def paper_triples(record: PaperRecord, info: PublicationInfo, minter: Minter) -> Iterator[Triple]:
    """Every triple one record states: the paper, its authorships, institutions, venue, provenance."""
    key = paper_slug(record)
    paper = NamedNode(minter.iri("paper", key))
    yield Triple(paper, RDF.type, SCHEMA.ScholarlyArticle)
    if record.title:
        yield Triple(paper, DCTERMS.title, _text(record.title, "en"))
        yield Triple(paper, RDFS.label, _text(record.title, "en"))
    if record.title_zh and has_cjk(record.title_zh):
        yield Triple(paper, DCTERMS.title, _text(record.title_zh, "zh"))
    if record.abstract:
        yield Triple(paper, DCTERMS.abstract, _text(record.abstract, "en"))
    if record.summary_zh:
        yield Triple(paper, KG.summary, _text(record.summary_zh, "zh" if has_cjk(record.summary_zh) else None))
    yield from topic_triples(paper, record, minter)
    yield from _authorships(paper, key, record.authors, minter)
    record_node, record_slug = record_iri(record.source, minter)
    yield from institution_triples(paper, record, record_node, record_slug, minter)
    yield from _publication(paper, info, minter)
    if record.abstract:
        for url in find_urls(record.abstract):
            if (link := _link(url)) is not None:
                yield Triple(paper, SCHEMA.codeRepository if is_code_repository(url) else RDFS.seeAlso, link)
    if record.comments:
        yield Triple(paper, KG.comments, Literal(record.comments))
    if record.journal_ref:
        yield Triple(paper, KG.journalRef, Literal(record.journal_ref))
    yield from _provenance(paper, record.source, minter)


def _authorships(paper: NamedNode, key: str, authors: list[str], minter: Minter) -> Iterator[Triple]:
    for position, written in enumerate(authors, start=1):
        name = clean(written)
        person = NamedNode(minter.named("author", name))
        authorship = NamedNode(minter.part("authorship", key, str(position)))
        yield Triple(paper, DCTERMS.creator, person)
        yield Triple(paper, KG.authorship, authorship)
        yield Triple(authorship, RDF.type, KG.Authorship)
        yield Triple(authorship, KG.author, person)
        yield Triple(authorship, KG.position, _integer(position))
        yield Triple(authorship, KG.nameAsWritten, Literal(written))
        yield Triple(person, RDF.type, FOAF.Person)  # names: chosen across sources by kg.resolve.store_step


def venue_iri(venue: str, year: int | None, minter: Minter) -> NamedNode:
    return NamedNode(minter.named("venue", f"{venue} {year}" if year else venue))


def _publication(paper: NamedNode, info: PublicationInfo, minter: Minter) -> Iterator[Triple]:
    if info.venue:
        series = venue_iri(info.venue, None, minter)
        yield Triple(series, RDF.type, KG.ConferenceSeries)
        yield Triple(series, RDFS.label, Literal(info.venue))
        event = series
        if info.year:
            event = venue_iri(info.venue, info.year, minter)
            yield Triple(event, RDF.type, BIBO.Conference)
            yield Triple(event, RDF.type, SCHEMA.Event)
            yield Triple(event, SCHEMA.name, Literal(f"{info.venue} {info.year}"))
            yield Triple(event, RDFS.label, Literal(f"{info.venue} {info.year}"))
            yield Triple(event, KG.year, _integer(info.year))
            yield Triple(event, KG.series, series)
            if info.year_source == "listing":
                yield Triple(paper, KG.yearInferred, Literal(True))
        yield Triple(paper, BIBO.presentedAt, event)
        for workshop in info.workshops:
            node = NamedNode(minter.part("workshop", slug(f"{info.venue} {info.year or ''}"), slug(workshop.key)))
            yield Triple(node, RDF.type, KG.Workshop)
            yield Triple(node, RDF.type, SCHEMA.Event)
            yield Triple(node, SCHEMA.superEvent, event)
            yield Triple(node, RDFS.label, Literal(workshop.acronym or workshop.name))
            if workshop.name:
                yield Triple(node, SCHEMA.name, Literal(workshop.name))
            if workshop.acronym:
                yield Triple(node, KG.acronym, Literal(workshop.acronym))
            yield Triple(paper, BIBO.presentedAt, node)
    if info.track:
        yield Triple(paper, KG.track, TRACKS[info.track])
    for presentation in info.presentations:
        yield Triple(paper, KG.presentationType, PRESENTATIONS[presentation])
    if info.non_archival:
        yield Triple(paper, KG.nonArchival, Literal(True))
    for predicate, value in ((BIBO.numPages, info.pages), (KG.mainTextPages, info.main_pages),
                             (KG.figureCount, info.figures), (KG.tableCount, info.tables)):
        if value is not None:
            yield Triple(paper, predicate, _integer(value))
    if info.pmlr_volume is not None:
        proceedings = NamedNode(minter.iri("proceedings", f"pmlr-{info.pmlr_volume}"))
        yield Triple(proceedings, RDF.type, BIBO.Proceedings)
        yield Triple(proceedings, BIBO.volume, Literal(str(info.pmlr_volume)))
        yield Triple(proceedings, RDFS.label, Literal(f"PMLR volume {info.pmlr_volume}"))
        yield Triple(paper, DCTERMS.isPartOf, proceedings)
    for predicate, urls in ((SCHEMA.codeRepository, info.code_urls), (KG.projectPage, info.project_urls),
                            (KG.posterPage, info.poster_urls), (RDFS.seeAlso, info.other_urls)):
        for url in urls:
            if (link := _link(url)) is not None:
                yield Triple(paper, predicate, link)


def record_iri(ref: SourceRef, minter: Minter) -> tuple[NamedNode, str]:
    """The IRI of the record a paper was read from, and its local name."""
    local = f"{file_slug(ref.name)}--L{ref.line}"
    return NamedNode(minter.iri("record", local)), local


def _provenance(paper: NamedNode, ref: SourceRef, minter: Minter) -> Iterator[Triple]:
    record, _ = record_iri(ref, minter)
    yield Triple(paper, PROV.wasDerivedFrom, record)
    yield Triple(record, RDF.type, KG.ListingRecord)
    yield Triple(record, RDFS.label, Literal(f"{ref.name}:{ref.line}"))
    yield Triple(record, KG.line, _integer(ref.line))
    yield Triple(record, PROV.wasDerivedFrom, source_iri(ref.name, minter))
