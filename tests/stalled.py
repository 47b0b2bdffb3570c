"""Slow clients on raw sockets: connections that start a request and go quiet.

Shared by tests/test_slow_clients.py and bench/slow_clients.py.
"""

from __future__ import annotations

import json
import select
import socket
import time
import urllib.error
import urllib.request

# The first lines of a POST /move, without the blank line that ends the head:
# the server has read a request line and headers and waits for the rest.
STALLED_HEAD = b"POST /move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"


class StalledConnections:
    """``count`` connections to 127.0.0.1:``port``, each sending ``head`` and nothing more.

    A context manager; ``open_count()`` says how many the server has not closed yet.
    """

    def __init__(self, port: int, count: int, head: bytes = STALLED_HEAD) -> None:
        self.port, self.count, self.head = port, count, head
        self.sockets: list[socket.socket] = []
        self.closed: set[int] = set()
        self.received: dict[int, bytes] = {}

    def __enter__(self) -> StalledConnections:
        for _ in range(self.count):
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            sock.sendall(self.head)
            self.sockets.append(sock)
        return self

    def open_count(self) -> int:
        """How many connections the server still holds open (a close reads as EOF or reset).

        What the server sent before closing (an error answer) is kept in ``received``.
        """
        for index, sock in enumerate(self.sockets):
            if index in self.closed:
                continue
            while select.select([sock], [], [], 0)[0]:
                try:
                    data = sock.recv(65536)
                except OSError:
                    data = b""  # reset: closed
                if not data:
                    self.closed.add(index)
                    break
                self.received[index] = self.received.get(index, b"") + data
        return len(self.sockets) - len(self.closed)

    def __exit__(self, *exc) -> None:
        for sock in self.sockets:
            sock.close()


def timed_request(url: str, body: dict | None = None, timeout: float = 30.0) -> tuple[float, int, dict]:
    """``(seconds, status, JSON body)`` of one GET (or POST of ``body``) on a new connection."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    start = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, payload = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, payload = error.code, error.read()
    return time.monotonic() - start, status, json.loads(payload)
