"""How often the perfect level's answers are proven in whole games, as the page plays them.

The engine plays as a web worker does: ``choose_move(level="perfect")`` with
the default budget and one solver per rules kept between moves (its table
warm from the game's earlier positions, as ``web/searches/slots.py`` keeps it),
and the shipped books.  Its opponent is either the engine itself (``self``:
every move of both sides is counted) or the ``medium`` level (takes a win in
one, blocks a loss in one, else plays at random: the engine's moves are
counted).  Each answer is tallied by the stone count it was asked at and by
how it was known (``book``, ``proof``, ``threats``, ``heuristic``), so the
table shows where a game leaves the book and how soon the solver takes over::

    python bench/game_proofs.py --size 5x5 --k 4 --games 10 --opponent self
    python bench/game_proofs.py --size 5x5 --k 4 --games 20 --opponent medium

Answers within the budget depend on the machine and its load: the load
average is printed with the table.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tictactoe import DEFAULT_BUDGET, Board, Rules, Solver
from tictactoe.search.levels import choose_move, quick_move
from tictactoe.tools.options import parse_size

SOURCES = ("book", "proof", "threats", "heuristic")


def play_game(
    rules: Rules,
    opponent: str,
    engine_is_x: bool,
    rng: random.Random,
    tally: dict[int, Counter[str]],
    guesses: list[Board],
) -> float:
    """Play one game, adding each counted answer's source to ``tally`` by stone count.

    Positions answered by the heuristic search are added to ``guesses``.
    Returns the slowest counted answer's seconds.
    """
    board = Board(rules)
    solver = Solver(rules)
    slowest = 0.0
    while not board.is_over():
        stones = rules.cells - board.empty.bit_count()
        engine_turn = opponent == "self" or (board.to_move == "x") == engine_is_x
        if engine_turn:
            start = time.monotonic()
            decision = choose_move(board, "perfect", rng, DEFAULT_BUDGET, solver)
            slowest = max(slowest, time.monotonic() - start)
            assert decision.result is not None
            tally[stones][decision.result.source.value if decision.result.proven else "heuristic"] += 1
            if not decision.result.proven:
                guesses.append(board.copy())
            board.play(decision.move)
        else:
            board.play(quick_move(board, opponent, rng))
    return slowest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=parse_size, default=(5, 5), metavar="RxC")
    parser.add_argument("--k", type=int, default=4)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--opponent", choices=("self", "medium", "easy"), default="self")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show-guesses", action="store_true", help="print the positions not proven")
    args = parser.parse_args()
    rules = Rules(*args.size, args.k)
    tally: dict[int, Counter[str]] = defaultdict(Counter)
    rng = random.Random(args.seed)
    guesses: list[Board] = []
    slowest = max(
        play_game(rules, args.opponent, game % 2 == 0, rng, tally, guesses) for game in range(args.games)
    )
    print(
        f"{rules}, {args.games} games against {args.opponent}, budget {DEFAULT_BUDGET:g} s,"
        f" load average {os.getloadavg()[0]:.1f}; slowest answer {slowest:.2f} s"
    )
    print(f"{'stones':>6}  {'answers':>7}  " + "  ".join(f"{name:>9}" for name in SOURCES) + "  proven")
    total: Counter[str] = Counter()
    for stones in sorted(tally):
        row = tally[stones]
        total.update(row)
        print(format_row(str(stones), row))
    print(format_row("all", total))
    if args.show_guesses:
        for board in guesses:
            print("not proven:", "/".join(board.to_text()))


def format_row(label: str, row: Counter[str]) -> str:
    """One line of the table: answers by source, and the share proven."""
    answers = sum(row.values())
    proven = answers - row["heuristic"]
    counts = "  ".join(f"{row[name]:>9}" for name in SOURCES)
    return f"{label:>6}  {answers:>7}  {counts}  {proven / answers:>6.0%}"


if __name__ == "__main__":
    main()
