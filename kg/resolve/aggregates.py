"""Precomputed counts for the whole-graph and per-institution library queries.

Written by the store-level resolution step into the derived graph after every change of
sources (so ``kg remove`` and re-ingest are followed), read by ``queries/*.rq``; the raw-data
form of each query stays in ``queries/checks/`` and the tests check that both give the same rows.

An institution's papers are the papers that list it or one of its units
(``org:subOrganizationOf*``, the institution itself included), as the raw queries count them:

- on each institution with papers: ``kg:paperCount``, ``kg:authorCount`` and the track and
  presentation counts (``kg:mainTrackPapers`` …) of ``top-institutions`` and ``track-breakdown``;
- ``kg:InstitutionTopic`` / ``kg:InstitutionPartner`` nodes, linked from their
  institution (``kg:institutionTopic`` …): the topic / partner institution counted (``kg:countedTopic`` …) and the
  number of its papers that have it (``kg:paperCount``); a partner is a listed institution that is not
  one of the institution's own units;
- ``kg:CoauthorPair`` nodes: two people (in code-point order of IRI) with at least :data:`~.count_ledger.PAIR_FLOOR`
  papers together, and ``kg:sharedPapers``;
- ``kg:InstitutionPair`` nodes: two institutions listed on the same papers, as listed (no roll-up),
  in code-point order of IRI, with ``kg:sharedPapers``;
- ``kg:withinInstitution``: every listed or affiliated (``kg:affiliation``) institution to itself and
  each institution it is a unit of, so the queries that list papers or authors need no property path;
- ``kg:bylineLength`` on each paper: its distinct authorships (``author-papers``' number of authors);
- ``kg:statesAuthorAffiliations`` on each paper with authorships: whether any of them has a
  ``kg:affiliation`` (a per-author source), so the affiliation questions need no ``NOT EXISTS`` per row;
- ``kg:displayTitle`` on each paper: its English titles, else the start of its abstracts followed by
  "…", as ``artifacts`` and ``topic-papers`` show it (two whole-graph left joins per query otherwise),
  made from the paper's facts as the counts are (:func:`display_titles`);
- these three statements of a paper are written by the pass as a line per paper (:func:`paper_line`), a section
  of the index graph (:class:`~.graph_memo.Section`): only a paper whose line changed has them made again;
- the name lists of the papers that introduce an artifact (:mod:`.name_lists`): the same pass writes
  what they are made of (:func:`introducing_lines`), joined with the display names once those are chosen.

After a change of sources the pass visits only the papers the change touched (:mod:`.touched_papers`).
"""

from __future__ import annotations

import json
import tempfile
from collections import defaultdict
from functools import partial
from pathlib import Path
from typing import Iterable, Iterator

import pyoxigraph as ox

from ..rdf.iris import Minter
from ..rdf.side_rows import (
    AFFILIATED,
    AFFILIATION,
    ARTIFACT_CLASS,
    ARTIFACT_NAME,
    PAPER_FACT_KINDS,
    TEXT_KINDS,
    YEAR,
    artifact_name,
    fact_line,
    text_value,
)
from ..vocab import BIBO, DCTERMS, FALSE, KG, ORG, SCHEMA, SKOS, TRUE, sparql_prologue
from .answer_lines import CODE_PAPERS
from .artifact_rows import TwinLines
from .count_ledger import CountLedger, units_stamp
from .count_ledger import count_literal as _count
from .list_lines import ListLines, TwinFiles
from .sorted_facts import grouped_facts
from .staged_rows import StagedRows, select
from .touched_papers import OUTPUTS, PassMemo, fresh_file, pass_memo_path, touched_facts

# One stream of every paper's facts, grouped by paper on disk (kg/stores/ordering.py; a kept source's
# lines sorted once, kg/resolve/sorted_facts.py), so memory does not grow with the corpus: at 100,000
# papers the facts, creators and pair counter held in dicts of sets were 335 MB, and grew with every
# paper. No DISTINCT: the grouping drops repeats (what two sources state twice) without the engine's set
# of every row. The sources a run staged give the same lines from their side rows (kg/rdf/side_rows.py)
# and are not read here. One query per kind, not their UNION: Virtuoso 7.2 crashes on that UNION over
# named graphs when the request names its dataset (as kg's remote store does), and each kind is one scan
# either way.
_PAPER_FACTS = {
    **{kind: f"?paper {predicate} ?value" for predicate, kind in PAPER_FACT_KINDS.items()},
    AFFILIATION: f"?authorship {KG.affiliation} ?value . ?paper {KG.authorship} ?authorship",
    # the affiliations first: the engine joins in the order written, and most authorships state none
    AFFILIATED: f"?a {KG.affiliation} ?o ; {KG.author} ?p . ?paper {KG.authorship} ?a "
    'BIND(CONCAT(STR(?a), " ", STR(?p), " ", STR(?o)) AS ?value)',
    YEAR: f"?paper {BIBO.presentedAt} ?event . ?event a {BIBO.Conference} ; {SCHEMA.startDate} ?value",
    # what the title of queries/checks/artifacts.rq is made of: English titles, abstracts (their start kept)
    TEXT_KINDS[
        DCTERMS.title
    ]: f'?paper a {SCHEMA.ScholarlyArticle} ; {DCTERMS.title} ?value FILTER(lang(?value) = "en")',
    TEXT_KINDS[DCTERMS.abstract]: f"?paper a {SCHEMA.ScholarlyArticle} ; {DCTERMS.abstract} ?value",
    # an introduced artifact's names and classes, the artifact as the subject (kg/resolve/artifact_rows.py)
    ARTIFACT_NAME: f"?introducing {KG.introduces} ?paper . ?paper {SKOS.prefLabel} ?value",
    ARTIFACT_CLASS: f"?introducing {KG.introduces} ?paper . ?paper a ?value",
}
_TEXTS = frozenset(TEXT_KINDS.values())
_WRITTEN = _TEXTS | {ARTIFACT_NAME}  # the kinds whose values the side rows write otherwise than as they are
# The sources' units; the derived graph's (units placed by e-mail domain) come from this run's step.
_SOURCE_UNITS = (
    sparql_prologue()
    + """SELECT DISTINCT ?unit ?parent WHERE {
  GRAPH ?g { ?unit org:subOrganizationOf ?parent } FILTER(?g != RESOLVED) }"""
)


class _Within:
    """An institution -> itself and every institution it is a unit of (transitively), worked
    out once per institution met."""

    def __init__(self, units: Iterable[tuple[str, str]]):
        self.parents: dict[str, set[str]] = defaultdict(set)
        for unit, parent in units:
            self.parents[unit].add(parent)
        self.closure: dict[str, frozenset[str]] = {}

    def __call__(self, start: str) -> frozenset[str]:
        if start not in self.closure:
            seen, todo = {start}, [start]
            while todo:
                for parent in self.parents.get(todo.pop(), ()):
                    if parent not in seen:
                        seen.add(parent)
                        todo.append(parent)
            self.closure[start] = frozenset(seen)
        return self.closure[start]


def paper_lines(store, staged: StagedRows) -> Iterator[str]:
    """Every paper's facts: the staged sources' side rows, the other graphs' read from the store."""
    yield from staged.facts()
    yield from store_facts(store, staged)


def store_facts(store, staged: StagedRows) -> Iterator[str]:
    """The facts of the graphs that are not staged, read from the store (every graph's when none is)."""
    graphs = staged.other_graphs(store)
    if graphs != []:
        for kind, pattern in _PAPER_FACTS.items():
            rows = store.select_terms(select("?paper ?value", pattern, graphs))
            if kind in _WRITTEN:
                yield from (fact_line(paper.value, kind, _fact_value(kind, value)) for paper, value in rows)
            else:  # the value as it is (fact_line's fields, without a call a row)
                yield from (f"{paper.value}\t{kind}\t{value.value}\n" for paper, value in rows)


def _fact_value(kind: str, value: ox.Literal) -> str:
    """A text's or an artifact name's fact value as the side rows write it (kg/rdf/side_rows.py)."""
    return text_value(kind, value.value) if kind in _TEXTS else artifact_name(value)


def display_titles(own: dict[str, set[str]]) -> list[tuple[str, str]]:
    """The paper's display titles, (text, language or ""): its English titles, else each abstract's start and "…"
    (the expression of queries/checks/artifacts.rq, ``COALESCE(?english, CONCAT(SUBSTR(?abstract, 1, 80), "…"))``,
    whose CONCAT of a tagged and a plain literal is plain)."""
    shown = _shown(own)
    return [_display_title(shown, text) for text in own[shown]]


def _shown(own: dict[str, set[str]]) -> str:
    """The kind of text a paper's display titles are made of: its English titles, else its abstracts."""
    return "title" if own["title"] else "abstract"


def _display_title(shown: str, text: str) -> tuple[str, str]:
    """A display title (text, language or "") from a title's or an abstract's fact value (JSON)."""
    value = json.loads(text)
    return (value, "en") if shown == "title" else (value + "…", "")


def paper_line(paper: str, own: dict[str, set[str]]) -> str:
    """A paper's line of the index graph's ``papers`` section (:func:`paper_line_triples`), what its own statements
    are made of: ``paper<TAB>byline length<TAB>1 if an authorship states an affiliation, else 0`` (both "" for a
    paper without authorships) ``<TAB>title or abstract<TAB>`` then its display titles' texts (JSON, no tab), in
    code-point order, tab-separated; "" for a subject of none of these statements."""
    shown = _shown(own)
    if not own[shown] and not own["authorship"]:
        return ""
    byline, flag = (len(own["authorship"]), "1" if own["affiliation"] else "0") if own["authorship"] else ("", "")
    return f"{paper}\t{byline}\t{flag}\t{shown}\t" + "\t".join(sorted(own[shown])) + "\n"


def paper_line_triples(line: str) -> Iterator[ox.Triple]:
    """The statements of a paper's line (:func:`paper_line`): its ``kg:bylineLength``,
    ``kg:statesAuthorAffiliations`` and ``kg:displayTitle`` statements; ValueError for a line not made so."""
    paper, byline, flag, shown, *texts = line[:-1].split("\t")
    node = ox.NamedNode(paper)
    if byline:
        yield ox.Triple(node, KG.bylineLength, _count(int(byline)))
        yield ox.Triple(node, KG.statesAuthorAffiliations, TRUE if flag == "1" else FALSE)
    for text in filter(None, texts):
        title, language = _display_title(shown, text)
        yield ox.Triple(node, KG.displayTitle, ox.Literal(title, language=language or None))


def introducing_lines(paper: str, own: dict[str, set[str]]) -> Iterator[str]:
    """What a paper's name lists are made of, if it introduces an artifact: ``paper<TAB>`` then a
    ``paper<TAB>kind<TAB>entity`` line for each of its creators and listed institutions (:mod:`.name_lists`)."""
    if own["introduces"]:
        yield f"{paper}\t\n"
        for kind in ("author", "listed"):
            yield from (f"{paper}\t{kind}\t{entity}\n" for entity in sorted(own[kind]))


def aggregate_triples(
    store,
    minter: Minter,
    derived: Iterable[ox.Triple] = (),
    scratch: Path | None = None,
    staged: StagedRows | None = None,
    introducing: Path | None = None,
    lists: TwinFiles | None = None,
    ledger: Path | None = None,
    papers: Path | None = None,
) -> Iterator[ox.Triple]:
    """The co-author pairs of :data:`~.count_ledger.PAIR_FLOOR` or more papers (``kg:CoauthorPair``) and the
    counts described above, from one pass over the papers in IRI order, which writes each paper's
    :func:`paper_line` (its display titles, byline length and affiliation flag) to ``papers``: over the papers a
    change of sources touched, the others' lines carried over from the last pass, where it is remembered beside the
    ledger and every file is given (:mod:`.touched_papers`), else over every paper; ``derived``
    is this run's other derived triples, whose ``org:subOrganizationOf`` count as units too. The counts are the
    totals of :mod:`.count_ledger`'s ledger at ``ledger`` (None: one made whole for this pass), brought up to date
    from the papers whose facts changed; ``staged``: the side rows of the sources this run staged, read instead
    of their graphs; ``introducing``: the file the same pass writes the name lists' :func:`introducing_lines` to,
    in IRI order of paper; ``lists``: the files it writes what the precomputed lists' twins make their rows of to
    (:mod:`.list_lines`)."""
    resolved = ox.NamedNode(minter.iri("graph", "resolved"))  # ours, so written into the text
    units = [(u.value, p.value) for u, p in store.select_terms(_SOURCE_UNITS.replace("RESOLVED", str(resolved)))]
    units += [(t.subject.value, t.object.value) for t in derived if t.predicate == ORG.subOrganizationOf]
    within = _Within(units)
    staged = staged or StagedRows()
    remembered = pass_memo_path(ledger) if None not in (introducing, lists, papers) else None
    with tempfile.TemporaryDirectory(prefix="kg-aggregates-", dir=scratch) as folder:
        listed = ListLines(store, lists, within, partial(fresh_file, Path(folder)))
        memo = PassMemo(remembered, f"{units_stamp(units)}\t{listed.context()}", ledger, Path(folder))
        store_lines = list(store_facts(store, staged)) if memo.held and staged.files else None
        touched = memo.touched(staged, store_lines)
        counts = CountLedger(ledger, units_stamp(units), within, scratch, touched)
        try:
            touched = touched if counts.kept is not None else None  # a ledger made whole: every paper counted
            _visit(_groups(store, staged, store_lines, touched, memo, scratch), counts, listed, memo, lists is not None)
            listed.flush()
            memo.put("introducing", introducing, touched)
            memo.put("own", papers, touched)
            if lists is not None:
                made = (lists.papers, lists.paper_titles, lists.artifact_names, lists.answers / CODE_PAPERS)
                for name, destination in zip(OUTPUTS, made):
                    memo.put(name, destination, touched, listed.answers.coded if name == "code" else None)
            listed.close(memo.totals(within, touched) if lists else None)
            counts.close()
        except BaseException:
            counts.abandon()
            memo.abandon()
            raise
        memo.commit()
    yield from counts.triples(minter)


def _groups(
    store, staged: StagedRows, store_lines: list[str] | None, touched: set[str] | None, memo: PassMemo, scratch
) -> Iterator[tuple[str, list[str]]]:
    """Every paper's facts grouped by paper (``touched`` None), or the ``touched`` subjects' alone; ``store_lines``:
    the facts read from the store, if they are (:func:`store_facts`)."""
    if touched is not None:
        return touched_facts(staged, store_lines or [], touched, scratch)
    others = store_lines if store_lines is not None else memo.note_store_lines(store_facts(store, staged))
    return grouped_facts(staged, others, scratch)


def _visit(groups: Iterable[tuple[str, list]], counts: CountLedger, listed: ListLines, memo: PassMemo, twins: bool):
    """Each paper's lines written (to the memo's fresh files; the twins' lines where ``twins``), its contribution to
    the counts added."""
    with (
        open(memo.fresh("introducing"), "w", encoding="utf-8") as named,
        open(memo.fresh("own"), "w", encoding="utf-8") as own_lines,
        TwinLines((memo.fresh("titles"), memo.fresh("names")) if twins else None) as shown,
    ):
        for paper, rows in groups:
            own: dict[str, set[str]] = defaultdict(set)
            for row in rows:
                kind, _, value = row.partition("\t")
                own[kind].add(value)
            shown.add(paper, own, display_titles(own))
            named.write("".join(introducing_lines(paper, own)))
            own_lines.write(paper_line(paper, own))
            counts.add(paper, own)
            listed.add(paper, own, sorted(own["author"]))
