"""Run CPU-bound work where it cannot freeze the other connections of a worker.

Under gunicorn's gevent worker every connection is a greenlet on one event
loop: a search of a second run in a greenlet would stop every other request of
that worker (a cached answer, /livez) for that second.  Searches therefore run
in a pool of real threads, and the calling greenlet waits for the result while
the loop serves the others (the interpreter hands the loop its turn every few
milliseconds).  Outside gevent (the test client, a thread worker) the work runs
in the caller's thread, as before.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

Result = TypeVar("Result")


class Runner(Protocol):
    """``run(work, *args)``: ``work(*args)``, wherever it is computed."""

    def __call__(self, work: Callable[..., Result], *args: Any) -> Result: ...


def in_caller(work: Callable[..., Result], *args: Any) -> Result:
    return work(*args)


class _ThreadPoolRunner:
    """Work handed to a pool of real threads; the calling greenlet waits for it."""

    def __init__(self, threads: int, started: bool) -> None:
        from gevent.threadpool import ThreadPool  # type: ignore[import-untyped]  # no types shipped

        self._pool = ThreadPool(threads)
        if started:
            self._pool.size = threads

    def __call__(self, work: Callable[..., Result], *args: Any) -> Result:
        result: Result = self._pool.apply(work, args)
        return result


def off_event_loop(threads: int, started: bool = False) -> Runner:
    """A runner that computes work off gevent's event loop if there is one (else in the caller).

    ``threads`` real threads at most (one per concurrent search is enough), started as work
    comes, or all at once when ``started`` (a worker's thread count then never moves).
    """
    try:
        from gevent import monkey  # type: ignore[import-untyped]  # gevent ships no types
    except ImportError:  # gevent is installed with the app; a bare checkout still runs
        return in_caller
    if not monkey.is_module_patched("socket"):
        return in_caller
    return _ThreadPoolRunner(threads, started)


def native_lock() -> Any:
    """A lock of the operating system's threads, even where gevent has patched ``threading``.

    A patched ``threading.Lock`` is a greenlet's lock: taken by two real threads of a pool, it
    stops both for ever.  Work that ``off_event_loop`` runs needs this one (web/rooms/sqlite_store.py).
    """
    return _original("Lock", threading.Lock)()


def native_local() -> Any:
    """A ``threading.local`` of the operating system's threads, even where gevent has patched it."""
    return _original("local", threading.local)()


def _original(name: str, default: Any) -> Any:
    try:
        from gevent import monkey
    except ImportError:
        return default
    return monkey.get_original("threading", name)
