"""The /move answer's fields, declared once: the view builds a ``MoveAnswer`` (mypy checks it)
and web/api/openapi.py generates the Move schema's property list and ``required`` from it.

The fields are declared in the order a perfect move's answer has them on the
wire.  The answer's pieces are TypedDicts too, so that the view builds the whole
answer from checked parts.
"""

# No ``from __future__ import annotations`` here: under Python 3.11 a TypedDict
# sees NotRequired only in an evaluated annotation, and the schema reads the
# required keys from the class.
from typing import NotRequired, TypedDict

from tictactoe import Level, Source, Status, Value
from tictactoe.game.values import Player


class CellAnswer(TypedDict):
    """A cell as the API names it."""

    row: int
    col: int


class StatusFields(TypedDict):
    """How the game on a board stands, and its winning line as [row, col] pairs."""

    status: Status
    line: list[list[int]] | None


class TeachingFields(TypedDict):
    """What a teaching engine's search adds to /move and /analyze."""

    engine: str
    finished: bool
    note: str
    nodes: int
    leaves: int | None
    ms: float
    principal_variation: list[list[int]]
    worker: int


class FoundFields(TypedDict):
    """What is known of the posted position for /move: the solver's figures, or a teaching engine's."""

    value: Value | None
    plies: int | None
    proven: bool
    source: Source | None
    cached: bool
    depth: int | None
    nodes: int
    ms: float
    worker: int
    engine: NotRequired[str]
    finished: NotRequired[bool]
    note: NotRequired[str]
    leaves: NotRequired[int | None]
    principal_variation: NotRequired[list[list[int]]]


class MovePlayed(TypedDict):
    """The move of a /move answer and the game after it."""

    move: CellAnswer
    player: Player
    board: list[str]
    status: Status
    line: list[list[int]] | None
    level: Level
    k: int


class MoveAnswer(MovePlayed, FoundFields):
    """The body of a 200 from POST /move: the move played, then what is known of the posted position."""
