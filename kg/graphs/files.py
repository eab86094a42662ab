"""Networks as files for other tools: GEXF (Gephi), GraphML, CSV edge lists, VOSviewer, Pajek; all deterministic."""

from __future__ import annotations

import csv
import math
from pathlib import Path
from xml.etree import ElementTree

import networkx as nx
from networkx.readwrite.gexf import GEXFWriter

from ..query.results import spreadsheet_safe
from . import FORMATS
from .layout import layout
from .metrics import communities, membership
from .style import GREY, colour


def flat(graph: nx.Graph, kind: str) -> nx.Graph:
    """The graph with only scalar attributes (what GEXF and GraphML hold), its communities, and
    each node's kind (``author``, ``institution``, ``topic``): nodes of one kind unless they say otherwise."""
    group_of = membership(communities(graph))
    out = nx.Graph()
    for node, attrs in graph.nodes(data=True):
        out.add_node(
            node,
            label=attrs.get("label", node),
            kind=attrs.get("kind", kind),
            papers=attrs.get("papers", 0),
            community=group_of[node],
        )
    for a, b, attrs in graph.edges(data=True):
        # Collaboration edges also carry a fractional count; author–institution edges do not. Always
        # a float, so the column has one type in files whose first edge happens to be whole.
        out.add_edge(
            a,
            b,
            weight=attrs["weight"],
            papers=attrs["papers"],
            fractional=float(attrs.get("fractional", attrs["weight"])),
        )
    return out


def drawing(graph: nx.Graph) -> dict[str, dict[str, dict[str, str]]]:
    """Each node as kg's own pages draw it: the page's layout (y up, as GEXF has it), its community's
    colour (grey for a node without ties), a size that grows with its papers; as GEXF's viz attributes."""
    group_of = membership(communities(graph))
    positions = layout(graph, community_of=group_of)
    drawn = {}
    for node, papers in graph.nodes(data="papers", default=0):
        shade = GREY if graph.degree(node) == 0 else colour(group_of[node])
        x, y = positions[node]
        drawn[node] = {
            "color": dict(zip("rgb", (str(int(shade[at : at + 2], 16)) for at in (1, 3, 5)))),
            "position": {"x": f"{float(x)}", "y": f"{float(-y)}", "z": "0.0"},
            "size": {"value": f"{4 + 4 * math.sqrt(papers or 0):.2f}"},
        }
    return drawn


def write_gexf(graph: nx.Graph, path: Path, heading: str = "", kind: str = "author") -> None:
    """GEXF 1.2 with each node's position, colour and size from kg's layout and communities, so Gephi
    opens the picture the pages show. They are written as the 1.2draft XML Schema declares them, in
    GEXF's own namespace (``<color>``, ``<position>``, ``<size>``: the schema rejects ``viz:``-prefixed
    ones); Gephi reads them by their local names."""
    writer = GEXFWriter(encoding="utf-8", prettyprint=True)
    writer.xml.find("meta").attrib.pop("lastmodifieddate")  # a date would make every export differ
    writer.add_graph(flat(graph, kind))
    writer.xml.find("graph").attrib.pop("name")  # networkx writes name="", which the GEXF 1.2 schema does not allow
    drawn = drawing(graph)
    for element in writer.xml.find("graph").find("nodes"):
        for name, attributes in drawn[element.get("id")].items():
            ElementTree.SubElement(element, name, attributes)
    writer.write(str(path))


def write_graphml(graph: nx.Graph, path: Path, heading: str = "", kind: str = "author") -> None:
    nx.write_graphml(flat(graph, kind), str(path), encoding="utf-8")


def write_csv(graph: nx.Graph, path: Path, heading: str = "", kind: str = "author") -> None:
    """One row per edge, heaviest first: names, weight, shared papers, fractional count, IRIs; a name that
    starts like a spreadsheet formula gets a leading ``'`` (``spreadsheet_safe``)."""
    label = lambda node: graph.nodes[node].get("label", node)  # noqa: E731
    rows = sorted(
        ((label(a), label(b), attrs, a, b) for a, b, attrs in graph.edges(data=True)),
        key=lambda row: (-row[2]["weight"], row[0], row[1], row[3], row[4]),
    )
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["source", "target", "weight", "papers", "fractional", "source_iri", "target_iri"])
        for source, target, attrs, a, b in rows:
            writer.writerow(
                [
                    spreadsheet_safe(source),
                    spreadsheet_safe(target),
                    attrs["weight"],
                    attrs["papers"],
                    attrs.get("fractional", attrs["weight"]),
                    a,
                    b,
                ]
            )


def write_network(graph: nx.Graph, path: Path, file_format: str, heading: str, kind: str) -> None:
    """Write ``graph`` as ``file_format`` (one of :data:`FORMATS`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    FORMATS[file_format](graph, path, heading, kind)
