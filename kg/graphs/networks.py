"""The networks the commands draw, from the store: aggregates in, projections out."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import networkx as nx
from rdflib import URIRef

from ..collector import collection_paused
from ..query.library import ENTITY_KINDS, search_names
from ..stores.embedded import KGStore
from ..vocab import KG
from . import HEADINGS, KINDS
from .aggregates import (
    AUTHORS,
    COUNTRIES,
    INSTITUTIONS,
    TOPICS,
    Teams,
    affiliation_rows,
    node_rows,
    pair_rows,
    paper_titles,
    teams,
)
from .countries import country_teams
from .projections import Counting, affiliation_graph, affiliation_names, collaboration_graph
from .render import write_html

# The networks of KINDS, by how a paper links to its members (countries: through its organisations).
LINKS = {"coauthors": AUTHORS, "institutions": INSTITUTIONS, "topics": TOPICS, "countries": COUNTRIES}
#: The key of the author–institution rows in what the pages of one build have read (beside each link's teams).
AFFILIATED = URIRef(KG.affiliation.value)
Read = dict[tuple[URIRef, str], Teams | dict[str, dict[str, list[str]]]]


def network(
    store: KGStore,
    name: str,
    *,
    counting: Counting = "full",
    max_team: int | None = None,
    min_papers: int = 1,
    min_weight: float = 0,
    top: int | None = None,
    level: str = "listed",
    details: bool = True,
    read: Read | None = None,
) -> nx.Graph:
    """The ``coauthors``, ``institutions``, ``topics`` or ``countries`` network of the store, with tooltip and search
    details.

    ``level`` (institutions only): ``listed`` as the papers list them, or ``parent``, each
    listed unit rolled up to its top-level organisation. ``details=False`` leaves out what
    only pages need (titles, affiliations, search keys): the measures do not, and on a large
    graph those are most of the rows. ``read``: the teams already read by link and level (and the
    author–institution rows), added to (the pages of one build read each once).
    """
    # Millions of rows and nodes are made and few freed: the collector's passes over them only cost time.
    with collection_paused():
        link, kind = LINKS[name], KINDS[name]
        level = level if name == "institutions" else "listed"
        read = {} if read is None else read
        members = _teams(store, link, level, read)
        affiliations = (
            _affiliations(store, level, read)[kind] if name in ("coauthors", "institutions") and details else None
        )
        graph = collaboration_graph(
            node_rows(store, link, level, members),
            pair_rows(store, link, level, members),
            counting=counting,
            max_team=max_team,
            min_papers=min_papers,
            min_weight=min_weight,
            top=top,
            titles=paper_titles(members) if details else None,
            affiliations=affiliations,
        )
        for iri, (keys, acronyms) in (search_names(store, kind) if details and kind in ENTITY_KINDS else {}).items():
            if iri in graph:
                graph.nodes[iri].update(keys=keys, acronyms=acronyms)
        return graph


def _affiliations(store: KGStore, level: str, read: Read) -> dict[str, dict[str, list[str]]]:
    """Each author's institutions and each institution's authors at ``level`` (by ``"author"`` and
    ``"institution"``, :func:`.projections.affiliation_names`), made once into ``read`` from one set of
    rows: the co-author and the institution networks name each other's nodes from them. The rows
    themselves are let go (millions of objects at 100,000 papers)."""
    if (AFFILIATED, level) not in read:
        authors, institutions = _teams(store, AUTHORS, "listed", read), _teams(store, INSTITUTIONS, level, read)
        rows = affiliation_rows(store, level, authors=authors, institutions=institutions)
        read[AFFILIATED, level] = {of: affiliation_names(rows, of=of) for of in ("author", "institution")}
    return read[AFFILIATED, level]


def _teams(store: KGStore, link: URIRef, level: str, read: Read) -> Teams:
    """The teams of ``link`` at ``level``, read once into ``read`` (with the labels and papers any read
    before them holds)."""
    if (link, level) not in read:
        first = next((found for found in read.values() if isinstance(found, Teams)), None)
        labels, papers = (first.labels, first.papers) if first else (None, None)
        read[link, level] = (
            country_teams(store, labels, papers) if link == COUNTRIES else teams(store, link, level, labels, papers)
        )
    return read[link, level]


def affiliation_network(store: KGStore) -> nx.Graph:
    """Authors linked to the institutions listed on their papers (bipartite, ``kind`` on each node)."""
    authors = teams(store, AUTHORS)
    return affiliation_graph(node_rows(store, AUTHORS, read=authors), affiliation_rows(store, authors=authors))


def write_pages(
    store: KGStore,
    out_dir: Path,
    profiles: str | None = None,
    built: dict[str, nx.Graph] | None = None,
    on_page: Callable[[Path], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> list[Path]:
    """The whole co-author, institution, topic and country networks as pages in ``out_dir`` (what ``kg build`` writes).

    ``profiles``: the site's folder relative to ``out_dir``, to link each node to its page;
    ``built``: networks the caller already has (the site's co-authors), not read again;
    ``on_page`` hears each page's path as its network is read (minutes each at 100,000 papers),
    ``on_progress`` how many of its community pages are written.
    """
    paths, read = [], {}
    for name in LINKS:
        path = out_dir / f"{name}.html"
        if on_page:
            on_page(path)
        write_page(store, name, path, read, profiles, (built or {}).get(name), on_progress)
        paths.append(path)
    return paths


def write_page(
    store: KGStore,
    name: str,
    path: Path,
    read: Read,
    profiles: str | None = None,
    graph: nx.Graph | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> None:
    """The page of network ``name`` at ``path`` (``graph``: the network when the caller has it), the
    network let go when it is written: the co-author network is not held while the next is read."""
    graph = graph or network(store, name, read=read)
    write_html(graph, path, HEADINGS[name], KINDS[name], profiles=profiles, on_progress=on_progress)
