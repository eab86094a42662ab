"""eval.real_institutions on the real listings: spellings on one node, institutions apart."""

from __future__ import annotations

import pytest


@pytest.mark.realdata
@pytest.mark.parametrize("name", ["aistats2025", "corl2024"])
def test_real_listings_keep_spellings_together_and_institutions_apart(name):
    from structured_sources import realdata, truth

    listing = realdata(f"{name}_listing.txt")
    from eval.real_institutions import _build, institution_scores

    scores = institution_scores(_build(listing), truth(name))
    assert scores["pairs"] > 100
    assert scores["spelling_pairs_together"] >= 0.90, scores["pairs_apart"]
    assert scores["merging_nodes"] == 0, scores["merging_examples"]
