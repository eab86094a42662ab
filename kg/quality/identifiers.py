"""Identity by identifiers, checked on the store: a person holds at most one id of each scheme, and
an id names one person. A person's ids are its ``schema:sameAs`` links to the pages that define them
(kg.ingest.identifiers.PERSON_PAGES), so the scheme of a link is the page it points into."""

from __future__ import annotations

from collections import defaultdict

from ..ingest.identifiers import person_link_scheme as scheme_of
from ..vocab import sparql_prologue

PERSON_LINKS = sparql_prologue() + "SELECT ?person ?link WHERE { ?person a foaf:Person ; schema:sameAs ?link }"


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
