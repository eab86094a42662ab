"""Merges of papers decided again only where the sources changed: a side index of papers and their blocking keys.

:func:`~.papers.find_merges` compares the papers that share a blocking key, and joins titles and abstracts within a
venue; made whole it reads and compares every paper of the store at each change of sources (3 s CPU at 101,000
papers). What it finds of a pair depends on the two papers alone, and a venue's joins on the venue's papers alone;
so an on-disk store keeps, in its folder of kept rows (:mod:`.kept_rows`), a SQLite database of every kept source's
papers as their paper lines state them, their blocking keys, the pairs found one (with where they were found, the
order of a whole comparison) and each venue's joins. A source is taken from it while the header it was added with
is its rows' now (their stamp, size and modification time, as :mod:`.sorted_facts` checks); a source that changed
or went is taken out (its papers, keys and pairs; its venues' joins made again), and a new one's papers are
compared only with the papers of their blocks. The decisions are then the ones of the comparison made whole
(:func:`~.papers.decided`); the tests compare the two over several steps.

The database follows from the rows files alone and a run changes it in one transaction (a run killed half-way
leaves the last run's). It is named by a hash of the code that decides, so another kg never reads it; it is not
used, and every paper is read and compared, where a source has no kept rows (a store in memory, a graph written
by another program) or a graph without rows states a paper. A damaged database is made again.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from ..cache import fingerprint
from ..ingest import identifiers
from ..rdf.iris import Minter
from ..text import domains, lexicon
from ..text import names as text_names
from . import abstract_join, abstract_order, paper_facts, papers
from .abstract_join import MIN_VENUE_ABSTRACTS, title_abstract_matches
from .kept_rows import side_folder
from .paper_facts import PaperFacts, read_papers, staged_papers, stated_elsewhere
from .papers import Found, MergeDecisions, blocking_keys, decided, find_merges, found_pair
from .sorted_facts import rows_header
from .staged_rows import StagedRows

_TABLES = """
CREATE TABLE IF NOT EXISTS graphs (graph TEXT PRIMARY KEY, header TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS papers (iri TEXT, graph TEXT, facts TEXT NOT NULL, venues TEXT NOT NULL,
    side INTEGER NOT NULL, PRIMARY KEY (iri, graph)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS papers_of_graph ON papers (graph);
CREATE INDEX IF NOT EXISTS papers_of_venues ON papers (venues, side);
CREATE TABLE IF NOT EXISTS keys (key TEXT, iri TEXT, graph TEXT, PRIMARY KEY (key, iri, graph)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS keys_of_graph ON keys (graph);
CREATE TABLE IF NOT EXISTS found (key TEXT, first_iri TEXT, first_graph TEXT, second_iri TEXT, second_graph TEXT,
    absorbed TEXT NOT NULL, kinds TEXT NOT NULL, why TEXT NOT NULL,
    PRIMARY KEY (key, first_iri, first_graph, second_iri, second_graph)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS found_first ON found (first_graph);
CREATE INDEX IF NOT EXISTS found_second ON found (second_graph);
CREATE TABLE IF NOT EXISTS joins (venues TEXT PRIMARY KEY, joined TEXT NOT NULL) WITHOUT ROWID;
"""
_TITLED, _UNTITLED = 1, 2  # a paper's side in a venue's joins: a title without an abstract, or the other way


def decided_merges(store, minter: Minter, staged: StagedRows) -> MergeDecisions:
    """The merges of every paper of the store (:func:`~.papers.find_merges`), from the side index where it holds."""
    path, headers = merge_index(side_folder(store)), _headers(staged)
    if path is None or headers is None or stated_elsewhere(store, minter, staged):
        return find_merges(read_papers(store, minter, staged))
    try:
        with _Index(path) as index:
            return index.decisions(staged, headers)
    except sqlite3.DatabaseError:  # a damaged database costs a whole comparison, never a wrong merge
        path.unlink(missing_ok=True)
        return find_merges(read_papers(store, minter, staged))


def merge_index(folder: Path | None) -> Path | None:
    """The database in a store's folder of kept rows, named by the code that decides; None where nothing is kept."""
    if folder is None or not folder.is_dir():
        return None
    code = [Path(module.__file__) for module in (papers, paper_facts, abstract_join, abstract_order)]
    code += [Path(module.__file__) for module in (text_names, lexicon, domains, identifiers)]
    code += sorted(Path(lexicon.__file__).parent.glob("data/*.tsv")) + [Path(__file__)]
    return folder / f"paper-merges.{fingerprint(code)}.memo"


def _headers(staged: StagedRows) -> dict[str, str] | None:
    """Each staged source's header: its kept rows' stamp, size and modification time; None if one has no stamp."""
    headers = {}
    for graph, rows in staged.files.items():
        header = rows_header(rows)
        if header is None:
            return None
        headers[graph] = header
    return headers


def _venues(paper: PaperFacts) -> str:
    return json.dumps(sorted(paper.venues))  # a venue's joins are of the papers of one set of conferences


def _side(paper: PaperFacts) -> int:
    return _TITLED if paper.title and not paper.abstract else _UNTITLED if paper.abstract and not paper.title else 0


def _facts_text(paper: PaperFacts) -> str:
    return json.dumps([paper.title, paper.abstract, sorted(paper.urls), sorted(paper.venues), paper.line])


def _paper(iri: str, graph: str, text: str) -> PaperFacts:
    title, abstract, urls, venues, line = json.loads(text)
    return PaperFacts(iri, graph, title, abstract, set(urls), set(venues), line)


class _Index:
    """The database open in one transaction, and the papers read from it."""

    def __init__(self, path: Path):
        self.path = path
        self.database: sqlite3.Connection | None = None
        self.known: dict[tuple[str, str], PaperFacts] = {}
        self.dirty: set[str] = set()  # the venues whose joins are made again

    def __enter__(self) -> _Index:
        for other in self.path.parent.glob(f"{self.path.name.split('.', 1)[0]}.*.memo"):
            if other != self.path:
                other.unlink()  # another code's
        self.database = sqlite3.connect(self.path, isolation_level=None)  # transactions as begun and ended below
        self.database.execute("BEGIN")
        for statement in _TABLES.split(";"):
            if statement.strip():
                self.database.execute(statement)
        return self

    def __exit__(self, failed, *_) -> None:
        if self.database is not None:
            self.database.execute("ROLLBACK" if failed else "COMMIT")
            self.database.close()

    def decisions(self, staged: StagedRows, headers: dict[str, str]) -> MergeDecisions:
        held = dict(self.database.execute("SELECT graph, header FROM graphs"))
        for graph in sorted(graph for graph, header in held.items() if headers.get(graph) != header):
            self._drop(graph)
        added = sorted(graph for graph in headers if held.get(graph) != headers[graph])
        new = staged_papers(staged, added)
        self._add(new, {graph: headers[graph] for graph in added})
        self._compare(new)
        self._join()
        return self._decided()

    def _drop(self, graph: str) -> None:
        """Take a source out: its papers, keys and pairs, and its venues' joins."""
        run = self.database.execute
        self.dirty |= {venues for (venues,) in run("SELECT DISTINCT venues FROM papers WHERE graph = ?", (graph,))}
        for table, column in (("papers", "graph"), ("keys", "graph"), ("found", "first_graph")):
            run(f"DELETE FROM {table} WHERE {column} = ?", (graph,))
        run("DELETE FROM found WHERE second_graph = ?", (graph,))
        run("DELETE FROM graphs WHERE graph = ?", (graph,))

    def _add(self, new: dict[tuple[str, str], PaperFacts], headers: dict[str, str]) -> None:
        """Add the new sources (``headers``: theirs) and their papers (``new``)."""
        run = self.database.executemany
        run("INSERT INTO graphs VALUES (?, ?)", sorted(headers.items()))
        rows = [(iri, graph, _facts_text(paper), _venues(paper), _side(paper)) for (iri, graph), paper in new.items()]
        run("INSERT INTO papers VALUES (?, ?, ?, ?, ?)", rows)
        run(
            "INSERT INTO keys VALUES (?, ?, ?)", [(key, *ident) for ident, p in new.items() for key in blocking_keys(p)]
        )
        self.dirty |= {venues for _, _, _, venues, _ in rows}
        self.known.update(new)

    def _facts(self, iri: str, graph: str) -> PaperFacts:
        if (iri, graph) not in self.known:
            query = "SELECT facts FROM papers WHERE iri = ? AND graph = ?"
            (text,) = self.database.execute(query, (iri, graph)).fetchone()
            self.known[(iri, graph)] = _paper(iri, graph, text)
        return self.known[(iri, graph)]

    def _compare(self, new: dict[tuple[str, str], PaperFacts]) -> None:
        """The pairs of the new papers' blocks that hold a new paper (each pair once, first before second in
        (IRI, graph) order, as a block holds them)."""
        pairs = set()
        for ident in sorted(new):
            for key in sorted(blocking_keys(new[ident])):
                for other in self.database.execute("SELECT iri, graph FROM keys WHERE key = ?", (key,)):
                    if other != ident and not (other in new and other < ident):
                        pairs.add((key, *sorted([ident, other])))
        found = [pair for key, first, second in sorted(pairs) if (pair := self._pair(key, first, second))]
        rows = [
            (*where, json.dumps([paper.iri, paper.graph]), json.dumps(kinds), why)
            for where, paper, _, kinds, why in found
        ]
        self.database.executemany("INSERT INTO found VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def _pair(self, key: str, first: tuple[str, str], second: tuple[str, str]) -> Found | None:
        return found_pair(key, self._facts(*first), self._facts(*second))

    def _join(self) -> None:
        """The joins of the venues whose papers changed, made again from their papers."""
        run = self.database.execute
        for venues in sorted(self.dirty):
            run("DELETE FROM joins WHERE venues = ?", (venues,))
            counts = dict(run("SELECT side, COUNT(*) FROM papers WHERE venues = ? GROUP BY side", (venues,)))
            if not counts.get(_TITLED) or counts.get(_UNTITLED, 0) < MIN_VENUE_ABSTRACTS:
                continue  # no joins (title_abstract_matches): the venue's papers are not read
            group = [
                self._facts(iri, graph)
                for iri, graph in run(
                    "SELECT iri, graph FROM papers WHERE venues = ? AND side > 0 ORDER BY iri, graph", (venues,)
                )
            ]
            joined = [
                [absorbed.iri, absorbed.graph, canonical.iri, canonical.graph, kinds, why, scores]
                for absorbed, canonical, kinds, why, scores in title_abstract_matches(group)
            ]
            run("INSERT INTO joins VALUES (?, ?)", (venues, json.dumps(joined)))

    def _decided(self) -> MergeDecisions:
        """The decisions of every pair found and every venue's joins (:func:`~.papers.decided`)."""
        run = self.database.execute
        found: list[Found] = []
        for *where, absorbed, kinds, why in run(f"SELECT * FROM found ORDER BY {_FOUND_ORDER}"):
            first, second = self._facts(where[1], where[2]), self._facts(where[3], where[4])
            roles = (first, second) if [first.iri, first.graph] == json.loads(absorbed) else (second, first)
            found.append((tuple(where), *roles, tuple(json.loads(kinds)), why))
        joins = []
        for _, joined in sorted(run("SELECT venues, joined FROM joins"), key=lambda row: tuple(json.loads(row[0]))):
            for absorbed_iri, absorbed_graph, iri, graph, kinds, why, scores in json.loads(joined):
                pair = self._facts(absorbed_iri, absorbed_graph), self._facts(iri, graph)
                joins.append((*pair, tuple(kinds), why, None if scores is None else tuple(scores)))
        graphs_of: dict[str, set[str]] = {}
        for iri in {pair[2].iri for pair in found} | {join[1].iri for join in joins}:
            graphs_of[iri] = {graph for (graph,) in run("SELECT graph FROM papers WHERE iri = ?", (iri,))}
        return decided(found, joins, graphs_of)


_FOUND_ORDER = "key, first_iri, first_graph, second_iri, second_graph"  # the order of a whole comparison's
