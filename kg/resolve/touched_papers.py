"""The papers a change of sources touches, so that the counts' pass (:func:`~.aggregates.aggregate_triples`) visits
those alone and carries every other paper's lines over from the last run.

What the pass writes of a paper (its line of the index graph's ``papers`` section, its name lists' makings, its
lines for the precomputed lists, its part of the countries' and the answers' counts) follows from the paper's own
facts and from what the whole store gives every paper alike: the units (``org:subOrganizationOf``), the
conferences' names and the organisations' countries (the pass's context). So an on-disk store remembers, beside the
counts' ledger (:mod:`.count_ledger`), a folder of the last pass (``kg-side/pass.CODE.memo``, ``CODE`` the
fingerprint of the code that writes it):

- each file the pass writes (:data:`OUTPUTS`, ``introducing``, ``own``, ``contributions``), whole, in code-point
  order of paper, and the totals of the contributions (``totals``, :mod:`.contribution_totals`);
- ``graphs/``: for each source graph, the stamp of its kept rows (:func:`~.sorted_facts.rows_header`, "" for rows a
  run staged) and the subjects of its facts as mapped;
- ``always``: the subjects of the facts read from the store (graphs with no kept rows) and of the sources whose
  lines the run rewrote (merges, people named by the same identifier, mentions moved), touched again next run;
- ``stamp``: the format, the context and the ledger's change counter once the pass committed it.

A run whose context and ledger are the stamp's touches the subjects of the sources whose rows are not the
remembered ones (added, ingested again, removed: their old subjects and their new), of ``always`` (the last run's
and its own). It
reads those subjects' facts alone (a sorted ``.facts`` file is searched for them, :mod:`.sorted_facts`), writes
their lines, and merges them with the remembered files' other lines. Otherwise (no folder, another context, a
ledger written since, a store in memory, no kept rows) the pass goes over every paper as before and remembers what
it wrote. The new folder is made beside (``.memo-new``) and put in place once the ledger is committed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Iterable, Iterator

from ..cache import fingerprint
from ..rdf.side_rows import FACT
from .answer_lines import Within
from .contribution_totals import ContributionTotals
from .side_database import change_counter
from .sorted_facts import fresh_sorted_facts, rows_header
from .staged_rows import StagedRows

FORMAT = "1"
# The files of a pass for the lists' twins, each a paper's lines (or an artifact's) in code-point order of their
# first field; ``introducing``, ``own`` (the name lists' makings, the papers' section) and ``contributions`` besides.
OUTPUTS = ("listed", "titles", "names", "code")
_CODE = (
    "aggregates.py",
    "list_lines.py",
    "answer_lines.py",
    "artifact_rows.py",
    "contribution_totals.py",
    "count_ledger.py",
    "sorted_facts.py",
)


def pass_memo_path(ledger: Path | None) -> Path | None:
    """The remembered pass's folder beside the counts' ledger; None without a ledger (nothing is kept)."""
    if ledger is None:
        return None
    here = Path(__file__)
    code = [here, *(here.with_name(name) for name in _CODE), here.parent.parent / "rdf" / "side_rows.py"]
    return ledger.parent / f"pass.{fingerprint(code)}.memo"


def fresh_file(folder: Path, name: str) -> Path:
    """Where the pass writes the lines of ``name`` for the papers it visits."""
    return folder / f"fresh-{name}"


def _subjects(lines: Iterable[str]) -> set[str]:
    return {line.partition("\t")[0] for line in lines}


def _graph_name(graph: str) -> str:
    return hashlib.sha256(graph.encode("utf-8")).hexdigest()[:32]


def _rows_subjects(rows: Path) -> set[str]:
    """The subjects of a source's facts as mapped (its side rows' fact lines)."""
    with open(rows, encoding="utf-8") as lines:
        return _subjects(line[len(FACT) :] for line in lines if line.startswith(FACT))


class PassMemo:
    """The remembered pass (above) for one run: :meth:`touched`, then the pass writes each of :data:`OUTPUTS` to
    :meth:`fresh`, :meth:`put` gives each its whole file, and :meth:`commit` (after the ledger's) or
    :meth:`abandon`. ``path`` None: nothing remembered, every paper visited."""

    def __init__(self, path: Path | None, context: str, ledger: Path | None, folder: Path):
        self.path, self.context, self.ledger, self.folder = path, context, ledger, folder
        self.held = path is not None and ledger is not None and ledger.is_file() and self._read_stamp() == self._stamp()
        self.always: set[str] = set()
        self.written = None if path is None else path.with_suffix(".memo-new")
        if self.written is not None:
            shutil.rmtree(self.written, ignore_errors=True)
            (self.written / "graphs").mkdir(parents=True)

    def _stamp(self) -> str:
        return f"{FORMAT}\t{self.context}\t{change_counter(self.ledger)}\n"

    def _read_stamp(self) -> str | None:
        stamp = self.path / "stamp"
        return stamp.read_text(encoding="utf-8") if stamp.is_file() else None

    def fresh(self, name: str) -> Path:
        return fresh_file(self.folder, name)

    def touched(self, staged: StagedRows, store_lines: list[str] | None) -> set[str] | None:
        """The subjects whose facts may not be the last run's (above), or None where every paper is visited;
        ``store_lines``: the facts read from the store (None: they are read with every paper's, as a whole pass
        reads them, and their subjects noted by :meth:`note_store_lines`). Notes each source's subjects for the next
        run either way."""
        touched = self._graphs(staged)
        if store_lines is None or not self.held:
            return None
        self.always.update(_subjects(store_lines))
        touched.update(_remembered(self.path / "always"))
        return touched | self.always

    def note_store_lines(self, lines: Iterable[str]) -> Iterator[str]:
        """``lines`` as they are, their subjects noted among ``always``."""
        for line in lines:
            self.always.add(line.partition("\t")[0])
            yield line

    def _graphs(self, staged: StagedRows) -> set[str]:
        """The subjects of the sources whose rows are not the remembered ones or were rewritten, each source's
        subjects remembered for the next run (a rewritten source's are among ``always`` too)."""
        touched: set[str] = set()
        if self.written is None:
            return touched
        old = self.path / "graphs" if (self.path / "graphs").is_dir() else None
        for graph in sorted(staged.files):
            name = _graph_name(graph)
            header = rows_header(staged.files[graph]) or ""
            before = _remembered_graph(old, name) if old is not None else None
            if before is not None and header and before[0] == [graph, header]:
                os.link(old / name, self.written / "graphs" / name)
                subjects = before[1] if staged.rewritten(graph) else set()
            else:
                subjects = _rows_subjects(staged.files[graph])
                self._write_graph(name, graph, header, subjects)
                touched.update(before[1] if before is not None else ())
            if staged.rewritten(graph):
                subjects = subjects | set(staged.renamed.get(graph, {}).values())
                self.always.update(subjects)
            touched.update(subjects)
        for path in sorted(old.iterdir()) if old is not None else ():
            if not (self.written / "graphs" / path.name).exists():  # a source gone
                touched.update(_remembered_graph(old, path.name)[1])
        return touched

    def _write_graph(self, name: str, graph: str, header: str, subjects: set[str]) -> None:
        with open(self.written / "graphs" / name, "w", encoding="utf-8") as out:
            out.write(json.dumps([graph, header]) + "\n")
            out.writelines(f"{subject}\n" for subject in sorted(subjects))

    def put(
        self, name: str, destination: Path | None, touched: set[str] | None, only: set[str] | None = None
    ) -> list[str]:
        """The whole file of ``name``: the fresh lines, with the remembered file's lines of the subjects not
        ``touched`` merged in (None: the fresh lines are every paper's); copied to ``destination`` (the lines of
        the subjects ``only`` names, where it names some). Returns the remembered lines of the ``touched``
        subjects, which the fresh lines replace."""
        removed: list[str] = []
        whole = self.fresh(name) if self.written is None else self.written / name
        if touched is None:
            if whole != self.fresh(name):
                shutil.copyfile(self.fresh(name), whole)
        else:
            _merge(self.path / name, self.fresh(name), touched, whole, removed)
        if destination is not None and only is None:
            shutil.copyfile(whole, destination)
        elif destination is not None:
            with open(whole, encoding="utf-8") as lines, open(destination, "w", encoding="utf-8") as out:
                out.writelines(line for line in lines if line.partition("\t")[0] in only)
        return removed

    def totals(self, within: Within, touched: set[str] | None) -> ContributionTotals:
        """The totals of every paper's contribution (:mod:`.contribution_totals`): the remembered ones with the
        ``touched`` subjects' old contributions taken off and their new ones added, or (``touched`` None) counted
        from every paper's; remembered for the next run."""
        removed = self.put("contributions", None, touched)
        totals = ContributionTotals(within)
        with open(self.fresh("contributions"), encoding="utf-8") as fresh:
            if touched is None:
                totals.count(fresh)
            else:
                totals.read(self.path / "totals").count(removed, -1)
                totals.count(fresh)
        if self.written is not None:
            totals.write(self.written / "totals")
        return totals

    def commit(self) -> None:
        """The new folder stamped with the ledger as committed and put in place."""
        if self.written is None:
            return
        with open(self.written / "always", "w", encoding="utf-8") as always:
            always.writelines(f"{subject}\n" for subject in sorted(self.always))
        with open(self.written / "stamp", "w", encoding="utf-8") as stamp:
            stamp.write(self._stamp())
        aside = self.path.with_suffix(".memo-old")
        shutil.rmtree(aside, ignore_errors=True)
        if self.path.is_dir():
            os.replace(self.path, aside)
        os.replace(self.written, self.path)
        shutil.rmtree(aside, ignore_errors=True)
        for other in self.path.parent.glob("pass.*.memo"):  # another code's
            if other != self.path:
                shutil.rmtree(other, ignore_errors=True)

    def abandon(self) -> None:
        if self.written is not None:
            shutil.rmtree(self.written, ignore_errors=True)


def _remembered(path: Path) -> set[str]:
    with open(path, encoding="utf-8") as lines:
        return {line[:-1] for line in lines}


def _remembered_graph(folder: Path, name: str) -> tuple[list[str], set[str]] | None:
    """([graph, header], subjects) of a source as the last run noted it; None for one it did not."""
    path = folder / name
    if not path.is_file():
        return None
    with open(path, encoding="utf-8") as lines:
        head = json.loads(lines.readline())
        return head, {line[:-1] for line in lines}


def _merge(old: Path, fresh: Path, touched: set[str], whole: Path, removed: list[str]) -> None:
    """The lines of ``old`` whose first field is not ``touched`` and those of ``fresh`` (those fields only, in
    code-point order of it), in code-point order of first field, written to ``whole``; the lines of ``old`` left out
    added to ``removed``."""
    with open(fresh, encoding="utf-8") as made:
        new = made.readlines()  # the touched subjects' lines: a few among every paper's
    keys = [line.partition("\t")[0] for line in new]

    def merged(lines: Iterable[str]) -> Iterator[str]:
        at = 0
        for line in lines:
            key = line.partition("\t")[0]
            if key in touched:
                removed.append(line)
                continue
            while at < len(new) and keys[at] < key:
                yield new[at]
                at += 1
            yield line
        yield from new[at:]

    with open(old, encoding="utf-8") as lines, open(whole, "w", encoding="utf-8") as out:
        out.writelines(merged(lines))


def touched_facts(
    staged: StagedRows, store_lines: list[str], touched: set[str], scratch: Path | None
) -> Iterator[tuple[str, list[str]]]:
    """(subject, its ``kind<TAB>value`` facts) of each ``touched`` subject that has facts, in code-point order of
    subject: from the store's lines, each source's sorted ``.facts`` file searched for them, or the lines of a
    source that has none (staged by this run, rewritten)."""
    facts: dict[str, list[str]] = defaultdict(list)
    for line in store_lines:
        subject, _, rest = line.partition("\t")
        if subject in touched:
            facts[subject].append(rest[:-1])
    keys = sorted(touched)
    for graph in sorted(staged.files):
        sorted_file = fresh_sorted_facts(staged, graph, scratch)
        lines = _searched(sorted_file, keys) if sorted_file is not None else staged.graph_facts(graph)
        for line in lines:
            subject, _, rest = line.partition("\t")
            if subject in touched:
                facts[subject].append(rest[:-1])
    for subject in keys:
        if subject in facts:
            yield subject, facts[subject]


def _searched(path: Path, keys: list[str]) -> Iterator[str]:
    """The lines of a sorted ``.facts`` file (a header line, then lines in code-point order) whose first field is
    one of ``keys``, each key found by bisection."""
    with open(path, "rb") as lines:
        start = len(lines.readline())
        end = lines.seek(0, os.SEEK_END)
        for key in keys:
            prefix = key.encode("utf-8") + b"\t"
            low, high = start, end
            while low < high:  # the first line start at or after ``middle`` whose line is not below ``prefix``
                middle = (low + high) // 2
                lines.seek(middle - 1)
                lines.readline()
                if lines.tell() >= end or lines.readline() >= prefix:
                    high = middle
                else:
                    low = middle + 1
            lines.seek(low - 1)
            lines.readline()
            for line in lines:
                if not line.startswith(prefix):
                    break
                yield line.decode("utf-8")
