"""The rooms' routes: make a room, take the invited seat, read it, move, ask for a rematch, stream its events.

::

    POST /rooms                    {"rows", "cols", "k", "side"}       201 the host's seat
    POST /rooms/{id}/seats         {"invite"}                          201 the guest's seat
    GET  /rooms/{id}                                                   200 the room
    POST /rooms/{id}/moves         {"token", "move": {"row", "col"}}   200 the room after it
    POST /rooms/{id}/rematch       {"token"}                           200 the room after it
    GET  /rooms/{id}/events        [?token=]  [Last-Event-ID]          200 text/event-stream

Refusals, each in words: 400 a body that is not what the route takes; 403 a
missing or wrong token (or invite); 404 no such room; 409 what the room's
rules refuse (out of turn, an occupied cell, a finished game, a spent invite,
a rematch while the game is on); 410 a room that expired (a day without a
move); 429 too many rooms made from one address (``Retry-After``); 503 the
store could not answer, or holds as many rooms as it may (``Retry-After``).
The moves are the engine's to judge (``Board.play``, in web/rooms/model.py).
"""

from __future__ import annotations

import secrets
import socket
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from tictactoe import BoardFormatError, Player, Rules
from web.http.error_body import error_body
from web.http.errors import ROOMS_BLUEPRINT, ApiError, error_response
from web.http.json_body import json_object, read_json_body, refuse_unknown_fields, show
from web.parts import current
from web.rooms import stream
from web.rooms.model import HOST_SIDES, ID_LENGTH, SIDES, Refused, Room, Seat, WrongToken
from web.rooms.service import Rooms, TooManyRooms
from web.rooms.shapes import RoomState, SeatAnswer, SeatLinks
from web.rooms.store import ExpiredRoom, StoreBusy, StoreFull, UnknownRoom
from web.searches.rate_limit import requesting_client
from web.telemetry.request_log import note

bp = Blueprint(ROOMS_BLUEPRINT, __name__)

FIELDS = {
    "create": ("rows", "cols", "k", "side"),
    "seats": ("invite",),
    "moves": ("token", "move"),
    "rematch": ("token",),
}
EXAMPLES = {
    "create": '{"rows": 3, "cols": 3, "k": 3, "side": "random"}',
    "seats": '{"invite": "<the invite link\'s token>"}',
    "moves": '{"token": "<your seat\'s token>", "move": {"row": 1, "col": 1}}',
    "rematch": '{"token": "<your seat\'s token>"}',
}
BUSY_RETRY_AFTER = 1
FULL_RETRY_AFTER = 60


def rooms() -> Rooms:
    """This app's rooms (set up by ``web.rooms.init_app``)."""
    return current().rooms


@bp.post("/rooms")
def create_room() -> tuple[Response, int, dict[str, str]]:
    """Make a room and seat its host: see POST /rooms in /openapi.json."""
    body = _body("create")
    rows = _size(body, "rows")
    cols = _size(body, "cols")
    k = body.get("k", Rules.default_k(rows, cols))
    if not isinstance(k, int) or isinstance(k, bool):
        raise ApiError(400, f"k must be an integer, not {show(k)}")
    try:
        rules = Rules(rows, cols, k)
    except BoardFormatError as error:
        raise ApiError(400, str(error)) from None
    side = body.get("side", "random")
    if side not in HOST_SIDES:
        raise ApiError(400, f"side must be one of {', '.join(HOST_SIDES)}, not {show(side)}")
    host_side: Player = secrets.choice(SIDES) if side == "random" else "x" if side == "x" else "o"
    room, token, invite = rooms().open(rules, host_side, requesting_client())
    note(board=rules.key())
    answer = _seat_answer(room, "host", token, invite)
    return jsonify(answer), 201, {"Location": f"/rooms/{room.id}"}


@bp.post("/rooms/<room_id>/seats")
def take_seat(room_id: str) -> tuple[Response, int, dict[str, str]]:
    """Take the guest's seat with the invite: see POST /rooms/{id}/seats in /openapi.json."""
    _known(room_id)
    invite = _token(_body("seats"), "invite")
    taken: list[str] = []

    def seat(room: Room, now: float) -> list[Any]:
        token, events = room.seat_guest(invite, now)
        taken.append(token)
        return events

    room, _ = rooms().change(room_id, seat)
    return jsonify(_seat_answer(room, "guest", taken[0])), 201, {"Location": f"/rooms/{room.id}"}


@bp.get("/rooms/<room_id>")
def room_state(room_id: str) -> Response:
    """The room as it stands: see GET /rooms/{id} in /openapi.json."""
    _known(room_id)
    return jsonify(rooms().load(room_id).state(rooms().clock()))


@bp.post("/rooms/<room_id>/moves")
def play(room_id: str) -> Response:
    """A seat's move, checked by the engine: see POST /rooms/{id}/moves in /openapi.json."""
    _known(room_id)
    body = _body("moves")
    token = _token(body, "token")
    move = body.get("move")
    if not isinstance(move, dict):
        raise ApiError(400, f'move must be an object such as {{"row": 1, "col": 1}}, not {show(move)}')
    refuse_unknown_fields(move, ("row", "col"))
    row, col = _cell_index(move, "row"), _cell_index(move, "col")
    room, _ = rooms().change(room_id, lambda room, now: room.play(token, row, col, now))
    note(board=room.rules.key())
    return jsonify(room.state(rooms().clock()))


@bp.post("/rooms/<room_id>/rematch")
def rematch(room_id: str) -> Response:
    """Ask for a rematch (the second to ask starts it): see POST /rooms/{id}/rematch in /openapi.json."""
    _known(room_id)
    token = _token(_body("rematch"), "token")
    room, _ = rooms().change(room_id, lambda room, now: room.offer_rematch(token, now))
    return jsonify(room.state(rooms().clock()))


@bp.get("/rooms/<room_id>/events")
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
    room = rooms().load(room_id)
    token = request.args.get("token")
    seat = None if token is None else room.holder(token)
    client = request.environ.get("gunicorn.socket")
    body = stream.events(rooms(), room, seat, last, client if isinstance(client, socket.socket) else None)
    return Response(body, mimetype=stream.MIMETYPE, headers=stream.HEADERS)


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


def _body(route: str) -> dict[str, object]:
    body = json_object(read_json_body(request), EXAMPLES[route])
    refuse_unknown_fields(body, FIELDS[route])
    return body


def _size(body: dict[str, object], name: str) -> int:
    value = body.get(name, 3)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ApiError(400, f"{name} must be an integer, not {show(value)}")
    return value


def _token(body: dict[str, object], name: str) -> str | None:
    """The token field ``name`` (None when absent: the room answers 403); 400 when it is not a string."""
    value = body.get(name)
    if name in body and not isinstance(value, str):
        raise ApiError(400, f"{name} must be a string (the token of your link), not {show(value)}")
    return value if isinstance(value, str) else None


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
def expired_room(_: ExpiredRoom) -> Response:
    return error_response(
        410, f"room {_room_id()} has expired: nothing was played in it for a day; make a new one"
    )


@bp.errorhandler(WrongToken)
def wrong_token(error: WrongToken) -> Response:
    return error_response(403, str(error))


@bp.errorhandler(Refused)
def refused(error: Refused) -> Response:
    return error_response(409, str(error))


@bp.errorhandler(TooManyRooms)
def too_many_rooms(error: TooManyRooms) -> tuple[Response, int, dict[str, str]]:
    message = (
        f"too many rooms were made from your network (address): it may make {error.per_minute} a minute;"
        f" try again in {error.retry_after} s"
    )
    return _refusal(429, message, error.retry_after)


@bp.errorhandler(StoreFull)
def store_full(_: StoreFull) -> tuple[Response, int, dict[str, str]]:
    message = "the server holds as many rooms as it may right now: try again in a minute"
    return _refusal(503, message, FULL_RETRY_AFTER)


@bp.errorhandler(StoreBusy)
def store_busy(error: StoreBusy) -> tuple[Response, int, dict[str, str]]:
    current_app.logger.warning("rooms: %s", error)
    return _refusal(503, "the rooms could not be reached just now: try again in a second", BUSY_RETRY_AFTER)


def _refusal(status: int, message: str, retry_after: int) -> tuple[Response, int, dict[str, str]]:
    return jsonify(error_body(message, retry_after)), status, {"Retry-After": str(retry_after)}
