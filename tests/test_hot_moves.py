"""The hot path (web/api/hot_moves.py): a repeated POST /move body answered before Flask,
exactly as Flask would.

Each position is posted until Flask answers it from the cache (which leaves a
record), then once more: the hot path's answer.  The two must agree byte for
byte but for ``ms``, headers included; the counters, the metrics and the
log line must see the hot path's answer as they see Flask's.
"""

from __future__ import annotations

import io
import json
import logging
import random

import pytest

from app import create_app
from tictactoe.tools import counting
from web.api import hot_moves
from web.api.hot_moves import MAX_BODY_BYTES, HotMoves

# Headers whose value differs between two answers by design.
PER_REQUEST = {"X-Request-ID", "Content-Length"}


@pytest.fixture
def app(tmp_path):
    app = create_app({"CACHE_DIR": str(tmp_path / "cache")})
    app.flask_requests = []  # type: ignore[attr-defined]
    app.before_request(lambda: app.flask_requests.append(1))  # type: ignore[attr-defined]
    return app


@pytest.fixture
def client(app):
    return app.test_client()


def post(client, body: bytes, content_type: str = "application/json", **headers):
    return client.post("/move", data=body, headers={"Content-Type": content_type, **headers})


def without_ms(response) -> dict:
    document = json.loads(response.data)
    assert isinstance(document.pop("ms"), float)
    return document


def fixed_headers(response) -> dict[str, str]:
    return {name: value for name, value in response.headers.items() if name not in PER_REQUEST}


def flask_then_hot(client, app, body: bytes, **headers):
    """Flask's first answer from the cache (a search may come before it), then the hot path's answer."""
    before = len(app.flask_requests)
    flask_hit = post(client, body, **headers)
    if not flask_hit.get_json()["cached"]:  # searched (a symmetric position may have been stored already)
        flask_hit = post(client, body, **headers)
    assert flask_hit.get_json()["cached"] and len(app.flask_requests) > before
    before = len(app.flask_requests)
    hot = post(client, body, **headers)
    assert len(app.flask_requests) == before, "a known body should not reach Flask"
    return flask_hit, hot


def test_every_3x3_position_is_answered_alike_by_both_paths(client, app):
    positions = [board.to_text() for board in counting.reachable_positions() if not board.is_over()]
    for seed, board in enumerate(positions):
        body = json.dumps({"board": board, "seed": seed}).encode()
        hit, hot = flask_then_hot(client, app, body)
        assert hot.status_code == hit.status_code == 200
        assert without_ms(hot) == without_ms(hit), board
        assert fixed_headers(hot) == fixed_headers(hit), board
        assert hot.headers["Content-Length"] == str(len(hot.data))
    assert len(app.extensions["hot_moves"]) == len(positions)


def test_neither_path_compresses_a_move_for_a_client_that_takes_gzip(client, app):
    # web/http/compression.py leaves POST /move alone, so both paths answer the same plain bytes.
    body = json.dumps({"board": ["x..", ".o.", "..."], "seed": 3}).encode()
    hit, hot = flask_then_hot(client, app, body, **{"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert without_ms(hot) == without_ms(hit)
    assert fixed_headers(hot) == fixed_headers(hit)
    assert "Content-Encoding" not in hit.headers and "Vary" not in hit.headers


def test_the_same_seed_draws_the_same_move_and_unseeded_draws_cover_every_best_move(client, app, monkeypatch):
    # x . .
    # . o .      x to move: the best moves are a tie between several cells
    # . . .
    seeded = json.dumps({"board": ["x..", ".o.", "..."], "seed": 7}).encode()
    hit, hot = flask_then_hot(client, app, seeded)
    assert json.loads(hot.data)["move"] == json.loads(hit.data)["move"]

    unseeded = json.dumps({"board": ["x..", ".o.", "..."]}).encode()
    monkeypatch.setattr(hot_moves, "_UNSEEDED", random.Random(1))
    flask_then_hot(client, app, unseeded)
    analysis = client.post("/analyze", json={"board": ["x..", ".o.", "..."]}).get_json()
    best = {(cell["row"], cell["col"]) for cell in analysis["best"]}
    assert len(best) > 1
    drawn = {tuple(json.loads(post(client, unseeded).data)["move"].values()) for _ in range(60)}
    assert drawn == best


def test_the_counters_metrics_and_log_line_see_a_hot_answer(client, app, caplog):
    body = json.dumps({"board": ["x..", "...", "..."]}).encode()
    post(client, body), post(client, body)
    hits = client.get("/stats").get_json()["worker"]["hits"]
    with caplog.at_level(logging.INFO, logger="web.request"):
        before = len(app.flask_requests)
        hot = post(client, body, **{"X-Request-ID": "router-id-42"})
        assert len(app.flask_requests) == before
    assert hot.headers["X-Request-ID"] == "router-id-42"
    assert client.get("/stats").get_json()["worker"]["hits"] == hits + 1
    (line,) = [record for record in caplog.records if record.name == "web.request"]
    assert (line.request_id, line.method, line.path, line.status) == ("router-id-42", "POST", "/move", 200)
    assert (line.cache, line.board, line.source) == ("hit", "3x3k3", "proof")
    metrics = client.get("/metrics").data.decode()
    assert 'tictactoe_http_requests_total{endpoint="/move",method="POST",status="200"} 3.0' in metrics


@pytest.mark.parametrize(
    ("content_type", "extra", "status"),
    [
        ("application/JSON", {}, 200),  # a spelling the hot path leaves to Flask, which accepts it
        # The test client sends the body as it is, not in chunks: Flask's 400 for a bad body.
        ("application/json", {"Transfer-Encoding": "chunked"}, 400),
    ],
)
def test_requests_the_hot_path_does_not_take_reach_flask(client, app, content_type, extra, status):
    body = json.dumps({"board": ["x..", "...", "..."]}).encode()
    post(client, body), post(client, body)
    before = len(app.flask_requests)
    response = post(client, body, content_type, **extra)
    assert len(app.flask_requests) == before + 1
    assert response.status_code == status


def test_a_body_that_is_not_a_known_one_is_answered_by_flask_with_the_bytes_read(client, app):
    body = json.dumps({"board": ["x..", "...", "..."]}).encode()
    post(client, body), post(client, body)
    assert post(client, body + b" ").status_code == 200  # other bytes: Flask reads the body it was handed
    assert post(client, b'{"board": "x..').get_json()["error"].startswith("the body is not valid JSON")
    assert post(client, json.dumps({"board": ["xx.", "...", "..."]}).encode()).status_code == 409


def test_a_body_that_stops_arriving_gets_flasks_408(app):
    class Stalling(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, buffer):
            raise TimeoutError("timed out")

    statuses = []
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/move",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BufferedReader(Stalling()),
        "wsgi.errors": io.StringIO(),
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": "100",
    }
    body = b"".join(app(environ, lambda status, headers, exc_info=None: statuses.append(status)))
    assert statuses == ["408 REQUEST TIMEOUT"]
    assert json.loads(body) == {"error": "the request body stopped arriving: send it at once"}


def test_records_are_bounded_in_bytes_and_body_size():
    one = HotMoves(lambda document: json.dumps(document, separators=(",", ":")) + "\n")
    answer = {"move": {"row": 0, "col": 0}, "ms": 0.5, "worker": 1}
    one.remember(b"0", [answer], None, "3x3k3", "proof")
    moves = HotMoves(one._dumps, budget=3 * one.bytes)  # room for three records of this size
    for n in range(5):
        moves.remember(b"%d" % n, [answer], None, "3x3k3", "proof")
    assert len(moves) == 3 and moves.get(b"0") is None and moves.get(b"4") is not None
    moves.remember(b"x" * (MAX_BODY_BYTES + 1), [answer], None, "3x3k3", "proof")
    assert moves.get(b"x" * (MAX_BODY_BYTES + 1)) is None
    record = moves.get(b"4")
    assert json.loads(record.render(1.23456)) == {"move": {"row": 0, "col": 0}, "ms": 1.235, "worker": 1}


def test_a_flood_of_big_distinct_bodies_stays_within_the_budget():
    # A 15x15 board whose 25 empty cells are all best moves, posted with a new seed each time.
    dumps = lambda document: json.dumps(document, separators=(",", ":")) + "\n"  # noqa: E731
    budget = 200_000
    moves = HotMoves(dumps, budget=budget)
    rows = ["x.o" * 5] * 15
    answers = [
        {"board": rows, "move": {"row": cell // 15, "col": cell % 15}, "ms": 0.1} for cell in range(25)
    ]
    for seed in range(500):
        body = json.dumps({"board": rows, "k": 15, "seed": seed}).encode()
        moves.remember(body, answers, seed, "15x15k15", "proof")
        assert moves.bytes <= budget
    text = sum(len(dumps(answer)) for answer in answers)
    assert 1 < len(moves) <= budget // text  # each record counts at least its text
    assert moves.get(json.dumps({"board": rows, "k": 15, "seed": 499}).encode()) is not None
