"""Fairness per client: a rate limit on the searches each client starts.

What is limited: a request pays only when it is about to search (the engine
calls ``admit`` right before taking a search slot).  A cache hit, a wait for
another worker's search, a 4xx and a GET that needs no search are free, so a player whose
positions are known is never slowed; a client that posts 15x15 boards, each a
search of up to SEARCH_BUDGET, gets ``SEARCH_RATE_LIMIT`` of them (default 60
a minute, a moving window), then ``429`` with ``Retry-After`` and a JSON error:
about a second of search a second on average, whatever it sends.  The charge is taken before the search,
atomically in the store, so concurrent requests of one client cannot all slip
past the limit.  /move, /analyze and GET /position share one budget per client.

Who is a client: its address as the router reports it.  ``TRUSTED_PROXIES``
(default 0) is how many proxies in front of the app append to
``X-Forwarded-For`` (werkzeug's ``ProxyFix``); with 0 the header is ignored
(anyone could write it) and the address is the TCP peer's.

Where the counts live: Redis when the app uses Redis (every instance shares
them), else this worker's memory.  A store that fails lets the search through
(logged, at most once a minute): the limit protects the service, it must not
take it down.

The counting is flask-limiter's own engine, the ``limits`` library (moving
window, the same storage URIs), called at search time.  flask-limiter itself
would hook every request of the app (before, after, teardown): measured at
about 0.6 ms a request on cached /move, or 0.085 ms with every request
exempted, against a whole cached /move of about 1 ms, for a limit that only
searches need.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable

from flask import Flask, Response, request
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from werkzeug.middleware.proxy_fix import ProxyFix

from .config import Settings
from .errors import error_response
from .throttled_log import ThrottledLog

logger = logging.getLogger(__name__)

NAMESPACE = "search"
MIN_RETRY_AFTER = 1  # seconds: "0" would invite an immediate, equally refused retry


class RateLimited(Exception):
    """The client has started as many searches as ``limit`` allows; it may retry after ``retry_after`` s."""

    def __init__(self, limit: RateLimitItem, retry_after: int) -> None:
        super().__init__(str(limit))
        self.limit = limit
        self.retry_after = retry_after


class SearchLimit:
    """The per-client limits on starting a search, counted in a ``limits`` storage."""

    def __init__(self, limits: str, storage_uri: str, **storage_options: float | str) -> None:
        self.limits = parse_many(limits)
        self.text = limits
        self.counter = MovingWindowRateLimiter(storage_from_string(storage_uri, **storage_options))
        self.log = ThrottledLog(logger)

    def admit(self) -> None:
        """Charge one search to the requesting client; raises ``RateLimited`` when it is over a limit."""
        client = request.remote_addr or "unknown"
        for limit in self.limits:
            try:
                if self.counter.hit(limit, NAMESPACE, client):
                    continue
                reset = self.counter.get_window_stats(limit, NAMESPACE, client).reset_time
            except Exception as error:  # the store failing must not fail the request
                self.log.warning("store", "cannot check the search rate limit, allowing: %r", error)
                return
            raise RateLimited(limit, max(MIN_RETRY_AFTER, math.ceil(reset - time.time())))


def storage_uri(settings: Settings) -> str:
    """Where the counts live: the app's Redis when it has one, else memory."""
    if settings.redis_url is None:
        return "memory://"
    if settings.redis_url.startswith("unix://"):  # limits names the socket scheme its own way
        return "redis+" + settings.redis_url
    return settings.redis_url


def init_app(app: Flask, settings: Settings) -> Callable[[], None] | None:
    """Trust the configured proxies and set up the search limit of ``app``.

    Returns ``admit()`` for the engine (None when ``SEARCH_RATE_LIMIT`` is off).
    """
    if settings.trusted_proxies:
        proxies = settings.trusted_proxies
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    if settings.search_rate_limit is None:
        return None

    @app.errorhandler(RateLimited)
    def rate_limited(error: RateLimited) -> Response:
        response = error_response(
            429,
            f"too many searches from your address (at most {error.limit}): positions"
            " already solved are not limited; try again after Retry-After seconds",
        )
        response.headers["Retry-After"] = str(error.retry_after)
        return response

    options: dict[str, float | str] = {}
    if settings.redis_url is not None:
        options = {
            "key_prefix": f"{settings.cache_key_prefix}limits",
            "socket_timeout": settings.redis_timeout,
            "socket_connect_timeout": settings.redis_timeout,
        }
    limit = SearchLimit(settings.search_rate_limit, storage_uri(settings), **options)
    app.extensions["search_limit"] = limit
    return limit.admit
