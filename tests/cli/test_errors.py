"""Options and parameters mean what they say: checked before anything runs, one line each."""

from __future__ import annotations

import re
import shutil

import pytest
from conftest import kg_here

from kg.errors import KgError
from kg.query.library import find_entity, library, parse_query, run


@pytest.fixture(scope="module")
def built(tmp_path_factory, built_samples):
    """A folder as `kg build` of the samples leaves it: a copy of the session's build (the tests here
    check that bad options change nothing, so they get a store of their own)."""
    folder = tmp_path_factory.mktemp("built")
    shutil.copytree(built_samples / "store", folder / ".kg-store")
    shutil.copytree(built_samples / "exports", folder / "exports")
    return folder


@pytest.mark.parametrize(
    "args, message",
    [
        (("top-institutions", "-p", "limit=-1"), "parameter limit: -1 is too small; give a whole number ≥ 1"),
        (("top-institutions", "-p", "limit=0"), "parameter limit: 0 is too small; give a whole number ≥ 1"),
        (("coauthor-pairs", "-p", "min_shared=0"), "parameter min_shared: 0 is too small; give a whole number ≥ 2"),
        (
            ("author-papers", "-p", "author=nobody at all", "-p", "byline=middle"),
            "parameter byline: 'middle' is not allowed; give one of any, first, last",
        ),
    ],
)
def test_parameter_values_are_checked_before_the_query_runs(built, args, message):
    result = kg_here("query", *args, cwd=built, check=False)
    assert result.returncode == 2
    assert result.stderr.decode().splitlines() == [f"kg: error: {message}"]


def test_declared_kinds_are_checked_in_the_header_too():
    with pytest.raises(KgError, match=r"x.rq:2: the default of parameter n: 0 is too small"):
        parse_query("# title: t\n# param: n : integer >= 1 : how many : 0\nSELECT * { ?s ?p ?o }", "x.rq")
    query = parse_query("# param: mode : fast|slow : how : fast\nSELECT ?mode { ?s ?p ?o }", "y")
    assert query.params[0].choices == ("fast", "slow") and query.params[0].allowed == "one of fast, slow"
    assert all(param.minimum == 1 for q in library().values() for param in q.params if param.name == "limit")


def test_ambiguous_names_are_listed_at_most_ten_each_with_a_value_accepted_back(sample_store):
    with pytest.raises(KgError) as caught:
        find_entity(sample_store, "author", "chen")
    message = str(caught.value)
    offered = re.findall(r"-p author='([^']+)'", message)
    assert "ambiguous" in message and "<" not in message and 2 <= len(offered) <= 10
    assert len({str(find_entity(sample_store, "author", value)) for value in offered}) == len(offered)


def test_byline_values_are_case_forgiving(sample_store):
    first = run(sample_store, library()["author-papers"], {"author": "He Li", "byline": "FIRST"})
    assert first.rows


@pytest.mark.parametrize(
    "args, message",
    [
        (("build", "--encoding", "nope"), "Invalid value for '--encoding': 'nope' is not a text encoding"),
        (("build", "--out", "a-file/exports"), "kg: error: --out a-file/exports: cannot write there (Not a directory)"),
        (("build", "--base", "not an iri"), "kg: error: --base 'not an iri/' is not an IRI namespace"),
        (("export", "--out", "a-file/kg.ttl"), "kg: error: a-file"),
    ],
)
@pytest.mark.slow
def test_bad_options_are_one_line_exit_2_and_change_nothing(built, args, message):
    (built / "a-file").write_text("", encoding="utf-8")
    before = kg_here("stats", "--format", "json", cwd=built).stdout
    result = kg_here(*args, cwd=built, check=False)
    assert result.returncode == 2, result.stderr.decode()
    assert message in result.stderr.decode() and "internal error" not in result.stderr.decode()
    assert kg_here("stats", "--format", "json", cwd=built).stdout == before
    assert not list(built.rglob("*.partial"))


def test_a_syntax_error_in_my_query_is_at_my_line_and_column(built):
    (built / "mine.rq").write_text(
        "# title: mine\nSELECT ?s WHERE {\n  ?s ?p ?o .\n  ?s <a b> ?o }\n", encoding="utf-8"
    )
    result = kg_here("query", "--file", "mine.rq", cwd=built, check=False)
    assert result.returncode == 1
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kg: error: mine.rq:4:11: SPARQL syntax error: "), lines


@pytest.mark.slow
def test_graph_outputs_keep_builds_page_and_refuse_an_empty_network(built):
    page = (built / "exports" / "coauthors.html").read_bytes()
    result = kg_here("graph", "coauthors", "--top", "10", cwd=built)
    assert "Wrote exports/coauthors-top10.html (10 nodes," in result.stderr.decode()
    assert (built / "exports" / "coauthors.html").read_bytes() == page
    empty = kg_here("graph", "coauthors", "--min-papers", "1000", cwd=built, check=False)
    assert empty.returncode == 1
    assert empty.stderr.decode().splitlines() == [
        (
            "kg: error: the thresholds leave no coauthors in the network: lower --min-papers, "
            "--min-weight or raise --max-team"
        )
    ]


def test_reading_commands_offer_only_the_options_they_use(built):
    for command in (("stats",), ("export",), ("query",), ("graph", "coauthors"), ("quality",)):
        text = kg_here(*command, "--help", cwd=built).stdout.decode()
        assert "--update-endpoint" not in text and "--wait" not in text and "created if missing" not in text, command
    text = kg_here("ingest", "--help", cwd=built).stdout.decode()
    assert "--update-endpoint" in text and "--wait" in text
