"""Per-key locks shared by every worker: the "one search per position" half of single-flight.

Every lock here is tried, never waited on: ``try_acquire()`` answers at once,
so the caller owns the waiting (and its bound).  A lock that cannot be reached
raises ``LockUnavailable``; the caller then searches without one.

- ``FileLocks``: ``fcntl.flock`` on one lock file per key, for the file-system
  cache (every worker on one machine).  The kernel drops the lock when its
  holder dies, so a crashed worker never leaves a position locked.
- ``RedisLocks``: redis-py's lock (``SET key token NX PX ttl``, released by a
  script that deletes the key only if it still holds this token), for every
  instance that shares the Redis.  The TTL frees the lock if its holder dies.
- ``LocalLocks``: no cache to share results through, so nothing to wait for.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import redis
    import redis.lock


class LockUnavailable(Exception):
    """The lock store could not be reached (a folder not writable, Redis down)."""


class Lock(Protocol):
    """One key's lock: tried, never waited on."""

    def try_acquire(self) -> bool:
        """Take the lock if it is free; raises ``LockUnavailable`` when its store fails."""
        ...

    def release(self) -> None:
        """Let the lock go (never raises)."""
        ...


class Locks(Protocol):
    """A store of per-key locks."""

    def lock(self, key: str) -> Lock:
        """The (not yet taken) lock for ``key``."""
        ...


class FileLock:
    """An exclusive ``flock`` on ``path``; the file is removed by its holder on release."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def try_acquire(self) -> bool:
        """Take the lock if it is free; raises ``LockUnavailable`` when the folder fails."""
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError as error:
                raise LockUnavailable(f"cannot open lock file: {error.strerror}") from error
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as error:
                os.close(fd)
                if error.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
                    return False
                raise LockUnavailable(f"cannot lock: {error.strerror}") from error
            # The previous holder unlinks the file before it unlocks it, so the
            # file we locked may no longer be the one at the path: then the lock
            # protects nothing and we start again on the current file.
            try:
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            except OSError as error:  # the folder went away or became a file
                os.close(fd)
                raise LockUnavailable(f"cannot check lock file: {error.strerror}") from error
            if same:
                self.fd = fd
                return True
            os.close(fd)

    def release(self) -> None:
        """Remove the lock file, then unlock it (so lock files do not pile up)."""
        if self.fd is None:
            return
        # Already gone, or the folder broke: closing still releases the lock.
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        os.close(self.fd)
        self.fd = None


class FileLocks:
    """Lock files in one folder, one per key (named by the key's SHA-256)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def lock(self, key: str) -> FileLock:
        """The (not yet taken) lock for ``key``."""
        name = hashlib.sha256(key.encode()).hexdigest()[:40] + ".lock"
        return FileLock(self.directory / name)


class RedisLock:
    """A redis-py lock that is only ever tried, with connection errors as ``LockUnavailable``."""

    def __init__(self, lock: redis.lock.Lock) -> None:
        self._lock = lock

    def try_acquire(self) -> bool:
        """Take the lock if it is free; raises ``LockUnavailable`` when Redis cannot be reached."""
        import redis

        try:
            return bool(self._lock.acquire(blocking=False))
        except redis.RedisError as error:
            raise LockUnavailable(f"Redis: {error}") from error

    def release(self) -> None:
        """Release if still ours; a lock that expired or a Redis that went away is let go."""
        import redis

        # LockNotOwnedError (it expired) or a connection error: it expires by itself.
        with contextlib.suppress(redis.RedisError):
            self._lock.release()


class RedisLocks:
    """Locks as Redis keys ``<prefix>lock:<key>`` that expire after ``ttl`` seconds."""

    def __init__(self, client: redis.Redis, prefix: str, ttl: float) -> None:
        self.client = client
        self.prefix = prefix
        self.ttl = ttl

    def lock(self, key: str) -> RedisLock:
        """The (not yet taken) lock for ``key``."""
        return RedisLock(self.client.lock(f"{self.prefix}lock:{key}", timeout=self.ttl, blocking=False))


class _NoLock:
    def try_acquire(self) -> bool:
        return True

    def release(self) -> None:
        pass


class LocalLocks:
    """No shared store: every lock is free at once (each request searches for itself)."""

    def lock(self, key: str) -> _NoLock:
        """A lock that is always free."""
        return _NoLock()
