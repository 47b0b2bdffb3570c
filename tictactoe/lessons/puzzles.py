"""Puzzles proven offline: a position, a task, and the one move that keeps the value at each step.

A puzzle asks the side to move to *win* or to *save the draw* (on five in a
row: to win within a number of its moves).  Its solution is a list of steps;
at each step exactly one legal move keeps the value, which the solver proved
(or, on five in a row, an exhaustive search to the puzzle's horizon:
``tictactoe.tactics.horizon``), and every other move has its refutation kept
beside it: the opponent's answer and what the move is worth.  After the last
step the rest of the game is the puzzle's *line*.  A save of three steps on 3x3::

    . . x     O to move.  Only b2 keeps the draw (X answers b1); then only a1
    x . .     (X answers c3); then only c2.  After it the game can only be drawn.
    . o .

``python -m tictactoe puzzles build`` draws them into ``tictactoe/data/``, one
gzipped JSON file per set of rules (``tictactoe.tools.puzzle_build``, the
offline half); this module reads them, once per process, and never searches::

    {"format": 1, "engine": "1", "rules": {"rows": 3, "cols": 3, "k": 3},
     "puzzles": [{"id": "3x3k3-cbca38", "position": "2x/x2/1o1", "task": "draw",
                  "within": null,
                  "steps": [{"move": "b2", "reply": "b1",
                             "wrong": {"a1": ["b2", "loss", 4], "b1": ["b2", "loss", 4], ...}},
                            {"move": "a1", "reply": "c3", "wrong": {...}},
                            {"move": "c2", "reply": null, "wrong": {"a3": ["c2", "loss", 2]}}],
                  "line": ["a3"], "plies": 6, "tempting": 8, "difficulty": 5,
                  "source": "every 3x3 position"}, ...]}

Cells are written as people name them (``b2``: column letter, row from 1 at
the top).  A refutation is ``[reply, value, plies]``: the opponent's answer
(null when the wrong move ends the game) and the wrong move's value for the
player (null with its plies when only the horizon was searched: the move does
not win within it).
"""

from __future__ import annotations

import datetime
import functools
import gzip
import hashlib
import json
import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from ..book.lookup import read_gzipped_json, write_gzipped_json
from ..game.board import Board
from ..game.notation import cell_from_label, cell_label
from ..game.rules import Cell, Rules
from ..game.values import Player, Value

FORMAT = 1
DATA_DIR = Path(__file__).parent.parent / "data"
PREFIX = "puzzles-"
# A puzzle's id: its rules' key and six hex digits of a hash of what it asks (``puzzle_id``).
ID_PATTERN = r"^[0-9]{1,2}x[0-9]{1,2}k[0-9]{1,2}-[0-9a-f]{6}$"
DIFFICULTIES = range(1, 6)
# A puzzle's rating on the scale a player's starts from: where its difficulty puts it.
RATING_BASE = 800
RATING_STEP = 200
# The daily puzzle is drawn from the puzzles at least this hard, in an order fixed by this seed.
DAILY_MIN_DIFFICULTY = 2
DAILY_ORDER = "daily puzzles, order 1"


class Task(StrEnum):
    """What a puzzle asks of the side to move."""

    WIN = "win"
    DRAW = "draw"  # save the draw


class PuzzleFormatError(ValueError):
    """A puzzle file that cannot be read or does not fit its rules; the message says why."""


@dataclass(frozen=True)
class Refutation:
    """Why a wrong move is wrong: the opponent's answer (None when the move ends the game), and the
    move's value and plies for the player (value None: it does not win within the horizon)."""

    reply: Cell | None
    value: Value | None
    plies: int | None


@dataclass(frozen=True)
class Step:
    """One move the player must find: the only one that keeps the value, the opponent's answer in
    the solution (None after the last step), and every other legal move's refutation."""

    move: Cell
    reply: Cell | None
    wrong: dict[Cell, Refutation]


@dataclass(frozen=True)
class Puzzle:
    """A proven puzzle (see the module docstring)."""

    id: str
    rules: Rules
    position: str
    task: Task
    within: int | None
    steps: tuple[Step, ...]
    line: tuple[Cell, ...]
    plies: int | None
    tempting: int
    difficulty: int
    source: str

    def board(self) -> Board:
        """The puzzle's position, as a new board."""
        return Board.from_position_text(self.position, k=self.rules.k)

    @functools.cached_property
    def player(self) -> Player:
        """The side the puzzle asks to move."""
        return self.board().to_move

    @property
    def rating(self) -> int:
        """The puzzle's rating: its difficulty on a player's scale (``RATING_BASE`` for the easiest)."""
        return RATING_BASE + RATING_STEP * (self.difficulty - 1)

    def position_after(self, steps: int) -> Board:
        """The position after ``steps`` of the solution's steps (each move and its reply)."""
        board = self.board()
        for step in self.steps[:steps]:
            board.play(step.move)
            if step.reply is not None:
                board.play(step.reply)
        return board


def puzzle_id(rules: Rules, position: str, task: Task, within: int | None) -> str:
    """The id of the puzzle that asks ``task`` (within ``within`` moves) on ``position``."""
    asked = f"{rules.key()}|{position}|{task}|{within}"
    return f"{rules.key()}-{hashlib.sha256(asked.encode()).hexdigest()[:6]}"


# -- files -----------------------------------------------------------------------------


def puzzle_path(rules: Rules, directory: Path | None = None) -> Path:
    """Where the puzzles of these rules live: ``puzzles-3x3k3.json.gz`` in ``directory`` or ``DATA_DIR``."""
    return (directory or DATA_DIR) / f"{PREFIX}{rules.key()}.json.gz"


def save_puzzles(rules: Rules, puzzles: Iterable[Puzzle], path: Path, engine: str) -> int:
    """Write the puzzles atomically, in id order, the same bytes for the same puzzles; returns the size."""
    data = {
        "format": FORMAT,
        "engine": engine,
        "rules": {"rows": rules.rows, "cols": rules.cols, "k": rules.k},
        "puzzles": [_to_json(puzzle) for puzzle in sorted(puzzles, key=lambda p: p.id)],
    }
    return write_gzipped_json(data, path)


def load_puzzles(path: Path) -> list[Puzzle]:
    """Read a puzzle file; raises ``PuzzleFormatError`` (or ``OSError``) when it cannot be used."""
    try:
        data = read_gzipped_json(path)
        if data.get("format") != FORMAT:
            raise PuzzleFormatError(f"{path}: puzzle format {data.get('format')!r}, expected {FORMAT}")
        rules = Rules(**data["rules"])
        return [_from_json(rules, entry) for entry in data["puzzles"]]
    except (EOFError, gzip.BadGzipFile, json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
        if isinstance(error, PuzzleFormatError):
            raise
        raise PuzzleFormatError(f"{path}: not a puzzle file ({error})") from None


def _to_json(puzzle: Puzzle) -> dict[str, object]:
    rules = puzzle.rules

    def name(cell: Cell | None) -> str | None:
        return None if cell is None else cell_label(rules, cell)

    return {
        "id": puzzle.id,
        "position": puzzle.position,
        "task": str(puzzle.task),
        "within": puzzle.within,
        "steps": [
            {
                "move": name(step.move),
                "reply": name(step.reply),
                "wrong": {
                    cell_label(rules, cell): [
                        name(why.reply),
                        None if why.value is None else str(why.value),
                        why.plies,
                    ]
                    for cell, why in sorted(step.wrong.items())
                },
            }
            for step in puzzle.steps
        ],
        "line": [name(cell) for cell in puzzle.line],
        "plies": puzzle.plies,
        "tempting": puzzle.tempting,
        "difficulty": puzzle.difficulty,
        "source": puzzle.source,
    }


def _from_json(rules: Rules, entry: dict[str, object]) -> Puzzle:
    def cell(label: object) -> Cell:
        return cell_from_label(rules, str(label))

    def maybe(label: object) -> Cell | None:
        return None if label is None else cell(label)

    steps = []
    for step in entry["steps"]:  # type: ignore[attr-defined]
        wrong = {
            cell(label): Refutation(maybe(reply), None if value is None else Value(value), plies)
            for label, (reply, value, plies) in step["wrong"].items()
        }
        steps.append(Step(cell(step["move"]), maybe(step["reply"]), wrong))
    within = entry["within"]
    plies = entry["plies"]
    puzzle = Puzzle(
        id=str(entry["id"]),
        rules=rules,
        position=str(entry["position"]),
        task=Task(str(entry["task"])),
        within=None if within is None else int(within),  # type: ignore[call-overload]
        steps=tuple(steps),
        line=tuple(cell(label) for label in entry["line"]),  # type: ignore[attr-defined]
        plies=None if plies is None else int(plies),  # type: ignore[call-overload]
        tempting=int(entry["tempting"]),  # type: ignore[call-overload]
        difficulty=int(entry["difficulty"]),  # type: ignore[call-overload]
        source=str(entry["source"]),
    )
    if puzzle.id != puzzle_id(rules, puzzle.position, puzzle.task, puzzle.within):
        raise PuzzleFormatError(f"the puzzle {puzzle.id} does not have the id of what it asks")
    if puzzle.difficulty not in DIFFICULTIES or not puzzle.steps:
        raise PuzzleFormatError(f"the puzzle {puzzle.id} has no steps or a difficulty out of 1..5")
    return puzzle


# -- the set -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    """Puzzles of a list, in id order: these ones, the id to ask after for the next page (None at
    the end), and how many the whole list holds."""

    puzzles: list[Puzzle]
    next: str | None
    total: int


class PuzzleSet:
    """Every puzzle of a folder's files, by id and in id order."""

    def __init__(self, puzzles: Iterable[Puzzle]) -> None:
        self.ordered = sorted(puzzles, key=lambda puzzle: puzzle.id)
        self.by_id = {puzzle.id: puzzle for puzzle in self.ordered}
        if len(self.by_id) != len(self.ordered):
            raise PuzzleFormatError("two puzzles share an id")
        # The daily puzzle's turn: a fixed shuffle of the harder ones, so that days go round every board.
        daily = [p for p in self.ordered if p.difficulty >= DAILY_MIN_DIFFICULTY] or self.ordered
        self.daily_order = sorted(
            daily, key=lambda p: hashlib.sha256(f"{DAILY_ORDER}|{p.id}".encode()).digest()
        )

    def get(self, puzzle_id: str) -> Puzzle | None:
        """The puzzle of this id, or None."""
        return self.by_id.get(puzzle_id)

    def rules(self) -> list[Rules]:
        """The rules that have puzzles, smallest board first."""
        return sorted({p.rules for p in self.ordered}, key=lambda r: (r.cells, r.k))

    def select(
        self, rules: Rules | None = None, task: Task | None = None, after: str | None = None, limit: int = 20
    ) -> Page:
        """The page of up to ``limit`` puzzles of ``rules`` and ``task`` (None: any) whose ids come
        after ``after`` (None: from the first), in id order."""
        chosen = [
            p
            for p in self.ordered
            if (rules is None or p.rules == rules) and (task is None or p.task == task)
        ]
        start = 0 if after is None else next((i for i, p in enumerate(chosen) if p.id > after), len(chosen))
        page = chosen[start : start + limit]
        more = start + limit < len(chosen)
        return Page(page, page[-1].id if more and page else None, len(chosen))

    def daily(self, day: datetime.date) -> Puzzle:
        """The puzzle of ``day``: the same for everyone that day; ``LookupError`` when there are none."""
        if not self.daily_order:
            raise LookupError("there are no puzzles")
        return self.daily_order[day.toordinal() % len(self.daily_order)]

    def __iter__(self) -> Iterator[Puzzle]:
        return iter(self.ordered)

    def __len__(self) -> int:
        return len(self.ordered)


def puzzle_boards(directory: Path | None = None) -> list[str]:
    """The keys of the rules that have puzzles in ``DATA_DIR`` (or ``directory``), such as ``5x5k4``,
    smallest board first, as ``PuzzleSet.rules`` orders them: read from the files' names, none opened.
    """
    suffix = ".json.gz"
    keys = [
        path.name[len(PREFIX) : -len(suffix)] for path in (directory or DATA_DIR).glob(f"{PREFIX}*{suffix}")
    ]

    def size(key: str) -> tuple[int, int]:
        rows, cols, k = map(int, re.split("[xk]", key))
        return rows * cols, k

    return sorted(keys, key=size)


_sets: dict[Path, PuzzleSet] = {}
_sets_lock = threading.Lock()


def puzzle_set(directory: Path | None = None) -> PuzzleSet:
    """The puzzles shipped in ``DATA_DIR`` (or ``directory``), read once a process.

    Raises ``PuzzleFormatError`` when a file cannot be read: the puzzles ship
    with the engine, so a broken one is a broken build, not a missing feature.
    """
    folder = directory or DATA_DIR
    found = _sets.get(folder)
    if found is None:
        with _sets_lock:
            found = _sets.get(folder)
            if found is None:
                paths = sorted(folder.glob(f"{PREFIX}*.json.gz"))
                found = _sets[folder] = PuzzleSet(p for path in paths for p in load_puzzles(path))
    return found


__all__ = [
    "DATA_DIR",
    "DIFFICULTIES",
    "FORMAT",
    "ID_PATTERN",
    "Page",
    "Puzzle",
    "PuzzleFormatError",
    "PuzzleSet",
    "Refutation",
    "Step",
    "Task",
    "load_puzzles",
    "puzzle_boards",
    "puzzle_id",
    "puzzle_path",
    "puzzle_set",
    "save_puzzles",
]
