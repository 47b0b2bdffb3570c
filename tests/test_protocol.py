"""HTTP details under real gunicorn (issues 13, 23): redirects, chunked bodies, OPTIONS, request limits,
headers gunicorn must not let a client use (SCRIPT_NAME).

Raw requests through ``http.client`` and sockets, so that the Host header,
the chunked encoding and over-long lines reach the server as a client sends them.
"""

from __future__ import annotations

import http.client
import json
import socket
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.servers import Gunicorn, gunicorn_settings
from web.http.answer_headers import EVERY_ANSWER, header_lines
from web.http.errors import MAX_BODY_BYTES
from web.http.protocol import relative_location

pytestmark = pytest.mark.slow
SETTINGS = gunicorn_settings()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("server")
    running = Gunicorn(workers=1, env={"CACHE_DIR": str(folder / "cache")})
    running.log_path = folder / "gunicorn.log"  # what the server logged, read by the tests
    with running:
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


def raw(server, data: bytes, end_of_request: bool = False) -> bytes:
    """Send bytes as they are; the server's whole answer (it closes after an error).

    ``end_of_request``: then shut the sending side, so the server reads the end of the stream.
    """
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(data)
        if end_of_request:
            sock.shutdown(socket.SHUT_WR)
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass  # closed with some of our bytes unread: what it answered was read first
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


def answered(server, status: str) -> float:
    """How many requests the server's metrics count as answered with ``status``, on any path."""
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as response:
        text = response.read().decode()
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "tictactoe_http_requests_total" and sample.labels["status"] == status
    )


# Chunked bodies whose framing is broken, each with what the answer says is wrong, and whether the
# client ends its stream after sending it (else the server would wait for the rest: a 408).
MALFORMED = {
    "a size that is not hexadecimal": (
        b"zz\r\nabc\r\n0\r\n\r\n",
        "a chunk size must be hexadecimal digits, not 'zz'",
        False,
    ),
    "a negative size": (
        b"-5\r\nhello\r\n0\r\n\r\n",
        "a chunk size must be hexadecimal digits, not '-5'",
        False,
    ),
    "no CRLF after a chunk's data": (
        b"5\r\nhelloXX0\r\n\r\n",
        "a chunk's data must be followed by CRLF, not 'XX'",
        False,
    ),
    "no CRLF after the last chunk": (
        b"5\r\nhello\r\n0\r\n",
        "a chunk's data must be followed by CRLF (the body ended before it)",
        True,
    ),
    "a 20,000-character chunk extension": (
        b"5;" + b"a" * 20_000 + b"\r\nhello\r\n0\r\n\r\n",
        f"a chunk size line (with its extensions) runs past {SETTINGS['limit_request_field_size']} bytes "
        "without its CRLF",
        False,
    ),
    "an extension that is not a token": (
        b"5;a b\r\nhello\r\n0\r\n\r\n",
        "a chunk extension must be ;name or ;name=value, the value a token or a quoted string",
        False,
    ),
}


@pytest.mark.parametrize("form", MALFORMED)
@pytest.mark.parametrize("method, path", [("POST", "/move"), ("GET", "/livez")])
def test_a_malformed_chunked_body_is_a_400_in_words_on_every_path(server, form, method, path):
    # gunicorn parses the framing while the app reads the body: its errors came out of the app's
    # read as a 500 with a traceback at ERROR (web/http/body_framing.py).
    body, what, end_of_request = MALFORMED[form]
    errors_before, logged_before = answered(server, "500"), server.log_path.stat().st_size
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()
    answer = raw(server, head + body, end_of_request)
    status, _, rest = answer.partition(b"\r\n")
    headers, _, payload = rest.partition(b"\r\n\r\n")
    assert status == b"HTTP/1.1 400 BAD REQUEST"
    assert json.loads(payload) == {"error": f"malformed chunked body: {what}"}
    # Where a next request would start is unknown: the connection closes, and says so.
    assert b"\r\nConnection: close\r\n" in headers + b"\r\n"
    assert answered(server, "500") == errors_before
    with server.log_path.open("rb") as log:
        log.seek(logged_before)
        logged = [json.loads(line) for line in log]
    assert [line["level"] for line in logged if line["level"] not in ("INFO", "DEBUG")] == []


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
    assert header_lines(EVERY_ANSWER) in line.partition(b"\r\n\r\n")[0]  # what every answer carries
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
