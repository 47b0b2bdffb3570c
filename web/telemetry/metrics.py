"""Prometheus metrics of the server, correct across gunicorn workers; ``GET /metrics`` shows them.

Under gunicorn every worker writes its values to memory-mapped files in
``PROMETHEUS_MULTIPROC_DIR`` (prometheus_client's multiprocess mode: a count is
a store into shared memory, no system call), and ``/metrics`` sums the files of
every worker, live or gone.  gunicorn.conf.py sets that folder up before any
worker starts (``prepare_multiprocess_dir``) and folds an exited worker's files
into one (``merge_exited_worker``), both in web/telemetry/metrics_folder.py.  Without it
(tests, ``flask run``) the values live in the process, which is then the whole server.

The page is rendered at most once a second per worker, off the event loop
(web/runtime/interval.py): readers in a loop cannot take the worker from the
other requests.  With ``METRICS_TOKEN`` set it needs ``Authorization: Bearer``
and that token (401 otherwise); unset, it is open.  Its ``Content-Type`` is
the classic text format's, ``text/plain; version=0.0.4; charset=utf-8``, which
every Prometheus version parses.

| metric | labels | what |
| --- | --- | --- |
| ``tictactoe_http_requests_total`` | method, endpoint, status | requests answered |
| ``tictactoe_http_request_duration_seconds`` | endpoint | time in the app, a histogram |
| ``tictactoe_cache_events_total`` | event | the cache's work: the counters of /stats |
| ``tictactoe_refused_total`` | reason | ``busy`` (503, no search slot) or ``rate_limited`` (429) |
| ``tictactoe_search_seconds`` | board | time of each engine search, by board size (``15x15``) |
| ``tictactoe_search_wait_seconds`` | | time each search (or trace) waited for its slot, a histogram |
| ``tictactoe_answers_total`` | source | answers by how they are known (proof, book, threats, heuristic) |
| ``tictactoe_rooms_refused_total`` | reason | rooms' requests refused (``ROOM_REFUSALS``) |
| ``tictactoe_room_streams_ended_total`` | reason | rooms' event streams ended (``STREAM_ENDS``) |

``endpoint`` is the route's pattern (``/move``), or ``other`` for a path no
route matched, so that no client can grow the label set.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest, multiprocess, values
from prometheus_client.metrics_core import Metric

from web.runtime.interval import IntervalValue
from web.runtime.offload import off_event_loop
from web.runtime.per_process import process_id
from web.telemetry.metrics_folder import ENV, reading

CACHE_EVENTS = ("hits", "misses", "searches", "waited", "stored", "unproven", "invalid", "cache_errors")
REFUSALS = ("busy", "rate_limited")
ROOM_REFUSALS = (
    "damaged",
    "store_busy",
    "rooms_per_minute",
    "address_rooms",
    "wrong_tokens",
    "address_streams",
    "server_streams",
)
# A stream ends by its client, its lifetime, a write that failed (a reader gone or too slow),
# or its room (gone, expired, damaged, the store failing).
STREAM_ENDS = ("client", "lifetime", "dropped", "room")
# Any other method is counted as "other": the label set must not grow with what clients send.
METHODS = frozenset(("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"))
# A cache hit takes about a millisecond, a search up to SEARCH_BUDGET (at most 2 s).
REQUEST_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
SEARCH_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0)
# A search waits for a slot no time at all, a search or two, or its client's whole queue (SEARCH_QUEUE_WAIT).
WAIT_BUCKETS = (0.001, 0.01, 0.1, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)

if getattr(values.ValueClass, "_multiprocess", False):
    # Under gunicorn (PROMETHEUS_MULTIPROC_DIR set before this worker imported
    # prometheus_client), every value stored asks for the process id, to notice a
    # fork: the kept id (renewed in a forked child) spares a system call per count.
    values.ValueClass = values.MultiProcessValue(process_identifier=process_id)  # type: ignore[no-untyped-call]

Labelled = TypeVar("Labelled", Counter, Histogram)
# The counter (inc) and latency histogram (observe) of requests, labelled.
RequestObservers = tuple[Callable[[], None], Callable[[float], None]]


class Metrics:
    """One app's metric objects, in a registry of its own (so that apps in one process stay apart).

    Labelled children are looked up once and kept: ``labels()`` takes the
    metric's lock, and a request should not.
    """

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        # One thread: a render waits for the one before it rather than doubling the load.
        self._run = off_event_loop(threads=1)
        self.page = IntervalValue(self._render, run=self._run)
        self.requests = Counter(
            "tictactoe_http_requests",
            "Requests answered",
            ("method", "endpoint", "status"),
            registry=self.registry,
        )
        self.latency = Histogram(
            "tictactoe_http_request_duration_seconds",
            "Time from the request's start to its response, in the app",
            ("endpoint",),
            buckets=REQUEST_BUCKETS,
            registry=self.registry,
        )
        self.cache_events = Counter(
            "tictactoe_cache_events", "The shared cache's work", ("event",), registry=self.registry
        )
        self.refused = Counter(
            "tictactoe_refused",
            "Requests refused: no search slot or over the client's rate limit",
            ("reason",),
            registry=self.registry,
        )
        self.search_time = Histogram(
            "tictactoe_search_seconds",
            "Time of each engine search",
            ("board",),
            buckets=SEARCH_BUCKETS,
            registry=self.registry,
        )
        self.search_wait = Histogram(
            "tictactoe_search_wait_seconds",
            "Time each search waited for a search slot",
            buckets=WAIT_BUCKETS,
            registry=self.registry,
        )
        self.answers = Counter(
            "tictactoe_answers", "Answers by how they are known", ("source",), registry=self.registry
        )
        self.rooms_refused = Counter(
            "tictactoe_rooms_refused", "Rooms' requests refused, by why", ("reason",), registry=self.registry
        )
        self.room_streams_ended = Counter(
            "tictactoe_room_streams_ended",
            "Rooms' event streams ended, by why",
            ("reason",),
            registry=self.registry,
        )
        self._children: dict[tuple[int, tuple[str, ...]], Any] = {}
        # Per (method, endpoint, status): the request's two observations, found in one lookup.
        self._request_observers: dict[tuple[str, str, int], RequestObservers] = {}
        for event in CACHE_EVENTS:  # present (at 0) from the start, as /stats shows them
            self._child(self.cache_events, event)
        for reason in REFUSALS:
            self._child(self.refused, reason)
        for reason in ROOM_REFUSALS:
            self._child(self.rooms_refused, reason)
        for reason in STREAM_ENDS:
            self._child(self.room_streams_ended, reason)

    def _child(self, metric: Labelled, *labels: str) -> Labelled:
        """The labelled child of ``metric``, made once (a dict read is lock-free)."""
        key = (id(metric), labels)
        child: Labelled | None = self._children.get(key)
        if child is None:
            child = self._children[key] = metric.labels(*labels)
        return child

    def observe_request(
        self, method: str, endpoint: str, status: int, seconds: float, fields: dict[str, str]
    ) -> None:
        """Count one answered request (and a 429, and the answer's source if it has one)."""
        method = method if method in METHODS else "other"
        key = (method, endpoint, status)
        observers = self._request_observers.get(key)
        if observers is None:
            counter = self._child(self.requests, method, endpoint, str(status))
            histogram = self._child(self.latency, endpoint)
            observers = self._request_observers[key] = (counter.inc, histogram.observe)
        count, time_it = observers
        count()
        time_it(seconds)
        if status == 429:
            self._child(self.refused, "rate_limited").inc()
        source = fields.get("source")
        if source is not None:
            self._child(self.answers, str(source)).inc()

    def count(self, event: str, amount: int = 1) -> None:
        """Count a cache event (``CACHE_EVENTS``) or ``busy``; raises ``KeyError`` for another."""
        if event in REFUSALS:
            self._child(self.refused, event).inc(amount)
        elif event in CACHE_EVENTS:
            self._child(self.cache_events, event).inc(amount)
        else:
            raise KeyError(event)

    def count_room(self, event: str) -> None:
        """Count a rooms' refusal (``ROOM_REFUSALS``) or a stream's end (``stream_ended_`` and one of
        ``STREAM_ENDS``); raises ``KeyError`` for another."""
        reason = event.removeprefix("stream_ended_")
        if reason != event and reason in STREAM_ENDS:
            self._child(self.room_streams_ended, reason).inc()
        elif event in ROOM_REFUSALS:
            self._child(self.rooms_refused, event).inc()
        else:
            raise KeyError(event)

    def observe_search(self, board: str, seconds: float) -> None:
        """Record one engine search of ``seconds`` on a ``board`` such as ``15x15``."""
        self._child(self.search_time, board).observe(seconds)

    def observe_wait(self, seconds: float) -> None:
        """Record that a search waited ``seconds`` for its slot."""
        self.search_wait.observe(seconds)

    def worker_counts(self) -> dict[str, int]:
        """This process's cache events and ``busy``, by name (the counters of /stats)."""
        return _counts([*self.cache_events.collect(), *self.refused.collect()])

    def exposition(self) -> bytes:
        """Every metric in Prometheus' text format, summed over all workers when under gunicorn.

        At most a second old: rendered at most once a second, off the event loop.
        """
        return self.page.get()

    def server_counts(self) -> dict[str, int]:
        """The /stats counters summed over every worker of this server (read now, off the event loop)."""
        return self._run(self._read_server_counts)

    def _render(self) -> bytes:
        with _reading_every_worker():
            return generate_latest(self._server_registry())

    def _read_server_counts(self) -> dict[str, int]:
        with _reading_every_worker():
            return _counts(self._server_registry().collect())

    def _server_registry(self) -> CollectorRegistry:
        if not os.environ.get(ENV):
            return self.registry
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return registry


def _reading_every_worker() -> AbstractContextManager[None]:
    """The metrics folder's readers' lock under gunicorn (no merge meanwhile); nothing without it."""
    folder = os.environ.get(ENV)
    return reading(folder) if folder else nullcontext()


def scope() -> str:
    """What ``Metrics.server_counts`` covers, in words (the ``total_scope`` of /stats)."""
    if os.environ.get(ENV):
        return "every worker of this server since it started"
    return "this process (no PROMETHEUS_MULTIPROC_DIR)"


def _counts(families: Iterable[Metric]) -> dict[str, int]:
    """The cache events and refusals of some metric families, as {name: count}."""
    counts = dict.fromkeys((*CACHE_EVENTS, "busy"), 0)
    for family in families:
        if family.name not in ("tictactoe_cache_events", "tictactoe_refused"):
            continue
        for sample in family.samples:
            name = sample.labels.get("event") or sample.labels.get("reason")
            if sample.name.endswith("_total") and name in counts:
                counts[name] += int(sample.value)
    return counts
