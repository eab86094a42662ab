"""Options and helpers shared by the commands."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Iterator

import click
from rich.console import Console

from ..iris import DEFAULT_BASE, Minter
from ..store import KGStore, STORE_ENV, default_store_spec

BASE_ENV = "KG_BASE"

store_option = click.option(
    "--store",
    "store_spec",
    metavar="DIR|memory",
    default=None,
    help=f"Where the graph lives: a folder (embedded Oxigraph, created if missing) or 'memory'. "
    f"Default: ${STORE_ENV} or .kg-store in the current folder.",
)
base_option = click.option(
    "--base",
    default=None,
    metavar="IRI",
    help=f"Namespace of the graph's own IRIs. Default: ${BASE_ENV} or {DEFAULT_BASE}",
)


def minter(base: str | None) -> Minter:
    return Minter(base or os.environ.get(BASE_ENV) or DEFAULT_BASE)


@contextmanager
def opened_store(spec: str | None) -> Iterator[KGStore]:
    store = KGStore(spec or default_store_spec())
    try:
        yield store
    finally:
        store.close()


def console(stderr: bool = False) -> Console:
    """Rich output on a terminal, plain text in pipes and CI."""
    stream = sys.stderr if stderr else sys.stdout
    return Console(file=stream, highlight=False, soft_wrap=True, force_terminal=None if stream.isatty() else False)
