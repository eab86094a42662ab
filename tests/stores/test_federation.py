"""Which queries `kg serve` refuses as federated: SERVICE found in the parse tree, not in the text."""

from __future__ import annotations

from pathlib import Path

import pytest
from case_tables import case_rows

from kg.stores.federation import federation_refusal

QUERIES = Path(__file__).parent.parent / "data" / "federation_queries.tsv"


def _queries() -> list:
    return [pytest.param(row["query"], row["refused"] == "yes", id=row["query"][:60]) for row in case_rows(QUERIES)]


@pytest.mark.parametrize(("query", "refused"), _queries())
def test_service_is_refused_wherever_it_stands_and_only_there(query, refused):
    message = federation_refusal(query)
    assert (message is not None) == refused
    if refused:
        assert message.startswith("SPARQL query refused:") and "--allow-federation" in message
