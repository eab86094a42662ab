"""kg export --per-graph: the N-Quads export split at its graphs, one complete file each."""

from __future__ import annotations

import io

from kg.exports.rdf import export, export_per_graph


def test_per_graph_files_hold_the_nquads_export_graph_by_graph(sample_store, tmp_path):
    whole = io.BytesIO()
    export(sample_store, "nquads", whole, "https://kg.example.org/id/")
    files = export_per_graph(sample_store, tmp_path / "dump")
    assert b"".join(path.read_bytes() for path in files) == whole.getvalue()  # sorted by graph: the same bytes
    assert [path.name for path in files] == sorted(path.name for path in (tmp_path / "dump").iterdir())
    assert files[-1].name == "0006-https-kg.example.org-ontology.nq"
    for path in files:
        graphs = {line.rsplit(b" ", 2)[-2] for line in path.read_bytes().splitlines()}
        assert len(graphs) == 1  # one graph a file
