"""``kg synth``: a synthetic corpus for benchmarks and scale tests."""

from __future__ import annotations

import sys

import click

from ..ingest.synth import FORMATS, write_corpus
from .common import console, out_file_option, shown_option


@click.command()
@click.option("--papers", "count", type=click.IntRange(min=0), required=True, help="Number of papers to write.")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same corpus (byte for byte).")
@shown_option(
    "--format",
    "format_name",
    type=click.Choice(FORMATS),
    default="listing",
    help="Input format to write: a full listing, English abstracts only, or a structured source "
    "(paperlists JSON, BibTeX, CSV, arXiv Atom) with per-author affiliations and ids.",
)
@out_file_option("File to write. Default: standard output.")
def synth(count, seed, format_name, out) -> None:
    """Write a synthetic listing with realistic distributions (authors per paper, prolific
    authors, institutions with Chinese names, comments of every kind), for benchmarks."""
    if out is None:
        write_corpus(sys.stdout, count, seed, format_name)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as handle:
        write_corpus(handle, count, seed, format_name)
    console(stderr=True).print(f"Wrote {count:,} papers to {out}.")


COMMANDS = (synth,)
