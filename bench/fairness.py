"""Fair shares under a flood: three players of big boards, one address flooding, /livez probed.

Starts gunicorn as the README runs it (gunicorn.conf.py: 2 gevent workers, the
default file cache in a fresh temporary folder, the default search allowance)
on 127.0.0.1 and runs these phases, ``--seconds`` each:

1. ``alone``: three players, each from an address of its own (127.0.0.3-5),
   play 7x7 k=5, 6x6 k=4 and 15x15 k=5 against the engine at perfect, a move a
   second (a random legal move, then ``POST /move`` for the engine's reply; a
   refused request is sent again a second later, so no move is lost);
2. ``flood``: the same, while 127.0.0.2 posts fresh 15x15 k=5 boards at perfect
   on ``--flood-connections`` (16) connections back to back, each a search of
   up to the budget (it ignores Retry-After: 50 ms after a refusal it goes on);
3. ``free flood``: the same players, while 127.0.0.7 posts 15x15 k=5 positions
   with exactly 9 empty cells, each new, on ``--free-connections`` (64)
   connections back to back: what were once free searches, run in the request's
   own greenlet; now they are charged, queued and run in a thread like any other.

Throughout, 127.0.0.6 asks ``GET /livez`` every 0.25 s on a kept-alive
connection.  Printed: per phase and client, the requests, their statuses, and
p50/p95/p99/max latency; then the goals: the players get no refusal (no 429,
no 503) while flooded and their p95 stays within two search budgets of the
``alone`` phase; the flood gets 429s; ``/livez`` answers within 1 s.  Exits 1
when a goal is missed.

    .venv/bin/python bench/fairness.py [--seconds 40] [--flood-connections 16] [--free-connections 64]

Traffic goes to 127.0.0.1 only (from loopback addresses), every run is bounded in time.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from traffic import FLOODER_ADDRESS, Client, Tally, flood, percentile, random_15x15  # noqa: E402

from tests.servers import Gunicorn, wait_for_workers  # noqa: E402
from tictactoe import Board, Rules  # noqa: E402
from web.config import DEFAULT_SEARCH_BUDGET  # noqa: E402

# (name, rules, address) of each player.
PLAYERS = (
    ("7x7 k=5", Rules(7, 7, 5), "127.0.0.3"),
    ("6x6 k=4", Rules(6, 6, 4), "127.0.0.4"),
    ("15x15 k=5", Rules(15, 15, 5), "127.0.0.5"),
)
PROBE_ADDRESS = "127.0.0.6"
FREE_FLOODER_ADDRESS = "127.0.0.7"
MOVE_EVERY = 1.0  # seconds: a player moves a second
PROBE_EVERY = 0.25
LIVEZ_GOAL = 1.0
FREE_EMPTIES = 9
ALONE, FLOOD, FREE_FLOOD = "alone", "flood", "free flood"


def play(port: int, rules: Rules, source: str, tally: Tally, until: float, seed: int) -> None:
    """Play ``rules`` against the engine at perfect from ``source``, a move a second, until ``until``."""
    client, rng = Client(port, source), random.Random(seed)
    board = Board(rules)
    while time.monotonic() < until:
        if board.is_over():
            board = Board(rules)
        board.play(rng.choice(board.legal_moves()))
        if board.is_over():
            continue
        body = {"board": board.to_text(), "k": rules.k, "level": "perfect"}
        while time.monotonic() < until:
            due = time.monotonic() + MOVE_EVERY
            reply = tally.send(client, source, "POST", "/move", body)
            time.sleep(max(0.0, due - time.monotonic()))
            if reply.status == 200:
                board = Board.from_text(reply.body["board"], k=rules.k)
                break


def probe(port: int, tally: Tally, stop: threading.Event) -> None:
    """Ask ``/livez`` from ``PROBE_ADDRESS`` every ``PROBE_EVERY`` seconds until ``stop``."""
    client = Client(port, PROBE_ADDRESS)
    while not stop.is_set():
        tally.send(client, "/livez", "GET", "/livez")
        stop.wait(PROBE_EVERY)


def nine_empty_15x15(rng: random.Random) -> dict:
    """A 15x15 k=5 position with exactly 9 empty cells and no five, each drawn anew.

    The stones follow a pattern with no three alike in a row in any direction
    (x where (col + 2 row) mod 4 is 0 or 1), then 9 random cells are emptied so
    that x has as many stones as o, or one more.
    """
    rules = Rules(15, 15, 5)
    while True:
        empty = set(rng.sample(range(rules.cells), FREE_EMPTIES))
        cells = [
            "." if cell in empty else "xo"[(cell % rules.cols + 2 * (cell // rules.cols)) % 4 >= 2]
            for cell in range(rules.cells)
        ]
        if cells.count("x") - cells.count("o") in (0, 1):
            rows = ["".join(cells[row * rules.cols : (row + 1) * rules.cols]) for row in range(rules.rows)]
            return {"board": rows, "k": 5, "level": "perfect"}


def run_phase(server: Gunicorn, tally: Tally, phase: str, seconds: float, args: argparse.Namespace) -> None:
    """The players (and the flood of ``phase``) for ``seconds``; the probe throughout."""
    tally.begin(phase)
    stop = threading.Event()
    until = time.monotonic() + seconds
    threads = [
        threading.Thread(target=play, args=(server.port, rules, source, tally, until, index))
        for index, (_, rules, source) in enumerate(PLAYERS)
    ]
    threads.append(threading.Thread(target=probe, args=(server.port, tally, stop)))
    if phase != ALONE:
        source, connections, body = (
            (FLOODER_ADDRESS, args.flood_connections, random_15x15)
            if phase == FLOOD
            else (FREE_FLOODER_ADDRESS, args.free_connections, nine_empty_15x15)
        )

        def on_reply(reply, source=source):
            tally.record(phase, source, reply)

        seed = 100 * len(tally.kinds)  # a new seed each phase: no position asked twice
        flooding = (server.port, connections, stop, source, body, on_reply, seed)
        threads.append(threading.Thread(target=flood, args=flooding))
    for thread in threads:
        thread.start()
    for thread in threads[: len(PLAYERS)]:
        thread.join()
    stop.set()
    for thread in threads:
        thread.join()
    tally.end()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=40.0, help="each phase (default 40)")
    parser.add_argument("--flood-connections", type=int, default=16)
    parser.add_argument("--free-connections", type=int, default=64)
    args = parser.parse_args(argv)
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        env = {"CACHE_DIR": str(Path(tmp) / "cache"), "SEARCH_SECONDS_PER_MINUTE": ""}
        with Gunicorn(workers=2, env=env) as server:
            wait_for_workers(server.url, 2)
            for phase in (ALONE, FLOOD, FREE_FLOOD):
                run_phase(server, tally, phase, args.seconds, args)

    names = {source: f"player {name} ({source})" for name, _, source in PLAYERS}
    names |= {
        FLOODER_ADDRESS: f"flood, fresh 15x15 ({FLOODER_ADDRESS})",
        FREE_FLOODER_ADDRESS: f"flood, 15x15 of 9 empty cells ({FREE_FLOODER_ADDRESS})",
        "/livez": f"/livez ({PROBE_ADDRESS})",
    }
    print(
        f"gunicorn as deployed (gunicorn.conf.py, 2 gevent workers), {args.seconds:g} s a phase;"
        f" flood {args.flood_connections} connections, free flood {args.free_connections}"
    )
    print(
        f"{'phase':<11} {'client':<44} {'requests':>8} {'200':>6} {'429':>6} {'503':>5} {'other':>5}"
        f" {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7}"
    )
    for phase, who in sorted(
        tally.kinds, key=lambda key: ([ALONE, FLOOD, FREE_FLOOD].index(key[0]), list(names).index(key[1]))
    ):
        kind = tally.kinds[phase, who]
        statuses, seconds = kind.statuses, kind.seconds
        other = sum(count for status, count in statuses.items() if status not in (200, 429, 503))
        print(
            f"{phase:<11} {names[who]:<44} {len(seconds):>8} {statuses[200]:>6} {statuses[429]:>6}"
            f" {statuses[503]:>5} {other:>5} {percentile(seconds, 0.5) * 1000:>7.0f}"
            f" {percentile(seconds, 0.95) * 1000:>7.0f} {percentile(seconds, 0.99) * 1000:>7.0f}"
            f" {max(seconds, default=0) * 1000:>7.0f}"
        )
    return 0 if goals_met(tally) else 1


def goals_met(tally: Tally) -> bool:
    """Print each goal with whether it was met; True when all were."""
    goals = []
    for phase in (FLOOD, FREE_FLOOD):
        for name, _, source in PLAYERS:
            alone, flooded = tally.get(ALONE, source), tally.get(phase, source)
            refused = flooded.statuses[429] + flooded.statuses[503] + flooded.statuses[0]
            goals.append((f"{phase}: player {name} refused {refused} times", refused == 0))
            p95_alone, p95 = percentile(alone.seconds, 0.95), percentile(flooded.seconds, 0.95)
            goals.append(
                (
                    f"{phase}: player {name} p95 {p95 * 1000:.0f} ms, alone {p95_alone * 1000:.0f} ms"
                    f" (within {2 * DEFAULT_SEARCH_BUDGET:g} s more)",
                    p95 <= p95_alone + 2 * DEFAULT_SEARCH_BUDGET,
                )
            )
    flood_429 = tally.get(FLOOD, FLOODER_ADDRESS).statuses[429]
    goals.append((f"flood: refused with 429 {flood_429} times", flood_429 > 0))
    for phase in (ALONE, FLOOD, FREE_FLOOD):
        worst = max(tally.get(phase, "/livez").seconds, default=0.0)
        goals.append((f"{phase}: /livez at worst {worst * 1000:.0f} ms", worst <= LIVEZ_GOAL))
    for text, met in goals:
        print(f"{'met   ' if met else 'MISSED'} {text}")
    return all(met for _, met in goals)


if __name__ == "__main__":
    sys.exit(main())
