"""Repeated /move bodies (web/api/move_memo.py): the view's memo, on the one request path.

A body is posted until the view answers it from the cache (which leaves a memo of
it), then again: the answer from the memo.  It must equal the cache's answer but for
``ms`` and the per-request headers; it goes through Flask and every hook, so a hook
registered after ``create_app`` sees and changes every answer, and the level still
chooses the move on every request.
"""

from __future__ import annotations

import itertools
import json
import logging
import random

import pytest
from flask import Response, request

from tictactoe import Board, Decision, Level, Rules, choose_move
from tictactoe.tools import counting
from web.api import move_memo, payload, routes
from web.api.move_memo import MAX_BODY_BYTES, MoveMemo
from web.cache import Answer
from web.cache.byte_budget import ByteBudget
from web.parts import parts

# Headers whose value differs between two answers by design.
PER_REQUEST = {"X-Request-ID", "Content-Length", "X-Marked"}


@pytest.fixture(scope="module")
def app(app):
    # Hooks added after the app is built, as an operator's extension would add them: a mark
    # that differs on every answer, and a field added to the body when the request asks.
    marks = itertools.count(1)

    @app.after_request
    def mark(response: Response) -> Response:
        response.headers["X-Marked"] = str(next(marks))
        if request.headers.get("X-Add-Field") and response.is_json:
            response.set_data(response.get_data().replace(b'"k":', b'"extra":1,"k":'))
        return response

    return app


class Counted:
    """How often the view parsed a body and rendered an answer."""

    def __init__(self, monkeypatch) -> None:
        self.parsed = self.rendered = 0
        parse, render = routes.parse_position_request, routes.jsonify

        def counting_parse(raw, endpoint):
            self.parsed += 1
            return parse(raw, endpoint)

        def counting_render(*args, **fields):
            self.rendered += 1
            return render(*args, **fields)

        monkeypatch.setattr(routes, "parse_position_request", counting_parse)
        monkeypatch.setattr(routes, "jsonify", counting_render)


@pytest.fixture
def counted(monkeypatch):
    return Counted(monkeypatch)


def post(client, body: bytes, content_type: str = "application/json", **headers):
    return client.post("/move", data=body, headers={"Content-Type": content_type, **headers})


def without_ms(response) -> dict:
    document = json.loads(response.data)
    assert isinstance(document.pop("ms"), float)
    return document


def fixed_headers(response) -> dict[str, str]:
    return {name: value for name, value in response.headers.items() if name not in PER_REQUEST}


def first_from_cache(client, body: bytes, **headers):
    """The view's first answer from the cache (a search may come before it)."""
    first = post(client, body, **headers)
    if not first.get_json()["cached"]:  # searched (a symmetric position may have been stored already)
        first = post(client, body, **headers)
    assert first.get_json()["cached"]
    return first


def test_every_3x3_position_up_to_symmetry_answers_from_its_memo_as_from_the_cache(client, counted):
    # Every position up to symmetry (627): the memo keys bodies, symmetry plays no part in it.
    positions = sorted(
        {
            board.canonical()[0].text_key(): board.canonical()[0].to_text()
            for board in counting.reachable_positions()
            if not board.is_over()
        }.values()
    )
    for seed, board in enumerate(positions):
        body = json.dumps({"board": board, "seed": seed}).encode()
        first = first_from_cache(client, body)
        parsed = counted.parsed
        again = post(client, body)
        assert counted.parsed == parsed, "a known body is answered from its memo, unparsed"
        assert again.status_code == first.status_code == 200
        assert without_ms(again) == without_ms(first), board
        assert fixed_headers(again) == fixed_headers(first), board
        assert again.headers["X-Request-ID"] != first.headers["X-Request-ID"]


def test_a_hook_registered_after_create_app_sees_and_changes_every_answer(client, counted):
    body = json.dumps({"board": ["x..", ".o.", "..."], "seed": 1}).encode()
    answers = [post(client, body, **{"X-Add-Field": "1"}) for _ in range(5)]
    assert len({answer.headers["X-Marked"] for answer in answers}) == 5
    assert [answer.get_json()["extra"] for answer in answers] == [1] * 5
    plain = post(client, body)
    assert "extra" not in plain.get_json() and plain.get_json()["cached"]
    assert counted.parsed <= 2  # the search and the first answer from the cache; then the memo


def test_a_level_that_chooses_otherwise_plays_its_own_move_on_every_request(client, counted, monkeypatch):
    # x . .
    # . o .      x to move: the best moves are a tie between several cells
    # . . .
    def last_best(board, level, rng, analyst):
        result = choose_move(board, level, rng, analyst=analyst).result
        return Decision(max(result.best_moves), result)

    monkeypatch.setattr(routes, "choose_move", last_best)
    body = json.dumps({"board": ["x..", ".o.", "..."]}).encode()
    moves = {tuple(post(client, body).get_json()["move"].values()) for _ in range(6)}
    best = client.post("/analyze", json={"board": ["x..", ".o.", "..."]}).get_json()["best"]
    assert moves == {max((cell["row"], cell["col"]) for cell in best)}
    assert counted.parsed <= 2


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=UTF-8"])
def test_a_repeated_body_is_parsed_and_rendered_once(client, counted, content_type):
    body = json.dumps({"board": ["x..", ".o.", "..x"], "k": 3, "seed": 4}).encode()
    first_from_cache(client, body, **{"Content-Type": content_type})
    parsed, rendered = counted.parsed, counted.rendered
    answers = [post(client, body, content_type) for _ in range(10)]
    assert (counted.parsed, counted.rendered) == (parsed, rendered)
    assert len({answer.data.split(b'"ms":')[0] for answer in answers}) == 1


def test_the_same_seed_draws_the_same_move_and_unseeded_draws_cover_every_best_move(
    client, counted, monkeypatch
):
    seeded = json.dumps({"board": ["x..", ".o.", "..."], "seed": 7}).encode()
    first = first_from_cache(client, seeded)
    assert {post(client, seeded).get_json()["move"]["row"] for _ in range(5)} == {
        first.get_json()["move"]["row"]
    }

    unseeded = json.dumps({"board": ["x..", ".o.", "..."], "level": "perfect"}).encode()
    monkeypatch.setattr(move_memo, "_UNSEEDED", random.Random(1))
    first_from_cache(client, unseeded)
    best = client.post("/analyze", json={"board": ["x..", ".o.", "..."]}).get_json()["best"]
    parsed, rendered = counted.parsed, counted.rendered
    drawn = {tuple(post(client, unseeded).get_json()["move"].values()) for _ in range(60)}
    assert drawn == {(cell["row"], cell["col"]) for cell in best} and len(best) > 1
    # Each best move is rendered once, the first time it is drawn; nothing is parsed again.
    assert counted.parsed == parsed and counted.rendered - rendered <= len(best)


def test_the_counters_metrics_and_log_line_see_a_memo_hit(app, client, caplog):
    body = json.dumps({"board": [".x.", "...", "..."]}).encode()
    first_from_cache(client, body)
    hits = client.get("/stats").get_json()["worker"]["hits"]
    registry = parts(app).metrics.registry
    proofs = registry.get_sample_value("tictactoe_answers_total", {"source": "proof"})
    with caplog.at_level(logging.INFO, logger="web.request"):
        again = post(client, body, **{"X-Request-ID": "router-id-42"})
    assert again.headers["X-Request-ID"] == "router-id-42"
    assert client.get("/stats").get_json()["worker"]["hits"] == hits + 1
    (line,) = [record for record in caplog.records if record.name == "web.request"]
    assert (line.request_id, line.method, line.path, line.status) == ("router-id-42", "POST", "/move", 200)
    assert (line.cache, line.board, line.source) == ("hit", "3x3k3", "proof")
    assert registry.get_sample_value("tictactoe_answers_total", {"source": "proof"}) == proofs + 1


def test_a_body_that_is_not_a_known_one_is_parsed_and_checked(client, counted):
    body = json.dumps({"board": ["..x", "...", "..."]}).encode()
    first_from_cache(client, body)
    parsed = counted.parsed
    assert post(client, body + b" ").status_code == 200  # other bytes: parsed afresh
    assert counted.parsed == parsed + 1
    assert post(client, b'{"board": "x..').get_json()["error"].startswith("the body is not valid JSON")
    assert post(client, json.dumps({"board": ["xx.", "...", "..."]}).encode()).status_code == 409
    refused = post(client, body, "text/plain")  # a known body, but not sent as JSON
    assert (
        refused.status_code == 400 and "Content-Type must be application/json" in refused.get_json()["error"]
    )


def test_a_move_is_not_compressed_for_a_client_that_takes_gzip(client):
    body = json.dumps({"board": ["x..", ".o.", "..."], "seed": 3}).encode()
    gzip = {"Accept-Encoding": "gzip, deflate, br, zstd"}
    first_from_cache(client, body, **gzip)
    again = post(client, body, **gzip)
    assert "Content-Encoding" not in again.headers and "Vary" not in again.headers


# -- the memo itself ------------------------------------------------------------------------


class Memory:
    """A stand-in for SolvedPositions' memory: its ``kept`` and ``keep`` on a ByteBudget."""

    def __init__(self, budget: int) -> None:
        self.local: ByteBudget[str | bytes, object] = ByteBudget(budget)

    def kept(self, body: bytes) -> object | None:
        return self.local.get(body)

    def keep(self, body: bytes, answer: object, size: int) -> None:
        self.local.put(body, answer, size)


def memo_of(rows: list[str], k: int, answer_text: bytes) -> MoveMemo:
    """A memo of a proven answer on ``rows``, its first cell rendered as ``answer_text``."""
    board = Board.from_text(rows, k=k)
    answer = Answer(value=None, plies=None, best_moves=board.legal_moves(), nodes=0, seconds=0.0, proven=True)
    memo = MoveMemo(payload.PositionRequest(board, Level.PERFECT, None), answer)
    memo.body(board.legal_moves()[0], lambda cell: answer_text, started=0.0)
    return memo


MARKED = json.dumps({"move": 0, "ms": move_memo.MS_MARK}).encode()


def test_memos_are_bounded_in_bytes_and_body_size():
    one = Memory(10**6)
    move_memo.remember(one, b"0", memo_of(["x..", "...", "..."], 3, MARKED))
    memory = Memory(budget=3 * one.local.bytes)  # room for three memos of this size
    for n in range(5):
        move_memo.remember(memory, b"%d" % n, memo_of(["x..", "...", "..."], 3, MARKED))
    assert len(memory.local) == 3 and move_memo.recall(memory, b"0") is None
    big = b"x" * (MAX_BODY_BYTES + 1)
    move_memo.remember(memory, big, memo_of(["x..", "...", "..."], 3, MARKED))
    assert move_memo.recall(memory, big) is None
    memo = move_memo.recall(memory, b"4")
    assert memo is not None
    assert json.loads(memo.body(1, lambda cell: MARKED, started=0.0))["move"] == 0


def test_a_flood_of_big_distinct_bodies_stays_within_the_budget():
    # A 15x15 board of 75 empty cells, each of which a level may play, posted with a new seed each time.
    budget = 200_000
    memory = Memory(budget)
    rows = ["xo" * 7 + "x", "ox" * 7 + "o"] * 5 + ["." * 15] * 5
    rows = Board.from_text(rows, k=15).to_text()
    for seed in range(500):
        body = json.dumps({"board": rows, "k": 15, "seed": seed}).encode()
        move_memo.remember(memory, body, memo_of(rows, 15, MARKED))
        assert memory.local.bytes <= budget
    # Each memo counts a rendered answer for every empty cell, whether rendered yet or not.
    assert 1 < len(memory.local) <= budget // (Rules(15, 15, 15).cells - 150) // len(MARKED)
    last = json.dumps({"board": rows, "k": 15, "seed": 499}).encode()
    assert move_memo.recall(memory, last) is not None


def test_an_answer_without_the_ms_mark_is_refused():
    with pytest.raises(ValueError, match="must hold"):
        memo_of(["x..", "...", "..."], 3, json.dumps({"move": 0, "ms": 1.0}).encode())
