"""Slow clients on raw sockets: connections that start a request and go quiet.

Shared by tests/test_slow_clients.py and bench/slow_clients.py.
"""

from __future__ import annotations

import http.client
import json
import select
import socket
import time
from urllib.parse import urlsplit

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


def timed_request(
    url: str, body: dict | None = None, timeout: float = 30.0, source: str | None = None
) -> tuple[float, int, dict]:
    """``(seconds, status, JSON body)`` of one GET (or POST of ``body``) on a new connection.

    ``source``: the address the connection comes from (another loopback address
    than 127.0.0.1 is another client to the server).
    """
    address = urlsplit(url)
    connection = http.client.HTTPConnection(
        address.hostname, address.port, timeout=timeout, source_address=(source, 0) if source else None
    )
    data = None if body is None else json.dumps(body).encode()
    start = time.monotonic()
    try:
        connection.request(
            "GET" if body is None else "POST",
            address.path,
            body=data,
            headers={"Content-Type": "application/json"},
        )
        response = connection.getresponse()
        status, payload = response.status, response.read()
    finally:
        connection.close()
    return time.monotonic() - start, status, json.loads(payload)


def trickle(port: int, sent_at_once: bytes, trickled: bytes, pace: float) -> tuple[bytes, float, int]:
    """Send ``sent_at_once``, then ``trickled`` one byte every ``pace`` s until the server answers.

    Between two bytes the client waits on the socket, so an answer (or a
    close) is seen as it comes.  Returns what the server sent before it closed
    the connection, the seconds from the end of ``sent_at_once`` to that close,
    and how many bytes of ``trickled`` went out.
    """
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(sent_at_once)
        start, sent = time.monotonic(), 0
        while sent < len(trickled) and not select.select([sock], [], [], pace)[0]:
            try:
                sock.sendall(trickled[sent : sent + 1])
            except OSError:  # closed by the server between the wait and the send
                break
            sent += 1
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass  # closed with our bytes unread: a close all the same
        return answer, time.monotonic() - start, sent
