"""The ``kg`` command line: one module per command group, registered on :data:`main`.

Errors the user can act on are one line on stderr (``kg: error: …``) with a non-zero exit
status, never a traceback (set ``KG_DEBUG=1`` to see one).
"""

from __future__ import annotations

import os
import sys

import click

from ..errors import KgError
from . import build, graph, ingest, inspect, quality, query, synth

COMMAND_MODULES = (build, ingest, inspect, query, graph, quality, synth)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="kg")
def cli() -> None:
    """Turn conference paper listings into an RDF knowledge graph and ask it questions.

    \b
    Typical session:
      kg build                      # the bundled samples -> store + exports/kg.ttl
      kg stats                      # what the graph holds
      kg export --format jsonld     # the graph in another format
      kg ingest more/*.txt          # add sources to the store; kg remove NAME drops one

    Every command works on one persistent store (.kg-store in the current folder);
    --store (or KG_STORE) chooses another, 'memory' a throwaway one, or the URL of a
    SPARQL 1.1 server (with --update-endpoint for writing).
    """


for module in COMMAND_MODULES:
    for command in module.COMMANDS:
        cli.add_command(command)


def main() -> None:
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("kg: aborted", err=True)
        sys.exit(130)
    except KgError as exc:
        click.echo(f"kg: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        click.echo("kg: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.stderr.close()  # the reader of our output went away (e.g. `kg export | head`)
        sys.exit(0)
    except OSError as exc:  # an output that cannot be written: under a file, read-only, disk full
        if os.environ.get("KG_DEBUG") or not exc.filename:
            raise
        click.echo(f"kg: error: {exc.filename}: {exc.strerror or exc}", err=True)
        sys.exit(2)
    except Exception as exc:  # noqa: BLE001 - the one place that turns bugs into one line
        if os.environ.get("KG_DEBUG"):
            raise
        click.echo(f"kg: internal error: {type(exc).__name__}: {exc} (set KG_DEBUG=1 for a traceback)", err=True)
        sys.exit(70)
