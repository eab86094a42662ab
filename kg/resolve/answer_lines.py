"""What the counts' pass over every paper's facts (:func:`~.aggregates.aggregate_triples`) writes for the twins of
the lists of one answer (:mod:`.answer_rows`), into the folder of the resolution's :class:`~.list_lines.ListRows`:

- ``listed-sets``: ``papers<TAB>institutions`` (space-separated, in code-point order) for each set of institutions
  that papers list, each with its units' institutions (``org:subOrganizationOf*``): the sectors of
  ``queries/sector-share.rq`` are those of the set's institutions, known once the store is written.

Counting sets holds what grows with the institutions, not with the papers.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

LISTED_SETS = "listed-sets"


class AnswerLines:
    """The files above, for one pass: :meth:`add` each paper, then :meth:`close`."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.listed_sets: Counter[str] = Counter()

    def add(self, institutions: set[str]) -> None:
        """A paper's ``institutions``: those it lists and those they are units of."""
        if institutions:
            self.listed_sets[" ".join(sorted(institutions))] += 1

    def close(self) -> None:
        with open(self.folder / LISTED_SETS, "w", encoding="utf-8") as lines:
            lines.writelines(f"{papers}\t{listed}\n" for listed, papers in sorted(self.listed_sets.items()))
