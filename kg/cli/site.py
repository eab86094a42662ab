"""``kg site``: the graph as a static, offline site of profile pages."""

from __future__ import annotations

import click

from .common import console, folder_option, opened_store, store_option


@click.command("site")
@folder_option("--out", "out_dir", default="exports/site", help_text="Folder to write the site into.")
@store_option
def site(out_dir, store_spec) -> None:
    """A static site of the graph: a page per author, institution, topic, paper, venue and country,
    linked to each other, to the graph's IRIs and to the network pages; opens offline, no server needed."""
    from ..exports.site import write_site

    with opened_store(store_spec) as store:
        counts = write_site(store, out_dir)
    listed = ", ".join(f"{count:,} {kind} pages" for kind, count in counts.items())
    console(stderr=True).print(f"Wrote {out_dir / 'index.html'}: {listed}.")


COMMANDS = (site,)
