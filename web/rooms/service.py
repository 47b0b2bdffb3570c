"""The rooms as the routes use them: made within each address's allowance, changed in the store, published.

``Rooms`` ties the room model (web/rooms/model.py), the store (files or Redis)
and this worker's hub of streams (web/rooms/wakeups.py) together: every change
is applied in the store, for every worker at once, and its events are then
handed to the streams here and announced to the other workers.

An address may make ``ROOMS_PER_MINUTE`` rooms at once, then that many a minute
(a token bucket, kept in each worker's memory or in Redis as the search
allowance is: web/searches/rate_limit.py); past it ``TooManyRooms`` says when
it may make one again.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from tictactoe import Player, Rules
from web.rooms.model import Event, Room, new_room_id
from web.rooms.store import Change, RoomStore, StoreBusy
from web.rooms.wakeups import Hub
from web.searches.rate_limit import WINDOW, Buckets

# A fresh id that is taken (about one chance in 2^46 per live room) is drawn again this many times.
ID_TRIES = 5


class TooManyRooms(Exception):
    """This address has made its rooms for the minute; it may make one after ``retry_after`` s."""

    def __init__(self, per_minute: int, retry_after: int) -> None:
        super().__init__(f"{per_minute} rooms a minute")
        self.per_minute = per_minute
        self.retry_after = retry_after


class CreationAllowance:
    """Each address's rooms a minute: ``per_minute`` at once, then one every ``60 / per_minute`` s."""

    def __init__(self, per_minute: int, buckets: Buckets) -> None:
        self.per_minute = per_minute
        self.buckets = buckets
        self.cost = WINDOW / per_minute

    def take(self, client: str) -> None:
        """Count one room made by ``client``; ``TooManyRooms`` (nothing counted) when it has none left."""
        owed = self.buckets.owed(client)
        if owed + self.cost > WINDOW + 1e-6:
            raise TooManyRooms(self.per_minute, max(1, math.ceil(owed + self.cost - WINDOW)))
        self.buckets.add(client, self.cost)


class Rooms:
    """The rooms of this app: see the module docstring.  ``clock`` gives Unix seconds (tests set it)."""

    def __init__(
        self,
        store: RoomStore,
        hub: Hub,
        allowance: CreationAllowance,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.hub = hub
        self.allowance = allowance
        self.clock = clock

    def open(self, rules: Rules, host_side: Player, client: str) -> tuple[Room, str, str]:
        """A new room, stored: (room, the host's token, the invite's token).

        ``TooManyRooms`` past the address's allowance; ``StoreFull``, ``StoreBusy`` from the store.
        """
        self.allowance.take(client)
        now = self.clock()
        for _ in range(ID_TRIES):
            room, host_token, invite_token = Room.open(new_room_id(), rules, host_side, now)
            if self.store.add(room, [], now):
                return room, host_token, invite_token
        raise StoreBusy("no free room id was found")

    def load(self, room_id: str) -> Room:
        """The room as it stands; ``UnknownRoom``, ``ExpiredRoom``, ``StoreBusy`` from the store."""
        return self.store.load(room_id, self.clock())

    def change(self, room_id: str, change: Change) -> tuple[Room, list[Event]]:
        """Apply ``change`` in the store, then publish its events: (the room after it, the events)."""
        room, events = self.store.change(room_id, self.clock(), change)
        if events:
            self.hub.publish(room_id, events)
        return room, events
