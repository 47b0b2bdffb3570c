"""Errors as responses: JSON ``{"error": "..."}`` for the API, a small HTML page for browsers.

Every error the app can meet is turned into a response here, so the API never
answers with an HTML error page, a stack trace or a file path.  An error is
HTML only when the client asks for a page (a browser navigating to a page
URL); everything else, and anything under the API's paths, is JSON.
"""

from __future__ import annotations

import logging

from flask import Flask, Response, current_app, jsonify, render_template_string, request
from markupsafe import escape
from werkzeug.exceptions import ClientDisconnected, HTTPException, InternalServerError

from tictactoe import IllegalPositionError
from web.http.body_framing import MalformedBody
from web.http.error_body import error_body

logger = logging.getLogger(__name__)

# The blueprints whose routes are the API: errors there (and under /api/) are always JSON.
API_BLUEPRINT = "api"
POSITIONS_BLUEPRINT = "positions"
TRACES_BLUEPRINT = "traces"
ROOMS_BLUEPRINT = "rooms"
PUZZLES_BLUEPRINT = "puzzles"
API_BLUEPRINTS = frozenset(
    {API_BLUEPRINT, POSITIONS_BLUEPRINT, TRACES_BLUEPRINT, ROOMS_BLUEPRINT, PUZZLES_BLUEPRINT}
)
# Where the API's paths carry variables (/rooms/<room_id>/moves), by their fixed start.
API_PREFIXES = ("/api/", "/rooms/", "/puzzles/")
MAX_BODY_BYTES = 16 * 1024  # far more than a 15x15 board needs

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ status }} {{ title }}</title></head>
<body><h1>{{ status }} {{ title }}</h1><p>{{ message }}</p></body></html>
"""


class ApiError(Exception):
    """An error with the HTTP status and the message the client gets."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def api_paths(app: Flask) -> frozenset[str]:
    """The paths of the API blueprints' routes, read from ``app``'s URL map (once per app)."""
    paths: frozenset[str] | None = app.extensions.get("api_paths")
    if paths is None:
        # Routes are all added before the first request, so one read is enough.
        paths = app.extensions["api_paths"] = frozenset(
            rule.rule
            for rule in app.url_map.iter_rules()
            if rule.endpoint.partition(".")[0] in API_BLUEPRINTS
        )
    return paths


def is_api_path(path: str) -> bool:
    """Whether ``path`` is the API's (a route of its blueprints, or anything under ``API_PREFIXES``)."""
    return path in api_paths(current_app) or path.startswith(API_PREFIXES)


def wants_html() -> bool:
    """Whether this error should be a page: a non-API path whose client prefers HTML."""
    if is_api_path(request.path):
        return False
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return (
        best == "text/html" and request.accept_mimetypes[best] > request.accept_mimetypes["application/json"]
    )


def error_response(status: int, message: str, title: str = "") -> Response:
    """The error as JSON, or as a small escaped HTML page for a browser."""
    if wants_html():
        response = Response(
            render_template_string(_PAGE, status=status, title=title or "Error", message=escape(message)),
            status=status,
            mimetype="text/html",
        )
    else:
        response = jsonify(error_body(message))
        response.status_code = status
    return response


def init_app(app: Flask) -> None:
    """Install the handlers that turn every error into a JSON (or page) response."""

    @app.errorhandler(ApiError)
    def api_error(error: ApiError) -> Response:
        return error_response(error.status, error.message)

    @app.errorhandler(IllegalPositionError)
    def illegal_position(error: IllegalPositionError) -> Response:
        return error_response(409, str(error))

    @app.errorhandler(ClientDisconnected)
    def body_cut_short(error: ClientDisconnected) -> Response:
        # werkzeug's stream raises this for any failed read of the body; what failed is its context.
        # The server's read timeout (gunicorn.conf.py) ran out while the body was awaited:
        if isinstance(error.__context__, TimeoutError):
            return error_response(408, "the request body stopped arriving: send it at once")
        # The body's chunked framing is broken (web/http/body_framing.py):
        if isinstance(error.__context__, MalformedBody):
            return error_response(400, str(error.__context__))
        response: Response = http_error(error)
        return response

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        message = (_MESSAGES.get(error.code) if error.code else None) or (error.description or error.name)
        if error.code == 405:
            # werkzeug's MethodNotAllowed carries the methods the route takes.
            valid = getattr(error, "valid_methods", None) or ()
            allowed = ", ".join(sorted(set(valid) - {"HEAD", "OPTIONS"}))
            message = f"{request.method} is not allowed on {request.path}: use {allowed}"
        response = error_response(error.code or 500, message, error.name)
        for name in ("Allow", "Retry-After"):
            value = dict(error.get_headers()).get(name)
            if value:
                response.headers[name] = value
        return response

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        # Logged with its traceback for us; the client only learns that it failed.
        logger.exception("unhandled error on %s %s", request.method, request.path)
        # ``name`` is a property of werkzeug's exceptions: an instance has it, the class not.
        return error_response(
            500, "internal error: the server could not answer this request", InternalServerError().name
        )


_MESSAGES = {
    404: "no such resource: see /openapi.json for the API",
    413: f"the body is too large: at most {MAX_BODY_BYTES // 1024} KiB",
}
