"""Case tables: tab-separated data files that one parametrised test reads, a case a row."""

from __future__ import annotations

import csv
from pathlib import Path


def case_rows(path: Path) -> list[dict[str, str]]:
    """The rows of a case table by the names of its header line; a line that begins with '#' is a
    comment, and quotes are characters of the case like any other."""
    with path.open(encoding="utf-8") as lines:
        return list(
            csv.DictReader((line for line in lines if not line.startswith("#")), delimiter="\t", quoting=csv.QUOTE_NONE)
        )
