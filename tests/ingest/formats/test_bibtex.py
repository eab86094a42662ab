"""The bibtex format: a .bib made from the real JSON's bibtex fields, TeX to Unicode, both name
orders, identifiers, and hostile entries (unbalanced braces, no title) rejected with their line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from structured_sources import CONFERENCES, bylines, entries, read_records

from kg.ingest.formats.bibtex import authors, unlatex
from kg.pipeline import ingest
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore


def _bib_from_json(conference: str, tmp_path: Path) -> tuple[Path, list[dict]]:
    papers = entries(conference)
    path = tmp_path / f"{conference}.bib"
    path.write_text("\n\n".join(paper["bibtex"] for paper in papers) + "\n", encoding="utf-8")
    return path, papers


def _plain_names(field: str) -> list[str]:
    """The byline of an author field without TeX or commas, by the simplest reading."""
    return [name.strip() for name in re.split(r"\s+and\s+", " ".join(field.split()))]


@pytest.mark.realdata
@pytest.mark.parametrize("conference", CONFERENCES)
def test_bib_from_the_json_gives_its_papers_and_bylines(conference, tmp_path):
    path, papers = _bib_from_json(conference, tmp_path)
    records, rejections, fmt = read_records(path)
    assert fmt == "bibtex" and not rejections and len(records) == len(papers)
    for record, paper in zip(records, papers):
        prose = re.sub(r"\$[^$]*\$", "", record.title + " ".join(record.authors))  # math is kept as the sites write it
        if "\\" not in paper["title"]:  # a few titles carry TeX in the JSON itself (Schr\"odinger)
            assert not re.search(r"[{}\\]", prose)  # TeX gone
        raw = re.search(r"\bauthor=\{(.*)\},?\n", paper["bibtex"]).group(1)
        if not re.search(r"[{}\\,]", raw):
            assert record.authors == _plain_names(raw)
        assert record.openreview_id == paper["id"]
        assert record.source.line >= 1
    # the bibtex fields of CoRL 2024 say exactly what its JSON says
    if conference == "corl2024":
        assert [(r.title, r.authors) for r in records] == [(p["title"], p["author"].split(";")) for p in papers]


@pytest.mark.realdata
def test_bib_papers_in_the_graph_have_the_venue_and_bylines(tmp_path):
    path, papers = _bib_from_json("corl2024", tmp_path)
    store = KGStore("memory")
    report = ingest([path], store, Minter())
    assert report.read == report.ingested == len(papers)
    assert bylines(store) == {p["title"]: p["author"].split(";") for p in papers}
    venues = store.query("SELECT DISTINCT ?v WHERE { ?p <http://purl.org/ontology/bibo/presentedAt> ?v }")
    assert {str(v).rsplit("/", 1)[-1] for (v,) in venues} == {"corl-2024"}


@pytest.mark.parametrize(
    "written, expected",
    [
        ("Gon{\\c{c}}alves, Jo{\\~a}o", "João Gonçalves"),
        ('M{\\"u}ller, J{\\"o}rg', "Jörg Müller"),
        ("van der Berg, Jr, Tian", "Tian van der Berg Jr"),
        ("{\\L}ukasz Kaiser", "Łukasz Kaiser"),
        ("Ada Lovelace", "Ada Lovelace"),
        ("{Barnes and Noble}", "Barnes and Noble"),
    ],
)
def test_names_in_either_order_become_first_last_in_unicode(written, expected):
    assert authors(written) == [expected]


def test_titles_lose_braces_and_accents_but_keep_math():
    assert unlatex("{C}ausal {\\'E}tude of {\\ss}-nets -- a~study") == "Causal Étude of ß-nets – a study"
    assert unlatex("D\\${\\textasciicircum}3\\$RoMa") == "D$^3$RoMa"


HOSTILE = """% a comment line
@string{icml = "International Conference on Machine Learning"}

@inproceedings{good1,
  title = {A {G}ood Paper},
  author = {Lovelace, Ada and Charles Babbage},
  booktitle = icml,
  year = 2025,
  doi = {https://doi.org/10.1234/ABC.5},
  eprint = {2401.01234v2}, archivePrefix = {arXiv},
}

@article{broken,
  title = {Unbalanced {brace,
  author = {Nobody}

@article{notitle, author = {Someone Else}, journal = {JMLR}, year = {2024}}

@misc{good2, title = "Second Good Paper", author = "Grace Hopper", url = {https://arxiv.org/abs/2312.00001}}
"""


def test_hostile_entries_are_rejected_with_their_line_and_the_rest_is_read(tmp_path):
    path = tmp_path / "mixed.bib"
    path.write_text(HOSTILE, encoding="utf-8")
    records, rejections, fmt = read_records(path)
    assert fmt == "bibtex"
    assert [r.title for r in records] == ["A Good Paper", "Second Good Paper"]
    assert records[0].authors == ["Ada Lovelace", "Charles Babbage"]
    assert (records[0].doi, records[0].arxiv_id, records[0].arxiv_version) == ("10.1234/abc.5", "2401.01234", 2)
    assert records[0].source.line == 4 and records[1].source.line == 19
    assert records[0].stated_facts == "ICML 2025: International Conference on Machine Learning"  # @string applied
    assert records[1].arxiv_id == "2312.00001"
    assert [(r.source.line, "invalid BibTeX" in r.reason or "no title" in r.reason) for r in rejections] == [
        (13, True),
        (17, True),
    ]
    store = KGStore("memory")
    report = ingest([path], store, Minter())
    assert report.read == report.ingested + len(report.rejections) == 4


def test_citation_fields_of_an_embedded_entry_by_line_or_by_full_parse():
    from kg.ingest.formats.bibtex import citation_fields

    openreview = (
        "@inproceedings{\nx2025,\ntitle={T},\nbooktitle={The 8th Conference on Robot Learning},\nyear={2024}\n}"
    )
    assert citation_fields(openreview) == {"booktitle": "The 8th Conference on Robot Learning", "year": "2024"}
    marked_up = "@inproceedings{x, booktitle={Proc. of {NeurIPS}}, year={2025}, doi={10.1/A}}"
    fields = citation_fields(marked_up)
    assert (fields["booktitle"], fields["year"], fields["doi"]) == ("Proc. of {NeurIPS}", "2025", "10.1/A")
