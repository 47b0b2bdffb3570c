"""Wake-ups: how a change to a room reaches the event streams that watch it, in every worker.

Each worker keeps one ``Hub``: the streams it holds, by room.  A change made in
this worker is handed to its own streams at once, events and all, and
announced to the other workers through a channel that carries only the
room's id; a stream woken that way reads what it missed from the store
(web/rooms/store.py).  So a wake-up that is lost costs a delay (every stream
also reads the store at its heartbeat), and one that is forged costs a read.
The channel is listened to by one greenlet per worker (a thread outside
gevent), started by the worker's first stream, which sleeps until something
arrives: no stream polls.

- ``FifoChannel``, with the file store: every worker that holds streams owns
  a named pipe, ``CACHE_DIR/rooms/wake/<pid>-<random>.fifo``.  A change writes
  ``<room id>\\n`` into each other pipe of the folder; a write of at most
  ``PIPE_BUF`` bytes is atomic, and a pipe holds 64 KiB (thousands of
  wake-ups) before a write is dropped.  A pipe whose worker is gone (no
  reader: ``ENXIO`` or ``EPIPE``) is removed by the next writer.  The folder
  is private, so only this user can write into a pipe.
- ``RedisChannel``, with Redis: ``PUBLISH`` on one channel that every worker
  of every instance subscribes to, on a connection of its own; after a
  reconnection every stream of the worker reads the store, for whatever was
  published meanwhile.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import logging
import os
import queue
import select
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from web.config import Settings
from web.rooms.model import Event
from web.telemetry.throttled_log import ThrottledLog

if TYPE_CHECKING:
    import redis

logger = logging.getLogger(__name__)

# What a stream's mailbox may hold besides a list of events.
CHECK = "check"  # something changed: read the store
CLOSED = "closed"  # the client went away
# Redis: a quiet subscription is pinged this often, and given up (then made again) when
# nothing, not even a pong, came back for three times as long.
PING_SECONDS = 10.0
RECONNECT_SECONDS = (0.5, 5.0)  # the first wait before subscribing again, and the longest

Wake = Callable[[str], None]


class Channel(Protocol):
    """How workers tell each other that a room changed."""

    def send(self, room_id: str) -> None:
        """Tell every other listening worker that ``room_id`` changed (never raises)."""
        ...

    def listen(self, wake: Wake, resync: Callable[[], None]) -> None:
        """Call ``wake(room_id)`` for every room another worker says changed; ``resync()`` whenever
        wake-ups may have been missed.  Runs until the process ends."""
        ...


class Mailbox:
    """One stream's mailbox: lists of events, ``CHECK`` or ``CLOSED``, in the order they came."""

    def __init__(self, room_id: str) -> None:
        self.room_id = room_id
        self.closed = False  # the client closed its side (set with CLOSED)
        self._queue: queue.Queue[list[Event] | str] = queue.Queue()

    def put(self, item: list[Event] | str) -> None:
        """Leave ``item`` for the stream."""
        self._queue.put(item)

    def take(self, timeout: float) -> list[Event] | str | None:
        """The next item, waiting at most ``timeout`` seconds; None when nothing came."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None


class Hub:
    """This worker's streams by room, woken by its own changes and by the channel's word."""

    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        self.rooms: dict[str, set[Mailbox]] = {}
        self._lock = threading.Lock()
        self._listening = False

    def subscribe(self, room_id: str) -> Mailbox:
        """A mailbox that gets everything that happens in ``room_id`` from now on."""
        mailbox = Mailbox(room_id)
        with self._lock:
            self.rooms.setdefault(room_id, set()).add(mailbox)
            start = not self._listening
            self._listening = True
        if start:
            threading.Thread(
                target=self.channel.listen, args=(self.wake, self.resync), name="room-wakeups", daemon=True
            ).start()
        return mailbox

    def unsubscribe(self, mailbox: Mailbox) -> None:
        """Stop filling ``mailbox``."""
        with self._lock:
            boxes = self.rooms.get(mailbox.room_id)
            if boxes is not None:
                boxes.discard(mailbox)
                if not boxes:
                    del self.rooms[mailbox.room_id]

    def publish(self, room_id: str, events: list[Event]) -> None:
        """``events`` just happened in ``room_id``: to this worker's streams now, the word to the others."""
        for mailbox in self._mailboxes(room_id):
            mailbox.put(events)
        self.channel.send(room_id)

    def wake(self, room_id: str) -> None:
        """Another worker changed ``room_id``: its streams here read the store."""
        for mailbox in self._mailboxes(room_id):
            mailbox.put(CHECK)

    def resync(self) -> None:
        """Wake-ups may have been missed: every stream here reads the store."""
        with self._lock:
            boxes = [mailbox for room in self.rooms.values() for mailbox in room]
        for mailbox in boxes:
            mailbox.put(CHECK)

    def streams(self) -> int:
        """How many streams this worker holds."""
        with self._lock:
            return sum(len(boxes) for boxes in self.rooms.values())

    def _mailboxes(self, room_id: str) -> list[Mailbox]:
        with self._lock:
            return list(self.rooms.get(room_id, ()))


class FifoChannel:
    """Wake-ups through one named pipe per listening worker, in a private folder (module docstring)."""

    SUFFIX = ".fifo"

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.own: str | None = None  # this worker's pipe, once it listens
        self._writers: dict[str, int] = {}  # the other pipes, open for writing
        self._lock = threading.Lock()
        self.log = ThrottledLog(logger)

    def send(self, room_id: str) -> None:
        message = room_id.encode() + b"\n"
        try:
            with os.scandir(self.folder) as entries:
                names = {entry.name for entry in entries if entry.name.endswith(self.SUFFIX)}
        except FileNotFoundError:  # no worker has listened yet
            return
        except OSError as error:
            self.log.warning("fifo", "cannot list the wake-up pipes: %r", error)
            return
        names.discard(self.own or "")
        with self._lock:
            for name in set(self._writers) - names:  # removed: its worker has gone
                os.close(self._writers.pop(name))
            for name in names:
                self._write(name, message)

    def _write(self, name: str, message: bytes) -> None:
        path = self.folder / name
        fd = self._writers.get(name)
        try:
            if fd is None:
                fd = self._writers[name] = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            os.write(fd, message)
        except BlockingIOError:
            self.log.warning("full", "a wake-up pipe is full (its worker is stuck): a wake-up was dropped")
        except OSError as error:
            if fd is not None:
                os.close(self._writers.pop(name))
            if error.errno in (errno.ENXIO, errno.EPIPE):  # nobody reads it: its worker has gone
                with contextlib.suppress(OSError):
                    path.unlink()
            elif error.errno != errno.ENOENT:
                self.log.warning("write", "cannot write a wake-up: %r", error)

    def listen(self, wake: Wake, resync: Callable[[], None]) -> None:
        self.folder.mkdir(mode=0o700, exist_ok=True)
        name = f"{os.getpid()}-{os.urandom(4).hex()}{self.SUFFIX}"
        # Made under another name and renamed once its reader is open: a writer that found it
        # without a reader would take it for a dead worker's and remove it.
        temp = self.folder / f".{name}"
        os.mkfifo(temp, 0o600)
        reader = os.open(temp, os.O_RDONLY | os.O_NONBLOCK)
        # A writer of our own, never used: with none, the pipe would read as ended between writers.
        os.open(temp, os.O_WRONLY | os.O_NONBLOCK)
        os.rename(temp, self.folder / name)
        self.own = name
        atexit.register(lambda: (self.folder / name).unlink(missing_ok=True))
        pending = b""
        while True:
            select.select([reader], [], [])  # under gevent, this greenlet sleeps and the loop goes on
            try:
                data = os.read(reader, 65536)
            except BlockingIOError:
                continue
            lines = (pending + data).split(b"\n")
            pending = lines.pop()
            for room_id in dict.fromkeys(lines):  # each room once per read, in order
                wake(room_id.decode("ascii", "replace"))


class RedisChannel:
    """Wake-ups through Redis pub/sub, on one channel every worker of every instance hears."""

    def __init__(self, settings: Settings, client: redis.Redis) -> None:
        self.settings = settings
        self.client = client
        self.name = f"{settings.cache_key_prefix}rooms:wake"
        self.log = ThrottledLog(logger)

    def send(self, room_id: str) -> None:
        try:
            self.client.publish(self.name, room_id)
        except Exception as error:  # the room is stored: its streams elsewhere catch up at their heartbeat
            self.log.warning("publish", "cannot publish a room's wake-up: %r", error)

    def listen(self, wake: Wake, resync: Callable[[], None]) -> None:
        import redis  # here: a deployment on the file system never loads it

        wait = RECONNECT_SECONDS[0]
        while True:
            subscriber = redis.Redis.from_url(
                self.settings.redis_url or "",
                socket_connect_timeout=self.settings.redis_timeout,
                socket_keepalive=True,
                driver_info=None,
            )
            pubsub = subscriber.pubsub()  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
            try:
                pubsub.subscribe(self.name)
                resync()  # whatever was published while we were not subscribed
                wait = RECONNECT_SECONDS[0]
                heard = time.monotonic()
                while True:
                    message = pubsub.get_message(timeout=PING_SECONDS)
                    now = time.monotonic()
                    if message is None:
                        if now - heard > 3 * PING_SECONDS:
                            raise ConnectionError("no answer from Redis to three pings")
                        pubsub.ping()
                        continue
                    heard = now
                    if message["type"] == "message":
                        wake(message["data"].decode("ascii", "replace"))
            except Exception as error:  # Redis down or restarted: subscribe again, then resync
                self.log.warning("subscribe", "the rooms' wake-ups lost Redis (%r): subscribing again", error)
                time.sleep(wait)
                wait = min(RECONNECT_SECONDS[1], wait * 2)
            finally:
                with contextlib.suppress(Exception):
                    pubsub.close()
                    subscriber.close()
