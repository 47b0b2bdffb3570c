"""The bytes one entry of the solver's table and of each memo takes, measured with tracemalloc.

Runs ``--searches`` seeded /analyze-like searches (every move's value, a
1-second deadline each) of random 6x6 k=4 positions with 7 stones on one
solver, then empties the table and each memo in turn and prints the bytes
freed per entry.  The solver's declared figures (tictactoe/search/solver.py,
``*_ENTRY_BYTES``) should be at or above these.

    .venv/bin/python bench/entry_bytes.py [--searches 10]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import contextlib

from tictactoe import Board, Rules
from tictactoe.search.solver import SearchTimeout, Solver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--searches", type=int, default=10)
    args = parser.parse_args()
    rules = Rules(6, 6, 4)
    rng = random.Random(1)
    tracemalloc.start()
    solver = Solver(rules, table_limit=200_000)
    for _ in range(args.searches):
        board = Board(rules)
        while board.stones < 7 or board.is_over():
            board = Board(rules) if board.is_over() else board
            board.play(rng.choice(board.legal_moves()))
        with contextlib.suppress(SearchTimeout):
            solver.solve(board, all_moves=True, deadline=time.monotonic() + 1.0)
    print(f"{rules}, {len(rules.geometry.lines)} windows, {args.searches} searches")
    for name in ("table", "completing", "open_cells", "live_lines"):
        held: dict[int, object] = getattr(solver, name)
        entries, before = len(held), tracemalloc.get_traced_memory()[0]
        held.clear()
        freed = before - tracemalloc.get_traced_memory()[0]
        print(f"{name:<12} {entries:>8} entries {freed / max(entries, 1):>6.0f} bytes each")


if __name__ == "__main__":
    main()
