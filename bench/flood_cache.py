"""Flood the file cache with random positions and show that its cap holds.

Starts a fresh gunicorn (2 workers, the threads of gunicorn.conf.py, the file
cache in a temporary folder) per run and has 8 client threads post random
4x4 k=4 positions with 8 stones to /move for ``--seconds`` (the flood of
issue 13).  While it runs, the cache folder is listed every 0.1 s; the table
gives, per run: requests, 503s (busy) and other failures, the cache's searches and stored entries,
the most entries and bytes seen on disk, what is left at the end, temp files,
and whether the cap (plus its slack, see web/cache/eviction.py) held.

    .venv/bin/python bench/flood_cache.py [--seconds 10] [--cap 1000]

Runs: ``unbounded`` (a cap too high to reach and every proven result stored:
what the cache did before), ``capped`` (``--cap``, every result stored) and
``defaults`` (``--cap`` with the default CACHE_MIN_NODES).  Exits 1 if a
capped run went past its cap plus slack or a request failed (other than the
documented 503 when every search slot is taken).  Traffic goes
to 127.0.0.1 only; each run is bounded in time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import Gunicorn, wait_for_workers  # noqa: E402
from tictactoe import Board, Rules  # noqa: E402
from web.cache.eviction import SWEEP_SHARE  # noqa: E402

CLIENTS = 8
WORKERS = 2


def random_position(rng: random.Random, rows: int = 4, cols: int = 4, k: int = 4, stones: int = 8) -> Board:
    """A position reached by ``stones`` random moves from the empty board, the game not over."""
    while True:
        board = Board(Rules(rows, cols, k))
        for _ in range(stones):
            board.play(rng.choice(board.legal_moves()))
            if board.is_over():
                break
        if not board.is_over():
            return board


def post_move(url: str, board: Board) -> tuple[int, dict | None]:
    """POST ``board`` to ``url``/move: the status and the JSON answer (None if unreadable)."""
    body = json.dumps({"board": board.to_text(), "k": board.rules.k}).encode()
    request = urllib.request.Request(
        url + "/move", data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        with error:
            return error.code, None


def disk_usage(folder: Path) -> tuple[int, int, int]:
    """(entries, temp files, bytes allocated) of a cache folder."""
    entries = temps = allocated = 0
    with os.scandir(folder) as listing:
        for item in listing:
            try:
                allocated += item.stat().st_blocks * 512
            except FileNotFoundError:
                continue
            if item.name.endswith(".__wz_cache"):
                temps += 1
            else:
                entries += 1
    return entries, temps, allocated


def flood(name: str, seconds: float, cap: int, min_nodes: int | None) -> dict[str, object]:
    """One run against a fresh server; returns its row of the table."""
    folder = Path(tempfile.mkdtemp(prefix="flood-cache-"))
    env = {"CACHE_DIR": str(folder), "CACHE_MAX_ENTRIES": str(cap)}
    if min_nodes is not None:
        env["CACHE_MIN_NODES"] = str(min_nodes)
    else:
        env["CACHE_MIN_NODES"] = ""  # unset: the default
    counts = {"requests": 0, "busy": 0, "failed": 0}
    peak = {"entries": 0, "bytes": 0}
    lock = threading.Lock()
    try:
        with Gunicorn(workers=WORKERS, env=env) as server:
            wait_for_workers(server.url, WORKERS)
            end = time.monotonic() + seconds

            def client(seed: int) -> None:
                rng = random.Random(seed)
                while time.monotonic() < end:
                    status, _ = post_move(server.url, random_position(rng))
                    with lock:
                        counts["requests"] += 1
                        # 503 is the documented "no search slot free" (Retry-After: 1)
                        counts["busy"] += int(status == 503)
                        counts["failed"] += int(status not in (200, 503))

            threads = [threading.Thread(target=client, args=(seed,)) for seed in range(CLIENTS)]
            for thread in threads:
                thread.start()
            while any(thread.is_alive() for thread in threads):
                entries, _, allocated = disk_usage(folder / "solved")
                peak["entries"] = max(peak["entries"], entries)
                peak["bytes"] = max(peak["bytes"], allocated)
                time.sleep(0.1)  # sampling interval of the folder, not synchronisation
            with urllib.request.urlopen(server.url + "/stats", timeout=30) as response:
                totals = json.loads(response.read())["total"]
        entries, temps, allocated = disk_usage(folder / "solved")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    bound = cap + WORKERS * max(1, cap // SWEEP_SHARE) + CLIENTS
    return {
        "run": name,
        "cap": cap,
        "requests": counts["requests"],
        "503 busy": counts["busy"],
        "failed": counts["failed"],
        "searches": totals["searches"],
        "stored": totals["stored"],
        "peak entries": peak["entries"],
        "peak MiB": round(peak["bytes"] / 2**20, 1),
        "end entries": entries,
        "end MiB": round(allocated / 2**20, 1),
        "temp files": temps,
        "cap + slack": bound,
        "held": peak["entries"] <= bound and entries <= bound,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--cap", type=int, default=1000)
    args = parser.parse_args(argv)
    rows = [
        flood("unbounded", args.seconds, 100_000_000, 0),
        flood("capped", args.seconds, args.cap, 0),
        flood("defaults", args.seconds, args.cap, None),
    ]
    columns = list(rows[0])
    print("| " + " | ".join(columns) + " |")
    print("| " + " | ".join("---" for _ in columns) + " |")
    for row in rows:
        print("| " + " | ".join(str(row[column]) for column in columns) + " |")
    capped = rows[1:]
    failed = any(not row["held"] or row["failed"] for row in capped)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
