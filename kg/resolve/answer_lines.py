"""What the counts' pass over every paper's facts (:func:`~.aggregates.aggregate_triples`) writes for the twins of
the lists of one answer (:mod:`.answer_rows`), into the folder of the resolution's :class:`~.list_lines.ListRows`:

- ``listed-sets``: ``papers<TAB>institutions`` (space-separated, in code-point order) for each set of institutions
  that papers list, each with its units' institutions (``org:subOrganizationOf*``): the sectors of
  ``queries/sector-share.rq`` are those of the set's institutions, known once the store is written;
- ``institution-pairs``: ``institution<TAB>partner<TAB>papers``, in code-point order: two top organisations (no
  ``org:subOrganizationOf``) one of whose units, or itself, the same papers list (``institution-collaborations``).

Counting sets and pairs holds what grows with the institutions, not with the papers.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Iterable, Protocol

LISTED_SETS, INSTITUTION_PAIRS = "listed-sets", "institution-pairs"


class Within(Protocol):
    """An institution -> itself and every institution it is a unit of (transitively); ``parents``: what each
    institution is directly a unit of."""

    parents: dict[str, set[str]]

    def __call__(self, institution: str) -> Iterable[str]: ...


class AnswerLines:
    """The files above, for one pass: :meth:`add` each paper, then :meth:`close`."""

    def __init__(self, folder: Path, within: Within):
        self.folder, self.within = folder, within
        self.listed_sets: Counter[str] = Counter()
        self.institution_pairs: Counter[tuple[str, str]] = Counter()

    def add(self, institutions: set[str]) -> None:
        """A paper's ``institutions``: those it lists and those they are units of."""
        if institutions:
            self.listed_sets[" ".join(sorted(institutions))] += 1
            tops = sorted(institution for institution in institutions if not self.within.parents.get(institution))
            self.institution_pairs.update(combinations(tops, 2))

    def close(self) -> None:
        with open(self.folder / LISTED_SETS, "w", encoding="utf-8") as lines:
            lines.writelines(f"{papers}\t{listed}\n" for listed, papers in sorted(self.listed_sets.items()))
        with open(self.folder / INSTITUTION_PAIRS, "w", encoding="utf-8") as lines:
            lines.writelines(
                f"{first}\t{second}\t{n}\n" for (first, second), n in sorted(self.institution_pairs.items())
            )
