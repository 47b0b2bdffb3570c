"""A perfect m,n,k-game engine (tic-tac-toe and its bigger cousins) in pure Python.

The package never imports Flask: the web app, the command line and the tests
all use the same engine through the names below.
"""

from .analysis import DEFAULT_BUDGET, analyse
from .board import Board, O, Outcome, Symmetry, X, other
from .errors import BoardFormatError, GameOverError, IllegalMoveError, IllegalPositionError
from .levels import LEVELS, Decision, choose_move, pick_best, quick_move
from .rules import MAX_SIZE, MIN_SIZE, Rules
from .solver import DRAW, LOSS, WIN, SearchTimeout, Solver, SolveResult, solve
from .values import Level, MoveValue, Player, Source, Status, Value

# Part of every shared-cache key: bump it whenever a stored result could change.
ENGINE_VERSION = "1"

__all__ = [
    "ENGINE_VERSION",
    "DEFAULT_BUDGET",
    "analyse",
    "O",
    "X",
    "Board",
    "Outcome",
    "Symmetry",
    "other",
    "BoardFormatError",
    "GameOverError",
    "IllegalMoveError",
    "IllegalPositionError",
    "LEVELS",
    "Decision",
    "choose_move",
    "pick_best",
    "quick_move",
    "MAX_SIZE",
    "MIN_SIZE",
    "Rules",
    "DRAW",
    "LOSS",
    "WIN",
    "Level",
    "Player",
    "Status",
    "Value",
    "Source",
    "MoveValue",
    "SearchTimeout",
    "SolveResult",
    "Solver",
    "solve",
]
