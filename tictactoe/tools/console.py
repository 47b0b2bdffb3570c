"""The console's words for the engine's things: cell names, boards, results, tables, progress.

Shared by the command line (``cli``), the benchmarks (``bench``) and the lab's
experiments.  The command line is the one front end: it runs the benchmarks,
the arena and the book commands, and none of them imports it back (the
import-linter contracts in pyproject.toml hold both).

Cells are named the way people name them (``cell_label``, in
``tictactoe.game.notation``), the project's one coordinate language: the
column as a letter and the row as a number counted from 1 at the top, so
``a1`` is the top-left cell.  The API's ``row`` and ``col`` count
from 0, so ``b2`` is row 1, col 1 there::

        a b c
     1  x . .       x is on a1 (API row 0, col 0); o is on b2 (API row 1, col 1)
     2  . o .
     3  . . .
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

from ..game.board import Board
from ..game.notation import COLUMN_LETTERS, cell_label
from ..game.rules import Cell, Rules
from ..game.values import Value
from ..search.solver import SolveResult

# One letter per value, for grids too narrow for the word.
VALUE_LETTERS = {Value.WIN: "W", Value.DRAW: "D", Value.LOSS: "L"}
# A search shorter than this shows no progress at all; a longer one shows a
# line at most this often (the solver reports about twice a second).
PROGRESS_DELAY = 0.5
PROGRESS_INTERVAL = 0.25
COORDINATES_NOTE = (
    "a cell is named by its column letter and its row number counted from 1 at the top,"
    " so a1 is the top-left cell; the API counts rows and columns from 0"
    " (b2 is the API's row 1, col 1)"
)


# -- cells and boards ------------------------------------------------------------


def describe_cell(rules: Rules, cell: Cell) -> str:
    """A cell as ``b2 (row 2, col 2)``: its label and its (row, col) counted from 1."""
    row, col = rules.row_col(cell)
    return f"{cell_label(rules, cell)} (row {row + 1}, col {col + 1})"


def draw_board(board: Board, marks: dict[Cell, str] | None = None) -> str:
    """The board with column letters above and row numbers on the left.

    ``marks`` replaces what is shown in some cells (the ``--all`` grid puts
    each move's value there); the columns widen to fit them.
    """
    marks = marks or {}
    cols = board.rules.cols
    grid = [
        [marks.get(r * cols + c, symbol) for c, symbol in enumerate(row)]
        for r, row in enumerate(board.to_text())
    ]
    width = max(len(text) for row in grid for text in row)
    margin = len(str(board.rules.rows))
    header = " " * (margin + 2) + " ".join(letter.ljust(width) for letter in COLUMN_LETTERS[:cols])
    lines = [header.rstrip()]
    for r, row in enumerate(grid):
        lines.append(f"{r + 1:>{margin}}  " + " ".join(text.ljust(width) for text in row).rstrip())
    return "\n".join(lines)


def outcome_text(board: Board) -> str:
    """How a finished game ended (``x wins with a1 b2 c3``, ``draw``), or '' while it goes on."""
    outcome = board.outcome()
    if outcome is None:
        return ""
    if outcome.winner is None:
        return "draw: the board is full"
    line = " ".join(cell_label(board.rules, cell) for cell in outcome.line)
    return f"{outcome.winner} wins with {line}"


# -- numbers, results and tables --------------------------------------------------


def format_seconds(seconds: float) -> str:
    """Seconds with a precision that suits their size (``0.004 s``, ``12.3 s``)."""
    return f"{seconds:.3f} s" if seconds < 10 else f"{seconds:.1f} s"


def plies_text(plies: int) -> str:
    """``1 ply``, ``5 plies``."""
    return f"{plies} ply" if plies == 1 else f"{plies} plies"


def value_text(result: SolveResult) -> str:
    """A search result in words: ``draw in 9 plies, proven`` when proven, else its depth."""
    if result.proven and result.plies is not None:
        return f"{result.value} in {plies_text(result.plies)}, proven"
    return f"depth {result.depth}, not proven"


def search_text(result: SolveResult) -> str:
    """The cost of a search: ``1,234 nodes, 0.010 s``."""
    return f"{result.nodes:,} nodes, {format_seconds(result.seconds)}"


@dataclass(frozen=True)
class Column:
    """One column of a text table: its title and width; text columns align left."""

    title: str
    width: int
    left: bool = False

    def cell(self, value: object) -> str:
        text = f"{value:,}" if isinstance(value, int) else str(value)
        return text.ljust(self.width) if self.left else text.rjust(self.width)


class Table:
    """A fixed-width text table whose rows can be printed as they come (for long benchmarks)."""

    def __init__(self, *columns: Column) -> None:
        self.columns = columns

    def header(self) -> str:
        """The titles, aligned like the values below them."""
        return self.row(*(column.title for column in self.columns))

    def row(self, *values: object) -> str:
        """One line: ints get thousands separators, text is padded to the column."""
        return "  ".join(
            column.cell(value) for column, value in zip(self.columns, values, strict=False)
        ).rstrip()


class ProgressLine:
    """A progress callback for long searches: ``(nodes, seconds)`` shown on a stream.

    On a terminal the line is rewritten in place; elsewhere (a log, a pipe)
    each report is a line of its own.  Call ``finish()`` when the search ends.
    """

    def __init__(self, stream: TextIO, label: str = "searching") -> None:
        self.stream = stream
        self.label = label
        self.in_place = _isatty(stream)
        self.shown_at: float | None = None
        self.width = 0

    def __call__(self, nodes: int, seconds: float) -> None:
        if seconds < PROGRESS_DELAY:
            return
        if self.shown_at is not None and seconds - self.shown_at < PROGRESS_INTERVAL:
            return
        self.shown_at = seconds
        rate = nodes / seconds if seconds > 0 else 0.0
        text = f"{self.label}: {nodes:,} nodes, {rate:,.0f} nodes/s, {seconds:.1f} s"
        if self.in_place:
            # Pad over the end of a longer previous line; the cursor stays on this one.
            self.stream.write("\r" + text.ljust(self.width))
            self.width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self) -> None:
        """End the in-place line, if one was written, so later output starts on a new line."""
        if self.in_place and self.shown_at is not None:
            self.stream.write("\n")
            self.stream.flush()


def _isatty(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())
