"""The query library: named SPARQL questions in ``queries/*.rq``, their parameters, and running them.

The file format, each parameter kind and how values are checked are in ``docs/queries.md`` ("Writing a
query"), written once; :func:`parse_query` reads it. Parameters are bound as RDF terms, never pasted as
text (:mod:`kg.stores.values`: the term in every pattern that uses the variable, so a query about one
entity reads only that entity's part of the graph); the runner leaves a selected parameter's column out
of the output, since it only repeats the input. SPARQL cannot bind a LIMIT, so the runner cuts the rows
instead; a query with a ``limit`` also takes ``offset``, and the rows after the page are counted only up
to :data:`MORE_COUNTED`, so a first page costs no more than reading it. PREFIX lines for
:data:`kg.vocab.PREFIXES` are added, so queries may use ``kg:``, ``dcterms:``, ``foaf:``… undeclared.

The store's default graph is the union of the source graphs, and Oxigraph's union keeps a triple once per
source that states it (a venue, an author named by two listings). Queries therefore use ``SELECT
DISTINCT`` or ``COUNT(DISTINCT …)``, which also keeps a paper from two sources from counting twice.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Mapping

from oxrdflib._converter import from_ox
from rdflib import Graph, Literal, URIRef, Variable
from rdflib.namespace import XSD
from rdflib.term import Identifier

from .. import QUERIES_DIR
from ..errors import KgError, ParameterError, SparqlSyntaxError
from ..vocab import sparql_prologue
from .lookup import MOST_PAPERS, SparqlStore, find_entity, most_papers, search_names  # noqa: F401 - search_names: the site's import
from .rankings import digest, ranked_page

ENTITY_KINDS = ("author", "institution", "topic")
KINDS = (*ENTITY_KINDS, "string", "integer", "iri")
LIMIT = "limit"
#: The largest whole number a parameter may be: Oxigraph's xsd:integer is 64 bits (and so is a row limit).
LARGEST_INTEGER = (1 << 63) - 1
OFFSET = "offset"  # every query with a limit takes it; not declared in the query's header
MORE_COUNTED = 10_000  # rows after a page counted at most ("more than 10,000 more")

_HEADER_LINE = re.compile(r"^#\s*([A-Za-z][\w-]*)\s*:\s*(.*?)\s*$")
_FIELD_SEPARATOR = re.compile(r"\s+:\s+|\s+:$|^:\s+")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_MINIMUM = re.compile(r"^integer\s*>=\s*([+-]?\d+)$")
_CHOICES = re.compile(r"^[\w-]+(?:\|[\w-]+)+$")


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    description: str
    default: str | None = None
    minimum: int | None = None  # integers: the smallest allowed
    choices: tuple[str, ...] = ()  # enumerations: the allowed words

    @property
    def required(self) -> bool:
        return self.default is None

    @property
    def allowed(self) -> str:
        """What values may be, for help and errors."""
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.minimum is not None:
            return f"a whole number ≥ {self.minimum}"
        return self.kind


@dataclass(frozen=True)
class LibraryQuery:
    name: str
    title: str
    description: str
    params: tuple[Param, ...]
    sparql: str
    path: Path | None = None
    precomputed: str | None = None  # the precomputed list that serves its pages (kg/query/rankings.py)
    #: a query about an entity: its lists are written for each entity with at least this many papers
    list_papers: int | None = None

    @property
    def entity_param(self) -> Param | None:
        """The one parameter naming an author, institution or topic (a list is per value of it)."""
        return next((param for param in self.params if param.kind in ENTITY_KINDS), None)


# ---------------------------------------------------------------- reading query files


def parse_query(text: str, name: str, path: Path | None = None) -> LibraryQuery:
    """A query file's header and body; a malformed ``param`` line is a KgError naming file and line."""
    where = str(path or name)
    fields: dict[str, str] = {}
    params: list[Param] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            break
        header = _HEADER_LINE.match(stripped)
        if not header:
            continue
        key, value = header.group(1).lower(), header.group(2)
        if key == "param":
            params.append(_parse_param(value, f"{where}:{number}"))
        else:
            fields.setdefault(key, value)
    names = [param.name for param in params]
    if len(set(names)) != len(names):
        raise KgError(f"{where}: a parameter is declared twice ({', '.join(names)})")
    title = fields.get("title") or name
    precomputed, list_papers = _precomputed_header(fields.get("precomputed") or "", params, where)
    return LibraryQuery(
        name, title, fields.get("description") or title, tuple(params), text, path, precomputed, list_papers
    )


def _precomputed_header(value: str, params: list[Param], where: str) -> tuple[str | None, int | None]:
    """``# precomputed: NAME``, or for a query about one entity ``# precomputed: NAME : PAPERS`` (a list for
    each entity with at least PAPERS papers: the engine answers the others): the name and PAPERS."""
    name, _, papers = (part.strip() for part in value.partition(":"))
    entities = [param for param in params if param.kind in ENTITY_KINDS]
    if not name:
        return None, None
    if not entities:
        if papers:
            raise KgError(f"{where}: '# precomputed: {value}': PAPERS is for a query about an entity")
        return name, None
    if len(entities) > 1 or not papers.isdigit():
        raise KgError(
            f"{where}: a query about one entity declares its lists as '# precomputed: NAME : PAPERS' "
            "(a list for each entity with at least PAPERS papers); about two entities it cannot have lists"
        )
    return name, int(papers)


def _parse_param(value: str, where: str) -> Param:
    parts = [part.strip() for part in _FIELD_SEPARATOR.split(value)]
    if len(parts) < 2:
        raise KgError(f"{where}: expected '# param: NAME : KIND : DESCRIPTION : DEFAULT', got {value!r}")
    name, kind = parts[0], parts[1].lower()
    if not _NAME.match(name):
        raise KgError(f"{where}: parameter name {name!r} is not a SPARQL variable name")
    minimum, choices = (1 if name == LIMIT else None), ()
    if bound := _MINIMUM.match(kind):
        kind, minimum = "integer", max(int(bound.group(1)), minimum or int(bound.group(1)))
    elif _CHOICES.match(kind):
        kind, choices = "string", tuple(kind.split("|"))
    if kind not in KINDS:
        raise KgError(
            f"{where}: parameter {name}: unknown kind {kind!r}; use one of {', '.join(KINDS)}, "
            "'integer >= N' or 'a|b|c'"
        )
    description = " : ".join(parts[2:-1]) if len(parts) > 3 else (parts[2] if len(parts) == 3 else "")
    default = parts[-1] if len(parts) > 3 and parts[-1] else None
    param = Param(name, kind, description, default, minimum, choices)
    if default is not None and kind not in ENTITY_KINDS:
        _checked(param, default, f"{where}: the default of parameter")
    return param


def _checked(param: Param, value: str, what: str = "parameter") -> str:
    """The value if the parameter's declared kind allows it, else a one-line ParameterError (exit 2)."""
    if param.kind == "integer" and not re.fullmatch(r"\s*[+-]?\d+\s*", value):
        raise ParameterError(f"{what} {param.name}: {value!r} is not a whole number")
    if param.kind == "integer" and not -LARGEST_INTEGER - 1 <= int(value) <= LARGEST_INTEGER:
        lowest = -LARGEST_INTEGER - 1 if param.minimum is None else param.minimum
        raise ParameterError(
            f"{what} {param.name}: {value.strip()} is out of range; give a whole number "
            f"from {lowest} to {LARGEST_INTEGER}"
        )
    if param.minimum is not None and int(value) < param.minimum:
        raise ParameterError(f"{what} {param.name}: {value.strip()} is too small; give {param.allowed}")
    if param.choices and value.strip().lower() not in param.choices:
        raise ParameterError(f"{what} {param.name}: {value!r} is not allowed; give {param.allowed}")
    return value.strip().lower() if param.choices else value


def load_query(path: Path) -> LibraryQuery:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise KgError(f"{path}: cannot read the query ({exc})") from None
    return parse_query(text, path.stem, path)


def library(folder: Path = QUERIES_DIR) -> dict[str, LibraryQuery]:
    """Every ``*.rq`` in the folder by name, sorted."""
    return {path.stem: load_query(path) for path in sorted(folder.glob("*.rq"))}


def library_query(name: str, folder: Path = QUERIES_DIR) -> LibraryQuery:
    path = folder / f"{name}.rq"
    if not _NAME.match(name.replace("-", "_")) or not path.is_file():
        known = sorted(library(folder))
        close = difflib.get_close_matches(name, known, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise KgError(f"no query named {name!r}{hint} (`kg queries` lists them)")
    return load_query(path)


# ---------------------------------------------------------------- binding and running


@dataclass(frozen=True)
class Page:
    """Which rows of an answer to show: ``limit`` rows (None: all) after the first ``offset``."""

    limit: int | None = None
    offset: int = 0


def _offset(query: LibraryQuery, values: Mapping[str, str]) -> int:
    if OFFSET not in values or any(param.name == OFFSET for param in query.params):
        return 0
    return int(_checked(Param(OFFSET, "integer", "", None, 0), values[OFFSET]))


def bind(
    query: LibraryQuery, store: SparqlStore, values: Mapping[str, str], notes: list[str] | None = None
) -> tuple[dict[str, Identifier], Page]:
    """The RDF terms for the query's parameters (defaults filled in), and the page of rows to show. An
    entity whose default is :data:`MOST_PAPERS` is the graph's own with the most papers, said in ``notes``."""
    _check_given(query, values)
    bindings: dict[str, Identifier] = {}
    limit = None
    for param in query.params:
        term = _term_given(query, param, values, store, notes)
        if param.name == LIMIT:
            limit = int(term)
        else:
            bindings[param.name] = term
    return bindings, Page(limit, _offset(query, values))


def _check_given(query: LibraryQuery, values: Mapping[str, str]) -> None:
    """Every given parameter is declared, and every plain value well formed, before any name is looked up."""
    paged = any(param.name == LIMIT for param in query.params)
    unknown = sorted(set(values) - {param.name for param in query.params} - ({OFFSET} if paged else set()))
    if unknown:
        declared = ", ".join(param.name for param in query.params) or "none"
        raise KgError(f"query {query.name} has no parameter {', '.join(unknown)} (parameters: {declared})")
    for param in query.params:
        if param.kind not in ENTITY_KINDS and values.get(param.name) is not None:
            _checked(param, values[param.name])


def _term_given(
    query: LibraryQuery, param: Param, values: Mapping[str, str], store: SparqlStore, notes: list[str] | None
) -> Identifier:
    """The term for one parameter: its value, else its default (an entity's: the one with the most papers)."""
    value = values.get(param.name, param.default)
    if value is None:
        raise KgError(f"query {query.name} needs -p {param.name}=… ({param.description or param.kind})")
    if param.kind not in ENTITY_KINDS or param.name in values or value != MOST_PAPERS:
        return to_term(param, value, store)
    term, name, papers = most_papers(store, param.kind)
    if notes is not None:
        notes.append(f"-p {param.name} not given: {name}, the {param.kind} with the most papers ({papers})")
    return term


def to_term(param: Param, value: str, store: SparqlStore) -> Identifier:
    if param.kind in ENTITY_KINDS:
        return find_entity(store, param.kind, value)
    value = _checked(param, value)
    if param.kind == "integer":
        return Literal(int(value), datatype=XSD.integer)
    if param.kind == "iri":
        if not re.fullmatch(r"[A-Za-z][\w+.-]*:[^\s<>\"{}|\\^`]*", value):
            raise KgError(f"parameter {param.name}: {value!r} is not an IRI")
        return URIRef(value)
    return Literal(value)


@dataclass
class QueryResult:
    """Rows of RDF terms (None where unbound) under their variable names: the page asked for, the
    first of them the answer's row ``offset + 1``; ``total`` the answer's rows, exact unless more than
    :data:`MORE_COUNTED` follow the page (``total_exact`` false: at least that many)."""

    variables: list[str]
    rows: list[tuple[Identifier | None, ...]]
    total: int
    ask: bool | None = None
    graph: Graph | None = None  # for CONSTRUCT / DESCRIBE
    offset: int = 0
    total_exact: bool = True
    notes: list[str] = field(default_factory=list)  # what the user should know, such as a default chosen


def answer(store: SparqlStore, query: LibraryQuery, bindings: Mapping[str, Identifier]):
    """The query's whole answer as the store gives it, with bound parameters; a syntax error at the user's own line."""
    prologue = sparql_prologue()
    try:
        return store.query(prologue + query.sparql, bindings)
    except SparqlSyntaxError as exc:  # at the user's own line, not counting the prefixes added above
        raise KgError(
            f"{query.path or query.name}:{exc.line - prologue.count(chr(10))}:{exc.column}: "
            f"SPARQL syntax error: {exc.detail}"
        ) from None


def plain_defaults(query: LibraryQuery) -> dict[str, Identifier]:
    """The defaults of the parameters other than ``limit`` and the entities, as bound terms."""
    return {
        param.name: to_term(param, param.default, None)
        for param in query.params
        if param.name != LIMIT and param.default is not None and param.kind not in ENTITY_KINDS
    }


def at_defaults(query: LibraryQuery, bindings: Mapping[str, Identifier]) -> bool:
    """Whether every parameter but the entity is bound to its default, so a precomputed list is the answer."""
    return all(bindings.get(name) == term for name, term in plain_defaults(query).items())


def _precomputed(
    store: SparqlStore, query: LibraryQuery, bindings: Mapping[str, Identifier], page: Page
) -> QueryResult | None:
    """The page read by rank from the query's precomputed list, when one serves these parameters."""
    if not query.precomputed or page.limit is None or not at_defaults(query, bindings):
        return None
    entity = bindings.get(query.entity_param.name) if query.entity_param else None
    served = ranked_page(store, query.precomputed, digest(query.sparql), page.offset, page.limit, entity)
    if served is None:  # a store written before the list, or by another version of the query
        return None
    variables, result, total = served
    rows, convert = _rows(result) if result is not None else ((), None)
    ranked = sorted(rows, key=lambda row: int(convert(row[0])))  # ?rank first
    kept = [tuple(_simple(convert(term)) for term in row[1:]) for row in ranked]
    return QueryResult(variables, kept, total, offset=page.offset)


def _rows(result):
    """A SELECT's rows and how to make a value of them an rdflib term: kg's stores keep rows as pyoxigraph
    terms (kg/stores/answers.py), so only the rows shown are converted; other engines' rows are rdflib terms."""
    terms = getattr(result, "terms", None)
    return (terms, from_ox) if terms is not None else (iter(result), lambda term: term)


def execute(
    store: SparqlStore, query: LibraryQuery, bindings: Mapping[str, Identifier], page: Page = Page()
) -> QueryResult:
    """Run a query with bound parameters; the parameters' own columns are left out. A page of a query
    whose precomputed list serves these parameters is read from the list."""
    served = _precomputed(store, query, bindings, page)
    if served is not None:
        return served
    result = answer(store, query, bindings)
    if result.type == "ASK":
        return QueryResult([], [], 0, ask=bool(result.askAnswer))
    if result.type in {"CONSTRUCT", "DESCRIBE"}:
        graph = Graph()
        for subject, predicate, value in result.graph:
            graph.add((subject, predicate, _simple(value)))
        return QueryResult([], [], len(graph), graph=graph)
    shown = [str(var) for var in result.vars if str(var) not in bindings]
    positions = [result.vars.index(Variable(var)) for var in shown]
    rows, convert = _rows(result)  # only the rows shown are converted, the rest counted
    skipped = sum(1 for _ in islice(rows, page.offset))
    kept = [tuple(_simple(convert(row[i])) for i in positions) for row in islice(rows, page.limit)]
    more = sum(1 for _ in islice(rows, MORE_COUNTED + 1))
    return QueryResult(
        shown, kept, skipped + len(kept) + min(more, MORE_COUNTED), offset=page.offset, total_exact=more <= MORE_COUNTED
    )


def _simple(term: Identifier | None) -> Identifier | None:
    """RDF 1.1: ``"x"^^xsd:string`` is the simple literal ``"x"``; engines differ in which they return."""
    if isinstance(term, Literal) and term.datatype == XSD.string:
        return Literal(str(term))
    return term


def run(store: SparqlStore, query: LibraryQuery, values: Mapping[str, str] | None = None) -> QueryResult:
    notes: list[str] = []
    bindings, page = bind(query, store, values or {}, notes)
    result = execute(store, query, bindings, page)
    result.notes = notes
    return result
