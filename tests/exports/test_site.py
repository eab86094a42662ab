"""`kg site` on the samples: a page per entity, every link resolves, offline, byte-identical."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from conftest import kg_here, run_kg
from site_crawl import crawl

from kg.query.stats import graph_stats


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """`kg build --site` on the samples in a fresh folder."""
    folder = tmp_path_factory.mktemp("site")
    kg_here("build", "--site", "--store", str(folder / "store"), cwd=folder)
    return folder / "exports"


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


@pytest.mark.slow
def test_one_page_per_author_institution_topic_and_venue(built, sample_store):
    site = built / "site"
    stats = graph_stats(sample_store)
    assert len(list((site / "author").glob("*-network.html"))) > 100
    assert (
        len([p for p in (site / "author").glob("*.html") if not p.name.endswith("-network.html")])
        == stats["authors"]
        == 135
    )
    assert (site / "institution" / "zhejiang-university.html").exists()  # a parent named only through its units
    assert len(list((site / "institution").glob("*.html"))) >= 33
    assert len(list((site / "topic").glob("*.html"))) > 50
    assert (site / "venue" / "icml-2026.html").exists() and list((site / "workshop").glob("*.html"))
    neumann = (site / "author" / "gerhard-neumann.html").read_text(encoding="utf-8")
    assert 'href="niklas-freymuth.html">Niklas Freymuth</a> <span class="details">2</span>' in neumann
    assert "https://kg.example.org/id/author/gerhard-neumann" in neumann
    zju = (site / "institution" / "zhejiang-university.html").read_text(encoding="utf-8")
    assert "zhejiang-university--college-of-artificial-intelligence.html" in zju  # its units


def test_one_page_per_paper_with_its_byline_venue_topics_and_source(built, sample_store):
    site = built / "site"
    assert len(list((site / "paper").glob("*.html"))) == graph_stats(sample_store)["papers"] == 43
    page = next((site / "paper").glob("a2sg-adaptive-and-asymmetric-*.html")).read_text(encoding="utf-8")
    byline = re.findall(r'<li><a href="../author/([^"]+).html">', page)
    assert byline[:2] == ["yechan-kang", "yongjin-kweon"] and byline[-1] == "seongsik-park"  # in order
    assert '<a href="../venue/icml-2026.html">ICML 2026</a>' in page and "spiking-neural-networks.html" in page
    assert "001_0af6457a65591eab.txt:339" in page and "<h2>Abstract</h2>" in page
    neumann = (site / "author" / "gerhard-neumann.html").read_text(encoding="utf-8")
    assert 'href="../paper/' in neumann  # an author's papers link to their pages


def test_every_link_resolves_and_nothing_is_fetched_from_the_network(built):
    found = crawl(built)
    assert found.broken == [] and found.internal > 3000 and found.pages == len(pages(built))


@pytest.mark.slow
def test_site_is_byte_identical_between_runs(built, tmp_path):
    run_kg("site", "--store", str(built.parent / "store"), "--out", str(tmp_path / "again"), cwd=tmp_path)
    first = {p.relative_to(built / "site"): p.read_bytes() for p in sorted((built / "site").rglob("*")) if p.is_file()}
    second = {
        p.relative_to(tmp_path / "again"): p.read_bytes()
        for p in sorted((tmp_path / "again").rglob("*"))
        if p.is_file()
    }
    assert first.keys() == second.keys() and first == second


def test_every_network_node_links_to_its_profile_page(built, browser):
    for page in (
        built / "coauthors.html",
        built / "institutions.html",
        built / "topics.html",
        built / "site" / "network" / "coauthors.html",
        built / "site" / "author" / "gerhard-neumann-network.html",
    ):
        report = browser.open(page)
        assert report.errors == [] and all(url.startswith("file://") for url in report.requests)
        hrefs = browser.evaluate("nodes.get().map(n => n.href)")
        assert hrefs and all(hrefs)
        for href in hrefs:
            assert (page.parent / unquote(href)).resolve().is_file(), (page, href)


def test_index_search_finds_authors_and_institutions_as_the_cli_does(built, browser):
    report = browser.open(built / "site" / "index.html")
    assert report.errors == []
    for typed, expected in (
        ("neumann", "Gerhard Neumann"),
        ("USTC", "University of Science and Technology of China"),
        ("中国科学技术大学", "University of Science and Technology of China"),
    ):
        found = browser.evaluate(f"""(() => {{ const box = document.getElementById('find'); box.value = {typed!r};
            box.dispatchEvent(new Event('input'));
            return [...document.querySelectorAll('#results a')]
              .map(a => [a.textContent, a.getAttribute('href')]); }})()""")
        assert found and found[0][0] == expected, (typed, found)
        assert (built / "site" / found[0][1]).is_file()
