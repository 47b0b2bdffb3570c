"""The cache's counters, kept in the app's Prometheus metrics (one source for /stats and /metrics).

- ``hits``: a lookup found a stored, valid result (no search);
- ``misses``: a lookup found nothing usable (absent, unreadable or invalid);
- ``searches``: searches run (a miss that waited and then found the result is no search);
- ``waited``: requests that waited for another worker's search of the same position;
- ``stored``: proven results written to the cache;
- ``unproven``: searches that ran out of budget (never stored);
- ``invalid``: stored entries ignored because they were unreadable or did not fit the schema;
- ``busy``: requests refused with 503 because the worker's searches were all in use;
- ``cache_errors``: operations on the cache backend that failed (the request went on without it).

Each count also tells the request's log line what the cache did (``cache``:
hit, miss, search or busy).
"""

from __future__ import annotations

import os
from typing import cast

from typing_extensions import TypedDict

from web.telemetry import request_log
from web.telemetry.metrics import Metrics, scope


class Counts(TypedDict):
    """The counters, in the order /stats and /metrics list them (see the module's docstring)."""

    hits: int
    misses: int
    searches: int
    waited: int
    stored: int
    unproven: int
    invalid: int
    busy: int
    cache_errors: int


class _Pid(TypedDict):
    pid: int
    """The worker's process id."""


class WorkerCounts(_Pid, Counts):
    """One worker's counters, after its process id."""


class StatsSnapshot(TypedDict):
    """The /stats document as the stats know it (the API adds the backend's name)."""

    worker: WorkerCounts
    total: Counts
    total_scope: str
    """What total counts: every worker of this server since it started."""


COUNTERS = tuple(Counts.__annotations__)
# What a request's line says the cache did; a later event of one request overrides an
# earlier one (a miss, then a search).
OUTCOMES = {"hits": "hit", "misses": "miss", "searches": "search", "busy": "busy"}


class Stats:
    """Count the cache's events into ``metrics``; ``snapshot()`` is the /stats document."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def add(self, **counts: int) -> None:
        """Count events (names from ``COUNTERS``); raises ``KeyError`` for an unknown name."""
        outcome = None
        for name, value in counts.items():
            if value:
                self.metrics.count(name, value)
                outcome = OUTCOMES.get(name, outcome)
        if outcome is not None:
            request_log.note(cache=outcome)

    def local(self) -> Counts:
        """This worker's counters."""
        return _counts(self.metrics.worker_counts())

    def snapshot(self) -> StatsSnapshot:
        """The /stats document: this worker's counters and the whole server's."""
        return {
            "worker": {"pid": os.getpid(), **self.local()},
            "total": _counts(self.metrics.server_counts()),
            "total_scope": scope(),
        }


def _counts(counts: dict[str, int]) -> Counts:
    """The counters of ``counts`` (which may hold more), in ``Counts``' order; KeyError for a missing one."""
    # The names are Counts' own keys, so the cast cannot disagree with the declaration.
    return cast(Counts, {name: counts[name] for name in COUNTERS})
