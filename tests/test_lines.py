"""Shapes kept line by line agree with the board, window by window, whatever the order of the stones.

Positions are drawn as rows (``x``, ``o``, ``.``); a ``*`` marks the cells a
test expects (empty on the board).
"""

from __future__ import annotations

import random

import pytest

from tests.diagrams import position
from tictactoe.game.rules import Bitboard, Geometry, Rules, one_bits
from tictactoe.tactics.lines import FOUR, MAKER, RAISER, WIN, Lines

OPEN_THREE = [  # x's open three: every empty cell of the row is a four-maker that wins twice, or its win
    "o.....o",
    ".......",
    ".......",
    "**xxx**",
    ".......",
    ".......",
    ".......",
]

TWO = [  # x's stone on any * makes a three (x . x x, . x x x ., . x x . x): the row's makers
    "o.......o",
    "....o....",
    ".........",
    ".**xx**..",
    ".........",
    ".........",
    "x.......x",
]


def test_the_cells_of_an_open_three_are_its_double_four_makers_and_their_wins():
    board, expected = position(OPEN_THREE, k=5)
    lines = Lines(board.rules)
    side = lines.side(board.x, board.o)
    assert lines.three_cells(side) == sum(board.geometry.bits[cell] for cell in expected)
    assert lines.cells(side, WIN) == 0  # no four yet
    assert lines.three_cells(1 - side) == 0  # o has no three


def test_the_makers_of_a_two_are_the_cells_that_make_it_a_three():
    board, expected = position(TWO, k=5)
    lines = Lines(board.rules)
    side = lines.side(board.x, board.o)
    assert lines.cells(side, MAKER) == sum(board.geometry.bits[cell] for cell in expected)
    assert lines.makers(side) == lines.cells(side, MAKER)  # no cross of lines here
    assert lines.three_cells(side) == 0


def level_cells(geometry: Geometry, mine: Bitboard, theirs: Bitboard, level: int) -> Bitboard:
    """The empty cells of the windows with ``level`` of ``mine`` and none of ``theirs``, window by window."""
    found = 0
    for line in geometry.lines:
        if not line & theirs and (line & mine).bit_count() == level:
            found |= line & ~mine
    return found


def double_wins(geometry: Geometry, mine: Bitboard, theirs: Bitboard) -> dict[Bitboard, Bitboard]:
    """For each four-maker of ``mine``, the winning cells its stone makes, window by window."""
    empty = geometry.full & ~(mine | theirs)
    wins: dict[Bitboard, Bitboard] = {}
    for line in geometry.lines:
        cells = line & empty
        if not line & theirs and cells.bit_count() == 2:
            low = cells & -cells
            wins[low] = wins.get(low, 0) | (cells ^ low)
            wins[cells ^ low] = wins.get(cells ^ low, 0) | low
    return wins


@pytest.mark.parametrize("rules", [Rules(15, 15, 5), Rules(6, 6, 4), Rules(7, 5, 5)])
def test_shapes_moved_by_adding_and_removing_stones_match_the_board(rules):
    rng = random.Random(rules.cells * rules.k)
    lines = Lines(rules)
    geometry = rules.geometry
    k = rules.k
    for _ in range(12):
        stones = rng.sample(range(rules.cells), rng.randrange(0, min(30, rules.cells)))
        split = rng.randrange(len(stones) + 1)
        x = sum(geometry.bits[cell] for cell in stones[:split])
        o = sum(geometry.bits[cell] for cell in stones[split:])
        fresh = Lines(rules)  # reaches the position from the empty board, not from the last one
        for mine, theirs in ((x, o), (o, x)):
            side = lines.side(mine, theirs)
            assert lines.stones[side] == mine and lines.stones[1 - side] == theirs
            fresh_side = fresh.side(mine, theirs)
            for shape in (WIN, FOUR, MAKER, RAISER):
                for turn in (0, 1):
                    assert fresh.cells(fresh_side ^ turn, shape) == lines.cells(side ^ turn, shape)
            for shape, level in ((WIN, k - 1), (FOUR, k - 2), (RAISER, k - 3)):
                assert lines.cells(side, shape) == level_cells(geometry, mine, theirs, level)
            if lines.cells(side, WIN):
                continue  # threes and makers are asked only of a side without a four
            before = double_wins(geometry, mine, theirs)
            threes = 0
            for maker, won in before.items():
                if won & (won - 1):
                    threes |= maker | won
            assert lines.three_cells(side) == threes
            # A maker: after its stone some cell wins twice, once at least by a new window.
            makers = 0
            for move in one_bits(geometry.full & ~(mine | theirs) & ~lines.cells(side, FOUR)):
                after = double_wins(geometry, mine | move, theirs)
                if any(won & (won - 1) and won & ~before.get(cell, 0) for cell, won in after.items()):
                    makers |= move
            assert lines.makers(side) == makers
