"""A store on disk for each test of what is remembered beside one (kg/resolve/kept_rows.py's folder)."""

from __future__ import annotations

import pytest

from kg.stores.embedded import KGStore


@pytest.fixture
def store(tmp_path):
    opened = KGStore(str(tmp_path / "store"))
    yield opened
    opened.close()
