"""Parameters bound as RDF terms (kg/stores/values.py): the case table in data/bound_queries.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import rdflib
from rdflib.util import from_n3

from kg.errors import KgError
from kg.stores.values import with_values

CASES = json.loads((Path(__file__).parent / "data" / "bound_queries.json").read_text(encoding="utf-8"))


def term(n3: str) -> rdflib.term.Identifier:
    """The case's term; an IRI rdflib would refuse to write is made as it comes."""
    return rdflib.URIRef(n3[1:-1]) if n3.startswith("<") else from_n3(n3)


@pytest.mark.parametrize("case", CASES, ids=[case["case"] for case in CASES])
def test_bound_query(case):
    bindings = {name: term(value) for name, value in case["bind"].items()}
    if "error" in case:
        with pytest.raises(KgError, match=case["error"]):
            with_values(case["query"], bindings)
    else:
        assert with_values(case["query"], bindings) == case["bound"]
