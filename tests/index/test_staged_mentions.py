"""The author mentions kept while staging stand for reading them back: the same graph either way."""

from __future__ import annotations

import os

import pyoxigraph as ox
import pytest

from kg.index.staged_mentions import StagedMentions
from kg.ingest.synth import write_corpus
from kg.pipeline import ingest
from kg.rdf.iris import Minter
from kg.resolve import store_step
from kg.resolve.store_step import resolution_suspended
from kg.stores.embedded import KGStore
from kg.vocab import KG


def quads(store: KGStore) -> list[str]:
    return sorted(str(quad) for quad in store.oxigraph.quads_for_pattern(None, None, None))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A listing and a paperlists file of the same synthetic papers: name-only and identified people."""
    folder = tmp_path_factory.mktemp("corpus")
    for name, format_name in (("listing.txt", "listing"), ("papers.json", "paperlists")):
        with open(folder / name, "w", encoding="utf-8") as out:
            write_corpus(out, 120, 3, format_name)
    return folder


def test_a_run_that_stages_every_source_resolves_as_reading_back_does(corpus, monkeypatch):
    store, minter = KGStore("memory"), Minter()
    used = []
    monkeypatch.setattr(store_step, "_union_rows", lambda mentions: used.append(1) or _union(mentions))
    ingest([corpus], store, minter)
    assert used, "the staged mentions were not used"
    staged = quads(store)
    assert any(KG.PersonMerge.value in quad or KG.SamePersonByIdentifier.value in quad for quad in staged)
    with resolution_suspended(store, minter):  # resolved again, every mention read from the store
        pass
    assert quads(store) == staged


_union = store_step._union_rows


def test_a_run_beside_other_sources_reads_the_mentions_back(corpus, monkeypatch):
    store, minter = KGStore("memory"), Minter()
    ingest([corpus / "papers.json"], store, minter)
    used = []
    monkeypatch.setattr(store_step, "_union_rows", lambda mentions: used.append(1) or _union(mentions))
    ingest([corpus / "listing.txt"], store, minter)
    assert not used


def test_mentions_are_read_from_whole_lines():
    mentions, graph = StagedMentions(), ox.NamedNode("https://kg.example.org/id/source/a")
    mentions.keep(
        graph.value,
        f'<https://x/a1> {KG.author} <https://x/p> .\n<https://x/a1> {KG.nameAsWritten} "Zoë \\"Z\\" Li"@en .\n'
        f'<https://x/o> {KG.nameAsWritten} "Org"@en .\n'.encode(),
    )
    assert [(g, a, p, w.value) for g, a, p, w in mentions.mentions()] == [
        (graph.value, "https://x/a1", "https://x/p", 'Zoë "Z" Li')
    ]


def test_mentions_stand_for_the_store_only_once_their_graphs_are_loaded():
    mentions, graph = StagedMentions(), ox.NamedNode("https://kg.example.org/id/source/a")
    with open(os.devnull, "wb") as sink:
        mentions.tap(graph, sink).write(b"")
    assert not mentions.covers([graph.value])  # staged, the commit not made (or failed): the store's own
    mentions.loaded = True
    assert mentions.covers([graph.value])
    assert not mentions.covers([graph.value, "https://kg.example.org/id/source/b"])
