"""A client of server-sent events for the tests: one GET on a connection of its own, read event by event.

Every read waits at most the connection's timeout (the test then fails with
``TimeoutError``): it blocks until the server writes, never sleeps.
"""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit


@dataclass
class Event:
    """One block of the stream: an event (``id``, ``type``, ``data`` parsed from JSON), or fields alone.

    ``comments`` holds the comment lines the block had; ``retry`` its reconnection delay.
    """

    id: int | None = None
    type: str | None = None
    data: Any = None
    retry: int | None = None
    comments: list[str] = field(default_factory=list)


class EventStream:
    """``GET path`` of ``url`` as a stream of events (a context manager that closes it).

    ``connection``: an open ``http.client.HTTPConnection`` to use (one kept on a known worker),
    else a new one, from ``source`` (a loopback address) when given.
    """

    def __init__(
        self,
        url: str,
        path: str,
        headers: dict[str, str] | None = None,
        connection: http.client.HTTPConnection | None = None,
        source: str | None = None,
        timeout: float = 10.0,
    ) -> None:
        address = urlsplit(url)
        self.connection = connection or http.client.HTTPConnection(
            address.hostname, address.port, timeout=timeout, source_address=(source, 0) if source else None
        )
        self.connection.request("GET", path, headers={"Accept": "text/event-stream", **(headers or {})})
        self.response = self.connection.getresponse()

    @property
    def status(self) -> int:
        return self.response.status

    def next(self) -> Event:
        """The next block (an event, a comment, a retry); ``ConnectionError`` when the stream ended."""
        block = Event()
        while True:
            line = self.response.readline()
            if not line:
                raise ConnectionError("the stream ended")
            text = line.decode().rstrip("\n")
            if text == "":
                if block.id is None and block.type is None and block.retry is None and not block.comments:
                    continue
                return block
            name, _, value = text.partition(":")
            value = value.removeprefix(" ")
            if name == "":
                block.comments.append(value)
            elif name == "id":
                block.id = int(value)
            elif name == "event":
                block.type = value
            elif name == "data":
                block.data = json.loads(value)
            elif name == "retry":
                block.retry = int(value)

    def next_event(self) -> Event:
        """The next event, past any heartbeat, comment or retry block."""
        while True:
            block = self.next()
            if block.type is not None and block.type != "heartbeat":
                return block

    def events(self, count: int) -> list[Event]:
        """The next ``count`` events."""
        return [self.next_event() for _ in range(count)]

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
