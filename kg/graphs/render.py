"""The interactive page of a network: pyvis's data model, vis-network, our own template.

pyvis 0.3.2's own HTML has pitfalls this module avoids, each one tested:
- offline: its template links Bootstrap from a CDN even when scripts are inlined, and its
  ``local`` mode copies a ``lib/`` folder into the working directory; we inline the
  vis-network files that ship inside the pyvis package and link nothing;
- safe: it writes the heading unescaped and switches tooltips to ``innerHTML`` when a title
  contains ``href``; our template escapes every text (autoescape, JSON made HTML-safe) and
  tooltips are plain strings, which vis-network 9 shows as text;
- fast: positions come from :mod:`.layout` (seeded) with physics off, and above ``cap``
  nodes only the most prolific are drawn, with the page saying what was left out; edges
  are added without pyvis's duplicate scan (quadratic; networkx edges are unique);
- deterministic: no random ids, no dates; nodes and edges in graph order (sorted).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import jinja2
from markupsafe import Markup
import networkx as nx
import pyvis
from pyvis.edge import Edge
from pyvis.network import Network

from .layout import layout
from .metrics import SEED, communities, membership
from .projections import induced, top_nodes

NODE_CAP = 1000
TOOLTIP_TITLES = 8
# Colour-blind-safe categorical palette (Okabe–Ito, then Tableau); smaller groups are grey.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#4E79A7", "#F28E2B", "#59A14F", "#B07AA1", "#9C755F")
GREY = "#B0B0B0"
VIS_DIR = Path(pyvis.__file__).parent / "templates" / "lib" / "vis-9.1.2"


@dataclass(frozen=True)
class Wording:
    noun: str
    plural: str
    affiliations: str


WORDING = {
    "author": Wording("author", "authors", "Institutions"),
    "institution": Wording("institution", "institutions", "Authors"),
    "topic": Wording("topic", "topics", "Related"),
    "affiliation": Wording("author or institution", "authors and institutions", "Linked"),
}


@lru_cache(maxsize=None)
def _environment() -> jinja2.Environment:
    loader = jinja2.FileSystemLoader(Path(__file__).parent)
    return jinja2.Environment(loader=loader, autoescape=True, keep_trailing_newline=True)


@lru_cache(maxsize=None)
def _asset(name: str) -> Markup:
    """A file of vis-network as shipped in the pyvis package, to inline as it is (not escaped)."""
    return Markup((VIS_DIR / name).read_text(encoding="utf-8"))


def _plural(count: int, word: Wording) -> str:
    return f"{count:,} {word.noun if count == 1 else word.plural}"


def tooltip(attrs: dict, word: Wording) -> str:
    """Plain text: name, paper count, affiliations, the first titles."""
    papers = attrs.get("papers", 0)
    lines = [attrs.get("label", ""), f"{papers} paper{'s' if papers != 1 else ''}"]
    if attrs.get("affiliations"):
        lines.append(f"{word.affiliations}: {'; '.join(attrs['affiliations'])}")
    titles = list(attrs.get("titles", ()))
    lines += [f"• {title}" for title in titles[:TOOLTIP_TITLES]]
    if len(titles) > TOOLTIP_TITLES:
        lines.append(f"… and {len(titles) - TOOLTIP_TITLES} more")
    return "\n".join(lines)


def _legend(graph: nx.Graph, groups: list[set[str]], word: Wording) -> list[dict]:
    entries = []
    for index, group in enumerate(groups[: len(PALETTE)]):
        if len(group) < 2:
            break
        leaders = [graph.nodes[node]["label"] for node in top_nodes(induced(graph, group), 3)]
        more = ", …" if len(group) > 3 else ""
        entries.append({"colour": PALETTE[index], "text": f"{_plural(len(group), word)}: {', '.join(leaders)}{more}"})
    entries.append({"colour": GREY, "text": f"other groups and {word.plural} without collaborations here"})
    return entries


def _options(big: bool) -> dict:
    return {
        "physics": {"enabled": False},
        "layout": {"improvedLayout": False, "randomSeed": SEED},
        "interaction": {"hover": True, "tooltipDelay": 150, "hideEdgesOnDrag": big},
        "nodes": {"shape": "dot", "font": {"face": "system-ui, sans-serif"},
                  "scaling": {"min": 8, "max": 30, "label": {"enabled": True, "min": 11, "max": 24, "drawThreshold": 7}}},
        "edges": {"smooth": False, "color": {"color": "#9AA0A6", "highlight": "#333333", "hover": "#333333"},
                  "scaling": {"min": 1, "max": 8}},
    }


def render_html(graph: nx.Graph, heading: str, kind: str = "author", cap: int = NODE_CAP, seed: int = SEED) -> str:
    """The page for ``graph`` (a projection), as one self-contained HTML string."""
    word = WORDING[kind]
    shown = graph if len(graph) <= cap else induced(graph, top_nodes(graph, cap))
    groups = communities(shown, seed)
    group_of = membership(groups)
    positions = layout(shown, seed)

    net = Network(heading=heading)
    for node, attrs in shown.nodes(data=True):
        group = group_of[node]
        colour = PALETTE[group] if group < len(PALETTE) and len(groups[group]) > 1 else GREY
        x, y = positions[node]
        net.add_node(node, label=attrs.get("label", node), title=tooltip(attrs, word), value=attrs.get("papers", 1),
                     color=colour, x=x, y=y, community=group)
    for a, b, attrs in shown.edges(data=True):
        papers = attrs.get("papers", 1)
        net.edges.append(Edge(a, b, value=attrs.get("weight", 1),
                              title=f"{shown.nodes[a]['label']} – {shown.nodes[b]['label']}: "
                                    f"{papers} shared paper{'s' if papers != 1 else ''}").options)
    net.options = _options(big=len(shown) > 300)
    nodes, edges, heading, _, _, _ = net.get_network_data()

    left_out = ""
    if len(shown) < len(graph):
        hidden_edges = graph.number_of_edges() - shown.number_of_edges()
        left_out = (f"Showing the {len(shown):,} {word.plural} with the most papers; "
                    f"{_plural(len(graph) - len(shown), word)} and {hidden_edges:,} collaborations are left out. "
                    f"Narrow the network (--author, --min-weight, --top) to see them.")
    return _environment().get_template("page.html.j2").render(
        heading=heading,
        noun=word.noun,
        summary=(f"{_plural(len(graph), word)}, {graph.number_of_edges():,} collaborations, "
                 f"{len([g for g in groups if len(g) > 1]):,} groups. Size: papers; line width: shared papers; "
                 f"colour: community (Louvain, seed {seed}). Hover for details, scroll to zoom."),
        omitted=left_out,
        names=sorted({attrs.get("label", node) for node, attrs in shown.nodes(data=True)}),
        legend=_legend(shown, groups, word),
        nodes=nodes,
        edges=edges,
        options=net.options,
        vis_js=_asset("vis-network.min.js"),
        vis_css=_asset("vis-network.css"),
    )


def write_html(graph: nx.Graph, path: Path, heading: str, kind: str = "author", cap: int = NODE_CAP) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(graph, heading, kind, cap), encoding="utf-8", newline="\n")
