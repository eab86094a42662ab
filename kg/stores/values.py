"""Parameters bound as RDF terms: the term in place of the variable wherever the query's patterns use it,
and a one-row ``VALUES`` block at the top of each scope that selects the variable.

Every store binds this way. The terms are serialised by rdflib (which refuses invalid IRIs and escapes
literals), never pasted as text a user typed. The term in the patterns is what makes a query about one
entity as fast as the entity is small: Oxigraph's own substitutions filter the finished solutions (a query
about one institution evaluated the pattern for every institution, 5x slower at 3,000 papers), and a
``VALUES`` block at the top drives only the patterns beside it, not a ``UNION``'s branches or a sub-query
(which were evaluated for every entity and joined after: 140-540 ms a first page at 100,000 papers). The
``VALUES`` block keeps the variable bound where it is selected, grouped or sorted, so the query's text
needs no other change and every engine (Oxigraph, Virtuoso) reads it as before.

Scopes follow SPARQL's: a sub-query that does not select the variable has its own variable of that name
and is left as it is; a sub-query that selects it gets its own ``VALUES`` block; a ``MINUS`` group keeps
the variable (with the term alone, it would share no variable with the solutions it removes). A query
that assigns a parameter (``AS ?x``, ``VALUES ?x``) cannot be bound.
"""

from __future__ import annotations

import re
from typing import Mapping

import rdflib

from ..errors import KgError

_TOKEN = re.compile(
    r'(?P<skip>\#[^\n]*|"""(?:[^"\\]|\\.|"(?!""))*"""|\'\'\'(?:[^\'\\]|\\.|\'(?!\'\'))*\'\'\''
    r'|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|<[^<>"{}|^`\\\x00-\x20]*>|@[A-Za-z]+(?:-[A-Za-z0-9]+)*)'
    r"|(?P<variable>[?$][A-Za-z0-9_]+)"
    r"|(?P<word>(?:[A-Za-z_][\w.-]*)?:[\w.%-]*|[A-Za-z_][A-Za-z0-9_]*)|(?P<mark>[{}()*])",
    re.DOTALL,
)
_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def where_position(sparql: str) -> int:
    """The index just inside the opening brace of the query's WHERE clause.

    Comments, strings and IRIs are skipped; for CONSTRUCT the template's braces are too.
    """
    form = None
    previous = None
    depth = 0
    for token in _TOKEN.finditer(sparql):
        if token.group("word"):
            word = token.group("word").upper()
            if form is None and word in ("SELECT", "ASK", "CONSTRUCT", "DESCRIBE"):
                form = word
            previous = word
        elif token.group("mark") == "{":
            if depth == 0 and form and (form != "CONSTRUCT" or previous == "WHERE"):
                return token.end()
            depth += 1
            previous = "{"
        elif token.group("mark") == "}":
            depth -= 1
            previous = "}"
    raise KgError("cannot bind parameters: the query has no WHERE clause")


def sparql_term(term: rdflib.term.Identifier) -> str:
    if not isinstance(term, (rdflib.URIRef, rdflib.Literal)):
        raise KgError(f"cannot bind {term!r}: only IRIs and literals can be query parameters")
    try:
        return term.n3()
    except Exception as exc:  # rdflib refuses IRIs with characters that would break out of <…>
        raise KgError(f"cannot bind {str(term)!r}: {exc}") from None


def values_block(terms: Mapping[str, str]) -> str:
    return f" VALUES ({' '.join(f'?{name}' for name in terms)}) {{ ({' '.join(terms.values())}) }} "


class _Binder:
    """One walk over the WHERE clause's tokens: each open group with the parameters put in place there."""

    def __init__(self, sparql: str, terms: Mapping[str, str]):
        self.sparql, self.terms = sparql, terms
        self.pieces: list[str] = []
        self.copied = where_position(sparql)
        self.groups: list[frozenset[str]] = [frozenset(terms)]
        self.projection: tuple[frozenset[str], set[str], list[int]] | None = None  # a sub-query's SELECT
        self.next_group: frozenset[str] | None = None  # a MINUS group's
        self.previous = ""
        self.assigning = False  # in the variables of a VALUES block

    def bound(self) -> str:
        self.pieces.append(self.sparql[: self.copied] + values_block(self.terms))
        for token in _TOKEN.finditer(self.sparql, self.copied):
            if token.group("variable"):
                self._variable(token)
            elif token.group("word"):
                self._word(token.group("word").upper())
            elif token.group("mark"):
                self._mark(token)
                if not self.groups:  # the WHERE clause is closed: the rest is the query's modifiers
                    break
        return "".join(self.pieces) + self.sparql[self.copied :]

    def _word(self, word: str) -> None:
        if word == "SELECT":  # a sub-query: what it selects decides which parameters it shares
            self.projection = (self.groups[-1], set(), [0])
            self.groups[-1] = frozenset()  # its SELECT line and modifiers keep their variables
        elif word == "MINUS":
            self.next_group = frozenset()
        self.assigning = word == "VALUES" or self.assigning
        self.previous = word

    def _variable(self, token: re.Match) -> None:
        name = token.group("variable")[1:]
        if self.projection is not None:
            inherited, selected, parentheses = self.projection
            if parentheses[0] == 0 and self.previous != "AS":
                selected.add(name)
        elif name in self.groups[-1]:
            if self.assigning or self.previous == "AS":
                raise KgError(f"cannot bind ?{name}: the query assigns it a value")
            self.pieces.append(self.sparql[self.copied : token.start()] + self.terms[name])
            self.copied = token.end()
        self.previous = "?"

    def _mark(self, token: re.Match) -> None:
        mark = token.group("mark")
        self.previous = mark
        if self.projection is not None and mark in "()*":
            inherited, selected, parentheses = self.projection
            parentheses[0] += {"(": 1, ")": -1, "*": 0}[mark]
            if mark == "*" and parentheses[0] == 0:
                selected.update(inherited)
        elif mark == "{":
            self._open(token)
        elif mark == "}":
            self.groups.pop()

    def _open(self, token: re.Match) -> None:
        self.assigning = False
        if self.projection is not None:  # a sub-query's WHERE clause: its own VALUES block
            inherited, selected, _ = self.projection
            self.projection = None
            shared = inherited & selected
            self.groups.append(frozenset(shared))
            if shared:
                block = values_block({name: term for name, term in self.terms.items() if name in shared})
                self.pieces.append(self.sparql[self.copied : token.end()] + block)
                self.copied = token.end()
            return
        self.groups.append(self.groups[-1] if self.next_group is None else self.next_group)
        self.next_group = None


def with_values(sparql: str, bindings: Mapping[str, rdflib.term.Identifier]) -> str:
    """The query with its parameters bound: their terms in the patterns, VALUES where they are selected."""
    if not bindings:
        return sparql
    for name in bindings:
        if not _VARIABLE.fullmatch(name):
            raise KgError(f"cannot bind {name!r}: not a SPARQL variable name")
    return _Binder(sparql, {name: sparql_term(term) for name, term in bindings.items()}).bound()
