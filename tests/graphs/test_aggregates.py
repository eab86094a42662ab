"""Network nodes never share a display label: a qualifier is added where two would."""

from __future__ import annotations

from pathlib import Path

from kg.graphs.aggregates import AUTHORS, distinct_labels, node_rows
from kg.pipeline import ingest
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore

DATA = Path(__file__).parent.parent / "data"


def test_two_people_of_one_name_get_two_labels():
    store = KGStore("memory")
    ingest([DATA / "two_yang_lius.json"], store, Minter())
    labels = [row.label for row in node_rows(store, AUTHORS)]
    assert len(labels) == len(set(labels)) == 5
    assert {label for label in labels if label.startswith("Yang Liu")} == {
        "Yang Liu (yang-liu19--openreview)",
        "Yang Liu (yang-liu3--openreview)",
    }


def test_a_name_no_other_node_has_stays_as_it_is():
    names = {
        "https://x.org/id/institution/riken": "RIKEN",
        "https://x.org/id/institution/riken--aip": "RIKEN",
        "https://x.org/id/institution/kyoto-university": "Kyoto University",
    }
    assert distinct_labels(names) == {
        "https://x.org/id/institution/riken": "RIKEN (riken)",
        "https://x.org/id/institution/riken--aip": "RIKEN (riken--aip)",
        "https://x.org/id/institution/kyoto-university": "Kyoto University",
    }
