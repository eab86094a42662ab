"""``kg stats`` and ``kg export``: look at what the store holds."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .common import base_option, console, minter, opened_store, out_file_option, store_option

EXPORT_FORMATS = ["turtle", "ntriples", "jsonld", "trig", "nquads"]  # kg.exports.rdf.FORMATS (a test checks they agree)


@click.command()
@click.option("--format", "output_format", type=click.Choice(["table", "json"]), default="table", show_default=True)
@store_option
def stats(output_format, store_spec) -> None:
    """Counts of papers, authors, institutions, topics and triples in the store."""
    from ..query.stats import graph_stats, stored_stats

    with opened_store(store_spec) as store:
        counts = stored_stats(store) or graph_stats(store)  # counted only for stores described before they were kept
    if output_format == "json":
        click.echo(json.dumps(counts, indent=2))
        return
    width = max(map(len, counts))
    out = console()
    for name, value in counts.items():
        out.print(f"{name:<{width}}  {value:>10,}")


@click.command("export")
@click.option("--format", "format_name", type=click.Choice(EXPORT_FORMATS), default="turtle", show_default=True)
@out_file_option("File to write. Default: standard output.")
@click.option(
    "--per-graph",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="N-Quads, one file per named graph, in this folder (what a server's bulk loader takes: "
    "scripts/virtuoso_load.sh, docs/stores.md).",
)
@click.option(
    "--with-index",
    "index",
    is_flag=True,
    help="Also the index graph (counts and look-up keys the query library reads), so the "
    "library's queries run on the export loaded into another engine.",
)
@click.option(
    "--with-topic-detail",
    "topic_detail",
    is_flag=True,
    help="Also the topic detail graphs (each topic assignment's weight, matched words and the "
    "sections they were found in); the export always has each paper's dcterms:subject.",
)
@store_option
@base_option
def export_command(format_name, out, per_graph, index, topic_detail, store_spec, base) -> None:
    """Write the whole graph: Turtle, N-Triples or JSON-LD (every triple once), or TriG and N-Quads
    (each source in its own named graph). Sorted, so the same store gives the same bytes."""
    from ..exports.rdf import export, export_per_graph  # here: `kg stats` need not import the exporters

    if per_graph:
        if out or format_name not in ("turtle", "nquads"):  # turtle: the default, not asked for
            raise click.UsageError("--per-graph writes N-Quads files into its folder: give no --out or other --format")
        with opened_store(store_spec) as store:
            files = export_per_graph(store, per_graph)
        console(stderr=True).print(f"Wrote {len(files)} N-Quads files into {per_graph}.")
        return
    with opened_store(store_spec) as store:
        including = [name for name, asked in (("index", index), ("topic-detail", topic_detail)) if asked]
        export(store, format_name, out if out else sys.stdout.buffer, minter(base).base, including=including)
    if out:
        console(stderr=True).print(f"Wrote {out}.")


COMMANDS = (stats, export_command)
