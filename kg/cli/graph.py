"""``kg graph``: collaboration networks as pages and files, and their measures."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import KgError, plural
from ..graphs import EXTENSIONS, FORMATS, HEADINGS, KINDS, LEVELS, NEIGHBOURS
from ..rdf.iris import slug
from .common import console, opened_store, out_file_option, shown_option, stacked, store_option

#: The thresholds VOSviewer and bibliometrix users expect, shared by every network command.
threshold_options = stacked(
    click.option("--top", type=click.IntRange(min=1), default=None, help="Keep only the N nodes with the most papers."),
    shown_option(
        "--min-weight",
        type=click.FloatRange(min=0),
        default=0,
        help="Drop edges lighter than this (shared papers, or the fractional count).",
    ),
    shown_option("--min-papers", type=click.IntRange(min=1), default=1, help="Drop nodes on fewer papers."),
    click.option(
        "--max-team",
        type=click.IntRange(min=2),
        default=None,
        help="Ignore papers with more members than this when linking (hyper-authored papers).",
    ),
    shown_option(
        "--counting",
        type=click.Choice(["full", "fractional"]),
        default="full",
        help="Edge weight: shared papers, or 1/(n-1) per paper with n members.",
    ),
    store_option,
)


level_option = shown_option(
    "--level",
    type=click.Choice(LEVELS),
    default="listed",
    help="Institutions: as the papers list them, or each unit rolled up to its parent organisation.",
)


def draw(
    name: str, center: str | None, depth: int, out: Path | None, file_format: str, store_spec, top, **thresholds
) -> None:
    """Write the whole network, or the ego network around ``center``, as a page or file."""
    from ..graphs.files import write_network
    from ..graphs.networks import network
    from ..graphs.projections import ego_network, induced, top_nodes

    with opened_store(store_spec) as store:
        graph = network(store, name, **thresholds)
        heading, stem = HEADINGS[name], name
        if center:
            iri = _center(store, name, center)
            if iri not in graph:
                unit_hint = "; named only through its units? try --level parent" if name == "institutions" else ""
                raise KgError(
                    f"{center!r} is not in this network: on no paper at this level{unit_hint}, "
                    f"or left out by the thresholds (see --min-papers)"
                )
            graph = ego_network(graph, iri, depth)
            label = graph.nodes[iri]["label"]
            heading, stem = f"{heading} around {label} (depth {depth})", f"{name}-{slug(label)}"
        if top is not None:  # the centre always stays
            keep = [node for node in top_nodes(graph, None) if node != (iri if center else None)]
            graph = induced(graph, keep[: top - 1] + [iri] if center else keep[:top])
    if graph.number_of_nodes() == 0:
        raise KgError(
            f"the thresholds leave no {name} in the network: lower --min-papers, --min-weight or raise --max-team"
        )
    if top is not None:
        stem += f"-top{top}"  # not kg build's page of the whole network
    path = out or Path("exports") / f"{stem}.{EXTENSIONS.get(file_format, file_format)}"
    write_network(graph, path, file_format, heading, KINDS[name])
    _wrote(path, graph)


def _center(store, name: str, typed: str) -> str:
    """The node the ego network is drawn around: a country by name or ISO code, else as the query library finds it."""
    if name == "countries":
        from ..graphs.countries import country_iri, find_country

        return country_iri(find_country(typed))
    from ..query.library import find_entity

    return str(find_entity(store, KINDS[name], typed))


def _wrote(path: Path, graph) -> None:
    console(stderr=True).print(
        f"Wrote {path} ({plural(graph.number_of_nodes(), 'node')}, {plural(graph.number_of_edges(), 'edge')})."
    )


def _format_option(default: str, help_text: str):
    """--format: the network's page or file format."""
    return shown_option("--format", "file_format", type=click.Choice(list(FORMATS)), default=default, help=help_text)


def network_command(name: str, center_option: str, help_text: str):
    @click.command(name, help=help_text)
    @click.option(
        f"--{center_option}",
        "center",
        metavar="NAME",
        default=None,
        help=f"Only the network around this {center_option} (name as you would type it).",
    )
    @shown_option(
        "--depth",
        type=click.IntRange(min=1),
        default=1,
        help=f"With --{center_option}: how many steps out from it.",
    )
    @out_file_option(f"File to write. Default: exports/{name}[-NAME][-topN].FORMAT")
    @_format_option(
        "html",
        "html: interactive page (offline); gexf: Gephi; graphml; csv: edge list; "
        "vosviewer: map and network files; pajek: .net (VOSviewer, Pajek).",
    )
    @threshold_options
    def command(**options) -> None:
        draw(name, **options)

    if name == "institutions":
        command = level_option(command)

    return command


coauthors = network_command(
    "coauthors",
    "author",
    """Authors linked by the papers they wrote together.

    \b
    kg graph coauthors                                 # exports/coauthors.html, the whole network
    kg graph coauthors --author "Gerhard Neumann"      # him and his co-authors
    kg graph coauthors --format gexf --min-weight 2    # repeat collaborations, for Gephi
    """,
)
institutions = network_command(
    "institutions",
    "institution",
    """Institutions linked by the papers that list them together.

    \b
    kg graph institutions --format csv --out institutions.csv
    """,
)
topics = network_command(
    "topics",
    "topic",
    """Topics linked by the papers they are found in together (each paper's own topics; broader ones are not
    assignments).

    \b
    kg graph topics                                    # exports/topics.html
    kg graph topics --topic "reinforcement learning"   # the topics that co-occur with it
    """,
)

countries = network_command(
    "countries",
    "country",
    """Countries linked by the papers their organisations write together (from the organisation registry).

    A paper's countries are those of the organisations it lists; it counts once per country.

    \b
    kg graph countries                                 # exports/countries.html
    kg graph countries --country Germany               # Germany and its partner countries
    kg query country-collaborations                    # the same pairs as a table
    """,
)


@click.command("affiliations")
@out_file_option("File to write. Default: exports/affiliations.FORMAT")
@_format_option("gexf", "gexf: Gephi; graphml; csv: edge list; html: interactive page (offline).")
@store_option
def affiliations(out, file_format, store_spec) -> None:
    """Authors linked to the institutions listed on their papers (bipartite; edge weight: papers).

    Listings do not say which author is at which institution: an edge means the institution
    is listed on a paper of the author's, not that the author works there.
    """
    from ..graphs.files import write_network
    from ..graphs.networks import affiliation_network

    with opened_store(store_spec) as store:
        graph = affiliation_network(store)
    path = out or Path("exports") / f"affiliations.{file_format}"
    write_network(graph, path, file_format, "Authors and the institutions on their papers", "affiliation")
    _wrote(path, graph)


def _label(graph, node) -> str:
    return graph.nodes[node]["label"]


@click.command("stats")
@click.argument("name", type=click.Choice(sorted(KINDS)), default="coauthors")
@click.option("--rows", type=click.IntRange(min=1), default=10, show_default=True, help="Rows per ranking.")
@level_option
@threshold_options
def stats(name, rows, top, **thresholds) -> None:
    """Size, components, communities (Leiden, seeded), and who is central or bridges groups.

    In the co-author network, a name whose papers fall into groups with no co-author and no
    organisation in common is marked: probably several people, whose measures add up under one name.
    """
    from ..graphs.metrics import SEED, summarize
    from ..graphs.networks import network

    with opened_store(thresholds.pop("store_spec")) as store:
        graph = network(store, name, top=top, details=False, **thresholds)
        namesakes = _namesakes(store) if name == "coauthors" else {}
    summary = summarize(graph, rows)
    out = console()
    out.print(
        f"{name}: {plural(summary.nodes, 'node')}, {plural(summary.edges, 'edge')}, density {summary.density:.4f}"
    )
    out.print(
        f"components: {summary.components:,} (largest {plural(summary.largest_component, 'node')}); "
        f"communities: {summary.communities_text}"
    )
    sampled = (
        f", estimated from {summary.betweenness_sample:,} sampled sources (seed {SEED})"
        if summary.betweenness_sample
        else ", exact"
    )
    marked = set()
    for title, ranking, fmt in (
        (f"degree ({NEIGHBOURS[name]})", summary.top_degree, "{:,}"),
        ("weighted degree (shared papers)", summary.top_weighted_degree, "{:,.6g}"),
        (f"betweenness (share of shortest paths through the node{sampled})", summary.top_betweenness, "{:.4g}"),
        ("bridges (other communities reached)", summary.bridges, "{:,}"),
    ):
        out.print(f"\n{title}:")
        for node, value in ranking:
            note = f"  * probably {namesakes[node]} people of this name" if node in namesakes else ""
            marked |= {node} & set(namesakes)
            out.print(f"  {fmt.format(value):>10}  {_label(graph, node)}{note}", markup=False)
        if not ranking:
            out.print("  (none)")
        elif title.startswith("betweenness") and not any(value for _, value in ranking):
            out.print("  (all 0: no node lies on a shortest path between two others)")
    if marked:
        out.print(
            f"\n* {plural(len(marked), 'name')} above: papers in groups that share no co-author and no organisation, "
            "so probably several people whose measures add up under one name (kg quality lists every such name)."
        )


def _namesakes(store) -> dict[str, int]:
    """Authors likely to be several people (kg/quality/namesakes.py), with how many groups their papers form."""
    from ..quality.namesakes import likely_several_people

    return {row["author"]: row["groups"] for row in likely_several_people(store)}


@click.command("path")
@click.argument("source", metavar="AUTHOR")
@click.argument("target", metavar="AUTHOR")
@store_option
def path_command(source, target, store_spec) -> None:
    """The collaboration distance between two authors: a shortest chain of co-authors."""
    from ..graphs.metrics import collaboration_path
    from ..graphs.networks import network
    from ..query.library import find_entity

    with opened_store(store_spec) as store:
        graph = network(store, "coauthors", details=False)
        ends = [str(find_entity(store, "author", name)) for name in (source, target)]
    chain = collaboration_path(graph, *ends)
    if chain is None:
        console().print(f"No chain of co-authors links {_label(graph, ends[0])} and {_label(graph, ends[1])}.")
        return
    console().print(f"Distance {len(chain) - 1}: " + " → ".join(_label(graph, node) for node in chain))


@click.group("graph")
def graph() -> None:
    """Collaboration networks: interactive pages, files for Gephi, and their measures."""


for sub in (coauthors, institutions, topics, countries, affiliations, stats, path_command):
    graph.add_command(sub)

COMMANDS = (graph,)
