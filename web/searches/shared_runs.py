"""Runs shared by key within a worker: a result asked for by many requests at once is computed once.

The lab's traced searches are the same for the same key (engine, rules and
position): a class opening the same experiment at once needs one search, not
thirty.  The first request for a key runs it; the requests that arrive while it
runs wait for it and share its result; the last results are kept (a bounded
LRU map) for the requests that come after.  A run that fails (its client was
refused a slot, say) is not shared: each waiter then tries again itself, so its
own client's allowance and turn decide.  Across workers nothing is shared: each
worker runs a key at most once at a time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from web.runtime.lru import BoundedLRU
from web.searches.slots import Busy

Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")


class _Run(Generic[Value]):
    """One run under way: ``done`` once it ended, with its ``value`` if it succeeded."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: Value | None = None
        self.succeeded = False


class SharedRuns(Generic[Key, Value]):
    """Results by key, kept in ``kept``; a key asked for while it runs waits for that run."""

    def __init__(self, kept: BoundedLRU[Key, Value]) -> None:
        self.kept = kept
        self._running: dict[Key, _Run[Value]] = {}
        self._waiting = 0
        self._lock = threading.Lock()

    def get(self, key: Key, run: Callable[[], Value], wait: float) -> Value:
        """The result for ``key``: kept, or the one under way's, or ``run()`` now (and kept).

        Waits at most ``wait`` seconds for a run under way, then raises ``Busy``;
        whatever ``run`` raises reaches its own caller only.
        """
        while True:
            with self._lock:
                found = self.kept.get(key)
                if found is not None:
                    return found
                under_way = self._running.get(key)
                if under_way is None:
                    mine = self._running[key] = _Run[Value]()
                else:
                    self._waiting += 1
            if under_way is None:
                return self._run(key, run, mine)
            try:
                if not under_way.done.wait(wait):
                    raise Busy(wait)
            finally:
                with self._lock:
                    self._waiting -= 1
            if under_way.succeeded:
                return under_way.value  # type: ignore[return-value]  # set with succeeded

    def waiting(self) -> int:
        """How many requests wait for a run under way now."""
        with self._lock:
            return self._waiting

    def _run(self, key: Key, run: Callable[[], Value], mine: _Run[Value]) -> Value:
        """Run ``run`` as the one run of ``key``, keep its value and hand it to the waiters."""
        try:
            value = run()
            self.kept.put(key, value)
            mine.value, mine.succeeded = value, True
            return value
        finally:
            with self._lock:
                del self._running[key]
            mine.done.set()
