"""Benchmarks of the engine: ``python -m tictactoe bench [--quick] [--only NAME]``.

Each row is one measurement, printed as soon as it finishes, with its nodes,
its time and what it found.  Every solve starts from a cold table (a new
``Solver``) unless the row says otherwise, so rows do not help each other.
Long rows report progress on stderr; nothing here has a timeout, so a slow
solver shows up as a slow row rather than as a missing one.  See
``docs/benchmarks.md`` for what each row means and recent results.
"""

from __future__ import annotations

import os
import platform
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from ..game.board import Board
from ..game.clock import Progress
from ..game.notation import cell_label
from ..game.rules import Rules
from ..game.values import Level, Value
from ..game.version import ENGINE_VERSION
from ..search.analysis import analyse
from ..search.levels import choose_move
from ..search.solver import Solver, solve
from .console import Column, ProgressLine, Table, format_seconds, outcome_text
from .counting import reachable_positions

# A freestyle-gomoku middle game (from a game of the engine against itself,
# the first 6 stones random near the centre): 10 stones each, x to move, no
# four and no win found within a second, so the search uses all its budget.
GOMOKU_MIDDLE_GAME = """
    ...............
    ...............
    ...............
    ..........o....
    ......xxox.....
    ......oox.o....
    .....o.xox.....
    ......o.xoo....
    .......x..x....
    .......x.......
    ...............
    ...............
    ...............
    ...............
    ...............
"""
GOMOKU_BUDGET = 1.0
SELFPLAY_SEED = 0


@dataclass(frozen=True)
class Measurement:
    """What one row measured: search nodes, wall-clock seconds, and what was found."""

    nodes: int
    seconds: float
    found: str


@dataclass(frozen=True)
class Row:
    """One benchmark: its name (for ``--only``), what it measures, and how to run it."""

    name: str
    about: str
    run: Callable[[Progress], Measurement]
    slow: bool = False


def empty_board_row(name: str, rules: Rules, slow: bool = False) -> Row:
    """A row that solves the empty board of these rules from a cold table."""

    def run(progress: Progress) -> Measurement:
        result = solve(Board(rules), progress=progress)
        return Measurement(result.nodes, result.seconds, f"{result.value} in {result.plies}")

    return Row(name, f"the empty {rules} board, solved from a cold table", run, slow)


def all_positions(progress: Progress) -> Measurement:
    """Solve every non-terminal 3x3 position, each from a cold table."""
    values: Counter[Value | None] = Counter()
    nodes = 0
    start = time.monotonic()
    for board in reachable_positions():
        if board.is_over():
            continue
        result = solve(board)
        values[result.value] += 1
        nodes += result.nodes
        progress(nodes, time.monotonic() - start)
    found = ", ".join(f"{values[value]:,} {value}" for value in Value)
    return Measurement(nodes, time.monotonic() - start, f"{sum(values.values()):,}: {found}")


def perfect_selfplay(progress: Progress) -> Measurement:
    """One 3x3 game, perfect against perfect, each side with its own table kept between moves."""
    rules = Rules()
    board = Board(rules)
    rng = random.Random(SELFPLAY_SEED)
    solvers = {"x": Solver(rules), "o": Solver(rules)}
    nodes = 0
    start = time.monotonic()
    while not board.is_over():
        decision = choose_move(board, Level.PERFECT, rng, budget=None, solver=solvers[board.to_move])
        assert decision.result is not None, "the perfect level always searches"
        nodes += decision.result.nodes
        board.play(decision.move)
        progress(nodes, time.monotonic() - start)
    return Measurement(nodes, time.monotonic() - start, outcome_text(board))


def gomoku_move(progress: Progress) -> Measurement:
    """One move of 15x15 gomoku (k=5) from a middle game, within a one-second budget."""
    board = Board.from_text(GOMOKU_MIDDLE_GAME.split(), k=5)
    result = analyse(board, budget=GOMOKU_BUDGET, progress=progress)
    move = cell_label(board.rules, result.best_moves[0])
    depth = "proven" if result.proven else f"depth {result.depth}"
    return Measurement(result.nodes, result.seconds, f"{move}, {depth}")


ROWS = (
    empty_board_row("3x3", Rules(3, 3, 3)),
    empty_board_row("4x4k4", Rules(4, 4, 4)),
    empty_board_row("4x5k4", Rules(4, 5, 4)),
    empty_board_row("5x4k4", Rules(5, 4, 4)),
    empty_board_row("5x5k4", Rules(5, 5, 4), slow=True),
    Row("3x3-all", "all 4,520 non-terminal 3x3 positions, each from a cold table", all_positions),
    Row("3x3-selfplay", "one 3x3 game, perfect against perfect", perfect_selfplay),
    Row("gomoku", f"one 15x15 k=5 middle-game move in {GOMOKU_BUDGET:g} s", gomoku_move),
)


def select_rows(quick: bool = False, only: Sequence[str] | None = None) -> list[Row]:
    """The rows to run: those named in ``only`` (all by default), less the slow ones if ``quick``.

    Raises ``ValueError`` naming the known rows when a name is unknown.
    """
    names = [row.name for row in ROWS]
    unknown = [name for name in only or () if name not in names]
    if unknown:
        raise ValueError(f"unknown benchmark {', '.join(unknown)}: choose from {', '.join(names)}")
    return [row for row in ROWS if (not only or row.name in only) and not (quick and row.slow)]


def machine_text() -> str:
    """The Python and the machine the numbers come from."""
    return (
        f"python: {platform.python_implementation()} {platform.python_version()}\n"
        f"machine: {platform.platform()}, {platform.machine()},"
        f" {os.cpu_count()} cores\n"
    )


TABLE = Table(
    Column("name", 13, left=True), Column("nodes", 13), Column("time", 10), Column("result", 0, left=True)
)


def run_bench(
    out: TextIO, err: TextIO, quick: bool = False, only: Sequence[str] | None = None
) -> list[Measurement]:
    """Run the selected rows, printing the table to ``out`` and progress to ``err``.

    Returns the measurements in row order.  Raises ``ValueError`` for an unknown row name.
    """
    rows = select_rows(quick, only)
    out.write(f"tictactoe bench, engine {ENGINE_VERSION}\n{machine_text()}\n")
    out.write(TABLE.header() + "\n")
    out.flush()
    measurements = []
    for row in rows:
        progress = ProgressLine(err, row.name)
        try:
            measurement = row.run(progress)
        finally:
            progress.finish()
        measurements.append(measurement)
        out.write(
            TABLE.row(row.name, measurement.nodes, format_seconds(measurement.seconds), measurement.found)
            + "\n"
        )
        out.flush()
    skipped = [row.name for row in ROWS if row not in rows]
    if skipped:
        out.write(f"\nnot run: {', '.join(skipped)}\n")
    return measurements
