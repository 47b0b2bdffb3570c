"""Counters of the shared cache's work: per worker, and in total where the store allows.

- ``hits``: a lookup found a stored, valid result (no search);
- ``misses``: a lookup found nothing usable (absent, unreadable or invalid);
- ``searches``: searches run (a miss that waited and then found the result is no search);
- ``waited``: requests that waited for another worker's search of the same position;
- ``stored``: proven results written to the cache;
- ``unproven``: searches that ran out of budget (never stored);
- ``invalid``: stored entries ignored because they were unreadable or did not fit the schema;
- ``busy``: requests refused with 503 because the worker's searches were all in use;
- ``cache_errors``: operations on the cache backend that failed (the request went on without it).

Totals live beside the cache: a small JSON file updated under ``flock`` for the
file-system cache (every worker of the machine), a Redis hash for Redis (every
instance).  With no shared cache there is no total, only this worker's counts.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
from pathlib import Path

COUNTERS = ("hits", "misses", "searches", "waited", "stored", "unproven", "invalid", "busy",
            "cache_errors")


class FileTotals:
    """Totals in one JSON file, read and rewritten under an exclusive ``flock``."""

    scope = "every worker sharing the cache folder"

    def __init__(self, path: Path) -> None:
        self.path = path

    def add(self, counts: dict[str, int]) -> None:
        """Add ``counts`` to the totals; raises ``OSError`` when the file cannot be written."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            totals = _parse(_read_all(fd))
            for name, value in counts.items():
                totals[name] = totals.get(name, 0) + value
            data = json.dumps(totals, sort_keys=True).encode()
            os.lseek(fd, 0, os.SEEK_SET)
            os.ftruncate(fd, 0)
            os.write(fd, data)
        finally:
            os.close(fd)  # also releases the lock

    def read(self) -> dict[str, int]:
        """The totals so far; raises ``OSError`` when the file cannot be read."""
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            return {}
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
            return _parse(_read_all(fd))
        finally:
            os.close(fd)


class RedisTotals:
    """Totals in one Redis hash, added with HINCRBY (atomic across instances)."""

    scope = "every instance sharing the Redis"

    def __init__(self, client, key: str) -> None:
        self.client = client
        self.key = key

    def add(self, counts: dict[str, int]) -> None:
        """Add ``counts`` to the totals; raises ``redis.RedisError`` when Redis fails."""
        pipe = self.client.pipeline(transaction=False)
        for name, value in counts.items():
            pipe.hincrby(self.key, name, value)
        pipe.execute()

    def read(self) -> dict[str, int]:
        """The totals so far; raises ``redis.RedisError`` when Redis fails."""
        raw = self.client.hgetall(self.key)
        return _clean({name.decode(): int(value) for name, value in raw.items()})


class Stats:
    """This worker's counters, mirrored into shared totals when there are any."""

    def __init__(self, totals: FileTotals | RedisTotals | None, log, breaker) -> None:
        self.totals = totals
        self.log = log
        self.breaker = breaker
        self._lock = threading.Lock()
        self._local = dict.fromkeys(COUNTERS, 0)

    def add(self, **counts: int) -> None:
        """Count events (names from ``COUNTERS``) here and in the totals; never raises."""
        counts = {name: value for name, value in counts.items() if value}
        if not counts:
            return
        with self._lock:
            for name, value in counts.items():
                self._local[name] += value
        if self.totals is None or not self.breaker.allows():
            return
        try:
            self.totals.add(counts)
        except Exception as error:  # the store failing must not fail the request
            self.breaker.trip()
            with self._lock:
                self._local["cache_errors"] += 1
            self.log.warning("stats", "cannot update the shared counters: %s", error)

    def local(self) -> dict[str, int]:
        """A copy of this worker's counters."""
        with self._lock:
            return dict(self._local)

    def snapshot(self) -> dict:
        """The /stats document: this worker's counters, and the totals (or null, with why)."""
        document = {"worker": {"pid": os.getpid(), **self.local()}, "total": None,
                    "total_scope": None}
        if self.totals is None:
            document["total_scope"] = "none: no shared cache"
            return document
        unavailable = "unavailable: the shared store did not answer"
        if not self.breaker.allows():
            document["total_scope"] = unavailable
            return document
        try:
            totals = self.totals.read()
        except Exception as error:
            self.breaker.trip()
            self.log.warning("stats", "cannot read the shared counters: %s", error)
            document["total_scope"] = unavailable
            return document
        document["total"] = {name: totals.get(name, 0) for name in COUNTERS}
        document["total_scope"] = self.totals.scope
        return document


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    return b"".join(chunks)


def _parse(data: bytes) -> dict[str, int]:
    """Counters from JSON; anything unreadable counts as a fresh start rather than an error."""
    try:
        return _clean(json.loads(data or b"{}"))
    except ValueError:
        return {}


def _clean(value: object) -> dict[str, int]:
    """The known counters of a mapping, dropping anything else."""
    if not isinstance(value, dict):
        return {}
    return {name: count for name, count in value.items()
            if name in COUNTERS and isinstance(count, int) and not isinstance(count, bool)}
