"""A value that is costly to compute, computed at most once an interval whatever the number of callers.

``GET /metrics`` renders every worker's counters (tens of milliseconds of pure
Python once every board size has been searched).  Computed per request, a few
readers in a loop would take a worker's event loop from everybody else; so the
page is computed at most once an interval (one second), by one caller while the
others wait for it, and off the event loop (web/operations/offload.py's runner).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

from web.operations.offload import Runner

Value = TypeVar("Value")


class ThrottledValue(Generic[Value]):
    """``get()``: what ``compute()`` gave at most ``interval`` seconds ago, computed now if older.

    Concurrent callers of a stale value wait for one computation and share it
    (the lock is gevent's under gunicorn's gevent worker: a waiting greenlet
    yields).  ``computations`` counts the calls of ``compute`` (for tests and
    for the metrics themselves).  An exception of ``compute`` reaches the
    caller, and the next caller computes again.
    """

    def __init__(
        self,
        compute: Callable[[], Value],
        run: Runner,
        interval: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.compute = compute
        self.run = run
        self.interval = interval
        self.clock = clock
        self.computations = 0
        self.callers = 0  # callers inside get() now, waiting or computing
        self._callers_lock = threading.Lock()
        self._lock = threading.Lock()
        self._value: Value | None = None
        self._computed_at = float("-inf")

    def get(self) -> Value:
        """The value, at most ``interval`` seconds old."""
        self._count_callers(1)
        try:
            with self._lock:
                if self._value is None or self.clock() - self._computed_at >= self.interval:
                    self.computations += 1
                    self._value = self.run(self.compute)
                    # From the end of the computation: a slow one is not redone at once.
                    self._computed_at = self.clock()
                return self._value
        finally:
            self._count_callers(-1)

    def _count_callers(self, change: int) -> None:
        with self._callers_lock:
            self.callers += change
