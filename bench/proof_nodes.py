"""Nodes a cold solver takes to prove a fixed seeded set of positions: the solver's cost, machine-free.

For each stone count, every canonical position with that many stones (or the
same seeded sample as ``bench/book_depth.py`` when there are more than
``--sample``) is proven from a cold table, once for ``/move`` (the best
moves) and once for ``/analyze`` (every move's value), each capped at
``--cap`` nodes (checked every 4,096 nodes, so a capped proof stops at the
first multiple of 4,096 past the cap).  Node counts are exact and repeatable:
run it on two versions of the engine to compare them.  CPU seconds are shown
too, but depend on the machine and its load::

    python bench/proof_nodes.py --size 5x5 --k 4 --stones 0-3 --sample 12
    python bench/proof_nodes.py --size 5x5 --k 4 --stones 1 --each      # a line per position
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sampling import sampled_levels, stone_range

from tictactoe import Board, Rules, Solver
from tictactoe.book.lookup import position_key
from tictactoe.search import solver as solver_module
from tictactoe.tools.options import parse_size


class NodeCap(Exception):
    """A proof went past the node cap."""


def cap_nodes(cap: int) -> None:
    """Make every solve stop past ``cap`` nodes, at its next tick (the solver has no node limit)."""
    tick = solver_module._Run.tick

    def capped_tick(run: solver_module._Run) -> None:
        if run.nodes >= cap:
            raise NodeCap()
        tick(run)

    solver_module._Run.tick = capped_tick  # type: ignore[method-assign]


def proof_nodes(board: Board, all_moves: bool) -> tuple[int | None, float]:
    """Nodes and CPU seconds of a cold proof; None for the nodes past the cap."""
    start = time.process_time()
    try:
        nodes: int | None = Solver(board.rules).solve(board, all_moves=all_moves).nodes
    except NodeCap:
        nodes = None
    return nodes, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=parse_size, required=True, metavar="RxC")
    parser.add_argument("--k", type=int, default=4)
    parser.add_argument(
        "--stones", type=stone_range, default="0-3", help="stone counts, like 3 or 0-3 (default 0-3)"
    )
    parser.add_argument("--sample", type=int, default=12, help="positions per stone count at most (seeded)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=float, default=1e6, help="nodes at most per proof (default 1e6)")
    parser.add_argument("--each", action="store_true", help="a line per position")
    args = parser.parse_args()
    rules = Rules(*args.size, args.k)
    cap = int(args.cap)
    cap_nodes(cap)
    print(f"{rules}: cold proofs capped at {cap:,} nodes; '>' marks proofs stopped at the cap")
    print(
        f"{'stones':>6}  {'measured':>9}  {'/move nodes':>12}  {'capped':>6}  {'worst':>10}"
        f"  {'/analyze nodes':>14}  {'capped':>6}  {'worst':>10}  {'CPU s':>7}"
    )
    for count, _, boards in sampled_levels(rules, args.stones, args.sample, args.seed):
        totals = {False: [0, 0, 0], True: [0, 0, 0]}  # nodes (capped ones at the cap), capped, worst
        seconds = 0.0
        for board in boards:
            shown = []
            for all_moves in (False, True):
                nodes, spent = proof_nodes(board, all_moves)
                seconds += spent
                total = totals[all_moves]
                total[0] += cap if nodes is None else nodes
                total[1] += nodes is None
                total[2] = max(total[2], cap if nodes is None else nodes)
                shown.append(f">{cap:,}" if nodes is None else f"{nodes:,}")
            if args.each:
                print(f"  {position_key(board)}  /move {shown[0]:>11}  /analyze {shown[1]:>11}", flush=True)
        move, analyze = totals[False], totals[True]
        print(
            f"{count:>6}  {len(boards):>9}  {move[0]:>12,}  {move[1]:>6}  {move[2]:>10,}"
            f"  {analyze[0]:>14,}  {analyze[1]:>6}  {analyze[2]:>10,}  {seconds:>7.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
