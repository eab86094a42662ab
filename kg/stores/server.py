"""``kg serve``: the site and a read-only SPARQL 1.1 Protocol endpoint at ``/sparql`` on 127.0.0.1.

Queries run in worker processes (kg/stores/query_pool.py: admission, time limit, memory
ceiling), or, when the store is a SPARQL server, are passed on to it with the same refusals and
limits (kg/stores/remote_pool.py). Results are cut at the row limit (the response then carries ``X-KG-Truncated``).
A page of a library query, made as ``kg query`` makes it, is at ``/query/NAME?PARAM=VALUE&limit=N&offset=N``
(answered by the command's ``library``, kg/query/served.py). Query by GET (``?query=``) or POST
(form or ``application/sparql-query``);
``default-graph-uri`` / ``named-graph-uri`` name the dataset (default: the union of the store's
graphs, as kg's own queries see it). Result formats by content negotiation: SPARQL JSON
(default), XML, CSV, TSV; N-Triples or Turtle for graphs.

The endpoint is local in every sense: it listens on 127.0.0.1 only, answers only requests
addressed to a loopback name (a page that rebinds its own host name to 127.0.0.1 gets 403),
runs no query a browser sends from another site's page (403, by the browser's Sec-Fetch-Site),
refuses updates (403) and ``SERVICE`` (400, kg/stores/federation.py) so that no request can
change the store or make the server send a request anywhere. Requests are framed strictly
(a body needs a plain Content-Length within the cap; a path must be a decodable absolute path
without control characters), no directory is listed, and every response carries the headers
of kg/stores/page_policy.py. A client that goes away costs one log line, never a traceback.
"""

from __future__ import annotations

import os
import signal
import traceback
import urllib.parse
from functools import partial, wraps
from http import HTTPStatus
from pathlib import Path

from .dereference import describe, entity_iri, page_of, preferred, wanted_rdf
from .http_framing import MAX_CONNECTIONS, FramedHandler, Server, log
from .page_policy import INERT_POLICY, PagePolicies
from .query_page import query_page
from .query_pool import Limits, Pool
from .sparql_results import GRAPH_TYPES, SELECT_TYPES

__all__ = ["MAX_CONNECTIONS", "Limits", "serve"]
LIBRARY_PATH = "/query/"  # a page of a library query: /query/NAME?PARAM=VALUE&limit=N&offset=N


def _choose(accept: str, table: dict, default):
    """The first acceptable media type of ``table`` by the client's q-values (ties: the client's order)."""
    for media in preferred(accept):
        if media in table:
            return table[media]
        if media in ("*/*", "application/*", "text/*"):
            return default
    return default


def _producible(accept: str) -> bool:
    """Whether the endpoint can answer in a type the client accepts (else 406, before any work)."""
    known = {*SELECT_TYPES, *GRAPH_TYPES, "*/*", "application/*", "text/*"}
    return any(media in known for media in preferred(accept))


def _answered_on_failure(method):
    """A handler method that fails answers 500 (when nothing was sent yet) and is logged in one line."""

    @wraps(method)
    def guarded(self):
        try:
            return method(self)
        except (ConnectionError, TimeoutError):
            raise  # the client went away: the server logs it
        except Exception as exc:  # noqa: BLE001 - one request's failure is that request's answer
            log(f"kg serve: {self.command} {self.path[:200]!r} failed: {type(exc).__name__}: {exc}")
            if os.environ.get("KG_DEBUG"):
                traceback.print_exc()
            self.close_connection = True
            if not self._replied:
                self._error(HTTPStatus.INTERNAL_SERVER_ERROR, "kg serve: the request failed (see the server's log)")

    return guarded


class Handler(FramedHandler):
    pool: Pool
    base: str | None = None  # the graph's IRI namespace, whose IRIs the server answers
    page: tuple[bytes, str] = (b"", INERT_POLICY)  # the query page and its Content Security Policy
    cors = False  # answers to queries readable by any site's pages (--cors)
    #: ``library(name, fields, ask, rows, accept)``: a page of a library query, each of its SPARQL queries
    #: asked of the pool by ``ask`` (kg/query/served.py, given by the command: the query library is above the stores)
    library = None
    limits: Limits
    policies: PagePolicies

    # ------------------------------------------------------------------ methods

    def _cross_site(self) -> bool:
        """A browser's request to the endpoint from another site's page (an ``<img>``, a ``fetch``, a form),
        as the browser itself labels it; a link the user follows (a navigation) is not one."""
        site = (self.headers.get("Sec-Fetch-Site") or "none").lower()
        return site not in ("same-origin", "none") and (self.headers.get("Sec-Fetch-Mode") or "").lower() != "navigate"

    def _query_page(self) -> None:
        body, self._policy = self.page
        self._reply(HTTPStatus.OK, "text/html; charset=utf-8", body)

    def _sparql(self, fields: dict[str, list[str]]) -> None:
        if self.command != "POST" and not fields:
            return self._query_page()
        if self._cross_site() and not self.cors:
            return self._error(HTTPStatus.FORBIDDEN, "SPARQL request refused: it comes from another site's page")
        if "update" in fields:
            return self._error(HTTPStatus.FORBIDDEN, "SPARQL update refused: this endpoint is read-only")
        queries = fields.get("query") or []
        if len(queries) != 1:
            return self._error(HTTPStatus.BAD_REQUEST, "SPARQL protocol error: give exactly one 'query' parameter")
        accept = self.headers.get("Accept") or "*/*"
        if not _producible(accept):
            return self._error(
                HTTPStatus.NOT_ACCEPTABLE,
                "not acceptable: answers are SPARQL JSON, XML, CSV or TSV, "
                "or " + ", ".join(GRAPH_TYPES) + " for graphs",
            )
        self._answer(
            {
                "query": queries[0],
                "default": fields.get("default-graph-uri", []),
                "named": fields.get("named-graph-uri", []),
                "rows": self.limits.rows,
                "select": _choose(accept, SELECT_TYPES, "json"),
                "graph": _choose(accept, {media: media for media in GRAPH_TYPES}, "application/n-triples"),
            }
        )

    def _entity(self, iri: str) -> None:
        """A thing the graph names: 303 to its page, or its statements in the RDF type asked for."""
        media = wanted_rdf(self.headers.get("Accept") or "*/*")
        if media is None:
            page = page_of(iri)
            if not Path(self.translate_path(page)).is_file():
                return self._error(HTTPStatus.NOT_FOUND, f"not found: the site has no page for {iri}")
            return self._reply(
                HTTPStatus.SEE_OTHER,
                "text/plain; charset=utf-8",
                f"See {page}\n".encode(),
                {"Location": page, "Vary": "Accept"},
            )
        if self._cross_site():
            return self._error(HTTPStatus.FORBIDDEN, "request refused: it comes from another site's page")
        self._answer(
            {
                "query": describe(iri),
                "default": [],
                "named": [],
                "rows": self.limits.rows,
                "select": "json",
                "graph": media,
            },
            {"Vary": "Accept"},
        )

    def _library_page(self, name: str, fields: dict[str, list[str]]) -> None:
        if self._cross_site() and not self.cors:
            return self._error(HTTPStatus.FORBIDDEN, "query refused: it comes from another site's page")
        accept = self.headers.get("Accept") or "*/*"
        self._send(self.library(name, fields, self.pool.ask, self.limits.rows, accept))

    def _answer(self, request: dict, extra: dict | None = None) -> None:
        self._send(self.pool.ask(request), extra)

    def _send(self, answer, extra: dict | None = None) -> None:
        headers = {**dict(answer.headers), **(extra or {})}
        if self.cors:
            headers["Access-Control-Allow-Origin"] = "*"
        if answer.rows_left_out:
            headers["X-KG-Truncated"] = f"{answer.rows_left_out} rows left out (row limit {self.limits.rows})"
        self._reply(answer.status, answer.content_type, answer.body, headers)

    def send_head(self):
        path = Path(self.translate_path(self.path))
        self._policy = self.policies.for_file(path / "index.html" if path.is_dir() else path)
        return super().send_head()

    def list_directory(self, path):
        self._policy = INERT_POLICY
        self._error(HTTPStatus.NOT_FOUND, "not found")  # no directory listings
        return None

    @_answered_on_failure
    def do_GET(self):  # noqa: N802 - http.server's naming
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/sparql":
            return self._sparql(urllib.parse.parse_qs(url.query, keep_blank_values=True))
        if url.path.startswith(LIBRARY_PATH) and self.library is not None:
            fields = urllib.parse.parse_qs(url.query, keep_blank_values=True)
            return self._library_page(urllib.parse.unquote(url.path[len(LIBRARY_PATH) :]), fields)
        if (iri := entity_iri(urllib.parse.unquote(url.path), self.base)) is not None:
            return self._entity(iri)
        if url.path == "/" and not Path(self.translate_path("/index.html")).is_file():
            return self._query_page()
        return super().do_GET()

    @_answered_on_failure
    def do_OPTIONS(self):  # noqa: N802 - a CORS preflight, answered only with --cors
        if not self.cors or urllib.parse.urlsplit(self.path).path != "/sparql":
            return self._refuse(HTTPStatus.METHOD_NOT_ALLOWED, "OPTIONS only to /sparql, with kg serve --cors")
        self._reply(
            HTTPStatus.NO_CONTENT,
            "text/plain; charset=utf-8",
            b"",
            {
                "Access-Control-Allow-Origin": "*",
                "Access-Control-Allow-Methods": "GET, POST",
                "Access-Control-Allow-Headers": "Accept, Content-Type",
                "Access-Control-Max-Age": "600",
            },
        )

    @_answered_on_failure
    def do_HEAD(self):  # noqa: N802
        return super().do_HEAD()

    @_answered_on_failure
    def do_POST(self):  # noqa: N802
        url = urllib.parse.urlsplit(self.path)
        if url.path != "/sparql":
            return self._refuse(HTTPStatus.METHOD_NOT_ALLOWED, "POST only to /sparql")
        body = self._body()
        if body is None:
            return None
        text = body.decode("utf-8", "replace")
        fields = urllib.parse.parse_qs(url.query, keep_blank_values=True)
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind == "application/sparql-query":
            fields["query"] = [text]
        elif kind == "application/sparql-update":
            fields["update"] = [text]
        else:
            fields.update(urllib.parse.parse_qs(text, keep_blank_values=True))
        return self._sparql(fields)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def serve(
    location: Path | str,
    site_dir: Path,
    port: int,
    limits: Limits,
    workers: int = 2,
    ready=None,
    base: str | None = None,
    examples: list[dict] | None = None,
    cors: bool = False,
    library=None,
) -> None:
    """Serve until interrupted (Ctrl-C, or SIGTERM, which stops it the same way: workers ended, no
    traceback); ``ready(port)`` is called once the socket listens. ``location``: the store's folder
    (queries in worker processes) or a SPARQL server's query endpoint (queries passed on to it); ``library``
    answers ``/query/NAME`` (:attr:`Handler.library`)."""
    signal.signal(signal.SIGTERM, _interrupt)
    if isinstance(location, Path):
        pool = Pool(location, workers, limits, log)
    else:
        from .remote_pool import RemotePool  # rdflib's parser, needed only to serve a remote store

        pool = RemotePool(location, workers, limits, log)
    handler = type(
        "KgHandler",
        (Handler,),
        {
            "pool": pool,
            "limits": limits,
            "policies": PagePolicies(),
            "base": base,
            "page": query_page(examples or [], base),
            "cors": cors,
            "library": staticmethod(library) if library else None,
            "timeout": limits.idle_seconds,
        },
    )
    try:
        server = Server(("127.0.0.1", port), partial(handler, directory=str(site_dir)))
    except BaseException:
        pool.close()
        raise
    try:
        if ready:
            ready(server.server_address[1])
        server.serve_forever()
    finally:
        server.server_close()
        pool.close()
