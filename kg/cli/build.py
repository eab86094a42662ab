"""``kg build``: listings -> store -> exports, with a summary that adds up."""

from __future__ import annotations

import csv
from pathlib import Path

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .. import SAMPLES_DIR
from ..exports.rdf import export
from ..graphs.networks import write_pages
from ..pipeline import IngestReport, ingest
from ..query.stats import graph_stats
from .common import base_option, console, minter, opened_store, reading_options, store_option


def write_rejects(report: IngestReport, path: Path) -> None:
    """A TSV of every rejected record: file, line, reason, first words."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(["file", "line", "reason", "excerpt"])
        for rejection in report.rejections:
            writer.writerow([rejection.source.path, rejection.source.line, rejection.reason, rejection.excerpt])


def run_ingest(paths, store, mint, format_name, encoding, strict, jobs=None) -> IngestReport:
    """Ingest with a progress display on a terminal (records read per source)."""
    err = console(stderr=True)
    if not err.is_terminal:
        return ingest(paths, store, mint, format_name, encoding, strict, jobs=jobs)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as progress:
        task = progress.add_task("reading listings", total=None)
        return ingest(paths, store, mint, format_name, encoding, strict,
                      on_record=lambda source: progress.update(task, description=f"reading {source.name}", advance=1),
                      jobs=jobs)


def print_summary(report: IngestReport, stats: dict[str, int]) -> None:
    out = console()
    for rejection in report.rejections:
        click.echo(f"kg: rejected {rejection} — {rejection.excerpt}", err=True)
    out.print(
        f"Read {report.read:,} records from {len(report.sources)} file(s): "
        f"{report.ingested:,} ingested, {len(report.rejections):,} rejected."
    )
    out.print(
        f"Graph: {stats['papers']:,} papers, {stats['authors']:,} authors, {stats['institutions']:,} institutions, "
        f"{stats['topics']:,} topics, {stats['triples']:,} triples."
    )


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("exports"),
              show_default=True, help="Folder for kg.ttl, rejects.tsv and the network pages.")
@reading_options
@store_option
@base_option
def build(paths, out_dir, format_name, encoding, strict, jobs, store_spec, base) -> None:
    """Build the graph from listing files (or folders of them) and write the exports.

    With no PATH, builds the bundled sample listings. The store is emptied first, so
    the graph holds exactly these sources. Prints what was read, ingested and rejected;
    rejected records are listed with file and line in OUT/rejects.tsv.
    """
    mint = minter(base)
    with opened_store(store_spec) as store:
        store.clear()
        report = run_ingest(list(paths) or [SAMPLES_DIR], store, mint, format_name, encoding, strict, jobs)
        stats = graph_stats(store)
        export(store, "turtle", out_dir / "kg.ttl", mint.base)
        write_rejects(report, out_dir / "rejects.tsv")
        pages = write_pages(store, out_dir)  # collaboration networks (issue 4)
    print_summary(report, stats)
    console().print(f"Wrote {out_dir / 'kg.ttl'} and {out_dir / 'rejects.tsv'}.")
    console().print(f"Wrote {', '.join(str(page) for page in pages)}.")


COMMANDS = (build,)
