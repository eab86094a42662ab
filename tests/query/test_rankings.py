"""Precomputed lists (kg/query/rankings.py): every page read by rank is the same page of the real query,
on the samples and on a synthetic corpus, and the lists follow `kg ingest` of one more source and `kg remove`."""

from __future__ import annotations

import dataclasses
import re

import pytest
import rdflib
from conftest import kg_here

from kg.errors import KgError
from kg.pipeline import ingest
from kg.query.library import Page, bind, execute, library, parse_query, plain_defaults, run
from kg.query.precompute import refresh_rankings
from kg.query.rankings import digest, ranked_page
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore

PRECOMPUTED = sorted(name for name, query in library().items() if query.precomputed and not query.entity_param)
ENTITY_LISTS = sorted(name for name, query in library().items() if query.precomputed and query.entity_param)
PAGE = 7


def _write_synth(path, papers: int, seed: int, format_name: str = "listing"):
    from kg.ingest.synth import write_corpus

    with open(path, "w", encoding="utf-8") as out:
        write_corpus(out, papers, seed, format_name)
    return path


def assert_pages_match(store, name: str) -> int:
    """Every page of the list equals the same page of the real query; the list's length."""
    query = library()[name]
    real = dataclasses.replace(query, precomputed=None)
    bindings, _ = bind(query, store, {})
    listed = ranked_page(store, query.precomputed, digest(query.sparql), 0, 1)
    assert listed is not None, f"{name}: no precomputed list in the store"
    total = listed[2]
    whole = execute(store, real, bindings)
    assert total == len(whole.rows)
    for offset in range(0, total + PAGE, PAGE):
        served = execute(store, query, bindings, Page(PAGE, offset))
        expected = execute(store, real, bindings, Page(PAGE, offset))
        assert (served.variables, served.rows) == (expected.variables, expected.rows), f"{name} at offset {offset}"
        assert served.total == whole.total and served.total_exact
    return total


def test_the_library_declares_lists():
    assert {"artifacts", "country-papers", "country-collaborations", "sector-share"} <= set(PRECOMPUTED)


@pytest.mark.parametrize("name", PRECOMPUTED)
def test_every_page_is_the_real_querys_on_the_samples(sample_store, name):
    assert assert_pages_match(sample_store, name) > 0


@pytest.fixture(scope="module")
def synthetic_store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("synthetic")
    store = KGStore("memory")
    ingest(
        [
            _write_synth(folder / "listing.txt", 150, 3),
            _write_synth(folder / "papers.json", 100, 4, "paperlists"),
        ],
        store,
        Minter(),
    )
    return store


@pytest.mark.parametrize("name", PRECOMPUTED)
def test_every_page_is_the_real_querys_on_a_synthetic_corpus(synthetic_store, name):
    assert assert_pages_match(synthetic_store, name) > 0


def test_parameters_that_filter_run_the_real_query(sample_store):
    query = library()["country-collaborations"]
    served = run(sample_store, query, {"min_shared": "2", "limit": "3"})
    real = run(sample_store, dataclasses.replace(query, precomputed=None), {"min_shared": "2", "limit": "3"})
    assert served.rows == real.rows and all(int(row[-1]) >= 2 for row in served.rows)
    # the default given explicitly is still the list's answer
    explicit = run(sample_store, query, {"min_shared": "1", "limit": "3"})
    assert explicit.rows == run(sample_store, query, {"limit": "3"}).rows


def test_a_list_of_another_query_text_is_never_served(sample_store):
    query = library()["sector-share"]
    edited = dataclasses.replace(query, sparql=query.sparql.replace("DESC(?papers) ?sector", "?sector"))
    rows = run(sample_store, edited, {"limit": "10"}).rows
    assert rows == sorted(rows, key=lambda row: str(row[0]))  # the edited order, not the stored one


def test_a_query_about_an_entity_declares_from_how_many_papers_it_has_lists():
    query = parse_query("# precomputed: x : 40\n# param: author : author : who\nSELECT ?author WHERE {}", "x")
    assert (query.precomputed, query.list_papers, query.entity_param.name) == ("x", 40, "author")
    with pytest.raises(KgError, match="NAME : PAPERS"):
        parse_query("# precomputed: x\n# param: author : author : who\nSELECT ?author WHERE {}", "x")
    with pytest.raises(KgError, match="about two entities"):
        parse_query(
            "# precomputed: x : 4\n# param: a : author : who\n# param: b : topic : what\nSELECT ?a ?b WHERE {}", "x"
        )
    with pytest.raises(KgError, match="PAPERS is for a query about an entity"):
        parse_query("# precomputed: x : 4\nSELECT ?s WHERE {}", "x")


def test_the_library_declares_entity_lists():
    assert {"institution-papers", "institution-authors", "topic-papers", "author-papers"} <= set(ENTITY_LISTS)


@pytest.mark.slow
def test_entity_lists_give_the_real_querys_pages(tmp_path, monkeypatch):
    """Each entity query's lists, for the three entities with the most papers, a few rows kept: every page,
    from the list or past its kept rows, is the real query's; an entity under the threshold has none."""
    from kg.query import precompute
    from kg.query.lookup import entities_with_papers

    monkeypatch.setattr(precompute, "KEPT_ROWS", 2 * PAGE)
    store = KGStore("memory")
    ingest([_write_synth(tmp_path / "listing.txt", 150, 3)], store, Minter())
    for name in ENTITY_LISTS:  # the threshold: the papers of the kind's third entity by papers
        query = library()[name]
        kind = query.entity_param.kind
        papers = next(n for n in range(200, 1, -1) if len(entities_with_papers(store, kind, n)) >= 3)
        text = re.sub(r"(# precomputed: [\w-]+ : )\d+", rf"\g<1>{papers}", query.sparql)
        (tmp_path / f"{name}.rq").write_text(text)
    refresh_rankings(store, Minter(), tmp_path)
    for name, query in library(tmp_path).items():
        real = dataclasses.replace(query, precomputed=None)
        entity = query.entity_param
        listed = entities_with_papers(store, entity.kind, query.list_papers)
        unlisted = set(entities_with_papers(store, entity.kind, 1)) - set(listed)
        assert listed and unlisted, name
        for iri in [*listed[:3], sorted(unlisted)[0]]:
            bindings = {**plain_defaults(query), entity.name: rdflib.URIRef(iri)}
            stored = ranked_page(store, query.precomputed, digest(query.sparql), 0, PAGE, bindings[entity.name])
            assert (stored is not None) == (iri in listed), (name, iri)
            whole = execute(store, real, bindings)
            for offset in range(0, whole.total + PAGE, PAGE):
                served = execute(store, query, bindings, Page(PAGE, offset))
                expected = execute(store, real, bindings, Page(PAGE, offset))
                assert (served.variables, served.rows, served.total) == (expected.variables, expected.rows, whole.total)


def test_two_queries_cannot_declare_one_list(sample_store, tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.rq").write_text("# precomputed: same\nSELECT ?s WHERE { ?s a kg:Ranking }\n")
    with pytest.raises(KgError, match="already serves a"):
        refresh_rankings(KGStore("memory"), Minter(), tmp_path)


@pytest.mark.slow
def test_lists_follow_ingest_and_remove(tmp_path):
    first = _write_synth(tmp_path / "first.txt", 120, 5)
    more = _write_synth(tmp_path / "more.json", 60, 6, "paperlists")
    store_dir = str(tmp_path / "store")
    kg_here("ingest", "--store", store_dir, str(first), cwd=tmp_path)
    totals = []
    for command in (("ingest", str(more)), ("remove", "more.json")):
        kg_here(command[0], "--store", store_dir, command[1], cwd=tmp_path)
        store = KGStore(store_dir, read_only=True)
        try:
            totals.append({name: assert_pages_match(store, name) for name in PRECOMPUTED})
        finally:
            store.close()
    assert totals[0] != totals[1]  # one more source changed the lists, its removal changed them back


def _tiny_store() -> KGStore:
    store = KGStore("memory")
    store.update(
        "INSERT DATA { GRAPH <https://kg.example.org/id/source/t> { "
        "<https://e.org/a> <https://e.org/p> 1 . <https://e.org/b> <https://e.org/p> 2 . "
        '<https://e.org/b> <https://e.org/q> "x"@en } }'
    )
    return store


def test_unbound_values_and_an_empty_answer_are_kept(tmp_path):
    store = _tiny_store()
    (tmp_path / "some.rq").write_text(
        "# precomputed: some\n# param: limit : integer >= 1 : rows : 5\n"
        "SELECT ?s ?q WHERE { ?s <https://e.org/p> ?n OPTIONAL { ?s <https://e.org/q> ?q } } ORDER BY DESC(?n)\n"
    )
    (tmp_path / "none.rq").write_text(
        "# precomputed: none\n# param: limit : integer >= 1 : rows : 5\n"
        "SELECT ?s WHERE { ?s a kg:Nothing } ORDER BY ?s\n"
    )
    refresh_rankings(store, Minter(), tmp_path)
    some, none = (library(tmp_path)[name] for name in ("some", "none"))
    assert ranked_page(store, "some", digest(some.sparql), 0, 5) is not None
    answer = run(store, some)
    assert [(str(s), q) for s, q in answer.rows] == [
        ("https://e.org/b", rdflib.Literal("x", lang="en")),
        ("https://e.org/a", None),
    ]
    assert run(store, some, {"offset": "1"}).rows == answer.rows[1:] and answer.total == 2
    assert ranked_page(store, "none", digest(none.sparql), 0, 5)[2] == 0
    empty = run(store, none)
    assert empty.rows == [] and empty.total == 0 and empty.variables == ["s"]


def test_a_rewrite_cut_short_leaves_no_list_served(tmp_path, monkeypatch):
    store = _tiny_store()
    (tmp_path / "all.rq").write_text(
        "# precomputed: all\n# param: limit : integer >= 1 : rows : 5\n"
        "SELECT ?s ?n WHERE { ?s <https://e.org/p> ?n } ORDER BY ?n\n"
    )
    query = library(tmp_path)["all"]
    refresh_rankings(store, Minter(), tmp_path)
    assert ranked_page(store, "all", digest(query.sparql), 0, 5)[2] == 2
    store.update("INSERT DATA { GRAPH <https://kg.example.org/id/source/t> { <https://e.org/c> <https://e.org/p> 0 } }")

    def killed(*_):
        raise KeyboardInterrupt

    monkeypatch.setattr(store, "add_graph_triples", killed)  # killed before the digests come back
    with pytest.raises(KeyboardInterrupt):
        refresh_rankings(store, Minter(), tmp_path)
    assert ranked_page(store, "all", digest(query.sparql), 0, 5) is None
    assert str(run(store, query).rows[0][0]) == "https://e.org/c"  # the query answers itself
