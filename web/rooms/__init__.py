"""Rooms: a game two browsers share by a link, with rematches, resumes, spectators and its events.

- ``model``: a room and every rule of play (seats, turns through ``Board.play``,
  rematches, presence), each change returning its events;
- ``store``: the store's contract and the file store (the default), shared by
  every worker; ``redis_store``: the same in Redis, shared by every instance;
- ``wakeups``: how a change reaches the streams of every worker (named pipes,
  or Redis pub/sub) without any stream polling;
- ``stream``: a room's server-sent events, resumable with ``Last-Event-ID``;
- ``service``: the rooms as the routes use them (each address's allowance of
  new rooms); ``routes``: the HTTP API; ``shapes``: its answers, declared once.
"""

from __future__ import annotations

import logging

from flask import Flask

from web.cache.backends import UnsafeCacheDir, prepare_cache_dir
from web.config import Settings
from web.rooms.routes import bp
from web.rooms.service import CreationAllowance, Rooms
from web.rooms.store import FileRoomStore, RoomStore, UnusableStore
from web.rooms.wakeups import Channel, FifoChannel, Hub
from web.searches.rate_limit import Buckets, MemoryBuckets

logger = logging.getLogger(__name__)

__all__ = ["Rooms", "init_app"]


def init_app(app: Flask, settings: Settings) -> Rooms:
    """Set up the rooms of ``app`` and their routes: in Redis with REDIS_URL, else in CACHE_DIR/rooms."""
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
        store = RedisRoomStore(client, prefix, settings.rooms_max)
        channel = RedisChannel(settings, client)
        buckets = RedisBuckets(client, f"{prefix}rooms-made:")
    else:
        folder = settings.cache_dir / "rooms"
        try:
            prepare_cache_dir(settings.cache_dir, settings.cache_dir_is_default)
            folder.mkdir(mode=0o700, exist_ok=True)
            store = FileRoomStore(folder, settings.rooms_max)
        except (OSError, UnsafeCacheDir) as error:
            logger.error("the rooms' folder %s cannot be used (%s): rooms answer 503", folder, error)
            store = UnusableStore(f"the rooms' folder cannot be used: {error}")
        channel = FifoChannel(folder / "wake")
        buckets = MemoryBuckets()
    rooms = Rooms(store, Hub(channel), CreationAllowance(settings.rooms_per_minute, buckets))
    app.register_blueprint(bp)
    return rooms
