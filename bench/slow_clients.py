"""Slow clients against the server as the README runs it: do other clients still get answers?

For each worker setting and each number of stalled connections, a fresh
gunicorn (2 workers, this project's gunicorn.conf.py, the default file cache in
a temporary folder) gets a position solved and cached, then ``N`` raw
connections that each send the first lines of a ``POST /move`` and go quiet
(tests/stalled.py).  While they hang, one client asks ``GET /livez`` and the
cached ``POST /move`` in turn; the table gives their median and worst latency
(a request with no answer in 10 s counts as a timeout, and three end the
kind's series), and how long the server
took to close the stalled connections (given up after 30 s).

    .venv/bin/python bench/slow_clients.py [--requests 20] [--stalled 40 200]

``gthread`` is the setting before issue 13 (gunicorn's threaded worker, 4
threads a worker); ``gevent`` is gunicorn.conf.py's.  Loopback only; every
connection and run is bounded in time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from tests.servers import Gunicorn, wait_for_workers  # noqa: E402
from tests.stalled import StalledConnections, timed_request  # noqa: E402

SETTINGS = {"gthread": ["--worker-class", "gthread", "--threads", "4"], "gevent": []}
CACHED = {"board": ["x..", ".o.", "..."]}
ANSWER_LIMIT = 10.0
CLOSE_LIMIT = 30.0
GIVE_UP_AFTER = 3  # timeouts of one kind in a run: the server is not answering


def latencies(url: str, body: dict | None, count: int) -> tuple[list[float], int]:
    """Seconds of each answered request and how many got no answer in time."""
    answered, timeouts = [], 0
    for _ in range(count):
        try:
            seconds, _, _ = timed_request(url, body, timeout=ANSWER_LIMIT)
        except OSError:
            timeouts += 1
            if timeouts == GIVE_UP_AFTER:
                break
            continue
        answered.append(seconds)
    return answered, timeouts


def cell(answered: list[float], timeouts: int) -> str:
    if not answered:
        return f"no answer ({timeouts} timeouts)"
    text = f"{statistics.median(answered) * 1000:.1f} / {max(answered) * 1000:.1f} ms"
    return text + (f", {timeouts} timeouts" if timeouts else "")


def run(setting: str, stalled: int, requests: int) -> dict:
    with (
        tempfile.TemporaryDirectory() as tmp,
        Gunicorn(
            workers=2, env={"CACHE_DIR": str(Path(tmp) / "cache")}, extra_args=SETTINGS[setting]
        ) as server,
    ):
        wait_for_workers(server.url, 2)
        for _ in range(8):  # solved once, then in the store and both workers' memory
            timed_request(server.url + "/move", CACHED)
        with StalledConnections(server.port, stalled) as hung:
            livez = latencies(server.url + "/livez", None, requests)
            move = latencies(server.url + "/move", CACHED, requests)
            start = time.monotonic()
            while hung.open_count() and time.monotonic() - start < CLOSE_LIMIT:
                time.sleep(0.1)  # a benchmark's polling interval
            left = hung.open_count()
            closed = time.monotonic() - start
    return {
        "setting": setting,
        "stalled": stalled,
        "livez": cell(*livez),
        "move": cell(*move),
        "closed": f"all within {closed:.1f} s"
        if not left
        else f"{left} still open after {CLOSE_LIMIT:.0f} s",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20, help="of each kind (default 20)")
    parser.add_argument("--stalled", type=int, nargs="+", default=[40, 200])
    parser.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    args = parser.parse_args(argv)
    print(
        "| worker | stalled | GET /livez median / worst | cached POST /move median / worst "
        "| stalled connections closed |"
    )
    print("| --- | ---: | --- | --- | --- |")
    for setting in args.settings:
        for stalled in args.stalled:
            row = run(setting, stalled, args.requests)
            print(
                f"| {row['setting']} | {row['stalled']} | {row['livez']} | {row['move']} | {row['closed']} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
