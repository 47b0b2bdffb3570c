"""Pairing strategies: a side they stop never wins, checked against proofs made without them.

Positions are drawn as rows (``x``, ``o``, ``.``).  The oracle is the solver
with its pairing tests switched off (``pairing_min`` past the board), which
tests/test_solver.py checks against an independent minimax.
"""

from __future__ import annotations

import random

import pytest

from tests.diagrams import position
from tictactoe import Board, Rules, Solver, Value
from tictactoe.search.pairing import Pairings, lines_of

# Every window o can still fill holds a pair of empty cells (disjoint pairs) that x
# can split; x's open windows need more pairs than the empty cells can give.
O_STOPPED = [
    "....",
    "o.x.",
    "o...",
    "x...",
]


def test_a_pairing_is_found_for_one_side_and_not_the_other():
    board, _ = position(O_STOPPED, k=4)
    pairings = Pairings(board.rules)
    assert pairings.exists(board.o, board.x)
    assert not pairings.exists(board.x, board.o)


def test_no_pairing_on_an_empty_board_or_against_a_threat():
    """4x4 k=4: ten lines need ten disjoint pairs, 20 cells of 16; a window one stone
    from full has no pair left in it."""
    rules = Rules(4, 4, 4)
    assert not Pairings(rules).exists(0, 0)
    board, _ = position(["xxx.", "oo..", "....", "o..."], k=4)
    assert not Pairings(rules).exists(board.x, board.o)


def test_the_lines_group_every_window_once():
    for rules in (Rules(3, 3, 3), Rules(5, 5, 4), Rules(4, 6, 4)):
        windows = [window for _, line in lines_of(rules) for window in line]
        assert sorted(windows) == sorted(rules.geometry.lines)
        for cells, line in lines_of(rules):
            assert all(window & cells == window for window in line)
    # 5x5 k=4: 5 rows, 5 columns, 2 long diagonals (2 windows each), 4 short ones.
    assert len(lines_of(Rules(5, 5, 4))) == 16


def random_position(rules: Rules, rng: random.Random, stones: int) -> Board:
    """A position of at most ``stones`` random moves, stopped before any move that ends the game."""
    board = Board(rules)
    for _ in range(stones):
        board.play(rng.choice(board.legal_moves()))
        if board.is_over():
            board.undo()
            break
    return board


def oracle(rules: Rules) -> Solver:
    """A solver that never tests for a pairing."""
    solver = Solver(rules)
    solver.pairing_min = solver.pairing_reply_min = rules.cells + 1
    return solver


@pytest.mark.parametrize(("rules", "positions"), [(Rules(4, 4, 4), 300), (Rules(4, 5, 4), 60)])
def test_a_side_a_pairing_stops_never_wins(rules, positions):
    """Seeded random positions: whenever a side has a pairing against it, the proof
    without pairings says that side does not win, whoever is to move."""
    rng = random.Random(10)
    pairings = Pairings(rules)
    stopped = 0
    for _ in range(positions):
        board = random_position(rules, rng, rng.randrange(2, 9))
        value = oracle(rules).solve(board).value
        mover, waiter = (board.x, board.o) if board.to_move == "x" else (board.o, board.x)
        if pairings.exists(mover, waiter):
            stopped += 1
            assert value != Value.WIN, board
        if pairings.exists(waiter, mover):
            stopped += 1
            assert value != Value.LOSS, board
    assert stopped > positions // 4  # the test saw many pairings, not a handful


def test_the_solver_proves_the_same_values_with_and_without_pairings():
    """Every move's value of seeded 4x4 k=4 positions, with pairings and without."""
    rules = Rules(4, 4, 4)
    rng = random.Random(11)
    for _ in range(40):
        board = random_position(rules, rng, rng.randrange(0, 6))
        with_pairings = Solver(rules).solve(board, all_moves=True)
        without = oracle(rules).solve(board, all_moves=True)
        assert with_pairings.move_values == without.move_values, board
        assert with_pairings.best_moves == without.best_moves, board


@pytest.mark.parametrize("rules", [Rules(4, 4, 4), Rules(5, 5, 4), Rules(4, 6, 4)])
def test_counting_the_pairs_first_never_hides_a_pairing(rules):
    """The test gives up early when the lines left to stop need more pairs than the empty
    cells hold; with that count switched off (a board of many more cells) it finds the
    same pairings on seeded positions, for both sides."""
    rng = random.Random(12)
    counted, uncounted = Pairings(rules), Pairings(rules)
    uncounted.full = (1 << 200) - 1  # every position then seems to have room for every pair
    found = 0
    for _ in range(300):
        board = random_position(rules, rng, rng.randrange(2, rules.cells - 4))
        for maker, breaker in ((board.x, board.o), (board.o, board.x)):
            assert counted.exists(maker, breaker) == uncounted.exists(maker, breaker), board
            found += counted.exists(maker, breaker)
    assert found > 30  # the positions held pairings, not only failures
