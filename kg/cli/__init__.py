"""The ``kg`` command line: one module per command group, registered on :data:`main`.

Errors the user can act on are one line on stderr (``kg: error: …``) with a non-zero exit
status, never a traceback (set ``KG_DEBUG=1`` to see one).
"""

from __future__ import annotations

import errno
import importlib
import os
import sys

import click
from click.utils import make_default_short_help

from ..errors import KgError

#: command -> (its module in kg.cli, its one-line summary). A command's module (and spaCy,
#: rdflib, networkx behind it) is imported only when that command runs, so ``kg --help``
#: imports none of them; tests/test_cli.py checks each summary against the command's own help.
COMMANDS = {
    "build": ("build", "Build the graph from listing files (or folders of them) and write the exports."),
    "ingest": ("ingest", "Add listing files (or folders of them) to the store, keeping what it holds."),
    "remove": (
        "ingest",
        "Remove sources (by file name as ingested, path, or source IRI) and everything read from them.",
    ),
    "stats": ("inspect", "Counts of papers, authors, institutions, topics and triples in the store."),
    "export": (
        "inspect",
        "Write the whole graph: Turtle, N-Triples or JSON-LD (every triple once), or TriG and "
        "N-Quads (each source in its own named graph).",
    ),
    "check-load": (
        "publish",
        "Compare the quads of each graph of DUMP (a kg export --per-graph folder) with the server's "
        "count of that graph once its bulk loader has read it (scripts/virtuoso_load.sh): one line, "
        "and exit status 1 when any graph differs.",
    ),
    "queries": ("query", "List the named queries with their descriptions and parameters."),
    "query": ("query", "Answer a question with a named SPARQL query from the library, or with your own."),
    "explain": (
        "explain",
        "Show the chains an institution entry resolves to: each level from the top institution down, "
        "the ids of the rules that placed it (docs/organisation-rules.md lists them) and how its "
        "name was read.",
    ),
    "graph": ("graph", "Collaboration networks: interactive pages, files for Gephi, and their measures."),
    "quality": (
        "quality",
        "Data-quality report: merges made and why, institution entries rejected as person names, "
        "papers without institutions, authors written several ways, institutions that look "
        "alike but were kept apart, institutions written several ways, with the rule that made "
        "each written form the same institution, and units placed by e-mail domain.",
    ),
    "validate": ("quality", "Check the graph against the SHACL shapes in ontology/shapes.ttl (pySHACL)."),
    "site": (
        "site",
        "A static site of the graph: a page per author, institution, topic, paper, venue and country, "
        "linked to each other, to the graph's IRIs and to the network pages; opens offline, no server needed.",
    ),
    "serve": (
        "serve",
        "Serve the site at http://127.0.0.1:PORT/ and a read-only SPARQL 1.1 endpoint at /sparql "
        "(GET or POST; JSON, XML, CSV or TSV results by the Accept header), until interrupted.",
    ),
    "synth": (
        "synth",
        "Write a synthetic listing with realistic distributions (authors per paper, prolific authors, "
        "institutions with Chinese names, comments of every kind), for benchmarks.",
    ),
}


class LazyGroup(click.Group):
    """Commands loaded by name from :data:`COMMANDS` when they are used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module = importlib.import_module(f"{__name__}.{COMMANDS[name][0]}")
        return next(command for command in module.COMMANDS if command.name == name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        limit = formatter.width - 6 - max(map(len, COMMANDS))  # as click.Group lays it out
        rows = [(name, make_default_short_help(summary, limit)) for name, (_, summary) in sorted(COMMANDS.items())]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
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

    The organisation registry, read from its tables by the first command that needs it, is kept
    for the next ones in KG_CACHE_DIR (else $XDG_CACHE_HOME/kg or ~/.cache/kg; "none" keeps nothing).
    """
    from .settings import configure  # the environment, read once here and handed down

    configure()


def command_paths(group: click.Group = None, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command and subcommand, as the words that call it (``("graph", "coauthors")``); imports
    each command's module."""
    group = group or cli
    paths = []
    for name in group.list_commands(click.Context(group)):
        command = group.get_command(click.Context(group), name)
        paths.append((*prefix, name))
        if isinstance(command, click.Group):
            paths += command_paths(command, (*prefix, name))
    return paths


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
        if os.environ.get("KG_DEBUG") or not (exc.filename or _disk_full(exc)):
            raise
        _unwritable(exc)
    except Exception as exc:  # noqa: BLE001 - the one place that turns bugs into one line
        if os.environ.get("KG_DEBUG"):
            raise
        _internal_error(exc)


def _unwritable(exc: OSError) -> None:
    """One line for an output that cannot be written (exit 2), or for a full disk (exit 1)."""
    if _disk_full(exc):
        _no_space(exc)
    click.echo(f"kg: error: {exc.filename}: {exc.strerror or exc}", err=True)
    sys.exit(2)


def _internal_error(exc: Exception) -> None:
    """One line for a bug (exit 70), or for a full disk (exit 1)."""
    if _disk_full(exc):  # the store's engine says so in a RuntimeError of its own
        _no_space(exc)
    click.echo(f"kg: internal error: {type(exc).__name__}: {exc} (set KG_DEBUG=1 for a traceback)", err=True)
    sys.exit(70)


def _disk_full(exc: Exception) -> bool:
    return getattr(exc, "errno", None) in (errno.ENOSPC, errno.EDQUOT) or "No space left on device" in str(exc)


def _no_space(exc: Exception) -> None:
    """One line for a full disk (exit 1); a write in progress committed nothing (kg/stores/embedded.py: the journal)."""
    where = f" writing {exc.filename}" if getattr(exc, "filename", None) else ""
    click.echo(
        f"kg: error: no space left on device{where}: free some space and run the command again "
        "(set KG_DEBUG=1 for a traceback)",
        err=True,
    )
    sys.exit(1)
