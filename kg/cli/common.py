"""Options and helpers shared by the commands."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Iterator

import click
from rich.console import Console

from ..errors import KgError
from ..exports.description import describe
from ..ingest.formats import FORMATS
from ..ingest.formats import csv as csv_format
from ..rdf.iris import DEFAULT_BASE, Minter
from ..stores.remote import GRAPH_STORE_ENV, PASSWORD_ENV, UPDATE_ENV, USER_ENV
from ..resolve.store_step import interrupted_resolution, rebuild
from ..stores.embedded import KGStore, STORE_ENV, default_store_spec

BASE_ENV = "KG_BASE"
_REMOTE_OPTIONS = "kg.remote_options"


def _remember(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """Keep a remote-store option for :func:`opened_store` without changing command signatures."""
    if value:
        ctx.meta.setdefault(_REMOTE_OPTIONS, {})[param.name] = value


_store = click.option(
    "--store",
    "store_spec",
    metavar="DIR|memory|URL",
    default=None,
    help=f"Where the graph lives: a folder (embedded Oxigraph, created if missing), 'memory', or the "
    f"http(s) URL of a SPARQL 1.1 query endpoint. Default: ${STORE_ENV} or .kg-store in the current folder.",
)
_update_endpoint = click.option(
    "--update-endpoint",
    "update_endpoint",
    metavar="URL",
    expose_value=False,
    callback=_remember,
    help=f"With a URL --store: the SPARQL 1.1 update endpoint for writing. Default: ${UPDATE_ENV}. "
    f"Credentials come from ${USER_ENV} / ${PASSWORD_ENV} only.",
)
_graph_store = click.option(
    "--graph-store",
    "graph_store",
    metavar="URL",
    expose_value=False,
    callback=_remember,
    help=f"With a URL --store: a Graph Store Protocol endpoint for bulk uploads (Oxigraph: …/store). "
    f"Default: ${GRAPH_STORE_ENV}, else batched INSERT DATA through the update endpoint.",
)


def store_option(command):
    """--store, plus --update-endpoint and --graph-store for remote stores (read by opened_store)."""
    return _store(_update_endpoint(_graph_store(command)))


base_option = click.option(
    "--base",
    default=None,
    metavar="IRI",
    help=f"Namespace of the graph's own IRIs. Default: ${BASE_ENV} or {DEFAULT_BASE}",
)


def _use_columns(ctx, param, value):
    try:
        csv_format.use_columns(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


def reading_options(command):
    """``--format``, ``--encoding``, ``--strict`` and ``--jobs``: how listing files are read (build, ingest)."""
    for option in reversed((
        click.option("--format", "format_name", type=click.Choice(sorted(FORMATS)), default=None,
                     help="Input format for every PATH. Default: detected per file."),
        click.option("--encoding", default="utf-8", show_default=True, help="Text encoding of the listing files."),
        click.option("--strict", is_flag=True, help="Fail (exit 1) on the first rejected record instead of reporting it."),
        click.option("--columns", default=None, expose_value=False, callback=_use_columns, metavar="FIELD=HEADER,…",
                     help="csv format: header names of kg's fields, e.g. 'title=Paper,authors=Writers'."),
        click.option("--jobs", type=click.IntRange(min=1), default=None, metavar="N",
                     help="Processes that map records to triples (the output is the same for any N). Default: one per core."),
    )):
        command = option(command)
    return command


def minter(base: str | None) -> Minter:
    return Minter(base or os.environ.get(BASE_ENV) or DEFAULT_BASE)


@contextmanager
def opened_store(spec: str | None) -> Iterator[KGStore]:
    ctx = click.get_current_context(silent=True)
    remote_options = ctx.meta.get(_REMOTE_OPTIONS, {}) if ctx else {}
    store = KGStore(spec or default_store_spec(), **remote_options)
    if (interrupted := interrupted_resolution(store)) is not None:  # a run was killed while sources changed
        try:
            rebuild(store, interrupted)
            describe(store, interrupted)  # the description counts what the finished change left
        except KgError as exc:  # e.g. a read-only remote store: answer anyway, and say why it may be stale
            click.echo(f"kg: warning: the store's entity resolution was interrupted and cannot be finished here ({exc})", err=True)
    try:
        yield store
    finally:
        store.close()


def console(stderr: bool = False) -> Console:
    """Rich output on a terminal, plain text in pipes and CI."""
    stream = sys.stderr if stderr else sys.stdout
    return Console(file=stream, highlight=False, soft_wrap=True, force_terminal=None if stream.isatty() else False)
