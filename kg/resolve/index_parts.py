"""The parts of the index graph the resolution step makes besides the counts (:mod:`.store_step`): the name index
of every kind of entity, made as triples, and the parts kept as a line per key (:class:`~.graph_memo.Section`):
every entity's match keys, each paper's name lists and each paper's own statements."""

from __future__ import annotations

import shutil
from functools import partial
from pathlib import Path
from typing import Callable, Iterable, Iterator

import pyoxigraph as ox

from ..index.match_keys import ENTITY_CLASSES, entity_keys, key_line_triples, key_lines
from ..index.name_index import name_index_triples
from ..rdf.iris import Minter
from ..stores.embedded import KGStore
from .aggregates import paper_line_triples
from .artifact_rows import kept_name_lists
from .graph_memo import Section
from .list_lines import TwinFiles
from .name_lists import name_list_line_triples


def name_index_of_kinds(store: KGStore, person_keys: Path, minter: Minter) -> Iterator[ox.Triple]:
    """The name index of every kind of entity (their match keys: :func:`index_sections`)."""
    for kind in sorted(ENTITY_CLASSES):
        # The authors' file is read again for each pass; institutions and topics (a few thousand at most) once.
        entities = (
            partial(entity_keys, store, kind, person_keys)
            if kind == "author"
            else partial(iter, list(entity_keys(store, kind, person_keys)))
        )
        yield from name_index_triples(store, kind, entities, minter, store.scratch_dir)


def index_sections(
    store: KGStore,
    person_keys: Path,
    lists: Callable[[], Iterable[tuple[str, list[str]]]],
    rows: TwinFiles,
    papers: Path,
) -> list[Section]:
    """The parts of the index graph kept as a line per key (:class:`~.graph_memo.Section`), whose unchanged
    entities' and papers' statements are not made again: every entity's match keys (:func:`key_lines`), each
    paper's name lists (``lists`` makes them, :func:`~.name_list_memo.made_lists`; written to ``rows`` too) and
    each paper's own statements (:func:`~.aggregates.paper_line`, the file ``papers`` the counts' pass wrote)."""

    def keys(path: Path) -> None:
        with open(path, "w", encoding="utf-8") as out:
            key_lines(store, person_keys, out)

    return [
        Section("keys", keys, key_line_triples),
        Section("name-lists", lambda path: kept_name_lists(lists(), path, rows), name_list_line_triples),
        Section("papers", lambda path: shutil.move(papers, path), paper_line_triples),
    ]
