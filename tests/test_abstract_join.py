"""Abstracts joined to their titled papers on text evidence (kg/resolve/abstract_join.py)."""

from __future__ import annotations

from kg.resolve.abstract_join import MIN_VENUE_ABSTRACTS, text_terms
from kg.resolve.papers import PaperFacts, find_merges

VENUE = {"https://kg.example.org/id/venue/aistats-2025"}
TOPICS = [
    ("Tamed Langevin Sampling under Weak Dissipativity", "langevin sampling", "dissipativity"),
    ("Conformal Risk Control for Ranking", "conformal risk control", "ranking"),
    ("Kernel Two-Sample Tests with Optimal Bandwidth", "two-sample tests", "bandwidth"),
    ("Causal Discovery in Mixed Additive Noise Models", "additive noise models", "causal discovery"),
    ("Sparse Gaussian Processes via Inducing Points", "inducing points", "gaussian processes"),
    ("Thompson Sampling for Combinatorial Bandits", "combinatorial bandits", "thompson sampling"),
    ("Private Mean Estimation under Heavy Tails", "heavy tails", "private mean estimation"),
    ("Tensor Network Feature Learning", "tensor network", "feature maps"),
    ("Wasserstein Barycenters of Point Clouds", "wasserstein barycenters", "point clouds"),
    ("Federated Optimisation with Client Drift", "client drift", "federated optimisation"),
    ("Bayesian Quadrature for Expensive Integrals", "bayesian quadrature", "integrals"),
    ("Message Passing on Hypergraphs", "hypergraphs", "message passing"),
    ("Score Matching for Discrete Diffusion", "discrete diffusion", "score matching"),
    ("Robust Principal Component Pursuit", "principal component pursuit", "outliers"),
    ("Counterfactual Explanations for Recourse", "counterfactual explanations", "recourse"),
    ("Stochastic Compositional Minimax Optimisation", "compositional minimax", "stochastic gradients"),
    ("Sample Compression Bounds for Real-Valued Losses", "sample compression", "real-valued losses"),
    ("Integer Programming for Causal Graph Learning", "integer programming", "mixed graphs"),
    ("Membership Inference against Targeted Records", "membership inference", "leakage"),
    ("Variational Inference with Normalising Flows", "normalising flows", "variational inference"),
    ("Active Learning of Level Sets", "level sets", "active learning"),
    ("Spectral Clustering of Signed Networks", "signed networks", "spectral clustering"),
]


def abstract_for(words: str, more: str) -> str:
    return (f"We study {words} in a general setting. Existing methods for {more} are limited, and we propose "
            f"a new approach to {words} with guarantees. Experiments show the benefit of our analysis of {more}.")


def venue_papers(venue=VENUE) -> tuple[list[PaperFacts], list[PaperFacts]]:
    titled = [PaperFacts(f"p:t{i:02}", "g:listing", title=title, venues=set(venue)) for i, (title, _, _) in enumerate(TOPICS)]
    untitled = [PaperFacts(f"p:a{i:02}", "g:abstracts", abstract=abstract_for(words, more), venues=set(venue))
                for i, (_, words, more) in enumerate(TOPICS)]
    return titled, untitled


def merged(decisions) -> dict[str, str]:
    return {m.absorbed.iri: m.canonical.iri for m in decisions.merges}


def test_every_abstract_of_a_venue_joins_its_own_title_and_says_why():
    titled, untitled = venue_papers()
    decisions = find_merges(titled + untitled)
    assert merged(decisions) == {f"p:a{i:02}": f"p:t{i:02}" for i in range(len(TOPICS))}
    merge = decisions.merges[0]
    assert merge.evidence == ("title-abstract",)
    assert "one to one" in merge.explanation and "runner-up" in merge.explanation


def test_an_abstract_without_its_title_is_left_alone_not_given_to_a_neighbour():
    titled, untitled = venue_papers()
    # The Langevin paper's title and the Thompson paper's abstract are missing: what is left
    # of each shares one rare word ("sampling"), which is not enough.
    decisions = find_merges(titled[1:] + untitled[:5] + untitled[6:])
    joined = merged(decisions)
    assert "p:a00" not in joined and "p:t05" not in joined.values()
    assert all(absorbed[3:] == canonical[3:] for absorbed, canonical in joined.items())
    assert len(joined) == len(TOPICS) - 2


def test_two_titles_that_share_the_abstract_s_words_keep_apart_from_it():
    titled, untitled = venue_papers()
    twin = PaperFacts("p:twin", "g:listing", title=TOPICS[0][0] + " Revisited", venues=set(VENUE))
    joined = merged(find_merges(titled + [twin] + untitled))
    assert joined.get("p:a00") in (None, "p:t00") and "p:twin" not in joined.values()


def test_a_small_venue_never_merges_on_words_alone():
    titled, untitled = venue_papers()
    few = MIN_VENUE_ABSTRACTS - 1
    assert len(untitled) > few
    assert merged(find_merges(titled[:few] + untitled[:few])) == {}


def test_titles_and_abstracts_of_different_venues_never_join():
    titled, _ = venue_papers()
    _, untitled = venue_papers({"https://kg.example.org/id/venue/corl-2024"})
    assert merged(find_merges(titled + untitled)) == {}


def test_terms_fold_plurals_hyphens_and_words_broken_across_lines():
    assert {"robot", "~robot", "self", "supervised", "bidirected"} <= text_terms("self-supervised robots, bidi- rected edges")
    assert "~robot" in text_terms("robotic arms")
