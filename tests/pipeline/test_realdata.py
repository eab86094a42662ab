"""kg on the real conferences in ../shared/realdata/ (skipped when that folder is absent).

The thresholds are those of issue 10's "done when"; the scorecard itself is eval/realdata.py.
"""

from __future__ import annotations

import pytest

from eval.realdata import builds, realdata_dir, score, scorecard, truth_sets

SETS = truth_sets()
pytestmark = [pytest.mark.realdata, pytest.mark.skipif(not SETS, reason=f"no real data in {realdata_dir().resolve()}")]


@pytest.fixture(scope="module", params=[path.stem for path, _ in SETS] or ["none"])
def cards(request) -> list[dict]:
    """The listing's card, then the listing + abstracts card where the set has abstracts."""
    found = [build for build in builds(SETS) if build[0].stem == request.param]
    built = [score(path, truth, with_abstracts) for path, truth, with_abstracts in found]
    print("\n" + scorecard(built))
    return built


def test_every_paper_read_once_with_its_exact_byline(cards):
    for card in cards:
        assert card["records read"] == card["papers in file"]
        assert card["records rejected"] == 0
        assert card["papers in graph"] == card["papers in file"]
        assert card["exact bylines"] == 1.0
        assert card["co-author pair recall (>= 2 papers)"] in (1.0, None)


def test_every_paper_has_venue_and_year(cards):
    for card in cards:
        assert card["papers with venue and year"] == 1.0


def test_abstracts_join_their_paper_and_never_another(cards):
    if len(cards) < 2:
        pytest.skip("the set has no abstracts")
    both = cards[1]
    assert both["abstracts merged wrong"] == 0
    assert both["abstracts merged right"] >= 0.95


def test_a_record_with_a_rejected_institution_entry_is_found_by_its_line_as_its_paper(tmp_path):
    from eval.realdata import _papers_by_line
    from kg.pipeline import ingest
    from kg.rdf.iris import Minter
    from kg.stores.embedded import KGStore

    listing = tmp_path / "loom_listing.txt"
    listing.write_text(
        (
            "LOOM\n\nA Loom Paper\n\nA Loom Paper\n\nAda Lovelace, Alan Turing\n\n机构 * Ada Lovelace ； "
            "Loom University 纠错\n"
        ),
        encoding="utf-8",
    )
    store = KGStore("memory")
    ingest([listing], store, Minter())
    papers = _papers_by_line(store, listing.name)
    assert len(papers) == 1 and "/paper/" in next(iter(papers.values()))


@pytest.mark.parametrize(
    "truth_path", [path for path, _ in SETS] or [None], ids=lambda path: getattr(path, "stem", "none")
)
def test_derive_writes_the_shared_sets_again_from_the_providers_file(truth_path, tmp_path):
    """eval/derive.py, the way any other conference of the provider is scored, makes what shared/realdata holds."""
    import json

    from eval.derive import write_set

    truth = json.loads(truth_path.read_text(encoding="utf-8"))
    provider_file = truth_path.with_name(truth["set"] + ".json")
    derived = json.loads(write_set(provider_file, tmp_path, truth["venue"]).read_text(encoding="utf-8"))
    for kind, name in truth["files"].items():
        assert (tmp_path / name).read_bytes() == (truth_path.parent / name).read_bytes(), kind
    assert {key: value for key, value in derived.items() if key != "source"} == {
        key: value for key, value in truth.items() if key != "source"
    }
