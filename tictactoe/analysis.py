"""Analyse a position within a time budget: a proof when there is time, else the best guess.

Positions in the opening book of their rules (``tictactoe.book``) are
answered from it at once.  Otherwise the exact solver gets the first try.  When the budget runs out before it
finishes (or the board is far too big for it to finish), iterative deepening
with a heuristic evaluation spends what is left and returns the best move it
found, marked not proven.  Nothing is reported as proven without a proof.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .board import Board
from .book import book_answer
from .deepening import deepen
from .errors import GameOverError
from .solver import SearchTimeout, SolveResult, Solver

DEFAULT_BUDGET = 1.0
# Boards with more empty cells than this are not given to the exact solver at
# all: it could not finish, and the heuristic search needs the whole budget.
EXACT_MAX_EMPTIES = 25
# On boards the solver may not finish, it gets this share of the budget.
EXACT_SHARE = 0.5
# Boards this small are always proven quickly: the solver gets the whole budget.
ALWAYS_EXACT_MAX_EMPTIES = 16
RETURN_MARGIN = 0.02  # seconds kept back from the budget for the search to unwind


def analyse(board: Board, budget: float | None = DEFAULT_BUDGET, all_moves: bool = False,
            solver: Solver | None = None,
            progress: Callable[[int, float], None] | None = None) -> SolveResult:
    """Solve the position if that fits in ``budget`` seconds, else return the best move found.

    ``budget=None`` means no limit (the exact solver runs to the end).  A
    position in the opening book is answered from it (``source`` is
    ``Source.BOOK``).  Raises ``GameOverError`` when the game is over.
    """
    if board.is_over():
        raise GameOverError("the game is over: there is no move to make")
    booked = book_answer(board, all_moves)
    if booked is not None:
        return booked
    start = time.monotonic()
    empties = board.empty.bit_count()
    if budget is None or empties <= EXACT_MAX_EMPTIES:
        solver = solver or Solver(board.rules)
        if budget is None:
            return solver.solve(board, all_moves=all_moves, progress=progress)
        share = 1.0 if empties <= ALWAYS_EXACT_MAX_EMPTIES else EXACT_SHARE
        try:
            return solver.solve(board, deadline=start + budget * share, all_moves=all_moves,
                                progress=progress)
        except SearchTimeout:
            pass
    # The deepening search notices its deadline between batches of nodes and
    # then unwinds: aim a little early so the answer is back within the budget.
    margin = min(RETURN_MARGIN, budget * 0.05)
    result = deepen(board, deadline=start + budget - margin, progress=progress)
    result.seconds = time.monotonic() - start
    return result
