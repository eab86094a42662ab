"""``kg serve``: the site and a read-only SPARQL endpoint over the store, on 127.0.0.1."""

from __future__ import annotations

import gc
import socket
from pathlib import Path

import click

from ..errors import KgError
from .common import console, folder_option, opened_store, shown_option, stacked, store_option


def _prepared(store_spec, site_dir: Path) -> tuple[Path | str, str | None]:
    """The store's folder (or a server's query endpoint) and the graph's IRI namespace (its
    description's ``void:uriSpace``), after resolution is up to date and the site written; the store
    is closed again (and collected, which releases its lock) so that other kg commands can use it."""
    from ..exports.site import write_site  # engines imported when the command runs, not for --help
    from ..vocab import sparql_prologue

    with opened_store(store_spec) as store:
        if store.spec == "memory":
            raise KgError("kg serve needs a store folder or a server (--store DIR or URL), not a store in memory")
        remote = str(store.spec).startswith(("http://", "https://"))
        location = str(store.spec) if remote else Path(store.spec)
        if not (site_dir / "index.html").exists():
            write_site(store, site_dir)
        spaces = sorted(
            str(row[0])
            for row in store.query(
                f"{sparql_prologue()}SELECT DISTINCT ?space WHERE {{ ?dataset void:uriSpace ?space }}"
            )
        )
    del store
    gc.collect()
    return location, (spaces[0] if len(spaces) == 1 else None)


def _check_port(port: int) -> None:
    """A port in use is said before the site is written, not after."""
    if port == 0:
        return
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as exc:
            raise KgError(
                f"cannot serve on 127.0.0.1:{port} ({exc.strerror or exc}); "
                f"--port N for another port, --port 0 for any free one"
            ) from None


def examples() -> list[dict]:
    """The query library as the query page's examples: each query with its plain parameters' defaults
    bound (a VALUES block) and the URL of its first page (/query/NAME); those that name an author,
    institution or topic need a name (kg query, or /query/NAME?PARAM=NAME)."""
    from rdflib import Literal

    from ..query.library import ENTITY_KINDS, LIMIT, library
    from ..stores.values import with_values
    from ..vocab import sparql_prologue

    found = []
    for name, query in sorted(library().items()):
        if any(param.kind in ENTITY_KINDS for param in query.params):
            continue
        bindings = {
            param.name: Literal(int(param.default)) if param.kind == "integer" else Literal(param.default)
            for param in query.params
            if param.name != LIMIT and param.default is not None
        }
        found.append(
            {
                "name": name,
                "title": query.title,
                "description": query.description,
                "sparql": sparql_prologue() + with_values(query.sparql, bindings),
                "page": f"/query/{name}",
            }
        )
    return found


def _whole_number_option(name: str, low: int, high: int | None, default: int, help_text: str, **attributes):
    """A whole number from ``low`` to ``high`` (None: no upper bound), its default shown in --help."""
    return shown_option(name, type=click.IntRange(min=low, max=high), default=default, help=help_text, **attributes)


def _waiting_option(name: str, default: float, help_text: str):
    """How long, up to an hour, something may wait before the server gives up on it."""
    return shown_option(name, type=click.FloatRange(min=0.1, max=3600), default=default, help=help_text)


@click.command("serve")
@stacked(
    _whole_number_option("--port", 0, 65535, 8000, "Port on 127.0.0.1 (0: any free port, printed on start)."),
    folder_option(
        "--site",
        "site_dir",
        default="exports/site",
        help_text="The site to serve; written first (kg site) when it has no index.html.",
    ),
    shown_option(
        "--timeout", type=click.FloatRange(min=0.1), default=30, help="Seconds a query may run before it is stopped."
    ),
    _whole_number_option(
        "--row-limit",
        1,
        None,
        100_000,
        "Most result rows (or triples) per query; the rest is cut (header X-KG-Truncated).",
    ),
    _whole_number_option(
        "--workers", 1, 32, 2, "Query processes (queries running at once); one more is kept for short queries."
    ),
    _whole_number_option(
        "--query-memory",
        128,
        1 << 20,
        1024,
        "Most memory (resident, MiB) a query's process may use before the query is stopped.",
        metavar="MIB",
    ),
    _waiting_option(
        "--queue-wait", 30, "Seconds a query may wait for a free process before it is answered 503 with Retry-After."
    ),
    _waiting_option("--idle-timeout", 15, "Seconds a kept-alive connection may stay silent before it is closed."),
    click.option(
        "--allow-federation",
        is_flag=True,
        help="Run SERVICE clauses: queries then make this server send requests to any host they name "
        "(see docs/endpoint.md before turning it on).",
    ),
    click.option(
        "--cors",
        is_flag=True,
        help="Let web pages of any site read query answers (Access-Control-Allow-Origin: *), for browser "
        "clients such as YASGUI; any page you visit can then read the store (see docs/endpoint.md).",
    ),
)
@store_option
def serve(
    port,
    site_dir,
    timeout,
    row_limit,
    workers,
    query_memory,
    queue_wait,
    idle_timeout,
    allow_federation,
    cors,
    store_spec,
) -> None:
    """Serve the site at http://127.0.0.1:PORT/ and a read-only SPARQL 1.1 endpoint at /sparql
    (GET or POST; JSON, XML, CSV or TSV results by the Accept header), until interrupted. A page of a
    library query, as kg query gives it: /query/NAME?PARAM=VALUE&limit=N&offset=N.
    SERVICE (federation) is refused unless --allow-federation; see docs/endpoint.md."""
    from ..query.served import library_page
    from ..stores.server import Limits
    from ..stores.server import serve as serve_forever

    _check_port(port)
    location, base = _prepared(store_spec, site_dir)
    err = console(stderr=True)

    def ready(bound: int) -> None:
        err.print(
            f"Serving http://127.0.0.1:{bound}/ (site: {site_dir}; SPARQL: http://127.0.0.1:{bound}/sparql). "
            f"Ctrl-C stops.",
            soft_wrap=True,
        )
        err.file.flush()

    limits = Limits(
        seconds=timeout,
        rows=row_limit,
        memory_mb=query_memory,
        queue_seconds=queue_wait,
        idle_seconds=idle_timeout,
        federation=allow_federation,
    )
    try:
        serve_forever(location, site_dir, port, limits, workers, ready, base, examples(), cors, library_page)
    except OSError as exc:
        raise KgError(f"cannot serve on 127.0.0.1:{port} ({exc.strerror or exc})") from None


COMMANDS = (serve,)
