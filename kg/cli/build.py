"""``kg build``: listings -> store -> exports, with a summary that adds up."""

from __future__ import annotations

import csv
from collections import Counter
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

import click

from .. import SAMPLES_DIR
from ..errors import plural
from .common import (
    UsageError,
    base_option,
    console,
    folder_option,
    minter,
    opened_store,
    reading_options,
    writable_folder,
    writer_store_option,
)

if TYPE_CHECKING:  # the engines are imported when a command runs, not for its --help
    from ..pipeline import IngestReport
    from ..stores.embedded import KGStore


def write_rejects(report: IngestReport, path: Path) -> None:
    """A TSV of every rejected record: file, line, reason, first words."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(["file", "line", "reason", "excerpt"])
        for rejection in report.rejections:
            writer.writerow([rejection.source.path, rejection.source.line, rejection.reason, rejection.excerpt])


class Stages:
    """What a long command is doing, on the terminal's stderr (nothing in pipes and CI):
    the stage, a count of what it has done so far, and the time it has taken."""

    def __init__(self):
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        err = console(stderr=True)
        self.progress = (
            Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=err,
                transient=True,
            )
            if err.is_terminal
            else None
        )
        self.task = None

    def __enter__(self) -> "Stages":
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.progress is not None:
            self.progress.stop()

    def __call__(self, description: str) -> None:
        """Start the next stage."""
        self.end()
        if self.progress is not None:
            self.task = self.progress.add_task(description, total=None)

    def end(self) -> None:
        """The current stage is over (a stage :meth:`beside` it may still be shown)."""
        if self.progress is not None and self.task is not None:
            self.progress.remove_task(self.task)
            self.task = None

    def done(self, count: int) -> None:
        """How many items the current stage has done."""
        if self.progress is not None and self.task is not None:
            self.progress.update(self.task, completed=count)

    def beside(self, description: str) -> Callable[[int], None]:
        """A stage another process works at while the next ones run here; returns its counter."""
        if self.progress is None:
            return lambda count: None
        task = self.progress.add_task(description, total=None)
        return lambda count: self.progress.update(task, completed=count)


def run_ingest(
    paths,
    store,
    mint,
    format_name,
    encoding,
    strict,
    jobs=None,
    stages: Stages | None = None,
    replace_all: bool = False,
) -> IngestReport:
    """Ingest with a progress display on a terminal: records read per source, then loading and resolution."""
    from ..pipeline import NothingRead, ingest

    try:
        with nullcontext(stages) if stages else Stages() as shown:
            shown("reading listings")

            def read(source) -> None:
                shown.progress.update(shown.task, description=f"reading {source.name}", advance=1)

            return ingest(
                paths,
                store,
                mint,
                format_name,
                encoding,
                strict,
                jobs=jobs,
                replace_all=replace_all,
                on_record=read if shown.progress is not None else None,
                on_stage=shown,
            )
    except NothingRead as exc:
        print_rejections(exc.report)
        raise


@contextmanager
def exporting(store: KGStore, output: Path, base: str, stage: Stages, jobs: int | None) -> Iterator[None]:
    """The sorted Turtle export, written while the block runs where ``jobs`` allows (default: the
    cores) and another process can open the store (kg/exports/background.py), else before it; done
    when the block ends."""
    from ..exports.background import export_beside
    from ..exports.rdf import export
    from ..processes import reads_beside

    description = f"exporting {output} (statements read)"
    background = export_beside(store, "turtle", output, base) if reads_beside(jobs) else None
    if background is None:
        stage(description)
        export(store, "turtle", output, base, on_progress=stage.done)
        yield
        return
    background.watch(stage.beside(description))
    try:
        yield
        stage.end()  # the export's line stays until it is written
        background.wait()
    except BaseException:
        background.stop()
        raise


def print_rejections(report: IngestReport) -> None:
    for rejection in report.rejections:
        click.echo(f"kg: rejected {rejection} — {rejection.excerpt}", err=True)


def _formats(report: IngestReport) -> str:
    """The format each file was read as (detected or given), so a wrong guess is seen at once."""
    counts = Counter(source.format for source in report.sources)
    if len(report.sources) == 1:
        return f"as {report.sources[0].format}"
    return ", ".join(f"{count} as {name}" for name, count in sorted(counts.items()))


def print_summary(report: IngestReport, stats: dict[str, int]) -> None:
    out = console()
    print_rejections(report)
    out.print(
        f"Read {plural(report.read, 'record')} from {plural(len(report.sources), 'file')} ({_formats(report)}): "
        f"{report.ingested:,} ingested, {len(report.rejections):,} rejected."
    )
    out.print(
        f"Graph: {plural(stats['papers'], 'paper')}, {plural(stats['authors'], 'author')}, "
        f"{plural(stats['institutions'], 'institution')}, {plural(stats['topics'], 'topic')}, "
        f"{plural(stats['triples'], 'triple')}."
    )


def refuse_to_replace(store: KGStore, mint) -> None:
    """A bare `kg build` builds the samples, which would replace every other source: refuse that."""
    from ..pipeline import expand_paths, source_names
    from ..rdf.mapping import source_iri

    samples = {source_iri(name, mint).value for name in source_names(expand_paths([SAMPLES_DIR]))}
    others = [graph for graph in store.sources() if graph not in samples]
    if others:
        shown = ", ".join(graph.rsplit("/", 1)[-1] for graph in others[:3]) + (", …" if len(others) > 3 else "")
        raise UsageError(
            f"--store {store.spec} holds {plural(len(others), 'other source')} ({shown}); kg build without "
            "PATH builds the bundled samples and would replace them: give the files to build, "
            "or pass --replace to replace them with the samples"
        )


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@folder_option("--out", "out_dir", default="exports", help_text="Folder for kg.ttl, rejects.tsv and the network pages.")
@click.option(
    "--site",
    "with_site",
    is_flag=True,
    default=False,
    help="Also write the static site (kg site) into OUT/site, and link the network pages' nodes to it.",
)
@click.option(
    "--replace",
    is_flag=True,
    default=False,
    help="With no PATH: build the samples even where the store holds other sources (they are replaced).",
)
@reading_options
@writer_store_option
@base_option
def build(paths, out_dir, replace, format_name, encoding, strict, jobs, store_spec, base, with_site) -> None:
    """Build the graph from listing files (or folders of them) and write the exports.

    With no PATH, builds the bundled sample listings; a store that holds other sources is
    then refused unless --replace is given. The graph then holds exactly these
    sources: every file is read before the store changes, so a build that fails (a bad
    file, --strict, nothing ingested, a kill) leaves the previous graph as it was. Prints
    what was read, ingested and rejected; rejected records are listed with file and line
    in OUT/rejects.tsv.
    """
    from ..exports.site import write_site
    from ..graphs.networks import write_pages
    from ..query.stats import graph_stats, stored_stats

    mint = minter(base)
    writable_folder(out_dir)  # before the store changes: a build that cannot write its exports changes nothing
    with opened_store(store_spec, write=True) as store, Stages() as stage:
        if not paths and not replace:
            refuse_to_replace(store, mint)
        report = run_ingest(
            list(paths) or [SAMPLES_DIR], store, mint, format_name, encoding, strict, jobs, stage, replace_all=True
        )
        stage("counting")
        stats = stored_stats(store) or graph_stats(store)  # the pipeline has just counted and stored them
        with exporting(store, out_dir / "kg.ttl", mint.base, stage, jobs):
            write_rejects(report, out_dir / "rejects.tsv")
            if with_site:
                stage("writing the site")
                write_site(store, out_dir / "site")
            pages = write_pages(
                store,
                out_dir,
                profiles="site/" if with_site else None,  # collaboration networks (issue 4)
                on_page=lambda path: stage(f"writing the network pages: {path}"),
                on_progress=stage.done,
            )
    print_summary(report, stats)
    console().print(f"Wrote {out_dir / 'kg.ttl'} and {out_dir / 'rejects.tsv'}.")
    console().print(f"Wrote {', '.join(str(page) for page in pages)}.")
    if with_site:
        console().print(f"Wrote the site: {out_dir / 'site' / 'index.html'}.")


COMMANDS = (build,)
