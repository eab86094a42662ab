"""The site's query rows survive the spool to disk unchanged, and in the order the merge needs."""

from __future__ import annotations

import pytest

from kg.exports.site import PAGES, _sparql
from kg.exports.site_rows import rows, spool, unspooled

QUERIES = sorted({panel.query for _, panels in PAGES.values() for panel in panels} | set(PAGES))  # identifiers: tests/test_site_identifiers.py


@pytest.mark.parametrize("name", QUERIES)
def test_spooled_rows_are_the_query_rows_in_order(sample_store, tmp_path, name):
    sparql = _sparql(name)
    expected = [tuple(None if value is None else str(value) for value in row) for row in sample_store.query(sparql)]
    assert expected, f"{name} has no rows on the samples: the comparison would prove nothing"
    back = list(unspooled(sparql, spool(sample_store, sparql, tmp_path / f"{name}.jsonl")))
    assert [tuple(row) for row in back] == expected
    assert [row.page for row in back] == sorted(row.page for row in back)  # merged() reads them in this order


def test_unbound_values_and_other_scripts_come_back_as_they_were(sample_store, tmp_path):
    sparql = _sparql("topic-papers")  # papers without an English title: ?title unbound
    back = list(unspooled(sparql, spool(sample_store, sparql, tmp_path / "papers.jsonl")))
    assert any(row.title is None for row in back) and any(row.title for row in back)
    sparql = _sparql("author-coauthors")
    back = list(unspooled(sparql, spool(sample_store, sparql, tmp_path / "coauthors.jsonl")))
    assert [row.name for row in back] == [row.name for row in rows(sample_store, sparql)]
    assert any(not row.name.isascii() for row in back)  # the samples have names in other scripts
