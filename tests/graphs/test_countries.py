"""Country and sector views: the library's country and sector queries and `kg graph countries` agree on a
small listing whose organisations the registry places (Stanford, MIT, Google: US; Oxford and its department:
GB; TU Munich: DE)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.errors import KgError
from kg.graphs.countries import country_iri, country_name, find_country
from kg.graphs.networks import network
from kg.pipeline import ingest
from kg.query.library import library, run
from kg.rdf.iris import Minter, profile_path
from kg.stores.embedded import KGStore

FIXTURE = Path(__file__).parent.parent / "data" / "countries.txt"


@pytest.fixture(scope="module")
def store() -> KGStore:
    """Four papers: Stanford, MIT and Oxford; Oxford's department and TU Munich; Stanford and Google; TU Munich
    alone."""
    store = KGStore("memory")
    ingest([FIXTURE], store, Minter())
    return store


def table(store, name: str, **values) -> list[tuple]:
    return [tuple(str(value) for value in row) for row in run(store, library()[name], values).rows]


def test_a_paper_counts_once_per_country_however_many_of_its_organisations_are_there(store):
    # the first paper lists two US organisations: the US has 2 papers, not 3
    assert table(store, "country-papers") == [
        ("GB", "2", "5", "50"),
        ("US", "2", "5", "50"),
        ("DE", "2", "3", "50"),
    ]
    assert table(store, "country-collaborations") == [("DE", "GB", "1"), ("GB", "US", "1")]
    assert table(store, "country-collaborations", min_shared="2") == []


def test_sector_share_counts_each_paper_in_one_sector_class(store):
    assert table(store, "sector-share") == [("academia only", "3", "75"), ("academia and industry", "1", "25")]


def test_the_country_network_has_the_query_s_pairs_and_names_countries(store):
    graph = network(store, "countries")
    assert {graph.nodes[node]["label"]: graph.nodes[node]["papers"] for node in graph} == {
        "Germany": 2,
        "United Kingdom": 2,
        "United States": 2,
    }
    pairs = {
        tuple(sorted((graph.nodes[a]["label"], graph.nodes[b]["label"]))): d["papers"]
        for a, b, d in graph.edges(data=True)
    }
    assert pairs == {("Germany", "United Kingdom"): 1, ("United Kingdom", "United States"): 1}
    assert profile_path(country_iri("DE")) == "country/DEU.html"


@pytest.mark.parametrize(("typed", "code"), [("DE", "DE"), ("deu", "DE"), ("Germany", "DE"), (" south korea ", "KR")])
def test_a_country_is_found_by_code_or_name(typed, code):
    assert find_country(typed) == code


def test_an_unknown_country_is_one_clear_error_and_names_read_as_people_say_them():
    with pytest.raises(KgError, match="no country matches 'Atlantis'"):
        find_country("Atlantis")
    assert (country_name("KR"), country_name("TW"), country_name("XK")) == ("South Korea", "Taiwan", "XK")
