"""The position text: a board in one short, URL-safe line, as ``GET /position`` takes it.

Rows top first, separated by ``/``; in a row ``x`` and ``o`` (either case) are
stones, and empty cells are either ``.`` each or a decimal number for a run of
them (as in chess's FEN)::

    x . .
    . o .     ->   "x2/1o1/3"   (or "x../.o./...", the rows joined by "/")
    . . .

A run is 1 to 15 (``MAX_SIZE``) without leading zeros; two runs never touch
(``"12"`` is twelve, not one and two).  The normal form (``position_text``)
writes lower-case stones and every run of empty cells as one number.

>>> rows_from_position_text("x2/1o1/3")
['x..', '.o.', '...']
>>> position_text(["x..", ".o.", "..."])
'x2/1o1/3'
>>> position_text(rows_from_position_text("X../.O./..."))
'x2/1o1/3'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .errors import BoardFormatError
from .rules import MAX_SIZE, Cell, Rules

ROW_SEPARATOR = "/"
# A cell's column letter (the ``b`` of ``b2``), for every column a board can have.
COLUMN_LETTERS = "abcdefghijklmnopqrstuvwxyz"[:MAX_SIZE]
# The longest text of a 15x15 board: 225 cells written one by one and 14 separators.
MAX_TEXT_LENGTH = MAX_SIZE * MAX_SIZE + MAX_SIZE - 1
_TOKEN = re.compile(r"[xXoO.]|[1-9][0-9]*|.", re.DOTALL)
_LABEL = re.compile(rf"([{COLUMN_LETTERS[0]}-{COLUMN_LETTERS[-1]}])([1-9][0-9]?)", re.ASCII)


def rows_from_position_text(text: str) -> list[str]:
    """The row strings (``x``, ``o``, ``.``) that ``text`` writes, not yet checked as a board.

    Raises ``BoardFormatError`` for text that is too long, a bad character, a
    run of zero cells or a leading zero, a run longer than ``MAX_SIZE``, or more
    than ``MAX_SIZE`` rows or cells in a row.  Equal row widths, the board's
    size and its legality are ``Board.from_text``'s to check.
    """
    if len(text) > MAX_TEXT_LENGTH:
        raise BoardFormatError(
            f"the position text has {len(text)} characters, more than the"
            f" {MAX_TEXT_LENGTH} of the largest board"
        )
    parts = text.split(ROW_SEPARATOR)
    if len(parts) > MAX_SIZE:
        raise BoardFormatError(f"the position has {len(parts)} rows, more than {MAX_SIZE}")
    return [_row(part, index) for index, part in enumerate(parts)]


def _row(part: str, index: int) -> str:
    """One row's cells from its text (``index`` counts from the top, for messages)."""
    cells: list[str] = []
    for match in _TOKEN.finditer(part):
        token = match.group()
        if token[0] in "123456789":
            run = int(token)
            if run > MAX_SIZE:
                raise BoardFormatError(
                    f"row {index}: a run of {run} empty cells is longer than"
                    f" the largest board's rows ({MAX_SIZE})"
                )
            cells.append("." * run)
        elif token in "xXoO.":
            cells.append(token)
        else:
            where = f"row {index}, character {match.start()}"
            if token == "0":
                raise BoardFormatError(
                    f"{where}: a run of empty cells is 1 to {MAX_SIZE}, written without leading zeros"
                )
            raise BoardFormatError(
                f"{where}: bad character {token!r}: use x, o, . or a number"
                " of empty cells, rows separated by /"
            )
        if sum(map(len, cells)) > MAX_SIZE:
            raise BoardFormatError(f"row {index} has more than {MAX_SIZE} cells")
    if not cells:
        raise BoardFormatError(f"row {index} is empty: write its empty cells as a number")
    return "".join(cells)


def position_text(rows: Sequence[str]) -> str:
    """The normal form of a board's rows: lower-case stones, each run of empty cells as a number."""
    return ROW_SEPARATOR.join(re.sub(r"\.+", lambda run: str(len(run.group())), row.lower()) for row in rows)


def cell_label(rules: Rules, cell: Cell) -> str:
    """The short human name of a cell: column letter, then row counted from 1 (``b2``)."""
    row, col = rules.row_col(cell)
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def cell_from_label(rules: Rules, label: str) -> Cell:
    """The cell that ``label`` names, as ``cell_label`` writes it (lower case, no leading zero).

    Raises ``BoardFormatError`` when ``label`` is no cell's name, or names one off the board.

    >>> rules = Rules(3, 3, 3)
    >>> cell_label(rules, cell_from_label(rules, "b2"))
    'b2'
    """
    match = _LABEL.fullmatch(label)
    if not match:
        raise BoardFormatError(f"{label!r} is not a cell's name such as b2")
    row, col = int(match[2]) - 1, COLUMN_LETTERS.index(match[1])
    if row >= rules.rows or col >= rules.cols:
        raise BoardFormatError(f"{label} is off the {rules} board")
    return rules.cell(row, col)
