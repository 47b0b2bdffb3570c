"""A value that is costly to get, got at most once an interval whatever the number of callers.

Two parts of the server ask something costly that many callers may want at
once: ``GET /metrics`` renders every worker's counters (tens of milliseconds of
pure Python once every board size has been searched), and ``/healthz`` makes a
round trip to the cache backend, which may hang.  Asked per request, a few
callers in a loop would take a worker from everybody else.  So each is got at
most once an interval, by one caller while the others wait for it (a bounded
wait, if asked) and share it, and a value may also go stale before its
interval is over (the health check's, when the cache has failed since).

The locks are gevent's under gunicorn's gevent worker: a waiting greenlet yields.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

from web.runtime.offload import Runner, in_caller

Value = TypeVar("Value")


def _always(value: object) -> bool:
    return True


class IntervalValue(Generic[Value]):
    """``get()``: what ``compute()`` gave less than ``interval`` seconds ago, got now if older.

    ``run`` says where ``compute`` runs (``web.runtime.offload``'s runner: off the
    event loop); ``still_good(value)`` may call a value stale before its interval
    is over.  Concurrent callers of a stale value wait for one computation and
    share it, at most ``wait`` seconds (None: as long as it takes), then get
    ``TimeoutError``.  An exception of ``compute`` reaches its caller, and the
    next caller computes again.  ``computations`` counts the calls of
    ``compute``, ``callers`` the callers inside ``get`` now (for tests and for
    the metrics themselves).
    """

    def __init__(
        self,
        compute: Callable[[], Value],
        interval: float = 1.0,
        run: Runner = in_caller,
        wait: float | None = None,
        still_good: Callable[[Value], bool] = _always,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.compute = compute
        self.interval = interval
        self.run = run
        self.wait = wait
        self.still_good = still_good
        self.clock = clock
        self.computations = 0
        self.callers = 0
        self._callers_lock = threading.Lock()
        self._lock = threading.Lock()
        self._got: tuple[Value, float] | None = None  # the value, and when it was got

    def get(self) -> Value:
        """The value, less than ``interval`` seconds old; ``TimeoutError`` past ``wait``."""
        self._count_callers(1)
        try:
            recent = self.recent()
            if recent is not None:
                return recent
            if not self._lock.acquire(timeout=-1 if self.wait is None else self.wait):
                raise TimeoutError(f"the value was not got within {self.wait:g} s")
            try:
                recent = self.recent()  # the one got while this caller waited
                if recent is None:
                    self.computations += 1
                    recent = self.run(self.compute)
                    # From the end of the computation: a slow one is not redone at once.
                    self._got = (recent, self.clock())
                return recent
            finally:
                self._lock.release()
        finally:
            self._count_callers(-1)

    def recent(self) -> Value | None:
        """The value if it is fresh and still good, else None (never computes)."""
        got = self._got
        if got is None:
            return None
        value, at = got
        return value if self.clock() - at < self.interval and self.still_good(value) else None

    def _count_callers(self, change: int) -> None:
        with self._callers_lock:
            self.callers += change
