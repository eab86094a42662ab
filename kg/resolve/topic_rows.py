"""The twin of ``queries/topic-papers.rq`` (:mod:`.list_rows` says what a twin is): the lists of every topic with
enough papers at once, where the query ran once per topic, joining every assignment below it again.

A topic's rows are made of its papers' topic assignments (the topic detail graphs: the topic found, its weight and
the words that matched), which the counts' pass does not see: they are read from the store in one scan, only
those of the topics below the listed ones (``skos:broader*``, the scheme read once), each assignment once
whichever listed topics it is below. The papers' display titles come from the file the counts' pass writes
(:func:`~.artifact_rows.display_titles_of`).
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Iterable, Iterator

import pyoxigraph as ox

from ..vocab import sparql_prologue
from .artifact_rows import display_titles_of
from .list_lines import TwinFiles
from .list_rows import Ranked, Row

_BROADER = sparql_prologue() + "SELECT ?narrower ?broader WHERE { ?narrower skos:broader ?broader }"
# The assignments of the topics found (VALUES_BLOCK: ?found), as the query joins them.
_ASSIGNMENTS = (
    sparql_prologue()
    + """SELECT ?found ?paper ?weight ?evidence WHERE { VALUES_BLOCK
  ?assignment kg:topic ?found ; kg:weight ?weight ; kg:matchedLabel ?evidence .
  ?paper kg:topicAssignment ?assignment }"""
)


def _below(store, topics: list[str]) -> dict[str, set[str]]:
    """Each topic found below one of ``topics`` (``?found skos:broader* ?topic``: itself included) -> those topics."""
    narrower: dict[str, set[str]] = defaultdict(set)
    for below, above in store.select_terms(_BROADER):
        narrower[above.value].add(below.value)
    found: dict[str, set[str]] = defaultdict(set)
    for topic in topics:
        seen, todo = {topic}, [topic]
        while todo:
            for below in narrower.get(todo.pop(), ()):
                if below not in seen:
                    seen.add(below)
                    todo.append(below)
        for below in seen:
            found[below].add(topic)
    return found


class _Group:
    """A topic's paper: its largest weight (the term, and its value) and the words that matched."""

    __slots__ = ("weight", "value", "words")

    def __init__(self):
        self.weight, self.value, self.words = None, None, set()

    def add(self, weight: ox.Literal, word: str) -> None:
        value = Decimal(weight.value)
        if self.value is None or value > self.value:
            self.weight, self.value = weight, value
        self.words.add(word)


class TopicPapers:
    """The twin of ``queries/topic-papers.rq``: per topic, each paper with an assignment of the topic or of one
    below it, with each of its display titles (unbound where it has none), its largest weight and its matched
    words, distinct, in code-point order; strongest first, then by title (a paper without one first), then IRI."""

    digest = "54f368be3209d2f4"  # of the query text the rows were checked against (tests/query/test_twins.py)
    variables = ("paper", "title", "weight", "matched")

    def lists(self, store, rows: TwinFiles, entities: Iterable[str]) -> Iterator[tuple[str, Ranked]]:
        """(entity, its rows in the query's order) for each of ``entities``, in code-point order of IRI."""
        wanted = sorted(set(entities))
        if not wanted:
            return
        above = _below(store, wanted)
        groups: dict[str, dict[str, _Group]] = {topic: {} for topic in wanted}
        values = "VALUES ?found { " + " ".join(str(ox.NamedNode(topic)) for topic in sorted(above)) + " }"
        for found, paper, weight, word in store.select_terms(_ASSIGNMENTS.replace("VALUES_BLOCK", values)):
            for topic in above[found.value]:
                group = groups[topic].get(paper.value)
                if group is None:
                    group = groups[topic][paper.value] = _Group()
                group.add(weight, word.value)
        titles = display_titles_of(rows, {paper for papers in groups.values() for paper in papers})
        for topic in wanted:
            made = [
                ((-group.value, "" if title is None else "\0" + title[0], paper), (paper, title, group))
                for paper, group in groups.pop(topic).items()
                for title in titles.get(paper) or [None]
            ]
            made.sort(key=lambda row: row[0])
            yield topic, Ranked([row for _, row in made], _terms)


def _terms(row: tuple) -> Row:
    paper, title, group = row
    return (
        ox.NamedNode(paper),
        None if title is None else ox.Literal(title[0], language=title[1] or None),
        group.weight,
        ox.Literal(", ".join(sorted(group.words))),
    )


TOPIC_PAPERS = TopicPapers()
