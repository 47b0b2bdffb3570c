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
         |                 (or a resignation, a claim of a game the friend
         |                 left, a draw agreed: "end" with its reason)
    rematch, rematch       one offers, the other accepts: "rematch" each;
                           the second starts the next game, sides swapped

While a game goes on, a seat may offer a draw or ask to take back its last
move ("offer"): the other accepts by asking the same (a draw ends the game,
"end"; a takeback removes the asker's last move and any reply, "takeback"),
or declines ("offer" declined; the asker may withdraw it the same way); a
move withdraws any offer.  Each seat may give itself a short name ("name").

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
from web.rooms.shapes import (
    OFFER_KINDS,
    REASONS,
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
    TakebackEvent,
)

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
# A friend away this long while the game goes on: the seat that stayed may claim the game.
ABANDON_SECONDS = 60.0


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
    """One seat: its token's digest (None while the guest's seat is free), its side, wins, name; its
    leases and since when it is away (presence, stored apart)."""

    token: str | None
    side: Player
    wins: int = 0
    leases: dict[str, float] = field(default_factory=dict)  # stream id -> end of its lease
    name: str | None = None
    away_since: float | None = None  # when its last lease ended (or it was seated without one)

    def connected(self, now: float) -> bool:
        """Whether a lease of this seat runs at ``now``."""
        return any(end > now for end in self.leases.values())

    def away(self, now: float) -> int | None:
        """Whole seconds this seat has been away at ``now`` (since its last lease ended, said or not);
        None while it is connected, or when it never was."""
        if self.connected(now):
            return None
        since = max(self.leases.values(), default=self.away_since)
        return None if since is None else max(0, int(now - since))


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
    # A game its players ended: {"winner": "x" | "o" | None, "reason": one of REASONS}.
    result: dict[str, Any] | None = None
    # The offer waiting for an answer: {"kind": one of OFFER_KINDS, "by": a seat}.
    offer: dict[str, str] | None = None
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
            host=SeatState(digest(host_token), host_side, away_since=now),
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

    def over(self) -> bool:
        """Whether the current game has ended (on the board, or by its players)."""
        return self.result is not None or self.board().is_over()

    def outcome(self, board: Board) -> tuple[Status, list[list[int]] | None, str | None]:
        """The current game's (status, winning line, reason it ended), its position being ``board``."""
        if self.result is not None:
            winner = self.result["winner"]
            return (Status.DRAW if winner is None else Status.won_by(winner)), None, self.result["reason"]
        status, line = game_status(board)
        reason = None if status == Status.IN_PROGRESS else "full" if status == Status.DRAW else "line"
        return status, line, reason

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
                "name": seat.name,
                "away": seat.away(now) if seat.token is not None else None,
            }

        return {"x": player("x"), "o": player("o")}

    def state(self, now: float) -> RoomState:
        """The room as anyone may see it (no token): the RoomState schema of /openapi.json."""
        board = self.board()
        status, line, reason = self.outcome(board)
        offer: OfferState | None = None
        if self.offer is not None:
            offer = {"kind": self.offer["kind"], "side": self.seat(by(self.offer)).side}
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
            "reason": reason,
            "players": self.players(now),
            "draws": self.draws,
            "rematch": sorted(self.seat(name).side for name in self.offers),
            "offer": offer,
            "claim_after": int(ABANDON_SECONDS),
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
        if self.result is not None or board.is_over():
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
        self.offer = None  # a move withdraws any offer: it was about the position before it
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
            winner = None if status == Status.DRAW else side
            events.append(self._end(winner, line, "full" if winner is None else "line", now))
        return events

    def _end(self, winner: Player | None, line: list[list[int]] | None, reason: str, now: float) -> Event:
        """The game ends, ``winner`` (None: a draw) scored: its "end" event."""
        if winner is None:
            self.draws += 1
        else:
            self.seat(self.seat_on(winner)).wins += 1
        self.offer = None
        self.active = now
        status = Status.DRAW if winner is None else Status.won_by(winner)
        end: EndEvent = {
            "game": self.game,
            "status": str(status),
            "winner": winner,
            "line": line,
            "reason": reason,
            "players": self.players(now),
            "draws": self.draws,
        }
        return self._event("end", end)

    def _ended_by_players(self, winner: Player | None, reason: str, now: float) -> list[Event]:
        self.result = {"winner": winner, "reason": reason}
        return [self._end(winner, None, reason, now)]

    def _on(self, token: object, doing: str) -> Seat:
        """The seat of ``token``, while its game goes on; ``WrongToken``, or ``Refused`` (``doing``,
        in words, once the game is over)."""
        name = self.holder(token)
        if self.over():
            raise Refused(f"the game is over: there is no game to {doing}")
        return name

    def resign(self, token: object, now: float) -> list[Event]:
        """The seat of ``token`` gives the game up: "end", the other side the winner."""
        name = self._on(token, "resign")
        return self._ended_by_players(other(self.seat(name).side), "resigned", now)

    def claim(self, token: object, now: float) -> list[Event]:
        """The seat of ``token`` claims the game its friend left ("end", reason abandoned): once the
        friend has been away ``ABANDON_SECONDS``; ``Refused`` before, in words."""
        name = self._on(token, "claim")
        friend = self.seat("guest" if name == "host" else "host")
        away = friend.away(now) if friend.token is not None else None
        if away is None:
            raise Refused("your friend is here: the game goes on")
        if away < ABANDON_SECONDS:
            raise Refused(
                f"your friend has been away {away} s: you can claim the game once they have been"
                f" away {int(ABANDON_SECONDS)} s"
            )
        return self._ended_by_players(self.seat(name).side, "abandoned", now)

    def propose(self, token: object, kind: str, now: float) -> list[Event]:
        """The seat of ``token`` offers a draw or asks to take back its last move (``kind``); when its
        friend has asked the same, that is the answer: the draw agreed ("end"), the move taken back
        ("takeback").  ``Refused`` while another offer waits, or with no move to take back."""
        name = self._on(token, "offer anything in")
        side = self.seat(name).side
        pending = self.offer
        if pending is not None and pending["kind"] != kind:
            asker = "you" if pending["by"] == name else "your friend"
            raise Refused(f"{asker} asked for a {pending['kind']}: that is answered first")
        if pending is not None and pending["by"] == name:
            return []  # asked already
        if pending is None:
            if kind == "takeback" and self._last_move_of(side) is None:
                raise Refused("you have no move to take back in this game")
            self.offer = {"kind": kind, "by": name}
            return [self._offer_event(kind, side, "made")]
        asker_side = other(side)
        self.offer = None
        events = [self._offer_event(kind, asker_side, "accepted")]
        if kind == "draw":
            return events + self._ended_by_players(None, "agreed", now)
        ply = self._last_move_of(asker_side)
        assert ply is not None  # the offer was refused when it had none
        del self.moves[ply:]
        self.active = now
        board = self.board()
        takeback: TakebackEvent = {
            "game": self.game,
            "ply": len(self.moves),
            "side": asker_side,
            "to_move": board.to_move,
        }
        return [*events, self._event("takeback", takeback)]

    def decline(self, token: object, now: float) -> list[Event]:
        """The seat of ``token`` declines its friend's offer, or withdraws its own: "offer"."""
        name = self.holder(token)
        if self.offer is None:
            raise Refused("there is no offer to answer")
        offer, self.offer = self.offer, None
        status = "withdrawn" if offer["by"] == name else "declined"
        return [self._offer_event(offer["kind"], self.seat(by(offer)).side, status)]

    def rename(self, token: object, name: str | None, now: float) -> list[Event]:
        """The seat of ``token`` takes ``name`` (checked by the route; None: no name): "name"."""
        seat = self.seat(self.holder(token))
        if seat.name == name:
            return []
        seat.name = name
        named: NameEvent = {"side": seat.side, "name": name, "players": self.players(now)}
        return [self._event("name", named)]

    def _last_move_of(self, side: Player) -> int | None:
        """The ply index (from 0) of ``side``'s last move in this game, or None."""
        first = 0 if side == "x" else 1  # X moves first: its moves are the even plies
        plies = range(first, len(self.moves), 2)
        return plies[-1] if plies else None

    def _offer_event(self, kind: str, side: Player, status: str) -> Event:
        offer: OfferEvent = {"kind": kind, "side": side, "status": status}
        return self._event("offer", offer)

    def offer_rematch(self, token: object, now: float) -> list[Event]:
        """The seat of ``token`` asks for a rematch; the second to ask starts it (sides swapped).

        ``WrongToken``, or ``Refused`` while the game goes on.  Asking twice changes nothing.
        """
        name = self.holder(token)
        if not self.over():
            raise Refused("the game is still on: a rematch can be asked for once it has ended")
        if name in self.offers:
            return []
        self.offers.append(name)
        if len(self.offers) < len(SEATS):
            offer: RematchEvent = {"offers": [self.seat(name).side], "started": False}
            return [self._event("rematch", offer)]
        self.offers = []
        self.moves = []
        self.result = None
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
            ended = {stream: end for stream, end in seat.leases.items() if end <= now}
            for stream in ended:
                del seat.leases[stream]
            if ended and name != skip and not seat.connected(now):
                # Away from when its last lease ended, not from when a write noticed it.
                events.append(self._presence("leave", seat, max(ended.values())))
        return events

    def _presence(self, kind: str, seat: SeatState, now: float) -> Event:
        """A "join" or "leave" event of ``seat`` at ``now`` (it is away from a "leave" on)."""
        seat.away_since = None if kind == "join" else now
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
            "result": None if self.result is None else dict(self.result),
            "offer": None if self.offer is None else dict(self.offer),
        }

    def presence_json(self) -> dict[str, dict[str, Any]]:
        """The seats' presence as the store keeps it, beside the record:
        {seat: {"leases": {stream: end}, "away_since": time | None}}."""
        return {
            name: {"leases": dict(self.seat(name).leases), "away_since": self.seat(name).away_since}
            for name in SEATS
        }

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
            result=_result_from_json(stored.get("result")),
            offer=_offer_from_json(stored.get("offer")),
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


def by(offer: Mapping[str, str]) -> Seat:
    """The seat that made ``offer``."""
    return "host" if offer["by"] == "host" else "guest"


def _seat_json(seat: SeatState) -> dict[str, Any]:
    return {"token": seat.token, "side": seat.side, "wins": seat.wins, "name": seat.name}


def _seat_from_json(stored: dict[str, Any], presence: dict[str, Any]) -> SeatState:
    side = stored["side"]
    if side not in SIDES:
        raise ValueError(f"not a side: {side!r}")
    token, name = stored["token"], stored.get("name")
    if not (token is None or isinstance(token, str)):
        raise ValueError(f"not a token's digest: {token!r}")
    if not (name is None or isinstance(name, str)):
        raise ValueError(f"not a name: {name!r}")
    leases = {str(stream): float(end) for stream, end in presence.get("leases", {}).items()}
    away = presence.get("away_since")
    return SeatState(token, side, int(stored["wins"]), leases, name, None if away is None else float(away))


def _result_from_json(stored: object) -> dict[str, Any] | None:
    if stored is None:
        return None
    if not (
        isinstance(stored, dict)
        and stored.get("winner") in (*SIDES, None)
        and stored.get("reason") in REASONS
    ):
        raise ValueError(f"not a result: {stored!r}")
    return {"winner": stored["winner"], "reason": stored["reason"]}


def _offer_from_json(stored: object) -> dict[str, str] | None:
    if stored is None:
        return None
    if not (isinstance(stored, dict) and stored.get("kind") in OFFER_KINDS and stored.get("by") in SEATS):
        raise ValueError(f"not an offer: {stored!r}")
    return {"kind": stored["kind"], "by": stored["by"]}
