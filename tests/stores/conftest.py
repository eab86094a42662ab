"""Servers on 127.0.0.1: one private Virtuoso for the session (tests/virtuoso_server.py, skipped without the
package), an Oxigraph server per module (tests/oxigraph_server.py), and a `kg serve` of the samples with
tight limits and a listener that counts requests, per module (tests/limited_server.py).

The modules that use Virtuoso are in the xdist group ``virtuoso`` (``make test``'s ``--dist loadgroup``),
so one worker runs them all and starts the server once; each test starts from an empty server."""

from __future__ import annotations

import pytest
from limited_server import Listener, serve_samples
from oxigraph_server import OxigraphServer
from virtuoso_server import ISQL, VIRTUOSO, Virtuoso


@pytest.fixture(scope="session")
def virtuoso_server(tmp_path_factory):
    """The session's Virtuoso, as the last test left it (use `virtuoso`, or clear it first)."""
    if VIRTUOSO is None or ISQL is None:
        pytest.skip("virtuoso-t / isql-vt are not installed (make system-deps: virtuoso-opensource)")
    server = Virtuoso(tmp_path_factory.mktemp("virtuoso"))
    yield server
    server.stop()


@pytest.fixture
def virtuoso(virtuoso_server):
    """The session's Virtuoso with kg's graphs cleared."""
    virtuoso_server.clear()
    return virtuoso_server


@pytest.fixture(scope="module")
def oxigraph(tmp_path_factory):
    """A real Oxigraph server (the `oxigraph` command beside Python) on 127.0.0.1: its endpoints."""
    server = OxigraphServer(tmp_path_factory.mktemp("oxigraph"))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def listener():
    server = Listener()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def limited_server(tmp_path_factory):
    """A `kg serve` of the samples with tight limits (tests/limited_server.py)."""
    server = serve_samples(tmp_path_factory.mktemp("serve-security"))
    yield server
    server.stop()
