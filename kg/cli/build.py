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
from ..processes import reads_beside
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
    on_described: Callable[[], None] | None = None,
) -> IngestReport:
    """Ingest with a progress display on a terminal: records read per source, then loading and resolution
    (``on_described``: as for :func:`kg.pipeline.finishing`)."""
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
                on_described=on_described,
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


class ExportsBeside:
    """The Turtle export and the network pages, each started in a reader process as soon as the
    ingest has written what they read (:meth:`start`, its ``on_described``), so they are written while
    the ranked lists are made here; where ``jobs`` keeps everything in one process or no other process
    can open the store, nothing starts and :attr:`started` stays false. Stopped if the block fails."""

    def __init__(self, store: KGStore, out_dir: Path, base: str, profiles: str | None, stage: Stages, jobs):
        self.store, self.out_dir, self.base, self.profiles, self.stage = store, out_dir, base, profiles, stage
        self.allowed, self.processes = reads_beside(jobs), []

    @property
    def started(self) -> bool:
        return bool(self.processes)

    def start(self) -> None:
        from ..exports.background import export_beside
        from ..graphs.networks import write_pages
        from ..pipeline import SUSPENDED_MARK
        from ..stores.beside import reader_process

        output = self.out_dir / "kg.ttl"
        export = export_beside(self.store, "turtle", output, self.base, SUSPENDED_MARK) if self.allowed else None
        if export is None:
            return
        self.processes.append(export)
        export.watch(self.stage.beside(f"exporting {output} (statements read)"))
        pages = reader_process(
            self.store, "the network pages", write_pages, self.out_dir, self.profiles, update=SUSPENDED_MARK
        )
        self.processes.append(pages)
        pages.watch(self.stage.beside(f"writing the network pages in {self.out_dir} (community pages written)"))

    def wait(self) -> None:
        self.stage.end()  # their lines stay until they are written
        for process in self.processes:
            process.wait()

    def __enter__(self) -> "ExportsBeside":
        return self

    def __exit__(self, kind, *exc) -> None:
        if kind is not None:
            for process in self.processes:
                process.stop()


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
    from ..graphs.networks import LINKS, write_pages
    from ..query.stats import graph_stats, stored_stats

    mint = minter(base)
    writable_folder(out_dir)  # before the store changes: a build that cannot write its exports changes nothing
    profiles = "site/" if with_site else None  # the network pages link their nodes to the site (issue 4)
    with (
        opened_store(store_spec, write=True) as store,
        Stages() as stage,
        ExportsBeside(store, out_dir, mint.base, profiles, stage, jobs) as beside,
    ):
        if not paths and not replace:
            refuse_to_replace(store, mint)
        report = run_ingest(
            list(paths) or [SAMPLES_DIR],
            store,
            mint,
            format_name,
            encoding,
            strict,
            jobs,
            stage,
            replace_all=True,
            on_described=beside.start,
        )
        stage("counting")
        stats = stored_stats(store) or graph_stats(store)  # the pipeline has just counted and stored them
        write_rejects(report, out_dir / "rejects.tsv")
        if with_site:
            stage("writing the site")
            write_site(store, out_dir / "site")
        if beside.started:
            beside.wait()
        else:
            with exporting(store, out_dir / "kg.ttl", mint.base, stage, jobs):
                write_pages(
                    store,
                    out_dir,
                    profiles=profiles,
                    on_page=lambda path: stage(f"writing the network pages: {path}"),
                    on_progress=stage.done,
                )
    pages = [out_dir / f"{name}.html" for name in LINKS]
    print_summary(report, stats)
    console().print(f"Wrote {out_dir / 'kg.ttl'} and {out_dir / 'rejects.tsv'}.")
    console().print(f"Wrote {', '.join(str(page) for page in pages)}.")
    if with_site:
        console().print(f"Wrote the site: {out_dir / 'site' / 'index.html'}.")


COMMANDS = (build,)
