"""Alpha-beta with move ordering: wins, then blocks, then the centre, corners and edges.

Source: Knuth & Moore (1975) showed that alpha-beta visits about the square
root of the tree's leaves when the best move is always tried first (the
minimal tree), and every move when the worst is; move ordering is how real
programs get close to the best case.  The search itself is ``alphabeta``'s,
unchanged; only ORDER differs::

    ORDER(position) = immediate wins, then cells that block the opponent's
                      immediate wins, then the rest, most central first

"Most central" is ``Geometry.order``: cells on more winning lines first (on
3x3 the centre lies on 4 lines, a corner on 3, an edge on 2), then nearer the
centre, so it generalises from 3x3 to any m,n,k board.

Why it prunes more: a winning move tried first scores the best there is, so
the remaining moves are refuted at once; a forced block is usually the only
move that does not lose, so it raises alpha before the others are tried; and
central cells are more often best, which makes cut-offs come early.

Node: one call of the search on a position, root and finished games included.
"""

from __future__ import annotations

from ..game.board import Board, other
from ..game.phrase import Phrase
from ..game.rules import Cell
from .alphabeta import AlphaBeta


def ordered_moves(board: Board) -> list[Cell]:
    """The legal moves: winning cells, then blocking cells, then by ``Geometry.order``."""
    geometry = board.geometry
    empty = board.empty
    wins = geometry.winning_cells(board.stones_of(board.to_move), empty)
    blocks = geometry.winning_cells(board.stones_of(other(board.to_move)), empty)
    bits = geometry.bits

    def urgency(cell: Cell) -> int:
        bit = bits[cell]
        return 0 if wins & bit else 1 if blocks & bit else 2

    # sorted() is stable: within each tier the cells stay in central-first order.
    return sorted((cell for cell in geometry.order if empty & bits[cell]), key=urgency)


class AlphaBetaOrdered(AlphaBeta):
    """Alpha-beta trying wins, then blocks, then central cells first."""

    name = "alphabeta-ordered"
    description: str = Phrase("alpha-beta with move ordering: wins, blocks, then centre, corners, edges")

    def order(self, board: Board) -> list[Cell]:
        """The order the moves are tried in: see ``ordered_moves``."""
        return ordered_moves(board)
