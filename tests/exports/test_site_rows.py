"""The site's query rows survive the spool to disk unchanged, in the order the merge needs, and
the panels sorted in Python come in the order their query's ORDER BY would give."""

from __future__ import annotations

import re

import pytest

from kg.exports.site import PAGES, _panel_rows, _sparql
from kg.exports.site_rows import rows, spool, unspooled

PANELS = {panel.query: panel for _, panels in PAGES.values() for panel in panels}
QUERIES = sorted(set(PANELS) | set(PAGES))  # identifiers: tests/exports/test_site_identifiers.py
SORTED_HERE = sorted(name for name, panel in PANELS.items() if panel.order is not None)


def as_strings(result) -> list[tuple]:
    return [tuple(None if value is None else str(value) for value in row) for row in result]


@pytest.mark.parametrize("name", QUERIES)
def test_spooled_rows_are_the_panel_rows_in_page_order(sample_store, tmp_path, name):
    sparql = _sparql(name)
    read = _panel_rows(sample_store, PANELS[name]) if name in PANELS else rows(sample_store, sparql)
    expected = [tuple(row) for row in read]
    assert expected, f"{name} has no rows on the samples: the comparison would prove nothing"
    back = list(unspooled(sparql, spool(expected, tmp_path / f"{name}.jsonl")))
    assert [tuple(row) for row in back] == expected
    assert [row.page for row in back] == sorted(row.page for row in back)  # merged() reads them in this order


@pytest.mark.parametrize("name", SORTED_HERE)
def test_python_order_is_the_order_by_the_query_names(sample_store, name):
    sparql = _sparql(name)
    assert "ORDER BY" not in re.sub(r"#.*", "", sparql)  # sorted once, here: Oxigraph's sort is the slow part
    order_by = re.search(r"as (ORDER BY .*) would", sparql).group(1)
    expected = as_strings(sample_store.query(sparql + order_by + "\n"))
    assert as_strings(_panel_rows(sample_store, PANELS[name])) == expected


def test_unbound_values_and_other_scripts_come_back_as_they_were(sample_store, tmp_path):
    sparql = _sparql("topic-papers")  # papers without an English title: ?title unbound
    back = list(unspooled(sparql, spool(rows(sample_store, sparql), tmp_path / "papers.jsonl")))
    assert any(row.title is None for row in back) and any(row.title for row in back)
    sparql = _sparql("author-coauthors")
    back = list(unspooled(sparql, spool(rows(sample_store, sparql), tmp_path / "coauthors.jsonl")))
    assert [row.name for row in back] == [row.name for row in rows(sample_store, sparql)]
    assert any(not row.name.isascii() for row in back)  # the samples have names in other scripts
