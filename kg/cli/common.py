"""Options and helpers shared by the commands.

Defining an option imports no engine (pyoxigraph, rdflib, spaCy, …): the modules behind a command
are imported when it runs, so ``kg COMMAND --help`` answers at once (tests/test_cli_imports.py).
"""

from __future__ import annotations

import codecs
import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import click

from ..errors import KgError
from ..ingest.formats import FORMATS
from ..rdf.iris import DEFAULT_BASE, Minter
from ..stores import (
    DEFAULT_WAIT,
    GRAPH_STORE_ENV,
    PASSWORD_ENV,
    STORE_ENV,
    UPDATE_ENV,
    USER_ENV,
    WAIT_ENV,
    default_store_spec,
)

if TYPE_CHECKING:
    from rich.console import Console

    from ..stores.embedded import KGStore

BASE_ENV = "KG_BASE"
_REMOTE_OPTIONS = "kg.remote_options"


def _remember(ctx: click.Context, param: click.Parameter, value) -> None:
    """Keep a store option for :func:`opened_store` without changing command signatures."""
    if value is not None:
        ctx.meta.setdefault(_REMOTE_OPTIONS, {})[param.name] = value


def _store(created: bool):
    return click.option(
        "--store",
        "store_spec",
        metavar="DIR|memory|URL",
        default=None,
        help=f"Where the graph lives: a folder (embedded Oxigraph{', created if missing' if created else ''}), "
        f"'memory', or the http(s) URL of a SPARQL 1.1 query endpoint. Default: ${STORE_ENV} or .kg-store in "
        "the current folder.",
    )


_wait = click.option(
    "--wait",
    "wait",
    metavar="SECONDS",
    type=click.FloatRange(min=0),
    expose_value=False,
    callback=_remember,
    help=f"How long to wait for another kg command writing the same store. Default: ${WAIT_ENV} or {DEFAULT_WAIT:g}.",
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
    """--store, for commands that only read it (opened read-only, beside other readers and a writer)."""
    return _store(created=False)(command)


def writer_store_option(command):
    """--store, plus --wait, and --update-endpoint and --graph-store for remote stores (read by opened_store)."""
    return _store(created=True)(_wait(_update_endpoint(_graph_store(command))))


base_option = click.option(
    "--base",
    default=None,
    metavar="IRI",
    help=f"Namespace of the graph's own IRIs. Default: ${BASE_ENV} or {DEFAULT_BASE}",
)


def _use_columns(ctx, param, value):
    from ..ingest.formats import csv as csv_format

    try:
        csv_format.use_columns(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


def stacked(*options):
    """One decorator that adds the options in the order given, the order --help lists them in."""

    def add(command):
        for option in reversed(options):
            command = option(command)
        return command

    return add


def shown_option(*names: str, **attributes):
    """An option whose default --help shows."""
    return click.option(*names, show_default=True, **attributes)


def out_file_option(help_text: str):
    """``--out FILE``: the file a command writes, said where it goes by default in ``help_text``."""
    return click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None, help=help_text)


def folder_option(*names: str, default: str, help_text: str):
    """A folder a command writes or reads, its default shown in --help."""
    return shown_option(*names, type=click.Path(file_okay=False, path_type=Path), default=Path(default), help=help_text)


def reading_options(command):
    """``--format``, ``--encoding``, ``--strict`` and ``--jobs``: how listing files are read (build, ingest)."""
    return stacked(
        click.option(
            "--format",
            "format_name",
            type=click.Choice(sorted(FORMATS)),
            default=None,
            help="Input format for every PATH. Default: detected per file.",
        ),
        shown_option(
            "--encoding",
            default="utf-8",
            callback=_encoding,
            help="Text encoding of the listing files.",
        ),
        click.option(
            "--strict", is_flag=True, help="Fail (exit 1) on the first rejected record instead of reporting it."
        ),
        click.option(
            "--columns",
            default=None,
            expose_value=False,
            callback=_use_columns,
            metavar="FIELD=HEADER,…",
            help="csv format: header names of kg's fields, e.g. 'title=Paper,authors=Writers'.",
        ),
        click.option(
            "--jobs",
            type=click.IntRange(min=1),
            default=None,
            metavar="N",
            help="Processes that map records to triples and read the store at once (the output is the same "
            "for any N; 1 keeps all in one process, for a machine short of memory). Default: one per core.",
        ),
    )(command)


def minter(base: str | None) -> Minter:
    import pyoxigraph as ox

    mint = Minter(base or os.environ.get(BASE_ENV) or DEFAULT_BASE)
    try:
        ox.NamedNode(mint.iri("paper", "x"))  # pyoxigraph checks IRIs as RFC 3987 does
    except ValueError as exc:
        raise UsageError(f"--base {mint.base!r} is not an IRI namespace ({exc})") from None
    return mint


class UsageError(KgError):
    """An option value that cannot work (exit 2, as click's own usage errors)."""

    exit_code = 2


def _encoding(ctx: click.Context, param: click.Parameter, value: str) -> str:
    try:
        codecs.lookup(value)
    except LookupError:
        raise click.BadParameter(
            f"{value!r} is not a text encoding Python knows (e.g. utf-8, latin-1, cp1252)"
        ) from None
    return value


@contextmanager
def opened_store(spec: str | None, write: bool = False) -> Iterator[KGStore]:
    """The store, read-only unless ``write``; work a killed run left is finished first."""
    from ..resolve.store_step import interrupted_resolution
    from ..stores.embedded import KGStore

    ctx = click.get_current_context(silent=True)
    options = ctx.meta.get(_REMOTE_OPTIONS, {}) if ctx else {}
    spec = spec or default_store_spec()
    store = KGStore(spec, read_only=not write, **options)
    try:
        if (interrupted := interrupted_resolution(store)) is not None:  # a run was killed while sources changed
            store = _resolved(store, spec, interrupted, options)
        yield store
    finally:
        store.close()


def _resolved(store: KGStore, spec: str, interrupted: Minter, options: dict) -> KGStore:
    """Finish a killed run's entity resolution; a reader does so only when no writer is at work."""
    from ..pipeline import finishing
    from ..resolve.store_step import resume
    from ..stores.contract import KGStore
    from ..stores.store_folder import StoreBusy

    writer = store
    if store.read_only:
        try:
            writer = KGStore(spec, **{**options, "wait": 0})
        except StoreBusy:  # a writer is changing the store right now and resolves it when done
            return store
    try:
        resume(writer, interrupted, finish=finishing(writer, interrupted))  # counts what the change left
    except KgError as exc:  # e.g. a read-only remote store: answer anyway, and say why it may be stale
        click.echo(
            f"kg: warning: the store's entity resolution was interrupted and cannot be finished here ({exc})", err=True
        )
    if writer is not store:
        writer.close()
        store.close()
        store = KGStore(spec, read_only=True, **options)
    return store


def console(stderr: bool = False) -> Console:
    """Rich output on a terminal, plain text in pipes and CI."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    return Console(file=stream, highlight=False, soft_wrap=True, force_terminal=None if stream.isatty() else False)


def writable_folder(folder: Path) -> Path:
    """The output folder, created if missing, or a one-line error (exit 2) if it cannot be written."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".kg-write-test-"):
            pass
    except OSError as exc:
        raise UsageError(f"--out {folder}: cannot write there ({exc.strerror or exc})") from None
    return folder
