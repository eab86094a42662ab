"""The store-level resolution step, run after every change to the store's sources.

Everything decided here needs all sources at once, so it is recomputed from the whole store
each time and never depends on the order sources were ingested:

- **display names**: each person's ``skos:prefLabel`` is chosen
  among every way the sources wrote it (:func:`preferred_form`); the other forms become
  ``skos:altLabel``. Institutions get the same, per language, unless the alias table already
  named them.
- **papers from several sources**: :func:`kg.resolve.papers.find_merges` decides (from a side index of the
  papers, :mod:`.merge_memo`, where it holds); each merge
  rewrites the absorbed paper's IRI to the canonical one *inside the absorbed paper's own
  source graph* (so the union has one paper with both provenance links, exports have no
  duplicate, and no owl:sameAs is needed), and records a ``kg:PaperMerge`` with the evidence.

- **co-author pair counts**: pairs of people with at least :data:`~kg.resolve.count_ledger.PAIR_FLOOR` papers together,
  counted once here so the whole-graph ``coauthor-pairs`` question reads a few hundred pair
  nodes instead of grouping every pair of every paper (``queries/checks/`` keeps the raw form,
  and the tests check that both agree).
- **units by e-mail domain**: a bare unit a structured source gives ("Department of Computer
  Science", cs.washington.edu) becomes a unit of its domain's one institution (:mod:`.domain_units`).
- **units by name**: an organisation the alias table does not know whose name is another
  organisation's of the corpus and a lab's or a place's words ("Intel Labs", "University of
  Michigan - Ann Arbor") becomes a unit of it (:mod:`.name_units`).
- **other names of an institution**: an acronym written alone or a system's abbreviation before a
  campus ("KAUST", "UC Santa Barbara") is placed under the one organisation of the corpus it
  names (:mod:`.other_names`).
- **match keys** of every author, institution and topic (:mod:`kg.index.match_keys`), so a
  name look-up is one indexed pattern.

The results live in one derived named graph (``{base}graph/resolved``), replaced as a whole.
Rewrites are undone (from those records) before any source graph is replaced or removed and
redone after, which is what :func:`resolution_suspended` wraps around a change: so
``kg remove`` of the listing gives the abstract-only paper its own IRI back, and re-ingesting
either source finds the same merge again.
"""

from __future__ import annotations

import tempfile
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import replace
from functools import partial
from itertools import chain
from pathlib import Path
from typing import Callable, Iterable, Iterator

import pyoxigraph as ox

from ..processes import reads_beside
from ..rdf.iris import Minter
from ..rdf.topic_triples import detail_graph
from ..stores.beside import TriplesBeside
from ..stores.embedded import KGStore
from ..text.names import clean
from ..vocab import KG, RDF, RDFS, SKOS, TRUE, XSD, sparql_prologue
from .aggregates import aggregate_triples
from .count_ledger import ledger_path
from .domain_units import domain_unit_triples
from .graph_memo import set_graph_remembered
from .identified import anyone_identified
from .identity import apply_moves, find_person_merges, person_merge_triples, read_mentions, undo_moves
from .index_parts import index_sections, name_index_of_kinds
from .kept_rows import counted, forget_rewritten, kept, note_rewritten, side_folder
from .list_rows import TwinFiles
from .list_store import kept_lists
from .merge_memo import decided_merges
from .name_list_memo import NamesChanged, made_lists, remembered_lists
from .name_units import corpus_organisations, name_unit_triples
from .other_names import same_institution_triples
from .papers import MergeDecisions
from .person_labels import HeldLabels, person_label_triples, preferred_form, remembered_names
from .resolved_memo import set_resolved
from .same_ids import find_same_id_merges, read_links, same_id_triples
from .staged_rows import StagedRows
from .unit_forms import company_labs
from .written_forms import form_groups

Stage = Callable[[str], None] | None  # hears each part of the resolution as it starts
# The last step under the suspended mark (the lists, the description), given the rows the step made for the
# lists and the source graphs' quad counts that hold.
Finish = Callable[[TwinFiles, dict[str, int]], None] | None


def resolved_graph(minter: Minter) -> ox.NamedNode:
    return ox.NamedNode(minter.iri("graph", "resolved"))


def index_graph(minter: Minter) -> ox.NamedNode:
    """The graph of what the query library reads instead of grouping the whole graph (counts,
    co-author pairs, match keys, the name index, name lists): in every query's union, left out of
    exports and of the triple count (``kg:IndexGraph``)."""
    return ox.NamedNode(minter.iri("graph", "index"))


@contextmanager
def resolution_suspended(store: KGStore, minter: Minter, **rebuilding) -> Iterator[None]:
    """Undo merges, let the caller change source graphs, then resolve the store again
    (also when the change failed half-way, so the store is never left unresolved);
    ``rebuilding``: the keyword arguments of :func:`rebuild` (``on_stage``, ``jobs``, ``staged``,
    ``finish``), given to it as they are.

    A process killed inside leaves a mark in the derived graph (replaced as a whole by
    :func:`rebuild`), so the next command that opens the store resolves it first.
    """
    graph = resolved_graph(minter)
    store.update(
        f"INSERT DATA {{ GRAPH {graph} {{ {graph} {RDF.type} {KG.DerivedGraph} ; {KG.resolutionSuspended} true }} }}"
    )
    undo_merges(store, minter)
    undo_moves(store, graph)
    try:
        yield
    except BaseException:
        rebuild(store, minter, **{**rebuilding, "staged": None})  # the staged sources may not be in the store
        raise
    rebuild(store, minter, **rebuilding)


def interrupted_resolution(store: KGStore) -> Minter | None:
    """The minter of a resolution a killed run left suspended (see :func:`resolution_suspended`),
    or None. The mark sits in ``{base}graph/resolved``, so the base comes back from its IRI."""
    rows = list(store.query(f"SELECT ?g WHERE {{ GRAPH ?g {{ ?g {KG.resolutionSuspended} true }} }} ORDER BY ?g"))
    suffix = "graph/resolved"
    marked = [str(row[0]) for row in rows if str(row[0]).endswith(suffix)]
    return Minter(marked[0][: -len(suffix)]) if marked else None


def _values(rows: Iterable[tuple[ox.NamedNode, ...]]) -> str:
    """A VALUES block of IRIs: pyoxigraph checked them, and str() writes them as <…>."""
    return " ".join("(" + " ".join(str(term) for term in row) + ")" for row in rows)


def _rewrite(store: KGStore, moves: list[tuple[ox.NamedNode, ox.NamedNode, ox.NamedNode]]) -> None:
    """In graph g and its topic detail graph, every triple naming ``old`` names ``new`` instead; (g, old, new) rows."""
    if not moves:
        return
    moves = [*moves, *((detail_graph(graph), old, new) for graph, old, new in moves)]
    values = f"VALUES (?g ?old ?new) {{ {_values(moves)} }}"
    store.update(
        f"DELETE {{ GRAPH ?g {{ ?old ?p ?o }} }} INSERT {{ GRAPH ?g {{ ?new ?p ?o }} }} WHERE {{ "
        f"{values} GRAPH ?g {{ ?old ?p ?o }} }} ;\n"
        f"DELETE {{ GRAPH ?g {{ ?s ?p ?old }} }} INSERT {{ GRAPH ?g {{ ?s ?p ?new }} }} WHERE {{ "
        f"{values} GRAPH ?g {{ ?s ?p ?old }} }}"
    )


_RENAMES = f"VALUES ?kind {{ {KG.PaperMerge} {KG.SamePersonByIdentifier} }}"  # records of a node renamed in a graph


def undo_merges(store: KGStore, minter: Minter) -> None:
    """Give absorbed papers and people their own IRIs back and forget the merges."""
    graph = resolved_graph(minter)
    rows = store.query(
        sparql_prologue() + f"SELECT ?g ?canonical ?absorbed WHERE {{ {_RENAMES} GRAPH {graph} {{ ?m a ?kind ; "
        "kg:inGraph ?g ; kg:mergedInto ?canonical ; kg:absorbed ?absorbed } }"
    )
    moves = [(ox.NamedNode(str(g)), ox.NamedNode(str(c)), ox.NamedNode(str(a))) for g, c, a in rows]
    _rewrite(store, moves)
    store.update(
        f"DELETE {{ GRAPH {graph} {{ ?m ?p ?o }} }} WHERE {{ {_RENAMES} GRAPH {graph} {{ ?m a ?kind ; ?p ?o }} }}"
    )


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
        if merge.scores is not None:
            for predicate, value in zip((KG.joinScore, KG.joinMargin), merge.scores):
                yield ox.Triple(node, predicate, ox.Literal(f"{value:.2f}", datatype=XSD.decimal))


def institution_label_triples(store: KGStore, graph: ox.NamedNode) -> Iterator[ox.Triple]:
    """Display names of institutions per language, chosen across every source unless the alias table named them."""
    organisations: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for org, written, count in store.select_terms(
        sparql_prologue()
        + """
            SELECT ?org ?written (COUNT(DISTINCT ?g) AS ?n)
            WHERE { GRAPH ?g { ?org a org:Organization ; kg:nameAsWritten ?written } FILTER(lang(?written) != "") }
            GROUP BY ?org ?written"""
    ):
        organisations[(org.value, written.language or "")][clean(written.value)] += int(count.value)
    named = {
        (org.value, label.language or ""): clean(label.value)
        for org, label in store.select_terms(
            sparql_prologue()
            + "SELECT ?org ?label WHERE { GRAPH ?g { ?org a org:Organization ; skos:prefLabel ?label } "
            f"FILTER(?g != {graph}) }}"
        )
    }  # names from the alias table, not the ones this step chose last time
    for (org, language), counts in sorted(organisations.items()):
        node, name = ox.NamedNode(org), named.get((org, language))
        if name is None:
            name = preferred_form(counts)
            yield ox.Triple(node, SKOS.prefLabel, ox.Literal(name, language=language))
        for form in sorted(set(counts) - {name}):
            yield ox.Triple(node, SKOS.altLabel, ox.Literal(form, language=language))


def _counts(
    store: KGStore,
    minter: Minter,
    units: list[ox.Triple],
    staged: StagedRows,
    introducing: Path,
    lists: TwinFiles,
    ledger: Path | None,
    papers: Path,
) -> Iterator[ox.Triple]:
    return aggregate_triples(store, minter, units, store.scratch_dir, staged, introducing, lists, ledger, papers)


def rebuild(
    store: KGStore,
    minter: Minter,
    on_stage: Stage = None,
    jobs: int | None = None,
    staged: StagedRows | None = None,
    finish: Finish = None,
) -> MergeDecisions:
    """Decide merges, rewrite absorbed papers, move name-only mentions to identified people, and
    replace the derived graph; with ``jobs`` above one (default: the cores) two long reads run in
    reader processes (:class:`~kg.stores.beside.TriplesBeside`); ``staged``: the side rows of the
    sources the run just put in the store (:mod:`.staged_rows`), read instead of their graphs.
    ``finish`` (the description) runs when all is resolved but the suspended mark, whose removal is
    the last write.

    The merge records are stored (with the suspended mark) before any paper is rewritten or
    mention moved, so a run killed between the two leaves what :func:`resume` needs to undo."""
    stage = on_stage or (lambda description: None)
    staged = staged or StagedRows()
    stage("resolving: papers that several sources state")
    # Person moves of the last run (or a killed one); a graph they write is no longer as counted.
    staged.forget_quads(undo_moves(store, resolved_graph(minter)))
    # The other sources' rows where the store kept them and they still hold (the graphs as mapped again).
    sources = store.sources()
    others = [graph for graph in sources if graph not in staged.files]
    counts = counted(store, others)
    forget_rewritten(store)  # until this run's rewrites are made (kept_rows.note_rewritten)
    staged.quads.update(counts)  # the graphs' now, whether their rows still hold or not
    staged.files = {**kept(store, counts), **staged.files}
    # Papers of one source never merge (find_merges), so a store of one source reads none back.
    decisions = decided_merges(store, minter, staged) if len(sources) > 1 else MergeDecisions()
    graph = resolved_graph(minter)
    merges = list(merge_triples(decisions, minter))
    # The derived graph is added to under the suspended mark and only its difference written
    # (set_graph_triples): dropping a whole graph costs a delete of every triple, and after a
    # small change of sources most of it is as before.
    base = [ox.Triple(graph, RDF.type, KG.DerivedGraph), *merges]
    store.add_graph_triples(graph, [ox.Triple(graph, KG.resolutionSuspended, TRUE), *base])
    _rewrite(
        store,
        [
            (ox.NamedNode(m.absorbed.graph), ox.NamedNode(m.absorbed.iri), ox.NamedNode(m.canonical.iri))
            for m in decisions.merges
        ],
    )
    staged.rename((m.absorbed.graph, m.absorbed.iri, m.canonical.iri) for m in decisions.merges)
    stage("resolving: authors that identifiers name")
    same_ids = find_same_id_merges(read_links(store)) if len(sources) > 1 else []
    renamed = list(same_id_triples(same_ids, minter))
    store.add_graph_triples(graph, renamed)
    _rewrite(store, [(ox.NamedNode(m.graph), ox.NamedNode(m.absorbed), ox.NamedNode(m.canonical)) for m in same_ids])
    staged.rename((m.graph, m.absorbed, m.canonical) for m in same_ids)
    people, _ = find_person_merges(read_mentions(store, anyone_identified(store, staged)))
    staged.move((m.graph, m.authorship, m.absorbed, m.canonical) for m in people)
    moves = list(person_merge_triples(people, minter))
    store.add_graph_triples(graph, moves)
    apply_moves(store, people)
    note_rewritten(store, graph)
    # The derived triples stream into the store's writer, which reads them all before the graph
    # changes (set_graph_triples), so the labels and counts below read the store as it was. The
    # aggregates roll units up to parents, so they take the units (and other names) placed just now
    # (the derived graph still holds the last run's until it is set).
    stage("resolving: display names")
    corpus = corpus_organisations(store, graph)
    placed = [*domain_unit_triples(store, minter), *name_unit_triples(corpus, minter, company_labs(corpus.top_level))]
    units = [*placed, *same_institution_triples(corpus, minter, placed)]
    with tempfile.TemporaryDirectory(prefix="kg-resolve-", dir=store.scratch_dir) as folder:
        person_keys, person_names, introducing, papers = (
            Path(folder) / name for name in ("keys", "names", "introducing", "own")
        )
        lists = TwinFiles.in_folder(Path(folder), person_names, store.scratch_dir)
        # The counts read what the names read, and each is one core's work: on an on-disk store
        # they are counted by a reader process while the names are chosen here (kg/stores/beside.py).
        # The same pass writes what the name lists are made of (``introducing``), read once it is over.
        counts = TriplesBeside(
            store,
            reads_beside(jobs),
            "counting co-author pairs and institutions",
            _counts,
            minter,
            units,
            staged,
            introducing,
            lists,
            ledger_path(side_folder(store)),  # the reader process's snapshot keeps no folder: named here
            papers,
        )
        # the people whose names this run chose afresh: their papers' name lists are made again
        changed = NamesChanged()

        remembered = remembered_names(side_folder(store))

        def labels(held: HeldLabels | None) -> Iterator[ox.Triple]:
            with open(person_keys, "w", encoding="utf-8") as keys, open(person_names, "w", encoding="utf-8") as names:
                yield from person_label_triples(form_groups(store, staged), keys, names, remembered, changed, held)
            stage("resolving: writing the derived graph")

        index = index_graph(minter)
        try:
            # Only the people whose names were chosen afresh, where the graph holds the remembered ones.
            rest = chain([ox.Triple(graph, KG.resolutionSuspended, TRUE)], base, renamed, moves)
            set_resolved(store, graph, chain(rest, institution_label_triples(store, graph), units), labels, remembered)
            stage("resolving: co-author pairs, counts, name look-up keys and name lists")
            # Match keys fold every name, the ones just chosen included (and no stale one), and the name lists
            # show the display names just chosen (and the counts' pass has written their papers), so they come after.
            made = partial(
                made_lists,
                store,
                introducing,
                person_names,
                store.scratch_dir,
                remembered_lists(side_folder(store)),
                changed,
            )
            set_graph_remembered(  # changed by its difference from the last run's, remembered beside the store
                store,
                index,
                chain(
                    [ox.Triple(index, RDF.type, KG.DerivedGraph), ox.Triple(index, RDF.type, KG.IndexGraph)],
                    counts,
                    name_index_of_kinds(store, person_keys, minter),
                ),
                "index",
                index_sections(store, person_keys, made, lists, papers),
            )
        finally:
            counts.stop()  # at once when the names failed; nothing left to do once they are read
        if finish:  # under the mark: a run that fails here leaves the next command to resume, this included
            # with the lists about an institution as the last run left them, brought up to date (.list_store)
            finish(replace(lists, kept=kept_lists(side_folder(store), changed)), staged.known_quads())
    store.update(f"DELETE DATA {{ GRAPH {graph} {{ {graph} {KG.resolutionSuspended} {TRUE} }} }}")  # resolved
    return decisions


def resume(store: KGStore, minter: Minter, finish: Finish = None) -> MergeDecisions:
    """Finish the resolution a killed run left suspended: undo the rewrites its merge records
    name (a rewrite not made yet is a no-op), then resolve afresh (``finish`` as for :func:`rebuild`)."""
    undo_merges(store, minter)
    return rebuild(store, minter, finish=finish)
