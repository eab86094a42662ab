"""Match keys and acronyms: derived from every name, and stored as the folded names of each entity."""

from __future__ import annotations

import io

import pytest

from kg.index import match_keys
from kg.index.match_keys import (
    ENTITY_CLASSES,
    EntityKeys,
    derived_acronyms,
    key_line_triples,
    key_lines,
    person_keys_line,
)
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


def test_key_lines_are_one_line_an_entity_in_iri_order(tmp_path, monkeypatch):
    """The people's lines as they are, the institutions' and topics' among them in IRI order, an IRI of two kinds
    on one line; each line's triples are its match keys and acronym keys."""
    people = tmp_path / "keys"
    people.write_text(person_keys_line("http://x/b", ["Bea"]) + person_keys_line("http://x/d", ["Dee", "D."]))
    others = {
        "institution": [
            EntityKeys("institution", "http://x/a", frozenset({"a lab"}), frozenset({"al"})),
            EntityKeys("institution", "http://x/d", frozenset({"d inst"}), frozenset()),
        ],
        "topic": [EntityKeys("topic", "http://x/z", frozenset({"zed"}), frozenset())],
    }
    monkeypatch.setattr(match_keys, "entity_keys", lambda store, kind, path: iter(others[kind]))
    out = io.StringIO()
    key_lines(None, people, out)
    lines = out.getvalue().splitlines(keepends=True)
    assert [line.split("\t")[0] for line in lines] == ["http://x/a", "http://x/b", "http://x/d", "http://x/z"]
    assert lines[1] == person_keys_line("http://x/b", ["Bea"])
    triples = {(t.subject.value, t.predicate, t.object.value) for line in lines for t in key_line_triples(line)}
    assert triples == {
        ("http://x/a", KG.matchKey, "a lab"),
        ("http://x/a", KG.acronymKey, "al"),
        ("http://x/b", KG.matchKey, "bea"),
        ("http://x/d", KG.matchKey, "d"),
        ("http://x/d", KG.matchKey, "dee"),
        ("http://x/d", KG.matchKey, "d inst"),
        ("http://x/z", KG.matchKey, "zed"),
    }
