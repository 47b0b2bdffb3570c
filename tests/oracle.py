"""The independent oracle (tests/minimax.py) in the shapes the tests ask it, and the check of the
engine against it.

Flat 3x3 strings: ``"x...o...."`` is the board row by row; a cell is its index in that string.
"""

from __future__ import annotations

from tests import minimax
from tictactoe import Board, Rules, Solver, SolveResult
from tictactoe.tools import counting

# Every winning line of 3x3, as sorted tuples of flat cell indexes.
WINDOWS = {tuple(sorted(r * 3 + c for r, c in line)) for line in minimax.lines_of(3, 3, 3)}


def rows(cells: str, cols: int = 3) -> list[str]:
    """The flat string cut into rows of ``cols`` cells."""
    return [cells[i : i + cols] for i in range(0, len(cells), cols)]


def move_values(cells: str) -> dict[int, tuple[str, int]]:
    """For every empty cell: (value for the mover, plies to the end counting this move)."""
    board = tuple(rows(cells))
    return {r * 3 + c: minimax.move_value(board, 3, r, c) for r, c in minimax.moves(board)}


def position_value(cells: str) -> tuple[str, int]:
    """The value and plies to the end for the side to move (the best of its moves)."""
    return minimax.solve(tuple(rows(cells)), 3)


def optimal_moves(cells: str) -> set[int]:
    """The flat cells of every best move for the side to move."""
    return {r * 3 + c for r, c in minimax.best_moves(tuple(rows(cells)), 3)}


def reachable_positions() -> list[str]:
    """Every position reachable from the empty 3x3 board where the game goes on (4,520)."""
    return ["".join(board.to_text()) for board in counting.reachable_positions() if not board.is_over()]


def expected_moves(board_rows: tuple[str, ...], k: int, rules: Rules) -> dict[int, tuple[str, int]]:
    """The oracle's (value, plies) of every legal move, keyed by the engine's cell number."""
    return {rules.cell(r, c): minimax.move_value(board_rows, k, r, c) for r, c in minimax.moves(board_rows)}


def check_against_oracle(board_rows: tuple[str, ...], k: int, solver: Solver) -> SolveResult:
    """Assert that ``solver`` agrees with the oracle on the position: every move's value and plies,
    the best moves, the position's value, with and without ``all_moves``; the ``all_moves`` result."""
    board = Board.from_text(list(board_rows), k=k)
    expected = expected_moves(board_rows, k, board.rules)
    best = {board.rules.cell(r, c) for r, c in minimax.best_moves(board_rows, k)}
    value, plies = minimax.solve(board_rows, k)

    full = solver.solve(board, all_moves=True)
    got = {cell: (mv.value, mv.plies) for cell, mv in full.move_values.items()}
    assert got == expected, board
    assert set(full.best_moves) == best, board
    assert (full.value, full.plies, full.proven) == (value, plies, True), board

    short = solver.solve(board)
    assert set(short.best_moves) == best, board
    assert (short.value, short.plies) == (value, plies), board
    return full
