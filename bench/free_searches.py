"""What the free searches cost: every 3x3 position, the only boards searched without a charge.

web/searches/slots.py neither checks nor charges nor queues a search on a board
of at most ``FREE_CELLS`` cells (3x3): its rules bound its cost.  This prints
what such searches cost, cold (a fresh solver for every position, as the free
searches run) and as ``/analyze`` asks (every move's value), for every
non-terminal 3x3 position; and, beside them, what the positions of 9 empty
cells on a 15x15 k=5 board cost (once free, now charged like any search),
drawn as bench/fairness.py's free flood draws them.

    .venv/bin/python bench/free_searches.py [--samples 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fairness import nine_empty_15x15  # noqa: E402

from tictactoe import Board, Solver, analyse  # noqa: E402
from tictactoe.tools.counting import reachable_positions  # noqa: E402
from web.searches.slots import FREE_CELLS  # noqa: E402


def cold_seconds(board: Board) -> float:
    """Seconds of a cold search of ``board`` with every move's value, as /analyze asks."""
    start = time.perf_counter()
    analyse(board, budget=None, all_moves=True, solver=Solver(board.rules))
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200, help="15x15 positions of 9 empty cells")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    bigger = [nine_empty_15x15(rng) for _ in range(args.samples)]
    rows = [
        (
            f"3x3 k=3, every position (free: at most {FREE_CELLS} cells)",
            [b for b in reachable_positions() if not b.is_over()],
        ),
        ("15x15 k=5, 9 empty (charged)", [Board.from_text(body["board"], k=5) for body in bigger]),
    ]
    print("cold searches with every move's value")
    print("| positions | count | p50 | p99 | max |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for label, boards in rows:
        times = sorted(cold_seconds(board) for board in boards)
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(
            f"| {label} | {len(times):,} | {statistics.median(times) * 1000:.2f} ms"
            f" | {p99 * 1000:.2f} ms | {times[-1] * 1000:.2f} ms |"
        )


if __name__ == "__main__":
    main()
