"""Organisations placed under another organisation of the corpus whose name begins theirs.

A lab, a division or a campus is often written as its organisation's name and a few words
more: "Google DeepMind", "Intel Labs", "Meta Platforms", "Amazon Web Services", "University of
Washington, Seattle", "University of Michigan - Ann Arbor". Where the alias table knows the
organisation, the mapping already makes such a name its unit (:func:`.institutions.brand_parent`).
For the organisations it does not know, the corpus is the evidence: when another source entry
names the shorter organisation alone ("Intel", "University of Michigan"), the longer name is
made a unit of it, so questions about the organisation include its labs and campuses.

The words added must be a lab's or a place's, never an institution's of its own: not a
university, an institute, a college, an academy, a company's legal form, "State" or
"Technological" ("Toyota Technological Institute at Chicago" is no unit of Toyota, "Penn State
University" none of "Penn"), and no joining word ("National University of Singapore" is no unit
of a "National University"). Where the shorter name is itself a university's, an institute's or
a school's, the longer one must also write the added words apart, after a comma, a dash or
"at", the way campuses are written ("University of Washington, Seattle", "State University of
New York at Binghamton"; there a town named like an organisation, "…, College Park", is a
place too): run on, they name institutions of their own ("École Normale
Supérieure Paris-Saclay" is no campus of the École Normale Supérieure, "Swiss Federal Institute
of Technology Lausanne" none of "Swiss Federal Institute of Technology"). A name the alias
table knows keeps the place the table gives it.
Nothing is merged: each name keeps its own node, so "University of California, Irvine" and
"…, Berkeley" stay two institutions, both within "University of California" where the corpus
names it. Derived from the whole store, so it never depends on the order sources came in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator

import pyoxigraph as ox

from ..orgs.institutions import OWN_INSTITUTION_WORDS, PREPOSITIONS, place_shaped
from ..orgs.keys import institution_key
from ..orgs.lexicon import word_list
from ..orgs.org_names import COMPANY_NAME_WORDS, COUNTRIES, LAB_WORDS, UNIT_WORDS, UNIVERSITY_WORDS
from ..rdf.iris import Minter, slug
from ..stores.embedded import KGStore
from ..text.names import match_key
from ..vocab import KG, ORG, RDF, RDFS, sparql_prologue

# Top-level organisations of the sources (the derived graph's own units left out, so the last
# run's placings do not count), those the alias table named, and units scoped by an e-mail domain.
TOP_LEVEL = (
    sparql_prologue()
    + """
SELECT DISTINCT ?org ?named WHERE {
  GRAPH ?g { ?org a org:Organization } FILTER(?g != RESOLVED)
  FILTER NOT EXISTS { GRAPH ?h { ?org org:subOrganizationOf ?parent } FILTER(?h != RESOLVED) }
  FILTER NOT EXISTS { ?org kg:scopedByDomain ?domain }
  OPTIONAL { GRAPH ?k { ?org skos:prefLabel ?label } FILTER(?k != RESOLVED) BIND(true AS ?named) }
}"""
)
# Units the sources place under their parents ("Amazon, AWS AI Labs"), for the other forms of a unit.
UNITS = (
    sparql_prologue()
    + """
SELECT DISTINCT ?unit ?parent WHERE { GRAPH ?g { ?unit org:subOrganizationOf ?parent } FILTER(?g != RESOLVED) }"""
)
LABELS = (
    sparql_prologue()
    + """
SELECT ?org ?label WHERE { ?org kg:nameAsWritten ?label FILTER(lang(?label) = "en") }"""
)
# Words after an organisation's name that make another institution of it, not its lab or campus.
INSTITUTION_AFTER_NAME_WORDS = OWN_INSTITUTION_WORDS | word_list("own_institution_after_name")
# Words that name a person, not a lab: "Independent Researcher" is no unit of an "Independent"
# (both say the author has no organisation).
PERSON_WORDS = word_list("person_word")
JOINING_WORDS = PREPOSITIONS | word_list("joining_extra")
# Names with these words are institutions' names, whose campuses are written apart from them.
ACADEMIC_WORDS = UNIVERSITY_WORDS | word_list("academic_extra")
# Words of a lab's or a division's name.
LAB_NAME_WORDS = UNIT_WORDS | LAB_WORDS | word_list("lab_name_extra")
# Where a campus or a place is written apart from its institution's name.
_APART = re.compile(r",|\s[-–—]\s|\sat\s")


def key_words(iri: str) -> tuple[str, ...] | None:
    """The identity key's words of a top-level organisation, read back from its IRI
    (``institution/{slug(key)}``); None where the slug was cut short or is a unit's."""
    local = iri.rsplit("/", 1)[-1]
    words = tuple(local.split("-"))
    return words if "--" not in local and slug(" ".join(words)) == local else None


def added_words_make_unit(added: tuple[str, ...]) -> bool:
    """Words after an organisation's name that name a lab, a division or a place of it
    ("deepmind", "web services", "seattle"), not an institution of its own nor a person ("researcher")."""
    return (
        bool(added)
        and added[0] not in JOINING_WORDS
        and not set(added) & (INSTITUTION_AFTER_NAME_WORDS | JOINING_WORDS | PERSON_WORDS)
    )


def written_apart(parent: tuple[str, ...], forms: Iterable[str]) -> bool:
    """Whether one of a name's written forms has the parent's name before a comma, a dash or
    "at" ("University of Washington, Seattle")."""
    key = " ".join(parent)
    return any(
        institution_key(match.string[: match.start()]) == key for form in forms for match in _APART.finditer(form)
    )


def name_parents(
    organisations: Iterable[tuple[str, bool]], written: dict[str, list[str]] | None = None
) -> dict[str, str]:
    """(IRI, named by the alias table) of top-level organisations -> {unit IRI: parent IRI}: the
    longest other organisation whose key begins the unit's, or is a company named by the words
    that begin it ("Huawei Technologies" for "Huawei Noah's Ark Lab"), where the words added make
    a unit (written apart where the parent is an academic institution; ``written``: IRI -> forms)."""
    written = written or {}
    by_words, unknown = _organisations_by_words(organisations)
    parents: dict[str, str] = {}
    for iri, words in unknown:
        forms = written.get(iri, ())
        parent = _parent_beginning(iri, words, forms, by_words) or _organisation_after(words, forms, by_words)
        if parent not in (None, iri):
            parents[iri] = parent
    return parents


def _organisations_by_words(
    organisations: Iterable[tuple[str, bool]],
) -> tuple[dict[tuple[str, ...], str], list[tuple[str, tuple[str, ...]]]]:
    """The organisations by the words of their key (the first IRI in order for a key), and those
    the alias table did not name, with their words: the ones that may be units."""
    by_words: dict[tuple[str, ...], str] = {}
    unknown: list[tuple[str, tuple[str, ...]]] = []
    for iri, named in sorted(organisations):
        if (words := key_words(iri)) is None:
            continue
        by_words.setdefault(words, iri)
        if not named:
            unknown.append((iri, words))
    return by_words, unknown


def _organisation_named_by(head: tuple[str, ...], by_words: dict[tuple[str, ...], str]) -> str | None:
    """The organisation whose key is ``head``, or a company named by ``head`` and a company word
    ("Huawei" -> "Huawei Technologies")."""
    return by_words.get(head) or next(
        (by_words[named] for word in COMPANY_NAME_WORDS if (named := (*head, word)) in by_words), None
    )


def _parent_beginning(
    iri: str, words: tuple[str, ...], forms: Iterable[str], by_words: dict[tuple[str, ...], str]
) -> str | None:
    """The longest other organisation whose words begin the unit's, where the words added make a
    unit (written apart where the parent is an academic institution)."""
    for end in range(len(words) - 1, 0, -1):
        parent = _organisation_named_by(words[:end], by_words)
        if parent is None or parent == iri or " ".join(words[:end]) in COUNTRIES:
            continue
        apart = written_apart(words[:end], forms)
        # a campus town named like an organisation ("…, College Park") is a place when written apart
        added = added_words_make_unit(words[end:]) or (apart and place_shaped(" ".join(words[end:])))
        if added and (apart or not set(words[:end]) & ACADEMIC_WORDS):
            return parent
    return None


def _organisation_after(
    words: tuple[str, ...], forms: Iterable[str], by_words: dict[tuple[str, ...], str]
) -> str | None:
    """The organisation of the corpus written after the last comma of a lab's name, where the
    mapping read it as the lab's place ("Noah's Ark Lab, Huawei Technologies", "WeChat AI, Zorblax"),
    or after "at" ("Robotics at Zorblax", as "X at Y" is a unit of a Y the alias table knows)."""
    for form in forms:
        for head, tail, is_unit in (
            (*form.rpartition(",")[::2], lambda unit: bool(set(unit) & LAB_NAME_WORDS)),
            (*form.rpartition(" at ")[::2], added_words_make_unit),
        ):
            unit, parent = tuple(institution_key(head).split()), tuple(institution_key(tail).split())
            if head and (*unit, *parent) == words and parent in by_words and is_unit(unit):
                return by_words[parent]
    return None


@dataclass(frozen=True)
class CorpusOrganisations:
    """What the placements by name read from the store, once for both (:mod:`.other_names` too):
    the top-level organisations with whether the alias table named them, each organisation's
    written forms and the units the sources place under a parent (unit IRI -> parent IRI)."""

    top_level: list[tuple[str, bool]]
    written: dict[str, list[str]]
    units: dict[str, str] = field(default_factory=dict)


def corpus_organisations(store: KGStore, resolved: ox.NamedNode) -> CorpusOrganisations:
    written: dict[str, list[str]] = {}
    for org, label in store.select_terms(LABELS):
        written.setdefault(org.value, []).append(label.value)
    units = {unit.value: parent.value for unit, parent in store.select_terms(UNITS.replace("RESOLVED", str(resolved)))}
    return CorpusOrganisations(
        [
            (org.value, named is not None)
            for org, named in store.select_terms(TOP_LEVEL.replace("RESOLVED", str(resolved)))
        ],
        written,
        units,
    )


def name_unit_triples(
    corpus: CorpusOrganisations, minter: Minter, more: dict[str, str] | None = None
) -> Iterator[ox.Triple]:
    """``org:subOrganizationOf`` from each organisation to the one whose name begins its own, with
    a ``kg:UnitByName`` record of why (for ``kg quality``); ``more``: units placed by other name
    rules ({unit IRI: parent IRI}, :func:`.unit_forms.company_labs`), where these place none."""
    written = corpus.written
    parents = name_parents(corpus.top_level, written)
    for lab, company in (more or {}).items():
        parents.setdefault(lab, company)
    labels = {iri: min(forms) for iri, forms in written.items()}
    for unit_iri, parent_iri in sorted(parents.items()):
        unit, parent = ox.NamedNode(unit_iri), ox.NamedNode(parent_iri)
        yield ox.Triple(unit, ORG.subOrganizationOf, parent)
        yield ox.Triple(unit, RDF.type, ORG.OrganizationalUnit)
        record = ox.NamedNode(minter.iri("unit-by-name", slug(unit_iri.rsplit("/", 1)[-1])))
        yield ox.Triple(record, RDF.type, KG.UnitByName)
        yield ox.Triple(record, KG.unit, unit)
        yield ox.Triple(record, KG.parentInstitution, parent)
        yield ox.Triple(
            record,
            RDFS.comment,
            ox.Literal(
                _why(
                    key_words(unit_iri) or (),
                    key_words(parent_iri) or (),
                    labels.get(parent_iri, match_key(parent_iri)),
                )
            ),
        )


def _why(unit: tuple[str, ...], parent: tuple[str, ...], parent_name: str) -> str:
    if unit[: len(parent)] == parent:
        return f"its name begins with the name of {parent_name!r}, an organisation the sources name alone"
    if unit[-len(parent) :] == parent:
        return (
            f"{parent_name!r}, written after the last comma or 'at' of its name, is an "
            f"organisation the sources name alone"
        )
    return f"its name begins with {' '.join(parent[:-1])!r}, the company the sources name {parent_name!r}"
