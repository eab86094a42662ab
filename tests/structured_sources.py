"""Helpers shared by the tests of the structured formats: the real paperlists data beside the
repository (skipped when absent), a file's records as a format reads them, and what a store says
about papers and their bylines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval.realdata import realdata_dir
from kg.ingest.formats import read_source
from kg.records import PaperRecord, Rejection
from kg.vocab import sparql_prologue

REALDATA = realdata_dir().resolve()
CONFERENCES = ("aistats2025", "corl2024")


def realdata(name: str) -> Path:
    path = REALDATA / name
    if not path.is_file():
        pytest.skip(f"real data: no {path} (the folder is ../shared/realdata beside the repository, or $KG_REALDATA)")
    return path


def truth(conference: str) -> dict:
    return json.loads(realdata(f"{conference}_truth.json").read_text(encoding="utf-8"))


def entries(conference: str) -> list[dict]:
    return json.loads(realdata(f"{conference}.json").read_text(encoding="utf-8"))


def listing_file(folder: Path, text: str, name: str = "conf2025.json") -> Path:
    """A file of that text in the folder (named as a conference's list, unless named otherwise)."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def read_records(path: Path, format_name: str | None = None) -> tuple[list[PaperRecord], list[Rejection], str]:
    """The records and rejections read from a file, and the format it was read as (detected unless named)."""
    source, items = read_source(path, path.name, format_name)
    items = list(items)
    return (
        [i for i in items if isinstance(i, PaperRecord)],
        [i for i in items if isinstance(i, Rejection)],
        source.format,
    )


def bylines(store) -> dict[str, list[str]]:
    """English title -> names as written, in byline order."""
    rows = store.query(
        sparql_prologue()
        + """
        SELECT ?title ?position ?written WHERE {
          ?paper dcterms:title ?title FILTER(lang(?title) = "en")
          ?paper kg:authorship ?a . ?a kg:position ?position ; kg:nameAsWritten ?written }"""
    )
    found: dict[str, dict[int, str]] = {}
    for title, position, written in rows:
        found.setdefault(str(title), {})[int(position)] = str(written)
    return {title: [names[i] for i in sorted(names)] for title, names in found.items()}


def paperlists_entry(title: str, people: list[tuple[str, str]]) -> dict:
    """A paperlists record of a paper; people: (name, affiliation), each with an OpenReview profile."""
    return {
        "title": title,
        "author": ";".join(p[0] for p in people),
        "authorids": ";".join("~" + p[0].replace(" ", "_") + "1" for p in people),
        "aff": ";".join(p[1] for p in people),
        "status": "Poster",
        "track": "main",
    }


def placed(store) -> dict[str, str]:
    """Organisation -> the organisation it is placed under (org:subOrganizationOf), by IRI's last segment."""
    rows = store.query(sparql_prologue() + "SELECT ?unit ?parent WHERE { ?unit org:subOrganizationOf ?parent }")
    return {str(unit).rsplit("/", 1)[-1]: str(parent).rsplit("/", 1)[-1] for unit, parent in rows}
