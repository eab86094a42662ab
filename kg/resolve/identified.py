"""Whether the store names anyone by an identifier, from the sources' side rows where they hold.

The moves of name-only mentions (:func:`.identity.read_mentions`) read every authorship only when some person is
identified (an IRI ending in ``--scheme``, :func:`.identity.is_identified`); asking the store is a scan of every
person (1.3 s CPU at 101,000 papers). A source's people are the ones its authorships name (the mapping types no
other person), and the resolution renames an identified person only to another (:mod:`.same_ids`) and moves a
mention only to one, so for a source with side rows the answer follows from its written-name lines. An on-disk
store keeps it beside the kept rows (``NAME.identified``), headed like the sorted facts (:mod:`.sorted_facts`)
by the rows' stamp, size and modification time, and makes it again when the header is not the rows' now; a
graph without rows (the derived ones, one written by another program) is asked, one indexed scan of its people.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..rdf.side_rows import FORM
from ..vocab import sparql_prologue
from .sorted_facts import rows_header
from .staged_rows import StagedRows

SUFFIX = ".identified"
_ASK = (
    sparql_prologue() + 'ASK {{ GRAPH <{graph}> {{ ?person a foaf:Person FILTER(REGEX(STR(?person), "--[^/]*$")) }} }}'
)


def anyone_identified(store, staged: StagedRows) -> bool:
    """Whether any graph of the store has an identified person: the staged sources' from their rows, the others
    asked."""
    if any(_in_rows(staged.files[graph]) for graph in sorted(staged.files)):
        return True
    others = (graph for graph in store.graphs() if graph not in staged.files)
    return any(store.query(_ASK.format(graph=graph)).askAnswer for graph in others)


def _in_rows(rows: Path) -> bool:
    """Whether a source's rows name an identified person: from the file beside kept rows while its header holds."""
    stamped = rows_header(rows)
    if stamped is None:  # rows this run staged in a store that keeps none: read them
        return _read(rows)
    header = stamped + "\n"
    kept = rows.with_suffix(SUFFIX)
    if kept.is_file():
        said = kept.read_text(encoding="utf-8")
        if said.startswith(header) and said[len(header) :] in ("yes\n", "no\n"):
            return said[len(header) :] == "yes\n"
    found = _read(rows)
    written = kept.with_name(kept.name + ".new")
    written.write_text(header + ("yes\n" if found else "no\n"), encoding="utf-8")
    os.replace(written, kept)
    return found


def _read(rows: Path) -> bool:
    with open(rows, encoding="utf-8") as lines:
        return any("--" in line.split("\t", 2)[1].rsplit("/", 1)[-1] for line in lines if line.startswith(FORM))
