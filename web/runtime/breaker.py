"""A circuit breaker for the cache backend: after a failure, leave it alone for a moment.

A Redis that refuses connections fails in microseconds, but one that is
unreachable or hung (a dropped route, a paused server) fails only after its
timeout, on every operation of every request.  Once an operation has failed,
the breaker makes the next ones skip the backend for ``cooldown`` seconds.

When the cooldown is over, who finds out whether the backend is back?  With a
``trial`` (the health probe, web/cache/health.py: short timeout, one at a time), the
trial does, in a thread of its own, while requests keep skipping the backend;
it closes the breaker (``reset``) or opens it again (``trip``).  So requests
pay a hung backend's timeout once per outage, not once per cooldown.  Without
a trial the next operation is the trial itself (the file cache: a folder fails
at once, and its cooldown is 0).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

DEFAULT_COOLDOWN = 2.0


class Breaker:
    """Open for ``cooldown`` seconds after ``trip()``, then until a trial says; thread-safe."""

    def __init__(self, cooldown: float = DEFAULT_COOLDOWN) -> None:
        self.cooldown = cooldown
        self._lock = threading.Lock()
        self._open = False
        self._open_until = 0.0
        self._trial: Callable[[], object] | None = None
        self._trial_running = False
        self.trips = 0  # failures so far: a health result older than the last one is stale

    def set_trial(self, trial: Callable[[], object]) -> None:
        """After the cooldown, run ``trial()`` (which must ``reset()`` or ``trip()``) to decide."""
        self._trial = trial

    def allows(self) -> bool:
        """Whether the backend may be used now (the breaker is closed)."""
        with self._lock:
            if not self._open:
                return True
            if time.monotonic() < self._open_until:
                return False
            trial = self._trial
            if trial is None:
                return True
            start_trial = not self._trial_running
            self._trial_running = True
        if start_trial:
            threading.Thread(target=self._run_trial, args=(trial,), name="breaker-trial", daemon=True).start()
        return False

    def trip(self) -> None:
        """A backend operation failed: skip the backend for the cooldown."""
        with self._lock:
            self._open = True
            self._open_until = time.monotonic() + self.cooldown
            self.trips += 1

    def reset(self) -> None:
        """The backend answered: use it again at once."""
        with self._lock:
            self._open = False
            self._open_until = 0.0

    def _run_trial(self, trial: Callable[[], object]) -> None:
        try:
            trial()
        finally:
            with self._lock:
                self._trial_running = False
