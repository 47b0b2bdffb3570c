"""The connection to the shared Redis, for the cache and the search allowance alike."""

from __future__ import annotations

from typing import TYPE_CHECKING

from web.config import Settings

if TYPE_CHECKING:
    import redis


def redis_client(settings: Settings) -> redis.Redis:
    """A Redis client that fails fast: short timeouts and one immediate retry.

    redis-py retries ten times with backoff by default: with Redis down, every
    request would stall for seconds before going on without the cache.  The
    one retry is for a connection that broke (Redis restarted); a Redis that
    does not answer in time is not asked again, and a new connection sends no
    CLIENT SETINFO: a hung Redis costs one ``REDIS_TIMEOUT``, not four.
    """
    import redis  # here: a deployment on the file system never loads it
    from redis.backoff import NoBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.retry import Retry

    if settings.redis_url is None:
        raise ValueError("the redis backend needs REDIS_URL")  # load_settings makes sure of it
    return redis.Redis.from_url(
        settings.redis_url,
        socket_timeout=settings.redis_timeout,
        socket_connect_timeout=settings.redis_timeout,
        retry=Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)),
        health_check_interval=30,
        driver_info=None,
    )
