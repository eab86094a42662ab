"""The rows of precomputed lists (:mod:`kg.query.precompute`), made from what the resolution step has in hand.

A list of a query about an entity is the query's answer for each entity with enough papers. Run once per
entity, the query reads the whole graph's names each time; the resolution step's one pass over every paper's
facts (:mod:`.aggregates`) has already counted what the answer is made of, so a *twin* of the query makes
every entity's rows at once from those counts and the display names the step chose (:mod:`.name_lists`):
the same RDF terms, in the query's ``ORDER BY`` order (ties included: plain strings compare by code point in
SPARQL as in Python), and as many.

A twin is pinned to the :func:`kg.query.rankings.digest` of the query text it was checked against
(``tests/query/test_twins.py`` compares its rows with the query's own); the query library serves a twin's
rows only while the query's digest is still that one, and runs the query otherwise.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

import pyoxigraph as ox

from ..stores.ordering import grouped_lines
from ..vocab import XSD
from .aggregates import rewound, spool
from .name_lists import named_lines

Row = tuple[ox.NamedNode | ox.Literal, ...]


@dataclass(frozen=True)
class ListRows:
    """The files a resolution left for the twins, alive until the step's last write (its ``finish``):
    ``institution_authors``: ``institution<TAB>author<TAB>papers`` lines in code-point order
    (:func:`~.aggregates.aggregate_triples`); ``person_names``: the people's display names
    (:func:`~.name_lists.person_name_line`, in IRI order of person); ``scratch``: where sorts spill."""

    institution_authors: Path
    person_names: Path
    scratch: Path | None = None


def _integer(n: int) -> ox.Literal:
    return ox.Literal(str(n), datatype=XSD.integer)


class InstitutionAuthors:
    """The twin of ``queries/institution-authors.rq``: per institution, each author of a paper that lists it
    or one of its units (``kg:withinInstitution``) and has a display name, with the smallest of its names and
    its number of such papers; most papers first, then by name, then by IRI."""

    name = "institution-authors"
    digest = "7d72e9446f6337b9"  # of the query text the rows were checked against (tests/query/test_twins.py)
    variables = ("author", "name", "papers")

    def lists(self, rows: ListRows, entities: Iterable[str]) -> Iterator[tuple[str, list[Row]]]:
        """(entity, its rows in the query's order) for each of ``entities``, in code-point order of IRI."""
        wanted = sorted(set(entities))
        chosen = set(wanted)
        with (
            tempfile.TemporaryDirectory(prefix="kg-list-rows-", dir=rows.scratch) as folder,
            spool(folder, "by-author") as by_author,
            spool(folder, "named") as named,
            open(rows.institution_authors, encoding="utf-8") as counted,
        ):
            for line in counted:
                institution, author, papers = line[:-1].split("\t")
                if institution in chosen:
                    by_author.write(f"{author}\t{institution}\t{papers}\t{author}\n")  # the author kept past the join
            for rest, name in named_lines(rewound(by_author), rows.person_names, rows.scratch):
                institution, papers, author = rest.split("\t")
                named.write(f"{institution}\t{papers}\t{name}\t{author}\n")
            groups = grouped_lines(rewound(named), rows.scratch)
            group = next(groups, None)
            for entity in wanted:
                while group is not None and group[0] < entity:
                    group = next(groups, None)
                found = group[1] if group is not None and group[0] == entity else []
                yield entity, _ordered(found)


def _ordered(lines: list[str]) -> list[Row]:
    """One institution's ``papers<TAB>name (JSON)<TAB>author`` lines as the query's rows: an author's smallest
    name, most papers first, then name, then IRI."""
    smallest: dict[str, tuple[int, str]] = {}
    for line in lines:
        papers, name, author = line.split("\t")
        text = json.loads(name)
        if author not in smallest or text < smallest[author][1]:
            smallest[author] = (int(papers), text)
    ordered = sorted(smallest.items(), key=lambda item: (-item[1][0], item[1][1], item[0]))
    return [(ox.NamedNode(author), ox.Literal(name), _integer(papers)) for author, (papers, name) in ordered]


INSTITUTION_AUTHORS = InstitutionAuthors()
