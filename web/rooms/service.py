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
  bucket in the worker's memory).

A refusal is a ``TooMany``: a 429 whose words say what happened and when to try again.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable

from tictactoe import Player, Rules
from web.rooms.budget import StreamBudget
from web.rooms.model import Event, Room, Seat, WrongToken, new_room_id
from web.rooms.store import Change, DamagedRoom, RoomStore, StoreBusy
from web.rooms.wakeups import Hub
from web.searches.rate_limit import WINDOW, Buckets

# A fresh id that is taken (about one chance in 2^46 per live room) is drawn again this many times.
ID_TRIES = 5

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
    ) -> None:
        """``making``: rooms made a minute; ``guessing``: wrong tokens a minute; ``streams``: the
        streams this worker admits, each ending after about ``stream_seconds``; ``count(name)``
        counts a refusal or a trouble for /metrics."""
        self.store = store
        self.hub = hub
        self.making = making
        self.guessing = guessing
        self.streams = streams
        self.stream_seconds = stream_seconds
        self.count = count
        self.clock = clock

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
        self.guessing.check(client)
        room = self.load(room_id)
        try:
            return room, room.holder(token)
        except WrongToken:
            self.guessing.take(client)
            raise

    def invited(self, room_id: str, invite: object, client: str) -> None:
        """Check ``invite`` on a read, before any lock: ``Refused`` once it is spent, ``WrongToken``
        (charged) for another, ``TooMany`` once the allowance is spent."""
        self.guessing.check(client)
        try:
            self.load(room_id).check_invite(invite)
        except WrongToken:
            self.guessing.take(client)
            raise

    def change(self, room_id: str, change: Change) -> tuple[Room, list[Event]]:
        """Apply ``change`` in the store, then publish its events: (the room after it, the events).

        Nothing is published unless the store committed the change.
        """
        try:
            room, events = self.store.change(room_id, self.clock(), change)
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
            self.change(room_id, lambda room, now: room.lapse(now))
