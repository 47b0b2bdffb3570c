"""The rule ladder children learn for tic-tac-toe (Newell and Simon, 1972), on the 3x3 board.

Eight rules, tried in order; the first that applies names the moves to play::

    1 win             two in a row of mine: take the third cell
    2 block           two in a row of the opponent's: take the third cell
    3 fork            make two winning cells at once
    4 block a fork    the opponent's only fork cell: take it; with several,
                      block them all while making two in a row, else make two
                      in a row whose forced answer makes no fork
    5 centre          take the centre
    6 opposite corner the opponent holds a corner: take the one across from it
    7 empty corner    take a corner
    8 empty side      take an edge

Rule 4 is the refined form of Crowley and Siegler (1993), the one Wikipedia's
"Tic-tac-toe" article gives.  The ladder is not perfect play: on 48 of the 4,520
non-terminal positions some move it names gives up the position's value
(``tests/test_ladder.py`` counts them against the solver).  The cells, by
number::

    0 1 2        corners 0 2 6 8, edges 1 3 5 7, centre 4
    3 4 5
    6 7 8
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..game.board import Board
from ..game.rules import Bitboard, Cell, Rules, one_bits
from .sight import Side, sight, threat_cells

THREE_BY_THREE = Rules(3, 3, 3)
CENTRE = 4
CORNERS = (0, 2, 6, 8)
EDGES = (1, 3, 5, 7)
OPPOSITE = {0: 8, 2: 6, 6: 2, 8: 0}


class Rung(StrEnum):
    """A rule of the ladder, as it applies to a position (rule 4 has three forms)."""

    WIN = "win"
    BLOCK = "block"
    FORK = "fork"
    BLOCK_FORK = "block fork"  # take the opponent's fork cell
    BLOCK_FORKS = "block forks"  # several fork cells: block them all while making two in a row
    FORCE = "force"  # else: make two in a row whose forced answer makes no fork
    CENTRE = "centre"
    OPPOSITE_CORNER = "opposite corner"
    EMPTY_CORNER = "empty corner"
    EMPTY_SIDE = "empty side"


@dataclass(frozen=True)
class Advice:
    """What the ladder says on a position: the first rule that applies, and the moves it names."""

    rung: Rung
    moves: tuple[Cell, ...]


def teaches(rules: Rules) -> bool:
    """Whether the ladder speaks of a board of these rules: 3x3, three in a row."""
    return rules == THREE_BY_THREE


def advice(board: Board) -> Advice:
    """The ladder's rule and moves for the side to move; ``ValueError`` off 3x3 or for a finished game."""
    if not teaches(board.rules):
        raise ValueError(f"the rule ladder is for 3x3 tic-tac-toe, not {board.rules}")
    board.require_moves()
    me, opp = board.sides()
    seen = sight(board)
    mine, theirs = seen.of(board.to_move), seen.of("o" if board.to_move == "x" else "x")
    empty = seen.empty
    for rung, cells in (
        (Rung.WIN, mine.wins),
        (Rung.BLOCK, theirs.wins),
        (Rung.FORK, mine.forks),
    ):
        if cells:
            return Advice(rung, _cells(cells))
    if theirs.forks:
        return _against_forks(board, me, opp, theirs)
    if empty & board.geometry.bits[CENTRE]:
        return Advice(Rung.CENTRE, (CENTRE,))
    across = [OPPOSITE[c] for c in CORNERS if _holds(board, opp, c) and _holds(board, empty, OPPOSITE[c])]
    if across:
        return Advice(Rung.OPPOSITE_CORNER, tuple(sorted(set(across))))
    corners = tuple(c for c in CORNERS if _holds(board, empty, c))
    if corners:
        return Advice(Rung.EMPTY_CORNER, corners)
    return Advice(Rung.EMPTY_SIDE, tuple(c for c in EDGES if _holds(board, empty, c)))


def blocks_all_forks(board: Board, cell: Cell) -> bool:
    """Whether a stone of the side to move on ``cell`` makes two in a row and leaves no fork cell."""
    me, opp = board.sides()
    geometry = board.geometry
    bit = geometry.bits[cell]
    empty = board.empty & ~bit
    if not geometry.winning_cells(me | bit, empty):
        return False
    return not _fork_cells(board, opp, me | bit, empty)


def _against_forks(board: Board, me: Bitboard, opp: Bitboard, theirs: Side) -> Advice:
    """Rule 4: the opponent has fork cells (``theirs.forks``)."""
    forks = _cells(theirs.forks)
    if len(forks) == 1:
        return Advice(Rung.BLOCK_FORK, forks)
    geometry = board.geometry
    all_blocked, forcing = [], []
    for cell in board.legal_moves():
        bit = geometry.bits[cell]
        empty = board.empty & ~bit
        made = geometry.winning_cells(me | bit, empty)
        if not made:
            continue
        if not _fork_cells(board, opp, me | bit, empty):
            all_blocked.append(cell)
        # One winning cell: the opponent must take it; fine if that stone makes no fork of theirs.
        if not made & (made - 1):
            answered = geometry.winning_cells(opp | made, empty & ~made)
            if not answered & (answered - 1):
                forcing.append(cell)
    if all_blocked:
        return Advice(Rung.BLOCK_FORKS, tuple(all_blocked))
    if forcing:
        return Advice(Rung.FORCE, tuple(forcing))
    return Advice(Rung.BLOCK_FORK, forks)


def _fork_cells(board: Board, side: Bitboard, other: Bitboard, empty: Bitboard) -> Bitboard:
    """The empty cells where a stone of ``side`` makes two winning cells, ``other`` holding its stones."""
    geometry = board.geometry
    forks = 0
    for bit in one_bits(threat_cells(geometry, side, other) & empty):
        made = geometry.winning_cells(side | bit, empty & ~bit)
        if made & (made - 1):
            forks |= bit
    return forks


def _holds(board: Board, cells: Bitboard, cell: Cell) -> bool:
    """Whether the bitboard ``cells`` holds the cell numbered ``cell``."""
    return bool(cells & board.geometry.bits[cell])


def _cells(cells: Bitboard) -> tuple[Cell, ...]:
    """The cell numbers of a bitboard of 3x3, in order."""
    return tuple(THREE_BY_THREE.geometry.cells_of(cells))
