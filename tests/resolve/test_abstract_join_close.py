"""Abstract joining with a close runner-up (kg/resolve/abstract_join.py): a title whose own abstract is
missing, beside a near abstract of a paper the listing lacks, stays unjoined rather than guessed."""

from __future__ import annotations

from kg.rdf.iris import Minter
from kg.resolve.abstract_join import MIN_MARGIN
from kg.resolve.papers import PaperFacts, find_merges
from kg.resolve.store_step import merge_triples
from resolve.test_abstract_join import VENUE, abstract_for, venue_papers


def _merged(papers) -> dict[str, str]:
    return {merge.absorbed.iri: merge.canonical.iri for merge in find_merges(papers).merges}


def test_a_stray_title_takes_no_near_abstract_of_a_paper_the_listing_lacks():
    titled, untitled = venue_papers()
    # t00 "Tamed Langevin Sampling under Weak Dissipativity" has lost its abstract; the abstracts file
    # holds one of a near paper the listing lacks, and the listing a third paper near both
    untitled = untitled[1:] + [
        PaperFacts(
            "p:stray",
            "g:abstracts",
            abstract=abstract_for("langevin sampling under weak dissipativity", "tamed sampling"),
            venues=set(VENUE),
        )
    ]
    titled.append(
        PaperFacts("p:t99", "g:listing", title="Weak Dissipativity in Tamed Langevin Sampling", venues=set(VENUE))
    )
    untitled.append(
        PaperFacts(
            "p:a99",
            "g:abstracts",
            abstract=abstract_for("langevin sampling with weak dissipativity", "tamed langevin sampling"),
            venues=set(VENUE),
        )
    )
    merged = _merged(titled + untitled)
    assert "p:stray" not in merged
    assert "p:t00" not in merged.values()
    # near miss: the abstracts of the papers nobody comes close to are joined as before
    assert all(merged.get(f"p:a{i:02}") == f"p:t{i:02}" for i in range(1, len(titled) - 1))


def test_every_join_keeps_its_score_and_margin():
    titled, untitled = venue_papers()
    merges = find_merges(titled + untitled).merges
    assert merges and all(m.scores and m.scores[0] > 0 and m.scores[1] >= MIN_MARGIN for m in merges)
    triples = list(merge_triples(find_merges(titled + untitled), Minter()))
    kept = {str(t.predicate).rsplit("#", 1)[-1].rstrip(">") for t in triples if "join" in str(t.predicate)}
    assert kept == {"joinScore", "joinMargin"}
