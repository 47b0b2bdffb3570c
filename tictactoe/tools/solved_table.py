"""Every 3x3 position's value in one small table: what a player without the engine plays from.

The game page plays tic-tac-toe offline from this table (static/js/solved.js reads it): the
values in it are the solver's, so the browser's player holds no search of its own, only the
negamax step from a position to its moves (a move is worth its resulting position's value,
turned round, one ply longer).  Generated, never edited::

    python -m tictactoe table > static/data/solved-3x3k3.json

The table is one character per position, at the position's index: each cell a base-3 digit
(0 empty, 1 x, 2 o), cell 0 the lowest::

    x o .      cells 0 1 2      digits 1 2 0
    . x .            3 4 5             0 1 0      index 1 + 2*3 + 1*3**4 = 88
    . . .            6 7 8             0 0 0

A character is its value's letter moved on by the plies to the end, for the side to move
("a" plus the plies for a loss, "k" plus the plies for a draw, "u" plus the plies for a win):
``"k"`` is a draw on a full board, ``"a"`` the loss of a side whose opponent has just made a line,
``"t"`` the draw in 9 of the empty board.  A position no game reaches is ``"-"``.  The whole
table is 19,683 characters, about 3 KB gzipped.
"""

from __future__ import annotations

import json

from ..game.rules import Rules
from ..game.values import MoveValue, Value
from ..search.solver import Solver
from .counting import TIC_TAC_TOE, reachable_positions

# The letter of plies 0 for each value; the plies (at most the 9 cells) are added to it.
LETTERS = {Value.LOSS: "a", Value.DRAW: "k", Value.WIN: "u"}
UNREACHABLE = "-"
# Digits of the index: 3 ** cells slots, so only the smallest board fits.
DIGITS = {".": 0, "x": 1, "o": 2}
MAX_CELLS = 9
# After a line the side to move has lost; a full board without one is a draw.
LOST = MoveValue(Value.LOSS, 0)
DRAWN = MoveValue(Value.DRAW, 0)


def position_index(rows: list[str]) -> int:
    """The table's index of a position given as rows of x, o and '.' (cell 0 the lowest digit)."""
    cells = "".join(rows)
    return sum(DIGITS[mark] * 3**cell for cell, mark in enumerate(cells))


def letter(value: MoveValue) -> str:
    """The table's character for a value and its plies."""
    return chr(ord(LETTERS[value.value]) + value.plies)


def solved_values(rules: Rules = TIC_TAC_TOE) -> str:
    """The table of ``rules`` (see the module docstring); raises ``ValueError`` past 9 cells."""
    if rules.cells > MAX_CELLS:
        raise ValueError(
            f"{rules} has {rules.cells} cells: a table of every position fits {MAX_CELLS} at most"
        )
    table = [UNREACHABLE] * 3**rules.cells
    solver = Solver(rules)  # one table of bounds for every position: each solve reuses the last ones
    for board in reachable_positions(rules):
        outcome = board.outcome()
        if outcome is None:
            result = solver.solve(board)
            assert result.value is not None and result.plies is not None  # an exact solve is proven
            value = MoveValue(result.value, result.plies)
        else:
            value = LOST if outcome.winner else DRAWN
        table[position_index(board.to_text())] = letter(value)
    return "".join(table)


def table_json(rules: Rules = TIC_TAC_TOE) -> str:
    """The table as the page reads it: JSON with its rules, its letters and the values (one line)."""
    document = {
        "rules": rules.key(),
        "rows": rules.rows,
        "cols": rules.cols,
        "k": rules.k,
        "letters": {str(value): start for value, start in LETTERS.items()},
        "unreachable": UNREACHABLE,
        "values": solved_values(rules),
    }
    return json.dumps(document, separators=(",", ":")) + "\n"


__all__ = ["LETTERS", "UNREACHABLE", "position_index", "letter", "solved_values", "table_json"]
