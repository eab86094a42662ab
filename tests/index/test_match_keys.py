"""Match keys and acronyms: derived from every name, and stored as the folded names of each entity."""

from __future__ import annotations

import pytest

from kg.index.match_keys import ENTITY_CLASSES, derived_acronyms
from kg.text.names import match_key
from kg.vocab import KG, SKOS


def test_acronyms_are_derived_from_any_name():
    assert "ustc" in derived_acronyms("University of Science and Technology of China")
    assert "uiuc" in derived_acronyms("University of Illinois Urbana-Champaign")
    assert "mit" in derived_acronyms("Massachusetts Institute of Technology")
    assert {"dfki", "dsa"} <= derived_acronyms("German Research Center for Artificial Intelligence (DFKI, DSA)")
    assert derived_acronyms("Caltech") == set() and derived_acronyms("中国科学技术大学") == set()


@pytest.mark.parametrize("kind", ["author", "institution", "topic"])
def test_derived_match_keys_are_the_match_keys_of_the_labels(sample_store, kind):
    """The keys the resolution step stored are exactly the folded names (and acronyms) of each entity."""
    cls = str(ENTITY_CLASSES[kind])
    stored: dict[str, set[str]] = {}
    for entity, key in sample_store.select_terms(f"SELECT ?e ?k WHERE {{ ?e a {cls} ; {KG.matchKey} ?k }}"):
        stored.setdefault(entity.value, set()).add(key.value)
    labels = sample_store.select_terms(
        f"SELECT ?e ?l WHERE {{ ?e a {cls} . {{ ?e "
        f"{SKOS.prefLabel}|{SKOS.altLabel}|{KG.nameAsWritten} ?l }} "
        f"UNION {{ ?a {KG.author} ?e ; {KG.nameAsWritten} ?l }} }}"
    )
    expected: dict[str, set[str]] = {}
    for entity, label in labels:
        expected.setdefault(entity.value, set()).add(match_key(label.value))
    assert stored and stored == expected
    acronyms = {
        row[0].value for row in sample_store.select_terms(f"SELECT ?e WHERE {{ ?e a {cls} ; {KG.acronymKey} ?k }}")
    }
    assert bool(acronyms) == (kind == "institution")
