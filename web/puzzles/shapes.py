"""The puzzles' answers, declared once as TypedDicts.

The routes build them (web/puzzles/routes.py), mypy checks them, and
/openapi.json's schema of each is made from it (web/openapi/schemas.py), closed;
the string under a field is its words in the document.
"""

# No ``from __future__ import annotations``: pydantic reads the classes (typing_extensions'
# TypedDict: pydantic needs it before Python 3.12).
from typing import Annotated

from pydantic import Field
from typing_extensions import TypedDict

from tictactoe import PUZZLE_ID_PATTERN, Player, Task
from web.openapi.fields import Cell, Count, InRow, Rows, Side

PuzzleId = Annotated[str, Field(pattern=PUZZLE_ID_PATTERN)]


class PuzzleAnswer(TypedDict):
    """A puzzle as the player sees it before solving it: its solution is the server's to judge."""

    id: PuzzleId
    rows: Side
    cols: Side
    k: InRow
    board: Rows
    """The position, top row first."""
    position: str
    """The position text, as GET /position reads it."""
    player: Player
    """The side to move: the one the puzzle asks."""
    task: Task
    """win, or draw: save it."""
    within: Annotated[int, Field(ge=1)] | None
    """On five in a row: win within this many of the player's moves. Null: the game's value, as the
    solver proves it."""
    goal: str
    """The task in words: X to play and win."""
    moves: Annotated[int, Field(ge=1)]
    """Moves the player must find."""
    difficulty: Annotated[int, Field(ge=1, le=5)]
    """From the moves to find, the tempting wrong moves, and whether the first move is quiet
    (neither a win nor a block)."""
    rating: int
    """The difficulty on a player's rating scale (800 for 1, 200 more a level)."""
    tempting: Count
    """Wrong moves that look right: a threat, a block, a fork, or the rule ladder's own move."""
    source: str
    """Where the position comes from."""
    link: str
    """The puzzle's page: /puzzles/{id}."""
    embed: str
    """The puzzle for an iframe: /embed?puzzle={id}."""


class PuzzleList(TypedDict):
    """A page of puzzles in id order, the id to ask after for the next page, and the list's size."""

    puzzles: list[PuzzleAnswer]
    next: PuzzleId | None
    """Ask after this id for the next page; null at the end."""
    total: Count
    """Puzzles in the whole list."""


class DailyPuzzle(TypedDict):
    """The day's puzzle: the same for everyone on a UTC date."""

    date: Annotated[str, Field(json_schema_extra={"format": "date"})]
    puzzle: PuzzleAnswer


class PuzzleMoveAnswer(TypedDict):
    """What the engine made of a move in a puzzle, judged against the puzzle's proof (no search)."""

    id: PuzzleId
    move: Cell
    correct: bool
    """The move was the only one that keeps the value (or, revealed, the one shown)."""
    revealed: bool
    """The move was shown, as reveal asked."""
    solved: bool
    """The puzzle is solved: no move is left to find."""
    reply: Cell | None
    """The opponent's answer in the solution, played; null when wrong or solved."""
    refutation: Cell | None
    """The opponent's answer to a wrong move (not played)."""
    board: Rows
    """The position the player faces now (as it was, after a wrong move)."""
    line: list[Cell]
    """Once solved: the rest of the game the proof shows, in turn."""
    words: str
    """The verdict and its reasons, in words."""
