"""The rooms' answers and events, declared once as TypedDicts.

The room model builds them (web/rooms/model.py), the routes send them
(web/rooms/routes.py), mypy checks both, and /openapi.json's room schemas are
made from them (web/openapi/schemas.py), closed; the string under a field is
its words there.  ``EVENTS`` names the stream's events and their shapes; the
closed sets the answers name (why a game ended, the kinds of offer, a name's
length) are declared here, and the model reads them.
"""

# No ``from __future__ import annotations``: pydantic reads the required keys from the
# classes, which under Python 3.11 sees NotRequired only when evaluated (and needs
# typing_extensions' TypedDict).
from typing import Annotated, NotRequired

from pydantic import Field
from typing_extensions import TypedDict

from tictactoe import Player, Status
from web.openapi.fields import Cell, Count, InRow, Line, Pair, Rows, Side, one_of

# A seat's name: this many characters at most, printable, shown as text wherever it goes.
NAME_LENGTH = 20
OFFER_KINDS = ("draw", "takeback")
# Why a game ended: a line of k, a full board, a resignation, a game its player left, a draw agreed.
REASONS = ("line", "full", "resigned", "abandoned", "agreed")

# What the rooms' answers name (web/rooms/model.py has the same words as its own types).
RoomId = Annotated[str, Field(pattern="^[A-Za-z0-9]{8}$", examples=["Hx7kP2qa"])]
SeatName = Annotated[str, one_of(("host", "guest"))]
StatusName = Annotated[str, one_of(Status)]
Game = Annotated[int, Field(ge=1, description="The game's number in the room.")]
Name = Annotated[str, Field(max_length=NAME_LENGTH)] | None
OfferKind = Annotated[str, one_of(OFFER_KINDS)]
Reason = Annotated[str, one_of(REASONS)]


class PlayerState(TypedDict):
    """One side of a room's game: the seat playing it, whether it is taken and connected, its wins,
    its name, and how long it has been away."""

    seat: SeatName
    """Who plays this side."""
    seated: bool
    """Whether the seat is taken."""
    connected: bool
    """Whether the seat's page holds a stream."""
    wins: Count
    """The seat's wins in this room."""
    name: Name
    """The name the seat gave itself (plain text), or null."""
    away: Count | None
    """Whole seconds the seat has been away; null while it is connected or not seated."""


class Players(TypedDict):
    """The two sides of the current game."""

    x: PlayerState
    o: PlayerState


class OfferState(TypedDict):
    """An offer waiting for its answer: a draw, or taking back the asking side's last move."""

    kind: OfferKind
    """A draw, or a takeback."""
    side: Player
    """The side that asked."""


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
    reason: Reason | None
    """Why a finished game ended: a line of k, a full board, a resignation, a game its player left
    (claimed), a draw agreed; null while it goes on."""
    players: Players
    draws: Count
    rematch: list[Player]
    """The sides asking for a rematch."""
    offer: OfferState | None
    """The offer waiting for its answer, or null."""
    claim_after: Count
    """Seconds a friend must have been away before the other may claim the game."""
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


class HolderAnswer(TypedDict):
    """POST /rooms/{id}/holder: the seat a token holds, its side, and the room."""

    room: RoomId
    seat: SeatName
    side: Player
    """The seat's side in the current game."""
    state: RoomState


class MoveEvent(TypedDict):
    """A ``move`` event: who played where, and the game after it."""

    game: Game
    ply: Annotated[int, Field(ge=1)]
    """The move's number in the game."""
    side: Player
    """The side that moved."""
    move: Cell
    status: StatusName
    """The game after the move."""
    line: Line
    to_move: Player | None


class EndEvent(TypedDict):
    """An ``end`` event: how the game ended and why, and the room's score after it."""

    game: Game
    status: StatusName
    winner: Player | None
    line: Line
    reason: Reason
    """Why the game ended."""
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


class OfferEvent(TypedDict):
    """An ``offer`` event: a draw or a takeback asked for by ``side`` (made), or answered (accepted,
    declined, withdrawn by its asker)."""

    kind: OfferKind
    """A draw, or a takeback."""
    side: Player
    """The side that asked."""
    status: Annotated[str, one_of(("made", "accepted", "declined", "withdrawn"))]


class TakebackEvent(TypedDict):
    """A ``takeback`` event: the game after the asker's last move (and any reply) was taken back."""

    game: Game
    ply: Count
    """The moves the game has after it."""
    side: Player
    """The side whose last move was taken back."""
    to_move: Player


class NameEvent(TypedDict):
    """A ``name`` event: the name a side gave itself (null: none), and both sides now."""

    side: Player
    name: Name
    players: Players


class Heartbeat(TypedDict):
    """A ``heartbeat`` event: nothing happened; sent with no id, so that the stream's place stays."""


# The events of a room's stream (GET /rooms/{id}/events), by name: what each one's data is.
EVENTS: dict[str, object] = {
    "state": RoomState,
    "move": MoveEvent,
    "end": EndEvent,
    "join": PresenceEvent,
    "leave": PresenceEvent,
    "rematch": RematchEvent,
    "offer": OfferEvent,
    "takeback": TakebackEvent,
    "name": NameEvent,
    "heartbeat": Heartbeat,
}
