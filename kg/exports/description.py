"""The dataset's description of itself, in VoID and DCAT: what it is, its licence, when its sources
were made, which sources it was derived from, how many triples, papers, authors and institutions
it holds (every count ``kg stats`` prints, so it need not count), and its SPARQL endpoint when the store is a server.

It lives in its own named graph (``{base}graph/description``), rewritten after every change of
sources, so every export and every query sees it. Its date is the newest source file's, never the
clock's, so the same sources give the same bytes.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Iterator, Mapping

import pyoxigraph as ox

from ..orgs.registry_table import registry_version
from ..query.stats import graph_stats
from ..rdf.iris import Minter
from ..stores.embedded import KGStore
from ..vocab import DCAT, DCTERMS, FOAF, KG, ORG, PREFIXES, PROV, RDF, RDFS, SCHEMA, VOID, XSD, sparql_prologue

TITLE = "Knowledge graph of conference paper listings"
LICENCE = ox.NamedNode("https://spdx.org/licenses/MIT")
REGISTRY_LICENCE = ox.NamedNode("https://creativecommons.org/publicdomain/zero/1.0/")
REGISTRY_NOTICE = (
    "Contains ROR data (CC0); locations from GeoNames (CC BY). University e-mail domains from "
    "Hipo's university-domains-list (MIT). See kg/orgs/data/NOTICE."
)
#: Classes counted with a VoID class partition, by the name of their count in :func:`graph_stats`.
PARTITIONS = {"papers": SCHEMA.ScholarlyArticle, "authors": FOAF.Person, "institutions": ORG.Organization}
SOURCES_QUERY = """SELECT ?source ?modified WHERE { GRAPH ?source { ?source a kg:Source
                   OPTIONAL { ?source dcterms:modified ?modified } } } ORDER BY ?source"""
MARKS_QUERY = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?g kg:resolutionSuspended true } }"
VOCABULARY_PREFIXES = ("dcterms", "foaf", "org", "skos", "schema", "bibo", "fabio", "prov", "kg")


def description_graph(minter: Minter) -> ox.NamedNode:
    return ox.NamedNode(minter.iri("graph", "description"))


def file_modified(timestamp: float) -> ox.Literal:
    """A source file's modification time as xsd:dateTime in UTC, to the second."""
    moment = datetime.fromtimestamp(int(timestamp), tz=timezone.utc)
    return ox.Literal(moment.strftime("%Y-%m-%dT%H:%M:%SZ"), datatype=XSD.dateTime)


def _integer(value: int) -> ox.Literal:
    return ox.Literal(str(value), datatype=XSD.integer)


def description_triples(
    counts: dict[str, int],
    sources: list[tuple[ox.NamedNode, ox.Literal | None]],
    minter: Minter,
    endpoint: str | None = None,
    registry: str | None = None,
) -> list[ox.Triple]:
    """The description's triples; ``counts["triples"]`` is the data's count, without the description;
    ``registry`` the version of the organisation registry the institutions were identified with."""
    graph = description_graph(minter)
    dataset = ox.NamedNode(minter.iri("dataset", "kg"))

    def statements() -> Iterator[ox.Triple]:
        yield ox.Triple(graph, RDF.type, KG.DerivedGraph)
        for kind in (VOID.Dataset, DCAT.Dataset):
            yield ox.Triple(dataset, RDF.type, kind)
        yield ox.Triple(dataset, DCTERMS.title, ox.Literal(TITLE, language="en"))
        yield ox.Triple(
            dataset,
            DCTERMS.description,
            ox.Literal(
                f"Papers, authors, institutions, venues and topics read by kg from {len(sources)} listing file(s).",
                language="en",
            ),
        )
        yield ox.Triple(dataset, DCTERMS.license, LICENCE)
        dates = sorted(modified.value for _, modified in sources if modified is not None)
        if dates:
            yield ox.Triple(dataset, DCTERMS.created, ox.Literal(dates[-1], datatype=XSD.dateTime))
        for source, _ in sources:
            yield ox.Triple(dataset, PROV.wasDerivedFrom, source)
        yield ox.Triple(dataset, VOID.uriSpace, ox.Literal(minter.base))
        for prefix in VOCABULARY_PREFIXES:
            yield ox.Triple(dataset, VOID.vocabulary, ox.NamedNode(PREFIXES[prefix]))
        if endpoint:
            yield ox.Triple(dataset, VOID.sparqlEndpoint, ox.NamedNode(endpoint))
        if registry:
            yield from _registry_triples(dataset, registry, minter)
        for name, cls in PARTITIONS.items():
            partition = ox.NamedNode(minter.part("dataset", "kg", name))
            yield ox.Triple(dataset, VOID.classPartition, partition)
            yield ox.Triple(partition, getattr(VOID, "class"), cls)
            yield ox.Triple(partition, VOID.entities, _integer(counts[name]))

        # Every count kg stats prints, so that it reads them here instead of counting the store.
        for name in (name for name in counts if name != "triples"):
            statistic = ox.NamedNode(minter.part("dataset", "kg", f"count-{name}"))
            yield ox.Triple(dataset, KG.statistic, statistic)
            yield ox.Triple(statistic, RDFS.label, ox.Literal(name))
            yield ox.Triple(statistic, RDF.value, _integer(counts[name]))

    triples = list(statements())
    # Every triple here is new (its subject is the dataset, a partition or the graph), so the
    # whole graph holds the data's triples, these, and the count itself.
    triples.append(ox.Triple(dataset, VOID.triples, _integer(counts["triples"] + len(triples) + 1)))
    return triples


def _registry_triples(dataset: ox.NamedNode, version: str, minter: Minter) -> Iterator[ox.Triple]:
    """The organisation registry the institutions' ROR ids, countries and types come from."""
    registry = ox.NamedNode(minter.part("dataset", "kg", "organisation-registry"))
    yield ox.Triple(dataset, DCTERMS.source, registry)
    yield ox.Triple(registry, RDFS.label, ox.Literal("Research Organization Registry (ROR)", language="en"))
    yield ox.Triple(registry, DCTERMS.hasVersion, ox.Literal(version))
    yield ox.Triple(registry, DCTERMS.license, REGISTRY_LICENCE)
    yield ox.Triple(registry, DCTERMS.rights, ox.Literal(REGISTRY_NOTICE, language="en"))


def describe(store: KGStore, minter: Minter, known_quads: Mapping[str, int] | None = None) -> None:
    """Rewrite the description graph from what the store holds now; ``known_quads``: graphs' quad counts
    that hold now (the sources' the resolution step counted for their kept rows), not counted again."""
    graph = description_graph(minter)
    # Counted without its old self, which stays until the new one replaces it: a command killed
    # while counting (seconds at 10^5 papers) leaves the last description, not none.
    sources = [(row[0], row[1]) for row in store.select_terms(sparql_prologue() + SOURCES_QUERY)]
    counts = graph_stats(store, without=graph, known_quads=known_quads)
    # Written under the resolution's suspended mark (kg.resolve.store_step.rebuild), whose removal
    # is the change's last write: the count is of the store as that leaves it.
    counts["triples"] -= store.scalar(sparql_prologue() + MARKS_QUERY)
    triples = description_triples(counts, sources, minter, store.endpoint, registry_version())
    store.replace_graph_triples(graph, triples)
