"""The query processes of ``kg serve``: admission, time limit and memory ceiling.

Each query runs in a worker process with the store opened read-only (through a snapshot,
kg/stores/snapshots.py), so a query can be stopped by ending its process. ``--workers``
processes take queries in order of arrival. A reserve lane runs one query at a time for short
queries: when every worker is busy, the newest waiting query that arrived after the lane's
last query runs there for at most ``quick_seconds``; one that has not finished by then is
stopped and goes back to the queue to wait for a worker (it never uses the lane again). A burst
of heavy queries thus costs the lane at most two turns, and the lane has ready processes to
replace the one it stops (``RESERVE_READY``, refilled in the background). A cheap query is therefore answered
while heavy ones run, and a heavy query costs at most that much extra work. A query waits at
most ``queue_seconds`` and at most ``queue_length`` queries wait; beyond that the answer is
503 with ``Retry-After``. While a query runs its process's resident memory is watched (Linux:
``/proc``); past ``memory_mb`` the process is ended and the client gets a 503 saying so.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from .snapshots import open_snapshot
from .sparql_results import answer_query

STARTUP_SECONDS = 120
RESERVE_READY = 3
WATCH_SECONDS = 0.05
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
TEXT = "text/plain; charset=utf-8"


@dataclass(frozen=True)
class Limits:
    seconds: float = 30.0
    rows: int = 100_000
    memory_mb: int = 1024
    quick_seconds: float = 0.5
    queue_seconds: float = 30.0
    queue_length: int = 64
    federation: bool = False
    idle_seconds: float = 15.0  # an HTTP connection's idle time before it is closed (not the pool's)


@dataclass(frozen=True)
class Answer:
    status: int
    content_type: str
    body: bytes
    rows_left_out: int = 0
    headers: dict = field(default_factory=dict)


def _work(location: str, connection, federation: bool) -> None:
    """A worker process: one request at a time from the pipe. Ctrl-C is the server's to handle (it
    ends the workers), so the worker ignores it: no traceback from a worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    store, _snapshot = open_snapshot(Path(location))
    connection.send("ready")
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return  # the server has gone: so does its worker, quietly
        try:
            connection.send(answer_query(store, request, federation))
        except Exception as exc:  # noqa: BLE001 - any failure is the client's answer, the worker goes on
            connection.send((500, TEXT, f"SPARQL query failed: {exc}\n".encode(), 0))


def busy(limits: Limits, why: str) -> Answer:
    """503 with Retry-After: the query was not run."""
    wait = max(1, math.ceil(min(limits.seconds, 10)))
    return Answer(
        503,
        TEXT,
        f"SPARQL query not run: {why}; try again in {wait} s\n".encode(),
        headers={"Retry-After": str(wait)},
    )


class Worker:
    def __init__(self, process, pipe):
        self.process, self.pipe = process, pipe
        self._ended = False
        self._lock = threading.Lock()

    def resident_bytes(self) -> int:
        try:
            with open(f"/proc/{self.process.pid}/statm", "rb") as statm:
                return int(statm.read().split()[1]) * PAGE_BYTES
        except (OSError, ValueError, IndexError):
            return 0

    def end(self) -> None:
        """Kill the process and close its pipe, once: the thread waiting for its answer and the pool's
        close may both end it (a second close of the pipe could close another thread's descriptor)."""
        with self._lock:
            if self._ended:
                return
            self._ended = True
        self.process.kill()
        self.process.join()
        self.pipe.close()


@dataclass(eq=False)
class Ticket:
    """A request waiting for a process, numbered in order of arrival."""

    order: int
    deadline: float


class Pool:
    """``count`` workers and the reserve lane's ready processes."""

    def __init__(self, location: Path, count: int, limits: Limits, log=None):
        self.location, self.limits = str(location), limits
        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        self.context = multiprocessing.get_context("spawn")
        self.cond = threading.Condition()
        self.idle: list[Worker] = []
        self.reserve: list[Worker] = []
        self.lane_busy = False
        self.lane_last = -1  # the order of the last ticket the lane took
        self.waiting: list[Ticket] = []
        self.running: set[Worker] = set()
        self.closed = False
        self._orders = itertools.count()
        self.idle = [self._start() for _ in range(count)]
        self.reserve = [self._start() for _ in range(RESERVE_READY)]

    # ------------------------------------------------------------------ processes

    def _start(self) -> Worker:
        ours, theirs = self.context.Pipe()
        process = self.context.Process(target=_work, args=(self.location, theirs, self.limits.federation), daemon=True)
        # SIGINT blocked while the child starts (the mask is inherited): a Ctrl-C then cannot hit a child
        # that has not yet set it aside.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        theirs.close()
        # The time limit counts from here: wait until the worker has started and opened the store.
        try:
            started = ours.poll(STARTUP_SECONDS) and ours.recv() == "ready"
        except (EOFError, OSError):
            started = False  # it ended while starting (e.g. the store could not be opened)
        if not started:
            process.kill()
            process.join()
            raise OSError(f"a query process did not start within {STARTUP_SECONDS} s or ended while starting")
        return Worker(process, ours)

    def _replace(self, reserve: bool) -> None:
        """Start a process in the background to take the place of one ended (none once the pool is closed)."""

        def start() -> None:
            try:
                worker = self._start()
            except (OSError, EOFError) as exc:
                if not self.closed:
                    self.log(f"kg serve: a query process could not be started: {exc}")
                return
            with self.cond:
                if self.closed:
                    worker.end()
                    return
                (self.reserve if reserve else self.idle).append(worker)
                self.cond.notify_all()

        if not self.closed:
            threading.Thread(target=start, daemon=True).start()

    # ------------------------------------------------------------------ admission

    def _take(self, ticket: Ticket) -> tuple[Worker, bool] | None:
        """(process, on the reserve) for the ticket, once it is its turn; ``None`` past its deadline."""
        with self.cond:
            while not self.closed:
                if self.idle and self.waiting[0] is ticket:
                    return self._taken(ticket, self.idle.pop(), False)
                if not self.idle and self.reserve and not self.lane_busy and self._lane_choice() is ticket:
                    self.lane_busy, self.lane_last = True, ticket.order
                    return self._taken(ticket, self.reserve.pop(), True)
                left = ticket.deadline - time.monotonic()
                if left <= 0:
                    break
                self.cond.wait(left)
            self.waiting.remove(ticket)
            self.cond.notify_all()
            return None

    def _lane_choice(self) -> Ticket | None:
        """The newest waiting ticket that arrived after the lane's last one (so none has two turns)."""
        chosen = [t for t in self.waiting if t.order > self.lane_last]
        return chosen[-1] if chosen else None

    def _taken(self, ticket: Ticket, worker: Worker, reserve: bool) -> tuple[Worker, bool]:
        self.waiting.remove(ticket)
        self.running.add(worker)
        self.cond.notify_all()
        return worker, reserve

    def _enqueue(self, ticket: Ticket) -> None:
        with self.cond:
            self.waiting.append(ticket)
            self.waiting.sort(key=lambda t: t.order)

    def _give_back(self, worker: Worker, reserve: bool) -> None:
        with self.cond:
            self.running.discard(worker)
            self.lane_busy = self.lane_busy and not reserve
            if self.closed:
                worker.end()
            else:
                (self.reserve if reserve else self.idle).append(worker)
            self.cond.notify_all()

    # ------------------------------------------------------------------ running

    def _await(self, worker: Worker, seconds: float):
        """The worker's answer tuple, or ``"time"`` / ``"memory"`` / ``"ended"``."""
        deadline = time.monotonic() + seconds
        ceiling = self.limits.memory_mb << 20
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return "time"
            if worker.pipe.poll(min(WATCH_SECONDS, left)):
                try:
                    return worker.pipe.recv()
                except (EOFError, OSError):
                    return "ended"
            if worker.resident_bytes() > ceiling:
                return "memory"
            if not worker.process.is_alive():
                return "ended"

    def ask(self, request: dict) -> Answer:
        with self.cond:
            if len(self.waiting) >= self.limits.queue_length:
                return busy(self.limits, f"{len(self.waiting)} queries are waiting already")
            ticket = Ticket(next(self._orders), time.monotonic() + self.limits.queue_seconds)
            self.waiting.append(ticket)
        while True:
            taken = self._take(ticket)
            if taken is None:
                return busy(self.limits, f"no query process was free within {self.limits.queue_seconds:g} s")
            worker, reserve = taken
            seconds = min(self.limits.quick_seconds, self.limits.seconds) if reserve else self.limits.seconds
            try:
                worker.pipe.send(request)
                outcome = self._await(worker, seconds)
            except (OSError, EOFError):
                outcome = "ended"
            if isinstance(outcome, tuple):
                self._give_back(worker, reserve)
                status, content_type, body, left_out = outcome
                return Answer(status, content_type, body, left_out)
            with self.cond:
                self.running.discard(worker)
                self.lane_busy = self.lane_busy and not reserve
                self.cond.notify_all()
            worker.end()
            self._replace(reserve)
            if reserve and outcome == "time" and seconds < self.limits.seconds:
                self._enqueue(ticket)
                continue
            return self._stopped(outcome)

    def _stopped(self, outcome: str) -> Answer:
        if outcome == "time":
            why = f"it ran longer than the time limit of {self.limits.seconds:g} s (kg serve --timeout)"
        elif outcome == "memory":
            why = f"it needed more memory than the limit of {self.limits.memory_mb:,} MiB (kg serve --query-memory)"
        else:
            why = "its query process ended unexpectedly"
        return Answer(503, TEXT, f"SPARQL query stopped: {why}\n".encode())

    def close(self) -> None:
        with self.cond:
            self.closed = True
            workers = [*self.idle, *self.running, *self.reserve]
            self.idle, self.reserve = [], []
            self.cond.notify_all()
        for worker in workers:
            worker.end()
