"""Triples as plain tuples of terms, written as N-Triples lines; terms built once per distinct value.

The mapping states a triple as a ``(subject, predicate, object)`` tuple of pyoxigraph terms
rather than a ``pyoxigraph.Triple``: building a Triple checks and copies its three terms again
(2 µs when the object is a literal), and a staged 20,000-paper listing states two million of
them. A term's N-Triples text is ``str(term)`` (pyoxigraph's serializer writes exactly that),
made once per distinct term, so a line is three look-ups and a join, and lines are compared as
strings when repeats are left out.

Terms that many papers share (an author's IRI, a venue, a position number) are built once per
distinct string by the cached constructors below; per-paper terms are built where they are used.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Union

from pyoxigraph import BlankNode, Literal, NamedNode

from ..vocab import XSD

Subject = Union[NamedNode, BlankNode]
Term = Union[NamedNode, BlankNode, Literal]
Statement = tuple[Subject, NamedNode, Term]

_SHARED = 1 << 18  # distinct shared terms kept; bounded so that memory stays flat on any corpus


@lru_cache(maxsize=_SHARED)
def iri(value: str) -> NamedNode:
    """The IRI of a thing many papers name (raises ValueError, as NamedNode does, for an invalid one).

    >>> iri("http://ex/topic/nlp") is iri("http://ex/topic/nlp")
    True
    """
    return NamedNode(value)


@lru_cache(maxsize=_SHARED)
def literal(value: str, language: str | None = None, datatype: NamedNode | None = None) -> Literal:
    """A literal many papers state (a name as written, a label, a year).

    >>> print(literal("Ada Lovelace", "en"), literal("陈"), integer(3))
    "Ada Lovelace"@en "陈" "3"^^<http://www.w3.org/2001/XMLSchema#integer>
    """
    return Literal(value, language=language, datatype=datatype)


@lru_cache(maxsize=1 << 12)
def integer(value: int) -> Literal:
    return Literal(str(value), datatype=XSD.integer)


class _TermTexts(dict):
    """Term -> its N-Triples text, made on the first look-up. A plain dict, emptied when it holds
    :data:`TEXTS_KEPT` terms (memory stays flat): a hit costs two thirds of an ``lru_cache``'s, whose
    order it keeps up on every hit; the per-paper terms that fill it are few of its look-ups."""

    def __missing__(self, term: Term) -> str:
        if len(self) >= TEXTS_KEPT:
            self.clear()
        self[term] = text = str(term)
        return text


TEXTS_KEPT = 1 << 16
_TEXTS = _TermTexts()


def ntriples_line(statement: Statement) -> str:
    r"""One statement as an N-Triples line.

    >>> from kg.vocab import RDFS
    >>> ntriples_line((iri("http://ex/topic/nlp"), RDFS.label, literal("NLP", "en")))
    '<http://ex/topic/nlp> <http://www.w3.org/2000/01/rdf-schema#label> "NLP"@en .\n'
    """
    subject, predicate, obj = statement
    return f"{_TEXTS[subject]} {_TEXTS[predicate]} {_TEXTS[obj]} .\n"


def ntriples(statements: Iterable[Statement]) -> bytes:
    """The statements as an N-Triples document, byte for byte what ``pyoxigraph.serialize`` writes.

    >>> from pyoxigraph import RdfFormat, Triple, serialize
    >>> from kg.vocab import RDFS
    >>> said = [(iri("http://ex/topic/nlp"), RDFS.label, literal("NLP", "en"))]
    >>> ntriples(said) == serialize([Triple(*statement) for statement in said], format=RdfFormat.N_TRIPLES)
    True
    """
    return "".join(map(ntriples_line, statements)).encode("utf-8")
