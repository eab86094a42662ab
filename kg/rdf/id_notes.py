"""The ids a source's per-author lists give that the input's majority gives nobody of the record
(:mod:`kg.ingest.id_majority`): ``kg:SetAsideIdentifier`` notes on the record, for ``kg quality``."""

from __future__ import annotations

from typing import Iterator

from ..ingest.identifiers import PERSON_PAGES
from ..records import PaperRecord
from .iris import Minter
from .terms import Statement, integer, link, literal, minted
from .vocab_texts import KG, PROV, RDF, RDFS


def set_aside_id_triples(
    record: PaperRecord, record_node: str, record_slug: str, minter: Minter
) -> Iterator[Statement]:
    """A ``kg:SetAsideIdentifier`` note on the record for each id it gives an author that the
    input's majority gives nobody of it: the id's page, the reason, the author as written.

    >>> from kg.records import SetAsideId, SourceRef
    >>> from kg.rdf.terms import value
    >>> aside = SetAsideId("Ada Lovelace", 0, "orcid", "0000-0002-1825-0097", "majority-holder: most records …")
    >>> record = PaperRecord(SourceRef("acl.json", "acl.json", 12, "paperlists"), "", "Looms", set_aside_ids=[aside])
    >>> record_node, minter = minted("http://ex/record/acl-json--L12"), Minter("http://ex/")
    >>> for note, predicate, obj in set_aside_id_triples(record, record_node, "acl-json--L12", minter):
    ...     print(value(note), value(predicate).rsplit("#", 1)[-1], value(obj))
    http://ex/note/acl-json--L12--id-1 type https://kg.example.org/ontology#SetAsideIdentifier
    http://ex/note/acl-json--L12--id-1 seeAlso https://orcid.org/0000-0002-1825-0097
    http://ex/note/acl-json--L12--id-1 reason majority-holder: most records …
    http://ex/note/acl-json--L12--id-1 nameAsWritten Ada Lovelace
    http://ex/note/acl-json--L12--id-1 position 1
    http://ex/note/acl-json--L12--id-1 wasDerivedFrom http://ex/record/acl-json--L12
    """
    for number, aside in enumerate(record.set_aside_ids, start=1):
        note = minted(minter.iri("note", f"{record_slug}--id-{number}"))
        yield note, RDF.type, KG.SetAsideIdentifier
        if (page := link(PERSON_PAGES[aside.kind].format(aside.value))) is not None:  # else the reason names the id
            yield note, RDFS.seeAlso, page
        yield note, KG.reason, literal(aside.reason)
        if aside.position is not None:
            yield note, KG.nameAsWritten, literal(aside.name)
            yield note, KG.position, integer(aside.position + 1)
        yield note, PROV.wasDerivedFrom, record_node
