"""One paper across sources: the JSON and the BibTeX of one conference in one store give the JSON's number
of papers, joined by title and byline where those agree and by the OpenReview forum id where the titles differ."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.pipeline import ingest
from kg.quality.report import quality_report
from kg.rdf.iris import Minter
from kg.resolve.paper_facts import PaperFacts
from kg.resolve.papers import evidence
from kg.stores.embedded import KGStore
from kg.vocab import sparql_prologue

HERE = Path(__file__).parent
PAPERS = sparql_prologue() + "SELECT (COUNT(DISTINCT ?paper) AS ?n) WHERE { ?paper a schema:ScholarlyArticle }"


def _papers(store) -> int:
    return int(next(iter(store.query(PAPERS)))[0].value)


def test_json_and_bibtex_of_one_conference_are_the_jsons_papers():
    store = KGStore("memory")
    ingest([HERE / "conf2031.json", HERE / "conf2031.bib"], store, Minter())
    assert _papers(store) == 5
    merges = quality_report(store)["merges"]
    assert [(merge["evidence"], merge["absorbed"].rsplit("/", 1)[-1][:19]) for merge in merges] == [
        (["same-openreview"], "boundary-detection-")
    ]
    assert "Boundary detection in mixed AI-human texts" in merges[0]["why"]


def _facts(graph: str, title: str | None, *urls: str) -> PaperFacts:
    return PaperFacts(f"https://kg.example.org/id/paper/{graph}-{title}", graph, title, None, set(urls))


@pytest.mark.parametrize(
    "first, second, found",
    [
        (("https://doi.org/10.1234/ABC",), ("https://doi.org/10.1234/abc",), ("same-doi",)),
        (("https://arxiv.org/abs/2401.01234v1",), ("https://arxiv.org/pdf/2401.01234v3",), ("same-arxiv",)),
        (
            ("https://ieeexplore.ieee.org/document/9981519/",),
            ("https://ieeexplore.ieee.org/document/9981519",),
            ("same-ieee",),
        ),
        (
            ("https://proceedings.mlr.press/v258/a25a.html",),
            ("https://proceedings.mlr.press/v258/a25a/a25a.pdf",),
            ("same-pmlr",),
        ),
        (
            ("https://aclanthology.org/2024.naacl-long.1/",),
            ("https://aclanthology.org/2024.naacl-long.1.pdf",),
            ("same-acl",),
        ),
        # near misses: different ids of one scheme (a paper and its journal version), no id, another id
        (
            ("https://arxiv.org/abs/2401.01234", "https://doi.org/10.1234/conf"),
            ("https://arxiv.org/abs/2401.01234", "https://doi.org/10.1234/journal"),
            None,
        ),
        (("https://github.com/loom/weave",), ("https://github.com/loom/weave",), None),
        (("https://openreview.net/forum?id=AAAA",), ("https://openreview.net/forum?id=BBBB",), None),
    ],
)
def test_titled_records_of_two_sources_are_one_paper_by_an_identifier_they_share(first, second, found):
    result = evidence(_facts("json", "A Title", *first), _facts("bib", "Another Title", *second))
    assert (result[0] if result else None) == found
    # near miss: two records of one source are never one paper
    assert evidence(_facts("json", "A Title", *first), _facts("json", "Another Title", *second)) is None
