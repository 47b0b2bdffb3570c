"""What the rooms' event streams may hold of a worker: a share of its connections, a few per address.

A stream holds its connection for as long as a room is open in a browser,
while a gevent worker serves at most ``GUNICORN_CONNECTIONS`` connections at
once and stops accepting when they are all taken.  Streams alone could take
them all, and then nobody else gets an answer, ``/livez`` included.  So each
worker admits at most ``ROOM_STREAMS_PER_WORKER`` streams (60% of its
connections by default: the rest stays for every other request), and at
most ``ROOM_STREAMS_PER_ADDRESS`` from one address (an IPv6 address by its
/64), so that a few addresses cannot take even that share.  Past either, a
new stream is refused at once, in words, with ``Retry-After`` (the page asks
again by itself); the streams already open are never cut for a newcomer.

Every stream also ends after its lifetime (web/rooms/stream.py), so none is
held for ever, and a reader that stops reading is dropped once its socket's
small send buffer is full for a write's timeout.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable

# Seconds a refused stream is told to wait: about what streams ending by their lifetime free.
RETRY_AFTER_SECONDS = 5


class StreamRefused(Exception):
    """A new stream over the budget: ``status`` (429 for the address, 503 for the worker), in words."""

    def __init__(self, status: int, message: str, reason: str) -> None:
        super().__init__(message)
        self.status = status
        self.reason = reason
        self.retry_after = RETRY_AFTER_SECONDS


class StreamBudget:
    """This worker's open streams, counted by address: at most ``per_address`` each, ``per_worker`` in all."""

    def __init__(self, per_address: int, per_worker: int) -> None:
        self.per_address = per_address
        self.per_worker = per_worker
        self.open: Counter[str] = Counter()
        self.total = 0
        self._lock = threading.Lock()

    def admit(self, client: str) -> Callable[[], None]:
        """Count a stream of ``client``; the function that gives its place back (once, however often
        it is called).  ``StreamRefused`` when the address or the worker holds all it may."""
        with self._lock:
            if self.open[client] >= self.per_address:
                raise StreamRefused(
                    429,
                    f"too many live games are open from your network (address): it may watch"
                    f" {self.per_address} at once here; close some tabs, or try again in"
                    f" {RETRY_AFTER_SECONDS} s",
                    "address_streams",
                )
            if self.total >= self.per_worker:
                raise StreamRefused(
                    503,
                    "the server is following as many live games as it may right now: the game goes on,"
                    f" and this page connects again in {RETRY_AFTER_SECONDS} s",
                    "server_streams",
                )
            self.open[client] += 1
            self.total += 1
        released = False

        def release() -> None:
            nonlocal released
            with self._lock:
                if released:
                    return
                released = True
                self.total -= 1
                self.open[client] -= 1
                if not self.open[client]:
                    del self.open[client]

        return release
