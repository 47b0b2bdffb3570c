"""The puzzles' answers, declared once as TypedDicts.

The routes build them (web/puzzles/routes.py), mypy checks them, and
/openapi.json's puzzle schemas are generated from them (web/api/openapi.py), closed.
"""

# No ``from __future__ import annotations``: the schema reads the required keys
# from the classes, which under Python 3.11 sees NotRequired only when evaluated.
from typing import TypedDict

from tictactoe import Player, Task


class PuzzleCell(TypedDict):
    """A cell, counted from 0 (row 0 is the top row)."""

    row: int
    col: int


class PuzzleAnswer(TypedDict):
    """A puzzle as the player sees it before solving it (its solution is the server's to judge)."""

    id: str
    rows: int
    cols: int
    k: int
    board: list[str]
    position: str
    player: Player
    task: Task
    within: int | None
    goal: str
    moves: int
    difficulty: int
    rating: int
    tempting: int
    source: str
    link: str
    embed: str


class PuzzleList(TypedDict):
    """A page of puzzles in id order, the id to ask after for the next page, and the list's size."""

    puzzles: list[PuzzleAnswer]
    next: str | None
    total: int


class DailyPuzzle(TypedDict):
    """The day's puzzle (the same for everyone that day, by the UTC date)."""

    date: str
    puzzle: PuzzleAnswer


class PuzzleMoveAnswer(TypedDict):
    """What the engine made of a move in a puzzle (``tictactoe.judge``)."""

    id: str
    move: PuzzleCell
    correct: bool
    revealed: bool
    solved: bool
    reply: PuzzleCell | None
    refutation: PuzzleCell | None
    board: list[str]
    line: list[PuzzleCell]
    words: str
