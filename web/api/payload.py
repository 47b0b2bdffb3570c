"""The request body of POST /move, /analyze and /state: read, checked, turned into a Board.

Nothing is coerced: a value of the wrong type or out of range is a 400 that
says which field and why; a board that parses but cannot arise in a game is a
409 (the engine's ``IllegalPositionError``).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Request

from tictactoe import DEFAULT_LEVEL, LEVELS, Board, BoardFormatError, Level
from tictactoe.algorithms.registry import ENGINES
from web.http.errors import ApiError
from web.http.json_body import json_object, read_json_body, refuse_unknown_fields, show
from web.operations.request_log import note

MAX_SEED = 2**63 - 1
FIELDS = {
    "move": ("board", "k", "level", "seed", "engine"),
    "analyze": ("board", "k", "level", "engine"),
    "state": ("board", "k"),
}


@dataclass(frozen=True)
class PositionRequest:
    """A checked request: the board (reachable), the level, the optional seed and engine name.

    ``engine`` is None for the default (the production solver behind the shared cache).
    """

    board: Board
    level: Level
    seed: int | None
    engine: str | None = None


def read_position_request(request: Request, endpoint: str) -> PositionRequest:
    """Read, parse and check the JSON body for ``endpoint`` (a key of ``FIELDS``).

    Raises ``ApiError`` 400 for a body that is not a board request, 409 for a
    board that cannot arise in a game (413 comes from the size limit upstream).
    """
    return parse_position_request(read_json_body(request), endpoint)


def parse_position_request(raw: bytes, endpoint: str) -> PositionRequest:
    """Parse and check a body read by ``read_json_body`` for ``endpoint``: see ``read_position_request``."""
    body = json_object(raw, '{"board": ["x..", ".o.", "..."]}')
    refuse_unknown_fields(body, FIELDS[endpoint])
    if "board" not in body:
        raise ApiError(400, 'board is required: a list of row strings such as ["x..", ".o.", "..."]')
    # A field given as null is refused like any other wrong type, hence "in body".
    k = body.get("k")
    if ("k" in body or k is not None) and (not isinstance(k, int) or isinstance(k, bool)):
        raise ApiError(400, f"k must be an integer, not {show(k)}")
    level = body.get("level", DEFAULT_LEVEL)
    if not isinstance(level, str) or level not in LEVELS:
        raise ApiError(400, f"level must be one of {', '.join(LEVELS)}, not {show(level)}")
    seed = body.get("seed")
    if ("seed" in body or seed is not None) and (
        not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED
    ):
        raise ApiError(400, f"seed must be an integer from 0 to {MAX_SEED}, not {show(seed)}")
    engine = body.get("engine")
    if ("engine" in body or engine is not None) and (not isinstance(engine, str) or engine not in ENGINES):
        raise ApiError(400, f"engine must be one of {', '.join(ENGINES)}, not {show(engine)}")
    try:
        board = Board.from_text(body["board"], k=k)
    except BoardFormatError as error:
        raise ApiError(400, str(error)) from None
    note(board=board.rules.key())
    # IllegalPositionError (409) goes to its registered handler as it is.
    return PositionRequest(board=board, level=Level(level), seed=seed, engine=engine)
