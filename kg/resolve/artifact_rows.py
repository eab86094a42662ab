"""The twin of ``queries/artifacts.rq`` (:mod:`.list_rows` says what a twin is): its one answer made from what the
resolution step has in hand, not by the engine's join and sort of every introduced artifact's row.

Three files the step writes feed it, in code-point order of paper or artifact (:class:`~.list_lines.TwinFiles`):

- ``paper_titles``, written by the counts' pass over every paper's facts (:func:`paper_titles_line`): a line per
  paper with a display title or an artifact, the artifacts it introduces and its display titles as that pass
  makes them (``kg:displayTitle``; the twin of ``topic-papers`` reads them too, :func:`display_titles_of`);
- ``name_lists``: a line per paper that introduces an artifact, its ``kg:authorNames`` and
  ``kg:institutionNames`` as the index graph keeps them (:func:`kept_name_lists`);
- ``artifact_names``, written by the same pass (:class:`TwinLines`): each introduced artifact's classes and names
  (the side rows' :data:`~kg.rdf.side_rows.ARTIFACT_NAME` and :data:`~kg.rdf.side_rows.ARTIFACT_CLASS` facts, or
  read back with the other facts, as the union of every source's).
"""

from __future__ import annotations

import json
import os
import shutil
from contextlib import ExitStack
from pathlib import Path
from typing import Iterable, Iterator

import pyoxigraph as ox

from ..rdf.side_rows import ARTIFACT_CLASS, ARTIFACT_NAME
from ..vocab import KG_NS
from .list_lines import JSON_SEPARATOR, TwinFiles
from .list_rows import Ranked, Row
from .name_lists import name_list_line


def paper_titles_line(paper: str, own: dict[str, set[str]], titles: list[tuple[str, str]]) -> str:
    """``paper<TAB>artifacts, space-separated<TAB>its display titles`` (each ``[text, language]`` as JSON, between
    :data:`~.list_lines.JSON_SEPARATOR`) of a paper with a display title or an artifact, else ""; ``titles``: its
    display titles, (text, language or "") (:func:`~.aggregates.display_titles`)."""
    if not own["introduces"] and not titles:
        return ""
    shown = JSON_SEPARATOR.join(json.dumps([text, language]) for text, language in titles)
    return f"{paper}\t{' '.join(sorted(own['introduces']))}\t{shown}\n"


class TwinLines:
    """The files the counts' pass writes for the twins, ``paths`` of the papers' titles and the artifacts' names
    (none without): :meth:`add` each paper's facts (and each artifact's: ``own`` of a subject that is an artifact
    holds its names and classes)."""

    def __init__(self, paths: tuple[Path, Path] | None):
        self._files = ExitStack()
        paths = paths or (os.devnull, os.devnull)
        self.titles, self.names = (self._files.enter_context(open(path, "w", encoding="utf-8")) for path in paths)

    def __enter__(self) -> TwinLines:
        return self

    def __exit__(self, *exc) -> None:
        self._files.close()

    def add(self, subject: str, own: dict[str, set[str]], titles: list[tuple[str, str]]) -> None:
        """A paper's line (:func:`paper_titles_line`), or an artifact's ``artifact<TAB>class<TAB>name`` lines."""
        self.titles.write(paper_titles_line(subject, own, titles))
        named = sorted(own[ARTIFACT_NAME])
        self.names.write(
            "".join(f"{subject}\t{kind}\t{name}\n" for kind in sorted(own[ARTIFACT_CLASS]) for name in named)
        )


def kept_name_lists(lists: Iterable[tuple[str, list[str]]], path: Path, rows: TwinFiles) -> None:
    """The papers' name lists (:func:`~.name_list_memo.made_lists`) written to ``path`` as the index graph keeps
    them (:func:`~.name_lists.name_list_line`), and copied to ``rows.name_lists``."""
    with open(path, "w", encoding="utf-8") as kept:
        kept.writelines(name_list_line(paper, listed) for paper, listed in lists)
    shutil.copyfile(path, rows.name_lists)


def _labels(rows: TwinFiles) -> dict[str, list[tuple[ox.Literal, str]]]:
    """artifact -> each (name, type) it has: ``LCASE(STRAFTER(STR(?class), STR(kg:)))`` of a kg class."""
    labels: dict[str, list[tuple[ox.Literal, str]]] = {}
    with open(rows.artifact_names, encoding="utf-8") as lines:
        for line in lines:
            artifact, kind, name = line[:-1].split("\t")
            if kind.startswith(KG_NS):
                text, language = json.loads(name)
                named = ox.Literal(text, language=language or None)
                labels.setdefault(artifact, []).append((named, kind[len(KG_NS) :].lower()))
    return labels


def _titles(field: str) -> list[list[str]]:
    return [json.loads(title) for title in field.split(JSON_SEPARATOR)] if field else []


def display_titles_of(rows: TwinFiles, papers: set[str]) -> dict[str, list[list[str]]]:
    """Each of ``papers`` with a display title -> its display titles, ``[text, language]``."""
    with open(rows.paper_titles, encoding="utf-8") as lines:
        split = (line[:-1].split("\t") for line in lines)
        return {paper: _titles(titles) for paper, _, titles in split if paper in papers}


def paper_lines(rows: TwinFiles) -> Iterator[tuple[str, str, str]]:
    """(paper, its line of artifacts and display titles, its line of name lists) of each paper that introduces an
    artifact, from the two files read side by side (the same papers, in the same order)."""
    with open(rows.paper_titles, encoding="utf-8") as papers, open(rows.name_lists, encoding="utf-8") as names:
        for line in papers:
            paper, artifacts, _ = line.split("\t", 2)
            if artifacts:
                named = next(names)
                if (same := named.partition("\t")[0]) != paper:
                    raise ValueError(f"the name lists of {same} beside the artifacts of {paper}")
                yield paper, line, named


def parsed_paper(line: str, named: str) -> tuple[str, list[str], list[list[str]], str, str]:
    """(paper, its artifacts, its display titles ``[text, language]``, authors, institutions) of its two lines."""
    paper, artifacts, titles = line[:-1].split("\t")
    _, authors, institutions = named[:-1].split("\t")
    return paper, artifacts.split(" "), _titles(titles), json.loads(authors), json.loads(institutions)


def _papers(rows: TwinFiles) -> Iterator[tuple[str, list[str], list[list[str]], str, str]]:
    """Each paper that introduces an artifact, parsed (:func:`parsed_paper`)."""
    return (parsed_paper(line, named) for _, line, named in paper_lines(rows))


class Artifacts:
    """The twin of ``queries/artifacts.rq`` (one answer): each artifact a paper introduces, with each of its names
    and kg classes (lower-cased local name), each display title of the paper (unbound where it has none) and its
    two name lists; by type, lower-cased name, title's text (a paper without one first), artifact, paper, name,
    title's language, authors and institutions."""

    digest = "0498abf90fb54bd3"  # of the query text the rows were checked against (tests/query/test_twins.py)
    variables = ("artifact", "name", "type", "paper", "title", "authors", "institutions")

    def answer(self, store, rows: TwinFiles) -> Ranked:
        """The query's rows, in its order."""
        labels = _labels(rows)
        keyed: dict[tuple, Row] = {}
        for paper in _papers(rows):
            keyed.update(paper_rows(paper, labels))
        return Ranked([keyed[key] for key in sorted(keyed)], _terms)  # a list keeps its first rows: terms made then


def paper_rows(paper: tuple, labels: dict[str, list[tuple[ox.Literal, str]]]) -> dict[tuple, Row]:
    """A paper's rows (:func:`_papers`' ``(paper, artifacts, titles, authors, institutions)``), each by its sort
    key: the query's order, and one row of the query's ``DISTINCT`` (a paper's alone: its IRI is in the key)."""
    iri, artifacts, titles, authors, institutions = paper
    keyed: dict[tuple, Row] = {}
    for artifact in artifacts:
        for name, kind in labels.get(artifact, ()):
            for title in titles or [None]:
                text, language = ("", "") if title is None else title
                shown = (0,) if title is None else (1, text)
                key = (kind, name.value.lower(), shown, artifact, iri, name.value, language)
                keyed[key + (authors, institutions)] = (artifact, name, kind, iri, title, authors, institutions)
    return keyed


def _terms(row: Row) -> Row:
    artifact, name, kind, paper, title, authors, institutions = row
    return (
        ox.NamedNode(artifact),
        name,
        ox.Literal(kind),
        ox.NamedNode(paper),
        None if title is None else ox.Literal(title[0], language=title[1] or None),
        ox.Literal(authors),
        ox.Literal(institutions),
    )


ARTIFACTS = Artifacts()
