"""The counts' ledger (kg/resolve/count_ledger.py): brought up to date over several runs (papers added, changed and
taken off, a paper stated by two sources, other units), its triples are those of a ledger made whole from the same
papers; a ledger that does not hold (other units, a damaged file, another code's) is made again, and a pass that does
not end leaves the last run's."""

from __future__ import annotations

import random
import shutil
from collections import defaultdict

from conftest import ABSTRACTS, LISTING

from kg.pipeline import ingest
from kg.rdf.iris import Minter
from kg.rdf.side_rows import AFFILIATION
from kg.resolve.aggregates import _Within
from kg.resolve.count_ledger import CountLedger, ledger_path, units_stamp
from kg.resolve.kept_rows import side_folder
from kg.resolve.store_step import resolution_suspended
from kg.stores.embedded import KGStore
from kg.vocab import KG

ORGS = [f"http://ex/org/{name}" for name in ("a", "b", "c", "d", "é")]
PEOPLE = [f"http://ex/person/{n}" for n in range(8)]
TOPICS = [f"http://ex/topic/{n}" for n in range(3)]
ID, LISTED = "https://kg.example.org/id/", "001-0af6457a65591eab-txt"  # the listing's source graph
UNITS = [(ORGS[3], ORGS[0]), (ORGS[4], ORGS[3])]


def paper(rng: random.Random) -> dict[str, set[str]]:
    own: dict[str, set[str]] = defaultdict(set)
    own["author"] = set(rng.sample(PEOPLE, rng.randint(0, 4)))
    own["listed"] = set(rng.sample(ORGS, rng.randint(0, 3)))
    own[AFFILIATION] = set(rng.sample(ORGS, rng.randint(0, 1)))
    own["topic"] = set(rng.sample(TOPICS, rng.randint(0, 2)))
    own[KG.track.value] = set(rng.sample([KG.MainTrack.value, KG.WorkshopTrack.value], rng.randint(0, 1)))
    own["title"] = {str(rng.random())}  # not counted: a paper changed only here keeps its contribution
    return own


def triples(path, papers: dict, units) -> set:
    ledger = CountLedger(path, units_stamp(units), _Within(units), None)
    for iri in sorted(papers):
        ledger.add(iri, papers[iri])
    ledger.close()
    return {str(triple) for triple in ledger.triples(Minter())}


def test_a_ledger_brought_up_to_date_gives_the_totals_made_whole(tmp_path):
    rng = random.Random(5)
    papers = {f"http://ex/paper/{n:02}": paper(rng) for n in range(40)}
    path = tmp_path / "counts.code.memo"
    for step in range(6):
        units = UNITS if step < 4 else UNITS[:1]  # other units at step 4: made whole again
        kept = triples(path, papers, units)
        assert kept == triples(None, papers, units)
        assert any("CoauthorPair" in triple for triple in kept)
        for iri in rng.sample(sorted(papers), 6):  # changed, some in the counted facts only
            papers[iri] = paper(rng) if rng.random() < 0.7 else {**papers[iri], "title": {"other"}}
        for iri in rng.sample(sorted(papers), 3):
            del papers[iri]
        papers[f"http://ex/paper/new{step}"] = paper(rng)
        both = papers[rng.choice(sorted(papers))]  # one paper stated by two sources: the union of their facts
        both["author"] |= {PEOPLE[0], PEOPLE[1]}
    assert path.is_file() and not path.with_suffix(".new").exists()


def test_a_ledger_that_does_not_hold_is_made_again(tmp_path):
    rng = random.Random(6)
    papers = {f"http://ex/paper/{n:02}": paper(rng) for n in range(20)}
    path = tmp_path / "counts.code.memo"
    whole = triples(None, papers, UNITS)
    path.write_bytes(b"not a database")
    assert triples(path, papers, UNITS) == whole
    other = tmp_path / "counts.other.memo"
    shutil.copy(path, other)
    del papers[sorted(papers)[0]]
    assert triples(path, papers, UNITS) == triples(None, papers, UNITS)
    assert other.exists()  # kept until a ledger is made whole by this code
    triples(path, papers, [])
    assert not other.exists()


def test_a_pass_that_does_not_end_leaves_the_last_runs_ledger(tmp_path):
    rng = random.Random(7)
    papers = {f"http://ex/paper/{n:02}": paper(rng) for n in range(20)}
    path = tmp_path / "counts.code.memo"
    before = triples(path, papers, UNITS)
    ledger = CountLedger(path, units_stamp(UNITS), _Within(UNITS), None)
    for iri in sorted(papers)[:5]:
        ledger.add(iri, paper(rng))
    ledger.abandon()
    assert triples(path, papers, UNITS) == before


def index_graph(store: KGStore) -> list[str]:
    graph = f"<{Minter().iri('graph', 'index')}>"
    return sorted(str(t) for t in store.select_terms(f"SELECT ?s ?p ?o WHERE {{ GRAPH {graph} {{ ?s ?p ?o }} }}"))


def test_a_store_s_counts_follow_each_change_as_made_whole(tmp_path):
    """Ingest by ingest (a paper merged across two sources, a corrected listing, the listing removed), the index
    graph with the ledger brought up to date is the one made with no ledger."""
    store, minter = KGStore(str(tmp_path / "store")), Minter()
    corrected = tmp_path / LISTING.name
    corrected.write_text(LISTING.read_text(encoding="utf-8").replace("UIUC", "MIT"), encoding="utf-8")

    def removed():
        with resolution_suspended(store, minter):
            store.update(f"DROP GRAPH <{ID}source/{LISTED}> ; DROP GRAPH <{ID}graph/topic-detail/{LISTED}>")

    steps = [
        lambda: ingest([ABSTRACTS], store, minter),
        lambda: ingest([LISTING], store, minter),
        lambda: ingest([corrected], store, minter),
        removed,
    ]
    try:
        for step in steps:
            step()
            path = ledger_path(side_folder(store))
            assert path is not None and path.is_file()
            kept = index_graph(store)
            path.unlink()
            with resolution_suspended(store, minter):
                pass
            assert index_graph(store) == kept
    finally:
        store.close()
