"""The triples one record states about its institution field, after the record-level rules.

Organisations get their written forms as ``kg:nameAsWritten`` (language-tagged: these are
the candidates for display names, chosen across all sources by :mod:`.store_step`), the
raw entry as an untagged ``kg:nameAsWritten`` on the entry's own node (on each of them when
the entry names several institutions), a
``skos:prefLabel`` when the alias table names them, and
``org:subOrganizationOf`` from each unit to the next level. Person names found in the field
become ``kg:RejectedInstitutionEntry`` notes on the record instead, with the reason.

A bare unit ("Department of Computer Science", nothing naming its institution) is one node per
registrable e-mail domain its authors write from (``kg:scopedByDomain``), so two universities'
departments are never one node; :mod:`.domain_units` then finds the institution of the domain.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator

from ..orgs.aliases import AliasTable
from ..orgs.identify import identify_chain
from ..orgs.institutions import OrgChain, resolve_entries
from ..orgs.org_names import is_top_level, starts_with_unit_word
from ..orgs.people import person_name_reason, title_page_reason
from ..orgs.registry import Registry
from ..records import Affiliation, PaperRecord
from ..text.domains import institutional_domain
from ..text.names import has_cjk
from .iris import Minter, slug
from .registry_triples import identified_triples
from .terms import Statement, integer, literal, minted
from .vocab_texts import KG, ORG, PROV, RDF, SCHEMA, SKOS


def _named(text: str) -> str:
    return literal(text, language="zh" if has_cjk(text) else "en")


def institution_triples(
    paper: str,
    record: PaperRecord,
    record_node: str,
    record_slug: str,
    minter: Minter,
    aliases: AliasTable,
    registry: Registry | None = None,
) -> Iterator[Statement]:
    """The organisations of the record's institution field, each linked from the paper with the
    entry as written, its units under their institutions; an entry that is a person's name (an
    author of the paper) or the title is a ``kg:RejectedInstitutionEntry`` note with the reason.

    >>> from kg.rdf.terms import value
    >>> from kg.records import Institution, SourceRef
    >>> record = PaperRecord(
    ...     SourceRef("listings/acl.json", "acl.json", 12, "paperlists"),
    ...     "",
    ...     "Looms That Weave",
    ...     authors=["Ada Lovelace", "Alan Turing"],
    ...     institutions=[Institution(name, name) for name in ("Dept. of Physics, Loom University", "Alan Turing")],
    ... )
    >>> paper, record_node = minted("http://ex/paper/p"), minted("http://ex/record/acl-json--L12")
    >>> minter, aliases = Minter("http://ex/"), AliasTable({}, {})
    >>> said = list(institution_triples(paper, record, record_node, "acl-json--L12", minter, aliases))
    >>> [value(obj) for _, predicate, obj in said if predicate in (SCHEMA.sourceOrganization, ORG.subOrganizationOf)]
    ['http://ex/institution/loom-university', 'http://ex/institution/loom-university--dept-of-physics']
    >>> from kg.rdf.terms import value
    >>> [(value(subject), value(obj)) for subject, predicate, obj in said if predicate == KG.reason]
    [('http://ex/note/acl-json--L12--institution-2', "person's name: is the paper's author Alan Turing")]
    """
    for position, entry in enumerate(record.institutions, start=1):
        reason = person_name_reason(entry, record.institutions, record.authors, aliases) or title_page_reason(
            entry, record.title, record.authors, aliases
        )
        if reason:
            note = minted(minter.iri("note", f"{record_slug}--institution-{position}"))
            yield note, RDF.type, KG.RejectedInstitutionEntry
            yield note, KG.nameAsWritten, literal(entry.raw)
            yield note, KG.reason, literal(reason)
            yield note, KG.position, integer(position)
            yield note, PROV.wasDerivedFrom, record_node
            continue
        for leaf, chain_statements in _organisations(
            entry.name, entry.name_zh, entry.domains, minter, aliases, registry
        ):
            yield from chain_statements
            yield paper, SCHEMA.sourceOrganization, leaf
            yield leaf, KG.nameAsWritten, literal(entry.raw)
            if entry.name_zh and not has_cjk(entry.name_zh):
                yield leaf, SKOS.altLabel, literal(entry.name_zh)


def affiliation_triples(
    authorship: str,
    affiliation: Affiliation,
    minter: Minter,
    aliases: AliasTable,
    registry: Registry | None = None,
) -> Iterator[Statement]:
    """An author's own affiliation for one paper, as stated by a structured source: the same
    organisation nodes as the paper's institution field gives (one per institution the string
    names), linked from the authorship.

    >>> from kg.rdf.terms import value
    >>> affiliation = Affiliation("Dept. of Physics, Loom University", "loom.edu")
    >>> authorship, minter, aliases = minted("http://ex/authorship/p--1"), Minter("http://ex/"), AliasTable({}, {})
    >>> for subject, predicate, obj in affiliation_triples(authorship, affiliation, minter, aliases):
    ...     if predicate in (KG.affiliation, KG.emailDomain):
    ...         print(value(subject), value(obj))
    http://ex/authorship/p--1 http://ex/institution/loom-university--dept-of-physics
    http://ex/institution/loom-university--dept-of-physics loom.edu
    """
    for leaf, chain_statements in _organisations(
        affiliation.name, None, (affiliation.domain,), minter, aliases, registry
    ):
        yield from chain_statements
        yield authorship, KG.affiliation, leaf
        yield leaf, KG.nameAsWritten, literal(affiliation.name)
        if affiliation.domain:
            yield leaf, KG.emailDomain, literal(affiliation.domain)


def is_bare_unit(chain: OrgChain) -> bool:
    """An entry that is only a unit's name, with no institution in it or in the alias table.

    >>> from kg.orgs.institutions import resolve_entries
    >>> chains = resolve_entries("Department of Physics; Dept. of Physics, Loom University", None, AliasTable({}, {}))
    >>> [is_bare_unit(chain) for chain in chains]
    [True, False]
    """
    level = chain.levels[0]
    return (
        len(chain.levels) == 1
        and level.canonical is None
        and starts_with_unit_word(level.written)
        and not is_top_level(level.written)
    )


def _domain_scopes(chain: OrgChain, domains) -> list[str | None]:
    """The institutional domains a bare unit is told apart by (one node each), else [None]."""
    if not is_bare_unit(chain):
        return [None]
    return list(dict.fromkeys(filter(None, map(institutional_domain, domains)))) or [None]


@lru_cache(maxsize=1 << 14)  # entries repeat across a listing; the rules, minter and tables are fixed
def _organisations(
    name: str,
    chinese: str | None,
    domains: tuple[str | None, ...],
    minter: Minter,
    aliases: AliasTable,
    registry: Registry | None,
) -> tuple[tuple[str, tuple[Statement, ...]], ...]:
    """Each organisation an entry names (one per domain for a bare unit): its own node, and the
    triples of its chain of units, with what the registry knows of each level (the entry is their
    context, the first e-mail domain the author's)."""
    domain = next(filter(None, domains), None)
    return tuple(
        _chain_triples(chain, minter, scope, _identified(chain, name, domain, registry))
        for chain in resolve_entries(name, chinese, aliases)
        for scope in _domain_scopes(chain, domains)
    )


def _identified(chain: OrgChain, context: str, domain: str | None, registry: Registry | None) -> tuple:
    return (
        identify_chain(chain.levels, context, domain, registry) if registry is not None else (None,) * len(chain.levels)
    )


def _chain_triples(
    chain: OrgChain, minter: Minter, scope: str | None, identified: tuple
) -> tuple[str, tuple[Statement, ...]]:
    """The entry's own (most specific) node, and the triples of the nodes from the top-level
    parent down. ``scope`` is the registrable e-mail domain of a bare unit (a chain of one level)."""
    statements: list[Statement] = []
    parent: str | None = None
    parent_local, parent_display = "", ""
    for level, chinese, known in reversed(list(zip(chain.levels, chain.chinese, identified))):
        local = f"{parent_local}--{slug(level.key)}" if parent is not None else slug(level.key)
        if scope:
            local = f"{local}-at-{slug(scope.replace('.', ' '))}"
        node = minted(minter.iri("institution", local))
        statements.append((node, RDF.type, ORG.Organization))
        if scope:
            statements.append((node, KG.scopedByDomain, literal(scope)))
        if parent is None:
            statements.append((node, KG.nameAsWritten, _named(level.written)))
        else:
            statements.append((node, KG.nameAsWritten, _named(f"{level.written}, {parent_display}")))
            statements.append((node, RDF.type, ORG.OrganizationalUnit))
            statements.append((node, ORG.subOrganizationOf, parent))
        if level.canonical:
            statements.append((node, SKOS.prefLabel, literal(level.canonical, language="en")))
        if level.acronym:
            statements.append((node, SKOS.altLabel, literal(level.acronym, language="en")))
        if chinese:
            statements.append((node, KG.nameAsWritten, _named(chinese)))
        if known is not None:
            statements.extend(identified_triples(node, known, has_parent=parent is not None))
        parent, parent_local = node, local
        parent_display = level.display if not parent_display else f"{level.display}, {parent_display}"
    return parent, tuple(statements)
