"""The one clock every search runs against: its deadline, its progress reports, its exception.

A search counts its nodes and, every batch of nodes (not every node: reading
the time costs more than a node of a small search), asks its ``Clock``
whether to go on.  The solver and the teaching engines call ``check``, which
raises ``SearchTimeout`` past the deadline; the deepening search calls the
clock as its poll, which answers True instead.  Deadlines are
``time.monotonic()`` instants; None means no limit.
"""

from __future__ import annotations

import time
from collections.abc import Callable

# progress(nodes, seconds): the nodes searched so far and the seconds since the start.
Progress = Callable[[int, float], None]

PROGRESS_SECONDS = 0.5  # how often (at most) progress is reported


class SearchTimeout(Exception):
    """The deadline passed before the search finished."""


class Clock:
    """One search's deadline and progress reports, timed from the clock's creation."""

    def __init__(self, deadline: float | None = None, progress: Progress | None = None) -> None:
        self.deadline = deadline
        self.progress = progress
        self.start = self.last_report = time.monotonic()

    def elapsed(self) -> float:
        """Seconds since the search started."""
        return time.monotonic() - self.start

    def expired(self) -> bool:
        """Whether the deadline (if any) has passed."""
        return self.deadline is not None and time.monotonic() >= self.deadline

    def __call__(self, nodes: int) -> bool:
        """Report progress when it is due; answer whether the deadline has passed (the poll form)."""
        now = time.monotonic()
        if self.progress is not None and now - self.last_report >= PROGRESS_SECONDS:
            self.last_report = now
            self.progress(nodes, now - self.start)
        return self.deadline is not None and now >= self.deadline

    def check(self, nodes: int) -> None:
        """Report progress when it is due; raise ``SearchTimeout`` once the deadline has passed."""
        if self(nodes):
            raise SearchTimeout()


__all__ = ["Clock", "Progress", "SearchTimeout", "PROGRESS_SECONDS"]
