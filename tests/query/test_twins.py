"""The twins of precomputed lists (kg/resolve/list_rows.py): for every entity, the rows a twin makes from what the
resolution step has in hand are the query's own rows (same terms, same order, as many), and the lists written
from them are the triples the query would give; a twin is served only for the query text it was checked against."""

from __future__ import annotations

import dataclasses

import pytest
import rdflib
from structured_sources import realdata

from kg import SAMPLES_DIR
from kg.ingest.synth import write_corpus
from kg.pipeline import ingest
from kg.query import precompute
from kg.query.library import answer, bind, library, plain_defaults
from kg.query.lookup import entities_with_papers
from kg.query.rankings import digest
from kg.rdf.iris import Minter
from kg.rdf.mapping import source_iri
from kg.rdf.topic_triples import detail_graph
from kg.resolve.store_step import rebuild, resolution_suspended
from kg.stores.embedded import KGStore

QUERY_OF = {query.precomputed: query for query in library().values() if query.precomputed}
TWINNED = sorted(precompute.TWINS)


def test_every_twin_is_pinned_to_its_querys_text():
    """A failure here: the query was edited; check its twin's rows again (the tests below) and pin the new digest."""
    for name in TWINNED:
        assert precompute.TWINS[name].digest == digest(QUERY_OF[name].sparql), name


def _query_rows(store, query, entity: str | None = None) -> tuple[list[str], list[tuple]]:
    """The query's columns and rows as the list keeps them (about ``entity``, or its one answer)."""
    if entity is None:
        bindings = bind(query, store, {})[0]
    else:
        bindings = {**plain_defaults(query), query.entity_param.name: rdflib.URIRef(entity)}
    result = answer(store, query, bindings)
    shown = [i for i, var in enumerate(result.vars) if str(var) not in bindings]
    return [str(result.vars[i]) for i in shown], [tuple(row[i] for i in shown) for row in result.terms]


def _check_twins(store, rows) -> int:
    """Every twin's rows, for every entity with a paper, against the query's; the rows compared."""
    compared = 0
    for name in TWINNED:
        twin, query = precompute.TWINS[name], QUERY_OF[name]
        if query.entity_param is None:
            variables, expected = _query_rows(store, query)
            assert (list(twin.variables), twin.answer(store, rows)) == (variables, expected), name
            assert expected, name  # rows compared, on every store checked
            compared += len(expected)
            continue
        entities = entities_with_papers(store, query.entity_param.kind, 1)
        made = list(twin.lists(store, rows, entities))
        assert [entity for entity, _ in made] == sorted(entities), name
        for entity, twin_rows in made:
            variables, expected = _query_rows(store, query, entity)
            assert (list(twin.variables), list(twin_rows)) == (variables, expected), (name, entity)
            compared += len(expected)
        # and the lists written from them, a few rows kept, are the query's lists triple for triple
        lowered = dataclasses.replace(query, list_papers=2)  # several institutions of the samples
        ranking = precompute.rankings_graph(Minter())
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(precompute, "KEPT_ROWS", 3)
            by_twin = _lines(precompute.query_lists(store, lowered, ranking, rows))
            by_query = _lines(precompute.query_lists(store, lowered, ranking))
        assert by_twin == by_query and by_twin, name
    return compared


def _lines(lists) -> set[str]:
    return {line for made in lists for line in (*made.lines, made.digest)}


def _synth(path, papers: int, seed: int, format_name: str = "listing"):
    with open(path, "w", encoding="utf-8") as out:
        write_corpus(out, papers, seed, format_name)
    return path


def _ingest_checked(store, paths, monkeypatch) -> list[int]:
    """Ingest, checking the twins against the queries where the ingest's lists are made (rows from the sources
    just staged), then once more after a resolution that reads every source back from the store."""
    compared: list[int] = []
    refresh = precompute.refresh_rankings

    def checked(store, minter, folder=precompute.QUERIES_DIR, rows=None):
        compared.append(_check_twins(store, rows))
        refresh(store, minter, folder, rows)

    monkeypatch.setattr("kg.pipeline.refresh_rankings", checked)
    ingest(paths, store, Minter())
    rebuild(store, Minter(), finish=lambda rows, known_quads: compared.append(_check_twins(store, rows)))
    return compared


def _removed_checked(store, path) -> list[int]:
    """``kg remove`` of one source as the command does it, the twins checked where the resolution after it hands
    over their rows: made again from the sources left, not from the removed one's."""
    compared: list[int] = []
    graph = source_iri(path.name, Minter())
    with resolution_suspended(
        store, Minter(), finish=lambda rows, known_quads: compared.append(_check_twins(store, rows))
    ):
        store.remove_graph(graph)
        store.remove_graph(detail_graph(graph))
    return compared


def test_twins_give_the_querys_rows_on_the_samples(monkeypatch):
    compared = _ingest_checked(KGStore("memory"), [SAMPLES_DIR], monkeypatch)
    assert len(compared) == 2 and all(compared)


@pytest.mark.slow
def test_twins_give_the_querys_rows_on_a_synthetic_corpus(tmp_path, monkeypatch):
    """A listing and a structured source (per-author affiliations, papers merged across the two), on disk; then
    the structured source removed."""
    paths = [_synth(tmp_path / "listing.txt", 2000, 1), _synth(tmp_path / "papers.json", 300, 2, "paperlists")]
    store = KGStore(str(tmp_path / "store"))
    try:
        compared = _ingest_checked(store, paths, monkeypatch) + _removed_checked(store, paths[1])
    finally:
        store.close()
    assert len(compared) == 3 and all(n > 1000 for n in compared)


@pytest.mark.realdata
def test_twins_give_the_querys_rows_on_real_data(tmp_path, monkeypatch):
    paths = [realdata(name) for name in ("aistats2025.json", "corl2024_listing.txt", "corl2024_abstracts.txt")]
    compared = _ingest_checked(KGStore("memory"), paths, monkeypatch)
    assert len(compared) == 2 and all(compared)


def test_a_twin_is_not_used_for_another_query_text():
    query = QUERY_OF[TWINNED[0]]
    edited = dataclasses.replace(query, sparql=query.sparql + "\n# edited\n")
    assert precompute._twin(query, object()) is precompute.TWINS[TWINNED[0]]
    assert precompute._twin(dataclasses.replace(query, precomputed="no-twin"), object()) is None
    assert precompute._twin(edited, object()) is None and precompute._twin(query, None) is None
