"""Collaboration networks on the samples: projections, thresholds, metrics, files, the CLI."""

from __future__ import annotations

import subprocess
from collections import Counter
from itertools import combinations
from pathlib import Path

import networkx as nx
import pytest
import rdflib
from conftest import kg_here

from kg.graphs.aggregates import AUTHORS, INSTITUTIONS, NodeRow, PairRow, node_rows, pair_rows
from kg.graphs.files import write_csv, write_gexf
from kg.graphs.metrics import bridging_nodes, collaboration_path, communities, membership, summarize
from kg.graphs.networks import network
from kg.graphs.projections import collaboration_graph, ego_network, induced, sorted_subgraph, top_nodes
from kg.graphs.vosviewer import write_pajek, write_vosviewer
from kg.query.stats import graph_stats
from kg.vocab import sparql_prologue

A = "https://kg.example.org/id/author/"
CLIQUE = [A + name for name in ("yuchen-xian", "yunqiu-xu", "yang-he", "yi-yang")]


@pytest.fixture(scope="module")
def coauthors(sample_store):
    return network(sample_store, "coauthors")


def test_coauthor_network_has_every_author_and_the_known_ties(sample_store, coauthors):
    assert len(coauthors) == graph_stats(sample_store)["authors"] == 135
    assert coauthors.edges[A + "gerhard-neumann", A + "niklas-freymuth"]["weight"] == 2
    for a, b in combinations(CLIQUE, 2):
        assert coauthors.edges[a, b]["papers"] == 2
    assert nx.density(coauthors.subgraph(CLIQUE)) == 1.0


def test_pairs_from_the_store_match_an_independent_count_over_the_turtle(sample_store, tmp_path):
    """Pairs per team size counted in Python over rdflib's parse of the export agree with the store's SPARQL."""
    from kg.exports.rdf import export

    export(sample_store, "turtle", tmp_path / "kg.ttl", "https://kg.example.org/id/")
    parsed = rdflib.Graph().parse(tmp_path / "kg.ttl", format="turtle")
    for link in (AUTHORS, INSTITUTIONS):
        members: dict = {}
        for paper, member in parsed.subject_objects(link):
            members.setdefault(paper, set()).add(str(member))
        expected = Counter((a, b, len(team)) for team in members.values() for a, b in combinations(sorted(team), 2))
        got = {(row.a, row.b, row.team_size): row.papers for row in pair_rows(sample_store, link)}
        assert got == dict(expected)


def test_fractional_counting_and_team_size_limit():
    nodes = [NodeRow(iri, iri.upper(), 2) for iri in "abc"]
    pairs = [PairRow("a", "b", 3, 1), PairRow("a", "c", 3, 1), PairRow("b", "c", 3, 1), PairRow("a", "b", 2, 1)]
    fractional = collaboration_graph(nodes, pairs, counting="fractional")
    assert fractional.edges["a", "b"]["weight"] == pytest.approx(1 / 2 + 1)
    assert fractional.edges["a", "b"]["papers"] == 2
    small_teams = collaboration_graph(nodes, pairs, max_team=2)
    assert list(small_teams.edges) == [("a", "b")] and small_teams.edges["a", "b"]["weight"] == 1
    assert list(collaboration_graph(nodes, pairs, min_weight=2).edges) == [("a", "b")]


def test_thresholds_on_the_samples(sample_store, coauthors):
    rows = node_rows(sample_store, AUTHORS)
    prolific = network(sample_store, "coauthors", min_papers=2)
    assert set(prolific) == {row.iri for row in rows if row.papers >= 2} and A + "gerhard-neumann" in prolific
    small_teams = network(sample_store, "coauthors", max_team=4)
    assert small_teams.has_edge(*CLIQUE[:2]) and not small_teams.has_edge(A + "gerhard-neumann", A + "niklas-freymuth")
    top = network(sample_store, "coauthors", top=5)
    assert set(top) == set(top_nodes(coauthors, 5)) and len(top) == 5
    assert all(top.nodes[node]["papers"] >= 2 for node in top)


def test_leaders_within_a_group_are_the_subgraph_s_own(coauthors):
    """Ranking a group in place counts only the ties inside it, as in the subgraph on it."""
    group = set(ego_network(coauthors, A + "gerhard-neumann", 1)) - {A + "gerhard-neumann"}
    assert top_nodes(coauthors, 5, within=group) == top_nodes(induced(coauthors, group), 5)
    assert top_nodes(coauthors, None, within=group) == top_nodes(induced(coauthors, group), None)
    # the whole graph's ranking counts the ties to Gerhard Neumann too
    assert top_nodes(coauthors, None, within=set(coauthors)) == top_nodes(coauthors, None)


def test_a_sorted_subgraph_is_the_graph_itself_only_when_it_is_all_of_it_in_order(coauthors):
    ego = ego_network(coauthors, A + "gerhard-neumann", 1)  # built in sorted order
    assert sorted_subgraph(ego, set(ego)) is ego
    part = sorted(ego)[:5]
    smaller = sorted_subgraph(ego, part)
    assert smaller is not ego and list(smaller) == part and set(smaller.edges) == set(induced(ego, part).edges)
    unsorted = nx.Graph([("b", "a"), ("c", "b")])
    copied = sorted_subgraph(unsorted, {"a", "b", "c"})
    assert copied is not unsorted and list(copied) == ["a", "b", "c"]


def test_ego_network_of_gerhard_neumann(coauthors):
    ego = ego_network(coauthors, A + "gerhard-neumann", 1)
    assert len(ego) == 15 and set(ego) == {A + "gerhard-neumann", *coauthors[A + "gerhard-neumann"]}


def test_institution_network_has_every_institution(sample_store):
    institutions = network(sample_store, "institutions")
    listed = sample_store.scalar(
        sparql_prologue() + "SELECT (COUNT(DISTINCT ?o) AS ?n) { ?paper schema:sourceOrganization ?o }"
    )
    assert len(institutions) == listed == 33  # as listed on papers; parents of units appear only through them
    ustc = institutions.nodes["https://kg.example.org/id/institution/university-of-science-and-technology-of-china"]
    assert ustc["label"] == "University of Science and Technology of China" and ustc["papers"] == 6


def test_metrics_on_two_groups_and_a_bridge():
    graph = nx.Graph()
    graph.add_edges_from(combinations("abcd", 2), weight=1)
    graph.add_edges_from(combinations("wxyz", 2), weight=1)
    graph.add_edge("d", "w", weight=1)
    graph.add_node("lonely")
    groups = communities(graph)
    assert groups == communities(graph) and {frozenset(g) for g in groups} == {
        frozenset("abcd"),
        frozenset("wxyz"),
        frozenset(["lonely"]),
    }
    assert collaboration_path(graph, "a", "z") == ["a", "d", "w", "z"]
    assert collaboration_path(graph, "a", "lonely") is None
    summary = summarize(graph)
    assert [node for node, _ in summary.bridges] == ["d", "w"]
    assert summary.top_betweenness[0][0] in {"d", "w"} and summary.components == 2 and summary.largest_component == 8
    assert bridging_nodes(graph, membership(groups), nx.betweenness_centrality(graph))[0] == ("d", 1)


def test_betweenness_in_igraph_is_networkx_s_exact_and_sampled_value():
    """The compiled measure is the same number networkx computes, exact and from the same sampled
    sources; sampling is what summarize uses above the limit, and says so."""
    from kg.graphs import compiled, metrics

    graph = nx.relabel_nodes(nx.gnm_random_graph(400, 1200, seed=3), lambda index: f"n{index:04d}")
    graph.add_node("lonely")
    for samples in (None, 40):
        expected = nx.betweenness_centrality(graph, k=samples, seed=metrics.SEED)
        got = compiled.betweenness(graph, samples, metrics.SEED)
        assert max(abs(expected[node] - got[node]) for node in graph) < 1e-12 and max(got.values()) > 0.01
    assert metrics.betweenness_sample(graph) is None
    big = nx.relabel_nodes(nx.gnm_random_graph(metrics.EXACT_BETWEENNESS_LIMIT + 1, 12000, seed=4), str)
    assert summarize(big).betweenness_sample == metrics.BETWEENNESS_SAMPLES
    assert communities(big) == communities(big) and len(communities(big)) > 1


def test_gexf_has_labels_weights_communities_and_is_deterministic(coauthors, tmp_path):
    write_gexf(coauthors, tmp_path / "one.gexf")
    write_gexf(coauthors, tmp_path / "two.gexf")
    assert (tmp_path / "one.gexf").read_bytes() == (tmp_path / "two.gexf").read_bytes()
    loaded = nx.read_gexf(tmp_path / "one.gexf")
    assert loaded.nodes[A + "gerhard-neumann"]["label"] == "Gerhard Neumann"
    assert "community" in loaded.nodes[A + "gerhard-neumann"]
    assert loaded.edges[A + "gerhard-neumann", A + "niklas-freymuth"]["weight"] == 2
    write_csv(coauthors, tmp_path / "edges.csv")
    lines = (tmp_path / "edges.csv").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + coauthors.number_of_edges() and lines[1].split(",")[2] == "2"


@pytest.mark.slow
def test_cli_ego_page_stats_path_and_errors(built_store, tmp_path):
    store = ("--store", str(built_store))
    result = kg_here("graph", "coauthors", "--author", "gerhard  NEUMANN", "--format", "csv", *store, cwd=tmp_path)
    assert "(15 nodes, 63 edges)" in result.stderr.decode()
    assert (tmp_path / "exports" / "coauthors-gerhard-neumann.csv").exists()
    stats = kg_here("graph", "stats", "--rows", "2", *store, cwd=tmp_path).stdout.decode()
    assert "coauthors: 135 nodes, 385 edges" in stats and "Gerhard Neumann" in stats
    path = kg_here("graph", "path", "niklas freymuth", "Onur Celik", *store, cwd=tmp_path).stdout.decode()
    assert path.startswith("Distance 1: Niklas Freymuth → Onur Celik")
    missing = kg_here("graph", "coauthors", "--author", "Gerhard Neuman", *store, cwd=tmp_path, check=False)
    assert missing.returncode == 1
    assert missing.stderr.decode() == "kg: error: no author matches 'Gerhard Neuman'; closest: Gerhard Neumann\n"


def test_author_institution_network_is_bipartite_and_counts_papers(sample_store, tmp_path):
    from kg.graphs.networks import affiliation_network

    graph = affiliation_network(sample_store)
    pairs = sample_store.scalar(
        sparql_prologue()
        + """SELECT (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?a ?o WHERE {
        ?paper a schema:ScholarlyArticle ; dcterms:creator ?a ; schema:sourceOrganization ?o } }"""
    )
    assert graph.number_of_edges() == pairs
    kinds = {attrs["kind"] for _, attrs in graph.nodes(data=True)}
    assert kinds == {"author", "institution"}
    assert all(graph.nodes[a]["kind"] != graph.nodes[b]["kind"] for a, b in graph.edges)
    neumann = A + "gerhard-neumann"
    assert {graph.nodes[n]["label"]: graph.edges[neumann, n]["papers"] for n in graph[neumann]} == {
        "Karlsruhe Institute of Technology": 1,
        "FZI Research Center for Information Technology": 1,
        "University of Freiburg": 1,
    }
    kg_here(
        "graph", "affiliations", "--format", "csv", "--out", str(tmp_path / "a.csv"), "--store", "memory", cwd=tmp_path
    )


GEXF_SCHEMA = Path(__file__).resolve().parents[2] / ".." / "shared" / "schemas" / "gexf-1.2draft" / "gexf.xsd"


@pytest.fixture(scope="module")
def built_store(built_samples) -> Path:
    return built_samples / "store"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["coauthors", "institutions", "topics", "affiliations"])
def test_every_network_file_is_valid_and_keeps_node_kinds(name, built_store, tmp_path):
    if not GEXF_SCHEMA.exists():
        pytest.skip(f"no GEXF schema at {GEXF_SCHEMA}")
    kinds = {
        "coauthors": {"author"},
        "institutions": {"institution"},
        "topics": {"topic"},
        "affiliations": {"author", "institution"},
    }[name]
    for file_format, read in (("gexf", nx.read_gexf), ("graphml", nx.read_graphml)):
        path = tmp_path / f"{name}.{file_format}"
        kg_here("graph", name, "--format", file_format, "--out", str(path), "--store", str(built_store), cwd=tmp_path)
        check = ["--schema", str(GEXF_SCHEMA)] if file_format == "gexf" else []  # GraphML: well-formed XML
        checked = subprocess.run(["xmllint", "--noout", *check, str(path)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        loaded = read(path)
        assert {attrs["kind"] for _, attrs in loaded.nodes(data=True)} == kinds
        assert all(isinstance(attrs["fractional"], float) for *_, attrs in loaded.edges(data=True))


ZJU = "https://kg.example.org/id/institution/zhejiang-university"


def test_parent_level_rolls_units_up_into_their_parents(sample_store):
    listed = network(sample_store, "institutions")
    parents = network(sample_store, "institutions", level="parent")
    assert ZJU not in listed and ZJU in parents  # named only through its units
    units = [node for node in listed if node.startswith(ZJU + "--")]
    assert len(units) >= 2 and not any(node.startswith(ZJU + "--") for node in parents)
    # the parent's papers are the union of its units' papers (each counted once)
    assert set(parents.nodes[ZJU]["titles"]) == {title for unit in units for title in listed.nodes[unit]["titles"]}
    assert parents.nodes[ZJU]["papers"] == len(parents.nodes[ZJU]["titles"])
    # near miss: a top-level institution listed as itself is the same node with the same count
    ustc = "https://kg.example.org/id/institution/university-of-science-and-technology-of-china"
    assert parents.nodes[ustc]["papers"] == listed.nodes[ustc]["papers"] == 6
    has_parent = {
        str(row[0])
        for row in sample_store.query(sparql_prologue() + "SELECT DISTINCT ?u { ?u org:subOrganizationOf ?p }")
    }
    assert not has_parent & set(parents) and has_parent & set(listed)


@pytest.mark.slow
def test_cli_institution_levels_and_measures_named_for_each_network(built_store, tmp_path):
    store = ("--store", str(built_store))
    missing = kg_here(
        "graph", "institutions", "--institution", "Zhejiang University", *store, cwd=tmp_path, check=False
    )
    assert missing.returncode == 1 and "--level parent" in missing.stderr.decode()
    found = kg_here(
        "graph",
        "institutions",
        "--level",
        "parent",
        "--institution",
        "Zhejiang University",
        "--out",
        "zju.html",
        *store,
        cwd=tmp_path,
    )
    assert (tmp_path / "zju.html").exists() and "nodes" in found.stderr.decode()
    for name, neighbours in (
        ("coauthors", "co-authors"),
        ("institutions", "partner institutions"),
        ("topics", "co-occurring topics"),
    ):
        stats = kg_here("graph", "stats", name, "--rows", "3", *store, cwd=tmp_path).stdout.decode()
        assert f"degree ({neighbours})" in stats and "collaborators" not in stats
        assert "betweenness (share of shortest paths through the node, exact)" in stats


def test_vosviewer_and_pajek_files_hold_the_network(coauthors, tmp_path):
    map_file, network_file = write_vosviewer(coauthors, tmp_path / "co-map.txt")
    rows = [line.split("\t") for line in map_file.read_text(encoding="utf-8").splitlines()]
    header, items = rows[0], rows[1:]
    assert header[:5] == ["id", "label", "x", "y", "cluster"] and len(items) == len(coauthors)
    by_label = {item[1]: item for item in items}
    assert by_label["Gerhard Neumann"][header.index("weight<Documents>")] == str(
        coauthors.nodes[A + "gerhard-neumann"]["papers"]
    )
    assert all(1 <= int(item[4]) <= 1000 for item in items)
    links = [line.split("\t") for line in network_file.read_text(encoding="utf-8").splitlines()]
    assert len(links) == coauthors.number_of_edges()
    label_of = {item[0]: item[1] for item in items}
    assert ["2"] == [w for a, b, w in links if {label_of[a], label_of[b]} == {"Gerhard Neumann", "Niklas Freymuth"}]
    write_pajek(coauthors, tmp_path / "co.net")
    loaded = nx.Graph(nx.read_pajek(tmp_path / "co.net"))  # networkx's own Pajek reader
    assert len(loaded) == len(coauthors) and loaded.number_of_edges() == coauthors.number_of_edges()
    assert "Balázs Gyenes" in loaded
    write_vosviewer(coauthors, tmp_path / "again-map.txt")
    assert (tmp_path / "again-map.txt").read_bytes() == map_file.read_bytes()


def test_stats_mark_a_name_that_is_probably_several_people(tmp_path):
    """Alex Kim's papers fall into two groups with no co-author or organisation in common
    (tests/data/one_name_two_people.txt): every ranking he is in says so, and the note explains the mark."""
    listing = Path(__file__).parent.parent / "data" / "one_name_two_people.txt"
    store = ("--store", str(tmp_path / "store"))
    kg_here("ingest", str(listing), *store, cwd=tmp_path)
    lines = kg_here("graph", "stats", "--rows", "3", *store, cwd=tmp_path).stdout.decode().splitlines()
    ranked = [line for line in lines if line.startswith("  ")]
    assert [line for line in ranked if "Alex Kim" in line] == [
        line for line in ranked if line.endswith("Alex Kim  * probably 2 people of this name")
    ]
    assert len([line for line in ranked if "Alex Kim" in line]) == 4
    assert not [line for line in ranked if "*" in line and "Alex Kim" not in line]
    assert lines[-1].startswith("* 1 name above: papers in groups that share no co-author and no organisation")
    institutions = kg_here("graph", "stats", "institutions", *store, cwd=tmp_path).stdout.decode()
    assert "probably" not in institutions  # near miss: only people are marked
