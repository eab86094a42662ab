"""`kg synth`: deterministic corpora the readers take back whole, with realistic shapes."""

from __future__ import annotations

import io
import statistics
from collections import Counter

import pytest
from conftest import run_kg

from kg.ingest.synth import listing_block, papers, write_corpus
from kg.pipeline import ingest
from kg.query.stats import graph_stats
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore
from kg.text.names import has_cjk, match_key
from kg.vocab import sparql_prologue

N = 400


def build(tmp_path, format_name):
    path = tmp_path / f"{format_name}.txt"
    with open(path, "w", encoding="utf-8") as handle:
        write_corpus(handle, N, seed=11, format_name=format_name)
    store = KGStore("memory")
    report = ingest([path], store, Minter())
    return store, report


def count(store, pattern: str, distinct: str = "*") -> int:
    counted = distinct if distinct == "*" else f"DISTINCT {distinct}"
    return store.scalar(sparql_prologue() + f"SELECT (COUNT({counted}) AS ?n) WHERE {{ {pattern} }}")


def test_same_seed_same_bytes_and_the_cli_writes_it(tmp_path):
    run_kg("synth", "--papers", "50", "--seed", "5", "--out", "a.txt", cwd=tmp_path)
    again = run_kg("synth", "--papers", "50", "--seed", "5", cwd=tmp_path).stdout
    assert (tmp_path / "a.txt").read_bytes() == again
    other = io.StringIO()
    write_corpus(other, 50, seed=6)
    assert other.getvalue().encode() != again


def test_listing_round_trip_counts_match(tmp_path):
    generated = list(papers(N, seed=11))
    store, report = build(tmp_path, "listing")
    assert (report.read, report.ingested, len(report.rejections)) == (N, N, 0)
    stats = graph_stats(store)
    assert stats["papers"] == N
    assert stats["authorships"] == sum(len(p.authors) for p in generated)
    assert stats["authors"] == len({match_key(a) for p in generated for a in p.authors})
    # As listed on papers (a unit's parent organisation is a node too, but not listed itself).
    listed = count(store, "?p schema:sourceOrganization ?o", distinct="?o")
    assert listed == len({match_key(en) for p in generated for en, _ in p.institutions})
    assert count(store, "?p dcterms:title ?t FILTER(lang(?t) = 'zh')") == sum(
        1 for p in generated if p.title_zh and p.title_zh != p.title
    )
    # Comments of every kind come back as facts.
    for fact in (
        "?p kg:track kg:PositionTrack",
        "?p kg:track kg:WorkshopTrack",
        "?p kg:presentationType kg:Oral",
        "?p kg:presentationType kg:Spotlight",
        "?p kg:presentationType kg:ContributedTalk",
        "?p kg:nonArchival true",
        "?p dcterms:isPartOf ?v",
        "?p kg:posterPage ?u",
        "?p kg:projectPage ?u",
        "?c schema:isBasedOn ?p ; schema:codeRepository ?u",
        "?p bibo:numPages ?n",
        "?p kg:figureCount ?n",
        "?w a kg:Workshop",
    ):
        assert count(store, fact) > 0, fact


def test_abstracts_round_trip_counts_match(tmp_path):
    generated = list(papers(N, seed=11))
    store, report = build(tmp_path, "abstracts")
    assert report.sources[0].format == "abstracts" and report.ingested == N and not report.rejections
    assert graph_stats(store)["papers"] == N
    assert count(store, "?p dcterms:abstract ?a") == N
    assert count(store, "?c schema:isBasedOn ?p ; schema:codeRepository ?u") == sum(1 for p in generated if p.code_url)


def test_distributions_look_like_real_listings():
    generated = list(papers(3000, seed=1))
    sizes = [len(p.authors) for p in generated]
    assert min(sizes) >= 1 and max(sizes) <= 15 and 3 <= statistics.median(sizes) <= 6
    per_author = Counter(a for p in generated for a in p.authors)
    assert max(per_author.values()) >= 10 * statistics.median(per_author.values())  # heavy tail
    assert {len(p.institutions) for p in generated} == {1, 2, 3, 4}
    chinese = [(p, zh) for p in generated for _, zh in p.institutions if zh]
    assert chinese and all(has_cjk(zh) and f"（{zh}）" in listing_block(p) for p, zh in chinese)


@pytest.mark.slow
def test_structured_formats_round_trip_with_per_author_affiliations(tmp_path):
    generated = list(papers(120, seed=3))
    for format_name, suffix in (
        ("paperlists", "icml2026.json"),
        ("bibtex", "x.bib"),
        ("csv", "x.csv"),
        ("arxiv", "x.atom"),
    ):
        path = tmp_path / suffix
        with open(path, "w", encoding="utf-8", newline="") as handle:
            assert write_corpus(handle, 120, seed=3, format_name=format_name) == 120
        store = KGStore("memory")
        report = ingest([path], store, Minter())
        assert (report.sources[0].format, report.read, report.ingested) == (format_name, 120, 120)
        stats = graph_stats(store)
        assert stats["authorships"] == sum(len(p.authors) for p in generated)
        if format_name != "bibtex":  # BibTeX has no affiliations
            assert stats["author-affiliations"] == sum(len(p.authors) for p in generated if p.institutions)
        if format_name == "paperlists":
            assert stats["identified-authors"] == len({a for p in generated for a in p.authors})
