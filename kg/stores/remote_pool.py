"""``kg serve`` on a remote store: queries passed on to the SPARQL server, with the embedded case's safety.

The server does the work, so no query process is needed: a request waits for one of ``workers``
slots (at most ``queue_seconds``, at most ``queue_length`` waiting, else 503 with ``Retry-After``),
then is sent to the server's query endpoint and its answer read back within the time limit
(``--timeout``: the whole answer, connection included) and a size cap (``--query-memory`` MiB of
answer), parsed by the standard parsers (the server's dialect undone, kg/stores/results.py) and
written again in the format the client asked for, cut at the row limit.

Nothing reaches the server that is not a SPARQL 1.1 query as rdflib's parser reads it: an update (in
the ``query`` parameter, which Virtuoso's ``/sparql`` would run) is refused with 403, a server's own
syntax (Virtuoso's ``DEFINE``, which can make it fetch a URL) with 400, ``SERVICE`` with 400 unless
``--allow-federation``, and ``FROM`` / ``FROM NAMED`` of a graph that is not one of kg's with 400. The
dataset is always named in the request: the union of kg's graphs by default, and a graph the request
names that is not one of kg's is replaced by an empty one (as the embedded store answers it), so other
data on a shared server stays out.
"""

from __future__ import annotations

import threading
import time
import urllib.parse

from rdflib import URIRef

from .auth import Credentials
from .federation import SERVICE_REFUSAL, holds_service
from .http import Client, RemoteError
from .query_pool import TEXT, Answer, Limits, busy
from .remote import EMPTY_DATASET, RemoteStore
from .results import GRAPHS, GRAPHS_ACCEPT, SOLUTIONS, SOLUTIONS_ACCEPT, dialect_of, parse_answer, row_reader
from .sparql_results import answer_result

GRAPHS_SECONDS = 10.0  # how long the list of kg's graphs is reused before it is asked for again
FORM = "application/x-www-form-urlencoded"


def _first_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:300]


def refusal(query: str, graphs: set[str], federation: bool) -> tuple[int, str] | str:
    """(status, message) for a request that must not reach the server, else the query's form
    (``SelectQuery``, ``AskQuery``, ``ConstructQuery``, ``DescribeQuery``)."""
    from rdflib.plugins.sparql.parser import parseQuery, parseUpdate  # imported when serving a remote store

    try:
        tree = parseQuery(query)
    except Exception as exc:  # noqa: BLE001 - whatever rdflib cannot read as a query is not sent
        try:
            parseUpdate(query)
        except Exception:  # noqa: BLE001
            return 400, f"SPARQL query error: not a SPARQL 1.1 query ({_first_line(exc)})"
        return 403, "SPARQL update refused: this endpoint is read-only"
    if not federation and holds_service(tree):
        return 400, SERVICE_REFUSAL
    for clause in tree[1]["datasetClause"] if "datasetClause" in tree[1] else ():
        graph = clause.get("default", clause.get("named"))
        if not isinstance(graph, URIRef) or str(graph) not in graphs:
            return 400, (
                f"SPARQL query refused: FROM names {graph}, which is not one of this store's graphs "
                "(write FROM with the full IRI of one of them, or leave it out: the default is their union)"
            )
    return tree[1].name


def dataset(request: dict, graphs: list[str]) -> list[tuple[str, str]]:
    """The protocol's dataset parameters: the graphs the request names (those kg does not have made an
    empty graph), else the union of kg's graphs, with kg's graphs as the named ones."""
    known = set(graphs)
    default = [g if g in known else EMPTY_DATASET for g in request["default"]]
    named = [g if g in known else EMPTY_DATASET for g in request["named"]]
    if not default:
        default = [EMPTY_DATASET] if named else graphs or [EMPTY_DATASET]
    named = named or graphs or [EMPTY_DATASET]
    return [("default-graph-uri", g) for g in default] + [("named-graph-uri", g) for g in named]


class RemotePool:
    """The query "pool" of a remote store: slots for requests at once, each answered by the server."""

    def __init__(self, spec: str, count: int, limits: Limits, log=None):
        self.spec, self.limits = spec, limits
        self.store = RemoteStore(spec)
        self.client = Client(Credentials.from_environment(), timeout=limits.seconds, limit=limits.memory_mb << 20)
        self.slots = threading.BoundedSemaphore(count)
        self.lock = threading.Lock()
        self.waiting = 0
        self._graphs: tuple[float, list[str]] = (-GRAPHS_SECONDS, [])
        self.graphs()  # an unreachable server is said at start, not at the first query

    def graphs(self) -> list[str]:
        """kg's graphs on the server (re-read every GRAPHS_SECONDS, so a kg ingest meanwhile shows)."""
        with self.lock:
            read_at, graphs = self._graphs
            if time.monotonic() - read_at < GRAPHS_SECONDS:
                return graphs
        graphs = self.store.graphs(fresh=True)
        with self.lock:
            self._graphs = (time.monotonic(), graphs)
        return graphs

    def ask(self, request: dict) -> Answer:
        with self.lock:
            if self.waiting >= self.limits.queue_length:
                return busy(self.limits, f"{self.waiting} queries are waiting already")
            self.waiting += 1
        try:
            free = self.slots.acquire(timeout=self.limits.queue_seconds)
        finally:
            with self.lock:
                self.waiting -= 1
        if not free:
            return busy(self.limits, f"no query slot was free within {self.limits.queue_seconds:g} s")
        try:
            return Answer(*self._answer(request))
        finally:
            self.slots.release()

    def _answer(self, request: dict) -> tuple[int, str, bytes, int]:
        try:
            graphs = self.graphs()
            form = refusal(request["query"], set(graphs), self.limits.federation)
            if isinstance(form, tuple):
                status, message = form
                return status, TEXT, f"{message}\n".encode(), 0
            # a graph asked for as a graph: Virtuoso answers a CONSTRUCT as a table when JSON results come first
            accept = GRAPHS_ACCEPT if form in ("ConstructQuery", "DescribeQuery") else SOLUTIONS_ACCEPT
            body = urllib.parse.urlencode([("query", request["query"]), *dataset(request, graphs)]).encode()
            with self.client.send(self.spec, body, FORM, accept) as answer:
                answer.expect(*SOLUTIONS, *GRAPHS)
                dialect = dialect_of(answer.server)
                try:
                    parsed = parse_answer(answer, answer.content_type, dialect)
                    return answer_result(parsed, request, row_reader(dialect))
                except (SyntaxError, ValueError, MemoryError) as exc:
                    raise RemoteError(
                        f"{self.spec}: the server's answer is not valid {answer.content_type} ({_first_line(exc)})"
                    ) from None
        except RemoteError as exc:
            return self._failed(exc)

    def _failed(self, exc: RemoteError) -> tuple[int, str, bytes, int]:
        if exc.status is not None and 400 <= exc.status < 500:
            return 400, TEXT, f"SPARQL query error (the store's server): {_first_line(exc)}\n".encode(), 0
        if exc.limit == "time":
            why = f"it ran longer than the time limit of {self.limits.seconds:g} s (kg serve --timeout)"
        elif exc.limit == "size":
            why = f"its answer is larger than {self.limits.memory_mb:,} MiB (kg serve --query-memory)"
        else:
            return 502, TEXT, f"SPARQL query failed on the store's server: {_first_line(exc)}\n".encode(), 0
        return 503, TEXT, f"SPARQL query stopped: {why}\n".encode(), 0

    def close(self) -> None:
        """Nothing to end: requests in flight finish or hit their time limit."""
