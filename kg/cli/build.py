"""``kg build``: listings -> store -> exports, with a summary that adds up."""

from __future__ import annotations

import csv
from pathlib import Path

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .. import SAMPLES_DIR
from ..errors import plural
from ..exports.rdf import export
from ..graphs.networks import write_pages
from ..pipeline import IngestReport, NothingRead, ingest
from ..query.stats import graph_stats
from .common import base_option, console, minter, opened_store, reading_options, writable_folder, writer_store_option


def write_rejects(report: IngestReport, path: Path) -> None:
    """A TSV of every rejected record: file, line, reason, first words."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(["file", "line", "reason", "excerpt"])
        for rejection in report.rejections:
            writer.writerow([rejection.source.path, rejection.source.line, rejection.reason, rejection.excerpt])


def run_ingest(paths, store, mint, format_name, encoding, strict, replace_all=False) -> IngestReport:
    """Ingest with a progress display on a terminal (records read per source)."""
    try:
        return _ingest_with_progress(paths, store, mint, format_name, encoding, strict, replace_all)
    except NothingRead as exc:
        print_rejections(exc.report)
        raise


def _ingest_with_progress(paths, store, mint, format_name, encoding, strict, replace_all) -> IngestReport:
    err = console(stderr=True)
    if not err.is_terminal:
        return ingest(paths, store, mint, format_name, encoding, strict, replace_all=replace_all)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as progress:
        task = progress.add_task("reading listings", total=None)
        return ingest(paths, store, mint, format_name, encoding, strict, replace_all=replace_all,
                      on_record=lambda source: progress.update(task, description=f"reading {source.name}", advance=1))


def print_rejections(report: IngestReport) -> None:
    for rejection in report.rejections:
        click.echo(f"kg: rejected {rejection} — {rejection.excerpt}", err=True)


def print_summary(report: IngestReport, stats: dict[str, int]) -> None:
    out = console()
    print_rejections(report)
    out.print(
        f"Read {plural(report.read, 'record')} from {plural(len(report.sources), 'file')}: "
        f"{report.ingested:,} ingested, {len(report.rejections):,} rejected."
    )
    out.print(
        f"Graph: {plural(stats['papers'], 'paper')}, {plural(stats['authors'], 'author')}, "
        f"{plural(stats['institutions'], 'institution')}, {plural(stats['topics'], 'topic')}, "
        f"{plural(stats['triples'], 'triple')}."
    )


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("exports"),
              show_default=True, help="Folder for kg.ttl, rejects.tsv and the network pages.")
@reading_options
@writer_store_option
@base_option
def build(paths, out_dir, format_name, encoding, strict, store_spec, base) -> None:
    """Build the graph from listing files (or folders of them) and write the exports.

    With no PATH, builds the bundled sample listings. The graph then holds exactly these
    sources: every file is read before the store changes, so a build that fails (a bad
    file, --strict, nothing ingested, a kill) leaves the previous graph as it was. Prints
    what was read, ingested and rejected; rejected records are listed with file and line
    in OUT/rejects.tsv.
    """
    mint = minter(base)
    writable_folder(out_dir)  # before the store changes: a build that cannot write its exports changes nothing
    with opened_store(store_spec, write=True) as store:
        report = run_ingest(list(paths) or [SAMPLES_DIR], store, mint, format_name, encoding, strict, replace_all=True)
        stats = graph_stats(store)
        export(store, "turtle", out_dir / "kg.ttl", mint.base)
        write_rejects(report, out_dir / "rejects.tsv")
        pages = write_pages(store, out_dir)  # collaboration networks (issue 4)
    print_summary(report, stats)
    console().print(f"Wrote {out_dir / 'kg.ttl'} and {out_dir / 'rejects.tsv'}.")
    console().print(f"Wrote {', '.join(str(page) for page in pages)}.")


COMMANDS = (build,)
