"""Logs an operator can search: one JSON line per request, gunicorn's own lines in the same format."""

from __future__ import annotations

import io
import json
import logging
import logging.config
import socket
import types
import urllib.parse
import urllib.request

import pytest
import pythonjsonlogger.json

from tests.servers import Gunicorn, post
from web.assembly import create_app
from web.telemetry import request_log
from web.telemetry.logs import JsonFormatter, logging_config
from web.telemetry.request_log import request_id

SECRET = "s3cret-value-that-must-never-leak-from-logs"
SEAT_TOKEN = "seat-token-that-must-never-leak-from-logs"
# A body whose text is easy to look for in the log:
#
#   x . .
#   . o .
#   . . .
BODY = {"board": ["x..", ".o.", "..."]}


def served_log(tmp_path, env: dict[str, str], requests) -> list[str]:
    """Run a real gunicorn (2 workers) with ``env``, make ``requests(url)``, return its output lines."""
    server = Gunicorn(workers=2, env={"CACHE_DIR": str(tmp_path / "cache"), "CACHE_SECRET": SECRET, **env})
    server.log_path = tmp_path / "gunicorn.log"
    with server:
        requests(server.url)
    return server.log_path.read_text().splitlines()


def some_requests(url: str) -> None:
    request = urllib.request.Request(
        url + "/move",
        data=json.dumps(BODY).encode(),
        headers={"Content-Type": "application/json", "X-Request-ID": "router-id-1"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.headers["X-Request-ID"] == "router-id-1"
    status, _ = post(url + "/move", {"board": ["xx.", "...", "..."]})
    assert status == 409
    # A request line gunicorn refuses (a control byte in it): it warns, quoting the line.
    address = urllib.parse.urlsplit(url)
    with socket.create_connection((address.hostname, address.port), timeout=30) as raw:
        raw.sendall(f"GET /rooms/Abcdefgh/events?token={SEAT_TOKEN}\x01 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert raw.recv(100).startswith(b"HTTP/1.1 400")


@pytest.mark.parametrize(
    "header, kept",
    [
        ("5d1c2a4e-8f7b-4c1d-9e0f-a1b2c3d4e5f6", True),  # Heroku's form: a UUID
        ("edge:abc.123_x/y+z=", True),
        ("", False),
        ("has space", False),
        ('quote"and<angle>', False),
        ("a" * 201, False),
        (None, False),
    ],
)
def test_a_sane_router_id_is_kept_and_anything_else_replaced(header, kept):
    assert (request_id(header) == header) is kept
    if not kept:
        assert len(request_id(header)) == 32 and request_id(header) != request_id(header)


def test_the_response_echoes_the_request_id(tmp_path):
    client = create_app({"CACHE_DIR": str(tmp_path / "cache")}).test_client()
    given = client.post("/move", json=BODY, headers={"X-Request-ID": "abc-123"})
    assert given.headers["X-Request-ID"] == "abc-123"
    fresh = client.post("/move", json={"board": ["xq.", "...", "..."]}, headers={"X-Request-ID": "bad id;"})
    assert fresh.status_code == 400 and len(fresh.headers["X-Request-ID"]) == 32


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/move", {"board": ["x...", "....", "....", "...."], "k": 4}),
        ("POST", "/analyze", {"board": ["x...", "....", "....", "...."], "k": 4}),
        ("GET", "/position?board=x3/4/4/4&k=4", None),
    ],
)
def test_every_position_endpoints_line_names_the_board(tmp_path, caplog, method, path, body):
    client = create_app({"CACHE_DIR": str(tmp_path / "cache")}).test_client()
    with caplog.at_level(logging.INFO, logger="web.request"):
        response = client.open(path, method=method, json=body)
    assert response.status_code == 200
    (line,) = [record for record in caplog.records if record.name == "web.request"]
    assert (line.status, line.board, line.source) == (200, "4x4k4", "proof")


@pytest.mark.slow
def test_gunicorn_writes_one_json_line_per_request_and_its_own_lines_as_json(tmp_path):
    lines = served_log(tmp_path, {}, some_requests)
    records = [json.loads(line) for line in lines]  # every line is JSON
    assert all({"time", "level", "logger", "message", "pid"} <= set(r) for r in records)
    booted = [
        r for r in records if r["logger"] == "gunicorn.error" and r["message"].startswith("Booting worker")
    ]
    assert len(booted) == 2
    moves = [r for r in records if r["logger"] == "web.request" and r["path"] == "/move"]
    assert len(moves) == 2  # one line per request: gunicorn's access line stays quiet
    first, refused = moves
    assert first["request_id"] == "router-id-1"
    assert (first["method"], first["status"], first["cache"], first["board"]) == (
        "POST",
        200,
        "search",
        "3x3k3",
    )
    assert first["duration_ms"] > 0 and first["level"] == "INFO"
    assert (refused["status"], refused["cache"], len(refused["request_id"])) == (409, None, 32)
    assert not any(r["logger"] == "gunicorn.access" for r in records)
    output = "\n".join(lines)
    assert SECRET not in output and "x.." not in output  # no secret, no request body
    # The refused request line is logged, its seat token written as <secret>.
    assert SEAT_TOKEN not in output and "events?token=<secret>" in output


@pytest.mark.slow
def test_log_format_text_is_one_readable_line_per_record(tmp_path):
    lines = served_log(tmp_path, {"LOG_FORMAT": "text"}, some_requests)
    assert not any(line.startswith("{") for line in lines)
    requests = [line for line in lines if " web.request: POST /move " in line]
    assert len(requests) == 2
    assert "request_id=router-id-1" in requests[0] and "cache=search" in requests[0]
    assert any("gunicorn.error: Booting worker" in line for line in lines)


def test_a_bad_log_format_stops_gunicorn_with_a_message(tmp_path):
    server = Gunicorn(workers=1, env={"CACHE_DIR": str(tmp_path / "cache"), "LOG_FORMAT": "xml"})
    server.log_path = tmp_path / "gunicorn.log"
    with pytest.raises(RuntimeError, match="gunicorn exited"), server:
        pass
    assert "LOG_FORMAT must be json or text, not 'xml'" in server.log_path.read_text()


@pytest.mark.parametrize(
    ("path", "status", "fields"),
    [
        ("/move", 200, {"cache": "hit", "board": "3x3k3", "source": "proof"}),
        ('/x\n\u00e9"', 404, {}),  # escaped, non-ASCII, a quote; fields absent are null
        ("/analyze", 503, {"cache": "busy", "board": "15x15k5"}),
    ],
)
def test_the_request_line_from_its_template_is_pythonjsonloggers_line(path, status, fields):
    # web/telemetry/logs.py writes the request line from a template: it must equal the general way's.
    config = logging_config("json")["formatters"]["json"]
    options = {name: value for name, value in config.items() if name != "()"}
    template, general = JsonFormatter(**options), pythonjsonlogger.json.JsonFormatter(**options)
    record = logging.getLogger("web.request").makeRecord(
        "web.request",
        logging.INFO,
        __file__,
        0,
        "%s %s %s",
        ("POST", path, status),
        None,
        extra={
            "request_id": "router-id-1",
            "method": "POST",
            "path": path,
            "status": status,
            "duration_ms": 1.234,
            **{name: fields.get(name) for name in ("cache", "board", "source")},
        },
    )
    assert template.format(record) == general.format(record)
    assert json.loads(template.format(record))["path"] == path


@pytest.mark.parametrize("fmt", ["json", "text"])
@pytest.mark.parametrize(
    ("path", "fields"),
    [("/move", {"cache": "hit", "board": "3x3k3", "source": "proof"}), ('/x\n\u00e9"%s', {})],
)
def test_the_request_line_written_directly_is_the_handlers_line(monkeypatch, fmt, path, fields):
    # As deployed (one StreamHandler with the project's formatter), the request line is
    # written without a LogRecord: it must be the line the handler writes for the record.
    created = 1_790_000_000.123456
    formatter = logging.config.DictConfigurator(logging_config(fmt)).configure_formatter(
        logging_config(fmt)["formatters"][fmt]
    )
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    line_logger = logging.getLogger("web.request")
    monkeypatch.setattr(line_logger, "handlers", [handler])
    monkeypatch.setattr(line_logger, "propagate", False)
    monkeypatch.setattr(request_log, "time", types.SimpleNamespace(time=lambda: created))
    old_level = line_logger.level
    line_logger.setLevel(logging.INFO)
    try:
        request_log.log_request("POST", path, 200, 0.001234, "router-id-1", fields)
        expected = logging.LogRecord("web.request", logging.INFO, __file__, 0, "%s %s %s", None, None)
        expected.__dict__.update(
            args=("POST", request_log.logged_path(path), 200),
            created=created,
            msecs=int((created - int(created)) * 1000) + 0.0,
            request_id="router-id-1",
            method="POST",
            path=request_log.logged_path(path),
            status=200,
            duration_ms=1.234,
            **{name: fields.get(name) for name in ("cache", "board", "source")},
        )
        assert stream.getvalue() == handler.format(expected) + "\n"
        # Another handler beside it: the line goes through logging, to both.
        other = io.StringIO()
        monkeypatch.setattr(line_logger, "handlers", [handler, logging.StreamHandler(other)])
        request_log.log_request("POST", path, 200, 0.001234, "router-id-1", fields)
        assert other.getvalue() == f"POST {request_log.logged_path(path)} 200\n"
    finally:
        line_logger.setLevel(old_level)
