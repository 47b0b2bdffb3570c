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

Totals live beside the cache: a file of per-process slots for the file-system
cache (every worker of the machine), a Redis hash for Redis (every instance).
With no shared cache there is no total, only this worker's counts.
"""

from __future__ import annotations

import fcntl
import mmap
import os
import struct
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from .breaker import Breaker
from .throttled_log import ThrottledLog

if TYPE_CHECKING:
    import redis

COUNTERS = ("hits", "misses", "searches", "waited", "stored", "unproven", "invalid", "busy",
            "cache_errors")


class SlotTotals:
    """Totals in a file of slots, one per worker process, summed when read.

    Each process claims a slot of its own (appended under ``flock``), maps it
    into memory and writes its counters there: a count is a store into shared
    memory, with no system call and no lock between workers.  A slot is a page,
    so that each can be mapped on its own::

        slot 0: | pid | hits | misses | searches | ... |   (int64, little-endian)
        slot 1: | pid | hits | misses | searches | ... |
    """

    scope = "every worker sharing the cache folder"
    SLOT_BYTES = mmap.ALLOCATIONGRANULARITY
    LAYOUT = struct.Struct(f"<{1 + len(COUNTERS)}q")

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._slot: mmap.mmap | None = None
        self._pid = 0

    def add(self, counts: dict[str, int]) -> None:
        """Add ``counts`` to this process's slot; raises ``OSError`` when it cannot be claimed."""
        with self._lock:
            slot = self._own_slot()
            values = list(self.LAYOUT.unpack_from(slot))
            for name, value in counts.items():
                values[1 + COUNTERS.index(name)] += value
            self.LAYOUT.pack_into(slot, 0, *values)

    def read(self) -> dict[str, int]:
        """The sums over every slot; raises ``OSError`` when the file cannot be read."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        totals = dict.fromkeys(COUNTERS, 0)
        for start in range(0, len(data) - self.SLOT_BYTES + 1, self.SLOT_BYTES):
            values = self.LAYOUT.unpack_from(data, start)
            for name, value in zip(COUNTERS, values[1:], strict=True):
                totals[name] += value
        return totals

    def _own_slot(self) -> mmap.mmap:
        """This process's mapped slot, claimed on first use (and again after a fork)."""
        if self._slot is not None and self._pid == os.getpid():
            return self._slot
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            size = os.fstat(fd).st_size
            offset = size - size % self.SLOT_BYTES  # a torn tail from a crash is overwritten
            os.ftruncate(fd, offset + self.SLOT_BYTES)
            slot = mmap.mmap(fd, self.SLOT_BYTES, offset=offset)
        finally:
            # mmap keeps a duplicate of the descriptor, so closing ours would not
            # release the lock: release it explicitly.
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
        self.LAYOUT.pack_into(slot, 0, os.getpid(), *[0] * len(COUNTERS))
        self._slot, self._pid = slot, os.getpid()
        return slot


class RedisTotals:
    """Totals in one Redis hash, added with HINCRBY (atomic across instances)."""

    scope = "every instance sharing the Redis"

    def __init__(self, client: redis.Redis, key: str) -> None:
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
        return _clean({name.decode() if isinstance(name, bytes) else name: int(value)
                       for name, value in raw.items()})


class Stats:
    """This worker's counters, mirrored into shared totals when there are any."""

    def __init__(self, totals: SlotTotals | RedisTotals | None, log: ThrottledLog,
                 breaker: Breaker) -> None:
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

    def snapshot(self) -> dict[str, object]:
        """The /stats document: this worker's counters, and the totals (or null, with why)."""
        document: dict[str, object] = {"worker": {"pid": os.getpid(), **self.local()}, "total": None,
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


def _clean(value: object) -> dict[str, int]:
    """The known counters of a mapping, dropping anything else."""
    if not isinstance(value, dict):
        return {}
    return {name: count for name, count in value.items()
            if name in COUNTERS and isinstance(count, int) and not isinstance(count, bool)}
