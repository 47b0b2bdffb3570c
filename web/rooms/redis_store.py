"""The rooms in Redis, shared by every instance: the contract of web/rooms/store.py.

Keys, under ``CACHE_KEY_PREFIX``:

- ``room:<id>``: the room's record, as JSON;
- ``room:<id>:presence``: its seats' leases, as JSON (beside the record, so
  that a renewal never rewrites it);
- ``room:<id>:events``: its events, a Redis Stream whose entry ids are
  ``0-<event id>`` (so ``XRANGE (0-<n> +`` is exactly what followed event n),
  trimmed to ``kept_events``;
- ``rooms``: a sorted set of the room ids by expiry, to count the live ones;
  ``rooms-by:<owner>``: the same for the rooms one address made.

A room is added by one Lua script, which counts the live rooms (all, and the
address's) and adds the room only if both are under their bound: atomic in
Redis, so ``ROOMS_MAX`` and ``ROOMS_PER_ADDRESS`` hold exactly across instances.
A change is optimistic: ``WATCH`` the room's record and presence, read them,
check and apply the change, then write what changed, append the events and
move the expiries in one ``MULTI``; a change made meanwhile by another
instance aborts it and it starts again.  Every key expires
``TOMBSTONE_SECONDS`` after the room does (until then an expired room answers
410), so nothing is left behind.  A Redis that fails or times out is
``StoreBusy``: 503 in words, nothing changed.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from web.rooms.model import Event, Room
from web.rooms.store import (
    TOMBSTONE_SECONDS,
    AddressFull,
    Change,
    ExpiredRoom,
    Guard,
    StoreBusy,
    StoreFull,
    UnknownRoom,
    dumps,
    kept_events,
    room_from,
)

if TYPE_CHECKING:
    import redis

logger = logging.getLogger(__name__)

# Another instance's change between our read and our write: start again, this many times at most.
MAX_TRIES = 20
# KEYS: the index, the owner's index, the record, the presence.  ARGV: now, ROOMS_MAX,
# ROOMS_PER_ADDRESS, the id, the record, the presence, its expiry, when its keys go (ms).
_ADD = """
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return {'full'} end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local held = redis.call('ZCARD', KEYS[2])
if held >= tonumber(ARGV[3]) then
    local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
    return {'address', tostring(held), first[2]}
end
if not redis.call('SET', KEYS[3], ARGV[5], 'NX', 'PXAT', ARGV[8]) then return {'taken'} end
redis.call('SET', KEYS[4], ARGV[6], 'PXAT', ARGV[8])
redis.call('ZADD', KEYS[1], ARGV[7], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[7], ARGV[4])
redis.call('PEXPIREAT', KEYS[2], ARGV[8])
return {'added'}
"""


class RedisRoomStore:
    """The rooms in one Redis (see the module docstring)."""

    def __init__(self, client: redis.Redis, prefix: str, rooms_max: int, rooms_per_address: int) -> None:
        self.client = client
        self.prefix = prefix
        self.rooms_max = rooms_max
        self.rooms_per_address = rooms_per_address
        self.index = f"{prefix}rooms"
        self._add_script = client.register_script(_ADD)

    def key(self, room_id: str) -> str:
        """The key of a room's record."""
        return f"{self.prefix}room:{room_id}"

    def presence_key(self, room_id: str) -> str:
        """The key of a room's presence."""
        return f"{self.prefix}room:{room_id}:presence"

    def events_key(self, room_id: str) -> str:
        """The key of a room's events (a stream)."""
        return f"{self.prefix}room:{room_id}:events"

    def owner_key(self, owner: str) -> str:
        """The key of the rooms one address made, by expiry."""
        return f"{self.prefix}rooms-by:{owner}"

    def add(self, room: Room, events: list[Event], now: float) -> bool:
        import redis

        keys = [self.index, self.owner_key(room.owner), self.key(room.id), self.presence_key(room.id)]
        args: list[str | int] = [
            repr(now),
            self.rooms_max,
            self.rooms_per_address,
            room.id,
            dumps(room.to_json()),
            dumps(room.presence_json()),
            repr(room.expires()),
            _gone_at(room),
        ]
        try:
            outcome = [_text(part) for part in self._add_script(keys=keys, args=args)]
            if outcome[0] == "full":
                raise StoreFull()
            if outcome[0] == "address":
                raise AddressFull(int(outcome[1]), max(1, int(float(outcome[2]) - now + 0.999)))
            if outcome[0] == "taken":
                return False
            if events:
                with self.client.pipeline() as pipe:
                    self._append(pipe, room, events)
                    pipe.execute()
        except redis.RedisError as error:
            raise StoreBusy(f"the room store (Redis) failed: {error}") from error
        return True

    def load(self, room_id: str, now: float) -> Room:
        import redis

        try:
            record, presence = self.client.mget([self.key(room_id), self.presence_key(room_id)])
        except redis.RedisError as error:
            raise StoreBusy(f"the room store (Redis) failed: {error}") from error
        return _live(record, presence, room_id, now)

    def change(
        self, room_id: str, now: float, change: Change, durable: bool = True, guard: Guard | None = None
    ) -> tuple[Room, list[Event]]:
        import redis  # (``durable`` is Redis's own to keep: its persistence is the operator's setting)

        key, presence_key = self.key(room_id), self.presence_key(room_id)
        try:
            for _ in range(MAX_TRIES):
                with self.client.pipeline() as pipe:
                    try:
                        pipe.watch(key, presence_key)  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
                        record, presence = pipe.mget([key, presence_key])
                        room = _live(record, presence, room_id, now)
                        if guard is not None:  # WATCH is no lock: the guard's read is this one
                            guard(room)
                        events = change(room, now)
                        new_record, new_presence = dumps(room.to_json()), dumps(room.presence_json())
                        record_changed = new_record != _text(record)
                        if not events and not record_changed and new_presence == _text(presence):
                            return room, events
                        pipe.multi()
                        if record_changed:
                            pipe.set(key, new_record, pxat=_gone_at(room))
                        pipe.set(presence_key, new_presence, pxat=_gone_at(room))
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
            events = [Event.from_json(json.loads(fields[b"e"])) for _, fields in found]
        except (redis.RedisError, ValueError, KeyError, TypeError, RecursionError) as error:
            logger.warning(
                "cannot read the events of room %s (%r): the stream sends its state", room_id, error
            )
            return None
        if events and events[0].id > after + 1:
            return None
        return events

    def _append(self, pipe: Any, room: Room, events: list[Event]) -> None:
        """Queue on ``pipe``: the events appended, and every expiry moved to the room's."""
        events_key = self.events_key(room.id)
        for event in events:
            pipe.xadd(
                events_key, {"e": dumps(event.to_json())}, id=f"0-{event.id}", maxlen=kept_events(room.rules)
            )
        gone = _gone_at(room)
        pipe.pexpireat(events_key, gone)
        pipe.pexpireat(self.key(room.id), gone)
        pipe.zadd(self.index, {room.id: room.expires()})
        owner = self.owner_key(room.owner)
        pipe.zadd(owner, {room.id: room.expires()})
        pipe.pexpireat(owner, gone)


def _gone_at(room: Room) -> int:
    """When a room's keys go (ms since the epoch): a week after it expires."""
    return int((room.expires() + TOMBSTONE_SECONDS) * 1000)


def _text(value: bytes | str | None) -> str:
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else value


def _live(record: bytes | str | None, presence: bytes | str | None, room_id: str, now: float) -> Room:
    """The room of its stored record and presence: ``UnknownRoom`` for none, ``ExpiredRoom``,
    ``DamagedRoom``."""
    if record is None:
        raise UnknownRoom()
    room = room_from(record, presence, room_id)
    if room.expired(now):
        raise ExpiredRoom(room.why_expired())
    return room
