"""``kg serve``: the site and a read-only SPARQL endpoint over the store, on 127.0.0.1."""

from __future__ import annotations

import gc
from pathlib import Path

import click

from ..errors import KgError
from .common import console, opened_store, store_option


def _prepared(store_spec, site_dir: Path) -> Path:
    """The store's folder, after resolution is up to date and the site written; the store is
    closed again (and collected, which releases its lock) so that other kg commands can use it."""
    from ..exports.site import write_site

    with opened_store(store_spec) as store:
        if store.spec == "memory" or str(store.spec).startswith(("http://", "https://")):
            raise KgError("kg serve needs a store folder (--store DIR): its query processes open it read-only")
        location = Path(store.spec)
        if not (site_dir / "index.html").exists():
            write_site(store, site_dir)
    del store
    gc.collect()
    return location


@click.command("serve")
@click.option("--port", type=click.IntRange(min=0, max=65535), default=8000, show_default=True,
              help="Port on 127.0.0.1 (0: any free port, printed on start).")
@click.option("--site", "site_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("exports/site"),
              show_default=True, help="The site to serve; written first (kg site) when it has no index.html.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=30, show_default=True,
              help="Seconds a query may run before it is stopped.")
@click.option("--row-limit", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Most result rows (or triples) per query; the rest is cut (header X-KG-Truncated).")
@click.option("--workers", type=click.IntRange(min=1, max=32), default=2, show_default=True,
              help="Query processes (queries running at once); one more is kept for short queries.")
@click.option("--query-memory", type=click.IntRange(min=128, max=1 << 20), default=1024, show_default=True,
              metavar="MIB", help="Most memory (resident, MiB) a query's process may use before the query is stopped.")
@click.option("--queue-wait", type=click.FloatRange(min=0.1, max=3600), default=30, show_default=True,
              help="Seconds a query may wait for a free process before it is answered 503 with Retry-After.")
@click.option("--idle-timeout", type=click.FloatRange(min=0.1, max=3600), default=15, show_default=True,
              help="Seconds a kept-alive connection may stay silent before it is closed.")
@click.option("--allow-federation", is_flag=True,
              help="Run SERVICE clauses: queries then make this server send requests to any host they name "
                   "(see docs/endpoint.md before turning it on).")
@store_option
def serve(port, site_dir, timeout, row_limit, workers, query_memory, queue_wait, idle_timeout,
          allow_federation, store_spec) -> None:
    """Serve the site at http://127.0.0.1:PORT/ and a read-only SPARQL 1.1 endpoint at /sparql
    (GET or POST; JSON, XML, CSV or TSV results by the Accept header), until interrupted.
    SERVICE (federation) is refused unless --allow-federation; see docs/endpoint.md."""
    from ..stores.server import Limits, serve as serve_forever

    location = _prepared(store_spec, site_dir)
    err = console(stderr=True)

    def ready(bound: int) -> None:
        err.print(f"Serving http://127.0.0.1:{bound}/ (site: {site_dir}; SPARQL: http://127.0.0.1:{bound}/sparql). "
                  f"Ctrl-C stops.", soft_wrap=True)
        err.file.flush()

    limits = Limits(seconds=timeout, rows=row_limit, memory_mb=query_memory, queue_seconds=queue_wait,
                    idle_seconds=idle_timeout, federation=allow_federation)
    try:
        serve_forever(location, site_dir, port, limits, workers, ready)
    except OSError as exc:
        raise KgError(f"cannot serve on 127.0.0.1:{port} ({exc.strerror or exc})") from None


COMMANDS = (serve,)
