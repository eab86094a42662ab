"""A private Virtuoso on 127.0.0.1 for the session (tests/virtuoso_server.py), skipped without the package."""

from __future__ import annotations

import pytest
from virtuoso_server import ISQL, VIRTUOSO, Virtuoso


@pytest.fixture(scope="session")
def virtuoso(tmp_path_factory):
    if VIRTUOSO is None or ISQL is None:
        pytest.skip("virtuoso-t / isql-vt are not installed (make system-deps: virtuoso-opensource)")
    server = Virtuoso(tmp_path_factory.mktemp("virtuoso"))
    yield server
    server.stop()
