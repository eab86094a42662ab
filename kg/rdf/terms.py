"""Triples as plain tuples of N-Triples texts: what the mapping states, ready to be written.

The mapping states a triple as a ``(subject, predicate, object)`` tuple of its terms' N-Triples
texts (``<http://ex/paper/p>``, ``"Ada Lovelace"@en``, ``"3"^^<…#integer>``), byte for byte what
pyoxigraph's serializer writes for the same terms. A staged 20,000-paper listing states two million
triples: as pyoxigraph terms, each would be made in Rust, hashed there on every look-up of its text
and decoded again for every ``.value`` the side rows read; as strings, a line is one join and the
side rows read slices (:func:`iri_value`, :func:`literal_value`).

IRIs the mapping mints from slugs are valid by construction (:mod:`.iris`); an IRI from the input
(a link, a registry's IRI) is checked as pyoxigraph checks it (:func:`link`, :func:`iri`). The
store's bulk load parses every line again, strictly, so no invalid term passes unseen.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from pyoxigraph import Literal, NamedNode, RdfFormat, parse

from .vocab_texts import XSD

Statement = tuple[str, str, str]

_SHARED = 1 << 18  # distinct checked IRIs kept; bounded so that memory stays flat on any corpus


def minted(value: str) -> str:
    """The text of an IRI kg minted (:class:`kg.rdf.iris.Minter`: slugs are valid IRI characters).

    >>> minted("http://ex/paper/p")
    '<http://ex/paper/p>'
    """
    return f"<{value}>"


@lru_cache(maxsize=_SHARED)
def iri(value: str) -> str:
    """The text of an IRI from outside kg's minting (raises ValueError, as NamedNode does, for an invalid one).

    >>> iri("https://ror.org/052gg0110")
    '<https://ror.org/052gg0110>'
    """
    return str(NamedNode(value))


def link(url: str) -> str | None:
    """A URL as an IRI's text, or None when it is not a valid one (it stays in the raw text).

    >>> link("https://github.com/ada/looms"), link("not a url")
    ('<https://github.com/ada/looms>', None)
    """
    try:
        return iri(url)
    except ValueError:
        return None


# What N-Triples escapes in a literal, as pyoxigraph writes it: the quote, the backslash, control
# characters (five by their letters), DEL and the two non-characters U+FFFE and U+FFFF.
_ESCAPED = re.compile('["\\\\\x00-\x1f\x7f\ufffe\uffff]')
_NAMED_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _escape(match: re.Match) -> str:
    char = match.group()
    return _NAMED_ESCAPES.get(char) or f"\\u{ord(char):04X}"


def literal(value: str, language: str | None = None, datatype: str | None = None) -> str:
    r"""A literal's text: tagged with ``language``, or typed with ``datatype`` (an IRI's text; none or
    ``xsd:string`` is a plain literal).

    >>> print(literal("Ada Lovelace", "en"), literal("陈"), integer(3), literal('say "hi"\n'))
    "Ada Lovelace"@en "陈" "3"^^<http://www.w3.org/2001/XMLSchema#integer> "say \"hi\"\n"
    """
    quoted = f'"{_ESCAPED.sub(_escape, value)}"' if _ESCAPED.search(value) else f'"{value}"'
    if language:
        return f"{quoted}@{language.lower()}"
    if datatype and datatype != XSD.string:
        return f"{quoted}^^{datatype}"
    return quoted


@lru_cache(maxsize=1 << 12)
def integer(value: int) -> str:
    return f'"{value}"^^{XSD.integer}'


def iri_value(text: str) -> str:
    """The IRI an IRI's text writes.

    >>> iri_value("<http://ex/paper/p>")
    'http://ex/paper/p'
    """
    return text[1:-1]


_UNESCAPED = {"\\" + letter: char for char, letter in (('"', '"'), ("\\", "\\"), ("\b", "b"), ("\t", "t"))}
_UNESCAPED |= {"\\n": "\n", "\\f": "\f", "\\r": "\r"}
_ESCAPE = re.compile(r"\\(?:u[0-9A-F]{4}|.)")


def _unescape(match: re.Match) -> str:
    escape = match.group()
    return _UNESCAPED.get(escape) or chr(int(escape[2:], 16))


def literal_value(text: str) -> tuple[str, str]:
    r"""The lexical form and language tag ("" for none) a literal's text writes: what :func:`literal` was given.

    >>> literal_value(literal('say "hi"\n', "en")), literal_value(integer(3))
    (('say "hi"\n', 'en'), ('3', ''))
    """
    end = text.rindex('"')
    value, rest = text[1:end], text[end + 1 :]
    if "\\" in value:
        value = _ESCAPE.sub(_unescape, value)
    return value, rest[1:] if rest.startswith("@") else ""


def value(text: str) -> str:
    """The IRI or the lexical form a term's text writes.

    >>> value("<http://ex/paper/p>"), value(literal("Ada", "en"))
    ('http://ex/paper/p', 'Ada')
    """
    return literal_value(text)[0] if text.startswith('"') else iri_value(text)


def term(text: str | None) -> NamedNode | Literal | None:
    """The term a term's text writes, as pyoxigraph reads it (None stays None).

    >>> term(literal("Ada", "en")) == Literal("Ada", language="en"), term(None)
    (True, None)
    """
    if text is None:
        return None
    return next(iter(parse(f"<urn:kg:term> <urn:kg:term> {text} .\n", format=RdfFormat.N_TRIPLES))).object


def ntriples_line(statement: Statement) -> str:
    r"""One statement as an N-Triples line.

    >>> from kg.rdf.vocab_texts import RDFS
    >>> ntriples_line((minted("http://ex/topic/nlp"), RDFS.label, literal("NLP", "en")))
    '<http://ex/topic/nlp> <http://www.w3.org/2000/01/rdf-schema#label> "NLP"@en .\n'
    """
    subject, predicate, obj = statement
    return f"{subject} {predicate} {obj} .\n"


def ntriples(statements: Iterable[Statement]) -> bytes:
    """The statements as an N-Triples document, byte for byte what ``pyoxigraph.serialize`` writes.

    >>> from pyoxigraph import Literal, RdfFormat, Triple, serialize
    >>> from kg import vocab
    >>> said = [(NamedNode("http://ex/topic/nlp"), vocab.RDFS.label, Literal('N"L\\nP', language="en"))]
    >>> texts = [tuple(map(str, statement)) for statement in said]
    >>> ntriples(texts) == serialize([Triple(*statement) for statement in said], format=RdfFormat.N_TRIPLES)
    True
    """
    return "".join(map(ntriples_line, statements)).encode("utf-8")
