"""A bounded load test of the move server: wrk on loopback, 64 connections.

Two runs, each against a fresh gunicorn (2 workers under the project's
gunicorn.conf.py, the default file-system cache in a temporary folder, so every
run starts cold):

1. ``3x3``: the 4,520 non-terminal 3x3 positions posted to /move in turn;
2. ``mix``: the same plus cold 4x4 (k=4) positions, each distinct position
   posted by both wrk threads in the same order, so identical requests meet.

For each: requests, throughput, p50/p99, non-2xx and socket errors (all must be
0), and the cache's totals.  Single-flight holds when the searches counted equal
the distinct positions (up to symmetry) that were asked for.

    .venv/bin/python bench/load.py [--seconds 15]

Traffic goes to 127.0.0.1 only; each wrk run is bounded in time.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import urllib.request
from pathlib import Path

from wrk_move import Gunicorn, positions, run_wrk, wait_for_workers, write_script

from tictactoe import Board, Rules


def cold_positions(count: int, rules: Rules, stones: range, seed: int = 1) -> list[dict]:
    """``count`` request bodies (board and k) of distinct (up to symmetry) unfinished positions
    of ``rules``, each with a number of random stones drawn from ``stones``."""
    rng = random.Random(seed)
    bodies, seen = [], set()
    while len(bodies) < count:
        board = Board(rules)
        for _ in range(rng.choice(stones)):
            board.play(rng.choice(board.legal_moves()))
            if board.is_over():
                break
        key = board.canonical_key()
        if not board.is_over() and key not in seen:
            seen.add(key)
            bodies.append({"board": board.to_text(), "k": rules.k})
    return bodies


def cold_4x4_positions(count: int, seed: int = 1) -> list[str]:
    """``count`` JSON request bodies of distinct unfinished 4x4 k=4 positions of 2 to 8 stones."""
    return [json.dumps(body) for body in cold_positions(count, Rules(4, 4, 4), range(2, 9), seed)]


def distinct_positions(bodies: list[str]) -> int:
    """How many different positions, up to symmetry, the bodies hold."""
    keys = set()
    for body in bodies:
        request = json.loads(body)
        keys.add(Board.from_text(request["board"], k=request.get("k")).canonical_key())
    return len(keys)


def load_run(name: str, bodies: list[str], seconds: int, connections: int) -> dict:
    """One cold server, one wrk run; the figures and the cache's totals."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        script = write_script(folder, "/move", bodies)
        # wrk is one client address: without this its cold searches would be rate-limited
        # (web/searches/rate_limit.py); this run measures capacity, bench/fairness.py the limit.
        with Gunicorn(
            workers=2, env={"CACHE_DIR": str(folder / "cache"), "SEARCH_SECONDS_PER_MINUTE": "off"}
        ) as server:
            wait_for_workers(server.url, 2)
            run = run_wrk(server.url, seconds, connections, script)
            totals = json.loads(urllib.request.urlopen(server.url + "/stats").read())["total"]
    return {"name": name, "bodies": len(bodies), "distinct": distinct_positions(bodies), **run, **totals}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=15, help="each wrk run (default 15)")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--cold", type=int, default=300, help="cold 4x4 positions in the mix")
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        print("wrk is not installed: apt-get install wrk", file=sys.stderr)
        return 2
    small = positions()
    runs = [
        load_run("3x3", small, args.seconds, args.connections),
        load_run(
            f"mix: 3x3 + {args.cold} cold 4x4",
            small + cold_4x4_positions(args.cold),
            args.seconds,
            args.connections,
        ),
    ]
    print(
        f"gunicorn 2 workers (gunicorn.conf.py), cold file cache; wrk -t2 -c{args.connections}"
        f" -d{args.seconds}s, 127.0.0.1"
    )
    print(
        f"{'run':<28} {'requests':>9} {'req/s':>7} {'p50':>8} {'p99':>8} {'non-2xx':>7}"
        f" {'sock err':>8} {'distinct':>8} {'searches':>8} {'waited':>6} {'hits':>7}"
    )
    for run in runs:
        print(
            f"{run['name']:<28} {run['requests']:>9} {run['rps']:>7.0f} {run['p50']:>8}"
            f" {run['p99']:>8} {run['non_2xx']:>7} {run['socket_errors']:>8}"
            f" {run['distinct']:>8} {run['searches']:>8} {run['waited']:>6} {run['hits']:>7}"
        )
    ok = all(run["non_2xx"] == 0 and run["socket_errors"] == 0 for run in runs)
    for run in runs:
        # Every body was asked for at least once only if wrk went round the list.
        if run["requests"] >= 2 * run["bodies"] and run["searches"] != run["distinct"]:
            print(
                f"{run['name']}: {run['searches']} searches for {run['distinct']} positions", file=sys.stderr
            )
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
