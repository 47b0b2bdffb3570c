"""What each side can see on a board: the cells where it wins, threatens, forks, or makes an open line.

The facts a learner reads off a position, for one side (drawn for k = 3)::

    x x .      a *winning cell* (c1): one more stone there makes k in a row
    . o .
    x . .      a *fork cell* (a2): a stone there makes two winning cells at once

- ``wins``: the empty cells where a stone of the side makes k in a row;
- ``threats``: the empty cells where a stone makes a winning cell (a *threat*:
  k-1 in a window, the rest empty; on five in a row, a *four*);
- ``forks``: the empty cells where a stone makes two winning cells or more (a
  *fork*, or on bigger boards a *double threat*: an open four, two fours);
- ``open_cells`` and ``open_makers`` (k >= 4 only): the cells of the side's
  *open k-2* lines (on five in a row an *open three*: one more stone there
  makes a fork) and the cells where a stone makes a new one, as the threat
  search reads them (``tictactoe.tactics``).

Windows that hold a stone of the other side do not count.  ``sight(board)``
reads both sides at once, by their names (``x``, ``o``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game.board import Board
from ..game.rules import Bitboard, Geometry, one_bits
from ..game.values import Player
from ..tactics.threats import ThreatSearch

# Below this k there are no open lines to speak of: k-2 stones are one stone.
OPEN_MIN_K = 4


@dataclass(frozen=True)
class Side:
    """One side's cells of each kind, as bitboards of empty cells (see the module docstring)."""

    wins: Bitboard
    threats: Bitboard
    forks: Bitboard
    open_cells: Bitboard = 0
    open_makers: Bitboard = 0


@dataclass(frozen=True)
class Sight:
    """Both sides' cells on one position, and the empty cells."""

    x: Side
    o: Side
    empty: Bitboard

    def of(self, player: Player) -> Side:
        """The cells of ``player``."""
        return self.x if player == "x" else self.o


def sight(board: Board) -> Sight:
    """What each side can see on ``board`` (a finished game too: its cells are then read as they stand)."""
    geometry = board.geometry
    empty = board.empty
    # The threat search reads open lines from its line tables; one per reading (it moves its
    # stones to the position asked, so it is not shared between threads).
    opens = ThreatSearch(board.rules) if board.rules.k >= OPEN_MIN_K else None
    sides = []
    for mine, theirs in ((board.x, board.o), (board.o, board.x)):
        threats = threat_cells(geometry, mine, theirs)
        forks = 0
        for bit in one_bits(threats):
            # Only a threat cell can make a winning cell, so only one can make two.
            made = geometry.winning_cells(mine | bit, empty & ~bit)
            if made & (made - 1):
                forks |= bit
        open_cells = open_makers = 0
        if opens is not None:
            open_cells = opens.three_cells(mine, theirs) & empty
            open_makers = opens.three_makers(mine, theirs)
        sides.append(Side(geometry.winning_cells(mine, empty), threats, forks, open_cells, open_makers))
    return Sight(sides[0], sides[1], empty)


def threat_cells(geometry: Geometry, mine: Bitboard, theirs: Bitboard) -> Bitboard:
    """The empty cells where a stone of ``mine`` makes a winning cell: those of its windows with k-2 of
    its stones and none of ``theirs``."""
    k = geometry.rules.k
    found = 0
    for line in geometry.lines:
        if not line & theirs and (line & mine).bit_count() == k - 2:
            found |= line & ~mine
    return found
