"""A perfect m,n,k-game engine (tic-tac-toe and its bigger cousins) in pure Python.

The package never imports Flask: the web app, the command line and the tests
all use the same engine through the names below.
"""

from .game.board import Board, O, Outcome, Symmetry, X, other
from .game.errors import BoardFormatError, GameOverError, IllegalMoveError, IllegalPositionError
from .game.notation import MAX_TEXT_LENGTH, cell_from_label, cell_label
from .game.phrase import Choices, Phrase, Sentences
from .game.rules import MAX_SIZE, MIN_K, MIN_SIZE, Cell, Rules
from .game.values import Level, MoveValue, Player, Source, Status, Value
from .game.version import ENGINE_VERSION
from .lessons.attempts import Attempt, judge, puzzle_goal
from .lessons.puzzles import ID_PATTERN as PUZZLE_ID_PATTERN
from .lessons.puzzles import Puzzle, PuzzleSet, Task, puzzle_boards, puzzle_set
from .lessons.reasons import Reason, RuleAdvice, move_reasons, rule_advice
from .search.analysis import DEFAULT_BUDGET, analyse, within_proof
from .search.levels import (
    DEFAULT_LEVEL,
    LEVELS,
    PLAYS,
    QUICK_LEVELS,
    Decision,
    choose_move,
    pick_best,
    quick_candidates,
    quick_move,
)
from .search.solver import DRAW, LOSS, WIN, SearchTimeout, Solver, SolveResult, solve

__all__ = [
    "ENGINE_VERSION",
    "DEFAULT_BUDGET",
    "analyse",
    "within_proof",
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
    "DEFAULT_LEVEL",
    "LEVELS",
    "PLAYS",
    "QUICK_LEVELS",
    "Decision",
    "choose_move",
    "pick_best",
    "quick_candidates",
    "quick_move",
    "MAX_SIZE",
    "MIN_K",
    "MIN_SIZE",
    "MAX_TEXT_LENGTH",
    "cell_from_label",
    "cell_label",
    "Choices",
    "Phrase",
    "Sentences",
    "Cell",
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
    "Attempt",
    "judge",
    "puzzle_goal",
    "PUZZLE_ID_PATTERN",
    "Puzzle",
    "PuzzleSet",
    "Task",
    "puzzle_boards",
    "puzzle_set",
    "Reason",
    "RuleAdvice",
    "move_reasons",
    "rule_advice",
]
