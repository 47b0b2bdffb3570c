"""The one clock every search runs against: its deadline, its progress reports, its exception.

A search counts its nodes and, every batch of nodes (not every node: reading
the time costs more than a node of a small search), asks its ``Clock``
whether to go on.  The solver and the teaching engines call ``check``, which
raises ``SearchTimeout`` past the deadline; the deepening search calls the
clock as its poll, which answers True instead.  Deadlines are instants of
the clock's ``Timer``: ``time.monotonic()`` by default (``WALL_TIME``); None
means no limit.

A ``NodeTime`` timer counts nodes instead of seconds: each search's nodes
cost the seconds its ``rates`` give them, so a budget in seconds becomes a
budget in nodes that gives the same answer on a loaded machine as on an idle
one (the tactics suite's load-free figure, ``bench/tactics_suite.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

# progress(nodes, seconds): the nodes searched so far and the seconds since the start.
Progress = Callable[[int, float], None]

PROGRESS_SECONDS = 0.5  # how often (at most) progress is reported


class SearchTimeout(Exception):
    """The deadline passed before the search finished."""


class Timer(Protocol):
    """Where the searches of a move read the time, and charge the nodes they visit."""

    def now(self) -> float:
        """The current instant, in seconds."""
        ...

    def charge(self, search: str, nodes: int) -> None:
        """Count ``nodes`` more nodes of the search called ``search`` (``THREATS``, ``DEEPENING``)."""
        ...


# The searches a move runs, by the names their nodes are charged under.
THREATS = "threats"
DEEPENING = "deepening"


class WallTime:
    """The real clock, ``time.monotonic()``: nodes cost the time they take."""

    def now(self) -> float:
        """``time.monotonic()``."""
        return time.monotonic()

    def charge(self, search: str, nodes: int) -> None:
        """Nothing to count: the clock moves by itself."""


WALL_TIME = WallTime()


class NodeTime:
    """Time counted in nodes: a node of search ``name`` costs ``1 / rates[name]`` seconds.

    Starts at 0 and moves only as the searches charge their nodes, so what a
    search does by a deadline of this timer depends on nothing but its nodes.
    """

    def __init__(self, rates: dict[str, float]) -> None:
        self.rates = rates
        self.seconds = 0.0
        self.nodes = dict.fromkeys(rates, 0)

    def now(self) -> float:
        """The seconds the nodes charged so far are worth."""
        return self.seconds

    def charge(self, search: str, nodes: int) -> None:
        """Count ``nodes`` more nodes of ``search``; raises ``KeyError`` for a search without a rate."""
        self.seconds += nodes / self.rates[search]
        self.nodes[search] += nodes


class Clock:
    """One search's deadline and progress reports, timed from the clock's creation.

    ``timer`` is where the time is read (the wall clock by default); the nodes
    the search reports (``__call__``, ``check``, ``settle``: its running count)
    are charged to it as the nodes of ``search``.
    """

    def __init__(
        self,
        deadline: float | None = None,
        progress: Progress | None = None,
        timer: Timer = WALL_TIME,
        search: str = THREATS,
    ) -> None:
        self.deadline = deadline
        self.progress = progress
        self.timer = timer
        self.search = search
        self.charged = 0  # of the search's running count
        self.start = self.last_report = timer.now()

    def elapsed(self) -> float:
        """Seconds since the search started."""
        return self.timer.now() - self.start

    def expired(self) -> bool:
        """Whether the deadline (if any) has passed."""
        return self.deadline is not None and self.timer.now() >= self.deadline

    def settle(self, nodes: int) -> None:
        """Charge the timer for the search's running count ``nodes`` (what it has not been charged yet)."""
        if nodes > self.charged:
            self.timer.charge(self.search, nodes - self.charged)
            self.charged = nodes

    def __call__(self, nodes: int) -> bool:
        """Report progress when it is due; answer whether the deadline has passed (the poll form)."""
        self.settle(nodes)
        now = self.timer.now()
        if self.progress is not None and now - self.last_report >= PROGRESS_SECONDS:
            self.last_report = now
            self.progress(nodes, now - self.start)
        return self.deadline is not None and now >= self.deadline

    def check(self, nodes: int) -> None:
        """Report progress when it is due; raise ``SearchTimeout`` once the deadline has passed."""
        if self(nodes):
            raise SearchTimeout()


__all__ = [
    "DEEPENING",
    "PROGRESS_SECONDS",
    "THREATS",
    "WALL_TIME",
    "Clock",
    "NodeTime",
    "Progress",
    "SearchTimeout",
    "Timer",
    "WallTime",
]
