"""`kg check-load`: a `kg export --per-graph` dump against a real Oxigraph server that loaded it."""

from __future__ import annotations

import gzip
import urllib.request

import pyoxigraph as ox
import pytest
from conftest import kg_here

from kg.stores.bulk_counts import dump_counts

pytestmark = [pytest.mark.server, pytest.mark.slow]


def post(url: str, body: bytes, content_type: str) -> None:
    urllib.request.urlopen(urllib.request.Request(url, data=body, headers={"Content-Type": content_type}), timeout=120)


def test_the_counts_of_a_loaded_dump_match_and_a_missing_quad_is_one_line(oxigraph, built_samples, tmp_path):
    dump = tmp_path / "dump"
    kg_here("export", "--per-graph", str(dump), "--store", str(built_samples / "store"), cwd=tmp_path)
    files = sorted(dump.glob("*.nq"))
    for path in files:  # the server's own bulk load: N-Quads into its Graph Store endpoint
        post(oxigraph.store, path.read_bytes(), "application/n-quads")
    quads = sum(len(path.read_bytes().splitlines()) for path in files)
    checked = kg_here("check-load", str(dump), "--store", oxigraph.query, cwd=tmp_path)
    assert checked.stdout.decode().strip() == f"counts match: {len(files)} graphs, {quads:,} quads"

    quad = next(iter(ox.parse(files[0].read_bytes().splitlines()[0], ox.RdfFormat.N_QUADS)))
    deleted = f"DELETE DATA {{ GRAPH {quad.graph_name} {{ {quad.subject} {quad.predicate} {quad.object} }} }}"
    post(oxigraph.update, deleted.encode(), "application/sparql-update")
    failed = kg_here("check-load", str(dump), "--store", oxigraph.query, cwd=tmp_path, check=False)
    lines = failed.stderr.decode().splitlines()
    assert failed.returncode == 1 and len(lines) == 1, failed.stderr
    assert "differ from the dump in 1 of" in lines[0] and "on the server" in lines[0]


def test_a_folder_without_a_dump_is_one_line(oxigraph, tmp_path):
    failed = kg_here("check-load", str(tmp_path), "--store", oxigraph.query, cwd=tmp_path, check=False)
    assert failed.returncode == 1 and len(failed.stderr.splitlines()) == 1
    assert b"no *.nq or *.nq.gz file" in failed.stderr


def test_a_graph_over_several_files_plain_and_gzipped_counts_once_in_all(tmp_path):
    graph, other = "https://kg.example.org/id/graph/index", "https://kg.example.org/id/source/a"
    (tmp_path / "0001-a.nq").write_text(f"<urn:s> <urn:p> <urn:o1> <{graph}> .\n<urn:s> <urn:p> <urn:o2> <{graph}> .\n")
    with gzip.open(tmp_path / "0002-b.nq.gz", "wt") as handle:
        handle.write(f"<urn:s> <urn:p> <urn:o3> <{graph}> .\n")
    with gzip.open(tmp_path / "0003-c.nq.gz", "wt") as handle:
        handle.write(f"<urn:s> <urn:p> <urn:o1> <{other}> .\n")
    assert dump_counts(tmp_path) == {graph: 3, other: 1}
