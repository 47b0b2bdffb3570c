"""Where rooms and their events are kept: the store's contract, and the file store (the default).

Every worker and every restart sees the same rooms: a room is one JSON file in
``CACHE_DIR/rooms/`` (its state and its last ``MAX_EVENTS`` events), written
whole to a temporary file and renamed over the old one, so a reader never sees
half a room.  A change is read, checked and written under an exclusive
``flock`` (one of ``LOCK_STRIPES`` lock files, chosen by the room's id), tried
without blocking and retried with short sleeps: under gevent a blocking lock
would stop every other connection of the worker.

Bounds: a room keeps at most ``MAX_EVENTS`` events (a 15x15 game is 226;
an older ``Last-Event-ID`` gets the room's state instead, web/rooms/stream.py),
so a room's file stays under about 100 KiB; at most ``ROOMS_MAX`` rooms are
live at once (counted every ``CENSUS_SECONDS`` at most, when a room is made);
a room's file is removed ``TOMBSTONE_SECONDS`` after its last write, and until
then an expired room answers 410 rather than 404.

The Redis store (web/rooms/redis_store.py) keeps the same contract.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

from web.rooms.model import TTL_SECONDS, Event, Room

logger = logging.getLogger(__name__)

MAX_EVENTS = 400
TOMBSTONE_SECONDS = 7 * 24 * 3600
LOCK_STRIPES = 256
LOCK_WAIT_SECONDS = 2.0
LOCK_RETRY_SECONDS = 0.002
CENSUS_SECONDS = 10.0
FORMAT = 1

# A change to a room at a time (Unix seconds), returning the events it made.
Change = Callable[[Room, float], list[Event]]


class UnknownRoom(Exception):
    """No room has this id (never made, or gone a week after it expired): 404."""


class ExpiredRoom(Exception):
    """The room expired: nothing was played in it for a day: 410."""


class StoreBusy(Exception):
    """The room could not be changed in time (its lock stayed taken, or the store failed): 503."""


class StoreFull(Exception):
    """As many rooms are live as ``ROOMS_MAX`` allows: 503."""


class RoomStore(Protocol):
    """Rooms and their events, shared by every worker (and, with Redis, every instance)."""

    def add(self, room: Room, events: list[Event], now: float) -> bool:
        """Keep a new room with its first events; False when its id is taken (draw another).

        Raises ``StoreFull`` past ``ROOMS_MAX`` live rooms, ``StoreBusy`` when the store fails.
        """
        ...

    def load(self, room_id: str, now: float) -> Room:
        """The room; ``UnknownRoom``, ``ExpiredRoom``, or ``StoreBusy`` when the store fails."""
        ...

    def change(self, room_id: str, now: float, change: Change) -> tuple[Room, list[Event]]:
        """Apply ``change(room, now)`` at once for every worker: (the room after it, its events).

        Nothing is written when ``change`` raises (a ``RoomError`` goes to the caller as it is)
        or leaves the room as it was.  ``UnknownRoom``, ``ExpiredRoom``, ``StoreBusy`` as ``load``.
        """
        ...

    def events_after(self, room_id: str, after: int) -> list[Event] | None:
        """The room's events with an id above ``after``, in order; None when the oldest kept is
        newer than ``after + 1`` (some were dropped) or the room is gone."""
        ...


class FileRoomStore:
    """The rooms in a private folder every worker of the machine shares (see the module docstring)."""

    def __init__(self, folder: Path, rooms_max: int) -> None:
        self.folder = folder
        self.rooms_max = rooms_max
        self.locks = folder / "locks"
        self.locks.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._census: tuple[float, int] | None = None  # (when, the live rooms counted then)
        self._made_since = 0  # rooms this worker made since the census

    def path(self, room_id: str) -> Path:
        """The file of the room ``room_id`` (ids are checked before they reach the store)."""
        return self.folder / f"{room_id}.json"

    # -- the contract --------------------------------------------------------------

    def add(self, room: Room, events: list[Event], now: float) -> bool:
        if self.live_rooms(now) >= self.rooms_max:
            raise StoreFull()
        with self._locked(room.id):
            temp = self._write_temp(room, events)
            try:
                os.link(temp, self.path(room.id))  # fails if the id is taken: never replaces a room
            except FileExistsError:
                return False
            except OSError as error:
                raise StoreBusy(f"cannot write the room: {error.strerror}") from error
            finally:
                temp.unlink(missing_ok=True)
        self._made_since += 1
        return True

    def load(self, room_id: str, now: float) -> Room:
        room, _ = self._read(room_id)
        if room.expired(now):
            raise ExpiredRoom()
        return room

    def change(self, room_id: str, now: float, change: Change) -> tuple[Room, list[Event]]:
        with self._locked(room_id):
            room, kept = self._read(room_id)
            if room.expired(now):
                raise ExpiredRoom()
            before = room.to_json()
            events = change(room, now)
            if events or room.to_json() != before:
                temp = self._write_temp(room, (kept + events)[-MAX_EVENTS:])
                try:
                    os.replace(temp, self.path(room_id))
                except OSError as error:
                    temp.unlink(missing_ok=True)
                    raise StoreBusy(f"cannot write the room: {error.strerror}") from error
        return room, events

    def events_after(self, room_id: str, after: int) -> list[Event] | None:
        try:
            _, events = self._read(room_id)
        except UnknownRoom:
            return None
        if events and events[0].id > after + 1:
            return None
        return [event for event in events if event.id > after]

    # -- the folder ------------------------------------------------------------------

    def live_rooms(self, now: float) -> int:
        """Rooms written to in the last day (an estimate kept ``CENSUS_SECONDS``); sweeps the old.

        The count is the folder's at the last census plus the rooms this worker
        made since.  A census also removes the files of rooms whose last write
        is ``TTL_SECONDS + TOMBSTONE_SECONDS`` old.
        """
        if self._census is None or now - self._census[0] >= CENSUS_SECONDS:
            live = 0
            with os.scandir(self.folder) as entries:
                for entry in entries:
                    if not entry.name.endswith(".json"):
                        continue
                    with contextlib.suppress(FileNotFoundError):  # another worker removed it
                        age = now - entry.stat().st_mtime
                        if age < TTL_SECONDS:
                            live += 1
                        elif age >= TTL_SECONDS + TOMBSTONE_SECONDS:
                            os.unlink(entry.path)
            self._census = (now, live)
            self._made_since = 0
        return self._census[1] + self._made_since

    def _read(self, room_id: str) -> tuple[Room, list[Event]]:
        """The room and its kept events; ``UnknownRoom`` when there is no readable room."""
        try:
            data = self.path(room_id).read_bytes()
        except FileNotFoundError:
            raise UnknownRoom() from None
        except OSError as error:
            raise StoreBusy(f"cannot read the room: {error.strerror}") from error
        return decode(data, room_id)

    def _write_temp(self, room: Room, events: list[Event]) -> Path:
        """The room and its events in a fresh temporary file of the folder (renamed by the caller)."""
        temp = self.folder / f".tmp-{os.getpid()}-{os.urandom(4).hex()}"
        try:
            temp.write_bytes(encode(room, events))
        except OSError as error:
            temp.unlink(missing_ok=True)
            raise StoreBusy(f"cannot write the room: {error.strerror}") from error
        return temp

    @contextlib.contextmanager
    def _locked(self, room_id: str) -> Iterator[None]:
        """Hold the room's stripe lock; ``StoreBusy`` when it stays taken ``LOCK_WAIT_SECONDS``."""
        stripe = zlib.crc32(room_id.encode()) % LOCK_STRIPES
        try:
            fd = os.open(self.locks / f"{stripe}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as error:
            raise StoreBusy(f"cannot open a lock: {error.strerror}") from error
        try:
            give_up = time.monotonic() + LOCK_WAIT_SECONDS
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError as error:
                    if error.errno not in (errno.EAGAIN, errno.EWOULDBLOCK):
                        raise StoreBusy(f"cannot lock the room: {error.strerror}") from error
                if time.monotonic() >= give_up:
                    raise StoreBusy("the room stayed locked by another request")
                time.sleep(LOCK_RETRY_SECONDS)  # under gevent, the other connections go on meanwhile
            yield
        finally:
            os.close(fd)  # closing the descriptor lets the lock go


class UnusableStore:
    """The store of an app whose rooms' folder cannot be used: every call raises ``StoreBusy`` (503)."""

    def __init__(self, why: str) -> None:
        self.why = why

    def add(self, room: Room, events: list[Event], now: float) -> bool:
        raise StoreBusy(self.why)

    def load(self, room_id: str, now: float) -> Room:
        raise StoreBusy(self.why)

    def change(self, room_id: str, now: float, change: Change) -> tuple[Room, list[Event]]:
        raise StoreBusy(self.why)

    def events_after(self, room_id: str, after: int) -> list[Event] | None:
        return None


def encode(room: Room, events: list[Event]) -> bytes:
    """A room and its events as stored (compact JSON)."""
    stored = {"format": FORMAT, "room": room.to_json(), "events": [event.to_json() for event in events]}
    return json.dumps(stored, separators=(",", ":")).encode()


def decode(data: bytes | str, room_id: str) -> tuple[Room, list[Event]]:
    """What ``encode`` stored; ``UnknownRoom`` (logged) for anything unreadable."""
    try:
        stored: dict[str, Any] = json.loads(data)
        if stored.get("format") != FORMAT:
            raise ValueError(f"format {stored.get('format')!r}")
        room = Room.from_json(stored["room"])
        events = [Event.from_json(event) for event in stored["events"]]
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        logger.warning("room %s cannot be read (%r): answered as unknown", room_id, error)
        raise UnknownRoom() from None
    return room, events
