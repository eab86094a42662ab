"""Which abstract (a paper with no title) is which titled paper of the same venue, on text alone.

Real titles seldom coin a name, so the evidence is the title's words and phrases found in the
abstract, each weighed by its rarity among the venue's abstracts (inverse document frequency:
"langevin" says much, "learning" little). Words are compared with plurals folded, hyphens
split, words broken across lines by a PDF ("bidi- rected") joined, and on their first
:data:`PREFIX` letters too ("robotic" / "robots"); phrases are adjacent word pairs.

Scores alone would let a long abstract win many titles, so titles and abstracts are assigned
one to one (a maximum-weight assignment, scipy's ``linear_sum_assignment``) inside one venue and year, and a pair is kept
only when all of these hold:

- the abstract holds at least :data:`MIN_COVERAGE` of the title's weight, and at least
  :data:`MIN_SHARED_WORDS` of its words (one shared rare word is a coincidence);
- each is among the other's :data:`MAX_RANK` best candidates (for the abstract, by evidence
  or by the share of the title found, since short titles gather less evidence);
- the assignment beats every exchange with a runner-up by :data:`MIN_MARGIN` (in nats of
  evidence): giving the abstract to another title, or the title another abstract, and
  re-pairing their partners, scores at least that much less;
- the venue has :data:`MIN_VENUE_ABSTRACTS` abstracts or more, without which rarity cannot be
  told from chance (so a lone abstract never merges on words alone).
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from typing import Iterator

from ..ingest.names import match_key
from .paper_facts import PaperFacts

MIN_VENUE_ABSTRACTS = 20
MIN_COVERAGE = 0.1
MIN_SHARED_WORDS = 2
MAX_RANK = 3
MIN_MARGIN = 2.0
PREFIX = 5
_STOP = frozenset("the a an of for and in on with via from to by at is are its our their we this that as into".split())
_LINE_BREAK_HYPHEN = re.compile(r"(\w)- (\w)")
_HYPHENS = re.compile(r"[\-\u2010-\u2015/]")


def text_terms(text: str) -> set[str]:
    """Words, word prefixes and adjacent word pairs of a text, normalised for comparison."""
    words = [word.removesuffix("s") for word in match_key(_HYPHENS.sub(" ", _LINE_BREAK_HYPHEN.sub(r"\1\2", text))).split()]
    content = {word for word in words if len(word) > 2 and word not in _STOP}
    prefixes = {"~" + word[:PREFIX] for word in content if len(word) >= PREFIX}
    pairs = {f"{a} {b}" for a, b in zip(words, words[1:]) if a not in _STOP and b not in _STOP and len(a) > 1 and len(b) > 1}
    return content | prefixes | pairs


def _words(terms: set[str]) -> set[str]:
    """The single words among a text's terms (not prefixes, not pairs)."""
    return {term for term in terms if " " not in term and not term.startswith("~")}


def title_abstract_matches(papers: list[PaperFacts]) -> Iterator[tuple[PaperFacts, PaperFacts, str]]:
    """(abstract paper, titled paper, explanation) for every pair the rules above accept."""
    groups: dict[tuple[str, ...], tuple[list[PaperFacts], list[PaperFacts]]] = defaultdict(lambda: ([], []))
    for paper in sorted(papers, key=lambda p: (p.iri, p.graph)):
        titled, untitled = groups[tuple(sorted(paper.venues))]
        if paper.title and not paper.abstract:
            titled.append(paper)
        elif paper.abstract and not paper.title:
            untitled.append(paper)
    for key in sorted(groups):
        titled, untitled = groups[key]
        if titled and len(untitled) >= MIN_VENUE_ABSTRACTS:
            yield from _assign(titled, untitled)


def _assign(titled: list[PaperFacts], untitled: list[PaperFacts]) -> Iterator[tuple[PaperFacts, PaperFacts, str]]:
    abstract_terms = [text_terms(paper.abstract or "") for paper in untitled]
    frequency = Counter(term for terms in abstract_terms for term in terms)
    postings: dict[str, list[int]] = defaultdict(list)
    for j, terms in enumerate(abstract_terms):
        for term in terms:
            postings[term].append(j)
    count = len(untitled)
    weights = {term: math.log((count + 1) / (n + 0.5)) for term, n in frequency.items()}
    unseen = math.log((count + 1) / 0.5)

    def weight(term: str) -> float:
        return weights.get(term, unseen)

    rows: list[dict[int, float]] = []
    totals: list[float] = []
    title_terms = [text_terms(paper.title or "") for paper in titled]
    for paper, terms in zip(titled, title_terms):
        row: dict[int, float] = defaultdict(float)
        for term in terms:
            for j in postings.get(term, ()):
                if untitled[j].graph != paper.graph:
                    row[j] += weight(term)
        rows.append(dict(row))
        totals.append(sum(weight(term) for term in terms) or 1.0)
    columns: list[dict[int, float]] = [{} for _ in untitled]
    for i, row in enumerate(rows):
        for j, score in row.items():
            columns[j][i] = score

    pairs = _matching(rows, columns)
    partner_of_abstract = {j: i for i, j in pairs.items()}
    for i, j in sorted(pairs.items()):
        score = rows[i][j]
        coverage = score / totals[i]
        row_rank = sum(other > score for other in rows[i].values())
        column_rank = min(  # by evidence, or by share of the title found: short titles gather less evidence
            sum(other > score for other in columns[j].values()),
            sum(other / totals[k] > coverage for k, other in columns[j].items()),
        )
        margin = _margin(i, j, rows, columns, pairs, partner_of_abstract)
        shared = len(_words(title_terms[i]) & _words(abstract_terms[j]))
        if coverage >= MIN_COVERAGE and shared >= MIN_SHARED_WORDS and row_rank < MAX_RANK and column_rank < MAX_RANK and margin >= MIN_MARGIN:
            yield untitled[j], titled[i], (
                f"title-abstract evidence {score:.1f} ({coverage:.0%} of the title's weighted words and phrases), "
                f"assigned one to one among {count} abstracts of the venue, ahead of the runner-up by {margin:.1f}"
            )


def _matching(rows: list[dict[int, float]], columns: list[dict[int, float]]) -> dict[int, int]:
    """Title index -> abstract index of a maximum-weight one-to-one assignment (pairs with evidence only)."""
    import numpy as np  # here, not at the top: every command opens a store through this module (0.3 s of imports)
    from scipy.optimize import linear_sum_assignment

    weights = np.zeros((len(rows), len(columns)), dtype=np.float32)
    for i, row in enumerate(rows):
        for j, score in row.items():
            weights[i, j] = score
    titles, abstracts = linear_sum_assignment(weights, maximize=True)
    return {int(i): int(j) for i, j in zip(titles, abstracts) if j in rows[i]}


def _margin(i: int, j: int, rows, columns, pairs: dict[int, int], partner_of_abstract: dict[int, int]) -> float:
    """How much the pair (i, j) beats the best exchange with a runner-up, in evidence: title i
    taking another abstract (whose title then takes j), or abstract j going to another title
    (whose abstract then goes to i)."""
    def evidence(title: int | None, abstract: int | None) -> float:
        return rows[title].get(abstract, 0.0) if title is not None and abstract is not None else 0.0

    def exchanges() -> Iterator[tuple[float, float]]:
        for other, other_score in rows[i].items():
            if other != j:
                holder = partner_of_abstract.get(other)
                yield evidence(holder, other), other_score + evidence(holder, j)
        for other, other_score in columns[j].items():
            if other != i:
                held = pairs.get(other)
                yield evidence(other, held), other_score + evidence(i, held)

    score = rows[i][j]
    return min([score] + [score + kept - swapped for kept, swapped in exchanges()])
