"""A cap on the connections one client address holds open in a worker.

A gevent worker serves at most ``worker_connections`` connections at once;
when they are all taken it stops accepting, and new clients wait in the
kernel's backlog until one closes.  Deadlines close every slow connection in
time, but a client that opens connections as fast as they close could keep
them all.  So each worker counts its open connections by the peer's address (an IPv6
address by its /64, web/http/client_key.py) and
answers a connection over the cap at once with a 429 in words, then closes it:
one address can hold only a share of the worker, and the rest stays free for
everyone else.

The peer is the client only when nothing stands in front of the app
(``TRUSTED_PROXIES=0``); behind a router every connection comes from the
router's few addresses, so gunicorn.conf.py sets no cap there.
"""

from __future__ import annotations

import json
import socket
from collections import Counter
from collections.abc import Callable
from typing import Any

from web.http.answer_headers import EVERY_ANSWER, header_lines
from web.http.client_key import client_key
from web.http.error_body import error_body

# Connections one address may hold in one worker: a quarter of gunicorn's 1000, and
# four times the 60 or so kept-alive connections of a class of 30 behind one address.
DEFAULT_CAP = 250
RETRY_AFTER_SECONDS = 5
# How long a refused client may take to read the refusal and close, and what it may send meanwhile.
LINGER_SECONDS = 1.0
MAX_UNREAD_BYTES = 64 * 1024
# The refusal is written before the request is read, so it holds what any request gets.
_REFUSAL_BODY = json.dumps(
    error_body(
        "too many connections are open from your network (address): close some,"
        f" or try again in {RETRY_AFTER_SECONDS} seconds",
        RETRY_AFTER_SECONDS,
    )
).encode()
REFUSAL = (
    b"HTTP/1.1 429 Too Many Requests\r\n"
    b"Content-Type: application/json\r\n"
    + f"Content-Length: {len(_REFUSAL_BODY)}\r\nRetry-After: {RETRY_AFTER_SECONDS}\r\n".encode()
    + header_lines(EVERY_ANSWER)
    + b"Connection: close\r\n\r\n"
    + _REFUSAL_BODY
)

# gunicorn's worker.handle(listener, client, addr): serves one connection until it closes.
Handle = Callable[[Any, socket.socket, Any], None]


def cap_from_settings(value: str, trusted_proxies: int) -> int | None:
    """The cap ``GUNICORN_CONNECTIONS_PER_ADDRESS`` asks for: a number from 1 up, or None for ``off``.

    None too behind trusted proxies, where the peer is a proxy and not a client.
    Raises ``ValueError`` naming the variable for anything else.
    """
    if value.strip().lower() == "off" or trusted_proxies > 0:
        return None
    try:
        cap = int(value)
    except ValueError:
        cap = 0
    if cap < 1:
        raise ValueError(
            f"GUNICORN_CONNECTIONS_PER_ADDRESS must be a whole number from 1, or off, not {value!r}"
        )
    return cap


class ConnectionsPerAddress:
    """One worker's open connections, counted by peer address, at most ``cap`` each.

    Greenlets of one worker share one thread and switch only when they wait,
    so the count needs no lock.
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open: Counter[str] = Counter()

    def guard(self, handle: Handle) -> Handle:
        """``handle``, run only for a connection whose address holds fewer than ``cap`` others.

        Connections without an IP address (a Unix socket) are not counted; an IPv6
        address counts with the others of its /64.
        """

        def guarded(listener: Any, client: socket.socket, addr: Any) -> None:
            address = client_key(addr[0]) if isinstance(addr, tuple) and addr else None
            if address is None:
                handle(listener, client, addr)
                return
            if self.open[address] >= self.cap:
                refuse(client)
                return
            self.open[address] += 1
            try:
                handle(listener, client, addr)
            finally:
                self.open[address] -= 1
                if not self.open[address]:
                    del self.open[address]

        return guarded


def refuse(client: socket.socket) -> None:
    """Answer ``client`` the 429 and close it, waiting on it for ``LINGER_SECONDS`` at most.

    The request is read (and dropped) until the client closes: closing over
    bytes not read resets the connection, and a reset can discard the answer
    before the client reads it.
    """
    try:
        client.settimeout(LINGER_SECONDS)
        client.sendall(REFUSAL)
        client.shutdown(socket.SHUT_WR)
        unread = MAX_UNREAD_BYTES
        while unread > 0 and (data := client.recv(unread)):
            unread -= len(data)
    except OSError:
        pass  # too slow, or gone: either way it is closed now
    finally:
        client.close()
