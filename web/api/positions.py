"""GET /position: a position as a cacheable resource (board and k in the URL).

``GET /position?board=x2/1o1/3&k=3`` answers what POST /analyze answers about
the position (see ``tictactoe.game.notation`` for the text), less the fields that
describe one request's work (cached, nodes, ms, worker), with ``moves`` best
first, each with its ``reason`` in words ("blocks the win at c3", "makes a
four"), and on 3x3 the ``rule`` ladder's advice held against the solver.  So one
position always gets the same bytes:

- proven: ``Cache-Control: public, max-age=31536000, immutable`` and a strong
  ``ETag`` computed from the request alone (engine version, body format, k and
  the normal position text), so an ``If-None-Match`` that names it (or a gzipped
  copy's ``"<tag>:gzip"``, see ``web/http/compression.py``) gets ``304`` before any
  lookup or search;
- not proven (the search ran out of budget): ``Cache-Control: no-store``, no ETag,
  so never a 304 (not even for ``If-None-Match: *``).

Preconditions as RFC 9110 section 13.2.2 orders them: ``If-Match`` first (when
it names no tag of the answer: ``412``), then ``If-None-Match`` (when it
matches: ``304``).  ``*`` matches only an answer that has a tag, which is known
only once the position is looked up.

Errors are the API's: JSON, ``no-store``; 400 for text that is not a board,
409 for a board that cannot arise or whose game is over; a search it needs is
charged to the client's SEARCH_SECONDS_PER_MINUTE like /analyze's (429).
"""

from __future__ import annotations

import hashlib

from flask import Blueprint, Response, jsonify, request
from werkzeug.datastructures import MultiDict

from tictactoe import (
    ENGINE_VERSION,
    MAX_SIZE,
    MAX_TEXT_LENGTH,
    MIN_K,
    MIN_SIZE,
    Board,
    BoardFormatError,
    move_reasons,
    rule_advice,
    within_proof,
)
from web.api.answers import analysis_fields
from web.api.payload import CANNOT_PLAY, NOT_A_BOARD, SIZES
from web.api.shapes import PositionAnswer, ReasonedMove, RuleAnswer
from web.cache import Answer
from web.http.compression import etag_variants
from web.http.errors import POSITIONS_BLUEPRINT, ApiError
from web.openapi import declarations as declared
from web.openapi.declarations import Refusal, Schema, declare
from web.parts import current
from web.searches.rate_limit import RATE_LIMITED
from web.searches.slots import NO_SLOT
from web.telemetry.request_log import note
from web.words.speech import say, spoken

bp = Blueprint(POSITIONS_BLUEPRINT, __name__)

PARAMETERS = ("board", "k")
IMMUTABLE = "public, max-age=31536000, immutable"
# Part of every ETag: bump it when the body's fields or their order change.
BODY_FORMAT = "2"
MAX_K_DIGITS = 3
_NO_MATCH = (
    "If-Match names no tag of this position's answer: a proven answer has the ETag its 200 sent,"
    " an answer that is not proven has none. Ask again without If-Match"
)


def text_case(width: int, k_min: int, k_max: int, min_rows: int, max_rows: int = MAX_SIZE) -> Schema:
    """One case of a position text's query: ``min_rows`` to ``max_rows`` rows of ``width`` cells, k in
    range."""
    row = f"[xXoO.]{{{width}}}"
    return {
        "properties": {
            "board": {"pattern": f"^{row}(/{row}){{{min_rows - 1},{max_rows - 1}}}$"},
            "k": {"minimum": k_min, "maximum": k_max},
        }
    }


def _query() -> Schema:
    """The query of GET /position as one exploded object, so that k can follow the board's size.

    The anyOf has the request body's cases (web/api/payload.py's ``body_schema``) in the
    text's one-character-per-cell spelling: rows of w cells and k <= w, or rows of w
    cells, at least K of them, and k = K.  The run-length spelling is accepted
    too; a pattern cannot count the cells of its runs, so the description says it.
    """
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
        "anyOf": [text_case(w, MIN_K, w, MIN_SIZE) for w in SIZES]
        + [text_case(w, k, k, k) for w in SIZES for k in SIZES if k > w],
    }


CACHING = {
    "ETag": (
        {"type": "string"},
        "Strong validator of a proven answer: send it back in If-None-Match to get 304.",
    ),
    "Cache-Control": ({"type": "string"}, f"{IMMUTABLE} when proven; no-store otherwise."),
}


@bp.get("/position")
@declare(
    "A position's analysis, as a cacheable resource",
    "What POST /analyze answers about the position, less the fields that describe one request's work"
    " (cached, nodes, ms, worker), plus source, with moves best first, each with its reason in words,"
    " and on 3x3 what the rule ladder children learn says there, held against the solver (rule)."
    " A proven answer never changes:"
    f" it carries Cache-Control: {IMMUTABLE} and a strong ETag, and a matching If-None-Match gets 304"
    " with no body. An answer that is not proven is no-store, without an ETag, and never a 304 (not"
    " even for If-None-Match: *). An If-Match that names none of the answer's tags gets 412.",
    parameters=(
        {
            "name": "position",
            "in": "query",
            "required": True,
            "style": "form",
            "explode": True,
            "schema": _query(),
            "description": "board: the position text, rows top first separated by /; in a row x and o"
            " (either case) are stones, . is an empty cell, and a number 1-15 (no leading zero) is that"
            " many empty cells, e.g. x2/1o1/3 or x../.o./... . k: stones in a row to win (default: 3 on"
            " 3x3, otherwise min(rows, cols, 5)), at most the longer side.",
        },
        {
            "name": "If-None-Match",
            "in": "header",
            "required": False,
            "schema": {"type": "string"},
            "description": "ETags of a copy the client holds (or *): 304 when one matches.",
        },
    ),
    answers={
        200: declared.Answer(PositionAnswer, "The analysis.", headers=CACHING),
        304: declared.Answer(None, "Not modified: the copy whose ETag was sent is current.", headers=CACHING),
    },
    refusals=(
        NOT_A_BOARD,
        CANNOT_PLAY,
        Refusal(
            412,
            "If-Match names no tag of the answer: a proven answer has the ETag its 200 sends, one that"
            " is not proven has none (only If-Match: * holds for it).",
        ),
        RATE_LIMITED,
        NO_SLOT,
    ),
)
def position() -> Response:
    """The analysis of the position in the query: see GET /position in /openapi.json."""
    board = read_position_query(request.args)
    board.require_moves()
    tag = position_etag(board)
    tags = etag_variants(tag)  # the answer's tag, plain or compressed, when it is proven
    if_match, if_none_match = request.if_match, request.if_none_match
    if if_match and not if_match.star_tag and not any(if_match.contains(_opaque(t)) for t in tags):
        raise ApiError(412, _NO_MATCH)  # whatever the answer, its tag (if any) is not listed
    named = next((t for t in tags if if_none_match.contains_weak(_opaque(t))), None)
    # Only a position the engine can prove was ever given an ETag, so a tag the
    # client names (never ``*``) may be answered before any lookup or search.
    provable = within_proof(board)
    if provable and named is not None and not if_none_match.star_tag:
        return _cacheable(Response(status=304), named)
    answer = current().solved.solve(board, all_moves=True)
    note(source=str(answer.source))  # for the request's log line and the answers metric
    if not answer.proven:
        if if_match and not if_match.star_tag:
            raise ApiError(412, _NO_MATCH)
        response = jsonify(position_fields(board, answer))
        response.headers["Cache-Control"] = "no-store"
        return response
    # Here for ``*`` (which names the plain tag), or for a tag of a position too big to
    # be answered early, proven all the same (by the threat search or a book).
    if named is not None:
        return _cacheable(Response(status=304), named)
    return _cacheable(jsonify(position_fields(board, answer)), tag)


def read_position_query(args: MultiDict[str, str], parameters: tuple[str, ...] = PARAMETERS) -> Board:
    """The board named by the query ``board`` (position text) and ``k`` (optional).

    ``parameters`` are the names the query may hold (the caller reads the
    others).  Raises ``ApiError`` 400 for an unknown or repeated parameter, a missing
    board, a k that is not a decimal integer, or text that is not a board;
    ``IllegalPositionError`` (409) for a board that cannot arise in a game.
    """
    for name in args:
        if name not in parameters:
            raise ApiError(
                400, f"unknown parameter {name[:40]!r}: the parameters are {', '.join(parameters)}"
            )
        if len(args.getlist(name)) > 1:
            raise ApiError(400, f"parameter {name!r} is given more than once: give it once")
    text = args.get("board")
    if text is None:
        raise ApiError(
            400,
            "board is required: a position text such as x2/1o1/3"
            " (rows top first, separated by /; x, o, . or a number of empty"
            " cells)",
        )
    k_text = args.get("k")
    k = None
    if k_text is not None:
        if not (k_text.isascii() and k_text.isdigit()) or len(k_text) > MAX_K_DIGITS:
            raise ApiError(400, f"k must be a whole number such as 3, not {k_text[:20]!r}")
        k = int(k_text)
    try:
        board = Board.from_position_text(text, k=k)
    except BoardFormatError as error:
        raise ApiError(400, str(error)) from None
    note(board=board.rules.key())  # the request's log line names the board, as for POST
    return board


def position_etag(board: Board) -> str:
    """The strong ETag (quoted) of the proven answer for ``board`` in the request's language (its
    reasons are words for a person): a hash of what decides it."""
    canonical = f"{ENGINE_VERSION}|{BODY_FORMAT}|{spoken()}|{board.rules.k}|{board.position_text()}"
    return '"' + hashlib.sha256(canonical.encode()).hexdigest()[:32] + '"'


def position_fields(board: Board, answer: Answer) -> PositionAnswer:
    """The body: /analyze's fields about the position, in its order, with ``moves`` best first, each
    with its reason in words, and on 3x3 what the rule ladder says (held against the values when proven)."""
    fields = analysis_fields(board, answer, best_first=True)
    reasons = move_reasons(board)
    cols = board.rules.cols
    moves: list[ReasonedMove] = []
    for move in fields["moves"]:
        reason = reasons.get(move["row"] * cols + move["col"])
        moves.append({**move, "reason": None if reason is None else say(reason.words)})
    values = answer.move_values if answer.proven else None
    said = rule_advice(board, None if values is None else {cell: v.value for cell, v in values.items()})
    rule: RuleAnswer | None = None if said is None else {"holds": said.holds, "words": say(said.words)}
    return {
        "board": fields["board"],
        "k": fields["k"],
        "player": fields["player"],
        "best": fields["best"],
        "moves": moves,
        "value": answer.value,
        "plies": answer.plies,
        "proven": answer.proven,
        "source": answer.source,
        "depth": answer.depth,
        "rule": rule,
    }


def _opaque(tag: str) -> str:
    """The ETag without its quotes, as werkzeug's ``ETags`` compares it."""
    return tag.strip('"')


def _cacheable(response: Response, tag: str) -> Response:
    """``response`` marked as the immutable representation ``tag``."""
    response.headers["Cache-Control"] = IMMUTABLE
    response.headers["ETag"] = tag
    return response
