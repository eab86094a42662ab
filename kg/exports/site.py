"""``kg site``: a static, offline site of the graph, one page per author, institution, topic, paper, venue and country.

Every panel of a page is one query of the site library (``queries/site/*.rq``): each returns
the rows of that panel for *every* page, sorted by the page's IRI, so the pages are written
in one merged pass over the streams, one page at a time, whatever the size of the graph.
``{kind}.rq`` lists the pages of a kind; ``{kind}-{panel}.rq`` are its panels. Links go to
another page only when that page exists, so every link resolves; entities and papers also
link to their IRIs. Nothing is dated and everything is sorted: the same graph gives the same
bytes. The network pages (and an ego network per author) are the ones ``kg graph`` draws,
their nodes linked to these pages; vis-network is one shared file in ``assets/``.
"""

from __future__ import annotations

import json
import posixpath
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator

import jinja2

from .. import QUERIES_DIR
from ..graphs.countries import country_iri, country_name
from ..graphs.networks import HEADINGS, network, write_pages
from ..graphs.projections import ego_network, top_nodes
from ..graphs.render import VIS_FILES, render_html, search_script, vis_asset
from ..query.library import library, search_names
from ..rdf.iris import profile_path
from ..stores.embedded import KGStore
from ..vocab import sparql_prologue
from .site_lists import FOLDER as LIST_FOLDER
from .site_lists import list_page, listed_queries
from .site_pages import IDENTIFIER_KINDS, LISTINGS, PAGES, Panel
from .site_rows import page_sorted, rows, spool, unspooled

SITE_QUERIES = QUERIES_DIR / "site"
ASSETS = "assets"
#: Ego network pages for this many authors, the most prolific (each is a drawn network; all of
#: them would dominate the site's time on a large graph, and co-authors are listed on every page).
EGO_PAGES = 2000


#: The search on the index looks names up as `kg` does for these kinds.
SEARCHED = ("author", "institution", "topic")


@lru_cache(maxsize=None)
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent),
        autoescape=True,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": False}
    return env


@lru_cache(maxsize=None)
def _queries() -> dict:
    return library(SITE_QUERIES)


def _sparql(name: str) -> str:
    return sparql_prologue() + _queries()[name].sparql


def merged(pages: Iterable[str], panels: list[Iterator]) -> Iterator[tuple[str, list[list]]]:
    """Each page IRI with its rows of every panel: one pass over streams that are all sorted by ``?page``."""
    heads = [next(panel, None) for panel in panels]
    for key in pages:
        rows: list[list] = []
        for index, panel in enumerate(panels):
            mine = []
            while heads[index] is not None and heads[index].page <= key:
                if heads[index].page == key:
                    mine.append(heads[index])
                heads[index] = next(panel, None)
            rows.append(mine)
        yield key, rows


def _relative(from_path: str, to_path: str) -> str:
    """The link from one page of the site to another (both relative to the site's folder)."""
    folder, name = posixpath.split(to_path)
    between = _between(posixpath.dirname(from_path) or ".", folder or ".")
    return name if between == "." else f"{between}/{name}"


@lru_cache(maxsize=4096)
def _between(from_folder: str, to_folder: str) -> str:
    """``relpath`` of two folders: the site has a few, and its pages hold hundreds of thousands of links."""
    return posixpath.relpath(to_folder, from_folder)


def _prefix(from_path: str, folder: str = ".") -> str:
    """The relative URL prefix, from a page, of a folder of the site (``../``, ``../assets/``)."""
    return _relative(from_path, folder + "/x")[:-1]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def _page_sets(store: KGStore) -> dict[str, dict[str, tuple[str, int]]]:
    """Each kind's pages: IRI -> (name, papers). Small (one entry per entity), needed for links and the index."""
    return {
        kind: {row.page: (_name(kind, row.name), int(row.papers)) for row in rows(store, _sparql(kind))}
        for kind in PAGES
    }


def _name(kind: str, name: str) -> str:
    """A page's name: a country's from its code (the queries know only the code), others as the query gives them."""
    return country_name(name) if kind == "country" else name


def _page_path(kind: str, key: str) -> str:
    """A page's file: a country's by its IRI (its key is the code), others by their own IRI."""
    return profile_path(country_iri(key) if kind == "country" else key)


def _identifiers(store: KGStore) -> dict[str, list[dict]]:
    """Each author's and paper's identifier pages, labelled by kind, in IDENTIFIER_KINDS order (a few per entity)."""
    found: dict[str, list[tuple[int, str, str]]] = {}
    for row in rows(store, _sparql("identifiers")):
        kinds = [(rank, label) for rank, (start, label) in enumerate(IDENTIFIER_KINDS) if row.link.startswith(start)]
        if kinds:  # a link of no known kind has no label to show
            found.setdefault(row.page, []).append((*kinds[0], row.link))
    return {iri: [{"label": label, "href": link} for _, label, link in sorted(links)] for iri, links in found.items()}


def write_site(store: KGStore, out_dir: Path) -> dict[str, int]:
    """The whole site in ``out_dir``; returns how many pages of each kind were written."""
    env = _environment()
    pages = _page_sets(store)
    identifiers = _identifiers(store)
    path_of = {key: _page_path(kind, key) for kind in pages for key in pages[kind]}
    for name in VIS_FILES:
        _write(out_dir / ASSETS / name, str(vis_asset(name)))
    _write(out_dir / ASSETS / "site.css", (Path(__file__).parent / "site.css").read_text(encoding="utf-8"))
    # the co-author network (with its tooltips) is needed by the network and ego pages only:
    # written first and let go before the profile pages, so the two are never held together
    coauthors = network(store, "coauthors")
    egos = _write_egos(coauthors, pages["author"], path_of, out_dir)
    networks = write_pages(store, out_dir / "network", profiles="../", built={"coauthors": coauthors})
    del coauthors
    counts = {kind: _write_kind(store, kind, pages[kind], path_of, identifiers, egos, out_dir) for kind in PAGES}
    _write(out_dir / "search.js", _search_data(store, pages, path_of))
    rankings = _write_rankings(store, pages, path_of, out_dir)
    _write(
        out_dir / "index.html",
        env.get_template("index.html.j2").render(
            counts=counts,
            lists=[(PAGES[kind][0], LISTINGS[kind], counts[kind]) for kind in PAGES],
            networks=[(HEADINGS[path.stem], f"network/{path.name}") for path in networks],
            rankings=rankings,
            search_js=search_script(),
            assets=f"{ASSETS}/",
        ),
    )
    return counts


def _write_rankings(store: KGStore, pages: dict, path_of: dict, out_dir: Path) -> list[tuple[str, str]]:
    """A page per long answer of the query library (kg/exports/site_lists.py); (title, link) of each."""
    template = _environment().get_template("ranking.html.j2")
    own = f"{LIST_FOLDER}/x.html"
    named = {iri: (name, _relative(own, path_of[iri])) for kind in pages for iri, (name, _) in pages[kind].items()}
    written = []
    for query in listed_queries():
        page = list_page(store, query, named)
        path = f"{LIST_FOLDER}/{query.name}.html"
        _write(
            out_dir / path, template.render(page=page, home=_relative(own, "index.html"), assets=_prefix(own, ASSETS))
        )
        written.append((query.title, path))
    return written


def _write_egos(coauthors, authors: dict[str, tuple[str, int]], path_of: dict, out_dir: Path) -> set[str]:
    """The ego network pages of the EGO_PAGES most prolific authors with co-authors; their IRIs."""
    written = set()
    for iri in top_nodes(coauthors, EGO_PAGES):
        if iri in authors and coauthors.degree(iri):
            ego = _ego_path(path_of[iri])
            _write(
                out_dir / ego,
                render_html(
                    ego_network(coauthors, iri, 1),
                    f"Co-authors of {authors[iri][0]}",
                    "author",
                    profiles=_prefix(ego),
                    assets=_prefix(ego, ASSETS),
                ),
            )
            written.add(iri)
    return written


def _ego_path(own: str) -> str:
    return own.removesuffix(".html") + "-network.html"


def _write_kind(
    store: KGStore,
    kind: str,
    pages: dict[str, tuple[str, int]],
    path_of: dict,
    identifiers: dict,
    egos: set[str],
    out_dir: Path,
) -> int:
    """A kind's profile pages and its list page; returns how many profile pages."""
    env = _environment()
    plural, panels = PAGES[kind]
    template = env.get_template("profile.html.j2")
    with tempfile.TemporaryDirectory(prefix="kg-site-", dir=_scratch(store)) as folder:
        # one panel query at a time to disk, then all of them merged a page at a time
        spooled = [spool(_panel_rows(store, panel), Path(folder) / f"{panel.query}.jsonl") for panel in panels]
        streams = [unspooled(_sparql(panel.query), path) for panel, path in zip(panels, spooled)]
        for iri, panel_rows in merged(sorted(pages), streams):
            own = path_of[iri]
            link = lambda target, own=own: _relative(own, path_of[target]) if target in path_of else None  # noqa: E731
            sections = [
                {
                    "heading": panel.heading,
                    "text": panel.links_to == "text",
                    "rows": [_row(row, panel, link, identifiers) for row in rows],
                }
                for panel, rows in zip(panels, panel_rows)
            ]
            name, papers = pages[iri]
            _write(
                out_dir / own,
                template.render(
                    title=name,
                    kind=kind,
                    iri=iri,
                    papers=papers,
                    sections=sections,
                    identifiers=identifiers.get(iri, []),
                    ego=_relative(own, _ego_path(own)) if iri in egos else None,
                    home=_relative(own, "index.html"),
                    listing=_relative(own, LISTINGS[kind]),
                    listing_text=LISTINGS[kind].removesuffix(".html"),
                    assets=_prefix(own, ASSETS),
                ),
            )
    _write(
        out_dir / LISTINGS[kind],
        env.get_template("list.html.j2").render(
            title=plural,
            home="index.html",
            counted=kind != "paper",
            assets=f"{ASSETS}/",
            entries=sorted(
                ((name, papers, path_of[iri]) for iri, (name, papers) in pages.items()),
                key=lambda entry: (entry[0].casefold(), entry[2]),
            ),
        ),
    )
    return len(pages)


def _panel_rows(store: KGStore, panel: Panel) -> Iterator[tuple]:
    """A panel's rows by page, in the panel's order: sorted here if it has one, else by its query."""
    if panel.order is None:
        return rows(store, _sparql(panel.query))
    return page_sorted(store, _sparql(panel.query), panel.order, _scratch(store))


def _scratch(store: KGStore) -> Path | None:
    """The store's scratch folder when it has one (beside the store, on its file system), else the system's."""
    folder = store.scratch_dir
    return folder if folder is not None and folder.is_dir() else None


def _row(row, panel: Panel, link, identifiers: dict[str, list[dict]]) -> dict:
    if panel.links_to == "paper":
        details = [str(value) for value in (getattr(row, "venue", None),) if value is not None]
        if getattr(row, "position", None) is not None:
            details.insert(0, f"{row.position} / {row.authors}")
        return {
            "text": str(row.title) if row.title is not None else str(row.paper),
            "href": link(str(row.paper)),
            "iri": str(row.paper),
            "details": " · ".join(details),
            "identifiers": identifiers.get(str(row.paper), []),
        }
    if panel.links_to == "country":
        return {"text": country_name(str(row.other)), "href": link(str(row.other)), "iri": None, "details": ""}
    if panel.links_to == "text":
        return {"text": str(row.name), "href": None, "iri": None, "details": ""}
    other = str(row.other)
    href = (
        (other if other.startswith(("https://", "http://")) else None) if panel.links_to == "external" else link(other)
    )
    count = getattr(row, "number", None)
    relation = getattr(row, "relation", None)
    return {
        "text": str(row.name),
        "href": href,
        "iri": other,
        "details": str(relation) if relation is not None else (f"{int(count):,}" if count is not None else ""),
    }


def _search_data(store: KGStore, pages: dict, path_of: dict) -> str:
    """The index's search entries (name, page, match keys), as a script (file:// pages cannot fetch JSON)."""
    entries = []
    for kind in SEARCHED:
        names = search_names(store, kind)
        for iri, (name, _) in sorted(pages[kind].items(), key=lambda item: (-item[1][1], item[1][0], item[0])):
            keys, acronyms = names.get(iri, ([], []))
            entries.append(
                {"id": iri, "name": name, "kind": kind, "href": path_of[iri], "keys": keys, "acronyms": acronyms}
            )
    return (
        "var SITE_ENTRIES = " + json.dumps(entries, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + ";\n"
    )
