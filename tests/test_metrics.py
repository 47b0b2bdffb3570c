"""GET /metrics: Prometheus text, totals right across gunicorn workers (exited ones merged),
/stats from the same counters, one render a second at most, an optional token."""

from __future__ import annotations

import os
import signal
import threading
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.servers import Gunicorn, get, post, wait_for_workers, wait_until
from tictactoe.tools.counting import reachable_positions
from web.assembly import create_app
from web.config import ConfigError
from web.parts import parts
from web.runtime.interval import IntervalValue


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


def media_type(header: str) -> tuple[str, dict[str, str]]:
    """A Content-Type as Go's ``mime.ParseMediaType`` reads it (Prometheus' scraper uses it):
    a repeated parameter is an error there, so it fails here."""
    kind, *parameters = (part.strip() for part in header.split(";"))
    pairs = [parameter.split("=", 1) for parameter in parameters]
    names = [name.strip().lower() for name, _ in pairs]
    assert len(names) == len(set(names)), f"a parameter given twice: {header!r}"
    return kind.lower(), {name.strip().lower(): value.strip() for name, value in pairs}


# Prometheus' classic text format, which its text parser takes (and every version of it).
PROMETHEUS_TEXT = ("text/plain", {"version": "0.0.4", "charset": "utf-8"})


def test_the_content_type_is_the_classic_text_format_s_once(tmp_path):
    client = create_app({"CACHE_DIR": str(tmp_path / "cache")}).test_client()
    response = client.get("/metrics")
    assert media_type(response.headers["Content-Type"]) == PROMETHEUS_TEXT
    assert samples(response.get_data(as_text=True))  # and the body parses


def test_many_readers_at_once_cause_one_render_a_second(tmp_path):
    app = create_app({"CACHE_DIR": str(tmp_path / "cache")})
    page = parts(app).metrics.page
    now = [100.0]
    page.clock = lambda: now[0]  # the second stands still until the test moves it
    with ThreadPoolExecutor(8) as pool:
        bodies = list(pool.map(lambda _: app.test_client().get("/metrics").data, range(40)))
    assert page.computations == 1 and len(set(bodies)) == 1
    now[0] += 0.999
    app.test_client().get("/metrics")
    assert page.computations == 1
    now[0] += 0.001  # a second after the render: the next reader renders again
    assert app.test_client().get("/metrics").status_code == 200
    assert page.computations == 2


def test_readers_of_a_stale_page_wait_for_the_one_render_under_way():
    started, release = threading.Event(), threading.Event()

    def render() -> bytes:
        started.set()
        assert release.wait(10)
        return b"the page"

    page = IntervalValue(render, clock=lambda: 0.0)
    with ThreadPoolExecutor(8) as pool:
        first = pool.submit(page.get)
        assert started.wait(10)
        others = [pool.submit(page.get) for _ in range(7)]
        # All 8 inside get(): without the lock the 7 would find no page and render too.
        wait_until(lambda: page.callers == 8, 10, what="8 readers in get()")
        release.set()
        pages = [future.result(10) for future in (first, *others)]
    assert pages == [b"the page"] * 8 and page.computations == 1


TOKEN = "metrics-token-0123456789abcdef"


@pytest.mark.parametrize(
    "authorization", [None, "Bearer wrong-token-0123456789", f"Basic {TOKEN}", f"Bearer {TOKEN}x"]
)
def test_with_a_metrics_token_a_reader_without_it_is_refused_in_words(tmp_path, authorization):
    app = create_app({"CACHE_DIR": str(tmp_path / "cache"), "METRICS_TOKEN": TOKEN})
    headers = {} if authorization is None else {"Authorization": authorization}
    response = app.test_client().get("/metrics", headers=headers)
    assert response.status_code == 401 and response.mimetype == "application/json"
    assert "METRICS_TOKEN" in response.get_json()["error"]
    assert "Authorization: Bearer" in response.get_json()["error"]
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="metrics"'
    assert response.headers["Cache-Control"] == "no-store"
    assert parts(app).metrics.page.computations == 0  # refused before any render


def test_with_a_metrics_token_the_reader_bearing_it_gets_the_metrics(tmp_path):
    client = create_app({"CACHE_DIR": str(tmp_path / "cache"), "METRICS_TOKEN": TOKEN}).test_client()
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    assert media_type(response.headers["Content-Type"]) == PROMETHEUS_TEXT
    assert value(samples(response.get_data(as_text=True)), "tictactoe_refused_total", reason="busy") == 0


@pytest.mark.parametrize("token", ["short-token", "has spaces in it, 0123456789", 'quote"0123456789abcdef'])
def test_a_metrics_token_a_bearer_header_cannot_carry_or_too_short_stops_the_app(tmp_path, token):
    with pytest.raises(ConfigError, match="METRICS_TOKEN must be at least 16"):
        create_app({"CACHE_DIR": str(tmp_path / "cache"), "METRICS_TOKEN": token})


def read(url: str, path: str) -> tuple[str, str]:
    """The Content-Type and body of ``url + path``."""
    with urllib.request.urlopen(url + path, timeout=10) as response:
        return response.headers["Content-Type"], response.read().decode()


def stop_worker(server: Gunicorn) -> None:
    """SIGTERM the server's one worker; return once a new worker answers (its files merged by then)."""
    old = get(server.url + "/healthz")["worker"]
    os.kill(old, signal.SIGTERM)

    def replaced() -> bool:
        try:
            return get(server.url + "/healthz")["worker"] != old
        except OSError:  # between the two workers nobody accepts: ask again
            return False

    wait_until(replaced, what="a new worker")


@pytest.mark.slow
def test_exited_workers_counts_stay_in_the_totals_and_their_files_go(tmp_path):
    folder = tmp_path / "metrics"
    env = {"CACHE_DIR": str(tmp_path / "cache"), "PROMETHEUS_MULTIPROC_DIR": str(folder)}
    with Gunicorn(workers=1, env=env) as server:
        exited = []
        for _ in range(3):
            exited.append(get(server.url + "/healthz")["worker"])
            for _ in range(5):
                assert post(server.url + "/move", {"board": ["x..", ".o.", "..."]})[0] == 200
            stop_worker(server)
        live = get(server.url + "/healthz")["worker"]
        files = sorted(path.name for path in folder.glob("*.db"))
        content_type, body = read(server.url, "/metrics")
    # Three workers' files folded into one per type: only the live worker's are its own.
    assert not [name for name in files if any(f"_{pid}." in name for pid in exited)]
    assert {"counter_exited.db", "histogram_exited.db"} <= set(files)
    assert {name for name in files if "exited" not in name} == {
        f"counter_{live}.db",
        f"histogram_{live}.db",
    }
    found = samples(body)
    assert value(found, "tictactoe_http_requests_total", method="POST", endpoint="/move", status="200") == 15
    assert value(found, "tictactoe_http_request_duration_seconds_count", endpoint="/move") == 15
    assert value(found, "tictactoe_cache_events_total", event="searches") == 1  # the rest were hits
    assert media_type(content_type) == PROMETHEUS_TEXT
