"""Slots shared fairly across clients: a slot that frees goes to the waiting client holding the fewest.

A worker runs a few searches at once (its slots); a request that finds every
slot taken waits in its client's queue.  When a slot frees, it is handed to the
waiting client that holds the fewest slots at that moment, and among those to
the one whose oldest request has waited longest (max-min fairness, fair
queueing's rule for clients of equal weight).  So:

- a client alone on the worker may hold every slot;
- a flood from one address cannot keep the others waiting behind its backlog: a
  newcomer holds no slot, so it is served before the flood's next request, as
  soon as any search ends;
- within one client the requests are served in the order they came.

A slot that frees is handed over directly (never left free while someone
waits), so no waiter can be overtaken by a request that arrives after it.  A
waiter gives up after its ``timeout`` and takes nothing.  The clients are keys
(``web/searches/rate_limit.py`` says how a request's client is known); only
clients holding or waiting for a slot are remembered.

Thread-safe, and greenlet-safe under gevent (whose monkey-patching turns the
``threading`` primitives used here into its own).
"""

from __future__ import annotations

import itertools
import threading
from collections import deque
from dataclasses import dataclass, field


@dataclass(eq=False)
class _Waiter:
    """One request waiting for a slot: ``granted`` once a slot is handed to it."""

    client: str
    turn: int  # arrival order: among equally served clients, the longest waiting goes first
    event: threading.Event = field(default_factory=threading.Event)
    granted: bool = False


class FairSlots:
    """``capacity`` slots, handed out fairly across clients (see the module's docstring)."""

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError(f"a worker needs at least one slot, not {capacity}")
        self.capacity = capacity
        self._free = capacity
        self._held: dict[str, int] = {}
        self._queues: dict[str, deque[_Waiter]] = {}
        self._turns = itertools.count()
        self._lock = threading.Lock()

    def try_acquire(self, client: str) -> bool:
        """Take a free slot for ``client`` if there is one (no one waits while a slot is free)."""
        with self._lock:
            return self._take_free(client)

    def acquire(self, client: str, timeout: float) -> bool:
        """Take a slot for ``client``, waiting at most ``timeout`` seconds for one; False if none came.

        Takes a free slot at once; else waits in ``client``'s queue until a
        released slot is handed to it.  A wait cut short by an exception (a
        timeout of the caller's, a killed greenlet) leaves no trace: the queue
        forgets it, and a slot handed to it meanwhile goes on to the next.
        """
        with self._lock:
            if self._take_free(client):
                return True
            waiter = _Waiter(client, next(self._turns))
            self._queues.setdefault(client, deque()).append(waiter)
        try:
            waiter.event.wait(timeout)
        except BaseException:
            if self._withdraw(waiter):
                self.release(client)
            raise
        return self._withdraw(waiter)

    def _take_free(self, client: str) -> bool:
        """Give ``client`` a free slot if there is one (the lock held)."""
        if self._free == 0:
            return False
        self._free -= 1
        self._held[client] = self._held.get(client, 0) + 1
        return True

    def _withdraw(self, waiter: _Waiter) -> bool:
        """Whether ``waiter`` was handed a slot (perhaps just as its wait ran out); if not, unqueue it."""
        with self._lock:
            if waiter.granted:
                return True
            queue = self._queues[waiter.client]
            queue.remove(waiter)
            if not queue:
                del self._queues[waiter.client]
            return False

    def release(self, client: str) -> None:
        """Give back a slot ``client`` holds: to the fairest waiter if any, else to the free ones."""
        with self._lock:
            held = self._held[client] - 1
            if held:
                self._held[client] = held
            else:
                del self._held[client]
            waiter = self._next_waiter()
            if waiter is None:
                self._free += 1
                return
            waiter.granted = True
            self._held[waiter.client] = self._held.get(waiter.client, 0) + 1
        waiter.event.set()

    def _next_waiter(self) -> _Waiter | None:
        """Unqueue the next request of the waiting client holding the fewest slots (then waited longest)."""
        if not self._queues:
            return None
        client = min(self._queues, key=lambda c: (self._held.get(c, 0), self._queues[c][0].turn))
        queue = self._queues[client]
        waiter = queue.popleft()
        if not queue:
            del self._queues[client]
        return waiter

    def held(self) -> dict[str, int]:
        """The slots each client holds now (clients holding none left out)."""
        with self._lock:
            return dict(self._held)

    def waiting(self) -> dict[str, int]:
        """How many requests of each client wait now (clients with none left out)."""
        with self._lock:
            return {client: len(queue) for client, queue in self._queues.items()}
