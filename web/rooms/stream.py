"""A room's event stream (server-sent events): what ``GET /rooms/{id}/events`` sends, event by event.

::

    retry: 2000                    the browser's reconnection delay, sent at once
                                   (so the headers leave at once too)
    id: 7                          without Last-Event-ID: the room as it stands,
    event: state                   as an event whose id is the room's last
    data: {"room": "...", ...}

    id: 8                          then every event as it happens; after a
    event: move                    reconnection with Last-Event-ID: n, exactly
    data: {"ply": 3, ...}          the events after n, then the same

    event: heartbeat               every HEARTBEAT_SECONDS of quiet, with no id (so
    data: {}                       the browser's Last-Event-ID stays): a page that
                                   hears nothing for two of them knows its
                                   connection went silent

A stream opened with a seat's token holds that seat's presence (its lease,
renewed at half-time, web/rooms/model.py) until it closes: at once when its
browser closed it ("leave", if it was the seat's last), or
``RECONNECT_GRACE_SECONDS`` later when the server ended it (its lifetime,
``ROOM_STREAM_SECONDS``; a reader too slow; a worker stopping), since the
browser then reconnects within seconds with ``Last-Event-ID`` and misses
nothing.  A seat whose streams all went silently (a worker killed) is told to
have left at the next heartbeat of a seat's stream of the room once its leases
ran out (and ``connected`` is false from then on for anyone who reads the room).

A reader that stops reading is dropped before it holds more than
``SEND_BUFFER_BYTES`` unsent: the stream ends once its socket's queue is past
that, and the socket's send buffer is that small too, so that even one large
write blocks (and gives up after the connection's write timeout) rather than
piling up in the kernel.  How many
streams a worker admits is web/rooms/budget.py's.  A stream costs its
worker a greenlet and a mailbox (web/rooms/wakeups.py), and under gunicorn one
more greenlet that sleeps until the client closes the connection, so that
"leave" is sent at once rather than at the next heartbeat; no thread, no
search slot, no polling (the store is read when a wake-up says so, and at each
heartbeat in case one was lost).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import random
import select
import socket
import struct
import termios
import threading
import time
from collections.abc import Iterator

from web.rooms.model import LEASE_SECONDS, RECONNECT_GRACE_SECONDS, Event, Room, Seat
from web.rooms.service import Rooms
from web.rooms.store import DamagedRoom, ExpiredRoom, StoreBusy, UnknownRoom
from web.rooms.wakeups import CHECK, CLOSED, Mailbox

logger = logging.getLogger(__name__)

# At most 20 s between two writes (Heroku's router closes a connection idle for 55 s).
HEARTBEAT_SECONDS = 15.0
RECONNECT_MS = 2000
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
LIFETIME_SPREAD = 0.1
# An event, not a comment: EventSource hides comments from the page, which watches for these.
HEARTBEAT = b"event: heartbeat\ndata: {}\n\n"
# What a stream's socket may hold unsent (the kernel doubles it): a reader that stops reading is
# dropped once this is full for a write's timeout, instead of piling up the room's events.
SEND_BUFFER_BYTES = 16 * 1024
MIMETYPE = "text/event-stream"


def encode(event: Event) -> bytes:
    """One event as the stream sends it (its data is JSON on one line)."""
    data = json.dumps(event.data, separators=(",", ":"))
    return f"id: {event.id}\nevent: {event.type}\ndata: {data}\n\n".encode()


def snapshot(room: Room, now: float) -> Event:
    """The room as it stands, as a ``state`` event carrying the id of the room's last event."""
    return Event(room.last_event, "state", dict(room.state(now)))


def events(
    rooms: Rooms,
    room: Room,
    seat: Seat | None,
    last_event_id: int | None,
    client: socket.socket | None,
    lifetime: float,
) -> Iterator[bytes]:
    """The stream of ``room`` (checked and loaded by the caller) after ``last_event_id`` (None: the
    room's state first); ``seat``: the seat whose presence it holds; ``client``: the connection,
    watched for its closing.  Ends when the client goes, after about ``lifetime`` seconds (the
    browser reconnects with ``Last-Event-ID``), or when the room expires or cannot be read."""
    room_id = room.id
    presence = None if seat is None else Presence(rooms, room_id, seat)
    mailbox = rooms.hub.subscribe(room_id)  # first: nothing that happens from here on is missed
    if client is not None:
        _watch(client, mailbox)
    # Spread by up to a tenth, so that streams opened together do not all come back together.
    ends = time.monotonic() + lifetime * (1 - LIFETIME_SPREAD * random.random())
    reason = "lifetime"
    try:
        yield f"retry: {RECONNECT_MS}\n\n".encode()
        if presence is not None:
            room = presence.connect()
        cursor = room.last_event if last_event_id is None else last_event_id
        if last_event_id is None or last_event_id > room.last_event:
            yield encode(snapshot(room, rooms.clock()))
            cursor = room.last_event
        item: list[Event] | str | None = CHECK
        while True:
            if item == CLOSED:
                reason = "client"
                break
            if item is None:
                yield HEARTBEAT
                if presence is not None:  # a seat whose streams all went silently: the other is told
                    rooms.lapse(room_id)
                item = CHECK  # a wake-up may have been lost: the store says
            if client is not None and unsent(client) > SEND_BUFFER_BYTES:
                reason = "dropped"  # a reader that stopped reading: its browser reconnects if it can
                break
            for event in _news(rooms, room_id, cursor, item):
                yield encode(event)
                cursor = event.id
            if presence is not None:
                presence.renew()
            left = ends - time.monotonic()
            if left <= 0:
                break
            item = mailbox.take(min(HEARTBEAT_SECONDS, left))
            if item is None and ends - time.monotonic() <= 0:
                break
    except GeneratorExit:  # the server could not write: a reader gone, or too slow to keep
        reason = "client" if mailbox.closed else "dropped"
        raise
    except (UnknownRoom, ExpiredRoom, DamagedRoom, StoreBusy) as error:
        reason = "room"
        logger.info("the stream of room %s ends: %r", room_id, error)
    finally:
        rooms.hub.unsubscribe(mailbox)
        rooms.count(f"stream_ended_{reason}")
        if client is not None:
            with contextlib.suppress(OSError):  # wakes the watcher, which then ends
                client.shutdown(socket.SHUT_RD)
        if presence is not None:
            # Closed by its browser: the seat may leave now.  Ended by the server: the browser comes
            # back within seconds, and its lease holds the seat meanwhile.
            presence.disconnect(grace=0.0 if reason == "client" else RECONNECT_GRACE_SECONDS)


class Presence:
    """One stream's hold on its seat's presence: a lease taken, renewed at half-time, given back."""

    def __init__(self, rooms: Rooms, room_id: str, seat: Seat) -> None:
        self.rooms = rooms
        self.room_id = room_id
        self.seat = seat
        self.stream = os.urandom(6).hex()
        self.renew_at = 0.0

    def connect(self) -> Room:
        """Take the lease ("join" when the seat was away); the room after it."""
        room, _ = self.rooms.change(
            self.room_id, lambda room, now: room.connect(self.seat, self.stream, now), durable=False
        )
        self._schedule(room)
        return room

    def renew(self) -> None:
        """Renew the lease once half of it has run."""
        if self.rooms.clock() >= self.renew_at:
            room, _ = self.rooms.change(
                self.room_id, lambda room, now: room.renew(self.seat, self.stream, now), durable=False
            )
            self._schedule(room)

    def disconnect(self, grace: float) -> None:
        """Give the lease back ("leave" when it was the seat's last), or keep it ``grace`` seconds
        more for the browser to come back; never raises."""
        with contextlib.suppress(Exception):  # the room may have gone: nothing to leave then
            self.rooms.change(
                self.room_id,
                lambda room, now: room.disconnect(self.seat, self.stream, now, grace),
                durable=False,
            )

    def _schedule(self, room: Room) -> None:
        ends = room.lease_ends(self.seat, self.stream)
        self.renew_at = (ends or self.rooms.clock()) - LEASE_SECONDS / 2


def _news(rooms: Rooms, room_id: str, cursor: int, item: list[Event] | str) -> list[Event]:
    """The events after ``cursor``: those ``item`` brought when they follow on, else from the store
    (the room's state when the store no longer keeps them all)."""
    if isinstance(item, list):
        fresh = [event for event in item if event.id > cursor]
        if not fresh or fresh[0].id == cursor + 1:
            return fresh
    found = rooms.store.events_after(room_id, cursor)
    if found is None:
        return [snapshot(rooms.load(room_id), rooms.clock())]
    return found


def _watch(client: socket.socket, mailbox: Mailbox) -> None:
    """Tell ``mailbox`` ``CLOSED`` once the client has closed its side (a greenlet under gevent)."""

    def watch() -> None:
        try:
            select.select([client], [], [])
            closed = not client.recv(1, socket.MSG_PEEK)
        except (OSError, ValueError):  # the connection is gone (ValueError: its descriptor is closed)
            closed = True
        if closed:
            mailbox.closed = True
            mailbox.put(CLOSED)

    threading.Thread(target=watch, name="room-stream-watch", daemon=True).start()


def unsent(client: socket.socket) -> int:
    """The bytes written to ``client`` that it has not yet taken (the socket's queue; 0 if unknown)."""
    try:
        queued = fcntl.ioctl(client.fileno(), termios.TIOCOUTQ, b"\0\0\0\0")
    except (OSError, ValueError):
        return 0
    return int(struct.unpack("i", queued)[0])


def last_event_id(value: str | None) -> int | None:
    """The ``Last-Event-ID`` header read (None when absent or empty); ``ValueError`` unless digits."""
    if value is None or value == "":
        return None
    if not (value.isascii() and value.isdigit() and len(value) <= 18):
        raise ValueError(f"Last-Event-ID must be the id of an event (digits), not {value[:40]!r}")
    return int(value)
