"""`kg site`'s pages of the library's long answers (kg/exports/site_lists.py): each one the first page `kg query`
gives, read from the precomputed list, with the note on the rows that follow and how to read them."""

from __future__ import annotations

import re

import pytest
from conftest import mark_first_row

from kg import SAMPLES_DIR
from kg.exports.site import write_site
from kg.exports.site_lists import listed_queries
from kg.pipeline import ingest
from kg.query.library import run
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore

pytestmark = pytest.mark.slow
MARK = "marked in the list"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """(site folder, store) of the samples, the first row of sector-share's list marked."""
    store = KGStore("memory")
    ingest([SAMPLES_DIR], store, Minter())
    mark_first_row(store, "sector-share", MARK)
    folder = tmp_path_factory.mktemp("site-lists")
    write_site(store, folder)
    return folder, store


def test_the_index_links_every_list_page(site):
    folder, _ = site
    index = (folder / "index.html").read_text(encoding="utf-8")
    names = [query.name for query in listed_queries()]
    assert {"artifacts", "country-papers", "sector-share"} <= set(names)
    for name in names:
        assert f'href="lists/{name}.html"' in index


@pytest.mark.parametrize("query", listed_queries(), ids=lambda query: query.name)
def test_a_list_page_is_kg_querys_first_page(site, query):
    folder, store = site
    html = (folder / "lists" / f"{query.name}.html").read_text(encoding="utf-8")
    expected = run(store, query, {})
    body = html.split("<tbody>")[1].split("</tbody>")[0]
    assert body.count("<tr>") == len(expected.rows) > 0
    shown = expected.offset + len(expected.rows)
    assert f"rows 1–{shown:,} of {expected.total:,}" in html
    if expected.total > shown:
        assert f"kg query {query.name} -p offset={shown}" in html and f"/query/{query.name}?offset={shown}" in html


def test_the_page_is_read_from_the_list(site):
    folder, _ = site
    html = (folder / "lists" / "sector-share.html").read_text(encoding="utf-8")
    first = html.split("<tbody>")[1].split("</tr>")[0]
    assert MARK in first


def test_entities_link_to_their_pages(site):
    folder, _ = site
    html = (folder / "lists" / "institution-collaborations.html").read_text(encoding="utf-8")
    links = re.findall(r'href="(\.\./institution/[^"]+)"', html)
    assert links and all((folder / "lists" / link).resolve().is_file() for link in links)
