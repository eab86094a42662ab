"""The store-level resolution step, run after every change to the store's sources.

Everything decided here needs all sources at once, so it is recomputed from the whole store
each time and never depends on the order sources were ingested:

- **display names**: each person's ``foaf:name``/``rdfs:label``/``skos:prefLabel`` is chosen
  among every way the sources wrote it (:func:`preferred_form`); the other forms become
  ``skos:altLabel``. Institutions get the same, per language, unless the alias table already
  named them.
- **papers from several sources**: :func:`kg.resolve.papers.find_merges` decides; each merge
  rewrites the absorbed paper's IRI to the canonical one *inside the absorbed paper's own
  source graph* (so the union has one paper with both provenance links, exports have no
  duplicate, and no owl:sameAs is needed), and records a ``kg:PaperMerge`` with the evidence.

- **co-author pair counts**: pairs of people with at least :data:`PAIR_FLOOR` papers together,
  counted once here so the whole-graph ``coauthor-pairs`` question reads a few hundred pair
  nodes instead of grouping every pair of every paper (``queries/checks/`` keeps the raw form,
  and the tests check that both agree).
- **units by e-mail domain**: a bare unit a structured source gives ("Department of Computer
  Science", cs.washington.edu) becomes a unit of its domain's one institution (:mod:`.domain_units`).
- **match keys** of every author, institution and topic (:mod:`kg.resolve.match_keys`), so a
  name look-up is one indexed pattern.

The results live in one derived named graph (``{base}graph/resolved``), replaced as a whole.
Rewrites are undone (from those records) before any source graph is replaced or removed and
redone after, which is what :func:`resolution_suspended` wraps around a change: so
``kg remove`` of the listing gives the abstract-only paper its own IRI back, and re-ingesting
either source finds the same merge again.
"""

from __future__ import annotations

import unicodedata
from collections import Counter, defaultdict
from itertools import chain, combinations
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator

import pyoxigraph as ox

from ..rdf.iris import Minter
from ..ingest.names import clean
from ..stores.embedded import KGStore
from ..rdf.vocab import FOAF, KG, RDF, RDFS, SKOS, TRUE, XSD, sparql_prologue
from .aggregates import NAME_LISTS, aggregate_triples, name_list_triples, paper_creators
from .domain_units import domain_unit_triples
from .match_keys import MATCH_KEYS, entity_keys, match_key_triples, text_rows
from .name_index import INDEX_PREDICATES, name_index_triples
from .identity import apply_moves, find_person_merges, person_merge_triples, read_mentions, undo_moves
from .papers import MergeDecisions, PaperFacts, find_merges


def resolved_graph(minter: Minter) -> ox.NamedNode:
    return ox.NamedNode(minter.iri("graph", "resolved"))


@contextmanager
def resolution_suspended(store: KGStore, minter: Minter, on_stage: Callable[[str], None] | None = None) -> Iterator[None]:
    """Undo merges, let the caller change source graphs, then resolve the store again
    (also when the change failed half-way, so the store is never left unresolved);
    ``on_stage`` hears each part of the resolution as it starts.

    A process killed inside leaves a mark in the derived graph (replaced as a whole by
    :func:`rebuild`), so the next command that opens the store resolves it first.
    """
    graph = resolved_graph(minter)
    store.update(f"INSERT DATA {{ GRAPH {graph} {{ {graph} {RDF.type} {KG.DerivedGraph} ; {KG.resolutionSuspended} true }} }}")
    undo_merges(store, minter)
    undo_moves(store, graph)
    try:
        yield
    finally:
        rebuild(store, minter, on_stage)


def interrupted_resolution(store: KGStore) -> Minter | None:
    """The minter of a resolution a killed run left suspended (see :func:`resolution_suspended`),
    or None. The mark sits in ``{base}graph/resolved``, so the base comes back from its IRI."""
    rows = list(store.query(f"SELECT ?g WHERE {{ GRAPH ?g {{ ?g {KG.resolutionSuspended} true }} }} ORDER BY ?g"))
    suffix = "graph/resolved"
    marked = [str(row[0]) for row in rows if str(row[0]).endswith(suffix)]
    return Minter(marked[0][: -len(suffix)]) if marked else None


def preferred_form(counts: dict[str, int]) -> str:
    """The display form among written forms: more diacritics, then mixed case, then more
    often written, then first in code-point order. Depends only on the forms and counts."""
    def rank(form: str) -> tuple:
        marks = sum(unicodedata.combining(ch) > 0 for ch in unicodedata.normalize("NFD", form))
        mixed = any(ch.isupper() for ch in form) and any(ch.islower() for ch in form)
        return (-marks, not mixed, -counts[form], form)
    return min(counts, key=rank)


def _values(rows: Iterable[tuple[ox.NamedNode, ...]]) -> str:
    """A VALUES block of IRIs: pyoxigraph checked them, and str() writes them as <…>."""
    return " ".join("(" + " ".join(str(term) for term in row) + ")" for row in rows)


def _rewrite(store: KGStore, moves: list[tuple[ox.NamedNode, ox.NamedNode, ox.NamedNode]]) -> None:
    """In graph g, every triple naming ``old`` names ``new`` instead; (g, old, new) rows."""
    if not moves:
        return
    values = f"VALUES (?g ?old ?new) {{ {_values(moves)} }}"
    store.update(
        f"DELETE {{ GRAPH ?g {{ ?old ?p ?o }} }} INSERT {{ GRAPH ?g {{ ?new ?p ?o }} }} WHERE {{ {values} GRAPH ?g {{ ?old ?p ?o }} }} ;\n"
        f"DELETE {{ GRAPH ?g {{ ?s ?p ?old }} }} INSERT {{ GRAPH ?g {{ ?s ?p ?new }} }} WHERE {{ {values} GRAPH ?g {{ ?s ?p ?old }} }}"
    )


def undo_merges(store: KGStore, minter: Minter) -> None:
    """Give absorbed papers their own IRIs back and forget the merges."""
    graph = resolved_graph(minter)
    rows = store.query(
        sparql_prologue() + f"SELECT ?g ?canonical ?absorbed WHERE {{ GRAPH {graph} {{ ?m a kg:PaperMerge ; "
        "kg:inGraph ?g ; kg:mergedInto ?canonical ; kg:absorbed ?absorbed } }"
    )
    moves = [(ox.NamedNode(str(g)), ox.NamedNode(str(c)), ox.NamedNode(str(a))) for g, c, a in rows]
    _rewrite(store, moves)
    store.update(f"DELETE {{ GRAPH {graph} {{ ?m ?p ?o }} }} WHERE {{ GRAPH {graph} {{ ?m a <{KG.PaperMerge.value}> ; ?p ?o }} }}")


def read_papers(store: KGStore, minter: Minter) -> list[PaperFacts]:
    # The derived graph's IRI is ours (checked by pyoxigraph), so it is written into the text.
    rows = text_rows(store, sparql_prologue() + """
        SELECT ?paper ?g ?title ?abstract ?url ?venue WHERE {
          GRAPH ?g { ?paper a schema:ScholarlyArticle }
          FILTER(?g != RESOLVED)
          OPTIONAL { GRAPH ?g { ?paper dcterms:title ?title FILTER(lang(?title) = "en") } }
          OPTIONAL { GRAPH ?g { ?paper dcterms:abstract ?abstract } }
          OPTIONAL { GRAPH ?g { ?paper ^schema:isBasedOn/schema:codeRepository|kg:projectPage|rdfs:seeAlso ?url } }
          OPTIONAL { GRAPH ?g { ?paper bibo:presentedAt ?venue . ?venue a bibo:Conference } }
        }""".replace("RESOLVED", str(resolved_graph(minter))))
    papers: dict[tuple[str, str], PaperFacts] = {}
    for paper, graph, title, abstract, url, venue in rows:
        facts = papers.setdefault((paper, graph), PaperFacts(paper, graph))
        facts.title = facts.title or title
        facts.abstract = facts.abstract or abstract
        if url is not None:
            facts.urls.add(url)
        if venue is not None:
            facts.venues.add(venue)
    return [papers[key] for key in sorted(papers)]


def merge_triples(decisions: MergeDecisions, minter: Minter) -> Iterator[ox.Triple]:
    for merge in decisions.merges:
        local = f"{merge.absorbed.iri.rsplit('/', 1)[-1]}--{merge.absorbed.graph.rsplit('/', 1)[-1]}"
        node = ox.NamedNode(minter.iri("merge", local))
        yield ox.Triple(node, RDF.type, KG.PaperMerge)
        yield ox.Triple(node, KG.mergedInto, ox.NamedNode(merge.canonical.iri))
        yield ox.Triple(node, KG.absorbed, ox.NamedNode(merge.absorbed.iri))
        yield ox.Triple(node, KG.inGraph, ox.NamedNode(merge.absorbed.graph))
        for kind in merge.evidence:
            yield ox.Triple(node, KG.evidence, ox.Literal(kind))
        yield ox.Triple(node, RDFS.comment, ox.Literal(merge.explanation))


def _forms(rows) -> dict[tuple[str, str], dict[str, int]]:
    """(entity, language) -> {written form: count}, forms cleaned and their counts summed."""
    forms: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for entity, written, count in rows:  # pyoxigraph terms (no rdflib conversion of every row)
        forms[(entity.value, written.language or "")][clean(written.value)] += int(count.value)
    return forms


def person_forms(store: KGStore) -> dict[tuple[str, str], dict[str, int]]:
    """(person, language) -> {every way the sources wrote the name: authorships}."""
    return _forms(store.select_terms(sparql_prologue() + """
        SELECT ?person ?written (COUNT(DISTINCT ?authorship) AS ?n)
        WHERE { ?authorship kg:author ?person ; kg:nameAsWritten ?written } GROUP BY ?person ?written"""))


def label_triples(store: KGStore, graph: ox.NamedNode, people: dict[tuple[str, str], dict[str, int]]) -> Iterator[ox.Triple]:
    """Display names of people (from :func:`person_forms`) and institutions, chosen across every source."""
    for (person, _), counts in sorted(people.items()):
        node, name = ox.NamedNode(person), preferred_form(counts)
        for predicate in (FOAF.name, RDFS.label, SKOS.prefLabel):
            yield ox.Triple(node, predicate, ox.Literal(name))
        for form in sorted(set(counts) - {name}):
            yield ox.Triple(node, SKOS.altLabel, ox.Literal(form))
    organisations = _forms(store.select_terms(sparql_prologue() + """
        SELECT ?org ?written (COUNT(DISTINCT ?g) AS ?n)
        WHERE { GRAPH ?g { ?org a org:Organization ; kg:nameAsWritten ?written } FILTER(lang(?written) != "") }
        GROUP BY ?org ?written"""))
    named = {(org.value, label.language or ""): clean(label.value) for org, label in store.select_terms(
        sparql_prologue() + "SELECT ?org ?label WHERE { GRAPH ?g { ?org a org:Organization ; skos:prefLabel ?label } "
        f"FILTER(?g != {graph}) }}")}  # names from the alias table, not the ones this step chose last time
    for (org, language), counts in sorted(organisations.items()):
        node, name = ox.NamedNode(org), named.get((org, language))
        if name is None:
            name = preferred_form(counts)
            yield ox.Triple(node, SKOS.prefLabel, ox.Literal(name, language=language))
            yield ox.Triple(node, RDFS.label, ox.Literal(name, language=language))
        for form in sorted(set(counts) - {name}):
            yield ox.Triple(node, SKOS.altLabel, ox.Literal(form, language=language))


PAIR_FLOOR = 2  # a pair with one shared paper is just that paper's author list


def coauthor_pair_triples(creators: dict[str, set[str]], minter: Minter) -> Iterator[ox.Triple]:
    """``kg:CoauthorPair`` nodes: two people (in code-point order of IRI) and their shared papers,
    from each paper's authors (:func:`kg.resolve.aggregates.paper_creators`)."""
    shared = Counter(pair for authors in creators.values() for pair in combinations(sorted(authors), 2))
    for (author, coauthor), count in sorted(shared.items()):
        if count < PAIR_FLOOR:
            continue
        local = f"{author.rsplit('/', 1)[-1]}--{coauthor.rsplit('/', 1)[-1]}"
        node = ox.NamedNode(minter.iri("coauthor-pair", local))
        yield ox.Triple(node, RDF.type, KG.CoauthorPair)
        yield ox.Triple(node, KG.pairAuthor, ox.NamedNode(author))
        yield ox.Triple(node, KG.pairCoauthor, ox.NamedNode(coauthor))
        yield ox.Triple(node, KG.sharedPapers, ox.Literal(str(count), datatype=XSD.integer))


def rebuild(store: KGStore, minter: Minter, on_stage: Callable[[str], None] | None = None) -> MergeDecisions:
    """Decide merges, rewrite absorbed papers, move name-only mentions to identified people, and
    replace the derived graph.

    The merge records are stored (with the suspended mark) before any paper is rewritten or
    mention moved, so a run killed between the two leaves what :func:`resume` needs to undo."""
    stage = on_stage or (lambda description: None)
    stage("resolving: papers that several sources state")
    undo_moves(store, resolved_graph(minter))  # person moves of the last run (or a killed one)
    # Papers of one source never merge (find_merges), so a store of one source reads none back.
    decisions = find_merges(read_papers(store, minter)) if len(store.sources()) > 1 else MergeDecisions()
    graph = resolved_graph(minter)
    merges = list(merge_triples(decisions, minter))
    # The derived graph is added to under the suspended mark and only its difference written
    # (set_graph_triples): dropping a whole graph costs a delete of every triple, and after a
    # small change of sources most of it is as before.
    base = [ox.Triple(graph, RDF.type, KG.DerivedGraph), *merges]
    store.add_graph_triples(graph, [ox.Triple(graph, KG.resolutionSuspended, TRUE), *base])
    _rewrite(store, [(ox.NamedNode(m.absorbed.graph), ox.NamedNode(m.absorbed.iri), ox.NamedNode(m.canonical.iri))
                     for m in decisions.merges])
    stage("resolving: authors that identifiers name")
    people, _ = find_person_merges(read_mentions(store))
    moves = list(person_merge_triples(people, minter))
    store.add_graph_triples(graph, moves)
    apply_moves(store, people)
    # The derived triples stream into the store's writer, which reads them all before the graph
    # changes (set_graph_triples), so the labels and counts below read the store as it was. The
    # aggregates roll units up to parents, so they take the units placed by domain just made
    # (the derived graph still holds the last run's until it is set).
    stage("resolving: display names")  # the forms are read here (20 s at 100,000 papers)
    units = list(domain_unit_triples(store, minter))
    forms = person_forms(store)

    def derived(forms: dict[tuple[str, str], dict[str, int]]) -> Iterator[ox.Triple]:
        yield ox.Triple(graph, KG.resolutionSuspended, TRUE)
        yield from base
        yield from moves
        yield from label_triples(store, graph, forms)
        stage("resolving: co-author pairs and counts per institution")
        creators = paper_creators(store)
        yield from coauthor_pair_triples(creators, minter)
        yield from units
        yield from aggregate_triples(store, minter, creators, units)
        stage("resolving: writing the derived graph")

    written_after = MATCH_KEYS | INDEX_PREDICATES | NAME_LISTS  # read back from what this write stores
    store.set_graph_triples(graph, derived(forms), keep=written_after)
    stage("resolving: name look-up keys and name lists")
    # Match keys fold every name, the ones just chosen included (and no stale one), and the name lists
    # show the display names just chosen, so they come after.
    names: dict[str, set[str]] = defaultdict(set)
    for (person, _), counts in forms.items():
        names[person].update(counts)
    del forms  # the forms' counts, of 635,000 people at 300,000 papers
    entities = entity_keys(store, names)
    del names
    store.set_graph_triples(graph, chain(match_key_triples(entities), name_index_triples(store, entities, minter),
                                         name_list_triples(store)), only=written_after)
    store.update(f"DELETE DATA {{ GRAPH {graph} {{ {graph} {KG.resolutionSuspended} {TRUE} }} }}")  # resolved
    return decisions


def resume(store: KGStore, minter: Minter) -> MergeDecisions:
    """Finish the resolution a killed run left suspended: undo the rewrites its merge records
    name (a rewrite not made yet is a no-op), then resolve afresh."""
    undo_merges(store, minter)
    return rebuild(store, minter)

