"""The interactive page of a network: pyvis's data model, vis-network, our own template.

pyvis 0.3.2's own HTML has pitfalls this module avoids, each one tested:
- offline: its template links Bootstrap from a CDN even when scripts are inlined, and its
  ``local`` mode copies a ``lib/`` folder into the working directory; we inline the
  vis-network files that ship inside the pyvis package and link nothing;
- safe: it writes the heading unescaped and switches tooltips to ``innerHTML`` when a title
  contains ``href``; our template escapes every text (autoescape, JSON made HTML-safe) and
  tooltips are plain strings, which vis-network 9 shows as text;
- fast: positions come from :mod:`.layout` (seeded) with physics off; above
  :data:`COMMUNITY_VIEW_ABOVE` nodes the page is a community view (one node per community)
  whose nodes open each community's own page; edges are added without pyvis's duplicate
  scan (quadratic; networkx edges are unique);
- readable (colours, wording, legend: :mod:`.style`): the page draws the labels itself, most important first, and skips
  a label that would overlap one already drawn (zoom in or hover for the rest), dark on a white halo;
- deterministic: no random ids, no dates; nodes and edges in graph order (sorted).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Callable

import jinja2
import networkx as nx
import pyvis
from markupsafe import Markup
from pyvis.edge import Edge
from pyvis.network import Network

from ..rdf.iris import profile_path
from ..text.names import match_key
from .labels import ALWAYS, FIT_MARGIN, Ladder, Spot, place, scales
from .layout import layout
from .metrics import SEED, communities, communities_phrase, membership
from .projections import induced, top_nodes
from .salience import backbone, importance_order, node_radii, strongest_ties
from .style import (
    COMMUNITY_CAP,
    GREY,
    WORDING,
    Wording,
    colour,
    community_names,
    counted,
    label_sizes,
    leaders,
    legend_entries,
    tooltip,
)

NODE_CAP = 1000
#: Above this many nodes a network is drawn as the conference view: each node's strongest ties only,
#: faint, and one page per community beside it.
COMMUNITY_VIEW_ABOVE = 500
#: Ties per node above which a smaller network is drawn as the conference view is too (else a hairball).
DENSE_TIES = 6
#: Most nodes the conference view draws (the most prolific).
OVERVIEW_CAP = 5000
VIS_DIR = Path(pyvis.__file__).parent / "templates" / "lib" / "vis-9.1.2"
VIS_FILES = ("vis-network.min.js", "vis-network.css")


@lru_cache(maxsize=None)
def _environment() -> jinja2.Environment:
    loader = jinja2.FileSystemLoader(Path(__file__).parent)
    env = jinja2.Environment(loader=loader, autoescape=True, keep_trailing_newline=True)
    # Names as UTF-8 text, not \u escapes (tojson still escapes <, >, & and ' for HTML safety).
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": False}
    return env


@lru_cache(maxsize=None)
def vis_asset(name: str) -> Markup:
    """A file of vis-network as shipped in the pyvis package, to inline as it is (not escaped)."""
    return Markup((VIS_DIR / name).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def search_script() -> Markup:
    """The page search (kg/graphs/search.js), shared by the network pages and the site's index."""
    return Markup((Path(__file__).parent / "search.js").read_text(encoding="utf-8"))


def _year_range(graph: nx.Graph) -> dict | None:
    """The span of the nodes' mean paper years, for the overlay colouring (VOSviewer's), when there is one."""
    years = [attrs["year"] for _, attrs in graph.nodes(data=True) if "year" in attrs]
    return {"low": min(years), "high": max(years)} if years and max(years) > min(years) else None


def _search_keys(attrs: dict) -> list[str]:
    return list(attrs.get("keys") or [match_key(attrs.get("label", ""))])


def _options(big: bool, faint: bool = False) -> dict:
    """vis-network's options; ``faint``: edges see-through, so that dense regions read as density."""
    return {
        "physics": {"enabled": False},
        "layout": {"improvedLayout": False, "randomSeed": SEED},
        "interaction": {"hover": True, "tooltipDelay": 150, "hideEdgesOnDrag": big},
        "nodes": {"shape": "dot", "scaling": {"min": 8, "max": 30}},
        "edges": {
            "smooth": False,
            "color": {
                "color": "#9AA0A6",
                "highlight": "#333333",
                "hover": "#333333",
                "opacity": 0.35 if faint else 1.0,
            },
            "font": {"size": 11, "strokeWidth": 3, "align": "middle"},
            "scaling": {"min": 1, "max": 8},
        },
    }


def _href(node: str, attrs: dict, profiles: str | None) -> str | None:
    if attrs.get("href"):
        return attrs["href"]
    return f"{profiles}{profile_path(node)}" if profiles is not None else None


def _add_nodes(
    net: Network, shown: nx.Graph, groups: list[set[str]], word: Wording, seed: int, profiles: str | None
) -> tuple[Ladder, list[dict]]:
    """Each node with its place (:mod:`.layout`), size, colour, labels (:mod:`.labels`) and search keys;
    the scales the labels were placed at, and the communities' names placed with them."""
    group_of = membership(groups)
    multi = [index for index, group in enumerate(groups) if len(group) > 1]
    rank = {index: position for position, index in enumerate(multi)}
    positions = layout(shown, seed, group_of)
    order = importance_order(shown)
    fonts = label_sizes(shown, order)
    radii = node_radii(shown, positions)
    names = {node: shown.nodes[node].get("label", node) for node in order}
    clusters = community_names(shown, groups, positions)
    ladder = scales(positions, radii)
    for cluster in clusters:
        positions[cluster["id"]], radii[cluster["id"]] = (cluster["x"], cluster["y"]), 0.0
        names[cluster["id"]], fonts[cluster["id"]] = cluster["name"], cluster["fontSize"]
    centred = [cluster["id"] for cluster in clusters]
    levels = place([*centred, *order], positions, radii, names, fonts, ladder, frozenset(centred))
    for cluster in clusters:
        cluster["labels"] = _level_spots(levels, cluster["id"])
    importance = {node: position for position, node in enumerate(order)}
    for node, attrs in shown.nodes(data=True):
        group = group_of[node]
        href = _href(node, attrs, profiles)
        extra = {"href": href} if href else {}
        # As pyvis's add_node makes it, without its scan of every node added before (quadratic: the
        # conference view's 5,000 nodes) nor a label: the page draws the labels (collision-free), vis-network does not.
        net.nodes.append(
            dict(
                id=node,
                shape="dot",
                name=attrs.get("label", node),
                title=tooltip({**attrs, **extra}, word),
                size=radii[node],
                color=colour(rank[group]) if group in rank else GREY,
                x=positions[node][0],
                y=positions[node][1],
                community=group,
                rank=importance[node],
                fontSize=fonts[node],
                labels=_level_spots(levels, node),
                keys=_search_keys(attrs),
                acronyms=list(attrs.get("acronyms", ())),
                **extra,
                **({"year": attrs["year"]} if "year" in attrs else {}),
            )
        )
    return ladder, clusters


def _level_spots(levels: list[dict[str, Spot]], node: str) -> list:
    """Where the page draws a label at each placed scale (:mod:`.labels`): a side, an offset, or null
    for none; the scales above its last placement left out."""
    spots = [level[node].data() if node in level else None for level in levels]
    while spots and spots[-1] is None:
        spots.pop()
    return spots


def _add_edges(net: Network, shown: nx.Graph, overview: bool) -> None:
    """The ties: at conference scale each node's strongest only; else all, the strongest labelled."""
    named = set() if overview else strongest_ties(shown)
    for a, b, attrs in backbone(shown) if overview else shown.edges(data=True):
        papers = attrs.get("papers", 1)
        net.edges.append(
            Edge(
                a,
                b,
                value=attrs.get("weight", 1),
                title=f"{shown.nodes[a]['label']} – {shown.nodes[b]['label']}: "
                f"{papers} shared paper{'s' if papers != 1 else ''}",
                **({"label": str(papers)} if (a, b) in named else {}),
            ).options
        )


def render_html(
    graph: nx.Graph,
    heading: str,
    kind: str = "author",
    cap: int = NODE_CAP,
    seed: int = SEED,
    profiles: str | None = None,
    assets: str | None = None,
    community_pages: str | None = None,
    groups: list[set[str]] | None = None,
) -> str:
    """The page for ``graph`` (a projection), as one self-contained HTML string.

    ``profiles``: the relative URL of the site's folder, to link every node to its page;
    ``assets``: the relative URL of a folder holding :data:`VIS_FILES`, linked instead of
    inlined (for the many pages of a conference view); ``community_pages``: the folder of the
    communities' own pages, linked from the legend; ``groups``: the communities of ``graph`` when the
    caller has them (:func:`write_html` for its communities' pages), not found again. Above
    :data:`COMMUNITY_VIEW_ABOVE` nodes, or :data:`DENSE_TIES` ties per node, the page is the conference view:
    each node's strongest ties only, faint.
    """
    word = WORDING[kind]
    groups = communities(graph, seed) if groups is None else groups
    shown = graph if len(graph) <= cap else induced(graph, top_nodes(graph, cap))
    overview = len(shown) > COMMUNITY_VIEW_ABOVE or shown.number_of_edges() > DENSE_TIES * max(len(shown), 30)
    net = Network(heading=heading)
    ladder, clusters = _add_nodes(net, shown, groups, word, seed, profiles)
    _add_edges(net, shown, overview)
    net.options = _options(big=len(shown) > 300, faint=overview)
    nodes, edges, heading, _, _, _ = net.get_network_data()

    left_out = ""
    if len(shown) < len(graph):
        hidden_edges = graph.number_of_edges() - shown.number_of_edges()
        left_out = (
            f"Showing the {len(shown):,} {word.plural} with the most papers; "
            f"{counted(len(graph) - len(shown), word)} and {hidden_edges:,} {word.ties} are left out. "
            f"Narrow the network (--author, --min-weight, --top) to see them."
        )
    lines = "lines: each one's strongest ties (line width: shared papers)" if overview else "line width: shared papers"
    return (
        _environment()
        .get_template("page.html.j2")
        .render(
            heading=heading,
            noun=word.noun,
            summary=(
                f"{_counts(graph, groups, word, seed)} Size: papers; {lines}; colour: community. "
                f"Labels: the most prolific first, never overlapping; zoom in for more, hover for details"
                f"{', double-click a node to open its page' if profiles is not None else ''}."
            ),
            omitted=left_out,
            legend=legend_entries(graph, groups, word, community_pages),
            years=_year_range(shown),
            nodes=nodes,
            edges=edges,
            options=net.options,
            fit_margin=FIT_MARGIN,
            always=ALWAYS,
            scales=ladder.scales,
            fitted_levels=ladder.fitted,
            clusters=clusters,
            assets=assets,
            search_js=search_script(),
            vis_js=None if assets is not None else vis_asset("vis-network.min.js"),
            vis_css=None if assets is not None else vis_asset("vis-network.css"),
        )
    )


def _counts(graph: nx.Graph, groups: list[set[str]], word: Wording, seed: int = SEED) -> str:
    """The numbers of a network as ``kg graph stats`` prints them."""
    return (
        f"{counted(len(graph), word)}, {graph.number_of_edges():,} {word.ties}, "
        f"{communities_phrase(graph, groups, seed)}."
    )


def _write(path: Path, html: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html, encoding="utf-8", newline="\n")


def write_html(
    graph: nx.Graph,
    path: Path,
    heading: str,
    kind: str = "author",
    cap: int = NODE_CAP,
    profiles: str | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> list[Path]:
    """The page of ``graph`` at ``path``; above :data:`COMMUNITY_VIEW_ABOVE` nodes, the conference view
    there (up to :data:`OVERVIEW_CAP` nodes, each one's strongest ties) and one page per community in the
    folder ``{stem}-communities/`` beside it, linked from the legend (``on_progress`` hears how many
    are written: up to :data:`COMMUNITY_CAP`, a minute at 100,000 papers)."""
    if len(graph) <= COMMUNITY_VIEW_ABOVE:
        _write(path, render_html(graph, heading, kind, cap, profiles=profiles))
        return [path]
    folder = path.with_name(f"{path.stem}-communities")
    folder.mkdir(parents=True, exist_ok=True)
    for name in VIS_FILES:
        _write(folder / name, str(vis_asset(name)))
    found = communities(graph)
    drawn = [group for group in found if len(group) > 1][:COMMUNITY_CAP]
    written = [path]
    inner = None if profiles is None else f"../{profiles}"
    for index, group in enumerate(drawn, start=1):
        page = folder / f"{index}.html"
        _write(
            page,
            render_html(
                induced(graph, group),
                f"{heading}: community {index} ({leaders(graph, group)})",
                kind,
                cap,
                profiles=inner,
                assets="",
            ),
        )
        written.append(page)
        if on_progress:
            on_progress(index)
    _write(
        path,
        render_html(
            graph,
            heading,
            kind,
            max(cap, OVERVIEW_CAP),
            profiles=profiles,
            community_pages=f"{folder.name}/",
            groups=found,
        ),
    )
    return written
