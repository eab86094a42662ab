"""Which papers from different sources are the same paper, and why.

A merge needs strong evidence, and always two kinds of it together:

- **coined name**: the title opens with a coined name ("MLUBench: A Benchmark for …") and
  the abstract introduces exactly that artifact ("we introduce the MLUBench, …"); merely
  mentioning it ("we evaluate on MLUBench") is not enough; or
- **same URL**: both records link the same code or project URL;

each confirmed by the title's content words appearing in the abstract (at least
:data:`MIN_TITLE_COVERAGE` of them). Two records that both have abstracts merge on **text
similarity** alone when their word trigrams overlap by :data:`MIN_ABSTRACT_SIMILARITY`.

Most real titles coin no name, so a titled paper and an abstract of the same venue and year
also merge on **title-abstract** evidence (:mod:`kg.resolve.abstract_join`): the title's
distinctive words and phrases found in the abstract, weighed by how rare they are among the
venue's abstracts, in a one-to-one assignment of titles to abstracts that beats the
runner-up by a margin, and checked against the order of the two files where their pairs show one
(**record-order**).

Records of two sources that give one identifier of the paper (**same-doi**, **same-arxiv**,
**same-openreview** forum, **same-ieee** document, **same-pmlr**, **same-acl** Anthology paper: links
to its page) are one paper whatever their titles, unless they give different ids of one scheme.

Never merged otherwise: papers of the same source (a listing does not repeat a paper), two titled
papers (equal titles and bylines already share an IRI; otherwise they are different papers), papers
at different venues, and any candidate that matches more than one paper (ambiguous: both
kept, and the report says so).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from ..ingest.identifiers import paper_id_of_link
from ..text.domains import host
from ..text.lexicon import STOP_WORDS
from ..text.names import match_key
from .abstract_join import title_abstract_matches
from .paper_facts import PaperFacts

MIN_TITLE_COVERAGE = 0.5
MIN_ABSTRACT_SIMILARITY = 0.8
# A word of letters, digits and hyphens with a capital or a digit after its first letter: one match, not a test a letter
_COINED = re.compile(r"^[A-Za-z][A-Za-z0-9\-]*[A-Z0-9][A-Za-z0-9\-]*$")
_INTRODUCING = re.compile(
    r"\b(?:we|this (?:paper|work))\s+(?:\w+\s+)?(?:introduce|propose|present|release|develop|construct|build|design|"
    r"curate|call|term|dub|name)s?\b([^.]{0,160})",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Merge:
    absorbed: PaperFacts
    canonical: PaperFacts
    evidence: tuple[str, ...]
    explanation: str
    scores: tuple[float, float] | None = None  # a title-abstract join's evidence and margin


@dataclass
class MergeDecisions:
    merges: list[Merge] = field(default_factory=list)
    ambiguous: list[tuple[PaperFacts, list[PaperFacts]]] = field(default_factory=list)


def is_coined(word: str) -> bool:
    """A made-up name: capitals or digits after the first letter (MLUBench, nD-RoPE, A2SG, ECA)."""
    return bool(_COINED.match(word))


def coined_name(title: str | None) -> str | None:
    """The coined name a title opens with ("DynaTok: …"), if any."""
    if not title or (":" not in title and "：" not in title):  # most titles: no split to make
        return None
    head = re.split(r"[:：]", title, maxsplit=1)
    if len(head) < 2:
        return None
    name = head[0].strip()
    return name if is_coined(name) else None


def introduced_names(abstract: str | None) -> set[str]:
    """Coined names the abstract says it introduces, proposes, presents or releases."""
    names = set()
    for match in _INTRODUCING.finditer(abstract or ""):
        for word in re.findall(r"[A-Za-z][A-Za-z0-9\-]*", match.group(1)):
            if is_coined(word):
                names.add(word.casefold())
    return names


def _words(text: str) -> set[str]:
    return {word.removesuffix("s") for word in match_key(text).split() if len(word) > 2 and word not in STOP_WORDS}


def title_coverage(title: str, abstract: str) -> float:
    """The share of the title's content words that occur in the abstract (plurals folded)."""
    wanted = _words(title)
    return len(wanted & _words(abstract)) / len(wanted) if wanted else 0.0


def abstract_similarity(a: str, b: str) -> float:
    """Jaccard overlap of word trigrams."""

    def trigrams(text: str) -> set[tuple[str, ...]]:
        words = match_key(text).split()
        return {tuple(words[i : i + 3]) for i in range(max(0, len(words) - 2))}

    first, second = trigrams(a), trigrams(b)
    return len(first & second) / len(first | second) if first and second else 0.0


def normalise_url(url: str) -> str:
    path = url.split("://", 1)[-1].split("/", 1)[1] if "/" in url.split("://", 1)[-1] else ""
    return f"{host(url)}/{path.rstrip('/').removesuffix('.git').casefold()}"


def paper_ids(paper: PaperFacts) -> dict[str, str]:
    """The paper's identifiers by scheme, from the links to its pages (DOI, arXiv, OpenReview forum,
    IEEE Xplore, PMLR, ACL Anthology); a scheme with two values in one source says nothing."""
    found: dict[str, set[str]] = defaultdict(set)
    for url in paper.urls:
        if known := paper_id_of_link(url):
            found[known[0]].add(known[1])
    return {scheme: next(iter(values)) for scheme, values in found.items() if len(values) == 1}


def same_identifier(candidate: PaperFacts, other: PaperFacts) -> tuple[tuple[str, ...], str] | None:
    """Two records of one paper by an identifier both give, whatever their titles; never where
    they give different ids of one scheme (a conference paper and its journal version)."""
    first, second = paper_ids(candidate), paper_ids(other)
    shared = sorted(scheme for scheme in first.keys() & second.keys() if first[scheme] == second[scheme])
    if not shared or any(first[scheme] != second[scheme] for scheme in first.keys() & second.keys()):
        return None
    said = "; ".join(f"both are {scheme} {first[scheme]}" for scheme in shared)
    if candidate.title and other.title and candidate.title != other.title:
        said += f" (titled {candidate.title!r} and {other.title!r})"
    return tuple(f"same-{scheme}" for scheme in shared), said


def evidence(candidate: PaperFacts, other: PaperFacts) -> tuple[tuple[str, ...], str] | None:
    """The evidence that two papers of two sources are one, with an explanation, or None."""
    if candidate.graph == other.graph:
        return None
    return same_identifier(candidate, other) or _text_evidence(candidate, other)


def _text_evidence(candidate: PaperFacts, other: PaperFacts) -> tuple[tuple[str, ...], str] | None:
    """Evidence from the text of a titled paper and an abstract, or of two abstracts, of one venue."""
    if candidate.title and other.title:
        return None
    if candidate.venues and other.venues and not candidate.venues & other.venues:
        return None
    if candidate.abstract and other.abstract:
        similarity = abstract_similarity(candidate.abstract, other.abstract)
        if similarity >= MIN_ABSTRACT_SIMILARITY:
            return ("text-similarity",), f"abstracts overlap {similarity:.0%} (word trigrams)"
        return None
    titled, untitled = (candidate, other) if candidate.title else (other, candidate)
    if not titled.title or not untitled.abstract:
        return None
    return _title_and_abstract_evidence(titled, untitled)


def _title_and_abstract_evidence(titled: PaperFacts, untitled: PaperFacts) -> tuple[tuple[str, ...], str] | None:
    """Evidence that a titled paper is the one an abstract describes: the abstract holds most of
    the title's words, and introduces the title's coined name or links a URL the paper links."""
    coverage = title_coverage(titled.title, untitled.abstract)
    if coverage < MIN_TITLE_COVERAGE:
        return None
    found, reasons = [], []
    name = coined_name(titled.title)
    if name and name.casefold() in introduced_names(untitled.abstract):
        found.append("coined-name")
        reasons.append(f"the title's coined name {name!r} is what the abstract introduces")
    shared = {normalise_url(u) for u in titled.urls} & {normalise_url(u) for u in untitled.urls}
    if shared:
        found.append("same-url")
        reasons.append(f"both link {sorted(shared)[0]}")
    if not found:
        return None
    reasons.append(f"{coverage:.0%} of the title's words are in the abstract")
    return tuple(found), "; ".join(reasons)


def blocking_keys(paper: PaperFacts) -> set[str]:
    """Cheap keys that any pair worth comparing shares, so not every pair is compared."""
    keys = {f"url:{normalise_url(url)}" for url in paper.urls}
    if name := coined_name(paper.title):
        keys.add(f"name:{name.casefold()}")
    keys |= {f"name:{name}" for name in introduced_names(paper.abstract)}
    if paper.abstract:
        keys.add("opening:" + " ".join(match_key(paper.abstract).split()[:8]))
    return keys


_Match = tuple[PaperFacts, PaperFacts, tuple[str, ...], str, tuple | None]  # absorbed, canonical, kinds, why, scores
# A pair of papers of one block that some evidence makes one: where it is found (the block's key, the first paper's
# IRI and graph, the second's: the order the blocks are gone through in), absorbed, canonical, kinds, why.
Found = tuple[tuple[str, str, str, str, str], PaperFacts, PaperFacts, tuple[str, ...], str]


def find_merges(papers: list[PaperFacts]) -> MergeDecisions:
    """One-to-one merges of papers into canonical ones; deterministic for the same papers."""
    blocks: dict[str, list[PaperFacts]] = defaultdict(list)
    for paper in sorted(papers, key=lambda p: (p.iri, p.graph)):  # the order of a block's pairs: see Found
        for key in blocking_keys(paper):
            blocks[key].append(paper)
    graphs_of: dict[str, set[str]] = defaultdict(set)
    for paper in papers:
        graphs_of[paper.iri].add(paper.graph)
    found = (
        pair
        for key, block in blocks.items()
        for i, first in enumerate(block)
        for second in block[i + 1 :]
        if (pair := found_pair(key, first, second)) is not None
    )
    return decided(sorted(found, key=lambda pair: pair[0]), title_abstract_matches(papers), graphs_of)


def found_pair(key: str, first: PaperFacts, second: PaperFacts) -> Found | None:
    """The pair of a block (``first`` before ``second`` in (IRI, graph) order) if some evidence makes it one."""
    found = evidence(first, second)
    if found is None:
        return None
    return ((key, first.iri, first.graph, second.iri, second.graph), *_roles(first, second), *found)


def decided(found: Iterable[Found], joins: Iterable[_Match], graphs_of: Mapping[str, set[str]]) -> MergeDecisions:
    """The merges of the pairs of blocks (``found``, in the order found) and the title-abstract joins, one to one."""
    return _decided(_candidate_matches(found, joins, graphs_of))


def _candidate_matches(
    found: Iterable[Found], joins: Iterable[_Match], graphs_of: Mapping[str, set[str]]
) -> dict[tuple[str, str], dict[str, _Match]]:
    """Per absorbed paper (IRI, graph), every canonical paper some evidence pairs it with."""
    matches: dict[tuple[str, str], dict[str, _Match]] = defaultdict(dict)
    # Blocks in key order: one pair of papers can share several keys, and a paper stated by two
    # sources (an IRI in two graphs) can match one abstract with different evidence, of which the
    # first found is kept, so the evidence recorded must not follow the hash order of the keys.
    for _, absorbed, canonical, kinds, explanation in found:
        if absorbed.graph not in graphs_of[canonical.iri]:  # a rewrite in a graph must be undoable
            matches[(absorbed.iri, absorbed.graph)].setdefault(
                canonical.iri, (absorbed, canonical, kinds, explanation, None)
            )
    for absorbed, canonical, kinds, explanation, scores in joins:
        if absorbed.graph not in graphs_of[canonical.iri]:
            matches[(absorbed.iri, absorbed.graph)].setdefault(
                canonical.iri, (absorbed, canonical, kinds, explanation, scores)
            )
    return matches


def _decided(matches: dict[tuple[str, str], dict[str, _Match]]) -> MergeDecisions:
    """The merges that are one to one: a paper with two candidates, a canonical paper two papers of
    one graph would merge into, or one that is itself absorbed, is ambiguous instead."""
    absorbed_iris = {iri for iri, _ in matches}
    targets: dict[tuple[str, str], int] = defaultdict(int)
    for candidates in matches.values():
        if len(candidates) == 1:
            absorbed, canonical, _, _, _ = next(iter(candidates.values()))
            targets[(canonical.iri, absorbed.graph)] += 1
    decisions = MergeDecisions()
    for ident in sorted(matches):
        candidates = matches[ident]
        absorbed = next(iter(candidates.values()))[0]
        if len(candidates) > 1:
            decisions.ambiguous.append((absorbed, sorted((c[1] for c in candidates.values()), key=lambda p: p.iri)))
            continue
        _, canonical, kinds, explanation, scores = next(iter(candidates.values()))
        if targets[(canonical.iri, absorbed.graph)] > 1 or canonical.iri in absorbed_iris:
            decisions.ambiguous.append((absorbed, [canonical]))
            continue
        decisions.merges.append(Merge(absorbed, canonical, kinds, explanation, scores))
    return decisions


def _roles(first: PaperFacts, second: PaperFacts) -> tuple[PaperFacts, PaperFacts]:
    """(absorbed, canonical): the titled paper is canonical, else the smaller IRI."""
    if first.title and not second.title:
        return second, first
    if second.title and not first.title:
        return first, second
    return (second, first) if first.iri < second.iri else (first, second)
