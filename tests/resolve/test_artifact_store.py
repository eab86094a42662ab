"""The kept rows of ``artifacts`` (kg/resolve/artifact_store.py): brought up to date run after run (a source added,
papers merged across two, a source ingested again changed, one removed), they are the rows its twin makes from
every line (kg/resolve/artifact_rows.py), in the same order; rows that do not hold (a hand edit, a damaged file) are
made again."""

from __future__ import annotations

import sqlite3

import pytest

from kg.resolve.artifact_rows import ARTIFACTS
from kg.resolve.artifact_store import ARTIFACTS_KEPT, remembered_artifact_rows
from kg.resolve.kept_rows import side_folder


def _checker(runs: list):
    """Compare the answer from the kept rows with the one made whole; note whether the rows were kept before the
    run, and how many there are."""

    def checked(store, rows) -> None:
        path = remembered_artifact_rows(side_folder(store))
        kept_before = path is not None and path.is_file()
        kept = list(ARTIFACTS_KEPT.answer(store, rows))
        assert kept == list(ARTIFACTS.answer(store, rows))
        runs.append((kept_before, len(kept)))

    return checked


@pytest.mark.slow
def test_kept_rows_follow_each_change_as_made_whole(changing_sources):
    runs: list = []
    changing_sources(_checker(runs))
    assert [before for before, _ in runs] == [False, True, True, True]
    assert all(n > 100 for _, n in runs)


def _edit(store) -> None:
    database = sqlite3.connect(remembered_artifact_rows(side_folder(store)))
    with database:  # the stamp no longer holds: the rows are made again
        database.execute("UPDATE answer SET authors = 'edited'")
        database.execute("DELETE FROM papers")
    database.close()


def test_rows_that_do_not_hold_are_made_again(edited_sources):
    runs: list = []
    edited_sources(_checker(runs), _edit, lambda store: remembered_artifact_rows(side_folder(store)).write_bytes(b"x"))
    assert len(runs) == 3 and all(n for _, n in runs)
