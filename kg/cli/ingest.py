"""``kg ingest`` and ``kg remove``: change an existing store one source at a time."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import KgError
from .build import print_summary, run_ingest
from .common import base_option, console, minter, opened_store, reading_options, writer_store_option


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@reading_options
@writer_store_option
@base_option
def ingest(paths, format_name, encoding, strict, jobs, store_spec, base) -> None:
    """Add listing files (or folders of them) to the store, keeping what it holds.

    Each file is one source in its own named graph: ingesting a file again replaces its
    source, other sources stay. The run is atomic: every file is read before the store
    changes, so if it fails or is interrupted the store is as it was before, and running the
    same command again does the job.
    """
    from ..query.stats import graph_stats, stored_stats

    with opened_store(store_spec, write=True) as store:
        report = run_ingest(list(paths), store, minter(base), format_name, encoding, strict, jobs)
        stats = stored_stats(store) or graph_stats(store)  # the pipeline has just counted and stored them
    print_summary(report, stats)


@click.command()
@click.argument("sources", nargs=-1, required=True)
@writer_store_option
@base_option
def remove(sources, store_spec, base) -> None:
    """Remove sources (by file name as ingested, path, or source IRI) and everything read from them."""
    import pyoxigraph as ox

    from ..pipeline import finishing
    from ..rdf.mapping import source_iri
    from ..rdf.topic_triples import detail_graph
    from ..resolve.store_step import resolution_suspended

    mint = minter(base)
    with opened_store(store_spec, write=True) as store:
        known = store.sources()
        graphs = []
        for source in sources:
            candidates = [source, source_iri(source, mint).value, source_iri(Path(source).name, mint).value]
            graph = next((c for c in candidates if c in known), None)
            if graph is None:
                names = ", ".join(g.rsplit("/", 1)[-1] for g in known) or "none"
                raise KgError(f"no source {source!r} in the store (sources: {names})")
            graphs.append(graph)
        # merges and display names follow the sources left, and so does the description
        with resolution_suspended(store, mint, finish=finishing(store, mint)):
            for graph in graphs:
                store.remove_graph(ox.NamedNode(graph))
                store.remove_graph(detail_graph(ox.NamedNode(graph)))  # its topic detail
                console().print(f"Removed {graph}.")


COMMANDS = (ingest, remove)
