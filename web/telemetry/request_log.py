"""One log line per request, with a request id that the response echoes.

The id is the router's ``X-Request-ID`` when it sent a sane one (Heroku and
most PaaS routers do: it ties the app's line to the router's), else a new one.
"Sane" means 1 to 200 characters from a safe set, so a client cannot forge log
structure or flood a line through the header.  Views add what they learn with
``note()``: the cache outcome (``hit``, ``miss``, ``search``, ``busy``) and the
board (``3x3k3``).  No request body and no header other than the id is logged.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from typing import Any, Protocol

from flask import Flask, Response, g, has_request_context, request

from web.runtime.per_process import RANDOM, process_id
from web.telemetry.logs import REQUEST_FIELDS, REQUEST_LOGGER, JsonFormatter, TextFormatter

logger = logging.getLogger(REQUEST_LOGGER)

HEADER = "X-Request-ID"
ENVIRON_KEY = "HTTP_X_REQUEST_ID"  # the header as WSGI hands it over (no other spelling reaches the app)
MAX_LOGGED_PATH = 200  # characters: a path is the client's to choose, a log line is not
# observe(method, endpoint, status, seconds, fields): how the metrics see an answered request.
Observe = Callable[[str, str, int, float, dict[str, str]], None]
REQUEST_LINE_FORMATTERS = (JsonFormatter, TextFormatter)
_SANE_ID = re.compile(r"[A-Za-z0-9._:@+=/-]{1,200}")


def request_id(header: str | None) -> str:
    """The request's id: ``header`` when it is sane, else a new random one (32 hex digits)."""
    if header is not None and _SANE_ID.fullmatch(header):
        return header
    return f"{RANDOM.getrandbits(128):032x}"


def logged_path(path: str) -> str:
    """``path`` as a log shows it: at most MAX_LOGGED_PATH characters, control characters escaped.

    >>> logged_path("/move\\nfake line")
    '/move\\\\nfake line'
    """
    path = path[:MAX_LOGGED_PATH]
    return path if path.isprintable() else path.encode("unicode_escape").decode("ascii")


def note(**fields: str) -> None:
    """Add fields (``cache``, ``board``, ``source``) to this request's line; a no-op outside a request."""
    if has_request_context():
        known = g.__dict__  # one read through Flask's proxy
        logged = known.get("log_fields")
        if logged is None:
            known["log_fields"] = fields
        else:
            logged.update(fields)


def init_app(app: Flask, observe: Observe | None = None) -> None:
    """Log every request of ``app`` once it has its response; also hand it to ``observe``.

    ``observe(method, endpoint, status, seconds, fields)`` is how the metrics
    see the same request with the same clock.
    """

    @app.before_request
    def start() -> None:
        known = g.__dict__  # each read or write through Flask's proxies costs about a µs: one each
        known["started"] = time.perf_counter()
        known["request_id"] = request_id(request.environ.get(ENVIRON_KEY))

    @app.after_request
    def finish(response: Response) -> Response:
        known = g.__dict__
        started = known.get("started")
        if started is None:  # an earlier before_request hook refused the request
            started = time.perf_counter()
            known["request_id"] = request_id(request.environ.get(ENVIRON_KEY))
        seconds = time.perf_counter() - started
        fields = known.get("log_fields", {})
        rid = known["request_id"]
        response.headers.add(HEADER, rid)  # no view sets it: no scan for one to replace
        current = request._get_current_object()  # type: ignore[attr-defined]
        rule = current.url_rule
        if observe is not None:
            observe(current.method, rule.rule if rule else "other", response.status_code, seconds, fields)
        log_request(current.method, current.path, response.status_code, seconds, rid, fields)
        return response


def log_request(
    method: str, path: str, status: int, seconds: float, rid: str, fields: dict[str, str]
) -> None:
    """Write the one line of an answered request (``fields``: what views noted)."""
    if not logger.isEnabledFor(logging.INFO):  # LOG_LEVEL=warning: no request lines, no cost
        return
    path = logged_path(path)
    message = f"{method} {path} {status}"
    values: list[object] = [
        rid,
        method,
        path,
        status,
        round(seconds * 1000, 3),
        fields.get("cache"),
        fields.get("board"),
        fields.get("source"),
    ]
    handler = _only_handler()
    if handler is None:
        logger.handle(_record(message, values))
        return
    # As the handler would write it, without a LogRecord and logging's general way to
    # the handler (about 27 µs a line, this way about 7): one write, flushed.
    formatter: RequestLineFormatter = handler.formatter  # type: ignore[assignment]  # checked by _only_handler
    try:
        line = formatter.request_line(time.time(), process_id(), message, values) + handler.terminator
        with handler.lock:  # type: ignore[union-attr]  # a handler made by logging has its lock
            handler.stream.write(line)
            handler.stream.flush()
    except Exception:  # as Handler.emit: a broken stream reports, never fails the request
        handler.handleError(_record(message, values))


class RequestLineFormatter(Protocol):
    """A formatter that writes the request line without a record (web/telemetry/logs.py's)."""

    def request_line(self, created: float, pid: int, message: str, values: list[object]) -> str:
        """The line of a request line record with ``values`` (``REQUEST_FIELDS``') at ``created``."""


def _only_handler() -> logging.StreamHandler[Any] | None:
    """The one handler the request line reaches, when writing to it directly is what logging would do.

    That is: nothing filters the line, exactly one handler takes it, a plain
    ``StreamHandler`` at INFO or below, formatting with one of
    web/telemetry/logs.py's formatters (as deployed).  Anything else (a
    test's capturing handler, an operator's own configuration) gets a record.
    """
    if logger.filters or logger.disabled:
        return None
    found: logging.Handler | None = None
    current: logging.Logger | None = logger
    while current is not None:
        for handler in current.handlers:
            if found is not None:
                return None
            found = handler
        current = current.parent if current.propagate else None
    if type(found) is not logging.StreamHandler or found.filters or found.level > logging.INFO:
        return None
    return found if isinstance(found.formatter, REQUEST_LINE_FORMATTERS) else None


def _record(message: str, values: list[object]) -> logging.LogRecord:
    """The request line as a record, for any handler."""
    # Logger.info would first look up the caller's file and line, which no line shows.
    return logger.makeRecord(
        logger.name,
        logging.INFO,
        __file__,
        0,
        message,
        (),  # the message is written already: it may hold a % of the path
        None,
        extra=dict(zip(REQUEST_FIELDS, values, strict=True)),
    )
