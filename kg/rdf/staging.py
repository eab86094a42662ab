"""Records -> N-Triples bytes, in worker processes when there are enough records to share.

Mapping a record (spaCy tagging, institution rules, IRI minting) is pure Python and takes
as long as the store's bulk load of its triples, so on a machine with several cores the
records of a listing are mapped in batches by ``jobs`` worker processes while the parent
reads the next ones and writes the finished batches, in reading order, to the staging file.

Triples about things many papers share (authors, venues, institutions, workshops,
artifacts) are written once per process and source rather than once per paper (a quarter of
all lines were such repeats); each source's graph still states them all. The store is a set, so what it holds, and
every sorted export, is the same whatever the number of workers. The topic detail (assignments, weights, evidence) goes
to a second output, the source's detail graph (:func:`kg.rdf.topic_triples.detail_graph`).
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from pathlib import Path
from typing import BinaryIO, Iterable, Iterator

from ..cache import cache_dir, use_folder
from ..collector import collection_paused
from ..ingest.comments import PublicationInfo
from ..orgs.aliases import AliasTable
from ..orgs.registry import Registry
from ..records import PaperRecord
from .iris import Minter
from .mapping import paper_detail_triples, paper_triples
from .side_rows import side_lines
from .terms import ntriples_line
from .topic_triples import record_analyses

BATCH = 400  # records per task: large enough that pickling is cheap beside mapping
# Shared-entity lines a process remembers as written, per generation (two are kept): about 60 MB
# each. Remembering every one grew with the corpus (390,812 lines in one process at 100,000 papers,
# some ten times that at 1,000,000); a line forgotten is written again, which the store, a set,
# takes as the same triple.
REMEMBERED = 1 << 18
PER_RECORD_KINDS = ("paper", "authorship", "record")  # IRIs minted once per record


class BatchMapper:
    """Maps batches of (record, facts) to N-Triples, skipping shared-entity triples it already wrote."""

    def __init__(self, minter: Minter, aliases: AliasTable, registry: Registry | None = None):
        self.minter, self.aliases, self.registry = minter, aliases, registry
        self.own_prefixes = tuple(f"<{minter.iri(kind, '')}" for kind in PER_RECORD_KINDS)  # as subjects start
        # The N-Triples lines of shared entities this process wrote lately: this generation's and the last one's.
        self.written: set[str] = set()
        self.older: set[str] = set()
        self.source: str | None = None

    def _first_time(self, line: str) -> bool:
        """Whether a shared-entity line is to be written: not written lately. A line met again is
        kept into the next generation, so the entities many papers name are written once."""
        if line in self.written:
            return False
        new = line not in self.older
        self.written.add(line)
        if len(self.written) == REMEMBERED:
            self.older, self.written = self.written, set()
        return new

    def __call__(self, source: str, batch: list[tuple[PaperRecord, PublicationInfo]]) -> tuple[bytes, bytes, bytes]:
        """The batch's N-Triples for the source's graph, for its topic detail graph, and its side
        rows (:mod:`kg.rdf.side_rows`)."""
        if source != self.source:  # a process sees a source's batches in order, never one again after
            self.source, self.written, self.older = source, set(), set()
        with collection_paused():  # a batch's objects are freed by their counts, a collection finds none
            return self._mapped(batch)

    def _mapped(self, batch: list[tuple[PaperRecord, PublicationInfo]]) -> tuple[bytes, bytes, bytes]:
        lines, detail, side = [], [], []
        own, first_time = self.own_prefixes, self._first_time
        analyses = record_analyses([record for record, _ in batch])
        for (record, info), analysis in zip(batch, analyses):
            statements = list(paper_triples(record, info, self.minter, self.aliases, analysis, self.registry))
            for subject, predicate, obj in statements:
                line = f"{subject} {predicate} {obj} .\n"  # ntriples_line's, without a call for each of millions
                if subject.startswith(own) or first_time(line):
                    lines.append(line)
            side.extend(side_lines(statements))
            detail.extend(map(ntriples_line, paper_detail_triples(record, self.minter, analysis)))
        return tuple("".join(part).encode("utf-8") for part in (lines, detail, side))


_worker_mapper: BatchMapper | None = None


def _start_worker(minter: Minter, aliases: AliasTable, registry: Registry | None, cache: Path | None) -> None:
    global _worker_mapper
    use_folder(cache)  # where no fork is (a spawned worker), the registry is read from this process's folder
    _worker_mapper = BatchMapper(minter, aliases, registry)


def _map_in_worker(source: str, batch: list[tuple[PaperRecord, PublicationInfo]]) -> tuple[bytes, bytes, bytes]:
    return _worker_mapper(source, batch)


class Stager:
    """Writes the triples of a stream of records to a binary file, with ``jobs`` processes.

    The pool starts with the second batch, so small listings (and tests) stay in one process;
    at most ``2 × jobs`` batches are in flight, so memory does not grow with the listing.
    """

    def __init__(self, minter: Minter, aliases: AliasTable, jobs: int, registry: Registry | None = None):
        self.minter, self.aliases, self.registry, self.jobs = minter, aliases, registry, max(1, jobs)
        self.local = BatchMapper(minter, aliases, registry)
        self.pool = None

    def __enter__(self) -> "Stager":
        return self

    def __exit__(self, *exc) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()

    def _workers(self):
        if self.pool is None:
            from ..nlp.analysis import pipeline

            pipeline()  # built once here, inherited by every forked worker
            context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
            self.pool = context.Pool(
                self.jobs, initializer=_start_worker, initargs=(self.minter, self.aliases, self.registry, cache_dir())
            )
        return self.pool

    def write(
        self,
        source: str,
        pairs: Iterable[tuple[PaperRecord, PublicationInfo]],
        out: BinaryIO,
        detail: BinaryIO,
        side: BinaryIO | None = None,
    ) -> None:
        """The triples of one source's records to ``out``, their topic detail to ``detail``, their
        side rows to ``side`` (:mod:`kg.rdf.side_rows`); ``source`` names it (its graph's shared
        triples are its own)."""
        pending: deque = deque()

        def put(mapped: tuple[bytes, bytes, bytes]) -> None:
            out.write(mapped[0])
            detail.write(mapped[1])
            if side is not None:
                side.write(mapped[2])

        for number, batch in enumerate(_batches(pairs, BATCH)):
            if self.jobs == 1 or number == 0:
                put(self.local(source, batch))
                continue
            pending.append(self._workers().apply_async(_map_in_worker, (source, batch)))
            while len(pending) > 2 * self.jobs:
                put(pending.popleft().get())
        while pending:
            put(pending.popleft().get())


def _batches(items: Iterable, size: int) -> Iterator[list]:
    batch: list = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
