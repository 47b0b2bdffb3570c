"""gunicorn's own error answers (414, 431, a 400 before the app runs) marked ``Cache-Control: no-store``,
with the headers every answer carries (web/http/answer_headers.py).

gunicorn writes these answers itself, with fixed headers (``util.write_error``:
``Connection``, ``Content-Type``, ``Content-Length``), and no setting adds one;
a 414 is heuristically cacheable, so a cache in between could keep it.  The
worker's ``handle_error`` is wrapped (gunicorn.conf.py's ``post_worker_init``)
so that the socket it writes its answer to puts the header after the status
line.  Everything else about the answer stays gunicorn's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from web.http.answer_headers import EVERY_ANSWER, header_lines

NO_STORE = b"Cache-Control: no-store\r\n"
ADDED = NO_STORE + header_lines(EVERY_ANSWER)

HandleError = Callable[[Any, Any, Any, BaseException], None]


class NoStoreSocket:
    """A client socket whose first ``sendall`` of an HTTP answer gets ``ADDED`` after its status line."""

    def __init__(self, sock: Any) -> None:
        self._sock = sock
        self._marked = False

    def sendall(self, data: bytes) -> None:
        """Send ``data``, the header put in if it is the start of an answer not yet marked."""
        if not self._marked and data.startswith(b"HTTP/"):
            self._marked = True
            end = data.find(b"\r\n") + 2
            if end > 1:
                data = data[:end] + ADDED + data[end:]
        self._sock.sendall(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def no_store_errors(handle_error: HandleError) -> HandleError:
    """``handle_error`` (a gunicorn worker's) writing its answers through a ``NoStoreSocket``.

    >>> sent = []
    >>> class Sock:
    ...     def sendall(self, data):
    ...         sent.append(data)
    >>> def write_414(req, client, addr, exc):
    ...     client.sendall(b"HTTP/1.1 414 URI Too Long\\r\\n\\r\\n")
    >>> no_store_errors(write_414)(None, Sock(), None, ValueError())
    >>> sent[0].split(b"\\r\\n")[:3]
    [b'HTTP/1.1 414 URI Too Long', b'Cache-Control: no-store', b'X-Content-Type-Options: nosniff']
    """

    def handle(req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        handle_error(req, NoStoreSocket(client), addr, exc)

    return handle
