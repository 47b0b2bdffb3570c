"""Plain minimax, in negamax form: the whole game tree, nothing pruned.

Source: von Neumann (1928) for the minimax theorem; the negamax form (one
function for both sides, negating the child's score) as in Knuth & Moore
(1975), section 2.  Textbook pseudocode (Russell & Norvig, AIMA, ch. 5)::

    function NEGAMAX(position) returns a score for the side to move
        if position is finished: return its utility for the side to move
        best := -infinity
        for each move in position's moves, in row-major order:
            best := max(best, -NEGAMAX(position after move))
        return best

It prunes nothing: every legal move of every position is searched until the
game ends (a line or a full board), so its node count is the size of the
game tree.  Node: one call of ``negamax`` on a position, the root and every
finished game included: 549,946 from the empty 3x3 board.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..game.board import Board
from ..game.phrase import Phrase
from ..game.rules import Cell
from .base import BELOW_ANY_SCORE, EngineResult, NodeClock, Score, depth_first_result, utility
from .trace import EXACT, LEAF, Tracer

# Called with each position and the score just computed for it (the tests use
# it to check every position's value in one pass over the tree).
ValueHook = Callable[[Board, Score], None]


def row_major(board: Board) -> list[Cell]:
    """The legal moves in row-major order: the textbook's 'for each move'."""
    return board.legal_moves()


class Minimax:
    """Plain minimax: exact, and exponentially slow (the whole tree)."""

    name = "minimax"
    description: str = Phrase("plain minimax: the whole game tree, row-major order, no pruning")

    def __init__(self, on_value: ValueHook | None = None) -> None:
        self.on_value = on_value

    def search(
        self,
        board: Board,
        deadline: float | None = None,
        rng: random.Random | None = None,
        max_nodes: int | None = None,
        tracer: Tracer | None = None,
    ) -> EngineResult:
        """Search the whole tree below ``board``; see ``Engine``.  ``tracer`` sees every node (trace.py)."""
        clock = NodeClock(deadline, max_nodes)
        on_value = self.on_value

        def negamax(board: Board, line: list[Cell]) -> Score:
            clock.visit()
            if tracer is not None:
                tracer.enter(board)  # no window: minimax has none
            outcome = board.outcome()
            if outcome is not None:
                clock.leaves += 1
                best = utility(outcome)
                if tracer is not None:
                    tracer.leave(best, LEAF)
            else:
                best = BELOW_ANY_SCORE
                for move in row_major(board):
                    board.play(move)
                    child_line: list[Cell] = []
                    score = -negamax(board, child_line)
                    board.undo()
                    if score > best:
                        best = score
                        line[:] = [move, *child_line]
                if tracer is not None:
                    tracer.leave(best, EXACT)
            if on_value is not None:
                on_value(board, best)
            return best

        return depth_first_result(board, clock, negamax, row_major)
