"""The app, assembled in one place: ``create_app`` lists every part, hook and WSGI layer in order.

A request meets them as docs/architecture.md draws it: gunicorn (its own
answers, the connection cap, the body's deadline), then the WSGI layers from the
outside in (only ``ProxyFix``, behind trusted proxies), then Flask: the
``before_request`` hooks in the order they are attached, the view, the
``after_request`` hooks in the reverse order, the error handlers for what a view
raises.  Each part is attached by its module's ``init_app`` and reached later
by its type (web/parts.py).  Settings come from environment variables
(docs/deploy.md); ``create_app(config)`` takes the same names as overrides,
which is how the tests configure it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider
from werkzeug.middleware.proxy_fix import ProxyFix

from web import cache, parts, puzzles, rooms
from web.api import positions, traces
from web.api import routes as api
from web.cache import health
from web.config import load_settings
from web.http import compression, errors, protocol, security
from web.pages import app_manifest, service_worker, static_files
from web.pages import routes as pages
from web.searches import lab_runs, rate_limit
from web.searches import slots as search_slots
from web.telemetry import request_log
from web.telemetry.metrics import Metrics
from web.words import babel, catalogs, languages, speech

# The checkout's folder, beside this package: where app.py, templates/ and static/ are.
CHECKOUT = Path(__file__).resolve().parent.parent


class CompactJSON(DefaultJSONProvider):
    """JSON answers as the code builds them: fields in their order, no spaces."""

    sort_keys = False
    compact = True


class MoveServer(Flask):
    """Flask, with each hook's and view's ``async def`` check made once, not on every request.

    Flask asks ``ensure_sync`` of every hook and view on every request, an ``inspect``
    check each time; a cached /move runs seven of them (its view and six hooks).
    """

    def __init__(self, import_name: str, root_path: str) -> None:
        super().__init__(import_name, root_path=root_path)
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
    """A configured app; raises ``web.config.ConfigError`` for a bad setting."""
    settings = load_settings(overrides=config)
    app = MoveServer("app", str(CHECKOUT))
    app.config.update(
        DEBUG=False,
        PROPAGATE_EXCEPTIONS=False,  # every error becomes a JSON (or page) response
        SETTINGS=settings,
    )
    app.json = CompactJSON(app)

    # WSGI layers, outermost last: the client's address and scheme as the trusted proxies say.
    if settings.trusted_proxies:
        proxies = settings.trusted_proxies
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]

    # after_request hooks run in the reverse order of these lines: compression last of all
    # (it compresses the finished answer and renames its ETag), the security headers first.
    compression.init_app(app, skip=api.MOVE_PATH)
    metrics = Metrics()
    request_log.init_app(app, observe=metrics.observe_request)  # before_request: the clock and the id
    protocol.init_app(app, errors.MAX_BODY_BYTES)  # before_request: bodies over the limit refused
    security.init_app(app, settings.frame_ancestors)

    # The parts: the per-client allowance, the search slots, the shared cache and its health.
    allowance = rate_limit.init_app(app, settings)
    slots = search_slots.SearchSlots(
        budget=settings.search_budget,
        max_searches=settings.max_concurrent_searches,
        table_limit=settings.solver_table_limit,
        allowance=None if allowance is None else rate_limit.RequestAllowance(allowance),
        client=rate_limit.requesting_client,
        queue_wait=settings.search_queue_wait,
        observe_wait=metrics.observe_wait,
    )
    search_slots.init_app(app)  # 503 for a search that found no slot in time
    solved = cache.init_app(app, settings, slots, metrics)
    checked = health.init_app(app, settings, solved.backend)
    # The games two browsers share: their store (files, or Redis), streams and routes.
    rooms.init_app(app, settings, metrics)
    # The proven puzzles' routes; a browser asking for their page gets the pages room's.
    puzzles.init_app(app, page=pages.puzzles_page)

    # The words in the reader's language: each language's catalog compiled where it is missing or
    # older than its source, then Flask-Babel with its locale selector (web/words/languages.py), and
    # the Vary of an answer whose words followed Accept-Language.
    catalogs.compile_catalogs()
    babel.init_app(
        app,
        locale_selector=languages.catalog_name,
        default_translation_directories=str(catalogs.FOLDER),
    )
    speech.init_app(app)

    # The error handlers, then the routes.
    errors.init_app(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(positions.bp)
    app.register_blueprint(traces.bp)
    app.register_blueprint(pages.bp)
    static_files.init_app(app, settings.static_max_age)
    # The game as an installable app that plays offline: its manifest and its service worker.
    app_manifest.init_app(app)
    service_worker.init_app(app)

    kept, traced = lab_runs.kept_runs(), lab_runs.kept_traces()
    made = parts.Parts(settings, metrics, allowance, slots, solved, checked, kept, traced)
    parts.attach(app, made)
    return app
