"""gunicorn.conf.py fits a PaaS dyno (issues 11 and 13): workers from WEB_CONCURRENCY,
a graceful stop on SIGTERM within the platform's grace period, recycled workers."""

from __future__ import annotations

import json
import os
import signal
import threading
import urllib.request
from pathlib import Path

import pytest

from tests.servers import Gunicorn, gunicorn_settings, post, wait_until

PLATFORM_GRACE = 30  # seconds from SIGTERM to SIGKILL on Heroku and Render


def test_defaults_fit_a_dyno():
    unset = ("WEB_CONCURRENCY", "PORT", "GUNICORN_GRACEFUL_TIMEOUT", "GUNICORN_MAX_REQUESTS")
    conf = gunicorn_settings(dict.fromkeys(unset))
    assert conf["bind"] == "0.0.0.0:8000" and conf["workers"] == 2
    assert conf["worker_class"] == "gevent" and conf["keepalive"] >= 1
    assert conf["graceful_timeout"] < PLATFORM_GRACE
    assert conf["max_requests"] > 0 and 0 < conf["max_requests_jitter"] < conf["max_requests"]
    assert (conf["limit_request_line"], conf["limit_request_fields"], conf["limit_request_field_size"]) == (
        4094,
        100,
        8190,
    )


def test_the_platform_sets_port_and_workers():
    conf = gunicorn_settings({"PORT": "5123", "WEB_CONCURRENCY": "5"})
    assert conf["bind"] == "0.0.0.0:5123" and conf["workers"] == 5


def cpu_seconds(pid: int) -> float:
    """CPU time a process has used so far (user and system), from /proc."""
    fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.slow
def test_sigterm_lets_the_request_in_flight_finish_then_exits(tmp_path):
    env = {"CACHE_TYPE": "null", "MAX_CONCURRENT_SEARCHES": "1", "SEARCH_BUDGET": "2"}
    with Gunicorn(workers=1, env=env) as server:
        with urllib.request.urlopen(server.url + "/healthz", timeout=10) as response:
            worker = json.loads(response.read())["worker"]
        idle = cpu_seconds(worker)
        answers = []
        long_search = threading.Thread(  # 9x9: the whole 2 s budget
            target=lambda: answers.append(post(server.url + "/move", {"board": ["." * 9] * 9, "k": 5}))
        )
        long_search.start()
        # Nothing else runs: the worker burning CPU means the search is under way.
        # 30 s: a bound for a failure, not a wait; a loaded machine gave the worker under 0.3 s in 10.
        wait_until(lambda: cpu_seconds(worker) - idle > 0.3, 30, what="the long search in flight")
        server.process.send_signal(signal.SIGTERM)
        long_search.join(30)
        assert answers and answers[0][0] == 200 and answers[0][1]["proven"] is False
        assert server.process.wait(timeout=PLATFORM_GRACE) == 0


def test_the_control_socket_is_off_unless_an_instance_names_its_own():
    # gunicorn 27's default is one path per user ($XDG_RUNTIME_DIR/gunicorn.ctl), shared by
    # every instance of a host; the arbiter creates none when control_socket_disable is set.
    assert gunicorn_settings({"GUNICORN_CONTROL_SOCKET": None})["control_socket_disable"] is True
    named = gunicorn_settings({"GUNICORN_CONTROL_SOCKET": "/run/tictactoe/a.ctl"})
    assert named["control_socket_disable"] is False and named["control_socket"] == "/run/tictactoe/a.ctl"


@pytest.mark.slow
def test_each_instance_answers_on_its_own_control_socket(tmp_path):
    from gunicorn.ctl.client import ControlClient, ControlClientError

    def master_pid(path: Path) -> int | None:
        try:
            with ControlClient(str(path), timeout=5) as client:
                return client.send_command("show stats")["pid"]
        except ControlClientError:  # not listening yet: the master opens it after the workers
            return None

    env = {"CACHE_TYPE": "null"}
    first, second = tmp_path / "first.ctl", tmp_path / "second.ctl"
    with (
        Gunicorn(workers=1, env={**env, "GUNICORN_CONTROL_SOCKET": str(first)}) as a,
        Gunicorn(workers=1, env={**env, "GUNICORN_CONTROL_SOCKET": str(second)}) as b,
    ):
        wait_until(lambda: master_pid(first) and master_pid(second), what="both control sockets")
        assert (master_pid(first), master_pid(second)) == (a.process.pid, b.process.pid)
