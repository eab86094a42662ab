"""The well-known conference series, read from ``ontology/venues.tsv``, and where a text names one.

A series is named by its acronym, a full name or a former name ("NIPS" is NeurIPS, "THE WEB
CONFERENCE" is WWW); the year of the edition is the one written beside the name: after it
("ICML 2024", "IJCAI-23", "… Linguistics (Volume 1: Long Papers) 2024", as a BibTeX booktitle
and its year read), else just before it ("the 2024 Conference of the North American Chapter …").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .. import ONTOLOGY_DIR

SERIES_TABLE = ONTOLOGY_DIR / "venues.tsv"


@dataclass(frozen=True, slots=True)
class Series:
    acronym: str
    full_names: tuple[str, ...]
    former_names: tuple[str, ...]
    exact_case: bool  # the acronym names the series only written as the table writes it

    @property
    def names(self) -> tuple[str, ...]:
        """Every name but the acronym, the current ones first."""
        return self.full_names + self.former_names


def read_series(path: Path) -> list[Series]:
    """The table's rows; a malformed line is an error naming the file and line."""
    series = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = (line.split("\t") + ["", "", ""])[:4]
        if len(line.split("\t")) > 4 or not fields[0].strip() or fields[3].strip() not in ("", "exact"):
            raise ValueError(f"{path}:{number}: expected acronym<TAB>full names<TAB>former names<TAB>case")
        full, former = ([name.strip() for name in field.split("|") if name.strip()] for field in fields[1:3])
        series.append(Series(fields[0].strip(), tuple(full), tuple(former), fields[3].strip() == "exact"))
    return series


SERIES = read_series(SERIES_TABLE)
VENUES: dict[str, tuple[str, ...]] = {row.acronym: row.names for row in SERIES}
CANONICAL = {name.casefold(): row.acronym for row in SERIES for name in (row.acronym, *row.names)}


def _alternative(row: Series, name: str) -> tuple[int, str]:
    written = re.escape(name).replace(r"\ ", r"\s+")
    return len(name), f"(?-i:{written})" if name == row.acronym and row.exact_case else written


NAMES = "|".join(
    alt
    for _, alt in sorted(
        (_alternative(row, name) for row in SERIES for name in (row.acronym, *row.names)), key=lambda pair: -pair[0]
    )
)
# a name, not a word of a web address ("www.example.org"); its year after it: " 2024", "'25", "-23",
# never two digits after a space ("Advances in Neural Information Processing Systems 30" is a volume)
NAMED = re.compile(rf"\b({NAMES})\b(?!\.\w)(?:\s*(?:'|’|-)?\s*(\d{{4}}|(?<=[^\s])\d{{2}}\b))?", re.IGNORECASE)
YEAR = re.compile(r"\b(19[5-9]\d|20\d\d)\b")
YEAR_REACH = 40  # how far after a conference's name, brackets aside, its year may stand ("ICML, July 2026")
_BRACKETS = re.compile(r"\([^()]*\)|\{[^{}]*\}")
# the edition's year before the name, with at most two words between ("2022 IEEE/RSJ International
# Conference …", "the 2024 Conference of …")
_YEAR_BEFORE = re.compile(r"\b(19[5-9]\d|20\d\d)\s+(?:[A-Z][\w/\-]*\s+){0,2}$")


def canonical(name: str) -> str:
    """The acronym of a name the table lists (any case)."""
    return CANONICAL[" ".join(name.split()).casefold()]


def year_after(text: str, end: int) -> str | None:
    """The year written after a name, within :data:`YEAR_REACH` characters once bracketed parts
    without a year are left out ("(Volume 1: Long Papers)")."""
    window = _BRACKETS.sub(
        lambda part: part.group(0) if YEAR.search(part.group(0)) else " ", text[end : end + 3 * YEAR_REACH]
    )
    after = YEAR.search(window[:YEAR_REACH])
    return after.group(1) if after else None


def year_before(text: str, start: int) -> str | None:
    before = _YEAR_BEFORE.search(text[max(0, start - YEAR_REACH) : start])
    return before.group(1) if before else None


def full_year(year: str) -> int:
    return int("20" + year if len(year) == 2 else year)


def known_venue(text: str) -> tuple[str | None, int | None]:
    """The first series of the table the text names, with the year of the first of its mentions
    that has one; (None, None) where it names none."""
    venue = None
    for match in NAMED.finditer(text):
        acronym = canonical(match.group(1))
        if venue not in (None, acronym):
            continue
        venue = acronym
        year = match.group(2) or year_after(text, match.end()) or year_before(text, match.start())
        if year is not None:
            return venue, full_year(year)
    return venue, None
