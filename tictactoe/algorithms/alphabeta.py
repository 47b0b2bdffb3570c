"""Alpha-beta pruning, in negamax form, moves in row-major order.

Source: Knuth & Moore, "An analysis of alpha-beta pruning" (Artificial
Intelligence 6, 1975), procedure F2, here fail-soft as in AIMA (ch. 5)::

    function ALPHABETA(position, alpha, beta) returns a score for the side to move
        if position is finished: return its utility for the side to move
        best := -infinity
        for each move in ORDER(position):
            best := max(best, -ALPHABETA(position after move, -beta, -alpha))
            alpha := max(alpha, best)
            if alpha >= beta: break      # cut-off
        return best

    called at the root as ALPHABETA(root, -infinity, +infinity)

Why it prunes: alpha is what the side to move is already sure of elsewhere,
beta what the opponent is sure of.  Once a move here scores beta or more,
the opponent will never let the game reach this position, so its other moves
cannot matter.  The result is exact inside (alpha, beta); at or below alpha
it is an upper bound, at or above beta a lower bound.

Node: one call of ``alphabeta`` on a position, the root and finished games
included.  The node count depends on the move order: see ``alphabeta_ordered``.

The same search serves the engines built on this one: ``alphabeta-ordered``
changes ``order``, ``alphabeta-tt`` gives it a transposition table (here the
table is a ``NoTable``, whose probe and store change nothing), and
``negascout`` changes how each child is scored (``child_score``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..game.board import Board
from ..game.phrase import Phrase
from ..game.rules import Cell
from .base import BELOW_ANY_SCORE, INFINITY, EngineResult, NodeClock, Score, depth_first_result, utility
from .minimax import row_major
from .table import NoTable, TranspositionTable
from .trace import CUT, EXACT, FAIL_LOW, HIT, LEAF, Tracer

# The recursive search, as the engines built on alpha-beta call it:
# (board, alpha, beta, line to fill) -> score for the side to move.
Search = Callable[[Board, float, float, list[Cell]], Score]


class AlphaBeta:
    """Alpha-beta with the moves in row-major order: exact, the same value as minimax."""

    name = "alphabeta"
    description: str = Phrase("alpha-beta pruning (Knuth & Moore 1975), row-major order")
    table: type[TranspositionTable] = NoTable  # a fresh one for every search

    def order(self, board: Board) -> list[Cell]:
        """The order the moves are tried in: row-major."""
        return row_major(board)

    @staticmethod
    def child_score(
        search: Search, board: Board, index: int, alpha: float, beta: float, line: list[Cell]
    ) -> Score:
        """The score of the move just played (the ``index``-th tried): its child, window negated."""
        return -search(board, -beta, -alpha, line)

    def search(
        self,
        board: Board,
        deadline: float | None = None,
        rng: random.Random | None = None,
        max_nodes: int | None = None,
        tracer: Tracer | None = None,
    ) -> EngineResult:
        """Search ``board`` to the end with alpha-beta; see ``Engine``.

        ``tracer``, when given, sees every node (trace.py).
        """
        clock = NodeClock(deadline, max_nodes)
        order = self.order
        table = self.table()
        child_score = self.child_score

        def alphabeta(board: Board, alpha: float, beta: float, line: list[Cell]) -> Score:
            clock.visit()
            if tracer is not None:
                tracer.enter(board, alpha, beta)
            outcome = board.outcome()
            if outcome is not None:
                clock.leaves += 1
                leaf = utility(outcome)
                if tracer is not None:
                    tracer.leave(leaf, LEAF)
                return leaf
            alpha0 = alpha
            known, alpha, beta = table.probe(board, alpha, beta)
            if known is not None:
                if tracer is not None:
                    tracer.leave(known, HIT)
                return known
            best = BELOW_ANY_SCORE
            cut = -1  # the index of the move that reached beta, if one did
            moves = order(board)
            for index, move in enumerate(moves):
                board.play(move)
                child_line: list[Cell] = []
                score = child_score(alphabeta, board, index, alpha, beta, child_line)
                board.undo()
                if score > best:
                    best = score
                    if best > alpha:
                        alpha = best
                        line[:] = [move, *child_line]
                        if alpha >= beta:
                            cut = index
                            break  # the opponent will not allow this position
            table.store(board, best, alpha0, beta)
            if tracer is not None:
                tracer.leave(best, CUT if cut >= 0 else FAIL_LOW if best <= alpha0 else EXACT, moves, cut)
            return best

        return depth_first_result(
            board, clock, lambda root, line: alphabeta(root, -INFINITY, INFINITY, line), order
        )
