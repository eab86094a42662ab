"""The networks the commands draw, from the store: aggregates in, projections out."""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from ..stores.embedded import KGStore
from .aggregates import AUTHORS, INSTITUTIONS, TOPICS, affiliation_rows, node_rows, pair_rows, paper_titles
from .projections import Counting, affiliation_graph, affiliation_names, collaboration_graph
from .render import write_html

LINKS = {"coauthors": AUTHORS, "institutions": INSTITUTIONS, "topics": TOPICS}
KINDS = {"coauthors": "author", "institutions": "institution", "topics": "topic"}
HEADINGS = {"coauthors": "Co-author network", "institutions": "Institution network", "topics": "Topic co-occurrence network"}


def network(store: KGStore, name: str, *, counting: Counting = "full", max_team: int | None = None,
            min_papers: int = 1, min_weight: float = 0, top: int | None = None) -> nx.Graph:
    """The ``coauthors``, ``institutions`` or ``topics`` network of the store, with tooltip details on the nodes."""
    link = LINKS[name]
    affiliations = affiliation_names(affiliation_rows(store), of=KINDS[name]) if name != "topics" else None
    return collaboration_graph(
        node_rows(store, link), pair_rows(store, link), counting=counting, max_team=max_team,
        min_papers=min_papers, min_weight=min_weight, top=top, titles=paper_titles(store, link),
        affiliations=affiliations,
    )


def affiliation_network(store: KGStore) -> nx.Graph:
    """Authors linked to the institutions listed on their papers (bipartite, ``kind`` on each node)."""
    return affiliation_graph(node_rows(store, AUTHORS), affiliation_rows(store))


def write_pages(store: KGStore, out_dir: Path) -> list[Path]:
    """The whole co-author, institution and topic networks as pages in ``out_dir`` (what ``kg build`` writes)."""
    paths = []
    for name in LINKS:
        path = out_dir / f"{name}.html"
        write_html(network(store, name), path, HEADINGS[name], KINDS[name])
        paths.append(path)
    return paths
