"""The parts ``create_app`` (web/assembly.py) makes for an app, reached by their types.

Each part is made once, in the order ``create_app`` lists, and attached to its app
as one ``Parts``: views reach the running app's with ``current()``, tests and
tools any app's with ``parts(app)``, never through a string key of Flask's
``app.extensions``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask import Flask, current_app

if TYPE_CHECKING:  # the types only: each part's own module imports this one's layer, not the reverse
    from web.api.teaching import TeachingRuns
    from web.api.traces import TracedRuns
    from web.cache import SolvedPositions
    from web.cache.health import HealthCheck
    from web.config import Settings
    from web.puzzles import Puzzles
    from web.rooms import Rooms
    from web.searches.rate_limit import SearchAllowance
    from web.searches.slots import SearchSlots
    from web.telemetry.metrics import Metrics

_KEY = "tictactoe"  # the one entry of app.extensions: the parts, together


@dataclass(frozen=True)
class Parts:
    """An app's parts: its settings, metrics, search slots (with the per-client allowance, if on),
    solved positions (the shared cache), the cache's health check, and the lab's searches: the
    teaching engines' results and traces kept and shared per worker; the rooms two browsers share;
    the puzzles (their page's maker)."""

    settings: Settings
    metrics: Metrics
    allowance: SearchAllowance | None
    slots: SearchSlots
    solved: SolvedPositions
    health: HealthCheck
    teaching: TeachingRuns
    traces: TracedRuns
    rooms: Rooms
    puzzles: Puzzles


def attach(app: Flask, made: Parts) -> None:
    """Attach ``made`` to ``app`` (``create_app`` does, once)."""
    app.extensions[_KEY] = made


def parts(app: Flask) -> Parts:
    """``app``'s parts."""
    found: Parts = app.extensions[_KEY]
    return found


def current() -> Parts:
    """The parts of the app handling the current request."""
    return parts(current_app)
