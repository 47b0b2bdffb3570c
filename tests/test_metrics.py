"""GET /metrics: Prometheus text, totals right across gunicorn workers, /stats from the same counters."""

from __future__ import annotations

import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from prometheus_client.parser import text_string_to_metric_families

from app import create_app
from servers import Gunicorn, wait_for_workers
from test_workers import get, post
from tictactoe.counting import reachable_positions


def samples(text: str) -> dict[tuple, float]:
    """Every sample of an exposition, keyed by (name, sorted labels)."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(found: dict, name: str, **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def test_requests_latency_and_cache_events_are_counted(tmp_path):
    client = create_app({"CACHE_DIR": str(tmp_path / "cache")}).test_client()
    for _ in range(3):
        assert client.post("/move", json={"board": ["x..", ".o.", "..."]}).status_code == 200
    assert client.post("/move", json={"board": ["xx.", "...", "..."]}).status_code == 409
    assert client.get("/no/such/thing").status_code == 404
    response = client.get("/metrics")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    assert response.headers["Cache-Control"] == "no-store"
    found = samples(response.get_data(as_text=True))
    requests = "tictactoe_http_requests_total"
    assert value(found, requests, method="POST", endpoint="/move", status="200") == 3
    assert value(found, requests, method="POST", endpoint="/move", status="409") == 1
    # A path no route matches is "other": clients cannot grow the label set.
    assert value(found, requests, method="GET", endpoint="other", status="404") == 1
    assert value(found, "tictactoe_http_request_duration_seconds_count", endpoint="/move") == 4
    events = "tictactoe_cache_events_total"
    assert (
        value(found, events, event="misses"),
        value(found, events, event="searches"),
        value(found, events, event="hits"),
        value(found, events, event="stored"),
    ) == (1, 1, 2, 1)
    assert value(found, "tictactoe_search_seconds_count", board="3x3") == 1
    assert value(found, "tictactoe_refused_total", reason="busy") == 0


def test_methods_clients_invent_are_counted_as_other(tmp_path):
    client = create_app({"CACHE_DIR": str(tmp_path / "cache")}).test_client()
    for method in ("BREW", "WHEN", "BREW"):
        assert client.open("/move", method=method).status_code == 405
    found = samples(client.get("/metrics").get_data(as_text=True))
    assert value(found, "tictactoe_http_requests_total", method="other", endpoint="other", status="405") == 3
    assert not any(dict(labels).get("method") in ("BREW", "WHEN") for _, labels in found)


def test_stats_reads_the_same_counters_as_metrics(tmp_path):
    client = create_app({"CACHE_DIR": str(tmp_path / "cache")}).test_client()
    for board in (["x..", "...", "..."], ["x..", "...", "..."], [".x.", "...", "..."]):
        client.post("/analyze", json={"board": board})
    stats = client.get("/stats").get_json()
    found = samples(client.get("/metrics").get_data(as_text=True))
    for name, count in stats["total"].items():
        metric, label = (
            ("tictactoe_refused_total", "reason")
            if name == "busy"
            else ("tictactoe_cache_events_total", "event")
        )
        assert value(found, metric, **{label: name}) == count, name
    assert stats["worker"] == {"pid": stats["worker"]["pid"], **stats["total"]}


@pytest.mark.slow
def test_totals_are_correct_across_two_gunicorn_workers(tmp_path):
    bodies = [{"board": board.to_text()} for board in reachable_positions() if not board.is_over()][:200]
    with Gunicorn(workers=2, env={"CACHE_DIR": str(tmp_path / "cache")}) as server:
        wait_for_workers(server.url, 2)
        with ThreadPoolExecutor(4) as pool:  # concurrent, so both workers answer
            answers = list(pool.map(lambda body: post(server.url + "/move", body), bodies + bodies))
        assert all(status == 200 for status, _ in answers)
        assert len({body["worker"] for _, body in answers}) == 2
        with urllib.request.urlopen(server.url + "/metrics", timeout=10) as response:
            found = samples(response.read().decode())
        stats = get(server.url + "/stats")
    requests = value(found, "tictactoe_http_requests_total", method="POST", endpoint="/move", status="200")
    assert requests == 400  # every request, whichever worker answered it
    assert value(found, "tictactoe_http_request_duration_seconds_count", endpoint="/move") == 400
    total = stats["total"]
    # Each of the 200 positions was looked up twice; each search that was not
    # a wait stored its result; every lookup was a hit or a miss.
    assert total["hits"] + total["misses"] == 400
    assert total["searches"] + total["waited"] == total["misses"]
    assert value(found, "tictactoe_cache_events_total", event="hits") == total["hits"]
    assert stats["total_scope"] == "every worker of this server since it started"
    assert stats["worker"]["hits"] < total["hits"]  # the other worker counted some too
