"""The rooms' routes: make a room, take the invited seat, read it, move, ask for a rematch, stream its events.

::

    POST /rooms                    {"rows", "cols", "k", "side"}       201 the host's seat
    POST /rooms/{id}/seats         {"invite"}                          201 the guest's seat
    GET  /rooms/{id}                                                   200 the room
    POST /rooms/{id}/moves         {"token", "move": {"row", "col"}}   200 the room after it
    POST /rooms/{id}/rematch       {"token"}                           200 the room after it
    POST /rooms/{id}/resign        {"token"}                           200 the room after it
    POST /rooms/{id}/claim         {"token"}                           200 the room after it
    POST /rooms/{id}/draw          {"token"}                           200 the room after it
    POST /rooms/{id}/takeback      {"token"}                           200 the room after it
    POST /rooms/{id}/decline       {"token"}                           200 the room after it
    POST /rooms/{id}/name          {"token", "name"}                   200 the room after it
    POST /rooms/{id}/invite-code   {"invite"}                          200 image/svg+xml
    POST /rooms/{id}/holder        {"token"}                           200 the seat the token holds
    GET  /rooms/{id}/events        [?token=]  [Last-Event-ID]          200 text/event-stream

Refusals, each in words: 400 a body that is not what the route takes; 403 a
missing or wrong token (or invite); 404 no such room; 409 what the room's
rules refuse (out of turn, an occupied cell, a finished game, a spent invite,
a rematch while the game is on, a claim while the friend is here, a takeback
with no move to take back, an answer to no offer); 410 a room that expired (a day without a
move, an hour with its invite unused); 429 an address over one of its
allowances: rooms made a minute, live rooms held, wrong tokens a minute, event
streams open (``Retry-After``); 503 the store could not answer or commit,
holds as many rooms as it may, or cannot read this room's record; a worker
following as many streams as it may (``Retry-After``).  The moves are the
engine's to judge (``Board.play``, in web/rooms/model.py).  A token is checked
on a read of the room, before any lock is taken (web/rooms/service.py).
"""

from __future__ import annotations

import secrets
import socket
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from tictactoe import MAX_SIZE, MIN_K, MIN_SIZE, BoardFormatError, Player, Rules
from web.http.error_body import error_body
from web.http.errors import ROOMS_BLUEPRINT, ApiError, error_response
from web.http.json_body import (
    Field,
    Schema,
    checked,
    fields_schema,
    integer,
    json_object,
    read_fields,
    read_json_body,
    refuse_unknown_fields,
    show,
)
from web.openapi.declarations import Answer, Events, declare
from web.rooms import stream
from web.rooms.budget import StreamRefused
from web.rooms.contract import (
    BUSY_RETRY_AFTER,
    CHANGE_REFUSALS,
    EXPIRED,
    NO_ROOM,
    NO_SEAT,
    NOT_A_ROOM_BODY,
    OVER_ALLOWANCE,
    ROOM_ID,
    UNAVAILABLE,
    change_links,
    seat_links,
)
from web.rooms.invite_code import invite_code as draw_invite_code
from web.rooms.model import (
    ABANDON_SECONDS,
    HOST_SIDES,
    ID_LENGTH,
    SIDES,
    Event,
    Refused,
    Room,
    Seat,
    WrongToken,
)
from web.rooms.service import Rooms, TooMany, current_rooms
from web.rooms.shapes import EVENTS, NAME_LENGTH, HolderAnswer, RoomState, SeatAnswer, SeatLinks
from web.rooms.store import (
    EVENTS_MARGIN,
    AddressFull,
    DamagedRoom,
    ExpiredRoom,
    StoreBusy,
    StoreFull,
    UnknownRoom,
)
from web.searches.rate_limit import requesting_client
from web.telemetry.request_log import note

bp = Blueprint(ROOMS_BLUEPRINT, __name__)


def _token_field(name: str, what: str) -> Field:
    """A token field: a string when given; left out, the route refuses with 403 (no seat), not 400."""
    return Field(
        name,
        {"type": "string", "minLength": 1, "maxLength": 100, "description": what},
        check=checked(name, lambda value: isinstance(value, str), "a string (the token of your link)"),
        required=True,
    )


def _size_field(name: str, what: str) -> Field:
    """A side of the board: an integer (its range is the engine's to check, with the others)."""
    schema = {"type": "integer", "minimum": MIN_SIZE, "maximum": MAX_SIZE, "default": 3, "description": what}
    return Field(name, schema, check=checked(name, integer, "an integer"), default=3)


def _name(value: object) -> str | None:
    """A seat's name as kept: what prints of it, its runs of spaces made one, trimmed; None for none.

    400 in words for a name that is not a string or null, or longer than ``NAME_LENGTH``.
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise ApiError(400, f"name must be a string or null, not {show(value)}")
    if len(value) > NAME_LENGTH:
        raise ApiError(400, f"name must be at most {NAME_LENGTH} characters, not {len(value)}")
    printed = "".join(char for char in " ".join(value.split()) if char.isprintable())
    return printed.strip() or None


def _cell(move: object) -> tuple[int, int]:
    """A move's cell as (row, col), counted from 0; ``ApiError`` 400 in words for anything else."""
    if not isinstance(move, dict):
        raise ApiError(400, f'move must be an object such as {{"row": 1, "col": 1}}, not {show(move)}')
    refuse_unknown_fields(move, ("row", "col"))
    return _cell_index(move, "row"), _cell_index(move, "col")


MOVE_CELL = {"type": "integer", "minimum": 0, "maximum": MAX_SIZE - 1}
ROWS = _size_field("rows", "Rows of the board.")
COLS = _size_field("cols", "Columns of the board.")
K = Field(
    "k",
    {
        "type": "integer",
        "minimum": MIN_K,
        "maximum": MAX_SIZE,
        "description": "Stones in a row to win, at most the longer side. Default: 3 on 3x3,"
        " otherwise min(rows, cols, 5).",
    },
    check=checked("k", integer, "an integer"),  # its default follows from rows and cols
)
SIDE = Field(
    "side",
    {
        "type": "string",
        "enum": list(HOST_SIDES),
        "default": "random",
        "description": "The creator's side in the first game (x moves first); random: chance"
        " decides. Sides swap at every rematch.",
    },
    check=checked("side", lambda value: value in HOST_SIDES, f"one of {', '.join(HOST_SIDES)}"),
    default="random",
)
INVITE = _token_field("invite", "A seat's secret token.")
TOKEN = _token_field("token", "A seat's secret token.")
NAME = Field(
    "name",
    {
        "type": "string",
        "nullable": True,
        "maxLength": NAME_LENGTH,
        "description": f"The seat's name, shown to the friend and to spectators: at most {NAME_LENGTH}"
        " characters, kept as plain text (what does not print is dropped, runs of spaces made one,"
        " its ends trimmed); empty or null takes the name away.",
    },
    check=_name,
    required=True,
    missing="name must be given: a short name, or null to take yours away",
)
MOVE = Field(
    "move",
    {
        "type": "object",
        "required": ["row", "col"],
        "additionalProperties": False,
        "properties": {"row": MOVE_CELL, "col": MOVE_CELL},
        "description": "The cell, counted from 0 (row 0 is the top row).",
    },
    check=_cell,
    missing='move must be an object such as {"row": 1, "col": 1}, not null',
)
# Each route's body: its fields, in the order they are checked.
BODIES: dict[str, tuple[Field, ...]] = {
    "create": (ROWS, COLS, K, SIDE),
    "seats": (INVITE,),
    "moves": (TOKEN, MOVE),
    "rematch": (TOKEN,),
    "seat": (TOKEN,),
    "name": (TOKEN, NAME),
    "invite-code": (INVITE,),
}
EXAMPLES = {
    "create": '{"rows": 3, "cols": 3, "k": 3, "side": "random"}',
    "seats": '{"invite": "<the invite link\'s token>"}',
    "moves": '{"token": "<your seat\'s token>", "move": {"row": 1, "col": 1}}',
    "rematch": '{"token": "<your seat\'s token>"}',
    "seat": '{"token": "<your seat\'s token>"}',
    "name": '{"token": "<your seat\'s token>", "name": "Ada"}',
    "invite-code": '{"invite": "<the invite link\'s token>"}',
}
FULL_RETRY_AFTER = 60
DAMAGED_RETRY_AFTER = 3600
LOCATION = {"Location": ({"type": "string"}, "The room: /rooms/{id}.")}


def rooms() -> Rooms:
    """This app's rooms (set up by ``web.rooms.init_app``)."""
    return current_rooms()


def _new_room_body() -> Schema:
    """POST /rooms: rows, cols, k and side, all optional; k at most the longer side (an anyOf of cases:
    k at most 3, or rows given and at least k, or cols given and at least k)."""
    return {
        **fields_schema(BODIES["create"]),
        "anyOf": [{"properties": {"k": {"maximum": MIN_K}}}]
        + [
            {"required": [side], "properties": {"k": {"maximum": k}, side: {"minimum": k}}}
            for side in ("rows", "cols")
            for k in range(MIN_K + 1, MAX_SIZE + 1)
        ],
    }


@bp.post("/rooms")
@declare(
    "Make a room to play a friend",
    "Makes a room of the given rules and seats its creator (the host). The answer holds the host's"
    " secret token and three page links: the host's own seat (keep it secret: it plays for you), the"
    " invite for the friend (the first to use it takes the other seat; after that it only watches),"
    " and the watch link for anyone. Tokens are 128 random bits; the room keeps only their hashes. A"
    " room expires a day after its last move. Each address may make ROOMS_PER_MINUTE rooms a minute.",
    body=_new_room_body(),
    answers={
        201: Answer(SeatAnswer, "The room, made, and the host's seat.", headers=LOCATION, links=seat_links())
    },
    refusals=(NOT_A_ROOM_BODY, OVER_ALLOWANCE, UNAVAILABLE),
)
def create_room() -> tuple[Response, int, dict[str, str]]:
    """Make a room and seat its host: see POST /rooms in /openapi.json."""
    body = _body("create")
    rows, cols, k, side = body["rows"], body["cols"], body["k"], body["side"]
    try:
        rules = Rules(rows, cols, Rules.default_k(rows, cols) if k is None else k)
    except BoardFormatError as error:
        raise ApiError(400, str(error)) from None
    host_side: Player = secrets.choice(SIDES) if side == "random" else "x" if side == "x" else "o"
    room, token, invite = rooms().open(rules, host_side, requesting_client())
    note(board=rules.key())
    answer = _seat_answer(room, "host", token, invite)
    return jsonify(answer), 201, {"Location": f"/rooms/{room.id}"}


@bp.post("/rooms/<room_id>/seats")
@declare(
    "Take the invited seat",
    "The friend's page sends the invite's token: the first to do so takes the other seat and gets its"
    " own secret token (join is sent to the room's streams); the invite is then spent (409 for anyone"
    " after).",
    body=fields_schema(BODIES["seats"]),
    parameters=(ROOM_ID,),
    answers={201: Answer(SeatAnswer, "The guest's seat.", headers=LOCATION, links=seat_links())},
    refusals=CHANGE_REFUSALS,
)
def take_seat(room_id: str) -> tuple[Response, int, dict[str, str]]:
    """Take the guest's seat with the invite: see POST /rooms/{id}/seats in /openapi.json."""
    _known(room_id)
    invite = _body("seats")["invite"]
    taken: list[str] = []

    def seat(room: Room, now: float) -> list[Any]:
        token, events = room.seat_guest(invite, now)
        taken.append(token)
        return events

    room = rooms().invited_change(room_id, invite, requesting_client(), seat)
    return jsonify(_seat_answer(room, "guest", taken[0])), 201, {"Location": f"/rooms/{room.id}"}


@bp.get("/rooms/<room_id>")
@declare(
    "A room as it stands",
    "The rules, the current game's moves and board, whose turn, the status and winning line, both"
    " sides (which seat, taken, connected, wins), draws, rematch offers, the id of the last event and"
    " when the room expires. Never cached (Cache-Control: no-store).",
    parameters=(ROOM_ID,),
    answers={200: Answer(RoomState, "The room.")},
    refusals=(NO_ROOM, EXPIRED, UNAVAILABLE),
)
def room_state(room_id: str) -> Response:
    """The room as it stands: see GET /rooms/{id} in /openapi.json."""
    _known(room_id)
    return jsonify(rooms().load(room_id).state(rooms().clock()))


def seat_change(summary: str, description: str, body: str) -> Callable[[Any], Any]:
    """The declaration of a seat's change of its room: ``body`` (a key of ``BODIES``), answered by the
    room after it, refused as every change is."""
    return declare(
        summary,
        description,
        body=fields_schema(BODIES[body]),
        parameters=(ROOM_ID,),
        answers={200: Answer(RoomState, "The room after it.", links=change_links())},
        refusals=CHANGE_REFUSALS,
    )


@bp.post("/rooms/<room_id>/moves")
@seat_change(
    "Play a move in a room",
    "The seat of the token plays the cell; the engine's rules (Board.play) judge it. The move (and"
    " end, when the game ends) goes to every stream of the room.",
    "moves",
)
def play(room_id: str) -> Response:
    """A seat's move, checked by the engine: see POST /rooms/{id}/moves in /openapi.json."""
    _known(room_id)
    body = _body("moves")
    token = body["token"]
    row, col = body["move"]
    room = rooms().seated_change(
        room_id, token, requesting_client(), lambda room, now: room.play(token, row, col, now)
    )
    note(board=room.rules.key())
    return jsonify(room.state(rooms().clock()))


@bp.post("/rooms/<room_id>/rematch")
@seat_change(
    "Ask for a rematch",
    "Once the game has ended, either seat asks; when the other asks too, the next game starts with"
    " the sides swapped, and the score is kept. Asking twice changes nothing.",
    "rematch",
)
def rematch(room_id: str) -> Response:
    """Ask for a rematch (the second to ask starts it): see POST /rooms/{id}/rematch in /openapi.json."""
    _known(room_id)
    token = _body("rematch")["token"]
    room = rooms().seated_change(
        room_id, token, requesting_client(), lambda room, now: room.offer_rematch(token, now)
    )
    return jsonify(room.state(rooms().clock()))


# What a seat may do besides moving, each answered by the room after it: its change, checked by the
# room's rules (web/rooms/model.py) and refused in words when it does not fit, and its words.
SEAT_ACTIONS: dict[str, tuple[Callable[[Room, object, float], list[Event]], str, str]] = {
    "resign": (
        lambda room, token, now: room.resign(token, now),
        "Resign the game",
        "The seat of the token gives the game up: it ends (end, reason resigned) and the other side"
        " wins. 409 once the game is over.",
    ),
    "claim": (
        lambda room, token, now: room.claim(token, now),
        "Claim a game the friend left",
        f"Once the friend has been away {int(ABANDON_SECONDS)} s (players.<side>.away), the seat that"
        " stayed may end the game as its win (end, reason abandoned). 409 in words before that, or"
        " while the friend is here.",
    ),
    "draw": (
        lambda room, token, now: room.propose(token, "draw", now),
        "Offer a draw, or accept the friend's",
        "While the game goes on: an offer (offer, made); when the friend has offered one, the draw is"
        " agreed (offer accepted, then end, reason agreed). A move withdraws any offer. 409 while"
        " another offer waits, or once the game is over.",
    ),
    "takeback": (
        lambda room, token, now: room.propose(token, "takeback", now),
        "Ask to take back your last move, or accept the friend's request",
        "While the game goes on: a request (offer, made); when the friend has asked, the friend's last"
        " move and any reply are taken back (offer accepted, then takeback). 409 with no move to take"
        " back, while another offer waits, or once the game is over.",
    ),
    "decline": (
        lambda room, token, now: room.decline(token, now),
        "Decline the friend's offer, or withdraw yours",
        "The waiting offer (a draw or a takeback) is gone (offer, declined or withdrawn). 409 when no"
        " offer waits.",
    ),
}


def seat_action(room_id: str, action: str) -> Response:
    """A seat's resignation, claim, offer or answer: see POST /rooms/{id}/<action> in /openapi.json."""
    _known(room_id)
    token = _body("seat")["token"]
    act = SEAT_ACTIONS[action][0]
    room = rooms().seated_change(room_id, token, requesting_client(), lambda room, now: act(room, token, now))
    return jsonify(room.state(rooms().clock()))


for _action, (_, _summary, _words) in SEAT_ACTIONS.items():
    bp.add_url_rule(
        f"/rooms/<room_id>/{_action}",
        f"seat_{_action}",
        seat_change(_summary, _words, "seat")(lambda room_id, action=_action: seat_action(room_id, action)),
        methods=["POST"],
    )


@bp.post("/rooms/<room_id>/holder")
@declare(
    "The seat a token holds",
    "Which seat of the room the token holds, its side, and the room: a page checks a seat link's token"
    " before it keeps it (a cut or mistyped link never replaces a good one). 403 for a token that"
    " holds no seat (charged to the address, as every wrong token).",
    body=fields_schema(BODIES["seat"]),
    parameters=(ROOM_ID,),
    answers={200: Answer(HolderAnswer, "The seat.")},
    refusals=(NOT_A_ROOM_BODY, NO_SEAT, NO_ROOM, EXPIRED, OVER_ALLOWANCE, UNAVAILABLE),
)
def holder(room_id: str) -> Response:
    """The seat a token holds (a page checks a link's before it keeps it): see POST
    /rooms/{id}/holder in /openapi.json.  403 in words for a token that holds none (charged)."""
    _known(room_id)
    token = _body("seat")["token"]
    room, seat = rooms().holder(room_id, token, requesting_client())
    held: HolderAnswer = {
        "room": room.id,
        "seat": seat,
        "side": room.seat(seat).side,
        "state": room.state(rooms().clock()),
    }
    return jsonify(held)


@bp.post("/rooms/<room_id>/name")
@declare(
    "Give a seat a name",
    f"The seat of the token takes a name of at most {NAME_LENGTH} printable characters, shown to the"
    " friend and to spectators (name is sent to the room's streams); empty or null takes it away.",
    body=fields_schema(BODIES["name"]),
    parameters=(ROOM_ID,),
    answers={200: Answer(RoomState, "The room after it.", links=change_links())},
    refusals=(NOT_A_ROOM_BODY, NO_SEAT, NO_ROOM, EXPIRED, OVER_ALLOWANCE, UNAVAILABLE),
)
def name(room_id: str) -> Response:
    """A seat takes a name (or gives it up): see POST /rooms/{id}/name in /openapi.json."""
    _known(room_id)
    body = _body("name")
    token, given = body["token"], body["name"]
    room = rooms().seated_change(
        room_id, token, requesting_client(), lambda room, now: room.rename(token, given, now)
    )
    return jsonify(room.state(rooms().clock()))


@bp.post("/rooms/<room_id>/invite-code")
@declare(
    "The invite's QR code",
    "The QR code of the invite link, as an SVG drawing, while the invite is unspent (409 after). The"
    " invite travels in the body, never in a URL, so that no log holds it. Never cached.",
    body=fields_schema(BODIES["invite-code"]),
    parameters=(ROOM_ID,),
    answers={200: Answer(str, "The QR code.", media="image/svg+xml")},
    refusals=CHANGE_REFUSALS,
)
def invite_code(room_id: str) -> Response:
    """The QR code of the room's invite link: see POST /rooms/{id}/invite-code in /openapi.json.

    The invite comes in the body, never in a URL, so that no log of any proxy holds it.
    """
    _known(room_id)
    invite = _body("invite-code")["invite"]
    rooms().invited(room_id, invite, requesting_client())
    link = f"{request.host_url}?room={room_id}#invite={invite}"
    return Response(draw_invite_code(link), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@bp.get("/rooms/<room_id>/events")
@declare(
    "A room's events, as they happen (server-sent events)",
    "Without Last-Event-ID, the first event is state (the room, as GET /rooms/{id} answers, with the id"
    " of its last event); then each event as it happens (their names and data below). Each has an id;"
    " a reconnection with Last-Event-ID gets exactly the events after it (the room keeps at least its"
    f" last (cells + {EVENTS_MARGIN}); older, it gets state instead), then the live ones. The server"
    " ends a stream after about ROOM_STREAM_SECONDS (the browser reconnects with Last-Event-ID, missing"
    " nothing), and a reader that stops reading. Cache-Control: no-cache, X-Accel-Buffering: no, never"
    " compressed. With a seat's token, the stream holds that seat's presence (connected) while it is"
    " open.",
    parameters=(
        ROOM_ID,
        {
            "name": "token",
            "in": "query",
            "required": False,
            "schema": TOKEN.schema,
            "description": "A seat's token: the stream then marks the seat connected.",
        },
        {
            "name": "Last-Event-ID",
            "in": "header",
            "required": False,
            "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"},
            "description": "The id of the last event received: the stream resumes after it.",
        },
    ),
    answers={
        200: Events(
            EVENTS,
            "The events, one by one, as they happen: state, move, end, join and leave (a seat's page"
            " connected, or its last stream closed), rematch, offer, takeback, name.",
            comment=f"A heartbeat event (no id, data {{}}) every {stream.HEARTBEAT_SECONDS:g} s of quiet,"
            " so that a page can tell a silent connection from a quiet room.",
            unnumbered=("heartbeat",),
            headers={
                name: ({"type": "string", "enum": [value]}, name) for name, value in stream.HEADERS.items()
            },
        )
    },
    refusals=(NOT_A_ROOM_BODY, NO_SEAT, NO_ROOM, EXPIRED, OVER_ALLOWANCE, UNAVAILABLE),
)
def events(room_id: str) -> Response:
    """The room's events as server-sent events: see GET /rooms/{id}/events in /openapi.json."""
    _known(room_id)
    try:
        last = stream.last_event_id(request.headers.get("Last-Event-ID"))
    except ValueError as error:
        raise ApiError(400, str(error)) from None
    unknown = sorted(set(request.args) - {"token"})
    if unknown:
        raise ApiError(400, f"unknown parameter {show(unknown[0])}: the only one is token")
    token = request.args.get("token")
    address = requesting_client()
    if token is None:
        room, seat = rooms().load(room_id), None
    else:
        room, seat = rooms().holder(room_id, token, address)
    release = rooms().streams.admit(address)
    try:
        client = request.environ.get("gunicorn.socket")
        if isinstance(client, socket.socket):
            client.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, stream.SEND_BUFFER_BYTES)
        else:
            client = None
        response = Response(
            stream.events(rooms(), room, seat, last, client, rooms().stream_seconds),
            mimetype=stream.MIMETYPE,
            headers=stream.HEADERS,
        )
    except BaseException:
        release()
        raise
    response.call_on_close(release)  # the server closes the answer once the stream has ended
    return response


def _seat_answer(room: Room, seat: Seat, token: str, invite: str | None = None) -> SeatAnswer:
    """What a seat's holder is given: its token, its page links, and the room."""
    page = f"/?room={room.id}"
    links: SeatLinks = {"seat": f"{page}#{seat}={token}", "watch": page}
    if invite is not None:
        links = {"seat": links["seat"], "invite": f"{page}#invite={invite}", "watch": page}
    state: RoomState = room.state(rooms().clock())
    return {
        "room": room.id,
        "seat": seat,
        "side": room.seat(seat).side,
        "token": token,
        "links": links,
        "state": state,
    }


def _known(room_id: str) -> None:
    """``UnknownRoom`` for an id no room could have (so it never reaches the store)."""
    if not (len(room_id) == ID_LENGTH and room_id.isascii() and room_id.isalnum()):
        raise UnknownRoom()


def _body(route: str) -> dict[str, Any]:
    """The route's body read by its fields' checks (``BODIES``); 400 in words for anything wrong."""
    return read_fields(json_object(read_json_body(request), EXAMPLES[route]), BODIES[route])


def _cell_index(move: dict[str, object], name: str) -> int:
    value = move.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ApiError(400, f"move.{name} must be a whole number from 0, not {show(value)}")
    return value


def _room_id() -> str:
    return str((request.view_args or {}).get("room_id", ""))


@bp.errorhandler(UnknownRoom)
def unknown_room(_: UnknownRoom) -> Response:
    return error_response(404, f"there is no room {_room_id()!r}: check the link")


@bp.errorhandler(ExpiredRoom)
def expired_room(error: ExpiredRoom) -> Response:
    return error_response(410, f"room {_room_id()} has expired: {error}; make a new one")


@bp.errorhandler(WrongToken)
def wrong_token(error: WrongToken) -> Response:
    return error_response(403, str(error))


@bp.errorhandler(Refused)
def refused(error: Refused) -> Response:
    return error_response(409, str(error))


@bp.errorhandler(TooMany)
def too_many(error: TooMany) -> tuple[Response, int, dict[str, str]]:
    rooms().count(error.reason)
    return _refusal(429, str(error), error.retry_after)


@bp.errorhandler(AddressFull)
def address_full(error: AddressFull) -> tuple[Response, int, dict[str, str]]:
    rooms().count("address_rooms")
    message = (
        f"your network (address) holds {error.held} live rooms, as many as it may: play in one of them,"
        f" or try again in {error.retry_after} s, when the first expires (a room whose invite was never"
        " used expires an hour after it was made)"
    )
    return _refusal(429, message, error.retry_after)


@bp.errorhandler(StreamRefused)
def stream_refused(error: StreamRefused) -> tuple[Response, int, dict[str, str]]:
    rooms().count(error.reason)
    return _refusal(error.status, str(error), error.retry_after)


@bp.errorhandler(StoreFull)
def store_full(_: StoreFull) -> tuple[Response, int, dict[str, str]]:
    message = "the server holds as many rooms as it may right now: try again in a minute"
    return _refusal(503, message, FULL_RETRY_AFTER)


@bp.errorhandler(DamagedRoom)
def damaged_room(error: DamagedRoom) -> tuple[Response, int, dict[str, str]]:
    current_app.logger.error("rooms: %s", error)
    message = (
        f"room {_room_id()} cannot be read: its stored record is damaged, so nothing can be played"
        " in it until the server's operators repair it; make a new room to play on"
    )
    return _refusal(503, message, DAMAGED_RETRY_AFTER)


@bp.errorhandler(StoreBusy)
def store_busy(error: StoreBusy) -> tuple[Response, int, dict[str, str]]:
    current_app.logger.warning("rooms: %s", error)
    message = "the rooms could not be reached just now, and nothing was changed: try again in a second"
    return _refusal(503, message, BUSY_RETRY_AFTER)


def _refusal(status: int, message: str, retry_after: int) -> tuple[Response, int, dict[str, str]]:
    return jsonify(error_body(message, retry_after)), status, {"Retry-After": str(retry_after)}
