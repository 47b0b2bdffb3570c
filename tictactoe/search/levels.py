"""Levels of play: how the engine picks a move, from perfect to beatable.

- ``perfect`` never gives up value: the fastest win, the slowest loss, and a
  random choice among equally good moves so that games vary;
- ``medium`` wins in one when it can, blocks a loss in one, else plays at random;
- ``easy`` plays at random, but takes a win in one.

Randomness comes from the ``rng`` argument (a ``random.Random``), so tests seed it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..game.board import Board
from ..game.errors import GameOverError
from ..game.rules import Cell
from ..game.values import Level
from .analysis import DEFAULT_BUDGET, analyse
from .solver import Solver, SolveResult

# Every level, weakest first: what the API, the pages and the command line accept.
LEVELS = tuple(Level)


@dataclass
class Decision:
    """The move a level chose, and the analysis behind it when there was one."""

    move: Cell
    result: SolveResult | None = None


def pick_best(result: SolveResult, rng: random.Random) -> Cell:
    """A move among the result's best: any of them when proven, else the one found first."""
    if result.proven:
        return rng.choice(result.best_moves)
    return result.best_moves[0]


def quick_move(board: Board, level: Level, rng: random.Random) -> Cell:
    """The move of the ``easy`` or ``medium`` level (no search needed).

    Raises ``GameOverError`` when the game is over, ``ValueError`` for another level.
    """
    if level not in (Level.EASY, Level.MEDIUM):
        raise ValueError(f"unknown quick level {level!r}")
    moves = board.legal_moves()
    if not moves:
        raise GameOverError()
    geometry = board.geometry
    me, opp = (board.x, board.o) if board.to_move == "x" else (board.o, board.x)
    urgent = geometry.winning_cells(me, board.empty)
    if not urgent and level == Level.MEDIUM:
        urgent = geometry.winning_cells(opp, board.empty)
    if urgent:
        return rng.choice(geometry.cells_of(urgent))
    return rng.choice(moves)


def choose_move(
    board: Board,
    level: Level = Level.PERFECT,
    rng: random.Random | None = None,
    budget: float | None = DEFAULT_BUDGET,
    solver: Solver | None = None,
) -> Decision:
    """The move the given level plays on this board.

    Raises ``ValueError`` for an unknown level and ``GameOverError`` when the game is over.
    """
    rng = rng or random.Random()
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    if level == Level.PERFECT:
        result = analyse(board, budget=budget, solver=solver)
        return Decision(pick_best(result, rng), result)
    return Decision(quick_move(board, level, rng))
