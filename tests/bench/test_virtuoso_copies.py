"""bench/virtuoso_copies.py: N disjoint copies of a store's export, the shared graphs and IRIs once."""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
from virtuoso_copies import write_copies  # noqa: E402 (bench/, beside the tests)

BASE = "https://kg.example.org/id/"
EXPORT = {
    "0001-description.nq": f'<{BASE}dataset/kg> <urn:papers> "2" <{BASE}graph/description> .\n',
    "0002-index.nq": (
        f'<{BASE}author/ada> <urn:key> "ada" <{BASE}graph/index> .\n'
        f'<{BASE}name-index/author> <urn:prefix> "{BASE}author/" <{BASE}graph/index> .\n'
        f'<{BASE}topic/graphs> <urn:key> "graphs" <{BASE}graph/index> .\n'
    ),
    "0003-source.nq": (
        f"<{BASE}paper/p1> <urn:creator> <{BASE}author/ada> <{BASE}source/a-txt> .\n"
        f"<{BASE}paper/p1> <urn:subject> <{BASE}topic/graphs> <{BASE}source/a-txt> .\n"
        f'<{BASE}institution/x> <urn:country> "CN" <{BASE}source/a-txt> .\n'
    ),
    "0004-topics.nq": f"<{BASE}topic/graphs> <urn:in> <{BASE}topics> <{BASE}graph/topics> .\n",
    "0005-ontology.nq": '<https://kg.example.org/ontology> <urn:title> "kg" <https://kg.example.org/ontology> .\n',
}


def test_three_copies_rewrite_every_minted_iri_but_the_shared_ones_and_write_a_shared_quad_once(tmp_path):
    export, dump = tmp_path / "export", tmp_path / "dump"
    export.mkdir()
    for name, text in EXPORT.items():
        (export / name).write_text(text, encoding="utf-8")
    counts = write_copies(export, dump, 3, BASE)
    assert counts == {
        f"{BASE}graph/index": 2 * 3 + 1,  # each copy's author and prefix; the topic's key once
        f"{BASE}c0/source/a-txt": 3,
        f"{BASE}c1/source/a-txt": 3,
        f"{BASE}c2/source/a-txt": 3,
        f"{BASE}graph/topics": 1,
        "https://kg.example.org/ontology": 1,
    }  # the description left out
    lines = b"".join(gzip.open(path).read() for path in sorted(dump.glob("c02-*.gz"))).decode()
    assert lines == (
        f'<{BASE}c2/author/ada> <urn:key> "ada" <{BASE}graph/index> .\n'
        f'<{BASE}c2/name-index/author> <urn:prefix> "{BASE}c2/author/" <{BASE}graph/index> .\n'
        f"<{BASE}c2/paper/p1> <urn:creator> <{BASE}c2/author/ada> <{BASE}c2/source/a-txt> .\n"
        f"<{BASE}c2/paper/p1> <urn:subject> <{BASE}topic/graphs> <{BASE}c2/source/a-txt> .\n"
        f'<{BASE}c2/institution/x> <urn:country> "CN" <{BASE}c2/source/a-txt> .\n'
    )
