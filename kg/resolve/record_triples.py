"""The triples one record states about its institution field, after the record-level rules.

Organisations get their written forms as ``kg:nameAsWritten`` (language-tagged: these are
the candidates for display names, chosen across all sources by :mod:`.store_step`), the
raw entry as an untagged ``kg:nameAsWritten`` on the entry's own node (on each of them when
the entry names several institutions), a
``skos:prefLabel``/``rdfs:label`` when the alias table names them, and
``org:subOrganizationOf`` from each unit to the next level. Person names found in the field
become ``kg:RejectedInstitutionEntry`` notes on the record instead, with the reason.
"""

from __future__ import annotations

from typing import Iterator

from pyoxigraph import Literal, NamedNode, Triple

from ..rdf.iris import Minter, slug
from ..ingest.names import has_cjk
from ..ingest.records import Affiliation, PaperRecord
from ..rdf.vocab import KG, ORG, PROV, RDF, RDFS, SCHEMA, SKOS, XSD
from .aliases import AliasTable
from .institutions import OrgChain, resolve_entries
from .people import person_name_reason


def _named(text: str) -> Literal:
    return Literal(text, language="zh" if has_cjk(text) else "en")


def institution_triples(paper: NamedNode, record: PaperRecord, record_node: NamedNode, record_slug: str,
                        minter: Minter, aliases: AliasTable) -> Iterator[Triple]:
    for position, entry in enumerate(record.institutions, start=1):
        reason = person_name_reason(entry, record.institutions, record.authors, aliases)
        if reason:
            note = NamedNode(minter.iri("note", f"{record_slug}--institution-{position}"))
            yield Triple(note, RDF.type, KG.RejectedInstitutionEntry)
            yield Triple(note, KG.nameAsWritten, Literal(entry.raw))
            yield Triple(note, KG.reason, Literal(reason))
            yield Triple(note, KG.position, Literal(str(position), datatype=XSD.integer))
            yield Triple(note, PROV.wasDerivedFrom, record_node)
            continue
        for chain in resolve_entries(entry.name, entry.name_zh, aliases):
            leaf = yield from _chain_triples(chain, minter)
            yield Triple(paper, SCHEMA.sourceOrganization, leaf)
            yield Triple(leaf, KG.nameAsWritten, Literal(entry.raw))
            if entry.name_zh and not has_cjk(entry.name_zh):
                yield Triple(leaf, SKOS.altLabel, Literal(entry.name_zh))


def affiliation_triples(authorship: NamedNode, affiliation: Affiliation, minter: Minter,
                        aliases: AliasTable) -> Iterator[Triple]:
    """An author's own affiliation for one paper, as stated by a structured source: the same
    organisation nodes as the paper's institution field gives (one per institution the string
    names), linked from the authorship."""
    for chain in resolve_entries(affiliation.name, None, aliases):
        leaf = yield from _chain_triples(chain, minter)
        yield Triple(authorship, KG.affiliation, leaf)
        yield Triple(leaf, KG.nameAsWritten, Literal(affiliation.name))
        if affiliation.domain:
            yield Triple(leaf, KG.emailDomain, Literal(affiliation.domain))


def _chain_triples(chain: OrgChain, minter: Minter):
    """Nodes from the top-level parent down; returns the entry's own (most specific) node."""
    parent: NamedNode | None = None
    parent_local, parent_display = "", ""
    for level, chinese in reversed(list(zip(chain.levels, chain.chinese))):
        local = f"{parent_local}--{slug(level.key)}" if parent is not None else slug(level.key)
        node = NamedNode(minter.iri("institution", local))
        yield Triple(node, RDF.type, ORG.Organization)
        if parent is None:
            yield Triple(node, KG.nameAsWritten, _named(level.written))
        else:
            yield Triple(node, KG.nameAsWritten, _named(f"{level.written}, {parent_display}"))
            yield Triple(node, RDF.type, ORG.OrganizationalUnit)
            yield Triple(node, ORG.subOrganizationOf, parent)
        if level.canonical:
            yield Triple(node, SKOS.prefLabel, Literal(level.canonical, language="en"))
            yield Triple(node, RDFS.label, Literal(level.canonical, language="en"))
        if level.acronym:
            yield Triple(node, SKOS.altLabel, Literal(level.acronym, language="en"))
        if chinese:
            yield Triple(node, KG.nameAsWritten, _named(chinese))
        parent, parent_local = node, local
        parent_display = level.display if not parent_display else f"{level.display}, {parent_display}"
    return parent
