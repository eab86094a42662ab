"""The forgiving name look-up gives the same answers from the stored key index
(kg/index/name_index.py) as from every key read as a row (a store resolved before the index)."""

from __future__ import annotations

import pytest

from kg import SAMPLES_DIR
from kg.errors import KgError
from kg.index.match_keys import ENTITY_CLASSES, named_entities, text_rows
from kg.index.name_index import key_index
from kg.ingest.synth import write_corpus
from kg.pipeline import ingest
from kg.query.library import find_entity, search_names
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore
from kg.vocab import KG

TYPED = {
    "author": [
        "Gerhard Neumann",
        "neumann gerhard",
        "GERHARD NEUMANN",
        "balazs gyenes",
        "Balazs-Gyenes",
        "gerhardneumann",
        "gerhard neumnan",
        "neuman",
        "wei wnag",
        "wang wei",
        "wang",
        "li",
        "zzzz qqqq",
        "a wang wei",
    ],
    "institution": [
        "USTC",
        "HKUST",
        "tsinghua",
        "university tsinghua",
        "tsinghau university",
        "中国科学技术大学",
        "清华",
        "deepmind google",
        "google",
        "MSR",
        "xyzzy",
        "university",
    ],
    "topic": ["RL", "reinforcment learning", "learning reinforcement", "learning", "graph neural network", "qqq"],
}


def answers(store) -> dict[tuple[str, str], str]:
    found = {}
    for kind, texts in TYPED.items():
        for text in texts:
            try:
                found[(kind, text)] = str(find_entity(store, kind, text))
            except KgError as error:
                found[(kind, text)] = f"error: {error}"
    return found


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    corpus = tmp_path_factory.mktemp("names") / "synth.txt"
    with corpus.open("w", encoding="utf-8") as handle:
        write_corpus(handle, 300, seed=5)
    store = KGStore("memory")
    ingest([SAMPLES_DIR, corpus], store, Minter())
    return store


@pytest.mark.slow
def test_the_index_gives_the_answers_of_the_keys_read_as_rows(store):
    assert all(key_index(store, kind, text_rows) is not None for kind in TYPED), "the resolution step wrote the index"
    with_index = answers(store)
    store.update(f"DELETE WHERE {{ GRAPH ?g {{ ?index {KG.matchKeyLines} ?lines ; {KG.matchKeyList} ?keys }} }}")
    assert not list(store.select_terms(f"SELECT ?i WHERE {{ ?i {KG.matchKeyLines} ?l }}")), "the index is gone"
    assert answers(store) == with_index
    kinds = {answer.split(":")[0] for answer in with_index.values()}
    assert {"https", "error"} <= kinds  # found entities, ambiguities and near misses alike
    assert any("closest:" in answer for answer in with_index.values())
    assert any("ambiguous" in answer for answer in with_index.values())


@pytest.mark.parametrize("kind", ["author", "topic"])
def test_the_pages_search_keys_read_from_the_index_are_the_labels_keys(kind):
    store = KGStore("memory")
    ingest([SAMPLES_DIR], store, Minter())
    from_index = search_names(store, kind)
    from_labels = {named.iri: (sorted(named.keys - {""}), []) for named in named_entities(store, kind)}
    assert from_index == from_labels and len(from_index) > 10


@pytest.mark.slow
def test_an_index_written_in_chunks_gives_the_same_answers(store, tmp_path, monkeypatch):
    """The index is split into literals of about CHUNK characters (Oxigraph's parser refuses an
    N-Triples line over 16 MB, which the author index passed at 300,000 papers); read back, sorted
    and joined, the chunks answer as one literal does."""
    from kg.index import name_index

    monkeypatch.setattr(name_index, "CHUNK", 300)
    corpus = tmp_path / "synth.txt"
    with corpus.open("w", encoding="utf-8") as handle:
        write_corpus(handle, 300, seed=5)
    chunked = KGStore("memory")
    ingest([SAMPLES_DIR, corpus], chunked, Minter())
    pieces = list(chunked.select_terms(f"SELECT ?l WHERE {{ ?i {KG.matchKeyLines} ?l }}"))
    assert len(pieces) > 20 and max(len(piece[0].value) for piece in pieces) < 600
    rows = text_rows(chunked, f"SELECT ?e ?key WHERE {{ ?e a {ENTITY_CLASSES['author']} ; {KG.matchKey} ?key }}")
    index = key_index(chunked, "author", text_rows)
    assert index.prefix == Minter().iri("author", "x")[:-1]
    assert index.lines == "\n".join(
        sorted(f"{key.replace(' ', '')}\t{key}\t{e.removeprefix(index.prefix)}" for e, key in rows)
    )
    assert answers(chunked) == answers(store)


def test_the_joined_tier_finds_by_binary_search_what_a_scan_finds():
    """Keys that are a prefix of others (weiwang, weiwangx), at the first and last line, absent
    ones between two lines and past either end: the binary search agrees with a scan."""
    import random

    from kg.index.name_index import KeyIndex

    rng = random.Random(7)
    joined = ["weiwang", "weiwangx", "weiwan", "a", "zz", "wei", "weiwangxy", "b"] + [
        "".join(rng.choice("abwx") for _ in range(rng.randint(1, 4))) for _ in range(300)
    ]
    lines = sorted({f"{key}\t{key}\tentity-{n % 7}" for n, key in enumerate(joined)})
    index = KeyIndex("\n".join(lines), sorted(joined), "https://example.org/author/")
    for probe in [*joined, "", "0", "weiwangw", "weiwa", "zzz", "{", "ab", "x" * 5]:
        scanned = {
            "https://example.org/author/" + line.split("\t")[2] for line in lines if line.split("\t")[0] == probe
        }
        assert index.joined(probe) == scanned, probe


def test_entities_sharing_no_iri_start_are_indexed_whole():
    """Entities under two bases share no "…/" start: the index keeps their whole IRIs."""
    from kg.index.match_keys import EntityKeys
    from kg.index.name_index import name_index_triples
    from kg.vocab import FOAF

    store = KGStore("memory")
    iris = ["urn:a:wei", "https://example.org/author/wang"]
    store.update("INSERT DATA { GRAPH <urn:g> { " + " ".join(f"<{i}> a {FOAF.Person} ." for i in iris) + " } }")
    entities = sorted((EntityKeys("author", i, frozenset({i[-4:]}), frozenset()) for i in iris), key=lambda e: e.iri)
    triples = list(name_index_triples(store, "author", lambda: entities, Minter()))
    prefix = [t.object.value for t in triples if t.predicate == KG.entityPrefix and "author" in t.subject.value]
    assert prefix == [""]
    lines = next(t.object.value for t in triples if t.predicate == KG.matchKeyLines and "author" in t.subject.value)
    assert sorted(line.split("\t")[2] for line in lines.split("\n")) == sorted(iris)
