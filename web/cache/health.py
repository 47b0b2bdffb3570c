"""/healthz that cannot hurt: a bounded, shared, single-flight probe of the cache backend.

A platform polls /healthz, sometimes from many places at once.  If each poll
made its own round trip to a backend that hangs (a Redis paused or cut off),
each would wait out the backend's timeout, and the polls would take the
workers from real requests.  So, in each worker:

- at most one probe is in flight; a poll that finds one waits for its result
  (bounded) instead of starting another;
- a result of Redis is shared for ``FRESH_SECONDS``, unless a cache operation has
  failed since (then the next poll probes again);
- while the breaker is open (a cache operation failed a moment ago) the
  answer is 503 at once, without touching the backend; once its cooldown is
  over, a probe in the background is the trial that closes it (or opens it
  again), so requests never wait for a hung backend twice (web/runtime/breaker.py);
- the file cache's probe also makes sure its signing secret can be had (it
  writes a missing one): without it nothing is stored or read, so a secret
  that cannot be written (a full disk) is 503 like a folder that cannot be;
- Redis is probed over a connection of its own with a short timeout
  (``PROBE_TIMEOUT``) and no retry, in one pipelined round trip: a probe
  of a hung Redis ends after at most about 2 x ``PROBE_TIMEOUT`` (connect,
  then answer).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from cachelib.base import BaseCache
from flask import Flask

from web.cache.backends import Backend
from web.cache.signing import SecretUnavailable, Signer
from web.config import Settings
from web.runtime.breaker import Breaker
from web.runtime.interval import IntervalValue
from web.telemetry.throttled_log import ThrottledLog

PROBE_TIMEOUT = 0.2
FRESH_SECONDS = 1.0
# A poll that finds a probe in flight waits this long for it: the probe's own bound.
WAIT_FOR_PROBE = 2 * PROBE_TIMEOUT + 0.05
BREAKER_OPEN = "cache backend skipped for a moment after a failure (circuit breaker open)"

RoundTrip = Callable[[], tuple[bool, str]]


@dataclass(frozen=True)
class Probe:
    """The outcome of one round trip, and the breaker's count of failures when it ended."""

    ok: bool
    detail: str
    trips: int


class HealthCheck:
    """The backend's health as /healthz reports it: ``status() -> (ok, detail)``; thread-safe."""

    def __init__(
        self,
        round_trip: RoundTrip,
        breaker: Breaker,
        log: ThrottledLog,
        fresh: float = FRESH_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._round_trip = round_trip
        self._breaker = breaker
        self._log = log
        # A probe's result is shared for ``fresh`` seconds, unless the breaker has tripped since.
        self._probes = IntervalValue(
            self._probe,
            interval=fresh,
            wait=WAIT_FOR_PROBE,
            still_good=lambda probe: probe.trips == breaker.trips,
            clock=clock,
        )

    @property
    def probes(self) -> int:
        """Round trips made by this worker."""
        return self._probes.computations

    def status(self) -> tuple[bool, str]:
        """``(ok, detail)`` within about ``WAIT_FOR_PROBE`` seconds; never raises."""
        if not self._breaker.allows():
            return False, BREAKER_OPEN
        return self.probe()

    def probe(self) -> tuple[bool, str]:
        """The shared result, or a new round trip if there is none (one at a time), breaker or not.

        The breaker's trial: it resets the breaker on success and trips it on failure.
        """
        try:
            result = self._probes.get()
        except TimeoutError:
            return False, "the cache backend's health probe did not finish in time"
        return result.ok, result.detail

    def _probe(self) -> Probe:
        try:
            ok, detail = self._round_trip()
        except Exception as error:  # any failure of the backend is "not healthy", never a 500
            self._log.warning("probe", "cache backend failed its health probe: %r", error)
            ok, detail = False, f"cache backend error ({type(error).__name__})"
        if ok:
            self._breaker.reset()  # a recovered backend is used again at once
        else:
            self._breaker.trip()
        return Probe(ok, detail, self._breaker.trips)


def store_round_trip(store: BaseCache, signer: Signer | None) -> RoundTrip:
    """Write, read back and delete a unique key through a cachelib store (the file cache),
    then make sure ``signer`` has its secret: without it no entry is stored or read."""

    def round_trip() -> tuple[bool, str]:
        token = secrets.token_hex(8)
        key = f"healthz:{token}"
        if not store.set(key, token, timeout=60):
            return False, "cache write failed"
        if store.get(key) != token:
            return False, "cache read-back failed"
        store.delete(key)
        if signer is not None:
            try:
                signer.secret()  # written now if it is missing: the cache comes back with the room
            except SecretUnavailable as error:
                return False, f"the cache can neither store nor read entries: {error}"
        return True, "read and write ok"

    return round_trip


def redis_round_trip(url: str, key_prefix: str) -> RoundTrip:
    """Write, read back and delete a unique key in one pipelined round trip, on a connection
    of its own with ``PROBE_TIMEOUT`` and no retry (the requests' connections keep theirs)."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    client = redis.Redis.from_url(
        url,
        socket_timeout=PROBE_TIMEOUT,
        socket_connect_timeout=PROBE_TIMEOUT,
        retry=Retry(NoBackoff(), 0),
        max_connections=2,
        driver_info=None,
    )  # no CLIENT SETINFO: one round trip less

    def round_trip() -> tuple[bool, str]:
        token = secrets.token_hex(8)
        # unique: instances on other hosts may share our pid
        key = f"{key_prefix}healthz:{token}"
        pipe = client.pipeline(transaction=False)
        pipe.set(key, token, ex=60)
        pipe.get(key)
        pipe.delete(key)
        stored, read, _ = pipe.execute()
        if not stored:
            return False, "cache write failed"
        if read != token.encode():
            return False, "cache read-back failed"
        return True, "read and write ok"

    return round_trip


def fixed(ok: bool, detail: str) -> RoundTrip:
    """A backend whose health is known without asking it (none configured, or unusable)."""
    return lambda: (ok, detail)


def init_app(app: Flask, settings: Settings, backend: Backend) -> HealthCheck:
    """The health check of the cache ``backend``."""
    log = ThrottledLog(logging.getLogger(__name__))
    round_trip: RoundTrip
    if backend.name == "null":
        round_trip = fixed(True, "no shared cache configured")
    elif backend.store is None:
        round_trip = fixed(False, backend.failure or "cache backend not set up")
    elif backend.name == "redis" and settings.redis_url is not None:
        round_trip = redis_round_trip(settings.redis_url, settings.cache_key_prefix)
    else:
        round_trip = store_round_trip(backend.store, backend.signer)
    # A folder answers (or fails) at once: each poll may look for itself, one at a time.
    fresh = FRESH_SECONDS if backend.name == "redis" else 0.0
    check = HealthCheck(round_trip, backend.breaker, log, fresh=fresh)
    if backend.name == "redis":
        backend.breaker.set_trial(check.probe)
    return check
