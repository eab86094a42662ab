"""Virtuoso's answers (as captured from 7.2.5) read as the standard defines them, in JSON and XML, whole or streamed."""

from __future__ import annotations

import io
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.stores.results import JSON, XML, dialect_of, parse_answer, rows

DATA = Path(__file__).with_name("data")
XSD = "http://www.w3.org/2001/XMLSchema#"
EXPECTED = [
    (
        ox.BlankNode("b10001"),
        ox.Literal("2656", datatype=ox.NamedNode(XSD + "integer")),
        ox.Literal("true", datatype=ox.NamedNode(XSD + "boolean")),
        ox.Literal("false", datatype=ox.NamedNode(XSD + "boolean")),
        ox.Literal("wörld", language="de"),
        ox.Literal('"type": "bnode", "value": "nodeID://kept'),
        None,
    ),
    (ox.BlankNode("b10000"), None, None, None, None, None, ox.NamedNode("http://www.w3.org/2002/07/owl#Nothing")),
]


class Trickle(io.RawIOBase):
    """The answer a few bytes per read, so a label's prefix is split across reads."""

    def __init__(self, data: bytes, step: int):
        self.data, self.step, self.at = data, step, 0

    def read(self, size: int = -1) -> bytes:
        part = self.data[self.at : self.at + min(self.step, size if size >= 0 else self.step)]
        self.at += len(part)
        return part

    def readable(self) -> bool:
        return True


@pytest.mark.parametrize("name, content_type", [("virtuoso-answer.json", JSON), ("virtuoso-answer.xml", XML)])
@pytest.mark.parametrize("step", [None, 1, 7, 64])
def test_virtuoso_answers_read_as_standard_terms(name, content_type, step):
    data = (DATA / name).read_bytes()
    source = data if step is None else Trickle(data, step)
    dialect = dialect_of("Virtuoso/07.20.3229 (Linux) x86_64-pc-linux-gnu")
    assert list(rows(parse_answer(source, content_type, dialect), dialect)) == EXPECTED


def test_another_server_is_read_as_it_wrote():
    with pytest.raises(SyntaxError):  # a label no standard parser takes, from a server not known to write it
        list(rows(parse_answer((DATA / "virtuoso-answer.json").read_bytes(), JSON, dialect_of("Oxigraph/0.5"))))
