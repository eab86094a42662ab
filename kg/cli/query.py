"""``kg queries`` and ``kg query``: the named SPARQL questions of queries/, and your own."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import KgError, plural
from .common import base_option, console, minter, opened_store, shown_option, store_option

if TYPE_CHECKING:
    from ..query.library import LibraryQuery

OUTPUT_FORMATS = ("table", "csv", "tsv", "json")


def describe(query: LibraryQuery) -> list[str]:
    lines = [f"{query.name} — {query.title}", f"    {query.description}"]
    for param in query.params:
        default = "required" if param.required else f"default {param.default}"
        lines.append(f"    -p {param.name}=…  {param.allowed}, {default}: {param.description}")
    return lines


@click.command("queries")
def queries_command() -> None:
    """List the named queries with their descriptions and parameters."""
    from ..query.library import library

    out = console()
    for query in library().values():
        out.print("\n".join(describe(query)), markup=False)
        out.print()
    out.print("Run one with: kg query NAME [-p name=value …] [--format table|csv|tsv|json]", markup=False)


def parse_values(pairs: tuple[str, ...]) -> dict[str, str]:
    values = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise KgError(f"-p {pair!r}: write parameters as NAME=VALUE")
        values[name.strip()] = value
    return values


@click.command("query")
@click.argument("name", required=False)
@click.option(
    "-p",
    "--param",
    "pairs",
    multiple=True,
    metavar="NAME=VALUE",
    help="A parameter value (repeatable). Names are matched forgivingly; see `kg queries`.",
)
@click.option(
    "--file",
    "query_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Run your own SPARQL file (its '# param:' header lines work as in the library).",
)
@shown_option(
    "--format",
    "output_format",
    type=click.Choice(OUTPUT_FORMATS),
    default="table",
    help="table to read; json, csv (plain values), tsv (N-Triples terms): the SPARQL 1.1 results formats.",
)
@store_option
@base_option
def query_command(name, pairs, query_file, output_format, store_spec, base) -> None:
    """Answer a question with a named SPARQL query from the library, or with your own.

    \b
    Examples:
      kg queries                                        # what can be asked
      kg query coauthors -p author="gerhard neumann"
      kg query top-institutions -p limit=5 --format csv
      kg query top-institutions -p limit=5 -p offset=5  # the next page
      kg query institution-partners -p institution=UIUC --format json
      kg query --file my.rq -p author="Balázs Gyenes"

    Authors, institutions and topics are found the way you type them: case, accents,
    spaces and hyphens do not matter; institutions also by Chinese name or acronym.
    Parameter values are bound as RDF terms, never pasted into the query text.

    Questions that need graph algorithms over the collaboration network (the
    collaboration distance between two authors, who bridges two groups, communities)
    are answered by `kg graph`, not by a query.
    """
    from ..query.library import library_query, load_query, run
    from ..query.results import page_note, sparql_results
    from ..vocab import data_prefixes

    if bool(name) == bool(query_file):
        raise KgError("give a query NAME or --file FILE (one of them); `kg queries` lists the names")
    query = load_query(query_file) if query_file else library_query(name)
    with opened_store(store_spec) as store:
        result = run(store, query, parse_values(pairs))
    for note in result.notes:
        click.echo(f"kg: {note}", err=True)
    if result.graph is not None:
        click.echo(result.graph.serialize(format="turtle"), nl=False)
        return
    if output_format in ("json", "csv", "tsv"):
        document = sparql_results(result, output_format)
        click.echo(document, nl=not document.endswith(b"\n"))
    else:
        print_table(result, data_prefixes(minter(base).base), query.title)
    if result.total > len(result.rows):
        click.echo("kg: " + page_note(result, query), err=True)


def print_table(result, prefixes, title: str) -> None:
    from ..query.results import aligned_text, rich_table, table_cells

    out = console()
    cells = table_cells(result, prefixes)
    if out.is_terminal:
        out.print(rich_table(cells, title))
        out.print(plural(len(result.rows), "row"), style="dim")
    else:
        click.echo(aligned_text(cells), nl=False)


COMMANDS = (queries_command, query_command)
