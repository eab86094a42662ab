"""``kg serve``: the site and a read-only SPARQL 1.1 Protocol endpoint at ``/sparql`` on 127.0.0.1.

Queries run in a few worker processes, each with the store opened read-only, so a query can
be stopped: one that outlives the time limit has its worker killed (and replaced) and the
client gets a SPARQL error saying so. Results are cut at the row limit (the response then
carries ``X-KG-Truncated``). Query by GET (``?query=``) or POST (form or
``application/sparql-query``); ``default-graph-uri`` / ``named-graph-uri`` name the dataset
(default: the union of the store's graphs, as kg's own queries see it). Result formats by
content negotiation: SPARQL JSON (default), XML, CSV, TSV; N-Triples or Turtle for graphs.
Updates are refused: the endpoint is read-only.
"""

from __future__ import annotations

import json
import multiprocessing
import queue
import threading
import urllib.parse
from dataclasses import dataclass
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import pyoxigraph as ox

from .snapshots import open_snapshot

XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
MAX_BODY = 1 << 20
STARTUP_SECONDS = 120
SELECT_TYPES = {
    "application/sparql-results+json": "json", "application/json": "json",
    "application/sparql-results+xml": "xml", "application/xml": "xml",
    "text/csv": "csv", "text/tab-separated-values": "tsv",
}
GRAPH_TYPES = {"application/n-triples": ox.RdfFormat.N_TRIPLES, "text/turtle": ox.RdfFormat.TURTLE}
CONTENT_TYPES = {"json": "application/sparql-results+json", "xml": "application/sparql-results+xml",
                 "csv": "text/csv", "tsv": "text/tab-separated-values"}


@dataclass(frozen=True)
class Limits:
    seconds: float = 30.0
    rows: int = 100_000


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
    """SELECT results in one of the four SPARQL result formats (unbound: ``None``)."""
    if fmt == "json":
        bindings = [{name: _json_term(term) for name, term in zip(variables, row) if term is not None} for row in rows]
        return json.dumps({"head": {"vars": variables}, "results": {"bindings": bindings}}, ensure_ascii=False).encode()
    if fmt == "xml":
        head = "".join(f"<variable name={quoteattr(name)}/>" for name in variables)
        body = "".join("<result>" + "".join(f"<binding name={quoteattr(name)}>{_xml_term(term)}</binding>"
                                            for name, term in zip(variables, row) if term is not None) + "</result>"
                       for row in rows)
        return (f'<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head>{head}</head>'
                f"<results>{body}</results></sparql>\n").encode()
    if fmt == "csv":
        lines = [",".join(variables)] + [",".join(_csv_field(term) for term in row) for row in rows]
        return ("\r\n".join(lines) + "\r\n").encode()
    lines = ["\t".join(f"?{name}" for name in variables)] + ["\t".join("" if t is None else str(t) for t in row) for row in rows]
    return ("\n".join(lines) + "\n").encode()


def serialize_boolean(answer: bool, fmt: str) -> bytes:
    if fmt == "xml":
        return (f'<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head/>'
                f"<boolean>{'true' if answer else 'false'}</boolean></sparql>\n").encode()
    if fmt in ("csv", "tsv"):
        return f"{'true' if answer else 'false'}\n".encode()
    return json.dumps({"head": {}, "boolean": answer}).encode()


# ---------------------------------------------------------------------- workers

def _answer(store: ox.Store, request: dict) -> tuple[int, str, bytes, int]:
    """(status, content type, body, rows left out) for one query."""
    options = {"use_default_graph_as_union": True}
    if request["default"] or request["named"]:
        options = {"default_graph": [ox.NamedNode(g) for g in request["default"]] or None,
                   "named_graphs": [ox.NamedNode(g) for g in request["named"]] or None}
    try:
        result = store.query(request["query"], **options)
    except (SyntaxError, ValueError) as exc:
        return 400, "text/plain; charset=utf-8", f"SPARQL query error: {exc}\n".encode(), 0
    limit = request["rows"]
    if isinstance(result, ox.QueryBoolean):
        fmt = request["select"]
        return 200, CONTENT_TYPES[fmt], serialize_boolean(bool(result), fmt), 0
    if isinstance(result, ox.QuerySolutions):
        variables = [variable.value for variable in result.variables]
        rows, extra = [], 0
        for solution in result:
            if len(rows) < limit:
                rows.append([solution[i] for i in range(len(variables))])
            else:
                extra += 1
        fmt = request["select"]
        return 200, CONTENT_TYPES[fmt], serialize_rows(variables, rows, fmt), extra
    triples = list(result)
    extra = max(0, len(triples) - limit)
    media = request["graph"]
    return 200, media, ox.serialize(triples[:limit], format=GRAPH_TYPES[media]) or b"", extra


def _work(location: str, connection) -> None:
    """A worker process: the store read-only, one request at a time from the pipe; read through a
    snapshot (kg/stores/snapshots.py), which an ingest beside the server cannot break, removed by
    whoever opens the store after the worker has ended."""
    store, _snapshot = open_snapshot(Path(location))
    connection.send("ready")
    while True:
        request = connection.recv()
        try:
            connection.send(_answer(store, request))
        except Exception as exc:  # noqa: BLE001 - any failure is the client's answer, the worker goes on
            connection.send((500, "text/plain; charset=utf-8", f"SPARQL query failed: {exc}\n".encode(), 0))


class Workers:
    """A fixed pool of query processes; a query past the time limit costs its worker, which is replaced."""

    def __init__(self, location: Path, count: int, limits: Limits):
        self.location, self.limits = str(location), limits
        self.context = multiprocessing.get_context("spawn")
        self.idle: queue.Queue = queue.Queue()
        self._all: set = set()
        self._lock = threading.Lock()
        for _ in range(count):
            self.idle.put(self._start())

    def _start(self):
        ours, theirs = self.context.Pipe()
        process = self.context.Process(target=_work, args=(self.location, theirs), daemon=True)
        process.start()
        theirs.close()
        # The time limit counts from here: wait until the worker has started and opened the store.
        if not ours.poll(STARTUP_SECONDS) or ours.recv() != "ready":
            process.kill()
            raise OSError(f"a query process did not start within {STARTUP_SECONDS} s")
        with self._lock:
            self._all.add(process)
        return process, ours

    def ask(self, request: dict) -> tuple[int, str, bytes, int]:
        process, pipe = self.idle.get()
        try:
            pipe.send(request)
            if pipe.poll(self.limits.seconds):
                answer = pipe.recv()
                self.idle.put((process, pipe))
                return answer
        except (EOFError, OSError):
            pass
        process.kill()
        process.join()
        with self._lock:
            self._all.discard(process)
        self.idle.put(self._start())
        return (503, "text/plain; charset=utf-8",
                f"SPARQL query stopped: it ran longer than the time limit of {self.limits.seconds:g} s\n".encode(), 0)

    def close(self) -> None:
        with self._lock:
            for process in self._all:
                process.kill()
                process.join()
            self._all.clear()


# ---------------------------------------------------------------------- HTTP

def _choose(accept: str, table: dict, default):
    """The first acceptable media type of ``table`` by the client's q-values (ties: the client's order)."""
    offers = []
    for position, part in enumerate(accept.split(",")):
        media, *params = [piece.strip() for piece in part.split(";")]
        q = next((float(p[2:]) for p in params if p.startswith("q=") and p[2:].replace(".", "", 1).isdigit()), 1.0)
        offers.append((-q, position, media.lower()))
    for _, _, media in sorted(offers):
        if media in table:
            return table[media]
        if media in ("*/*", "application/*", "text/*"):
            return default
    return default


class Handler(SimpleHTTPRequestHandler):
    workers: Workers
    limits: Limits

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass  # quiet: a load test would flood the terminal

    def _reply(self, status: int, content_type: str, body: bytes, headers: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _error(self, status: int, message: str) -> None:
        self._reply(status, "text/plain; charset=utf-8", (message + "\n").encode())

    def _sparql(self, fields: dict[str, list[str]]) -> None:
        if "update" in fields:
            return self._error(HTTPStatus.FORBIDDEN, "SPARQL update refused: this endpoint is read-only")
        queries = fields.get("query") or []
        if len(queries) != 1:
            return self._error(HTTPStatus.BAD_REQUEST, "SPARQL protocol error: give exactly one 'query' parameter")
        accept = self.headers.get("Accept") or "*/*"
        request = {"query": queries[0], "default": fields.get("default-graph-uri", []),
                   "named": fields.get("named-graph-uri", []), "rows": self.limits.rows,
                   "select": _choose(accept, SELECT_TYPES, "json"),
                   "graph": _choose(accept, {media: media for media in GRAPH_TYPES}, "application/n-triples")}
        status, content_type, body, extra = self.workers.ask(request)
        headers = {"X-KG-Truncated": f"{extra} rows left out (row limit {self.limits.rows})"} if extra else {}
        self._reply(status, content_type, body, headers)

    def do_GET(self):  # noqa: N802 - http.server's naming
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/sparql":
            return self._sparql(urllib.parse.parse_qs(url.query, keep_blank_values=True))
        return super().do_GET()

    def do_POST(self):  # noqa: N802
        url = urllib.parse.urlsplit(self.path)
        if url.path != "/sparql":
            return self._error(HTTPStatus.METHOD_NOT_ALLOWED, "POST only to /sparql")
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"SPARQL request over {MAX_BODY:,} bytes")
        body = self.rfile.read(length).decode("utf-8", "replace")
        fields = urllib.parse.parse_qs(url.query, keep_blank_values=True)
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind == "application/sparql-query":
            fields["query"] = [body]
        elif kind == "application/sparql-update":
            fields["update"] = [body]
        else:
            fields.update(urllib.parse.parse_qs(body, keep_blank_values=True))
        return self._sparql(fields)


def serve(location: Path, site_dir: Path, port: int, limits: Limits, workers: int = 2, ready=None) -> None:
    """Serve until interrupted; ``ready(port)`` is called once the socket listens."""
    pool = Workers(location, workers, limits)
    handler = type("KgHandler", (Handler,), {"workers": pool, "limits": limits})
    server = ThreadingHTTPServer(("127.0.0.1", port), partial(handler, directory=str(site_dir)))
    server.daemon_threads = True
    try:
        if ready:
            ready(server.server_address[1])
        server.serve_forever()
    finally:
        server.server_close()
        pool.close()
