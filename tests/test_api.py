"""The JSON API through Flask's test client: every error, perfect play on every 3x3 position,
the OpenAPI document against what the app really answers.

The reference for perfect play is a plain memoised minimax over the text form,
written here and sharing nothing with the engine's solver.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from tests import minimax
from tests.oracle import WINDOWS, move_values, optimal_moves, position_value, reachable_positions, rows
from tictactoe import LEVELS, QUICK_LEVELS, Board, choose_move
from tictactoe.algorithms.registry import ENGINES, describe_levels
from web.api.shapes import (
    AnalysisAnswer,
    EngineAnalysisAnswer,
    EnginesAnswer,
    MoveAnswer,
    PositionAnswer,
    StateAnswer,
    StatsAnswer,
    TraceAnswer,
    TraceNode,
)
from web.assembly import create_app
from web.http.error_body import ErrorBody
from web.parts import parts

# The one refusal of a finished game, whichever way it ended (tictactoe.errors.GameOverError).
GAME_OVER = "the game is over: there is no move to make"

# -- fixtures ------------------------------------------------------------------


@pytest.fixture(scope="module")
def spec(client):
    return client.get("/openapi.json").get_json()


# -- the error table -------------------------------------------------------------

BIG = json.dumps({"board": ["x..", ".o.", "..."], "pad": "." * (16 * 1024)})
J = "application/json"

# (id, method, path, request kwargs, status, substring of the error message)
CASES = [
    ("ok", "POST", "/move", {"json": {"board": ["x..", ".o.", "..."]}}, 200, None),
    ("ok-analyze", "POST", "/analyze", {"json": {"board": ["x..", ".o.", "..."]}}, 200, None),
    ("ok-state-over", "POST", "/state", {"json": {"board": ["xxx", "oo.", "..."]}}, 200, None),
    ("not-json", "POST", "/move", {"data": "{board: [x]", "content_type": J}, 400, "not valid JSON"),
    (
        "nan",
        "POST",
        "/move",
        {"data": '{"board": ["x..", ".o.", "..."], "k": NaN}', "content_type": J},
        400,
        "not valid JSON",
    ),
    ("not-utf8", "POST", "/move", {"data": b'{"board": ["\xff.."]}', "content_type": J}, 400, "not UTF-8"),
    (
        "wrong-content-type",
        "POST",
        "/move",
        {"data": '{"board": ["x..", ".o.", "..."]}', "content_type": "text/plain"},
        400,
        "Content-Type must be application/json, not 'text/plain'",
    ),
    (
        "form-content-type",
        "POST",
        "/move",
        {"data": {"board": "x.."}},
        400,
        "Content-Type must be application/json",
    ),
    ("no-content-type", "POST", "/move", {"data": '{"board": ["x..", ".o.", "..."]}'}, 400, "none was given"),
    ("empty-body", "POST", "/move", {"data": "", "content_type": J}, 400, "body is empty"),
    (
        "body-array",
        "POST",
        "/move",
        {"json": [["x..", ".o.", "..."]]},
        400,
        "must be a JSON object, not an array",
    ),
    (
        "body-null",
        "POST",
        "/analyze",
        {"json": None, "data": "null", "content_type": J},
        400,
        "must be a JSON object, not null",
    ),
    ("no-board", "POST", "/move", {"json": {"level": "perfect"}}, 400, "board is required"),
    (
        "board-string",
        "POST",
        "/move",
        {"json": {"board": "x...o...."}},
        400,
        "board must be a list of row strings",
    ),
    (
        "board-object",
        "POST",
        "/analyze",
        {"json": {"board": {"0": "x.."}}},
        400,
        "board must be a list of row strings",
    ),
    ("board-empty", "POST", "/move", {"json": {"board": []}}, 400, "board has no rows"),
    (
        "row-not-string",
        "POST",
        "/move",
        {"json": {"board": ["x..", 5, "..."]}},
        400,
        "board row 1 must be a string, not int",
    ),
    (
        "ragged",
        "POST",
        "/move",
        {"json": {"board": ["x..", ".o", "..."]}},
        400,
        "row 0 has 3 cells, row 1 has 2",
    ),
    (
        "bad-char",
        "POST",
        "/move",
        {"json": {"board": ["x..", ".q.", "..."]}},
        400,
        "bad character 'q' at row 1, column 1",
    ),
    ("2x2", "POST", "/move", {"json": {"board": ["x.", ".o"]}}, 400, "rows must be between 3 and 15, not 2"),
    (
        "16x16",
        "POST",
        "/move",
        {"json": {"board": ["." * 16] * 16}},
        400,
        "rows must be between 3 and 15, not 16",
    ),
    (
        "3x16",
        "POST",
        "/analyze",
        {"json": {"board": ["." * 16] * 3}},
        400,
        "cols must be between 3 and 15, not 16",
    ),
    (
        "k-2",
        "POST",
        "/move",
        {"json": {"board": ["x..", ".o.", "..."], "k": 2}},
        400,
        "k must be between 3 and 3 on a 3x3 board, not 2",
    ),
    (
        "k-too-big",
        "POST",
        "/move",
        {"json": {"board": ["x..", ".o.", "..."], "k": 4}},
        400,
        "k must be between 3 and 3 on a 3x3 board, not 4",
    ),
    (
        "k-too-big-4x5",
        "POST",
        "/move",
        {"json": {"board": ["....."] * 4, "k": 6}},
        400,
        "k must be between 3 and 5 on a 4x5 board, not 6",
    ),
    (
        "k-string",
        "POST",
        "/move",
        {"json": {"board": ["x..", ".o.", "..."], "k": "3"}},
        400,
        'k must be an integer, not "3"',
    ),
    (
        "k-float",
        "POST",
        "/move",
        {"json": {"board": ["x..", ".o.", "..."], "k": 3.0}},
        400,
        "k must be an integer, not 3.0",
    ),
    (
        "k-bool",
        "POST",
        "/move",
        {"json": {"board": ["x..", ".o.", "..."], "k": True}},
        400,
        "k must be an integer, not true",
    ),
    (
        "k-null",
        "POST",
        "/move",
        {"json": {"board": ["x..", ".o.", "..."], "k": None}},
        400,
        "k must be an integer, not null",
    ),
    (
        "unknown-level",
        "POST",
        "/move",
        {"json": {"board": ["x..", ".o.", "..."], "level": "hard"}},
        400,
        'level must be one of easy, medium, perfect, not "hard"',
    ),
    (
        "level-number",
        "POST",
        "/analyze",
        {"json": {"board": ["x..", ".o.", "..."], "level": 3}},
        400,
        "level must be one of",
    ),
    (
        "unknown-field",
        "POST",
        "/move",
        {"json": {"board": ["x..", ".o.", "..."], "depth": 3}},
        400,
        'unknown field "depth": the fields are board, k, level, seed',
    ),
    (
        "seed-on-analyze",
        "POST",
        "/analyze",
        {"json": {"board": ["x..", ".o.", "..."], "seed": 1}},
        400,
        'unknown field "seed"',
    ),
    (
        "level-on-state",
        "POST",
        "/state",
        {"json": {"board": ["x..", ".o.", "..."], "level": "easy"}},
        400,
        'unknown field "level"',
    ),
    (
        "seed-negative",
        "POST",
        "/move",
        {"json": {"board": ["x..", ".o.", "..."], "seed": -1}},
        400,
        "seed must be an integer",
    ),
    (
        "seed-bool",
        "POST",
        "/move",
        {"json": {"board": ["x..", ".o.", "..."], "seed": False}},
        400,
        "seed must be an integer",
    ),
    (
        "counts-x",
        "POST",
        "/move",
        {"json": {"board": ["xx.", "...", "..."]}},
        409,
        "impossible counts: 2 x and 0 o",
    ),
    (
        "counts-o",
        "POST",
        "/analyze",
        {"json": {"board": ["oo.", "x..", "..."]}},
        409,
        "impossible counts: 1 x and 2 o",
    ),
    ("counts-state", "POST", "/state", {"json": {"board": ["xxx", "x..", "..."]}}, 409, "impossible counts"),
    (
        "both-lines",
        "POST",
        "/move",
        {"json": {"board": ["xxx", "ooo", "..."]}},
        409,
        "both x and o have a line",
    ),
    (
        "o-line-then-x",
        "POST",
        "/move",
        {"json": {"board": ["ooo", "xx.", "x.x"]}},
        409,
        "o has a line but x moved after it",
    ),
    (
        "x-line-then-o",
        "POST",
        "/analyze",
        {"json": {"board": ["xxx", "oo.", "o.."]}},
        409,
        "x has a line but o moved after it",
    ),
    (
        "over-won",
        "POST",
        "/move",
        {"json": {"board": ["xxx", "oo.", "..."]}},
        409,
        GAME_OVER,
    ),
    (
        "over-won-o",
        "POST",
        "/analyze",
        {"json": {"board": ["xx.", "ooo", "x.."]}},
        409,
        GAME_OVER,
    ),
    (
        "over-full",
        "POST",
        "/move",
        {"json": {"board": ["xox", "xox", "oxo"]}},
        409,
        GAME_OVER,
    ),
    (
        "over-full-analyze",
        "POST",
        "/analyze",
        {"json": {"board": ["xox", "xox", "oxo"]}},
        409,
        GAME_OVER,
    ),
    ("too-large", "POST", "/move", {"data": BIG, "content_type": J}, 413, "too large: at most 16 KiB"),
    ("too-large-analyze", "POST", "/analyze", {"data": BIG, "content_type": J}, 413, "too large"),
    ("get-move", "GET", "/move", {}, 405, "GET is not allowed on /move: use POST"),
    ("get-analyze", "GET", "/analyze", {}, 405, "use POST"),
    ("put-state", "PUT", "/state", {"json": {}}, 405, "PUT is not allowed on /state"),
    ("post-healthz", "POST", "/healthz", {"json": {}}, 405, "use GET"),
    ("delete-openapi", "DELETE", "/openapi.json", {}, 405, "use GET"),
    ("unknown-api-path", "GET", "/api/nope", {"headers": {"Accept": "text/html"}}, 404, "no such resource"),
    (
        "unknown-api-post",
        "POST",
        "/api/move",
        {"json": {"board": ["x..", ".o.", "..."]}},
        404,
        "no such resource",
    ),
    ("unknown-path-json", "GET", "/nope", {}, 404, "no such resource"),
]


@pytest.mark.parametrize(
    "method,path,kwargs,status,message", [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_status_and_message(client, method, path, kwargs, status, message):
    response = client.open(path, method=method, **kwargs)
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    body = response.get_json()
    if message is None:
        assert "error" not in body
    else:
        assert set(body) == {"error"}
        assert message in body["error"]
        assert "Traceback" not in body["error"] and "/work/" not in body["error"]
    if status == 405:
        assert "POST" in response.headers["Allow"] or "GET" in response.headers["Allow"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_an_internal_error_is_a_json_500(client, monkeypatch):
    from web.api import routes

    def broken(*args, **kwargs):
        raise RuntimeError("secret detail /srv/app/web/api.py")

    monkeypatch.setattr(routes, "choose_move", broken)  # every /move answer asks the level for its move
    response = client.post("/move", json={"board": ["x..", ".o.", "..."]})
    assert response.status_code == 500
    assert response.get_json() == {"error": "internal error: the server could not answer this request"}


# -- the answers' content ----------------------------------------------------------


def test_move_answer_shape(client, spec):
    body = client.post("/move", json={"board": ["x..", ".o.", "..."], "seed": 7}).get_json()
    # Without an engine the answer has exactly the fields every answer has.
    assert set(body) == set(spec["components"]["schemas"]["MoveAnswer"]["required"])
    assert body["player"] == "x" and body["level"] == "perfect" and body["k"] == 3
    assert body["proven"] is True and body["depth"] is None
    assert (body["value"], body["plies"]) == position_value("x...o....")


def test_a_winning_move_reports_the_line(client):
    body = client.post("/move", json={"board": ["xx.", "oo.", "..."]}).get_json()
    assert body["move"] == {"row": 0, "col": 2}
    assert body["status"] == "x_won" and body["line"] == [[0, 0], [0, 1], [0, 2]]
    assert (body["value"], body["plies"]) == ("win", 1)


def test_the_last_move_draws(client):
    body = client.post("/move", json={"board": ["xox", "xoo", "ox."]}).get_json()
    assert body["board"] == ["xox", "xoo", "oxx"]
    assert body["status"] == "draw" and body["line"] is None and body["player"] == "x"


def test_state_of_a_game_in_progress_and_won(client):
    going = client.post("/state", json={"board": ["X..", ".O.", "..."]}).get_json()
    assert going == {
        "board": ["x..", ".o.", "..."],
        "k": 3,
        "status": "in_progress",
        "line": None,
        "to_move": "x",
    }
    won_by_o = client.post("/state", json={"board": ["xx.", "ooo", "x.."]}).get_json()
    assert won_by_o["status"] == "o_won" and won_by_o["line"] == [[1, 0], [1, 1], [1, 2]]
    assert won_by_o["to_move"] is None


def test_easy_and_medium_answer_without_searching(app):
    client = app.test_client()
    before = client.get("/stats").get_json()["worker"]["searches"]
    for level in QUICK_LEVELS:
        body = client.post(
            "/move", json={"board": ["x.o", "...", "..."], "level": level, "seed": 3}
        ).get_json()
        assert body["level"] == level and body["player"] == "x"
        # medium blocks nothing here and easy wins nothing: any empty cell will do
        assert body["board"][body["move"]["row"]][body["move"]["col"]] == "x"
    assert client.get("/stats").get_json()["worker"]["searches"] == before
    medium = client.post("/move", json={"board": ["xx.", "o..", "o.."], "level": "medium"})
    assert medium.get_json()["move"] == {"row": 0, "col": 2}  # wins in one


def test_easy_reports_the_value_once_the_position_is_cached(app):
    client = app.test_client()
    board = ["x..", "...", "..o"]
    unknown = client.post("/move", json={"board": board, "level": "easy"}).get_json()
    assert (unknown["value"], unknown["proven"], unknown["cached"]) == (None, False, False)
    client.post("/move", json={"board": board})  # perfect: solves and stores it
    known = client.post("/move", json={"board": board, "level": "easy"}).get_json()
    assert (known["value"], known["plies"]) == position_value("x.......o")
    assert known["proven"] is True and known["cached"] is True


def test_k_defaults_and_bigger_boards(client):
    body = client.post("/move", json={"board": ["...."] * 4, "seed": 1}).get_json()
    assert body["k"] == 4 and body["proven"] is True and body["value"] == "draw"
    big = client.post("/move", json={"board": ["." * 15] * 15}).get_json()
    assert big["k"] == 5 and big["proven"] is False and big["value"] is None
    assert isinstance(big["depth"], int)


def test_the_answer_says_how_it_is_known(app):
    """source: book for an early 5x5 k=4 position, proof for 3x3, heuristic for unproven 15x15."""
    client = app.test_client()
    early = {"board": ["....."] * 2 + ["..x.."] + ["....."] * 2, "k": 4}  # x in the centre
    for path in ("/move", "/analyze"):
        body = client.post(path, json=early).get_json()
        assert (body["source"], body["proven"], body["value"]) == ("book", True, "draw")
        small = client.post(path, json={"board": ["x..", "...", "..."]}).get_json()
        assert (small["source"], small["proven"]) == ("proof", True)
    # A cache hit keeps the source the entry was solved with.
    again = client.post("/move", json=early).get_json()
    assert (again["source"], again["cached"]) == ("book", True)
    big = client.post("/move", json={"board": ["." * 15] * 15}).get_json()
    assert (big["source"], big["proven"]) == ("heuristic", False)
    easy = client.post("/move", json={"board": ["x..", "...", ".o."], "level": "easy"}).get_json()
    assert (easy["source"], easy["proven"]) == (None, False)  # nothing known, no search made


# -- perfect play on every position -------------------------------------------------


@pytest.fixture(scope="module")
def positions():
    found = reachable_positions()
    assert len(found) == 4520
    return found


def test_analyze_matches_minimax_on_every_position(client, positions):
    for cells in positions:
        response = client.post("/analyze", json={"board": rows(cells)})
        assert response.status_code == 200, cells
        body = response.get_json()
        expected = move_values(cells)
        got = {m["row"] * 3 + m["col"]: (m["value"], m["plies"]) for m in body["moves"]}
        assert got == expected, cells
        assert (body["value"], body["plies"]) == position_value(cells), cells
        best = {m["row"] * 3 + m["col"] for m in body["best"]}
        assert best == optimal_moves(cells), cells
        assert {m["row"] * 3 + m["col"] for m in body["moves"] if m["best"]} == best
        assert body["proven"] is True


def test_move_is_optimal_and_reported_right_on_a_sample_of_positions(client, positions):
    """A seeded sample: the values behind the move are checked on every position through
    /analyze above and the perfect level's choice in test_solver.py; here, what /move adds
    (the move played, the board after it, the status and the winning line)."""
    sample = random.Random(25).sample(positions, 900)
    statuses = set()
    for cells in sample:
        response = client.post("/move", json={"board": rows(cells)})
        assert response.status_code == 200, cells
        body = response.get_json()
        cell = body["move"]["row"] * 3 + body["move"]["col"]
        assert cell in optimal_moves(cells), cells
        assert (body["value"], body["plies"]) == position_value(cells), cells
        mover = "x" if cells.count("x") == cells.count("o") else "o"
        after = cells[:cell] + mover + cells[cell + 1 :]
        assert body["board"] == rows(after) and body["player"] == mover
        if minimax.winner(tuple(rows(after)), 3) == mover:
            assert body["status"] == f"{mover}_won"
            line = [r * 3 + c for r, c in body["line"]]
            assert tuple(sorted(line)) in WINDOWS and cell in line
        else:
            assert body["status"] == ("draw" if "." not in after else "in_progress")
            assert body["line"] is None
        statuses.add(body["status"])
    assert statuses == {"x_won", "o_won", "draw", "in_progress"}  # the sample reaches every ending


# -- the OpenAPI document ------------------------------------------------------------


def resolve(schema: dict, spec: dict) -> dict:
    while "$ref" in schema:
        node = spec
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def schema_errors(value, schema: dict, spec: dict, where: str = "$") -> list[str]:
    """A small validator for the JSON Schema subset the document uses (OpenAPI 3.0 flavour)."""
    schema = resolve(schema, spec)
    errors: list[str] = []
    if value is None:
        return [] if schema.get("nullable") or "type" not in schema else [f"{where}: null"]
    kind = schema.get("type")
    checks = {"object": dict, "array": list, "string": str, "boolean": bool}
    if kind in checks and not isinstance(value, checks[kind]):
        return [f"{where}: not {kind}"]
    if kind in ("integer", "number") and (
        isinstance(value, bool) or not isinstance(value, int if kind == "integer" else (int, float))
    ):
        return [f"{where}: not {kind}"]
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{where}: {value!r} not in enum")
    # Each keyword below applies to one kind of value only, as in JSON Schema.
    if (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and (value < schema.get("minimum", value) or value > schema.get("maximum", value))
    ):
        errors.append(f"{where}: out of range")
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append(f"{where}: does not match {schema['pattern']}")
        if len(value) < schema.get("minLength", 0):
            errors.append(f"{where}: too short")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", 1e9):
            errors.append(f"{where}: wrong number of items")
        for i, item in enumerate(value):
            if "items" in schema:
                errors += schema_errors(item, schema["items"], spec, f"{where}[{i}]")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        errors += [f"{where}: {name} missing" for name in schema.get("required", ()) if name not in value]
        if schema.get("additionalProperties") is False:
            errors += [f"{where}: {name} not allowed" for name in value if name not in properties]
        for name, item in value.items():
            if name in properties:
                errors += schema_errors(item, properties[name], spec, f"{where}.{name}")
    for part in schema.get("allOf", ()):
        errors += schema_errors(value, part, spec, where)
    if "anyOf" in schema and all(schema_errors(value, part, spec, where) for part in schema["anyOf"]):
        errors.append(f"{where}: matches no anyOf branch")
    if (
        "oneOf" in schema
        and sum(not schema_errors(value, part, spec, where) for part in schema["oneOf"]) != 1
    ):
        errors.append(f"{where}: matches not exactly one oneOf branch")
    return errors


def test_openapi_is_an_openapi_3_document(spec):
    assert spec["openapi"].startswith("3.")
    assert spec["info"]["title"] and spec["info"]["version"]
    for path, item in spec["paths"].items():
        assert path.startswith("/")
        for method, operation in item.items():
            assert method in ("get", "post")
            assert operation["responses"], (path, method)
            for status, response in operation["responses"].items():
                assert re.fullmatch(r"[1-5]\d\d", status) and response["description"]
                for media in response.get("content", {}).values():
                    resolve(media["schema"], spec)  # every $ref resolves
            if "requestBody" in operation:
                resolve(operation["requestBody"]["content"]["application/json"]["schema"], spec)


def documented(spec: dict, method: str, path: str) -> dict | None:
    return spec["paths"].get(path, {}).get(method.lower())


@pytest.mark.parametrize(
    "method,path,kwargs,status,message", [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_every_answer_in_the_table_is_documented(client, spec, method, path, kwargs, status, message):
    operation = documented(spec, method, path)
    if status in (404, 405):
        # No such resource or method: the path or the method is absent from the document.
        assert operation is None
        return
    assert operation is not None, (method, path)
    assert str(status) in operation["responses"], (method, path, status)
    response = client.open(path, method=method, **kwargs)
    media = operation["responses"][str(status)]["content"]["application/json"]
    assert schema_errors(response.get_json(), media["schema"], spec) == []
    # The request schema is precise: a body it accepts fails only on a game rule (409).
    if "json" in kwargs and kwargs.get("data") is None:
        request_schema = operation["requestBody"]["content"]["application/json"]["schema"]
        fits = not schema_errors(kwargs["json"], request_schema, spec)
        assert fits == (status in (200, 409)), (kwargs["json"], status)


def test_other_answers_are_documented_and_fit(app, spec):
    client = app.test_client()
    for path in ("/healthz", "/stats", "/openapi.json"):
        response = client.get(path)
        operation = documented(spec, "GET", path)
        schema = operation["responses"][str(response.status_code)]["content"]["application/json"]["schema"]
        assert schema_errors(response.get_json(), schema, spec) == [], path
    assert "503" in documented(spec, "POST", "/move")["responses"]
    assert "Retry-After" in documented(spec, "POST", "/move")["responses"]["503"]["headers"]
    assert "503" in documented(spec, "GET", "/healthz")["responses"]


# What the document says of an answer with a field its shape lacks.
SHADOW = "$: shadow not allowed"

# Each answer: the request that gets it, its schema in the document, and the TypedDict it is built as.
POSTED = {"board": ["x.o", ".x.", "o.."]}
SHAPES = [
    ("move", "POST", "/move", {"json": POSTED}, "MoveAnswer", MoveAnswer),
    ("analyze", "POST", "/analyze", {"json": POSTED}, "AnalysisAnswer", AnalysisAnswer),
    (
        "analyze an engine",
        "POST",
        "/analyze",
        {"json": {**POSTED, "engine": "minimax"}},
        "EngineAnalysisAnswer",
        EngineAnalysisAnswer,
    ),
    ("position", "GET", "/position?board=x1o/1x1/o2", {}, "PositionAnswer", PositionAnswer),
    ("state", "POST", "/state", {"json": POSTED}, "StateAnswer", StateAnswer),
    ("engines", "GET", "/engines", {}, "EnginesAnswer", EnginesAnswer),
    ("stats", "GET", "/stats", {}, "StatsAnswer", StatsAnswer),
    ("error", "POST", "/move", {"json": {"board": ["x"]}}, "ErrorBody", ErrorBody),
    ("refusal", "GET", "/position?board=xxx/ooo/3", {}, "ErrorBody", ErrorBody),
    ("trace", "GET", "/trace?board=x1o/1x1/o2&engine=alphabeta", {}, "TraceAnswer", TraceAnswer),
]


def answer_schema(spec: dict, method: str, path: str, status: int, component: str | None) -> dict:
    """The schema the document gives the answer: the component, or the operation's own."""
    if component is not None:
        return spec["components"]["schemas"][component]
    operation = documented(spec, method, path.partition("?")[0])
    return operation["responses"][str(status)]["content"]["application/json"]["schema"]


def shaped_answer(client, spec: dict, method: str, path: str, kwargs: dict, component: str | None):
    """The body the app answers to the request, and the schema the document gives it."""
    response = client.open(path, method=method, **kwargs)
    return response.get_json(), answer_schema(spec, method, path, response.status_code, component)


@pytest.mark.parametrize(
    "method,path,kwargs,component,shape", [s[1:] for s in SHAPES], ids=[s[0] for s in SHAPES]
)
def test_every_answer_is_its_typeddict_in_order_and_the_schema_is_generated_from_it(
    client, spec, method, path, kwargs, component, shape
):
    body, schema = shaped_answer(client, spec, method, path, kwargs, component)
    assert list(schema["properties"]) == list(shape.__annotations__)
    assert set(schema["required"]) == shape.__required_keys__
    # The wire keeps the declaration's order (the JSON provider keeps insertion order).
    assert list(body) == [name for name in shape.__annotations__ if name in body]
    assert shape.__required_keys__ <= set(body)
    assert schema_errors(body, schema, spec) == []


@pytest.mark.parametrize(
    "method,path,kwargs,component,shape", [s[1:] for s in SHAPES], ids=[s[0] for s in SHAPES]
)
def test_a_field_an_answer_has_and_its_typeddict_lacks_fails_the_schema_check(
    client, spec, method, path, kwargs, component, shape
):
    body, schema = shaped_answer(client, spec, method, path, kwargs, component)
    assert schema_errors({**body, "shadow": True}, schema, spec) == [SHADOW]


def test_the_move_schema_leaves_the_teaching_fields_optional(spec):
    move = spec["components"]["schemas"]["MoveAnswer"]
    assert {"engine", "principal_variation"} <= set(move["properties"]) - set(move["required"])


def object_schemas(schema, where: str):
    """Every object schema with properties inside ``schema`` (no $ref followed), with where it is."""
    if isinstance(schema, dict):
        if "properties" in schema:
            yield where, schema
        for key, part in schema.items():
            yield from object_schemas(part, f"{where}/{key}")
    elif isinstance(schema, list):
        for i, part in enumerate(schema):
            yield from object_schemas(part, f"{where}/{i}")


def test_every_answer_object_is_closed(spec):
    answers = [("components", spec["components"]["schemas"])]
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                for media in response.get("content", {}).values():
                    answers.append((f"{method} {path} {status}", media["schema"]))
    found = [where for name, schema in answers for where, _ in object_schemas(schema, name)]
    assert {"components/MoveAnswer", "components/CacheHealth", "components/FoldedCounts"} <= set(found)
    assert "get /rooms/{room_id}/events 200/oneOf/0" in found  # an event of the stream
    open_ones = [
        where
        for name, schema in answers
        for where, part in object_schemas(schema, name)
        if part.get("additionalProperties") is not False
    ]
    assert open_ones == []
    # The request body stays as written: closed at the top, its anyOf cases open.
    request = spec["paths"]["/move"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert "additionalProperties" not in request["anyOf"][0]


def test_a_field_the_document_lacks_fails_the_schema_check(spec, tmp_path):
    # An app of the test's own, with a hook that adds a field to every JSON answer (a hook must
    # come before the app's first request, and the module's app has answered many).
    app = create_app({"CACHE_DIR": str(tmp_path)})

    @app.after_request
    def shadow(response):
        if response.is_json:
            response.set_data(json.dumps({**response.get_json(), "shadow": True}))
        return response

    client = app.test_client()
    for path, schema in (("/move", "MoveAnswer"), ("/state", "StateAnswer")):
        body = client.post(path, json={"board": ["x.o", ".x.", "o.."]}).get_json()
        assert body["shadow"] is True, path
        ref = {"$ref": f"#/components/schemas/{schema}"}
        assert schema_errors(body, ref, spec) == [SHADOW], path
        del body["shadow"]
        assert schema_errors(body, ref, spec) == [], path


def test_a_traced_node_is_its_typeddict(client, spec):
    schema = spec["components"]["schemas"]["TraceNode"]
    assert list(schema["properties"]) == list(TraceNode.__annotations__)
    tree = client.get("/trace?board=x1o/1x1/o2&engine=alphabeta").get_json()["tree"]
    assert [list(node) for node in tree] == [list(TraceNode.__annotations__)] * len(tree)


@pytest.mark.parametrize("level", LEVELS)
def test_a_seed_replays_the_levels_own_move_on_any_server(app, client, level, tmp_path):
    #   x . .
    #   . o .      several moves each level may play: a seed picks one, the same on every server
    #   . . .
    rows = ["x..", ".o.", "..."]
    other = create_app({"CACHE_DIR": str(tmp_path)}).test_client()  # its cache and memo empty
    played = set()
    for seed in range(12):
        body = client.post("/move", json={"board": rows, "level": level, "seed": seed}).get_json()
        again = other.post("/move", json={"board": rows, "level": level, "seed": seed}).get_json()
        assert again["move"] == body["move"], seed
        analyst = parts(app).solved.solve
        expected = choose_move(Board.from_text(rows), level, random.Random(seed), analyst=analyst)
        assert divmod(expected.move, 3) == (body["move"]["row"], body["move"]["col"]), seed
        played.add((body["move"]["row"], body["move"]["col"]))
    assert len(played) > 1  # the seed decides: not one move whatever it is


def test_the_levels_and_engines_in_the_document_are_the_registrys(spec):
    schemas = spec["components"]["schemas"]
    assert schemas["Level"]["enum"] == [entry["name"] for entry in describe_levels()]
    for entry in describe_levels():
        assert f"{entry['name']}: {entry['description']}" in schemas["Level"]["description"]
    assert schemas["EngineName"]["enum"] == list(ENGINES)
