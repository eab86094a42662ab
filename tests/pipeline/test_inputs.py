"""Inputs that used to lose or corrupt data, or take minutes: line-end mixes, characters no
output may carry, and texts that made the readers super-linear."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from conftest import LISTING, kg_here

from kg.ingest.comments import parse_publication
from kg.ingest.formats import read_source
from kg.nlp.analysis import analyse


def titles(path, fmt="listing") -> list[str]:
    _, items = read_source(path, path.name, fmt, "utf-8")
    return [getattr(item, "title", None) or item.reason for item in items]


@pytest.mark.parametrize(
    "line_end, blank_end",
    [("\r", "\r\n"), ("\r\n", "\r"), ("\n", "\r\n"), ("\r", "\r"), ("\r\n", "\n")],
    ids=["cr-then-crlf", "crlf-then-cr", "lf-then-crlf", "cr", "crlf-then-lf"],
)
def test_every_line_end_mix_reads_the_same(tmp_path, line_end, blank_end):
    text = LISTING.read_text(encoding="utf-8")
    lines = text.split("\n")
    mixed = "".join(line + (blank_end if not line.strip() else line_end) for line in lines[:-1]) + lines[-1]
    path = tmp_path / "mixed.txt"
    path.write_bytes(mixed.encode("utf-8"))
    assert titles(path) == titles(LISTING)
    assert len(titles(LISTING)) == 30


@pytest.mark.slow
@pytest.mark.skipif(
    not (shutil.which("rapper") and shutil.which("xmllint")), reason="needs rapper and xmllint (make system-deps)"
)
def test_non_characters_and_controls_never_reach_an_output(tmp_path):
    text = LISTING.read_text(encoding="utf-8")
    title = text.split("\n")[2]
    hostile = text.replace(title, title + " \ufffe\uffff\U0010ffff", 1)
    hostile = hostile.replace("Gerhard Neumann", "Gerhard\x01 Neu\x0bmann\x7f")
    path = tmp_path / "hostile.txt"
    path.write_text(hostile, encoding="utf-8")
    kg_here("build", str(path), "--out", "out", cwd=tmp_path)
    for fmt, suffix in (("turtle", "ttl"), ("ntriples", "nt")):
        out = tmp_path / f"kg.{suffix}"
        out.write_bytes(kg_here("export", "--format", fmt, cwd=tmp_path).stdout)
        parsed = subprocess.run(["rapper", "-q", "-i", fmt, "-c", str(out)], capture_output=True)
        assert parsed.returncode == 0, parsed.stderr.decode()
    for fmt in ("gexf", "graphml"):
        kg_here("graph", "coauthors", "--format", fmt, "--out", f"co.{fmt}", cwd=tmp_path)
        checked = subprocess.run(["xmllint", "--noout", str(tmp_path / f"co.{fmt}")], capture_output=True)
        assert checked.returncode == 0, checked.stderr.decode()
    assert "Gerhard Neumann" in (tmp_path / "co.gexf").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "text, artifacts",
    [
        ("We introduce " + " ".join(["X-Y"] * 4900) + ".", ["X-Y"]),
        ("(" * 5000 + "x" + ")" * 5000, []),
        (" ".join(["ABC"] * 4500), []),
    ],
    ids=["x-y-abstract", "nested-parentheses", "acronyms"],
)
def test_a_20kb_abstract_is_analysed(text, artifacts):
    """How long it takes beside an ordinary abstract is measured by bench/hostile_inputs.py."""
    analysis = analyse("A Title", text)
    assert [artifact.name for artifact in analysis.artifacts] == artifacts and analysis.topics == []


@pytest.mark.parametrize(
    "text, links",
    [
        (" ".join(f"http://a.b/{n}" for n in range(2200)), {"other_urls": 2200}),
        (
            "Project page: " + " code ".join(f"https://x.org/{n}" for n in range(2200)),
            {"code_urls": 2199, "project_urls": 1},
        ),
        ("Workshop on " + "a: " * 6000 + "(", {}),
    ],
    ids=["2200-urls", "2200-cued-urls", "workshop-name"],
)
def test_a_comments_line_with_thousands_of_links_is_read(text, links):
    """How long it takes beside an ordinary comments line is measured by bench/hostile_inputs.py."""
    info = parse_publication(text, text, "A Title")
    assert {
        kind: len(getattr(info, kind)) for kind in ("other_urls", "code_urls", "project_urls") if getattr(info, kind)
    } == links


def listing(title: str, authors: str) -> str:
    return f"ICML 2026 Papers\n\n{title}\n\n{authors}\n\nComments: ICML 2026 poster\n"


@pytest.mark.parametrize(
    "second_authors, papers",
    [
        ("Carol White, Dan Brown", 2),  # same title, other people: two papers
        ("Alice Smith, Dan Brown", 2),  # same first author, another co-author: another byline
        ("ALICE  SMİTH, Bob Jones", 1),  # the same byline written another way: one paper, two sources
        ("Bob Jones, Alice Smith", 2),  # the same people in another order is another byline: kept apart
    ],
)
def test_same_title_listings_are_one_paper_only_when_their_authors_agree(tmp_path, second_authors, papers):
    from kg.pipeline import ingest
    from kg.query.stats import graph_stats
    from kg.rdf.iris import Minter
    from kg.stores.embedded import KGStore

    (tmp_path / "a.txt").write_text(listing("Learning to Rank with Graphs", "Alice Smith, Bob Jones"), encoding="utf-8")
    (tmp_path / "b.txt").write_text(listing("Learning to Rank with Graphs", second_authors), encoding="utf-8")
    store = KGStore("memory")
    ingest([tmp_path / "a.txt", tmp_path / "b.txt"], store, Minter(), format_name="listing")
    assert graph_stats(store)["papers"] == papers
    positions = store.scalar(
        "SELECT (COUNT(DISTINCT ?a) AS ?n) WHERE { ?a <https://kg.example.org/ontology#position> ?k }"
    )
    assert positions == 2 * papers  # every authorship one position of one byline
