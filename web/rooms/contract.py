"""What the rooms' routes share in their declarations (web/rooms/routes.py): the room's id in the
path, the refusals in words, and the links from an answer to the operations that may follow it.

A link names its target by the view's name (its operationId in /openapi.json) and
says what the target takes from the answer (``$response.body#/room``) or from
the request that got it (``$request.body#/token``): a client, or schemathesis's
stateful phase, goes from a new room to its seats, moves, rematches and events.
"""

from __future__ import annotations

from web.http.json_body import Schema
from web.openapi.declarations import Link, Refusal
from web.rooms.model import ID_LENGTH

# Seconds a refusal of the rooms asks a client to wait at least (Retry-After; web/rooms/routes.py).
BUSY_RETRY_AFTER = 1

ROOM_ID: Schema = {
    "name": "room_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": f"^[A-Za-z0-9]{{{ID_LENGTH}}}$", "example": "Hx7kP2qa"},
    "description": "The room's id.",
}

NOT_A_ROOM_BODY = Refusal(
    400,
    "The body (or a parameter, or Last-Event-ID) is not what the route takes: not JSON, an unknown"
    " field, a field of the wrong type, rules that do not fit (rows and cols 3..15, k 3..the longer"
    " side). The message says which.",
)
NO_SEAT = Refusal(403, "The token (or invite) is missing, or holds no seat in this room.")
NO_ROOM = Refusal(404, "No room has this id.")
REFUSED = Refusal(
    409,
    "The room's rules refuse it now: a move out of turn, on an occupied cell or off the room's board,"
    " or in a finished game; an invite already used; a rematch while the game goes on. The message"
    " says which.",
)
EXPIRED = Refusal(
    410,
    "The room has expired: nothing was played in it for a day (an hour while its invite was unused).",
)
OVER_ALLOWANCE = Refusal(
    429,
    "This address is over an allowance: the rooms it may make a minute (ROOMS_PER_MINUTE) or hold at"
    " once (ROOMS_PER_ADDRESS), the wrong tokens it may send a minute (WRONG_TOKENS_PER_MINUTE), the"
    " streams it may hold (ROOM_STREAMS_PER_ADDRESS); try again after Retry-After seconds (also in"
    " the body as retry_after). The message says which.",
    BUSY_RETRY_AFTER,
)
UNAVAILABLE = Refusal(
    503,
    "The rooms' store could not answer or commit (nothing changed), holds ROOMS_MAX live rooms, or"
    " cannot read this room's record; or the server follows as many streams as it may; try again"
    " after Retry-After seconds. The message says which.",
    BUSY_RETRY_AFTER,
)
# What a route that changes a room may answer besides its answer.
CHANGE_REFUSALS = (NOT_A_ROOM_BODY, NO_SEAT, NO_ROOM, REFUSED, EXPIRED, OVER_ALLOWANCE, UNAVAILABLE)

_ROOM = {"room_id": "$response.body#/room"}
# What a seat does with its token (each the view's name, its operationId): a new seat's answer and a
# seat's change link to each of them.
SEAT_OPERATIONS = {
    "play": "A move of this seat.",
    "rematch": "A rematch asked by this seat.",
    "name": "A name for this seat.",
    "holder": "The seat this token holds.",
    "seat_resign": "This seat resigns.",
    "seat_claim": "This seat claims the game its friend left.",
    "seat_draw": "This seat offers a draw, or accepts one.",
    "seat_takeback": "This seat asks for a takeback, or accepts one.",
    "seat_decline": "This seat declines the friend's offer, or withdraws its own.",
}


def seat_links() -> dict[str, Link]:
    """From a seat's answer (POST /rooms, /seats): the room, its stream, its invite, and what the seat
    may do with its token."""
    token = {"token": "$response.body#/token"}
    return {
        "room": Link("room_state", "The room as it stands.", _ROOM),
        "events": Link("events", "The room's events, this seat connected.", {**_ROOM, **token}),
        "seat": Link("take_seat", "The invited seat, with the invite's token (links.invite).", _ROOM),
        "invite_code": Link("invite_code", "The invite's QR code, with its token (links.invite).", _ROOM),
        **{name: Link(name, words, _ROOM, token) for name, words in SEAT_OPERATIONS.items()},
    }


def change_links() -> dict[str, Link]:
    """From a room changed by a seat (its move, rematch, name, offer...): the room, and the same seat's
    next steps."""
    room = {"room_id": "$request.path.room_id"}
    token = {"token": "$request.body#/token"}
    return {
        "room": Link("room_state", "The room as it stands.", _ROOM),
        **{name: Link(name, words, room, token) for name, words in SEAT_OPERATIONS.items()},
    }
