"""The five-in-a-row tactics suite: puzzles solved by the engine's move at a budget, by kind.

Each puzzle (``bench/data/tactics-15x15k5.jsonl``, one JSON object a line,
labelled by ``bench/tactics_label.py``) is a 15x15 k=5 position in the
position text (``GET /position``'s) with its kind and answers as cell labels
(``h8``: column letter, row from 1 at the top)::

    {
        "kind": "defence",
        "position": "15/15/.../7x7",
        "answers": ["g7", "k7"],
        "depth": 3,
        "source": "random game 12 seed 1, ply 23",
    }

- ``attack``: the side to move has a forced win; the answers are first moves
  the long labelling search proved to win.  Solved when the engine plays one
  of them, or reports its move a proven win (its threat proofs are proofs).
- ``defence``: the opponent threatens a forced win; the answers are the moves
  after which the labelling search found none.  Solved when the engine plays one.

The runner gives each puzzle the move's own search (``analyse``, as ``/move``
runs it, with its threat search, its defences and its heuristic search), at
the budget of a move:

    .venv/bin/python bench/tactics_suite.py                     # 1 s a move, on the wall clock
    .venv/bin/python bench/tactics_suite.py --node-time          # 1 s of nodes: load-free
    .venv/bin/python bench/tactics_suite.py --compare DIR        # another checkout's engine, side by side

``--node-time`` counts the budget in nodes (``tictactoe.game.clock.NodeTime``):
a threat-search node costs ``1 / --threat-rate`` seconds and a heuristic one
``1 / --deepening-rate``, the speeds of today's engine on one core, so
the figure is the same on a loaded machine.  It prints a line a puzzle on
stderr and the table on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

# Appended, not put first: under --compare the other checkout comes first on PYTHONPATH and must win.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from tictactoe.game.board import Board
from tictactoe.game.notation import COLUMN_LETTERS, cell_label
from tictactoe.game.rules import Cell, Rules

SUITE = Path(__file__).resolve().parent / "data" / "tactics-15x15k5.jsonl"
KINDS = ("attack", "defence")
BUDGET = 1.0  # seconds a move: the /move budget
# Nodes a second of today's engine on one core of the 2-core machine, what --node-time charges a
# node of each search: the threat search's, bench/threat_speed.py's total; the heuristic search's,
# a deepening to depth 4 of the solver bench's 15x15 position (``python bench/tactics_suite.py
# --deepening-speed``).
THREAT_RATE = 93_000
DEEPENING_RATE = 75_000
SPEED_DEPTH = 4


@dataclass(frozen=True)
class Puzzle:
    """A position, its kind (``attack``, ``defence``), the cells that solve it, where it came from.

    ``depth`` is the threats of the labelling's win (the side to move's for an
    attack, the opponent's for a defence).
    """

    kind: str
    board: Board
    answers: frozenset[Cell]
    source: str
    depth: int


def labels_of(rules: Rules, cells: Iterable[Cell]) -> list[str]:
    """The cells' labels (``h8``), in cell order."""
    return [cell_label(rules, cell) for cell in sorted(cells)]


def cells_from_labels(rules: Rules, labels: Iterable[str]) -> list[Cell]:
    """The cells of labels such as ``h8``; raises ``ValueError`` for a label off the board."""
    return [rules.cell(int(label[1:]) - 1, COLUMN_LETTERS.index(label[0])) for label in labels]


def write_puzzle(out: IO[str], puzzle: Puzzle) -> None:
    """Write one puzzle as a line of the suite."""
    entry = {
        "kind": puzzle.kind,
        "position": puzzle.board.position_text(),
        "answers": labels_of(puzzle.board.rules, puzzle.answers),
        "depth": puzzle.depth,
        "source": puzzle.source,
    }
    out.write(json.dumps(entry) + "\n")


def read_suite(path: Path = SUITE) -> list[Puzzle]:
    """The puzzles of a suite file, in order."""
    puzzles = []
    with open(path) as lines:
        for line in lines:
            entry = json.loads(line)
            board = Board.from_position_text(entry["position"], k=5)
            answers = frozenset(cells_from_labels(board.rules, entry["answers"]))
            puzzles.append(Puzzle(entry["kind"], board, answers, entry["source"], entry["depth"]))
    return puzzles


def solve(puzzle: Puzzle, budget: float, rates: tuple[float, float] | None) -> tuple[bool, int]:
    """Whether the engine's move at ``budget`` (of nodes with ``rates``) solves the puzzle; its move."""
    from tictactoe.game.values import Value
    from tictactoe.search.analysis import analyse

    if rates is None:
        result = analyse(puzzle.board.copy(), budget=budget)
    else:
        from tictactoe.game.clock import DEEPENING, THREATS, NodeTime

        timer = NodeTime({THREATS: rates[0], DEEPENING: rates[1]})
        result = analyse(puzzle.board.copy(), budget=budget, timer=timer)
    move = result.best_moves[0]
    proven_win = puzzle.kind == "attack" and result.proven and result.value == Value.WIN
    return move in puzzle.answers or proven_win, move


def run(path: Path, budget: float, rates: tuple[float, float] | None) -> list[bool]:
    """Solve every puzzle in turn; a line each on stderr."""
    solved = []
    for number, puzzle in enumerate(read_suite(path), 1):
        started = time.monotonic()
        ok, move = solve(puzzle, budget, rates)
        solved.append(ok)
        print(
            f"{number}: {puzzle.kind} {'solved' if ok else 'missed'}"
            f" ({cell_label(puzzle.board.rules, move)}; {time.monotonic() - started:.2f} s)",
            file=sys.stderr,
            flush=True,
        )
    return solved


def tally(path: Path, solved: list[bool]) -> dict[str, tuple[int, int]]:
    """Solved and total by kind (and ``all``)."""
    kinds = [puzzle.kind for puzzle in read_suite(path)]
    counts = {
        kind: (sum(ok for k, ok in zip(kinds, solved, strict=True) if k == kind), kinds.count(kind))
        for kind in KINDS
    }
    counts["all"] = (sum(solved), len(solved))
    return counts


def deepening_speed() -> tuple[int, float]:
    """Nodes and CPU seconds (fastest of three) of a deepening to ``SPEED_DEPTH`` of the gomoku board."""
    from tictactoe.search.deepening import iterate
    from tictactoe.tools.bench import GOMOKU_MIDDLE_GAME

    board = Board.from_text(GOMOKU_MIDDLE_GAME.split(), k=5)
    fastest, nodes = float("inf"), 0
    for _ in range(3):
        started = time.process_time()
        for found in iterate(board, max_depth=SPEED_DEPTH):
            nodes = found.nodes
        fastest = min(fastest, time.process_time() - started)
    return nodes, fastest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", type=Path, default=SUITE)
    parser.add_argument("--budget", type=float, default=BUDGET, help="seconds a move (default 1.0)")
    parser.add_argument("--node-time", action="store_true", help="count the budget in nodes")
    parser.add_argument("--threat-rate", type=float, default=THREAT_RATE, help="threat nodes a second")
    parser.add_argument(
        "--deepening-rate", type=float, default=DEEPENING_RATE, help="heuristic nodes a second"
    )
    parser.add_argument(
        "--compare", metavar="CHECKOUT", help="also run another checkout's engine, after this one"
    )
    parser.add_argument("--json", action="store_true", help="print the solved flags as JSON")
    parser.add_argument(
        "--deepening-speed", action="store_true", help="print the heuristic search's nodes a second, and stop"
    )
    args = parser.parse_args()
    if args.deepening_speed:
        nodes, seconds = deepening_speed()
        print(f"{nodes:,} nodes in {seconds:.3f} s of CPU: {nodes / seconds:,.0f} nodes a second")
        return 0
    rates = (args.threat_rate, args.deepening_rate) if args.node_time else None
    started = time.monotonic()
    solved = run(args.suite, args.budget, rates)
    seconds = time.monotonic() - started
    if args.json:
        print(json.dumps(solved))
        return 0
    columns = [("engine", tally(args.suite, solved), seconds)]
    if args.compare:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([args.compare, os.getcwd()])}
        command = [sys.executable, os.path.abspath(__file__), "--json", *sys.argv[1:]]
        command.remove("--compare")
        command.remove(args.compare)
        started = time.monotonic()
        other = json.loads(subprocess.check_output(command, env=env, text=True))
        columns.append((f"{args.compare}", tally(args.suite, other), time.monotonic() - started))
    clock = f"{args.budget:g} s of nodes" if rates else f"{args.budget:g} s"
    print(f"| engine ({clock} a move) | attack | defence | all | minutes |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, counts, spent in columns:
        cells = " | ".join(f"{counts[kind][0]}/{counts[kind][1]}" for kind in (*KINDS, "all"))
        print(f"| {name} | {cells} | {spent / 60:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
