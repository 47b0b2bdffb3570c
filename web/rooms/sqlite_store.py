"""The rooms in SQLite: one database that every worker and instance of the machine shares (the default).

The database is ``CACHE_DIR/rooms/rooms.sqlite3`` (with its ``-wal`` and
``-shm`` files), two tables::

    rooms   id (key) | record (JSON) | presence (JSON) | expires | owner
    events  room, id (key) | type | data (JSON)

Every change is one transaction: ``BEGIN IMMEDIATE`` (the write lock, waited
for at most ``LOCK_WAIT_SECONDS``), the room read, checked and changed, the
record (or only the presence) written, its events appended and the oldest
beyond ``kept_events`` dropped, ``COMMIT``.  SQLite applies a transaction whole
or not at all, through a crash or a full disk, so a change is answered only
after its commit says it happened; a commit that fails (a full disk, an I/O
error, a lock held too long) is ``StoreBusy`` with nothing changed.  The
journal is a write-ahead log: readers (a room's page, a stream catching up)
never wait for the writer; ``synchronous=FULL`` puts each commit of the game
(a move, a seat, a rematch) on the disk before it is answered, while presence
(a lease taken, renewed, given back) is committed ``NORMAL``: into the log,
which no crash of the process can undo, without waiting for the disk (a lease
lost to a power cut costs nothing: it is taken again).  Live rooms are counted in the transaction that adds
one, by the database itself, so ``ROOMS_MAX`` and ``ROOMS_PER_ADDRESS`` hold
exactly however many workers and instances of the machine share it.

Under gevent, ``sqlite3``'s calls are C calls that the event loop cannot switch
out of, and a wait for the lock sleeps the whole thread: every call therefore
runs in a pool of real threads (``run``, web/runtime/offload.py), each with a
connection of its own, and the worker's other connections go on meanwhile.
"""

from __future__ import annotations

import contextlib
import logging
import math
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
    event_from,
    kept_events,
    room_from,
)
from web.runtime.offload import Runner, in_caller, native_local, native_lock

logger = logging.getLogger(__name__)

FILE_NAME = "rooms.sqlite3"
# The threads of a worker's store: each call takes about a millisecond, and SQLite writes one at a time.
STORE_THREADS = 4
# The longest a change waits for another's transaction (each takes about a millisecond), and how
# often it asks for the lock meanwhile.
LOCK_WAIT_SECONDS = 2.0
LOCK_RETRY_SECONDS = 0.0005
# Rooms gone a week past their expiry are deleted at most this often, by the worker making a room.
SWEEP_SECONDS = 600.0
SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    presence TEXT NOT NULL,
    expires REAL NOT NULL,
    owner TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rooms_by_expiry ON rooms (expires);
CREATE INDEX IF NOT EXISTS rooms_by_owner ON rooms (owner, expires);
CREATE TABLE IF NOT EXISTS events (
    room TEXT NOT NULL,
    id INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (room, id)
) WITHOUT ROWID;
"""


class SqliteRoomStore:
    """The rooms in one SQLite database (see the module docstring); ``run`` runs each call."""

    def __init__(
        self,
        path: Path,
        rooms_max: int,
        rooms_per_address: int,
        run: Runner = in_caller,
        synchronous: str = "FULL",
    ) -> None:
        """Open (or make) the database at ``path``; ``sqlite3.Error`` or ``OSError`` when it cannot be.

        ``synchronous``: SQLite's setting; ``FULL``, the app's, puts every commit on the disk before
        it returns (bench/rooms.py measures what ``NORMAL`` would save).
        """
        self.path = path
        self.synchronous = synchronous
        self.rooms_max = rooms_max
        self.rooms_per_address = rooms_per_address
        self.run = run
        self._local = native_local()  # a connection per thread of the pool
        self._writing = native_lock()
        self._swept = 0.0
        with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
            path.chmod(0o600)
            db.execute("PRAGMA journal_mode=WAL")  # kept in the file: every connection after uses it
            db.executescript(SCHEMA)

    # -- the contract (web/rooms/store.py) ---------------------------------------------------

    def add(self, room: Room, events: list[Event], now: float) -> bool:
        return self.run(self._add, room, events, now)

    def load(self, room_id: str, now: float) -> Room:
        return self.run(self._load, room_id, now)

    def change(
        self, room_id: str, now: float, change: Change, durable: bool = True, guard: Guard | None = None
    ) -> tuple[Room, list[Event]]:
        return self.run(self._change, room_id, now, change, durable, guard)

    def events_after(self, room_id: str, after: int) -> list[Event] | None:
        return self.run(self._events_after, room_id, after)

    # -- in the store's thread ---------------------------------------------------------------

    def _add(self, room: Room, events: list[Event], now: float) -> bool:
        with self._transaction() as db:
            (live,) = db.execute("SELECT COUNT(*) FROM rooms WHERE expires > ?", (now,)).fetchone()
            if live >= self.rooms_max:
                raise StoreFull()
            held, first_end = db.execute(
                "SELECT COUNT(*), MIN(expires) FROM rooms WHERE owner = ? AND expires > ?", (room.owner, now)
            ).fetchone()
            if held >= self.rooms_per_address:
                raise AddressFull(held, max(1, math.ceil(first_end - now)))
            try:
                db.execute(
                    "INSERT INTO rooms (id, record, presence, expires, owner) VALUES (?, ?, ?, ?, ?)",
                    (room.id, dumps(room.to_json()), dumps(room.presence_json()), room.expires(), room.owner),
                )
            except sqlite3.IntegrityError:  # the id is taken
                return False
            self._append(db, room, events)
        if now - self._swept >= SWEEP_SECONDS:
            self._swept = now
            self._sweep(now)
        return True

    def _load(self, room_id: str, now: float) -> Room:
        return _live(self._read(room_id), room_id, now)

    def _read(self, room_id: str) -> Any:
        """The room's ``(record, presence)`` row as it stands, or None; ``StoreBusy`` if unreadable."""
        try:
            return (
                self._db().execute("SELECT record, presence FROM rooms WHERE id = ?", (room_id,)).fetchone()
            )
        except sqlite3.Error as error:
            raise StoreBusy(f"cannot read the room: {error}") from error

    def _change(
        self, room_id: str, now: float, change: Change, durable: bool, guard: Guard | None
    ) -> tuple[Room, list[Event]]:
        read = None
        if guard is not None:  # on a read, before the lock: a wrong token never takes it
            read = self._read(room_id)
            guard(_live(read, room_id, now))
        with self._transaction(durable) as db:
            row = db.execute("SELECT record, presence FROM rooms WHERE id = ?", (room_id,)).fetchone()
            room = _live(row, room_id, now)
            if guard is not None and row != read:  # changed meanwhile: checked again, as it stands
                guard(room)
            record, presence = row
            events = change(room, now)
            new_record, new_presence = dumps(room.to_json()), dumps(room.presence_json())
            if new_record != record:
                db.execute(
                    "UPDATE rooms SET record = ?, presence = ?, expires = ? WHERE id = ?",
                    (new_record, new_presence, room.expires(), room_id),
                )
            elif new_presence != presence:  # a lease taken, renewed or given back: a few bytes
                db.execute("UPDATE rooms SET presence = ? WHERE id = ?", (new_presence, room_id))
            self._append(db, room, events)
        return room, events

    def _events_after(self, room_id: str, after: int) -> list[Event] | None:
        try:
            rows = (
                self._db()
                .execute(
                    "SELECT id, type, data FROM events WHERE room = ? AND id > ? ORDER BY id",
                    (room_id, after),
                )
                .fetchall()
            )
            events = [event_from(event_id, kind, data) for event_id, kind, data in rows]
        except (sqlite3.Error, ValueError, RecursionError) as error:
            logger.warning(
                "the events of room %s cannot be read (%r): the stream sends its state", room_id, error
            )
            return None
        if events and events[0].id != after + 1:
            return None
        return events

    def _append(self, db: sqlite3.Connection, room: Room, events: list[Event]) -> None:
        """Append ``events`` to the room's, and drop those beyond the ones it keeps."""
        if not events:
            return
        db.executemany(
            "INSERT INTO events (room, id, type, data) VALUES (?, ?, ?, ?)",
            [(room.id, event.id, event.type, dumps(event.data)) for event in events],
        )
        db.execute(
            "DELETE FROM events WHERE room = ? AND id <= ?",
            (room.id, room.last_event - kept_events(room.rules)),
        )

    def _sweep(self, now: float) -> None:
        """Forget the rooms that expired ``TOMBSTONE_SECONDS`` ago, events and all."""
        gone = now - TOMBSTONE_SECONDS
        try:
            with self._transaction() as db:
                db.execute(
                    "DELETE FROM events WHERE room IN (SELECT id FROM rooms WHERE expires <= ?)", (gone,)
                )
                db.execute("DELETE FROM rooms WHERE expires <= ?", (gone,))
        except StoreBusy as error:  # the next sweep does it
            logger.warning("rooms: the sweep of expired rooms failed: %s", error)

    @contextlib.contextmanager
    def _transaction(self, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed when the block ends (on the disk when ``durable``, else
        in the write-ahead log, which a crash of the process cannot undo), rolled back when it raises.

        ``StoreBusy`` when the lock cannot be had in time or the commit fails.
        """
        db = self._db()
        synchronous = self.synchronous if durable else "NORMAL"
        if self._local.synchronous != synchronous:  # SQLite takes it outside a transaction only
            db.execute(f"PRAGMA synchronous={synchronous}")
            self._local.synchronous = synchronous
        with self._writing:  # this worker's writers queue here, in turn, instead of polling SQLite's lock
            self._begin(db)
            yield from self._committed(db)

    def _begin(self, db: sqlite3.Connection) -> None:
        """``BEGIN IMMEDIATE``: take the database's write lock, asking again every ``LOCK_RETRY_SECONDS``
        while another process holds it, ``LOCK_WAIT_SECONDS`` at most (then ``StoreBusy``).

        SQLite's own busy handler would sleep 1, 2, 5, 10 ... up to 100 ms between tries, so that a
        writer that lost twice waits far longer than the millisecond a transaction takes.
        """
        give_up = time.monotonic() + LOCK_WAIT_SECONDS
        while True:
            try:
                db.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                busy = error.sqlite_errorcode == sqlite3.SQLITE_BUSY
                if not busy or time.monotonic() >= give_up:
                    raise StoreBusy(f"cannot write the room: {error}") from error
            except sqlite3.Error as error:
                raise StoreBusy(f"cannot write the room: {error}") from error
            time.sleep(LOCK_RETRY_SECONDS)  # a real thread of the store's pool: the event loop goes on

    def _committed(self, db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
        """Yield ``db`` inside its transaction, then commit it; roll it back when the block raises."""
        try:
            yield db
            db.execute("COMMIT")
        except BaseException as error:
            with contextlib.suppress(sqlite3.Error):
                if db.in_transaction:  # a failed commit may have rolled back already
                    db.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error):
                raise StoreBusy(f"cannot write the room: {error}") from error
            raise

    def _db(self) -> sqlite3.Connection:
        """This thread's connection, opened on first use."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            try:
                # No busy handler for the write lock (``_begin`` asks for it); a reader never waits
                # for the writer in WAL, and rarely for anything else.
                db = sqlite3.connect(self.path, timeout=0, isolation_level=None)
                db.execute(f"PRAGMA synchronous={self.synchronous}")
            except sqlite3.Error as error:
                raise StoreBusy(f"cannot open the rooms' database: {error}") from error
            self._local.db, self._local.synchronous = db, self.synchronous
        return db


def _live(row: Any, room_id: str, now: float) -> Room:
    """The room of a ``(record, presence)`` row: ``UnknownRoom`` for none, ``ExpiredRoom``,
    ``DamagedRoom``."""
    if row is None:
        raise UnknownRoom()
    room = room_from(row[0], row[1], room_id)
    if room.expired(now):
        raise ExpiredRoom(room.why_expired())
    return room


def stored_bytes(path: Path, room_id: str) -> int:
    """What room ``room_id`` holds in the database at ``path``: its record, presence and events' bytes."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        (room,) = db.execute(
            "SELECT COALESCE(SUM(LENGTH(id) + LENGTH(record) + LENGTH(presence) + LENGTH(owner) + 16), 0)"
            " FROM rooms WHERE id = ?",
            (room_id,),
        ).fetchone()
        (events,) = db.execute(
            "SELECT COALESCE(SUM(LENGTH(room) + LENGTH(type) + LENGTH(data) + 8), 0)"
            " FROM events WHERE room = ?",
            (room_id,),
        ).fetchone()
    return int(room) + int(events)
