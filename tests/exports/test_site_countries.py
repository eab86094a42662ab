"""A page per country in the site: its institutions, authors and papers, linked from the index, the
institution pages and the country network (tests/data/countries.txt: US, GB and DE organisations)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kg.exports.site import write_site
from kg.pipeline import ingest
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore

FIXTURE = Path(__file__).parent.parent / "data" / "countries.txt"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    store = KGStore("memory")
    ingest([FIXTURE], store, Minter())
    folder = tmp_path_factory.mktemp("site")
    counts = write_site(store, folder)
    assert counts["country"] == 3
    return folder


def links(page: Path) -> dict[str, str]:
    """Link text -> href of a page."""
    return {text: href for href, text in re.findall(r'<a href="([^"]+)">([^<]+)</a>', page.read_text(encoding="utf-8"))}


def test_a_country_page_lists_its_institutions_authors_and_papers(site):
    page = site / "country" / "USA.html"
    text = page.read_text(encoding="utf-8")
    assert "<h1>United States</h1>" in text and "2 papers" in text
    found = links(page)
    assert found["Stanford University"] == "../institution/stanford-university.html"
    assert {"Massachusetts Institute of Technology", "Google", "Eve Black", "Ann Lee"} <= set(found)
    assert "Gina Gray" not in found  # her paper lists TU Munich alone
    assert {"Robots That Learn From One Demonstration", "Planning With Learned World Models"} <= set(found)
    for href in found.values():
        assert (page.parent / href).resolve().is_file(), href


def test_countries_are_linked_from_the_index_the_institution_pages_and_the_network(site):
    assert links(site / "index.html")["Countries"] == "countries.html"
    assert links(site / "countries.html")["Germany"] == "country/DEU.html"
    assert links(site / "institution" / "technical-university-of-munich.html")["Germany"] == "../country/DEU.html"
    network = (site / "network" / "countries.html").read_text(encoding="utf-8")
    assert '"href": "../country/GBR.html"' in network
