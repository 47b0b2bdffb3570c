"""Slow clients against the server as the README runs it: do other clients still get answers?

Two attacks, each on a fresh gunicorn (2 workers, this project's
gunicorn.conf.py, the default file cache in a temporary folder) with a position
solved and cached first.

``--mode stalled`` (the default): for each worker setting and each number of
stalled connections, ``N`` raw connections each send the first lines of a
``POST /move`` and go quiet (tests/stalled.py).  While they hang, one client asks
``GET /livez`` and the cached ``POST /move`` in turn; the table gives their median
and worst latency (a request with no answer in 10 s counts as a timeout, and
three end the kind's series), and how long the server took to close the stalled
connections (given up after 30 s).  ``gthread`` is the setting before issue 13
(gunicorn's threaded worker, 4 threads a worker); ``gevent`` is gunicorn.conf.py's.

    .venv/bin/python bench/slow_clients.py [--requests 20] [--stalled 40 200]

``--mode trickle``: ``--tricklers`` connections from 127.0.0.1 (in a process of
their own) each send a ``POST /move`` head announcing a 1,000-byte body, then one
byte of it every ``--pace`` seconds; a connection the server closes is opened
again at its next byte.  Once every one has been opened, another client, from
127.0.0.2 (another address to the server), asks ``GET /livez`` and the cached
``POST /move`` in turn on new connections for ``--seconds``; the table gives
their median, p99 and worst latency, and what the tricklers met.  One row per
``--caps`` value (GUNICORN_CONNECTIONS_PER_ADDRESS).

    .venv/bin/python bench/slow_clients.py --mode trickle [--tricklers 2000] [--seconds 30] [--caps 250 off]

Loopback only; every connection and run is bounded in time.
"""

from __future__ import annotations

import argparse
import heapq
import multiprocessing
import selectors
import socket
import statistics
import sys
import tempfile
import time
from collections import Counter
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
# A trickler's head: a body of 1,000 bytes announced (within the 16 KiB limit), none sent yet.
TRICKLE_HEAD = (
    b"POST /move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: 1000\r\n\r\n"
)
OTHER_CLIENT = "127.0.0.2"  # the tricklers come from 127.0.0.1


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


def trickle(port: int, count: int, pace: float, ready, stop, report) -> None:
    """``count`` connections that send a head, then a byte every ``pace`` s, reopened when closed.

    Runs in a process of its own until ``stop`` is set; sets ``ready`` once each
    has been opened, then puts a Counter of what happened on the queue ``report``:
    answers by status, closes without an answer, failed connects, and ``held``,
    the connections open at the end of each second, summed (with ``seconds``).
    """
    selector = selectors.DefaultSelector()
    sockets: list[socket.socket | None] = [None] * count
    start = time.monotonic()
    # Spread over one pace, as a steady attacker would send them.
    due = [(start + pace * index / count, index) for index in range(count)]
    seen: Counter[str] = Counter()
    next_sample = start + 1.0

    def close(index: int) -> None:
        sock = sockets[index]
        if sock is not None:
            selector.unregister(sock)
            sock.close()
            sockets[index] = None

    while not stop.is_set():
        now = time.monotonic()
        for key, _ in selector.select(max(0.0, min(due[0][0], next_sample) - now)):
            index = key.data
            try:
                data = key.fileobj.recv(4096)
            except OSError:
                data = b""
            answered = data.startswith(b"HTTP/1.1 ")
            if answered:
                seen[f"answered {data[9:12].decode()}"] += 1
            elif not data:
                seen["closed, no answer"] += 1
            if answered or not data:  # the server is done with it: opened again at its next byte
                close(index)
        now = time.monotonic()
        while due[0][0] <= now:
            _, index = heapq.heappop(due)
            sock = sockets[index]
            try:
                if sock is None:
                    sock = socket.create_connection(("127.0.0.1", port), timeout=1.0)
                    sock.sendall(TRICKLE_HEAD)
                    sock.setblocking(False)
                    sockets[index] = sock
                    selector.register(sock, selectors.EVENT_READ, index)
                    seen["opened"] += 1
                else:
                    sock.send(b" ")
            except OSError:
                seen["connect or send failed"] += 1
                close(index)
            heapq.heappush(due, (now + pace, index))
            if seen["opened"] == count:
                ready.set()
        if now >= next_sample:
            seen["held"] += sum(sock is not None for sock in sockets)
            seen["seconds"] += 1
            next_sample += 1.0
    for index in range(count):
        close(index)
    report.put(seen)


def percentile_cell(answered: list[float], failed: int) -> str:
    """``median / p99 / worst`` in ms, and how many got no answer or not a 200."""
    if not answered:
        return f"no answer ({failed} failed)"
    ordered = sorted(answered)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    text = f"{statistics.median(ordered) * 1000:.1f} / {p99 * 1000:.1f} / {ordered[-1] * 1000:.1f} ms"
    return text + (f", {failed} failed" if failed else "")


def trickle_run(tricklers: int, cap: str, pace: float, seconds: float) -> dict:
    """One row: a fresh server with ``cap``, the tricklers, and the other client's answers."""
    with (
        tempfile.TemporaryDirectory() as tmp,
        Gunicorn(
            workers=2,
            env={"CACHE_DIR": str(Path(tmp) / "cache"), "GUNICORN_CONNECTIONS_PER_ADDRESS": cap},
        ) as server,
    ):
        wait_for_workers(server.url, 2)
        for _ in range(8):  # solved once, then in the store and both workers' memory
            timed_request(server.url + "/move", CACHED, source=OTHER_CLIENT)
        context = multiprocessing.get_context("spawn")
        ready, stop, report = context.Event(), context.Event(), context.Queue()
        attacker = context.Process(target=trickle, args=(server.port, tricklers, pace, ready, stop, report))
        if tricklers:
            attacker.start()
        else:  # the same client alone: what the machine gives without an attack
            ready.set()
            report.put(Counter())
        try:
            ready.wait(pace * 10)
            times: dict[str, list[float]] = {"livez": [], "move": []}
            failed: Counter[str] = Counter()
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                for kind, path, body in (("livez", "/livez", None), ("move", "/move", CACHED)):
                    try:
                        took, status, _ = timed_request(server.url + path, body, ANSWER_LIMIT, OTHER_CLIENT)
                    except OSError:
                        failed[kind] += 1
                        continue
                    if status == 200:
                        times[kind].append(took)
                    else:
                        failed[kind] += 1
        finally:
            stop.set()
            seen = report.get(timeout=60)
            if tricklers:
                attacker.join(30)
    held = seen.pop("held", 0) / max(seen.pop("seconds", 1), 1)
    return {
        "cap": cap if tricklers else "-",
        "tricklers": tricklers,
        "livez": percentile_cell(times["livez"], failed["livez"]),
        "move": percentile_cell(times["move"], failed["move"]),
        "asked": len(times["livez"]) + len(times["move"]) + sum(failed.values()),
        "held": f"{held:.0f}",
        "seen": ", ".join(f"{name}: {number}" for name, number in sorted(seen.items())),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["stalled", "trickle"], default="stalled")
    parser.add_argument("--requests", type=int, default=20, help="stalled: of each kind (default 20)")
    parser.add_argument("--stalled", type=int, nargs="+", default=[40, 200])
    parser.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    parser.add_argument(
        "--tricklers", type=int, nargs="+", default=[0, 2000], help="trickle: connections (default 0 2000)"
    )
    parser.add_argument("--pace", type=float, default=3.0, help="trickle: seconds between bytes (default 3)")
    parser.add_argument("--seconds", type=float, default=30.0, help="trickle: of asking (default 30)")
    parser.add_argument(
        "--caps", nargs="+", default=["250", "off"], help="trickle: GUNICORN_CONNECTIONS_PER_ADDRESS values"
    )
    args = parser.parse_args(argv)
    if args.mode == "trickle":
        print(
            "| per-address cap | tricklers | GET /livez median / p99 / worst | cached POST /move median "
            "/ p99 / worst | requests | tricklers held open (mean) | the tricklers met |"
        )
        print("| --- | ---: | --- | --- | ---: | ---: | --- |")
        for tricklers in args.tricklers:
            for cap in args.caps if tricklers else args.caps[:1]:
                row = trickle_run(tricklers, cap, args.pace, args.seconds)
                print(
                    f"| {row['cap']} | {row['tricklers']} | {row['livez']} | {row['move']} | {row['asked']} "
                    f"| {row['held']} | {row['seen'] or '-'} |",
                    flush=True,
                )
        return 0
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
