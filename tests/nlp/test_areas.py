"""A source's areas and categories as topics (kg.nlp.areas): the cases of area_cases.tsv, and the table's checks."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from kg.errors import KgError
from kg.nlp import analyse, areas
from kg.nlp.scheme import topic_scheme

CASES = Path(__file__).with_name("area_cases.tsv")
TITLE, ABSTRACT = "A Study of Looms", "We count the threads of looms and cards."


def _cases() -> list:
    with CASES.open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.reader(handle, delimiter="\t") if row and not row[0].startswith("#")]
    return [pytest.param(*row, id=f"{row[0]}-{row[2]}") for row in rows]


@pytest.mark.parametrize("keywords,topic,assigned,why", _cases())
def test_area_case(keywords, topic, assigned, why):
    slug = {c.label: c.slug for c in topic_scheme().concepts.values()}[topic]
    found = {t.slug for t in analyse(TITLE, ABSTRACT, None, keywords.split(";")).topics}
    assert (slug in found) == (assigned == "yes"), why


def test_every_area_names_a_concept_of_the_scheme():
    assert set(areas.source_areas().values()) <= set(topic_scheme().concepts)


def test_a_row_naming_no_concept_is_an_error_with_its_line(tmp_path, monkeypatch):
    table = tmp_path / "source-areas.tsv"
    table.write_text("# area\tconcept\ncs.CV\tcomputer vision\ncs.XX\tweaving\n", encoding="utf-8")
    monkeypatch.setattr(areas, "AREAS_FILE", table)
    areas.source_areas.cache_clear()
    try:
        with pytest.raises(KgError, match=r"source-areas.tsv:3: 'weaving' is not a concept"):
            areas.source_areas()
    finally:
        areas.source_areas.cache_clear()
