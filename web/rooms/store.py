"""Where rooms and their events are kept: the store's contract, and the file store (the default).

Every worker and every restart sees the same rooms: a room is one file in
``CACHE_DIR/rooms/``, ``<id>.log``, a log of JSON lines.  Each change appends
one line, the room as it now stands and the events the change made, in one
``write`` of an ``O_APPEND`` descriptor::

    {"format": 1, "room": {...}, "events": [[1, "join", {...}]]}
    {"format": 1, "room": {...}, "events": [[2, "move", {...}]]}
    {"format": 1, "room": {...}, "events": []}          a lease renewed

The room is the last whole line; the events are the lines' events in order.
Appending costs about 0.01 ms where writing a new file and renaming it over
the old one cost 1.5 ms on ext4 (which flushes a file renamed over another:
measured in docs/benchmarks.md).  A line is whole once its newline is there:
a reader ignores a last line without one (a write under way, or a writer that
died mid-line, whose fragment the next writer cuts off), so readers need no
lock.  Every ``COMPACT_LINES`` lines the log is rewritten as one line (the
room and its last ``MAX_EVENTS`` events) and renamed over the old.

A change is read, checked and appended under an exclusive ``flock`` (one of
``LOCK_STRIPES`` lock files, chosen by the room's id), tried without blocking
and retried with short sleeps: under gevent a blocking lock would stop every
other connection of the worker.

Bounds: a room keeps at least its last ``MAX_EVENTS`` events (a 15x15 game is
226; an older ``Last-Event-ID`` gets the room's state instead,
web/rooms/stream.py) and at most ``COMPACT_LINES`` lines more, so a room's file
stays under about 200 KiB (a 3x3 room's under 40 KiB); at most ``ROOMS_MAX``
rooms are live at once (counted every ``CENSUS_SECONDS`` at most, when a room
is made); a room's file is removed ``TOMBSTONE_SECONDS`` after its last write,
and until then an expired room answers 410 rather than 404.

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
COMPACT_LINES = 32
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
        """The log of the room ``room_id`` (ids are checked before they reach the store)."""
        return self.folder / f"{room_id}.log"

    # -- the contract --------------------------------------------------------------

    def add(self, room: Room, events: list[Event], now: float) -> bool:
        if self.live_rooms(now) >= self.rooms_max:
            raise StoreFull()
        try:
            fd = os.open(self.path(room.id), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        except FileExistsError:
            return False
        except OSError as error:
            raise StoreBusy(f"cannot write the room: {error.strerror}") from error
        try:
            os.write(fd, encode(room, events))
        except OSError as error:
            raise StoreBusy(f"cannot write the room: {error.strerror}") from error
        finally:
            os.close(fd)
        self._made_since += 1
        return True

    def load(self, room_id: str, now: float) -> Room:
        room = Log(self._read(room_id), room_id).room()
        if room.expired(now):
            raise ExpiredRoom()
        return room

    def change(self, room_id: str, now: float, change: Change) -> tuple[Room, list[Event]]:
        with self._locked(room_id):
            data = self._read(room_id)
            log = Log(data, room_id)
            room = log.room()
            if room.expired(now):
                raise ExpiredRoom()
            before = room.to_json()
            events = change(room, now)
            if events or room.to_json() != before:
                try:
                    if log.lines + 1 >= COMPACT_LINES:
                        self._compact(room, (log.events() + events)[-MAX_EVENTS:])
                    else:
                        self._append(room_id, encode(room, events), log.whole)
                except OSError as error:
                    raise StoreBusy(f"cannot write the room: {error.strerror}") from error
        return room, events

    def events_after(self, room_id: str, after: int) -> list[Event] | None:
        try:
            return Log(self._read(room_id), room_id).events_after(after)
        except (UnknownRoom, StoreBusy):
            return None

    # -- the folder ------------------------------------------------------------------

    def live_rooms(self, now: float) -> int:
        """Rooms written to in the last day (an estimate kept ``CENSUS_SECONDS``); sweeps the old.

        The count is the folder's at the last census plus the rooms this worker
        made since.  A census also removes the logs of rooms whose last write
        is ``TTL_SECONDS + TOMBSTONE_SECONDS`` old.
        """
        if self._census is None or now - self._census[0] >= CENSUS_SECONDS:
            live = 0
            with os.scandir(self.folder) as entries:
                for entry in entries:
                    if not entry.name.endswith(".log"):
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

    def _read(self, room_id: str) -> bytes:
        try:
            return self.path(room_id).read_bytes()
        except FileNotFoundError:
            raise UnknownRoom() from None
        except OSError as error:
            raise StoreBusy(f"cannot read the room: {error.strerror}") from error

    def _append(self, room_id: str, line: bytes, whole: int) -> None:
        """Append ``line`` to the log whose whole lines end at byte ``whole`` (a fragment past it is cut)."""
        fd = os.open(self.path(room_id), os.O_WRONLY | os.O_APPEND)
        try:
            if os.fstat(fd).st_size != whole:  # a writer died mid-line: its fragment goes
                os.ftruncate(fd, whole)
            os.write(fd, line)
        finally:
            os.close(fd)

    def _compact(self, room: Room, events: list[Event]) -> None:
        """Rewrite the log as one line, the room and ``events``, renamed over the old log."""
        temp = self.folder / f".tmp-{os.getpid()}-{os.urandom(4).hex()}"
        try:
            temp.write_bytes(encode(room, events))
            os.replace(temp, self.path(room.id))
        finally:
            temp.unlink(missing_ok=True)

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


class Log:
    """A room's log as read: its whole lines, parsed only as far as a question needs."""

    def __init__(self, data: bytes, room_id: str) -> None:
        self.room_id = room_id
        self.whole = data.rfind(b"\n") + 1  # the bytes of its whole lines
        self._lines = data[: self.whole].splitlines()
        self.lines = len(self._lines)
        if not self._lines:  # only a first line being written: the room is not there yet
            raise UnknownRoom()

    def _line(self, index: int) -> dict[str, Any]:
        try:
            line: dict[str, Any] = json.loads(self._lines[index])
            if line.get("format") != FORMAT:
                raise ValueError(f"format {line.get('format')!r}")
        except ValueError as error:
            logger.warning("room %s cannot be read (%r): answered as unknown", self.room_id, error)
            raise UnknownRoom() from None
        return line

    def room(self) -> Room:
        """The room as it stands: its last line's."""
        try:
            return Room.from_json(self._line(-1)["room"])
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            logger.warning("room %s cannot be read (%r): answered as unknown", self.room_id, error)
            raise UnknownRoom() from None

    def events_after(self, after: int) -> list[Event] | None:
        """The events with an id above ``after``; None when some of them are no longer kept."""
        found: list[Event] = []
        for index in range(self.lines - 1, -1, -1):  # from the end: a wake-up reads one line
            line = [Event.from_json(event) for event in self._line(index)["events"]]
            found[:0] = [event for event in line if event.id > after]
            if line and line[0].id <= after + 1:
                return found
        return None if found and found[0].id > after + 1 else found

    def events(self) -> list[Event]:
        """Every event the log keeps, in order."""
        return [
            Event.from_json(event) for index in range(self.lines) for event in self._line(index)["events"]
        ]


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
    """A line of a room's log: the room and the events of the change (compact JSON, one line)."""
    line = {"format": FORMAT, "room": room.to_json(), "events": [event.to_json() for event in events]}
    return json.dumps(line, separators=(",", ":")).encode() + b"\n"
