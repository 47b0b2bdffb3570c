"""A warning log that speaks at most once a minute per topic, so an outage does not flood it."""

from __future__ import annotations

import logging
import threading
import time

DEFAULT_INTERVAL = 60.0


class ThrottledLog:
    """Log warnings at most once per ``interval`` seconds per topic, counting what it held back."""

    def __init__(self, logger: logging.Logger, interval: float = DEFAULT_INTERVAL) -> None:
        self.logger = logger
        self.interval = interval
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}
        self._held: dict[str, int] = {}

    def warning(self, topic: str, message: str, *args: object) -> bool:
        """Log ``message % args`` unless ``topic`` spoke within the interval; True if logged."""
        now = time.monotonic()
        with self._lock:
            last = self._last.get(topic)
            if last is not None and now - last < self.interval:
                self._held[topic] = self._held.get(topic, 0) + 1
                return False
            self._last[topic] = now
            held = self._held.pop(topic, 0)
        if held:
            message += " (%d more like this since the last report)"
            args = (*args, held)
        self.logger.warning(message, *args)
        return True


class LibraryLogThrottle(logging.Filter):
    """A filter that lets a library's log records through at most once per interval per call site.

    cachelib reports a failing cache folder with ``logging.warning`` on the root
    logger, a traceback on every request; installed on the root logger, this
    keeps the first report of each kind per interval and drops the repeats.
    """

    def __init__(self, path_fragment: str, interval: float = DEFAULT_INTERVAL) -> None:
        super().__init__()
        self.path_fragment = path_fragment
        self.interval = interval
        self._lock = threading.Lock()
        self._last: dict[tuple[str, int], float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether to keep the record: always for other code, once per interval for the library."""
        if self.path_fragment not in record.pathname:
            return True
        site = (record.pathname, record.lineno)
        now = time.monotonic()
        with self._lock:
            last = self._last.get(site)
            if last is not None and now - last < self.interval:
                return False
            self._last[site] = now
        return True


def throttle_library_logs(path_fragment: str) -> None:
    """Install a ``LibraryLogThrottle`` for ``path_fragment`` on the root logger, once."""
    root = logging.getLogger()
    if not any(isinstance(f, LibraryLogThrottle) and f.path_fragment == path_fragment for f in root.filters):
        root.addFilter(LibraryLogThrottle(path_fragment))
