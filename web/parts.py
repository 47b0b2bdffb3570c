"""The parts ``create_app`` (web/assembly.py) makes for an app, reached by their types.

Each part is made once, in the order ``create_app`` lists, and attached to its app
as one ``Parts``: views reach the running app's with ``current()``, tests and
tools any app's with ``parts(app)``, never through a string key of Flask's
``app.extensions``.  Every part's module lies below this one (an import-linter
contract, type-checking imports counted), so each part is named by its real
type and nothing imports back up.  The rooms, above, keep their own accessor
(``web.rooms.rooms_of``).
"""

from __future__ import annotations

from dataclasses import dataclass

from web.cache import SolvedPositions
from web.cache.health import HealthCheck
from web.config import Settings
from web.runtime.app_entry import AppEntry
from web.searches.lab_runs import TeachingRuns, TracedRuns
from web.searches.rate_limit import SearchAllowance
from web.searches.slots import SearchSlots
from web.telemetry.metrics import Metrics


@dataclass(frozen=True)
class Parts:
    """An app's parts: its settings, metrics, search slots (with the per-client allowance, if on),
    solved positions (the shared cache), the cache's health check, and the lab's searches: the
    teaching engines' results and traces kept and shared per worker."""

    settings: Settings
    metrics: Metrics
    allowance: SearchAllowance | None
    slots: SearchSlots
    solved: SolvedPositions
    health: HealthCheck
    teaching: TeachingRuns
    traces: TracedRuns


_ENTRY: AppEntry[Parts] = AppEntry("tictactoe")  # the one entry of app.extensions: the parts, together
# Attach an app's parts (``create_app`` does, once); ``app``'s parts; the current request's app's.
attach = _ENTRY.attach
parts = _ENTRY.of
current = _ENTRY.current
