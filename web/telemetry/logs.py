"""How the server logs: one line per record on stdout, JSON by default, text for a terminal.

gunicorn's own loggers (``gunicorn.error``: boot, worker exits, timeouts) and
the app's (``web.*``, the per-request line of ``web.telemetry.request_log``) go through
the one setup below, which gunicorn.conf.py hands to gunicorn as
``logconfig_dict``.  A JSON line looks like::

    {
        "time": "2026-11-23T11:30:00.123456+00:00",
        "level": "INFO",
        "logger": "web.request",
        "message": "POST /move 200",
        "pid": 4242,
        "request_id": "f3c1...",
        "method": "POST",
        "path": "/move",
        "status": 200,
        "duration_ms": 1.2,
        "cache": "hit",
        "board": "3x3k3",
        "source": "proof",
    }

gunicorn's access log is configured in the same format but kept below its
level: the app's request line is the one access line (it knows the request id,
the cache outcome and the board, which gunicorn cannot), so each request is
logged once.

No line holds a room's secret: a seat's token or an invite, wherever a
record carries one (gunicorn's warning about a malformed request line quotes
the line, query string and all), is written as ``token=<secret>``
(``redact``).  The request line itself never carries a query string.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import time
from datetime import UTC, datetime
from json.encoder import encode_basestring_ascii  # the C function json.dumps uses
from typing import Any

import pythonjsonlogger.json
from gunicorn.glogging import Logger as _GunicornLogger  # type: ignore[import-untyped]  # no types shipped

LOG_FORMATS = ("json", "text")
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
# Fields a request line carries besides the standard ones (see web/telemetry/request_log.py).
REQUEST_LOGGER = "web.request"  # the logger of the request line (web/telemetry/request_log.py)
REQUEST_FIELDS = ("request_id", "method", "path", "status", "duration_ms", "cache", "board", "source")


class JsonFormatter(pythonjsonlogger.json.JsonFormatter):
    """pythonjsonlogger's JSON lines, the request line made from a template of the same line.

    Every request writes the request line (web/telemetry/request_log.py), and
    pythonjsonlogger's general way (every extra field of the record merged into a
    dict, then a ``json.JSONEncoder``) cost about 12 µs of it: more than a cached
    ``/move``'s own work.  The request line's fields are known (``REQUEST_FIELDS``),
    so here it is written from a template with the same keys, order and values
    (``tests/test_logs.py`` checks the two alike); any other record goes the general way.
    """

    def format(self, record: logging.LogRecord) -> str:
        fields = record.__dict__
        if "request_id" not in fields or record.exc_info or record.exc_text or record.stack_info:
            return str(super().format(_redacted(record)))
        values = [fields.get(name) for name in REQUEST_FIELDS]
        message = record.getMessage()
        pid = record.process or 0
        return self.request_line(record.created, pid, message, values, record.levelname, record.name)

    def request_line(
        self,
        created: float,
        pid: int,
        message: str,
        values: list[object],
        level: str = "INFO",
        logger: str = REQUEST_LOGGER,
    ) -> str:
        """The line of a record with ``REQUEST_FIELDS``' ``values``, made at ``created`` (``time.time()``).

        What ``format`` writes for such a record, without one (web/telemetry/request_log.py).
        """
        return _REQUEST_LINE % (
            _json(level),
            _json(logger),
            _json(message),
            _json(pid),
            *[_json(value) for value in values],
            _json(datetime.fromtimestamp(created, tz=UTC).isoformat()),
        )


_REQUEST_LINE = (
    '{"level": %s, "logger": %s, "message": %s, "pid": %s, '
    + "".join(f'"{name}": %s, ' for name in REQUEST_FIELDS)
    + '"time": %s}'
)


# A room's secret as a URL carries it: ?token=, &invite=, #host=, #guest= (web/rooms/routes.py).
# Up to the next separator: a control byte quoted as \x01 does not end it.
_SECRET = re.compile(r"(\btoken=|\binvite=|#host=|#guest=)[^&#\s\"']+", re.IGNORECASE)


def redact(line: str) -> str:
    """``line`` with every seat token or invite it quotes replaced by ``<secret>``.

    >>> redact("Invalid request: 'GET /rooms/Ab3dEf7h/events?token=s3cr3t&x=1 HTTP/1.1'")
    "Invalid request: 'GET /rooms/Ab3dEf7h/events?token=<secret>&x=1 HTTP/1.1'"
    """
    if "=" not in line:
        return line
    return _SECRET.sub(r"\1<secret>", line)


def _redacted(record: logging.LogRecord) -> logging.LogRecord:
    """``record`` with its message redacted (before any formatter escapes it)."""
    message = record.getMessage()
    cleaned = redact(message)
    if cleaned != message:
        record.msg, record.args = cleaned, None
    return record


def _json(value: object) -> str:
    """``value`` as ``json.dumps`` writes it, with its quick cases first."""
    if isinstance(value, str):
        return encode_basestring_ascii(value)
    if value is None:
        return "null"
    if type(value) is int or (type(value) is float and math.isfinite(value)):  # bool is no int here
        return repr(value)
    return json.dumps(value)


class TextFormatter(logging.Formatter):
    """A readable line for a terminal: the standard prefix, the message, then ``key=value`` fields."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s [%(process)d] %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(_redacted(record))
        return _with_fields(line, [getattr(record, name, None) for name in REQUEST_FIELDS])

    def request_line(
        self,
        created: float,
        pid: int,
        message: str,
        values: list[object],
        level: str = "INFO",
        logger: str = REQUEST_LOGGER,
    ) -> str:
        """What ``format`` writes for such a record, without one: see ``JsonFormatter.request_line``."""
        when = time.strftime(self.default_time_format, self.converter(created))
        msecs = int((created - int(created)) * 1000)  # as logging.LogRecord counts them
        line = f"{str(self.default_msec_format) % (when, msecs)} {level} [{pid}] {logger}: {message}"
        return _with_fields(line, values)


def _with_fields(line: str, values: list[object]) -> str:
    """``line``, then `` key=value`` for each of ``REQUEST_FIELDS`` whose value is not None."""
    named = zip(REQUEST_FIELDS, values, strict=True)
    fields = [f"{name}={value}" for name, value in named if value is not None]
    return f"{line} {' '.join(fields)}" if fields else line


class GunicornLogger(_GunicornLogger):  # type: ignore[misc]  # gunicorn ships no types
    """gunicorn's logger, but it builds no access line that its logger would drop.

    gunicorn computes an access line's fields (every header of the request and
    the response) whenever any log configuration is set, before its logger
    checks the level; here ``gunicorn.access`` sits below its level (see the
    module's docstring), and building the line cost about 35 µs a request.
    """

    @property
    def access_log_enabled(self) -> bool:
        enabled: bool = super().access_log_enabled
        return enabled and self.access_log.isEnabledFor(logging.INFO)


def log_format(env: dict[str, str] | None = None) -> str:
    """The ``LOG_FORMAT`` setting (json or text, default json); raises ``ValueError`` for another."""
    value = (os.environ if env is None else env).get("LOG_FORMAT") or "json"
    if value.lower() not in LOG_FORMATS:
        raise ValueError(f"LOG_FORMAT must be json or text, not {value!r}")
    return value.lower()


def log_level(env: dict[str, str] | None = None) -> str:
    """The ``LOG_LEVEL`` setting (default info); raises ``ValueError`` for an unknown level."""
    value = (os.environ if env is None else env).get("LOG_LEVEL") or "info"
    if value.lower() not in LOG_LEVELS:
        raise ValueError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {value!r}")
    return value.lower()


def logging_config(fmt: str = "json", level: str = "info") -> dict[str, Any]:
    """A ``logging.config.dictConfig`` document: every logger to stdout in format ``fmt``."""
    formatters = {
        "json": {
            "()": JsonFormatter,
            "fmt": "%(levelname)s %(name)s %(message)s %(process)d",
            "rename_fields": {"levelname": "level", "name": "logger", "process": "pid"},
            "timestamp": "time",  # ISO 8601 in UTC, from the record's own clock
        },
        "text": {"()": TextFormatter},
    }
    handler = {"class": "logging.StreamHandler", "formatter": fmt, "stream": "ext://sys.stdout"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {fmt: formatters[fmt]},
        "handlers": {"stdout": handler},
        "root": {"level": level.upper(), "handlers": ["stdout"]},
        "loggers": {
            "gunicorn.error": {"level": level.upper(), "handlers": ["stdout"], "propagate": False},
            # The app's request line (web.request) is the access line: see the docstring.
            "gunicorn.access": {"level": "WARNING", "handlers": ["stdout"], "propagate": False},
        },
    }


def gunicorn_logconfig(env: dict[str, str] | None = None) -> dict[str, Any]:
    """gunicorn's ``logconfig_dict``: ``logging_config`` with LOG_FORMAT and LOG_LEVEL applied."""
    return logging_config(log_format(env), log_level(env))
