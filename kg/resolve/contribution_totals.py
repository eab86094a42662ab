"""The countries' and the answers' counts (:mod:`.list_lines`' ``country_papers``, :mod:`.answer_lines`' sets and
pairs) as totals of every paper's contribution (:func:`~.list_lines.contribution_line`), so that a pass over the
papers a change touches (:mod:`.touched_papers`) takes the old contributions of those papers off and adds their new
ones, instead of counting every paper's again.

The totals are kept in the remembered pass's folder (``totals``, JSON): papers per country, papers per (country,
person) (a country's authors are the people with one or more), papers per set of listed institutions, per pair of
top institutions and per pair of countries. A count that falls to 0 is dropped, so the totals are those a count of
every paper's contribution gives.
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Iterable, Iterator, Protocol


class Within(Protocol):
    """What each institution is directly a unit of (:class:`~.answer_lines.Within`): a top institution is one of
    none."""

    parents: dict[str, set[str]]


class ContributionTotals:
    """The totals above: :meth:`count` contribution lines in (or, ``sign`` -1, out), then read them."""

    def __init__(self, within: Within):
        self.within = within
        self.country_papers: Counter[str] = Counter()
        self.country_people: Counter[tuple[str, str]] = Counter()
        self.listed_sets: Counter[str] = Counter()
        self.institution_pairs: Counter[tuple[str, str]] = Counter()
        self.country_pairs: Counter[tuple[str, str]] = Counter()

    def count(self, lines: Iterable[str], sign: int = 1) -> None:
        """Each paper's contribution line added to the totals (``sign`` -1: taken off)."""
        for line in lines:
            listed, countries, there = json.loads(line.partition("\t")[2])  # each list in code-point order
            for country, people in there.items():
                self.country_papers[country] += sign
                for person in people:
                    self.country_people[(country, person)] += sign
            if listed:
                self.listed_sets[" ".join(listed)] += sign
                tops = [institution for institution in listed if not self.within.parents.get(institution)]
                for pair in combinations(tops, 2):
                    self.institution_pairs[pair] += sign
            for pair in combinations(countries, 2):
                self.country_pairs[pair] += sign

    def _counters(self) -> dict[str, Counter]:
        return {
            "country_papers": self.country_papers,
            "country_people": self.country_people,
            "listed_sets": self.listed_sets,
            "institution_pairs": self.institution_pairs,
            "country_pairs": self.country_pairs,
        }

    def country_lines(self) -> Iterator[str]:
        """``country<TAB>papers<TAB>authors`` of each country with authors, in code-point order."""
        authors = Counter(country for (country, _), n in self.country_people.items() if n)
        for country in sorted(authors):
            yield f"{country}\t{self.country_papers[country]}\t{authors[country]}\n"

    def write(self, path: Path) -> None:
        """The totals (none at 0) to ``path``."""
        kept = {
            name: sorted([*key, n] if isinstance(key, tuple) else [key, n] for key, n in counter.items() if n)
            for name, counter in self._counters().items()
        }
        path.write_text(json.dumps(kept, ensure_ascii=False), encoding="utf-8")

    def read(self, path: Path) -> ContributionTotals:
        """The totals written to ``path`` added to these."""
        kept = json.loads(path.read_text(encoding="utf-8"))
        for name, counter in self._counters().items():
            for *key, n in kept[name]:
                counter[key[0] if len(key) == 1 else tuple(key)] += n
        return self
