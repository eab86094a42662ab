"""SPARQL answers of ``kg serve``'s query processes: a query run on the store, its results in one of the
SPARQL 1.1 result formats (JSON, XML, CSV, TSV) or, for graphs, N-Triples / Turtle."""

from __future__ import annotations

import json
from xml.sax.saxutils import escape, quoteattr

import pyoxigraph as ox

from .federation import federation_refusal

XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
SELECT_TYPES = {
    "application/sparql-results+json": "json",
    "application/json": "json",
    "application/sparql-results+xml": "xml",
    "application/xml": "xml",
    "text/csv": "csv",
    "text/tab-separated-values": "tsv",
}
GRAPH_TYPES = {
    "application/n-triples": ox.RdfFormat.N_TRIPLES,
    "text/turtle": ox.RdfFormat.TURTLE,
    "application/ld+json": ox.RdfFormat.JSON_LD,
}
CONTENT_TYPES = {
    "json": "application/sparql-results+json",
    "xml": "application/sparql-results+xml",
    "csv": "text/csv",
    "tsv": "text/tab-separated-values",
}


# ---------------------------------------------------------------------- result formats


def _json_term(term) -> dict:
    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    out = {"type": "literal", "value": term.value}
    if term.language:
        out["xml:lang"] = term.language
    elif term.datatype.value != XSD_STRING:
        out["datatype"] = term.datatype.value
    return out


def _xml_term(term) -> str:
    if isinstance(term, ox.NamedNode):
        return f"<uri>{escape(term.value)}</uri>"
    if isinstance(term, ox.BlankNode):
        return f"<bnode>{escape(term.value)}</bnode>"
    if term.language:
        return f"<literal xml:lang={quoteattr(term.language)}>{escape(term.value)}</literal>"
    if term.datatype.value != XSD_STRING:
        return f"<literal datatype={quoteattr(term.datatype.value)}>{escape(term.value)}</literal>"
    return f"<literal>{escape(term.value)}</literal>"


def _csv_field(term) -> str:
    if term is None:
        return ""
    text = f"_:{term.value}" if isinstance(term, ox.BlankNode) else term.value
    return f'"{text.replace(chr(34), chr(34) * 2)}"' if any(ch in text for ch in ',"\r\n') else text


def serialize_rows(variables: list[str], rows: list[list], fmt: str) -> bytes:
    """SELECT results in one of the four SPARQL result formats (unbound: ``None``; any other
    ``fmt``: TSV)."""
    return _ROW_WRITERS.get(fmt, _tsv_rows)(variables, rows)


def _json_rows(variables: list[str], rows: list[list]) -> bytes:
    bindings = [{name: _json_term(term) for name, term in zip(variables, row) if term is not None} for row in rows]
    return json.dumps({"head": {"vars": variables}, "results": {"bindings": bindings}}, ensure_ascii=False).encode()


def _xml_rows(variables: list[str], rows: list[list]) -> bytes:
    head = "".join(f"<variable name={quoteattr(name)}/>" for name in variables)
    body = "".join(
        "<result>"
        + "".join(
            f"<binding name={quoteattr(name)}>{_xml_term(term)}</binding>"
            for name, term in zip(variables, row)
            if term is not None
        )
        + "</result>"
        for row in rows
    )
    return (
        f'<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head>{head}</head>'
        f"<results>{body}</results></sparql>\n"
    ).encode()


def _csv_rows(variables: list[str], rows: list[list]) -> bytes:
    lines = [",".join(variables)] + [",".join(_csv_field(term) for term in row) for row in rows]
    return ("\r\n".join(lines) + "\r\n").encode()


def _tsv_rows(variables: list[str], rows: list[list]) -> bytes:
    lines = ["\t".join(f"?{name}" for name in variables)] + [
        "\t".join("" if t is None else str(t) for t in row) for row in rows
    ]
    return ("\n".join(lines) + "\n").encode()


_ROW_WRITERS = {"json": _json_rows, "xml": _xml_rows, "csv": _csv_rows, "tsv": _tsv_rows}


def serialize_boolean(answer: bool, fmt: str) -> bytes:
    if fmt == "xml":
        return (
            f'<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head/>'
            f"<boolean>{'true' if answer else 'false'}</boolean></sparql>\n"
        ).encode()
    if fmt in ("csv", "tsv"):
        return f"{'true' if answer else 'false'}\n".encode()
    return json.dumps({"head": {}, "boolean": answer}).encode()


def _dataset(request: dict) -> dict:
    """The query's dataset: the graphs the request names, else the union of the store's graphs."""
    if not (request["default"] or request["named"]):
        return {"use_default_graph_as_union": True}
    return {
        "default_graph": [ox.NamedNode(g) for g in request["default"]] or None,
        "named_graphs": [ox.NamedNode(g) for g in request["named"]] or None,
    }


def answer_query(store: ox.Store, request: dict, federation: bool) -> tuple[int, str, bytes, int]:
    """(status, content type, body, rows left out) for one query; a federated one refused unless
    ``federation``."""
    refusal = None if federation else federation_refusal(request["query"])
    if refusal:
        return 400, "text/plain; charset=utf-8", f"{refusal}\n".encode(), 0
    try:
        result = store.query(request["query"], **_dataset(request))
    except (SyntaxError, ValueError) as exc:
        return 400, "text/plain; charset=utf-8", f"SPARQL query error: {exc}\n".encode(), 0
    return answer_result(result, request)


def answer_result(result, request: dict, rows=tuple) -> tuple[int, str, bytes, int]:
    """(status, content type, body, rows left out) for a query's result as pyoxigraph gives it, from a
    store or parsed from a server's answer: a boolean, solutions (each made a tuple of values, None where
    unbound, by ``rows``) or triples (or quads of the default graph), cut at the request's row limit."""
    limit = request["rows"]
    if isinstance(result, ox.QueryBoolean):
        fmt = request["select"]
        return 200, CONTENT_TYPES[fmt], serialize_boolean(bool(result), fmt), 0
    if isinstance(result, ox.QuerySolutions):
        variables = [variable.value for variable in result.variables]
        kept, extra = [], 0
        for row in map(rows, result):
            if len(kept) < limit:
                kept.append(row)
            else:
                extra += 1
        fmt = request["select"]
        return 200, CONTENT_TYPES[fmt], serialize_rows(variables, kept, fmt), extra
    triples = [statement.triple if isinstance(statement, ox.Quad) else statement for statement in result]
    extra = max(0, len(triples) - limit)
    media = request["graph"]
    return 200, media, ox.serialize(triples[:limit], format=GRAPH_TYPES[media]) or b"", extra
