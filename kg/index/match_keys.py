"""Match keys: what the forgiving name look-up (:func:`kg.query.library.find_entity`) compares.

Every author, institution and topic gets one ``kg:matchKey`` literal per distinct
:func:`kg.text.names.match_key` of its names (labels, acronyms, names as written, the names the
resolution step chose), and each institution one ``kg:acronymKey`` per acronym its names imply.
They are written into the derived graph by the store-level resolution step, so a look-up is one
indexed ``?e kg:matchKey "…"`` pattern instead of reading and folding every label on each call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, TextIO

import pyoxigraph as ox

from ..text.names import fold, has_cjk, match_key
from ..vocab import FOAF, KG, ORG, SKOS, sparql_prologue

ENTITY_CLASSES = {"author": FOAF.Person, "institution": ORG.Organization, "topic": SKOS.Concept}
# Constant query text: the class is ours, the user's input never enters it.
_LABELS_QUERY = """
SELECT ?entity ?label ?display WHERE {
  VALUES_BLOCK
  ?entity a CLASS ; skos:prefLabel|skos:altLabel|kg:nameAsWritten ?label .
  OPTIONAL { ?entity skos:prefLabel ?display }
}"""
_VALUES_BLOCK = 256  # entities named in one look-up of labels
# Function words left out of derived acronyms ("University of Science and Technology of China" -> USTC).
_ACRONYM_SKIP = frozenset("of and the for at in on de del der des du la le les di y und fur für & a an".split())
_PARENTHESES = re.compile(r"[(（]([^)）]*)[)）]")


def derived_acronyms(label: str) -> set[str]:
    """Acronyms a label implies: written in parentheses, or the initials of its significant words."""
    found = {part.strip() for inner in _PARENTHESES.findall(label) for part in re.split(r"[,;/，]", inner)}
    found = {part for part in found if part and " " not in part and not has_cjk(part)}
    words = [word for word in re.split(r"[\W\d_]+", fold(_PARENTHESES.sub(" ", label))) if word]
    if len(initials(words)) >= 2 and not has_cjk(label):
        found.add(initials(words))
    return {match_key(acronym) for acronym in found if match_key(acronym)}


def initials(words: Iterable[str]) -> str:
    """The first letters of a name's significant words, its function words left out (USTC of
    "university of science and technology of china")."""
    return "".join(word[0] for word in words if word not in _ACRONYM_SKIP)


@dataclass
class Named:
    """An entity with its display name, match keys and (institutions) acronyms."""

    iri: str
    display: str
    keys: set[str]
    acronyms: set[str]


def text_rows(store, sparql: str) -> Iterator[tuple[str | None, ...]]:
    """Rows as plain strings (None where unbound): pyoxigraph terms straight from the store when
    it has them (no rdflib conversion), else any SPARQL engine's rows."""
    if hasattr(store, "select_terms"):
        return (tuple(None if term is None else term.value for term in row) for row in store.select_terms(sparql))
    return (tuple(None if term is None else str(term) for term in row) for row in store.query(sparql))


def named_entities(store, kind: str, iris: Iterable[str] | None = None) -> list[Named]:
    """Entities of a kind (or just these IRIs), sorted by display name then IRI, keys from their labels."""
    if iris is None:
        blocks = [""]
    else:  # Oxigraph's time per entity grows with the VALUES block (400: 0.17 ms each, 3,551: 19 ms each)
        nodes = sorted(str(ox.NamedNode(iri)) for iri in set(iris))
        blocks = [
            "VALUES ?entity { " + " ".join(nodes[at : at + _VALUES_BLOCK]) + " }"
            for at in range(0, len(nodes), _VALUES_BLOCK)
        ]
    labels = _LABELS_QUERY.replace("CLASS", str(ENTITY_CLASSES[kind]))
    rows = (
        row for block in blocks for row in text_rows(store, sparql_prologue() + labels.replace("VALUES_BLOCK", block))
    )
    found: dict[str, Named] = {}
    for entity, label, display in rows:
        named = found.setdefault(entity, Named(entity, "", set(), set()))
        named.keys.add(match_key(label))
        if kind == "institution":
            named.acronyms |= derived_acronyms(label)
        display = display if display is not None else label
        # Prefer a Latin-script display name, then the shortest, then the first in code-point order.
        rank = (has_cjk(display), len(display), display)
        if not named.display or rank < (has_cjk(named.display), len(named.display), named.display):
            named.display = display
    return sorted(found.values(), key=lambda named: (named.display, named.iri))


@dataclass(frozen=True)
class EntityKeys:
    """The match keys (and, for institutions, acronym keys) of one entity of a kind."""

    kind: str
    iri: str
    keys: frozenset[str]
    acronyms: frozenset[str]


def person_keys_line(person: str, names: Iterable[str]) -> str:
    """One person's match keys as a line of the file :func:`entity_keys` reads."""
    return "\t".join([person, *sorted({match_key(name) for name in names} - {""})]) + "\n"


def entity_keys(store, kind: str, person_keys: Path) -> Iterator[EntityKeys]:
    """The keys of every entity of a kind, in IRI order.

    A person's labels are exactly the written forms the resolution step has just chosen among
    (every form becomes a skos:prefLabel or skos:altLabel), so their keys were made from those forms,
    one :func:`person_keys_line` per person in IRI order in ``person_keys``, instead of reading
    back every label of every person (at 100,000 papers 634,000 label rows, 20 s) or holding
    them (2 M people at 1,000,000 papers); institutions and topics, whose labels also come from
    the sources and the alias table, are read from the store."""
    if kind == "author":
        with open(person_keys, encoding="utf-8") as lines:
            for line in lines:
                iri, *keys = line[:-1].split("\t")
                yield EntityKeys(kind, iri, frozenset(keys), frozenset())
        return
    yield from sorted(
        (
            EntityKeys(kind, named.iri, frozenset(named.keys - {""}), frozenset(named.acronyms))
            for named in named_entities(store, kind)
        ),
        key=lambda entity: entity.iri,
    )


ACRONYM = "\x1f"  # before an acronym key in a line of keys (a match key holds no control character)


def _keys_line(iri: str, keys: set[str], acronyms: set[str]) -> str:
    return "\t".join([iri, *sorted(keys - {""}), *(ACRONYM + acronym for acronym in sorted(acronyms))]) + "\n"


def key_lines(store, person_keys: Path, out: TextIO) -> None:
    """Every entity's keys as one line written to ``out``, ``iri<TAB>key…`` then ``<TAB>`` :data:`ACRONYM`
    ``acronym`` for each acronym key, in code-point order of IRI: the people's lines of ``person_keys`` as they are
    (:func:`person_keys_line`), the institutions' and topics' made from the store's labels (:func:`entity_keys`; an
    IRI of two kinds on one line, its keys of both)."""
    others: dict[str, tuple[set[str], set[str]]] = {}
    for kind in sorted(set(ENTITY_CLASSES) - {"author"}):
        for entity in entity_keys(store, kind, person_keys):
            keys, acronyms = others.setdefault(entity.iri, (set(), set()))
            keys |= entity.keys
            acronyms |= entity.acronyms
    pending = sorted(others, reverse=True)  # taken from the end
    with open(person_keys, encoding="utf-8") as lines:
        for line in lines:
            iri = line[:-1].partition("\t")[0]
            while pending and pending[-1] < iri:
                other = pending.pop()
                out.write(_keys_line(other, *others[other]))
            if pending and pending[-1] == iri:
                keys, acronyms = others[pending.pop()]
                out.write(_keys_line(iri, keys | set(line[:-1].split("\t")[1:]), acronyms))
            else:
                out.write(line)
    out.writelines(_keys_line(other, *others[other]) for other in reversed(pending))


def key_line_triples(line: str) -> Iterator[ox.Triple]:
    """The ``kg:matchKey`` and ``kg:acronymKey`` triples of a line of :func:`key_lines`."""
    iri, *fields = line[:-1].split("\t")
    node = ox.NamedNode(iri)
    for field in fields:
        if field.startswith(ACRONYM):
            yield ox.Triple(node, KG.acronymKey, ox.Literal(field[1:]))
        else:
            yield ox.Triple(node, KG.matchKey, ox.Literal(field))
