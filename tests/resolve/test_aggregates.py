"""The library queries that read precomputed aggregates (kg/resolve/aggregates.py) give the same
rows, in the same order, as their raw-data forms in queries/checks/, on the samples and on a
synthetic corpus, and the aggregates follow `kg remove` and re-ingest."""

from __future__ import annotations

from collections import defaultdict

import pyoxigraph as ox
import pytest
from rdflib import Literal

from kg import QUERIES_DIR
from kg.ingest.synth import write_corpus
from kg.pipeline import finishing, ingest
from kg.query.library import library, run
from kg.rdf.iris import Minter
from kg.rdf.topic_triples import detail_graph
from kg.resolve.aggregates import display_titles, paper_line, paper_line_triples
from kg.resolve.store_step import resolution_suspended
from kg.stores.embedded import KGStore
from kg.vocab import FALSE, KG, TRUE, XSD, sparql_prologue

CHECKS = library(QUERIES_DIR / "checks")
LIBRARY = library()
_MOST = {
    "institution": (
        "SELECT ?x (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p schema:sourceOrganization ?x } "
        "GROUP BY ?x ORDER BY DESC(?n) ?x"
    ),
    "author": "SELECT ?x (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p dcterms:creator ?x } GROUP BY ?x ORDER BY DESC(?n) ?x",
    "topic": "SELECT ?x (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p dcterms:subject ?x } GROUP BY ?x ORDER BY DESC(?n) ?x",
}


# Concatenated lists the library query keeps in code-point order, where the raw form's GROUP_CONCAT
# leaves them in the engine's order: the raw lists are sorted before comparing, the library's are not.
SORTED_LISTS = {"artifacts": ("authors", "institutions")}
# Concatenated lists both forms leave in the engine's order, which differs between their query plans
# (a paper's matched labels): compared as sorted lists on both sides.
UNORDERED_LISTS = {"topic-papers": ("matched",)}


def unordered(name: str, variables: list[str], rows: list[tuple]) -> list[tuple]:
    columns = {variables.index(column) for column in UNORDERED_LISTS.get(name, ())}
    return [
        tuple(Literal(", ".join(sorted(str(cell).split(", ")))) if i in columns else cell for i, cell in enumerate(row))
        for row in rows
    ]


def sorted_lists(name: str, variables: list[str], rows: list[tuple]) -> list[tuple]:
    columns = {variables.index(column) for column in SORTED_LISTS.get(name, ())}
    return [
        tuple(Literal("; ".join(sorted(str(cell).split("; ")))) if i in columns else cell for i, cell in enumerate(row))
        for row in rows
    ]


def entities(store, kind: str, count: int) -> list[str]:
    """The IRIs of the count entities with the most papers (a unit's parent has the most of all)."""
    return [row[0].value for row in store.select_terms(sparql_prologue() + _MOST[kind])][:count]


def parameter_sets(store, name: str, count: int) -> list[dict[str, str]]:
    """Every combination the check is run with: entities by IRI, the other values the interesting ones."""
    kinds = {param.name for param in CHECKS[name].params}
    sets: list[dict[str, str]] = [{}]
    if "institution" in kinds:
        sets = [{"institution": iri} for iri in entities(store, "institution", count)]
    if "author" in kinds:
        bylines = ("any", "first", "last") if "byline" in kinds else (None,)
        sets = [
            {"author": iri, **({"byline": byline} if byline else {})}
            for iri in entities(store, "author", count)
            for byline in bylines
        ]
    if "topic" in kinds:
        sets = [{"topic": iri} for iri in entities(store, "topic", count)]
    if "min_shared" in kinds:
        floor = (
            next(p.minimum for p in LIBRARY[name].params if p.name == "min_shared") or 1
        )  # coauthor-pairs counts pairs from 2 shared papers
        sets = [{"min_shared": str(value)} for value in range(floor, floor + 3)]
    if "level" in kinds:
        sets = [{**values, "level": level} for values in sets for level in ("organisation", "unit")]
    return [{**values, "limit": "1000000"} for values in sets]


def assert_agree(store, count: int = 3) -> dict[str, list]:
    """Every check against its library query; the rows of each, for comparisons across changes."""
    seen = {}
    for name in sorted(CHECKS):
        for values in parameter_sets(store, name, count):
            precomputed, raw = run(store, LIBRARY[name], values), run(store, CHECKS[name], values)
            assert precomputed.variables == raw.variables, name
            expected = unordered(name, raw.variables, sorted_lists(name, raw.variables, raw.rows))
            assert unordered(name, precomputed.variables, precomputed.rows) == expected, (name, values)
            seen[(name, tuple(sorted(values.items())))] = raw.rows
    assert any(seen.values()), "the comparisons had rows to compare"
    return seen


PAPER = "https://kg.example.org/id/paper/p1"


@pytest.mark.parametrize(
    ("own", "titles", "byline"),
    [
        (
            {"title": {'"B"', '"A\\tb"'}, "abstract": {'"x"'}, "authorship": {"a1", "a2"}, "affiliation": {"o"}},
            [("A\tb", "en"), ("B", "en")],
            ("2", TRUE),
        ),
        ({"abstract": {'"x \\u2026 y"'}, "authorship": {"a1"}}, [("x … y…", "")], ("1", FALSE)),
        ({"title": {'"A"'}}, [("A", "en")], None),
        ({"topic": {"t"}}, None, None),
    ],
    ids=["titles", "an abstract", "no authorship", "none"],
)
def test_a_paper_s_line_makes_its_own_statements(own, titles, byline):
    """A paper's line gives its display titles (:func:`display_titles`, what the twins show too), and its byline
    length and affiliation flag where it has authorships; a subject with none of these has no line."""
    own = defaultdict(set, own)
    line = paper_line(PAPER, own)
    if titles is None:
        assert line == ""
        return
    assert sorted(display_titles(own)) == titles
    node = ox.NamedNode(PAPER)
    expected = [
        ox.Triple(node, KG.displayTitle, ox.Literal(text, language=language or None)) for text, language in titles
    ]
    if byline:
        expected.append(ox.Triple(node, KG.bylineLength, ox.Literal(byline[0], datatype=XSD.integer)))
        expected.append(ox.Triple(node, KG.statesAuthorAffiliations, byline[1]))
    assert line.startswith(f"{PAPER}\t") and line.endswith("\n") and line.count("\n") == 1
    assert sorted(map(str, paper_line_triples(line))) == sorted(map(str, expected))


def test_every_check_has_its_library_query():
    assert set(CHECKS) <= set(LIBRARY)
    assert {
        "top-institutions",
        "track-breakdown",
        "institution-authors",
        "institution-partners",
        "institution-topics",
        "institution-collaborations",
        "institution-papers",
        "author-papers",
        "artifacts",
        "topic-papers",
        "author-institutions-over-time",
        "topic-institutions",
        "institution-authors-per-author",
    } <= set(CHECKS)


def test_aggregates_agree_with_the_raw_data_on_the_samples(sample_store):
    assert_agree(sample_store, count=5)


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    folder = tmp_path_factory.mktemp("synth")
    files = []
    # a paperlists JSON too: the per-author affiliations that the listings lack
    for seed, papers, form, suffix in (
        (11, 400, "listing", "txt"),
        (12, 150, "listing", "txt"),
        (13, 150, "paperlists", "json"),
    ):
        path = folder / f"synth-{seed}.{suffix}"
        with path.open("w", encoding="utf-8") as handle:
            write_corpus(handle, papers, seed=seed, format_name=form)
        files.append(path)
    return files


@pytest.mark.slow
def test_aggregates_agree_on_a_synthetic_corpus_and_follow_remove_and_reingest(synthetic):
    store, minter = KGStore("memory"), Minter()
    ingest(synthetic, store, minter)
    both = assert_agree(store)
    # as `kg remove` does: the source and its topic detail, then the ranked lists and the description
    with resolution_suspended(store, minter, finish=finishing(store, minter)):
        source = ox.NamedNode(store.sources()[-1])
        assert store.remove_graph(source) and store.remove_graph(detail_graph(source))
    fewer = assert_agree(store)
    assert fewer != both, "removing a source changed the counts"
    ingest(synthetic[-1:], store, minter)
    assert assert_agree(store) == both, "re-ingesting it gives the same rows again"
