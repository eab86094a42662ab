"""GEXF that Gephi opens ready: every node with kg's own position, its community's colour and a size."""

from __future__ import annotations

import shutil
import subprocess
from collections import defaultdict
from pathlib import Path
from xml.etree import ElementTree

import pytest

from kg.graphs.files import write_gexf
from kg.graphs.layout import layout
from kg.graphs.metrics import communities, membership
from kg.graphs.networks import network

SCHEMA = Path(__file__).resolve().parents[2] / ".." / "shared" / "schemas" / "gexf-1.2draft" / "gexf.xsd"
GEXF = "{http://www.gexf.net/1.2draft}"


@pytest.fixture(scope="module")
def written(sample_store, tmp_path_factory):
    graph = network(sample_store, "coauthors")
    path = tmp_path_factory.mktemp("gexf") / "coauthors.gexf"
    write_gexf(graph, path)
    return graph, path


def test_gexf_with_drawing_is_valid_against_the_gexf_schema(written):
    if not SCHEMA.exists():
        pytest.skip(f"no GEXF schema at {SCHEMA} (../shared/schemas/gexf-1.2draft is not here)")
    if shutil.which("xmllint") is None:
        pytest.skip("xmllint is not installed (make system-deps)")
    checked = subprocess.run(
        ["xmllint", "--noout", "--schema", str(SCHEMA), str(written[1])], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr[-2000:]


def test_every_node_has_the_pages_position_its_communitys_colour_and_a_size(written):
    graph, path = written
    group_of = membership(communities(graph))
    positions = layout(graph, community_of=group_of)
    colours = defaultdict(set)
    nodes = ElementTree.parse(path).getroot().find(f"{GEXF}graph").find(f"{GEXF}nodes")
    assert len(nodes) == len(graph) == 135
    for node in nodes:
        iri = node.get("id")
        position, colour, size = (node.find(GEXF + name) for name in ("position", "color", "size"))
        assert (float(position.get("x")), -float(position.get("y"))) == tuple(map(float, positions[iri]))
        assert float(size.get("value")) >= 4 + 4 * (graph.nodes[iri]["papers"] >= 1)
        if graph.degree(iri):
            colours[group_of[iri]].add((colour.get("r"), colour.get("g"), colour.get("b")))
    assert all(len(shades) == 1 for shades in colours.values()) and len(colours) > 5  # one colour per community
