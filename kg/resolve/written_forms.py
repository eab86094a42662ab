"""Every way the sources wrote each person's name, as the display names are chosen from.

The lines come from the side rows of the sources a run staged (:mod:`.staged_rows`) and, for the
other graphs, from the store; either way one line per (person, form as written, authorship).
"""

from __future__ import annotations

from typing import Iterator

from ..rdf.side_rows import form_line
from ..stores.embedded import KGStore
from .person_labels import written_forms
from .sorted_facts import FORMS, grouped_kept
from .staged_rows import StagedRows, select


def _store_forms(store: KGStore, staged: StagedRows) -> Iterator[str]:
    """``person<TAB>language<TAB>written (JSON)<TAB>authorship`` of every authorship of the graphs the run did not
    stage, read from the store."""
    graphs = staged.other_graphs(store)
    if graphs != []:
        pattern = "?authorship kg:author ?person ; kg:nameAsWritten ?written"
        for person, written, authorship in store.select_terms(select("?person ?written ?authorship", pattern, graphs)):
            yield form_line(person.value, written.language or "", written.value, authorship.value)


def form_groups(store: KGStore, staged: StagedRows | None = None) -> Iterator[tuple[str, list[str]]]:
    """Each person in IRI order, with its distinct ``language<TAB>written (JSON)<TAB>authorship`` lines in
    code-point order (what its display names are chosen from, :mod:`.person_labels`); ``staged``: the side rows
    of the sources this run staged, read instead of their graphs, each kept source's lines sorted once beside its
    rows (:func:`~.sorted_facts.grouped_kept`). The rows are grouped on disk, not by the
    engine: Oxigraph's ``GROUP BY`` holds every (person, form) group in memory (2.1 million at 1,000,000
    papers), and the forms of 211,000 people held in Python were 350 MB. One line per distinct (person, form
    as written, authorship), the union's repeats dropped by the grouping: each counts one authorship, as
    COUNT(DISTINCT ?authorship) per written form did."""
    staged = staged or StagedRows()
    return grouped_kept(staged, _store_forms(store, staged), store.scratch_dir, FORMS, staged.graph_forms)


def person_forms(store: KGStore, staged: StagedRows | None = None) -> Iterator[tuple[str, dict[str, dict[str, int]]]]:
    """Each person in IRI order, with per language every way the sources wrote the name and its
    authorships (forms cleaned, their counts summed): :func:`form_groups` counted."""
    for person, lines in form_groups(store, staged):
        yield person, written_forms(lines)
