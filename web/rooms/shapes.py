"""The rooms' answers and events, declared once as TypedDicts.

The room model builds them (web/rooms/model.py), the routes send them
(web/rooms/routes.py), mypy checks both, and /openapi.json's room schemas are
generated from them (web/api/openapi.py), closed.
"""

# No ``from __future__ import annotations``: the schema reads the required keys
# from the classes, which under Python 3.11 sees NotRequired only when evaluated.
from typing import NotRequired, TypedDict


class PlayerState(TypedDict):
    """One side of a room's game: the seat playing it, whether it is taken and connected, its wins,
    its name (None: none given), and for how many whole seconds it has been away (None while it is
    connected, or not seated)."""

    seat: str
    seated: bool
    connected: bool
    wins: int
    name: str | None
    away: int | None


class Players(TypedDict):
    """The two sides of the current game."""

    x: PlayerState
    o: PlayerState


class CellPlayed(TypedDict):
    """A cell, counted from 0."""

    row: int
    col: int


class OfferState(TypedDict):
    """An offer waiting for its answer: a draw, or taking back the asking side's last move."""

    kind: str
    side: str


class RoomState(TypedDict):
    """A room as anyone may see it: GET /rooms/{id}, and the stream's ``state`` event.

    ``reason`` says why a finished game ended (line, full, resigned, abandoned, agreed);
    ``claim_after`` is how long a friend must have been away before the other may claim the game.
    """

    room: str
    rows: int
    cols: int
    k: int
    game: int
    moves: list[list[int]]
    board: list[str]
    to_move: str | None
    status: str
    line: list[list[int]] | None
    reason: str | None
    players: Players
    draws: int
    rematch: list[str]
    offer: OfferState | None
    claim_after: int
    event: int
    expires: str


class SeatLinks(TypedDict):
    """The page links of a seat: its own (secret), the invite (the host's, while unspent), the watch link."""

    seat: str
    invite: NotRequired[str]
    watch: str


class SeatAnswer(TypedDict):
    """POST /rooms and POST /rooms/{id}/seats: the seat given, its token and links, and the room."""

    room: str
    seat: str
    side: str
    token: str
    links: SeatLinks
    state: RoomState


class MoveEvent(TypedDict):
    """A ``move`` event: who played where, and the game after it."""

    game: int
    ply: int
    side: str
    move: CellPlayed
    status: str
    line: list[list[int]] | None
    to_move: str | None


class EndEvent(TypedDict):
    """An ``end`` event: how the game ended and why, and the room's score after it."""

    game: int
    status: str
    winner: str | None
    line: list[list[int]] | None
    reason: str
    players: Players
    draws: int


class PresenceEvent(TypedDict):
    """A ``join`` or ``leave`` event: the side that arrived or left, and both sides now."""

    side: str
    players: Players


class RematchEvent(TypedDict):
    """A ``rematch`` event: the sides asking for one; once both have, the next game's number and sides."""

    offers: list[str]
    started: bool
    game: NotRequired[int]
    players: NotRequired[Players]


class OfferEvent(TypedDict):
    """An ``offer`` event: a draw or a takeback asked for by ``side`` (made), or answered (accepted,
    declined, withdrawn by its asker)."""

    kind: str
    side: str
    status: str


class TakebackEvent(TypedDict):
    """A ``takeback`` event: ``side``'s last move (and any reply) taken back; ``ply`` moves remain."""

    game: int
    ply: int
    side: str
    to_move: str


class NameEvent(TypedDict):
    """A ``name`` event: the seat playing ``side`` took a name (None: it took its name away)."""

    side: str
    name: str | None
    players: Players
