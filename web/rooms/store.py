"""Where rooms and their events are kept: the store's contract, shared by its two kinds.

- ``SqliteRoomStore`` (web/rooms/sqlite_store.py), the default: one SQLite
  database in ``CACHE_DIR/rooms/``, shared by every worker and every instance
  of the machine;
- ``RedisRoomStore`` (web/rooms/redis_store.py), with ``REDIS_URL``: shared by
  every instance.

Both keep the same promises.  A change is answered only once it is stored:
``change`` returns after its commit, or raises and nothing changed (the
service then sends nothing to any stream).  A room is its record (the
game, the seats, the score), its presence (the seats' leases, kept beside
the record so that a renewal never rewrites or grows it) and its last events:
at least ``kept_events(rules)`` of them (a whole game of its board and a
margin), so a stream that reconnects gets exactly what it missed, or the
room's state when it missed more (web/rooms/stream.py).  At most ``ROOMS_MAX``
rooms are live at once, and at most ``ROOMS_PER_ADDRESS`` made from one
address, both counted exactly by the store itself in the transaction that adds
the room.  An expired room answers 410 for ``TOMBSTONE_SECONDS``, then it is gone.
A room whose record cannot be read is ``DamagedRoom``, alone: the others play on.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol

from tictactoe import Rules
from web.rooms.model import Event, Room

# The events a room keeps beyond a whole game of its board: joins, leaves, a rematch's offers.
EVENTS_MARGIN = 32
# What one room holds in the store at most (its record, its presence and its kept events, as
# stored): a 3x3 room, and a 15x15 one.  tests/test_rooms.py holds a room to it.
ROOM_BYTES_3X3 = 16 * 1024
ROOM_BYTES_15X15 = 96 * 1024
# An expired room answers 410 (not 404) this long, then it is forgotten.
TOMBSTONE_SECONDS = 7 * 24 * 3600

# A change to a room at a time (Unix seconds), returning the events it made.
Change = Callable[[Room, float], list[Event]]
# A check of the room as read before any lock (a seat's token): raises to refuse the change.
Guard = Callable[[Room], object]


def kept_events(rules: Rules) -> int:
    """The events a room of ``rules`` keeps at least: one per cell (a whole game) and a margin."""
    return rules.rows * rules.cols + EVENTS_MARGIN


class UnknownRoom(Exception):
    """No room has this id (never made, or gone a week after it expired): 404."""


class ExpiredRoom(Exception):
    """The room expired (a day without a move, an hour with its invite unused; the message says
    which): 410."""


class DamagedRoom(Exception):
    """The room's record cannot be read (damaged on disk or by hand): 503, and counted."""


class StoreBusy(Exception):
    """The store could not answer or commit in time (locked, a full disk, Redis down): 503."""


class StoreFull(Exception):
    """As many rooms are live as ``ROOMS_MAX`` allows: 503."""


class AddressFull(Exception):
    """The address holds ``ROOMS_PER_ADDRESS`` live rooms; its first ends in ``retry_after`` s: 429."""

    def __init__(self, held: int, retry_after: int) -> None:
        super().__init__(f"{held} live rooms")
        self.held = held
        self.retry_after = retry_after


class RoomStore(Protocol):
    """Rooms and their events, shared by every worker (and instance): see the module docstring."""

    def add(self, room: Room, events: list[Event], now: float) -> bool:
        """Keep a new room with its first events; False when its id is taken (draw another).

        Raises ``StoreFull`` past ``ROOMS_MAX`` live rooms, ``AddressFull`` past its owner's
        ``ROOMS_PER_ADDRESS``, ``StoreBusy`` when the store fails (nothing is kept then).
        """
        ...

    def load(self, room_id: str, now: float) -> Room:
        """The room; ``UnknownRoom``, ``ExpiredRoom``, ``DamagedRoom``, or ``StoreBusy``."""
        ...

    def change(
        self, room_id: str, now: float, change: Change, durable: bool = True, guard: Guard | None = None
    ) -> tuple[Room, list[Event]]:
        """Apply ``change(room, now)`` at once for every worker: (the room after it, its events),
        returned once committed: on the disk itself when ``durable`` (the game: a move, a seat, a
        rematch), or where a crash of the process cannot undo it (presence: a lease taken,
        renewed or given back, which no power cut should cost a disk flush).

        ``guard(room)`` runs first on the room as read without any lock: what it raises goes to
        the caller and nothing is locked (a stranger's token costs a read, never the lock).
        Nothing is written when ``change`` raises (a ``RoomError`` goes to the caller as it is)
        or leaves the room as it was.  ``UnknownRoom``, ``ExpiredRoom``, ``DamagedRoom``,
        ``StoreBusy`` as ``load`` (``StoreBusy``: nothing changed).
        """
        ...

    def events_after(self, room_id: str, after: int) -> list[Event] | None:
        """The room's events with an id above ``after``, in order; None when some of them are no
        longer kept (or cannot be read), or the room is gone: the stream sends the state instead."""
        ...


class UnusableStore:
    """The store of an app whose rooms' folder cannot be used: every call raises ``StoreBusy`` (503)."""

    def __init__(self, why: str) -> None:
        self.why = why

    def add(self, room: Room, events: list[Event], now: float) -> bool:
        raise StoreBusy(self.why)

    def load(self, room_id: str, now: float) -> Room:
        raise StoreBusy(self.why)

    def change(
        self, room_id: str, now: float, change: Change, durable: bool = True, guard: Guard | None = None
    ) -> tuple[Room, list[Event]]:
        raise StoreBusy(self.why)

    def events_after(self, room_id: str, after: int) -> list[Event] | None:
        return None


def dumps(value: object) -> str:
    """``value`` as the stores keep JSON: compact, one line."""
    return json.dumps(value, separators=(",", ":"))


def room_from(record: str | bytes, presence: str | bytes | None, room_id: str) -> Room:
    """The room stored as ``record`` and ``presence`` (JSON); ``DamagedRoom`` when they cannot be read."""
    try:
        return Room.from_json(json.loads(record), json.loads(presence) if presence else None)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
        raise DamagedRoom(f"room {room_id} cannot be read: {error!r}"[:300]) from None


def event_from(event_id: int, kind: str, data: str | bytes) -> Event:
    """An event stored as its id, type and data (JSON); ``ValueError`` when it cannot be read."""
    parsed: Any = json.loads(data)
    if not isinstance(parsed, dict):
        raise ValueError(f"event {event_id} holds no object")
    return Event(event_id, kind, parsed)
