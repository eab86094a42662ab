"""The ids a source's per-author lists give that the input's majority gives nobody of the record
(:mod:`kg.ingest.id_majority`): ``kg:SetAsideIdentifier`` notes on the record, for ``kg quality``."""

from __future__ import annotations

from typing import Iterator

from pyoxigraph import NamedNode

from ..ingest.identifiers import PERSON_PAGES
from ..records import PaperRecord
from ..vocab import KG, PROV, RDF, RDFS
from .iris import Minter
from .terms import Statement, integer, literal


def set_aside_id_triples(
    record: PaperRecord, record_node: NamedNode, record_slug: str, minter: Minter
) -> Iterator[Statement]:
    for number, aside in enumerate(record.set_aside_ids, start=1):
        note = NamedNode(minter.iri("note", f"{record_slug}--id-{number}"))
        yield note, RDF.type, KG.SetAsideIdentifier
        try:
            yield note, RDFS.seeAlso, NamedNode(PERSON_PAGES[aside.kind].format(aside.value))
        except ValueError:  # not a valid IRI: the reason names the id
            pass
        yield note, KG.reason, literal(aside.reason)
        if aside.position is not None:
            yield note, KG.nameAsWritten, literal(aside.name)
            yield note, KG.position, integer(aside.position + 1)
        yield note, PROV.wasDerivedFrom, record_node
