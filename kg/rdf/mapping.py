"""Records -> triples: the one place that decides how a paper is said in RDF.

The shape is documented in ``ontology/kg.ttl``. Functions here are pure: the same record,
publication facts and configuration (the minter's base, the alias table: passed in, never read
from the environment or the store) always give the same triples, so exports are deterministic.
Triples are ``(subject, predicate, object)`` tuples of the terms' N-Triples texts (see :mod:`.terms`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Iterator

from pyoxigraph import NamedNode

from ..ingest.comments import VENUES, PublicationInfo
from ..ingest.identifiers import PAPER_PAGES, PERSON_PAGES
from ..ingest.urls import find_urls, is_code_repository
from ..orgs.aliases import AliasTable
from ..orgs.registry import Registry
from ..records import AuthorDetail, PaperRecord, SourceRef
from ..text.names import clean, has_cjk, match_key
from .id_notes import set_aside_id_triples
from .iris import Minter, digest, file_slug, slug
from .record_triples import affiliation_triples, institution_triples
from .terms import Statement, integer, link, literal, minted
from .topic_triples import record_analyses, topic_detail_triples, topic_triples
from .vocab_texts import BIBO, DCTERMS, FOAF, KG, PROV, RDF, RDFS, SCHEMA, SKOS, TRUE, XSD

if TYPE_CHECKING:  # spaCy is loaded by the analysis itself, when a source is read
    from ..nlp.analysis import Analysis

TRACKS = {
    "main": KG.MainTrack,
    "findings": KG.FindingsTrack,
    "position": KG.PositionTrack,
    "workshop": KG.WorkshopTrack,
}
PRESENTATIONS = {
    "oral": KG.Oral,
    "spotlight": KG.Spotlight,
    "poster": KG.Poster,
    "contributed-talk": KG.ContributedTalk,
}


def paper_slug(record: PaperRecord) -> str:
    """Papers are named by their title and byline: two listings of one title with other authors
    are two papers (else one paper's authorships would hold both bylines), the same title and
    authors, however written, in any source, one. Abstract-only papers by their first words and
    a digest.

    >>> where = SourceRef("listings/acl.json", "acl.json", 12, "paperlists")
    >>> paper_slug(PaperRecord(where, "", "Looms That Weave", authors=["Ada Lovelace", "Alan Turing"]))
    'looms-that-weave-c442ab'
    >>> paper_slug(PaperRecord(where, "", "Looms That Weave", authors=["Ada Lovelace"]))
    'looms-that-weave-177f85'
    >>> paper_slug(PaperRecord(where, "", abstract="We weave looms. They weave cloth of every colour and more."))
    'we-weave-looms-they-weave-cloth-of-every-b6135c34'
    """
    if record.title:
        byline = "|".join(match_key(author) for author in record.authors)
        return f"{slug(record.title)}-{digest(byline, 6)}" if byline else slug(record.title)
    words = " ".join((record.abstract or "").split()[:8])
    return f"{slug(words, 60)}-{digest(match_key(record.abstract or ''), 8)}"


def source_iri(source_name: str, minter: Minter) -> NamedNode:
    """The source file's IRI, which also names the graph of everything read from it.

    >>> source_iri("acl_2031.json", Minter("http://ex/")).value
    'http://ex/source/acl-2031-json'
    """
    return NamedNode(_source_value(source_name, minter))


def _source_value(source_name: str, minter: Minter) -> str:
    return minter.iri("source", file_slug(source_name))


def source_triples(
    name: str, format_name: str, venue_header: str, minter: Minter, modified: str | None = None
) -> Iterator[Statement]:
    """The source file: its name, format, venue header and (xsd:dateTime) modification time.

    >>> from kg.rdf.terms import ntriples
    >>> print(ntriples(source_triples("acl.json", "paperlists", "ACL 2031", Minter("http://ex/"))).decode())
    ... # doctest: +NORMALIZE_WHITESPACE
    <http://ex/source/acl-json> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>
        <https://kg.example.org/ontology#Source> .
    <http://ex/source/acl-json> <http://purl.org/dc/terms/title> "acl.json" .
    <http://ex/source/acl-json> <https://kg.example.org/ontology#format> "paperlists" .
    <http://ex/source/acl-json> <https://kg.example.org/ontology#venueHeader> "ACL 2031" .
    <BLANKLINE>
    """
    node = minted(_source_value(name, minter))
    yield node, RDF.type, KG.Source
    yield node, DCTERMS.title, literal(name)
    yield node, KG.format, literal(format_name)
    if modified is not None:
        yield node, DCTERMS.modified, modified
    if venue_header:
        yield node, KG.venueHeader, literal(venue_header)


def paper_triples(
    record: PaperRecord,
    info: PublicationInfo,
    minter: Minter,
    aliases: AliasTable,
    analysis: Analysis | None = None,
    registry: Registry | None = None,
) -> Iterator[Statement]:
    """Every triple one record states: the paper, its authorships, institutions, venue, provenance.
    ``analysis`` is the record's (:func:`record_analyses`), when it was made beside other records';
    ``registry`` identifies the organisations (none: the organisations as the rules read them).

    >>> from types import SimpleNamespace as Found
    >>> from kg.records import Institution
    >>> record = PaperRecord(
    ...     SourceRef("listings/acl.json", "acl.json", 12, "paperlists"),
    ...     "ACL 2031",
    ...     "Looms That Weave",
    ...     authors=["Ada Lovelace", "Alan Turing"],
    ...     institutions=[Institution("Loom University", "Loom University")],
    ... )
    >>> from kg.rdf.terms import iri_value
    >>> nothing_found = Found(topics=[], artifacts=[])
    >>> said = list(
    ...     paper_triples(record, PublicationInfo("ACL", 2031), Minter("http://ex/"), AliasTable({}, {}), nothing_found)
    ... )
    >>> for predicate in (DCTERMS.creator, SCHEMA.sourceOrganization, BIBO.presentedAt, PROV.wasDerivedFrom):
    ...     print([iri_value(obj) for subject, said_predicate, obj in said if said_predicate == predicate])
    ['http://ex/author/ada-lovelace', 'http://ex/author/alan-turing']
    ['http://ex/institution/loom-university']
    ['http://ex/venue/acl-2031']
    ['http://ex/record/acl-json--L12', 'http://ex/source/acl-json']
    """
    key = paper_slug(record)
    paper = minted(minter.iri("paper", key))
    yield paper, RDF.type, SCHEMA.ScholarlyArticle
    if record.title:
        yield paper, DCTERMS.title, literal(record.title, "en")  # its label too: no rdfs:label repeats it
    if record.title_zh and has_cjk(record.title_zh):
        yield paper, DCTERMS.title, literal(record.title_zh, "zh")
    if record.abstract:
        yield paper, DCTERMS.abstract, literal(record.abstract, "en")
    if record.summary_zh:
        yield paper, KG.summary, literal(record.summary_zh, "zh" if has_cjk(record.summary_zh) else None)
    yield from topic_triples(paper, record_analyses([record])[0] if analysis is None else analysis, minter)
    yield from _authorships(paper, key, record.authors, minter, record.author_details, aliases, registry)
    yield from _identifiers(paper, record, minter)
    record_node, record_slug = record_iri(record.source, minter)
    yield from institution_triples(paper, record, record_node, record_slug, minter, aliases, registry)
    yield from set_aside_id_triples(record, record_node, record_slug, minter)
    yield from _publication(paper, info, minter)
    if record.abstract:
        for url in find_urls(record.abstract):
            if is_code_repository(url):
                yield from _code(paper, url, minter)
            elif (page := link(url)) is not None:
                yield paper, RDFS.seeAlso, page
    if record.comments:
        yield paper, KG.comments, literal(record.comments)
    if record.journal_ref:
        yield paper, KG.journalRef, literal(record.journal_ref)
    yield from _provenance(paper, record.source, minter)


def paper_detail_triples(record: PaperRecord, minter: Minter, analysis: Analysis | None = None) -> Iterator[Statement]:
    """What the record's source's detail graph states of the paper: its topic assignments."""
    paper = minted(minter.iri("paper", paper_slug(record)))
    yield from topic_detail_triples(
        paper, record, record_analyses([record])[0] if analysis is None else analysis, minter
    )


def person_ids(detail: AuthorDetail | None) -> list[tuple[str, str]]:
    """(kind, id) of the identifiers a source gives a person, strongest first.

    >>> person_ids(AuthorDetail(orcid="0000-0002-1825-0097", openreview="~Ada_Lovelace1"))
    [('openreview', '~Ada_Lovelace1'), ('orcid', '0000-0002-1825-0097')]
    """
    if detail is None:
        return []
    named = (
        ("openreview", detail.openreview),
        ("orcid", detail.orcid),
        ("dblp", detail.dblp),
        *detail.other_ids,
        ("email", detail.email),
    )
    return [(kind, value) for kind, value in named if value]


def person_iri(name: str, detail: AuthorDetail | None, minter: Minter) -> str:
    """A person with an identifier is named by it (``author/jia-li1--openreview``), whatever the
    name is written as; one without is named by the name. Slugs never hold ``--``, so the two
    kinds cannot collide; an e-mail is not published, only a digest of it names the person.

    >>> minter = Minter("http://ex/")
    >>> person_iri("Ada Lovelace", AuthorDetail(openreview="~Ada_Lovelace1"), minter)
    '<http://ex/author/ada-lovelace1--openreview>'
    >>> person_iri("Ada Lovelace", AuthorDetail(email="ada@loom.edu"), minter)
    '<http://ex/author/354a6b72f7--email>'
    >>> person_iri("Ada Lovelace", None, minter)
    '<http://ex/author/ada-lovelace>'
    """
    ids = person_ids(detail)
    if not ids:
        return minted(minter.named("author", name))
    kind, value = ids[0]
    return minted(minter.part("author", digest(value) if kind == "email" else slug(value), kind))


def _person_details(
    person: str,
    authorship: str,
    detail: AuthorDetail,
    minter: Minter,
    aliases: AliasTable,
    registry: Registry | None,
) -> Iterator[Statement]:
    for kind, value in person_ids(detail):
        if kind in PERSON_PAGES and (page := link(PERSON_PAGES[kind].format(value))) is not None:
            yield person, SCHEMA.sameAs, page
    if detail.openreview:
        yield person, KG.openReviewId, literal(detail.openreview)
    for affiliation in detail.affiliations:
        yield from affiliation_triples(authorship, affiliation, minter, aliases, registry)


def _identifiers(paper: str, record: PaperRecord, minter: Minter) -> Iterator[Statement]:
    """DOI, arXiv id and OpenReview forum as links to their pages, keywords, stated URLs."""
    for kind, value in (("doi", record.doi), ("arxiv", record.arxiv_id), ("openreview", record.openreview_id)):
        if value and (page := link(PAPER_PAGES[kind].format(value))) is not None:
            yield paper, SCHEMA.sameAs, page
    if record.doi:
        yield paper, BIBO.doi, literal(record.doi)
    if record.arxiv_id:
        yield paper, KG.arxivId, literal(record.arxiv_id)
    if record.arxiv_version:
        yield paper, KG.arxivVersion, integer(record.arxiv_version)
    if record.openreview_id:
        yield paper, KG.openReviewId, literal(record.openreview_id)
    for keyword in record.keywords:
        yield paper, SCHEMA.keywords, literal(keyword)
    for url in record.code_urls:
        yield from _code(paper, url, minter)
    for predicate, urls in ((KG.projectPage, record.project_urls), (RDFS.seeAlso, record.other_urls)):
        for url in urls:
            if (page := link(url)) is not None:
                yield paper, predicate, page


def _authorships(
    paper: str,
    key: str,
    authors: list[str],
    minter: Minter,
    details: list[AuthorDetail] | None,
    aliases: AliasTable,
    registry: Registry | None,
) -> Iterator[Statement]:
    for position, written in enumerate(authors, start=1):
        name = _cleaned_name(written)
        detail = details[position - 1] if details else None
        person = person_iri(name, detail, minter)
        authorship = minted(minter.part("authorship", key, str(position)))
        yield paper, DCTERMS.creator, person
        yield paper, KG.authorship, authorship
        yield authorship, KG.author, person
        yield authorship, KG.position, integer(position)
        yield authorship, KG.nameAsWritten, literal(written)
        yield person, RDF.type, FOAF.Person  # names: chosen across sources by kg.resolve.store_step
        if detail is not None:
            yield from _person_details(person, authorship, detail, minter, aliases, registry)


# the same people are named on many papers: each spelling is cleaned once (bounded: memory stays flat)
_cleaned_name = lru_cache(maxsize=1 << 16)(clean)


def venue_iri(venue: str, year: int | None, minter: Minter) -> str:
    """A conference's edition of a year, or its series where the year is not known.

    >>> venue_iri("ACL", 2031, Minter("http://ex/")), venue_iri("ACL", None, Minter("http://ex/"))
    ('<http://ex/venue/acl-2031>', '<http://ex/venue/acl>')
    """
    return minted(minter.named("venue", f"{venue} {year}" if year else venue))


def _publication(paper: str, info: PublicationInfo, minter: Minter) -> Iterator[Statement]:
    """Where and how the paper was presented, its pages and counts, proceedings and links."""
    if info.venue:
        yield from _venue(paper, info, minter)
    if info.track:
        yield paper, KG.track, TRACKS[info.track]
    for presentation in info.presentations:
        yield paper, KG.presentationType, PRESENTATIONS[presentation]
    if info.non_archival:
        yield paper, KG.nonArchival, TRUE
    for predicate, value in (
        (BIBO.numPages, info.pages),
        (KG.mainTextPages, info.main_pages),
        (KG.figureCount, info.figures),
        (KG.tableCount, info.tables),
    ):
        if value is not None:
            yield paper, predicate, integer(value)
    if info.pmlr_volume is not None:
        proceedings = minted(minter.iri("proceedings", f"pmlr-{info.pmlr_volume}"))
        yield proceedings, RDF.type, BIBO.Proceedings
        yield proceedings, BIBO.volume, literal(str(info.pmlr_volume))
        yield proceedings, RDFS.label, literal(f"PMLR volume {info.pmlr_volume}")
        yield paper, DCTERMS.isPartOf, proceedings
    for url in info.code_urls:
        yield from _code(paper, url, minter)
    for predicate, urls in (
        (KG.projectPage, info.project_urls),
        (KG.posterPage, info.poster_urls),
        (RDFS.seeAlso, info.other_urls),
    ):
        for url in urls:
            if (page := link(url)) is not None:
                yield paper, predicate, page


def _venue(paper: str, info: PublicationInfo, minter: Minter) -> Iterator[Statement]:
    """The conference series, the year's edition (where the year is known) and the workshops the
    paper was presented at."""
    series = venue_iri(info.venue, None, minter)
    yield series, RDF.type, KG.ConferenceSeries
    yield series, RDF.type, SCHEMA.EventSeries
    yield series, SKOS.prefLabel, literal(info.venue)
    for name in VENUES.get(info.venue, ()):  # a well-known conference is also found by its full name
        yield series, SKOS.altLabel, literal(name)
    event = series
    if info.year:
        event = venue_iri(info.venue, info.year, minter)
        yield event, RDF.type, BIBO.Conference
        yield event, RDF.type, SCHEMA.Event
        yield event, SKOS.prefLabel, literal(f"{info.venue} {info.year}")
        year = literal(str(info.year), datatype=XSD.gYear)
        yield event, SCHEMA.startDate, year
        yield event, DCTERMS.date, year
        yield event, SCHEMA.superEvent, series  # the paper's year is its edition's schema:startDate
        if info.year_source == "listing":
            yield paper, KG.yearInferred, TRUE
    yield paper, BIBO.presentedAt, event
    for workshop in info.workshops:
        node = minted(minter.part("workshop", slug(f"{info.venue} {info.year or ''}"), slug(workshop.key)))
        yield node, RDF.type, KG.Workshop
        yield node, RDF.type, SCHEMA.Event
        yield node, SCHEMA.superEvent, event
        yield node, SKOS.prefLabel, literal(workshop.acronym or workshop.name)
        if workshop.acronym and workshop.name:  # the full name, where the acronym is the label
            yield node, SKOS.altLabel, literal(workshop.name)
        yield paper, BIBO.presentedAt, node


def _code(paper: str, url: str, minter: Minter) -> Iterator[Statement]:
    """A code repository as schema.org says it: software source code (one node per repository URL)
    that is based on the paper and has the URL as its ``schema:codeRepository``."""
    if (page := link(url)) is None:
        return
    code = minted(minter.iri("code", f"{slug(url.split('://', 1)[-1], 60)}-{digest(url, 8)}"))
    yield code, RDF.type, SCHEMA.SoftwareSourceCode
    yield code, SCHEMA.codeRepository, page
    yield code, SCHEMA.isBasedOn, paper


def record_iri(ref: SourceRef, minter: Minter) -> tuple[str, str]:
    """The IRI of the record a paper was read from, and its local name.

    >>> node, local = record_iri(SourceRef("listings/acl.json", "acl.json", 12, "paperlists"), Minter("http://ex/"))
    >>> node, local
    ('<http://ex/record/acl-json--L12>', 'acl-json--L12')
    """
    local = f"{file_slug(ref.name)}--L{ref.line}"
    return minted(minter.iri("record", local)), local


def _provenance(paper: str, ref: SourceRef, minter: Minter) -> Iterator[Statement]:
    """The record the paper was read from: its line, and the source it is part of. The record is
    not typed (``kg:line`` has ``kg:ListingRecord`` as its domain) nor labelled (its source's title
    and its line say it)."""
    record, _ = record_iri(ref, minter)
    yield paper, PROV.wasDerivedFrom, record
    yield record, KG.line, integer(ref.line)
    yield record, PROV.wasDerivedFrom, minted(_source_value(ref.name, minter))
