"""Fairness per client: each address may spend so many seconds of search a minute.

What is charged is what a search costs: the time it held its search slot
(web/searches/slots.py), measured when it ends.  A cache hit, a wait for another
worker's search, a 4xx, a GET that needs no search, and every search on a
board of at most ``FREE_CELLS`` cells (every 3x3 position, cached or not: a
few milliseconds each at most, docs/reliability.md) are free and never refused,
so a class of thirty behind one school address plays on whatever else that
address sends.  A trace of the lab is charged for the time
it held its slot, like a search.

The shape is a token bucket of search seconds (GCRA, kept as one number per
client: the time its bucket is full again).  A client may spend
``SEARCH_SECONDS_PER_MINUTE`` seconds at once and then that many a minute; a
search may start while the client owes less than a minute of refill
(``WINDOW``), and its time is charged when it ends, so a burst of concurrent
searches overshoots by at most the searches it has in flight (each within its
budget): that overshoot is owed, not forgiven, and the client waits it out.
Refused: ``429`` with ``Retry-After`` (the seconds until a search may start)
and a JSON error that says so in words.

Who is a client: its address as the router reports it, an IPv6 address
counted by its /64 (web/http/client_key.py).  ``TRUSTED_PROXIES``
(default 0) is how many proxies in front of the app append to
``X-Forwarded-For`` (werkzeug's ``ProxyFix``); with 0 the header is ignored
(anyone could write it) and the address is the TCP peer's.

Where the buckets live: Redis when the app uses Redis (every instance shares
them; the time is Redis's own, so instances agree), else this worker's memory
(at most ``MEMORY_CLIENTS`` clients; past that the ones whose bucket is full
are dropped first).  A store that fails lets the search through (logged, at
most once a minute) and is left alone behind a breaker while a probe of its
own finds out when it is back: the limit protects the service, it must not
take it down or slow it.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from flask import Flask, Response, jsonify, request

from web.config import Settings
from web.http.client_key import client_key
from web.http.error_body import error_body
from web.http.errors import error_response, wants_html
from web.openapi.declarations import Refusal
from web.runtime.breaker import Breaker
from web.searches.slots import FREE_CELLS
from web.telemetry.throttled_log import ThrottledLog

if TYPE_CHECKING:
    import redis

logger = logging.getLogger(__name__)

# A client may start a search while it owes less than this much refill time.
WINDOW = 60.0
MIN_RETRY_AFTER = 1  # seconds: "0" would invite an immediate, equally refused retry
MEMORY_CLIENTS = 20_000
# What a route that searches may answer past the allowance (/openapi.json).
RATE_LIMITED = Refusal(
    429,
    "This client (by its address) has spent the seconds of search a minute that"
    " SEARCH_SECONDS_PER_MINUTE allows; positions already solved, and every 3x3 position, are still"
    " answered. Try again after Retry-After seconds (also in the body as retry_after).",
    MIN_RETRY_AFTER,
)

# Redis's clock, not each instance's: every instance then agrees on a client's bucket.
_NOW = "local t = redis.call('TIME') local now = tonumber(t[1]) + tonumber(t[2]) / 1000000 "
_OWED = (
    _NOW + "local full = tonumber(redis.call('GET', KEYS[1]) or '0') return tostring(math.max(0, full - now))"
)
_CHARGE = (
    _NOW
    + "local full = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0')) + tonumber(ARGV[1]) "
    + "redis.call('SET', KEYS[1], string.format('%.6f', full), 'PX', math.ceil((full - now) * 1000) + 1000) "
    + "return 1"
)


class RateLimited(Exception):
    """The client has spent its search time; it may start another search after ``retry_after`` s."""

    def __init__(self, seconds_per_minute: float, retry_after: int) -> None:
        super().__init__(f"{seconds_per_minute:g} seconds of search a minute")
        self.seconds_per_minute = seconds_per_minute
        self.retry_after = retry_after


class Buckets(Protocol):
    """Where each client's bucket lives, as the time it is full again (seconds from now)."""

    def owed(self, client: str) -> float:
        """Seconds until ``client``'s bucket is full again (0 when it is full)."""

    def add(self, client: str, seconds: float) -> None:
        """Push the time ``client``'s bucket is full again ``seconds`` further (from now at the earliest)."""


class MemoryBuckets:
    """The buckets of one worker's clients, in memory; thread-safe."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, capacity: int = MEMORY_CLIENTS) -> None:
        self.clock = clock
        self.capacity = capacity
        self._full_at: dict[str, float] = {}  # oldest charge first
        self._lock = threading.Lock()

    def owed(self, client: str) -> float:
        with self._lock:
            return max(0.0, self._full_at.get(client, 0.0) - self.clock())

    def add(self, client: str, seconds: float) -> None:
        now = self.clock()
        with self._lock:
            full_at = max(now, self._full_at.pop(client, now)) + seconds
            self._full_at[client] = full_at
            if len(self._full_at) > self.capacity:
                self._forget(now)

    def _forget(self, now: float) -> None:
        """Drop the full buckets (as good as absent), then the oldest charged until within capacity."""
        for client in [c for c, full_at in self._full_at.items() if full_at <= now]:
            del self._full_at[client]
        while len(self._full_at) > self.capacity:
            del self._full_at[next(iter(self._full_at))]


class RedisBuckets:
    """The buckets in Redis, shared by every instance, each key expiring when its bucket is full."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self.prefix = prefix
        self._owed = client.register_script(_OWED)
        self._charge = client.register_script(_CHARGE)

    def owed(self, client: str) -> float:
        return float(self._owed(keys=[self.prefix + client]))

    def add(self, client: str, seconds: float) -> None:
        self._charge(keys=[self.prefix + client], args=[f"{seconds:.6f}"])


class SearchAllowance:
    """Each client's seconds of search a minute: ``check`` before a search, ``charge`` after it."""

    def __init__(self, seconds_per_minute: float, buckets: Buckets, breaker: Breaker | None = None) -> None:
        self.seconds_per_minute = seconds_per_minute
        self.buckets = buckets
        # A Redis that fails or hangs is skipped while the breaker is open.
        self.breaker = breaker or Breaker(cooldown=0)
        self.log = ThrottledLog(logger)

    def check(self, client: str) -> None:
        """Raise ``RateLimited`` when ``client`` may not start a search now (a failing store allows it)."""
        owed = self._use(lambda: self.buckets.owed(client))
        if owed is not None and owed > WINDOW:
            raise RateLimited(self.seconds_per_minute, max(MIN_RETRY_AFTER, math.ceil(owed - WINDOW)))

    def charge(self, client: str, seconds: float) -> None:
        """Charge ``client`` for ``seconds`` of search (skipped, logged, when the store fails)."""
        refill = seconds * WINDOW / self.seconds_per_minute
        self._use(lambda: self.buckets.add(client, refill))

    def _use(self, operation: Callable[[], float | None]) -> float | None:
        """``operation()``, or None when the store is being skipped or fails now (which trips it)."""
        if not self.breaker.allows():
            return None
        try:
            return operation()
        except Exception as error:  # the store failing must not fail the request
            self.breaker.trip()
            self.log.warning("store", "cannot use the search allowances, allowing: %r", error)
            return None


class RequestAllowance:
    """The search slots' view of the allowance: the requesting client's, from Flask's request."""

    def __init__(self, limit: SearchAllowance) -> None:
        self.limit = limit

    def check(self) -> None:
        """Raise ``RateLimited`` when the requesting client may not start a search now."""
        self.limit.check(requesting_client())

    def charge(self, seconds: float) -> None:
        """Charge the requesting client for ``seconds`` of search."""
        self.limit.charge(requesting_client(), seconds)


def requesting_client() -> str:
    """The client of Flask's current request, as allowances and search slots count clients: its
    address's key (an IPv6 address's /64, web/http/client_key.py)."""
    return client_key(request.remote_addr or "unknown")


def refusal(error: RateLimited) -> str:
    """The 429's words: what happened and when to try again."""
    return (
        f"too many searches came from your network (address): it may use {error.seconds_per_minute:g}"
        f" seconds of search a minute; try again in {error.retry_after} s. Positions already solved,"
        f" and every game on a board of {FREE_CELLS} cells (3x3), are still answered"
    )


def init_app(app: Flask, settings: Settings) -> SearchAllowance | None:
    """The search allowance of ``app`` and its 429 (None when ``SEARCH_SECONDS_PER_MINUTE`` is off)."""
    if settings.search_seconds_per_minute is None:
        return None

    @app.errorhandler(RateLimited)
    def rate_limited(error: RateLimited) -> Response:
        if wants_html():
            response = error_response(429, refusal(error), "Too Many Requests")
        else:
            response = jsonify(error_body(refusal(error), error.retry_after))
            response.status_code = 429
        response.headers["Retry-After"] = str(error.retry_after)
        return response

    return SearchAllowance(settings.search_seconds_per_minute, *_buckets(settings))


def _buckets(settings: Settings) -> tuple[Buckets, Breaker | None]:
    """The app's Redis (with a breaker whose probe runs off the requests) when it has one, else memory."""
    if settings.redis_url is None:
        return MemoryBuckets(), None
    from web.runtime.redis_client import (
        redis_client,  # here: a deployment on the file system never loads redis
    )

    client = redis_client(settings)
    breaker = Breaker()

    def probe() -> None:
        try:
            client.ping()
        except Exception:
            breaker.trip()
        else:
            breaker.reset()

    breaker.set_trial(probe)
    return RedisBuckets(client, f"{settings.cache_key_prefix}allowance:"), breaker
