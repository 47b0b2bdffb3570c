"""The rooms in Redis, shared by every instance: the contract of web/rooms/store.py.

Keys, under ``CACHE_KEY_PREFIX``:

- ``room:<id>``: the room's state, as JSON;
- ``room:<id>:events``: its events, a Redis Stream whose entry ids are
  ``0-<event id>`` (so ``XRANGE (0-<n> +`` is exactly what followed event n),
  trimmed to ``MAX_EVENTS``;
- ``rooms``: a sorted set of the room ids by expiry, to count the live ones.

A change is optimistic: ``WATCH`` the room, read it, check and apply the
change, then write the state, append the events and move the expiries in one
``MULTI``; a change made meanwhile by another instance aborts it and it starts
again.  Both keys expire ``TOMBSTONE_SECONDS`` after the room does (until then
an expired room answers 410), so nothing is left behind.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from web.rooms.model import Event, Room
from web.rooms.store import (
    MAX_EVENTS,
    TOMBSTONE_SECONDS,
    Change,
    ExpiredRoom,
    StoreBusy,
    StoreFull,
    UnknownRoom,
)

if TYPE_CHECKING:
    import redis

logger = logging.getLogger(__name__)

# Another instance's change between our read and our write: start again, this many times at most.
MAX_TRIES = 20


class RedisRoomStore:
    """The rooms in one Redis (see the module docstring)."""

    def __init__(self, client: redis.Redis, prefix: str, rooms_max: int) -> None:
        self.client = client
        self.prefix = prefix
        self.rooms_max = rooms_max
        self.index = f"{prefix}rooms"

    def key(self, room_id: str) -> str:
        """The key of a room's state."""
        return f"{self.prefix}room:{room_id}"

    def events_key(self, room_id: str) -> str:
        """The key of a room's events (a stream)."""
        return f"{self.prefix}room:{room_id}:events"

    def add(self, room: Room, events: list[Event], now: float) -> bool:
        import redis

        try:
            with self.client.pipeline() as pipe:
                pipe.zremrangebyscore(self.index, "-inf", now)
                pipe.zcard(self.index)
                live = pipe.execute()[1]
            if live >= self.rooms_max:
                raise StoreFull()
            if not self.client.set(self.key(room.id), _json(room.to_json()), nx=True, pxat=_gone_at(room)):
                return False
            with self.client.pipeline() as pipe:
                self._append(pipe, room, events)
                pipe.execute()
        except redis.RedisError as error:
            raise StoreBusy(f"the room store (Redis) failed: {error}") from error
        return True

    def load(self, room_id: str, now: float) -> Room:
        import redis

        try:
            stored = self.client.get(self.key(room_id))
        except redis.RedisError as error:
            raise StoreBusy(f"the room store (Redis) failed: {error}") from error
        room = _room(stored, room_id)
        if room.expired(now):
            raise ExpiredRoom()
        return room

    def change(self, room_id: str, now: float, change: Change) -> tuple[Room, list[Event]]:
        import redis

        key = self.key(room_id)
        try:
            for _ in range(MAX_TRIES):
                with self.client.pipeline() as pipe:
                    try:
                        pipe.watch(key)  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
                        room = _room(pipe.get(key), room_id)
                        if room.expired(now):
                            raise ExpiredRoom()
                        before = room.to_json()
                        events = change(room, now)
                        if not events and room.to_json() == before:
                            return room, events
                        pipe.multi()
                        pipe.set(key, _json(room.to_json()), pxat=_gone_at(room))
                        self._append(pipe, room, events)
                        pipe.execute()
                        return room, events
                    except redis.WatchError:
                        continue
        except redis.RedisError as error:
            raise StoreBusy(f"the room store (Redis) failed: {error}") from error
        raise StoreBusy("the room changed too often at once: try again")

    def events_after(self, room_id: str, after: int) -> list[Event] | None:
        import redis

        try:
            found: list[tuple[bytes, dict[bytes, bytes]]] = self.client.xrange(  # type: ignore[assignment]
                self.events_key(room_id), min=f"(0-{after}", max="+"
            )
        except redis.RedisError as error:
            logger.warning("cannot read the events of room %s: %r", room_id, error)
            return None
        events = [Event.from_json(json.loads(fields[b"e"])) for _, fields in found]
        if events and events[0].id > after + 1:
            return None
        return events

    def _append(self, pipe: Any, room: Room, events: list[Event]) -> None:
        """Queue on ``pipe``: the events appended, and both expiries moved to the room's."""
        events_key = self.events_key(room.id)
        for event in events:
            pipe.xadd(events_key, {"e": _json(event.to_json())}, id=f"0-{event.id}", maxlen=MAX_EVENTS)
        pipe.pexpireat(events_key, _gone_at(room))
        pipe.zadd(self.index, {room.id: room.expires()})


def _gone_at(room: Room) -> int:
    """When a room's keys go (ms since the epoch): a week after it expires."""
    return int((room.expires() + TOMBSTONE_SECONDS) * 1000)


def _json(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def _room(stored: bytes | str | None, room_id: str) -> Room:
    """The room stored in a key's value; ``UnknownRoom`` for none, or one that cannot be read."""
    if stored is None:
        raise UnknownRoom()
    try:
        return Room.from_json(json.loads(stored))
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        logger.warning("room %s cannot be read (%r): answered as unknown", room_id, error)
        raise UnknownRoom() from None
