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

from collections.abc import Callable
from typing import TypeVar

Result = TypeVar("Result")
Runner = Callable[..., object]


def _in_caller(work: Callable[..., Result], *args) -> Result:
    return work(*args)


def off_event_loop(threads: int) -> Runner:
    """A ``run(work, *args)`` that returns ``work(*args)``, computed off gevent's loop if there is one.

    ``threads`` real threads at most (one per concurrent search is enough).
    """
    try:
        from gevent import monkey
    except ImportError:  # gevent is installed with the app; a bare checkout still runs
        return _in_caller
    if not monkey.is_module_patched("socket"):
        return _in_caller
    from gevent.threadpool import ThreadPool

    pool = ThreadPool(threads)
    return lambda work, *args: pool.apply(work, args)
