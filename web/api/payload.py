"""The request body of POST /move, /analyze and /state: read, checked, turned into a Board.

Nothing is coerced: a value of the wrong type or out of range is a 400 that
says which field and why; a board that parses but cannot arise in a game is a
409 (the engine's ``IllegalPositionError``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from flask import Request

from tictactoe import DEFAULT_LEVEL, LEVELS, Board, BoardFormatError, Level
from tictactoe.algorithms.registry import ENGINES
from web.http.errors import ApiError
from web.operations.request_log import note

MAX_SEED = 2**63 - 1
# Integer literals longer than this are refused while parsing (a seed has at most 19).
MAX_DIGITS = 100
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


def read_json_body(request: Request) -> bytes:
    """The body as sent, unparsed; ``ApiError`` 400 when its Content-Type is not JSON.

    (413 for a body over ``MAX_CONTENT_LENGTH`` comes from werkzeug, or from
    web/http/protocol.py's hook before any view.)
    """
    environ = request.environ
    length_text = environ.get("CONTENT_LENGTH", "")
    if environ.get("CONTENT_TYPE") == "application/json" and length_text.isdigit():
        # The common request, written as the API asks, read as it is: one read of the
        # stated length from the server's stream (web/http/protocol.py refused a longer
        # one already).  Anything else takes werkzeug's parsing and stream below.
        body: bytes = environ["wsgi.input"].read(int(length_text))
        return body
    mimetype = request.mimetype  # parsed from the header on every read
    if mimetype != "application/json":
        given = f"not {mimetype!r}" if mimetype else "and none was given"
        raise ApiError(400, f"Content-Type must be application/json, {given}")
    length = request.content_length
    if length is None:  # chunked: read whole by web/http/protocol.py, kept by werkzeug
        return request.get_data(cache=False)
    # One read of the length the header gave (at most MAX_CONTENT_LENGTH, checked
    # before any view): reading to the end would ask the stream again to find it.
    return request.stream.read(length)


def parse_position_request(raw: bytes, endpoint: str) -> PositionRequest:
    """Parse and check a body read by ``read_json_body`` for ``endpoint``: see ``read_position_request``."""
    body = _json_object(raw)
    allowed = FIELDS[endpoint]
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise ApiError(400, f"unknown field {_show(unknown[0])}: the fields are {', '.join(allowed)}")
    if "board" not in body:
        raise ApiError(400, 'board is required: a list of row strings such as ["x..", ".o.", "..."]')
    # A field given as null is refused like any other wrong type, hence "in body".
    k = body.get("k")
    if ("k" in body or k is not None) and (not isinstance(k, int) or isinstance(k, bool)):
        raise ApiError(400, f"k must be an integer, not {_show(k)}")
    level = body.get("level", DEFAULT_LEVEL)
    if not isinstance(level, str) or level not in LEVELS:
        raise ApiError(400, f"level must be one of {', '.join(LEVELS)}, not {_show(level)}")
    seed = body.get("seed")
    if ("seed" in body or seed is not None) and (
        not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED
    ):
        raise ApiError(400, f"seed must be an integer from 0 to {MAX_SEED}, not {_show(seed)}")
    engine = body.get("engine")
    if ("engine" in body or engine is not None) and (not isinstance(engine, str) or engine not in ENGINES):
        raise ApiError(400, f"engine must be one of {', '.join(ENGINES)}, not {_show(engine)}")
    try:
        board = Board.from_text(body["board"], k=k)
    except BoardFormatError as error:
        raise ApiError(400, str(error)) from None
    note(board=board.rules.key())
    # IllegalPositionError (409) goes to its registered handler as it is.
    return PositionRequest(board=board, level=Level(level), seed=seed, engine=engine)


def _json_object(data: bytes) -> dict[str, object]:
    """The body as a JSON object, or ``ApiError`` 400 saying what is wrong with it."""
    if not data.strip():
        raise ApiError(400, 'the body is empty: send a JSON object such as {"board": ["x..", ".o.", "..."]}')
    try:
        text = data.decode("utf-8")
        body = json.loads(
            text, parse_constant=_reject_constant, parse_int=_bounded_int, object_pairs_hook=_unique_keys
        )
    except UnicodeDecodeError:
        raise ApiError(400, "the body is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise ApiError(
            400, f"the body is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except DuplicateField as error:
        raise ApiError(400, str(error)) from None
    except ValueError as error:  # NaN or Infinity, or a number too long
        raise ApiError(400, f"the body is not valid JSON: {error}") from None
    except RecursionError:
        raise ApiError(400, "the body is not valid JSON: nested too deeply") from None
    if not isinstance(body, dict):
        raise ApiError(400, f"the body must be a JSON object, not {_kind(body)}")
    return body


class DuplicateField(ValueError):
    """A JSON object names one field twice."""


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON value")


def _bounded_int(text: str) -> int:
    """An integer literal, refused past ``MAX_DIGITS`` digits (no field needs more)."""
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise ValueError(f"a number has {digits} digits, more than {MAX_DIGITS}")
    return int(text)


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """An object from its pairs, refusing a repeated name.

    Parsers disagree on which of two equal names wins (Python keeps the last,
    others the first), so a body that says ``level`` twice is refused rather
    than read one way here and another way by whatever sits in front of us.
    """
    body: dict[str, object] = {}
    for name, value in pairs:
        if name in body:
            raise DuplicateField(f"field {_show(name)} is given twice: give each field once")
        body[name] = value
    return body


def _kind(value: object) -> str:
    """The JSON name of a value's type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _show(value: object) -> str:
    """A short JSON rendering of a value for an error message."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."
