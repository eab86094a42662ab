"""The names ``artifacts`` shows beside each paper that introduces an artifact, precomputed.

On each such paper, ``kg:authorNames`` and ``kg:institutionNames``: its authors' display names and
its institutions' English names, each list distinct, in code-point order and joined by "; " ("" for
none). They are made from what the counts' pass over the papers' facts wrote of those papers
(:func:`~.aggregates.introducing_lines`) and the people's display names the resolution step has just
chosen (:func:`person_name_line`, one file in IRI order of person), joined on disk, so that no name is
read back from the store but the institutions' (a few thousand at most, some chosen by this run).
"""

from __future__ import annotations

import json
import tempfile
from itertools import groupby
from pathlib import Path
from typing import Iterable, Iterator

import pyoxigraph as ox

from ..stores.ordering import grouped_lines, rewound, spool
from ..vocab import KG, sparql_prologue

_LISTS = (KG.authorNames, KG.institutionNames)  # the index of each in a name line
_INSTITUTION_NAMES = (
    sparql_prologue()
    + """SELECT DISTINCT ?entity ?name WHERE {
  { SELECT DISTINCT ?entity WHERE { ?listed schema:sourceOrganization ?entity } }
  ?entity skos:prefLabel ?name FILTER(lang(?name) = "en") }"""
)


def person_name_line(person: str, name: str) -> str:
    r"""One display name of a person, as a line of the file :func:`name_lists` reads.

    >>> person_name_line("http://ex/author/ada", "Ada Lovelace")
    'http://ex/author/ada\t"Ada Lovelace"\n'
    """
    return f"{person}\t{json.dumps(name)}\n"


def _author_name_lines(creators: Iterable[str], person_names: Path, scratch: Path | None) -> Iterator[str]:
    """``paper<TAB>0<TAB>name`` for each ``creator<TAB>paper`` line's display names: both streams in IRI
    order of the person, merged."""
    with open(person_names, encoding="utf-8") as lines:
        named = groupby(lines, key=lambda line: line.partition("\t")[0])
        person, names = next(named, (None, iter(())))
        for creator, papers in grouped_lines(creators, scratch):
            while person is not None and person < creator:
                person, names = next(named, (None, iter(())))
            if person == creator:
                names = list(names)
                yield from (f"{paper}\t0\t{line[len(person) + 1 : -1]}\n" for paper in papers for line in names)


def institution_names(store) -> dict[str, list[str]]:
    """Each listed institution's English display names (JSON), as the name lists show them."""
    institutions: dict[str, list[str]] = {}
    for entity, name in store.select_terms(_INSTITUTION_NAMES):
        institutions.setdefault(entity.value, []).append(json.dumps(name.value))
    return institutions


def name_lists(
    introducing: Path, person_names: Path, institutions: dict[str, list[str]], scratch: Path | None
) -> Iterator[tuple[str, list[str]]]:
    """Each paper of ``introducing`` in code-point order of IRI, with its lists (authors', institutions')."""
    with (
        tempfile.TemporaryDirectory(prefix="kg-name-lists-", dir=scratch) as folder,
        spool(folder, "creators") as creators,
        spool(folder, "names") as named,
        open(introducing, encoding="utf-8") as papers,
    ):
        for line in papers:
            paper, kind, entity = (line[:-1].split("\t") + [""])[:3]
            if not kind:
                named.write(f"{paper}\t\n")
            elif kind == "author":
                creators.write(f"{entity}\t{paper}\n")
            else:
                named.writelines(f"{paper}\t1\t{name}\n" for name in institutions.get(entity, ()))
        named.writelines(_author_name_lines(rewound(creators), person_names, scratch))
        for paper, rows in grouped_lines(rewound(named), scratch):
            names: list[set[str]] = [set() for _ in _LISTS]
            for row in rows:
                if row:
                    index, name = row.split("\t", 1)
                    names[int(index)].add(json.loads(name))
            yield paper, joined(names)


def joined(names: list[set[str]]) -> list[str]:
    """Each list's names distinct, in code-point order, joined by "; "."""
    return ["; ".join(sorted(listed)) for listed in names]


def list_triples(paper: str, lists: list[str]) -> Iterator[ox.Triple]:
    return (ox.Triple(ox.NamedNode(paper), predicate, ox.Literal(listed)) for predicate, listed in zip(_LISTS, lists))


def name_list_line(paper: str, lists: list[str]) -> str:
    r"""A paper's lists as a line of the file the index graph keeps them in (:mod:`.graph_memo`) and the twin of
    ``artifacts`` reads (:mod:`.artifact_rows`): ``paper<TAB>authors (JSON)<TAB>institutions (JSON)``.

    >>> name_list_line("http://ex/paper/1", ["Ada Lovelace", ""])
    'http://ex/paper/1\t"Ada Lovelace"\t""\n'
    """
    return "\t".join([paper, *(json.dumps(listed) for listed in lists)]) + "\n"


def name_list_line_triples(line: str) -> Iterator[ox.Triple]:
    """The triples of a :func:`name_list_line`."""
    paper, *lists = line[:-1].split("\t")
    return list_triples(paper, [json.loads(listed) for listed in lists])
