"""The query library on the samples: the questions' facts, hostile values, a second engine, pages."""

from __future__ import annotations

import dataclasses
import io
import re
from collections import Counter
from pathlib import Path

import pytest
import rdflib

from kg.errors import KgError
from kg.exports.rdf import export
from kg.pipeline import ingest
from kg.query.library import library, library_query, parse_query, run
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore

# Values for the required parameters of each library query (a query with required parameters
# and no entry here fails test_every_required_parameter_has_an_example: add one).
EXAMPLES = {
    "author-papers": {"author": "gerhard neumann"},
    "coauthors": {"author": "gerhard neumann"},
    "common-coauthors": {"author": "yuchen xian", "other_author": "Yi Yang"},
    "institution-authors": {"institution": "USTC"},
    "institution-papers": {"institution": "USTC"},
    "institution-partners": {"institution": "Caltech"},
    "author-institutions-over-time": {"author": "gerhard neumann"},
    "institution-authors-per-author": {"institution": "USTC"},
    "author-identifiers": {"author": "gerhard neumann"},
}
HOSTILE = ['"} ; DROP ALL ; #', "'; DELETE WHERE { ?s ?p ?o } #", 'a "quoted" \\ back\\slash', "line\nbreak\r\n}", "<>"]
COUNT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"


def names(result, column="name"):
    index = result.variables.index(column)
    return [str(row[index]) for row in result.rows]


def concatenated_parts(value):
    """A cell as the set of its GROUP_CONCAT parts (', ' or '; ' separated); other cells as they are."""
    text = str(value)
    return frozenset(re.split(r"[;,] ", text)) if re.search(r"[;,] ", text) else value


def example(name):
    return EXAMPLES.get(name, {})


class RdflibEngine:
    """rdflib's own pure-Python SPARQL engine over a plain Graph: the independent second engine."""

    def __init__(self, graph: rdflib.Graph):
        self.graph = graph

    def query(self, sparql, bindings=None):
        return self.graph.query(sparql, initBindings=dict(bindings or {}))


@pytest.fixture(scope="module")
def rdflib_engine(sample_store) -> RdflibEngine:
    turtle = io.BytesIO()
    export(
        sample_store, "turtle", turtle, Minter().base, including=("index", "topic-detail")
    )  # what the queries read too
    return RdflibEngine(rdflib.Graph().parse(data=turtle.getvalue(), format="turtle"))


# ---------------------------------------------------------------- the library


def test_every_required_parameter_has_an_example():
    for query in library().values():
        required = {param.name for param in query.params if param.required}
        assert required <= set(example(query.name)), f"add example values for {query.name} to EXAMPLES"


def test_library_has_the_issue_questions():
    assert {
        "coauthors",
        "coauthor-pairs",
        "author-papers",
        "common-coauthors",
        "institution-papers",
        "institution-authors",
        "top-institutions",
        "institution-collaborations",
        "institution-partners",
        "track-breakdown",
        "papers-with-code",
    } <= set(library())
    assert any(param.name == "byline" for param in library()["author-papers"].params)


@pytest.mark.parametrize("name", sorted(library()))
def test_every_query_answers_on_the_samples(sample_store, name):
    query = library()[name]
    assert query.title and query.description
    result = run(sample_store, query, example(name))
    assert result.rows, f"{name} returned nothing on the samples"
    assert all(len(row) == len(result.variables) for row in result.rows)
    assert not set(result.variables) & {param.name for param in query.params}, "parameter columns are left out"


@pytest.mark.parametrize("name", sorted(library()))
def test_second_engine_gives_the_same_rows(sample_store, rdflib_engine, name):
    """Oxigraph (the store) and rdflib's engine (over the exported Turtle) agree row for row; rdflib's
    engine runs the query itself where a precomputed list (kg/query/rankings.py) gives the store's page."""
    query = library()[name]
    ours = run(sample_store, query, example(name))
    theirs = run(rdflib_engine, dataclasses.replace(query, precomputed=None), example(name))
    assert ours.variables == theirs.variables
    # GROUP_CONCAT joins values in an order SPARQL leaves to the engine: compare them as sets.
    ours_rows, theirs_rows = ([tuple(map(concatenated_parts, row)) for row in result.rows] for result in (ours, theirs))
    if "ORDER BY" in query.sparql.upper():
        assert ours_rows == theirs_rows
    else:
        assert Counter(ours_rows) == Counter(theirs_rows)


# ---------------------------------------------------------------- the facts of the issue


def test_coauthors_of_gerhard_neumann(sample_store):
    result = run(sample_store, library()["coauthors"], {"author": "gerhard neumann"})
    shared = dict(zip(names(result), (int(row[-1]) for row in result.rows)))
    assert names(result)[0] == "Niklas Freymuth" and shared["Niklas Freymuth"] == 2
    assert len(shared) == 14 and "Gerhard Neumann" not in shared
    assert all(count == 1 for name, count in shared.items() if name != "Niklas Freymuth")


def test_coauthor_pairs_with_two_shared_papers(sample_store):
    result = run(sample_store, library()["coauthor-pairs"], {"min_shared": "2"})
    pairs = {frozenset(pair) for pair in zip(names(result, "author_name"), names(result, "coauthor_name"))}
    groups = [
        {"Yuchen Xian", "Yunqiu Xu", "Yang He", "Yi Yang"},
        {"Daisuke Yamada", "Travis Pence", "Vikas Singh"},
        {"Gerhard Neumann", "Niklas Freymuth"},
    ]
    expected = {frozenset((a, b)) for group in groups for a in group for b in group if a < b}
    assert len(expected) == 10 and pairs == expected
    assert {int(row[-1]) for row in result.rows} == {2}
    assert run(sample_store, library()["coauthor-pairs"], {"min_shared": "3"}).rows == []


def test_top_institutions_puts_ustc_first(sample_store):
    result = run(sample_store, library()["top-institutions"], {"limit": "3"})
    assert names(result)[0] == "University of Science and Technology of China"
    assert names(result, "name_zh")[0] == "中国科学技术大学"
    assert len(result.rows) == 3 and result.total > 3
    papers = [int(count) for count in names(result, "papers")]
    assert papers == sorted(papers, reverse=True)


def test_common_coauthors(sample_store):
    result = run(sample_store, library()["common-coauthors"], EXAMPLES["common-coauthors"])
    assert set(names(result)) == {"Yang He", "Yunqiu Xu"}


def test_author_papers_by_byline_position(sample_store):
    query = library()["author-papers"]
    every = run(sample_store, query, {"author": "He Li"})
    first = run(sample_store, query, {"author": "He Li", "byline": "first"})
    last = run(sample_store, query, {"author": "gerhard neumann", "byline": "last"})
    position, authors = every.variables.index("position"), every.variables.index("authors")
    assert first.rows and all(int(row[position]) == 1 for row in first.rows)
    assert last.rows and all(row[position] == row[authors] for row in last.rows)
    assert run(sample_store, query, {"author": "gerhard neumann", "byline": "first"}).rows == []


def test_institution_partners_and_collaborations_agree(sample_store):
    partners = run(sample_store, library()["institution-partners"], {"institution": "caltech"})
    assert set(names(partners)) == {"University of Illinois Urbana-Champaign", "University of Cambridge"}
    pairs = run(sample_store, library()["institution-collaborations"], {"limit": "1000"})
    caltech = "California Institute of Technology"
    with_caltech = {
        a if b == caltech else b for a, b in zip(names(pairs), names(pairs, "partner_name")) if caltech in (a, b)
    }
    assert with_caltech == set(names(partners))


def test_track_breakdown_adds_up(sample_store):
    result = run(sample_store, library()["track-breakdown"], {"limit": "1000"})
    column = {name: result.variables.index(name) for name in result.variables}
    for row in result.rows:
        tracks = sum(int(row[column[name]]) for name in ("main_track", "position_track", "workshop_track"))
        assert tracks <= int(row[column["papers"]])
    ustc = next(
        row for row in result.rows if str(row[column["name"]]) == "University of Science and Technology of China"
    )
    assert int(ustc[column["papers"]]) == 6


def test_limit_cuts_rows_after_ordering(sample_store):
    full = run(sample_store, library()["coauthors"], {"author": "gerhard neumann"})
    cut = run(sample_store, library()["coauthors"], {"author": "gerhard neumann", "limit": "3"})
    assert cut.rows == full.rows[:3] and cut.total == full.total == 14


def test_offset_pages_through_the_answer(sample_store):
    full = run(sample_store, library()["coauthors"], {"author": "gerhard neumann"})
    pages = [
        run(sample_store, library()["coauthors"], {"author": "gerhard neumann", "limit": "5", "offset": str(at)})
        for at in (0, 5, 10, 15)
    ]
    assert [row for page in pages for row in page.rows] == full.rows
    assert [page.offset for page in pages] == [0, 5, 10, 15] and {page.total for page in pages} == {14}
    assert pages[-1].rows == [] and all(page.total_exact for page in pages)
    with pytest.raises(KgError, match="offset: -1 is too small"):
        run(sample_store, library()["coauthors"], {"author": "gerhard neumann", "offset": "-1"})


def test_rows_after_the_page_are_counted_only_up_to_a_bound(sample_store, monkeypatch):
    monkeypatch.setattr("kg.query.library.MORE_COUNTED", 4)
    cut = run(sample_store, library()["coauthors"], {"author": "gerhard neumann", "limit": "3"})
    assert len(cut.rows) == 3 and cut.total == 7 and not cut.total_exact


# ---------------------------------------------------------------- hostile values

TITLE_QUERY = (Path(__file__).parent.parent / "data" / "paper-by-title.rq").read_text(encoding="utf-8")


@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_values_are_just_values(sample_store, value):
    before = sample_store.scalar(COUNT_ALL)
    with pytest.raises(KgError, match="no author matches"):
        run(sample_store, library()["coauthors"], {"author": value})
    with pytest.raises(KgError, match="is not allowed; give one of any, first, last"):
        run(sample_store, library()["author-papers"], {"author": "He Li", "byline": value})
    assert run(sample_store, parse_query(TITLE_QUERY, "title"), {"title": value}).rows == []
    with pytest.raises(KgError, match="not a whole number"):
        run(sample_store, library()["coauthor-pairs"], {"min_shared": value})
    assert sample_store.scalar(COUNT_ALL) == before


def test_hostile_title_is_found_exactly(tmp_path):
    """A listing whose title is an injection attempt: the title parameter finds exactly that paper."""
    title = 'Quotes "} ; DROP ALL ; # and back\\slashes \\" in a title'
    listing = tmp_path / "hostile.txt"
    listing.write_text(f"ICML\n\n{title}\n\nAda Lovelace, Charles Babbage\n\nComments ICML 2026\n", encoding="utf-8")
    store = KGStore("memory")
    ingest([listing], store, Minter())
    before = store.scalar(COUNT_ALL)
    result = run(store, parse_query(TITLE_QUERY, "title"), {"title": title})
    assert [str(row[0]) for row in result.rows] == [
        str(next(iter(store.query("SELECT ?p WHERE { ?p a <https://schema.org/ScholarlyArticle> }")))[0])
    ]
    assert run(store, parse_query(TITLE_QUERY, "title"), {"title": title + " "}).rows == []
    assert store.scalar(COUNT_ALL) == before


def test_update_in_a_query_file_is_refused(sample_store):
    before = sample_store.scalar(COUNT_ALL)
    with pytest.raises(KgError, match="syntax error"):
        run(sample_store, parse_query("DROP ALL", "drop"))
    assert sample_store.scalar(COUNT_ALL) == before


# ---------------------------------------------------------------- the header format


def test_header_parser_is_tolerant():
    query = parse_query(
        "# A free comment line\n#\n#TITLE: Things\n# author: someone\n"
        "# param: who : Author : Who: the person\n# param: n : integer : How many : 5\n\n"
        "SELECT * WHERE {}\n# param: late : string : not header\n",
        "things",
    )
    assert query.title == "Things" and query.description == "Things"
    assert [(p.name, p.kind, p.description, p.default) for p in query.params] == [
        ("who", "author", "Who: the person", None),
        ("n", "integer", "How many", "5"),
    ]
    assert parse_query("SELECT * WHERE {}", "bare").title == "bare"


@pytest.mark.parametrize(
    "line, message",
    [
        ("# param: x : colour : A colour", r"bad\.rq:2: parameter x: unknown kind 'colour'"),
        ("# param: two words : string : x", r"bad\.rq:2: parameter name 'two words'"),
        ("# param: lonely", r"bad\.rq:2: expected"),
    ],
)
def test_bad_param_lines_name_file_and_line(tmp_path, line, message):
    path = tmp_path / "bad.rq"
    path.write_text(f"# title: Bad\n{line}\nSELECT * WHERE {{}}\n", encoding="utf-8")
    with pytest.raises(KgError, match=message):
        parse_query(path.read_text(), "bad", path)


def test_parameter_errors(sample_store):
    with pytest.raises(KgError, match=r"needs -p author="):
        run(sample_store, library()["coauthors"], {})
    with pytest.raises(KgError, match=r"has no parameter colour"):
        run(sample_store, library()["coauthors"], {"author": "Bo Han", "colour": "red"})
    with pytest.raises(KgError, match=r"no query named 'coauthor'; did you mean coauthors"):
        library_query("coauthor")
    with pytest.raises(KgError, match=r"no query named"):
        library_query("../README")


def test_ask_and_construct_files(sample_store):
    assert run(sample_store, parse_query("ASK { ?p a schema:ScholarlyArticle }", "ask")).ask is True
    graph = run(
        sample_store,
        parse_query(
            "CONSTRUCT { ?a skos:prefLabel ?n } "
            'WHERE { ?a a foaf:Person ; skos:prefLabel ?n FILTER(STRSTARTS(?n, "Gerhard")) }',
            "c",
        ),
    ).graph
    assert [str(name) for name in graph.objects()] == ["Gerhard Neumann"]


@pytest.mark.parametrize("min_shared", ["2", "3"])
def test_precomputed_pair_counts_agree_with_the_raw_authorships(sample_store, min_shared):
    """coauthor-pairs reads the resolution step's kg:CoauthorPair nodes; the raw form groups every paper's pairs."""
    from kg import QUERIES_DIR

    checks = library(QUERIES_DIR / "checks")
    assert set(checks) <= set(library()), "every check has its library query"
    precomputed = run(sample_store, library()["coauthor-pairs"], {"min_shared": min_shared})
    raw = run(sample_store, checks["coauthor-pairs"], {"min_shared": min_shared})
    assert precomputed.rows == raw.rows and precomputed.variables == raw.variables
