"""Positions drawn as rows, for the tests: ``x``, ``o``, ``.`` and ``*`` for a cell of interest.

A ``*`` is an empty cell the test cares about (an expected move, say).
Drawings smaller than the board are placed in its middle by ``centred``.
"""

from __future__ import annotations

from tictactoe.game.board import Board


def position(rows: list[str], k: int | None = None) -> tuple[Board, set[int]]:
    """The board drawn by ``rows`` and the cells marked ``*`` (empty on the board)."""
    cols = len(rows[0])
    marked = {r * cols + c for r, row in enumerate(rows) for c, char in enumerate(row) if char == "*"}
    return Board.from_text([row.replace("*", ".") for row in rows], k), marked


def centred(rows: list[str], size: int = 15) -> list[str]:
    """A drawing placed in the middle of an empty size x size board."""
    top = (size - len(rows)) // 2
    left = (size - len(rows[0])) // 2
    blank = "." * size
    board = [blank] * top
    board += ["." * left + row + "." * (size - left - len(row)) for row in rows]
    return board + [blank] * (size - len(board))
