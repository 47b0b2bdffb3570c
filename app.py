"""The web app: ``create_app()`` builds it; ``gunicorn app:app`` serves the one built below.

Settings come from environment variables (docs/deploy.md); ``create_app(config)``
takes the same names as overrides, which is how the tests configure it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider

from web import cache
from web.api import positions, traces
from web.api import routes as api
from web.cache import health
from web.http import compression, errors, protocol, security
from web.operations import metrics, request_log
from web.operations.config import load_settings
from web.pages import routes as pages
from web.pages import static_files
from web.searches import rate_limit
from web.searches import slots as search_slots


class CompactJSON(DefaultJSONProvider):
    """JSON answers as the code builds them: fields in their order, no spaces."""

    sort_keys = False
    compact = True


class MoveServer(Flask):
    """Flask, with each hook's and view's ``async def`` check made once, not on every request.

    Flask asks ``ensure_sync`` of every hook and view on every request, an ``inspect``
    check each time; a cached /move runs seven of them (its view and six hooks).
    """

    def __init__(self, import_name: str) -> None:
        super().__init__(import_name)
        self._synced: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """``Flask.ensure_sync(func)``, remembered per function (one that cannot be a key is not)."""
        try:
            return self._synced[func]
        except KeyError:
            synced = self._synced[func] = super().ensure_sync(func)
            return synced
        except TypeError:  # unhashable
            return super().ensure_sync(func)


def create_app(config: Mapping[str, object] | None = None) -> Flask:
    """A configured app; raises ``web.operations.config.ConfigError`` for a bad setting."""
    settings = load_settings(overrides=config)
    app = MoveServer(__name__)
    app.config.update(
        DEBUG=False,
        PROPAGATE_EXCEPTIONS=False,  # every error becomes a JSON (or page) response
        SETTINGS=settings,
    )
    app.json = CompactJSON(app)
    # First, so that its hook runs last: it compresses the finished answer and renames its ETag.
    compression.init_app(app, skip=api.MOVE_PATH)

    measures = metrics.init_app(app)
    request_log.register(app, observe=measures.observe_request)
    slots = search_slots.SearchSlots(
        budget=settings.search_budget,
        max_searches=settings.max_concurrent_searches,
        table_limit=settings.solver_table_limit,
        allowance=rate_limit.init_app(app, settings),
        client=rate_limit.requesting_client,
        queue_wait=settings.search_queue_wait,
        observe_wait=measures.observe_wait,
    )
    solved = cache.init_app(app, settings, slots)
    app.extensions["solved_positions"] = solved
    health.init_app(app, settings, solved.backend)

    errors.register(app)
    search_slots.register(app)
    protocol.register(app, errors.MAX_BODY_BYTES)
    security.register(app, settings.frame_ancestors)
    app.register_blueprint(api.bp)
    app.register_blueprint(positions.bp)
    traces.init_app(app)
    app.register_blueprint(pages.bp)
    static_files.init_app(app, settings.static_max_age)
    return app


app = create_app()
