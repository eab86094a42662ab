"""The query library on the samples: issue #3's facts, name look-up, hostile values, a second engine, the CLI."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
from collections import Counter

import pyoxigraph as ox
import pytest
import rdflib
from conftest import kg_here

from kg.errors import KgError
from kg.exports.rdf import export
from kg.index.match_keys import ENTITY_CLASSES, derived_acronyms
from kg.pipeline import ingest
from kg.query.library import find_entity, library, library_query, parse_query, run
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore
from kg.text.names import match_key
from kg.vocab import KG, SKOS

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


# ---------------------------------------------------------------- finding people and institutions


@pytest.mark.parametrize(
    "typed, slug",
    [
        ("balazs gyenes", "balazs-gyenes"),
        ("BALÁZS  GYENES", "balazs-gyenes"),
        ("Balazs-Gyenes", "balazs-gyenes"),
        ("gerhard neumann", "gerhard-neumann"),
        ("Neumann, Gerhard", "gerhard-neumann"),
        ("dongwoo kim", "dongwoo-kim"),
        ("https://kg.example.org/id/author/gerhard-neumann", "gerhard-neumann"),
    ],
)
def test_authors_are_found_as_typed(sample_store, typed, slug):
    assert str(find_entity(sample_store, "author", typed)).endswith(f"/author/{slug}")


@pytest.mark.parametrize(
    "typed, slug",
    [
        ("USTC", "university-of-science-and-technology-of-china"),
        ("ustc", "university-of-science-and-technology-of-china"),
        ("中国科学技术大学", "university-of-science-and-technology-of-china"),
        ("university of science and technology of china", "university-of-science-and-technology-of-china"),
        ("UIUC", "university-of-illinois-urbana-champaign"),
        ("伊利诺伊大学厄巴纳-香槟分校", "university-of-illinois-urbana-champaign"),
        ("HKUST", "hong-kong-university-of-science-and-technology"),
        ("The Hong Kong University of Science and Technology", "hong-kong-university-of-science-and-technology"),
        ("CUHK", "chinese-university-of-hong-kong"),
        ("NJIT", "new-jersey-institute-of-technology"),
        ("MCML", "munich-center-for-machine-learning"),
        ("caltech", "california-institute-of-technology"),
    ],
)
def test_institutions_are_found_by_name_chinese_name_or_acronym(sample_store, typed, slug):
    assert str(find_entity(sample_store, "institution", typed)).endswith(f"/institution/{slug}")


def test_acronyms_are_derived_from_any_name():
    assert "ustc" in derived_acronyms("University of Science and Technology of China")
    assert "uiuc" in derived_acronyms("University of Illinois Urbana-Champaign")
    assert "mit" in derived_acronyms("Massachusetts Institute of Technology")
    assert {"dfki", "dsa"} <= derived_acronyms("German Research Center for Artificial Intelligence (DFKI, DSA)")
    assert derived_acronyms("Caltech") == set() and derived_acronyms("中国科学技术大学") == set()


def test_unknown_name_names_the_closest(sample_store):
    with pytest.raises(KgError, match=r"no author matches 'Gerhard Neuman'; closest: Gerhard Neumann"):
        find_entity(sample_store, "author", "Gerhard Neuman")
    with pytest.raises(KgError, match=r"closest: .*Stanford University"):
        find_entity(sample_store, "institution", "Stanfrod University")
    with pytest.raises(KgError, match=r"none of the 135 authors is close"):
        find_entity(sample_store, "author", "qqqq zzzz")


def test_ambiguous_name_lists_candidates(sample_store):
    with pytest.raises(KgError, match=r"(?s)ambiguous: 6 match.*Lei Chen.*Ziwei Chen"):
        find_entity(sample_store, "author", "chen")


def test_an_organisation_beats_its_own_units(sample_store):
    """ "Bielefeld" names the university and two of its units (CITEC ...): the university holds them."""
    assert str(find_entity(sample_store, "institution", "Bielefeld")).endswith("/institution/bielefeld-university")


def test_empty_store_says_so():
    with pytest.raises(KgError, match="the graph has no authors"):
        find_entity(KGStore("memory"), "author", "Gerhard Neumann")


# ---------------------------------------------------------------- hostile values

TITLE_QUERY = """# title: Paper by exact title
# param: title : string : The exact English title
SELECT ?title ?paper WHERE { ?paper dcterms:title ?written FILTER (STR(?written) = ?title) }
"""


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


# ---------------------------------------------------------------- the command line


@pytest.fixture(scope="module")
def built(tmp_path_factory, built_samples):
    """A folder of its own whose store/ is the session's build of the samples (read only here)."""
    folder = tmp_path_factory.mktemp("cli")
    (folder / "store").symlink_to(built_samples / "store")
    return folder


def kg_query(folder, *args, check=True):
    return kg_here("query", "--store", "store", *args, cwd=folder, check=check)


@pytest.mark.slow
def test_cli_table(built):
    out = kg_query(built, "coauthors", "-p", "author=gerhard neumann").stdout.decode()
    lines = out.splitlines()
    assert lines[0].split() == ["name", "shared_papers"]  # the IRI column: named by the one after it
    assert lines[1].split() == ["Niklas", "Freymuth", "2"]
    assert len(lines) == 15 and len({len(line) for line in lines}) == 1  # aligned; counts right-aligned


def test_cli_csv_and_tsv(built):
    """CSV holds plain values; TSV is SPARQL 1.1 TSV: ?names in the header, terms as N-Triples writes them."""
    text = kg_query(built, "coauthor-pairs", "--format", "csv").stdout.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["author", "author_name", "coauthor", "coauthor_name", "shared_papers"]
    assert len(rows) == 11 and {row[4] for row in rows[1:]} == {"2"}
    assert [
        "https://kg.example.org/id/author/gerhard-neumann",
        "Gerhard Neumann",
        "https://kg.example.org/id/author/niklas-freymuth",
        "Niklas Freymuth",
        "2",
    ] in rows
    tsv = kg_query(built, "coauthor-pairs", "--format", "tsv").stdout.decode().splitlines()
    assert tsv[0].split("\t") == ["?author", "?author_name", "?coauthor", "?coauthor_name", "?shared_papers"]
    assert (
        "\t".join(
            [
                "<https://kg.example.org/id/author/gerhard-neumann>",
                '"Gerhard Neumann"',
                "<https://kg.example.org/id/author/niklas-freymuth>",
                '"Niklas Freymuth"',
                "2",
            ]
        )
        in tsv
    )
    parsed = ox.parse_query_results("\n".join(tsv).encode(), format=ox.QueryResultsFormat.TSV)
    assert len(list(parsed)) == 10  # an independent TSV parser reads it back


def test_cli_json_is_sparql_results_json(built):
    result = kg_query(built, "top-institutions", "-p", "limit=2", "--format", "json")
    document = json.loads(result.stdout)
    assert document["head"]["vars"] == ["institution", "name", "name_zh", "papers", "authors"]
    first = document["results"]["bindings"][0]
    assert first["institution"]["type"] == "uri"
    assert first["name"] == {
        "type": "literal",
        "value": "University of Science and Technology of China",
        "xml:lang": "en",
    }
    assert first["papers"] == {"type": "literal", "value": "6", "datatype": "http://www.w3.org/2001/XMLSchema#integer"}
    assert len(document["results"]["bindings"]) == 2
    # organisations (their units with -p level=unit); the page size and the next page named
    assert "rows 1–2 of 30, 28 more; page size 20 (-p limit=N); next page: -p offset=2" in result.stderr.decode()
    unit_level = kg_query(built, "top-institutions", "-p", "limit=2", "-p", "level=unit").stderr.decode()
    assert "rows 1–2 of 41, 39 more" in unit_level


def test_cli_lists_queries_and_runs_a_file(built):
    listing = kg_here("queries", cwd=built).stdout.decode()
    assert all(name in listing for name in library()) and "-p author=" in listing
    (built / "mine.rq").write_text(TITLE_QUERY, encoding="utf-8")
    out = kg_query(
        built,
        "--file",
        "mine.rq",
        "-p",
        "title=Reason, Then Re-reason: Cross-view Revisiting Improves Spatial Reasoning",
        "--format",
        "tsv",
    ).stdout.decode()
    assert out.splitlines() == [
        "?paper",
        "<https://kg.example.org/id/paper/reason-then-rereason-crossview-revisiting-improves-spatial-reasoning-6bafee>",
    ]
    assert "kg graph" in kg_here("query", "--help", cwd=built).stdout.decode()


def test_cli_errors_are_one_line(built):
    for args, message in (
        (("coauthors", "-p", 'author="} ; DROP ALL ; #'), "kg: error: no author matches"),
        (("coauthors",), "kg: error: query coauthors needs -p author="),
    ):
        result = kg_query(built, *args, check=False)
        assert result.returncode == 1 and result.stdout == b""
        assert result.stderr.decode().startswith(message) and result.stderr.decode().count("\n") == 1


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


@pytest.mark.parametrize("kind", ["author", "institution", "topic"])
def test_derived_match_keys_are_the_match_keys_of_the_labels(sample_store, kind):
    """The keys the resolution step stored are exactly the folded names (and acronyms) of each entity."""
    cls = str(ENTITY_CLASSES[kind])
    stored: dict[str, set[str]] = {}
    for entity, key in sample_store.select_terms(f"SELECT ?e ?k WHERE {{ ?e a {cls} ; {KG.matchKey} ?k }}"):
        stored.setdefault(entity.value, set()).add(key.value)
    labels = sample_store.select_terms(
        f"SELECT ?e ?l WHERE {{ ?e a {cls} . {{ ?e "
        f"{SKOS.prefLabel}|{SKOS.altLabel}|{KG.nameAsWritten} ?l }} "
        f"UNION {{ ?a {KG.author} ?e ; {KG.nameAsWritten} ?l }} }}"
    )
    expected: dict[str, set[str]] = {}
    for entity, label in labels:
        expected.setdefault(entity.value, set()).add(match_key(label.value))
    assert stored and stored == expected
    acronyms = {
        row[0].value for row in sample_store.select_terms(f"SELECT ?e WHERE {{ ?e a {cls} ; {KG.acronymKey} ?k }}")
    }
    assert bool(acronyms) == (kind == "institution")
