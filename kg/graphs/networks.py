"""The networks the commands draw, from the store: aggregates in, projections out."""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from ..query.library import search_names
from ..stores.embedded import KGStore
from .aggregates import AUTHORS, INSTITUTIONS, TOPICS, affiliation_rows, node_rows, pair_rows, paper_titles, teams
from .projections import Counting, affiliation_graph, affiliation_names, collaboration_graph
from .render import write_html

LINKS = {"coauthors": AUTHORS, "institutions": INSTITUTIONS, "topics": TOPICS}
KINDS = {"coauthors": "author", "institutions": "institution", "topics": "topic"}
#: What a node's neighbours are, in each network: how its degree is labelled.
NEIGHBOURS = {"coauthors": "co-authors", "institutions": "partner institutions", "topics": "co-occurring topics"}
HEADINGS = {"coauthors": "Co-author network", "institutions": "Institution network", "topics": "Topic co-occurrence network"}


def network(store: KGStore, name: str, *, counting: Counting = "full", max_team: int | None = None,
            min_papers: int = 1, min_weight: float = 0, top: int | None = None, level: str = "listed",
            details: bool = True) -> nx.Graph:
    """The ``coauthors``, ``institutions`` or ``topics`` network of the store, with tooltip and search details.

    ``level`` (institutions only): ``listed`` as the papers list them, or ``parent``, each
    listed unit rolled up to its top-level organisation. ``details=False`` leaves out what
    only pages need (titles, affiliations, search keys): the measures do not, and on a large
    graph those are most of the rows.
    """
    link, kind = LINKS[name], KINDS[name]
    level = level if name == "institutions" else "listed"
    read = teams(store, link, level)
    known = {"authors": read} if name == "coauthors" else {"institutions": read}  # the teams just read
    affiliations = (affiliation_names(affiliation_rows(store, level, **known), of=kind)
                    if name != "topics" and details else None)
    graph = collaboration_graph(
        node_rows(store, link, level, read), pair_rows(store, link, level, read), counting=counting, max_team=max_team,
        min_papers=min_papers, min_weight=min_weight, top=top,
        titles=paper_titles(read) if details else None, affiliations=affiliations,
    )
    for iri, (keys, acronyms) in (search_names(store, kind) if details else {}).items():
        if iri in graph:
            graph.nodes[iri].update(keys=keys, acronyms=acronyms)
    return graph


def affiliation_network(store: KGStore) -> nx.Graph:
    """Authors linked to the institutions listed on their papers (bipartite, ``kind`` on each node)."""
    authors = teams(store, AUTHORS)
    return affiliation_graph(node_rows(store, AUTHORS, read=authors), affiliation_rows(store, authors=authors))


def write_pages(store: KGStore, out_dir: Path, profiles: str | None = None,
                built: dict[str, nx.Graph] | None = None) -> list[Path]:
    """The whole co-author, institution and topic networks as pages in ``out_dir`` (what ``kg build`` writes).

    ``profiles``: the site's folder relative to ``out_dir``, to link each node to its page;
    ``built``: networks the caller already has (the site's co-authors), not read again.
    """
    paths = []
    for name in LINKS:
        path = out_dir / f"{name}.html"
        graph = (built or {}).get(name) or network(store, name)
        write_html(graph, path, HEADINGS[name], KINDS[name], profiles=profiles)
        paths.append(path)
    return paths
