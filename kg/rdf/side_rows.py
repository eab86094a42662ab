"""The rows the resolution step counts, taken from each record's statements as they are mapped.

The resolution step (:mod:`kg.resolve.store_step`) chooses people's display names and counts
co-authors and institutions over the whole store. Reading those facts back out of the store decodes
every term again; the mapping has them in hand. So each record's statements leave, beside their
N-Triples lines, a few text lines of what is counted (:func:`side_lines`), in the form the
resolution step reads from the store for the sources it did not stage (``kg.resolve.aggregates``,
``kg.resolve.written_forms``):

- a **fact** line ``F<TAB>subject<TAB>kind<TAB>value`` for each listed institution, topic, track,
  presentation, creator, authorship, introduced artifact and event of a paper, and each affiliation of one of its
  authorships; and for each English title and each abstract's start (:data:`ABSTRACT_START` characters),
  which the paper's display title is made of, the text as JSON (:func:`text_value`); for each affiliation of
  an authorship with an author, ``authorship person institution`` (kind :data:`AFFILIATED`), and for each
  conference the paper was presented at, its year (kind :data:`YEAR`, the ``schema:startDate``'s lexical
  form): what the precomputed lists' rows are made of (:mod:`kg.resolve.list_rows`); and of each artifact a
  paper introduces, each of its names (kind :data:`ARTIFACT_NAME`, :func:`artifact_name`) and classes (kind
  :data:`ARTIFACT_CLASS`), with the artifact as subject (:mod:`kg.resolve.artifact_rows`);
- a **form** line ``N<TAB>person<TAB>language<TAB>name as written (JSON)<TAB>authorship`` for each
  authorship;
- **paper** lines ``P<TAB>paper<TAB>kind<TAB>value``, what the merges of papers across sources are decided
  on (:class:`kg.resolve.paper_facts.PaperFacts`): the paper itself (kind ``paper``), its English title and
  its abstract (JSON), its links (its pages and code repositories), the conference it was presented at,
  and its record's line (:func:`paper_lines`).

Both are what the statements say, so the graph and its counts cannot disagree.
"""

from __future__ import annotations

import json
from typing import Iterable, Iterator

from ..vocab import BIBO, DCTERMS, KG, PROV, RDF, RDFS, SCHEMA, SKOS
from .terms import Statement, iri_value, literal_value

FACT, FORM, PAPER = "F\t", "N\t", "P\t"
# predicate -> the kind of fact a paper's statement with it is
PAPER_FACT_KINDS = {
    SCHEMA.sourceOrganization: "listed",
    DCTERMS.subject: "topic",
    KG.track: KG.track.value,
    KG.presentationType: KG.presentationType.value,
    DCTERMS.creator: "author",
    KG.authorship: "authorship",
    KG.introduces: "introduces",
    BIBO.presentedAt: "event",
}
AFFILIATION = "affiliation"  # an authorship's kg:affiliation, counted for its paper
AFFILIATED = "affiliated"  # an authorship's kg:affiliation with the authorship and its author: who is where
YEAR = "year"  # the schema:startDate of a bibo:Conference the paper was presented at
# predicate -> the kind of a paper's text its display title is made of (a title only when English)
TEXT_KINDS = {DCTERMS.title: "title", DCTERMS.abstract: "abstract"}
ABSTRACT_START = 80  # characters of an abstract a display title shows (queries/checks/artifacts.rq)
ARTIFACT_NAME = "artifact name"  # an introduced artifact's skos:prefLabel, as :func:`artifact_name` writes it
ARTIFACT_CLASS = "artifact class"  # an introduced artifact's rdf:type


def fact_line(subject: str, kind: str, value: str) -> str:
    r"""A fact line's fields, tab-separated (without the kind of line).

    >>> fact_line("http://ex/paper/p", "topic", "http://ex/topic/nlp").split("\t")
    ['http://ex/paper/p', 'topic', 'http://ex/topic/nlp\n']
    """
    return f"{subject}\t{kind}\t{value}\n"


def text_value(kind: str, text: str) -> str:
    """A title's or an abstract's fact value: what the display title takes of it, as JSON (no tab, no newline).

    >>> text_value("abstract", "x" * 100) == '"' + "x" * ABSTRACT_START + '"'
    True
    """
    return json.dumps(text[:ABSTRACT_START] if kind == "abstract" else text)


def artifact_name(name) -> str:
    """An artifact's name as a fact value: ``[text, language]`` as JSON ("" for none).

    >>> from pyoxigraph import Literal
    >>> artifact_name(Literal("LoomNet"))
    '["LoomNet", ""]'
    """
    return _artifact_name(name.value, name.language or "")


def _artifact_name(text: str, language: str) -> str:
    return json.dumps([text, language])


def form_line(person: str, language: str, written: str, authorship: str) -> str:
    r"""A form line's fields, the name as written in JSON so that any character fits a field.

    >>> form_line("http://ex/author/ada", "en", 'Ada "the Countess" Lovelace', "http://ex/authorship/p--1").split("\t")
    ['http://ex/author/ada', 'en', '"Ada \\"the Countess\\" Lovelace"', 'http://ex/authorship/p--1\n']
    """
    return f"{person}\t{language}\t{json.dumps(written)}\t{authorship}\n"


# every predicate a side row is made from (as the statements write it) -> its kind, so that a statement
# of any other costs one look-up
_KINDS = {
    str(predicate): kind
    for predicate, kind in {
        **PAPER_FACT_KINDS,
        **TEXT_KINDS,
        KG.affiliation: AFFILIATION,
        KG.author: "author of",
        KG.nameAsWritten: "written",
        SCHEMA.startDate: "start",
        RDF.type: "type",
        SKOS.prefLabel: "label",
    }.items()
}
_TEXT = frozenset(TEXT_KINDS.values())
_OF_NODES = frozenset({"start", "type", "label"})  # what the conferences' years and the artifacts are read from


def side_lines(statements: Iterable[Statement]) -> Iterator[str]:
    r"""The fact and form lines of one record's statements (each line prefixed by its kind).

    >>> from kg.rdf.terms import literal, minted
    >>> from kg.rdf.vocab_texts import KG
    >>> paper, authorship = minted("http://ex/paper/p"), minted("http://ex/authorship/p--1")
    >>> said = [(paper, KG.authorship, authorship), (authorship, KG.author, minted("http://ex/author/ada"))]
    >>> for line in side_lines([*said, (authorship, KG.nameAsWritten, literal("Ada Lovelace", "en"))]):
    ...     print(line.split("\t"))
    ['F', 'http://ex/paper/p', 'authorship', 'http://ex/authorship/p--1\n']
    ['N', 'http://ex/author/ada', 'en', '"Ada Lovelace"', 'http://ex/authorship/p--1\n']
    """
    statements = list(statements)
    yield from paper_lines(statements)
    years, artifacts = _Years(), _Artifacts()
    paper_of: dict[str, str] = {}  # authorship -> paper
    author_of: dict[str, str] = {}  # authorship -> person
    affiliations: list[tuple[str, str]] = []  # (authorship, institution)
    for subject, predicate, obj in statements:
        kind = _KINDS.get(predicate)
        if kind is None:
            continue
        subject = iri_value(subject)  # a subject is an IRI; so is the object of every kind but four
        if kind == "author of":
            author_of[subject] = iri_value(obj)
        elif kind == "written":
            if (person := author_of.get(subject)) is not None:
                written, language = literal_value(obj)
                yield FORM + form_line(person, language, written, subject)
        elif kind in _TEXT:
            text, language = literal_value(obj)
            if kind == "abstract" or language == "en":
                yield FACT + fact_line(subject, kind, text_value(kind, text))
        elif kind == AFFILIATION:
            affiliations.append((subject, iri_value(obj)))
            if (paper := paper_of.get(subject)) is not None:
                yield FACT + fact_line(paper, AFFILIATION, iri_value(obj))
        elif kind in _OF_NODES:
            years.see(kind, subject, obj)
            artifacts.see(kind, subject, obj)
        else:
            obj = iri_value(obj)
            if kind == "authorship":
                paper_of[obj] = subject
            elif kind == "event":
                years.see(kind, subject, obj)
            artifacts.see(kind, subject, obj)
            yield FACT + fact_line(subject, kind, obj)
    yield from years.lines()
    yield from artifacts.lines()
    yield from _affiliated_lines(affiliations, paper_of, author_of)


def _affiliated_lines(
    affiliations: list[tuple[str, str]], paper_of: dict[str, str], author_of: dict[str, str]
) -> Iterator[str]:
    """Who is where: an :data:`AFFILIATED` line for each (authorship, institution) of a paper with its person."""
    for authorship, institution in affiliations:
        if (paper := paper_of.get(authorship)) is not None and (person := author_of.get(authorship)) is not None:
            yield FACT + fact_line(paper, AFFILIATED, f"{authorship} {person} {institution}")


_CONFERENCE = str(BIBO.Conference)


class _Years:
    """A record's papers' :data:`YEAR` lines: the start dates of the conferences among what each was presented
    at, from the statements seen in one pass (by kind: "event", "start", "type"; the subject and an event as
    IRIs, any other object as its text)."""

    def __init__(self):
        self.presented: list[tuple[str, str]] = []  # (paper, event)
        self.starts: dict[str, list[str]] = {}  # event -> its start dates
        self.conferences: set[str] = set()

    def see(self, kind: str, subject: str, obj: str) -> None:
        if kind == "event":
            self.presented.append((subject, obj))
        elif kind == "start":
            self.starts.setdefault(subject, []).append(literal_value(obj)[0])
        elif obj == _CONFERENCE:
            self.conferences.add(subject)

    def lines(self) -> Iterator[str]:
        for paper, event in self.presented:
            if event in self.conferences:
                yield from (FACT + fact_line(paper, YEAR, year) for year in self.starts.get(event, ()))


class _Artifacts:
    """The :data:`ARTIFACT_NAME` and :data:`ARTIFACT_CLASS` lines of the artifacts a record's papers introduce, from
    the statements seen in one pass (by kind: "introduces", "type", "label"; the subject and what is introduced
    as IRIs, any other object as its text)."""

    def __init__(self):
        self.introduced: set[str] = set()
        self.said: list[tuple[str, str, str]] = []  # (node, kind, value) of every node's type and label

    def see(self, kind: str, subject: str, obj: str) -> None:
        if kind == "introduces":
            self.introduced.add(obj)
        elif kind == "type":
            self.said.append((subject, ARTIFACT_CLASS, obj))
        elif kind == "label":
            self.said.append((subject, ARTIFACT_NAME, obj))

    def lines(self) -> Iterator[str]:
        for node, kind, obj in self.said:
            if node in self.introduced:
                value = iri_value(obj) if kind == ARTIFACT_CLASS else _artifact_name(*literal_value(obj))
                yield FACT + fact_line(node, kind, value)


# predicate -> what a statement with it tells of a record's paper (the merges' facts), looked up once
_PAPER_SAID = {
    str(predicate): kind
    for predicate, kind in {
        RDF.type: "type",
        DCTERMS.title: "title",
        DCTERMS.abstract: "abstract",
        KG.projectPage: "url",
        RDFS.seeAlso: "url",
        SCHEMA.sameAs: "url",
        SCHEMA.codeRepository: "code",
        SCHEMA.isBasedOn: "based on",
        BIBO.presentedAt: "presented at",
        PROV.wasDerivedFrom: "derived from",
        KG.line: "line",
    }.items()
}
_PAPER, _CONFERENCE_CLASS = str(SCHEMA.ScholarlyArticle), str(BIBO.Conference)


def paper_lines(statements: Iterable[Statement]) -> Iterator[str]:
    r"""The paper lines of one record's statements: what ``read_papers`` of :mod:`kg.resolve.store_step` reads
    of its paper (a link: ``kg:projectPage|rdfs:seeAlso|schema:sameAs|^schema:isBasedOn/schema:codeRepository``;
    the conference: a ``bibo:presentedAt`` typed ``bibo:Conference``; the line: ``prov:wasDerivedFrom/kg:line``).

    >>> from kg.rdf.terms import minted
    >>> from kg.rdf.vocab_texts import KG, RDF, SCHEMA
    >>> paper = minted("http://ex/paper/p")
    >>> for line in paper_lines([(paper, RDF.type, SCHEMA.ScholarlyArticle), (paper, KG.projectPage, minted("http://p"))]):
    ...     print(line.split("\t"))
    ['P', 'http://ex/paper/p', 'paper', '\n']
    ['P', 'http://ex/paper/p', 'url', 'http://p\n']
    """
    said: dict[str, list[tuple[str, str]]] = {}  # kind -> (subject's IRI, object's text) of the statements of it
    typed: dict[str, list] = {}  # class -> the subjects typed with it (a look-up each, not a comparison a class)
    for subject, predicate, obj in statements:
        if (kind := _PAPER_SAID.get(predicate)) is None:
            continue
        if kind == "type":
            typed.setdefault(obj, []).append(iri_value(subject))
        else:
            said.setdefault(kind, []).append((iri_value(subject), obj))
    conferences = set(typed.get(_CONFERENCE_CLASS, ()))
    for paper in sorted(set(typed.get(_PAPER, ()))):
        yield PAPER + fact_line(paper, "paper", "")
        yield from _one_paper_lines(paper, said, conferences)


def _one_paper_lines(paper: str, said: dict[str, list[tuple[str, str]]], conferences: set[str]) -> Iterator[str]:
    """The lines of one paper after its first: what its record's statements (``said``, by kind) say of it."""
    lines = {subject: literal_value(obj)[0] for subject, obj in said.get("line", ())}
    for kind in _KINDS_OF_PAPER:
        for subject, obj in said.get(kind, ()):
            if subject == paper and (value := _paper_value(kind, obj, conferences, lines)) is not None:
                yield PAPER + fact_line(paper, *value)
    code = {subject: iri_value(obj) for subject, obj in said.get("code", ())}
    for subject, obj in said.get("based on", ()):
        if iri_value(obj) == paper and subject in code:
            yield PAPER + fact_line(paper, "url", code[subject])


_KINDS_OF_PAPER = ("title", "abstract", "url", "presented at", "derived from")


def _paper_value(kind: str, obj: str, conferences: set[str], lines: dict[str, str]) -> tuple[str, str] | None:
    """(kind of paper line, value) of one statement of the paper's (its object's text), or None when it says none."""
    if kind == "title":
        title, language = literal_value(obj)
        return ("title", json.dumps(title)) if language == "en" else None
    if kind == "abstract":
        return "abstract", json.dumps(literal_value(obj)[0])
    node = iri_value(obj)
    if kind == "url":
        return "url", node
    if kind == "presented at":
        return ("venue", node) if node in conferences else None
    return ("line", lines[node]) if node in lines else None
