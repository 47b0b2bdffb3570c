"""A deadline for a request's body: it must arrive whole in a set time, however it trickles.

gunicorn's gevent worker bounds the request's head as a whole (a ``gevent.Timeout``
of ``keepalive`` seconds around its parsing), but the body is read later, by the
app, through the request's reader, one ``recv`` after another; a timeout on the
socket bounds each ``recv`` alone, so a client sending one byte every few seconds
would hold its connection as long as its ``Content-Length`` lasts.
gunicorn.conf.py's ``pre_request`` hook puts the request's reader behind a
:class:`DeadlineReader`, which gives every read only the time left until the
deadline.  Past it a read raises ``TimeoutError``, as a socket timeout does, so
the app answers 408 (``web/http/errors.py``) and gunicorn closes the connection (its
body reader failed, so where the next request would start is unknown).
"""

from __future__ import annotations

import time
from typing import Any, Protocol

TIMED_OUT = "the request body did not arrive within its deadline"


class Reader(Protocol):
    """What gunicorn's body readers (length, chunked, to the end) offer its ``Body``."""

    def read(self, size: int) -> bytes: ...


class DeadlineReader:
    """``reader``, whose reads must all be done by ``deadline`` (a ``time.monotonic()`` value).

    ``length``: the body's length when its header gave it (gunicorn's
    ``LengthReader``), else None.  Once that many bytes have been read, a read
    returns ``b""`` at once: the body is whole, nothing is left to wait for, and
    gunicorn reads once more after every request to find its end.
    """

    def __init__(self, reader: Reader, deadline: float, length: int | None = None) -> None:
        self.reader = reader
        self.deadline = deadline
        self.left_to_read = length

    def read(self, size: int) -> bytes:
        """Up to ``size`` bytes of the body; ``TimeoutError`` once the deadline has passed.

        Only under gevent, whose timer can interrupt a read that waits on the socket.
        """
        if self.left_to_read == 0:
            return b""
        from gevent import Timeout  # type: ignore[import-untyped]  # gevent ships no types

        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(TIMED_OUT)
        # A read may call recv many times (a body of known length is read in one call):
        # the timer bounds them together, where a socket timeout would bound each one.
        with Timeout(left, TimeoutError(TIMED_OUT)):
            data = self.reader.read(size)
        if self.left_to_read is not None:
            self.left_to_read -= len(data)
        return data


def bound_body(request: Any, seconds: float) -> None:
    """Make gunicorn's ``request`` body arrive whole within ``seconds`` from now, or fail its reads.

    Does nothing outside a gevent worker (no timer could interrupt a read
    there) or for a request whose body has no reader (HTTP/2).
    """
    try:
        from gevent import monkey
    except ImportError:  # gevent is installed with the app; a bare checkout still runs
        return
    body: Any = getattr(request, "body", None)
    reader = getattr(body, "reader", None)
    if monkey.is_module_patched("socket") and reader is not None:
        from gunicorn.http.body import LengthReader  # type: ignore[import-untyped]  # gunicorn ships no types

        length = reader.length if isinstance(reader, LengthReader) else None
        body.reader = DeadlineReader(reader, time.monotonic() + seconds, length)
