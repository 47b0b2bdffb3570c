"""A file cache with a cap: cachelib's ``FileSystemCache``, bounded and leaving no temp files.

cachelib's own bound (``threshold``) lists and re-reads the whole folder on
every set (about 32 ms a set at a few thousand entries) and evicts by expiry
time, which is 0 for every entry here.  This cache instead:

- keeps at most ``max_entries`` files in its folder (plus a slack, below),
  evicting the least recently used first: a file's mtime is when it was
  written, moved forward whenever a worker reads it from the folder (a worker
  that holds an entry in memory does not read it again, so "used" means
  "needed by a worker that did not have it");
- sweeps in amortised steps: each worker counts its own writes and, every
  ``sweep_every`` writes (``max_entries // 50``, at least 1), lists the
  folder's names once under a ``flock`` taken without waiting, so one worker
  sweeps at a time and the others go on.  The sweep runs in a real thread
  (web/runtime/offload.py), not on gevent's event loop: file calls do not
  yield to other greenlets, and a sweep over 50,000 files takes about half a
  second, for which every other connection of the worker (``/livez``
  included) would wait (bench/sweep_probe.py).  The write that triggered it
  waits for it.  Only a sweep that finds more than
  ``max_entries`` files reads their times (a stat each) and removes the
  oldest down to 90% of the cap, so that happens once per ``max_entries / 10``
  writes at most;
- slack: between two sweeps each of W workers writes at most ``sweep_every``
  entries, so the folder holds at most ``max_entries + W * sweep_every`` files
  (2 workers: the cap plus 4%), plus the writes in flight;
- writes through a temp file that is removed whatever goes wrong (cachelib
  leaves it behind when a write fails, e.g. on a full disk), and every sweep
  (one at start-up too) removes temp files older than ``STALE_TEMP_SECONDS``
  (a worker killed mid-write leaves one).

Evicting is always safe: a missing entry is a miss, and the position is
searched again.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import struct
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from flask import Flask
from flask_caching.backends.filesystemcache import FileSystemCache

from web.runtime.offload import off_event_loop

logger = logging.getLogger(__name__)

# A temp file this old belongs to no write in progress (a write takes milliseconds).
STALE_TEMP_SECONDS = 60.0
# A sweep that finds the folder over its cap trims it to this share of the cap.
LOW_WATER = 0.9
# Each worker sweeps once per this share of the cap written by it.
SWEEP_SHARE = 50
# How the name of a file being written ends (cachelib's, kept so that both name them alike).
TEMP_SUFFIX: str = FileSystemCache._fs_transaction_suffix


class BoundedFileCache(FileSystemCache):
    """cachelib's ``FileSystemCache`` with at most about ``max_entries`` files (see the module)."""

    def __init__(self, cache_dir: str, max_entries: int, sweep_lock: str, **kwargs: Any) -> None:
        kwargs["threshold"] = 0  # cachelib's own bound is replaced by the sweep
        super().__init__(cache_dir, **kwargs)
        self.max_entries = max_entries
        self.sweep_every = max(1, max_entries // SWEEP_SHARE)
        self.sweep_lock = Path(sweep_lock)
        self._writes = 0
        self._writes_lock = threading.Lock()
        self._off_loop = off_event_loop(threads=1)  # one sweep at a time (see the sweep lock)
        self.sweep()  # at start-up: stale temp files, and a cap lowered since the last run

    @classmethod
    def factory(
        cls, app: Flask, config: dict[str, Any], args: list[Any], kwargs: dict[str, Any]
    ) -> BoundedFileCache:
        """Built by flask-caching from ``CACHE_DIR`` and ``CACHE_OPTIONS`` (max_entries, sweep_lock)."""
        kwargs["hash_method"] = config["CACHE_FILE_HASH_METHOD"]
        return cls(config["CACHE_DIR"], *args, **kwargs)

    def path_of(self, key: str) -> Path:
        """The file that holds ``key``'s entry, whether it is there or not."""
        return Path(self._get_filename(key))

    def get(self, key: str) -> Any:
        """cachelib's ``get``; a hit moves the file's mtime forward (it was used)."""
        value = super().get(key)
        if value is not None:
            # Gone since (evicted) or a folder that broke: the read stands anyway.
            with contextlib.suppress(OSError):
                os.utime(self.path_of(key))
        return value

    def set(self, key: str, value: Any, timeout: Any = None, mgmt_element: bool = False) -> bool:
        """Write ``value`` for ``key`` through a temp file that never outlives the call.

        False (logged by the caller) when the write fails; a sweep follows every
        ``sweep_every`` successful writes of this worker.
        """
        expires = self._normalize_timeout(timeout)
        filename = self.path_of(key)
        try:
            fd, temp = tempfile.mkstemp(suffix=TEMP_SUFFIX, dir=self._path)
        except OSError as error:
            logger.warning("cannot create a cache file: %s", error.strerror)
            return False
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(struct.pack("I", expires))
                self.serializer.dump(value, file)
            os.chmod(temp, self._mode or 0o600)
            os.replace(temp, filename)
        except BaseException as error:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            if isinstance(error, OSError):
                logger.warning("cannot write a cache file: %s", error.strerror)
                return False
            raise
        self._count_write()
        return True

    def _count_write(self) -> None:
        with self._writes_lock:
            self._writes += 1
            seen = self._writes
        # While another worker sweeps, the count stands and the next write tries
        # again: a skipped sweep must not let this worker write another interval.
        if seen >= self.sweep_every and self._off_loop(self.sweep) is not None:
            with self._writes_lock:
                self._writes -= seen  # writes made during the sweep count towards the next

    def sweep(self) -> int | None:
        """Remove stale temp files and, over the cap, the least recently used entries.

        Returns the number of entries removed, or None when another worker is
        sweeping (or the folder cannot be swept: logged).  Never raises.
        """
        try:
            fd = os.open(self.sweep_lock, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as error:
            logger.warning("cannot open the cache's sweep lock: %s", error.strerror)
            return None
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as error:
                if error.errno not in (errno.EAGAIN, errno.EWOULDBLOCK):
                    logger.warning("cannot take the cache's sweep lock: %s", error.strerror)
                return None
            return self._sweep_locked()
        except OSError as error:
            logger.warning("cannot sweep the cache folder: %s", error.strerror)
            return None
        finally:
            os.close(fd)  # and so the flock goes too

    def _sweep_locked(self) -> int:
        # Names first (no stat per file): the folder is over its cap only once
        # in many sweeps, and only then are the entries' times needed.
        now = time.time()
        entries: list[str] = []
        with os.scandir(self._path) as listing:
            for item in listing:
                if not item.name.endswith(TEMP_SUFFIX):
                    entries.append(item.path)
                elif now - modified_time(item.path, default=now) > STALE_TEMP_SECONDS:
                    remove(item.path)
        if len(entries) <= self.max_entries:
            return 0
        # A file gone since the listing (replaced, evicted) sorts first and is skipped.
        by_age = sorted(entries, key=lambda path: modified_time(path, default=0.0))
        excess = len(entries) - int(self.max_entries * LOW_WATER)
        for path in by_age[:excess]:
            remove(path)
        logger.info(
            "cache over its cap of %d entries: removed the %d least recently used", self.max_entries, excess
        )
        return excess


def modified_time(path: str, default: float) -> float:
    """The mtime of ``path``, or ``default`` when it is gone."""
    try:
        return os.stat(path, follow_symlinks=False).st_mtime
    except FileNotFoundError:
        return default


def remove(path: str) -> None:
    """Unlink ``path`` if it is still there."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
