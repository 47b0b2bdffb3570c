"""/healthz against a paused Redis: does polling it slow the answers other clients get?

A fresh gunicorn (2 workers, gunicorn.conf.py) on a fresh redis-server, a
position cached in both workers' memory.  Then, for each number of clients
polling ``GET /healthz`` as fast as they can (wrk: 0, 16 or 64 connections),
for ``--seconds`` with Redis running (the yardstick: the same load on a healthy
backend) and then with redis-server stopped by SIGSTOP, one client asks the
cached ``POST /move`` in a loop meanwhile (on one kept-alive connection).  The
table gives the latencies of both, and how many probes reached Redis (its SET
calls in the run; a cached /move sets nothing).  Redis is resumed (SIGCONT) and the breakers left to close
between runs.

    .venv/bin/python bench/health_pause.py [--seconds 5]

Loopback only; every run is bounded in time.
"""

from __future__ import annotations

import argparse
import http.client
import json
import signal
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import redis as redis_py  # noqa: E402
from wrk_move import run_wrk  # noqa: E402

from tests.servers import TEST_SECRET, Gunicorn, RedisServer, wait_for_workers, wait_until  # noqa: E402
from tests.stalled import timed_request  # noqa: E402

CACHED = {"board": ["x..", ".o.", "..."]}
GUARD = 30.0


class KeptAlive:
    """One kept-alive HTTP connection, as a browser's: ``post()`` returns the seconds taken."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=GUARD)

    def __enter__(self) -> KeptAlive:
        return self

    def post(self, path: str, body: dict) -> float:
        start = time.monotonic()
        self.connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        response = self.connection.getresponse()
        response.read()
        return time.monotonic() - start

    def __exit__(self, *exc) -> None:
        self.connection.close()


def summary(seconds: list[float]) -> str:
    if not seconds:
        return "-"
    ordered = sorted(seconds)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    return f"{statistics.median(ordered) * 1000:.1f} / {p90 * 1000:.1f} / {ordered[-1] * 1000:.0f} ms"


def run(server: Gunicorn, redis: RedisServer, pollers: int, seconds: int, pause: bool) -> dict:
    client = redis_py.Redis.from_url(redis.url)
    client.config_resetstat()
    polled: dict = {}

    def poll() -> None:
        polled.update(run_wrk(server.url + "/healthz", seconds, pollers, None))

    poller = threading.Thread(target=poll)
    if pause:
        redis.process.send_signal(signal.SIGSTOP)
    try:
        if pollers:
            poller.start()
        moves, end = [], time.monotonic() + seconds
        with KeptAlive(server.port) as connection:
            while time.monotonic() < end:
                moves.append(connection.post("/move", CACHED))
        if pollers:
            poller.join()
    finally:
        redis.process.send_signal(signal.SIGCONT)
    probes = client.info("commandstats").get("cmdstat_set", {}).get("calls", 0)
    client.close()
    wait_for_workers(server.url, 2)  # both breakers closed again
    return {
        "redis": "paused" if pause else "running",
        "pollers": pollers,
        "move": summary(moves),
        "moves": len(moves),
        "health": f"{polled['p50']} / {polled['p99']}" if polled else "-",
        "polls": polled.get("requests", 0),
        "503": polled.get("non_2xx", 0),
        "errors": polled.get("socket_errors", 0),
        "probes": probes,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=5, help="each pause (default 5)")
    parser.add_argument("--pollers", type=int, nargs="+", default=[0, 16, 64])
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        with (
            RedisServer(folder) as redis,
            Gunicorn(
                workers=2,
                env={"REDIS_URL": redis.url, "CACHE_SECRET": TEST_SECRET, "CACHE_DIR": str(folder / "c")},
            ) as server,
        ):
            wait_for_workers(server.url, 2)
            seen: set[int] = set()

            def both_warm() -> bool:
                _, status, body = timed_request(server.url + "/move", CACHED, GUARD)
                if status == 200 and body["cached"]:
                    seen.add(body["worker"])
                return len(seen) == 2

            wait_until(both_warm, 30, what="both workers caching the position")
            with KeptAlive(server.port) as connection:
                idle = [connection.post("/move", CACHED) for _ in range(200)]
            print(f"cached POST /move, Redis running, nobody polling: {summary(idle)} (median / p90 / max)\n")
            print(
                "| Redis | /healthz pollers | cached /move median / p90 / max | moves "
                "| /healthz p50 / p99 | polls | of them 503 | socket errors "
                "| probes that reached Redis |"
            )
            print("| --- | ---: | --- | ---: | --- | ---: | ---: | ---: | ---: |")
            for pollers in args.pollers:
                for pause in (False, True):
                    row = run(server, redis, pollers, args.seconds, pause)
                    print(
                        f"| {row['redis']} | {row['pollers']} | {row['move']} | {row['moves']} "
                        f"| {row['health']} | {row['polls']} | {row['503']} | {row['errors']} "
                        f"| {row['probes']} |",
                        flush=True,
                    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
