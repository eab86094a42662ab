"""Whether anything but kg opened a store for writing since kg's last writer closed it (kg/stores/store_folder.py):
what lets the resolution step take a kept source's quad count instead of counting the graph again."""

from __future__ import annotations

import os

import pyoxigraph as ox

from kg.stores import store_folder
from kg.stores.embedded import KGStore
from kg.stores.store_folder import untouched_since_closed

QUAD = ox.Quad(ox.NamedNode("http://example.org/s"), ox.NamedNode("http://example.org/p"), ox.Literal("o"))


def written_by_kg(folder, update: str | None = None) -> bool:
    """Open the store as kg's writer (whether it was untouched since kg closed it), maybe write, close."""
    store = KGStore(str(folder))
    try:
        if update:
            store.update(update)
        return store.untouched
    finally:
        store.close()


def test_a_store_is_untouched_until_another_program_opens_it_for_writing(tmp_path):
    folder = tmp_path / "store"
    assert not written_by_kg(folder, "INSERT DATA { <http://example.org/a> <http://example.org/b> 1 }")  # new
    assert written_by_kg(folder) and written_by_kg(folder)  # kg's own writes and openings
    other = ox.Store(str(folder))  # another program writes
    other.add(QUAD)
    del other
    assert not untouched_since_closed(folder)
    assert not written_by_kg(folder)
    assert written_by_kg(folder)
    opened = ox.Store(str(folder))  # opened for writing, nothing written: not known, so touched
    del opened
    assert not written_by_kg(folder)


def test_a_killed_writer_leaves_the_store_touched(tmp_path):
    folder = tmp_path / "store"
    written_by_kg(folder, "INSERT DATA { <http://example.org/a> <http://example.org/b> 1 }")
    store = KGStore(str(folder))
    store.update("INSERT DATA { <http://example.org/a> <http://example.org/b> 2 }")
    store.oxigraph.flush()
    del store  # never closed: no note of what it left
    assert not untouched_since_closed(folder)


def test_a_file_gone_while_the_folder_is_read_leaves_no_note(tmp_path, monkeypatch):
    """A compaction may delete a data file between the folder's listing and its stat: the writer closes without
    an error and leaves no note, so the next writer counts the graphs."""
    folder = tmp_path / "store"
    written_by_kg(folder, "INSERT DATA { <http://example.org/a> <http://example.org/b> 1 }")
    assert written_by_kg(folder)
    monkeypatch.setattr(store_folder, "os", _Vanishing())  # the module's own os alone
    written_by_kg(folder)  # closes with no error
    assert not (folder / store_folder.CLOSED).exists()
    monkeypatch.undo()
    assert not untouched_since_closed(folder)


class _Vanishing:
    """The os module, but a data file of each folder listed is deleted after the listing."""

    def __getattr__(self, name: str):
        return getattr(os, name)

    def scandir(self, path):
        entries = list(os.scandir(path))
        return [*entries, _Gone("999999.sst")]


class _Gone:
    """A directory entry whose file was deleted after the listing."""

    def __init__(self, name: str):
        self.name = name

    def is_file(self) -> bool:
        raise FileNotFoundError(self.name)
