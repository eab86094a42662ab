"""The twin of ``queries/topic-papers.rq`` (:mod:`.list_rows` says what a twin is): the lists of every topic with
enough papers at once, where the query ran once per topic, joining every assignment below it again.

A topic's rows are made of its papers' topic assignments (the topic detail graphs: the topic found, its weight and
the words that matched), which the counts' pass does not see: they are read from the store in one scan, only
those of the topics below the listed ones (``skos:broader*``, the scheme read once), each assignment once
whichever listed topics it is below. The papers' display titles come from the file the counts' pass writes
(:func:`~.artifact_rows.display_titles_of`).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path
from typing import Iterable, Iterator

import pyoxigraph as ox

from ..rdf.terms import literal, minted
from ..vocab import KG, sparql_prologue
from .artifact_rows import display_titles_of
from .kept_rows import quad_count, side_folder, stamp
from .list_lines import JSON_SEPARATOR, TwinFiles
from .list_rows import Ranked, Row
from .staged_rows import detail_graph_iri
from .topic_store import Inexact, Made, TopicStore, remembered_topic_rows

_SOURCED = (
    "SELECT DISTINCT ?g ?paper WHERE { VALUES_BLOCK GRAPH ?g { ?paper <%s> ?assignment } }" % KG.topicAssignment.value
)
# the papers the paper merges name: renamed in a graph (and its detail graph) that no change of sources touches
_MERGED = (
    sparql_prologue()
    + "SELECT ?canonical ?absorbed WHERE { ?merge a kg:PaperMerge ; kg:mergedInto ?canonical ; kg:absorbed ?absorbed }"
)
_BROADER = sparql_prologue() + "SELECT ?narrower ?broader WHERE { ?narrower skos:broader ?broader }"
# The assignments of the topics found (VALUES_BLOCK: ?found), as the query joins them.
_ASSIGNMENTS = (
    sparql_prologue()
    + """SELECT ?found ?paper ?weight ?evidence WHERE { VALUES_BLOCK
  ?assignment kg:topic ?found ; kg:weight ?weight ; kg:matchedLabel ?evidence .
  ?paper kg:topicAssignment ?assignment }"""
)
# Some papers' assignments of any topic (VALUES_BLOCK: ?paper), the topics found kept in Python: with ?found
# bound too the engine starts from the topics, every assignment of the store (14 s for 1,000 papers at
# 101,000, against 0.09 s from the papers).
_PAPER_ASSIGNMENTS = (
    sparql_prologue()
    + """SELECT ?found ?paper ?weight ?evidence WHERE { VALUES_BLOCK
  ?paper kg:topicAssignment ?assignment .
  ?assignment kg:topic ?found ; kg:weight ?weight ; kg:matchedLabel ?evidence }"""
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
    words, distinct, in code-point order; strongest first, then by title (a paper without one first), then IRI.
    On an on-disk store the rows are kept between runs (:mod:`.topic_store`) and made again for the papers a run
    changed alone."""

    digest = "54f368be3209d2f4"  # of the query text the rows were checked against (tests/query/test_twins.py)
    variables = ("paper", "title", "weight", "matched")

    def lists(self, store, rows: TwinFiles, entities: Iterable[str]) -> Iterator[tuple[str, Sequence]]:
        """(entity, its rows in the query's order) for each of ``entities``, in code-point order of IRI."""
        wanted = sorted(set(entities))
        if not wanted:
            return
        above = _below(store, wanted)
        path = remembered_topic_rows(side_folder(store), Path(__file__))
        if path is not None and _brought(kept := TopicStore(path), store, rows, wanted, above):
            # the lists read the database as they are read: it closes with the last of them
            yield from kept.lists(wanted, _kept_texts)
            return
        groups = _groups(store.select_terms(_assignments(above)), above)
        titles = display_titles_of(rows, set(groups))
        made = [row for paper, found in groups.items() for row in _made(paper, found, titles.get(paper))]
        by_topic: dict[str, list] = {topic: [] for topic in wanted}
        for row in made:
            by_topic[row[0]].extend(_ranked(row))
        for topic in wanted:
            ordered = sorted(by_topic.pop(topic), key=lambda row: row[0])
            yield topic, Ranked([row for _, row in ordered], _terms)


def graph_stamps(store) -> dict[str, str]:
    """Each topic detail graph -> its stamp: its quad count and its source node's statements (:func:`.kept_rows.stamp`),
    which a source ingested again or replaced by anything changes."""
    graphs = set(store.graphs())
    stamps = {}
    for source in sorted(graphs):
        if "/source/" in source and (detail := detail_graph_iri(source)) in graphs:
            stamps[detail] = stamp(store, source, quad_count(store, detail))
    return stamps


def _sourced(store, graphs: Iterable[str] | None) -> dict[str, set[str]]:
    """Each of ``graphs`` (None: every graph) -> the papers with an assignment in it."""
    values = "" if graphs is None else "VALUES ?g { " + " ".join(f"<{graph}>" for graph in sorted(graphs)) + " }"
    found: dict[str, set[str]] = {graph: set() for graph in graphs or ()}
    for graph, paper in store.select_terms(_SOURCED.replace("VALUES_BLOCK", values)):
        found.setdefault(graph.value, set()).add(paper.value)
    return found


def _state(wanted: list[str], above: dict[str, set[str]]) -> str:
    """What the kept rows were made for: the listed topics and the topics found below each."""
    return json.dumps([wanted, sorted((found, sorted(topics)) for found, topics in above.items())])


def _brought(kept: TopicStore, store, rows: TwinFiles, wanted: list[str], above: dict[str, set[str]]) -> bool:
    """Bring the kept rows up to date (every paper's made again where they do not hold); False, and the rows left
    unused, where a weight is one the table cannot order (:func:`~.topic_store.exact`)."""
    stamps = graph_stamps(store)
    merged = {value.value for row in store.select_terms(_MERGED) for value in row}
    titles = _titles(rows)
    if kept.open(_state(wanted, above)):
        papers, sourced = _changed(kept, store, stamps, merged, titles, rows.restaged)
        ordered = sorted(papers)
        found_rows = (
            row
            for start in range(0, len(ordered), 1000)
            for row in store.select_terms(_paper_assignments(ordered[start : start + 1000]))
            if row[0].value in above
        )
    else:
        papers, sourced, found_rows = None, _sourced(store, None), store.select_terms(_assignments(above))
    groups = _groups(found_rows, above)
    made = (row for paper, found in _popped(groups) for row in _made(paper, found, _parsed(titles.get(paper, ""))))
    try:
        kept.write(papers, made, titles, {"sourced": sourced, "graphs": stamps, "merged": sorted(merged)})
    except Inexact:
        kept.abandon()
        return False
    return True


def _changed(
    kept: TopicStore, store, stamps: dict, merged: set[str], titles: dict, restaged: frozenset[str]
) -> tuple[set, dict]:
    """The papers whose rows a run makes again: of the graphs whose stamp changed or whose source the run loaded
    (``restaged``: their papers then and now), of the merges (this run's and the last one's) and whose display
    titles changed; and the changed graphs' papers."""
    before = kept.graphs()
    changed = {graph for graph in before.keys() | stamps.keys() if before.get(graph) != stamps.get(graph)}
    changed.update(detail_graph_iri(source) for source in restaged)
    sourced = _sourced(store, changed.intersection(store.graphs()))
    sourced.update((graph, set()) for graph in changed.difference(sourced))
    papers = kept.papers_in(changed) | merged | kept.merged()
    papers.update(paper for found in sourced.values() for paper in found)
    papers.update(paper for paper, shown in kept.titles().items() if titles.get(paper, "") != shown)
    return papers, sourced


def _popped(groups: dict) -> Iterator[tuple]:
    """The items of ``groups``, each let go once read."""
    while groups:
        yield groups.popitem()


def _parsed(shown: str) -> list[list[str]]:
    """Display titles as the counts' pass writes them -> ``[text, language]`` each."""
    return [json.loads(title) for title in shown.split(JSON_SEPARATOR)] if shown else []


def _titles(rows: TwinFiles) -> dict[str, str]:
    """Each paper with a display title -> its titles as the counts' pass wrote them."""
    with open(rows.paper_titles, encoding="utf-8") as lines:
        split = (line[:-1].split("\t") for line in lines)
        return {paper: shown for paper, _, shown in split if shown}


def _assignments(above: dict[str, set[str]]) -> str:
    """The query of the assignments of the topics found (``above``'s)."""
    values = "VALUES ?found { " + " ".join(str(ox.NamedNode(topic)) for topic in sorted(above)) + " }"
    return _ASSIGNMENTS.replace("VALUES_BLOCK", values)


def _paper_assignments(papers: Iterable[str]) -> str:
    """The query of these papers' assignments, of every topic."""
    values = "VALUES ?paper { " + " ".join(str(ox.NamedNode(paper)) for paper in papers) + " }"
    return _PAPER_ASSIGNMENTS.replace("VALUES_BLOCK", values)


def _groups(found_rows, above: dict[str, set[str]]) -> dict[str, dict[str, _Group]]:
    """paper -> listed topic -> its group, of ``(found, paper, weight, word)`` rows."""
    groups: dict[str, dict[str, _Group]] = defaultdict(dict)
    for found, paper, weight, word in found_rows:
        for topic in above[found.value]:
            group = groups[paper.value].get(topic)
            if group is None:
                group = groups[paper.value][topic] = _Group()
            group.add(weight, word.value)
    return groups


def _made(paper: str, found: dict[str, _Group], titles: list | None) -> Iterator[Made]:
    """A paper's rows, one per listed topic: (topic, paper, weight, its lexical form and datatype, titles, words)."""
    for topic, group in found.items():
        words = ", ".join(sorted(group.words))
        weight = group.weight
        yield topic, paper, float(weight.value), weight.value, weight.datatype.value, titles or [], words


def _ranked(row: Made) -> Iterator[tuple]:
    """(sort key, row) of each display title of a paper's row of a topic (one, unbound, without)."""
    _, paper, _, value, kind, titles, words = row
    for title in titles or [None]:
        key = (-Decimal(value), "" if title is None else "\0" + title[0], paper)
        yield key, (paper, title, ox.Literal(value, datatype=ox.NamedNode(kind)), words)


def _terms(row: tuple) -> Row:
    paper, title, weight, words = row
    return (
        ox.NamedNode(paper),
        None if title is None else ox.Literal(title[0], language=title[1] or None),
        weight,
        ox.Literal(words),
    )


def _kept_texts(row: tuple) -> tuple[str | None, ...]:
    """A row of the kept lists (:mod:`.topic_store`): paper, title, its language, weight, its datatype, words."""
    paper, title, language, value, kind, words = row
    shown = None if title is None else literal(title, language)
    return minted(paper), shown, literal(value, datatype=minted(kind)), literal(words)


TOPIC_PAPERS = TopicPapers()
