"""A position of an m,n,k-game: stones on bitboards, moves, outcome, text form.

The one text form used everywhere (API, command line, tests) is a list of row
strings, top row first, ``x`` and ``o`` in either case and ``.`` for empty::

    ["x.o",          x . o
     ".x.",    ->    . x .      O to move (X has one stone more)
     "..o"]          . . o

X always moves first, so the side to move follows from the counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import BoardFormatError, GameOverError, IllegalMoveError, IllegalPositionError
from .notation import position_text, rows_from_position_text
from .phrase import Phrase
from .rules import Bitboard, Cell, Rules
from .values import Player

X: Player = "x"
O: Player = "o"


def other(player: Player) -> Player:
    """The opponent of a player."""
    return O if player == X else X


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winner (None for a draw) and the winning line's cells."""

    winner: Player | None
    line: tuple[Cell, ...] = ()


@dataclass(frozen=True)
class Symmetry:
    """One symmetry of the board, as a permutation of its cells."""

    perm: tuple[Cell, ...]

    def apply(self, cell: Cell) -> Cell:
        """Where this symmetry sends a cell."""
        return self.perm[cell]

    def inverse(self) -> Symmetry:
        """The symmetry that undoes this one."""
        back = [0] * len(self.perm)
        for cell, image in enumerate(self.perm):
            back[image] = cell
        return Symmetry(tuple(back))


class Board:
    """A position: X's and O's stones, the rules, and the moves played since creation.

    >>> board = Board.from_text(["x..", ".o.", "..."])
    >>> board.to_move, board.legal_moves()
    ('x', [1, 2, 3, 5, 6, 7, 8])
    """

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()
        self.geometry = self.rules.geometry
        self.x: Bitboard = 0
        self.o: Bitboard = 0
        self.history: list[Cell] = []

    # -- text form -------------------------------------------------------

    @classmethod
    def from_text(cls, rows: object, k: int | None = None) -> Board:
        """Parse the text form and check that the position can arise in a game.

        Raises ``BoardFormatError`` when ``rows`` is not a board (not a list of
        strings, ragged rows, a bad character, a size or k out of range) and
        ``IllegalPositionError`` when it cannot arise in a game.
        """
        if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence):
            raise BoardFormatError("board must be a list of row strings")
        if not rows:
            raise BoardFormatError("board has no rows")
        for i, row in enumerate(rows):
            if not isinstance(row, str):
                raise BoardFormatError(f"board row {i} must be a string, not {type(row).__name__}")
        width = len(rows[0])
        for i, row in enumerate(rows):
            if len(row) != width:
                raise BoardFormatError(
                    f"board rows must all have the same length: row 0 has {width} cells,"
                    f" row {i} has {len(row)}"
                )
        # A bad size fails in Rules, on the size, before k is looked at.
        rules = Rules(len(rows), width, Rules.default_k(len(rows), width) if k is None else k)
        board = cls(rules)
        for r, row in enumerate(rows):
            for c, char in enumerate(row):
                bit = board.geometry.bits[r * width + c]
                if char in "xX":
                    board.x |= bit
                elif char in "oO":
                    board.o |= bit
                elif char != ".":
                    raise BoardFormatError(
                        f"bad character {char!r} at row {r}, column {c}: use x, o or . (empty)"
                    )
        board.check_reachable()
        return board

    @classmethod
    def from_position_text(cls, text: str, k: int | None = None) -> Board:
        """Parse a position text (``"x2/1o1/3"``, see ``notation``) and check it as ``from_text`` does.

        >>> Board.from_position_text("x2/1o1/3").to_text()
        ['x..', '.o.', '...']
        """
        return cls.from_text(rows_from_position_text(text), k=k)

    def position_text(self) -> str:
        """The position text in its normal form (``notation.position_text``)."""
        return position_text(self.to_text())

    def to_text(self) -> list[str]:
        """The text form: row strings, top first, lower-case x and o, '.' for empty."""
        symbols = []
        for bit in self.geometry.bits:
            symbols.append(X if self.x & bit else O if self.o & bit else ".")
        cols = self.rules.cols
        return ["".join(symbols[i : i + cols]) for i in range(0, len(symbols), cols)]

    def __str__(self) -> str:
        return "\n".join(" ".join(row) for row in self.to_text())

    def __repr__(self) -> str:
        return f"Board.from_text({self.to_text()!r}, k={self.rules.k})"

    # -- state -------------------------------------------------------------

    def check_reachable(self) -> None:
        """Raise ``IllegalPositionError`` unless some game from the empty board reaches this.

        A position is reachable when X has as many stones as O or one more, and
        at most the side that moved last has a line, made by its last stone
        (so removing one of its stones leaves it without a line).
        """
        nx, no = self.x.bit_count(), self.o.bit_count()
        if not (nx == no or nx == no + 1):
            raise IllegalPositionError(
                f"impossible counts: {nx} x and {no} o (X moves first, so x must equal o or exceed it by one)"
            )
        x_line, o_line = self.geometry.has_line(self.x), self.geometry.has_line(self.o)
        if x_line and o_line:
            raise IllegalPositionError("both x and o have a line: the game ends at the first")
        for player, stones, has, moved_last in (
            (X, self.x, x_line, nx == no + 1),
            (O, self.o, o_line, nx == no),
        ):
            if not has:
                continue
            if not moved_last:
                raise IllegalPositionError(
                    f"{player} has a line but {other(player)} moved after it: the game ended at that line"
                )
            if not any(
                not self.geometry.has_line(stones & ~bit) for bit in self.geometry.bits if stones & bit
            ):
                raise IllegalPositionError(
                    f"{player} has lines that no single last move completes: the game ended at the first"
                )

    @property
    def empty(self) -> Bitboard:
        """The bitboard of empty cells."""
        return self.geometry.full & ~(self.x | self.o)

    @property
    def stones(self) -> int:
        """How many stones are on the board."""
        return (self.x | self.o).bit_count()

    @property
    def empties(self) -> int:
        """How many cells are empty."""
        return self.rules.cells - self.stones

    @property
    def to_move(self) -> Player:
        """The side to move: X when the counts are equal, else O."""
        return X if self.x.bit_count() == self.o.bit_count() else O

    def sides(self) -> tuple[Bitboard, Bitboard]:
        """The stones of the side to move and of its opponent."""
        return (self.x, self.o) if self.to_move == X else (self.o, self.x)

    def stones_of(self, player: Player) -> Bitboard:
        """The bitboard of one side's stones."""
        return self.x if player == X else self.o

    def outcome(self) -> Outcome | None:
        """The outcome if the game is over (a line, or a full board), else None."""
        geometry = self.geometry
        if not self.empty or geometry.has_line(self.x) or geometry.has_line(self.o):
            return self._finished_outcome()
        return None

    def _finished_outcome(self) -> Outcome:
        """The outcome of a board known to be finished: the first full window, or a draw."""
        geometry = self.geometry
        for player, stones in ((X, self.x), (O, self.o)):
            for line in geometry.lines:
                if stones & line == line:
                    return Outcome(player, tuple(geometry.cells_of(line)))
        return Outcome(None)

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome() is not None

    def require_moves(self) -> None:
        """Raise ``GameOverError`` (the one refusal of a finished game) when the game has ended."""
        if self.is_over():
            raise GameOverError()

    def legal_moves(self) -> list[Cell]:
        """The empty cells in row-major order, or [] when the game is over."""
        if self.is_over():
            return []
        return self.geometry.cells_of(self.empty)

    def play(self, cell: Cell) -> None:
        """Put the side to move's stone on a cell.

        Raises ``IllegalMoveError`` for a cell off the board or occupied, and
        ``GameOverError`` when the game has already ended.
        """
        if not isinstance(cell, int) or not 0 <= cell < self.rules.cells:
            raise IllegalMoveError(f"cell {cell!r} is off the {self.rules} board")
        bit = self.geometry.bits[cell]
        if not self.empty & bit:
            row, col = self.rules.row_col(cell)
            raise IllegalMoveError(
                Phrase("the cell at row {row}, col {col} (counted from 0) is occupied", row=row, col=col)
            )
        self.require_moves()
        if self.to_move == X:
            self.x |= bit
        else:
            self.o |= bit
        self.history.append(cell)

    def undo(self) -> Cell:
        """Take back the last move played on this board and return its cell.

        Raises ``IndexError`` when no move was played since the board was made.
        """
        cell = self.history.pop()
        bit = self.geometry.bits[cell]
        self.x &= ~bit
        self.o &= ~bit
        return cell

    def copy(self) -> Board:
        """An independent copy, history included."""
        twin = Board(self.rules)
        twin.x, twin.o, twin.history = self.x, self.o, list(self.history)
        return twin

    def __eq__(self, other_board: object) -> bool:
        """Boards are equal when their rules and stones are (history is not compared)."""
        if not isinstance(other_board, Board):
            return NotImplemented
        return (self.rules, self.x, self.o) == (other_board.rules, other_board.x, other_board.o)

    def __hash__(self) -> int:
        return hash((self.rules, self.x, self.o))

    # -- symmetry ------------------------------------------------------------

    def transformed(self, symmetry: Symmetry) -> Board:
        """The board with every stone moved by a symmetry (history dropped)."""
        twin = Board(self.rules)
        bits = self.geometry.bits
        for cell, bit in enumerate(bits):
            if self.x & bit:
                twin.x |= bits[symmetry.apply(cell)]
            elif self.o & bit:
                twin.o |= bits[symmetry.apply(cell)]
        return twin

    def text_key(self) -> str:
        """A string naming exactly this position: the rules and the rows."""
        return f"{self.rules.key()}:" + "/".join(self.to_text())

    def canonical(self) -> tuple[Board, Symmetry]:
        """The canonical representative of this board's symmetry class.

        Returns ``(canon, symmetry)`` with ``canon == self.transformed(symmetry)``;
        every board of the class has the same ``canon``.  A move found on
        ``canon`` maps back with ``symmetry.inverse().apply(move)``.
        """
        geometry = self.geometry
        images = [
            (geometry.image(self.x, s), geometry.image(self.o, s), s) for s in range(len(geometry.symmetries))
        ]
        x, o, s = min(images)
        canon = Board(self.rules)
        canon.x, canon.o = x, o
        return canon, Symmetry(geometry.symmetries[s])

    def canonical_key(self) -> str:
        """A string naming the symmetry class: rules and the canonical rows."""
        return self.canonical()[0].text_key()
