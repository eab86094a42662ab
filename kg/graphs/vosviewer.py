"""Networks as VOSviewer map and network files and as Pajek ``.net``: VOSviewer opens either.

VOSviewer's map file is tab-separated with a header naming its columns (``id``, ``label``,
``x``, ``y``, ``cluster``, ``weight<…>``); its network file has one link per line (``id id
strength``, no header). Ids are 1-based positions in the graph's (sorted) node order, so
both files, and the Pajek file, are the same for the same graph.
"""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from .layout import layout
from .metrics import communities, membership

#: VOSviewer accepts cluster numbers from 1 to this.
MAX_CLUSTER = 1000


def _text(label: str) -> str:
    """A label on one line; quoted when it holds a comma or semicolon, as VOSviewer asks."""
    flat = " ".join(str(label).split())
    return f'"{flat.replace(chr(34), chr(34) * 2)}"' if any(ch in flat for ch in ',;"') else flat


def network_file(path: Path) -> Path:
    """The network file written beside a map file."""
    stem = path.name.removesuffix(".txt").removesuffix(".map").removesuffix("-map")
    return path.with_name(stem + "-network.txt")


def write_vosviewer(graph: nx.Graph, path: Path, heading: str = "", kind: str = "author") -> list[Path]:
    """The map file at ``path`` (items: position, community, links, strength, papers) and the network file beside it."""
    ids = {node: index for index, node in enumerate(graph, start=1)}
    group_of = membership(communities(graph))
    positions = layout(graph, community_of=group_of)
    strength = dict(graph.degree(weight="weight"))
    years = any("year" in attrs for _, attrs in graph.nodes(data=True))  # VOSviewer's overlay score
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(
            "id\tlabel\tx\ty\tcluster\tweight<Links>\tweight<Total link strength>\tweight<Documents>"
            + ("\tscore<Avg. pub. year>" if years else "")
            + "\n"
        )
        for node, attrs in graph.nodes(data=True):
            x, y = positions[node]
            score = (f"\t{attrs['year']:g}" if "year" in attrs else "\t") if years else ""
            handle.write(
                f"{ids[node]}\t{_text(attrs.get('label', node))}\t{x}\t{-y}\t"
                f"{min(group_of[node] + 1, MAX_CLUSTER)}\t{graph.degree(node)}\t{strength[node]:g}\t"
                f"{attrs.get('papers', 0)}{score}\n"
            )
    links = network_file(path)
    with open(links, "w", encoding="utf-8", newline="\n") as handle:
        for a, b, attrs in graph.edges(data=True):
            handle.write(f"{ids[a]}\t{ids[b]}\t{attrs.get('weight', 1):g}\n")
    return [path, links]


def write_pajek(graph: nx.Graph, path: Path, heading: str = "", kind: str = "author") -> None:
    """``*Vertices`` with quoted labels, then ``*Edges`` with weights."""
    ids = {node: index for index, node in enumerate(graph, start=1)}
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(f"*Vertices {len(graph)}\n")
        for node, attrs in graph.nodes(data=True):
            label = " ".join(str(attrs.get("label", node)).split()).replace('"', "'")
            handle.write(f'{ids[node]} "{label}"\n')
        handle.write("*Edges\n")
        for a, b, attrs in graph.edges(data=True):
            handle.write(f"{ids[a]} {ids[b]} {attrs.get('weight', 1):g}\n")
