"""Real gunicorn with two workers sharing the default file-system cache (in a temp folder)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.oracle import optimal_moves, position_value
from tests.search_gate import SearchGate
from tests.servers import FOUR_BY_FOUR, Gunicorn, connections_to_each_worker, get, post, wait_for_workers


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


def gated_server(env: dict[str, str], gate: SearchGate, extra_args: list[str] | None = None) -> Gunicorn:
    """Two workers of the app whose searches wait at ``gate`` (tests/gated_search_app.py)."""
    return Gunicorn(
        workers=2,
        env={**env, "SEARCH_GATE": str(gate.folder)},
        extra_args=extra_args,
        app="tests.gated_search_app:app",
    )


@pytest.mark.slow
def test_concurrent_identical_requests_to_two_gevent_workers_run_one_search(env, tmp_path):
    """gunicorn.conf.py's gevent workers, four requests on each at once: the first search is
    held until the seven other requests all wait for it, so all seven wait and none searches."""
    gate = SearchGate(tmp_path / "gate")
    with gated_server(env, gate) as server:
        # One gevent worker may accept every new connection of a burst, so the
        # requests go over keep-alive connections known to reach each worker.
        connections = connections_to_each_worker(server.url, workers=2, each=4)

        def ask(connection):
            connection.request(
                "POST", "/move", json.dumps(FOUR_BY_FOUR), {"Content-Type": "application/json"}
            )
            response = connection.getresponse()
            return response.status, json.loads(response.read())

        try:
            with ThreadPoolExecutor(len(connections)) as pool:
                answers = pool.map(ask, connections)
                gate.wait_for(searches=1, waiting=7)
                gate.release()
                answers = list(answers)
        finally:
            for connection in connections:
                connection.close()
        assert_one_search(server.url, answers, waited=7)
        workers = [body["worker"] for _, body in answers]
        assert len(set(workers[:4])) == len(set(workers[4:])) == 1 and workers[0] != workers[4]


@pytest.mark.slow
def test_concurrent_identical_requests_to_two_sync_workers_run_one_search(env, tmp_path):
    """Sync workers take one request at a time: while the first search is held, the other
    worker's request waits for it and the six others queue; they come after the result is
    stored, so they are hits."""
    gate = SearchGate(tmp_path / "gate")
    with gated_server(env, gate, extra_args=["--worker-class", "sync"]) as server:
        wait_for_workers(server.url, 2)  # both have booted, so both can take requests
        with ThreadPoolExecutor(8) as pool:
            answers = pool.map(lambda _: post(server.url + "/move", FOUR_BY_FOUR), range(8))
            gate.wait_for(searches=1, waiting=1)
            gate.release()
            answers = list(answers)
        assert_one_search(server.url, answers, waited=1)
        assert len({body["worker"] for _, body in answers}) == 2  # both workers took part


def assert_one_search(url: str, answers: list[tuple[int, dict]], waited: int) -> None:
    """Eight answers to one position: all proven and equal, one search behind them all, and
    ``waited`` of the others waited for it while the rest were hits."""
    assert all(status == 200 for status, _ in answers)
    bodies = [body for _, body in answers]
    assert all(body["proven"] for body in bodies)
    assert len({(body["value"], body["plies"]) for body in bodies}) == 1
    assert sum(not body["cached"] for body in bodies) == 1
    totals = get(url + "/stats")["total"]
    assert (totals["searches"], totals["stored"]) == (1, 1)
    assert (totals["waited"], totals["hits"]) == (waited, 7 - waited)


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
