"""A source's own subject fields as topics: ``ontology/source-areas.tsv`` maps a conference's primary
area and arXiv categories to concepts of the scheme.

These are the strongest evidence a paper carries: the authors chose the area when they submitted it.
A keyword that is such a value whole ("cs.CV", "reinforcement_learning") is a keyword mention of its
concept; no context rule applies to it (a category is no acronym of running text).
"""

from __future__ import annotations

import csv
from functools import lru_cache
from typing import Iterable

from .. import ONTOLOGY_DIR
from ..errors import KgError
from .scheme import topic_scheme
from .topics import Mention

AREAS_FILE = ONTOLOGY_DIR / "source-areas.tsv"


def area_key(value: str) -> str:
    """An area as compared: lower case, underscores as spaces, one space between words."""
    return " ".join(value.replace("_", " ").lower().split())


@lru_cache(maxsize=1)
def source_areas() -> dict[str, str]:
    """Area keys -> concept slugs, each concept checked against the scheme."""
    slug_of = {c.label: c.slug for c in topic_scheme().concepts.values()}
    areas: dict[str, str] = {}
    with AREAS_FILE.open(encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.reader(handle, delimiter="\t"), 1):
            if not row or row[0].startswith("#"):
                continue
            if len(row) != 2:
                raise KgError(f"{AREAS_FILE}:{number}: {len(row)} fields, expected 2")
            area, concept = (field.strip() for field in row)
            if concept not in slug_of:
                raise KgError(f"{AREAS_FILE}:{number}: {concept!r} is not a concept of the scheme")
            areas[area_key(area)] = slug_of[concept]
    return areas


def area_mentions(keywords: Iterable[str]) -> list[Mention]:
    """The topics a paper's keywords name as its source's areas or categories."""
    areas = source_areas()
    return [Mention(areas[area_key(k)], k) for k in keywords if area_key(k) in areas]
