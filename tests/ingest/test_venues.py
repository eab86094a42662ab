"""The conference series table (``ontology/venues.tsv``), row by row, and the venues of BibTeX booktitles."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.ingest.comments import parse_publication
from kg.ingest.formats.bibtex import venue_facts
from kg.ingest.venues import SERIES, SERIES_TABLE, read_series

CASES = Path(__file__).with_name("venue_cases.tsv")


def _cases() -> list[list[str]]:
    lines = CASES.read_text(encoding="utf-8").splitlines()
    return [(line.split("\t") + [""] * 5)[:5] for line in lines if line and not line.startswith("#")]


@pytest.mark.parametrize("series", SERIES, ids=lambda row: row.acronym)
def test_every_name_of_a_series_names_it_with_its_year(series):
    for name in (series.acronym, *series.names):
        for written in (name, name.upper()) if not series.exact_case or name != series.acronym else (name,):
            info = parse_publication(f"Accepted at {written} 2031", None)
            assert (info.venue, info.year) == (series.acronym, 2031), written


@pytest.mark.parametrize("series", [row for row in SERIES if row.exact_case], ids=lambda row: row.acronym)
def test_an_acronym_of_everyday_text_names_its_series_only_as_written(series):
    # near miss: "www" of a web address, "rss" of a feed
    assert parse_publication(f"see {series.acronym.lower()} 2031", None).venue != series.acronym


@pytest.mark.parametrize("booktitle, year, venue, edition, track", _cases(), ids=lambda value: value[:40])
def test_a_booktitle_and_its_year_give_the_venue(booktitle, year, venue, edition, track):
    info = parse_publication(venue_facts({"booktitle": booktitle, "year": year}), None)
    assert (info.venue, info.year, info.track) == (venue or None, int(edition) if edition else None, track or None)


def test_a_malformed_table_line_names_its_file_and_line(tmp_path):
    table = tmp_path / "venues.tsv"
    table.write_text("# comment\nICML\tInternational Conference on Machine Learning\t\tsometimes\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"venues\.tsv:2: expected"):
        read_series(table)
    assert read_series(SERIES_TABLE) == SERIES
