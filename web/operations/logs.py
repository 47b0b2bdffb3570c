"""How the server logs: one line per record on stdout, JSON by default, text for a terminal.

gunicorn's own loggers (``gunicorn.error``: boot, worker exits, timeouts) and
the app's (``web.*``, the per-request line of ``web.operations.request_log``) go through
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
"""

from __future__ import annotations

import logging
import os
from typing import Any

from gunicorn.glogging import Logger as _GunicornLogger  # type: ignore[import-untyped]  # no types shipped

LOG_FORMATS = ("json", "text")
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
# Fields a request line carries besides the standard ones (see web/operations/request_log.py).
REQUEST_FIELDS = ("request_id", "method", "path", "status", "duration_ms", "cache", "board", "source")


class TextFormatter(logging.Formatter):
    """A readable line for a terminal: the standard prefix, the message, then ``key=value`` fields."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s [%(process)d] %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        fields = [
            f"{name}={getattr(record, name)}"
            for name in REQUEST_FIELDS
            if getattr(record, name, None) is not None
        ]
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
            "()": "pythonjsonlogger.json.JsonFormatter",
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
