"""The remote store against a real Virtuoso on 127.0.0.1 (Debian's virtuoso-opensource 7.2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from conftest import KG_BIN, LISTING
from virtuoso_server import PASSWORD, USER

from kg import QUERIES_DIR
from kg.query.library import library
from kg.stores.embedded import KGStore

pytestmark = [pytest.mark.server, pytest.mark.slow, pytest.mark.xdist_group("virtuoso")]  # one server (conftest)
DIVERGENCES = Path(__file__).with_name("virtuoso_divergences.tsv")
LOAD_SCRIPT = Path(__file__).parents[2] / "scripts" / "virtuoso_load.sh"
RETRIES = 2  # asks again of a query whose rows differed
AGREED = ("same", "unstable")  # unstable: the embedded rows on asking again (how_every_query_differs)


def kg(*args: str, cwd: Path, check: bool = True, **env: str) -> subprocess.CompletedProcess:
    environment = {**{k: v for k, v in os.environ.items() if not k.startswith("KG_")}, **env}
    result = subprocess.run([str(KG_BIN), *args], cwd=cwd, capture_output=True, env=environment, timeout=900)
    if check and result.returncode != 0:
        raise AssertionError(
            f"kg {' '.join(args)} exited {result.returncode}: {result.stderr.decode(errors='replace')}"
        )
    return result


def on(server, graph_store: bool = True) -> list[str]:
    return ["--store", server.sparql, "--update-endpoint", server.sparql] + (
        ["--graph-store", server.graph_store] if graph_store else []
    )


def without_endpoint(text: bytes) -> bytes:
    """The server's description has one triple more, its void:sparqlEndpoint, and so a count one higher."""
    return b"".join(
        line for line in text.splitlines(keepends=True) if b"sparqlEndpoint" not in line and b"void#triples" not in line
    )


@pytest.fixture(scope="module")
def embedded(tmp_path_factory) -> Path:
    """The samples in an embedded store (disk/), its site, and its kg stats and N-Quads export (read once)."""
    folder = tmp_path_factory.mktemp("embedded")
    kg("build", "--store", "disk", "--out", "out", cwd=folder)
    kg("site", "--store", "disk", "--out", "site", cwd=folder)
    (folder / "stats.json").write_bytes(kg("stats", "--format", "json", "--store", "disk", cwd=folder).stdout)
    (folder / "export.nq").write_bytes(kg("export", "--format", "nquads", "--store", "disk", cwd=folder).stdout)
    return folder


@pytest.mark.parametrize("graph_store", [True, False], ids=["graph-store-protocol", "insert-data-batches"])
def test_build_stats_export_site_graph_on_virtuoso(virtuoso, embedded, tmp_path, graph_store):
    kg("build", *on(virtuoso, graph_store), "--out", "out", cwd=tmp_path)
    stats = json.loads(kg("stats", "--format", "json", "--store", virtuoso.sparql, cwd=tmp_path).stdout)
    local = json.loads((embedded / "stats.json").read_bytes())
    assert stats == {**local, "triples": local["triples"] + 1}  # + void:sparqlEndpoint
    assert without_endpoint(
        kg("export", "--format", "nquads", "--store", virtuoso.sparql, cwd=tmp_path).stdout
    ) == without_endpoint((embedded / "export.nq").read_bytes())
    kg("site", "--store", virtuoso.sparql, "--out", "site", cwd=tmp_path)
    pages = sorted(path.relative_to(tmp_path / "site") for path in (tmp_path / "site").rglob("*.html"))
    assert len(pages) > 100 and pages == sorted(
        path.relative_to(embedded / "site") for path in (embedded / "site").rglob("*.html")
    )
    kg("graph", "coauthors", "--store", virtuoso.sparql, "--out", "coauthors.html", cwd=tmp_path)
    assert (tmp_path / "coauthors.html").stat().st_size > 10_000


def test_ingest_and_remove_on_virtuoso(virtuoso, tmp_path):
    kg("build", *on(virtuoso), cwd=tmp_path)
    before = kg("export", "--format", "nquads", "--store", virtuoso.sparql, cwd=tmp_path).stdout
    kg("ingest", str(LISTING), *on(virtuoso, graph_store=False), cwd=tmp_path)  # replaced: staging graph + MOVE
    assert kg("export", "--format", "nquads", "--store", virtuoso.sparql, cwd=tmp_path).stdout == before
    kg("remove", LISTING.name, *on(virtuoso), cwd=tmp_path)
    stats = json.loads(kg("stats", "--format", "json", "--store", virtuoso.sparql, cwd=tmp_path).stdout)
    assert stats["sources"] == 1 and stats["papers"] == 14


def test_a_failed_build_leaves_the_graphs_as_they_were(virtuoso, tmp_path):
    kg("build", *on(virtuoso), cwd=tmp_path)
    before = kg("export", "--format", "nquads", "--store", virtuoso.sparql, cwd=tmp_path).stdout
    # The staging graphs are dropped, then the first upload fails: nothing is moved in.
    failed = kg(
        "build",
        "--store",
        virtuoso.sparql,
        "--update-endpoint",
        virtuoso.sparql,
        "--graph-store",
        virtuoso.sparql.replace("/sparql", "/no-such-endpoint"),
        cwd=tmp_path,
        check=False,
    )
    assert failed.returncode == 2 and b"404" in failed.stderr
    assert kg("export", "--format", "nquads", "--store", virtuoso.sparql, cwd=tmp_path).stdout == before
    assert not [g for g in KGStore(virtuoso.sparql)._staging_graphs()]


def test_digest_protected_endpoints_take_the_environment_credentials(virtuoso, embedded, tmp_path):
    args = [
        "--store",
        virtuoso.sparql,
        "--update-endpoint",
        virtuoso.sparql_auth,
        "--graph-store",
        virtuoso.graph_store_auth,
    ]
    refused = kg(
        "build", *args, cwd=tmp_path, check=False, KG_STORE_USER=USER, KG_STORE_PASSWORD="wrong", KG_STORE_AUTH="digest"
    )
    assert refused.returncode == 2 and b"401" in refused.stderr
    basic = kg("build", *args, cwd=tmp_path, check=False, KG_STORE_USER=USER, KG_STORE_PASSWORD=PASSWORD)
    assert basic.returncode != 0 and b"KG_STORE_AUTH=digest" in basic.stderr
    kg("build", *args, cwd=tmp_path, KG_STORE_USER=USER, KG_STORE_PASSWORD=PASSWORD, KG_STORE_AUTH="digest")
    stats = json.loads(kg("stats", "--format", "json", "--store", virtuoso.sparql, cwd=tmp_path).stdout)
    assert stats["papers"] == 43


def how_every_query_differs(local_folder: Path, server) -> dict[str, str]:
    """Per library query, how the server's rows differ from the embedded store's (bench/virtuoso.py)."""
    sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
    from query_timing import library as bench_library
    from query_timing import resolve_bindings, to_terms
    from virtuoso import how_rows_differ  # the benchmark compares the same way

    local, remote = KGStore(str(local_folder), read_only=True), KGStore(server.sparql)
    queries = bench_library(QUERIES_DIR)
    bindings = resolve_bindings(local, queries)

    def how(name: str) -> str:
        return how_rows_differ(local, remote, queries[name][0], to_terms(bindings.get(name, {})))

    try:
        found = {name: how(name) for name in queries}
        for name in [name for name, differs in found.items() if differs == "values"]:
            # Virtuoso's property paths are not always deterministic (openlink/virtuoso-opensource#704): other
            # rows once and the embedded store's on asking again is Virtuoso's fault, not the export's
            if any(how(name) == "same" for _ in range(RETRIES)):
                found[name] = "unstable"
                warnings.warn(
                    f"Virtuoso answered {name} with other rows once, then with the embedded store's", stacklevel=2
                )
        return found
    finally:
        local.close()


def recorded_divergences(*kinds: str) -> dict[str, str]:
    rows = (line.split("\t") for line in DIVERGENCES.read_text().splitlines() if not line.startswith("#"))
    return {name: how for name, how in rows if how in kinds}


def test_every_library_query_gives_the_embedded_rows_but_the_recorded_divergences(virtuoso, embedded):
    kg("build", *on(virtuoso), cwd=embedded)  # the same sources as the embedded store
    found = how_every_query_differs(embedded / "disk", virtuoso)
    assert set(library(QUERIES_DIR)) == set(found)
    # "order" is recorded where ties may come in another order: which depends on the order of loading
    ordered = recorded_divergences("order")
    differing = {name: how for name, how in found.items() if how not in AGREED and name not in ordered}
    assert differing == recorded_divergences("refused", "values")


def bulk_load(server, dump: Path, store: Path) -> None:
    """scripts/virtuoso_load.sh, which fails unless the server's counts are the store's."""
    result = subprocess.run(
        [str(LOAD_SCRIPT), str(dump), f"127.0.0.1:{server.sql_port}", server.sparql, str(store)],
        capture_output=True,
        timeout=600,
        env={**os.environ, "KG": str(KG_BIN)},
    )
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    quads = sum(len(path.read_bytes().splitlines()) for path in dump.glob("*.nq"))
    graphs = len(list(dump.glob("*.nq")))
    assert f"counts match: {graphs} graphs, {quads:,} quads".encode() in result.stdout  # kg check-load
    assert b"counts match: {" in result.stdout  # kg stats of both stores


def test_the_bulk_path_loads_the_export_and_the_counts_match(virtuoso, embedded, tmp_path):
    dump = virtuoso.folder / "dump"  # in the server's DirsAllowed
    kg("export", "--per-graph", str(dump), "--store", "disk", cwd=embedded)
    # two sources and their topic detail, ontology, topics, resolution, index, ranked lists, description
    assert len(list(dump.glob("*.nq"))) == 10
    bulk_load(virtuoso, dump, embedded / "disk")
    assert (
        kg("query", "coauthors", "-p", "author=gerhard neumann", "--store", virtuoso.sparql, cwd=tmp_path).stdout.count(
            b"Niklas Freymuth"
        )
        == 1
    )


def test_a_synthetic_corpus_of_2000_papers_through_the_bulk_path(virtuoso, tmp_path):
    """At scale too every query gives the embedded rows in the same order (each ORDER BY is total) but those
    recorded."""
    from kg.ingest.synth import write_corpus

    with open(tmp_path / "synth.txt", "w", encoding="utf-8") as handle:
        write_corpus(handle, 2000, 11)
    kg("ingest", "synth.txt", "--store", "disk", cwd=tmp_path)
    dump = virtuoso.folder / "dump-2000"
    kg("export", "--per-graph", str(dump), "--store", "disk", cwd=tmp_path)
    bulk_load(virtuoso, dump, tmp_path / "disk")
    found = how_every_query_differs(tmp_path / "disk", virtuoso)
    assert {name: how for name, how in found.items() if how not in AGREED} == recorded_divergences(
        "order", "refused", "values"
    )
