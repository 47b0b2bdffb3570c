"""Traffic for the benchmarks: clients from any loopback address, a flood, and a tally of answers.

Shared by bench/fairness.py and bench/classroom.py.  Every client binds to an
address of 127.0.0.0/8 (all of it is loopback on Linux), so the server sees as
many clients as the bench names; every loop stops by itself.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from tictactoe import Board, Rules

FLOODER_ADDRESS = "127.0.0.2"
REFUSED_PAUSE = 0.05  # seconds a flood's connection pauses after a refusal (it ignores Retry-After)


class Reply(NamedTuple):
    """One answer: its status (0 when the connection dropped), JSON body, headers and seconds taken."""

    status: int
    body: Any
    headers: dict[str, str]
    seconds: float


class Client:
    """One keep-alive connection to the server, from ``source`` (an address on loopback)."""

    def __init__(self, port: int, source: str = "127.0.0.1") -> None:
        self.port, self.source = port, source
        self.connection: http.client.HTTPConnection | None = None

    def post(self, path: str, body: dict) -> tuple[int, dict, float]:
        """POST JSON; returns (status, answer, seconds); a dropped connection is status 0."""
        reply = self.request("POST", path, body)
        return reply.status, reply.body or {}, reply.seconds

    def request(self, method: str, path: str, body: dict | None = None) -> Reply:
        """Send ``body`` as JSON (none for a GET); a dropped connection is status 0.

        A kept-alive connection the server closed while idle is opened again once, as a
        browser does, so that the server's keep-alive timeout does not show as failures.
        """
        data = None if body is None else json.dumps(body)
        headers = {"Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        started = time.perf_counter()
        for reused in (self.connection is not None, False):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection(
                        "127.0.0.1", self.port, timeout=30, source_address=(self.source, 0)
                    )
                self.connection.request(method, path, data, headers)
                response = self.connection.getresponse()
                raw = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if not reused:
                    break
                continue
            except (OSError, http.client.HTTPException):
                self.close()
                break
            return Reply(response.status, _json_or_none(raw), dict(response.getheaders()), _since(started))
        return Reply(0, None, {}, _since(started))

    def close(self) -> None:
        """Close the connection (the next request opens a new one)."""
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def _json_or_none(raw: bytes) -> Any:
    """The JSON in ``raw``; None for an empty or non-JSON body (gunicorn's own errors are HTML)."""
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return None


def _since(started: float) -> float:
    return time.perf_counter() - started


def random_15x15(rng: random.Random) -> dict:
    """A fresh 15x15 position with a few stones: no two are alike, each needs a search."""
    board = Board(Rules(15, 15, 5))
    for _ in range(rng.randrange(2, 9)):
        board.play(rng.choice(board.legal_moves()))
    return {"board": board.to_text()}


def flood(
    port: int,
    connections: int,
    stop: threading.Event,
    source: str = FLOODER_ADDRESS,
    make_body: Callable[[random.Random], dict] = random_15x15,
    on_reply: Callable[[Reply], None] | None = None,
    first_seed: int = 0,
) -> Counter:
    """Keep ``connections`` /move searches of ``make_body(rng)`` in flight from ``source`` until ``stop``.

    Connection ``i`` draws from ``random.Random(first_seed + i)``.  Returns the answers'
    statuses; ``on_reply`` (called from the flood's threads) sees each answer.
    """
    statuses: Counter = Counter()
    lock = threading.Lock()

    def one(seed: int) -> None:
        client, rng = Client(port, source), random.Random(seed)
        while not stop.is_set():
            reply = client.request("POST", "/move", make_body(rng))
            with lock:
                statuses[reply.status] += 1
            if on_reply is not None:
                on_reply(reply)
            if reply.status != 200:
                stop.wait(REFUSED_PAUSE)

    threads = [threading.Thread(target=one, args=(first_seed + i,)) for i in range(connections)]
    for thread in threads:
        thread.start()
    stop.wait()
    for thread in threads:
        thread.join()
    return statuses


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


@dataclass
class Kind:
    """The answers to one kind of request in one phase."""

    statuses: Counter = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)
    retry_after: Counter = field(default_factory=Counter)  # by status: answers that named a Retry-After


class Tally:
    """Answers by phase and request kind, from many threads, and the client's CPU time per phase.

    ``phase`` is the phase running now (None between phases): a request counts in
    the phase in which it was sent.
    """

    def __init__(self) -> None:
        self.phase: str | None = None
        self.kinds: dict[tuple[str, str], Kind] = {}
        self.shown_errors: Counter = Counter()  # by phase: errors the page would have shown
        self.cpu: dict[str, float] = {}  # by phase: seconds of this process's CPU time
        self._cpu_at = 0.0
        self._lock = threading.Lock()

    def begin(self, phase: str) -> None:
        """Count from now on in ``phase``."""
        self.phase, self._cpu_at = phase, time.process_time()

    def end(self) -> None:
        """End the phase running now (requests sent until the next one are not counted)."""
        if self.phase is not None:
            self.cpu[self.phase] = time.process_time() - self._cpu_at
        self.phase = None

    def send(self, client: Client, kind: str, method: str, path: str, body: dict | None = None) -> Reply:
        """``client.request(...)``, counted under ``kind`` in the phase it was sent in."""
        phase = self.phase
        reply = client.request(method, path, body)
        if phase is not None:
            self.record(phase, kind, reply)
        return reply

    def record(self, phase: str, kind: str, reply: Reply) -> None:
        """Count ``reply`` under ``phase`` and ``kind``."""
        with self._lock:
            tally = self.kinds.setdefault((phase, kind), Kind())
            tally.statuses[reply.status] += 1
            tally.seconds.append(reply.seconds)
            tally.retry_after[reply.status] += "Retry-After" in reply.headers

    def shown(self) -> None:
        """Count an error the page would show now."""
        with self._lock:
            self.shown_errors[self.phase] += 1

    def get(self, phase: str, kind: str) -> Kind:
        """The answers to ``kind`` in ``phase`` (none: an empty ``Kind``)."""
        return self.kinds.get((phase, kind), Kind())
