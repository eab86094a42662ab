"""Identifier links on the site: an author's ORCID / dblp / OpenReview pages and a paper's DOI / arXiv /
OpenReview forum, from a paperlists JSON written here, labelled by kind, escaped, same bytes twice."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import kg_here, run_kg

PAPERS = [
    {
        "title": "Ids & <Links>",
        "author": "Ada Lovelace;Alan Turing",
        "authorids": "~Ada_Lovelace1;~Alan_Turing1",
        "orcid": "0000-0002-1825-0097;",
        "dblp": "https://dblp.org/pid/12/3456.html;",
        "aff": "University of London;",
        "aff_domain": "london.ac.uk;",
        "status": "Oral",
        "track": "main",
        "site": "https://openreview.net/forum?id=abc123",
        "bibtex": "@inproceedings{lovelace2025, title={Ids}, author={Lovelace, Ada and Turing, Alan}, "
        "doi={10.1000/xyz&1}, eprint={2501.01234}, archivePrefix={arXiv}, year={2025}}",
    },
    {"title": "No Ids At All", "author": "Grace Hopper", "authorids": "", "aff": "", "aff_domain": ""},
]


class Anchors(HTMLParser):
    """Each link of a page as (class, href, text)."""

    def __init__(self):
        super().__init__()
        self.anchors: list[list[str]] = []
        self._open = False

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            values = dict(attrs)
            self.anchors.append([values.get("class") or "", values.get("href") or "", ""])
            self._open = True

    def handle_endtag(self, tag):
        self._open = self._open and tag != "a"

    def handle_data(self, data):
        if self._open:
            self.anchors[-1][2] += data


def anchors(page: Path) -> list[tuple[str, str, str]]:
    parser = Anchors()
    parser.feed(page.read_text(encoding="utf-8"))
    return [tuple(anchor) for anchor in parser.anchors]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("ids")
    (folder / "conf2025.json").write_text(json.dumps(PAPERS, indent=2), encoding="utf-8")
    kg_here("build", "conf2025.json", "--site", "--store", str(folder / "store"), cwd=folder)
    return folder / "exports" / "site"


@pytest.mark.slow
def test_author_page_links_orcid_dblp_and_openreview_labelled_by_kind(site):
    page = site / "author" / "ada-lovelace1--openreview.html"
    text = page.read_text(encoding="utf-8")
    line = [line for line in text.splitlines() if line.startswith('<p class="identifiers">')]
    assert len(line) == 1
    assert [(href, label) for cls, href, label in anchors(page) if href in line[0]] == [
        ("https://openreview.net/profile?id=~Ada_Lovelace1", "OpenReview"),
        ("https://orcid.org/0000-0002-1825-0097", "ORCID"),
        ("https://dblp.org/pid/12/3456", "dblp"),
    ]


def test_paper_rows_link_doi_arxiv_and_forum_escaped(site):
    page = site / "author" / "ada-lovelace1--openreview.html"
    assert [(href, label) for cls, href, label in anchors(page) if cls == "identifier"] == [
        ("https://doi.org/10.1000/xyz&1", "DOI"),
        ("https://arxiv.org/abs/2501.01234", "arXiv"),
        ("https://openreview.net/forum?id=abc123", "OpenReview"),
    ]
    text = page.read_text(encoding="utf-8")
    assert 'href="https://doi.org/10.1000/xyz&amp;1"' in text and "Ids &amp; &lt;Links&gt;" in text


def test_a_name_only_author_has_no_identifier_line(site):
    page = site / "author" / "grace-hopper.html"
    text = page.read_text(encoding="utf-8")
    assert '<p class="identifiers">' not in text and 'class="identifier"' not in text
    assert "No Ids At All" in text


def test_identifier_links_are_byte_identical_between_runs(site, tmp_path):
    run_kg("site", "--store", str(site.parent.parent / "store"), "--out", str(tmp_path / "again"), cwd=tmp_path)
    first = {p.relative_to(site): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}
    second = {
        p.relative_to(tmp_path / "again"): p.read_bytes()
        for p in sorted((tmp_path / "again").rglob("*"))
        if p.is_file()
    }
    assert first.keys() == second.keys() and first == second
