"""A room: one game at a time between two seats, its score, rematches, and every rule of play.

A room has a short public id and two seats, each played through a secret token
(128 random bits; the room keeps only its SHA-256, so whoever reads the store
cannot move for a player).  The host's seat is taken when the room is made;
the guest's by the first to bring the invite's token, after which the invite
is spent and its link only watches.  The host chooses a side (or lets chance
choose); after each rematch the sides swap and the score is kept::

    make the room          host seated (X or O), invite open
         |
    seat the guest         invite spent; "join"
         |
    moves                  "move" each (checked by Board.play), then "end"
         |
    rematch, rematch       one offers, the other accepts: "rematch" each;
                           the second starts the next game, sides swapped

Every change takes ``now`` (Unix seconds) and returns the events it made, each
with the next id of the room's one sequence; the store keeps them in order
(web/rooms/store.py).  Presence is leased: a seat's open event streams each
hold a lease that the stream renews; a seat is connected while a lease runs,
and "join" and "leave" are sent when that flips.  Presence is not the game:
the store keeps the leases beside the room's record (``presence_json``), never
in it, so that a renewal rewrites a few bytes and the record never grows.

A room lives a day after it was last active; one whose invite was never used
lives an hour, so that rooms nobody joined do not hold the server's places.

The rules of the game are the engine's: every move is replayed on a ``Board``
and played with ``Board.play``; the room never judges a position itself.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from tictactoe import Board, GameOverError, IllegalMoveError, Player, Rules, Status, other
from web.rooms.shapes import EndEvent, MoveEvent, Players, PlayerState, PresenceEvent, RematchEvent, RoomState

Seat = Literal["host", "guest"]
SEATS: tuple[Seat, Seat] = ("host", "guest")
SIDES: tuple[Player, Player] = ("x", "o")
# What the host may ask for: a side, or chance.
HOST_SIDES = ("x", "o", "random")

# A room id: 8 characters without look-alikes (0/O, 1/l/I): 57^8, about 2^46.7 ids.
ID_ALPHABET = "23456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ"
ID_LENGTH = 8
TOKEN_BYTES = 16  # a seat's and an invite's token: 128 random bits (URL-safe base64, 22 characters)
# A room lives a day after its last move (or its making, a seat taken, a rematch) ...
TTL_SECONDS = 24 * 3600
# ... and an hour after its making while its invite is unused.
INVITE_SECONDS = 3600
# A stream's lease on its seat's presence: renewed at half-time by the stream itself, so a
# worker that died with its streams leaves its seats "connected" for at most this long.
LEASE_SECONDS = 120.0
# The guest counts as here from taking the seat until its page's stream connects.
ARRIVAL_LEASE_SECONDS = 30.0
ARRIVAL = "arrival"
# A stream the server ends (its lifetime, a reader too slow, a worker stopping) keeps its lease
# this long: the browser reconnects within seconds, and its seat never seems to leave meanwhile.
RECONNECT_GRACE_SECONDS = 20.0
# Leases one seat may hold (a player's tabs and devices); past it the oldest goes.
MAX_LEASES = 8


class RoomError(Exception):
    """A request the room refuses; the message says why, in words."""


class WrongToken(RoomError):
    """The token holds no seat here (or none was given): 403."""


class Refused(RoomError):
    """The room's rules refuse it now: out of turn, an occupied cell, a finished game, a spent invite: 409."""


@dataclass(frozen=True)
class Event:
    """One thing that happened in a room: ``id`` in the room's sequence, ``type``, its ``data`` (JSON)."""

    id: int
    type: str
    data: Mapping[str, Any]

    def to_json(self) -> list[Any]:
        """The event as stored: ``[id, type, data]``."""
        return [self.id, self.type, self.data]

    @classmethod
    def from_json(cls, stored: list[Any]) -> Event:
        """The event ``to_json`` stored; ``ValueError`` for anything else."""
        if not (isinstance(stored, list) and len(stored) == 3):
            raise ValueError(f"not a stored event: {stored!r}")
        event_id, kind, data = stored
        if not (isinstance(event_id, int) and isinstance(kind, str) and isinstance(data, dict)):
            raise ValueError(f"not a stored event: {stored!r}")
        return cls(event_id, kind, data)


@dataclass
class SeatState:
    """One seat: its token's digest (None while the guest's seat is free), its side, wins and leases."""

    token: str | None
    side: Player
    wins: int = 0
    leases: dict[str, float] = field(default_factory=dict)  # stream id -> end of its lease

    def connected(self, now: float) -> bool:
        """Whether a lease of this seat runs at ``now``."""
        return any(end > now for end in self.leases.values())


def new_token() -> str:
    """A fresh secret token (``TOKEN_BYTES`` random bytes, URL-safe)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    """What a room keeps of a token: its SHA-256, in hex."""
    # "surrogatepass": no text a client can send makes this raise (a lone surrogate holds no seat).
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_room_id() -> str:
    """A fresh random room id (``ID_LENGTH`` characters of ``ID_ALPHABET``)."""
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


def cell_pair(rules: Rules, cell: int) -> list[int]:
    """A cell as the API's ``[row, col]`` pair."""
    return list(rules.row_col(cell))


def iso_time(seconds: float) -> str:
    """Unix ``seconds`` as an ISO 8601 UTC time to the second (``2026-11-28T09:30:00Z``)."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class Room:
    """A room's whole state (events apart: the store keeps those); see the module docstring."""

    id: str
    rules: Rules
    created: float
    active: float  # the last move, or the making, the guest's arrival, a rematch's start
    invite: str | None  # the invite token's digest while it is unspent
    host: SeatState
    guest: SeatState
    draws: int = 0
    game: int = 1
    moves: list[int] = field(default_factory=list)  # the current game's cells, in order
    offers: list[Seat] = field(default_factory=list)  # the seats that offered a rematch
    last_event: int = 0
    owner: str = ""  # the digest of the address that made it (web/rooms/service.py)

    # -- making and reading ---------------------------------------------------------

    @classmethod
    def open(
        cls, room_id: str, rules: Rules, host_side: Player, now: float, owner: str = ""
    ) -> tuple[Room, str, str]:
        """A new room with the host seated on ``host_side``: (room, the host's token, the invite's token).

        ``owner`` names who made it (a digest of its address), so that the store can count an
        address's rooms."""
        host_token, invite_token = new_token(), new_token()
        room = cls(
            id=room_id,
            rules=rules,
            created=now,
            active=now,
            invite=digest(invite_token),
            host=SeatState(digest(host_token), host_side),
            guest=SeatState(None, other(host_side)),
            owner=owner,
        )
        return room, host_token, invite_token

    def seat(self, name: Seat) -> SeatState:
        """The seat called ``name``."""
        return self.host if name == "host" else self.guest

    def seat_on(self, side: Player) -> Seat:
        """The seat playing ``side`` in the current game."""
        return "host" if self.host.side == side else "guest"

    def expires(self) -> float:
        """When the room expires (Unix seconds): a day after it was last active, an hour while
        its invite is unused."""
        return self.active + (INVITE_SECONDS if self.invite is not None else TTL_SECONDS)

    def expired(self, now: float) -> bool:
        """Whether the room has expired at ``now``."""
        return now >= self.expires()

    def why_expired(self) -> str:
        """Why the room expired, in words."""
        if self.invite is not None:
            return "nobody came with its invite within an hour"
        return "nothing was played in it for a day"

    def board(self) -> Board:
        """The current game's position, every move played again by the engine."""
        board = Board(self.rules)
        for cell in self.moves:
            board.play(cell)
        return board

    def holder(self, token: object) -> Seat:
        """The seat ``token`` holds; ``WrongToken`` when it holds none (or is missing)."""
        if token is None:
            raise WrongToken(f"a seat's token is required: room {self.id} takes moves only from its seats")
        if isinstance(token, str):
            given = digest(token)
            for name in SEATS:
                kept = self.seat(name).token
                if kept is not None and hmac.compare_digest(kept, given):
                    return name
        raise WrongToken(f"this token holds no seat in room {self.id}: use the link of your seat")

    def players(self, now: float) -> Players:
        """By side: which seat plays it, whether it is taken, connected, and its wins."""

        def player(side: Player) -> PlayerState:
            name = self.seat_on(side)
            seat = self.seat(name)
            return {
                "seat": name,
                "seated": seat.token is not None,
                "connected": seat.connected(now),
                "wins": seat.wins,
            }

        return {"x": player("x"), "o": player("o")}

    def state(self, now: float) -> RoomState:
        """The room as anyone may see it (no token): the RoomState schema of /openapi.json."""
        board = self.board()
        status, line = game_status(board)
        return {
            "room": self.id,
            "rows": self.rules.rows,
            "cols": self.rules.cols,
            "k": self.rules.k,
            "game": self.game,
            "moves": [cell_pair(self.rules, cell) for cell in self.moves],
            "board": board.to_text(),
            "to_move": board.to_move if status == Status.IN_PROGRESS else None,
            "status": str(status),
            "line": line,
            "players": self.players(now),
            "draws": self.draws,
            "rematch": sorted(self.seat(name).side for name in self.offers),
            "event": self.last_event,
            "expires": iso_time(self.expires()),
        }

    # -- changes: each returns the events it made ------------------------------------

    def _event(self, kind: str, data: Mapping[str, Any]) -> Event:
        self.last_event += 1
        return Event(self.last_event, kind, data)

    def check_invite(self, invite_token: object) -> None:
        """Nothing when ``invite_token`` is this room's unspent invite; ``Refused`` once it is spent,
        ``WrongToken`` for another token."""
        if self.invite is None:
            raise Refused(f"the invite of room {self.id} has been used: both seats are taken; you can watch")
        if not (isinstance(invite_token, str) and hmac.compare_digest(self.invite, digest(invite_token))):
            raise WrongToken(f"this is not the invite of room {self.id}: use the link you were sent")

    def seat_guest(self, invite_token: object, now: float) -> tuple[str, list[Event]]:
        """Seat the guest with the invite: (the guest's token, the events).

        ``Refused`` once the invite is spent, ``WrongToken`` for another token.
        """
        self.check_invite(invite_token)
        token = new_token()
        self.invite = None
        self.guest.token = digest(token)
        # Here until its page's stream connects (which then takes over without a second "join").
        self.guest.leases[ARRIVAL] = now + ARRIVAL_LEASE_SECONDS
        self.active = now
        return token, [self._presence("join", self.guest, now)]

    def play(self, token: object, row: int, col: int, now: float) -> list[Event]:
        """The seat of ``token`` plays (row, col): "move", and "end" when the game ends.

        ``WrongToken`` first; then ``Refused`` for a finished game, a move out of
        turn, a cell off the board or occupied (the engine's words).
        """
        name = self.holder(token)
        board = self.board()
        if board.is_over():
            raise Refused(GameOverError.MESSAGE)
        side = self.seat(name).side
        if board.to_move != side:
            raise Refused(f"it is not your turn: {board.to_move.upper()} is to move")
        if not (0 <= row < self.rules.rows and 0 <= col < self.rules.cols):
            raise Refused(f"row {row}, col {col} is off this room's {self.rules.label()} board")
        cell = self.rules.cell(row, col)
        try:
            board.play(cell)
        except IllegalMoveError as error:
            raise Refused(str(error)) from None
        self.moves.append(cell)
        self.active = now
        status, line = game_status(board)
        move: MoveEvent = {
            "game": self.game,
            "ply": len(self.moves),
            "side": side,
            "move": {"row": row, "col": col},
            "status": str(status),
            "line": line,
            "to_move": board.to_move if status == Status.IN_PROGRESS else None,
        }
        events = [self._event("move", move)]
        if status != Status.IN_PROGRESS:
            winner: Player | None = None
            if status == Status.DRAW:
                self.draws += 1
            else:
                winner = side
                self.seat(name).wins += 1
            end: EndEvent = {
                "game": self.game,
                "status": str(status),
                "winner": winner,
                "line": line,
                "players": self.players(now),
                "draws": self.draws,
            }
            events.append(self._event("end", end))
        return events

    def offer_rematch(self, token: object, now: float) -> list[Event]:
        """The seat of ``token`` asks for a rematch; the second to ask starts it (sides swapped).

        ``WrongToken``, or ``Refused`` while the game goes on.  Asking twice changes nothing.
        """
        name = self.holder(token)
        if not self.board().is_over():
            raise Refused("the game is still on: a rematch can be asked for once it has ended")
        if name in self.offers:
            return []
        self.offers.append(name)
        if len(self.offers) < len(SEATS):
            offer: RematchEvent = {"offers": [self.seat(name).side], "started": False}
            return [self._event("rematch", offer)]
        self.offers = []
        self.moves = []
        self.game += 1
        self.host.side, self.guest.side = self.guest.side, self.host.side
        self.active = now
        started: RematchEvent = {
            "offers": [],
            "started": True,
            "game": self.game,
            "players": self.players(now),
        }
        return [self._event("rematch", started)]

    def connect(self, name: Seat, stream: str, now: float) -> list[Event]:
        """A stream of seat ``name`` opened: its lease; "join" when the seat was not connected."""
        seat = self.seat(name)
        events = self._expire_leases(now)
        was = seat.connected(now)
        seat.leases.pop(ARRIVAL, None)  # the page has come: its stream holds the seat from now
        seat.leases[stream] = now + LEASE_SECONDS
        while len(seat.leases) > MAX_LEASES:
            del seat.leases[min(seat.leases, key=seat.leases.__getitem__)]
        if not was:
            events.append(self._presence("join", seat, now))
        return events

    def renew(self, name: Seat, stream: str, now: float) -> list[Event]:
        """Renew a stream's lease (and let the leases that ran out go, with their "leave")."""
        events = self._expire_leases(now)
        self.seat(name).leases[stream] = now + LEASE_SECONDS
        return events

    def disconnect(self, name: Seat, stream: str, now: float, grace: float = 0.0) -> list[Event]:
        """A stream of seat ``name`` closed: "leave" when it was the seat's last.

        With ``grace`` (a stream the server ended, whose browser comes back), its lease runs
        that much longer instead, and the seat leaves only if no stream has taken over by then.
        """
        seat = self.seat(name)
        was = seat.connected(now)
        if grace > 0 and stream in seat.leases:
            seat.leases[stream] = min(seat.leases[stream], now + grace)
        else:
            seat.leases.pop(stream, None)
        events = self._expire_leases(now, skip=name)
        if was and not seat.connected(now):
            events.append(self._presence("leave", seat, now))
        return events

    def lapsed(self, now: float) -> bool:
        """Whether a lease has run out unannounced (its stream's worker died, or it never came back)."""
        return any(end <= now for name in SEATS for end in self.seat(name).leases.values())

    def lapse(self, now: float) -> list[Event]:
        """Let the leases that ran out go: "leave" for each seat left without one."""
        return self._expire_leases(now)

    def lease_ends(self, name: Seat, stream: str) -> float | None:
        """When the lease of ``stream`` on seat ``name`` ends, or None when it has none."""
        return self.seat(name).leases.get(stream)

    def _expire_leases(self, now: float, skip: Seat | None = None) -> list[Event]:
        """Drop the leases that ran out (a stream whose worker died): "leave" for a seat left without."""
        events = []
        for name in SEATS:
            seat = self.seat(name)
            ended = [stream for stream, end in seat.leases.items() if end <= now]
            for stream in ended:
                del seat.leases[stream]
            if ended and name != skip and not seat.connected(now):
                events.append(self._presence("leave", seat, now))
        return events

    def _presence(self, kind: str, seat: SeatState, now: float) -> Event:
        """A "join" or "leave" event of ``seat``."""
        presence: PresenceEvent = {"side": seat.side, "players": self.players(now)}
        return self._event(kind, presence)

    # -- stored form -----------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The room's record as the store keeps it (plain JSON, nothing shared with the room),
        presence apart (``presence_json``)."""
        return {
            "id": self.id,
            "rules": [self.rules.rows, self.rules.cols, self.rules.k],
            "created": self.created,
            "active": self.active,
            "invite": self.invite,
            "seats": {name: _seat_json(self.seat(name)) for name in SEATS},
            "draws": self.draws,
            "game": self.game,
            "moves": list(self.moves),
            "offers": list(self.offers),
            "last_event": self.last_event,
            "owner": self.owner,
        }

    def presence_json(self) -> dict[str, dict[str, float]]:
        """The seats' leases as the store keeps them, beside the record: {seat: {stream: end}}."""
        return {name: dict(self.seat(name).leases) for name in SEATS}

    @classmethod
    def from_json(cls, stored: dict[str, Any], presence: dict[str, Any] | None = None) -> Room:
        """The room ``to_json`` and ``presence_json`` stored; ``ValueError`` (or ``KeyError``,
        ``TypeError``) for anything else."""
        rows, cols, k = stored["rules"]
        seats = stored["seats"]
        presence = presence or {}
        room = cls(
            id=str(stored["id"]),
            rules=Rules(rows, cols, k),
            created=float(stored["created"]),
            active=float(stored["active"]),
            invite=stored["invite"],
            host=_seat_from_json(seats["host"], presence.get("host", {})),
            guest=_seat_from_json(seats["guest"], presence.get("guest", {})),
            draws=int(stored["draws"]),
            game=int(stored["game"]),
            moves=[int(cell) for cell in stored["moves"]],
            offers=[name for name in stored["offers"] if name in SEATS],
            last_event=int(stored["last_event"]),
            owner=str(stored.get("owner", "")),
        )
        room.board()  # raises for moves the engine does not take
        return room


def game_status(board: Board) -> tuple[Status, list[list[int]] | None]:
    """A position's status and its winning line's cells as ``[row, col]`` pairs (None unless won)."""
    outcome = board.outcome()
    if outcome is None:
        return Status.IN_PROGRESS, None
    if outcome.winner is None:
        return Status.DRAW, None
    return Status.won_by(outcome.winner), [cell_pair(board.rules, cell) for cell in outcome.line]


def _seat_json(seat: SeatState) -> dict[str, Any]:
    return {"token": seat.token, "side": seat.side, "wins": seat.wins}


def _seat_from_json(stored: dict[str, Any], leases: dict[str, Any]) -> SeatState:
    side = stored["side"]
    if side not in SIDES:
        raise ValueError(f"not a side: {side!r}")
    token = stored["token"]
    if not (token is None or isinstance(token, str)):
        raise ValueError(f"not a token's digest: {token!r}")
    kept = {str(stream): float(end) for stream, end in leases.items()}
    return SeatState(token, side, int(stored["wins"]), kept)
