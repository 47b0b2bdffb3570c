"""The request body of POST /move, /analyze and /state: declared once, read, checked, made a Board.

Each field is declared once (``Field``): what it accepts as JSON Schema, which
/openapi.json shows (``body_schema``), and the check that reads it here; each
body is the tuple of its fields (``BODIES``).  Nothing is coerced: a value of
the wrong type or out of range is a 400 that says which field and why; a board
that parses but cannot arise in a game is a 409 (the engine's
``IllegalPositionError``).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Request

from tictactoe import DEFAULT_LEVEL, LEVELS, MAX_SIZE, MIN_K, MIN_SIZE, Board, BoardFormatError, Level
from tictactoe.algorithms.registry import ENGINES, describe_levels
from web.http.errors import ApiError
from web.http.json_body import (
    Field,
    Schema,
    checked,
    fields_schema,
    integer,
    json_object,
    read_fields,
    read_json_body,
)
from web.openapi.declarations import Refusal
from web.telemetry.request_log import note

MAX_SEED = 2**63 - 1
SIZES = range(MIN_SIZE, MAX_SIZE + 1)
# What a route that reads a board may answer besides its board's analysis (/openapi.json).
NOT_A_BOARD = Refusal(
    400,
    "Not a board request: not JSON, wrong Content-Type, wrong field types, unknown fields, bad"
    " characters, ragged rows, a size outside 3..15, a k that does not fit, or an unknown level or"
    " engine. The message says which (for an engine, it names the valid ones).",
)
CANNOT_PLAY = Refusal(
    409,
    "A well-formed board that cannot be played on: impossible counts of x and o, both sides with a"
    " line, a line followed by more moves, or (/move, /analyze, /position, /trace) a game that is"
    " already over.",
)


BOARD = Field(
    "board",
    {
        "type": "array",
        "minItems": MIN_SIZE,
        "maxItems": MAX_SIZE,
        "items": {"type": "string", "pattern": f"^[xXoO.]{{{MIN_SIZE},{MAX_SIZE}}}$"},
        "description": "Rows, top first: x and o in either case, '.' for empty, all rows"
        " of one length. X moves first, so the side to move follows from"
        " the counts.",
        "example": ["x..", ".o.", "..."],
    },
    check=lambda rows: rows,  # read, with k, by Board.from_text: its words say what is wrong
    missing='board is required: a list of row strings such as ["x..", ".o.", "..."]',
)
K = Field(
    "k",
    {
        "type": "integer",
        "minimum": MIN_K,
        "maximum": MAX_SIZE,
        "description": "Stones in a row to win, at most the longer side. Default: 3 on"
        " 3x3, otherwise min(rows, cols, 5).",
    },
    check=checked("k", integer, "an integer"),
)
LEVEL = Field(
    "level",
    {
        "type": "string",
        "enum": list(LEVELS),
        "default": DEFAULT_LEVEL,
        "description": "; ".join(f"{entry['name']}: {entry['description']}" for entry in describe_levels()),
    },
    check=checked(
        "level", lambda value: isinstance(value, str) and value in LEVELS, f"one of {', '.join(LEVELS)}"
    ),
    default=DEFAULT_LEVEL,
    component="Level",
)
SEED = Field(
    "seed",
    {
        "type": "integer",
        "minimum": 0,
        "maximum": MAX_SEED,
        "description": "Makes the random choices of this request reproducible.",
    },
    check=checked(
        "seed", lambda value: integer(value) and 0 <= value <= MAX_SEED, f"an integer from 0 to {MAX_SEED}"
    ),
    component="Seed",
)
ENGINE = Field(
    "engine",
    {
        "type": "string",
        "enum": list(ENGINES),
        "description": "A teaching engine (GET /engines) to run instead of the"
        " default, the production solver behind the shared cache.",
    },
    check=checked(
        "engine", lambda value: isinstance(value, str) and value in ENGINES, f"one of {', '.join(ENGINES)}"
    ),
    component="EngineName",
)
# Each endpoint's body: its fields, in the order they are checked.
BODIES: dict[str, tuple[Field, ...]] = {
    "move": (BOARD, K, LEVEL, SEED, ENGINE),
    "analyze": (BOARD, K, LEVEL, ENGINE),
    "state": (BOARD, K),
}


def body_schema(endpoint: str) -> Schema:
    """The body of ``endpoint`` (a key of ``BODIES``) as JSON Schema: its fields, and an anyOf of
    the board shapes and k ranges accepted.

    JSON Schema cannot say "all rows have one length" or "k is at most the longer
    side" directly, so the anyOf lists cases, each of them simple: rows of
    exactly w cells and k <= w; or rows of w cells, at least K of them, and
    k = K (for K > w).  A request fits a case exactly when the server accepts
    its form, so that a request that fits can only fail on a game rule (409),
    never on its form (400).  (One flat anyOf: schemathesis cannot generate from
    an allOf of two anyOfs.)
    """

    def case(width: int, k_min: int, k_max: int, min_rows: int) -> Schema:
        board: Schema = {"items": {"pattern": f"^[xXoO.]{{{width}}}$"}}
        if min_rows > MIN_SIZE:
            board["minItems"] = min_rows
        return {"properties": {"board": board, "k": {"minimum": k_min, "maximum": k_max}}}

    return {
        **fields_schema(BODIES[endpoint]),
        "anyOf": [case(w, MIN_K, w, MIN_SIZE) for w in SIZES]
        + [case(w, k, k, k) for w in SIZES for k in SIZES if k > w],
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
    values = read_fields(json_object(raw, '{"board": ["x..", ".o.", "..."]}'), BODIES[endpoint])
    try:
        board = Board.from_text(values["board"], k=values["k"])
    except BoardFormatError as error:
        raise ApiError(400, str(error)) from None
    note(board=board.rules.key())
    # IllegalPositionError (409) goes to its registered handler as it is.
    return PositionRequest(
        board=board,
        level=Level(values.get("level", LEVEL.default)),
        seed=values.get("seed"),
        engine=values.get("engine"),
    )
