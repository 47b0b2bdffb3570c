"""The rooms' answers and events, declared once as TypedDicts.

The room model builds them (web/rooms/model.py), the routes send them
(web/rooms/routes.py), mypy checks both, and /openapi.json's room schemas are
made from them (web/openapi/schemas.py), closed; the string under a field is
its words there.  ``EVENTS`` names the stream's events and their shapes.
"""

# No ``from __future__ import annotations``: pydantic reads the required keys from the
# classes, which under Python 3.11 sees NotRequired only when evaluated (and needs
# typing_extensions' TypedDict).
from typing import Annotated, NotRequired

from pydantic import Field
from typing_extensions import TypedDict

from tictactoe import Player, Status
from web.openapi.fields import Count, InRow, Line, Pair, Rows, Side, one_of

# What the rooms' answers name (web/rooms/model.py has the same words as its own types).
RoomId = Annotated[str, Field(pattern="^[A-Za-z0-9]{8}$", examples=["Hx7kP2qa"])]
SeatName = Annotated[str, one_of(("host", "guest"))]
StatusName = Annotated[str, one_of(Status)]
Game = Annotated[int, Field(ge=1, description="The game's number in the room.")]


class PlayerState(TypedDict):
    """One side of a room's game: the seat playing it, whether it is taken and connected, its wins."""

    seat: SeatName
    """Who plays this side."""
    seated: bool
    """Whether the seat is taken."""
    connected: bool
    """Whether the seat's page holds a stream."""
    wins: Count
    """The seat's wins in this room."""


class Players(TypedDict):
    """The two sides of the current game."""

    x: PlayerState
    o: PlayerState


class CellPlayed(TypedDict):
    """A cell, counted from 0."""

    row: Annotated[int, Field(ge=0)]
    col: Annotated[int, Field(ge=0)]


class RoomState(TypedDict):
    """A room as anyone may see it: GET /rooms/{id}, and the stream's ``state`` event."""

    room: RoomId
    rows: Side
    cols: Side
    k: InRow
    game: Game
    moves: list[Pair]
    """The game's moves, in order."""
    board: Rows
    to_move: Player | None
    """The side to move; null once the game is over."""
    status: StatusName
    line: Line
    players: Players
    draws: Count
    rematch: list[Player]
    """The sides asking for a rematch."""
    event: Count
    """The id of the room's last event."""
    expires: Annotated[str, Field(json_schema_extra={"format": "date-time"})]
    """When the room expires, unless a move is played before."""


class SeatLinks(TypedDict):
    """The page links of a seat: its own (secret), the invite (the host's, while unspent), the watch link."""

    seat: str
    """This seat's page, /?room=<id>#host=<token> or #guest=<token> (secret: it plays for you)."""
    invite: NotRequired[str]
    """The page that seats the friend: /?room=<id>#invite=<token>, the host's."""
    watch: str
    """The page that watches the room, /?room=<id>."""


class SeatAnswer(TypedDict):
    """POST /rooms and POST /rooms/{id}/seats: the seat given, its token and links, and the room."""

    room: RoomId
    seat: SeatName
    side: Player
    """The seat's side in the current game."""
    token: Annotated[str, Field(min_length=1, max_length=100)]
    """The seat's secret token (for moves, rematches, its stream)."""
    links: SeatLinks
    state: RoomState


class MoveEvent(TypedDict):
    """A ``move`` event: who played where, and the game after it."""

    game: Game
    ply: Annotated[int, Field(ge=1)]
    """The move's number in the game."""
    side: Player
    """The side that moved."""
    move: CellPlayed
    status: StatusName
    """The game after the move."""
    line: Line
    to_move: Player | None


class EndEvent(TypedDict):
    """An ``end`` event: how the game ended, and the room's score after it."""

    game: Game
    status: StatusName
    winner: Player | None
    line: Line
    players: Players
    draws: Count


class PresenceEvent(TypedDict):
    """A ``join`` or ``leave`` event: the side that arrived or left, and both sides now."""

    side: Player
    players: Players


class RematchEvent(TypedDict):
    """A ``rematch`` event: the sides asking for one; once both have, the next game's number and sides."""

    offers: list[Player]
    started: bool
    """Whether the next game has started."""
    game: NotRequired[Game]
    players: NotRequired[Players]


# The events of a room's stream (GET /rooms/{id}/events), by name: what each one's data is.
EVENTS: dict[str, object] = {
    "state": RoomState,
    "move": MoveEvent,
    "end": EndEvent,
    "join": PresenceEvent,
    "leave": PresenceEvent,
    "rematch": RematchEvent,
}
