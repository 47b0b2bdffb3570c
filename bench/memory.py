"""What the server as deployed holds in memory under a mixed, hostile load: each process's RSS.

Starts gunicorn as deployed (this tree's gunicorn.conf.py, or ``--root``'s: 2
workers, gevent, the file cache in a temporary folder) with worker recycling
switched off (``GUNICORN_MAX_REQUESTS=0``: gunicorn then never restarts a
worker) and no per-client limit (``SEARCH_SECONDS_PER_MINUTE=off``), so that
whatever the workers keep, they keep for the whole run.  ``--clients`` threads
then send, for ``--seconds``, a random mix of:

- every k=4 board from 4x4 to 6x6 (4x4, 4x5, 5x4, 4x6, 6x4, 5x5, 5x6, 6x5,
  6x6), random positions of 4 to 10 stones, through ``/analyze`` (mostly) and
  ``/move``: the exact solver's tables and memos, one solver per board size;
- 15x15 boards with 25 empty cells (k=5 and k=15; ``BIG_BOARDS`` of each,
  drawn at the start), each time with a fresh ``seed`` through ``/move``:
  searched once, then distinct bodies with many best moves each (the hot
  path's records, the per-worker copies of cache entries);
- random 3x3 positions through ``/move`` and ``/analyze``;

and ``--flooders`` more threads send only the 15x15 bodies with fresh seeds,
as fast as the server answers them (the searches of the mix would otherwise
leave the clients waiting).

Every second it reads VmRSS (/proc/PID/status) of the master and of each of
its children (the workers), and at the end prints, per process, the peak and
final RSS, then the peak of their sum (at one sample) and the final sum
against the plan's 512 MiB.  Loopback only, bounded in time (every request
has a timeout, the server is stopped at the end).  Linux only (/proc).

    .venv/bin/python bench/memory.py [--seconds 180] [--clients 4] [--flooders 2] [--seed 1] [--root DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import Gunicorn, wait_for_workers  # noqa: E402
from tictactoe import Board, Rules  # noqa: E402

WORKERS = 2
PLAN_MIB = 512  # render.yaml's and app.json's plans: 512 MB for the master and every worker
K4_SIZES = ((4, 4), (4, 5), (5, 4), (4, 6), (6, 4), (5, 5), (5, 6), (6, 5), (6, 6))
BIG_SIDE = 15
BIG_EMPTIES = 25
BIG_BOARDS = 3
REQUEST_TIMEOUT = 30.0


def random_position(rules: Rules, rng: random.Random, low: int, high: int) -> Board:
    """An unfinished position of ``rules`` reached by random moves, with ``low`` to ``high`` stones."""
    while True:
        board = Board(rules)
        for _ in range(rng.randint(low, high)):
            board.play(rng.choice(board.legal_moves()))
            if board.is_over():
                break
        if not board.is_over():
            return board


def big_board_rows(rng: random.Random) -> list[str]:
    """A 15x15 board with ``BIG_EMPTIES`` empty cells, 100 stones each, and no two-in-a-row beyond 2.

    Stones follow ``(row + 2 * col) mod 4``: along a row they alternate, down a
    column or a diagonal they come in pairs, so no line is ever longer than 2
    and the game goes on whatever k is.  Empty cells are drawn so that X and O
    keep 100 stones each (X to move).
    """
    cells = [(r, c) for r in range(BIG_SIDE) for c in range(BIG_SIDE)]
    mark = {cell: "x" if (cell[0] + 2 * cell[1]) % 4 < 2 else "o" for cell in cells}
    stones = (BIG_SIDE * BIG_SIDE - BIG_EMPTIES) // 2
    for player in "xo":
        own = [cell for cell in cells if mark[cell] == player]
        for cell in rng.sample(own, len(own) - stones):
            mark[cell] = "."
    return ["".join(mark[(r, c)] for c in range(BIG_SIDE)) for r in range(BIG_SIDE)]


def next_request(
    rng: random.Random, big_boards: list[list[str]], flood: bool = False
) -> tuple[str, str, dict[str, object]]:
    """One request of the mix, or of the flood: (its kind for the counts, path, body)."""
    draw = 0.5 if flood else rng.random()
    if draw < 0.4:
        rows, cols = rng.choice(K4_SIZES)
        board = random_position(Rules(rows, cols, 4), rng, 4, 10)
        path = "/analyze" if rng.random() < 0.7 else "/move"
        return board.rules.label(), path, {"board": board.to_text(), "k": 4}
    if draw < 0.85:
        k = rng.choice((5, 15))
        body = {"board": rng.choice(big_boards), "k": k, "seed": rng.randrange(1 << 62)}
        return Rules(15, 15, k).label(), "/move", body
    board = random_position(Rules(3, 3, 3), rng, 0, 7)
    return board.rules.label(), rng.choice(("/analyze", "/move")), {"board": board.to_text()}


def post(url: str, body: dict[str, object]) -> int:
    """POST ``body`` as JSON; the status (0 when the request failed on the way)."""
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as error:
        error.close()
        return int(error.code)
    except OSError:
        return 0


def rss_mib(pid: int) -> float | None:
    """VmRSS of ``pid`` in MiB, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def children(pid: int) -> list[int]:
    """The pids whose parent is ``pid`` (gunicorn's workers, for the master)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    # The field after the command (which may hold spaces) is the state, then the ppid.
                    after_name = stat.read().rpartition(")")[2].split()
            except OSError:
                continue
            if int(after_name[1]) == pid:
                found.append(int(entry))
    return sorted(found)


@dataclass
class Samples:
    """RSS per process over the run: peak and last reading, and the peak of the sum at one sample."""

    peak: dict[int, float] = field(default_factory=dict)
    last: dict[int, float] = field(default_factory=dict)
    peak_sum: float = 0.0
    last_sum: float = 0.0

    def take(self, master: int) -> None:
        """Read the master's and its children's RSS once."""
        total = 0.0
        for pid in (master, *children(master)):
            mib = rss_mib(pid)
            if mib is None:
                continue
            self.peak[pid] = max(self.peak.get(pid, 0.0), mib)
            self.last[pid] = mib
            total += mib
        self.peak_sum = max(self.peak_sum, total)
        self.last_sum = total


def drive(
    url: str,
    rng: random.Random,
    big_boards: list[list[str]],
    deadline: float,
    counts: Counter[tuple[str, str, int]],
    flood: bool,
) -> None:
    """Send the mix (or the flood) until ``deadline``, counting (kind, path, status)."""
    while time.monotonic() < deadline:
        kind, path, body = next_request(rng, big_boards, flood)
        counts[(kind, path, post(url + path, body))] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=180.0, help="how long the load runs")
    parser.add_argument("--clients", type=int, default=4, help="client threads sending the mix")
    parser.add_argument("--flooders", type=int, default=2, help="client threads sending 15x15 bodies only")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    args = parser.parse_args()
    root = args.root.resolve()
    counts: Counter[tuple[str, str, int]] = Counter()
    samples = Samples()
    with tempfile.TemporaryDirectory(prefix="memory-bench-") as folder:
        env = {
            "CACHE_DIR": folder,
            "GUNICORN_MAX_REQUESTS": "0",
            "SEARCH_SECONDS_PER_MINUTE": "off",
            "LOG_LEVEL": "warning",
        }
        with Gunicorn(workers=WORKERS, root=root, config=root / "gunicorn.conf.py", env=env) as server:
            wait_for_workers(server.url, WORKERS)
            master = server.process.pid
            samples.take(master)
            start = {pid: samples.last[pid] for pid in samples.last}
            drawn = random.Random(args.seed)
            big_boards = [big_board_rows(drawn) for _ in range(BIG_BOARDS)]
            deadline = time.monotonic() + args.seconds
            clients = [
                threading.Thread(
                    target=drive,
                    args=(
                        server.url,
                        random.Random(args.seed * 1000 + i),
                        big_boards,
                        deadline,
                        counts,
                        i >= args.clients,
                    ),
                )
                for i in range(args.clients + args.flooders)
            ]
            for client in clients:
                client.start()
            while any(client.is_alive() for client in clients):
                samples.take(master)
                time.sleep(1.0)  # the sampling interval, not synchronisation
            for client in clients:
                client.join()
            samples.take(master)
    print(
        f"gunicorn {WORKERS} workers ({root.name}/gunicorn.conf.py), recycling off, no per-client limit,"
        f" {args.clients} clients and {args.flooders} flooders for {args.seconds:g} s, seed {args.seed},"
        " 127.0.0.1"
    )
    print(f"{'requests (kind, path, status)':<40} {'count':>7}")
    for (kind, path, status), count in sorted(counts.items()):
        print(f"{kind + ' ' + path + ' ' + str(status):<40} {count:>7}")
    print()
    print(f"{'process':<16} {'start MiB':>10} {'peak MiB':>10} {'final MiB':>10}")
    for pid in samples.peak:
        role = "master" if pid == master else "worker"
        print(
            f"{role + ' ' + str(pid):<16} {start.get(pid, float('nan')):>10.1f}"
            f" {samples.peak[pid]:>10.1f} {samples.last[pid]:>10.1f}"
        )
    print(
        f"{'sum':<16} {sum(start.values()):>10.1f} {samples.peak_sum:>10.1f} {samples.last_sum:>10.1f}"
        f"   (peak of the sum at one sample; plan {PLAN_MIB} MiB:"
        f" {PLAN_MIB - samples.peak_sum:.0f} MiB to spare at the peak)"
    )


if __name__ == "__main__":
    main()
