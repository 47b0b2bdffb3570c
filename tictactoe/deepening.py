"""Iterative deepening with a heuristic evaluation, for positions too big to prove in time.

Placeholder contract (to be filled in): ``deepen(board, deadline, progress)``
returns an unproven ``SolveResult`` whose ``best_moves[0]`` is the move to play
and whose ``depth`` is the depth the search completed.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .board import Board
from .solver import SolveResult


def deepen(board: Board, deadline: float,
           progress: Callable[[int, float], None] | None = None) -> SolveResult:
    """The best move found by deepening until ``deadline`` (a ``time.monotonic()`` instant)."""
    start = time.monotonic()
    geometry = board.geometry
    me, opp = (board.x, board.o) if board.to_move == "x" else (board.o, board.x)
    empty = board.empty
    wins = geometry.winning_cells(me, empty)
    blocks = geometry.winning_cells(opp, empty)
    choice = wins or blocks
    if choice:
        move = geometry.cell_of[choice & -choice]
    else:
        move = next(cell for cell in geometry.order if empty & geometry.bits[cell])
    return SolveResult(value=None, plies=None, best_moves=[move], nodes=1,
                       seconds=time.monotonic() - start, proven=False, depth=0)
