"""Ordered alpha-beta plus a transposition table of bounds.

Source: alpha-beta as in ``alphabeta`` (Knuth & Moore 1975), the moves in
``alphabeta_ordered``'s order, and the table of ``table`` (Greenblatt et al.
1967; bounds as in Marsland 1986)::

    function ALPHABETA-TT(position, alpha, beta)
        if position is finished: return its utility for the side to move
        alpha0 := alpha
        probe TABLE: return a settled score, or narrow (alpha, beta)
        best := -infinity
        for each move in ORDER(position):
            best := max(best, -ALPHABETA-TT(position after move, -beta, -alpha))
            alpha := max(alpha, best)
            if alpha >= beta: break
        TABLE[position] := best, flagged against (alpha0, beta)
        return best

Why it prunes more than ``alphabeta-ordered``: every position reached again
by another move order is answered, or its window narrowed, from the table.

The search is ``alphabeta``'s own, which probes and stores a table when it
is given one; this engine gives it ``table.TranspositionTable``.

Node: one call of the search on a position, root, finished games and table
hits included.  The table is fresh for every search, so counts repeat.  The
principal variation stops where the search met an exact table entry.
"""

from __future__ import annotations

from ..game.phrase import Phrase
from .alphabeta_ordered import AlphaBetaOrdered
from .table import TranspositionTable


class AlphaBetaTT(AlphaBetaOrdered):
    """Ordered alpha-beta that remembers what it proved about each position."""

    name = "alphabeta-tt"
    description: str = Phrase("ordered alpha-beta with a transposition table of bounds")
    table = TranspositionTable
