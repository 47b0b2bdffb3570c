"""The rooms as the routes use them: made within each address's allowances, changed in the store, published.

``Rooms`` ties the room model (web/rooms/model.py), the store (SQLite or Redis)
and this worker's hub of streams (web/rooms/wakeups.py) together: every change
is committed in the store, for every worker at once, and only then are its
events handed to the streams here and announced to the other workers.

What one address may do, so that strangers cost little:

- make ``ROOMS_PER_MINUTE`` rooms at once, then that many a minute (a token
  bucket, kept in each worker's memory or in Redis as the search allowance is:
  web/searches/rate_limit.py), and hold at most ``ROOMS_PER_ADDRESS`` live
  rooms (counted by the store);
- bring ``WRONG_TOKENS_PER_MINUTE`` tokens (or invites) that hold no seat:
  each is checked on a read of the room, before any lock, and charged; past the
  allowance the address's tokens are refused before the room is even read (a
  bucket in the worker's memory), each refusal answered only after a pause of
  ``REFUSAL_PAUSE_SECONDS`` (at most its ``Retry-After``): a greenlet asleep costs
  nothing, and a client that guesses on kept-alive connections as fast as it is
  answered is slowed to one guess a connection every two seconds.

A refusal is a ``TooMany``: a 429 whose words say what happened and when to try again.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import time
from collections.abc import Callable, Iterator

from tictactoe import Player, Rules
from web.rooms.budget import StreamBudget
from web.rooms.model import Event, Room, Seat, WrongToken, new_room_id
from web.rooms.store import Change, DamagedRoom, Guard, RoomStore, StoreBusy
from web.rooms.wakeups import Hub
from web.runtime.app_entry import AppEntry
from web.searches.rate_limit import WINDOW, Buckets

# A fresh id that is taken (about one chance in 2^46 per live room) is drawn again this many times.
ID_TRIES = 5
# How long a refused guesser waits for its 429 (at most its Retry-After).
REFUSAL_PAUSE_SECONDS = 2.0

# Counted refusals and troubles (web/telemetry/metrics.py shows them): a name in, nothing out.
Count = Callable[[str], None]


class TooMany(Exception):
    """An address is over one of its allowances: 429, ``retry_after`` seconds, the message in words."""

    def __init__(self, message: str, retry_after: int, reason: str) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.reason = reason


class Allowance:
    """So many of something a minute per address: ``per_minute`` at once, then one every
    ``60 / per_minute`` s.  The refusal says "too many ``what`` from your network (address): it
    may ``verb`` N a minute" ("rooms were made", "make"); ``reason`` names it in /metrics."""

    def __init__(self, per_minute: int, buckets: Buckets, what: str, verb: str, reason: str) -> None:
        self.per_minute = per_minute
        self.buckets = buckets
        self.what = what
        self.verb = verb
        self.reason = reason
        self.cost = WINDOW / per_minute

    def check(self, client: str) -> None:
        """``TooMany`` when ``client`` has none left; ``StoreBusy`` when the buckets cannot be read."""
        owed = self._owed(client)
        if owed + self.cost > WINDOW + 1e-6:
            raise self._refusal(owed)

    def take(self, client: str) -> None:
        """Count one for ``client``; ``TooMany`` (nothing counted) when it has none left."""
        self.check(client)
        try:
            self.buckets.add(client, self.cost)
        except Exception as error:  # Redis down or paused
            raise StoreBusy(f"the allowances (Redis) failed: {error!r}") from error

    def _owed(self, client: str) -> float:
        try:
            return self.buckets.owed(client)
        except Exception as error:  # Redis down or paused
            raise StoreBusy(f"the allowances (Redis) failed: {error!r}") from error

    def _refusal(self, owed: float) -> TooMany:
        retry_after = max(1, math.ceil(owed + self.cost - WINDOW))
        return TooMany(
            f"too many {self.what} from your network (address): it may {self.verb}"
            f" {self.per_minute} a minute; try again in {retry_after} s",
            retry_after,
            self.reason,
        )


def owner_of(client: str) -> str:
    """What a room keeps of the address that made it: a digest, to count that address's rooms."""
    return hashlib.sha256(client.encode("utf-8", "surrogatepass")).hexdigest()[:32]


class Rooms:
    """The rooms of this app: see the module docstring.  ``clock`` gives Unix seconds (tests set it)."""

    def __init__(
        self,
        store: RoomStore,
        hub: Hub,
        making: Allowance,
        guessing: Allowance,
        streams: StreamBudget,
        stream_seconds: float,
        count: Count = lambda _: None,
        clock: Callable[[], float] = time.time,
        pause: Callable[[float], None] = time.sleep,
    ) -> None:
        """``making``: rooms made a minute; ``guessing``: wrong tokens a minute; ``streams``: the
        streams this worker admits, each ending after about ``stream_seconds``; ``count(name)``
        counts a refusal or a trouble for /metrics; ``pause(seconds)`` holds a refused guesser
        (under gevent, ``time.sleep`` lets the worker's other connections go on)."""
        self.store = store
        self.hub = hub
        self.making = making
        self.guessing = guessing
        self.streams = streams
        self.stream_seconds = stream_seconds
        self.count = count
        self.clock = clock
        self.pause = pause

    def open(self, rules: Rules, host_side: Player, client: str) -> tuple[Room, str, str]:
        """A new room, stored: (room, the host's token, the invite's token).

        ``TooMany`` past the address's allowance; ``StoreFull``, ``AddressFull``, ``StoreBusy``
        from the store.
        """
        self.making.take(client)
        now = self.clock()
        for _ in range(ID_TRIES):
            room, host_token, invite_token = Room.open(new_room_id(), rules, host_side, now, owner_of(client))
            if self.store.add(room, [], now):
                return room, host_token, invite_token
        raise StoreBusy("no free room id was found")

    def load(self, room_id: str) -> Room:
        """The room as it stands; ``UnknownRoom``, ``ExpiredRoom``, ``DamagedRoom``, ``StoreBusy``."""
        try:
            return self.store.load(room_id, self.clock())
        except DamagedRoom:
            self.count("damaged")
            raise

    def holder(self, room_id: str, token: object, client: str) -> tuple[Room, Seat]:
        """The room and the seat ``token`` holds in it, found on a read, before any lock.

        ``WrongToken`` (charged to ``client``'s allowance), or ``TooMany`` once it is spent.
        """
        self._may_guess(client)
        room = self.load(room_id)
        with self._charging(client):
            return room, room.holder(token)

    def seated_change(self, room_id: str, token: object, client: str, change: Change) -> Room:
        """``change`` made by the seat of ``token`` (a move, a rematch): the room after it.

        The token is checked on a read before any lock: ``WrongToken`` (charged to ``client``),
        ``TooMany`` once its allowance is spent; then as ``change``.
        """
        self._may_guess(client)
        with self._charging(client):
            return self.change(room_id, change, guard=lambda room: room.holder(token))[0]

    def invited(self, room_id: str, invite: object, client: str) -> None:
        """Check ``invite`` on a read: nothing when it is the room's unspent invite; ``Refused`` once
        it is spent, ``WrongToken`` (charged to ``client``) for another, ``TooMany`` once the
        allowance is spent."""
        self._may_guess(client)
        room = self.load(room_id)
        with self._charging(client):
            room.check_invite(invite)

    def invited_change(self, room_id: str, invite: object, client: str, change: Change) -> Room:
        """``change`` made with the room's invite (the guest's seat taken): as ``seated_change``, the
        invite checked before any lock (``Refused`` once it is spent)."""
        self._may_guess(client)
        with self._charging(client):
            return self.change(room_id, change, guard=lambda room: room.check_invite(invite))[0]

    @contextlib.contextmanager
    def _charging(self, client: str) -> Iterator[None]:
        """Charge ``client`` one wrong token when the block raises ``WrongToken``."""
        try:
            yield
        except WrongToken:
            self.guessing.take(client)
            raise

    def _may_guess(self, client: str) -> None:
        """``TooMany``, after a pause, when ``client`` has spent its wrong tokens."""
        try:
            self.guessing.check(client)
        except TooMany as refusal:
            self.pause(min(REFUSAL_PAUSE_SECONDS, refusal.retry_after))
            raise

    def change(
        self, room_id: str, change: Change, durable: bool = True, guard: Guard | None = None
    ) -> tuple[Room, list[Event]]:
        """Apply ``change`` in the store, then publish its events: (the room after it, the events).

        Nothing is published unless the store committed the change (``durable``, ``guard``: see the
        store's).
        """
        try:
            room, events = self.store.change(room_id, self.clock(), change, durable, guard)
        except DamagedRoom:
            self.count("damaged")
            raise
        except StoreBusy:
            self.count("store_busy")
            raise
        if events:
            self.hub.publish(room_id, events)
        return room, events

    def lapse(self, room_id: str) -> None:
        """Announce the seats whose last lease ran out unannounced ("leave"), if any (one read when none)."""
        if self.load(room_id).lapsed(self.clock()):
            self.change(room_id, lambda room, now: room.lapse(now), durable=False)


_ENTRY: AppEntry[Rooms] = AppEntry("rooms")  # the rooms' entry of app.extensions
# Make an app's rooms (``web.rooms.init_app`` does, once); ``app``'s rooms; the current request's app's.
attach = _ENTRY.attach
rooms_of = _ENTRY.of
current_rooms = _ENTRY.current
