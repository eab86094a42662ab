"""Identity by identifiers, checked on the store: a person holds at most one id of each scheme, and
an id names one person. A person's ids are its ``schema:sameAs`` links to the pages that define them
(kg.ingest.identifiers.PERSON_PAGES), so the scheme of a link is the page it points into."""

from __future__ import annotations

from collections import defaultdict

from ..ingest.identifiers import person_link_scheme as scheme_of
from ..vocab import sparql_prologue

PERSON_LINKS = sparql_prologue() + "SELECT ?person ?link WHERE { ?person a foaf:Person ; schema:sameAs ?link }"
SET_ASIDE = (
    sparql_prologue()
    + """SELECT ?record ?name ?link ?reason WHERE {
  ?note a kg:SetAsideIdentifier ; kg:reason ?reason ; prov:wasDerivedFrom ?from .
  ?from kg:line ?line ; prov:wasDerivedFrom/dcterms:title ?file .
  BIND (CONCAT(STR(?file), ":", STR(?line)) AS ?record)
  OPTIONAL { ?note kg:nameAsWritten ?name } OPTIONAL { ?note kg:position ?position }
  OPTIONAL { ?note rdfs:seeAlso ?link }
} ORDER BY ?file ?line ?position ?link ?reason"""
)


def identifier_conflicts(rows) -> dict[str, list[dict]]:
    """``persons_with_two_ids_of_one_scheme`` and ``ids_on_several_persons`` of (person, link) rows."""
    ids_of: dict[tuple[str, str], set[str]] = defaultdict(set)
    persons_of: dict[str, set[str]] = defaultdict(set)
    for person, link in rows:
        if scheme := scheme_of(str(link)):
            ids_of[(str(person), scheme)].add(str(link))
            persons_of[str(link)].add(str(person))
    return {
        "persons_with_two_ids_of_one_scheme": [
            {"person": person, "scheme": scheme, "ids": sorted(links)}
            for (person, scheme), links in sorted(ids_of.items())
            if len(links) > 1
        ],
        "ids_on_several_persons": [
            {"id": link, "persons": sorted(persons)} for link, persons in sorted(persons_of.items()) if len(persons) > 1
        ],
    }


def identifier_report(store) -> dict[str, list[dict]]:
    """The two kinds of conflict, and ``ids_set_aside``: the ids a source's per-author lists give
    that the input's majority gives nobody of their record (kg.ingest.id_majority)."""
    set_aside = [
        {"record": str(record), "author": str(name or ""), "id": str(link or ""), "reason": str(reason)}
        for record, name, link, reason in ((row[0], row[1], row[2], row[3]) for row in store.query(SET_ASIDE))
    ]
    return {**identifier_conflicts(store.query(PERSON_LINKS)), "ids_set_aside": set_aside}


def identifier_counts(store) -> dict[str, int]:
    """Persons with an id, the distinct ids, and the two kinds of conflict, as counts."""
    rows = [(str(person), str(link)) for person, link in store.query(PERSON_LINKS)]
    conflicts = identifier_conflicts(rows)
    identified = {person for person, link in rows if scheme_of(link)}
    return {
        "identified_persons": len(identified),
        "ids": len({link for _, link in rows if scheme_of(link)}),
        **{name: len(items) for name, items in conflicts.items()},
    }
