"""How a network page looks and reads: community colours, the wording per kind of node, tooltips,
the legend (communities named by their most central members) and label sizes."""

from __future__ import annotations

import colorsys
from dataclasses import dataclass
from functools import lru_cache

import networkx as nx

from .projections import top_nodes

#: Most communities a community view draws (largest first).
COMMUNITY_CAP = 300
TOOLTIP_TITLES = 8
LEGEND_ENTRIES = 12
#: Members a community needs on the page for its name to be written on the canvas, and the name's size.
NAMED_COMMUNITY = 3
COMMUNITY_NAME_PX = 15
COMMUNITY_NAME_MEMBERS = 2
#: Label sizes in screen pixels, from the least to the most important node.
LABEL_PX = (11, 20)
# Colour-blind-safe categorical palette (Okabe–Ito, then Tableau); further communities get
# evenly spread hues; nodes with no ties on the page are grey.
PALETTE = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#B8A100",
    "#4E79A7",
    "#F28E2B",
    "#59A14F",
    "#B07AA1",
    "#9C755F",
)
GREY = "#B0B0B0"


@dataclass(frozen=True)
class Wording:
    noun: str
    plural: str
    affiliations: str
    ties: str = "collaborations"


WORDING = {
    "author": Wording("author", "authors", "Institutions"),
    "institution": Wording("institution", "institutions", "Authors"),
    "topic": Wording("topic", "topics", "Related", "co-occurrences"),
    "country": Wording("country", "countries", "Institutions"),
    "affiliation": Wording("author or institution", "authors and institutions", "Linked"),
}


def counted(count: int, word: Wording) -> str:
    return f"{count:,} {word.noun if count == 1 else word.plural}"


def tooltip(attrs: dict, word: Wording) -> str:
    """Plain text: name, paper count, affiliations, the first titles."""
    papers = attrs.get("papers", 0)
    size = f"{attrs['members']:,} members" if "members" in attrs else f"{papers} paper{'s' if papers != 1 else ''}"
    lines = [attrs.get("label", ""), size]
    if attrs.get("affiliations"):
        lines.append(f"{word.affiliations}: {'; '.join(attrs['affiliations'])}")
    titles = list(attrs.get("titles", ()))
    lines += [f"• {title}" for title in titles[:TOOLTIP_TITLES]]
    if len(titles) > TOOLTIP_TITLES:
        lines.append(f"… and {len(titles) - TOOLTIP_TITLES} more")
    if attrs.get("href"):
        lines.append("(double-click to open its page)")
    return "\n".join(lines)


@lru_cache(maxsize=None)  # asked for every node of every page: a few thousand indexes
def colour(index: int) -> str:
    """The colour of community ``index``: the palette, then hues spread by the golden angle."""
    if index < len(PALETTE):
        return PALETTE[index]
    hue = (index * 137.508) % 360
    return "#" + "".join(f"{round(255 * c):02X}" for c in colorsys.hls_to_rgb(hue / 360, 0.42, 0.6))


def leaders(graph: nx.Graph, group: set[str], count: int = 3) -> str:
    """A community named by its most central members (weighted degree within it)."""
    names = [graph.nodes[node]["label"] for node in top_nodes(graph, count, within=group)]
    return ", ".join(names) + (", …" if len(group) > count else "")


def legend_entries(graph: nx.Graph, groups: list[set[str]], word: Wording, pages: str | None = None) -> list[dict]:
    """Each community in its colour, named by its most central members; ``pages``: the folder of their pages."""
    multi = [group for group in groups if len(group) > 1]
    entries = [
        {
            "colour": colour(index),
            "text": f"{counted(len(group), word)}: {leaders(graph, group)}",
            "href": f"{pages}{index + 1}.html" if pages is not None and index < COMMUNITY_CAP else None,
        }
        for index, group in enumerate(multi[:LEGEND_ENTRIES])
    ]
    if len(multi) > LEGEND_ENTRIES:
        entries.append(
            {"colour": "", "text": f"and {len(multi) - LEGEND_ENTRIES:,} more communities, each in its own colour"}
        )
    alone = len(groups) - len(multi)
    if alone:
        entries.append({"colour": GREY, "text": f"{counted(alone, word)} without {word.ties} here"})
    return entries


def label_sizes(graph: nx.Graph, order: list[str]) -> dict[str, int]:
    """Screen pixel size of each label: square root of papers, scaled into :data:`LABEL_PX`."""
    papers = {node: graph.nodes[node].get("papers", 1) for node in order}
    low, high = min(papers.values(), default=1), max(papers.values(), default=1)
    span = (high**0.5 - low**0.5) or 1.0
    return {
        node: round(LABEL_PX[0] + (LABEL_PX[1] - LABEL_PX[0]) * (count**0.5 - low**0.5) / span)
        for node, count in papers.items()
    }


def community_names(shown: nx.Graph, groups: list[set[str]], positions: dict[str, tuple[float, float]]) -> list[dict]:
    """The names the page writes at the centre of each community (the legend's, named by its two most
    central members), for the :data:`LEGEND_ENTRIES` largest with :data:`NAMED_COMMUNITY` members on
    the page; none when fewer than two communities would be named (the legend then says it all)."""
    multi = [group for group in groups if len(group) > 1]
    named = []
    for index, group in enumerate(multi[:LEGEND_ENTRIES]):
        members = [node for node in sorted(group) if node in shown]
        if len(members) >= NAMED_COMMUNITY:
            x = sum(positions[node][0] for node in members) / len(members)
            y = sum(positions[node][1] for node in members) / len(members)
            named.append(
                {
                    "id": f"community:{index + 1}",
                    "name": leaders(shown, set(members), COMMUNITY_NAME_MEMBERS),
                    "colour": colour(index),
                    "x": round(x, 2),
                    "y": round(y, 2),
                    "fontSize": COMMUNITY_NAME_PX,
                }
            )
    return named if len(named) > 1 else []
