"""Levels of play: how the engine picks a move, from perfect to beatable.

- ``perfect`` never gives up value: the fastest win, the slowest loss, and a
  random choice among equally good moves so that games vary;
- ``medium`` wins in one when it can, blocks a loss in one, else plays at random;
- ``easy`` plays at random, but takes a win in one.

Randomness comes from the ``rng`` argument (a ``random.Random``), so tests seed it;
without one the choice is reproducible: the first of the best moves, or a quick
level's draw from ``random.Random(0)``.

``choose_move`` is the one place that says which move a level plays: the
command line, the benchmarks, the teaching interface's ``perfect`` engine and
the web layer all call it, each with the analysis it has (the web layer's goes
through its shared cache of solved positions).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, overload

from ..game.board import Board
from ..game.errors import GameOverError
from ..game.rules import Cell
from ..game.values import Level
from .analysis import DEFAULT_BUDGET, analyse
from .solver import Solver, SolveResult


@dataclass(frozen=True)
class Play:
    """How a level plays: what it does in a line, and whether it blocks a loss in one.

    ``quick``: it searches nothing (its move follows from the board and a random
    draw: a win in one, then with ``blocks`` a block, else any move); otherwise
    it plays the best move of the analysis its caller hands ``choose_move``.
    """

    description: str
    quick: bool = False
    blocks: bool = False


# Every level, weakest first, one entry each: the engine plays it, and the API, its document,
# the pages, the arena and the command line list it and say what it does from here.
PLAYS: dict[Level, Play] = {
    Level.EASY: Play("random moves, but takes a win in one", quick=True),
    Level.MEDIUM: Play("takes a win in one, blocks a loss in one, else random", quick=True, blocks=True),
    Level.PERFECT: Play(
        "the best move where it is proven (the fastest win, the slowest loss, at random among"
        " equally good moves), so it never loses there; where the board is too big to prove,"
        " its best guess within the time limit"
    ),
}
LEVELS = tuple(PLAYS)
# The levels that search nothing: their moves follow from the board and a random draw.
QUICK_LEVELS = tuple(level for level, play in PLAYS.items() if play.quick)
# The level a request that names none gets: the API's default, and the embed's.
DEFAULT_LEVEL = Level.PERFECT
# What each level does, in a line.
LEVEL_DESCRIPTIONS: dict[Level, str] = {level: play.description for level, play in PLAYS.items()}


# The analysis a caller hands ``choose_move``: the solver's, or one with a cache in front of it.
Found = TypeVar("Found", bound=SolveResult)


@dataclass
class Decision(Generic[Found]):
    """The move a level chose, and the analysis behind it when there was one (the perfect level's)."""

    move: Cell
    result: Found | None = None


def pick_best(result: SolveResult, rng: random.Random | None) -> Cell:
    """A move among the result's best: any of them when proven (the first without ``rng``), else the first."""
    if result.proven and rng is not None:
        return rng.choice(result.best_moves)
    return result.best_moves[0]


def quick_candidates(board: Board, level: Level) -> list[Cell]:
    """The moves a quick level draws from, each as likely, in cell order.

    The cells that win at once, else (for a level that ``blocks``) those that stop the
    opponent's win in one, else every legal move.  Raises ``GameOverError`` when the
    game is over, ``ValueError`` for a level that searches.
    """
    play = PLAYS.get(level)
    if play is None or not play.quick:
        raise ValueError(f"unknown quick level {level!r}")
    moves = board.legal_moves()
    if not moves:
        raise GameOverError()
    geometry = board.geometry
    me, opp = board.sides()
    urgent = geometry.winning_cells(me, board.empty)
    if not urgent and play.blocks:
        urgent = geometry.winning_cells(opp, board.empty)
    return geometry.cells_of(urgent) if urgent else moves


def quick_move(board: Board, level: Level, rng: random.Random) -> Cell:
    """The move of the ``easy`` or ``medium`` level (no search needed): ``rng``'s choice of its candidates.

    Raises ``GameOverError`` when the game is over, ``ValueError`` for another level.
    """
    return rng.choice(quick_candidates(board, level))


@overload
def choose_move(
    board: Board,
    level: Level = Level.PERFECT,
    rng: random.Random | None = None,
    budget: float | None = DEFAULT_BUDGET,
    solver: Solver | None = None,
) -> Decision[SolveResult]: ...


@overload
def choose_move(
    board: Board, level: Level, rng: random.Random | None, *, analyst: Callable[[Board], Found]
) -> Decision[Found]: ...


def choose_move(
    board: Board,
    level: Level = Level.PERFECT,
    rng: random.Random | None = None,
    budget: float | None = DEFAULT_BUDGET,
    solver: Solver | None = None,
    analyst: Callable[[Board], Any] | None = None,
) -> Decision[Any]:
    """The move the given level plays on this board.

    The perfect level plays a best move of ``analyst(board)``, by default
    ``analyse`` within ``budget`` with ``solver``; the other levels search nothing.
    Raises ``ValueError`` for an unknown level and ``GameOverError`` when the game is over.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    if not PLAYS[level].quick:
        board.require_moves()
        result = analyst(board) if analyst is not None else analyse(board, budget=budget, solver=solver)
        return Decision(pick_best(result, rng), result)
    return Decision(quick_move(board, level, rng or random.Random(0)))
