"""Listing files -> records -> triples -> store, one source at a time.

Each file is read as a stream; its triples go to a temporary N-Triples file and only when
every file has been read do those files replace the sources' graphs in the store, in one
commit (bulk loaded, atomically: see :meth:`kg.stores.embedded.KGStore.replace_graphs`). A run
that fails or is killed half-way leaves the store as it was. Every record read ends up either
in the graph or in the report's rejections.
"""

from __future__ import annotations

import itertools
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Iterator

import pyoxigraph as ox

from . import ONTOLOGY_DIR
from .errors import KgError, plural
from .exports.description import describe, description_graph, file_modified
from .ingest.comments import PublicationInfo, names_conference, parse_publication, venue_of_header
from .ingest.formats import read_source
from .nlp.scheme import read_scheme
from .orgs.aliases import active_aliases
from .orgs.registry_table import ShippedRegistry
from .processes import default_jobs
from .query.precompute import rankings_graph, refresh_rankings
from .rdf.iris import Minter
from .rdf.mapping import source_iri, source_triples
from .rdf.staging import Stager
from .rdf.terms import ntriples
from .rdf.topic_triples import detail_graph, detail_graph_triples, scheme_graph
from .records import PaperRecord, Rejection
from .resolve import kept_rows
from .resolve.list_rows import TwinFiles
from .resolve.staged_rows import StagedRows
from .resolve.store_step import index_graph, resolution_suspended, resolved_graph
from .stores.embedded import KGStore
from .vocab import KG, KG_NS, RDF

LISTING_SUFFIXES = {".txt", ".text", ".listing", "", ".json", ".bib", ".atom", ".xml", ".csv", ".tsv"}


@dataclass
class SourceReport:
    path: str
    name: str
    format: str
    read: int = 0
    ingested: int = 0
    rejections: list[Rejection] = field(default_factory=list)


@dataclass
class IngestReport:
    sources: list[SourceReport] = field(default_factory=list)

    @property
    def read(self) -> int:
        return sum(s.read for s in self.sources)

    @property
    def ingested(self) -> int:
        return sum(s.ingested for s in self.sources)

    @property
    def rejections(self) -> list[Rejection]:
        return [r for s in self.sources for r in s.rejections]


class StrictError(KgError):
    """--strict and a record was rejected."""


class NothingRead(KgError):
    """Every record was rejected, or there were none: there is nothing to put in the store."""

    def __init__(self, message: str, report: "IngestReport"):
        super().__init__(message)
        self.report = report


def expand_paths(paths: Iterable[Path]) -> list[Path]:
    """Files as given, folders as the listing files inside them (sorted, so runs repeat)."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(
                sorted(
                    p
                    for p in path.rglob("*")
                    if p.is_file() and p.suffix.lower() in LISTING_SUFFIXES and not p.name.startswith(".")
                )
            )
        else:
            files.append(path)
    return files


def source_names(files: list[Path]) -> list[str]:
    """Stable names for sources: the file name, or the path where two files share a name."""
    counts = Counter(f.name for f in files)
    return [f.name if counts[f.name] == 1 else f.as_posix() for f in files]


def publication_facts(records: Iterable[PaperRecord]) -> Iterator[tuple[PaperRecord, PublicationInfo]]:
    """Pair records with their publication facts, filling the venue and year a record leaves out.

    The venue header applies to records that name no conference, and its year to records that
    name its conference without one (an ACL Anthology booktitle, "…Linguistics (Volume 1: Long
    Papers)", in ``acl2022.json``). Any other record that names a conference without a year
    ("EIML@ICML") takes the year most records of the same listing give for that conference;
    such records wait until the listing has been read.
    """
    waiting: list[tuple[PaperRecord, PublicationInfo]] = []
    years: dict[str, Counter] = {}
    header_venue: tuple[str | None, int | None] | None = None
    for record in records:
        if header_venue is None:
            header_venue = venue_of_header(record.venue_header)
        stated = "; ".join(part for part in (record.comments, record.stated_facts) if part) or None
        info = _with_header_venue(parse_publication(stated, record.journal_ref, record.title), *header_venue)
        if info.venue and info.year is None:
            waiting.append((record, info))
            continue
        if info.venue:
            years.setdefault(info.venue, Counter())[info.year] += 1
        yield record, info
    for record, info in waiting:
        common = years.get(info.venue)
        if common:
            info.year = min(common.items(), key=lambda item: (-item[1], item[0]))[0]
            info.year_source = "listing"
        yield record, info


def _with_header_venue(info: PublicationInfo, venue: str | None, year: int | None) -> PublicationInfo:
    """``info`` with the venue header's conference where the record names none or only its acronym,
    and the header's year where the record names that conference without one."""
    if info.venue != venue and names_conference(info.venue, venue):
        info.venue = venue  # the conference's full name, of which the header writes the acronym
    if info.venue is None and venue:
        info.venue = venue
        if info.year is None and year:
            info.year, info.year_source = year, "header"
    elif info.year is None and info.venue and info.venue == venue and year:
        info.year, info.year_source = year, "listing"  # inferred, as from the other records
    return info


ONTOLOGY_GRAPH = ox.NamedNode(KG_NS.rstrip("#"))  # the ontology's own IRI names its graph


def load_vocabularies(store: KGStore, minter: Minter) -> None:
    """Put the ontology and the topic scheme in the store, so queries can show their labels."""
    store.replace_graph_from_turtle(ONTOLOGY_GRAPH, ONTOLOGY_DIR / "kg.ttl")
    load_topic_scheme(store, minter)


def load_topic_scheme(store: KGStore, minter: Minter) -> None:
    """Put ontology/topics.ttl, read under the graph's base, into its own named graph."""
    graph = scheme_graph(minter)
    store.replace_graph_triples(
        graph,
        itertools.chain(
            [ox.Triple(graph, RDF.type, KG.DerivedGraph)], (quad.triple for quad in read_scheme(minter.base))
        ),
    )


#: A change whose newly loaded sources hold at least this share of the sources' quads compacts the store
#: before anything reads it (:meth:`~kg.stores.contract.KGStore.compact`): a store fresh from its first ingest
#: reads twice as slowly as a compacted one, and compacting costs about a fifth of what it saves one export; a small
#: source into a large store leaves reads as fast as they were, and compacting 100,000 papers costs 16 s.
COMPACTED_SHARE = 0.25


def compacting(loaded: dict[str, int], known_quads: dict[str, int]) -> bool:
    """Whether the sources just ``loaded`` (graph -> quads) are at least :data:`COMPACTED_SHARE` of all sources'
    quads (``known_quads``, as the resolution knows them)."""
    fresh = sum(loaded.values())
    return fresh > 0 and fresh >= COMPACTED_SHARE * sum({**known_quads, **loaded}.values())


def finishing(
    store: KGStore,
    minter: Minter,
    on_stage: Callable[[str], None] | None = None,
    on_described: Callable[[], None] | None = None,
    loaded: dict[str, int] | None = None,
) -> Callable[[TwinFiles, dict[str, int]], None]:
    """The last writes of a change to the store, made under the resolution's suspended mark so that a
    failure leaves the next command to redo them: the description's counts (given the source graphs'
    quad counts the resolution knows), then the ranked lists (from the rows the resolution made for
    them, where a twin serves a list). The lists are set aside from the counts and the exports, so
    ``on_described`` hears when the graph the exports read is as the change leaves it (but for the
    mark: :data:`SUSPENDED_MARK`), while the lists are still to be made; before it, the store is compacted
    if the sources the change ``loaded`` (graph -> quads, filled once they are committed) are a large share
    of it (:func:`compacting`), and again once the lists are written, so that the readers after the change read
    a compacted store too; the lists made from those sources' rows are made again (``TwinFiles.restaged``)."""

    def finish(rows: TwinFiles, known_quads: dict[str, int]) -> None:
        describe(store, minter, known_quads)
        compacted = compacting(loaded or {}, known_quads)
        if compacted:
            if on_stage:
                on_stage("compacting the store (a large share of it newly loaded)")
            store.compact()
        if on_described:
            on_described()
        if on_stage:
            on_stage("precomputing the ranked lists")
        refresh_rankings(store, minter, rows=replace(rows, restaged=frozenset(loaded or ())))
        if compacted:  # the lists' new files overlap the compacted ones: the readers after this command read both
            if on_stage:
                on_stage("compacting the store again (the ranked lists written since)")
            store.compact()

    return finish


#: The update that takes the resolution's suspended mark out of a copy of the store taken under it
#: (:func:`finishing`'s ``on_described``), which is then the store as the change will leave it.
SUSPENDED_MARK = f"DELETE WHERE {{ GRAPH ?graph {{ ?graph {KG.resolutionSuspended} ?marked }} }}"


def ingest(
    paths: Iterable[Path],
    store: KGStore,
    minter: Minter,
    format_name: str | None = None,
    encoding: str = "utf-8",
    strict: bool = False,
    on_record: Callable[[SourceReport], None] | None = None,
    jobs: int | None = None,
    on_stage: Callable[[str], None] | None = None,
    replace_all: bool = False,
    on_described: Callable[[], None] | None = None,
) -> IngestReport:
    """Ingest listing files into the store, replacing the graph of each source read (with
    ``replace_all``, every other source too: the graph then holds exactly these files), then
    resolve entities across all sources (kg.resolve.store_step). Records are mapped to
    triples by ``jobs`` processes (default: one per core; with one, the resolution's reads of the
    store run in this process too); ``on_stage`` hears when reading
    is over and loading begins, and each part of the resolution; ``on_described`` as for :func:`finishing`."""
    files = expand_paths(paths)
    jobs = jobs or default_jobs()
    aliases = active_aliases()  # the configuration mapping is given, read once here
    registry = ShippedRegistry()  # the organisation registry, likewise (read on first use)
    report = IngestReport()
    # Every file is read and staged first (the store untouched); only when all of them have
    # been read does the store change, in one commit with resolution suspended. A file that
    # fails, --strict, or an input with nothing to ingest leaves the store as it was.
    names = source_names(files)
    # New sources' graphs are bulk-loaded while they are staged (kg.stores.loading), so mapping
    # and loading share the cores; a failed run drops them again (the store as it was).
    with (
        tempfile.TemporaryDirectory(prefix="kg-ingest-", dir=store.scratch_dir) as scratch,
        store.preloading([source_iri(name, minter) for name in names]) as preload,
    ):
        staged: list[tuple[ox.NamedNode, Path]] = []
        side = StagedRows()  # what the mapping counted, so the resolution step need not read it back
        with Stager(minter, aliases, jobs, registry) as stager:
            for number, (path, name) in enumerate(zip(files, names)):
                target = Path(scratch) / f"{number}.nt"  # beside the store: committing it is a rename
                graph = source_iri(name, minter)
                report.sources.append(
                    _stage_file(
                        path,
                        name,
                        target,
                        stager,
                        format_name,
                        encoding,
                        strict,
                        on_record,
                        preload.sink if preload else None,
                        graph,
                    )
                )
                staged.append((graph, target))
                side.files[graph.value] = target.with_suffix(".side")
                staged.append((detail_graph(graph), target.with_suffix(".detail.nt")))
        if not report.ingested:
            raise NothingRead(
                f"nothing to ingest: {plural(report.read, 'record')} read from "
                f"{plural(len(files), 'file')}, all rejected; the store was left as it was"
                if report.read
                else f"nothing to ingest: no records in {plural(len(files), 'file')}",
                report,
            )
        if on_stage:
            on_stage("loading into the store")
        if preload:
            preload.finish()  # the loader thread is done before anything else writes the store
        load_vocabularies(store, minter)
        drop = _replaced_by(store, staged, minter) if replace_all else ()
        loaded: dict[str, int] = {}  # the new sources' quads, once committed: whether to compact (finishing)
        with resolution_suspended(
            store,
            minter,
            on_stage=on_stage,
            jobs=jobs,
            staged=side,
            finish=finishing(store, minter, on_stage, on_described, loaded),
        ):
            store.replace_graphs(staged, drop)
            kept_rows.keep(store, side)  # the next run reads these sources from them, while they hold
            loaded.update(side.quads)  # (the resolution adds the other sources' counts to side.quads)
    return report


def _replaced_by(store: KGStore, staged: list[tuple[ox.NamedNode, Path]], minter: Minter) -> list[str]:
    """The graphs a build drops: every graph kg wrote except the new sources and this base's own
    vocabulary, derived and description graphs (replaced by the build itself)."""
    keep = {graph.value for graph, _ in staged} | {
        ONTOLOGY_GRAPH.value,
        scheme_graph(minter).value,
        resolved_graph(minter).value,
        index_graph(minter).value,
        rankings_graph(minter).value,
        description_graph(minter).value,
    }
    return [graph for graph in store.graphs() if graph not in keep]


def _stage_file(
    path,
    name,
    target,
    stager: Stager,
    format_name,
    encoding,
    strict,
    on_record,
    sink=None,
    graph: ox.NamedNode | None = None,
) -> SourceReport:
    """Read one listing and write its triples to ``target`` (N-Triples), and through ``sink``
    (a preload's) to the loader when the graph is loaded early."""
    source, items = read_source(path, name, format_name, encoding)
    report = SourceReport(str(path), name, source.format)
    header = ""

    def accepted() -> Iterator[PaperRecord]:
        nonlocal header
        for item in items:
            report.read += 1
            if isinstance(item, Rejection):
                report.rejections.append(item)
                if strict:
                    raise StrictError(f"{item} (--strict)")
            else:
                report.ingested += 1
                header = item.venue_header
                yield item
            if on_record:
                on_record(report)

    with (
        open(target, "wb") as file,
        open(target.with_suffix(".detail.nt"), "wb") as detail,
        open(target.with_suffix(".side"), "wb") as side,
    ):
        out = sink(graph, file) if sink else file
        stager.write(name, publication_facts(accepted()), out, detail, side)
        out.write(
            ntriples(
                source_triples(name, source.format, header, stager.minter, str(file_modified(path.stat().st_mtime)))
            )
        )
        out.flush()
        detail.write(ntriples(detail_graph_triples(source_iri(name, stager.minter))))
    return report
