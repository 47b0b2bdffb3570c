"""Window counts kept stone by stone agree with the board, whatever the order of the stones.

Positions are drawn as rows (``x``, ``o``, ``.``); a ``*`` marks the cells a
test expects (empty on the board).
"""

from __future__ import annotations

import random

import pytest

from tests.diagrams import position
from tictactoe.game.rules import Bitboard, Geometry, Rules
from tictactoe.tactics.windows import Windows

OPEN_THREE = [  # x's open three: every empty cell of the row is a four-maker that wins twice, or its win
    "o.....o",
    ".......",
    ".......",
    "**xxx**",
    ".......",
    ".......",
    ".......",
]


def test_the_cells_of_an_open_three_are_its_double_four_makers_and_their_wins():
    board, expected = position(OPEN_THREE, k=5)
    windows = Windows(board.rules)
    side = windows.side(board.x, board.o)
    assert windows.three_cells(side) == sum(board.geometry.bits[cell] for cell in expected)
    assert windows.cells(side, 4) == 0  # no four yet
    assert windows.three_cells(1 - side) == 0  # o has no three


def level_cells(geometry: Geometry, mine: Bitboard, theirs: Bitboard, level: int) -> Bitboard:
    """The empty cells of the windows with ``level`` of ``mine`` and none of ``theirs``, window by window."""
    found = 0
    for line in geometry.lines:
        if not line & theirs and (line & mine).bit_count() == level:
            found |= line & ~mine
    return found


@pytest.mark.parametrize("rules", [Rules(15, 15, 5), Rules(6, 6, 4), Rules(7, 5, 5)])
def test_counts_moved_by_adding_and_removing_stones_match_the_board(rules):
    rng = random.Random(rules.cells + rules.k)
    windows = Windows(rules)
    geometry = rules.geometry
    for _ in range(25):
        # A random position (lines allowed: the counts do not care), reached from the last one.
        stones = rng.sample(range(rules.cells), rng.randrange(0, min(30, rules.cells)))
        split = rng.randrange(len(stones) + 1)
        x = sum(geometry.bits[cell] for cell in stones[:split])
        o = sum(geometry.bits[cell] for cell in stones[split:])
        side = windows.side(x, o)
        fresh = Windows(rules)
        assert fresh.side(x, o) == 0
        empty = geometry.full & ~(x | o)
        for mine, theirs, index in ((x, o, side), (o, x, 1 - side)):
            assert windows.stones[index] == mine
            for level in range(fresh.low, rules.k + 1):
                assert windows.live[index][level] == fresh.live[0 if mine == x else 1][level]
            assert windows.cells(index, rules.k - 1) == geometry.winning_cells(mine, empty)
            for level in range(fresh.low, rules.k):
                assert windows.cells(index, level) == level_cells(geometry, mine, theirs, level)
