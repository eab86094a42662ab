"""``kg check-load``: after a server's bulk loader read a ``kg export --per-graph`` dump, are the counts right?"""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import KgError
from .common import console, store_option


@click.command("check-load")
@click.argument("dump", type=click.Path(exists=True, file_okay=False, path_type=Path))
@store_option
def check_load(dump, store_spec) -> None:
    """Compare the quads of each graph of DUMP (a kg export --per-graph folder) with the server's
    count of that graph once its bulk loader has read it (scripts/virtuoso_load.sh): one line, and
    exit status 1 when any graph differs."""
    from ..stores import default_store_spec
    from ..stores.bulk_counts import compared, verdict
    from ..stores.remote import RemoteStore

    store_spec = store_spec or default_store_spec()
    if not store_spec.startswith(("http://", "https://")):
        raise KgError("kg check-load compares a dump with a SPARQL server: give --store URL (its query endpoint)")
    console().print(verdict(compared(RemoteStore(store_spec), dump)), soft_wrap=True)


COMMANDS = (check_load,)
