"""What the searches the per-client limit leaves free cost: positions with at most 9 empty cells.

web/searches/slots.py neither checks nor charges a search of a position with at
most ``FREE_EMPTY_CELLS`` empty cells.  This prints what such searches cost,
cold (a fresh solver for every position, the worst case: the server's
threads keep theirs warm) and as ``/analyze`` asks (every move's value):
every non-terminal 3x3 position, then seeded random positions with exactly 9
empty cells on bigger boards (random games played until 9 cells are left,
games that end first are drawn again).

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

from tictactoe import Board, Rules, Solver, analyse  # noqa: E402
from tictactoe.tools.counting import reachable_positions  # noqa: E402
from web.searches.slots import FREE_EMPTY_CELLS  # noqa: E402

# Boards where random games often last until 9 cells are left.
BIGGER = [(4, 4, 4), (5, 5, 5), (6, 6, 6), (7, 7, 7), (15, 15, 15), (15, 15, 12)]
ATTEMPTS = 2_000


def random_positions(rules: Rules, count: int, rng: random.Random) -> list[Board]:
    """Up to ``count`` positions with ``FREE_EMPTY_CELLS`` empty cells, from random games still going."""
    positions = []
    for _ in range(ATTEMPTS):
        board = Board(rules)
        while board.empty.bit_count() > FREE_EMPTY_CELLS and not board.is_over():
            board.play(rng.choice(board.legal_moves()))
        if not board.is_over():
            positions.append(board)
            if len(positions) == count:
                break
    return positions


def cold_seconds(board: Board) -> float:
    """Seconds of a cold search of ``board`` with every move's value, as /analyze asks."""
    start = time.perf_counter()
    analyse(board, budget=None, all_moves=True, solver=Solver(board.rules))
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200, help="random positions per bigger board")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    rows = [("3x3 k=3, every position", [b for b in reachable_positions() if not b.is_over()])]
    rows += [
        (f"{rules.label()}, 9 empty", random_positions(rules, args.samples, rng))
        for rules in (Rules(*size) for size in BIGGER)
    ]
    print(f"cold searches with every move's value, at most {FREE_EMPTY_CELLS} empty cells")
    print("| positions | count | p50 | p99 | max |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for label, boards in rows:
        if not boards:
            print(f"| {label} | 0 | | | |")
            continue
        times = sorted(cold_seconds(board) for board in boards)
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(
            f"| {label} | {len(times):,} | {statistics.median(times) * 1000:.2f} ms"
            f" | {p99 * 1000:.2f} ms | {times[-1] * 1000:.2f} ms |"
        )


if __name__ == "__main__":
    main()
