"""Rooms: a game two browsers share by a link, with rematches, resumes, spectators and its events.

- ``model``: a room and every rule of play (seats, turns through ``Board.play``,
  rematches, presence), each change returning its events;
- ``store``: the store's contract; ``sqlite_store``: the default, one SQLite
  database every worker and instance of the machine shares; ``redis_store``:
  the same in Redis, shared by every instance;
- ``wakeups``: how a change reaches the streams of every worker (named pipes,
  or Redis pub/sub) without any stream polling;
- ``stream``: a room's server-sent events, resumable with ``Last-Event-ID``;
  ``budget``: how many streams a worker admits, in all and per address;
- ``service``: the rooms as the routes use them (each address's allowances), and
  the app's rooms (``rooms_of``); ``routes``: the HTTP API; ``shapes``: its
  answers and events, declared once; ``contract``: what the routes' declarations
  share (the room's id, the refusals, the links between operations).
"""

from __future__ import annotations

import logging
import sqlite3

from flask import Flask

from web.cache.backends import UnsafeCacheDir, prepare_cache_dir
from web.config import Settings
from web.rooms.budget import StreamBudget
from web.rooms.routes import bp
from web.rooms.service import Allowance, Rooms, attach, rooms_of
from web.rooms.sqlite_store import FILE_NAME, STORE_THREADS, SqliteRoomStore
from web.rooms.store import RoomStore, UnusableStore
from web.rooms.wakeups import Channel, FifoChannel, Hub
from web.runtime.offload import off_event_loop
from web.searches.rate_limit import Buckets, MemoryBuckets
from web.telemetry.metrics import Metrics

logger = logging.getLogger(__name__)

__all__ = ["Rooms", "init_app", "rooms_of"]


def init_app(app: Flask, settings: Settings, metrics: Metrics) -> Rooms:
    """Set up the rooms of ``app`` and their routes: in Redis with REDIS_URL, else in
    CACHE_DIR/rooms/rooms.sqlite3."""
    store: RoomStore
    channel: Channel
    buckets: Buckets
    if settings.redis_url is not None:
        from web.rooms.redis_store import RedisRoomStore
        from web.rooms.wakeups import RedisChannel
        from web.runtime.redis_client import redis_client  # a deployment on files never loads redis
        from web.searches.rate_limit import RedisBuckets

        client = redis_client(settings)
        prefix = settings.cache_key_prefix
        store = RedisRoomStore(client, prefix, settings.rooms_max, settings.rooms_per_address)
        channel = RedisChannel(settings, client)
        buckets = RedisBuckets(client, f"{prefix}rooms-made:")
    else:
        folder = settings.cache_dir / "rooms"
        try:
            prepare_cache_dir(settings.cache_dir, settings.cache_dir_is_default)
            folder.mkdir(mode=0o700, exist_ok=True)
            run = off_event_loop(STORE_THREADS, started=True)
            store = SqliteRoomStore(folder / FILE_NAME, settings.rooms_max, settings.rooms_per_address, run)
        except (OSError, sqlite3.Error, UnsafeCacheDir) as error:
            logger.error("the rooms' database in %s cannot be used (%s): rooms answer 503", folder, error)
            store = UnusableStore(f"the rooms' database cannot be used: {error}")
        channel = FifoChannel(folder / "wake")
        buckets = MemoryBuckets()
    rooms = Rooms(
        store,
        Hub(channel),
        making=Allowance(settings.rooms_per_minute, buckets, "rooms were made", "make", "rooms_per_minute"),
        # In the worker's memory whatever the store: refused before anything is read.
        guessing=Allowance(
            settings.wrong_tokens_per_minute,
            MemoryBuckets(),
            "wrong seat tokens came",
            "send",
            "wrong_tokens",
        ),
        streams=StreamBudget(settings.room_streams_per_address, settings.room_streams_per_worker),
        stream_seconds=settings.room_stream_seconds,
        count=metrics.count_room,
    )
    app.register_blueprint(bp)
    attach(app, rooms)
    return rooms
