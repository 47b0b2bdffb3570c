"""Repeated /move bodies (web/api/move_memo.py): Flask's own answer, replayed.

Each position is posted until the view answers it from the cache (which leaves a
memo, and Flask's status and headers captured on it), then again: the replay.
It must equal Flask's answer byte for byte but for the request id,
``Content-Length`` and ``ms``, so a hook registered after ``create_app`` marks
every answer; the counters, the metrics and the log line see it as the cache
hit it is.  A hook that changes the body leaves every answer to Flask.
"""

from __future__ import annotations

import io
import itertools
import json
import logging
import random

import pytest
from flask import Response

from app import create_app
from tictactoe import SolveResult
from tictactoe.tools import counting
from web.api import move_memo, routes
from web.api.move_memo import MAX_BODY_BYTES, MoveMemo
from web.cache.byte_budget import ByteBudget

# Headers whose value differs between two answers by design.
PER_REQUEST = {"X-Request-ID", "Content-Length"}


@pytest.fixture
def app(tmp_path, monkeypatch):
    app = create_app({"CACHE_DIR": str(tmp_path / "cache")})
    # A hook added after the app is built, as an operator's extension would be.
    marks = itertools.count(1)

    @app.after_request
    def mark(response: Response) -> Response:
        response.headers["X-Marked"] = str(next(marks))
        return response

    parsed = []  # the bodies the view parsed: a replay parses none
    real_parse = routes.parse_position_request

    def counting_parse(raw: bytes, endpoint: str):
        parsed.append(raw)
        return real_parse(raw, endpoint)

    monkeypatch.setattr(routes, "parse_position_request", counting_parse)
    app.parsed = parsed
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
    return {name: value for name, value in response.headers.items() if name not in PER_REQUEST | {"X-Marked"}}


def first_then_memo(client, app, body: bytes, **headers):
    """The view's first answer from the cache (a search may come before it), then the replay."""
    first = post(client, body, **headers)
    if not first.get_json()["cached"]:  # searched (a symmetric position may have been stored already)
        first = post(client, body, **headers)
    assert first.get_json()["cached"]
    before = len(app.parsed)
    again = post(client, body, **headers)
    assert len(app.parsed) == before, "a known body is replayed, unparsed"
    return first, again


def test_every_3x3_position_is_replayed_as_flask_first_answered_it(client, app):
    positions = [board.to_text() for board in counting.reachable_positions() if not board.is_over()]
    for seed, board in enumerate(positions):
        body = json.dumps({"board": board, "seed": seed}).encode()
        first, again = first_then_memo(client, app, body)
        assert again.status_code == first.status_code == 200
        assert without_ms(again) == without_ms(first), board
        assert fixed_headers(again) == fixed_headers(first), board
        assert again.headers["Content-Length"] == str(len(again.data))
        assert again.headers["X-Request-ID"] != first.headers["X-Request-ID"]
    memos = list(app.extensions["solved_positions"].local._entries.values())
    assert sum(isinstance(memo, MoveMemo) for memo, _ in memos) == len(positions)


def test_a_hook_registered_after_create_app_marks_every_one_of_five_identical_answers(client, app):
    body = json.dumps({"board": ["x..", ".o.", "..."], "seed": 1}).encode()
    answers = [post(client, body) for _ in range(5)]
    # The search, then the first answer from the cache (captured): the rest replay it, mark included.
    assert [answer.headers["X-Marked"] for answer in answers] == ["1", "2", "2", "2", "2"]
    assert [answer.get_json()["cached"] for answer in answers] == [False, True, True, True, True]
    assert len(app.parsed) == 2


def test_a_hook_that_changes_the_body_leaves_every_answer_to_flask(client, app):
    @app.after_request
    def add_field(response: Response) -> Response:
        if response.is_json:
            response.set_data(response.get_data().replace(b'"k":', b'"extra":1,"k":'))
        return response

    body = json.dumps({"board": ["x..", ".o.", "..."], "seed": 1}).encode()
    answers = [post(client, body) for _ in range(5)]
    assert [answer.headers["X-Marked"] for answer in answers] == ["1", "2", "3", "4", "5"]
    assert all(answer.get_json()["extra"] == 1 for answer in answers)
    assert len(app.parsed) == 5


@pytest.mark.parametrize("header", ["Set-Cookie", "Vary"])
def test_an_answer_with_a_cookie_or_a_vary_header_is_never_replayed(client, app, header):
    @app.after_request
    def per_client(response: Response) -> Response:
        response.headers[header] = "visitor=1" if header == "Set-Cookie" else "Origin"
        return response

    body = json.dumps({"board": ["x..", ".o.", "..."], "seed": 1}).encode()
    answers = [post(client, body) for _ in range(4)]
    assert [answer.headers["X-Marked"] for answer in answers] == ["1", "2", "3", "4"]
    assert len(app.parsed) == 4


def test_headers_are_captured_per_scheme(client, app):
    # x . .
    # . . .      HTTPS answers carry Strict-Transport-Security, plain HTTP ones do not
    # . . .
    body = json.dumps({"board": ["x..", "...", "..."], "seed": 2}).encode()
    plain, plain_again = first_then_memo(client, app, body)
    before = len(app.parsed)
    secure = client.post(
        "/move", data=body, headers={"Content-Type": "application/json"}, base_url="https://localhost"
    )
    assert len(app.parsed) == before + 1  # no HTTPS answer captured yet: Flask answers
    secure_again = client.post(
        "/move", data=body, headers={"Content-Type": "application/json"}, base_url="https://localhost"
    )
    assert len(app.parsed) == before + 1
    assert (
        "Strict-Transport-Security" in secure.headers and "Strict-Transport-Security" in secure_again.headers
    )
    assert "Strict-Transport-Security" not in plain_again.headers
    assert fixed_headers(secure_again) == fixed_headers(secure)
    assert fixed_headers(post(client, body)) == fixed_headers(plain)


def test_a_move_is_not_compressed_for_a_client_that_takes_gzip(client, app):
    body = json.dumps({"board": ["x..", ".o.", "..."], "seed": 3}).encode()
    first, again = first_then_memo(client, app, body, **{"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert without_ms(again) == without_ms(first)
    assert fixed_headers(again) == fixed_headers(first)
    assert "Content-Encoding" not in again.headers and "Vary" not in again.headers


def test_the_same_seed_draws_the_same_move_and_unseeded_draws_cover_every_best_move(client, app, monkeypatch):
    # x . .
    # . o .      x to move: the best moves are a tie between several cells
    # . . .
    seeded = json.dumps({"board": ["x..", ".o.", "..."], "seed": 7}).encode()
    first, again = first_then_memo(client, app, seeded)
    assert json.loads(again.data)["move"] == json.loads(first.data)["move"]

    unseeded = json.dumps({"board": ["x..", ".o.", "..."]}).encode()
    monkeypatch.setattr(move_memo, "_UNSEEDED", random.Random(1))
    first_then_memo(client, app, unseeded)
    analysis = client.post("/analyze", json={"board": ["x..", ".o.", "..."]}).get_json()
    best = {(cell["row"], cell["col"]) for cell in analysis["best"]}
    assert len(best) > 1
    before = len(app.parsed)
    drawn = {tuple(json.loads(post(client, unseeded).data)["move"].values()) for _ in range(60)}
    assert drawn == best and len(app.parsed) == before


def test_the_counters_metrics_and_log_line_see_a_replay(client, app, caplog):
    body = json.dumps({"board": ["x..", "...", "..."]}).encode()
    post(client, body), post(client, body)
    hits = client.get("/stats").get_json()["worker"]["hits"]
    with caplog.at_level(logging.INFO, logger="web.request"):
        before = len(app.parsed)
        again = post(client, body, **{"X-Request-ID": "router-id-42"})
        assert len(app.parsed) == before
    assert again.headers["X-Request-ID"] == "router-id-42"
    assert client.get("/stats").get_json()["worker"]["hits"] == hits + 1
    (line,) = [record for record in caplog.records if record.name == "web.request"]
    assert (line.request_id, line.method, line.path, line.status) == ("router-id-42", "POST", "/move", 200)
    assert (line.cache, line.board, line.source) == ("hit", "3x3k3", "proof")
    metrics = client.get("/metrics").data.decode()
    assert 'tictactoe_http_requests_total{endpoint="/move",method="POST",status="200"} 3.0' in metrics
    assert 'tictactoe_answers_total{source="proof"} 3.0' in metrics


def test_a_body_that_is_not_a_known_one_is_parsed_and_checked(client, app):
    body = json.dumps({"board": ["x..", "...", "..."]}).encode()
    post(client, body), post(client, body)
    before = len(app.parsed)
    assert post(client, body + b" ").status_code == 200  # other bytes: parsed afresh
    assert len(app.parsed) == before + 1
    assert post(client, b'{"board": "x..').get_json()["error"].startswith("the body is not valid JSON")
    assert post(client, json.dumps({"board": ["xx.", "...", "..."]}).encode()).status_code == 409
    refused = post(client, body, "text/plain")  # a known body, but not sent as JSON
    assert (
        refused.status_code == 400 and "Content-Type must be application/json" in refused.get_json()["error"]
    )


def test_a_body_that_stops_arriving_gets_a_408(app):
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


class Memory:
    """A stand-in for SolvedPositions' memory: its ``kept`` and ``keep`` on a ByteBudget."""

    def __init__(self, budget: int) -> None:
        self.local: ByteBudget[str | bytes, object] = ByteBudget(budget)

    def kept(self, body: bytes) -> object | None:
        return self.local.get(body)

    def keep(self, body: bytes, answer: object, size: int) -> None:
        self.local.put(body, answer, size)


def answers_for(app, rows: list[str], cells: range) -> dict[int, Response]:
    with app.app_context():
        return {
            cell: Response(
                json.dumps({"board": rows, "move": cell, "ms": move_memo.MS_MARK}),
                mimetype="application/json",
            )
            for cell in cells
        }


def proven(cells: range) -> SolveResult:
    return SolveResult(value=None, plies=None, best_moves=list(cells), nodes=0, seconds=0.0, proven=True)


def test_memos_are_bounded_in_bytes_and_body_size(app):
    answers = answers_for(app, ["x.."], range(1))
    one = Memory(10**6)
    move_memo.remember(one, b"0", proven(range(1)), answers, None, "3x3k3", "proof")
    memory = Memory(budget=3 * one.local.bytes)  # room for three memos of this size
    for n in range(5):
        move_memo.remember(memory, b"%d" % n, proven(range(1)), answers, None, "3x3k3", "proof")
    assert len(memory.local) == 3 and move_memo.recall(memory, b"0") is None
    big = b"x" * (MAX_BODY_BYTES + 1)
    move_memo.remember(memory, big, proven(range(1)), answers, None, "3x3k3", "proof")
    assert move_memo.recall(memory, big) is None
    memo = move_memo.recall(memory, b"4")
    assert memo is not None
    assert json.loads(memo.body(random.Random(1), started=0.0))["move"] == 0


def test_a_flood_of_big_distinct_bodies_stays_within_the_budget(app):
    # A 15x15 board whose 25 empty cells are all best moves, posted with a new seed each time.
    budget = 200_000
    memory = Memory(budget)
    rows = ["x.o" * 5] * 15
    answers = answers_for(app, rows, range(25))
    for seed in range(500):
        body = json.dumps({"board": rows, "k": 15, "seed": seed}).encode()
        move_memo.remember(memory, body, proven(range(25)), answers, seed, "15x15k15", "proof")
        assert memory.local.bytes <= budget
    text = sum(len(answer.get_data()) for answer in answers.values())
    assert 1 < len(memory.local) <= budget // text  # each memo counts at least its text
    last = json.dumps({"board": rows, "k": 15, "seed": 499}).encode()
    assert move_memo.recall(memory, last) is not None


def test_an_answer_without_the_ms_mark_is_refused(app):
    with app.app_context():
        answers = {0: Response(json.dumps({"move": 0, "ms": 1.0}), mimetype="application/json")}
    with pytest.raises(ValueError, match="must hold"):
        move_memo.remember(Memory(10**6), b"0", proven(range(1)), answers, None, "3x3k3", "proof")
