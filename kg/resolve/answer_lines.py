"""What the counts' pass over every paper's facts (:func:`~.aggregates.aggregate_triples`) writes for the twins of
the lists of one answer (:mod:`.answer_rows`), into the folder of the resolution's :class:`~.list_lines.TwinFiles`:

- ``listed-sets``: ``papers<TAB>institutions`` (space-separated, in code-point order) for each set of institutions
  that papers list, each with its units' institutions (``org:subOrganizationOf*``): the sectors of
  ``queries/sector-share.rq`` are those of the set's institutions, known once the store is written;
- ``institution-pairs``: ``institution<TAB>partner<TAB>papers``, in code-point order: two top organisations (no
  ``org:subOrganizationOf``) one of whose units, or itself, the same papers list (``institution-collaborations``);
- ``country-pairs``: ``country<TAB>partner<TAB>papers``, in code-point order: two countries of organisations the
  same papers list (an organisation's own ``schema:addressCountry``, else those of every organisation it is a unit
  of), as ``queries/country-collaborations.rq`` pairs them;
- ``code-papers``: ``paper<TAB>titles<TAB>venues<TAB>tracks`` (as :class:`~.list_lines.ListedPaper` has them) of
  each paper a ``schema:SoftwareSourceCode`` is based on (``papers-with-code``), in IRI order of paper.

Counting sets and pairs holds what grows with the institutions and countries, not with the papers.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Protocol

from ..vocab import sparql_prologue

if TYPE_CHECKING:
    from .contribution_totals import ContributionTotals

LISTED_SETS, INSTITUTION_PAIRS, COUNTRY_PAIRS, CODE_PAPERS = (
    "listed-sets",
    "institution-pairs",
    "country-pairs",
    "code-papers",
)
# The papers some code is based on, as papers-with-code finds them (the code's repository read when the list is made).
_CODED = (
    sparql_prologue()
    + "SELECT DISTINCT ?paper WHERE { ?code a schema:SoftwareSourceCode ; schema:isBasedOn ?paper ; "
    + "schema:codeRepository ?repository }"
)


class Within(Protocol):
    """An institution -> itself and every institution it is a unit of (transitively); ``parents``: what each
    institution is directly a unit of."""

    parents: dict[str, set[str]]

    def __call__(self, institution: str) -> Iterable[str]: ...


class AnswerLines:
    """The files above, for one pass: ``coded``, the papers some code is based on (the pass writes ``code-papers``
    from every paper's facts, :mod:`.touched_papers`), then :meth:`close` with the totals of every paper's
    contribution (:mod:`.contribution_totals`)."""

    def __init__(self, store, folder: Path, within: Within):
        self.folder, self.within = folder, within
        self.coded = {paper.value for (paper,) in store.select_terms(_CODED)}

    def close(self, totals: ContributionTotals) -> None:
        """The files of the sets and pairs, from the totals of every paper's contribution."""
        with open(self.folder / LISTED_SETS, "w", encoding="utf-8") as lines:
            lines.writelines(f"{papers}\t{listed}\n" for listed, papers in sorted(totals.listed_sets.items()) if papers)
        for name, pairs in ((INSTITUTION_PAIRS, totals.institution_pairs), (COUNTRY_PAIRS, totals.country_pairs)):
            with open(self.folder / name, "w", encoding="utf-8") as lines:
                lines.writelines(f"{first}\t{second}\t{n}\n" for (first, second), n in sorted(pairs.items()) if n)
