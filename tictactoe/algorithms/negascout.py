"""NegaScout (principal variation search): alpha-beta that asks later moves only yes/no.

Source: Reinefeld, "An improvement to the Scout tree search algorithm"
(ICCA Journal 6(4), 1983), after Pearl's Scout (1980); Marsland & Campbell
(1982) call the same idea principal variation search::

    function NEGASCOUT(position, alpha, beta)
        if position is finished: return its utility for the side to move
        probe TABLE: return a settled score, or narrow (alpha, beta)
        best := -infinity
        for each move in ORDER(position), the first one first:
            if first: score := -NEGASCOUT(child, -beta, -alpha)
            else:     score := -NEGASCOUT(child, -alpha - 1, -alpha)   # null window
                      if alpha < score < beta:                         # it failed high:
                          score := -NEGASCOUT(child, -beta, -alpha)    # search it again
            best := max(best, score)
            alpha := max(alpha, score)
            if alpha >= beta: break
        store best in TABLE, flagged against the window
        return best

Why it prunes more: if the first move is best, every later move only has to
be shown no better.  A null window (alpha, alpha + 1) asks just that yes/no
question, and it cuts more than the full window would; a move that turns out
better is searched again with the real window.  Scores are integers (-1, 0,
+1), so alpha + 1 is the smallest score above alpha.

The re-search uses the full window (alpha, beta), as principal variation
search does, so that it finds the line as well as the score.  Reinefeld
re-searches from the bound the null window gave, (score, beta): on the empty
board that saves more nodes (17,082 instead of 18,016), but the true score
then lands on the edge of the window, fails low, and the line is lost.

What it builds on: the registered ``negascout`` is ``alphabeta`` (row-major
order, no table) with null windows, so that the comparison isolates the one
idea.  ``NegaScout(ordered_moves, TranspositionTable)`` builds on
``alphabeta-tt`` instead: it saves nodes on the empty board, but after X takes
the centre it visits exactly as many as ``alphabeta-tt`` (docs/lab.md): with
only three scores and an ordering that already tries the best move first,
every later move fails low just as fast with either window.

The code is ``alphabeta``'s search with ``child_score`` replaced: the
window each child is searched with is the whole difference.

Node: one call of the search on a position, root, finished games, table
hits and re-searches included.  A table is fresh for every search.
"""

from __future__ import annotations

from collections.abc import Callable

from ..game.board import Board
from ..game.phrase import Phrase
from ..game.rules import Cell
from .alphabeta import AlphaBeta, Search
from .base import Score
from .minimax import row_major
from .table import NoTable, TranspositionTable


class NegaScout(AlphaBeta):
    """Principal variation search: a full window for the first move, null windows after."""

    def __init__(
        self,
        order: Callable[[Board], list[Cell]] = row_major,
        table: type[TranspositionTable] = NoTable,
        name: str = "negascout",
        description: str = Phrase(
            "NegaScout / principal variation search (Reinefeld 1983): alphabeta's row-major search with"
            " null windows"
        ),
    ) -> None:
        self.move_order = order
        self.table = table
        self.name = name
        self.description: str = description

    def order(self, board: Board) -> list[Cell]:
        """The order the moves are tried in: the one this search was built with."""
        return self.move_order(board)

    @staticmethod
    def child_score(
        search: Search, board: Board, index: int, alpha: float, beta: float, line: list[Cell]
    ) -> Score:
        """The first move's score in the full window; the others' by a null window first."""
        if index == 0:
            return -search(board, -beta, -alpha, line)
        score = -search(board, -alpha - 1, -alpha, line)
        if alpha < score < beta:
            # The null window only proved "better than alpha": find by how much.
            line.clear()
            score = -search(board, -beta, -alpha, line)
        return score
