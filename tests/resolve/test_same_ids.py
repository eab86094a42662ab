"""People named by different identifiers in two sources are one where they share one (kg/resolve/same_ids.py)."""

from __future__ import annotations

import json

from kg.pipeline import ingest
from kg.quality.identifiers import identifier_counts
from kg.rdf.iris import Minter
from kg.resolve.same_ids import find_same_id_merges
from kg.stores.embedded import KGStore
from kg.vocab import sparql_prologue

ORCID = "0000-0002-1825-0097"  # ORCID's own example iD (valid check digit)
PAPERS = (
    sparql_prologue()
    + """SELECT ?person (COUNT(DISTINCT ?paper) AS ?papers) WHERE {
    ?paper a schema:ScholarlyArticle ; dcterms:creator ?person } GROUP BY ?person ORDER BY ?person"""
)


def _write(path, entries):
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


def _papers(store) -> dict[str, int]:
    return {str(person).rsplit("/", 1)[-1]: int(count.value) for person, count in store.query(PAPERS)}


def test_a_person_an_orcid_names_in_one_source_is_the_openreview_person_of_another(tmp_path):
    first = _write(
        tmp_path / "loom2031.json",
        [
            {
                "title": "Weaving Graphs",
                "author": "Ada Lovelace;Alan Turing",
                "authorids": "~Ada_Lovelace1;~Alan_Turing1",
                "orcid": f"{ORCID};",
                "status": "Poster",
            }
        ],
    )
    second = _write(
        tmp_path / "weft2031.json",
        [{"title": "Shuttle Codes", "author": "A. Lovelace;Grace Hopper", "orcid": f"{ORCID};", "status": "Poster"}],
    )
    together = KGStore("memory")
    ingest([first, second], together, Minter())
    papers = _papers(together)
    assert papers["ada-lovelace1--openreview"] == 2 and f"{ORCID.lower()}--orcid" not in papers
    assert identifier_counts(together)["ids_on_several_persons"] == 0
    one_by_one = KGStore("memory")
    ingest([second], one_by_one, Minter())
    ingest([first], one_by_one, Minter())
    assert _papers(one_by_one) == papers


def test_a_group_holding_two_ids_of_one_scheme_stays_apart():
    rows = [
        ("g:a", "p:ada--openreview", "https://openreview.net/profile?id=~Ada1"),
        ("g:a", "p:ada--openreview", "https://dblp.org/pid/1/1"),
        ("g:b", "p:bo--openreview", "https://openreview.net/profile?id=~Bo1"),
        ("g:b", "p:bo--openreview", "https://dblp.org/pid/1/1"),  # a dblp pid out of step with its byline
        ("g:c", "p:x--orcid", "https://orcid.org/0000-0002-1825-0097"),
        ("g:c", "p:x--orcid", "https://dblp.org/pid/2/2"),
        ("g:d", "p:y--dblp", "https://dblp.org/pid/2/2"),
    ]
    merges = find_same_id_merges(rows)
    assert [(m.graph, m.absorbed, m.canonical, m.evidence) for m in merges] == [
        ("g:d", "p:y--dblp", "p:x--orcid", "same-dblp")
    ]
