"""Real gunicorn with two workers sharing the default file-system cache (in a temp folder)."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.oracle import optimal_moves, position_value
from tests.servers import SLOW, Gunicorn, connections_to_each_worker, get, post, wait_for_workers

# 4x4, four in a row: solved in about a millisecond, so requests rarely overlap;
# whether they meet in the lock or in the cache, one search must be all there is.
FOUR_BY_FOUR = {"board": ["x...", ".o..", "....", "...."], "k": 4}


@pytest.fixture
def env(tmp_path):
    return {"CACHE_DIR": str(tmp_path / "cache"), "SEARCH_BUDGET": "2"}


@pytest.mark.slow
def test_a_position_solved_by_one_worker_is_a_hit_for_the_other(env):
    board = {"board": ["x..", "...", "..o"]}
    with Gunicorn(workers=2, env=env) as server:
        wait_for_workers(server.url, 2)
        status, first = post(server.url + "/move", board)
        assert status == 200 and first["cached"] is False
        solver_pid = first["worker"]
        # Pairs of concurrent requests keep both workers busy, so the other one
        # soon answers; every answer is a hit, whichever worker gives it.
        other = None
        with ThreadPoolExecutor(2) as pool:
            for _ in range(100):
                for status, body in pool.map(lambda _: post(server.url + "/move", board), range(2)):
                    assert status == 200 and body["cached"] is True
                    assert body["move"]["row"] * 3 + body["move"]["col"] in optimal_moves("x.......o")
                    if body["worker"] != solver_pid:
                        other = body
                if other:
                    break
        assert other is not None, "the second worker never answered"
        assert (other["value"], other["plies"]) == position_value("x.......o")
        assert other["nodes"] == 0
        totals = get(server.url + "/stats")["total"]
        assert totals["searches"] == 1 and totals["stored"] == 1 and totals["hits"] >= 1


@pytest.mark.slow
@pytest.mark.parametrize("payload", [SLOW, FOUR_BY_FOUR], ids=["5x5k4", "4x4k4"])
def test_concurrent_identical_requests_to_two_gevent_workers_run_one_search(env, payload):
    """gunicorn.conf.py's gevent workers, four requests on each at once."""
    with Gunicorn(workers=2, env=env) as server:
        # One gevent worker may accept every new connection of a burst, so the
        # requests go over keep-alive connections known to reach each worker.
        connections = connections_to_each_worker(server.url, workers=2, each=4)
        barrier = threading.Barrier(len(connections))

        def ask(connection):
            barrier.wait()
            connection.request("POST", "/move", json.dumps(payload), {"Content-Type": "application/json"})
            response = connection.getresponse()
            return response.status, json.loads(response.read())

        try:
            with ThreadPoolExecutor(len(connections)) as pool:
                answers = list(pool.map(ask, connections))
        finally:
            for connection in connections:
                connection.close()
        assert_one_search(server.url, answers)
        workers = [body["worker"] for _, body in answers]
        assert len(set(workers[:4])) == len(set(workers[4:])) == 1 and workers[0] != workers[4]


@pytest.mark.slow
@pytest.mark.parametrize("payload", [SLOW, FOUR_BY_FOUR], ids=["5x5k4", "4x4k4"])
def test_concurrent_identical_requests_to_two_sync_workers_run_one_search(env, payload):
    """Sync workers: one request at a time each, so a busy worker leaves the next request to the other."""
    with Gunicorn(workers=2, env=env, extra_args=["--worker-class", "sync"]) as server:
        wait_for_workers(server.url, 2)  # both have booted, so both can take requests
        barrier = threading.Barrier(8)

        def ask(_):
            barrier.wait()
            return post(server.url + "/move", payload)

        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(ask, range(8)))
        assert_one_search(server.url, answers)
        assert len({body["worker"] for _, body in answers}) == 2  # both workers took part


def assert_one_search(url: str, answers: list[tuple[int, dict]]) -> None:
    """Eight answers to one position: all proven and equal, and one search behind them all."""
    assert all(status == 200 for status, _ in answers)
    bodies = [body for _, body in answers]
    assert all(body["proven"] for body in bodies)
    assert len({(body["value"], body["plies"]) for body in bodies}) == 1
    assert sum(not body["cached"] for body in bodies) == 1
    totals = get(url + "/stats")["total"]
    assert totals["searches"] == 1
    assert totals["stored"] == 1
    assert totals["waited"] + totals["hits"] == 7


@pytest.mark.slow
def test_healthz_and_security_headers_under_gunicorn(env):
    with Gunicorn(workers=1, env={**env, "FRAME_ANCESTORS": "'self' https://example.com"}) as server:
        with urllib.request.urlopen(server.url + "/healthz", timeout=10) as response:
            assert response.status == 200
            policy = response.headers["Content-Security-Policy"]
            assert "frame-ancestors 'self' https://example.com" in policy
            assert response.headers["X-Frame-Options"] is None
        status, body = post(server.url + "/move", {"board": ["xx.", "...", "..."]})
        assert status == 409 and "impossible counts" in body["error"]
