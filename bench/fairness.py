"""Fairness per client, measured: a 3x3 player's latency while another client floods 15x15 searches.

Starts real gunicorn (gunicorn.conf.py: 2 gevent workers, the default file-system cache in a
temp folder) on 127.0.0.1 and runs, for ``--seconds`` each:

1. ``idle``: the player alone: it plays 3x3 games as fast as it can, one
   connection, asking for hints (``/analyze``) and the engine's reply
   (``/move``) after each of its random moves;
2. ``flood``: the same player while a flooder, from another address
   (127.0.0.2, so the server sees two clients), keeps ``--flood-connections``
   requests of fresh 15x15 positions (each a search of up to SEARCH_BUDGET) in
   flight;
3. the same flood against a server with ``SEARCH_SECONDS_PER_MINUTE=off``, to show
   what the limit prevents.

Every 3x3 position is solved into the cache first (in-process, the same
folder the servers use): a deployed server has seen them all within its first
games, and this measures what the limit is for, cache hits next to a flood of
searches.  The flooder does not honour Retry-After: after a
refusal (429 or 503) it pauses 50 ms and goes on; a flood of requests that are
cheap to refuse is a request-rate problem for the router, not this limit's.

    .venv/bin/python bench/fairness.py [--seconds 15] [--flood-connections 8]

Prints the player's requests, errors, p50 and p99, and the flooder's answers
by status.  Traffic goes to 127.0.0.1 only, every run is bounded in time.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import Gunicorn, wait_for_workers  # noqa: E402
from tictactoe import Board, Rules  # noqa: E402
from web.operations.config import DEFAULT_SEARCH_SECONDS_PER_MINUTE  # noqa: E402

FLOODER_ADDRESS = "127.0.0.2"  # all of 127.0.0.0/8 is loopback on Linux
REFUSED_PAUSE = 0.05


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


def play_games(client: Client, rng: random.Random, until: float) -> tuple[list[float], Counter]:
    """Play random 3x3 games against the engine until ``until``; latencies and statuses."""
    latencies, statuses = [], Counter()
    while time.monotonic() < until:
        board = Board(Rules(3, 3, 3))
        while not board.is_over() and time.monotonic() < until:
            board.play(rng.choice(board.legal_moves()))
            if board.is_over():
                break
            for path in ("/analyze", "/move"):
                status, answer, seconds = client.post(path, {"board": board.to_text()})
                latencies.append(seconds)
                statuses[status] += 1
                if status != 200:
                    break
            else:
                board = Board.from_text(answer["board"], k=3)
    return latencies, statuses


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


def solve_every_3x3_position(cache_dir: str) -> None:
    """Store the analysis of every unfinished 3x3 position in the file-system cache ``cache_dir``."""
    from app import create_app
    from tictactoe.tools.counting import reachable_positions

    client = create_app({"CACHE_DIR": cache_dir, "SEARCH_SECONDS_PER_MINUTE": "off"}).test_client()
    for board in reachable_positions():
        if not board.is_over():
            assert client.post("/analyze", json={"board": board.to_text()}).status_code == 200


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def measure(server: Gunicorn, seconds: int, flood_connections: int, seed: int) -> dict:
    """The player for ``seconds``, with a flood alongside when ``flood_connections`` > 0."""
    stop = threading.Event()
    flooded: Counter = Counter()
    flooder = None
    if flood_connections:
        flooder = threading.Thread(target=lambda: flooded.update(flood(server.port, flood_connections, stop)))
        flooder.start()
    latencies, statuses = play_games(Client(server.port), random.Random(seed), time.monotonic() + seconds)
    stop.set()
    if flooder is not None:
        flooder.join()
    return {
        "requests": len(latencies),
        "errors": sum(n for s, n in statuses.items() if s != 200),
        "p50": percentile(latencies, 0.50) * 1000,
        "p99": percentile(latencies, 0.99) * 1000,
        "flooder": flooded,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=15, help="each measured run (default 15)")
    parser.add_argument("--flood-connections", type=int, default=8)
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        cache = str(Path(tmp) / "cache")
        solve_every_3x3_position(cache)
        for limit in (f"{DEFAULT_SEARCH_SECONDS_PER_MINUTE:g}", "off"):
            with Gunicorn(workers=2, env={"CACHE_DIR": cache, "SEARCH_SECONDS_PER_MINUTE": limit}) as server:
                wait_for_workers(server.url, 2)
                if not rows:
                    rows.append(("idle", measure(server, args.seconds, 0, seed=1)))
                rows.append(
                    (
                        f"flood, SEARCH_SECONDS_PER_MINUTE={limit}",
                        measure(server, args.seconds, args.flood_connections, seed=2),
                    )
                )
    print(
        f"gunicorn as deployed (gunicorn.conf.py, 2 gevent workers), {args.seconds} s a run, flooder: "
        f"{args.flood_connections} connections of 15x15 /move from {FLOODER_ADDRESS}"
    )
    print(
        f"{'run':<52} {'player req':>10} {'errors':>7} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'flood 200':>9} {'429':>6} {'503':>6}"
    )
    for name, row in rows:
        flooder = row["flooder"]
        print(
            f"{name:<52} {row['requests']:>10} {row['errors']:>7} {row['p50']:>7.1f} "
            f"{row['p99']:>7.1f} {flooder[200]:>9} {flooder[429]:>6} {flooder[503]:>6}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
