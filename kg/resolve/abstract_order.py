"""What the order of a listing and an abstracts file says about the titles and abstracts joined on their text
(:mod:`kg.resolve.abstract_join`).

A listing and an abstracts file of one venue usually hold their papers in the same order. Where the
pairs joined on their text show it (at least :data:`MIN_ORDERED_SHARE` of a listing's and an
abstracts file's pairs on one chain increasing in both files' lines):

- a pair off that chain is dropped: a title whose own abstract is missing takes the abstract
  of a similar title far away in both files (a miss is far better than a wrong merge);
- a title and an abstract left over between two neighbours of the chain, in both files, are
  paired on much weaker text evidence: within that gap each is the other's best candidate,
  ahead of every other candidate of the gap by a margin, with a shared word; unless the gaps
  show that each file has papers the other lacks (a gap with more titles than abstracts, and
  one with more abstracts than titles): then the two left between the same neighbours may be a
  title without its abstract and an abstract without its title.

A file in another order shows no such chain; a listing with papers the abstracts file lacks
(a paper without an abstract), or the other way round, keeps its order.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from typing import Callable

from .paper_facts import PaperFacts

MIN_ORDERED_SHARE = 0.9
Scores = tuple[float, float]  # a join's evidence and its margin over the runner-up, in nats
Found = tuple[int, int, str, Scores]  # (title, abstract, explanation, scores) of a pair the order vouches for
Gap = tuple[list[int], list[int]]  # the titles and the abstracts left between two neighbours of the chain


def joined_in_order(
    titled: list[PaperFacts],
    untitled: list[PaperFacts],
    rows: list[dict[int, float]],
    shared_words: Callable[[int, int], int],
    joined: dict[int, int],
    min_pairs: int,
    min_margin: float,
) -> tuple[set[int], list[Found]]:
    """What the order of the two files says (the module's docstring): (titles whose text pair it
    contradicts, the pairs it vouches for). A chain needs ``min_pairs`` pairs joined on their text, a
    pair in a gap a margin of ``min_margin`` over the gap's other candidates."""
    files = _Files(titled, untitled, rows, shared_words, dict(joined), min_margin)
    dropped: set[int] = set()
    found: list[Found] = []
    for title_graph, abstract_graph in sorted({(titled[i].graph, untitled[j].graph) for i, j in joined.items()}):
        titles, abstracts = _by_line(titled, title_graph), _by_line(untitled, abstract_graph)
        by_lines = files.pairs_by_lines(titles, abstracts)
        chain = _increasing_chain(sorted(by_lines), {lines: rows[i][files.joined[i]] for lines, i in by_lines.items()})
        if len(by_lines) < min_pairs or len(chain) < MIN_ORDERED_SHARE * len(by_lines):
            continue
        order = f"{len(chain)} of the {len(by_lines)} pairs joined on their text lie in one order in both files"
        dropped |= files.unjoin_off_chain(by_lines, chain)  # dropped even where the gaps say nothing
        found += files.joins_in_gaps(titles, abstracts, chain, order)
    return dropped - {i for i, _, _, _ in found}, found


def _by_line(papers: list[PaperFacts], graph: str) -> list[tuple[int, int]]:
    """(line, index) of the papers of one file that know their line, in line order."""
    return sorted((paper.line, k) for k, paper in enumerate(papers) if paper.graph == graph and paper.line is not None)


@dataclass
class _Files:
    """Titles and abstracts with their text evidence, and the pairs joined so far (changed as the order is read)."""

    titled: list[PaperFacts]
    untitled: list[PaperFacts]
    rows: list[dict[int, float]]
    shared_words: Callable[[int, int], int]
    joined: dict[int, int]
    min_margin: float

    def pairs_by_lines(self, titles: list[tuple[int, int]], abstracts: list[tuple[int, int]]) -> dict:
        """The pairs joined within two files: (title line, abstract line) -> title."""
        title_indices, abstract_indices = {i for _, i in titles}, {j for _, j in abstracts}
        return {
            (self.titled[i].line, self.untitled[j].line): i
            for i, j in self.joined.items()
            if i in title_indices and j in abstract_indices
        }

    def unjoin_off_chain(self, by_lines: dict, chain: list[tuple[int, int]]) -> set[int]:
        """The titles of the pairs off the chain, no longer joined."""
        off_chain = [by_lines[lines] for lines in sorted(set(by_lines) - set(chain))]
        for i in off_chain:
            del self.joined[i]
        return set(off_chain)

    def joins_in_gaps(
        self, titles: list[tuple[int, int]], abstracts: list[tuple[int, int]], chain: list[tuple[int, int]], order: str
    ) -> list[Found]:
        """The pairs found between the chain's neighbours, unless the gaps show each file has papers the other
        lacks."""
        taken = set(self.joined.values())
        anchors = [(0, 0), *chain, (math.inf, math.inf)]
        leftovers = [
            (
                _between(titles, title_from, title_to, self.joined),
                _between(abstracts, abstract_from, abstract_to, taken),
            )
            for (title_from, abstract_from), (title_to, abstract_to) in zip(anchors, anchors[1:])
        ]
        if any(len(t) > len(a) for t, a in leftovers) and any(len(a) > len(t) for t, a in leftovers):
            # each file has papers the other lacks, so a title and an abstract left between the same neighbours
            # may be two strays
            return []
        found: list[Found] = []
        for gap in leftovers:
            found += self._joins_in_gap(gap, order)
        return found

    def _joins_in_gap(self, gap: Gap, order: str) -> list[Found]:
        found: list[Found] = []
        gaps = [gap]
        while gaps:  # a pair found in a gap splits it, and may leave one title and one abstract on either side
            gap_titles, gap_abstracts = gaps.pop()
            in_gap = [
                (i, j, score, margin)
                for i, j, score, margin in _gap_pairs(gap_titles, gap_abstracts, self.rows, self.titled, self.untitled)
                if margin >= self.min_margin and self.shared_words(i, j) >= 1
            ]
            for i, j, score, margin in in_gap:
                self.joined[i] = j
                found.append((i, j, _explanation(score, margin, order), (score, margin)))
            if in_gap:
                gaps += self._split((gap_titles, gap_abstracts), [(i, j) for i, j, _, _ in in_gap])
        return found

    def _split(self, gap: Gap, pairs: list[tuple[int, int]]) -> list[Gap]:
        """The gaps the pairs found in a gap leave between them."""
        bounds = [(0, 0)] + [(self.titled[i].line, self.untitled[j].line) for i, j in pairs] + [(math.inf, math.inf)]
        gap_titles, gap_abstracts = gap
        return [
            (
                [i for i in gap_titles if t0 < self.titled[i].line < t1],
                [j for j in gap_abstracts if a0 < self.untitled[j].line < a1],
            )
            for (t0, a0), (t1, a1) in zip(bounds, bounds[1:])
        ]


def _explanation(score: float, margin: float, order: str) -> str:
    return (
        f"title-abstract evidence {score:.1f}; the pair sits between the same two joined "
        f"neighbours in both files ({order}), ahead of any other candidate between them by "
        f"{margin:.1f}"
    )


def _between(ordered: list[tuple[int, int]], after: float, before: float, left_out) -> list[int]:
    """The indices of the (line, index) pairs with a line strictly between the two, in line order, but those left
    out."""
    start = bisect.bisect_right(ordered, (after, math.inf))
    stop = bisect.bisect_left(ordered, (before, -1))
    return [index for _, index in ordered[start:stop] if index not in left_out]


def _gap_pairs(
    gap_titles: list[int],
    gap_abstracts: list[int],
    rows: list[dict[int, float]],
    titled: list[PaperFacts],
    untitled: list[PaperFacts],
) -> list[tuple[int, int, float, float]]:
    """(title, abstract, evidence, margin) for the mutual best candidates inside one gap, where
    together they keep the files' order (else none): the margin is over every other candidate of
    the gap for either of the two (over nothing, the evidence itself). Ties go to the earlier
    index, and tie with a margin of 0. Time: titles x abstracts of the gap."""
    if not gap_abstracts:
        return []
    best_two: dict[int, list[tuple[float, int]]] = {}  # abstract -> its two best (evidence, -title) in the gap
    for j in gap_abstracts:
        best_two[j] = sorted(((rows[i].get(j, 0.0), -i) for i in gap_titles), reverse=True)[:2]
    found = []
    for i in gap_titles:
        ranked = sorted(((rows[i].get(j, 0.0), -j) for j in gap_abstracts), reverse=True)
        score, j = ranked[0][0], -ranked[0][1]
        if score <= 0.0 or best_two[j][0][1] != -i:
            continue
        rivals = [ranked[1][0] if len(ranked) > 1 else 0.0, best_two[j][1][0] if len(best_two[j]) > 1 else 0.0]
        found.append((i, j, score, score - max(rivals)))
    in_title_order = sorted(found, key=lambda pair: titled[pair[0]].line)
    abstract_lines = [untitled[j].line for _, j, _, _ in in_title_order]
    return in_title_order if abstract_lines == sorted(abstract_lines) else []


def _increasing_chain(pairs: list[tuple[int, int]], evidence: dict[tuple[int, int], float]) -> list[tuple[int, int]]:
    """The longest chain of (title line, abstract line) pairs, sorted by title line, whose abstract
    lines increase too; of chains as long, the one with the most evidence (so a wrong pair that
    can stand in one right pair's place does not push it out unless its text is stronger), then
    the first. A Fenwick tree of the best chain ending below each abstract line: n log n."""
    ranks = {line: rank for rank, line in enumerate(sorted({line for _, line in pairs}), start=1)}
    tree: list[tuple[int, float, int]] = [(0, 0.0, -1)] * (
        len(ranks) + 1
    )  # (length, evidence, -pair) of a chain's last pair
    before: list[int | None] = []
    best: tuple[int, float, int] = (0, 0.0, -1)
    for n, lines in enumerate(pairs):
        rank = ranks[lines[1]] - 1
        below = (0, 0.0, -1)
        while rank > 0:
            below = max(below, tree[rank])
            rank -= rank & -rank
        ending = (below[0] + 1, below[1] + evidence[lines], -n)
        before.append(-below[2] if below[0] else None)
        best = max(best, ending)
        rank = ranks[lines[1]]
        while rank < len(tree):
            tree[rank] = max(tree[rank], ending)
            rank += rank & -rank
    chain, at = [], -best[2] if best[0] else None
    while at is not None:
        chain.append(pairs[at])
        at = before[at]
    return chain[::-1]
