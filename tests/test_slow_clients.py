"""Slow clients cannot hang the server run by the project's own commands (issue 13).

The README's ``gunicorn --bind 127.0.0.1:8000 app:app`` and the Procfile's
``gunicorn app:app`` both read gunicorn.conf.py.  Each is started as written
(on a free loopback port), a position is cached, and then 40 and 200 raw
connections send the first lines of a ``POST /move`` and go quiet.  Other
clients must still get ``/livez`` and the cached ``/move``, and the server must
close the stalled connections after its read timeout.  The latencies are in
docs/reliability.md (bench/slow_clients.py); here the urlopen timeout is only a
hang guard: before the fix these requests got no answer at all.
"""

from __future__ import annotations

import json
import re

import pytest

from servers import ROOT, Gunicorn, gunicorn_settings, wait_until
from stalled import StalledConnections, timed_request

pytestmark = pytest.mark.slow

CACHED = {"board": ["x..", ".o.", "..."]}
HANG_GUARD = 5.0  # seconds; far above an answer's milliseconds, far below "never"
READ_TIMEOUT = gunicorn_settings()["keepalive"]


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
    with Gunicorn(env={"CACHE_DIR": str(tmp_path / "cache")}, command=command) as server:
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
        Gunicorn(env={"CACHE_DIR": str(tmp_path / "cache")}, command=readme_command()) as server,
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
