"""The OpenAPI 3 description of the JSON API, served at GET /openapi.json.

The request schema is as precise as JSON Schema allows, so that a request that
fits it can only fail on a game rule (409), never on its form (400): every row
matches ``^[xXoO.]{3,15}$`` and all rows have one width, and ``k`` is at most
the longer side of the board.  What it cannot say (the counts of x and o, the
lines on the board) is the 409.
"""

from __future__ import annotations

from typing import Any, Protocol

from tictactoe import (
    ENGINE_VERSION,
    LEVELS,
    MAX_SIZE,
    MAX_TEXT_LENGTH,
    MIN_K,
    MIN_SIZE,
    PUZZLE_ID_PATTERN,
    Source,
    Status,
    Task,
    Value,
)
from tictactoe.algorithms.folding import DEFAULT_CAP as FOLD_CAP
from tictactoe.algorithms.registry import ENGINES, TRACEABLE, EngineDescription
from tictactoe.algorithms.trace import KINDS
from web.api.payload import BODIES, ENGINE, LEVEL, SEED
from web.api.shapes import (
    AnalysisAnswer,
    CellAnswer,
    EngineAnalysisAnswer,
    EnginesAnswer,
    FoldedCounts,
    MoveAnswer,
    MoveValueAnswer,
    PositionAnswer,
    ReasonedMove,
    RuleAnswer,
    StateAnswer,
    StatsAnswer,
    TraceAnswer,
    TraceNode,
)
from web.api.teaching import MAX_SIDE as TEACHING_MAX_SIDE
from web.api.teaching import TEACHING_NODES
from web.api.traces import DEFAULT_ENGINE as DEFAULT_TRACE_ENGINE
from web.api.traces import MAX_NODE_DIGITS
from web.cache.stats import Counts, WorkerCounts
from web.config import BACKENDS
from web.http.error_body import ErrorBody
from web.http.errors import MAX_BODY_BYTES
from web.http.json_body import Field
from web.puzzles.routes import (
    DEFAULT_LIMIT,
    MAX_LIMIT,
    MOVE_FIELDS,
    board_keys,
)
from web.puzzles.routes import MAX_AGE as PUZZLE_MAX_AGE
from web.puzzles.shapes import DailyPuzzle, PuzzleAnswer, PuzzleCell, PuzzleList, PuzzleMoveAnswer
from web.rooms.model import ABANDON_SECONDS, ID_LENGTH, NAME_LENGTH, OFFER_KINDS, REASONS
from web.rooms.routes import BODIES as ROOM_BODIES
from web.rooms.routes import BUSY_RETRY_AFTER
from web.rooms.routes import TOKEN as TOKEN_FIELD
from web.rooms.shapes import (
    EndEvent,
    MoveEvent,
    NameEvent,
    OfferEvent,
    OfferState,
    Players,
    PlayerState,
    PresenceEvent,
    RematchEvent,
    RoomState,
    SeatAnswer,
    SeatLinks,
    TakebackEvent,
)
from web.rooms.store import EVENTS_MARGIN
from web.rooms.stream import HEARTBEAT_SECONDS
from web.searches.slots import RETRY_AFTER_SECONDS

# A piece of the document: JSON, as nested as OpenAPI makes it.
Schema = dict[str, Any]


class _TypedDictClass(Protocol):
    """A TypedDict class, as far as ``typed_object`` reads it."""

    __annotations__: dict[str, Any]
    __required_keys__: frozenset[str]


def typed_object(shape: _TypedDictClass, properties: Schema, shared: Schema | None = None) -> Schema:
    """An object schema of the TypedDict ``shape``: its keys, in its order, as properties and required.

    Each key's schema is ``properties``' entry, else ``shared``'s (schemas that
    several answers share).  Raises ValueError when a key has no schema, or when
    ``properties`` names a key that ``shape`` lacks.
    """
    names = list(shape.__annotations__)
    table = {**(shared or {}), **properties}
    missing = [name for name in names if name not in table]
    stray = [name for name in properties if name not in shape.__annotations__]
    if missing or stray:
        raise ValueError(f"the TypedDict's keys {missing} have no schema; the schema's {stray} no key")
    return {
        "type": "object",
        "required": [name for name in names if name in shape.__required_keys__],
        "properties": {name: table[name] for name in names},
    }


SIZES = range(MIN_SIZE, MAX_SIZE + 1)
NULLABLE_VALUE = {"type": "string", "enum": [*map(str, Value), None], "nullable": True}
NULLABLE_PLIES = {"type": "integer", "minimum": 1, "nullable": True}
CELL = typed_object(
    CellAnswer, {"row": {"type": "integer", "minimum": 0}, "col": {"type": "integer", "minimum": 0}}
)
PAIR = {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer", "minimum": 0}}
PLAYER = {"type": "string", "enum": ["x", "o"]}
STATUS = {"type": "string", "enum": list(Status)}
BOARD_OUT = {"type": "array", "items": {"type": "string", "pattern": "^[xo.]+$"}}


def _request_schema(fields: tuple[Field, ...]) -> Schema:
    """The request body: its declared fields (web/api/payload.py), and an anyOf of the board
    shapes and k ranges accepted.

    JSON Schema cannot say "all rows have one length" or "k is at most the longer
    side" directly, so the anyOf lists cases, each of them simple: rows of
    exactly w cells and k <= w; or rows of w cells, at least K of them, and
    k = K (for K > w).  A request fits a case exactly when the server accepts
    its form.  (One flat anyOf: schemathesis cannot generate from an allOf of
    two anyOfs.)
    """

    def case(width: int, k_min: int, k_max: int, min_rows: int) -> Schema:
        board: Schema = {"items": {"pattern": f"^[xXoO.]{{{width}}}$"}}
        if min_rows > MIN_SIZE:
            board["minItems"] = min_rows
        return {"properties": {"board": board, "k": {"minimum": k_min, "maximum": k_max}}}

    return {
        "type": "object",
        "required": [field.name for field in fields if field.documented_required],
        "additionalProperties": False,
        "properties": {field.name: _field_schema(field) for field in fields},
        "anyOf": [case(w, MIN_K, w, MIN_SIZE) for w in SIZES]
        + [case(w, k, k, k) for w in SIZES for k in SIZES if k > w],
    }


def _field_schema(field: Field) -> Schema:
    """A field's schema in a body: a reference to its component when it has one."""
    return field.schema if field.component is None else {"$ref": f"#/components/schemas/{field.component}"}


def _closed(schema: Schema) -> Schema:
    """A copy of an answer's schema where every object with properties forbids any other field.

    An answer carries exactly its documented fields, so that a field a view adds
    and the document lacks fails the schema check (tests/test_api.py, schemathesis).
    An object that sets additionalProperties itself keeps it.
    """
    out = dict(schema)
    if "properties" in schema:
        out["properties"] = {name: _closed(part) for name, part in schema["properties"].items()}
        out.setdefault("additionalProperties", False)
    if "items" in schema:
        out["items"] = _closed(schema["items"])
    for keyword in ("anyOf", "allOf"):
        if keyword in schema:
            out[keyword] = [_closed(part) for part in schema[keyword]]
    return out


def _json(schema: Schema, description: str, headers: Schema | None = None) -> Schema:
    """A JSON response of ``schema`` (closed: see ``_closed``)."""
    response: Schema = {
        "description": description,
        "content": {"application/json": {"schema": _closed(schema)}},
    }
    if headers:
        response["headers"] = headers
    return response


ERROR = {"$ref": "#/components/schemas/Error"}
COUNTER = {"type": "integer", "minimum": 0}


def _errors(*statuses: int) -> Schema:
    texts = {
        400: "Not a board request: not JSON, wrong Content-Type, wrong field types, unknown"
        " fields, bad characters, ragged rows, a size outside 3..15, a k that does not"
        " fit, or an unknown level or engine. The message says which (for an engine,"
        " it names the valid ones).",
        409: "A well-formed board that cannot be played on: impossible counts of x and o,"
        " both sides with a line, a line followed by more moves, or (/move, /analyze)"
        " a game that is already over.",
        412: "If-Match names no tag of the answer: a proven answer has the ETag its 200"
        " sends, one that is not proven has none (only If-Match: * holds for it).",
        413: f"The body is larger than {MAX_BODY_BYTES // 1024} KiB.",
        422: f"With engine: a board larger than {TEACHING_MAX_SIDE}x{TEACHING_MAX_SIDE}, which the"
        " teaching engines do not search (leave engine out: the production solver answers).",
        429: "This client (by its address) has spent the seconds of search a minute that"
        " SEARCH_SECONDS_PER_MINUTE allows; positions already solved, and every 3x3 position,"
        " are still answered. Try again after Retry-After seconds (also in the body as"
        " retry_after).",
        503: "No search slot of this worker came free while the search waited its turn"
        " (SEARCH_QUEUE_WAIT; the slots are shared fairly across client addresses); try again"
        " after Retry-After seconds.",
    }
    return _error_responses(texts, statuses, RETRY_AFTER_SECONDS)


def _error_responses(texts: dict[int, str], statuses: tuple[int, ...], retry_after: int) -> Schema:
    """The error answers of ``statuses``, each saying its ``texts`` entry; a 429 or 503 with Retry-After."""
    out = {}
    for status in statuses:
        headers = None
        if status in (429, 503):
            headers = {
                "Retry-After": {
                    "description": "Seconds to wait before retrying.",
                    "schema": {"type": "integer", "minimum": 1, "example": retry_after},
                }
            }
        out[str(status)] = _json(ERROR, texts[status], headers)
    return out


def _post(
    summary: str,
    description: str,
    fields: tuple[Field, ...],
    answer: str | Schema,
    answer_text: str,
    errors: tuple[int, ...],
) -> Schema:
    schema = {"$ref": f"#/components/schemas/{answer}"} if isinstance(answer, str) else answer
    return {
        "post": {
            "summary": summary,
            "description": description,
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _request_schema(fields)}},
            },
            "responses": {"200": _json(schema, answer_text), **_errors(*errors)},
        }
    }


def _text_case(width: int, k_min: int, k_max: int, min_rows: int, max_rows: int = MAX_SIZE) -> Schema:
    """One case of a position-text query: ``min_rows`` to ``max_rows`` rows of ``width`` cells, k in range."""
    row = f"[xXoO.]{{{width}}}"
    return {
        "properties": {
            "board": {"pattern": f"^{row}(/{row}){{{min_rows - 1},{max_rows - 1}}}$"},
            "k": {"minimum": k_min, "maximum": k_max},
        }
    }


def _position_query() -> Schema:
    """The query of GET /position as one exploded object, so that k can follow the board's size.

    The anyOf has the request body's cases (``_request_schema``) in the text's
    one-character-per-cell spelling: rows of w cells and k <= w, or rows of w
    cells, at least K of them, and k = K.  The run-length spelling is accepted
    too; a pattern cannot count the cells of its runs, so the description says it.
    """
    case = _text_case
    return {
        "type": "object",
        "required": ["board"],
        "additionalProperties": False,
        "properties": {
            "board": {
                "type": "string",
                "minLength": 2 * MIN_SIZE - 1,
                "maxLength": MAX_TEXT_LENGTH,
                "example": "x2/1o1/3",
            },
            "k": {"type": "integer", "minimum": MIN_K, "maximum": MAX_SIZE},
        },
        "anyOf": [case(w, MIN_K, w, MIN_SIZE) for w in SIZES]
        + [case(w, k, k, k) for w in SIZES for k in SIZES if k > w],
    }


def _position_path() -> Schema:
    """GET /position: the parameters, the answer and its caching headers."""
    etag = {
        "ETag": {
            "description": "Strong validator of a proven answer: send it back in If-None-Match to get 304.",
            "schema": {"type": "string"},
        },
        "Cache-Control": {
            "description": "public, max-age=31536000, immutable when proven; no-store otherwise.",
            "schema": {"type": "string"},
        },
    }
    return {
        "get": {
            "summary": "A position's analysis, as a cacheable resource",
            "description": "What POST /analyze answers about the position, less the fields that"
            " describe one request's work (cached, nodes, ms, worker), plus source,"
            " with moves best first. A proven answer never changes: it carries"
            " Cache-Control: public, max-age=31536000, immutable and a strong ETag,"
            " and a matching If-None-Match gets 304 with no body. An answer that is"
            " not proven is no-store, without an ETag, and never a 304 (not even for"
            " If-None-Match: *). An If-Match that names none of the answer's tags gets 412.",
            "parameters": [
                {
                    "name": "position",
                    "in": "query",
                    "required": True,
                    "style": "form",
                    "explode": True,
                    "schema": _position_query(),
                    "description": "board: the position text, rows top first separated by /; in a"
                    " row x and o (either case) are stones, . is an empty cell, and a"
                    " number 1-15 (no leading zero) is that many empty cells, e.g."
                    " x2/1o1/3 or x../.o./... . k: stones in a row to win (default: 3"
                    " on 3x3, otherwise min(rows, cols, 5)), at most the longer side.",
                },
                {
                    "name": "If-None-Match",
                    "in": "header",
                    "required": False,
                    "schema": {"type": "string"},
                    "description": "ETags of a copy the client holds (or *): 304 when one matches.",
                },
            ],
            "responses": {
                "200": _json({"$ref": "#/components/schemas/Position"}, "The analysis.", etag),
                "304": {
                    "description": "Not modified: the copy whose ETag was sent is current.",
                    "headers": etag,
                },
                **_errors(400, 409, 412, 429, 503),
            },
        }
    }


def _bound(name: str, infinity: str) -> Schema:
    """A window's bound in a traced node: an integer, or null for an infinite one."""
    return {
        "type": "integer",
        "nullable": True,
        "description": f"The window's {name} on entry; null: {infinity} infinity.",
    }


def _trace_path() -> Schema:
    """GET /trace: the position (boards up to 4x4), the engine, the node to open, and the tree."""
    query = {
        "type": "object",
        "required": ["board"],
        "additionalProperties": False,
        "properties": {
            "board": {"type": "string", "minLength": 5, "maxLength": 19, "example": "x2/1o1/3"},
            "k": {"type": "integer", "minimum": MIN_K, "maximum": TEACHING_MAX_SIDE},
            "engine": {"type": "string", "enum": list(TRACEABLE), "default": DEFAULT_TRACE_ENGINE},
            "node": {"type": "integer", "minimum": 0, "maximum": 10**MAX_NODE_DIGITS - 1, "default": 0},
        },
        # 3 columns: 3 rows (k = 3) or 4 rows (k up to 4); 4 columns: 3 or 4 rows, k up to 4.
        "anyOf": [
            _text_case(3, MIN_K, 3, 3, 3),
            _text_case(3, MIN_K, 4, 4, 4),
            _text_case(4, MIN_K, 4, 3, 4),
        ],
    }
    node = typed_object(
        TraceNode,
        {
            "id": {
                "type": "integer",
                "minimum": 0,
                "description": "The node's place in the visiting order (0: the root).",
            },
            "parent": {"type": "integer", "minimum": 0, "nullable": True},
            "depth": {"type": "integer", "minimum": 0},
            "move": {
                **PAIR,
                "nullable": True,
                "description": "The move that led here as [row, col]; null at the root.",
            },
            "alpha": _bound("alpha", "minus"),
            "beta": _bound("beta", "plus"),
            "score": {
                "type": "integer",
                "minimum": -1,
                "maximum": 1,
                "nullable": True,
                "description": "What the node returned for its side to move (+1 win, 0 draw, -1 loss;"
                " a bound when kind is cut or fail-low); null when the search stopped inside it.",
            },
            "kind": {
                "type": "string",
                "enum": list(KINDS),
                "description": "exact; leaf (a finished game); hit (settled by the transposition"
                " table); cut (a move reached beta, the rest were skipped); fail-low (every move"
                " scored at most alpha); open (the search stopped inside it).",
            },
            "skipped": {"type": "array", "items": PAIR, "description": "A cut-off's moves never tried."},
            "size": {
                "type": "integer",
                "minimum": 1,
                "description": "Nodes in its subtree, itself included.",
            },
            "folded": {
                **typed_object(FoldedCounts, dict.fromkeys(FoldedCounts.__annotations__, COUNTER)),
                "nullable": True,
                "description": "Set when its descendants are not shown: what its subtree holds."
                " Open it with node set to its id.",
            },
        },
    )
    answer = typed_object(
        TraceAnswer,
        {
            "board": BOARD_OUT,
            "k": {"type": "integer", "minimum": MIN_K},
            "player": PLAYER,
            "engine": {"type": "string", "enum": list(TRACEABLE)},
            "windows": {
                "type": "boolean",
                "description": "Whether the engine has alpha-beta windows (not minimax).",
            },
            "move": CELL,
            "value": NULLABLE_VALUE,
            "finished": {"type": "boolean"},
            "note": {"type": "string"},
            "nodes": {
                "type": "integer",
                "minimum": 1,
                "description": "The whole search's nodes: /analyze's figure.",
            },
            "leaves": {"type": "integer", "minimum": 0, "nullable": True},
            "cuts": COUNTER,
            "hits": COUNTER,
            "root": {"type": "integer", "minimum": 0, "description": "The id of the first node in tree."},
            "cap": {"type": "integer", "minimum": 1, "description": "The most nodes tree holds."},
            "tree": {"type": "array", "items": node, "description": "The shown nodes, in visiting order."},
        },
    )
    return {
        "get": {
            "summary": "A teaching engine's search tree, node by node",
            "description": "Runs a depth-first teaching engine afresh on the position (boards up to"
            f" 4x4) and answers the nodes it visited, in order, at most {FOLD_CAP} of them: whole levels"
            " while they fit, bigger subtrees folded with their exact counts, so that the shown"
            " nodes (each 1, or its folded size) add up to nodes. node=N answers the subtree of"
            " node N instead. The search stops at its budget of"
            f" {TEACHING_NODES:,} nodes, never at a deadline (finished is then false), so the same"
            " request gets the same tree: a finished trace never changes, it is cacheable.",
            "parameters": [
                {
                    "name": "trace",
                    "in": "query",
                    "required": True,
                    "style": "form",
                    "explode": True,
                    "schema": query,
                    "description": "board and k as for GET /position; engine (default"
                    f" {DEFAULT_TRACE_ENGINE}); node: the id of the node whose subtree to show (default 0).",
                }
            ],
            "responses": {
                "200": _json(answer, "The search and its tree."),
                "422": _json(ERROR, "A board larger than 4x4, or a node this search does not have."),
                **_errors(400, 409, 429, 503),
            },
        }
    }


def build_spec() -> Schema:
    """The OpenAPI document (a fresh dict each call)."""
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "Tic-tac-toe move server",
            "version": f"1.0 (engine {ENGINE_VERSION})",
            "description": "A perfect m,n,k-game engine (3x3 to 15x15, k in a row) behind a"
            " shared cache of solved positions. Errors are JSON objects with"
            " one field, error, that says exactly what is wrong.",
        },
        "paths": {
            "/move": _post(
                "The engine's move",
                "Plays one move for the side to move in the posted position. value and"
                " plies describe the posted position for that side under perfect play"
                " (null unless proven); at easy and medium they are given only when the"
                " position is already in the cache (no search is made for them). With engine,"
                " that teaching engine chooses the move instead (level is then ignored), on a"
                f" board of up to {TEACHING_MAX_SIDE}x{TEACHING_MAX_SIDE} (422 beyond), to the end or"
                f" its budget of {TEACHING_NODES:,} nodes, never a deadline, outside the shared"
                " cache; the answer adds engine, finished, note, leaves and principal_variation,"
                " value is the engine's own (null when it did not prove one) and plies is null.",
                BODIES["move"],
                "Move",
                "The move played and the new board.",
                (400, 409, 413, 422, 429, 503),
            ),
            "/analyze": _post(
                "The value of every legal move",
                "For hints: the value and plies of every legal move for the side to move,"
                " which moves are best, and the position's value. level is accepted and"
                " ignored (the analysis is always perfect). With engine, the answer is that"
                " teaching engine's search of the position instead (EngineAnalysis), on a"
                f" board of up to {TEACHING_MAX_SIDE}x{TEACHING_MAX_SIDE} (422 beyond), to the end or"
                f" its budget of {TEACHING_NODES:,} nodes: the same search gives the same answer.",
                BODIES["analyze"],
                {
                    "anyOf": [
                        {"$ref": "#/components/schemas/Analysis"},
                        {"$ref": "#/components/schemas/EngineAnalysis"},
                    ]
                },
                "The analysis (Analysis), or with engine the engine's search (EngineAnalysis).",
                (400, 409, 413, 422, 429, 503),
            ),
            "/position": _position_path(),
            "/trace": _trace_path(),
            "/state": _post(
                "The status of a position",
                "Whether the game on this board goes on or how it ended, and the winning"
                " line. Finished games are answered here, not refused.",
                BODIES["state"],
                "State",
                "The position's status.",
                (400, 409, 413),
            ),
            "/engines": {
                "get": {
                    "summary": "The teaching engines",
                    "description": "The names that /move and /analyze take as engine, in teaching"
                    " order (each improves on the one before), with a line on each.",
                    "responses": {"200": _json({"$ref": "#/components/schemas/Engines"}, "The engines.")},
                }
            },
            "/healthz": {
                "get": {
                    "summary": "Health of the app and its cache backend",
                    "description": "200 when the app answers and a probe key makes a real round"
                    " trip through the cache backend; 503 otherwise.",
                    "responses": {
                        "200": _json({"$ref": "#/components/schemas/Health"}, "Healthy."),
                        "503": _json(
                            {"$ref": "#/components/schemas/Health"}, "The cache backend did not answer."
                        ),
                    },
                }
            },
            "/livez": {
                "get": {
                    "summary": "Liveness: the process answers",
                    "description": "200 as long as the worker can answer at all; it touches no"
                    " cache (readiness, with the cache, is /healthz).",
                    "responses": {
                        "200": _json(
                            {
                                "type": "object",
                                "required": ["status"],
                                "properties": {"status": {"type": "string", "enum": ["alive"]}},
                            },
                            "Alive.",
                        )
                    },
                }
            },
            "/stats": {
                "get": {
                    "summary": "Cache and search counters",
                    "description": "Counters of the worker that answers, and totals over every"
                    " worker of this server since it started: the same counters"
                    " as /metrics.",
                    "responses": {"200": _json({"$ref": "#/components/schemas/Stats"}, "Counters.")},
                }
            },
            "/metrics": {
                "get": {
                    "summary": "Prometheus metrics",
                    "description": "Requests by endpoint and status, latency histograms, the cache's"
                    " work, searches by board size, refusals (busy, rate limited)"
                    " and answers by source, summed over every worker, in"
                    " Prometheus' classic text format (text/plain; version=0.0.4;"
                    " charset=utf-8; docs/api.md lists them), rendered at most once a second"
                    " per worker. With METRICS_TOKEN set on the server it needs"
                    " Authorization: Bearer and that token.",
                    "responses": {
                        "200": {
                            "description": "The metrics.",
                            "content": {"text/plain": {"schema": {"type": "string"}}},
                        },
                        "401": _json(
                            ERROR,
                            "The server has a METRICS_TOKEN and the request did not bear it"
                            " (WWW-Authenticate: Bearer).",
                        ),
                    },
                }
            },
            **_room_paths(),
            **_puzzle_paths(),
            "/openapi.json": {
                "get": {
                    "summary": "This document",
                    "responses": {
                        "200": {
                            "description": "The OpenAPI description.",
                            "content": {"application/json": {"schema": {"type": "object"}}},
                        }
                    },
                }
            },
        },
        # Every component is an answer's but Level, Seed and EngineName (the request's), which are no objects.
        "components": {"schemas": {name: _closed(schema) for name, schema in _schemas().items()}},
    }


def _schemas() -> Schema:
    """The components: each answer's schema generated from its TypedDict (web/api/shapes.py)."""
    counters = dict.fromkeys(Counts.__annotations__, COUNTER)
    common = {
        "proven": {
            "type": "boolean",
            "description": "Whether value and plies are proven (false when the search"
            " ran out of budget; the move is then the best found).",
        },
        "source": {
            "type": "string",
            "enum": [*map(str, Source), None],
            "nullable": True,
            "description": "How the answer is known: proof (a full search proved it),"
            " book (proven offline, from the opening book), threats (a"
            " forced sequence of threats was found: the side to move's, or"
            " with value loss the opponent's after every legal move; plies"
            " then count the sequences found), heuristic (the best"
            " move of a search that ran out of budget: a guess). Kept by"
            " the cache: a hit says how the entry was solved. Null when no"
            " engine analysis stands behind the answer (a teaching engine,"
            " or a level's move with nothing known).",
        },
        "cached": {"type": "boolean", "description": "Whether the result came from the shared cache."},
        "depth": {
            "type": "integer",
            "nullable": True,
            "description": "Depth of the heuristic search when not proven, else null.",
        },
        "nodes": {"type": "integer", "minimum": 0, "description": "Positions searched."},
        "ms": {
            "type": "number",
            "minimum": 0,
            "description": "Time spent on the answer (cache and search), in ms.",
        },
        "worker": {"type": "integer", "description": "Process id of the worker that answered."},
        "k": {"type": "integer", "minimum": MIN_K},
    }

    teaching = {
        "engine": {**ENGINE.schema, "description": "The engine that searched."},
        "finished": {
            "type": "boolean",
            "description": "Whether the engine finished its search (false: stopped at"
            " its node budget; the move is then its best so far, and note says so).",
        },
        "note": {"type": "string", "description": "The engine's own words on the search."},
        "leaves": {
            "type": "integer",
            "minimum": 0,
            "nullable": True,
            "description": "Finished games reached (playouts for mcts), or null.",
        },
        "principal_variation": {
            "type": "array",
            "items": PAIR,
            "description": "The expected line of play as [row, col], starting with the move; [] when none.",
        },
    }
    # The posted position, as /analyze describes it in both its shapes.
    posted = {
        **common,
        "board": {**BOARD_OUT, "description": "The posted board (lower case)."},
        "player": {**PLAYER, "description": "The side to move."},
    }
    analysis = typed_object(
        AnalysisAnswer,
        {
            "value": {**NULLABLE_VALUE, "description": "The position's value for the side to move."},
            "plies": NULLABLE_PLIES,
            "best": {
                "type": "array",
                "items": CELL,
                "minItems": 1,
                "description": "Every optimal move when proven, else the best found.",
            },
            "moves": {
                "type": "array",
                "description": "Every legal move, row by row.",
                "items": typed_object(
                    MoveValueAnswer,
                    {
                        "value": {**NULLABLE_VALUE, "description": "For the side making the move."},
                        "plies": {
                            **NULLABLE_PLIES,
                            "description": "Moves to the end of the game counting this one.",
                        },
                        "best": {"type": "boolean"},
                    },
                    CELL["properties"],
                ),
            },
        },
        posted,
    )
    return {
        **{field.component: field.schema for field in (LEVEL, SEED, ENGINE) if field.component},
        "Engines": typed_object(
            EnginesAnswer,
            {
                "engines": {
                    "type": "array",
                    "items": typed_object(
                        EngineDescription,
                        {
                            "name": {"type": "string", "enum": list(ENGINES)},
                            "description": {"type": "string"},
                        },
                    ),
                }
            },
        ),
        "Error": typed_object(
            ErrorBody,
            {
                "error": {"type": "string", "description": "What is wrong, in words."},
                "retry_after": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "On a 429: the seconds to wait, as in Retry-After.",
                },
            },
        ),
        "Move": typed_object(
            MoveAnswer,
            {
                "move": CELL,
                "player": {**PLAYER, "description": "The side that moved."},
                "board": {**BOARD_OUT, "description": "The board after the move."},
                "status": {**STATUS, "description": "The game after the move."},
                "line": {
                    "type": "array",
                    "items": PAIR,
                    "nullable": True,
                    "description": "The winning line's cells as [row, col], or null.",
                },
                "value": {
                    **NULLABLE_VALUE,
                    "description": "The posted position's value for the side that moved.",
                },
                "plies": {
                    **NULLABLE_PLIES,
                    "description": "Moves left in the game from the posted position under perfect play.",
                },
                "level": {"type": "string", "enum": list(LEVELS)},
            },
            {**common, **teaching},
        ),
        "EngineAnalysis": typed_object(
            EngineAnalysisAnswer,
            {
                "move": {**CELL, "description": "The engine's choice."},
                "value": {
                    **NULLABLE_VALUE,
                    "description": "The position's value for the side to move as the"
                    " engine proved it (no plies), or null.",
                },
            },
            {**posted, **teaching},
        ),
        "Analysis": analysis,
        # GET /position: /analyze's schemas, less what describes one request's work, not the position.
        "Position": typed_object(
            PositionAnswer,
            {
                "moves": {
                    "type": "array",
                    "items": typed_object(
                        ReasonedMove,
                        {
                            "reason": {
                                "type": "string",
                                "nullable": True,
                                "description": "What the move does, in words a learner knows: the"
                                " first of wins, blocks the win at c3, makes a fork (a double threat),"
                                " blocks the fork, makes two in a row (three in a row, a four), blocks"
                                " or makes an open three (k >= 4), and on 3x3 takes the centre, the"
                                " opposite corner, an empty corner or an empty edge; null for none.",
                            }
                        },
                        analysis["properties"]["moves"]["items"]["properties"],
                    ),
                    "description": "Every legal move, best first (quicker wins, then"
                    " draws, then slower losses; row by row among"
                    " equals and when values are unknown).",
                },
                "source": {
                    "type": "string",
                    "enum": list(map(str, Source)),
                    "description": "How the answer is known: proof, book or threats"
                    " (proven), heuristic (not proven).",
                },
                "rule": {
                    **typed_object(
                        RuleAnswer,
                        {
                            "holds": {
                                "type": "boolean",
                                "nullable": True,
                                "description": "Whether every move the rule names keeps the position's"
                                " value (null when the values are not proven).",
                            },
                            "words": {
                                "type": "string",
                                "description": "What the rule says, and what holds instead where it is"
                                " wrong: The rule says take a corner; here only an edge (b1) keeps the draw.",
                            },
                        },
                    ),
                    "nullable": True,
                    "description": "On 3x3: the rule ladder children learn (win, block, fork, block a"
                    " fork, centre, opposite corner, empty corner, empty side), held against the"
                    " solver. Null on other boards.",
                },
            },
            analysis["properties"],
        ),
        "State": typed_object(
            StateAnswer,
            {
                "board": BOARD_OUT,
                "status": STATUS,
                "line": {"type": "array", "items": PAIR, "nullable": True},
                "to_move": {
                    **PLAYER,
                    "nullable": True,
                    "enum": ["x", "o", None],
                    "description": "The side to move, or null when the game is over.",
                },
            },
            common,
        ),
        "Health": {
            "type": "object",
            "required": ["status", "cache", "engine", "worker"],
            "properties": {
                "status": {"type": "string", "enum": ["ok", "unavailable"]},
                "cache": {
                    "type": "object",
                    "required": ["backend", "ok", "detail"],
                    "properties": {
                        "backend": {"type": "string", "enum": list(BACKENDS)},
                        "ok": {"type": "boolean"},
                        "detail": {"type": "string"},
                    },
                },
                "engine": {"type": "string"},
                "worker": {"type": "integer"},
            },
        },
        **_room_schemas(),
        **_puzzle_schemas(),
        "Stats": typed_object(
            StatsAnswer,
            {
                "worker": typed_object(WorkerCounts, {"pid": {"type": "integer"}}, counters),
                "total": typed_object(Counts, counters),
                "total_scope": {"type": "string"},
                "backend": {"type": "string", "enum": list(BACKENDS)},
            },
        ),
    }


# -- rooms (web/rooms/): a game two browsers share ---------------------------------------

ROOM_ID = {"type": "string", "pattern": f"^[A-Za-z0-9]{{{ID_LENGTH}}}$", "example": "Hx7kP2qa"}
ROOM_PARAMETER = {
    "name": "room",
    "in": "path",
    "required": True,
    "schema": ROOM_ID,
    "description": "The room's id.",
}
TOKEN = TOKEN_FIELD.schema
LINE = {"type": "array", "items": PAIR, "nullable": True, "description": "The winning line as [row, col]."}


def _room_ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _room_errors(*statuses: int) -> Schema:
    """The refusals of the rooms' routes, each with what it means there."""
    texts = {
        400: "The body (or a parameter, or Last-Event-ID) is not what the route takes: not JSON,"
        " an unknown field, a field of the wrong type, rules that do not fit (rows and cols"
        " 3..15, k 3..the longer side). The message says which.",
        403: "The token (or invite) is missing, or holds no seat in this room.",
        404: "No room has this id.",
        409: "The room's rules refuse it now: a move out of turn, on an occupied cell or off"
        " the room's board, or in a finished game; an invite already used; a rematch while the"
        " game goes on. The message says which.",
        410: "The room has expired: nothing was played in it for a day (an hour while its invite"
        " was unused).",
        413: f"The body is larger than {MAX_BODY_BYTES // 1024} KiB.",
        429: "This address is over an allowance: the rooms it may make a minute (ROOMS_PER_MINUTE)"
        " or hold at once (ROOMS_PER_ADDRESS), the wrong tokens it may send a minute"
        " (WRONG_TOKENS_PER_MINUTE), the streams it may hold (ROOM_STREAMS_PER_ADDRESS); try again"
        " after Retry-After seconds (also in the body as retry_after). The message says which.",
        503: "The rooms' store could not answer or commit (nothing changed), holds ROOMS_MAX live"
        " rooms, or cannot read this room's record; or the server follows as many streams as it"
        " may; try again after Retry-After seconds. The message says which.",
    }
    return _error_responses(texts, statuses, BUSY_RETRY_AFTER)


def _room_body(schema: Schema) -> Schema:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def _room_request(fields: tuple[Field, ...]) -> Schema:
    """A room route's body: its declared fields (web/rooms/routes.py)."""
    return {
        "type": "object",
        "required": [field.name for field in fields if field.documented_required],
        "additionalProperties": False,
        "properties": {field.name: field.schema for field in fields},
    }


def _new_room_request() -> Schema:
    """POST /rooms: rows, cols, k and side, all optional; k at most the longer side (an anyOf of cases:
    k at most 3, or rows given and at least k, or cols given and at least k)."""
    schema = _room_request(ROOM_BODIES["create"])
    schema["anyOf"] = [{"properties": {"k": {"maximum": MIN_K}}}] + [
        {"required": [side], "properties": {"k": {"maximum": k}, side: {"minimum": k}}}
        for side in ("rows", "cols")
        for k in SIZES
        if k > MIN_K
    ]
    return schema


def _room_paths() -> Schema:
    """The rooms' routes (web/rooms/routes.py)."""
    seat = _room_ref("Seat")
    state = _room_ref("RoomState")
    location = {"Location": {"description": "The room: /rooms/{id}.", "schema": {"type": "string"}}}
    return {
        "/rooms": {
            "post": {
                "summary": "Make a room to play a friend",
                "description": "Makes a room of the given rules and seats its creator (the host)."
                " The answer holds the host's secret token and three page links: the host's own seat"
                " (keep it secret: it plays for you), the invite for the friend (the first to use it"
                " takes the other seat; after that it only watches), and the watch link for anyone."
                " Tokens are 128 random bits; the room keeps only their hashes. A room expires a day"
                " after its last move. Each address may make ROOMS_PER_MINUTE rooms a minute.",
                "requestBody": _room_body(_new_room_request()),
                "responses": {
                    "201": _json(seat, "The room, made, and the host's seat.", location),
                    **_room_errors(400, 413, 429, 503),
                },
            }
        },
        "/rooms/{room}/seats": {
            "post": {
                "summary": "Take the invited seat",
                "description": "The friend's page sends the invite's token: the first to do so takes"
                " the other seat and gets its own secret token (join is sent to the room's streams);"
                " the invite is then spent (409 for anyone after).",
                "parameters": [ROOM_PARAMETER],
                "requestBody": _room_body(_room_request(ROOM_BODIES["seats"])),
                "responses": {
                    "201": _json(seat, "The guest's seat.", location),
                    **_room_errors(400, 403, 404, 409, 410, 413, 429, 503),
                },
            }
        },
        "/rooms/{room}": {
            "get": {
                "summary": "A room as it stands",
                "description": "The rules, the current game's moves and board, whose turn, the status"
                " and winning line, both sides (which seat, taken, connected, wins), draws, rematch"
                " offers, the id of the last event and when the room expires. Never cached"
                " (Cache-Control: no-store).",
                "parameters": [ROOM_PARAMETER],
                "responses": {"200": _json(state, "The room."), **_room_errors(404, 410, 503)},
            }
        },
        "/rooms/{room}/moves": {
            "post": {
                "summary": "Play a move in a room",
                "description": "The seat of the token plays the cell; the engine's rules (Board.play)"
                " judge it. The move (and end, when the game ends) goes to every stream of the room.",
                "parameters": [ROOM_PARAMETER],
                "requestBody": _room_body(_room_request(ROOM_BODIES["moves"])),
                "responses": {
                    "200": _json(state, "The room after the move."),
                    **_room_errors(400, 403, 404, 409, 410, 413, 429, 503),
                },
            }
        },
        "/rooms/{room}/rematch": {
            "post": {
                "summary": "Ask for a rematch",
                "description": "Once the game has ended, either seat asks; when the other asks too, the"
                " next game starts with the sides swapped, and the score is kept. Asking twice changes"
                " nothing.",
                "parameters": [ROOM_PARAMETER],
                "requestBody": _room_body(_room_request(ROOM_BODIES["rematch"])),
                "responses": {
                    "200": _json(state, "The room after the request."),
                    **_room_errors(400, 403, 404, 409, 410, 413, 429, 503),
                },
            }
        },
        **{
            f"/rooms/{{room}}/{action}": {
                "post": {
                    "summary": summary,
                    "description": description,
                    "parameters": [ROOM_PARAMETER],
                    "requestBody": _room_body(_room_request(ROOM_BODIES["seat"])),
                    "responses": {
                        "200": _json(state, "The room after it."),
                        **_room_errors(400, 403, 404, 409, 410, 413, 429, 503),
                    },
                }
            }
            for action, summary, description in SEAT_ACTIONS
        },
        "/rooms/{room}/name": {
            "post": {
                "summary": "Give a seat a name",
                "description": f"The seat of the token takes a name of at most {NAME_LENGTH} printable"
                " characters, shown to the friend and to spectators (name is sent to the room's"
                " streams); empty or null takes it away.",
                "parameters": [ROOM_PARAMETER],
                "requestBody": _room_body(_room_request(ROOM_BODIES["name"])),
                "responses": {
                    "200": _json(state, "The room after it."),
                    **_room_errors(400, 403, 404, 410, 413, 429, 503),
                },
            }
        },
        "/rooms/{room}/invite-code": {
            "post": {
                "summary": "The invite's QR code",
                "description": "The QR code of the invite link, as an SVG drawing, while the invite is"
                " unspent (409 after). The invite travels in the body, never in a URL, so that no log"
                " holds it. Never cached.",
                "parameters": [ROOM_PARAMETER],
                "requestBody": _room_body(_room_request(ROOM_BODIES["invite-code"])),
                "responses": {
                    "200": {
                        "description": "The QR code.",
                        "content": {"image/svg+xml": {"schema": {"type": "string"}}},
                    },
                    **_room_errors(400, 403, 404, 409, 410, 413, 429, 503),
                },
            }
        },
        "/rooms/{room}/events": {
            "get": {
                "summary": "A room's events, as they happen (server-sent events)",
                "description": "A text/event-stream. Without Last-Event-ID, the first event is state (the"
                " room, as GET /rooms/{id} answers, with the id of its last event); then each event as"
                " it happens: move (MoveEvent), end (EndEvent), join and leave (PresenceEvent: a seat's"
                " page connected, or its last stream closed), rematch (RematchEvent), offer (OfferEvent),"
                " takeback (TakebackEvent), name (NameEvent). Each has an id;"
                " a reconnection with Last-Event-ID gets exactly the events after it (the room keeps"
                f" at least its last (cells + {EVENTS_MARGIN}); older, it gets state instead), then the"
                " live ones. The server ends a stream after about ROOM_STREAM_SECONDS (the browser"
                " reconnects with Last-Event-ID, missing nothing), and a reader that stops reading."
                f" A heartbeat event (no id, data {{}}) is sent every {HEARTBEAT_SECONDS:g} s of quiet,"
                " so that a page can tell a silent connection from a quiet room. Cache-Control: no-cache,"
                " X-Accel-Buffering: no, never compressed. With a seat's token, the stream holds that"
                " seat's presence (connected) while it is open.",
                "parameters": [
                    ROOM_PARAMETER,
                    {
                        "name": "token",
                        "in": "query",
                        "required": False,
                        "schema": TOKEN,
                        "description": "A seat's token: the stream then marks the seat connected.",
                    },
                    {
                        "name": "Last-Event-ID",
                        "in": "header",
                        "required": False,
                        "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"},
                        "description": "The id of the last event received: the stream resumes after it.",
                    },
                ],
                "responses": {
                    "200": {
                        "description": "The events, one by one, as they happen.",
                        "headers": {
                            "Cache-Control": {"schema": {"type": "string", "enum": ["no-cache"]}},
                            "X-Accel-Buffering": {"schema": {"type": "string", "enum": ["no"]}},
                        },
                        "content": {"text/event-stream": {"schema": {"type": "string"}}},
                    },
                    **_room_errors(400, 403, 404, 410, 429, 503),
                },
            }
        },
    }


def _room_schemas() -> Schema:
    """The rooms' answers and events, generated from their TypedDicts (web/rooms/shapes.py)."""
    count = {"type": "integer", "minimum": 0}
    player = typed_object(
        PlayerState,
        {
            "seat": {"type": "string", "enum": ["host", "guest"], "description": "Who plays this side."},
            "seated": {"type": "boolean", "description": "Whether the seat is taken."},
            "connected": {"type": "boolean", "description": "Whether the seat's page holds a stream."},
            "wins": {**count, "description": "The seat's wins in this room."},
            "name": {
                "type": "string",
                "nullable": True,
                "maxLength": NAME_LENGTH,
                "description": "The name the seat gave itself (plain text), or null.",
            },
            "away": {
                **count,
                "nullable": True,
                "description": "Whole seconds the seat has been away; null while it is connected or"
                " not seated.",
            },
        },
    )
    players = typed_object(Players, {"x": player, "o": player})
    rules = {
        "rows": {"type": "integer", "minimum": MIN_SIZE, "maximum": MAX_SIZE},
        "cols": {"type": "integer", "minimum": MIN_SIZE, "maximum": MAX_SIZE},
        "k": {"type": "integer", "minimum": MIN_K},
    }
    game = {"type": "integer", "minimum": 1, "description": "The game's number in the room."}
    reason = {
        "type": "string",
        "enum": list(REASONS),
        "description": "Why the game ended: a line of k, a full board, a resignation, a game its"
        " player left (claimed), a draw agreed.",
    }
    kind = {"type": "string", "enum": list(OFFER_KINDS), "description": "A draw, or a takeback."}
    offer_state = typed_object(
        OfferState, {"kind": kind, "side": {**PLAYER, "description": "The side that asked."}}
    )
    status = {**STATUS, "description": "The game after the move."}
    to_move = {**PLAYER, "nullable": True, "enum": ["x", "o", None]}
    state = typed_object(
        RoomState,
        {
            "room": ROOM_ID,
            **rules,
            "game": game,
            "moves": {"type": "array", "items": PAIR, "description": "The game's moves, in order."},
            "board": BOARD_OUT,
            "to_move": {**to_move, "description": "The side to move; null once the game is over."},
            "status": STATUS,
            "line": LINE,
            "reason": {**reason, "nullable": True, "enum": [*REASONS, None]},
            "players": players,
            "draws": count,
            "rematch": {"type": "array", "items": PLAYER, "description": "The sides asking for a rematch."},
            "offer": {**offer_state, "nullable": True},
            "claim_after": {
                **count,
                "description": "Seconds a friend must have been away before the other may claim the"
                f" game ({int(ABANDON_SECONDS)}).",
            },
            "event": {**count, "description": "The id of the room's last event."},
            "expires": {
                "type": "string",
                "format": "date-time",
                "description": "When the room expires, unless a move is played before.",
            },
        },
    )
    links = typed_object(
        SeatLinks,
        {
            "seat": {
                "type": "string",
                "description": "This seat's page, /?room=<id>#host=<token> or #guest=<token> (secret: it"
                " plays for you).",
            },
            "invite": {
                "type": "string",
                "description": "The page that seats the friend: /?room=<id>#invite=<token>, the host's.",
            },
            "watch": {"type": "string", "description": "The page that watches the room, /?room=<id>."},
        },
    )
    seat = typed_object(
        SeatAnswer,
        {
            "room": ROOM_ID,
            "seat": {"type": "string", "enum": ["host", "guest"]},
            "side": {**PLAYER, "description": "The seat's side in the current game."},
            "token": {**TOKEN, "description": "The seat's secret token (for moves, rematches, its stream)."},
            "links": links,
            "state": state,
        },
    )
    move = typed_object(
        MoveEvent,
        {
            "game": game,
            "ply": {"type": "integer", "minimum": 1, "description": "The move's number in the game."},
            "side": {**PLAYER, "description": "The side that moved."},
            "move": CELL,
            "status": status,
            "line": LINE,
            "to_move": to_move,
        },
    )
    end = typed_object(
        EndEvent,
        {
            "game": game,
            "status": STATUS,
            "winner": {**PLAYER, "nullable": True, "enum": ["x", "o", None]},
            "line": LINE,
            "reason": reason,
            "players": players,
            "draws": count,
        },
    )
    offer = typed_object(
        OfferEvent,
        {
            "kind": kind,
            "side": {**PLAYER, "description": "The side that asked."},
            "status": {"type": "string", "enum": ["made", "accepted", "declined", "withdrawn"]},
        },
    )
    takeback = typed_object(
        TakebackEvent,
        {
            "game": game,
            "ply": {**count, "description": "The moves the game has after it."},
            "side": {**PLAYER, "description": "The side whose last move was taken back."},
            "to_move": PLAYER,
        },
    )
    named = typed_object(
        NameEvent,
        {
            "side": PLAYER,
            "name": {"type": "string", "nullable": True, "maxLength": NAME_LENGTH},
            "players": players,
        },
    )
    presence = typed_object(PresenceEvent, {"side": PLAYER, "players": players})
    rematch = typed_object(
        RematchEvent,
        {
            "offers": {"type": "array", "items": PLAYER},
            "started": {"type": "boolean", "description": "Whether the next game has started."},
            "game": game,
            "players": players,
        },
    )
    return {
        "RoomState": state,
        "Seat": seat,
        "MoveEvent": move,
        "EndEvent": end,
        "PresenceEvent": presence,
        "RematchEvent": rematch,
        "OfferEvent": offer,
        "TakebackEvent": takeback,
        "NameEvent": named,
    }


# What a seat may do besides moving (web/rooms/routes.py, SEAT_ACTIONS): its path, summary, words.
SEAT_ACTIONS = [
    (
        "resign",
        "Resign the game",
        "The seat of the token gives the game up: it ends (end, reason resigned) and the other side"
        " wins. 409 once the game is over.",
    ),
    (
        "claim",
        "Claim a game the friend left",
        f"Once the friend has been away {int(ABANDON_SECONDS)} s (players.<side>.away), the seat that"
        " stayed may end the game as its win (end, reason abandoned). 409 in words before that, or"
        " while the friend is here.",
    ),
    (
        "draw",
        "Offer a draw, or accept the friend's",
        "While the game goes on: an offer (offer, made); when the friend has offered one, the draw is"
        " agreed (offer accepted, then end, reason agreed). A move withdraws any offer. 409 while"
        " another offer waits, or once the game is over.",
    ),
    (
        "takeback",
        "Ask to take back your last move, or accept the friend's request",
        "While the game goes on: a request (offer, made); when the friend has asked, the friend's last"
        " move and any reply are taken back (offer accepted, then takeback). 409 with no move to take"
        " back, while another offer waits, or once the game is over.",
    ),
    (
        "decline",
        "Decline the friend's offer, or withdraw yours",
        "The waiting offer (a draw or a takeback) is gone (offer, declined or withdrawn). 409 when no"
        " offer waits.",
    ),
]


# -- puzzles (web/puzzles/): proven puzzles, listed, read and judged -----------------------------

PUZZLE_ID = {"type": "string", "pattern": PUZZLE_ID_PATTERN, "example": "3x3k3-1a2b3c"}


def _puzzle_ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _cached_answer(schema: Schema, description: str, freshness: str) -> Schema:
    """A GET's answer: the JSON, or for a browser that prefers a page the puzzles page; a 304 for a
    copy that is current."""
    headers = {
        "ETag": {"description": "Strong validator of the answer's bytes.", "schema": {"type": "string"}},
        "Cache-Control": {"description": freshness, "schema": {"type": "string"}},
        "Vary": {
            "description": "Accept: a page for a browser, JSON otherwise.",
            "schema": {"type": "string"},
        },
    }
    answer = _json(schema, description, headers)
    answer["content"]["text/html"] = {"schema": {"type": "string"}}
    return {
        "200": answer,
        "304": {"description": "Not modified: the copy whose ETag was sent is current.", "headers": headers},
    }


def _puzzle_errors(*statuses: int) -> Schema:
    texts = {
        400: "A query or body that is not what the route takes (an unknown or repeated parameter, a"
        " board with no puzzles, a move that is not a cell). The message says which.",
        404: "No puzzle has this id.",
        409: "The puzzle refuses the move: an earlier move is not the puzzle's, the cell is taken or"
        " off the puzzle's board, or the puzzle is solved already. The message says which.",
        413: f"The body is larger than {MAX_BODY_BYTES // 1024} KiB.",
    }
    return _error_responses(texts, statuses, RETRY_AFTER_SECONDS)


def _puzzle_paths() -> Schema:
    """The puzzles' routes (web/puzzles/routes.py)."""
    parameter = {"name": "puzzle", "in": "path", "required": True, "schema": PUZZLE_ID}
    hour = f"public, max-age={PUZZLE_MAX_AGE}"
    query = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "board": {
                "type": "string",
                "enum": board_keys(),
                "description": "The rules: rows x cols, k in a row.",
            },
            "task": {"type": "string", "enum": list(map(str, Task))},
            "after": {**PUZZLE_ID, "description": "The list from the first id after this one."},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT},
        },
    }
    return {
        "/puzzles": {
            "get": {
                "summary": "A page of proven puzzles",
                "description": "The puzzles of a board and a task (either may be left out), in id order,"
                " limit at a time; next is the id to ask after for the next page (null at the end). In"
                " each, every step has exactly one move that keeps the value, proven by the solver (on"
                " five in a row: by searching every move to the puzzle's horizon); the solution stays on"
                " the server. A browser that prefers text/html gets the puzzles page.",
                "parameters": [
                    {
                        "name": "list",
                        "in": "query",
                        "required": False,
                        "style": "form",
                        "explode": True,
                        "schema": query,
                        "description": "board, task, after and limit, each at most once.",
                    }
                ],
                "responses": {
                    **_cached_answer(_puzzle_ref("PuzzleList"), "The page of puzzles.", hour),
                    **_puzzle_errors(400),
                },
            }
        },
        "/puzzles/daily": {
            "get": {
                "summary": "The day's puzzle",
                "description": "The same puzzle for everyone on a UTC date. Fresh until the day ends.",
                "responses": {
                    **_cached_answer(
                        _puzzle_ref("DailyPuzzle"),
                        "The day's puzzle.",
                        "public, max-age=<seconds to UTC midnight>",
                    ),
                    **_puzzle_errors(400),
                },
            }
        },
        "/puzzles/{puzzle}": {
            "get": {
                "summary": "A puzzle",
                "description": "The position, the side to move, the task and its words, how many moves"
                " to find, the difficulty and rating, its link and embed. A browser that prefers text/html"
                " gets the puzzles page opened on it: the link to share.",
                "parameters": [parameter],
                "responses": {
                    **_cached_answer(_puzzle_ref("Puzzle"), "The puzzle.", hour),
                    **_puzzle_errors(400, 404),
                },
            }
        },
        "/puzzles/{puzzle}/moves": {
            "post": {
                "summary": "Play a move in a puzzle",
                "description": "The engine judges the last of moves (the earlier ones must be those the"
                " puzzle accepted) against the puzzle's proof, and says why in words: a right move gets"
                " the opponent's answer (or solved), a wrong one the answer that refutes it and what it"
                " gives up; the player may try again. With reveal, the solution's next move instead. No"
                " search runs. Never cached (no-store).",
                "parameters": [parameter],
                "requestBody": _room_body(_room_request(MOVE_FIELDS)),
                "responses": {
                    "200": _json(_puzzle_ref("PuzzleMove"), "The engine's verdict."),
                    **_puzzle_errors(400, 404, 409, 413),
                },
            }
        },
    }


def _puzzle_schemas() -> Schema:
    """The puzzles' answers, generated from their TypedDicts (web/puzzles/shapes.py)."""
    cell = typed_object(
        PuzzleCell, {"row": {"type": "integer", "minimum": 0}, "col": {"type": "integer", "minimum": 0}}
    )
    puzzle = typed_object(
        PuzzleAnswer,
        {
            "id": PUZZLE_ID,
            "rows": {"type": "integer", "minimum": MIN_SIZE, "maximum": MAX_SIZE},
            "cols": {"type": "integer", "minimum": MIN_SIZE, "maximum": MAX_SIZE},
            "k": {"type": "integer", "minimum": MIN_K},
            "board": BOARD_OUT,
            "position": {"type": "string", "description": "The position text, as GET /position reads it."},
            "player": {**PLAYER, "description": "The side to move: the one the puzzle asks."},
            "task": {"type": "string", "enum": list(map(str, Task)), "description": "win, or draw: save it."},
            "within": {
                "type": "integer",
                "minimum": 1,
                "nullable": True,
                "description": "On five in a row: win within this many moves of the player's. Null: the"
                " game's value, as the solver proves it.",
            },
            "goal": {"type": "string", "description": "The task in words: X to play and win."},
            "moves": {"type": "integer", "minimum": 1, "description": "Moves the player must find."},
            "difficulty": {
                "type": "integer",
                "minimum": 1,
                "maximum": 5,
                "description": "From the moves to find, the tempting wrong moves, and whether the first"
                " move is quiet (neither a win nor a block).",
            },
            "rating": {"type": "integer", "description": "The difficulty on a player's rating scale."},
            "tempting": {
                "type": "integer",
                "minimum": 0,
                "description": "Wrong moves that look right: a threat, a block, a fork, or the rule"
                " ladder's own move.",
            },
            "source": {"type": "string", "description": "Where the position comes from."},
            "link": {"type": "string", "description": "The puzzle's page: /puzzles/{id}."},
            "embed": {"type": "string", "description": "The puzzle for an iframe: /embed?puzzle={id}."},
        },
    )
    return {
        "Puzzle": puzzle,
        "PuzzleList": typed_object(
            PuzzleList,
            {
                "puzzles": {"type": "array", "items": _puzzle_ref("Puzzle")},
                "next": {
                    **PUZZLE_ID,
                    "nullable": True,
                    "description": "Ask after this id for the next page.",
                },
                "total": {"type": "integer", "minimum": 0, "description": "Puzzles in the whole list."},
            },
        ),
        "DailyPuzzle": typed_object(
            DailyPuzzle,
            {"date": {"type": "string", "format": "date"}, "puzzle": _puzzle_ref("Puzzle")},
        ),
        "PuzzleMove": typed_object(
            PuzzleMoveAnswer,
            {
                "id": PUZZLE_ID,
                "move": cell,
                "correct": {
                    "type": "boolean",
                    "description": "The move was the only one that keeps the value.",
                },
                "revealed": {"type": "boolean", "description": "The move was shown, as reveal asked."},
                "solved": {
                    "type": "boolean",
                    "description": "The puzzle is solved: no move is left to find.",
                },
                "reply": {**cell, "nullable": True, "description": "The opponent's answer, played."},
                "refutation": {
                    **cell,
                    "nullable": True,
                    "description": "The opponent's answer to a wrong move (not played).",
                },
                "board": {**BOARD_OUT, "description": "The position the player faces now."},
                "line": {
                    "type": "array",
                    "items": cell,
                    "description": "Once solved: the rest of the game the proof shows, in turn.",
                },
                "words": {"type": "string", "description": "The verdict and the reasons, in words."},
            },
        ),
    }
