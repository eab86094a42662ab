"""Finding the author, institution or topic a user names: a look-up that always has an answer.

What the user types is tried, in turn, as: the entity's IRI; an identifier the sources give
(an OpenReview id ``~Yang_Liu19``, an ORCID, a dblp id: :data:`IDENTIFIED_BY`); the name by
match key, joined words, acronym and words in any order (:func:`find_entity`); and the name with a
qualifier in brackets, ``Yang Liu (NTU)``, the qualifier any part of what tells the candidates apart
(an institution's name or acronym, an identifier). Where several entities remain and one
organisation holds all the others as units, it is the answer ("Tsinghua": Tsinghua University,
not its departments). Else the error lists each candidate with what tells it apart (papers,
institutions, identifiers, IRI), in a form the look-up accepts back.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Callable, Mapping, Protocol

import pyoxigraph as ox
from rapidfuzz import fuzz, process
from rdflib import URIRef
from rdflib.query import Result
from rdflib.term import Identifier

from ..errors import KgError
from ..index.match_keys import ENTITY_CLASSES, named_entities, text_rows
from ..index.name_index import KeyIndex, key_index
from ..ingest.identifiers import PERSON_PAGES
from ..text.names import clean, has_cjk, match_key
from ..vocab import DCTERMS, KG, ORG, SCHEMA

#: (kind, pattern of what the user types, the statement that names the entity by it): identifiers
#: of people, as the sources give them (kg/rdf/mapping.py).
IDENTIFIED_BY = (
    ("author", re.compile(r"~\S+"), lambda value: f"?e {KG.openReviewId} {ox.Literal(value)}"),
    (
        "author",
        re.compile(r"\d{4}-\d{4}-\d{4}-\d{3}[\dX]"),
        lambda value: f"?e {SCHEMA.sameAs} {ox.NamedNode(PERSON_PAGES['orcid'].format(value))}",
    ),
    (
        "author",
        re.compile(r"(?:pid/)?[a-z0-9]{1,4}/[\w-]+"),
        lambda value: f"?e {SCHEMA.sameAs} {ox.NamedNode(PERSON_PAGES['dblp'].format(value.removeprefix('pid/')))}",
    ),
)
_QUALIFIED = re.compile(r"^(.+?)\s*\(([^()]+)\)\s*$")
#: The default of an entity parameter that stands for the graph's own entity with the most papers.
MOST_PAPERS = "most papers"
#: How many candidates an ambiguity lists.
LISTED = 10


class Ambiguous(KgError):
    """Several entities fit what was typed; ``matches`` their IRIs."""

    def __init__(self, message: str, matches: list[str]):
        super().__init__(message)
        self.matches = matches


class SparqlStore(Protocol):
    """What the runner needs: KGStore, or an adapter over another engine (the tests use rdflib's)."""

    def query(self, sparql: str, bindings: Mapping[str, Identifier] | None = None) -> Result: ...


# ---------------------------------------------------------------- finding entities by name


def search_names(store: SparqlStore, kind: str) -> dict[str, tuple[list[str], list[str]]]:
    """Each entity's match keys and acronyms (sorted): what the network pages' search compares,
    so that the page finds what :func:`find_entity` finds. Authors' and topics' keys come from the
    look-up index, one value (reading every label of 211,521 authors took 21 s under cProfile); institutions'
    acronyms are not in it."""
    if kind != "institution" and (index := key_index(store, kind, text_rows)) is not None:
        return {iri: (sorted(keys), []) for iri, keys in index.keys_by_entity().items()}
    return {named.iri: (sorted(named.keys), sorted(named.acronyms)) for named in named_entities(store, kind)}


def _tokens_match(typed: str) -> Callable[[str], bool]:
    """Whether a key holds every typed word (any order); CJK text may be any part of the name.
    Decided once per look-up, since it is asked of every key."""
    if has_cjk(typed):
        joined = typed.replace(" ", "")
        return lambda key: joined in key.replace(" ", "")
    words = set(typed.split())
    return lambda key: words <= set(key.split())


def find_entity(store: SparqlStore, kind: str, text: str) -> URIRef:
    """The IRI of the one author/institution/topic the text names (module docstring), or a
    KgError that lists the candidates in forms this look-up accepts."""
    if (identified := _by_identifier(store, kind, text.strip())) is not None:
        return identified
    try:
        return _by_name(store, kind, text)
    except Ambiguous as ambiguity:
        if (qualified := _qualified(store, kind, text)) is not None:
            return qualified
        raise _listing(store, kind, text, ambiguity.matches) from None
    except KgError:
        if (qualified := _qualified(store, kind, text)) is not None:
            return qualified
        raise


def _by_identifier(store: SparqlStore, kind: str, text: str) -> URIRef | None:
    """The one entity of the kind that an identifier the sources give names, if the text is one."""
    for identified_kind, pattern, statement in IDENTIFIED_BY:
        if identified_kind == kind and pattern.fullmatch(text):
            found = sorted({row[0] for row in text_rows(store, f"SELECT DISTINCT ?e WHERE {{ {statement(text)} }}")})
            if len(found) == 1:
                return URIRef(found[0])
    return None


def _by_name(store: SparqlStore, kind: str, text: str) -> URIRef:
    """The IRI of the one author/institution/topic the text names, or a KgError that helps.

    Tried in turn, the first tier with any match decides: the IRI itself; a name equal by
    :func:`kg.text.names.match_key` (case, diacritics, spaces, hyphens ignored; English, Chinese or
    any label); the same with word breaks ignored ("Balazs-Gyenes"); for institutions an
    acronym (written in parentheses, or the initials of the name: USTC, HKUST); every typed
    word in the name, in any order ("Neumann Gerhard"). Several entities in the deciding tier
    is an ambiguity, reported with the candidates. Nothing found lists the closest names.
    """
    typed = match_key(text)
    if not typed:
        raise KgError(f"no {kind} matches {clean(text)!r}: a name needs letters or digits")
    class_iri = str(ENTITY_CLASSES[kind])
    if (named := _named_by_iri(store, class_iri, text)) is not None:
        return named
    # The exact key: one indexed pattern (the key is written as an escaped pyoxigraph literal).
    exact_key = f"SELECT DISTINCT ?e WHERE {{ ?e {KG.matchKey} {ox.Literal(typed)} ; a {class_iri} }}"
    if exact := [row[0] for row in text_rows(store, exact_key)]:
        return _decided(store, kind, text, exact)
    # CJK text may be any part of a name, which the index cannot find; older stores have none.
    if not has_cjk(typed) and (index := key_index(store, kind, text_rows)) is not None:
        return _from_index(store, kind, text, typed, index)
    return _from_rows(store, kind, text, typed)


def _named_by_iri(store: SparqlStore, class_iri: str, text: str) -> URIRef | None:
    """The entity whose IRI the text is, if it is one of the kind's."""
    try:
        iri = ox.NamedNode(text.strip())
    except ValueError:
        return None
    found = text_rows(store, f"SELECT ?e WHERE {{ VALUES ?e {{ {iri} }} ?e a {class_iri} ; {KG.matchKey} ?key }}")
    return URIRef(iri.value) if next(found, None) else None


def _from_rows(store: SparqlStore, kind: str, text: str, typed: str) -> URIRef:
    """The tiers after the exact key decided from every key of the kind read as a row (no key index)."""
    class_iri = str(ENTITY_CLASSES[kind])
    keys: dict[str, set[str]] = defaultdict(set)
    acronyms: dict[str, set[str]] = defaultdict(set)
    acronym_pattern = f"UNION {{ ?e {KG.acronymKey} ?acronym }}" if kind == "institution" else ""  # only theirs
    for entity, key, acronym in text_rows(
        store,
        f"""SELECT ?e ?key ?acronym WHERE {{ ?e a {class_iri} .
            {{ ?e {KG.matchKey} ?key }} {acronym_pattern} }}""",
    ):
        if key is not None:
            keys[entity].add(key)
        else:
            acronyms[entity].add(acronym)
    joined, tokens_match = typed.replace(" ", ""), _tokens_match(typed)
    tiers = (
        lambda entity: joined in {key.replace(" ", "") for key in keys[entity]},
        lambda entity: typed in acronyms[entity],
        lambda entity: any(map(tokens_match, keys[entity])),
    )
    for tier in tiers:
        matches = [entity for entity in sorted(keys) if tier(entity)]
        if matches:
            return _decided(store, kind, text, matches)
    by_key: dict[str, list[str]] = defaultdict(list)
    for entity in sorted(keys):
        for key in keys[entity]:
            by_key[key].append(entity)
    return _closest(store, kind, text, sorted(by_key), by_key.__getitem__, len(keys))


def _from_index(store: SparqlStore, kind: str, text: str, typed: str, index: KeyIndex) -> URIRef:
    """The tiers of :func:`find_entity` decided from the kind's stored key index
    (:mod:`kg.index.name_index`) instead of every key read as a row."""
    acronym = (
        f"SELECT DISTINCT ?e WHERE {{ ?e {KG.acronymKey} {ox.Literal(typed)} ; a "
        f"{ENTITY_CLASSES[kind]} ; {KG.matchKey} ?key }}"
    )
    tiers = (
        lambda: index.joined(typed.replace(" ", "")),
        lambda: {row[0] for row in text_rows(store, acronym)} if kind == "institution" else set(),
        lambda: index.with_words(set(typed.split())),
    )
    for tier in tiers:
        matches = sorted(tier())
        if matches:
            return _decided(store, kind, text, matches)

    def entities_of(key: str) -> list[str]:  # for the few closest keys: an indexed pattern each
        return sorted(
            row[0]
            for row in text_rows(
                store, f"SELECT DISTINCT ?e WHERE {{ ?e {KG.matchKey} {ox.Literal(key)} ; a {ENTITY_CLASSES[kind]} }}"
            )
        )

    return _closest(store, kind, text, index.keys, entities_of, index.entity_count)


def _closest(
    store: SparqlStore,
    kind: str,
    text: str,
    keys: list[str],
    entities_of: Callable[[str], list[str]],
    count: Callable[[], int] | int,
) -> URIRef:
    """The error for a name that matches nothing, naming the closest (``keys`` sorted)."""
    typed = match_key(text)
    if not keys:
        raise KgError(
            f"no {kind} matches {clean(text)!r}: the graph has no {kind}s (has `kg build` run on this store?)"
        )
    # rapidfuzz's C++ matcher: a mistyped name among 10^5 others in milliseconds (difflib took seconds)
    nearest = process.extract(typed, keys, scorer=fuzz.ratio, limit=8, score_cutoff=60)
    by_key = {key: entities_of(key) for key, _, _ in nearest}
    named = {
        entity.iri: entity for entity in named_entities(store, kind, {e for key, _, _ in nearest for e in by_key[key]})
    }
    # A key several entities share shows the last of them in (display, IRI) order.
    close = dict.fromkeys(
        max((named[e] for e in by_key[key]), key=lambda n: (n.display, n.iri)).display for key, _, _ in nearest
    )
    if close:
        hint = f"; closest: {', '.join(list(close)[:5])}"
    else:  # counted only here: at 100,000 papers counting the index's entities took 260 ms
        hint = f"; none of the {count() if callable(count) else count} {kind}s is close"
    raise KgError(f"no {kind} matches {clean(text)!r}{hint}")


def _decided(store: SparqlStore, kind: str, text: str, matches: list[str]) -> URIRef:
    """The one entity of the deciding tier (or the organisation whose units all the others are),
    else :class:`Ambiguous` with the candidates."""
    if len(matches) == 1:
        return URIRef(matches[0])
    if kind == "institution" and (holder := _holder(store, matches)) is not None:
        return URIRef(holder)
    raise Ambiguous(f"{kind} {clean(text)!r} is ambiguous: {len(matches)} match", matches)


def _holder(store: SparqlStore, matches: list[str]) -> str | None:
    """The one match that every other match is a unit of (``org:subOrganizationOf+``), if any."""
    values = " ".join(str(ox.NamedNode(iri)) for iri in matches)
    above: dict[str, set[str]] = defaultdict(set)
    for unit, top in text_rows(
        store, f"SELECT ?unit ?top WHERE {{ VALUES ?unit {{ {values} }} ?unit {ORG.subOrganizationOf}+ ?top }}"
    ):
        above[unit].add(top)
    holders = [match for match in matches if all(match in above[other] for other in matches if other != match)]
    return holders[0] if len(holders) == 1 else None


# ---------------------------------------------------------------- telling candidates apart


def _facts(store: SparqlStore, kind: str, matches: list[str]) -> dict[str, dict]:
    """Per candidate: display name, papers, institutions (most papers first), identifiers."""
    values = " ".join(str(ox.NamedNode(iri)) for iri in matches)
    facts = {
        named.iri: {"name": named.display, "papers": 0, "institutions": [], "ids": [], "within": set()}
        for named in named_entities(store, kind, matches)
    }
    for entity, papers in text_rows(store, _PAPERS[kind].replace("VALUES_BLOCK", f"VALUES ?e {{ {values} }}")):
        if entity in facts:
            facts[entity]["papers"] = int(papers)
    for entity, label, _ in text_rows(store, _INSTITUTIONS[kind].replace("VALUES_BLOCK", f"VALUES ?e {{ {values} }}")):
        if entity in facts:
            facts[entity]["institutions"].append(label)
    if kind == "author":  # the organisations (and those they are units of) on the author's papers
        for entity, organisation in text_rows(store, _WITHIN.replace("VALUES_BLOCK", f"VALUES ?e {{ {values} }}")):
            facts[entity]["within"].add(organisation)
    for entity, identifier in text_rows(
        store, f"SELECT ?e ?id WHERE {{ VALUES ?e {{ {values} }} ?e {KG.openReviewId} ?id }} ORDER BY ?e ?id"
    ):
        if entity in facts:
            facts[entity]["ids"].append(identifier)
    return facts


_PAPERS = {
    "author": f"SELECT ?e (COUNT(DISTINCT ?p) AS ?n) WHERE {{ VALUES_BLOCK ?p {DCTERMS.creator} ?e }} GROUP BY ?e",
    # An organisation's own count: the topic and partner tallies (kg/resolve/aggregates.py) have one too.
    "institution": (
        f"SELECT ?e (MAX(?c) AS ?n) WHERE {{ VALUES_BLOCK ?e a {ORG.Organization} ; {KG.paperCount} ?c }} GROUP BY ?e"
    ),
    "topic": f"SELECT ?e (COUNT(DISTINCT ?p) AS ?n) WHERE {{ VALUES_BLOCK ?p {DCTERMS.subject} ?e }} GROUP BY ?e",
}
_WITHIN = f"""SELECT DISTINCT ?e ?top WHERE {{ VALUES_BLOCK
    {{ ?p {KG.authorship} ?a . ?a {KG.author} ?e ; {KG.affiliation} ?o }}
    UNION {{ ?p <http://purl.org/dc/terms/creator> ?e ; {SCHEMA.sourceOrganization} ?o }}
    ?o {ORG.subOrganizationOf}* ?top }}"""
_EN_LABEL = '?o <http://www.w3.org/2000/01/rdf-schema#label> ?l FILTER (LANGMATCHES(LANG(?l), "en"))'
_INSTITUTIONS = {  # an author's institutions (own affiliations or the papers'), an institution's parent
    "author": f"""SELECT ?e ?l (COUNT(DISTINCT ?p) AS ?n) WHERE {{ VALUES_BLOCK
        {{ ?p {KG.authorship} ?a . ?a {KG.author} ?e ; {KG.affiliation} ?o }}
        UNION {{ ?p <http://purl.org/dc/terms/creator> ?e ; {SCHEMA.sourceOrganization} ?o }}
        {_EN_LABEL} }} GROUP BY ?e ?l ORDER BY ?e DESC(?n) ?l""",
    "institution": (
        f"SELECT ?e ?l (1 AS ?n) WHERE {{ VALUES_BLOCK ?e {ORG.subOrganizationOf} ?o . {_EN_LABEL} }} ORDER BY ?e ?l"
    ),
    "topic": "SELECT ?e ?l ?n WHERE { VALUES_BLOCK FILTER (false) }",
}


def _told_apart(facts: dict[str, dict], iri: str) -> str:
    """A qualifier that names this candidate alone: an institution or identifier no other has, else its IRI."""
    others = [fact for other, fact in facts.items() if other != iri]
    for value in (*facts[iri]["institutions"][:3], *facts[iri]["ids"]):
        if not any(value in (*fact["institutions"], *fact["ids"]) for fact in others):
            return value
    return iri


def _listing(store: SparqlStore, kind: str, text: str, matches: list[str]) -> KgError:
    """The ambiguity: each candidate with what tells it apart, as a value to type back."""
    facts = _facts(store, kind, matches)
    ranked = sorted(facts, key=lambda iri: (-facts[iri]["papers"], facts[iri]["name"], iri))
    lines = []
    for iri in ranked[:LISTED]:
        fact = facts[iri]
        qualifier = _told_apart(facts, iri)
        typed = qualifier if qualifier in (iri, *fact["ids"]) else f"{fact['name']} ({qualifier})"
        about = [
            f"{fact['papers']} paper{'s' if fact['papers'] != 1 else ''}",
            *fact["institutions"][:2],
            *fact["ids"],
            iri,
        ]
        lines.append(f"  {fact['name']}: {'; '.join(dict.fromkeys(about))}  ->  -p {kind}={typed!r}")
    more = f"\n  … and {len(matches) - LISTED} more" if len(matches) > LISTED else ""
    return KgError(
        f"{kind} {clean(text)!r} is ambiguous: {len(matches)} match; give one of:\n" + "\n".join(lines) + more
    )


def _qualified(store: SparqlStore, kind: str, text: str) -> URIRef | None:
    """``Name (qualifier)``: the one candidate for the name that the qualifier fits; ``None`` when the
    text has no qualifier or the name alone names nothing."""
    written = _QUALIFIED.match(text.strip())
    if not written:
        return None
    name, qualifier = written.groups()
    try:
        return _by_name(store, kind, name)
    except Ambiguous as ambiguity:
        matches = ambiguity.matches
    except KgError:
        return None
    facts, wanted = _facts(store, kind, matches), match_key(qualifier)
    try:  # the qualifier as an institution, found as the look-up finds one (NTU, Tsinghua, an IRI)
        institution = str(find_entity(store, "institution", qualifier)) if kind == "author" else None
    except KgError:
        institution = None
    fitting = [
        iri
        for iri, fact in facts.items()
        if qualifier.strip() in (iri, *fact["ids"])
        or institution in fact["within"]
        or (wanted and any(set(wanted.split()) <= set(match_key(label).split()) for label in fact["institutions"]))
    ]
    if len(fitting) != 1:  # the qualifier does not single one out: the candidates, to choose from
        raise _listing(store, kind, name, matches)
    return URIRef(fitting[0])


def most_papers(store: SparqlStore, kind: str) -> tuple[URIRef, str, int]:
    """The entity of the kind with the most papers in this graph (ties: the first IRI), its name and papers."""
    top = f"{_PAPERS[kind].replace('VALUES_BLOCK', '')} ORDER BY DESC(?n) ?e LIMIT 1"
    if kind == "institution":  # an organisation, not one of its units (their papers are counted in)
        top = top.replace("WHERE {", f"WHERE {{ FILTER NOT EXISTS {{ ?e {ORG.subOrganizationOf} ?above }}", 1)
    found = next(text_rows(store, top), None)
    if found is None:
        raise KgError(f"the graph has no {kind}s to choose a default from (has `kg build` run on this store?)")
    named = named_entities(store, kind, [found[0]])
    return URIRef(found[0]), named[0].display if named else found[0], int(found[1])


def entities_with_papers(store: SparqlStore, kind: str, at_least: int, counted: bool = False) -> list:
    """The entities of the kind with at least ``at_least`` papers (an institution's own and its units'), by IRI;
    with ``counted``, ``(entity, papers)`` each (one count serves the lists of a kind with several floors)."""
    papers = _PAPERS[kind].replace("VALUES_BLOCK", "")
    sparql = f"SELECT ?e ?n WHERE {{ {{ {papers} }} FILTER (?n >= {int(at_least)}) }} ORDER BY ?e"
    return [(entity, int(n)) if counted else entity for entity, n in text_rows(store, sparql)]
