"""Setting up the cache's backend: the store of entries, its locks and secret.

The backend is one of ``BACKENDS`` (the ``CACHE_TYPE`` setting):

- ``filesystem``: a private folder shared by every worker of the machine:
  ``solved/`` (entries, through ``eviction.BoundedFileCache``: flask-caching's
  ``FileSystemCache`` with a cap), ``locks/`` (``flock`` files), ``sweep.lock``
  and ``secret``;
- ``redis``: one Redis shared by every instance: entries and locks under
  ``CACHE_KEY_PREFIX``; the signing secret is ``CACHE_SECRET``, which the
  settings require with Redis;
- ``null``: no shared store; each worker only keeps what it solved itself.

Entries are stored without expiry on disk (a solved position never goes stale;
the folder's cap evicts the least recently used) and with a long TTL in Redis
(for its eviction policy), as JSON, never pickled: whoever can write the store could otherwise run code.
"""

from __future__ import annotations

import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cachelib.base import BaseCache
from cachelib.serializers import JSONSerializer
from flask import Flask
from flask_caching import Cache

from web.cache.locks import FileLocks, LocalLocks, Locks, RedisLocks
from web.cache.signing import Signer, file_secret, fixed_secret
from web.config import Settings
from web.runtime.breaker import Breaker
from web.runtime.redis_client import redis_client
from web.telemetry.throttled_log import throttle_library_logs

logger = logging.getLogger(__name__)

cache = Cache()

# Entries in Redis carry a TTL so that a `volatile-lru` policy may evict them
# while the key without one (the secret) stays (docs/deploy.md).
# A solved position never goes stale: the TTL only bounds how long an unused
# entry can sit in memory.
REDIS_ENTRY_TTL = 30 * 24 * 3600


@dataclass(frozen=True)
class Backend:
    """A backend as set up for one app.

    ``name`` is the configured backend (one of ``BACKENDS``).  ``store`` is None
    for ``null``, and for a backend that could not be set up: then ``failure``
    says why (the app runs on without a shared cache).  ``breaker`` makes a
    failing remote store be skipped for a moment.
    """

    name: str
    store: BaseCache | None
    locks: Locks
    signer: Signer | None
    breaker: Breaker
    failure: str | None = None


def open_backend(app: Flask, settings: Settings) -> Backend:
    """Bind the cache extension to ``app`` and set up the backend ``settings.backend`` names.

    A cache folder that cannot be created or is not safe to use does not stop
    the app: it runs without a shared cache, says so in the log and in /healthz.
    """
    throttle_library_logs(f"{os.sep}cachelib{os.sep}")
    if settings.backend == "redis":
        return _open_redis(app, settings)
    # A folder fails at once, so it is never worth skipping after a failure.
    breaker = Breaker(cooldown=0)
    if settings.backend == "filesystem":
        try:
            folders = prepare_cache_dir(settings.cache_dir, settings.cache_dir_is_default)
            cache.init_app(
                app,
                config={
                    "CACHE_TYPE": "web.cache.eviction.BoundedFileCache",
                    "CACHE_DIR": str(folders["solved"]),
                    "CACHE_OPTIONS": {
                        "max_entries": settings.cache_max_entries,
                        "sweep_lock": str(folders["sweep"]),
                    },
                    "CACHE_DEFAULT_TIMEOUT": 0,  # cachelib: 0 means entries never expire
                    "CACHE_SERIALIZER": EntrySerializer,
                },
            )
        except (OSError, UnsafeCacheDir) as error:
            logger.error(
                "cache folder %s cannot be used (%s): running without a shared cache",
                settings.cache_dir,
                error,
            )
            _init_null(app)
            return Backend(
                settings.backend, None, LocalLocks(), None, breaker, failure="cache folder unusable"
            )
        signer = Signer(
            fixed_secret(settings.cache_secret)
            if settings.cache_secret
            else file_secret(folders["secret"], folders["locks"] / "secret.lock")
        )
        return Backend(settings.backend, _store(app), FileLocks(folders["locks"]), signer, breaker)
    _init_null(app)
    return Backend(settings.backend, None, LocalLocks(), None, breaker)


def _open_redis(app: Flask, settings: Settings) -> Backend:
    """The Redis backend: entries and locks under the key prefix, signed with CACHE_SECRET."""
    client = redis_client(settings)
    prefix = settings.cache_key_prefix
    cache.init_app(
        app,
        config={
            "CACHE_TYPE": "RedisCache",
            "CACHE_REDIS_HOST": client,
            "CACHE_KEY_PREFIX": prefix,
            "CACHE_DEFAULT_TIMEOUT": REDIS_ENTRY_TTL,
            "CACHE_SERIALIZER": EntrySerializer,
        },
    )
    # The lock outlives the longest search it guards, then frees itself.
    locks = RedisLocks(client, prefix, ttl=settings.search_budget * 2 + 5)
    if settings.cache_secret is None:
        raise ValueError("the redis backend needs CACHE_SECRET")  # load_settings makes sure of it
    signer = Signer(fixed_secret(settings.cache_secret))
    return Backend(settings.backend, _store(app), locks, signer, Breaker())


def _store(app: Flask) -> BaseCache:
    """The cachelib store that ``cache.init_app`` made for ``app``."""
    store: BaseCache = app.extensions["cache"][cache]
    return store


class EntrySerializer(JSONSerializer):
    """JSON, with a missing Redis key read as a miss (cachelib would log a warning for it)."""

    def loads(self, bvalue: str | bytes | bytearray | None, *args: Any, **kwargs: Any) -> Any:
        if bvalue is None:
            return None
        return super().loads(bvalue, *args, **kwargs)


def _init_null(app: Flask) -> None:
    cache.init_app(app, config={"CACHE_TYPE": "NullCache", "CACHE_NO_NULL_WARNING": True})


class UnsafeCacheDir(Exception):
    """The default cache folder exists but another user could write to it."""


def prepare_cache_dir(root: Path, is_default: bool) -> dict[str, Path]:
    """Create the cache folder's parts: ``solved/`` (entries), ``locks/``, ``secret``.

    The default folder lives in the shared temp dir, so it must belong to us and
    be writable by nobody else (else others could plant entries).  Raises
    ``OSError`` or ``UnsafeCacheDir``.
    """
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    if is_default:
        info = root.lstat()
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o022:
            raise UnsafeCacheDir(f"{root} is not a private folder of this user")
    folders = {"solved": root / "solved", "locks": root / "locks"}
    for folder in folders.values():
        folder.mkdir(mode=0o700, exist_ok=True)
    folders["secret"] = root / "secret"  # see web/cache/signing.py
    folders["sweep"] = root / "sweep.lock"  # see web/cache/eviction.py
    return folders
