"""How long the solver takes to prove positions, by stone count: where the opening book must reach.

For each stone count, every canonical position with that many stones (or a
seeded sample when there are more than ``--sample``; past five million
placements, as on 6x6 from 6 stones, ``--sample`` positions drawn at random,
the "positions" column then "-") is proven from a cold table, as a fresh
install with an empty cache would: once for ``/move`` (the best moves) and
once for ``/analyze`` (every move's value).  Each proof
is capped at ``--cap`` seconds.  Times depend on the machine and its load;
node counts do not (the solver is deterministic), so both are shown.  A row
also says how many of those positions ``analyse`` answers proven within the
default budget (from the book, by the solver within its share of the
budget, or by threat search), once as ``/move`` asks (the best move) and once
as ``/analyze`` does (every move's value), which is the claim the book
exists for.  ``--answers-only`` leaves the cold proofs out (on 6x6 they take
minutes each) and counts only those answers::

    python bench/book_depth.py --size 5x5 --k 4                # just past the shipped book
    python bench/book_depth.py --size 5x5 --k 4 --stones 0-3    # chosen stone counts
    python bench/book_depth.py --size 6x6 --k 4 --stones 3-5 --sample 20 --answers-only
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sampling import sampled_levels, stone_range

from tictactoe import DEFAULT_BUDGET, Board, Rules, SearchTimeout, Solver, analyse
from tictactoe.book.lookup import book_for
from tictactoe.search.analysis import ALWAYS_EXACT_MAX_EMPTIES, EXACT_SHARE
from tictactoe.tools.options import parse_size


def proof_cost(board: Board, all_moves: bool, cap: float) -> tuple[float, int] | None:
    """Seconds and nodes a cold solver takes to prove ``board``, or None past ``cap``."""
    start = time.monotonic()
    try:
        result = Solver(board.rules).solve(board, deadline=start + cap, all_moves=all_moves)
    except SearchTimeout:
        return None
    return time.monotonic() - start, result.nodes


def worst(costs: list[tuple[float, int] | None], cap: float) -> str:
    """The slowest proof and the most nodes, or how many proofs went past the cap."""
    if any(cost is None for cost in costs):
        return f"> {cap:g} s ({sum(cost is None for cost in costs)})"
    if not costs:
        return "-"
    return f"{max(s for s, _ in costs):.3f} s {max(n for _, n in costs):>9,}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=parse_size, required=True, metavar="RxC")
    parser.add_argument("--k", type=int, default=4)
    parser.add_argument(
        "--stones", type=stone_range, help="stone counts, like 3 or 0-3 (default: one past the shipped book)"
    )
    parser.add_argument(
        "--sample",
        type=int,
        default=200,
        help="positions per stone count beyond which a seeded sample is taken",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=float, default=20.0, help="seconds at most per proof")
    parser.add_argument(
        "--answers-only", action="store_true", help="count the proven answers only, without the cold proofs"
    )
    args = parser.parse_args()
    rules = Rules(*args.size, args.k)
    book = book_for(rules)
    stones = args.stones or stone_range(str(book.max_stones + 1 if book else 0))
    covered = f"up to {book.max_stones} stone{'' if book.max_stones == 1 else 's'}" if book else "none"
    print(f"{rules}: book {covered}; budget {DEFAULT_BUDGET:g} s; times are wall clock on a shared machine")
    print(
        f"{'stones':>6}  {'positions':>9}  {'measured':>14}  {'solver share':>12}"
        f"  {'worst /move (s, nodes)':>23}  {'worst /analyze (s, nodes)':>26}"
        f"  {'/move proven':>14}  {'/analyze proven':>15}"
    )
    for count, positions, boards in sampled_levels(rules, stones, args.sample, args.seed):
        if positions is None:  # too many to list: drawn at random
            positions_text, measured = "-", f"{len(boards)} drawn"
        else:
            positions_text = f"{positions:,}"
            measured = "all" if len(boards) == positions else f"sample of {len(boards)}"
        empties = rules.cells - count
        share = DEFAULT_BUDGET * (1.0 if empties <= ALWAYS_EXACT_MAX_EMPTIES else EXACT_SHARE)
        move_times: list[tuple[float, int] | None] = []
        analyze_times: list[tuple[float, int] | None] = []
        proven = {False: 0, True: 0}
        for board in boards:
            if not args.answers_only:
                move_times.append(proof_cost(board, False, args.cap))
                analyze_times.append(proof_cost(board, True, args.cap))
            for all_moves in proven:
                proven[all_moves] += analyse(board, budget=DEFAULT_BUDGET, all_moves=all_moves).proven
        print(
            f"{count:>6}  {positions_text:>9}  {measured:>14}  {share:>10.2f} s"
            f"  {worst(move_times, args.cap):>23}  {worst(analyze_times, args.cap):>26}"
            f"  {proven[False]:>6}/{len(boards):<7}  {proven[True]:>7}/{len(boards):<7}",
            flush=True,
        )


if __name__ == "__main__":
    main()
