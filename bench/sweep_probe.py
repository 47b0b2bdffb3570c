"""Does the file cache's eviction sweep hold up a worker's other connections?

One gunicorn worker (gevent, this project's gunicorn.conf.py) with the file cache
capped at ``--cap`` entries, whose folder is filled with ``--files`` entries
(old ones: the sweep evicts them first) once the worker is up.  Then fresh 4x4
positions are posted one after another, each searched and stored, until the
worker's count of writes reaches its sweep interval (``cap / 50``) and one write
sweeps the folder: lists it, reads the times of its files and removes the least
recently used down to 90% of the cap (web/cache/eviction.py).  All along, another
connection asks ``GET /livez`` every few milliseconds (kept alive, so it stays on
the worker).  The table gives the sweep (the write that made it, and the files
before and after), the ``/livez`` probes sent while that write was under way and
the worst of them, and ``/livez`` over the whole run.

    .venv/bin/python bench/sweep_probe.py [--cap 50000] [--files 53000] [--runs 1]

Loopback only; the run is bounded in time (``--seconds``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.flood_cache import random_position  # noqa: E402
from tests.servers import Gunicorn  # noqa: E402
from web.cache.eviction import SWEEP_SHARE  # noqa: E402

PROBE_PACE = 0.005  # seconds between two /livez probes
SWEPT = "cache over its cap"  # what the worker logs when a sweep evicts (web/cache/eviction.py)
ENTRY_AGE = 3600.0  # the filler's entries are this old, so the sweep takes them first


class Probe(threading.Thread):
    """``GET /livez`` on one kept-alive connection every ``PROBE_PACE`` s: (start, seconds) each."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.samples: list[tuple[float, float]] = []
        self.done = threading.Event()

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            while not self.done.is_set():
                start = time.monotonic()
                connection.request("GET", "/livez")
                response = connection.getresponse()
                response.read()
                self.samples.append((start, time.monotonic() - start))
                self.done.wait(PROBE_PACE)
        finally:
            connection.close()


def fill(folder: Path, files: int) -> None:
    """``files`` entry files in ``folder``, an hour old (what the sweep sees of them is names and times)."""
    past = time.time() - ENTRY_AGE
    for _ in range(files):
        path = folder / secrets.token_hex(16)
        path.write_bytes(b"\0" * 64)
        os.utime(path, (past, past))


def post(connection: http.client.HTTPConnection, board) -> float:
    """POST ``board`` to /move on ``connection``; the seconds it took (a non-200 raises)."""
    start = time.monotonic()
    connection.request(
        "POST",
        "/move",
        body=json.dumps({"board": board.to_text(), "k": board.rules.k}),
        headers={"Content-Type": "application/json"},
    )
    response = connection.getresponse()
    body = response.read()
    if response.status != 200:
        raise RuntimeError(f"/move answered {response.status}: {body[:200]!r}")
    return time.monotonic() - start


def milliseconds(seconds: list[float]) -> str:
    return " / ".join(f"{value * 1000:,.1f}" for value in seconds)


def one_run(cap: int, files: int, seconds: float, seed: int) -> str:
    """One fresh server, filled, written to until it sweeps: the table's row."""
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        server = Gunicorn(
            workers=1,
            env={
                "CACHE_DIR": str(folder / "cache"),
                "CACHE_MAX_ENTRIES": str(cap),
                "CACHE_MIN_NODES": "0",
                "SEARCH_SECONDS_PER_MINUTE": "off",
            },
        )
        server.log_path = folder / "gunicorn.log"
        with server:
            solved = folder / "cache" / "solved"
            fill(solved, files)
            before = len(os.listdir(solved))
            probe = Probe(server.port)
            probe.start()
            rng, seen = random.Random(seed), set()
            writer = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            give_up = time.monotonic() + seconds
            sweep: tuple[float, float] | None = None
            log = server.log_path.open()
            try:
                while sweep is None and time.monotonic() < give_up:
                    board = random_position(rng)
                    key = board.canonical()[0].position_text()
                    if key in seen:
                        continue
                    seen.add(key)
                    start = time.monotonic()
                    took = post(writer, board)
                    if SWEPT in log.read():  # what the worker logged since the last write
                        sweep = (start, took)
            finally:
                log.close()
                writer.close()
                probe.done.set()
                probe.join(timeout=30)
            after = len(os.listdir(solved))
    if sweep is None:
        every = cap // SWEEP_SHARE
        raise RuntimeError(f"no sweep within {seconds} s (cap {cap}, a sweep every {every} writes)")
    start, took = sweep
    during = [latency for at, latency in probe.samples if start <= at <= start + took]
    overall = sorted(latency for _, latency in probe.samples)
    p99 = overall[min(len(overall) - 1, int(len(overall) * 0.99))]
    return (
        f"| {cap:,} | {before:,} -> {after:,} | {took * 1000:,.0f} | {len(during)}"
        f" | {max(during, default=0) * 1000:,.1f} | {len(overall):,}"
        f" | {milliseconds([statistics.median(overall), p99, overall[-1]])} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=int, default=50_000, help="CACHE_MAX_ENTRIES")
    parser.add_argument("--files", type=int, default=53_000, help="entries in the folder before the writes")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=120.0, help="give up on a run after this long")
    args = parser.parse_args()
    print(
        "| cap | files before -> after | write that swept, ms | /livez probes during it"
        " | worst of them, ms | /livez probes in all | median / p99 / worst, ms |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    for run in range(args.runs):
        print(one_run(args.cap, args.files, args.seconds, seed=run + 1), flush=True)


if __name__ == "__main__":
    main()
