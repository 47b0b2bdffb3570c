"""Slow clients cannot hang the server run by the project's own commands (issue 13).

The README's ``gunicorn --bind 127.0.0.1:8000 app:app`` and the Procfile's
``gunicorn app:app`` both read gunicorn.conf.py.  Each is started as written
(on a free loopback port), a position is cached, and then 40 and 200 raw
connections send the first lines of a ``POST /move`` and go quiet.  Other
clients must still get ``/livez`` and the cached ``/move``, and the server must
close the stalled connections after its read timeout.  The latencies are in
docs/reliability.md (bench/slow_clients.py); here the urlopen timeout is only a
hang guard: before the fix these requests got no answer at all.

A request trickled a byte at a time, each byte well within the read timeout,
is cut at its deadline all the same (issue 23): its head within the read
timeout, its body within the read timeout after the head.  And one address
holds at most its cap of a worker's connections; another address is served.
"""

from __future__ import annotations

import http.client
import json
import re
from contextlib import ExitStack, closing

import pytest

from tests.servers import ROOT, Gunicorn, gunicorn_settings, wait_until
from tests.stalled import StalledConnections, timed_request, trickle
from web.http.connections_per_address import DEFAULT_CAP, cap_from_settings

pytestmark = pytest.mark.slow

CACHED = {"board": ["x..", ".o.", "..."]}
HANG_GUARD = 5.0  # seconds; far above an answer's milliseconds, far below "never"
# The servers of the stalled and trickled requests close them after 2 s, not after
# gunicorn.conf.py's default 5 (GUNICORN_READ_TIMEOUT, the same setting): the waits for it to
# pass are most of this module's time, and each outcome below is the same at either.  The
# commands stay as written.
READ_TIMEOUT = 2


def server_env(tmp_path) -> dict[str, str]:
    """A server's environment: its cache under ``tmp_path``, the short read timeout."""
    return {"CACHE_DIR": str(tmp_path / "cache"), "GUNICORN_READ_TIMEOUT": str(READ_TIMEOUT)}


def readme_command() -> list[str]:
    """The README's run command, its port replaced by the test's."""
    text = (ROOT / "README.md").read_text()
    command = re.search(r"\.venv/bin/(gunicorn --bind 127\.0\.0\.1:8000 app:app)", text).group(1)
    return command.replace("8000", "{port}").split()


def procfile_command() -> list[str]:
    """The Procfile's web command, bound to loopback (a platform would bind $PORT on all)."""
    command = (ROOT / "Procfile").read_text().split("web:", 1)[1].strip().split()
    return [*command[:-1], "--bind", "127.0.0.1:{port}", command[-1]]


@pytest.mark.parametrize("command", [readme_command(), procfile_command()], ids=["readme", "procfile"])
def test_stalled_connections_leave_other_clients_answered_and_are_closed(tmp_path, command):
    with Gunicorn(env=server_env(tmp_path), command=command) as server:
        for _ in range(4):
            _, status, body = timed_request(server.url + "/move", CACHED, HANG_GUARD)
            assert status == 200
        assert body["cached"] is True
        for count in (40, 200):
            with StalledConnections(server.port, count) as stalled:
                for _ in range(5):
                    _, status, body = timed_request(server.url + "/livez", None, HANG_GUARD)
                    assert status == 200 and body == {"status": "alive"}
                    _, status, body = timed_request(server.url + "/move", CACHED, HANG_GUARD)
                    assert status == 200 and body["cached"] is True
                assert stalled.open_count() > 0  # they were still hanging while we were served
                wait_until(
                    lambda: stalled.open_count() == 0,
                    READ_TIMEOUT + 10,
                    what=f"the server closing {count} stalled connections",
                )


def test_a_client_stalling_in_its_body_is_closed_too(tmp_path):
    head = (
        b"POST /move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"board": '
    )
    with (
        Gunicorn(env=server_env(tmp_path), command=readme_command()) as server,
        StalledConnections(server.port, 40, head) as stalled,
    ):
        _, status, _ = timed_request(server.url + "/livez", None, HANG_GUARD)
        assert status == 200
        wait_until(
            lambda: stalled.open_count() == 0,
            READ_TIMEOUT + 10,
            what="the server closing connections stalled in their bodies",
        )
    # Each got the API's answer for a body that stopped arriving before the close.
    for answer in stalled.received.values():
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 ") and b"application/json" in head
        assert json.loads(body) == {"error": "the request body stopped arriving: send it at once"}
    assert len(stalled.received) == 40


PACE = 0.5  # seconds between two trickled bytes: far inside the timeout, so every read makes progress
POST_HEAD = (
    b"POST /move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n"
)


@pytest.mark.parametrize(
    "sent_at_once, trickled, answered",
    [
        (b"", POST_HEAD, False),  # the head, byte by byte: closed without an answer
        (POST_HEAD, b" " * 60, True),  # the head at once, then its body byte by byte: 408
    ],
    ids=["head", "body"],
)
def test_a_request_trickled_byte_by_byte_is_cut_at_its_deadline(tmp_path, sent_at_once, trickled, answered):
    with Gunicorn(workers=1, env=server_env(tmp_path)) as server:
        answer, seconds, sent = trickle(server.port, sent_at_once, trickled, PACE)
    # Each byte came within the read timeout of the last, yet the server closed at the deadline.
    assert READ_TIMEOUT <= seconds < READ_TIMEOUT + 4 * PACE
    assert sent < len(trickled) * 0.2
    if answered:
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 ") and b"application/json" in head
        assert json.loads(body) == {"error": "the request body stopped arriving: send it at once"}
    else:
        assert answer == b""


def test_one_address_holds_at_most_its_share_of_a_worker(tmp_path):
    cap = 10
    # The default read timeout: the held connections are idle, kept alive, and must stay open.
    env = {"CACHE_DIR": str(tmp_path / "cache"), "GUNICORN_CONNECTIONS_PER_ADDRESS": str(cap)}
    with Gunicorn(workers=1, env=env) as server, ExitStack() as held:
        for _ in range(cap):  # kept alive, each answered once: the worker counts them all
            connection = held.enter_context(closing(http.client.HTTPConnection("127.0.0.1", server.port)))
            connection.request("GET", "/livez")
            assert connection.getresponse().read() == b'{"status":"alive"}\n'
        _, status, body = timed_request(server.url + "/livez", None, HANG_GUARD)
        assert status == 429 and body == {
            "error": "too many connections are open from your network (address): close some,"
            " or try again in 5 seconds",
            "retry_after": 5,
        }
        # Another address is another client.
        assert timed_request(server.url + "/livez", None, HANG_GUARD, source="127.0.0.2")[1] == 200
        held.close()
        wait_until(
            lambda: timed_request(server.url + "/livez", None, HANG_GUARD)[1] == 200,
            10,
            what="the worker counting the closed connections out",
        )


@pytest.mark.parametrize(
    "value, trusted_proxies, cap",
    [("250", 0, 250), ("1", 0, 1), ("off", 0, None), ("OFF ", 0, None), ("250", 1, None)],
)
def test_the_cap_setting(value, trusted_proxies, cap):
    assert cap_from_settings(value, trusted_proxies) == cap


@pytest.mark.parametrize("value", ["0", "-3", "ten", "", "2.5"])
def test_a_bad_cap_stops_the_server_with_its_name(value):
    with pytest.raises(ValueError, match="GUNICORN_CONNECTIONS_PER_ADDRESS"):
        cap_from_settings(value, 0)


def test_the_default_cap_is_off_only_behind_a_router():
    assert gunicorn_settings({"GUNICORN_CONNECTIONS_PER_ADDRESS": None})["connections_per_address"] == (
        DEFAULT_CAP
    )
    assert "connections_per_address" not in gunicorn_settings({"TRUSTED_PROXIES": "1"})  # None: no cap
