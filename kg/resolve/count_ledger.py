"""The co-author pairs and institution counts of the index graph, kept between runs in a ledger that the counts' pass
(:func:`~.aggregates.aggregate_triples`) brings up to date from the papers whose facts changed.

Each count is a sum over papers of what one paper adds (:func:`contribution`: its pairs of creators, its
institutions' paper, track, topic and partner tallies, each institution's authors …), and a paper adds only what its
own facts and the units (``org:subOrganizationOf``) say. So a SQLite database beside an on-disk store
(``kg-side/counts.CODE.memo``, ``CODE`` the fingerprint of the code that makes it) holds:

- ``papers``: each paper that adds anything, with the facts it was counted from (:func:`counted_facts`) and
  their digest;
- ``totals``: every count, keyed as :func:`contribution` keys it, none at 0, and ``authors<TAB>institution`` (an
  institution's distinct authors: its ``member`` keys);
- ``stamp``: the format and a digest of the units the contributions were made with.

A run that finds the ledger with the stamp of its own units compares each paper's digest with the kept one, takes
a changed or gone paper's old contribution off the totals and adds its new one, in one transaction: a run killed
before the commit leaves the ledger as the last run left it, which still holds for the facts it was made of.
Otherwise (no ledger, other units, another code's file, a store in memory) every paper's contribution is spooled,
sorted and counted into a new database, made beside (``.new``, or a temporary file where nothing is kept) and
put in place once complete. Either way the totals are the same, so the triples are too.
"""

from __future__ import annotations

import hashlib
import sqlite3
import tempfile
from collections import Counter
from itertools import combinations, groupby
from pathlib import Path
from typing import Iterable, Iterator

import pyoxigraph as ox

from ..cache import fingerprint
from ..rdf.iris import Minter
from ..rdf.side_rows import AFFILIATION
from ..stores.ordering import sorted_lines
from ..vocab import KG, RDF, XSD
from .answer_lines import Within
from .kept_rows import remembered_written

FORMAT = "1"
PAIR_FLOOR = 2  # a pair with one shared paper is just that paper's author list
# Per-institution counts of papers with one of these (predicate, value) facts.
TRACK_COUNTS = {
    (KG.track.value, KG.MainTrack.value): KG.mainTrackPapers,
    (KG.track.value, KG.PositionTrack.value): KG.positionTrackPapers,
    (KG.track.value, KG.WorkshopTrack.value): KG.workshopTrackPapers,
    (KG.presentationType.value, KG.Oral.value): KG.oralPapers,
    (KG.presentationType.value, KG.Spotlight.value): KG.spotlightPapers,
}
# kind -> (class, institution -> node, node -> what is counted): predicates per kind, so that a query
# about an institution's topics reads its few topic nodes, not its thousands of author nodes too
TALLIES = {
    "topic": (KG.InstitutionTopic, KG.institutionTopic, KG.countedTopic),
    "partner": (KG.InstitutionPartner, KG.institutionPartner, KG.countedPartner),
}
# The kinds of a paper's facts its contribution is made of (the counts read no other).
_COUNTED = tuple(sorted({"author", "listed", AFFILIATION, "topic", *(predicate for predicate, _ in TRACK_COUNTS)}))
_SCHEMA = """
CREATE TABLE stamp (stamp TEXT NOT NULL);
CREATE TABLE papers (paper TEXT PRIMARY KEY, digest BLOB NOT NULL, facts TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE totals (key TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX shared ON totals (key) WHERE n >= PAIR_FLOOR;
""".replace("PAIR_FLOOR", str(PAIR_FLOOR))


def ledger_path(folder: Path | None) -> Path | None:
    """The ledger's file in a store's folder of kept rows, named by the code that makes it; None without one."""
    if folder is None or not folder.is_dir():
        return None
    code = [Path(__file__), Path(__file__).with_name("aggregates.py")]  # and the pass that feeds it its facts
    return folder / f"counts.{fingerprint(code)}.memo"


def units_stamp(units: Iterable[tuple[str, str]]) -> str:
    """What the contributions were made with besides each paper's own facts: the units, each once."""
    text = "".join(f"{unit}\t{parent}\n" for unit, parent in sorted(set(units)))
    return f"{FORMAT}\t{hashlib.sha256(text.encode('utf-8')).hexdigest()}"


def counted_facts(own: dict[str, set[str]]) -> str:
    """The paper's facts its contribution is made of, ``kind<TAB>value`` lines in code-point order ("" for none)."""
    return "\n".join(f"{kind}\t{value}" for kind in _COUNTED if kind in own for value in sorted(own[kind]))


def _own(facts: str) -> dict[str, set[str]]:
    """The facts of :func:`counted_facts` as kind -> values."""
    own: dict[str, set[str]] = {kind: set() for kind in _COUNTED}
    for line in filter(None, facts.split("\n")):
        kind, _, value = line.partition("\t")
        own[kind].add(value)
    return own


def contribution(own: dict[str, set[str]], within: Within) -> Iterator[str]:
    """The keys of the counts a paper adds one to, each once: ``named``, an institution it lists or an author's
    affiliation; ``ipair``, two it lists; for each of its institutions (those it lists and those they are units
    of) ``papers``, ``track`` (a count of :data:`TRACK_COUNTS`), ``topic``, ``partner`` (a listed institution not
    one of its units) and ``member`` (each creator); ``pair``, two creators."""
    listed, authors = sorted(own["listed"]), sorted(own["author"])
    yield from (f"named\t{org}" for org in sorted(set(listed) | own[AFFILIATION]))
    yield from (f"ipair\t{first}\t{second}" for first, second in combinations(listed, 2))
    counted = [count.value for (predicate, value), count in TRACK_COUNTS.items() if value in own[predicate]]
    for institution in sorted({i for org in listed for i in within(org)}):
        yield f"papers\t{institution}"
        yield from (f"track\t{institution}\t{count}" for count in counted)
        yield from (f"topic\t{institution}\t{topic}" for topic in sorted(own["topic"]))
        yield from (f"partner\t{institution}\t{partner}" for partner in listed if institution not in within(partner))
        yield from (f"member\t{institution}\t{author}" for author in authors)
    yield from (f"pair\t{first}\t{second}" for first, second in combinations(authors, 2))


class CountLedger:
    """The ledger of one pass (above): :meth:`add` every paper's facts in any order, :meth:`close` (commits), then
    :meth:`triples`. ``path`` None: a temporary database in ``scratch``, made whole and dropped after."""

    def __init__(
        self, path: Path | None, stamp: str, within: Within, scratch: Path | None, only: set[str] | None = None
    ):
        self.within, self.scratch, self.path, self.only = within, scratch, path, only
        self._folder = tempfile.TemporaryDirectory(prefix="kg-counts-", dir=scratch)
        self.kept: dict[str, bytes] | None = None  # paper -> digest, of a ledger brought up to date
        if path is not None and path.is_file():
            self.db = sqlite3.connect(path, isolation_level=None)
            try:
                self.kept = self._kept(stamp)
            except sqlite3.DatabaseError:  # a damaged or foreign file: made again
                self.kept = None
            if self.kept is None:
                self.db.close()
        if self.kept is None:
            self.made = path.with_suffix(".new") if path is not None else Path(self._folder.name) / "counts.db"
            self.made.unlink(missing_ok=True)
            self.db = sqlite3.connect(self.made, isolation_level=None)
            self.db.executescript(_SCHEMA)
            self.db.execute("INSERT INTO stamp VALUES (?)", (stamp,))
            self.spool = open(Path(self._folder.name) / "keys", "w", encoding="utf-8")
        self.db.execute("PRAGMA synchronous = NORMAL")
        self.db.execute("BEGIN")
        self.delta: Counter[str] = Counter()

    def _kept(self, stamp: str) -> dict[str, bytes] | None:
        """paper -> digest, when the ledger was made with ``stamp``; None otherwise. Of the papers ``only`` names
        where it names some (the pass visits those alone, :mod:`.touched_papers`: one it does not is gone)."""
        if self.db.execute("SELECT stamp FROM stamp").fetchall() != [(stamp,)]:
            return None
        if self.only is None:
            return dict(self.db.execute("SELECT paper, digest FROM papers"))
        kept = {}
        for paper in self.only:
            if (row := self.db.execute("SELECT digest FROM papers WHERE paper = ?", (paper,)).fetchone()) is not None:
                kept[paper] = row[0]
        return kept

    def add(self, paper: str, own: dict[str, set[str]]) -> None:
        """One paper's (or other subject's) facts, kind -> values."""
        facts = counted_facts(own)
        digest = hashlib.blake2b(facts.encode("utf-8"), digest_size=16).digest()
        if self.kept is None:
            if facts:
                self.db.execute("INSERT INTO papers VALUES (?, ?, ?)", (paper, digest, facts))
                self.spool.write("".join(f"{key}\n" for key in contribution(own, self.within)))
            return
        before = self.kept.pop(paper, None)
        if before == digest or (before is None and not facts):
            return
        if before is not None:
            self._take_off(paper)
        if facts:
            self.db.execute("INSERT INTO papers VALUES (?, ?, ?)", (paper, digest, facts))
            self.delta.update(contribution(own, self.within))

    def _take_off(self, paper: str) -> None:
        """A paper's kept contribution off the totals, and its row."""
        (facts,) = self.db.execute("SELECT facts FROM papers WHERE paper = ?", (paper,)).fetchone()
        self.delta.subtract(contribution(_own(facts), self.within))
        self.db.execute("DELETE FROM papers WHERE paper = ?", (paper,))

    def close(self) -> None:
        """The totals made or brought up to date, committed, and a made ledger put in place."""
        if self.kept is None:
            self._count_spool()
        else:
            for paper in sorted(self.kept):  # gone
                self._take_off(paper)
            self._apply(self.delta)
        self.db.execute("COMMIT")
        if self.kept is None and self.path is not None:
            self.db.close()
            remembered_written(self.path, True)
            self.db = sqlite3.connect(self.path, isolation_level=None)

    def _count_spool(self) -> None:
        self.spool.close()
        with open(self.spool.name, encoding="utf-8") as keys:
            counted = (
                (key[:-1], sum(1 for _ in repeats))
                for key, repeats in groupby(sorted_lines(keys, self.scratch, unique=False))
            )
            authors: Counter[str] = Counter()
            rows = self._noting_members(counted, authors)
            self.db.executemany("INSERT INTO totals VALUES (?, ?)", rows)
        self.db.executemany("INSERT INTO totals VALUES (?, ?)", ((f"authors\t{i}", n) for i, n in authors.items()))

    @staticmethod
    def _noting_members(counted: Iterable[tuple[str, int]], authors: Counter[str]) -> Iterator[tuple[str, int]]:
        for key, n in counted:
            if key.startswith("member\t"):
                authors[key.split("\t")[1]] += 1
            yield key, n

    def _apply(self, delta: Counter[str]) -> None:
        """Each changed count's difference added to its total (a total at 0 removed), an institution's distinct
        authors following its ``member`` totals."""
        authors: Counter[str] = Counter()
        for key, change in sorted(delta.items()):
            if change:
                before, after = self._add(key, change)
                if key.startswith("member\t") and (before == 0) != (after == 0):
                    authors[key.split("\t")[1]] += 1 if after else -1
        for institution, change in sorted(authors.items()):
            self._add(f"authors\t{institution}", change)

    def _add(self, key: str, change: int) -> tuple[int, int]:
        row = self.db.execute("SELECT n FROM totals WHERE key = ?", (key,)).fetchone()
        before = row[0] if row else 0
        after = before + change
        if after < 0:
            raise ValueError(f"the counts' ledger took off more than it held: {key}")
        if after:
            self.db.execute("INSERT OR REPLACE INTO totals VALUES (?, ?)", (key, after))
        else:
            self.db.execute("DELETE FROM totals WHERE key = ?", (key,))
        return before, after

    def abandon(self) -> None:
        """A pass that did not end: nothing written (a ledger made beside is dropped)."""
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")
        self.db.close()
        if self.kept is None:
            self.spool.close()
            self.made.unlink(missing_ok=True)
        self._folder.cleanup()

    def _kind(self, kind: str, shared: bool = False) -> Iterator[tuple[list[str], int]]:
        """(the key's fields after the kind, total) of one kind, in code-point order of key; ``shared``: only
        those of :data:`PAIR_FLOOR` or more (read from the partial index, which names the floor as it is)."""
        floor = f" AND n >= {PAIR_FLOOR}" if shared else ""
        rows = self.db.execute(
            f"SELECT key, n FROM totals WHERE key > ? AND key < ?{floor} ORDER BY key", (f"{kind}\t", f"{kind}\n")
        )
        for key, n in rows:
            yield key.split("\t")[1:], n

    def triples(self, minter: Minter) -> Iterator[ox.Triple]:
        """Within-institution links, the institutions' counts, their tallies and pairs, the co-author pairs."""
        try:
            yield from self._triples(minter)
        finally:
            self.db.close()
            self._folder.cleanup()

    def _triples(self, minter: Minter) -> Iterator[ox.Triple]:
        for (org,), _ in self._kind("named"):
            for institution in sorted(self.within(org)):
                yield ox.Triple(ox.NamedNode(org), KG.withinInstitution, ox.NamedNode(institution))
        authors = {institution: n for (institution,), n in self._kind("authors")}
        tracks = {(institution, count): n for (institution, count), n in self._kind("track")}
        for (institution,), n in self._kind("papers"):
            node = ox.NamedNode(institution)
            yield ox.Triple(node, KG.paperCount, count_literal(n))
            yield ox.Triple(node, KG.authorCount, count_literal(authors.get(institution, 0)))
            for count in TRACK_COUNTS.values():
                yield ox.Triple(node, count, count_literal(tracks.get((institution, count.value), 0)))
        for kind, (cls, link, counted_predicate) in sorted(TALLIES.items()):
            for (institution, counted), n in self._kind(kind):
                node = ox.NamedNode(minter.iri(f"institution-{kind}", f"{_local(institution)}--{_local(counted)}"))
                yield ox.Triple(node, RDF.type, cls)
                yield ox.Triple(ox.NamedNode(institution), link, node)
                yield ox.Triple(node, counted_predicate, ox.NamedNode(counted))
                yield ox.Triple(node, KG.paperCount, count_literal(n))
        for (first, second), n in self._kind("ipair"):
            node = ox.NamedNode(minter.iri("institution-pair", f"{_local(first)}--{_local(second)}"))
            yield ox.Triple(node, RDF.type, KG.InstitutionPair)
            yield ox.Triple(node, KG.pairInstitution, ox.NamedNode(first))
            yield ox.Triple(node, KG.pairPartner, ox.NamedNode(second))
            yield ox.Triple(node, KG.sharedPapers, count_literal(n))
        for (first, second), n in self._kind("pair", shared=True):
            node = ox.NamedNode(minter.iri("coauthor-pair", f"{_local(first)}--{_local(second)}"))
            yield ox.Triple(node, RDF.type, KG.CoauthorPair)
            yield ox.Triple(node, KG.pairAuthor, ox.NamedNode(first))
            yield ox.Triple(node, KG.pairCoauthor, ox.NamedNode(second))
            yield ox.Triple(node, KG.sharedPapers, count_literal(n))


def count_literal(n: int) -> ox.Literal:
    return ox.Literal(str(n), datatype=XSD.integer)


def _local(iri: str) -> str:
    return iri.rsplit("/", 1)[-1]
