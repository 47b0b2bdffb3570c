"""The opening book: early positions of the small boards, proven offline and answered at once.

On boards up to 6x6 with k=4 the solver proves most positions within the
budget, but not the first few stones of the game (the 5x5 k=4 empty board
takes seconds).  The book holds those: every non-terminal position up to a
number of stones, one entry per symmetry class, each with the exact score of
every legal move as the solver proved it.  The solver stays the source of
truth: ``python -m tictactoe book build`` fills a book with its proofs and
``book verify`` proves entries again (``tictactoe.tools.book_build``, the
offline half; this module is what a search reads, and never runs the solver).

A book is a gzipped JSON file in ``tictactoe/data/``, one per set of rules::

    {"format": 1, "engine": "1", "rules": {"rows": 5, "cols": 5, "k": 4},
     "max_stones": 2,
     "entries": {"x........................": [0, 0, -19, ...], ...}}

An entry's key is the canonical board's rows joined (``Board.canonical``);
its list holds the score of each empty cell of the canonical board, in
row-major order, in the solver's terms (``score_to_value`` with the
position's empty cells).  ``max_stones`` is the promise: every non-terminal
position with at most that many stones is in the book (a build that was
stopped may hold some positions beyond it too).  ``engine`` is the engine
version that proved it: a book of another version is ignored.

Nothing is read at import; a book is read once per process, when a board of
its rules is first looked up.
"""

from __future__ import annotations

import gzip
import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..game.board import Board
from ..game.rules import Cell, Rules
from ..game.values import MoveValue, SolveResult, Source, Value, score_to_value
from ..game.version import ENGINE_VERSION

FORMAT = 1
# The books ship in the engine package's data folder (pyproject.toml's package data).
BOOK_DIR = Path(__file__).parent.parent / "data"


class BookFormatError(ValueError):
    """A book file that cannot be read or does not fit its rules; the message says why."""


def book_path(rules: Rules, directory: Path | None = None) -> Path:
    """Where the book of these rules lives: ``data/book-5x5k4.json.gz`` in ``directory`` or ``BOOK_DIR``."""
    return (directory or BOOK_DIR) / f"book-{rules.key()}.json.gz"


def position_key(board: Board) -> str:
    """The key of a canonical board: its rows joined (``x....`` and so on)."""
    return "".join(board.to_text())


@dataclass
class Book:
    """Proven positions of one set of rules, by canonical key, as each empty cell's score."""

    rules: Rules
    engine: str
    max_stones: int
    entries: dict[str, list[int]]

    def lookup(self, board: Board, all_moves: bool = False) -> SolveResult | None:
        """The book's answer for ``board`` (any orientation), or None when it is not in the book.

        The answer reads like the solver's: every optimal move, and with
        ``all_moves`` every legal move's value; ``source`` is ``Source.BOOK``.
        """
        start = time.monotonic()
        if board.rules != self.rules:
            return None
        canon, symmetry = board.canonical()
        scores = self.entries.get(position_key(canon))
        if scores is None:
            return None
        back = symmetry.inverse()
        empties = board.empty.bit_count()
        by_cell = {back.apply(cell): score for cell, score in zip(cell_list(canon), scores, strict=True)}
        best = max(by_cell.values())
        value = score_to_value(best, empties)
        move_values = None
        if all_moves:
            move_values = {cell: score_to_value(score, empties) for cell, score in sorted(by_cell.items())}
        return SolveResult(
            value=value.value,
            plies=value.plies,
            best_moves=sorted(cell for cell, score in by_cell.items() if score == best),
            nodes=0,
            seconds=time.monotonic() - start,
            proven=True,
            move_values=move_values,
            score=best,
            source=Source.BOOK,
        )

    def best_moves(self, board: Board) -> list[Cell]:
        """The book's best moves on ``board``; every legal move when the book does not hold it."""
        answer = self.lookup(board)
        return list(board.legal_moves()) if answer is None else answer.best_moves


def move_score(move_value: MoveValue, empties: int) -> int:
    """The solver's score of a move's value from a position with ``empties`` empty cells.

    The inverse of ``score_to_value``.
    """
    if move_value.value == Value.WIN:
        return empties + 1 - move_value.plies
    if move_value.value == Value.LOSS:
        return move_value.plies - empties - 1
    return 0


# -- files -------------------------------------------------------------------------


def load_book(path: Path) -> Book:
    """Read a book file; raises ``BookFormatError`` (or ``OSError``) when it cannot be used."""
    try:
        data = read_gzipped_json(path)
        if data.get("format") != FORMAT:
            raise BookFormatError(f"{path}: book format {data.get('format')!r}, expected {FORMAT}")
        rules = Rules(**data["rules"])
        entries = dict(data["entries"])
        for key, scores in entries.items():
            # A key is the board's cells; its entry has a score for each empty one.
            if len(key) != rules.cells or len(scores) != key.count("."):
                raise BookFormatError(f"{path}: the entry {key!r} does not fit {rules}")
        return Book(
            rules=rules, engine=str(data["engine"]), max_stones=int(data["max_stones"]), entries=entries
        )
    except (
        EOFError,
        gzip.BadGzipFile,
        json.JSONDecodeError,
        KeyError,
        TypeError,
        UnicodeDecodeError,
    ) as error:
        raise BookFormatError(f"{path}: not a book file ({error})") from None


def save_book(book: Book, path: Path) -> int:
    """Write the book atomically (a reader never sees half a file); returns its size in bytes."""
    data = {
        "format": FORMAT,
        "engine": book.engine,
        "rules": {"rows": book.rules.rows, "cols": book.rules.cols, "k": book.rules.k},
        "max_stones": book.max_stones,
        "entries": dict(sorted(book.entries.items())),
    }
    return write_gzipped_json(data, path)


def read_gzipped_json(path: Path) -> dict[str, Any]:
    """The JSON object of a gzipped file of the engine's data (a book, puzzles).

    Raises ``OSError``, ``EOFError``, ``gzip.BadGzipFile``, ``UnicodeDecodeError``
    or ``json.JSONDecodeError`` as reading it does, ``TypeError`` for JSON that is
    not an object.
    """
    with gzip.open(path, "rt", encoding="ascii") as stream:
        data = json.load(stream)
    if not isinstance(data, dict):
        raise TypeError(f"the file holds {type(data).__name__}, not an object")
    return data


def write_gzipped_json(data: dict[str, Any], path: Path) -> int:
    """Write ``data`` as compact ASCII JSON, gzipped, atomically (a reader never sees half a file);
    returns the file's size in bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    # mtime=0: the same data always makes the same bytes, so a rebuilt file shows no diff.
    with open(partial, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as stream:
        stream.write(json.dumps(data, separators=(",", ":")).encode("ascii"))
    os.replace(partial, path)
    return path.stat().st_size


# Each book read at most once a process, keyed by its folder and rules (the answer depends on the
# folder too); the key is a lookup's whole cost, the path made only when a book is read.
_books: dict[tuple[Path, Rules], Book | None] = {}
_books_lock = threading.Lock()


def book_for(rules: Rules) -> Book | None:
    """The shipped book of these rules (in ``BOOK_DIR``), read on first need; None when there is none to use.

    A book built by another engine version, or a file that cannot be read, is
    not used (the solver answers instead).
    """
    key = (BOOK_DIR, rules)
    if key in _books:
        return _books[key]
    with _books_lock:
        if key not in _books:
            book = None
            path = book_path(rules)
            if path.exists():
                try:
                    book = load_book(path)
                except (OSError, BookFormatError):
                    book = None
            if book is not None and (book.engine != ENGINE_VERSION or book.rules != rules):
                book = None
            _books[key] = book
    return _books[key]


def book_answer(board: Board, all_moves: bool = False) -> SolveResult | None:
    """The shipped book's answer for ``board``, or None when its rules have no book or it is not in it."""
    book = book_for(board.rules)
    return None if book is None else book.lookup(board, all_moves)


# -- keys ------------------------------------------------------------------------------


def board_of_key(rules: Rules, key: str) -> Board:
    """The board an entry's key names; raises ``BoardFormatError`` for a key of other rules."""
    cols = rules.cols
    return Board.from_text([key[i : i + cols] for i in range(0, len(key), cols)], k=rules.k)


def cell_list(board: Board) -> list[Cell]:
    """The empty cells of a board, in the order a book entry lists their scores."""
    return board.geometry.cells_of(board.empty)


__all__ = [
    "BOOK_DIR",
    "FORMAT",
    "Book",
    "BookFormatError",
    "board_of_key",
    "book_answer",
    "book_for",
    "book_path",
    "cell_list",
    "load_book",
    "move_score",
    "position_key",
    "read_gzipped_json",
    "save_book",
    "write_gzipped_json",
]
