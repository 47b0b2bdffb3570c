"""The rules of an m,n,k-game and the fixed geometry that follows from them.

A game is played on ``rows`` x ``cols`` cells; whoever first has ``k`` stones in
a row (horizontally, vertically or diagonally) wins.  X always moves first.

Vocabulary::

    Cell = int  # row * cols + col, row 0 at the top: the public move type
    Bitboard = int  # one bit per cell, in the layout below

Bit layout, drawn for 3x3 (``stride = cols + 1``)::

    bit  0  1  2 | 3       row 0        (r, c) -> bit r * stride + c
    bit  4  5  6 | 7       row 1
    bit  8  9 10 |11       row 2
                 ^ guard column: always zero

The guard bit at the end of every row means that a shift by 1 (along a row),
``stride`` (down a column), ``stride + 1`` (down-right) or ``stride - 1``
(down-left) never wraps from one row into the next, so k-in-a-row tests are a
few shifts and ANDs on whole boards (as in Pascal Pons' connect-4 solver).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from .errors import BoardFormatError

Cell = int
Bitboard = int

MIN_SIZE = 3
MAX_SIZE = 15
MIN_K = 3  # fewer in a row and the first player wins at once: no game
# Rule sets whose fixed tables (geometry, windows, evaluator, rays, lines) a process
# keeps, the least recently used dropped: every size and k a client may send is
# 1,547 rule sets and about 170 MiB of them; 32 of 15x15 are about 8 MiB.
RULES_KEPT = 32


@dataclass(frozen=True)
class Rules:
    """The size of the board and the length of a winning line; checked on creation.

    Raises ``BoardFormatError`` for a size outside 3..15 or k outside 3..max(rows, cols).
    """

    rows: int = 3
    cols: int = 3
    k: int = 3

    def __post_init__(self) -> None:
        for name in ("rows", "cols", "k"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise BoardFormatError(f"{name} must be an integer, not {value!r}")
            if name != "k" and not MIN_SIZE <= value <= MAX_SIZE:
                raise BoardFormatError(f"{name} must be between {MIN_SIZE} and {MAX_SIZE}, not {value}")
        longest = max(self.rows, self.cols)
        if not MIN_K <= self.k <= longest:
            raise BoardFormatError(
                f"k must be between {MIN_K} and {longest} on a {self.rows}x{self.cols} board, not {self.k}"
            )

    @staticmethod
    def default_k(rows: int, cols: int) -> int:
        """The k used when none is given: 3 on 3x3, otherwise min(rows, cols, 5)."""
        if rows == 3 and cols == 3:
            return 3
        return min(rows, cols, 5)

    @property
    def cells(self) -> int:
        """The number of cells on the board."""
        return self.rows * self.cols

    @property
    def geometry(self) -> Geometry:
        """The precomputed masks and tables for these rules (built once, shared)."""
        return _geometry(self)

    def cell(self, row: int, col: int) -> Cell:
        """The cell at (row, col); raises ``ValueError`` when it is off the board."""
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(f"({row}, {col}) is off the {self.rows}x{self.cols} board")
        return row * self.cols + col

    def row_col(self, cell: Cell) -> tuple[int, int]:
        """The (row, col) of a cell."""
        return divmod(cell, self.cols)

    def label(self) -> str:
        """The rules as people read them, ``5x5 k=4``: the one label of messages, the CLI and tables."""
        return f"{self.rows}x{self.cols} k={self.k}"

    def key(self) -> str:
        """The rules as machines store them, ``5x5k4``: an external contract whose bytes never change.

        Cache keys, the opening books' file names and the ``board`` field of the
        request log lines spell the rules this way: another spelling would orphan
        every stored entry and shipped book, and break every query of the logs.
        """
        return f"{self.rows}x{self.cols}k{self.k}"

    def __str__(self) -> str:
        return self.label()


class Geometry:
    """Everything about a board shape that never changes during a game.

    Attributes:
        stride: bits per row, ``cols + 1``.
        full: the bitboard with every cell set (guard bits clear).
        bits: ``bits[cell]`` is the bitboard of that one cell.
        cell_of: the inverse, from a one-bit bitboard to its cell.
        directions: the four shifts that walk along a line.
        lines: every window of k cells in a row, as bitboards.
        line_bits: ``line_bits[line]`` lists the one-bit bitboards of a window's cells.
        lines_through: ``lines_through[cell]`` is how many windows contain it.
        order: cells most central first (by windows through them, then by
            distance to the centre, then row-major): the static move order.
        symmetries: cell permutations that map the board onto itself, identity
            first (8 on a square board, 4 otherwise).
    """

    def __init__(self, rules: Rules) -> None:
        rows, cols, k = rules.rows, rules.cols, rules.k
        self.rules = rules
        self.stride = stride = cols + 1
        self.bits = [1 << (r * stride + c) for r in range(rows) for c in range(cols)]
        self.cell_of = {bit: cell for cell, bit in enumerate(self.bits)}
        self.full = sum(self.bits)
        self.directions = (1, stride, stride + 1, stride - 1)

        self.lines = []
        steps = ((0, 1), (1, 0), (1, 1), (1, -1))
        for r in range(rows):
            for c in range(cols):
                for dr, dc in steps:
                    end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                    if 0 <= end_r < rows and 0 <= end_c < cols:
                        self.lines.append(sum(self.bits[(r + dr * i) * cols + c + dc * i] for i in range(k)))
        self.lines_through = [sum(1 for line in self.lines if line & bit) for bit in self.bits]
        self.line_bits = {line: [bit for bit in self.bits if line & bit] for line in self.lines}

        def centrality(cell: Cell) -> tuple[int, float, int]:
            r, c = divmod(cell, cols)
            distance = (r - (rows - 1) / 2) ** 2 + (c - (cols - 1) / 2) ** 2
            return (-self.lines_through[cell], distance, cell)

        self.order = sorted(range(rules.cells), key=centrality)
        self.symmetries = _symmetries(rows, cols)
        # Per symmetry, where each one-bit bitboard goes: a board's image is the
        # union of its stones' images.
        self.bit_images = [
            {self.bits[cell]: self.bits[image] for cell, image in enumerate(perm)} for perm in self.symmetries
        ]

    def winning_cells(self, stones: Bitboard, empty: Bitboard) -> Bitboard:
        """The empty cells where one more of these stones would make k in a row."""
        return self.completing_cells(stones) & empty

    def completing_cells(self, stones: Bitboard) -> Bitboard:
        """The cells (empty or not) that would complete k in a row with these stones."""
        k = self.rules.k
        found = 0
        for d in self.directions:
            # ahead[j]: cells with stones on the next j cells along d; behind[j]: the previous j.
            ahead = [-1]
            behind = [-1]
            for j in range(1, k):
                ahead.append(ahead[-1] & (stones >> (j * d)))
                behind.append(behind[-1] & (stones << (j * d)))
            for j in range(k):
                found |= ahead[j] & behind[k - 1 - j]
        return found & self.full

    def has_line(self, stones: Bitboard) -> bool:
        """Whether these stones hold k in a row somewhere."""
        return bool(self.line_starts(stones, self.rules.k))

    def line_starts(self, stones: Bitboard, length: int) -> Bitboard:
        """Cells that start a run of ``length`` of these stones, in any direction.

        Only the truth of the result is meaningful when several directions match.
        """
        found = 0
        for d in self.directions:
            run = stones
            for j in range(1, length):
                run &= stones >> (j * d)
            found |= run
        return found

    def reachable_by(self, free: Bitboard) -> Bitboard:
        """The cells that lie in some window of k cells, all of them in ``free``.

        With ``free`` = a side's stones and the empty cells, these are the cells
        through which that side can still make a line.
        """
        k = self.rules.k
        covered = 0
        for d in self.directions:
            starts = free
            for j in range(1, k):
                starts &= free >> (j * d)
            for j in range(k):
                covered |= starts << (j * d)
        return covered & self.full

    def image(self, stones: Bitboard, symmetry: int) -> Bitboard:
        """The stones moved by symmetry number ``symmetry`` (an index into ``symmetries``)."""
        table = self.bit_images[symmetry]
        image = 0
        while stones:
            lowest = stones & -stones
            image |= table[lowest]
            stones ^= lowest
        return image

    def cells_of(self, board: Bitboard) -> list[Cell]:
        """The cells set in a bitboard, in increasing order."""
        return [cell for cell, bit in enumerate(self.bits) if board & bit]


def one_bits(cells: Bitboard) -> Iterator[Bitboard]:
    """The one-bit boards of ``cells``, lowest bit first."""
    while cells:
        bit = cells & -cells
        yield bit
        cells ^= bit


def _symmetries(rows: int, cols: int) -> list[tuple[Cell, ...]]:
    """The cell permutations of the board's symmetry group, identity first.

    A square board has the 8 symmetries of the square; a rectangle has 4
    (identity, the two mirror images and the half turn).
    """

    def perm(f: Callable[[int, int], tuple[int, int]]) -> tuple[Cell, ...]:
        out = []
        for cell in range(rows * cols):
            r, c = divmod(cell, cols)
            r2, c2 = f(r, c)
            out.append(r2 * cols + c2)
        return tuple(out)

    last_r, last_c = rows - 1, cols - 1
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (r, last_c - c),  # mirror left-right
        lambda r, c: (last_r - r, c),  # mirror top-bottom
        lambda r, c: (last_r - r, last_c - c),  # half turn
    ]
    if rows == cols:
        maps += [
            lambda r, c: (c, r),  # transpose
            lambda r, c: (last_c - c, last_r - r),  # anti-transpose
            lambda r, c: (c, last_r - r),  # quarter turn clockwise
            lambda r, c: (last_c - c, r),  # quarter turn anticlockwise
        ]
    return [perm(f) for f in maps]


_T = TypeVar("_T")


def per_rules(function: Callable[[Rules], _T]) -> Callable[[Rules], _T]:
    """``function`` with its results kept for the ``RULES_KEPT`` rule sets used last."""
    return functools.lru_cache(maxsize=RULES_KEPT)(function)


@per_rules
def _geometry(rules: Rules) -> Geometry:
    return Geometry(rules)
