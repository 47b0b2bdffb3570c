"""A TCP forwarder in front of a server, for a phone whose network changes under it (Wi-Fi to mobile
data): the connections already open go silent, while new connections go through.

As a phone sees it: what the server sends on an old connection never arrives, so a stream (on which
the phone sends nothing) just goes quiet; a request the phone sends on an old idle connection meets a
reset (the server knows nothing of its new address), and the browser sends it again on a new one.

Threads copy bytes both ways on 127.0.0.1; nothing sleeps: each copy blocks in ``recv``.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading

from tests.servers import free_port


class Forwarder:
    """127.0.0.1:``port`` forwarded to 127.0.0.1:``target``; a context manager that closes everything."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._pairs: list[tuple[socket.socket, socket.socket, threading.Event]] = []
        self._lock = threading.Lock()

    def __enter__(self) -> Forwarder:
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def silence(self) -> int:
        """Stop every connection open now from carrying anything (both ways, without closing it);
        connections opened later go through.  Returns how many were silenced."""
        with self._lock:
            for _, _, silent in self._pairs:
                silent.set()
            return len(self._pairs)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:  # closed
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            silent = threading.Event()
            with self._lock:
                self._pairs.append((client, server, silent))
            for source, sink, upstream in ((client, server, True), (server, client, False)):
                threading.Thread(
                    target=self._copy, args=(source, sink, silent, upstream), daemon=True
                ).start()

    @staticmethod
    def _copy(source: socket.socket, sink: socket.socket, silent: threading.Event, upstream: bool) -> None:
        """Copy ``source`` to ``sink`` until either closes.  Once ``silent``: what the server sends is
        dropped; what the client sends resets its connection."""
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                if not silent.is_set():
                    sink.sendall(data)
                elif upstream:
                    source.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    source.close()  # a reset, as the phone would meet
                    sink.close()
                    return
        if not silent.is_set():
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_WR)

    def __exit__(self, *exc: object) -> None:
        self._listener.close()
        with self._lock:
            for client, server, _ in self._pairs:
                client.close()
                server.close()
