"""A circuit breaker for the cache backend: after a failure, leave it alone for a moment.

A Redis that refuses connections fails in microseconds, but one that is
unreachable (a dropped route, a full network) fails only after its timeout, on
every operation of every request.  Once an operation has failed, the breaker
makes the next ones skip the backend for ``cooldown`` seconds; a successful
/healthz probe closes it at once.
"""

from __future__ import annotations

import threading
import time

DEFAULT_COOLDOWN = 2.0


class Breaker:
    """Open for ``cooldown`` seconds after ``trip()``; thread-safe."""

    def __init__(self, cooldown: float = DEFAULT_COOLDOWN) -> None:
        self.cooldown = cooldown
        self._lock = threading.Lock()
        self._open_until = 0.0
        self.trips = 0  # failures so far: a health result older than the last one is stale

    def allows(self) -> bool:
        """Whether the backend may be used now (the breaker is closed)."""
        with self._lock:
            return time.monotonic() >= self._open_until

    def trip(self) -> None:
        """A backend operation failed: skip the backend for the cooldown."""
        with self._lock:
            self._open_until = time.monotonic() + self.cooldown
            self.trips += 1

    def reset(self) -> None:
        """The backend answered: use it again at once."""
        with self._lock:
            self._open_until = 0.0
