"""The opening book's offline half: prove positions into a book, turn one, and prove entries again.

``python -m tictactoe book build|verify|transpose`` runs these
(``tictactoe.tools.book_commands``); what a search reads is
``tictactoe.book.lookup``, which never runs the solver.
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..book.lookup import (
    Book,
    BookFormatError,
    board_of_key,
    cell_list,
    load_book,
    move_score,
    position_key,
    save_book,
)
from ..game.board import Board
from ..game.rules import Cell, Rules
from ..game.values import SolveResult
from ..search.solver import Solver

# How often a build writes what it has proven so far (so a killed build loses little).
SAVE_SECONDS = 30.0


def entry_scores(board: Board, result: SolveResult) -> list[int]:
    """A book entry: the score of each empty cell of ``board``, from a proven all-moves result."""
    if result.move_values is None:
        raise ValueError("a book entry needs every move's value: solve with all_moves=True")
    empties = board.empty.bit_count()
    return [move_score(result.move_values[cell], empties) for cell in cell_list(board)]


# -- positions -------------------------------------------------------------------------


def positions_by_stones(rules: Rules, max_stones: int) -> Iterator[tuple[int, dict[str, Board]]]:
    """Every non-terminal position up to ``max_stones`` stones, one per symmetry class.

    Yields ``(stones, {key: canonical board})`` for 0, 1, ... ``max_stones``
    stones.  A position is listed when a game reaches it without ending first.
    """
    level = {position_key(Board(rules)): Board(rules)}
    for stones in range(max_stones + 1):
        yield stones, level
        if stones == max_stones:
            return
        level = _children(level.values(), Board.legal_moves)


def positions_games_reach(book: Book, max_stones: int) -> Iterator[tuple[int, dict[str, Board]]]:
    """The positions a game against the engine reaches with the engine to move, up to ``max_stones``.

    The engine, on either side, plays one of the book's best moves; its
    opponent plays anything.  So with 0 and 1 stones every position is
    reached (the engine as x, then as o after any first move), and with
    ``s`` stones the positions two plies past those of ``s - 2``: one of its
    best moves, then any reply.  A position of ``s - 2`` that the book does
    not hold counts all its moves as best.  Yields ``(stones, {key:
    canonical board})`` as ``positions_by_stones`` does, each level computed
    when asked for, from the book as it is then (a build fills level ``s -
    2`` first).  On 6x6 with k=4 these are 178 of the 2,715 three-stone positions.
    """
    levels: list[dict[str, Board]] = []
    for stones in range(max_stones + 1):
        if stones < 2:
            level = dict(positions_by_stones(book.rules, stones))[stones]
        else:
            best = _children(levels[stones - 2].values(), book.best_moves)
            level = _children(best.values(), Board.legal_moves)
        levels.append(level)
        yield stones, level


def _children(boards: Iterable[Board], moves: Callable[[Board], Iterable[Cell]]) -> dict[str, Board]:
    """The canonical non-terminal positions one of ``moves(board)`` leads to, by key."""
    children: dict[str, Board] = {}
    for board in boards:
        for cell in moves(board):
            child = board.copy()
            child.play(cell)
            if child.is_over():
                continue
            canon = child.canonical()[0]
            children.setdefault(position_key(canon), canon)
    return children


# -- building and verifying ----------------------------------------------------------------


@dataclass(frozen=True)
class BuildProgress:
    """Where a build is: the stone count being proven, how far into it, and the book so far."""

    stones: int
    done: int
    total: int
    entries: int
    seconds: float
    games_first: bool = False  # the first pass: the positions games against the engine reach


def build_book(
    rules: Rules,
    max_stones: int,
    path: Path,
    engine: str,
    progress: Callable[[BuildProgress], None] | None = None,
    save_seconds: float = SAVE_SECONDS,
    jobs: int = 1,
) -> Book:
    """Prove every position up to ``max_stones`` stones into the book at ``path``.

    Resumable: what a book file already at ``path`` holds (same rules and
    engine version) is kept, and the proofs are written there every
    ``save_seconds``, so a build that is killed and started again goes on
    from its last save.  ``jobs`` processes prove positions side by side,
    each with one solver whose table is kept between its positions (a table
    only speeds a proof up; it never changes it), so the book is the same
    whatever ``jobs`` is.  Within a stone count, positions whose stones are
    nearest the centre are proven first.

    Two passes: first, level by level, the positions games against the
    engine reach with the engine to move (``positions_games_reach``), then
    every other position, level by level.  A build stopped part way (the
    6x6 book's third stone takes many hours) holds the answers games ask
    for.  Raises ``BookFormatError`` when ``path`` holds a book of other
    rules or another engine version.
    """
    book = Book(rules=rules, engine=engine, max_stones=-1, entries={})
    if path.exists():
        book = load_book(path)
        if book.rules != rules or book.engine != engine:
            raise BookFormatError(
                f"{path} holds a book for {book.rules}, engine {book.engine}:"
                f" not {rules}, engine {engine}; move it away to start afresh"
            )
    start = last_save = time.monotonic()
    with _Provers(rules, jobs) as provers:
        for games_first, levels in (
            (True, positions_games_reach(book, max_stones)),
            (False, positions_by_stones(rules, max_stones)),
        ):
            for stones, level in levels:
                # The positions nearest the centre first: games reach them most, so a
                # build stopped part way through a level has the ones that matter.
                missing = sorted((key for key in level if key not in book.entries), key=_off_centre(rules))
                done = len(level) - len(missing)
                for key, scores in provers.prove(missing):
                    book.entries[key] = scores
                    done += 1
                    now = time.monotonic()
                    if now - last_save >= save_seconds:
                        save_book(book, path)
                        last_save = now
                    if progress is not None:
                        entries, seconds = len(book.entries), now - start
                        progress(BuildProgress(stones, done, len(level), entries, seconds, games_first))
                if not games_first:
                    book.max_stones = max(book.max_stones, stones)
    save_book(book, path)
    return book


def _off_centre(rules: Rules) -> Callable[[str], float]:
    """A key's stones' distance from the board's centre, summed (rows and columns apart)."""
    middle_row, middle_col = (rules.rows - 1) / 2, (rules.cols - 1) / 2

    def distance(key: str) -> float:
        return sum(
            abs(index // rules.cols - middle_row) + abs(index % rules.cols - middle_col)
            for index, mark in enumerate(key)
            if mark != "."
        )

    return distance


class _Provers:
    """Book entries proven in this process, or in ``jobs`` worker processes side by side."""

    def __init__(self, rules: Rules, jobs: int) -> None:
        self.pool = None
        if jobs > 1:
            # spawn, not fork: the parent may run threads (a web test's server, a cache).
            context = multiprocessing.get_context("spawn")
            self.pool = context.Pool(jobs, initializer=_start_prover, initargs=(rules,))
        else:
            _start_prover(rules)

    def prove(self, keys: list[str]) -> Iterator[tuple[str, list[int]]]:
        """``(key, entry)`` for each key, in the order the proofs finish."""
        if self.pool is None:
            return map(_prove_entry, keys)
        return self.pool.imap_unordered(_prove_entry, keys)

    def __enter__(self) -> _Provers:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
        _start_prover(None)  # a build's table can take a gigabyte: let it go


# The solver of this process while it proves book entries (one per worker process).
_prover: Solver | None = None


def _start_prover(rules: Rules | None) -> None:
    """Give this process a fresh solver of ``rules`` (None: no solver)."""
    global _prover
    _prover = None if rules is None else Solver(rules)


def _prove_entry(key: str) -> tuple[str, list[int]]:
    """The book entry of ``key``, proven by this process's solver."""
    assert _prover is not None, "_start_prover first"
    board = board_of_key(_prover.rules, key)
    return key, entry_scores(board, _prover.solve(board, all_moves=True))


def transposed_book(book: Book) -> Book:
    """The book of the transposed board (5x4 from 4x5): the same positions turned, no search.

    Turning a board about its diagonal maps lines onto lines, so a position and
    its transpose have the same value, move by turned move.
    """
    rules = Rules(book.rules.cols, book.rules.rows, book.rules.k)
    entries = {}
    for key in book.entries:
        canon = _turned(board_of_key(book.rules, key), rules).canonical()[0]
        answer = book.lookup(_turned(canon, book.rules), all_moves=True)
        assert answer is not None and answer.move_values is not None  # the entry turned back
        values = {
            rules.cell(*reversed(book.rules.row_col(cell))): move_value
            for cell, move_value in answer.move_values.items()
        }
        empties = canon.empty.bit_count()
        entries[position_key(canon)] = [move_score(values[cell], empties) for cell in cell_list(canon)]
    return Book(rules=rules, engine=book.engine, max_stones=book.max_stones, entries=entries)


def _turned(board: Board, rules: Rules) -> Board:
    """``board`` turned about its diagonal onto a board of ``rules`` (its transpose)."""
    turned = Board(rules)
    for row, text in enumerate(board.to_text()):
        for col, char in enumerate(text):
            if char != ".":
                bit = turned.geometry.bits[rules.cell(col, row)]
                if char == "x":
                    turned.x |= bit
                else:
                    turned.o |= bit
    return turned


@dataclass(frozen=True)
class Mismatch:
    """A book entry the solver disagrees with: the position and both lists of scores."""

    key: str
    book: list[int]
    solver: list[int]


def verify_book(
    book: Book, sample: int | None = None, seed: int = 0, progress: Callable[[int, int], None] | None = None
) -> tuple[int, list[Mismatch]]:
    """Prove entries again, each with a cold solver: ``(entries checked, mismatches)``.

    All entries, or a seeded random ``sample`` of them.  ``progress(done,
    total)`` is called after each one.
    """
    keys = sorted(book.entries)
    if sample is not None and sample < len(keys):
        keys = sorted(random.Random(seed).sample(keys, sample))
    mismatches = []
    for done, key in enumerate(keys, 1):
        board = board_of_key(book.rules, key)
        proven = entry_scores(board, Solver(book.rules).solve(board, all_moves=True))
        if proven != book.entries[key]:
            mismatches.append(Mismatch(key, book.entries[key], proven))
        if progress is not None:
            progress(done, len(keys))
    return len(keys), mismatches


__all__ = [
    "SAVE_SECONDS",
    "BuildProgress",
    "Mismatch",
    "build_book",
    "entry_scores",
    "positions_by_stones",
    "positions_games_reach",
    "transposed_book",
    "verify_book",
]
