"""HTTP details under real gunicorn (issues 13, 23): redirects, chunked bodies, OPTIONS, request limits,
headers gunicorn must not let a client use (SCRIPT_NAME).

Raw requests through ``http.client`` and sockets, so that the Host header,
the chunked encoding and over-long lines reach the server as a client sends them.
"""

from __future__ import annotations

import http.client
import json
import socket

import pytest

from tests.servers import Gunicorn, gunicorn_settings
from web.http.errors import MAX_BODY_BYTES
from web.http.protocol import relative_location

pytestmark = pytest.mark.slow
SETTINGS = gunicorn_settings()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Gunicorn(workers=1, env={"CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}) as running:
        yield running


def request(
    server, method: str, path: str, body: bytes | None = None, headers: dict | None = None
) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    response.body = response.read()
    connection.close()
    return response


def raw(server, data: bytes) -> bytes:
    """Send bytes as they are; the server's whole answer (it closes after an error)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_doubled_slashes_redirect_without_trusting_the_host_header(server):
    response = request(server, "GET", "//static//js/main.js", headers={"Host": "evil.example"})
    assert response.status == 308
    assert response.getheader("Location") == "/static/js/main.js"


@pytest.mark.parametrize(
    "location, relative",
    [
        ("http://evil.example/static/js/main.js", "/static/js/main.js"),
        ("https://a.example//evil.example/x?y=1", "/evil.example/x?y=1"),  # never "//host"
        ("/already?relative", "/already?relative"),
    ],
)
def test_relative_location(location, relative):
    assert relative_location(location) == relative


def chunked(payload: bytes, size: int = 4096) -> bytes:
    parts = [payload[i : i + size] for i in range(0, len(payload), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in parts) + b"0\r\n\r\n"


def test_an_oversized_chunked_body_is_413_json(server):
    body = json.dumps({"board": ["x..", "...", "..."], "pad": "." * MAX_BODY_BYTES}).encode()
    response = request(
        server,
        "POST",
        "/move",
        chunked(body),
        {"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
    )
    assert response.status == 413
    assert json.loads(response.body) == {"error": "the body is too large: at most 16 KiB"}


def test_a_chunked_body_within_the_limit_is_read_whole(server):
    body = json.dumps({"board": ["x..", ".o.", "..."]}).encode()
    response = request(
        server,
        "POST",
        "/move",
        chunked(body, 7),
        {"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
    )
    assert response.status == 200 and json.loads(response.body)["player"] == "x"


@pytest.mark.parametrize(
    "path, allowed", [("/move", {"POST", "OPTIONS"}), ("/healthz", {"GET", "HEAD", "OPTIONS"})]
)
def test_options_is_204_with_allow_and_no_body(server, path, allowed):
    response = request(server, "OPTIONS", path)
    assert response.status == 204 and response.body == b""
    assert set(response.getheader("Allow").split(", ")) == allowed
    assert response.getheader("Content-Type") is None


def test_gunicorns_own_limits_are_the_configured_ones(server):
    # Answered by gunicorn before the app runs: in HTML, as docs/deploy.md says.
    line = raw(server, b"GET /" + b"a" * SETTINGS["limit_request_line"] + b" HTTP/1.1\r\n\r\n")
    assert line.startswith(b"HTTP/1.1 414 ")
    # gunicorn writes these answers with fixed headers; the worker's error writer is
    # wrapped (web/http/gunicorn_errors.py) so that a cache never keeps one.
    assert b"\r\nCache-Control: no-store\r\n" in line.partition(b"\r\n\r\n")[0]
    fields = b"".join(b"X-F%d: 1\r\n" % i for i in range(SETTINGS["limit_request_fields"] + 1))
    too_many = raw(server, b"GET /livez HTTP/1.1\r\nHost: a\r\n" + fields + b"\r\n")
    assert too_many.startswith(b"HTTP/1.1 431 ") and b"\r\nCache-Control: no-store\r\n" in too_many
    big = b"X-Big: " + b"a" * (SETTINGS["limit_request_field_size"] + 1) + b"\r\n"
    assert raw(server, b"GET /livez HTTP/1.1\r\nHost: a\r\n" + big + b"\r\n").startswith(b"HTTP/1.1 431 ")
    # Just within them, the app answers.
    ok = (
        b"GET /livez HTTP/1.1\r\nHost: a\r\nConnection: close\r\n"
        + b"".join(b"X-F%d: 1\r\n" % i for i in range(SETTINGS["limit_request_fields"] - 3))
        + b"\r\n"
    )
    assert raw(server, ok).startswith(b"HTTP/1.1 200 ")


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """The app behind a request log: each line is the path the app was given (PATH_INFO)."""
    folder = tmp_path_factory.mktemp("logged")
    env = {"CACHE_DIR": str(folder / "cache"), "REQUEST_LOG": str(folder / "requests.log")}
    with Gunicorn(workers=1, env=env, app="tests.request_log_app:app") as running:
        running.request_log = folder / "requests.log"
        yield running


@pytest.mark.parametrize("script_name", ["/live", "/livez", "/elsewhere", "/"])
def test_a_client_s_script_name_header_moves_no_path_and_causes_no_500(logged, script_name):
    # gunicorn's forwarder_headers would let it set SCRIPT_NAME: "/live" made the path "z"
    # (a 404), "/elsewhere" a path outside it (a 500). Now it is dropped like any "_" name.
    before = logged.request_log.read_text().splitlines()
    response = request(logged, "GET", "/livez", headers={"SCRIPT_NAME": script_name})
    assert response.status == 200 and json.loads(response.body) == {"status": "alive"}
    assert logged.request_log.read_text().splitlines()[len(before) :] == ["GET /livez?"]
